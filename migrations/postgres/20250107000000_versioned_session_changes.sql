-- A session change is announced with the active session's id and version,
-- "s:<channel>:<id>:<version>", so a process that saved that version itself keeps the copy it
-- cached instead of reading the session back (see the bot's store/cache.rs). An ended or
-- deleted session is still announced as "s:<channel>": every process drops its copy.
-- A process of an earlier release cannot read the longer form and drops its whole cache on
-- it: still correct, only slower until it is replaced.
CREATE OR REPLACE FUNCTION saikoro_announce_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    changed RECORD;
BEGIN
    IF TG_OP = 'DELETE' THEN
        changed := OLD;
    ELSE
        changed := NEW;
    END IF;
    IF TG_TABLE_NAME = 'server_settings' THEN
        PERFORM pg_notify('saikoro_changes', 'g:' || changed.guild_id);
    ELSIF TG_TABLE_NAME = 'channel_settings' THEN
        PERFORM pg_notify('saikoro_changes', 'c:' || changed.channel_id);
    ELSIF TG_OP <> 'DELETE' AND changed.ended_at_ms IS NULL THEN
        PERFORM pg_notify('saikoro_changes',
            's:' || changed.channel_id || ':' || changed.id || ':' || changed.version);
    ELSE
        PERFORM pg_notify('saikoro_changes', 's:' || changed.channel_id);
    END IF;
    RETURN NULL;
END;
$$;

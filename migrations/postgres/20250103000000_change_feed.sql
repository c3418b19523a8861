-- Every bot process caches server settings, channel settings and each channel's active session
-- (a stateless roll then reads nothing). A change made by any process is announced here, on
-- commit, so every other process drops its copy: "g:<guild>", "c:<channel>", "s:<channel>".
-- A trigger, not the application, sends it, so no writer (an older version, a psql session)
-- can change a row without telling the caches.
CREATE FUNCTION saikoro_announce_change() RETURNS trigger
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
    ELSE
        PERFORM pg_notify('saikoro_changes', 's:' || changed.channel_id);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER server_settings_announce AFTER INSERT OR UPDATE OR DELETE ON server_settings
    FOR EACH ROW EXECUTE FUNCTION saikoro_announce_change();
CREATE TRIGGER channel_settings_announce AFTER INSERT OR UPDATE OR DELETE ON channel_settings
    FOR EACH ROW EXECUTE FUNCTION saikoro_announce_change();
CREATE TRIGGER sessions_announce AFTER INSERT OR UPDATE OR DELETE ON sessions
    FOR EACH ROW EXECUTE FUNCTION saikoro_announce_change();

-- Saikoro store, PostgreSQL. Discord ids (u64 snowflakes) are stored bit-for-bit as BIGINT;
-- times are unix milliseconds, identical to the SQLite schema and the engine's model.

CREATE TABLE server_settings (
    guild_id      BIGINT PRIMARY KEY,
    -- The engine's ServerSettings as JSON: read and written whole, and new fields load with
    -- their defaults without a migration.
    settings      JSONB  NOT NULL,
    updated_at_ms BIGINT NOT NULL
);

CREATE TABLE channel_settings (
    channel_id    BIGINT PRIMARY KEY,
    guild_id      BIGINT NOT NULL,
    settings      JSONB  NOT NULL,
    updated_at_ms BIGINT NOT NULL
);

CREATE TABLE sessions (
    id            BIGSERIAL PRIMARY KEY,
    guild_id      BIGINT NOT NULL,
    channel_id    BIGINT NOT NULL,
    name          TEXT   NOT NULL,
    system        TEXT   NOT NULL,
    gm_id         BIGINT NOT NULL,
    -- The whole engine Session (players, roster, turn state); the columns above and below are
    -- copies kept for indexing and are authoritative for id and version.
    state         JSONB  NOT NULL,
    version       BIGINT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    ended_at_ms   BIGINT
);

-- At most one active session per channel or thread, enforced by the database itself so two
-- racing `/session start`s cannot both win.
CREATE UNIQUE INDEX sessions_one_active_per_channel ON sessions (channel_id) WHERE ended_at_ms IS NULL;
CREATE INDEX sessions_ended_by_guild ON sessions (guild_id, ended_at_ms DESC) WHERE ended_at_ms IS NOT NULL;

CREATE TABLE roll_log (
    id         BIGSERIAL PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES sessions (id),
    user_id    BIGINT NOT NULL,
    command    TEXT   NOT NULL,
    outcome    JSONB  NOT NULL,
    at_ms      BIGINT NOT NULL
);
CREATE INDEX roll_log_by_session ON roll_log (session_id, id);

-- The roll log is append-only: the database refuses to rewrite history, whoever asks.
CREATE FUNCTION roll_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'roll_log is append-only';
END;
$$;
CREATE TRIGGER roll_log_no_update BEFORE UPDATE OR DELETE ON roll_log
    FOR EACH ROW EXECUTE FUNCTION roll_log_append_only();

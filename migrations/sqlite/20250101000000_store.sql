-- Saikoro store, SQLite. Same shape as the PostgreSQL schema: Discord ids as INTEGER (64-bit),
-- times as unix milliseconds, JSON as TEXT.

CREATE TABLE server_settings (
    guild_id      INTEGER PRIMARY KEY,
    settings      TEXT    NOT NULL,
    updated_at_ms INTEGER NOT NULL
);

CREATE TABLE channel_settings (
    channel_id    INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    settings      TEXT    NOT NULL,
    updated_at_ms INTEGER NOT NULL
);

CREATE TABLE sessions (
    -- AUTOINCREMENT: ids of ended sessions are never reused, so exports stay unambiguous.
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    system        TEXT    NOT NULL,
    gm_id         INTEGER NOT NULL,
    state         TEXT    NOT NULL,
    version       INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    ended_at_ms   INTEGER
);

-- At most one active session per channel or thread.
CREATE UNIQUE INDEX sessions_one_active_per_channel ON sessions (channel_id) WHERE ended_at_ms IS NULL;
CREATE INDEX sessions_ended_by_guild ON sessions (guild_id, ended_at_ms DESC) WHERE ended_at_ms IS NOT NULL;

CREATE TABLE roll_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    user_id    INTEGER NOT NULL,
    command    TEXT    NOT NULL,
    outcome    TEXT    NOT NULL,
    at_ms      INTEGER NOT NULL
);
CREATE INDEX roll_log_by_session ON roll_log (session_id, id);

-- The roll log is append-only.
CREATE TRIGGER roll_log_no_update BEFORE UPDATE ON roll_log
BEGIN
    SELECT RAISE(ABORT, 'roll_log is append-only');
END;
CREATE TRIGGER roll_log_no_delete BEFORE DELETE ON roll_log
BEGIN
    SELECT RAISE(ABORT, 'roll_log is append-only');
END;

-- One-shot actions behind buttons (reveal a secret roll, spend Edge, apply damage): the button's
-- custom_id carries only the id; the state lives here so buttons work after a restart, and
-- used_at_ms set once makes a second press refusable.
CREATE TABLE actions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT    NOT NULL,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    owner_id      INTEGER NOT NULL,
    payload       TEXT    NOT NULL,
    created_at_ms INTEGER NOT NULL,
    used_at_ms    INTEGER
);

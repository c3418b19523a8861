-- One-shot actions behind buttons (reveal a secret roll, spend Edge, apply damage): the button's
-- custom_id carries only the id; the state lives here so buttons work after a restart, and
-- used_at_ms set once makes a second press refusable.
CREATE TABLE actions (
    id          BIGSERIAL PRIMARY KEY,
    kind        TEXT   NOT NULL,
    guild_id    BIGINT,
    channel_id  BIGINT NOT NULL,
    owner_id    BIGINT NOT NULL,
    payload     JSONB  NOT NULL,
    created_at_ms BIGINT NOT NULL,
    used_at_ms  BIGINT
);

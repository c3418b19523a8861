-- Campaigns (issue 27): every session is one evening of a campaign, which is named by its first
-- evening's id. NULL: the session is its own campaign's first evening, so every session stored
-- before campaigns is a one-evening campaign with nothing to rewrite.
ALTER TABLE sessions ADD COLUMN campaign_id BIGINT;
ALTER TABLE sessions ADD COLUMN evening INTEGER NOT NULL DEFAULT 1;
-- A campaign's evenings in order, and a channel's newest session (what `/session start` offers
-- to continue).
CREATE INDEX sessions_by_campaign ON sessions ((COALESCE(campaign_id, id)), evening);
CREATE INDEX sessions_by_channel ON sessions (channel_id, id);

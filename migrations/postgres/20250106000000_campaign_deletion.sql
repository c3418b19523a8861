-- Deleting a campaign (issue 27) is the one way rolls leave the log: the GM or a server manager
-- confirms it with a button, and the store lists the campaign's sessions here, deletes their
-- rolls and the sessions, and removes the list, in one transaction. Any other delete or update
-- of a roll is still refused by the database.
CREATE TABLE roll_log_deletions (
    session_id BIGINT PRIMARY KEY
);

CREATE OR REPLACE FUNCTION roll_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM roll_log_deletions WHERE session_id = OLD.session_id) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'roll_log is append-only';
END;
$$;

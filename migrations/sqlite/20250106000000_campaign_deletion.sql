-- Deleting a campaign (issue 27) is the one way rolls leave the log: the GM or a server manager
-- confirms it with a button, and the store lists the campaign's sessions here, deletes their
-- rolls and the sessions, and removes the list, in one transaction. Any other delete or update
-- of a roll is still refused by the database.
CREATE TABLE roll_log_deletions (
    session_id INTEGER PRIMARY KEY
);

DROP TRIGGER roll_log_no_delete;
CREATE TRIGGER roll_log_no_delete BEFORE DELETE ON roll_log
WHEN NOT EXISTS (SELECT 1 FROM roll_log_deletions WHERE session_id = OLD.session_id)
BEGIN
    SELECT RAISE(ABORT, 'roll_log is append-only');
END;

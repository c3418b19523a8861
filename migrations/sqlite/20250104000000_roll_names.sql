-- The display name each roll was made under, so the log and exports show names, not ids.
-- NULL on rows logged before it was kept (they show a mention).
ALTER TABLE roll_log ADD COLUMN user_name TEXT;

-- PostgreSQL now announces a session change with its version (see the postgres migration of
-- the same version). SQLite is one process and announces nothing: this version changes
-- nothing here; it exists so both backends share one list of versions.
SELECT 1;

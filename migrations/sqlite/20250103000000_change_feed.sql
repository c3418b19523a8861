-- PostgreSQL announces changes to the other bot processes' caches (see the postgres migration
-- of the same version). SQLite is one process: its cache is kept by the store itself, so this
-- version changes nothing here; it exists so both backends share one list of versions.
SELECT 1;

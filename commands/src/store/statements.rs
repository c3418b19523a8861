//! The SQL both backends run (see `sql.rs`, which implements the store over it).

pub(super) const SELECT_SETTINGS: &str = "SELECT settings FROM server_settings WHERE guild_id = $1";
pub(super) const UPSERT_SETTINGS: &str = "INSERT INTO server_settings (guild_id, settings, updated_at_ms) \
     VALUES ($1, $2, $3) \
     ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at_ms = excluded.updated_at_ms";

/// Creates the default row if there is none, so a first edit can lock a row too.
pub(super) const ENSURE_SETTINGS: &str = "INSERT INTO server_settings (guild_id, settings, updated_at_ms) \
     VALUES ($1, $2, $3) ON CONFLICT (guild_id) DO NOTHING";
pub(super) const SELECT_SETTINGS_FOR_UPDATE: &str =
    "SELECT settings FROM server_settings WHERE guild_id = $1 FOR UPDATE";
pub(super) const ENSURE_CHANNEL: &str = "INSERT INTO channel_settings (channel_id, guild_id, settings, updated_at_ms) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (channel_id) DO NOTHING";
pub(super) const SELECT_CHANNEL_FOR_UPDATE: &str =
    "SELECT settings FROM channel_settings WHERE channel_id = $1 FOR UPDATE";

pub(super) const SELECT_CHANNEL: &str = "SELECT settings FROM channel_settings WHERE channel_id = $1";
pub(super) const UPSERT_CHANNEL: &str = "INSERT INTO channel_settings (channel_id, guild_id, settings, updated_at_ms) \
     VALUES ($1, $2, $3, $4) \
     ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, settings = excluded.settings, \
     updated_at_ms = excluded.updated_at_ms";

pub(super) const INSERT_SESSION: &str = "INSERT INTO sessions \
     (guild_id, channel_id, name, system, gm_id, state, version, created_at_ms, updated_at_ms, ended_at_ms, \
     campaign_id, evening) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, NULL, $9, $10) RETURNING id";

/// The columns `session_from_row` reads.
pub(super) const SELECT_ACTIVE: &str = "SELECT id, state, version, updated_at_ms, ended_at_ms \
     FROM sessions WHERE channel_id = $1 AND ended_at_ms IS NULL";
/// The active session's id and version only: what a write compares with the session this
/// process kept, before reading the whole row only if that copy is not current. (PostgreSQL's,
/// row-locked, is sent with its `BEGIN`: see `pg_session_write`.)
pub(super) const SELECT_ACTIVE_VERSION: &str =
    "SELECT id, version FROM sessions WHERE channel_id = $1 AND ended_at_ms IS NULL";
pub(super) const SELECT_BY_ID: &str = "SELECT id, state, version, updated_at_ms, ended_at_ms \
     FROM sessions WHERE id = $1";
pub(super) const SELECT_ENDED: &str = "SELECT id, state, version, updated_at_ms, ended_at_ms \
     FROM sessions WHERE guild_id = $1 AND ended_at_ms IS NOT NULL \
     ORDER BY ended_at_ms DESC, id DESC LIMIT $2";

/// A channel's newest session, active or ended.
pub(super) const SELECT_LAST_IN_CHANNEL: &str = "SELECT id, state, version, updated_at_ms, ended_at_ms \
     FROM sessions WHERE channel_id = $1 ORDER BY id DESC LIMIT 1";
/// A campaign's evenings, first to last.
pub(super) const SELECT_CAMPAIGN: &str = "SELECT id, state, version, updated_at_ms, ended_at_ms \
     FROM sessions WHERE COALESCE(campaign_id, id) = $1 ORDER BY evening, id";

/// Deleting a campaign: none of its evenings may be running; its sessions are listed in
/// `roll_log_deletions` (the one list the log's append-only triggers let rows leave by), their
/// rolls and themselves deleted, and the list emptied, in one transaction.
pub(super) const COUNT_CAMPAIGN_ACTIVE: &str =
    "SELECT COUNT(*) FROM sessions WHERE COALESCE(campaign_id, id) = $1 AND ended_at_ms IS NULL";
pub(super) const LIST_CAMPAIGN_DELETION: &str = "INSERT INTO roll_log_deletions (session_id) SELECT id FROM sessions WHERE COALESCE(campaign_id, id) = $1";
pub(super) const DELETE_LISTED_ROLLS: &str =
    "DELETE FROM roll_log WHERE session_id IN (SELECT session_id FROM roll_log_deletions)";
pub(super) const DELETE_LISTED_SESSIONS: &str =
    "DELETE FROM sessions WHERE id IN (SELECT session_id FROM roll_log_deletions)";
pub(super) const CLEAR_DELETION_LIST: &str = "DELETE FROM roll_log_deletions";

/// The optimistic check: writes only if nobody saved this session since we read it. The version
/// rises by the number of edits saved ($9: a batch saves several at once).
/// Lands only on the version the edit started from, and only while the session is active.
pub(super) const UPDATE_SESSION: &str = "UPDATE sessions SET name = $1, system = $2, gm_id = $3, state = $4, \
     version = version + $9, updated_at_ms = $5, ended_at_ms = $6 \
     WHERE id = $7 AND version = $8 AND ended_at_ms IS NULL";

/// Appends only to an active session, in one statement.
pub(super) const APPEND_ROLL: &str = "INSERT INTO roll_log (session_id, user_id, command, outcome, at_ms, user_name) \
     SELECT id, $2, $3, $4, $5, $6 FROM sessions WHERE id = $1 AND ended_at_ms IS NULL";
/// The outcome as text (PostgreSQL's `jsonb` printed, SQLite's as stored): the bot parses it
/// as far as it needs (`LogRow`), with no pass to check what the database keeps as JSON.
pub(super) const SELECT_RECENT_ROLLS: &str = "SELECT session_id, user_id, command, CAST(outcome AS TEXT) AS outcome, at_ms, user_name \
     FROM roll_log WHERE session_id = $1 ORDER BY id DESC LIMIT $2";
/// One page of a session's log, oldest first (exports read a bounded page at a time).
pub(super) const SELECT_ROLL_PAGE: &str = "SELECT session_id, user_id, command, CAST(outcome AS TEXT) AS outcome, at_ms, user_name \
     FROM roll_log WHERE session_id = $1 ORDER BY id LIMIT $2 OFFSET $3";
/// The page's rollers and their names alone (an export names everyone before it writes a row).
pub(super) const SELECT_ROLL_PAGE_NAMES: &str = "SELECT user_id, user_name \
     FROM roll_log WHERE session_id = $1 ORDER BY id LIMIT $2 OFFSET $3";
/// An evening with its number of logged rolls (`rolls`): the head of a page of its log. Its one
/// parameter is `$1` (PostgreSQL sends it with its `BEGIN`, the value written in).
pub(super) const SELECT_BY_ID_WITH_ROLLS: &str = "SELECT id, channel_id, state, version, updated_at_ms, ended_at_ms, \
     (SELECT COUNT(*) FROM roll_log WHERE roll_log.session_id = sessions.id) AS rolls \
     FROM sessions WHERE id = $1";
/// A campaign's evenings, first to last, each with its number of rolls (a campaign's page is read
/// evening by evening) and its number (`evening`: only the newest one's state is read). Its one
/// parameter is `$1`.
pub(super) const SELECT_CAMPAIGN_WITH_ROLLS: &str = "SELECT id, channel_id, evening, state, version, updated_at_ms, ended_at_ms, \
     (SELECT COUNT(*) FROM roll_log WHERE roll_log.session_id = sessions.id) AS rolls \
     FROM sessions WHERE COALESCE(campaign_id, id) = $1 ORDER BY evening, id";

/// The start of a multi-row insert of actions (`VALUES …` follow).
pub(super) const INSERT_ACTIONS: &str =
    "INSERT INTO actions (kind, guild_id, channel_id, owner_id, payload, created_at_ms) ";
pub(super) const INSERT_ACTION: &str = "INSERT INTO actions \
     (kind, guild_id, channel_id, owner_id, payload, created_at_ms) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id";
pub(super) const SELECT_ACTION: &str = "SELECT id, kind, guild_id, channel_id, owner_id, payload, \
     created_at_ms, used_at_ms FROM actions WHERE id = $1";
/// Marks an action used only if nobody did yet: the second press of a button finds no row.
pub(super) const USE_ACTION: &str = "UPDATE actions SET used_at_ms = $2 WHERE id = $1 AND used_at_ms IS NULL \
     RETURNING id, kind, guild_id, channel_id, owner_id, payload, created_at_ms, used_at_ms";
/// [`USE_ACTION`] only for who may press it where it is (see `Presser`): a refused press finds
/// no row and the action stays unused. `$4` is the guild (NULL in a DM), `$5` the presser,
/// `$6` whether they press as the GM, `$7` the one kind only its owner may press.
pub(super) const PRESS_ACTION: &str = "UPDATE actions SET used_at_ms = $2 WHERE id = $1 AND used_at_ms IS NULL \
     AND channel_id = $3 AND (guild_id = $4 OR (guild_id IS NULL AND $4 IS NULL)) \
     AND (owner_id = $5 OR ($6 AND kind <> $7)) \
     RETURNING id, kind, guild_id, channel_id, owner_id, payload, created_at_ms, used_at_ms";
pub(super) const RELEASE_ACTION: &str = "UPDATE actions SET used_at_ms = NULL WHERE id = $1";

//! A session write on PostgreSQL in two round trips instead of four (issue 32): `BEGIN` and the
//! locked read of the active session's id and version go as one message, and the `UPDATE` and
//! `COMMIT` as another. A page of the log begins its snapshot the same way. A message of several
//! statements is PostgreSQL's simple query, which takes no parameters, so the values are written
//! into the text: numbers as numbers, text as standard string literals (quotes doubled; the
//! connection sets `standard_conforming_strings`, under which nothing else in a literal is
//! special). A round trip is most of what a write costs the bot: each is a send, a wake-up and a
//! read on either side of loopback.

use std::sync::atomic::AtomicBool;

use engine::session::Session;
use sqlx::postgres::PgRow;
use sqlx::{AssertSqlSafe, PgConnection, Row};

use super::postgres::PgStore;
use super::{StoreError, limits, to_db};

impl PgStore {
    /// Begins the write and locks the channel's active session: its (id, version).
    pub(super) async fn begin_locked(
        conn: &mut PgConnection,
        channel: u64,
    ) -> Result<Option<(i64, i64)>, sqlx::Error> {
        let locked = format!(
            "BEGIN; SELECT id, version FROM sessions WHERE channel_id = {} AND ended_at_ms IS NULL FOR UPDATE",
            to_db(channel)
        );
        // Audited: the one value is a number.
        let row = sqlx::raw_sql(AssertSqlSafe(locked)).fetch_optional(conn).await?;
        row.map(|r| Ok((r.try_get("id")?, r.try_get("version")?)))
            .transpose()
    }

    /// Begins a read-only snapshot and runs `read` (whose one parameter is `$1`) for `id`, in
    /// one message.
    pub(super) async fn begin_snapshot_with(
        conn: &mut PgConnection,
        read: &'static str,
        id: i64,
    ) -> Result<Vec<PgRow>, sqlx::Error> {
        let sql = format!(
            "{}; {}",
            PgStore::BEGIN_SNAPSHOT,
            read.replace("$1", &id.to_string())
        );
        // Audited: `read` is one of our statements, its one parameter a number.
        sqlx::raw_sql(AssertSqlSafe(sql)).fetch_all(conn).await
    }

    /// Saves `after` over `version` (the statement `UPDATE_SESSION` binds) and commits, in one
    /// message; `sent` is marked first, since the commit goes with it. The rows saved: 0 means
    /// nothing was (the commit then ends a transaction that changed nothing).
    pub(super) async fn save_and_commit(
        conn: &mut PgConnection,
        after: &Session,
        version: i64,
        changes: i64,
        sent: &AtomicBool,
    ) -> Result<u64, StoreError> {
        let state = serde_json::to_string(after).map_err(|e| StoreError::Internal(e.to_string()))?;
        let save = format!(
            "UPDATE sessions SET name = {name}, system = {system}, gm_id = {gm}, state = {state}, \
             version = version + {changes}, updated_at_ms = {updated}, ended_at_ms = {ended} \
             WHERE id = {id} AND version = {version} AND ended_at_ms IS NULL; COMMIT",
            name = text_literal(&after.name)?,
            system = text_literal(after.system.key())?,
            gm = to_db(after.gm),
            state = text_literal(&state)?,
            updated = after.updated_at_ms,
            ended = after
                .ended_at_ms
                .map_or_else(|| "NULL".to_string(), |t| t.to_string()),
            id = after.id,
        );
        limits::mark(sent);
        // Audited: numbers, and text through `text_literal`.
        let done = sqlx::raw_sql(AssertSqlSafe(save))
            .execute(conn)
            .await
            .map_err(PgStore::classify)?;
        Ok(done.rows_affected())
    }
}

/// `text` as a standard SQL string literal. PostgreSQL text cannot hold NUL, so a text with one
/// is refused here as its parameter would be.
fn text_literal(text: &str) -> Result<String, StoreError> {
    if text.contains('\0') {
        return Err(StoreError::Internal(
            "text with a NUL character cannot be stored".into(),
        ));
    }
    Ok(format!("'{}'", text.replace('\'', "''")))
}

#[cfg(test)]
mod tests {
    use super::text_literal;
    use crate::store::statements::{SELECT_BY_ID_WITH_ROLLS, SELECT_CAMPAIGN_WITH_ROLLS};

    #[test]
    fn a_snapshot_read_has_one_parameter_to_write_in() {
        for read in [SELECT_BY_ID_WITH_ROLLS, SELECT_CAMPAIGN_WITH_ROLLS] {
            assert_eq!(read.matches('$').count(), 1, "{read}");
            assert_eq!(read.replace("$1", "7").matches('7').count(), 1, "{read}");
        }
    }

    #[test]
    fn a_literal_doubles_quotes_and_keeps_everything_else() {
        assert_eq!(text_literal("Skirmish").unwrap(), "'Skirmish'");
        assert_eq!(text_literal("O'Brien's").unwrap(), "'O''Brien''s'");
        assert_eq!(
            text_literal("'; DROP TABLE sessions; --").unwrap(),
            "'''; DROP TABLE sessions; --'"
        );
        assert_eq!(
            text_literal(r"back\slash $1 $$ 日本").unwrap(),
            r"'back\slash $1 $$ 日本'"
        );
        assert!(text_literal("nul\0").is_err());
    }
}

//! Reading a page of a log: an evening's or a whole campaign's rows, in one snapshot with the
//! session that heads it, handed over one row at a time as the database sends them
//! ([`Store::stream_page`](super::Store::stream_page)), so what an export or a recap holds is
//! what it builds, never the page of rows itself. Part of the SQL store (`sql.rs`), written as a
//! macro for the same reason.

/// Implements the page reading for a backend `sql_store!` is instantiated for (its
/// `classify`, `BEGIN_SNAPSHOT` and `roll_from_row`).
macro_rules! sql_log_pages {
    ($store:ty) => {
        impl $store {
            /// One page of an evening's or a whole campaign's log, each row to `each` as it
            /// arrives, with the page's head (the campaign's newest evening heads it), read as
            /// one snapshot, within the read limit.
            async fn stream_rows(
                &self,
                scope: $crate::store::LogScope,
                offset: u32,
                limit: u32,
                names: bool,
                each: &mut $crate::store::RowSink<'_>,
            ) -> Result<$crate::store::PageHead, $crate::store::StoreError> {
                $crate::store::limits::read(self.read_rows(scope, offset, limit, names, each)).await
            }

            async fn read_rows(
                &self,
                scope: $crate::store::LogScope,
                offset: u32,
                limit: u32,
                names: bool,
                each: &mut $crate::store::RowSink<'_>,
            ) -> Result<$crate::store::PageHead, $crate::store::StoreError> {
                use futures::TryStreamExt;
                use sqlx::Row;
                use $crate::store::sql::*;
                use $crate::store::{LogScope, MAX_EXPORT_ROLLS, StoreError, from_db};

                let mut tx = self
                    .pool
                    .begin_with(Self::BEGIN_SNAPSHOT)
                    .await
                    .map_err(Self::classify)?;
                let (id, read, count, page, named) = match scope {
                    LogScope::Evening(id) => (
                        id,
                        SELECT_BY_ID,
                        COUNT_ROLLS,
                        SELECT_ROLL_PAGE,
                        SELECT_ROLL_PAGE_NAMES,
                    ),
                    LogScope::Campaign(id) => (
                        id,
                        SELECT_CAMPAIGN,
                        COUNT_CAMPAIGN_ROLLS,
                        SELECT_CAMPAIGN_ROLL_PAGE,
                        SELECT_CAMPAIGN_ROLL_PAGE_NAMES,
                    ),
                };
                let limit = i64::from(limit.min(MAX_EXPORT_ROLLS));
                // A campaign's rows come first to last: its newest evening heads the page.
                let rows = sqlx::query(read)
                    .bind(id)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(Self::classify)?;
                let sessions = rows
                    .iter()
                    .map(Self::session_from_row)
                    .collect::<Result<Vec<_>, _>>()?;
                let evenings = match scope {
                    LogScope::Campaign(_) => sessions.iter().map(|s| (s.id, s.evening)).collect(),
                    LogScope::Evening(_) => Vec::new(),
                };
                let session = sessions
                    .into_iter()
                    .next_back()
                    .ok_or(StoreError::NotFound)?;
                let (total,): (i64,) = sqlx::query_as(count)
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(Self::classify)?;
                // Each roller's last name on the page, for text written before they rolled
                // (a mention in an earlier command): the short columns only.
                let mut last_names = std::collections::BTreeMap::new();
                if names {
                    let mut rows = sqlx::query(named)
                        .bind(id)
                        .bind(limit)
                        .bind(i64::from(offset))
                        .fetch(&mut *tx);
                    while let Some(row) = rows.try_next().await.map_err(Self::classify)? {
                        let name: Option<String> = row.try_get("user_name").map_err(Self::classify)?;
                        if let Some(name) = name.filter(|n| !n.trim().is_empty()) {
                            last_names.insert(
                                from_db(row.try_get("user_id").map_err(Self::classify)?),
                                name,
                            );
                        }
                    }
                }
                let head = $crate::store::PageHead {
                    session,
                    offset,
                    total_rolls: u64::try_from(total).unwrap_or(0),
                    evenings,
                    names: last_names,
                };
                if each($crate::store::PageItem::Head(&head)).is_continue() {
                    let mut rows = sqlx::query(page)
                        .bind(id)
                        .bind(limit)
                        .bind(i64::from(offset))
                        .fetch(&mut *tx);
                    while let Some(row) = rows.try_next().await.map_err(Self::classify)? {
                        if each($crate::store::PageItem::Row(Self::roll_from_row(&row)?)).is_break() {
                            break;
                        }
                    }
                }
                tx.commit().await.map_err(Self::classify)?;
                Ok(head)
            }
        }
    };
}

pub(crate) use sql_log_pages;

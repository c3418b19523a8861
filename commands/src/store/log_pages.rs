//! Reading a page of a log: an evening's or a whole campaign's rows, in one snapshot with the
//! session that heads it, handed over one row at a time as the database sends them
//! ([`Store::stream_page`](super::Store::stream_page)), so what an export or a recap holds is
//! what it builds, never the page of rows itself. Part of the SQL store (`sql.rs`), written as a
//! macro for the same reason.

/// Implements the page reading for a backend `sql_store!` is instantiated for (its
/// `classify`, `begin_snapshot_with`, `session_from_row` and `log_row_from_row`).
macro_rules! sql_log_pages {
    ($store:ty) => {
        impl $store {
            /// One page of an evening's or a whole campaign's log, each row to `each` as it
            /// arrives, with the page's head (the campaign's newest evening heads it), read as
            /// one snapshot (the caller bounds it by the read limit).
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
                use $crate::store::{LogScope, MAX_STREAM_ROLLS, StoreError, from_db};

                let mut held = $crate::store::limits::Held::take(&self.conns)
                    .await
                    .map_err(Self::classify)?;
                let (id, read) = match scope {
                    LogScope::Evening(id) => (id, SELECT_BY_ID_WITH_ROLLS),
                    LogScope::Campaign(id) => (id, SELECT_CAMPAIGN_WITH_ROLLS),
                };
                let limit = u64::from(limit.min(MAX_STREAM_ROLLS));
                // The snapshot begins with the evenings and their numbers of rolls (on
                // PostgreSQL in one message, see `begin_snapshot_with`); a campaign's rows come
                // first to last: its newest evening heads the page. Every early return leaves
                // the snapshot open, and the connection is closed.
                let rows = Self::begin_snapshot_with(&mut held.conn, read, id)
                    .await
                    .map_err(Self::classify)?;
                // The newest evening heads the page: only its state is read (a campaign of
                // many evenings would otherwise parse every evening's whole game per page),
                // and not even that when this process keeps the session at the version the
                // snapshot sees (see `cache`): a running evening's export, recap and luck
                // parsed its whole game (15 KB of Warmachine) for every call.
                let newest = rows.last().ok_or(StoreError::NotFound)?;
                let session = match self.kept_at(newest)? {
                    Some(kept) => kept,
                    None => std::sync::Arc::new(Self::session_from_row(newest)?),
                };
                let mut evenings = Vec::new();
                // The log is its evenings' logs one after the other (an evening starts after
                // the one before ended, and rows are appended only to a running one), so a
                // page is read evening by evening down the (session_id, id) index: no sort
                // of a whole campaign for every page.
                let mut spans: Vec<(i64, u64)> = Vec::with_capacity(rows.len());
                for row in &rows {
                    let session_id: i64 = row.try_get("id").map_err(Self::classify)?;
                    if let LogScope::Campaign(_) = scope {
                        let evening: i32 = row.try_get("evening").map_err(Self::classify)?;
                        evenings.push((session_id, u32::try_from(evening).unwrap_or(0)));
                    }
                    let n: i64 = row.try_get("rolls").map_err(Self::classify)?;
                    spans.push((session_id, u64::try_from(n).unwrap_or(0)));
                }
                spans.sort_unstable();
                let total: u64 = spans.iter().map(|(_, n)| n).sum();
                // Each evening's part of the page: (session, its rows to skip, to read).
                let mut parts = Vec::new();
                let (mut skip, mut left) = (u64::from(offset), limit);
                for (session_id, n) in spans {
                    if left == 0 {
                        break;
                    }
                    if skip >= n {
                        skip -= n;
                        continue;
                    }
                    let take = (n - skip).min(left);
                    parts.push((session_id, skip, take));
                    left -= take;
                    skip = 0;
                }
                // One evening's part of the page: `take` rows after its first `skip`.
                let part = |sql: &'static str, session_id: i64, skip: u64, take: u64| {
                    let bound = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
                    sqlx::query(sql)
                        .bind(session_id)
                        .bind(bound(take))
                        .bind(bound(skip))
                };
                // Each roller's last name on the page, for text written before they rolled
                // (a mention in an earlier command): the short columns only.
                let mut last_names = std::collections::BTreeMap::new();
                if names {
                    for &(session_id, skip, take) in &parts {
                        let mut rows =
                            part(SELECT_ROLL_PAGE_NAMES, session_id, skip, take).fetch(&mut *held.conn);
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
                }
                let head = $crate::store::PageHead {
                    session,
                    offset,
                    total_rolls: total,
                    evenings,
                    names: last_names,
                };
                let mut reading = each($crate::store::PageItem::Head(&head)).is_continue();
                for &(session_id, skip, take) in &parts {
                    if !reading {
                        break;
                    }
                    let mut rows = part(SELECT_ROLL_PAGE, session_id, skip, take).fetch(&mut *held.conn);
                    while let Some(row) = rows.try_next().await.map_err(Self::classify)? {
                        if each($crate::store::PageItem::Row(Self::log_row_from_row(&row)?)).is_break() {
                            reading = false;
                            break;
                        }
                    }
                }
                let ended = sqlx::raw_sql("COMMIT").execute(&mut *held.conn).await;
                held.ended(&ended);
                ended.map_err(Self::classify)?;
                Ok(head)
            }
        }
    };
}

pub(crate) use sql_log_pages;

//! `/session export`'s three files (the JSON, the transcript, the page), built as the log's rows
//! arrive from the store ([`Store::stream_page`](crate::store::Store::stream_page)) (issue
//! 32): each row is written into every file and the recap, then dropped, so an export holds its
//! files and never the page of rows behind them (a 5,000-roll page of parsed rows was most of
//! an export's memory).

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use engine::i18n::Lang;
use engine::session::{RollLogEntry, Session};

use super::page::{HtmlRows, html_head};
use super::recap::{PlayerRecap, RecapBuilder};
use super::session::{hidden_kind, hidden_label};
use super::transcript::{MarkdownRows, markdown_head};
use crate::log_line::known_members;
use crate::luck::LuckRow;
use crate::store::{LogRow, PageHead, PageItem};

/// The files of one export.
pub struct ExportFiles {
    pub json: Vec<u8>,
    pub markdown: String,
    pub html: String,
    /// Rolls in the files.
    pub rolls: u64,
    /// A hidden roll is shown as it was rolled: the files are for their reader alone.
    pub shows_hidden: bool,
}

/// Builds [`ExportFiles`] from a page's head and rows, the rows that fit `budget` bytes of JSON
/// (the transcript's line and the page's row of a roll are never much longer than its JSON).
/// `may_see(entry)`: whether the reader may see a hidden roll (its roller, the GM).
pub struct ExportBuilder<F> {
    lang: Lang,
    budget: usize,
    may_see: F,
    files: Option<Building>,
}

struct Building {
    session: std::sync::Arc<Session>,
    evenings: BTreeMap<i64, u32>,
    /// Each roller's last name on the page (raw).
    names: BTreeMap<u64, String>,
    /// The JSON so far, open after the log's last row.
    json: Vec<u8>,
    /// The JSON's size as the budget counts it: closed, with a byte for each row's separator.
    json_size: usize,
    markdown: MarkdownRows,
    html: HtmlRows,
    recap: RecapBuilder,
    luck: Vec<LuckRow>,
    total_rolls: u64,
    rolls: u64,
    shows_hidden: bool,
}

impl<F: Fn(&RollLogEntry) -> bool> ExportBuilder<F> {
    pub fn new(lang: Lang, budget: usize, may_see: F) -> ExportBuilder<F> {
        ExportBuilder {
            lang,
            budget,
            may_see,
            files: None,
        }
    }

    /// What [`Store::stream_page`](crate::store::Store::stream_page) hands over: `Break` once a
    /// row no longer fits.
    pub fn take(&mut self, item: PageItem<'_>) -> ControlFlow<()> {
        match item {
            PageItem::Head(head) => self.start(head),
            PageItem::Row(row) => self.row(&row),
        }
    }

    fn start(&mut self, head: &PageHead) -> ControlFlow<()> {
        let empty = engine::session::ExportOpening::of(&head.session);
        let Ok(mut json) = serde_json::to_vec(&empty) else {
            return ControlFlow::Break(());
        };
        let json_size = json.len();
        // `…,"log":[]}`: rows go between the brackets.
        json.truncate(json.len().saturating_sub(2));
        self.files = Some(Building {
            evenings: head.evenings.iter().copied().collect(),
            names: head.names.clone(),
            json,
            json_size,
            markdown: MarkdownRows::new(&head.session, self.lang),
            html: HtmlRows::new(self.lang),
            recap: RecapBuilder::new(&head.session),
            luck: Vec::new(),
            total_rolls: head.total_rolls,
            rolls: 0,
            shows_hidden: false,
            session: head.session.clone(),
        });
        ControlFlow::Continue(())
    }

    /// A row into every file: read light ([`LogRow::light_entry`]: summaries, hidden mark,
    /// luck) for the transcripts and the recap, its outcome parsed whole only for moments the
    /// system may find in it, and copied into the JSON from its text.
    fn row(&mut self, row: &LogRow) -> ControlFlow<()> {
        let lang = self.lang;
        let Some(b) = self.files.as_mut() else {
            return ControlFlow::Break(());
        };
        let Some(mut entry) = row.light_entry() else {
            return ControlFlow::Break(());
        };
        // Hidden rolls stay hidden from everyone but their roller and the GM; files that keep
        // any of them are shown only to whoever asked.
        let mut label = None;
        if let Some(kind) = hidden_kind(&entry).map(str::to_string) {
            if (self.may_see)(&entry) {
                b.shows_hidden = true;
            } else {
                entry.command = hidden_label(&kind, Lang::En)
                    .trim_start_matches("🔒 ")
                    .to_string();
                entry.outcome = serde_json::json!({ "hidden": kind });
                label = Some(hidden_label(&kind, lang));
            }
        }
        // As many rolls as fit: the rest is one `start:` away.
        let before = b.json.len();
        if b.rolls > 0 {
            b.json.push(b',');
        }
        let start = b.json.len();
        let written = match label {
            // Hidden from the reader: the entry as rewritten above.
            Some(_) => serde_json::to_writer(&mut b.json, &entry),
            None => row.write_json(&mut b.json),
        };
        if written.is_err() || b.json_size + (b.json.len() - start) + 1 > self.budget {
            b.json.truncate(before);
            return ControlFlow::Break(());
        }
        b.json_size += b.json.len() - start + 1;
        b.rolls += 1;
        match label {
            Some(_) => b.recap.add(&b.session, &entry, false),
            None => b.recap.add_row(&b.session, row, &entry, false),
        }
        b.luck.extend(LuckRow::of(&entry));
        let known = known_members(&b.names, &b.session);
        b.markdown.push(&entry, label, &b.evenings, &known);
        // A row logged before names were kept: its roller as the recap names them.
        let label_of = |user: u64| {
            let mut p = PlayerRecap::seated(&b.session, user);
            p.name = b.names.get(&user).cloned().or(p.name);
            Some(p.label())
        };
        b.html.push(&entry, label, &b.evenings, &label_of, &known);
        ControlFlow::Continue(())
    }

    /// The files, with the recap of their rolls (and its luck table) at their head. `None`
    /// when no page head was read.
    pub async fn finish(self) -> Option<ExportFiles> {
        let lang = self.lang;
        let b = self.files?;
        // A campaign's file: the luck of every evening in it, as its recap counts them all.
        let evening = b.evenings.is_empty().then_some(b.session.id);
        let recap = crate::luck::finish_recap(b.recap, b.total_rolls, b.luck, evening, lang).await;
        let mut json = b.json;
        json.extend_from_slice(b"]}");
        Some(ExportFiles {
            json,
            markdown: b
                .markdown
                .finish(markdown_head(&b.session, &recap, lang, &b.names)),
            html: b.html.finish(html_head(&b.session, &recap, lang)),
            rolls: b.rolls,
            shows_hidden: b.shows_hidden,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::SessionExport;
    use engine::session::{RosterEntry, SystemId};
    use serde_json::json;

    const GM: u64 = 7;
    const ANA: u64 = 8;
    const BO: u64 = 9;

    fn entry(
        user: u64,
        name: Option<&str>,
        command: &str,
        outcome: serde_json::Value,
        n: i64,
    ) -> RollLogEntry {
        RollLogEntry {
            session_id: 1,
            user_id: user,
            command: command.into(),
            outcome,
            at_ms: 1_764_137_000_000 + n * 60_000,
            user_name: name.map(str::to_string),
        }
    }

    fn head() -> PageHead {
        let mut s = Session::start(10, 20, "Heist", SystemId::Shadowrun4, GM, 1_764_136_800_000).unwrap();
        s.id = 1;
        s.roster.push(RosterEntry::new("Ana", ANA));
        PageHead {
            session: s.into(),
            offset: 0,
            total_rolls: 4,
            evenings: Vec::new(),
            // Bo's last name on the page: the first row, written before they rolled, names them.
            names: BTreeMap::from([(ANA, "ana".into()), (BO, "Bo".into())]),
        }
    }

    fn rows() -> Vec<RollLogEntry> {
        vec![
            entry(
                ANA,
                Some("ana"),
                "/wm rolloff players:<@9>",
                json!({"summary": {"en": "<@9> wins", "ja": "<@9>の勝ち"}}),
                0,
            ),
            entry(
                BO,
                Some("Bo"),
                "/roll dice:2d6",
                json!({"lines": [{"total": 7}]}),
                1,
            ),
            entry(
                ANA,
                Some("ana"),
                "/roll dice:S2d6",
                json!({"hidden": "secret", "lines": [{"total": 12}]}),
                2,
            ),
            entry(BO, None, "/roll dice:1d6", json!({"lines": [{"total": 3}]}), 3),
        ]
    }

    async fn build(reader: u64, budget: usize) -> (ExportFiles, Vec<ControlFlow<()>>) {
        let mut b = ExportBuilder::new(Lang::En, budget, |e: &RollLogEntry| e.user_id == reader);
        let head = head();
        let mut flows = vec![b.take(PageItem::Head(&head))];
        for row in rows() {
            flows.push(b.take(PageItem::Row(LogRow::of(&row))));
        }
        (b.finish().await.unwrap(), flows)
    }

    #[tokio::test]
    async fn rows_are_written_into_every_file_as_they_come() {
        let (files, flows) = build(BO, usize::MAX).await;
        assert!(flows.iter().all(|f| f.is_continue()));
        assert_eq!((files.rolls, files.shows_hidden), (4, false));
        // The JSON is the export as one document, Ana's secret roll emptied for Bo.
        let export: SessionExport = serde_json::from_slice(&files.json).unwrap();
        assert_eq!(export.session, *head().session);
        assert_eq!(export.log.len(), 4);
        assert_eq!(export.log[2].command, "made a secret roll");
        assert_eq!(export.log[2].outcome, json!({"hidden": "secret"}));
        assert_eq!(export.log[1], rows()[1]);
        let md = &files.markdown;
        // A mention written before its member rolled reads as their name from the page.
        assert!(md.contains("`/wm rolloff players:@Bo` → @Bo wins\n"), "{md}");
        assert!(md.contains("ana (Ana) 🔒 made a secret roll\n"), "{md}");
        assert!(!md.contains("S2d6") && !md.contains("12"), "{md}");
        // The recap heads the rolls and counts all four.
        let recap = md.find("## Recap").unwrap();
        assert!(recap < md.find("## Rolls").unwrap(), "{md}");
        assert!(md.contains("4 rolls"), "{md}");
        // A row without a name: its roller as the page names them.
        let html = &files.html;
        assert!(
            html.contains("<td>Bo</td><td><code>/roll dice:1d6</code></td><td>3</td>"),
            "{html}"
        );
        assert!(html.contains("<td>@Bo wins</td>"), "{html}");
        assert!(
            html.ends_with("</tbody></table></section></body></html>\n"),
            "{html}"
        );
    }

    /// The same files as the transcript and the page write from the whole log at once.
    #[tokio::test]
    async fn the_streamed_files_are_the_whole_log_files() {
        let (files, _) = build(ANA, usize::MAX).await;
        assert!(files.shows_hidden, "Ana reads her own secret roll");
        let export = SessionExport::new((*head().session).clone(), rows());
        // The JSON byte for byte as serde writes the export whole.
        assert_eq!(
            String::from_utf8(files.json.clone()).unwrap(),
            serde_json::to_string(&export).unwrap()
        );
        let hidden = |_: &RollLogEntry| None;
        let r = super::super::recap::build(&export.session, &export.log, 4, |_| false);
        let md = super::super::transcript::markdown(&export, &r, Lang::En, &BTreeMap::new(), hidden);
        let html = super::super::page::html(&export, &r, Lang::En, hidden);
        assert_eq!(files.markdown, md);
        assert_eq!(files.html, html);
        assert!(files.markdown.contains("`/roll dice:S2d6` → 12"), "{md}");
    }

    /// A campaign's files mark where each evening begins, in both the transcript and the page.
    #[tokio::test]
    async fn a_campaigns_files_head_each_evening() {
        let mut b = ExportBuilder::new(Lang::En, usize::MAX, |_: &RollLogEntry| false);
        let mut head = head();
        head.evenings = vec![(1, 1), (2, 2)];
        let _ = b.take(PageItem::Head(&head));
        let mut rows = rows();
        rows[2].session_id = 2;
        rows[3].session_id = 2;
        for row in rows {
            let _ = b.take(PageItem::Row(LogRow::of(&row)));
        }
        let files = b.finish().await.unwrap();
        let html = &files.html;
        let first = html
            .find("<tr class=\"evening\"><th colspan=\"4\">Evening 1</th></tr>")
            .unwrap();
        let second = html
            .find("<tr class=\"evening\"><th colspan=\"4\">Evening 2</th></tr>")
            .unwrap();
        assert!(
            first < html.find("dice:2d6").unwrap() && html.find("dice:2d6").unwrap() < second,
            "{html}"
        );
        assert_eq!(html.matches("class=\"evening\"").count(), 2, "{html}");
        assert!(files.markdown.contains(" · evening 2\n"), "{}", files.markdown);
    }

    /// Rows stop where the JSON's budget ends: the row that would not fit is left out, and the
    /// files hold the rows before it, whole.
    #[tokio::test]
    async fn rows_stop_at_the_budget() {
        let (all, _) = build(BO, usize::MAX).await;
        let (files, flows) = build(BO, all.json.len() - 10).await;
        assert_eq!(files.rolls, 3);
        assert!(flows[4].is_break() && flows[3].is_continue());
        let export: SessionExport = serde_json::from_slice(&files.json).unwrap();
        assert_eq!(export.log.len(), 3);
        assert!(!files.markdown.contains("dice:1d6"), "{}", files.markdown);
        // The recap is of the rolls in the files, and says so.
        assert!(
            files.markdown.contains("(the first 3 of 4 rolls)"),
            "{}",
            files.markdown
        );
        // One byte over what the whole log takes is enough for all of it.
        let (files, _) = build(BO, all.json.len() + 1).await;
        assert_eq!(files.rolls, 4);
    }
}

//! `/session export`'s Markdown transcript: the session, its roster and every roll as a person
//! reads it (time, who, the command as typed, the result), beside the JSON for programs.

use std::collections::BTreeMap;
use std::fmt::Write;

use engine::i18n::Lang;
use engine::session::{RollLogEntry, Session, SessionExport};

use super::recap::{self, Recap, count_text, rolls_text};
// A log line's time is its `clock` (the day is in the heading above it).
use super::stamps::{clock, date as day, minute_utc};
use crate::log_line::{escaped_name, known_members, last_names, mentions_as_names, roller, stored_summary};

/// A table cell or inline text: no line breaks, no `|` to split the table.
fn cell(text: &str) -> String {
    text.replace(['\n', '\r'], " ").replace('|', "\\|")
}

/// Code span text that cannot close early.
fn code(text: &str) -> String {
    let text = cell(text);
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// The result of one roll in the reader's language: its stored summary, or for rolls logged
/// before summaries were stored, the totals the outcome carries.
pub fn result_text(entry: &RollLogEntry, lang: Lang) -> String {
    if let Some(s) = stored_summary(&entry.outcome, lang) {
        return s.to_string();
    }
    let mut parts = Vec::new();
    for line in entry.outcome["lines"].as_array().into_iter().flatten() {
        if let Some(s) = line["successes"].as_i64() {
            parts.push(format!("{} {s}", lang.pick("successes", "成功数")));
        } else if let Some(t) = line["total"].as_i64() {
            parts.push(t.to_string());
        }
    }
    for key in ["hits", "net_hits", "result", "total"] {
        if parts.is_empty()
            && let Some(v) = entry.outcome[key].as_i64()
        {
            parts.push(format!("{key} {v}"));
        }
    }
    parts.join(", ")
}

/// The recap as a section: who played and how much, the moments, any extra tables.
fn recap_section(r: &Recap, lang: Lang) -> String {
    let l = |en: &'static str, ja: &'static str| lang.pick(en, ja);
    let mut out = format!("\n## {}\n\n", l("Recap", "振り返り"));
    out.push_str(&rolls_text(r.total_rolls, lang));
    if let Some(note) = recap::partial_note(r, lang) {
        out.push_str(&format!(" {note}"));
    }
    out.push_str(&format!(
        "\n\n| {} | {} | {} |\n|---|---:|---|\n",
        l("Player", "プレイヤー"),
        l("Rolls", "ロール"),
        l("Moments", "名場面")
    ));
    for p in &r.players {
        let gm = if p.gm { " · GM" } else { "" };
        let moments: Vec<String> = p.moments.iter().map(|(k, n)| count_text(*k, *n, lang)).collect();
        out.push_str(&format!(
            "| {}{gm} | {} | {} |\n",
            cell(&p.label()),
            p.rolls,
            cell(&moments.join(" · "))
        ));
    }
    if !r.moments.is_empty() {
        out.push_str(&format!("\n### {}\n\n", l("Moments", "名場面")));
        for m in &r.moments {
            let (who, subject) = m.listing(r, lang, recap::PlayerRecap::label, str::to_string);
            out.push_str(&format!(
                "- {} {} — {} {}{} {}\n",
                clock(m.at_ms),
                cell(&who),
                m.kind.icon,
                m.kind.name(lang),
                cell(&subject),
                code(&m.command)
            ));
        }
    }
    for s in &r.extra {
        out.push_str(&format!("\n### {}\n\n", cell(&s.title)));
        let heads: Vec<String> = s.columns.iter().map(|c| cell(c)).collect();
        out.push_str(&format!(
            "| {} |\n|{}\n",
            heads.join(" | "),
            "---|".repeat(heads.len())
        ));
        for row in &s.rows {
            let cells: Vec<String> = row.iter().map(|c| cell(c)).collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
    }
    out
}

/// The command as typed, named in the reader's language (one language per line: a Japanese
/// reader gets `/シャドウラン テスト 能力値:敏捷力`, as `/session log` shows it).
fn command(entry: &RollLogEntry, lang: Lang) -> String {
    command_text(&entry.command, lang)
}

/// Button presses are logged under a command-like name that is no registered command
/// (`/sr second chance`): their Japanese words, as the buttons say them.
const PRESSES: &[(&str, &str)] = &[
    ("/sr second chance", "/sr セカンド・チャンス"),
    ("/sr edge dice", "/sr エッジ追加"),
    ("/sr negate glitch", "/sr グリッチを打ち消す"),
    ("/sr burn edge", "/sr エッジを燃やす"),
    ("/sr apply damage", "/sr ダメージを適用"),
    ("/sr cheat death", "/sr 死を免れる"),
    ("/wm apply damage", "/wm ダメージを適用"),
    ("/wm boosted damage", "/wm ブーストしてダメージロール"),
    (
        "/term continue (I'll Be Back)",
        "/term continue（アイル ビー バック）",
    ),
    ("/rally reliable", "/rally リライアブル"),
];

/// A logged command as typed, named in the reader's language.
pub fn command_text(command: &str, lang: Lang) -> String {
    match lang {
        Lang::En => command.to_string(),
        Lang::Ja => {
            let pressed = PRESSES.iter().find_map(|(en, ja)| {
                let rest = command.strip_prefix(en)?;
                (rest.is_empty() || rest.starts_with(' ')).then(|| format!("{ja}{rest}"))
            });
            let command = pressed.as_deref().unwrap_or(command);
            // The names are swapped only in Japanese text: a marker the swap then drops.
            crate::command_names::in_japanese_text(&format!("ロール {command}"))
                .trim_start_matches("ロール ")
                .to_string()
        }
    }
}

/// The whole transcript. `hidden(entry)`: the label of a roll the reader may not see (its
/// result and command left out), `None` for one they may.
pub fn markdown(
    export: &SessionExport,
    r: &Recap,
    lang: Lang,
    evenings: &BTreeMap<i64, u32>,
    hidden: impl Fn(&RollLogEntry) -> Option<String>,
) -> String {
    let s = &export.session;
    let names = last_names(&export.log);
    let known = known_members(&names, s);
    let mut rows = MarkdownRows::new(s, lang);
    for entry in &export.log {
        rows.push(entry, hidden(entry).as_deref(), evenings, &known);
    }
    rows.finish(markdown_head(s, r, lang, &names))
}

/// The transcript down to its Rolls heading: the session, the recap and the roster. `names`:
/// each roller's last name in the log (raw).
pub fn markdown_head(s: &Session, r: &Recap, lang: Lang, names: &BTreeMap<u64, String>) -> String {
    let mut out = format!("# {}\n\n", cell(&s.name));
    let l = |en: &'static str, ja: &'static str| lang.pick(en, ja);
    out.push_str(&format!(
        "- {}: {}\n",
        l("System", "システム"),
        s.system.display_name(lang)
    ));
    // A member by the name their last roll was made under, a mention if none was kept;
    // someone who never rolled (the GM, an owner) by the name the game last saw them under.
    let member = |id: u64| {
        names
            .get(&id)
            .map(|n| escaped_name(n))
            .or_else(|| s.name_of(id).map(cell))
            .unwrap_or_else(|| format!("<@{id}>"))
    };
    out.push_str(&format!("- GM: {}\n", member(s.gm)));
    if !s.players.is_empty() {
        let players: Vec<String> = s.players.iter().map(|&p| member(p)).collect();
        out.push_str(&format!(
            "- {}: {}\n",
            l("Players", "プレイヤー"),
            players.join(" ")
        ));
    }
    out.push_str(&format!(
        "- {}: {}\n",
        l("Started", "開始"),
        minute_utc(s.created_at_ms)
    ));
    if let Some(end) = s.ended_at_ms {
        out.push_str(&format!("- {}: {}\n", l("Ended", "終了"), minute_utc(end)));
    }
    out.push_str(&recap_section(r, lang));
    if !s.roster.is_empty() {
        out.push_str(&format!(
            "\n## {}\n\n| {} | {} |\n|---|---|\n",
            l("Roster", "ロスター"),
            l("Name", "名前"),
            l("Owner", "所有者")
        ));
        for e in &s.roster {
            out.push_str(&format!("| {} | {} |\n", cell(&e.name), member(e.owner)));
        }
    }
    out.push_str(&format!("\n## {}\n", l("Rolls", "ロール")));
    out
}

/// The transcript's roll lines, written as the log is read (see [`markdown`]).
pub struct MarkdownRows {
    lang: Lang,
    /// Who plays whom, so a roll's roller reads as a character.
    characters: BTreeMap<u64, String>,
    out: String,
    last_day: String,
}

impl MarkdownRows {
    pub fn new(s: &Session, lang: Lang) -> MarkdownRows {
        let mut characters: BTreeMap<u64, Vec<&str>> = BTreeMap::new();
        for e in &s.roster {
            characters.entry(e.owner).or_default().push(&e.name);
        }
        MarkdownRows {
            lang,
            characters: characters
                .into_iter()
                .map(|(owner, names)| (owner, cell(&names.join(", "))))
                .collect(),
            out: String::new(),
            last_day: String::new(),
        }
    }

    /// One roll: `hidden`, the label of a roll the reader may not see; `evenings`, a
    /// campaign's evening numbers by session; `known`, the members a text may mention.
    pub fn push(
        &mut self,
        entry: &RollLogEntry,
        hidden: Option<&str>,
        evenings: &BTreeMap<i64, u32>,
        known: &impl Fn(u64) -> Option<String>,
    ) {
        let lang = self.lang;
        // A campaign's log: each day under the evening it was played in.
        let today = match evenings.get(&entry.session_id) {
            Some(n) => match lang {
                Lang::En => format!("{} · evening {n}", day(entry.at_ms)),
                Lang::Ja => format!("{} · 第{n}回", day(entry.at_ms)),
            },
            None => day(entry.at_ms),
        };
        if today != self.last_day {
            let _ = write!(self.out, "\n### {today}\n\n");
            self.last_day = today;
        }
        let who = match self.characters.get(&entry.user_id) {
            Some(names) => format!("{} ({names})", roller(entry)),
            None => roller(entry),
        };
        let _ = match hidden {
            Some(label) => writeln!(self.out, "- {} {who} {label}", clock(entry.at_ms)),
            None => {
                let result = mentions_as_names(&result_text(entry, lang), known);
                let arrow = if result.is_empty() {
                    String::new()
                } else {
                    format!(" → {}", cell(&result))
                };
                writeln!(
                    self.out,
                    "- {} {who} {}{arrow}",
                    clock(entry.at_ms),
                    code(&mentions_as_names(&command(entry, lang), known))
                )
            }
        };
    }

    /// The whole transcript: `head` ([`markdown_head`]), then the lines.
    pub fn finish(self, mut head: String) -> String {
        if self.out.is_empty() {
            let _ = writeln!(head, "\n{}", self.lang.pick("No rolls.", "ロールはありません。"));
        }
        head.push_str(&self.out);
        head
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::{RosterEntry, Session, SystemId};
    use serde_json::json;

    fn entry(user: u64, command: &str, outcome: serde_json::Value, at_ms: i64) -> RollLogEntry {
        RollLogEntry {
            session_id: 1,
            user_id: user,
            command: command.into(),
            outcome,
            at_ms,
            user_name: None,
        }
    }

    fn export() -> SessionExport {
        let mut s = Session::start(
            10,
            20,
            "Heist | night",
            SystemId::Shadowrun4,
            7,
            1_764_136_800_000,
        )
        .unwrap();
        s.roster.push(RosterEntry::new("Ana", 8));
        let log = vec![
            entry(
                8,
                "/sr test character:Ana attribute:agility",
                json!({"summary": {"en": "hits 2 / 3 → failure", "ja": "ヒット 2 / 3 → 失敗"}}),
                1_764_137_000_000,
            ),
            RollLogEntry {
                user_name: Some("Bo *b* <@1>".into()),
                ..entry(
                    9,
                    "/roll dice:2d6",
                    json!({"lines": [{"total": 7}]}),
                    1_764_137_060_000,
                )
            },
            entry(
                8,
                "/roll dice:S2d6",
                json!({"hidden": "secret"}),
                1_764_137_120_000,
            ),
        ];
        SessionExport::new(s, log)
    }

    #[test]
    fn every_roll_reads_as_time_who_command_and_result() {
        let x = export();
        let r = recap::build(&x.session, &x.log, 3, |_| false);
        let md = markdown(&x, &r, Lang::En, &BTreeMap::new(), |e| {
            e.outcome.get("hidden").map(|_| "made a secret roll".to_string())
        });
        assert!(md.starts_with("# Heist \\| night\n"), "{md}");
        assert!(md.contains("- System: Shadowrun 4\n"), "{md}");
        assert!(md.contains("- Started: 2025-11-26 06:00 UTC\n"), "{md}");
        assert!(md.contains("| Ana | <@8> |\n"), "{md}");
        assert!(md.contains("\n### 2025-11-26\n"), "{md}");
        assert!(
            md.contains(
                "- 06:03:20 <@8> (Ana) `/sr test character:Ana attribute:agility` → hits 2 / 3 → failure\n"
            ),
            "{md}"
        );
        // Logged before summaries were stored: the total the outcome carries. A row with the
        // roller's name shows it, escaped (a name is no formatting or mention); one without, the
        // mention.
        assert!(
            md.contains("- 06:04:20 Bo \\*b\\* \\<\\@1\\> `/roll dice:2d6` → 7\n"),
            "{md}"
        );
        // Hidden: neither the command nor the result.
        assert!(md.contains("- 06:05:20 <@8> (Ana) made a secret roll\n"), "{md}");
        assert!(!md.contains("S2d6"), "{md}");
    }

    #[test]
    fn the_transcript_speaks_the_readers_language() {
        let x = export();
        let r = recap::build(&x.session, &x.log, 3, |_| false);
        let md = markdown(&x, &r, Lang::Ja, &BTreeMap::new(), |_| None);
        let system = format!("- システム: {}\n", SystemId::Shadowrun4.display_name(Lang::Ja));
        assert!(md.contains(&system), "{md}");
        assert!(md.contains("→ ヒット 2 / 3 → 失敗\n"), "{md}");
        assert!(md.contains("## ロスター"), "{md}");
    }

    /// A press's log name reads in the button's Japanese words, its command in Japanese.
    #[test]
    fn presses_read_in_the_buttons_words() {
        crate::command_names::learn(&crate::commands::all());
        assert_eq!(
            command_text("/sr second chance", Lang::Ja),
            "/シャドウラン セカンド・チャンス"
        );
        assert_eq!(
            command_text("/rally reliable 3", Lang::Ja),
            "/ラリー リライアブル 3"
        );
        assert_eq!(
            command_text("/term continue (I'll Be Back)", Lang::Ja),
            "/ターミネーター 続行（アイル ビー バック）"
        );
        assert_eq!(command_text("/sr second chance", Lang::En), "/sr second chance");
        // A typed command that only starts alike is left as typed.
        assert_eq!(
            command_text("/sr second chances", Lang::Ja),
            "/シャドウラン second chances"
        );
    }
}

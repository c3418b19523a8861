//! The recap of an evening: who played, how many rolls, and the moments each system names in
//! its own words (`SystemBot::moments`), built from a session and its log. Shown as an embed at
//! `/session end` and `/session recap`, and as a section of the export's transcript and page.

use engine::i18n::Lang;
use engine::session::{RollLogEntry, Session};

use crate::embeds::markdown::escape;
use crate::embeds::{EmbedView, colour, limits};
use crate::log_line::roller_name;
use crate::moments::{MomentKind, Side};
use crate::store::LogRow;

/// Moments listed one by one in the embed (the export lists them all).
pub const EMBED_MOMENTS: usize = 12;

/// One person of the evening.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRecap {
    pub user: u64,
    /// The name they rolled under (see [`crate::log_line::roller_name`]); `None`: only their mention is known.
    pub name: Option<String>,
    /// Their roster entries.
    pub characters: Vec<String>,
    pub gm: bool,
    pub rolls: u64,
    /// Their moments by kind, in the order they first happened.
    pub moments: Vec<(MomentKind, u32)>,
}

/// A moment of the evening, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct MomentAt {
    pub at_ms: i64,
    /// Whose it is: who rolled, or the owner of the character whose own dice it was on (a
    /// defender's glitch); `None`: no player's (the opposition's dice, a character no longer in
    /// the roster).
    pub user: Option<u64>,
    pub kind: MomentKind,
    /// Whom it befell, when the outcome names it (the model destroyed, the target killed).
    pub who: Option<String>,
    /// The command as typed.
    pub command: String,
}

impl MomentAt {
    /// Whom the moment is listed under (a player by `label`) and its `: subject` (`text` makes
    /// a name the renderer's text); no player's: under the character it befell, or the
    /// opposition.
    pub fn listing(
        &self,
        r: &Recap,
        lang: Lang,
        label: impl Fn(&PlayerRecap) -> String,
        text: impl Fn(&str) -> String,
    ) -> (String, String) {
        match self.user.and_then(|u| r.roller(u)) {
            Some(p) => (
                label(p),
                self.who
                    .as_deref()
                    .map_or_else(String::new, |w| format!(": {}", text(w))),
            ),
            None => (
                text(
                    self.who
                        .as_deref()
                        .unwrap_or(lang.pick("the opposition", "相手側")),
                ),
                String::new(),
            ),
        }
    }
}

/// An extra table a feature adds to the recap (the luck table): a title, column heads and
/// rows of plain text (escaped by each renderer), and an optional bar chart of `(label,
/// value)` drawn on the page. Shown after the moments, in the embed, the transcript and the page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RecapSection {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub chart: Vec<(String, f64)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Recap {
    /// Rolls read (the first page of a very long log).
    pub rolls: u64,
    /// Rolls in the whole log.
    pub total_rolls: u64,
    pub players: Vec<PlayerRecap>,
    pub moments: Vec<MomentAt>,
    /// Every moment kind of the evening with its count, in the order first seen.
    pub totals: Vec<(MomentKind, u32)>,
    /// Optional extra sections (the luck table goes here): empty unless a feature adds one.
    pub extra: Vec<RecapSection>,
}

fn bump(list: &mut Vec<(MomentKind, u32)>, kind: MomentKind) {
    match list.iter_mut().find(|(k, _)| k.key == kind.key) {
        Some((_, n)) => *n += 1,
        None => list.push((kind, 1)),
    }
}

/// The recap of `session` from `log` (`total_rolls` in the whole log). `hidden(entry)`: a roll
/// whose moments the readers may not learn (a secret roll in a channel): counted, not told.
pub fn build(
    session: &Session,
    log: &[RollLogEntry],
    total_rolls: u64,
    hidden: impl Fn(&RollLogEntry) -> bool,
) -> Recap {
    let mut recap = RecapBuilder::new(session);
    for entry in log {
        recap.add(session, entry, hidden(entry));
    }
    recap.finish(total_rolls)
}

/// A recap built a roll at a time, as the log is read (see [`build`]).
pub struct RecapBuilder {
    players: Vec<PlayerRecap>,
    moments: Vec<MomentAt>,
    totals: Vec<(MomentKind, u32)>,
    rolls: u64,
}

impl RecapBuilder {
    /// The GM and the players in the order they joined seated first; anyone else who rolls
    /// after them.
    pub fn new(session: &Session) -> RecapBuilder {
        let mut recap = RecapBuilder {
            players: Vec::new(),
            moments: Vec::new(),
            totals: Vec::new(),
            rolls: 0,
        };
        recap.seat(session, session.gm);
        for p in &session.players {
            recap.seat(session, *p);
        }
        recap
    }

    fn seat(&mut self, session: &Session, user: u64) -> usize {
        if let Some(i) = self.players.iter().position(|p| p.user == user) {
            return i;
        }
        self.players.push(PlayerRecap::seated(session, user));
        self.players.len() - 1
    }

    /// One roll of `session`'s log; `hidden`: counted, its moments not told.
    pub fn add(&mut self, session: &Session, entry: &RollLogEntry, hidden: bool) {
        self.count(session, entry, hidden, || {
            crate::systems::bot(session.system).moments(&entry.outcome)
        });
    }

    /// [`Self::add`] of a page's row read as `light` ([`LogRow::light_entry`]): its outcome is
    /// parsed for moments only when its text names one of the system's moment keys.
    pub fn add_row(&mut self, session: &Session, row: &LogRow, light: &RollLogEntry, hidden: bool) {
        let system = crate::systems::bot(session.system);
        self.count(session, light, hidden, || {
            if !row.names_any(system.moment_keys()) {
                return Vec::new();
            }
            row.outcome_value()
                .map(|v| system.moments(&v))
                .unwrap_or_default()
        });
    }

    fn count(
        &mut self,
        session: &Session,
        entry: &RollLogEntry,
        hidden: bool,
        moments: impl FnOnce() -> Vec<crate::moments::Moment>,
    ) {
        self.rolls += 1;
        let i = self.seat(session, entry.user_id);
        let p = &mut self.players[i];
        p.rolls += 1;
        if let Some(name) = roller_name(entry) {
            p.name = Some(name);
        }
        if hidden {
            return;
        }
        for m in moments() {
            // The other side's own moment is its character's owner's (an NPC's is the GM's),
            // listed under them; with no such character, no player's.
            let (user, who) = match m.side {
                Side::Roller => (Some(entry.user_id), m.who),
                Side::Other => match m.who.as_deref().and_then(|name| session.entry(name)) {
                    Some(e) => (Some(e.owner), None),
                    None => (None, m.who),
                },
            };
            if let Some(u) = user {
                let i = self.seat(session, u);
                bump(&mut self.players[i].moments, m.kind);
            }
            bump(&mut self.totals, m.kind);
            self.moments.push(MomentAt {
                at_ms: entry.at_ms,
                user,
                kind: m.kind,
                who,
                command: entry.command.clone(),
            });
        }
    }

    /// The recap, `total_rolls` in the whole log.
    pub fn finish(self, total_rolls: u64) -> Recap {
        Recap {
            rolls: self.rolls,
            total_rolls: total_rolls.max(self.rolls),
            players: self.players,
            moments: self.moments,
            totals: self.totals,
            extra: Vec::new(),
        }
    }
}

impl PlayerRecap {
    /// `user` at `session`'s table before any roll: by the name the game last saw them under
    /// (their rolls' own names replace it), with their roster entries.
    pub fn seated(session: &Session, user: u64) -> PlayerRecap {
        PlayerRecap {
            user,
            name: session.name_of(user).map(str::to_string),
            characters: session
                .roster
                .iter()
                .filter(|e| e.owner == user)
                .map(|e| e.name.clone())
                .collect(),
            gm: user == session.gm,
            rolls: 0,
            moments: Vec::new(),
        }
    }

    /// `alice` — or, before names are kept, the mention `<@id>`.
    pub fn name(&self) -> String {
        self.name.clone().unwrap_or_else(|| format!("<@{}>", self.user))
    }

    /// `alice (Ana, Ben)` — or, before names are kept, the mention `<@id> (Ana, Ben)`.
    pub fn label(&self) -> String {
        self.label_with(str::to_string)
    }

    /// The label as Discord Markdown: a mention stays a mention, names are escaped.
    fn markdown_label(&self) -> String {
        self.label_with(escape)
    }

    /// The label with each name written by `name` (the mention is never rewritten).
    /// Parentheses mean nothing to Discord's Markdown: left as typed, they read as such wherever
    /// the text is shown raw.
    fn label_with(&self, name: impl Fn(&str) -> String) -> String {
        let who = self
            .name
            .as_deref()
            .map_or_else(|| format!("<@{}>", self.user), &name);
        if self.characters.is_empty() {
            who
        } else {
            let chars: Vec<String> = self.characters.iter().map(|c| name(c)).collect();
            format!("{who} ({})", chars.join(", "))
        }
    }
}

impl Recap {
    /// The player who rolled a moment, as a label.
    pub fn roller(&self, user: u64) -> Option<&PlayerRecap> {
        self.players.iter().find(|p| p.user == user)
    }
}

/// `12 rolls`, `ロール12件`.
pub fn rolls_text(n: u64, lang: Lang) -> String {
    match lang {
        Lang::En if n == 1 => "1 roll".to_string(),
        Lang::En => format!("{n} rolls"),
        Lang::Ja => format!("ロール{n}件"),
    }
}

/// `💥 critical glitch ×2`.
pub fn count_text(kind: MomentKind, n: u32, lang: Lang) -> String {
    format!("{} {} ×{n}", kind.icon, kind.name(lang))
}

pub fn title(session: &Session, lang: Lang) -> String {
    match lang {
        Lang::En => format!("📖 Recap: {}", session.name),
        Lang::Ja => format!("📖 振り返り: {}", session.name),
    }
}

/// A note when the recap read only the first page of a very long log.
pub fn partial_note(r: &Recap, lang: Lang) -> Option<String> {
    (r.rolls < r.total_rolls).then(|| match lang {
        Lang::En => format!("(the first {} of {} rolls)", r.rolls, r.total_rolls),
        Lang::Ja => format!("（全{}件中、最初の{}件）", r.total_rolls, r.rolls),
    })
}

/// The recap as one embed, in the reader's language.
pub fn embed(session: &Session, r: &Recap, lang: Lang) -> EmbedView {
    let mut d = format!(
        "{} · {}",
        session.system.display_name(lang),
        rolls_text(r.total_rolls, lang)
    );
    if let Some(note) = partial_note(r, lang) {
        d.push_str(&format!(" {note}"));
    }
    d.push_str(&format!("\n\n**{}**", lang.pick("Who played", "参加者")));
    for p in &r.players {
        let mut line = format!("\n{}", p.markdown_label());
        if p.gm {
            line.push_str(" · GM");
        }
        line.push_str(&format!(" — {}", rolls_text(p.rolls, lang)));
        for (kind, n) in &p.moments {
            line.push_str(&format!(" · {}", count_text(*kind, *n, lang)));
        }
        d.push_str(&line);
    }
    d.push_str(&format!("\n\n**{}**\n", lang.pick("Moments", "名場面")));
    if r.moments.is_empty() {
        d.push_str(lang.pick("None this time.", "今回はありませんでした。"));
    } else {
        let totals: Vec<String> = r.totals.iter().map(|(k, n)| count_text(*k, *n, lang)).collect();
        d.push_str(&totals.join(" · "));
        for m in r.moments.iter().take(EMBED_MOMENTS) {
            let (who, subject) = m.listing(r, lang, PlayerRecap::markdown_label, escape);
            d.push_str(&format!(
                "\n<t:{}:t> {who} — {} {}{subject}",
                m.at_ms / 1000,
                m.kind.icon,
                m.kind.name(lang)
            ));
        }
        if r.moments.len() > EMBED_MOMENTS {
            let more = r.moments.len() - EMBED_MOMENTS;
            d.push_str(&match lang {
                Lang::En => format!("\n… and {more} more (/session export lists them all)"),
                Lang::Ja => format!("\n…ほか{more}件（/session export ですべて見られます）"),
            });
        }
    }
    for section in &r.extra {
        d.push_str(&format!("\n\n**{}**", escape(&section.title)));
        // One line per row: the first cell, then each other cell after its column's head.
        for row in &section.rows {
            let mut cells = row
                .iter()
                .zip(section.columns.iter().map(Some).chain(std::iter::repeat(None)));
            let first = cells.next().map(|(c, _)| escape(c)).unwrap_or_default();
            let rest: Vec<String> = cells
                .filter(|(c, _)| !c.is_empty())
                .map(|(c, head)| match head {
                    Some(h) => format!("{}: {}", escape(h), escape(c)),
                    None => escape(c),
                })
                .collect();
            d.push_str(&format!("\n{first} — {}", rest.join(" · ")));
        }
    }
    EmbedView {
        title: limits::truncate(&title(session, lang), limits::TITLE),
        description: limits::truncate(&d, limits::DESCRIPTION),
        colour: colour::NEUTRAL,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::{RosterEntry, SystemId};
    use serde_json::json;

    fn entry(user: u64, outcome: serde_json::Value) -> RollLogEntry {
        RollLogEntry {
            session_id: 1,
            user_id: user,
            command: "/sr test pool:4".into(),
            outcome,
            at_ms: 1_764_137_000_000,
            user_name: None,
        }
    }

    #[test]
    fn rolls_and_moments_are_counted_per_player_and_hidden_ones_not_told() {
        let mut s = Session::start(10, 20, "Heist", SystemId::Shadowrun4, 7, 0).unwrap();
        s.players = vec![8, 9];
        s.roster.push(RosterEntry::new("Ana", 8));
        let critical = json!({"roll": {"glitch": "critical", "ones": 3}});
        let log = vec![
            entry(8, critical.clone()),
            entry(8, json!({"roll": {"glitch": "glitch", "ones": 2}})),
            entry(
                9,
                json!({"hidden": "secret", "roll": {"glitch": "critical", "ones": 3}}),
            ),
            entry(11, critical),
        ];
        let r = build(&s, &log, 4, |e| e.outcome.get("hidden").is_some());
        let seats: Vec<(u64, bool, u64, usize)> = r
            .players
            .iter()
            .map(|p| (p.user, p.gm, p.rolls, p.moments.len()))
            .collect();
        // The GM first, the players, then someone who only rolled; the secret roll is counted.
        assert_eq!(
            seats,
            vec![
                (7, true, 0, 0),
                (8, false, 2, 2),
                (9, false, 1, 0),
                (11, false, 1, 1)
            ]
        );
        assert_eq!(r.players[1].label(), "<@8> (Ana)");
        let totals: Vec<(&str, u32)> = r.totals.iter().map(|(k, n)| (k.key, *n)).collect();
        assert_eq!(totals, vec![("sr.critical_glitch", 2), ("sr.glitch", 1)]);
        assert_eq!(r.moments.len(), 3);
        assert_eq!(partial_note(&r, Lang::En), None);
        let r = build(&s, &log[..2], 4, |_| false);
        assert_eq!(partial_note(&r, Lang::En).unwrap(), "(the first 2 of 4 rolls)");
    }

    /// The other side's moment is its character's owner's (an NPC's, the GM's); a name not in
    /// the roster, or the opposition's dice, is no player's and is listed under that name.
    #[test]
    fn the_other_sides_moments_are_credited_to_whose_they_are() {
        let mut s = Session::start(10, 20, "Heist", SystemId::Shadowrun4, 7, 0).unwrap();
        s.players = vec![8, 9];
        s.roster.push(RosterEntry::new("Ana", 8));
        s.roster.push(RosterEntry::new("Bob", 9));
        s.roster.push(RosterEntry::new("Guard", 7));
        let defence = |name: Option<&str>| {
            json!({"attack": {"roll": {"glitch": "none", "ones": 0}},
                "defence": {"roll": {"glitch": "glitch", "ones": 2}}, "target_name": name})
        };
        let log = vec![
            entry(8, defence(Some("Bob"))),
            entry(8, defence(Some("Guard"))),
            entry(8, defence(Some("Gone"))),
            entry(
                8,
                json!({"summon": {"roll": {"glitch": "none", "ones": 0}},
                "spirit": {"roll": {"glitch": "critical", "ones": 3}}}),
            ),
        ];
        let r = build(&s, &log, 4, |_| false);
        let seats: Vec<(u64, u64, usize)> = r
            .players
            .iter()
            .map(|p| (p.user, p.rolls, p.moments.iter().map(|(_, n)| *n as usize).sum()))
            .collect();
        assert_eq!(seats, vec![(7, 0, 1), (8, 4, 0), (9, 0, 1)]);
        let d = embed(&s, &r, Lang::En).description;
        let listed: Vec<&str> = d.lines().filter(|l| l.starts_with("<t:")).collect();
        assert_eq!(
            listed,
            vec![
                "<t:1764137000:t> <@9> (Bob) — ⚠️ glitch",
                "<t:1764137000:t> <@7> (Guard) — ⚠️ glitch",
                "<t:1764137000:t> Gone — ⚠️ glitch",
                "<t:1764137000:t> the opposition — 💥 critical glitch",
            ],
            "{d}"
        );
        let ja = embed(&s, &r, Lang::Ja).description;
        assert!(ja.contains("相手側 — 💥 クリティカル・グリッチ"), "{ja}");
    }

    #[test]
    fn the_embed_lists_extra_sections_after_the_moments() {
        let s = Session::start(10, 20, "Heist", SystemId::Shadowrun4, 7, 0).unwrap();
        let mut r = build(&s, &[], 0, |_| false);
        r.extra.push(RecapSection {
            title: "Luck".into(),
            columns: vec!["Player".into(), "Average".into()],
            rows: vec![vec!["<@7>".into(), "51%".into()]],
            chart: Vec::new(),
        });
        let d = embed(&s, &r, Lang::En).description;
        assert!(
            d.ends_with("**Moments**\nNone this time.\n\n**Luck**\n\\<\\@7\\> — Average: 51%"),
            "{d}"
        );
    }
}

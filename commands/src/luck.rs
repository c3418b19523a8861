//! Luck, exactly (issue 28): each logged roll's exact chance of a result at least as good, read
//! from the `luck` input stored with it ([`crate::log_line::stored_luck`]) through the odds
//! engine, and per player over the evening (the active session) and the campaign (every session
//! of the channel). [`LuckTable`] is plain data (for `/session luck`, a recap, an export page);
//! [`view`] and [`chart_bins`] render it.
//!
//! Computed only when asked for, off every roll's reply, on a blocking thread, within
//! [`BUDGET`]: rows left when it runs out are counted as not computed, never estimated.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use engine::i18n::Lang;
use engine::odds::{Chance, LuckError, LuckInput, chance_at_least_as_good};
use engine::session::RollLogEntry;

use crate::commands::recap::{Recap, RecapBuilder, RecapSection};
use crate::commands::transcript::command_text;
use crate::embeds::odds::{Bin, percent};
use crate::embeds::{EmbedView, colour};

/// Wall time one table may spend on odds (each roll's own odds have the engine's budget too).
pub const BUDGET: Duration = Duration::from_secs(3);

/// One logged roll and its luck.
#[derive(Debug, Clone, PartialEq)]
pub struct RollLuck {
    pub session_id: i64,
    pub user_id: u64,
    pub command: String,
    pub at_ms: i64,
    pub chance: Chance,
}

/// A player's luck over some rolls.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LuckStats {
    /// Rolls with an exact chance.
    pub rolls: usize,
    /// Rolls with a luck input whose chance was not computed: too costly, refused by the odds
    /// engine, inconsistent, or past the table's time budget.
    pub not_computed: usize,
    /// The mean of the rolls' percentiles (0.5 is average luck); `None` without rolls.
    pub average_percentile: Option<f64>,
    /// The roll with the smallest chance of a result at least as good.
    pub luckiest: Option<RollLuck>,
    /// The roll with the smallest chance of a result as bad or worse.
    pub unluckiest: Option<RollLuck>,
    /// Rolls by percentile, in tenths (0–10 %, …, 90–100 %).
    pub deciles: [usize; 10],
}

impl LuckStats {
    /// The luckiest and the unluckiest roll as shown. A player's only roll is shown once, on
    /// the side its percentile falls: a 1 on a d20 is "5 % chance of this bad or worse", not
    /// also "100 % chance of at least as good".
    pub fn shown_extremes(&self) -> (Option<&RollLuck>, Option<&RollLuck>) {
        if self.rolls == 1 {
            let only = self.luckiest.as_ref();
            return if only.is_some_and(|r| r.chance.percentile() >= 0.5) {
                (only, None)
            } else {
                (None, only)
            };
        }
        (self.luckiest.as_ref(), self.unluckiest.as_ref())
    }

    fn add(&mut self, r: &RollLuck) {
        let p = r.chance.percentile();
        let n = self.rolls as f64;
        self.average_percentile = Some((self.average_percentile.unwrap_or(0.0) * n + p) / (n + 1.0));
        self.rolls += 1;
        self.deciles[((p * 10.0) as usize).min(9)] += 1;
        if self
            .luckiest
            .as_ref()
            .is_none_or(|b| r.chance.at_least < b.chance.at_least)
        {
            self.luckiest = Some(r.clone());
        }
        if self
            .unluckiest
            .as_ref()
            .is_none_or(|w| r.chance.at_most < w.chance.at_most)
        {
            self.unluckiest = Some(r.clone());
        }
    }
}

/// One player's luck tonight and over the campaign.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerLuck {
    pub user_id: u64,
    /// The active session's rolls (empty without one).
    pub evening: LuckStats,
    /// Every session of the channel, the active one included.
    pub campaign: LuckStats,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct LuckTable {
    /// The active session, when there is one.
    pub evening: Option<i64>,
    /// Sessions read.
    pub sessions: usize,
    /// By campaign rolls, most first.
    pub players: Vec<PlayerLuck>,
    /// The time budget ran out: some rolls were left uncomputed.
    pub budget_exhausted: bool,
}

impl LuckTable {
    pub fn player(&self, user: u64) -> Option<&PlayerLuck> {
        self.players.iter().find(|p| p.user_id == user)
    }
}

/// A logged roll that carries a luck input: what luck keeps of a row (the row's outcome is
/// dropped as soon as this is read from it).
#[derive(Debug, Clone, PartialEq)]
pub struct LuckRow {
    pub session_id: i64,
    pub user_id: u64,
    pub command: String,
    pub at_ms: i64,
    pub input: LuckInput,
}

impl LuckRow {
    /// `None` for a row without a luck input.
    pub fn of(row: &RollLogEntry) -> Option<LuckRow> {
        let input = crate::log_line::stored_luck(&row.outcome)?;
        Some(LuckRow::made(
            input,
            row.session_id,
            row.user_id,
            &row.command,
            row.at_ms,
        ))
    }

    /// [`Self::of`] a page's row, reading its outcome's luck field alone.
    pub fn of_row(row: &crate::store::LogRow) -> Option<LuckRow> {
        let input = row.luck()?;
        Some(LuckRow::made(
            input,
            row.session_id,
            row.user_id,
            &row.command,
            row.at_ms,
        ))
    }

    fn made(input: LuckInput, session_id: i64, user_id: u64, command: &str, at_ms: i64) -> LuckRow {
        LuckRow {
            input,
            session_id,
            user_id,
            command: command.to_string(),
            at_ms,
        }
    }
}

type Memo = HashMap<String, Result<(engine::odds::Dist, bool), LuckError>>;

/// Luck added up a page of rows at a time, so a campaign's log is never held whole: what it
/// keeps is each player's figures and one distribution per way of rolling.
pub struct LuckTally {
    /// Time spent on odds so far (reading the pages between is not counted).
    spent: Duration,
    budget: Duration,
    evening: Option<i64>,
    memo: Memo,
    players: HashMap<u64, PlayerLuck>,
    budget_exhausted: bool,
}

impl LuckTally {
    /// `evening`: the active session's id; `budget`: wall time for every row's odds.
    pub fn new(evening: Option<i64>, budget: Duration) -> LuckTally {
        LuckTally {
            spent: Duration::ZERO,
            budget,
            evening,
            memo: HashMap::new(),
            players: HashMap::new(),
            budget_exhausted: false,
        }
    }

    /// Adds `rows`' luck (rows past the budget are counted as not computed).
    pub fn add_all(&mut self, rows: &[LuckRow]) {
        let start = Instant::now();
        for row in rows {
            let out_of_time = self.spent + start.elapsed() >= self.budget;
            self.add(row, out_of_time);
        }
        self.spent += start.elapsed();
    }

    fn add(&mut self, row: &LuckRow, out_of_time: bool) {
        let p = self.players.entry(row.user_id).or_insert_with(|| PlayerLuck {
            user_id: row.user_id,
            evening: LuckStats::default(),
            campaign: LuckStats::default(),
        });
        let tonight = Some(row.session_id) == self.evening;
        let chance = if out_of_time {
            self.budget_exhausted = true;
            None
        } else {
            chance_of(&row.input, &mut self.memo)
        };
        let Some(chance) = chance else {
            p.campaign.not_computed += 1;
            if tonight {
                p.evening.not_computed += 1;
            }
            return;
        };
        let r = RollLuck {
            session_id: row.session_id,
            user_id: row.user_id,
            command: row.command.clone(),
            at_ms: row.at_ms,
            chance,
        };
        p.campaign.add(&r);
        if tonight {
            p.evening.add(&r);
        }
    }

    /// The table, `sessions` read.
    pub fn finish(self, sessions: usize) -> LuckTable {
        let mut players: Vec<PlayerLuck> = self.players.into_values().collect();
        players.sort_by(|a, b| (b.campaign.rolls, a.user_id).cmp(&(a.campaign.rolls, b.user_id)));
        LuckTable {
            evening: self.evening,
            sessions,
            players,
            budget_exhausted: self.budget_exhausted,
        }
    }
}

/// The luck of `rows`: rows from every session of the channel, `evening` the active one's id.
/// Identical rolls are computed once.
pub fn compute(rows: &[LuckRow], evening: Option<i64>, sessions: usize, budget: Duration) -> LuckTable {
    let mut tally = LuckTally::new(evening, budget);
    tally.add_all(rows);
    tally.finish(sessions)
}

/// One roll's chance, its distribution shared by every roll made the same way.
fn chance_of(input: &LuckInput, memo: &mut Memo) -> Option<Chance> {
    let Ok(key) = serde_json::to_string(&input.roll) else {
        return chance_at_least_as_good(input).ok();
    };
    let dist = memo.entry(key).or_insert_with(|| input.roll.distribution());
    let (dist, higher) = dist.as_ref().ok()?;
    engine::odds::luck::chance_in(dist, *higher, input.observed).ok()
}

/// The chart's bars: the shown rolls by percentile, in tenths (green: the luckier half).
pub fn chart_bins(stats: &LuckStats) -> Vec<Bin> {
    let total = stats.rolls.max(1) as f64;
    (0..10)
        .map(|i| Bin {
            lo: i as i64 * 10,
            hi: i as i64 * 10 + 9,
            p: stats.deciles[i] as f64 / total,
        })
        .collect()
}

/// `62nd percentile`-style figure: `62 %`.
fn pct(p: f64) -> String {
    format!("{:.0} %", p * 100.0)
}

fn roll_line(r: &RollLuck, at_least: bool, lang: Lang) -> String {
    let cmd = crate::embeds::truncate(&r.command, 80).replace('`', "'");
    match (at_least, lang) {
        (true, Lang::En) => format!(
            "`{cmd}` <t:{}:d>: {} chance of a result at least as good",
            r.at_ms / 1000,
            percent(r.chance.at_least)
        ),
        (true, Lang::Ja) => format!(
            "`{cmd}` <t:{}:d>：これ以上の結果が出る確率 {}",
            r.at_ms / 1000,
            percent(r.chance.at_least)
        ),
        (false, Lang::En) => format!(
            "`{cmd}` <t:{}:d>: {} chance of a result this bad or worse",
            r.at_ms / 1000,
            percent(r.chance.at_most)
        ),
        (false, Lang::Ja) => format!(
            "`{cmd}` <t:{}:d>：これ以下の結果が出る確率 {}",
            r.at_ms / 1000,
            percent(r.chance.at_most)
        ),
    }
}

/// A player's stats over one span, as a field's text.
pub fn stats_text(s: &LuckStats, lang: Lang) -> String {
    let mut lines = Vec::new();
    match (s.average_percentile, lang) {
        (Some(avg), Lang::En) => lines.push(format!(
            "{} roll(s) · average percentile **{}**",
            s.rolls,
            pct(avg)
        )),
        (Some(avg), Lang::Ja) => lines.push(format!("{}回 · 平均パーセンタイル **{}**", s.rolls, pct(avg))),
        (None, _) => lines.push(lang.pick("no roll with luck", "運を測れるロールなし").into()),
    }
    let (luckiest, unluckiest) = s.shown_extremes();
    if let Some(r) = luckiest {
        lines.push(format!("🍀 {}", roll_line(r, true, lang)));
    }
    if let Some(r) = unluckiest {
        lines.push(format!("🌧️ {}", roll_line(r, false, lang)));
    }
    if s.not_computed > 0 {
        lines.push(match lang {
            Lang::En => format!(
                "{} roll(s) not computed exactly (too costly in budget): left out",
                s.not_computed
            ),
            Lang::Ja => format!("{}回は正確に計算できず（時間内に収まらない）除外", s.not_computed),
        });
    }
    lines.join("\n")
}

/// Wall time the recap gives luck: the recap answers `/session end`, so it waits less than
/// `/session luck` does; what is left uncomputed is said, never estimated.
pub const RECAP_BUDGET: Duration = Duration::from_millis(1500);

/// The evening's luck as the recap's extra table (and the export page's): one row per player
/// with a roll that carries luck, in the recap's order, and a chart of average percentiles.
/// `evening`: the session whose rolls count; `None`: every row (a whole campaign's export).
/// `None` when no roll of `rows` has luck. Computed off the async threads.
pub async fn recap_section(
    rows: Vec<LuckRow>,
    evening: Option<i64>,
    recap: &Recap,
    lang: Lang,
) -> Option<RecapSection> {
    let table = tokio::task::spawn_blocking(move || compute(&rows, evening, 1, RECAP_BUDGET))
        .await
        .ok()?;
    luck_section(&table, recap, lang)
}

/// A recap built as its log was read, finished with its luck table (`rows`: the luck inputs
/// read with it; `evening` as for [`recap_section`]).
pub async fn finish_recap(
    recap: RecapBuilder,
    total_rolls: u64,
    rows: Vec<LuckRow>,
    evening: Option<i64>,
    lang: Lang,
) -> Recap {
    let mut r = recap.finish(total_rolls);
    r.extra.extend(recap_section(rows, evening, &r, lang).await);
    r
}

/// The figures a recap's table shows of `p`: the table's evening's, or without one, every row's.
fn stats_of<'a>(table: &LuckTable, p: &'a PlayerLuck) -> &'a LuckStats {
    if table.evening.is_some() {
        &p.evening
    } else {
        &p.campaign
    }
}

/// [`recap_section`]'s table from a computed [`LuckTable`]: its evening's figures, or without
/// one, every row's.
pub fn luck_section(table: &LuckTable, recap: &Recap, lang: Lang) -> Option<RecapSection> {
    let l = |en: &'static str, ja: &'static str| lang.pick(en, ja).to_string();
    let label = |user: u64| {
        recap
            .roller(user)
            .map_or_else(|| format!("<@{user}>"), |p| p.label())
    };
    let mut players: Vec<&PlayerLuck> = table
        .players
        .iter()
        .filter(|p| {
            let s = stats_of(table, p);
            s.rolls + s.not_computed > 0
        })
        .collect();
    if players.is_empty() {
        return None;
    }
    // The recap's order (GM, players, others), then anyone it does not list.
    let rank = |u: u64| {
        recap
            .players
            .iter()
            .position(|p| p.user == u)
            .unwrap_or(usize::MAX)
    };
    players.sort_by_key(|p| (rank(p.user_id), p.user_id));
    let chance = |r: Option<&RollLuck>, best: bool| {
        r.map_or_else(String::new, |r| {
            let p = percent(if best { r.chance.at_least } else { r.chance.at_most });
            match (best, lang) {
                (true, Lang::En) => format!(
                    "{} — {p} chance of at least as good",
                    command_text(&r.command, lang)
                ),
                (true, Lang::Ja) => format!("{} — これ以上の確率 {p}", command_text(&r.command, lang)),
                (false, Lang::En) => format!(
                    "{} — {p} chance of this bad or worse",
                    command_text(&r.command, lang)
                ),
                (false, Lang::Ja) => format!("{} — これ以下の確率 {p}", command_text(&r.command, lang)),
            }
        })
    };
    let mut rows = Vec::new();
    let mut chart = Vec::new();
    for p in &players {
        let s = stats_of(table, p);
        let avg = s.average_percentile.map_or_else(|| "—".to_string(), pct);
        let mut rolls = s.rolls.to_string();
        if s.not_computed > 0 {
            rolls.push_str(&match lang {
                Lang::En => format!(" (+{} not computed)", s.not_computed),
                Lang::Ja => format!("（他{}件は計算せず）", s.not_computed),
            });
        }
        let (luckiest, unluckiest) = s.shown_extremes();
        rows.push(vec![
            label(p.user_id),
            rolls,
            avg,
            chance(luckiest, true),
            chance(unluckiest, false),
        ]);
        if let Some(a) = s.average_percentile {
            chart.push((label(p.user_id), (a * 100.0).round()));
        }
    }
    Some(RecapSection {
        title: l("🍀 Luck (exact odds)", "🍀 運（正確な確率）"),
        columns: vec![
            l("Player", "プレイヤー"),
            l("Rolls", "ロール"),
            l("Average percentile", "平均パーセンタイル"),
            l("Luckiest", "最も幸運"),
            l("Unluckiest", "最も不運"),
        ],
        rows,
        chart,
    })
}

/// The embed: one field per player and span (the evening, then the campaign).
pub fn view(table: &LuckTable, shown: &[&PlayerLuck], lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    for p in shown {
        if table.evening.is_some() {
            fields.push((
                format!("<@{}> · {}", p.user_id, lang.pick("this evening", "今夜")),
                stats_text(&p.evening, lang),
                false,
            ));
        }
        fields.push((
            format!("<@{}> · {}", p.user_id, lang.pick("campaign", "キャンペーン")),
            stats_text(&p.campaign, lang),
            false,
        ));
    }
    let description = match lang {
        Lang::En => format!(
            "For each roll, the exact chance of a result at least as good, under the rules it was rolled with (the `/odds` engine). Percentile 50 % is average luck. Campaign: {} session(s) of this channel. Chart: the rolls by percentile (green: the luckier half).",
            table.sessions
        ),
        Lang::Ja => format!(
            "各ロールについて、振ったときのルールで同じかそれ以上の結果が出る正確な確率（`/odds` と同じ計算）。パーセンタイル50 %が平均的な運です。キャンペーン: このチャンネルのセッション{}件。グラフ: パーセンタイル別のロール数（緑は運の良い半分）。",
            table.sessions
        ),
    };
    let mut footer = lang
        .pick(
            "Exact chances, computed, never sampled",
            "確率は標本ではなく厳密計算",
        )
        .to_string();
    if table.budget_exhausted {
        footer.push_str(lang.pick(
            " · time budget reached: later rolls left out",
            " · 計算時間の上限に達したため以降のロールは除外",
        ));
    }
    EmbedView {
        title: lang.pick("🍀 Luck", "🍀 運").into(),
        description,
        colour: colour::NEUTRAL,
        fields,
        footer: Some(footer),
    }
    .limited()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::odds::LuckRoll;

    fn row(session_id: i64, user_id: u64, expression: &str, observed: i64) -> LuckRow {
        LuckRow {
            session_id,
            user_id,
            command: format!("/roll dice:{expression}"),
            at_ms: 0,
            input: LuckInput {
                roll: LuckRoll::Notation {
                    expression: expression.into(),
                },
                observed,
            },
        }
    }

    /// A campaign is added up a page at a time: the table is the one of the whole log at once.
    #[test]
    fn pages_add_up_to_the_whole_log() {
        let rows = vec![
            row(1, 5, "2d6", 12),
            row(1, 6, "2d6", 2),
            row(2, 5, "1d20", 20),
            row(2, 5, "2d6", 7),
            row(2, 6, "1d20", 1),
        ];
        let whole = compute(&rows, Some(2), 2, BUDGET);
        let mut tally = LuckTally::new(Some(2), BUDGET);
        for page in rows.chunks(2) {
            tally.add_all(page);
        }
        assert_eq!(tally.finish(2), whole);
        // Player 5: three rolls over the campaign, two tonight; 12 on 2d6 is 1 in 36 at least as good.
        let p = whole.player(5).unwrap();
        assert_eq!((p.campaign.rolls, p.evening.rolls), (3, 2));
        let best = p.campaign.luckiest.as_ref().unwrap();
        assert!((best.chance.at_least - 1.0 / 36.0).abs() < 1e-9, "{best:?}");
        assert_eq!(best.command, "/roll dice:2d6");
    }

    /// The recap's luck table: one evening's rolls in an evening's recap, every row in a whole
    /// campaign's export.
    #[test]
    fn the_recap_table_counts_its_evening_or_every_row() {
        let s = engine::session::Session::start(1, 2, "Saga", engine::session::SystemId::Shadowrun4, 9, 0)
            .unwrap();
        let recap = crate::commands::recap::build(&s, &[], 0, |_| false);
        let rows = vec![row(1, 5, "2d6", 12), row(1, 5, "2d6", 2), row(2, 5, "1d20", 20)];
        let rolls = |evening: Option<i64>| {
            let table = compute(&rows, evening, 2, BUDGET);
            luck_section(&table, &recap, Lang::En).map(|t| t.rows[0][1].clone())
        };
        assert_eq!(rolls(Some(2)).as_deref(), Some("1"));
        assert_eq!(rolls(Some(1)).as_deref(), Some("2"));
        assert_eq!(rolls(None).as_deref(), Some("3"));
        assert_eq!(rolls(Some(3)), None, "no roll of that evening");
    }

    /// A player's only roll is shown once, as lucky or unlucky by where it falls; with two
    /// rolls both sides are shown.
    #[test]
    fn an_only_roll_is_shown_on_its_own_side() {
        let shown = |rows: &[LuckRow]| {
            let table = compute(rows, None, 1, BUDGET);
            let s = &table.player(5).unwrap().campaign;
            let (best, worst) = s.shown_extremes();
            let text = stats_text(s, Lang::En);
            (
                best.map(|r| r.command.clone()),
                worst.map(|r| r.command.clone()),
                text,
            )
        };
        let (best, worst, text) = shown(&[row(1, 5, "1d20", 1)]);
        assert_eq!((best, worst.as_deref()), (None, Some("/roll dice:1d20")));
        assert!(
            text.contains("🌧️") && text.contains("5.00 % chance of a result this bad"),
            "{text}"
        );
        assert!(!text.contains("🍀"), "{text}");
        let (best, worst, text) = shown(&[row(1, 5, "1d20", 20)]);
        assert_eq!((best.as_deref(), worst), (Some("/roll dice:1d20"), None));
        assert!(text.contains("🍀") && !text.contains("🌧️"), "{text}");
        // The median of 1d20 lies between 10 and 11: 11 is on the lucky side, 10 on the other.
        assert!(shown(&[row(1, 5, "1d20", 11)]).0.is_some());
        assert!(shown(&[row(1, 5, "1d20", 10)]).1.is_some());
        let (best, worst, _) = shown(&[row(1, 5, "1d20", 1), row(1, 5, "2d6", 12)]);
        assert_eq!(
            (best.as_deref(), worst.as_deref()),
            (Some("/roll dice:2d6"), Some("/roll dice:1d20"))
        );
    }

    /// Without time for odds every roll is counted as not computed, never estimated.
    #[test]
    fn rows_past_the_budget_are_not_computed() {
        let mut tally = LuckTally::new(None, Duration::ZERO);
        tally.add_all(&[row(1, 5, "2d6", 12)]);
        let table = tally.finish(1);
        assert!(table.budget_exhausted);
        let p = table.player(5).unwrap();
        assert_eq!((p.campaign.rolls, p.campaign.not_computed), (0, 1));
    }
}

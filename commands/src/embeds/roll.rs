//! `/roll` results: one line per roll or set, every die shown (dropped and rerolled dice struck
//! through, exploded ones marked, successes bold), the total or successes prominent, and
//! failures, botches and the verdict where present.

use engine::i18n::Lang;
use engine::notation::{Die, Kind, RollLine, RollOutcome, Status, Verdict};
use engine::systems::rules::DialectReading;

use super::{EmbedView, colour};
use crate::log_line::LogSummary;

/// Most dice printed per group; the rest are counted ("… +N more"), so 100 dice stay readable.
const DICE_SHOWN: usize = 60;

/// A die's face; a Fate die (`dF`, a d3) shows `-`, `0` or `+`.
fn die_text(d: &Die, fudge: bool) -> String {
    let mut s = match (fudge, d.face) {
        (true, 1) => "-".to_string(),
        (true, 2) => "0".to_string(),
        (true, 3) => "+".to_string(),
        _ => d.face.to_string(),
    };
    // `4d6mi2`: the 1 rolled counts 2.
    if let Some(rolled) = d.raised_from {
        s = format!("{rolled}→{s}");
    }
    if d.success > 0 {
        s = format!("**{s}**");
    }
    if d.botch {
        s.push('✗');
    }
    if d.exploded {
        s.push('!');
    }
    match d.status {
        Status::Dropped | Status::Rerolled => format!("~~{s}~~"),
        Status::Subtracted => format!("−{s}"),
        Status::Kept => s,
    }
}

fn dice_list(dice: &[Die], sorted: bool, fudge: bool) -> String {
    let mut shown: Vec<&Die> = dice.iter().collect();
    if sorted {
        // Stable, so equal faces keep roll order; struck dice sort among the rest.
        shown.sort_by_key(|d| std::cmp::Reverse(d.face));
    }
    let mut parts: Vec<String> = shown
        .iter()
        .take(DICE_SHOWN)
        .map(|d| die_text(d, fudge))
        .collect();
    if shown.len() > DICE_SHOWN {
        parts.push(format!("… +{}", shown.len() - DICE_SHOWN));
    }
    format!("[{}]", parts.join(", "))
}

fn verdict_text(v: Verdict, lang: Lang) -> &'static str {
    match v {
        Verdict::Success => lang.pick("Success", "成功"),
        Verdict::Failure => lang.pick("Failure", "失敗"),
    }
}

/// A total compared with a target, read by a Japanese reader: written in BCDice's order
/// (`(2D6>=7) ＞ 6[3,3] ＞ 6 ＞ 失敗`, issue 36), the total inside the line.
fn bcdice_order(line: &RollLine, lang: Lang) -> bool {
    lang == Lang::Ja && line.verdict.is_some() && line.target.is_some() && line.total.is_some()
}

/// BCDice's middle part: the expression with each group as its sum and dice (`6[3,3]+1`), the
/// comparison left out. `dice`: false when the roll asked for no dice (`s`).
fn bcdice_breakdown(line: &RollLine, dice: bool) -> String {
    let group = |g: &engine::notation::DiceGroup| -> String {
        if !dice || g.dice.is_empty() {
            return g.subtotal.to_string();
        }
        let mut faces: Vec<String> = g
            .dice
            .iter()
            .take(DICE_SHOWN)
            .map(|d| die_text(d, g.fudge))
            .collect();
        if g.dice.len() > DICE_SHOWN {
            faces.push(format!("… +{}", g.dice.len() - DICE_SHOWN));
        }
        format!("{}[{}]", g.subtotal, faces.join(","))
    };
    let expr = line.expression.as_str();
    let mut out = String::new();
    let mut from = 0;
    for g in &line.groups {
        let Some(at) = expr.get(from..).and_then(|rest| rest.find(&g.text)) else {
            // The groups are not found in order: BCDice's sums alone.
            return line.groups.iter().map(group).collect::<Vec<_>>().join("+");
        };
        out.push_str(&inline_escape(&expr[from..from + at]));
        out.push_str(&group(g));
        from += at + g.text.len();
    }
    let tail = &expr[from..];
    let cut = tail
        .find(['<', '>', '=', '!', '＜', '＞', '＝', '≥', '≤'])
        .unwrap_or(tail.len());
    out.push_str(&inline_escape(&tail[..cut]));
    out.trim().to_string()
}

/// Typed text inside a line: the marks that would change it mid-line escaped (`*`, `_`, `~`,
/// `` ` ``, `|`), BCDice's `>=` and `-` left readable (they only mean something at a line's start,
/// and the line starts with `(`).
fn inline_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\\' | '*' | '_' | '~' | '`' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The whole line in BCDice's order: `(2D6>=7) ＞ 6[3,3] ＞ 6 ＞ **失敗**`.
fn bcdice_line(line: &RollLine, outcome: &RollOutcome, lang: Lang) -> String {
    // Typed text, escaped: `2D6*2>=7` is not italics.
    let mut parts = vec![format!("({})", inline_escape(line.expression.trim()))];
    let breakdown = bcdice_breakdown(line, !outcome.flags.simple);
    let total = line.total.unwrap_or_default().to_string();
    if breakdown != total {
        parts.push(breakdown);
    }
    parts.push(result_text(line, lang, false));
    parts.join(" ＞ ")
}

/// The result part of a line: total, successes, picks or tally. `in_field`: the total (or the
/// successes) is shown as the embed's field, so it is not said again here.
fn result_text(line: &RollLine, lang: Lang, in_field: bool) -> String {
    if bcdice_order(line, lang)
        && let (Some(t), Some(v)) = (line.total, line.verdict)
    {
        let mut s = format!("**{t}** ＞ **{}**", verdict_text(v, lang));
        if line.capped {
            s.push_str("（連鎖上限）");
        }
        return s;
    }
    let mut parts = Vec::new();
    match line.kind {
        Kind::Choice => parts.push(format!("**{}**", line.chosen.join(", "))),
        Kind::Tally => {
            let t: Vec<String> = line
                .tally
                .iter()
                .map(|c| format!("{}:{}", c.face, c.count))
                .collect();
            parts.push(t.join(" "));
        }
        _ => {}
    }
    if let Some(s) = line.successes {
        if !in_field {
            parts.push(format!("{} **{s}**", lang.pick("Successes", "成功数")));
        }
    } else if let Some(max) = line.max {
        parts.push(format!("{} **{max}**", lang.pick("Max", "最大")));
        if let Some(t) = line.total.filter(|_| !in_field) {
            parts.push(format!("{} {t}", lang.pick("Total", "合計")));
        }
    } else if let Some(t) = line.total.filter(|_| !in_field) {
        parts.push(format!("**{t}**"));
    }
    // Shown whenever `f`/`b` was asked for: "0 botches" is an answer the player wants to see.
    if let Some(f) = line.failures {
        parts.push(format!("{} {f}", lang.pick("Failures", "失敗")));
    }
    if let Some(b) = line.botches {
        parts.push(format!("{} {b}", lang.pick("Botches", "ファンブル")));
    }
    if let (Some(t), Some(v)) = (line.target, line.verdict) {
        parts.push(format!(
            "({}{}) → **{}**",
            t.op.symbol(),
            t.value,
            verdict_text(v, lang)
        ));
    }
    if line.capped {
        parts.push(lang.pick("(chain capped)", "（連鎖上限）").to_string());
    }
    parts.join(" · ")
}

/// One line of the description. A roll of one line says its expression once (the title) and
/// its total once (the field): `single` leaves both out here; and a lone group's dice need no
/// name (`🎲 4d6 k3` · `[5, 4, 2, ~~1~~]` · Total **11**; `#2 `2d6` [4, 1] → **5**`).
fn line_text(line: &RollLine, outcome: &RollOutcome, lang: Lang, single: bool) -> String {
    let mut head = String::new();
    if let Some(set) = line.set {
        head.push_str(&format!("#{set} "));
    }
    if let Some(l) = &line.label {
        head.push_str(&format!("{}: ", super::markdown::escape(l)));
    }
    if bcdice_order(line, lang) && !outcome.flags.no_result {
        return format!("{head}{}", bcdice_line(line, outcome, lang));
    }
    // The title shows the input unless a label stands there instead.
    let titled = single && outcome.label.as_deref().is_none_or(str::is_empty) && line.label.is_none();
    if !titled {
        head.push_str(&format!("`{}`", line.expression));
    }
    // One group that is the whole expression is named by it already.
    let lone_group = line.groups.len() == 1 && line.groups[0].text == line.expression;
    let sorted = line.kind == Kind::Dice && !outcome.flags.unsorted;
    // A choice's "die" is only the index drawn; the picks say it better.
    let dice: Vec<String> = if outcome.flags.simple || line.kind == Kind::Choice {
        Vec::new()
    } else {
        line.groups
            .iter()
            .filter(|g| !g.dice.is_empty())
            .map(|g| {
                let name = if lone_group { "" } else { g.text.as_str() };
                format!("{name}{}", dice_list(&g.dice, sorted, g.fudge))
            })
            .collect()
    };
    let dice = with_flat_terms(line, dice);
    let mut s = head;
    if !dice.is_empty() {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&dice.join(" "));
    }
    if !outcome.flags.no_result {
        let r = result_text(line, lang, single && has_result_field(line, outcome));
        if !r.is_empty() {
            if !s.is_empty() {
                s.push_str(" → ");
            }
            s.push_str(&r);
        }
    }
    s
}

/// `1d20+1d4+3`: the breakdown written as the expression, each group with its dice, so the
/// flat `+3` (and Avrae's annotations, `1d20[11] + 5 [fire]`) is not left out of it
/// (`1d20[11]+1d4[2]+3`). Unchanged when the expression has no
/// number outside its groups, or when its groups cannot be found in it in order.
fn with_flat_terms(line: &RollLine, dice: Vec<String>) -> Vec<String> {
    if dice.len() != line.groups.len() || dice.is_empty() || !matches!(line.kind, Kind::Dice | Kind::Sum) {
        return dice;
    }
    let expr = line.expression.as_str();
    let mut out = String::new();
    let mut between = String::new();
    let mut from = 0;
    for (g, shown) in line.groups.iter().zip(&dice) {
        let Some(at) = expr.get(from..).and_then(|rest| rest.find(&g.text)) else {
            return dice;
        };
        let gap = &expr[from..from + at];
        between.push_str(gap);
        out.push_str(gap);
        // A lone group's dice come without its name; the flat terms need it.
        if !shown.starts_with(g.text.as_str()) {
            out.push_str(&g.text);
        }
        out.push_str(shown);
        from += at + g.text.len();
    }
    let tail = &expr[from..];
    between.push_str(tail);
    out.push_str(tail);
    // A flat number or an annotation (`2d6 [attack]`) outside the groups: show the expression.
    if !between.chars().any(|c| c.is_ascii_digit() || c == '[') {
        return dice;
    }
    vec![out]
}

/// Whether a one-line roll shows its successes or total as the embed's field.
fn has_result_field(line: &RollLine, outcome: &RollOutcome) -> bool {
    line.successes.is_some() || (line.total.is_some() && !outcome.flags.no_result)
}

/// The whole roll. A single line also gets its result as a prominent field.
/// With the channel system's `reading` of the roll (Shadowrun's hits for `6B6`): its fields
/// stand in for the generic count, which would say the same number twice.
pub fn roll_view(
    outcome: &RollOutcome,
    roller_name: &str,
    lang: Lang,
    reading: Option<DialectReading>,
) -> EmbedView {
    let title = match &outcome.label {
        Some(l) if !l.is_empty() => format!("🎲 {l}"),
        _ => format!("🎲 {}", outcome.input),
    };
    let single = outcome.lines.len() == 1;
    let lines: Vec<String> = outcome
        .lines
        .iter()
        .map(|l| line_text(l, outcome, lang, single))
        .collect();
    let mut fields = Vec::new();
    let mut colour = colour::NEUTRAL;
    let read_by_system = reading.as_ref().is_some_and(|r| !r.fields.is_empty());
    if let [only] = outcome.lines.as_slice() {
        if let Some(s) = only.successes.filter(|_| !read_by_system) {
            fields.push((
                lang.pick("Successes", "成功数").to_string(),
                format!("**{s}**"),
                true,
            ));
        } else if let Some(t) = only
            .total
            // A system that reads the roll names its result (Shadowrun's hits); the dice's sum
            // above it would read as the result. BCDice's order has the total in its line.
            .filter(|_| !outcome.flags.no_result && !read_by_system && !bcdice_order(only, lang))
        {
            fields.push((lang.pick("Total", "合計").to_string(), format!("**{t}**"), true));
        }
        colour = match only.verdict {
            Some(Verdict::Success) => colour::SUCCESS,
            Some(Verdict::Failure) => colour::FAILURE,
            None => colour::NEUTRAL,
        };
    }
    let mut description = lines.join("\n");
    if let [only] = outcome.lines.as_slice()
        && let Some(note) = total_compared_note(only, lang)
    {
        description = format!("{description}\n{note}");
    }
    let mut footer = roller_name.to_string();
    if let Some(c) = &outcome.comment {
        footer = format!("{footer} · {c}");
    }
    let mut view = EmbedView {
        title,
        description,
        colour,
        fields,
        footer: Some(footer),
    };
    if let Some(r) = reading {
        add_reading(&mut view, r);
    }
    view
}

/// `10d6>4`: BCDice compares the total, Roll20 counts the dice over 4. The total was compared
/// (BCDice's reading): say so, and how to count the dice (`10d6 t5`). Only for several dice of one
/// group with nothing else, compared by `>` or `>=`, where counting could be what was meant.
fn total_compared_note(line: &RollLine, lang: Lang) -> Option<String> {
    use engine::notation::CmpOp;
    let [g] = line.groups.as_slice() else {
        return None;
    };
    let target = line.target?;
    let at_least = match target.op {
        CmpOp::Gt => target.value.checked_add(1)?,
        CmpOp::Ge => target.value,
        _ => return None,
    };
    let plain =
        line.expression.replace(' ', "") == format!("{}{}{}", g.text, target.op.symbol(), target.value);
    if line.kind != Kind::Sum
        || g.count < 2
        || g.fudge
        || !plain
        || !(1..=i64::from(g.sides)).contains(&at_least)
    {
        return None;
    }
    let count = format!("{}d{} t{at_least}", g.count, g.sides);
    Some(if lang == Lang::Ja {
        format!(
            "*BCDiceの読み方で合計を{}{}と比べました。{at_least}以上のダイスを数えるなら `{count}`*",
            target.op.symbol(),
            target.value
        )
    } else {
        format!(
            "*Read as BCDice does: the total against {}{}. To count the dice of {at_least} or more, type `{count}`*",
            target.op.symbol(),
            target.value
        )
    })
}

/// What the channel's system reads in the roll (its `/roll` dialect: Shadowrun's hits and
/// glitches for each `nB6` / `nR6` line): fields under the dice, a headline before the title,
/// and the colour of its tone.
fn add_reading(view: &mut EmbedView, reading: DialectReading) {
    view.fields
        .extend(reading.fields.into_iter().map(|(n, v)| (n, v, false)));
    if let Some(h) = reading.headline {
        view.title = format!("{h} · {}", view.title);
    }
    if let Some(t) = reading.tone {
        view.colour = super::colour::of_tone(t);
    }
}

/// The log's line: each roll line's result (`**11**`, `Successes **3**`, `(>=7) → **Success**`).
impl LogSummary for RollOutcome {
    fn summary(&self, lang: Lang) -> String {
        let results: Vec<String> = self
            .lines
            .iter()
            .map(|l| result_text(l, lang, false))
            .filter(|r| !r.is_empty())
            .collect();
        results.join(" ; ")
    }

    /// One line with a number: its expression as `/odds` reads it and the number (net
    /// successes where it counts them). Lists, tallies, D66 and plain arithmetic have none.
    fn luck(&self) -> Option<engine::odds::LuckInput> {
        let [line] = self.lines.as_slice() else {
            return None;
        };
        if matches!(line.kind, Kind::Choice | Kind::Tally | Kind::D66 | Kind::Calc) || self.dice_rolled == 0 {
            return None;
        }
        Some(engine::odds::LuckInput {
            roll: engine::odds::LuckRoll::Notation {
                expression: line.expression.clone(),
            },
            observed: line.successes.or(line.total)?,
        })
    }
}

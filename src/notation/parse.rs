//! The command around the dice: flags, comment, `;` rolls, labels, sets, the BCDice `S` and
//! repeat prefixes, and which family reads each roll.

use super::alias;
use super::ast::{Command, ExprCommand, Parsed, RollSpec, Rounding, Stage2};
use super::cursor::{Cursor, Source};
use super::error::{Expected, Hint, NotationError};
use super::expr::modifier_run;
use super::expr::{ExprParser, Mode};
use super::limits::{
    Cost, MAX_CHAIN, MAX_DICE_PER_COMMAND, MAX_INPUT_CHARS, MAX_REPEAT, MAX_ROLLS, MAX_SETS, MIN_SETS,
};
use super::outcome::{Flags, Kind};
use super::parse_bcdice as bc;

pub fn parse(input: &str) -> Result<Parsed, NotationError> {
    let len = input.chars().count();
    if len > MAX_INPUT_CHARS {
        return Err(NotationError::InputTooLong {
            len,
            max: MAX_INPUT_CHARS,
        });
    }
    let src = Source::new(input);
    let start = src
        .norm
        .iter()
        .position(|c| !c.is_whitespace())
        .ok_or(NotationError::Empty)?;
    let end = src
        .norm
        .iter()
        .rposition(|c| !c.is_whitespace())
        .map_or(start, |e| e + 1);
    let mut c = Cursor::new(&src, start, end);
    let mut flags = leading_flags(&mut c);
    let body_start = c.pos;

    // A comment: after a `!` or `#` marker, or (when the whole does not read as notation) text
    // after a space that the longest readable start of the roll leaves over.
    let marker = comment_marker(&src, body_start, end);
    let body_end = marker.unwrap_or(end);
    let (rolls, secret, comment_from) = match rolls_in(&src, body_start, body_end) {
        Ok((rolls, secret)) => (rolls, secret, marker.map(|m| m + 1)),
        Err(e) => match trailing_text(&src, body_start, body_end) {
            Some((rolls, secret, cut)) => (rolls, secret, Some(cut)),
            None => match advantage_after_math(&e, &src, body_start, body_end) {
                Some((rolls, secret, cut)) => (rolls, secret, cut.or(marker.map(|m| m + 1))),
                // `dd`: no count, no sides; suggesting `dd1` would only be refused in turn.
                None if src
                    .norm
                    .get(body_start..body_end)
                    .is_some_and(|b| b.iter().all(|c| c.eq_ignore_ascii_case(&'d'))) =>
                {
                    return Err(NotationError::DidYouMean {
                        at: body_start + 1,
                        hint: Hint::SidesMissing,
                        suggestion: "1d6".into(),
                    });
                }
                None => return Err(explain(e, &src, body_start, body_end)),
            },
        },
    };
    flags.secret |= secret;
    // A bare `d` would roll BCDice's 1D6 without a word: ask for the sides instead.
    if rolls.iter().any(|r| r.expression.eq_ignore_ascii_case("d")) {
        return Err(NotationError::DidYouMean {
            at: bare_d(&src, body_start, body_end).unwrap_or(body_start) + 1,
            hint: Hint::SidesMissing,
            suggestion: "1d6".into(),
        });
    }
    let comment = comment_from
        .map(|from| src.text(from, end))
        .filter(|t| !t.is_empty());

    let worst = rolls.iter().fold(0u64, |acc, r| {
        acc.saturating_add(cost(&r.command).saturating_mul(u64::from(r.times)))
    });
    if worst > MAX_DICE_PER_COMMAND as u64 {
        return Err(NotationError::TooManyDice {
            worst,
            max: MAX_DICE_PER_COMMAND,
        });
    }
    Ok(Parsed {
        input: src.text(start, end),
        flags,
        label: rolls.first().and_then(|r| r.label.clone()),
        comment,
        rolls,
        worst_case_dice: worst,
    })
}

/// The `;` rolls of `start..end`, and whether any was secret.
fn rolls_in(src: &Source, start: usize, end: usize) -> Result<(Vec<RollSpec>, bool), NotationError> {
    let mut rolls = Vec::new();
    let mut secret = false;
    let mut seg_start = start;
    loop {
        let seg_end = find_top_level(src, seg_start, end, ';').unwrap_or(end);
        if rolls.len() == MAX_ROLLS {
            let count = 1 + MAX_ROLLS + count_top_level(src, seg_start, end, ';');
            return Err(NotationError::TooManyRolls {
                count,
                max: MAX_ROLLS,
            });
        }
        let (spec, s) = parse_roll(src, seg_start, seg_end)?;
        secret |= s;
        rolls.push(spec);
        if seg_end >= end {
            return Ok((rolls, secret));
        }
        seg_start = seg_end + 1;
    }
}

/// The comment marker: `#`, or Dice Maiden's `!` unless it touches dice (`3d6!` explodes).
fn comment_marker(src: &Source, start: usize, end: usize) -> Option<usize> {
    let hash = find_top_level(src, start, end, '#');
    let mut from = start;
    let bang = loop {
        let Some(i) = find_top_level(src, from, hash.unwrap_or(end), '!') else {
            break None;
        };
        if !touches_dice(src, start, i) {
            break Some(i);
        }
        // Skip the whole `!!` run: the parser reads (or refuses) it.
        from = i + 1;
        while src.norm.get(from) == Some(&'!') {
            from += 1;
        }
    };
    bang.or(hash)
}

/// Whether the `!` at `i` follows a dice group directly (`3d6!`, `4d6k3!`, `2d6!!`).
fn touches_dice(src: &Source, start: usize, i: usize) -> bool {
    let mut j = i;
    while j > start && src.norm.get(j - 1) == Some(&'!') {
        j -= 1;
    }
    let mut k = j;
    while k > start
        && src
            .norm
            .get(k - 1)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '%')
    {
        k -= 1;
    }
    let word: Vec<char> = src.norm.get(k..j).unwrap_or_default().to_vec();
    word.iter().enumerate().any(|(n, ch)| {
        ch.eq_ignore_ascii_case(&'d')
            && word
                .get(n + 1)
                .is_some_and(|s| s.is_ascii_digit() || *s == '%' || s.eq_ignore_ascii_case(&'f'))
    })
}

/// Where a `d` stands alone (no count, no sides) in `start..end`.
fn bare_d(src: &Source, start: usize, end: usize) -> Option<usize> {
    let word = |k: usize| {
        src.norm
            .get(k)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '%')
    };
    (start..end).find(|&i| {
        src.norm.get(i).is_some_and(|c| c.eq_ignore_ascii_case(&'d'))
            && (i == 0 || !word(i - 1))
            && !word(i + 1)
    })
}

/// The first word of two or more letters after a `+` or `-` that, replaced by a number, makes
/// the roll read: `dex` in `1d20+dex`.
fn word_for_number(src: &Source, start: usize, end: usize) -> Option<(usize, String)> {
    (start..end).find_map(|i| {
        if !matches!(src.norm.get(i), Some('+' | '-')) {
            return None;
        }
        let mut from = i + 1;
        while from < end && src.norm.get(from).is_some_and(|c| c.is_whitespace()) {
            from += 1;
        }
        let word = word_at(src, from, end);
        let len = word.chars().count();
        if len < 2 || !word.chars().all(|c| c.is_ascii_alphabetic()) {
            return None;
        }
        let with_number = src.edited(from, from + len, "1");
        parse(&with_number)
            .is_ok()
            .then(|| (from + 1, src.text(from, from + len)))
    })
}

/// Dice Maiden's flags, read only before the roll.
const FLAG_WORDS: [&str; 4] = ["p", "s", "nr", "ul"];

/// Words that read as notation, never as the start of a comment: modifiers (`kh`, `e6`,
/// `k3e`), advantage words, and short letter-and-number words (`x3`).
fn notation_like(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    if w.chars().count() < 2 || ADVANTAGE_WORDS.contains(&w.as_str()) || FLAG_WORDS.contains(&w.as_str()) {
        return true;
    }
    let letters = w.chars().take_while(char::is_ascii_alphabetic).count();
    if letters <= 3 && w.len() > letters && w[letters..].chars().all(|c| c.is_ascii_digit()) {
        return true;
    }
    modifier_run(&w)
}

const ADVANTAGE_WORDS: [&str; 4] = ["adv", "dis", "advantage", "disadvantage"];

/// The word (ASCII letters and digits) starting at `i`.
fn word_at(src: &Source, i: usize, end: usize) -> String {
    src.norm
        .get(i..end)
        .unwrap_or_default()
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect()
}

/// Where a comment may start in `start..end`: after a top-level space, at text that is not
/// notation (a word of two or more letters that is no modifier, or any non-ASCII character),
/// and after the last `;`: only the last roll takes a comment. Latest first.
fn comment_starts(src: &Source, start: usize, end: usize) -> Vec<usize> {
    let mut depth = 0usize;
    let mut out = Vec::new();
    for i in start..end {
        match src.norm.get(i).copied() {
            Some('(' | '[') => depth += 1,
            Some(')' | ']') => depth = depth.saturating_sub(1),
            Some(';') if depth == 0 => out.clear(),
            Some(ch) if ch.is_whitespace() && depth == 0 => {
                let Some(next) = src.norm.get(i + 1).copied() else {
                    continue;
                };
                let word = word_at(src, i + 1, end);
                let text = !next.is_ascii() || (next.is_ascii_alphabetic() && !notation_like(&word));
                if text && i + 1 < end {
                    out.push(i);
                }
            }
            _ => {}
        }
    }
    out.reverse();
    out
}

/// The longest start of `start..end` that reads as rolls, with the text after it as comment:
/// `2d6 attack`, `2D6>=7 命中`. Notation wins: the whole was tried first.
fn trailing_text(src: &Source, start: usize, end: usize) -> Option<(Vec<RollSpec>, bool, usize)> {
    comment_starts(src, start, end).into_iter().find_map(|cut| {
        let (rolls, secret) = rolls_in(src, start, cut).ok()?;
        // `2 attack` is no roll of 2 with a comment: what is left must roll something.
        let rolls_dice = |r: &RollSpec| {
            cost(&r.command) > 0 || matches!(&r.command, Command::Expr(e) if e.kind == Kind::Calc)
        };
        rolls.iter().all(rolls_dice).then_some((rolls, secret, cut))
    })
}

/// A refused roll, with what to type instead where players of another bot wrote it their way.
fn explain(e: NotationError, src: &Source, start: usize, end: usize) -> NotationError {
    let NotationError::Unexpected { at, .. } = e else {
        return e;
    };
    let i = at - 1;
    let word = word_at(src, i, end).to_ascii_lowercase();
    // Avrae's `1d20+5 adv`: the advantage word after the math.
    if ADVANTAGE_WORDS.contains(&word.as_str()) && i > start {
        let adv = word.starts_with("adv");
        let mut from = i;
        while from > start && src.norm.get(from - 1).is_some_and(|c| c.is_whitespace()) {
            from -= 1;
        }
        let without = src.edited(from, i + word.len(), "");
        if let Some(suggestion) = advantage_on_first_die(&without, adv) {
            return NotationError::DidYouMean {
                at,
                hint: Hint::AdvantageWord,
                suggestion,
            };
        }
    }
    // Call of Cthulhu's `CC<=50` / `CCB<=50` (BCDice): the plain d100 check.
    // Read from the width-folded text, so `ＣＣ<=50` typed on a Japanese keyboard is met too.
    let body: String = src.norm.get(start..end).unwrap_or_default().iter().collect();
    let body = body.trim().to_ascii_uppercase();
    if let Some(rest) = body.strip_prefix("CCB<=").or_else(|| body.strip_prefix("CC<="))
        && !rest.is_empty()
        && rest.chars().all(|c| c.is_ascii_digit())
    {
        return NotationError::DidYouMean {
            at: start + 1,
            hint: Hint::CthulhuCheck,
            suggestion: format!("1D100<={rest}"),
        };
    }
    // `roll 2d6`, `/roll 2d6`: the command's name typed into `dice:`.
    let first: String = src
        .norm
        .get(start..end)
        .unwrap_or_default()
        .iter()
        .take_while(|c| !c.is_whitespace())
        .collect();
    if ["roll", "/roll"].contains(&first.to_ascii_lowercase().as_str()) {
        let rest = src.text(start + first.chars().count(), end);
        if !rest.is_empty() && parse(&rest).is_ok() {
            return NotationError::DidYouMean {
                at: start + 1,
                hint: Hint::CommandWord,
                suggestion: rest,
            };
        }
    }
    // `1d20+dex`: a sheet value where a number goes (the roll reads with a number there).
    if let Some((at, word)) = word_for_number(src, start, end) {
        return NotationError::NotANumber { at, word };
    }
    // `4d6 ul`: a flag after the roll goes before it.
    if FLAG_WORDS.contains(&word.as_str())
        && i > start
        && src.norm.get(i - 1).is_some_and(|c| c.is_whitespace())
        && src.norm.get(i + word.len()).is_none_or(|c| c.is_whitespace())
    {
        let without = src.edited(i, i + word.len(), "");
        if parse(&without).is_ok() {
            return NotationError::DidYouMean {
                at,
                hint: Hint::FlagAfterRoll,
                suggestion: format!("{word} {}", without.trim()),
            };
        }
    }
    // `1d20+5 attack; 2d6 damage`: a comment before `;`; suggest labels.
    if find_top_level(src, i, end, ';').is_some()
        && let Some(suggestion) = labelled_rolls(src, start, end)
    {
        return NotationError::DidYouMean {
            at,
            hint: Hint::CommentBeforeSemicolon,
            suggestion,
        };
    }
    e
}

/// Avrae's `1d20+5 adv` / `1d20-2 dis Hide`: the advantage word after the math, read as
/// `2d20kh1+5` / `2d20kl1-2` when the last roll holds exactly one d20 (a plain `1d20` or `d20`);
/// text after the word is the comment. Anything else stays refused (see [`explain`]).
fn advantage_after_math(
    e: &NotationError,
    src: &Source,
    start: usize,
    end: usize,
) -> Option<(Vec<RollSpec>, bool, Option<usize>)> {
    let NotationError::Unexpected { at, .. } = e else {
        return None;
    };
    let i = at.checked_sub(1)?;
    let word = word_at(src, i, end).to_ascii_lowercase();
    let after = i + word.chars().count();
    if !ADVANTAGE_WORDS.contains(&word.as_str())
        || i <= start
        || !src.norm.get(i - 1).is_some_and(|c| c.is_whitespace())
        || src.norm.get(after).is_some_and(|c| !c.is_whitespace())
    {
        return None;
    }
    let (mut rolls, secret) = rolls_in(src, start, i).ok()?;
    let last = rolls.last()?;
    let Command::Expr(cmd) = &last.command else {
        return None;
    };
    let d20s: Vec<_> = cmd
        .groups
        .iter()
        .filter(|g| g.sides == 20 && !g.fudge && !g.d66)
        .collect();
    let [only] = d20s.as_slice() else {
        return None;
    };
    if only.count != 1 || **only != plain_d20(&only.text) {
        return None;
    }
    // The last roll again, written with the keep, so the reply shows how it was read.
    let seg_start = (start..i)
        .rev()
        .find(|&k| src.norm.get(k) == Some(&';'))
        .map_or(start, |k| k + 1);
    let keep = if word.starts_with("adv") { "kh1" } else { "kl1" };
    let rewritten = d20_kept(&src.text(seg_start, i), keep)?;
    let again = Source::new(&rewritten);
    let (spec, s) = parse_roll(&again, 0, again.norm.len()).ok()?;
    *rolls.last_mut()? = spec;
    let cut = (after < end && !src.text(after, end).is_empty()).then_some(after);
    Some((rolls, secret || s, cut))
}

/// A `1d20` with no modifier, as the parser builds it.
fn plain_d20(text: &str) -> super::ast::DiceSpec {
    super::ast::DiceSpec {
        text: text.to_string(),
        count: 1,
        sides: 20,
        ..Default::default()
    }
}

/// `(Hit) 1d20+5` → `(Hit) 2d20kh1+5`: the one `d20` / `1d20` word rolled twice with `keep`.
fn d20_kept(roll: &str, keep: &str) -> Option<String> {
    let chars: Vec<char> = roll.chars().collect();
    let mut found = None;
    for (i, ch) in chars.iter().enumerate() {
        if !ch.eq_ignore_ascii_case(&'d') {
            continue;
        }
        let from = if i > 0 && chars.get(i - 1) == Some(&'1') {
            i - 1
        } else {
            i
        };
        let to = i + 3;
        let sides: String = chars.get(i + 1..to.min(chars.len()))?.iter().collect();
        if sides != "20"
            || (from > 0 && chars.get(from - 1).is_some_and(|c| c.is_ascii_alphanumeric()))
            || chars.get(to).is_some_and(|c| c.is_ascii_alphanumeric())
        {
            continue;
        }
        if found.replace((from, to)).is_some() {
            return None;
        }
    }
    let (from, to) = found?;
    let head: String = chars.get(..from)?.iter().collect();
    let tail: String = chars.get(to..)?.iter().collect();
    Some(format!("{head}2d20{keep}{tail}"))
}

/// `1d20+5` → `2d20 k1+5` (disadvantage: `kl1`): the first single die rolled twice.
fn advantage_on_first_die(input: &str, adv: bool) -> Option<String> {
    let chars: Vec<char> = input.chars().collect();
    let keep = if adv { "k1" } else { "kl1" };
    for (i, ch) in chars.iter().enumerate() {
        if !ch.eq_ignore_ascii_case(&'d') || chars.get(i + 1).is_none_or(|c| !c.is_ascii_digit()) {
            continue;
        }
        // The count before `d`: none or `1`, and not part of a longer word.
        let mut from = i;
        if i > 0 && chars.get(i - 1) == Some(&'1') {
            from = i - 1;
        }
        if from > 0 && chars.get(from - 1).is_some_and(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        let mut to = i + 1;
        while chars.get(to).is_some_and(char::is_ascii_digit) {
            to += 1;
        }
        if chars.get(to).is_some_and(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        let sides: String = chars.get(i + 1..to)?.iter().collect();
        let head: String = chars.get(..from)?.iter().collect();
        let tail: String = chars.get(to..)?.iter().collect();
        return Some(format!("{head}2d{sides} {keep}{tail}"));
    }
    None
}

/// Each `;` roll with trailing text turned into a leading label: `(attack) 1d20+5; (damage) 2d6`.
fn labelled_rolls(src: &Source, start: usize, end: usize) -> Option<String> {
    let mut parts = Vec::new();
    let mut moved = false;
    let mut seg_start = start;
    loop {
        let seg_end = find_top_level(src, seg_start, end, ';').unwrap_or(end);
        if parse_roll(src, seg_start, seg_end).is_ok() {
            parts.push(src.text(seg_start, seg_end));
        } else {
            let (_, _, cut) = trailing_text(src, seg_start, seg_end)?;
            let spec = parse_roll(src, seg_start, cut).ok()?.0;
            if spec.label.is_some() {
                return None;
            }
            parts.push(format!(
                "({}) {}",
                src.text(cut, seg_end),
                src.text(seg_start, cut)
            ));
            moved = true;
        }
        if seg_end >= end {
            break;
        }
        seg_start = seg_end + 1;
    }
    moved.then(|| {
        let head = src.text(0, start);
        let tail = src.text(end, src.orig.len());
        [head, parts.join("; "), tail]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// Dice Maiden words `p`, `s`, `nr`, `ul`, each followed by a space.
fn leading_flags(c: &mut Cursor) -> Flags {
    let mut flags = Flags::default();
    loop {
        let mut k = 0;
        while c.peek_at(k).is_some_and(|ch| ch.is_ascii_alphabetic()) {
            k += 1;
        }
        if !c.peek_at(k).is_some_and(char::is_whitespace) {
            return flags;
        }
        let flag = match k {
            1 if c.starts_with_ci("p") => &mut flags.private,
            1 if c.starts_with_ci("s") => &mut flags.simple,
            2 if c.starts_with_ci("nr") => &mut flags.no_result,
            2 if c.starts_with_ci("ul") => &mut flags.unsorted,
            _ => return flags,
        };
        *flag = true;
        c.pos += k;
        c.skip_ws();
    }
}

/// First `needle` in `start..end` outside parentheses and brackets.
fn find_top_level(src: &Source, start: usize, end: usize, needle: char) -> Option<usize> {
    let mut depth = 0usize;
    for i in start..end {
        match src.norm.get(i).copied()? {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ch if ch == needle && depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

fn count_top_level(src: &Source, mut start: usize, end: usize, needle: char) -> usize {
    let mut n = 0;
    while let Some(i) = find_top_level(src, start, end, needle) {
        n += 1;
        start = i + 1;
    }
    n
}

/// One `;` roll: `[(label)] [sets] [S] [xN ] command`. Returns whether it was secret.
fn parse_roll(src: &Source, start: usize, end: usize) -> Result<(RollSpec, bool), NotationError> {
    let end = (start..end)
        .rev()
        .find(|&i| src.norm.get(i).is_some_and(|c| !c.is_whitespace()))
        .map_or(start, |i| i + 1);
    let mut c = Cursor::new(src, start, end);
    c.skip_ws();
    if c.at_end() {
        return Err(c.unexpected(Expected::Command));
    }
    let mut label = None;
    if let Some(close) = label_end(&c)? {
        label = Some(src.text(c.pos + 1, close));
        c.pos = close + 1;
        c.skip_ws();
        if c.at_end() {
            return Err(c.unexpected(Expected::Command));
        }
    }
    let mut times = 1;
    if looks_like_sets(&c) {
        let at = c.at();
        let n = c.expect_number()?;
        if !(u64::from(MIN_SETS)..=u64::from(MAX_SETS)).contains(&n) {
            return Err(NotationError::SetsOutOfRange {
                at,
                sets: n,
                min: MIN_SETS,
                max: MAX_SETS,
            });
        }
        times = n as u32;
        c.skip_ws();
    }
    let mut secret = eat_secret(&mut c);
    let repeat_at = c.at();
    if let Some(n) = repeat(&mut c)? {
        if times > 1 {
            return Err(NotationError::NestedRepeat { at: repeat_at });
        }
        times = n;
        secret |= eat_secret(&mut c);
        let again = c.at();
        if looks_like_sets(&c) || repeat(&mut c.clone())?.is_some() {
            return Err(NotationError::NestedRepeat { at: again });
        }
    }
    let expression = src.text(c.pos, c.end);
    if alias::is_dndstats(&c) {
        // Dice Maiden's `dndstats`: `6 4d6 k3`, six ability scores.
        let (sets, dice) = alias::DNDSTATS;
        if times > 1 {
            return Err(NotationError::NestedRepeat { at: c.at() });
        }
        c.pos += "dndstats".len();
        c.skip_ws();
        c.expect_end()?;
        let expansion = Source::new(dice);
        let mut e = Cursor::new(&expansion, 0, expansion.norm.len());
        return Ok((
            RollSpec {
                label,
                expression,
                times: sets,
                command: dice_maiden(&mut e)?,
            },
            secret,
        ));
    }
    let command = command(&mut c, secret)?;
    Ok((
        RollSpec {
            label,
            expression,
            times,
            command,
        },
        secret,
    ))
}

/// A leading `(…)` is a label unless it reads as arithmetic, as in BCDice `(2+1)D6`.
fn label_end(c: &Cursor) -> Result<Option<usize>, NotationError> {
    if c.peek() != Some('(') {
        return Ok(None);
    }
    let mut k = 1;
    let mut arithmetic = true;
    loop {
        match c.peek_at(k) {
            None if arithmetic => return Ok(None),
            None => {
                let at = c.end + 1;
                return Err(NotationError::Unexpected {
                    at,
                    found: String::new(),
                    expected: Expected::LabelClose,
                });
            }
            Some(')') => break,
            Some(ch) => arithmetic &= ch.is_ascii_digit() || ch.is_whitespace() || "+-*/%()dD".contains(ch),
        }
        k += 1;
    }
    Ok((!arithmetic || k == 1).then_some(c.pos + k))
}

/// `6 4d6`: a count, a space, then something that is not an operator.
fn looks_like_sets(c: &Cursor) -> bool {
    let mut k = 0;
    while c.is_digit_at(k) {
        k += 1;
    }
    if k == 0 || !c.peek_at(k).is_some_and(char::is_whitespace) {
        return false;
    }
    while c.peek_at(k).is_some_and(char::is_whitespace) {
        k += 1;
    }
    c.peek_at(k).is_some_and(|ch| !"+-*/<>=)".contains(ch))
}

/// BCDice `S` directly before a command (not the `s` of an alias such as `save` or `sr6`).
fn eat_secret(c: &mut Cursor) -> bool {
    let yes = c.peek_lower() == Some('s')
        && c.peek_at(1).is_some_and(|n| !n.is_whitespace())
        && alias::at(c, false).is_none();
    if yes {
        c.bump();
    }
    yes
}

/// `x5 `, `rep5 `, `repeat5 `.
fn repeat(c: &mut Cursor) -> Result<Option<u32>, NotationError> {
    let Some(word) = ["repeat", "rep", "x"]
        .into_iter()
        .find(|w| c.starts_with_ci(w) && c.is_digit_at(w.len()))
    else {
        return Ok(None);
    };
    c.eat_ci(word);
    let at = c.at();
    let n = c.expect_number()?;
    if !(1..=u64::from(MAX_REPEAT)).contains(&n) {
        return Err(NotationError::RepeatOutOfRange {
            at,
            count: n,
            max: MAX_REPEAT,
        });
    }
    if !c.peek().is_some_and(char::is_whitespace) {
        return Err(c.unexpected(Expected::SpaceAfterRepeat));
    }
    c.skip_ws();
    Ok(Some(n as u32))
}

/// Which family reads the command: the BCDice forms by their shape, else Dice Maiden.
fn command(c: &mut Cursor, force_bcdice: bool) -> Result<Command, NotationError> {
    if c.starts_with_ci("choice") {
        return bc::choice(c);
    }
    // `C(1+2)`, and BCDice's `C1+2` without parentheses.
    if c.peek_lower() == Some('c')
        && c.peek_at(1)
            .is_some_and(|n| n == '(' || n == '-' || n.is_ascii_digit())
    {
        return bc::calc(c);
    }
    if let Some(order) = bc::d66(c) {
        return Ok(Command::D66 { order });
    }
    let k = bc::count_len(c);
    if k > 0 {
        let letter = c.peek_at(k).map(|l| l.to_ascii_lowercase());
        let digit_after = |n| c.is_digit_at(k + n) || c.peek_at(k + n) == Some('(');
        match letter {
            Some('b') if digit_after(1) => return bc::barabara(c),
            Some('r') if digit_after(1) => return bc::reroll(c),
            Some('u') if digit_after(1) => return bc::upper(c),
            Some('t')
                if c.peek_at(k + 1)
                    .is_some_and(|l| matches!(l.to_ascii_lowercase(), 'y' | 'z'))
                    && digit_after(2) =>
            {
                return bc::tally(c);
            }
            _ => {}
        }
    }
    if looks_like_bcdice_sum(c) {
        return bcdice_sum(c);
    }
    if force_bcdice {
        // `S4d6k3`: not a BCDice sum, but a secret Dice Maiden roll is what was meant.
        let mut dm = c.clone();
        return bcdice_sum(c).or_else(|e| dice_maiden(&mut dm).map_err(|_| e));
    }
    dice_maiden(c)
}

/// A comparison, a `(…)D` count, or a `/N U|R` rounding suffix.
fn looks_like_bcdice_sum(c: &Cursor) -> bool {
    let chars: Vec<char> = (0..).map_while(|k| c.peek_at(k)).collect();
    chars.iter().enumerate().any(|(i, &ch)| {
        let next = chars.get(i + 1).copied();
        match ch {
            '<' | '>' => !super::d20::is_selector(&chars, i),
            '=' => true,
            ')' => matches!(next, Some('d' | 'D')),
            '/' => {
                let mut j = i + 1;
                let skip_ws = |j: &mut usize| {
                    while chars.get(*j).is_some_and(|c| c.is_whitespace()) {
                        *j += 1;
                    }
                };
                skip_ws(&mut j);
                // A negative divisor: `1D6/-3U`.
                if chars.get(j) == Some(&'-') {
                    j += 1;
                }
                let digits = j;
                while chars.get(j).is_some_and(char::is_ascii_digit) {
                    j += 1;
                }
                matches!(
                    chars.get(j).map(char::to_ascii_lowercase),
                    Some('u' | 'r' | 'c' | 'f')
                ) && j > digits
                    && chars
                        .get(j + 1)
                        .is_none_or(|c| c.is_whitespace() || "<>=".contains(*c))
            }
            _ => false,
        }
    })
}

fn bcdice_sum(c: &mut Cursor) -> Result<Command, NotationError> {
    let at = c.at();
    let mut p = ExprParser::new(c, Mode::BcSum);
    let expr = p.expr()?;
    let groups = std::mem::take(&mut p.groups);
    let rounding = super::expr::rounding_letter(c).unwrap_or(Rounding::Down);
    let target = bc::target(c)?;
    c.skip_ws();
    c.expect_end()?;
    if groups.is_empty() {
        // `5>=3` has nothing to roll: BCDice would not read it either.
        let found = c.src.orig.get(at - 1).map(char::to_string).unwrap_or_default();
        return Err(NotationError::Unexpected {
            at,
            found,
            expected: Expected::Command,
        });
    }
    Ok(Command::Expr(ExprCommand {
        kind: Kind::Sum,
        expr,
        groups,
        rounding,
        target,
    }))
}

fn dice_maiden(c: &mut Cursor) -> Result<Command, NotationError> {
    let mut p = ExprParser::new(c, Mode::DiceMaiden);
    let expr = p.expr()?;
    let groups = std::mem::take(&mut p.groups);
    c.skip_ws();
    if !c.at_end() {
        return Err(c.unexpected(Expected::Operator));
    }
    Ok(Command::Expr(ExprCommand {
        kind: Kind::Dice,
        expr,
        groups,
        rounding: Rounding::Down,
        target: None,
    }))
}

/// Most dice one run of `command` can roll.
fn cost(command: &Command) -> u64 {
    let chain = u64::from(MAX_CHAIN);
    let sum = |groups: &[super::ast::Group], per_die: u64| {
        groups.iter().fold(0u64, |a, g| {
            a.saturating_add(u64::from(g.count).saturating_mul(per_die))
        })
    };
    match command {
        Command::Expr(e) => e.groups.iter().fold(0u64, |acc, g| {
            let adv = g.advantage.map_or(0, |(n, _)| u64::from(n));
            // A D66 "die" is two d6.
            let per = if g.d66 { 2 } else { 1 };
            let mut cost = Cost::base(u64::from(g.count).saturating_mul(per));
            cost.rolled = cost.rolled.saturating_add(adv);
            for op in &g.stage2 {
                cost = match *op {
                    Stage2::Explode { indefinite, .. } => cost.grow(if indefinite { chain } else { 1 }),
                    Stage2::Implode { .. } => cost.replace(1),
                    Stage2::Reroll { until, .. } => cost.replace(if until { chain } else { 1 }),
                };
            }
            acc.saturating_add(cost.rolled)
        }),
        Command::Barabara { groups, .. } => sum(groups, 1),
        Command::Reroll { groups, .. } | Command::Upper { groups, .. } => sum(groups, 1 + chain),
        Command::D66 { .. } => 2,
        Command::Choice { pick, .. } => u64::from(*pick),
        Command::Tally { group, .. } => u64::from(group.count),
    }
}

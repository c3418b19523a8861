//! The command around the dice: flags, comment, `;` rolls, labels, sets, the BCDice `S` and
//! repeat prefixes, and which family reads each roll.

use super::ast::{Command, ExprCommand, Parsed, RollSpec, Rounding, Stage2};
use super::cursor::{Cursor, Source};
use super::error::{Expected, NotationError};
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

    let body_end = find_top_level(&src, c.pos, end, '!')
        .or_else(|| free_text_start(&src, c.pos, end))
        .unwrap_or(end);
    let comment = (body_end < end)
        .then(|| src.text(body_end + 1, end))
        .filter(|t| !t.is_empty());

    let mut rolls = Vec::new();
    let mut seg_start = c.pos;
    loop {
        let seg_end = find_top_level(&src, seg_start, body_end, ';').unwrap_or(body_end);
        if rolls.len() == MAX_ROLLS {
            let count = 1 + MAX_ROLLS + count_top_level(&src, seg_start, body_end, ';');
            return Err(NotationError::TooManyRolls {
                count,
                max: MAX_ROLLS,
            });
        }
        let (spec, secret) = parse_roll(&src, seg_start, seg_end)?;
        flags.secret |= secret;
        rolls.push(spec);
        if seg_end >= body_end {
            break;
        }
        seg_start = seg_end + 1;
    }

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

/// BCDice players end a command with a message after a space (`2D6>=7 命中判定`). Text after a
/// top-level space is taken as the comment when it starts with a non-ASCII character (after
/// full-width folding, so `２Ｄ６ ＋３` is still notation): such text is never dice notation.
/// Not for `choice`, whose space-separated options may be Japanese, nor several `;` rolls.
fn free_text_start(src: &Source, start: usize, end: usize) -> Option<usize> {
    let body: String = src.norm.get(start..end)?.iter().collect();
    if body.to_ascii_lowercase().contains("choice") || find_top_level(src, start, end, ';').is_some() {
        return None;
    }
    let mut depth = 0usize;
    for i in start..end {
        match src.norm.get(i).copied()? {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ch if ch.is_whitespace() && depth == 0 => {
                let next = src.norm.get(i + 1..end)?.iter().find(|c| !c.is_whitespace());
                if next.is_some_and(|c| !c.is_ascii()) {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
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

/// BCDice `S` directly before a command.
fn eat_secret(c: &mut Cursor) -> bool {
    let yes = c.peek_lower() == Some('s') && c.peek_at(1).is_some_and(|n| !n.is_whitespace());
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
    if c.starts_with_ci("c(") {
        return bc::calc(c);
    }
    if let Some(order) = bc::d66(c) {
        return Ok(Command::D66 { order });
    }
    let mut k = 0;
    while c.is_digit_at(k) {
        k += 1;
    }
    if k > 0 {
        let letter = c.peek_at(k).map(|l| l.to_ascii_lowercase());
        let digit_after = |n| c.is_digit_at(k + n);
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
            '<' | '>' | '=' => true,
            ')' => matches!(next, Some('d' | 'D')),
            '/' => {
                let mut j = i + 1;
                let skip_ws = |j: &mut usize| {
                    while chars.get(*j).is_some_and(|c| c.is_whitespace()) {
                        *j += 1;
                    }
                };
                skip_ws(&mut j);
                let digits = j;
                while chars.get(j).is_some_and(char::is_ascii_digit) {
                    j += 1;
                }
                matches!(chars.get(j), Some('u' | 'U' | 'r' | 'R'))
                    && j > digits
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
    let rounding = if c.eat('u') {
        Rounding::Up
    } else if c.eat('r') {
        Rounding::HalfUp
    } else {
        Rounding::Down
    };
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
            let mut cost = Cost::base(u64::from(g.count));
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

//! BCDice command forms other than sums: barabara, reroll, upper, D66, choice, tally, calc, and
//! the comparison targets they share.

use super::arith;
use super::ast::{Command, D66Order, ExprCommand, Group, Rounding};
use super::cursor::Cursor;
use super::error::{Expected, NotationError};
use super::expr::{ExprParser, Mode, check_sides, constant_in_parens};
use super::limits::{MAX_CHOICE_ITEMS, MAX_DICE_PER_COMMAND, MAX_SIDES, MAX_TALLY_SIDES};
use super::outcome::{CmpOp, Kind, Target};

pub(crate) fn cmp_op(c: &mut Cursor) -> Option<CmpOp> {
    for (s, op) in [
        (">=", CmpOp::Ge),
        ("<=", CmpOp::Le),
        ("<>", CmpOp::Ne),
        (">", CmpOp::Gt),
        ("<", CmpOp::Lt),
        ("=", CmpOp::Eq),
    ] {
        if c.eat_ci(s) {
            return Some(op);
        }
    }
    None
}

/// A constant expression (calc rules, no dice).
fn constant(c: &mut Cursor, expected: Expected) -> Result<i64, NotationError> {
    c.skip_ws();
    if c.at_end() {
        return Err(c.unexpected(expected));
    }
    let expr = ExprParser::new(c, Mode::Calc).expr()?;
    arith::eval(&expr, &[], Rounding::Down)
}

/// An optional `>=T` style comparison.
pub(crate) fn target(c: &mut Cursor) -> Result<Option<Target>, NotationError> {
    c.skip_ws();
    match cmp_op(c) {
        None => Ok(None),
        Some(op) => Ok(Some(Target {
            op,
            value: constant(c, Expected::Comparison)?,
        })),
    }
}

/// How many characters the count at the cursor takes: digits, or BCDice's computed count in
/// balanced parentheses (`(1+2*3)TY4`). 0 when there is none.
pub(crate) fn count_len(c: &Cursor) -> usize {
    if c.peek() != Some('(') {
        let mut k = 0;
        while c.is_digit_at(k) {
            k += 1;
        }
        return k;
    }
    let mut depth = 0usize;
    for k in 0.. {
        match c.peek_at(k) {
            Some('(') => depth += 1,
            Some(')') => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            None => return 0,
            _ => {}
        }
    }
    0
}

/// A number, or a constant computed in parentheses (`(2+4)`).
fn number_or_computed(c: &mut Cursor) -> Result<u64, NotationError> {
    if c.peek() == Some('(') {
        constant_in_parens(c)
    } else {
        c.expect_number()
    }
}

/// `N<letter>X`, e.g. `3B6`; `letters` after the count (case-insensitive). Count and sides may
/// be computed in parentheses, as BCDice allows: `(1*2)B(2+4)`.
fn group(c: &mut Cursor, letters: &str, max_sides: u32) -> Result<Group, NotationError> {
    let start = c.pos;
    let at = c.at();
    let count = number_or_computed(c)?;
    if !c.eat_ci(letters) {
        return Err(c.unexpected(Expected::Group));
    }
    let sides_at = c.at();
    let sides = check_sides(number_or_computed(c)?, sides_at, max_sides)?;
    if count == 0 {
        return Err(NotationError::ZeroDice { at });
    }
    if count > MAX_DICE_PER_COMMAND as u64 {
        return Err(NotationError::TooManyDice {
            worst: count,
            max: MAX_DICE_PER_COMMAND,
        });
    }
    Ok(Group {
        text: c.src.text(start, c.pos),
        count: count as u32,
        sides,
    })
}

/// Groups joined by `+`: `2B6+3B10`.
fn groups(c: &mut Cursor, letter: char) -> Result<Vec<Group>, NotationError> {
    let letters = letter.to_string();
    let mut out = vec![group(c, &letters, MAX_SIDES)?];
    loop {
        let save = c.pos;
        c.skip_ws();
        if c.eat('+') {
            c.skip_ws();
            let mut k = 0;
            while c.is_digit_at(k) {
                k += 1;
            }
            if k > 0 && c.peek_at(k).is_some_and(|l| l.eq_ignore_ascii_case(&letter)) {
                out.push(group(c, &letters, MAX_SIDES)?);
                continue;
            }
        }
        c.pos = save;
        return Ok(out);
    }
}

pub(crate) fn barabara(c: &mut Cursor) -> Result<Command, NotationError> {
    let groups = groups(c, 'b')?;
    let target = target(c)?;
    c.skip_ws();
    c.expect_end()?;
    Ok(Command::Barabara { groups, target })
}

/// `[th]` or `@th`: an optional comparison and a number.
fn threshold(c: &mut Cursor) -> Result<(Option<CmpOp>, i64), NotationError> {
    c.skip_ws();
    let op = cmp_op(c);
    c.skip_ws();
    let v = c.expect_number().map_err(|_| c.unexpected(Expected::Threshold))?;
    Ok((op, v as i64))
}

fn bracket_threshold(c: &mut Cursor) -> Result<Option<(Option<CmpOp>, i64)>, NotationError> {
    if !c.eat('[') {
        return Ok(None);
    }
    let t = threshold(c)?;
    c.skip_ws();
    if !c.eat(']') {
        return Err(c.unexpected(Expected::CloseBracket));
    }
    Ok(Some(t))
}

fn at_threshold(c: &mut Cursor) -> Result<Option<(Option<CmpOp>, i64)>, NotationError> {
    c.skip_ws();
    if c.eat('@') {
        threshold(c).map(Some)
    } else {
        Ok(None)
    }
}

pub(crate) fn reroll(c: &mut Cursor) -> Result<Command, NotationError> {
    let at = c.at();
    let groups = groups(c, 'r')?;
    let bracket = bracket_threshold(c)?;
    let target = target(c)?;
    let th = match (bracket, at_threshold(c)?) {
        (Some(t), None) | (None, Some(t)) => Some(t),
        (None, None) => None,
        (Some(_), Some(_)) => return Err(NotationError::DuplicateModifier { at, modifier: "@" }),
    };
    c.skip_ws();
    c.expect_end()?;
    // A bare number reuses the success comparison; no threshold at all reuses the whole target.
    let threshold = match (th, target) {
        (Some((Some(op), value)), _) => Target { op, value },
        (Some((None, value)), t) => Target {
            op: t.map_or(CmpOp::Ge, |t| t.op),
            value,
        },
        (None, Some(t)) => t,
        (None, None) => return Err(c.unexpected(Expected::Threshold)),
    };
    if groups
        .iter()
        .any(|g| (1..=i64::from(g.sides)).all(|f| threshold.test(f)))
    {
        return Err(NotationError::EndlessChain { at, modifier: "R" });
    }
    Ok(Command::Reroll {
        groups,
        threshold,
        target,
    })
}

pub(crate) fn upper(c: &mut Cursor) -> Result<Command, NotationError> {
    let at = c.at();
    let groups = groups(c, 'u')?;
    let bracket = bracket_threshold(c)?;
    let mut bonus: i64 = 0;
    loop {
        c.skip_ws();
        let sign = match c.peek() {
            Some('+') => 1,
            Some('-') => -1,
            _ => break,
        };
        let op_at = c.at();
        c.bump();
        c.skip_ws();
        let n = c.expect_number()? as i64;
        bonus = bonus
            .checked_add(sign * n)
            .ok_or(NotationError::Overflow { at: op_at })?;
    }
    let target = target(c)?;
    let th = match (bracket, at_threshold(c)?) {
        (Some(t), None) | (None, Some(t)) => Some(t),
        (None, None) => None,
        (Some(_), Some(_)) => return Err(NotationError::DuplicateModifier { at, modifier: "@" }),
    };
    c.skip_ws();
    c.expect_end()?;
    let threshold = match th {
        // BCDice refuses an upper roll without its threshold rather than guess one.
        None => return Err(c.unexpected(Expected::Threshold)),
        // Upper dice chain on "this face or more" whatever comparison is written.
        Some((_, v)) if v <= 1 => return Err(NotationError::EndlessChain { at, modifier: "U" }),
        Some((_, v)) => Some(u32::try_from(v).unwrap_or(u32::MAX)),
    };
    Ok(Command::Upper {
        groups,
        threshold,
        bonus,
        target,
    })
}

pub(crate) fn tally(c: &mut Cursor) -> Result<Command, NotationError> {
    let zeros = c
        .peek_at(count_len(c) + 1)
        .is_some_and(|z| z.eq_ignore_ascii_case(&'z'));
    let group = group(c, if zeros { "tz" } else { "ty" }, MAX_TALLY_SIDES)?;
    c.skip_ws();
    c.expect_end()?;
    Ok(Command::Tally { group, zeros })
}

/// `D66`, `D66N` (as rolled), `D66S`/`D66A` (ascending), `D66D` (descending), alone in the roll.
pub(crate) fn d66(c: &Cursor) -> Option<D66Order> {
    let mut c = c.clone();
    if !c.eat_ci("d66") {
        return None;
    }
    let (order, letter) = match c.peek_lower() {
        Some('s' | 'a') => (D66Order::Ascending, true),
        Some('d') => (D66Order::Descending, true),
        // `D66N`: as rolled, said explicitly.
        Some('n') => (D66Order::AsRolled, true),
        _ => (D66Order::AsRolled, false),
    };
    if letter {
        c.bump();
    }
    c.skip_ws();
    c.at_end().then_some(order)
}

/// `C(1+2*3)` or `C1+2*3`, with BCDice's rounding letter after a division (`C1/2R`).
pub(crate) fn calc(c: &mut Cursor) -> Result<Command, NotationError> {
    c.eat_ci("c");
    let mut p = ExprParser::new(c, Mode::Calc);
    let expr = p.expr()?;
    // After the division or the closing parenthesis (`C1/2R`), or inside it (`C(1/2R)`).
    let inside = p.rounding;
    let rounding = super::expr::rounding_letter(c)
        .or(inside)
        .unwrap_or(Rounding::Down);
    c.skip_ws();
    c.expect_end()?;
    Ok(Command::Expr(ExprCommand {
        kind: Kind::Calc,
        expr,
        groups: Vec::new(),
        rounding,
        target: None,
    }))
}

/// `choice[A,B]`, `choice(A,B)`, `choice A B`, with an optional pick count: `choice2[…]`.
pub(crate) fn choice(c: &mut Cursor) -> Result<Command, NotationError> {
    c.eat_ci("choice");
    let pick_at = c.at();
    let pick = c.number()?.unwrap_or(1);
    let list_at = c.at();
    let mut items: Vec<(usize, String)> = Vec::new();
    let close = match c.peek() {
        Some('[') => Some(']'),
        Some('(') => Some(')'),
        Some(w) if w.is_whitespace() => None,
        _ => return Err(c.unexpected(Expected::ChoiceItems)),
    };
    c.bump();
    let mut start = c.pos;
    loop {
        let here = c.peek();
        let ends_item = match close {
            Some(cl) => here == Some(',') || here == Some(cl) || here.is_none(),
            None => here.is_none_or(char::is_whitespace),
        };
        if ends_item {
            let text = c.src.text(start, c.pos);
            if !text.is_empty() || close.is_some() {
                items.push((start + 1, text));
            }
            match (here, close) {
                (None, Some(_)) => return Err(c.unexpected(Expected::CloseBracket)),
                (None, None) => break,
                (Some(h), Some(cl)) if h == cl => {
                    c.bump();
                    break;
                }
                _ => {}
            }
            c.bump();
            start = c.pos;
        } else {
            c.bump();
        }
    }
    c.skip_ws();
    c.expect_end()?;
    if let Some((at, _)) = items.iter().find(|(_, t)| t.is_empty()) {
        return Err(NotationError::EmptyChoice { at: *at });
    }
    if items.is_empty() {
        return Err(NotationError::Unexpected {
            at: list_at,
            found: String::new(),
            expected: Expected::ChoiceItems,
        });
    }
    // One item is BCDice's shorthand for a run (`A-F`, `c-g`, `3-10`), or no choice at all.
    if let [(at, only)] = items.as_slice() {
        let at = *at;
        let run = choice_run(only.trim()).ok_or(NotationError::Unexpected {
            at,
            found: only.clone(),
            expected: Expected::ChoiceItems,
        })?;
        if run.len() > MAX_CHOICE_ITEMS {
            return Err(NotationError::TooManyChoices {
                at: list_at,
                count: run.len(),
                max: MAX_CHOICE_ITEMS,
            });
        }
        items = run.into_iter().map(|t| (at, t)).collect();
    }
    if items.len() > MAX_CHOICE_ITEMS {
        return Err(NotationError::TooManyChoices {
            at: list_at,
            count: items.len(),
            max: MAX_CHOICE_ITEMS,
        });
    }
    if pick == 0 || pick > items.len() as u64 {
        return Err(NotationError::PickOutOfRange {
            at: pick_at,
            pick,
            items: items.len(),
        });
    }
    Ok(Command::Choice {
        pick: pick as u32,
        items: items.into_iter().map(|(_, t)| t).collect(),
    })
}

/// BCDice's run shorthand for a one-item choice: `3-10` (numbers) or `A-F` / `c-g` (one letter
/// each, the same case), first not after last. `None` for anything else. A run longer than the
/// choice limit comes back one item over it (no huge list is built).
fn choice_run(item: &str) -> Option<Vec<String>> {
    let (first, last) = item.split_once('-')?;
    if let (Ok(a), Ok(b)) = (first.parse::<u64>(), last.parse::<u64>()) {
        if first.chars().all(|c| c.is_ascii_digit()) && last.chars().all(|c| c.is_ascii_digit()) && a <= b {
            let end = b.min(a.saturating_add(MAX_CHOICE_ITEMS as u64));
            return Some((a..=end).map(|n| n.to_string()).collect());
        }
        return None;
    }
    let one = |s: &str| {
        let mut cs = s.chars();
        match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => Some(c),
            _ => None,
        }
    };
    let (a, b) = (one(first)?, one(last)?);
    if a.is_ascii_uppercase() != b.is_ascii_uppercase() || a > b {
        return None;
    }
    Some((a..=b).map(|c| c.to_string()).collect())
}

//! What Avrae's d20 library writes beside Dice Maiden's modifiers: annotations (`1d20 + 5
//! [fire]`, a bracketed word labelling the term before it) and the selectors of its rerolls
//! (`4d6ro<3`, `4d6rr>5`, `10d6ra6`, `10d6ra>4`).

use super::ast::Stage2;
use super::cursor::Cursor;
use super::error::{Hint, NotationError};
use super::outcome::CmpOp;

/// An annotation after a term (`[fire]`, `[attack]`, `[炎]`): consumed, and kept only in the
/// expression as typed, so the breakdown shows it beside its term. Brackets holding no letter
/// (`[6]`, `[>=5]`) are no annotation: they stay where they are, to be read or refused.
pub(crate) fn annotation(c: &mut Cursor) -> bool {
    let save = c.pos;
    c.skip_ws();
    if c.eat('[') {
        let mut letter = false;
        while let Some(ch) = c.peek() {
            if matches!(ch, ']' | '[' | ';') {
                break;
            }
            letter |= ch.is_alphabetic();
            c.bump();
        }
        if letter && c.eat(']') {
            return true;
        }
    }
    c.pos = save;
    false
}

/// The d20 library's selector after `ro` / `rr` / `ra`: `<N` (below N) or `>N` (above N); a
/// bare number keeps Dice Maiden's reading (`ro2`: 2 or less). The cursor is after the keyword.
pub(crate) fn selector(c: &mut Cursor, kw: &str) -> Option<CmpOp> {
    if !matches!(kw, "ro" | "rr" | "ra") {
        return None;
    }
    if c.eat('<') {
        Some(CmpOp::Lt)
    } else if c.eat('>') {
        Some(CmpOp::Gt)
    } else {
        None
    }
}

/// Whether the `<` / `>` at `chars[i]` is a selector (`4d6ro<3`) rather than BCDice's comparison.
pub(crate) fn is_selector(chars: &[char], i: usize) -> bool {
    let before = |k: usize| {
        i.checked_sub(k)
            .and_then(|j| chars.get(j))
            .map(char::to_ascii_lowercase)
    };
    before(2) == Some('r') && matches!(before(1), Some('o' | 'r' | 'a'))
}

/// `ro<3` / `rr>5`: reroll once (or until it stops) the dice below / above `value`.
pub(crate) fn reroll(cmp: CmpOp, value: u32, kw: &str) -> Stage2 {
    Stage2::Reroll {
        cmp,
        value,
        until: kw == "rr",
    }
}

/// `ra6` (reroll and add, on a d6's 6) and `ra>4`: one extra die added on the highest face, or
/// above a number, which is the one explosion `eN` rolls. `ra5` on a d6 adds only on exactly 5
/// and `ra<3` below 3, which no stage here rolls: refused with the explosion to type instead.
/// `at` is the keyword's 1-based position; the cursor is after what was written.
pub(crate) fn reroll_and_add(
    c: &Cursor,
    cmp: Option<CmpOp>,
    value: u32,
    sides: u32,
    at: usize,
) -> Result<Stage2, NotationError> {
    let at_least = match cmp {
        None if value == sides => Some(value),
        Some(CmpOp::Gt) if value < sides => Some(value + 1),
        _ => None,
    };
    match at_least {
        Some(at_least) => Ok(Stage2::Explode {
            at_least,
            indefinite: false,
        }),
        None => {
            let n = match cmp {
                Some(CmpOp::Gt) => value.saturating_add(1).min(sides),
                Some(_) => sides,
                None => value,
            };
            Err(NotationError::DidYouMean {
                at,
                hint: Hint::RerollAndAdd,
                suggestion: c.src.edited(at - 1, c.pos, &format!("e{n}")),
            })
        }
    }
}

//! Dice Maiden's aliases (its `alias_input_pass`): a word read where dice are expected, expanded
//! into our notation exactly as Dice Maiden expands it. Only words that are not notation are
//! aliases, so no roll that parsed before reads differently now.
//!
//! Left out: Hero System (`2hsn`, `5hsk1`, `3hsh`), whose results need their own display, the
//! Earthdawn step tables (`ed1`…`ed50`, `ed4e…`), and the `wng` / `dh` / `gb` game modes.

use super::cursor::Cursor;

/// The alias at the cursor: its length in characters and its expansion. `leading`: the cursor
/// is at the start of a roll, where `+d20` / `-d20` mean advantage / disadvantage.
pub(crate) fn at(c: &Cursor, leading: bool) -> Option<(usize, String)> {
    if leading
        && let Some(sign @ ('+' | '-')) = c.peek()
        && c.peek_at(1).is_some_and(|d| d.eq_ignore_ascii_case(&'d'))
    {
        let adv = sign == '+';
        if c.peek_at(2) == Some('%') && !word_char(c.peek_at(3)) {
            // Roll-under percentile: advantage keeps the lower tens die.
            let keep = if adv { "kl1" } else { "k1" };
            return Some((3, format!("((2d10{keep}-1)*10)+1d10")));
        }
        let (sides, len) = digits(c, 2)?;
        if word_char(c.peek_at(2 + len)) {
            return None;
        }
        let keep = if adv { "d1" } else { "kl1" };
        return Some((2 + len, format!("2d{sides} {keep}")));
    }
    word(c)
}

/// A word alias (no sign), followed by something that is not a letter or digit.
fn word(c: &Cursor) -> Option<(usize, String)> {
    let mut len = 0;
    while word_char(c.peek_at(len)) {
        len += 1;
    }
    if len == 0 {
        return None;
    }
    let w: String = (0..len)
        .filter_map(|k| c.peek_at(k))
        .map(|ch| ch.to_ascii_lowercase())
        .collect();
    let (count, rest) = split_digits(&w);
    if count.is_none() && rest.len() != w.len() {
        return None;
    }
    let expansion = match (count, rest) {
        (Some(n), "cod") => format!("{n}d10 ie10 t8"),
        (Some(n), "cod8") => format!("{n}d10 ie8 t8"),
        (Some(n), "cod9") => format!("{n}d10 ie9 t8"),
        (Some(n), "codr") => format!("{n}d10 r7 t8"),
        (Some(n), "yz") => format!("{n}d6 t6"),
        (Some(n), r) if r.starts_with("wod") => {
            let t = number(&r[3..])?;
            format!("{n}d10 f1 t{t}")
        }
        (Some(n), r) if r.starts_with("wh") && c.peek_at(len) == Some('+') => {
            let t = number(&r[2..])?;
            len += 1;
            format!("{n}d6 t{t}")
        }
        (None, "age") => "2d6+1d6".into(),
        (None, "attack" | "skill" | "save") => "1d20".into(),
        (None, "d6s") => "1d6 ie".into(),
        (None, r) if r.starts_with("d6s") => format!("{}d6+1d6 ie", number(&r[3..])?),
        (None, r) if r.starts_with("dd") && r.len() == 4 => {
            let (a, b) = (number(&r[2..3])?, number(&r[3..4])?);
            format!("(1d{a}*10)+1d{b}")
        }
        (None, r) if r.starts_with("sr") => format!("{}d6 t5", number(&r[2..])?),
        (None, r) if r.starts_with("sp") => format!("{}d10 ie10 t8", number(&r[2..])?),
        (None, r) if r.starts_with("snm") => format!("{}d6 ie6 t4", number(&r[3..])?),
        (None, r) if r.starts_with("ex") => {
            // Exalted: a 10 counts twice (Dice Maiden's second `t10`, our `ds10`).
            let r = &r[2..];
            match r.split_once('t') {
                Some((n, t)) => format!("{}d10 t{} ds10", number(n)?, number(t)?),
                None => format!("{}d10 t7 ds10", number(r)?),
            }
        }
        _ => return None,
    };
    Some((len, expansion))
}

/// `dndstats`, Dice Maiden's `6 4d6 k3`: a whole roll, not a term.
pub(crate) fn is_dndstats(c: &Cursor) -> bool {
    c.starts_with_ci("dndstats") && !word_char(c.peek_at(8))
}

/// Expansion of [`is_dndstats`]: the sets and the command.
pub(crate) const DNDSTATS: (u32, &str) = (6, "4d6 k3");

fn word_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric())
}

fn digits(c: &Cursor, from: usize) -> Option<(u64, usize)> {
    let mut len = 0;
    while c.is_digit_at(from + len) {
        len += 1;
    }
    let s: String = (0..len).filter_map(|k| c.peek_at(from + k)).collect();
    Some((number(&s)?, len))
}

/// Leading decimal digits and the rest.
fn split_digits(w: &str) -> (Option<u64>, &str) {
    let n = w.chars().take_while(char::is_ascii_digit).count();
    if n == 0 {
        (None, w)
    } else {
        (number(&w[..n]), &w[n..])
    }
}

/// A whole string of at most 9 digits (so the expansion stays within the number cap).
fn number(s: &str) -> Option<u64> {
    (!s.is_empty() && s.len() <= 9 && s.chars().all(|c| c.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

//! BCDice's ShadowRun4 commands as `/roll` reads them in a Shadowrun channel: `nB6` and `nR6`
//! rewritten to our notation with BCDice's defaults, and each such line of the outcome read as
//! hits, 1s and a glitch.

use super::dice::{FacesReading, read_faces};
use crate::notation::{CmpOp, Kind, RollLine};

/// A BCDice Shadowrun line (`6B6`, `6B6>=4`, `6R6`, `6R6>=4`, with an optional `S`) in the form
/// our notation reads with BCDice's ShadowRun4 defaults: target 5+, sixes rerolled. `None` for
/// anything else.
pub fn command_form(input: &str) -> Option<String> {
    let t = input.trim();
    let (secret, rest) = match t.strip_prefix(['S', 's']) {
        Some(r) => ("S", r),
        None => ("", t),
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let (n, rest) = rest.split_at(digits);
    let mut chars = rest.chars();
    let kind = chars.next()?.to_ascii_uppercase();
    if chars.next() != Some('6') || !matches!(kind, 'B' | 'R') {
        return None;
    }
    let target = chars.as_str().trim();
    let target = match target.strip_prefix(">=") {
        None if target.is_empty() => "5".to_string(),
        Some(v) if !v.trim().is_empty() && v.trim().chars().all(|c| c.is_ascii_digit()) => {
            v.trim().to_string()
        }
        _ => return None,
    };
    Some(match kind {
        'B' => format!("{secret}{n}B6>={target}"),
        _ => format!("{secret}{n}R6[6]>={target}"),
    })
}

/// The Shadowrun reading of one `/roll` line: `Some` for a d6 barabara or reroll line (the
/// pool as asked is the line's dice count; rerolled sixes count towards the glitch divisor
/// only), hits at the line's `>=` target or 5.
pub fn read_line(line: &RollLine) -> Option<FacesReading> {
    if !matches!(line.kind, Kind::Barabara | Kind::Reroll) || line.groups.iter().any(|g| g.sides != 6) {
        return None;
    }
    let faces: Vec<u32> = line
        .groups
        .iter()
        .flat_map(|g| g.dice.iter().map(|d| d.face))
        .collect();
    let original = if line.kind == Kind::Reroll {
        line.groups.iter().map(|g| g.count as usize).sum()
    } else {
        faces.len()
    };
    let hit_on = line
        .target
        .filter(|t| t.op == CmpOp::Ge)
        .and_then(|t| u32::try_from(t.value).ok())
        .unwrap_or(5);
    read_faces(&faces, original, hit_on).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bcdice_shadowrun_commands_take_its_defaults() {
        assert_eq!(command_form("6B6").as_deref(), Some("6B6>=5"));
        assert_eq!(command_form(" s12b6>=4 ").as_deref(), Some("S12B6>=4"));
        assert_eq!(command_form("6R6").as_deref(), Some("6R6[6]>=5"));
        for other in ["2D6", "B6", "6B8", "6B6>4", "6B6>=x", "6B6>="] {
            assert_eq!(command_form(other), None, "{other}");
        }
    }
}

//! Arithmetic expressions: `+ - * /` with precedence and parentheses over numbers and dice
//! groups. One parser serves Dice Maiden (groups with modifiers), BCDice sums (`(2+1)D6`) and
//! calc / comparison targets (no dice).

use super::alias;
use super::arith;
use super::ast::{DiceSpec, Expr, Keep, Op, Rounding, Stage2, SuccessRule};
use super::cursor::{Cursor, Source};
use super::d20;
use super::error::{Expected, Hint, NotationError};
use super::limits::{MAX_DEPTH, MAX_DICE_PER_COMMAND, MAX_SIDES, MAX_TERMS};
use super::outcome::CmpOp;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    DiceMaiden,
    BcSum,
    Calc,
}

pub(crate) struct ExprParser<'c, 'a> {
    c: &'c mut Cursor<'a>,
    mode: Mode,
    pub groups: Vec<DiceSpec>,
    depth: usize,
    terms: usize,
    /// Nothing read yet: a sign here may be Dice Maiden's `+d20` / `-d20`.
    leading: bool,
    /// The calculator's rounding letter written inside a parenthesis (`C(1/2R)`), if any.
    pub rounding: Option<Rounding>,
}

impl<'c, 'a> ExprParser<'c, 'a> {
    pub fn new(c: &'c mut Cursor<'a>, mode: Mode) -> Self {
        ExprParser {
            c,
            mode,
            groups: Vec::new(),
            depth: 0,
            terms: 0,
            leading: true,
            rounding: None,
        }
    }

    pub fn expr(&mut self) -> Result<Expr, NotationError> {
        let mut lhs = self.term()?;
        loop {
            self.c.skip_ws();
            let op = match self.c.peek() {
                Some('+') => Op::Add,
                Some('-') => Op::Sub,
                _ => return Ok(lhs),
            };
            let at = self.c.at();
            self.c.bump();
            let rhs = self.term()?;
            lhs = Expr::Bin {
                op,
                at,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            };
        }
    }

    fn term(&mut self) -> Result<Expr, NotationError> {
        let mut lhs = self.annotated()?;
        loop {
            self.c.skip_ws();
            let op = match self.c.peek() {
                Some('*') => Op::Mul,
                Some('/') => Op::Div,
                _ => return Ok(lhs),
            };
            let at = self.c.at();
            self.c.bump();
            let rhs = self.annotated()?;
            lhs = Expr::Bin {
                op,
                at,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            };
        }
    }

    /// A term and, in Dice Maiden's reading, Avrae's annotation after it (`5 [fire]`).
    fn annotated(&mut self) -> Result<Expr, NotationError> {
        let e = self.unary()?;
        if self.mode == Mode::DiceMaiden {
            d20::annotation(self.c);
        }
        Ok(e)
    }

    fn enter(&mut self) -> Result<(), NotationError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(NotationError::TooDeep {
                at: self.c.at(),
                max: MAX_DEPTH,
            });
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Expr, NotationError> {
        self.c.skip_ws();
        if std::mem::take(&mut self.leading)
            && self.mode != Mode::Calc
            && let Some((len, expansion)) = alias::at(self.c, true)
        {
            return self.alias(len, &expansion);
        }
        match self.c.peek() {
            Some(sign @ ('-' | '+')) => {
                let at = self.c.at();
                self.enter()?;
                self.c.bump();
                let inner = self.unary()?;
                self.depth -= 1;
                Ok(if sign == '-' {
                    Expr::Neg {
                        at,
                        inner: Box::new(inner),
                    }
                } else {
                    inner
                })
            }
            _ => self.primary(),
        }
    }

    fn count_term(&mut self) -> Result<(), NotationError> {
        self.terms += 1;
        if self.terms > MAX_TERMS {
            return Err(NotationError::TooManyTerms {
                at: self.c.at(),
                max: MAX_TERMS,
            });
        }
        Ok(())
    }

    fn primary(&mut self) -> Result<Expr, NotationError> {
        self.c.skip_ws();
        let start = self.c.pos;
        let at = self.c.at();
        let is_d = |c: Option<char>| matches!(c, Some('d' | 'D'));
        if self.mode != Mode::Calc
            && let Some((len, expansion)) = alias::at(self.c, false)
        {
            return self.alias(len, &expansion);
        }
        match self.c.peek() {
            Some('(') => {
                self.enter()?;
                self.c.bump();
                let inner = self.expr()?;
                self.c.skip_ws();
                // BCDice's calculator takes its rounding letter before the closing parenthesis
                // too (`C(1/2R)`).
                if self.mode == Mode::Calc
                    && let Some(r) = rounding_letter(self.c)
                {
                    self.rounding = Some(r);
                    self.c.skip_ws();
                }
                if !self.c.eat(')') {
                    return Err(self.c.unexpected(Expected::CloseParen));
                }
                self.depth -= 1;
                if self.mode == Mode::BcSum && is_d(self.c.peek()) {
                    // `(2+1)D6`: a constant count.
                    if inner.has_dice() {
                        return Err(NotationError::DiceCountNotConstant { at });
                    }
                    let n = arith::eval(&inner, &[], Rounding::Down)?;
                    let count = u64::try_from(n).map_err(|_| NotationError::ZeroDice { at })?;
                    return self.dice(count, start, at);
                }
                Ok(inner)
            }
            Some(c) if c.is_ascii_digit() => {
                self.count_term()?;
                let n = self.c.expect_number()?;
                if self.mode != Mode::Calc && is_d(self.c.peek()) {
                    self.terms -= 1;
                    return self.dice(n, start, at);
                }
                Ok(Expr::Num(
                    i64::try_from(n).map_err(|_| NotationError::Overflow { at })?,
                ))
            }
            Some('d' | 'D') if self.mode != Mode::Calc => self.dice(1, start, at),
            _ => Err(self.c.unexpected(Expected::Operand)),
        }
    }

    /// A Dice Maiden alias of `len` characters at the cursor, read as its `expansion`; the
    /// expansion's groups keep their own text, so the roll shows what the alias stands for.
    fn alias(&mut self, len: usize, expansion: &str) -> Result<Expr, NotationError> {
        let at = self.c.at();
        self.count_term()?;
        let src = Source::new(expansion);
        let mut c = Cursor::new(&src, 0, src.norm.len());
        let mut p = ExprParser::new(&mut c, Mode::DiceMaiden);
        p.leading = false;
        let expr = p.expr().map_err(|e| e.relocated(at))?;
        let groups = std::mem::take(&mut p.groups);
        if !c.at_end() {
            return Err(c.unexpected(Expected::Operator).relocated(at));
        }
        let offset = self.groups.len();
        self.groups.extend(groups);
        self.c.pos += len;
        Ok(expr.shifted(offset))
    }

    /// A dice group; the cursor is on the `d`.
    fn dice(&mut self, count: u64, start: usize, at: usize) -> Result<Expr, NotationError> {
        self.count_term()?;
        self.c.bump();
        if count == 0 {
            return Err(NotationError::ZeroDice { at });
        }
        if count > MAX_DICE_PER_COMMAND as u64 {
            return Err(NotationError::TooManyDice {
                worst: count,
                max: MAX_DICE_PER_COMMAND,
            });
        }
        let sides_at = self.c.at();
        let fudge =
            self.c.peek_lower() == Some('f') && !self.c.peek_at(1).is_some_and(|c| c.is_ascii_alphanumeric());
        let sides = if fudge {
            self.c.bump();
            3
        } else if self.c.eat('%') {
            100
        } else if self.c.peek() == Some('(') {
            // BCDice's computed sides: `2D(5+5)`.
            constant_in_parens(self.c)?
        } else {
            // Sides left out (`5D`, `3DMAX`): BCDice's default die, a d6.
            self.c.number()?.unwrap_or(DEFAULT_SIDES)
        };
        // `2D66`: two D66 rolls, as BCDice and the Japanese games that use it read it.
        let d66 = sides == 66 && !fudge;
        let sides = check_sides(sides, sides_at, MAX_SIDES)?;
        // Both bounded above by 1000.
        let mut spec = DiceSpec {
            count: count as u32,
            sides,
            fudge,
            d66,
            ..DiceSpec::default()
        };
        if spec.d66 {
            // A D66 roll takes no modifier: one written after it is refused where it stands,
            // never ignored.
        } else if self.mode == Mode::DiceMaiden {
            modifiers(self.c, &mut spec)?;
        } else {
            if self.c.peek() == Some('!') {
                // `2d6!>=10`: Roll20's explosion before a BCDice target.
                let mut seen = Vec::new();
                bang(self.c, &mut spec, &mut seen)?;
            }
            // `3D6MAX>=4`, `5D10KH3>=15`: BCDice's keep spellings before a target.
            bcdice_keep(self.c, &mut spec)?;
        }
        spec.text = self.c.src.text(start, self.c.pos);
        self.groups.push(spec);
        Ok(Expr::Dice(self.groups.len() - 1))
    }
}

/// BCDice's rounding letter after a division: `U` or `C` up (ceiling), `R` half up, `F` down
/// (floor, also the default when there is no letter).
pub(crate) fn rounding_letter(c: &mut Cursor) -> Option<Rounding> {
    if c.eat_ci("u") || c.eat_ci("c") {
        Some(Rounding::Up)
    } else if c.eat_ci("r") {
        Some(Rounding::HalfUp)
    } else if c.eat_ci("f") {
        Some(Rounding::Down)
    } else {
        None
    }
}

/// The die BCDice rolls when the sides are left out (`5D`).
const DEFAULT_SIDES: u64 = 6;

/// A constant in parentheses at the cursor (`(5+5)`, `(1+5/2C)`), as BCDice computes a count
/// or sides: a calculator primary (see `ExprParser::rounding`).
pub(crate) fn constant_in_parens(c: &mut Cursor) -> Result<u64, NotationError> {
    let at = c.at();
    let mut p = ExprParser::new(c, Mode::Calc);
    let inner = p.primary()?;
    let n = arith::eval(&inner, &[], p.rounding.unwrap_or(Rounding::Down))?;
    u64::try_from(n).map_err(|_| NotationError::ZeroDice { at })
}

/// A keep/drop keyword and the keep it makes of a count.
type KeepSpelling = (&'static str, fn(u32) -> Keep);

/// BCDice's (and Roll20's) keep and drop, attached to the dice: `KH`/`KL`/`DH`/`DL` with a count
/// (1 when left out; 0 keeps none; more than the dice keeps them all), the count computed in
/// parentheses too (`KH(5-2)`), and `MAX`/`MIN` for `KH1`/`KL1`. Returns the keyword read, if
/// any.
fn bcdice_keep(c: &mut Cursor, spec: &mut DiceSpec) -> Result<Option<&'static str>, NotationError> {
    let ends_word = |c: &Cursor, n: usize| !c.peek_at(n).is_some_and(|x| x.is_ascii_alphabetic());
    for (word, keep) in [("max", Keep::Highest(1)), ("min", Keep::Lowest(1))] {
        if c.starts_with_ci(word) && ends_word(c, 3) {
            c.eat_ci(word);
            spec.keep = Some(keep);
            return Ok(Some(word));
        }
    }
    let kinds: [KeepSpelling; 4] = [
        ("kh", Keep::Highest),
        ("kl", Keep::Lowest),
        ("dh", Keep::DropHighest),
        ("dl", Keep::DropLowest),
    ];
    for (word, keep) in kinds {
        if !c.starts_with_ci(word) || !ends_word(c, 2) && !c.is_digit_at(2) && c.peek_at(2) != Some('(') {
            continue;
        }
        c.eat_ci(word);
        let n = if c.peek() == Some('(') {
            constant_in_parens(c)?
        } else {
            c.number()?.unwrap_or(1)
        };
        spec.keep = Some(keep(
            u32::try_from(n.min(u64::from(spec.count))).unwrap_or(spec.count),
        ));
        return Ok(Some(word));
    }
    Ok(None)
}

pub(crate) fn check_sides(sides: u64, at: usize, max: u32) -> Result<u32, NotationError> {
    match u32::try_from(sides) {
        Ok(s) if (1..=max).contains(&s) => Ok(s),
        _ => Err(NotationError::SidesOutOfRange { at, sides, max }),
    }
}

/// Keywords, longest first so `irg` wins over `ir` and `i`. Beside Dice Maiden's own: `kh`
/// (keep highest), `dh` / `dl` (drop highest / lowest) of Roll20 and the d20 library (Avrae),
/// whose drop is also written `ph` / `pl`, its rerolls `ro` (once) / `rr` (until above) / `ra`
/// (reroll and add), and its minimum `mi`.
pub(crate) const KEYWORDS: [&str; 27] = [
    "adv", "dis", "irg", "ir", "ie", "rg", "ro", "rr", "ra", "mi", "kh", "kl", "km", "dh", "dl", "ds", "ph",
    "pl", "tl", "r", "e", "i", "k", "d", "t", "f", "b",
];

/// Whether a lower-case word is a run of modifier keywords, each but the last with its number
/// (`k3`, `e6k3`, `kh3e`, `ie`); English words spelt with keyword letters (`fire`, `bed`) are not.
pub(crate) fn modifier_run(word: &str) -> bool {
    let mut rest = word;
    while !rest.is_empty() {
        let Some(kw) = KEYWORDS.iter().find(|k| rest.starts_with(**k)) else {
            return false;
        };
        let after = &rest[kw.len()..];
        rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
        if rest.len() == after.len() && !rest.is_empty() {
            return false;
        }
    }
    true
}

/// The Dice Maiden keyword another spelling stands for.
fn canonical(kw: &'static str) -> &'static str {
    match kw {
        "kh" => "k",
        "dl" | "pl" => "d",
        "ph" => "dh",
        "ro" => "r",
        "rr" => "ir",
        "!" => "ie",
        other => other,
    }
}

/// The next modifier keyword, after any whitespace: Dice Maiden users write `4d6 k3`, `10d6 e6 k8`.
/// Anything else leaves the cursor where it was, so `4d6 + 1` and `4d6 x` read as before. After a
/// group a spaced `dN` is therefore the drop modifier, never a new die: a new die needs an operator.
fn next_keyword(c: &mut Cursor) -> Option<&'static str> {
    let save = c.pos;
    c.skip_ws();
    let kw = KEYWORDS.iter().copied().find(|k| c.starts_with_ci(k));
    if kw.is_none() {
        c.pos = save;
    }
    kw
}

/// A modifier already read: as typed, and what it stands for.
type Seen = Vec<(&'static str, &'static str)>;

/// Refuse `kw` if it repeats or contradicts one already given; else note it.
fn check_seen(seen: &mut Seen, at: usize, kw: &'static str) -> Result<(), NotationError> {
    let canon = canonical(kw);
    if seen.iter().any(|&(_, c)| c == canon) {
        return Err(NotationError::DuplicateModifier { at, modifier: kw });
    }
    let conflicts: &[&str] = match canon {
        "adv" => &["dis"],
        "dis" => &["adv"],
        "e" => &["ie"],
        "ie" => &["e"],
        "k" | "kl" | "km" | "d" | "dh" => &["k", "kl", "km", "d", "dh"],
        "t" => &["tl"],
        "tl" => &["t"],
        _ => &[],
    };
    if let Some(&(other, _)) = seen.iter().find(|(_, c)| conflicts.contains(c)) {
        return Err(NotationError::ConflictingModifiers {
            at,
            modifier: kw,
            other,
        });
    }
    seen.push((kw, canon));
    Ok(())
}

fn fudge_modifier(c: &Cursor, at: usize) -> NotationError {
    let mut end = c.pos;
    while c
        .src
        .norm
        .get(end)
        .is_some_and(|ch| ch.is_ascii_alphanumeric() || *ch == '!')
        && end < c.end
    {
        end += 1;
    }
    NotationError::DidYouMean {
        at,
        hint: Hint::FudgeModifier,
        suggestion: c.src.edited(at - 1, end, ""),
    }
}

/// Roll20's `!` right after the dice (the cursor is on it): explode on the highest face, again
/// and again, as `ie`. Its `!!` (compound), `!p` (penetrate) and `!>N` are refused with what to
/// type instead.
pub(crate) fn bang(c: &mut Cursor, spec: &mut DiceSpec, seen: &mut Seen) -> Result<(), NotationError> {
    let at = c.at();
    let bang = c.pos;
    c.bump();
    if spec.fudge {
        return Err(fudge_modifier(c, at));
    }
    match c.peek_lower() {
        Some('!' | 'p') => {
            return Err(NotationError::DidYouMean {
                at: at + 1,
                hint: Hint::ExplodeVariant,
                suggestion: c.src.edited(bang + 1, bang + 2, ""),
            });
        }
        Some('>') => {
            c.bump();
            c.eat('=');
            if let Some(n) = c.number()? {
                return Err(NotationError::DidYouMean {
                    at,
                    hint: Hint::ExplodeCompare,
                    suggestion: c.src.edited(bang, c.pos, &format!(" ie{n}")),
                });
            }
            return Err(c.unexpected(Expected::Number));
        }
        Some(ch) if ch.is_ascii_alphabetic() && !modifier_run(&word_after(c)) => {
            return Err(NotationError::DidYouMean {
                at: at + 1,
                hint: Hint::TextAfterExplode,
                suggestion: c.src.edited(bang, bang, " "),
            });
        }
        _ => {}
    }
    check_seen(seen, at, "!")?;
    if spec.sides <= 1 {
        return Err(NotationError::EndlessChain { at, modifier: "!" });
    }
    spec.stage2.push(Stage2::Explode {
        at_least: spec.sides,
        indefinite: true,
    });
    Ok(())
}

/// The lower-case letters and digits at the cursor.
fn word_after(c: &Cursor) -> String {
    (0..)
        .map_while(|k| c.peek_at(k))
        .take_while(char::is_ascii_alphanumeric)
        .map(|ch| ch.to_ascii_lowercase())
        .collect()
}

/// Dice Maiden modifiers after `XdY`, validated against the group.
fn modifiers(c: &mut Cursor, spec: &mut DiceSpec) -> Result<(), NotationError> {
    let sides = spec.sides;
    let mut seen: Seen = Vec::new();
    let mut success = SuccessRule::default();
    let mut any_success = false;
    // BCDice's attached spellings first (`5D10KH`, `3D6MAX`): their count may be left out.
    if !spec.fudge
        && let Some(kw) = bcdice_keep(c, spec)?
    {
        let canon = match kw {
            "max" => "k",
            "min" => "kl",
            other => canonical(other),
        };
        seen.push((kw, canon));
    }
    loop {
        if c.peek() == Some('!') {
            bang(c, spec, &mut seen)?;
            continue;
        }
        let Some(kw) = next_keyword(c) else { break };
        let at = c.at();
        if spec.fudge {
            return Err(fudge_modifier(c, at));
        }
        c.eat_ci(kw);
        let kw_end = c.pos;
        let selector = d20::selector(c, kw);
        let n = c.number()?;
        check_seen(&mut seen, at, kw)?;
        let canon = canonical(kw);
        let face = |default: Option<u32>| -> Result<u32, NotationError> {
            let v = match (n, default) {
                (Some(v), _) => v,
                (None, Some(d)) => u64::from(d),
                (None, None) => return Err(c.unexpected(Expected::Number)),
            };
            match u32::try_from(v) {
                Ok(f) if (1..=sides).contains(&f) => Ok(f),
                _ => Err(NotationError::ThresholdOutOfRange {
                    at,
                    modifier: kw,
                    value: v,
                    sides,
                }),
            }
        };
        let endless = || NotationError::EndlessChain { at, modifier: kw };
        if let Some(cmp) = selector.filter(|_| kw != "ra") {
            // `ro<3`, `rr>5`: every face below 1 or above the sides is refused by `face`, so
            // neither rerolls every face.
            spec.stage2.push(d20::reroll(cmp, face(None)?, kw));
            continue;
        }
        match canon {
            "ra" => {
                let value = face(None)?;
                spec.stage2
                    .push(d20::reroll_and_add(c, selector, value, sides, at)?);
            }
            // Applied after rerolls and explosions, before keep (see `roll_group`).
            "mi" => spec.minimum = Some(face(None)?),
            "adv" | "dis" => {
                let extra = n.unwrap_or(1);
                let total = u64::from(spec.count).saturating_add(extra);
                if extra == 0 {
                    return Err(NotationError::ZeroDice { at });
                }
                if total > MAX_DICE_PER_COMMAND as u64 {
                    return Err(NotationError::TooManyDice {
                        worst: total,
                        max: MAX_DICE_PER_COMMAND,
                    });
                }
                spec.advantage = Some((extra as u32, kw == "dis"));
            }
            "e" | "ie" => {
                let at_least = face(Some(sides))?;
                let indefinite = canon == "ie";
                if indefinite && at_least <= 1 {
                    return Err(endless());
                }
                spec.stage2.push(Stage2::Explode { at_least, indefinite });
            }
            "i" => spec.stage2.push(Stage2::Implode {
                at_most: face(Some(1))?,
            }),
            "r" | "ir" => {
                let value = face(Some(1))?;
                let until = canon == "ir";
                if until && value >= sides {
                    return Err(endless());
                }
                spec.stage2.push(Stage2::Reroll {
                    cmp: CmpOp::Le,
                    value,
                    until,
                });
            }
            "rg" | "irg" => {
                let value = face(Some(sides))?;
                let until = canon == "irg";
                if until && value <= 1 {
                    return Err(endless());
                }
                spec.stage2.push(Stage2::Reroll {
                    cmp: CmpOp::Ge,
                    value,
                    until,
                });
            }
            "k" | "kl" | "km" | "d" | "dh" => {
                let Some(v) = n else {
                    return Err(count_missing(c, kw_end));
                };
                let max = if matches!(canon, "d" | "dh") {
                    spec.count.saturating_sub(1)
                } else {
                    spec.count
                };
                let k = u32::try_from(v).ok().filter(|k| (1..=max).contains(k)).ok_or(
                    NotationError::KeepOutOfRange {
                        at,
                        modifier: kw,
                        n: v,
                        dice: spec.count,
                        max,
                    },
                )?;
                spec.keep = Some(match canon {
                    "k" => Keep::Highest(k),
                    "kl" => Keep::Lowest(k),
                    "km" => Keep::Middle(k),
                    "dh" => Keep::DropHighest(k),
                    _ => Keep::DropLowest(k),
                });
            }
            "t" => success.target = Some((CmpOp::Ge, face(None)?)),
            "tl" => success.target = Some((CmpOp::Le, face(None)?)),
            "f" => success.fail_at_most = Some(face(None)?),
            "b" => success.botch_at_most = Some(face(Some(1))?),
            _ => success.double_at_least = Some(face(None)?),
        }
        any_success |= matches!(canon, "t" | "tl" | "f" | "b" | "ds");
    }
    if any_success {
        spec.success = Some(success);
    }
    Ok(())
}

/// `4d6 kh` or `4d6 k 3`: suggest the count written right after the keyword (1 when none).
fn count_missing(c: &Cursor, kw_end: usize) -> NotationError {
    let mut probe = c.clone();
    probe.skip_ws();
    let spaced = probe.pos > kw_end && probe.is_digit_at(0);
    let suggestion = if spaced {
        c.src.edited(kw_end, probe.pos, "")
    } else {
        c.src.edited(kw_end, kw_end, "1")
    };
    NotationError::DidYouMean {
        at: kw_end + 1,
        hint: Hint::CountMissing,
        suggestion,
    }
}

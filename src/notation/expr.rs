//! Arithmetic expressions: `+ - * /` with precedence and parentheses over numbers and dice
//! groups. One parser serves Dice Maiden (groups with modifiers), BCDice sums (`(2+1)D6`) and
//! calc / comparison targets (no dice).

use super::arith;
use super::ast::{DiceSpec, Expr, Keep, Op, Rounding, Stage2, SuccessRule};
use super::cursor::Cursor;
use super::error::{Expected, NotationError};
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
}

impl<'c, 'a> ExprParser<'c, 'a> {
    pub fn new(c: &'c mut Cursor<'a>, mode: Mode) -> Self {
        ExprParser {
            c,
            mode,
            groups: Vec::new(),
            depth: 0,
            terms: 0,
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
        let mut lhs = self.unary()?;
        loop {
            self.c.skip_ws();
            let op = match self.c.peek() {
                Some('*') => Op::Mul,
                Some('/') => Op::Div,
                _ => return Ok(lhs),
            };
            let at = self.c.at();
            self.c.bump();
            let rhs = self.unary()?;
            lhs = Expr::Bin {
                op,
                at,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            };
        }
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
        match self.c.peek() {
            Some('(') => {
                self.enter()?;
                self.c.bump();
                let inner = self.expr()?;
                self.c.skip_ws();
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
        let sides = if self.c.eat('%') {
            100
        } else {
            self.c
                .number()?
                .ok_or_else(|| self.c.unexpected(Expected::Sides))?
        };
        let sides = check_sides(sides, sides_at, MAX_SIDES)?;
        // Both bounded above by 1000.
        let mut spec = DiceSpec {
            count: count as u32,
            sides,
            ..DiceSpec::default()
        };
        if self.mode == Mode::DiceMaiden {
            modifiers(self.c, &mut spec)?;
        }
        spec.text = self.c.src.text(start, self.c.pos);
        self.groups.push(spec);
        Ok(Expr::Dice(self.groups.len() - 1))
    }
}

pub(crate) fn check_sides(sides: u64, at: usize, max: u32) -> Result<u32, NotationError> {
    match u32::try_from(sides) {
        Ok(s) if (1..=max).contains(&s) => Ok(s),
        _ => Err(NotationError::SidesOutOfRange { at, sides, max }),
    }
}

/// Keywords, longest first so `irg` wins over `ir` and `i`.
const KEYWORDS: [&str; 18] = [
    "adv", "dis", "irg", "ir", "ie", "rg", "kl", "km", "ds", "tl", "r", "e", "i", "k", "d", "t", "f", "b",
];

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

/// Dice Maiden modifiers after `XdY`, validated against the group.
fn modifiers(c: &mut Cursor, spec: &mut DiceSpec) -> Result<(), NotationError> {
    let sides = spec.sides;
    let mut seen: Vec<&'static str> = Vec::new();
    let mut success = SuccessRule::default();
    let mut any_success = false;
    while let Some(kw) = next_keyword(c) {
        let at = c.at();
        c.eat_ci(kw);
        let n = c.number()?;
        if seen.contains(&kw) {
            return Err(NotationError::DuplicateModifier { at, modifier: kw });
        }
        let conflicts: &[&str] = match kw {
            "adv" => &["dis"],
            "dis" => &["adv"],
            "e" => &["ie"],
            "ie" => &["e"],
            "k" | "kl" | "km" | "d" => &["k", "kl", "km", "d"],
            "t" => &["tl"],
            "tl" => &["t"],
            _ => &[],
        };
        if let Some(other) = conflicts.iter().find(|o| seen.contains(o)) {
            return Err(NotationError::ConflictingModifiers {
                at,
                modifier: kw,
                other,
            });
        }
        seen.push(kw);
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
        match kw {
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
                let indefinite = kw == "ie";
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
                let until = kw == "ir";
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
                let until = kw == "irg";
                if until && value <= 1 {
                    return Err(endless());
                }
                spec.stage2.push(Stage2::Reroll {
                    cmp: CmpOp::Ge,
                    value,
                    until,
                });
            }
            "k" | "kl" | "km" | "d" => {
                let v = n.ok_or_else(|| c.unexpected(Expected::Number))?;
                let max = if kw == "d" {
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
                spec.keep = Some(match kw {
                    "k" => Keep::Highest(k),
                    "kl" => Keep::Lowest(k),
                    "km" => Keep::Middle(k),
                    _ => Keep::DropLowest(k),
                });
            }
            "t" => success.target = Some((CmpOp::Ge, face(None)?)),
            "tl" => success.target = Some((CmpOp::Le, face(None)?)),
            "f" => success.fail_at_most = Some(face(None)?),
            "b" => success.botch_at_most = Some(face(Some(1))?),
            _ => success.double_at_least = Some(face(None)?),
        }
        any_success |= matches!(kw, "t" | "tl" | "f" | "b" | "ds");
    }
    if any_success {
        spec.success = Some(success);
    }
    Ok(())
}

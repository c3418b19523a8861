//! Odds of a `/roll` command: the same parser, then each dice group's exact distribution and the
//! arithmetic between groups, following the roller in `crate::notation` step by step.

use super::bcdice;
use super::dist::{Dist, sum_of_powers};
use super::error::OddsError;
use super::explode_keep::ExplodeKeep;
use super::faces::{Faces, Stage};
use super::keep::{KEEP_BUDGET, keep, keep_cost};
use super::pool_keep::PoolKeep;
use crate::notation::ast::{
    Command, D66Order, DiceSpec, Expr, ExprCommand, Group, Keep, Op, Rounding, Stage2,
};
use crate::notation::{Target, parse};

/// What the numbers of a [`RollOdds`] count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The roll's total (the result line of `/roll`).
    Total,
    /// Net successes (success-counting modifiers, or a BCDice `xBy>=t`).
    Successes,
}

/// The exact odds of one roll.
#[derive(Debug, Clone, PartialEq)]
pub struct RollOdds {
    /// The command as typed (trimmed).
    pub input: String,
    pub measure: Measure,
    /// Value → probability.
    pub dist: Dist,
    /// The comparison the roll is tested against, if it has one (`2D6>=7`).
    pub target: Option<Target>,
    /// `choice`: each distinct item and its chance to be picked (`dist` is then the first
    /// pick's 1-based position in the list).
    pub choices: Option<Vec<(String, f64)>>,
    /// Tally: each face and how many dice show it (`dist` is then that count for any one face,
    /// the same for all).
    pub tally: Option<Vec<(u32, Dist)>>,
}

impl RollOdds {
    pub fn mean(&self) -> f64 {
        self.dist.mean()
    }
    pub fn median(&self) -> i64 {
        self.dist.median()
    }
    /// The chance the comparison holds, when there is one.
    pub fn chance(&self) -> Option<f64> {
        self.target.map(|t| self.dist.chance(|v| t.test(v)))
    }
    /// The chance some chain of extra dice stops at the roller's cap (its outcomes are in the
    /// distribution as the roller leaves them).
    pub fn capped(&self) -> f64 {
        self.dist.capped()
    }
}

/// The exact odds of `input`, any `/roll` command within the roller's limits that makes one
/// numeric result. Refused before any work when it is not.
pub fn roll_odds(input: &str) -> Result<RollOdds, OddsError> {
    let parsed = parse(input)?;
    let rolls: u32 = parsed.rolls.iter().map(|r| r.times).sum();
    let [spec] = parsed.rolls.as_slice() else {
        return Err(OddsError::SeveralRolls {
            count: rolls as usize,
        });
    };
    if spec.times != 1 {
        return Err(OddsError::SeveralRolls {
            count: rolls as usize,
        });
    }
    let (mut choices, mut tally) = (None, None);
    let (measure, dist, target) = match &spec.command {
        Command::Expr(e) => expr_odds(e)?,
        Command::Barabara { groups, target } => barabara(groups, *target)?,
        Command::D66 { order } => (Measure::Total, d66(*order)?, None),
        Command::Reroll {
            groups,
            threshold,
            target,
        } => (
            Measure::Successes,
            bcdice::reroll(groups, *threshold, *target)?,
            None,
        ),
        // With a target the roller reports how many values meet it; without, the largest.
        Command::Upper {
            groups,
            threshold,
            bonus,
            target,
        } => {
            let measure = if target.is_some() {
                Measure::Successes
            } else {
                Measure::Total
            };
            (measure, bcdice::upper(groups, *threshold, *bonus, *target)?, None)
        }
        Command::Choice { pick, items } => {
            let (dist, chances) = bcdice::choice(*pick, items);
            choices = Some(chances);
            (Measure::Total, dist, None)
        }
        Command::Tally { group, .. } => {
            let (dist, faces) = bcdice::tally(group)?;
            tally = Some(faces);
            (Measure::Total, dist, None)
        }
    };
    Ok(RollOdds {
        input: parsed.input.clone(),
        measure,
        dist,
        target,
        choices,
        tally,
    })
}

fn expr_odds(e: &ExprCommand) -> Result<(Measure, Dist, Option<Target>), OddsError> {
    let successes = e.groups.iter().any(|g| g.success.is_some());
    // Check every group's cost before computing any.
    let plans: Vec<Plan> = e
        .groups
        .iter()
        .map(|g| plan(g, successes))
        .collect::<Result<_, _>>()?;
    if successes {
        // `/roll` reports the net successes of the groups that count them.
        // The other groups still roll, and may reach a cap.
        let mut counted: Vec<(Dist, u32)> = Vec::new();
        let mut others_free = 1.0;
        for (g, plan) in e.groups.iter().zip(plans) {
            if g.success.is_some() {
                counted.push(term(plan)?);
            } else {
                others_free *= 1.0 - capped_fraction(plan)?;
            }
        }
        let mut acc = sum_of_powers(&refs(&counted))?;
        acc.capped = acc.mass() * (1.0 - (1.0 - acc.capped()) * others_free);
        return Ok((Measure::Successes, acc, None));
    }
    let mut signed = Vec::new();
    let mut constant = 0i64;
    if linear(&e.expr, false, &mut signed, &mut constant).is_some() {
        // Sums and differences of groups: one pass over all the terms (one FFT when large).
        let mut plans: Vec<Option<Plan>> = plans.into_iter().map(Some).collect();
        let mut terms: Vec<(Dist, u32)> = Vec::with_capacity(signed.len());
        for (i, negative) in signed {
            let plan = plans
                .get_mut(i)
                .and_then(Option::take)
                .ok_or(OddsError::TooComplex)?;
            let (d, n) = term(plan)?;
            terms.push((if negative { d.negated() } else { d }, n));
        }
        let total = sum_of_powers(&refs(&terms))?.shifted(constant);
        return Ok((Measure::Total, total, e.target));
    }
    let dists: Vec<Dist> = plans.into_iter().map(run).collect::<Result<_, _>>()?;
    let total = eval(&e.expr, &dists, e.rounding)?;
    Ok((Measure::Total, total, e.target))
}

fn refs(terms: &[(Dist, u32)]) -> Vec<(&Dist, u32)> {
    terms.iter().map(|(d, n)| (d, *n)).collect()
}

/// A group as `n` independent copies of one distribution (computed now unless it is a sum of
/// independent dice).
fn term(plan: Plan) -> Result<(Dist, u32), OddsError> {
    match plan {
        Plan::Slots { die, n } => Ok((die, n)),
        other => Ok((run(other)?, 1)),
    }
}

/// The chance a group's chains reach the cap (without computing a sum of independent dice).
fn capped_fraction(plan: Plan) -> Result<f64, OddsError> {
    match plan {
        Plan::Slots { die, n } => Ok(-(f64::from(n) * (-die.capped()).ln_1p()).exp_m1()),
        other => Ok(run(other)?.capped()),
    }
}

/// `expr` as `constant + Σ ±group` when it only adds, subtracts and negates: pushes each group's
/// index with whether it is subtracted. `None` for products and quotients.
fn linear(expr: &Expr, negative: bool, signed: &mut Vec<(usize, bool)>, constant: &mut i64) -> Option<()> {
    match expr {
        Expr::Num(n) => {
            *constant = constant.checked_add(if negative { n.checked_neg()? } else { *n })?;
        }
        Expr::Dice(i) => signed.push((*i, negative)),
        Expr::Neg { inner, .. } => linear(inner, !negative, signed, constant)?,
        Expr::Bin { op, lhs, rhs, .. } => match op {
            Op::Add | Op::Sub => {
                linear(lhs, negative, signed, constant)?;
                linear(rhs, negative ^ (*op == Op::Sub), signed, constant)?;
            }
            Op::Mul | Op::Div => return None,
        },
    }
    Some(())
}

/// What a group's worth per face is: its face, or its successes minus failures.
fn worth(g: &DiceSpec, successes: bool) -> impl Fn(u32) -> i64 + '_ {
    move |f: u32| {
        // The d20 library's `miN`: a lower face counts N (it never changes which dice rank higher).
        let f = g.minimum.map_or(f, |m| f.max(m));
        if !successes {
            // A Fate/Fudge die is a d3 read −1, 0, +1.
            return if g.fudge { i64::from(f) - 2 } else { i64::from(f) };
        }
        let Some(rule) = g.success else { return 0 };
        let hit = rule
            .target
            .is_some_and(|(op, v)| op.test(i64::from(f), i64::from(v)));
        let double = rule.double_at_least.is_some_and(|v| f >= v);
        let s = if double { 2 } else { i64::from(hit) };
        s - i64::from(rule.fail_at_most.is_some_and(|v| f <= v))
    }
}

fn stage(s: &Stage2) -> Stage {
    match *s {
        Stage2::Explode { at_least, indefinite } => Stage::Explode { at_least, indefinite },
        Stage2::Implode { at_most } => Stage::Implode { at_most },
        Stage2::Reroll { cmp, value, until } => Stage::Reroll { cmp, value, until },
    }
}

/// One group, checked and ready to compute.
enum Plan {
    /// Independent dice: one die's distribution to the `n`-th power.
    Slots { die: Dist, n: u32 },
    /// Sorted positions `lo..hi` of `n` dice whose first faces have chances `pi`.
    Keep {
        faces: Faces,
        pi: Vec<f64>,
        n: u32,
        lo: u32,
        hi: u32,
        capped_per_die: f64,
    },
    /// Keep/drop over dice that explode (the pool size is random).
    ExplodeKeep(ExplodeKeep),
    /// Keep/drop over any other stages, or advantage then stages then keep/drop.
    PoolKeep(PoolKeep),
}

fn plan(g: &DiceSpec, successes: bool) -> Result<Plan, OddsError> {
    if g.d66 {
        // `2D66`: each a D66 roll as rolled, summed; a D66 group counts no successes.
        let die = if successes {
            Dist::point(0)
        } else {
            d66(D66Order::AsRolled)?
        };
        return Ok(Plan::Slots { die, n: g.count });
    }
    let sides = g.sides;
    let stages: Vec<Stage> = g.stage2.iter().map(stage).collect();
    let value = worth(g, successes);
    let subtracted = if successes {
        Dist::point(0)
    } else {
        Dist::uniform(-i64::from(sides), -1)
    };
    let fold = || -> Result<Faces, OddsError> {
        let mut faces = Faces::plain(sides, &value);
        for s in stages.iter().rev() {
            faces.prepend(*s, &subtracted)?;
        }
        Ok(faces)
    };
    // Positions kept by advantage (ascending order of the `count + extra` dice).
    let (n, lo, hi) = match g.advantage {
        None => (g.count, 0, g.count),
        Some((extra, false)) => (g.count + extra, extra, g.count + extra),
        Some((extra, true)) => (g.count + extra, 0, g.count),
    };
    let Some(k) = g.keep else {
        if g.advantage.is_none() {
            return Ok(Plan::Slots {
                die: fold()?.fresh()?,
                n: g.count,
            });
        }
        let faces = fold()?;
        let pi = vec![1.0 / f64::from(sides); sides as usize];
        return checked_keep(faces, pi, n, lo, hi, 0.0);
    };
    // Keep/drop ranks the faces after the stage-2 modifiers, over the dice then in play.
    if let ([Stage::Explode { at_least, indefinite }], None) = (stages.as_slice(), g.advantage) {
        let plan = ExplodeKeep::plan(g.count, sides, *at_least, *indefinite, k, &value)?;
        return Ok(Plan::ExplodeKeep(plan));
    }
    let rerolls_only = stages.iter().all(|s| matches!(s, Stage::Reroll { .. }));
    if !rerolls_only || (g.advantage.is_some() && !stages.is_empty()) {
        // Explosions with other stages, implosions, or advantage before the stages.
        let plan = PoolKeep::plan(g.count, sides, g.advantage, &stages, k, &value, !successes)?;
        return Ok(Plan::PoolKeep(plan));
    }
    let live = g.count;
    let (a, b) = match k {
        Keep::Highest(k) => (live - k.min(live), live),
        Keep::Lowest(k) => (0, k.min(live)),
        Keep::Middle(k) => {
            let k = k.min(live);
            let low = (live - k) / 2;
            (low, low + k)
        }
        Keep::DropLowest(k) => (k.min(live), live),
        Keep::DropHighest(k) => (0, live - k.min(live)),
    };
    // Advantage left positions `lo..hi` in play; keep picks among those.
    debug_assert!(hi - lo == live);
    let (pi, capped) = Faces::faces_after_rerolls(sides, &stages);
    let faces = Faces::plain(sides, &value);
    checked_keep(faces, pi, n, lo + a, lo + b, capped)
}

fn checked_keep(
    faces: Faces,
    pi: Vec<f64>,
    n: u32,
    lo: u32,
    hi: u32,
    capped: f64,
) -> Result<Plan, OddsError> {
    if keep_cost(&faces, n, lo, hi) > KEEP_BUDGET {
        return Err(OddsError::TooComplex);
    }
    Ok(Plan::Keep {
        faces,
        pi,
        n,
        lo,
        hi,
        capped_per_die: capped,
    })
}

fn run(plan: Plan) -> Result<Dist, OddsError> {
    match plan {
        Plan::Slots { die, n } => die.power(n),
        Plan::ExplodeKeep(p) => p.run(),
        Plan::PoolKeep(p) => p.run(),
        Plan::Keep {
            faces,
            pi,
            n,
            lo,
            hi,
            capped_per_die,
        } => {
            let mut d = keep(&faces, &pi, n, lo, hi)?;
            if capped_per_die > 0.0 {
                // Every die goes through the rerolls, kept or not; each is capped on its own.
                d.capped = d.mass() * -(f64::from(n) * (-capped_per_die).ln_1p()).exp_m1();
            }
            Ok(d)
        }
    }
}

/// The arithmetic between groups: each group appears once, so its operands are independent.
fn eval(expr: &Expr, groups: &[Dist], rounding: Rounding) -> Result<Dist, OddsError> {
    match expr {
        Expr::Num(n) => Ok(Dist::point(*n)),
        Expr::Dice(i) => groups.get(*i).cloned().ok_or(OddsError::TooComplex),
        Expr::Neg { inner, .. } => Ok(eval(inner, groups, rounding)?.negated()),
        Expr::Bin { op, lhs, rhs, .. } => {
            let (a, b) = (eval(lhs, groups, rounding)?, eval(rhs, groups, rounding)?);
            match op {
                Op::Add => a.convolve(&b),
                Op::Sub => a.convolve(&b.negated()),
                Op::Mul => a.combine(&b, |x, y| x.checked_mul(y).ok_or(OddsError::Overflow)),
                Op::Div => {
                    if b.prob(0) > 0.0 {
                        return Err(OddsError::DivisionByZero);
                    }
                    a.combine(&b, |x, y| {
                        crate::notation::arith::divide(x, y, rounding, 1).map_err(|_| OddsError::Overflow)
                    })
                }
            }
        }
    }
}

/// BCDice `xBy`: the sum of every die, or with a target the dice that meet it.
fn barabara(groups: &[Group], target: Option<Target>) -> Result<(Measure, Dist, Option<Target>), OddsError> {
    let mut acc = Dist::point(0);
    for g in groups {
        let s = i64::from(g.sides);
        let die = match target {
            None => Dist::uniform(1, s),
            Some(t) => {
                let hits = (1..=s).filter(|&f| t.test(f)).count() as f64 / s as f64;
                Dist::from_pairs(&[(0, 1.0 - hits), (1, hits)])?
            }
        };
        acc = acc.convolve(&die.power(g.count)?)?;
    }
    // The target is per die: the successes are what is reported, with no comparison left.
    let measure = if target.is_some() {
        Measure::Successes
    } else {
        Measure::Total
    };
    Ok((measure, acc, None))
}

fn d66(order: D66Order) -> Result<Dist, OddsError> {
    let mut pairs = Vec::with_capacity(36);
    for a in 1..=6i64 {
        for b in 1..=6i64 {
            let (t, u) = match order {
                D66Order::AsRolled => (a, b),
                D66Order::Ascending => (a.min(b), a.max(b)),
                D66Order::Descending => (a.max(b), a.min(b)),
            };
            pairs.push((t * 10 + u, 1.0 / 36.0));
        }
    }
    Dist::from_pairs(&pairs)
}

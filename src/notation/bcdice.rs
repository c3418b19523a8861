//! Rolling the BCDice forms other than sums.

use super::arith;
use super::ast::{D66Order, Group};
use super::error::NotationError;
use super::limits::MAX_CHAIN;
use super::outcome::{DiceGroup, Die, Origin, RollLine, TallyCount, Target};
use crate::dice::Roller;

fn empty_group(g: &Group) -> DiceGroup {
    DiceGroup {
        text: g.text.clone(),
        count: g.count,
        sides: g.sides,
        dice: Vec::new(),
        subtotal: 0,
        successes: None,
        fudge: false,
    }
}

fn push(group: &mut DiceGroup, r: &mut dyn Roller, origin: Origin) -> Result<usize, NotationError> {
    let face = r.roll(group.sides)?;
    group.dice.push(Die::new(face, group.sides, origin));
    group.subtotal = arith::add(group.subtotal, i64::from(face))?;
    Ok(group.dice.len() - 1)
}

fn face(group: &DiceGroup, i: usize) -> i64 {
    group.dice.get(i).map_or(0, |d| i64::from(d.face))
}

/// Mark dice meeting `target` as successes; returns how many.
fn count_successes(group: &mut DiceGroup, target: Option<Target>) -> i64 {
    let mut n = 0;
    for d in &mut group.dice {
        if target.is_some_and(|t| t.test(i64::from(d.face))) {
            d.success = 1;
            n += 1;
        }
    }
    group.successes = target.map(|_| n);
    n
}

fn totals(line: &mut RollLine) -> Result<i64, NotationError> {
    line.groups
        .iter()
        .try_fold(0i64, |a, g| arith::add(a, g.subtotal))
}

pub(crate) fn barabara(
    line: &mut RollLine,
    groups: &[Group],
    target: Option<Target>,
    r: &mut dyn Roller,
) -> Result<(), NotationError> {
    let mut successes = 0;
    for g in groups {
        let mut out = empty_group(g);
        for _ in 0..g.count {
            push(&mut out, r, Origin::Rolled)?;
        }
        successes += count_successes(&mut out, target);
        line.groups.push(out);
    }
    line.total = Some(totals(line)?);
    line.target = target;
    line.successes = target.map(|_| successes);
    Ok(())
}

/// Every die meeting the threshold adds one more die, round after round, group by group.
pub(crate) fn reroll(
    line: &mut RollLine,
    groups: &[Group],
    threshold: Target,
    target: Option<Target>,
    r: &mut dyn Roller,
) -> Result<(), NotationError> {
    // BCDice's order: every group's dice, then each round of rerolls across every group in
    // turn (`2R4+2R6`: the d4s, the d6s, the d4s' rerolls, the d6s' rerolls, …), so the same
    // dice give the same result.
    let mut outs: Vec<DiceGroup> = groups.iter().map(empty_group).collect();
    let mut rounds: Vec<Vec<usize>> = Vec::with_capacity(groups.len());
    for (g, out) in groups.iter().zip(outs.iter_mut()) {
        let mut round = Vec::with_capacity(g.count as usize);
        for _ in 0..g.count {
            round.push(push(out, r, Origin::Rolled)?);
        }
        rounds.push(round);
    }
    for depth in 0..=MAX_CHAIN {
        let triggers: Vec<Vec<usize>> = rounds
            .iter()
            .zip(&outs)
            .map(|(round, out)| {
                round
                    .iter()
                    .copied()
                    .filter(|&i| threshold.test(face(out, i)))
                    .collect()
            })
            .collect();
        if triggers.iter().all(Vec::is_empty) {
            break;
        }
        if depth == MAX_CHAIN {
            line.capped = true;
            break;
        }
        for ((out, round), froms) in outs.iter_mut().zip(rounds.iter_mut()).zip(triggers) {
            round.clear();
            for from in froms {
                if let Some(d) = out.dice.get_mut(from) {
                    d.exploded = true;
                }
                round.push(push(out, r, Origin::Explosion { from })?);
            }
        }
    }
    let mut successes = 0;
    for mut out in outs {
        successes += count_successes(&mut out, target);
        line.groups.push(out);
    }
    line.target = target;
    line.successes = Some(successes);
    Ok(())
}

/// Each die keeps adding while it meets the threshold; each chain plus the bonus is one value.
pub(crate) fn upper(
    line: &mut RollLine,
    groups: &[Group],
    threshold: Option<u32>,
    bonus: i64,
    target: Option<Target>,
    r: &mut dyn Roller,
) -> Result<(), NotationError> {
    let mut successes = 0;
    for g in groups {
        let at_least = i64::from(threshold.unwrap_or(g.sides));
        let mut out = empty_group(g);
        let mut group_successes = 0;
        for _ in 0..g.count {
            let first = push(&mut out, r, Origin::Rolled)?;
            let (mut cur, mut sum) = (first, face(&out, first));
            for chain in 0..=MAX_CHAIN {
                if face(&out, cur) < at_least {
                    break;
                }
                if chain == MAX_CHAIN {
                    line.capped = true;
                    break;
                }
                if let Some(d) = out.dice.get_mut(cur) {
                    d.exploded = true;
                }
                cur = push(&mut out, r, Origin::Explosion { from: cur })?;
                sum = arith::add(sum, face(&out, cur))?;
            }
            let value = arith::add(sum, bonus)?;
            if target.is_some_and(|t| t.test(value)) {
                group_successes += 1;
                if let Some(d) = out.dice.get_mut(first) {
                    d.success = 1;
                }
            }
            line.values.push(value);
        }
        out.successes = target.map(|_| group_successes);
        successes += group_successes;
        line.groups.push(out);
    }
    line.total = Some(arith::add(totals(line)?, bonus)?);
    line.max = line.values.iter().max().copied();
    line.target = target;
    line.successes = target.map(|_| successes);
    Ok(())
}

pub(crate) fn d66(line: &mut RollLine, order: D66Order, r: &mut dyn Roller) -> Result<(), NotationError> {
    let g = Group {
        text: line.expression.clone(),
        count: 2,
        sides: 6,
    };
    let mut out = empty_group(&g);
    let (i, j) = (
        push(&mut out, r, Origin::Rolled)?,
        push(&mut out, r, Origin::Rolled)?,
    );
    let (a, b) = (face(&out, i), face(&out, j));
    let (tens, units) = match order {
        D66Order::AsRolled => (a, b),
        D66Order::Ascending => (a.min(b), a.max(b)),
        D66Order::Descending => (a.max(b), a.min(b)),
    };
    let value = tens * 10 + units;
    out.subtotal = value;
    line.groups.push(out);
    line.total = Some(value);
    Ok(())
}

/// Draws without repeats: each pick rolls a die as large as the choices left.
pub(crate) fn choice(
    line: &mut RollLine,
    pick: u32,
    items: &[String],
    r: &mut dyn Roller,
) -> Result<(), NotationError> {
    let mut left: Vec<&String> = items.iter().collect();
    let mut out = DiceGroup {
        text: line.expression.clone(),
        count: pick,
        sides: u32::try_from(items.len()).unwrap_or(u32::MAX),
        dice: Vec::new(),
        subtotal: 0,
        successes: None,
        fudge: false,
    };
    for _ in 0..pick {
        let sides = u32::try_from(left.len()).unwrap_or(u32::MAX);
        let face = r.roll(sides)?;
        out.dice.push(Die::new(face, sides, Origin::Rolled));
        let i = (face as usize).saturating_sub(1);
        if i < left.len() {
            line.chosen.push(left.remove(i).clone());
        }
    }
    line.groups.push(out);
    Ok(())
}

pub(crate) fn tally(
    line: &mut RollLine,
    g: &Group,
    zeros: bool,
    r: &mut dyn Roller,
) -> Result<(), NotationError> {
    let mut out = empty_group(g);
    let mut counts = vec![0u32; g.sides as usize];
    for _ in 0..g.count {
        let i = push(&mut out, r, Origin::Rolled)?;
        let f = face(&out, i) as usize;
        if let Some(c) = f.checked_sub(1).and_then(|k| counts.get_mut(k)) {
            *c += 1;
        }
    }
    line.tally = (1..=g.sides)
        .zip(counts)
        .filter(|&(_, count)| zeros || count > 0)
        .map(|(face, count)| TallyCount { face, count })
        .collect();
    line.groups.push(out);
    Ok(())
}

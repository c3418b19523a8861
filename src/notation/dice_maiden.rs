//! Rolling one dice group through the Dice Maiden stages: advantage, then explode / implode /
//! reroll in written order, then keep/drop, then the total, then success counting. A BCDice sum
//! group is the same with no modifiers.

use super::arith;
use super::ast::{DiceSpec, Keep, Stage2};
use super::error::NotationError;
use super::limits::MAX_CHAIN;
use super::outcome::{DiceGroup, Die, Origin, Status};
use crate::dice::Roller;

/// Dice of one group plus the indices of those still in play.
struct Pool {
    sides: u32,
    dice: Vec<Die>,
    live: Vec<usize>,
}

impl Pool {
    fn face(&self, i: usize) -> u32 {
        self.dice.get(i).map_or(0, |d| d.face)
    }

    fn die(&mut self, i: usize) -> Option<&mut Die> {
        self.dice.get_mut(i)
    }

    fn roll(&mut self, r: &mut dyn Roller, origin: Origin) -> Result<usize, NotationError> {
        let face = r.roll(self.sides)?;
        self.dice.push(Die::new(face, self.sides, origin));
        Ok(self.dice.len() - 1)
    }

    /// Live dice ranked for keeping: by face (highest first unless `low_first`); among equal
    /// faces the earlier-rolled die ranks first, so ties keep earlier dice.
    fn ranked(&self, low_first: bool) -> Vec<usize> {
        let mut v = self.live.clone();
        v.sort_by(|&a, &b| {
            let by_face = self.face(a).cmp(&self.face(b));
            (if low_first { by_face } else { by_face.reverse() }).then(a.cmp(&b))
        });
        v
    }

    fn drop_all(&mut self, drop: &[usize]) {
        for &i in drop {
            if let Some(d) = self.die(i) {
                d.status = Status::Dropped;
            }
        }
        self.live.retain(|i| !drop.contains(i));
    }
}

/// Roll `spec`; sets `capped` when a chain stops at [`MAX_CHAIN`].
/// `2D66`: each a D66 roll, two d6 read as tens and units (as rolled), shown as one value.
fn roll_d66s(spec: &DiceSpec, r: &mut dyn Roller) -> Result<DiceGroup, NotationError> {
    let mut dice = Vec::with_capacity(spec.count as usize);
    let mut subtotal = 0i64;
    for _ in 0..spec.count {
        let (tens, units) = (r.roll(6)?, r.roll(6)?);
        let value = tens * 10 + units;
        subtotal += i64::from(value);
        dice.push(Die::new(value, 66, Origin::Rolled));
    }
    Ok(DiceGroup {
        text: spec.text.clone(),
        count: spec.count,
        sides: 66,
        dice,
        subtotal,
        successes: None,
        fudge: false,
    })
}

pub(crate) fn roll_group(
    spec: &DiceSpec,
    r: &mut dyn Roller,
    capped: &mut bool,
) -> Result<DiceGroup, NotationError> {
    if spec.d66 {
        return roll_d66s(spec, r);
    }
    let mut p = Pool {
        sides: spec.sides,
        dice: Vec::new(),
        live: Vec::new(),
    };
    let extra = spec.advantage.map_or(0, |(n, _)| n);
    for _ in 0..spec.count.saturating_add(extra) {
        let i = p.roll(r, Origin::Rolled)?;
        p.live.push(i);
    }
    // Stage 1: advantage drops the lowest, disadvantage the highest; ties drop later dice.
    if let Some((_, dis)) = spec.advantage {
        let ranked = p.ranked(dis);
        let keep = spec.count as usize;
        let drop: Vec<usize> = ranked.get(keep..).unwrap_or_default().to_vec();
        p.drop_all(&drop);
    }
    // Stage 2, in written order.
    for op in &spec.stage2 {
        match *op {
            Stage2::Explode { at_least, indefinite } => {
                let limit = if indefinite { MAX_CHAIN } else { 1 };
                for start in p.live.clone() {
                    let (mut cur, mut chain) = (start, 0);
                    while p.face(cur) >= at_least {
                        if chain == limit {
                            *capped |= indefinite;
                            break;
                        }
                        if let Some(d) = p.die(cur) {
                            d.exploded = true;
                        }
                        cur = p.roll(r, Origin::Explosion { from: cur })?;
                        p.live.push(cur);
                        chain += 1;
                    }
                }
            }
            Stage2::Implode { at_most } => {
                for i in p.live.clone() {
                    if p.face(i) <= at_most {
                        if let Some(d) = p.die(i) {
                            d.imploded = true;
                        }
                        let new = p.roll(r, Origin::Implosion { from: i })?;
                        if let Some(d) = p.die(new) {
                            d.status = Status::Subtracted;
                        }
                    }
                }
            }
            Stage2::Reroll { cmp, value, until } => {
                let limit = if until { MAX_CHAIN } else { 1 };
                for slot in 0..p.live.len() {
                    let Some(mut cur) = p.live.get(slot).copied() else {
                        break;
                    };
                    let mut chain = 0;
                    while cmp.test(i64::from(p.face(cur)), i64::from(value)) {
                        if chain == limit {
                            *capped |= until;
                            break;
                        }
                        if let Some(d) = p.die(cur) {
                            d.status = Status::Rerolled;
                        }
                        cur = p.roll(r, Origin::Reroll { from: cur })?;
                        chain += 1;
                    }
                    if let Some(s) = p.live.get_mut(slot) {
                        *s = cur;
                    }
                }
            }
        }
    }
    // The d20 library's minimum, on every die in play once rerolls and explosions are done.
    if let Some(min) = spec.minimum {
        for i in p.live.clone() {
            if let Some(d) = p.die(i).filter(|d| d.face < min) {
                d.raised_from = Some(d.face);
                d.face = min;
            }
        }
    }
    // Stage 3: keep/drop over the dice in play, exploded ones included.
    if let Some(keep) = spec.keep {
        let n = |k: u32| (k as usize).min(p.live.len());
        let drop: Vec<usize> = match keep {
            Keep::Highest(k) => p.ranked(false).split_off(n(k)),
            Keep::Lowest(k) => p.ranked(true).split_off(n(k)),
            Keep::Middle(k) => {
                let ranked = p.ranked(true);
                let low = (ranked.len() - n(k)) / 2;
                let high = low + n(k);
                ranked
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j < low || *j >= high)
                    .map(|(_, &i)| i)
                    .collect()
            }
            Keep::DropLowest(k) => {
                // Ranked highest first, earlier first: the lowest (and, among equals, the latest) are last.
                let ranked = p.ranked(false);
                let keep = ranked.len().saturating_sub(n(k));
                ranked.get(keep..).unwrap_or_default().to_vec()
            }
            Keep::DropHighest(k) => {
                // Ranked lowest first, earlier first: the highest (and, among equals, the latest) are last.
                let ranked = p.ranked(true);
                let keep = ranked.len().saturating_sub(n(k));
                ranked.get(keep..).unwrap_or_default().to_vec()
            }
        };
        p.drop_all(&drop);
    }
    // Stage 4: kept dice minus imploded ones. A Fate die counts its face minus 2 (−1, 0, +1).
    let value = |d: &Die| i64::from(d.face) - if spec.fudge { 2 } else { 0 };
    let mut subtotal: i64 = 0;
    for d in &p.dice {
        match d.status {
            Status::Kept => subtotal = arith::add(subtotal, value(d))?,
            Status::Subtracted => subtotal = arith::add(subtotal, -i64::from(d.face))?,
            _ => {}
        }
    }
    // Stage 6: successes on the kept dice.
    let mut successes = None;
    if let Some(rule) = spec.success {
        let mut net: i64 = 0;
        for &i in &p.live {
            let Some(d) = p.dice.get_mut(i) else { continue };
            let face = i64::from(d.face);
            let hit = rule.target.is_some_and(|(op, v)| op.test(face, i64::from(v)));
            let double = rule.double_at_least.is_some_and(|v| d.face >= v);
            d.success = if double { 2 } else { u8::from(hit) };
            d.failure = rule.fail_at_most.is_some_and(|v| d.face <= v);
            d.botch = rule.botch_at_most.is_some_and(|v| d.face <= v);
            net = net + i64::from(d.success) - i64::from(d.failure);
        }
        successes = Some(net);
    }
    Ok(DiceGroup {
        text: spec.text.clone(),
        count: spec.count,
        sides: spec.sides,
        dice: p.dice,
        subtotal,
        successes,
        fudge: spec.fudge,
    })
}

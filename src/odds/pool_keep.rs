//! Keep/drop over a pool the stage-2 modifiers shaped in ways the other modules do not cover:
//! explosions mixed with rerolls or implosions, implosions alone, and advantage before rerolls
//! or explosions (`4d6r1e6 k3`, `3d6e i1 k2`, `2d20 adv r1 k1`), exactly as the roller
//! does them.
//!
//! Every original die is a *unit*: its face goes through the stages in written order, and the
//! dice it leaves in play (itself or its reroll, its explosion chain, each extra die through the
//! later stages) and the dice it subtracts (implosions) depend on nothing else. Keep/drop then
//! ranks all the dice in play together. A unit, and any part of the pool, is summarised by the
//! faces keep/drop may still pick (the highest `k` for `k`, the lowest `d` for `dl`, all for
//! `km`), the worth already certain to be kept (the faces a drop can no longer reach), how many
//! dice it subtracted and whether a chain reached the roller's cap. The summary of a union is
//! the summary of the summaries, so the pool's law is the units' laws combined one by one,
//! merging equal summaries. The subtracted dice are independent uniform faces, added at the end
//! by their number.
//!
//! Advantage ranks the original dice by their first face before any stage: faces are visited
//! from the best, the number showing each is binomial (as in [`super::keep`]), and only the
//! first `count` go on as units.
//!
//! The cost is checked before the pool is combined: from the sizes of the units' laws (small,
//! computed first) and the number of summaries a pool can reach, a group whose estimated work
//! is far past [`POOL_BUDGET`] is refused. The estimate is a loose upper bound, so the groups it
//! lets through are combined under a meter, which stops one as soon as the dice left would pass
//! the budget at the pool's present size (measured: within about 2 ms).

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use super::dist::Dist;
use super::error::OddsError;
use super::faces::Stage;
use super::keep::{binomial_term, ln_factorials};
use crate::notation::ast::Keep;
use crate::notation::limits::MAX_CHAIN;

/// Pairs of summaries one group may combine. Measured: about 8 ms at the budget on the
/// development machine (`cargo bench -p saikoro --bench odds`).
pub const POOL_BUDGET: u64 = 200_000;

/// What keep/drop may still pick from some dice, and what they did besides.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    /// Faces keep/drop may still rank, ascending.
    faces: SmallVec<[u16; 12]>,
    /// Worth certain to be kept: faces a drop can no longer reach.
    certain: i64,
    /// Dice subtracted by implosions.
    subtracted: u32,
    capped: bool,
}

impl Key {
    fn empty() -> Self {
        Key {
            faces: SmallVec::new(),
            certain: 0,
            subtracted: 0,
            capped: false,
        }
    }
}

/// A law over summaries: each distinct summary once, with its chance.
type Law = FxHashMap<Key, f64>;

fn point_law(key: Key) -> Law {
    let mut law = Law::default();
    law.insert(key, 1.0);
    law
}

/// The keep/drop rule, the worth of each face and the work meter.
struct Rule {
    keep: Keep,
    /// Worth of face `f` at `f - 1`.
    worth: Vec<i64>,
    work: u64,
}

impl Rule {
    fn worth(&self, f: u16) -> i64 {
        self.worth[usize::from(f) - 1]
    }

    /// Faces beyond what keep/drop may pick: dropped for sure (keep), or kept for sure (drop:
    /// their worth becomes certain).
    fn truncate(&self, key: &mut Key) {
        let n = key.faces.len();
        match self.keep {
            Keep::Highest(k) if n > k as usize => {
                key.faces.drain(..n - k as usize);
            }
            Keep::Lowest(k) if n > k as usize => key.faces.truncate(k as usize),
            Keep::DropLowest(d) if n > d as usize => {
                let kept: i64 = key.faces[d as usize..].iter().map(|&f| self.worth(f)).sum();
                key.certain += kept;
                key.faces.truncate(d as usize);
            }
            Keep::DropHighest(d) if n > d as usize => {
                let kept: i64 = key.faces[..n - d as usize].iter().map(|&f| self.worth(f)).sum();
                key.certain += kept;
                key.faces.drain(..n - d as usize);
            }
            _ => {}
        }
    }

    /// The worth kept from the faces still to rank, once the pool is complete.
    fn value(&self, faces: &[u16]) -> i64 {
        let sum = |faces: &[u16]| -> i64 { faces.iter().map(|&f| self.worth(f)).sum() };
        match self.keep {
            Keep::Highest(_) | Keep::Lowest(_) => sum(faces),
            // What is left are the dropped ones.
            Keep::DropLowest(_) | Keep::DropHighest(_) => 0,
            Keep::Middle(k) => {
                let n = faces.len();
                let k = (k as usize).min(n);
                let low = (n - k) / 2;
                sum(&faces[low..low + k])
            }
        }
    }

    /// The summary of two disjoint parts of the pool.
    fn join(&self, a: &Key, b: &Key) -> Key {
        let mut faces = SmallVec::with_capacity(a.faces.len() + b.faces.len());
        let (mut i, mut j) = (0, 0);
        while i < a.faces.len() && j < b.faces.len() {
            if a.faces[i] <= b.faces[j] {
                faces.push(a.faces[i]);
                i += 1;
            } else {
                faces.push(b.faces[j]);
                j += 1;
            }
        }
        faces.extend_from_slice(&a.faces[i..]);
        faces.extend_from_slice(&b.faces[j..]);
        let mut key = Key {
            faces,
            certain: a.certain + b.certain,
            subtracted: a.subtracted + b.subtracted,
            capped: a.capped || b.capped,
        };
        self.truncate(&mut key);
        key
    }

    /// Adds `w ·` the law of two independent parts together to `out`.
    fn product_into(&mut self, out: &mut Law, a: &Law, b: &Law, w: f64) -> Result<(), OddsError> {
        self.work += (a.len() * b.len()) as u64;
        if self.work > POOL_BUDGET {
            return Err(OddsError::TooComplex);
        }
        for (x, p) in a {
            for (y, q) in b {
                *out.entry(self.join(x, y)).or_insert(0.0) += w * p * q;
            }
        }
        Ok(())
    }

    fn product(&mut self, a: &Law, b: &Law) -> Result<Law, OddsError> {
        let mut out = Law::with_capacity_and_hasher(a.len().max(b.len()), Default::default());
        self.product_into(&mut out, a, b, 1.0)?;
        Ok(out)
    }
}

/// Adds `w · law` to `out`, marked capped when `capped`.
fn add_law(out: &mut Law, law: &Law, w: f64, capped: bool) {
    for (k, p) in law {
        let mut k = k.clone();
        k.capped |= capped;
        *out.entry(k).or_insert(0.0) += w * p;
    }
}

/// One group `count`d`sides` with advantage, stages and keep/drop, checked and ready.
pub(crate) struct PoolKeep {
    count: u32,
    sides: u32,
    advantage: Option<(u32, bool)>,
    rule: Rule,
    /// `units[f - 1]`: the law of what one original die that first showed `f` leaves.
    units: Vec<Law>,
    /// The law of what one original die leaves, whatever it first showed.
    one: Law,
}

/// `C(kinds + size, size)`, the multisets of at most `size` of `kinds` faces, as a float.
fn multisets(kinds: u32, size: f64) -> f64 {
    let mut c = 1.0f64;
    let mut i = 1.0;
    while i <= size && c.is_finite() {
        c *= (f64::from(kinds) + i) / i;
        i += 1.0;
    }
    c
}

impl PoolKeep {
    /// Computes each unit's law (a single die's chains: small, and metered), then refuses a
    /// group whose pool would cost more than [`POOL_BUDGET`], before combining it.
    pub fn plan(
        count: u32,
        sides: u32,
        advantage: Option<(u32, bool)>,
        stages: &[Stage],
        keep: Keep,
        value: impl Fn(u32) -> i64,
        subtract_worth: bool,
    ) -> Result<Self, OddsError> {
        let picked = match keep {
            Keep::Highest(k) | Keep::Lowest(k) | Keep::DropLowest(k) | Keep::DropHighest(k) => f64::from(k),
            Keep::Middle(_) => f64::INFINITY,
        };
        let live = stages.iter().fold(1.0f64, |l, s| match *s {
            Stage::Explode { indefinite, .. } => {
                l * (1.0 + f64::from(if indefinite { MAX_CHAIN } else { 1 }))
            }
            _ => l,
        });
        // Even one die's chains could leave more summaries than the budget.
        if multisets(sides, picked.min(live)) > POOL_BUDGET as f64 || sides > u32::from(u16::MAX) {
            return Err(OddsError::TooComplex);
        }
        let mut rule = Rule {
            keep,
            worth: (1..=sides).map(value).collect(),
            work: 0,
        };
        let units = unit_laws(sides, stages, &mut rule, subtract_worth)?;
        // A fresh die's law, and what the keys of the units reach.
        let mut one = Law::default();
        for u in &units {
            add_law(&mut one, u, 1.0 / f64::from(sides), false);
        }
        let widest = units.iter().map(Law::len).max().unwrap_or(1) as f64;
        let total = |k: &Key| k.certain + k.faces.iter().map(|&f| rule.worth(f)).sum::<i64>();
        let (lo, hi) = one.keys().fold((i64::MAX, i64::MIN), |(lo, hi), k| {
            (lo.min(total(k)), hi.max(total(k)))
        });
        let spread = (hi - lo).max(0) as f64;
        let most_subtracted = f64::from(one.keys().map(|k| k.subtracted).max().unwrap_or(0));
        let caps = if one.keys().any(|k| k.capped) { 2.0 } else { 1.0 };
        let most_faces = one.keys().map(|k| k.faces.len()).max().unwrap_or(1) as f64;
        let pushes = matches!(keep, Keep::DropLowest(_) | Keep::DropHighest(_));
        // Summaries a pool of `i` dice can reach: the faces left to rank times the other parts
        // of a key, and never more than a fresh die's law multiplied out.
        let reach = |i: f64| -> f64 {
            let faces = multisets(sides, picked.min(i * most_faces));
            let certain = if pushes { i * spread + 1.0 } else { 1.0 };
            (faces * certain * (i * most_subtracted + 1.0) * caps).min((one.len() as f64).powf(i))
        };
        let n = count + advantage.map_or(0, |(e, _)| e);
        let work: f64 = match advantage {
            // The pool so far with one more die, `count` times.
            None => (0..count).map(|i| reach(f64::from(i)) * one.len() as f64).sum(),
            // Every face, every state, every number of dice showing it.
            Some(_) => {
                let states: f64 = (0..count).map(|i| reach(f64::from(i))).sum();
                f64::from(sides) * states * f64::from(n + 1) * widest
            }
        };
        // The estimate bounds the work from above, loosely: past eight times the budget left, refuse
        // now; below it the meter stops what the estimate let through.
        if work.is_nan() || work > (POOL_BUDGET - rule.work.min(POOL_BUDGET)) as f64 * 8.0 {
            return Err(OddsError::TooComplex);
        }
        Ok(PoolKeep {
            count,
            sides,
            advantage,
            rule,
            units,
            one,
        })
    }

    pub fn run(mut self) -> Result<Dist, OddsError> {
        let pool = match self.advantage {
            None => {
                let one = std::mem::take(&mut self.one);
                let mut acc = point_law(Key::empty());
                for i in 0..self.count {
                    // The pool's law hardly shrinks as dice join: when the dice left, at its
                    // present size, would pass the budget, stop now rather than at the budget.
                    let left = u64::from(self.count - i) * (acc.len() * one.len()) as u64;
                    if self.rule.work + left > POOL_BUDGET {
                        return Err(OddsError::TooComplex);
                    }
                    acc = self.rule.product(&acc, &one)?;
                }
                acc
            }
            Some((extra, dis)) => self.advantaged(extra, dis)?,
        };
        // Group the keys by how many dice they subtract: each such die is a uniform face taken
        // off the total.
        let mut by_subtracted: Vec<Vec<(i64, f64)>> = Vec::new();
        let mut capped = 0.0;
        for (key, p) in &pool {
            let k = key.subtracted as usize;
            if by_subtracted.len() <= k {
                by_subtracted.resize(k + 1, Vec::new());
            }
            by_subtracted[k].push((key.certain + self.rule.value(&key.faces), *p));
            if key.capped {
                capped += p;
            }
        }
        let sub = Dist::uniform(-i64::from(self.sides), -1);
        let mut out = Dist::zero();
        for (k, pairs) in by_subtracted.iter().enumerate() {
            if pairs.is_empty() {
                continue;
            }
            let kept = Dist::from_pairs(pairs)?;
            out.add_scaled(&kept.convolve(&sub.power(k as u32)?)?, 0, 1.0)?;
        }
        out.capped = capped;
        Ok(out.trimmed())
    }

    /// Advantage: the `count` best first faces of `count + extra` dice go on as units.
    fn advantaged(&mut self, extra: u32, dis: bool) -> Result<Law, OddsError> {
        let (count, n) = (self.count as usize, (self.count + extra) as usize);
        let order: Vec<u32> = if dis {
            (1..=self.sides).collect()
        } else {
            (1..=self.sides).rev().collect()
        };
        let lnf = ln_factorials(n);
        let uniform = 1.0 / f64::from(self.sides);
        let mut rest = 1.0;
        let mut states: Vec<Law> = vec![Law::default(); count];
        states[0] = point_law(Key::empty());
        let mut done = Law::default();
        for (step, &f) in order.iter().enumerate() {
            let last = step + 1 == order.len();
            let q = if last {
                1.0
            } else {
                (uniform / rest).clamp(0.0, 1.0)
            };
            rest -= uniform;
            let unit = &self.units[(f - 1) as usize];
            // Powers of this face's unit law, by the number of dice that go on.
            let mut powers: Vec<Law> = vec![point_law(Key::empty())];
            let mut next: Vec<Law> = vec![Law::default(); count];
            for (j, law) in states.iter().enumerate() {
                if law.is_empty() {
                    continue;
                }
                let left = n - j;
                for t in 0..=left {
                    let w = binomial_term(left, t, q, &lnf);
                    if w == 0.0 {
                        continue;
                    }
                    let s = t.min(count - j);
                    while powers.len() <= s {
                        let more = self.rule.product(&powers[powers.len() - 1], unit)?;
                        powers.push(more);
                    }
                    let end = j + t;
                    let target = if end >= count { &mut done } else { &mut next[end] };
                    self.rule.product_into(target, law, &powers[s], w)?;
                }
            }
            states = next;
        }
        Ok(done)
    }
}

/// The law of what an original die leaves, for each first face: the stages folded from the
/// last to the first, as the roller applies them from the first to the last.
fn unit_laws(
    sides: u32,
    stages: &[Stage],
    rule: &mut Rule,
    subtract_worth: bool,
) -> Result<Vec<Law>, OddsError> {
    let uniform = 1.0 / f64::from(sides);
    // After the last stage a die is just its face (`sides` fits a u16: checked by the plan).
    let mut after: Vec<Law> = (1..=sides)
        .map(|f| {
            let mut key = Key::empty();
            key.faces.push(f as u16);
            rule.truncate(&mut key);
            point_law(key)
        })
        .collect();
    for stage in stages.iter().rev() {
        after = match *stage {
            Stage::Explode { at_least, indefinite } => {
                let limit = if indefinite { MAX_CHAIN } else { 1 };
                // Past the extra die at chain position `limit` the roller stops (capped when
                // the explosion is indefinite).
                let mut chain = point_law(Key {
                    capped: indefinite,
                    ..Key::empty()
                });
                // The extra die at position `limit`, then each earlier one.
                for _ in 0..limit {
                    let mut next = Law::default();
                    for x in 1..=sides {
                        let a = &after[(x - 1) as usize];
                        if x >= at_least {
                            rule.product_into(&mut next, a, &chain, uniform)?;
                        } else {
                            add_law(&mut next, a, uniform, false);
                        }
                    }
                    chain = next;
                }
                let mut out = Vec::with_capacity(sides as usize);
                for f in 1..=sides {
                    let a = &after[(f - 1) as usize];
                    out.push(if f >= at_least {
                        rule.product(a, &chain)?
                    } else {
                        a.clone()
                    });
                }
                out
            }
            Stage::Implode { at_most } => {
                let sub = point_law(Key {
                    subtracted: u32::from(subtract_worth),
                    ..Key::empty()
                });
                let mut out = Vec::with_capacity(sides as usize);
                for f in 1..=sides {
                    let a = &after[(f - 1) as usize];
                    out.push(if f <= at_most {
                        rule.product(a, &sub)?
                    } else {
                        a.clone()
                    });
                }
                out
            }
            Stage::Reroll { cmp, value, until } => {
                let limit: i32 = if until { MAX_CHAIN as i32 } else { 1 };
                let trig = |f: u32| cmp.test(i64::from(f), i64::from(value));
                let p = (1..=sides).filter(|&f| trig(f)).count() as f64 * uniform;
                // The face a triggered die ends on: one that does not trigger at some reroll of
                // the `limit`, or one that does at the last (capped when `until`).
                let reach: f64 = (0..limit).map(|c| p.powi(c)).sum();
                let mut rerolled = Law::default();
                for g in 1..=sides {
                    let a = &after[(g - 1) as usize];
                    if trig(g) {
                        add_law(&mut rerolled, a, uniform * p.powi(limit - 1), until);
                    } else {
                        add_law(&mut rerolled, a, uniform * reach, false);
                    }
                }
                (1..=sides)
                    .map(|f| {
                        if trig(f) {
                            rerolled.clone()
                        } else {
                            after[(f - 1) as usize].clone()
                        }
                    })
                    .collect()
            }
        };
    }
    Ok(after)
}

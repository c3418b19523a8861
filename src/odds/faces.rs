//! What one die of a Dice Maiden group is worth after its stage-2 modifiers (explode, implode,
//! reroll, in written order), as a function of the face it first showed.
//!
//! A die that first shows face `f` ends up worth `shift[f] + B` where `B` is one of a few shared
//! "base" distributions: the point 0 for a face no modifier touches, the extra dice of an
//! explosion chain, the die subtracted by an implosion, or a fresh reroll. Stages are folded from
//! the last to the first, exactly as the roller applies them from the first to the last, with the
//! same chain cap ([`MAX_CHAIN`]).

use super::dist::Dist;
use super::error::OddsError;
use crate::notation::CmpOp;
use crate::notation::limits::MAX_CHAIN;

/// One group's dice, face by face.
#[derive(Debug, Clone)]
pub(crate) struct Faces {
    pub sides: u32,
    /// `(shift, base index)` for faces `1..=sides` (index `f - 1`).
    pub per_face: Vec<(i64, usize)>,
    pub bases: Vec<Dist>,
}

/// A stage as the odds see it (the AST's `Stage2`, copied so this module needs no private types).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Stage {
    Explode { at_least: u32, indefinite: bool },
    Implode { at_most: u32 },
    Reroll { cmp: CmpOp, value: u32, until: bool },
}

impl Faces {
    /// Dice worth `value(f)` with no modifier.
    pub fn plain(sides: u32, value: impl Fn(u32) -> i64) -> Self {
        Faces {
            sides,
            per_face: (1..=sides).map(|f| (value(f), 0)).collect(),
            bases: vec![Dist::point(0)],
        }
    }

    /// The die's worth for face `f` as a distribution.
    pub fn of(&self, f: u32) -> Dist {
        let (s, b) = self.per_face[(f - 1) as usize];
        self.bases[b].clone().shifted(s)
    }

    /// `(1/sides) Σ` over the faces where `pick(f)`: part of a fresh die's distribution.
    fn mixture(&self, pick: impl Fn(u32) -> bool) -> Result<Dist, OddsError> {
        let w = 1.0 / f64::from(self.sides);
        let mut m = Dist::zero();
        for f in 1..=self.sides {
            if pick(f) {
                let (s, b) = self.per_face[(f - 1) as usize];
                m.add_scaled(&self.bases[b], s, w)?;
            }
        }
        Ok(m)
    }

    /// A fresh die: the distribution of one die's worth.
    pub fn fresh(&self) -> Result<Dist, OddsError> {
        self.mixture(|_| true)
    }

    fn push(&mut self, d: Dist) -> usize {
        self.bases.push(d);
        self.bases.len() - 1
    }

    /// Every face where `trigger` holds gets `base ⊗ extra` (memoized per old base).
    fn convolve_where(&mut self, trigger: impl Fn(u32) -> bool, extra: &Dist) -> Result<(), OddsError> {
        let mut memo: Vec<(usize, usize)> = Vec::new();
        for f in 1..=self.sides {
            if !trigger(f) {
                continue;
            }
            let (s, b) = self.per_face[(f - 1) as usize];
            let nb = match memo.iter().find(|(old, _)| *old == b) {
                Some(&(_, nb)) => nb,
                None => {
                    let d = self.bases[b].convolve(extra)?;
                    let nb = self.push(d);
                    memo.push((b, nb));
                    nb
                }
            };
            self.per_face[(f - 1) as usize] = (s, nb);
        }
        Ok(())
    }

    /// Put `stage` in front of the stages already folded in. `subtracted` is what an imploded
    /// die subtracts (the negative face for totals, 0 when counting successes).
    pub fn prepend(&mut self, stage: Stage, subtracted: &Dist) -> Result<(), OddsError> {
        match stage {
            Stage::Implode { at_most } => self.convolve_where(|f| f <= at_most, subtracted),
            Stage::Explode { at_least, indefinite } => {
                let trig = |f: u32| f >= at_least;
                let limit = if indefinite { MAX_CHAIN } else { 1 };
                let none = self.mixture(|f| !trig(f))?;
                let some = self.mixture(trig)?;
                // A die at chain position `limit` that meets the threshold stops: capped.
                let at_cap = if indefinite {
                    some.clone().all_capped()
                } else {
                    some.clone()
                };
                let mut c = none.clone();
                c.add_scaled(&at_cap, 0, 1.0)?;
                // C_k = N + T ⊗ C_{k+1}: the extra die at position k.
                for _ in 1..limit {
                    let mut next = none.clone();
                    next.add_scaled(&some.convolve(&c)?, 0, 1.0)?;
                    c = next;
                }
                self.convolve_where(trig, &c)
            }
            Stage::Reroll { cmp, value, until } => {
                let trig = |f: u32| cmp.test(i64::from(f), i64::from(value));
                let limit = if until { MAX_CHAIN } else { 1 };
                let none = self.mixture(|f| !trig(f))?;
                let some = self.mixture(trig)?;
                let p = some.mass();
                let at_cap = if until { some.all_capped() } else { some };
                let mut a = none.clone();
                a.add_scaled(&at_cap, 0, 1.0)?;
                // A_k = N + p · A_{k+1}: the replacement at position k.
                for _ in 1..limit {
                    let mut next = none.clone();
                    next.add_scaled(&a, 0, p)?;
                    a = next;
                }
                let nb = self.push(a);
                for f in 1..=self.sides {
                    if trig(f) {
                        self.per_face[(f - 1) as usize] = (0, nb);
                    }
                }
                Ok(())
            }
        }
    }

    /// The distribution of faces (not worth) after rerolls only, and the chance a die's chain
    /// was capped: for keep/drop, which ranks the faces. `stages` must hold rerolls only.
    pub fn faces_after_rerolls(sides: u32, stages: &[Stage]) -> (Vec<f64>, f64) {
        let s = sides as usize;
        let uniform = 1.0 / f64::from(sides);
        let mut pi = vec![uniform; s];
        let mut capped = 0.0;
        for stage in stages {
            let Stage::Reroll { cmp, value, until } = *stage else {
                continue;
            };
            let trig = |f: usize| cmp.test(f as i64 + 1, i64::from(value));
            let limit = if until { MAX_CHAIN } else { 1 };
            let p = (0..s).filter(|&i| trig(i)).count() as f64 * uniform;
            // A fresh die at chain position 1..=limit: F_k = U_none + p F_{k+1}, F_limit = U.
            let mut fresh: Vec<f64> = vec![uniform; s];
            let mut fresh_capped = if until { p } else { 0.0 };
            for _ in 1..limit {
                fresh = (0..s)
                    .map(|i| {
                        if trig(i) {
                            p * fresh[i]
                        } else {
                            uniform + p * fresh[i]
                        }
                    })
                    .collect();
                fresh_capped *= p;
            }
            let moved: f64 = (0..s).filter(|&i| trig(i)).map(|i| pi[i]).sum();
            capped += moved * fresh_capped;
            for (i, q) in pi.iter_mut().enumerate() {
                *q = if trig(i) { 0.0 } else { *q } + moved * fresh[i];
            }
        }
        (pi, capped)
    }
}

//! Where every random number comes from.
//!
//! Resolvers never touch an RNG directly: they take a [`Roller`], so any outcome can be replayed
//! with a seed ([`SeededRoller`]) or with exact faces ([`FixedRoller`]). Production uses
//! [`OsRoller`]. Whatever the source, wrap it in a [`Budget`] per command so the hard limits on
//! sides and dice hold even when explosions chain.

use std::collections::VecDeque;

use rand::distr::{Distribution, Uniform};
use rand::rngs::{ChaCha8Rng, StdRng, SysRng};
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::i18n::{Lang, Localized};

/// Most faces a die may have. d1000 covers every table we know of (BCDice allows 1000).
pub const MAX_SIDES: u32 = 1000;
/// Most dice one command may roll, explosions and rerolls included.
pub const MAX_DICE_PER_COMMAND: usize = 1000;

#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum DiceError {
    #[error("a die needs between 1 and {max} sides, not {sides}")]
    BadSides { sides: u32, max: u32 },
    #[error("at most {max} dice can be rolled in one command")]
    TooManyDice { max: usize },
    #[error("the fixed dice ran out after {rolled} dice")]
    FixedExhausted { rolled: usize },
    #[error("fixed face {face} does not fit a d{sides}")]
    FaceDoesNotFit { face: u32, sides: u32 },
    #[error("the system random source failed")]
    Entropy,
}

impl Localized for DiceError {
    fn localized(&self, lang: Lang) -> String {
        match (self, lang) {
            (DiceError::BadSides { sides, max }, Lang::En) => {
                format!("A die needs between 1 and {max} sides, not {sides}.")
            }
            (DiceError::BadSides { sides, max }, Lang::Ja) => {
                format!("ダイスの面数は1〜{max}です（{sides}面は振れません）。")
            }
            (DiceError::TooManyDice { max }, Lang::En) => {
                format!("At most {max} dice can be rolled in one command.")
            }
            (DiceError::TooManyDice { max }, Lang::Ja) => {
                format!("1回のコマンドで振れるダイスは{max}個までです。")
            }
            (DiceError::FixedExhausted { rolled }, Lang::En) => {
                format!("The fixed dice ran out after {rolled} dice.")
            }
            (DiceError::FixedExhausted { rolled }, Lang::Ja) => {
                format!("指定された出目が{rolled}個で尽きました。")
            }
            (DiceError::FaceDoesNotFit { face, sides }, Lang::En) => {
                format!("The fixed face {face} does not fit a d{sides}.")
            }
            (DiceError::FaceDoesNotFit { face, sides }, Lang::Ja) => {
                format!("指定された出目{face}はd{sides}にはありません。")
            }
            (DiceError::Entropy, Lang::En) => "The random source failed.".to_string(),
            (DiceError::Entropy, Lang::Ja) => "乱数源が使えません。".to_string(),
        }
    }
}

/// A source of die faces.
pub trait Roller {
    /// One die with `sides` faces: a value in `1..=sides`.
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError>;

    /// `count` dice of `sides` faces, in the order rolled.
    fn roll_many(&mut self, count: usize, sides: u32) -> Result<Vec<u32>, DiceError> {
        (0..count).map(|_| self.roll(sides)).collect()
    }
}

impl<R: Roller + ?Sized> Roller for &mut R {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        (**self).roll(sides)
    }
}

impl<R: Roller + ?Sized> Roller for Box<R> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        (**self).roll(sides)
    }
}

fn check_sides(sides: u32) -> Result<(), DiceError> {
    if sides == 0 || sides > MAX_SIDES {
        Err(DiceError::BadSides {
            sides,
            max: MAX_SIDES,
        })
    } else {
        Ok(())
    }
}

/// Any `rand` generator as a roller, sampling through one unbiased [`Uniform`] per die size.
#[derive(Debug, Clone)]
pub struct RngRoller<R> {
    rng: R,
    // Tables roll a handful of die sizes; a short list beats hashing.
    uniforms: Vec<(u32, Uniform<u32>)>,
}

impl<R: Rng> RngRoller<R> {
    pub fn new(rng: R) -> Self {
        RngRoller {
            rng,
            uniforms: Vec::new(),
        }
    }

    fn uniform(&mut self, sides: u32) -> Result<Uniform<u32>, DiceError> {
        if let Some((_, u)) = self.uniforms.iter().find(|(s, _)| *s == sides) {
            return Ok(*u);
        }
        check_sides(sides)?;
        let u = Uniform::new_inclusive(1, sides).map_err(|_| DiceError::BadSides {
            sides,
            max: MAX_SIDES,
        })?;
        self.uniforms.push((sides, u));
        Ok(u)
    }
}

impl<R: Rng> Roller for RngRoller<R> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        let u = self.uniform(sides)?;
        Ok(u.sample(&mut self.rng))
    }
}

/// Production: a ChaCha12 stream seeded from the operating system.
pub type OsRoller = RngRoller<StdRng>;
/// Reproducible: ChaCha8 from a `u64` seed, identical on every platform and release.
pub type SeededRoller = RngRoller<ChaCha8Rng>;

impl OsRoller {
    pub fn from_os() -> Result<Self, DiceError> {
        StdRng::try_from_rng(&mut SysRng)
            .map(RngRoller::new)
            .map_err(|_| DiceError::Entropy)
    }
}

impl SeededRoller {
    pub fn from_seed(seed: u64) -> Self {
        RngRoller::new(ChaCha8Rng::seed_from_u64(seed))
    }
}

/// Exact faces in the order they will be rolled; an error, never a panic, when a face does not
/// fit the die asked for or the list runs out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FixedRoller {
    faces: VecDeque<u32>,
    rolled: usize,
}

impl FixedRoller {
    pub fn new(faces: impl IntoIterator<Item = u32>) -> Self {
        FixedRoller {
            faces: faces.into_iter().collect(),
            rolled: 0,
        }
    }

    /// Faces not yet used.
    pub fn remaining(&self) -> usize {
        self.faces.len()
    }

    /// Queue more faces behind the ones left.
    pub fn extend(&mut self, faces: impl IntoIterator<Item = u32>) {
        self.faces.extend(faces);
    }
}

impl Roller for FixedRoller {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        check_sides(sides)?;
        let face = *self
            .faces
            .front()
            .ok_or(DiceError::FixedExhausted { rolled: self.rolled })?;
        if face == 0 || face > sides {
            return Err(DiceError::FaceDoesNotFit { face, sides });
        }
        self.faces.pop_front();
        self.rolled += 1;
        Ok(face)
    }
}

/// Enforces the per-command limits on any roller: sides within [`MAX_SIDES`], and no more than
/// the allowed number of dice however the rules chain (explosions, rerolls).
pub struct Budget<'a> {
    inner: &'a mut dyn Roller,
    rolled: usize,
    max: usize,
}

impl<'a> Budget<'a> {
    pub fn new(inner: &'a mut dyn Roller) -> Self {
        Self::with_max(inner, MAX_DICE_PER_COMMAND)
    }

    pub fn with_max(inner: &'a mut dyn Roller, max: usize) -> Self {
        Budget {
            inner,
            rolled: 0,
            max,
        }
    }

    pub fn rolled(&self) -> usize {
        self.rolled
    }
}

impl Roller for Budget<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        check_sides(sides)?;
        if self.rolled >= self.max {
            return Err(DiceError::TooManyDice { max: self.max });
        }
        let face = self.inner.roll(sides)?;
        self.rolled += 1;
        Ok(face)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_output_is_stable_run_to_run() {
        let a = SeededRoller::from_seed(42).roll_many(20, 6).unwrap();
        let b = SeededRoller::from_seed(42).roll_many(20, 6).unwrap();
        assert_eq!(a, b);
        let c = SeededRoller::from_seed(43).roll_many(20, 6).unwrap();
        assert_ne!(a, c, "different seeds should give different streams");
        // Pinned: a change of generator or sampling would silently change every replay.
        assert_eq!(
            SeededRoller::from_seed(7).roll_many(10, 6).unwrap(),
            pinned_seed7()
        );
    }

    fn pinned_seed7() -> Vec<u32> {
        // Recorded from ChaCha8 seed 7 through Uniform(1..=6); see the test above.
        vec![1, 1, 2, 2, 2, 5, 1, 5, 1, 4]
    }

    #[test]
    fn fixed_roller_returns_faces_then_errors_when_exhausted() {
        let mut r = FixedRoller::new([3, 4]);
        assert_eq!(r.roll(6), Ok(3));
        assert_eq!(r.roll(6), Ok(4));
        assert_eq!(r.roll(6), Err(DiceError::FixedExhausted { rolled: 2 }));
    }

    #[test]
    fn fixed_roller_rejects_a_face_that_does_not_fit() {
        let mut r = FixedRoller::new([7, 2]);
        assert_eq!(r.roll(6), Err(DiceError::FaceDoesNotFit { face: 7, sides: 6 }));
        // The face is not consumed by the failed roll.
        assert_eq!(r.remaining(), 2);
        let mut z = FixedRoller::new([0]);
        assert_eq!(z.roll(6), Err(DiceError::FaceDoesNotFit { face: 0, sides: 6 }));
    }

    #[test]
    fn sides_outside_the_limits_are_errors() {
        let mut r = SeededRoller::from_seed(1);
        assert_eq!(
            r.roll(0),
            Err(DiceError::BadSides {
                sides: 0,
                max: MAX_SIDES
            })
        );
        assert_eq!(
            r.roll(MAX_SIDES + 1),
            Err(DiceError::BadSides {
                sides: MAX_SIDES + 1,
                max: MAX_SIDES
            })
        );
        assert!(r.roll(MAX_SIDES).is_ok());
        assert_eq!(r.roll(1), Ok(1));
    }

    #[test]
    fn budget_caps_dice_per_command() {
        let mut seeded = SeededRoller::from_seed(1);
        let mut b = Budget::with_max(&mut seeded, 3);
        assert!(b.roll_many(3, 6).is_ok());
        assert_eq!(b.roll(6), Err(DiceError::TooManyDice { max: 3 }));
        assert_eq!(b.rolled(), 3);
    }

    #[test]
    fn os_roller_rolls_in_range() {
        let mut r = OsRoller::from_os().unwrap();
        for _ in 0..1000 {
            let f = r.roll(20).unwrap();
            assert!((1..=20).contains(&f));
        }
    }

    /// Pearson chi-square of `n` rolls of a d`sides` against the uniform distribution.
    fn chi_square(sides: u32, n: usize, seed: u64) -> f64 {
        let mut counts = vec![0usize; sides as usize];
        let mut r = SeededRoller::from_seed(seed);
        for _ in 0..n {
            counts[(r.roll(sides).unwrap() - 1) as usize] += 1;
        }
        let expected = n as f64 / sides as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    #[test]
    fn d6_faces_are_uniform_over_60000_rolls() {
        // 5 degrees of freedom: the 0.001 critical value is 20.515.
        let x2 = chi_square(6, 60_000, 2026);
        assert!(x2 < 20.515, "chi-square {x2} rejects uniformity of the d6");
    }

    #[test]
    fn d20_faces_are_uniform_over_60000_rolls() {
        // 19 degrees of freedom: the 0.001 critical value is 43.820.
        let x2 = chi_square(20, 60_000, 2026);
        assert!(x2 < 43.820, "chi-square {x2} rejects uniformity of the d20");
    }

    #[test]
    fn errors_are_localized() {
        let e = DiceError::FixedExhausted { rolled: 2 };
        assert!(e.localized(Lang::En).contains("ran out"));
        assert!(e.localized(Lang::Ja).contains("尽きました"));
    }
}

//! Technomancers: threading complex forms and compiling sprites, with fading (seed 6.1, 6.4).

use serde::{Deserialize, Serialize};

use super::dice::EdgeAfter;
use super::error::{Quantity, RuleError, check_range};
use super::magic::{DrainOutcome, MAX_MAGIC, check_force, drain_type, resist_drain};
use super::test_kinds::{RollSpec, Rolled, roll};
use crate::dice::Roller;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadRequest {
    /// Resonance + Software ± modifiers (seed 6.1 step 3).
    pub thread: RollSpec,
    /// The complex form's rating before threading.
    pub base_rating: u32,
    pub resonance: u32,
    /// Willpower + Resonance (no wound or sustaining modifiers).
    pub fading: RollSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreadOutcome {
    pub thread: Rolled,
    pub hits: u32,
    pub base_rating: u32,
    /// Rating after threading: +1 per hit, at most Resonance × 2.
    pub rating: u32,
    pub gained: u32,
    /// Twice Resonance: the rating's ceiling (0 in outcomes stored before it was kept, which
    /// then write back as they were stored).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub max_rating: u32,
    /// Fading = rating gained; Physical when the rating > Resonance.
    pub fading: DrainOutcome,
}

/// Seed 6.1: a success test whose hits raise the rating, then fading.
pub fn thread(req: &ThreadRequest, roller: &mut impl Roller) -> Result<ThreadOutcome, RuleError> {
    check_range(
        Quantity::Resonance,
        i64::from(req.resonance),
        1,
        i64::from(MAX_MAGIC),
    )?;
    let max = 2 * req.resonance;
    check_range(Quantity::Rating, i64::from(req.base_rating), 0, i64::from(max))?;
    let thread = roll(&req.thread, roller)?;
    let hits = thread.hits();
    let rating = (req.base_rating + hits).min(max);
    let gained = rating - req.base_rating;
    let fading = resist_drain(gained, drain_type(rating, req.resonance), &req.fading, roller)?;
    Ok(ThreadOutcome {
        thread,
        hits,
        base_rating: req.base_rating,
        rating,
        gained,
        max_rating: max,
        fading,
    })
}

impl ThreadOutcome {
    /// Edge after the roll acts on the threading dice. More hits raise the rating and with it
    /// the fading: a fading roll already made keeps its hits against the new value, and one
    /// not made yet (nothing gained before) is rolled now with `req.fading`.
    pub fn with_edge_after(
        &self,
        req: &ThreadRequest,
        action: EdgeAfter,
        roller: &mut impl Roller,
    ) -> Result<ThreadOutcome, RuleError> {
        let thread = self.thread.with_edge_after(action, roller)?;
        let hits = thread.hits();
        let max = 2 * req.resonance;
        let rating = (self.base_rating + hits).min(max).max(self.base_rating);
        let gained = rating - self.base_rating;
        let damage_type = drain_type(rating, req.resonance);
        let fading = match &self.fading.roll {
            Some(_) => {
                let mut f = self.fading.clone();
                f.value = gained;
                f.damage_type = damage_type;
                f.boxes = gained.saturating_sub(f.hits);
                f
            }
            None => resist_drain(gained, damage_type, &req.fading, roller)?,
        };
        Ok(ThreadOutcome {
            thread,
            hits,
            base_rating: self.base_rating,
            rating,
            gained,
            max_rating: max,
            fading,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileRequest {
    /// Resonance + Compiling ± modifiers (seed 6.4 step 4a).
    pub compile: RollSpec,
    pub rating: u32,
    pub resonance: u32,
    pub fading: RollSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompileOutcome {
    pub compile: Rolled,
    /// The sprite's rating dice.
    pub sprite: Rolled,
    pub technomancer_hits: u32,
    pub sprite_hits: u32,
    pub net_hits: i64,
    pub compiled: bool,
    /// One task per net hit.
    pub tasks: u32,
    /// Sprite hits × 2, at least 2; Physical when the rating > Resonance.
    pub fading: DrainOutcome,
}

/// Seed 6.4: Resonance + Compiling against the sprite's rating.
pub fn compile(req: &CompileRequest, roller: &mut impl Roller) -> Result<CompileOutcome, RuleError> {
    check_force(req.rating, req.resonance, Quantity::Rating)?;
    let compile = roll(&req.compile, roller)?;
    let sprite = roll(&RollSpec::dice(req.rating as i32), roller)?;
    let (technomancer_hits, sprite_hits) = (compile.hits(), sprite.hits());
    let net_hits = i64::from(technomancer_hits) - i64::from(sprite_hits);
    let fading = resist_drain(
        (sprite_hits * 2).max(2),
        drain_type(req.rating, req.resonance),
        &req.fading,
        roller,
    )?;
    Ok(CompileOutcome {
        compile,
        sprite,
        technomancer_hits,
        sprite_hits,
        net_hits,
        compiled: net_hits > 0,
        tasks: u32::try_from(net_hits.max(0)).unwrap_or(0),
        fading,
    })
}

impl CompileOutcome {
    /// Edge after the roll acts on the technomancer's dice; the sprite's dice and the fading
    /// (set by the sprite's hits) stay as rolled.
    pub fn with_edge_after(
        &self,
        action: EdgeAfter,
        roller: &mut impl Roller,
    ) -> Result<CompileOutcome, RuleError> {
        let compile = self.compile.with_edge_after(action, roller)?;
        let technomancer_hits = compile.hits();
        let net_hits = i64::from(technomancer_hits) - i64::from(self.sprite_hits);
        Ok(CompileOutcome {
            compile,
            technomancer_hits,
            net_hits,
            compiled: net_hits > 0,
            tasks: u32::try_from(net_hits.max(0)).unwrap_or(0),
            ..self.clone()
        })
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::shadowrun4::terms::DamageType;

    fn fixed(f: &[u32]) -> FixedRoller {
        FixedRoller::new(f.iter().copied())
    }

    #[test]
    fn threading_raises_the_rating_up_to_twice_resonance() {
        let req = ThreadRequest {
            thread: RollSpec::dice(4),
            base_rating: 3,
            resonance: 4,
            fading: RollSpec::dice(2),
        };
        // 1 hit: rating 4 = Resonance → Stun fading 1.
        let o = thread(&req, &mut fixed(&[5, 2, 2, 2, 2, 2])).unwrap();
        assert_eq!((o.rating, o.gained), (4, 1));
        assert_eq!(
            (o.fading.value, o.fading.damage_type, o.fading.boxes),
            (1, DamageType::Stun, 1)
        );
        // 2 hits: rating 5 > Resonance → Physical.
        let o = thread(&req, &mut fixed(&[5, 5, 2, 2, 5, 2])).unwrap();
        assert_eq!(
            (o.rating, o.fading.damage_type, o.fading.boxes),
            (5, DamageType::Physical, 1)
        );
        // 4 hits from rating 6: capped at 8.
        let high = ThreadRequest {
            base_rating: 6,
            ..req
        };
        let o = thread(&high, &mut fixed(&[5, 5, 5, 5, 2, 2])).unwrap();
        assert_eq!((o.rating, o.gained), (8, 2));
    }

    #[test]
    fn compiling_gives_tasks_and_fading() {
        let req = CompileRequest {
            compile: RollSpec::dice(4),
            rating: 5,
            resonance: 4,
            fading: RollSpec::dice(3),
        };
        // 3 hits against sprite 1 hit: 2 tasks; fading max(2, 2) = 2, Physical (5 > 4).
        let o = compile(&req, &mut fixed(&[5, 6, 5, 1, 5, 2, 2, 2, 2, 2, 2, 2])).unwrap();
        assert_eq!((o.tasks, o.compiled), (2, true));
        assert_eq!((o.fading.value, o.fading.damage_type), (2, DamageType::Physical));
        assert!(compile(&CompileRequest { rating: 9, ..req }, &mut fixed(&[])).is_err());
    }
}

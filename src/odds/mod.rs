//! Exact odds of a roll before it is made (issue 16, `/odds`).
//!
//! Everything here is computed, never simulated: distributions are convolutions and dynamic
//! programs over the same rules the resolvers apply, with explosions and reroll chains stopped at
//! the same caps as the roller (the mass that reaches a cap is reported). Inputs beyond the
//! roller's limits, or too large to compute within the time budget, are refused before any work.
//!
//! Entry points, one per rules family; a system adds its odds here beside its resolver, and the
//! registry reaches them by these names:
//! - [`roll_odds`]: any `/roll` command with one numeric result (the Dice Maiden and BCDice
//!   notation of [`crate::notation`]);
//! - [`shadowrun4_odds`]: Shadowrun 4 success and opposed tests, with Edge pushed;
//! - [`badlands_rally_odds`]: Badlands Rally checks, margins and weapon damage;
//! - [`warmachine_odds`]: Warmachine attack rolls (automatic hits and misses, criticals) and
//!   damage rolls through ARM, with the chance to fill the boxes left;
//! - [`mecha_d20_odds`]: the d20 mecha RPG's attack against evasion (natural 20s, ties, facing)
//!   and a hit's damage and critical;
//! - [`terminator_odds`]: Terminator Genisys attacks, target by target: hits, cover saves,
//!   damage against armour and Damage limit, I'll Be Back, resolution tests;
//! - [`chance_at_least_as_good`]: the luck of a logged roll (issue 28), from the same
//!   distributions.
//!
//! Modules: [`dist`] (the distribution type and its exact operations), `faces` (a die's worth
//! after explode / implode / reroll), `keep` (keep/drop and advantage by order statistics),
//! `explode_keep` (keep/drop over one explosion), `pool_keep` (keep/drop over any other stages,
//! and advantage before them), `notation`, `shadowrun4`, `badlands_rally`, `warmachine`, `mecha_d20`, `terminator`,
//! [`error`].
//! Benchmarks: `cargo bench -p saikoro --bench odds`.

pub mod badlands_rally;
mod bcdice;
pub mod dist;
pub mod error;
mod explode_keep;
mod faces;
mod keep;
pub mod luck;
pub mod mecha_d20;
pub mod notation;
mod pool_keep;
pub mod shadowrun4;
pub mod terminator;
pub mod warmachine;

pub use badlands_rally::{RallyOdds, RallyRequest, badlands_rally_odds};
pub use badlands_rally::{RallyTraits, badlands_rally_odds_with};
pub use dist::Dist;
pub use error::{OddsError, OddsInput};
pub use luck::{Chance, LuckError, LuckInput, LuckRoll, SrPool, chance_at_least_as_good};
pub use mecha_d20::{Decisions, MechaDamageOdds, MechaOdds, MechaRequest, mecha_d20_odds};
pub use notation::{Measure, RollOdds, roll_odds};
pub use shadowrun4::{PoolOdds, Sr4Odds, Sr4Request, shadowrun4_odds};
pub use terminator::{TargetOdds, TerminatorOdds, TestOdds, terminator_odds};
pub use warmachine::{
    WarmachineOdds, WarmachineRequest, WmAttack, WmAttackOdds, WmDamage, WmDamageOdds, WmDice,
    warmachine_odds,
};

#[cfg(test)]
mod tests;

//! Exact odds of a roll before it is made (issue 16, `/odds`).
//!
//! Everything here is computed, never simulated: distributions are convolutions and dynamic
//! programs over the same rules the resolvers apply, with explosions and reroll chains stopped at
//! the same caps as the roller (the mass that reaches a cap is reported). Inputs beyond the
//! roller's limits, or too large to compute within the time budget, are refused before any work.
//!
//! Entry points: [`roll_odds`] for any `/roll` command with one numeric result (the Dice Maiden
//! and BCDice notation of [`crate::notation`]); each game system's own odds live in its folder
//! (`systems::<key>::odds`, e.g. `systems::shadowrun4::odds::shadowrun4_odds`) beside its
//! resolvers, built on [`Dist`], and the registry lists them
//! ([`SystemRules::odds`](crate::systems::rules::SystemRules::odds)).
//! [`chance_at_least_as_good`] ([`luck`]): the luck of a logged roll (issue 28), from the same
//! distributions.
//!
//! Modules: [`dist`] (the distribution type and its exact operations), `faces` (a die's worth
//! after explode / implode / reroll), `keep` (keep/drop and advantage by order statistics),
//! `explode_keep` (keep/drop over one explosion), `pool_keep` (keep/drop over any other stages,
//! and advantage before them), `notation`, [`error`].
//! Benchmarks: `cargo bench -p saikoro --bench odds`.

mod bcdice;
pub mod dist;
pub mod error;
mod explode_keep;
mod faces;
mod keep;
pub mod luck;
pub mod notation;
mod pool_keep;

pub use dist::Dist;
pub use error::{OddsError, OddsInput, Refusal, SystemRefusal};
pub use luck::{Chance, LuckError, LuckInput, LuckRoll, SrPool, chance_at_least_as_good};
pub use notation::{Measure, RollOdds, roll_odds};

#[cfg(test)]
mod tests;

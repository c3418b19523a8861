//! Warmachine Mk IV (seed 002, decisions in shared/rules/warmachine.md).
//!
//! The seed covers rule priority, effect stacking, active and inactive players, triggers, "any
//! time" rules, open records, the dispute roll-off and distances; the attack, damage, boost,
//! critical and d3 rolls are the game's standard ones (decisions). Every die comes from a
//! [`Roller`](crate::dice::Roller), so any outcome replays with fixed dice.
//!
//! Modules: [`dice`] (2d6, boost, additional dice, discards, criticals, automatic results, d3),
//! [`attack`], [`damage`], [`effects`] (named effects, instances, stacking, cannot-flags,
//! presets), [`model`] (stats, weapons, boxes, state), [`sheet`] (`/char`), [`rolloff`]
//! (disputes), [`turn`] (turns, activations, roles, "any time" rules), [`triggers`] (the queue),
//! [`state`] (session state, rulings), [`distance`] (helpers), [`players`] (players are Discord
//! members), [`rules`] (the registry entry).
//! Benchmarks: `cargo bench -p saikoro --bench warmachine`.

pub mod attack;
pub mod damage;
pub mod dice;
pub mod distance;
pub mod effects;
pub mod error;
pub mod evenings;
pub mod flags;
pub mod model;
pub mod odds;
pub mod players;
pub mod rolloff;
pub mod rules;
pub mod sheet;
pub mod sheet_decl;
pub mod state;
pub mod triggers;
pub mod turn;

#[cfg(test)]
mod scenario;

pub use attack::{AttackOptions, AttackOutcome, AttackRequest, resolve_attack};
pub use damage::{DamageOutcome, DamageRequest, PowSource, resolve_damage};
pub use dice::{DiceRequest, Discard, DiscardWhich};
pub use effects::{CannotFlag, EffectSpec, Expiry, Stat, StatChange};
pub use error::RuleError;
pub use model::{AttackKind, Model, ModelStatus, StateRequest, Weapon};
pub use rolloff::{RollOffOutcome, roll_off};
pub use state::WarmachineState;

//! The d20 mecha RPG (seed 004, decisions in shared/rules/mecha_d20.md): pilots in armed suits
//! (兵装) on a hex map, every check a d20.
//!
//! Checks live in [`check`]; attack against evasion, facing, range and arcs in [`attack`];
//! damage, multipliers and criticals in [`damage`]; the secondary-damage table in [`secondary`];
//! fatigue, faint and escape in [`survival`]; initiative in [`initiative`]; movement in
//! [`movement`]. A roster entry is a [`unit::Unit`] (pilot and suit), typed in through [`sheet`];
//! the battle a session keeps (turn, phase, held damage, the application phase, waiting checks)
//! is [`state::MechaState`]. Every random number comes from a [`Roller`](crate::dice::Roller).
//! Benchmarks: `cargo bench -p saikoro --bench mecha_d20`.

pub mod attack;
pub mod check;
pub mod damage;
pub mod error;
pub mod evenings;
pub mod initiative;
pub mod movement;
pub mod odds;
pub mod rules;
pub mod secondary;
pub mod sheet;
pub mod sheet_decl;
pub mod state;
pub mod survival;
pub mod unit;
pub mod weapon_sheet;

#[cfg(test)]
mod scenario;

pub use attack::{StrikeOutcome, UnitAttack, strike};
pub use error::RuleError;
pub use rules::{MechaD20Rules, MechaOptions};
pub use state::{MechaState, Phase};
pub use unit::Unit;

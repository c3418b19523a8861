//! Terminator Genisys: The Miniatures Game (seed 003, decisions in shared/rules/terminator.md):
//! the Resistance against Skynet's machines, every roll a die of the ladder D4…D20.
//!
//! The dice (ladder, Fate die, tactical roll-off) live in [`dice`]; range bands and weapons in
//! [`weapon`]; §2's profiles and the session's own in [`profile`]; a roster entry is a
//! [`character::Character`], typed in through [`sheet`]; the attack sequence, from the attack
//! roll to resolution tests and I'll Be Back, in [`attack`]; the turn (impulses, commanders,
//! End Turn, On Your Feet) in [`turn`]; what a session keeps in [`state::TerminatorState`].
//! Every random number comes from a [`Roller`](crate::dice::Roller).
//! Benchmarks: `cargo bench -p saikoro --bench terminator`.

pub mod attack;
pub mod character;
pub mod dice;
pub mod error;
pub mod evenings;
pub mod odds;
pub mod options;
pub mod profile;
pub mod rules;
pub mod sheet;
pub mod sheet_decl;
pub mod state;
pub mod turn;
pub mod weapon;

#[cfg(test)]
mod scenario;

pub use attack::{AttackRequest, AttackRun, Stage, TargetStats, Waiting, resolve_attack};
pub use character::{Character, Removal, characters_of, write_characters};
pub use dice::{Die, FateDie, FateFace};
pub use error::RuleError;
pub use profile::{Library, Profile};
pub use rules::{TerminatorOptions, TerminatorRules, options};
pub use state::{AttackOrder, AttackReport, Phase, TerminatorState};
pub use turn::Next;
pub use weapon::{Band, Weapon};

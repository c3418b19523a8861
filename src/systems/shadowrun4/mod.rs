//! Shadowrun 4th edition (seed 001, decisions in shared/rules/shadowrun4.md).
//!
//! Every resolver takes a request and a [`Roller`](crate::dice::Roller) and returns an outcome
//! that keeps every die in roll order and every derived fact; character state is plain serde
//! data changed by pure transitions. Hits, glitches and critical glitches agree with BCDice's
//! ShadowRun4 system on the same dice (see [`dice`]).
//!
//! Modules: [`dice`] (hits, glitch, rule of six, Edge after the roll, BCDice reading),
//! [`test_kinds`] (success, opposed, extended, teamwork, buying hits, long shot),
//! [`character`] (sheet, Edge, condition monitors), [`modifiers`] (presets), [`pool`],
//! [`initiative`] (and surprise), [`combat`], [`magic`] (spells, counterspelling, dispelling, summoning), [`resonance`], [`matrix`], [`rigging`].
//! [`terms`] holds the words several of them share (attributes, damage types, pool parts, range
//! bands, quantities) and imports none of them, so the modules form no import cycle.
//! Benchmarks: `cargo bench -p saikoro --bench shadowrun4`.

pub mod bcdice;
pub mod character;
pub mod combat;
pub mod dice;
pub mod error;
pub mod evenings;
pub mod initiative;
pub mod magic;
pub mod matrix;
pub mod modifiers;
pub mod odds;
pub mod pool;
pub mod resonance;
pub mod rigging;
pub mod rules;
pub mod session_state;
pub mod sheet;
pub mod sheet_decl;
pub mod skill_names;
pub mod terms;
pub mod test_kinds;

pub use character::{Attributes, Character, Condition};
pub use dice::{EdgeAfter, Glitch, PoolRoll, read_faces};
pub use error::RuleError;
pub use modifiers::PresetChoice;
pub use pool::DicePool;
pub use terms::{Attribute, DamageType};
pub use test_kinds::{EdgeBefore, RollSpec, Rolled};

//! Heavy Gear: Badlands Rally (seed 000, decisions in shared/rules/badlands_rally.md).
//!
//! Dice live in [`roll`] (Roll and Check), attacks in [`attack`], damage in [`damage`], a gear's
//! sheet in [`gear_sheet`], its tracked data in [`gear_state`], the two together in [`gear`], the
//! per-gear state machine in [`state`] (on [`gear::Gear`]), special moves and actions in
//! [`moves`], the race (initiative, laps, victory, the race-level attack) in [`race`], the
//! seed's datacards in [`datacards`] and the scenario and upgrade tables in [`tables`].

pub mod attack;
pub mod damage;
pub mod datacards;
pub mod error;
pub mod evenings;
pub mod gear;
pub mod gear_sheet;
pub mod gear_state;
pub mod moves;
pub mod odds;
pub mod race;
pub mod race_facts;
pub mod roll;
pub mod rules;
pub mod session_race;
pub mod sheet;
pub mod sheet_decl;
pub mod state;
pub mod tables;

pub use error::RuleError;
pub use gear::{Gear, GearSheet, GearStatus};

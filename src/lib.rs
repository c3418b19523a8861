//! Saikoro's rules engine: pure and synchronous. No I/O, no Discord types; every random number
//! comes from a [`dice::Roller`] passed in, so any outcome can be replayed with fixed dice.

pub mod dice;
pub mod i18n;
pub mod notation;
pub mod odds;
pub mod session;
pub mod systems;

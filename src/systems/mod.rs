//! One module per tabletop system, joined to the rest through [`registry`] (the one list of
//! systems) and the [`rules::SystemRules`] each implements. Each resolver is
//! `fn resolve(req: &Request, roller: &mut impl Roller) -> Result<Outcome, RuleError>`.

pub mod badlands_rally;
pub mod bounds;
pub mod field_names;
pub mod generic;
pub mod mecha_d20;
pub mod registry;
pub mod rules;
pub mod shadowrun4;
pub mod sheet;
pub mod sheet_decl;
pub mod sheet_error;
pub mod sheet_file;
pub mod sheet_show;
pub mod terminator;
pub mod warmachine;

pub use registry::{SystemId, UnknownSystem, rules};

//! One module per tabletop system. Each resolver is
//! `fn resolve(req: &Request, roller: &mut impl Roller) -> Result<Outcome, RuleError>`.

pub mod badlands_rally;
pub mod shadowrun4;
pub mod sheet;

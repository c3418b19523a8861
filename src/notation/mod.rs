//! `/roll` dice notation: Dice Maiden and BCDice, as described in `shared/notation.md`.
//!
//! [`parse`] checks the input and every cap before a die is rolled; [`Parsed::roll`] rolls it;
//! [`evaluate`] does both. The outcome keeps every die in roll order with its marks.

mod alias;
pub(crate) mod arith;
pub(crate) mod ast;
mod bcdice;
mod cursor;
mod d20;
mod dice_maiden;
mod error;
mod eval;
mod expr;
pub mod limits;
mod outcome;
mod parse;
mod parse_bcdice;

pub use ast::Parsed;
pub use error::{Expected, Hint, NotationError};
pub use outcome::{
    CmpOp, DiceGroup, Die, Flags, Kind, Origin, RollLine, RollOutcome, Status, TallyCount, Target, Verdict,
};
pub use parse::parse;

use crate::dice::Roller;

/// Parse `input` and roll it.
pub fn evaluate(input: &str, roller: &mut dyn Roller) -> Result<RollOutcome, NotationError> {
    parse(input)?.roll(roller)
}

//! Caps that bound the time and memory one command can cost. All are checked by `parse`,
//! before any die is rolled.

pub use crate::dice::{MAX_DICE_PER_COMMAND, MAX_SIDES};

/// Longest input, in characters (a Discord option allows far more than any roll needs).
pub const MAX_INPUT_CHARS: usize = 500;
/// Rolls joined by `;`.
pub const MAX_ROLLS: usize = 4;
/// Dice Maiden sets `6 4d6`.
pub const MIN_SETS: u32 = 2;
pub const MAX_SETS: u32 = 20;
/// BCDice `x5` / `rep5` / `repeat5`.
pub const MAX_REPEAT: u32 = 20;
/// Items in a `choice`.
pub const MAX_CHOICE_ITEMS: usize = 100;
/// Extra dice one die may chain (indefinite explosions, reroll-until, BCDice R and U): past this
/// the chain stops and the roll is marked `capped`.
pub const MAX_CHAIN: u32 = 10;
/// Parentheses and unary signs nested in one expression.
pub const MAX_DEPTH: usize = 16;
/// Operands (numbers and dice groups) in one expression.
pub const MAX_TERMS: usize = 50;
/// Largest number literal.
pub const MAX_NUMBER: u64 = 1_000_000_000;
/// Faces a tally (`NTYx`) may count; every face gets a line.
pub const MAX_TALLY_SIDES: u32 = 20;

/// Worst-case dice accounting, saturating so absurd inputs stay absurd rather than wrapping.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cost {
    /// Dice that may be rolled in total.
    pub rolled: u64,
    /// Dice still in play (keep/drop sees these).
    pub pool: u64,
}

impl Cost {
    pub fn base(n: u64) -> Self {
        Cost { rolled: n, pool: n }
    }
    /// Every die in play may roll `extra` more that stay in play (explosions).
    pub fn grow(self, extra: u64) -> Self {
        let added = self.pool.saturating_mul(extra);
        Cost {
            rolled: self.rolled.saturating_add(added),
            pool: self.pool.saturating_add(added),
        }
    }
    /// Every die in play may roll `extra` more that replace it or leave play (rerolls, implosion).
    pub fn replace(self, extra: u64) -> Self {
        Cost {
            rolled: self.rolled.saturating_add(self.pool.saturating_mul(extra)),
            pool: self.pool,
        }
    }
}

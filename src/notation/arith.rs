//! Checked integer arithmetic: overflow and division by zero are errors, never panics or wraps.

use super::ast::{Expr, Op, Rounding};
use super::error::NotationError;

/// Evaluate `expr`, reading dice group `i` as `dice[i]`.
pub(crate) fn eval(expr: &Expr, dice: &[i64], rounding: Rounding) -> Result<i64, NotationError> {
    match expr {
        Expr::Num(n) => Ok(*n),
        // The parser only builds indices of groups it pushed.
        Expr::Dice(i) => Ok(dice.get(*i).copied().unwrap_or(0)),
        Expr::Neg { at, inner } => eval(inner, dice, rounding)?
            .checked_neg()
            .ok_or(NotationError::Overflow { at: *at }),
        Expr::Bin { op, at, lhs, rhs } => {
            let (a, b) = (eval(lhs, dice, rounding)?, eval(rhs, dice, rounding)?);
            let at = *at;
            match op {
                Op::Add => a.checked_add(b).ok_or(NotationError::Overflow { at }),
                Op::Sub => a.checked_sub(b).ok_or(NotationError::Overflow { at }),
                Op::Mul => a.checked_mul(b).ok_or(NotationError::Overflow { at }),
                Op::Div => divide(a, b, rounding, at),
            }
        }
    }
}

/// `a / b` rounded down (toward negative infinity), up, or half up.
pub(crate) fn divide(a: i64, b: i64, rounding: Rounding, at: usize) -> Result<i64, NotationError> {
    if b == 0 {
        return Err(NotationError::DivisionByZero { at });
    }
    // i128 holds every intermediate of two i64s exactly.
    let (mut a, mut b) = (i128::from(a), i128::from(b));
    if b < 0 {
        (a, b) = (-a, -b);
    }
    let q = match rounding {
        Rounding::Down => a.div_euclid(b),
        Rounding::Up => -(-a).div_euclid(b),
        Rounding::HalfUp => (2 * a + b).div_euclid(2 * b),
    };
    i64::try_from(q).map_err(|_| NotationError::Overflow { at })
}

/// Sum of faces, checked.
pub(crate) fn add(a: i64, b: i64) -> Result<i64, NotationError> {
    a.checked_add(b).ok_or(NotationError::Overflow { at: 1 })
}

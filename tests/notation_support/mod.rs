//! What every notation test file rolls with: an input and exactly the faces it must use.
#![allow(dead_code)] // each test file uses the part it needs

use saikoro::dice::FixedRoller;
use saikoro::notation::{DiceGroup, RollLine, RollOutcome, evaluate};

/// Roll with exactly these faces: all must be used.
pub fn roll(input: &str, faces: &[u32]) -> RollOutcome {
    let mut r = FixedRoller::new(faces.iter().copied());
    let o = evaluate(input, &mut r).unwrap_or_else(|e| panic!("{input}: {e}"));
    assert_eq!(r.remaining(), 0, "{input}: faces left over");
    o
}

/// The one line of a roll.
pub fn line(o: &RollOutcome) -> &RollLine {
    assert_eq!(o.lines.len(), 1);
    &o.lines[0]
}

pub fn total(input: &str, faces: &[u32]) -> i64 {
    line(&roll(input, faces)).total.unwrap()
}

pub fn group(input: &str, faces: &[u32]) -> DiceGroup {
    line(&roll(input, faces)).groups[0].clone()
}

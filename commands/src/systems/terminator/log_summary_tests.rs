//! Each logged Terminator roll's luck, built by the engine's own roll with fixed dice and read
//! through the odds engine against a chance counted by hand.

use engine::dice::FixedRoller;
use engine::odds::{Chance, chance_at_least_as_good};
use engine::systems::terminator::attack::{cover_saves, damage_roll, ill_be_back, resolution_tests};
use engine::systems::terminator::dice::{Die, roll_ladder};

use crate::log_line::LogSummary;

fn chance(o: &impl LogSummary) -> Chance {
    chance_at_least_as_good(&o.luck().expect("a luck input")).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn ill_be_back_counts_the_five_and_six_alike() {
    // 5 on the d6 crawls: 5 or 6, 2/6. A 6 is no luckier (it crawls just the same).
    let r = ill_be_back(&mut FixedRoller::new([5])).unwrap();
    assert!(close(chance(&r).at_least, 2.0 / 6.0));
    let r = ill_be_back(&mut FixedRoller::new([6])).unwrap();
    assert!(close(chance(&r).at_least, 2.0 / 6.0));
    // 3: killed for good; every result is at least as good, and 4/6 as bad or worse.
    let c = chance(&ill_be_back(&mut FixedRoller::new([3])).unwrap());
    assert!(close(c.at_least, 1.0) && close(c.at_most, 4.0 / 6.0), "{c:?}");
}

#[test]
fn cover_saves_are_the_targets_fours_and_up() {
    // Three hits, saves 4, 1, 6: 2 saved. P(≥ 2 of 3 at 1/2) = (3 + 1)/8.
    let s = cover_saves(3, &mut FixedRoller::new([4, 1, 6])).unwrap();
    assert_eq!(s.saved, 2);
    assert!(close(chance(&s).at_least, 0.5));
    // No hit, no die, no luck.
    assert!(
        cover_saves(0, &mut FixedRoller::new([]))
            .unwrap()
            .luck()
            .is_none()
    );
}

#[test]
fn the_damage_roll_counts_dice_at_or_over_the_armour() {
    // Two D10 against armour 8: 9 and 3, one damaging. P(≥ 1) = 1 − (7/10)² = 0.51.
    let d = damage_roll(Die::D10, 2, 8, None, &mut FixedRoller::new([9, 3])).unwrap();
    assert!(close(chance(&d).at_least, 0.51));
    // Armour 12 on a D10: nothing can damage, the 0 is certain: no luck to measure.
    let d = damage_roll(Die::D10, 1, 12, None, &mut FixedRoller::new([10])).unwrap();
    assert!(d.luck().is_none());
}

#[test]
fn resolution_tests_rank_calm_above_reeling_above_retreat() {
    // D6, 3 then 6: one Reeling. At least as good: no 1 and at most one 2–5 over two dice:
    // (1/6)² + 2·(4/6)(1/6) = 9/36.
    let r = resolution_tests(Die::D6, 2, false, &mut FixedRoller::new([3, 6])).unwrap();
    assert!(close(chance(&r).at_least, 9.0 / 36.0));
    // 2 then 1: Retreat!, the worst: everything is at least as good; as bad: any 1, 1 − (5/6)².
    let r = resolution_tests(Die::D6, 2, false, &mut FixedRoller::new([2, 1])).unwrap();
    let c = chance(&r);
    assert!(close(c.at_least, 1.0) && close(c.at_most, 11.0 / 36.0), "{c:?}");
    // A first 1 skips the second test: still two tests owed, the same roll.
    let r = resolution_tests(Die::D6, 2, false, &mut FixedRoller::new([1])).unwrap();
    assert!(close(chance(&r).at_most, 11.0 / 36.0));
    // Heavy: the D6 steps down to a D4, where 2–4 all reel: two Reeling is as good as it gets
    // without a 1, P(no 1 on two D4) = 9/16.
    let r = resolution_tests(Die::D6, 2, true, &mut FixedRoller::new([2, 3])).unwrap();
    assert_eq!(r.die, Die::D4);
    assert!(close(chance(&r).at_least, 9.0 / 16.0));
}

#[test]
fn the_ladder_counts_successes_or_totals_the_dice() {
    // Two D8 at 6+: 6 and 2, one success. P(≥ 1) = 1 − (5/8)² = 39/64.
    let l = roll_ladder(Die::D8, 2, Some(6), &mut FixedRoller::new([6, 2])).unwrap();
    assert!(close(chance(&l).at_least, 39.0 / 64.0));
    // No number: 6 + 5 on two D6, 11 or more: 3/36.
    let l = roll_ladder(Die::D6, 2, None, &mut FixedRoller::new([6, 5])).unwrap();
    assert!(close(chance(&l).at_least, 3.0 / 36.0));
}

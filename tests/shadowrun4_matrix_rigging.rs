//! Matrix and rigging scenarios: a hacking race, matrix perception against a hidden icon,
//! sensors, a crash after a hit, a chase.

use saikoro::dice::FixedRoller;
use saikoro::systems::shadowrun4::matrix::{HackRequest, HackResult, hack_on_the_fly, matrix_perception};
use saikoro::systems::shadowrun4::rigging::{ChaseRequest, CrashRequest, RangeBand, chase_range, crash_test};
use saikoro::systems::shadowrun4::test_kinds::{SearchOutcome, SearchRequest};
use saikoro::systems::shadowrun4::{DicePool, PresetChoice, RollSpec};

fn fixed(f: &[u32]) -> FixedRoller {
    FixedRoller::new(f.iter().copied())
}

#[test]
fn hot_sim_hacker_wins_the_race_and_every_interval_is_kept() {
    let hacker = DicePool::dice(4)
        .with_presets(&[PresetChoice::new("other.hot_sim")], false)
        .unwrap();
    let req = HackRequest {
        hacker,
        firewall: 4,
        node: DicePool::dice(3),
        stealth: 4,
        max_passes: None,
    };
    // Pass 1: hacker 6 dice, 2 hits; node 1 hit. Pass 2: hacker 2 hits (total 4); node 0.
    let faces = [5, 6, 1, 2, 3, 4, 5, 2, 2, 5, 5, 2, 2, 2, 2, 2, 2, 2];
    let o = hack_on_the_fly(&req, &mut fixed(&faces)).unwrap();
    assert_eq!((o.result, o.passes), (HackResult::HackerIn, 2));
    assert_eq!(
        o.hacker.intervals.iter().map(|i| i.total).collect::<Vec<_>>(),
        vec![2, 4]
    );
    assert_eq!(o.node.total_hits, 1);
    assert_eq!(o.hacker.pool, 6);
}

#[test]
fn matrix_perception_against_a_hidden_icon_is_opposed() {
    let req = SearchRequest {
        searcher: RollSpec::new(
            DicePool::dice(4)
                .with_presets(
                    &[PresetChoice::new("other.technomancer_matrix_perception")],
                    false,
                )
                .unwrap(),
        ),
        hidden: Some(RollSpec::dice(3)),
        threshold: None,
    };
    let o = matrix_perception(&req, &mut fixed(&[5, 2, 2, 2, 2, 2, 5, 5, 2])).unwrap();
    assert!(matches!(o, SearchOutcome::Hidden(_)));
    assert_eq!(o.found(), Some(false), "a tie goes to the hidden icon");
}

#[test]
fn a_hard_hit_forces_a_crash_test_then_the_chase_sets_the_range() {
    let crash = CrashRequest {
        damage: 8,
        vehicle_body: 8,
        test: RollSpec::dice(6),
        vr: false,
    };
    let o = crash_test(&crash, &mut fixed(&[5, 5, 2, 2, 2, 1])).unwrap();
    assert!(o.test_needed && o.crashed);
    let chase = ChaseRequest {
        first: RollSpec::dice(3),
        second: RollSpec::dice(3),
        current: RangeBand::Far,
        first_wants: RangeBand::Close,
        second_wants: RangeBand::Far,
    };
    let o = chase_range(&chase, &mut fixed(&[5, 6, 2, 5, 2, 2])).unwrap();
    assert_eq!(o.band, RangeBand::Close);
    assert_eq!(o.band.range_preset(), None);
}

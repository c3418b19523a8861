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

// ---------------------------------------------------------------- sheets, feedback, Edge after

use saikoro::systems::shadowrun4::character::DamageType;
use saikoro::systems::shadowrun4::initiative::{SurpriseParticipant, surprise, surprise_pool};
use saikoro::systems::shadowrun4::magic::{DispelRequest, SummonRequest, dispel, summon_spirit};
use saikoro::systems::shadowrun4::resonance::{CompileRequest, ThreadRequest, compile, thread};
use saikoro::systems::shadowrun4::rigging::rigger_feedback;
use saikoro::systems::shadowrun4::test_kinds::{
    ExtendedRequest, TeamworkRequest, extended_test, teamwork_test,
};
use saikoro::systems::shadowrun4::{Attributes, Character, EdgeAfter, EdgeBefore};

fn hacker() -> Character {
    Character::new(
        "Ana",
        Attributes {
            body: 3,
            reaction: 3,
            intuition: 3,
            willpower: 3,
            edge: 2,
            ..Attributes::default()
        },
    )
    .unwrap()
    .with_skill("hacking", 4)
    .unwrap()
}

#[test]
fn a_program_pool_from_a_sheet_takes_wounds_and_sustaining() {
    let c = hacker();
    let pool = c.program_pool(("exploit", 5), "hacking", &[]).unwrap();
    assert_eq!(pool.total(), Ok(9), "Exploit 5 + Hacking 4");
    // 3 Stun boxes: −1; one sustained thread: −2.
    let (hurt, _) = c.apply_damage(DamageType::Stun, 3).unwrap();
    let hurt = hurt.set_sustained(1).unwrap();
    let pool = hurt.program_pool(("exploit", 5), "hacking", &[]).unwrap();
    assert_eq!(pool.total(), Ok(6));
    // Without the skill: defaulting, rating − 1.
    let pool = c.program_pool(("sensor", 3), "perception", &[]).unwrap();
    assert_eq!(pool.total(), Ok(2));
    assert!(c.program_pool(("x", 31), "hacking", &[]).is_err());
}

#[test]
fn rigger_feedback_is_half_the_drone_damage_rounded_up_as_stun() {
    // 7 drone damage → 4 Stun; 3 dice, 1 hit → 3 boxes.
    let o = rigger_feedback(7, &RollSpec::dice(3), &mut fixed(&[5, 2, 1])).unwrap();
    assert_eq!(
        (o.value, o.hits, o.boxes, o.damage_type),
        (4, 1, 3, DamageType::Stun)
    );
    let none = rigger_feedback(0, &RollSpec::dice(3), &mut fixed(&[])).unwrap();
    assert_eq!((none.value, none.boxes), (0, 0));
}

#[test]
fn surprise_adds_three_when_aware_and_six_in_ambush() {
    let c = hacker(); // Intuition 3 + Reaction 3
    let total = |aware, ambush| surprise_pool(&c, aware, ambush).unwrap().pool.total().unwrap();
    assert_eq!(total(false, false), 6);
    assert_eq!(total(true, false), 9);
    assert_eq!(total(false, true), 12);
    // Aware (9 dice, 2 hits) against an ambusher (12 dice, 3 hits): the ambusher surprises.
    let parts = vec![
        SurpriseParticipant {
            name: "Ana".into(),
            pool: surprise_pool(&c, true, false).unwrap(),
        },
        SurpriseParticipant {
            name: "Bob".into(),
            pool: surprise_pool(&c, false, true).unwrap(),
        },
    ];
    let mut faces = vec![5, 6, 2, 2, 2, 2, 2, 2, 2];
    faces.extend([5, 5, 5, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    let o = surprise(&parts, &mut fixed(&faces)).unwrap();
    assert_eq!((o.rolls[0].hits, o.rolls[1].hits), (2, 3));
    assert_eq!(o.surprised.len(), 1);
    assert_eq!(
        (o.surprised[0].surprised.as_str(), o.surprised[0].by.as_str()),
        ("Ana", "Bob")
    );
}

#[test]
fn second_chance_on_summoning_changes_services_not_the_drain() {
    let req = SummonRequest {
        summon: RollSpec::dice(3),
        force: 3,
        magic: 4,
        drain: RollSpec::dice(2),
    };
    // Summoner 5,2,2 (1 hit); spirit 5,6,2 (2 hits); drain 4 Stun, resisted 5,2 → 3 boxes.
    let o = summon_spirit(&req, &mut fixed(&[5, 2, 2, 5, 6, 2, 5, 2])).unwrap();
    assert!(!o.summoned);
    assert_eq!((o.drain.value, o.drain.boxes), (4, 3));
    let n = o
        .with_edge_after(EdgeAfter::SecondChance, &mut fixed(&[5, 6]))
        .unwrap();
    assert_eq!(
        (n.summoner_hits, n.net_hits, n.services, n.summoned),
        (3, 1, 1, true)
    );
    assert_eq!(n.spirit, o.spirit);
    assert_eq!(n.drain, o.drain);
}

#[test]
fn second_chance_on_threading_raises_the_fading_and_rolls_it_when_new() {
    let req = ThreadRequest {
        thread: RollSpec::dice(3),
        base_rating: 2,
        resonance: 3,
        fading: RollSpec::dice(2),
    };
    // No hit: nothing gained, no fading rolled.
    let o = thread(&req, &mut fixed(&[2, 3, 4])).unwrap();
    assert_eq!((o.gained, o.fading.value), (0, 0));
    assert!(o.fading.roll.is_none());
    // Rerolled to 2 hits: rating 4 > Resonance 3 → 2 Physical fading, rolled now (5,2: 1 hit).
    let n = o
        .with_edge_after(&req, EdgeAfter::SecondChance, &mut fixed(&[5, 6, 2, 5, 2]))
        .unwrap();
    assert_eq!((n.rating, n.gained), (4, 2));
    assert_eq!(
        (n.fading.value, n.fading.damage_type, n.fading.boxes),
        (2, DamageType::Physical, 1)
    );
}

#[test]
fn edge_after_on_compiling_dispelling_and_teamwork_acts_on_the_actor_only() {
    let creq = CompileRequest {
        compile: RollSpec::dice(2),
        rating: 2,
        resonance: 3,
        fading: RollSpec::dice(1),
    };
    // Technomancer 2,2 (0); sprite 5,2 (1); fading 2, resisted 2.
    let o = compile(&creq, &mut fixed(&[2, 2, 5, 2, 2])).unwrap();
    assert!(!o.compiled);
    let n = o
        .with_edge_after(EdgeAfter::SecondChance, &mut fixed(&[5, 5]))
        .unwrap();
    assert_eq!((n.net_hits, n.tasks, n.compiled), (1, 1, true));
    assert_eq!(n.fading, o.fading);

    let dreq = DispelRequest {
        dispel: RollSpec::dice(2),
        magic: 4,
        force: 1,
        caster_magic: 1,
        karma: 0,
        spell_hits: Some(2),
        drain_value: 0,
        drain: RollSpec::dice(1),
    };
    // Dispeller 2,2 (0); opposition 2 dice 2,2 (0).
    let o = dispel(&dreq, &mut fixed(&[2, 2, 2, 2])).unwrap();
    assert_eq!(o.dispelled, Some(false));
    let n = o
        .with_edge_after(EdgeAfter::SecondChance, &mut fixed(&[5, 6]))
        .unwrap();
    assert_eq!(
        (n.hits_removed, n.spell_hits_left, n.dispelled),
        (2, Some(0), Some(true))
    );

    let treq = TeamworkRequest {
        leader: RollSpec::dice(2),
        assistants: vec![RollSpec::dice(2)],
        threshold: Some(2),
    };
    // Assistant 5,2: +1 die; leader 3 dice 5,2,2: 1 hit, short of 2.
    let o = teamwork_test(&treq, &mut fixed(&[5, 2, 5, 2, 2])).unwrap();
    assert_eq!(
        (o.bonus_dice, o.leader.hits, o.leader.success),
        (1, 1, Some(false))
    );
    let n = o
        .with_edge_after(EdgeAfter::SecondChance, &mut fixed(&[6, 2]))
        .unwrap();
    assert_eq!((n.leader.hits, n.leader.success), (2, Some(true)));
    assert_eq!(n.assistants, o.assistants);
}

#[test]
fn pushing_the_limit_on_an_extended_test_adds_edge_dice_to_the_first_interval() {
    let req = ExtendedRequest {
        pool: DicePool::dice(2),
        retry: 0,
        threshold: 3,
        max_intervals: Some(3),
        edge: Some(EdgeBefore::PushTheLimit { edge: 2 }),
    };
    // Interval 1: 4 dice 6,2,2,2, the six explodes (5): 2 hits. Interval 2: 2 dice, 5,2: 3 total.
    let o = extended_test(&req, &mut fixed(&[6, 2, 2, 2, 5, 5, 2])).unwrap();
    assert_eq!(o.intervals.len(), 2);
    assert_eq!((o.intervals[0].total, o.total_hits, o.success), (2, 3, true));
    assert!(o.intervals[0].roll.edge_used && !o.intervals[1].roll.edge_used);
    let long = ExtendedRequest {
        edge: Some(EdgeBefore::LongShot { edge: 2 }),
        ..req
    };
    assert!(extended_test(&long, &mut fixed(&[])).is_err());
}

//! Every logged Shadowrun 4 outcome's luck, built through the engine with fixed dice and read
//! through the odds engine, against chances counted by hand (a die hits on 5–6: p = 1/3).

use engine::dice::FixedRoller;
use engine::odds::{Chance, LuckRoll, chance_at_least_as_good};
use engine::systems::shadowrun4::initiative::{Combatant, SurpriseParticipant, roll_initiative, surprise};
use engine::systems::shadowrun4::magic::{
    DispelRequest, SpellRequest, SummonRequest, cast_spell, dispel, summon_spirit,
};
use engine::systems::shadowrun4::matrix::{
    CybercombatRequest, HackRequest, MatrixTarget, cybercombat, hack_on_the_fly,
};
use engine::systems::shadowrun4::resonance::{CompileRequest, ThreadRequest, compile, thread};
use engine::systems::shadowrun4::rigging::{
    BreakAwayRequest, ChaseRequest, CrashRequest, CutOffRequest, break_away, chase_range, crash_test,
    cut_off, positioning,
};
use engine::systems::shadowrun4::terms::RangeBand;
use engine::systems::shadowrun4::test_kinds::{
    ExtendedEnd, ExtendedRequest, SuccessRequest, extended_test, success_test,
};
use engine::systems::shadowrun4::{DicePool, EdgeAfter, RollSpec};

use crate::log_line::LogSummary;

fn fixed(faces: &[u32]) -> FixedRoller {
    FixedRoller::new(faces.iter().copied())
}

fn chance(o: &impl LogSummary) -> Chance {
    let input = o.luck().expect("a roll with luck");
    chance_at_least_as_good(&input).unwrap_or_else(|e| panic!("{input:?}: {e}"))
}

fn assert_chance(o: &impl LogSummary, expected: f64) {
    let c = chance(o);
    assert!(
        (c.at_least - expected).abs() < 1e-12,
        "{c:?} vs {expected}: {:?}",
        o.luck()
    );
}

/// The pools of a Shadowrun 4 luck input: (dice, rule of six, opposing, cap).
fn pools(o: &impl LogSummary) -> Vec<(u32, bool, bool, Option<u32>)> {
    match o.luck() {
        Some(engine::odds::LuckInput {
            roll: LuckRoll::Shadowrun4 { pools, .. },
            ..
        }) => pools
            .iter()
            .map(|p| (p.dice, p.rule_of_six, p.opposing, p.cap))
            .collect(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_spell_counts_its_hits_up_to_force_against_the_resistance() {
    let req = SpellRequest {
        cast: RollSpec::dice(4),
        force: 2,
        magic: 4,
        resistance: Some(RollSpec::dice(2)),
        threshold: None,
        drain_value: 3,
        drain: RollSpec::dice(3),
    };
    // Cast 5,5,6,2: 3 hits, 2 counted (Force 2); resistance 5,1: 1 hit; net 1.
    let o = cast_spell(&req, &mut fixed(&[5, 5, 6, 2, 5, 1, 5, 2, 2])).unwrap();
    assert_eq!((o.hits, o.resistance_hits, o.net_hits), (2, 1, 1));
    assert_eq!(
        pools(&o),
        vec![(4, false, false, Some(2)), (2, false, true, None)]
    );
    // C = min(Bin(4), 2): P0 = 16/81, P1 = 32/81, P2 = 33/81; R = Bin(2): P0 = 4/9, P1 = 4/9,
    // P2 = 1/9. P(C − R ≥ 1) = P(C≥1)·P(R=0) + P(C=2)·P(R=1) = (65·4 + 33·4)/729 = 392/729.
    assert_chance(&o, 392.0 / 729.0);
}

#[test]
fn a_spell_press_measures_its_dice_under_what_is_left_of_the_cap() {
    let req = SpellRequest {
        cast: RollSpec::dice(4),
        force: 2,
        magic: 4,
        resistance: None,
        threshold: None,
        drain_value: 3,
        drain: RollSpec::dice(3),
    };
    // Cast 5,2,2,2: 1 hit; Second chance rerolls the 3 misses to 5,5,1: 3 hits, 2 counted.
    let o = cast_spell(&req, &mut fixed(&[5, 2, 2, 2, 2, 2, 2])).unwrap();
    // Unresisted, no threshold: P(Bin(4) ≥ 1) = 1 − 16/81 = 65/81.
    assert_chance(&o, 65.0 / 81.0);
    let again = o
        .with_edge_after(EdgeAfter::SecondChance, &mut fixed(&[5, 5, 1]))
        .unwrap();
    assert_eq!(again.hits, 2);
    // The kept hit uses 1 of Force 2: the 3 rerolled dice may add 1, P(Bin(3) ≥ 1) = 19/27.
    assert_eq!(pools(&again), vec![(3, false, false, Some(1))]);
    assert_chance(&again, 19.0 / 27.0);
}

#[test]
fn summoning_and_dispelling_are_opposed_by_their_dice() {
    let req = SummonRequest {
        summon: RollSpec::dice(3),
        force: 2,
        magic: 4,
        drain: RollSpec::dice(2),
    };
    // Summoner 5,6,1: 2 hits; spirit 5,2: 1 hit; net 1 (drain 2 on 2,2).
    let o = summon_spirit(&req, &mut fixed(&[5, 6, 1, 5, 2, 2, 2])).unwrap();
    assert_eq!(o.net_hits, 1);
    // S = Bin(3): 8, 12, 6, 1 /27; T = Bin(2): 4, 4, 1 /9. P(S − T ≥ 1) =
    // (19/27)(4/9) + (7/27)(4/9) + (1/27)(1/9) = (76 + 28 + 1)/243 = 35/81.
    assert_chance(&o, 35.0 / 81.0);

    let req = DispelRequest {
        dispel: RollSpec::dice(2),
        magic: 4,
        force: 1,
        caster_magic: 1,
        karma: 0,
        spell_hits: None,
        drain_value: 2,
        drain: RollSpec::dice(2),
    };
    // Dispeller 6,5: 2 hits; opposition (Force 1 + Magic 1) 1,2: none; net 2.
    let o = dispel(&req, &mut fixed(&[6, 5, 1, 2, 2, 2])).unwrap();
    assert_eq!(o.net_hits, 2);
    // Both dice hit (1/9) and both opposing miss (4/9): 4/81.
    assert_chance(&o, 4.0 / 81.0);
}

#[test]
fn threading_counts_hits_up_to_the_ratings_ceiling_and_compiling_is_opposed() {
    let req = ThreadRequest {
        thread: RollSpec::dice(3),
        base_rating: 3,
        resonance: 2,
        fading: RollSpec::dice(2),
    };
    // 5,6,2: 2 hits, but the rating stops at 4 (twice Resonance): 1 counted.
    let o = thread(&req, &mut fixed(&[5, 6, 2, 2, 2])).unwrap();
    assert_eq!((o.rating, o.gained), (4, 1));
    assert_eq!(pools(&o), vec![(3, false, false, Some(1))]);
    // P(Bin(3) ≥ 1) = 1 − 8/27 = 19/27.
    assert_chance(&o, 19.0 / 27.0);

    let req = CompileRequest {
        compile: RollSpec::dice(2),
        rating: 1,
        resonance: 2,
        fading: RollSpec::dice(2),
    };
    // Technomancer 5,1: 1 hit; sprite 6: 1 hit; net 0.
    let o = compile(&req, &mut fixed(&[5, 1, 6, 2, 2])).unwrap();
    assert_eq!(o.net_hits, 0);
    // Only C = 0 against S = 1 is worse: 1 − (4/9)(1/3) = 23/27.
    assert_chance(&o, 23.0 / 27.0);
}

#[test]
fn cybercombat_and_a_hacking_race() {
    let req = CybercombatRequest {
        attack: RollSpec::dice(2),
        defence: RollSpec::dice(1),
        full_defence: false,
        dv: 3,
        resist: RollSpec::dice(2),
        target: MatrixTarget::Icon,
    };
    // Attack 5,5 against defence 2: net 2 (the target resists on 2,2).
    let o = cybercombat(&req, &mut fixed(&[5, 5, 2, 2, 2])).unwrap();
    assert_eq!(o.net_hits, 2);
    // (1/9)(2/3) = 2/27.
    assert_chance(&o, 2.0 / 27.0);

    let req = HackRequest {
        hacker: DicePool::dice(1),
        firewall: 1,
        node: DicePool::dice(1),
        stealth: 2,
        max_passes: None,
    };
    // Pass 1: hacker 2, node 2; pass 2: hacker 5 (in), node 2.
    let o = hack_on_the_fly(&req, &mut fixed(&[2, 2, 5, 2])).unwrap();
    assert_eq!(o.passes, 2);
    // Hacker's Bin(2) against the node's Bin(2), net 1: P(X > Y) for two alike is
    // (1 − P(X = Y))/2, P(X = Y) = (16 + 16 + 1)/81: 24/81 = 8/27.
    assert_chance(&o, 8.0 / 27.0);
}

#[test]
fn an_extended_test_is_measured_on_the_intervals_it_rolled() {
    let req = ExtendedRequest {
        pool: DicePool::dice(2),
        retry: 0,
        threshold: 3,
        max_intervals: Some(2),
        edge: None,
    };
    // 5,2 then 6,5: 3 hits in 2 intervals, reached.
    let o = extended_test(&req, &mut fixed(&[5, 2, 6, 5])).unwrap();
    assert_eq!((o.total_hits, o.end), (3, ExtendedEnd::Reached));
    // 4 dice, 3 or more hits: 4·(1/3)³(2/3) + (1/3)⁴ = 9/81 = 1/9.
    assert_chance(&o, 1.0 / 9.0);

    // 5,2 then 2,2: out of intervals; Second chance rerolls the last interval's misses to 5,6.
    let o = extended_test(&req, &mut fixed(&[5, 2, 2, 2])).unwrap();
    assert_eq!(o.end, ExtendedEnd::OutOfIntervals);
    let again = o.with_second_chance(&req, &mut fixed(&[5, 6])).unwrap();
    assert_eq!((again.total_hits, again.end), (3, ExtendedEnd::Reached));
    // The first interval's hit is on the table: only the 2 rerolled dice, both hitting: 1/9.
    assert_eq!(pools(&again), vec![(2, false, false, None)]);
    assert_chance(&again, 1.0 / 9.0);
}

#[test]
fn initiative_and_surprise_measure_the_hits_of_everyone_rolled() {
    let who = |name: &str, initiative: u32, push: bool| Combatant {
        name: name.into(),
        initiative,
        edge: 1,
        passes: 1,
        modifier: 0,
        sustained: 0,
        push_the_limit: push,
    };
    // Ana 2 dice (5,2): 1 hit, score 3; Bob 1 die (2): score 1.
    let o = roll_initiative(
        &[who("Ana", 2, false), who("Bob", 1, false)],
        &mut fixed(&[5, 2, 2]),
    )
    .unwrap();
    assert_eq!(o.entries.iter().map(|e| e.score).collect::<Vec<_>>(), vec![3, 1]);
    // 3 dice, 1 hit or more: 19/27.
    assert_chance(&o, 19.0 / 27.0);

    // Pushing the limit: Initiative 1 + Edge 1 = 2 dice with the rule of six, 6,5 and the
    // six's extra die 2: 2 hits. One such die: P(0) = 2/3, P(1) = 1/6 + (1/6)(2/3) = 5/18.
    // P(≥ 2 of two) = 1 − 4/9 − 2(2/3)(5/18) = 1 − 24/54 − 20/54 = 5/27.
    let o = roll_initiative(&[who("Ana", 1, true)], &mut fixed(&[6, 5, 2])).unwrap();
    assert_eq!(o.entries[0].hits, 2);
    assert_eq!(pools(&o), vec![(2, true, false, None)]);
    assert_chance(&o, 5.0 / 27.0);

    let who = |name: &str, dice: i32| SurpriseParticipant {
        name: name.into(),
        pool: RollSpec::dice(dice),
    };
    // Ana 5,2: 1 hit; Bob 6: 1 hit. 3 dice, 2 or more: 3(1/3)²(2/3) + (1/3)³ = 7/27.
    let o = surprise(&[who("Ana", 2), who("Bob", 1)], &mut fixed(&[5, 2, 6])).unwrap();
    assert_chance(&o, 7.0 / 27.0);
}

#[test]
fn vehicle_tests_and_chases() {
    let spec = |dice: i32| RollSpec::dice(dice);
    // Crash test 5,5: 2 hits of 2 dice, 1/9.
    let crash = |damage: u32, faces: &[u32]| {
        let req = CrashRequest {
            damage,
            vehicle_body: 3,
            test: spec(2),
            vr: false,
        };
        crash_test(&req, &mut fixed(faces)).unwrap()
    };
    assert_chance(&crash(5, &[5, 5]), 1.0 / 9.0);
    // Damage under Body: no test, no dice, no luck.
    assert_eq!(crash(2, &[]).luck(), None);

    let req = ChaseRequest {
        first: spec(2),
        second: spec(1),
        current: RangeBand::Near,
        first_wants: RangeBand::Far,
        second_wants: RangeBand::Close,
    };
    // 5,2 against 2: net 1. P(A − B ≥ 1) = (5/9)(2/3) + (1/9)(1/3) = 11/27.
    assert_chance(&chase_range(&req, &mut fixed(&[5, 2, 2])).unwrap(), 11.0 / 27.0);

    let req = BreakAwayRequest {
        test: spec(3),
        band: RangeBand::Far,
        pursuers: 1,
        base_threshold: 0,
        successes: 0,
    };
    // 1,2,5: 1 hit of 3 dice, 19/27.
    assert_chance(&break_away(&req, &mut fixed(&[1, 2, 5])).unwrap(), 19.0 / 27.0);
    // Positioning 6,2: 1 hit of 2 dice, 5/9.
    assert_chance(&positioning(&spec(2), &mut fixed(&[6, 2])).unwrap(), 5.0 / 9.0);

    let req = CutOffRequest {
        band: RangeBand::Close,
        actor: spec(1),
        target: spec(1),
        actor_crash: spec(1),
        target_crash: spec(1),
    };
    // 5 against 2: net 1, (1/3)(2/3) = 2/9; the target's crash test (5) is not the cutter's.
    assert_chance(&cut_off(&req, &mut fixed(&[5, 2, 5])).unwrap(), 2.0 / 9.0);
}

#[test]
fn a_success_test_counts_its_hits_up_to_its_cap() {
    let req = SuccessRequest {
        roll: RollSpec::dice(3),
        threshold: None,
        hit_cap: Some(1),
        buy_hits: false,
    };
    // 5,5,2: 2 hits, 1 counted; any hit of 3 dice is as good: 19/27.
    let o = success_test(&req, &mut fixed(&[5, 5, 2])).unwrap();
    assert_eq!(o.hits, 1);
    assert_chance(&o, 19.0 / 27.0);
}

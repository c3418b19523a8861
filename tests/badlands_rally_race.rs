//! A whole race through the public API with fixed dice: one gear is attacked through rattles
//! 1 to 6 and knocked out (Hi-Tech: 1 to 5), with excess damage into the skid and recovery
//! between the hits.

mod common;

use saikoro::dice::FixedRoller;
use saikoro::systems::badlands_rally::RuleError;
use saikoro::systems::badlands_rally::attack::{AttackKind, AttackSetup, Cover, Facing};
use saikoro::systems::badlands_rally::gear::{GearSheet, Speed, WeaponChoice};
use saikoro::systems::badlands_rally::race::{
    Action, ActionOutcome, RaceAttack, RaceEvent, RaceOptions, RaceState, Victory,
};
use saikoro::systems::badlands_rally::state::{Change, GearEvent, SpinOutCause};

fn sheet(name: &str, model: &str) -> GearSheet {
    common::rally_gear(name, model)
}

fn on(r: RaceState, id: &str, event: GearEvent) -> RaceState {
    r.apply(&RaceEvent::Gear { id: id.into(), event }).unwrap()
}

fn shot() -> RaceAttack {
    RaceAttack {
        attacker: "hunter".into(),
        defender: "target".into(),
        setup: AttackSetup {
            kind: AttackKind::Weapon(WeaponChoice::Sheet(0)),
            facing: Facing::Front,
            distance: 4,
            cover: Cover::default(),
            attack_extra: 0,
            defence_extra: 0,
        },
        reaction: false,
        adjacent: vec![],
    }
}

/// The hunter activates and shoots; returns the race and the attack's changes on the target.
fn hunter_shoots(r: RaceState, faces: &[u32]) -> (RaceState, Vec<Change>) {
    let r = on(
        r,
        "hunter",
        GearEvent::Activate {
            speed: Speed::Cruising,
        },
    );
    let mut dice = FixedRoller::new(faces.iter().copied());
    let (r, rep) = r.attack(&shot(), &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0, "every die used: {rep:?}");
    let r = on(r, "hunter", GearEvent::EndActivation);
    (r, rep.defender_changes)
}

/// The target activates at cruising speed, recovers with `die`, and ends its activation.
fn target_recovers(r: RaceState, die: u32) -> RaceState {
    let r = on(
        r,
        "target",
        GearEvent::Activate {
            speed: Speed::Cruising,
        },
    );
    let (r, rep) = r
        .act("target", &Action::Recover, &mut FixedRoller::new([die]))
        .unwrap();
    assert!(matches!(rep.outcome, ActionOutcome::Recover(_)));
    on(r, "target", GearEvent::EndActivation)
}

fn drive_to_knockout(target_model: &str, permanent_at: u8, out_at: u8) {
    let mut r = RaceState::new(2, RaceOptions::default()).unwrap();
    for (id, model) in [("hunter", "hunter"), ("target", target_model)] {
        r = r
            .apply(&RaceEvent::AddGear {
                id: id.into(),
                sheet: sheet(id, model),
            })
            .unwrap();
    }
    let status = r.gear("target").unwrap().status();
    assert_eq!(status.record(), format!("0/{out_at}"));

    // Round 1: a big hit. Attack 6,6 → 7; defence 3,1 → 3; MOS 4 → 4 + (6 − 5) = 5 dice, all
    // 4s: 5 damage on 2/1 → 0/0 with 2 excess. Spin-out: turn 3, skid 4 + 2 = 6.
    r = r.apply(&RaceEvent::StartRound).unwrap();
    let (mut r1, ch) = hunter_shoots(r, &[6, 6, 3, 1, 4, 4, 4, 4, 4, 3, 4]);
    assert!(ch.contains(&Change::ExcessDamage { hits: 2 }));
    assert!(ch.contains(&Change::Rattled { record: 1 }));
    assert!(ch.contains(&Change::SpunOut { skid: 6 }));
    let t = r1.gear("target").unwrap();
    assert_eq!((t.state.hull, t.state.structure), (0, 0));
    assert!(t.state.must_recover && t.state.off_balance && t.state.rattled);
    assert_eq!(t.status().boxes(), "□□/□");
    assert_eq!(r1.gear("hunter").unwrap().state.spin_outs_caused, 1);

    // Round 2: at 0 hits it can only recover, at cruising speed; a 6 heals all and returns the
    // action.
    r1 = r1.apply(&RaceEvent::StartRound).unwrap();
    assert_eq!(
        r1.apply(&RaceEvent::Gear {
            id: "target".into(),
            event: GearEvent::Activate { speed: Speed::Top },
        }),
        Err(RuleError::RattledTopSpeed)
    );
    let r2 = on(
        r1,
        "target",
        GearEvent::Activate {
            speed: Speed::Cruising,
        },
    );
    assert!(matches!(
        r2.act("target", &Action::RallyTheCrowd, &mut FixedRoller::new([])),
        Err(RuleError::MustRecover { .. })
    ));
    let (r2, rep) = r2
        .act("target", &Action::Recover, &mut FixedRoller::new([6]))
        .unwrap();
    assert!(rep.changes.contains(&Change::ActionRegained));
    assert!(rep.changes.contains(&Change::RattledTokenRemoved));
    let st = &rep.status;
    assert_eq!((st.hull, st.structure), (2, 1));
    assert!(!st.rattled && !st.off_balance && !st.must_recover);
    assert_eq!(st.rattle_record, 1);
    // The regained action buys a Rally the Crowd.
    let (r2, _) = r2
        .act("target", &Action::RallyTheCrowd, &mut FixedRoller::new([]))
        .unwrap();
    let mut r = on(r2, "target", GearEvent::EndActivation);

    // Rattles 2.. : each round the hunter empties the Hull (2 damage), the target recovers.
    for k in 2..=out_at {
        let rattled_before = r.gear("target").unwrap().is_rattled();
        // A permanently rattled defender rolls one die.
        let faces: Vec<u32> = if rattled_before {
            vec![6, 1, 5, 4, 4]
        } else {
            vec![6, 1, 5, 2, 4, 4]
        };
        r = r.apply(&RaceEvent::StartRound).unwrap();
        let (next, ch) = hunter_shoots(r, &faces);
        r = next;
        assert!(ch.contains(&Change::Rattled { record: k }), "rattle {k}: {ch:?}");
        let st = r.gear("target").unwrap().status();
        assert_eq!(st.record(), format!("{k}/{out_at}"));
        assert_eq!(ch.contains(&Change::PermanentlyRattled), k == permanent_at);
        if k == out_at {
            assert!(ch.contains(&Change::KnockedOut));
            assert!(st.knocked_out);
            break;
        }
        assert!(!st.knocked_out && st.off_balance && st.rattled);
        assert_eq!((st.hull, st.structure), (0, 1));
        r = target_recovers(r, 2);
        let st = r.gear("target").unwrap().status();
        assert_eq!((st.hull, st.structure), (2, 1));
        // From the permanent rattle on, recovery no longer removes the token.
        assert_eq!(st.rattled, k >= permanent_at, "rattle {k}");
        assert_eq!(st.permanently_rattled, k >= permanent_at);
        assert!(!st.off_balance);
    }

    // Knocked out: no more attacks on it, no initiative for it.
    r = r.apply(&RaceEvent::StartRound).unwrap();
    let r = on(
        r,
        "hunter",
        GearEvent::Activate {
            speed: Speed::Cruising,
        },
    );
    assert!(matches!(
        r.attack(&shot(), &mut FixedRoller::new([6, 6])),
        Err(RuleError::KnockedOut { .. })
    ));
    let (_, init) = r.initiative(&[], &mut FixedRoller::new([4, 4])).unwrap();
    assert_eq!(init.order.len(), 1);
    assert_eq!(init.winner(), Some("hunter"));
}

#[test]
fn six_rattles_knock_a_gear_out() {
    drive_to_knockout("jerboa", 5, 6);
}

#[test]
fn hi_tech_gear_is_out_on_the_fifth_rattle() {
    // The Pitbull's datacard is Hi-Tech.
    drive_to_knockout("pitbull", 4, 5);
}

#[test]
fn a_short_race_start_to_finish() {
    let mut r = RaceState::new(2, RaceOptions::default()).unwrap();
    for (id, model) in [("a", "grizzly"), ("b", "jerboa")] {
        r = r
            .apply(&RaceEvent::AddGear {
                id: id.into(),
                sheet: sheet(id, model),
            })
            .unwrap();
    }
    // Pole: a 6,4 → 7; b 5,1 → 5.
    let (r, pole) = r.pole_position(&mut FixedRoller::new([6, 4, 5, 1])).unwrap();
    assert_eq!(pole.winner(), Some("a"));
    let r = r.apply(&RaceEvent::StartRound).unwrap();
    // b burns rubber at top speed: Defence 4+, 3 dice 5,3,2 → 1 success.
    let r = on(r, "b", GearEvent::Activate { speed: Speed::Top });
    let (r, rep) = r
        .act(
            "b",
            &Action::BurnRubber(Default::default()),
            &mut FixedRoller::new([5, 3, 2]),
        )
        .unwrap();
    assert!(matches!(&rep.outcome, ActionOutcome::BurnRubber(b) if b.mr_gained == 1));
    assert_eq!(r.gear("b").unwrap().state.mr_left(), 13);
    let r = on(
        r,
        "b",
        GearEvent::CompleteLap {
            round: 0,
            race_laps: 0,
        },
    );
    let r = on(r, "b", GearEvent::EndActivation);
    // Round 2: b jumps with 2D6 + 2D6 Jump Jets, all 1s: spin-out (turn 2, skid 3), activation
    // over.
    let r = r.apply(&RaceEvent::StartRound).unwrap();
    let r = on(
        r,
        "b",
        GearEvent::Activate {
            speed: Speed::Cruising,
        },
    );
    let (r, rep) = r
        .act(
            "b",
            &Action::Jump(Default::default()),
            &mut FixedRoller::new([1, 1, 1, 1, 2, 3]),
        )
        .unwrap();
    let ActionOutcome::Jump(j) = &rep.outcome else {
        panic!("jump outcome expected");
    };
    assert_eq!(j.dice_rolled, 4);
    let so = j.spin_out.as_ref().unwrap();
    assert_eq!(so.causes, vec![SpinOutCause::SpecialMoveAllOnes]);
    assert_eq!(so.skid, 3);
    // The skid ends against terrain: 2D6 collision damage, 4 and 5 → 2 hits; a second spin-out
    // this round is ignored.
    let (r, col) = r
        .collide(
            "b",
            None,
            saikoro::systems::badlands_rally::moves::CollisionCause::Skid { distance: 3 },
            &mut FixedRoller::new([4, 5]),
        )
        .unwrap();
    assert!(col.moving_changes.contains(&Change::SpinOutIgnored {
        cause: SpinOutCause::Collision
    }));
    assert!(col.moving_spin_out.is_none());
    assert_eq!(r.gear("b").unwrap().state.hull, 0);
    // b finishes in round 3.
    let r = r.apply(&RaceEvent::StartRound).unwrap();
    let r = on(
        r,
        "b",
        GearEvent::CompleteLap {
            round: 0,
            race_laps: 0,
        },
    );
    // Judged when the round ends: here, when the next one starts.
    assert!(matches!(r.victory(), Victory::RoundNotOver { round: 3, .. }));
    let r = r.apply(&RaceEvent::StartRound).unwrap();
    assert_eq!(r.victory(), Victory::Uncontested { id: "b".into() });
}

//! Edge cases of the race with fixed dice: Area Effect neighbours named twice, Impact on
//! neighbours, reaction attacks at 0 hits, jumps that come down on a gear or terrain, rough
//! landings, rattled mid-activation at top speed, victory judged at the end of the round, the
//! scenario and trait hooks of collisions, and the recovery order.

mod common;

use saikoro::dice::FixedRoller;
use saikoro::systems::badlands_rally::RuleError;
use saikoro::systems::badlands_rally::attack::{AttackKind, AttackSetup, Cover, Facing};
use saikoro::systems::badlands_rally::gear::{GearSheet, Speed, Trait, WeaponChoice, WeaponTrait};
use saikoro::systems::badlands_rally::moves::{CollisionCause, MoveRequest};
use saikoro::systems::badlands_rally::race::{
    Action, ActionOutcome, InitiativeKind, RaceAttack, RaceEvent, RaceOptions, RaceState, Victory,
};
use saikoro::systems::badlands_rally::state::{
    Activation, Change, GearEvent, Hit, RecoveryOrder, SpinOutCause,
};
use saikoro::systems::badlands_rally::tables::Scenario;

fn sheet(name: &str) -> GearSheet {
    // Hunter: Reliable and two campaign traits, nothing that changes these rolls.
    common::rally_gear(name, "hunter")
}

/// hunter, target and c, in round 1, none activated.
fn race() -> RaceState {
    let mut r = RaceState::new(2, RaceOptions::default()).unwrap();
    for id in ["hunter", "target", "c"] {
        r = r
            .apply(&RaceEvent::AddGear {
                id: id.into(),
                sheet: sheet(id),
            })
            .unwrap();
    }
    r.apply(&RaceEvent::StartRound).unwrap()
}

fn on(r: RaceState, id: &str, event: GearEvent) -> RaceState {
    r.apply(&RaceEvent::Gear { id: id.into(), event }).unwrap()
}

fn activate(r: RaceState, id: &str, speed: Speed) -> RaceState {
    on(r, id, GearEvent::Activate { speed })
}

fn idx(r: &RaceState, id: &str) -> usize {
    r.entries.iter().position(|e| e.id == id).unwrap()
}

fn shot(adjacent: &[&str]) -> RaceAttack {
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
        adjacent: adjacent.iter().map(|s| s.to_string()).collect(),
    }
}

fn hit(damage: u32) -> GearEvent {
    GearEvent::Hit(Hit {
        damage,
        attack_hit: true,
        from_attack: true,
        ..Hit::default()
    })
}

#[test]
fn area_effect_neighbour_named_twice_is_hit_once_and_impact_spins_it_out() {
    let mut r = race();
    r.scenario = Some(Scenario::Derby);
    let h = idx(&r, "hunter");
    r.entries[h].gear.sheet.weapons[0].traits = vec![WeaponTrait::AreaEffect, WeaponTrait::Impact];
    let r = activate(r, "hunter", Speed::Cruising);
    // Attack 6,1 → 6; defence 5,2 → 5; MOS 1 → 1 + (6 − 5) = 2 dice: 4,4 → 2 damage on the
    // target (0/1, Impact: turn 2, skid 3); c takes 1 (Impact: turn 1, skid 4) — once.
    let mut dice = FixedRoller::new([6, 1, 5, 2, 4, 4, 2, 3, 1, 4]);
    let (after, rep) = r
        .attack(&shot(&["c", "C", " c ", "target", "HUNTER"]), &mut dice)
        .unwrap();
    assert_eq!(dice.remaining(), 0, "one spin-out rolled per gear");
    assert_eq!(rep.adjacent.len(), 1);
    let (id, ch, so) = &rep.adjacent[0];
    assert_eq!(id, "c");
    assert!(ch.contains(&Change::SpinOutDue {
        cause: SpinOutCause::Impact
    }));
    assert_eq!(so.as_ref().unwrap().skid, 4);
    let c = after.gear("c").unwrap();
    assert_eq!((c.state.hull, c.state.structure), (1, 1), "half damage, once");
    let hunter = after.gear("hunter").unwrap();
    assert_eq!(
        hunter.state.spin_outs_caused, 2,
        "target and c, each counted once"
    );
}

#[test]
fn area_effect_without_impact_does_not_spin_the_neighbour() {
    let mut r = race();
    let h = idx(&r, "hunter");
    r.entries[h].gear.sheet.weapons[0].traits = vec![WeaponTrait::AreaEffect];
    let r = activate(r, "hunter", Speed::Cruising);
    let mut dice = FixedRoller::new([6, 1, 5, 2, 4, 4]);
    let (after, rep) = r.attack(&shot(&["c"]), &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(rep.adjacent[0].2.is_none());
    assert_eq!(after.gear("c").unwrap().state.hull, 1);
}

#[test]
fn a_gear_at_zero_hits_cannot_make_a_reaction_attack() {
    let r = race();
    let r = on(r, "target", hit(3));
    let (r, _) = r
        .act("target", &Action::SpinOut, &mut FixedRoller::new([2, 3]))
        .unwrap();
    let r = r.apply(&RaceEvent::StartRound).unwrap();
    assert!(r.gear("target").unwrap().state.must_recover);
    let mut req = shot(&[]);
    req.attacker = "target".into();
    req.defender = "hunter".into();
    req.reaction = true;
    assert_eq!(
        r.attack(&req, &mut FixedRoller::new([6, 6, 1, 1])),
        Err(RuleError::MustRecover {
            name: "target".into()
        })
    );
    // After recovering it may react again (next round).
    let r = activate(r, "target", Speed::Cruising);
    let (r, _) = r
        .act("target", &Action::Recover, &mut FixedRoller::new([3]))
        .unwrap();
    let r = on(r, "target", GearEvent::EndActivation);
    let r = r.apply(&RaceEvent::StartRound).unwrap();
    assert!(r.attack(&req, &mut FixedRoller::new([1, 1, 6, 6])).is_ok());
}

#[test]
fn a_jump_onto_a_gear_stops_short_spins_out_and_both_take_the_collision() {
    let r = activate(race(), "hunter", Speed::Cruising);
    let action = Action::JumpOnto {
        req: MoveRequest::default(),
        onto: "Target".into(),
    };
    // Jump 5,4 at 4+: 2 successes → 3 hexes, the third taken: stops after 2 (2 MR).
    // Collision with the jump's 2 dice each (same AR): hunter 1,1 → 0; target 4,4 → 2.
    // Hunter spins out (turn 2, skid 3), target too (damaged: turn 1, skid 1).
    let mut dice = FixedRoller::new([5, 4, 1, 1, 4, 4, 2, 3, 1, 1]);
    let (after, rep) = r.act("hunter", &action, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    let ActionOutcome::Jump(j) = &rep.outcome else {
        panic!("a jump")
    };
    assert!(j.stopped_short);
    assert_eq!((j.hexes_moved, j.mr_spent), (2, 2));
    let so = j.spin_out.as_ref().expect("the jumper spins out undamaged");
    assert_eq!(so.causes, vec![SpinOutCause::JumpBlocked]);
    assert_eq!(so.skid, 3);
    let col = rep.collision.as_ref().unwrap();
    assert_eq!(col.outcome.moving.dice_count, 2);
    assert_eq!(col.outcome.struck.as_ref().unwrap().damage, 2);
    assert!(col.struck_spin_out.is_some());
    let hunter = after.gear("hunter").unwrap();
    assert_eq!(hunter.state.activation, Activation::Done, "the spin-out ends it");
    assert_eq!(hunter.state.hull, 2);
    assert_eq!(
        hunter.state.spin_outs_caused, 1,
        "credited with the target's spin-out"
    );
    assert_eq!(after.gear("target").unwrap().state.hull, 0);
    // Not onto itself, not onto a gear that is not in the race; nothing rolled.
    let bad = Action::JumpOnto {
        req: MoveRequest::default(),
        onto: "nobody".into(),
    };
    assert!(matches!(
        r.act("hunter", &bad, &mut FixedRoller::new([])),
        Err(RuleError::UnknownGear { .. })
    ));
}

#[test]
fn a_jump_onto_terrain_spins_out_even_undamaged_and_a_six_recovers() {
    let r = activate(race(), "hunter", Speed::Cruising);
    let req = MoveRequest {
        landing_blocked: true,
        ..MoveRequest::default()
    };
    // Jump 5,1: 1 success → 2 hexes, stopped after 1. Terrain: 2D6 1,1 → 0. Spin: 6 recovers.
    let mut dice = FixedRoller::new([5, 1, 1, 1, 6]);
    let (after, rep) = r.act("hunter", &Action::Jump(req), &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    let ActionOutcome::Jump(j) = &rep.outcome else {
        panic!("a jump")
    };
    assert_eq!((j.hexes_moved, j.mr_spent), (1, 1));
    assert!(j.spin_out.as_ref().unwrap().recovered);
    let hunter = after.gear("hunter").unwrap();
    assert!(hunter.state.is_active(), "a 6: the activation goes on");
    assert_eq!(hunter.state.mr_left(), 11);
    assert_eq!(hunter.state.rally_tokens, 1);
    // `/rally collide cause:jump` also spins the jumper out without damage.
    let (_, col) = race()
        .collide(
            "hunter",
            None,
            CollisionCause::Jump { dice: 3 },
            &mut FixedRoller::new([1, 2, 4, 5]),
        )
        .unwrap();
    let so = col.moving_spin_out.unwrap();
    assert_eq!(so.causes, vec![SpinOutCause::JumpBlocked]);
    assert_eq!(so.skid, 5);
}

#[test]
fn a_rough_landing_hex_pays_its_normal_mr() {
    let req = MoveRequest {
        landing_rough: true,
        ..MoveRequest::default()
    };
    // Top speed: 3 dice, 5,4,1 → 2 successes → 3 hexes; the rough landing costs 2: 4 MR.
    let r = activate(race(), "hunter", Speed::Top);
    let (after, rep) = r
        .act("hunter", &Action::Jump(req), &mut FixedRoller::new([5, 4, 1]))
        .unwrap();
    let ActionOutcome::Jump(j) = &rep.outcome else {
        panic!("a jump")
    };
    assert_eq!((j.hexes_moved, j.mr_spent), (3, 4));
    assert_eq!(after.gear("hunter").unwrap().state.mr_left(), 8);
    // Cruising: rough costs 1, like any hex.
    let r = activate(race(), "hunter", Speed::Cruising);
    let (after, _) = r
        .act("hunter", &Action::Jump(req), &mut FixedRoller::new([5, 4]))
        .unwrap();
    assert_eq!(after.gear("hunter").unwrap().state.mr_left(), 9);
}

#[test]
fn a_gear_rattled_during_its_top_speed_activation_drops_to_cruising() {
    let r = activate(race(), "target", Speed::Top);
    let (r, ch) = r
        .step(&RaceEvent::Gear {
            id: "target".into(),
            event: hit(2),
        })
        .unwrap();
    assert!(ch.contains(&Change::DroppedToCruising));
    let t = r.gear("target").unwrap();
    assert!(t.state.rattled && t.state.is_active());
    assert_eq!(t.state.speed(), Speed::Cruising);
    // Not rattled: the speed stays.
    let (r, ch) = activate(race(), "target", Speed::Top)
        .step(&RaceEvent::Gear {
            id: "target".into(),
            event: hit(1),
        })
        .unwrap();
    assert!(!ch.contains(&Change::DroppedToCruising));
    assert_eq!(r.gear("target").unwrap().state.speed(), Speed::Top);
}

fn finish(r: RaceState, id: &str) -> RaceState {
    let lap = GearEvent::CompleteLap {
        round: 0,
        race_laps: 0,
    };
    on(on(r, id, lap.clone()), id, lap)
}

fn end_round(mut r: RaceState) -> RaceState {
    for id in ["hunter", "target", "c"] {
        let g = r.gear(id).unwrap();
        if g.state.knocked_out || g.state.activation == Activation::Done {
            continue;
        }
        if g.state.activation == Activation::Waiting {
            r = activate(r, id, Speed::Cruising);
        }
        r = on(r, id, GearEvent::EndActivation);
    }
    r
}

#[test]
fn victory_is_judged_at_the_end_of_the_round_and_same_round_finishers_contest() {
    let r = activate(race(), "hunter", Speed::Cruising);
    let r = finish(r, "hunter");
    let r = on(r, "hunter", GearEvent::EndActivation);
    assert_eq!(
        r.victory(),
        Victory::RoundNotOver {
            round: 1,
            ids: vec!["hunter".into()]
        },
        "target and c may still finish this round"
    );
    let r = activate(r, "target", Speed::Cruising);
    let r = finish(r, "target");
    let r = end_round(r);
    let ids = vec!["hunter".to_string(), "target".to_string()];
    assert_eq!(r.victory(), Victory::Contested { ids: ids.clone() });
    // Contested: hunter 3,1 → 3; target 6,4 → 7.
    let out = r
        .contested_victory(&ids, &[], &mut FixedRoller::new([3, 1, 6, 4]))
        .unwrap();
    assert_eq!(out.kind, InitiativeKind::Contested);
    assert_eq!(out.winner(), Some("target"));
    // A gear finishing in a later round does not change the result.
    let r = r.apply(&RaceEvent::StartRound).unwrap();
    let r = finish(r, "c");
    assert_eq!(r.victory(), Victory::Contested { ids });
}

#[test]
fn a_lone_finisher_wins_once_the_next_round_starts() {
    let r = finish(race(), "target");
    assert!(matches!(r.victory(), Victory::RoundNotOver { round: 1, .. }));
    let r = r.apply(&RaceEvent::StartRound).unwrap();
    assert_eq!(r.victory(), Victory::Uncontested { id: "target".into() });
}

#[test]
fn a_gear_knocked_out_after_crossing_the_finish_line_can_still_win() {
    let mut r = finish(race(), "target");
    let t = idx(&r, "target");
    r.entries[t].gear.state.rattle_record = 5;
    r.entries[t].gear.state.rattled = true;
    let r = on(r, "target", hit(2));
    assert!(r.gear("target").unwrap().state.knocked_out);
    let r = end_round(r);
    assert_eq!(r.victory(), Victory::Uncontested { id: "target".into() });
    // Contested, knocked out: 1 die (rattled) 6 → 6 − 6 = 0; hunter (record 1) 1,1 → 1 − 1 = 0;
    // the tie goes to the gear ahead.
    let mut r = finish(r.apply(&RaceEvent::StartRound).unwrap(), "hunter");
    let h = idx(&r, "hunter");
    r.entries[h].gear.state.rattle_record = 1;
    let out = r
        .contested_victory(
            &["target".into(), "hunter".into()],
            &["target".into(), "hunter".into()],
            &mut FixedRoller::new([6, 1, 1]),
        )
        .unwrap();
    assert_eq!(out.winner(), Some("target"));
}

#[test]
fn the_derby_sixth_spin_out_wins_at_the_end_of_its_round() {
    let mut r = race();
    r.scenario = Some(Scenario::Derby);
    let h = idx(&r, "hunter");
    r.entries[h].gear.state.spin_outs_caused = 5;
    let r = activate(r, "hunter", Speed::Cruising);
    // MOS 4 → 5 dice, 3 damage: target 0/0, spins out (turn 2, skid 3): the sixth.
    let (r, _) = r
        .attack(
            &shot(&[]),
            &mut FixedRoller::new([6, 5, 3, 2, 4, 4, 1, 6, 2, 2, 3]),
        )
        .unwrap();
    let hunter = r.gear("hunter").unwrap();
    assert_eq!(
        (hunter.state.spin_outs_caused, hunter.state.derby_round),
        (6, Some(1))
    );
    assert!(matches!(r.victory(), Victory::RoundNotOver { round: 1, .. }));
    let r = end_round(r);
    assert_eq!(r.victory(), Victory::Derby { id: "hunter".into() });
}

#[test]
fn a_collision_credits_the_pusher_with_grudge_match_and_pyrotechnics_tokens() {
    let mut r = race();
    r.scenario = Some(Scenario::GrudgeMatch);
    let c = idx(&r, "c");
    r.entries[c].gear.sheet.traits.push(Trait::Pyrotechnics);
    // c pushed hunter into target with MOS 2 (same AR: 2 dice each). Hunter 4,4 → 2: rattled,
    // spins out and rolls a 6 (a token); target 4,1 → 1: spins out (turn 2, skid 3).
    let mut dice = FixedRoller::new([4, 4, 4, 1, 6, 2, 3]);
    let (after, rep) = r
        .collide_by(
            "hunter",
            Some("target"),
            CollisionCause::Push { mos: 2 },
            Some("c"),
            &mut dice,
        )
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.caused_by, Some(("c".to_string(), 2)));
    let c = after.gear("c").unwrap();
    assert_eq!(c.state.spin_outs_caused, 2);
    // Grudge Match: hunter rattled → 1; Pyrotechnics: hunter's 6 gave it a token → 1.
    assert_eq!(c.state.rally_tokens, 2);
    assert!(rep.by_changes.contains(&Change::RallyTokens { tokens: 1 }));
    assert_eq!(after.gear("hunter").unwrap().state.rally_tokens, 1);
}

#[test]
fn recovery_refills_hull_first_by_default_so_the_token_clears() {
    assert_eq!(RaceOptions::default().recovery_order, RecoveryOrder::HullFirst);
    let r = on(race(), "target", hit(3));
    let (r, _) = r
        .act("target", &Action::SpinOut, &mut FixedRoller::new([2, 3]))
        .unwrap();
    let r = activate(
        r.apply(&RaceEvent::StartRound).unwrap(),
        "target",
        Speed::Cruising,
    );
    let (r, _) = r
        .act("target", &Action::Recover, &mut FixedRoller::new([1]))
        .unwrap();
    let t = r.gear("target").unwrap();
    assert_eq!((t.state.hull, t.state.structure), (1, 0));
    assert!(!t.state.rattled && !t.state.must_recover);
    // The house option keeps Structure first.
    let mut r = on(race(), "target", hit(3));
    r.options.recovery_order = RecoveryOrder::StructureFirst;
    let (r, _) = r
        .act("target", &Action::SpinOut, &mut FixedRoller::new([2, 3]))
        .unwrap();
    let r = activate(
        r.apply(&RaceEvent::StartRound).unwrap(),
        "target",
        Speed::Cruising,
    );
    let (r, _) = r
        .act("target", &Action::Recover, &mut FixedRoller::new([1]))
        .unwrap();
    let t = r.gear("target").unwrap();
    assert_eq!((t.state.hull, t.state.structure), (0, 1));
    assert!(t.state.rattled);
}

#[test]
fn hand_rolled_damage_settles_impact_and_credits_the_attacker() {
    use saikoro::systems::badlands_rally::damage::DamageRequest;
    let mut r = race();
    r.scenario = Some(Scenario::GrudgeMatch);
    let req = DamageRequest {
        mos: 1,
        pow: 6,
        ar: 5,
        melee: false,
        heat: false,
    };
    // 2 dice: 4,4 → 2 damage: rattled; Impact: turn 2, skid 3.
    let mut dice = FixedRoller::new([4, 4, 2, 3]);
    let (after, rep) = r.damage("target", &req, true, Some("hunter"), &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.damage.damage, 2);
    assert_eq!(rep.spin_out.as_ref().unwrap().skid, 3);
    let hunter = after.gear("hunter").unwrap();
    assert_eq!(hunter.state.spin_outs_caused, 1);
    assert_eq!(
        hunter.state.rally_tokens, 1,
        "Grudge Match: it rattled the target"
    );
    assert_eq!(rep.attacker.as_ref().unwrap().0, "hunter");
    // No Impact, no attacker: no spin-out, nobody credited.
    let (after, rep) = r
        .damage("target", &req, false, None, &mut FixedRoller::new([4, 1]))
        .unwrap();
    assert!(rep.spin_out.is_none() && rep.attacker.is_none());
    assert_eq!(after.gear("target").unwrap().state.hull, 1);
    // Refused before rolling: itself, an unknown attacker.
    assert_eq!(
        r.damage("target", &req, true, Some("target"), &mut FixedRoller::new([])),
        Err(RuleError::SelfTarget)
    );
    assert!(matches!(
        r.damage("target", &req, true, Some("zz"), &mut FixedRoller::new([])),
        Err(RuleError::UnknownGear { .. })
    ));
}

fn order(out: &saikoro::systems::badlands_rally::race::InitiativeOutcome) -> Vec<&str> {
    out.order.iter().map(|e| e.id.as_str()).collect()
}

fn dice_of(out: &saikoro::systems::badlands_rally::race::InitiativeOutcome, id: &str) -> Vec<Vec<u32>> {
    let e = out.order.iter().find(|e| e.id == id).unwrap();
    e.checks.iter().map(|c| c.dice.clone()).collect()
}

#[test]
fn reliable_rerolls_a_round_initiative_check_with_its_rally_dice_once_per_lap() {
    let mut r = race();
    r.entries[0].gear.state.rally_tokens = 1;
    // hunter 3 dice (one Rally die) 2,1,1 → 2; target 5,4 → 6; c 3,2 → 3.
    let mut dice = FixedRoller::new([2, 1, 1, 5, 4, 3, 2]);
    let (after, out) = r.initiative(&[], &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(order(&out), ["target", "c", "hunter"]);
    assert_eq!(after.gear("hunter").unwrap().state.rally_tokens, 0);
    // Reliable from the state before the check: the Rally die is rolled again, 6,5,1 → 7.
    let mut dice = FixedRoller::new([6, 5, 1]);
    let (r2, again) = r.initiative_reroll(&out, "hunter", &[], &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(order(&again), ["hunter", "target", "c"]);
    assert_eq!(again.order[0].score, 7);
    assert_eq!(
        again.order[0].checks[0].pool.net().unwrap(),
        3,
        "the Rally die counts"
    );
    assert_eq!(again.order[0].reliable.as_ref().unwrap().dice, vec![2, 1, 1]);
    assert_eq!(
        dice_of(&again, "target"),
        vec![vec![5, 4]],
        "the others keep theirs"
    );
    assert_eq!(r2.initiative.as_deref(), Some("hunter"));
    let h = r2.gear("hunter").unwrap();
    assert_eq!((h.state.rally_tokens, h.state.reliable_used_lap), (0, Some(0)));
    assert!(!h.reliable_available());
    // Once per lap; not for a gear without the trait or outside the check.
    let spent = on(r.clone(), "hunter", GearEvent::UseReliable);
    assert!(matches!(
        spent.initiative_reroll(&out, "hunter", &[], &mut FixedRoller::new([6, 6, 6])),
        Err(RuleError::AlreadyUsed { .. })
    ));
    let mut plain = r.clone();
    plain.entries[2]
        .gear
        .sheet
        .traits
        .retain(|t| *t != Trait::Reliable);
    assert!(matches!(
        plain.initiative_reroll(&out, "c", &[], &mut FixedRoller::new([6, 6])),
        Err(RuleError::MissingTrait { .. })
    ));
    assert!(matches!(
        r.initiative_reroll(&out, "zz", &[], &mut FixedRoller::new([6, 6])),
        Err(RuleError::UnknownGear { .. })
    ));
}

#[test]
fn reliable_on_pole_position_keeps_tie_rerolls_already_made_and_rolls_new_ties() {
    let r = race();
    // hunter 4,1 → 4; target 4,2 → 4; c 6,5 → 7. The tie rerolls: hunter 5,1 → 5, target 3,1 → 3.
    let mut dice = FixedRoller::new([4, 1, 4, 2, 6, 5, 5, 1, 3, 1]);
    let (_, out) = r.pole_position(&mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(order(&out), ["c", "hunter", "target"]);
    // c rerolls 2,1 → 2: hunter and target tie at 4 again and their rerolls stand, no new dice.
    let mut dice = FixedRoller::new([2, 1]);
    let (r2, again) = r.initiative_reroll(&out, "c", &[], &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(order(&again), ["hunter", "target", "c"]);
    assert_eq!(dice_of(&again, "hunter"), vec![vec![4, 1], vec![5, 1]]);
    assert_eq!(r2.pole.as_deref(), Some("hunter"));
    assert_eq!(r2.initiative.as_deref(), Some("hunter"));
    assert_eq!(r2.gear("c").unwrap().state.reliable_used_lap, Some(0));
    // hunter rerolls 6,4 → 7 instead: it ties with c, and both roll again (c 3,1 → 3, hunter
    // 5,5 → 6); target, alone now, keeps only its first check.
    let mut dice = FixedRoller::new([6, 4, 3, 1, 5, 5]);
    let (r3, again) = r.initiative_reroll(&out, "hunter", &[], &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(order(&again), ["hunter", "c", "target"]);
    assert_eq!(dice_of(&again, "hunter"), vec![vec![6, 4], vec![5, 5]]);
    assert_eq!(dice_of(&again, "target"), vec![vec![4, 2]]);
    assert_eq!(r3.pole.as_deref(), Some("hunter"));
}

#[test]
fn reliable_on_the_contested_victory_check_keeps_the_record_penalty_and_ties_to_the_leader() {
    let mut r = race();
    r.entries[0].gear.state.laps = 2;
    r.entries[1].gear.state.rattle_record = 2;
    let ids = vec!["hunter".to_string(), "target".to_string()];
    let ahead = vec!["hunter".to_string(), "target".to_string()];
    // hunter 3,2 → 3; target 6,5 → 7 − 2 = 5.
    let out = r
        .contested_victory(&ids, &ahead, &mut FixedRoller::new([3, 2, 6, 5]))
        .unwrap();
    assert_eq!(out.kind, InitiativeKind::Contested);
    assert_eq!(out.winner(), Some("target"));
    // hunter rerolls 5,1 → 5: a tie at 5, and hunter is ahead.
    let (r2, again) = r
        .initiative_reroll(&out, "hunter", &ahead, &mut FixedRoller::new([5, 1]))
        .unwrap();
    assert_eq!(again.winner(), Some("hunter"));
    assert_eq!(again.order[1].score, 5);
    assert_eq!(again.order[1].penalty, 2);
    assert!(matches!(
        again.tie_breaks.as_slice(),
        [saikoro::systems::badlands_rally::race::TieBreak::Position { .. }]
    ));
    // The use is recorded against the gear's lap; nothing else about the race changes.
    assert_eq!(r2.gear("hunter").unwrap().state.reliable_used_lap, Some(2));
    assert_eq!(r2.pole, r.pole);
    assert_eq!(r2.gear("target").unwrap(), r.gear("target").unwrap());
}

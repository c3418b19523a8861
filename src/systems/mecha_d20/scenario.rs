//! Whole turns with fixed dice, as the bot drives them: sheets typed in, initiative, attacks held
//! in the first and second phases, the application phase, and the checks it asks for.

use std::collections::BTreeMap;

use serde_json::json;

use super::attack::{EvasionSkill, UnitAttack};
use super::error::RuleError;
use super::initiative::InitiativeMode;
use super::secondary::{SecondaryEffect, SecondaryRow};
use super::state::{MechaState, Phase, PromptAnswer, PromptKind};
use super::unit::{Facing, Unit, WeaponStatus};
use crate::dice::FixedRoller;
use crate::systems::rules::SessionState;

fn unit(fields: &str) -> Unit {
    let f = crate::systems::sheet::parse_fields(fields).unwrap();
    Unit::read(&super::sheet::edit(&json!({}), &f).unwrap(), "test").unwrap()
}

fn roster() -> BTreeMap<String, Unit> {
    let mut units = BTreeMap::new();
    units.insert(
        "Alpha".to_string(),
        unit(
            r#"squad=Blue leader=yes 判断力=2 戦術=1 集中力=3 射撃=2 反応力=2 回避=1 行動ポイント=4 精神ポイント=5
               耐久度=20 装甲値=5 回避力=1 命中=1 火器管制力=1 weapon1="Beam Rifle 3d6+2 r3 right_arm""#,
        ),
    );
    units.insert(
        "Beta".to_string(),
        unit("squad=Blue judgement=1 tactics=1 ap=3 durability=15 armour=3"),
    );
    units.insert(
        "Rouge".to_string(),
        unit(
            r#"squad=Red leader=yes judgement=3 tactics=2 reaction=2 evade=2 concentration=2 melee=3 ap=4
               durability=10 armour=4 cockpit=all_round escape_device=2
               w1="Heat Hawk 1d6+8 melee left_arm" w2="Machine Gun 2d6 r2 right_arm""#,
        ),
    );
    units
}

fn rifle_at_rouge() -> UnitAttack {
    UnitAttack {
        attacker: "Alpha".into(),
        weapon: "Beam Rifle".into(),
        skill: None,
        attack_modifier: 0,
        target: "Rouge".into(),
        evasion_skill: EvasionSkill::Evade,
        evasion_modifier: 0,
        facing: Facing::Side,
        distance: 3,
        in_arc: true,
        multiplier: None,
    }
}

fn hawk_at_alpha() -> UnitAttack {
    UnitAttack {
        attacker: "Rouge".into(),
        weapon: "heat hawk".into(),
        target: "Alpha".into(),
        facing: Facing::Front,
        distance: 0,
        ..rifle_at_rouge()
    }
}

#[test]
fn a_whole_turn_holds_damage_until_application_then_escape_and_fatigue() {
    let mut units = roster();
    let mut st = MechaState::default();
    assert_eq!(st.start_turn(&mut units), Ok(1));

    // Initiative, every pilot: Alpha 3+3 = 6, Beta 2+12 = 14, Rouge 5+10 = 15 → Blue first.
    let init = st
        .roll_initiative(
            &units,
            InitiativeMode::AllPilots,
            &mut FixedRoller::new([3, 12, 10]),
        )
        .unwrap();
    assert_eq!(init.order, ["Blue", "Red"]);
    assert_eq!(st.phase, Phase::Squad { index: 0 });

    // Red may not act in Blue's phase: refused before any die.
    let mut r = FixedRoller::new([10, 10]);
    assert!(matches!(
        st.attack(&hawk_at_alpha(), &units, &mut r),
        Err(RuleError::NotYourPhase { .. })
    ));
    assert_eq!(r.remaining(), 2);
    // Other refusals: unknown units, out of reach, out of arc. Nothing rolled, nothing held.
    let before = (st.clone(), units.clone());
    let bad = [
        UnitAttack {
            target: "Nobody".into(),
            ..rifle_at_rouge()
        },
        UnitAttack {
            distance: 5,
            ..rifle_at_rouge()
        },
        UnitAttack {
            in_arc: false,
            ..rifle_at_rouge()
        },
    ];
    for spec in &bad {
        let e = st.attack(spec, &units, &mut r).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
    assert_eq!((st.clone(), units.clone()), before);
    assert_eq!(r.remaining(), 2);

    // First phase. Attack 3+2+0+1+1 = 7 + 11 = 18; evasion 2+2+0 −1 (side, all-round cockpit)
    // = 3 + 15 = 18: the tie hits. 3d6+2 shows 4,4,4 → 14 − 4 = 10, critical; the secondary
    // d20 shows 18: arm destroyed.
    let (hit, id) = st
        .attack(
            &rifle_at_rouge(),
            &units,
            &mut FixedRoller::new([11, 15, 4, 4, 4, 18]),
        )
        .unwrap();
    assert_eq!((hit.attack.attack.total, hit.attack.evasion.total), (18, 18));
    assert!(hit.attack.hit);
    let dmg = hit.damage.as_ref().unwrap();
    assert_eq!((dmg.damage, dmg.critical), (10, true));
    assert_eq!(dmg.secondary.unwrap().row, SecondaryRow::Arm);
    assert_eq!(id, Some(1));
    // Held, not applied: Rouge still has 10 durability and its armour.
    assert_eq!(units["Rouge"].suit.durability, 10);
    assert_eq!(st.pending_for("Rouge"), 10);

    // Second phase: Rouge, "destroyed" on paper, still acts (L71). Both d20s show 20: a hit.
    assert_eq!(st.next_phase(), Ok(Phase::Squad { index: 1 }));
    let (hit, _) = st
        .attack(&hawk_at_alpha(), &units, &mut FixedRoller::new([20, 20, 6]))
        .unwrap();
    assert!(hit.attack.hit && hit.attack.attack.natural_20 && hit.attack.evasion.natural_20);
    // 1d6+8 = 14 − 5 = 9; one die is never critical.
    let dmg = hit.damage.as_ref().unwrap();
    assert_eq!((dmg.damage, dmg.critical), (9, false));

    // The state survives the store mid-turn.
    let mut stored = json!({"other": 1});
    st.write(&mut stored);
    let text = serde_json::to_string(&stored).unwrap();
    let back = MechaState::read_value(&serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(back, st);
    assert_eq!(stored["other"], 1);
    let units_back: BTreeMap<String, Unit> = units
        .iter()
        .map(|(k, u)| (k.clone(), Unit::read(&u.to_value(), k).unwrap()))
        .collect();
    assert_eq!(units_back, units);

    // Application is refused in a squad phase; then it applies everything in order.
    assert!(matches!(
        st.apply(&mut units, &mut FixedRoller::new([1])),
        Err(RuleError::WrongPhase { .. })
    ));
    assert_eq!(st.next_phase(), Ok(Phase::Application));
    // The arm row picks a side among the recorded ones: d2 = 1, the left arm with the Heat Hawk.
    let app = st.apply(&mut units, &mut FixedRoller::new([1])).unwrap();
    assert_eq!(app.entries.len(), 2);
    assert_eq!(
        (app.entries[0].durability_before, app.entries[0].durability_after),
        (10, 0)
    );
    assert!(
        app.entries[0]
            .effects
            .iter()
            .any(|fx| matches!(fx, SecondaryEffect::PartDestroyed { lost, .. } if lost == &["Heat Hawk"]))
    );
    // Durability exactly 0 destroys (MG-6).
    assert_eq!(app.destroyed, ["Rouge"]);
    assert_eq!(app.fatigue, ["Alpha", "Beta"]);
    let rouge = &units["Rouge"];
    assert!(rouge.suit.destroyed);
    assert_eq!(rouge.suit.evasion_now(), -5);
    assert_eq!(rouge.suit.weapons[0].status, WeaponStatus::Lost { from: 2 });
    assert_eq!(rouge.suit.weapons[1].status, WeaponStatus::Usable);
    assert_eq!(units["Alpha"].suit.durability, 11);
    assert!(st.held.is_empty());
    assert_eq!(st.phase, Phase::TurnOver);

    // The escape button, once: d20 18 + device 2 = 20 ≥ 20.
    let esc = st
        .answer_prompt(
            PromptKind::Escape,
            "Rouge",
            &mut units,
            0,
            20,
            &mut FixedRoller::new([18]),
        )
        .unwrap();
    assert!(matches!(esc, PromptAnswer::Escape(ref o) if o.escaped && o.check.total == 20));
    let mut r = FixedRoller::new([18]);
    assert!(matches!(
        st.answer_prompt(PromptKind::Escape, "Rouge", &mut units, 0, 20, &mut r),
        Err(RuleError::NoPrompt { .. })
    ));
    assert_eq!(r.remaining(), 1, "a second press rolls nothing");
    assert_eq!(units["Rouge"].pilot.escaped, Some(true));
    // No fatigue check for a destroyed suit's pilot.
    assert!(!st.has_prompt(PromptKind::Fatigue, "Rouge"));

    // Fatigue: Alpha 4 + 15 = 19 → 1 fatigue, AP 3; Beta 3 + 17 = 20 → rested.
    let f = st
        .answer_prompt(
            PromptKind::Fatigue,
            "Alpha",
            &mut units,
            0,
            20,
            &mut FixedRoller::new([15]),
        )
        .unwrap();
    assert!(matches!(f, PromptAnswer::Fatigue(ref o) if !o.rested && o.fatigue == 1 && o.ap == 3));
    let f = st
        .answer_prompt(
            PromptKind::Fatigue,
            "Beta",
            &mut units,
            0,
            20,
            &mut FixedRoller::new([17]),
        )
        .unwrap();
    assert!(matches!(f, PromptAnswer::Fatigue(ref o) if o.rested));

    // Turn 2: Alpha starts with 4 − 1 = 3 AP; Rouge no longer rolls initiative or fights.
    assert_eq!(st.start_turn(&mut units), Ok(2));
    assert_eq!(units["Alpha"].pilot.ap, 3);
    let init = st
        .roll_initiative(&units, InitiativeMode::Leaders, &mut FixedRoller::new([5]))
        .unwrap();
    assert_eq!(init.order, ["Blue"]);
    assert!(matches!(
        st.attack(&rifle_at_rouge(), &units, &mut FixedRoller::new([10, 10])),
        Err(RuleError::Destroyed { .. })
    ));

    // Spirit spent with the faint option on: a faint check waits; 5 − 3 = 2 + 17 = 19: fainted.
    let spent = st.spend_spirit("Alpha", &mut units, 3, true).unwrap();
    assert!(spent.faint_prompted && spent.left == 2);
    let faint = st
        .answer_prompt(
            PromptKind::Faint,
            "Alpha",
            &mut units,
            0,
            20,
            &mut FixedRoller::new([17]),
        )
        .unwrap();
    assert!(matches!(faint, PromptAnswer::Faint(ref o) if !o.conscious));
    assert!(units["Alpha"].pilot.fainted);
    // Option off: no prompt.
    assert!(
        !st.spend_spirit("Beta", &mut units, 0, false)
            .unwrap()
            .faint_prompted
    );
    assert!(matches!(
        st.spend_spirit("Beta", &mut units, 1, true),
        Err(RuleError::NotEnoughSpirit { .. })
    ));
    assert!(!st.has_prompt(PromptKind::Faint, "Beta"));
}

#[test]
fn an_application_that_fails_half_way_changes_nothing() {
    let mut units = roster();
    let mut st = MechaState::default();
    st.start_turn(&mut units).unwrap();
    st.roll_initiative(
        &units,
        InitiativeMode::AllPilots,
        &mut FixedRoller::new([3, 12, 10]),
    )
    .unwrap();
    st.attack(
        &rifle_at_rouge(),
        &units,
        &mut FixedRoller::new([11, 15, 4, 4, 4, 18]),
    )
    .unwrap();
    st.next_phase().unwrap();
    st.next_phase().unwrap();
    let (st_before, units_before) = (st.clone(), units.clone());
    // The arm row needs a d2 and the dice are out.
    assert!(matches!(
        st.apply(&mut units, &mut FixedRoller::new([])),
        Err(RuleError::Dice(_))
    ));
    assert_eq!((st, units), (st_before, units_before));
}

#[test]
fn an_arm_without_recorded_sides_waits_for_the_owners_choice() {
    let mut units = BTreeMap::new();
    units.insert(
        "Gunner".to_string(),
        unit(r#"squad=A durability=30 w1="Gun 2d6 r2 arm" w2="Saber 1d6+3 melee arm" w3="Vulcan 2d6 r1 head fixed""#),
    );
    units.insert(
        "Foe".to_string(),
        unit(r#"squad=B durability=30 w1="Cannon 2d6 r3""#),
    );
    let mut st = MechaState::default();
    st.start_turn(&mut units).unwrap();
    // Foe (B) rolls 1, Gunner (A) 10: B first.
    st.roll_initiative(&units, InitiativeMode::AllPilots, &mut FixedRoller::new([10, 1]))
        .unwrap();
    assert_eq!(st.squad_order, ["B", "A"]);
    let shot = UnitAttack {
        attacker: "Foe".into(),
        weapon: "1".into(),
        target: "Gunner".into(),
        facing: Facing::Front,
        ..rifle_at_rouge()
    };
    // Natural 20; 3,3 critical; secondary 18.
    st.attack(&shot, &units, &mut FixedRoller::new([20, 5, 3, 3, 18]))
        .unwrap();
    st.next_phase().unwrap();
    st.next_phase().unwrap();
    let app = st.apply(&mut units, &mut FixedRoller::new([])).unwrap();
    assert_eq!(app.choices.len(), 1);
    assert_eq!(app.choices[0].candidates, ["Gun", "Saber"]);
    assert_eq!(app.destroyed.len(), 0);
    // Nothing lost until the owner chooses; a wrong pick is refused with nothing changed.
    assert_eq!(units["Gunner"].suit.weapons[0].status, WeaponStatus::Usable);
    let before = (st.clone(), units.clone());
    assert_eq!(
        st.choose_lost_weapons("Gunner", &mut units, &["Vulcan".to_string()]),
        Err(RuleError::BadChoice {
            weapon: "Vulcan".into()
        })
    );
    assert_eq!((st.clone(), units.clone()), before);
    let lost = st
        .choose_lost_weapons("Gunner", &mut units, &["saber".to_string()])
        .unwrap();
    assert_eq!(lost, ["Saber"]);
    assert_eq!(
        units["Gunner"].suit.weapons[1].status,
        WeaponStatus::Lost { from: 2 }
    );
    assert_eq!(units["Gunner"].suit.weapons[0].status, WeaponStatus::Usable);
    assert_eq!(
        st.choose_lost_weapons("Gunner", &mut units, &[]),
        Err(RuleError::NoChoice {
            name: "Gunner".into()
        })
    );
}

#[test]
fn a_malfunction_lasts_exactly_the_next_turn() {
    let mut units = BTreeMap::new();
    units.insert(
        "Target".to_string(),
        unit(r#"squad=A durability=50 w1="Rifle 2d6 r3 standard""#),
    );
    units.insert(
        "Shooter".to_string(),
        unit(r#"squad=B durability=50 w1="Cannon 2d6 r3""#),
    );
    let mut st = MechaState::default();
    st.start_turn(&mut units).unwrap();
    st.roll_initiative(&units, InitiativeMode::AllPilots, &mut FixedRoller::new([10, 1]))
        .unwrap();
    let shot = UnitAttack {
        attacker: "Shooter".into(),
        weapon: "Cannon".into(),
        target: "Target".into(),
        facing: Facing::Front,
        ..rifle_at_rouge()
    };
    // Hit, 5,5 critical, row 8: a standard weapon malfunctions for the next turn.
    st.attack(&shot, &units, &mut FixedRoller::new([20, 1, 5, 5, 8]))
        .unwrap();
    st.next_phase().unwrap();
    let back_shot = UnitAttack {
        attacker: "Target".into(),
        weapon: "Rifle".into(),
        target: "Shooter".into(),
        ..shot.clone()
    };
    // Turn 1: the Rifle still fires (nothing is applied yet).
    st.attack(&back_shot, &units, &mut FixedRoller::new([1, 20]))
        .unwrap();
    st.next_phase().unwrap();
    st.apply(&mut units, &mut FixedRoller::new([])).unwrap();
    assert_eq!(
        units["Target"].suit.weapons[0].status,
        WeaponStatus::Malfunction { turn: 2 }
    );
    // Turn 2: refused. Turn 3: fires again.
    st.start_turn(&mut units).unwrap();
    st.roll_initiative(&units, InitiativeMode::AllPilots, &mut FixedRoller::new([1, 10]))
        .unwrap();
    assert_eq!(st.acting_squad(), Some("A"));
    assert_eq!(
        st.attack(&back_shot, &units, &mut FixedRoller::new([10, 10]))
            .unwrap_err(),
        RuleError::WeaponMalfunction {
            weapon: "Rifle".into(),
            turn: 2
        }
    );
    st.next_phase().unwrap();
    st.next_phase().unwrap();
    st.apply(&mut units, &mut FixedRoller::new([])).unwrap();
    st.start_turn(&mut units).unwrap();
    st.roll_initiative(&units, InitiativeMode::AllPilots, &mut FixedRoller::new([1, 10]))
        .unwrap();
    assert!(
        st.attack(&back_shot, &units, &mut FixedRoller::new([10, 10, 1, 2]))
            .is_ok()
    );
}

/// Issue 33: the battle remembers this turn's hits by attacker and target (raw damage from a
/// player onto another's unit may follow one); a miss, another target or another turn is none.
#[test]
fn this_turns_hits_are_remembered_by_attacker_and_target() {
    let mut units = roster();
    let mut st = MechaState::default();
    st.start_turn(&mut units).unwrap();
    st.roll_initiative(
        &units,
        InitiativeMode::AllPilots,
        &mut FixedRoller::new([3, 12, 10]),
    )
    .unwrap();
    assert!(!st.hit_this_turn("Alpha", "Rouge"));
    // A miss (attack 7 + 1 = 8 against evasion 3 + 15 = 18): nothing remembered.
    let (miss, _) = st
        .attack(&rifle_at_rouge(), &units, &mut FixedRoller::new([1, 15]))
        .unwrap();
    assert!(!miss.attack.hit);
    assert!(!st.hit_this_turn("Alpha", "Rouge"));
    // A hit (18 against 18; 3d6+2 shows 1, 2, 3 → 8 − 4 = 4).
    st.attack(
        &rifle_at_rouge(),
        &units,
        &mut FixedRoller::new([11, 15, 1, 2, 3]),
    )
    .unwrap();
    assert!(st.hit_this_turn("alpha", "Rouge"), "any case");
    assert!(!st.hit_this_turn("Rouge", "Alpha") && !st.hit_this_turn("Beta", "Rouge"));
    // It survives the store, and the next turn forgets it.
    let mut stored = json!({});
    st.write(&mut stored);
    let mut st = MechaState::read(&stored).unwrap();
    assert!(st.hit_this_turn("Alpha", "Rouge"));
    st.next_phase().unwrap();
    st.next_phase().unwrap();
    st.apply(&mut units, &mut FixedRoller::new([])).unwrap();
    st.start_turn(&mut units).unwrap();
    assert!(!st.hit_this_turn("Alpha", "Rouge"));
}

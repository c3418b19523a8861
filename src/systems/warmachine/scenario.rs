//! A whole game through the public API, as the bot would drive it: sheets typed into `/char`,
//! the state stored as JSON between commands, two players, effects expiring by instance, a
//! ruling that binds the rest of the game, and models disabled and destroyed.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::attack::{AttackOptions, AttackRequest, resolve_attack};
use super::damage::{DamageRequest, PowSource, resolve_damage};
use super::dice::{Automatic, DiceRequest};
use super::effects::{Expiry, Stat, preset};
use super::model::{AttackKind, Model, ModelStatus};
use super::rules::{WarmachineRules, attack_options};
use super::state::WarmachineState;
use super::triggers::Resolution;
use super::turn::RolesFrom;
use crate::dice::FixedRoller;
use crate::systems::rules::{SessionState, SystemRules};

fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Models as the roster stores them: a sheet JSON per entry name.
fn roster() -> BTreeMap<String, Value> {
    let r = WarmachineRules;
    let mut out = BTreeMap::new();
    for (name, fields) in [
        (
            "Stalker",
            kv(&[
                ("controller", "Ana"),
                ("mat", "7"),
                ("def", "13"),
                ("arm", "17"),
                ("boxes", "25"),
                ("weapon1", "Blade 13 melee"),
            ]),
        ),
        (
            "Shade",
            kv(&[
                ("controller", "Ana"),
                ("mat", "5"),
                ("def", "14"),
                ("arm", "11"),
                ("boxes", "5"),
                ("weapon", "Claw 10 melee"),
            ]),
        ),
        (
            "Juggernaut",
            kv(&[
                ("コントローラー", "Ben"),
                ("近接", "6"),
                ("防御", "12"),
                ("装甲", "18"),
                ("ボックス", "20"),
                ("武器1", "Axe 16 近接"),
            ]),
        ),
        (
            "Grunt",
            kv(&[
                ("controller", "Ben"),
                ("def", "13"),
                ("arm", "13"),
                ("boxes", "5"),
            ]),
        ),
    ] {
        out.insert(
            name.to_string(),
            r.edit_sheet(&json!({}), &fields, false).unwrap(),
        );
    }
    out
}

/// What the bot does per command: read the models out of the roster…
fn load(roster: &BTreeMap<String, Value>) -> BTreeMap<String, Model> {
    roster
        .iter()
        .map(|(name, v)| {
            let mut m: Model = serde_json::from_value(v.clone()).unwrap();
            m.name = name.clone();
            (name.clone(), m)
        })
        .collect()
}

/// …and write them back.
fn store(roster: &mut BTreeMap<String, Value>, models: &BTreeMap<String, Model>) {
    for (name, m) in models {
        roster.insert(name.clone(), serde_json::to_value(m).unwrap());
    }
}

/// The session's `system_state` through a JSON string, as the store keeps it.
fn persist(state: &WarmachineState, system_state: &mut Value) -> WarmachineState {
    state.write(system_state);
    let text = serde_json::to_string(system_state).unwrap();
    *system_state = serde_json::from_str(&text).unwrap();
    WarmachineRules.check_state(system_state).unwrap();
    WarmachineState::read(system_state).unwrap()
}

#[test]
fn a_whole_game() {
    let options = attack_options(&BTreeMap::new());
    assert_eq!(options, AttackOptions { auto_hit_miss: true });
    let mut roster = roster();
    let mut system_state = json!({});
    let mut st = WarmachineState::read(&system_state).unwrap();
    st.game.start(&["Ana".to_string(), "Ben".to_string()]).unwrap();
    let mut st = persist(&st, &mut system_state);

    // Round 1, Ana's turn. The Shade activates; the Juggernaut is within 2" of it (players add
    // Dark Shroud until the end of Ana's turn) and Kiss of Lyliss lands for one round.
    let mut m = load(&roster);
    st.game.start_activation(&m["Shade"]).unwrap();
    let j = m.get_mut("Juggernaut").unwrap();
    j.add_effect(
        &preset("Dark Shroud").unwrap(),
        Expiry::EndOfTurn { player: "Ana".into() },
        Some("Shade"),
        Some("Ana"),
    )
    .unwrap();
    j.add_effect(
        &preset("キスオブ・リリス").unwrap(),
        Expiry::StartOfTurn { player: "Ana".into() },
        None,
        Some("Ana"),
    )
    .unwrap();
    // A second Dark Shroud instance (another Shade's aura) lasts only for this activation.
    j.add_effect(
        &preset("dark_shroud").unwrap(),
        Expiry::EndOfActivation {
            model: "Shade".into(),
        },
        Some("Shade 2"),
        Some("Ana"),
    )
    .unwrap();
    assert_eq!(
        j.stat(Stat::Arm).value,
        14,
        "two Dark Shrouds count once: 18 − 2 − 2"
    );
    st.game.use_any_time("Shade", "Occultation").unwrap();
    let gone = st.game.end_activation(&mut m).unwrap();
    assert_eq!(gone.len(), 1);
    assert!(
        gone[0].effect_remains,
        "the other Dark Shroud instance keeps the effect"
    );
    assert_eq!(m["Juggernaut"].stat(Stat::Arm).value, 14);
    store(&mut roster, &m);
    let mut st = persist(&st, &mut system_state);

    // The Stalker charges the Juggernaut: boosted attack, then damage against ARM 14.
    let mut m = load(&roster);
    st.game.start_activation(&m["Stalker"]).unwrap();
    st.game.begin_move(false).unwrap();
    st.game.end_move().unwrap();
    st.game.begin_attack(&m["Stalker"], &m["Juggernaut"]).unwrap();
    let req = AttackRequest {
        kind: AttackKind::Melee,
        weapon: Some("Blade".into()),
        modifier: 0,
        dice: DiceRequest {
            boost: true,
            ..DiceRequest::default()
        },
        cover: 0,
    };
    let atk = resolve_attack(
        &req,
        &m["Stalker"],
        &m["Juggernaut"],
        &options,
        &mut FixedRoller::new(vec![4, 5, 2]),
    )
    .unwrap();
    assert_eq!(
        (atk.total, atk.def.value, atk.hit, atk.critical),
        (18, 12, true, false)
    );
    assert_eq!(atk.active_player, "Ana");
    st.game.record_attack(&atk).unwrap();
    let attacker = m["Stalker"].clone();
    let dmg = resolve_damage(
        &DamageRequest {
            pow: PowSource::Weapon("Blade".into()),
            modifier: 0,
            dice: DiceRequest::default(),
        },
        &attacker,
        m.get_mut("Juggernaut").unwrap(),
        &mut FixedRoller::new(vec![6, 5]),
    )
    .unwrap();
    assert_eq!((dmg.arm.value, dmg.damage, dmg.boxes_after.marked), (14, 10, 10));
    assert_eq!(dmg.arm.applied.len(), 2);
    st.game.end_attack().unwrap();

    // A dispute: three rounds of ties, then Ben wins; the ruling binds the rest of the game.
    let d = st
        .dispute(
            "Does the wreck block line of sight?",
            &[],
            Some("Wrecks block line of sight"),
            1_700_000_000_000,
            &mut FixedRoller::new(vec![5, 5, 3, 3, 1, 1, 2, 6]),
        )
        .unwrap();
    assert_eq!(d.roll_off.rounds.len(), 4);
    assert_eq!(d.roll_off.winner.name, "Ben");
    st.game.end_activation(&mut m).unwrap();
    store(&mut roster, &m);
    let mut st = persist(&st, &mut system_state);
    assert_eq!(st.rulings[0].ruling, "Wrecks block line of sight");
    assert_eq!(system_state["warmachine"]["rulings"][0]["winner"]["number"], 2);

    // Ana's turn ends: her "end of turn" Dark Shroud goes; Kiss of Lyliss stays until her next.
    let mut m = load(&roster);
    let end = st.game.end_turn(&mut m).unwrap();
    assert_eq!((end.next_player.as_str(), end.round), ("Ben", 1));
    assert_eq!(end.expired_at_end.len(), 1);
    assert!(!end.expired_at_end[0].effect_remains);
    assert_eq!(m["Juggernaut"].stat(Stat::Arm).value, 16);
    store(&mut roster, &m);
    let mut st = persist(&st, &mut system_state);

    // Ben's turn: the Juggernaut hits the Stalker; both players have triggers, Ben's go first.
    let mut m = load(&roster);
    st.game.start_activation(&m["Juggernaut"]).unwrap();
    assert!(st.game.start_activation(&m["Grunt"]).is_err());
    st.game.begin_attack(&m["Juggernaut"], &m["Stalker"]).unwrap();
    let atk = resolve_attack(
        &AttackRequest {
            kind: AttackKind::Melee,
            weapon: Some("axe".into()),
            modifier: 0,
            dice: DiceRequest::default(),
            cover: 0,
        },
        &m["Juggernaut"],
        &m["Stalker"],
        &options,
        &mut FixedRoller::new(vec![3, 5]),
    )
    .unwrap();
    assert!(atk.hit);
    assert_eq!(atk.active_player, "Ben");
    st.game.record_attack(&atk).unwrap();
    st.game
        .add_triggers("Ana: Retaliatory strike\nBen: Follow up")
        .unwrap();
    st.game.end_attack().unwrap();
    let mut st = persist(&st, &mut system_state);
    assert_eq!(st.game.roles().unwrap().from, RolesFrom::AfterAttack);
    let order: Vec<String> = st.game.trigger_order().iter().map(|t| t.owner.clone()).collect();
    assert_eq!(order, vec!["Ben", "Ana"]);
    let first = st.game.trigger_order()[0].id;
    let second = st.game.trigger_order()[1].id;
    assert!(st.game.close_trigger(second, Resolution::Resolved).is_err());
    st.game
        .close_trigger(first, Resolution::DeclinedOptional)
        .unwrap();
    st.game
        .close_trigger(second, Resolution::ConditionNoLongerMet)
        .unwrap();
    assert_eq!(st.game.roles().unwrap().from, RolesFrom::Turn);
    st.game.end_activation(&mut m).unwrap();
    let end = st.game.end_turn(&mut m).unwrap();
    assert_eq!((end.next_player.as_str(), end.round), ("Ana", 2));
    assert_eq!(
        end.expired_at_start.len(),
        1,
        "Kiss of Lyliss ends as Ana's turn starts"
    );
    assert_eq!(m["Juggernaut"].stat(Stat::Arm).value, 18);
    store(&mut roster, &m);
    let mut st = persist(&st, &mut system_state);

    // Round 2: the Stalker disables the Grunt with a critical; the Shade's automatic hit on
    // the disabled Grunt destroys it.
    let mut m = load(&roster);
    st.game.start_activation(&m["Stalker"]).unwrap();
    st.game.begin_attack(&m["Stalker"], &m["Grunt"]).unwrap();
    let atk = resolve_attack(
        &req,
        &m["Stalker"],
        &m["Grunt"],
        &options,
        &mut FixedRoller::new(vec![3, 3, 1]),
    )
    .unwrap();
    assert!(atk.hit && atk.critical, "3+3 kept with the 1: a pair");
    let attacker = m["Stalker"].clone();
    let dmg = resolve_damage(
        &DamageRequest {
            pow: PowSource::Weapon("Blade".into()),
            modifier: 0,
            dice: DiceRequest::default(),
        },
        &attacker,
        m.get_mut("Grunt").unwrap(),
        &mut FixedRoller::new(vec![3, 3]),
    )
    .unwrap();
    assert_eq!(
        (dmg.damage, dmg.boxes_after.marked, dmg.status_after),
        (6, 5, ModelStatus::Disabled)
    );
    st.game.end_attack().unwrap();
    st.game.end_activation(&mut m).unwrap();
    st.game.start_activation(&m["Shade"]).unwrap();
    st.game.begin_attack(&m["Shade"], &m["Grunt"]).unwrap();
    let atk = resolve_attack(
        &AttackRequest {
            kind: AttackKind::Melee,
            weapon: Some("Claw".into()),
            modifier: -5,
            dice: DiceRequest::default(),
            cover: 0,
        },
        &m["Shade"],
        &m["Grunt"],
        &options,
        &mut FixedRoller::new(vec![6, 6]),
    )
    .unwrap();
    assert_eq!((atk.hit, atk.automatic), (true, Some(Automatic::Hit)));
    assert!(atk.destroys_disabled_target);
    let attacker = m["Shade"].clone();
    let dmg = resolve_damage(
        &DamageRequest {
            pow: PowSource::Weapon("Claw".into()),
            modifier: 0,
            dice: DiceRequest::default(),
        },
        &attacker,
        m.get_mut("Grunt").unwrap(),
        &mut FixedRoller::new(vec![1, 1]),
    )
    .unwrap();
    assert!(dmg.destroyed_by_hit);
    st.game.end_attack().unwrap();
    st.game.end_activation(&mut m).unwrap();
    store(&mut roster, &m);
    let st = persist(&st, &mut system_state);

    // Everything reads back: the Grunt destroyed, the Juggernaut's 10 boxes, the ruling.
    let m = load(&roster);
    assert_eq!(m["Grunt"].status, ModelStatus::Destroyed);
    assert_eq!(m["Juggernaut"].marked, 10);
    assert!(m["Juggernaut"].effects.is_empty());
    let status = st.status();
    assert_eq!(
        (status.round, status.turn_player.as_deref(), status.rulings),
        (2, Some("Ana"), 1)
    );
    assert_eq!(st.rulings[0].question, "Does the wreck block line of sight?");
    let lines = WarmachineRules.describe_sheet(&roster["Grunt"], crate::i18n::Lang::Ja);
    assert!(lines.iter().any(|(_, v)| v.contains("デストロイ")), "{lines:?}");
}

//! What one evening of a d20 mecha campaign leaves to the next (issue 27; rules file §5).
//!
//! The next evening is a new battle: the pilots and their suits stay (abilities, skills, squads,
//! leaders, suit stats, weapons); the battle resets — turn, phase and squad order, initiative,
//! the held damage list and the checks waiting for their buttons; each pilot starts rested (AP
//! full, no fatigue, spirit points full, awake), propellant is refilled and malfunctions are over.
//!
//! Whether suits come back repaired is the table's choice (this is an RPG: a campaign may make
//! repairs cost): `mecha.repair_between_battles` = `full` (default: durability, wear, lost parts
//! and weapons, a destroyed suit and its escape result all restored) or `none` (damage and losses
//! carry until the GM edits them; destroyed and lost weapons stay unusable from turn 1).
//! A battle left unfinished: `mecha.next_evening=continue` carries it as it was.

use serde_json::Value;

use super::state::MechaState;
use super::unit::Unit;
use crate::systems::rules::{EveningStart, Evenings, FULL_OR_NONE, HouseOption, NextGame, SessionState};

/// Whether suits are repaired between battles.
pub const REPAIR: HouseOption = HouseOption {
    key: "mecha.repair_between_battles",
    values: &["full", "none"],
    value_text: FULL_OR_NONE,
    en: "Suits are fully repaired for a new battle (`none`: damage, wear and lost weapons carry)",
    ja: "新しい戦闘の前に兵装を全修理する（`none`：損傷・部位破損・失った武器が残る）",
};

pub static EVENINGS: Evenings = Evenings {
    carries: &[
        (
            "pilots (abilities, skills, squad, leader) and suits (stats, weapons)",
            "パイロット（能力値、技能、部隊、隊長）と兵装（能力値、武器）",
        ),
        (
            "`mecha.repair_between_battles=none`: durability, wear, a destroyed suit, destroyed and lost weapons",
            "`mecha.repair_between_battles=none`：耐久度、部位破損などの低下、撃破、兵器破損・兵器損失",
        ),
    ],
    resets: &[
        (
            "a new battle: turn, phase, squad order, initiative, held damage, waiting checks",
            "新しい戦闘：ターン、フェイズ、部隊の順番、イニシアチブ、保留中のダメージ、待機中の判定",
        ),
        (
            "pilots rested: AP full, fatigue 0, spirit points full, not fainted; propellant full; malfunctions over",
            "パイロットは休息：行動ポイント全快、疲労0、精神ポイント全快、気絶解除；推進剤満タン；兵器不調は回復",
        ),
        (
            "suits repaired (default `full`): durability, wear, destroyed, lost parts and weapons",
            "兵装は修理（既定 `full`）：耐久度、部位破損などの低下、撃破、失った部位と武器",
        ),
    ],
    sheet: next_sheet,
    state: next_state,
    goes_on: &[],
    game: Some(("battle", "戦闘")),
    usual: NextGame::New,
    fight_apart: false,
};

fn new_battle(start: &EveningStart) -> bool {
    start.next == NextGame::New
}

/// A unit as a new battle fields it. A sheet that does not read is left as it is.
fn next_sheet(value: &mut Value, start: &EveningStart) {
    if !new_battle(start) {
        return;
    }
    if let Ok(mut u) = Unit::read(value, "") {
        if REPAIR.value_in(start.house) == "full" {
            u.repair();
        } else {
            u.rest();
        }
        *value = u.to_value();
    }
}

/// No battle yet.
fn next_state(value: &mut Value, start: &EveningStart) {
    if new_battle(start) {
        MechaState::default().write(value);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;
    use crate::dice::FixedRoller;
    use crate::session::{Actor, RosterEntry, Session, SystemId, TurnState};
    use crate::systems::mecha_d20::initiative::InitiativeMode;
    use crate::systems::mecha_d20::rules::MechaD20Rules;
    use crate::systems::mecha_d20::state::{Held, Phase, Prompt, PromptKind};
    use crate::systems::mecha_d20::unit::WeaponStatus;
    use crate::systems::rules::House;
    use crate::systems::rules::SystemRules;

    const GM: u64 = 1;

    fn kv(s: &str) -> Vec<(String, String)> {
        crate::systems::sheet::parse_fields(s).unwrap()
    }

    fn unit(v: &Value) -> Unit {
        Unit::read(v, "x").unwrap()
    }

    fn sheet(fields: &str) -> Value {
        MechaD20Rules.edit_sheet(&json!({}), &kv(fields), false).unwrap()
    }

    /// Evening 1, turn 2: Alpha's pilot spent 2 AP, 3 spirit and took 1 fatigue, fainted; the
    /// suit spent 6 propellant, is down to 7 durability, lost 2 armour, its rifle malfunctions
    /// and its hawk was lost with an arm; Rouge was destroyed and its pilot escaped. Damage is
    /// held and a fatigue check waits.
    fn evening_one() -> Session {
        let mut s = Session::start(7, 8, "Sortie", SystemId::MechaD20, GM, 100).unwrap();
        s.id = 41;
        let alpha = sheet(
            r#"squad=Blue leader=yes judgement=2 tactics=1 ap=4 spirit=5 durability=20 armour=5
               propellant=20 w1="Beam Rifle 3d6+2 r3 right_arm" w2="Heat Hawk 1d6+8 melee left_arm""#,
        );
        let alpha = MechaD20Rules
            .edit_sheet(&alpha, &kv("durability_left=7 fatigue=1 fainted=yes"), true)
            .unwrap();
        let rouge = sheet("squad=Red judgement=3 tactics=2 ap=4 durability=10 armour=4 escape_device=2");
        let mut units = BTreeMap::new();
        units.insert("Alpha".to_string(), unit(&alpha));
        units.insert("Rouge".to_string(), unit(&rouge));
        let mut st = MechaState::default();
        st.start_turn(&mut units).unwrap();
        st.roll_initiative(&units, InitiativeMode::AllPilots, &mut FixedRoller::new([3, 12]))
            .unwrap();
        let a = units.get_mut("Alpha").unwrap();
        a.spend_ap("Alpha", 2).unwrap();
        a.spend_spirit("Alpha", 3).unwrap();
        a.spend_propellant("Alpha", 6).unwrap();
        a.suit.wear.armour = 2;
        a.suit.wear.arms.push(crate::systems::mecha_d20::unit::Limb::Left);
        a.suit.weapons[0].status = WeaponStatus::Malfunction { turn: 2 };
        a.suit.weapons[1].status = WeaponStatus::Lost { from: 2 };
        let r = units.get_mut("Rouge").unwrap();
        r.suit.durability = -3;
        r.suit.destroyed = true;
        r.pilot.escaped = Some(true);
        st.held.push(Held {
            id: 1,
            turn: 1,
            attacker: "Alpha".into(),
            weapon: "Beam Rifle".into(),
            target: "Rouge".into(),
            damage: 5,
            critical: false,
            secondary: None,
        });
        st.prompts.push(Prompt {
            kind: PromptKind::Fatigue,
            unit: "Alpha".into(),
            turn: 1,
        });
        for (name, u) in &units {
            s.roster
                .push(RosterEntry::new(name.clone(), 2).with_sheet(u.to_value()));
        }
        st.write(&mut s.system_state);
        s.end(Actor::user(GM), 200).unwrap();
        s
    }

    fn next(house: &[(&str, &str)]) -> (Session, Session) {
        next_with(house, NextGame::New)
    }

    fn next_with(house: &[(&str, &str)], game: NextGame) -> (Session, Session) {
        let one = evening_one();
        let house: House = house
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let two = one.next_evening(Actor::user(GM), &house, game, 300).unwrap();
        (one, two)
    }

    #[test]
    fn a_new_battle_repairs_suits_rests_pilots_and_clears_the_board() {
        let (one, two) = next(&[]);
        let a = unit(&two.roster[0].sheet);
        let p = &a.pilot;
        assert_eq!((p.ap, p.fatigue, p.spirit, p.fainted), (4, 0, 5, false));
        assert_eq!(
            (p.squad.as_str(), p.leader, p.judgement, p.tactics),
            ("Blue", true, 2, 1)
        );
        let s = &a.suit;
        assert_eq!((s.durability, s.propellant, s.destroyed), (20, 20, false));
        assert!(s.wear.is_empty());
        assert!(s.weapons.iter().all(|w| w.status == WeaponStatus::Usable));
        // Only the battle's marks changed: the same unit, repaired.
        let mut before = unit(&one.roster[0].sheet);
        before.repair();
        assert_eq!(a, before);
        let r = unit(&two.roster[1].sheet);
        assert_eq!(
            (r.suit.durability, r.suit.destroyed, r.pilot.escaped),
            (10, false, None)
        );
        assert_eq!(
            MechaState::read(&two.system_state).unwrap(),
            MechaState::default()
        );
        assert_eq!(two.turn, TurnState::default());
    }

    #[test]
    fn without_repairs_damage_and_losses_carry_and_the_pilots_still_rest() {
        let (one, two) = next(&[("mecha.repair_between_battles", "none")]);
        let a = unit(&two.roster[0].sheet);
        let p = &a.pilot;
        assert_eq!((p.ap, p.fatigue, p.spirit, p.fainted), (4, 0, 5, false));
        let s = &a.suit;
        assert_eq!((s.durability, s.propellant, s.destroyed), (7, 20, false));
        assert_eq!((s.wear.armour, s.armour_now()), (2, 3));
        assert_eq!(s.wear.arms.len(), 1);
        assert_eq!(s.weapons[0].status, WeaponStatus::Usable, "a malfunction is over");
        assert_eq!(s.weapons[1].status, WeaponStatus::Lost { from: 0 });
        assert!(
            !s.weapons[1].status.usable_in(1),
            "lost from the new battle's first turn"
        );
        let r = unit(&two.roster[1].sheet);
        assert_eq!(
            (r.suit.durability, r.suit.destroyed, r.pilot.escaped),
            (-3, true, Some(true))
        );
        assert_eq!(
            MechaState::read(&two.system_state).unwrap(),
            MechaState::default()
        );
        let before = MechaState::read(&one.system_state).unwrap();
        assert_eq!((before.turn, before.held.len(), before.prompts.len()), (1, 1, 1));
    }

    #[test]
    fn an_evening_that_goes_on_keeps_the_unfinished_battle_whole() {
        let (one, two) = next_with(&[], NextGame::Same);
        assert_eq!(two.roster, one.roster);
        assert_eq!(two.system_state, one.system_state);
        assert_eq!(two.turn, one.turn, "the round and turn order go on");
        let st = MechaState::read(&two.system_state).unwrap();
        assert_eq!((st.turn, st.phase), (1, Phase::Squad { index: 0 }));
    }
}

//! What one evening of a Shadowrun 4 campaign leaves to the next (issue 27; rules file "Between
//! evenings").
//!
//! - Edge points come back (seed L76: spent Edge returns at a break between scenarios or when the
//!   GM decides). The GM says on `/session start` whether the evening begins a new scenario
//!   (`game:new`); `sr.edge_refresh` = `scenario` (default: points refill then), `evening`
//!   (every evening refills) or `gm` (only by hand, `/char edit refresh=yes`). Burnt Edge never
//!   comes back: the attribute itself is lower.
//! - Damage stays: the seed has no healing rules, so healing is the GM's edit. Everything else on
//!   the sheet stays too, sustained spells included (a mage may sustain a spell through downtime;
//!   dropping it is one edit).
//! - Combat ends with the evening: the initiative record (turn, pass, order, Edge uses of the
//!   turn) and the chase — unless the GM says the evening resumes mid-combat
//!   (`game:mid_combat`). Which rolls Edge was already used on stays, so an old button stays
//!   spent.

use serde_json::Value;

use super::session_state::Shadowrun4State;
use super::sheet;
use crate::systems::rules::{EveningStart, Evenings, HouseOption, NextGame, SessionState};

/// When Edge points refill between evenings (seed L76: between scenarios, or the GM's call).
pub const EDGE_REFRESH: HouseOption = HouseOption {
    key: "sr.edge_refresh",
    values: &["scenario", "evening", "gm"],
    value_text: &[
        (
            "scenario",
            "When an evening begins a new scenario",
            "新しいシナリオを始めるセッションで",
        ),
        ("evening", "Every evening", "毎セッション"),
        ("gm", "Only when the GM refreshes them", "GMが回復させたときだけ"),
    ],
    en: "Edge points refill when an evening begins a new scenario (`evening`: every evening; `gm`: only by the GM)",
    ja: "新しいシナリオを始めるセッションでエッジポイントを回復する（`evening`：毎セッション、`gm`：GMが回復させたときだけ）",
};

pub static EVENINGS: Evenings = Evenings {
    carries: &[
        (
            "damage: Physical and Stun boxes stay until healed (the GM's edit)",
            "ダメージ：身体・精神ダメージのボックスは治療まで残る（GMが編集）",
        ),
        (
            "burnt Edge (the Edge attribute stays lowered), attributes, skills, armour, passes",
            "燃やしたエッジ（エッジ値は下がったまま）、能力値、技能、防護点、行動回数",
        ),
        (
            "sustained spells and threads (−2 dice each) until dropped",
            "維持中の呪文・スレッド（1つにつき−2ダイス）は解除するまで",
        ),
    ],
    resets: &[
        (
            "a new scenario: Edge points refill to the Edge attribute (`sr.edge_refresh`: `evening` every evening, `gm` only by the GM)",
            "新しいシナリオ：エッジポイントはエッジ値まで回復（`sr.edge_refresh`：`evening` 毎セッション、`gm` GMが回復させたときだけ）",
        ),
        (
            "combat: initiative scores, passes and their Edge uses; chases (kept when the evening resumes mid-combat)",
            "戦闘：イニシアティブ値、行動パスとそのエッジ使用、チェイス（戦闘の途中から再開するときは残る）",
        ),
    ],
    goes_on: &[
        (
            "the same scenario: Edge points stay as the last evening left them (`sr.edge_refresh=evening`: they refill)",
            "同じシナリオ：エッジポイントは前回のまま（`sr.edge_refresh=evening`：回復する）",
        ),
        (
            "combat ended with the last evening: initiative, passes, chases (`mid_combat`: they go on)",
            "戦闘は前回で終了：イニシアティブ、行動パス、チェイス（`mid_combat`：そのまま続く）",
        ),
    ],
    game: Some(("scenario", "シナリオ")),
    // A scenario usually spans evenings: one that does not say begins none.
    usual: NextGame::Same,
    fight_apart: true,
    sheet: next_sheet,
    state: next_state,
};

/// Whether the evening refills Edge points: at a new scenario, every evening, or only by hand.
fn refills(start: &EveningStart) -> bool {
    match EDGE_REFRESH.value_in(start.house) {
        "evening" => true,
        "gm" => false,
        _ => start.next == NextGame::New,
    }
}

/// A character as the next evening starts it: Edge points full when the evening refills them.
fn next_sheet(value: &mut Value, start: &EveningStart) {
    if !refills(start) {
        return;
    }
    // A sheet that does not read is left as it is (the next command that reads it says why).
    if let Ok(s) = sheet::read(value) {
        *value = sheet::write(&s, &s.character.refresh_edge());
    }
}

/// The session's state: no initiative, no chase, unless the evening resumes mid-combat.
fn next_state(value: &mut Value, start: &EveningStart) {
    if start.next == NextGame::MidCombat {
        return;
    }
    let mut st = Shadowrun4State::read_or_default(value);
    st.initiative = None;
    st.chase = Default::default();
    st.write(value);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::dice::FixedRoller;
    use crate::session::{Actor, RosterEntry, Session, SystemId, TurnState};
    use crate::systems::rules::House;
    use crate::systems::rules::SystemRules;
    use crate::systems::shadowrun4::character::DamageType;
    use crate::systems::shadowrun4::initiative::{Combatant, roll_initiative};
    use crate::systems::shadowrun4::rules::Shadowrun4Rules;

    const GM: u64 = 1;

    fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Evening 1: Ana (Edge 3, Body 4, Willpower 3) spends two Edge points, burns one, takes
    /// 3 Physical and 2 Stun, sustains a spell; initiative is rolled and a chase is under way.
    fn evening_one() -> Session {
        let mut s = Session::start(7, 8, "Run", SystemId::Shadowrun4, GM, 100).unwrap();
        s.id = 11;
        s.join(2).unwrap();
        let sheet = Shadowrun4Rules
            .edit_sheet(
                &json!({}),
                &kv(&[
                    ("body", "4"),
                    ("willpower", "3"),
                    ("reaction", "4"),
                    ("intuition", "3"),
                    ("edge", "3"),
                    ("pistols", "5"),
                    ("sustained", "1"),
                ]),
                false,
            )
            .unwrap();
        let (sh, c) = sheet::character(&sheet, "Ana").unwrap();
        let c = c.spend_edge().unwrap().spend_edge().unwrap().burn_edge().unwrap();
        let (c, _) = c.apply_damage(DamageType::Physical, 3).unwrap();
        let (c, _) = c.apply_damage(DamageType::Stun, 2).unwrap();
        s.roster
            .push(RosterEntry::new("Ana", 2).with_sheet(sheet::write(&sh, &c)));
        let ini = roll_initiative(
            &[Combatant::from_sheet(&c)],
            &mut FixedRoller::new(vec![5, 6, 1, 2, 3, 4, 1]),
        )
        .unwrap();
        let mut st = Shadowrun4State {
            initiative: Some(serde_json::to_value(ini).unwrap()),
            ..Default::default()
        };
        st.chase.vehicles.insert(
            "Bike".into(),
            crate::systems::shadowrun4::rigging::ChaseEntry {
                break_away: 1,
                positioning: 2,
            },
        );
        st.mark_edge_roll("r1").unwrap();
        st.write(&mut s.system_state);
        s.turn.order = vec!["Ana".into()];
        s.turn.round = 2;
        s.end(Actor::user(GM), 200).unwrap();
        s
    }

    fn next_with(house: &House, game: NextGame) -> (Session, Session) {
        let one = evening_one();
        let two = one.next_evening(Actor::user(GM), house, game, 300).unwrap();
        (one, two)
    }

    fn next(house: &House) -> (Session, Session) {
        next_with(house, NextGame::New)
    }

    #[test]
    fn a_new_scenario_refills_edge_points_and_keeps_damage_burnt_edge_and_sustaining() {
        let (one, two) = next(&House::new());
        let before = sheet::read(&one.roster[0].sheet).unwrap().character;
        let after = sheet::read(&two.roster[0].sheet).unwrap().character;
        // Evening 1 ended with Edge 2 (3, one burnt) and 1 point (3 − 2 spent).
        assert_eq!(
            (before.attributes.edge, before.edge_points, before.edge_burnt),
            (2, 1, 1)
        );
        assert_eq!(
            (after.attributes.edge, after.edge_points, after.edge_burnt),
            (2, 2, 1),
            "points back to the lowered attribute; the burnt point stays gone"
        );
        assert_eq!((after.physical, after.stun), (3, 2), "damage stays until healed");
        assert_eq!(after.sustained, 1);
        assert_eq!(after.skill("pistols"), Some(5));
        assert_eq!(after.attributes.body, 4);
        // Everything but the points is the same character.
        let mut same = after.clone();
        same.edge_points = before.edge_points;
        assert_eq!(same, before);
        assert_eq!(two.roster[0].name, "Ana");
        let st = Shadowrun4State::read(&two.system_state).unwrap();
        assert_eq!(st.initiative, None);
        assert!(st.chase.is_empty());
        assert!(st.edge_roll_used("r1"), "a roll's Edge use stays spent");
        assert_eq!(two.turn, TurnState::default());
        assert_eq!((two.evening, two.campaign_id), (2, 11));
    }

    #[test]
    fn the_same_scenario_goes_on_with_the_points_left_and_its_fight_over() {
        let (one, two) = next_with(&House::new(), NextGame::Same);
        assert_eq!(
            two.roster[0].sheet, one.roster[0].sheet,
            "by default (`scenario`) Edge refills only when a new scenario begins"
        );
        let st = Shadowrun4State::read(&two.system_state).unwrap();
        assert_eq!(st.initiative, None, "the fight ended with the evening");
        assert!(st.chase.is_empty());
        assert_eq!(two.turn, TurnState::default());
        assert!(
            EVENINGS.usual == NextGame::Same,
            "an evening that does not say begins no scenario"
        );
    }

    #[test]
    fn an_evening_that_resumes_mid_combat_keeps_initiative_chase_and_turn() {
        let (one, two) = next_with(&House::new(), NextGame::MidCombat);
        assert_eq!(two.system_state, one.system_state);
        assert_eq!(two.turn, one.turn);
        assert_eq!(two.roster[0].sheet, one.roster[0].sheet);
    }

    #[test]
    fn with_edge_refresh_evening_every_evening_refills_even_mid_scenario() {
        let mut house = House::new();
        house.insert("sr.edge_refresh".into(), "evening".into());
        for game in NextGame::ALL {
            let (_, two) = next_with(&house, game);
            let after = sheet::read(&two.roster[0].sheet).unwrap().character;
            assert_eq!(after.edge_points, 2, "{game:?}");
        }
    }

    #[test]
    fn with_edge_refresh_gm_the_points_stay_where_the_evening_left_them() {
        let mut house = House::new();
        house.insert("sr.edge_refresh".into(), "gm".into());
        let (one, two) = next(&house);
        assert_eq!(
            two.roster[0].sheet, one.roster[0].sheet,
            "the whole sheet carries"
        );
        let after = sheet::read(&two.roster[0].sheet).unwrap().character;
        assert_eq!((after.edge_points, after.physical, after.stun), (1, 3, 2));
        assert_eq!(Shadowrun4State::read(&two.system_state).unwrap().initiative, None);
        // The GM's refresh is the sheet's own field.
        let refreshed = Shadowrun4Rules
            .edit_sheet(&two.roster[0].sheet, &kv(&[("refresh", "yes")]), true)
            .unwrap();
        assert_eq!(sheet::read(&refreshed).unwrap().character.edge_points, 2);
    }

    #[test]
    fn a_sheet_that_does_not_read_is_left_alone() {
        let mut v = json!({"edge_points": "lots"});
        let kept = v.clone();
        let house = House::new();
        let start = EveningStart {
            house: &house,
            next: NextGame::New,
            now_ms: 0,
        };
        next_sheet(&mut v, &start);
        assert_eq!(v, kept);
    }
}

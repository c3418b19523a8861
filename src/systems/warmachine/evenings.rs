//! What one evening of a Warmachine campaign leaves to the next (issue 27; rules file §5).
//!
//! A game is one battle, and an evening usually plays one: the next evening is a new battle.
//! The models stay (stats, weapons, controllers, their own rules); the board resets — damage
//! boxes, disabled and destroyed, knocked down, cover, every effect instance (manual ones too:
//! upkeeps and continuous effects belong to the battle), the round, whose turn, activations, an
//! open attack, the trigger queue and the roll-off history.
//!
//! The rulings stay [decision]: the issue asks that they follow the group into the next evening
//! (a ruling settles how the group plays a rule); a group that wants a clean slate ends the game
//! with `/wm-turn end-game`, which archives them (WG-5), and archived games stay listed.
//!
//! A battle left unfinished when an evening ends: `wm.next_evening=continue` carries the board
//! as it was.

use serde_json::Value;

use super::sheet;
use super::state::WarmachineState;
use crate::systems::rules::{Evenings, House, HouseOption, NEW_OR_CONTINUE, SessionState};

/// Whether the next evening is a new battle or the same one going on.
pub const NEXT_EVENING: HouseOption = HouseOption {
    key: "wm.next_evening",
    values: &["new", "continue"],
    value_text: NEW_OR_CONTINUE,
    en: "The next evening of a campaign starts a new battle (`continue`: the unfinished battle goes on as it was)",
    ja: "キャンペーンの次のセッションは新しい戦闘（`continue`：終わっていない戦闘をそのまま続ける）",
};

pub static EVENINGS: Evenings = Evenings {
    carries: &[
        (
            "models: stats, weapons, controllers and their own rules (cannot-flags, auto hit/miss)",
            "モデル：能力値、武器、コントローラー、モデル自身のルール（できない、自動命中/失敗）",
        ),
        (
            "the rulings of disputes (archived when the game is ended with /wm-turn end-game)",
            "裁定（ルール争いの結果。/wm-turn end-game でゲームを終えると保管される）",
        ),
    ],
    resets: &[
        (
            "a new battle: damage boxes empty, disabled/destroyed back to OK, standing, no cover",
            "新しい戦闘：ダメージボックスは空、ディスエイブル/デストロイは健在に、ノックダウンと遮蔽は解除",
        ),
        (
            "every effect instance (manual ones too), the round, turn, activations, open attack, triggers, roll-offs",
            "すべての効果（手動のものも）、ラウンド、手番、起動、攻撃中の処理、トリガー、ロールオフ",
        ),
        (
            "`wm.next_evening=continue`: nothing resets, the unfinished battle goes on",
            "`wm.next_evening=continue`：何もリセットせず、終わっていない戦闘を続ける",
        ),
    ],
    sheet: next_sheet,
    state: next_state,
    continues: |house| !new_battle(house),
};

fn new_battle(house: &House) -> bool {
    NEXT_EVENING.value_in(house) == "new"
}

/// A model as a new battle fields it. A sheet that does not read is left as it is.
fn next_sheet(value: &mut Value, house: &House) {
    if !new_battle(house) {
        return;
    }
    if let Ok(Some(mut m)) = sheet::read(value) {
        m.new_game();
        if let Ok(v) = serde_json::to_value(&m) {
            *value = v;
        }
    }
}

/// The game's state as a new battle starts it: rulings and archived games stay.
fn next_state(value: &mut Value, house: &House) {
    if !new_battle(house) {
        return;
    }
    let mut st = WarmachineState::read_or_default(value);
    st.game.reset();
    st.roll_offs.clear();
    st.write(value);
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;
    use crate::dice::FixedRoller;
    use crate::session::{Actor, RosterEntry, Session, SystemId, TurnState};
    use crate::systems::rules::SystemRules;
    use crate::systems::warmachine::effects::{Expiry, preset};
    use crate::systems::warmachine::model::{Model, ModelStatus, StateRequest};
    use crate::systems::warmachine::rules::WarmachineRules;

    const GM: u64 = 1;

    fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn model(v: &Value) -> Model {
        sheet::read(v).unwrap().unwrap()
    }

    /// Evening 1: Ana's Juggernaut takes 7 damage, is knocked down, carries Dark Shroud (until
    /// removed) and an effect until the end of Ben's turn; Ben's Slayer is disabled. Round 2,
    /// a trigger waits, a roll-off recorded a ruling.
    fn evening_one() -> Session {
        let mut s = Session::start(7, 8, "Battle", SystemId::Warmachine, GM, 100).unwrap();
        s.id = 21;
        let jug = WarmachineRules
            .edit_sheet(
                &json!({}),
                &kv(&[
                    ("controller", "Ana"),
                    ("mat", "6"),
                    ("def", "12"),
                    ("arm", "20"),
                    ("boxes", "30"),
                    ("weapon1", "Ice Axe 7 melee"),
                    ("cannot", "stand_up"),
                ]),
                false,
            )
            .unwrap();
        let mut j = model(&jug);
        j.take_hit(7);
        j.request(StateRequest::KnockDown).unwrap();
        j.add_effect(
            &preset("dark shroud").unwrap(),
            Expiry::Manual,
            Some("Bane"),
            Some("Ben"),
        )
        .unwrap();
        j.add_effect(
            &preset("kiss of lyliss").unwrap(),
            Expiry::EndOfTurn { player: "Ben".into() },
            None,
            None,
        )
        .unwrap();
        let slayer = WarmachineRules
            .edit_sheet(
                &json!({}),
                &kv(&[
                    ("controller", "Ben"),
                    ("def", "12"),
                    ("arm", "18"),
                    ("boxes", "10"),
                ]),
                false,
            )
            .unwrap();
        let mut sl = model(&slayer);
        sl.take_hit(10);
        assert_eq!(sl.status, ModelStatus::Disabled);
        s.roster
            .push(RosterEntry::new("Juggernaut", 2).with_sheet(serde_json::to_value(&j).unwrap()));
        s.roster
            .push(RosterEntry::new("Slayer", 3).with_sheet(serde_json::to_value(&sl).unwrap()));
        let mut st = WarmachineState::default();
        st.game.start(&["Ana".to_string(), "Ben".to_string()]).unwrap();
        let mut models = BTreeMap::new();
        st.game.end_turn(&mut models).unwrap();
        st.game.end_turn(&mut models).unwrap();
        st.game.add_triggers("Ana: Counterblast").unwrap();
        st.dispute(
            "LOS through the wreck?",
            &[],
            Some("Wrecks block LOS"),
            150,
            &mut FixedRoller::new(vec![6, 2]),
        )
        .unwrap();
        assert_eq!((st.game.round, st.rulings.len(), st.roll_offs.len()), (2, 1, 1));
        st.write(&mut s.system_state);
        s.end(Actor::user(GM), 200).unwrap();
        s
    }

    #[test]
    fn a_new_battle_keeps_models_and_rulings_and_clears_the_board() {
        let one = evening_one();
        let two = one.next_evening(Actor::user(GM), &House::new(), 300).unwrap();
        let j = model(&two.roster[0].sheet);
        assert_eq!(
            (j.marked, j.status, j.knocked_down, j.cover),
            (0, ModelStatus::Ok, false, false)
        );
        assert!(
            j.effects.is_empty(),
            "manual and timed instances both end with the battle"
        );
        // The model itself is the same.
        let mut before = model(&one.roster[0].sheet);
        before.new_game();
        assert_eq!(j, before);
        assert_eq!(
            (j.controller.as_str(), j.mat, j.def, j.arm, j.boxes),
            ("Ana", 6, 12, 20, 30)
        );
        assert_eq!(j.weapons[0].name, "Ice Axe");
        assert_eq!(j.cannot.len(), 1);
        let sl = model(&two.roster[1].sheet);
        assert_eq!((sl.marked, sl.status), (0, ModelStatus::Ok));
        let st = WarmachineState::read(&two.system_state).unwrap();
        assert_eq!(st.game, Default::default());
        assert!(st.roll_offs.is_empty());
        assert_eq!(st.rulings.len(), 1);
        assert_eq!(st.rulings[0].ruling, "Wrecks block LOS");
        assert_eq!(
            st.next_ruling_id, 2,
            "the next ruling is numbered after the kept ones"
        );
        assert_eq!(two.turn, TurnState::default());
        assert_eq!(two.roster.len(), 2);
    }

    #[test]
    fn with_next_evening_continue_the_unfinished_battle_goes_on() {
        let one = evening_one();
        let mut house = House::new();
        house.insert("wm.next_evening".into(), "continue".into());
        let two = one.next_evening(Actor::user(GM), &house, 300).unwrap();
        assert_eq!(two.roster, one.roster);
        assert_eq!(two.system_state, one.system_state);
        assert_eq!(two.turn, one.turn, "the round and turn order go on");
        let st = WarmachineState::read(&two.system_state).unwrap();
        assert_eq!((st.game.round, st.game.triggers.pending.len()), (2, 1));
    }
}

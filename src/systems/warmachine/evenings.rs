//! What one evening of a Warmachine campaign leaves to the next (issue 27; rules file §5).
//!
//! A game is one battle, and an evening usually plays one: the next evening is a new battle.
//! The models stay (stats, weapons, controllers, their own rules); the board resets — damage
//! boxes, disabled and destroyed, knocked down, cover, every effect instance (manual ones too:
//! upkeeps and continuous effects belong to the battle), the round, whose turn, activations, an
//! open attack, the trigger queue and the roll-off history.
//!
//! The finished battle's rulings are archived with it (WG-5, as `/wm-turn end-game` does) and
//! stay listed among the archived games; a battle already ended with end-game has none left.
//!
//! A battle left unfinished when an evening ends goes on as it was, rulings and all, when the GM
//! says so on `/session start` (`game:same`).

use serde_json::Value;

use super::sheet;
use super::state::WarmachineState;
use crate::systems::rules::{EveningStart, Evenings, NextGame, SessionState};

pub static EVENINGS: Evenings = Evenings {
    carries: &[
        (
            "models: stats, weapons, controllers and their own rules (cannot-flags, auto hit/miss)",
            "モデル：能力値、武器、コントローラー、モデル自身のルール（できない、自動命中/失敗）",
        ),
        (
            "the archived games and their rulings (WG-5)",
            "保管されたゲームとその裁定（WG-5）",
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
            "the finished battle's rulings are archived with it (WG-5), as /wm-turn end-game does",
            "終わった戦闘の裁定はその戦闘と一緒に保管される（WG-5、/wm-turn end-game と同じ）",
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

/// A model as a new battle fields it. A sheet that does not read is left as it is.
fn next_sheet(value: &mut Value, start: &EveningStart) {
    if !new_battle(start) {
        return;
    }
    if let Ok(Some(mut m)) = sheet::read(value) {
        m.new_game();
        if let Ok(v) = serde_json::to_value(&m) {
            *value = v;
        }
    }
}

/// The game's state as a new battle starts it: the finished battle and its rulings archived
/// (WG-5), the archive kept.
fn next_state(value: &mut Value, start: &EveningStart) {
    if !new_battle(start) {
        return;
    }
    let mut st = WarmachineState::read_or_default(value);
    if st.rulings.is_empty() {
        // Nothing to remember of it (or it was ended with end-game already).
        st.game.reset();
        st.roll_offs.clear();
    } else {
        st.end_game(start.now_ms);
    }
    st.write(value);
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;
    use crate::dice::FixedRoller;
    use crate::session::{Actor, RosterEntry, Session, SystemId, TurnState};
    use crate::systems::rules::House;
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
    fn a_new_battle_keeps_models_archives_the_rulings_and_clears_the_board() {
        let one = evening_one();
        let two = one
            .next_evening(Actor::user(GM), &House::new(), NextGame::New, 300)
            .unwrap();
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
        assert!(
            st.rulings.is_empty(),
            "the finished battle's rulings left with it"
        );
        assert_eq!(st.archived.len(), 1);
        let archived = &st.archived[0];
        assert_eq!(archived.ended_at_ms, 300, "dated when the new battle began");
        assert_eq!(archived.rulings.len(), 1);
        assert_eq!(archived.rulings[0].ruling, "Wrecks block LOS");
        assert_eq!(
            st.next_ruling_id, 2,
            "the next ruling is numbered after the archived ones"
        );
        assert_eq!(two.turn, TurnState::default());
        assert_eq!(two.roster.len(), 2);
    }

    #[test]
    fn an_evening_that_goes_on_keeps_the_unfinished_battle_whole() {
        let one = evening_one();
        let two = one
            .next_evening(Actor::user(GM), &House::new(), NextGame::Same, 300)
            .unwrap();
        assert_eq!(two.roster, one.roster);
        assert_eq!(two.system_state, one.system_state);
        assert_eq!(two.turn, one.turn, "the round and turn order go on");
        let st = WarmachineState::read(&two.system_state).unwrap();
        assert_eq!((st.game.round, st.game.triggers.pending.len()), (2, 1));
    }
}

//! What one evening of a Terminator Genisys campaign leaves to the next (issue 27; rules file
//! §6).
//!
//! A game is one scenario, and the next evening plays a new one: the characters stay with their
//! own profiles and weapons (a Crawler is the model it was fielded as again; killed and retreated
//! models are back), and so do the session's defined profiles and weapons and the two sides.
//! Markers (Ready, Done), Reeling, KILLED/RETREATED, damage against Damage limit, Limited ammo
//! used, "moved", and the turn (roll-off, Tactical Edge, impulse, On Your Feet, an attack under
//! way) reset. A scenario left unfinished: `term.next_evening=continue` carries it as it was.

use serde_json::Value;

use super::character::Character;
use super::state::TerminatorState;
use crate::systems::rules::{EveningStart, Evenings, NextGame, SessionState};

pub static EVENINGS: Evenings = Evenings {
    carries: &[
        (
            "characters: side, profile, dice, specials and weapons (a Crawler is its fielded model again)",
            "キャラクター：陣営、プロフィール、ダイス、スペシャル、兵器（クローラーは元のモデルに戻る）",
        ),
        (
            "the session's own profiles and weapons, and the two sides",
            "セッションで定義したプロフィールと兵器、2つの陣営",
        ),
    ],
    resets: &[
        (
            "a new game: Ready and Done markers, REELING, KILLED and RETREATED, damage, Limited ammo used",
            "新しいゲーム：レディ・ダンマーカー、リーリング、戦闘不能・撤退、損傷、弾数制限の使用数",
        ),
        (
            "the turn: roll-off, Tactical Edge, first player, impulse, On Your Feet, an attack under way",
            "ターン：ロールオフ、タクティカルエッジ、先攻プレイヤー、インパルス、さあ立ち上がれ、処理中の攻撃",
        ),
    ],
    sheet: next_sheet,
    state: next_state,
    goes_on: &[],
    game: Some(("game", "ゲーム")),
    usual: NextGame::New,
    fight_apart: false,
};

fn new_game(start: &EveningStart) -> bool {
    start.next == NextGame::New
}

/// A character as a new game fields it. A sheet that does not read is left as it is.
fn next_sheet(value: &mut Value, start: &EveningStart) {
    if !new_game(start) {
        return;
    }
    if let Ok(mut c) = Character::read(value, "") {
        c.new_game();
        *value = c.to_value();
    }
}

/// The game's state as a new one starts it: the same two sides, the session's definitions.
fn next_state(value: &mut Value, start: &EveningStart) {
    if !new_game(start) {
        return;
    }
    let mut st = TerminatorState::read_or_default(value);
    let sides = st.players.clone();
    if st.start(&sides).is_err() {
        // No sides yet: nothing but the definitions to keep.
        st = TerminatorState {
            profiles: std::mem::take(&mut st.profiles),
            weapons: std::mem::take(&mut st.weapons),
            ..TerminatorState::default()
        };
    }
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
    use crate::systems::terminator::character::Removal;
    use crate::systems::terminator::dice::Die;
    use crate::systems::terminator::profile::Library;
    use crate::systems::terminator::rules::TerminatorRules;
    use crate::systems::terminator::state::Phase;

    const GM: u64 = 1;

    fn kv(s: &str) -> Vec<(String, String)> {
        crate::systems::sheet::parse_fields(s).unwrap()
    }

    fn character(v: &Value) -> Character {
        Character::read(v, "x").unwrap()
    }

    /// Evening 1: the session defines a profile and a weapon; Kyle Reese is Done twice and
    /// Reeling with 1 damage and his RPG fired; the Endoskeleton became a Crawler; a SWAT was
    /// killed. Turn 1 began: Skynet won the roll-off.
    fn evening_one() -> Session {
        let mut s = Session::start(7, 8, "Judgment Day", SystemId::Terminator, GM, 100).unwrap();
        s.id = 31;
        let mut st = TerminatorState::default();
        st.start(&["Resistance".to_string(), "Skynet".to_string()])
            .unwrap();
        st.define_weapon("Railgun long rof2 d12 heavy").unwrap();
        st.define_profile("Scout", &kv("armour=4 skill=d8")).unwrap();
        st.write(&mut s.system_state);
        let add = |fields: &str, gm: bool, base: &Value| {
            TerminatorRules
                .edit_sheet_in(base, &kv(fields), gm, &s.system_state)
                .unwrap()
        };
        let kyle = add(
            r#"side=Resistance profile="Kyle Reese" skill=d8 w1="RPG d12""#,
            false,
            &json!({}),
        );
        let kyle = add("done=2 reeling=yes damage=1", true, &kyle);
        let mut k = character(&kyle);
        k.ammo_used.insert("RPG".into(), 1);
        let endo = add("side=Skynet profile=Endoskeleton skill=d10", false, &json!({}));
        let mut e = character(&endo);
        e.become_crawler(&Library::shipped().crawler());
        let swat = add("side=Resistance profile=Scout w1=Railgun", false, &json!({}));
        let swat = add("removed=killed", true, &swat);
        s.roster
            .push(RosterEntry::new("Kyle", 2).with_sheet(k.to_value()));
        s.roster
            .push(RosterEntry::new("T-800", 3).with_sheet(e.to_value()));
        s.roster.push(RosterEntry::new("Scout", 2).with_sheet(swat));
        let mut st = TerminatorState::read(&s.system_state).unwrap();
        st.roll_off(Die::D8, &mut FixedRoller::new(vec![2, 7])).unwrap();
        assert_eq!(
            (st.turn, st.phase, st.edge.as_deref()),
            (1, Phase::FirstPlayer, Some("Skynet"))
        );
        st.write(&mut s.system_state);
        s.end(Actor::user(GM), 200).unwrap();
        s
    }

    #[test]
    fn a_new_game_keeps_characters_and_definitions_and_clears_markers_damage_and_the_turn() {
        let one = evening_one();
        let two = one
            .next_evening(Actor::user(GM), &House::new(), NextGame::New, 300)
            .unwrap();
        let k = character(&two.roster[0].sheet);
        assert_eq!(
            (k.ready, k.done, k.reeling, k.damage, k.removed, k.moved),
            (false, 0, false, 0, None, false)
        );
        assert!(k.ammo_used.is_empty(), "Limited ammo counts per game");
        let before = character(&one.roster[0].sheet);
        assert_eq!((k.side.as_str(), &k.stats), ("Resistance", &before.stats));
        // The Crawler is an Endoskeleton again, with the skill die its player gave it.
        let e = character(&two.roster[1].sheet);
        assert!(!e.crawler && e.fielded.is_none());
        assert_eq!(
            (e.stats.name.as_str(), e.stats.skill),
            ("Endoskeleton", Some(Die::D10))
        );
        assert!(e.stats.ill_be_back);
        assert_eq!(e.stats, character(&endo_sheet()).stats);
        // The killed Scout is back, with the session's profile and weapon.
        let sc = character(&two.roster[2].sheet);
        assert_eq!(sc.removed, None);
        assert_eq!(
            (sc.stats.name.as_str(), sc.stats.weapons[0].name.as_str()),
            ("Scout", "Railgun")
        );
        let st = TerminatorState::read(&two.system_state).unwrap();
        assert_eq!(st.players, ["Resistance", "Skynet"]);
        assert_eq!(
            (st.turn, st.phase, st.edge.clone(), st.roll_off.clone()),
            (0, Phase::NotStarted, None, None)
        );
        assert_eq!((st.profiles.len(), st.weapons.len()), (1, 1));
        assert_eq!(two.turn, TurnState::default());
    }

    #[test]
    fn a_profile_typed_on_a_crawler_is_the_one_the_next_game_fields() {
        let mut e = character(&endo_sheet());
        e.become_crawler(&Library::shipped().crawler());
        let v = TerminatorRules
            .edit_sheet(&e.to_value(), &kv("profile=T-1000"), false)
            .unwrap();
        let mut v2 = v.clone();
        next_sheet(
            &mut v2,
            &EveningStart {
                house: &House::new(),
                next: NextGame::New,
                now_ms: 0,
            },
        );
        assert_eq!(character(&v2).stats.name, "T-1000");
        assert!(!character(&v2).crawler);
    }

    fn endo_sheet() -> Value {
        TerminatorRules
            .edit_sheet(
                &json!({}),
                &kv("side=Skynet profile=Endoskeleton skill=d10"),
                false,
            )
            .unwrap()
    }

    #[test]
    fn an_evening_that_goes_on_keeps_the_unfinished_game_whole() {
        let one = evening_one();
        let two = one
            .next_evening(Actor::user(GM), &House::new(), NextGame::Same, 300)
            .unwrap();
        assert_eq!(two.roster, one.roster);
        assert_eq!(two.system_state, one.system_state);
        assert_eq!(two.turn, one.turn, "the round and turn order go on");
        let e = character(&two.roster[1].sheet);
        assert!(e.crawler);
        assert_eq!(character(&two.roster[2].sheet).removed, Some(Removal::Killed));
    }

    #[test]
    fn a_state_without_sides_keeps_only_its_definitions() {
        let mut st = TerminatorState::default();
        st.define_weapon("Railgun long rof2 d12 heavy").unwrap();
        let mut v = json!({});
        st.write(&mut v);
        next_state(
            &mut v,
            &EveningStart {
                house: &House::new(),
                next: NextGame::New,
                now_ms: 0,
            },
        );
        assert_eq!(TerminatorState::read(&v).unwrap(), st);
    }
}

//! What one evening of a Badlands Rally campaign leaves to the next (issue 27; rules file
//! "Between evenings").
//!
//! A race is one game, and the next evening runs a new race: the gears' sheets (model, ratings,
//! hits, weapons, traits, upgrades) and their drivers stay; the race state resets — the
//! scenario and its laps, pole position, the contested-victory check, the round and initiative,
//! each gear's laps and finish, activation and actions, off balance, spin-outs due, rally
//! tokens, Reliable's lap, the rattle record and knocked out (both count within a race: seed
//! ラタルドの記録), Derby's count.
//!
//! Whether gears are repaired between races is the table's choice: `rally.repair_between_races`
//! = `full` (default: hits back to the sheet's, so the rattled token goes with the damage) or
//! `none` (Hull and Structure stay as the race left them; the rattled token stays only while
//! Hull is 0, seed L386). A race left unfinished goes on as it was when the GM says so on
//! `/session start` (`game:same`).

use serde_json::Value;

use super::gear::Gear;
use super::gear_state::GearState;
use super::race_facts::RaceFacts;
use crate::systems::rules::{EveningStart, Evenings, FULL_OR_NONE, HouseOption, NextGame, SessionState};

/// Whether gears are repaired between races.
pub const REPAIR: HouseOption = HouseOption {
    key: "rally.repair_between_races",
    values: &["full", "none"],
    value_text: FULL_OR_NONE,
    en: "Gears are fully repaired for a new race (`none`: lost Hull and Structure carry)",
    ja: "新しいレースの前にギアを全修理する（`none`：失ったハル・ストラクチャーが残る）",
};

pub static EVENINGS: Evenings = Evenings {
    carries: &[
        (
            "gears and drivers: model, ratings, hits, armour, weapons, traits and upgrades",
            "ギアとドライバー：モデル、レーティング、ヒット、アーマー、武器、特性、アップグレード",
        ),
        (
            "`rally.repair_between_races=none`: lost Hull and Structure; rattled while Hull is 0",
            "`rally.repair_between_races=none`：失ったハル・ストラクチャー、ハルが0の間はラタルド",
        ),
    ],
    resets: &[
        (
            "a new race: scenario and laps, pole position, round, initiative, each gear's laps and finish",
            "新しいレース：シナリオと周回数、ポールポジション、ラウンド、イニシアチブ、各ギアの周回とゴール",
        ),
        (
            "activations, off balance, spin-outs, rally tokens, Reliable, the rattle record, knocked out",
            "アクティベーション、オフバランス、スピンアウト、ラリートークン、信頼性、ラタルドの記録、ノックアウト",
        ),
        (
            "gears repaired (default `full`): Hull and Structure full, the rattled token gone",
            "ギアは修理（既定 `full`）：ハル・ストラクチャー全快、ラタルドトークンも外れる",
        ),
    ],
    goes_on: &[],
    game: Some(("race", "レース")),
    usual: NextGame::New,
    fight_apart: false,
    sheet: next_sheet,
    state: next_state,
};

/// A gear at the start of a new race. A sheet that does not read is left as it is.
fn next_sheet(value: &mut Value, start: &EveningStart) {
    if start.next != NextGame::New {
        return;
    }
    let Ok(mut gear) = <Gear as serde::Deserialize>::deserialize(&*value) else {
        return;
    };
    let old = std::mem::replace(&mut gear.state, GearState::fresh(&gear.sheet));
    if REPAIR.value_in(start.house) == "none" {
        let s = &mut gear.state;
        s.hull = old.hull.min(gear.sheet.hull);
        s.structure = old.structure.min(gear.sheet.structure);
        // Seed L386: the token stays until Hull is back to 1; the record's permanent rattle
        // was for the race that ended.
        s.rattled = old.rattled && s.hull == 0;
        // Still at 0 hits: its first activation can only recover.
        s.must_recover = old.must_recover && s.hull == 0 && s.structure == 0;
    }
    if let Ok(v) = serde_json::to_value(&gear) {
        *value = v;
    }
}

/// No scenario, two laps, no pole, no contest.
fn next_state(value: &mut Value, start: &EveningStart) {
    if start.next == NextGame::New {
        RaceFacts::default().write(value);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::session::{Actor, RosterEntry, Session, SystemId, TurnState};
    use crate::systems::badlands_rally::gear_sheet::Speed;
    use crate::systems::badlands_rally::rules::{BadlandsRallyRules, DEFAULT_LAPS};
    use crate::systems::badlands_rally::state::{GearEvent, Hit};
    use crate::systems::badlands_rally::tables::Scenario;
    use crate::systems::rules::House;
    use crate::systems::rules::SystemRules;

    const GM: u64 = 1;

    fn kv(s: &str) -> Vec<(String, String)> {
        crate::systems::sheet::parse_fields(s).unwrap()
    }

    fn gear(v: &Value) -> Gear {
        serde_json::from_value(v.clone()).unwrap()
    }

    /// Evening 1, a Grudge Match of 3 laps in round 3: the Jerboa (hits 3/2) took 4 damage (Hull
    /// 0, Structure 1: rattled, record 1, off balance), finished a lap and holds 2 rally tokens;
    /// the Hunter (hits 3/1) took 1 and is mid-activation at top speed. Ana holds the pole.
    fn evening_one() -> Session {
        let mut s = Session::start(7, 8, "Rally", SystemId::BadlandsRally, GM, 100).unwrap();
        s.id = 51;
        let new = |f: &str| {
            let v = BadlandsRallyRules.edit_sheet(&json!({}), &kv(f), false).unwrap();
            gear(&v)
        };
        let hit = |damage| {
            GearEvent::Hit(Hit {
                damage,
                attack_hit: true,
                from_attack: true,
                ..Hit::default()
            })
        };
        let jerboa = new("model=jerboa attack=4+ defence=4+ initiative=4+ mr=14 hits=3/2 ar=5");
        let jerboa = jerboa
            .apply(&hit(4))
            .unwrap()
            .apply(&GearEvent::CompleteLap {
                round: 2,
                race_laps: 3,
            })
            .unwrap()
            .apply(&GearEvent::GainRallyTokens { tokens: 2 })
            .unwrap();
        let st = &jerboa.state;
        assert_eq!(
            (
                st.hull,
                st.structure,
                st.rattled,
                st.rattle_record,
                st.off_balance,
                st.laps,
                st.rally_tokens
            ),
            (0, 1, true, 1, true, 1, 2)
        );
        let hunter = new("attack=4+ defence=4+ initiative=4+ mr=12 hits=3/1 ar=6")
            .apply(&hit(1))
            .unwrap()
            .apply(&GearEvent::Activate { speed: Speed::Top })
            .unwrap();
        assert!(hunter.state.is_active());
        s.roster
            .push(RosterEntry::new("Jerboa", 2).with_sheet(serde_json::to_value(&jerboa).unwrap()));
        s.roster
            .push(RosterEntry::new("Hunter", 3).with_sheet(serde_json::to_value(&hunter).unwrap()));
        RaceFacts {
            scenario: Some(Scenario::GrudgeMatch),
            laps: 3,
            pole: Some("Jerboa".into()),
            contest: None,
        }
        .write(&mut s.system_state);
        s.turn.round = 3;
        s.turn.order = vec!["Hunter".into(), "Jerboa".into()];
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
    fn a_new_race_repairs_the_gears_and_resets_the_race() {
        let (one, two) = next(&[]);
        for (before, after) in one.roster.iter().zip(&two.roster) {
            let (b, a) = (gear(&before.sheet), gear(&after.sheet));
            assert_eq!(a.sheet, b.sheet, "the gear itself carries");
            assert_eq!(
                a.state,
                GearState::fresh(&a.sheet),
                "{}: a fresh race",
                after.name
            );
        }
        let j = gear(&two.roster[0].sheet).state;
        assert_eq!(
            (j.hull, j.structure, j.rattled, j.rattle_record),
            (3, 2, false, 0)
        );
        assert_eq!((j.laps, j.rally_tokens, j.off_balance), (0, 0, false));
        assert_eq!(RaceFacts::read(&two.system_state).unwrap(), RaceFacts::default());
        assert_eq!(RaceFacts::read(&two.system_state).unwrap().laps, DEFAULT_LAPS);
        assert_eq!(two.turn, TurnState::default());
    }

    #[test]
    fn without_repairs_lost_hits_carry_and_the_token_stays_while_hull_is_zero() {
        let (_, two) = next(&[("rally.repair_between_races", "none")]);
        let j = gear(&two.roster[0].sheet).state;
        assert_eq!((j.hull, j.structure, j.rattled), (0, 1, true));
        assert_eq!(
            (
                j.rattle_record,
                j.off_balance,
                j.laps,
                j.rally_tokens,
                j.must_recover
            ),
            (0, false, 0, 0, false),
            "the race's record, laps and tokens reset; Structure 1 left, so no forced recovery"
        );
        let h = gear(&two.roster[1].sheet).state;
        assert_eq!(
            (h.hull, h.structure, h.rattled, h.is_active()),
            (2, 1, false, false)
        );
        assert_eq!(RaceFacts::read(&two.system_state).unwrap(), RaceFacts::default());
    }

    #[test]
    fn without_repairs_a_gear_at_zero_hits_starts_by_recovering() {
        let mut v = BadlandsRallyRules
            .edit_sheet(
                &json!({}),
                &kv("attack=4+ defence=4+ initiative=4+ mr=12 hits=1/1 ar=6"),
                false,
            )
            .unwrap();
        let g = gear(&v)
            .apply(&GearEvent::Hit(Hit {
                damage: 2,
                attack_hit: true,
                from_attack: true,
                ..Hit::default()
            }))
            .unwrap();
        assert!(g.state.must_recover);
        v = serde_json::to_value(&g).unwrap();
        let mut house = House::new();
        house.insert("rally.repair_between_races".into(), "none".into());
        next_sheet(
            &mut v,
            &EveningStart {
                house: &house,
                next: NextGame::New,
                now_ms: 0,
            },
        );
        let s = gear(&v).state;
        assert_eq!(
            (s.hull, s.structure, s.rattled, s.must_recover),
            (0, 0, true, true)
        );
        assert_eq!(s.pending_spin_out, None, "the spin-out was the last race's");
    }

    #[test]
    fn an_evening_that_goes_on_with_the_unfinished_race_keeps_it_whole() {
        let (one, two) = next_with(&[("rally.repair_between_races", "full")], NextGame::Same);
        assert_eq!(two.roster, one.roster);
        assert_eq!(two.system_state, one.system_state);
        assert_eq!(two.turn, one.turn, "the round and turn order go on");
        assert_eq!(RaceFacts::read(&two.system_state).unwrap().laps, 3);
        assert_eq!(two.turn.round, 3);
    }
}

//! A whole game through the public API, as the bot drives it: sheets typed into `/char`, the
//! roster and the session state stored as JSON between every command, two sides, impulses with
//! commanders and FATE, an attack stopping for the I'll Be Back button, a Crawler on the board,
//! a Retreat, Limited ammo, End Turn and On Your Feet, and See you in hell in the next turn.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::attack::{Stage, TestResult, Waiting};
use super::character::{Character, Removal};
use super::dice::{Die, FateFace};
use super::error::RuleError;
use super::rules::{TerminatorRules, options};
use super::state::{AttackOrder, Phase, TerminatorState};
use super::turn::Next;
use super::weapon::Band;
use crate::dice::FixedRoller;
use crate::systems::rules::{SessionState, SystemRules};
use crate::systems::sheet::parse_fields;

/// The session as the store keeps it: the roster's sheets and `system_state`, as JSON text.
struct Table {
    roster: BTreeMap<String, String>,
    system_state: String,
}

impl Table {
    fn new() -> Table {
        let r = TerminatorRules;
        let mut roster = BTreeMap::new();
        for (name, fields) in [
            (
                "Kyle",
                r#"side=Resistance profile="Kyle Reese" skill=d8 resolution=d8 w1="Plasma rifle d10""#,
            ),
            (
                "Joe",
                r#"陣営=Resistance プロフィール="レジスタンス ソルジャー" スキル=d6 レゾリューション=d6 武器2="アサルトライフル d8""#,
            ),
            (
                "Ann",
                r#"side=Resistance profile=SWAT skill=d6 resolution=d6 w1="Shotgun d8 stop:d12""#,
            ),
            (
                "Bob",
                r#"side=Resistance profile=SWAT skill=d6 resolution=d6 w1="RPG d12""#,
            ),
            (
                "T1",
                r#"side=Skynet profile=Endoskeleton skill=d8 w1="Terminator claw d8" w2="Plasma gun d10""#,
            ),
            (
                "T2",
                r#"side=Skynet profile=Endoskeleton skill=d8 w1="Terminator claw d8" w2="Plasma gun d10""#,
            ),
            (
                "T3",
                r#"side=Skynet profile=Endoskeleton skill=d8 w1="Terminator claw d8" w2="Plasma gun d10""#,
            ),
        ] {
            let v = r
                .edit_sheet(&json!({}), &parse_fields(fields).unwrap(), false)
                .unwrap();
            roster.insert(name.to_string(), v.to_string());
        }
        Table {
            roster,
            system_state: "{}".to_string(),
        }
    }

    /// One command: read everything, run `f`, write back only when it succeeded.
    fn cmd<T>(
        &mut self,
        f: impl FnOnce(&mut TerminatorState, &mut BTreeMap<String, Character>) -> Result<T, RuleError>,
    ) -> Result<T, RuleError> {
        let mut system_state: Value = serde_json::from_str(&self.system_state).unwrap();
        TerminatorRules.check_state(&system_state).unwrap();
        let mut st = TerminatorState::read(&system_state).unwrap();
        let mut chars: BTreeMap<String, Character> = self
            .roster
            .iter()
            .map(|(n, v)| {
                (
                    n.clone(),
                    Character::read(&serde_json::from_str::<serde_json::Value>(v).unwrap(), n).unwrap(),
                )
            })
            .collect();
        let out = f(&mut st, &mut chars)?;
        st.write(&mut system_state);
        self.system_state = system_state.to_string();
        for (n, c) in chars {
            self.roster.insert(n, c.to_value().to_string());
        }
        Ok(out)
    }

    fn ch(&self, name: &str) -> Character {
        Character::read(
            &serde_json::from_str::<serde_json::Value>(&self.roster[name]).unwrap(),
            name,
        )
        .unwrap()
    }
}

fn dice(faces: &[u32]) -> FixedRoller {
    FixedRoller::new(faces.to_vec())
}

/// Run `f` with exactly `faces`: every one used.
fn with<T>(faces: &[u32], f: impl FnOnce(&mut FixedRoller) -> T) -> T {
    let mut r = dice(faces);
    let out = f(&mut r);
    assert_eq!(r.remaining(), 0, "faces left over");
    out
}

#[test]
fn a_whole_game() {
    let opts = options(&BTreeMap::new());
    let mut t = Table::new();
    t.cmd(|st, _| {
        st.start(&["Resistance".into(), "Skynet".into()])?;
        st.define_profile(
            "Crawler",
            &parse_fields(r#"skill=d6 resolution=d10 w1="Terminator claw d8""#).unwrap(),
        )
        .expect("a session Crawler");
        Ok(())
    })
    .unwrap();

    // Turn 1: the roll-off (D8, the default) 6–2 → Resistance takes the Edge and goes first.
    let r = t
        .cmd(|st, _| with(&[6, 2], |d| st.roll_off(opts.tactical_die, d)))
        .unwrap();
    assert_eq!(r.winner, "Resistance");
    let next = t.cmd(|st, c| st.choose_first("Resistance", c)).unwrap();
    assert_eq!(
        next,
        Next::Impulse {
            player: "Resistance".into(),
            number: 1
        }
    );

    // Impulse 1: Fate 1; Kyle brings Joe (Come With Me If You Want To Live).
    let f = t
        .cmd(|st, c| with(&[1], |d| st.roll_fate(&opts.fate, c, d)))
        .unwrap();
    assert_eq!((f.roll.result, f.allowance), (FateFace::One, 1));
    t.cmd(|st, c| st.activate("Kyle", &["Joe".into()], c)).unwrap();

    // Kyle's plasma rifle at long range: ROF 1 (Semi-auto), 7 hits; T1 is Mindless; D10 9 ≥ 8
    // kills it. The attack stops for T1's owner to roll I'll Be Back.
    let mut order = AttackOrder::new("Kyle", "Plasma rifle", "T1", Band::Long);
    order.defer_ill_be_back = true;
    let rep = t
        .cmd(|st, c| with(&[7, 9], |d| st.attack(&order, c, &opts, d)))
        .unwrap();
    assert!(!rep.applied);
    assert_eq!(
        rep.waiting,
        Some(Waiting::IllBeBack {
            targets: vec!["T1".into()]
        })
    );
    // The attacker's command rolled the attack (the luck is read from this report, issue 28).
    assert_eq!(rep.rolled, [Stage::AttackRoll, Stage::Saves, Stage::Damage]);
    assert_eq!(t.ch("T1").removed, None, "nothing is applied before the run ends");
    assert_eq!(t.cmd(|st, c| st.done("Kyle", c)), Err(RuleError::AttackUnderWay));
    // The button: 5 → a Crawler.
    let rep = t.cmd(|st, c| with(&[5], |d| st.continue_attack(c, d))).unwrap();
    assert!(rep.applied);
    assert_eq!(rep.run.targets[0].ill_be_back.unwrap().face, 5);
    // The owner's press rolled only I'll Be Back.
    assert_eq!(rep.rolled, [Stage::IllBeBack]);
    let t1 = t.ch("T1");
    assert!(t1.crawler && t1.on_field() && t1.stats.slow);
    assert_eq!(
        (t1.stats.skill, t1.stats.resolution),
        (Some(Die::D6), Some(Die::D10))
    );
    assert_eq!(t.cmd(|st, c| st.done("Kyle", c)).unwrap().next, Next::Same);

    // Joe's assault rifle at short: ROF 2, 5+: 5 hits, 2 misses; D8 3 < 8 → a test on T2's
    // D20: 4 → Reeling, two Done markers (it has not activated).
    let order = AttackOrder::new("Joe", "assault rifle", "T2", Band::Short);
    let rep = t
        .cmd(|st, c| with(&[5, 2, 3, 4], |d| st.attack(&order, c, &opts, d)))
        .unwrap();
    assert_eq!(
        rep.run.targets[0].tests.as_ref().unwrap().results,
        [TestResult::Reeling]
    );
    assert_eq!((t.ch("T2").done, t.ch("T2").reeling), (2, true));
    let next = t.cmd(|st, c| st.done("Joe", c)).unwrap().next;
    assert_eq!(
        next,
        Next::Impulse {
            player: "Skynet".into(),
            number: 2
        }
    );

    // Impulse 2: Skynet rolls FATE with no commander: the impulse passes.
    let f = t
        .cmd(|st, c| with(&[5], |d| st.roll_fate(&opts.fate, c, d)))
        .unwrap();
    assert_eq!(
        (f.roll.result, f.next.clone()),
        (
            FateFace::Fate,
            Next::Impulse {
                player: "Resistance".into(),
                number: 3
            }
        )
    );

    // Impulse 3: a 2 for Ann and Bob.
    let f = t
        .cmd(|st, c| with(&[3], |d| st.roll_fate(&opts.fate, c, d)))
        .unwrap();
    assert_eq!(f.allowance, 2);
    t.cmd(|st, c| st.activate("Ann", &[], c)).unwrap();
    // Ann's shotgun at close: 4+ hits on 4; Stopping Power's D12 5 < 8 → a test, degraded
    // (D12 is heavy, TG-1) from D20 to D12: 1 → Retreat! No I'll Be Back after a Retreat.
    let order = AttackOrder::new("Ann", "Shotgun", "T3", Band::Close);
    let rep = t
        .cmd(|st, c| with(&[4, 5, 1], |d| st.attack(&order, c, &opts, d)))
        .unwrap();
    let r3 = &rep.run.targets[0];
    assert_eq!(
        (
            r3.damage_roll.as_ref().unwrap().die,
            r3.tests.as_ref().unwrap().die
        ),
        (Die::D12, Die::D12)
    );
    assert_eq!(
        (t.ch("T3").removed, r3.ill_be_back),
        (Some(Removal::Retreated), None)
    );
    assert_eq!(t.cmd(|st, c| st.done("Ann", c)).unwrap().next, Next::Same);
    t.cmd(|st, c| st.activate("Bob", &[], c)).unwrap();
    let gone = AttackOrder::new("Bob", "RPG", "T3", Band::Long);
    assert!(matches!(
        t.cmd(|st, c| with(&[], |d| st.attack(&gone, c, &opts, d))),
        Err(RuleError::Removed { .. })
    ));
    // Bob's RPG (Limited ammo(1)) misses; the second shot is refused.
    let rpg = AttackOrder::new("Bob", "RPG", "T2", Band::Long);
    let rep = t
        .cmd(|st, c| with(&[3], |d| st.attack(&rpg, c, &opts, d)))
        .unwrap();
    assert_eq!((rep.run.hits(), rep.run.stage), (0, Stage::Complete));
    assert_eq!(t.ch("Bob").ammo_used["RPG"], 1);
    assert_eq!(
        t.cmd(|st, c| with(&[], |d| st.attack(&rpg, c, &opts, d))),
        Err(RuleError::OutOfAmmo {
            weapon: "RPG".into(),
            limit: 1
        })
    );
    assert!(matches!(
        t.cmd(|st, c| st.done("Bob", c)).unwrap().next,
        Next::Impulse { .. }
    ));

    // Impulse 4: Skynet's Crawler (T2 has Done markers): a 1. Its claw at CC on Bob in cover:
    // the crawler's D6 3 hits (3+); Bob saves in cover: 2 fails; claw D8 3 < 4 → D6 test: 2 →
    // Reeling; Bob already has a Done marker: one more.
    let f = t
        .cmd(|st, c| with(&[2], |d| st.roll_fate(&opts.fate, c, d)))
        .unwrap();
    assert_eq!(f.allowance, 1);
    assert!(matches!(
        t.cmd(|st, c| st.activate("T2", &[], c)),
        Err(RuleError::NotEligible { .. })
    ));
    t.cmd(|st, c| st.activate("T1", &[], c)).unwrap();
    let mut claw = AttackOrder::new("T1", "Terminator claw", "Bob", Band::Cc);
    claw.cover = true;
    let rep = t
        .cmd(|st, c| with(&[3, 2, 3, 2], |d| st.attack(&claw, c, &opts, d)))
        .unwrap();
    assert_eq!(rep.run.targets[0].saves.as_ref().unwrap().unsaved, 1);
    assert_eq!((t.ch("Bob").done, t.ch("Bob").reeling), (2, true));
    assert_eq!(t.cmd(|st, c| st.done("T1", c)).unwrap().next, Next::EndTurn);

    // End Turn: one Done marker off each; Bob and T2 keep one and still reel.
    let e = t.cmd(|st, c| st.end_turn(c)).unwrap();
    assert_eq!(e.on_your_feet, BTreeMap::from([("Kyle".to_string(), 3)]));
    assert_eq!((t.ch("Bob").done, t.ch("T2").done, t.ch("Kyle").done), (1, 1, 0));
    // On Your Feet, Soldier!: Kyle takes Bob's extra marker off; Bob stops reeling.
    let o = t.cmd(|st, c| st.on_your_feet("Kyle", "Bob", 1, c)).unwrap();
    assert_eq!((o.done, o.recovered, o.left), (0, true, 2));
    let board = t.cmd(|st, c| Ok(st.status(c))).unwrap();
    let sky = board.sides.iter().find(|s| s.side == "Skynet").unwrap();
    assert_eq!(sky.crawlers, ["T1"]);
    assert_eq!(sky.removed, ["T3"]);
    assert_eq!(
        (sky.done.clone(), sky.reeling.clone()),
        (vec![("T2".to_string(), 1)], vec!["T2".to_string()])
    );
    assert_eq!(board.phase, Phase::OnYourFeet);
    let badges = super::sheet::badges(&t.ch("T1"), crate::i18n::Lang::Ja);
    assert!(badges.iter().any(|b| b.contains("クローラー")));

    // Turn 2: Skynet wins the roll-off and goes first; T2 starts the turn already activated.
    let r = t
        .cmd(|st, _| with(&[1, 5], |d| st.roll_off(opts.tactical_die, d)))
        .unwrap();
    assert_eq!(r.winner, "Skynet");
    t.cmd(|st, c| st.choose_first("Skynet", c)).unwrap();
    let f = t
        .cmd(|st, c| with(&[3], |d| st.roll_fate(&opts.fate, c, d)))
        .unwrap();
    assert_eq!(f.allowance, 1, "a 2, but only T1 may activate");
    assert!(matches!(
        t.cmd(|st, c| st.activate("T2", &[], c)),
        Err(RuleError::NotEligible { .. })
    ));
    t.cmd(|st, c| st.activate("T1", &[], c)).unwrap();
    assert!(matches!(
        t.cmd(|st, c| st.done("T1", c)).unwrap().next,
        Next::Impulse { .. }
    ));

    // Resistance: Joe ends his move in CC with the reeling T2: See you in hell, baby! The
    // assault rifle rolls 2 dice at 2+ (1, 2), no save, D20 15 kills — and no I'll Be Back.
    t.cmd(|st, c| with(&[1], |d| st.roll_fate(&opts.fate, c, d)))
        .unwrap();
    t.cmd(|st, c| st.activate("Joe", &[], c)).unwrap();
    let mut hell = AttackOrder::new("Joe", "Assault rifle", "T2", Band::Cc);
    hell.hell = true;
    hell.defer_ill_be_back = true;
    let rep = t
        .cmd(|st, c| with(&[1, 2, 15], |d| st.attack(&hell, c, &opts, d)))
        .unwrap();
    assert!(rep.applied && rep.waiting.is_none());
    assert_eq!((rep.run.rof, rep.run.hits()), (2, 1));
    assert_eq!(t.ch("T2").removed, Some(Removal::Killed));
    assert_eq!(rep.run.targets[0].ill_be_back, None);
    // The stored state still reads after all of it.
    let stored: Value = serde_json::from_str(&t.system_state).unwrap();
    assert!(TerminatorRules.check_state(&stored).is_ok());
    assert_eq!(TerminatorState::read(&stored).unwrap().turn, 2);
}

#[test]
fn refused_attacks_change_nothing_and_a_stepped_attack_waits_for_its_die() {
    let opts = options(&BTreeMap::from([(
        "term.ibb_carry_over".to_string(),
        "on".to_string(),
    )]));
    assert!(opts.carry_over);
    let mut t = Table::new();
    for (name, line) in [
        ("Kyle", r#"w2="Grenade launcher d8""#),
        ("Bob", r#"w2="Minigun d10""#),
    ] {
        let v = TerminatorRules
            .edit_sheet(
                &serde_json::from_str(&t.roster[name]).unwrap(),
                &parse_fields(line).unwrap(),
                false,
            )
            .unwrap();
        t.roster.insert(name.into(), v.to_string());
    }
    let refuse = |t: &mut Table, order: &AttackOrder| {
        let snapshot = (t.roster.clone(), t.system_state.clone());
        let e = t
            .cmd(|st, c| st.attack(order, c, &opts, &mut dice(&[6, 6, 6])))
            .unwrap_err();
        assert_eq!((t.roster.clone(), t.system_state.clone()), snapshot, "{e:?}");
        e
    };
    // Free play (no turn started): any character may attack.
    let mut area = AttackOrder::new("Kyle", "Grenade launcher", "T1", Band::Long);
    area.secondaries = vec![("Joe".into(), false)];
    assert_eq!(refuse(&mut t, &area), RuleError::FriendlyTouched);
    area.secondaries = vec![("T2".into(), true)];
    area.friendly_touched = true;
    assert_eq!(refuse(&mut t, &area), RuleError::FriendlyTouched);
    let own = AttackOrder::new("Kyle", "Plasma rifle", "Joe", Band::Long);
    assert!(matches!(refuse(&mut t, &own), RuleError::FriendlyTarget { .. }));
    let me = AttackOrder::new("Kyle", "Plasma rifle", "Kyle", Band::Long);
    assert_eq!(refuse(&mut t, &me), RuleError::SelfTarget);
    let ghost = AttackOrder::new("Kyle", "Plasma rifle", "T9", Band::Long);
    assert!(matches!(
        refuse(&mut t, &ghost),
        RuleError::UnknownCharacter { .. }
    ));
    let knife = AttackOrder::new("Joe", "Combat knife", "T1", Band::Cc);
    assert!(
        matches!(refuse(&mut t, &knife), RuleError::MissingDie { .. }),
        "the knife's power is lost"
    );
    let mut moved = AttackOrder::new("Bob", "Minigun", "T1", Band::Long);
    moved.moved = Some(true);
    assert!(matches!(refuse(&mut t, &moved), RuleError::HeavyMoved { .. }));
    // Once a turn runs, only an activating character attacks.
    t.cmd(|st, _| st.start(&["Resistance".into(), "Skynet".into()]))
        .unwrap();
    t.cmd(|st, _| st.roll_off(Die::D8, &mut dice(&[2, 1]))).unwrap();
    t.cmd(|st, c| st.choose_first("Resistance", c)).unwrap();
    let shot = AttackOrder::new("Kyle", "Plasma rifle", "T1", Band::Long);
    assert!(matches!(refuse(&mut t, &shot), RuleError::NotReady { .. }));
    t.cmd(|st, c| st.roll_fate(&opts.fate, c, &mut dice(&[1])))
        .unwrap();
    t.cmd(|st, c| st.activate("Kyle", &[], c)).unwrap();

    // Step by step, Area on T1 and T2 (in cover): the attack roll, the saves, the damage…
    area.friendly_touched = false;
    area.step_by_step = true;
    let step =
        |t: &mut Table, faces: &[u32]| t.cmd(|st, c| with(faces, |d| st.continue_attack(c, d))).unwrap();
    let rep = t
        .cmd(|st, c| with(&[6], |d| st.attack(&area, c, &opts, d)))
        .unwrap();
    assert_eq!((rep.run.stage, rep.applied), (Stage::Saves, false));
    assert_eq!(rep.rolled, [Stage::AttackRoll]);
    let rep = step(&mut t, &[]);
    assert_eq!(rep.rolled, [Stage::Saves]);
    assert_eq!(
        rep.run.targets[1].save,
        super::attack::SaveRule::Mindless,
        "cover or not"
    );
    assert_eq!(rep.run.stage, Stage::Damage);
    // Damage: T1 8 kills; T2 2 (a test). Then I'll Be Back for T1: 6 → a Crawler.
    let rep = step(&mut t, &[8, 2]);
    assert_eq!(rep.run.stage, Stage::IllBeBack);
    let rep = step(&mut t, &[6]);
    assert_eq!(
        (rep.run.stage, &rep.rolled[..]),
        (Stage::Tests, &[Stage::IllBeBack][..])
    );
    // The Crawler's resolution is unset in §2 (no session override here), but only T2 owes a
    // test: T2's D20 rolls 20.
    let rep = step(&mut t, &[20]);
    assert!(rep.applied);
    assert!(t.ch("T1").crawler && !t.ch("T2").reeling);
    t.cmd(|st, c| st.done("Kyle", c)).unwrap();

    // A lost die mid-run, in free play on a fresh table (§2's Crawler: resolution unset, and
    // this T1's too: a Crawler keeps the model's die, issue 29).
    let mut t = Table::new();
    t.cmd(|_, c| {
        c.get_mut("T1").unwrap().stats.resolution = None;
        Ok(())
    })
    .unwrap();
    let mut shot = AttackOrder::new("Kyle", "Plasma rifle", "T1", Band::Long);
    shot.step_by_step = false;
    // 7 hits; D10 9 kills T1; IBB 5 → Crawler, no test owed: complete.
    let rep = t
        .cmd(|st, c| with(&[7, 9, 5], |d| st.attack(&shot, c, &opts, d)))
        .unwrap();
    assert!(rep.applied && t.ch("T1").crawler);
    // The Crawler hit again: D10 3 < 8 → a test on the Crawler's lost resolution die: the
    // attack waits for it; continuing is refused until it is given.
    let rep = t
        .cmd(|st, c| with(&[6, 3], |d| st.attack(&shot, c, &opts, d)))
        .unwrap();
    assert_eq!(
        rep.waiting,
        Some(Waiting::Die {
            target: "T1".into(),
            field: super::error::DieField::Resolution
        })
    );
    assert!(matches!(
        t.cmd(|st, c| st.continue_attack(c, &mut dice(&[1]))),
        Err(RuleError::MissingDie { .. })
    ));
    assert_eq!(t.cmd(|st, _| st.supply_die("T1", Die::D6)).unwrap(), None);
    // D6 degraded by the D10 to D4: 1 → Retreat.
    let rep = t.cmd(|st, c| with(&[1], |d| st.continue_attack(c, d))).unwrap();
    assert!(rep.applied);
    assert_eq!(t.ch("T1").removed, Some(Removal::Retreated));
    assert!(matches!(
        t.cmd(|st, _| st.cancel_attack()),
        Err(RuleError::NoAttack)
    ));
}

/// Issue 29: a new Crawler keeps the dice the players gave the model (skill, resolution, the
/// claw's power), a die given to an attack (`/term die`) stays on the sheet, and a killed or
/// retreated model keeps no markers.
#[test]
fn a_crawler_keeps_its_dice_and_the_removed_keep_no_markers() {
    let opts = options(&BTreeMap::new());
    let mut t = Table::new();
    // Kyle's plasma rifle at long: 7 hits; D10 9 kills T1 (Endoskeleton: skill D8, resolution
    // D20, claw D8); I'll Be Back 5 → a Crawler with those dice.
    let shot = |target: &str| AttackOrder::new("Kyle", "Plasma rifle", target, Band::Long);
    t.cmd(|st, c| with(&[7, 9, 5], |d| st.attack(&shot("T1"), c, &opts, d)))
        .unwrap();
    let t1 = t.ch("T1");
    assert!(t1.crawler && t1.stats.slow);
    assert_eq!(
        (t1.stats.skill, t1.stats.resolution),
        (Some(Die::D8), Some(Die::D20))
    );
    let claw = t1.weapon("T1", "Terminator").unwrap();
    assert_eq!(
        (claw.name.as_str(), claw.power),
        ("Terminator claw", Some(Die::D8))
    );
    // The Crawler is hit, not killed: D10 3 < 8 → its kept D20, degraded by the D10 to D12: 12.
    let rep = t
        .cmd(|st, c| with(&[7, 3, 12], |d| st.attack(&shot("T1"), c, &opts, d)))
        .unwrap();
    assert!(rep.applied && rep.waiting.is_none());

    // T2 without a resolution die: the attack waits; the die given stays on its sheet.
    t.cmd(|_, c| {
        c.get_mut("T2").unwrap().stats.resolution = None;
        Ok(())
    })
    .unwrap();
    let rep = t
        .cmd(|st, c| with(&[7, 3], |d| st.attack(&shot("T2"), c, &opts, d)))
        .unwrap();
    assert!(matches!(rep.waiting, Some(Waiting::Die { .. })));
    t.cmd(|st, _| st.supply_die("T2", Die::D8)).unwrap();
    // D8 degraded to D6: 6 → no effect.
    t.cmd(|st, c| with(&[6], |d| st.continue_attack(c, d))).unwrap();
    assert_eq!(t.ch("T2").stats.resolution, Some(Die::D8));

    // T2 killed (D10 9; I'll Be Back 5) with no resolution given before: the Crawler takes the
    // die given to this attack's tests of it.
    t.cmd(|_, c| {
        c.get_mut("T2").unwrap().stats.resolution = None;
        Ok(())
    })
    .unwrap();
    // 7 and 7 hit (Semi-auto: ROF 1 at long; at short ROF 2): D10 9 kills, 3 owes the Crawler a
    // test (TG-5); IBB 5 → Crawler; its die is lost: the attack waits.
    let short = AttackOrder::new("Kyle", "Plasma rifle", "T2", Band::Short);
    let rep = t
        .cmd(|st, c| with(&[7, 7, 9, 3, 5], |d| st.attack(&short, c, &opts, d)))
        .unwrap();
    assert!(
        matches!(rep.waiting, Some(Waiting::Die { .. })),
        "{:?}",
        rep.waiting
    );
    t.cmd(|st, _| st.supply_die("T2", Die::D10)).unwrap();
    // D10 degraded to D8: 8 → no effect.
    t.cmd(|st, c| with(&[8], |d| st.continue_attack(c, d))).unwrap();
    let t2 = t.ch("T2");
    assert!(t2.crawler);
    assert_eq!(
        (t2.stats.resolution, t2.stats.skill),
        (Some(Die::D10), Some(Die::D8))
    );

    // T3 reeling with two Done markers is killed (D10 9, I'll Be Back 4): no markers stay.
    t.cmd(|_, c| {
        let t3 = c.get_mut("T3").unwrap();
        t3.done = 2;
        t3.reeling = true;
        Ok(())
    })
    .unwrap();
    t.cmd(|st, c| with(&[7, 9, 4], |d| st.attack(&shot("T3"), c, &opts, d)))
        .unwrap();
    let t3 = t.ch("T3");
    assert_eq!(
        (t3.removed, t3.done, t3.reeling, t3.ready),
        (Some(Removal::Killed), 0, false, false)
    );
    // Bob retreats on a 1 (D6, heavy D10 → D4) after two Done markers: none stay.
    t.cmd(|_, c| {
        let b = c.get_mut("Bob").unwrap();
        b.done = 1;
        Ok(())
    })
    .unwrap();
    let at_bob = AttackOrder::new("T1", "Terminator claw", "Bob", Band::Cc);
    // The Crawler's claw (kept D8 skill): 3 hits (3+); no cover at CC: no save; claw D8 2 < 4 →
    // D6 test: 1 → Retreat!
    t.cmd(|st, c| with(&[3, 2, 1], |d| st.attack(&at_bob, c, &opts, d)))
        .unwrap();
    let bob = t.ch("Bob");
    assert_eq!(
        (bob.removed, bob.done, bob.reeling),
        (Some(Removal::Retreated), 0, false)
    );
}

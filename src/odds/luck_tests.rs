//! Luck figures against chances counted by hand, one roll of each system and of `/roll`.

use super::*;
use crate::systems::mecha_d20::unit::Power;
use crate::systems::warmachine::dice::DiscardWhich;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn luck(roll: LuckRoll, observed: i64) -> Chance {
    chance_at_least_as_good(&LuckInput { roll, observed }).unwrap()
}

fn pool(dice: u32, rule_of_six: bool, opposing: bool) -> SrPool {
    SrPool {
        dice,
        rule_of_six,
        opposing,
        cap: None,
    }
}

fn sr(pools: Vec<SrPool>, fixed: i64) -> LuckRoll {
    LuckRoll::Shadowrun4 { pools, fixed }
}

#[test]
fn shadowrun_hits_by_hand() {
    // Two dice, two hits: (1/3)².
    let c = luck(sr(vec![pool(2, false, false)], 0), 2);
    assert!(close(c.at_least, 1.0 / 9.0), "{c:?}");
    assert!(close(c.at_most, 1.0));
    // Three dice, one hit: 1 − (2/3)³.
    assert!(close(
        luck(sr(vec![pool(3, false, false)], 0), 1).at_least,
        19.0 / 27.0
    ));
    // One die with the rule of six, two hits: a six (1/6), then a hit (1/3) on the die it adds.
    let c = luck(sr(vec![pool(1, true, false)], 0), 2);
    assert!(close(c.at_least, 1.0 / 18.0), "{c:?}");
    // One die against one die, net 1: a hit and a miss, 1/3 · 2/3.
    let c = luck(sr(vec![pool(1, false, false), pool(1, false, true)], 0), 1);
    assert!(close(c.at_least, 2.0 / 9.0), "{c:?}");
    // Second Chance kept 1 hit and rerolled 2 misses, ending on 3: both rerolls hit.
    assert!(close(
        luck(sr(vec![pool(2, false, false)], 1), 3).at_least,
        1.0 / 9.0
    ));
}

#[test]
fn shadowrun_capped_hits_by_hand() {
    // Three dice, hits capped at 1 (a Force 1 spell): 1 counted hit whenever any die hits,
    // 1 − (2/3)³ = 19/27, and nothing better exists.
    let capped = SrPool {
        cap: Some(1),
        ..pool(3, false, false)
    };
    let c = luck(sr(vec![capped], 0), 1);
    assert!(close(c.at_least, 19.0 / 27.0), "{c:?}");
    assert!(close(c.at_most, 1.0), "{c:?}");
    // Capped at 0: every roll is the same, certain.
    let none = SrPool {
        cap: Some(0),
        ..pool(2, true, false)
    };
    assert!(close(luck(sr(vec![none], 2), 2).at_least, 1.0));
    // Against an opposing die, net 1 with the cap at 1: one counted hit (19/27) and the
    // opponent's die missing (2/3) → 38/81.
    let c = luck(sr(vec![capped, pool(1, false, true)], 0), 1);
    assert!(close(c.at_least, 38.0 / 81.0), "{c:?}");
}

#[test]
fn notation_by_hand() {
    let roll = |e: &str| LuckRoll::Notation { expression: e.into() };
    // 2d6 = 10 or more: 6 of 36.
    let c = luck(roll("2d6"), 10);
    assert!(close(c.at_least, 6.0 / 36.0));
    assert!(close(c.at_most, 33.0 / 36.0));
    // Under a `<=` target lower is better: 1D100<=50 showing 3 → 3 %.
    let c = luck(roll("1D100<=50"), 3);
    assert!(close(c.at_least, 0.03), "{c:?}");
    // Successes: 3d6 t5 with 3 successes, (1/3)³.
    assert!(close(luck(roll("3d6 t5"), 3).at_least, 1.0 / 27.0));
    // A fair die's percentile is its mid-rank: a 1 on a d4 is 1/8.
    assert!(close(luck(roll("1d4"), 1).percentile(), 1.0 / 8.0));
}

#[test]
fn badlands_rally_by_hand() {
    // A check of 2D6 at 4+ showing 1 (both 1s): the worst result, 1/36 of the time.
    let c = luck(LuckRoll::RallyCheck { rating: 4, dice: 2 }, 1);
    assert!(close(c.at_least, 1.0) && close(c.at_most, 1.0 / 36.0), "{c:?}");
    // A check of 1D6 at 4+ showing 6: 1/6.
    assert!(close(
        luck(LuckRoll::RallyCheck { rating: 4, dice: 1 }, 6).at_least,
        1.0 / 6.0
    ));
    // A roll of 2 dice at 5+ with 2 successes: (2/6)².
    assert!(close(
        luck(LuckRoll::RallyRoll { rating: 5, dice: 2 }, 2).at_least,
        1.0 / 9.0
    ));
    // 1 die against 1 die at 4+: a margin of 5 or more is a 6 against a 1, 1/36.
    let attack = LuckRoll::RallyAttack {
        rating: 4,
        dice: 1,
        defence_rating: 4,
        defence_dice: 1,
    };
    assert!(close(luck(attack, 5).at_least, 1.0 / 36.0));
}

#[test]
fn warmachine_by_hand() {
    assert!(close(
        luck(
            LuckRoll::Warmachine {
                dice: 2,
                discard: None
            },
            12
        )
        .at_least,
        1.0 / 36.0
    ));
    // Boosted, the lowest discarded, 12 kept: at least two 6s among three dice, 16/216.
    let roll = LuckRoll::Warmachine {
        dice: 3,
        discard: Some(Discard {
            which: DiscardWhich::Lowest,
            count: 1,
        }),
    };
    assert!(close(luck(roll, 12).at_least, 16.0 / 216.0));
}

#[test]
fn terminator_by_hand() {
    // Two D6 at 4+, both hit: 1/4.
    let roll = LuckRoll::TerminatorAttack {
        die: Die::D6,
        rof: 2,
        threshold: 4,
    };
    let c = luck(roll, 2);
    assert!(close(c.at_least, 0.25) && close(c.at_most, 1.0), "{c:?}");
}

#[test]
fn mecha_by_hand() {
    // Equal bonuses: a natural 20 against a 1 is the best of the 400 pairs.
    let strike = LuckRoll::MechaStrike {
        attack: 3,
        evasion: 3,
    };
    let best = mecha_strike_score(3, 3, 20, 1);
    assert!(close(luck(strike.clone(), best).at_least, 1.0 / 400.0));
    // Any hit beats any miss: the worst hit (a tie, 1 against 1) has every hit at least as
    // good: 190 ties or wins without a 20 plus 20 with the attack's 20 → 210 / 400.
    let tie = mecha_strike_score(3, 3, 1, 1);
    assert!(close(luck(strike, tie).at_least, 210.0 / 400.0));
    // 2d6 damage against armour 0: 12 is 1/36.
    let dmg = LuckRoll::MechaDamage {
        request: DamageRequest {
            power: Power {
                count: 2,
                sides: 6,
                bonus: 0,
            },
            armour: 0,
            multiplier: None,
        },
    };
    assert!(close(luck(dmg, 12).at_least, 1.0 / 36.0));
}

#[test]
fn refusals_are_never_estimates() {
    let roll = |e: &str| LuckRoll::Notation { expression: e.into() };
    // A result the roll cannot give.
    let e = chance_at_least_as_good(&LuckInput {
        roll: roll("2d6"),
        observed: 13,
    });
    assert_eq!(e, Err(LuckError::Impossible));
    // Several results: refused by the odds engine.
    let e = chance_at_least_as_good(&LuckInput {
        roll: roll("2d6; 1d4"),
        observed: 3,
    });
    assert!(matches!(e, Err(LuckError::Refused(_))), "{e:?}");
    for err in [LuckError::TooCostly, LuckError::Impossible] {
        assert!(!err.localized(Lang::Ja).is_ascii());
    }
}

#[test]
fn inputs_survive_the_log_as_json() {
    let input = LuckInput {
        roll: sr(vec![pool(6, true, false), pool(3, false, true)], 0),
        observed: 2,
    };
    let text = serde_json::to_string(&input).unwrap();
    assert_eq!(
        text,
        r#"{"roll":{"kind":"shadowrun4","pools":[{"dice":6,"rule_of_six":true},{"dice":3,"opposing":true}],"fixed":0},"observed":2}"#
    );
    let back: LuckInput = serde_json::from_str(&text).unwrap();
    assert_eq!(back, input);
}

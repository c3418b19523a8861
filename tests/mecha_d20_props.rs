//! Properties of the d20 mecha engine: typed input never panics, a hit always does at least 1,
//! criticals need two or more alike d6, and the natural-20 rules hold for any totals.

use proptest::prelude::*;
use saikoro::dice::{FixedRoller, SeededRoller};
use saikoro::systems::mecha_d20::attack::{AttackRequest, resolve_attack};
use saikoro::systems::mecha_d20::check::{Part, Source};
use saikoro::systems::mecha_d20::damage::{DamageRequest, Multiplier, parse_power, roll_damage};
use saikoro::systems::mecha_d20::sheet::{edit, parse_weapon};
use saikoro::systems::mecha_d20::unit::{Cockpit, Facing, Power};

const WEAPON_ALPHABET: &str = "[a-zA-Z0-9dD+\\-:_ 　射程格闘正面前面全周背面右腕左脚頭部固定標準]{0,40}";

fn facing() -> impl Strategy<Value = Facing> {
    prop_oneof![Just(Facing::Front), Just(Facing::Side), Just(Facing::Rear)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn typed_input_never_panics(input in any::<String>(), weapon in WEAPON_ALPHABET) {
        let _ = parse_power(&input);
        let _ = Multiplier::parse(&input);
        let _ = parse_weapon("w1", &input);
        let _ = parse_weapon("w1", &weapon);
        let fields = vec![
            ("durability".to_string(), "10".to_string()),
            ("w1".to_string(), weapon.clone()),
            ("armour".to_string(), input.clone()),
        ];
        let _ = edit(&serde_json::json!({}), &fields);
    }

    #[test]
    fn a_hit_always_does_at_least_one_and_criticals_need_alike_d6s(
        count in 1u32..=6,
        sides in prop_oneof![Just(6u32), Just(10u32)],
        bonus in -20i64..=20,
        armour in 0u32..=40,
        times in prop::option::of(1u32..=4),
        seed in any::<u64>(),
    ) {
        let req = DamageRequest {
            power: Power { count, sides, bonus },
            armour,
            multiplier: times.map(Multiplier::DivideBy),
        };
        let d = roll_damage(&req, &mut SeededRoller::from_seed(seed)).unwrap();
        prop_assert!(d.damage >= 1);
        prop_assert_eq!(d.dice.len() as u32, count);
        let alike = d.dice.iter().all(|&f| f == d.dice[0]);
        prop_assert_eq!(d.critical, sides == 6 && count >= 2 && alike);
        prop_assert_eq!(d.secondary.is_some(), d.critical);
        if let Some(s) = d.secondary {
            prop_assert!((1..=20).contains(&s.die));
        }
    }

    #[test]
    fn natural_20s_decide_whatever_the_totals(
        attack in -50i64..=50,
        evasion in -50i64..=50,
        a_die in 1u32..=20,
        e_die in 1u32..=20,
        f in facing(),
    ) {
        let req = AttackRequest {
            attack: vec![Part::new(Source::Situational, attack)],
            evasion: vec![Part::new(Source::Situational, evasion)],
            cockpit: Cockpit::MultiMonitor,
            facing: f,
        };
        let o = resolve_attack(&req, &mut FixedRoller::new([a_die, e_die])).unwrap();
        let expected = if a_die == 20 {
            true
        } else if e_die == 20 {
            false
        } else {
            o.attack.total >= o.evasion.total
        };
        prop_assert_eq!(o.hit, expected);
    }
}

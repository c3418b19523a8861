//! Arbitrary inputs never panic: every resolver answers Ok or a RuleError.

use proptest::prelude::*;
use saikoro::dice::{Budget, SeededRoller};
use saikoro::systems::shadowrun4::combat::{AttackKind, AttackRequest, Weapon, resolve_attack};
use saikoro::systems::shadowrun4::dice::read_faces;
use saikoro::systems::shadowrun4::magic::{SpellRequest, cast_spell};
use saikoro::systems::shadowrun4::test_kinds::{
    ExtendedRequest, SuccessRequest, extended_test, success_test,
};
use saikoro::systems::shadowrun4::{Attributes, Character, DamageType, DicePool, EdgeBefore, RollSpec};

fn edge() -> impl Strategy<Value = Option<EdgeBefore>> {
    prop_oneof![
        Just(None),
        any::<u32>().prop_map(|e| Some(EdgeBefore::PushTheLimit { edge: e % 30 })),
        any::<u32>().prop_map(|e| Some(EdgeBefore::LongShot { edge: e % 30 })),
    ]
}

fn spec() -> impl Strategy<Value = RollSpec> {
    (any::<i32>(), -200i32..200, edge(), any::<u32>()).prop_map(|(a, b, edge, retry)| RollSpec {
        pool: DicePool::dice(a % 300).with_custom("m", b),
        edge,
        retry: retry % 30,
    })
}

proptest! {
    #[test]
    fn success_tests_never_panic(s in spec(), t in any::<Option<u32>>(), cap in any::<Option<u32>>(), buy in any::<bool>(), seed in any::<u64>()) {
        let mut r = SeededRoller::from_seed(seed);
        let req = SuccessRequest { roll: s, threshold: t, hit_cap: cap, buy_hits: buy };
        let _ = success_test(&req, &mut r);
    }

    #[test]
    fn extended_tests_never_panic(p in any::<i32>(), t in any::<u32>(), m in any::<Option<u32>>(), seed in any::<u64>()) {
        let mut seeded = SeededRoller::from_seed(seed);
        let mut r = Budget::new(&mut seeded);
        let req = ExtendedRequest { pool: DicePool::dice(p), retry: 0, threshold: t, max_intervals: m, edge: None };
        let _ = extended_test(&req, &mut r);
    }

    #[test]
    fn attacks_never_panic(a in spec(), d in spec(), dv in any::<u32>(), ap in any::<i32>(), armour in any::<u32>(), body in any::<u32>(), stun in any::<bool>(), seed in any::<u64>()) {
        let mut r = SeededRoller::from_seed(seed);
        let req = AttackRequest { kind: AttackKind::Ranged, attack: a, defence: d, full_defence: false,
            weapon: Weapon { dv, stun, ap }, armour, body, soak_edge: None };
        let _ = resolve_attack(&req, &mut r);
    }

    #[test]
    fn spells_never_panic(c in spec(), force in any::<u32>(), magic in any::<u32>(), drain in any::<u32>(), seed in any::<u64>()) {
        let mut r = SeededRoller::from_seed(seed);
        let req = SpellRequest { cast: c, force, magic, resistance: Some(RollSpec::dice(3)), threshold: None,
            drain_value: drain, drain: RollSpec::dice(4) };
        let _ = cast_spell(&req, &mut r);
    }

    #[test]
    fn damage_never_panics(body in any::<u32>(), will in any::<u32>(), boxes in any::<u32>(), phys in any::<bool>()) {
        let attrs = Attributes { body: body % 40, willpower: will % 40, ..Attributes::default() };
        if let Ok(c) = Character::new("x", attrs) {
            let t = if phys { DamageType::Physical } else { DamageType::Stun };
            let _ = c.apply_damage(t, boxes).and_then(|(c, _)| c.apply_damage(t, boxes));
        }
    }

    #[test]
    fn faces_never_panic(faces in proptest::collection::vec(any::<u32>(), 0..40), original in any::<usize>(), hit_on in any::<u32>()) {
        let _ = read_faces(&faces, original % 50, hit_on);
    }
}

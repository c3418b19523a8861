//! The seed's worked examples through the public API, and "never panics" properties.

use proptest::prelude::*;
use saikoro::dice::{FixedRoller, SeededRoller};
use saikoro::systems::badlands_rally::attack::{self, AttackKind, AttackRequest, AttackSetup, Cover, Facing};
use saikoro::systems::badlands_rally::datacards;
use saikoro::systems::badlands_rally::gear::{
    Gear, GearSheet, Range, Speed, Weapon, WeaponChoice, WeaponKind, WeaponTrait,
};
use saikoro::systems::badlands_rally::moves::{self, MoveRequest};
use saikoro::systems::badlands_rally::roll::{Rating, TestRequest, resolve_check, resolve_roll};
use saikoro::systems::badlands_rally::state::GearEvent;

fn sheet(name: &str) -> GearSheet {
    GearSheet {
        name: name.into(),
        model: None,
        attack: Rating::new(4).unwrap(),
        defence: Rating::new(3).unwrap(),
        initiative: Rating::new(4).unwrap(),
        mr: 16,
        hull: 2,
        structure: 1,
        ar: 5,
        weapons: vec![],
        traits: vec![],
        upgrades: vec![],
    }
}

#[test]
fn seed_jerboa_burns_rubber_for_two_mr() {
    // Seed バーンラバー: Jerboa, Defence 3+, Top Speed, rolls 5,3,2 → 2 successes → MR 18.
    let s = datacards::with_model(sheet("Jerboa"), "jerboa").unwrap();
    let g = Gear::new(s)
        .unwrap()
        .apply(&GearEvent::Activate { speed: Speed::Top })
        .unwrap();
    let r = moves::burn_rubber(&g, &MoveRequest::default(), &mut FixedRoller::new([5, 3, 2])).unwrap();
    assert_eq!(r.outcome.roll.successes, 2);
    assert_eq!(r.outcome.mr_gained, 2);
    assert_eq!(r.gear.state.mr_left(), 18);
}

#[test]
fn note_check_examples() {
    let check = |rating: u8, faces: &[u32]| {
        let req = TestRequest {
            rating,
            dice: faces.len() as i32,
            rattled: false,
            extra_dice: 0,
        };
        resolve_check(&req, &mut FixedRoller::new(faces.iter().copied()))
            .unwrap()
            .result
    };
    assert_eq!(check(5, &[4, 5, 6]), 7);
    assert_eq!(check(4, &[1, 1]), 1);
    assert_eq!(check(4, &[4, 4]), 5);
}

#[test]
fn zero_dice_roll_fails_automatically() {
    let req = TestRequest {
        rating: 4,
        dice: 1,
        rattled: true,
        extra_dice: 0,
    };
    let out = resolve_roll(&req, &mut FixedRoller::new([])).unwrap();
    assert!(out.automatic_failure);
    assert_eq!(out.successes, 0);
}

fn arb_weapon() -> impl Strategy<Value = Weapon> {
    (
        0u32..120,
        0u32..10,
        0u32..10,
        0u32..20,
        any::<[bool; 6]>(),
        0u8..30,
    )
        .prop_map(|(pow, a, b, c, t, burst)| {
            let mut traits = Vec::new();
            let all = [
                WeaponTrait::AreaEffect,
                WeaponTrait::Blast,
                WeaponTrait::Heat,
                WeaponTrait::Impact,
                WeaponTrait::Melee,
                WeaponTrait::Burst(burst),
            ];
            for (on, tr) in t.iter().zip(all) {
                if *on {
                    traits.push(tr);
                }
            }
            Weapon {
                name: "W".into(),
                kind: WeaponKind::Other,
                pow,
                range: Range {
                    optimal_min: a,
                    optimal_max: a + b,
                    max: a + b + c,
                },
                traits,
                attack: None,
            }
        })
}

proptest! {
    #[test]
    fn attacks_never_panic(
        w in arb_weapon(),
        ar in 0u32..120,
        hull in 0u32..120,
        distance in 0u32..30,
        l1 in 0u32..30,
        l2 in 0u32..30,
        extra in -40i32..40,
        dextra in -40i32..40,
        facing in 0u8..3,
        push in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let mut a = sheet("A");
        a.weapons.push(w);
        let mut d = sheet("D");
        d.ar = ar;
        d.hull = hull;
        let (Ok(a), Ok(d)) = (Gear::new(a), Gear::new(d)) else {
            return Ok(());
        };
        let setup = AttackSetup {
            kind: if push { AttackKind::Push } else { AttackKind::Weapon(WeaponChoice::Sheet(0)) },
            facing: [Facing::Front, Facing::Side, Facing::Rear][facing as usize],
            distance,
            cover: Cover { level1: l1, level2: l2 },
            attack_extra: extra,
            defence_extra: dextra,
        };
        let req = AttackRequest { attacker: &a, defender: &d, setup: &setup };
        if let Ok(out) = attack::resolve(&req, &mut SeededRoller::from_seed(seed)) {
            let hit = out.target_hit();
            let _ = d.apply(&GearEvent::Hit(hit));
        }
    }

    #[test]
    fn checks_never_panic(rating in 0u8..10, dice in any::<i32>(), extra in any::<i32>(), seed in any::<u64>()) {
        let req = TestRequest { rating, dice, rattled: true, extra_dice: extra };
        let _ = resolve_check(&req, &mut SeededRoller::from_seed(seed));
        let _ = resolve_roll(&req, &mut SeededRoller::from_seed(seed));
    }
}

//! Badlands Rally: one attack resolved (checks, damage, spin-out dice) and applied to both gears
//! of a race, from a seeded roller.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use saikoro::dice::SeededRoller;
use saikoro::systems::badlands_rally::attack::{self, AttackKind, AttackRequest, AttackSetup, Cover, Facing};
use saikoro::systems::badlands_rally::gear::{
    GearSheet, Range, Speed, Weapon, WeaponChoice, WeaponKind, WeaponTrait,
};
use saikoro::systems::badlands_rally::race::{RaceAttack, RaceEvent, RaceOptions, RaceState};
use saikoro::systems::badlands_rally::roll::Rating;
use saikoro::systems::badlands_rally::state::GearEvent;

fn sheet(name: &str) -> GearSheet {
    GearSheet {
        name: name.into(),
        model: None,
        attack: Rating::new(4).unwrap(),
        defence: Rating::new(4).unwrap(),
        initiative: Rating::new(4).unwrap(),
        mr: 12,
        hull: 4,
        structure: 2,
        ar: 5,
        weapons: vec![Weapon {
            name: "Autocannon".into(),
            kind: WeaponKind::Autocannon,
            pow: 7,
            range: Range::new(2, 6, 12).unwrap(),
            traits: vec![WeaponTrait::Burst(1), WeaponTrait::Heat],
            attack: None,
        }],
        traits: vec![],
        upgrades: vec![],
    }
}

fn race() -> RaceState {
    let mut r = RaceState::new(2, RaceOptions::default()).unwrap();
    for id in ["a", "b"] {
        r = r
            .apply(&RaceEvent::AddGear {
                id: id.into(),
                sheet: sheet(id),
            })
            .unwrap();
    }
    r.apply(&RaceEvent::StartRound)
        .unwrap()
        .apply(&RaceEvent::Gear {
            id: "a".into(),
            event: GearEvent::Activate {
                speed: Speed::Cruising,
            },
        })
        .unwrap()
}

fn setup() -> AttackSetup {
    AttackSetup {
        kind: AttackKind::Weapon(WeaponChoice::Sheet(0)),
        facing: Facing::Side,
        distance: 8,
        cover: Cover { level1: 1, level2: 0 },
        attack_extra: 0,
        defence_extra: 0,
    }
}

fn bench(c: &mut Criterion) {
    let r = race();
    let req = RaceAttack {
        attacker: "a".into(),
        defender: "b".into(),
        setup: setup(),
        reaction: false,
        adjacent: vec![],
    };
    let mut roller = SeededRoller::from_seed(2026);
    c.bench_function("badlands_rally attack+damage+state update", |b| {
        b.iter(|| {
            let (next, report) = black_box(&r).attack(black_box(&req), &mut roller).unwrap();
            black_box((next, report))
        })
    });
    let s = setup();
    let (a, d) = (r.gear("a").unwrap(), r.gear("b").unwrap());
    c.bench_function("badlands_rally attack+damage resolve only", |b| {
        b.iter(|| {
            let areq = AttackRequest {
                attacker: black_box(a),
                defender: black_box(d),
                setup: black_box(&s),
            };
            black_box(attack::resolve(&areq, &mut roller).unwrap())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);

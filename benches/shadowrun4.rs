//! Shadowrun 4 resolutions issue 5 asks figures for, with a seeded roller:
//! a 12-die success test, an exploding 20-die test (Edge pushed), a full ranged attack with soak.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use saikoro::dice::SeededRoller;
use saikoro::systems::shadowrun4::combat::{AttackKind, AttackRequest, Weapon, resolve_attack};
use saikoro::systems::shadowrun4::test_kinds::{SuccessRequest, success_test};
use saikoro::systems::shadowrun4::{EdgeBefore, RollSpec};

fn resolutions(c: &mut Criterion) {
    let mut group = c.benchmark_group("shadowrun4");

    let twelve = SuccessRequest {
        roll: RollSpec::dice(12),
        threshold: Some(3),
        ..SuccessRequest::default()
    };
    let mut roller = SeededRoller::from_seed(2026);
    group.bench_function("success_12_dice", |b| {
        b.iter(|| success_test(black_box(&twelve), &mut roller).expect("valid test"))
    });

    // 16 dice + Edge 4 = 20 dice, every six exploding.
    let exploding = SuccessRequest {
        roll: RollSpec::dice(16).with_edge(EdgeBefore::PushTheLimit { edge: 4 }),
        threshold: Some(4),
        ..SuccessRequest::default()
    };
    let mut roller = SeededRoller::from_seed(2026);
    group.bench_function("exploding_20_dice", |b| {
        b.iter(|| success_test(black_box(&exploding), &mut roller).expect("valid test"))
    });

    // Agility 5 + Pistols 4 + smartlink 2 against Reaction 4; DV 5 AP −1 into Body 4 + armour 6.
    let attack = AttackRequest {
        kind: AttackKind::Ranged,
        attack: RollSpec::dice(11),
        defence: RollSpec::dice(4),
        full_defence: false,
        weapon: Weapon {
            dv: 5,
            stun: false,
            ap: -1,
        },
        armour: 6,
        body: 4,
        soak_edge: None,
    };
    let mut roller = SeededRoller::from_seed(2026);
    group.bench_function("ranged_attack_with_soak", |b| {
        b.iter(|| resolve_attack(black_box(&attack), &mut roller).expect("valid attack"))
    });
    group.finish();
}

criterion_group!(benches, resolutions);
criterion_main!(benches);

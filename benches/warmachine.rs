//! Warmachine resolutions issue 12 asks figures for, with a seeded roller: a boosted melee
//! attack and its damage roll against a target carrying three named effects (Dark Shroud twice,
//! the second not stacking; Kiss of Lyliss; a DEF −2 Hex).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use saikoro::dice::SeededRoller;
use saikoro::systems::warmachine::effects::preset;
use saikoro::systems::warmachine::{
    AttackKind, AttackOptions, AttackRequest, DamageRequest, DiceRequest, EffectSpec, Expiry, Model,
    PowSource, Stat, StatChange, Weapon, resolve_attack, resolve_damage,
};

fn resolutions(c: &mut Criterion) {
    let mut attacker = Model::new("Stalker", "Ana", 13, 17, 25);
    attacker.mat = 7;
    attacker.weapons.push(Weapon {
        name: "Blade".into(),
        pow: 13,
        kind: AttackKind::Melee,
    });
    // A target that cannot die during the run: damage is marked on a copy each time.
    let mut target = Model::new("Juggernaut", "Ben", 12, 18, 100);
    target
        .add_effect(&preset("Dark Shroud").unwrap(), Expiry::Manual, None, None)
        .unwrap();
    target
        .add_effect(&preset("Dark Shroud").unwrap(), Expiry::Manual, None, None)
        .unwrap();
    target
        .add_effect(&preset("Kiss of Lyliss").unwrap(), Expiry::Manual, None, None)
        .unwrap();
    target
        .add_effect(
            &EffectSpec {
                name: "Hex".into(),
                changes: vec![StatChange {
                    stat: Stat::Def,
                    delta: -2,
                }],
                cannot: vec![],
            },
            Expiry::Manual,
            None,
            None,
        )
        .unwrap();
    let attack = AttackRequest {
        kind: AttackKind::Melee,
        weapon: Some("Blade".into()),
        modifier: 0,
        dice: DiceRequest {
            boost: true,
            ..DiceRequest::default()
        },
        cover: 0,
    };
    let damage = DamageRequest {
        pow: PowSource::Weapon("Blade".into()),
        modifier: 0,
        dice: DiceRequest::default(),
    };
    let options = AttackOptions::default();
    let mut roller = SeededRoller::from_seed(2026);
    let mut group = c.benchmark_group("warmachine");
    group.bench_function("attack_and_damage_three_effects", |b| {
        b.iter(|| {
            let atk = resolve_attack(black_box(&attack), &attacker, &target, &options, &mut roller)
                .expect("valid attack");
            let mut t = target.clone();
            let dmg =
                resolve_damage(black_box(&damage), &attacker, &mut t, &mut roller).expect("valid damage");
            (atk.hit, dmg.damage)
        })
    });
    group.finish();
}

criterion_group!(benches, resolutions);
criterion_main!(benches);

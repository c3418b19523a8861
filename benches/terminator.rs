//! Terminator Genisys resolutions issue 13 asks figures for, with a seeded roller: a 5-ROF
//! minigun attack through cover saves, damage and resolution tests, as plain numbers and
//! through the session state (characters read from their sheets, results applied).

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use saikoro::dice::SeededRoller;
use saikoro::systems::sheet::parse_fields;
use saikoro::systems::terminator::attack::{AttackRequest, TargetStats, resolve_attack};
use saikoro::systems::terminator::sheet;
use saikoro::systems::terminator::{AttackOrder, Band, Character, Die, TerminatorOptions, TerminatorState};

fn character(fields: &str) -> Character {
    let f = parse_fields(fields).expect("fields");
    Character::read(&sheet::edit(&serde_json::json!({}), &f).expect("sheet"), "bench").expect("character")
}

fn resolutions(c: &mut Criterion) {
    let gunner = character(r#"side=Resistance profile=SWAT skill=d8 resolution=d8 w1="Minigun d10""#);
    let target = character("side=Skynet profile=SWAT skill=d6 resolution=d12 armour=9");
    let request = AttackRequest {
        attacker: "Gunner".into(),
        weapon: gunner.stats.weapons[0].clone(),
        skill: gunner.stats.skill,
        power: None,
        band: Band::Long,
        hell: false,
        moved: false,
        heavy: None,
        targets: vec![TargetStats {
            cover: true,
            ..TargetStats::new("Target", 9, Some(Die::D12))
        }],
        friendly_touched: false,
        carry_over: false,
    };
    let mut roller = SeededRoller::from_seed(2026);
    let mut group = c.benchmark_group("terminator");
    group.bench_function("minigun_attack_to_resolution", |b| {
        b.iter(|| {
            let run = resolve_attack(black_box(&request), &mut roller).expect("valid attack");
            run.targets[0].done
        })
    });
    let chars: BTreeMap<String, Character> =
        [("Gunner".to_string(), gunner), ("Target".to_string(), target)].into();
    let state = TerminatorState::default();
    let mut order = AttackOrder::new("Gunner", "Minigun", "Target", Band::Long);
    order.cover = true;
    let options = TerminatorOptions::default();
    group.bench_function("minigun_attack_with_state", |b| {
        b.iter_batched(
            || (state.clone(), chars.clone()),
            |(mut st, mut ch)| {
                st.attack(black_box(&order), &mut ch, &options, &mut roller)
                    .expect("valid attack")
                    .applied
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, resolutions);
criterion_main!(benches);

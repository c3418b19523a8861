//! d20 mecha resolutions from a seeded roller: one attack with its damage (and the secondary
//! d20 on a critical), the same attack held in a squad phase, and an application phase of 20
//! held entries, all criticals; and a turn command's write-back into a roster of eight units
//! after a step that changed one, every unit written against only the changed one.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use saikoro::dice::SeededRoller;
use saikoro::session::RosterEntry;
use saikoro::systems::mecha_d20::attack::{EvasionSkill, UnitAttack, strike};
use saikoro::systems::mecha_d20::secondary::{SecondaryRoll, SecondaryRow};
use saikoro::systems::mecha_d20::sheet;
use saikoro::systems::mecha_d20::state::{
    Held, MechaState, Phase, units_of, write_changed_units, write_units,
};
use saikoro::systems::mecha_d20::unit::{Facing, Unit};
use saikoro::systems::sheet::parse_fields;

fn unit(fields: &str) -> Unit {
    let f = parse_fields(fields).expect("fields");
    Unit::read(&sheet::edit(&serde_json::json!({}), &f).expect("sheet"), "bench").expect("unit")
}

fn roster() -> BTreeMap<String, Unit> {
    let mut units = BTreeMap::new();
    units.insert(
        "Alpha".to_string(),
        unit(
            r#"squad=Blue concentration=3 shooting=2 reaction=2 evade=1 ap=4 durability=400 armour=5 accuracy=1
               fire_control=1 w1="Beam Rifle 2d6+5 r3 right_arm" w2="Vulcan 2d6 r1 head fixed""#,
        ),
    );
    units.insert(
        "Rouge".to_string(),
        unit(
            r#"squad=Red reaction=2 evade=2 ap=4 durability=400 armour=4 cockpit=all_round
               w1="Heat Hawk 1d6+8 melee left_arm" w2="Machine Gun 2d6 r2 right_arm" w3="Missiles 3d6 r4 leg fixed""#,
        ),
    );
    units
}

fn rifle() -> UnitAttack {
    UnitAttack {
        attacker: "Alpha".into(),
        weapon: "Beam Rifle".into(),
        skill: None,
        attack_modifier: 0,
        target: "Rouge".into(),
        evasion_skill: EvasionSkill::Evade,
        evasion_modifier: 0,
        facing: Facing::Side,
        distance: 3,
        in_arc: true,
        multiplier: None,
    }
}

fn resolutions(c: &mut Criterion) {
    let mut group = c.benchmark_group("mecha_d20");
    let units = roster();
    let spec = rifle();

    let mut roller = SeededRoller::from_seed(2026);
    group.bench_function("attack_and_damage", |b| {
        b.iter(|| {
            strike(black_box(&spec), &units["Alpha"], &units["Rouge"], 1, &mut roller).expect("valid attack")
        })
    });

    let in_phase = MechaState {
        turn: 1,
        phase: Phase::Squad { index: 0 },
        squad_order: vec!["Blue".into(), "Red".into()],
        ..MechaState::default()
    };
    let mut roller = SeededRoller::from_seed(2026);
    group.bench_function("attack_damage_held", |b| {
        b.iter_batched(
            || in_phase.clone(),
            |mut st| {
                st.attack(black_box(&spec), &units, &mut roller)
                    .expect("valid attack")
            },
            BatchSize::SmallInput,
        )
    });

    // 20 criticals on Rouge, cycling through the table.
    let held: Vec<Held> = (0..20u32)
        .map(|i| Held {
            id: i + 1,
            turn: 1,
            attacker: "Alpha".into(),
            weapon: "Beam Rifle".into(),
            target: "Rouge".into(),
            damage: 5,
            critical: true,
            secondary: Some(SecondaryRoll {
                die: i + 1,
                row: SecondaryRow::from_number(i + 1).expect("row"),
            }),
        })
        .collect();
    let applying = MechaState {
        phase: Phase::Application,
        held,
        next_held: 20,
        ..in_phase
    };
    let mut roller = SeededRoller::from_seed(2026);
    group.bench_function("apply_20_held", |b| {
        b.iter_batched(
            || (applying.clone(), units.clone()),
            |(mut st, mut u)| st.apply(&mut u, &mut roller).expect("valid application"),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// What every turn command does after its step (issue 32): the units back into the roster.
fn write_back(c: &mut Criterion) {
    let mut group = c.benchmark_group("mecha_d20");
    let template = roster();
    let roster: Vec<RosterEntry> = (0..8)
        .map(|i| {
            let u = &template[if i % 2 == 0 { "Alpha" } else { "Rouge" }];
            RosterEntry::new(format!("Unit {i}"), i).with_sheet(u.to_value())
        })
        .collect();
    let before = units_of(&roster).expect("units");
    let mut after = before.clone();
    after.get_mut("Unit 3").expect("unit").suit.durability -= 10;
    group.bench_function("write_back_all_8", |b| {
        b.iter_batched(
            || roster.clone(),
            |mut r| {
                let written = write_units(&mut r, &after);
                black_box((r, written))
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("write_back_changed_1_of_8", |b| {
        b.iter_batched(
            || roster.clone(),
            |mut r| {
                let written = write_changed_units(&mut r, &before, &after);
                black_box((r, written))
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, resolutions, write_back);
criterion_main!(benches);

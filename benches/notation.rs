//! Parse + roll of the commands issue 3 asks figures for, with a seeded roller.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use saikoro::dice::SeededRoller;
use saikoro::notation::evaluate;

const COMMANDS: [&str; 5] = ["4d6k3", "10d10e10t8", "3R6>=5", "6 4d6", "100d6"];

fn parse_and_roll(c: &mut Criterion) {
    let mut group = c.benchmark_group("notation");
    for command in COMMANDS {
        let mut roller = SeededRoller::from_seed(2026);
        group.bench_function(command, |b| {
            b.iter(|| evaluate(black_box(command), &mut roller).expect("valid command"))
        });
    }
    group.finish();
}

criterion_group!(benches, parse_and_roll);
criterion_main!(benches);

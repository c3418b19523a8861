//! `/odds` (issue 16): exact distributions for typical rolls (≤ 1 ms each) and for the largest
//! inputs within the limits (≤ 20 ms each): 1000d1000, the longest explosion chains a command may
//! roll, and keep/drop at the edge of its work budget. Measured on the 2-core development machine
//! (`-- --warm-up-time 1 --measurement-time 3`): typical 1–9 µs; 1000d1000 10.9 ms, 90d1000ie
//! 9.4 ms, 500d1000+500d1000 19.1 ms, 45d45k22 8.8 ms; SR4 and Rally at most 0.3 ms.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use saikoro::odds::{RallyRequest, Sr4Request, badlands_rally_odds, roll_odds, shadowrun4_odds};

const TYPICAL: [&str; 6] = [
    "2D6>=7",
    "4d6k3",
    "d20 adv",
    "3d6r1e6+2d4",
    "10d10ie10t8f1",
    "8d6k3+4",
];
const WORST: [&str; 5] = [
    "1000d1000",
    "90d1000ie",
    "90d6ie2",
    "45d45k22",
    "500d1000+500d1000",
];

fn notation(c: &mut Criterion) {
    let mut group = c.benchmark_group("odds/roll");
    for input in TYPICAL.iter().chain(&WORST) {
        group.bench_function(*input, |b| {
            b.iter(|| roll_odds(black_box(input)).expect("within limits"))
        });
    }
    group.finish();
}

fn systems(c: &mut Criterion) {
    let mut group = c.benchmark_group("odds/systems");
    let sr = Sr4Request {
        pool: 12,
        threshold: Some(3),
        edge: Some(4),
        opposed: None,
    };
    group.bench_function("sr4 pool 12 threshold 3 edge 4", |b| {
        b.iter(|| shadowrun4_odds(black_box(&sr)).expect("valid"))
    });
    let sr_max = Sr4Request {
        pool: 80,
        threshold: None,
        edge: Some(20),
        opposed: Some(100),
    };
    group.bench_function("sr4 pool 80 edge 20 opposed 100", |b| {
        b.iter(|| shadowrun4_odds(black_box(&sr_max)).expect("valid"))
    });
    let rally = RallyRequest {
        rating: 4,
        dice: 3,
        versus: Some((5, 2)),
        weapon: Some((7, 6)),
    };
    group.bench_function("rally 3D6 4+ vs 2D6 5+ POW 7 AR 6", |b| {
        b.iter(|| badlands_rally_odds(black_box(&rally)).expect("valid"))
    });
    let rally_max = RallyRequest {
        rating: 2,
        dice: 60,
        versus: Some((6, 60)),
        weapon: Some((30, 0)),
    };
    group.bench_function("rally 60D6 vs 60D6 POW 30", |b| {
        b.iter(|| badlands_rally_odds(black_box(&rally_max)).expect("valid"))
    });
    group.finish();
}

criterion_group!(benches, notation, systems);
criterion_main!(benches);

//! `/odds` (issue 16): exact distributions for typical rolls (≤ 1 ms each) and for the largest
//! inputs within the limits (≤ 20 ms each): 1000d1000 and sums of such groups, the longest
//! explosion chains a command may roll, keep/drop at the edge of its work budget (over exploding
//! dice, over mixed stages and after advantage too), products of groups, BCDice chains, and each
//! system's odds. Measured 2026-11-26 on the 2-core development machine, shared with other work
//! (`-- --warm-up-time 1 --measurement-time 2`): typical 0.8–4 µs (`4d6! k3` 28 µs, keep over
//! mixed stages or advantage `4d6r1e6k3`, `2d20 adv r1 k1`, `5d6 dis e k3` 55–72 µs); 1000d1000
//! 1.08 ms (8.2 ms before the one-pass sums, reused FFT buffers and the blocked tail bound),
//! 500d1000+500d1000 1.22 ms (14.1 ms), 500d1000-500d999+7 1.66 ms, 90d1000ie 0.51 ms (5.7 ms),
//! 45d45k22 1.7 ms (5.0 ms), 200d6k100 1.0 ms, 50d6e k25 1.7 ms (3.6 ms), 30d20e k15 2.2 ms
//! (5.2 ms), 1d1000*1d1000 4.6 ms; keep over mixed stages, the largest computed: 6d10r1e k5 3.5 ms,
//! 4d20 adv r1 k2 2.5 ms, 6d10ie10i1 k3 1.9 ms, 8d6r1e km3 6.7 ms; 90U1000[2] 0.57 ms; SR4
//! ≤ 0.19 ms, Rally ≤ 0.13 ms, Warmachine 0.8 µs (11 dice on both rolls 0.11 ms), mecha 1.5 µs
//! (20d100 ×10 74 µs). The figures in brackets were measured the same morning, before these
//! changes, at a lighter load than the 28 ms once seen for 500d1000+500d1000.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use saikoro::odds::roll_odds;
use saikoro::systems::badlands_rally::odds::{RallyRequest, badlands_rally_odds};
use saikoro::systems::mecha_d20::damage::{DamageRequest, Multiplier, parse_power};
use saikoro::systems::mecha_d20::odds::{MechaRequest, mecha_d20_odds};
use saikoro::systems::shadowrun4::odds::{Sr4Request, shadowrun4_odds};
use saikoro::systems::warmachine::dice::{Discard, DiscardWhich};
use saikoro::systems::warmachine::odds::{WarmachineRequest, WmAttack, WmDamage, WmDice, warmachine_odds};

const TYPICAL: [&str; 12] = [
    "2D6>=7",
    "4d6k3",
    "d20 adv",
    "3d6r1e6+2d4",
    "10d10ie10t8f1",
    "8d6k3+4",
    "4d6! k3",
    "6R6[5]>=5",
    "2D66",
    "4d6r1e6k3",
    "2d20 adv r1 k1",
    "5d6 dis e k3",
];
const WORST: [&str; 18] = [
    "1000d1000",
    "90d1000ie",
    "90d6ie2",
    "45d45k22",
    "200d6k100",
    "1000d1000k1",
    "500d1000+500d1000",
    "500d1000-500d999+7",
    "1d1000*1d1000",
    "50d6e k25",
    "30d20e k15",
    "6d10r1e k5",
    "4d20 adv r1 k2",
    "6d10ie10i1 k3",
    "8d6r1e km3",
    "90U1000[2]+5>=3000",
    "90R1000[>=2]>=500",
    "1000TY20",
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
    let plain = WmDice::default();
    let wm = WarmachineRequest {
        attack: Some(WmAttack {
            stat: 6,
            modifier: 0,
            def: 12,
            dice: plain,
            auto_hit_miss: true,
        }),
        damage: Some(WmDamage {
            pow: 10,
            modifier: 0,
            arm: 14,
            dice: plain,
        }),
        boxes: Some(3),
    };
    group.bench_function("wm RAT 6 vs DEF 12, POW 10 vs ARM 14", |b| {
        b.iter(|| warmachine_odds(black_box(&wm)).expect("valid"))
    });
    // The largest pools: boosted, 8 additional dice, one discarded, on both rolls.
    let most = WmDice {
        boost: true,
        additional: 8,
        discard: Some(Discard {
            which: DiscardWhich::Lowest,
            count: 1,
        }),
    };
    let wm_max = WarmachineRequest {
        attack: wm.attack.map(|a| WmAttack { dice: most, ..a }),
        damage: wm.damage.map(|d| WmDamage { dice: most, ..d }),
        boxes: Some(3),
    };
    group.bench_function("wm 11 dice on both rolls", |b| {
        b.iter(|| warmachine_odds(black_box(&wm_max)).expect("valid"))
    });
    let mecha = MechaRequest {
        attack: 5,
        evasion: 3,
        damage: Some(DamageRequest {
            power: parse_power("2d6+3").expect("valid"),
            armour: 4,
            multiplier: None,
        }),
        ..MechaRequest::default()
    };
    group.bench_function("mecha 2d6+3 vs armour 4", |b| {
        b.iter(|| mecha_d20_odds(black_box(&mecha)).expect("valid"))
    });
    let mecha_max = MechaRequest {
        damage: Some(DamageRequest {
            power: parse_power("20d100+999").expect("valid"),
            armour: 4,
            multiplier: Some(Multiplier::parse("x10").expect("valid")),
        }),
        ..mecha.clone()
    };
    group.bench_function("mecha 20d100 x10", |b| {
        b.iter(|| mecha_d20_odds(black_box(&mecha_max)).expect("valid"))
    });
    group.finish();
}

criterion_group!(benches, notation, systems);
criterion_main!(benches);

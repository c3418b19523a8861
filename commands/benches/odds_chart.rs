//! The `/odds` chart alone: drawing the bars and text and encoding the PNG, for the 2d6 page
//! (11 bars) and a page of the most bars the chart draws. The load tool measures `/odds`
//! through the whole bot; this separates the chart's share.

use criterion::{Criterion, criterion_group, criterion_main};
use saikoro_bot::embeds::odds::{Bin, chart};

fn two_d6() -> Vec<Bin> {
    (2..=12)
        .map(|v: i64| Bin {
            lo: v,
            hi: v,
            p: (6 - (7 - v).abs()) as f64 / 36.0,
        })
        .collect()
}

fn twenty_bars() -> Vec<Bin> {
    (0..20)
        .map(|i: i64| Bin {
            lo: 100 + i * 50,
            hi: 149 + i * 50,
            p: 1.0 / (1.0 + ((i - 10) as f64).powi(2)),
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("odds_chart");
    let labels = |t: &str| chart::Labels {
        title: chart::title(t),
        mean: Some(7.0),
    };
    let d = two_d6();
    let en = labels("🎲 Odds: 2D6>=7");
    group.bench_function("2d6_en", |b| b.iter(|| chart::draw_with(&d, &|v| v >= 7, &en)));
    let ja = labels("🎲 確率: 2D6>=7");
    group.bench_function("2d6_ja", |b| b.iter(|| chart::draw_with(&d, &|v| v >= 7, &ja)));
    let many = twenty_bars();
    group.bench_function("20_bars", |b| {
        b.iter(|| chart::draw_with(&many, &|v| v >= 600, &en))
    });
    group.finish();
}

criterion_group!(odds_chart, benches);
criterion_main!(odds_chart);

//! One interaction through the whole bot in this process: the fake Discord's gateway dispatch,
//! poise, the command, the store (SQLite, behind its read cache) and the REST reply, as the
//! console types it. The load tool (`saikoro loadtest --floor`) measures the same path under
//! concurrency, with the bot's CPU apart and the stack's floor beside it.

use criterion::{Criterion, criterion_group, criterion_main};
use saikoro_bot::console::{Console, ConsoleOptions};

const SETUP: [&str; 2] = [
    "/session start name:Run system:shadowrun4",
    "/char add name:Ana stats:body=4 agility=5 reaction=4 edge=3 pistols=5",
];

fn benches(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut console = rt
        .block_on(Console::start(ConsoleOptions {
            seed: Some(7),
            user: "gm".into(),
            admin: true,
            ..ConsoleOptions::default()
        }))
        .expect("console");
    for line in SETUP {
        rt.block_on(console.type_line(line)).expect(line);
    }
    let mut group = c.benchmark_group("interaction");
    for (name, line) in [
        ("roll_2d6", "/roll dice:2d6"),
        ("roll_4d6k3", "/roll dice:4d6 k3"),
        (
            "sr_test_character",
            "/sr test character:Ana attribute:agility skill:pistols threshold:2",
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| rt.block_on(console.type_line(line)).expect(line))
        });
    }
    group.finish();
    rt.block_on(console.shutdown());
}

criterion_group!(interaction, benches);
criterion_main!(interaction);

//! What every state command pays around its rule (issue 32): the store hands the edit a copy of
//! the session, compares the result with it, validates it and drops the old one. A Warmachine
//! table of eight models with a 15 KB game state (the load tool's grown roll-off history), one
//! model's sheet changed; and a model read from its sheet once per version (`Doc::read`)
//! against parsed every time.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use saikoro::session::{Actor, RosterEntry, Session, SystemId};
use saikoro::systems::warmachine::Model;
use saikoro::systems::warmachine::sheet;
use serde_json::{Value, json};

fn table() -> Session {
    let gm = 1;
    let mut s = Session::start(10, 20, "Skirmish", SystemId::Warmachine, gm, 0).unwrap();
    for i in 0..8u32 {
        let model = Model::new(&format!("Model {i}"), "Ana", 12, 16, 28);
        let entry =
            RosterEntry::new(format!("Model {i}"), gm).with_sheet(serde_json::to_value(&model).unwrap());
        s.add_entry(Actor::manager(gm), entry).unwrap();
    }
    // A grown history: 90 roll-offs with their rulings, about 15 KB.
    let roll_offs: Vec<Value> = (0..90)
        .map(|i| {
            json!({"question": format!("LOS through the wreck {i}?"),
                   "ruling": "Wrecks block line of sight for every model behind them",
                   "dice": [[3, 5], [6, 2], [4, 4]], "winner": "Ana", "at_ms": 1_700_000_000_000i64 + i})
        })
        .collect();
    *s.system_state = json!({"warmachine": {"round": 3, "roll_offs": roll_offs}});
    let size = serde_json::to_string(&s.system_state).unwrap().len();
    assert!(size > 14_000, "{size}");
    s
}

fn edit(c: &mut Criterion) {
    let before = table();
    let mut group = c.benchmark_group("session");
    group.bench_function("edit_one_sheet_of_eight_copy_compare_validate_drop", |b| {
        b.iter(|| {
            let mut after = black_box(&before).clone();
            after.roster[3].sheet["damage"] = json!(5);
            let changed = after != before;
            after.validate().unwrap();
            (changed, after.version)
        })
    });
    let doc = before.roster[3].sheet.clone();
    group.bench_function("model_read_kept", |b| {
        b.iter(|| sheet::read(black_box(&doc)).unwrap())
    });
    group.bench_function("model_read_parsed", |b| {
        b.iter(|| sheet::read_value(black_box(doc.value())).unwrap())
    });
    group.finish();
}

criterion_group!(benches, edit);
criterion_main!(benches);

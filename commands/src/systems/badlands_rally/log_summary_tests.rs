//! Badlands Rally damage rolls' and actions' luck, rolled by the engine with fixed dice and read
//! through the odds engine against a chance counted by hand.

use engine::dice::FixedRoller;
use engine::odds::{Chance, chance_at_least_as_good};
use engine::systems::badlands_rally::damage::{DamageRequest, resolve_damage};
use engine::systems::badlands_rally::gear::Speed;
use engine::systems::badlands_rally::race::{Action, RaceEvent, RaceOptions, RaceState};
use engine::systems::badlands_rally::state::GearEvent;
use engine::systems::badlands_rally::{Gear, sheet};
use engine::systems::sheet::parse_fields;

use crate::log_line::LogSummary;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn chance(o: &impl LogSummary) -> Chance {
    chance_at_least_as_good(&o.luck().expect("a luck input")).unwrap()
}

fn damage(mos: u32, heat: bool) -> DamageRequest {
    DamageRequest {
        mos,
        pow: 7,
        ar: 6,
        melee: false,
        heat,
    }
}

#[test]
fn damage_dice_hit_on_four_and_heat_doubles_the_six() {
    // MOS 1 + (7 − 6) = 2 dice: 4 and 1, one hit. P(≥ 1 of 2 at 1/2) = 3/4.
    let o = resolve_damage(&damage(1, false), &mut FixedRoller::new([4, 1])).unwrap();
    assert_eq!(o.damage, 1);
    assert!(close(chance(&o).at_least, 0.75));
    // Heat: 6 and 4 → 2 + 1 = 3. Each die 0 (1/2), 1 (1/3) or 2 (1/6); 3 or more: 6 with 4–5
    // either way round, 2·(1/6)(1/3), or two 6s, 1/36: 5/36.
    let o = resolve_damage(&damage(1, true), &mut FixedRoller::new([6, 4])).unwrap();
    assert_eq!(o.damage, 3);
    assert!(close(chance(&o).at_least, 5.0 / 36.0));
    // MOS 0 with POW under AR: no die, no luck.
    let o = resolve_damage(
        &DamageRequest {
            pow: 5,
            ..damage(0, false)
        },
        &mut FixedRoller::new([]),
    )
    .unwrap();
    assert!(o.dice.is_empty() && o.luck().is_none());
}

/// A race with one cruising gear `G` (defence 3+).
fn race() -> RaceState {
    let fields = parse_fields(
        r#"model=jerboa attack=4+ defence=3+ initiative=4+ mr=16 hits=2/1 ar=5 weapon1="Rifle 6 3-6/12""#,
    )
    .unwrap();
    let value = sheet::edit(&serde_json::json!({}), &fields).unwrap();
    let gear: Gear = serde_json::from_value(value).unwrap();
    RaceState::new(2, RaceOptions::default())
        .unwrap()
        .apply(&RaceEvent::AddGear {
            id: "G".into(),
            sheet: gear.sheet,
        })
        .unwrap()
        .apply(&RaceEvent::Gear {
            id: "G".into(),
            event: GearEvent::Activate {
                speed: Speed::Cruising,
            },
        })
        .unwrap()
}

#[test]
fn an_action_reads_its_own_roll() {
    // Recovery: the 1D6 shows 4: 4–6, 3/6.
    let (_, rep) = race()
        .act("G", &Action::Recover, &mut FixedRoller::new([4]))
        .unwrap();
    assert!(close(chance(&rep).at_least, 0.5));
    // Moving is no roll.
    let (_, rep) = race()
        .act("G", &Action::RallyTheCrowd, &mut FixedRoller::new([]))
        .unwrap();
    assert!(rep.luck().is_none());
}

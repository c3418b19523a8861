//! Helpers shared by the engine's integration tests (each `tests/*.rs` file that needs them
//! declares `mod common;`).

#![allow(dead_code)]

use saikoro::systems::badlands_rally::datacards::with_model;
use saikoro::systems::badlands_rally::gear::{GearSheet, Range, Weapon, WeaponKind};
use saikoro::systems::badlands_rally::roll::Rating;

/// A plain gear of datacard `model`: 4+ ratings, MR 12, Hull 2 / Structure 1, AR 5 and a POW 6
/// rifle (ranges 3/6/12), plus the model's traits.
pub fn rally_gear(name: &str, model: &str) -> GearSheet {
    let s = GearSheet {
        name: name.to_string(),
        model: None,
        attack: Rating::new(4).unwrap(),
        defence: Rating::new(4).unwrap(),
        initiative: Rating::new(4).unwrap(),
        mr: 12,
        hull: 2,
        structure: 1,
        ar: 5,
        weapons: vec![Weapon {
            name: "Rifle".into(),
            kind: WeaponKind::Rifle,
            pow: 6,
            range: Range::new(3, 6, 12).unwrap(),
            traits: vec![],
            attack: None,
        }],
        traits: vec![],
        upgrades: vec![],
    };
    with_model(s, model).unwrap()
}

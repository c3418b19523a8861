//! The house options of the rules file's §5 (keys `term.*`, default first) and what a server's
//! settings choose. Apart from `rules.rs` so the session state can take them without importing
//! the registry entry that reads the state.

use std::collections::BTreeMap;

use super::dice::{Die, FateDie};
use crate::systems::rules::{HouseOption, OFF_ON, house_value};

/// §5: `fate_faces` (item 4), `tactical_die` (item 6, TG-3), `ibb_carry_over` (TG-5).
pub const OPTIONS: &[HouseOption] = &[
    HouseOption {
        key: "term.fate_faces",
        values: &[
            "1,1,2,2,FATE,FATE",
            "1,1,1,2,2,FATE",
            "1,1,2,2,2,FATE",
            "1,1,1,2,FATE,FATE",
            "1,2,2,2,FATE,FATE",
            "1,1,2,FATE,FATE,FATE",
        ],
        value_text: &[],
        en: "The Fate die's six faces",
        ja: "フェイトダイスの6面",
    },
    HouseOption {
        key: "term.tactical_die",
        values: &["D8", "D4", "D6", "D10", "D12", "D20"],
        value_text: &[],
        en: "The tactical roll-off die (ties reroll)",
        ja: "タクティカルロールオフのダイス（同値は振り直し）",
    },
    HouseOption {
        key: "term.ibb_carry_over",
        values: &["off", "on"],
        value_text: OFF_ON,
        en: "I'll Be Back: the attack's further damaging dice apply to the new Crawler",
        ja: "アイル ビー バック：攻撃の残りのダメージダイスを新しいクローラーにも適用する",
    },
];

/// The options a server's house settings choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerminatorOptions {
    pub fate: FateDie,
    pub tactical_die: Die,
    pub carry_over: bool,
}

impl Default for TerminatorOptions {
    fn default() -> Self {
        TerminatorOptions {
            fate: FateDie::default(),
            tactical_die: Die::D8,
            carry_over: false,
        }
    }
}

pub fn options(house: &BTreeMap<String, String>) -> TerminatorOptions {
    let v = |k| house_value(OPTIONS, house, k);
    let d = TerminatorOptions::default();
    TerminatorOptions {
        fate: v("term.fate_faces")
            .and_then(|f| FateDie::parse(f).ok())
            .unwrap_or(d.fate),
        tactical_die: v("term.tactical_die")
            .and_then(|t| Die::parse(t).ok())
            .unwrap_or(d.tactical_die),
        carry_over: v("term.ibb_carry_over") == Some("on"),
    }
}

//! Named effects on a model (items 12–18, WG-1, WG-2, WG-3, WG-10): instances with their own
//! expiry, the same name never stacking, different names stacking, and the cannot-flags.
//!
//! Why instances are stored separately: the seed (L4) ends an effect only when *every* instance
//! has expired, so each instance keeps its own expiry and the effect is present while any is.

pub use super::flags::{CannotFlag, FlagSource};

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, check_range};
use crate::i18n::Lang;

/// A stat an effect can change. POW is the attacking model's weapon POW.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    Mat,
    Rat,
    Def,
    Arm,
    Cmd,
    Spd,
    Pow,
}

impl Stat {
    pub const ALL: [Stat; 7] = [
        Stat::Mat,
        Stat::Rat,
        Stat::Def,
        Stat::Arm,
        Stat::Cmd,
        Stat::Spd,
        Stat::Pow,
    ];

    /// The abbreviation players use in both languages (the Japanese rulebook keeps them too).
    pub fn abbr(self) -> &'static str {
        match self {
            Stat::Mat => "MAT",
            Stat::Rat => "RAT",
            Stat::Def => "DEF",
            Stat::Arm => "ARM",
            Stat::Cmd => "CMD",
            Stat::Spd => "SPD",
            Stat::Pow => "POW",
        }
    }

    /// `arm`, `ARM`, `装甲` … → the stat.
    pub fn parse(s: &str) -> Option<Stat> {
        let k = s.trim().to_lowercase();
        Some(match k.as_str() {
            "mat" | "近接" | "近接攻撃" => Stat::Mat,
            "rat" | "射撃" | "射撃攻撃" => Stat::Rat,
            "def" | "防御" | "防御値" => Stat::Def,
            "arm" | "装甲" => Stat::Arm,
            "cmd" | "指揮" => Stat::Cmd,
            "spd" | "速度" => Stat::Spd,
            "pow" | "威力" => Stat::Pow,
            _ => return None,
        })
    }
}

/// Largest change one effect may make to one stat.
pub const MAX_STAT_CHANGE: i64 = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct StatChange {
    pub stat: Stat,
    pub delta: i32,
}

/// WG-1: when an instance ends.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum Expiry {
    /// At the end of this model's activation.
    EndOfActivation { model: String },
    /// At the end of this player's turn (the player whose turn it was when it was added).
    EndOfTurn { player: String },
    /// At the start of this player's next turn (the usual "one round").
    StartOfTurn { player: String },
    /// Upkeep and continuous effects: removed by hand.
    Manual,
}

/// What an effect does, before it is put on a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectSpec {
    pub name: String,
    #[serde(default)]
    pub changes: Vec<StatChange>,
    #[serde(default)]
    pub cannot: Vec<CannotFlag>,
}

impl EffectSpec {
    /// Checked: a name, changes within ±[`MAX_STAT_CHANGE`], one change per stat, and at least
    /// one change or flag.
    pub fn validate(&self) -> Result<(), RuleError> {
        super::error::text("effect name", &self.name, 60)?;
        if self.changes.is_empty() && self.cannot.is_empty() {
            return Err(RuleError::EmptyEffect);
        }
        for c in &self.changes {
            check_range(
                Quantity::StatChange,
                i64::from(c.delta),
                -MAX_STAT_CHANGE,
                MAX_STAT_CHANGE,
            )?;
        }
        Ok(())
    }
}

/// WG-1: one instance of a named effect on a model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectInstance {
    /// Unique on its model.
    pub id: u32,
    pub name: String,
    #[serde(default)]
    pub changes: Vec<StatChange>,
    #[serde(default)]
    pub cannot: Vec<CannotFlag>,
    /// The model whose rule caused it.
    #[serde(default)]
    pub source: Option<String>,
    /// The player who controls that rule.
    #[serde(default)]
    pub owner: Option<String>,
    pub expiry: Expiry,
}

impl EffectInstance {
    /// WG-2's measure: the sum of the absolute changes.
    pub fn magnitude(&self) -> i64 {
        self.changes.iter().map(|c| i64::from(c.delta).abs()).sum()
    }

    pub fn change(&self, stat: Stat) -> i32 {
        self.changes
            .iter()
            .filter(|c| c.stat == stat)
            .map(|c| c.delta)
            .sum()
    }
}

/// Names compare without case, spaces, hyphens or middle dots: `Dark Shroud` = `dark-shroud`.
/// Presets also map their Japanese names to the English one when added.
pub fn same_name(a: &str, b: &str) -> bool {
    norm(a) == norm(b)
}

fn norm(s: &str) -> String {
    s.to_lowercase()
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '・' | '　' | '《' | '》'))
        .collect()
}

/// WG-10: the seed's two named effects.
pub struct Preset {
    pub key: &'static str,
    pub en: &'static str,
    pub ja: &'static str,
    pub changes: &'static [StatChange],
}

pub const PRESETS: &[Preset] = &[
    // A model within 2" of an enemy with Dark Shroud: players add it while that holds.
    Preset {
        key: "dark_shroud",
        en: "Dark Shroud",
        ja: "ダーク・シュラウド",
        changes: &[StatChange {
            stat: Stat::Arm,
            delta: -2,
        }],
    },
    Preset {
        key: "kiss_of_lyliss",
        en: "Kiss of Lyliss",
        ja: "キスオブ・リリス",
        changes: &[StatChange {
            stat: Stat::Arm,
            delta: -2,
        }],
    },
];

/// A preset by key or either name (`dark_shroud`, `Dark Shroud`, `《キスオブ・リリス》`).
pub fn preset(key: &str) -> Result<EffectSpec, RuleError> {
    PRESETS
        .iter()
        .find(|p| same_name(p.key, key) || same_name(p.en, key) || same_name(p.ja, key))
        .map(|p| EffectSpec {
            name: p.en.to_string(),
            changes: p.changes.to_vec(),
            cannot: Vec::new(),
        })
        .ok_or_else(|| RuleError::UnknownPreset {
            key: key.trim().chars().take(40).collect(),
        })
}

/// A name typed by a player: a preset's English name when it names a preset, else as typed.
pub fn canonical_name(name: &str) -> String {
    preset(name).map_or_else(|_| name.trim().to_string(), |p| p.name)
}

/// An effect's stored name as a reader of `lang` reads it: a preset (stored by its English
/// name) by the seed's Japanese name for a Japanese reader (`Dark Shroud` → ダーク・シュラウド);
/// any other name as it was typed.
pub fn shown_name(name: &str, lang: Lang) -> &str {
    match lang {
        Lang::Ja => PRESETS.iter().find(|p| p.en == name).map_or(name, |p| p.ja),
        Lang::En => name,
    }
}

/// One effect's instance that applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppliedChange {
    pub effect: String,
    pub instance: u32,
    pub delta: i32,
}

/// Why an instance does not change the stat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum NotStackReason {
    /// Item 13 / WG-2: another instance of the same name applies (the strongest).
    SameName { applied_instance: u32 },
}

impl NotStackReason {
    pub fn describe(&self, lang: Lang) -> String {
        match (self, lang) {
            (NotStackReason::SameName { applied_instance }, Lang::En) => format!(
                "does not stack: same name as instance #{applied_instance}, which applies (the strongest)"
            ),
            (NotStackReason::SameName { applied_instance }, Lang::Ja) => {
                format!(
                    "累積しません：同じ名前のインスタンス#{applied_instance}（最も強いもの）が適用されます"
                )
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotStacked {
    pub effect: String,
    pub instance: u32,
    pub delta: i32,
    pub reason: NotStackReason,
}

/// A stat after effects (item 18): its base, the changes that applied, the instances that did
/// not stack, and the value (never below 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatReading {
    pub stat: Stat,
    pub base: i64,
    pub applied: Vec<AppliedChange>,
    pub not_stacked: Vec<NotStacked>,
    pub value: i64,
}

/// Per name, the applying instance and the others (WG-2): the largest magnitude applies; ties
/// go to the canonical order of the changes, then the lowest id, so the choice never depends
/// on the order instances were added.
pub fn by_name(effects: &[EffectInstance]) -> Vec<(&EffectInstance, Vec<&EffectInstance>)> {
    let mut groups: Vec<Vec<&EffectInstance>> = Vec::new();
    for e in effects {
        match groups.iter_mut().find(|g| same_name(&g[0].name, &e.name)) {
            Some(g) => g.push(e),
            None => groups.push(vec![e]),
        }
    }
    groups
        .into_iter()
        .map(|mut g| {
            g.sort_by(|a, b| {
                b.magnitude()
                    .cmp(&a.magnitude())
                    .then_with(|| sorted(a).cmp(&sorted(b)))
                    .then(a.id.cmp(&b.id))
            });
            let first = g.remove(0);
            (first, g)
        })
        .collect()
}

fn sorted(e: &EffectInstance) -> Vec<StatChange> {
    let mut c = e.changes.clone();
    c.sort();
    c
}

/// `stat` with `base` after `effects`.
pub fn read_stat(stat: Stat, base: i64, effects: &[EffectInstance]) -> StatReading {
    let mut applied = Vec::new();
    let mut not_stacked = Vec::new();
    for (win, rest) in by_name(effects) {
        let delta = win.change(stat);
        if delta != 0 {
            applied.push(AppliedChange {
                effect: win.name.clone(),
                instance: win.id,
                delta,
            });
        }
        for other in rest {
            let d = other.change(stat);
            if d != 0 {
                not_stacked.push(NotStacked {
                    effect: other.name.clone(),
                    instance: other.id,
                    delta: d,
                    reason: NotStackReason::SameName {
                        applied_instance: win.id,
                    },
                });
            }
        }
    }
    let sum: i64 = applied.iter().map(|a| i64::from(a.delta)).sum();
    StatReading {
        stat,
        base,
        value: (base + sum).max(0),
        applied,
        not_stacked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn inst(id: u32, name: &str, stat: Stat, delta: i32) -> EffectInstance {
        EffectInstance {
            id,
            name: name.into(),
            changes: vec![StatChange { stat, delta }],
            cannot: vec![],
            source: None,
            owner: None,
            expiry: Expiry::Manual,
        }
    }

    #[test]
    fn different_names_stack_on_the_same_stat() {
        // Item 15, the seed's example: Dark Shroud ARM −2 and Kiss of Lyliss ARM −2 → ARM −4.
        let e = [
            inst(1, "Dark Shroud", Stat::Arm, -2),
            inst(2, "Kiss of Lyliss", Stat::Arm, -2),
        ];
        let r = read_stat(Stat::Arm, 18, &e);
        assert_eq!(r.value, 14);
        assert_eq!(r.applied.len(), 2);
        assert!(r.not_stacked.is_empty());
    }

    #[test]
    fn the_same_name_applies_once_and_lists_the_rest() {
        // Item 13: two Dark Shrouds → ARM −2, and the second "does not stack".
        let e = [
            inst(1, "Dark Shroud", Stat::Arm, -2),
            inst(2, "dark shroud", Stat::Arm, -2),
        ];
        let r = read_stat(Stat::Arm, 18, &e);
        assert_eq!(r.value, 16);
        assert_eq!(
            r.not_stacked,
            vec![NotStacked {
                effect: "dark shroud".into(),
                instance: 2,
                delta: -2,
                reason: NotStackReason::SameName { applied_instance: 1 }
            }]
        );
        assert!(r.not_stacked[0].reason.describe(Lang::Ja).contains("累積"));
    }

    #[test]
    fn the_strongest_instance_applies_whatever_the_order_added() {
        // WG-2: −1 and −3 of the same name → −3, either way round.
        let a = [inst(1, "Hex", Stat::Def, -1), inst(2, "Hex", Stat::Def, -3)];
        let b = [inst(2, "Hex", Stat::Def, -3), inst(1, "Hex", Stat::Def, -1)];
        for e in [&a[..], &b[..]] {
            let r = read_stat(Stat::Def, 13, e);
            assert_eq!(r.value, 10);
            assert_eq!(r.applied[0].instance, 2);
            assert_eq!(r.not_stacked[0].instance, 1);
        }
        // Equal magnitudes, different signs: the same one wins in both orders.
        let c = [inst(1, "Odd", Stat::Def, 2), inst(2, "Odd", Stat::Def, -2)];
        let d = [inst(2, "Odd", Stat::Def, -2), inst(1, "Odd", Stat::Def, 2)];
        assert_eq!(
            read_stat(Stat::Def, 13, &c).value,
            read_stat(Stat::Def, 13, &d).value
        );
    }

    #[test]
    fn stats_never_go_below_zero() {
        let e = [inst(1, "Crush", Stat::Arm, -20)];
        assert_eq!(read_stat(Stat::Arm, 5, &e).value, 0);
    }

    #[test]
    fn presets_answer_to_either_name_and_unknown_ones_are_refused() {
        for key in ["dark_shroud", "Dark Shroud", "ダーク・シュラウド"] {
            assert_eq!(preset(key).unwrap().name, "Dark Shroud");
        }
        let k = preset("《キスオブ・リリス》").unwrap();
        assert_eq!(k.name, "Kiss of Lyliss");
        assert_eq!(
            k.changes,
            vec![StatChange {
                stat: Stat::Arm,
                delta: -2
            }]
        );
        assert!(matches!(preset("Fog"), Err(RuleError::UnknownPreset { .. })));
        assert_eq!(canonical_name("キスオブ・リリス"), "Kiss of Lyliss");
        assert_eq!(canonical_name(" Fog "), "Fog");
    }

    #[test]
    fn flags_read_known_keys_and_keep_other_text() {
        assert_eq!(
            CannotFlag::from("Knocked Down".to_string()),
            CannotFlag::Knockdown
        );
        assert_eq!(
            CannotFlag::from("ノックダウン".to_string()),
            CannotFlag::Knockdown
        );
        assert_eq!(
            CannotFlag::from(" be charged ".to_string()),
            CannotFlag::Other("be charged".into())
        );
        let json =
            serde_json::to_value(vec![CannotFlag::BoostDamage, CannotFlag::Other("fly".into())]).unwrap();
        assert_eq!(json, serde_json::json!(["boost_damage", "fly"]));
        assert!(!CannotFlag::Other("fly".into()).is_known());
    }

    #[test]
    fn specs_need_content_and_bounded_changes() {
        let mut s = EffectSpec {
            name: "Hex".into(),
            changes: vec![],
            cannot: vec![],
        };
        assert_eq!(s.validate(), Err(RuleError::EmptyEffect));
        s.changes.push(StatChange {
            stat: Stat::Def,
            delta: -21,
        });
        assert!(matches!(
            s.validate(),
            Err(RuleError::OutOfRange { value: -21, .. })
        ));
        s.changes[0].delta = -20;
        assert_eq!(s.validate(), Ok(()));
        s.name = " ".into();
        assert!(matches!(s.validate(), Err(RuleError::EmptyText { .. })));
    }
}

//! Modifier presets: every row of the seed's tables (ranged, visibility, melee, defence,
//! perception) plus the fixed modifiers named in the text, each under a stable key for
//! autocomplete, with English and Japanese names.

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, check_range};
use super::terms::{PartSource, PoolPart};
use crate::i18n::Lang;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    Ranged,
    Visibility,
    Melee,
    Defence,
    Perception,
    /// Fixed modifiers from the seed's text (surprise, hot sim, astral perception…).
    Other,
}

/// How a preset turns into dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PresetValue {
    /// A fixed number of dice.
    Fixed { dice: i32 },
    /// `each` dice per count (aiming, friends…), at most `max` in size; `signed` lets the count be negative.
    PerCount {
        each: i32,
        max: Option<i32>,
        signed: bool,
    },
    /// Plus the rating given as the count (enhanced perception).
    Rating,
    /// A row the seed leaves to the situation ("special", pool splitting, recoil
    /// compensation…): the count is the signed number of dice.
    Amount,
    /// The wound modifier: automatic for a sheet, the count otherwise.
    Wounds,
    /// The defender cannot defend at all.
    NoDefence,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Preset {
    pub key: &'static str,
    pub table: Table,
    pub en: &'static str,
    pub ja: &'static str,
    pub value: PresetValue,
}

impl Preset {
    pub fn name(&self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.ja)
    }

    /// Whether the user must give a count for this preset.
    pub fn needs_count(&self) -> bool {
        !matches!(self.value, PresetValue::Fixed { .. } | PresetValue::NoDefence)
    }
}

/// The user's pick: a key and, for presets that need one, a count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresetChoice {
    pub key: String,
    #[serde(default)]
    pub count: Option<i32>,
}

impl PresetChoice {
    pub fn new(key: &str) -> Self {
        PresetChoice {
            key: key.to_string(),
            count: None,
        }
    }

    pub fn counted(key: &str, count: i32) -> Self {
        PresetChoice {
            key: key.to_string(),
            count: Some(count),
        }
    }
}

const fn fixed(dice: i32) -> PresetValue {
    PresetValue::Fixed { dice }
}

const fn p(
    key: &'static str,
    table: Table,
    en: &'static str,
    ja: &'static str,
    value: PresetValue,
) -> Preset {
    Preset {
        key,
        table,
        en,
        ja,
        value,
    }
}

use Table::{Defence, Melee, Other, Perception, Ranged, Visibility};

/// Every preset, in the seed's table order.
pub static PRESETS: &[Preset] = &[
    // Seed 射撃戦闘修正表 (ranged combat modifiers).
    p(
        "ranged.attacker_running",
        Ranged,
        "Attacker running",
        "攻撃側が走っている",
        fixed(-2),
    ),
    p(
        "ranged.attacker_in_melee",
        Ranged,
        "Attacker in melee combat",
        "攻撃側が近接戦闘中",
        fixed(-3),
    ),
    p(
        "ranged.attacker_in_moving_vehicle",
        Ranged,
        "Attacker in a moving vehicle",
        "攻撃側が移動中の車両に乗っている",
        fixed(-3),
    ),
    p(
        "ranged.target_partial_cover",
        Ranged,
        "Target in partial cover (25%+)",
        "目標が部分的な(25%以上)遮蔽",
        fixed(-2),
    ),
    p(
        "ranged.target_good_cover",
        Ranged,
        "Target in good cover (50%+)",
        "目標が充分な(50%以上)遮蔽",
        fixed(-4),
    ),
    p(
        "ranged.blind_fire",
        Ranged,
        "Blind fire",
        "目標が見えない(ブラインド・ファイア)",
        fixed(-6),
    ),
    p(
        "ranged.attacker_in_cover",
        Ranged,
        "Attacker in cover",
        "攻撃側が遮蔽をとっている",
        fixed(-1),
    ),
    p(
        "ranged.wounds",
        Ranged,
        "Attacker wounded",
        "攻撃側が負傷している",
        PresetValue::Wounds,
    ),
    p(
        "ranged.laser_sight",
        Ranged,
        "Laser sight",
        "レーザーサイトの使用",
        fixed(1),
    ),
    p(
        "ranged.smartlink",
        Ranged,
        "Smartlink",
        "スマートリンクの使用",
        fixed(2),
    ),
    p(
        "ranged.image_magnification",
        Ranged,
        "Image magnification (cancels range; give the range modifier removed)",
        "映像スコープの使用(距離修正無効：打ち消す値を指定)",
        PresetValue::Amount,
    ),
    p(
        "ranged.two_weapons",
        Ranged,
        "Two weapons (pool split; give the dice moved)",
        "2つの武器を同時使用(ダイスプールを分割：移すダイス数を指定)",
        PresetValue::Amount,
    ),
    p(
        "ranged.off_hand",
        Ranged,
        "Off-hand attack",
        "利き腕以外で攻撃",
        fixed(-2),
    ),
    p(
        "ranged.aim",
        Ranged,
        "Aiming (per Simple Action)",
        "狙いをつける(単純動作1回につき)",
        PresetValue::PerCount {
            each: 1,
            max: None,
            signed: false,
        },
    ),
    p(
        "ranged.called_shot",
        Ranged,
        "Called shot (special)",
        "部位狙い(特殊)",
        PresetValue::Amount,
    ),
    p(
        "ranged.multiple_targets",
        Ranged,
        "Multiple targets (per target change)",
        "複数の目標(目標を変更するごとに)",
        PresetValue::PerCount {
            each: -2,
            max: None,
            signed: false,
        },
    ),
    p(
        "ranged.tracer_short_burst",
        Ranged,
        "Tracer rounds (short burst)",
        "曳光弾(短バースト)",
        fixed(1),
    ),
    p(
        "ranged.tracer_long_burst",
        Ranged,
        "Tracer rounds (long burst)",
        "曳光弾(長バースト)",
        fixed(2),
    ),
    p(
        "ranged.tracer_full_burst",
        Ranged,
        "Tracer rounds (full burst)",
        "曳光弾(フルバースト)",
        fixed(3),
    ),
    p(
        "ranged.range_medium",
        Ranged,
        "Medium range",
        "距離(中距離)",
        fixed(-1),
    ),
    p(
        "ranged.range_long",
        Ranged,
        "Long range",
        "距離(遠距離)",
        fixed(-2),
    ),
    p(
        "ranged.range_extreme",
        Ranged,
        "Extreme range",
        "距離(超遠距離)",
        fixed(-3),
    ),
    p(
        "ranged.recoil_semi_auto_second",
        Ranged,
        "Recoil: semi-auto, second shot",
        "反動(セミオート、2射目)",
        fixed(-1),
    ),
    p(
        "ranged.recoil_short_burst_first",
        Ranged,
        "Recoil: short burst, first",
        "反動(短バースト、1射目)",
        fixed(-2),
    ),
    p(
        "ranged.recoil_short_burst_second",
        Ranged,
        "Recoil: short burst, second",
        "反動(短バースト、2射目)",
        fixed(-5),
    ),
    p(
        "ranged.recoil_long_burst_first",
        Ranged,
        "Recoil: long burst, first",
        "反動(長バースト、1射目)",
        fixed(-5),
    ),
    p(
        "ranged.recoil_long_burst_second",
        Ranged,
        "Recoil: long burst, second",
        "反動(長バースト、2射目)",
        fixed(-11),
    ),
    p(
        "ranged.recoil_full_burst",
        Ranged,
        "Recoil: full burst",
        "反動(フルバースト)",
        fixed(-9),
    ),
    p(
        "ranged.recoil_heavy",
        Ranged,
        "Recoil: heavy weapon or BF shotgun (uncompensated ×2; give the extra)",
        "反動(重火器/BFのショットガン：補正されていない反動×2、追加分を指定)",
        PresetValue::Amount,
    ),
    p(
        "ranged.recoil_compensation",
        Ranged,
        "Recoil compensation (give the dice restored)",
        "反動補正(減らす反動を指定)",
        PresetValue::Amount,
    ),
    p(
        "ranged.gyro_stabilization",
        Ranged,
        "Gyro stabilization (give the dice restored)",
        "ジャイロ・スタビライザー(減らす修正を指定)",
        PresetValue::Amount,
    ),
    p(
        "ranged.poor_visibility",
        Ranged,
        "Poor visibility (see the visibility table; give the modifier)",
        "視界不良(視界修正表参照：修正を指定)",
        PresetValue::Amount,
    ),
    // Seed 視界修正表 (visibility): rows × normal / low-light / thermographic / ultrasound.
    p(
        "visibility.full_darkness.normal",
        Visibility,
        "Full darkness, normal vision",
        "完全な暗闇(通常)",
        fixed(-6),
    ),
    p(
        "visibility.full_darkness.low_light",
        Visibility,
        "Full darkness, low-light",
        "完全な暗闇(低光量)",
        fixed(-6),
    ),
    p(
        "visibility.full_darkness.thermographic",
        Visibility,
        "Full darkness, thermographic",
        "完全な暗闇(熱映像)",
        fixed(-3),
    ),
    p(
        "visibility.full_darkness.ultrasound",
        Visibility,
        "Full darkness, ultrasound",
        "完全な暗闇(超音波)",
        fixed(-3),
    ),
    p(
        "visibility.partial_light.normal",
        Visibility,
        "Partial light, normal vision",
        "薄暗がり(通常)",
        fixed(-2),
    ),
    p(
        "visibility.partial_light.low_light",
        Visibility,
        "Partial light, low-light",
        "薄暗がり(低光量)",
        fixed(0),
    ),
    p(
        "visibility.partial_light.thermographic",
        Visibility,
        "Partial light, thermographic",
        "薄暗がり(熱映像)",
        fixed(-2),
    ),
    p(
        "visibility.partial_light.ultrasound",
        Visibility,
        "Partial light, ultrasound",
        "薄暗がり(超音波)",
        fixed(-1),
    ),
    p(
        "visibility.glare.normal",
        Visibility,
        "Glare, normal vision",
        "大光量(通常)",
        fixed(-1),
    ),
    p(
        "visibility.glare.low_light",
        Visibility,
        "Glare, low-light",
        "大光量(低光量)",
        fixed(-1),
    ),
    p(
        "visibility.glare.thermographic",
        Visibility,
        "Glare, thermographic",
        "大光量(熱映像)",
        fixed(-1),
    ),
    p(
        "visibility.glare.ultrasound",
        Visibility,
        "Glare, ultrasound",
        "大光量(超音波)",
        fixed(0),
    ),
    p(
        "visibility.light_smoke.normal",
        Visibility,
        "Light smoke/fog/rain, normal vision",
        "煙/霧/雨(弱)(通常)",
        fixed(-2),
    ),
    p(
        "visibility.light_smoke.low_light",
        Visibility,
        "Light smoke/fog/rain, low-light",
        "煙/霧/雨(弱)(低光量)",
        fixed(-1),
    ),
    p(
        "visibility.light_smoke.thermographic",
        Visibility,
        "Light smoke/fog/rain, thermographic",
        "煙/霧/雨(弱)(熱映像)",
        fixed(0),
    ),
    p(
        "visibility.light_smoke.ultrasound",
        Visibility,
        "Light smoke/fog/rain, ultrasound",
        "煙/霧/雨(弱)(超音波)",
        fixed(-1),
    ),
    p(
        "visibility.heavy_smoke.normal",
        Visibility,
        "Heavy smoke/fog/rain, normal vision",
        "煙/霧/雨(強)(通常)",
        fixed(-4),
    ),
    p(
        "visibility.heavy_smoke.low_light",
        Visibility,
        "Heavy smoke/fog/rain, low-light",
        "煙/霧/雨(強)(低光量)",
        fixed(-2),
    ),
    p(
        "visibility.heavy_smoke.thermographic",
        Visibility,
        "Heavy smoke/fog/rain, thermographic",
        "煙/霧/雨(強)(熱映像)",
        fixed(-2),
    ),
    p(
        "visibility.heavy_smoke.ultrasound",
        Visibility,
        "Heavy smoke/fog/rain, ultrasound",
        "煙/霧/雨(強)(超音波)",
        fixed(-2),
    ),
    p(
        "visibility.thermal_smoke.normal",
        Visibility,
        "Thermal smoke, normal vision",
        "熱煙(通常)",
        fixed(-4),
    ),
    p(
        "visibility.thermal_smoke.low_light",
        Visibility,
        "Thermal smoke, low-light",
        "熱煙(低光量)",
        fixed(-2),
    ),
    p(
        "visibility.thermal_smoke.thermographic",
        Visibility,
        "Thermal smoke, thermographic",
        "熱煙(熱映像)",
        fixed(-6),
    ),
    p(
        "visibility.thermal_smoke.ultrasound",
        Visibility,
        "Thermal smoke, ultrasound",
        "熱煙(超音波)",
        fixed(-2),
    ),
    // Seed 近接戦闘修正表 (melee).
    p(
        "melee.friends",
        Melee,
        "Friends in melee (+1 each, max +4)",
        "味方がいる(1人当たり+1、最高+4)",
        PresetValue::PerCount {
            each: 1,
            max: Some(4),
            signed: false,
        },
    ),
    p("melee.wounds", Melee, "Wounded", "負傷", PresetValue::Wounds),
    p(
        "melee.reach",
        Melee,
        "Reach difference (±1 per point)",
        "リーチ差(1ごとに±1)",
        PresetValue::PerCount {
            each: 1,
            max: None,
            signed: true,
        },
    ),
    p(
        "melee.off_hand",
        Melee,
        "Off-hand attack",
        "利き腕以外で攻撃",
        fixed(-2),
    ),
    p(
        "melee.multiple_targets",
        Melee,
        "Multiple targets (pool split; give the dice moved)",
        "複数の目標(ダイスプールを分割：移すダイス数を指定)",
        PresetValue::Amount,
    ),
    p(
        "melee.superior_position",
        Melee,
        "Superior position",
        "有利な位置",
        fixed(2),
    ),
    p(
        "melee.target_prone",
        Melee,
        "Target prone",
        "目標が伏せている",
        fixed(3),
    ),
    p(
        "melee.charging",
        Melee,
        "Attacker charging",
        "攻撃側が突撃している",
        fixed(2),
    ),
    p(
        "melee.receiving_charge",
        Melee,
        "Receiving a charge",
        "突撃を迎え撃つ",
        fixed(1),
    ),
    p(
        "melee.poor_visibility",
        Melee,
        "Poor visibility (see the visibility table; give the modifier)",
        "視界不良(視界修正表参照：修正を指定)",
        PresetValue::Amount,
    ),
    p(
        "melee.called_shot",
        Melee,
        "Called shot (special)",
        "部位狙い(特殊)",
        PresetValue::Amount,
    ),
    p(
        "melee.touch_only",
        Melee,
        "Touch-only attack",
        "接触のみの攻撃",
        fixed(2),
    ),
    // Seed 防御修正表 (defence).
    p(
        "defence.unaware",
        Defence,
        "Defender unaware of the attack (no defence)",
        "攻撃に気づいていない(防御不能)",
        PresetValue::NoDefence,
    ),
    p(
        "defence.wounds",
        Defence,
        "Defender wounded",
        "防御側が負傷している",
        PresetValue::Wounds,
    ),
    p(
        "defence.in_moving_vehicle",
        Defence,
        "Defender in a moving vehicle",
        "防御側が移動中のヴィークルに乗っている",
        fixed(3),
    ),
    p(
        "defence.previous_defences",
        Defence,
        "Already defended (−1 per extra defence)",
        "防御側がすでに防御している(追加の防御1回につき-1)",
        PresetValue::PerCount {
            each: -1,
            max: None,
            signed: false,
        },
    ),
    p(
        "defence.prone_melee",
        Defence,
        "Defender prone (melee only)",
        "防御側が伏せている(近接戦闘時のみ)",
        fixed(-2),
    ),
    p(
        "defence.running",
        Defence,
        "Defender running (ranged only)",
        "防御側が走っている(射撃戦闘時のみ)",
        fixed(2),
    ),
    p(
        "defence.in_melee",
        Defence,
        "Defender in melee (ranged only)",
        "防御側が近接戦闘中(射撃戦闘時のみ)",
        fixed(-3),
    ),
    p(
        "defence.wide_burst",
        Defence,
        "Wide burst (ranged only)",
        "攻撃側が広いバースト(射撃戦闘時のみ)",
        fixed(-2),
    ),
    p(
        "defence.wide_long_burst",
        Defence,
        "Wide long burst (ranged only)",
        "攻撃側が広い長バースト(射撃戦闘時のみ)",
        fixed(-5),
    ),
    p(
        "defence.wide_full_burst",
        Defence,
        "Wide full burst (ranged only)",
        "攻撃側が広いフルバースト(射撃戦闘時のみ)",
        fixed(-9),
    ),
    p(
        "defence.shotgun_medium_spread",
        Defence,
        "Shotgun medium spread (ranged only)",
        "ショットガンの中拡散(射撃戦闘時のみ)",
        fixed(-2),
    ),
    p(
        "defence.shotgun_wide_spread",
        Defence,
        "Shotgun wide spread (ranged only)",
        "ショットガンの広拡散(射撃戦闘時のみ)",
        fixed(-4),
    ),
    p(
        "defence.area_effect",
        Defence,
        "Area-effect weapon (ranged only)",
        "範囲攻撃武器による攻撃(射撃戦闘時のみ)",
        fixed(-2),
    ),
    // Seed 知覚テスト修正値表 (perception).
    p(
        "perception.distracted",
        Perception,
        "Distracted",
        "注意がそれている",
        fixed(-2),
    ),
    p(
        "perception.actively_looking",
        Perception,
        "Actively looking",
        "積極的に探している",
        fixed(3),
    ),
    p(
        "perception.object_not_far",
        Perception,
        "Object some distance away",
        "対象から少し距離がある",
        fixed(-2),
    ),
    p(
        "perception.object_far",
        Perception,
        "Object far away",
        "対象が遠い",
        fixed(-3),
    ),
    p(
        "perception.object_stands_out",
        Perception,
        "Object stands out",
        "対象が目立っている",
        fixed(2),
    ),
    p(
        "perception.interfering",
        Perception,
        "Interfering sight/sound/smell",
        "邪魔な音や臭いなどがある",
        fixed(-2),
    ),
    p(
        "perception.enhanced",
        Perception,
        "Enhanced senses (+rating)",
        "知覚が強化されている(+レーティング)",
        PresetValue::Rating,
    ),
    p(
        "perception.using_vr",
        Perception,
        "Using virtual reality",
        "仮想現実を使用している",
        fixed(-6),
    ),
    // Fixed modifiers from the seed's text.
    p(
        "other.surprise_aware",
        Other,
        "Surprise test: aware of the ambush (seed 3.3)",
        "不意打ち：不意打ちに気づいていた(3.3)",
        fixed(3),
    ),
    p(
        "other.surprise_ambush",
        Other,
        "Surprise test: lying in ambush (seed 3.3)",
        "不意打ち：待ち伏せしていた(3.3)",
        fixed(6),
    ),
    p(
        "other.astral_physical_action",
        Other,
        "Physical action while perceiving astrally (seed 4.4)",
        "アストラル知覚中の物理的な動作(4.4)",
        fixed(-2),
    ),
    p(
        "other.hot_sim",
        Other,
        "Hot sim VR (seed 5.3)",
        "ホット・シム(5.3)",
        fixed(2),
    ),
    p(
        "other.technomancer_matrix_perception",
        Other,
        "Technomancer matrix perception (seed 6.3)",
        "テクノマンサーのマトリックス知覚(6.3)",
        fixed(2),
    ),
    p(
        "other.ar_registered_vehicle",
        Other,
        "AR with a registered vehicle (seed 7.1)",
        "ARを利用し登録している(7.1)",
        fixed(1),
    ),
];

/// The preset under `key`, or a clear error.
pub fn preset(key: &str) -> Result<&'static Preset, RuleError> {
    PRESETS
        .iter()
        .find(|p| p.key == key)
        .ok_or_else(|| RuleError::UnknownPreset { key: key.to_string() })
}

/// Presets whose key or name (either language) contains `query`, case-insensitive, for
/// autocomplete; an optional table narrows the list. At most `limit` (Discord shows 25).
pub fn search(query: &str, table: Option<Table>, limit: usize) -> Vec<&'static Preset> {
    let q = query.to_lowercase();
    PRESETS
        .iter()
        .filter(|p| table.is_none_or(|t| p.table == t))
        .filter(|p| {
            q.is_empty() || p.key.contains(&q) || p.en.to_lowercase().contains(&q) || p.ja.contains(query)
        })
        .take(limit)
        .collect()
}

pub(crate) fn is_no_defence(key: &str) -> bool {
    preset(key).is_ok_and(|p| p.value == PresetValue::NoDefence)
}

fn count_of(choice: &PresetChoice) -> Result<i32, RuleError> {
    choice.count.ok_or_else(|| RuleError::PresetNeedsCount {
        key: choice.key.clone(),
    })
}

/// The pool part for one choice. `None` for a wounds row on a sheet, which counts wounds itself.
pub fn apply(choice: &PresetChoice, from_sheet: bool) -> Result<Option<PoolPart>, RuleError> {
    let preset = preset(&choice.key)?;
    let value = match preset.value {
        PresetValue::Fixed { dice } => dice,
        PresetValue::NoDefence => 0,
        PresetValue::PerCount { each, max, signed } => {
            let n = count_of(choice)?;
            check_range(Quantity::Count, i64::from(n), if signed { -20 } else { 0 }, 20)?;
            let v = each * n;
            match max {
                Some(m) => v.clamp(-m, m),
                None => v,
            }
        }
        PresetValue::Rating => {
            let n = count_of(choice)?;
            check_range(Quantity::Rating, i64::from(n), 0, 20)?;
            n
        }
        PresetValue::Amount => {
            let n = count_of(choice)?;
            check_range(Quantity::Modifier, i64::from(n), -50, 50)?;
            n
        }
        PresetValue::Wounds => {
            if from_sheet {
                return Ok(None);
            }
            let n = count_of(choice)?;
            check_range(Quantity::Modifier, i64::from(n), -50, 0)?;
            n
        }
    };
    Ok(Some(PoolPart {
        source: PartSource::Preset {
            key: preset.key.to_string(),
            count: choice.count,
        },
        value,
    }))
}

#[cfg(test)]
mod unit {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_unique_and_prefixed_by_their_table() {
        let mut seen = HashSet::new();
        for p in PRESETS {
            assert!(seen.insert(p.key), "duplicate key {}", p.key);
            let prefix = match p.table {
                Table::Ranged => "ranged.",
                Table::Visibility => "visibility.",
                Table::Melee => "melee.",
                Table::Defence => "defence.",
                Table::Perception => "perception.",
                Table::Other => "other.",
            };
            assert!(p.key.starts_with(prefix), "{}", p.key);
            assert!(!p.en.is_empty() && !p.ja.is_empty());
        }
    }

    #[test]
    fn every_seed_row_is_there() {
        let count = |t| PRESETS.iter().filter(|p| p.table == t).count();
        // Ranged: the seed's 28 rows, with range (3) and short/long burst recoil (2 each) split out.
        assert_eq!(count(Table::Ranged), 32);
        assert_eq!(count(Table::Visibility), 24);
        assert_eq!(count(Table::Melee), 12);
        assert_eq!(count(Table::Defence), 13);
        assert_eq!(count(Table::Perception), 8);
    }

    #[test]
    fn values_follow_the_tables() {
        let v = |k: &str, c: Option<i32>| {
            apply(
                &PresetChoice {
                    key: k.into(),
                    count: c,
                },
                false,
            )
            .unwrap()
            .unwrap()
            .value
        };
        assert_eq!(v("ranged.smartlink", None), 2);
        assert_eq!(v("ranged.recoil_long_burst_second", None), -11);
        assert_eq!(v("visibility.thermal_smoke.thermographic", None), -6);
        assert_eq!(v("ranged.aim", Some(3)), 3);
        assert_eq!(v("melee.friends", Some(6)), 4);
        assert_eq!(v("melee.reach", Some(-2)), -2);
        assert_eq!(v("ranged.multiple_targets", Some(2)), -4);
        assert_eq!(v("perception.enhanced", Some(2)), 2);
        assert_eq!(v("defence.unaware", None), 0);
        assert_eq!(v("ranged.wounds", Some(-2)), -2);
    }

    #[test]
    fn bad_choices_are_errors() {
        assert!(matches!(
            apply(&PresetChoice::new("ranged.nope"), false),
            Err(RuleError::UnknownPreset { .. })
        ));
        assert!(matches!(
            apply(&PresetChoice::new("ranged.aim"), false),
            Err(RuleError::PresetNeedsCount { .. })
        ));
        assert!(apply(&PresetChoice::counted("ranged.aim", -1), false).is_err());
        assert!(apply(&PresetChoice::counted("ranged.aim", 1000), false).is_err());
        // On a sheet, wounds are already counted.
        assert_eq!(apply(&PresetChoice::new("defence.wounds"), true), Ok(None));
    }

    #[test]
    fn search_finds_by_key_and_either_name() {
        assert!(
            search("smart", None, 25)
                .iter()
                .any(|p| p.key == "ranged.smartlink")
        );
        assert!(
            search("スマート", None, 25)
                .iter()
                .any(|p| p.key == "ranged.smartlink")
        );
        assert_eq!(search("", Some(Table::Perception), 25).len(), 8);
        assert_eq!(search("", None, 5).len(), 5);
    }
}

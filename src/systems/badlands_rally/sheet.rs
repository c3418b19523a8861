//! A gear as players type it into `/char`: `key=value` fields → a validated [`Gear`] (sheet and
//! tracked state) stored as the roster entry's JSON.
//!
//! Fields (names are case-insensitive; `-` and spaces read as `_`):
//!
//! | field | value | example |
//! |---|---|---|
//! | `model` | a datacard key (fills in its traits) | `model=jerboa` |
//! | `name` | the gear's display name (default: the model's) | `name="Red Hopper"` |
//! | `attack` (`att`, `atk`) | rating 2–6, `4` or `4+` | `attack=4+` |
//! | `defence` (`defense`, `def`) | rating | `def=3+` |
//! | `initiative` (`init`, `ini`) | rating | `init=4+` |
//! | `mr` | movement rating | `mr=16` |
//! | `hull`, `structure` (`str`) | hits | `hull=2 structure=1` |
//! | `hits` | Hull/Structure at once | `hits=2/1` |
//! | `ar` (`armor`, `armour`) | armour | `ar=5` |
//! | `weapon`, `weapon1`…`weapon6` (`w1`…) | `NAME POW RANGE [traits] [rating]`; empty removes | `weapon1="Rifle 6 3-6/12 burst:1"` |
//! | `traits` | extra traits beside the model's, comma separated | `traits="brawler, reliable"` |
//! | `upgrades` (`upgrade`) | `the_move`, `speed_demon`, `coiled_hydraulic_enhancer`, `sponsorship_paint`, `wacker`, `twins:N` (weapon N) | `upgrades=twins:1` |
//! | `reset` | `yes`: back to full hits, no rattles (a new race) | `reset=yes` |
//!
//! Weapon traits: `melee`, `heat`, `blast`, `impact`, `area`/`ae`, `burst:X` (`burstX`); a
//! token like `3+` gives the weapon its own attack rating. A range `R` alone means `1-R/R`.

use serde_json::Value;

use super::datacards;
use super::error::RuleError;
use super::gear::{Gear, GearSheet, MAX_STAT, Range, Trait, Upgrade, Weapon, WeaponKind, WeaponTrait};
use super::roll::Rating;
use super::state::GearState;
use crate::i18n::Lang;
use crate::session::ReadJson;
use crate::systems::sheet_error::SheetError;

use super::sheet_decl::DECL;
pub use super::sheet_decl::MAX_WEAPONS;

fn err(en: impl Into<String>, ja: impl Into<String>) -> SheetError {
    SheetError::new(en, ja)
}

fn rule(e: RuleError) -> SheetError {
    SheetError::from_localized(&e)
}

fn number(key: &str, v: &str) -> Result<u32, SheetError> {
    let n: u32 = v.trim().parse().map_err(|_| {
        err(
            format!("`{key}` needs a whole number, not `{v}`."),
            format!("`{key}` には整数を指定してください（`{v}` は使えません）。"),
        )
    })?;
    if n > MAX_STAT {
        return Err(rule(RuleError::OutOfBounds {
            field: key.to_string(),
            value: i64::from(n),
            min: 0,
            max: i64::from(MAX_STAT),
        }));
    }
    Ok(n)
}

/// `4`, `4+` → a rating.
pub fn parse_rating(key: &str, v: &str) -> Result<Rating, SheetError> {
    let t = v.trim().trim_end_matches(['+', '＋']);
    let n: u8 = t.parse().map_err(|_| {
        err(
            format!("`{key}` is a rating such as 4+, not `{v}`."),
            format!("`{key}` は 4+ のような能力値で指定してください（`{v}` は使えません）。"),
        )
    })?;
    Rating::new(n).map_err(rule)
}

fn norm(s: &str) -> String {
    s.trim().to_lowercase().replace(['-', ' ', '・'], "_")
}

/// A trait by its key (`brawler`, `hi_tech`) or its name in either language.
pub fn parse_trait(s: &str) -> Result<Trait, SheetError> {
    let key = norm(s);
    Trait::ALL
        .into_iter()
        .find(|t| {
            let json = serde_json::to_value(t).ok();
            json.as_ref().and_then(Value::as_str) == Some(key.as_str())
                || norm(t.name(Lang::En)) == key
                || norm(t.name(Lang::Ja)) == key
        })
        .ok_or_else(|| {
            err(
                format!("Unknown trait `{}`.", s.trim()),
                format!("特性「{}」はありません。", s.trim()),
            )
        })
}

/// `the_move`, `twins:2` (1-based weapon) …
pub fn parse_upgrade(s: &str) -> Result<Upgrade, SheetError> {
    let key = norm(s);
    let (head, arg) = match key.split_once([':', '=', '：']) {
        Some((h, a)) => (h.to_string(), Some(a.to_string())),
        None => (key.clone(), None),
    };
    Ok(match head.as_str() {
        "the_move" | "move" | "ザ_ムーブ" | "ムーブ" => Upgrade::TheMove,
        "speed_demon" | "スピード_デーモン" => Upgrade::SpeedDemon,
        "coiled_hydraulic_enhancer" | "che" | "コイルド_ハイドロリック_エンハンサー" => {
            Upgrade::CoiledHydraulicEnhancer
        }
        "sponsorship_paint" | "paint" | "スポンサーシップ_ペイント" => Upgrade::SponsorshipPaint,
        "wacker" | "ワッカー" => Upgrade::Wacker,
        "twins" | "ツインズ" => {
            let n: usize = arg.as_deref().and_then(|a| a.parse().ok()).unwrap_or(0);
            if n == 0 {
                return Err(err(
                    "Twins names its weapon: twins:1 for weapon 1.",
                    "ツインズは武器番号を指定してください（例: twins:1）。",
                ));
            }
            Upgrade::Twins { weapon: n - 1 }
        }
        _ => {
            return Err(err(
                format!("Unknown upgrade `{}`.", s.trim()),
                format!("アップグレード「{}」はありません。", s.trim()),
            ));
        }
    })
}

fn parse_range(s: &str) -> Option<Range> {
    // `R`: reach, a melee weapon's range — the adjacent hex only (optimal and maximum 1).
    if s.eq_ignore_ascii_case("r") {
        return Range::new(1, 1, 1).ok();
    }
    let (opt, max) = match s.split_once('/') {
        Some((o, m)) => (o, m.parse::<u32>().ok()?),
        None => {
            let m = s.parse::<u32>().ok()?;
            return Range::new(1, m, m).ok();
        }
    };
    let (lo, hi) = match opt.split_once('-') {
        Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
        None => {
            let v = opt.parse().ok()?;
            (1, v)
        }
    };
    Range::new(lo, hi, max).ok()
}

fn kind_of(name: &str) -> WeaponKind {
    let n = name.to_lowercase();
    if n.contains("vibro") {
        WeaponKind::VibroBlade
    } else if n.contains("autocannon") {
        WeaponKind::Autocannon
    } else if n.contains("rifle") {
        WeaponKind::Rifle
    } else if n.contains("rocket") {
        WeaponKind::RocketPack
    } else if n.contains("wacker") {
        WeaponKind::Wacker
    } else {
        WeaponKind::Other
    }
}

/// `Rifle 6 3-6/12 burst:1 heat 3+` → a weapon.
pub fn parse_weapon(key: &str, v: &str) -> Result<Weapon, SheetError> {
    let bad = |why_en: &str, why_ja: &str| {
        err(
            format!("`{key}`: {why_en} Write NAME POW RANGE [traits], e.g. \"Rifle 6 3-6/12 burst:1\"."),
            format!(
                "`{key}`: {why_ja} 「名前 POW 射程 [特性]」の形で書いてください（例: \"Rifle 6 3-6/12 burst:1\"）。"
            ),
        )
    };
    let tokens: Vec<&str> = v.split([' ', ';', '　']).filter(|t| !t.is_empty()).collect();
    let pow_at = tokens
        .iter()
        .position(|t| t.parse::<u32>().is_ok())
        .ok_or_else(|| bad("no POW.", "POWがありません。"))?;
    if pow_at == 0 {
        return Err(bad("no name.", "名前がありません。"));
    }
    let name = tokens[..pow_at].join(" ");
    let pow = number(key, tokens[pow_at])?;
    let range_token = tokens
        .get(pow_at + 1)
        .ok_or_else(|| bad("no range.", "射程がありません。"))?;
    let range = parse_range(range_token).ok_or_else(|| rule(RuleError::BadRange))?;
    let mut traits = Vec::new();
    let mut attack = None;
    for t in &tokens[pow_at + 2..] {
        let k = norm(t);
        let tr = match k.as_str() {
            "melee" | "近接" | "メレー" => WeaponTrait::Melee,
            "heat" | "ヒート" => WeaponTrait::Heat,
            "blast" | "ブラスト" => WeaponTrait::Blast,
            "impact" | "インパクト" => WeaponTrait::Impact,
            "area"
            | "ae"
            | "area_effect"
            | "範囲"
            | "範囲効果"
            | "エリア_エフェクト"
            | "エリアエフェクト" => WeaponTrait::AreaEffect,
            _ if k.starts_with("burst") || k.starts_with("バースト") => {
                let x = k
                    .trim_start_matches("burst")
                    .trim_start_matches("バースト")
                    .trim_start_matches([':', '=', '_', '：']);
                let x = x.trim_end_matches("d6");
                let n: u8 = x.parse().map_err(|_| {
                    bad(
                        "Burst needs a number (burst:1).",
                        "バーストには数値が必要です（burst:1）。",
                    )
                })?;
                WeaponTrait::Burst(n)
            }
            _ if k.ends_with('+') => {
                attack = Some(parse_rating(key, &k)?);
                continue;
            }
            _ => {
                return Err(bad(
                    &format!("unknown weapon trait `{t}`."),
                    &format!("武器特性「{t}」はありません。"),
                ));
            }
        };
        traits.push(tr);
    }
    Ok(Weapon {
        kind: kind_of(&name),
        name,
        pow,
        range,
        traits,
        attack,
    })
}

/// The declared field's key a typed name means.
fn upper_name(key: &str) -> Option<&'static str> {
    DECL.field(key).map(|f| f.key)
}

/// The fields every new gear needs.
const REQUIRED: [&str; 7] = ["attack", "defence", "initiative", "mr", "hull", "structure", "ar"];

/// `current` (a stored [`Gear`], or `{}` for a new one) with `fields` applied and validated.
pub fn edit(current: &Value, fields: &[(String, String)]) -> Result<Value, SheetError> {
    let existing: Option<Gear> = if current.as_object().is_some_and(|m| m.is_empty()) {
        None
    } else {
        Some(serde::Deserialize::deserialize(current).map_err(|_| {
            err(
                "This entry's stats are not a Badlands Rally gear; remove it and add it again.",
                "この登録はBadlands Rallyのギアではありません。削除して登録し直してください。",
            )
        })?)
    };
    let mut attack = existing.as_ref().map(|g| g.sheet.attack);
    let mut defence = existing.as_ref().map(|g| g.sheet.defence);
    let mut initiative = existing.as_ref().map(|g| g.sheet.initiative);
    // The plain fields (model, name, MR, hits, AR) are kept in the stored gear's JSON while
    // the fields are read: the declaration's one assignment writes them there.
    let mut doc = existing
        .as_ref()
        .and_then(|g| serde_json::to_value(g).ok())
        .unwrap_or_else(|| serde_json::json!({ "sheet": {} }));
    let model_at = |doc: &Value| {
        doc.pointer("/sheet/model")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let model = model_at(&doc);
    let mut weapons: Vec<Option<Weapon>> = existing
        .as_ref()
        .map(|g| g.sheet.weapons.iter().cloned().map(Some).collect())
        .unwrap_or_default();
    let model_traits = |m: &Option<String>| -> Vec<Trait> {
        m.as_deref()
            .and_then(|k| datacards::model(k).ok())
            .map(|m| m.traits.to_vec())
            .unwrap_or_default()
    };
    let old_model_traits = model_traits(&model);
    // Traits the players added beside the model's.
    let mut extra_traits: Vec<Trait> = existing
        .as_ref()
        .map(|g| {
            g.sheet
                .traits
                .iter()
                .filter(|t| !old_model_traits.contains(t))
                .copied()
                .collect()
        })
        .unwrap_or_default();
    let mut upgrades = existing
        .as_ref()
        .map(|g| g.sheet.upgrades.clone())
        .unwrap_or_default();
    let mut reset = existing.is_none();

    for (key, value) in fields {
        let v = value.trim();
        if let Some(slot) = DECL.weapons.as_ref().and_then(|w| w.slot(key)) {
            if weapons.len() <= slot {
                weapons.resize(slot + 1, None);
            }
            weapons[slot] = if v.is_empty() {
                None
            } else {
                Some(parse_weapon(key, v)?)
            };
            continue;
        }
        let Some(field) = upper_name(key) else {
            return Err(err(
                format!(
                    "Unknown gear field `{key}`. Fields: model, name, attack, defence, initiative, mr, hull, structure, hits, ar, weapon1…weapon{MAX_WEAPONS}, traits, upgrades, reset."
                ),
                format!(
                    "ギアの項目「{key}」はありません。使える項目: model, name, attack, defence, initiative, mr, hull, structure, hits, ar, weapon1…weapon{MAX_WEAPONS}, traits, upgrades, reset。"
                ),
            ));
        };
        let f = DECL.get(field);
        if DECL.assign(f, key, v, &mut doc)? {
            // A model is a datacard's key (kept as the card spells it); an empty model or
            // name is none (the name then follows the model).
            if let Some(at) = doc.pointer_mut(&format!("/sheet/{field}")) {
                match field {
                    "model" if !v.is_empty() => *at = Value::from(datacards::model(v).map_err(rule)?.key),
                    "model" | "name" if v.is_empty() => *at = Value::Null,
                    _ => {}
                }
            }
            continue;
        }
        match field {
            "attack" => attack = Some(parse_rating(key, v)?),
            "defence" => defence = Some(parse_rating(key, v)?),
            "initiative" => initiative = Some(parse_rating(key, v)?),
            "hits" => {
                let (h, s) = v.split_once('/').ok_or_else(|| {
                    err(
                        format!("`{key}` is Hull/Structure, e.g. 2/1."),
                        format!("`{key}` は ハル/ストラクチャー の形で書いてください（例: 2/1）。"),
                    )
                })?;
                // Each half through the one assignment of its own field.
                DECL.assign(DECL.get("hull"), key, h, &mut doc)?;
                DECL.assign(DECL.get("structure"), key, s, &mut doc)?;
            }
            "traits" => {
                extra_traits = Vec::new();
                for t in v.split([',', '、', ';']).filter(|t| !t.trim().is_empty()) {
                    let t = parse_trait(t)?;
                    if !extra_traits.contains(&t) {
                        extra_traits.push(t);
                    }
                }
            }
            "upgrades" => {
                upgrades = Vec::new();
                for u in v.split([',', '、', ';', ' ']).filter(|u| !u.trim().is_empty()) {
                    let u = parse_upgrade(u)?;
                    if !upgrades.contains(&u) {
                        upgrades.push(u);
                    }
                }
            }
            "reset" => {
                reset = matches!(norm(v).as_str(), "yes" | "true" | "1" | "on" | "はい");
            }
            _ => {}
        }
    }

    let stat = |k: &str| {
        doc.pointer(&format!("/sheet/{k}"))
            .and_then(Value::as_u64)
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
    };
    let (mr, hull, structure, ar) = (stat("mr"), stat("hull"), stat("structure"), stat("ar"));
    let model = model_at(&doc);
    let name = doc
        .pointer("/sheet/name")
        .and_then(Value::as_str)
        .map(str::to_string);
    let missing: Vec<&str> = REQUIRED
        .iter()
        .zip([
            attack.is_none(),
            defence.is_none(),
            initiative.is_none(),
            mr.is_none(),
            hull.is_none(),
            structure.is_none(),
            ar.is_none(),
        ])
        .filter(|(_, m)| *m)
        .map(|(k, _)| *k)
        .collect();
    let (Some(attack), Some(defence), Some(initiative), Some(mr), Some(hull), Some(structure), Some(ar)) =
        (attack, defence, initiative, mr, hull, structure, ar)
    else {
        let list = missing.join(", ");
        // The fields by their Japanese names, and an example the parser takes as typed.
        let list_ja: Vec<&str> = missing.iter().map(|k| DECL.get(k).label(Lang::Ja)).collect();
        return Err(err(
            format!("A gear needs {list} (e.g. attack=4+ defence=4+ initiative=4+ mr=14 hits=2/1 ar=5)."),
            format!(
                "ギアには{}が必要です（例: 攻撃=4+ 防御=4+ イニシアチブ=4+ 移動力=14 ヒット=2/1 アーマー=5）。",
                list_ja.join("、")
            ),
        ));
    };
    let mut traits = model_traits(&model);
    for t in extra_traits {
        if !traits.contains(&t) {
            traits.push(t);
        }
    }
    let name = name.unwrap_or_else(|| {
        model
            .as_deref()
            .and_then(|k| datacards::model(k).ok())
            .map_or_else(|| "Gear".to_string(), |m| m.en.to_string())
    });
    // Emptied slots close up; Twins follows its weapon to the new number, and an emptied slot
    // that Twins pairs is refused rather than moving Twins to whatever weapon slides into it.
    let mut new_index: Vec<Option<usize>> = Vec::with_capacity(weapons.len());
    let mut next = 0;
    for w in &weapons {
        new_index.push(w.as_ref().map(|_| {
            next += 1;
            next - 1
        }));
    }
    for u in &mut upgrades {
        if let Upgrade::Twins { weapon } = u {
            match new_index.get(*weapon) {
                Some(Some(n)) => *weapon = *n,
                Some(None) => {
                    let n = *weapon + 1;
                    return Err(err(
                        format!(
                            "Weapon {n} is paired by Twins: take the upgrade off first (upgrades=…), or replace the weapon instead of emptying its slot."
                        ),
                        format!(
                            "武器{n}にはツインズが付いています。先にアップグレードを外す（upgrades=…）か、空にせず別の武器に置き換えてください。"
                        ),
                    ));
                }
                // Not a slot at all: validate() names it.
                None => {}
            }
        }
    }
    let weapons: Vec<Weapon> = weapons.into_iter().flatten().collect();
    if weapons.len() > MAX_WEAPONS {
        return Err(err(
            format!("A gear carries at most {MAX_WEAPONS} weapons."),
            format!("武器は{MAX_WEAPONS}個までです。"),
        ));
    }
    let sheet = GearSheet {
        name,
        model,
        attack,
        defence,
        initiative,
        mr,
        hull,
        structure,
        ar,
        weapons,
        traits,
        upgrades,
    };
    sheet.validate().map_err(rule)?;
    let state = match existing {
        Some(g) if !reset => {
            let mut s = g.state;
            s.hull = s.hull.min(sheet.hull);
            s.structure = s.structure.min(sheet.structure);
            s
        }
        _ => GearState::fresh(&sheet),
    };
    let gear = Gear { sheet, state };
    serde_json::to_value(&gear).map_err(|e| err(e.to_string(), e.to_string()))
}

/// How a weapon reads on a sheet: `Rifle POW 6 3-6/12 Burst:1`; its traits in the seed's
/// words for a Japanese reader (`バースト:1`, `ヒート`).
pub fn weapon_text(w: &Weapon, lang: Lang) -> String {
    let mut s = format!(
        "{} POW {} {}-{}/{}",
        w.name, w.pow, w.range.optimal_min, w.range.optimal_max, w.range.max
    );
    for t in &w.traits {
        s.push(' ');
        s.push_str(&match t {
            WeaponTrait::AreaEffect => lang.pick("AE", "エリア・エフェクト").to_string(),
            WeaponTrait::Burst(x) => format!("{}:{x}", lang.pick("Burst", "バースト")),
            WeaponTrait::Blast => lang.pick("Blast", "ブラスト").to_string(),
            WeaponTrait::Heat => lang.pick("Heat", "ヒート").to_string(),
            WeaponTrait::Impact => lang.pick("Impact", "インパクト").to_string(),
            WeaponTrait::Melee => lang.pick("Melee", "メレー").to_string(),
        });
    }
    if let Some(r) = w.attack {
        s.push_str(&format!(" {}+", r.value()));
    }
    s
}

/// How `/char show` shows a declared field: the model by its name, a rating with its `+`, the
/// hits left of Hull and Structure as boxes.
pub fn dress(
    st: &super::gear::GearStatus,
    f: &crate::systems::sheet_decl::Field,
    typed: &str,
    lang: Lang,
) -> Option<String> {
    Some(match f.key {
        "model" => datacards::model(typed)
            .ok()
            .map_or_else(|| typed.to_string(), |m| format!("{} ({})", m.name(lang), m.key)),
        "attack" | "defence" | "initiative" => format!("{}+", typed.trim_end_matches('+')),
        "hull" => boxes(st.hull, st.hull_max),
        "structure" => boxes(st.structure, st.structure_max),
        // A name left as the model's (its datacard's English name) reads in the reader's
        // language; a name the player gave is theirs, as typed.
        "name" => datacards::MODELS
            .iter()
            .find(|m| m.en == typed)
            .map(|m| m.name(lang).to_string())?,
        _ => return None,
    })
}

/// `■■□ 2/3`: what is left of a maximum as boxes.
fn boxes(left: u32, max: u32) -> String {
    format!(
        "{}{} {left}/{max}",
        "■".repeat(left.min(max) as usize),
        "□".repeat(max.saturating_sub(left) as usize)
    )
}

/// The gear as `name: value` lines.
pub fn describe(sheet: &Value, lang: Lang) -> Vec<(String, String)> {
    let Ok(g) = <Gear as serde::Deserialize>::deserialize(sheet) else {
        return vec![(
            lang.pick("Stats", "能力値").to_string(),
            lang.pick(
                "(not a Badlands Rally gear)",
                "（Badlands Rallyのギアではありません）",
            )
            .to_string(),
        )];
    };
    let s = &g.sheet;
    let st = g.status();
    // The declared fields' rows; weapons, traits, upgrades and the rattle record are the
    // gear's (the model fills them), not fields as typed.
    let mut out = DECL.rows(sheet, lang, &|f, v| dress(&st, f, v, lang));
    if !s.weapons.is_empty() {
        let lines: Vec<String> = s
            .weapons
            .iter()
            .enumerate()
            .map(|(i, w)| format!("{}. {}", i + 1, weapon_text(w, lang)))
            .collect();
        out.push((lang.pick("Weapons", "武器").to_string(), lines.join("\n")));
    }
    if !s.traits.is_empty() {
        let t: Vec<&str> = s.traits.iter().map(|t| t.name(lang)).collect();
        out.push((lang.pick("Traits", "特性").to_string(), t.join(", ")));
    }
    if !s.upgrades.is_empty() {
        let u: Vec<String> = s
            .upgrades
            .iter()
            .map(|u| match u {
                Upgrade::Twins { weapon } => format!("{} ({})", u.name(lang), weapon + 1),
                other => other.name(lang).to_string(),
            })
            .collect();
        out.push((lang.pick("Upgrades", "アップグレード").to_string(), u.join(", ")));
    }
    out.push((
        lang.pick("Rattle record", "ラタルドの記録").to_string(),
        st.record(),
    ));
    out
}

/// The gear a stored sheet holds, if it is one; a session's sheet is read once per version of
/// it (see `Doc`).
pub fn read_gear(sheet: &impl ReadJson) -> Option<Gear> {
    sheet.read_once(|v: &Value| <Gear as serde::Deserialize>::deserialize(v).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(s: &str) -> Vec<(String, String)> {
        crate::systems::sheet::parse_fields(s).unwrap()
    }

    const BASE: &str = "attack=4+ defence=3+ initiative=4 mr=16 hits=2/1 ar=5";

    /// A gear not renamed shows its model's name in the reader's language; a given name as typed.
    #[test]
    fn the_models_name_reads_in_the_readers_language() {
        let row = |sheet: &Value, lang| {
            describe(sheet, lang)
                .into_iter()
                .find(|(k, _)| k == lang.pick("name", "名前"))
                .map(|(_, v)| v)
        };
        let g = edit(
            &Value::Object(Default::default()),
            &kv(&format!("{BASE} model=jerboa")),
        )
        .unwrap();
        assert_eq!(row(&g, Lang::En).as_deref(), Some("Rally Jerboa"));
        assert_eq!(
            row(&g, Lang::Ja).as_deref(),
            Some(datacards::model("jerboa").unwrap().name(Lang::Ja))
        );
        assert_ne!(row(&g, Lang::Ja).as_deref(), Some("Rally Jerboa"));
        let named = edit(&g, &kv("name=Hop")).unwrap();
        assert_eq!(row(&named, Lang::Ja).as_deref(), Some("Hop"));
    }

    #[test]
    fn japanese_field_names_write_the_same_gear() {
        // Issue 15: Rally fields were English-only.
        let empty = Value::Object(Default::default());
        let en = edit(
            &empty,
            &kv("name=Jerry attack=4+ defence=3+ initiative=4 mr=16 hull=2 structure=1 ar=5 weapon1=\"Rifle 6 3-6/12 burst:1 heat\" traits=brawler upgrades=speed_demon"),
        )
        .unwrap();
        let ja = edit(
            &empty,
            &kv("名前=Jerry 攻撃=4+ 防御=3+ イニシアチブ=4 移動力=16 ハル=2 ストラクチャー=1 アーマー=5 武器1=\"Rifle 6 3-6/12 バースト:1 ヒート\" 特性=brawler アップグレード=スピード・デーモン"),
        )
        .unwrap();
        assert_eq!(en, ja);
    }

    #[test]
    fn a_jerboa_gets_its_datacard_traits_and_weapons() {
        let v = edit(
            &serde_json::json!({}),
            &kv(&format!(
                r#"model=jerboa {BASE} weapon1="Rifle 6 3-6/12 burst:1" w2="Vibro Blade 5 1 melee 3+" upgrades=twins:2"#
            )),
        )
        .unwrap();
        let g: Gear = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(g.sheet.name, "Rally Jerboa");
        assert!(g.sheet.has(Trait::JumpJets));
        assert_eq!(g.sheet.defence.value(), 3);
        assert_eq!(g.sheet.weapons.len(), 2);
        assert_eq!(g.sheet.weapons[0].burst(), 1);
        assert_eq!(g.sheet.weapons[0].kind, WeaponKind::Rifle);
        assert!(g.sheet.weapons[1].is_melee());
        assert_eq!(
            parse_range("R"),
            Range::new(1, 1, 1).ok(),
            "R is reach: adjacent only"
        );
        assert_eq!(parse_range("r"), parse_range("1/1"));
        assert_eq!(g.sheet.weapons[1].range, Range::new(1, 1, 1).unwrap());
        assert_eq!(g.sheet.upgrades, vec![Upgrade::Twins { weapon: 1 }]);
        assert_eq!(g.state.hull, 2);
        let lines = describe(&v, Lang::En);
        assert!(lines.iter().any(|(_, v)| v.contains("Jump Jets")));
        assert!(
            lines
                .iter()
                .any(|(k, v)| k == "Hull/Structure" && v == "hull ■■ 2/2 · structure ■ 1/1"),
            "{lines:?}"
        );
        assert!(describe(&v, Lang::Ja).iter().any(|(k, _)| k == "武器"));
    }

    #[test]
    fn edits_keep_state_and_extra_traits() {
        let v = edit(&serde_json::json!({}), &kv(&format!("{BASE} traits=brawler"))).unwrap();
        let mut g: Gear = serde_json::from_value(v).unwrap();
        g.state.hull = 1;
        g.state.rattle_record = 2;
        let v = edit(&serde_json::to_value(&g).unwrap(), &kv("model=pitbull ar=6")).unwrap();
        let g2: Gear = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(g2.state.rattle_record, 2);
        assert_eq!(g2.sheet.ar, 6);
        assert!(g2.sheet.has(Trait::Brawler) && g2.sheet.has(Trait::HiTech));
        let v = edit(&v, &kv("reset=yes")).unwrap();
        let g3: Gear = serde_json::from_value(v).unwrap();
        assert_eq!(g3.state.rattle_record, 0);
        assert_eq!(g3.state.hull, 2);
    }

    #[test]
    fn emptying_a_weapon_slot_keeps_twins_on_its_weapon() {
        let v = edit(
            &serde_json::json!({}),
            &kv(&format!(
                r#"{BASE} w1="Rifle 6 3-6/12" w2="Vibro Blade 5 1 melee" w3="Autocannon 7 2-4/10" upgrades=twins:3"#
            )),
        )
        .unwrap();
        // Weapon 1 goes: the Autocannon becomes weapon 2 and Twins goes with it.
        let after = edit(&v, &kv(r#"w1="""#)).unwrap();
        let g: Gear = serde_json::from_value(after).unwrap();
        assert_eq!(g.sheet.weapons.len(), 2);
        assert_eq!(g.sheet.weapons[1].kind, WeaponKind::Autocannon);
        assert_eq!(g.sheet.upgrades, vec![Upgrade::Twins { weapon: 1 }]);
        // The twinned weapon itself cannot just be emptied.
        let e = edit(&v, &kv(r#"w3="""#)).unwrap_err();
        assert!(e.en.contains("Weapon 3 is paired by Twins"), "{}", e.en);
        assert!(e.ja.contains("ツインズ"));
        // Emptied together with the upgrade: fine.
        let ok = edit(&v, &kv(r#"w3="" upgrades="""#)).unwrap();
        let g: Gear = serde_json::from_value(ok).unwrap();
        assert_eq!(g.sheet.weapons.len(), 2);
        assert!(g.sheet.upgrades.is_empty());
    }

    #[test]
    fn bad_fields_are_clear_errors() {
        let e = |s: &str| edit(&serde_json::json!({}), &kv(s)).unwrap_err();
        assert!(e("attack=4").en.contains("defence"));
        assert!(
            e("attack=7 defence=3 initiative=4 mr=16 hits=2/1 ar=5")
                .en
                .contains("7+")
        );
        assert!(e(&format!("{BASE} model=atlas")).ja.contains("atlas"));
        assert!(e(&format!("{BASE} pilot=2")).en.contains("Unknown gear field"));
        assert!(
            e(&format!(r#"{BASE} weapon="Rifle 6 8-3/2""#))
                .en
                .contains("range")
        );
        assert!(e(&format!(r#"{BASE} weapon="Rifle x""#)).en.contains("POW"));
        assert!(e(&format!("{BASE} upgrades=twins:1")).en.contains("weapon"));
        assert!(
            e("attack=4 defence=3 initiative=4 mr=1000 hits=2/1 ar=5")
                .en
                .contains("between")
        );
        assert!(e(&format!("{BASE} traits=flying")).en.contains("trait"));
        let not_gear = edit(&serde_json::json!({"x": 1}), &kv(BASE)).unwrap_err();
        assert!(not_gear.en.contains("not a Badlands Rally gear"));
    }
}

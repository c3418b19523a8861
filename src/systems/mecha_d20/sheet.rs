//! A unit as players type it into `/char`: `key=value` fields in English or Japanese → a
//! validated [`Unit`] stored as the roster entry's JSON. The seed ships no suit or pilot data
//! (L23), so everything comes from here.
//!
//! | field (aliases) | value |
//! |---|---|
//! | `pilot` (パイロット) | the pilot's name, when it differs from the entry's |
//! | `judgement` (`judgment`, 判断力), `concentration` (集中力), `reaction` (反応力) | 0–30 |
//! | `tactics` (戦術), `shooting` (射撃), `melee` (格闘), `charge` (突撃), `evade` (`dodge`, 回避), `parry` (武器受け), `intercept` (迎撃) | 0–30 |
//! | `ap` (行動ポイント) | maximum AP 0–30 (AP left follows when it was full) |
//! | `ap_left` (残り行動ポイント), `fatigue` (疲労) | GM only |
//! | `spirit` (精神ポイント) | maximum spirit points 0–999 |
//! | `spirit_left` (残り精神ポイント), `fainted` (気絶: yes/no) | GM only |
//! | `squad` (部隊), `leader` (隊長: yes/no) | |
//! | `model` (`suit`, 機体) | the suit's name |
//! | `durability` (耐久度) | maximum durability 1–9999 (required) |
//! | `durability_left` (残り耐久度), `destroyed` (撃破: yes/no) | GM only |
//! | `armour` (`armor`, 装甲, 装甲値), `reactor` (反応炉) | 0–999 |
//! | `evasion` (回避力), `fire_control` (火器管制力), `accuracy` (命中), `escape_device` (脱出装置), `handling` (操縦難易度修正) | −30–30 |
//! | `propellant` (推進剤量) | maximum 0–999; `propellant_left` (残り推進剤) GM only |
//! | `movement` (移動力), `high_speed` (高速移動) | hexes 0–30 |
//! | `cockpit` (コクピット) | `multi` (多面モニター) or `all_round` (全周囲モニター) |
//! | `weapon`, `weapon1`…`weapon8` (`w1`, 兵器1, 武器1) | `NAME POWER [melee] [rN] [arc] [±mod] [mount] [fixed]`; empty removes |
//! | `reset` (`repair`, 修理) | `yes`: a fresh unit (GM only) |
//!
//! Weapon tokens: `melee`/`格闘` or `ranged`/`射撃`; `r3`/`range:3`/`射程3`; arcs
//! `front`/`正面`, `forward`/`前面`, `all_round`/`全周`, `rear`/`背面`; a modifier `+1`;
//! mounts `head`/`頭部`, `body`/`胴体`, `arm`/`腕`, `left_arm`/`左腕`, `right_arm`/`右腕`,
//! `leg`/`脚`, `left_leg`/`左脚`, `right_leg`/`右脚`; `fixed`/`固定` or `standard`/`標準`.

use crate::systems::field_names::{FieldNames, field_named};
use serde_json::Value;

use super::damage::parse_power;
use super::unit::{Arc, Category, Cockpit, Mount, Side, Unit, Weapon, WeaponKind, WeaponStatus};
use crate::i18n::{Lang, Localized};
use crate::systems::bounds::within;
use crate::systems::sheet_error::SheetError;

pub const MAX_WEAPONS: usize = 8;
const MAX_NAME_CHARS: usize = 40;

fn err(en: impl Into<String>, ja: impl Into<String>) -> SheetError {
    SheetError::new(en, ja)
}

fn number(key: &str, v: &str, min: i64, max: i64) -> Result<i64, SheetError> {
    let t = v.trim().replace('＋', "+").replace(['－', '−'], "-");
    let n: i64 = t.trim_start_matches('+').parse().map_err(|_| {
        err(
            format!("`{key}` needs a whole number, not `{v}`."),
            format!("`{key}` には整数を指定してください（`{v}` は使えません）。"),
        )
    })?;
    within(n, min, max, || {
        err(
            format!("`{key}` must be between {min} and {max}, not {n}."),
            format!("`{key}` は{min}〜{max}の範囲で指定してください（{n}は使えません）。"),
        )
    })?;
    Ok(n)
}

fn unsigned(key: &str, v: &str, max: u32) -> Result<u32, SheetError> {
    Ok(number(key, v, 0, i64::from(max))? as u32)
}

fn yes_no(key: &str, v: &str) -> Result<bool, SheetError> {
    match v.trim().to_lowercase().as_str() {
        "yes" | "y" | "true" | "on" | "1" | "はい" | "有" | "あり" => Ok(true),
        "no" | "n" | "false" | "off" | "0" | "いいえ" | "無" | "なし" | "" => Ok(false),
        _ => Err(err(
            format!("`{key}` is yes or no, not `{v}`."),
            format!("`{key}` は yes か no で指定してください（`{v}` は使えません）。"),
        )),
    }
}

fn text(key: &str, v: &str) -> Result<String, SheetError> {
    let t = v.trim();
    if t.chars().count() > MAX_NAME_CHARS {
        return Err(err(
            format!("`{key}` is at most {MAX_NAME_CHARS} characters."),
            format!("`{key}` は{MAX_NAME_CHARS}文字までです。"),
        ));
    }
    Ok(t.to_string())
}

/// Every field a sheet takes, by its stored key, with every name a player may type for it
/// (Japanese too); `/help` lists them.
pub const FIELD_NAMES: FieldNames = &[
    ("pilot", &["pilot", "パイロット"]),
    ("judgement", &["judgement", "judgment", "判断力"]),
    ("concentration", &["concentration", "集中力"]),
    ("reaction", &["reaction", "反応力"]),
    ("tactics", &["tactics", "戦術"]),
    ("shooting", &["shooting", "射撃"]),
    ("melee", &["melee", "格闘"]),
    ("charge", &["charge", "突撃"]),
    ("evade", &["evade", "dodge", "回避"]),
    ("parry", &["parry", "武器受け"]),
    ("intercept", &["intercept", "迎撃"]),
    ("ap", &["ap", "ap_max", "行動ポイント"]),
    ("ap_left", &["ap_left", "残り行動ポイント"]),
    ("fatigue", &["fatigue", "疲労"]),
    ("spirit", &["spirit", "spirit_max", "精神ポイント"]),
    ("spirit_left", &["spirit_left", "残り精神ポイント"]),
    ("fainted", &["fainted", "気絶"]),
    ("squad", &["squad", "部隊"]),
    ("leader", &["leader", "隊長", "隊長機"]),
    ("model", &["model", "suit", "機体", "兵装"]),
    ("durability", &["durability", "耐久度", "耐久力"]),
    ("durability_left", &["durability_left", "残り耐久度"]),
    ("destroyed", &["destroyed", "撃破"]),
    ("armour", &["armour", "armor", "装甲", "装甲値"]),
    ("evasion", &["evasion", "回避力"]),
    ("fire_control", &["fire_control", "火器管制力", "火器管制"]),
    ("accuracy", &["accuracy", "命中"]),
    ("reactor", &["reactor", "反応炉"]),
    ("propellant", &["propellant", "推進剤", "推進剤量"]),
    ("propellant_left", &["propellant_left", "残り推進剤"]),
    ("movement", &["movement", "move", "移動力", "通常移動"]),
    ("high_speed", &["high_speed", "高速移動"]),
    ("escape_device", &["escape_device", "escape", "脱出装置"]),
    ("handling", &["handling", "操縦難易度", "操縦難易度修正"]),
    ("cockpit", &["cockpit", "コクピット", "コックピット"]),
    ("reset", &["reset", "repair", "修理"]),
];

/// The canonical field a typed key means.
fn canonical(key: &str) -> Option<&'static str> {
    field_named(FIELD_NAMES, key)
}

/// Fields only the GM changes on an existing unit: what the rules track (points left, damage,
/// flags) and the full repair.
pub const GM_ONLY: &[&str] = &[
    "ap_left",
    "fatigue",
    "spirit_left",
    "fainted",
    "durability_left",
    "destroyed",
    "propellant_left",
    "reset",
];

pub fn gm_only(key: &str) -> bool {
    canonical(key).is_some_and(|c| GM_ONLY.contains(&c))
}

/// `weapon`, `weapon3`, `w3`, `兵器3`, `武器3` → the 0-based slot.
fn weapon_slot(key: &str) -> Option<usize> {
    let rest = ["weapon", "兵器", "武器", "w"]
        .iter()
        .find_map(|p| key.strip_prefix(p))?;
    if rest.is_empty() {
        return Some(0);
    }
    let n: usize = rest.parse().ok()?;
    (1..=MAX_WEAPONS).contains(&n).then(|| n - 1)
}

fn norm(t: &str) -> String {
    t.trim().to_lowercase().replace(['-', ' '], "_")
}

fn mount(t: &str) -> Option<Mount> {
    let arm = |side| Some(Mount::Arm { side });
    let leg = |side| Some(Mount::Leg { side });
    match t {
        "head" | "頭" | "頭部" => Some(Mount::Head),
        "body" | "torso" | "胴" | "胴体" => Some(Mount::Body),
        "arm" | "腕" => arm(None),
        "left_arm" | "arm:l" | "arm:left" | "左腕" => arm(Some(Side::Left)),
        "right_arm" | "arm:r" | "arm:right" | "右腕" => arm(Some(Side::Right)),
        "leg" | "脚" => leg(None),
        "left_leg" | "leg:l" | "leg:left" | "左脚" => leg(Some(Side::Left)),
        "right_leg" | "leg:r" | "leg:right" | "右脚" => leg(Some(Side::Right)),
        _ => None,
    }
}

fn arc(t: &str) -> Option<Arc> {
    match t {
        "front" | "正面" | "正面射界" => Some(Arc::Front),
        "forward" | "前面" | "前面射界" => Some(Arc::Forward),
        "all" | "all_round" | "全周" | "全周面" | "全周面射界" => Some(Arc::AllRound),
        "rear" | "背面" | "背面射界" => Some(Arc::Rear),
        _ => None,
    }
}

fn range_token(t: &str) -> Option<Option<u32>> {
    let rest = ["range:", "range", "射程:", "射程", "r"]
        .iter()
        .find_map(|p| t.strip_prefix(p))?;
    Some(rest.parse().ok())
}

/// `Beam Rifle 2d6+5 r3 front +1 right_arm standard` → a weapon.
pub fn parse_weapon(key: &str, v: &str) -> Result<Weapon, SheetError> {
    let bad = |en: &str, ja: &str| {
        err(
            format!(
                "`{key}`: {en} Write NAME POWER [melee] [rN] [arc] [±mod] [mount] [fixed], e.g. \"Beam Rifle 2d6+5 r3 +1 right_arm\"."
            ),
            format!(
                "`{key}`: {ja} 「名前 威力 [格闘] [射程N] [射界] [±修正] [部位] [固定]」の形で書いてください（例: \"ビームライフル 2d6+5 射程3 +1 右腕\"）。"
            ),
        )
    };
    let tokens: Vec<&str> = v.split([' ', '　', ';']).filter(|t| !t.is_empty()).collect();
    let at = tokens
        .iter()
        .position(|t| parse_power(t).is_ok())
        .ok_or_else(|| bad("no power such as 2d6+5.", "2d6+5 のような威力がありません。"))?;
    if at == 0 {
        return Err(bad("no name.", "名前がありません。"));
    }
    let name = tokens[..at].join(" ");
    if name.chars().count() > MAX_NAME_CHARS || name.parse::<usize>().is_ok() {
        return Err(bad(
            "the name is 1–40 characters and not a number.",
            "名前は1〜40文字で、数字だけにはできません。",
        ));
    }
    let power = parse_power(tokens[at]).map_err(|e| SheetError::from_localized(&e))?;
    let mut kind = None;
    let mut range = None;
    let mut weapon = Weapon {
        name,
        kind: WeaponKind::Ranged,
        power,
        range: 0,
        arc: Arc::Front,
        modifier: 0,
        mount: None,
        category: Category::Standard,
        status: WeaponStatus::Usable,
    };
    for raw in &tokens[at + 1..] {
        let lower = raw.to_lowercase().replace('＋', "+").replace(['－', '−'], "-");
        // A leading sign is a modifier; elsewhere `-` reads as `_` (left-arm).
        let t = if lower.starts_with(['+', '-']) {
            lower
        } else {
            lower.replace('-', "_")
        };
        if let Some(m) = mount(&t) {
            weapon.mount = Some(m);
        } else if let Some(a) = arc(&t) {
            weapon.arc = a;
        } else {
            match t.as_str() {
                "melee" | "格闘" => kind = Some(WeaponKind::Melee),
                "ranged" | "射撃" => kind = Some(WeaponKind::Ranged),
                "fixed" | "固定" | "固定武装" => weapon.category = Category::Fixed,
                "standard" | "標準" | "標準武装" => weapon.category = Category::Standard,
                _ if t.starts_with(['+', '-']) || t.starts_with("mod") || t.starts_with("修正") => {
                    let n = t.trim_start_matches("mod").trim_start_matches("修正");
                    weapon.modifier = number(key, n, -30, 30)?;
                }
                _ => match range_token(&t) {
                    Some(Some(r)) => {
                        range = Some(unsigned(key, &r.to_string(), 30)?);
                    }
                    _ => {
                        return Err(bad(
                            &format!("unknown word `{raw}`."),
                            &format!("「{raw}」は読めません。"),
                        ));
                    }
                },
            }
        }
    }
    weapon.kind = kind.unwrap_or(WeaponKind::Ranged);
    match (weapon.kind, range) {
        (WeaponKind::Melee, Some(_)) => {
            return Err(bad(
                "a melee weapon has no range (it reaches hex 0).",
                "格闘兵器に射程はありません（0ヘクスのみ）。",
            ));
        }
        (WeaponKind::Ranged, None) => {
            return Err(bad(
                "a ranged weapon needs its range (r3), or write melee.",
                "射撃兵器には射程（射程3など）が必要です。格闘兵器なら「格闘」と書いてください。",
            ));
        }
        (_, r) => weapon.range = r.unwrap_or(0),
    }
    Ok(weapon)
}

/// A unit is read from its stored sheet here, where the sheet's format lives (the unit module
/// does not import the sheet, so the two do not import each other).
impl Unit {
    /// Read a stored sheet (`name` for the error), as [`read`] does.
    pub fn read(sheet: &Value, name: &str) -> Result<Unit, super::error::RuleError> {
        read(sheet).map_err(|_| super::error::RuleError::BadSheet {
            name: name.to_string(),
        })
    }
}

/// Read a stored unit. A non-empty sheet with neither `pilot` nor `suit` was written before the
/// game had rules (free-form numbers and texts): its fields are read as if typed again.
pub fn read(sheet: &Value) -> Result<Unit, SheetError> {
    let not_unit = || {
        err(
            "This entry's stats are not a d20 mecha unit; remove it and add it again.",
            "この登録はd20メカのユニットではありません。削除して登録し直してください。",
        )
    };
    if let Some(m) = sheet.as_object()
        && !m.is_empty()
        && !m.contains_key("pilot")
        && !m.contains_key("suit")
    {
        let fields: Vec<(String, String)> = m
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v.as_str().map_or_else(|| v.to_string(), str::to_string),
                )
            })
            .collect();
        let v = edit(&Value::Object(serde_json::Map::new()), &fields)?;
        return serde_json::from_value(v).map_err(|_| not_unit());
    }
    serde::Deserialize::deserialize(sheet).map_err(|_| not_unit())
}

/// `current` (a stored unit, or `{}` for a new one) with `fields` applied and validated.
pub fn edit(current: &Value, fields: &[(String, String)]) -> Result<Value, SheetError> {
    let new = current.is_null() || current.as_object().is_some_and(|m| m.is_empty());
    let mut u = if new { Unit::default() } else { read(current)? };
    let old = u.clone();
    let mut durability_set = !new;
    let mut reset = false;
    let mut weapons: Vec<Option<Weapon>> = u.suit.weapons.iter().cloned().map(Some).collect();
    for (key, v) in fields {
        let key = key.as_str();
        if let Some(slot) = weapon_slot(key) {
            while weapons.len() <= slot {
                weapons.push(None);
            }
            weapons[slot] = if v.trim().is_empty() {
                None
            } else {
                let mut w = parse_weapon(key, v)?;
                // Re-entering a weapon under its name keeps its damage (a repair is `reset`).
                if let Some(prev) = old.suit.weapons.get(slot).filter(|p| p.name == w.name) {
                    w.status = prev.status;
                }
                Some(w)
            };
            continue;
        }
        let Some(field) = canonical(key) else {
            return Err(err(
                format!("Unknown unit field `{key}`."),
                format!("ユニットの項目「{key}」はありません。"),
            ));
        };
        let p = &mut u.pilot;
        let s = &mut u.suit;
        match field {
            "pilot" => p.name = text(key, v)?,
            "judgement" => p.judgement = number(key, v, 0, 30)?,
            "concentration" => p.concentration = number(key, v, 0, 30)?,
            "reaction" => p.reaction = number(key, v, 0, 30)?,
            "tactics" => p.tactics = number(key, v, 0, 30)?,
            "shooting" => p.shooting = number(key, v, 0, 30)?,
            "melee" => p.melee = number(key, v, 0, 30)?,
            "charge" => p.charge = number(key, v, 0, 30)?,
            "evade" => p.evade = number(key, v, 0, 30)?,
            "parry" => p.parry = number(key, v, 0, 30)?,
            "intercept" => p.intercept = number(key, v, 0, 30)?,
            "ap" => p.ap_max = unsigned(key, v, 30)?,
            "ap_left" => p.ap = unsigned(key, v, 30)?,
            "fatigue" => p.fatigue = unsigned(key, v, 30)?,
            "spirit" => p.spirit_max = unsigned(key, v, 999)?,
            "spirit_left" => p.spirit = unsigned(key, v, 999)?,
            "fainted" => p.fainted = yes_no(key, v)?,
            "squad" => p.squad = text(key, v)?,
            "leader" => p.leader = yes_no(key, v)?,
            "model" => s.model = text(key, v)?,
            "durability" => {
                s.durability_max = unsigned(key, v, 9999)?;
                if s.durability_max == 0 {
                    return Err(err(
                        "`durability` is at least 1.",
                        "`耐久度` は1以上で指定してください。",
                    ));
                }
                durability_set = true;
            }
            "durability_left" => s.durability = number(key, v, -9999, 9999)?,
            "destroyed" => s.destroyed = yes_no(key, v)?,
            "armour" => s.armour = unsigned(key, v, 999)?,
            "evasion" => s.evasion = number(key, v, -30, 30)?,
            "fire_control" => s.fire_control = number(key, v, -30, 30)?,
            "accuracy" => s.accuracy = number(key, v, -30, 30)?,
            "reactor" => s.reactor = unsigned(key, v, 999)?,
            "propellant" => s.propellant_max = unsigned(key, v, 999)?,
            "propellant_left" => s.propellant = unsigned(key, v, 999)?,
            "movement" => s.movement = unsigned(key, v, 30)?,
            "high_speed" => s.high_speed = unsigned(key, v, 30)?,
            "escape_device" => s.escape_device = number(key, v, -30, 30)?,
            "handling" => s.handling = number(key, v, -30, 30)?,
            "cockpit" => {
                s.cockpit = match norm(v).as_str() {
                    "multi" | "multi_monitor" | "多面" | "多面モニター" => Cockpit::MultiMonitor,
                    "all_round" | "allround" | "all" | "全周" | "全周囲" | "全周囲モニター" => {
                        Cockpit::AllRound
                    }
                    _ => {
                        return Err(err(
                            format!("`{key}` is multi or all_round, not `{v}`."),
                            format!("`{key}` は 多面モニター か 全周囲モニター です（`{v}` は使えません）。"),
                        ));
                    }
                }
            }
            "reset" => reset = yes_no(key, v)?,
            _ => {}
        }
    }
    if !durability_set {
        return Err(err(
            "A new unit needs its `durability` (耐久度).",
            "新しいユニットには `耐久度` (durability) が必要です。",
        ));
    }
    let set = |k: &str| fields.iter().any(|(f, _)| canonical(f) == Some(k));
    let was_full = |now: i64, max: i64| new || now == max;
    let (p, s) = (&mut u.pilot, &mut u.suit);
    // Points left follow a new maximum when they were full (or the unit is new).
    if !set("ap_left") && was_full(i64::from(old.pilot.ap), i64::from(old.pilot.ap_max)) {
        p.ap = p.ap_max;
    }
    if !set("spirit_left") && was_full(i64::from(old.pilot.spirit), i64::from(old.pilot.spirit_max)) {
        p.spirit = p.spirit_max;
    }
    if !set("durability_left") && was_full(old.suit.durability, i64::from(old.suit.durability_max)) {
        s.durability = i64::from(s.durability_max);
    }
    if !set("propellant_left") && was_full(i64::from(old.suit.propellant), i64::from(old.suit.propellant_max))
    {
        s.propellant = s.propellant_max;
    }
    let over = |key: &str, ja: &str, n: i64, max: i64| {
        within(n, i64::MIN, max, || {
            err(
                format!("`{key}` is at most its maximum, {max}, not {n}."),
                format!("`{ja}` は最大値{max}以下です（{n}は使えません）。"),
            )
        })
    };
    over(
        "ap_left",
        "残り行動ポイント",
        i64::from(p.ap),
        i64::from(p.ap_max),
    )?;
    over(
        "spirit_left",
        "残り精神ポイント",
        i64::from(p.spirit),
        i64::from(p.spirit_max),
    )?;
    over(
        "durability_left",
        "残り耐久度",
        s.durability,
        i64::from(s.durability_max),
    )?;
    over(
        "propellant_left",
        "残り推進剤",
        i64::from(s.propellant),
        i64::from(s.propellant_max),
    )?;
    s.weapons = weapons.into_iter().flatten().collect();
    for (i, w) in s.weapons.iter().enumerate() {
        if s.weapons[..i]
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(&w.name))
        {
            return Err(err(
                format!(
                    "Two weapons are called “{}”: weapons are named in attacks, so names must differ.",
                    w.name
                ),
                format!(
                    "「{}」という兵器が2つあります。攻撃で名前を使うので、別の名前にしてください。",
                    w.name
                ),
            ));
        }
    }
    if reset {
        u.repair();
    }
    Ok(u.to_value())
}

fn signed(n: i64) -> String {
    if n > 0 { format!("+{n}") } else { n.to_string() }
}

fn status_text(st: WeaponStatus, lang: Lang) -> Option<String> {
    match (st, lang) {
        (WeaponStatus::Usable, _) => None,
        (WeaponStatus::Malfunction { turn }, Lang::En) => Some(format!("malfunction in turn {turn}")),
        (WeaponStatus::Malfunction { turn }, Lang::Ja) => Some(format!("ターン{turn}は兵器不調")),
        (WeaponStatus::Destroyed { from }, Lang::En) => Some(format!("destroyed from turn {from}")),
        (WeaponStatus::Destroyed { from }, Lang::Ja) => Some(format!("ターン{from}から兵器破損")),
        (WeaponStatus::Lost { from }, Lang::En) => Some(format!("lost from turn {from}")),
        (WeaponStatus::Lost { from }, Lang::Ja) => Some(format!("ターン{from}から損失")),
    }
}

/// A weapon on one line: power, reach, arc, modifier, mount, category and status.
pub fn weapon_line(w: &Weapon, lang: Lang) -> String {
    let mut parts = vec![format!("{} {}", w.name, w.power)];
    let (min, max) = w.reach();
    parts.push(match (w.kind, lang) {
        (WeaponKind::Melee, _) => lang.pick("melee (hex 0)", "格闘（0ヘクス）").to_string(),
        (WeaponKind::Ranged, Lang::En) => format!("range {} (hexes {min}–{max})", w.range),
        (WeaponKind::Ranged, Lang::Ja) => format!("射程{}（{min}〜{max}ヘクス）", w.range),
    });
    if w.kind == WeaponKind::Ranged {
        parts.push(w.arc.name(lang).to_string());
    }
    if w.modifier != 0 {
        parts.push(signed(w.modifier));
    }
    if let Some(m) = w.mount {
        parts.push(m.name(lang));
    }
    parts.push(
        match w.category {
            Category::Fixed => lang.pick("fixed", "固定武装"),
            Category::Standard => lang.pick("standard", "標準武装"),
        }
        .to_string(),
    );
    let mut line = parts.join(" · ");
    if let Some(s) = status_text(w.status, lang) {
        line.push_str(&format!(" — **{s}**"));
    }
    line
}

fn now_of(base: i64, now: i64) -> String {
    if base == now {
        base.to_string()
    } else {
        format!("{base} → {now}")
    }
}

/// The unit as `name: value` lines, current values beside their bases.
pub fn describe(sheet: &Value, lang: Lang) -> Vec<(String, String)> {
    let u = match read(sheet) {
        Ok(u) => u,
        Err(e) => return vec![(lang.pick("Sheet", "シート").to_string(), e.localized(lang))],
    };
    let (p, s) = (&u.pilot, &u.suit);
    let l = |en: &str, ja: &str| lang.pick(en, ja).to_string();
    let mut out = Vec::new();
    if !p.name.is_empty() {
        out.push((l("Pilot", "パイロット"), p.name.clone()));
    }
    out.push((
        l("Abilities", "能力値"),
        format!(
            "{} {} · {} {} · {} {}",
            l("Judgement", "判断力"),
            p.judgement,
            l("Concentration", "集中力"),
            p.concentration,
            l("Reaction", "反応力"),
            p.reaction
        ),
    ));
    let skills = [
        (l("Tactics", "戦術"), p.tactics),
        (l("Shooting", "射撃"), p.shooting),
        (l("Melee", "格闘"), p.melee),
        (l("Charge", "突撃"), p.charge),
        (l("Evade", "回避"), p.evade),
        (l("Parry", "武器受け"), p.parry),
        (l("Intercept", "迎撃"), p.intercept),
    ];
    out.push((
        l("Skills", "技能"),
        skills
            .iter()
            .map(|(n, v)| format!("{n} {v}"))
            .collect::<Vec<_>>()
            .join(" · "),
    ));
    out.push((
        l("AP", "行動ポイント"),
        format!("{}/{} · {} {}", p.ap, p.ap_max, l("fatigue", "疲労"), p.fatigue),
    ));
    out.push((
        l("Spirit points", "精神ポイント"),
        format!("{}/{}", p.spirit, p.spirit_max),
    ));
    if !p.squad.is_empty() {
        let leader = if p.leader {
            l(" (leader)", "（隊長機）")
        } else {
            String::new()
        };
        out.push((l("Squad", "部隊"), format!("{}{leader}", p.squad)));
    }
    let mut badges = Vec::new();
    if s.destroyed {
        badges.push(l("💥 DESTROYED", "💥 撃破"));
    }
    match p.escaped {
        Some(true) => badges.push(l("🪂 escaped", "🪂 脱出成功")),
        Some(false) => badges.push(l("did not escape", "脱出失敗")),
        None => {}
    }
    if p.fainted {
        badges.push(l("😵 FAINTED", "😵 気絶"));
    }
    if s.wear.reactor_zero {
        badges.push(l("☢️ reactor 0", "☢️ 反応炉出力0"));
    }
    if !badges.is_empty() {
        out.push((l("Status", "状態"), badges.join(" · ")));
    }
    let mut suit = vec![s.cockpit.name(lang).to_string()];
    if !s.model.is_empty() {
        suit.insert(0, s.model.clone());
    }
    out.push((l("Suit", "兵装"), suit.join(" · ")));
    out.push((
        l("Durability", "耐久度"),
        format!("{}/{}", s.durability, s.durability_max),
    ));
    out.push((
        l(
            "Armour · evasion · fire control · accuracy",
            "装甲・回避力・火器管制力・命中",
        ),
        format!(
            "{} · {} · {} · {}",
            now_of(i64::from(s.armour), i64::from(s.armour_now())),
            now_of(s.evasion, s.evasion_now()),
            now_of(s.fire_control, s.fire_control_now()),
            now_of(s.accuracy, s.accuracy_now()),
        ),
    ));
    out.push((
        l("Movement", "移動力"),
        format!(
            "{} {} · {} {}",
            l("normal", "通常"),
            now_of(i64::from(s.movement), i64::from(s.movement_now())),
            l("high speed", "高速"),
            now_of(i64::from(s.high_speed), i64::from(s.high_speed_now())),
        ),
    ));
    out.push((
        l(
            "Reactor · propellant · escape device · handling",
            "反応炉・推進剤量・脱出装置・操縦難易度",
        ),
        format!(
            "{} · {}/{} · {} · {}",
            now_of(i64::from(s.reactor), i64::from(s.reactor_now())),
            s.propellant,
            s.propellant_max,
            now_of(s.escape_device, s.escape_device_now()),
            signed(s.handling),
        ),
    ));
    let w = &s.wear;
    if w.head > 0 || !w.arms.is_empty() || !w.legs.is_empty() {
        out.push((
            l("Parts destroyed", "部位破損"),
            format!(
                "{} {} · {} {} · {} {}",
                l("head", "頭部"),
                w.head,
                l("arms", "腕"),
                w.arms.len(),
                l("legs", "脚"),
                w.legs.len()
            ),
        ));
    }
    if !s.weapons.is_empty() {
        let lines: Vec<String> = s
            .weapons
            .iter()
            .enumerate()
            .map(|(i, w)| format!("{}. {}", i + 1, weapon_line(w, lang)))
            .collect();
        out.push((l("Weapons", "兵器"), lines.join("\n")));
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn kv(s: &str) -> Vec<(String, String)> {
        crate::systems::sheet::parse_fields(s).unwrap()
    }

    fn unit(v: &Value) -> Unit {
        read(v).unwrap()
    }

    const BASE: &str = r#"durability=20 armour=8 ap=5 spirit=10 squad=Blue leader=yes concentration=3 shooting=2 weapon1="Beam Rifle 2d6+5 r3 +1 right_arm""#;

    #[test]
    fn english_and_japanese_fields_build_the_same_unit() {
        let en = edit(&json!({}), &kv(BASE)).unwrap();
        let ja = edit(
            &json!({}),
            &kv("耐久度=20 装甲値=8 行動ポイント=5 精神ポイント=10 部隊=Blue 隊長=はい 集中力=3 射撃=2 兵器1=\"Beam Rifle 2d6+5 射程3 +1 右腕\""),
        )
        .unwrap();
        assert_eq!(en, ja);
        let u = unit(&en);
        assert_eq!(
            (u.suit.durability, u.suit.durability_max, u.suit.armour),
            (20, 20, 8)
        );
        assert_eq!((u.pilot.ap, u.pilot.spirit, u.pilot.leader), (5, 10, true));
        let w = &u.suit.weapons[0];
        assert_eq!(
            (w.range, w.modifier, w.power.to_string()),
            (3, 1, "2d6+5".to_string())
        );
        assert_eq!(
            w.mount,
            Some(Mount::Arm {
                side: Some(Side::Right)
            })
        );
    }

    #[test]
    fn weapons_read_every_token() {
        let w = parse_weapon("w", "Heat Hawk 1d6+8 melee fixed left_arm").unwrap();
        assert_eq!(
            (w.kind, w.range, w.category),
            (WeaponKind::Melee, 0, Category::Fixed)
        );
        assert_eq!(w.reach(), (0, 0));
        let w = parse_weapon("w", "Mega Particle Cannon 4d6 r5 forward -2 body fixed").unwrap();
        assert_eq!(
            (w.arc, w.modifier, w.mount),
            (Arc::Forward, -2, Some(Mount::Body))
        );
        assert_eq!(w.name, "Mega Particle Cannon");
        let w = parse_weapon("w", "バルカン 2d6 射程1 全周 頭部 固定").unwrap();
        assert_eq!((w.arc, w.mount), (Arc::AllRound, Some(Mount::Head)));
        assert!(weapon_line(&w, Lang::Ja).contains("射程1（0〜2ヘクス）"));
        let bad = |v: &str| parse_weapon("weapon1", v).unwrap_err();
        assert!(bad("Rifle").en.contains("no power"));
        assert!(bad("2d6 r3").en.contains("no name"));
        assert!(bad("Rifle 2d6").en.contains("needs its range"));
        assert!(bad("Sword 2d6 melee r1").ja.contains("格闘兵器に射程"));
        assert!(bad("Rifle 2d6 r3 sideways").en.contains("sideways"));
        assert!(bad("Rifle 2d6 r3 +31").en.contains("between -30 and 30"));
    }

    #[test]
    fn maxima_carry_points_left_when_full_and_edits_keep_damage() {
        let v = edit(&json!({}), &kv(BASE)).unwrap();
        let mut u = unit(&v);
        u.suit.durability = 7;
        u.pilot.ap = 2;
        u.suit.weapons[0].status = WeaponStatus::Destroyed { from: 3 };
        let v = edit(&u.to_value(), &kv("durability=25 ap=6 spirit=12")).unwrap();
        let u2 = unit(&v);
        assert_eq!(u2.suit.durability, 7, "damage stays");
        assert_eq!(u2.pilot.ap, 2, "AP left stays when it was not full");
        assert_eq!(u2.pilot.spirit, 12, "full spirit follows the maximum");
        // Re-entering the same weapon keeps its damage; a reset repairs everything.
        let v = edit(&v, &kv(r#"weapon1="Beam Rifle 2d6+6 r3""#)).unwrap();
        assert_eq!(
            unit(&v).suit.weapons[0].status,
            WeaponStatus::Destroyed { from: 3 }
        );
        let v = edit(&v, &kv("reset=yes")).unwrap();
        let u3 = unit(&v);
        assert_eq!((u3.suit.durability, u3.pilot.ap), (25, 6));
        assert_eq!(u3.suit.weapons[0].status, WeaponStatus::Usable);
        // Emptying a slot removes the weapon.
        let v = edit(&v, &kv(r#"weapon1="""#)).unwrap();
        assert!(unit(&v).suit.weapons.is_empty());
    }

    #[test]
    fn bad_fields_are_refused_in_both_languages_and_change_nothing() {
        let e = |s: &str| edit(&json!({}), &kv(s)).unwrap_err();
        assert!(e("armour=8").en.contains("durability"));
        assert!(e("armour=8").ja.contains("耐久度"));
        assert!(e("durability=0").en.contains("at least 1"));
        assert!(e("durability=10 armour=x").en.contains("whole number"));
        assert!(e("durability=10 judgement=31").ja.contains("0〜30"));
        assert!(e("durability=10 pilotname=x").en.contains("Unknown unit field"));
        assert!(e("durability=10 cockpit=glass").ja.contains("全周囲モニター"));
        assert!(e("durability=10 leader=maybe").en.contains("yes or no"));
        assert!(
            e("durability=10 ap=3 ap_left=4")
                .en
                .contains("at most its maximum")
        );
        assert!(
            e(r#"durability=10 w1="Gun 2d6 r2" w2="gun 1d6 r1""#)
                .en
                .contains("Two weapons")
        );
        let v = edit(&json!({}), &kv(BASE)).unwrap();
        assert!(edit(&v, &kv("armour=-1")).is_err());
        assert!(
            edit(&json!({"suit": 5}), &kv("armour=1"))
                .unwrap_err()
                .en
                .contains("not a d20 mecha unit")
        );
    }

    #[test]
    fn gm_only_fields_in_either_language() {
        for k in [
            "ap_left",
            "fatigue",
            "残り耐久度",
            "気絶",
            "destroyed",
            "reset",
            "修理",
        ] {
            assert!(gm_only(k), "{k}");
        }
        for k in ["ap", "armour", "weapon1", "", "精神ポイント"] {
            assert!(!gm_only(k), "{k}");
        }
    }

    #[test]
    fn the_description_shows_wear_status_and_weapons() {
        let v = edit(
            &json!({}),
            &kv(&format!("{BASE} cockpit=全周囲モニター model=\"RX\"")),
        )
        .unwrap();
        let mut u = unit(&v);
        u.suit.wear.armour = 3;
        u.suit.destroyed = true;
        u.pilot.fainted = true;
        u.suit.weapons[0].status = WeaponStatus::Malfunction { turn: 4 };
        let en = describe(&u.to_value(), Lang::En);
        let find = |k: &str| {
            en.iter()
                .find(|(n, _)| n.starts_with(k))
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        assert!(find("Armour").starts_with("8 → 5"));
        assert!(find("Status").contains("DESTROYED") && find("Status").contains("FAINTED"));
        assert!(find("Suit").contains("RX · all-round monitor"));
        assert!(find("Weapons").contains("malfunction in turn 4"));
        let ja = describe(&u.to_value(), Lang::Ja);
        assert!(ja.iter().any(|(_, v)| v.contains("ターン4は兵器不調")));
        assert_eq!(describe(&json!([1]), Lang::Ja)[0].0, "シート");
    }
}

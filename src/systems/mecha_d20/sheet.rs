//! A unit as players type it into `/char`: `key=value` fields in English or Japanese → a
//! validated [`Unit`] stored as the roster entry's JSON. The seed ships no suit or pilot data
//! (L23), so everything comes from here. The fields (names, ranges, who sets them, help) are
//! declared once in [`super::sheet_decl`]; the weapon grammar is [`super::weapon_sheet`].

use serde_json::Value;

use super::sheet_decl::DECL;
pub use super::sheet_decl::MAX_WEAPONS;
use super::unit::{Unit, Weapon};
use super::weapon_sheet::signed;
pub use super::weapon_sheet::{parse_weapon, weapon_line};
use crate::i18n::{Lang, Localized};
use crate::session::ReadJson;
use crate::systems::bounds::within;
use crate::systems::sheet_decl::yes_no;
use crate::systems::sheet_error::SheetError;

fn err(en: impl Into<String>, ja: impl Into<String>) -> SheetError {
    SheetError::new(en, ja)
}

/// The declared field's key a typed name means.
fn canonical(key: &str) -> Option<&'static str> {
    DECL.field(key).map(|f| f.key)
}

/// A unit is read from its stored sheet here, where the sheet's format lives (the unit module
/// does not import the sheet, so the two do not import each other).
impl Unit {
    /// Read a stored sheet (`name` for the error), as [`read`] does.
    pub fn read(sheet: &impl ReadJson, name: &str) -> Result<Unit, super::error::RuleError> {
        read(sheet).map_err(|_| super::error::RuleError::BadSheet {
            name: name.to_string(),
        })
    }
}

/// Read a stored unit. A non-empty sheet with neither `pilot` nor `suit` was written before the
/// game had rules (free-form numbers and texts): its fields are read as if typed again.
/// [`read_value`] of a stored sheet; a session's sheet is read once per version of it.
pub fn read(sheet: &impl ReadJson) -> Result<Unit, SheetError> {
    sheet.read_once(read_value)
}

/// The unit a stored sheet holds (see [`read`]).
pub fn read_value(sheet: &Value) -> Result<Unit, SheetError> {
    let not_unit = || {
        err(
            "This entry's stats are not a d20 mecha unit; remove it and add it again.",
            "この登録はd20メカのユニットではありません。削除して登録し直してください。",
        )
    };
    if let Some(m) = sheet.as_object().filter(|_| is_untyped(sheet)) {
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

/// A sheet written before the game had rules: a non-empty object with neither `pilot` nor
/// `suit` (see [`read`]).
pub fn is_untyped(sheet: &Value) -> bool {
    sheet
        .as_object()
        .is_some_and(|m| !m.is_empty() && !m.contains_key("pilot") && !m.contains_key("suit"))
}

/// `current` (a stored unit, or `{}` for a new one) with `fields` applied and validated.
pub fn edit(current: &Value, fields: &[(String, String)]) -> Result<Value, SheetError> {
    let new = current.is_null() || current.as_object().is_some_and(|m| m.is_empty());
    let u = if new { Unit::default() } else { read(current)? };
    let old = u.clone();
    let mut doc = u.to_value();
    let mut cockpit = None;
    let mut reset = false;
    let mut weapons: Vec<Option<Weapon>> = u.suit.weapons.iter().cloned().map(Some).collect();
    for (key, v) in fields {
        let key = key.as_str();
        if let Some(slot) = DECL.weapons.as_ref().and_then(|w| w.slot(key)) {
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
        let Some(f) = DECL.field(key) else {
            return Err(err(
                format!("Unknown unit field `{key}`."),
                format!("ユニットの項目「{key}」はありません。"),
            ));
        };
        // Numbers, texts and yes/no go through the declaration's one assignment; the cockpit
        // is an enum spelled otherwise than its choice, `reset` an action.
        if f.key != "cockpit" && DECL.assign(f, key, v, &mut doc)? {
            continue;
        }
        match f.key {
            "cockpit" => {
                cockpit = Some(match f.choice(key, v)? {
                    "all_round" => super::unit::Cockpit::AllRound,
                    _ => super::unit::Cockpit::MultiMonitor,
                })
            }
            "reset" => reset = yes_no(key, v)?,
            _ => {}
        }
    }
    let mut u: Unit = serde_json::from_value(doc).map_err(|e| {
        err(
            format!("The unit does not read back: {e}."),
            format!("ユニットを読み直せません: {e}。"),
        )
    })?;
    if let Some(c) = cockpit {
        u.suit.cockpit = c;
    }
    if new {
        let missing = DECL.missing(fields);
        if !missing.is_empty() {
            return Err(DECL.missing_error(&missing, ("unit", "ユニット")));
        }
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

fn now_of(base: i64, now: i64) -> String {
    if base == now {
        base.to_string()
    } else {
        format!("{base} → {now}")
    }
}

/// How `/char show` and the board show a declared field: a maximum with what is left of it,
/// a suit's value with what its damage leaves (`8 → 6`), the handling signed.
pub fn dress(u: &Unit, f: &crate::systems::sheet_decl::Field, lang: Lang) -> Option<String> {
    let (p, s) = (&u.pilot, &u.suit);
    Some(match f.key {
        "durability" => format!("{}/{}", s.durability, s.durability_max),
        "ap" => format!("{}/{}", p.ap, p.ap_max),
        "spirit" => format!("{}/{}", p.spirit, p.spirit_max),
        "propellant" => format!("{}/{}", s.propellant, s.propellant_max),
        "armour" => now_of(i64::from(s.armour), i64::from(s.armour_now())),
        "evasion" => now_of(s.evasion, s.evasion_now()),
        "fire_control" => now_of(s.fire_control, s.fire_control_now()),
        "accuracy" => now_of(s.accuracy, s.accuracy_now()),
        "reactor" => now_of(i64::from(s.reactor), i64::from(s.reactor_now())),
        "movement" => now_of(i64::from(s.movement), i64::from(s.movement_now())),
        "high_speed" => now_of(i64::from(s.high_speed), i64::from(s.high_speed_now())),
        "escape_device" => now_of(s.escape_device, s.escape_device_now()),
        "handling" => signed(s.handling),
        "cockpit" => s.cockpit.name(lang).to_string(),
        _ => return None,
    })
}

/// The unit as `name: value` lines, current values beside their bases.
pub fn describe(sheet: &Value, lang: Lang) -> Vec<(String, String)> {
    let u = match read(sheet) {
        Ok(u) => u,
        Err(e) => return vec![(lang.pick("Sheet", "シート").to_string(), e.localized(lang))],
    };
    let (p, s) = (&u.pilot, &u.suit);
    let l = |en: &str, ja: &str| lang.pick(en, ja).to_string();
    // The declared fields' rows; the escape, parts destroyed and weapons are the unit's state.
    let mut out = DECL.rows(sheet, lang, &|f, _| dress(&u, f, lang));
    let mut badges = Vec::new();
    match p.escaped {
        Some(true) => badges.push(l("🪂 escaped", "🪂 脱出成功")),
        Some(false) => badges.push(l("did not escape", "脱出失敗")),
        None => {}
    }
    if s.wear.reactor_zero {
        badges.push(l("☢️ reactor 0", "☢️ 反応炉出力0"));
    }
    if !badges.is_empty() {
        out.push((l("Pilot and reactor", "パイロット・反応炉"), badges.join(" · ")));
    }
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

    use super::super::unit::{Arc, Category, Mount, Side, WeaponKind, WeaponStatus};
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
        assert!(e("durability=0").en.contains("between 1 and 9999"));
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
            assert!(DECL.gm_only(k), "{k}");
        }
        for k in ["ap", "armour", "weapon1", "", "精神ポイント"] {
            assert!(!DECL.gm_only(k), "{k}");
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
        assert!(find("Armour").starts_with("armour 8 → 5 · "), "{en:?}");
        assert!(find("Status").contains("fainted") && find("Status").contains("destroyed"));
        assert!(find("Suit").starts_with("model RX · durability "), "{en:?}");
        assert!(find("Suit").ends_with("cockpit all-round monitor"), "{en:?}");
        assert!(find("Weapons").contains("malfunction in turn 4"));
        let ja = describe(&u.to_value(), Lang::Ja);
        assert!(ja.iter().any(|(_, v)| v.contains("ターン4は兵器不調")));
        assert_eq!(describe(&json!([1]), Lang::Ja)[0].0, "シート");
    }
}

//! A character as players type it into `/char`: `key=value` fields in English or Japanese →
//! a validated [`Character`] stored as the roster entry's JSON.
//!
//! | field (aliases) | value |
//! |---|---|
//! | `side` (`player`, 陣営, サイド) | the side it fights for (required) |
//! | `profile` (`model`, プロフィール) | a §2 (or session) profile: its stats, specials and armament; applied before the other fields |
//! | `skill` (スキル), `resolution` (レゾリューション) | a ladder die `d4`…`d20`; empty: unset |
//! | `armour` (`armor`, アーマー) | 2–20 (`4+` reads as 4); required without a profile |
//! | `command` (コマンド), `damage_limit` (損傷限界値) | 0–10 (0: none) |
//! | `mindless` (マインドレス), `ill_be_back` (アイルビーバック), `slow` (低速), `unique` | yes/no |
//! | `flags` (`specials`, フラグ, スペシャル) | named-only specials: `vehicle vtol size(2) transport(6)`; empty clears |
//! | `weapon`, `weapon1`…`weapon8` (`w1`, 武器1) | see [`super::weapon::parse`]; empty removes |
//! | `ready` (レディ), `reeling` (リーリング), `crawler` (クローラー), `moved` (移動済み) | yes/no, GM only |
//! | `done` (ダン), `damage` (損傷) | 0–10, GM only |
//! | `removed` (除去) | `no`, `killed` (撃破), `retreated` (撤退), GM only |
//! | `reset` (リセット) | `yes`: markers, damage and ammo cleared, GM only |

use serde_json::Value;

use super::character::{Character, Removal};
use super::dice::Die;
use super::profile::{Flag, Library, Profile};
use super::weapon::{self, Weapon};
use crate::i18n::{Lang, Localized};
use crate::session::ReadJson;
use crate::systems::bounds::within;
use crate::systems::sheet_error::SheetError;

use super::sheet_decl::DECL;
pub use super::sheet_decl::MAX_WEAPONS;
const MAX_TEXT_CHARS: usize = 40;

fn err(en: impl Into<String>, ja: impl Into<String>) -> SheetError {
    SheetError::new(en, ja)
}

fn number(key: &str, v: &str, min: i64, max: i64) -> Result<u32, SheetError> {
    let t = v.trim().trim_end_matches(['+', '＋']);
    let n: i64 = t.parse().map_err(|_| {
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
    Ok(n as u32)
}

/// A number for the declared field `field` (typed as `key`), within its declared range.
fn declared(field: &str, key: &str, v: &str) -> Result<u32, SheetError> {
    match DECL.get(field).kind {
        crate::systems::sheet_decl::Kind::Int { min, max } => number(key, v, min, max),
        _ => number(key, v, 0, i64::from(u32::MAX)),
    }
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

fn die(key: &str, v: &str) -> Result<Option<Die>, SheetError> {
    if v.trim().is_empty() {
        return Ok(None);
    }
    Die::parse(v).map(Some).map_err(|_| {
        err(
            format!("`{key}` is a die of the ladder (d4, d6, d8, d10, d12, d20), not `{v}`."),
            format!(
                "`{key}` はダイス（d4, d6, d8, d10, d12, d20）で指定してください（`{v}` は使えません）。"
            ),
        )
    })
}

fn text(key: &str, v: &str) -> Result<String, SheetError> {
    let t = v.trim();
    if t.is_empty() || t.chars().count() > MAX_TEXT_CHARS {
        return Err(err(
            format!("`{key}` is 1–{MAX_TEXT_CHARS} characters."),
            format!("`{key}` は1〜{MAX_TEXT_CHARS}文字です。"),
        ));
    }
    Ok(t.to_string())
}

/// The canonical field a typed key means.
fn canonical(key: &str) -> Option<&'static str> {
    DECL.field(key).map(|f| f.key)
}

/// A character is read from its stored sheet here, where the sheet's format lives (the character
/// module does not import the sheet, so the two do not import each other).
impl Character {
    pub fn read(sheet: &impl ReadJson, name: &str) -> Result<Character, super::error::RuleError> {
        read(sheet).map_err(|_| super::error::RuleError::BadSheet {
            name: name.to_string(),
        })
    }
}

/// Read a stored character. A non-empty sheet without `stats` was written while Terminator was
/// free-form: its fields are read as if typed again.
/// [`read_value`] of a stored sheet; a session's sheet is read once per version of it.
pub fn read(sheet: &impl ReadJson) -> Result<Character, SheetError> {
    sheet.read_once(read_value)
}

/// The character a stored sheet holds (see [`read`]).
pub fn read_value(sheet: &Value) -> Result<Character, SheetError> {
    let not_character = || {
        err(
            "This entry's stats are not a Terminator Genisys character; remove it and add it again.",
            "この登録はターミネーター ジェニシスのキャラクターではありません。削除して登録し直してください。",
        )
    };
    if let Some(m) = sheet.as_object()
        && !m.is_empty()
        && !m.contains_key("stats")
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
        return serde_json::from_value(v).map_err(|_| not_character());
    }
    serde::Deserialize::deserialize(sheet).map_err(|_| not_character())
}

/// [`edit_with`] against §2's profiles and armoury.
pub fn edit(current: &Value, fields: &[(String, String)]) -> Result<Value, SheetError> {
    edit_with(current, fields, &Library::shipped())
}

/// `current` (a stored character, or `{}` for a new one) with `fields` applied and validated;
/// profiles and weapons are looked up in `lib` (the session's own first).
pub fn edit_with(current: &Value, fields: &[(String, String)], lib: &Library) -> Result<Value, SheetError> {
    let new = current.is_null() || current.as_object().is_some_and(|m| m.is_empty());
    let mut c = if new {
        Character::new("", Profile::new("", "", 0))
    } else {
        read(current)?
    };
    // The profile first, whatever the order typed: the other fields override it.
    if let Some((key, v)) = fields.iter().find(|(k, _)| canonical(k) == Some("profile")) {
        let p = lib.profile(v).ok_or_else(|| {
            let names = lib.names().join(", ");
            err(
                format!("`{key}`: no profile called “{v}”. Profiles: {names}."),
                format!("`{key}`: 「{v}」というプロフィールはありません。プロフィール: {names}"),
            )
        })?;
        c.stats = p.clone();
        // A profile typed in is the one fielded from now on, a Crawler's included.
        c.fielded = None;
    }
    // Numbers and yes/no go through the declaration's one assignment first; the side (never
    // empty), the armour (`4+`), the dice, the flags and the removal (`no` is none) are this
    // system's own below.
    let mut doc = c.to_value();
    let mut assigned = Vec::new();
    for (key, v) in fields {
        if let Some(f) = DECL
            .field(key)
            .filter(|f| !matches!(f.key, "side" | "armour" | "removed"))
            && DECL.assign(f, key, v, &mut doc)?
        {
            assigned.push(f.key);
        }
    }
    let mut c: Character = serde_json::from_value(doc).map_err(|e| {
        err(
            format!("The character does not read back: {e}."),
            format!("キャラクターを読み直せません: {e}。"),
        )
    })?;
    let mut weapons: Vec<Option<Weapon>> = c.stats.weapons.iter().cloned().map(Some).collect();
    let slot_of = |key: &str| DECL.weapons.as_ref().and_then(|w| w.slot(key));
    let typed_slots: Vec<usize> = fields.iter().filter_map(|(k, _)| slot_of(k)).collect();
    let mut reset = false;
    for (key, v) in fields {
        let key = key.as_str();
        if let Some(slot) = slot_of(key) {
            while weapons.len() <= slot {
                weapons.push(None);
            }
            if v.trim().is_empty() {
                weapons[slot] = None;
                continue;
            }
            let w = weapon::parse(key, v, lib.weapons)?;
            // A weapon the character already carries in a slot not typed now (a profile's
            // built-in one) is overridden where it is, whatever slot names it.
            let same = weapons
                .iter()
                .position(|o| o.as_ref().is_some_and(|o| o.name.eq_ignore_ascii_case(&w.name)));
            let at = same
                .filter(|j| *j != slot && !typed_slots.contains(j))
                .unwrap_or(slot);
            weapons[at] = Some(w);
            continue;
        }
        let Some(field) = canonical(key) else {
            return Err(err(
                format!("Unknown character field `{key}`."),
                format!("キャラクターの項目「{key}」はありません。"),
            ));
        };
        if assigned.contains(&field) {
            continue;
        }
        let s = &mut c.stats;
        match field {
            "side" => c.side = text(key, v)?,
            "skill" => s.skill = die(key, v)?,
            "armour" => s.armour = declared("armour", key, v)?,
            "resolution" => s.resolution = die(key, v)?,
            "flags" => {
                s.flags = v
                    .split([',', ' ', '、', '　'])
                    .filter(|t| !t.is_empty())
                    .map(|t| {
                        Flag::parse(t).ok_or_else(|| {
                            err(
                                format!("`{key}`: `{t}` is not a special of the tables (vehicle, vtol, size(2), transport(6), …)."),
                                format!("`{key}`: 「{t}」は表のスペシャルではありません（ビークル、ＶＴＯＬ、サイズ(2)、輸送車(6)…）。"),
                            )
                        })
                    })
                    .collect::<Result<_, _>>()?;
            }
            "removed" if v.trim().is_empty() => c.removed = None,
            "removed" => {
                c.removed = match DECL.get("removed").choice(key, v)? {
                    "killed" => Some(Removal::Killed),
                    "retreated" => Some(Removal::Retreated),
                    _ => None,
                }
            }
            "reset" => reset = yes_no(key, v)?,
            _ => {}
        }
    }
    if c.side.is_empty() {
        return Err(err(
            "A new character needs its `side` (陣営): the player it fights for.",
            "新しいキャラクターには `陣営` (side) が必要です。",
        ));
    }
    if c.stats.armour == 0 {
        return Err(err(
            "A new character needs a `profile` or its `armour` (アーマー).",
            "新しいキャラクターには `プロフィール` か `アーマー` が必要です。",
        ));
    }
    if c.stats.name.is_empty() {
        c.stats.name = "Custom".to_string();
        c.stats.ja = "カスタム".to_string();
    }
    c.stats.weapons = weapons.into_iter().flatten().collect();
    for (i, w) in c.stats.weapons.iter().enumerate() {
        if c.stats.weapons[..i]
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(&w.name))
        {
            return Err(err(
                format!(
                    "Two weapons are called “{}”: attacks name weapons, so names must differ.",
                    w.name
                ),
                format!(
                    "「{}」という武器が2つあります。攻撃で名前を使うので、別の名前にしてください。",
                    w.name
                ),
            ));
        }
    }
    if reset {
        c.clear_markers();
    }
    Ok(c.to_value())
}

fn die_text(d: Option<Die>, lang: Lang) -> String {
    d.map_or_else(|| lang.pick("unset", "未設定").to_string(), |d| d.to_string())
}

/// The status badges the board shows: Ready/Done markers, Reeling, removal, Crawler, damage.
pub fn badges(c: &Character, lang: Lang) -> Vec<String> {
    let l = |en: &str, ja: &str| lang.pick(en, ja).to_string();
    let mut out = Vec::new();
    match c.removed {
        Some(Removal::Killed) => out.push(l("💀 KILLED", "💀 戦闘不能")),
        Some(Removal::Retreated) => out.push(l("🏳️ RETREATED", "🏳️ 撤退")),
        None => {}
    }
    if c.crawler {
        out.push(l("🦾 Crawler", "🦾 クローラー"));
    }
    // Off the battlefield: markers mean nothing there (a sheet may still hold some).
    if c.removed.is_some() {
        return out;
    }
    if c.ready {
        out.push(l("🟢 Ready", "🟢 レディ"));
    }
    if c.done > 0 {
        out.push(format!("{} ×{}", l("☑️ Done", "☑️ ダン"), c.done));
    }
    if c.reeling {
        out.push(l("💫 REELING", "💫 リーリング"));
    }
    if c.stats.damage_limit > 0 && c.damage > 0 {
        out.push(format!(
            "{} {}/{}",
            l("damage", "損傷"),
            c.damage,
            c.stats.damage_limit
        ));
    }
    out
}

/// How `/char show` and the board show a declared field: dice as dice, the armour as its
/// save, the damage out of its limit, a removal as its badge.
pub fn dress(
    c: &Character,
    f: &crate::systems::sheet_decl::Field,
    _typed: &str,
    lang: Lang,
) -> Option<String> {
    let s = &c.stats;
    Some(match f.key {
        "skill" => die_text(s.skill, lang),
        "resolution" => die_text(s.resolution, lang),
        "armour" => format!("{}+", s.armour),
        "damage" if s.damage_limit > 0 => format!("{}/{}", c.damage, s.damage_limit),
        _ => return None,
    })
}

/// The character as `name: value` lines.
pub fn describe(sheet: &Value, lang: Lang) -> Vec<(String, String)> {
    let c = match read(sheet) {
        Ok(c) => c,
        Err(e) => return vec![(lang.pick("Sheet", "シート").to_string(), e.localized(lang))],
    };
    let l = |en: &str, ja: &str| lang.pick(en, ja).to_string();
    let s = &c.stats;
    // The declared fields' rows; the profile, its specials and the weapons with their ammo are
    // what the profile gives, not fields as typed.
    let mut out = DECL.rows(sheet, lang, &|f, v| dress(&c, f, v, lang));
    out.insert(
        out.iter()
            .position(|(k, _)| *k == DECL.get("side").label(lang))
            .map_or(0, |i| i + 1),
        (l("Profile", "プロフィール"), s.display_name(lang)),
    );
    let specials = s.specials(lang);
    if !specials.is_empty() {
        out.push((l("Specials", "スペシャル"), specials.join(" · ")));
    }
    if !s.weapons.is_empty() {
        let lines: Vec<String> = s
            .weapons
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let used = c
                    .ammo_used
                    .get(&w.name)
                    .filter(|_| w.limited_ammo.is_some())
                    .map(|n| format!(" — {} {n}", lang.pick("fired", "射撃済み")))
                    .unwrap_or_default();
                format!("{}. {}{used}", i + 1, w.line(lang))
            })
            .collect();
        out.push((l("Weapons", "武器"), lines.join("\n")));
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

    fn character(v: &Value) -> Character {
        read(v).unwrap()
    }

    #[test]
    fn a_profile_fills_the_sheet_and_fields_override_it_in_either_language() {
        let en = edit(
            &json!({}),
            &kv(r#"side=Skynet profile=Endoskeleton skill=d8 weapon2="Plasma gun d10""#),
        )
        .unwrap();
        let ja = edit(
            &json!({}),
            &kv(r#"陣営=Skynet スキル=D8 プロフィール=エンドスケルトン 武器2="プラズマガン d10""#),
        )
        .unwrap();
        assert_eq!(en, ja, "the profile applies first whatever the order");
        let c = character(&en);
        assert_eq!(
            (c.stats.skill, c.stats.armour, c.stats.resolution),
            (Some(Die::D8), 8, Some(Die::D20))
        );
        assert!(c.stats.mindless && c.stats.ill_be_back);
        assert_eq!(c.stats.weapons[1].power, Some(Die::D10));
        assert_eq!(c.stats.weapons[0].name, "Terminator claw");
    }

    /// Issue 29: a slot typed with a built-in weapon's name overrides that weapon where it is
    /// (no "two weapons are called Plasma gun"); slots typed together still take their places.
    #[test]
    fn a_built_in_weapon_is_overridden_whatever_slot_names_it() {
        let weapons = |fields: &str| -> Vec<(String, Option<Die>)> {
            let v = edit(
                &json!({}),
                &kv(&format!("side=Skynet profile=Endoskeleton {fields}")),
            )
            .unwrap();
            character(&v)
                .stats
                .weapons
                .iter()
                .map(|w| (w.name.clone(), w.power))
                .collect()
        };
        let claw_plasma = |claw, plasma| {
            vec![
                ("Terminator claw".to_string(), claw),
                ("Plasma gun".to_string(), plasma),
            ]
        };
        assert_eq!(
            weapons(r#"w1="Plasma gun d10""#),
            claw_plasma(None, Some(Die::D10))
        );
        assert_eq!(
            weapons(r#"weapon="プラズマガン d12""#),
            claw_plasma(None, Some(Die::D12))
        );
        assert_eq!(
            weapons(r#"w1="Terminator claw d8" w2="Plasma gun d10""#),
            claw_plasma(Some(Die::D8), Some(Die::D10))
        );
        assert_eq!(
            weapons(r#"w2="Terminator claw d6""#),
            vec![
                ("Terminator claw".to_string(), Some(Die::D6)),
                ("Plasma gun".to_string(), None)
            ],
            "w2 names the claw: the claw is overridden, the plasma gun stays"
        );
        // Both slots typed: each goes where it is typed.
        assert_eq!(
            weapons(r#"w1="Plasma gun d10" w2="Pistol d6""#),
            vec![
                ("Plasma gun".to_string(), Some(Die::D10)),
                ("Pistol".to_string(), Some(Die::D6))
            ]
        );
        // A new weapon in a free slot is added; one typed twice in one edit is still refused.
        assert_eq!(weapons(r#"w3="Pistol d6""#).len(), 3);
        let e = edit(
            &json!({}),
            &kv(r#"side=Skynet profile=Endoskeleton w3="Pistol d6" w4="Pistol d8""#),
        )
        .unwrap_err();
        assert!(e.en.contains("Two weapons"), "{}", e.en);
        // On a stored character too: the edit overrides, the rest stays.
        let v = edit(
            &json!({}),
            &kv(r#"side=Skynet profile=Endoskeleton w1="Terminator claw d8""#),
        )
        .unwrap();
        let v = edit(&v, &kv(r#"w1="Plasma gun d10""#)).unwrap();
        let c = character(&v);
        assert_eq!(
            (c.stats.weapons[0].power, c.stats.weapons[1].power),
            (Some(Die::D8), Some(Die::D10))
        );
    }

    #[test]
    fn a_custom_character_needs_a_side_and_armour() {
        let v = edit(
            &json!({}),
            &kv("side=Resistance armour=4+ resolution=d6 command=2 flags=\"vehicle size(2)\" w1=\"Laser cc d6\""),
        )
        .unwrap();
        let c = character(&v);
        assert_eq!(
            (c.stats.armour, c.stats.command, c.stats.name.as_str()),
            (4, 2, "Custom")
        );
        assert_eq!(c.stats.flags, vec![Flag::Vehicle, Flag::Size(2)]);
        let e = |s: &str| edit(&json!({}), &kv(s)).unwrap_err();
        assert!(e("armour=4").en.contains("side"));
        assert!(e("side=A").ja.contains("アーマー"));
        assert!(e("side=A armour=1").en.contains("between 2 and 20"));
        assert!(e("side=A armour=21").en.contains("between 2 and 20"));
        assert!(e("side=A armour=4 skill=d7").en.contains("ladder"));
        assert!(e("side=A armour=4 command=11").ja.contains("0〜10"));
        assert!(e("side=A profile=Predator").en.contains("no profile"));
        assert!(e("side=A armour=4 flags=flying").en.contains("not a special"));
        assert!(
            e("side=A armour=4 colour=red")
                .en
                .contains("Unknown character field")
        );
        assert!(
            e("side=A armour=4 removed=maybe")
                .en
                .contains("killed or retreated")
        );
        assert!(
            e(r#"side=A armour=4 w1="Pistol" w2="pistol""#)
                .en
                .contains("Two weapons")
        );
    }

    #[test]
    fn edits_keep_markers_until_reset_and_refusals_change_nothing() {
        let v = edit(
            &json!({}),
            &kv("side=Resistance profile=SWAT skill=d6 resolution=d8"),
        )
        .unwrap();
        let v = edit(&v, &kv("done=2 reeling=yes damage=1")).unwrap();
        let c = character(&v);
        assert_eq!((c.done, c.reeling, c.damage), (2, true, 1));
        // A refused edit returns an error and the stored value is untouched by construction.
        assert!(edit(&v, &kv("done=11")).is_err());
        let v2 = edit(&v, &kv("skill=d8")).unwrap();
        assert_eq!(character(&v2).done, 2, "stats edits keep markers");
        let v3 = edit(&v2, &kv("reset=yes")).unwrap();
        let c = character(&v3);
        assert_eq!(
            (c.done, c.reeling, c.damage, c.stats.skill),
            (0, false, 0, Some(Die::D8))
        );
        let v4 = edit(&v3, &kv(r#"w1="""#)).unwrap();
        assert!(character(&v4).stats.weapons.is_empty());
    }

    #[test]
    fn gm_only_fields_in_either_language() {
        for k in ["done", "ダン", "reeling", "removed", "crawler", "reset", "damage"] {
            assert!(DECL.gm_only(k), "{k}");
        }
        for k in ["side", "skill", "weapon1", "", "アーマー"] {
            assert!(!DECL.gm_only(k), "{k}");
        }
    }

    #[test]
    fn old_free_form_sheets_read_and_garbage_does_not() {
        let c = read(&json!({"side": "Skynet", "profile": "T-1000"})).unwrap();
        assert_eq!(c.stats.command, 2);
        assert!(read(&json!({"stats": 5})).is_err());
        assert!(read(&json!({"hp": 5})).is_err(), "no side");
    }

    /// Issue 29: a killed or retreated character shows its removal, not markers it held.
    #[test]
    fn a_removed_character_shows_no_markers() {
        let v = edit(&json!({}), &kv("side=Resistance profile=SWAT")).unwrap();
        let mut c = character(&v);
        c.done = 2;
        c.reeling = true;
        c.removed = Some(Removal::Retreated);
        assert_eq!(badges(&c, Lang::En), ["🏳️ RETREATED"]);
        c.removed = Some(Removal::Killed);
        c.crawler = true;
        assert_eq!(badges(&c, Lang::Ja), ["💀 戦闘不能", "🦾 クローラー"]);
        c.removed = None;
        assert_eq!(badges(&c, Lang::En), ["🦾 Crawler", "☑️ Done ×2", "💫 REELING"]);
    }

    #[test]
    fn the_description_shows_dice_specials_badges_and_weapons() {
        let v = edit(
            &json!({}),
            &kv(r#"side=Resistance profile="Kyle Reese" skill=d8 w1="RPG d12""#),
        )
        .unwrap();
        let mut c = character(&v);
        c.done = 2;
        c.reeling = true;
        c.damage = 1;
        c.ammo_used.insert("RPG".into(), 1);
        let en = describe(&c.to_value(), Lang::En);
        let find = |k: &str| {
            en.iter()
                .find(|(n, _)| n.starts_with(k))
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        assert!(find("Stats").starts_with("skill D8 · armour 4+ · "), "{en:?}");
        assert!(find("Specials").contains("Command(3)"));
        assert_eq!(find("Markers"), "done 2 · reeling · damage 1/2");
        assert!(find("Weapons").contains("Limited ammo(1) — fired 1"));
        let ja = describe(&c.to_value(), Lang::Ja);
        assert!(ja.iter().any(|(_, v)| v.contains("カイル・リース (1)")));
        assert_eq!(describe(&json!([1]), Lang::Ja)[0].0, "シート");
    }
}

//! A model as players type it into `/char`: `key=value` fields → a validated [`Model`] stored as
//! the roster entry's JSON. Effects and damage from play are kept in the same JSON.
//!
//! Fields (names are case-insensitive; `-` and spaces read as `_`):
//!
//! | field | value | example |
//! |---|---|---|
//! | `controller` (`player`, `コントローラー`, `プレイヤー`) | the player who controls it (in a session a member; default the entry's owner) | `controller=@ana` |
//! | `mat` `rat` `def` `arm` `cmd` `spd` (`近接` `射撃` `防御` `装甲` `指揮` `速度`) | 0–30 | `def=12 arm=18` |
//! | `boxes` (`damage_boxes`, `ボックス`, `ダメージボックス`) | damage boxes 1–100 | `boxes=30` |
//! | `damage` (`marked`, `ダメージ`) | boxes marked, 0–boxes | `damage=4` |
//! | `weapon`, `weapon1`…`weapon8` (`w1`…, `武器`, `武器1`…) | `NAME POW melee/ranged`; empty removes | `weapon1="Battle Blade 14 melee"` |
//! | `cannot` (`できない`) | the model's own cannot-flags, comma separated; empty clears | `cannot="knockdown, stand_up"` |
//! | `auto_hit_miss` (`自動命中`) | the model's own rule: `on`, `off`, or `default` (the server's) | `auto_hit_miss=off` |
//! | `status` (`状態`) | `ok`, `disabled`, `destroyed` | `status=destroyed` |
//! | `knocked_down` (`ノックダウン`) | `yes` / `no` (refused when a cannot-flag forbids it) | `knocked_down=yes` |
//! | `reset` (`リセット`) | `yes`: no damage, no effects, standing, OK (a new game) | `reset=yes` |
//!
//! New models need `def`, `arm` and `boxes`; without `controller` the entry's owner controls
//! the model (the bot fills it in).

use serde_json::Value;

use super::effects::{CannotFlag, Expiry, Stat};
use super::error::RuleError;
use super::model::{AttackKind, MAX_STAT, Model, ModelStatus, StateRequest, Weapon};
use super::sheet_decl::DECL;
use crate::i18n::{Lang, Localized};
use crate::session::ReadJson;
use crate::systems::sheet_decl::{int_in, yes_no};
use crate::systems::sheet_error::SheetError;

fn err(en: impl Into<String>, ja: impl Into<String>) -> SheetError {
    SheetError::new(en, ja)
}

fn rule(e: RuleError) -> SheetError {
    SheetError::from_localized(&e)
}

fn number(key: &str, v: &str, min: u32, max: u32) -> Result<u32, SheetError> {
    Ok(int_in(key, v, i64::from(min), i64::from(max))? as u32)
}

/// `Battle Blade 14 melee` → a weapon.
pub fn parse_weapon(key: &str, v: &str) -> Result<Weapon, SheetError> {
    let bad = || {
        err(
            format!("`{key}`: write NAME POW melee|ranged, e.g. \"Battle Blade 14 melee\" (not `{v}`)."),
            format!(
                "`{key}`: 「名前 POW 近接|射撃」の形で書いてください（例: \"Battle Blade 14 melee\"）。`{v}` は読めません。"
            ),
        )
    };
    let tokens: Vec<&str> = v.split([' ', '　']).filter(|t| !t.is_empty()).collect();
    let [name @ .., pow, kind] = tokens.as_slice() else {
        return Err(bad());
    };
    if name.is_empty() {
        return Err(bad());
    }
    let kind = match kind.to_lowercase().as_str() {
        "melee" | "m" | "近接" => AttackKind::Melee,
        "ranged" | "r" | "射撃" => AttackKind::Ranged,
        _ => return Err(bad()),
    };
    let pow = number(key, pow, 0, MAX_STAT)?;
    Ok(Weapon {
        name: name.join(" "),
        pow,
        kind,
    })
}

/// Read a stored model (`{}`: none yet).
/// [`read_value`] of a stored sheet; a session's sheet is read once per version of it.
pub fn read(sheet: &impl ReadJson) -> Result<Option<Model>, SheetError> {
    sheet.read_once(read_value)
}

/// The model a stored sheet holds (see [`read`]).
pub fn read_value(current: &Value) -> Result<Option<Model>, SheetError> {
    if current.is_null() || current.as_object().is_some_and(|m| m.is_empty()) {
        return Ok(None);
    }
    serde::Deserialize::deserialize(current).map(Some).map_err(|_| {
        err(
            "This entry's stats are not a Warmachine model; remove it and add it again.",
            "この登録はウォーマシンのモデルではありません。削除して登録し直してください。",
        )
    })
}

/// `current` with `fields` applied and validated. All fields are checked before any applies.
/// A controller may be any text here (a table without Discord); see [`edit_entry`].
pub fn edit(current: &Value, fields: &[(String, String)]) -> Result<Value, SheetError> {
    edit_as(None, current, fields, false)
}

/// [`edit`] of the roster entry `name` as `/char` types it in a session (issue 29): refusals
/// name the model (`Nomad cannot be knocked down`), and a controller is a Discord member —
/// a mention or a user id, stored as `<@id>`; a name is refused with what to type.
pub fn edit_entry(name: &str, current: &Value, fields: &[(String, String)]) -> Result<Value, SheetError> {
    edit_as(Some(name), current, fields, true)
}

fn edit_as(
    name: Option<&str>,
    current: &Value,
    fields: &[(String, String)],
    members_only: bool,
) -> Result<Value, SheetError> {
    let existing = read(current)?;
    let is_new = existing.is_none();
    let mut m = existing.unwrap_or_else(|| Model::new("", "", 0, 0, 0));
    // The name only speaks in refusals; the stored model keeps what it had (the bot fills it
    // in from the entry).
    let stored_name = m.name.clone();
    if let Some(name) = name {
        m.name = name.trim().to_string();
    }
    let mut status_given = false;
    let mut damage_given: Option<u32> = None;
    let mut weapons: Vec<Option<Weapon>> = m.weapons.iter().cloned().map(Some).collect();
    let mut knock: Option<bool> = None;
    let mut cover: Option<bool> = None;
    for (k, v) in fields {
        if let Some(slot) = DECL.weapons.as_ref().and_then(|w| w.slot(k)) {
            if weapons.len() <= slot {
                weapons.resize(slot + 1, None);
            }
            weapons[slot] = if v.trim().is_empty() {
                None
            } else {
                Some(parse_weapon(k, v)?)
            };
            continue;
        }
        let Some(field) = DECL.field(k) else {
            let known: Vec<&str> = DECL.fields.iter().map(|f| f.key).collect();
            return Err(err(
                format!("Unknown field `{k}`. Fields: {}, weapon1….", known.join(", ")),
                format!(
                    "`{k}` という項目はありません。項目: {}, weapon1…。",
                    known.join(", ")
                ),
            ));
        };
        // Knocked down and cover are state requests a cannot-flag may refuse: checked by the
        // declaration, applied by the model. The controller is never empty (its own error);
        // the cannot-flags and the rule's `default` are grammars of this system.
        match field.key {
            "knocked_down" | "cover" => {
                let on = DECL.check(field, k, v)?.and_then(|b| b.as_bool());
                if field.key == "cover" {
                    cover = on;
                } else {
                    knock = on;
                }
                continue;
            }
            "controller" => {
                let c = v.trim();
                if c.chars().count() > 60 {
                    return Err(err(
                        "`controller` is a player: at most 60 characters.",
                        "`controller` はプレイヤーです（60文字まで）。",
                    ));
                }
                // Empty: the entry's owner controls the model (the bot fills it in).
                m.controller = match super::players::member(c) {
                    _ if c.is_empty() => String::new(),
                    Ok(member) => member,
                    Err(e) if members_only => return Err(rule(e)),
                    Err(_) => c.to_string(),
                };
                continue;
            }
            _ => {}
        }
        // Numbers, the name, the status: the declaration's one assignment, onto the model as
        // stored (a new one too), in the order typed.
        let mut doc = serde_json::to_value(&m).unwrap_or(Value::Null);
        if DECL.assign(field, k, v, &mut doc)? {
            m = serde_json::from_value(doc).map_err(|e| {
                err(
                    format!("The model does not read back: {e}."),
                    format!("モデルを読み直せません: {e}。"),
                )
            })?;
            match field.key {
                // Applied after every field (a reset in the same edit does not clear it).
                "damage" => damage_given = Some(m.marked),
                "status" => status_given = true,
                _ => {}
            }
            continue;
        }
        match field.key {
            "cannot" => {
                m.cannot.clear();
                let flags = v.split([',', '、']).map(str::trim).filter(|s| !s.is_empty());
                for f in flags.map(|s| CannotFlag::from(s.to_string())) {
                    if !m.cannot.contains(&f) {
                        m.cannot.push(f);
                    }
                }
            }
            "auto_hit_miss" => {
                m.auto_hit_miss = match v.trim().to_lowercase().as_str() {
                    "" | "default" | "server" | "既定" => None,
                    _ => Some(yes_no(k, v)?),
                }
            }
            "reset" if yes_no(k, v)? => m.new_game(),
            _ => {}
        }
    }
    if is_new {
        let missing = DECL.missing(fields);
        if !missing.is_empty() {
            return Err(DECL.missing_error(&missing, ("model", "モデル")));
        }
    }
    m.weapons = weapons.into_iter().flatten().collect();
    if let Some(d) = damage_given {
        m.marked = d;
    }
    if m.marked > m.boxes {
        return Err(err(
            format!("`damage` is {} but the model has {} boxes.", m.marked, m.boxes),
            format!("`damage` が{}ですが、ボックスは{}個です。", m.marked, m.boxes),
        ));
    }
    // Boxes and state agree unless the status was set by hand (WG-8).
    if !status_given {
        match m.status {
            ModelStatus::Ok if m.marked >= m.boxes => m.status = ModelStatus::Disabled,
            ModelStatus::Disabled if m.marked < m.boxes => m.status = ModelStatus::Ok,
            _ => {}
        }
    }
    match knock {
        Some(true) => m.request(StateRequest::KnockDown).map_err(rule)?,
        Some(false) => m.request(StateRequest::StandUp).map_err(rule)?,
        None => {}
    }
    match cover {
        Some(true) => m.request(StateRequest::GainCover).map_err(rule)?,
        Some(false) => m.request(StateRequest::LoseCover).map_err(rule)?,
        None => {}
    }
    if name.is_some_and(|n| n.trim() == m.name) {
        m.name = stored_name;
    }
    Ok(serde_json::to_value(&m).unwrap_or(Value::Null))
}

fn expiry_text(e: &Expiry, lang: Lang) -> String {
    match (e, lang) {
        (Expiry::EndOfActivation { model }, Lang::En) => format!("until the end of {model}'s activation"),
        (Expiry::EndOfActivation { model }, Lang::Ja) => format!("{model}のアクティベーション終了まで"),
        (Expiry::EndOfTurn { player }, Lang::En) => format!("until the end of {player}'s turn"),
        (Expiry::EndOfTurn { player }, Lang::Ja) => format!("{player}の手番終了まで"),
        (Expiry::StartOfTurn { player }, Lang::En) => format!("until {player}'s next turn"),
        (Expiry::StartOfTurn { player }, Lang::Ja) => format!("{player}の次の手番開始まで"),
        (Expiry::Manual, Lang::En) => "until removed".to_string(),
        (Expiry::Manual, Lang::Ja) => "取り除くまで".to_string(),
    }
}

/// Every cannot-flag with where it comes from.
fn cannot_text(m: &Model, lang: Lang) -> String {
    let list: Vec<String> = m
        .flags()
        .iter()
        .map(|(f, src)| format!("{} ({})", f.phrase(lang), src.describe(lang)))
        .collect();
    list.join(", ")
}

/// How `/char show` and the board show a declared field: a stat as its base and what effects
/// make it (`6→8`), the damage out of the boxes, every cannot-flag with its source, the rule's
/// on/off in words.
pub fn dress(m: &Model, f: &crate::systems::sheet_decl::Field, typed: &str, lang: Lang) -> Option<String> {
    let stat = match f.key {
        "mat" => Stat::Mat,
        "rat" => Stat::Rat,
        "def" => Stat::Def,
        "arm" => Stat::Arm,
        "cmd" => Stat::Cmd,
        "spd" => Stat::Spd,
        "damage" => return Some(format!("{}/{}", m.marked, m.boxes)),
        "cannot" => return Some(cannot_text(m, lang)),
        "auto_hit_miss" => {
            return Some(
                lang.pick(typed, if typed == "on" { "あり" } else { "なし" })
                    .to_string(),
            );
        }
        _ => return None,
    };
    let r = m.stat(stat);
    (r.value != r.base).then(|| format!("{}→{}", r.base, r.value))
}

/// The model as `name: value` lines. Item 20: everything is shown to everyone.
pub fn describe(sheet: &Value, lang: Lang) -> Vec<(String, String)> {
    let m = match read(sheet) {
        Ok(Some(m)) => m,
        Ok(None) => {
            return vec![(
                lang.pick("Model", "モデル").to_string(),
                lang.pick("(no stats yet)", "（能力値なし）").to_string(),
            )];
        }
        Err(e) => return vec![(lang.pick("Model", "モデル").to_string(), e.localized(lang))],
    };
    // The declared fields' rows; weapons, cannot-flags from elsewhere and effects are the
    // model's state.
    let mut out = DECL.rows(sheet, lang, &|f, v| dress(&m, f, v, lang));
    // Weapons and effects take one line each, however many there are: an embed holds 25 fields.
    if !m.weapons.is_empty() {
        let list: Vec<String> = m
            .weapons
            .iter()
            .enumerate()
            .map(|(i, w)| format!("{}. {} POW {} {}", i + 1, w.name, w.pow, w.kind.name(lang)))
            .collect();
        out.push((lang.pick("Weapons", "武器").to_string(), list.join(" / ")));
    }
    let flags = m.flags();
    let cannot = DECL.get("cannot");
    if !flags.is_empty() && cannot.shown_in(sheet).is_none() {
        // Flags only from effects or the model's card: the row the field would have.
        out.push((cannot.label(lang).to_string(), cannot_text(&m, lang)));
    }
    let mut effects = Vec::new();
    for (win, rest) in super::effects::by_name(&m.effects) {
        let changes: Vec<String> = win
            .changes
            .iter()
            .map(|c| format!("{} {:+}", c.stat.abbr(), c.delta))
            .collect();
        let mut line = format!(
            "{} #{} {} ({})",
            super::effects::shown_name(&win.name, lang),
            win.id,
            changes.join(" "),
            expiry_text(&win.expiry, lang)
        );
        for o in rest {
            line.push_str(&match lang {
                Lang::En => format!(", #{} does not stack ({})", o.id, expiry_text(&o.expiry, lang)),
                Lang::Ja => format!("、#{} 累積しない（{}）", o.id, expiry_text(&o.expiry, lang)),
            });
        }
        effects.push(line);
    }
    if !effects.is_empty() {
        out.push((lang.pick("Effects", "効果").to_string(), effects.join(" / ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn new_model() -> Value {
        edit(
            &json!({}),
            &kv(&[
                ("controller", "Ana"),
                ("mat", "7"),
                ("rat", "4"),
                ("def", "12"),
                ("arm", "18"),
                ("boxes", "30"),
                ("weapon1", "Battle Blade 14 melee"),
                ("w2", "Cannon 12 ranged"),
            ]),
        )
        .unwrap()
    }

    #[test]
    fn a_model_is_typed_in_english_or_japanese() {
        let v = new_model();
        let m: Model = serde_json::from_value(v.clone()).unwrap();
        assert_eq!((m.mat, m.def, m.arm, m.boxes), (7, 12, 18, 30));
        assert_eq!(m.weapons[0].name, "Battle Blade");
        assert_eq!(m.weapons[1].kind, AttackKind::Ranged);
        let ja = edit(
            &json!({}),
            &kv(&[
                ("コントローラー", "ベン"),
                ("防御", "13"),
                ("装甲", "15"),
                ("ボックス", "10"),
                ("武器1", "斧 12 近接"),
                ("できない", "ノックダウン、飛行、knockdown"),
            ]),
        )
        .unwrap();
        let m: Model = serde_json::from_value(ja).unwrap();
        assert_eq!(
            (m.controller.as_str(), m.def, m.arm, m.boxes),
            ("ベン", 13, 15, 10)
        );
        assert_eq!(
            m.cannot,
            vec![CannotFlag::Knockdown, CannotFlag::Other("飛行".into())]
        );
        assert_eq!(m.weapons[0].kind, AttackKind::Melee);
    }

    #[test]
    fn edits_keep_the_rest_and_weapons_can_be_removed() {
        let v = new_model();
        let v = edit(
            &v,
            &kv(&[("weapon1", ""), ("damage", "4"), ("auto_hit_miss", "off")]),
        )
        .unwrap();
        let m: Model = serde_json::from_value(v).unwrap();
        assert_eq!(m.weapons.len(), 1);
        assert_eq!(m.weapons[0].name, "Cannon");
        assert_eq!((m.marked, m.auto_hit_miss), (4, Some(false)));
        assert_eq!(m.arm, 18);
    }

    #[test]
    fn full_boxes_read_as_disabled_and_status_can_be_set() {
        let v = edit(&new_model(), &kv(&[("damage", "30")])).unwrap();
        assert_eq!(v["status"], "disabled");
        let v = edit(&v, &kv(&[("damage", "29")])).unwrap();
        assert_eq!(v["status"], "ok");
        let v = edit(&v, &kv(&[("status", "destroyed")])).unwrap();
        assert_eq!(v["status"], "destroyed");
        let v = edit(&v, &kv(&[("reset", "yes")])).unwrap();
        assert_eq!(
            (v["status"].as_str(), v["marked"].as_u64()),
            (Some("ok"), Some(0))
        );
    }

    #[test]
    fn bad_input_is_refused_in_both_languages() {
        let v = new_model();
        for fields in [
            kv(&[("def", "31")]),
            kv(&[("arm", "-1")]),
            kv(&[("boxes", "0")]),
            kv(&[("damage", "31")]),
            kv(&[("mat", "seven")]),
            kv(&[("weapon1", "Blade melee")]),
            kv(&[("weapon1", "14 melee")]),
            kv(&[("weapon1", "Blade 14 thrown")]),
            kv(&[("weapon9", "Blade 14 melee")]),
            kv(&[("status", "dazed")]),
            kv(&[("knocked_down", "maybe")]),
            kv(&[("controller", &"x".repeat(61))]),
            kv(&[("wings", "2")]),
        ] {
            let e = edit(&v, &fields).unwrap_err();
            assert!(!e.en.is_empty() && !e.ja.is_empty() && e.en != e.ja, "{fields:?}");
        }
        let e = edit(&v, &kv(&[("def", "31")])).unwrap_err();
        assert_eq!(e.en, "`def` must be between 0 and 30, not 31.");
        let e = edit(&json!({}), &kv(&[("controller", "Ana")])).unwrap_err();
        assert!(e.en.contains("def, arm") && e.en.contains("boxes"), "{}", e.en);
        assert!(edit(&json!({"def": "x"}), &[]).is_err());
    }

    /// Issue 29: `cannot=knockdown`, then `knocked_down=yes` through `/char edit name:Nomad`:
    /// the refusal names Nomad (it read " cannot be knocked down"), and nothing is stored.
    #[test]
    fn a_refusal_of_the_models_own_rule_names_the_entry() {
        let v = edit_entry(
            "Nomad",
            &json!({}),
            &kv(&[
                ("controller", "<@123456789012345678>"),
                ("def", "11"),
                ("arm", "19"),
                ("boxes", "20"),
                ("cannot", "knockdown"),
            ]),
        )
        .unwrap();
        let e = edit_entry("Nomad", &v, &kv(&[("knocked_down", "yes")])).unwrap_err();
        assert!(e.en.starts_with("Nomad cannot be knocked down"), "{}", e.en);
        assert!(e.ja.starts_with("Nomadは"), "{}", e.ja);
        assert!(
            v.get("name").is_none_or(|n| n == ""),
            "the name is the entry's, not stored"
        );
    }

    /// Issue 29: in a session a controller is a member: a mention or a user id, stored as
    /// `<@id>`; `alice`, `@alice` and `Alice` are refused with what to type.
    #[test]
    fn a_controller_in_a_session_is_a_member() {
        let base = [("def", "11"), ("arm", "19"), ("boxes", "20")];
        let with = |c: &str| {
            let mut f = kv(&base);
            f.push(("controller".into(), c.into()));
            edit_entry("Nomad", &json!({}), &f)
        };
        for typed in [
            "<@!123456789012345678>",
            "123456789012345678",
            "<@123456789012345678>",
        ] {
            assert_eq!(
                with(typed).unwrap()["controller"],
                "<@123456789012345678>",
                "{typed}"
            );
        }
        for typed in ["alice", "@alice", "Alice"] {
            let e = with(typed).unwrap_err();
            assert!(
                e.en.contains("no Discord member") && e.en.contains("pick"),
                "{}",
                e.en
            );
            assert!(e.ja.contains("メンバー"), "{}", e.ja);
        }
        // Without a session (the engine's own edit) a name still reads.
        let mut f = kv(&base);
        f.push(("controller".into(), "Ana".into()));
        assert_eq!(edit(&json!({}), &f).unwrap()["controller"], "Ana");
    }

    #[test]
    fn knocking_down_through_the_sheet_respects_cannot() {
        let v = edit(&new_model(), &kv(&[("cannot", "knockdown")])).unwrap();
        let e = edit(&v, &kv(&[("knocked_down", "yes")])).unwrap_err();
        assert!(e.en.contains("cannot beats must"), "{}", e.en);
        let v = edit(&v, &kv(&[("cannot", ""), ("knocked_down", "yes")])).unwrap();
        assert_eq!(v["knocked_down"], true);
    }

    #[test]
    fn plain_fields_go_through_the_declarations_one_assignment() {
        let v = new_model();
        // Out of range: the shared path's error in both languages, under the name typed.
        let e = edit(&v, &kv(&[("速度", "31")])).unwrap_err();
        assert_eq!(e.en, "`速度` must be between 0 and 30, not 31.");
        assert_eq!(e.ja, "`速度` は0〜30の範囲で指定してください（31は使えません）。");
        // A name over 60 characters is refused (it was cut before), not stored cut.
        let long = "x".repeat(61);
        let e = edit(&v, &kv(&[("name", long.as_str())])).unwrap_err();
        assert_eq!(
            (e.en.as_str(), e.ja.as_str()),
            ("`name` is at most 60 characters.", "`name` は60文字までです。")
        );
        // The status's choice in Japanese lists the Japanese words.
        let e = edit(&v, &kv(&[("status", "dazed")])).unwrap_err();
        assert!(e.ja.contains("健在、ディスエイブル、デストロイ"), "{}", e.ja);
        // In range: each value lands at its declared pointer.
        let v = edit(
            &v,
            &kv(&[
                ("spd", "6"),
                ("name", " Juggernaut "),
                ("状態", "デストロイ"),
                ("marked", "3"),
            ]),
        )
        .unwrap();
        assert_eq!(
            (&v["spd"], &v["name"], &v["status"], &v["marked"]),
            (&json!(6), &json!("Juggernaut"), &json!("destroyed"), &json!(3))
        );
        // Damage given with a reset still stands after it, whatever the order.
        let v = edit(&v, &kv(&[("damage", "4"), ("reset", "yes")])).unwrap();
        assert_eq!((&v["marked"], &v["status"]), (&json!(4), &json!("ok")));
    }

    #[test]
    fn the_description_shows_modified_stats_effects_and_flags() {
        let v = new_model();
        let mut m: Model = serde_json::from_value(v).unwrap();
        let ds = super::super::effects::preset("dark_shroud").unwrap();
        m.add_effect(&ds, Expiry::EndOfTurn { player: "Ben".into() }, None, None)
            .unwrap();
        m.add_effect(&ds, Expiry::Manual, None, None).unwrap();
        m.cannot.push(CannotFlag::StandUp);
        let lines = describe(&serde_json::to_value(&m).unwrap(), Lang::En);
        let text: String = lines.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
        assert!(
            text.contains("Stats: mat 7 · rat 4 · def 12 · arm 18→16"),
            "{text}"
        );
        assert!(text.contains("Damage: boxes 30 · damage 0/30\n"), "{text}");
        assert!(
            text.contains("Effects: Dark Shroud #1 ARM -2 (until the end of Ben's turn)"),
            "{text}"
        );
        assert!(
            text.contains("Weapons: 1. Battle Blade POW 14 melee / 2. Cannon POW 12 ranged"),
            "{text}"
        );
        assert!(text.contains("#2 does not stack"), "{text}");
        assert!(text.contains("stand up (its own rule)"), "{text}");
        let ja: String = describe(&serde_json::to_value(&m).unwrap(), Lang::Ja)
            .iter()
            .map(|(k, v)| format!("{k}: {v}\n"))
            .collect();
        assert!(ja.contains("累積しない"), "{ja}");
        assert_eq!(describe(&json!({}), Lang::En)[0].1, "(no stats yet)");
        // A full model still fits an embed's 25 fields.
        for i in 0..crate::systems::warmachine::model::MAX_EFFECTS - 2 {
            let hex = crate::systems::warmachine::effects::EffectSpec {
                name: format!("Hex {i}"),
                changes: vec![crate::systems::warmachine::effects::StatChange {
                    stat: Stat::Def,
                    delta: -1,
                }],
                cannot: vec![],
            };
            m.add_effect(&hex, Expiry::Manual, None, None).unwrap();
        }
        m.weapons = (0..super::super::model::MAX_WEAPONS)
            .map(|i| Weapon {
                name: format!("W{i}"),
                pow: 10,
                kind: AttackKind::Melee,
            })
            .collect();
        m.auto_hit_miss = Some(true);
        let lines = describe(&serde_json::to_value(&m).unwrap(), Lang::En);
        assert_eq!(lines.len(), 7, "{lines:?}");
    }
}

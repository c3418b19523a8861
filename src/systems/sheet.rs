//! Character and gear sheets as players type them into `/char`: `key=value` fields that each
//! system turns into its own typed sheet (stored as JSON in the roster entry).
//!
//! Each system's own sheet comes from the registry; free-form systems keep whole numbers and
//! short texts (see `generic`).

use serde_json::{Map, Value};

use super::registry::{SystemId, rules};
pub use super::sheet_error::SheetError;
use crate::i18n::Lang;

/// A whole line as people paste it from help pages and chat (issue 15): `stats:"body=4 agility=5"`
/// with the quotes Discord keeps, or shell-style `\"` inside them, reads as the line itself.
pub fn unquote_line(input: &str) -> String {
    let t = input.trim();
    let inner = [('"', '"'), ('“', '”'), ('「', '」'), ('\'', '\'')]
        .iter()
        .find_map(|(open, close)| {
            let rest = t.strip_prefix(*open)?.strip_suffix(*close)?;
            // `"a" b="c"` is not one quoted line: only strip a pair that encloses everything.
            let plain = rest.replace("\\\"", "");
            (!plain.contains(*close) || rest.contains("\\\"") || *open != *close).then_some(rest)
        })
        .unwrap_or(t);
    inner.replace("\\\"", "\"")
}

/// Most fields one `/char` line may set.
pub const MAX_FIELDS: usize = 60;
const MAX_KEY_CHARS: usize = 32;
const MAX_VALUE_CHARS: usize = 200;

/// `body=4 agility=5, firearms=5 weapon="Ares Predator"` → ordered fields. Keys are lower-cased;
/// `-` and spaces inside keys become `_`.
pub fn parse_fields(input: &str) -> Result<Vec<(String, String)>, SheetError> {
    let mut fields = Vec::new();
    // Read as the dice notation reads: `強靭力＝４` is `強靭力=4` (issue 36).
    let input = unquote_line(&crate::i18n::fold_width(input));
    let chars: Vec<char> = input.chars().collect();
    let mut i = 0;
    let is_sep = |c: char| c.is_whitespace() || c == ',' || c == '、';
    let skip_sep = |i: &mut usize| {
        while *i < chars.len() && is_sep(chars[*i]) {
            *i += 1;
        }
    };
    loop {
        skip_sep(&mut i);
        if i >= chars.len() {
            break;
        }
        let key_start = i;
        while i < chars.len() && chars[i] != '=' && chars[i] != '＝' && !is_sep(chars[i]) {
            i += 1;
        }
        let mut key: String = chars[key_start..i].iter().collect();
        if i >= chars.len() || (chars[i] != '=' && chars[i] != '＝') {
            return Err(SheetError::new(
                format!("Write fields as name=value (at `{key}`)."),
                format!("項目は 名前=値 の形で書いてください（`{key}` の所）。"),
            ));
        }
        i += 1;
        // `hp-=3`, `hp+=2`: a change to the number kept (see `resolve_changes`), not a field
        // named `hp_`.
        let op = match key.chars().last() {
            Some('+' | '＋') if key.chars().count() > 1 => Some('+'),
            Some('-' | '－' | '−') if key.chars().count() > 1 => Some('-'),
            _ => None,
        };
        if op.is_some() {
            key.pop();
        }
        let value: String = if i < chars.len() && chars[i] == '"' {
            let start = i + 1;
            let end = chars[start..]
                .iter()
                .position(|&c| c == '"')
                .map(|p| start + p)
                .ok_or_else(|| {
                    SheetError::new(
                        format!("The quote after `{key}=` is not closed."),
                        format!("`{key}=` の後の引用符が閉じていません。"),
                    )
                })?;
            i = end + 1;
            chars[start..end].iter().collect()
        } else {
            let start = i;
            while i < chars.len() && !is_sep(chars[i]) {
                i += 1;
            }
            chars[start..i].iter().collect()
        };
        let value = match op {
            Some(op) => format!("{op}={}", value.trim()),
            None => value,
        };
        let key = super::sheet_decl::norm(&key);
        if key.is_empty() || key.chars().count() > MAX_KEY_CHARS || value.chars().count() > MAX_VALUE_CHARS {
            return Err(SheetError::new(
                format!("Field names are 1–{MAX_KEY_CHARS} characters and values at most {MAX_VALUE_CHARS}."),
                format!("項目名は1〜{MAX_KEY_CHARS}文字、値は{MAX_VALUE_CHARS}文字までです。"),
            ));
        }
        if fields.iter().any(|(k, _)| *k == key) {
            return Err(SheetError::new(
                format!("`{key}` is given twice."),
                format!("`{key}` が2回指定されています。"),
            ));
        }
        fields.push((key, value));
        if fields.len() > MAX_FIELDS {
            return Err(SheetError::new(
                format!("At most {MAX_FIELDS} fields at once."),
                format!("一度に指定できる項目は{MAX_FIELDS}個までです。"),
            ));
        }
    }
    Ok(fields)
}

/// A new entry's sheet for `system` from typed fields.
pub fn new_sheet(system: SystemId, fields: &[(String, String)]) -> Result<Value, SheetError> {
    edit_sheet(system, &Value::Object(Map::new()), fields)
}

/// `current` with `fields` applied, validated by the system's rules.
pub fn edit_sheet(
    system: SystemId,
    current: &Value,
    fields: &[(String, String)],
) -> Result<Value, SheetError> {
    edit_sheet_as(system, current, fields, true)
}

/// [`edit_sheet`] by the GM (`gm`) or a player (Shadowrun 4 keeps a player from raising Edge
/// points: the GM refreshes them).
pub fn edit_sheet_as(
    system: SystemId,
    current: &Value,
    fields: &[(String, String)],
    gm: bool,
) -> Result<Value, SheetError> {
    let fields = resolve_changes(system, current, fields)?;
    rules(system).edit_sheet(current, &fields, gm)
}

/// `hp-=3` / `hp+=2` (as [`parse_fields`] gives them: value `-=3`) → `hp=<kept − 3>`, the kept
/// number read through the system's declaration. Other fields unchanged.
pub fn resolve_changes(
    system: SystemId,
    current: &Value,
    fields: &[(String, String)],
) -> Result<Vec<(String, String)>, SheetError> {
    let decl = rules(system).sheet_decl();
    fields
        .iter()
        .map(|(k, v)| {
            let sign = match v.get(..2) {
                Some("+=") => 1,
                Some("-=") => -1,
                _ => return Ok((k.clone(), v.clone())),
            };
            let by = super::sheet_decl::int_in(k, &v[2..], 0, 1_000_000)?;
            let kept = match decl.field(k) {
                Some(f) => f.value_in(current),
                None => decl.free.and_then(|free| {
                    (free.stored)(current)
                        .into_iter()
                        .find(|(name, _)| name == k)
                        .map(|(_, v)| v)
                }),
            };
            let kept: i64 = kept.and_then(|t| t.trim().parse().ok()).ok_or_else(|| {
                SheetError::new(
                    format!("`{k}` has no number to change yet: set it first with `{k}=N`."),
                    format!("`{k}` にはまだ数値がありません。先に `{k}=N` で設定してください。"),
                )
            })?;
            Ok((k.clone(), (kept + sign * by).to_string()))
        })
        .collect()
}

/// [`edit_sheet_as`] for an entry of a session: the system may read presets the session
/// defined in its `system_state` (Terminator's own profiles and weapons).
pub fn edit_sheet_in_session(
    system: SystemId,
    current: &Value,
    fields: &[(String, String)],
    gm: bool,
    system_state: &Value,
) -> Result<Value, SheetError> {
    let fields = resolve_changes(system, current, fields)?;
    rules(system).edit_sheet_in(current, &fields, gm, system_state)
}

/// [`edit_sheet_in_session`] for the roster entry `name`, as `/char add` and `/char edit` type
/// it (see [`SystemRules::edit_entry`](super::rules::SystemRules::edit_entry)).
pub fn edit_entry_in_session(
    system: SystemId,
    name: &str,
    current: &Value,
    fields: &[(String, String)],
    gm: bool,
    system_state: &Value,
) -> Result<Value, SheetError> {
    let fields = resolve_changes(system, current, fields)?;
    rules(system).edit_entry(name, current, &fields, gm, system_state)
}

/// The fields among `fields` that only the GM may change on an existing entry.
pub fn gm_only_fields(system: SystemId, fields: &[(String, String)]) -> Vec<String> {
    let r = rules(system);
    fields
        .iter()
        .filter(|(k, _)| r.sheet_decl().gm_only(k))
        .map(|(k, _)| k.clone())
        .collect()
}

/// The sheet as `name: value` lines for an embed.
/// The sheet as `name: value` lines for an embed, then the warning for fields the rules need
/// that it leaves unset (from the declaration).
pub fn describe_sheet(system: SystemId, sheet: &Value, lang: Lang) -> Vec<(String, String)> {
    let r = rules(system);
    let mut lines = r.describe_sheet(sheet, lang);
    lines.extend(r.sheet_decl().warning(sheet, lang));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Issue 36: a Japanese keyboard's full-width digits, signs and spaces read as `/ダイス`
    /// reads `２Ｄ６`, and a Shadowrun sheet takes them.
    #[test]
    fn full_width_input_reads_as_ascii() {
        let fields = parse_fields("強靭力＝４\u{3000}敏捷力＝３ 名前＝＂Ｋｅｎ Ｏ＂").unwrap();
        assert_eq!(fields, kv(&[("強靭力", "4"), ("敏捷力", "3"), ("名前", "Ken O")]));
        let empty = serde_json::Value::Object(Default::default());
        let sheet = crate::systems::registry::SystemId::Shadowrun4
            .rules()
            .edit_sheet(&empty, &parse_fields("強靭力＝４ 敏捷力＝３").unwrap(), true)
            .unwrap();
        assert_eq!(
            (
                sheet.pointer("/attributes/body"),
                sheet.pointer("/attributes/agility")
            ),
            (Some(&serde_json::json!(4)), Some(&serde_json::json!(3)))
        );
    }

    #[test]
    fn fields_parse_with_spaces_commas_and_quotes() {
        let f = parse_fields(r#"Body=4 agility=5, weapon="Ares Predator" first-aid=2"#).unwrap();
        assert_eq!(
            f,
            kv(&[
                ("body", "4"),
                ("agility", "5"),
                ("weapon", "Ares Predator"),
                ("first_aid", "2")
            ])
        );
        assert_eq!(parse_fields("  ").unwrap(), vec![]);
        assert_eq!(
            parse_fields("体力＝3、技能=2").unwrap(),
            kv(&[("体力", "3"), ("技能", "2")])
        );
    }

    #[test]
    fn bad_fields_are_clear_errors() {
        assert!(parse_fields("body 4").unwrap_err().en.contains("name=value"));
        assert!(parse_fields("a=1 a=2").unwrap_err().en.contains("twice"));
        assert!(parse_fields(r#"a="open"#).unwrap_err().ja.contains("引用符"));
        assert!(parse_fields(&format!("a={}", "x".repeat(201))).is_err());
        let many: String = (0..61).map(|i| format!("k{i}=1 ")).collect();
        assert!(parse_fields(&many).is_err());
    }
}

#[cfg(test)]
mod field_name_tests {
    use serde_json::Value;

    use crate::i18n::{Lang, Localized};
    use crate::systems::registry::SystemId;

    /// Issue 15: every name help lists for a field (Japanese among them) writes exactly what
    /// its key writes, or is refused the same way (the message naming what was typed).
    #[test]
    fn every_listed_name_of_every_system_is_its_field() {
        let empty = Value::Object(Default::default());
        let mut checked = 0;
        for id in SystemId::ALL {
            let rules = id.rules();
            for field in crate::systems::rules::SheetField::from_decl(rules.sheet_decl()) {
                if field.key.contains('…') {
                    continue;
                }
                for name in &field.names {
                    for value in ["3", "4+", "yes", "6/4", "Ana"] {
                        let by_key = rules.edit_sheet(&empty, &[(field.key.clone(), value.into())], true);
                        let by_name = rules.edit_sheet(&empty, &[((*name).to_string(), value.into())], true);
                        // A message may name the field as typed or by its key.
                        let shown = |r: Result<Value, super::SheetError>, typed: &str| {
                            r.map_err(|e| {
                                [Lang::En, Lang::Ja].map(|l| {
                                    e.localized(l)
                                        .replace(&format!("`{typed}`"), "`FIELD`")
                                        .replace(&format!("`{}`", field.key), "`FIELD`")
                                })
                            })
                        };
                        assert_eq!(
                            shown(by_name, name),
                            shown(by_key, &field.key),
                            "{id:?}: `{name}={value}` is not `{}={value}`",
                            field.key
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    #[test]
    fn every_system_but_free_form_lists_its_fields() {
        for id in SystemId::ALL {
            let n = id.rules().sheet_decl().fields.len();
            assert_eq!(n == 0, id == SystemId::Generic, "{id:?}: {n} fields");
        }
    }
}

#[cfg(test)]
mod unquote_tests {
    use super::{parse_fields, unquote_line};

    #[test]
    fn a_pasted_quoted_line_reads_as_the_line() {
        let plain = parse_fields("body=4 agility=5").unwrap();
        assert_eq!(parse_fields("\"body=4 agility=5\"").unwrap(), plain);
        assert_eq!(parse_fields("「body=4 agility=5」").unwrap(), plain);
        assert_eq!(parse_fields("“body=4 agility=5”").unwrap(), plain);
        // Shell-style escapes inside the quotes (the README's Rally line once had them).
        assert_eq!(
            parse_fields(r#""attack=4+ weapon1=\"Rifle 6 3-6/12 burst:1\"""#).unwrap(),
            parse_fields(r#"attack=4+ weapon1="Rifle 6 3-6/12 burst:1""#).unwrap()
        );
        // Quotes that are values, not a wrapper, stay.
        assert_eq!(unquote_line(r#""A" b="c""#), r#""A" b="c""#);
        assert_eq!(
            unquote_line(r#"weapon1="Blade 13 melee""#),
            r#"weapon1="Blade 13 melee""#
        );
    }
}

#[cfg(test)]
mod change_tests {
    use serde_json::json;

    use super::*;

    /// Issue 30: `/char edit stats:hp-=3` on a free-form sheet took 3 off `hp`; it used to make
    /// a new field `hp_: 3`.
    #[test]
    fn hp_minus_equals_three_subtracts_from_hp() {
        let f = parse_fields("hp-=3").unwrap();
        assert_eq!(f, vec![("hp".to_string(), "-=3".to_string())]);
        let sheet = json!({"hp": 12, "note": "x"});
        let out = edit_sheet(SystemId::Generic, &sheet, &f).unwrap();
        assert_eq!(out, json!({"hp": 9, "note": "x"}));
        let out = edit_sheet(
            SystemId::Generic,
            &out,
            &parse_fields("hp+=5 mp＋=1").unwrap_or_default(),
        );
        assert!(out.is_err(), "mp is not kept yet");
        let e = out.unwrap_err();
        assert!(
            e.en.contains("`mp` has no number") && e.ja.contains("`mp`"),
            "{}",
            e.en
        );
        let out = edit_sheet(SystemId::Generic, &sheet, &parse_fields("hp+=5").unwrap()).unwrap();
        assert_eq!(out["hp"], 17);
        // A text is no number to change; the dash inside a name still reads as `_`.
        assert!(edit_sheet(SystemId::Generic, &sheet, &parse_fields("note-=1").unwrap()).is_err());
        assert_eq!(parse_fields("first-aid=2").unwrap()[0].0, "first_aid");
        assert!(edit_sheet(SystemId::Generic, &sheet, &parse_fields("hp-=x").unwrap()).is_err());
    }
}

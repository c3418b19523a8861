//! Character and gear sheets as players type them into `/char`: `key=value` fields that each
//! system turns into its own typed sheet (stored as JSON in the roster entry).
//!
//! A system without typed rules yet keeps a generic sheet: whole numbers and short texts.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::i18n::{Lang, Localized};
use crate::session::SystemId;

/// Most fields one `/char` line may set.
pub const MAX_FIELDS: usize = 60;
const MAX_KEY_CHARS: usize = 32;
const MAX_VALUE_CHARS: usize = 200;

/// A sheet problem, already phrased in both languages (systems bring their own error types).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{en}")]
pub struct SheetError {
    pub en: String,
    pub ja: String,
}

impl SheetError {
    pub fn new(en: impl Into<String>, ja: impl Into<String>) -> Self {
        SheetError {
            en: en.into(),
            ja: ja.into(),
        }
    }

    pub fn from_localized(e: &impl Localized) -> Self {
        SheetError {
            en: e.localized(Lang::En),
            ja: e.localized(Lang::Ja),
        }
    }
}

impl Localized for SheetError {
    fn localized(&self, lang: Lang) -> String {
        lang.pick(&self.en, &self.ja).to_string()
    }
}

/// `body=4 agility=5, firearms=5 weapon="Ares Predator"` → ordered fields. Keys are lower-cased;
/// `-` and spaces inside keys become `_`.
pub fn parse_fields(input: &str) -> Result<Vec<(String, String)>, SheetError> {
    let mut fields = Vec::new();
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
        let key: String = chars[key_start..i].iter().collect();
        if i >= chars.len() || (chars[i] != '=' && chars[i] != '＝') {
            return Err(SheetError::new(
                format!("Write fields as name=value (at `{key}`)."),
                format!("項目は 名前=値 の形で書いてください（`{key}` の所）。"),
            ));
        }
        i += 1;
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
        let key = key.trim().to_lowercase().replace(['-', ' '], "_");
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

/// A generic value: a whole number when it reads as one, else text.
fn generic_value(v: &str) -> Value {
    v.parse::<i64>()
        .map(Value::from)
        .unwrap_or_else(|_| Value::from(v))
}

/// Fields applied over `current`; an empty value removes the field.
fn generic_edit(current: &Value, fields: &[(String, String)]) -> Value {
    let mut map: Map<String, Value> = current.as_object().cloned().unwrap_or_default();
    for (k, v) in fields {
        if v.is_empty() {
            map.remove(k);
        } else {
            map.insert(k.clone(), generic_value(v));
        }
    }
    Value::Object(map)
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

/// [`edit_sheet`] by the GM (`gm`) or a player: Shadowrun 4 keeps a player from raising Edge
/// points (the GM refreshes them).
pub fn edit_sheet_as(
    system: SystemId,
    current: &Value,
    fields: &[(String, String)],
    gm: bool,
) -> Result<Value, SheetError> {
    match system {
        SystemId::BadlandsRally => crate::systems::badlands_rally::sheet::edit(current, fields),
        SystemId::Shadowrun4 => crate::systems::shadowrun4::sheet::edit_as(current, fields, gm),
        SystemId::Warmachine | SystemId::Terminator | SystemId::MechaD20 => Ok(generic_edit(current, fields)),
    }
}

/// The fields among `fields` that only the GM may change on an existing entry (Shadowrun 4:
/// Edge points, burnt Edge, refresh and the condition monitors — the GM refreshes points).
pub fn gm_only_fields(system: SystemId, fields: &[(String, String)]) -> Vec<String> {
    match system {
        SystemId::Shadowrun4 => fields
            .iter()
            .filter(|(k, _)| crate::systems::shadowrun4::sheet::gm_only(k))
            .map(|(k, _)| k.clone())
            .collect(),
        _ => Vec::new(),
    }
}

/// The sheet as `name: value` lines for an embed.
pub fn describe_sheet(system: SystemId, sheet: &Value, lang: Lang) -> Vec<(String, String)> {
    match system {
        SystemId::BadlandsRally => crate::systems::badlands_rally::sheet::describe(sheet, lang),
        SystemId::Shadowrun4 => crate::systems::shadowrun4::sheet::describe(sheet, lang),
        SystemId::Warmachine | SystemId::Terminator | SystemId::MechaD20 => {
            let map: BTreeMap<&String, &Value> =
                sheet.as_object().map(|m| m.iter().collect()).unwrap_or_default();
            map.into_iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str().map_or_else(|| v.to_string(), str::to_string),
                    )
                })
                .collect()
        }
    }
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

    #[test]
    fn generic_sheets_keep_numbers_and_text_and_remove_empty_values() {
        let s = new_sheet(
            SystemId::Warmachine,
            &kv(&[("def", "13"), ("arm", "15"), ("note", "warjack")]),
        )
        .unwrap();
        assert_eq!(s["def"], 13);
        assert_eq!(s["note"], "warjack");
        let s = edit_sheet(SystemId::Warmachine, &s, &kv(&[("def", "14"), ("note", "")])).unwrap();
        assert_eq!(s["def"], 14);
        assert!(s.get("note").is_none());
        let lines = describe_sheet(SystemId::Warmachine, &s, Lang::En);
        assert_eq!(
            lines,
            vec![
                ("arm".to_string(), "15".to_string()),
                ("def".to_string(), "14".to_string())
            ]
        );
    }
}

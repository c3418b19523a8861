//! A character as a text file (issue 27's `/char export` and `/char import`), derived from the
//! system's [`SheetDecl`](super::sheet_decl::SheetDecl): one `field = value` line per declared
//! field that has a value, weapons by slot, other names (skills) after, then — only when the
//! fields do not say everything (damage to a weapon, effects from play) — one `state =` line
//! of JSON holding the rest. Import reads the lines as `/char add` by the GM would, then lays
//! the state over them, so export → import gives the same stored sheet.
//!
//! ```text
//! # Saikoro character sheet
//! format = 1
//! system = mecha_d20
//! name = Zaku
//! durability = 6
//! weapon1 = MG 2d6+3 r3 front
//! ```
//!
//! Lines starting with `#` are comments; values run to the end of the line (quotes around a
//! value are optional). A bad line is refused naming its number, in both languages.
//!
//! A roster file ([`export_roster`], [`import_roster`]) is several such sheets one after
//! another, each separated from the next by a line `---`; each names its character.

use serde_json::{Map, Value};

use super::registry::{SystemId, rules};
use super::sheet_error::SheetError;

/// The format's version, written on every file and checked on import.
pub const FORMAT: u32 = 1;
/// Longer than any sheet could be: a bigger file is refused before it is read.
pub const MAX_FILE_BYTES: usize = 64 * 1024;
/// A roster file's limit: room for a full roster (50 entries) of ordinary sheets (a few hundred
/// bytes each) many times over; a roster of huge sheets is exported and imported one by one.
pub const MAX_ROSTER_BYTES: usize = 16 * MAX_FILE_BYTES;
/// The line between two sheets of a roster file.
pub const SEPARATOR: &str = "---";

/// A character read from a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub system: SystemId,
    /// The `name =` line, when there is one.
    pub name: Option<String>,
    pub sheet: Value,
}

/// One character's stored sheet as a file.
pub fn export(system: SystemId, name: &str, sheet: &Value) -> String {
    let lines = field_lines(system, sheet);
    let mut out = format!(
        "# Saikoro character sheet ({})\nformat = {FORMAT}\nsystem = {}\n",
        system.display_name(crate::i18n::Lang::En),
        system.key()
    );
    if !name.trim().is_empty() {
        out.push_str(&format!("name = {}\n", one_line(name)));
    }
    for (k, v) in &lines {
        out.push_str(&format!("{k} = {}\n", one_line(v)));
    }
    // What the fields do not carry goes in one JSON line.
    let typed = from_fields(system, &lines).unwrap_or(Value::Null);
    if typed != *sheet {
        let rest = diff(&typed, sheet);
        out.push_str(&format!("state = {rest}\n"));
    }
    out
}

/// Read a file back: its system, name and stored sheet. `expect`: the channel's system (a file
/// of another system is refused). Nothing is returned half-read.
pub fn import(text: &str, expect: Option<SystemId>) -> Result<Imported, SheetError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(too_big(MAX_FILE_BYTES));
    }
    import_from(text, expect, 0)
}

fn too_big(limit: usize) -> SheetError {
    SheetError::new(
        format!("A sheet file is at most {} KB.", limit / 1024),
        format!("シートのファイルは{}KBまでです。", limit / 1024),
    )
}

/// Several characters as one file: each sheet as [`export`] writes it, a line `---` between.
pub fn export_roster<'a>(
    system: SystemId,
    entries: impl IntoIterator<Item = (&'a str, &'a Value)>,
) -> String {
    let sheets: Vec<String> = entries
        .into_iter()
        .map(|(name, sheet)| export(system, name, sheet))
        .collect();
    sheets.join(&format!("{SEPARATOR}\n"))
}

/// Read a roster file (or a single sheet): every character, or the first refusal, naming its
/// line in the whole file. Each sheet must name its character, once in the file.
pub fn import_roster(text: &str, expect: Option<SystemId>) -> Result<Vec<Imported>, SheetError> {
    if text.len() > MAX_ROSTER_BYTES {
        return Err(too_big(MAX_ROSTER_BYTES));
    }
    // Each sheet with the number of lines before it, so refusals count from the file's top.
    let mut chunks: Vec<(usize, String)> = vec![(0, String::new())];
    for (i, line) in text.lines().enumerate() {
        if line.trim() == SEPARATOR {
            chunks.push((i + 1, String::new()));
        } else if let Some((_, chunk)) = chunks.last_mut() {
            chunk.push_str(line);
            chunk.push('\n');
        }
    }
    let mut out: Vec<Imported> = Vec::new();
    for (before, chunk) in chunks {
        // An empty piece (a trailing `---`) is no sheet.
        if chunk
            .lines()
            .all(|l| l.trim().is_empty() || l.trim().starts_with('#'))
        {
            continue;
        }
        if chunk.len() > MAX_FILE_BYTES {
            return Err(at_line(before + 1, too_big(MAX_FILE_BYTES)));
        }
        // Every sheet of one game: the later ones are read as the first one's system.
        let want = expect.or(out.first().map(|o: &Imported| o.system));
        let one = import_from(&chunk, want, before)?;
        let Some(name) = one.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) else {
            return Err(at_line(
                before + 1,
                SheetError::new(
                    "this sheet has no `name =` line.",
                    "このシートに `name =` の行がありません。",
                ),
            ));
        };
        let folded = name.to_lowercase();
        if out.iter().any(|o| {
            o.name
                .as_deref()
                .is_some_and(|n| n.trim().to_lowercase() == folded)
        }) {
            return Err(at_line(
                before + 1,
                SheetError::new(
                    format!("`{name}` is in the file twice."),
                    format!("`{name}` がファイルに2回あります。"),
                ),
            ));
        }
        out.push(one);
    }
    if out.is_empty() {
        // Nothing but blanks and comments: refused as a single sheet would be.
        import_from(text, expect, 0)?;
    }
    Ok(out)
}

/// [`import`] of a piece of a file whose first line is line `before + 1`.
fn import_from(text: &str, expect: Option<SystemId>, before: usize) -> Result<Imported, SheetError> {
    let mut format = None;
    let mut system = None;
    let mut name = None;
    let mut state = None;
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut line_of: Vec<usize> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = before + i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((k, v)) = line.split_once(['=', '＝']) else {
            return Err(at_line(
                n,
                SheetError::new("write `field = value`.", "`項目 = 値` の形で書いてください。"),
            ));
        };
        let key = super::sheet_decl::norm(k);
        let v = unquote(v.trim());
        match key.as_str() {
            "format" => format = Some((n, v)),
            "system" => system = Some((n, v)),
            "name" if fields.is_empty() => name = Some(v),
            "state" => {
                let parsed: Value = serde_json::from_str(&v).map_err(|e| {
                    at_line(
                        n,
                        SheetError::new(
                            format!("`state` is not JSON: {e}."),
                            format!("`state` がJSONとして読めません: {e}。"),
                        ),
                    )
                })?;
                state = Some((n, parsed));
            }
            _ => {
                if fields.iter().any(|(k, _)| *k == key) {
                    return Err(at_line(
                        n,
                        SheetError::new(
                            format!("`{key}` is given twice."),
                            format!("`{key}` が2回あります。"),
                        ),
                    ));
                }
                fields.push((key, v));
                line_of.push(n);
            }
        }
    }
    match &format {
        Some((_, v)) if v.trim() == FORMAT.to_string() => {}
        Some((n, v)) => {
            return Err(at_line(
                *n,
                SheetError::new(
                    format!("format {v} is not one this bot reads (it reads {FORMAT})."),
                    format!("形式 {v} は読めません（読めるのは {FORMAT} です）。"),
                ),
            ));
        }
        None => {
            return Err(SheetError::new(
                "This is not a Saikoro sheet file (no `format =` line).",
                "Saikoroのシートファイルではありません（`format =` の行がありません）。",
            ));
        }
    }
    let (sys_line, sys_text) = system.ok_or_else(|| {
        SheetError::new(
            "The file does not say its game system (`system =`).",
            "ファイルにゲームシステム（`system =`）がありません。",
        )
    })?;
    let system: SystemId = sys_text
        .parse()
        .map_err(|e| at_line(sys_line, SheetError::from_localized(&e)))?;
    if let Some(want) = expect
        && want != system
    {
        return Err(at_line(
            sys_line,
            SheetError::new(
                format!(
                    "this is a {} sheet; this game is {}.",
                    system.display_name(crate::i18n::Lang::En),
                    want.display_name(crate::i18n::Lang::En)
                ),
                format!(
                    "{}のシートです。このゲームは{}です。",
                    system.display_name(crate::i18n::Lang::Ja),
                    want.display_name(crate::i18n::Lang::Ja)
                ),
            ),
        ));
    }
    let mut sheet = from_fields(system, &fields).map_err(|e| {
        // The line of the field the refusal names, when it names one.
        let n = fields
            .iter()
            .position(|(k, _)| e.en.contains(&format!("`{k}`")))
            .map(|i| line_of[i]);
        match n {
            Some(n) => at_line(n, e),
            None => e,
        }
    })?;
    if let Some((n, patch)) = state {
        merge(&mut sheet, &patch);
        // The laid-over state must still read as the system's sheet.
        rules(system)
            .edit_sheet(&sheet, &[], true)
            .map_err(|e| at_line(n, e))?;
    }
    Ok(Imported { system, name, sheet })
}

/// The sheet's fields as typed, in declared order: fields, weapon slots, then free names.
pub fn field_lines(system: SystemId, sheet: &Value) -> Vec<(String, String)> {
    let decl = rules(system).sheet_decl();
    let mut out: Vec<(String, String)> = decl
        .fields
        .iter()
        .filter_map(|f| f.value_in(sheet).map(|v| (f, v)))
        // `no` is every flag's default: writing it would ask for a change (`knocked_down=no`
        // stands a model up) that a cannot-flag may refuse.
        .filter(|(f, v)| !(matches!(f.kind, super::sheet_decl::Kind::YesNo) && v == "no"))
        .map(|(f, v)| (f.key.to_string(), v))
        .collect();
    if let Some(w) = &decl.weapons {
        let first = w.first();
        for (i, v) in (w.stored)(sheet).into_iter().enumerate() {
            out.push((format!("{first}{}", i + 1), v));
        }
    }
    if let Some(free) = &decl.free {
        out.extend((free.stored)(sheet));
    }
    out
}

/// A new sheet from typed fields, as the GM's `/char add` makes it.
fn from_fields(system: SystemId, fields: &[(String, String)]) -> Result<Value, SheetError> {
    rules(system).edit_sheet(&Value::Object(Map::new()), fields, true)
}

fn at_line(n: usize, e: SheetError) -> SheetError {
    SheetError::new(format!("Line {n}: {}", e.en), format!("{n}行目: {}", e.ja))
}

fn unquote(v: &str) -> String {
    v.strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(v)
        .to_string()
}

/// A value on one line (a line break would end it).
fn one_line(v: &str) -> String {
    v.replace(['\n', '\r'], " ")
}

/// What `to` has that `from` lacks or differs in: objects key by key, anything else whole.
/// A key `from` has and `to` lacks is written as null (removed by [`merge`]).
fn diff(from: &Value, to: &Value) -> Value {
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => {
            let mut out = Map::new();
            for (k, v) in b {
                match a.get(k) {
                    Some(old) if old == v => {}
                    Some(old) if old.is_object() && v.is_object() => {
                        out.insert(k.clone(), diff(old, v));
                    }
                    _ => {
                        out.insert(k.clone(), wrap_null(v));
                    }
                }
            }
            for k in a.keys().filter(|k| !b.contains_key(*k)) {
                out.insert(k.clone(), Value::Null);
            }
            Value::Object(out)
        }
        _ => to.clone(),
    }
}

/// A stored null is written `{"$null": true}` so it is not read as "remove".
fn wrap_null(v: &Value) -> Value {
    if v.is_null() {
        serde_json::json!({ "$null": true })
    } else {
        v.clone()
    }
}

/// Lay `patch` over `target` (objects key by key; null removes; `{"$null": true}` is null).
fn merge(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if p.len() == 1 && p.get("$null") == Some(&Value::Bool(true)) {
        *target = Value::Null;
        return;
    }
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(t) = target {
        for (k, v) in p {
            if v.is_null() {
                t.remove(k);
            } else {
                merge(t.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn diff_and_merge_are_inverse() {
        let a = json!({"x": 1, "o": {"k": 2, "gone": 3}, "n": 5});
        let b = json!({"x": 1, "o": {"k": 4}, "n": null, "new": [1, 2]});
        let mut m = a.clone();
        merge(&mut m, &diff(&a, &b));
        assert_eq!(m, b);
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let e = import("format = 1\nsystem = mecha_d20\nnot a field\n", None).unwrap_err();
        assert!(e.en.starts_with("Line 3:"), "{}", e.en);
        assert!(e.ja.starts_with("3行目:"));
        let e = import("format = 2\nsystem = generic\n", None).unwrap_err();
        assert!(e.en.contains("format 2"));
        assert!(import("hello", None).unwrap_err().en.starts_with("Line 1:"));
        assert!(
            import("hello = 3", None)
                .unwrap_err()
                .en
                .contains("not a Saikoro sheet")
        );
        let e = import("format = 1\nsystem = generic\n", Some(SystemId::Warmachine)).unwrap_err();
        assert!(e.en.contains("this game is Warmachine"), "{}", e.en);
        let big = "#".repeat(MAX_FILE_BYTES + 1);
        assert!(import(&big, None).unwrap_err().en.contains("KB"));
        let e = import("format = 1\nsystem = generic\nstate = {oops\n", None).unwrap_err();
        assert!(e.en.starts_with("Line 3:"));
    }

    #[test]
    fn a_generic_sheet_round_trips() {
        let sheet = json!({"hp": 12, "note": "two words"});
        let text = export(SystemId::Generic, "Ana", &sheet);
        assert!(
            text.contains("hp = 12\n") && text.contains("note = two words\n"),
            "{text}"
        );
        let back = import(&text, Some(SystemId::Generic)).unwrap();
        assert_eq!(back.sheet, sheet);
        assert_eq!(back.name.as_deref(), Some("Ana"));
    }

    #[test]
    fn a_roster_round_trips_and_names_lines_in_the_whole_file() {
        let a = json!({"hp": 12});
        let b = json!({"note": "scout"});
        let text = export_roster(SystemId::Generic, [("Ana", &a), ("Bo", &b)]);
        assert_eq!(
            text,
            "# Saikoro character sheet (Generic)\nformat = 1\nsystem = generic\nname = Ana\nhp = 12\n\
             ---\n\
             # Saikoro character sheet (Generic)\nformat = 1\nsystem = generic\nname = Bo\nnote = scout\n"
        );
        let back = import_roster(&text, Some(SystemId::Generic)).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!((back[0].name.as_deref(), &back[0].sheet), (Some("Ana"), &a));
        assert_eq!((back[1].name.as_deref(), &back[1].sheet), (Some("Bo"), &b));
        // One sheet alone is a roster of one; a trailing separator adds nothing.
        assert_eq!(import_roster(&format!("{text}---\n"), None).unwrap().len(), 2);
        // Line 9 is the second sheet's `system` line (the separator is line 6).
        let bad = text.replacen("system = generic\nname = Bo", "system = warmachine\nname = Bo", 1);
        let e = import_roster(&bad, None).unwrap_err();
        assert_eq!(e.en, "Line 9: this is a Warmachine sheet; this game is Generic.");
        let e = import_roster(&bad, Some(SystemId::Generic)).unwrap_err();
        assert!(
            e.en.starts_with("Line 9:") && e.en.contains("Warmachine"),
            "{}",
            e.en
        );
        let twice = export_roster(SystemId::Generic, [("Ana", &a), ("ana", &b)]);
        let e = import_roster(&twice, None).unwrap_err();
        assert_eq!(e.en, "Line 7: `ana` is in the file twice.");
        let nameless = format!("{text}---\nformat = 1\nsystem = generic\nhp = 3\n");
        let e = import_roster(&nameless, None).unwrap_err();
        assert!(
            e.en.starts_with("Line 13:") && e.en.contains("no `name =`"),
            "{}",
            e.en
        );
        assert!(
            import_roster("# only a comment\n", None)
                .unwrap_err()
                .en
                .contains("not a Saikoro sheet")
        );
        let big = "#".repeat(MAX_ROSTER_BYTES + 1);
        assert!(import_roster(&big, None).unwrap_err().en.contains("KB"));
    }
}

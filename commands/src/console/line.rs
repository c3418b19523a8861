//! A typed line such as `/roll dice:2d6+3 label:Attack` → the option tree Discord would send,
//! checked against the command schema the bot registered (names, subcommands, option types,
//! choices, limits). Japanese (localized) names are accepted too.

use std::collections::BTreeMap;

use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("a line starts with a slash command, like `/roll dice:2d6`")]
    NoSlash,
    #[error("unknown command `/{0}`; known: {1}")]
    UnknownCommand(String, String),
    #[error("`/{0}` needs a subcommand: {1}")]
    MissingSubcommand(String, String),
    #[error("`{0}` is not a subcommand of `/{1}`; known: {2}")]
    UnknownSubcommand(String, String, String),
    #[error("unknown option `{0}` for `/{1}`; options: {2}")]
    UnknownOption(String, String, String),
    #[error("unexpected text `{0}`: write options as name:value")]
    Stray(String),
    #[error("option `{0}` is given twice")]
    Duplicate(String),
    #[error("missing required option `{0}`")]
    Missing(String),
    #[error("option `{0}` expects {1}, got `{2}`")]
    WrongType(String, &'static str, String),
    #[error("option `{0}` must be one of: {1}")]
    NotAChoice(String, String),
    #[error("option `{0}` is out of range ({1})")]
    OutOfRange(String, String),
    #[error("option `{0}` has a type the console cannot build yet")]
    Unsupported(String),
    #[error("`complete` needs the option being typed last, like `complete /char edit name:An`")]
    NothingFocused,
    #[error("option `{0}` offers no suggestions (the bot does not autocomplete it)")]
    NoAutocomplete(String),
    #[error("`{0}` is hidden from you: Discord shows it only to members with Manage Server")]
    NotPermitted(String),
}

/// The command chosen, the options as Discord nests them, and the users they name.
#[derive(Debug, Clone, PartialEq)]
pub struct BuiltLine {
    pub command: Value,
    pub options: Value,
    pub resolved: Value,
    /// The path typed, e.g. `roll` or `sr test`.
    pub path: String,
    /// Whether the `file` given to [`build_attaching`] went into an attachment option.
    pub attached: bool,
}

/// A user named in an option: `@name` or a numeric id.
pub type UserLookup<'a> = &'a dyn Fn(&str) -> Value;

fn names(v: &Value) -> impl Iterator<Item = &str> {
    let base = v["name"].as_str().into_iter();
    let localized = v["name_localizations"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values().filter_map(Value::as_str));
    base.chain(localized)
}

fn matches(v: &Value, word: &str) -> bool {
    names(v).any(|n| n == word)
}

fn loose(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The lower-cased alphanumeric words of `s`, sorted.
fn words(s: &str) -> Vec<String> {
    let mut w: Vec<String> = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    w.sort();
    w
}

fn list(vs: &[Value]) -> String {
    vs.iter()
        .filter_map(|v| v["name"].as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn options_of(v: &Value) -> Vec<Value> {
    v["options"].as_array().cloned().unwrap_or_default()
}

/// Split `rest` at every ` name:` where `name` is a known option (canonical or localized).
fn split_pairs<'a>(rest: &'a str, known: &[Value]) -> Result<Vec<(&'a str, &'a str)>, LineError> {
    let mut starts: Vec<(usize, usize)> = Vec::new(); // (start of name, start of value)
    for opt in known {
        for name in names(opt) {
            let pat = format!("{name}:");
            let mut from = 0;
            while let Some(i) = rest[from..].find(&pat) {
                let at = from + i;
                let boundary = at == 0 || rest[..at].ends_with(char::is_whitespace);
                if boundary {
                    starts.push((at, at + pat.len()));
                }
                from = at + pat.len();
            }
        }
    }
    starts.sort();
    starts.dedup_by_key(|s| s.0);
    let lead = starts.first().map_or(rest, |s| &rest[..s.0]).trim();
    if !lead.is_empty() {
        let word = lead.split_whitespace().next().unwrap_or(lead);
        return Err(match word.split_once(':') {
            Some((name, _)) => LineError::UnknownOption(name.to_string(), String::new(), list(known)),
            None => LineError::Stray(lead.to_string()),
        });
    }
    let mut pairs = Vec::new();
    for (k, &(name_at, value_at)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(rest.len(), |n| n.0);
        let value = rest[value_at..end].trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        pairs.push((&rest[name_at..value_at - 1], value));
    }
    Ok(pairs)
}

fn convert(
    opt: &Value,
    raw: &str,
    users: UserLookup<'_>,
    resolved: &mut BTreeMap<String, Value>,
) -> Result<Value, LineError> {
    let name = opt["name"].as_str().unwrap_or_default().to_string();
    let wrong = |what| LineError::WrongType(name.clone(), what, raw.to_string());
    if let Some(choices) = opt["choices"].as_array().filter(|c| !c.is_empty()) {
        let chosen = choices
            .iter()
            .find(|c| matches(c, raw) || c["value"].as_str() == Some(raw))
            .or_else(|| {
                // Typed loosely: `shadowrun4` for "Shadowrun 4", `badlands_rally` for "Badlands
                // Rally", and the words in any order (`mecha_d20` for "d20 Mecha").
                let want = loose(raw);
                let want_words = words(raw);
                choices
                    .iter()
                    .find(|c| names(c).any(|n| loose(n) == want))
                    .or_else(|| choices.iter().find(|c| names(c).any(|n| words(n) == want_words)))
                    .or_else(|| {
                        // The start of one name and no other (`terminator` for "Terminator Genisys").
                        let starts: Vec<&Value> = choices
                            .iter()
                            .filter(|c| !want.is_empty() && names(c).any(|n| loose(n).starts_with(&want)))
                            .collect();
                        match starts.as_slice() {
                            [one] => Some(*one),
                            _ => None,
                        }
                    })
            });
        return chosen
            .map(|c| c["value"].clone())
            .ok_or_else(|| LineError::NotAChoice(name.clone(), list(choices)));
    }
    let range = |v: f64| -> Result<(), LineError> {
        let min = opt["min_value"].as_f64();
        let max = opt["max_value"].as_f64();
        if min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m) {
            let show = |b: Option<f64>| b.map_or("…".to_string(), |b| b.to_string());
            return Err(LineError::OutOfRange(
                name.clone(),
                format!("{} to {}", show(min), show(max)),
            ));
        }
        Ok(())
    };
    match opt["type"].as_u64() {
        Some(3) => {
            let len = raw.chars().count() as u64;
            let min = opt["min_length"].as_u64().unwrap_or(0);
            let max = opt["max_length"].as_u64().unwrap_or(6000);
            if len < min.max(1) || len > max {
                return Err(LineError::OutOfRange(
                    name,
                    format!("{} to {max} characters", min.max(1)),
                ));
            }
            Ok(json!(mention_members(raw, users, resolved)))
        }
        Some(4) => {
            let n: i64 = raw.parse().map_err(|_| wrong("a whole number"))?;
            range(n as f64)?;
            Ok(json!(n))
        }
        Some(10) => {
            let n: f64 = raw.parse().map_err(|_| wrong("a number"))?;
            if !n.is_finite() {
                return Err(wrong("a number"));
            }
            range(n)?;
            Ok(json!(n))
        }
        Some(5) => match raw.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Ok(json!(true)),
            "false" | "no" | "off" | "0" => Ok(json!(false)),
            _ => Err(wrong("true or false")),
        },
        Some(6) => {
            let user = users(raw.trim_start_matches('@'));
            let id = user["id"].as_str().unwrap_or_default().to_string();
            resolved.entry("users".into()).or_insert_with(|| json!({}))[&id] = user;
            Ok(json!(id))
        }
        Some(7) => {
            let name = raw.trim_start_matches('#');
            let id = name.parse::<u64>().unwrap_or_else(|_| named_id(name));
            resolved.entry("channels".into()).or_insert_with(|| json!({}))[id.to_string()] =
                crate::fake_discord::payloads::resolved_channel(id, name);
            Ok(json!(id.to_string()))
        }
        Some(11) => {
            // A file on this machine: the console hosts it on the fake Discord, which fills in
            // this attachment's size and URL (see `Console::host_files`).
            let path = raw.trim();
            let id = named_id(path).to_string();
            let filename = std::path::Path::new(path)
                .file_name()
                .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
            resolved.entry("attachments".into()).or_insert_with(|| json!({}))[&id] =
                json!({ "id": id, "filename": filename, "path": path });
            Ok(json!(id))
        }
        Some(8) => {
            let name = raw.trim_start_matches("@&").trim_start_matches('@');
            let id = name.parse::<u64>().unwrap_or_else(|_| named_id(name));
            resolved.entry("roles".into()).or_insert_with(|| json!({}))[id.to_string()] =
                crate::fake_discord::payloads::role(id, name);
            Ok(json!(id.to_string()))
        }
        _ => Err(LineError::Unsupported(name)),
    }
}

/// `@name` in a text option as Discord sends a member picked from its `@` list: the mention
/// `<@id>` (a player list, a Warmachine `controller=@ana`). An `@` inside a word (`a@b`) or
/// before a role (`@&GM`) stays as typed.
fn mention_members(raw: &str, users: UserLookup<'_>, resolved: &mut BTreeMap<String, Value>) -> String {
    let name_char = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '-');
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    let mut prev: Option<char> = None;
    while let Some(at) = rest.find('@') {
        let before = &rest[..at];
        out.push_str(before);
        let prev_char = before.chars().last().or(prev);
        let after = &rest[at + 1..];
        let len = after.find(|c: char| !name_char(c)).unwrap_or(after.len());
        let name = after[..len].trim_end_matches(['.', '-']);
        if prev_char.is_some_and(|c| name_char(c) || c == '<') || name.is_empty() {
            out.push('@');
            prev = Some('@');
            rest = after;
            continue;
        }
        let user = users(name);
        let id = user["id"].as_str().unwrap_or_default().to_string();
        out.push_str(&format!("<@{id}>"));
        resolved.entry("users".to_string()).or_insert_with(|| json!({}))[&id] = user;
        prev = Some('>');
        rest = &after[name.len()..];
    }
    out.push_str(rest);
    out
}

/// A stable snowflake-sized id for a channel or role typed by name (`#gm`, `@&GM`).
pub fn named_id(name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut h);
    200_000_000_000_000_000 + h.finish() % 700_000_000_000_000_000
}

/// Build the interaction data for `line` from the registered `commands`.
pub fn build(line: &str, commands: &[Value], users: UserLookup<'_>) -> Result<BuiltLine, LineError> {
    build_with(line, commands, users, false, None)
}

/// [`build`], with `file` (a path) for the first attachment option the line leaves out (the
/// console's `--attach`); [`BuiltLine::attached`] says whether it was used.
pub fn build_attaching(
    line: &str,
    commands: &[Value],
    users: UserLookup<'_>,
    file: Option<&str>,
) -> Result<BuiltLine, LineError> {
    build_with(line, commands, users, false, file)
}

/// An autocomplete request for `line`: its last option is the one being typed (`focused`, its
/// text sent as typed), and required options may still be missing.
pub fn build_partial(line: &str, commands: &[Value], users: UserLookup<'_>) -> Result<BuiltLine, LineError> {
    build_with(line, commands, users, true, None)
}

fn build_with(
    line: &str,
    commands: &[Value],
    users: UserLookup<'_>,
    partial: bool,
    file: Option<&str>,
) -> Result<BuiltLine, LineError> {
    let line = line.trim();
    let rest = line.strip_prefix('/').ok_or(LineError::NoSlash)?;
    let (word, mut rest) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let command = commands
        .iter()
        .find(|c| matches(c, word))
        .ok_or_else(|| LineError::UnknownCommand(word.to_string(), list(commands)))?;
    let mut path = vec![command["name"].as_str().unwrap_or_default().to_string()];
    // Walk subcommand groups (type 2) and subcommands (type 1).
    let mut node = command.clone();
    let mut wrappers: Vec<Value> = Vec::new();
    loop {
        let subs: Vec<Value> = options_of(&node)
            .into_iter()
            .filter(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
            .collect();
        if subs.is_empty() {
            break;
        }
        let trimmed = rest.trim_start();
        let (sub_word, after) = trimmed.split_once(char::is_whitespace).unwrap_or((trimmed, ""));
        if sub_word.is_empty() {
            return Err(LineError::MissingSubcommand(path.join(" "), list(&subs)));
        }
        let sub = subs
            .iter()
            .find(|s| matches(s, sub_word))
            .ok_or_else(|| LineError::UnknownSubcommand(sub_word.to_string(), path.join(" "), list(&subs)))?;
        path.push(sub["name"].as_str().unwrap_or_default().to_string());
        wrappers.push(json!({ "name": sub["name"], "type": sub["type"] }));
        node = sub.clone();
        rest = after;
    }
    let known = options_of(&node);
    let pairs = split_pairs(rest, &known).map_err(|e| match e {
        LineError::UnknownOption(n, _, l) => LineError::UnknownOption(n, path.join(" "), l),
        other => other,
    })?;
    let mut given: BTreeMap<String, Value> = BTreeMap::new();
    let mut resolved_data = BTreeMap::new();
    let focus = if partial {
        Some(pairs.len().checked_sub(1).ok_or(LineError::NothingFocused)?)
    } else {
        None
    };
    for (i, (name, raw)) in pairs.into_iter().enumerate() {
        let opt = known
            .iter()
            .find(|o| matches(o, name))
            .ok_or_else(|| LineError::UnknownOption(name.to_string(), path.join(" "), list(&known)))?;
        let canonical = opt["name"].as_str().unwrap_or_default().to_string();
        let entry = if focus == Some(i) {
            if opt["autocomplete"].as_bool() != Some(true) {
                return Err(LineError::NoAutocomplete(canonical));
            }
            json!({ "name": canonical, "type": opt["type"], "value": raw, "focused": true })
        } else {
            let value = convert(opt, raw, users, &mut resolved_data)?;
            json!({ "name": canonical, "type": opt["type"], "value": value })
        };
        if given.insert(canonical.clone(), entry).is_some() {
            return Err(LineError::Duplicate(canonical));
        }
    }
    let mut attached = false;
    let untyped_file = known.iter().find(|o| {
        o["type"].as_u64() == Some(11) && !given.contains_key(o["name"].as_str().unwrap_or_default())
    });
    if let (Some(path), Some(opt)) = (file, untyped_file) {
        let canonical = opt["name"].as_str().unwrap_or_default().to_string();
        let value = convert(opt, path, users, &mut resolved_data)?;
        given.insert(
            canonical.clone(),
            json!({ "name": canonical, "type": 11, "value": value }),
        );
        attached = true;
    }
    for opt in known.iter().filter(|_| !partial) {
        let name = opt["name"].as_str().unwrap_or_default();
        if opt["required"].as_bool() == Some(true) && !given.contains_key(name) {
            return Err(LineError::Missing(name.to_string()));
        }
    }
    // Discord sends options in the order the command declares them.
    let leaf: Vec<Value> = known
        .iter()
        .filter_map(|o| given.remove(o["name"].as_str().unwrap_or_default()))
        .collect();
    let mut options = Value::Array(leaf);
    for mut w in wrappers.into_iter().rev() {
        w["options"] = options;
        options = json!([w]);
    }
    let resolved = Value::Object(resolved_data.into_iter().collect());
    Ok(BuiltLine {
        command: command.clone(),
        options,
        resolved,
        path: path.join(" "),
        attached,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Vec<Value> {
        vec![
            json!({ "id": "1", "name": "roll", "name_localizations": { "ja": "ダイス" }, "options": [
                { "type": 3, "name": "dice", "name_localizations": { "ja": "式" }, "required": true, "max_length": 200 },
                { "type": 3, "name": "label", "required": false },
            ]}),
            json!({ "id": "2", "name": "sr", "options": [
                { "type": 1, "name": "test", "options": [
                    { "type": 4, "name": "pool", "required": true, "min_value": 0, "max_value": 60 },
                    { "type": 5, "name": "edge" },
                    { "type": 3, "name": "mode", "choices": [{ "name": "Normal", "value": "normal" }, { "name": "Hard", "value": "hard" }] },
                    { "type": 6, "name": "target" },
                ]},
            ]}),
        ]
    }

    fn users(name: &str) -> Value {
        json!({ "id": "77", "username": name })
    }

    fn b(line: &str) -> Result<BuiltLine, LineError> {
        build(line, &schema(), &users)
    }

    /// Issue 29: `@ana` in a text option is sent as Discord sends a picked member, `<@id>`;
    /// an `@` inside a word or a mention already written stays.
    #[test]
    fn a_member_typed_in_a_text_option_becomes_a_mention() {
        let l = b("/roll dice:1d6 label:@ana, @bob; a@b.c <@12> @").unwrap();
        assert_eq!(l.options[1]["value"], "<@77>, <@77>; a@b.c <@12> @");
        assert_eq!(l.resolved["users"]["77"]["username"], "bob");
    }

    #[test]
    fn builds_options_with_spaces_and_localized_names() {
        let l = b("/roll dice:6 4d6 label:Big hit").unwrap();
        assert_eq!(
            l.options,
            json!([{ "name": "dice", "type": 3, "value": "6 4d6" }, { "name": "label", "type": 3, "value": "Big hit" }])
        );
        let l = b("/ダイス 式:2d6").unwrap();
        assert_eq!(l.path, "roll");
        assert_eq!(l.options[0]["value"], "2d6");
    }

    #[test]
    fn subcommands_types_and_choices() {
        let l = b("/sr test pool:12 edge:yes mode:Hard target:@bob").unwrap();
        let opts = &l.options[0]["options"];
        assert_eq!(l.options[0]["name"], "test");
        assert_eq!(opts[0]["value"], 12);
        assert_eq!(opts[1]["value"], true);
        assert_eq!(opts[2]["value"], "hard");
        assert_eq!(opts[3]["value"], "77");
        assert_eq!(l.resolved["users"]["77"]["username"], "bob");
        let mut loose_schema = schema();
        loose_schema[1]["options"][0]["options"][2]["choices"][1]["name"] = json!("Hard Mode");
        let l = build("/sr test pool:1 mode:mode_hard", &loose_schema, &users).unwrap();
        assert_eq!(l.options[0]["options"][1]["value"], "hard", "words in any order");
        let l = build("/sr test pool:1 mode:norm", &schema(), &users).unwrap();
        assert_eq!(l.options[0]["options"][1]["value"], "normal", "a unique start");
    }

    #[test]
    fn a_partial_line_focuses_its_last_option_and_may_miss_required_ones() {
        let mut schema = schema();
        schema[1]["options"][0]["options"][3]["autocomplete"] = json!(true);
        let l = build_partial("/sr test target:Bo", &schema, &users).unwrap();
        let opts = &l.options[0]["options"];
        assert_eq!(
            opts[0],
            json!({ "name": "target", "type": 6, "value": "Bo", "focused": true })
        );
        assert_eq!(
            build_partial("/sr test pool:1", &schema, &users),
            Err(LineError::NoAutocomplete("pool".into()))
        );
        assert_eq!(
            build_partial("/sr test", &schema, &users),
            Err(LineError::NothingFocused)
        );
        assert_eq!(
            build("/sr test target:Bo", &schema, &users),
            Err(LineError::Missing("pool".into()))
        );
    }

    #[test]
    fn an_attachment_is_a_path_typed_or_given_by_attach() {
        let mut schema = schema();
        schema.push(json!({ "id": "3", "name": "char", "options": [
            { "type": 1, "name": "import", "options": [
                { "type": 11, "name": "file", "required": true },
                { "type": 5, "name": "replace" },
            ]},
        ]}));
        let l = build("/char import file:sheets/ana.saikoro.txt", &schema, &users).unwrap();
        let id = l.options[0]["options"][0]["value"].as_str().unwrap().to_string();
        assert_eq!(l.options[0]["options"][0]["type"], 11);
        assert_eq!(
            l.resolved["attachments"][&id],
            json!({ "id": id, "filename": "ana.saikoro.txt", "path": "sheets/ana.saikoro.txt" })
        );
        assert!(!l.attached);
        let l = build_attaching("/char import replace:true", &schema, &users, Some("b.txt")).unwrap();
        assert!(l.attached);
        assert_eq!(l.options[0]["options"][0]["name"], "file");
        assert_eq!(l.options[0]["options"][1]["name"], "replace");
        // A line that types its file keeps it; `--attach` waits for the next.
        let l = build_attaching("/char import file:a.txt", &schema, &users, Some("b.txt")).unwrap();
        assert!(!l.attached);
        assert_eq!(
            build("/char import replace:true", &schema, &users),
            Err(LineError::Missing("file".into()))
        );
    }

    #[test]
    fn bad_lines_are_clear_errors() {
        assert_eq!(b("roll dice:2d6"), Err(LineError::NoSlash));
        assert!(matches!(b("/nope"), Err(LineError::UnknownCommand(..))));
        assert!(matches!(b("/sr"), Err(LineError::MissingSubcommand(..))));
        assert!(matches!(b("/sr fly"), Err(LineError::UnknownSubcommand(..))));
        assert!(matches!(b("/roll dize:2d6"), Err(LineError::UnknownOption(..))));
        assert!(matches!(b("/roll 2d6"), Err(LineError::Stray(..))));
        assert_eq!(b("/roll label:x"), Err(LineError::Missing("dice".into())));
        assert_eq!(b("/roll dice:1 dice:2"), Err(LineError::Duplicate("dice".into())));
        assert!(matches!(b("/sr test pool:many"), Err(LineError::WrongType(..))));
        assert!(matches!(b("/sr test pool:61"), Err(LineError::OutOfRange(..))));
        assert!(matches!(
            b("/sr test pool:1 mode:Easy"),
            Err(LineError::NotAChoice(..))
        ));
        assert!(matches!(
            b(&format!("/roll dice:{}", "1".repeat(201))),
            Err(LineError::OutOfRange(..))
        ));
    }
}

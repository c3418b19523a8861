//! A system's sheet, declared once: every field with its English and Japanese names, its type
//! and range, whether a new sheet needs it, who may change it, a line of help and an example,
//! and the weapon grammar where the system has weapons. Each system declares its own
//! [`SheetDecl`] in its folder (`systems/<key>/sheet_decl.rs`); from it come the names a field
//! answers to, the number, yes/no and choice checks with their errors in both languages, the
//! GM-only fields, the missing-field refusal and warning, `/help`'s field list, the `stats:`
//! autocomplete and the sheet file format ([`super::sheet_file`]).
//!
//! A plain table of our own rather than a crate: what a field needs (two languages, Discord's
//! `key=value` line, a stored JSON path) is no form library's shape.

use serde_json::Value;

use super::bounds::within;
use super::sheet_error::SheetError;
use crate::i18n::Lang;

/// What a field's value is.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int { min: i64, max: i64 },
    /// Text of at most `max` characters.
    Text { max: usize },
    /// `yes` / `no` (also `はい` / `いいえ`, `on` / `off`).
    YesNo,
    /// One of a few words; each choice is the word written first, then its other spellings.
    Choice(&'static [&'static [&'static str]]),
    /// A grammar of the system's own, described in words (`6/4`, `d8`, a list of flags).
    Other { en: &'static str, ja: &'static str },
}

/// Whether a new sheet needs the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// A new sheet without it is refused, naming it.
    Required,
    /// Accepted without it, but the rules read 0 until it is set: `/char` says so.
    Warn,
    Optional,
}

/// Where a field's value is kept in the stored sheet, so the file format can write it back.
#[derive(Debug, Clone, Copy)]
pub enum Stored {
    /// A JSON pointer into the stored sheet (`/suit/movement`).
    At(&'static str),
    /// Read by the system's own function: the value as typed, `None` when unset.
    With(fn(&Value) -> Option<String>),
    /// An action (`reset=yes`) or an alias: nothing is kept to write back.
    Action,
}

/// One field of a sheet.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The name written first and kept (`durability`).
    pub key: &'static str,
    /// Other names a player may type (English aliases and Japanese names).
    pub names: &'static [&'static str],
    /// The name shown in Japanese (the key is the English one).
    pub ja: &'static str,
    pub kind: Kind,
    pub need: Need,
    /// Only the GM changes it on an existing sheet.
    pub gm_only: bool,
    /// One line of help in each language.
    pub help: (&'static str, &'static str),
    /// A value as typed (`20`, `"Beam Rifle 2d6+5 r3"`).
    pub example: &'static str,
    pub stored: Stored,
    /// The `/char show` row it shares with the other fields of its group (`Attributes`), or
    /// its own row under its label ([`super::sheet_show`]).
    pub group: Option<Group>,
    /// Watched on the `/session status` board.
    pub board: bool,
    /// Its default (0, or a choice's first word) is not shown: a field most sheets leave
    /// there (Magic, fatigue, a model's `ok`).
    pub quiet: bool,
}

/// A `/char show` row several fields share: its title in each language.
pub type Group = (&'static str, &'static str);

impl Field {
    /// A field with no aliases, optional, open to players, read at `path`: the common case the
    /// builder methods below adjust.
    pub const fn new(key: &'static str, ja: &'static str, kind: Kind, example: &'static str) -> Field {
        Field {
            key,
            names: &[],
            ja,
            kind,
            need: Need::Optional,
            gm_only: false,
            help: ("", ""),
            example,
            stored: Stored::Action,
            group: None,
            board: false,
            quiet: false,
        }
    }

    pub const fn group(mut self, group: Group) -> Field {
        self.group = Some(group);
        self
    }

    pub const fn board(mut self) -> Field {
        self.board = true;
        self
    }

    pub const fn quiet(mut self) -> Field {
        self.quiet = true;
        self
    }

    pub const fn names(mut self, names: &'static [&'static str]) -> Field {
        self.names = names;
        self
    }

    pub const fn at(mut self, path: &'static str) -> Field {
        self.stored = Stored::At(path);
        self
    }

    pub const fn with(mut self, read: fn(&Value) -> Option<String>) -> Field {
        self.stored = Stored::With(read);
        self
    }

    pub const fn help(mut self, en: &'static str, ja: &'static str) -> Field {
        self.help = (en, ja);
        self
    }

    pub const fn required(mut self) -> Field {
        self.need = Need::Required;
        self
    }

    pub const fn warn(mut self) -> Field {
        self.need = Need::Warn;
        self
    }

    pub const fn gm(mut self) -> Field {
        self.gm_only = true;
        self
    }

    /// Whether `typed` (as `parse_fields` gives it) names this field.
    pub fn answers_to(&self, typed: &str) -> bool {
        self.key == typed || self.ja == typed || self.names.contains(&typed)
    }

    /// The name shown in `lang`.
    pub fn label(&self, lang: Lang) -> &'static str {
        lang.pick(self.key, self.ja)
    }

    /// The type and range in words: `0–30`, `yes/no`, `multi | all_round`.
    pub fn range(&self, lang: Lang) -> String {
        match self.kind {
            Kind::Int { min, max } => format!("{min}–{max}"),
            Kind::Text { max } => match lang {
                Lang::En => format!("text ≤{max}"),
                Lang::Ja => format!("{max}文字まで"),
            },
            Kind::YesNo => "yes/no".to_string(),
            Kind::Choice(c) => c.iter().map(|w| w[0]).collect::<Vec<_>>().join(" | "),
            Kind::Other { en, ja } => lang.pick(en, ja).to_string(),
        }
    }

    /// The field's value in a stored sheet, as typed (`None`: unset, or an action).
    pub fn value_in(&self, sheet: &Value) -> Option<String> {
        match self.stored {
            Stored::Action => None,
            Stored::With(read) => read(sheet),
            Stored::At(path) => {
                let v = sheet.pointer(path)?;
                match (v, self.kind) {
                    (Value::Null, _) => None,
                    (Value::Bool(b), _) => Some(if *b { "yes" } else { "no" }.to_string()),
                    (Value::String(s), Kind::Choice(choices)) => choices
                        .iter()
                        .find(|w| w.iter().any(|n| norm(n) == norm(s)))
                        .map(|w| w[0].to_string())
                        .or_else(|| Some(s.clone())),
                    (Value::String(s), _) => Some(s.clone()),
                    (other, _) => Some(other.to_string()),
                }
            }
        }
    }

    /// A whole number for this field, typed under `typed`, within the declared range.
    pub fn int(&self, typed: &str, v: &str) -> Result<i64, SheetError> {
        let (min, max) = match self.kind {
            Kind::Int { min, max } => (min, max),
            _ => (i64::MIN, i64::MAX),
        };
        int_in(typed, v, min, max)
    }

    /// [`int`](Self::int) for a field that cannot be negative.
    pub fn uint(&self, typed: &str, v: &str) -> Result<u32, SheetError> {
        self.int(typed, v).map(|n| u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// Text within the declared length.
    pub fn text(&self, typed: &str, v: &str) -> Result<String, SheetError> {
        let max = match self.kind {
            Kind::Text { max } => max,
            _ => usize::MAX,
        };
        let t = v.trim();
        if t.chars().count() > max {
            return Err(SheetError::new(
                format!("`{typed}` is at most {max} characters."),
                format!("`{typed}` は{max}文字までです。"),
            ));
        }
        Ok(t.to_string())
    }

    /// The choice's first word for what was typed (any spelling, any case), or a refusal that
    /// lists the choices.
    pub fn choice(&self, typed: &str, v: &str) -> Result<&'static str, SheetError> {
        let Kind::Choice(choices) = self.kind else {
            return Ok("");
        };
        let t = norm(v);
        choices
            .iter()
            .find(|w| w.iter().any(|n| norm(n) == t))
            .map(|w| w[0])
            .ok_or_else(|| {
                let en: Vec<&str> = choices.iter().map(|w| w[0]).collect();
                let ja: Vec<&str> = choices.iter().map(|w| *w.last().unwrap_or(&w[0])).collect();
                // `a, b or c`
                let listed = match en.split_last() {
                    Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                    _ => en.join(""),
                };
                SheetError::new(
                    format!("`{typed}` is {listed}, not `{v}`."),
                    format!(
                        "`{typed}` は {} のいずれかです（`{v}` は使えません）。",
                        ja.join("、")
                    ),
                )
            })
    }
}

/// Lower case, `-` and spaces as `_`: how typed words (field names, keys) compare.
pub(crate) fn norm(t: &str) -> String {
    t.trim().to_lowercase().replace(['-', ' '], "_")
}

/// A whole number typed for `typed` (full-width signs read; `+3` is 3), within `min..=max`.
pub fn int_in(typed: &str, v: &str, min: i64, max: i64) -> Result<i64, SheetError> {
    let t = v.trim().replace('＋', "+").replace(['－', '−'], "-");
    let n: i64 = t.trim_start_matches('+').parse().map_err(|_| {
        SheetError::new(
            format!("`{typed}` needs a whole number, not `{v}`."),
            format!("`{typed}` には整数を指定してください（`{v}` は使えません）。"),
        )
    })?;
    within(n, min, max, || {
        SheetError::new(
            format!("`{typed}` must be between {min} and {max}, not {n}."),
            format!("`{typed}` は{min}〜{max}の範囲で指定してください（{n}は使えません）。"),
        )
    })?;
    Ok(n)
}

/// `yes` or `no` typed for `typed`; an empty value is `no`.
pub fn yes_no(typed: &str, v: &str) -> Result<bool, SheetError> {
    match v.trim().to_lowercase().as_str() {
        "yes" | "y" | "true" | "on" | "1" | "はい" | "有" | "あり" => Ok(true),
        "no" | "n" | "false" | "off" | "0" | "いいえ" | "無" | "なし" | "" => Ok(false),
        _ => Err(SheetError::new(
            format!("`{typed}` is yes or no, not `{v}`."),
            format!("`{typed}` は yes か no で指定してください（`{v}` は使えません）。"),
        )),
    }
}

/// Numbered weapon slots (`weapon1`…`weapon8`) and how a weapon is written.
#[derive(Debug, Clone, Copy)]
pub struct Weapons {
    /// Slots `1..=max`.
    pub max: usize,
    /// What a slot's name starts with (`weapon`, `w`, `武器`); a bare prefix is slot 1.
    pub prefixes: &'static [&'static str],
    /// The grammar in words.
    pub grammar: (&'static str, &'static str),
    /// What the slots mean (order, emptying, names unique…).
    pub slots: (&'static str, &'static str),
    /// A weapon as typed.
    pub example: &'static str,
    /// Every weapon of a stored sheet, as typed, in slot order.
    pub stored: fn(&Value) -> Vec<String>,
}

impl Weapons {
    /// The first prefix: how a slot is written (`weapon2`).
    pub fn first(&self) -> &'static str {
        self.prefixes[0]
    }

    /// `weapon`, `weapon3`, `w3`, `武器3` → the 0-based slot.
    pub fn slot(&self, typed: &str) -> Option<usize> {
        let rest = self.prefixes.iter().find_map(|p| typed.strip_prefix(p))?;
        if rest.is_empty() {
            return Some(0);
        }
        let n: usize = rest.parse().ok()?;
        (1..=self.max).contains(&n).then(|| n - 1)
    }
}

/// Names a sheet takes beyond its declared fields: Shadowrun's skills, the free-form system's
/// anything.
#[derive(Debug, Clone, Copy)]
pub struct Free {
    /// What such a name is, for help.
    pub help: (&'static str, &'static str),
    pub example: &'static str,
    /// Every such entry of a stored sheet as `(name, value as typed)`.
    pub stored: fn(&Value) -> Vec<(String, String)>,
}

/// How `/char add` and `/char edit` present the sheet option on a server playing only this
/// system (issue 36): a Japanese name that fits what the sheet carries (not 能力値 for a sheet of
/// weapons and squads) and examples as typed, in Japanese words the parser reads (a test
/// applies them).
#[derive(Debug, Clone, Copy)]
pub struct SheetOption {
    /// What the sheet carries, in Japanese: the first word of the option's description on a
    /// server playing this system alone (the option itself is シート everywhere).
    pub ja: &'static str,
    /// A new sheet, `(English, Japanese)`.
    pub add: (&'static str, &'static str),
    /// A change to the sheet `add` makes, `(English, Japanese)`.
    pub edit: (&'static str, &'static str),
}

impl SheetOption {
    /// A server playing several systems: a name that fits every sheet, and no example (each
    /// system's fields are on its `/help` page).
    pub const NEUTRAL: SheetOption = SheetOption {
        ja: "シート",
        add: ("", ""),
        edit: ("", ""),
    };
}

/// A system's whole sheet.
#[derive(Debug, Clone, Copy)]
pub struct SheetDecl {
    /// A whole new entry as typed (`/char add stats:`): the autocomplete's first offer, and
    /// the sheet the conformance test adds each field to.
    pub example: &'static str,
    /// The sheet option's name and examples ([`SheetOption`]).
    pub option: SheetOption,
    pub fields: &'static [Field],
    pub weapons: Option<Weapons>,
    pub free: Option<Free>,
}

impl SheetDecl {
    /// The declared field `typed` names (any of its names).
    pub fn field(&self, typed: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.answers_to(typed))
    }

    /// The declared field under its key; for a system's own code, which names its fields by key.
    pub fn get(&self, key: &str) -> &'static Field {
        self.fields.iter().find(|f| f.key == key).unwrap_or(&UNDECLARED)
    }

    /// The one assignment of a value typed for a field kept at a JSON pointer (`Stored::At`)
    /// whose kind is a number, text, yes/no or choice: checked against the declaration (the
    /// same errors everywhere) and written into `doc`, the stored sheet being edited.
    /// `Ok(false)`: the field is the system's to apply (a grammar of its own, `Kind::Other`,
    /// or kept elsewhere).
    pub fn assign(&self, f: &Field, typed: &str, v: &str, doc: &mut Value) -> Result<bool, SheetError> {
        let Stored::At(path) = f.stored else {
            return Ok(false);
        };
        let Some(value) = self.check(f, typed, v)? else {
            return Ok(false);
        };
        let mut at = doc;
        for part in path.split('/').skip(1) {
            if !at.is_object() {
                *at = Value::Object(serde_json::Map::new());
            }
            let Value::Object(m) = at else {
                return Ok(false);
            };
            at = m.entry(part).or_insert(Value::Null);
        }
        *at = value;
        Ok(true)
    }

    /// The value typed for a number, text, yes/no or choice field, checked against the
    /// declaration as [`assign`](Self::assign) checks it but not written: for a field the
    /// system applies itself (a state change with rules of its own). `None`: `Kind::Other`.
    pub fn check(&self, f: &Field, typed: &str, v: &str) -> Result<Option<Value>, SheetError> {
        Ok(Some(match f.kind {
            Kind::Int { .. } => Value::from(f.int(typed, v)?),
            Kind::Text { .. } => Value::from(f.text(typed, v)?),
            Kind::YesNo => Value::Bool(yes_no(typed, v)?),
            Kind::Choice(_) => Value::from(f.choice(typed, v)?),
            Kind::Other { .. } => return Ok(None),
        }))
    }

    /// Whether only the GM may change `typed` on an existing sheet.
    pub fn gm_only(&self, typed: &str) -> bool {
        self.field(typed).is_some_and(|f| f.gm_only)
    }

    /// The fields a new sheet needs that `fields` (as typed) leave out, by key.
    pub fn missing(&self, fields: &[(String, String)]) -> Vec<&'static str> {
        self.fields
            .iter()
            .filter(|f| f.need == Need::Required)
            .filter(|f| !fields.iter().any(|(k, _)| f.answers_to(k)))
            .map(|f| f.key)
            .collect()
    }

    /// The refusal of a new sheet missing `missing`, with the required fields' examples.
    pub fn missing_error(&self, missing: &[&str], what: (&str, &str)) -> SheetError {
        let list = |lang: Lang| {
            missing
                .iter()
                .map(|k| self.get(k).label(lang))
                .collect::<Vec<_>>()
                .join(lang.pick(", ", "、"))
        };
        let example = self.required_example();
        SheetError::new(
            format!(
                "A new {} needs {} (for example `{example}`).",
                what.0,
                list(Lang::En)
            ),
            format!(
                "新しい{}には {} が必要です（例: `{example}`）。",
                what.1,
                list(Lang::Ja)
            ),
        )
    }

    /// Every required field with its example: the shortest sheet a new entry takes.
    pub fn required_example(&self) -> String {
        self.fields
            .iter()
            .filter(|f| f.need == Need::Required)
            .map(|f| format!("{}={}", f.key, f.example))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The fields a stored sheet leaves unset that the rules read as 0 (`Need::Warn`), as a
    /// warning line for `/char`; `None` when nothing is missing.
    pub fn warning(&self, sheet: &Value, lang: Lang) -> Option<(String, String)> {
        let missing: Vec<&Field> = self
            .fields
            .iter()
            .filter(|f| f.need == Need::Warn)
            .filter(|f| f.value_in(sheet).is_none_or(|v| v.is_empty() || v == "0"))
            .collect();
        let first = missing.first()?;
        let names: Vec<String> = missing.iter().map(|f| format!("`{}`", f.label(lang))).collect();
        let example = format!("{}={}", first.key, first.example);
        Some((
            lang.pick("⚠️ Missing", "⚠️ 未設定").to_string(),
            match lang {
                Lang::En => format!(
                    "{} (0 until set: the rules cannot use it; add it with /char edit, e.g. `{example}`)",
                    names.join(", ")
                ),
                Lang::Ja => format!(
                    "{}（設定するまで0で、ルールで使えません。/char edit で追加してください。例: `{example}`）",
                    names.join("、")
                ),
            },
        ))
    }

    /// `/help`'s field list: one line per field (names, range, GM only, help), then what other
    /// names mean.
    pub fn help_lines(&self, lang: Lang) -> Vec<String> {
        let mut out: Vec<String> = self
            .fields
            .iter()
            .map(|f| {
                // The Japanese name first, then the other spellings.
                let mut names: Vec<&str> = Vec::new();
                if !f.ja.is_empty() && f.ja != f.key {
                    names.push(f.ja);
                }
                names.extend(f.names.iter().filter(|n| **n != f.ja && **n != f.key));
                let mut line = format!("`{}`", f.key);
                if !names.is_empty() {
                    line.push_str(&format!(" ({})", names.join(", ")));
                }
                line.push_str(&format!(" {}", f.range(lang)));
                match f.need {
                    Need::Required => line.push_str(lang.pick(", required", "、必須")),
                    Need::Warn => line.push_str(lang.pick(", needed to play", "、プレイに必要")),
                    Need::Optional => {}
                }
                if f.gm_only {
                    line.push_str(lang.pick(", GM only", "、GMのみ"));
                }
                let help = lang.pick(f.help.0, f.help.1);
                if !help.is_empty() {
                    line.push_str(&format!(" — {help}"));
                }
                line
            })
            .collect();
        if let Some(free) = &self.free {
            out.push(format!(
                "{} e.g. `{}`",
                lang.pick(free.help.0, free.help.1),
                free.example
            ));
        }
        out
    }

    /// How a weapon is written and what its slots mean, for `/help`; `None` without weapons.
    pub fn weapon_help(&self, lang: Lang) -> Option<String> {
        self.weapons.as_ref().map(|w| {
            let first = w.first();
            match lang {
                Lang::En => format!(
                    "`{first}1`…`{first}{}` (also {}): {}\n{}\ne.g. `{first}1=\"{}\"`",
                    w.max,
                    w.prefixes[1..]
                        .iter()
                        .map(|p| format!("`{p}1`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    w.grammar.0,
                    w.slots.0,
                    w.example
                ),
                Lang::Ja => format!(
                    "`{first}1`…`{first}{}`（{}も可）: {}\n{}\n例: `{first}1=\"{}\"`",
                    w.max,
                    w.prefixes[1..]
                        .iter()
                        .map(|p| format!("`{p}1`"))
                        .collect::<Vec<_>>()
                        .join("、"),
                    w.grammar.1,
                    w.slots.1,
                    w.example
                ),
            }
        })
    }

    /// The `stats:` autocomplete: what was typed, then each field not yet given (the last
    /// word, when it is a field's start, completes to that field). An empty line offers the
    /// required fields' example first. At most 25, each at most 100 characters.
    pub fn choices(&self, typed: &str, lang: Lang) -> Vec<(String, String)> {
        let cut = |s: &str| s.chars().take(100).collect::<String>();
        let typed = typed.trim_end();
        let mut out = Vec::new();
        if typed.is_empty() {
            let example = self.example;
            if !example.is_empty() {
                out.push((
                    cut(&format!("{} {example}", lang.pick("New:", "新規:"))),
                    example.to_string(),
                ));
            }
        }
        let (head, last) = match typed.rsplit_once(' ') {
            Some((h, l)) => (format!("{h} "), l),
            None => (String::new(), typed),
        };
        let last_is_value = last.contains('=') || last.contains('＝');
        let given = |f: &Field| {
            typed.split_whitespace().any(|t| {
                t.split_once(['=', '＝'])
                    .is_some_and(|(k, _)| f.answers_to(&k.to_lowercase()))
            })
        };
        let mut keys: Vec<(String, String)> = self
            .fields
            .iter()
            .filter(|f| !matches!(f.stored, Stored::Action) || !f.gm_only)
            .filter(|f| !given(f))
            .map(|f| {
                let help = lang.pick(f.help.0, f.help.1);
                let hint = if help.is_empty() {
                    f.range(lang)
                } else {
                    help.to_string()
                };
                (format!("{}=", f.key), hint)
            })
            .collect();
        if let Some(w) = &self.weapons {
            let first = w.first();
            let free_slot = (1..=w.max).find(|n| {
                !typed
                    .split_whitespace()
                    .any(|t| w.slot(t.split(['=', '＝']).next().unwrap_or("")) == Some(n - 1))
            });
            if let Some(n) = free_slot {
                keys.push((format!("{first}{n}="), format!("\"{}\"", w.example)));
            }
        }
        for (key, hint) in keys {
            let value = if last_is_value || last.is_empty() {
                format!("{typed} {key}").trim_start().to_string()
            } else if key.starts_with(&last.to_lowercase()) {
                format!("{head}{key}")
            } else {
                continue;
            };
            // A choice's value is at most 100 characters: a longer line is not offered cut.
            if value.chars().count() <= 100 {
                out.push((cut(&format!("{value} ({hint})")), value));
            }
        }
        out.truncate(25);
        out
    }
}

/// What [`SheetDecl::get`] answers for a key the system did not declare (a bug caught by the
/// conformance test, never a panic).
const UNDECLARED: Field = Field::new("?", "?", Kind::Text { max: 0 }, "");

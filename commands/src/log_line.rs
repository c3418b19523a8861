//! How a roll reads in `/session log` and the transcript: the command as a person would type it
//! (option names, choice names — not the indices Discord sends) and a one-line, localized result
//! that every logged outcome must give ([`LogSummary`]: the compiler lists any that does not).

use std::collections::BTreeMap;

use engine::i18n::Lang;
use engine::odds::LuckInput;
use poise::serenity_prelude::ResolvedValue;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Context;
use crate::store::{JsonText, NewRoll};
use engine::session::RollLogEntry;

/// The key of the stored summaries inside a logged outcome (`{"en": …, "ja": …}`).
pub const SUMMARY: &str = "summary";
/// The key of the roll's [`LuckInput`] inside a logged outcome, when it has one.
pub const LUCK: &str = "luck";

/// A logged outcome's result in one line: who did what to whom and the figure that matters
/// ("Ana → Bob: hit, 6P" / 「Ana → Bob: 命中、身体6」).
pub trait LogSummary {
    fn summary(&self, lang: Lang) -> String;

    /// What the luck of this roll is measured on (`/session luck`, issue 28): numbers copied
    /// from the outcome, no odds work. `None` where luck means nothing: no dice, damage
    /// applied, a press that rolled nothing, a roll whose dice another row already counts.
    fn luck(&self) -> Option<LuckInput> {
        None
    }
}

impl<T: LogSummary + ?Sized> LogSummary for &T {
    fn summary(&self, lang: Lang) -> String {
        (**self).summary(lang)
    }

    fn luck(&self) -> Option<LuckInput> {
        (**self).luck()
    }
}

/// An outcome already turned into JSON (a button's result that may be one of several types),
/// with its summaries taken from the typed value first.
#[derive(Debug, Clone)]
pub struct Logged {
    /// The outcome written once as JSON text (a press's roll was turned into a `Value` tree
    /// and then into text: two passes where one does).
    value: Box<serde_json::value::RawValue>,
    en: String,
    ja: String,
    luck: Option<LuckInput>,
}

impl Logged {
    pub fn of(outcome: &(impl Serialize + LogSummary)) -> Logged {
        Logged {
            value: raw(outcome),
            en: outcome.summary(Lang::En),
            ja: outcome.summary(Lang::Ja),
            luck: outcome.luck(),
        }
    }

    /// The same, measured on `luck` (`/session luck`).
    pub fn with_luck(mut self, luck: Option<LuckInput>) -> Logged {
        self.luck = luck;
        self
    }

    /// `value` with the summary `summary` gives in each language (and no luck).
    pub fn new(value: Value, summary: impl Fn(Lang) -> String) -> Logged {
        Logged {
            value: raw(&value),
            en: summary(Lang::En),
            ja: summary(Lang::Ja),
            luck: None,
        }
    }
}

/// `value` as JSON text (`null` if it cannot be written, as a `Value` of it was).
fn raw(value: &impl Serialize) -> Box<serde_json::value::RawValue> {
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned())
}

impl Serialize for Logged {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

impl LogSummary for Logged {
    fn summary(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.en.clone(),
            Lang::Ja => self.ja.clone(),
        }
    }

    fn luck(&self) -> Option<LuckInput> {
        self.luck.clone()
    }
}

/// The outcome as JSON with its summary in every language stored beside it, so the log reads
/// the same later whatever language its reader uses: an object gets a last key `summary`
/// (`{"en": …, "ja": …}`), anything else is kept under `outcome`; a roll with a luck input gets
/// it under `luck` before the summary (its odds are computed only when luck is asked for).
/// Written straight to text, never through a `Value` tree (issue 18). `None` when it cannot be
/// written as JSON.
pub fn logged_outcome(outcome: &(impl Serialize + LogSummary)) -> Option<JsonText> {
    #[derive(Serialize)]
    struct Summaries {
        en: String,
        ja: String,
    }
    let summaries = serde_json::to_string(&Summaries {
        en: outcome.summary(Lang::En),
        ja: outcome.summary(Lang::Ja),
    })
    .ok()?;
    let mut text = serde_json::to_string(outcome).ok()?;
    // serde_json writes an object as `{…}` and nothing else with a leading brace.
    if text.starts_with('{') && text.ends_with('}') {
        text.pop();
        if text.len() > 1 {
            text.push(',');
        }
    } else {
        text = format!("{{\"outcome\":{text},");
    }
    if let Some(luck) = outcome.luck() {
        text.push_str(&format!("\"{LUCK}\":{},", serde_json::to_string(&luck).ok()?));
    }
    text.push_str(&format!("\"{SUMMARY}\":{summaries}}}"));
    JsonText::from_text(text).ok()
}

/// A roll's log row: its outcome with the summaries (`None` when it cannot be written as JSON).
/// `user_name`: the roller's display name as Discord gave it (escaped where it is shown).
pub fn entry(
    session_id: i64,
    user_id: u64,
    user_name: &str,
    command: String,
    outcome: &(impl Serialize + LogSummary),
    at_ms: i64,
) -> Option<NewRoll> {
    Some(NewRoll {
        session_id,
        user_id,
        command,
        outcome: logged_outcome(outcome)?,
        at_ms,
        user_name: Some(user_name.to_string()),
    })
}

/// The luck input stored with a logged outcome (`None`: the roll has none, or was logged before
/// luck existed).
pub fn stored_luck(outcome: &Value) -> Option<LuckInput> {
    LuckInput::deserialize(outcome.get(LUCK)?).ok()
}

/// The stored summary in `lang` (entries logged before summaries existed have none).
pub fn stored_summary(outcome: &Value, lang: Lang) -> Option<&str> {
    let key = match lang {
        Lang::En => "en",
        Lang::Ja => "ja",
    };
    outcome.get(SUMMARY)?.get(key)?.as_str().filter(|s| !s.is_empty())
}

/// Who made a logged roll, for the log and the transcript: the display name kept with it,
/// escaped so it shows as written (on one line), or a mention for rows logged before names were
/// kept (Discord shows it; an export read elsewhere shows the id).
pub fn roller(entry: &RollLogEntry) -> String {
    roller_name(entry).map_or_else(|| format!("<@{}>", entry.user_id), |name| escaped_name(&name))
}

/// A roller's name as the transcript shows it: escaped, on one line.
pub fn escaped_name(name: &str) -> String {
    crate::embeds::markdown::escape(&name.replace(['\n', '\r'], " "))
}

/// The name a roll was made under, as stored with it (raw: each page escapes it its own way);
/// `None` for rows logged before names were kept, which read as the mention.
pub fn roller_name(entry: &RollLogEntry) -> Option<String> {
    entry.user_name.clone().filter(|n| !n.trim().is_empty())
}

/// Each roller's last name in `log` (raw; rows without one are skipped).
pub fn last_names(log: &[RollLogEntry]) -> BTreeMap<u64, String> {
    log.iter()
        .filter_map(|e| Some((e.user_id, roller_name(e)?)))
        .collect()
}

/// Who a mention in a session's log is: a member by the name their last roll there was made
/// under (`names`, raw), else by the name the game last saw them under.
pub fn known_members<'a>(
    names: &'a BTreeMap<u64, String>,
    session: &'a engine::session::Session,
) -> impl Fn(u64) -> Option<String> + 'a {
    move |id| {
        names
            .get(&id)
            .cloned()
            .or_else(|| session.name_of(id).map(str::to_string))
    }
}

/// A text written for Discord with the members it mentions (`<@123>`, `<@!123>`) as `@name`,
/// for pages read outside Discord (the export), where a mention shows only an id. A member
/// `name` does not know stays a mention.
pub fn mentions_as_names(text: &str, name: impl Fn(u64) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<@") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let digits = tail.strip_prefix('!').unwrap_or(tail);
        let len = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
        let known = digits[..len]
            .parse::<u64>()
            .ok()
            .filter(|_| digits[len..].starts_with('>'))
            .and_then(&name);
        if let Some(known) = known {
            out.push('@');
            out.push_str(&known);
            rest = &digits[len + 1..];
        } else {
            out.push_str("<@");
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// The slash command as typed: `/sr test character:Ana attribute:agility skill:pistols`.
pub fn typed(ctx: Context<'_>) -> String {
    let poise::Context::Application(app) = ctx else {
        return ctx.invocation_string();
    };
    let path: Vec<&str> = app.command_tree.iter().map(|c| &*c.name).collect();
    let mut line = format!("/{}", path.join(" "));
    for arg in app.args {
        let choices = app
            .command()
            .parameters
            .iter()
            .find(|p| p.name == arg.name)
            .map(|p| &p.choices[..])
            .unwrap_or_default();
        line.push(' ');
        line.push_str(arg.name);
        line.push(':');
        line.push_str(&option_text(&arg.value, choices));
    }
    line
}

/// One option's value as a person types it: the choice's name for a choice option.
fn option_text(value: &ResolvedValue<'_>, choices: &[poise::CommandParameterChoice]) -> String {
    match value {
        ResolvedValue::Integer(i) => usize::try_from(*i)
            .ok()
            .and_then(|i| choices.get(i))
            .map_or_else(|| i.to_string(), |c| c.name.to_string()),
        ResolvedValue::String(s) => s.to_string(),
        ResolvedValue::Boolean(b) => b.to_string(),
        ResolvedValue::Number(n) => n.to_string(),
        ResolvedValue::User(u, _) => format!("@{}", u.name),
        ResolvedValue::Role(r) => format!("@{}", r.name),
        ResolvedValue::Channel(c) => format!("#{}", c.name.as_deref().unwrap_or_default()),
        ResolvedValue::Attachment(a) => a.filename.clone(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct Hit(i32);

    impl LogSummary for Hit {
        fn summary(&self, lang: Lang) -> String {
            format!("{} {}", lang.pick("hit", "命中"), self.0)
        }
    }

    impl Serialize for Hit {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.0.serialize(s)
        }
    }

    #[derive(Serialize)]
    struct Roll {
        total: i32,
    }

    impl LogSummary for Roll {
        fn summary(&self, _: Lang) -> String {
            self.total.to_string()
        }
    }

    #[test]
    fn summaries_are_stored_in_every_language_beside_the_outcome() {
        let v = logged_outcome(&Roll { total: 7 }).unwrap().to_value();
        assert_eq!(v, json!({"total": 7, "summary": {"en": "7", "ja": "7"}}));
        assert_eq!(stored_summary(&v, Lang::En), Some("7"));
        assert_eq!(stored_summary(&v, Lang::Ja), Some("7"));
    }

    #[test]
    fn an_outcome_that_is_no_object_is_kept_under_outcome() {
        let v = logged_outcome(&Hit(6)).unwrap().to_value();
        assert_eq!(
            v,
            json!({"outcome": 6, "summary": {"en": "hit 6", "ja": "命中 6"}})
        );
        assert_eq!(stored_summary(&v, Lang::En), Some("hit 6"));
        assert_eq!(stored_summary(&v, Lang::Ja), Some("命中 6"));
    }

    /// A summary the text splice must escape, on outcomes at the splice's edges.
    struct Quoted<T>(T);

    impl<T: Serialize> Serialize for Quoted<T> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.0.serialize(s)
        }
    }

    impl<T> LogSummary for Quoted<T> {
        fn summary(&self, lang: Lang) -> String {
            lang.pick("say \"}\" \\", "「}」").to_string()
        }
    }

    #[test]
    fn the_summary_goes_into_any_outcome_as_valid_json() {
        let summary = json!({"en": "say \"}\" \\", "ja": "「}」"});
        #[derive(Serialize)]
        struct Empty {}
        assert_eq!(
            logged_outcome(&Quoted(Empty {})).unwrap().to_value(),
            json!({"summary": summary})
        );
        // A string that looks like an object is no object.
        assert_eq!(
            logged_outcome(&Quoted("{a}")).unwrap().to_value(),
            json!({"outcome": "{a}", "summary": summary})
        );
        assert_eq!(
            logged_outcome(&Quoted(vec![json!({"a": 1})])).unwrap().to_value(),
            json!({"outcome": [{"a": 1}], "summary": summary})
        );
        assert_eq!(
            logged_outcome(&Quoted(json!({"n": {"m": "}"}})))
                .unwrap()
                .to_value(),
            json!({"n": {"m": "}"}, "summary": summary})
        );
    }

    struct Lucky;

    impl Serialize for Lucky {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            json!({"total": 12}).serialize(s)
        }
    }

    impl LogSummary for Lucky {
        fn summary(&self, _: Lang) -> String {
            "12".into()
        }

        fn luck(&self) -> Option<LuckInput> {
            Some(LuckInput {
                roll: engine::odds::LuckRoll::Notation {
                    expression: "2d6".into(),
                },
                observed: 12,
            })
        }
    }

    #[test]
    fn the_luck_input_is_stored_beside_the_summary_and_read_back() {
        let v = logged_outcome(&Lucky).unwrap().to_value();
        assert_eq!(
            v,
            json!({"total": 12, "luck": {"roll": {"kind": "notation", "expression": "2d6"}, "observed": 12}, "summary": {"en": "12", "ja": "12"}})
        );
        assert_eq!(stored_luck(&v), Lucky.luck());
        // Through a button's `Logged` too; `Logged::new` (no typed outcome) has none.
        assert_eq!(
            stored_luck(&logged_outcome(&Logged::of(&Lucky)).unwrap().to_value()),
            Lucky.luck()
        );
        assert_eq!(stored_luck(&json!({"total": 3})), None);
    }

    #[test]
    fn old_entries_have_no_summary() {
        assert_eq!(stored_summary(&json!({"total": 3}), Lang::En), None);
        assert_eq!(stored_summary(&json!({"summary": {"en": ""}}), Lang::En), None);
    }

    #[test]
    fn mentions_read_as_names_where_the_member_is_known() {
        let name = |id: u64| (id == 5).then(|| "alice".to_string());
        assert_eq!(
            mentions_as_names("roll-off \"first\": <@5> wins over <@!5>, <@6> and <@x> <@", name),
            "roll-off \"first\": @alice wins over @alice, <@6> and <@x> <@"
        );
        assert_eq!(mentions_as_names("no mention", name), "no mention");
    }
}

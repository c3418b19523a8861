//! Which commands Discord shows where. The generic commands are registered globally; each
//! system's command tree is registered per server, only where the server's admins enabled that
//! system, and re-registered whenever they change it — so disabled systems disappear.

use engine::session::{ServerSettings, SystemId};
use serde_json::Value;
use serenity::all::{CreateCommand, GuildId, Http};

use crate::BotError;

pub use crate::Command;

/// Discord's cap on the characters of one command (see [`command_chars`]).
pub const MAX_COMMAND_CHARS: usize = 8000;
/// Our own cap, under Discord's: room for a tree to grow before Discord would refuse it.
pub const COMMAND_BUDGET: usize = 7600;

/// Characters Discord counts toward a command's 8000, the strict way: names, descriptions and
/// values of the command, its options and choices — every choice value as its text, numbers
/// included (poise's choices are integers) — with only the longest localization of each field.
pub fn command_chars(v: &Value) -> usize {
    let mut n = 0;
    for key in ["name", "description"] {
        let base = v[key].as_str().map_or(0, |s| s.chars().count());
        let loc = format!("{key}_localizations");
        let longest = v[loc.as_str()].as_object().map_or(0, |m| {
            m.values()
                .filter_map(Value::as_str)
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        });
        n += base.max(longest);
    }
    match &v["value"] {
        Value::Null => {}
        Value::String(s) => n += s.chars().count(),
        other => n += other.to_string().chars().count(),
    }
    for list in ["options", "choices"] {
        if let Some(a) = v[list].as_array() {
            n += a.iter().map(command_chars).sum::<usize>();
        }
    }
    n
}

/// The system a top-level command belongs to (`None`: generic, registered globally).
pub fn system_of(command_name: &str) -> Option<SystemId> {
    crate::systems::of_command(command_name)
}

fn slash(commands: &[Command], keep: impl Fn(&Command) -> bool) -> Vec<CreateCommand> {
    commands
        .iter()
        .filter(|c| keep(c))
        .filter_map(|c| c.create_as_slash_command())
        .collect()
}

/// The commands every server sees.
pub fn global_commands(commands: &[Command]) -> Vec<CreateCommand> {
    slash(commands, |c| system_of(&c.name).is_none())
}

/// The system commands a server with `settings` sees.
pub fn guild_commands(commands: &[Command], settings: &ServerSettings) -> Vec<CreateCommand> {
    slash(commands, |c| {
        system_of(&c.name).is_some_and(|s| settings.is_enabled(s))
    })
}

pub async fn register_global(http: &Http, commands: &[Command]) -> Result<(), BotError> {
    serenity::all::Command::set_global_commands(http, global_commands(commands)).await?;
    Ok(())
}

pub async fn register_guild(
    http: &Http,
    commands: &[Command],
    guild: u64,
    settings: &ServerSettings,
) -> Result<(), BotError> {
    GuildId::new(guild)
        .set_commands(http, guild_commands(commands, settings))
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Discord refuses a whole registration if one command is too large: check every command
    /// the bot registers, as Discord receives it, against our budget (printed: `cargo test -p
    /// saikoro-bot every_command_fits -- --nocapture`).
    #[test]
    fn every_command_fits_discords_limits() {
        let mut over = Vec::new();
        for command in crate::commands::all() {
            let json =
                serde_json::to_value(command.create_as_slash_command().expect("slash command")).unwrap();
            let chars = command_chars(&json);
            println!("/{:<12} {chars:>5} of {COMMAND_BUDGET} characters", command.name);
            if chars > COMMAND_BUDGET {
                over.push(format!("/{} has {chars}", command.name));
            }
            let options = json["options"].as_array().map_or(0, Vec::len);
            assert!(options <= 25, "/{} has {options} options", command.name);
        }
        assert!(
            over.is_empty(),
            "over the {COMMAND_BUDGET}-character budget: {over:?}"
        );
    }

    /// Every string option, at every depth: `(path, max_length)`.
    fn text_options(path: &str, v: &Value, out: &mut Vec<(String, Option<u64>)>) {
        for o in v["options"].as_array().into_iter().flatten() {
            let here = format!("{path} {}", o["name"].as_str().unwrap_or_default());
            match o["type"].as_u64() {
                Some(1 | 2) => text_options(&here, o, out),
                Some(3) => out.push((here, o["max_length"].as_u64())),
                _ => {}
            }
        }
    }

    /// A text option without a cap lets a user send 6,000 characters that an error then quotes
    /// past Discord's 2,000: every one has a `max_length`, within what anything stores.
    #[test]
    fn every_text_option_has_a_max_length() {
        let mut missing = Vec::new();
        for command in crate::commands::all() {
            let json = serde_json::to_value(command.create_as_slash_command().expect("slash")).unwrap();
            let mut found = Vec::new();
            text_options(&format!("/{}", command.name), &json, &mut found);
            for (path, max) in found {
                match max {
                    None => missing.push(path),
                    Some(m) => assert!(m <= 6000, "{path}: max_length {m} is over Discord's 6,000"),
                }
            }
        }
        assert!(
            missing.is_empty(),
            "text options without max_length: {missing:#?}"
        );
    }

    #[test]
    fn the_strict_count_counts_integer_choice_values_and_the_longest_localization() {
        let v = serde_json::json!({
            "name": "ab", "name_localizations": {"ja": "あいう"},
            "description": "d",
            "options": [{"name": "o", "description": "x", "choices": [
                {"name": "c", "value": 10}, {"name": "e", "value": "vv"}]}]
        });
        // ab→あいう 3 + d 1 + o 1 + x 1 + c 1 + "10" 2 + e 1 + vv 2
        assert_eq!(command_chars(&v), 12);
    }

    #[test]
    fn system_commands_belong_to_their_systems() {
        assert_eq!(system_of("sr"), Some(SystemId::Shadowrun4));
        assert_eq!(system_of("rally"), Some(SystemId::BadlandsRally));
        assert_eq!(system_of("roll"), None);
    }
}

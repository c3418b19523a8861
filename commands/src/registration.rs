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

    /// Latin letters a Japanese table writes as they are (issue 36): game and Discord
    /// abbreviations and the games' own stat names. Dice notation (`2d6`, `d20`, `3B6`, `D10`,
    /// `k3`, `t8`) is allowed by its shape.
    const ABBREVIATIONS: &[&str] = &[
        "GM", "DM", "AP", "HP", "ID", "URL", "PNG", "JSON", "HTML", "BCDice", "Discord", "IC", "VR", "MOS",
        "POW", "AR", "MR", "DEF", "ARM", "MAT", "RAT", "P", "S",
    ];

    /// Still Latin, each for an open part of issue 36 (a new entry needs a reason): the short
    /// command and option names wait for the one style of names; the values are what a user
    /// types today, waiting for Japanese input aliases (per-system sheet examples, effect flags,
    /// Terminator weapon lines, rally path letters).
    const PENDING: &[(&str, &[&str])] = &[
        ("/sr (name", &["sr"]),
        ("/sr-matrix (name", &["sr"]),
        ("/sr-rig (name", &["sr"]),
        ("/wm (name", &["wm"]),
        ("/wm-effect (name", &["wm"]),
        ("/wm-turn (name", &["wm"]),
        ("/wm-ruling (name", &["wm"]),
        ("/session gm (name", &["gm"]),
        ("/session gm user (name", &["gm"]),
        ("/config gm-role (name", &["gm"]),
        ("/odds sr character (desc", &["sr"]),
        ("/sr attack dv (name", &["dv"]),
        ("/sr attack ap (name", &["ap"]),
        ("/sr-matrix cybercombat dv (name", &["dv"]),
        ("/sr-rig crash vr (name", &["vr"]),
        ("/rally damage mos (name", &["mos"]),
        ("/rally damage pow (name", &["pow"]),
        ("/rally damage ar (name", &["ar"]),
        ("/char add stats (desc", &["body", "agility"]),
        ("/char edit stats (desc", &["edge"]),
        ("/char export name (desc", &["all"]),
        ("/rally attack weapon (desc", &["wacker"]),
        ("/rally jump landing_on (desc", &["terrain"]),
        ("/rally move path (desc", &["h", "n", "r", "w", "t"]),
        ("/rally victory ahead (desc", &["A", "B"]),
        ("/rally initiative ahead (desc", &["A", "B", "C"]),
        ("/mecha range (desc", &["r"]),
        ("/wm-effect add changes (desc", &["arm", "def"]),
        ("/wm-effect add cannot (desc", &["knockdown", "boost", "attack"]),
        ("/odds term area (desc", &["T2", "T3", "cover"]),
        ("/term attack area (desc", &["T2", "T3", "cover"]),
        ("/term define name (desc", &["Railgun", "long", "rof2", "heavy"]),
        ("/term define fields (desc", &["armour", "skill"]),
    ];

    /// Every Japanese name and description in a registered command tree, `(where, text)`, and
    /// every command path, `(English, Japanese)`.
    fn japanese_texts(
        (en, ja): (&str, &str),
        v: &Value,
        out: &mut Vec<(String, String)>,
        paths: &mut Vec<(String, String)>,
    ) {
        let ja_name = v["name_localizations"]["ja"]
            .as_str()
            .unwrap_or(v["name"].as_str().unwrap_or_default());
        let (en, ja) = if en.is_empty() {
            (
                format!("/{}", v["name"].as_str().unwrap_or_default()),
                format!("/{ja_name}"),
            )
        } else {
            (
                format!("{en} {}", v["name"].as_str().unwrap_or_default()),
                format!("{ja} {ja_name}"),
            )
        };
        if let Some(ja) = v["name_localizations"]["ja"].as_str() {
            out.push((format!("{en} (name)"), ja.to_string()));
        }
        if let Some(ja) = v["description_localizations"]["ja"].as_str() {
            out.push((format!("{en} (description)"), ja.to_string()));
        }
        for c in v["choices"].as_array().into_iter().flatten() {
            if let Some(ja) = c["name_localizations"]["ja"].as_str() {
                out.push((format!("{en} (choice {})", c["name"]), ja.to_string()));
            }
        }
        // Commands and subcommands (no type, 1 or 2) are paths a description could name.
        if matches!(v["type"].as_u64(), None | Some(1 | 2)) {
            paths.push((en.clone(), ja.clone()));
        }
        for o in v["options"].as_array().into_iter().flatten() {
            japanese_texts((&en, &ja), o, out, paths);
        }
    }

    /// The Latin words of a text that are neither an abbreviation nor dice notation.
    fn stray_latin(text: &str) -> Vec<&str> {
        let dice = |w: &str| {
            let w = w.trim_start_matches(|c: char| c.is_ascii_digit());
            let rest = w.get(1..).unwrap_or_default();
            matches!(w.chars().next(), Some('d' | 'D' | 'B' | 'k' | 't'))
                && !rest.is_empty()
                && rest.chars().all(|c| c.is_ascii_digit())
        };
        text.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
            .filter(|w| !ABBREVIATIONS.contains(w) && !dice(w))
            .collect()
    }

    /// An English command path in a text, where its Japanese name differs (`/roll`, `/sr test`).
    fn english_commands<'a>(text: &str, paths: &'a [(String, String)]) -> Vec<&'a str> {
        paths
            .iter()
            .filter(|(en, ja)| en != ja)
            .filter(|(en, _)| {
                text.match_indices(en.as_str()).any(|(at, _)| {
                    !text[at + en.len()..]
                        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                })
            })
            .map(|(en, _)| en.as_str())
            .collect()
    }

    /// Issue 36: a Japanese name or description holds no English word and names no English
    /// command; the Latin left is the agreed abbreviations and the pending list above.
    #[test]
    fn japanese_names_and_descriptions_hold_no_english() {
        let mut found = Vec::new();
        let mut texts = Vec::new();
        let mut paths = Vec::new();
        for command in crate::commands::all() {
            let json = serde_json::to_value(command.create_as_slash_command().expect("slash")).unwrap();
            japanese_texts(("", ""), &json, &mut texts, &mut paths);
        }
        let mut pending_used = vec![false; PENDING.len()];
        for (at, text) in &texts {
            let pending = PENDING.iter().position(|(p, _)| at.starts_with(p));
            let stray: Vec<&str> = stray_latin(text)
                .into_iter()
                .filter(|w| !pending.is_some_and(|i| PENDING[i].1.contains(w)))
                .collect();
            if let Some(i) = pending {
                pending_used[i] = true;
            }
            let named = english_commands(text, &paths);
            if !stray.is_empty() || !named.is_empty() {
                found.push(format!(
                    "{at}: {text} — Latin {stray:?}, English commands {named:?}"
                ));
            }
        }
        assert!(
            found.is_empty(),
            "English in Japanese ({}):\n{}",
            found.len(),
            found.join("\n")
        );
        // A pending entry that matches nothing has been done: take it off the list.
        let stale: Vec<&str> = PENDING
            .iter()
            .zip(&pending_used)
            .filter(|(_, used)| !**used)
            .map(|((p, _), _)| *p)
            .collect();
        assert!(stale.is_empty(), "pending entries that match nothing: {stale:?}");
    }

    #[test]
    fn the_english_check_catches_the_issues_examples() {
        let paths = vec![
            ("/roll".to_string(), "/ダイス".to_string()),
            ("/sr".to_string(), "/sr".to_string()),
            ("/sr test".to_string(), "/sr テスト".to_string()),
        ];
        assert_eq!(english_commands("/roll の式の確率", &paths), vec!["/roll"]);
        assert_eq!(english_commands("/sr test と同じく", &paths), vec!["/sr test"]);
        assert!(english_commands("/sr テスト と同じく", &paths).is_empty());
        assert!(english_commands("/ダイス の式の確率（例: 2D6>=7、4d6 k3、6d10 t8）", &paths).is_empty());
        assert_eq!(
            stray_latin("攻撃者の武器技能（pistols、blades…）"),
            vec!["pistols", "blades"]
        );
        assert!(stray_latin("/ダイス の式の確率（例: 2D6>=7、4d6 k3、6d10 t8、3B6、d20）").is_empty());
        assert_eq!(
            stray_latin("既定は /rally scenario で"),
            vec!["rally", "scenario"]
        );
    }
}

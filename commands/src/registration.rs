//! Which commands Discord shows where. The generic commands are registered globally; each
//! system's command tree is registered per server, only where the server's admins enabled that
//! system, and re-registered whenever they change it — so disabled systems disappear. `/char`
//! is registered per server too: its sheet option is named for the server's one system.

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

/// Generic commands registered per server all the same: their options follow the server's
/// systems (`/char`'s sheet option is named for the one system a server plays, issue 36).
pub const PER_SERVER: &[&str] = &["char"];

/// The commands every server sees.
pub fn global_commands(commands: &[Command]) -> Vec<CreateCommand> {
    slash(commands, |c| {
        system_of(&c.name).is_none() && !PER_SERVER.contains(&c.name.as_ref())
    })
}

/// The system commands a server with `settings` sees, and the per-server generic ones made
/// for its systems.
pub fn guild_commands(commands: &[Command], settings: &ServerSettings) -> Vec<CreateCommand> {
    let mut list = slash(commands, |c| {
        system_of(&c.name).is_some_and(|s| settings.is_enabled(s))
    });
    list.extend(per_server_commands(only_system(settings)));
    list
}

/// The one system a server plays (`None`: several).
pub fn only_system(settings: &ServerSettings) -> Option<SystemId> {
    let mut on = settings.enabled_systems.iter();
    match (on.next(), on.next()) {
        (Some(s), None) => Some(*s),
        _ => None,
    }
}

/// The per-server generic commands for a server playing `system` alone (`None`: several).
pub fn per_server_commands(system: Option<SystemId>) -> Vec<CreateCommand> {
    char_command(system)
        .create_as_slash_command()
        .into_iter()
        .collect()
}

/// `/char` as a server playing `system` alone sees it: the sheet option of `add` and `edit`
/// described and exemplified from the system's sheet declaration ([`SheetOption`]); with
/// several systems, the neutral words written on the command. Its Japanese name is シート
/// everywhere: replies, `/help` and the guides name it one way, whatever the server plays.
///
/// [`SheetOption`]: engine::systems::sheet_decl::SheetOption
pub fn char_command(system: Option<SystemId>) -> Command {
    let mut c = crate::commands::char::char();
    let Some(system) = system else {
        return c;
    };
    let o = system.rules().sheet_decl().option;
    for sub in c.subcommands.iter_mut() {
        let (en, ja) = match sub.name.as_ref() {
            "add" => (
                format!("The sheet as name=value, e.g. {}", o.add.0),
                format!("{}（例: {}）", o.ja, o.add.1),
            ),
            "edit" => (
                format!("Fields to change (an empty value removes one), e.g. {}", o.edit.0),
                format!("変更する{}の項目（例: {}、空の値で削除）", o.ja, o.edit.1),
            ),
            _ => continue,
        };
        for p in sub.parameters.iter_mut().filter(|p| p.name == "stats") {
            p.description = Some(en.clone().into());
            p.description_localizations = vec![("ja".into(), ja.clone().into())].into();
        }
    }
    c
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
        // Every `/char` a server may see: one per system played alone.
        let per_server = SystemId::ALL.into_iter().map(|s| char_command(Some(s)));
        for command in crate::commands::all().into_iter().chain(per_server) {
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

    /// The `/char add` and `/char edit` sheet option in a server's registration: `(Japanese
    /// name, English description, Japanese description)` of each.
    fn sheet_options(list: &[CreateCommand]) -> Vec<(String, String, String)> {
        let char = list
            .iter()
            .map(|c| serde_json::to_value(c).unwrap())
            .find(|c| c["name"] == "char")
            .expect("/char is registered per server");
        ["add", "edit"]
            .iter()
            .map(|sub| {
                let sub = char["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|o| o["name"] == *sub)
                    .unwrap();
                let o = sub["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|o| o["name"] == "stats")
                    .unwrap();
                let text = |v: &Value| v.as_str().unwrap().to_string();
                (
                    text(&o["name_localizations"]["ja"]),
                    text(&o["description"]),
                    text(&o["description_localizations"]["ja"]),
                )
            })
            .collect()
    }

    /// Issue 36: a server playing one system describes `/char`'s sheet option for it, with an
    /// example in its words; a server playing several sees neutral words. The name is シート
    /// in every server, as replies and guides name it. `/char` is not
    /// among the global commands (a global one would show beside the server's).
    #[test]
    fn the_sheet_option_fits_the_servers_one_system() {
        let commands = crate::commands::all();
        assert!(
            global_commands(&commands)
                .iter()
                .all(|c| serde_json::to_value(c).unwrap()["name"] != "char")
        );
        let mut settings = ServerSettings::default();
        let several = sheet_options(&guild_commands(&commands, &settings));
        assert_eq!(several[0].0, "シート");
        assert_eq!(
            several[0].2,
            "シート（項目名=値。項目は /ヘルプ の各システムのページ）"
        );
        assert_eq!(several[1].0, "シート");
        for (system, ja, add, edit) in [
            (
                SystemId::Shadowrun4,
                "能力値",
                "能力値（例: 強靭力=3 敏捷力=4 エッジ=3 ピストル=4）",
                "変更する能力値の項目（例: エッジ=2 装甲=8、空の値で削除）",
            ),
            (
                SystemId::Warmachine,
                "ステータス",
                "ステータス（例: 近接=6 防御=12 装甲=18 ダメージボックス=30）",
                "変更するステータスの項目（例: ダメージ=4、空の値で削除）",
            ),
            (
                SystemId::MechaD20,
                "データ",
                "データ（例: 耐久度=30 移動力=4 行動ポイント=6 精神ポイント=10）",
                "変更するデータの項目（例: 疲労=1、空の値で削除）",
            ),
        ] {
            settings.enabled_systems = [system].into();
            let options = sheet_options(&guild_commands(&commands, &settings));
            assert_eq!(
                (options[0].0.as_str(), options[0].2.as_str()),
                ("シート", add),
                "{system}"
            );
            assert!(add.starts_with(ja), "{system}");
            assert_eq!(
                (options[1].0.as_str(), options[1].2.as_str()),
                ("シート", edit),
                "{system}"
            );
        }
        settings.enabled_systems = [SystemId::Shadowrun4].into();
        let sr = sheet_options(&guild_commands(&commands, &settings));
        assert_eq!(
            sr[0].1,
            "The sheet as name=value, e.g. body=3 agility=4 edge=3 pistols=4"
        );
        // Two systems, or one beside free-form: neutral again.
        settings.enabled_systems = [SystemId::Shadowrun4, SystemId::Generic].into();
        assert_eq!(sheet_options(&guild_commands(&commands, &settings)), several);
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

    /// Latin still allowed in one place, each with its reason (`(where it starts, words)`).
    /// Empty: every name is Japanese and every example is typed in words the parsers read in
    /// Japanese (issue 36); a new entry needs a reason beside it.
    const PENDING: &[(&str, &[&str])] = &[];

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
        // A name without a Japanese one shows the English name to a Japanese table.
        out.push((format!("{en} (name)"), ja_name.to_string()));
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
        let per_server = SystemId::ALL.into_iter().map(|s| char_command(Some(s)));
        for command in crate::commands::all().into_iter().chain(per_server) {
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
            ("/sr test".to_string(), "/シャドウラン テスト".to_string()),
        ];
        assert_eq!(english_commands("/roll の式の確率", &paths), vec!["/roll"]);
        assert_eq!(english_commands("/sr test と同じく", &paths), vec!["/sr test"]);
        assert!(english_commands("/シャドウラン テスト と同じく", &paths).is_empty());
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

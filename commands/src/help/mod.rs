//! `/help` pages (issue 15): what the bot does, the commands this server has, the notation with
//! examples and one page per enabled system (its commands, its sheet fields in both languages,
//! its house options). Built from the registered commands and the systems' own tables, so a
//! page never lists what the bot does not have.

pub mod first_evening;
pub mod notation;

use engine::i18n::Lang;
use engine::session::{ServerSettings, SystemId};
use serenity::all::Permissions;

use crate::embeds::{EmbedView, colour};
use crate::{BotError, Data};

/// A page of help: the first page, the notation, or a system's page (its topic is declared
/// in its folder: [`SystemBot::help_topic`](crate::systems::SystemBot::help_topic)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    Commands,
    Notation,
    System(SystemId),
}

/// The pages that are not a system's, with their Japanese names.
const GENERAL: [(Topic, &str, &str); 2] = [
    (Topic::Commands, "commands", "コマンド"),
    (Topic::Notation, "notation", "ダイス表記"),
];

impl Topic {
    /// Every topic in the order `/help` offers them: the general pages, then the systems' in
    /// the registry's order; each with its name (a system's key) and its Japanese name.
    fn all() -> impl Iterator<Item = (Topic, &'static str, &'static str)> {
        GENERAL.into_iter().chain(
            crate::systems::all()
                .filter_map(|s| s.help_topic().map(|ja| (Topic::System(s.id()), s.id().key(), ja))),
        )
    }
}

/// The `topic:` choices, built from the registry (a derived choice list would name systems).
impl poise::ChoiceParameter for Topic {
    fn list() -> std::borrow::Cow<'static, [poise::CommandParameterChoice]> {
        use std::borrow::Cow;
        Topic::all()
            .map(|(_, name, ja)| poise::CommandParameterChoice {
                __non_exhaustive: (),
                name: Cow::Borrowed(name),
                localizations: Cow::Owned(vec![(Cow::Borrowed("ja"), Cow::Borrowed(ja))]),
            })
            .collect::<Vec<_>>()
            .into()
    }

    fn from_index(index: usize) -> Option<Self> {
        Topic::all().nth(index).map(|(t, _, _)| t)
    }

    fn from_name(name: &str) -> Option<Self> {
        Topic::all()
            .find(|(_, n, _)| n.eq_ignore_ascii_case(name))
            .map(|(t, _, _)| t)
    }

    fn name(&self) -> &'static str {
        Topic::all()
            .find(|(t, _, _)| t == self)
            .map_or("commands", |(_, n, _)| n)
    }

    fn localized_name(&self, locale: &str) -> Option<&'static str> {
        Topic::all()
            .find(|(t, _, _)| t == self && locale == "ja")
            .map(|(_, _, ja)| ja)
    }
}

type Command = poise::Command<Data, BotError>;

/// A command's name and description in `lang` (the registered localization).
fn localized<'a>(
    name: &'a str,
    names: &'a [(std::borrow::Cow<'a, str>, std::borrow::Cow<'a, str>)],
    lang: Lang,
) -> &'a str {
    match lang {
        Lang::Ja => names
            .iter()
            .find(|(l, _)| l == "ja")
            .map_or(name, |(_, v)| v.as_ref()),
        Lang::En => name,
    }
}

fn description(c: &Command, lang: Lang) -> String {
    let en = c.description.as_deref().unwrap_or("");
    localized(en, &c.description_localizations, lang).to_string()
}

/// `/sr test — …` lines for a command and its subcommands (one level of groups).
fn command_lines(c: &Command, prefix: &str, lang: Lang, out: &mut Vec<String>) {
    let name = format!("{prefix}{}", localized(&c.name, &c.name_localizations, lang));
    if c.subcommands.is_empty() {
        out.push(format!("`/{name}` — {}", description(c, lang)));
    } else {
        for sub in &c.subcommands {
            command_lines(sub, &format!("{name} "), lang, out);
        }
    }
}

/// Whether Discord shows `c` to a member with `member` permissions: a command with
/// `default_member_permissions` (`/config`: Manage Server) is hidden from the others, so help
/// leaves it out for them too.
pub fn shown_to(c: &Command, member: Permissions) -> bool {
    member.administrator() || member.contains(c.default_member_permissions)
}

/// The first page: what the bot does and the commands this server shows this member.
pub fn commands_page(
    commands: &[Command],
    settings: &ServerSettings,
    member: Permissions,
    lang: Lang,
) -> EmbedView {
    let mut fields = Vec::new();
    let generic: Vec<String> = commands
        .iter()
        .filter(|c| crate::systems::of_command(&c.name).is_none() && shown_to(c, member))
        .map(|c| {
            format!(
                "`/{}` — {}",
                localized(&c.name, &c.name_localizations, lang),
                description(c, lang)
            )
        })
        .collect();
    fields.push((
        lang.pick("Commands", "コマンド").to_string(),
        generic.join("\n"),
        false,
    ));
    let systems: Vec<String> = SystemId::ALL
        .into_iter()
        .filter(|id| settings.is_enabled(*id))
        .map(|id| {
            let own: Vec<String> = commands
                .iter()
                .filter(|c| crate::systems::of_command(&c.name) == Some(id))
                .map(|c| format!("`/{}`", localized(&c.name, &c.name_localizations, lang)))
                .collect();
            if own.is_empty() {
                format!("{}: `/roll`, `/char`", id.display_name(lang))
            } else {
                format!("{}: {}", id.display_name(lang), own.join(" "))
            }
        })
        .collect();
    fields.push((
        lang.pick("Game systems on this server", "このサーバーのゲームシステム")
            .to_string(),
        systems.join("\n"),
        false,
    ));
    EmbedView {
        title: lang.pick("📖 Saikoro help", "📖 Saikoro ヘルプ").to_string(),
        description: lang
            .pick(
                "Saikoro rolls dice and resolves the rules of your game: start a session with /session start, add characters with /char add, then use the system's own commands. Every roll is kept in the session log.\nMore: /help topic:notation for dice, /help topic:<system> for a game's commands and sheet fields.",
                "Saikoroはダイスを振り、ゲームのルールを解決します。/session start でセッションを始め、/char add でキャラクターを登録し、システムのコマンドを使います。ロールはすべてセッションのログに残ります。\nダイスの書き方は /help topic:notation、各ゲームのコマンドとシートの項目は /help topic:<システム> で。",
            )
            .to_string(),
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

/// The notation page: every example as typed, with what it does.
pub fn notation_page(lang: Lang) -> EmbedView {
    let lines: Vec<String> = notation::EXAMPLES
        .iter()
        .map(|(e, en, ja)| format!("`{e}` — {}", lang.pick(en, ja)))
        .collect();
    EmbedView {
        title: lang.pick("📖 Dice notation (/roll)", "📖 ダイス表記（/roll）").to_string(),
        description: format!(
            "{}\n\n{}",
            lines.join("\n"),
            lang.pick(
                "Dice Maiden, Roll20, Avrae and BCDice spellings are read as they are. Where text after a roll could be notation, notation wins. /odds gives the chances of any of these before you roll.",
                "Dice Maiden・Roll20・Avrae・BCDiceの書き方もそのまま使えます。ロールの後の文字が表記として読める場合は表記として扱います。/odds で振る前に確率を確認できます。",
            )
        ),
        colour: colour::NEUTRAL,
        fields: Vec::new(),
        footer: None,
    }
}

/// A system's page: its commands, sheet fields (with their other names) and house options.
pub fn system_page(commands: &[Command], id: SystemId, settings: &ServerSettings, lang: Lang) -> EmbedView {
    let mut lines = Vec::new();
    for c in commands
        .iter()
        .filter(|c| crate::systems::of_command(&c.name) == Some(id))
    {
        command_lines(c, "", lang, &mut lines);
    }
    let mut fields = Vec::new();
    let rules = id.rules();
    // The field list comes from the system's sheet declaration: names, range, help, weapons.
    let decl = rules.sheet_decl();
    let sheet: Vec<String> = decl.help_lines(lang);
    // The weapon grammar first: the embed drops fields from the end when it runs long.
    if let Some(w) = decl.weapon_help(lang) {
        fields.push((
            lang.pick("Weapons (/char add stats:)", "兵器・武器（/char add stats:）")
                .to_string(),
            w,
            false,
        ));
    }
    // The first evening next to it, before the long lists, for the same reason.
    fields.extend(first_evening::field(id, lang));
    // Terminator: the tables' weapons, which a weapon slot takes by name (issue 29).
    if id == SystemId::Terminator {
        fields.push((
            lang.pick("Weapons of the tables (by name)", "表の武器（名前で指定）")
                .to_string(),
            engine::systems::terminator::weapon::table_names(lang).join(lang.pick(", ", "、")),
            false,
        ));
    }
    // A long list goes in several fields (a field holds 1,024 characters).
    let title = lang.pick(
        "Sheet fields (/char add stats:)",
        "シートの項目（/char add stats:）",
    );
    let mut chunk = String::new();
    for item in sheet {
        if chunk.chars().count() + item.chars().count() + 3 > 1000 {
            fields.push((title.to_string(), std::mem::take(&mut chunk), false));
        }
        if !chunk.is_empty() {
            chunk.push('\n');
        }
        chunk.push_str(&item);
    }
    if !chunk.is_empty() {
        fields.push((title.to_string(), chunk, false));
    }
    let options: Vec<String> = rules
        .house_options()
        .iter()
        .map(|o| format!("`{}` — {}", o.key, o.describe(lang)))
        .collect();
    if !options.is_empty() {
        fields.push((
            lang.pick("House options (/config option)", "ハウスルール（/config option）")
                .to_string(),
            options.join("\n"),
            false,
        ));
    }
    let notes = crate::systems::bot(id).help_notes(lang);
    if !notes.is_empty() {
        let value: Vec<String> = notes.iter().map(|l| format!("• {l}")).collect();
        fields.push((
            lang.pick("How the bot decides", "ボットの決めごと").to_string(),
            value.join("\n"),
            false,
        ));
    }
    // Issue 27: what one evening of a campaign leaves to the next, from the system's rules.
    let evenings = rules.evenings();
    for (title, lines) in [
        (
            lang.pick("Between evenings: carries", "セッション間で：引き継ぐもの"),
            evenings.carries_in(lang),
        ),
        (
            lang.pick(
                "Between evenings: starts fresh",
                "セッション間で：リセットされるもの",
            ),
            evenings.resets_in(lang),
        ),
    ] {
        let value: Vec<String> = lines.iter().map(|l| format!("• {l}")).collect();
        fields.push((title.to_string(), value.join("\n"), false));
    }
    // What the evening plays is the GM's word on /session start, not a server option.
    if let Some(choice) = evenings.choice_in(lang) {
        let value: Vec<String> = std::iter::once(choice)
            .chain(evenings.goes_on_in(lang).into_iter().map(str::to_string))
            .map(|l| format!("• {l}"))
            .collect();
        fields.push((
            lang.pick(
                "Between evenings: a new game or the same one",
                "セッション間で：新しいゲームか続きか",
            )
            .to_string(),
            value.join("\n"),
            false,
        ));
    }
    let mut description = if lines.is_empty() {
        lang.pick(
            "No commands of its own: roll with /roll and keep sheets with /char.",
            "専用コマンドはありません。/roll で振り、/char でシートを管理します。",
        )
        .to_string()
    } else {
        lines.join("\n")
    };
    if !settings.is_enabled(id) {
        description.insert_str(
            0,
            lang.pick(
                "Not enabled on this server (an admin turns it on with /config systems).\n",
                "このサーバーでは無効です（管理者が /config systems で有効にできます）。\n",
            ),
        );
    }
    EmbedView {
        title: format!("📖 {}", id.display_name(lang)),
        description,
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

/// The page for `topic` (`None`: the first page), for a member with `member` permissions.
pub fn page(
    commands: &[Command],
    topic: Option<Topic>,
    settings: &ServerSettings,
    member: Permissions,
    lang: Lang,
) -> EmbedView {
    match topic {
        Some(Topic::System(id)) => system_page(commands, id, settings, lang),
        Some(Topic::Notation) => notation_page(lang),
        _ => commands_page(commands, settings, member, lang),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every system's page shows what carries and what resets between evenings, every line of
    /// its rules, within Discord's limits; and the system's guide says the same, in both languages.
    #[test]
    fn system_pages_and_guides_say_what_carries_between_evenings() {
        let commands = crate::systems::commands();
        crate::command_names::learn(&crate::commands::all());
        let settings = ServerSettings::default();
        for id in SystemId::ALL {
            let evenings = id.rules().evenings();
            for lang in [Lang::En, Lang::Ja] {
                let page = system_page(&commands, id, &settings, lang).limited();
                let field = |name: &str| {
                    page.fields
                        .iter()
                        .find(|(n, _, _)| n == name)
                        .map(|(_, v, _)| v.clone())
                        .unwrap_or_else(|| panic!("{id:?} {lang:?}: no field {name}"))
                };
                let (carry, reset) = match lang {
                    Lang::En => ("Between evenings: carries", "Between evenings: starts fresh"),
                    Lang::Ja => (
                        "セッション間で：引き継ぐもの",
                        "セッション間で：リセットされるもの",
                    ),
                };
                let (carries, resets) = (field(carry), field(reset));
                for l in evenings.carries_in(lang) {
                    assert!(carries.contains(l), "{id:?}: {l}");
                }
                for l in evenings.resets_in(lang) {
                    assert!(resets.contains(l), "{id:?}: {l}");
                }
                if let Some(choice) = evenings.choice_in(lang) {
                    let said = field(lang.pick(
                        "Between evenings: a new game or the same one",
                        "セッション間で：新しいゲームか続きか",
                    ));
                    assert!(said.contains(&choice), "{id:?}: {choice}");
                    for l in evenings.goes_on_in(lang) {
                        assert!(said.contains(l), "{id:?}: {l}");
                    }
                }
            }
            // The system's guide in each language (the generic one: the playing guide, where
            // `/char` is) has each line.
            let page = match id {
                SystemId::Generic => "playing.md".to_string(),
                _ => format!("{}.md", id.key()),
            };
            let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
            for (lang, dir) in [(Lang::En, "docs"), (Lang::Ja, "docs/ja")] {
                let path = format!("{}/../{dir}/{page}", env!("CARGO_MANIFEST_DIR"));
                let guide = words(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")));
                let lines: Vec<String> = evenings
                    .carries
                    .iter()
                    .chain(evenings.resets)
                    .chain(evenings.goes_on)
                    .map(|(en, ja)| lang.pick(en, ja).to_string())
                    .chain(evenings.choice_in(lang))
                    .collect();
                for l in lines {
                    // A Japanese page names commands the Japanese way, as `/help` shows them.
                    let shown = crate::command_names::in_japanese_text(&l);
                    assert!(
                        guide.contains(&words(&l)) || guide.contains(&words(&shown)),
                        "{dir}/{page}: {shown}"
                    );
                }
            }
        }
    }
}

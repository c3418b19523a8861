//! The bot side of each game system: one folder per system, named as in the engine (its
//! commands, embeds and button handlers together), joined to the rest of the bot through the
//! [`SystemBot`] registry below. Registration, the button dispatcher, `/session start`'s
//! choices, `/char`'s sheet autocomplete, the `/session status` board, the recap's moments, the
//! `/odds` pages and the `/help` topics are all built from it. Adding a system: its engine folder,
//! its folder here, and one arm in [`bot`].

pub mod badlands_rally;
pub mod free_form;
pub mod mecha_d20;
pub mod replies;
pub mod shadowrun4;
pub mod terminator;
pub mod warmachine;

use std::sync::OnceLock;

use engine::i18n::Lang;
use engine::session::{ServerSettings, Session, SystemId};
use futures::future::BoxFuture;

use crate::invocation::Invocation;
use crate::moments::Moment;
use crate::press::{Answer, Press, PressReply};
use crate::{BotError, Context};

pub use crate::Command;

/// One step of a first evening: `(command as typed, English, Japanese)`.
pub type Step = (&'static str, &'static str, &'static str);

/// What the bot needs of one system beyond its engine rules.
pub trait SystemBot: Sync {
    fn id(&self) -> SystemId;

    /// Its top-level command trees (registered per server, only where the system is enabled).
    fn commands(&self) -> Vec<Command>;

    /// Its page of `/odds` (a subcommand, in its `odds.rs`; `/odds` is global, so the page is
    /// there on every server). `None` only for a system without commands: its rolls are
    /// `/roll`'s, whose odds are `/odds roll`.
    fn odds(&self) -> Option<Command>;

    /// Its `/help` topic's Japanese name (the English one is its key); the page lists its
    /// commands, sheet fields and house options. `None` only for a system without commands.
    fn help_topic(&self) -> Option<&'static str>;

    /// Decisions its `/help` page states beside the commands (where the rules leave a choice),
    /// one line each, in `lang`. Default: none.
    fn help_notes(&self, _lang: Lang) -> Vec<String> {
        Vec::new()
    }

    /// Its `/help` topic's "first evening in five lines": five steps, each a command as typed
    /// and what it does in English and Japanese (a test checks every command and option is
    /// registered). Empty only for a system without commands.
    fn first_evening(&self) -> &'static [Step] {
        &[]
    }

    /// The prefix of its button action kinds (`sr.`), unique across systems; `None`: no buttons.
    fn button_prefix(&self) -> Option<&'static str>;

    /// Every action kind its buttons make (each starts with [`Self::button_prefix`]): the
    /// suites walk them all to check that a press that rolls is logged.
    fn button_kinds(&self) -> &'static [&'static str];

    /// Handle a press of one of its buttons. `answer` is the only way to reply, and its
    /// [`Answer::roll`] the only way to the dice: a press that rolls replies with its log rows.
    fn press<'a>(
        &'a self,
        p: &'a Press<'a>,
        answer: Answer<'a>,
    ) -> BoxFuture<'a, Result<PressReply, BotError>>;

    /// Its own fields on the `/session status` board (the rally's race board).
    fn status_board(
        &self,
        session: &Session,
        settings: &ServerSettings,
        lang: Lang,
    ) -> Vec<(String, String, bool)>;

    /// How the system counts the current round of the session's turn order, in the words its
    /// own initiative uses (Shadowrun: combat turn and initiative pass), for `/session status`.
    /// `None`: the session's own round number.
    fn round_label(&self, _session: &Session, _lang: Lang) -> Option<String> {
        None
    }

    /// The moments of one logged roll, read from its outcome JSON, in the system's own words
    /// (the recap of the evening). Default: none.
    fn moments(&self, _outcome: &serde_json::Value) -> Vec<Moment> {
        Vec::new()
    }

    /// The object keys without which [`Self::moments`] finds none: an outcome whose JSON text
    /// has none of them (as `"key"`) is not parsed for moments at all, so a recap or an export
    /// reads most rows without building their outcome. Default: none (no moments).
    fn moment_keys(&self) -> &'static [&'static str] {
        &[]
    }

    /// What this system's players watch on one character (condition monitors, boxes, markers)
    /// as one short line of Discord Markdown for the `/session status` board; the whole sheet is
    /// `/char show`'s. `None`: the sheet's first fields, cut short.
    fn board_line(&self, _sheet: &engine::session::Doc, _lang: Lang) -> Option<String> {
        None
    }

    /// `/char add model:` autocomplete (`(label, value)`, at most 25): the system's models,
    /// datacards or profiles matching what was typed — names `model=` takes, nothing else (empty
    /// where the system has no list). `stats:` autocompletes from the engine's sheet
    /// declaration (`autocomplete::autocomplete_stats`).
    fn sheet_choices(&self, typed: &str, lang: Lang) -> Vec<(String, String)>;
}

/// Each system's bot part. Exhaustive: a new [`SystemId`] does not compile without its entry.
pub fn bot(id: SystemId) -> &'static dyn SystemBot {
    match id {
        SystemId::BadlandsRally => &badlands_rally::BadlandsRallyBot,
        SystemId::Shadowrun4 => &shadowrun4::Shadowrun4Bot,
        SystemId::Warmachine => &warmachine::WarmachineBot,
        SystemId::Terminator => &terminator::TerminatorBot,
        SystemId::MechaD20 => &mecha_d20::MechaD20Bot,
        SystemId::Generic => &free_form::GENERIC,
    }
}

/// Every system's bot part, in the engine's order.
pub fn all() -> impl Iterator<Item = &'static dyn SystemBot> {
    SystemId::ALL.into_iter().map(bot)
}

/// Every system's commands, each guarded by [`system_enabled`].
pub fn commands() -> Vec<Command> {
    all()
        .flat_map(|s| s.commands())
        .map(|mut c| {
            c.checks.push(|ctx| Box::pin(system_enabled(ctx)));
            c
        })
        .collect()
}

/// The system a top-level command belongs to (`None`: a generic command, registered globally).
pub fn of_command(name: &str) -> Option<SystemId> {
    // Building a command tree is not free; the names never change while the process runs.
    static NAMES: OnceLock<Vec<(String, SystemId)>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            all()
                .flat_map(|s| {
                    s.commands()
                        .into_iter()
                        .map(move |c| (c.name.to_string(), s.id()))
                })
                .collect()
        })
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, id)| *id)
}

/// The system whose button kind this is.
pub fn by_button_kind(kind: &str) -> Option<&'static dyn SystemBot> {
    all().find(|s| s.button_prefix().is_some_and(|p| kind.starts_with(p)))
}

/// The precondition of every system command, declared once: the system is enabled on this
/// server (and its settings could be read). The invocation it loaded is kept for the command,
/// so the settings are read once.
async fn system_enabled(ctx: Context<'_>) -> Result<bool, BotError> {
    let top = ctx.parent_commands().first().copied().unwrap_or(ctx.command());
    let Some(system) = of_command(&top.name) else {
        return Ok(true);
    };
    let inv = Invocation::read(ctx).await;
    inv.require_system(system)?;
    ctx.set_invocation_data(inv).await;
    Ok(true)
}

#[cfg(test)]
mod conformance {
    //! The bot's side of the engine's conformance test: every system's pieces are registered,
    //! and the contributors' guide's "Adding a game system" names every one of them.

    use std::collections::{BTreeSet, HashSet};

    use poise::ChoiceParameter;

    use super::*;
    use crate::help::Topic;

    /// A system with commands has its `/odds` page and its `/help` topic, both reached through
    /// the registry; a system without (free-form) has neither.
    #[test]
    fn every_system_has_its_odds_and_help() {
        let odds = crate::commands::odds::odds();
        let mut pages = HashSet::new();
        let list = Topic::list();
        let topics: Vec<&str> = list.iter().map(|c| c.name.as_ref()).collect();
        for s in all() {
            let id = s.id();
            let own = !s.commands().is_empty();
            match s.odds() {
                Some(page) => {
                    assert!(own, "{id}: an /odds page but no commands");
                    assert!(pages.insert(page.name.clone()), "{id}: /odds {} taken", page.name);
                    assert!(
                        odds.subcommands.iter().any(|c| c.name == page.name),
                        "{id}: /odds {} is not registered",
                        page.name
                    );
                    assert!(page.name_localizations.iter().any(|(l, _)| l == "ja"), "{id}");
                }
                None => assert!(!own, "{id}: commands of its own but no /odds page"),
            }
            match s.help_topic() {
                Some(ja) => {
                    assert!(own && !ja.trim().is_empty(), "{id}: help topic");
                    assert!(topics.contains(&id.key()), "{id}: not among /help's topics");
                    assert_eq!(Topic::from_name(id.key()), Some(Topic::System(id)));
                    assert_eq!(Topic::System(id).localized_name("ja"), Some(ja));
                }
                None => assert!(!own, "{id}: commands of its own but no /help topic"),
            }
        }
        // `/odds roll` and the general pages stay first.
        assert_eq!(odds.subcommands[0].name, "roll");
        assert_eq!(odds.subcommands.len(), pages.len() + 1);
        assert_eq!(&topics[..2], ["commands", "notation"]);
        for (i, t) in topics.iter().enumerate() {
            assert_eq!(Topic::from_index(i).map(|t| t.name()), Some(*t));
        }
    }

    /// Issue 30: the board's field part comes from the declaration. For every system, every
    /// field declared `board`, set to its example on the example sheet, is on the board line
    /// under its `/char show` label (a flag as its bold label) in both languages, and the line
    /// stays compact.
    #[test]
    fn every_board_field_is_on_the_board_line_when_set() {
        use engine::i18n::Lang;
        use engine::systems::registry::rules;
        use engine::systems::sheet::parse_fields;
        use engine::systems::sheet_decl::Kind;
        let empty = serde_json::json!({});
        let mut checked = 0;
        for id in SystemId::ALL {
            let r = rules(id);
            let decl = r.sheet_decl();
            let base_fields = parse_fields(decl.example).unwrap();
            for f in decl.fields.iter().filter(|f| f.board) {
                let mut fields = base_fields.clone();
                fields.retain(|(k, _)| decl.field(k).is_none_or(|o| o.key != f.key));
                fields.extend(parse_fields(&format!("{}={}", f.key, f.example)).unwrap());
                let sheet = r.edit_sheet(&empty, &fields, true).unwrap();
                assert!(
                    f.shown_in(&sheet).is_some(),
                    "{id}: `{}={}` is not set",
                    f.key,
                    f.example
                );
                for lang in [Lang::En, Lang::Ja] {
                    let line = bot(id)
                        .board_line(&sheet.clone().into(), lang)
                        .unwrap_or_else(|| panic!("{id}: no board line"));
                    let label = f.label(lang);
                    let found = line.split(" · ").any(|p| match f.kind {
                        Kind::YesNo => p == format!("**{label}**"),
                        _ => p.starts_with(&format!("{label} ")),
                    });
                    assert!(found, "{id}: `{}` ({lang:?}) not on the board: {line}", f.key);
                    assert!(line.chars().count() <= 120, "{id}: a long board line: {line}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 30, "{checked}");
    }

    /// The `fn` names of a trait in a source file.
    fn trait_methods(source: &str, name: &str) -> BTreeSet<String> {
        let start = source
            .find(&format!("pub trait {name}"))
            .unwrap_or_else(|| panic!("no trait {name}"));
        let body = &source[start..];
        let body = &body[..body.find("\n}").unwrap_or(body.len())];
        body.split("fn ")
            .skip(1)
            .filter_map(|rest| rest.split(['(', '<']).next())
            .map(str::to_string)
            .collect()
    }

    /// The files every system folder under `dir` has.
    fn shared_files(dir: &std::path::Path) -> BTreeSet<String> {
        let mut shared: Option<BTreeSet<String>> = None;
        for id in SystemId::ALL
            .into_iter()
            .filter(|id| !bot(*id).commands().is_empty())
        {
            let files: BTreeSet<String> = std::fs::read_dir(dir.join(id.key()))
                .unwrap_or_else(|e| panic!("{id}: {e}"))
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|f| f.ends_with(".rs"))
                .collect();
            shared = Some(match shared {
                Some(s) => s.intersection(&files).cloned().collect(),
                None => files,
            });
        }
        shared.unwrap_or_default()
    }

    /// The contributors' guide's "Adding a game system" names every method of both registries'
    /// traits and every file each system folder has, so the list stays the whole list.
    #[test]
    fn contributors_guide_lists_every_place_of_a_system() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
        let guide = read("docs/contributors.md");
        let start = guide.find("## Adding a game system").expect("the section");
        let section = &guide[start..];
        let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
        let mut missing = Vec::new();
        for (file, name) in [
            ("src/systems/rules.rs", "SystemRules"),
            ("commands/src/systems/mod.rs", "SystemBot"),
        ] {
            for m in trait_methods(&read(file), name) {
                if !section.contains(&format!("`{m}`")) && !section.contains(&format!("`{m}()`")) {
                    missing.push(format!("{name}::{m}"));
                }
            }
        }
        for dir in ["src/systems", "commands/src/systems"] {
            for f in shared_files(&root.join(dir)) {
                if !section.contains(&format!("`{f}`")) {
                    missing.push(format!("{dir}/<key>/{f}"));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "docs/contributors.md's \"Adding a game system\" does not name {missing:?}"
        );
    }
}

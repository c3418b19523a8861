//! What a button press is, for the modules that offer buttons and handle their presses: the
//! button itself (`act:<action id>`), and the [`Press`] a handler gets and the [`PressReply`]
//! it returns. The dispatcher (`buttons.rs`) routes presses here through the systems' registry;
//! these types sit below both so neither imports the other.

use engine::i18n::Lang;
use engine::session::{ServerSettings, Session};
use serenity::all::{
    ButtonStyle, ComponentInteraction, Context as SerenityContext, CreateActionRow, CreateButton,
    CreateInteractionResponseMessage,
};

use crate::Data;
use crate::dice_source::DiceSource;
use crate::log_line::{LogSummary, Logged};
use crate::store::{Action, NewRoll};

pub const PREFIX: &str = "act:";

/// A button that triggers action `id`.
pub fn button(id: i64, label: &str, style: ButtonStyle) -> CreateButton {
    CreateButton::new(format!("{PREFIX}{id}"))
        // Discord caps button labels at 80 characters.
        .label(crate::embeds::truncate(label, 80))
        .style(style)
}

/// One of several buttons of action `id` (`act:<id>/<variant>`): whichever is pressed first
/// consumes the action, so a choice between them (plain or boosted damage) is made once. The
/// handler reads the pressed one from [`Press::variant`].
pub fn button_variant(id: i64, variant: &str, label: &str, style: ButtonStyle) -> CreateButton {
    CreateButton::new(format!("{PREFIX}{id}/{variant}"))
        .label(crate::embeds::truncate(label, 80))
        .style(style)
}

/// `act:<id>` or `act:<id>/<variant>` → the action id and the variant.
pub fn parse_custom_id(custom_id: &str) -> Option<(i64, Option<String>)> {
    let rest = custom_id.strip_prefix(PREFIX)?;
    let (id, variant) = match rest.split_once('/') {
        Some((id, v)) if !v.is_empty() => (id, Some(v.to_string())),
        Some(_) => return None,
        None => (rest, None),
    };
    let id = id.parse::<i64>().ok()?;
    Some((id, variant))
}

pub fn row(buttons: Vec<CreateButton>) -> CreateActionRow {
    CreateActionRow::Buttons(buttons)
}

/// The bot's dice behind two doors: a command's [`crate::command_roll::CommandRoll`] and a
/// press's [`Answer`], each of which answers only with what it rolled logged. The source is
/// private to this module — a private field of [`Data`] would be open to every module of the
/// crate — so nothing else reaches it.
pub struct Dice(DiceSource);

impl Dice {
    pub fn new(source: DiceSource) -> Dice {
        Dice(source)
    }

    /// The dice for a command, behind its [`crate::command_roll::CommandRoll`]: it takes the
    /// command's context, which a press has not.
    pub fn for_command<'a>(&'a self, command: crate::Context<'a>) -> crate::command_roll::CommandRoll<'a> {
        crate::command_roll::CommandRoll::over(command, &self.0)
    }
}

/// Everything a handler needs about one press. It holds no dice: a press rolls only through
/// its [`Answer`] ([`Answer::roll`]), whose reply then cannot be built without a log entry.
pub struct Press<'a> {
    pub ctx: &'a SerenityContext,
    /// The store and the console tap. Its dice need a command's context
    /// ([`crate::command_roll::CommandRoll::new`]), which a press has not.
    pub data: &'a Data,
    pub interaction: &'a ComponentInteraction,
    pub action: Action,
    /// Which of the action's buttons was pressed ([`button_variant`]); `None` for a plain one.
    pub variant: Option<String>,
    pub lang: Lang,
    /// The channel's active session, if any.
    pub session: Option<std::sync::Arc<Session>>,
    /// The presser is the session's GM, manages the server, or has the GM role.
    pub is_gm: bool,
    /// The server's settings as read for this press (defaults when unreadable or in a DM).
    pub settings: ServerSettings,
}

/// What the press shows.
pub enum Shown {
    /// Replace the message the button is on.
    Update(CreateInteractionResponseMessage),
    /// A new message in the channel.
    Message(CreateInteractionResponseMessage),
}

impl Shown {
    /// The pressed message as it was, with `embed` added and its buttons gone: the choice is
    /// made (a reply [`offering`](PressReply::offering) buttons puts them in their place).
    pub fn appended(p: &Press<'_>, embed: serenity::all::CreateEmbed) -> Shown {
        // Discord keeps ten embeds a message.
        let mut embeds: Vec<serenity::all::CreateEmbed> = p
            .interaction
            .message
            .embeds
            .iter()
            .take(9)
            .cloned()
            .map(serenity::all::CreateEmbed::from)
            .collect();
        embeds.push(embed);
        Shown::Update(
            CreateInteractionResponseMessage::new()
                .embeds(embeds)
                .components(vec![]),
        )
    }

    /// The same message with `rows` as its buttons.
    pub(crate) fn with_buttons(self, rows: Vec<serenity::all::CreateActionRow>) -> Shown {
        match self {
            Shown::Update(m) => Shown::Update(m.components(rows)),
            Shown::Message(m) => Shown::Message(m.components(rows)),
        }
    }
}

/// A press's answer: what it shows and the log rows it leaves, which the dispatcher writes
/// (and hands to the console) before it shows anything. Built only by [`Answer`] and
/// [`Rolling`], so a press that rolled always carries its rows.
pub struct PressReply {
    shown: Shown,
    log: Vec<PressLog>,
    /// Buttons whose actions are stored with the first log row, in one write, and then
    /// replace the shown message's buttons (`None`: the message's buttons are as shown).
    offers: Option<Vec<Vec<crate::offers::Offer>>>,
}

/// One log row of a press: the roll (or the change) in session `session_id`, under the command
/// a person would type for it, with its localized summary.
pub struct PressLog {
    /// `None`: rolled outside any session (a raw roll's button): only the console sees it.
    session_id: Option<i64>,
    command: String,
    outcome: Logged,
    /// Logged under someone else than the presser (a secret roll revealed: its roller).
    roller: Option<(u64, String)>,
}

impl PressLog {
    pub fn new(session_id: i64, command: &str, outcome: &(impl serde::Serialize + LogSummary)) -> PressLog {
        PressLog {
            session_id: Some(session_id),
            command: command.to_string(),
            outcome: Logged::of(outcome),
            roller: None,
        }
    }

    /// A roll with no session to log it in (a raw roll's button): handed to the console only.
    pub fn outside_session(command: &str, outcome: &(impl serde::Serialize + LogSummary)) -> PressLog {
        PressLog {
            session_id: None,
            command: command.to_string(),
            outcome: Logged::of(outcome),
            roller: None,
        }
    }

    /// The row as `user` (by `name`) rolled it, not the presser.
    pub fn by(mut self, user: u64, name: &str) -> PressLog {
        self.roller = Some((user, name.to_string()));
        self
    }
}

/// The one way a press answers, made by the dispatcher for each press and used up by the
/// answer (not `Clone`). Its dice are reached only through [`Answer::roll`], which leaves a
/// [`Rolling`]: that answers only with log rows.
pub struct Answer<'a> {
    dice: &'a DiceSource,
}

impl<'a> Press<'a> {
    /// The press and its one [`Answer`], made together by the dispatcher, which builds the
    /// press (a handler only borrows it).
    pub(crate) fn with_answer(press: Press<'a>) -> (Press<'a>, Answer<'a>) {
        let answer = Answer {
            dice: &press.data.dice.0,
        };
        (press, answer)
    }
}

impl<'a> Answer<'a> {
    /// Nothing rolled, nothing logged (a choice, a refusal shown as a message).
    pub fn show(self, shown: Shown) -> PressReply {
        PressReply {
            shown,
            log: Vec::new(),
            offers: None,
        }
    }

    /// Nothing rolled, but what the press changed belongs in the log (damage applied, a secret
    /// roll revealed).
    pub fn show_logged(self, shown: Shown, log: PressLog) -> PressReply {
        PressReply {
            shown,
            log: vec![log],
            offers: None,
        }
    }

    /// From here on the press may roll, and answers only with what it rolled logged.
    pub fn roll(self) -> Rolling<'a> {
        Rolling { dice: self.dice }
    }
}

/// A press that may roll ([`Answer::roll`]): it answers with at least one log row.
pub struct Rolling<'a> {
    dice: &'a DiceSource,
}

impl<'a> Rolling<'a> {
    pub fn dice(&self) -> &'a DiceSource {
        self.dice
    }

    /// Show the result, with the row of what was rolled.
    pub fn show(self, shown: Shown, log: PressLog) -> PressReply {
        self.show_all(shown, log, Vec::new())
    }

    /// Show the result, with the rows of what was rolled (`first` and `more`, in order).
    pub fn show_all(self, shown: Shown, first: PressLog, more: Vec<PressLog>) -> PressReply {
        let mut log = vec![first];
        log.extend(more);
        PressReply {
            shown,
            log,
            offers: None,
        }
    }
}

impl PressReply {
    /// The answer with `rows` of buttons in place of the message's: their actions are stored
    /// together with the press's log row (one write instead of one per button and one for
    /// the row).
    pub fn offering(mut self, rows: Vec<Vec<crate::offers::Offer>>) -> PressReply {
        self.offers = Some(rows);
        self
    }

    /// What to show, once the rows are written, and the buttons to store with the first row.
    pub(crate) fn parts(self) -> (Shown, Option<Vec<Vec<crate::offers::Offer>>>) {
        (self.shown, self.offers)
    }

    /// The rows to write, as [`NewRoll`]s by `user` (`user_name`) unless a row names its
    /// roller; each outcome goes to the console first.
    pub(crate) fn rows(&self, data: &Data, interaction_id: u64, user: u64, user_name: &str) -> Vec<NewRoll> {
        let now = crate::invocation::now_ms();
        self.log
            .iter()
            .filter_map(|l| {
                data.tap(interaction_id, &l.outcome);
                let (id, name) = l
                    .roller
                    .as_ref()
                    .map_or((user, user_name), |(u, n)| (*u, n.as_str()));
                crate::log_line::entry(l.session_id?, id, name, l.command.clone(), &l.outcome, now)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_read_back_with_and_without_a_variant() {
        assert_eq!(parse_custom_id("act:42"), Some((42, None)));
        assert_eq!(parse_custom_id("act:42/boost"), Some((42, Some("boost".into()))));
        assert_eq!(parse_custom_id("act:42/"), None);
        assert_eq!(parse_custom_id("act:x/boost"), None);
        assert_eq!(parse_custom_id("other:42"), None);
    }
}

//! `/term`: Terminator Genisys. The turn — the tactical roll-off and the first player (a button
//! for the winner), Fate (a button per commander on FATE), activations with Come With Me, Done,
//! passing, End Turn and On Your Feet; attacks between session characters (all at once or step
//! by step, I'll Be Back by its owner's button); the raw rolls (attack roll, cover saves,
//! damage, resolution tests, I'll Be Back, a ladder roll); the board; and the session's own
//! profiles and weapons.
//! Each command maps its options to the engine (`engine::systems::terminator`), runs it on the
//! game kept in the session ([`store`]) and renders it ([`embeds`]).

pub mod attack;
mod board;
pub mod buttons;
pub mod choices;
pub mod embeds;
mod log_summary;
mod moments;
pub mod odds;
pub mod store;
pub mod turn;

pub use super::replies::{answer_with, who};
use engine::i18n::Lang;
use engine::session::{ServerSettings, Session, SystemId};
use engine::systems::rules::SessionState;
use engine::systems::terminator::profile::Library;
use engine::systems::terminator::{TerminatorState, characters_of};
use futures::future::BoxFuture;
use poise::CreateReply;

use crate::embeds::EmbedView;
use crate::press::{Answer, Press, PressReply};
use crate::systems::{Command, SystemBot};
use crate::{BotError, Context};

use attack::{
    term_attack, term_cancel, term_continue, term_cover, term_damage, term_die, term_ibb, term_ladder,
    term_resolution,
};
use turn::{
    term_activate, term_define, term_done, term_endturn, term_fate, term_feet, term_first, term_moved,
    term_pass, term_rolloff, term_start, term_status,
};

/// Terminator Genisys: the turn, attacks, rolls and the board
#[poise::command(
    slash_command,
    rename = "term",
    name_localized("ja", "ターミネーター"),
    description_localized("ja", "ターミネーター ジェニシス：ターン、攻撃、ダイス、状況"),
    subcommands(
        "term_start",
        "term_rolloff",
        "term_first",
        "term_fate",
        "term_activate",
        "term_moved",
        "term_done",
        "term_pass",
        "term_endturn",
        "term_feet",
        "term_attack",
        "term_continue",
        "term_die",
        "term_cancel",
        "term_cover",
        "term_damage",
        "term_resolution",
        "term_ibb",
        "term_ladder",
        "term_status",
        "term_define"
    ),
    subcommand_required
)]
pub async fn term(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Send one embed to the channel.
pub async fn reply(ctx: Context<'_>, view: &EmbedView) -> Result<(), BotError> {
    crate::reply::send(ctx, CreateReply::default().embed(view.to_embed())).await?;
    Ok(())
}

/// Terminator Genisys in the bot's registry.
pub struct TerminatorBot;

impl SystemBot for TerminatorBot {
    fn moments(&self, outcome: &serde_json::Value) -> Vec<crate::moments::Moment> {
        moments::of(outcome)
    }

    fn moment_keys(&self) -> &'static [&'static str] {
        moments::MOMENT_KEYS
    }

    fn board_line(&self, sheet: &engine::session::Doc, lang: Lang) -> Option<String> {
        board::line(sheet, lang)
    }

    fn id(&self) -> SystemId {
        SystemId::Terminator
    }

    fn commands(&self) -> Vec<Command> {
        vec![term()]
    }

    fn odds(&self) -> Option<Command> {
        Some(odds::term())
    }

    fn help_topic(&self) -> Option<&'static str> {
        Some("ターミネーター")
    }

    /// Five steps with real commands (`/help topic:terminator`).
    fn first_evening(&self) -> &'static [super::Step] {
        &[
            (
                "/session start name:Battle system:terminator",
                "start the battle evening",
                "戦闘のセッションを始める",
            ),
            (
                "/term start",
                "a new game between the two sides",
                "2陣営で新しいゲームを始める",
            ),
            (
                "/term rolloff",
                "the turn's tactical roll-off",
                "ターンのタクティカル・ロールオフ",
            ),
            (
                "/term status",
                "every character's markers",
                "全キャラクターのマーカーを見る",
            ),
            (
                "/session end",
                "end the evening: the log is kept",
                "セッションを終える（ログは残る）",
            ),
        ]
    }

    fn button_prefix(&self) -> Option<&'static str> {
        Some(buttons::PREFIX)
    }

    /// The first player, FATE's commanders, I'll Be Back, continuing an attack.
    fn button_kinds(&self) -> &'static [&'static str] {
        &["term.first", "term.fate", "term.continue", "term.ibb"]
    }

    fn press<'a>(
        &'a self,
        p: &'a Press<'a>,
        answer: Answer<'a>,
    ) -> BoxFuture<'a, Result<PressReply, BotError>> {
        Box::pin(buttons::press(p, answer))
    }

    /// The turn, then a field per side with every character's markers.
    fn status_board(
        &self,
        session: &Session,
        _settings: &ServerSettings,
        lang: Lang,
    ) -> Vec<(String, String, bool)> {
        let state = TerminatorState::read_or_default(&session.system_state);
        match characters_of(&session.roster) {
            Ok(chars) => embeds::board_fields(session, &chars, &state, lang),
            Err(e) => vec![(
                lang.pick("Terminator Genisys", "ターミネーター ジェニシス")
                    .into(),
                engine::i18n::Localized::localized(&e, lang),
                false,
            )],
        }
    }

    /// §2's profiles (the `model` option of `/char add`), in the reader's language.
    fn sheet_choices(&self, typed: &str, lang: Lang) -> Vec<(String, String)> {
        let t = typed.trim().to_lowercase();
        let lib = Library::shipped();
        lib.names()
            .into_iter()
            .filter_map(|n| lib.profile(&n).map(|p| (n, p.display_name(lang))))
            .filter(|(n, shown)| {
                t.is_empty() || n.to_lowercase().contains(&t) || shown.to_lowercase().contains(&t)
            })
            .take(25)
            .map(|(n, shown)| (shown.chars().take(100).collect(), n.chars().take(100).collect()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profiles_autocomplete_in_both_languages() {
        let b = TerminatorBot;
        let en = b.sheet_choices("endo", Lang::En);
        assert_eq!(en[0], ("Endoskeleton".to_string(), "Endoskeleton".to_string()));
        let ja = b.sheet_choices("", Lang::Ja);
        assert!(ja.len() <= 25 && !ja.is_empty());
        assert!(b.sheet_choices("zzz", Lang::En).is_empty());
    }
}

//! `/rally`: Heavy Gear: Badlands Rally. Rolls and checks, attacks between the session's gears,
//! damage, special moves and actions, spin-outs, initiative, the scenario and upgrade tables and
//! the race board. Each command maps its options to an engine request, runs it on the race kept
//! in the session (see [`store`]), and renders the outcome ([`crate::embeds::rally`]).

mod board;
pub mod combat;
pub mod dice;
pub mod embeds;
mod log_summary;
mod moments;
pub mod moves;
pub mod odds;
pub mod press_data;
pub mod race;
pub mod reliable;
pub mod store;
pub mod track;

pub use super::replies::{answer_with, reply, who};
use engine::i18n::Lang;
use engine::systems::badlands_rally::datacards;
use serenity::all::{AutocompleteChoice, CreateAutocompleteResponse};

use engine::session::{ServerSettings, Session, SystemId};
use engine::systems::badlands_rally::rules::race_options;
use engine::systems::badlands_rally::session_race::race_of;
use futures::future::BoxFuture;

use crate::press::{Answer, Press, PressReply};
use crate::systems::{Command, SystemBot};
use crate::{BotError, Context};

use combat::{rally_attack, rally_damage, rally_push};
use dice::{rally_check, rally_roll};
use moves::{
    rally_activate, rally_burn, rally_crowd, rally_end, rally_jump, rally_lap, rally_offroad, rally_recover,
    rally_spinout, rally_wrongway,
};
use race::{rally_initiative, rally_scenario, rally_status, rally_upgrade};
use track::{rally_collide, rally_move, rally_victory};

/// Heavy Gear: Badlands Rally
#[poise::command(
    slash_command,
    name_localized("ja", "ラリー"),
    description_localized("ja", "ヘヴィギア：バッドランズ・ラリー"),
    subcommands(
        "rally_roll",
        "rally_check",
        "rally_attack",
        "rally_push",
        "rally_damage",
        "rally_activate",
        "rally_end",
        "rally_burn",
        "rally_jump",
        "rally_crowd",
        "rally_offroad",
        "rally_recover",
        "rally_spinout",
        "rally_lap",
        "rally_move",
        "rally_collide",
        "rally_wrongway",
        "rally_victory",
        "rally_initiative",
        "rally_scenario",
        "rally_upgrade",
        "rally_status"
    ),
    subcommand_required
)]
pub async fn rally(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Autocomplete: the gears in this channel's race.
pub async fn gear_autocomplete(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let needle = partial.trim().to_lowercase();
    let names: Vec<String> = match ctx.data().store.shared_session(ctx.channel_id().get()).await {
        Ok(Some(s)) => race_of(&s, Default::default())
            .entries
            .into_iter()
            .map(|e| e.id)
            .filter(|n| n.to_lowercase().contains(&needle))
            .take(25)
            .collect(),
        _ => Vec::new(),
    };
    CreateAutocompleteResponse::new().set_choices(
        names
            .into_iter()
            .map(|n| AutocompleteChoice::new(n.clone(), n))
            .collect(),
    )
}

/// Autocomplete for `/char stats:model=…`: `(label, key)` pairs, at most 25, in `lang`.
pub fn model_choices(query: &str, lang: Lang) -> Vec<(String, String)> {
    let q = query.trim();
    let q = q.strip_prefix("model=").unwrap_or(q);
    datacards::search(q, 25)
        .into_iter()
        .map(|m| {
            let traits: Vec<&str> = m.traits.iter().map(|t| t.name(lang)).collect();
            let label = format!("{} — {}", m.name(lang), traits.join(", "));
            (label.chars().take(100).collect(), m.key.to_string())
        })
        .collect()
}

/// Badlands Rally in the bot's registry.
pub struct BadlandsRallyBot;

impl SystemBot for BadlandsRallyBot {
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
        SystemId::BadlandsRally
    }

    fn commands(&self) -> Vec<Command> {
        vec![rally()]
    }

    fn odds(&self) -> Option<Command> {
        Some(odds::rally())
    }

    fn help_topic(&self) -> Option<&'static str> {
        Some("バッドランズ・ラリー")
    }

    /// Five steps with real commands (`/help topic:badlands_rally`).
    fn first_evening(&self) -> &'static [super::Step] {
        &[
            (
                "/session start name:Race system:badlands_rally",
                "start the race evening",
                "レースのセッションを始める",
            ),
            ("/rally scenario", "roll the scenario", "シナリオを決める"),
            (
                "/rally initiative",
                "every gear checks initiative",
                "全ギアのイニシアチブ判定",
            ),
            ("/rally status", "the race board", "レースの状況を見る"),
            (
                "/session end",
                "end the evening: the log is kept",
                "セッションを終える（ログは残る）",
            ),
        ]
    }

    fn button_prefix(&self) -> Option<&'static str> {
        Some("rally.")
    }

    /// Reliable rerolls.
    fn button_kinds(&self) -> &'static [&'static str] {
        &[press_data::KIND, press_data::MOVE_KIND, press_data::CHECK_KIND]
    }

    fn press<'a>(
        &'a self,
        p: &'a Press<'a>,
        answer: Answer<'a>,
    ) -> BoxFuture<'a, Result<PressReply, BotError>> {
        Box::pin(reliable::press(p, answer))
    }

    /// The race board, under the server's house options.
    fn status_board(
        &self,
        session: &Session,
        settings: &ServerSettings,
        lang: Lang,
    ) -> Vec<(String, String, bool)> {
        let race = race_of(session, race_options(&settings.house));
        embeds::board_fields(&session.turn.order, session.turn.round, &race, lang)
    }

    fn sheet_choices(&self, typed: &str, lang: Lang) -> Vec<(String, String)> {
        model_choices(typed, lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_choices_speak_both_languages() {
        let en = model_choices("jerboa", Lang::En);
        assert_eq!(en[0].1, "jerboa");
        assert!(en[0].0.contains("Jump Jets"));
        let ja = model_choices("model=ジャーボア", Lang::Ja);
        assert!(ja[0].0.contains("ジャーボア"));
        assert!(model_choices("", Lang::En).len() <= 25);
    }
}

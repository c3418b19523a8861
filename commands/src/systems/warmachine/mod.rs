//! Warmachine (issue 12): `/wm` (attack, damage, roll, d3, rolloff, status), `/wm-effect`
//! (add, remove, list), `/wm-turn` (start, activate, move, anytime, end-activation, end,
//! trigger, resolve, end-game) and `/wm-ruling` (list, add, remove; [`rulings`]); `/wm within`
//! ([`distance`]). Each command maps its
//! options to an engine request on session models (by roster name) or raw numbers, runs it in
//! one transaction on the session ([`store`]) and renders the outcome ([`embeds`]). Buttons:
//! "Roll damage" / "Boosted damage" after a hit and "Apply damage" ([`press_data`]).
//! Rules: /work/shared/rules/warmachine.md.

mod board;
pub mod combat;
pub mod distance;
pub mod effects;
pub mod embeds;
pub mod game;
pub(crate) mod log_summary;
mod moments;
pub mod odds;
pub mod press_data;
pub mod rulings;
pub mod store;

pub use super::replies::answer_with;
use engine::i18n::Lang;
use engine::session::{ServerSettings, Session, SystemId};
use futures::future::BoxFuture;
use poise::CreateReply;

use crate::embeds::EmbedView;
use crate::press::{Answer, Press, PressReply};
use crate::systems::{Command, SystemBot};
use crate::{BotError, Context};

use combat::{wm_attack, wm_d3, wm_damage, wm_roll};
use distance::wm_within;
use game::{wm_rolloff, wm_status};
use press_data::WmPress;

/// Warmachine: attacks, damage, roll-offs
#[poise::command(
    slash_command,
    name_localized("ja", "ウォーマシン"),
    description_localized("ja", "ウォーマシン：攻撃、ダメージ、ロールオフ"),
    subcommands(
        "wm_attack",
        "wm_damage",
        "wm_roll",
        "wm_d3",
        "wm_rolloff",
        "wm_status",
        "wm_within"
    ),
    subcommand_required
)]
pub async fn wm(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Autocomplete: the session's roster names.
pub async fn model_autocomplete(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::all::CreateAutocompleteResponse {
    crate::autocomplete::autocomplete_entry(ctx, partial).await
}

/// Show a game change (no dice): public, like every model record (item 20).
pub async fn notice(ctx: Context<'_>, view: &EmbedView) -> Result<(), BotError> {
    crate::reply::send(ctx, CreateReply::default().embed(view.to_embed())).await?;
    Ok(())
}

/// What `/help topic:warmachine` says the bot decided (issue 29).
pub const HELP_NOTES: &[(&str, &str)] = &[
    (
        "Players and controllers are Discord members (@mention or user id); a model without controller= is its owner's.",
        "プレイヤーとコントローラーはDiscordのメンバー（@メンションかユーザーID）。controller= のないモデルは登録者のもの。",
    ),
    (
        "Damage buttons belong to their attack's moment: after another attack or the end of an activation or turn they refuse and give the /wm damage line with the ARM of then.",
        "ダメージボタンは攻撃の時点のもの：別の攻撃やアクティベーション・手番の終了の後は使えず、当時のARMでの /wm damage を示す。",
    ),
    (
        "Damage on another player's model: /wm damage apply:false (nothing marked) hands Apply damage to its controller (or the GM).",
        "他のプレイヤーのモデルへのダメージ：/wm damage apply:false（記入しない）で「ダメージを適用」はそのコントローラー（かGM）に渡る。",
    ),
    (
        "Effects and activations are a model's controller's or the GM's; the turn its player's or the GM's; end-game the GM's or every player's.",
        "効果とアクティベーションはモデルのコントローラーかGM、手番はそのプレイヤーかGM、ゲーム終了はGMかプレイヤー全員。",
    ),
];

/// Warmachine in the bot's registry.
pub struct WarmachineBot;

impl SystemBot for WarmachineBot {
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
        SystemId::Warmachine
    }

    fn commands(&self) -> Vec<Command> {
        vec![wm(), effects::wm_effect(), game::wm_turn(), rulings::wm_ruling()]
    }

    fn odds(&self) -> Option<Command> {
        Some(odds::wm())
    }

    fn help_topic(&self) -> Option<&'static str> {
        Some("ウォーマシン")
    }

    /// Issue 29's decisions, as README's Warmachine section states them.
    fn help_notes(&self, lang: Lang) -> Vec<String> {
        HELP_NOTES
            .iter()
            .map(|(en, ja)| lang.pick(en, ja).to_string())
            .collect()
    }

    /// Five steps with real commands (`/help topic:warmachine`).
    fn first_evening(&self) -> &'static [super::Step] {
        &[
            (
                "/session start name:Game system:warmachine",
                "start the game evening",
                "ゲームのセッションを始める",
            ),
            (
                "/char add name:Stalker stats:\"mat=7 rat=4 def=13 arm=17 boxes=10\"",
                "each player adds a model (its controller: who adds it)",
                "各プレイヤーがモデルを追加する（コントローラーは追加した人）",
            ),
            (
                "/wm-turn start",
                "round 1 between the models' controllers",
                "モデルのコントローラー同士で第1ラウンドを始める",
            ),
            ("/wm status", "turn, models, effects", "手番・モデル・効果を見る"),
            (
                "/session end",
                "end the evening: the log is kept",
                "セッションを終える（ログは残る）",
            ),
        ]
    }

    fn button_prefix(&self) -> Option<&'static str> {
        Some("wm.")
    }

    fn button_kinds(&self) -> &'static [&'static str] {
        &[press_data::DAMAGE, press_data::APPLY]
    }

    fn press<'a>(
        &'a self,
        p: &'a Press<'a>,
        answer: Answer<'a>,
    ) -> BoxFuture<'a, Result<PressReply, BotError>> {
        Box::pin(async move {
            match WmPress::decode(&p.action.kind, &p.action.payload).map_err(BotError::internal)? {
                WmPress::Damage(d) => combat::damage_press(p, answer, d).await,
                WmPress::Apply(a) => combat::apply_press(p, answer, a).await,
            }
        })
    }

    /// The turn, the models with their effects and damage, and the rulings.
    fn status_board(&self, session: &Session, _: &ServerSettings, lang: Lang) -> Vec<(String, String, bool)> {
        let Some(game) = store::peek(session) else {
            return Vec::new();
        };
        let models: Vec<_> = session
            .roster
            .iter()
            .filter_map(|e| game.models.get(&e.name))
            .collect();
        embeds::board_fields(&game.state, &models, lang)
    }

    /// Warmachine ships no model list: `model:` offers nothing (it used to offer the sheet's
    /// fields, which `/char add` then refused as the model); `stats:` autocompletes the fields.
    fn sheet_choices(&self, _typed: &str, _lang: Lang) -> Vec<(String, String)> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 30: `/char add model:` offered `controller=@you …`, which `/char add` then put in
    /// `model=` and refused ("Unknown field `model`"). Now `model:` offers nothing and
    /// `stats:` offers the fields, every one of which `/char add` takes.
    #[test]
    fn model_offers_nothing_and_stats_offers_fields_char_add_takes() {
        assert!(WarmachineBot.sheet_choices("", Lang::En).is_empty());
        let decl = SystemId::Warmachine.rules().sheet_decl();
        let all = decl.choices("", Lang::En);
        // Issue 29: what is offered is taken in a session too (controllers are members).
        assert_eq!(all[0].1, "def=12 arm=18 boxes=30");
        let fields = engine::systems::sheet::parse_fields(&all[0].1).unwrap();
        engine::systems::sheet::edit_entry_in_session(
            SystemId::Warmachine,
            "J",
            &serde_json::json!({}),
            &fields,
            false,
            &serde_json::Value::Null,
        )
        .unwrap();
        assert!(all.iter().any(|(_, v)| v == "boxes="));
        assert!(all.iter().any(|(_, v)| v == "cover="));
        let next = decl.choices("controller=@ana def=13", Lang::Ja);
        assert!(next.iter().all(|(_, v)| v.starts_with("controller=@ana def=13 ")));
        assert!(!next.iter().any(|(_, v)| v.ends_with(" def=")));
        assert!(
            next.iter()
                .any(|(l, v)| v.ends_with(" arm=") && l.contains("装甲"))
        );
        let partial = decl.choices("controller=@ana bo", Lang::En);
        assert_eq!(partial.len(), 1);
        assert_eq!(partial[0].1, "controller=@ana boxes=");
        assert!(decl.choices("x ".repeat(60).as_str(), Lang::En).len() <= 25);
    }
}

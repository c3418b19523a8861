//! Warmachine (issue 12): `/wm` (attack, damage, roll, d3, rolloff, status), `/wm-effect`
//! (add, remove, list), `/wm-turn` (start, activate, move, anytime, end-activation, end,
//! trigger, resolve, end-game) and `/wm-ruling` (list, add, remove). Each command maps its
//! options to an engine request on session models (by roster name) or raw numbers, runs it in
//! one transaction on the session ([`store`]) and renders the outcome ([`embeds`]). Buttons:
//! "Roll damage" / "Boosted damage" after a hit and "Apply damage" ([`press_data`]).
//! Rules: /work/shared/rules/warmachine.md.

pub mod combat;
pub mod effects;
pub mod embeds;
pub mod game;
mod log_summary;
pub mod odds;
pub mod press_data;
pub mod store;

use engine::i18n::Lang;
use engine::session::{ServerSettings, Session, SystemId};
use futures::future::BoxFuture;
use poise::CreateReply;
use serenity::all::{CreateActionRow, CreateButton};

use crate::embeds::EmbedView;
use crate::invocation::Invocation;
use crate::press::{Press, PressReply};
use crate::systems::{Command, SystemBot};
use crate::{BotError, Context};

use combat::{wm_attack, wm_d3, wm_damage, wm_roll};
use game::{wm_rolloff, wm_status};
use press_data::WmPress;

/// Warmachine: attacks, damage, roll-offs
#[poise::command(
    slash_command,
    name_localized("ja", "wm"),
    description_localized("ja", "ウォーマシン：攻撃、ダメージ、ロールオフ"),
    subcommands("wm_attack", "wm_damage", "wm_roll", "wm_d3", "wm_rolloff", "wm_status"),
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

/// Show a result with its buttons, tap it for the console and log it in the session.
pub async fn reply(
    ctx: Context<'_>,
    inv: &Invocation,
    session: Option<&Session>,
    view: &EmbedView,
    buttons: Vec<CreateButton>,
    outcome: &(impl serde::Serialize + crate::log_line::LogSummary),
) -> Result<(), BotError> {
    ctx.data().tap(ctx.id(), outcome);
    let mut r = CreateReply::default().embed(view.to_embed());
    if !buttons.is_empty() {
        r = r.components(vec![CreateActionRow::Buttons(buttons)]);
    }
    crate::reply::send(ctx, r).await?;
    inv.log_roll(ctx, session, &crate::log_line::typed(ctx), outcome)
        .await;
    Ok(())
}

/// Show a game change (no dice): public, like every model record (item 20).
pub async fn notice(ctx: Context<'_>, view: &EmbedView) -> Result<(), BotError> {
    crate::reply::send(ctx, CreateReply::default().embed(view.to_embed())).await?;
    Ok(())
}

/// `/char stats:` autocomplete: the fields a model takes, appended to what was typed.
pub fn sheet_choices(typed: &str, lang: Lang) -> Vec<(String, String)> {
    const FIELDS: [(&str, &str, &str); 12] = [
        (
            "controller=",
            "the player who controls it",
            "コントロールするプレイヤー",
        ),
        ("mat=", "melee attack", "近接攻撃"),
        ("rat=", "ranged attack", "射撃攻撃"),
        ("def=", "defence", "防御"),
        ("arm=", "armour", "装甲"),
        ("cmd=", "command", "指揮"),
        ("spd=", "speed", "速度"),
        ("boxes=", "damage boxes", "ダメージボックス"),
        ("weapon1=", "\"NAME POW melee|ranged\"", "\"名前 POW 近接|射撃\""),
        (
            "cannot=",
            "knockdown, boost_attack, …",
            "knockdown, boost_attack など",
        ),
        ("auto_hit_miss=", "on / off / default", "on / off / default"),
        ("damage=", "boxes marked", "記入済みボックス"),
    ];
    let typed = typed.trim_end();
    let mut out = Vec::new();
    if typed.is_empty() {
        let example = "controller=@you mat=6 rat=4 def=13 arm=17 boxes=10 weapon1=\"Blade 13 melee\"";
        out.push((
            format!("{} {example}", lang.pick("New model:", "新しいモデル:")),
            example.to_string(),
        ));
    }
    let (head, last) = match typed.rsplit_once(' ') {
        Some((h, l)) => (format!("{h} "), l),
        None => (String::new(), typed),
    };
    let last_is_value = last.contains('=');
    for (key, en, ja) in FIELDS {
        let k = key.trim_end_matches('=');
        if typed.split_whitespace().any(|t| t.starts_with(key)) {
            continue;
        }
        let value = if last_is_value || last.is_empty() {
            format!("{typed} {key}").trim_start().to_string()
        } else if k.starts_with(&last.to_lowercase()) {
            format!("{head}{key}")
        } else {
            continue;
        };
        out.push((
            crate::embeds::truncate(&format!("{value} ({})", lang.pick(en, ja)), 100),
            crate::embeds::truncate(&value, 100),
        ));
    }
    out.truncate(25);
    out
}

/// Warmachine in the bot's registry.
pub struct WarmachineBot;

impl SystemBot for WarmachineBot {
    fn id(&self) -> SystemId {
        SystemId::Warmachine
    }

    fn commands(&self) -> Vec<Command> {
        vec![wm(), effects::wm_effect(), game::wm_turn(), game::wm_ruling()]
    }

    fn odds(&self) -> Option<Command> {
        Some(odds::wm())
    }

    fn help_topic(&self) -> Option<&'static str> {
        Some("ウォーマシン")
    }

    fn button_prefix(&self) -> Option<&'static str> {
        Some("wm.")
    }

    fn press<'a>(&'a self, p: &'a Press<'a>) -> BoxFuture<'a, Result<PressReply, BotError>> {
        Box::pin(async move {
            match WmPress::decode(&p.action.kind, &p.action.payload).map_err(BotError::internal)? {
                WmPress::Damage(d) => combat::damage_press(p, d).await,
                WmPress::Apply(a) => combat::apply_press(p, a).await,
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

    fn sheet_choices(&self, typed: &str, lang: Lang) -> Vec<(String, String)> {
        sheet_choices(typed, lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheet_choices_offer_the_fields_not_yet_typed() {
        let all = sheet_choices("", Lang::En);
        assert!(all[0].1.starts_with("controller=@you"));
        assert!(all.iter().any(|(_, v)| v == "boxes="));
        let next = sheet_choices("controller=@ana def=13", Lang::Ja);
        assert!(next.iter().all(|(_, v)| v.starts_with("controller=@ana def=13 ")));
        assert!(!next.iter().any(|(_, v)| v.ends_with(" def=")));
        assert!(
            next.iter()
                .any(|(l, v)| v.ends_with(" arm=") && l.contains("装甲"))
        );
        let partial = sheet_choices("controller=@ana bo", Lang::En);
        assert_eq!(partial.len(), 1);
        assert_eq!(partial[0].1, "controller=@ana boxes=");
        assert!(sheet_choices("x ".repeat(60).as_str(), Lang::En).len() <= 25);
    }
}

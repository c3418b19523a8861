//! `/roll`: standard dice notation (Dice Maiden and BCDice), with private and secret results.

use engine::i18n::Lang;
use engine::notation::{self, RollOutcome};
use engine::session::{SecretRolls, Session, SystemId, Visibility};
use engine::systems::rules::RollDialect;
use poise::CreateReply;
use serde_json::json;
use serenity::all::{ButtonStyle, ChannelId, CreateInteractionResponseMessage, CreateMessage, UserId};

use crate::command_roll::CommandRoll;
use crate::embeds::roll::roll_view;
use crate::invocation::{Invocation, optional};
use crate::press::{self as buttons, Answer, Press, PressLog, PressReply, Shown};
use crate::store::{JsonText, NewAction};
use crate::{BotError, Context};

/// The action kind of a secret roll's Reveal button.
pub const REVEAL: &str = "reveal";

/// `/roll dice:help` (and `?`, `ヘルプ`): the notation page of `/help`.
fn is_help(dice: &str) -> bool {
    matches!(
        dice.trim().to_lowercase().as_str(),
        "help" | "?" | "？" | "ヘルプ"
    )
}

/// A refused expression, with where the notation is explained.
fn notation_error(inv: &Invocation, e: &notation::NotationError) -> BotError {
    use engine::i18n::Localized;
    BotError::User(format!(
        "{}\n{}",
        e.localized(inv.lang),
        inv.lang.pick(
            "Examples of what works: /help topic:notation",
            "使える書き方の例: /help topic:notation"
        )
    ))
}

/// Longest expression accepted (the engine's own cap is 500; Discord's is 6000).
pub const MAX_EXPRESSION: usize = 200;

/// Roll dice: 2d6+3, 4d6 k3, 3B6>=5, S2D6 …
#[poise::command(
    slash_command,
    name_localized("ja", "ダイス"),
    description_localized("ja", "ダイスを振ります（例: 2d6+3、4d6 k3、3B6>=5）")
)]
pub async fn roll(
    ctx: Context<'_>,
    #[description = "Dice to roll, e.g. 2d6+3"]
    #[name_localized("ja", "式")]
    #[description_localized("ja", "振るダイス（例: 2d6+3）")]
    #[max_length = 200]
    dice: String,
    #[description = "A label shown as the title"]
    #[name_localized("ja", "ラベル")]
    #[description_localized("ja", "タイトルに表示するラベル")]
    #[max_length = 100]
    label: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    if is_help(&dice) {
        return crate::commands::help::send_page(ctx, &inv, Some(crate::help::Topic::Notation)).await;
    }
    if dice.chars().count() > MAX_EXPRESSION {
        return Err(inv.text("The expression is too long.", "式が長すぎます。"));
    }
    // Each optional read happens once and is bounded (see `optional`): channel settings always,
    // the session only when something needs it.
    let channel_settings = match inv.guild {
        Some(_) => optional(
            &ctx.data().reads,
            "channel settings",
            ctx.data().store.channel_settings(inv.channel),
        )
        .await
        .flatten(),
        None => None,
    };
    let mut session_read: Option<Option<std::sync::Arc<Session>>> = None;
    // A system's own reading of `/roll` in its channels (Shadowrun: BCDice's `nB6`, hits on
    // 5+): the session is read only when some system's dialect recognises the input.
    let candidates: Vec<(SystemId, &dyn RollDialect, String)> = SystemId::ALL
        .into_iter()
        .filter_map(|id| {
            let d = id.rules().roll_dialect()?;
            let expression = d.rewrite(&dice)?;
            Some((id, d, expression))
        })
        .collect();
    let mut dialect = None;
    if !candidates.is_empty() {
        let session = inv.session_if_any(ctx).await;
        let system = match &session {
            Some(s) => Some(s.system),
            None => channel_settings.and_then(|c| c.system),
        };
        dialect = candidates.into_iter().find(|(id, _, _)| Some(*id) == system);
        session_read = Some(session);
    }
    let expression = dialect
        .as_ref()
        .map_or_else(|| dice.clone(), |(_, _, e)| e.clone());
    let (roll, mut outcome) = CommandRoll::roll(ctx, |r| notation::evaluate(&expression, r))
        .map_err(|e| notation_error(&inv, &e))?;
    outcome.input = dice.trim().to_string();
    if let Some(label) = label.filter(|l| !l.trim().is_empty()) {
        outcome.label = Some(label.trim().to_string());
    }
    let roller = ctx.author().display_name().to_string();
    let reading = dialect.map(|(_, d, _)| d.read(&outcome, lang));
    let view = roll_view(&outcome, &roller, lang, reading);
    let channel_secret = channel_settings.is_some_and(|c| c.visibility == Visibility::Secret);
    let secret = outcome.flags.secret || channel_secret;
    if !secret && !outcome.flags.private {
        roll.or_abandon(crate::reply::send(ctx, CreateReply::default().embed(view.to_embed())).await)?;
    } else {
        // The roller sees the result; the channel sees that a roll was made.
        roll.or_abandon(
            crate::reply::send(ctx, CreateReply::default().embed(view.to_embed()).ephemeral(true)).await,
        )?;
        let mut notice = CreateReply::default().content(notice_text(
            lang,
            &crate::embeds::markdown::escape(&roller),
            secret,
        ));
        if secret {
            if session_read.is_none() {
                session_read = Some(inv.session_if_any(ctx).await);
            }
            let gm = session_read.as_ref().and_then(|s| s.as_ref()).map(|s| s.gm);
            send_to_gm(ctx, &inv, gm, &roller, &view).await;
            let session_id = session_read.as_ref().and_then(|s| s.as_ref()).map(|s| s.id);
            let action = NewAction {
                kind: REVEAL.into(),
                guild: inv.guild,
                channel: inv.channel,
                owner: inv.user,
                // The session and command let a reveal add the result to the session's log.
                payload: JsonText::from(json!({
                    "outcome": outcome,
                    "roller": roller,
                    "session": session_id,
                    "command": format!("/roll {dice}"),
                })),
            };
            match ctx.data().store.create_action(&action).await {
                Ok(id) => {
                    let label = lang.pick("Reveal", "公開する");
                    notice = notice.components(vec![buttons::row(vec![buttons::button(
                        id,
                        label,
                        ButtonStyle::Secondary,
                    )])]);
                }
                // The roll still stands; only the later reveal is lost.
                Err(e) => tracing::warn!("secret roll not revealable: {e}"),
            }
        }
        roll.or_abandon(crate::reply::send(ctx, notice).await)?;
    }
    let session = match session_read {
        Some(s) => s,
        None => inv.session_if_any(ctx).await,
    };
    // A private or secret roll is logged marked `hidden`: the log shows its result only to the
    // roller and the GM (see `/session log`, `/session export`).
    let hidden = if secret {
        Some("secret")
    } else if outcome.flags.private {
        Some("private")
    } else {
        None
    };
    match hidden {
        Some(kind) => {
            let marked = Hidden {
                outcome: &outcome,
                hidden: kind,
            };
            roll.record_marked(&inv, session.as_deref(), &outcome, &marked)
                .await;
        }
        None => roll.record(&inv, session.as_deref(), &outcome).await,
    }
    Ok(())
}

fn notice_text(lang: Lang, roller: &str, secret: bool) -> String {
    match (lang, secret) {
        (Lang::En, true) => format!("🎲 {roller} made a secret roll."),
        (Lang::En, false) => format!("🎲 {roller} made a private roll."),
        (Lang::Ja, true) => format!("🎲 {roller} がシークレットダイスを振りました。"),
        (Lang::Ja, false) => format!("🎲 {roller} が非公開でダイスを振りました。"),
    }
}

/// Secret results also go where the server's admins route them: a GM channel, or the active
/// session's GM by direct message. Best effort: the roller already has the result.
async fn send_to_gm(
    ctx: Context<'_>,
    inv: &Invocation,
    gm: Option<u64>,
    roller: &str,
    view: &crate::embeds::EmbedView,
) {
    let who = crate::embeds::markdown::escape(roller);
    let title = match inv.lang {
        Lang::En => format!("Secret roll by {who}"),
        Lang::Ja => format!("{who} のシークレットダイス"),
    };
    let message = CreateMessage::new()
        .content(title)
        .embed(view.to_embed())
        .allowed_mentions(serenity::all::CreateAllowedMentions::new());
    let sent = match inv.settings.secret_rolls {
        SecretRolls::GmChannel { channel } => ChannelId::new(channel)
            .send_message(ctx.http(), message)
            .await
            .map(|_| ()),
        SecretRolls::Dm => match gm.filter(|&g| g != inv.user) {
            Some(gm) => UserId::new(gm)
                .direct_message(ctx.http(), message)
                .await
                .map(|_| ()),
            None => Ok(()),
        },
    };
    if let Err(e) = sent {
        tracing::warn!("secret roll not delivered to the GM: {e}");
    }
}

/// The roller pressed "Reveal": the notice becomes the result.
pub async fn reveal(p: &Press<'_>, answer: Answer<'_>) -> Result<PressReply, BotError> {
    let outcome: RollOutcome =
        serde_json::from_value(p.action.payload["outcome"].clone()).map_err(BotError::internal)?;
    let roller = p.action.payload["roller"].as_str().unwrap_or_default();
    let view = roll_view(&outcome, roller, p.lang, None);
    let who = crate::embeds::markdown::escape(roller);
    let content = match p.lang {
        Lang::En => format!("🎲 {who} revealed a secret roll."),
        Lang::Ja => format!("🎲 {who} がシークレットダイスを公開しました。"),
    };
    // From now on the session's log shows it to everyone: a new entry under its roller, the
    // log being append-only. Best effort (the session may have ended meanwhile).
    let command = format!(
        "{} (revealed)",
        p.action.payload["command"].as_str().unwrap_or("/roll")
    );
    let shown = Shown::Update(
        CreateInteractionResponseMessage::new()
            .content(content)
            .embed(view.to_embed())
            .components(vec![]),
    );
    Ok(match p.action.payload["session"].as_i64() {
        Some(session_id) => answer.show_logged(
            shown,
            PressLog::new(session_id, &command, &outcome).by(p.action.owner, roller),
        ),
        None => answer.show(shown),
    })
}

#[cfg(test)]
mod tests {
    use engine::i18n::Localized;

    use super::*;

    #[test]
    fn notices_are_localized() {
        assert!(notice_text(Lang::En, "alice", true).contains("secret"));
        assert!(notice_text(Lang::Ja, "alice", false).contains("非公開"));
    }

    #[test]
    fn errors_keep_their_localization() {
        let e = engine::notation::evaluate("2d", &mut engine::dice::FixedRoller::new([])).unwrap_err();
        assert_ne!(e.localized(Lang::En), e.localized(Lang::Ja));
    }
}

/// A private or secret roll as logged: the outcome marked `hidden` (its kind), which
/// `/session log` and `/session export` show only to the roller and the GM.
#[derive(serde::Serialize)]
struct Hidden<'a> {
    #[serde(flatten)]
    outcome: &'a RollOutcome,
    hidden: &'static str,
}

impl crate::log_line::LogSummary for Hidden<'_> {
    fn summary(&self, lang: Lang) -> String {
        self.outcome.summary(lang)
    }
}

//! Button presses. A button's `custom_id` is `act:<id>`; the state behind it is an action row in
//! the store, so buttons keep working after a restart and a second press is refused. Each
//! action kind is routed to the module that made it. A press still being handled after
//! [`crate::reply::DEFER_AFTER`] is acknowledged first ("deferred update"), and its answer then
//! edits the message or arrives as a follow-up, so a slow store never fails the interaction.

use engine::i18n::{Lang, Localized};
use serenity::all::{
    ComponentInteraction, Context as SerenityContext, CreateAllowedMentions, CreateInteractionResponse,
    CreateInteractionResponseMessage, FullEvent, Interaction, Permissions,
};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::press::{Answer, PREFIX, Press, PressReply, Shown, button, row};
use crate::store::{Pressed, Presser};
use crate::{BotError, Data};

/// Whether this press has started answering, or was acknowledged by the watchdog. Task-local:
/// the watchdog and the handler run on the press's own task.
#[derive(Default)]
struct PressState {
    responding: AtomicBool,
    deferred: AtomicBool,
}

tokio::task_local! {
    static PRESS: Arc<PressState>;
}

/// The one action kind the GM may not press on its owner's behalf: a secret roll is the
/// roller's to reveal; game actions (Edge, damage) the GM may run.
const OWNER_ONLY: &str = crate::commands::roll::REVEAL;

pub async fn on_event(ctx: &SerenityContext, event: &FullEvent, data: &Data) -> Result<(), BotError> {
    if let FullEvent::InteractionCreate {
        interaction: Interaction::Component(press),
    } = event
    {
        // Discord sends an app only presses on its own messages: every one gets an answer,
        // a custom id we do not know (an old layout) a refusal.
        let state = Arc::new(PressState::default());
        PRESS
            .scope(state.clone(), with_watchdog(ctx, data, press, &state))
            .await;
    }
    Ok(())
}

async fn with_watchdog(ctx: &SerenityContext, data: &Data, press: &ComponentInteraction, state: &PressState) {
    let acknowledge = async {
        if !state.responding.load(Ordering::SeqCst) {
            match press.defer(&ctx.http).await {
                Ok(()) => state.deferred.store(true, Ordering::SeqCst),
                Err(e) => tracing::warn!(custom_id = %press.data.custom_id, "could not defer the press: {e}"),
            }
        }
    };
    crate::reply::acknowledge_if_slow(handle(ctx, data, press), acknowledge).await
}

async fn respond(ctx: &SerenityContext, press: &ComponentInteraction, reply: CreateInteractionResponse) {
    let deferred = PRESS
        .try_with(|s| {
            s.responding.store(true, Ordering::SeqCst);
            s.deferred.load(Ordering::SeqCst)
        })
        .unwrap_or(false);
    // No text of ours pings anyone: names in content are users' own words (see `bot.rs`).
    let reply = match reply {
        CreateInteractionResponse::UpdateMessage(m) => {
            CreateInteractionResponse::UpdateMessage(m.allowed_mentions(CreateAllowedMentions::new()))
        }
        CreateInteractionResponse::Message(m) => {
            CreateInteractionResponse::Message(m.allowed_mentions(CreateAllowedMentions::new()))
        }
        other => other,
    };
    let sent = match (deferred, reply) {
        (false, reply) => press.create_response(&ctx.http, reply).await,
        // Acknowledged already: an update edits the button's message, anything else follows up.
        (true, CreateInteractionResponse::UpdateMessage(m)) => ctx
            .http
            .edit_original_interaction_response(&press.token, &m, vec![])
            .await
            .map(|_| ()),
        (true, CreateInteractionResponse::Message(m)) => ctx
            .http
            .create_followup_message(&press.token, &m, vec![])
            .await
            .map(|_| ()),
        (true, other) => press.create_response(&ctx.http, other).await,
    };
    if let Err(e) = sent {
        tracing::warn!(custom_id = %press.data.custom_id, "button response failed: {e}");
    }
}

async fn refuse(ctx: &SerenityContext, press: &ComponentInteraction, text: String) {
    let msg = CreateInteractionResponseMessage::new()
        .content(crate::embeds::truncate(&text, 2000))
        .ephemeral(true);
    respond(ctx, press, CreateInteractionResponse::Message(msg)).await;
}

async fn handle(ctx: &SerenityContext, data: &Data, press: &ComponentInteraction) {
    let locale_lang = Lang::from_locale(&press.locale);
    let settings = match press.guild_id {
        Some(g) => data
            .store
            .server_settings(g.get())
            .await
            .ok()
            .flatten()
            .unwrap_or_default(),
        None => Default::default(),
    };
    let lang = settings.language.unwrap_or(locale_lang);
    let Some((id, variant)) = crate::press::parse_custom_id(&press.data.custom_id) else {
        return refuse(
            ctx,
            press,
            lang.pick("This button is not ours.", "このボタンは使えません。")
                .into(),
        )
        .await;
    };
    let user = press.user.id.get();
    let session = data
        .store
        .shared_session(press.channel_id.get())
        .await
        .ok()
        .flatten();
    let member = press.member.as_ref();
    let manages = member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD) || p.administrator());
    let has_gm_role = settings
        .gm_role
        .is_some_and(|r| member.is_some_and(|m| m.roles.iter().any(|x| x.get() == r)));
    let is_gm = manages || has_gm_role || session.as_ref().is_some_and(|s| s.gm == user);
    // Who may press is checked as the action is used, in one statement: the press that lands
    // makes one round trip, a refused one a second to learn why (and changes nothing).
    // Consuming the action and what the press changes are two transactions: the action is
    // marked used here (so a double click cannot run twice), the handler then saves its
    // session change, and a handler that fails releases the action again. A crash between the
    // two leaves a used button whose change never landed (the player repeats it by command).
    // Doing both in one transaction needs a store operation that takes the action id with the
    // session edit, and every handler (`sr/`, `rally/`, which also consume other actions, e.g.
    // the Apply damage a Second chance replaces) to save through it; left for when those
    // modules are not being changed by others.
    let presser = Presser {
        user,
        channel: press.channel_id.get(),
        guild: press.guild_id.map(|g| g.get()),
        gm: is_gm,
        owner_only: OWNER_ONLY,
    };
    let action = match data.store.press_action(id, presser).await {
        Ok(Pressed::Used(a)) => a,
        // Not "no such session": what the button belonged to is gone (or it never existed).
        Ok(Pressed::Gone) => {
            let text = lang.pick(
                "That button no longer works: what it belonged to is gone.",
                "このボタンはもう使えません（対象が残っていません）。",
            );
            return refuse(ctx, press, text.into()).await;
        }
        // A button answers where its message is: pressed from another channel or server (a
        // forwarded or crafted press) it would act on that channel's session.
        Ok(Pressed::Elsewhere) => {
            let text = lang.pick(
                "This button belongs to a message in another channel; press it there.",
                "このボタンは別のチャンネルのメッセージのものです。そのチャンネルで押してください。",
            );
            return refuse(ctx, press, text.into()).await;
        }
        Ok(Pressed::NotYours { owner }) => {
            let text = match lang {
                Lang::En => format!("Only <@{owner}> can use this button."),
                Lang::Ja => format!("このボタンは <@{owner}> だけが使えます。"),
            };
            return refuse(ctx, press, text).await;
        }
        Err(e) => return refuse(ctx, press, e.localized(lang)).await,
    };
    let (p, answer) = Press::with_answer(Press {
        ctx,
        data,
        interaction: press,
        action,
        variant,
        lang,
        session,
        is_gm,
        settings,
    });
    let result = route(&p, answer).await;
    match result {
        Ok(reply) => {
            // What the press rolled is logged before it shows (best effort, as a command's
            // roll: the result stands even when the log write fails).
            // Through the record queue, as a command's roll: rows of presses and commands
            // arriving together are written in one statement.
            // What the press rolled is logged before it shows (best effort, as a command's
            // roll: the result stands even when the log write fails), through the record
            // queue as a command's roll: rows arriving together are written in one statement.
            let rows = reply.rows(data, press.id.get(), user, press.user.display_name());
            let (shown, offers) = reply.parts();
            let mut rows = rows.into_iter();
            // The buttons the answer offers go in one write with its first row.
            let shown = match offers {
                Some(offers) => {
                    let first = rows.next();
                    let (buttons, logged) =
                        crate::offers::settle(data.store.as_ref(), offers, first.as_ref()).await;
                    if let (Some(row), Some(logged)) = (&first, logged) {
                        note_press_row(row, &p.action.kind, logged);
                    }
                    shown.with_buttons(crate::offers::action_rows(buttons))
                }
                None => shown,
            };
            for row in rows {
                let logged = data.store.record(&[], Some(&row)).await.map(|r| r.logged);
                note_press_row(&row, &p.action.kind, logged);
            }
            match shown {
                Shown::Update(m) => respond(ctx, press, CreateInteractionResponse::UpdateMessage(m)).await,
                Shown::Message(m) => respond(ctx, press, CreateInteractionResponse::Message(m)).await,
            }
        }
        Err(e) => {
            // Nothing happened, so the button stays usable.
            if let Err(r) = data.store.release_action(id).await {
                tracing::warn!(action = id, "could not release the action: {r}");
            }
            let text = match e {
                BotError::User(t) => t,
                BotError::Internal(detail) => {
                    let eid = crate::error::new_error_id();
                    tracing::error!(error_id = %eid, action = id, kind = %p.action.kind, "{detail}");
                    lang.pick(
                        "Something went wrong on our side.",
                        "ボット側でエラーが起きました。",
                    )
                    .to_string()
                        + &format!(" (`{eid}`)")
                }
            };
            refuse(ctx, press, text).await;
        }
    }
}

/// A press's row that did not reach the log is said in the bot's log (best effort, as a
/// command's roll: the result stands).
fn note_press_row(row: &crate::store::NewRoll, kind: &str, logged: Result<bool, crate::store::StoreError>) {
    match logged {
        Ok(true) => {}
        Ok(false) => {
            tracing::warn!(
                session = row.session_id,
                kind,
                "press roll not logged: the session is not running"
            )
        }
        Err(e) => tracing::warn!(session = row.session_id, kind, "press roll not logged: {e}"),
    }
}

/// Action kinds to the modules that handle them: `reveal` is `/roll`'s, `campaign.*` are
/// `/session start`'s, every other kind starts with a system's button prefix (see [`crate::systems`]).
async fn route<'a>(p: &'a Press<'a>, answer: Answer<'a>) -> Result<PressReply, BotError> {
    let kind = p.action.kind.as_str();
    if kind == crate::commands::roll::REVEAL {
        return crate::commands::roll::reveal(p, answer).await;
    }
    if [
        crate::commands::campaign::CONTINUE,
        crate::commands::campaign::NEW,
        crate::commands::campaign::DELETE,
    ]
    .contains(&kind)
    {
        return crate::commands::campaign::press(p, answer).await;
    }
    match crate::systems::by_button_kind(kind) {
        Some(system) => system.press(p, answer).await,
        None => Err(BotError::internal(format!("unknown action kind {kind}"))),
    }
}

//! Campaigns (issue 27): `/session start` where a campaign already lives offers to continue it
//! as its next evening or to start a new one, and its two buttons. A campaign is the channel's
//! sessions chained by `Session::campaign`; the engine decides what an evening carries
//! (`Session::next_evening`, each system's `Evenings`).

use std::sync::Arc;

use engine::i18n::Lang;
use engine::session::{Actor, RollLogEntry, Session, SystemId, check_session_name};
use poise::CreateReply;
use serde_json::json;
use serenity::all::{
    AutocompleteChoice, ButtonStyle, CreateAutocompleteResponse, CreateInteractionResponseMessage,
};

use super::next_game::{self, NextGameChoice, Told};
use super::system_choice::SystemChoice;
use crate::embeds::markdown::escape;
use crate::embeds::{EmbedView, colour};
use crate::invocation::{Invocation, now_ms, store_error};
use crate::offers::{Offer, settle};
use crate::press::{Answer, Press, PressReply, Shown};
use crate::store::{JsonText, LogScope, NewAction, Store, StoreError};
use crate::{BotError, Context};
use engine::systems::rules::NextGame;

/// Continue the campaign whose newest evening is `payload.last`.
pub const CONTINUE: &str = "campaign.continue";
/// Start a new campaign named `payload.name` in `payload.system`.
pub const NEW: &str = "campaign.new";

/// `/session start`'s `campaign:` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum CampaignChoice {
    #[name = "continue"]
    #[name_localized("ja", "続ける")]
    Continue,
    #[name = "new"]
    #[name_localized("ja", "新規")]
    New,
}

fn say(lang: Lang, en: String, ja: String) -> String {
    match lang {
        Lang::En => en,
        Lang::Ja => ja,
    }
}

/// `/session start`: continue, start new, or ask which when a campaign lives here.
pub async fn start(
    ctx: Context<'_>,
    name: Option<String>,
    system: Option<SystemChoice>,
    choice: Option<CampaignChoice>,
    game: Option<NextGameChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let guild = inv.require_guild()?;
    let store = ctx.data().store.as_ref();
    let last = store
        .last_session(inv.channel)
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    if last.as_ref().is_some_and(Session::is_active) {
        return Err(inv.user_error(&StoreError::AlreadyActive));
    }
    // A name that could never start a session is refused before anything is offered.
    if let Some(n) = &name {
        check_session_name(n).map_err(|e| inv.user_error(&e))?;
    }
    let fresh = name.as_deref().zip(system.map(SystemId::from));
    if game.is_some() {
        check_game_choice(inv.lang, choice, last.as_ref())?;
    }
    match (choice, last) {
        (Some(CampaignChoice::Continue), None) => Err(BotError::User(say(
            inv.lang,
            "No campaign has been played in this channel yet: start one with `name:` and `system:`."
                .into(),
            "このチャンネルにはまだキャンペーンがありません。`名前:` と `システム:` を指定して始めてください。"
                .into(),
        ))),
        (Some(CampaignChoice::Continue), Some(last)) => {
            if let Some(sys) = system.map(SystemId::from).filter(|sys| *sys != last.system) {
                return Err(BotError::User(say(
                    inv.lang,
                    format!(
                        "The campaign here plays {}, not {}: continue it without `system:`, or start a new one with `campaign:new`.",
                        last.system.display_name(inv.lang),
                        sys.display_name(inv.lang)
                    ),
                    format!(
                        "ここのキャンペーンは{}です（{}ではありません）。`システム:` なしで続けるか、`キャンペーン:新規` で新しく始めてください。",
                        last.system.display_name(inv.lang),
                        sys.display_name(inv.lang)
                    ),
                )));
            }
            let (s, told) = continue_campaign(
                store,
                &inv,
                last.id,
                inv.actor,
                name.as_deref(),
                game.map(NextGame::from),
            )
            .await?;
            send(ctx, started_view(&s, Some(told), inv.lang)).await
        }
        (Some(CampaignChoice::New), _) | (None, None) => {
            let (name, sys) = fresh.ok_or_else(|| needs_name_and_system(inv.lang))?;
            let s = new_campaign(store, &inv, guild, name, sys).await?;
            send(ctx, started_view(&s, None, inv.lang)).await
        }
        (None, Some(last)) => offer(ctx, &inv, &last, fresh, game.map(NextGame::from)).await,
    }
}

/// `game:` says what a continued evening plays: refused where nothing is continued, or where
/// the system has no game to go on with.
fn check_game_choice(
    lang: Lang,
    choice: Option<CampaignChoice>,
    last: Option<&Session>,
) -> Result<(), BotError> {
    let refuse = |en: &str, ja: &str| Err(BotError::User(lang.pick(en, ja).into()));
    match (choice, last) {
        (Some(CampaignChoice::New), _) | (_, None) => refuse(
            "`game:` says what a continued campaign's evening plays: leave it out when starting a new campaign.",
            "`ゲーム:` はキャンペーンを続けるセッションの内容です。新しいキャンペーンを始めるときは指定しないでください。",
        ),
        (_, Some(last)) if engine::systems::rules(last.system).evenings().game.is_none() => refuse(
            "Free-form rolls have no battle, race or scenario to continue: leave out `game:`.",
            "自由形式のロールには続ける戦闘・レース・シナリオがありません。`ゲーム:` を指定しないでください。",
        ),
        _ => Ok(()),
    }
}

fn needs_name_and_system(lang: Lang) -> BotError {
    BotError::User(say(
        lang,
        "A new campaign needs `name:` and `system:`.".into(),
        "新しいキャンペーンには `名前:` と `システム:` が必要です。".into(),
    ))
}

async fn send(ctx: Context<'_>, view: EmbedView) -> Result<(), BotError> {
    crate::reply::send(ctx, CreateReply::default().embed(view.to_embed())).await?;
    Ok(())
}

/// A first evening, stored; its GM is the one who starts it.
async fn new_campaign(
    store: &dyn Store,
    inv: &Invocation,
    guild: u64,
    name: &str,
    system: SystemId,
) -> Result<Session, BotError> {
    inv.require_system(system)?;
    let mut session = Session::start(guild, inv.channel, name, system, inv.user, now_ms())
        .map_err(|e| inv.user_error(&e))?;
    session.saw(inv.user, &inv.user_name);
    store
        .create_session(&session)
        .await
        .map_err(|e| store_error(e, inv.lang))
}

/// The next evening of the campaign whose newest evening is `last_id`, stored. Refused when
/// that evening is no longer the channel's newest (someone started or continued meanwhile: the
/// store's one-active-session index refuses a second start the same way).
async fn continue_campaign(
    store: &dyn Store,
    inv: &Invocation,
    last_id: i64,
    actor: Actor,
    rename: Option<&str>,
    game: Option<NextGame>,
) -> Result<(Session, Told), BotError> {
    let last = store
        .last_session(inv.channel)
        .await
        .map_err(|e| store_error(e, inv.lang))?
        .filter(|s| s.id == last_id)
        .ok_or_else(|| {
            BotError::User(inv.lang.pick(
                "This channel's game changed since the offer: type /session start again.",
                "提案の後にこのチャンネルのゲームが変わりました。もう一度 /session start を実行してください。",
            ).into())
        })?;
    if last.is_active() {
        return Err(inv.user_error(&StoreError::AlreadyActive));
    }
    inv.require_system(last.system)?;
    let told = Told::from(engine::systems::rules(last.system).evenings(), game);
    let mut next = last
        .next_evening(actor, &inv.settings.house, told.next, now_ms())
        .map_err(|e| inv.user_error(&e))?;
    if let Some(name) = rename {
        next.name = check_session_name(name).map_err(|e| inv.user_error(&e))?;
    }
    next.saw(inv.user, &inv.user_name);
    store
        .create_session(&next)
        .await
        .map(|s| (s, told))
        .map_err(|e| store_error(e, inv.lang))
}

/// What a started evening says: the system, the GM, where its rolls are and, from the second
/// evening on, what it plays (`told`) and what the rules carried and reset.
pub fn started_view(s: &Session, told: Option<Told>, lang: Lang) -> EmbedView {
    let sys = s.system.display_name(lang);
    let own: Vec<String> = crate::systems::bot(s.system)
        .commands()
        .iter()
        .map(|c| format!("/{}", c.name))
        .collect();
    let rolls = if own.is_empty() {
        lang.pick(
            "This system has no commands of its own: roll with /roll (any dice notation) and keep the roster with /char.",
            "このシステムには専用のコマンドがありません。/roll（ダイス記法）で振り、/char で名簿を管理します。",
        )
        .to_string()
    } else {
        say(
            lang,
            format!("Its commands: {}.", own.join(", ")),
            format!("専用のコマンド: {}。", own.join("、")),
        )
    };
    // A continued evening's players are seated already.
    let players = if s.players.is_empty() {
        lang.pick(
            "Players join with /session join.",
            "プレイヤーは /session join で参加します。",
        )
        .to_string()
    } else {
        let seated: Vec<String> = s.players.iter().map(|p| format!("<@{p}>")).collect();
        say(
            lang,
            format!("Players: {}", seated.join(" ")),
            format!("プレイヤー: {}", seated.join(" ")),
        )
    };
    let mut description = say(
        lang,
        format!("System: {sys}\nGM: <@{}>\n{players}\n{rolls}", s.gm),
        format!("システム: {sys}\nGM: <@{}>\n{players}\n{rolls}", s.gm),
    );
    if s.evening > 1 {
        description.push_str(&carried_text(s, told, lang));
    }
    let title = if s.evening > 1 {
        say(
            lang,
            format!("Evening {} of {}", s.evening, s.name),
            format!("{} 第{}回", s.name, s.evening),
        )
    } else {
        say(
            lang,
            format!("Session started: {}", s.name),
            format!("セッション開始: {}", s.name),
        )
    };
    EmbedView {
        title,
        description,
        colour: colour::NEUTRAL,
        ..Default::default()
    }
}

/// `\n\nRoster: …\nCarried: …\n<what it plays>\nReset: …` from the system's rules.
fn carried_text(s: &Session, told: Option<Told>, lang: Lang) -> String {
    let ev = engine::systems::rules(s.system).evenings();
    let sep = lang.pick("; ", "、");
    let roster: Vec<String> = s.roster.iter().map(|e| escape(&e.name)).collect();
    let mut out = String::from("\n");
    if !roster.is_empty() {
        out.push_str(&say(
            lang,
            format!("\nRoster: {}", roster.join(", ")),
            format!("\nロスター: {}", roster.join("、")),
        ));
    }
    let carried = ev.carries_in(lang).join(sep);
    out.push_str(&say(
        lang,
        format!("\nCarried: {carried}"),
        format!("\n引き継ぎ: {carried}"),
    ));
    let told = told.unwrap_or(Told {
        next: ev.usual,
        said: true,
    });
    out.push_str(&next_game::line(ev, told, lang));
    if told.next == NextGame::New {
        let reset = ev.resets_in(lang).join(sep);
        out.push_str(&say(
            lang,
            format!("\nReset: {reset}"),
            format!("\nリセット: {reset}"),
        ));
    } else if !ev.keeps_turn(told.next) {
        // The game goes on but not all of it (Shadowrun: the fight ended).
        let goes_on = ev.goes_on_in(lang).join(sep);
        out.push_str(&say(
            lang,
            format!("\nGoing on: {goes_on}"),
            format!("\n続き: {goes_on}"),
        ));
    }
    out
}

/// Ask whether to continue the campaign that lives here or start a new one: a button each.
async fn offer(
    ctx: Context<'_>,
    inv: &Invocation,
    last: &Session,
    fresh: Option<(&str, SystemId)>,
    game: Option<NextGame>,
) -> Result<(), BotError> {
    let lang = inv.lang;
    let ended = last.ended_at_ms.unwrap_or(last.updated_at_ms) / 1000;
    let mut description = say(
        lang,
        format!(
            "**{}** ({}), evening {}, ended <t:{ended}:f>, lives in this channel with {} character(s).",
            escape(&last.name),
            last.system.display_name(lang),
            last.evening,
            last.roster.len()
        ),
        format!(
            "このチャンネルには **{}**（{}）があります。第{}回、<t:{ended}:f> に終了、キャラクター{}人。",
            escape(&last.name),
            last.system.display_name(lang),
            last.evening,
            last.roster.len()
        ),
    );
    let may_continue = last.may_manage(inv.actor);
    let mut buttons: Vec<Offer> = Vec::new();
    let action = |kind: &str, payload: serde_json::Value| NewAction {
        kind: kind.into(),
        guild: inv.guild,
        channel: inv.channel,
        owner: inv.user,
        payload: JsonText::from(payload),
    };
    if may_continue {
        // A button per thing the evening may play (the one `game:` said, if it did).
        let ev = engine::systems::rules(last.system).evenings();
        let nexts: Vec<Option<NextGame>> = match game {
            Some(g) => vec![Some(g)],
            None if ev.choices().is_empty() => vec![None],
            None => ev.choices().iter().copied().map(Some).collect(),
        };
        for next in nexts {
            buttons.push(Offer::Pending {
                action: action(
                    CONTINUE,
                    json!({ "last": last.id, "name": fresh.map(|f| f.0), "next": next.map(NextGame::key) }),
                ),
                label: next_game::button_label(ev, next, last.evening + 1, lang),
                style: ButtonStyle::Primary,
            });
        }
    } else {
        description.push_str(&say(
            lang,
            format!(
                "\nOnly its GM <@{}> or a server manager may continue it.",
                last.gm
            ),
            format!("\n続けられるのはGM <@{}> かサーバー管理者だけです。", last.gm),
        ));
    }
    match fresh {
        Some((name, system)) => buttons.push(Offer::Pending {
            action: action(NEW, json!({ "name": name, "system": system.key() })),
            label: say(
                lang,
                format!("New campaign: {name}"),
                format!("新しいキャンペーン: {name}"),
            ),
            style: ButtonStyle::Secondary,
        }),
        None => description.push_str(lang.pick(
            "\nTo start a new campaign instead: `/session start name:… system:… campaign:new`.",
            "\n新しく始めるには: `/セッション 開始 名前:… システム:… キャンペーン:新規`。",
        )),
    }
    let view = EmbedView {
        title: lang
            .pick("A campaign lives here", "このチャンネルのキャンペーン")
            .into(),
        description,
        colour: colour::NEUTRAL,
        ..Default::default()
    };
    let (rows, _) = settle(ctx.data().store.as_ref(), vec![buttons], None).await;
    let mut reply = CreateReply::default().embed(view.to_embed());
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|r| !r.is_empty())
        .map(crate::press::row)
        .collect();
    if !rows.is_empty() {
        reply = reply.components(rows);
    }
    crate::reply::send(ctx, reply).await?;
    Ok(())
}

/// The offer's buttons (start the evening, then show it where the offer was) and the delete
/// confirmation's.
pub async fn press(p: &Press<'_>, answer: Answer<'_>) -> Result<PressReply, BotError> {
    if p.action.kind == DELETE {
        return press_delete(p, answer).await;
    }
    let inv = Invocation::for_press(p.interaction, p.lang, &p.settings);
    let store = p.data.store.as_ref();
    let payload = &p.action.payload;
    let actor = inv.actor;
    let (s, told) = if p.action.kind == CONTINUE {
        let last = payload["last"]
            .as_i64()
            .ok_or_else(|| BotError::internal("offer without last"))?;
        // An offer made before the choice existed has no `next`: the system's usual, named.
        let said = payload["next"].as_str().and_then(NextGame::from_key);
        let (s, told) = continue_campaign(store, &inv, last, actor, payload["name"].as_str(), said).await?;
        (s, Some(told))
    } else {
        let name = payload["name"].as_str().unwrap_or_default();
        let system: SystemId = payload["system"]
            .as_str()
            .unwrap_or_default()
            .parse()
            .map_err(BotError::internal)?;
        let guild = inv.require_guild()?;
        (new_campaign(store, &inv, guild, name, system).await?, None)
    };
    Ok(answer.show(Shown::Update(
        CreateInteractionResponseMessage::new()
            .embed(started_view(&s, told, p.lang).to_embed())
            .components(vec![]),
    )))
}

/// The channel's game for reading: its active evening, else the newest ended one (an ended
/// campaign stays readable).
pub async fn channel_game(ctx: Context<'_>, inv: &Invocation) -> Result<Arc<Session>, BotError> {
    if let Some(s) = inv.session_if_any(ctx).await {
        return Ok(s);
    }
    match ctx.data().store.last_session(inv.channel).await {
        Ok(Some(s)) => Ok(Arc::new(s)),
        Ok(None) => Err(inv.no_session()),
        Err(e) => Err(store_error(e, inv.lang)),
    }
}

/// Which log `evening:` names, from `base` (an evening of the campaign): `None` that evening,
/// `0` the whole campaign, `n` its evening `n`. With the session that heads what is read.
pub async fn scope(
    store: &dyn Store,
    inv: &Invocation,
    base: Arc<Session>,
    evening: Option<u32>,
) -> Result<(Arc<Session>, LogScope), BotError> {
    match evening {
        None => Ok((base.clone(), LogScope::Evening(base.id))),
        Some(0) => Ok((base.clone(), LogScope::Campaign(base.campaign()))),
        Some(n) if n == base.evening => Ok((base.clone(), LogScope::Evening(base.id))),
        Some(n) => {
            let evenings = store
                .campaign_sessions(base.campaign())
                .await
                .map_err(|e| store_error(e, inv.lang))?;
            let last = evenings.last().map_or(base.evening, |s| s.evening);
            let found = evenings.into_iter().find(|s| s.evening == n);
            found
                .map(|s| {
                    let id = s.id;
                    (Arc::new(s), LogScope::Evening(id))
                })
                .ok_or_else(|| {
                    BotError::User(say(
                        inv.lang,
                        format!("This campaign has evenings 1 to {last} (0: all of them)."),
                        format!("このキャンペーンは第1回〜第{last}回です（0で全体）。"),
                    ))
                })
        }
    }
}

/// The last `count` rolls of a scope, oldest first, as a transcript reads them (an evening's
/// light: [`Store::recent_lines`]).
pub async fn recent(store: &dyn Store, scope: LogScope, count: u32) -> Result<Vec<RollLogEntry>, StoreError> {
    match scope {
        LogScope::Evening(id) => store.recent_lines(id, count).await,
        LogScope::Campaign(c) => {
            let total = store.campaign_page(c, 0, 0).await?.total_rolls;
            let from = u32::try_from(total.saturating_sub(u64::from(count))).unwrap_or(u32::MAX);
            Ok(store.campaign_page(c, from, count).await?.export.log)
        }
    }
}

/// `evening:` autocomplete: the whole campaign, then each evening with its date.
pub async fn autocomplete_evening(ctx: Context<'_>, _partial: &str) -> CreateAutocompleteResponse {
    let inv = Invocation::load(ctx).await;
    let Ok(base) = channel_game(ctx, &inv).await else {
        return CreateAutocompleteResponse::new();
    };
    let evenings = ctx
        .data()
        .store
        .campaign_sessions(base.campaign())
        .await
        .unwrap_or_default();
    let mut choices = vec![AutocompleteChoice::new(
        inv.lang.pick("0 — the whole campaign", "0 — キャンペーン全体"),
        0,
    )];
    for s in evenings.iter().rev().take(24) {
        let day = chrono::DateTime::from_timestamp_millis(s.created_at_ms)
            .map(|d| d.format("%Y-%m-%d").to_string())
            .unwrap_or_default();
        let label = say(
            inv.lang,
            format!("{} — evening {} ({day})", s.evening, s.evening),
            format!("{} — 第{}回（{day}）", s.evening, s.evening),
        );
        choices.push(AutocompleteChoice::new(label, s.evening));
    }
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// `Night`, `Night, evening 2`, `Night (whole campaign)`: what a log or export covers.
pub fn scope_title(s: &Session, scope: LogScope, lang: Lang) -> String {
    match scope {
        LogScope::Campaign(_) => say(
            lang,
            format!("{} (whole campaign)", s.name),
            format!("{}（キャンペーン全体）", s.name),
        ),
        LogScope::Evening(_) if s.evening > 1 || s.campaign_id != 0 => say(
            lang,
            format!("{}, evening {}", s.name, s.evening),
            format!("{} 第{}回", s.name, s.evening),
        ),
        LogScope::Evening(_) => s.name.clone(),
    }
}

/// Delete the campaign whose id is `payload.campaign` (the `delete` variant) or keep it.
pub const DELETE: &str = "campaign.delete";

/// Delete this channel's campaign, every evening and its log (GM or server managers; asks first)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "削除"),
    description_localized(
        "ja",
        "このチャンネルのキャンペーンを全回・ログごと削除します（GMのみ、確認あり）"
    )
)]
pub async fn delete(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let store = ctx.data().store.as_ref();
    let base = channel_game(ctx, &inv).await?;
    if base.is_active() {
        return Err(still_running(inv.lang));
    }
    if !base.may_manage(inv.actor) {
        return Err(inv.user_error(&engine::session::SessionError::NotGm));
    }
    let campaign = base.campaign();
    let evenings = store
        .campaign_sessions(campaign)
        .await
        .map_err(|e| store_error(e, inv.lang))?
        .len();
    let rolls = store
        .campaign_page(campaign, 0, 0)
        .await
        .map_err(|e| store_error(e, inv.lang))?
        .total_rolls;
    let action = NewAction {
        kind: DELETE.into(),
        guild: inv.guild,
        channel: inv.channel,
        owner: inv.user,
        payload: JsonText::from(json!({ "campaign": campaign })),
    };
    let id = store
        .create_action(&action)
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    let lang = inv.lang;
    let view = EmbedView {
        title: say(
            lang,
            format!("Delete {}?", base.name),
            format!("「{}」を削除しますか？", base.name),
        ),
        description: say(
            lang,
            format!(
                "{evenings} evening(s) and {rolls} logged roll(s) will be gone for good: export it first (`/session export evening:0`) to keep a copy."
            ),
            format!(
                "{evenings}回分とロール{rolls}件が完全に消えます。残すには先に `/session export 回:0` で出力してください。"
            ),
        ),
        colour: colour::NEUTRAL,
        ..Default::default()
    };
    let buttons = vec![
        crate::press::button_variant(
            id,
            "delete",
            lang.pick("Delete for good", "完全に削除する"),
            ButtonStyle::Danger,
        ),
        crate::press::button_variant(
            id,
            "keep",
            lang.pick("Keep it", "削除しない"),
            ButtonStyle::Secondary,
        ),
    ];
    crate::reply::send(
        ctx,
        CreateReply::default()
            .embed(view.to_embed())
            .components(vec![crate::press::row(buttons)]),
    )
    .await?;
    Ok(())
}

/// A campaign is deleted only once its evening has ended.
fn still_running(lang: Lang) -> BotError {
    BotError::User(
        lang.pick(
            "An evening of this campaign is running: end it first (/session end).",
            "このキャンペーンの回が進行中です。先に /session end で終了してください。",
        )
        .into(),
    )
}

/// The confirmation: delete (checked again: the GM may have changed) or keep.
async fn press_delete(p: &Press<'_>, answer: Answer<'_>) -> Result<PressReply, BotError> {
    let inv = Invocation::for_press(p.interaction, p.lang, &p.settings);
    let done = |text: String| {
        answer.show(Shown::Update(
            CreateInteractionResponseMessage::new()
                .content(text)
                .embeds(vec![])
                .components(vec![]),
        ))
    };
    if p.variant.as_deref() != Some("delete") {
        return Ok(done(
            p.lang
                .pick("Kept: nothing was deleted.", "削除しませんでした。")
                .into(),
        ));
    }
    let store = p.data.store.as_ref();
    let campaign = p.action.payload["campaign"]
        .as_i64()
        .ok_or_else(|| BotError::internal("delete without campaign"))?;
    let evenings = store
        .campaign_sessions(campaign)
        .await
        .map_err(|e| store_error(e, p.lang))?;
    let newest = evenings
        .last()
        .ok_or_else(|| inv.user_error(&StoreError::NotFound))?;
    if !newest.may_manage(inv.actor) {
        return Err(inv.user_error(&engine::session::SessionError::NotGm));
    }
    let name = newest.name.clone();
    let (evenings, rolls) = store.delete_campaign(campaign).await.map_err(|e| match e {
        StoreError::AlreadyActive => still_running(p.lang),
        other => store_error(other, p.lang),
    })?;
    tracing::info!(campaign, evenings, rolls, by = inv.user, "campaign deleted");
    Ok(done(say(
        p.lang,
        format!(
            "{} deleted: {evenings} evening(s), {rolls} roll(s).",
            escape(&name)
        ),
        format!(
            "「{}」を削除しました（{evenings}回分、ロール{rolls}件）。",
            escape(&name)
        ),
    )))
}

//! `/session luck [player]` (issue 28): each player's luck, exactly — tonight (the channel's
//! active session) and over every session of the channel — with a chart of the rolls by
//! percentile. The odds are computed here, on demand, never on a roll's reply.

use serenity::all::User;

use crate::invocation::{Invocation, store_error};
use crate::luck::{LuckStats, chart_bins, view};
use crate::store::MAX_EXPORT_ROLLS;
use crate::{BotError, Context};

/// Most ended sessions of the channel read for the campaign.
const MAX_SESSIONS: u32 = 100;

/// Each player's luck: exact chances of their rolls, tonight and over the campaign
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "運"),
    description_localized("ja", "各プレイヤーの運：ロールの正確な確率（今夜とキャンペーン）")
)]
pub async fn luck(
    ctx: Context<'_>,
    #[description = "Only this player"]
    #[name_localized("ja", "プレイヤー")]
    #[description_localized("ja", "このプレイヤーだけ")]
    player: Option<User>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let guild = inv.require_guild()?;
    let store = &ctx.data().store;
    let active = inv.session_if_any(ctx).await;
    let ended = store
        .ended_sessions(guild, MAX_SESSIONS)
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    let mut ids: Vec<i64> = ended
        .iter()
        .filter(|s| s.channel_id == inv.channel)
        .map(|s| s.id)
        .collect();
    let evening = active.as_ref().map(|s| s.id);
    ids.extend(evening);
    if ids.is_empty() {
        return Err(inv.no_session());
    }
    let mut rows = Vec::new();
    for id in &ids {
        let page = store
            .export_page(*id, 0, MAX_EXPORT_ROLLS)
            .await
            .map_err(|e| store_error(e, inv.lang))?;
        rows.extend(page.export.log);
    }
    let sessions = ids.len();
    let table = tokio::task::spawn_blocking(move || {
        crate::luck::compute(&rows, evening, sessions, crate::luck::BUDGET)
    })
    .await
    .map_err(BotError::internal)?;
    let shown: Vec<_> = match &player {
        Some(u) => vec![
            table
                .player(u.id.get())
                .ok_or_else(|| unknown(&inv, u.id.get()))?,
        ],
        None => table.players.iter().collect(),
    };
    if shown.is_empty() {
        return Err(inv.text(
            "No roll with luck in this channel's sessions yet.",
            "このチャンネルのセッションには運を測れるロールがまだありません。",
        ));
    }
    let bins = chart_bins(&charted(&shown));
    let reply = crate::embeds::odds::reply_bins(view(&table, &shown, inv.lang), &bins, &|lo| lo >= 50);
    crate::embeds::odds::send(ctx, reply).await
}

fn unknown(inv: &Invocation, user: u64) -> BotError {
    BotError::User(match inv.lang {
        engine::i18n::Lang::En => {
            format!("<@{user}> has no roll with luck in this channel's sessions.")
        }
        engine::i18n::Lang::Ja => {
            format!("<@{user}> にはこのチャンネルのセッションで運を測れるロールがありません。")
        }
    })
}

/// The rolls the chart shows: the shown players' campaign rolls together.
fn charted(shown: &[&crate::luck::PlayerLuck]) -> LuckStats {
    let mut all = LuckStats::default();
    for p in shown {
        all.rolls += p.campaign.rolls;
        for (a, b) in all.deciles.iter_mut().zip(p.campaign.deciles) {
            *a += b;
        }
    }
    all
}

//! `/session luck [player]` (issue 28): each player's luck, exactly — tonight (the channel's
//! active session) and over every evening of the channel's campaign — with a chart of the rolls by
//! percentile. The odds are computed here, on demand, never on a roll's reply.

use serenity::all::User;

use crate::invocation::{Invocation, store_error};
use crate::luck::{LuckStats, chart_bins, view};
use crate::store::MAX_EXPORT_ROLLS;
use crate::{BotError, Context};

/// Most rolls of a campaign read for its luck (the first ones; a page at a time).
const MAX_CAMPAIGN_ROLLS: usize = 100_000;

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
    let store = ctx.data().store.as_ref();
    // Tonight is the running evening; the campaign is every evening of the channel's campaign
    // (after it ended, its last evening's).
    let base = super::campaign::channel_game(ctx, &inv).await?;
    let evening = base.is_active().then_some(base.id);
    let sessions = store
        .campaign_sessions(base.campaign())
        .await
        .map_err(|e| store_error(e, inv.lang))?
        .len();
    let mut rows = Vec::new();
    loop {
        let page = store
            .campaign_page(base.campaign(), rows.len() as u32, MAX_EXPORT_ROLLS)
            .await
            .map_err(|e| store_error(e, inv.lang))?;
        let done = page.export.log.is_empty() || rows.len() >= MAX_CAMPAIGN_ROLLS;
        rows.extend(page.export.log);
        if done || rows.len() as u64 >= page.total_rolls {
            break;
        }
    }
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

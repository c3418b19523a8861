//! `/session luck [player]` (issue 28): each player's luck, exactly — tonight (the channel's
//! active session) and over every evening of the channel's campaign — with a chart of the rolls by
//! percentile. The odds are computed here, on demand, never on a roll's reply.

use std::ops::ControlFlow;

use serenity::all::User;

use crate::invocation::{Invocation, store_error};
use crate::luck::{LuckRow, LuckStats, chart_bins, view};
use crate::store::{LogScope, MAX_STREAM_ROLLS, PageItem};
use crate::{BotError, Context};

/// Most rolls of a campaign read for its luck (the first ones; a page at a time).
const MAX_CAMPAIGN_ROLLS: u64 = 100_000;

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
    // A page of rows at a time: each row's luck input (not the row) is kept until its page is
    // added up, so a campaign of any length holds one page of inputs. Large pages: each
    // page's read walks past the rows before it.
    let mut tally = crate::luck::LuckTally::new(evening, crate::luck::BUDGET);
    let mut read: u64 = 0;
    // The campaign's evenings, as the first page's head lists them (the same snapshot as its
    // rows; no read of every evening's game to count them).
    let mut sessions = None;
    loop {
        let mut rows = Vec::new();
        let mut page_rows: u64 = 0;
        let head = store
            .stream_page(
                LogScope::Campaign(base.campaign()),
                u32::try_from(read).unwrap_or(u32::MAX),
                MAX_STREAM_ROLLS,
                false,
                &mut |item| {
                    if let PageItem::Row(row) = item {
                        page_rows += 1;
                        // The luck field alone: the rest of the outcome is not built.
                        rows.extend(LuckRow::of_row(&row));
                    }
                    ControlFlow::Continue(())
                },
            )
            .await
            .map_err(|e| store_error(e, inv.lang))?;
        read += page_rows;
        sessions.get_or_insert(head.evenings.len());
        tally = tokio::task::spawn_blocking(move || {
            tally.add_all(&rows);
            tally
        })
        .await
        .map_err(BotError::internal)?;
        if page_rows == 0 || read >= MAX_CAMPAIGN_ROLLS || read >= head.total_rolls {
            break;
        }
    }
    let table = tally.finish(sessions.unwrap_or(1));
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

//! `/rally roll` (target test) and `/rally check` (opposed test): dice against a rating.

use engine::systems::badlands_rally::error::RuleError;
use engine::systems::badlands_rally::roll::{self, MAX_POOL, TestRequest};

use super::embeds::{check_view, roll_view};
use super::{reply, who};
use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::{BotError, Context};

fn request(
    rating: i64,
    dice: Option<i64>,
    rattled: Option<bool>,
    extra: Option<i64>,
) -> Result<TestRequest, RuleError> {
    // A count over the pool's limit is refused as typed (clamped first, 2147483647 dice read as
    // "a pool of 1000").
    if let Some(over) = [dice, extra]
        .into_iter()
        .flatten()
        .find(|&v| v > i64::from(MAX_POOL))
    {
        return Err(RuleError::PoolTooLarge {
            dice: over,
            max: MAX_POOL,
        });
    }
    // Far below zero means no dice either way.
    let clamp = |v: i64| v.clamp(-1000, 1000) as i32;
    Ok(TestRequest {
        // Out-of-range ratings become 0 and are refused by the engine with its own sentence.
        rating: u8::try_from(rating).unwrap_or(0),
        dice: clamp(dice.unwrap_or(i64::from(roll::BASE_DICE))),
        rattled: rattled.unwrap_or(false),
        extra_dice: clamp(extra.unwrap_or(0)),
    })
}

/// Roll dice against a rating and count the successes
#[poise::command(
    slash_command,
    rename = "roll",
    name_localized("ja", "ロール"),
    description_localized("ja", "能力値に対してダイスを振り、成功数を数えます")
)]
pub async fn rally_roll(
    ctx: Context<'_>,
    #[description = "Rating: 2 to 6 (4 means 4+)"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "能力値：2〜6（4なら4+）")]
    #[min = 2]
    #[max = 6]
    rating: i64,
    #[description = "Dice (default 2)"]
    #[name_localized("ja", "ダイス")]
    #[description_localized("ja", "ダイス数（既定は2）")]
    dice: Option<i64>,
    #[description = "Rattled: −1D6"]
    #[name_localized("ja", "ラタルド")]
    #[description_localized("ja", "ラタルド：−1D6")]
    rattled: Option<bool>,
    #[description = "Extra dice (negative to remove)"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "追加ダイス（負で減らす）")]
    extra: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let req = request(rating, dice, rattled, extra).map_err(|e| inv.user_error(&e))?;
    let (roll, out) =
        CommandRoll::roll(ctx, |mut r| roll::resolve_roll(&req, &mut r)).map_err(|e| inv.user_error(&e))?;
    roll.answer_in_channel(&inv, reply(ctx, &roll_view(&out, &who(ctx), inv.lang)), &out)
        .await?;
    Ok(())
}

/// A check: the highest die plus one for each other die meeting the rating
#[poise::command(
    slash_command,
    rename = "check",
    name_localized("ja", "チェック"),
    description_localized("ja", "チェック：最大の出目＋能力値以上の他のダイス1個につき+1")
)]
pub async fn rally_check(
    ctx: Context<'_>,
    #[description = "Rating: 2 to 6 (4 means 4+)"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "能力値：2〜6（4なら4+）")]
    #[min = 2]
    #[max = 6]
    rating: i64,
    #[description = "Dice (default 2)"]
    #[name_localized("ja", "ダイス")]
    #[description_localized("ja", "ダイス数（既定は2）")]
    dice: Option<i64>,
    #[description = "Rattled: −1D6"]
    #[name_localized("ja", "ラタルド")]
    #[description_localized("ja", "ラタルド：−1D6")]
    rattled: Option<bool>,
    #[description = "Extra dice (negative to remove)"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "追加ダイス（負で減らす）")]
    extra: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let req = request(rating, dice, rattled, extra).map_err(|e| inv.user_error(&e))?;
    let (roll, out) =
        CommandRoll::roll(ctx, |mut r| roll::resolve_check(&req, &mut r)).map_err(|e| inv.user_error(&e))?;
    roll.answer_in_channel(&inv, reply(ctx, &check_view(&out, &who(ctx), inv.lang)), &out)
        .await?;
    Ok(())
}

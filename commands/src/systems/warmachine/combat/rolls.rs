//! `/wm roll` and `/wm d3`: the game's plain dice.

use engine::systems::warmachine::Model;
use engine::systems::warmachine::dice::{RollKind, d3, roll};

use super::{dice_request, modifier};
use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::systems::warmachine::answer_with;
use crate::systems::warmachine::embeds::{self as view, PlainRoll};
use crate::systems::warmachine::store::say;
use crate::{BotError, Context};

/// Roll the game's dice: 2d6 (+ boost, additional dice, discards) + modifier
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "roll",
    name_localized("ja", "ロール"),
    description_localized("ja", "2d6（+ブースト・追加ダイス・捨てる）+修正")
)]
pub async fn wm_roll(
    ctx: Context<'_>,
    #[description = "Modifier"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正値")]
    #[min = -20]
    #[max = 20]
    modifier: Option<i64>,
    #[description = "Number to reach (optional)"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "達成に必要な値（任意）")]
    #[min = 0]
    #[max = 60]
    target: Option<i64>,
    #[description = "Boost (+1 die)"]
    #[name_localized("ja", "ブースト")]
    #[description_localized("ja", "ブースト（+1ダイス）")]
    boost: Option<bool>,
    #[description = "Rules granting an additional die, comma separated"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "追加ダイスを与えるルール（カンマ区切り）")]
    #[max_length = 200]
    additional: Option<String>,
    #[description = "Discard this many lowest dice"]
    #[name_localized("ja", "低い方を捨てる")]
    #[description_localized("ja", "低い方から捨てるダイス数")]
    #[min = 1]
    #[max = 10]
    discard_lowest: Option<i64>,
    #[description = "Discard this many highest dice"]
    #[name_localized("ja", "高い方を捨てる")]
    #[description_localized("ja", "高い方から捨てるダイス数")]
    #[min = 1]
    #[max = 10]
    discard_highest: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let req = dice_request(boost, additional.as_deref(), discard_lowest, discard_highest)
        .map_err(|e| say(&e, lang))?;
    let nobody = Model::new("", "", 0, 0, 1);
    let m = self::modifier(modifier);
    let (roll, rolled) = CommandRoll::roll(ctx, |r| {
        roll(&req, RollKind::Attack, [&nobody, &nobody], &mut &mut *r)
    })
    .map_err(|e| inv.user_error(&e))?;
    let total = rolled.kept_total + i64::from(m);
    let o = PlainRoll {
        modifier: m,
        total,
        target,
        success: target.map(|t| total >= t),
        roll: rolled,
    };
    let session = inv.session_if_any(ctx).await;
    answer_with(
        roll,
        &inv,
        session.as_deref(),
        &view::roll_view(&o, lang),
        vec![],
        &o,
    )
    .await
}

/// d3: a d6 halved, rounding up
#[poise::command(
    slash_command,
    rename = "d3",
    description_localized("ja", "d3：d6を半分にして端数切り上げ")
)]
pub async fn wm_d3(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (roll, o) = CommandRoll::roll(ctx, |r| d3(&mut &mut *r)).map_err(|e| inv.user_error(&e))?;
    let session = inv.session_if_any(ctx).await;
    answer_with(
        roll,
        &inv,
        session.as_deref(),
        &view::d3_view(&o, inv.lang),
        vec![],
        &o,
    )
    .await
}

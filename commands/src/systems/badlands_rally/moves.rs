//! A gear's own turn: activate (speed), end, burn rubber, jump, Rally the Crowd, Off-Road
//! Specialist, recovery, spin-out and laps.

use engine::systems::badlands_rally::gear::Speed;
use engine::systems::badlands_rally::moves::MoveRequest;
use engine::systems::badlands_rally::race::{Action, RaceEvent};
use engine::systems::badlands_rally::state::GearEvent;

use super::embeds::{action_view, changes_view};
use super::store::{self, rule};
use super::{answer_with, gear_autocomplete, reliable, reply};
use crate::invocation::Invocation;
use crate::{BotError, Context};

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum SpeedChoice {
    #[name = "cruising"]
    #[name_localized("ja", "クルージング")]
    Cruising,
    #[name = "top"]
    #[name_localized("ja", "トップ")]
    Top,
}

/// Run one of the engine's actions for `gear` and show it; a test gets a Reliable button when
/// the gear can still reroll this lap.
async fn act(ctx: Context<'_>, gear: String, action: Action, title: (&str, &str)) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (roll, session, (id, report, before, after)) =
        store::run(ctx, &inv, &[&gear], &mut |s, race, roller| {
            let id = store::gear_name(s, &gear)?;
            let (after, report) = race.act(&id, &action, &mut &mut *roller).map_err(rule)?;
            Ok((after.clone(), (id, report, race.clone(), after)))
        })
        .await?;
    let title = format!("{} — {id}", inv.lang.pick(title.0, title.1));
    let button = reliable::move_button(
        ctx.guild_id().map(|g| g.get()),
        ctx.channel_id().get(),
        &session,
        &id,
        &action,
        &title,
        &before,
        &after,
        inv.lang,
    );
    let view = action_view(&title, &report, inv.lang);
    answer_with(
        roll,
        &inv,
        Some(&session),
        &view,
        button.into_iter().collect(),
        &report,
    )
    .await?;
    Ok(())
}

/// Apply a dice-free event to `gear` and show what changed.
async fn event(
    ctx: Context<'_>,
    gear: String,
    ev: GearEvent,
    laps: Option<u32>,
    title: (&str, &str),
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, (id, changes, status)) = store::run(ctx, &inv, &[&gear], &mut |s, race, _| {
        let id = store::gear_name(s, &gear)?;
        let mut race = race.clone();
        let stored_laps = race.laps;
        if let Some(l) = laps {
            race.laps = l;
        }
        let (mut after, changes) = race
            .step(&RaceEvent::Gear {
                id: id.clone(),
                event: ev.clone(),
            })
            .map_err(rule)?;
        // `laps:` counts this lap against another length; the race keeps its own.
        after.laps = stored_laps;
        let status = after.gear(&id).map_err(rule)?.status();
        Ok((after, (id, changes, status)))
    })
    .await?;
    let title = format!("{} — {id}", inv.lang.pick(title.0, title.1));
    reply(ctx, &changes_view(&title, &changes, &status, inv.lang)).await
}

/// Start a gear's activation at cruising or top speed
#[poise::command(
    slash_command,
    rename = "activate",
    name_localized("ja", "アクティベート"),
    description_localized("ja", "ギアのアクティベーションを開始（クルージングかトップ）")
)]
pub async fn rally_activate(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
    #[description = "Speed (default cruising)"]
    #[name_localized("ja", "スピード")]
    #[description_localized("ja", "スピード（既定はクルージング）")]
    speed: Option<SpeedChoice>,
) -> Result<(), BotError> {
    let speed = match speed {
        Some(SpeedChoice::Top) => Speed::Top,
        _ => Speed::Cruising,
    };
    event(
        ctx,
        gear,
        GearEvent::Activate { speed },
        None,
        ("Activation", "アクティベーション"),
    )
    .await
}

/// End a gear's activation
#[poise::command(
    slash_command,
    rename = "end",
    name_localized("ja", "終了"),
    description_localized("ja", "ギアのアクティベーションを終了")
)]
pub async fn rally_end(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
) -> Result<(), BotError> {
    event(
        ctx,
        gear,
        GearEvent::EndActivation,
        None,
        ("End of activation", "アクティベーション終了"),
    )
    .await
}

/// Complete a lap
#[poise::command(
    slash_command,
    rename = "lap",
    name_localized("ja", "ラップ"),
    description_localized("ja", "ラップを完了")
)]
pub async fn rally_lap(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
    #[description = "Laps in this race (default: the race's, from /rally scenario)"]
    #[name_localized("ja", "周回数")]
    #[description_localized("ja", "このレースのラップ数（既定は /ラリー シナリオ で決めたもの）")]
    #[min = 1]
    #[max = 99]
    laps: Option<i64>,
) -> Result<(), BotError> {
    // The race's own length (stored by /rally scenario) unless the GM types another.
    let laps = laps.map(|l| l.clamp(1, 99) as u32);
    event(
        ctx,
        gear,
        GearEvent::CompleteLap {
            round: 0,
            race_laps: laps.unwrap_or(store::DEFAULT_LAPS),
        },
        laps,
        ("Lap", "ラップ"),
    )
    .await
}

/// Going the wrong way ("This is a race!"): the rattle record advances, no token
#[poise::command(
    slash_command,
    rename = "wrongway",
    name_localized("ja", "逆走"),
    description_localized("ja", "逆走（これはレースだ！）：ラタルドの記録が進む。トークンは無し")
)]
pub async fn rally_wrongway(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
) -> Result<(), BotError> {
    event(
        ctx,
        gear,
        GearEvent::WrongWay,
        None,
        ("Wrong way — this is a race!", "逆走 — これはレースだ！"),
    )
    .await
}

fn move_request(equipment: Option<bool>, extra: Option<i64>) -> MoveRequest {
    MoveRequest {
        equipment: equipment.unwrap_or(false),
        extra_dice: extra.unwrap_or(0).clamp(-1000, 1000) as i32,
        ..MoveRequest::default()
    }
}

/// Burn rubber: roll against Defence, +1 MR per success
#[poise::command(
    slash_command,
    rename = "burn",
    name_localized("ja", "バーンラバー"),
    description_localized("ja", "バーンラバー：防御値でロール、成功1つにつきMR+1")
)]
pub async fn rally_burn(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
    #[description = "Equipment helps: +1D6"]
    #[name_localized("ja", "装備")]
    #[description_localized("ja", "装備の補助：+1D6")]
    equipment: Option<bool>,
    #[description = "Extra dice"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "追加ダイス")]
    extra: Option<i64>,
) -> Result<(), BotError> {
    let req = move_request(equipment, extra);
    act(
        ctx,
        gear,
        Action::BurnRubber(req),
        ("Burn rubber", "バーンラバー"),
    )
    .await
}

/// Jump: roll against Defence with at most the MR left in dice; successes are hexes
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "jump",
    name_localized("ja", "ジャンプ"),
    description_localized("ja", "ジャンプ：残りMRまでのダイスで防御値ロール、成功数がヘクス数")
)]
pub async fn rally_jump(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
    #[description = "Equipment helps: +1D6"]
    #[name_localized("ja", "装備")]
    #[description_localized("ja", "装備の補助：+1D6")]
    equipment: Option<bool>,
    #[description = "Extra dice"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "追加ダイス")]
    extra: Option<i64>,
    #[description = "Roll at most this many dice"]
    #[name_localized("ja", "最大ダイス")]
    #[description_localized("ja", "振るダイスの上限")]
    #[min = 0]
    #[max = 60]
    max_dice: Option<i64>,
    #[description = "Gears jumped over (Show Off Central)"]
    #[name_localized("ja", "飛び越えたギア")]
    #[description_localized("ja", "飛び越えたギアの数（ショー・オフ・セントラル）")]
    #[min = 0]
    #[max = 24]
    gears_jumped: Option<i64>,
    #[description = "One of the gears in the way is Tall"]
    #[name_localized("ja", "トール")]
    #[description_localized("ja", "飛び越えるギアにトールがいる")]
    over_tall: Option<bool>,
    #[description = "What is in the landing hex: a gear's name, or terrain (level 1)"]
    #[name_localized("ja", "着地点")]
    #[description_localized("ja", "着地するヘクスにあるもの：ギアの名前か「地形」（レベル1の地形）")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    landing_on: Option<String>,
    #[description = "The landing hex is rough (it pays its normal MR: 2 at top speed)"]
    #[name_localized("ja", "着地ラフ")]
    #[description_localized("ja", "着地するヘクスがラフ（通常通りのMRを消費：トップなら2）")]
    landing_rough: Option<bool>,
) -> Result<(), BotError> {
    let mut req = move_request(equipment, extra);
    req.max_dice = max_dice.map(|m| m.clamp(0, 60) as u32);
    req.gears_jumped = gears_jumped.unwrap_or(0).clamp(0, 24) as u32;
    req.over_tall_gear = over_tall.unwrap_or(false);
    req.landing_rough = landing_rough.unwrap_or(false);
    act(
        ctx,
        gear,
        jump_action(req, landing_on.as_deref()),
        ("Jump", "ジャンプ"),
    )
    .await
}

/// The jump as the engine takes it: nothing in the landing hex, level-1 terrain (`terrain`,
/// `level1`, `l1`, `地形`), or the gear named (the engine looks it up, any case).
pub fn jump_action(mut req: MoveRequest, landing_on: Option<&str>) -> Action {
    match landing_on.map(str::trim).filter(|s| !s.is_empty()) {
        None => Action::Jump(req),
        Some(w)
            if matches!(
                w.to_lowercase().as_str(),
                "terrain" | "level1" | "l1" | "地形" | "レベル1"
            ) =>
        {
            req.landing_blocked = true;
            Action::Jump(req)
        }
        Some(name) => Action::JumpOnto {
            req,
            onto: name.to_string(),
        },
    }
}

/// Rally the Crowd: a token for +1 die on the next initiative check
#[poise::command(
    slash_command,
    rename = "crowd",
    name_localized("ja", "ラリーザクラウド"),
    description_localized("ja", "ラリー・ザ・クラウド：次のイニシアチブにダイス+1のトークン")
)]
pub async fn rally_crowd(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
) -> Result<(), BotError> {
    act(
        ctx,
        gear,
        Action::RallyTheCrowd,
        ("Rally the Crowd", "ラリー・ザ・クラウド"),
    )
    .await
}

/// Off-Road Specialist: roll Defence, ignore that many rough hexes
#[poise::command(
    slash_command,
    rename = "offroad",
    name_localized("ja", "オフロード"),
    description_localized("ja", "オフロード・スペシャリスト：防御ロールの成功数だけラフを無視")
)]
pub async fn rally_offroad(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
) -> Result<(), BotError> {
    act(
        ctx,
        gear,
        Action::OffRoad,
        ("Off-Road Specialist", "オフロード・スペシャリスト"),
    )
    .await
}

/// Recovery: heal 1D6 hits; a 6 gives the action back
#[poise::command(
    slash_command,
    rename = "recover",
    name_localized("ja", "リカバリー"),
    description_localized("ja", "リカバリー：1D6ヒット回復、6ならアクションが戻る")
)]
pub async fn rally_recover(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
) -> Result<(), BotError> {
    act(ctx, gear, Action::Recover, ("Recovery", "リカバリー")).await
}

/// Roll a gear's pending spin-out: turns, then a 6 recovers or it skids
#[poise::command(
    slash_command,
    rename = "spinout",
    name_localized("ja", "スピンアウト"),
    description_localized("ja", "未解決のスピンアウトを振る：6で立て直し、他はスキッド")
)]
pub async fn rally_spinout(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
) -> Result<(), BotError> {
    act(ctx, gear, Action::SpinOut, ("Spin-out", "スピンアウト")).await
}

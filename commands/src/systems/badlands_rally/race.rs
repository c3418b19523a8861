//! The race as a whole: initiative (every gear, in order, stored as the turn order), the
//! scenario and upgrade tables, and the race board.

use engine::session::SessionError;
use engine::systems::badlands_rally::RuleError;
use engine::systems::badlands_rally::race::RaceEvent;
use engine::systems::badlands_rally::tables::{self, UpgradeRoll};

use super::embeds::{board_fields, initiative_view, scenario_view, upgrade_view};
use super::store::{self, rule};
use super::{answer_with, gear_autocomplete, reliable, reply};
use crate::command_roll::CommandRoll;
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Start the next round: every gear checks initiative (2D6 + Rally dice); the order is stored
#[poise::command(
    slash_command,
    rename = "initiative",
    name_localized("ja", "イニシアチブ"),
    description_localized(
        "ja",
        "次のラウンドを開始：全ギアがイニシアチブ・チェック（2D6＋ラリーダイス）"
    )
)]
pub async fn rally_initiative(
    ctx: Context<'_>,
    #[description = "Track positions for ties, leader first: \"A, B, C\""]
    #[name_localized("ja", "順位")]
    #[description_localized("ja", "同値のときの位置：ギアの名前を先頭から「、」区切りで")]
    #[max_length = 1000]
    ahead: Option<String>,
    #[description = "Pole position (before the first round; ties reroll, no Rally dice)"]
    #[name_localized("ja", "ポール")]
    #[description_localized("ja", "ポール・ポジション（最初のラウンド前。同値は振り直し）")]
    pole: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let actor = inv.actor;
    let typed_ahead: Vec<String> = ahead
        .as_deref()
        .unwrap_or("")
        .split([',', '、'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let pole = pole.unwrap_or(false);
    let (roll, session, (out, offer)) = store::run(ctx, &inv, &[], &mut |s, race, roller| {
        if !s.may_manage(actor) {
            return Err(SessionError::NotGm);
        }
        let ahead = typed_ahead
            .iter()
            .map(|n| store::gear_name(s, n))
            .collect::<Result<Vec<_>, SessionError>>()?;
        let started = race.apply(&RaceEvent::StartRound).map_err(rule)?;
        let (after, out) = if pole {
            started.pole_position(&mut &mut *roller)
        } else {
            started.initiative(&ahead, &mut &mut *roller)
        }
        .map_err(rule)?;
        // The winner first, then clockwise round the table (seed 3 and 6).
        let play = out.play_order(&after.seating());
        let names: Vec<&str> = play.iter().map(String::as_str).collect();
        s.set_turn_order(actor, &names)?;
        // Reliable may reroll a gear's check from the race as it was before it.
        let offer = reliable::CheckOffer::new(&out, &ahead, &started, &after);
        Ok((after, (out, offer)))
    })
    .await?;
    let buttons = reliable::check_buttons(
        ctx.guild_id().map(|g| g.get()),
        ctx.channel_id().get(),
        &session,
        &offer,
        inv.lang,
    );
    let view = initiative_view(&out, &session.turn.order, session.turn.round, inv.lang);
    answer_with(roll, &inv, Some(&session), &view, buttons, &out).await?;
    Ok(())
}

/// Roll the scenario (and Race Day's laps)
#[poise::command(
    slash_command,
    rename = "scenario",
    name_localized("ja", "シナリオ"),
    description_localized("ja", "シナリオ表を振る（レース・デイならラップ数も）")
)]
pub async fn rally_scenario(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (roll, out) =
        CommandRoll::roll(ctx, |mut r| tables::roll_scenario(&mut r)).map_err(|e| inv.user_error(&e))?;
    // In a race, the GM's roll sets the race's scenario and laps.
    let mut session = inv.session_if_any(ctx).await;
    if let Some(s) = session
        .as_ref()
        .filter(|s| s.system == engine::session::SystemId::BadlandsRally && s.may_manage(inv.actor))
    {
        let opts = crate::systems::badlands_rally::store::options(&inv.settings);
        let (scenario, laps) = (out.scenario, out.laps);
        let saved = inv
            .update(ctx, |s| {
                let mut race = crate::systems::badlands_rally::store::race_of(s, opts);
                race.scenario = Some(scenario);
                race.laps = laps;
                crate::systems::badlands_rally::store::save(s, &race)
            })
            .await;
        match saved {
            Ok(s) => session = Some(s),
            Err(e) => tracing::warn!(session = s.id, "scenario not stored: {e}"),
        }
    }
    roll.answer(
        &inv,
        session.as_deref(),
        reply(ctx, &scenario_view(&out, inv.lang)),
        &out,
    )
    .await?;
    Ok(())
}

/// What a Twins roll did.
enum Twinned {
    NotRolled,
    On(usize),
    NothingToPair,
}

/// Roll the upgrade table; with a gear, the upgrade goes on its sheet
#[poise::command(
    slash_command,
    rename = "upgrade",
    name_localized("ja", "アップグレード"),
    description_localized("ja", "アップグレード表を振る。ギアを指定するとシートに追加")
)]
pub async fn rally_upgrade(
    ctx: Context<'_>,
    #[description = "The gear that gets the upgrade"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "アップグレードを得るギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: Option<String>,
    #[description = "Twins: the weapon number it pairs"]
    #[name_localized("ja", "武器")]
    #[description_localized("ja", "ツインズ：対にする武器の番号")]
    #[min = 1]
    #[max = 6]
    weapon: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let weapon = weapon.and_then(|w| usize::try_from(w - 1).ok());
    let Some(gear) = gear else {
        let (roll, out) =
            CommandRoll::roll(ctx, |mut r| tables::roll_upgrade(&mut r)).map_err(|e| inv.user_error(&e))?;
        roll.answer_in_channel(&inv, reply(ctx, &upgrade_view(&out, None, inv.lang)), &out)
            .await?;
        return Ok(());
    };
    let (roll, session, (id, out, twins)) = store::run(ctx, &inv, &[&gear], &mut |s, race, roller| {
        let id = store::gear_name(s, &gear)?;
        // Which weapon Twins would pair is settled before the die is rolled, so a 6 is never
        // thrown away: the weapon named, or the only one it can pair.
        let candidates = race.gear(&id).map_err(rule)?.sheet.twins_candidates();
        let twins = match weapon {
            Some(w) if candidates.contains(&w) => Some(w),
            Some(_) => return Err(rule(RuleError::TwinsWeapon)),
            None if candidates.len() <= 1 => candidates.first().copied(),
            None => {
                let list: Vec<String> = candidates.iter().map(|i| (i + 1).to_string()).collect();
                return Err(store::refusal(
                    &format!(
                        "Twins would need a weapon and this gear has several it could pair: give weapon:{} before rolling.",
                        list.join(" / ")
                    ),
                    &format!(
                        "ツインズには武器の指定が必要で、このギアには候補が複数あります。振る前に weapon:{} を指定してください。",
                        list.join("／")
                    ),
                ));
            }
        };
        let out = tables::roll_upgrade(&mut &mut *roller).map_err(rule)?;
        let upgrade = match out.upgrade {
            // No Vibro Blade, Autocannon or Rifle: Twins has nothing to pair.
            UpgradeRoll::Twins if twins.is_none() => None,
            u => Some(u.upgrade(twins).map_err(rule)?),
        };
        let mut after = race.clone();
        if let (Some(upgrade), Some(e)) = (upgrade, after.entries.iter_mut().find(|e| e.id == id)) {
            if !e.gear.sheet.upgrades.contains(&upgrade) {
                e.gear.sheet.upgrades.push(upgrade);
            }
            e.gear.sheet.validate().map_err(rule)?;
        }
        let twinned = match (out.upgrade, twins) {
            (UpgradeRoll::Twins, Some(w)) => Twinned::On(w),
            (UpgradeRoll::Twins, None) => Twinned::NothingToPair,
            _ => Twinned::NotRolled,
        };
        Ok((after, (id, out, twinned)))
    })
    .await?;
    let note = match (inv.lang, twins) {
        (engine::i18n::Lang::En, Twinned::NothingToPair) => {
            format!("{id} has no Vibro Blade, Autocannon or Rifle for Twins to pair: no effect.")
        }
        (engine::i18n::Lang::Ja, Twinned::NothingToPair) => {
            format!("{id} にはツインズにできるVibro Blade・Autocannon・Rifleがないため、効果はありません。")
        }
        (engine::i18n::Lang::En, Twinned::On(w)) => format!("Added to {id} (Twins on weapon {}).", w + 1),
        (engine::i18n::Lang::Ja, Twinned::On(w)) => {
            format!("{id} に追加しました（武器{}をツインズに）。", w + 1)
        }
        (engine::i18n::Lang::En, Twinned::NotRolled) => format!("Added to {id}."),
        (engine::i18n::Lang::Ja, Twinned::NotRolled) => format!("{id} に追加しました。"),
    };
    roll.answer(
        &inv,
        Some(&session),
        reply(ctx, &upgrade_view(&out, Some(&note), inv.lang)),
        &out,
    )
    .await?;
    Ok(())
}

/// The race board: order, round, laps and every gear's status
#[poise::command(
    slash_command,
    rename = "status",
    name_localized("ja", "状況"),
    description_localized("ja", "レースの状況：順番、ラウンド、ラップ、各ギアの状態")
)]
pub async fn rally_status(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (session, race) = store::read(ctx, &inv).await?;
    let view = EmbedView {
        title: format!("🏁 {}", session.name),
        description: String::new(),
        colour: colour::NEUTRAL,
        fields: board_fields(&session.turn.order, session.turn.round, &race, inv.lang),
        footer: None,
    };
    reply(ctx, &view).await
}

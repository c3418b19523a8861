//! The chase manoeuvres of seed 7.7 on `/sr-rig`: break away (long range; three successes in a
//! row, +1 threshold per pursuer), positioning (hits become dice on the vehicle's next chase
//! test) and cut off (close range; the loser's crash test takes the net hits as a penalty).
//! Break-away and positioning progress is kept in the session per vehicle (the engine's
//! `ChaseState` in `Shadowrun4State`), read and written in the same transaction as the roll.

use engine::session::{Session, SessionError};
use engine::systems::rules::SessionState;
use engine::systems::shadowrun4::DicePool;
use engine::systems::shadowrun4::character::Attribute;
use engine::systems::shadowrun4::rigging::{
    BreakAwayRequest, ChaseOutcome, ChaseRequest, CutOffRequest, MAX_PURSUERS, break_away, chase_range,
    cut_off, positioning, with_positioning,
};
use engine::systems::shadowrun4::rules::Shadowrun4State;
use engine::systems::shadowrun4::test_kinds::RollSpec;

use super::common::{self, autocomplete_character, rule, sr_session};
use super::embeds as view;
use super::pools::{BandChoice, From, named, pool_from, u};
use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// The vehicle's pool: its dice, or its driver's sheet (Reaction + skill, or a rating). The
/// name keys the vehicle's progress in the session.
async fn vehicle_pool(
    ctx: Context<'_>,
    inv: &Invocation,
    vehicle: &str,
    pool: Option<i64>,
    skill: Option<&str>,
    rating: Option<&str>,
) -> Result<(DicePool, String, std::sync::Arc<Session>), BotError> {
    let session = sr_session(ctx, inv).await?;
    let from = From {
        pool,
        character: pool.is_none().then_some(vehicle),
        skill: skill.filter(|_| pool.is_none()),
        program: rating.filter(|_| pool.is_none()),
        modifiers: None,
        default_skill: None,
        default_program: None,
        attribute: Some(Attribute::Reaction),
    };
    let (dice, who, _) = pool_from(ctx, inv, &from).await?;
    let name = who.map_or_else(|| vehicle.trim().chars().take(64).collect(), |c| c.name);
    Ok((dice, name, session))
}

/// Roll `step` on the session's Shadowrun state and save the state, in one transaction; with
/// the [`CommandRoll`] that answers and logs what it rolled.
async fn with_state<'a, T: Send>(
    ctx: Context<'a>,
    inv: &Invocation,
    mut step: impl FnMut(&mut Shadowrun4State, &mut dyn engine::dice::Roller) -> Result<T, SessionError> + Send,
) -> Result<(CommandRoll<'a>, std::sync::Arc<Session>, T), BotError> {
    let mut produced = None;
    let roll = CommandRoll::new(ctx);
    let updated = inv
        .update(ctx, |s| {
            let mut st = Shadowrun4State::read(&s.system_state)
                .map_err(|e| SessionError::Rule { en: e.en, ja: e.ja })?;
            let out = roll.with(|r| step(&mut st, r))?;
            st.write(&mut s.system_state);
            produced = Some(out);
            Ok(())
        })
        .await;
    // Refused (or not stored): the command answers with the error, and logs nothing.
    let session = match updated {
        Ok(s) => s,
        Err(e) => return Err(roll.abandon(e)),
    };
    let out = produced.ok_or_else(|| BotError::internal("chase step produced nothing"))?;
    Ok((roll, session, out))
}

/// Break away (far range): 3 successes in a row escape
#[poise::command(
    slash_command,
    guild_only,
    rename = "breakaway",
    name_localized("ja", "離脱"),
    description_localized(
        "ja",
        "離脱（遠距離）：3回連続で成功すると逃げ切る。追跡車両1台ごとに目標値+1"
    )
)]
#[allow(clippy::too_many_arguments)]
pub async fn break_away_cmd(
    ctx: Context<'_>,
    #[description = "The vehicle (or its driver in the session)"]
    #[name_localized("ja", "車両")]
    #[description_localized("ja", "車両（またはセッションのドライバー）")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    vehicle: String,
    #[description = "Range band now (far only)"]
    #[name_localized("ja", "現在距離")]
    #[description_localized("ja", "現在の距離帯（遠距離のみ）")]
    band: BandChoice,
    #[description = "Pursuing vehicles (+1 threshold each)"]
    #[name_localized("ja", "追跡台数")]
    #[description_localized("ja", "追跡車両の数（1台ごとに目標値+1）")]
    #[min = 1]
    #[max = 20]
    pursuers: i64,
    #[description = "Dice (instead of the sheet)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "ダイス数（シートの代わり）")]
    #[min = 0]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Vehicle skill on the sheet"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "シート上の車両技能")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Base threshold before pursuers (default 0)"]
    #[name_localized("ja", "基本目標値")]
    #[description_localized("ja", "追跡台数を足す前の目標値（既定0）")]
    #[min = 0]
    #[max = 20]
    threshold: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (dice, name, _) = vehicle_pool(ctx, &inv, &vehicle, pool, skill.as_deref(), None).await?;
    let pursuers = u(pursuers).min(MAX_PURSUERS);
    let (roll, session, outcome) = with_state(ctx, &inv, |st, r| {
        let req = BreakAwayRequest {
            test: RollSpec::new(dice.clone()),
            band: band.band(),
            pursuers,
            base_threshold: threshold.map_or(0, u),
            successes: st.chase.entry(&name).break_away,
        };
        let o = break_away(&req, &mut &mut *r).map_err(|e| SessionError::rule(&e))?;
        st.chase
            .record_break_away(&name, &o)
            .map_err(|e| SessionError::rule(&e))?;
        Ok(o)
    })
    .await?;
    let v = view::break_away_view(&outcome, &name, inv.lang);
    common::reply(roll, &inv, Some(&session), v, Vec::new(), &outcome).await
}

/// Positioning: hits become dice on the next chase test
#[poise::command(
    slash_command,
    guild_only,
    rename = "position",
    name_localized("ja", "位置取り"),
    description_localized("ja", "位置取り：ヒット数が次のチェイス・テストのダイスになる")
)]
pub async fn position_cmd(
    ctx: Context<'_>,
    #[description = "The vehicle (or its driver in the session)"]
    #[name_localized("ja", "車両")]
    #[description_localized("ja", "車両（またはセッションのドライバー）")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    vehicle: String,
    #[description = "Dice (instead of the sheet)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "ダイス数（シートの代わり）")]
    #[min = 0]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Vehicle skill on the sheet"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "シート上の車両技能")]
    #[max_length = 40]
    skill: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (dice, name, _) = vehicle_pool(ctx, &inv, &vehicle, pool, skill.as_deref(), None).await?;
    let (roll, session, outcome) = with_state(ctx, &inv, |st, r| {
        let o =
            positioning(&RollSpec::new(dice.clone()), &mut &mut *r).map_err(|e| SessionError::rule(&e))?;
        st.chase
            .record_positioning(&name, &o)
            .map_err(|e| SessionError::rule(&e))?;
        Ok(o)
    })
    .await?;
    let v = view::positioning_view(&outcome, &name, inv.lang);
    common::reply(roll, &inv, Some(&session), v, Vec::new(), &outcome).await
}

/// Cut off (close range): the loser tests against a crash
#[poise::command(
    slash_command,
    guild_only,
    rename = "cutoff",
    name_localized("ja", "進路妨害"),
    description_localized(
        "ja",
        "進路妨害（至近距離）：負けた側が純ヒット分のペナルティでクラッシュ・テスト"
    )
)]
pub async fn cut_off_cmd(
    ctx: Context<'_>,
    #[description = "Range band now (close only)"]
    #[name_localized("ja", "現在距離")]
    #[description_localized("ja", "現在の距離帯（至近距離のみ）")]
    band: BandChoice,
    #[description = "Target's dice"]
    #[name_localized("ja", "対象ダイス")]
    #[description_localized("ja", "妨害される側のダイス数")]
    #[min = 0]
    #[max = 100]
    target_pool: i64,
    #[description = "Your dice"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "妨害する側のダイス数")]
    #[min = 0]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Your driver (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "妨害する側のキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Vehicle skill on the sheet"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "シート上の車両技能")]
    #[max_length = 40]
    skill: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let from = From {
        pool,
        character: character.as_deref(),
        skill: skill.as_deref(),
        program: None,
        modifiers: None,
        default_skill: None,
        default_program: None,
        attribute: Some(Attribute::Reaction),
    };
    let (dice, who, session) = pool_from(ctx, &inv, &from).await?;
    let actor = RollSpec::new(dice);
    let target = RollSpec::dice(i32::try_from(target_pool).unwrap_or(0));
    // Each driver's crash test is their own vehicle test (seed 7.5), the same pool.
    let req = CutOffRequest {
        band: band.band(),
        actor: actor.clone(),
        target: target.clone(),
        actor_crash: actor,
        target_crash: target,
    };
    let (roll, outcome) = common::roll(ctx, |r| cut_off(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::cut_off_view(&outcome, inv.lang);
    named(&mut v, who.as_ref());
    common::reply(roll, &inv, session.as_deref(), v, Vec::new(), &outcome).await
}

/// A chase test whose chaser is `vehicle`: the positioning dice it won are added to its pool and
/// used up, in the same transaction as the roll (seed 7.7).
pub async fn chase_with_positioning<'a>(
    ctx: Context<'a>,
    inv: &Invocation,
    vehicle: &str,
    req: &ChaseRequest,
) -> Result<(CommandRoll<'a>, std::sync::Arc<Session>, ChaseOutcome), BotError> {
    with_state(ctx, inv, |st, r| {
        let bonus = st.chase.take_positioning(vehicle);
        let req = ChaseRequest {
            first: with_positioning(&req.first, bonus),
            ..req.clone()
        };
        chase_range(&req, &mut &mut *r).map_err(|e| SessionError::rule(&e))
    })
    .await
}

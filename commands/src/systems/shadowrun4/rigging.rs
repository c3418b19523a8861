//! `/sr-rig`: rigging (sensor tests, crashes, chases, feedback) and the chase manoeuvres (seed
//! 7.7: break away, positioning, cut off), whose progress the session keeps per vehicle. Its own
//! top-level command, apart from `/sr`, so each tree stays within Discord's size budget.

use engine::systems::shadowrun4::character::Attribute;
use engine::systems::shadowrun4::rigging::{
    ChaseRequest, CrashRequest, chase_range, crash_test, rigger_feedback, sensor_test,
};
use engine::systems::shadowrun4::test_kinds::RollSpec;

use super::chase::{break_away_cmd, chase_with_positioning, cut_off_cmd, position_cmd};
use super::common::{self, autocomplete_character, autocomplete_presets, find_char, rule, sr_session};
use super::embeds as view;
use super::pools::{BandChoice, From, apply_damage_button, filter_rating, named, pool_from, search, u};
use crate::invocation::Invocation;
use crate::offers::Offer;
use crate::{BotError, Context};

/// Rigging: sensor, crash, chase, feedback, chase manoeuvres
#[poise::command(
    slash_command,
    guild_only,
    rename = "sr-rig",
    name_localized("ja", "シャドウラン-リガー"),
    description_localized(
        "ja",
        "リガー：センサー、クラッシュ、チェイス、フィードバック、離脱、位置取り、進路妨害"
    ),
    subcommands(
        "sensor",
        "crash",
        "chase",
        "feedback",
        "break_away_cmd",
        "position_cmd",
        "cut_off_cmd"
    ),
    subcommand_required
)]
pub async fn rig(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Sensor test: a success test, or opposed by a hidden target
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "センサー"),
    description_localized("ja", "センサー・テスト：成功テストか、隠れた目標との対抗")
)]
#[allow(clippy::too_many_arguments)]
pub async fn sensor(
    ctx: Context<'_>,
    #[description = "Dice (Sensor + Perception)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "ダイス数（センサー＋知覚など）")]
    #[min = -50]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Threshold"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "目標値")]
    #[min = 0]
    #[max = 100]
    threshold: Option<i64>,
    #[description = "Hidden target's dice (opposed)"]
    #[name_localized("ja", "隠れダイス")]
    #[description_localized("ja", "隠れている目標のダイス（対抗）")]
    #[min = 0]
    #[max = 100]
    hidden: Option<i64>,
    #[description = "Modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Rigger (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "リガーのキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Skill (default perception)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（既定は知覚）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Rating or sheet name (default sensor)"]
    #[name_localized("ja", "センサー値")]
    #[description_localized("ja", "センサー：レーティングかシート上の名前")]
    #[max_length = 40]
    rating: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let from = From {
        pool,
        character: character.as_deref(),
        skill: skill.as_deref(),
        program: rating.as_deref(),
        modifiers: modifiers.as_deref(),
        default_skill: Some("perception"),
        default_program: Some("sensor"),
        attribute: None,
    };
    let (req, who, session) = search(ctx, &inv, &from, threshold, hidden).await?;
    let (roll, outcome) =
        common::roll(ctx, |r| sensor_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::search_view(
        &outcome,
        inv.lang.pick("Sensor test", "センサー・テスト"),
        inv.lang,
    );
    named(&mut v, who.as_ref());
    common::reply(roll, &inv, session.as_deref(), v, Vec::new(), &outcome).await
}

/// Crash test: damage at least the vehicle's Body forces a test (threshold 3)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "クラッシュ"),
    description_localized("ja", "クラッシュ・テスト：ダメージが車両の強靭力以上なら目標値3のテスト")
)]
#[allow(clippy::too_many_arguments)]
pub async fn crash(
    ctx: Context<'_>,
    #[description = "Damage the vehicle took"]
    #[name_localized("ja", "ダメージ")]
    #[description_localized("ja", "車両が受けたダメージ")]
    #[min = 0]
    #[max = 200]
    damage: i64,
    #[description = "Vehicle's Body"]
    #[name_localized("ja", "車両強靭力")]
    #[description_localized("ja", "車両の強靭力")]
    #[min = 0]
    #[max = 50]
    body: i64,
    #[description = "Vehicle test dice (Reaction + skill)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "車両テストのダイス数")]
    #[min = -50]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Rigged in VR (threshold 2)"]
    #[name_localized("ja", "仮想現実")]
    #[description_localized("ja", "仮想現実（VR）で操縦（目標値2）")]
    vr: Option<bool>,
    #[description = "Driver (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "運転するキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Vehicle skill on the sheet"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "シート上の車両技能")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Jumped in: drone rating for Reaction"]
    #[name_localized("ja", "レーティング")]
    #[description_localized("ja", "ジャックイン時：反応力の代わりの機器の値")]
    #[max_length = 40]
    rating: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (pool, who, session) = pool_from(
        ctx,
        &inv,
        &From {
            pool,
            character: character.as_deref(),
            skill: skill.as_deref(),
            program: rating.as_deref(),
            modifiers: None,
            default_skill: None,
            default_program: None,
            attribute: Some(Attribute::Reaction),
        },
    )
    .await?;
    let req = CrashRequest {
        damage: u(damage),
        vehicle_body: u(body),
        test: RollSpec::new(pool),
        vr: vr.unwrap_or(false),
    };
    let (roll, outcome) =
        common::roll(ctx, |r| crash_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::crash_view(&outcome, inv.lang);
    named(&mut v, who.as_ref());
    common::reply(roll, &inv, session.as_deref(), v, Vec::new(), &outcome).await
}

/// Chase: opposed vehicle tests set the range band
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "チェイス"),
    description_localized("ja", "チェイス：車両テストの対抗で距離帯が決まる")
)]
#[allow(clippy::too_many_arguments)]
pub async fn chase(
    ctx: Context<'_>,
    #[description = "Quarry's dice"]
    #[name_localized("ja", "逃走ダイス")]
    #[description_localized("ja", "逃走側のダイス数")]
    #[min = 0]
    #[max = 100]
    quarry_pool: i64,
    #[description = "Range band now"]
    #[name_localized("ja", "現在距離")]
    #[description_localized("ja", "現在の距離帯")]
    current: BandChoice,
    #[description = "Chaser's dice"]
    #[name_localized("ja", "追跡ダイス")]
    #[description_localized("ja", "追跡側のダイス数")]
    #[min = -50]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Band the chaser wants (default close)"]
    #[name_localized("ja", "追跡希望")]
    #[description_localized("ja", "追跡側が望む距離帯（既定 至近距離）")]
    wants: Option<BandChoice>,
    #[description = "Band the quarry wants (default far)"]
    #[name_localized("ja", "逃走希望")]
    #[description_localized("ja", "逃走側が望む距離帯（既定 遠距離）")]
    quarry_wants: Option<BandChoice>,
    #[description = "Chaser (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "追跡側のキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Vehicle skill on the sheet"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "シート上の車両技能")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Jumped in: drone rating for Reaction"]
    #[name_localized("ja", "レーティング")]
    #[description_localized("ja", "ジャックイン時：反応力の代わりの機器の値")]
    #[max_length = 40]
    rating: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (pool, who, session) = pool_from(
        ctx,
        &inv,
        &From {
            pool,
            character: character.as_deref(),
            skill: skill.as_deref(),
            program: rating.as_deref(),
            modifiers: None,
            default_skill: None,
            default_program: None,
            attribute: Some(Attribute::Reaction),
        },
    )
    .await?;
    let req = ChaseRequest {
        first: RollSpec::new(pool),
        second: RollSpec::dice(i32::try_from(quarry_pool).unwrap_or(0)),
        current: current.band(),
        first_wants: wants.unwrap_or(BandChoice::Close).band(),
        second_wants: quarry_wants.unwrap_or(BandChoice::Far).band(),
    };
    // A chaser from the session uses up the positioning dice it won (seed 7.7).
    let (roll, session, outcome) = match (&who, session) {
        (Some(c), Some(_)) => {
            let (roll, s, o) = chase_with_positioning(ctx, &inv, &c.name, &req).await?;
            (roll, Some(s), o)
        }
        (_, session) => {
            let (roll, o) =
                common::roll(ctx, |r| chase_range(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
            (roll, session, o)
        }
    };
    let mut v = view::chase_view(&outcome, inv.lang);
    named(&mut v, who.as_ref());
    common::reply(roll, &inv, session.as_deref(), v, Vec::new(), &outcome).await
}

/// Rigger feedback: resist half the drone's damage as Stun
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "フィードバック"),
    description_localized("ja", "フィードバック：機器のダメージ÷2（切り上げ）の精神に抵抗")
)]
pub async fn feedback(
    ctx: Context<'_>,
    #[description = "Damage the drone took"]
    #[name_localized("ja", "ダメージ")]
    #[description_localized("ja", "機器が受けたダメージ")]
    #[min = 0]
    #[max = 100]
    damage: i64,
    #[description = "Jumped-in rigger (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "ジャックインしたリガー")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Rigger's Biofeedback Filter"]
    #[name_localized("ja", "フィルター")]
    #[description_localized("ja", "リガーの生体信号フィルター")]
    #[min = 0]
    #[max = 30]
    filter: Option<i64>,
    #[description = "Resist dice instead of a character"]
    #[name_localized("ja", "抵抗ダイス")]
    #[description_localized("ja", "キャラクターの代わりの抵抗ダイス")]
    #[min = 0]
    #[max = 100]
    pool: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (resist, who, session) = match (&character, pool) {
        (Some(_), Some(_)) => {
            return Err(inv.text(
                "Give resist dice or a character, not both.",
                "抵抗ダイスかキャラクターのどちらか一方を指定してください。",
            ));
        }
        (None, None) => {
            return Err(inv.text(
                "Give the rigger (a session character) or resist dice.",
                "リガー（セッションのキャラクター）か抵抗ダイスを指定してください。",
            ));
        }
        (None, Some(n)) => {
            if filter.is_some() {
                return Err(inv.text(
                    "filter goes with a character; with resist dice, count it in.",
                    "フィルターはキャラクターと一緒に指定してください（抵抗ダイスならその中に含めてください）。",
                ));
            }
            let session = inv.session_if_any(ctx).await;
            (RollSpec::dice(i32::try_from(n).unwrap_or(0)), None, session)
        }
        (Some(name), None) => {
            let s = sr_session(ctx, &inv).await?;
            let c = find_char(&inv, &s, name)?;
            (
                RollSpec::new(c.character.biofeedback_pool(filter_rating(filter))),
                Some(c),
                Some(s),
            )
        }
    };
    let (roll, outcome) = common::roll(ctx, |r| rigger_feedback(u(damage), &resist, &mut &mut *r))
        .map_err(|e| rule(&inv, &e))?;
    let v = view::feedback_view(
        &outcome,
        u(damage),
        who.as_ref().map(|c| c.name.as_str()),
        inv.lang,
    );
    let buttons = match (&who, &session) {
        (Some(c), Some(s)) => {
            apply_damage_button(ctx, &inv, s, &c.name, outcome.damage_type, outcome.boxes).await
        }
        _ => Vec::new(),
    };
    let buttons = buttons.into_iter().map(Offer::from).collect();
    common::reply(roll, &inv, session.as_deref(), v, buttons, &outcome).await
}

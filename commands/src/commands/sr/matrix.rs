//! The Matrix (cybercombat, hacking on the fly, matrix perception) and rigging (sensor tests,
//! crashes, chases). Pools are given as numbers (programs and vehicles are not on sheets),
//! with modifier presets.

use engine::systems::shadowrun4::DamageType;
use engine::systems::shadowrun4::DicePool;
use engine::systems::shadowrun4::matrix::{
    CybercombatRequest, HackRequest, MatrixTarget, cybercombat as cyber, hack_on_the_fly, matrix_perception,
};
use engine::systems::shadowrun4::rigging::{
    ChaseRequest, CrashRequest, RangeBand, chase_range, crash_test, sensor_test,
};
use engine::systems::shadowrun4::test_kinds::{RollSpec, SearchRequest};

use super::common::{self, autocomplete_presets, parse_presets, rule, start};
use crate::embeds::sr as view;
use crate::invocation::Invocation;
use crate::{BotError, Context};

fn u(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

fn dice(inv: &Invocation, n: i64, modifiers: Option<&str>) -> Result<DicePool, BotError> {
    let presets = parse_presets(inv, modifiers)?;
    DicePool::dice(i32::try_from(n).unwrap_or(i32::MAX))
        .with_presets(&presets, false)
        .map_err(|e| rule(inv, &e))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum TargetChoice {
    #[name = "icon"]
    #[name_localized("ja", "アイコン")]
    Icon,
    #[name = "black IC (stun)"]
    #[name_localized("ja", "ブラックIC（朦朧）")]
    BlackIcStun,
    #[name = "black IC (physical)"]
    #[name_localized("ja", "ブラックIC（肉体）")]
    BlackIcPhysical,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
/// Seed 7.6: 至近距離 (ramming; weapons at short range), 近距離 (weapons at medium range),
/// 遠距離 (within sight; weapons at long range).
pub enum BandChoice {
    #[name = "close"]
    #[name_localized("ja", "至近距離")]
    Close,
    #[name = "near"]
    #[name_localized("ja", "近距離")]
    Near,
    #[name = "far"]
    #[name_localized("ja", "遠距離")]
    Far,
}

impl BandChoice {
    fn band(self) -> RangeBand {
        match self {
            BandChoice::Close => RangeBand::Close,
            BandChoice::Near => RangeBand::Near,
            BandChoice::Far => RangeBand::Far,
        }
    }
}

/// The Matrix: cybercombat, hacking, perception
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "マトリックス"),
    description_localized("ja", "マトリックス：サイバー戦闘、ハッキング、知覚"),
    subcommands("cybercombat", "hack", "perception"),
    subcommand_required
)]
pub async fn matrix(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Rigging: sensor, crash, chase
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "リガー"),
    description_localized("ja", "リガー：センサー、衝突、チェイス"),
    subcommands("sensor", "crash", "chase"),
    subcommand_required
)]
pub async fn rig(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Cybercombat: attack against defence, then damage resistance
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "サイバー戦闘"),
    description_localized("ja", "サイバー戦闘：攻撃 対 防御、ダメージ抵抗")
)]
#[allow(clippy::too_many_arguments)]
pub async fn cybercombat(
    ctx: Context<'_>,
    #[description = "Attack dice (Cybercombat + Attack)"]
    #[name_localized("ja", "攻撃ダイス")]
    #[description_localized("ja", "攻撃ダイス（サイバー戦闘＋アタック）")]
    #[min = -50]
    #[max = 100]
    attack: i64,
    #[description = "Defence dice (Response + Firewall)"]
    #[name_localized("ja", "防御ダイス")]
    #[description_localized("ja", "防御ダイス（レスポンス＋ファイアウォール）")]
    #[min = 0]
    #[max = 100]
    defence: i64,
    #[description = "Damage value"]
    #[name_localized("ja", "dv")]
    #[description_localized("ja", "ダメージ値")]
    #[min = 0]
    #[max = 50]
    dv: i64,
    #[description = "Damage resistance dice"]
    #[name_localized("ja", "抵抗ダイス")]
    #[description_localized("ja", "ダメージ抵抗ダイス")]
    #[min = 0]
    #[max = 100]
    resist: i64,
    #[description = "Target: icon (default) or black IC"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "目標：アイコン（既定）かブラックIC")]
    target: Option<TargetChoice>,
    #[description = "Modifier presets on the attack"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "攻撃の修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Full defence"]
    #[name_localized("ja", "全力防御")]
    #[description_localized("ja", "全力防御")]
    full_defence: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let req = CybercombatRequest {
        attack: RollSpec::new(dice(&inv, attack, modifiers.as_deref())?),
        defence: RollSpec::dice(i32::try_from(defence).unwrap_or(0)),
        full_defence: full_defence.unwrap_or(false),
        dv: u(dv),
        resist: RollSpec::dice(i32::try_from(resist).unwrap_or(0)),
        target: match target.unwrap_or(TargetChoice::Icon) {
            TargetChoice::Icon => MatrixTarget::Icon,
            TargetChoice::BlackIcStun => MatrixTarget::BlackIc {
                damage_type: DamageType::Stun,
            },
            TargetChoice::BlackIcPhysical => MatrixTarget::BlackIc {
                damage_type: DamageType::Physical,
            },
        },
    };
    let outcome = common::roll(ctx, |r| cyber(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let session = inv.session_if_any(ctx).await;
    let v = view::cybercombat_view(&outcome, inv.lang);
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
}

/// Hacking on the fly: the hacker's extended test races the node's
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "ハッキング"),
    description_localized("ja", "即興ハッキング：ハッカーとノードの延長テストの競争")
)]
#[allow(clippy::too_many_arguments)]
pub async fn hack(
    ctx: Context<'_>,
    #[description = "Hacker's dice (Hacking + Exploit)"]
    #[name_localized("ja", "ハッカーダイス")]
    #[description_localized("ja", "ハッカーのダイス（ハッキング＋エクスプロイト）")]
    #[min = -50]
    #[max = 100]
    pool: i64,
    #[description = "Node's Firewall (the hacker's threshold)"]
    #[name_localized("ja", "ファイアウォール")]
    #[description_localized("ja", "ノードのファイアウォール（ハッカーの目標値）")]
    #[min = 1]
    #[max = 100]
    firewall: i64,
    #[description = "Node's dice (Firewall + Analyze)"]
    #[name_localized("ja", "ノードダイス")]
    #[description_localized("ja", "ノードのダイス（ファイアウォール＋アナライズ）")]
    #[min = 1]
    #[max = 100]
    node: i64,
    #[description = "Hacker's Stealth (the node's threshold)"]
    #[name_localized("ja", "ステルス")]
    #[description_localized("ja", "ハッカーのステルス（ノードの目標値）")]
    #[min = 1]
    #[max = 100]
    stealth: i64,
    #[description = "Modifier presets on the hacker"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "ハッカーの修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Most passes (default 20)"]
    #[name_localized("ja", "最大パス")]
    #[description_localized("ja", "最大パス数（既定20）")]
    #[min = 1]
    #[max = 100]
    max_passes: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let req = HackRequest {
        hacker: dice(&inv, pool, modifiers.as_deref())?,
        firewall: u(firewall),
        node: DicePool::dice(i32::try_from(node).unwrap_or(0)),
        stealth: u(stealth),
        max_passes: max_passes.map(u),
    };
    let outcome = common::roll(ctx, |r| hack_on_the_fly(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let session = inv.session_if_any(ctx).await;
    let v = view::hack_view(&outcome, inv.lang);
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
}

fn search(
    inv: &Invocation,
    pool: i64,
    threshold: Option<i64>,
    hidden: Option<i64>,
    modifiers: Option<&str>,
) -> Result<SearchRequest, BotError> {
    if threshold.is_some() && hidden.is_some() {
        return Err(inv.text(
            "Give a threshold or hidden dice, not both.",
            "目標値か隠れている側のダイスのどちらか一方を指定してください。",
        ));
    }
    Ok(SearchRequest {
        searcher: RollSpec::new(dice(inv, pool, modifiers)?),
        hidden: hidden.map(|h| RollSpec::dice(i32::try_from(h).unwrap_or(0))),
        threshold: threshold.map(u),
    })
}

/// Matrix perception: a success test, or opposed by a hidden icon
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "知覚"),
    description_localized("ja", "マトリックス知覚：成功テストか、隠れたアイコンとの対抗")
)]
pub async fn perception(
    ctx: Context<'_>,
    #[description = "Dice (Computer + Analyze)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "ダイス数（コンピューター＋アナライズ）")]
    #[min = -50]
    #[max = 100]
    pool: i64,
    #[description = "Threshold"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "目標値")]
    #[min = 0]
    #[max = 100]
    threshold: Option<i64>,
    #[description = "Hidden icon's dice (opposed)"]
    #[name_localized("ja", "隠れダイス")]
    #[description_localized("ja", "隠れているアイコンのダイス（対抗）")]
    #[min = 0]
    #[max = 100]
    hidden: Option<i64>,
    #[description = "Modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let req = search(&inv, pool, threshold, hidden, modifiers.as_deref())?;
    let outcome = common::roll(ctx, |r| matrix_perception(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let session = inv.session_if_any(ctx).await;
    let v = view::search_view(
        &outcome,
        inv.lang.pick("Matrix perception", "マトリックス知覚"),
        inv.lang,
    );
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
}

/// Sensor test: a success test, or opposed by a hidden target
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "センサー"),
    description_localized("ja", "センサー・テスト：成功テストか、隠れた目標との対抗")
)]
pub async fn sensor(
    ctx: Context<'_>,
    #[description = "Dice (Sensor + Perception, or Pilot + Clearsight)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "ダイス数（センサー＋知覚など）")]
    #[min = -50]
    #[max = 100]
    pool: i64,
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
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let req = search(&inv, pool, threshold, hidden, modifiers.as_deref())?;
    let outcome = common::roll(ctx, |r| sensor_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let session = inv.session_if_any(ctx).await;
    let v = view::search_view(
        &outcome,
        inv.lang.pick("Sensor test", "センサー・テスト"),
        inv.lang,
    );
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
}

/// Crash test: damage at least the vehicle's Body forces a test (threshold 3)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "衝突"),
    description_localized("ja", "衝突テスト：ダメージが車両の強靭力以上なら目標値3のテスト")
)]
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
    #[description = "Vehicle test dice (Reaction + Pilot skill)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "車両テストのダイス数")]
    #[min = -50]
    #[max = 100]
    pool: i64,
    #[description = "Rigged in VR (threshold 2)"]
    #[name_localized("ja", "vr")]
    #[description_localized("ja", "VRで操縦（目標値2）")]
    vr: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let req = CrashRequest {
        damage: u(damage),
        vehicle_body: u(body),
        test: RollSpec::dice(i32::try_from(pool).unwrap_or(0)),
        vr: vr.unwrap_or(false),
    };
    let outcome = common::roll(ctx, |r| crash_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let session = inv.session_if_any(ctx).await;
    let v = view::crash_view(&outcome, inv.lang);
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
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
    #[description = "Chaser's dice"]
    #[name_localized("ja", "追跡ダイス")]
    #[description_localized("ja", "追跡側のダイス数")]
    #[min = -50]
    #[max = 100]
    pool: i64,
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
    #[description = "Band the chaser wants (default close)"]
    #[name_localized("ja", "追跡希望")]
    #[description_localized("ja", "追跡側が望む距離帯（既定 至近距離）")]
    wants: Option<BandChoice>,
    #[description = "Band the quarry wants (default far)"]
    #[name_localized("ja", "逃走希望")]
    #[description_localized("ja", "逃走側が望む距離帯（既定 遠距離）")]
    quarry_wants: Option<BandChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let req = ChaseRequest {
        first: RollSpec::dice(i32::try_from(pool).unwrap_or(0)),
        second: RollSpec::dice(i32::try_from(quarry_pool).unwrap_or(0)),
        current: current.band(),
        first_wants: wants.unwrap_or(BandChoice::Close).band(),
        second_wants: quarry_wants.unwrap_or(BandChoice::Far).band(),
    };
    let outcome = common::roll(ctx, |r| chase_range(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let session = inv.session_if_any(ctx).await;
    let v = view::chase_view(&outcome, inv.lang);
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
}

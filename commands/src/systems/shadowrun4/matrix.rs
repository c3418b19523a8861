//! The Matrix (cybercombat, hacking on the fly, matrix perception) and rigging (sensor tests,
//! crashes, chases, feedback). A pool is a number of dice, or a session `character:` with a
//! skill and a program (or drone/sensor) rating — a number, or a rating on the sheet by name
//! (`exploit=5`) — so the character's wound and sustaining modifiers apply; vehicle tests from
//! a sheet use Reaction unless a rating is given.

use engine::session::Session;
use engine::systems::shadowrun4::character::Attribute;
use engine::systems::shadowrun4::matrix::{
    CybercombatRequest, HackRequest, MatrixTarget, cybercombat as cyber, hack_on_the_fly, matrix_perception,
};
use engine::systems::shadowrun4::rigging::{
    ChaseRequest, CrashRequest, RangeBand, chase_range, crash_test, rigger_feedback, sensor_test,
};
use engine::systems::shadowrun4::test_kinds::{RollSpec, SearchRequest};
use engine::systems::shadowrun4::{DamageType, DicePool};

use super::common::{
    self, AttrChoice, PoolArgs, Sr4Char, autocomplete_character, autocomplete_presets, build_pool, find_char,
    rule, sr_session, start,
};
use crate::embeds::sr as view;
use crate::invocation::Invocation;
use crate::{BotError, Context};

fn u(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// Where a matrix or vehicle pool comes from.
struct From<'a> {
    pool: Option<i64>,
    character: Option<&'a str>,
    skill: Option<&'a str>,
    program: Option<&'a str>,
    modifiers: Option<&'a str>,
    /// Defaults with a character: the skill, and the program by its sheet name.
    default_skill: Option<&'static str>,
    default_program: Option<&'static str>,
    /// Vehicle tests: this attribute when no rating is given.
    attribute: Option<Attribute>,
}

/// The session (a Shadowrun one when a character is named) and the pool.
async fn pool_from(
    ctx: Context<'_>,
    inv: &Invocation,
    w: &From<'_>,
) -> Result<(DicePool, Option<Sr4Char>, Option<Session>), BotError> {
    let session = match w.character {
        Some(_) => Some(sr_session(ctx, inv).await?),
        None => {
            if w.skill.is_some() || w.program.is_some() {
                return Err(inv.text(
                    "skill and program (rating) go with a character: name one, or give the dice.",
                    "技能とプログラム（レーティング）はキャラクターと一緒に指定してください。",
                ));
            }
            inv.session_if_any(ctx).await
        }
    };
    let program = w.program.or(w.default_program);
    let attribute = match (w.attribute, program) {
        (Some(a), None) => Some(a),
        _ => None,
    };
    let args = PoolArgs {
        pool: w.pool,
        character: w.character,
        attribute: attribute.map(attr_choice),
        skill: w.skill.or(w.default_skill),
        program: if attribute.is_some() { None } else { program },
        modifiers: w.modifiers,
        ..Default::default()
    };
    let (pool, who) = build_pool(inv, session.as_ref(), &args)?;
    Ok((pool, who, session))
}

/// The Biofeedback Filter option as a rating (absent or negative: none).
fn filter_rating(filter: Option<i64>) -> u32 {
    filter.map_or(0, |f| u32::try_from(f.max(0)).unwrap_or(u32::MAX))
}

fn attr_choice(a: Attribute) -> AttrChoice {
    match a {
        Attribute::Reaction => AttrChoice::Reaction,
        Attribute::Willpower => AttrChoice::Willpower,
        _ => AttrChoice::Intuition,
    }
}

/// An Apply damage button for `target` when there are boxes to mark.
async fn apply_damage_button(
    ctx: Context<'_>,
    inv: &Invocation,
    session: &Session,
    target: &str,
    t: DamageType,
    boxes: u32,
) -> Vec<serenity::all::CreateButton> {
    if boxes == 0 {
        return Vec::new();
    }
    let payload = common::damage_payload(session.id, target, t, boxes);
    common::action(
        ctx.data(),
        inv.guild,
        inv.channel,
        inv.user,
        "sr.apply_damage",
        payload,
    )
    .await
    .map(|id| vec![common::apply_button(id, false, inv.lang)])
    .unwrap_or_default()
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

/// Rigging: sensor, crash, chase, feedback
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "リガー"),
    description_localized("ja", "リガー：センサー、衝突、チェイス、フィードバック"),
    subcommands("sensor", "crash", "chase", "feedback"),
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
    #[description = "Attack dice (Cybercombat + Attack)"]
    #[name_localized("ja", "攻撃ダイス")]
    #[description_localized("ja", "攻撃ダイス（サイバー戦闘＋アタック）")]
    #[min = -50]
    #[max = 100]
    attack: Option<i64>,
    #[description = "Resist dice (System + Armor)"]
    #[name_localized("ja", "抵抗ダイス")]
    #[description_localized("ja", "ダメージ抵抗ダイス")]
    #[min = 0]
    #[max = 100]
    resist: Option<i64>,
    #[description = "Icon (default) or black IC"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "アイコン（既定）かブラックIC")]
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
    #[description = "Attacker (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "攻撃するキャラクター")]
    #[autocomplete = "autocomplete_character"]
    character: Option<String>,
    #[description = "Skill (default cybercombat)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（既定 cybercombat）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Rating or sheet name (default attack)"]
    #[name_localized("ja", "プログラム")]
    #[description_localized("ja", "プログラム：レーティングかシート上の名前")]
    #[max_length = 40]
    program: Option<String>,
    #[description = "Character hit by black IC"]
    #[name_localized("ja", "防御者")]
    #[description_localized("ja", "ブラックICを受けるキャラクター")]
    #[autocomplete = "autocomplete_character"]
    defender: Option<String>,
    #[description = "Defender's Biofeedback Filter"]
    #[name_localized("ja", "フィルター")]
    #[description_localized("ja", "防御者の生体信号フィルター")]
    #[min = 0]
    #[max = 30]
    filter: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let target = match target.unwrap_or(TargetChoice::Icon) {
        TargetChoice::Icon => MatrixTarget::Icon,
        TargetChoice::BlackIcStun => MatrixTarget::BlackIc {
            damage_type: DamageType::Stun,
        },
        TargetChoice::BlackIcPhysical => MatrixTarget::BlackIc {
            damage_type: DamageType::Physical,
        },
    };
    if defender.is_some() && target == MatrixTarget::Icon {
        return Err(inv.text(
            "Only black IC damages a character: set target to black IC (stun or physical).",
            "キャラクターにダメージを与えるのはブラックICだけです。目標をブラックICにしてください。",
        ));
    }
    if filter.is_some() && defender.is_none() {
        return Err(inv.text(
            "filter is the defender's Biofeedback Filter: name the defender.",
            "フィルターは防御者の生体信号フィルターです。防御者を指定してください。",
        ));
    }
    let (pool, who, session) = pool_from(
        ctx,
        &inv,
        &From {
            pool: attack,
            character: character.as_deref(),
            skill: skill.as_deref(),
            program: program.as_deref(),
            modifiers: modifiers.as_deref(),
            default_skill: Some("cybercombat"),
            default_program: Some("attack"),
            attribute: None,
        },
    )
    .await?;
    let (resist, hurt, session) = match (&defender, resist) {
        (Some(_), Some(_)) => {
            return Err(inv.text(
                "Give resist dice or a defender (Willpower + filter), not both.",
                "抵抗ダイスか防御者（意志力＋フィルター）のどちらか一方を指定してください。",
            ));
        }
        (None, None) => {
            return Err(inv.text(
                "Give resist dice (System + Armor), or a defender hit by black IC.",
                "抵抗ダイス（システム＋装甲）か、ブラックICを受ける防御者を指定してください。",
            ));
        }
        (None, Some(n)) => (RollSpec::dice(i32::try_from(n).unwrap_or(0)), None, session),
        (Some(name), None) => {
            let s = match session {
                Some(s) if who.is_some() => s,
                _ => sr_session(ctx, &inv).await?,
            };
            let d = find_char(&inv, &s, name)?;
            if who.as_ref().is_some_and(|c| c.name == d.name) {
                return Err(inv.text("A character cannot attack itself.", "自分自身は攻撃できません。"));
            }
            (
                RollSpec::new(d.character.biofeedback_pool(filter_rating(filter))),
                Some(d),
                Some(s),
            )
        }
    };
    let req = CybercombatRequest {
        attack: RollSpec::new(pool),
        defence: RollSpec::dice(i32::try_from(defence).unwrap_or(0)),
        full_defence: full_defence.unwrap_or(false),
        dv: u(dv),
        resist,
        target,
    };
    let outcome = common::roll(ctx, |r| cyber(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::cybercombat_view(&outcome, inv.lang);
    if let Some(c) = &who {
        v.title = v.title.replacen("🖥️ ", &format!("🖥️ {} · ", c.name), 1);
    }
    let mut buttons = Vec::new();
    if let (Some(d), Some(s), MatrixTarget::BlackIc { damage_type }) = (&hurt, &session, outcome.target) {
        v.fields.push((
            inv.lang.pick("Defender", "防御者").to_string(),
            d.name.clone(),
            true,
        ));
        if outcome.hit {
            buttons = apply_damage_button(ctx, &inv, s, &d.name, damage_type, outcome.boxes).await;
        }
    }
    common::reply(ctx, &inv, session.as_ref(), v, buttons, &outcome).await
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
    #[description = "Node's Firewall (hacker's threshold)"]
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
    #[description = "Hacker's Stealth (node's threshold)"]
    #[name_localized("ja", "ステルス")]
    #[description_localized("ja", "ハッカーのステルス（ノードの目標値）")]
    #[min = 1]
    #[max = 100]
    stealth: i64,
    #[description = "Hacker's dice (Hacking + Exploit)"]
    #[name_localized("ja", "ハッカーダイス")]
    #[description_localized("ja", "ハッカーのダイス（ハッキング＋エクスプロイト）")]
    #[min = -50]
    #[max = 100]
    pool: Option<i64>,
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
    #[description = "Hacker (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "ハッカーのキャラクター")]
    #[autocomplete = "autocomplete_character"]
    character: Option<String>,
    #[description = "Skill (default hacking)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（既定 hacking）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Rating or sheet name (default exploit)"]
    #[name_localized("ja", "プログラム")]
    #[description_localized("ja", "プログラム：レーティングかシート上の名前")]
    #[max_length = 40]
    program: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let (hacker, who, session) = pool_from(
        ctx,
        &inv,
        &From {
            pool,
            character: character.as_deref(),
            skill: skill.as_deref(),
            program: program.as_deref(),
            modifiers: modifiers.as_deref(),
            default_skill: Some("hacking"),
            default_program: Some("exploit"),
            attribute: None,
        },
    )
    .await?;
    let req = HackRequest {
        hacker,
        firewall: u(firewall),
        node: DicePool::dice(i32::try_from(node).unwrap_or(0)),
        stealth: u(stealth),
        max_passes: max_passes.map(u),
    };
    let outcome = common::roll(ctx, |r| hack_on_the_fly(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::hack_view(&outcome, inv.lang);
    if let Some(c) = &who {
        v.title = v.title.replacen("🖥️ ", &format!("🖥️ {} · ", c.name), 1);
    }
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
}

async fn search(
    ctx: Context<'_>,
    inv: &Invocation,
    from: &From<'_>,
    threshold: Option<i64>,
    hidden: Option<i64>,
) -> Result<(SearchRequest, Option<Sr4Char>, Option<Session>), BotError> {
    if threshold.is_some() && hidden.is_some() {
        return Err(inv.text(
            "Give a threshold or hidden dice, not both.",
            "目標値か隠れている側のダイスのどちらか一方を指定してください。",
        ));
    }
    let (pool, who, session) = pool_from(ctx, inv, from).await?;
    let req = SearchRequest {
        searcher: RollSpec::new(pool),
        hidden: hidden.map(|h| RollSpec::dice(i32::try_from(h).unwrap_or(0))),
        threshold: threshold.map(u),
    };
    Ok((req, who, session))
}

/// Matrix perception: a success test, or opposed by a hidden icon
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "知覚"),
    description_localized("ja", "マトリックス知覚：成功テストか、隠れたアイコンとの対抗")
)]
#[allow(clippy::too_many_arguments)]
pub async fn perception(
    ctx: Context<'_>,
    #[description = "Dice (Computer + Analyze)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "ダイス数（コンピューター＋アナライズ）")]
    #[min = -50]
    #[max = 100]
    pool: Option<i64>,
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
    #[description = "Session character"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "セッションのキャラクター")]
    #[autocomplete = "autocomplete_character"]
    character: Option<String>,
    #[description = "Skill (default computer)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（既定 computer）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Rating or sheet name (default analyze)"]
    #[name_localized("ja", "プログラム")]
    #[description_localized("ja", "プログラム：レーティングかシート上の名前")]
    #[max_length = 40]
    program: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let from = From {
        pool,
        character: character.as_deref(),
        skill: skill.as_deref(),
        program: program.as_deref(),
        modifiers: modifiers.as_deref(),
        default_skill: Some("computer"),
        default_program: Some("analyze"),
        attribute: None,
    };
    let (req, who, session) = search(ctx, &inv, &from, threshold, hidden).await?;
    let outcome = common::roll(ctx, |r| matrix_perception(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::search_view(
        &outcome,
        inv.lang.pick("Matrix perception", "マトリックス知覚"),
        inv.lang,
    );
    named(&mut v, who.as_ref());
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
}

/// `🎲 Ana · …`: the character in the title of a result built without a name.
fn named(v: &mut crate::embeds::EmbedView, who: Option<&Sr4Char>) {
    if let Some(c) = who {
        v.title = v.title.replacen("🎲 ", &format!("🎲 {} · ", c.name), 1);
    }
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
    character: Option<String>,
    #[description = "Skill (default perception)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（既定 perception）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Rating or sheet name (default sensor)"]
    #[name_localized("ja", "センサー値")]
    #[description_localized("ja", "センサー：レーティングかシート上の名前")]
    #[max_length = 40]
    rating: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
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
    let outcome = common::roll(ctx, |r| sensor_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::search_view(
        &outcome,
        inv.lang.pick("Sensor test", "センサー・テスト"),
        inv.lang,
    );
    named(&mut v, who.as_ref());
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
}

/// Crash test: damage at least the vehicle's Body forces a test (threshold 3)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "衝突"),
    description_localized("ja", "衝突テスト：ダメージが車両の強靭力以上なら目標値3のテスト")
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
    #[name_localized("ja", "vr")]
    #[description_localized("ja", "VRで操縦（目標値2）")]
    vr: Option<bool>,
    #[description = "Driver (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "運転するキャラクター")]
    #[autocomplete = "autocomplete_character"]
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
    start(&inv)?;
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
    let outcome = common::roll(ctx, |r| crash_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::crash_view(&outcome, inv.lang);
    named(&mut v, who.as_ref());
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
    start(&inv)?;
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
    let outcome = common::roll(ctx, |r| chase_range(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::chase_view(&outcome, inv.lang);
    named(&mut v, who.as_ref());
    common::reply(ctx, &inv, session.as_ref(), v, Vec::new(), &outcome).await
}

/// Rigger feedback: resist half the drone's damage as Stun
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "フィードバック"),
    description_localized("ja", "フィードバック：機器のダメージ÷2（切り上げ）の朦朧に抵抗")
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
    start(&inv)?;
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
    let outcome = common::roll(ctx, |r| rigger_feedback(u(damage), &resist, &mut &mut *r))
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
    common::reply(ctx, &inv, session.as_ref(), v, buttons, &outcome).await
}

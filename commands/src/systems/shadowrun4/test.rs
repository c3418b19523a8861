//! Success, opposed, extended and teamwork tests.

use super::press_data::EdgeRoll;
use engine::systems::shadowrun4::test_kinds::{
    ExtendedRequest, OpposedRequest, RollSpec, SuccessRequest, TeamworkRequest, extended_test, opposed_test,
    success_test, teamwork_test,
};

use super::common::{
    self, AttrChoice, EdgeChoice, PoolArgs, autocomplete_character, autocomplete_presets, build_pool,
    edge_before_by, rule, sr_session,
};
use super::embeds as view;
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Success test: a pool, or a character's attribute + skill
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "テスト"),
    description_localized("ja", "成功テスト：ダイス数か、キャラクターの能力値＋技能")
)]
#[allow(clippy::too_many_arguments)]
pub async fn test(
    ctx: Context<'_>,
    #[description = "Dice (instead of a character)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "振るダイス数（キャラクターの代わり）")]
    #[min = -50]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Session character"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "セッションのキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Attribute"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "能力値")]
    attribute: Option<AttrChoice>,
    #[description = "Skill (defaulting when missing)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（なければ技能なし判定）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Second attribute (attribute-only test)"]
    #[name_localized("ja", "能力値2")]
    #[description_localized("ja", "2つ目の能力値（能力値のみのテスト）")]
    attribute2: Option<AttrChoice>,
    #[description = "Threshold"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "目標値")]
    #[min = 0]
    #[max = 100]
    threshold: Option<i64>,
    #[description = "Modifier presets, comma separated"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正（カンマ区切り）")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Extra dice, + or −"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "追加・減少ダイス")]
    #[min = -50]
    #[max = 50]
    dice: Option<i64>,
    #[description = "Edge before the roll"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "ロール前のエッジ")]
    edge: Option<EdgeChoice>,
    #[description = "Edge when no character is named"]
    #[name_localized("ja", "エッジ値")]
    #[description_localized("ja", "キャラクターなしのときの【エッジ】")]
    #[min = 1]
    #[max = 20]
    edge_rating: Option<i64>,
    #[description = "Earlier tries (−2 dice each)"]
    #[name_localized("ja", "再挑戦")]
    #[description_localized("ja", "これまでの挑戦回数（1回ごとに−2）")]
    #[min = 0]
    #[max = 20]
    retry: Option<i64>,
    #[description = "Buy hits (one per 4 dice, no roll)"]
    #[name_localized("ja", "ヒット購入")]
    #[description_localized("ja", "ヒットを購入（4ダイスごとに1、ロールなし）")]
    buy_hits: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = match &character {
        Some(_) => Some(sr_session(ctx, &inv).await?),
        None => inv.session_if_any(ctx).await,
    };
    let args = PoolArgs {
        pool,
        character: character.as_deref(),
        attribute,
        skill: skill.as_deref(),
        attribute2,
        program: None,
        modifiers: modifiers.as_deref(),
        dice,
    };
    let (pool, who) = build_pool(&inv, session.as_deref(), &args)?;
    let edge = edge_before_by(&inv, session.as_deref(), edge, who.as_ref(), edge_rating)?;
    let req = SuccessRequest {
        roll: RollSpec {
            pool,
            edge,
            retry: u32::try_from(retry.unwrap_or(0)).unwrap_or(0),
        },
        threshold: threshold.map(|t| u32::try_from(t).unwrap_or(0)),
        hit_cap: None,
        buy_hits: buy_hits.unwrap_or(false),
    };
    let (roll, outcome) =
        common::roll(ctx, |r| success_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let spent: Vec<String> = match (&who, edge) {
        (Some(c), Some(_)) => vec![c.name.clone()],
        _ => Vec::new(),
    };
    roll.or_abandon(common::spend_edge(ctx, &inv, session.as_deref(), &spent).await)?;
    let name = who.as_ref().map(|c| c.name.as_str());
    let v = view::test_view(&outcome, name, inv.lang);
    let mut buttons = Vec::new();
    if let (Some(c), Some(r), Some(s)) = (&who, &outcome.rolled, &session) {
        // Burning Edge for a critical success: offered where it changes something.
        let burn =
            outcome.success != Some(true) || outcome.glitch != engine::systems::shadowrun4::Glitch::None;
        let offer = common::EdgeOffer {
            who: c,
            roll: &r.roll,
            burn,
            second_chance: true,
            negate: true,
            session: s.id,
            edge_roll: EdgeRoll::Test {
                outcome: outcome.clone(),
            },
        };
        buttons = common::edge_buttons(ctx, &inv, offer).await;
    }
    common::reply(roll, &inv, session.as_deref(), v, buttons, &outcome).await
}

/// Opposed test: actor against opponent (pools or characters)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "対抗"),
    description_localized("ja", "対抗テスト：行動側と相手側（ダイス数かキャラクター）")
)]
#[allow(clippy::too_many_arguments)]
pub async fn opposed(
    ctx: Context<'_>,
    #[description = "Actor's dice"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "行動側のダイス数")]
    #[min = -50]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Actor (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "行動側のキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Actor's attribute"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "行動側の能力値")]
    attribute: Option<AttrChoice>,
    #[description = "Actor's skill"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "行動側の技能")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Actor's second attribute"]
    #[name_localized("ja", "能力値2")]
    #[description_localized("ja", "行動側の2つ目の能力値")]
    attribute2: Option<AttrChoice>,
    #[description = "Actor's modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "行動側の修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Opponent's dice"]
    #[name_localized("ja", "相手ダイス数")]
    #[description_localized("ja", "相手側のダイス数")]
    #[min = -50]
    #[max = 100]
    opponent_pool: Option<i64>,
    #[description = "Opponent (session character)"]
    #[name_localized("ja", "相手")]
    #[description_localized("ja", "相手側のキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    opponent: Option<String>,
    #[description = "Opponent's attribute"]
    #[name_localized("ja", "相手能力値")]
    #[description_localized("ja", "相手側の能力値")]
    opponent_attribute: Option<AttrChoice>,
    #[description = "Opponent's skill"]
    #[name_localized("ja", "相手技能")]
    #[description_localized("ja", "相手側の技能")]
    #[max_length = 40]
    opponent_skill: Option<String>,
    #[description = "Opponent's second attribute"]
    #[name_localized("ja", "相手能力値2")]
    #[description_localized("ja", "相手側の2つ目の能力値")]
    opponent_attribute2: Option<AttrChoice>,
    #[description = "Opponent's modifier presets"]
    #[name_localized("ja", "相手修正")]
    #[description_localized("ja", "相手側の修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    opponent_modifiers: Option<String>,
    #[description = "Actor's Edge before the roll"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "行動側のロール前のエッジ")]
    edge: Option<EdgeChoice>,
    #[description = "Edge when no character is named"]
    #[name_localized("ja", "エッジ値")]
    #[description_localized("ja", "キャラクターなしのときの【エッジ】")]
    #[min = 1]
    #[max = 20]
    edge_rating: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = if character.is_some() || opponent.is_some() {
        Some(sr_session(ctx, &inv).await?)
    } else {
        inv.session_if_any(ctx).await
    };
    let (actor_pool, who) = build_pool(
        &inv,
        session.as_deref(),
        &PoolArgs {
            pool,
            character: character.as_deref(),
            attribute,
            skill: skill.as_deref(),
            attribute2,
            program: None,
            modifiers: modifiers.as_deref(),
            dice: None,
        },
    )?;
    let (opp_pool, opp) = build_pool(
        &inv,
        session.as_deref(),
        &PoolArgs {
            pool: opponent_pool,
            character: opponent.as_deref(),
            attribute: opponent_attribute,
            skill: opponent_skill.as_deref(),
            attribute2: opponent_attribute2,
            program: None,
            modifiers: opponent_modifiers.as_deref(),
            dice: None,
        },
    )?;
    let edge = edge_before_by(&inv, session.as_deref(), edge, who.as_ref(), edge_rating)?;
    let req = OpposedRequest {
        actor: RollSpec {
            pool: actor_pool,
            edge,
            retry: 0,
        },
        opponent: RollSpec::new(opp_pool),
        actor_hit_cap: None,
    };
    let (roll, outcome) =
        common::roll(ctx, |r| opposed_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let spent: Vec<String> = match (&who, edge) {
        (Some(c), Some(_)) => vec![c.name.clone()],
        _ => Vec::new(),
    };
    roll.or_abandon(common::spend_edge(ctx, &inv, session.as_deref(), &spent).await)?;
    let a = who.as_ref().map(|c| c.name.clone());
    let b = opp.as_ref().map(|c| c.name.clone());
    let v = view::opposed_view(&outcome, a.as_deref(), b.as_deref(), inv.lang);
    let mut buttons = Vec::new();
    if let (Some(c), Some(s)) = (&who, &session) {
        let offer = common::EdgeOffer {
            who: c,
            roll: &outcome.actor.roll,
            burn: false,
            second_chance: true,
            negate: true,
            session: s.id,
            edge_roll: EdgeRoll::Opposed {
                opponent: b.clone(),
                outcome: outcome.clone(),
            },
        };
        buttons = common::edge_buttons(ctx, &inv, offer).await;
    }
    let logged = common::Named::target(&outcome, b.as_deref());
    common::reply(roll, &inv, session.as_deref(), v, buttons, &logged).await
}

/// Extended test: roll each interval until the hits reach the threshold
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "継続"),
    description_localized("ja", "継続テスト：合計ヒットが目標値に届くまで振る")
)]
#[allow(clippy::too_many_arguments)]
pub async fn extended(
    ctx: Context<'_>,
    #[description = "Threshold"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "目標値")]
    #[min = 1]
    #[max = 100]
    threshold: i64,
    #[description = "Dice to roll"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "振るダイス数")]
    #[min = -50]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Session character"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "セッションのキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Attribute"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "能力値")]
    attribute: Option<AttrChoice>,
    #[description = "Skill"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Most intervals (default 20)"]
    #[name_localized("ja", "最大回数")]
    #[description_localized("ja", "最大試行回数（既定20）")]
    #[min = 1]
    #[max = 100]
    max_intervals: Option<i64>,
    #[description = "Earlier tries (−2 dice each)"]
    #[name_localized("ja", "再挑戦")]
    #[description_localized("ja", "これまでの挑戦回数")]
    #[min = 0]
    #[max = 20]
    retry: Option<i64>,
    #[description = "Edge before the roll (first interval)"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "ロール前のエッジ（最初の1回）")]
    edge: Option<EdgeChoice>,
    #[description = "Edge when no character is named"]
    #[name_localized("ja", "エッジ値")]
    #[description_localized("ja", "キャラクターなしのときの【エッジ】")]
    #[min = 1]
    #[max = 20]
    edge_rating: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = match &character {
        Some(_) => Some(sr_session(ctx, &inv).await?),
        None => inv.session_if_any(ctx).await,
    };
    let (pool, who) = build_pool(
        &inv,
        session.as_deref(),
        &PoolArgs {
            pool,
            character: character.as_deref(),
            attribute,
            skill: skill.as_deref(),
            modifiers: modifiers.as_deref(),
            ..Default::default()
        },
    )?;
    let edge = edge_before_by(&inv, session.as_deref(), edge, who.as_ref(), edge_rating)?;
    let req = ExtendedRequest {
        pool,
        retry: u32::try_from(retry.unwrap_or(0)).unwrap_or(0),
        threshold: u32::try_from(threshold).unwrap_or(0),
        max_intervals: max_intervals.map(|m| u32::try_from(m).unwrap_or(0)),
        edge,
    };
    let (roll, outcome) =
        common::roll(ctx, |r| extended_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let spent: Vec<String> = match (&who, edge) {
        (Some(c), Some(_)) => vec![c.name.clone()],
        _ => Vec::new(),
    };
    roll.or_abandon(common::spend_edge(ctx, &inv, session.as_deref(), &spent).await)?;
    let v = view::extended_view(&outcome, who.as_ref().map(|c| c.name.as_str()), inv.lang);
    let mut buttons = Vec::new();
    // Second chance on the interval that ended a test that did not succeed (one Edge use per
    // test: none after Edge before the roll).
    if let (Some(c), Some(s), Some(last), false, None) =
        (&who, &session, outcome.intervals.last(), outcome.success, edge)
    {
        let offer = common::EdgeOffer {
            who: c,
            roll: &last.roll,
            burn: false,
            second_chance: true,
            negate: true,
            session: s.id,
            edge_roll: EdgeRoll::Extended {
                request: req.clone(),
                outcome: outcome.clone(),
            },
        };
        // A glitch on one interval is not what ends an extended test: only Second chance here.
        buttons = common::edge_buttons(
            ctx,
            &inv,
            common::EdgeOffer {
                negate: false,
                ..offer
            },
        )
        .await;
    }
    common::reply(roll, &inv, session.as_deref(), v, buttons, &outcome).await
}

/// Teamwork test: assistants' hits add dice to the leader's pool
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "チームワーク"),
    description_localized("ja", "チームワーク・テスト：補助のヒットがリーダーのダイスに加わる")
)]
#[allow(clippy::too_many_arguments)]
pub async fn teamwork(
    ctx: Context<'_>,
    #[description = "Assistants: names or dice, comma separated (Bob, 4)"]
    #[name_localized("ja", "補助")]
    #[description_localized("ja", "補助：キャラクター名かダイス数をカンマ区切りで")]
    #[max_length = 300]
    assistants: String,
    #[description = "Leader's dice"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "リーダーのダイス数")]
    #[min = -50]
    #[max = 100]
    pool: Option<i64>,
    #[description = "Leader (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "リーダーのキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "Attribute (leader, assistants)"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "能力値（リーダーと補助）")]
    attribute: Option<AttrChoice>,
    #[description = "Skill (leader, assistants)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（リーダーと補助）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Threshold"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "目標値")]
    #[min = 0]
    #[max = 100]
    threshold: Option<i64>,
    #[description = "Leader's modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "リーダーの修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Leader's extra dice, + or −"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "リーダーの追加・減少ダイス")]
    #[min = -50]
    #[max = 50]
    dice: Option<i64>,
    #[description = "Leader's Edge before the roll"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "リーダーのロール前のエッジ")]
    edge: Option<EdgeChoice>,
    #[description = "Edge when no character is named"]
    #[name_localized("ja", "エッジ値")]
    #[description_localized("ja", "キャラクターなしのときの【エッジ】")]
    #[min = 1]
    #[max = 20]
    edge_rating: Option<i64>,
    #[description = "Earlier tries (−2 dice each)"]
    #[name_localized("ja", "再挑戦")]
    #[description_localized("ja", "これまでの挑戦回数")]
    #[min = 0]
    #[max = 20]
    retry: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let names = common::name_list(Some(&assistants));
    let needs_session = character.is_some() || names.iter().any(|n| n.parse::<i64>().is_err());
    let session = if needs_session {
        Some(sr_session(ctx, &inv).await?)
    } else {
        inv.session_if_any(ctx).await
    };
    let (leader, who) = build_pool(
        &inv,
        session.as_deref(),
        &PoolArgs {
            pool,
            character: character.as_deref(),
            attribute,
            skill: skill.as_deref(),
            modifiers: modifiers.as_deref(),
            dice,
            ..Default::default()
        },
    )?;
    let mut specs = Vec::new();
    let mut labels = Vec::new();
    for n in &names {
        let args = match n.parse::<i64>() {
            Ok(d) => PoolArgs {
                pool: Some(d),
                ..Default::default()
            },
            Err(_) => PoolArgs {
                character: Some(n.as_str()),
                attribute,
                skill: skill.as_deref(),
                ..Default::default()
            },
        };
        let (p, c) = build_pool(&inv, session.as_deref(), &args)?;
        if let (Some(c), Some(l)) = (&c, &who)
            && c.name == l.name
        {
            return Err(inv.text(
                &format!("{} cannot assist their own test.", c.name),
                &format!("{}は自分のテストを補助できません。", c.name),
            ));
        }
        labels.push(c.map_or_else(|| n.clone(), |c| c.name));
        specs.push(RollSpec::new(p));
    }
    let edge = edge_before_by(&inv, session.as_deref(), edge, who.as_ref(), edge_rating)?;
    let req = TeamworkRequest {
        leader: RollSpec {
            pool: leader,
            edge,
            retry: u32::try_from(retry.unwrap_or(0)).unwrap_or(0),
        },
        assistants: specs,
        threshold: threshold.map(|t| u32::try_from(t).unwrap_or(0)),
    };
    let (roll, outcome) =
        common::roll(ctx, |r| teamwork_test(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let spent: Vec<String> = match (&who, edge) {
        (Some(c), Some(_)) => vec![c.name.clone()],
        _ => Vec::new(),
    };
    roll.or_abandon(common::spend_edge(ctx, &inv, session.as_deref(), &spent).await)?;
    let v = view::teamwork_view(&outcome, who.as_ref().map(|c| c.name.as_str()), &labels, inv.lang);
    let mut buttons = Vec::new();
    if let (Some(c), Some(r), Some(s)) = (&who, &outcome.leader.rolled, &session) {
        let l = &outcome.leader;
        let burn = l.success != Some(true) || l.glitch != engine::systems::shadowrun4::Glitch::None;
        let offer = common::EdgeOffer {
            who: c,
            roll: &r.roll,
            burn,
            second_chance: true,
            negate: true,
            session: s.id,
            edge_roll: EdgeRoll::Teamwork {
                labels: labels.clone(),
                outcome: outcome.clone(),
            },
        };
        buttons = common::edge_buttons(ctx, &inv, offer).await;
    }
    let logged = common::Named::assistants(&outcome, &labels);
    common::reply(roll, &inv, session.as_deref(), v, buttons, &logged).await
}

//! Ranged and melee attacks between session characters, and surprise.

use super::press_data::{AttackEdge, EdgeRoll, SrPress};
use engine::session::Session;
use engine::systems::shadowrun4::combat::{
    AttackKind, AttackOutcome, AttackRequest, AttackRoll, MeleeDefence, SheetAttack, Weapon, resolve_attack,
};
use engine::systems::shadowrun4::initiative::{
    SurpriseParticipant, surprise as surprise_test, surprise_pool,
};

use super::common::{
    self, EdgeChoice, Sr4Char, autocomplete_character, autocomplete_presets, find_char, parse_presets, rule,
    sr_session,
};
use super::embeds as view;
use crate::invocation::Invocation;
use crate::offers::Offer;
use crate::{BotError, Context};

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum KindChoice {
    #[name = "ranged"]
    #[name_localized("ja", "射撃")]
    Ranged,
    #[name = "melee"]
    #[name_localized("ja", "近接")]
    Melee,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum MeleeChoice {
    #[name = "dodge"]
    #[name_localized("ja", "回避")]
    Dodge,
    #[name = "parry"]
    #[name_localized("ja", "受け流し")]
    Parry,
    #[name = "block"]
    #[name_localized("ja", "ブロック")]
    Block,
}

/// Attack: attack, defence, soak; Apply damage marks the monitor
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "攻撃"),
    description_localized("ja", "攻撃：攻撃・防御・ダメージ抵抗。「ダメージを適用」で状態モニターへ")
)]
#[allow(clippy::too_many_arguments)]
pub async fn attack(
    ctx: Context<'_>,
    #[description = "Attacker (session character)"]
    #[name_localized("ja", "攻撃者")]
    #[description_localized("ja", "攻撃するキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    attacker: String,
    #[description = "Target (session character)"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "目標のキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    target: String,
    #[description = "Weapon skill (pistols, blades…)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "攻撃者の武器技能（ピストル、刀剣…）")]
    #[max_length = 40]
    skill: String,
    #[description = "Weapon damage value"]
    #[name_localized("ja", "ダメージ値")]
    #[description_localized("ja", "武器のダメージ値")]
    #[min = 0]
    #[max = 50]
    dv: i64,
    #[description = "Armour penetration (e.g. -1)"]
    #[name_localized("ja", "装甲修正")]
    #[description_localized("ja", "AP（装甲修正値、例: -1）")]
    #[min = -20]
    #[max = 20]
    ap: Option<i64>,
    #[description = "Ranged (default) or melee"]
    #[name_localized("ja", "種類")]
    #[description_localized("ja", "射撃（既定）か近接")]
    kind: Option<KindChoice>,
    #[description = "The weapon does Stun damage"]
    #[name_localized("ja", "精神ダメージ")]
    #[description_localized("ja", "精神ダメージの武器")]
    stun: Option<bool>,
    #[description = "Weapon name shown"]
    #[name_localized("ja", "武器")]
    #[description_localized("ja", "表示する武器名")]
    #[max_length = 60]
    weapon: Option<String>,
    #[description = "Attack modifier presets"]
    #[name_localized("ja", "攻撃修正")]
    #[description_localized("ja", "攻撃側の修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Defence modifier presets"]
    #[name_localized("ja", "防御修正")]
    #[description_localized("ja", "防御側の修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    defence_modifiers: Option<String>,
    #[description = "Target takes full defence"]
    #[name_localized("ja", "全力防御")]
    #[description_localized("ja", "目標が全力防御")]
    full_defence: Option<bool>,
    #[description = "Dodge (default), parry or block"]
    #[name_localized("ja", "近接防御")]
    #[description_localized("ja", "近接の防御：回避（既定）、受け流し、ブロック")]
    melee_defence: Option<MeleeChoice>,
    #[description = "Target's parry skill (default blades)"]
    #[name_localized("ja", "受け流し技能")]
    #[description_localized("ja", "目標の受け流し技能（既定は刀剣）")]
    #[max_length = 40]
    parry_skill: Option<String>,
    #[description = "Attacker's Edge before the roll"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "攻撃者のロール前のエッジ")]
    edge: Option<EdgeChoice>,
    #[description = "Target pushes the limit on defence"]
    #[name_localized("ja", "防御エッジ")]
    #[description_localized("ja", "目標が防御でエッジを使う")]
    defence_edge: Option<bool>,
    #[description = "Target pushes the limit on soak"]
    #[name_localized("ja", "抵抗エッジ")]
    #[description_localized("ja", "目標がダメージ抵抗でエッジを使う")]
    soak_edge: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    let a = find_char(&inv, &session, &attacker)?;
    let t = find_char(&inv, &session, &target)?;
    if a.name == t.name {
        return Err(inv.text("A character cannot attack itself.", "自分自身は攻撃できません。"));
    }
    let kind = match kind.unwrap_or(KindChoice::Ranged) {
        KindChoice::Ranged => AttackKind::Ranged,
        KindChoice::Melee => AttackKind::Melee,
    };
    let attack_edge = common::edge_before_by(&inv, Some(&session), edge, Some(&a), None)?;
    let mut spent = Vec::new();
    if attack_edge.is_some() {
        spent.push(a.name.clone());
    }
    let push = |on: Option<bool>| -> Result<_, BotError> {
        if on.unwrap_or(false) {
            common::edge_before(&inv, Some(EdgeChoice::Push), Some(&t), None)
        } else {
            Ok(None)
        }
    };
    // The target's Edge is its owner's or the GM's to spend: asked for now, it is authorised
    // for every roll of this attack, including a soak first rolled after an Edge press.
    let asks_target_edge = defence_edge.unwrap_or(false) || soak_edge.unwrap_or(false);
    if asks_target_edge && t.owner != inv.user && !session.may_manage(inv.actor) {
        return Err(BotError::User(match inv.lang {
            engine::i18n::Lang::Ja => format!(
                "{}のエッジ（防御エッジ・抵抗エッジ）を使えるのは、そのキャラクターの持ち主かGMだけです。",
                t.name
            ),
            _ => format!(
                "Only {}'s owner or the GM may spend its Edge (defence_edge, soak_edge).",
                t.name
            ),
        }));
    }
    let defence_edge = push(defence_edge)?;
    let soak_edge = push(soak_edge)?;
    // The target must have a point for every Edge use asked for; only the rolls actually made
    // (a defence the target could make, a soak after a hit) spend one, after the roll.
    let target_asks = u32::from(defence_edge.is_some()) + u32::from(soak_edge.is_some());
    if target_asks > t.character.edge_points {
        return Err(rule(&inv, &engine::systems::shadowrun4::RuleError::NoEdgeLeft));
    }
    let how = SheetAttack {
        attack_skill: skill.clone(),
        attack_presets: parse_presets(&inv, modifiers.as_deref())?,
        attack_edge,
        full_defence: full_defence.unwrap_or(false),
        melee_defence: match melee_defence.unwrap_or(MeleeChoice::Dodge) {
            MeleeChoice::Dodge => MeleeDefence::Dodge,
            MeleeChoice::Parry => MeleeDefence::Parry,
            MeleeChoice::Block => MeleeDefence::Block,
        },
        parry_skill: parry_skill.clone(),
        defence_presets: parse_presets(&inv, defence_modifiers.as_deref())?,
        defence_edge,
        soak_edge,
    };
    let w = Weapon {
        dv: u32::try_from(dv).unwrap_or(u32::MAX),
        stun: stun.unwrap_or(false),
        ap: i32::try_from(ap.unwrap_or(0)).unwrap_or(i32::MAX),
    };
    let req =
        AttackRequest::from_sheets(kind, &a.character, &t.character, w, &how).map_err(|e| rule(&inv, &e))?;
    let (roll, outcome) =
        common::roll(ctx, |r| resolve_attack(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    spent.extend(std::iter::repeat_n(
        t.name.clone(),
        outcome.defender_edge_spent() as usize,
    ));
    roll.or_abandon(common::spend_edge(ctx, &inv, Some(&session), &spent).await)?;
    let lang = inv.lang;
    let v = view::attack_view(
        &outcome,
        &a.name,
        &t.name,
        weapon.as_deref(),
        Some(&t.character),
        lang,
    );
    let mut apply_id = None;
    if let Some(d) = outcome.damage.as_ref().filter(|d| d.boxes > 0) {
        let press = SrPress::apply_damage(session.id, &t.name, d.damage_type, d.boxes);
        let owner = common::damage_owner(&session, &t.name, inv.user, &inv.settings);
        apply_id = common::action(ctx.data(), inv.guild, inv.channel, owner, &press).await;
    }
    let offer = AttackOffer {
        session: session.id,
        attacker: &a,
        target: &t,
        roller: inv.user,
        weapon: weapon.as_deref(),
        request: &req,
        outcome: &outcome,
        apply: apply_id,
        base: ctx.id().to_string(),
        version: ctx.id().to_string(),
    };
    let place = |owner| common::ButtonPlace {
        data: ctx.data(),
        guild: inv.guild,
        channel: inv.channel,
        owner,
        lang,
    };
    let mut rows = attack_buttons(&place(inv.user), &place(t.owner), &offer, &session).await;
    if let Some(id) = apply_id {
        rows[0].push(common::apply_button(id, false, lang).into());
    }
    let logged = common::Named::target(&outcome, Some(&t.name));
    common::reply_rows(roll, &inv, Some(&session), v, rows, &logged).await
}

/// An attack's result as its Edge buttons need it.
pub struct AttackOffer<'a> {
    pub session: i64,
    pub attacker: &'a Sr4Char,
    pub target: &'a Sr4Char,
    /// Who rolled the attack: the owner of the attacker's buttons.
    pub roller: u64,
    pub weapon: Option<&'a str>,
    pub request: &'a AttackRequest,
    pub outcome: &'a AttackOutcome,
    /// The Apply damage action shown with these buttons (a press replaces it).
    pub apply: Option<i64>,
    /// The attack's id: each roll's Edge use is recorded as `base`, `base:defence`, `base:soak`.
    pub base: String,
    /// The result these buttons were made for: an Edge press records it as changed.
    pub version: String,
}

/// The roll id of one side of an attack.
pub fn attack_roll_id(base: &str, which: AttackRoll) -> String {
    match which {
        AttackRoll::Attack => base.to_string(),
        AttackRoll::Defence => format!("{base}:defence"),
        AttackRoll::Soak => format!("{base}:soak"),
    }
}

/// The Edge-after buttons of an attack, one row per roll: the attacker's on the attack (the
/// roller's to press), then the defender's on the defence and on the soak (the defending
/// character's owner's; the GM may press too). A roll whose Edge was used (before the roll, or
/// recorded in `session`) offers none; the defender's rows only while the attack hits.
pub async fn attack_buttons(
    roller: &common::ButtonPlace<'_>,
    defender: &common::ButtonPlace<'_>,
    offer: &AttackOffer<'_>,
    session: &Session,
) -> Vec<Vec<Offer>> {
    let o = offer.outcome;
    // The press's `character` is whose Edge it spends (`who`, the offer's).
    let edge_roll = |which: AttackRoll| {
        EdgeRoll::Attack(Box::new(AttackEdge {
            attacker: Some(offer.attacker.name.clone()),
            target: offer.target.name.clone(),
            side: Some(which),
            weapon: offer.weapon.map(str::to_string),
            request: offer.request.clone(),
            outcome: o.clone(),
            apply: offer.apply,
            roller: Some(offer.roller),
            base: Some(offer.base.clone()),
            version: Some(offer.version.clone()),
        }))
    };
    let mut rows = vec![Vec::new(), Vec::new(), Vec::new()];
    let mut sides: Vec<(
        usize,
        AttackRoll,
        &Sr4Char,
        &engine::systems::shadowrun4::PoolRoll,
    )> = vec![(0, AttackRoll::Attack, offer.attacker, &o.attack.roll)];
    if let Some(d) = o.defence.as_ref().filter(|_| o.hit) {
        sides.push((1, AttackRoll::Defence, offer.target, &d.roll));
    }
    if let Some(s) = o
        .damage
        .as_ref()
        .filter(|d| d.boxes > 0)
        .and_then(|d| d.soak.as_ref())
    {
        sides.push((2, AttackRoll::Soak, offer.target, &s.roll));
    }
    for (row, which, who, roll) in sides {
        let roll_id = attack_roll_id(&offer.base, which);
        if common::edge_roll_used(session, &roll_id) {
            continue;
        }
        let (place, side) = match which {
            AttackRoll::Attack => (roller, common::EdgeSide::Own),
            AttackRoll::Defence => (defender, common::EdgeSide::Defence),
            AttackRoll::Soak => (defender, common::EdgeSide::Soak),
        };
        let edge_offer = common::EdgeOffer {
            who,
            roll,
            burn: false,
            second_chance: true,
            negate: true,
            session: offer.session,
            edge_roll: edge_roll(which),
        };
        rows[row] = common::edge_buttons_at(place, edge_offer, &roll_id, side).await;
    }
    rows
}

/// Surprise: Intuition + Reaction for each (+3 aware, +6 ambush)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "不意打ち"),
    description_localized("ja", "不意打ち：各自 直観力＋反応力（気づいていれば+3、待ち伏せ+6）")
)]
pub async fn surprise(
    ctx: Context<'_>,
    #[description = "Characters, comma separated (default all)"]
    #[name_localized("ja", "参加者")]
    #[description_localized("ja", "キャラクター（カンマ区切り、既定は全員）")]
    #[max_length = 500]
    characters: Option<String>,
    #[description = "Who is aware (+3)"]
    #[name_localized("ja", "警戒")]
    #[description_localized("ja", "危険に気づいている者（+3）")]
    #[max_length = 500]
    aware: Option<String>,
    #[description = "Who lies in ambush (+6)"]
    #[name_localized("ja", "待ち伏せ")]
    #[description_localized("ja", "待ち伏せしている者（+6）")]
    #[max_length = 500]
    ambush: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    let mut names = common::name_list(characters.as_deref());
    if names.is_empty() {
        names = session.roster.iter().map(|e| e.name.clone()).collect();
    }
    let aware = common::name_list(aware.as_deref());
    let ambush = common::name_list(ambush.as_deref());
    let has = |list: &[String], n: &str| list.iter().any(|x| x.trim().eq_ignore_ascii_case(n));
    let mut parts = Vec::new();
    for n in &names {
        let c = find_char(&inv, &session, n)?;
        let pool = surprise_pool(&c.character, has(&aware, &c.name), has(&ambush, &c.name))
            .map_err(|e| rule(&inv, &e))?;
        parts.push(SurpriseParticipant { name: c.name, pool });
    }
    let (roll, outcome) =
        common::roll(ctx, |r| surprise_test(&parts, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let v = view::surprise_view(&outcome, inv.lang);
    common::reply(roll, &inv, Some(&session), v, Vec::new(), &outcome).await
}

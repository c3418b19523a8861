//! Where a matrix or vehicle pool comes from: a number of dice, or a session `character:` with
//! a skill and a program (or drone/sensor) rating — a number, or a rating on the sheet by name
//! (`exploit=5`) — so the character's wound and sustaining modifiers apply; vehicle tests from
//! a sheet use Reaction unless a rating is given. Shared by `/sr-matrix` and `/sr-rig`.

use engine::session::Session;
use engine::systems::shadowrun4::character::Attribute;
use engine::systems::shadowrun4::rigging::RangeBand;
use engine::systems::shadowrun4::test_kinds::{RollSpec, SearchRequest};
use engine::systems::shadowrun4::{DamageType, DicePool};

use super::common::{self, AttrChoice, PoolArgs, Sr4Char, build_pool, sr_session};
use super::press_data::SrPress;
use crate::invocation::Invocation;
use crate::{BotError, Context};

pub(super) fn u(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// Where a matrix or vehicle pool comes from.
pub(super) struct From<'a> {
    pub(super) pool: Option<i64>,
    pub(super) character: Option<&'a str>,
    pub(super) skill: Option<&'a str>,
    pub(super) program: Option<&'a str>,
    pub(super) modifiers: Option<&'a str>,
    /// Defaults with a character: the skill, and the program by its sheet name.
    pub(super) default_skill: Option<&'static str>,
    pub(super) default_program: Option<&'static str>,
    /// Vehicle tests: this attribute when no rating is given.
    pub(super) attribute: Option<Attribute>,
}

/// The session (a Shadowrun one when a character is named) and the pool.
pub(super) async fn pool_from(
    ctx: Context<'_>,
    inv: &Invocation,
    w: &From<'_>,
) -> Result<(DicePool, Option<Sr4Char>, Option<std::sync::Arc<Session>>), BotError> {
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
    let (pool, who) = build_pool(inv, session.as_deref(), &args)?;
    Ok((pool, who, session))
}

/// The Biofeedback Filter option as a rating (absent or negative: none).
pub(super) fn filter_rating(filter: Option<i64>) -> u32 {
    filter.map_or(0, |f| u32::try_from(f.max(0)).unwrap_or(u32::MAX))
}

pub(super) fn attr_choice(a: Attribute) -> AttrChoice {
    match a {
        Attribute::Reaction => AttrChoice::Reaction,
        Attribute::Willpower => AttrChoice::Willpower,
        _ => AttrChoice::Intuition,
    }
}

/// An Apply damage button for `target` when there are boxes to mark.
pub(super) async fn apply_damage_button(
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
    let press = SrPress::apply_damage(session.id, target, t, boxes);
    let owner = common::damage_owner(session, target, inv.user, &inv.settings);
    common::action(ctx.data(), inv.guild, inv.channel, owner, &press)
        .await
        .map(|id| vec![common::apply_button(id, false, inv.lang)])
        .unwrap_or_default()
}

pub(super) async fn search(
    ctx: Context<'_>,
    inv: &Invocation,
    from: &From<'_>,
    threshold: Option<i64>,
    hidden: Option<i64>,
) -> Result<(SearchRequest, Option<Sr4Char>, Option<std::sync::Arc<Session>>), BotError> {
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

/// `🎲 Ana · …`: the character in the title of a result built without a name.
pub(super) fn named(v: &mut crate::embeds::EmbedView, who: Option<&Sr4Char>) {
    if let Some(c) = who {
        v.title = v.title.replacen("🎲 ", &format!("🎲 {} · ", c.name), 1);
    }
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
    pub fn band(self) -> RangeBand {
        match self {
            BandChoice::Close => RangeBand::Close,
            BandChoice::Near => RangeBand::Near,
            BandChoice::Far => RangeBand::Far,
        }
    }
}

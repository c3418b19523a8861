//! `/sr-matrix`: the Matrix (cybercombat, hacking on the fly, matrix perception). Its own
//! top-level command, apart from `/sr`, so each tree stays within Discord's size budget.

use engine::systems::shadowrun4::matrix::{
    CybercombatRequest, HackRequest, MatrixTarget, cybercombat as cyber, hack_on_the_fly, matrix_perception,
};
use engine::systems::shadowrun4::test_kinds::RollSpec;
use engine::systems::shadowrun4::{DamageType, DicePool};

use super::common::{self, autocomplete_character, autocomplete_presets, find_char, rule, sr_session};
use super::embeds as view;
use super::pools::{From, apply_damage_button, filter_rating, named, pool_from, search, u};
use crate::invocation::Invocation;
use crate::offers::Offer;
use crate::{BotError, Context};

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum TargetChoice {
    #[name = "icon"]
    #[name_localized("ja", "アイコン")]
    Icon,
    #[name = "black IC (stun)"]
    #[name_localized("ja", "ブラックIC（精神）")]
    BlackIcStun,
    #[name = "black IC (physical)"]
    #[name_localized("ja", "ブラックIC（身体）")]
    BlackIcPhysical,
}

/// The Matrix: cybercombat, hacking, perception
#[poise::command(
    slash_command,
    guild_only,
    rename = "sr-matrix",
    name_localized("ja", "シャドウラン-マトリックス"),
    description_localized("ja", "マトリックス：サイバー戦闘、ハッキング、知覚"),
    subcommands("cybercombat", "hack", "perception"),
    subcommand_required
)]
pub async fn matrix(_ctx: Context<'_>) -> Result<(), BotError> {
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
    #[name_localized("ja", "ダメージ値")]
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
    #[max_length = 64]
    character: Option<String>,
    #[description = "Skill (default cybercombat)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（既定はサイバー戦闘）")]
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
    #[max_length = 64]
    defender: Option<String>,
    #[description = "Defender's Biofeedback Filter"]
    #[name_localized("ja", "フィルター")]
    #[description_localized("ja", "防御者の生体信号フィルター")]
    #[min = 0]
    #[max = 30]
    filter: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
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
    let (roll, outcome) = common::roll(ctx, |r| cyber(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
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
    let buttons = buttons.into_iter().map(Offer::from).collect();
    common::reply(roll, &inv, session.as_deref(), v, buttons, &outcome).await
}

/// Hacking on the fly: the hacker's extended test races the node's
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "ハッキング"),
    description_localized("ja", "即興ハッキング：ハッカーとノードの継続テストの競争")
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
    #[max_length = 64]
    character: Option<String>,
    #[description = "Skill (default hacking)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（既定はハッキング）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Rating or sheet name (default exploit)"]
    #[name_localized("ja", "プログラム")]
    #[description_localized("ja", "プログラム：レーティングかシート上の名前")]
    #[max_length = 40]
    program: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
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
    let (roll, outcome) =
        common::roll(ctx, |r| hack_on_the_fly(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::hack_view(&outcome, inv.lang);
    if let Some(c) = &who {
        v.title = v.title.replacen("🖥️ ", &format!("🖥️ {} · ", c.name), 1);
    }
    common::reply(roll, &inv, session.as_deref(), v, Vec::new(), &outcome).await
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
    #[max_length = 64]
    character: Option<String>,
    #[description = "Skill (default computer)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（既定はコンピューター）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Rating or sheet name (default analyze)"]
    #[name_localized("ja", "プログラム")]
    #[description_localized("ja", "プログラム：レーティングかシート上の名前")]
    #[max_length = 40]
    program: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
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
    let (roll, outcome) =
        common::roll(ctx, |r| matrix_perception(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let mut v = view::search_view(
        &outcome,
        inv.lang.pick("Matrix perception", "マトリックス知覚"),
        inv.lang,
    );
    named(&mut v, who.as_ref());
    common::reply(roll, &inv, session.as_deref(), v, Vec::new(), &outcome).await
}

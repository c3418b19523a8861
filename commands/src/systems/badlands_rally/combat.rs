//! `/rally attack`, `/rally push` and `/rally damage`: attacker and defender are the session's
//! gears, so ratings, weapons, traits, AR and rattled state come from their sheets; only the
//! situation (distance, facing, cover, extra dice) is typed.

use engine::systems::badlands_rally::attack::{AttackKind, AttackSetup, Cover, Facing};
use engine::systems::badlands_rally::damage::{self, DamageRequest};
use engine::systems::badlands_rally::gear::WeaponChoice;
use engine::systems::badlands_rally::race::RaceAttack;

use super::embeds::{attack_view, changes_text, damage_view, spin_out_text};
use super::store::{self, rule};
use super::{answer_with, gear_autocomplete, reliable, reply};
use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Where the attacker stands relative to the target's facing.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum FacingChoice {
    #[name = "front"]
    #[name_localized("ja", "正面")]
    Front,
    #[name = "side"]
    #[name_localized("ja", "側面")]
    Side,
    #[name = "rear"]
    #[name_localized("ja", "背面")]
    Rear,
}

impl From<FacingChoice> for Facing {
    fn from(f: FacingChoice) -> Facing {
        match f {
            FacingChoice::Front => Facing::Front,
            FacingChoice::Side => Facing::Side,
            FacingChoice::Rear => Facing::Rear,
        }
    }
}

fn small(v: Option<i64>) -> i32 {
    v.unwrap_or(0).clamp(-1000, 1000) as i32
}

fn count(v: Option<i64>) -> u32 {
    v.unwrap_or(0).clamp(0, 1000) as u32
}

fn weapon_choice(inv: &Invocation, typed: Option<&str>) -> Result<WeaponChoice, BotError> {
    let t = typed.unwrap_or("1").trim().to_lowercase();
    if t == "wacker" || t == "ワッカー" {
        return Ok(WeaponChoice::Wacker);
    }
    match t.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(WeaponChoice::Sheet(n - 1)),
        _ => Err(inv.text(
            "The weapon is its number on the gear's sheet (1, 2, …) or `wacker`.",
            "武器はシートの番号（1、2…）か `ワッカー` で指定してください。",
        )),
    }
}

#[allow(clippy::too_many_arguments)]
async fn run_attack(
    ctx: Context<'_>,
    attacker: String,
    defender: String,
    kind_for: impl Fn(&Invocation) -> Result<AttackKind, BotError>,
    distance: u32,
    facing: Option<FacingChoice>,
    cover1: Option<i64>,
    cover2: Option<i64>,
    attack_dice: Option<i64>,
    defence_dice: Option<i64>,
    reaction: Option<bool>,
    adjacent: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let setup = AttackSetup {
        kind: kind_for(&inv)?,
        facing: facing.map_or(Facing::Front, Facing::from),
        distance,
        cover: Cover {
            level1: count(cover1),
            level2: count(cover2),
        },
        attack_extra: small(attack_dice),
        defence_extra: small(defence_dice),
    };
    let adjacent_typed: Vec<String> = adjacent
        .as_deref()
        .unwrap_or("")
        .split([',', '、'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let (roll, session, (a, d, report, offer)) =
        store::run(ctx, &inv, &[&attacker], &mut |s, race, roller| {
            let a = store::gear_name(s, &attacker)?;
            let d = store::gear_name(s, &defender)?;
            // Each neighbour once, however it was typed ("C, c"); never the attacker or the target.
            let mut adjacent: Vec<String> = Vec::new();
            for typed in &adjacent_typed {
                let n = store::gear_name(s, typed)?;
                if n != a && n != d && !adjacent.contains(&n) {
                    adjacent.push(n);
                }
            }
            let req = RaceAttack {
                attacker: a.clone(),
                defender: d.clone(),
                setup,
                reaction: reaction.unwrap_or(false),
                adjacent,
            };
            let (after, report) = race.attack(&req, &mut &mut *roller).map_err(rule)?;
            let offer = reliable::Offer::new(&req, race, &after, &report.attack);
            Ok((after, (a, d, report, offer)))
        })
        .await?;
    let buttons = reliable::buttons(
        ctx.guild_id().map(|g| g.get()),
        ctx.channel_id().get(),
        &session,
        &offer,
        inv.lang,
    );
    let view = attack_view(&report, &a, &d, inv.lang);
    answer_with(roll, &inv, Some(&session), &view, buttons, &report).await?;
    Ok(())
}

/// Attack another gear: attack check against its defence check, then damage
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "attack",
    name_localized("ja", "攻撃"),
    description_localized("ja", "他のギアを攻撃：攻撃チェック対防御チェック、そしてダメージ")
)]
pub async fn rally_attack(
    ctx: Context<'_>,
    #[description = "The attacking gear"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized("ja", "攻撃するギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    attacker: String,
    #[description = "The target gear"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "目標のギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    defender: String,
    #[description = "Hexes to the target (sets the range band)"]
    #[name_localized("ja", "距離")]
    #[description_localized("ja", "目標までのヘクス数（レンジ帯を決める）")]
    #[min = 1]
    #[max = 999]
    distance: i64,
    #[description = "Weapon number on the attacker's sheet (1, 2, …) or wacker; default 1"]
    #[name_localized("ja", "武器")]
    #[description_localized("ja", "攻撃側シートの武器番号（1、2…）かワッカー。既定は1")]
    #[max_length = 16]
    weapon: Option<String>,
    #[description = "Attacking from the target's front, side (+1D6) or rear (+2D6)"]
    #[name_localized("ja", "向き")]
    #[description_localized("ja", "目標の正面・側面（+1D6）・背面（+2D6）から")]
    facing: Option<FacingChoice>,
    #[description = "Level-1 cover elements (+1D6 defence each)"]
    #[name_localized("ja", "カバー1")]
    #[description_localized("ja", "レベル1のカバー要素数（各+1D6防御）")]
    cover1: Option<i64>,
    #[description = "Level-2 cover elements (+2D6 defence each)"]
    #[name_localized("ja", "カバー2")]
    #[description_localized("ja", "レベル2のカバー要素数（各+2D6防御）")]
    cover2: Option<i64>,
    #[description = "Extra attack dice"]
    #[name_localized("ja", "攻撃追加ダイス")]
    #[description_localized("ja", "攻撃の追加ダイス")]
    attack_dice: Option<i64>,
    #[description = "Extra defence dice"]
    #[name_localized("ja", "防御追加ダイス")]
    #[description_localized("ja", "防御の追加ダイス")]
    defence_dice: Option<i64>,
    #[description = "A reaction attack by a gear that has not activated yet"]
    #[name_localized("ja", "リアクション")]
    #[description_localized("ja", "未アクティベートのギアによるリアクション攻撃")]
    reaction: Option<bool>,
    #[description = "Area Effect: gears next to the target, comma separated"]
    #[name_localized("ja", "隣接")]
    #[description_localized("ja", "エリア・エフェクト：目標に隣接するギア（カンマ区切り）")]
    #[max_length = 300]
    adjacent: Option<String>,
) -> Result<(), BotError> {
    let distance = u32::try_from(distance).unwrap_or(0);
    let w = weapon.clone();
    run_attack(
        ctx,
        attacker,
        defender,
        move |inv| weapon_choice(inv, w.as_deref()).map(AttackKind::Weapon),
        distance,
        facing,
        cover1,
        cover2,
        attack_dice,
        defence_dice,
        reaction,
        adjacent,
    )
    .await
}

/// Push the gear in the next hex: an attack check at range 1, pushed up to the MOS
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "push",
    name_localized("ja", "プッシュ"),
    description_localized("ja", "隣のギアをプッシュ：レンジ1の攻撃チェック、MOSまで押し出す")
)]
pub async fn rally_push(
    ctx: Context<'_>,
    #[description = "The pushing gear"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized("ja", "押すギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    attacker: String,
    #[description = "The gear pushed"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "押されるギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    defender: String,
    #[description = "Pushing the target's front, side (+1D6) or rear (+2D6)"]
    #[name_localized("ja", "向き")]
    #[description_localized("ja", "目標の正面・側面（+1D6）・背面（+2D6）から")]
    facing: Option<FacingChoice>,
    #[description = "Extra attack dice"]
    #[name_localized("ja", "攻撃追加ダイス")]
    #[description_localized("ja", "攻撃の追加ダイス")]
    attack_dice: Option<i64>,
    #[description = "Extra defence dice"]
    #[name_localized("ja", "防御追加ダイス")]
    #[description_localized("ja", "防御の追加ダイス")]
    defence_dice: Option<i64>,
    #[description = "A reaction push by a gear that has not activated yet"]
    #[name_localized("ja", "リアクション")]
    #[description_localized("ja", "未アクティベートのギアによるリアクション")]
    reaction: Option<bool>,
) -> Result<(), BotError> {
    run_attack(
        ctx,
        attacker,
        defender,
        |_| Ok(AttackKind::Push),
        1,
        facing,
        None,
        None,
        attack_dice,
        defence_dice,
        reaction,
        None,
    )
    .await
}

/// Roll damage: MOS + (POW − AR) dice, 4+ hits; optionally applied to a gear
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "damage",
    name_localized("ja", "ダメージ"),
    description_localized("ja", "ダメージロール：MOS +（POW − AR）個、4+で1ダメージ。ギアに適用も可")
)]
pub async fn rally_damage(
    ctx: Context<'_>,
    #[description = "Margin of Success"]
    #[name_localized("ja", "成功度")]
    #[description_localized("ja", "成功度（MOS）")]
    #[min = 0]
    #[max = 60]
    mos: i64,
    #[description = "Weapon POW"]
    #[name_localized("ja", "パワー")]
    #[description_localized("ja", "武器のPOW")]
    #[min = 0]
    #[max = 99]
    pow: i64,
    #[description = "Target's AR (default: the target gear's)"]
    #[name_localized("ja", "アーマー")]
    #[description_localized("ja", "目標のAR（既定は目標ギアのAR）")]
    #[min = 0]
    #[max = 99]
    ar: Option<i64>,
    #[description = "The gear that takes the damage"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "ダメージを受けるギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    target: Option<String>,
    #[description = "Melee: MOS + POW dice, no armour"]
    #[name_localized("ja", "メレー")]
    #[description_localized("ja", "メレー：MOS + POW個、アーマー無視")]
    melee: Option<bool>,
    #[description = "Heat: a 6 is two damage"]
    #[name_localized("ja", "ヒート")]
    #[description_localized("ja", "ヒート：6は2ダメージ")]
    heat: Option<bool>,
    #[description = "Impact: the target spins out if damaged"]
    #[name_localized("ja", "インパクト")]
    #[description_localized("ja", "インパクト：ダメージを受けた目標はスピンアウト")]
    impact: Option<bool>,
    #[description = "The attacking gear (yours): credited with spin-outs and Rally tokens"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized(
        "ja",
        "攻撃したギア（自分のギア）：スピンアウトやラリー・トークンが記録される"
    )]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    attacker: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let num = |v: i64| u32::try_from(v.clamp(0, 99)).unwrap_or(0);
    let mut req = DamageRequest {
        mos: num(mos),
        pow: num(pow),
        ar: ar.map_or(0, num),
        melee: melee.unwrap_or(false),
        heat: heat.unwrap_or(false),
    };
    let Some(target) = target else {
        if attacker.is_some() || impact.is_some() {
            return Err(inv.text(
                "`attacker` and `impact` apply damage to a gear: give the `target` gear too.",
                "`攻撃側` と `インパクト` はギアへの適用です。`目標` のギアも指定してください。",
            ));
        }
        if ar.is_none() && !req.melee {
            return Err(inv.text(
                "Give the target's AR, or the target gear.",
                "目標のARか、目標のギアを指定してください。",
            ));
        }
        let (roll, out) = CommandRoll::roll(ctx, |mut r| damage::resolve_damage(&req, &mut r))
            .map_err(|e| inv.user_error(&e))?;
        roll.answer_in_channel(&inv, reply(ctx, &damage_view(&out, None, inv.lang)), &out)
            .await?;
        return Ok(());
    };
    // Damage typed as numbers lands on a gear by its owner's (or the GM's) hand; the attacking
    // gear's player's only where the server allows it (`rally.attacker_applies_damage`).
    let attacker_may =
        engine::systems::badlands_rally::rules::ATTACKER_APPLIES_DAMAGE.value_in(&inv.settings.house) == "on";
    let acting = match &attacker {
        Some(a) if attacker_may => a.clone(),
        _ => target.clone(),
    };
    let impact = impact.unwrap_or(false);
    let (roll, session, report) = store::run(ctx, &inv, &[&acting], &mut |s, race, roller| {
        let id = store::gear_name(s, &target)?;
        let by = attacker.as_deref().map(|a| store::gear_name(s, a)).transpose()?;
        let gear = race.gear(&id).map_err(rule)?;
        if ar.is_none() {
            req.ar = gear.sheet.ar;
        }
        race.damage(&id, &req, impact, by.as_deref(), &mut &mut *roller)
            .map_err(rule)
    })
    .await?;
    let mut view = damage_view(&report.damage, Some((&report.changes, &report.status)), inv.lang);
    if let Some(so) = &report.spin_out {
        view.fields.insert(
            view.fields.len().saturating_sub(1),
            (
                inv.lang.pick("Spin-out", "スピンアウト").into(),
                spin_out_text(so, inv.lang),
                false,
            ),
        );
    }
    if let Some((by, changes)) = &report.attacker {
        let mut parts = Vec::new();
        if report.spin_out.is_some() {
            parts.push(
                inv.lang
                    .pick("spin-outs caused +1", "スピンアウトさせた数+1")
                    .to_string(),
            );
        }
        if !changes.is_empty() {
            parts.push(changes_text(changes, inv.lang));
        }
        if !parts.is_empty() {
            view.fields.push((format!("→ {by}"), parts.join(" · "), false));
        }
    }
    roll.answer(&inv, Some(&session), reply(ctx, &view), &report)
        .await?;
    Ok(())
}

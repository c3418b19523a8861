//! `/mecha attack`, `damage`, `secondary`, `check`, `range`: the rolls. Between roster units an
//! attack's damage is held for the application phase; with raw numbers nothing is stored.

use engine::dice::Roller;
use engine::i18n::Lang;
use engine::systems::mecha_d20::attack::{AttackRequest, UnitAttack, check_weapon, resolve_attack};
use engine::systems::mecha_d20::check::{Part, Source, roll_check};
use engine::systems::mecha_d20::damage::{DamageRequest, Multiplier, parse_power, roll_damage};
use engine::systems::mecha_d20::secondary::{self, SecondaryRow};
use engine::systems::mecha_d20::unit::Cockpit;
use engine::systems::mecha_d20::{RuleError, StrikeOutcome};

use super::choices::{CockpitChoice, EvasionChoice, FacingChoice, SkillChoice};
use super::store::{self, Gate};
use super::{embeds, reply, who};
use crate::autocomplete::autocomplete_entry;
use crate::command_roll::CommandRoll;
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

fn rule(inv: &Invocation, e: RuleError) -> BotError {
    inv.user_error(&e)
}

fn parse_multiplier(inv: &Invocation, typed: Option<&str>) -> Result<Option<Multiplier>, BotError> {
    typed
        .map(|m| Multiplier::parse(m).map_err(|e| rule(inv, e)))
        .transpose()
}

/// Attack: a unit's weapon against a unit (damage held), or raw totals
#[poise::command(
    slash_command,
    guild_only,
    rename = "attack",
    name_localized("ja", "攻撃"),
    description_localized("ja", "攻撃：ユニットの兵器で攻撃（ダメージは保留）、または数値で")
)]
#[allow(clippy::too_many_arguments)]
pub async fn mecha_attack(
    ctx: Context<'_>,
    #[description = "Attacking unit"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized("ja", "攻撃するユニット")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    attacker: Option<String>,
    #[description = "Weapon: name or number"]
    #[name_localized("ja", "兵器")]
    #[description_localized("ja", "兵器の名前か番号")]
    #[max_length = 40]
    weapon: Option<String>,
    #[description = "Target unit"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "目標のユニット")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    target: Option<String>,
    #[description = "Distance in hexes"]
    #[name_localized("ja", "距離")]
    #[description_localized("ja", "距離（ヘクス）")]
    #[min = 0]
    #[max = 99]
    distance: Option<u32>,
    #[description = "Where the attacker stands, seen from the target"]
    #[name_localized("ja", "位置")]
    #[description_localized("ja", "目標から見た攻撃側の位置")]
    facing: Option<FacingChoice>,
    #[description = "Attack skill (default: by weapon)"]
    #[name_localized("ja", "攻撃技能")]
    #[description_localized("ja", "攻撃技能（既定は兵器による）")]
    skill: Option<SkillChoice>,
    #[description = "The defender's evasion skill"]
    #[name_localized("ja", "回避技能")]
    #[description_localized("ja", "防御側の回避技能")]
    evasion: Option<EvasionChoice>,
    #[description = "Target in the weapon's arc (default yes)"]
    #[name_localized("ja", "射界内")]
    #[description_localized("ja", "目標が射界内か（既定：はい）")]
    in_arc: Option<bool>,
    #[description = "Attack modifier (raw: the whole attack bonus)"]
    #[name_localized("ja", "攻撃修正")]
    #[description_localized("ja", "攻撃の修正（数値のみの時は攻撃の合計修正）")]
    #[min = -99]
    #[max = 99]
    attack_mod: Option<i64>,
    #[description = "Evasion modifier (raw: the whole evasion bonus)"]
    #[name_localized("ja", "回避修正")]
    #[description_localized("ja", "回避の修正（数値のみの時は回避の合計修正）")]
    #[min = -99]
    #[max = 99]
    evasion_mod: Option<i64>,
    #[description = "Damage multiplier: ×2, ÷2"]
    #[name_localized("ja", "倍率")]
    #[description_localized("ja", "ダメージ倍率：×2、÷2")]
    #[max_length = 5]
    multiplier: Option<String>,
    #[description = "Raw: weapon power, e.g. 2d6+5"]
    #[name_localized("ja", "威力")]
    #[description_localized("ja", "数値のみ：兵器の威力（例 2d6+5）")]
    #[max_length = 20]
    power: Option<String>,
    #[description = "Raw: target armour"]
    #[name_localized("ja", "装甲")]
    #[description_localized("ja", "数値のみ：目標の装甲値")]
    #[min = 0]
    #[max = 999]
    armour: Option<u32>,
    #[description = "Raw: target cockpit (facing penalty)"]
    #[name_localized("ja", "コクピット")]
    #[description_localized("ja", "数値のみ：目標のコクピット（向きの修正）")]
    cockpit: Option<CockpitChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let mult = parse_multiplier(&inv, multiplier.as_deref())?;
    match (attacker, target) {
        (Some(attacker), Some(target)) => {
            let (Some(weapon), Some(distance)) = (weapon, distance) else {
                return Err(inv.text(
                    "A unit attack names the weapon and the distance too.",
                    "ユニットの攻撃には兵器と距離も指定してください。",
                ));
            };
            let spec = UnitAttack {
                attacker: attacker.clone(),
                weapon,
                skill: skill.map(Into::into),
                attack_modifier: attack_mod.unwrap_or(0),
                target: target.clone(),
                evasion_skill: evasion.map(Into::into).unwrap_or_default(),
                evasion_modifier: evasion_mod.unwrap_or(0),
                facing: facing.map(Into::into).unwrap_or_default(),
                distance,
                in_arc: in_arc.unwrap_or(true),
                multiplier: mult,
            };
            let (roll, session, (out, held, pending)) = store::run(
                ctx,
                &inv,
                Gate::Units(vec![attacker.clone()]),
                &mut |units, state, r| {
                    let mut spec = spec.clone();
                    // The roster's spelling, whatever the case typed.
                    for name in [&mut spec.attacker, &mut spec.target] {
                        if let Some(k) = units.keys().find(|k| k.eq_ignore_ascii_case(name.trim())) {
                            *name = k.clone();
                        }
                    }
                    let (out, held) = state.attack(&spec, units, r)?;
                    let pending = state.pending_for(&out.target);
                    Ok((out, held, pending))
                },
            )
            .await?;
            let view = embeds::strike_view(&out, held, pending, lang, &who(ctx));
            roll.answer(&inv, Some(&session), reply(ctx, &view), &out).await?;
        }
        (None, None) => {
            let power = power
                .as_deref()
                .map(|p| parse_power(p).map_err(|e| rule(&inv, e)))
                .transpose()?;
            let facing = facing.map(Into::into).unwrap_or_default();
            let cockpit: Cockpit = cockpit.map(Into::into).unwrap_or_default();
            let req = AttackRequest {
                attack: vec![Part::new(Source::Situational, attack_mod.unwrap_or(0))],
                evasion: vec![Part::new(Source::Situational, evasion_mod.unwrap_or(0))],
                cockpit,
                facing,
            };
            let armour = armour.unwrap_or(0);
            let (roll, out) = CommandRoll::roll(ctx, |r: &mut dyn Roller| -> Result<_, RuleError> {
                let attack = resolve_attack(&req, r)?;
                let damage = match (&power, attack.hit) {
                    (Some(p), true) => Some(roll_damage(
                        &DamageRequest {
                            power: *p,
                            armour,
                            multiplier: mult,
                        },
                        r,
                    )?),
                    _ => None,
                };
                Ok(StrikeOutcome {
                    attacker: lang.pick("Attacker", "攻撃側").into(),
                    target: lang.pick("Target", "目標").into(),
                    weapon: power.map(|p| p.to_string()).unwrap_or_else(|| "—".into()),
                    arc: Default::default(),
                    distance: distance.unwrap_or(0),
                    attack,
                    damage,
                    melee: false,
                })
            })
            .map_err(|e| rule(&inv, e))?;
            let mut view = embeds::strike_view(&out, None, 0, lang, &who(ctx));
            view.title = match &out.damage {
                Some(_) => format!("⚔️ {} · {}", lang.pick("Attack", "攻撃"), out.weapon),
                None => format!("⚔️ {}", lang.pick("Attack", "攻撃")),
            };
            view.description = String::new();
            roll.answer_in_channel(&inv, reply(ctx, &view), &out).await?;
        }
        _ => {
            return Err(inv.text(
                "Name both the attacker and the target (units), or neither (raw numbers).",
                "攻撃側と目標を両方（ユニット）か、どちらも指定しない（数値のみ）でください。",
            ));
        }
    }
    Ok(())
}

/// Damage: a weapon's power against armour; with a target unit, held
#[poise::command(
    slash_command,
    guild_only,
    rename = "damage",
    name_localized("ja", "ダメージ"),
    description_localized("ja", "ダメージ：威力−装甲。目標ユニットを指定すると保留")
)]
pub async fn mecha_damage(
    ctx: Context<'_>,
    #[description = "Power, e.g. 2d6+5"]
    #[name_localized("ja", "威力")]
    #[description_localized("ja", "威力（例 2d6+5）")]
    #[max_length = 20]
    power: String,
    #[description = "Armour (default: the target unit's)"]
    #[name_localized("ja", "装甲")]
    #[description_localized("ja", "装甲値（既定：目標ユニットの値）")]
    #[min = 0]
    #[max = 999]
    armour: Option<u32>,
    #[description = "Multiplier: ×2, ÷2"]
    #[name_localized("ja", "倍率")]
    #[description_localized("ja", "倍率：×2、÷2")]
    #[max_length = 5]
    multiplier: Option<String>,
    #[description = "Target unit: the damage is held for the application phase"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "目標ユニット：適用フェイズまで保留")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    target: Option<String>,
    #[description = "Attacking unit (its owner may hold damage)"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized("ja", "攻撃側ユニット（その所有者も保留できる）")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    attacker: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let power = parse_power(&power).map_err(|e| rule(&inv, e))?;
    let mult = parse_multiplier(&inv, multiplier.as_deref())?;
    let Some(target) = target else {
        let req = DamageRequest {
            power,
            armour: armour.unwrap_or(0),
            multiplier: mult,
        };
        let (roll, out) = CommandRoll::roll(ctx, |r| roll_damage(&req, r)).map_err(|e| rule(&inv, e))?;
        let view = EmbedView {
            title: format!("💥 {} · {power}", lang.pick("Damage", "ダメージ")),
            description: String::new(),
            colour: if out.critical {
                colour::CRITICAL
            } else {
                colour::NEUTRAL
            },
            fields: embeds::damage_fields(&out, None, lang),
            footer: Some(who(ctx)),
        };
        roll.answer_in_channel(&inv, reply(ctx, &view), &out).await?;
        return Ok(());
    };
    let gate = match &attacker {
        Some(a) => Gate::RawDamage {
            attacker: a.clone(),
            target: target.clone(),
            others: store::options(&inv.settings).raw_damage_on_others,
        },
        None => Gate::Gm,
    };
    let by = attacker.clone().unwrap_or_else(|| who(ctx));
    let (roll, session, (out, id, name, pending)) = store::run(ctx, &inv, gate, &mut |units, state, r| {
        let name = units
            .keys()
            .find(|k| k.eq_ignore_ascii_case(target.trim()))
            .cloned()
            .ok_or_else(|| RuleError::UnknownUnit { name: target.clone() })?;
        let req = DamageRequest {
            power,
            armour: armour.unwrap_or_else(|| units[&name].suit.armour_now()),
            multiplier: mult,
        };
        let out = roll_damage(&req, r)?;
        let id = state.hold_damage(&by, &power.to_string(), &name, &out, units)?;
        let pending = state.pending_for(&name);
        Ok((out, id, name, pending))
    })
    .await?;
    let mut fields = embeds::damage_fields(&out, Some(id), lang);
    fields.push((
        lang.pick("Pending", "保留中").into(),
        match lang {
            Lang::En => format!("{name}: {pending} damage waits"),
            Lang::Ja => format!("{name}：保留ダメージ {pending}"),
        },
        false,
    ));
    let view = EmbedView {
        title: format!("💥 {by} → {name} · {power}"),
        description: String::new(),
        colour: if out.critical {
            colour::CRITICAL
        } else {
            colour::NEUTRAL
        },
        fields,
        footer: Some(who(ctx)),
    };
    roll.answer(&inv, Some(&session), reply(ctx, &view), &out).await?;
    Ok(())
}

/// Secondary damage: roll the d20 table, or read one row
#[poise::command(
    slash_command,
    guild_only,
    rename = "secondary",
    name_localized("ja", "二次損害"),
    description_localized("ja", "二次損害表をd20で振る、または行を見る")
)]
pub async fn mecha_secondary(
    ctx: Context<'_>,
    #[description = "Row to read (instead of rolling)"]
    #[name_localized("ja", "行")]
    #[description_localized("ja", "見る行（振る代わりに）")]
    #[min = 1]
    #[max = 20]
    row: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let view = match row.and_then(SecondaryRow::from_number) {
        Some(r) => embeds::row_view(r, None, inv.lang, &who(ctx)),
        None => {
            let (roll, rolled) = CommandRoll::roll(ctx, secondary::roll).map_err(|e| rule(&inv, e))?;
            let session = inv.session_if_any(ctx).await;
            // Logged before the reply, as the row was always written first here.
            roll.record(&inv, session.as_deref(), &rolled).await;
            embeds::row_view(rolled.row, Some(rolled.die), inv.lang, &who(ctx))
        }
    };
    reply(ctx, &view).await
}

/// Check: ability + skill + d20 + modifier (natural 20 shown)
#[poise::command(
    slash_command,
    guild_only,
    rename = "check",
    name_localized("ja", "判定"),
    description_localized("ja", "行為判定：能力値＋技能＋d20＋修正")
)]
pub async fn mecha_check(
    ctx: Context<'_>,
    #[description = "Ability"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "能力値")]
    #[min = -99]
    #[max = 99]
    ability: i64,
    #[description = "Skill"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能")]
    #[min = -99]
    #[max = 99]
    skill: Option<i64>,
    #[description = "Modifier"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[min = -99]
    #[max = 99]
    modifier: Option<i64>,
    #[description = "Target number"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "目標値")]
    #[min = -99]
    #[max = 999]
    target: Option<i64>,
    #[description = "What is checked"]
    #[name_localized("ja", "内容")]
    #[description_localized("ja", "判定の内容")]
    #[max_length = 60]
    label: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    // Named apart: `d20 5 + 能力値 4 + 技能 3 + 修正 1`, not two parts both called 修正.
    let parts = vec![
        Part::new(Source::Ability, ability),
        Part::new(Source::Skill, skill.unwrap_or(0)),
        Part::new(Source::Situational, modifier.unwrap_or(0)),
    ];
    let (roll, check) = CommandRoll::roll(ctx, |r| roll_check(parts, r)).map_err(|e| rule(&inv, e))?;
    let mut fields = Vec::new();
    if let Some(t) = target {
        let ok = check.meets(t);
        fields.push((
            lang.pick("Result", "結果").into(),
            target_verdict(ok, t, lang),
            false,
        ));
    }
    let view = EmbedView {
        title: format!(
            "🎲 {}",
            label.unwrap_or_else(|| lang.pick("Check", "行為判定").into())
        ),
        // The check's line names each part (能力値, 技能, 修正): nothing to repeat under it.
        description: embeds::check_line(&check, lang),
        colour: if check.natural_20 {
            colour::SUCCESS
        } else {
            colour::NEUTRAL
        },
        fields,
        footer: Some(who(ctx)),
    };
    let sent = reply(ctx, &view);
    // The log keeps the verdict against the target too.
    let logged =
        crate::log_line::Logged::new(
            serde_json::to_value(&check).unwrap_or_default(),
            |lang| match target {
                Some(t) => format!(
                    "{} → {}",
                    embeds::check_line(&check, lang),
                    target_verdict(check.meets(t), t, lang)
                ),
                None => embeds::check_line(&check, lang),
            },
        )
        .with_luck(Some(super::log_summary::check_luck(&check)));
    roll.answer_in_channel(&inv, sent, &logged).await
}

/// `**SUCCESS** (≥ 15)`: a check against its target.
fn target_verdict(ok: bool, t: i64, lang: Lang) -> String {
    match (ok, lang) {
        (true, Lang::En) => format!("**SUCCESS** (≥ {t})"),
        (false, Lang::En) => format!("**FAILURE** (< {t})"),
        (true, Lang::Ja) => format!("**成功**（{t}以上）"),
        (false, Lang::Ja) => format!("**失敗**（{t}未満）"),
    }
}

/// Range: does a unit's weapon reach a distance (melee hex 0; range r reaches r−1…r+1)
#[poise::command(
    slash_command,
    guild_only,
    rename = "range",
    name_localized("ja", "射程"),
    description_localized("ja", "射程：兵器が距離に届くか（格闘は0、射撃は射程の値±1）")
)]
pub async fn mecha_range(
    ctx: Context<'_>,
    #[description = "Unit"]
    #[name_localized("ja", "ユニット")]
    #[description_localized("ja", "ユニット")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    unit: String,
    #[description = "Weapon: name or number"]
    #[name_localized("ja", "兵器")]
    #[description_localized("ja", "兵器の名前か番号")]
    #[max_length = 40]
    weapon: String,
    #[description = "Distance in hexes"]
    #[name_localized("ja", "距離")]
    #[description_localized("ja", "距離（ヘクス）")]
    #[min = 0]
    #[max = 99]
    distance: u32,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let (session, state) = store::read(ctx, &inv).await?;
    let entry = session
        .entry(&unit)
        .ok_or_else(|| rule(&inv, RuleError::UnknownUnit { name: unit.clone() }))?;
    let u = engine::systems::mecha_d20::Unit::read(&entry.sheet, &entry.name).map_err(|e| rule(&inv, e))?;
    let w = &u.suit.weapons[u.weapon_index(&entry.name, &weapon).map_err(|e| rule(&inv, e))?];
    let (lo, hi) = w.reach();
    let verdict = check_weapon(w, distance, true, state.turn.max(1));
    let view = EmbedView {
        title: format!("📏 {} · {}", entry.name, w.name),
        description: match lang {
            Lang::En => format!("Reaches hexes {lo}–{hi}; the target is {distance} away."),
            Lang::Ja => format!("届く距離 {lo}〜{hi}ヘクス、目標まで {distance}。"),
        },
        colour: if verdict.is_ok() {
            colour::SUCCESS
        } else {
            colour::FAILURE
        },
        fields: vec![(
            lang.pick("Result", "結果").into(),
            match verdict {
                Ok(()) => lang.pick("**In range**", "**射程内**").into(),
                Err(e) => format!("**{}**", engine::i18n::Localized::localized(&e, lang)),
            },
            false,
        )],
        footer: Some(engine::systems::mecha_d20::sheet::weapon_line(w, lang)),
    };
    reply(ctx, &view).await
}

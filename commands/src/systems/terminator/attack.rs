//! `/term attack`, `continue`, `die`, `cancel`: an attack between session characters
//! (L31–38), all at once or step by step, stopping for the I'll Be Back roll (its owner's
//! button) and for a resolution die the seed lost. `cover`, `damage`, `resolution`, `ibb`,
//! `ladder`: the raw rolls, each with numbers or a character's stats looked up; they change
//! nothing (except `ibb`, which rolls the I'll Be Back an attack waits for).

use engine::i18n::Lang;
use engine::systems::terminator::attack::{
    SaveRule, attack_roll, cover_saves, damage_roll, ill_be_back, resolution_tests,
};
use engine::systems::terminator::dice::roll_ladder;
use engine::systems::terminator::error::{DieField, RuleError};
use engine::systems::terminator::{AttackOrder, Band, Die, Waiting};

use super::choices::{BandChoice, DieChoice};
use super::store::{self, Chars, Gate, canon};
use super::{answer_with, buttons, embeds, reply, who};
use crate::autocomplete::autocomplete_entry;
use crate::command_roll::CommandRoll;
use crate::embeds::colour;
use crate::invocation::Invocation;
use crate::{BotError, Context};

fn rule(inv: &Invocation, e: RuleError) -> BotError {
    inv.user_error(&e)
}

/// `T2, T3:cover` → the secondary targets with their cover (`/odds term` reads them the same).
pub fn secondaries(chars: &Chars, typed: &str) -> Vec<(String, bool)> {
    typed
        .split([',', '、'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let (name, cover) = match t.rsplit_once([':', '：']) {
                Some((n, c)) if matches!(c.trim().to_lowercase().as_str(), "cover" | "遮蔽") => (n, true),
                _ => (t, false),
            };
            (canon(chars, name), cover)
        })
        .collect()
}

/// Attack: a character's weapon against a target (raw: skill die, ROF, band)
#[poise::command(
    slash_command,
    guild_only,
    rename = "attack",
    name_localized("ja", "攻撃"),
    description_localized("ja", "キャラクターの武器で攻撃（数値のみ：スキル、射撃回数、距離帯）")
)]
#[allow(clippy::too_many_arguments)]
pub async fn term_attack(
    ctx: Context<'_>,
    #[description = "Range band"]
    #[name_localized("ja", "距離帯")]
    #[description_localized("ja", "距離帯")]
    band: BandChoice,
    #[description = "Attacker"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized("ja", "攻撃するキャラクター")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    attacker: Option<String>,
    #[description = "Weapon: name or number"]
    #[name_localized("ja", "武器")]
    #[description_localized("ja", "武器の名前か番号")]
    #[autocomplete = "super::choices::autocomplete_weapon"]
    #[max_length = 40]
    weapon: Option<String>,
    #[description = "Target"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "ターゲット")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    target: Option<String>,
    #[description = "Cover on the line of fire"]
    #[name_localized("ja", "遮蔽")]
    #[description_localized("ja", "射線上に遮蔽がある")]
    cover: Option<bool>,
    #[description = "Area: enemies the template touches, e.g. T2, T3:cover"]
    #[name_localized("ja", "エリア")]
    #[description_localized(
        "ja",
        "エリア：テンプレートが触れる敵の名前を「、」区切りで、遮蔽ありは 名前:遮蔽"
    )]
    #[max_length = 400]
    area: Option<String>,
    #[description = "A friend is under the Area template (the shot is refused)"]
    #[name_localized("ja", "味方接触")]
    #[description_localized("ja", "エリアのテンプレートが味方に触れる（射撃不可）")]
    friendly: Option<bool>,
    #[description = "See you in hell, baby! (no other enemy within CC)"]
    #[name_localized("ja", "地獄")]
    #[description_localized("ja", "地獄で会おうぜ、ベイビー！（他の敵が接近戦距離にいない）")]
    hell: Option<bool>,
    #[description = "Moved in this activation (default: as recorded)"]
    #[name_localized("ja", "移動済み")]
    #[description_localized("ja", "このアクティベーションで移動した（既定：記録どおり）")]
    moved: Option<bool>,
    #[description = "The hits count as heavy for resolution (default: power D10+)"]
    #[name_localized("ja", "ヘヴィ")]
    #[description_localized("ja", "レゾリューションでヘヴィ扱い（既定：パワーD10以上）")]
    heavy: Option<bool>,
    #[description = "Skill die (default: the attacker's; raw: required)"]
    #[name_localized("ja", "スキル")]
    #[description_localized("ja", "スキルダイス（既定：攻撃側の値、数値のみでは必須）")]
    skill: Option<DieChoice>,
    #[description = "Power die (default: the weapon's)"]
    #[name_localized("ja", "パワー")]
    #[description_localized("ja", "パワーダイス（既定：武器の値）")]
    power: Option<DieChoice>,
    #[description = "One stage at a time (a Continue button)"]
    #[name_localized("ja", "段階ごと")]
    #[description_localized("ja", "1段階ずつ進める（続行ボタン）")]
    step: Option<bool>,
    #[description = "Raw: ROF (dice to roll)"]
    #[name_localized("ja", "射撃回数")]
    #[description_localized("ja", "数値のみ：射撃回数（振るダイス数）")]
    #[min = 1]
    #[max = 50]
    rof: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let band: Band = band.into();
    let hell = hell.unwrap_or(false);
    match (attacker, target) {
        (Some(attacker), Some(target)) => {
            let Some(weapon) = weapon else {
                return Err(inv.text(
                    "An attack between characters names the weapon too.",
                    "キャラクターの攻撃には武器も指定してください。",
                ));
            };
            let opts = store::options(&inv.settings);
            let (roll, session, rep) = store::run(
                ctx,
                &inv,
                Gate::Chars(vec![attacker.clone()]),
                &mut |chars, state, r| {
                    let mut order =
                        AttackOrder::new(&canon(chars, &attacker), &weapon, &canon(chars, &target), band);
                    order.cover = cover.unwrap_or(false);
                    order.secondaries = secondaries(chars, area.as_deref().unwrap_or(""));
                    order.hell = hell;
                    order.moved = moved;
                    order.heavy = heavy;
                    order.friendly_touched = friendly.unwrap_or(false);
                    order.skill = skill.map(Into::into);
                    order.power = power.map(Into::into);
                    order.step_by_step = step.unwrap_or(false);
                    order.defer_ill_be_back = true;
                    Ok(state.attack(&order, chars, &opts, &mut &mut *r)?)
                },
            )
            .await?;
            let view = embeds::attack_view(&rep, lang, &who(ctx));
            let offered = buttons::attack_buttons(&session, &rep, inv.guild, lang);
            answer_with(roll, &inv, Some(&session), &view, offered, &rep).await?;
        }
        (None, None) => {
            let Some(skill) = skill else {
                return Err(inv.text(
                    "Name the attacker and the target, or give the skill die (raw roll).",
                    "攻撃側とターゲットを指定するか、スキルダイスを指定してください（数値のみ）。",
                ));
            };
            let threshold = if hell { 2 } else { band.threshold() };
            let (roll, out) = CommandRoll::roll(ctx, |r| {
                attack_roll(skill.into(), rof.unwrap_or(1), threshold, &mut &mut *r)
            })
            .map_err(|e| rule(&inv, e))?;
            let title = match lang {
                Lang::En => format!("🎯 Attack roll · {}", embeds::band_text(band, lang)),
                Lang::Ja => format!("🎯 攻撃ロール · {}", embeds::band_text(band, lang)),
            };
            let view = embeds::line_view(
                title,
                embeds::attack_roll_line(&out, lang),
                if out.hits > 0 {
                    colour::SUCCESS
                } else {
                    colour::FAILURE
                },
                &who(ctx),
            );
            roll.answer_in_channel(&inv, reply(ctx, &view), &out).await?;
        }
        _ => {
            return Err(inv.text(
                "Name both the attacker and the target (characters), or neither (a raw roll).",
                "攻撃側とターゲットを両方（キャラクター）か、どちらも指定しない（数値のみ）でください。",
            ));
        }
    }
    Ok(())
}

async fn continue_attack(ctx: Context<'_>, inv: &Invocation) -> Result<(), BotError> {
    let (roll, session, rep) = store::run(ctx, inv, Gate::Attack, &mut |chars, state, r| {
        Ok(state.continue_attack(chars, &mut &mut *r)?)
    })
    .await?;
    let view = embeds::attack_view(&rep, inv.lang, &who(ctx));
    let offered = buttons::attack_buttons(&session, &rep, inv.guild, inv.lang);
    answer_with(roll, inv, Some(&session), &view, offered, &rep).await?;
    Ok(())
}

/// Continue: the next stage of the attack under way
#[poise::command(
    slash_command,
    guild_only,
    rename = "continue",
    name_localized("ja", "続行"),
    description_localized("ja", "進行中の攻撃の次の段階")
)]
pub async fn term_continue(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    continue_attack(ctx, &inv).await
}

/// Die: give a resolution die the seed lost to the attack waiting for it
#[poise::command(
    slash_command,
    guild_only,
    rename = "die",
    name_localized("ja", "ダイス"),
    description_localized("ja", "攻撃が待っている（シードで失われた）レゾリューションダイスを指定")
)]
pub async fn term_die(
    ctx: Context<'_>,
    #[description = "The target waiting"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "ダイスを待っているターゲット")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    target: String,
    #[description = "Its resolution die"]
    #[name_localized("ja", "ダイス")]
    #[description_localized("ja", "レゾリューションダイス")]
    die: DieChoice,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (roll, session, rep) = store::run(ctx, &inv, Gate::Attack, &mut |chars, state, r| {
        state.supply_die(&canon(chars, &target), die.into())?;
        Ok(state.continue_attack(chars, &mut &mut *r)?)
    })
    .await?;
    let view = embeds::attack_view(&rep, inv.lang, &who(ctx));
    let offered = buttons::attack_buttons(&session, &rep, inv.guild, inv.lang);
    answer_with(roll, &inv, Some(&session), &view, offered, &rep).await?;
    Ok(())
}

/// Cancel: drop the attack under way (nothing reaches the characters); GM
#[poise::command(
    slash_command,
    guild_only,
    rename = "cancel",
    name_localized("ja", "取消"),
    description_localized("ja", "進行中の攻撃を取り消す（キャラクターに影響なし）：GM")
)]
pub async fn term_cancel(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, run) = store::run(ctx, &inv, Gate::Gm, &mut |_, state, _| Ok(state.cancel_attack()?)).await?;
    let lang = inv.lang;
    let view = embeds::line_view(
        lang.pick("↩️ Attack cancelled", "↩️ 攻撃を取り消しました").into(),
        format!(
            "{} → {}",
            run.request.attacker,
            run.targets.first().map_or("", |t| t.name.as_str())
        ),
        colour::NEUTRAL,
        &who(ctx),
    );
    reply(ctx, &view).await
}

/// Cover: one D6 per hit, 4+ saves (a Mindless target saves none)
#[poise::command(
    slash_command,
    guild_only,
    rename = "cover",
    name_localized("ja", "カバーセーヴィング"),
    description_localized("ja", "命中1つにつきD6、4+でセーブ（マインドレスはセーブなし）")
)]
pub async fn term_cover(
    ctx: Context<'_>,
    #[description = "Hits"]
    #[name_localized("ja", "命中数")]
    #[description_localized("ja", "命中数")]
    #[min = 1]
    #[max = 50]
    hits: u32,
    #[description = "Target (Mindless looked up)"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "ターゲット（マインドレスを確認）")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    target: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let mut title = lang.pick("🛡️ Cover saves", "🛡️ カバーセーヴィング").to_string();
    if let Some(t) = &target {
        let (_, chars, _) = store::read(ctx, &inv).await?;
        let name = canon(&chars, t);
        let c = chars
            .get(&name)
            .ok_or_else(|| rule(&inv, RuleError::UnknownCharacter { name: name.clone() }))?;
        title = format!("{title} · {name}");
        if c.stats.mindless {
            let view = embeds::line_view(
                title,
                embeds::no_save_text(SaveRule::Mindless, lang).into(),
                colour::FAILURE,
                &who(ctx),
            );
            return reply(ctx, &view).await;
        }
    }
    let (roll, out) =
        CommandRoll::roll(ctx, |r| cover_saves(hits, &mut &mut *r)).map_err(|e| rule(&inv, e))?;
    let view = embeds::line_view(
        title,
        embeds::save_line(&out, lang),
        if out.unsaved == 0 {
            colour::SUCCESS
        } else {
            colour::FAILURE
        },
        &who(ctx),
    );
    roll.answer_in_channel(&inv, reply(ctx, &view), &out).await?;
    Ok(())
}

/// Damage: power dice against armour (a character's weapon and a target looked up)
#[poise::command(
    slash_command,
    guild_only,
    rename = "damage",
    name_localized("ja", "ダメージ"),
    description_localized("ja", "パワーダイス対アーマー（キャラクターの武器・ターゲットを参照可）")
)]
#[allow(clippy::too_many_arguments)]
pub async fn term_damage(
    ctx: Context<'_>,
    #[description = "Unsaved hits (default 1)"]
    #[name_localized("ja", "個数")]
    #[description_localized("ja", "セーブされなかった命中数（既定1）")]
    #[min = 1]
    #[max = 50]
    count: Option<u32>,
    #[description = "Power die (or the attacker's weapon)"]
    #[name_localized("ja", "パワー")]
    #[description_localized("ja", "パワーダイス（または攻撃側の武器）")]
    die: Option<DieChoice>,
    #[description = "Armour, e.g. 8 for 8+ (or the target's)"]
    #[name_localized("ja", "アーマー")]
    #[description_localized("ja", "アーマー（8+なら8、またはターゲットの値）")]
    #[min = 2]
    #[max = 20]
    armour: Option<u32>,
    #[description = "Target (its armour)"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "ターゲット（アーマーを参照）")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    target: Option<String>,
    #[description = "Attacker (its weapon's power)"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized("ja", "攻撃側（武器のパワーを参照）")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    attacker: Option<String>,
    #[description = "The attacker's weapon"]
    #[name_localized("ja", "武器")]
    #[description_localized("ja", "攻撃側の武器")]
    #[autocomplete = "super::choices::autocomplete_weapon"]
    #[max_length = 40]
    weapon: Option<String>,
    #[description = "Range band (Stopping Power at close)"]
    #[name_localized("ja", "距離帯")]
    #[description_localized("ja", "距離帯（至近ではストッピングパワー）")]
    band: Option<BandChoice>,
    #[description = "Heavy for resolution (default: D10+)"]
    #[name_localized("ja", "ヘヴィ")]
    #[description_localized("ja", "レゾリューションでヘヴィ扱い（既定：D10以上）")]
    heavy: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let looks_up = target.is_some() || attacker.is_some();
    let chars = if looks_up {
        store::read(ctx, &inv).await?.1
    } else {
        Chars::new()
    };
    let die: Die = match (die, &attacker) {
        (Some(d), _) => d.into(),
        (None, Some(a)) => {
            let name = canon(&chars, a);
            let c = chars
                .get(&name)
                .ok_or_else(|| rule(&inv, RuleError::UnknownCharacter { name: name.clone() }))?;
            let Some(w) = weapon.as_deref() else {
                return Err(inv.text(
                    "Name the attacker's weapon too, or give the power die.",
                    "攻撃側の武器も指定するか、パワーダイスを指定してください。",
                ));
            };
            let w = c.weapon(&name, w).map_err(|e| rule(&inv, e))?;
            w.power_at(band.map_or(Band::Short, Into::into))
                .map_err(|e| rule(&inv, e))?
        }
        (None, None) => {
            return Err(inv.text(
                "Give the power die, or the attacker and its weapon.",
                "パワーダイスか、攻撃側とその武器を指定してください。",
            ));
        }
    };
    let armour = match (armour, &target) {
        (Some(a), _) => a,
        (None, Some(t)) => {
            let name = canon(&chars, t);
            chars
                .get(&name)
                .ok_or_else(|| rule(&inv, RuleError::UnknownCharacter { name: name.clone() }))?
                .stats
                .armour
        }
        (None, None) => {
            return Err(inv.text(
                "Give the armour, or the target.",
                "アーマーかターゲットを指定してください。",
            ));
        }
    };
    let (roll, out) = CommandRoll::roll(ctx, |r| {
        damage_roll(die, count.unwrap_or(1), armour, heavy, &mut &mut *r)
    })
    .map_err(|e| rule(&inv, e))?;
    let mut title = lang.pick("💥 Damage", "💥 ダメージ").to_string();
    if let Some(t) = &target {
        title = format!("{title} · {}", canon(&chars, t));
    }
    let view = embeds::line_view(
        title,
        embeds::damage_line(&out, true, lang),
        if out.damaging > 0 {
            colour::CRITICAL
        } else {
            colour::NEUTRAL
        },
        &who(ctx),
    );
    roll.answer_in_channel(&inv, reply(ctx, &view), &out).await?;
    Ok(())
}

/// Resolution: tests on the resolution die (6+ no effect, 2–5 Reeling, 1 Retreat!)
#[poise::command(
    slash_command,
    guild_only,
    rename = "resolution",
    name_localized("ja", "レゾリューション"),
    description_localized("ja", "レゾリューションテスト（6+効果なし、2〜5リーリング、1撤退）")
)]
pub async fn term_resolution(
    ctx: Context<'_>,
    #[description = "Tests (non-damaging rolls; default 1)"]
    #[name_localized("ja", "回数")]
    #[description_localized("ja", "テスト回数（ダメージを与えなかったダイス、既定1）")]
    #[min = 1]
    #[max = 50]
    count: Option<u32>,
    #[description = "Resolution die (or the character's)"]
    #[name_localized("ja", "ダイス")]
    #[description_localized("ja", "レゾリューションダイス（またはキャラクターの値）")]
    die: Option<DieChoice>,
    #[description = "Character (its resolution die)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "キャラクター（レゾリューションダイスを参照）")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "After a heavy hit: the die degrades one step"]
    #[name_localized("ja", "ヘヴィ")]
    #[description_localized("ja", "ヘヴィな命中の後：ダイスが1段階低下")]
    heavy: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let mut title = lang.pick("🧠 Resolution", "🧠 レゾリューション").to_string();
    let die: Die = match (die, &character) {
        (Some(d), _) => d.into(),
        (None, Some(c)) => {
            let (_, chars, _) = store::read(ctx, &inv).await?;
            let name = canon(&chars, c);
            let ch = chars
                .get(&name)
                .ok_or_else(|| rule(&inv, RuleError::UnknownCharacter { name: name.clone() }))?;
            title = format!("{title} · {name}");
            ch.stats.resolution.ok_or_else(|| {
                rule(
                    &inv,
                    RuleError::MissingDie {
                        who: name.clone(),
                        field: DieField::Resolution,
                    },
                )
            })?
        }
        (None, None) => {
            return Err(inv.text(
                "Give the resolution die, or the character.",
                "レゾリューションダイスかキャラクターを指定してください。",
            ));
        }
    };
    let (roll, out) = CommandRoll::roll(ctx, |r| {
        resolution_tests(die, count.unwrap_or(1), heavy.unwrap_or(false), &mut &mut *r)
    })
    .map_err(|e| rule(&inv, e))?;
    let view = embeds::line_view(
        title,
        embeds::resolution_line(&out, lang),
        if out.retreat() {
            colour::CRITICAL
        } else if out.reeling() > 0 {
            colour::WARNING
        } else {
            colour::SUCCESS
        },
        &who(ctx),
    );
    roll.answer_in_channel(&inv, reply(ctx, &view), &out).await?;
    Ok(())
}

/// I'll Be Back: the D6 (5+ a Crawler); rolls the one an attack waits for
#[poise::command(
    slash_command,
    guild_only,
    rename = "ibb",
    name_localized("ja", "アイルビーバック"),
    description_localized(
        "ja",
        "アイル ビー バックのD6（5+でクローラー）、攻撃が待っていればそれを振る"
    )
)]
pub async fn term_ibb(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let waiting = match inv.session_if_any(ctx).await {
        Some(s) if s.system == engine::session::SystemId::Terminator => {
            let state =
                <engine::systems::terminator::TerminatorState as engine::systems::rules::SessionState>::read_or_default(
                    &s.system_state,
                );
            matches!(
                state.attack.as_ref().and_then(|a| a.run.waiting()),
                Some(Waiting::IllBeBack { .. })
            )
        }
        _ => false,
    };
    if waiting {
        return continue_attack(ctx, &inv).await;
    }
    let lang = inv.lang;
    let (roll, out) = CommandRoll::roll(ctx, |r| ill_be_back(&mut &mut *r)).map_err(|e| rule(&inv, e))?;
    let view = embeds::line_view(
        lang.pick("🦾 I'll Be Back", "🦾 アイル ビー バック").into(),
        embeds::ill_be_back_line(&out, lang),
        if out.crawls {
            colour::CRITICAL
        } else {
            colour::NEUTRAL
        },
        &who(ctx),
    );
    roll.answer_in_channel(&inv, reply(ctx, &view), &out).await?;
    Ok(())
}

/// Ladder: dice of one ladder size, optionally against a number
#[poise::command(
    slash_command,
    guild_only,
    rename = "ladder",
    name_localized("ja", "ラダー"),
    description_localized("ja", "同じ段階のダイスを振る（目標値も可）")
)]
pub async fn term_ladder(
    ctx: Context<'_>,
    #[description = "Die"]
    #[name_localized("ja", "ダイス")]
    #[description_localized("ja", "ダイス")]
    die: DieChoice,
    #[description = "How many (default 1)"]
    #[name_localized("ja", "個数")]
    #[description_localized("ja", "個数（既定1）")]
    #[min = 1]
    #[max = 50]
    count: Option<u32>,
    #[description = "Each die at or over this succeeds"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "この値以上で成功")]
    #[min = 1]
    #[max = 20]
    target: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (roll, out) = CommandRoll::roll(ctx, |r| {
        roll_ladder(die.into(), count.unwrap_or(1) as usize, target, &mut &mut *r)
    })
    .map_err(|e| rule(&inv, e))?;
    roll.answer_in_channel(
        &inv,
        reply(ctx, &embeds::ladder_view(&out, inv.lang, &who(ctx))),
        &out,
    )
    .await?;
    Ok(())
}

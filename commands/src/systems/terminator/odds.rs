//! `/odds term`: the chances of a Terminator Genisys attack before it is made (issue 16), from
//! the engine's exact odds (`systems::terminator::odds::terminator_odds`): the hits, then target
//! by target the chance to damage, to kill (and of I'll Be Back), and how the resolution tests end.
//!
//! The inputs are `/term attack`'s, with its choices. Between session characters the request is
//! the one `/term attack` builds: the same engine call (`TerminatorState::attack`), made on a copy
//! of the session's game that is thrown away, so the sheets, the weapon at this band, the
//! Crawler profile and the server's `term.ibb_carry_over` all count as they would. A raw attack
//! (no characters) takes a skill die, ROF and, for the damage, a power die and the target's armour.

use engine::i18n::Lang;
use engine::odds::Dist;
use engine::systems::terminator::attack::{AttackRequest, SaveRule, TargetStats};
use engine::systems::terminator::odds::{self, TargetOdds, TerminatorOdds};
use engine::systems::terminator::weapon::{Reach, Weapon};
use engine::systems::terminator::{AttackOrder, Band, Die};

use crate::autocomplete::autocomplete_entry;
use crate::embeds::odds::{exact_note, histogram, percent, reply, send};
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::systems::terminator::choices::{BandChoice, DieChoice};
use crate::systems::terminator::embeds::{band_text, no_save_text};
use crate::systems::terminator::store::{self, canon};
use crate::{BotError, Context};

/// Terminator: chances to hit, damage, kill and of the resolution tests
#[poise::command(
    slash_command,
    name_localized("ja", "ターミネーター"),
    description_localized("ja", "ターミネーター：命中・ダメージ・撃破・レゾリューションの確率")
)]
#[allow(clippy::too_many_arguments)]
pub async fn term(
    ctx: Context<'_>,
    #[description = "Range band"]
    #[name_localized("ja", "距離帯")]
    #[description_localized("ja", "距離帯")]
    band: BandChoice,
    #[description = "Attacker (a session character)"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized("ja", "攻撃するキャラクター")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    attacker: Option<String>,
    #[description = "The attacker's weapon: name or number"]
    #[name_localized("ja", "武器")]
    #[description_localized("ja", "武器の名前か番号")]
    #[max_length = 40]
    weapon: Option<String>,
    #[description = "Target (a session character)"]
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
    #[description = "Raw: ROF (dice to roll, default 1)"]
    #[name_localized("ja", "射撃回数")]
    #[description_localized("ja", "数値のみ：射撃回数（振るダイス数、既定1）")]
    #[min = 1]
    #[max = 50]
    rof: Option<u32>,
    #[description = "Raw: the target's armour, e.g. 8 for 8+ (for the damage)"]
    #[name_localized("ja", "アーマー")]
    #[description_localized("ja", "数値のみ：ターゲットのアーマー（8+なら8、ダメージ用）")]
    #[min = 2]
    #[max = 20]
    armour: Option<u32>,
    #[description = "Raw: the target's resolution die (for the tests)"]
    #[name_localized("ja", "レゾリューション")]
    #[description_localized("ja", "数値のみ：ターゲットのレゾリューションダイス（テスト用）")]
    resolution: Option<DieChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let band: Band = band.into();
    let hell = hell.unwrap_or(false);
    let given = Given {
        band,
        cover: cover.unwrap_or(false),
        hell,
        heavy,
        skill: skill.map(Into::into),
        power: power.map(Into::into),
    };
    let (req, shown) = match (attacker, target) {
        (Some(attacker), Some(target)) => {
            if rof.is_some() || armour.is_some() || resolution.is_some() {
                return Err(inv.text(
                    "`rof`, `armour` and `resolution` are for a raw attack: the characters' come from their sheets.",
                    "`射撃回数`・`アーマー`・`レゾリューション` は数値のみの攻撃用です（キャラクターの値はシートから）。",
                ));
            }
            let Some(weapon) = weapon else {
                return Err(inv.text(
                    "An attack between characters names the weapon too.",
                    "キャラクターの攻撃には武器も指定してください。",
                ));
            };
            let (_, chars, state) = store::read(ctx, &inv).await?;
            let mut order =
                AttackOrder::new(&canon(&chars, &attacker), &weapon, &canon(&chars, &target), band);
            order.cover = given.cover;
            order.secondaries =
                crate::systems::terminator::attack::secondaries(&chars, area.as_deref().unwrap_or(""));
            order.hell = hell;
            order.moved = moved;
            order.heavy = heavy;
            order.skill = given.skill;
            order.power = given.power;
            let opts = store::options(&inv.settings);
            (
                state
                    .attack_request(&order, &chars, &opts)
                    .map_err(|e| inv.user_error(&e))?,
                Shown::Characters,
            )
        }
        (None, None) => {
            if weapon.is_some() || area.is_some() {
                return Err(inv.text(
                    "`weapon` and `area` need the attacker and the target (session characters).",
                    "`武器` と `エリア` には攻撃側とターゲット（セッションのキャラクター）が必要です。",
                ));
            }
            let raw = Raw {
                rof: rof.unwrap_or(1),
                armour,
                resolution: resolution.map(Into::into),
            };
            let Some(req) = raw_request(&given, &raw) else {
                return Err(match given.skill {
                    None => inv.text(
                        "Name the attacker and the target, or give the skill die (a raw attack).",
                        "攻撃側とターゲットを指定するか、スキルダイスを指定してください（数値のみ）。",
                    ),
                    Some(_) => inv.text(
                        "The damage needs the `power` die with the target's `armour`.",
                        "ダメージには `アーマー` とともに `パワー` ダイスが必要です。",
                    ),
                });
            };
            let shown = if armour.is_some() {
                Shown::RawTarget
            } else {
                Shown::Hits
            };
            (req, shown)
        }
        _ => {
            return Err(inv.text(
                "Name both the attacker and the target (characters), or neither (a raw attack).",
                "攻撃側とターゲットを両方（キャラクター）か、どちらも指定しない（数値のみ）でください。",
            ));
        }
    };
    let o = odds::terminator_odds(&req).map_err(|e| inv.user_error(&e))?;
    let (view, dist) = term_view(&o, shown, inv.lang);
    send(ctx, reply(view, &dist, &|v| v > 0)).await
}

/// What the answer shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shown {
    /// A raw attack roll: the hits.
    Hits,
    /// A raw attack on a target of the armour given.
    RawTarget,
    /// An attack between characters, every target by name.
    Characters,
}

/// The options both kinds of attack read.
struct Given {
    band: Band,
    cover: bool,
    hell: bool,
    heavy: Option<bool>,
    skill: Option<Die>,
    power: Option<Die>,
}

/// A raw attack's own numbers.
struct Raw {
    rof: u32,
    armour: Option<u32>,
    resolution: Option<Die>,
}

/// A raw attack as the engine reads one: a weapon of `rof` dice that reaches the band, and one
/// target with the armour and resolution die given. Without an armour only the attack roll is
/// shown, so the target is a stand-in (armour 20, a D4 power die when none is given). `None`:
/// no skill die, or an armour without the power die it is rolled against.
fn raw_request(g: &Given, raw: &Raw) -> Option<AttackRequest> {
    let skill = g.skill?;
    // See you in hell is a ranged weapon's; CC is a CC weapon's.
    let reach = if g.band == Band::Cc && !g.hell {
        Reach::Cc
    } else {
        Reach::Long
    };
    let mut weapon = Weapon::new("—", Some(reach), raw.rof);
    let power = match (g.power, raw.armour) {
        (Some(p), _) => p,
        // A stand-in never read: without an armour only the attack roll shows, and See you in
        // hell rolls a D20 whatever the weapon's die (`AttackRequest::power_die`).
        (None, None) => Die::D4,
        (None, Some(_)) if g.hell => Die::D4,
        (None, Some(_)) => return None,
    };
    weapon.power = Some(power);
    let mut target = TargetStats::new("—", raw.armour.unwrap_or(20), raw.resolution);
    target.cover = g.cover;
    // See you in hell is taken at a Reeling enemy: a raw target is one.
    target.reeling = g.hell;
    Some(AttackRequest {
        attacker: "—".into(),
        weapon,
        skill: Some(skill),
        power: None,
        band: g.band,
        hell: g.hell,
        moved: false,
        heavy: g.heavy,
        targets: vec![target],
        friendly_touched: false,
        carry_over: false,
    })
}

fn save_text(save: SaveRule, lang: Lang) -> String {
    match save {
        SaveRule::Allowed => lang.pick("cover save 4+", "カバーセーヴィング4+").into(),
        other => no_save_text(other, lang).into(),
    }
}

/// A target's chances, one line each.
fn target_lines(t: &TargetOdds, armour: u32, raw: bool, lang: Lang) -> String {
    let heavy = if t.heavy {
        lang.pick(" · heavy", " · ヘヴィ")
    } else {
        ""
    };
    let mut lines = vec![format!(
        "{} · {} {} {armour}+{heavy}",
        save_text(t.save, lang),
        t.power,
        lang.pick("vs armour", "対アーマー"),
    )];
    lines.push(format!(
        "{}: **{}**",
        lang.pick("Damage ≥ 1", "ダメージ1以上"),
        percent(t.damage_chance)
    ));
    if t.crawls > 0.0 || t.killed != t.dead {
        lines.push(match lang {
            Lang::En => format!(
                "Killed: **{}** → Crawler (I'll Be Back) {} · removed {}",
                percent(t.killed),
                percent(t.crawls),
                percent(t.dead)
            ),
            Lang::Ja => format!(
                "撃破: **{}** → クローラー（アイル ビー バック） {} · 除去 {}",
                percent(t.killed),
                percent(t.crawls),
                percent(t.dead)
            ),
        });
    } else {
        lines.push(format!(
            "{}: **{}**",
            lang.pick("Killed", "撃破"),
            percent(t.killed)
        ));
    }
    lines.push(match (t.tests, lang) {
        (Some(r), Lang::En) => format!(
            "Resolution tests taken: {} → Retreat! {} · Reeling {} · no effect {}",
            percent(r.taken),
            percent(r.retreat),
            percent(r.reeling),
            percent(r.no_effect)
        ),
        (Some(r), Lang::Ja) => format!(
            "レゾリューションテストあり: {} → 撤退 {} · リーリング {} · 効果なし {}",
            percent(r.taken),
            percent(r.retreat),
            percent(r.reeling),
            percent(r.no_effect)
        ),
        (None, _) if raw => lang
            .pick(
                "Resolution tests: give the target's `resolution` die",
                "レゾリューションテスト：ターゲットの `レゾリューション` ダイスを指定してください",
            )
            .into(),
        (None, _) => lang
            .pick(
                "Resolution tests: a resolution die is unset (the target's or its Crawler's)",
                "レゾリューションテスト：レゾリューションダイスが未設定（ターゲットかそのクローラー）",
            )
            .into(),
    });
    lines.join("\n")
}

/// The embed and the distribution charted: the primary target's damaging dice, or the hits
/// when there is no target to show.
fn term_view(o: &TerminatorOdds, shown: Shown, lang: Lang) -> (EmbedView, Dist) {
    let r = &o.request;
    let skill = r.skill.map_or_else(|| "—".to_string(), |d| d.to_string());
    let band = if r.hell {
        lang.pick("See you in hell (2+)", "地獄で会おうぜ (2+)")
            .to_string()
    } else {
        band_text(r.band, lang)
    };
    let mut title = lang
        .pick("📊 Odds: Terminator", "📊 確率: ターミネーター")
        .to_string();
    if shown == Shown::Characters {
        let names: Vec<&str> = r.targets.iter().map(|t| t.name.as_str()).collect();
        let weapon = engine::systems::terminator::weapon::display_name(&r.weapon.name, lang);
        title += &format!(" · {} → {} · {weapon}", r.attacker, names.join(", "));
    }
    let title = crate::embeds::markdown::escape_title(&title);
    let attack = match lang {
        Lang::En => format!("{skill} ×{} at {}+ · {band}", o.rof, o.threshold),
        Lang::Ja => format!("{skill} ×{}（{}+） · {band}", o.rof, o.threshold),
    };
    let mut fields = vec![
        (
            lang.pick("Hit (≥ 1 hit)", "命中（1以上）").to_string(),
            format!("**{}**", percent(o.hit)),
            true,
        ),
        (
            lang.pick("Mean hits", "平均命中数").to_string(),
            format!("{:.2}", o.hits.mean()),
            true,
        ),
    ];
    let mut description = format!(
        "{attack}\n**{}**\n{}",
        lang.pick("Hits", "命中数"),
        histogram(&o.hits)
    );
    let mut dist = o.hits.clone();
    if shown != Shown::Hits {
        for (t, stats) in o.targets.iter().zip(&r.targets) {
            let name = match shown {
                Shown::Characters => format!("🎯 {}", crate::embeds::markdown::escape(&t.name)),
                _ => lang.pick("🎯 Target", "🎯 ターゲット").to_string(),
            };
            let raw = shown != Shown::Characters;
            fields.push((name, target_lines(t, stats.armour, raw, lang), false));
        }
        if let Some(first) = o.targets.first() {
            let heading = match lang {
                Lang::En => "Damaging dice".to_string(),
                Lang::Ja => "ダメージダイス".to_string(),
            };
            let heading = match shown {
                Shown::Characters => format!("{heading} · {}", crate::embeds::markdown::escape(&first.name)),
                _ => heading,
            };
            description += &format!("\n**{heading}**\n{}", histogram(&first.damaging));
            dist = first.damaging.clone();
        }
    }
    let view = EmbedView {
        title,
        description,
        colour: colour::NEUTRAL,
        fields,
        footer: Some(exact_note(lang)),
    };
    (view, dist)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 36: the area in Japanese, as its description shows it, reads as in English.
    #[test]
    fn the_area_reads_japanese_separators_and_cover() {
        let chars = crate::systems::terminator::store::Chars::new();
        let read = |typed| crate::systems::terminator::attack::secondaries(&chars, typed);
        let both = vec![("兵士2".to_string(), false), ("兵士3".to_string(), true)];
        assert_eq!(read("兵士2、兵士3:遮蔽"), both);
        assert_eq!(read("兵士2, 兵士3：cover"), both);
    }

    fn given(band: Band, skill: Die) -> Given {
        Given {
            band,
            cover: false,
            hell: false,
            heavy: None,
            skill: Some(skill),
            power: None,
        }
    }

    #[test]
    fn a_raw_attack_without_armour_is_the_attack_roll() {
        let raw = Raw {
            rof: 2,
            armour: None,
            resolution: None,
        };
        let req = raw_request(&given(Band::Cc, Die::D6), &raw).unwrap();
        let o = odds::terminator_odds(&req).unwrap();
        // D6 at 3+: 4/6 a die; two dice.
        assert!((o.hit - (1.0 - (1.0f64 / 3.0).powi(2))).abs() < 1e-12);
        let (v, _) = term_view(&o, Shown::Hits, Lang::Ja);
        assert!(v.fields.len() == 2 && v.total_chars() < 6000);
        // The armour needs a power die, but not under See you in hell.
        let armour = Raw {
            armour: Some(8),
            ..raw
        };
        assert!(raw_request(&given(Band::Short, Die::D8), &armour).is_none());
        let mut hell = given(Band::Long, Die::D8);
        hell.hell = true;
        let o = odds::terminator_odds(&raw_request(&hell, &armour).unwrap()).unwrap();
        assert_eq!((o.threshold, o.targets[0].power), (2, Die::D20));
    }

    #[test]
    fn twenty_one_targets_fit_an_embed() {
        let raw = Raw {
            rof: 50,
            armour: Some(4),
            resolution: Some(Die::D6),
        };
        let mut g = given(Band::Short, Die::D20);
        g.power = Some(Die::D20);
        let mut req = raw_request(&g, &raw).unwrap();
        req.attacker = "Kyle".into();
        req.weapon.area = Some(engine::systems::terminator::weapon::Area::Small);
        let t = req.targets[0].clone();
        req.targets = (0..21)
            .map(|i| TargetStats {
                name: format!("T-{i:03}-{}", "x".repeat(50)),
                ..t.clone()
            })
            .collect();
        let o = odds::terminator_odds(&req).unwrap();
        let (v, _) = term_view(&o, Shown::Characters, Lang::Ja);
        let limited = v.limited();
        assert!(limited.total_chars() <= 6000);
        assert!(limited.fields.len() >= 10, "{}", limited.fields.len());
    }
}

//! Badlands Rally results: both sides' dice and results, the margin (MOS/MOF) up front, damage
//! dice, and each affected gear's status line (Hull/Structure boxes, RATTLED, the rattle record
//! k/6 or k/5, off balance, KNOCKED OUT).
//!
//! Here: dice, checks, status lines and changes, which every view uses; [`combat`]: attacks,
//! actions and damage; [`race`]: initiative, scenario, upgrades, collisions, victory and the board.

mod combat;
mod race;

pub use combat::*;
pub use race::*;

use engine::i18n::Lang;
use engine::systems::badlands_rally::GearStatus;
use engine::systems::badlands_rally::attack::{AttackKind, RangeBand};
use engine::systems::badlands_rally::damage::DamageOutcome;
use engine::systems::badlands_rally::moves::{Chooser, CollisionCause, CollisionRoll, SpinOutOutcome};
use engine::systems::badlands_rally::race::{
    ActionOutcome, ActionReport, CollisionReport, DERBY_SPIN_OUTS, InitiativeKind, InitiativeOutcome,
    RaceAttackReport, RaceState, TieBreak, Victory,
};
use engine::systems::badlands_rally::roll::{CheckOutcome, Pool, Rating, RollOutcome, Source};
use engine::systems::badlands_rally::state::{Change, SpinOutCause};
use engine::systems::badlands_rally::tables::{Scenario, ScenarioOutcome, UpgradeOutcome};

use crate::embeds::{EmbedView, colour};

/// Most dice printed per pool; more are counted.
const DICE_SHOWN: usize = 40;

/// Faces in roll order: those meeting the rating bold, ones struck through.
pub fn dice_text(dice: &[u32], rating: Option<Rating>) -> String {
    if dice.is_empty() {
        return "—".to_string();
    }
    let mut parts: Vec<String> = dice
        .iter()
        .take(DICE_SHOWN)
        .map(|&d| {
            if rating.is_some_and(|r| r.met_by(d)) {
                format!("**{d}**")
            } else if d == 1 {
                format!("~~{d}~~")
            } else {
                d.to_string()
            }
        })
        .collect();
    if dice.len() > DICE_SHOWN {
        parts.push(format!("… +{}", dice.len() - DICE_SHOWN));
    }
    format!("[{}]", parts.join(", "))
}

fn source_name(s: Source, lang: Lang) -> &'static str {
    let (en, ja) = match s {
        Source::Base => ("base", "基本"),
        Source::Rattled => ("rattled", "ラタルド"),
        Source::LowPerformance => ("Low Performance", "ロー・パフォーマンス"),
        Source::TopSpeed => ("top speed", "トップスピード"),
        Source::Equipment => ("equipment", "装備"),
        Source::SideAttack => ("side", "側面"),
        Source::RearAttack => ("rear", "背面"),
        Source::BeyondOptimalRange => ("beyond optimal", "最適レンジ外"),
        Source::CoverLevel1 => ("cover L1", "カバーL1"),
        Source::CoverLevel2 => ("cover L2", "カバーL2"),
        Source::Burst => ("Burst", "バースト"),
        Source::LowProfile => ("Low Profile", "ロー・プロフィール"),
        Source::Shield => ("Shield", "シールド"),
        Source::Brawler => ("Brawler", "ブラウラー"),
        Source::JumpJets => ("Jump Jets", "ジャンプジェット"),
        Source::CoiledHydraulicEnhancer => ("Coiled Hydraulic Enhancer", "CHE"),
        Source::BoosterRockets => ("Booster Rockets", "ブースターロケット"),
        Source::Overdrive => ("Overdrive", "オーバードライブ"),
        Source::SpeedDemon => ("Speed Demon", "スピード・デーモン"),
        Source::SponsorshipPaint => ("Sponsorship Paint", "スポンサーシップ・ペイント"),
        Source::RallyDice => ("rally dice", "ラリーダイス"),
        Source::MrCap => ("MR cap", "MR上限"),
        Source::Situational => ("situational", "状況"),
    };
    lang.pick(en, ja)
}

/// "2D6 +1 side −1 rattled → 2D6".
pub fn pool_text(pool: &Pool, lang: Lang) -> String {
    let mut s = String::new();
    for m in &pool.modifiers {
        if m.source == Source::Base {
            s.push_str(&format!("{}D6", m.dice));
        } else {
            let sign = if m.dice >= 0 { "+" } else { "−" };
            s.push_str(&format!(
                " {sign}{} {}",
                m.dice.unsigned_abs(),
                source_name(m.source, lang)
            ));
        }
    }
    let net = pool.net().unwrap_or(0).max(0);
    if pool.modifiers.len() > 1 || s.is_empty() {
        s.push_str(&format!(" → {net}D6"));
    }
    s.trim().to_string()
}

fn auto_fail(lang: Lang) -> &'static str {
    lang.pick("0 dice: automatic failure", "0D6：自動失敗")
}

fn all_ones(lang: Lang) -> &'static str {
    lang.pick("⚠ every die a 1", "⚠ 全てのダイスが1")
}

/// One check as a field value: pool, dice, result.
pub fn check_text(c: &CheckOutcome, lang: Lang) -> String {
    let mut s = format!(
        "{} @ {}+\n{} → **{}**",
        pool_text(&c.pool, lang),
        c.rating.value(),
        dice_text(&c.dice, Some(c.rating)),
        c.result
    );
    if c.automatic_failure {
        s.push_str(&format!("\n{}", auto_fail(lang)));
    }
    if c.all_ones {
        s.push_str(&format!("\n{}", all_ones(lang)));
    }
    s
}

/// Pool @ rating, the dice, and the automatic-failure / all-ones flags: what a roll and a check
/// both show.
fn test_description(
    pool: &Pool,
    rating: Rating,
    dice: &[u32],
    automatic_failure: bool,
    ones: bool,
    lang: Lang,
) -> String {
    let mut description = format!(
        "{} @ {}+\n{}",
        pool_text(pool, lang),
        rating.value(),
        dice_text(dice, Some(rating))
    );
    if automatic_failure {
        description.push_str(&format!("\n{}", auto_fail(lang)));
    }
    if ones {
        description.push_str(&format!("\n{}", all_ones(lang)));
    }
    description
}

pub fn roll_view(out: &RollOutcome, who: &str, lang: Lang) -> EmbedView {
    let description = test_description(
        &out.pool,
        out.rating,
        &out.dice,
        out.automatic_failure,
        out.all_ones,
        lang,
    );
    EmbedView {
        title: format!("🏁 {} {}+", lang.pick("Roll", "ロール"), out.rating.value()),
        description,
        colour: if out.successes > 0 {
            colour::SUCCESS
        } else {
            colour::FAILURE
        },
        fields: vec![(
            lang.pick("Successes", "成功数").to_string(),
            format!("**{}**", out.successes),
            true,
        )],
        footer: Some(who.to_string()),
    }
}

pub fn check_view(out: &CheckOutcome, who: &str, lang: Lang) -> EmbedView {
    let description = test_description(
        &out.pool,
        out.rating,
        &out.dice,
        out.automatic_failure,
        out.all_ones,
        lang,
    );
    EmbedView {
        title: format!("🏁 {} {}+", lang.pick("Check", "チェック"), out.rating.value()),
        description,
        colour: colour::NEUTRAL,
        fields: vec![(
            lang.pick("Result", "結果").to_string(),
            format!("**{}**", out.result),
            true,
        )],
        footer: Some(who.to_string()),
    }
}

/// "■■□/■ · **RATTLED** · record 1/6 · OFF BALANCE · **KNOCKED OUT**".
pub fn status_line(st: &GearStatus, lang: Lang) -> String {
    let mut parts = vec![st.boxes()];
    if st.knocked_out {
        parts.push(format!("**{}**", lang.pick("KNOCKED OUT", "ノックアウト")));
    }
    if st.permanently_rattled {
        parts.push(format!(
            "**{}**",
            lang.pick("RATTLED (permanent)", "ラタルド（永続）")
        ));
    } else if st.rattled {
        parts.push(format!("**{}**", lang.pick("RATTLED", "ラタルド")));
    }
    parts.push(format!("{} {}", lang.pick("record", "記録"), st.record()));
    if st.off_balance {
        parts.push(lang.pick("OFF BALANCE", "オフバランス").to_string());
    }
    if st.must_recover && !st.knocked_out {
        parts.push(lang.pick("must recover", "要リカバリー").to_string());
    }
    if st.spin_out_pending {
        parts.push(lang.pick("spin-out pending", "スピンアウト未解決").to_string());
    }
    if st.rally_tokens > 0 {
        parts.push(format!("{} ×{}", lang.pick("Rally", "ラリー"), st.rally_tokens));
    }
    if st.laps > 0 {
        parts.push(format!("{} {}", lang.pick("laps", "ラップ"), st.laps));
    }
    if st.finished {
        parts.push(lang.pick("🏁 finished", "🏁 ゴール").to_string());
    }
    parts.join(" · ")
}

fn status_field(st: &GearStatus, lang: Lang) -> (String, String, bool) {
    (st.name.clone(), status_line(st, lang), false)
}

pub fn cause_text(c: SpinOutCause, lang: Lang) -> &'static str {
    let (en, ja) = match c {
        SpinOutCause::HitsZero => ("hits at 0", "ヒット0"),
        SpinOutCause::DefenceAllOnes => ("defence all ones", "防御が全て1"),
        SpinOutCause::ExposedMovement => ("Exposed Movement", "エクスポーズド・ムーブメント"),
        SpinOutCause::ExposedCrew => ("Exposed Crew", "エクスポーズド・クルー"),
        SpinOutCause::Impact => ("Impact", "インパクト"),
        SpinOutCause::OffBalance => ("hit while off balance", "オフバランス中の被弾"),
        SpinOutCause::Collision => ("collision", "衝突"),
        SpinOutCause::SpecialMoveAllOnes => ("special move all ones", "特殊移動が全て1"),
        SpinOutCause::PushFumble => ("push fumble", "プッシュのファンブル"),
        SpinOutCause::JumpBlocked => ("jump landed on an obstacle", "ジャンプの着地点に障害物"),
    };
    lang.pick(en, ja)
}

pub fn change_text(c: &Change, lang: Lang) -> String {
    match (c, lang) {
        (Change::HullLost { hits }, Lang::En) => format!("−{hits} Hull"),
        (Change::HullLost { hits }, Lang::Ja) => format!("ハル−{hits}"),
        (Change::StructureLost { hits }, Lang::En) => format!("−{hits} Structure"),
        (Change::StructureLost { hits }, Lang::Ja) => format!("ストラクチャー−{hits}"),
        (Change::ExcessDamage { hits }, Lang::En) => format!("{hits} excess damage → skid"),
        (Change::ExcessDamage { hits }, Lang::Ja) => format!("超過ダメージ{hits} → スキッド"),
        (Change::Rattled { record }, Lang::En) => format!("**RATTLED** (rattle #{record})"),
        (Change::Rattled { record }, Lang::Ja) => format!("**ラタルド**（{record}回目）"),
        (Change::RattleIgnored, _) => lang
            .pick("already rattled this turn", "このターン既にラタルド")
            .into(),
        (Change::DroppedToCruising, _) => lang
            .pick(
                "rattled: cruising speed from now on",
                "ラタルド：以後クルージング・スピード",
            )
            .into(),
        (Change::PermanentlyRattled, _) => lang.pick("rattled for the race", "以後ずっとラタルド").into(),
        (Change::KnockedOut, _) => format!("**{}**", lang.pick("KNOCKED OUT", "ノックアウト")),
        (Change::OffBalance, _) => lang.pick("off balance", "オフバランス").into(),
        (Change::SpinOutDue { cause }, Lang::En) => format!("spins out ({})", cause_text(*cause, lang)),
        (Change::SpinOutDue { cause }, Lang::Ja) => format!("スピンアウト（{}）", cause_text(*cause, lang)),
        (Change::SpinOutIgnored { cause }, Lang::En) => {
            format!("no second spin-out this round ({})", cause_text(*cause, lang))
        }
        (Change::SpinOutIgnored { cause }, Lang::Ja) => {
            format!(
                "このラウンド2度目のスピンアウトは無し（{}）",
                cause_text(*cause, lang)
            )
        }
        (Change::SpunOut { skid }, Lang::En) => format!("spun out, skids {skid} hexes"),
        (Change::SpunOut { skid }, Lang::Ja) => format!("スピンアウト、{skid}ヘクス スキッド"),
        (Change::SpinOutRecovered, _) => lang.pick("recovered from the spin (6)", "6で立て直した").into(),
        (Change::ActivationEnded, _) => lang.pick("activation ended", "アクティベーション終了").into(),
        (Change::Recovered { hits }, Lang::En) => format!("+{hits} hits"),
        (Change::Recovered { hits }, Lang::Ja) => format!("ヒット+{hits}"),
        (Change::RattledTokenRemoved, _) => lang.pick("rattled token removed", "ラタルド解除").into(),
        (Change::OffBalanceCleared, _) => lang.pick("back in balance", "オフバランス解除").into(),
        (Change::ActionRegained, _) => lang.pick("action regained", "アクション回復").into(),
        (Change::RallyTokens { tokens }, Lang::En) => format!("+{tokens} Rally token(s)"),
        (Change::RallyTokens { tokens }, Lang::Ja) => format!("ラリー・トークン+{tokens}"),
        (Change::LapCompleted { laps }, Lang::En) => format!("lap {laps} completed"),
        (Change::LapCompleted { laps }, Lang::Ja) => format!("{laps}ラップ完了"),
        (Change::Finished { round }, Lang::En) => format!("🏁 finished in round {round}"),
        (Change::Finished { round }, Lang::Ja) => format!("🏁 ラウンド{round}でゴール"),
    }
}

pub fn changes_text(changes: &[Change], lang: Lang) -> String {
    changes
        .iter()
        .map(|c| change_text(c, lang))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn spin_out_text(s: &SpinOutOutcome, lang: Lang) -> String {
    let causes: Vec<&str> = s.causes.iter().map(|c| cause_text(*c, lang)).collect();
    let who = match (s.direction_by, lang) {
        (Chooser::Owner, _) => lang.pick("owner", "本人"),
        (Chooser::Attacker, _) => lang.pick("attacker", "攻撃側"),
        (Chooser::LeftPlayer, _) => lang.pick("player to the left", "左隣のプレイヤー"),
    };
    let mut t = match lang {
        Lang::En => format!(
            "🌀 Spin-out ({}): turns {} → {} hexside(s), direction by {who}",
            causes.join(", "),
            dice_text(&s.turn_dice, None),
            s.turns
        ),
        Lang::Ja => format!(
            "🌀 スピンアウト（{}）：向き {} → {}ヘクスサイド、方向は{who}が決める",
            causes.join("、"),
            dice_text(&s.turn_dice, None),
            s.turns
        ),
    };
    if s.recovered {
        t.push_str(lang.pick(
            "\n6: recovered — no skid, +1 Rally token",
            "\n6：立て直し — スキッド無し、ラリー・トークン+1",
        ));
    } else {
        let die = s.skid_die.map_or_else(|| "—".to_string(), |d| format!("[{d}]"));
        t.push_str(&match lang {
            Lang::En => format!("\nskid {die} + {} excess = **{} hexes**", s.excess, s.skid),
            Lang::Ja => format!("\nスキッド {die} + 超過{} = **{}ヘクス**", s.excess, s.skid),
        });
    }
    t
}

pub fn damage_text(d: &DamageOutcome, lang: Lang) -> String {
    let heat = if d.heat {
        lang.pick(" (Heat: 6 = 2)", "（ヒート：6は2）")
    } else {
        ""
    };
    match lang {
        Lang::En => format!(
            "MOS {} {:+} = {} dice{heat}\n{} → **{} damage**",
            d.mos,
            d.modifier,
            d.dice_count.max(0),
            dice_text(&d.dice, Rating::new(4).ok()),
            d.damage
        ),
        Lang::Ja => format!(
            "MOS {} {:+} = {}個{heat}\n{} → **{}ダメージ**",
            d.mos,
            d.modifier,
            d.dice_count.max(0),
            dice_text(&d.dice, Rating::new(4).ok()),
            d.damage
        ),
    }
}

/// Margin headline: "**MOS 2** — hit" / "**MOF 1** — miss".
pub fn margin_text(margin: Option<i32>, lang: Lang) -> String {
    match margin {
        Some(m) if m >= 0 => format!("## MOS {m} — {}", lang.pick("HIT", "命中")),
        Some(m) => format!("## MOF {} — {}", m.unsigned_abs(), lang.pick("MISS", "失敗")),
        None => format!("## {}", lang.pick("MISS (automatic failure)", "失敗（自動失敗）")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_are_marked() {
        let r = Rating::new(4).ok();
        assert_eq!(dice_text(&[5, 1, 3], r), "[**5**, ~~1~~, 3]");
        assert_eq!(dice_text(&[], r), "—");
    }

    #[test]
    fn margins_are_headlines() {
        assert!(margin_text(Some(2), Lang::En).contains("MOS 2"));
        assert!(margin_text(Some(-1), Lang::Ja).contains("MOF 1"));
    }
}

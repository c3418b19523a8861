//! Badlands Rally results: both sides' dice and results, the margin (MOS/MOF) up front, damage
//! dice, and each affected gear's status line (Hull/Structure boxes, RATTLED, the rattle record
//! k/6 or k/5, off balance, KNOCKED OUT).

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

pub fn attack_view(r: &RaceAttackReport, attacker: &str, defender: &str, lang: Lang) -> EmbedView {
    let a = &r.attack;
    let what = match (&a.kind, &a.weapon) {
        (AttackKind::Push, _) => lang.pick("Push", "プッシュ").to_string(),
        (_, Some(w)) => w.name.clone(),
        (_, None) => lang.pick("Attack", "攻撃").to_string(),
    };
    let mut description = margin_text(a.margin, lang);
    if a.range == RangeBand::OutOfRange {
        description.push_str(lang.pick(
            "\nBeyond maximum range: the attack fails.",
            "\n最大レンジ外：攻撃は失敗。",
        ));
    }
    if let Some(h) = a.push_hexes {
        description.push_str(&match lang {
            Lang::En => format!("\nPush up to **{h}** hexes."),
            Lang::Ja => format!("\n最大**{h}**ヘクス押し出せる。"),
        });
    }
    if a.attacker_fumble {
        description.push_str(lang.pick(
            "\n⚠ Push fumble: the attacker spins out.",
            "\n⚠ プッシュのファンブル：攻撃側がスピンアウト。",
        ));
    }
    let mut fields = Vec::new();
    if let Some(c) = &a.attack {
        fields.push((
            format!("{} — {attacker}", lang.pick("Attack", "攻撃")),
            check_text(c, lang),
            true,
        ));
    }
    if let Some(c) = &a.defence {
        fields.push((
            format!("{} — {defender}", lang.pick("Defence", "防御")),
            check_text(c, lang),
            true,
        ));
    }
    if let Some(d) = &a.damage {
        fields.push((
            lang.pick("Damage", "ダメージ").to_string(),
            damage_text(d, lang),
            false,
        ));
    }
    if let Some(b) = &a.blast {
        fields.push((
            lang.pick("Blast", "ブラスト").to_string(),
            format!("{} → **{}**", dice_text(&[b.die], Rating::new(4).ok()), b.damage),
            true,
        ));
    }
    if let Some(share) = a.area_damage {
        fields.push((
            lang.pick("Area Effect", "エリア・エフェクト").to_string(),
            match lang {
                Lang::En => format!("adjacent gears take {share}"),
                Lang::Ja => format!("隣接ギアに{share}ダメージ"),
            },
            true,
        ));
    }
    for (name, changes, spin) in [
        (defender, &r.defender_changes, &r.defender_spin_out),
        (attacker, &r.attacker_changes, &r.attacker_spin_out),
    ] {
        let mut lines = Vec::new();
        if !changes.is_empty() {
            lines.push(changes_text(changes, lang));
        }
        if let Some(s) = spin {
            lines.push(spin_out_text(s, lang));
        }
        if !lines.is_empty() {
            fields.push((format!("→ {name}"), lines.join("\n"), false));
        }
    }
    for (id, changes, spin) in &r.adjacent {
        let mut lines = vec![changes_text(changes, lang)];
        if let Some(s) = spin {
            lines.push(spin_out_text(s, lang));
        }
        fields.push((format!("→ {id}"), lines.join("\n"), false));
    }
    fields.push(status_field(&r.attacker_status, lang));
    fields.push(status_field(&r.defender_status, lang));
    EmbedView {
        title: format!("⚔ {attacker} → {defender} ({what})"),
        description,
        colour: if a.hit { colour::SUCCESS } else { colour::FAILURE },
        fields,
        footer: None,
    }
}

fn roll_line(r: &RollOutcome, lang: Lang) -> String {
    let mut s = format!(
        "{} @ {}+\n{} → **{}** {}",
        pool_text(&r.pool, lang),
        r.rating.value(),
        dice_text(&r.dice, Some(r.rating)),
        r.successes,
        lang.pick("successes", "成功")
    );
    if r.automatic_failure {
        s.push_str(&format!("\n{}", auto_fail(lang)));
    }
    if r.all_ones {
        s.push_str(&format!("\n{}", all_ones(lang)));
    }
    s
}

pub fn action_view(title: &str, r: &ActionReport, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    let mut colour = colour::NEUTRAL;
    let description = match &r.outcome {
        ActionOutcome::BurnRubber(b) => {
            if let Some(s) = &b.spin_out {
                fields.push((
                    lang.pick("Spin-out", "スピンアウト").into(),
                    spin_out_text(s, lang),
                    false,
                ));
            }
            colour = if b.mr_gained > 0 {
                colour::SUCCESS
            } else {
                colour::FAILURE
            };
            format!("{}\n## +{} MR", roll_line(&b.roll, lang), b.mr_gained)
        }
        ActionOutcome::Jump(j) => {
            if let Some(s) = &j.spin_out {
                fields.push((
                    lang.pick("Spin-out", "スピンアウト").into(),
                    spin_out_text(s, lang),
                    false,
                ));
            }
            colour = if j.hexes_jumped > 0 {
                colour::SUCCESS
            } else {
                colour::FAILURE
            };
            // Older stored reports have no mr_spent: it was the hexes moved.
            let mr = j.mr_spent.max(j.hexes_moved);
            let mut s = match lang {
                Lang::En => format!(
                    "{}\n## {} hexes jumped ({} MR spent)",
                    roll_line(&j.roll, lang),
                    j.hexes_jumped,
                    mr
                ),
                Lang::Ja => format!(
                    "{}\n## {}ヘクス ジャンプ（MR{}消費）",
                    roll_line(&j.roll, lang),
                    j.hexes_jumped,
                    mr
                ),
            };
            if j.stopped_short {
                s.push_str(lang.pick(
                    "\nThe landing hex was taken: stopped in the hex before it and spun out.",
                    "\n着地点に障害物：直前のヘクスに停止し、スピンアウト。",
                ));
            }
            s
        }
        ActionOutcome::Recover(rc) => {
            let die = rc.die.map_or_else(
                || {
                    lang.pick("fixed 1 (action already spent)", "固定1（アクション使用済み）")
                        .to_string()
                },
                |d| dice_text(&[d], None),
            );
            colour = colour::SUCCESS;
            let mut s = match lang {
                Lang::En => format!("{die}\n## +{} hits", rc.healed),
                Lang::Ja => format!("{die}\n## ヒット+{}", rc.healed),
            };
            if rc.action_regained {
                s.push_str(lang.pick("\n6: the action comes back.", "\n6：アクションが戻る。"));
            }
            s
        }
        ActionOutcome::RallyTheCrowd { tokens } => match lang {
            Lang::En => format!("## Rally the Crowd: {tokens} token(s)"),
            Lang::Ja => format!("## ラリー・ザ・クラウド：トークン{tokens}"),
        },
        ActionOutcome::OffRoad(roll) => match lang {
            Lang::En => format!(
                "{}\nIgnore {} rough hexes this activation.",
                roll_line(roll, lang),
                roll.successes
            ),
            Lang::Ja => format!(
                "{}\nこのアクティベーション中、ラフ{}ヘクスを無視。",
                roll_line(roll, lang),
                roll.successes
            ),
        },
        ActionOutcome::Move(m) => match lang {
            Lang::En => format!("{} MR spent", m.mr),
            Lang::Ja => format!("MR{}消費", m.mr),
        },
        ActionOutcome::SpinOut(s) => {
            colour = if s.recovered {
                colour::SUCCESS
            } else {
                colour::WARNING
            };
            spin_out_text(s, lang)
        }
        ActionOutcome::UseReliable => lang
            .pick("Reliable used for this lap.", "このラップのリライアブルを使用。")
            .into(),
    };
    if let Some(c) = &r.collision {
        // A jump that came down on a gear or terrain: both collision rolls.
        fields.push((
            lang.pick("Collision", "衝突").into(),
            collision_roll_text(&c.outcome.moving, lang),
            false,
        ));
        if let Some(roll) = &c.outcome.struck {
            let mut lines = vec![collision_roll_text(roll, lang)];
            if !c.struck_changes.is_empty() {
                lines.push(changes_text(&c.struck_changes, lang));
            }
            if let Some(so) = &c.struck_spin_out {
                lines.push(spin_out_text(so, lang));
            }
            fields.push((
                lang.pick("Gear landed on", "着地点のギア").into(),
                lines.join("\n"),
                false,
            ));
        }
    }
    if !r.changes.is_empty() {
        fields.push((
            lang.pick("Changes", "変化").into(),
            changes_text(&r.changes, lang),
            false,
        ));
    }
    fields.push(status_field(&r.status, lang));
    EmbedView {
        title: title.to_string(),
        description,
        colour,
        fields,
        footer: None,
    }
}

/// A state change without dice (activate, end, lap, hand-entered damage).
pub fn changes_view(title: &str, changes: &[Change], st: &GearStatus, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    if !changes.is_empty() {
        fields.push((
            lang.pick("Changes", "変化").into(),
            changes_text(changes, lang),
            false,
        ));
    }
    fields.push(status_field(st, lang));
    EmbedView {
        title: title.to_string(),
        colour: colour::NEUTRAL,
        fields,
        ..Default::default()
    }
}

pub fn damage_view(d: &DamageOutcome, target: Option<(&[Change], &GearStatus)>, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    if let Some((changes, st)) = target {
        if !changes.is_empty() {
            fields.push((
                lang.pick("Changes", "変化").into(),
                changes_text(changes, lang),
                false,
            ));
        }
        fields.push(status_field(st, lang));
    }
    EmbedView {
        title: format!("💥 {}", lang.pick("Damage", "ダメージ")),
        description: damage_text(d, lang),
        colour: if d.damage > 0 {
            colour::SUCCESS
        } else {
            colour::FAILURE
        },
        fields,
        footer: None,
    }
}

/// `play`: the stored play order (the winner, then clockwise), shown beside the ranking.
pub fn initiative_view(out: &InitiativeOutcome, play: &[String], round: u32, lang: Lang) -> EmbedView {
    let title = match (out.kind, lang) {
        (InitiativeKind::Pole, _) => format!("🏁 {}", lang.pick("Pole position", "ポール・ポジション")),
        (InitiativeKind::Contested, _) => format!("🏁 {}", lang.pick("Contested victory", "僅差勝利")),
        (InitiativeKind::Round, Lang::En) => format!("🏁 Initiative — round {round}"),
        (InitiativeKind::Round, Lang::Ja) => format!("🏁 イニシアチブ — ラウンド{round}"),
    };
    let lines: Vec<String> = out
        .order
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let checks: Vec<String> = e
                .checks
                .iter()
                .map(|c| {
                    format!(
                        "{} @{}+ → {}",
                        dice_text(&c.dice, Some(c.rating)),
                        c.rating.value(),
                        c.result
                    )
                })
                .collect();
            let penalty = if e.penalty > 0 {
                format!(" −{}", e.penalty)
            } else {
                String::new()
            };
            // Reliable: the check it replaced, struck through.
            let reliable = match &e.reliable {
                Some(old) => format!(
                    "  ({} ~~{}~~)",
                    lang.pick("Reliable, was", "リライアブル、元は"),
                    old.result
                ),
                None => String::new(),
            };
            format!(
                "{}. **{}** — **{}**{penalty}  {}{reliable}",
                i + 1,
                e.id,
                e.score,
                checks.join(" ⟳ ")
            )
        })
        .collect();
    let mut fields = Vec::new();
    let play_label = match out.kind {
        InitiativeKind::Pole => Some(lang.pick("Placement order (clockwise)", "配置順（左回り）")),
        InitiativeKind::Round => Some(lang.pick("Play order (clockwise)", "行動順（左回り）")),
        InitiativeKind::Contested => None,
    };
    if let Some(label) = play_label.filter(|_| play.len() > 1) {
        fields.push((label.to_string(), play.join(" → "), false));
    }
    for t in &out.tie_breaks {
        let (ids, how) = match t {
            TieBreak::Position { ids } => (
                ids,
                lang.pick("tie: the gear ahead wins", "同値：前にいるギアの勝ち"),
            ),
            TieBreak::Reroll { ids } => (ids, lang.pick("tie: rerolled", "同値：振り直し")),
        };
        fields.push((how.to_string(), ids.join(", "), false));
    }
    EmbedView {
        title,
        description: lines.join("\n"),
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

pub fn scenario_view(out: &ScenarioOutcome, lang: Lang) -> EmbedView {
    let laps = match out.laps_die {
        Some(d) => format!("{} → **{}**", dice_text(&[d], None), out.laps),
        None => format!("**{}**", out.laps),
    };
    EmbedView {
        title: format!(
            "🏁 {}: {}",
            lang.pick("Scenario", "シナリオ"),
            out.scenario.name(lang)
        ),
        description: format!(
            "{} → {}\n{}",
            dice_text(&[out.die], None),
            out.scenario.name(lang),
            out.scenario.special_rule(lang)
        ),
        colour: colour::NEUTRAL,
        fields: vec![(lang.pick("Laps", "ラップ数").into(), laps, true)],
        footer: None,
    }
}

pub fn upgrade_view(out: &UpgradeOutcome, applied: Option<&str>, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    if let Some(note) = applied {
        fields.push((lang.pick("Sheet", "シート").into(), note.to_string(), false));
    }
    EmbedView {
        title: format!(
            "🔧 {}: {}",
            lang.pick("Upgrade", "アップグレード"),
            out.upgrade.name(lang)
        ),
        description: format!(
            "{} → **{}**\n{}",
            dice_text(&[out.die], None),
            out.upgrade.name(lang),
            out.upgrade.description(lang)
        ),
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

pub fn victory_text(v: &Victory, lang: Lang) -> Option<String> {
    match (v, lang) {
        (Victory::None, _) => None,
        (Victory::Uncontested { id }, Lang::En) => Some(format!("🏆 {id} wins")),
        (Victory::Uncontested { id }, Lang::Ja) => Some(format!("🏆 {id} の勝利")),
        (Victory::Derby { id }, Lang::En) => Some(format!("🏆 {id} wins the Derby")),
        (Victory::Derby { id }, Lang::Ja) => Some(format!("🏆 {id} がダービーに勝利")),
        (Victory::Contested { ids }, Lang::En) => {
            Some(format!("Contested victory: {} (/rally victory)", ids.join(", ")))
        }
        (Victory::Contested { ids }, Lang::Ja) => {
            Some(format!("僅差勝利の判定: {}（/rally victory）", ids.join("、")))
        }
        (Victory::RoundNotOver { round, ids }, Lang::En) => Some(format!(
            "🏁 {} in round {round}: the winner is judged when the round ends",
            ids.join(", ")
        )),
        (Victory::RoundNotOver { round, ids }, Lang::Ja) => Some(format!(
            "🏁 {}（ラウンド{round}）：勝敗はラウンド終了時に判定",
            ids.join("、")
        )),
    }
}

/// The race board: the race (scenario, laps, pole), order and round, the victory if any, then
/// one status line per gear (roster order) with its laps k/N and, in a Derby, its spin-outs
/// caused k/6.
pub fn board_fields(
    order: &[String],
    round: u32,
    race: &RaceState,
    lang: Lang,
) -> Vec<(String, String, bool)> {
    let mut fields = Vec::new();
    let mut facts = vec![match race.scenario {
        Some(sc) => sc.name(lang).to_string(),
        None => lang
            .pick(
                "no scenario yet (/rally scenario)",
                "シナリオ未決定（/rally scenario）",
            )
            .to_string(),
    }];
    facts.push(match lang {
        Lang::En => format!("{} laps", race.laps),
        Lang::Ja => format!("{}ラップ", race.laps),
    });
    if let Some(p) = &race.pole {
        facts.push(match lang {
            Lang::En => format!("pole: {p}"),
            Lang::Ja => format!("ポール：{p}"),
        });
    }
    fields.push((lang.pick("Race", "レース").into(), facts.join(" · "), false));
    let order_text = if order.is_empty() {
        lang.pick(
            "no initiative yet (/rally initiative)",
            "イニシアチブ未決定（/rally initiative）",
        )
        .to_string()
    } else {
        order
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{}. {n}", i + 1))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let title = match lang {
        Lang::En => format!("🏁 Order — round {round}"),
        Lang::Ja => format!("🏁 順番 — ラウンド{round}"),
    };
    fields.push((title, order_text, false));
    if let Some(v) = victory_text(&race.victory(), lang) {
        fields.push((lang.pick("Victory", "勝敗").into(), v, false));
    }
    let derby = race.scenario == Some(Scenario::Derby);
    for (id, st) in race.board() {
        let laps = match lang {
            Lang::En => format!("lap {}/{}", st.laps, race.laps),
            Lang::Ja => format!("{}/{}ラップ", st.laps, race.laps),
        };
        let mut line = status_line(&st, lang);
        if derby {
            line.push_str(&match lang {
                Lang::En => format!(" · 🌀 spin-outs caused {}/{DERBY_SPIN_OUTS}", st.spin_outs_caused),
                Lang::Ja => format!(
                    " · 🌀 スピンアウトさせた数 {}/{DERBY_SPIN_OUTS}",
                    st.spin_outs_caused
                ),
            });
        }
        fields.push((format!("{id} ({laps})"), line, false));
    }
    fields
}

fn cause_name(c: CollisionCause, lang: Lang) -> String {
    match (c, lang) {
        (CollisionCause::Push { mos }, Lang::En) => format!("push, MOS {mos}"),
        (CollisionCause::Push { mos }, Lang::Ja) => format!("プッシュ、MOS {mos}"),
        (CollisionCause::Jump { dice }, Lang::En) => format!("jump, {dice} dice"),
        (CollisionCause::Jump { dice }, Lang::Ja) => format!("ジャンプ、{dice}個"),
        (CollisionCause::Skid { distance }, Lang::En) => format!("skid, {distance} hexes"),
        (CollisionCause::Skid { distance }, Lang::Ja) => format!("スキッド、{distance}ヘクス"),
    }
}

fn collision_roll_text(r: &CollisionRoll, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{} dice {} → **{} damage**",
            r.dice_count.max(0),
            dice_text(&r.dice, Rating::new(4).ok()),
            r.damage
        ),
        Lang::Ja => format!(
            "{}個 {} → **{}ダメージ**",
            r.dice_count.max(0),
            dice_text(&r.dice, Rating::new(4).ok()),
            r.damage
        ),
    }
}

/// A collision: each gear's damage dice, what changed, spin-outs, status lines.
pub fn collision_view(
    r: &CollisionReport,
    moving: (&str, &GearStatus),
    struck: Option<(&str, &GearStatus)>,
    lang: Lang,
) -> EmbedView {
    let target = match struck {
        Some((id, _)) => id.to_string(),
        None => lang.pick("terrain", "地形").to_string(),
    };
    let description = match lang {
        Lang::En => format!(
            "{} (terrain: always 2D6; gear against gear: ± the AR difference)",
            cause_name(r.outcome.cause, lang)
        ),
        Lang::Ja => format!(
            "{}（地形は常に2D6、ギア同士はAR差を加減）",
            cause_name(r.outcome.cause, lang)
        ),
    };
    let mut fields = Vec::new();
    let sides = [
        Some((moving.0, &r.outcome.moving, &r.moving_changes, &r.moving_spin_out)),
        struck.and_then(|(id, _)| {
            r.outcome
                .struck
                .as_ref()
                .map(|roll| (id, roll, &r.struck_changes, &r.struck_spin_out))
        }),
    ];
    for (id, roll, changes, spin) in sides.into_iter().flatten() {
        let mut lines = vec![collision_roll_text(roll, lang)];
        if !changes.is_empty() {
            lines.push(changes_text(changes, lang));
        }
        if let Some(s) = spin {
            lines.push(spin_out_text(s, lang));
        }
        fields.push((format!("→ {id}"), lines.join("\n"), false));
    }
    if let Some((by, n)) = &r.caused_by {
        let mut line = match lang {
            Lang::En => format!("{by}: +{n}"),
            Lang::Ja => format!("{by}：+{n}"),
        };
        if !r.by_changes.is_empty() {
            line.push_str(" · ");
            line.push_str(&changes_text(&r.by_changes, lang));
        }
        fields.push((
            lang.pick("Spin-outs caused", "スピンアウトさせた数").into(),
            line,
            false,
        ));
    }
    fields.push(status_field(moving.1, lang));
    if let Some((_, st)) = struck {
        fields.push(status_field(st, lang));
    }
    let damage = r.outcome.moving.damage + r.outcome.struck.as_ref().map_or(0, |s| s.damage);
    EmbedView {
        title: format!("💥 {} → {target} ({})", moving.0, lang.pick("collision", "衝突")),
        description,
        colour: if damage > 0 {
            colour::WARNING
        } else {
            colour::NEUTRAL
        },
        fields,
        footer: None,
    }
}

/// `/rally victory`: who has won, and the contested-victory checks when it was close.
pub fn victory_view(v: &Victory, contest: Option<&InitiativeOutcome>, lang: Lang) -> EmbedView {
    let mut view = match contest {
        Some(out) => initiative_view(out, &[], 0, lang),
        None => EmbedView {
            title: format!("🏁 {}", lang.pick("Victory", "勝敗")),
            colour: colour::NEUTRAL,
            ..Default::default()
        },
    };
    let headline = match (contest.and_then(InitiativeOutcome::winner), lang) {
        (Some(id), Lang::En) => format!("## 🏆 {id} wins"),
        (Some(id), Lang::Ja) => format!("## 🏆 {id} の勝利"),
        (None, _) => match victory_text(v, lang) {
            Some(t) => format!("## {t}"),
            None => lang
                .pick("No gear has finished yet.", "まだゴールしたギアはありません。")
                .to_string(),
        },
    };
    view.description = if view.description.is_empty() {
        headline
    } else {
        format!("{headline}\n{}", view.description)
    };
    if contest.is_some() || !matches!(v, Victory::None) {
        view.colour = colour::SUCCESS;
    }
    view
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

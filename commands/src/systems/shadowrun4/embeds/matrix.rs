//! Cybercombat, hacking on the fly, matrix perception and rigger feedback.

use super::*;

pub fn cybercombat_view(o: &CybercombatOutcome, lang: Lang) -> EmbedView {
    let target = match o.target {
        MatrixTarget::Icon => lang.pick("icon", "アイコン").to_string(),
        MatrixTarget::BlackIc { damage_type: t } => format!(
            "{} ({})",
            lang.pick("black IC", "ブラックIC"),
            damage_type(t, lang)
        ),
    };
    let mut fields = vec![
        f(lang.pick("Attack", "攻撃"), rolled_text(&o.attack, lang)),
        f(lang.pick("Defence", "防御"), opt_rolled(&o.defence, lang)),
        fi(lang.pick("Net hits", "純ヒット"), format!("**{}**", o.net_hits)),
    ];
    if o.hit {
        fields.push(f(lang.pick("Resist", "抵抗"), opt_rolled(&o.resist, lang)));
        fields.push(fi(
            lang.pick("Damage", "ダメージ"),
            format!("DV {} − {} = **{}**", o.modified_dv, o.resist_hits, o.boxes),
        ));
    } else {
        fields.push(fi(
            lang.pick("Result", "結果"),
            format!("**{}**", lang.pick("Miss", "回避")),
        ));
    }
    let (title, colour) = headline_of(
        format!("🖥️ {} → {target}", lang.pick("Cybercombat", "サイバー戦闘")),
        &[
            rg(lang.pick("attacker", "攻撃側"), &o.attack),
            rg_opt(lang.pick("defender", "防御側"), &o.defence),
            rg_opt(lang.pick("resist", "抵抗"), &o.resist),
        ],
        Some(o.hit),
        lang,
    );
    view(title, colour, String::new(), fields)
}

/// Seed 7.2: a jumped-in rigger resists ⌈drone damage ÷ 2⌉ Stun.
pub fn feedback_view(o: &DrainOutcome, drone_damage: u32, rigger: Option<&str>, lang: Lang) -> EmbedView {
    let title = lang.pick("Rigger feedback", "リガーへのフィードバック");
    let (title, colour) = headline_of(
        who(rigger, title),
        &[rg_opt(lang.pick("resist", "抵抗"), &o.roll)],
        None,
        lang,
    );
    let fields = vec![
        fi(
            lang.pick("Drone damage", "機器のダメージ"),
            format!("{drone_damage} ÷ 2 → {}", o.value),
        ),
        f(lang.pick("Resist", "抵抗"), drain_text(o, lang)),
    ];
    view(title, colour, String::new(), fields)
}

fn extended_lines(o: &ExtendedOutcome, lang: Lang) -> String {
    let mut s = parts_text(&o.parts, i64::from(o.pool), lang);
    for (i, iv) in o.intervals.iter().enumerate().take(20) {
        s.push_str(&format!(
            "\n#{} {} Σ {}",
            i + 1,
            dice_text(&iv.roll, lang),
            iv.total
        ));
        if let Some(g) = glitch_text(iv.roll.glitch, lang) {
            s.push_str(&format!(" **{g}**"));
        }
    }
    s.push_str(&format!(
        "\n{} {}/{}",
        lang.pick("Total", "合計"),
        o.total_hits,
        o.threshold
    ));
    s
}

/// How a hack ended (the result field and the log's summary).
pub fn hack_result_words(r: HackResult, lang: Lang) -> &'static str {
    match r {
        HackResult::HackerIn => lang.pick("In, undetected", "侵入成功・未発見"),
        HackResult::InButDetected => lang.pick("In, but detected", "侵入したが発見された"),
        HackResult::Detected => lang.pick("Detected first", "先に発見された"),
        HackResult::HackerGlitched => {
            lang.pick("Critical glitch: the hack fails", "クリティカル・グリッチで失敗")
        }
        HackResult::OutOfPasses => lang.pick("Out of passes", "パス切れ"),
    }
}

pub fn hack_view(o: &HackOutcome, lang: Lang) -> EmbedView {
    let text = hack_result_words(o.result, lang);
    let ok = matches!(o.result, HackResult::HackerIn | HackResult::InButDetected);
    let glitch = if o.result == HackResult::HackerGlitched {
        Glitch::Critical
    } else {
        Glitch::None
    };
    let (title, colour) = headline(
        format!("🖥️ {}", lang.pick("Hacking on the fly", "即興ハッキング")),
        glitch,
        Some(ok),
        lang,
    );
    view(
        title,
        colour,
        String::new(),
        vec![
            f(
                lang.pick("Hacker (vs Firewall)", "ハッカー（対ファイアウォール）"),
                extended_lines(&o.hacker, lang),
            ),
            f(
                lang.pick("Node (vs Stealth)", "ノード（対ステルス）"),
                extended_lines(&o.node, lang),
            ),
            fi(lang.pick("Passes", "パス"), o.passes.to_string()),
            fi(lang.pick("Result", "結果"), format!("**{text}**")),
        ],
    )
}

pub fn search_view(o: &SearchOutcome, title: &str, lang: Lang) -> EmbedView {
    let found = o.found();
    match o {
        SearchOutcome::Open(s) => {
            let mut v = test_view(s, None, lang);
            v.title = v.title.replace(lang.pick("Success test", "成功テスト"), title);
            v
        }
        SearchOutcome::Hidden(x) => {
            let mut v = opposed_view(x, None, Some(lang.pick("Hidden", "隠れている側")), lang);
            v.title = v.title.replace(lang.pick("Opposed test", "対抗テスト"), title);
            if let Some(fnd) = found {
                v.fields.push(fi(
                    lang.pick("Found", "発見"),
                    lang.pick(
                        if fnd { "yes" } else { "no" },
                        if fnd { "はい" } else { "いいえ" },
                    )
                    .to_string(),
                ));
            }
            v
        }
    }
}

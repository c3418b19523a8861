//! Sensor and crash tests, chase range bands and the chase manoeuvres.

use super::*;

pub fn crash_view(o: &CrashOutcome, lang: Lang) -> EmbedView {
    match &o.test {
        None => view(
            format!("🚗 {}", lang.pick("Crash test", "クラッシュ・テスト")),
            colour::SUCCESS,
            lang.pick(
                "Damage below the vehicle's Body: no crash test.",
                "ダメージが車両の強靭力未満なのでテスト不要です。",
            )
            .to_string(),
            vec![],
        ),
        Some(t) => {
            let mut v = test_view(t, None, lang);
            v.title = v.title.replace(
                lang.pick("Success test", "成功テスト"),
                lang.pick("Crash test", "クラッシュ・テスト"),
            );
            v.fields.push(fi(
                lang.pick("Crashed", "クラッシュ"),
                format!(
                    "**{}**",
                    lang.pick(
                        if o.crashed { "yes" } else { "no" },
                        if o.crashed { "はい" } else { "いいえ" }
                    )
                ),
            ));
            v
        }
    }
}

/// Seed 7.6's bands, with the weapon range each counts as.
pub fn band(b: RangeBand, lang: Lang) -> &'static str {
    match b {
        RangeBand::Close => lang.pick(
            "Close (ramming; weapons at short range)",
            "至近距離（体当たり可・射撃は近距離扱い）",
        ),
        RangeBand::Near => lang.pick("Near (weapons at medium range)", "近距離（射撃は中距離扱い）"),
        RangeBand::Far => lang.pick(
            "Far (within sight; weapons at long range)",
            "遠距離（視認できる距離・射撃は遠距離扱い）",
        ),
    }
}

/// Who won a chase test (the winner field and the log's summary).
pub fn chase_winner_words(w: ChaseWinner, lang: Lang) -> &'static str {
    match w {
        ChaseWinner::First => lang.pick("Chaser", "追跡側"),
        ChaseWinner::Second => lang.pick("Quarry", "逃走側"),
        ChaseWinner::Neither => lang.pick("Neither", "なし"),
    }
}

pub fn chase_view(o: &ChaseOutcome, lang: Lang) -> EmbedView {
    let mut v = opposed_view(
        &o.test,
        Some(lang.pick("Chaser", "追跡側")),
        Some(lang.pick("Quarry", "逃走側")),
        lang,
    );
    v.title = v.title.replace(
        lang.pick("Opposed test", "対抗テスト"),
        lang.pick("Chase", "チェイス"),
    );
    v.fields.push(fi(
        lang.pick("Winner", "勝者"),
        chase_winner_words(o.winner, lang).to_string(),
    ));
    v.fields.push(fi(
        lang.pick("Range band", "距離帯"),
        format!("**{}**", band(o.band, lang)),
    ));
    v
}

fn yes_no(b: bool, lang: Lang) -> &'static str {
    lang.pick(if b { "yes" } else { "no" }, if b { "はい" } else { "いいえ" })
}

/// Seed 7.7 break away: the test against the threshold (+1 per pursuer), the successes in a
/// row and whether the vehicle escaped.
pub fn break_away_view(o: &BreakAwayOutcome, vehicle: &str, lang: Lang) -> EmbedView {
    let mut v = test_view(&o.test, Some(vehicle), lang);
    v.title = v.title.replace(
        lang.pick("Success test", "成功テスト"),
        lang.pick("Break away", "離脱"),
    );
    v.fields.push(fi(
        lang.pick("In a row", "連続成功"),
        format!(
            "**{}** / {BREAK_AWAY_SUCCESSES}",
            o.successes.min(BREAK_AWAY_SUCCESSES)
        ),
    ));
    v.fields.push(fi(
        lang.pick("Escaped", "離脱成功"),
        format!("**{}**", yes_no(o.escaped, lang)),
    ));
    v
}

/// Seed 7.7 positioning: the hits become dice on the vehicle's next chase test.
pub fn positioning_view(o: &PositioningOutcome, vehicle: &str, lang: Lang) -> EmbedView {
    let mut v = test_view(&o.test, Some(vehicle), lang);
    v.title = v.title.replace(
        lang.pick("Success test", "成功テスト"),
        lang.pick("Positioning", "位置取り"),
    );
    v.fields.push(fi(
        lang.pick("Next chase test", "次のチェイス・テスト"),
        format!("**+{}** {}", o.bonus, lang.pick("dice", "ダイス")),
    ));
    v
}

/// Seed 7.7 cut off: the opposed test, then the loser's crash test with the net hits as a
/// penalty.
pub fn cut_off_view(o: &CutOffOutcome, lang: Lang) -> EmbedView {
    let mut v = opposed_view(
        &o.test,
        Some(lang.pick("Cutting off", "妨害側")),
        Some(lang.pick("Target", "対象")),
        lang,
    );
    v.title = v.title.replace(
        lang.pick("Opposed test", "対抗テスト"),
        lang.pick("Cut off", "進路妨害"),
    );
    match (o.loser, &o.crash_test) {
        (None, _) => v.fields.push(f(
            lang.pick("Crash test", "クラッシュ・テスト"),
            lang.pick("A tie: nobody is cut off.", "同数：進路妨害は起きません。")
                .to_string(),
        )),
        (Some(loser), test) => {
            let who = match loser {
                ChaseWinner::First => lang.pick("Cutting off", "妨害側"),
                _ => lang.pick("Target", "対象"),
            };
            let text = match test {
                Some(t) => rolled_text_or_hits(t, lang),
                None => lang
                    .pick(
                        "no dice left after the penalty: failed",
                        "ペナルティでダイスが残らず失敗",
                    )
                    .to_string(),
            };
            v.fields.push(f(
                &format!("{} ({who})", lang.pick("Crash test", "クラッシュ・テスト")),
                text,
            ));
        }
    }
    v.fields.push(fi(
        lang.pick("Crashed", "クラッシュ"),
        format!("**{}**", yes_no(o.crashed, lang)),
    ));
    if o.crash_test.as_ref().is_some_and(|t| t.glitch != Glitch::None) {
        let (title, colour) = headline(
            v.title.clone(),
            o.crash_test.as_ref().map_or(Glitch::None, |t| t.glitch),
            None,
            lang,
        );
        v.title = title;
        v.colour = colour;
    }
    v
}

fn rolled_text_or_hits(t: &SuccessOutcome, lang: Lang) -> String {
    let dice = t
        .rolled
        .as_ref()
        .map(|r| rolled_text(r, lang))
        .unwrap_or_default();
    format!(
        "{dice}\n{} **{}** / {}",
        lang.pick("Hits", "ヒット"),
        t.hits,
        t.threshold.unwrap_or(0)
    )
}

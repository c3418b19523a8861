//! The notation page of `/help`: every example is typed into `/roll` exactly as shown by a test
//! (`commands/tests/bot/e2e_help.rs`), so help never shows what the bot refuses.

/// `(example, what it does in English, in Japanese)`.
pub const EXAMPLES: &[(&str, &str, &str)] = &[
    ("2d6+3", "two six-sided dice plus 3", "6面体2個＋3"),
    (
        "4d6 k3",
        "keep the highest 3 (also 4d6kh3)",
        "大きい3個を残す（4d6kh3 も可）",
    ),
    (
        "2d20kl1",
        "keep the lowest (kl, dh, dl too)",
        "小さい1個を残す（kl・dh・dl も可）",
    ),
    ("+d20", "advantage: 2d20, the higher", "有利：2d20の大きい方"),
    ("-d20", "disadvantage: 2d20, the lower", "不利：2d20の小さい方"),
    (
        "1d20+5 adv",
        "advantage after the math (Avrae): 2d20kh1+5",
        "計算の後の有利（Avrae）：2d20kh1+5",
    ),
    ("3d6!", "exploding sixes", "6で振り足し"),
    (
        "3d6 e5",
        "explode once on 5+ (ie5: again and again)",
        "5以上で1回振り足し（ie5 は何度でも）",
    ),
    ("6d10 t8", "count successes: 8 or more", "8以上の成功数を数える"),
    (
        "6d10 t8 f1",
        "successes, 1s subtract",
        "成功数、1は成功を1つ減らす",
    ),
    ("4d6 r1", "reroll 1s once", "1を1回振り直す"),
    (
        "4dF",
        "Fate/Fudge dice (−1, 0, +1)",
        "フェイト／ファッジダイス（−1・0・+1）",
    ),
    (
        "2D6>=7",
        "a comparison: success or failure (BCDice)",
        "達成判定：成功か失敗（BCDice）",
    ),
    (
        "3B6>=5",
        "BCDice: each die against 5, successes counted",
        "BCDice：各ダイスを5と比較し成功数を数える",
    ),
    ("1D100<=70", "d100 under a skill", "d100で技能値以下"),
    ("D66", "d66 (tens and units)", "D66（十の位と一の位）"),
    ("3 4d6 k3", "three rolls of 4d6 k3", "4d6 k3 を3回"),
    (
        "dndstats",
        "six D&D ability scores (4d6 k3 ×6)",
        "D&Dの能力値6つ（4d6 k3 ×6）",
    ),
    (
        "(Attack) 1d20+5",
        "a label: the title of the roll",
        "ラベル：ロールのタイトル",
    ),
    (
        "1d20 + 5 [fire]",
        "a bracketed word labels the term before it",
        "角括弧の語は直前の項のラベル",
    ),
    (
        "p 1d20+5",
        "private: only you see the result",
        "非公開：結果は自分だけに表示",
    ),
    (
        "1d20+5 # attack",
        "text after the roll (or after #) is a comment",
        "ロールの後（または # の後）の文字はコメント",
    ),
    (
        "S2d6",
        "secret: the result to you and the GM",
        "シークレット：結果は自分とGMだけに",
    ),
    (
        "choice[rock,paper,scissors]",
        "pick one (BCDice)",
        "1つ選ぶ（BCDice）",
    ),
];

#[cfg(test)]
mod tests {
    use super::EXAMPLES;

    /// What issue 31 found missing from the page: the private flag, advantage, explosions and
    /// both kinds of label.
    #[test]
    fn the_page_shows_private_advantage_explosions_and_labels() {
        for wanted in [
            "p 1d20+5",
            "1d20+5 adv",
            "3d6 e5",
            "(Attack) 1d20+5",
            "1d20 + 5 [fire]",
        ] {
            assert!(EXAMPLES.iter().any(|(e, _, _)| *e == wanted), "{wanted}");
        }
        let ie = EXAMPLES.iter().find(|(e, _, _)| *e == "3d6 e5").unwrap();
        assert!(ie.1.contains("ie5") && ie.2.contains("ie5"));
    }
}

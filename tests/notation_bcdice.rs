//! BCDice commands with exact faces.

use saikoro::dice::FixedRoller;
use saikoro::notation::{CmpOp, Kind, Origin, RollLine, RollOutcome, TallyCount, Target, Verdict, evaluate};

fn roll(input: &str, faces: &[u32]) -> RollOutcome {
    let mut r = FixedRoller::new(faces.iter().copied());
    let o = evaluate(input, &mut r).unwrap_or_else(|e| panic!("{input}: {e}"));
    assert_eq!(r.remaining(), 0, "{input}: faces left over");
    o
}

fn line(input: &str, faces: &[u32]) -> RollLine {
    let o = roll(input, faces);
    assert_eq!(o.lines.len(), 1, "{input}");
    o.lines[0].clone()
}

fn faces(l: &RollLine) -> Vec<u32> {
    l.groups
        .iter()
        .flat_map(|g| g.dice.iter().map(|d| d.face))
        .collect()
}

#[test]
fn sum_with_comparisons() {
    let l = line("2D6+1", &[3, 4]);
    assert_eq!(
        (l.kind, l.total, l.verdict),
        (Kind::Dice, Some(8), None),
        "plain sums read as Dice Maiden"
    );
    let l = line("2D6+1>=8", &[3, 4]);
    assert_eq!((l.kind, l.total), (Kind::Sum, Some(8)));
    assert_eq!(
        l.target,
        Some(Target {
            op: CmpOp::Ge,
            value: 8
        })
    );
    assert_eq!(l.verdict, Some(Verdict::Success));
    assert_eq!(line("2D6+1>=9", &[3, 4]).verdict, Some(Verdict::Failure));
    for (op, pass, fail) in [(">", 6, 7), ("<=", 7, 6), ("<", 8, 7), ("=", 7, 8), ("<>", 8, 7)] {
        assert_eq!(
            line(&format!("2d6{op}{pass}"), &[3, 4]).verdict,
            Some(Verdict::Success),
            "{op}{pass}"
        );
        assert_eq!(
            line(&format!("2d6{op}{fail}"), &[3, 4]).verdict,
            Some(Verdict::Failure),
            "{op}{fail}"
        );
    }
    assert_eq!(line("1d20 >= 10+5", &[15]).verdict, Some(Verdict::Success));
    assert_eq!(line("1D6-3>=-1", &[2]).verdict, Some(Verdict::Success));
}

#[test]
fn sum_with_parenthesised_count() {
    let l = line("(2+1)D6", &[1, 2, 3]);
    assert_eq!((l.kind, l.total), (Kind::Sum, Some(6)));
    assert_eq!(l.groups[0].count, 3);
    assert_eq!(line("(2*2)d4+1", &[1, 1, 1, 1]).total, Some(5));
}

#[test]
fn division_rounding_down_up_and_half_up() {
    // 7 / 2 = 3.5; 8 / 3 = 2.67; 7 / 3 = 2.33
    assert_eq!(line("2D6/2>=0", &[3, 4]).total, Some(3));
    assert_eq!(line("2D6/2U", &[3, 4]).total, Some(4));
    assert_eq!(line("2D6/2R", &[3, 4]).total, Some(4));
    assert_eq!(line("2D6/3R", &[4, 4]).total, Some(3));
    assert_eq!(line("2D6/3R", &[3, 4]).total, Some(2));
    assert_eq!(line("2D6/3U", &[3, 4]).total, Some(3));
    assert_eq!(line("2D6/3u", &[3, 3]).total, Some(2), "exact stays");
    assert_eq!(line("2D6/2", &[3, 4]).total, Some(3));
    assert_eq!(
        line("2D6/4R>=2", &[3, 3]).verdict,
        Some(Verdict::Success),
        "1.5 rounds half up to 2"
    );
    assert_eq!(line("S2D6/4", &[3, 3]).total, Some(1));
}

#[test]
fn secret_prefix() {
    let o = roll("S2D6>=7", &[3, 4]);
    assert!(o.flags.secret);
    assert!(!o.flags.simple);
    assert_eq!(o.lines[0].kind, Kind::Sum);
    assert_eq!(o.lines[0].verdict, Some(Verdict::Success));
    assert!(roll("s3b6", &[1, 2, 3]).flags.secret);
    assert!(roll("SCHOICE[a,b]", &[1]).flags.secret);
    assert!(roll("Sd66", &[1, 2]).flags.secret);
    assert!(roll("sx2 1d6", &[1, 2]).flags.secret);
    assert!(!roll("2d6>=7", &[3, 4]).flags.secret);
    // Dice Maiden modifiers behind `S` still roll, secretly.
    let o = roll("S4d6k3", &[1, 2, 3, 4]);
    assert!(o.flags.secret);
    assert_eq!((o.lines[0].kind, o.lines[0].total), (Kind::Dice, Some(9)));
    assert_eq!(roll("S2d6", &[1, 2]).lines[0].kind, Kind::Sum);
    // `s` followed by a space is Dice Maiden's simple flag, not secret.
    let o = roll("s 2d6", &[3, 4]);
    assert!(o.flags.simple && !o.flags.secret);
}

#[test]
fn barabara_lists_and_counts() {
    let l = line("3B6", &[1, 5, 6]);
    assert_eq!((l.kind, l.total, l.successes), (Kind::Barabara, Some(12), None));
    assert_eq!(faces(&l), [1, 5, 6]);
    let l = line("3B6+2B10>=5", &[1, 5, 6, 4, 10]);
    assert_eq!(l.successes, Some(3));
    assert_eq!(l.groups.len(), 2);
    assert_eq!(l.groups[1].sides, 10);
    assert_eq!(l.groups[0].successes, Some(2));
    assert_eq!(
        l.groups[0].dice.iter().map(|d| d.success).collect::<Vec<_>>(),
        [0, 1, 1]
    );
    assert_eq!(line("4b6<=2", &[1, 2, 3, 2]).successes, Some(3));
}

#[test]
fn reroll_rounds_until_no_die_meets_the_threshold() {
    // 3R6>=5: no threshold, so the success condition is also the threshold.
    let l = line("3R6>=5", &[5, 2, 6, 5, 1, 3]);
    assert_eq!(l.kind, Kind::Reroll);
    assert_eq!(faces(&l), [5, 2, 6, 5, 1, 3]);
    assert_eq!(l.successes, Some(3));
    let d = &l.groups[0].dice;
    assert!(d[0].exploded && !d[1].exploded && d[2].exploded && d[3].exploded);
    assert_eq!(d[3].origin, Origin::Explosion { from: 0 });
    assert_eq!(d[5].origin, Origin::Explosion { from: 3 });
    // [6] is a bare number: it reuses the success comparison (>=).
    let l = line("2R6[6]>=4", &[6, 4, 5]);
    assert_eq!(l.successes, Some(3));
    // @6 is the same threshold written after.
    assert_eq!(line("2R6>=4@6", &[6, 4, 5]).groups, l.groups);
    // An explicit comparison in the threshold.
    assert_eq!(line("2R6[>4]>=3", &[5, 4, 6, 1]).successes, Some(3));
    // No success condition: the dice are shown and nothing succeeds.
    assert_eq!(line("2R6[6]", &[6, 1, 2]).successes, Some(0));
    // A bare threshold with the success op `<=` rerolls low dice.
    assert_eq!(faces(&line("2R6[1]<=2", &[1, 6, 3])), [1, 6, 3]);
}

#[test]
fn reroll_chain_is_capped() {
    let l = line("1R6[6]", &[6; 11]);
    assert!(l.capped);
    assert_eq!(faces(&l).len(), 11);
}

#[test]
fn upper_chains_each_die() {
    // 3U6[5]: each die adds another while it shows 5 or more.
    let l = line("3U6[5]", &[5, 6, 2, 3, 6, 1]);
    assert_eq!(l.kind, Kind::Upper);
    assert_eq!(l.values, [13, 3, 7]);
    assert_eq!((l.max, l.total, l.successes), (Some(13), Some(23), None));
    assert_eq!(l.groups[0].dice[1].origin, Origin::Explosion { from: 0 });
    // +K goes onto every value, and once onto the grand total; the target is tested per die.
    let l = line("2U6[6]+2>=8", &[6, 1, 5]);
    assert_eq!(l.values, [9, 7]);
    assert_eq!((l.successes, l.total), (Some(1), Some(14)));
    // No threshold: refused as BCDice refuses it, rather than chaining on a face nobody named.
    let refused = saikoro::notation::parse("2U6").expect_err("an upper roll needs its threshold");
    use saikoro::i18n::{Lang, Localized};
    assert!(refused.localized(Lang::En).contains("`@6`"), "{refused}");
    assert!(refused.localized(Lang::Ja).contains("振り足し条件"), "{refused}");
    assert!(
        saikoro::notation::parse("4U6+2U4[1]+11>=21").is_err(),
        "a threshold of 1 never ends"
    );
    assert_eq!(line("2U6@6", &[6, 6, 1, 3]).values, [13, 3]);
    assert!(line("1U6[6]", &[6; 11]).capped);
}

#[test]
fn d66_orders() {
    let l = line("D66", &[5, 2]);
    assert_eq!((l.kind, l.total), (Kind::D66, Some(52)));
    assert_eq!(line("d66", &[2, 5]).total, Some(25));
    assert_eq!(line("D66S", &[5, 2]).total, Some(25));
    assert_eq!(line("D66A", &[5, 2]).total, Some(25));
    assert_eq!(line("D66D", &[2, 5]).total, Some(52));
    assert_eq!(line("D66D", &[5, 2]).total, Some(52));
    assert_eq!(faces(&line("D66S", &[5, 2])), [5, 2], "dice stay in roll order");
    assert_eq!(line("D66N", &[5, 2]).total, Some(52), "N: as rolled");
    // In a sum, `nD66` is n D66 rolls (two d6 each, as rolled), never a 66-sided die.
    assert_eq!(line("d66+1", &[6, 1]).total, Some(62));
    let two = line("2D66", &[6, 6, 5, 4]);
    assert_eq!(two.total, Some(120));
    assert_eq!(faces(&two), [66, 54]);
    assert_eq!(line("1D3+2D66", &[3, 1, 6, 6, 1]).total, Some(80));
}

#[test]
fn bcdice_keep_spellings_counts_and_sides_left_out() {
    // KH/KL/DH/DL with the count left out keep or drop one; sides left out are a d6.
    assert_eq!(line("5D10KH", &[2, 3, 5, 8, 8]).total, Some(8));
    assert_eq!(line("5D10KL", &[2, 3, 5, 8, 8]).total, Some(2));
    assert_eq!(line("5D10DH", &[2, 3, 5, 8, 8]).total, Some(18));
    assert_eq!(line("5D10DL", &[2, 3, 5, 8, 8]).total, Some(24));
    assert_eq!(line("5DKH3", &[2, 3, 5, 6, 6]).total, Some(17));
    assert_eq!(line("201D", &[1; 201]).total, Some(201));
    // Keeping none is 0; keeping more than there are keeps them all.
    assert_eq!(line("5D10KH0", &[2, 3, 5, 8, 8]).total, Some(0));
    assert_eq!(line("5D10KH7", &[2, 3, 5, 8, 8]).total, Some(26));
    // MAX and MIN, before a modifier and a target; computed count, sides and keep.
    assert_eq!(line("3D6MAX+2", &[1, 3, 5]).total, Some(7));
    let l = line("3D6MAX>=6", &[1, 3, 5]);
    assert_eq!((l.total, l.verdict), (Some(5), Some(Verdict::Failure)));
    assert_eq!(line("5D10MIN-3", &[2, 3, 5, 7, 9]).total, Some(-1));
    assert_eq!(line("(2+3)D(5+5)KH(5-2)", &[2, 3, 5, 8, 8]).total, Some(21));
    // Dice Maiden's own `k` still needs its count, and says what to type.
    assert!(saikoro::notation::parse("4d6 k").is_err());
}

#[test]
fn rounding_letters_and_negative_divisors() {
    for (input, faces, total) in [
        ("1D6+3/2C", &[1][..], 3),
        ("1D6+3/2F", &[1], 2),
        ("1D6+4/3C", &[1], 3),
        ("1d6/-3u", &[4], -1),
        ("1d6/-3r", &[4], -1),
        ("1d6/-3r", &[5], -2),
        ("1D6/-3", &[4], -2),
    ] {
        assert_eq!(line(input, faces).total, Some(total), "{input}");
    }
    // C without parentheses, with its rounding letter; secret with S.
    assert_eq!(line("c1+4*3/2", &[]).total, Some(7));
    assert_eq!(line("c1/2R", &[]).total, Some(1));
    assert_eq!(line("c1/3C", &[]).total, Some(1));
    assert_eq!(line("c1/2F", &[]).total, Some(0));
    // The letter inside the parentheses too.
    assert_eq!(line("C(1/2R)", &[]).total, Some(1));
    assert_eq!(line("C(7/2U)", &[]).total, Some(4));
    assert_eq!(line("C(7/2)", &[]).total, Some(3));
    assert_eq!(line("C(7/2F)", &[]).total, Some(3));
    assert!(
        saikoro::notation::parse("C(7/2R").is_err(),
        "the parenthesis must close"
    );
}

#[test]
fn choice_runs_and_computed_counts() {
    assert_eq!(line("choice[A-F]", &[3]).chosen, ["C"]);
    assert_eq!(line("choice[3-10]", &[8]).chosen, ["10"]);
    assert_eq!(line("choice(c-g)", &[5]).chosen, ["g"]);
    assert_eq!(
        line("choice[A-F,Z]", &[1]).chosen,
        ["A-F"],
        "a run only when alone"
    );
    for refused in [
        "choice[F-A]",
        "choice[10-3]",
        "choice[a-zz]",
        "choice[abc]",
        "choice3[1-1000]",
    ] {
        assert!(saikoro::notation::parse(refused).is_err(), "{refused}");
    }
    assert_eq!(line("choice[東,西] 行き先", &[2]).chosen, ["西"]);
    assert_eq!(faces(&line("(1*2)b(2+4)", &[3, 4])), [3, 4]);
    assert_eq!(line("(1+2*3)TY(1+5/2C)", &[1, 4, 4, 3, 4, 2, 3]).tally.len(), 4);
    assert!(
        saikoro::notation::parse("2TY21").is_err(),
        "a tally counts at most 20 faces"
    );
}

#[test]
fn reroll_rounds_go_across_groups_as_bcdice_rolls_them() {
    // 2R4+2R6>=4: the d4s, the d6s, then the d4 reroll, then the d6 reroll.
    let l = line("2R4+2R6>=4", &[4, 3, 3, 5, 1, 2]);
    assert_eq!(faces(&l), [4, 3, 1, 3, 5, 2]);
    assert_eq!(l.successes, Some(2));
}

#[test]
fn choice_picks_without_repeats() {
    let l = line("choice[a,b,c]", &[2]);
    assert_eq!(
        (l.kind, l.chosen.clone(), l.total),
        (Kind::Choice, vec!["b".to_string()], None)
    );
    assert_eq!(line("choice(x, y)", &[1]).chosen, ["x"]);
    assert_eq!(line("Choice 赤 青 黄", &[3]).chosen, ["黄"]);
    assert_eq!(line("CHOICE[Sword of Doom, Axe]", &[1]).chosen, ["Sword of Doom"]);
    // Each pick draws from what is left: d4 picks "b", then d3 picks the 3rd of [a, c, d].
    let l = line("choice2[a,b,c,d]", &[2, 3]);
    assert_eq!(l.chosen, ["b", "d"]);
    let sides: Vec<u32> = l.groups[0].dice.iter().map(|d| d.sides).collect();
    assert_eq!(sides, [4, 3]);
    assert_eq!(line("choice3[a,b,c]", &[3, 2, 1]).chosen, ["c", "b", "a"]);
    assert_eq!(line("choice3[a,b,c]", &[1, 1, 1]).chosen, ["a", "b", "c"]);
}

#[test]
fn repeat_rolls_the_command_again() {
    for prefix in ["x3", "rep3", "repeat3", "X3", "REP3"] {
        let o = roll(&format!("{prefix} 2D6>=7"), &[1, 2, 3, 4, 5, 6]);
        assert_eq!(o.lines.len(), 3, "{prefix}");
        let v: Vec<_> = o.lines.iter().map(|l| l.verdict.unwrap()).collect();
        assert_eq!(
            v,
            [Verdict::Failure, Verdict::Success, Verdict::Success],
            "{prefix}"
        );
        assert_eq!(o.lines[2].set, Some(3));
        assert_eq!(o.lines[0].expression, "2D6>=7");
    }
    assert_eq!(
        roll("x2 choice[a,b]", &[1, 2])
            .lines
            .iter()
            .map(|l| l.chosen[0].clone())
            .collect::<Vec<_>>(),
        ["a", "b"]
    );
}

#[test]
fn tally_counts_faces() {
    let l = line("5TY6", &[1, 3, 3, 6, 1]);
    assert_eq!(l.kind, Kind::Tally);
    let tc = |face, count| TallyCount { face, count };
    assert_eq!(l.tally, [tc(1, 2), tc(3, 2), tc(6, 1)]);
    let l = line("5tz4", &[1, 3, 3, 4, 1]);
    assert_eq!(l.tally, [tc(1, 2), tc(2, 0), tc(3, 2), tc(4, 1)]);
}

#[test]
fn calc_is_integer_arithmetic_without_dice() {
    let l = line("C(1+2*3)", &[]);
    assert_eq!((l.kind, l.total), (Kind::Calc, Some(7)));
    assert_eq!(line("c((1+2)*3)", &[]).total, Some(9));
    assert_eq!(line("C(10/3)", &[]).total, Some(3));
    assert_eq!(line("C(-7/2)", &[]).total, Some(-4));
    assert_eq!(line("C(2-5)", &[]).total, Some(-3));
}

#[test]
fn bcdice_forms_mix_with_dice_maiden_rolls() {
    let o = roll("3B6; 1d20+1; D66 ! mixed", &[1, 2, 3, 10, 4, 5]);
    let kinds: Vec<_> = o.lines.iter().map(|l| l.kind).collect();
    assert_eq!(kinds, [Kind::Barabara, Kind::Dice, Kind::D66]);
    assert_eq!(o.comment.as_deref(), Some("mixed"));
}

#[test]
fn a_message_after_a_space_is_the_comment_as_in_bcdice() {
    let o = roll("2D6>=7 命中判定", &[3, 5]);
    assert_eq!(o.comment.as_deref(), Some("命中判定"));
    assert_eq!((o.lines[0].kind, o.lines[0].total), (Kind::Sum, Some(8)));
    assert_eq!(o.lines[0].verdict, Some(Verdict::Success));
    let o = roll("4B6>=5 回避 (ダメージ半減)", &[5, 1, 6, 2]);
    assert_eq!(o.comment.as_deref(), Some("回避 (ダメージ半減)"));
    assert_eq!(o.lines[0].successes, Some(2));
    // Full-width notation is still notation; only text that is not is the message.
    let o = roll("２Ｄ６ ＋３ 攻撃", &[1, 2]);
    assert_eq!((o.lines[0].total, o.comment.as_deref()), (Some(6), Some("攻撃")));
    // `!` still marks the comment; choice's options stay options.
    let o = roll("2d6 ! 剣で", &[4, 4]);
    assert_eq!(o.comment.as_deref(), Some("剣で"));
    let o = roll("choice 攻撃 防御", &[2]);
    assert_eq!(o.comment, None);
    assert!(format!("{:?}", o.lines[0]).contains("防御"));
    // ASCII words after a space are a message too, as Avrae and RPG Sage read them.
    let o = roll("2D6>=7 attack", &[3, 5]);
    assert_eq!(o.comment.as_deref(), Some("attack"));
    assert_eq!(o.lines[0].verdict, Some(Verdict::Success));
    // A one-letter word is a typo of notation, not a message.
    assert!(evaluate("2d6 x", &mut FixedRoller::new([1, 1])).is_err());
}

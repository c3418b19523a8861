//! Dice Maiden input the way its users type it: spaces between a group and its modifiers, between
//! modifiers and around operators, with flags, labels, sets, comments and `;` rolls around them.

use proptest::prelude::*;
use saikoro::dice::{FixedRoller, SeededRoller};
use saikoro::notation::{
    DiceGroup, Expected, Hint, Kind, NotationError, Origin, RollLine, RollOutcome, Status, Verdict, evaluate,
    parse,
};

use NotationError::*;

/// Roll with exactly these faces: all must be used.
fn roll(input: &str, faces: &[u32]) -> RollOutcome {
    let mut r = FixedRoller::new(faces.iter().copied());
    let o = evaluate(input, &mut r).unwrap_or_else(|e| panic!("{input}: {e}"));
    assert_eq!(r.remaining(), 0, "{input}: faces left over");
    assert_eq!(o.dice_rolled, faces.len(), "{input}");
    o
}

fn line(o: &RollOutcome) -> &RollLine {
    assert_eq!(o.lines.len(), 1);
    &o.lines[0]
}

fn total(input: &str, faces: &[u32]) -> i64 {
    line(&roll(input, faces)).total.unwrap()
}

fn group(input: &str, faces: &[u32]) -> DiceGroup {
    line(&roll(input, faces)).groups[0].clone()
}

/// Each die as face plus a status letter: k kept, x dropped, r rerolled, s subtracted.
fn marks(g: &DiceGroup) -> String {
    g.dice
        .iter()
        .map(|d| {
            let s = match d.status {
                Status::Kept => "k",
                Status::Dropped => "x",
                Status::Rerolled => "r",
                Status::Subtracted => "s",
            };
            format!("{}{s}{}", d.face, if d.exploded { "!" } else { "" })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The outcome without the text the user typed, which is kept as typed.
fn without_text(mut o: RollOutcome) -> RollOutcome {
    o.input.clear();
    for l in &mut o.lines {
        l.expression.clear();
        for g in &mut l.groups {
            g.text.clear();
        }
    }
    o
}

/// The error for `input`, found by `parse` before anything is rolled.
fn err(input: &str) -> NotationError {
    let e = evaluate(input, &mut FixedRoller::new([])).expect_err(input);
    assert_eq!(parse(input).err(), Some(e.clone()), "{input}");
    e
}

fn unexpected(input: &str) -> (usize, String, Expected) {
    match err(input) {
        Unexpected { at, found, expected } => (at, found, expected),
        e => panic!("{input}: {e:?}"),
    }
}

#[test]
fn keep_highest_with_a_space() {
    let g = group("4d6 k3", &[2, 5, 1, 4]);
    assert_eq!(marks(&g), "2k 5k 1x 4k");
    assert_eq!(g.subtotal, 11);
    assert_eq!(g.text, "4d6 k3", "the group text is kept as typed");
    assert_eq!(total("4d6 k3", &[2, 5, 1, 4]), 11);
    assert_eq!(marks(&group("4d6 kl2", &[2, 5, 1, 4])), "2k 5x 1k 4x");
    assert_eq!(marks(&group("5d6 km3", &[6, 1, 4, 2, 5])), "6x 1x 4k 2k 5k");
}

#[test]
fn drop_lowest_with_a_space_is_a_modifier_not_a_die() {
    let o = roll("4d6 d1", &[2, 5, 1, 4]);
    let l = line(&o);
    assert_eq!(l.groups.len(), 1, "`d1` is the drop modifier, not a second group");
    assert_eq!(marks(&l.groups[0]), "2k 5k 1x 4k");
    assert_eq!(l.total, Some(11));
    assert_eq!(marks(&group("4d6 d2", &[4, 4, 4, 4])), "4k 4k 4x 4x");
    // A new die needs an operator.
    let o = roll("4d6 + d4", &[2, 5, 1, 4, 3]);
    let l = line(&o);
    assert_eq!(l.groups.len(), 2);
    assert_eq!((l.groups[1].count, l.groups[1].sides), (1, 4));
    assert_eq!(l.total, Some(15));
    assert_eq!(line(&roll("4d6 +d4", &[2, 5, 1, 4, 3])).total, Some(15));
    // `d20` after a single d20 drops too many dice rather than rolling another d20.
    assert_eq!(
        err("1d20 d20"),
        KeepOutOfRange {
            at: 6,
            modifier: "d",
            n: 20,
            dice: 1,
            max: 0
        }
    );
    // A bare `d` is a drop without its count.
    assert_eq!(
        err("4d6 d"),
        DidYouMean {
            at: 6,
            hint: Hint::CountMissing,
            suggestion: "4d6 d1".into()
        }
    );
}

#[test]
fn math_with_spaces_around_operators() {
    assert_eq!(total("3d6 + 5", &[3, 4, 5]), 17);
    assert_eq!(total("3d6 +5", &[3, 4, 5]), 17);
    assert_eq!(total("3d6+ 5", &[3, 4, 5]), 17);
    let o = roll("1d20 + 2d6 - 1", &[11, 3, 4]);
    let l = line(&o);
    assert_eq!(l.total, Some(17));
    assert_eq!(l.groups.len(), 2);
    assert_eq!((l.groups[0].subtotal, l.groups[1].subtotal), (11, 7));
    assert_eq!(l.expression, "1d20 + 2d6 - 1");
    assert_eq!(total("2d6 * 3", &[1, 2]), 9);
    assert_eq!(total("1d6 / 2", &[5]), 2);
    assert_eq!(total("( 1d6 + 2 ) * 3", &[4]), 18);
    assert_eq!(total("- 1d4 + 10", &[3]), 7);
    // A modifier after a space, then math.
    assert_eq!(total("4d6 k3 + 2", &[2, 5, 1, 4]), 13);
    assert_eq!(total("4d6 k3 * 2 - 1d4 k1", &[2, 5, 1, 4, 3]), 19);
}

#[test]
fn explode_then_keep_then_add_with_spaces() {
    let faces = [6, 1, 2, 3, 4, 5, 2, 3, 4, 5, 3];
    let o = roll("10d6 e6 k8 +4", &faces);
    let l = line(&o);
    let g = &l.groups[0];
    assert_eq!(marks(g), "6k! 1x 2x 3k 4k 5k 2x 3k 4k 5k 3k");
    assert_eq!(g.dice[10].origin, Origin::Explosion { from: 0 });
    assert_eq!(g.subtotal, 33);
    assert_eq!(l.total, Some(37));
    assert_eq!(without_text(o), without_text(roll("10d6e6k8+4", &faces)));
}

#[test]
fn indefinite_explosion_with_a_space() {
    let faces = [6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 6, 2];
    let g = group("10d6 ie6", &faces);
    assert_eq!(marks(&g), "6k! 1k 1k 1k 1k 1k 1k 1k 1k 1k 6k! 2k");
    assert_eq!(g.dice[10].origin, Origin::Explosion { from: 0 });
    assert_eq!(g.dice[11].origin, Origin::Explosion { from: 10 });
    assert_eq!(g.subtotal, 23);
}

#[test]
fn successes_and_failures_with_spaces() {
    let o = roll("5d10 t8 f1", &[8, 1, 9, 10, 3]);
    let l = line(&o);
    assert_eq!((l.successes, l.failures, l.botches), (Some(2), Some(1), None));
    assert_eq!(l.total, Some(31));
    let g = &l.groups[0];
    assert_eq!(
        g.dice.iter().map(|d| d.success).collect::<Vec<_>>(),
        [1, 0, 1, 1, 0]
    );
    assert!(g.dice[1].failure);
    let o = roll("4d10 t8 b", &[1, 9, 1, 2]);
    assert_eq!((line(&o).successes, line(&o).botches), (Some(1), Some(2)));
    let o = roll("4d10 t7 ds10", &[10, 7, 3, 10]);
    assert_eq!(line(&o).successes, Some(5));
    let o = roll("3d6 t5 + 10", &[5, 6, 1]);
    assert_eq!((line(&o).total, line(&o).successes), (Some(22), Some(2)));
}

#[test]
fn advantage_with_a_space() {
    let g = group("2d20 adv1", &[3, 17, 9]);
    assert_eq!(marks(&g), "3x 17k 9k");
    assert_eq!(g.subtotal, 26);
    assert_eq!(marks(&group("1d20 adv", &[7, 15])), "7x 15k");
    assert_eq!(marks(&group("1d20 dis", &[7, 15])), "7k 15x");
    // Advantage drops before exploding, spaced or not.
    assert_eq!(marks(&group("1d6 adv1 e", &[6, 6, 2])), "6k! 6x 2k");
}

#[test]
fn rerolls_and_implosion_with_spaces_keep_written_order() {
    assert_eq!(marks(&group("1d6 e r1", &[6, 1, 3])), "6k! 1r 3k");
    assert_eq!(marks(&group("1d6 r1 e", &[1, 6, 2])), "1r 6k! 2k");
    assert_eq!(marks(&group("1d6 ir2", &[1, 2, 3])), "1r 2r 3k");
    assert_eq!(marks(&group("2d6 rg5", &[5, 2, 6])), "5r 2k 6k");
    let g = group("3d6 i", &[1, 4, 5, 3]);
    assert_eq!(marks(&g), "1k 4k 5k 3s");
    assert_eq!(g.subtotal, 7);
}

#[test]
fn drop_with_a_comment() {
    let o = roll("4d6 d1 ! stats", &[2, 5, 1, 4]);
    assert_eq!(o.comment.as_deref(), Some("stats"));
    assert_eq!(marks(&line(&o).groups[0]), "2k 5k 1x 4k");
    assert_eq!(line(&o).total, Some(11));
    assert_eq!(line(&o).expression, "4d6 d1");
}

#[test]
fn label_then_spaced_math() {
    let o = roll("(Attack) 1d20 + 5", &[11]);
    assert_eq!(o.label.as_deref(), Some("Attack"));
    assert_eq!(line(&o).total, Some(16));
    assert_eq!(line(&o).expression, "1d20 + 5");
    let o = roll("(Stats) 4d6 k3", &[2, 5, 1, 4]);
    assert_eq!(o.label.as_deref(), Some("Stats"));
    assert_eq!(marks(&line(&o).groups[0]), "2k 5k 1x 4k");
}

const SIX_SETS: [u32; 24] = [
    1, 2, 3, 4, 5, 5, 5, 5, 6, 6, 6, 6, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
];

#[test]
fn sets_with_spaced_modifiers() {
    let o = roll("6 4d6 k3", &SIX_SETS);
    assert_eq!(o.lines.len(), 6);
    let totals: Vec<_> = o.lines.iter().map(|l| l.total.unwrap()).collect();
    assert_eq!(totals, [9, 15, 18, 3, 6, 9]);
    assert_eq!(
        o.lines.iter().map(|l| l.set.unwrap()).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    assert_eq!(marks(&o.lines[0].groups[0]), "1x 2k 3k 4k");
    assert_eq!(without_text(o), without_text(roll("6 4d6k3", &SIX_SETS)));
    // Sets still need a count, a space and dice; plain spaced math is not a set.
    let o = roll("6 4d6", &SIX_SETS);
    assert_eq!(o.lines.len(), 6);
    assert_eq!(o.lines[0].total, Some(10));
    assert_eq!(total("6 + 4d6 k3", &[2, 5, 1, 4]), 17);
    assert_eq!(
        err("21 4d6 k3"),
        SetsOutOfRange {
            at: 1,
            sets: 21,
            min: 2,
            max: 20
        }
    );
}

#[test]
fn multi_rolls_with_spaced_modifiers() {
    let o = roll("4d6 k3 ; 2d6 + 1", &[2, 5, 1, 4, 3, 4]);
    let totals: Vec<_> = o.lines.iter().map(|l| l.total.unwrap()).collect();
    assert_eq!(totals, [11, 8]);
    assert_eq!(o.lines.iter().map(|l| l.roll).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(marks(&o.lines[0].groups[0]), "2k 5k 1x 4k");
    assert_eq!(o.lines[0].expression, "4d6 k3");
    assert_eq!(o.lines[1].expression, "2d6 + 1");
    let o = roll("(Hit) 1d20 adv1 + 5; (Dmg) 2d6 e6 ! sword", &[4, 12, 6, 3, 2]);
    let totals: Vec<_> = o.lines.iter().map(|l| l.total.unwrap()).collect();
    assert_eq!(totals, [17, 11]);
    assert_eq!(o.lines[1].label.as_deref(), Some("Dmg"));
    assert_eq!(o.comment.as_deref(), Some("sword"));
}

#[test]
fn flags_before_spaced_expressions() {
    let o = roll("p 4d6 k3", &[2, 5, 1, 4]);
    assert!(o.flags.private && !o.flags.simple && !o.flags.secret);
    assert_eq!(line(&o).total, Some(11));
    // Lower-case `s` and a space: the simple flag.
    let o = roll("s 4d6 k3", &[2, 5, 1, 4]);
    assert!(o.flags.simple && !o.flags.secret);
    assert_eq!(line(&o).total, Some(11));
    // `S` directly before the command: BCDice secret, read as a Dice Maiden roll.
    let o = roll("S4d6 k3", &[2, 5, 1, 4]);
    assert!(o.flags.secret && !o.flags.simple);
    assert_eq!(marks(&line(&o).groups[0]), "2k 5k 1x 4k");
    let o = roll("nr ul 4d6 d1", &[2, 5, 1, 4]);
    assert!(o.flags.no_result && o.flags.unsorted && !o.flags.private);
    assert_eq!(line(&o).total, Some(11));
    let o = roll("p s nr ul (Attack) 1d20 + 5 ! with the sword", &[11]);
    assert!(o.flags.private && o.flags.simple && o.flags.no_result && o.flags.unsorted);
    assert_eq!(o.label.as_deref(), Some("Attack"));
    assert_eq!(o.comment.as_deref(), Some("with the sword"));
    assert_eq!(line(&o).total, Some(16));
    let o = roll("p 2 4d6 k3", &[2, 5, 1, 4, 6, 6, 1, 1]);
    assert!(o.flags.private);
    let totals: Vec<_> = o.lines.iter().map(|l| l.total.unwrap()).collect();
    assert_eq!(totals, [11, 13]);
    let o = roll("p 10d6 e6 k8 +4", &[6, 1, 2, 3, 4, 5, 2, 3, 4, 5, 3]);
    assert!(o.flags.private);
    assert_eq!(line(&o).total, Some(37));
    let o = roll("ul 4d6 k3 ; 2d6 + 1", &[2, 5, 1, 4, 3, 4]);
    assert!(o.flags.unsorted);
    assert_eq!(o.lines.len(), 2);
}

#[test]
fn any_whitespace_separates_modifiers() {
    let faces = [2, 5, 1, 4];
    for input in [
        "4d6  k3",
        "4d6\tk3",
        "4d6\u{3000}k3",
        "４ｄ６\u{3000}ｋ３",
        "4d6 K3",
        " 4d6 k3 ",
    ] {
        let g = group(input, &faces);
        assert_eq!(marks(&g), "2k 5k 1x 4k", "{input:?}");
    }
    assert_eq!(
        without_text(roll("4d6 k3 e6 r1", &[2, 5, 1, 4, 3])),
        without_text(roll("4d6k3e6r1", &[2, 5, 1, 4, 3]))
    );
    assert_eq!(
        without_text(roll("4d6 k3 e6 r1", &[2, 5, 1, 4, 3])),
        without_text(roll("4d6k3 e6r1", &[2, 5, 1, 4, 3]))
    );
}

#[test]
fn other_families_read_as_before() {
    let o = roll("choice A B C", &[2]);
    assert_eq!(
        (line(&o).kind, line(&o).chosen.clone()),
        (Kind::Choice, vec!["B".to_string()])
    );
    let o = roll("2D6 + 1 >= 8", &[3, 4]);
    assert_eq!(
        (line(&o).kind, line(&o).verdict),
        (Kind::Sum, Some(Verdict::Success))
    );
    let o = roll("S2D6 >= 7", &[3, 4]);
    assert!(o.flags.secret);
    assert_eq!(line(&o).verdict, Some(Verdict::Success));
    assert_eq!(line(&roll("3B6 >= 4", &[1, 4, 6])).successes, Some(2));
    assert_eq!(line(&roll("D66", &[3, 5])).kind, Kind::D66);
    assert_eq!(line(&roll("C(1 + 2 * 3)", &[])).total, Some(7));
    let o = roll("x2 4d6 k3", &[2, 5, 1, 4, 6, 6, 1, 1]);
    let totals: Vec<_> = o.lines.iter().map(|l| l.total.unwrap()).collect();
    assert_eq!(totals, [11, 13]);
    // `nD66` is n D66 rolls (BCDice), which take no modifier: one after it is refused, never
    // ignored and never turned into a 66-sided die.
    assert!(saikoro::notation::parse("2d66 k1").is_err());
}

#[test]
fn errors_point_at_the_spaced_modifier() {
    assert_eq!(
        err("4d6 k5"),
        KeepOutOfRange {
            at: 5,
            modifier: "k",
            n: 5,
            dice: 4,
            max: 4
        }
    );
    assert_eq!(err("4d6 k3 k2"), DuplicateModifier { at: 8, modifier: "k" });
    assert_eq!(
        err("4d6 k3  kl1"),
        ConflictingModifiers {
            at: 9,
            modifier: "kl",
            other: "k"
        }
    );
    assert_eq!(
        err("4d6 d1 k3"),
        ConflictingModifiers {
            at: 8,
            modifier: "k",
            other: "d"
        }
    );
    assert_eq!(
        err("1d6 e7"),
        ThresholdOutOfRange {
            at: 5,
            modifier: "e",
            value: 7,
            sides: 6
        }
    );
    assert_eq!(
        err("10d6 ie1"),
        EndlessChain {
            at: 6,
            modifier: "ie"
        }
    );
    assert_eq!(err("1d20 adv0"), ZeroDice { at: 6 });
    // Full-width characters count as one position each.
    assert_eq!(
        err("（攻撃） 4d6 k5"),
        KeepOutOfRange {
            at: 10,
            modifier: "k",
            n: 5,
            dice: 4,
            max: 4
        }
    );
    assert_eq!(
        err("4d6 k"),
        DidYouMean {
            at: 6,
            hint: Hint::CountMissing,
            suggestion: "4d6 k1".into()
        }
    );
    assert_eq!(unexpected("4d6 k3 x"), (8, "x".into(), Expected::Operator));
    assert_eq!(unexpected("4d6 k3 3"), (8, "3".into(), Expected::Operator));
    assert_eq!(unexpected("2d6 x"), (5, "x".into(), Expected::Operator));
    assert_eq!(unexpected("4d6 k3 ; 2d6 x"), (14, "x".into(), Expected::Operator));
    assert_eq!(unexpected("3d6 + "), (6, String::new(), Expected::Operand));
    assert_eq!(unexpected("4d6 k3 +"), (9, String::new(), Expected::Operand));
    // Modifiers follow a dice group, not math.
    assert_eq!(unexpected("4d6 + 1 k3"), (9, "k".into(), Expected::Operator));
}

/// A Dice Maiden group with up to three modifiers, and how it is written with and without spaces.
/// (No bare `i`: written tight, `i` then `e` would read as `ie`.)
fn spaced_and_tight() -> impl Strategy<Value = (String, String)> {
    let modifier = prop::sample::select(vec![
        "k2", "kl1", "km1", "d1", "e", "e5", "ie", "ie5", "i1", "i2", "r1", "ir2", "rg6", "irg5", "t4",
        "tl2", "f1", "b", "b2", "ds6", "adv", "dis2",
    ]);
    let space = prop::sample::select(vec![" ", "  ", "\t", "\u{3000}"]);
    let group = (
        1u32..=8,
        prop::sample::select(vec![4u32, 6, 10, 20]),
        prop::collection::vec((space.clone(), modifier), 0..4),
    )
        .prop_map(|(n, s, mods)| {
            let tight = format!("{n}d{s}{}", mods.iter().map(|(_, m)| *m).collect::<String>());
            let spaced = format!(
                "{n}d{s}{}",
                mods.iter().map(|(w, m)| format!("{w}{m}")).collect::<String>()
            );
            (spaced, tight)
        });
    let op = prop::sample::select(vec!["+", "-", "*"]);
    (
        group.clone(),
        prop::option::of((op, space, group)),
        prop::option::of(-5i64..20),
    )
        .prop_map(|((s1, t1), rest, k)| {
            let (mut spaced, mut tight) = (s1, t1);
            if let Some((op, w, (s2, t2))) = rest {
                spaced.push_str(&format!("{w}{op}{w}{s2}"));
                tight.push_str(&format!("{op}{t2}"));
            }
            if let Some(k) = k {
                spaced.push_str(&format!(" {k:+}"));
                tight.push_str(&format!("{k:+}"));
            }
            (spaced, tight)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Spaces change nothing but the text kept as typed and the error positions.
    #[test]
    fn spaced_modifiers_roll_like_tight_ones((spaced, tight) in spaced_and_tight(), seed in any::<u64>()) {
        match (parse(&spaced), parse(&tight)) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(a.worst_case_dice(), b.worst_case_dice(), "{:?} vs {:?}", spaced, tight);
                let a = a.roll(&mut SeededRoller::from_seed(seed)).map(without_text);
                let b = b.roll(&mut SeededRoller::from_seed(seed)).map(without_text);
                prop_assert_eq!(a, b, "{:?} vs {:?}", spaced, tight);
            }
            (Err(a), Err(b)) => prop_assert_eq!(
                std::mem::discriminant(&a),
                std::mem::discriminant(&b),
                "{:?}: {:?} vs {:?}: {:?}", spaced, a, tight, b
            ),
            (a, b) => prop_assert!(false, "{:?}: {:?} vs {:?}: {:?}", spaced, a.err(), tight, b.err()),
        }
    }

    #[test]
    fn flagged_spaced_commands_never_panic((spaced, _) in spaced_and_tight(), prefix in prop::sample::select(vec!["", "p ", "s ", "nr ul ", "(Hit) ", "3 ", "x2 ", "S"]), seed in any::<u64>()) {
        let input = format!("{prefix}{spaced} ! note");
        if let Ok(parsed) = parse(&input)
            && let Ok(o) = parsed.roll(&mut SeededRoller::from_seed(seed))
        {
            prop_assert!(o.dice_rolled as u64 <= parsed.worst_case_dice(), "{input}");
        }
    }
}

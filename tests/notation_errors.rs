//! Every way a roll can be refused: which error, where, and what the user reads.

use saikoro::dice::{DiceError, FixedRoller, MAX_DICE_PER_COMMAND};
use saikoro::i18n::{Lang, Localized};
use saikoro::notation::{Expected, Hint, NotationError, evaluate, parse};

use NotationError::*;

/// The error for `input`, checking that nothing was rolled to find it.
fn err(input: &str) -> NotationError {
    let parsed = parse(input);
    let mut none = FixedRoller::new([]);
    let e = evaluate(input, &mut none).expect_err(input);
    // Every error but a runtime one is found by `parse` alone.
    if !matches!(e, DivisionByZero { .. } | Overflow { .. }) {
        assert_eq!(parsed.as_ref().err(), Some(&e), "{input}");
    }
    e
}

fn unexpected(input: &str) -> (usize, String, Expected) {
    match err(input) {
        Unexpected { at, found, expected } => (at, found, expected),
        e => panic!("{input}: {e:?}"),
    }
}

#[test]
fn empty_and_too_long() {
    assert_eq!(err(""), Empty);
    assert_eq!(err("   "), Empty);
    let long = format!("1d6{}", "+1".repeat(300));
    assert_eq!(err(&long), InputTooLong { len: 603, max: 500 });
}

#[test]
fn unexpected_says_where_and_what() {
    // Sides left out are BCDice's d6 (`2d` is `2d6`), so the roll ending after an operator is
    // the end-of-input example here.
    assert_eq!(unexpected("2d6*"), (5, String::new(), Expected::Operand));
    assert_eq!(unexpected("2d6*x"), (5, "x".into(), Expected::Operand));
    assert_eq!(unexpected("2d6 x"), (5, "x".into(), Expected::Operator));
    assert_eq!(unexpected("2d6 + "), (6, String::new(), Expected::Operand));
    assert_eq!(unexpected("(1d6+2"), (7, String::new(), Expected::CloseParen));
    assert_eq!(
        unexpected("(Attack 1d6"),
        (12, String::new(), Expected::LabelClose)
    );
    assert_eq!(unexpected("(Attack)"), (9, String::new(), Expected::Command));
    assert_eq!(unexpected("1d6;"), (5, String::new(), Expected::Command));
    assert_eq!(unexpected("1d6; ;1d6"), (5, String::new(), Expected::Command));
    assert_eq!(unexpected("x3"), (3, String::new(), Expected::SpaceAfterRepeat));
    assert_eq!(unexpected("x3d6"), (3, "d".into(), Expected::SpaceAfterRepeat));
    assert_eq!(unexpected("choice"), (7, String::new(), Expected::ChoiceItems));
    assert_eq!(
        unexpected("choice[a,b"),
        (11, String::new(), Expected::CloseBracket)
    );
    assert_eq!(unexpected("2R6"), (4, String::new(), Expected::Threshold));
    assert_eq!(unexpected("2R6[>=]"), (7, "]".into(), Expected::Threshold));
    assert_eq!(unexpected("2R6[6"), (6, String::new(), Expected::CloseBracket));
    assert_eq!(unexpected("2d6>="), (6, String::new(), Expected::Comparison));
    assert_eq!(unexpected("2d6>=7 x"), (8, "x".into(), Expected::End));
    assert_eq!(unexpected("5>=3"), (1, "5".into(), Expected::Command));
    assert_eq!(unexpected("C(2d6)"), (4, "d".into(), Expected::CloseParen));
    assert_eq!(
        err("4d6k"),
        DidYouMean {
            at: 5,
            hint: Hint::CountMissing,
            suggestion: "4d6k1".into()
        }
    );
    assert_eq!(unexpected("p"), (1, "p".into(), Expected::Operand));
    // Positions count characters, not bytes.
    assert_eq!(
        unexpected("（攻撃） 1d6 ＋"),
        (11, String::new(), Expected::Operand)
    );
}

#[test]
fn number_and_dice_limits() {
    assert_eq!(
        err("99999999999d6"),
        NumberTooLarge {
            at: 1,
            max: 1_000_000_000
        }
    );
    assert_eq!(err("0d6"), ZeroDice { at: 1 });
    assert_eq!(err("(1-1)D6"), ZeroDice { at: 1 });
    assert_eq!(err("1d6adv0"), ZeroDice { at: 4 });
    assert_eq!(
        err("1d0"),
        SidesOutOfRange {
            at: 3,
            sides: 0,
            max: 1000
        }
    );
    assert_eq!(
        err("1d1001"),
        SidesOutOfRange {
            at: 3,
            sides: 1001,
            max: 1000
        }
    );
    assert_eq!(
        err("3TY21"),
        SidesOutOfRange {
            at: 4,
            sides: 21,
            max: 20
        }
    );
    assert_eq!(
        err("2B0"),
        SidesOutOfRange {
            at: 3,
            sides: 0,
            max: 1000
        }
    );
}

#[test]
fn total_dice_are_capped_before_rolling_worst_case_included() {
    let max = MAX_DICE_PER_COMMAND;
    assert_eq!(err("1001d6"), TooManyDice { worst: 1001, max });
    assert_eq!(err("500d6+501d6"), TooManyDice { worst: 1001, max });
    assert_eq!(err("20 51d6"), TooManyDice { worst: 1020, max });
    assert_eq!(err("x20 51d6"), TooManyDice { worst: 1020, max });
    // Indefinite explosions may add ten dice per die.
    assert_eq!(err("100d6ie"), TooManyDice { worst: 1100, max });
    assert_eq!(err("501d6e"), TooManyDice { worst: 1002, max });
    assert_eq!(err("91R6[6]"), TooManyDice { worst: 1001, max });
    assert_eq!(err("1d6;1d6;999d6"), TooManyDice { worst: 1001, max });
    assert_eq!(err("1000d6adv1"), TooManyDice { worst: 1001, max });
    assert!(parse("90d6ie").is_ok());
    assert!(parse("500d6e").is_ok());
    assert_eq!(parse("3R6>=5").unwrap().worst_case_dice(), 33);
}

#[test]
fn rolls_sets_and_repeats_are_capped() {
    assert_eq!(err("1;2;3;4;5"), TooManyRolls { count: 5, max: 4 });
    assert_eq!(err("1d6;1d6;1d6;1d6;1d6;1d6"), TooManyRolls { count: 6, max: 4 });
    assert_eq!(
        err("1 1d6"),
        SetsOutOfRange {
            at: 1,
            sets: 1,
            min: 2,
            max: 20
        }
    );
    assert_eq!(
        err("21 1d6"),
        SetsOutOfRange {
            at: 1,
            sets: 21,
            min: 2,
            max: 20
        }
    );
    assert_eq!(
        err("x0 1d6"),
        RepeatOutOfRange {
            at: 2,
            count: 0,
            max: 20
        }
    );
    assert_eq!(
        err("repeat21 1d6"),
        RepeatOutOfRange {
            at: 7,
            count: 21,
            max: 20
        }
    );
    assert_eq!(err("x2 x3 1d6"), NestedRepeat { at: 4 });
    assert_eq!(err("2 x3 1d6"), NestedRepeat { at: 3 });
    assert_eq!(err("x2 3 1d6"), NestedRepeat { at: 4 });
}

#[test]
fn choice_limits() {
    let many = format!("choice[{}]", vec!["a"; 101].join(","));
    assert_eq!(
        err(&many),
        TooManyChoices {
            at: 7,
            count: 101,
            max: 100
        }
    );
    assert_eq!(err("choice[a,,b]"), EmptyChoice { at: 10 });
    assert_eq!(
        err("choice3[a,b]"),
        PickOutOfRange {
            at: 7,
            pick: 3,
            items: 2
        }
    );
    assert_eq!(
        err("choice0[a,b]"),
        PickOutOfRange {
            at: 7,
            pick: 0,
            items: 2
        }
    );
}

#[test]
fn expression_depth_and_length() {
    let deep = format!("{}1d6{}", "(".repeat(17), ")".repeat(17));
    assert_eq!(err(&deep), TooDeep { at: 17, max: 16 });
    assert_eq!(err(&format!("{}1", "-".repeat(17))), TooDeep { at: 17, max: 16 });
    assert!(parse(&format!("{}1d6{}", "(".repeat(16), ")".repeat(16))).is_ok());
    let long = format!("1{}", "+1".repeat(50));
    assert_eq!(err(&long), TooManyTerms { at: 101, max: 50 });
}

#[test]
fn modifier_errors() {
    assert_eq!(err("1d6e6e5"), DuplicateModifier { at: 6, modifier: "e" });
    assert_eq!(err("4d6k3k2"), DuplicateModifier { at: 6, modifier: "k" });
    assert_eq!(
        err("4d6k3kl1"),
        ConflictingModifiers {
            at: 6,
            modifier: "kl",
            other: "k"
        }
    );
    assert_eq!(
        err("1d20advdis"),
        ConflictingModifiers {
            at: 8,
            modifier: "dis",
            other: "adv"
        }
    );
    assert_eq!(
        err("1d6eie"),
        ConflictingModifiers {
            at: 5,
            modifier: "ie",
            other: "e"
        }
    );
    assert_eq!(
        err("1d6t3tl2"),
        ConflictingModifiers {
            at: 6,
            modifier: "tl",
            other: "t"
        }
    );
    assert_eq!(
        err("1d6e7"),
        ThresholdOutOfRange {
            at: 4,
            modifier: "e",
            value: 7,
            sides: 6
        }
    );
    assert_eq!(
        err("1d6t0"),
        ThresholdOutOfRange {
            at: 4,
            modifier: "t",
            value: 0,
            sides: 6
        }
    );
    assert_eq!(
        err("1d6r9"),
        ThresholdOutOfRange {
            at: 4,
            modifier: "r",
            value: 9,
            sides: 6
        }
    );
    assert_eq!(
        err("4d6k5"),
        KeepOutOfRange {
            at: 4,
            modifier: "k",
            n: 5,
            dice: 4,
            max: 4
        }
    );
    assert_eq!(
        err("4d6k0"),
        KeepOutOfRange {
            at: 4,
            modifier: "k",
            n: 0,
            dice: 4,
            max: 4
        }
    );
    assert_eq!(
        err("4d6d4"),
        KeepOutOfRange {
            at: 4,
            modifier: "d",
            n: 4,
            dice: 4,
            max: 3
        }
    );
    assert_eq!(
        err("1d6ie1"),
        EndlessChain {
            at: 4,
            modifier: "ie"
        }
    );
    assert_eq!(
        err("1d6ir6"),
        EndlessChain {
            at: 4,
            modifier: "ir"
        }
    );
    assert_eq!(
        err("1d6irg1"),
        EndlessChain {
            at: 4,
            modifier: "irg"
        }
    );
    assert_eq!(err("2R6[>=1]"), EndlessChain { at: 1, modifier: "R" });
    assert_eq!(err("2R6<=6"), EndlessChain { at: 1, modifier: "R" });
    assert_eq!(err("2U6[1]"), EndlessChain { at: 1, modifier: "U" });
    assert_eq!(err("2R6[6]@6"), DuplicateModifier { at: 1, modifier: "@" });
    assert_eq!(err("(1d6)D6"), DiceCountNotConstant { at: 1 });
}

#[test]
fn arithmetic_errors() {
    assert_eq!(err("C(1/0)"), DivisionByZero { at: 4 });
    // Found only once the dice are rolled.
    assert_eq!(
        evaluate("1d6/(1d2-1)", &mut FixedRoller::new([3, 1])),
        Err(DivisionByZero { at: 4 })
    );
    assert_eq!(
        evaluate("1d6/(0-1)", &mut FixedRoller::new([3])).unwrap().lines[0].total,
        Some(-3)
    );
    assert_eq!(err("C(1000000000*1000000000*1000000000)"), Overflow { at: 24 });
    assert_eq!(
        err("2d6 >= 1000000000*1000000000*1000000000"),
        Overflow { at: 29 }
    );
}

#[test]
fn roller_errors_pass_through() {
    let e = evaluate("2d6", &mut FixedRoller::new([3])).unwrap_err();
    assert_eq!(e, Dice(DiceError::FixedExhausted { rolled: 1 }));
    assert!(e.localized(Lang::Ja).contains("尽きました"));
}

#[test]
fn messages_in_both_languages() {
    let e = err("2d6*x");
    assert_eq!(
        e.localized(Lang::En),
        "At position 5: found `x`, but dice like `2d6`, a number or `(` was expected."
    );
    assert_eq!(
        e.localized(Lang::Ja),
        "5文字目: `x` は読めません。`2d6` のようなダイス、数、または `(` が必要です。"
    );
    // Every expectation ending in inline code keeps the space before its particle.
    assert_eq!(
        err("(2d6").localized(Lang::Ja),
        "5文字目: 式が終わっていますが、`)` が必要です。"
    );
    assert!(!err("2d6*").localized(Lang::Ja).contains("`が"));
    let e = err("2d6*");
    assert!(
        e.localized(Lang::En)
            .starts_with("At position 5: the roll ends here"),
        "{e}"
    );
    assert!(
        e.localized(Lang::Ja).starts_with("5文字目: 式が終わっています"),
        "{e}"
    );
    let e = err("100d6ie");
    assert!(e.localized(Lang::En).contains("could need 1100 dice"));
    assert!(e.localized(Lang::Ja).contains("最大1100個"));
    let e = err("21 1d6");
    assert_eq!(
        e.localized(Lang::En),
        "At position 1: 21 sets; the number of sets must be 2 to 20."
    );
    assert_eq!(
        e.localized(Lang::Ja),
        "1文字目: セット数は2〜20です（21は使えません）。"
    );
    assert_eq!(
        err("1d6ir6").localized(Lang::Ja),
        "4文字目: `ir` はどの出目でも条件を満たすため、終わりません。"
    );
}

/// Every variant has a sentence in each language that names the position when it has one.
#[test]
fn every_error_is_localized_with_its_position() {
    let inputs = [
        "",
        "2d6*",
        "99999999999d6",
        "0d6",
        "1d0",
        "1001d6",
        "1;2;3;4;5",
        "1 1d6",
        "x0 1d6",
        "x2 x3 1d6",
        "choice[a,,b]",
        "choice3[a,b]",
        "((((((((((((((((((1))))))))))))))))))",
        "1d6e6e5",
        "4d6k3kl1",
        "1d6e7",
        "4d6k5",
        "1d6ie1",
        "(1d6)D6",
        "C(1/0)",
        "C(1000000000*1000000000*1000000000)",
        "4d6 k",
        "1d20+dex",
    ];
    let mut seen = std::collections::HashSet::new();
    for input in inputs {
        let e = err(input);
        seen.insert(std::mem::discriminant(&e));
        let (en, ja) = (e.localized(Lang::En), e.localized(Lang::Ja));
        assert_ne!(en, ja, "{input}");
        assert!(ja.chars().any(|c| c > '\u{3000}'), "{input}: {ja}");
        if let Some(at) = position(&e) {
            assert!(en.contains(&format!("position {at}")), "{input}: {en}");
            assert!(ja.contains(&format!("{at}文字目")), "{input}: {ja}");
        }
    }
    assert_eq!(seen.len(), inputs.len(), "one input per variant");
}

fn position(e: &NotationError) -> Option<usize> {
    match *e {
        Unexpected { at, .. }
        | NumberTooLarge { at, .. }
        | ZeroDice { at }
        | SidesOutOfRange { at, .. }
        | SetsOutOfRange { at, .. }
        | RepeatOutOfRange { at, .. }
        | NestedRepeat { at }
        | TooManyChoices { at, .. }
        | EmptyChoice { at }
        | PickOutOfRange { at, .. }
        | TooDeep { at, .. }
        | TooManyTerms { at, .. }
        | DuplicateModifier { at, .. }
        | ConflictingModifiers { at, .. }
        | ThresholdOutOfRange { at, .. }
        | KeepOutOfRange { at, .. }
        | EndlessChain { at, .. }
        | DiceCountNotConstant { at }
        | DivisionByZero { at }
        | Overflow { at }
        | DidYouMean { at, .. }
        | NotANumber { at, .. } => Some(at),
        Empty | InputTooLong { .. } | TooManyDice { .. } | TooManyRolls { .. } | Dice(_) => None,
    }
}

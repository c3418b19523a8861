//! What Avrae's users type from the d20 library (issue 31): annotations labelling the term
//! before them, the minimum `mi`, reroll-and-add `ra` and the `<` / `>` selectors of `ro` / `rr`.
//! Every input is exact, with fixed dice.

mod notation_support;
use notation_support::{group, line, roll, total};

use saikoro::dice::FixedRoller;
use saikoro::i18n::{Lang, Localized};
use saikoro::notation::{DiceGroup, Hint, NotationError, Status, evaluate};

/// Faces in roll order with `r` for a die rolled away, `!` for one that added a die.
fn marks(g: &DiceGroup) -> String {
    g.dice
        .iter()
        .map(|d| {
            let s = if d.status == Status::Rerolled { "r" } else { "" };
            let from = d.raised_from.map(|f| format!("{f}→")).unwrap_or_default();
            format!("{from}{}{s}{}", d.face, if d.exploded { "!" } else { "" })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn err(input: &str) -> NotationError {
    let mut r = FixedRoller::new([1; 64]);
    let e = evaluate(input, &mut r).expect_err(input);
    assert_eq!(r.remaining(), 64, "{input}: refused after rolling");
    e
}

#[test]
fn a_bracketed_word_labels_the_term_before_it() {
    // 11 + 5: the annotation changes nothing, and stays in the expression the reply shows.
    let o = roll("1d20 + 5 [fire]", &[11]);
    assert_eq!(line(&o).total, Some(16));
    assert_eq!(line(&o).expression, "1d20 + 5 [fire]");
    assert!(o.comment.is_none());
    assert_eq!(total("2d6 [attack]", &[3, 4]), 7);
    assert_eq!(line(&roll("2d6 [attack]", &[3, 4])).groups[0].text, "2d6");
    // On each term, touching or spaced, in Japanese too.
    assert_eq!(total("1d8[slashing] + 2d6 [fire] + 3", &[5, 1, 2]), 11);
    assert_eq!(total("2d6[炎]+1", &[6, 6]), 13);
    // A comment after the annotation is still a comment.
    let o = roll("1d20 + 5 [fire] Firebolt", &[2]);
    assert_eq!(line(&o).total, Some(7));
    assert_eq!(o.comment.as_deref(), Some("Firebolt"));
}

#[test]
fn brackets_without_a_word_are_no_annotation() {
    for input in ["2d6 [6]", "2d6 [>=5]", "2d6 [fire", "2d6 []"] {
        assert!(
            matches!(err(input), NotationError::Unexpected { .. }),
            "{input}: {:?}",
            err(input)
        );
    }
}

#[test]
fn minimum_raises_each_lower_die() {
    // Only the 1 is below 2: it counts 2. 2 + 3 + 5 + 2 = 12.
    let g = group("4d6mi2", &[1, 3, 5, 2]);
    assert_eq!(marks(&g), "1→2 3 5 2");
    assert_eq!(g.subtotal, 12);
    // Before keep: the raised dice are ranked by what they count.
    assert_eq!(total("4d6mi3k3", &[1, 1, 6, 2]), 12);
    // After a reroll: the replacement is raised, the die rolled away is not.
    assert_eq!(marks(&group("2d6ro1mi3", &[1, 4, 2])), "1r 4 2→3");
    assert!(matches!(
        err("4d6mi7"),
        NotationError::ThresholdOutOfRange {
            modifier: "mi",
            value: 7,
            ..
        }
    ));
    assert!(matches!(
        err("4d6mi2mi3"),
        NotationError::DuplicateModifier { .. }
    ));
}

#[test]
fn reroll_and_add_adds_one_die_on_the_highest_face_or_above_a_number() {
    // 10d6ra6: the two 6s add one die each; the added 6 adds nothing (once only).
    let g = group("10d6ra6", &[6, 1, 1, 1, 1, 1, 1, 1, 6, 1, 6, 3]);
    assert_eq!(g.dice.len(), 12);
    assert_eq!(g.subtotal, 6 + 8 + 6 + 6 + 3);
    assert!(g.dice[0].exploded && g.dice[8].exploded && !g.dice[10].exploded);
    // ra>4: 5 and 6 add one.
    assert_eq!(total("3d6ra>4", &[5, 4, 6, 1, 2]), 18);
    // Exactly 5, or below 3, is no explosion here: refused with the nearest to type.
    for (input, suggestion) in [("10d6ra5", "10d6e5"), ("4d6ra<3", "4d6e6"), ("4d6ra>6", "4d6e6")] {
        match err(input) {
            NotationError::DidYouMean {
                hint: Hint::RerollAndAdd,
                suggestion: s,
                ..
            } => assert_eq!(s, suggestion, "{input}"),
            e => panic!("{input}: {e:?}"),
        }
    }
    let e = err("10d6ra5");
    assert!(e.localized(Lang::En).contains("Did you mean `10d6e5`?"));
    assert!(
        e.localized(Lang::Ja)
            .contains("`ra` で1個振り足せるのは最大の出目")
    );
}

#[test]
fn reroll_selectors_read_below_and_above() {
    // ro<3: the 1 and the 2 are rerolled once (the new 2 stays); 3 and 6 are not.
    let g = group("4d6ro<3", &[1, 2, 3, 6, 2, 5]);
    assert_eq!(marks(&g), "1r 2r 3 6 2 5");
    assert_eq!(g.subtotal, 2 + 5 + 3 + 6);
    // rr<3: until it shows 3 or more.
    assert_eq!(marks(&group("1d6rr<3", &[1, 2, 3])), "1r 2r 3");
    // ro>4: the 5 and the 6 once.
    assert_eq!(total("3d6ro>4", &[5, 6, 2, 6, 1]), 9);
    // A bare number keeps Dice Maiden's reading: ro2 is 2 or less.
    assert_eq!(marks(&group("2d6ro2", &[2, 3, 4])), "2r 3 4");
    assert!(matches!(
        err("4d6ro<7"),
        NotationError::ThresholdOutOfRange {
            modifier: "ro",
            value: 7,
            ..
        }
    ));
}

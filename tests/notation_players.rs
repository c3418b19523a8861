//! What players of other bots type (issue 15): comments after the roll as Avrae, RPG Sage and
//! BCDice read them, the keep/drop spellings of Avrae, Roll20 and the d20 library, Roll20's `!`,
//! Dice Maiden's aliases, and refusals that say what to type instead. Every input is exact.

mod notation_support;
use notation_support::{group, line, roll, total};

use saikoro::dice::FixedRoller;
use saikoro::i18n::{Lang, Localized};
use saikoro::notation::{DiceGroup, Hint, NotationError, Status, Verdict, evaluate};

use NotationError::*;

fn successes(input: &str, faces: &[u32]) -> i64 {
    line(&roll(input, faces)).successes.unwrap()
}

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

fn err(input: &str) -> NotationError {
    let mut r = FixedRoller::new([1; 64]);
    let e = evaluate(input, &mut r).expect_err(input);
    assert_eq!(r.remaining(), 64, "{input}: refused after rolling");
    e
}

fn suggestion(input: &str) -> (Hint, String) {
    match err(input) {
        DidYouMean { hint, suggestion, .. } => (hint, suggestion),
        e => panic!("{input}: {e:?}"),
    }
}

// ---- Comments ----

#[test]
fn text_after_a_roll_is_a_comment() {
    let o = roll("2d6 attack", &[3, 4]);
    assert_eq!((line(&o).total, o.comment.as_deref()), (Some(7), Some("attack")));
    assert_eq!(line(&o).expression, "2d6");
    let o = roll("2D6>=7 attack", &[3, 5]);
    assert_eq!(o.comment.as_deref(), Some("attack"));
    assert_eq!(line(&o).verdict, Some(Verdict::Success));
    let o = roll("1d20+5 # attack", &[11]);
    assert_eq!((line(&o).total, o.comment.as_deref()), (Some(16), Some("attack")));
    assert_eq!(roll("1d20+5 #attack", &[11]).comment.as_deref(), Some("attack"));
    assert_eq!(roll("1d20+5#attack", &[11]).comment.as_deref(), Some("attack"));
    // Several words, modifiers before them, words that start like modifiers.
    let o = roll("4d6 k3 best of four", &[2, 5, 1, 4]);
    assert_eq!(
        (line(&o).total, o.comment.as_deref()),
        (Some(11), Some("best of four"))
    );
    let o = roll("2d6 damage to the orc", &[1, 2]);
    assert_eq!(
        (line(&o).total, o.comment.as_deref()),
        (Some(3), Some("damage to the orc"))
    );
    let o = roll("1d20 explosion check", &[9]);
    assert_eq!(
        (line(&o).total, o.comment.as_deref()),
        (Some(9), Some("explosion check"))
    );
    // Flags, labels and sets keep working before it; only the last `;` roll takes one.
    let o = roll("p (Hit) 1d20+2 vs AC", &[10]);
    assert!(o.flags.private);
    assert_eq!(
        (o.label.as_deref(), o.comment.as_deref()),
        (Some("Hit"), Some("vs AC"))
    );
    assert!(
        matches!(err("2 fireball"), Unexpected { at: 3, .. }),
        "no roll of 2 with a comment"
    );
    assert_eq!(
        roll("2 attack", &[5, 6]).lines.len(),
        2,
        "two sets of the `attack` alias"
    );
    let o = roll("2 1d6 fire", &[1, 2]);
    assert_eq!((o.lines.len(), o.comment.as_deref()), (2, Some("fire")));
    let o = roll("1d20; 2d6 damage", &[5, 1, 1]);
    assert_eq!((o.lines.len(), o.comment.as_deref()), (2, Some("damage")));
}

#[test]
fn where_text_could_be_notation_notation_wins() {
    // Modifiers after a space are modifiers, not a comment.
    let o = roll("4d6 k3", &[2, 5, 1, 4]);
    assert_eq!((line(&o).total, o.comment.as_deref()), (Some(11), None));
    let o = roll("1d20 adv", &[3, 15]);
    assert_eq!((line(&o).total, o.comment), (Some(15), None));
    // A one-letter word or a modifier-looking word is a typo of notation: refused, not a comment.
    assert!(matches!(err("2d6 x"), Unexpected { at: 5, .. }));
    assert!(matches!(err("1d20+5 e6"), Unexpected { at: 8, .. }));
    assert!(matches!(err("4d6 kh"), DidYouMean { .. }));
    // Dice Maiden aliases are read before text: `attack +5` rolls.
    assert_eq!(total("attack +5", &[11]), 16);
    // An operator missing its operand is no comment.
    assert!(err("2d6 + attack x").to_string().contains("position"));
}

#[test]
fn bang_explodes_touching_the_dice_and_is_the_comment_after_a_space() {
    // Roll20: `3d6!` explodes on the highest face, again and again (our `ie`).
    let g = group("3d6!", &[6, 6, 2, 3, 4]);
    assert_eq!(
        marks(&g),
        "6k! 6k! 2k 3k 4k",
        "the first 6 chains to a 3, the second to a 4"
    );
    assert_eq!(g.subtotal, 21);
    assert_eq!(total("4d6!k3", &[6, 1, 2, 3, 5]), 14);
    assert_eq!(total("1d6!+2", &[6, 1]), 9);
    // Dice Maiden: `!` after a space starts the comment.
    let o = roll("2d6 ! comment", &[6, 6]);
    assert_eq!(
        (line(&o).total, o.comment.as_deref()),
        (Some(12), Some("comment"))
    );
    assert!(!line(&o).groups[0].dice[0].exploded);
    let o = roll("1d20+5!note", &[20]);
    assert_eq!((line(&o).total, o.comment.as_deref()), (Some(25), Some("note")));
    // Both: explode, then a comment.
    let o = roll("3d6! fire damage", &[6, 1, 2, 3]);
    assert_eq!(
        (line(&o).total, o.comment.as_deref()),
        (Some(12), Some("fire damage"))
    );
    let o = roll("3d6! ! fire", &[1, 2, 3]);
    assert_eq!((line(&o).total, o.comment.as_deref()), (Some(6), Some("fire")));
    // `!` counts as `ie`: no second explosion.
    assert_eq!(
        err("3d6! ie"),
        DuplicateModifier {
            at: 6,
            modifier: "ie"
        }
    );
    assert_eq!(
        err("3d6!e"),
        ConflictingModifiers {
            at: 5,
            modifier: "e",
            other: "!"
        }
    );
    assert_eq!(err("1d1!"), EndlessChain { at: 4, modifier: "!" });
}

#[test]
fn roll20_explosion_forms_we_do_not_read_say_what_to_type() {
    assert_eq!(suggestion("3d6!!"), (Hint::ExplodeVariant, "3d6!".into()));
    assert_eq!(suggestion("3d6!p"), (Hint::ExplodeVariant, "3d6!".into()));
    assert_eq!(suggestion("3d6!>5"), (Hint::ExplodeCompare, "3d6 ie5".into()));
    assert_eq!(
        suggestion("3d6!>=5+2"),
        (Hint::ExplodeCompare, "3d6 ie5+2".into())
    );
    // `1d20!note` explodes the d20, so `note` is no comment: put a space before `!`.
    assert_eq!(
        suggestion("1d20!note"),
        (Hint::TextAfterExplode, "1d20 !note".into())
    );
    assert_eq!(roll("1d20 !note", &[7]).comment.as_deref(), Some("note"));
}

// ---- Keep and drop ----

#[test]
fn keep_and_drop_spellings_of_avrae_roll20_and_d20() {
    assert_eq!(marks(&group("4d6kh3", &[2, 5, 1, 4])), "2k 5k 1x 4k");
    assert_eq!(total("4d6kh3", &[2, 5, 1, 4]), 11);
    assert_eq!(marks(&group("2d20kl1", &[12, 7])), "12x 7k");
    assert_eq!(marks(&group("4d6dh1", &[2, 5, 1, 4])), "2k 5x 1k 4k");
    assert_eq!(total("4d6dh1", &[2, 5, 1, 4]), 7);
    assert_eq!(marks(&group("4d6dl1", &[2, 5, 1, 4])), "2k 5k 1x 4k");
    assert_eq!(marks(&group("4d6 pl1", &[2, 5, 1, 4])), "2k 5k 1x 4k");
    assert_eq!(marks(&group("4d6ph2", &[2, 5, 1, 4])), "2k 5x 1k 4x");
    // Ties: drop-highest drops the later of equal dice.
    assert_eq!(marks(&group("3d6dh1", &[6, 6, 1])), "6k 6x 1k");
    // d20 rerolls: `ro` once, `rr` until above.
    assert_eq!(marks(&group("1d6ro1", &[1, 1])), "1r 1k");
    assert_eq!(marks(&group("1d6rr2", &[1, 2, 3])), "1r 2r 3k");
    // One keep/drop per group, whatever the spelling.
    assert_eq!(
        err("4d6kh3dl1"),
        ConflictingModifiers {
            at: 7,
            modifier: "dl",
            other: "kh"
        }
    );
    assert_eq!(
        err("4d6k3kh2"),
        DuplicateModifier {
            at: 6,
            modifier: "kh"
        }
    );
    // BCDice reads these literally: dropping every die leaves 0, keeping more than there are
    // keeps them all. Dice Maiden's own `d` still refuses to drop every die.
    assert_eq!(total("4d6dh4", &[2, 5, 1, 4]), 0);
    assert_eq!(total("4d6kh9", &[2, 5, 1, 4]), 12);
    assert_eq!(
        err("4d6 d4"),
        KeepOutOfRange {
            at: 5,
            modifier: "d",
            n: 4,
            dice: 4,
            max: 3
        }
    );
}

#[test]
fn a_keep_without_its_count_is_refused_with_it() {
    // Attached, BCDice's and Roll20's `kh`/`kl`/`dh`/`dl` keep or drop one (`4d6kh` = `4d6kh1`).
    assert_eq!(total("4d6kh", &[2, 5, 1, 4]), 5);
    assert_eq!(total("4d6dl", &[2, 5, 1, 4]), 11);
    // Spaced, or Dice Maiden's `k`, the count is asked for.
    assert_eq!(suggestion("2d20 k"), (Hint::CountMissing, "2d20 k1".into()));
    assert_eq!(suggestion("4d6 k 3"), (Hint::CountMissing, "4d6 k3".into()));
    assert_eq!(suggestion("4d6 dl +2"), (Hint::CountMissing, "4d6 dl1 +2".into()));
}

// ---- Dice Maiden aliases ----

#[test]
fn plus_and_minus_d20_are_advantage_and_disadvantage() {
    // Dice Maiden: `+d20` = `2d20 d1`, `-d20` = `2d20 kl1`; never a plain d20 or a negative.
    let g = group("+d20", &[3, 15]);
    assert_eq!((g.count, g.sides, g.subtotal), (2, 20, 15));
    assert_eq!(marks(&g), "3x 15k");
    assert_eq!(g.text, "2d20 d1");
    let g = group("-d20", &[3, 15]);
    assert_eq!((g.subtotal, marks(&g)), (3, "3k 15x".into()));
    assert_eq!(g.text, "2d20 kl1");
    assert_eq!(total("+d20+5", &[3, 15]), 20);
    assert_eq!(total("-d20 - 1", &[3, 15]), 2);
    assert_eq!(total("+d12", &[12, 1]), 12);
    let o = roll("-d20 stealth", &[18, 4]);
    assert_eq!((line(&o).total, o.comment.as_deref()), (Some(4), Some("stealth")));
    assert_eq!(line(&o).expression, "-d20");
    // With a BCDice target too.
    assert_eq!(line(&roll("+d20>=15", &[3, 15])).verdict, Some(Verdict::Success));
    // Only at the start of a roll: elsewhere the sign is arithmetic, as before.
    assert_eq!(total("1d4 +d20", &[2, 10]), 12);
    assert_eq!(total("-1d4+10", &[3]), 7);
    // Percentile: the tens die rolled twice, advantage keeps the lower (roll-under).
    let o = roll("+d%", &[3, 7, 4]);
    assert_eq!(line(&o).total, Some(24));
    assert_eq!(line(&o).groups.len(), 2);
    assert_eq!(total("-d%", &[3, 7, 4]), 64);
    assert_eq!(total("-d%", &[10, 10, 10]), 100);
}

#[test]
fn dndstats_rolls_six_sets_of_four_d6_keep_three() {
    let faces = [
        1, 2, 3, 4, 5, 5, 5, 5, 6, 6, 6, 6, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
    ];
    let o = roll("dndstats", &faces);
    let totals: Vec<_> = o.lines.iter().map(|l| l.total.unwrap()).collect();
    assert_eq!(totals, [9, 15, 18, 3, 6, 9]);
    assert_eq!(o.lines[0].expression, "dndstats");
    assert_eq!(o.lines[0].groups[0].text, "4d6 k3");
    let o = roll("DnDStats new character", &faces);
    assert_eq!(o.comment.as_deref(), Some("new character"));
    assert!(matches!(err("2 dndstats"), NestedRepeat { .. }));
}

#[test]
fn fate_dice() {
    // Each dF is a d3 read as −1, 0, +1 (Dice Maiden's mapping).
    let g = group("4dF", &[1, 2, 3, 3]);
    assert!(g.fudge);
    assert_eq!((g.sides, g.subtotal), (3, 1));
    assert_eq!(total("4df", &[1, 1, 1, 2]), -3);
    assert_eq!(total("4dF+2", &[3, 3, 2, 1]), 3);
    assert_eq!(total("dF", &[3]), 1);
    assert_eq!(total("4dF+2>=3", &[3, 3, 2, 1]), 3);
    assert!(!group("4d6", &[1, 1, 1, 1]).fudge);
    assert_eq!(suggestion("4dF k2"), (Hint::FudgeModifier, "4dF".into()));
    assert_eq!(suggestion("4dF!"), (Hint::FudgeModifier, "4dF".into()));
    let json = serde_json::to_string(&roll("4dF", &[1, 2, 3, 3])).unwrap();
    assert!(json.contains("\"fudge\":true"), "{json}");
    let json = serde_json::to_string(&roll("2d6", &[1, 2])).unwrap();
    assert!(!json.contains("fudge"), "{json}");
}

#[test]
fn other_dice_maiden_aliases_as_dice_maiden_defines_them() {
    // Chronicles of Darkness: 10-again (`ie10 t8`), 8-again, 9-again, rote (`r7 t8`).
    let o = roll("4cod", &[10, 8, 3, 7, 9]);
    assert_eq!(line(&o).successes, Some(3));
    assert_eq!(line(&o).groups[0].text, "4d10 ie10 t8");
    assert_eq!(successes("2cod8", &[8, 9, 1, 2]), 2);
    assert_eq!(successes("2cod9", &[9, 2, 5]), 1);
    assert_eq!(successes("2codr", &[3, 8, 9]), 2);
    // World of Darkness: `f1 t<N>` (Dice Maiden leaves explosions off).
    assert_eq!(successes("4wod8", &[1, 8, 9, 5]), 1);
    // Warhammer: `3wh4+` = `3d6 t4`.
    assert_eq!(successes("3wh4+", &[4, 3, 6]), 2);
    assert_eq!(total("age", &[3, 4, 5]), 12);
    assert_eq!(line(&roll("age", &[3, 4, 5])).groups.len(), 2);
    assert_eq!(successes("sr6", &[5, 6, 1, 2, 3, 4]), 2);
    assert_eq!(successes("sp2", &[10, 8, 1]), 2);
    assert_eq!(successes("6yz", &[6, 1, 2, 3, 4, 6]), 2);
    // Exalted: 7+ succeeds, a 10 counts twice.
    assert_eq!(successes("ex5", &[10, 7, 3, 2, 1]), 3);
    assert_eq!(successes("ex3t8", &[10, 7, 8]), 3);
    assert_eq!(successes("snm2", &[6, 4, 1]), 2);
    assert_eq!(total("d6s4", &[1, 2, 3, 4, 6, 2]), 18);
    assert_eq!(total("d6s", &[6, 1]), 7);
    assert_eq!(total("dd34", &[2, 3]), 23);
    assert_eq!(total("2d%", &[50, 60]), 110);
    // D&D quick rolls.
    assert_eq!(total("attack +5", &[11]), 16);
    assert_eq!(total("skill -2", &[11]), 9);
    let o = roll("save +3", &[11]);
    assert_eq!(line(&o).total, Some(14));
    assert!(!o.flags.secret, "the `s` of `save` is no BCDice secret");
    assert!(roll("Ssave +3", &[11]).flags.secret);
    // Upper case, and errors placed at the alias.
    assert_eq!(successes("4COD", &[1, 2, 3, 4]), 0);
    assert!(matches!(
        err("ex5t11"),
        ThresholdOutOfRange { at: 1, value: 11, .. }
    ));
    assert!(matches!(
        err("2d6 + 3wh7+"),
        ThresholdOutOfRange { at: 7, value: 7, .. }
    ));
}

// ---- Refusals with a suggestion ----

#[test]
fn advantage_written_after_the_math_rolls_the_one_d20_twice() {
    // Avrae's form: 2d20kh1+5 with faces 7, 15 → 15 + 5.
    let o = roll("1d20+5 adv", &[7, 15]);
    assert_eq!(line(&o).expression, "2d20kh1+5");
    assert_eq!(marks(&line(&o).groups[0]), "7x 15k");
    assert_eq!(line(&o).total, Some(20));
    assert_eq!(o.comment, None);
    // 2d20kl1-2 with faces 7, 15 → 7 − 2; `Hide` is the comment.
    let o = roll("1d20-2 dis Hide", &[7, 15]);
    assert_eq!(line(&o).expression, "2d20kl1-2");
    assert_eq!(marks(&line(&o).groups[0]), "7k 15x");
    assert_eq!(line(&o).total, Some(5));
    assert_eq!(o.comment.as_deref(), Some("Hide"));
    let o = roll("(Hit) d20+1d4+3 advantage to hit", &[2, 18, 4]);
    assert_eq!(line(&o).expression, "2d20kh1+1d4+3");
    assert_eq!(line(&o).total, Some(25));
    assert_eq!(o.comment.as_deref(), Some("to hit"));
    assert_eq!(o.label.as_deref(), Some("Hit"));
}

#[test]
fn advantage_after_the_math_without_exactly_one_d20_is_refused_with_the_roll_to_type() {
    assert_eq!(suggestion("1d6+5 adv"), (Hint::AdvantageWord, "2d6 k1+5".into()));
    assert_eq!(
        suggestion("1d20+1d20+2 dis"),
        (Hint::AdvantageWord, "2d20 kl1+1d20+2".into())
    );
    assert!(matches!(err("2d20+5 adv"), Unexpected { at: 8, .. }));
    assert!(matches!(err("1d20k1+5 adv"), Unexpected { at: 10, .. }));
}

#[test]
fn a_comment_before_a_semicolon_suggests_labels() {
    assert_eq!(
        suggestion("1d20+5 attack; 2d6 damage"),
        (
            Hint::CommentBeforeSemicolon,
            "(attack) 1d20+5; (damage) 2d6".into()
        )
    );
    assert!(roll("(attack) 1d20+5; (damage) 2d6", &[1, 1, 1]).lines.len() == 2);
}

#[test]
fn suggestions_are_localized() {
    let e = err("2d20 k");
    assert_eq!(
        e.localized(Lang::En),
        "At position 7: a keep or drop needs its count right after it. Did you mean `2d20 k1`?"
    );
    assert_eq!(
        e.localized(Lang::Ja),
        "7文字目: キープ・ドロップの直後に個数が必要です。`2d20 k1` ではありませんか？"
    );
    for input in [
        "3d6!!",
        "3d6!>5",
        "1d20!note",
        "1d6+5 adv",
        "1d20 hit; 2d6 dmg now",
        "4dF k1",
    ] {
        let e = err(input);
        let (en, ja) = (e.localized(Lang::En), e.localized(Lang::Ja));
        assert!(en.contains("Did you mean `"), "{input}: {en}");
        assert!(ja.contains("ではありませんか"), "{input}: {ja}");
    }
}

// ---- Silent misreads refused (issue 31) ----

#[test]
fn a_bare_d_asks_for_the_sides() {
    for (input, at) in [
        ("d", 1),
        ("D", 1),
        ("(Hit) d", 7),
        ("d attack", 1),
        ("dd", 1),
        ("p DD", 3),
    ] {
        assert_eq!(suggestion(input), (Hint::SidesMissing, "1d6".into()), "{input}");
        assert!(
            matches!(err(input), DidYouMean { at: a, .. } if a == at),
            "{input}"
        );
    }
    let e = err("D");
    assert_eq!(
        e.localized(Lang::En),
        "At position 1: a die needs its number of sides after `d` (`d6`, `d20`, `d%`). Did you mean `1d6`?"
    );
    assert!(e.localized(Lang::Ja).contains("面数が必要です"));
    // With a count or sides it rolls as before: `5D` is BCDice's 5D6.
    assert_eq!(total("5D", &[1, 2, 3, 4, 5]), 15);
    assert_eq!(total("d6", &[4]), 4);
}

#[test]
fn a_flag_after_the_roll_is_refused_with_the_flag_first() {
    assert_eq!(suggestion("4d6 ul"), (Hint::FlagAfterRoll, "ul 4d6".into()));
    assert_eq!(suggestion("2d6+1 nr"), (Hint::FlagAfterRoll, "nr 2d6+1".into()));
    let e = err("4d6 ul");
    assert!(e.localized(Lang::Ja).contains("ロールの前"));
    assert!(roll("ul 4d6", &[1, 2, 3, 4]).flags.unsorted);
}

#[test]
fn the_command_name_before_the_roll_is_refused_with_the_roll_alone() {
    assert_eq!(suggestion("roll 2d6"), (Hint::CommandWord, "2d6".into()));
    assert_eq!(suggestion("/roll 2d6"), (Hint::CommandWord, "2d6".into()));
    let e = err("/roll 2d6");
    assert_eq!(
        e.localized(Lang::En),
        "At position 1: type only the roll: the command is already /roll. Did you mean `2d6`?"
    );
    assert!(e.localized(Lang::Ja).contains("`2d6` ではありませんか"));
}

#[test]
fn a_sheet_value_in_the_math_says_to_type_the_number() {
    let e = err("1d20+dex");
    assert_eq!(
        e,
        NotANumber {
            at: 6,
            word: "dex".into()
        }
    );
    assert_eq!(
        e.localized(Lang::En),
        "At position 6: `dex` is not a number: sheet values are not read by /roll; type the number."
    );
    assert!(e.localized(Lang::Ja).contains("シートの値を読みません"));
    assert!(matches!(err("2d6 - str"), NotANumber { at: 7, .. }));
}

#[test]
fn call_of_cthulhu_checks_point_to_the_d100_roll() {
    assert_eq!(suggestion("CC<=50"), (Hint::CthulhuCheck, "1D100<=50".into()));
    assert_eq!(suggestion("CCB<=50"), (Hint::CthulhuCheck, "1D100<=50".into()));
    let e = err("CC<=50");
    assert!(e.localized(Lang::En).contains("Did you mean `1D100<=50`?"));
    assert!(e.localized(Lang::Ja).contains("`1D100<=50` ではありませんか"));
    // The suggestion rolls: 37 is at most 50.
    let o = roll("1D100<=50", &[37]);
    assert_eq!(line(&o).verdict, Some(Verdict::Success));
}

#[test]
fn full_width_call_of_cthulhu_checks_point_to_the_same_d100_roll() {
    assert_eq!(suggestion("ＣＣ<=50"), (Hint::CthulhuCheck, "1D100<=50".into()));
    assert_eq!(suggestion("ＣＣＢ<=50"), (Hint::CthulhuCheck, "1D100<=50".into()));
    assert_eq!(
        suggestion("ＣＣ＜＝５０"),
        (Hint::CthulhuCheck, "1D100<=50".into())
    );
}

//! Dice Maiden notation with exact faces: every operator, stage and flag.

use saikoro::dice::FixedRoller;
use saikoro::notation::{DiceGroup, Kind, Origin, RollLine, RollOutcome, Status, evaluate};

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

#[test]
fn dice_groups_and_math() {
    assert_eq!(total("2d6", &[3, 4]), 7);
    assert_eq!(total("d20", &[17]), 17);
    assert_eq!(total("d%", &[57]), 57);
    assert_eq!(group("d%", &[57]).sides, 100);
    assert_eq!(total("2d6+1d4-3", &[3, 4, 2]), 6);
    assert_eq!(total("1d20 + 5", &[11]), 16);
    assert_eq!(total("2d6*3", &[1, 2]), 9);
    assert_eq!(total("1d6+2*3", &[4]), 10, "precedence");
    assert_eq!(total("(1d6+2)*3", &[4]), 18, "parentheses");
    assert_eq!(total("2D6", &[6, 6]), 12, "upper case");
    assert_eq!(total("-1d4+10", &[3]), 7);
    let o = roll("2d6+1d4-3", &[3, 4, 2]);
    let l = line(&o);
    assert_eq!(l.kind, Kind::Dice);
    assert_eq!(l.groups.len(), 2);
    assert_eq!((l.groups[0].subtotal, l.groups[1].subtotal), (7, 2));
    assert_eq!(l.groups[0].text, "2d6");
}

#[test]
fn division_is_integer_rounding_down() {
    assert_eq!(total("1d6/2", &[5]), 2);
    assert_eq!(total("1d6/3", &[6]), 2);
    assert_eq!(total("1d6/4", &[3]), 0);
    // Down means toward negative infinity: -5/2 = -3.
    assert_eq!(total("0-1d6/2", &[5]), -2);
    assert_eq!(total("(0-1d6)/2", &[5]), -3);
}

#[test]
fn keep_and_drop() {
    assert_eq!(marks(&group("4d6k3", &[2, 5, 1, 4])), "2k 5k 1x 4k");
    assert_eq!(group("4d6k3", &[2, 5, 1, 4]).subtotal, 11);
    assert_eq!(marks(&group("4d6kl2", &[2, 5, 1, 4])), "2k 5x 1k 4x");
    assert_eq!(marks(&group("4d6d1", &[2, 5, 1, 4])), "2k 5k 1x 4k");
    assert_eq!(marks(&group("5d6km3", &[6, 1, 4, 2, 5])), "6x 1x 4k 2k 5k");
    // Middle with an odd remainder drops the extra die from the top.
    assert_eq!(marks(&group("4d6km1", &[6, 1, 4, 2])), "6x 1x 4x 2k");
}

#[test]
fn keep_and_drop_ties_keep_earlier_dice() {
    assert_eq!(marks(&group("3d6k1", &[5, 5, 2])), "5k 5x 2x");
    assert_eq!(marks(&group("3d6kl1", &[2, 5, 2])), "2k 5x 2x");
    assert_eq!(marks(&group("4d6d1", &[3, 1, 1, 5])), "3k 1k 1x 5k");
    assert_eq!(marks(&group("4d6d2", &[4, 4, 4, 4])), "4k 4k 4x 4x");
}

#[test]
fn advantage_and_disadvantage_drop_before_exploding() {
    assert_eq!(marks(&group("1d20adv", &[7, 15])), "7x 15k");
    assert_eq!(total("1d20adv", &[7, 15]), 15);
    assert_eq!(total("1d20dis", &[7, 15]), 7);
    assert_eq!(marks(&group("2d6adv2", &[1, 6, 3, 2])), "1x 6k 3k 2x");
    // The dropped 6 does not explode; the kept 6 does.
    assert_eq!(marks(&group("1d6adv1e", &[6, 6, 2])), "6k! 6x 2k");
    assert_eq!(total("1d6adv1e", &[6, 6, 2]), 8);
}

#[test]
fn explode_once_on_max_or_threshold() {
    // `e` explodes once: the extra 6 does not explode again.
    assert_eq!(marks(&group("3d6e", &[6, 2, 6, 6, 3])), "6k! 2k 6k! 6k 3k");
    assert_eq!(total("3d6e", &[6, 2, 6, 6, 3]), 23);
    let g = group("3d6e", &[6, 2, 6, 6, 3]);
    assert_eq!(g.dice[3].origin, Origin::Explosion { from: 0 });
    assert_eq!(g.dice[4].origin, Origin::Explosion { from: 2 });
    assert_eq!(marks(&group("2d10e8", &[8, 7, 2])), "8k! 7k 2k");
}

#[test]
fn indefinite_explosions_chain_and_are_capped() {
    let g = group("1d6ie", &[6, 6, 2]);
    assert_eq!(marks(&g), "6k! 6k! 2k");
    assert_eq!(g.dice[2].origin, Origin::Explosion { from: 1 });
    assert_eq!(g.subtotal, 14);
    assert_eq!(total("2d6ie5", &[5, 1, 6, 3]), 15);
    // Eleven sixes: the base die plus the cap of ten extra dice, then the chain stops.
    let o = roll("1d6ie", &[6; 11]);
    assert!(line(&o).capped);
    assert_eq!(line(&o).total, Some(66));
    assert!(!line(&roll("1d6ie", &[6, 6, 2])).capped);
}

#[test]
fn explode_then_keep_whatever_order_it_is_written() {
    for input in ["3d6e6k2", "3d6k2e6"] {
        let g = group(input, &[6, 1, 2, 3]);
        assert_eq!(marks(&g), "6k! 1x 2x 3k", "{input}");
        assert_eq!(g.subtotal, 9, "{input}");
    }
    // An exploded die can itself be dropped.
    assert_eq!(marks(&group("2d6ek1", &[6, 5, 1])), "6k! 5x 1x");
}

#[test]
fn implode_subtracts_an_extra_die() {
    let g = group("3d6i", &[1, 4, 5, 3]);
    assert_eq!(marks(&g), "1k 4k 5k 3s");
    assert!(g.dice[0].imploded);
    assert_eq!(g.dice[3].origin, Origin::Implosion { from: 0 });
    assert_eq!(g.subtotal, 1 + 4 + 5 - 3);
    assert_eq!(total("2d6i2", &[2, 1, 4, 6]), 3 - 10);
}

#[test]
fn reroll_once_versus_until() {
    // r1: once, even if the new die is a 1 again.
    let g = group("2d6r1", &[1, 4, 1]);
    assert_eq!(marks(&g), "1r 4k 1k");
    assert_eq!(g.dice[2].origin, Origin::Reroll { from: 0 });
    assert_eq!(g.subtotal, 5);
    // r2 is "2 or less".
    assert_eq!(marks(&group("2d6r2", &[2, 3, 5])), "2r 3k 5k");
    // ir2: until above 2.
    assert_eq!(marks(&group("1d6ir2", &[1, 2, 3])), "1r 2r 3k");
    // rg5 / irg5: 5 or more.
    assert_eq!(marks(&group("2d6rg5", &[5, 2, 6])), "5r 2k 6k");
    assert_eq!(marks(&group("1d6irg5", &[5, 6, 1])), "5r 6r 1k");
    // Reroll-until stops at the cap.
    assert!(line(&roll("1d6ir5", &[1; 11])).capped);
}

#[test]
fn stage_two_runs_in_written_order() {
    // Explode first: the exploded 1 is rerolled too.
    assert_eq!(marks(&group("1d6er1", &[6, 1, 3])), "6k! 1r 3k");
    // Reroll first: the 1 becomes a 6, which then explodes.
    assert_eq!(marks(&group("1d6r1e", &[1, 6, 2])), "1r 6k! 2k");
}

#[test]
fn success_counting_on_kept_dice() {
    let o = roll("10d10e10t8", &[10, 8, 7, 1, 2, 3, 9, 8, 4, 5, 6]);
    let l = line(&o);
    assert_eq!(l.successes, Some(4), "10, 8, 9, 8; the exploded 6 misses");
    assert_eq!(l.total, Some(63));
    let g = &l.groups[0];
    assert_eq!(g.dice[0].success, 1);
    assert_eq!(g.dice[2].success, 0);
    // tl: 2 or less.
    assert_eq!(line(&roll("4d6tl2", &[1, 2, 3, 6])).successes, Some(2));
    // Dropped dice do not count.
    assert_eq!(line(&roll("3d6k1t5", &[6, 5, 5])).successes, Some(1));
}

#[test]
fn failures_botches_and_double_successes() {
    let o = roll("5d10t7f1", &[8, 1, 9, 1, 3]);
    let l = line(&o);
    assert_eq!((l.successes, l.failures, l.botches), (Some(0), Some(2), None));
    let o = roll("4d10t8b", &[1, 9, 1, 2]);
    let l = line(&o);
    assert_eq!((l.successes, l.failures, l.botches), (Some(1), None, Some(2)));
    assert_eq!(line(&roll("4d10t8b2", &[1, 9, 1, 2])).botches, Some(3));
    let o = roll("4d10t7ds10", &[10, 7, 3, 10]);
    assert_eq!(line(&o).successes, Some(5));
    assert_eq!(line(&o).groups[0].dice[0].success, 2);
    // Math changes the total, not the successes.
    let o = roll("3d6t5+10", &[5, 6, 1]);
    assert_eq!((line(&o).total, line(&o).successes), (Some(22), Some(2)));
}

#[test]
fn flags_label_comment() {
    let o = roll("p s nr ul (Attack) 1d20+5 ! with the sword", &[11]);
    assert!(o.flags.private && o.flags.simple && o.flags.no_result && o.flags.unsorted);
    assert!(!o.flags.secret);
    assert_eq!(o.label.as_deref(), Some("Attack"));
    assert_eq!(o.comment.as_deref(), Some("with the sword"));
    assert_eq!(line(&o).total, Some(16));
    assert_eq!(line(&o).expression, "1d20+5");
    for (input, which) in [
        ("p 1d6", 0),
        ("s 1d6", 1),
        ("nr 1d6", 2),
        ("ul 1d6", 3),
        ("P 1d6", 0),
    ] {
        let f = roll(input, &[1]).flags;
        assert_eq!(
            [f.private, f.simple, f.no_result, f.unsorted],
            std::array::from_fn(|i| i == which),
            "{input}"
        );
    }
    let o = roll("1d6", &[1]);
    assert_eq!((o.label, o.comment), (None, None));
    assert_eq!(o.flags, Default::default());
    // `!` with nothing after is no comment.
    assert_eq!(roll("1d6 !", &[1]).comment, None);
}

#[test]
fn sets_roll_the_expression_several_times() {
    let o = roll(
        "6 4d6k3",
        &[
            1, 2, 3, 4, 5, 5, 5, 5, 6, 6, 6, 6, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
        ],
    );
    assert_eq!(o.lines.len(), 6);
    let totals: Vec<_> = o.lines.iter().map(|l| l.total.unwrap()).collect();
    assert_eq!(totals, [9, 15, 18, 3, 6, 9]);
    assert_eq!(
        o.lines.iter().map(|l| l.set.unwrap()).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5, 6]
    );
    let o = roll("(Stats) 2 1d6", &[3, 4]);
    assert_eq!(o.label.as_deref(), Some("Stats"));
    assert_eq!(o.lines.len(), 2);
    assert_eq!(roll("20 1d6", &[1; 20]).lines.len(), 20);
}

#[test]
fn multi_rolls_joined_by_semicolons() {
    let o = roll("1d20+2; 2d6; (Dmg) 1d8 ; 3", &[10, 3, 4, 8]);
    let totals: Vec<_> = o.lines.iter().map(|l| l.total.unwrap()).collect();
    assert_eq!(totals, [12, 7, 8, 3]);
    assert_eq!(o.lines.iter().map(|l| l.roll).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(o.lines[2].label.as_deref(), Some("Dmg"));
    assert_eq!(o.label, None, "the title is the first roll's label");
    let o = roll("2 1d6; 1d4 ! both", &[1, 2, 3]);
    assert_eq!(o.lines.len(), 3);
    assert_eq!(o.comment.as_deref(), Some("both"));
}

#[test]
fn outcome_round_trips_through_json() {
    let o = roll("p (Hit) 4d6k3e6t5 ! x", &[6, 2, 3, 4, 1]);
    let json = serde_json::to_string(&o).unwrap();
    let back: RollOutcome = serde_json::from_str(&json).unwrap();
    assert_eq!(o, back);
    assert!(json.contains("\"status\":\"dropped\""), "{json}");
}

#[test]
fn full_width_input_is_read_like_ascii() {
    assert_eq!(total("２ｄ６＋１", &[3, 4]), 8);
}

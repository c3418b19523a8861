//! Properties: no input panics, and totals stay within what the expression allows.

use proptest::prelude::*;
use saikoro::dice::SeededRoller;
use saikoro::notation::{evaluate, parse};

/// Characters the notation uses, so random strings reach deep into the parser.
const ALPHABET: &str =
    "[0-9dDkKlLmMeEiIrRgGtTfFbBsSaAvVxXpPnNuUyYzZcChHoOwW%()\\[\\]+\\-*/<>=@!#;, 　２Ｄ６]{0,60}";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic(input in any::<String>(), seed in any::<u64>()) {
        let _ = evaluate(&input, &mut SeededRoller::from_seed(seed));
    }

    #[test]
    fn notation_like_strings_never_panic_and_respect_the_worst_case(input in ALPHABET, seed in any::<u64>()) {
        if let Ok(parsed) = parse(&input)
            && let Ok(o) = parsed.roll(&mut SeededRoller::from_seed(seed))
        {
            prop_assert!(o.dice_rolled as u64 <= parsed.worst_case_dice(), "{input}");
            for d in o.lines.iter().flat_map(|l| &l.groups).flat_map(|g| &g.dice) {
                prop_assert!(d.face >= 1 && d.face <= d.sides, "{input}");
            }
        }
    }
}

/// Commands built from real pieces, so most parse and roll.
fn command() -> impl Strategy<Value = String> {
    let modifier = prop::sample::select(vec![
        "", "k2", "kl1", "km1", "d1", "e", "e5", "ie", "ie5", "i", "i2", "r1", "ir2", "rg6", "irg5", "t4",
        "tl2", "f1", "b", "b2", "ds6", "adv", "dis2", "kh2", "dh1", "dl1", "pl1", "ro1", "rr2", "!",
    ]);
    let dm = (
        1u32..=12,
        prop::sample::select(vec![2u32, 4, 6, 10, 20, 100]),
        prop::collection::vec(modifier, 0..3),
    )
        .prop_map(|(n, s, m)| format!("{n}d{s}{}", m.concat()));
    let bc = prop::sample::select(vec![
        "3R6>=5",
        "2R10[9]>=7",
        "4B6>=4",
        "3B6+2B10",
        "3U6[5]+1>=8",
        "2U10",
        "D66",
        "D66S",
        "D66D",
        "choice2[a,b,c]",
        "choice x y",
        "5TY6",
        "3TZ4",
        "C(1+2*3)",
        "S2D6/3R>=2",
        "(1+1)D6/2U",
        "+d20+5",
        "-d%",
        "dndstats",
        "4dF+2",
        "4cod",
        "3wh4+",
        "ex5t8",
        "attack +5",
        "2d6 attack",
        "1d20+5 # hit",
    ]);
    let prefix = prop::sample::select(vec!["", "p ", "s ", "nr ul ", "(Hit) ", "3 ", "x2 ", "S"]);
    let op = prop::sample::select(vec!["", "+", "-", "*", "/"]);
    let math = (dm.clone(), op, dm, -5i64..20).prop_map(|(a, op, b, k)| {
        if op.is_empty() {
            format!("{a}{k:+}")
        } else {
            format!("{a}{op}{b}")
        }
    });
    (prefix, prop_oneof![math, bc.prop_map(String::from)]).prop_map(|(p, c)| format!("{p}{c}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn real_commands_never_panic_and_respect_the_worst_case(input in command(), seed in any::<u64>()) {
        if let Ok(parsed) = parse(&input) {
            let o = parsed.roll(&mut SeededRoller::from_seed(seed));
            if let Ok(o) = o {
                prop_assert!(o.dice_rolled as u64 <= parsed.worst_case_dice(), "{input}");
            }
        }
    }
}

#[derive(Debug, Clone)]
enum Modifier {
    None,
    Keep(u32),
    Explode,
    Success(u32),
}

#[derive(Debug, Clone)]
struct Term {
    negative: bool,
    count: u32,
    sides: u32,
    modifier: Modifier,
}

fn term() -> impl Strategy<Value = Term> {
    (any::<bool>(), 1u32..=10, 1u32..=20, 0u8..4, 1u32..=10).prop_map(|(negative, count, sides, m, n)| {
        let modifier = match m {
            0 => Modifier::None,
            1 => Modifier::Keep(n.min(count)),
            2 => Modifier::Explode,
            _ => Modifier::Success(n.min(sides)),
        };
        Term {
            negative,
            count,
            sides,
            modifier,
        }
    })
}

impl Term {
    fn text(&self) -> String {
        let m = match self.modifier {
            Modifier::None => String::new(),
            Modifier::Keep(k) => format!("k{k}"),
            Modifier::Explode => "e".into(),
            Modifier::Success(t) => format!("t{t}"),
        };
        format!(
            "{}{}d{}{m}",
            if self.negative { "-" } else { "+" },
            self.count,
            self.sides
        )
    }

    /// Smallest and largest value of the group, before its sign.
    fn bounds(&self) -> (i64, i64) {
        let (n, s) = (i64::from(self.count), i64::from(self.sides));
        match self.modifier {
            Modifier::Keep(k) => (i64::from(k), i64::from(k) * s),
            // Each die explodes at most once.
            Modifier::Explode => (n, 2 * n * s),
            Modifier::None | Modifier::Success(_) => (n, n * s),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn totals_stay_within_the_bounds(terms in prop::collection::vec(term(), 1..5), constant in -50i64..50, seed in any::<u64>()) {
        let mut input = String::new();
        let (mut lo, mut hi) = (constant, constant);
        let mut max_successes = 0;
        for t in &terms {
            input.push_str(&t.text());
            let (a, b) = t.bounds();
            if t.negative { lo -= b; hi -= a; } else { lo += a; hi += b; }
            if matches!(t.modifier, Modifier::Success(_)) {
                max_successes += i64::from(t.count);
            }
        }
        input.push_str(&format!("{constant:+}"));
        let o = evaluate(&input, &mut SeededRoller::from_seed(seed)).map_err(|e| TestCaseError::fail(format!("{input}: {e}")))?;
        let l = &o.lines[0];
        let total = l.total.unwrap();
        prop_assert!(lo <= total && total <= hi, "{input}: {total} outside {lo}..={hi}");
        let subtotals: i64 = l.groups.iter().zip(&terms).map(|(g, t)| if t.negative { -g.subtotal } else { g.subtotal }).sum();
        prop_assert_eq!(total, subtotals + constant);
        if let Some(s) = l.successes {
            prop_assert!((0..=max_successes).contains(&s), "{input}: {s} successes");
        }
    }

    #[test]
    fn bcdice_sums_with_rounding_stay_within_bounds(count in 1u32..=10, sides in 1u32..=20, div in 1i64..=7, mode in 0u8..3, seed in any::<u64>()) {
        let suffix = ["", "U", "R"][mode as usize];
        let input = format!("S{count}D{sides}/{div}{suffix}");
        let o = evaluate(&input, &mut SeededRoller::from_seed(seed)).map_err(|e| TestCaseError::fail(format!("{input}: {e}")))?;
        let sum = o.lines[0].groups[0].subtotal;
        let total = o.lines[0].total.unwrap();
        let exact = sum as f64 / div as f64;
        let expected = match mode { 0 => exact.floor(), 1 => exact.ceil(), _ => (exact + 0.5).floor() } as i64;
        prop_assert_eq!(total, expected, "{}", input);
        prop_assert!(i64::from(count) / div <= total && total <= (i64::from(count * sides) + div - 1) / div);
    }
}

#[test]
fn most_generated_commands_parse() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = command();
    let parsed = (0..500)
        .filter(|_| parse(&strategy.new_tree(&mut runner).unwrap().current()).is_ok())
        .count();
    assert!(parsed > 250, "only {parsed} of 500 generated commands parse");
}

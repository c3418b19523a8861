//! The d20 mecha survival checks' and a plain check's luck, rolled by the engine with fixed dice
//! and read through the odds engine against a chance counted by hand.

use engine::dice::FixedRoller;
use engine::odds::chance_at_least_as_good;
use engine::systems::mecha_d20::Unit;
use engine::systems::mecha_d20::check::{Part, Source, roll_check};
use engine::systems::mecha_d20::state::PromptAnswer;
use engine::systems::mecha_d20::survival::{escape_check, faint_check, fatigue_check};

use super::check_luck;
use crate::log_line::LogSummary;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn at_least(a: &PromptAnswer) -> f64 {
    chance_at_least_as_good(&a.luck().unwrap()).unwrap().at_least
}

#[test]
fn survival_checks_read_the_pilots_d20() {
    let mut u = Unit::default();
    u.pilot.ap_max = 5;
    u.pilot.spirit = 3;
    // Fatigue: the d20 shows 15 (AP 5 only moves the total): 15–20, 6/20.
    let o = fatigue_check("Zaku", &mut u, 0, &mut FixedRoller::new([15])).unwrap();
    assert!(close(at_least(&PromptAnswer::Fatigue(o)), 6.0 / 20.0));
    // Faint: 7 → 14/20.
    let o = faint_check(&mut u, 0, &mut FixedRoller::new([7])).unwrap();
    assert!(close(at_least(&PromptAnswer::Faint(o)), 14.0 / 20.0));
    // Escape from a destroyed suit: a natural 20, the best there is: 1/20.
    u.suit.destroyed = true;
    let o = escape_check("U", &mut u, 0, 15, &mut FixedRoller::new([20])).unwrap();
    assert!(close(at_least(&PromptAnswer::Escape(o)), 1.0 / 20.0));
}

#[test]
fn a_plain_check_reads_its_d20() {
    // Judgement 4 + d20 1: the worst face, every result at least as good, 1/20 as bad.
    let c = roll_check(vec![Part::new(Source::Judgement, 4)], &mut FixedRoller::new([1])).unwrap();
    let chance = chance_at_least_as_good(&check_luck(&c)).unwrap();
    assert!(
        close(chance.at_least, 1.0) && close(chance.at_most, 1.0 / 20.0),
        "{chance:?}"
    );
}

#[test]
fn a_survival_checks_log_line_is_plain_text() {
    let mut u = Unit::default();
    u.pilot.ap_max = 5;
    let o = fatigue_check("Zaku", &mut u, 0, &mut FixedRoller::new([5])).unwrap();
    let en = PromptAnswer::Fatigue(o).summary(engine::i18n::Lang::En);
    // The embed bolds the result; the log (and the export's pages) show no Markdown marks.
    assert!(en.contains("+1 fatigue (total 1) · AP left"), "{en}");
    assert!(!en.contains("**"), "{en}");
}

//! Statistics of the Shadowrun 4 dice over 100,000 seeded rolls of 12 dice.

use saikoro::dice::SeededRoller;
use saikoro::systems::shadowrun4::Glitch;
use saikoro::systems::shadowrun4::dice::roll_pool;

/// P(X ≥ k) for X ~ Binomial(n, p), exactly (as f64 sums of exact terms).
fn binomial_tail(n: u32, p: f64, k: u32) -> f64 {
    let mut total = 0.0;
    for x in k..=n {
        let mut choose = 1.0;
        for i in 0..x {
            choose = choose * f64::from(n - i) / f64::from(i + 1);
        }
        total += choose * p.powi(x as i32) * (1.0 - p).powi((n - x) as i32);
    }
    total
}

#[test]
fn twelve_dice_average_four_hits_and_glitch_at_the_binomial_rate() {
    const ROLLS: u32 = 100_000;
    let mut roller = SeededRoller::from_seed(0x5eed_0004);
    let mut hits = 0u64;
    let mut glitches = 0u64;
    for _ in 0..ROLLS {
        let r = roll_pool(12, false, &mut roller).unwrap();
        hits += u64::from(r.hits);
        if r.glitch != Glitch::None {
            glitches += 1;
        }
    }
    let mean = hits as f64 / f64::from(ROLLS);
    assert!(
        (mean - 4.0).abs() <= 0.04,
        "mean hits {mean} is not within 1% of 4.0"
    );

    // A glitch on 12 dice is six or more 1s: P(X ≥ 6), X ~ B(12, 1/6).
    let exact = binomial_tail(12, 1.0 / 6.0, 6);
    assert!(
        (exact - 0.007925).abs() < 0.00001,
        "exact glitch rate {exact} looks wrong"
    );
    let rate = glitches as f64 / f64::from(ROLLS);
    assert!(
        (rate - exact).abs() <= 0.1 * exact,
        "glitch rate {rate} is not within 10% of {exact}"
    );
}

#[test]
fn the_binomial_helper_is_exact_on_small_cases() {
    // P(X ≥ 1) for B(2, 1/6) = 11/36.
    assert!((binomial_tail(2, 1.0 / 6.0, 1) - 11.0 / 36.0).abs() < 1e-12);
    assert!((binomial_tail(3, 0.5, 0) - 1.0).abs() < 1e-12);
}

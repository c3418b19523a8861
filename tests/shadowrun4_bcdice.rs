//! BCDice parity: every case of BCDice's `test/data/ShadowRun4.toml` (bcdice/BCDice), fed to
//! our dice in the order BCDice's randomizer drew them. BCDice sorts faces for display; the
//! `rands` are roll order, and its `xR6` rerolls in rounds exactly like our rule of six.

use saikoro::dice::FixedRoller;
use saikoro::systems::shadowrun4::Glitch::{self, Critical, Glitch as G, None as N};
use saikoro::systems::shadowrun4::dice::{read_faces, roll_pool, roll_r6};

/// (command, dice asked, rerolls sixes, rands in draw order, 成功数, glitch text)
type Case = (&'static str, u32, bool, &'static [u32], u32, Glitch);

const CASES: &[Case] = &[
    ("1B6>=5", 1, false, &[1], 0, Critical),
    ("1B6>=5", 1, false, &[2], 0, N),
    ("1B6>=5", 1, false, &[3], 0, N),
    ("1B6>=5", 1, false, &[4], 0, N),
    ("1B6>=5", 1, false, &[5], 1, N),
    ("1B6>=5", 1, false, &[6], 1, N),
    ("2B6", 2, false, &[6, 2], 1, N),
    ("2B6", 2, false, &[3, 4], 0, N),
    ("2B6", 2, false, &[2, 1], 0, Critical),
    ("2B6", 2, false, &[1, 5], 1, G),
    ("1R6", 1, true, &[1], 0, Critical),
    ("1R6", 1, true, &[2], 0, N),
    ("1R6", 1, true, &[3], 0, N),
    ("1R6", 1, true, &[4], 0, N),
    ("1R6", 1, true, &[5], 1, N),
    ("1R6", 1, true, &[6, 1], 1, N),
    ("2R6", 2, true, &[3, 6, 5], 2, N),
    ("2R6", 2, true, &[2, 6, 3], 1, N),
    ("2R6", 2, true, &[6, 5, 6, 4], 3, N),
    ("2R6", 2, true, &[3, 2], 0, N),
    ("2R6", 2, true, &[5, 1], 1, G),
    ("2R6", 2, true, &[6, 3, 4], 1, N),
    ("2R6", 2, true, &[3, 4], 0, N),
    ("2R6", 2, true, &[5, 6, 2], 2, N),
    ("2R6", 2, true, &[1, 1], 0, Critical),
    ("2R6", 2, true, &[2, 4], 0, N),
    (
        "12R6",
        12,
        true,
        &[6, 6, 5, 2, 6, 6, 4, 5, 4, 2, 4, 4, 4, 2, 1, 3],
        6,
        N,
    ),
    (
        "12R6",
        12,
        true,
        &[1, 1, 2, 6, 2, 1, 6, 4, 1, 6, 5, 6, 1, 5, 4, 6, 6, 3],
        8,
        N,
    ),
    (
        "12R6",
        12,
        true,
        &[6, 2, 6, 3, 2, 1, 1, 3, 1, 1, 3, 1, 2, 3],
        2,
        N,
    ),
    ("12R6", 12, true, &[4, 2, 3, 4, 1, 5, 4, 1, 1, 5, 2, 4], 2, N),
    (
        "12R6",
        12,
        true,
        &[2, 4, 5, 2, 2, 1, 5, 2, 3, 6, 5, 6, 3, 1],
        5,
        N,
    ),
    (
        "12R6",
        12,
        true,
        &[3, 2, 2, 5, 6, 3, 5, 1, 1, 3, 6, 3, 2, 5],
        5,
        N,
    ),
    ("12R6", 12, true, &[4, 4, 3, 4, 3, 1, 4, 2, 3, 3, 4, 5], 1, N),
    (
        "12R6",
        12,
        true,
        &[6, 6, 6, 3, 3, 6, 1, 3, 1, 5, 1, 1, 4, 5, 4, 1],
        6,
        N,
    ),
    (
        "12R6",
        12,
        true,
        &[2, 5, 1, 1, 2, 3, 4, 2, 6, 5, 4, 6, 6, 6, 3, 5],
        7,
        N,
    ),
    (
        "12R6",
        12,
        true,
        &[5, 2, 4, 5, 5, 1, 2, 5, 6, 1, 6, 3, 1, 1],
        6,
        N,
    ),
];

#[test]
fn every_bcdice_case_gives_the_same_hits_and_glitch() {
    for &(cmd, n, reroll, rands, hits, glitch) in CASES {
        let mut roller = FixedRoller::new(rands.iter().copied());
        let r = roll_pool(n, reroll, &mut roller).unwrap();
        assert_eq!(
            roller.remaining(),
            0,
            "{cmd} {rands:?}: BCDice drew exactly these dice"
        );
        assert_eq!((r.hits, r.glitch), (hits, glitch), "{cmd} {rands:?}");
        // The /roll helper reads the same faces the same way.
        let reading = read_faces(rands, n as usize, 5).unwrap();
        assert_eq!(
            (reading.hits, reading.glitch),
            (hits, glitch),
            "read_faces {cmd} {rands:?}"
        );
    }
}

#[test]
fn r6_helper_draws_like_bcdice() {
    let mut roller = FixedRoller::new([1, 1, 2, 6, 2, 1, 6, 4, 1, 6, 5, 6, 1, 5, 4, 6, 6, 3]);
    let (faces, capped) = roll_r6(12, &mut roller).unwrap();
    assert_eq!(faces.len(), 18);
    assert!(!capped);
    assert_eq!(read_faces(&faces, 12, 5).unwrap().hits, 8);
}

#[test]
fn glitches_across_explosions_count_original_ones_over_all_dice() {
    // BCDice `grich_text(one_count of depth 0, dice_total_count)`: 2R6 rolling 1,6 then 1 has
    // one original 1 over 3 dice — no glitch — though two of three faces show 1.
    let mut roller = FixedRoller::new([1, 6, 1]);
    let r = roll_pool(2, true, &mut roller).unwrap();
    assert_eq!((r.ones, r.counted, r.glitch), (1, 3, N));
    // 4R6 rolling 1,1,6,2 then 3: two original 1s over 5 dice — no glitch; without the
    // explosion (4 dice) the same 1s would glitch.
    let mut roller = FixedRoller::new([1, 1, 6, 2, 3]);
    assert_eq!(roll_pool(4, true, &mut roller).unwrap().glitch, N);
    let mut roller = FixedRoller::new([1, 1, 5, 2]);
    assert_eq!(roll_pool(4, false, &mut roller).unwrap().glitch, G);
}

#[test]
fn b6_with_a_target_counts_hits_at_that_target() {
    // `3B6>=4`: 4 counts; the glitch still reads the 1s.
    let r = read_faces(&[4, 1, 1], 3, 4).unwrap();
    assert_eq!((r.hits, r.glitch), (1, G));
    let r = read_faces(&[3, 1, 1], 3, 4).unwrap();
    assert_eq!((r.hits, r.glitch), (0, Critical));
}

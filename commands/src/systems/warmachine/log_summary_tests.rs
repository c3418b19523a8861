//! A plain Warmachine roll's and a d3's luck, rolled by the engine with fixed dice and read
//! through the odds engine against a chance counted by hand.

use engine::dice::FixedRoller;
use engine::odds::chance_at_least_as_good;
use engine::systems::warmachine::Model;
use engine::systems::warmachine::dice::{DiceRequest, Discard, DiscardWhich, RollKind, d3, roll};

use super::PlainRoll;
use crate::log_line::LogSummary;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn plain(req: &DiceRequest, faces: &[u32], modifier: i32) -> PlainRoll {
    let nobody = Model::new("", "", 0, 0, 1);
    let r = roll(
        req,
        RollKind::Attack,
        [&nobody, &nobody],
        &mut FixedRoller::new(faces.to_vec()),
    )
    .unwrap();
    let total = r.kept_total + i64::from(modifier);
    PlainRoll {
        roll: r,
        modifier,
        total,
        target: None,
        success: None,
    }
}

#[test]
fn a_plain_roll_reads_its_kept_dice_not_its_modifier() {
    // Boosted: 6 + 5 + 1 = 12 on 3d6 (the +3 moves only the total). Sums 12–18 on 3d6:
    // 25 + 21 + 15 + 10 + 6 + 3 + 1 = 81 of 216.
    let boosted = DiceRequest {
        boost: true,
        ..DiceRequest::default()
    };
    let o = plain(&boosted, &[6, 5, 1], 3);
    let c = chance_at_least_as_good(&o.luck().unwrap()).unwrap();
    assert!(close(c.at_least, 81.0 / 216.0), "{c:?}");
    // Boosted, the lowest discarded: 6, 6 kept of 6, 6, 1 → 12 is the best; P(the two highest
    // of 3d6 are both 6) = P(at least two 6s) = (3·5 + 1)/216 = 16/216.
    let discard = DiceRequest {
        boost: true,
        discard: Some(Discard {
            which: DiscardWhich::Lowest,
            count: 1,
        }),
        ..DiceRequest::default()
    };
    let o = plain(&discard, &[6, 6, 1], 0);
    let c = chance_at_least_as_good(&o.luck().unwrap()).unwrap();
    assert!(close(c.at_least, 16.0 / 216.0), "{c:?}");
}

#[test]
fn a_d3_is_a_d6_halved_up() {
    // d6 5 → 3, the best of 1–3: 1/3.
    let o = d3(&mut FixedRoller::new([5])).unwrap();
    assert_eq!(o.value, 3);
    let c = chance_at_least_as_good(&o.luck().unwrap()).unwrap();
    assert!(close(c.at_least, 1.0 / 3.0), "{c:?}");
}

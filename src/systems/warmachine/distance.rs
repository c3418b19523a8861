//! Distance helpers (items 28–32). The bot never measures (rules §3): players give distances,
//! and these apply the seed's readings of them. Distances are in inches; measuring is allowed
//! at any time (item 28), so nothing here checks the turn.

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError};

/// Longest distance accepted (a table is 48" across; a diagonal and more stays well inside).
pub const MAX_INCHES: f64 = 1000.0;

fn check(d: f64) -> Result<f64, RuleError> {
    if d.is_finite() && (0.0..=MAX_INCHES).contains(&d) {
        Ok(d)
    } else {
        Err(RuleError::OutOfRange {
            what: Quantity::Distance,
            value: if d.is_finite() { d.round() as i64 } else { i64::MAX },
            min: 0,
            max: MAX_INCHES as i64,
        })
    }
}

/// Item 31: the gap between two bases from their centres and radii; overlapping bases are 0"
/// apart.
pub fn edge_gap(centre_distance: f64, radius_a: f64, radius_b: f64) -> Result<f64, RuleError> {
    let d = check(centre_distance)? - check(radius_a)? - check(radius_b)?;
    Ok(d.max(0.0))
}

/// Item 29: within when the nearest base edge is within the distance; exactly at it counts.
pub fn within(nearest_edge: f64, range: f64) -> Result<bool, RuleError> {
    Ok(check(nearest_edge)? <= check(range)? + f64::EPSILON * 64.0)
}

/// Item 30: completely within when the whole base is (its farthest edge).
pub fn completely_within(farthest_edge: f64, range: f64) -> Result<bool, RuleError> {
    within(farthest_edge, range)
}

/// How a model stands towards an area around another model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AreaPlacement {
    Outside,
    Within,
    CompletelyWithin,
}

/// Item 32: an effect on models "within X of M" covers the ground under M's base, so M itself
/// is completely within unless its rule says otherwise (`excludes_source`). For another model,
/// the players' measured nearest and farthest edges decide.
pub fn in_area(
    is_source: bool,
    excludes_source: bool,
    nearest_edge: f64,
    farthest_edge: f64,
    range: f64,
) -> Result<AreaPlacement, RuleError> {
    if is_source {
        return Ok(if excludes_source {
            AreaPlacement::Outside
        } else {
            AreaPlacement::CompletelyWithin
        });
    }
    Ok(if completely_within(farthest_edge, range)? {
        AreaPlacement::CompletelyWithin
    } else if within(nearest_edge, range)? {
        AreaPlacement::Within
    } else {
        AreaPlacement::Outside
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_at_the_distance_is_within() {
        assert!(within(2.0, 2.0).unwrap());
        assert!(
            within(0.1 + 0.2, 0.3).unwrap(),
            "float noise does not move the boundary"
        );
        assert!(!within(2.01, 2.0).unwrap());
    }

    #[test]
    fn overlapping_bases_are_zero_apart() {
        assert_eq!(edge_gap(1.0, 0.8, 0.8).unwrap(), 0.0);
        assert!((edge_gap(5.0, 0.6, 0.8).unwrap() - 3.6).abs() < 1e-9);
        assert!(within(edge_gap(1.0, 0.8, 0.8).unwrap(), 0.0).unwrap());
    }

    #[test]
    fn the_diagram_within_and_completely_within() {
        // The lost L34–35 diagram's caption: A outside, B within, C completely within.
        assert_eq!(
            in_area(false, false, 2.5, 3.7, 2.0).unwrap(),
            AreaPlacement::Outside
        );
        assert_eq!(
            in_area(false, false, 1.5, 2.7, 2.0).unwrap(),
            AreaPlacement::Within
        );
        assert_eq!(
            in_area(false, false, 0.5, 2.0, 2.0).unwrap(),
            AreaPlacement::CompletelyWithin
        );
    }

    #[test]
    fn the_source_of_an_aura_is_completely_within_unless_its_rule_says_not() {
        assert_eq!(
            in_area(true, false, 99.0, 99.0, 2.0).unwrap(),
            AreaPlacement::CompletelyWithin
        );
        assert_eq!(
            in_area(true, true, 0.0, 0.0, 2.0).unwrap(),
            AreaPlacement::Outside
        );
    }

    #[test]
    fn negative_or_absurd_distances_are_refused() {
        assert!(within(-1.0, 2.0).is_err());
        assert!(within(1.0, f64::NAN).is_err());
        assert!(edge_gap(f64::INFINITY, 1.0, 1.0).is_err());
        assert!(within(2.0, 1001.0).is_err());
    }
}

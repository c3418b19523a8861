//! What one evening of a campaign leaves to the next in this system (issue 27).
//! Placeholder: filled in with the system's rules on the `evenings` branch.

use crate::systems::rules::Evenings;

pub static EVENINGS: Evenings = Evenings {
    carries: &[],
    resets: &[],
    sheet: Evenings::unchanged,
    state: Evenings::unchanged,
};

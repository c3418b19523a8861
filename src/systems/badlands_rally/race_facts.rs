//! The race facts a Badlands Rally session keeps beyond its gears (`system_state.race`): the
//! scenario, the laps, the pole and a contested victory's check. Its own file so the rules and
//! the evenings both read it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::race::InitiativeOutcome;
use super::tables::Scenario;
use crate::systems::rules::SessionState;

/// The race length until `/rally scenario` stores one.
pub const DEFAULT_LAPS: u32 = 2;

/// The contested-victory check kept with the race, rolled once for these contenders (`key`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredContest {
    pub key: Value,
    pub outcome: InitiativeOutcome,
}

/// Race-wide facts beyond the gears (which live in their roster entries).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceFacts {
    #[serde(default)]
    pub scenario: Option<Scenario>,
    #[serde(default = "default_laps")]
    pub laps: u32,
    /// Who holds the pole position token.
    #[serde(default)]
    pub pole: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contest: Option<StoredContest>,
}

fn default_laps() -> u32 {
    DEFAULT_LAPS
}

impl Default for RaceFacts {
    fn default() -> Self {
        RaceFacts {
            scenario: None,
            laps: DEFAULT_LAPS,
            pole: None,
            contest: None,
        }
    }
}

impl SessionState for RaceFacts {
    const KEY: &'static str = "race";
}

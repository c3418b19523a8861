//! What a Shadowrun 4 session keeps beyond its roster: Edge uses, the initiative record, chases
//! (`system_state.shadowrun4`). Its own file so the rules and the evenings both read it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::rigging::ChaseState;
use crate::systems::rules::SessionState;

/// What a Shadowrun session keeps beyond its roster (`system_state.shadowrun4`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Shadowrun4State {
    /// Rolls Edge was used on (one use per roll), and `v:<version>` marks of results an Edge
    /// press changed since.
    #[serde(default)]
    pub edge_rolls: Vec<String>,
    /// The initiative record `/sr initiative` keeps (turn, pass, order, state).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initiative: Option<Value>,
    /// The chase manoeuvres' progress per vehicle (break-away successes in a row, positioning
    /// dice waiting for the next chase test).
    #[serde(default, skip_serializing_if = "ChaseState::is_empty")]
    pub chase: ChaseState,
    /// Anything else stored under the key, kept as it is.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

impl SessionState for Shadowrun4State {
    const KEY: &'static str = "shadowrun4";
}

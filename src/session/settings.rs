//! What a server's admins decide, and what a channel plays.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{SessionError, SystemId};
use crate::i18n::Lang;

pub const MAX_HOUSE_OPTIONS: usize = 32;
pub const MAX_HOUSE_KEY_CHARS: usize = 64;
pub const MAX_HOUSE_VALUE_CHARS: usize = 256;

/// Where secret rolls (GM-only results) are delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case", tag = "to")]
pub enum SecretRolls {
    /// A direct message to the GM.
    #[default]
    Dm,
    /// A channel the GMs read.
    GmChannel { channel: u64 },
}

/// Per-server settings. `#[serde(default)]` so settings stored by an older version still load.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ServerSettings {
    /// `None`: answer each user in their own Discord locale.
    pub language: Option<Lang>,
    /// Systems whose commands this server offers.
    pub enabled_systems: BTreeSet<SystemId>,
    /// Members with this role count as GMs in every session of the server.
    pub gm_role: Option<u64>,
    pub secret_rolls: SecretRolls,
    /// Free-form house rules (`name` → `value`) that system modules interpret.
    pub house: BTreeMap<String, String>,
}

impl Default for ServerSettings {
    /// A new server offers every system.
    fn default() -> Self {
        ServerSettings {
            language: None,
            enabled_systems: SystemId::ALL.into_iter().collect(),
            gm_role: None,
            secret_rolls: SecretRolls::Dm,
            house: BTreeMap::new(),
        }
    }
}

impl ServerSettings {
    pub fn is_enabled(&self, system: SystemId) -> bool {
        self.enabled_systems.contains(&system)
    }

    /// The limits a stored settings row must keep.
    pub fn validate(&self) -> Result<(), SessionError> {
        if self.house.len() > MAX_HOUSE_OPTIONS {
            return Err(SessionError::TooManyHouseOptions {
                max: MAX_HOUSE_OPTIONS,
            });
        }
        let too_long = self.house.iter().any(|(k, v)| {
            k.trim().is_empty()
                || k.chars().count() > MAX_HOUSE_KEY_CHARS
                || v.chars().count() > MAX_HOUSE_VALUE_CHARS
        });
        if too_long {
            return Err(SessionError::HouseOptionTooLong {
                key_max: MAX_HOUSE_KEY_CHARS,
                value_max: MAX_HOUSE_VALUE_CHARS,
            });
        }
        Ok(())
    }
}

/// Who sees a roll's result by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    #[default]
    Public,
    /// Routed as the server's [`SecretRolls`] says.
    Secret,
}

/// Per-channel (or thread) settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ChannelSettings {
    /// The system plain commands in this channel use; `None`: none chosen.
    pub system: Option<SystemId>,
    pub visibility: Visibility,
}

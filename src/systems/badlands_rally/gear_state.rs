//! What the bot tracks per gear between commands: hits, the rattled token and record, the
//! activation, a pending spin-out, rally tokens and laps. Plain data; the transitions that change
//! it are [`super::state`]'s, on [`super::gear::Gear`]. It reads the sheet ([`super::gear_sheet`])
//! but not the gear, so `Gear` can hold a `GearState` without a cycle.

use serde::{Deserialize, Serialize};

use super::gear_sheet::{GearSheet, Speed};

/// Whether this gear has activated in the current round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Activation {
    #[default]
    Waiting,
    Active {
        speed: Speed,
        actions: u8,
        mr_left: u32,
    },
    Done,
}

/// Why a gear must spin out (seed スピニングアウトの発生 A–D, traits, moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpinOutCause {
    /// Hull and Structure both 0.
    HitsZero,
    /// Every defence die showed 1.
    DefenceAllOnes,
    /// Exposed Movement: a defence check of 1 or 2.
    ExposedMovement,
    /// Exposed Crew: an attack rattled it.
    ExposedCrew,
    /// Damaged by an Impact weapon.
    Impact,
    /// Hit while off balance.
    OffBalance,
    /// Damaged in a collision.
    Collision,
    /// Every die of a special-move test showed 1.
    SpecialMoveAllOnes,
    /// Every die of a push attack showed 1: the pusher spins out.
    PushFumble,
    /// A jump landed on a gear or level-1 terrain: it stops short and spins out.
    JumpBlocked,
}

/// A spin-out waiting for its dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingSpinOut {
    pub causes: Vec<SpinOutCause>,
    /// Damage beyond the hits left, added to the skid (seed スキッド).
    pub excess_skid: u32,
    /// An attack caused it: the attacker chooses the turn direction.
    pub from_attack: bool,
}

/// What the bot keeps per gear between commands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GearState {
    pub hull: u32,
    pub structure: u32,
    /// The rattled token (or permanently rattled from the record).
    pub rattled: bool,
    pub rattle_record: u8,
    /// Rattled since its last activation began: no more rattle effects or record until then.
    pub rattle_locked: bool,
    pub off_balance: bool,
    /// Dropped to 0 hits: the next activation can only recover.
    pub must_recover: bool,
    pub knocked_out: bool,
    pub activation: Activation,
    /// A reaction attack used this round's action before activating.
    pub action_borrowed: bool,
    /// Spun out (or was due to) this round: once per round.
    pub spun_out_this_round: bool,
    pub pending_spin_out: Option<PendingSpinOut>,
    pub rally_tokens: u32,
    pub laps: u32,
    /// The round in which it completed the last lap.
    pub finished_round: Option<u32>,
    /// The lap count when Reliable was last used.
    pub reliable_used_lap: Option<u32>,
    /// Derby: spin-outs this gear caused.
    pub spin_outs_caused: u32,
    /// Derby: the round in which it reached its sixth spin-out caused.
    #[serde(default)]
    pub derby_round: Option<u32>,
    /// Off-Road Specialist used this activation.
    pub off_road_used: bool,
    /// Rough hexes Off-Road Specialist lets it ignore for the rest of this activation.
    #[serde(default)]
    pub rough_ignorable: u32,
}

impl GearState {
    pub fn fresh(sheet: &GearSheet) -> GearState {
        GearState {
            hull: sheet.hull,
            structure: sheet.structure,
            rattled: false,
            rattle_record: 0,
            rattle_locked: false,
            off_balance: false,
            must_recover: false,
            knocked_out: false,
            activation: Activation::Waiting,
            action_borrowed: false,
            spun_out_this_round: false,
            pending_spin_out: None,
            rally_tokens: 0,
            laps: 0,
            finished_round: None,
            reliable_used_lap: None,
            spin_outs_caused: 0,
            derby_round: None,
            off_road_used: false,
            rough_ignorable: 0,
        }
    }

    pub fn is_active(&self) -> bool {
        matches!(self.activation, Activation::Active { .. })
    }

    pub fn speed(&self) -> Speed {
        match self.activation {
            Activation::Active { speed, .. } => speed,
            _ => Speed::Cruising,
        }
    }

    pub fn mr_left(&self) -> u32 {
        match self.activation {
            Activation::Active { mr_left, .. } => mr_left,
            _ => 0,
        }
    }
}

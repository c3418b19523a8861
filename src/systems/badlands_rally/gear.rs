//! The gear itself: its sheet ([`super::gear_sheet`]) and its tracked state
//! ([`super::gear_state`]), and the status line the bot shows. The transitions are in
//! [`super::state`].

use serde::{Deserialize, Serialize};

use super::error::RuleError;
use super::gear_state::GearState;

// The sheet's types live in `gear_sheet` so the tracked state can read a sheet without importing
// this module; re-exported to keep the old paths (`gear::GearSheet`, `gear::Speed`…).
pub use super::gear_sheet::{
    GearSheet, MAX_STAT, Range, RattleLimits, Speed, Trait, Upgrade, Weapon, WeaponChoice, WeaponKind,
    WeaponTrait,
};

/// A gear in a race: its sheet and its tracked state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gear {
    pub sheet: GearSheet,
    pub state: GearState,
}

impl Gear {
    /// A fresh gear at full hits; the sheet is validated.
    pub fn new(sheet: GearSheet) -> Result<Gear, RuleError> {
        sheet.validate()?;
        let state = GearState::fresh(&sheet);
        Ok(Gear { sheet, state })
    }

    pub fn name(&self) -> &str {
        &self.sheet.name
    }

    /// Rattled for every test: the token, or permanently from the record (seed ラタルドの記録).
    pub fn is_rattled(&self) -> bool {
        self.state.rattled
    }

    /// The compact status line the bot renders.
    pub fn status(&self) -> GearStatus {
        let limits = self.sheet.rattle_limits();
        GearStatus {
            name: self.sheet.name.clone(),
            hull: self.state.hull,
            hull_max: self.sheet.hull,
            structure: self.state.structure,
            structure_max: self.sheet.structure,
            rattled: self.state.rattled,
            permanently_rattled: self.state.rattle_record >= limits.permanent,
            rattle_record: self.state.rattle_record,
            rattle_limit: limits.knocked_out,
            off_balance: self.state.off_balance,
            knocked_out: self.state.knocked_out,
            must_recover: self.state.must_recover,
            spin_out_pending: self.state.pending_spin_out.is_some(),
            rally_tokens: self.state.rally_tokens,
            laps: self.state.laps,
            finished: self.state.finished_round.is_some(),
            spin_outs_caused: self.state.spin_outs_caused,
        }
    }

    /// Reliable's reroll is still open: the trait, and no reroll used on this lap.
    pub fn reliable_available(&self) -> bool {
        self.sheet.has(Trait::Reliable) && self.state.reliable_used_lap != Some(self.state.laps)
    }
}

/// Everything a status line shows: Hull/Structure boxes, RATTLED, the record k/6 (k/5 Hi-Tech),
/// off balance, KNOCKED OUT.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GearStatus {
    pub name: String,
    pub hull: u32,
    pub hull_max: u32,
    pub structure: u32,
    pub structure_max: u32,
    pub rattled: bool,
    pub permanently_rattled: bool,
    pub rattle_record: u8,
    /// 6, or 5 for Hi-Tech: the record is shown as `rattle_record/rattle_limit`.
    pub rattle_limit: u8,
    pub off_balance: bool,
    pub knocked_out: bool,
    pub must_recover: bool,
    pub spin_out_pending: bool,
    pub rally_tokens: u32,
    pub laps: u32,
    pub finished: bool,
    /// Spin-outs this gear caused (Derby counts them to 6).
    #[serde(default)]
    pub spin_outs_caused: u32,
}

impl GearStatus {
    /// "■■□/■" — filled boxes for hits left, hollow for hits lost.
    pub fn boxes(&self) -> String {
        fn row(cur: u32, max: u32) -> String {
            let cur = cur.min(max) as usize;
            let lost = (max as usize).saturating_sub(cur);
            format!("{}{}", "■".repeat(cur), "□".repeat(lost))
        }
        format!(
            "{}/{}",
            row(self.hull, self.hull_max),
            row(self.structure, self.structure_max)
        )
    }

    pub fn record(&self) -> String {
        format!("{}/{}", self.rattle_record, self.rattle_limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::badlands_rally::gear_sheet::tests::sheet;

    #[test]
    fn status_shows_boxes_and_record() {
        let mut g = Gear::new(sheet("A")).unwrap();
        g.state.hull = 1;
        g.state.rattle_record = 2;
        let st = g.status();
        assert_eq!(st.boxes(), "■□/■");
        assert_eq!(st.record(), "2/6");
        g.sheet.traits.push(Trait::HiTech);
        assert_eq!(g.status().record(), "2/5");
    }
}

//! A character (or vehicle) on the battlefield: the roster entry's stats and the markers the bot
//! keeps for it (item 34). Transitions take the roster as a name → [`Character`] map.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::error::RuleError;
use super::profile::Profile;
use super::weapon::Weapon;
use crate::session::RosterEntry;

/// Why a character left the battlefield.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// A damaging roll killed it (item 17).
    Killed,
    /// A resolution test's 1 broke its morale (item 18).
    Retreated,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    /// The side (player) it fights for.
    pub side: String,
    /// Its profile: swapped to the Crawler by I'll Be Back.
    pub stats: Profile,
    #[serde(default)]
    pub ready: bool,
    #[serde(default)]
    pub done: u32,
    #[serde(default)]
    pub reeling: bool,
    #[serde(default)]
    pub removed: Option<Removal>,
    /// Damage marked against Damage limit(N) (TG-4).
    #[serde(default)]
    pub damage: u32,
    /// It fights on as a Crawler (item 31).
    #[serde(default)]
    pub crawler: bool,
    /// Limited ammo: shots fired per weapon name (TG-16).
    #[serde(default)]
    pub ammo_used: BTreeMap<String, u32>,
    /// Moved in this activation (Heavy, item 26).
    #[serde(default)]
    pub moved: bool,
    /// The profile it was fielded with, while it fights on as a Crawler: the next game fields
    /// it again (rules file §6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fielded: Option<Box<Profile>>,
}

impl Character {
    pub fn new(side: &str, stats: Profile) -> Character {
        Character {
            side: side.to_string(),
            stats,
            ready: false,
            done: 0,
            reeling: false,
            removed: None,
            damage: 0,
            crawler: false,
            ammo_used: BTreeMap::new(),
            moved: false,
            fielded: None,
        }
    }

    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    pub fn on_field(&self) -> bool {
        self.removed.is_none()
    }

    /// May activate now: on the battlefield with neither a Ready nor a Done marker (item 11).
    pub fn eligible(&self) -> bool {
        self.on_field() && !self.ready && self.done == 0
    }

    pub fn commander(&self) -> bool {
        self.stats.command > 0
    }

    pub fn ensure_on_field(&self, name: &str) -> Result<(), RuleError> {
        if self.on_field() {
            Ok(())
        } else {
            Err(RuleError::Removed {
                name: name.to_string(),
            })
        }
    }

    /// Done markers a Reeling result adds (item 20): one when it already has one (or is
    /// activating), two when it has not activated this turn.
    pub fn reeling_markers(&self) -> u32 {
        if self.done > 0 || self.ready { 1 } else { 2 }
    }

    /// Take `n` Done markers away (never below 0); Reeling ends at 0 (TG-2).
    pub fn remove_done(&mut self, n: u32) {
        self.done = self.done.saturating_sub(n);
        if self.done == 0 {
            self.reeling = false;
        }
    }

    /// I'll Be Back succeeded: the Crawler's profile, no damage, markers kept (item 31–32).
    pub fn become_crawler(&mut self, crawler: &Profile) {
        if !self.crawler {
            self.fielded = Some(Box::new(self.stats.clone()));
        }
        self.stats = crawler.clone();
        self.crawler = true;
        self.damage = 0;
        self.removed = None;
    }

    /// The sheet's `reset=yes`: no markers, no damage, no ammunition used, on the battlefield.
    pub fn clear_markers(&mut self) {
        self.ready = false;
        self.done = 0;
        self.reeling = false;
        self.removed = None;
        self.damage = 0;
        self.moved = false;
        self.ammo_used.clear();
    }

    /// A new game (rules file §6): markers cleared, and a Crawler is the model it was fielded
    /// as again.
    pub fn new_game(&mut self) {
        self.clear_markers();
        if let Some(p) = self.fielded.take() {
            self.stats = *p;
        }
        self.crawler = false;
    }

    pub fn weapon(&self, owner: &str, name: &str) -> Result<&Weapon, RuleError> {
        let t = name.trim();
        let by_number = t
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=self.stats.weapons.len()).contains(n))
            .map(|n| &self.stats.weapons[n - 1]);
        by_number
            .or_else(|| {
                let en = super::weapon::shipped_name(t);
                self.stats
                    .weapons
                    .iter()
                    .find(|w| w.name.eq_ignore_ascii_case(t) || Some(w.name.as_str()) == en)
            })
            .ok_or_else(|| RuleError::NoSuchWeapon {
                character: owner.to_string(),
                weapon: t.chars().take(40).collect(),
            })
    }
}

/// The roster's characters by entry name; an entry whose sheet does not read is refused by name.
pub fn characters_of(roster: &[RosterEntry]) -> Result<BTreeMap<String, Character>, RuleError> {
    roster
        .iter()
        .map(|e| Ok((e.name.clone(), Character::read(&e.sheet, &e.name)?)))
        .collect()
}

/// Write changed characters back into their roster entries; returns the names written.
pub fn write_characters(roster: &mut [RosterEntry], chars: &BTreeMap<String, Character>) -> Vec<String> {
    let mut written = Vec::new();
    for e in roster.iter_mut() {
        if let Some(c) = chars.get(&e.name) {
            let v = c.to_value();
            if v != e.sheet {
                e.sheet = v;
                written.push(e.name.clone());
            }
        }
    }
    written
}

pub(crate) fn get<'a>(
    chars: &'a BTreeMap<String, Character>,
    name: &str,
) -> Result<&'a Character, RuleError> {
    chars.get(name).ok_or_else(|| RuleError::UnknownCharacter {
        name: name.chars().take(40).collect(),
    })
}

pub(crate) fn get_mut<'a>(
    chars: &'a mut BTreeMap<String, Character>,
    name: &str,
) -> Result<&'a mut Character, RuleError> {
    chars.get_mut(name).ok_or_else(|| RuleError::UnknownCharacter {
        name: name.chars().take(40).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::terminator::profile::Library;

    #[test]
    fn markers_decide_eligibility_and_reeling() {
        let lib = Library::shipped();
        let mut c = Character::new("Resistance", lib.profile("SWAT").unwrap().clone());
        assert!(c.eligible());
        assert_eq!(c.reeling_markers(), 2, "not activated this turn");
        c.ready = true;
        assert!(!c.eligible());
        assert_eq!(c.reeling_markers(), 1, "activating");
        c.ready = false;
        c.done = 1;
        assert_eq!(c.reeling_markers(), 1);
        c.reeling = true;
        c.done = 2;
        c.remove_done(1);
        assert!(c.reeling, "one Done left: still reeling");
        c.remove_done(5);
        assert_eq!((c.done, c.reeling), (0, false), "never below 0; reeling ends");
        c.removed = Some(Removal::Retreated);
        assert!(!c.eligible() && c.ensure_on_field("x").is_err());
    }

    #[test]
    fn weapons_are_found_by_name_number_or_either_language() {
        let lib = Library::shipped();
        let c = Character::new("Skynet", lib.profile("Endoskeleton").unwrap().clone());
        assert_eq!(c.weapon("T", "2").unwrap().name, "Plasma gun");
        assert_eq!(c.weapon("T", "プラズマガン").unwrap().name, "Plasma gun");
        assert_eq!(c.weapon("T", "terminator CLAW").unwrap().name, "Terminator claw");
        assert!(matches!(c.weapon("T", "3"), Err(RuleError::NoSuchWeapon { .. })));
    }
}

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

    /// A weapon by its number, its name in either language, or a start of its name that fits
    /// one weapon only (`Plasma` for the Plasma gun). Refused with the character's weapons listed.
    pub fn weapon(&self, owner: &str, name: &str) -> Result<&Weapon, RuleError> {
        let t = name.trim();
        let weapons = &self.stats.weapons;
        if let Ok(n) = t.parse::<usize>()
            && (1..=weapons.len()).contains(&n)
        {
            return Ok(&weapons[n - 1]);
        }
        let en = super::weapon::shipped_name(t);
        if let Some(w) = weapons
            .iter()
            .find(|w| w.name.eq_ignore_ascii_case(t) || Some(w.name.as_str()) == en)
        {
            return Ok(w);
        }
        let start = fold(t);
        let starts: Vec<&Weapon> = weapons
            .iter()
            .filter(|w| {
                !start.is_empty()
                    && t.parse::<usize>().is_err()
                    && (fold(&w.name).starts_with(&start)
                        || fold(&super::weapon::display_name(&w.name, crate::i18n::Lang::Ja))
                            .starts_with(&start))
            })
            .collect();
        match starts.as_slice() {
            [one] => Ok(one),
            _ => Err(RuleError::NoSuchWeapon {
                character: owner.to_string(),
                weapon: t.chars().take(40).collect(),
                has: weapons.iter().map(|w| w.name.clone()).collect(),
            }),
        }
    }

    /// The Crawler this character becomes (items 31–32): `crawler`'s profile, with the dice the
    /// players filled in for the model kept where the Crawler's are unset (the seed lost them
    /// all): skill, resolution, and the power of a weapon the model carried under the same name
    /// (the Terminator claw).
    pub fn crawler_profile(&self, crawler: &Profile) -> Profile {
        let mut p = crawler.clone();
        p.skill = p.skill.or(self.stats.skill);
        p.resolution = p.resolution.or(self.stats.resolution);
        for w in &mut p.weapons {
            if let Some(mine) = self
                .stats
                .weapons
                .iter()
                .find(|m| m.name.eq_ignore_ascii_case(&w.name))
            {
                w.power = w.power.or(mine.power);
                w.stopping_die = w.stopping_die.or(mine.stopping_die);
            }
        }
        p
    }
}

fn fold(s: &str) -> String {
    s.trim().to_lowercase().replace(['_', '-'], " ")
}

/// Most autocomplete choices Discord shows, and the longest label and value it takes.
const MAX_CHOICES: usize = 25;
const MAX_CHOICE_CHARS: usize = 100;

impl Character {
    /// `weapon:` autocomplete: the weapons whose name (in either language) contains `typed`,
    /// as `(label, value)`: the numbered line with its power, and the name attacks take.
    pub fn weapon_choices(&self, typed: &str, lang: crate::i18n::Lang) -> Vec<(String, String)> {
        let t = fold(typed);
        self.stats
            .weapons
            .iter()
            .enumerate()
            .filter(|(_, w)| {
                fold(&w.name).contains(&t)
                    || fold(&super::weapon::display_name(&w.name, crate::i18n::Lang::Ja)).contains(&t)
            })
            .map(|(i, w)| {
                let label = format!("{}. {}", i + 1, w.line(lang));
                (label.chars().take(MAX_CHOICE_CHARS).collect(), w.name.clone())
            })
            .take(MAX_CHOICES)
            .collect()
    }
}

/// `followers:` autocomplete: the comma-separated list typed so far, its last name completed by
/// each friend of `commander` that may follow it (item 23: on the battlefield, no Ready or Done
/// marker, not a commander, not listed yet). Without a known commander, any such character.
pub fn follower_choices(chars: &BTreeMap<String, Character>, commander: &str, typed: &str) -> Vec<String> {
    let (listed, last) = match typed.rfind([',', '、']) {
        Some(i) => (&typed[..i], typed[i..].trim_start_matches([',', '、']).trim()),
        None => ("", typed.trim()),
    };
    let taken: Vec<String> = listed
        .split([',', '、'])
        .map(|n| n.trim().to_lowercase())
        .filter(|n| !n.is_empty())
        .collect();
    let leader = chars
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(commander.trim()));
    let prefix: Vec<&str> = listed
        .split([',', '、'])
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    chars
        .iter()
        .filter(|(n, c)| {
            c.eligible()
                && !c.commander()
                && leader.is_none_or(|(ln, l)| l.side == c.side && ln != *n)
                && !taken.contains(&n.to_lowercase())
                && n.to_lowercase().contains(&last.to_lowercase())
        })
        .map(|(n, _)| {
            let mut all = prefix.clone();
            all.push(n);
            all.join(", ")
        })
        .filter(|v| v.chars().count() <= MAX_CHOICE_CHARS)
        .take(MAX_CHOICES)
        .collect()
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
                e.sheet = v.into();
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
    use crate::systems::terminator::dice::Die;
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

    /// Issue 29: a unique start of a name is enough; a refusal lists the character's weapons.
    #[test]
    fn a_unique_start_names_a_weapon_and_a_refusal_lists_them() {
        use crate::i18n::{Lang, Localized};
        let lib = Library::shipped();
        let mut c = Character::new("Skynet", lib.profile("Endoskeleton").unwrap().clone());
        assert_eq!(c.weapon("T", "Plasma").unwrap().name, "Plasma gun");
        assert_eq!(c.weapon("T", " plasma ").unwrap().name, "Plasma gun");
        assert_eq!(c.weapon("T", "プラズマ").unwrap().name, "Plasma gun");
        assert_eq!(c.weapon("T", "term").unwrap().name, "Terminator claw");
        let e = c.weapon("Kyle", "2x").unwrap_err();
        assert_eq!(
            e.localized(Lang::En),
            "Kyle has no weapon called 2x; its weapons: 1. Terminator claw, 2. Plasma gun."
        );
        assert_eq!(
            e.localized(Lang::Ja),
            "Kyleに「2x」という武器はありません（武器: 1. ターミネータークロウ、2. プラズマガン）。"
        );
        // Two weapons start alike: the start is refused, a longer one picks.
        c.stats.weapons.push(lib.weapon("Plasma rifle").unwrap().clone());
        assert!(matches!(
            c.weapon("T", "Plasma"),
            Err(RuleError::NoSuchWeapon { .. })
        ));
        assert_eq!(c.weapon("T", "plasma r").unwrap().name, "Plasma rifle");
        // A number past the list is no start of a name.
        assert!(c.weapon("T", "4").is_err());
        c.stats.weapons.clear();
        let e = c.weapon("Kyle", "2").unwrap_err().localized(Lang::En);
        assert!(e.contains("it carries none") && e.contains("w1="), "{e}");
    }

    /// Issue 29: `weapon:` and `followers:` autocomplete.
    #[test]
    fn weapons_and_followers_are_offered() {
        use crate::i18n::Lang;
        let lib = Library::shipped();
        let mut endo = lib.profile("Endoskeleton").unwrap().clone();
        endo.weapons[1].power = Some(Die::D10);
        let t1 = Character::new("Skynet", endo);
        let all = t1.weapon_choices("", Lang::En);
        assert_eq!(all.len(), 2);
        assert_eq!(all[1].1, "Plasma gun");
        assert!(
            all[1].0.starts_with("2. Plasma gun · Long · ROF 2 · power D10"),
            "{}",
            all[1].0
        );
        assert_eq!(t1.weapon_choices("pla", Lang::En).len(), 1);
        let ja = t1.weapon_choices("プラズマ", Lang::Ja);
        assert_eq!((ja.len(), ja[0].1.as_str()), (1, "Plasma gun"));
        assert!(ja[0].0.starts_with("2. プラズマガン"));
        assert!(t1.weapon_choices("rifle", Lang::En).is_empty());

        let ch = |side: &str, p: &str| Character::new(side, lib.profile(p).unwrap().clone());
        let mut chars = BTreeMap::new();
        chars.insert("Kyle".to_string(), ch("Resistance", "Kyle Reese"));
        chars.insert("Joe".to_string(), ch("Resistance", "Resistance Soldier"));
        chars.insert("Ann".to_string(), ch("Resistance", "SWAT"));
        chars.insert("Cap".to_string(), ch("Resistance", "Resistance Captain"));
        chars.insert("T1".to_string(), t1);
        let mut done = ch("Resistance", "SWAT");
        done.done = 1;
        chars.insert("Bob".to_string(), done);
        // Friends only, no commander, nobody with a marker, not the commander itself.
        assert_eq!(follower_choices(&chars, "kyle", ""), ["Ann", "Joe"]);
        assert_eq!(follower_choices(&chars, "Kyle", "j"), ["Joe"]);
        assert_eq!(follower_choices(&chars, "Kyle", "Joe, "), ["Joe, Ann"]);
        assert_eq!(follower_choices(&chars, "Kyle", "Joe、a"), ["Joe, Ann"]);
        assert!(follower_choices(&chars, "Kyle", "Joe, Ann, ").is_empty());
        assert_eq!(follower_choices(&chars, "", "").len(), 3, "Ann, Joe and T1");
    }

    /// Issue 29: a Crawler keeps the dice the players gave the model where its own profile has
    /// none (the seed lost them all); a die of the Crawler profile itself wins.
    #[test]
    fn a_crawler_keeps_the_models_dice_where_its_own_are_unset() {
        let lib = Library::shipped();
        let mut endo = lib.profile("Endoskeleton").unwrap().clone();
        endo.skill = Some(Die::D8);
        endo.weapons[0].power = Some(Die::D8);
        endo.weapons[1].power = Some(Die::D10);
        let c = Character::new("Skynet", endo);
        let p = c.crawler_profile(&lib.crawler());
        assert_eq!(
            (p.name.as_str(), p.skill, p.resolution),
            ("Crawler", Some(Die::D8), Some(Die::D20))
        );
        assert!(p.slow && !p.ill_be_back);
        let claw: Vec<_> = p.weapons.iter().map(|w| (w.name.as_str(), w.power)).collect();
        assert_eq!(
            claw,
            [("Terminator claw", Some(Die::D8))],
            "no plasma gun on a Crawler"
        );
        let mut own = lib.crawler();
        own.resolution = Some(Die::D6);
        assert_eq!(c.crawler_profile(&own).resolution, Some(Die::D6));
    }
}

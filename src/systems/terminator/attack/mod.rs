//! The attack sequence (L31–38): attack roll → cover saves → damage roll → resolution tests,
//! with See you in hell (item 21), Area (29, TG-14/15), Damage limit (TG-4), I'll Be Back and
//! the Crawler (31–32, TG-5/6).
//!
//! Each step is a plain function of dice and numbers ([`attack_roll`], [`cover_saves`],
//! [`damage_roll`], [`resolution_tests`], [`ill_be_back`]; in `rolls.rs`), for raw rolls. An attack on
//! characters is an [`AttackRun`]: plain stats in, advanced a stage at a time so the bot can
//! stop for a button (step by step, the I'll Be Back roll) or a die the seed lost, and store
//! the run between commands. [`resolve_attack`] runs one to the end.

use serde::{Deserialize, Serialize};

use super::character::Removal;
use super::dice::Die;
use super::error::{DieField, Quantity, RuleError, bounded};
use super::weapon::{Band, Weapon};
use crate::dice::Roller;

mod rolls;

pub use rolls::{
    AttackRoll, DamageRoll, IllBeBackRoll, ResolutionRoll, SaveRoll, SaveRule, TestResult, attack_roll,
    cover_saves, damage_roll, ill_be_back, resolution_tests,
};

/// Most dice of one step (ROF 10 is far beyond the tables' 5).
pub const MAX_DICE: usize = 50;
/// Most secondary targets of one Area attack.
pub const MAX_SECONDARY: usize = 20;

/// The Crawler an I'll Be Back target becomes (the session's Crawler profile).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawlerStats {
    pub armour: u32,
    pub resolution: Option<Die>,
    pub damage_limit: u32,
}

/// A target as the attack reads it: stats and the markers the results change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetStats {
    pub name: String,
    pub armour: u32,
    pub resolution: Option<Die>,
    pub mindless: bool,
    /// Cover on the line of fire (the player says, §4).
    pub cover: bool,
    pub reeling: bool,
    pub damage_limit: u32,
    pub damage: u32,
    pub done: u32,
    pub ready: bool,
    /// It has I'll Be Back: the Crawler it would become.
    pub crawler: Option<CrawlerStats>,
}

impl TargetStats {
    pub fn new(name: &str, armour: u32, resolution: Option<Die>) -> TargetStats {
        TargetStats {
            name: name.to_string(),
            armour,
            resolution,
            mindless: false,
            cover: false,
            reeling: false,
            damage_limit: 0,
            damage: 0,
            done: 0,
            ready: false,
            crawler: None,
        }
    }
}

/// An attack in plain numbers: the first target is the primary, the rest the Area's secondary
/// targets in the order the active player rolls their damage (L205–206).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackRequest {
    pub attacker: String,
    pub weapon: Weapon,
    /// The attacker's skill die (unset on every shipped profile).
    pub skill: Option<Die>,
    /// A power die given with the roll, for the weapon's (not under See you in hell).
    pub power: Option<Die>,
    pub band: Band,
    /// See you in hell, baby! (the player vouches that no other enemy is within CC, §4).
    pub hell: bool,
    pub moved: bool,
    /// TG-1's override: the hits count as heavy (or not) whatever die is rolled.
    pub heavy: Option<bool>,
    pub targets: Vec<TargetStats>,
    pub friendly_touched: bool,
    /// `term.ibb_carry_over` (TG-5).
    pub carry_over: bool,
}

impl AttackRequest {
    /// The number each attack die must reach: the band's, 2 under See you in hell.
    pub fn threshold(&self) -> u32 {
        if self.hell { 2 } else { self.band.threshold() }
    }

    /// The power die rolled against target `i` (in request order): a D20 for See you in hell's
    /// target, else the die given with the roll or the weapon's at this band.
    pub fn power_die(&self, i: usize) -> Result<Die, RuleError> {
        if self.hell && i == 0 {
            Ok(Die::D20)
        } else {
            normal_power(self)
        }
    }
}

/// TG-1: hits count as heavy on a D10 or larger, unless the player said otherwise.
pub fn heavy(die: Die, said: Option<bool>) -> bool {
    said.unwrap_or(die >= Die::D10)
}

/// Where a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    AttackRoll,
    Saves,
    Damage,
    IllBeBack,
    Tests,
    Complete,
}

/// One target's part of the attack and its markers afterwards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetRun {
    pub name: String,
    pub primary: bool,
    pub hits: u32,
    pub save: SaveRule,
    pub saves: Option<SaveRoll>,
    pub damage_roll: Option<DamageRoll>,
    /// Damage marked by this attack (TG-4).
    pub marked: u32,
    /// Damaging dice after the kill (TG-5): spent, or carried to the Crawler.
    pub leftover: Vec<u32>,
    pub ill_be_back: Option<IllBeBackRoll>,
    pub crawler: bool,
    /// Leftover dice applied to the Crawler (`term.ibb_carry_over`).
    pub carried: Vec<u32>,
    /// Resolution tests owed (one per non-damaging die).
    pub tests_due: u32,
    pub tests: Option<ResolutionRoll>,
    pub done_added: u32,
    /// Markers after the attack.
    pub damage: u32,
    pub done: u32,
    pub reeling: bool,
    pub removed: Option<Removal>,
}

/// What a stored run waits for before it can go on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "waiting")]
pub enum Waiting {
    /// The killed characters' owners roll I'll Be Back.
    IllBeBack { targets: Vec<String> },
    /// A resolution die the seed lost: set it on the sheet (or the Crawler profile) or give it.
    Die { target: String, field: DieField },
}

/// An attack under way, or done: every die so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackRun {
    pub request: AttackRequest,
    pub stage: Stage,
    pub rof: u32,
    pub attack: Option<AttackRoll>,
    pub targets: Vec<TargetRun>,
}

impl AttackRun {
    /// Check everything the rules refuse before a die is rolled (items 14, 21, 26, 29, TG-8,
    /// the lost dice the rolls certainly need), and set the run up.
    pub fn start(mut request: AttackRequest) -> Result<AttackRun, RuleError> {
        let w = &request.weapon;
        bounded(
            Quantity::Targets,
            request.targets.len() as i64,
            1,
            1 + MAX_SECONDARY as i64,
        )?;
        for (i, t) in request.targets.iter().enumerate() {
            bounded(Quantity::Armour, i64::from(t.armour), 2, 20)?;
            if request.targets[..i].iter().any(|o| o.name == t.name) {
                return Err(RuleError::DuplicateTarget { name: t.name.clone() });
            }
        }
        if request.friendly_touched {
            return Err(RuleError::FriendlyTouched);
        }
        if request.targets.len() > 1 && w.area.is_none() {
            return Err(RuleError::NotArea {
                weapon: w.name.clone(),
            });
        }
        w.check_band(request.band, request.hell)?;
        if request.hell {
            if !request.targets[0].reeling {
                return Err(RuleError::HellNeedsReeling {
                    target: request.targets[0].name.clone(),
                });
            }
            // Within CC of the reeling enemy (item 21).
            request.band = Band::Cc;
        }
        if w.heavy && request.moved {
            return Err(RuleError::HeavyMoved {
                weapon: w.name.clone(),
            });
        }
        if request.skill.is_none() {
            return Err(RuleError::MissingDie {
                who: request.attacker.clone(),
                field: DieField::Skill,
            });
        }
        if !request.hell || request.targets.len() > 1 {
            normal_power(&request)?;
        }
        let rof = request.weapon.rof_at(request.band);
        let targets = request
            .targets
            .iter()
            .enumerate()
            .map(|(i, t)| TargetRun {
                name: t.name.clone(),
                primary: i == 0,
                hits: 0,
                save: SaveRule::of(request.band, t.cover, t.mindless, request.hell && i == 0),
                saves: None,
                damage_roll: None,
                marked: 0,
                leftover: Vec::new(),
                ill_be_back: None,
                crawler: false,
                carried: Vec::new(),
                tests_due: 0,
                tests: None,
                done_added: 0,
                damage: t.damage,
                done: t.done,
                reeling: t.reeling,
                removed: None,
            })
            .collect();
        Ok(AttackRun {
            request,
            stage: Stage::AttackRoll,
            rof,
            attack: None,
            targets,
        })
    }

    /// The run's hits on the primary (0 before the attack roll).
    pub fn hits(&self) -> u32 {
        self.attack.as_ref().map_or(0, |a| a.hits)
    }

    /// What the run waits for at its stage, if anything: the I'll Be Back rolls, or a die.
    pub fn waiting(&self) -> Option<Waiting> {
        match self.stage {
            Stage::IllBeBack => Some(Waiting::IllBeBack {
                targets: self
                    .targets
                    .iter()
                    .enumerate()
                    .filter(|(i, t)| self.owes_ill_be_back(*i, t))
                    .map(|(_, t)| t.name.clone())
                    .collect(),
            }),
            Stage::Tests => self
                .targets
                .iter()
                .enumerate()
                .find(|(i, t)| self.owes_tests(t) && self.test_die(*i).is_none())
                .map(|(_, t)| Waiting::Die {
                    target: t.name.clone(),
                    field: DieField::Resolution,
                }),
            _ => None,
        }
    }

    /// Give a resolution die the seed lost to a target waiting for it (its own, or its
    /// Crawler's when it crawls on).
    pub fn supply_die(&mut self, target: &str, die: Die) -> Result<(), RuleError> {
        let i = self
            .targets
            .iter()
            .position(|t| t.name == target && self.owes_tests(t))
            .filter(|_| self.stage == Stage::Tests)
            .ok_or_else(|| RuleError::NotWaiting {
                target: target.chars().take(40).collect(),
            })?;
        let t = &mut self.request.targets[i];
        match (&mut t.crawler, self.targets[i].crawler) {
            (Some(c), true) => c.resolution = Some(die),
            _ => t.resolution = Some(die),
        }
        Ok(())
    }

    fn owes_ill_be_back(&self, i: usize, t: &TargetRun) -> bool {
        t.removed == Some(Removal::Killed)
            && t.ill_be_back.is_none()
            && self.request.targets[i].crawler.is_some()
            // Not after See you in hell (item 31).
            && !(self.request.hell && t.primary)
    }

    fn owes_tests(&self, t: &TargetRun) -> bool {
        t.removed.is_none() && t.tests_due > 0 && t.tests.is_none()
    }

    fn test_die(&self, i: usize) -> Option<Die> {
        let t = &self.request.targets[i];
        if self.targets[i].crawler {
            t.crawler.and_then(|c| c.resolution)
        } else {
            t.resolution
        }
    }

    /// One stage, all targets. On an error nothing changes.
    pub fn step(&mut self, roller: &mut impl Roller) -> Result<Stage, RuleError> {
        let mut next = self.clone();
        next.step_in_place(roller)?;
        *self = next;
        Ok(self.stage)
    }

    fn step_in_place(&mut self, roller: &mut impl Roller) -> Result<(), RuleError> {
        let req = &self.request;
        match self.stage {
            Stage::AttackRoll => {
                let skill = req.skill.ok_or_else(|| RuleError::MissingDie {
                    who: req.attacker.clone(),
                    field: DieField::Skill,
                })?;
                let roll = attack_roll(skill, self.rof, req.threshold(), roller)?;
                // TG-15: each secondary target takes as many hits as the primary; none without
                // a hit on the primary (L200).
                for t in &mut self.targets {
                    t.hits = roll.hits;
                }
                self.stage = if roll.hits > 0 {
                    Stage::Saves
                } else {
                    Stage::Complete
                };
                self.attack = Some(roll);
            }
            Stage::Saves => {
                for t in &mut self.targets {
                    if t.save.allowed() {
                        t.saves = Some(cover_saves(t.hits, roller)?);
                    }
                }
                self.stage = Stage::Damage;
            }
            Stage::Damage => {
                for (i, t) in self.targets.iter_mut().enumerate() {
                    let unsaved = t.saves.as_ref().map_or(t.hits, |s| s.unsaved);
                    if unsaved == 0 {
                        continue;
                    }
                    let stats = &req.targets[i];
                    let die = req.power_die(i)?;
                    let roll = damage_roll(die, unsaved, stats.armour, req.heavy, roller)?;
                    for &face in &roll.faces {
                        mark(t, face, stats.armour, stats.damage_limit);
                    }
                    t.damage_roll = Some(roll);
                }
                self.stage = self.after_damage();
            }
            Stage::IllBeBack => {
                for i in 0..self.targets.len() {
                    if !self.owes_ill_be_back(i, &self.targets[i]) {
                        continue;
                    }
                    let roll = ill_be_back(roller)?;
                    let crawler = self.request.targets[i].crawler;
                    let t = &mut self.targets[i];
                    t.ill_be_back = Some(roll);
                    if let (true, Some(c)) = (roll.crawls, crawler) {
                        t.crawler = true;
                        t.removed = None;
                        t.damage = 0;
                        let leftover = std::mem::take(&mut t.leftover);
                        if self.request.carry_over {
                            for face in leftover {
                                t.carried.push(face);
                                mark(t, face, c.armour, c.damage_limit);
                            }
                        } else {
                            t.leftover = leftover;
                        }
                    }
                }
                self.stage = if self.targets.iter().any(|t| self.owes_tests(t)) {
                    Stage::Tests
                } else {
                    Stage::Complete
                };
            }
            Stage::Tests => {
                for i in 0..self.targets.len() {
                    if !self.owes_tests(&self.targets[i]) {
                        continue;
                    }
                    let base = self.test_die(i).ok_or_else(|| RuleError::MissingDie {
                        who: self.targets[i].name.clone(),
                        field: DieField::Resolution,
                    })?;
                    let heavy = self.targets[i].damage_roll.as_ref().is_some_and(|d| d.heavy);
                    let roll = resolution_tests(base, self.targets[i].tests_due, heavy, roller)?;
                    let ready = self.request.targets[i].ready;
                    let t = &mut self.targets[i];
                    for r in &roll.results {
                        match r {
                            TestResult::NoEffect => {}
                            // Item 20, TG-2: one more Done marker, two when not yet activated.
                            TestResult::Reeling => {
                                let add = if t.done > 0 || ready { 1 } else { 2 };
                                t.done += add;
                                t.done_added += add;
                                t.reeling = true;
                            }
                            TestResult::Retreat => t.removed = Some(Removal::Retreated),
                        }
                    }
                    t.tests = Some(roll);
                }
                self.stage = Stage::Complete;
            }
            Stage::Complete => {}
        }
        Ok(())
    }

    fn after_damage(&self) -> Stage {
        if (0..self.targets.len()).any(|i| self.owes_ill_be_back(i, &self.targets[i])) {
            Stage::IllBeBack
        } else if self.targets.iter().any(|t| self.owes_tests(t)) {
            Stage::Tests
        } else {
            Stage::Complete
        }
    }
}

/// The power die a non-hell hit rolls: the roll's own, else the weapon's at the band.
fn normal_power(req: &AttackRequest) -> Result<Die, RuleError> {
    match req.power {
        Some(d) => Ok(d),
        None => req.weapon.power_at(req.band),
    }
}

/// One damage die against a target (TG-4, TG-5): a damaging die marks damage and kills at the
/// limit; after the kill it is left over; a die under the armour owes a resolution test.
fn mark(t: &mut TargetRun, face: u32, armour: u32, limit: u32) {
    if face < armour {
        t.tests_due += 1;
    } else if t.removed.is_some() {
        t.leftover.push(face);
    } else {
        t.marked += 1;
        t.damage += 1;
        if limit == 0 || t.damage >= limit {
            t.removed = Some(Removal::Killed);
        }
    }
}

/// Resolve an attack to the end at once: every die it may need (resolution dice, the Crawler's
/// too) must be known first, so nothing is rolled in vain.
pub fn resolve_attack(request: &AttackRequest, roller: &mut impl Roller) -> Result<AttackRun, RuleError> {
    let mut run = AttackRun::start(request.clone())?;
    for t in &run.request.targets {
        let crawler_die = t.crawler.map(|c| c.resolution);
        if t.resolution.is_none() || crawler_die == Some(None) {
            return Err(RuleError::MissingDie {
                who: t.name.clone(),
                field: DieField::Resolution,
            });
        }
    }
    while run.stage != Stage::Complete {
        run.step_in_place(roller)?;
    }
    Ok(run)
}

/// Characters, weapons and requests the resolver's tests and `/odds`' tests share.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;
    use crate::systems::terminator::weapon::find;

    pub fn weapon(name: &str, power: Die) -> Weapon {
        let mut w = find(&[], name).unwrap().clone();
        w.power = Some(power);
        w
    }

    pub fn soldier(name: &str) -> TargetStats {
        TargetStats::new(name, 4, Some(Die::D6))
    }

    pub fn endo(name: &str) -> TargetStats {
        TargetStats {
            mindless: true,
            crawler: Some(CrawlerStats {
                armour: 8,
                resolution: Some(Die::D10),
                damage_limit: 0,
            }),
            ..TargetStats::new(name, 8, Some(Die::D20))
        }
    }

    pub fn request(weapon: Weapon, skill: Die, band: Band, targets: Vec<TargetStats>) -> AttackRequest {
        AttackRequest {
            attacker: "Kyle".into(),
            weapon,
            skill: Some(skill),
            power: None,
            band,
            hell: false,
            moved: false,
            heavy: None,
            targets,
            friendly_touched: false,
            carry_over: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::terminator::weapon::Area;

    use super::fixtures::{endo, soldier, weapon};

    fn request(weapon: Weapon, band: Band, targets: Vec<TargetStats>) -> AttackRequest {
        super::fixtures::request(weapon, Die::D8, band, targets)
    }

    fn run(req: &AttackRequest, faces: &[u32]) -> AttackRun {
        let mut r = FixedRoller::new(faces.to_vec());
        let out = resolve_attack(req, &mut r).unwrap();
        assert_eq!(r.remaining(), 0, "every face used");
        out
    }

    #[test]
    fn a_whole_attack_kills_or_tests() {
        // Plasma rifle at short: ROF 2, 5+. Hits 5, 7; no cover within short: no save;
        // D10 damage vs 4+: 3 (tests), 9 (kills) → killed, no test.
        let req = request(
            weapon("Plasma rifle", Die::D10),
            Band::Short,
            vec![soldier("Joe")],
        );
        let out = run(&req, &[5, 7, 3, 9]);
        let t = &out.targets[0];
        assert_eq!((out.rof, out.hits(), t.save), (2, 2, SaveRule::NoCover));
        assert_eq!(
            (t.removed, t.tests_due, t.tests.is_none()),
            (Some(Removal::Killed), 1, true)
        );
        // Long range, ROF 1; in the open at long range the target saves: 3 fails; D8 2 → test
        // on D6: 4 → Reeling, two Done markers (not activated yet).
        let req = request(weapon("Plasma rifle", Die::D8), Band::Long, vec![soldier("Joe")]);
        let out = run(&req, &[6, 3, 2, 4]);
        let t = &out.targets[0];
        assert_eq!(out.rof, 1);
        assert_eq!(t.saves.as_ref().unwrap().unsaved, 1);
        assert_eq!((t.removed, t.reeling, t.done, t.done_added), (None, true, 2, 2));
        assert!(!t.damage_roll.as_ref().unwrap().heavy);
    }

    #[test]
    fn reeling_after_activating_adds_one_marker_and_reeling_again_adds_one_more() {
        let mut target = soldier("Joe");
        target.done = 1;
        let req = request(weapon("Submachine gun", Die::D6), Band::Short, vec![target]);
        // Hits 5, 6; no save; damage 1, 2 → two tests: 3, 5 → Reeling twice: +1 +1.
        let out = run(&req, &[5, 6, 1, 2, 3, 5]);
        assert_eq!((out.targets[0].done, out.targets[0].done_added), (3, 2));
        let req = request(
            weapon("Submachine gun", Die::D6),
            Band::Short,
            vec![soldier("Ann")],
        );
        let out = run(&req, &[5, 6, 1, 2, 3, 5]);
        assert_eq!(out.targets[0].done_added, 3, "+2 (not activated) then +1");
    }

    #[test]
    fn damage_limit_two_survives_one_damaging_roll_without_a_test() {
        let mut kyle = soldier("Kyle");
        kyle.damage_limit = 2;
        let req = request(weapon("Pistol", Die::D6), Band::Short, vec![kyle.clone()]);
        let out = run(&req, &[5, 6]);
        let t = &out.targets[0];
        assert_eq!((t.removed, t.damage, t.marked, t.tests_due), (None, 1, 1, 0));
        kyle.damage = 1;
        let req = request(weapon("Pistol", Die::D6), Band::Short, vec![kyle]);
        let out = run(&req, &[5, 4]);
        assert_eq!(
            out.targets[0].removed,
            Some(Removal::Killed),
            "the second reaches the limit"
        );
    }

    #[test]
    fn heavy_hits_degrade_the_test_die() {
        let mut endo_target = endo("T-800");
        endo_target.crawler = None;
        let req = request(weapon("Minigun", Die::D10), Band::Long, vec![endo_target]);
        // 5 ROF at 6+: one hit (6); Mindless: no save; D10 3 < 8 → a test on D20↓D12: 12.
        let out = run(&req, &[6, 1, 1, 1, 1, 3, 12]);
        let t = &out.targets[0];
        assert_eq!(t.save, SaveRule::Mindless);
        assert_eq!(t.tests.as_ref().unwrap().die, Die::D12);
        assert_eq!(t.tests.as_ref().unwrap().results, [TestResult::NoEffect]);
    }

    #[test]
    fn see_you_in_hell_hits_on_two_denies_saves_and_rolls_a_d20() {
        let mut joe = soldier("Joe");
        joe.reeling = true;
        joe.cover = true;
        joe.done = 2;
        let mut req = request(weapon("Assault rifle", Die::D6), Band::Long, vec![joe]);
        req.hell = true;
        // CC under hell: semi-auto ROF 2; 2+ hits: 1 misses, 2 hits; no save; D20: 3 < 4 →
        // a test, degraded (TG-1, the D20) D6 → D4: 2 → Reeling again, +1.
        let out = run(&req, &[1, 2, 3, 2]);
        let t = &out.targets[0];
        assert_eq!((out.rof, out.hits(), out.request.band), (2, 1, Band::Cc));
        assert_eq!(t.save, SaveRule::Hell);
        let d = t.damage_roll.as_ref().unwrap();
        assert_eq!((d.die, d.heavy), (Die::D20, true));
        assert_eq!(t.tests.as_ref().unwrap().die, Die::D4);
        assert_eq!((t.done, t.done_added), (3, 1));
        // Refusals: not reeling, a CC weapon.
        let mut req2 = req.clone();
        req2.targets[0].reeling = false;
        assert!(matches!(
            AttackRun::start(req2),
            Err(RuleError::HellNeedsReeling { .. })
        ));
        let mut req3 = req.clone();
        req3.weapon = weapon("Combat knife", Die::D6);
        assert!(matches!(
            AttackRun::start(req3),
            Err(RuleError::HellNeedsRanged { .. })
        ));
        // A CC weapon on a reeling target without hell: a normal 3+ attack (TG-8).
        let mut req4 = req.clone();
        req4.hell = false;
        req4.band = Band::Cc;
        req4.weapon = weapon("Combat knife", Die::D6);
        let out = run(&req4, &[2]);
        assert_eq!(out.attack.as_ref().unwrap().threshold, 3);
        assert_eq!(out.hits(), 0);
    }

    #[test]
    fn no_ill_be_back_after_see_you_in_hell_or_a_retreat() {
        let mut t = endo("T-800");
        t.reeling = true;
        t.done = 2;
        let mut req = request(weapon("Plasma gun", Die::D10), Band::Long, vec![t]);
        req.hell = true;
        // Two hits at 2+; D20 8 kills; a second 12 is left over. No I'll Be Back.
        let out = run(&req, &[2, 2, 8, 12]);
        let t = &out.targets[0];
        assert_eq!(
            (t.removed, t.ill_be_back, t.leftover.clone()),
            (Some(Removal::Killed), None, vec![12])
        );
        // A Retreat result removes it without I'll Be Back: D10 3 < 8 → test D20↓D12: 1.
        let req = request(weapon("Plasma gun", Die::D10), Band::Long, vec![endo("T-801")]);
        let out = run(&req, &[6, 1, 3, 1]);
        let t = &out.targets[0];
        assert_eq!((t.removed, t.ill_be_back), (Some(Removal::Retreated), None));
    }

    #[test]
    fn ill_be_back_four_stays_dead_five_crawls_and_takes_the_tests() {
        let req = request(weapon("Plasma gun", Die::D10), Band::Long, vec![endo("T-800")]);
        // Hits 6, 6; Mindless; damage 9 (kills), 2 (a test). IBB 4: dead, no test.
        let out = run(&req, &[6, 6, 9, 2, 4]);
        let t = &out.targets[0];
        assert_eq!(
            (t.removed, t.crawler, t.tests.is_none()),
            (Some(Removal::Killed), false, true)
        );
        // IBB 5: a Crawler, which takes the test on its own die (D10, degraded to D8): 3.
        let out = run(&req, &[6, 6, 9, 2, 5, 3]);
        let t = &out.targets[0];
        assert_eq!((t.removed, t.crawler, t.damage), (None, true, 0));
        let tests = t.tests.as_ref().unwrap();
        assert_eq!(
            (tests.base, tests.die, tests.results.clone()),
            (Die::D10, Die::D8, vec![TestResult::Reeling])
        );
    }

    #[test]
    fn leftover_damage_is_spent_unless_carried_over() {
        let mut req = request(
            weapon("Heavy plasma gun", Die::D10),
            Band::Long,
            vec![endo("T-800")],
        );
        // Three hits; damage 9 kills, 10 left over, 3 a test; IBB 6 → Crawler.
        let faces = [6, 6, 6, 9, 10, 3, 6];
        let mut r = FixedRoller::new(faces.to_vec());
        r.extend([7]);
        let out = resolve_attack(&req, &mut r).unwrap();
        let t = &out.targets[0];
        assert_eq!((t.crawler, t.leftover.clone(), t.removed), (true, vec![10], None));
        assert_eq!(
            t.tests.as_ref().unwrap().faces,
            [7],
            "the Crawler's D10, degraded to D8"
        );
        req.carry_over = true;
        let out = run(&req, &faces);
        let t = &out.targets[0];
        assert_eq!(
            (t.crawler, t.carried.clone(), t.removed),
            (true, vec![10], Some(Removal::Killed))
        );
        assert!(
            t.tests.is_none(),
            "the crawler was killed by the carried die: no test"
        );
    }

    #[test]
    fn area_hits_every_secondary_target_and_refuses_friends() {
        let gl = weapon("Grenade launcher", Die::D8);
        assert_eq!(gl.area, Some(Area::Small));
        let mut b = soldier("B");
        b.cover = true;
        let req = request(gl.clone(), Band::Short, vec![soldier("A"), b, endo("T")]);
        // One hit (5); A: no cover, no save; B in cover saves: 4 → saved; T Mindless.
        // Damage A: 4 kills; T: 8 kills; IBB for T: 2 → dead.
        let out = run(&req, &[5, 4, 4, 8, 2]);
        let [a, b, t] = &out.targets[..] else { panic!() };
        assert_eq!((a.hits, b.hits, t.hits), (1, 1, 1));
        assert_eq!(a.removed, Some(Removal::Killed));
        assert_eq!(
            (b.saves.as_ref().unwrap().saved, b.damage_roll.is_none()),
            (1, true)
        );
        assert_eq!(
            (t.removed, t.ill_be_back.unwrap().face),
            (Some(Removal::Killed), 2)
        );
        // No hit on the primary: nobody is hit.
        let out = run(&req, &[4]);
        assert!(out.targets.iter().all(|t| t.hits == 0));
        let mut bad = req.clone();
        bad.friendly_touched = true;
        assert_eq!(AttackRun::start(bad), Err(RuleError::FriendlyTouched));
        let not_area = request(
            weapon("Pistol", Die::D6),
            Band::Short,
            vec![soldier("A"), soldier("B")],
        );
        assert!(matches!(
            AttackRun::start(not_area),
            Err(RuleError::NotArea { .. })
        ));
        let twice = request(gl, Band::Short, vec![soldier("A"), soldier("A")]);
        assert!(matches!(
            AttackRun::start(twice),
            Err(RuleError::DuplicateTarget { .. })
        ));
    }

    #[test]
    fn refusals_before_any_die() {
        let mut hmg = request(
            weapon("Heavy machine gun", Die::D10),
            Band::Long,
            vec![soldier("A")],
        );
        hmg.moved = true;
        assert!(matches!(AttackRun::start(hmg), Err(RuleError::HeavyMoved { .. })));
        let ranged_cc = request(weapon("Pistol", Die::D6), Band::Cc, vec![soldier("A")]);
        assert!(matches!(
            AttackRun::start(ranged_cc),
            Err(RuleError::RangedAtCc { .. })
        ));
        let mut no_skill = request(weapon("Pistol", Die::D6), Band::Short, vec![soldier("A")]);
        no_skill.skill = None;
        assert_eq!(
            AttackRun::start(no_skill).unwrap_err(),
            RuleError::MissingDie {
                who: "Kyle".into(),
                field: DieField::Skill
            }
        );
        let mut no_power = request(weapon("Pistol", Die::D6), Band::Short, vec![soldier("A")]);
        no_power.weapon.power = None;
        assert!(matches!(
            AttackRun::start(no_power.clone()),
            Err(RuleError::MissingDie {
                field: DieField::Power,
                ..
            })
        ));
        no_power.power = Some(Die::D6);
        assert!(
            AttackRun::start(no_power).is_ok(),
            "a power die given with the roll"
        );
        let sg = request(weapon("Shotgun", Die::D8), Band::Close, vec![soldier("A")]);
        assert!(matches!(
            AttackRun::start(sg),
            Err(RuleError::MissingDie {
                field: DieField::StoppingPower,
                ..
            })
        ));
        let mut no_res = request(weapon("Pistol", Die::D6), Band::Short, vec![soldier("A")]);
        no_res.targets[0].resolution = None;
        assert!(resolve_attack(&no_res, &mut FixedRoller::new([6])).is_err());
    }

    #[test]
    fn stopping_power_rolls_its_die_at_close_range() {
        let mut sg = weapon("Shotgun", Die::D6);
        sg.stopping_die = Some(Die::D12);
        let req = request(sg.clone(), Band::Close, vec![endo("T")]);
        // 4+ at close: 4 hits; Mindless; D12 11 ≥ 8 kills; IBB 1.
        let out = run(&req, &[4, 11, 1]);
        let d = out.targets[0].damage_roll.as_ref().unwrap();
        assert_eq!(
            (d.die, d.heavy),
            (Die::D12, true),
            "TG-1: Stopping Power's D12 is heavy"
        );
        let req = request(sg, Band::Short, vec![endo("T")]);
        let out = run(&req, &[5, 6, 5]);
        assert_eq!(out.targets[0].damage_roll.as_ref().unwrap().die, Die::D6);
    }

    #[test]
    fn a_stepped_run_waits_for_ill_be_back_and_for_a_lost_die() {
        let mut t = endo("T-800");
        t.crawler.as_mut().unwrap().resolution = None;
        let req = request(weapon("Plasma gun", Die::D10), Band::Long, vec![t]);
        let mut run = AttackRun::start(req).unwrap();
        let mut r = FixedRoller::new([6, 6, 9, 2]);
        assert_eq!(run.step(&mut r), Ok(Stage::Saves));
        assert_eq!(run.step(&mut r), Ok(Stage::Damage), "Mindless: no saves rolled");
        assert_eq!(run.step(&mut r), Ok(Stage::IllBeBack));
        assert_eq!(
            run.waiting(),
            Some(Waiting::IllBeBack {
                targets: vec!["T-800".into()]
            })
        );
        r.extend([6]);
        assert_eq!(run.step(&mut r), Ok(Stage::Tests));
        assert_eq!(
            run.waiting(),
            Some(Waiting::Die {
                target: "T-800".into(),
                field: DieField::Resolution
            })
        );
        let before = run.clone();
        assert!(run.step(&mut r).is_err());
        assert_eq!(run, before, "a refused step changes nothing");
        assert!(run.supply_die("Nobody", Die::D6).is_err());
        run.supply_die("T-800", Die::D6).unwrap();
        r.extend([3]);
        assert_eq!(run.step(&mut r), Ok(Stage::Complete));
        assert_eq!(
            run.targets[0].tests.as_ref().unwrap().die,
            Die::D4,
            "D6 degraded by the D10"
        );
        assert_eq!(run.request.targets[0].crawler.unwrap().resolution, Some(Die::D6));
    }
}

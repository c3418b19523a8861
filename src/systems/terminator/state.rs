//! What a Terminator Genisys session keeps between commands (`system_state.terminator`, item
//! 35): the turn, the Tactical Edge and first player, the impulse (Fate result, activations
//! left), On Your Feet left per commander, an attack under way, and the session's own profiles
//! and weapons. Characters live in roster entries ([`Character`]); transitions take them as a
//! name → character map and either succeed whole or change nothing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::attack::{AttackRequest, AttackRun, CrawlerStats, Stage, TargetStats, Waiting};
use super::character::{self, Character};
use super::dice::{Die, FateRoll, RollOff};
use super::error::RuleError;
use super::options::TerminatorOptions;
use super::profile::{Library, Profile};
use super::weapon::{self, Band, Weapon};
use crate::dice::Roller;
use crate::i18n::Lang;
use crate::systems::rules::SessionState;
use crate::systems::sheet_error::SheetError;

pub const MAX_PROFILES: usize = 50;
pub const MAX_WEAPONS: usize = 100;

/// Where the turn is (L3–29).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// No turn yet (or no sides yet).
    #[default]
    NotStarted,
    /// The roll-off is won: the Tactical Edge holder chooses the first player (item 7).
    FirstPlayer,
    /// Impulses alternate (items 8–11).
    Impulse,
    /// Every character has activated: End Turn is next (item 12).
    EndTurn,
    /// Done markers are off; commanders may use On Your Feet until the next roll-off (25).
    OnYourFeet,
}

impl Phase {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Phase::NotStarted => lang.pick("not started", "開始前"),
            Phase::FirstPlayer => lang.pick("choosing the first player", "先攻プレイヤーの選択"),
            Phase::Impulse => lang.pick("impulse", "インパルス"),
            Phase::EndTurn => lang.pick("End Turn", "エンドターン"),
            Phase::OnYourFeet => lang.pick("On Your Feet, Soldier!", "さあ立ち上がれ！"),
        }
    }
}

/// One impulse: the player, the Fate roll and what it still allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Impulse {
    /// Counted from 1 within the turn.
    pub number: u32,
    pub player: String,
    #[serde(default)]
    pub fate: Option<FateRoll>,
    /// Characters that may still take a Ready marker (TG-10: no more than are eligible).
    #[serde(default)]
    pub allowance: u32,
    /// FATE with an eligible commander: one commander is to be chosen (item 24).
    #[serde(default)]
    pub fate_commander: bool,
    /// Who took a Ready marker in this impulse, in order.
    #[serde(default)]
    pub activated: Vec<String>,
}

/// An attack under way, with how the bot drives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredAttack {
    pub run: AttackRun,
    /// One stage per command (the bot's "continue" button).
    pub step_by_step: bool,
    /// Stop for the I'll Be Back roll (its owner's button).
    pub defer_ill_be_back: bool,
}

/// `system_state.terminator`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TerminatorState {
    /// The two sides; empty before the game starts.
    pub players: Vec<String>,
    pub turn: u32,
    pub phase: Phase,
    /// The Tactical Edge holder this turn.
    pub edge: Option<String>,
    pub first: Option<String>,
    pub roll_off: Option<RollOff>,
    pub impulse: Option<Impulse>,
    /// On Your Feet markers left per commander this End Turn (TG-11).
    pub on_your_feet: BTreeMap<String, u32>,
    pub attack: Option<StoredAttack>,
    /// The session's own profiles and weapons, looked up before §2's.
    pub profiles: Vec<Profile>,
    pub weapons: Vec<Weapon>,
}

impl SessionState for TerminatorState {
    const KEY: &'static str = "terminator";
}

/// An attack as the player orders it: characters by name, the rest what the bot cannot see (§4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackOrder {
    pub attacker: String,
    pub weapon: String,
    pub target: String,
    pub band: Band,
    pub cover: bool,
    /// Area: the enemies the template touches, with their cover, in damage order.
    pub secondaries: Vec<(String, bool)>,
    pub hell: bool,
    /// Moved this activation; `None`: as recorded on the character.
    pub moved: Option<bool>,
    pub heavy: Option<bool>,
    pub friendly_touched: bool,
    pub skill: Option<Die>,
    pub power: Option<Die>,
    pub step_by_step: bool,
    pub defer_ill_be_back: bool,
}

impl AttackOrder {
    pub fn new(attacker: &str, weapon: &str, target: &str, band: Band) -> AttackOrder {
        AttackOrder {
            attacker: attacker.to_string(),
            weapon: weapon.to_string(),
            target: target.to_string(),
            band,
            cover: false,
            secondaries: Vec::new(),
            hell: false,
            moved: None,
            heavy: None,
            friendly_touched: false,
            skill: None,
            power: None,
            step_by_step: false,
            defer_ill_be_back: false,
        }
    }
}

/// An attack command's answer: the run so far, what it waits for, and whether it is applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackReport {
    pub run: AttackRun,
    pub waiting: Option<Waiting>,
    /// The run is complete and its results are on the characters.
    pub applied: bool,
    /// The stages this command or press rolled, in order (a run is reported again at every
    /// step: each die belongs to the one row that rolled it).
    #[serde(default)]
    pub rolled: Vec<Stage>,
}

/// A side at a glance (the status board).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideStatus {
    pub side: String,
    /// May still activate this turn.
    pub eligible: Vec<String>,
    pub ready: Vec<String>,
    pub done: Vec<(String, u32)>,
    pub reeling: Vec<String>,
    pub crawlers: Vec<String>,
    pub removed: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    pub turn: u32,
    pub phase: Phase,
    pub edge: Option<String>,
    pub first: Option<String>,
    pub impulse: Option<Impulse>,
    pub on_your_feet: BTreeMap<String, u32>,
    pub attack_waiting: Option<Waiting>,
    pub attack_under_way: bool,
    pub sides: Vec<SideStatus>,
}

impl TerminatorState {
    /// What the game waits for now: a refusal says it beside what was asked for.
    pub fn waiting_for(&self) -> super::error::Step {
        use super::error::Step;
        match self.phase {
            Phase::NotStarted if self.players.len() == 2 => Step::RollOff,
            Phase::NotStarted => Step::Start,
            Phase::FirstPlayer if self.edge.is_none() => Step::RollOff,
            Phase::FirstPlayer => Step::FirstPlayer,
            Phase::Impulse if self.impulse.as_ref().is_none_or(|i| i.fate.is_none()) => Step::Fate,
            Phase::Impulse => Step::Activation,
            Phase::EndTurn => Step::EndTurn,
            Phase::OnYourFeet => Step::OnYourFeet,
        }
    }

    /// `needed` is not what the game waits for.
    pub(super) fn wrong(&self, needed: super::error::Step) -> RuleError {
        RuleError::WrongStep {
            needed,
            now: self.waiting_for(),
        }
    }

    pub fn library(&self) -> Library<'_> {
        Library {
            profiles: &self.profiles,
            weapons: &self.weapons,
        }
    }

    /// Define a profile, or override one (same name): `base` profile's fields (§2's when it
    /// names one) changed by `fields` as `/char` reads them.
    pub fn define_profile(&mut self, name: &str, fields: &[(String, String)]) -> Result<Profile, SheetError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 {
            return Err(SheetError::new(
                "A profile's name is 1–40 characters.",
                "プロフィール名は1〜40文字です。",
            ));
        }
        let lib = self.library();
        let base = lib
            .profile(name)
            .cloned()
            .unwrap_or_else(|| Profile::new(name, "", 0));
        let c = Character::new("-", base);
        let v = super::sheet::edit_with(&c.to_value(), fields, &lib)?;
        let mut p = super::sheet::read(&v)?.stats;
        let existing = self
            .profiles
            .iter()
            .position(|q| q.name.eq_ignore_ascii_case(name));
        if existing.is_none() && self.profiles.len() >= MAX_PROFILES {
            return Err(SheetError::from_localized(&RuleError::TooMany {
                what: "profiles".into(),
                max: MAX_PROFILES,
            }));
        }
        let shipped = Library::shipped().profile(name).map(|s| s.name.clone());
        p.name = shipped.unwrap_or_else(|| name.to_string());
        match existing {
            Some(i) => self.profiles[i] = p.clone(),
            None => self.profiles.push(p.clone()),
        }
        Ok(p)
    }

    /// Define (or override) a weapon from a `/char` weapon line.
    pub fn define_weapon(&mut self, line: &str) -> Result<Weapon, SheetError> {
        let w = weapon::parse("weapon", line, &self.weapons)?;
        let existing = self
            .weapons
            .iter()
            .position(|q| q.name.eq_ignore_ascii_case(&w.name));
        match existing {
            Some(i) => self.weapons[i] = w.clone(),
            None if self.weapons.len() >= MAX_WEAPONS => {
                return Err(SheetError::from_localized(&RuleError::TooMany {
                    what: "weapons".into(),
                    max: MAX_WEAPONS,
                }));
            }
            None => self.weapons.push(w.clone()),
        }
        Ok(w)
    }

    /// Forget a session profile or weapon (a shipped one comes back); whether one went.
    pub fn remove_definition(&mut self, name: &str) -> bool {
        let before = self.profiles.len() + self.weapons.len();
        self.profiles
            .retain(|p| !p.name.eq_ignore_ascii_case(name.trim()));
        self.weapons.retain(|w| !w.name.eq_ignore_ascii_case(name.trim()));
        before != self.profiles.len() + self.weapons.len()
    }

    fn target_stats(&self, name: &str, c: &Character, cover: bool) -> TargetStats {
        let crawler = (c.stats.ill_be_back && !c.crawler).then(|| {
            let p = c.crawler_profile(&self.library().crawler());
            CrawlerStats {
                armour: p.armour,
                resolution: p.resolution,
                damage_limit: p.damage_limit,
            }
        });
        TargetStats {
            name: name.to_string(),
            armour: c.stats.armour,
            resolution: c.stats.resolution,
            mindless: c.stats.mindless,
            cover,
            reeling: c.reeling,
            damage_limit: c.stats.damage_limit,
            damage: c.damage,
            done: c.done,
            ready: c.ready,
            crawler,
        }
    }

    /// An attack (L31–38) by a character on the battlefield. During a turn the attacker must be
    /// activating (Ready). Runs to the end, or stops where the order asks (step by step, the
    /// I'll Be Back button) or a lost resolution die is needed; the run is then kept here.
    pub fn attack(
        &mut self,
        order: &AttackOrder,
        chars: &mut BTreeMap<String, Character>,
        options: &TerminatorOptions,
        roller: &mut impl Roller,
    ) -> Result<AttackReport, RuleError> {
        if self.attack.is_some() {
            return Err(RuleError::AttackUnderWay);
        }
        let attacker = character::get(chars, &order.attacker)?;
        attacker.ensure_on_field(&order.attacker)?;
        if self.turn > 0 {
            if self.phase != Phase::Impulse {
                return Err(self.wrong(super::error::Step::Activation));
            }
            if !attacker.ready {
                return Err(RuleError::NotReady {
                    name: order.attacker.clone(),
                });
            }
        }
        let request = self.attack_request(order, chars, options)?;
        let mut stored = StoredAttack {
            run: AttackRun::start(request)?,
            step_by_step: order.step_by_step,
            defer_ill_be_back: order.defer_ill_be_back,
        };
        let rolled = drive(&mut stored, roller, false)?;
        Ok(self.settle(stored, chars, rolled))
    }

    /// The request an attack of `order` makes: the attacker on the field with the weapon and
    /// its ammunition, every target on the field and on the other side, their stats and cover.
    /// Whatever the turn (the odds of an attack are asked at any time); `attack` adds the
    /// turn's checks.
    pub fn attack_request(
        &self,
        order: &AttackOrder,
        chars: &BTreeMap<String, Character>,
        options: &TerminatorOptions,
    ) -> Result<AttackRequest, RuleError> {
        let attacker = character::get(chars, &order.attacker)?;
        attacker.ensure_on_field(&order.attacker)?;
        let w = attacker.weapon(&order.attacker, &order.weapon)?.clone();
        if let Some(limit) = w.limited_ammo
            && attacker.ammo_used.get(&w.name).copied().unwrap_or(0) >= limit
        {
            return Err(RuleError::OutOfAmmo {
                weapon: w.name.clone(),
                limit,
            });
        }
        let mut targets = Vec::new();
        for (i, (name, cover)) in std::iter::once((&order.target, &order.cover))
            .chain(order.secondaries.iter().map(|(n, c)| (n, c)))
            .enumerate()
        {
            let t = character::get(chars, name)?;
            t.ensure_on_field(name)?;
            if *name == order.attacker {
                return Err(if i == 0 {
                    RuleError::SelfTarget
                } else {
                    RuleError::FriendlyTouched
                });
            }
            if t.side == attacker.side {
                // A friend under the Area template: the shot is not allowed (item 29).
                return Err(if i == 0 {
                    RuleError::FriendlyTarget {
                        target: name.clone(),
                        side: t.side.clone(),
                    }
                } else {
                    RuleError::FriendlyTouched
                });
            }
            targets.push(self.target_stats(name, t, *cover));
        }
        Ok(AttackRequest {
            attacker: order.attacker.clone(),
            weapon: w,
            skill: order.skill.or(attacker.stats.skill),
            power: order.power,
            band: order.band,
            hell: order.hell,
            moved: order.moved.unwrap_or(attacker.moved),
            heavy: order.heavy,
            targets,
            friendly_touched: order.friendly_touched,
            carry_over: options.carry_over,
        })
    }

    /// The next stage of the attack under way (the continue button; the I'll Be Back roll).
    /// Refused, with nothing rolled, while a resolution die is missing.
    pub fn continue_attack(
        &mut self,
        chars: &mut BTreeMap<String, Character>,
        roller: &mut impl Roller,
    ) -> Result<AttackReport, RuleError> {
        let mut stored = self.attack.clone().ok_or(RuleError::NoAttack)?;
        if let Some(Waiting::Die { target, field }) = stored.run.waiting() {
            return Err(RuleError::MissingDie { who: target, field });
        }
        let rolled = drive(&mut stored, roller, true)?;
        Ok(self.settle(stored, chars, rolled))
    }

    /// Give the attack under way a resolution die it waits for.
    pub fn supply_die(&mut self, target: &str, die: Die) -> Result<Option<Waiting>, RuleError> {
        let stored = self.attack.as_mut().ok_or(RuleError::NoAttack)?;
        stored.run.supply_die(target, die)?;
        Ok(stored.run.waiting())
    }

    /// Drop the attack under way (the GM's undo): nothing of it reaches the characters.
    pub fn cancel_attack(&mut self) -> Result<AttackRun, RuleError> {
        self.attack.take().map(|s| s.run).ok_or(RuleError::NoAttack)
    }

    /// Keep an unfinished run, or put a finished one on the characters.
    fn settle(
        &mut self,
        stored: StoredAttack,
        chars: &mut BTreeMap<String, Character>,
        rolled: Vec<Stage>,
    ) -> AttackReport {
        let waiting = stored.run.waiting();
        if stored.run.stage != Stage::Complete {
            let run = stored.run.clone();
            self.attack = Some(stored);
            return AttackReport {
                run,
                waiting,
                applied: false,
                rolled,
            };
        }
        self.attack = None;
        let run = stored.run;
        let crawler = self.library().crawler();
        if let Some(a) = chars.get_mut(&run.request.attacker)
            && run.request.weapon.limited_ammo.is_some()
        {
            *a.ammo_used.entry(run.request.weapon.name.clone()).or_insert(0) += 1;
        }
        for (i, t) in run.targets.iter().enumerate() {
            let Some(c) = chars.get_mut(&t.name) else { continue };
            if t.crawler {
                let mut p = c.crawler_profile(&crawler);
                // A resolution die given to the attack for the Crawler (`/term die`) stays.
                if let Some(d) = run
                    .request
                    .targets
                    .get(i)
                    .and_then(|r| r.crawler)
                    .and_then(|k| k.resolution)
                {
                    p.resolution = Some(d);
                }
                c.become_crawler(&p);
            } else if c.stats.resolution.is_none() {
                // A resolution die given to the attack (`/term die`) stays on the sheet.
                c.stats.resolution = run.request.targets.get(i).and_then(|r| r.resolution);
            }
            c.damage = t.damage;
            c.done = t.done;
            c.reeling = t.reeling;
            c.removed = t.removed;
            if t.removed.is_some() {
                // Off the battlefield: no markers left on the board.
                c.ready = false;
                c.done = 0;
                c.reeling = false;
            }
        }
        AttackReport {
            run,
            waiting: None,
            applied: true,
            rolled,
        }
    }

    /// The game at a glance.
    pub fn status(&self, chars: &BTreeMap<String, Character>) -> Status {
        let mut sides: Vec<String> = self.players.clone();
        for c in chars.values() {
            if !sides.contains(&c.side) {
                sides.push(c.side.clone());
            }
        }
        let sides = sides
            .into_iter()
            .map(|side| {
                let mine: Vec<(&String, &Character)> = chars.iter().filter(|(_, c)| c.side == side).collect();
                let names = |f: &dyn Fn(&Character) -> bool| -> Vec<String> {
                    mine.iter()
                        .filter(|(_, c)| f(c))
                        .map(|(n, _)| (*n).clone())
                        .collect()
                };
                SideStatus {
                    eligible: names(&|c| c.eligible()),
                    ready: names(&|c| c.on_field() && c.ready),
                    done: mine
                        .iter()
                        .filter(|(_, c)| c.on_field() && c.done > 0)
                        .map(|(n, c)| ((*n).clone(), c.done))
                        .collect(),
                    reeling: names(&|c| c.on_field() && c.reeling),
                    crawlers: names(&|c| c.on_field() && c.crawler),
                    removed: names(&|c| !c.on_field()),
                    side,
                }
            })
            .collect();
        Status {
            turn: self.turn,
            phase: self.phase,
            edge: self.edge.clone(),
            first: self.first.clone(),
            impulse: self.impulse.clone(),
            on_your_feet: self.on_your_feet.clone(),
            attack_waiting: self.attack.as_ref().and_then(|a| a.run.waiting()),
            attack_under_way: self.attack.is_some(),
            sides,
        }
    }

    /// The stored state makes sense (what `check_state` asks beyond reading).
    pub fn validate(&self) -> Result<(), RuleError> {
        let known = |p: &Option<String>| p.as_ref().is_none_or(|p| self.players.contains(p));
        let two = self.players.len() == 2 && self.players[0] != self.players[1];
        if !(self.players.is_empty() || two) {
            return Err(RuleError::NeedTwoSides);
        }
        for p in [
            &self.edge,
            &self.first,
            &self.impulse.as_ref().map(|i| i.player.clone()),
        ] {
            if !known(p) {
                return Err(RuleError::UnknownSide {
                    side: p.clone().unwrap_or_default(),
                });
            }
        }
        let wrong = |needed| Err(self.wrong(needed));
        use super::error::Step;
        match self.phase {
            Phase::Impulse if self.impulse.is_none() => return wrong(Step::Fate),
            Phase::FirstPlayer if self.edge.is_none() => return wrong(Step::RollOff),
            Phase::NotStarted | Phase::FirstPlayer | Phase::Impulse | Phase::EndTurn | Phase::OnYourFeet => {}
        }
        if self.phase != Phase::NotStarted && !two {
            return Err(RuleError::NeedTwoSides);
        }
        if self.profiles.len() > MAX_PROFILES {
            return Err(RuleError::TooMany {
                what: "profiles".into(),
                max: MAX_PROFILES,
            });
        }
        if self.weapons.len() > MAX_WEAPONS {
            return Err(RuleError::TooMany {
                what: "weapons".into(),
                max: MAX_WEAPONS,
            });
        }
        Ok(())
    }
}

/// Advance a stored run: one stage when stepping, else until it is complete or waits (the
/// I'll Be Back button unless `ibb_pressed`, a missing die). The stages it rolled, in order.
fn drive(
    stored: &mut StoredAttack,
    roller: &mut impl Roller,
    mut ibb_pressed: bool,
) -> Result<Vec<Stage>, RuleError> {
    let mut next = stored.run.clone();
    let mut rolled = Vec::new();
    loop {
        match next.stage {
            Stage::Complete => break,
            Stage::IllBeBack if stored.defer_ill_be_back && !ibb_pressed => break,
            Stage::Tests if matches!(next.waiting(), Some(Waiting::Die { .. })) => break,
            _ => {}
        }
        ibb_pressed = false;
        rolled.push(next.stage);
        next.step(roller)?;
        if stored.step_by_step {
            break;
        }
    }
    stored.run = next;
    Ok(rolled)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::systems::rules::SystemRules;
    use crate::systems::terminator::rules::TerminatorRules;

    #[test]
    fn the_state_round_trips_under_its_key_and_keeps_other_keys() {
        let mut s = TerminatorState::default();
        s.start(&["Resistance".to_string(), "Skynet".to_string()])
            .unwrap();
        s.define_weapon("Railgun long rof2 d12 heavy").unwrap();
        let mut stored = json!({"race": {"laps": 3}});
        s.write(&mut stored);
        let text = serde_json::to_string(&stored).unwrap();
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["race"]["laps"], 3);
        assert_eq!(TerminatorState::read(&back).unwrap(), s);
        assert_eq!(
            TerminatorState::read(&Value::Null).unwrap(),
            TerminatorState::default()
        );
        assert!(TerminatorRules.check_state(&back).is_ok());
        let mut bad = back.clone();
        bad["terminator"]["players"] = json!(["A", "A"]);
        assert!(TerminatorRules.check_state(&bad).is_err());
        let mut bad = back.clone();
        bad["terminator"]["phase"] = json!("impulse");
        assert!(
            TerminatorRules.check_state(&bad).is_err(),
            "an impulse phase with no impulse"
        );
        assert!(
            TerminatorRules
                .check_state(&json!({"terminator": {"turn": "x"}}))
                .is_err()
        );
    }

    #[test]
    fn session_profiles_override_and_weapons_are_defined() {
        let mut s = TerminatorState::default();
        let p = s
            .define_profile(
                "Crawler",
                &crate::systems::sheet::parse_fields("resolution=d10 skill=d6").unwrap(),
            )
            .unwrap();
        assert_eq!(
            (p.name.as_str(), p.armour, p.resolution),
            ("Crawler", 8, Some(Die::D10))
        );
        assert!(p.slow && p.mindless, "the shipped fields stay");
        assert_eq!(s.library().crawler().resolution, Some(Die::D10));
        let p = s
            .define_profile(
                "Hunter",
                &crate::systems::sheet::parse_fields("armour=7 skill=d10").unwrap(),
            )
            .unwrap();
        assert_eq!((p.name.as_str(), p.ja.as_str()), ("Hunter", ""));
        assert!(
            s.define_profile("Ghost", &[]).is_err(),
            "a new profile needs armour"
        );
        assert!(s.define_profile(" ", &[]).is_err());
        let before = s.clone();
        assert!(s.define_weapon("Phaser d6").is_err());
        assert_eq!(s, before, "a refused definition changes nothing");
        assert!(s.remove_definition("hunter"));
        assert!(!s.remove_definition("hunter"));
    }

    /// Issue 36: `/term define` typed in Japanese, as its option descriptions show it, defines
    /// what the English words define.
    #[test]
    fn definitions_read_in_japanese_words() {
        let mut ja = TerminatorState::default();
        let mut en = TerminatorState::default();
        let fields = |t: &str| crate::systems::sheet::parse_fields(t).unwrap();
        let p = ja
            .define_profile("Hunter", &fields("アーマー=7 スキル=d10"))
            .unwrap();
        assert_eq!(
            p,
            en.define_profile("Hunter", &fields("armour=7 skill=d10"))
                .unwrap()
        );
        let w = ja.define_weapon("レールガン 遠 射撃回数2 d12 重火器").unwrap();
        let e = en.define_weapon("Railgun long rof2 d12 heavy").unwrap();
        assert_eq!(w.name, "レールガン");
        assert_eq!(
            (w.reach, w.rof, w.power, w.heavy),
            (e.reach, e.rof, e.power, e.heavy)
        );
    }
}

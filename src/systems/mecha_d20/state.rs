//! The battle a session keeps (checklist 15–17, 25): turn, phase, squad order, the held list of
//! damage waiting for the application phase, and the checks the application phase (or spending
//! spirit) asked for, each answerable once (the bot's buttons, after a restart too).
//!
//! Units live in roster entries; transitions take them as a name → [`Unit`] map the bot reads
//! from the sheets and writes back. Every transition either succeeds whole or returns an error
//! with nothing changed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::attack::{StrikeOutcome, UnitAttack, strike};
use super::damage::DamageOutcome;
use super::error::RuleError;
use super::initiative::{InitiativeMode, InitiativeOutcome, InitiativeRequest, roll_initiative};
use super::secondary::{self, LimbPart, SecondaryEffect, SecondaryRoll};
use super::survival::{
    EscapeOutcome, FaintOutcome, FatigueOutcome, escape_check, faint_check, fatigue_check,
};
use super::unit::{Unit, WeaponStatus};
use crate::dice::Roller;
use crate::i18n::Lang;
use crate::session::RosterEntry;
use crate::systems::rules::SessionState;

/// Most damage entries one turn holds.
pub const MAX_HELD: usize = 200;
/// Most open prompts and part choices kept.
pub const MAX_PROMPTS: usize = 200;

/// Where the turn is (L57–76). With more than two squads each squad takes a phase (MG-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "phase")]
pub enum Phase {
    /// No turn yet.
    #[default]
    NotStarted,
    Initiative,
    /// Squad `index` of the order acts: 0 is the first phase (先攻), 1 the second (後攻)…
    Squad {
        index: usize,
    },
    Application,
    /// The application phase ended the turn; the next starts with initiative.
    TurnOver,
}

impl Phase {
    pub fn name(self, lang: Lang) -> String {
        match self {
            Phase::NotStarted => lang.pick("not started", "開始前").to_string(),
            Phase::Initiative => lang.pick("initiative phase", "イニシアチブフェイズ").to_string(),
            Phase::Squad { index: 0 } => lang.pick("first phase", "先攻フェイズ").to_string(),
            Phase::Squad { index: 1 } => lang.pick("second phase", "後攻フェイズ").to_string(),
            Phase::Squad { index } => match lang {
                Lang::En => format!("phase {}", index + 1),
                Lang::Ja => format!("第{}フェイズ", index + 1),
            },
            Phase::Application => lang.pick("application phase", "適用フェイズ").to_string(),
            Phase::TurnOver => lang.pick("turn over", "ターン終了").to_string(),
        }
    }
}

/// Damage dealt but not yet applied (L66, L71).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    pub id: u32,
    pub turn: u32,
    pub attacker: String,
    pub weapon: String,
    pub target: String,
    pub damage: u32,
    pub critical: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secondary: Option<SecondaryRoll>,
}

/// An attack that hit in a turn (raw damage may follow it, issue 33).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    pub turn: u32,
    pub attacker: String,
    pub target: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptKind {
    Escape,
    Fatigue,
    Faint,
}

impl PromptKind {
    fn key(self) -> &'static str {
        match self {
            PromptKind::Escape => "escape",
            PromptKind::Fatigue => "fatigue",
            PromptKind::Faint => "faint",
        }
    }
}

/// A check waiting for its button.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    pub kind: PromptKind,
    pub unit: String,
    pub turn: u32,
}

/// An arm or leg lost without recorded sides: the owner picks the weapons that went (MG-8 d).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartChoice {
    pub unit: String,
    pub part: LimbPart,
    pub candidates: Vec<String>,
    pub turn: u32,
}

/// `system_state.mecha_d20`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MechaState {
    pub turn: u32,
    pub phase: Phase,
    /// Squad names, first to act first.
    pub squad_order: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initiative: Option<InitiativeOutcome>,
    pub held: Vec<Held>,
    pub next_held: u32,
    pub prompts: Vec<Prompt>,
    pub choices: Vec<PartChoice>,
    /// This turn's attacks that hit, by attacker and target.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hits: Vec<Hit>,
}

impl SessionState for MechaState {
    const KEY: &'static str = "mecha_d20";
}

/// What one held entry did when applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppliedEntry {
    pub held: Held,
    pub durability_before: i64,
    pub durability_after: i64,
    pub effects: Vec<SecondaryEffect>,
    /// The target left the roster: nothing applied.
    pub missing: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApplicationOutcome {
    pub turn: u32,
    pub entries: Vec<AppliedEntry>,
    /// Destroyed in this application (MG-6): their pilots get an escape check.
    pub destroyed: Vec<String>,
    /// Pilots whose suits were not destroyed: a fatigue check each.
    pub fatigue: Vec<String>,
    /// Arm or leg losses waiting for the owner's choice.
    pub choices: Vec<PartChoice>,
}

/// A prompted check, answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum PromptAnswer {
    Escape(EscapeOutcome),
    Fatigue(FatigueOutcome),
    Faint(FaintOutcome),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpiritSpent {
    pub spent: u32,
    pub left: u32,
    /// `mecha.faint_after_spirit` is on: a faint check now waits (MG-3).
    pub faint_prompted: bool,
}

/// The roster's units by entry name, as the transitions take them. An entry whose sheet does
/// not read is refused by name.
pub fn units_of(roster: &[RosterEntry]) -> Result<BTreeMap<String, Unit>, RuleError> {
    roster
        .iter()
        .map(|e| Ok((e.name.clone(), Unit::read(&e.sheet, &e.name)?)))
        .collect()
}

/// Write changed units back into their roster entries; returns the names written.
pub fn write_units(roster: &mut [RosterEntry], units: &BTreeMap<String, Unit>) -> Vec<String> {
    write_where(roster, units, |_, _| true)
}

/// [`write_units`] after a step that began from `before` (read from this roster): only the
/// units the step changed, and sheets written before the game had rules (rewritten typed), are
/// serialized and compared, so a turn that touches one unit of many writes one.
pub fn write_changed_units(
    roster: &mut [RosterEntry],
    before: &BTreeMap<String, Unit>,
    units: &BTreeMap<String, Unit>,
) -> Vec<String> {
    write_where(roster, units, |e, u| {
        before.get(&e.name) != Some(u) || super::sheet::is_untyped(&e.sheet)
    })
}

/// Each unit `may_differ` from its entry's sheet is written there when it does.
fn write_where(
    roster: &mut [RosterEntry],
    units: &BTreeMap<String, Unit>,
    may_differ: impl Fn(&RosterEntry, &Unit) -> bool,
) -> Vec<String> {
    let mut written = Vec::new();
    for e in roster.iter_mut() {
        let Some(u) = units.get(&e.name).filter(|u| may_differ(e, u)) else {
            continue;
        };
        let v = u.to_value();
        if v != e.sheet {
            e.sheet = v.into();
            written.push(e.name.clone());
        }
    }
    written
}

fn unit_mut<'a>(units: &'a mut BTreeMap<String, Unit>, name: &str) -> Result<&'a mut Unit, RuleError> {
    units.get_mut(name).ok_or_else(|| RuleError::UnknownUnit {
        name: name.to_string(),
    })
}

fn unit_ref<'a>(units: &'a BTreeMap<String, Unit>, name: &str) -> Result<&'a Unit, RuleError> {
    units.get(name).ok_or_else(|| RuleError::UnknownUnit {
        name: name.to_string(),
    })
}

fn wrong(needed: &str) -> RuleError {
    RuleError::WrongPhase {
        needed: needed.to_string(),
    }
}

impl MechaState {
    /// The squad acting now, in a squad phase.
    pub fn acting_squad(&self) -> Option<&str> {
        match self.phase {
            Phase::Squad { index } => self.squad_order.get(index).map(String::as_str),
            _ => None,
        }
    }

    /// A new turn (MG-4: AP refreshed to maximum − fatigue for every suit not destroyed).
    /// Refused while a turn is under way, so held damage is never dropped.
    pub fn start_turn(&mut self, units: &mut BTreeMap<String, Unit>) -> Result<u32, RuleError> {
        if !matches!(self.phase, Phase::NotStarted | Phase::TurnOver) {
            return Err(wrong("application"));
        }
        for u in units.values_mut().filter(|u| !u.suit.destroyed) {
            u.refresh_ap();
        }
        self.turn += 1;
        self.phase = Phase::Initiative;
        self.squad_order.clear();
        self.initiative = None;
        Ok(self.turn)
    }

    /// Roll initiative for the squads in `units` and enter the first phase.
    pub fn roll_initiative(
        &mut self,
        units: &BTreeMap<String, Unit>,
        mode: InitiativeMode,
        roller: &mut dyn Roller,
    ) -> Result<InitiativeOutcome, RuleError> {
        if self.phase != Phase::Initiative {
            return Err(if self.turn == 0 {
                RuleError::NoTurn
            } else {
                wrong("initiative")
            });
        }
        let req = InitiativeRequest::from_units(units, mode)?;
        let out = roll_initiative(&req, roller)?;
        self.squad_order = out.order.clone();
        self.initiative = Some(out.clone());
        self.phase = Phase::Squad { index: 0 };
        Ok(out)
    }

    /// The next squad's phase, or the application phase after the last.
    pub fn next_phase(&mut self) -> Result<Phase, RuleError> {
        self.phase = match self.phase {
            Phase::Squad { index } if index + 1 < self.squad_order.len() => Phase::Squad { index: index + 1 },
            Phase::Squad { .. } => Phase::Application,
            Phase::NotStarted => return Err(RuleError::NoTurn),
            _ => return Err(wrong("squad")),
        };
        Ok(self.phase)
    }

    /// In a squad phase, an attack by a unit of the acting squad: rolled, and its damage held.
    pub fn attack(
        &mut self,
        spec: &UnitAttack,
        units: &BTreeMap<String, Unit>,
        roller: &mut dyn Roller,
    ) -> Result<(StrikeOutcome, Option<u32>), RuleError> {
        let acting = self.acting_squad().ok_or_else(|| wrong("squad"))?.to_string();
        let attacker = unit_ref(units, &spec.attacker)?;
        let target = unit_ref(units, &spec.target)?;
        if attacker.pilot.squad != acting {
            return Err(RuleError::NotYourPhase {
                name: spec.attacker.clone(),
                squad: attacker.pilot.squad.clone(),
            });
        }
        if self.held.len() >= MAX_HELD {
            return Err(RuleError::TooManyHeld { max: MAX_HELD });
        }
        let out = strike(spec, attacker, target, self.turn, roller)?;
        let id = out
            .damage
            .as_ref()
            .map(|d| self.push_held(&out.attacker, &out.weapon, &out.target, d));
        if out.attack.hit {
            // Only this turn's hits matter (raw damage may follow them): older ones go.
            let turn = self.turn;
            self.hits.retain(|h| h.turn == turn);
            if self.hits.len() < MAX_HELD {
                self.hits.push(Hit {
                    turn,
                    attacker: out.attacker.clone(),
                    target: out.target.clone(),
                });
            }
        }
        Ok((out, id))
    }

    /// Hold damage rolled outside [`MechaState::attack`] (raw numbers, a GM's ruling) against a
    /// roster unit.
    pub fn hold_damage(
        &mut self,
        attacker: &str,
        weapon: &str,
        target: &str,
        damage: &DamageOutcome,
        units: &BTreeMap<String, Unit>,
    ) -> Result<u32, RuleError> {
        if !matches!(self.phase, Phase::Squad { .. }) {
            return Err(wrong("squad"));
        }
        unit_ref(units, target)?.ensure_active(target)?;
        if self.held.len() >= MAX_HELD {
            return Err(RuleError::TooManyHeld { max: MAX_HELD });
        }
        Ok(self.push_held(attacker, weapon, target, damage))
    }

    /// Whether `attacker` hit `target` with an attack in this turn (its damage is held): raw
    /// damage may follow it onto a unit its owner does not own (issue 33).
    pub fn hit_this_turn(&self, attacker: &str, target: &str) -> bool {
        self.hits.iter().any(|h| {
            h.turn == self.turn
                && h.attacker.eq_ignore_ascii_case(attacker.trim())
                && h.target.eq_ignore_ascii_case(target.trim())
        })
    }

    fn push_held(&mut self, attacker: &str, weapon: &str, target: &str, d: &DamageOutcome) -> u32 {
        self.next_held += 1;
        self.held.push(Held {
            id: self.next_held,
            turn: self.turn,
            attacker: attacker.to_string(),
            weapon: weapon.to_string(),
            target: target.to_string(),
            damage: d.damage,
            critical: d.critical,
            secondary: d.secondary,
        });
        self.next_held
    }

    /// Take back a held entry (the GM's undo).
    pub fn remove_held(&mut self, id: u32) -> Result<Held, RuleError> {
        let i = self
            .held
            .iter()
            .position(|h| h.id == id)
            .ok_or(RuleError::NoHeld { id })?;
        Ok(self.held.remove(i))
    }

    /// Held damage waiting for `target` (the board's "pending").
    pub fn pending_for(&self, target: &str) -> u32 {
        self.held
            .iter()
            .filter(|h| h.target == target)
            .map(|h| h.damage)
            .sum()
    }

    /// The application phase (L75–76, MG-6, MG-8): every held entry in the order dealt, then
    /// suits at durability ≤ 0 are destroyed (escape checks wait for their pilots) and every other
    /// pilot's fatigue check waits. Ends the turn.
    pub fn apply(
        &mut self,
        units: &mut BTreeMap<String, Unit>,
        roller: &mut dyn Roller,
    ) -> Result<ApplicationOutcome, RuleError> {
        if self.phase != Phase::Application {
            return Err(if self.turn == 0 {
                RuleError::NoTurn
            } else {
                wrong("application")
            });
        }
        // Work on copies: a die that fails half-way changes nothing.
        let mut work = units.clone();
        let mut next = self.clone();
        let turn = self.turn;
        let mut entries = Vec::new();
        let mut choices = Vec::new();
        for h in std::mem::take(&mut next.held) {
            let Some(u) = work.get_mut(&h.target) else {
                entries.push(AppliedEntry {
                    held: h,
                    durability_before: 0,
                    durability_after: 0,
                    effects: Vec::new(),
                    missing: true,
                });
                continue;
            };
            let before = u.suit.durability;
            u.suit.durability -= i64::from(h.damage);
            let mut effects = Vec::new();
            if let Some(s) = h.secondary {
                effects = secondary::apply(s.row, u, turn, roller)?;
                for fx in &effects {
                    if let SecondaryEffect::OwnerChooses { part, candidates } = fx {
                        choices.push(PartChoice {
                            unit: h.target.clone(),
                            part: *part,
                            candidates: candidates.clone(),
                            turn,
                        });
                    }
                }
            }
            entries.push(AppliedEntry {
                durability_before: before,
                durability_after: u.suit.durability,
                held: h,
                effects,
                missing: false,
            });
        }
        let mut destroyed = Vec::new();
        let mut fatigue = Vec::new();
        for (name, u) in work.iter_mut().filter(|(_, u)| !u.suit.destroyed) {
            if u.suit.durability <= 0 {
                u.suit.destroyed = true;
                destroyed.push(name.clone());
            } else {
                fatigue.push(name.clone());
            }
        }
        for (kind, names) in [(PromptKind::Escape, &destroyed), (PromptKind::Fatigue, &fatigue)] {
            for n in names {
                next.add_prompt(kind, n);
            }
        }
        next.choices.extend(choices.iter().cloned());
        let extra = next.choices.len().saturating_sub(MAX_PROMPTS);
        next.choices.drain(..extra);
        next.phase = Phase::TurnOver;
        *self = next;
        *units = work;
        Ok(ApplicationOutcome {
            turn,
            entries,
            destroyed,
            fatigue,
            choices,
        })
    }

    fn add_prompt(&mut self, kind: PromptKind, unit: &str) {
        // One open prompt per kind and unit: a newer one replaces the older.
        self.prompts.retain(|p| !(p.kind == kind && p.unit == unit));
        self.prompts.push(Prompt {
            kind,
            unit: unit.to_string(),
            turn: self.turn,
        });
        let extra = self.prompts.len().saturating_sub(MAX_PROMPTS);
        self.prompts.drain(..extra);
    }

    /// Whether a `kind` check waits for `unit`.
    pub fn has_prompt(&self, kind: PromptKind, unit: &str) -> bool {
        self.prompts.iter().any(|p| p.kind == kind && p.unit == unit)
    }

    /// Answer a waiting check once: rolled, applied to the unit, and the prompt gone. Refused
    /// (nothing rolled) when no such check waits.
    pub fn answer_prompt(
        &mut self,
        kind: PromptKind,
        name: &str,
        units: &mut BTreeMap<String, Unit>,
        modifier: i64,
        escape_target: i64,
        roller: &mut dyn Roller,
    ) -> Result<PromptAnswer, RuleError> {
        let i = self
            .prompts
            .iter()
            .position(|p| p.kind == kind && p.unit == name)
            .ok_or_else(|| RuleError::NoPrompt {
                kind: kind.key().to_string(),
                name: name.to_string(),
            })?;
        let mut u = unit_ref(units, name)?.clone();
        let answer = match kind {
            PromptKind::Escape => {
                PromptAnswer::Escape(escape_check(name, &mut u, modifier, escape_target, roller)?)
            }
            PromptKind::Fatigue => PromptAnswer::Fatigue(fatigue_check(name, &mut u, modifier, roller)?),
            PromptKind::Faint => PromptAnswer::Faint(faint_check(&mut u, modifier, roller)?),
        };
        units.insert(name.to_string(), u);
        self.prompts.remove(i);
        Ok(answer)
    }

    /// Spend spirit points; with `faint_after_spirit` (MG-3 option) a faint check then waits.
    pub fn spend_spirit(
        &mut self,
        name: &str,
        units: &mut BTreeMap<String, Unit>,
        points: u32,
        faint_after_spirit: bool,
    ) -> Result<SpiritSpent, RuleError> {
        let left = unit_mut(units, name)?.spend_spirit(name, points)?;
        let faint_prompted = faint_after_spirit && points > 0;
        if faint_prompted {
            self.add_prompt(PromptKind::Faint, name);
        }
        Ok(SpiritSpent {
            spent: points,
            left,
            faint_prompted,
        })
    }

    /// The owner's pick of the weapons an arm or leg took with it (MG-8 d): each must be one of
    /// the choice's candidates; an empty pick means none of them was on that part.
    pub fn choose_lost_weapons(
        &mut self,
        name: &str,
        units: &mut BTreeMap<String, Unit>,
        weapons: &[String],
    ) -> Result<Vec<String>, RuleError> {
        let i = self
            .choices
            .iter()
            .position(|c| c.unit == name)
            .ok_or_else(|| RuleError::NoChoice {
                name: name.to_string(),
            })?;
        let choice = &self.choices[i];
        let unit = unit_mut(units, name)?;
        let mut picked = Vec::new();
        for w in weapons {
            let found = choice
                .candidates
                .iter()
                .find(|c| c.eq_ignore_ascii_case(w.trim()))
                .ok_or_else(|| RuleError::BadChoice { weapon: w.clone() })?;
            let index = unit.weapon_index(name, found)?;
            picked.push(index);
        }
        let from = choice.turn + 1;
        let mut lost = Vec::new();
        for index in picked {
            let w = &mut unit.suit.weapons[index];
            w.status = WeaponStatus::Lost { from };
            lost.push(w.name.clone());
        }
        self.choices.remove(i);
        Ok(lost)
    }

    /// Close every waiting check and choice of `unit` (the GM's dismissal).
    pub fn dismiss(&mut self, unit: &str) {
        self.prompts.retain(|p| p.unit != unit);
        self.choices.retain(|c| c.unit != unit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::mecha_d20::damage::DamageRequest;
    use crate::systems::mecha_d20::damage::damage_from_dice;
    use crate::systems::mecha_d20::unit::Power;

    #[test]
    fn phases_run_initiative_squads_application_and_refuse_out_of_turn() {
        let mut st = MechaState::default();
        let mut units = BTreeMap::new();
        assert_eq!(st.next_phase(), Err(RuleError::NoTurn));
        let mut r = FixedRoller::new([]);
        assert_eq!(st.apply(&mut units, &mut r).unwrap_err(), RuleError::NoTurn);
        assert_eq!(st.start_turn(&mut units), Ok(1));
        assert!(st.next_phase().is_err(), "initiative first");
        st.squad_order = vec!["A".into(), "B".into(), "C".into()];
        st.phase = Phase::Squad { index: 0 };
        assert_eq!(st.acting_squad(), Some("A"));
        assert_eq!(st.next_phase(), Ok(Phase::Squad { index: 1 }));
        assert_eq!(st.next_phase(), Ok(Phase::Squad { index: 2 }));
        assert_eq!(st.next_phase(), Ok(Phase::Application));
        assert!(st.start_turn(&mut units).is_err(), "the application comes first");
        assert_eq!(Phase::Squad { index: 1 }.name(Lang::Ja), "後攻フェイズ");
        assert_eq!(Phase::Squad { index: 2 }.name(Lang::En), "phase 3");
    }

    #[test]
    fn units_come_from_and_go_back_to_the_roster() {
        let mut roster = vec![
            RosterEntry::new("A", 1).with_sheet(serde_json::json!({"durability": 10})),
            RosterEntry::new("B", 2).with_sheet(serde_json::json!({"durability": 8, "armour": 2})),
        ];
        let mut units = units_of(&roster).unwrap();
        assert_eq!(units["B"].suit.armour, 2);
        units.get_mut("A").unwrap().suit.durability = 4;
        assert_eq!(
            write_units(&mut roster, &units),
            ["A", "B"],
            "legacy sheets are rewritten typed"
        );
        assert_eq!(roster[0].sheet["suit"]["durability"], 4);
        assert!(write_units(&mut roster, &units).is_empty(), "nothing changed");

        // After a step, only what it changed is written; a legacy sheet is rewritten typed.
        let before = units.clone();
        units.get_mut("B").unwrap().suit.durability = 3;
        assert_eq!(write_changed_units(&mut roster, &before, &units), ["B"]);
        assert_eq!(roster[1].sheet["suit"]["durability"], 3);
        assert!(
            write_changed_units(&mut roster, &units, &units).is_empty(),
            "nothing changed"
        );
        let mut legacy = vec![RosterEntry::new("A", 1).with_sheet(serde_json::json!({"durability": 10}))];
        let read = units_of(&legacy).unwrap();
        assert_eq!(
            write_changed_units(&mut legacy, &read, &read),
            ["A"],
            "rewritten typed"
        );
        assert_eq!(legacy[0].sheet["suit"]["durability"], 10);
        assert!(write_changed_units(&mut legacy, &read, &read).is_empty());
        roster.push(RosterEntry::new("C", 3).with_sheet(serde_json::json!({"colour": "red"})));
        assert_eq!(
            units_of(&roster).unwrap_err(),
            RuleError::BadSheet { name: "C".into() }
        );
    }

    #[test]
    fn held_entries_can_be_taken_back_and_are_capped() {
        let mut st = MechaState {
            turn: 1,
            phase: Phase::Squad { index: 0 },
            ..MechaState::default()
        };
        let mut units = BTreeMap::new();
        units.insert("T".to_string(), Unit::default());
        let d = damage_from_dice(
            &DamageRequest {
                power: Power {
                    count: 2,
                    sides: 6,
                    bonus: 0,
                },
                armour: 0,
                multiplier: None,
            },
            vec![3, 4],
        );
        let id = st.hold_damage("GM", "rock", "T", &d, &units).unwrap();
        assert_eq!(st.pending_for("T"), 7);
        assert!(matches!(
            st.hold_damage("GM", "rock", "X", &d, &units),
            Err(RuleError::UnknownUnit { .. })
        ));
        assert_eq!(st.remove_held(id).unwrap().damage, 7);
        assert_eq!(st.remove_held(id), Err(RuleError::NoHeld { id }));
        for _ in 0..MAX_HELD {
            st.hold_damage("GM", "rock", "T", &d, &units).unwrap();
        }
        assert_eq!(
            st.hold_damage("GM", "rock", "T", &d, &units),
            Err(RuleError::TooManyHeld { max: MAX_HELD })
        );
    }
}

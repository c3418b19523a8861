//! Turns, activations, the open attack and the active and inactive players (items 21, 22, 25,
//! 27, 33, 34, WG-1's expiries, WG-6, WG-9).
//!
//! Why roles are stored and not only derived: after an attack, its active and inactive players
//! hold until every effect it caused is resolved (item 22), even if a model of the other player
//! made the attack; the queue may still be running when nothing else shows whose attack it was.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::attack::AttackOutcome;
use super::effects::Expiry;
use super::error::{RuleError, text};
use super::model::{Expired, Model};
use super::rolloff::number_players;
pub use super::triggers::Roles;
use super::triggers::{ClosedTrigger, Resolution, TriggerQueue};

/// "Any time" uses kept for display.
pub const MAX_ANY_TIME_LOG: usize = 50;

/// Why the roles are what they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RolesFrom {
    /// An attack is open: its attacker's controller is active.
    Attack,
    /// The attack is over, its triggers are not (item 22, WG-9).
    AfterAttack,
    /// No attack: the player whose turn it is.
    Turn,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RolesView {
    pub roles: Roles,
    pub from: RolesFrom,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub model: String,
    pub controller: String,
    /// The model ran: "any time" rules are over for this activation (item 27).
    #[serde(default)]
    pub ran: bool,
    /// A move is under way (never interrupted by "any time" rules).
    #[serde(default)]
    pub moving: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenAttack {
    pub attacker: String,
    pub target: String,
    pub roles: Roles,
    /// Known once the roll is recorded.
    #[serde(default)]
    pub hit: Option<bool>,
    #[serde(default)]
    pub critical: bool,
}

/// An "any time" rule the bot allowed and logged (item 27).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnyTimeUse {
    pub round: u32,
    pub model: String,
    pub rule: String,
}

/// What a turn's end did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnEnd {
    pub ended: String,
    /// Instances that ended with the turn (WG-1: end of the current player's turn).
    pub expired_at_end: Vec<Expired>,
    pub round: u32,
    pub next_player: String,
    /// Instances that ended as the next player's turn began (WG-1: "one round").
    pub expired_at_start: Vec<Expired>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TurnState {
    /// In turn order; numbered 1, 2, … in this order (WG-4).
    #[serde(default)]
    pub players: Vec<String>,
    /// 0 until the game starts.
    #[serde(default)]
    pub round: u32,
    /// Index into `players` of the player whose turn it is.
    #[serde(default)]
    pub turn: usize,
    #[serde(default)]
    pub activation: Option<Activation>,
    /// Models that activated this turn.
    #[serde(default)]
    pub activated: Vec<String>,
    #[serde(default)]
    pub open_attack: Option<OpenAttack>,
    /// WG-9: the last attack's roles, until its triggers are done or the next attack starts.
    #[serde(default)]
    pub sticky_roles: Option<Roles>,
    #[serde(default)]
    pub triggers: TriggerQueue,
    #[serde(default)]
    pub any_time_log: Vec<AnyTimeUse>,
    /// Counts the moments a damage button belongs to (WG-9, issue 29): it moves on with every
    /// attack, every end of an activation or turn and every (re)start, so a button made before
    /// knows the state it was made in has passed. A finished game starts again from 0; the
    /// state's count of games ([`super::state::WarmachineState::games`]) tells games apart.
    #[serde(default)]
    pub moment: u32,
}

fn expire_all(models: &mut BTreeMap<String, Model>, at: &Expiry) -> Vec<Expired> {
    models.values_mut().flat_map(|m| m.expire(at)).collect()
}

impl TurnState {
    pub fn started(&self) -> bool {
        self.round > 0 && !self.players.is_empty()
    }

    /// Start (or restart) the game: round 1, the first player's turn.
    pub fn start(&mut self, players: &[String]) -> Result<(), RuleError> {
        let numbered = number_players(players)?;
        *self = TurnState {
            players: numbered.into_iter().map(|n| n.name).collect(),
            round: 1,
            moment: self.moment.wrapping_add(1),
            ..TurnState::default()
        };
        Ok(())
    }

    pub fn turn_player(&self) -> Option<&str> {
        if self.started() {
            self.players.get(self.turn).map(String::as_str)
        } else {
            None
        }
    }

    fn roles_for(&self, active: &str) -> Roles {
        Roles {
            active: active.to_string(),
            inactive: self.players.iter().filter(|p| *p != active).cloned().collect(),
        }
    }

    /// Item 21: the attacker's controller during an attack, the turn player otherwise; item 22:
    /// the attack's roles until its triggers are resolved.
    pub fn roles(&self) -> Option<RolesView> {
        if let Some(a) = &self.open_attack {
            return Some(RolesView {
                roles: a.roles.clone(),
                from: RolesFrom::Attack,
            });
        }
        if let Some(r) = &self.sticky_roles {
            return Some(RolesView {
                roles: r.clone(),
                from: RolesFrom::AfterAttack,
            });
        }
        self.turn_player().map(|p| RolesView {
            roles: self.roles_for(p),
            from: RolesFrom::Turn,
        })
    }

    fn no_attack_open(&self) -> Result<(), RuleError> {
        match &self.open_attack {
            Some(a) => Err(RuleError::AttackOpen {
                attacker: a.attacker.clone(),
                target: a.target.clone(),
            }),
            None => Ok(()),
        }
    }

    fn not_moving(&self) -> Result<(), RuleError> {
        match &self.activation {
            Some(a) if a.moving => Err(RuleError::Moving {
                model: a.model.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// `model` starts its activation: in its controller's turn, once per turn.
    pub fn start_activation(&mut self, model: &Model) -> Result<(), RuleError> {
        let turn_player = self.turn_player().ok_or(RuleError::GameNotStarted)?.to_string();
        if let Some(a) = &self.activation {
            return Err(RuleError::ActivationInProgress {
                model: a.model.clone(),
            });
        }
        self.no_attack_open()?;
        model.alive()?;
        if model.controller != turn_player {
            return Err(RuleError::NotYourTurn {
                model: model.name.clone(),
                controller: model.controller.clone(),
                turn_player,
            });
        }
        if self.activated.contains(&model.name) {
            return Err(RuleError::AlreadyActivated {
                model: model.name.clone(),
            });
        }
        self.activated.push(model.name.clone());
        self.activation = Some(Activation {
            model: model.name.clone(),
            controller: model.controller.clone(),
            ran: false,
            moving: false,
        });
        Ok(())
    }

    /// A move (or a run) begins.
    pub fn begin_move(&mut self, run: bool) -> Result<(), RuleError> {
        self.no_attack_open()?;
        self.not_moving()?;
        let a = self.activation.as_mut().ok_or(RuleError::NoActivation)?;
        a.moving = true;
        a.ran |= run;
        Ok(())
    }

    pub fn end_move(&mut self) -> Result<(), RuleError> {
        let a = self.activation.as_mut().ok_or(RuleError::NoActivation)?;
        a.moving = false;
        Ok(())
    }

    /// An attack opens (WG-9): the attacker's controller is active until it is over, and the
    /// last attack's sticky roles end.
    pub fn begin_attack(&mut self, attacker: &Model, target: &Model) -> Result<&Roles, RuleError> {
        self.no_attack_open()?;
        self.not_moving()?;
        attacker.alive()?;
        target.alive()?;
        if self.started() && !self.players.contains(&attacker.controller) {
            return Err(RuleError::UnknownPlayer {
                name: attacker.controller.clone(),
            });
        }
        self.sticky_roles = None;
        self.next_moment();
        let roles = self.roles_for(&attacker.controller);
        let open = self.open_attack.insert(OpenAttack {
            attacker: attacker.name.clone(),
            target: target.name.clone(),
            roles,
            hit: None,
            critical: false,
        });
        Ok(&open.roles)
    }

    /// Keep the roll's result with the open attack.
    pub fn record_attack(&mut self, outcome: &AttackOutcome) -> Result<(), RuleError> {
        let a = self.open_attack.as_mut().ok_or(RuleError::NoOpenAttack)?;
        if a.attacker != outcome.attacker || a.target != outcome.target {
            return Err(RuleError::AttackOpen {
                attacker: a.attacker.clone(),
                target: a.target.clone(),
            });
        }
        a.hit = Some(outcome.hit);
        a.critical = outcome.critical;
        Ok(())
    }

    /// The attack is resolved. Its roles stay while triggers wait (item 22).
    pub fn end_attack(&mut self) -> Result<OpenAttack, RuleError> {
        let a = self.open_attack.take().ok_or(RuleError::NoOpenAttack)?;
        self.sticky_roles = (!self.triggers.is_empty()).then(|| a.roles.clone());
        Ok(a)
    }

    /// The activation ends: "end of activation" instances of that model end (WG-1).
    pub fn end_activation(
        &mut self,
        models: &mut BTreeMap<String, Model>,
    ) -> Result<Vec<Expired>, RuleError> {
        self.no_attack_open()?;
        self.not_moving()?;
        let a = self.activation.take().ok_or(RuleError::NoActivation)?;
        self.sticky_roles = None;
        self.next_moment();
        Ok(expire_all(models, &Expiry::EndOfActivation { model: a.model }))
    }

    /// The turn passes: this player's "end of turn" instances end, the next player's turn
    /// starts (a new round after the last player) and their "start of turn" instances end.
    pub fn end_turn(&mut self, models: &mut BTreeMap<String, Model>) -> Result<TurnEnd, RuleError> {
        let ended = self.turn_player().ok_or(RuleError::GameNotStarted)?.to_string();
        if let Some(a) = &self.activation {
            return Err(RuleError::ActivationInProgress {
                model: a.model.clone(),
            });
        }
        self.no_attack_open()?;
        // Issue 29: waiting triggers belong to this turn; they never run into the next.
        if !self.triggers.is_empty() {
            return Err(RuleError::TriggersWaiting {
                waiting: self
                    .trigger_order()
                    .iter()
                    .map(|t| format!("#{} {}: {}", t.id, t.owner, t.text))
                    .collect(),
            });
        }
        self.next_moment();
        let expired_at_end = expire_all(
            models,
            &Expiry::EndOfTurn {
                player: ended.clone(),
            },
        );
        self.turn += 1;
        if self.turn >= self.players.len() {
            self.turn = 0;
            self.round += 1;
        }
        self.activated.clear();
        self.sticky_roles = None;
        let next_player = self.players[self.turn].clone();
        let expired_at_start = expire_all(
            models,
            &Expiry::StartOfTurn {
                player: next_player.clone(),
            },
        );
        Ok(TurnEnd {
            ended,
            expired_at_end,
            round: self.round,
            next_player,
            expired_at_start,
        })
    }

    /// Item 27: an "any time" rule of the activating model, logged when allowed. Refused during
    /// a move, an attack or triggers' resolution, after a run, or outside its activation.
    pub fn use_any_time(&mut self, model: &str, rule: &str) -> Result<AnyTimeUse, RuleError> {
        let rule = text("rule text", rule, 100)?;
        let a = match &self.activation {
            Some(a) if a.model == model => a,
            _ => return Err(RuleError::AnyTimeNotActivating { model: model.into() }),
        };
        if a.ran {
            return Err(RuleError::AnyTimeAfterRun { model: model.into() });
        }
        if a.moving {
            return Err(RuleError::AnyTimeDuringMove);
        }
        if self.open_attack.is_some() {
            return Err(RuleError::AnyTimeDuringAttack);
        }
        if !self.triggers.is_empty() {
            return Err(RuleError::AnyTimeDuringTrigger);
        }
        let used = AnyTimeUse {
            round: self.round,
            model: model.into(),
            rule,
        };
        self.any_time_log.push(used.clone());
        let extra = self.any_time_log.len().saturating_sub(MAX_ANY_TIME_LOG);
        self.any_time_log.drain(..extra);
        Ok(used)
    }

    /// The moment moves on (see [`TurnState::moment`]).
    pub fn next_moment(&mut self) {
        self.moment = self.moment.wrapping_add(1);
    }

    /// Enter pending triggers (WG-6).
    pub fn add_triggers(&mut self, lines: &str) -> Result<Vec<u32>, RuleError> {
        self.triggers.add(lines, &self.players)
    }

    /// Enter pending triggers, a line naming a model being that model's (its controller owns
    /// it; it leaves the queue when the model is destroyed).
    pub fn add_model_triggers(
        &mut self,
        lines: &str,
        models: &BTreeMap<String, Model>,
    ) -> Result<Vec<u32>, RuleError> {
        let named: Vec<(&str, &str)> = models
            .values()
            .map(|m| (m.name.as_str(), m.controller.as_str()))
            .collect();
        self.triggers.add_for(lines, &self.players, &named)
    }

    /// Issue 29: the waiting triggers of destroyed models leave the queue (item 26: their
    /// condition no longer holds); when it empties, the last attack's roles end (WG-9).
    pub fn drop_destroyed(&mut self, models: &BTreeMap<String, Model>) -> Vec<ClosedTrigger> {
        let gone: Vec<&str> = models
            .values()
            .filter(|m| m.alive().is_err())
            .map(|m| m.name.as_str())
            .collect();
        if gone.is_empty() {
            return Vec::new();
        }
        let closed = self.triggers.drop_models(&gone);
        if self.triggers.is_empty() {
            self.sticky_roles = None;
        }
        closed
    }

    /// The id of the trigger that resolves next, if any wait.
    pub fn next_trigger(&self) -> Option<u32> {
        self.trigger_order().first().map(|t| t.id)
    }

    /// The pending triggers in the order they resolve.
    pub fn trigger_order(&self) -> Vec<&super::triggers::Trigger> {
        let roles = self.roles().map(|r| r.roles);
        self.triggers.ordered(roles.as_ref(), &self.players)
    }

    /// Close the next trigger; when the queue empties, the last attack's roles end (WG-9).
    pub fn close_trigger(&mut self, id: u32, resolution: Resolution) -> Result<ClosedTrigger, RuleError> {
        let roles = self.roles().map(|r| r.roles);
        let closed = self
            .triggers
            .close(id, resolution, roles.as_ref(), &self.players)?;
        if self.triggers.is_empty() {
            self.sticky_roles = None;
        }
        Ok(closed)
    }

    /// The game is over: back to a fresh state (the rulings are archived by the caller).
    pub fn reset(&mut self) {
        *self = TurnState::default();
    }

    /// The stored state reads sensibly: a turn index within the players, roles among them.
    pub fn validate(&self) -> Result<(), RuleError> {
        if self.round > 0 {
            number_players(&self.players)?;
            if self.turn >= self.players.len() {
                return Err(RuleError::UnknownPlayer {
                    name: format!("#{}", self.turn + 1),
                });
            }
        }
        let roles = self
            .open_attack
            .iter()
            .map(|a| &a.roles)
            .chain(self.sticky_roles.iter());
        for r in roles {
            if self.started() && !self.players.contains(&r.active) {
                return Err(RuleError::UnknownPlayer {
                    name: r.active.clone(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::warmachine::effects::{EffectSpec, Stat, StatChange};

    fn players() -> Vec<String> {
        vec!["Ana".into(), "Ben".into()]
    }

    fn table() -> BTreeMap<String, Model> {
        let mut m = BTreeMap::new();
        for (name, ctl) in [("Stalker", "Ana"), ("Shade", "Ana"), ("Grunt", "Ben")] {
            m.insert(name.to_string(), Model::new(name, ctl, 13, 13, 10));
        }
        m
    }

    fn started() -> TurnState {
        let mut t = TurnState::default();
        t.start(&players()).unwrap();
        t
    }

    fn hex() -> EffectSpec {
        EffectSpec {
            name: "Hex".into(),
            changes: vec![StatChange {
                stat: Stat::Def,
                delta: -2,
            }],
            cannot: vec![],
        }
    }

    #[test]
    fn roles_follow_the_turn_then_the_attacker_and_stick_while_triggers_wait() {
        let m = table();
        let mut t = started();
        assert_eq!(t.roles().unwrap().roles.active, "Ana");
        assert_eq!(t.roles().unwrap().from, RolesFrom::Turn);
        // Ben's Grunt makes an attack in Ana's turn (a free strike): Ben is active.
        t.begin_attack(&m["Grunt"], &m["Stalker"]).unwrap();
        let v = t.roles().unwrap();
        assert_eq!((v.roles.active.as_str(), v.from), ("Ben", RolesFrom::Attack));
        assert_eq!(v.roles.inactive, vec!["Ana"]);
        t.add_triggers("Ana: Retaliate\nBen: Overtake").unwrap();
        t.end_attack().unwrap();
        let v = t.roles().unwrap();
        assert_eq!((v.roles.active.as_str(), v.from), ("Ben", RolesFrom::AfterAttack));
        // Ben's trigger first: he is still active.
        let next = t.trigger_order()[0].id;
        assert_eq!(t.trigger_order()[0].owner, "Ben");
        t.close_trigger(next, Resolution::Resolved).unwrap();
        assert_eq!(
            t.roles().unwrap().roles.active,
            "Ben",
            "still sticky: one trigger left"
        );
        let next = t.trigger_order()[0].id;
        t.close_trigger(next, Resolution::ConditionNoLongerMet).unwrap();
        assert_eq!(t.roles().unwrap().from, RolesFrom::Turn);
        assert_eq!(t.roles().unwrap().roles.active, "Ana");
    }

    #[test]
    fn an_attack_with_no_triggers_leaves_no_sticky_roles_and_the_next_attack_ends_them() {
        let m = table();
        let mut t = started();
        t.begin_attack(&m["Grunt"], &m["Stalker"]).unwrap();
        t.end_attack().unwrap();
        assert_eq!(t.roles().unwrap().from, RolesFrom::Turn);
        t.begin_attack(&m["Grunt"], &m["Stalker"]).unwrap();
        t.add_triggers("Ana: X").unwrap();
        t.end_attack().unwrap();
        assert_eq!(t.roles().unwrap().roles.active, "Ben");
        t.begin_attack(&m["Stalker"], &m["Grunt"]).unwrap();
        assert_eq!(t.roles().unwrap().roles.active, "Ana");
        assert!(t.sticky_roles.is_none());
    }

    #[test]
    fn one_attack_at_a_time() {
        let m = table();
        let mut t = started();
        t.begin_attack(&m["Stalker"], &m["Grunt"]).unwrap();
        let before = t.clone();
        assert!(matches!(
            t.begin_attack(&m["Shade"], &m["Grunt"]),
            Err(RuleError::AttackOpen { .. })
        ));
        assert_eq!(t, before);
        t.end_attack().unwrap();
        assert_eq!(t.end_attack(), Err(RuleError::NoOpenAttack));
    }

    #[test]
    fn activations_belong_to_the_turn_player_once_a_turn() {
        let mut m = table();
        let mut t = TurnState::default();
        assert_eq!(t.start_activation(&m["Stalker"]), Err(RuleError::GameNotStarted));
        t.start(&players()).unwrap();
        assert!(matches!(
            t.start_activation(&m["Grunt"]),
            Err(RuleError::NotYourTurn { .. })
        ));
        t.start_activation(&m["Stalker"]).unwrap();
        assert!(matches!(
            t.start_activation(&m["Shade"]),
            Err(RuleError::ActivationInProgress { .. })
        ));
        assert!(matches!(
            t.end_turn(&mut m),
            Err(RuleError::ActivationInProgress { .. })
        ));
        t.end_activation(&mut m).unwrap();
        assert!(matches!(
            t.start_activation(&m["Stalker"]),
            Err(RuleError::AlreadyActivated { .. })
        ));
        let end = t.end_turn(&mut m).unwrap();
        assert_eq!(
            (end.ended.as_str(), end.next_player.as_str(), end.round),
            ("Ana", "Ben", 1)
        );
        let end = t.end_turn(&mut m).unwrap();
        assert_eq!((end.next_player.as_str(), end.round), ("Ana", 2));
        t.start_activation(&m["Stalker"]).unwrap();
        let mut gone = m["Shade"].clone();
        gone.destroy().unwrap();
        t.end_activation(&mut m).unwrap();
        assert!(matches!(
            t.start_activation(&gone),
            Err(RuleError::Destroyed { .. })
        ));
    }

    #[test]
    fn instances_expire_at_activation_turn_end_and_turn_start() {
        let mut m = table();
        let mut t = started();
        let g = m.get_mut("Grunt").unwrap();
        g.add_effect(
            &hex(),
            Expiry::EndOfActivation {
                model: "Shade".into(),
            },
            Some("Shade"),
            Some("Ana"),
        )
        .unwrap();
        g.add_effect(&hex(), Expiry::EndOfTurn { player: "Ana".into() }, None, None)
            .unwrap();
        g.add_effect(&hex(), Expiry::StartOfTurn { player: "Ana".into() }, None, None)
            .unwrap();
        t.start_activation(&m["Shade"]).unwrap();
        let gone = t.end_activation(&mut m).unwrap();
        assert_eq!(gone.len(), 1);
        assert!(gone[0].effect_remains);
        assert_eq!(m["Grunt"].stat(Stat::Def).value, 11, "two Hexes left: still −2");
        let end = t.end_turn(&mut m).unwrap();
        assert_eq!(end.expired_at_end.len(), 1);
        assert!(end.expired_at_start.is_empty(), "Ben's turn starts, not Ana's");
        assert_eq!(m["Grunt"].stat(Stat::Def).value, 11);
        let end = t.end_turn(&mut m).unwrap();
        assert_eq!(end.expired_at_start.len(), 1);
        assert!(!end.expired_at_start[0].effect_remains);
        assert_eq!(m["Grunt"].stat(Stat::Def).value, 13);
    }

    #[test]
    fn any_time_rules_are_refused_during_moves_attacks_triggers_and_after_a_run() {
        let m = table();
        let mut t = started();
        assert!(matches!(
            t.use_any_time("Stalker", "Feat"),
            Err(RuleError::AnyTimeNotActivating { .. })
        ));
        t.start_activation(&m["Stalker"]).unwrap();
        t.use_any_time("Stalker", "Spell before moving").unwrap();
        t.begin_move(false).unwrap();
        assert_eq!(
            t.use_any_time("Stalker", "Feat"),
            Err(RuleError::AnyTimeDuringMove)
        );
        assert!(matches!(
            t.begin_attack(&m["Stalker"], &m["Grunt"]),
            Err(RuleError::Moving { .. })
        ));
        t.end_move().unwrap();
        t.use_any_time("Stalker", "Spell after moving").unwrap();
        t.begin_attack(&m["Stalker"], &m["Grunt"]).unwrap();
        assert_eq!(
            t.use_any_time("Stalker", "Feat"),
            Err(RuleError::AnyTimeDuringAttack)
        );
        t.add_triggers("Ana: Follow up").unwrap();
        t.end_attack().unwrap();
        assert_eq!(
            t.use_any_time("Stalker", "Feat"),
            Err(RuleError::AnyTimeDuringTrigger)
        );
        let id = t.trigger_order()[0].id;
        t.close_trigger(id, Resolution::DeclinedOptional).unwrap();
        t.use_any_time("Stalker", "Spell after attacking").unwrap();
        assert!(matches!(
            t.use_any_time("Shade", "Spell"),
            Err(RuleError::AnyTimeNotActivating { .. })
        ));
        t.begin_move(true).unwrap();
        t.end_move().unwrap();
        assert!(matches!(
            t.use_any_time("Stalker", "Feat"),
            Err(RuleError::AnyTimeAfterRun { .. })
        ));
        assert_eq!(t.any_time_log.len(), 3);
    }

    /// Issue 29: a turn does not end while triggers wait (the refusal lists them); a line that
    /// names a model is that model's, owned by its controller, and leaves the queue when the
    /// model is destroyed.
    #[test]
    fn a_turn_waits_for_its_triggers_and_a_destroyed_models_trigger_leaves() {
        let mut m = table();
        let mut t = started();
        t.add_model_triggers("grunt: Counterblast\nAna: Vengeance", &m)
            .unwrap();
        assert_eq!(t.triggers.pending[0].owner, "Ben", "Grunt's controller");
        assert_eq!(t.triggers.pending[0].model.as_deref(), Some("Grunt"));
        let before = t.clone();
        let e = t.end_turn(&mut m).unwrap_err();
        assert_eq!(
            e,
            RuleError::TriggersWaiting {
                waiting: vec!["#2 Ana: Vengeance".into(), "#1 Ben: Counterblast".into()]
            }
        );
        assert_eq!(t, before, "nothing changed");
        assert_eq!(t.next_trigger(), Some(2));
        assert!(t.drop_destroyed(&m).is_empty(), "nobody is destroyed");
        m.get_mut("Grunt").unwrap().destroy().unwrap();
        let gone = t.drop_destroyed(&m);
        assert_eq!(gone.len(), 1);
        assert_eq!(
            (gone[0].trigger.id, gone[0].resolution),
            (1, Resolution::ConditionNoLongerMet)
        );
        assert_eq!(t.triggers.pending.len(), 1);
        assert!(t.add_model_triggers("Nobody: x", &m).is_err());
        let next = t.next_trigger().unwrap();
        t.close_trigger(next, Resolution::Resolved).unwrap();
        assert_eq!(t.next_trigger(), None);
        t.end_turn(&mut m).unwrap();
    }

    /// Issue 29: the moment a damage button belongs to moves on with every attack and every
    /// end of an activation or turn.
    #[test]
    fn the_moment_moves_with_attacks_activations_and_turns() {
        let mut m = table();
        let mut t = started();
        let start = t.moment;
        t.start_activation(&m["Stalker"]).unwrap();
        assert_eq!(t.moment, start, "activating changes no effect");
        t.begin_attack(&m["Stalker"], &m["Grunt"]).unwrap();
        t.end_attack().unwrap();
        let after_attack = t.moment;
        assert_eq!(after_attack, start + 1);
        t.end_activation(&mut m).unwrap();
        assert_eq!(t.moment, after_attack + 1);
        t.end_turn(&mut m).unwrap();
        assert_eq!(t.moment, after_attack + 2);
        let mut again = t.clone();
        again.start(&players()).unwrap();
        assert!(again.moment > t.moment, "a restart is a new moment");
    }

    #[test]
    fn bad_starts_and_stored_states_are_refused() {
        let mut t = TurnState::default();
        assert!(t.start(&["Ana".to_string()]).is_err());
        assert!(t.start(&["Ana".to_string(), "ana".to_string()]).is_err());
        assert_eq!(t, TurnState::default());
        let mut t = started();
        t.turn = 5;
        assert!(t.validate().is_err());
        assert!(started().validate().is_ok());
        assert!(TurnState::default().validate().is_ok());
    }
}

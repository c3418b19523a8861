//! What a Warmachine session keeps beyond its roster (`system_state.warmachine`): the turn
//! state, the rulings (WG-5) and the roll-off history. Models live in the roster entries.
//!
//! Why rulings are separate from roll-offs: a ruling binds the rest of the game (item 3) and
//! can be added or removed by the players; the roll-off that produced it is history.

use serde::{Deserialize, Serialize};

use super::error::{RuleError, text};
use super::rolloff::{Numbered, RollOffOutcome, roll_off};
use super::turn::TurnState;
use crate::dice::Roller;
use crate::systems::rules::SessionState;

/// Most rulings one game keeps.
pub const MAX_RULINGS: usize = 100;
/// Roll-offs kept for display (older ones fall off; their rulings stay).
pub const MAX_ROLL_OFFS: usize = 50;
/// Finished games whose rulings are kept.
pub const MAX_ARCHIVED: usize = 20;
pub const MAX_RULING_CHARS: usize = 500;

/// WG-5: a ruling with its question, the roll-off winner when there was one, and the time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ruling {
    pub id: u32,
    pub question: String,
    pub ruling: String,
    #[serde(default)]
    pub winner: Option<Numbered>,
    /// Unix milliseconds.
    pub at_ms: i64,
    /// Who recorded it (a Discord user id): they or the GM remove it (issue 33).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub added_by: Option<u64>,
}

/// The rulings of a finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivedGame {
    pub ended_at_ms: i64,
    pub players: Vec<String>,
    pub rulings: Vec<Ruling>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WarmachineState {
    #[serde(default)]
    pub game: TurnState,
    #[serde(default)]
    pub rulings: Vec<Ruling>,
    #[serde(default)]
    pub next_ruling_id: u32,
    #[serde(default)]
    pub roll_offs: Vec<RollOffOutcome>,
    #[serde(default)]
    pub archived: Vec<ArchivedGame>,
    /// Games ended so far (a damage button made in one never works in the next, issue 29).
    #[serde(default)]
    pub games: u32,
    /// Issue 33: the players (Discord user ids) who asked to end the game; it ends when every
    /// player has (or when the GM ends it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub end_votes: Vec<u64>,
}

impl SessionState for WarmachineState {
    const KEY: &'static str = "warmachine";
}

/// A dispute's result: the roll-off and the ruling it recorded, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dispute {
    pub roll_off: RollOffOutcome,
    pub ruling: Option<Ruling>,
}

/// The game at a glance (the status board).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Status {
    pub round: u32,
    pub turn_player: Option<String>,
    pub activating: Option<String>,
    pub ran: bool,
    pub open_attack: Option<(String, String)>,
    pub active: Option<String>,
    pub inactive: Vec<String>,
    pub pending_triggers: usize,
    /// WG-5: the status shows how many rulings there are.
    pub rulings: usize,
}

impl WarmachineState {
    /// Item 1–3, WG-4, WG-5: roll off between `players` (every player of the game when none
    /// are named) and record the ruling when one is given. Nothing is stored on an error.
    pub fn dispute(
        &mut self,
        question: &str,
        players: &[String],
        ruling: Option<&str>,
        now_ms: i64,
        roller: &mut impl Roller,
    ) -> Result<Dispute, RuleError> {
        self.dispute_by(question, players, ruling, now_ms, None, roller)
    }

    /// [`dispute`](Self::dispute), the ruling recorded as `by`'s (a Discord user id).
    pub fn dispute_by(
        &mut self,
        question: &str,
        players: &[String],
        ruling: Option<&str>,
        now_ms: i64,
        by: Option<u64>,
        roller: &mut impl Roller,
    ) -> Result<Dispute, RuleError> {
        let players = if players.is_empty() {
            self.game.players.clone()
        } else {
            players.to_vec()
        };
        let ruling = ruling.map(|r| text("ruling", r, MAX_RULING_CHARS)).transpose()?;
        if ruling.is_some() {
            self.room_for_ruling()?;
        }
        let outcome = roll_off(question, &players, roller)?;
        let ruling =
            ruling.map(|r| self.push_ruling(&outcome.question, r, Some(outcome.winner.clone()), now_ms, by));
        self.roll_offs.push(outcome.clone());
        let extra = self.roll_offs.len().saturating_sub(MAX_ROLL_OFFS);
        self.roll_offs.drain(..extra);
        Ok(Dispute {
            roll_off: outcome,
            ruling,
        })
    }

    fn room_for_ruling(&self) -> Result<(), RuleError> {
        if self.rulings.len() >= MAX_RULINGS {
            return Err(RuleError::TooManyRulings { max: MAX_RULINGS });
        }
        Ok(())
    }

    fn push_ruling(
        &mut self,
        question: &str,
        ruling: String,
        winner: Option<Numbered>,
        now_ms: i64,
        added_by: Option<u64>,
    ) -> Ruling {
        let id = self.next_ruling_id.max(1);
        self.next_ruling_id = id + 1;
        let r = Ruling {
            id,
            question: question.to_string(),
            ruling,
            winner,
            at_ms: now_ms,
            added_by,
        };
        self.rulings.push(r.clone());
        r
    }

    /// WG-5: players add a ruling by hand (agreed without a roll-off).
    pub fn add_ruling(&mut self, question: &str, ruling: &str, now_ms: i64) -> Result<Ruling, RuleError> {
        self.add_ruling_by(question, ruling, now_ms, None)
    }

    /// [`add_ruling`](Self::add_ruling), recorded as `by`'s (a Discord user id).
    pub fn add_ruling_by(
        &mut self,
        question: &str,
        ruling: &str,
        now_ms: i64,
        by: Option<u64>,
    ) -> Result<Ruling, RuleError> {
        let question = text("question", question, super::rolloff::MAX_QUESTION_CHARS)?;
        let ruling = text("ruling", ruling, MAX_RULING_CHARS)?;
        self.room_for_ruling()?;
        Ok(self.push_ruling(&question, ruling, None, now_ms, by))
    }

    /// The ruling numbered `id`, if the game has it.
    pub fn ruling(&self, id: u32) -> Result<&Ruling, RuleError> {
        self.rulings
            .iter()
            .find(|r| r.id == id)
            .ok_or(RuleError::NoSuchRuling { id })
    }

    pub fn remove_ruling(&mut self, id: u32) -> Result<Ruling, RuleError> {
        let at = self
            .rulings
            .iter()
            .position(|r| r.id == id)
            .ok_or(RuleError::NoSuchRuling { id })?;
        Ok(self.rulings.remove(at))
    }

    /// WG-5, rules §5: the game (one battle) ends; its rulings are archived with its players
    /// (listed afterwards by `/wm-ruling list archived:`), the turn state and the roll-offs
    /// start afresh. The one way a battle is archived: `/wm-turn end-game`, and a campaign's
    /// next evening that starts a new battle.
    pub fn end_game(&mut self, now_ms: i64) -> ArchivedGame {
        let archived = ArchivedGame {
            ended_at_ms: now_ms,
            players: self.game.players.clone(),
            rulings: std::mem::take(&mut self.rulings),
        };
        self.archived.push(archived.clone());
        let extra = self.archived.len().saturating_sub(MAX_ARCHIVED);
        self.archived.drain(..extra);
        self.game.reset();
        self.roll_offs.clear();
        self.games = self.games.wrapping_add(1);
        self.end_votes.clear();
        archived
    }

    pub fn status(&self) -> Status {
        let roles = self.game.roles();
        Status {
            round: self.game.round,
            turn_player: self.game.turn_player().map(str::to_string),
            activating: self.game.activation.as_ref().map(|a| a.model.clone()),
            ran: self.game.activation.as_ref().is_some_and(|a| a.ran),
            open_attack: self
                .game
                .open_attack
                .as_ref()
                .map(|a| (a.attacker.clone(), a.target.clone())),
            active: roles.as_ref().map(|r| r.roles.active.clone()),
            inactive: roles.map(|r| r.roles.inactive).unwrap_or_default(),
            pending_triggers: self.game.triggers.pending.len(),
            rulings: self.rulings.len(),
        }
    }

    /// The stored state makes sense: the turn state, and ruling ids unique and below the next.
    pub fn validate(&self) -> Result<(), RuleError> {
        self.game.validate()?;
        let mut ids: Vec<u32> = self.rulings.iter().map(|r| r.id).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() != self.rulings.len() || ids.last().is_some_and(|&m| m >= self.next_ruling_id.max(1)) {
            return Err(RuleError::NoSuchRuling {
                id: ids.last().copied().unwrap_or(0),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::dice::FixedRoller;

    fn game() -> WarmachineState {
        let mut s = WarmachineState::default();
        s.game.start(&["Ana".to_string(), "Ben".to_string()]).unwrap();
        s
    }

    #[test]
    fn a_dispute_involves_every_player_unless_named_and_records_its_ruling() {
        let mut s = game();
        let d = s
            .dispute(
                "LOS through the wreck?",
                &[],
                Some("Wrecks block LOS"),
                1000,
                &mut FixedRoller::new(vec![4, 4, 2, 6]),
            )
            .unwrap();
        assert_eq!(d.roll_off.rounds.len(), 2);
        assert_eq!(d.roll_off.winner.name, "Ben");
        let r = d.ruling.unwrap();
        assert_eq!((r.id, r.at_ms, r.winner.unwrap().number), (1, 1000, 2));
        assert_eq!(s.status().rulings, 1);
        assert_eq!(s.roll_offs.len(), 1);
        // Named players only; no ruling text: history only.
        let names = vec!["Ana".to_string(), "Cai".to_string(), "Ben".to_string()];
        let d = s
            .dispute(
                "Who is closer?",
                &names,
                None,
                2000,
                &mut FixedRoller::new(vec![1, 6, 2]),
            )
            .unwrap();
        assert_eq!(
            d.roll_off.winner,
            Numbered {
                number: 2,
                name: "Cai".into()
            }
        );
        assert!(d.ruling.is_none());
        assert_eq!(s.rulings.len(), 1);
    }

    #[test]
    fn a_failed_dispute_stores_nothing() {
        let mut s = game();
        let before = s.clone();
        assert!(
            s.dispute("?", &[], Some("  "), 0, &mut FixedRoller::new(vec![1, 2]))
                .is_err()
        );
        assert!(
            s.dispute("?", &[], Some("x"), 0, &mut FixedRoller::new(vec![3, 3]))
                .is_err()
        );
        assert!(
            WarmachineState::default()
                .dispute("?", &[], None, 0, &mut FixedRoller::new(vec![1, 2]))
                .is_err()
        );
        assert_eq!(s, before);
    }

    #[test]
    fn rulings_are_added_removed_listed_and_archived() {
        let mut s = game();
        let a = s.add_ruling("Forest?", "The hedge is a forest", 5).unwrap();
        let b = s.add_ruling("Wreck?", "Wrecks are rough terrain", 6).unwrap();
        assert_eq!((a.id, b.id), (1, 2));
        assert_eq!(s.remove_ruling(1).unwrap().question, "Forest?");
        assert_eq!(s.remove_ruling(1), Err(RuleError::NoSuchRuling { id: 1 }));
        let c = s.add_ruling("Cloud?", "Clouds block LOS", 7).unwrap();
        assert_eq!(c.id, 3, "ids are never reused");
        assert!(s.add_ruling(" ", "x", 0).is_err());
        let arch = s.end_game(99);
        assert_eq!(arch.rulings.len(), 2);
        assert_eq!(arch.players, vec!["Ana", "Ben"]);
        assert!(s.rulings.is_empty());
        assert_eq!(s.game.round, 0);
        assert_eq!(s.archived.len(), 1);
    }

    /// Issue 33: a ruling knows who recorded it (they or the GM remove it); issue 29: each
    /// ended game is counted, and its votes to end are cleared.
    #[test]
    fn rulings_keep_their_author_and_games_are_counted() {
        let mut s = game();
        let r = s.add_ruling_by("Forest?", "Yes", 5, Some(42)).unwrap();
        assert_eq!(r.added_by, Some(42));
        let d = s
            .dispute_by(
                "LOS?",
                &[],
                Some("No"),
                6,
                Some(7),
                &mut FixedRoller::new(vec![1, 2]),
            )
            .unwrap();
        assert_eq!(d.ruling.unwrap().added_by, Some(7));
        assert_eq!(s.ruling(2).unwrap().added_by, Some(7));
        assert_eq!(s.ruling(9), Err(RuleError::NoSuchRuling { id: 9 }));
        s.end_votes.push(42);
        assert_eq!(s.games, 0);
        let arch = s.end_game(10);
        assert_eq!((arch.rulings.len(), s.games), (2, 1));
        assert!(s.end_votes.is_empty());
        assert_eq!(s.archived[0].rulings[0].added_by, Some(42));
    }

    #[test]
    fn too_many_rulings_are_refused() {
        let mut s = game();
        for i in 0..MAX_RULINGS {
            s.add_ruling(&format!("Q{i}"), "R", 0).unwrap();
        }
        assert_eq!(
            s.add_ruling("Q", "R", 0),
            Err(RuleError::TooManyRulings { max: MAX_RULINGS })
        );
        let before = s.clone();
        assert!(
            s.dispute("Q", &[], Some("R"), 0, &mut FixedRoller::new(vec![1, 2]))
                .is_err()
        );
        assert_eq!(s, before);
    }

    #[test]
    fn the_state_round_trips_under_its_key_and_keeps_other_keys() {
        let mut s = game();
        s.add_ruling("Forest?", "Yes", 5).unwrap();
        let mut stored = json!({"race": {"laps": 3}});
        s.write(&mut stored);
        assert_eq!(stored["race"]["laps"], 3);
        assert_eq!(WarmachineState::read(&stored).unwrap(), s);
        assert_eq!(
            WarmachineState::read(&Value::Null).unwrap(),
            WarmachineState::default()
        );
        let mut bad = stored.clone();
        bad["warmachine"]["rulings"][0]["id"] = json!(7);
        assert!(WarmachineState::read(&bad).unwrap().validate().is_err());
    }
}

//! A campaign: one game over many evenings (issue 27). Each evening is a session of its own
//! (its start, its end, its part of the log); the next one starts from where the last one ended,
//! with what the system's rules carry ([`Evenings`](crate::systems::rules::Evenings)).

use super::{Actor, Session, SessionError, TurnState};
use crate::systems::rules::{EveningStart, House, NextGame};

/// What a session stored before campaigns reads as.
pub(super) fn first_evening() -> u32 {
    1
}

/// Longest display name kept, in characters (Discord allows 32; nicknames 32 too).
const MAX_NAME_CHARS: usize = 64;
/// Most names kept: a session's GM, players and owners, with room.
const MAX_NAMES: usize = 250;

impl Session {
    /// The campaign's id: its first evening's.
    pub fn campaign(&self) -> i64 {
        if self.campaign_id == 0 {
            self.id
        } else {
            self.campaign_id
        }
    }

    /// The next evening of this session's campaign, continued by `actor` (its GM or a server
    /// manager) at `now_ms`: the same name, system, GM, players, names and roster; each sheet and
    /// the system's state as its rules carry them; no turn order; effects that ran for a number
    /// of rounds are over (a round belongs to the evening it was played in), effects until
    /// removed stay — unless the GM says the evening goes on with the last one's game (`next`:
    /// a battle left unfinished), when the turn and every effect carry. Unsaved: the store
    /// gives it its id.
    pub fn next_evening(
        &self,
        actor: Actor,
        house: &House,
        next_game: NextGame,
        now_ms: i64,
    ) -> Result<Session, SessionError> {
        self.ensure_manager(actor)?;
        let carry = crate::systems::rules(self.system).evenings();
        let mut next = self.clone();
        next.id = 0;
        next.version = 0;
        next.campaign_id = self.campaign();
        next.evening = self.evening.saturating_add(1);
        next.created_at_ms = now_ms;
        next.updated_at_ms = now_ms;
        next.ended_at_ms = None;
        let goes_on = carry.keeps_turn(next_game);
        let start = EveningStart {
            house,
            next: next_game,
            now_ms,
        };
        if !goes_on {
            next.turn = TurnState::default();
        }
        for entry in &mut next.roster {
            if !goes_on {
                entry.effects.retain(|e| e.rounds.is_none());
            }
            (carry.sheet)(&mut entry.sheet, &start);
        }
        (carry.state)(&mut next.system_state, &start);
        Ok(next)
    }

    /// Remember `name` as `user`'s display name (trimmed, cut to a length); whether anything
    /// changed. Past [`MAX_NAMES`] a new name is not kept (the export falls back to a mention).
    pub fn saw(&mut self, user: u64, name: &str) -> bool {
        let name: String = name
            .trim()
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_NAME_CHARS)
            .collect();
        if name.is_empty() || self.names.get(&user) == Some(&name) {
            return false;
        }
        if self.names.len() >= MAX_NAMES && !self.names.contains_key(&user) {
            return false;
        }
        self.names.insert(user, name);
        true
    }

    /// `user`'s display name as last seen, if any.
    pub fn name_of(&self, user: u64) -> Option<&str> {
        self.names.get(&user).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Effect, RosterEntry, SystemId};

    const GM: u64 = 1;

    fn ended() -> Session {
        let mut s = Session::start(7, 8, "Night", SystemId::Generic, GM, 100).unwrap();
        s.id = 41;
        s.version = 9;
        s.join(2).unwrap();
        let mut ana = RosterEntry::new("Ana", 2).with_sheet(serde_json::json!({"hp": 3}));
        ana.effects = vec![
            Effect {
                name: "Blessed".into(),
                note: String::new(),
                rounds: Some(2),
            },
            Effect {
                name: "Cursed".into(),
                note: String::new(),
                rounds: None,
            },
        ];
        s.roster.push(ana);
        s.turn.order = vec!["Ana".into()];
        s.turn.round = 3;
        s.saw(GM, "Gina");
        s.end(Actor::user(GM), 200).unwrap();
        s
    }

    #[test]
    fn the_next_evening_keeps_the_table_and_forgets_the_round() {
        let s = ended();
        let next = s
            .next_evening(Actor::user(GM), &House::new(), NextGame::New, 300)
            .unwrap();
        assert_eq!(
            (next.id, next.version, next.campaign_id, next.evening),
            (0, 0, 41, 2)
        );
        assert_eq!((next.created_at_ms, next.ended_at_ms), (300, None));
        assert_eq!(next.players, vec![2]);
        assert_eq!(next.roster[0].sheet, serde_json::json!({"hp": 3}));
        let effects: Vec<&str> = next.roster[0].effects.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(effects, ["Cursed"]);
        assert_eq!(next.turn, TurnState::default());
        assert_eq!(next.name_of(GM), Some("Gina"));
        // The third evening still belongs to the first one's campaign.
        let mut stored = next.clone();
        stored.id = 57;
        let third = stored
            .next_evening(Actor::user(GM), &House::new(), NextGame::New, 400)
            .unwrap();
        assert_eq!((third.campaign_id, third.evening), (41, 3));
    }

    #[test]
    fn only_the_gm_or_a_manager_continues_a_campaign() {
        let s = ended();
        assert_eq!(
            s.next_evening(Actor::user(2), &House::new(), NextGame::New, 300),
            Err(SessionError::NotGm)
        );
        let manager = Actor {
            user: 3,
            manage_server: true,
        };
        assert!(s.next_evening(manager, &House::new(), NextGame::New, 300).is_ok());
    }

    #[test]
    fn a_first_evening_is_its_own_campaign_and_old_sessions_read_as_one() {
        let mut s = ended();
        assert_eq!(s.campaign(), 41);
        let mut json = serde_json::to_value(&s).unwrap();
        let obj = json.as_object_mut().unwrap();
        obj.remove("campaign_id");
        obj.remove("evening");
        obj.remove("names");
        let old: Session = serde_json::from_value(json).unwrap();
        assert_eq!((old.campaign(), old.evening, old.names.len()), (41, 1, 0));
        s.names.clear();
        assert_eq!(old, s);
    }

    #[test]
    fn names_are_kept_trimmed_and_bounded() {
        let mut s = ended();
        assert!(!s.saw(GM, " Gina "));
        assert!(s.saw(GM, "Gina\u{7}B"));
        assert_eq!(s.name_of(GM), Some("GinaB"));
        assert!(!s.saw(5, "   "));
        assert!(s.saw(5, &"x".repeat(100)));
        assert_eq!(s.name_of(5).unwrap().chars().count(), MAX_NAME_CHARS);
        for u in 0..(MAX_NAMES as u64 + 10) {
            s.saw(1000 + u, "n");
        }
        assert_eq!(s.names.len(), MAX_NAMES);
        assert!(
            s.saw(GM, "Gina again"),
            "a known member's new name still replaces the old"
        );
    }
}

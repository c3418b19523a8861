//! The race as a session holds it: each gear (sheet + state) in its roster entry's `sheet`, the
//! round and initiative in the session's turn, the race-wide facts in `system_state.race`.
//! Nothing here decides a rule; it moves race data in and out of a session.

use super::race::{Entry, RaceOptions, RaceState};
use super::rules::RaceFacts;
use crate::session::{Session, SessionError};
use crate::systems::rules::SessionState;

/// The race held in `session`: every roster entry whose stats are a gear, named by its entry.
pub fn race_of(session: &Session, options: RaceOptions) -> RaceState {
    let facts = RaceFacts::read_or_default(&session.system_state);
    let mut race = RaceState {
        options,
        scenario: facts.scenario,
        laps: facts.laps,
        round: session.turn.round,
        entries: Vec::new(),
        pole: facts.pole,
        initiative: session.turn.order.first().cloned(),
    };
    for e in &session.roster {
        if let Some(mut gear) = super::sheet::read_gear(&e.sheet) {
            gear.sheet.name.clone_from(&e.name);
            race.entries.push(Entry {
                id: e.name.clone(),
                gear,
            });
        }
    }
    race
}

/// Write the race's gears, round and race-wide facts back into the session (the contested
/// check kept with the race stays as it is).
pub fn save_race(session: &mut Session, race: &RaceState) -> Result<(), SessionError> {
    for entry in &race.entries {
        let value = serde_json::to_value(&entry.gear).map_err(|e| SessionError::Rule {
            en: e.to_string(),
            ja: e.to_string(),
        })?;
        if let Some(r) = session.roster.iter_mut().find(|r| r.name == entry.id)
            && r.sheet != value
        {
            r.sheet = value.into();
        }
    }
    session.turn.round = race.round;
    let mut facts = RaceFacts::read_or_default(&session.system_state);
    facts.scenario = race.scenario;
    facts.laps = race.laps;
    facts.pole.clone_from(&race.pole);
    facts.write(&mut session.system_state);
    Ok(())
}

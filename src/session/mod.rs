//! Game sessions as plain data: who plays, the roster with each entry's tracked state, and the
//! turn order. Every change is a pure transition that validates first and changes nothing when
//! it refuses, so the store can apply it inside a transaction and a retry can simply run it
//! again on a freshly loaded session.

mod campaign;
mod doc;
mod error;
mod log;
mod settings;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use crate::systems::registry::SystemId;
pub use doc::{Doc, ReadJson, WriteJson};
pub use error::SessionError;
pub use log::{EXPORT_FORMAT, ExportOpening, RollLogEntry, SessionExport};
pub use settings::{
    ChannelSettings, MAX_HOUSE_KEY_CHARS, MAX_HOUSE_OPTIONS, MAX_HOUSE_VALUE_CHARS, SecretRolls,
    ServerSettings, Visibility,
};

/// Longest session name, in characters.
pub const MAX_SESSION_NAME_CHARS: usize = 100;
/// Longest roster entry name, in characters (fits a Discord embed field name with room).
pub const MAX_ENTRY_NAME_CHARS: usize = 64;
/// Most roster entries: a status embed lists them, and Discord allows 25 fields per embed.
pub const MAX_ROSTER_ENTRIES: usize = 50;
/// Most players in one session.
pub const MAX_PLAYERS: usize = 100;
/// Most effects on one entry.
pub const MAX_EFFECTS: usize = 20;
pub const MAX_EFFECT_NAME_CHARS: usize = 64;
pub const MAX_EFFECT_NOTE_CHARS: usize = 200;
/// Largest serialized sheet: generous for any system's stats, small enough to keep rows lean.
pub const MAX_SHEET_BYTES: usize = 16 * 1024;

/// Who asks for a change. `manage_server` (Discord's Manage Server permission, or the server's
/// GM role) may do everything the GM may.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actor {
    pub user: u64,
    pub manage_server: bool,
}

impl Actor {
    pub fn user(user: u64) -> Actor {
        Actor {
            user,
            manage_server: false,
        }
    }

    pub fn manager(user: u64) -> Actor {
        Actor {
            user,
            manage_server: true,
        }
    }
}

/// A condition on an entry (stunned, cover, a spell…), generic across systems.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Rounds left; `None`: until removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
}

/// A character, NPC or vehicle in the session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RosterEntry {
    pub name: String,
    pub owner: u64,
    /// The system-typed stats and tracked state (a JSON object); each system module validates
    /// its own fields.
    #[serde(default = "Doc::empty_object")]
    pub sheet: Doc,
    #[serde(default)]
    pub effects: Vec<Effect>,
}

impl RosterEntry {
    /// An entry with empty stats.
    pub fn new(name: impl Into<String>, owner: u64) -> RosterEntry {
        RosterEntry {
            name: name.into(),
            owner,
            sheet: Doc::empty_object(),
            effects: Vec::new(),
        }
    }

    pub fn with_sheet(mut self, sheet: serde_json::Value) -> RosterEntry {
        self.sheet = Doc::new(sheet);
        self
    }

    fn validate(&self) -> Result<(), SessionError> {
        check_entry_name(&self.name)?;
        check_sheet(&self.sheet)?;
        check_effects(&self.effects)
    }
}

/// Turn and initiative state: the order of entry names, whose turn it is, and the round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct TurnState {
    pub order: Vec<String>,
    pub current: usize,
    /// 0 while there is no order; 1 for the first round.
    pub round: u32,
}

impl TurnState {
    /// The name of the entry whose turn it is.
    pub fn current_name(&self) -> Option<&str> {
        self.order.get(self.current).map(String::as_str)
    }
}

/// A change to an entry; `None` fields stay as they are.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EntryEdit {
    pub rename: Option<String>,
    pub sheet: Option<serde_json::Value>,
    pub effects: Option<Vec<Effect>>,
    /// Hand the entry to another user (GM only).
    pub owner: Option<u64>,
}

/// One game running in a channel or thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// Assigned by the store; 0 until stored.
    pub id: i64,
    pub guild_id: u64,
    /// The channel or thread the session runs in.
    pub channel_id: u64,
    pub name: String,
    pub system: SystemId,
    pub gm: u64,
    /// In order of joining.
    #[serde(default)]
    pub players: Vec<u64>,
    #[serde(default)]
    pub roster: Vec<RosterEntry>,
    #[serde(default)]
    pub turn: TurnState,
    /// Session-wide state a system keeps beyond its roster (the rally's laps and scenario),
    /// keyed by the system module. `null` until a system writes it.
    #[serde(default)]
    pub system_state: Doc,
    /// Unix milliseconds.
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
    /// Set when the session ends; an ended session is kept, read-only, with its log.
    #[serde(default)]
    pub ended_at_ms: Option<i64>,
    /// Bumped by the store on every saved change (optimistic concurrency).
    pub version: i64,
    /// The campaign this evening belongs to: the id of its first evening, 0 on a first evening
    /// (see [`Session::campaign`]). Sessions stored before campaigns read as first evenings.
    #[serde(default)]
    pub campaign_id: i64,
    /// Which evening of its campaign this is, from 1.
    #[serde(default = "campaign::first_evening")]
    pub evening: u32,
    /// Display names as Discord last gave them, by user id: how exports name people who never
    /// rolled (the GM, an owner). Kept short and few ([`Session::saw`]).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub names: std::collections::BTreeMap<u64, String>,
}

impl Session {
    /// A new, unsaved session; the GM need not be a player.
    pub fn start(
        guild_id: u64,
        channel_id: u64,
        name: &str,
        system: SystemId,
        gm: u64,
        now_ms: i64,
    ) -> Result<Session, SessionError> {
        let name = check_session_name(name)?;
        Ok(Session {
            id: 0,
            guild_id,
            channel_id,
            name,
            system,
            gm,
            players: Vec::new(),
            roster: Vec::new(),
            turn: TurnState::default(),
            system_state: Doc::default(),
            created_at_ms: now_ms,
            updated_at_ms: now_ms,
            ended_at_ms: None,
            version: 0,
            campaign_id: 0,
            evening: 1,
            names: Default::default(),
        })
    }

    pub fn is_active(&self) -> bool {
        self.ended_at_ms.is_none()
    }

    /// The GM, or someone with server-wide authority.
    pub fn may_manage(&self, actor: Actor) -> bool {
        actor.manage_server || actor.user == self.gm
    }

    /// The GM or a player.
    pub fn is_member(&self, user: u64) -> bool {
        user == self.gm || self.players.contains(&user)
    }

    /// The entry with this name, ignoring case and surrounding spaces.
    pub fn entry(&self, name: &str) -> Option<&RosterEntry> {
        self.find(name).and_then(|i| self.roster.get(i))
    }

    fn find(&self, name: &str) -> Option<usize> {
        let key = fold(name);
        self.roster.iter().position(|e| fold(&e.name) == key)
    }

    fn find_or_err(&self, name: &str) -> Result<usize, SessionError> {
        self.find(name)
            .ok_or_else(|| SessionError::UnknownEntry { name: echo(name) })
    }

    fn ensure_active(&self) -> Result<(), SessionError> {
        if self.is_active() {
            Ok(())
        } else {
            Err(SessionError::Ended)
        }
    }

    fn ensure_manager(&self, actor: Actor) -> Result<(), SessionError> {
        if self.may_manage(actor) {
            Ok(())
        } else {
            Err(SessionError::NotGm)
        }
    }

    /// Only the owner or a manager may change an entry.
    fn ensure_may_edit(&self, actor: Actor, index: usize) -> Result<(), SessionError> {
        match self.roster.get(index) {
            Some(e) if e.owner == actor.user || self.may_manage(actor) => Ok(()),
            Some(e) => Err(SessionError::NotOwner { name: e.name.clone() }),
            None => Err(SessionError::UnknownEntry { name: String::new() }),
        }
    }

    pub fn join(&mut self, user: u64) -> Result<(), SessionError> {
        self.ensure_active()?;
        if self.players.contains(&user) {
            return Err(SessionError::AlreadyJoined);
        }
        if self.players.len() >= MAX_PLAYERS {
            return Err(SessionError::TooManyPlayers { max: MAX_PLAYERS });
        }
        self.players.push(user);
        Ok(())
    }

    /// The player's entries stay: the GM may still run them or hand them on.
    pub fn leave(&mut self, user: u64) -> Result<(), SessionError> {
        self.ensure_active()?;
        let index = self
            .players
            .iter()
            .position(|&p| p == user)
            .ok_or(SessionError::NotAPlayer)?;
        self.players.remove(index);
        Ok(())
    }

    /// Members add entries they own; managers may add entries for anyone (NPCs, absent players).
    pub fn add_entry(&mut self, actor: Actor, mut entry: RosterEntry) -> Result<(), SessionError> {
        self.ensure_active()?;
        if !self.is_member(actor.user) && !self.may_manage(actor) {
            return Err(SessionError::NotAPlayer);
        }
        entry.name = check_entry_name(&entry.name)?;
        if entry.owner != actor.user && !self.may_manage(actor) {
            return Err(SessionError::NotOwner { name: entry.name });
        }
        check_sheet(&entry.sheet)?;
        check_effects(&entry.effects)?;
        if self.find(&entry.name).is_some() {
            return Err(SessionError::DuplicateEntry { name: entry.name });
        }
        if self.roster.len() >= MAX_ROSTER_ENTRIES {
            return Err(SessionError::RosterFull {
                max: MAX_ROSTER_ENTRIES,
            });
        }
        self.roster.push(entry);
        Ok(())
    }

    /// Everything is checked before anything changes, so a refused edit leaves no trace.
    pub fn edit_entry(&mut self, actor: Actor, name: &str, edit: EntryEdit) -> Result<(), SessionError> {
        self.ensure_active()?;
        let index = self.find_or_err(name)?;
        self.ensure_may_edit(actor, index)?;
        if edit.owner.is_some() {
            self.ensure_manager(actor)?;
        }
        let new_name = match &edit.rename {
            Some(raw) => {
                let new_name = check_entry_name(raw)?;
                if self.find(&new_name).is_some_and(|i| i != index) {
                    return Err(SessionError::DuplicateEntry { name: new_name });
                }
                Some(new_name)
            }
            None => None,
        };
        if let Some(sheet) = &edit.sheet {
            check_sheet(sheet)?;
        }
        if let Some(effects) = &edit.effects {
            check_effects(effects)?;
        }
        let Some(entry) = self.roster.get_mut(index) else {
            return Err(SessionError::UnknownEntry { name: echo(name) });
        };
        if let Some(new_name) = new_name {
            // The turn order refers to entries by name: keep it pointing at the same entry.
            for slot in &mut self.turn.order {
                if *slot == entry.name {
                    slot.clone_from(&new_name);
                }
            }
            entry.name = new_name;
        }
        if let Some(sheet) = edit.sheet {
            entry.sheet = sheet.into();
        }
        if let Some(effects) = edit.effects {
            entry.effects = effects;
        }
        if let Some(owner) = edit.owner {
            entry.owner = owner;
        }
        Ok(())
    }

    /// Removing an entry also takes it out of the turn order, keeping the current turn on the
    /// same entry where it can.
    pub fn remove_entry(&mut self, actor: Actor, name: &str) -> Result<RosterEntry, SessionError> {
        self.ensure_active()?;
        let index = self.find_or_err(name)?;
        self.ensure_may_edit(actor, index)?;
        let removed = self.roster.remove(index);
        if let Some(pos) = self.turn.order.iter().position(|n| *n == removed.name) {
            self.turn.order.remove(pos);
            if pos < self.turn.current {
                self.turn.current -= 1;
            }
            if self.turn.current >= self.turn.order.len() {
                self.turn.current = 0;
            }
            if self.turn.order.is_empty() {
                self.turn.round = 0;
            }
        }
        Ok(removed)
    }

    pub fn set_gm(&mut self, actor: Actor, new_gm: u64) -> Result<(), SessionError> {
        self.ensure_active()?;
        self.ensure_manager(actor)?;
        self.gm = new_gm;
        Ok(())
    }

    /// Ends the session; it stays stored, read-only, with its log.
    pub fn end(&mut self, actor: Actor, now_ms: i64) -> Result<(), SessionError> {
        self.ensure_active()?;
        self.ensure_manager(actor)?;
        self.ended_at_ms = Some(now_ms);
        self.updated_at_ms = now_ms;
        Ok(())
    }

    /// Sets the initiative order by entry names (any case) and starts round 1; an empty list
    /// clears it.
    pub fn set_turn_order(&mut self, actor: Actor, names: &[&str]) -> Result<(), SessionError> {
        self.ensure_active()?;
        self.ensure_manager(actor)?;
        let mut order: Vec<String> = Vec::with_capacity(names.len());
        for name in names {
            let index = self.find_or_err(name)?;
            let canonical = self.roster.get(index).map(|e| e.name.clone()).unwrap_or_default();
            if order.contains(&canonical) {
                return Err(SessionError::DuplicateInTurnOrder { name: canonical });
            }
            order.push(canonical);
        }
        let round = if order.is_empty() { 0 } else { 1 };
        self.turn = TurnState {
            order,
            current: 0,
            round,
        };
        Ok(())
    }

    /// Passes the turn on; after the last entry a new round starts. The GM or the owner of the
    /// entry whose turn it is may do it.
    pub fn advance_turn(&mut self, actor: Actor) -> Result<(), SessionError> {
        self.ensure_active()?;
        let current = self.turn.current_name().ok_or(SessionError::NoTurnOrder)?;
        if !self.may_manage(actor) {
            let owner = self.entry(current).map(|e| e.owner);
            if owner != Some(actor.user) {
                return Err(SessionError::NotOwner {
                    name: current.to_string(),
                });
            }
        }
        self.turn.current += 1;
        if self.turn.current >= self.turn.order.len() {
            self.turn.current = 0;
            self.turn.round = self.turn.round.saturating_add(1);
        }
        Ok(())
    }

    /// Every invariant a stored session keeps; the store checks this before each write, so a
    /// session edited by hand (or by a buggy caller) cannot be saved broken.
    pub fn validate(&self) -> Result<(), SessionError> {
        check_session_name(&self.name)?;
        if self.roster.len() > MAX_ROSTER_ENTRIES {
            return Err(SessionError::RosterFull {
                max: MAX_ROSTER_ENTRIES,
            });
        }
        if self.players.len() > MAX_PLAYERS {
            return Err(SessionError::TooManyPlayers { max: MAX_PLAYERS });
        }
        if !self.system_state.is_null() {
            check_sheet(&self.system_state)?;
        }
        for (i, entry) in self.roster.iter().enumerate() {
            entry.validate()?;
            if self.find(&entry.name) != Some(i) {
                return Err(SessionError::DuplicateEntry {
                    name: entry.name.clone(),
                });
            }
        }
        for (i, name) in self.turn.order.iter().enumerate() {
            if self.find(name).is_none() {
                return Err(SessionError::UnknownEntry { name: name.clone() });
            }
            if self.turn.order[..i].contains(name) {
                return Err(SessionError::DuplicateInTurnOrder { name: name.clone() });
            }
        }
        if !self.turn.order.is_empty() && self.turn.current >= self.turn.order.len() {
            return Err(SessionError::NoTurnOrder);
        }
        Ok(())
    }
}

/// Case-insensitive name key.
fn fold(name: &str) -> String {
    name.trim().to_lowercase()
}

/// User input echoed in an error, kept short.
fn echo(name: &str) -> String {
    name.trim().chars().take(MAX_ENTRY_NAME_CHARS).collect()
}

/// A character no user text may carry: a control character (NUL, ESC, …) or an invisible
/// direction override that makes text read differently from what it is (U+202A–U+202E,
/// U+2066–U+2069, the marks U+200E/U+200F/U+061C).
pub fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

fn has_control(s: &str) -> bool {
    s.chars().any(unsafe_char)
}

/// A session name as stored (trimmed), or why it cannot be one.
pub fn check_session_name(raw: &str) -> Result<String, SessionError> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(SessionError::NameEmpty);
    }
    if name.chars().count() > MAX_SESSION_NAME_CHARS {
        return Err(SessionError::NameTooLong {
            max: MAX_SESSION_NAME_CHARS,
        });
    }
    if has_control(name) {
        return Err(SessionError::NameHasControl);
    }
    Ok(name.to_string())
}

fn check_entry_name(raw: &str) -> Result<String, SessionError> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(SessionError::EntryNameEmpty);
    }
    if name.chars().count() > MAX_ENTRY_NAME_CHARS {
        return Err(SessionError::EntryNameTooLong {
            max: MAX_ENTRY_NAME_CHARS,
        });
    }
    if has_control(name) {
        return Err(SessionError::NameHasControl);
    }
    Ok(name.to_string())
}

/// How many bytes `value` serializes to as compact JSON, counted without building the text
/// (`usize::MAX` if it does not serialize: too large, rather than a panic).
pub fn json_len(value: &impl Serialize) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counted = Counter(0);
    match serde_json::to_writer(&mut counted, value) {
        Ok(()) => counted.0,
        Err(_) => usize::MAX,
    }
}

/// [`check_sheet_value`], once per version of a session's document: an edit validates the whole
/// session, and most of its sheets are the ones the last edit checked.
fn check_sheet(sheet: &impl ReadJson) -> Result<(), SessionError> {
    sheet.read_once(check_sheet_value)
}

fn check_sheet_value(sheet: &serde_json::Value) -> Result<(), SessionError> {
    if !sheet.is_object() {
        return Err(SessionError::SheetNotObject);
    }
    let size = json_len(sheet);
    if size > MAX_SHEET_BYTES {
        return Err(SessionError::SheetTooLarge {
            max_bytes: MAX_SHEET_BYTES,
        });
    }
    Ok(())
}

fn check_effects(effects: &[Effect]) -> Result<(), SessionError> {
    if effects.len() > MAX_EFFECTS {
        return Err(SessionError::TooManyEffects { max: MAX_EFFECTS });
    }
    let bad = effects.iter().any(|e| {
        e.name.trim().is_empty()
            || e.name.chars().count() > MAX_EFFECT_NAME_CHARS
            || e.note.chars().count() > MAX_EFFECT_NOTE_CHARS
    });
    if bad {
        return Err(SessionError::EffectTooLong {
            max: MAX_EFFECT_NAME_CHARS,
            note_max: MAX_EFFECT_NOTE_CHARS,
        });
    }
    Ok(())
}

//! The trigger queue (items 23–26, WG-6). Players enter pending triggers as `owner: rule text`;
//! the bot orders them (the active player's first, then each inactive player's, each player's
//! in the order that player chooses) and closes them one at a time.
//!
//! Why the bot does not judge conditions: it cannot read rule text (rules §3). A trigger with no
//! stated timing is entered when its condition is met (item 23); when its turn comes the player
//! rechecks the condition (item 26) and closes it one of three ways, all counting as resolved.

use serde::{Deserialize, Serialize};

use super::error::{RuleError, text};

/// Most triggers waiting at once.
pub const MAX_PENDING: usize = 30;
/// Closed triggers kept for display.
pub const MAX_CLOSED: usize = 50;
pub const MAX_TRIGGER_CHARS: usize = 200;

/// The active and inactive players (items 21–22); the turn decides them, the trigger order
/// reads them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roles {
    pub active: String,
    pub inactive: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trigger {
    pub id: u32,
    pub owner: String,
    pub text: String,
    /// The model whose rule it is, when the line named a model (`Stalker: Retaliate`): its
    /// controller owns it, and it leaves the queue when the model is destroyed (issue 29).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// How a trigger was closed (WG-6): all three count as resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    Resolved,
    /// Item 26: rechecked when its turn came, and the condition no longer held.
    ConditionNoLongerMet,
    /// Item 24: the optional part declined; the trigger still counts as resolved.
    DeclinedOptional,
}

impl Resolution {
    pub fn counts_as_resolved(self) -> bool {
        // Every way of closing counts (items 24, 26): the queue moves on either way.
        true
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClosedTrigger {
    pub trigger: Trigger,
    pub resolution: Resolution,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TriggerQueue {
    /// In entry order, except that a player's reorder rearranges their own lines.
    #[serde(default)]
    pub pending: Vec<Trigger>,
    #[serde(default)]
    pub closed: Vec<ClosedTrigger>,
    #[serde(default)]
    pub next_id: u32,
}

/// `owner: text` (a full-width colon too).
fn parse_line(line: &str) -> Result<(String, String), RuleError> {
    let bad = || RuleError::BadTriggerLine {
        line: line.trim().chars().take(60).collect(),
    };
    let (owner, rule) = line.split_once([':', '：']).ok_or_else(bad)?;
    let owner = owner.trim();
    let rule = rule.trim();
    if owner.is_empty() || rule.is_empty() {
        return Err(bad());
    }
    Ok((owner.to_string(), text("rule text", rule, MAX_TRIGGER_CHARS)?))
}

impl TriggerQueue {
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Add one trigger per non-blank line. Owners must be players of the game when it has any.
    /// All lines are checked before any is added.
    pub fn add(&mut self, lines: &str, players: &[String]) -> Result<Vec<u32>, RuleError> {
        self.add_for(lines, players, &[])
    }

    /// [`add`](Self::add), where a line may also start with a model's name (`models`: each
    /// model's name and controller): the trigger is that model's, owned by its controller.
    pub fn add_for(
        &mut self,
        lines: &str,
        players: &[String],
        models: &[(&str, &str)],
    ) -> Result<Vec<u32>, RuleError> {
        let mut parsed = Vec::new();
        for line in lines.lines().filter(|l| !l.trim().is_empty()) {
            let (owner, rule) = parse_line(line)?;
            let player = players.iter().find(|p| p.eq_ignore_ascii_case(&owner));
            let model = models.iter().find(|(n, _)| n.eq_ignore_ascii_case(&owner));
            let (owner, model) = match (player, model) {
                (Some(p), _) => (p.clone(), None),
                (None, Some((name, controller))) => (controller.to_string(), Some(name.to_string())),
                (None, None) if players.is_empty() => (owner, None),
                (None, None) => return Err(RuleError::UnknownPlayer { name: owner }),
            };
            parsed.push((owner, rule, model));
        }
        if parsed.is_empty() {
            return Err(RuleError::EmptyText {
                what: "rule text".into(),
            });
        }
        if self.pending.len() + parsed.len() > MAX_PENDING {
            return Err(RuleError::TooMany {
                what: "triggers".into(),
                max: MAX_PENDING,
            });
        }
        let mut ids = Vec::new();
        for (owner, text, model) in parsed {
            self.next_id = self.next_id.max(1);
            let id = self.next_id;
            self.next_id += 1;
            self.pending.push(Trigger {
                id,
                owner,
                text,
                model,
            });
            ids.push(id);
        }
        Ok(ids)
    }

    /// The pending triggers in resolution order (item 25): the active player's, then the
    /// inactive players' in turn order after the active one, then anyone else's.
    pub fn ordered(&self, roles: Option<&Roles>, players: &[String]) -> Vec<&Trigger> {
        let rank = |owner: &str| -> usize {
            let Some(roles) = roles else {
                return players.iter().position(|p| p == owner).unwrap_or(players.len());
            };
            if owner == roles.active {
                return 0;
            }
            let n = players.len().max(1);
            let active_at = players.iter().position(|p| *p == roles.active).unwrap_or(0);
            match players.iter().position(|p| p == owner) {
                Some(i) => 1 + (i + n - active_at) % n,
                None => n + 1,
            }
        };
        let mut out: Vec<(usize, usize, &Trigger)> = self
            .pending
            .iter()
            .enumerate()
            .map(|(i, t)| (rank(&t.owner), i, t))
            .collect();
        out.sort_by_key(|(r, i, _)| (*r, *i));
        out.into_iter().map(|(_, _, t)| t).collect()
    }

    /// A player's chosen order for their own pending triggers: `ids` lists each exactly once.
    pub fn reorder(&mut self, player: &str, ids: &[u32]) -> Result<(), RuleError> {
        let slots: Vec<usize> = (0..self.pending.len())
            .filter(|&i| self.pending[i].owner == player)
            .collect();
        let mut sorted_ids = ids.to_vec();
        sorted_ids.sort_unstable();
        let mut theirs: Vec<u32> = slots.iter().map(|&i| self.pending[i].id).collect();
        theirs.sort_unstable();
        if slots.is_empty() || sorted_ids != theirs {
            return Err(RuleError::BadTriggerOrder {
                player: player.to_string(),
            });
        }
        let taken: Vec<Trigger> = ids
            .iter()
            .filter_map(|id| self.pending.iter().find(|t| t.id == *id).cloned())
            .collect();
        for (slot, t) in slots.into_iter().zip(taken) {
            self.pending[slot] = t;
        }
        Ok(())
    }

    /// Close trigger `id`; only the next in order may be closed (item 25).
    pub fn close(
        &mut self,
        id: u32,
        resolution: Resolution,
        roles: Option<&Roles>,
        players: &[String],
    ) -> Result<ClosedTrigger, RuleError> {
        if !self.pending.iter().any(|t| t.id == id) {
            return Err(RuleError::NoSuchTrigger { id });
        }
        let next = self.ordered(roles, players)[0].clone();
        if next.id != id {
            return Err(RuleError::TriggerOutOfOrder {
                id,
                next: next.id,
                owner: next.owner,
            });
        }
        self.pending.retain(|t| t.id != id);
        Ok(self.keep_closed(next, resolution))
    }

    fn keep_closed(&mut self, trigger: Trigger, resolution: Resolution) -> ClosedTrigger {
        let closed = ClosedTrigger { trigger, resolution };
        self.closed.push(closed.clone());
        let extra = self.closed.len().saturating_sub(MAX_CLOSED);
        self.closed.drain(..extra);
        closed
    }

    /// Item 26, issue 29: the triggers of models in `gone` (destroyed) leave the queue, closed as
    /// "condition no longer met": their model is no longer there to resolve them.
    pub fn drop_models(&mut self, gone: &[&str]) -> Vec<ClosedTrigger> {
        let (out, keep): (Vec<Trigger>, Vec<Trigger>) = self
            .pending
            .drain(..)
            .partition(|t| t.model.as_deref().is_some_and(|m| gone.contains(&m)));
        self.pending = keep;
        out.into_iter()
            .map(|t| self.keep_closed(t, Resolution::ConditionNoLongerMet))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players() -> Vec<String> {
        vec!["Ana".into(), "Ben".into(), "Cai".into()]
    }

    fn roles(active: &str) -> Roles {
        Roles {
            active: active.into(),
            inactive: players().into_iter().filter(|p| p != active).collect(),
        }
    }

    #[test]
    fn the_active_players_triggers_come_first_then_the_inactive_ones() {
        // Item 25: entered Ben, Ana, Cai, Ana; Ana active → Ana, Ana, Ben, Cai.
        let mut q = TriggerQueue::default();
        let ids = q
            .add(
                "ben: Counterblast\nAna: Vengeance\n\ncai：Retaliate\nana: Overtake",
                &players(),
            )
            .unwrap();
        assert_eq!(ids, vec![1, 2, 3, 4]);
        assert_eq!(q.pending[0].owner, "Ben", "owners take the player's spelling");
        let order: Vec<u32> = q
            .ordered(Some(&roles("Ana")), &players())
            .iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(order, vec![2, 4, 1, 3]);
        // Ben active: Ben, then Cai (next in turn order), then Ana.
        let order: Vec<u32> = q
            .ordered(Some(&roles("Ben")), &players())
            .iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(order, vec![1, 3, 2, 4]);
    }

    #[test]
    fn each_player_chooses_their_own_order() {
        let mut q = TriggerQueue::default();
        q.add("Ana: A1\nBen: B1\nAna: A2", &players()).unwrap();
        q.reorder("Ana", &[3, 1]).unwrap();
        let order: Vec<u32> = q
            .ordered(Some(&roles("Ana")), &players())
            .iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(order, vec![3, 1, 2]);
        let before = q.clone();
        assert!(q.reorder("Ana", &[3]).is_err());
        assert!(
            q.reorder("Ana", &[3, 2]).is_err(),
            "Ben's trigger is not Ana's to order"
        );
        assert!(q.reorder("Cai", &[]).is_err());
        assert_eq!(q, before);
    }

    #[test]
    fn only_the_next_trigger_closes_and_every_closing_counts() {
        let mut q = TriggerQueue::default();
        q.add("Ben: B1\nAna: A1\nAna: A2", &players()).unwrap();
        let r = Some(roles("Ana"));
        assert_eq!(
            q.close(1, Resolution::Resolved, r.as_ref(), &players()),
            Err(RuleError::TriggerOutOfOrder {
                id: 1,
                next: 2,
                owner: "Ana".into()
            })
        );
        assert_eq!(
            q.close(9, Resolution::Resolved, r.as_ref(), &players()),
            Err(RuleError::NoSuchTrigger { id: 9 })
        );
        for (id, how) in [
            (2, Resolution::DeclinedOptional),
            (3, Resolution::ConditionNoLongerMet),
            (1, Resolution::Resolved),
        ] {
            let c = q.close(id, how, r.as_ref(), &players()).unwrap();
            assert!(c.resolution.counts_as_resolved());
        }
        assert!(q.is_empty());
        assert_eq!(q.closed.len(), 3);
    }

    #[test]
    fn bad_lines_add_nothing() {
        let mut q = TriggerQueue::default();
        assert!(matches!(
            q.add("Ana: ok\nno colon here", &players()),
            Err(RuleError::BadTriggerLine { .. })
        ));
        assert!(matches!(
            q.add("Dan: who?", &players()),
            Err(RuleError::UnknownPlayer { .. })
        ));
        assert!(matches!(
            q.add(": empty owner", &players()),
            Err(RuleError::BadTriggerLine { .. })
        ));
        assert!(matches!(
            q.add("  \n ", &players()),
            Err(RuleError::EmptyText { .. })
        ));
        assert!(q.is_empty());
        let many: String = (0..=MAX_PENDING).map(|i| format!("Ana: t{i}\n")).collect();
        assert!(matches!(q.add(&many, &players()), Err(RuleError::TooMany { .. })));
        assert!(q.is_empty());
        // With no players named yet, any owner is taken.
        assert_eq!(q.add("Dan: fine", &[]).unwrap(), vec![1]);
    }
}

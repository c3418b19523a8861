//! Buttons whose actions are stored together with the reply's log row: one write per command
//! (issue 18) instead of one per button plus one for the log.

use engine::session::RollLogEntry;
use serenity::all::{ButtonStyle, CreateButton};

use crate::store::{NewAction, Recorded, Store, StoreError};

/// A button to show with a reply: made already (its action stored), or still to be stored.
pub enum Offer {
    Made(CreateButton),
    Pending {
        action: NewAction,
        label: String,
        style: ButtonStyle,
    },
}

impl From<CreateButton> for Offer {
    fn from(b: CreateButton) -> Offer {
        Offer::Made(b)
    }
}

/// Stores the pending actions of `rows` and the `roll` in one [`Store::record`], and turns every
/// offer into its button. A pending button whose action could not be stored is left out
/// (logged): a button must never point at nothing. Returns the buttons and the log write's
/// result (`None`: there was no roll to log).
pub async fn settle(
    store: &dyn Store,
    rows: Vec<Vec<Offer>>,
    roll: Option<&RollLogEntry>,
) -> (Vec<Vec<CreateButton>>, Option<Result<bool, StoreError>>) {
    let pending: Vec<NewAction> = rows
        .iter()
        .flatten()
        .filter_map(|o| match o {
            Offer::Pending { action, .. } => Some(action.clone()),
            Offer::Made(_) => None,
        })
        .collect();
    if pending.is_empty() && roll.is_none() {
        return (made_only(rows), None);
    }
    let (ids, logged) = match store.record(&pending, roll).await {
        Ok(Recorded { action_ids, logged }) => (Some(action_ids), Some(Ok(logged))),
        Err(e) => {
            tracing::warn!("buttons not offered and roll not logged: {e}");
            (None, Some(Err(e)))
        }
    };
    let mut ids = ids.unwrap_or_default().into_iter();
    let buttons = rows
        .into_iter()
        .map(|row| {
            row.into_iter()
                .filter_map(|o| match o {
                    Offer::Made(b) => Some(b),
                    Offer::Pending { label, style, .. } => {
                        ids.next().map(|id| crate::press::button(id, &label, style))
                    }
                })
                .collect()
        })
        .collect();
    (buttons, logged.filter(|_| roll.is_some()))
}

fn made_only(rows: Vec<Vec<Offer>>) -> Vec<Vec<CreateButton>> {
    rows.into_iter()
        .map(|row| {
            row.into_iter()
                .filter_map(|o| match o {
                    Offer::Made(b) => Some(b),
                    Offer::Pending { .. } => None,
                })
                .collect()
        })
        .collect()
}

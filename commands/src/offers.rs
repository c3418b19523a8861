//! Buttons whose actions are stored together with the reply's log row: one write per command
//! (issue 18) instead of one per button plus one for the log.

use serenity::all::{ButtonStyle, CreateButton};

use crate::store::{NewAction, NewRoll, Recorded, Store, StoreError};

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
    roll: Option<&NewRoll>,
) -> (Vec<Vec<CreateButton>>, Option<Result<bool, StoreError>>) {
    let pending: Vec<NewAction> = rows
        .iter()
        .flatten()
        .filter_map(|o| match o {
            Offer::Pending { action, .. } => Some(action.clone()),
            Offer::Made(_) => None,
        })
        .collect();
    // Nothing to write: no round trip.
    let written = if pending.is_empty() && roll.is_none() {
        None
    } else {
        Some(store.record(&pending, roll).await)
    };
    let (ids, logged) = match written {
        None => (Vec::new(), None),
        Some(Ok(Recorded { action_ids, logged })) => (action_ids, roll.map(|_| Ok(logged))),
        Some(Err(e)) => {
            tracing::warn!("buttons not offered and roll not logged: {e}");
            (Vec::new(), roll.map(|_| Err(e)))
        }
    };
    let mut ids = ids.into_iter();
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
    (buttons, logged)
}

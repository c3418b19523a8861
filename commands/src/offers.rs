//! Buttons whose actions are stored together with the reply's log row: one write per command
//! (issue 18) instead of one per button plus one for the log.

use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

use crate::store::{NewAction, NewRoll, Recorded, Store, StoreError};

/// A button to show with a reply: made already (its action stored), or still to be stored.
pub enum Offer {
    Made(CreateButton),
    Pending {
        action: NewAction,
        label: String,
        style: ButtonStyle,
    },
    /// One action behind several buttons (`act:<id>/<variant>`): whichever is pressed first
    /// uses it, so the choice between them (plain or boosted damage) is made once.
    Choice {
        action: NewAction,
        buttons: Vec<Variant>,
    },
}

/// One button of an [`Offer::Choice`].
pub struct Variant {
    /// `None`: the action's plain button (`act:<id>`).
    pub variant: Option<&'static str>,
    pub label: String,
    pub style: ButtonStyle,
}

impl From<CreateButton> for Offer {
    fn from(b: CreateButton) -> Offer {
        Offer::Made(b)
    }
}

impl Offer {
    /// A button whose action is still to be stored.
    pub fn pending(action: NewAction, label: impl Into<String>, style: ButtonStyle) -> Offer {
        Offer::Pending {
            action,
            label: label.into(),
            style,
        }
    }

    /// The buttons it shows.
    fn width(&self) -> usize {
        match self {
            Offer::Choice { buttons, .. } => buttons.len(),
            _ => 1,
        }
    }

    fn action(&self) -> Option<&NewAction> {
        match self {
            Offer::Made(_) => None,
            Offer::Pending { action, .. } | Offer::Choice { action, .. } => Some(action),
        }
    }
}

/// Stores the pending actions of `rows` and the `roll` in one [`Store::record`], and turns every
/// offer into its buttons. A pending button whose action could not be stored is left out
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
        .filter_map(|o| o.action().cloned())
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
            let mut out = Vec::with_capacity(row.len());
            for offer in row {
                match offer {
                    Offer::Made(b) => out.push(b),
                    Offer::Pending { label, style, .. } => {
                        out.extend(ids.next().map(|id| crate::press::button(id, &label, style)))
                    }
                    Offer::Choice { buttons, .. } => {
                        if let Some(id) = ids.next() {
                            out.extend(buttons.iter().map(|b| match b.variant {
                                Some(v) => crate::press::button_variant(id, v, &b.label, b.style),
                                None => crate::press::button(id, &b.label, b.style),
                            }));
                        }
                    }
                }
            }
            out
        })
        .collect();
    (buttons, logged)
}

/// The action rows of a reply: empty rows left out, at most Discord's five.
pub fn action_rows(rows: Vec<Vec<CreateButton>>) -> Vec<CreateActionRow> {
    rows.into_iter()
        .filter(|r| !r.is_empty())
        .take(5)
        .map(CreateActionRow::Buttons)
        .collect()
}

/// Most buttons in one action row (Discord's layout).
const ROW_WIDTH: usize = 5;

/// `offers` laid out in rows of at most five buttons, in order (a choice's buttons stay in one
/// row); at most five rows are shown.
pub fn rows_of(offers: Vec<Offer>) -> Vec<Vec<Offer>> {
    let mut rows: Vec<Vec<Offer>> = Vec::new();
    let mut width = 0;
    for offer in offers {
        let w = offer.width();
        if rows.is_empty() || width + w > ROW_WIDTH {
            rows.push(Vec::new());
            width = 0;
        }
        width += w;
        if let Some(row) = rows.last_mut() {
            row.push(offer);
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(id: &str) -> Offer {
        Offer::Made(CreateButton::new(id))
    }

    fn choice(n: usize) -> Offer {
        Offer::Choice {
            action: NewAction {
                kind: "k".into(),
                guild: None,
                channel: 1,
                owner: 2,
                payload: crate::store::JsonText::of_or_null(&0),
            },
            buttons: (0..n)
                .map(|_| Variant {
                    variant: None,
                    label: "b".into(),
                    style: ButtonStyle::Primary,
                })
                .collect(),
        }
    }

    fn widths(rows: &[Vec<Offer>]) -> Vec<usize> {
        rows.iter().map(|r| r.iter().map(Offer::width).sum()).collect()
    }

    #[test]
    fn offers_fill_rows_of_five_buttons_and_a_choice_stays_in_one_row() {
        assert!(rows_of(Vec::new()).is_empty());
        let seven: Vec<Offer> = (0..7).map(|i| made(&i.to_string())).collect();
        assert_eq!(widths(&rows_of(seven)), [5, 2]);
        // 4 + a choice of two: the choice starts the next row rather than being split.
        let mut mixed: Vec<Offer> = (0..4).map(|i| made(&i.to_string())).collect();
        mixed.push(choice(2));
        mixed.push(made("x"));
        assert_eq!(widths(&rows_of(mixed)), [4, 3]);
    }

    #[test]
    fn action_rows_leave_out_empty_rows_and_keep_at_most_five() {
        let rows: Vec<Vec<CreateButton>> = (0..7)
            .map(|i| {
                if i == 1 {
                    vec![]
                } else {
                    vec![CreateButton::new(i.to_string())]
                }
            })
            .collect();
        assert_eq!(action_rows(rows).len(), 5);
        assert!(action_rows(vec![vec![], vec![]]).is_empty());
    }
}

//! Edge after the roll: the stored actions behind its buttons, the buttons, and the marks in
//! the session state that keep each roll's Edge use once.

use engine::i18n::Lang;
use engine::session::{Session, SessionError};
use serenity::all::{ButtonStyle, CreateButton};

use crate::invocation::Invocation;
use engine::systems::rules::SessionState;
use engine::systems::shadowrun4::rules::Shadowrun4State;

use super::Sr4Char;
use crate::Context;
use crate::offers::Offer;
use crate::press as buttons;
use crate::store::{JsonText, NewAction};
use crate::systems::shadowrun4::press_data::{EdgePress, EdgeRoll, SrPress};

/// A stored action behind a button, its kind and payload from the typed press; `None`
/// (logged) when the store refused.
pub async fn action(
    data: &crate::Data,
    inv_guild: Option<u64>,
    channel: u64,
    owner: u64,
    press: &SrPress,
) -> Option<i64> {
    let kind = press.kind();
    let a = new_action(inv_guild, channel, owner, press)?;
    match data.store.create_action(&a).await {
        Ok(id) => Some(id),
        Err(e) => {
            tracing::warn!(kind, "button not offered: {e}");
            None
        }
    }
}

/// The action a press makes, to store; `None` (logged) when its payload cannot be written.
fn new_action(guild: Option<u64>, channel: u64, owner: u64, press: &SrPress) -> Option<NewAction> {
    let kind = press.kind();
    match press.to_action() {
        Ok((_, payload)) => Some(NewAction {
            kind: kind.into(),
            guild,
            channel,
            owner,
            payload,
        }),
        Err(e) => {
            tracing::warn!(kind, "button not offered: {e}");
            None
        }
    }
}

pub fn second_chance_button(id: i64, lang: Lang) -> CreateButton {
    buttons::button(
        id,
        lang.pick("Second chance (Edge)", "セカンド・チャンス（エッジ）"),
        ButtonStyle::Primary,
    )
}

fn edge_dice_label(edge: u32, lang: Lang) -> String {
    match lang {
        Lang::Ja => format!("エッジ{edge}個追加（エッジ）"),
        _ => format!("+{edge} Edge dice (Edge)"),
    }
}

pub fn edge_dice_button(id: i64, edge: u32, lang: Lang) -> CreateButton {
    buttons::button(id, &edge_dice_label(edge, lang), ButtonStyle::Secondary)
}

pub fn negate_glitch_button(id: i64, lang: Lang) -> CreateButton {
    buttons::button(
        id,
        lang.pick("Negate glitch (Edge)", "グリッチ回避（エッジ）"),
        ButtonStyle::Primary,
    )
}

pub fn cheat_death_button(id: i64, lang: Lang) -> CreateButton {
    buttons::button(
        id,
        lang.pick("Cheat death (burn Edge)", "死を免れる（エッジを燃やす）"),
        ButtonStyle::Danger,
    )
}

pub fn burn_edge_button(id: i64, lang: Lang) -> CreateButton {
    buttons::button(
        id,
        lang.pick(
            "Burn Edge: critical success",
            "エッジを燃やす：クリティカル・サクセス",
        ),
        ButtonStyle::Danger,
    )
}

/// Key of the session's Shadowrun state in `Session::system_state`.
pub const STATE_KEY: &str = <Shadowrun4State as SessionState>::KEY;

/// The session's Shadowrun state (a state that does not read counts as new).
pub fn state(s: &Session) -> Shadowrun4State {
    Shadowrun4State::read_or_default(&s.system_state)
}

/// Record that Edge was used on roll `token`: refused if it already was (one use per roll,
/// whichever of its buttons was pressed first; the engine's `Shadowrun4State`). Runs inside the
/// session transaction.
pub fn mark_edge_roll(s: &mut Session, token: &str) -> Result<(), SessionError> {
    let mut st = state(s);
    st.mark_edge_roll(token).map_err(|e| SessionError::rule(&e))?;
    st.write(&mut s.system_state);
    Ok(())
}

/// Record that the result shown with `version` changed (an Edge press updated it): buttons
/// still carrying that version are refused, whoever's they are. Runs inside the session
/// transaction, in the same list as the rolls' Edge uses.
pub fn mark_version(s: &mut Session, version: &str) -> Result<(), SessionError> {
    mark_edge_roll(s, &format!("v:{version}")).map_err(|_| version_changed())
}

/// The refusal of a button whose result an Edge press changed since.
pub fn version_changed() -> SessionError {
    SessionError::Rule {
        en: "This result has changed since: use the buttons on the message as it is now.".into(),
        ja: "この結果はその後更新されています。現在のメッセージのボタンを使ってください。".into(),
    }
}

/// Whether Edge was already used on roll `token` (read from a saved session).
pub fn edge_roll_used(s: &Session, token: &str) -> bool {
    state(s).edge_roll_used(token)
}

/// Which Edge-after buttons a roll gets, and the press data they share (with the session,
/// `who`'s name and a `roll_id` that ties them together: the first pressed uses the roll's
/// Edge, the others are then refused).
pub struct EdgeOffer<'a> {
    pub who: &'a Sr4Char,
    pub roll: &'a engine::systems::shadowrun4::PoolRoll,
    /// Offer "Burn Edge: critical success" (tests only).
    pub burn: bool,
    /// Offer "Second chance" (every roll with a miss).
    pub second_chance: bool,
    /// Offer "Negate glitch" (a roll showing a glitch) and "+Edge dice" (Edge after the roll).
    pub negate: bool,
    pub session: i64,
    /// The roll the buttons act on, as their handler needs it.
    pub edge_roll: EdgeRoll,
}

/// Whose Edge a row of buttons spends on an attack: the roller's on their own roll, or the
/// defender's on the defence or the soak roll (the labels say which).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeSide {
    Own,
    Defence,
    Soak,
}

impl EdgeSide {
    fn label(self, label: &str, lang: Lang) -> String {
        let prefix = match self {
            EdgeSide::Own => "",
            EdgeSide::Defence => lang.pick("Defender: ", "防御側："),
            EdgeSide::Soak => lang.pick("Defender soak: ", "防御側の抵抗："),
        };
        format!("{prefix}{label}")
    }
}

/// Where the buttons go and whose they are.
pub struct ButtonPlace<'a> {
    pub data: &'a crate::Data,
    pub guild: Option<u64>,
    pub channel: u64,
    /// Who may press (besides the GM).
    pub owner: u64,
    pub lang: Lang,
}

/// Create the Edge-after buttons the rules allow on this roll: Second chance (a miss to
/// reroll), Negate glitch (a glitch or critical glitch, decisions "Edge"), Burn Edge for a
/// critical success. Spending needs a point left; burning needs the attribute.
pub async fn edge_buttons(ctx: Context<'_>, inv: &Invocation, offer: EdgeOffer<'_>) -> Vec<Offer> {
    let place = ButtonPlace {
        data: ctx.data(),
        guild: inv.guild,
        channel: inv.channel,
        owner: inv.user,
        lang: inv.lang,
    };
    edge_buttons_at(&place, offer, &ctx.id().to_string(), EdgeSide::Own).await
}

/// An Edge button to offer: the press it makes from the roll's shared data (the buttons of
/// one roll differ only by kind), its label and style.
type EdgeButton = (&'static str, String, ButtonStyle);

/// [`edge_buttons`] for any place and roll: `roll_id` ties the buttons of one roll together.
/// The buttons' actions are stored with the reply ([`reply_rows`]), in one write.
pub async fn edge_buttons_at(
    place: &ButtonPlace<'_>,
    offer: EdgeOffer<'_>,
    roll_id: &str,
    side: EdgeSide,
) -> Vec<Offer> {
    let c = &offer.who.character;
    let lang = place.lang;
    let mut out = Vec::new();
    if offer.roll.edge_used {
        return out;
    }
    let points = c.edge_points > 0;
    let mut kinds: Vec<EdgeButton> = Vec::new();
    if offer.second_chance && points && offer.roll.standing().any(|d| !d.is_hit()) {
        kinds.push((
            SrPress::SECOND_CHANCE,
            lang.pick("Second chance (Edge)", "セカンド・チャンス（エッジ）")
                .to_string(),
            ButtonStyle::Primary,
        ));
    }
    if offer.negate && points {
        // After the roll: add Edge dice, only they follow the rule of six (decisions "Edge").
        kinds.push((
            SrPress::EDGE_DICE,
            edge_dice_label(c.attributes.edge, lang),
            ButtonStyle::Secondary,
        ));
    }
    if offer.negate && points && offer.roll.glitch != engine::systems::shadowrun4::Glitch::None {
        kinds.push((
            SrPress::NEGATE_GLITCH,
            lang.pick("Negate glitch (Edge)", "グリッチ回避（エッジ）")
                .to_string(),
            ButtonStyle::Primary,
        ));
    }
    if offer.burn && c.attributes.edge > 0 {
        kinds.push((
            SrPress::BURN_EDGE,
            lang.pick(
                "Burn Edge: critical success",
                "エッジを燃やす：クリティカル・サクセス",
            )
            .to_string(),
            ButtonStyle::Danger,
        ));
    }
    let data = EdgePress {
        session: offer.session,
        character: offer.who.name.clone(),
        roll: offer.edge_roll,
        roll_id: Some(roll_id.to_string()),
    };
    if kinds.is_empty() {
        return out;
    }
    // Every Edge button of the roll carries the same data: serialized once (it holds the
    // whole roll), the kind tells them apart (`SrPress::from_action`).
    let payload = match JsonText::of(&data) {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!("Edge buttons not offered: {e}");
            return out;
        }
    };
    for (kind, label, style) in kinds {
        out.push(Offer::Pending {
            action: NewAction {
                kind: kind.into(),
                guild: place.guild,
                channel: place.channel,
                owner: place.owner,
                payload: payload.clone(),
            },
            label: side.label(&label, lang),
            style,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::SystemId;
    use engine::systems::shadowrun4::rules::MAX_EDGE_ROLLS;

    #[test]
    fn a_rolls_edge_use_is_remembered_once_and_the_list_stays_bounded() {
        let mut s = Session::start(1, 2, "Run", SystemId::Shadowrun4, 3, 0).unwrap();
        mark_edge_roll(&mut s, "r1").unwrap();
        assert!(mark_edge_roll(&mut s, "r1").is_err());
        for i in 0..MAX_EDGE_ROLLS + 5 {
            mark_edge_roll(&mut s, &format!("x{i}")).unwrap();
        }
        let list = s.system_state[STATE_KEY]["edge_rolls"].as_array().unwrap();
        assert_eq!(list.len(), MAX_EDGE_ROLLS);
        // The oldest fell off; the session still validates (size limit).
        mark_edge_roll(&mut s, "r1").unwrap();
        assert!(s.validate().is_ok());
    }
}

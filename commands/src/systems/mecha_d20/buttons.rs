//! The checks the battle asks for, as buttons: after the application phase an Escape check for
//! each destroyed suit's pilot and a Fatigue check for every other pilot; after spirit points are
//! spent (with `mecha.faint_after_spirit` on) a Faint check. Each belongs to the unit's owner
//! (the GM may press it too), rolls once — the stored action is used up and the battle's waiting
//! check answered in the same press — and works after a restart (both are in the store).

use engine::session::Session;
use engine::systems::mecha_d20::state::PromptKind;
use serde::{Deserialize, Serialize};
use serenity::all::{ButtonStyle, CreateInteractionResponseMessage};

use super::{embeds, store};
use crate::BotError;
use crate::offers::Offer;
use crate::press::{Answer, Press, PressLog, PressReply, Shown};
use crate::store::{JsonText, NewAction};

pub const PREFIX: &str = "mecha.";
pub const CHECK_KIND: &str = "mecha.check";

/// What a check button carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckPress {
    pub session: i64,
    pub kind: PromptKind,
    pub unit: String,
}

fn label(kind: PromptKind, unit: &str, lang: engine::i18n::Lang) -> String {
    use engine::i18n::Lang;
    match (kind, lang) {
        (PromptKind::Escape, Lang::En) => format!("Escape check: {unit}"),
        (PromptKind::Escape, Lang::Ja) => format!("脱出判定：{unit}"),
        (PromptKind::Fatigue, Lang::En) => format!("Fatigue check: {unit}"),
        (PromptKind::Fatigue, Lang::Ja) => format!("疲労判定：{unit}"),
        (PromptKind::Faint, Lang::En) => format!("Faint check: {unit}"),
        (PromptKind::Faint, Lang::Ja) => format!("気絶判定：{unit}"),
    }
}

/// A button for each `(kind, unit)`, owned by the unit's roster owner. Discord shows at most 25
/// buttons on a message; more checks stay answerable by command (`/mecha survive`).
pub fn offer(
    session: &Session,
    checks: &[(PromptKind, String)],
    guild: Option<u64>,
    lang: engine::i18n::Lang,
) -> Vec<Offer> {
    let mut out = Vec::new();
    for (kind, unit) in checks.iter().take(25) {
        let owner = session.entry(unit).map_or(session.gm, |e| e.owner);
        let payload = CheckPress {
            session: session.id,
            kind: *kind,
            unit: unit.clone(),
        };
        let action = NewAction {
            kind: CHECK_KIND.into(),
            guild,
            channel: session.channel_id,
            owner,
            payload: JsonText::of_or_null(&payload),
        };
        let style = match kind {
            PromptKind::Escape => ButtonStyle::Danger,
            _ => ButtonStyle::Secondary,
        };
        out.push(Offer::pending(action, label(*kind, unit, lang), style));
    }
    out
}

/// The check a press rolls, as the command that rolls it by hand is typed.
fn survive_command(kind: PromptKind, unit: &str) -> String {
    let check = match kind {
        PromptKind::Fatigue => "fatigue",
        PromptKind::Faint => "faint",
        PromptKind::Escape => "escape",
    };
    format!("/mecha survive check:{check} unit:{unit}")
}

/// A press: answer the waiting check (refused, nothing rolled, when it was already answered).
pub async fn press(p: &Press<'_>, answer: Answer<'_>) -> Result<PressReply, BotError> {
    if p.action.kind != CHECK_KIND {
        return Err(BotError::internal(format!(
            "unknown action kind {}",
            p.action.kind
        )));
    }
    let c: CheckPress = serde::Deserialize::deserialize(&p.action.payload).map_err(BotError::internal)?;
    let opts = store::options(&p.settings);
    let rolling = answer.roll();
    let (_, out) = store::run_press(p, &rolling, c.session, &mut |units, state, r| {
        state.answer_prompt(c.kind, &c.unit, units, 0, opts.escape_target, r)
    })
    .await?;
    let who = p.interaction.user.display_name().to_string();
    let view = embeds::answer_view(&c.unit, &out, p.lang, &who);
    // Logged as the same check typed (`/mecha survive`) would be.
    let log = PressLog::new(c.session, &survive_command(c.kind, &c.unit), &out);
    Ok(rolling.show(
        Shown::Message(CreateInteractionResponseMessage::new().embed(view.to_embed())),
        log,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_payload_reads_back() {
        let c = CheckPress {
            session: 3,
            kind: PromptKind::Escape,
            unit: "Zaku".into(),
        };
        let v = serde_json::to_value(&c).unwrap();
        assert_eq!(v["kind"], "escape");
        assert_eq!(serde_json::from_value::<CheckPress>(v).unwrap(), c);
        assert!(CHECK_KIND.starts_with(PREFIX));
    }
}

//! The choices the rules give after a roll, as buttons: the roll-off winner picks who goes
//! first (`term.first`); on FATE one button per eligible commander (`term.fate`); after a kill
//! with I'll Be Back its owner rolls it (`term.ibb`); a step-by-step attack goes on
//! (`term.continue`). Each belongs to the player concerned (the GM may press it too), works once
//! (the dispatcher uses the stored action up) and after a restart (the action and the game are
//! both in the store). A button whose moment has passed — the game moved on by command — is
//! refused, nothing changed.

use engine::i18n::Lang;
use engine::session::Session;
use engine::systems::terminator::state::Phase;
use engine::systems::terminator::{AttackReport, Stage, Waiting};
use serde::{Deserialize, Serialize};
use serenity::all::{ButtonStyle, CreateInteractionResponseMessage};

use super::embeds;
use super::store::{self, Refusal, refusal};
use crate::BotError;
use crate::offers::{self, Offer};
use crate::press::{Answer, Press, PressLog, PressReply, Shown};
use crate::store::{JsonText, NewAction};

pub const PREFIX: &str = "term.";

/// What a button carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "press")]
pub enum TermPress {
    /// The Tactical Edge holder names `side` the turn's first player.
    First { session: i64, turn: u32, side: String },
    /// FATE: `commander` activates (alone; followers by command).
    Fate {
        session: i64,
        turn: u32,
        impulse: u32,
        commander: String,
    },
    /// The next stage of `attacker`'s attack, now at `stage`.
    Continue {
        session: i64,
        attacker: String,
        stage: Stage,
    },
    /// The I'll Be Back roll of the attack's killed targets.
    IllBeBack {
        session: i64,
        attacker: String,
        targets: Vec<String>,
    },
}

impl TermPress {
    pub fn kind(&self) -> &'static str {
        match self {
            TermPress::First { .. } => "term.first",
            TermPress::Fate { .. } => "term.fate",
            TermPress::Continue { .. } => "term.continue",
            TermPress::IllBeBack { .. } => "term.ibb",
        }
    }

    fn label(&self, lang: Lang) -> String {
        match (self, lang) {
            (TermPress::First { side, .. }, Lang::En) => format!("{side} goes first"),
            (TermPress::First { side, .. }, Lang::Ja) => format!("{side}が先攻"),
            (TermPress::Fate { commander, .. }, Lang::En) => format!("FATE: {commander} activates"),
            (TermPress::Fate { commander, .. }, Lang::Ja) => format!("Fate：{commander}がアクティベート"),
            (TermPress::Continue { stage, .. }, _) => {
                let next = match stage {
                    Stage::AttackRoll => lang.pick("attack roll", "攻撃ロール"),
                    Stage::Saves => lang.pick("cover saves", "カバーセーヴィング"),
                    Stage::Damage => lang.pick("damage roll", "ダメージロール"),
                    Stage::IllBeBack => lang.pick("I'll Be Back", "アイル ビー バック"),
                    Stage::Tests => lang.pick("resolution tests", "レゾリューションテスト"),
                    Stage::Complete => lang.pick("done", "完了"),
                };
                format!("{}: {next}", lang.pick("Continue", "続行"))
            }
            (TermPress::IllBeBack { targets, .. }, Lang::En) => {
                format!("I'll Be Back: {}", targets.join(", "))
            }
            (TermPress::IllBeBack { targets, .. }, Lang::Ja) => {
                format!("アイル ビー バック：{}", targets.join("、"))
            }
        }
    }
}

/// A button owned by `owner`, its action stored with the reply's log row.
pub fn offer(session: &Session, owner: u64, press: &TermPress, guild: Option<u64>, lang: Lang) -> Offer {
    let action = NewAction {
        kind: press.kind().into(),
        guild,
        channel: session.channel_id,
        owner,
        payload: JsonText::of_or_null(press),
    };
    let style = match press {
        TermPress::IllBeBack { .. } => ButtonStyle::Danger,
        TermPress::Continue { .. } => ButtonStyle::Secondary,
        _ => ButtonStyle::Primary,
    };
    Offer::pending(action, press.label(lang), style)
}

fn owner_of(session: &Session, name: &str) -> u64 {
    session.entry(name).map_or(session.gm, |e| e.owner)
}

/// The button an unfinished attack needs: its killed targets' owner rolls I'll Be Back; a
/// step-by-step run goes on by the attacker's owner; a missing die is answered by command.
pub fn attack_buttons(session: &Session, rep: &AttackReport, guild: Option<u64>, lang: Lang) -> Vec<Offer> {
    if rep.applied {
        return Vec::new();
    }
    let attacker = rep.run.request.attacker.clone();
    let (owner, press) = match &rep.waiting {
        Some(Waiting::Die { .. }) => return Vec::new(),
        Some(Waiting::IllBeBack { targets }) => (
            targets.first().map_or(session.gm, |t| owner_of(session, t)),
            TermPress::IllBeBack {
                session: session.id,
                attacker,
                targets: targets.clone(),
            },
        ),
        None => (
            owner_of(session, &attacker),
            TermPress::Continue {
                session: session.id,
                attacker,
                stage: rep.run.stage,
            },
        ),
    };
    vec![offer(session, owner, &press, guild, lang)]
}

/// The roll-off winner's buttons (`owner`: a player of the winning side): each side as the
/// first player.
pub fn first_buttons(
    session: &Session,
    owner: u64,
    turn: u32,
    sides: &[String],
    guild: Option<u64>,
    lang: Lang,
) -> Vec<Offer> {
    let mut out = Vec::new();
    for side in sides {
        let p = TermPress::First {
            session: session.id,
            turn,
            side: side.clone(),
        };
        out.push(offer(session, owner, &p, guild, lang));
    }
    out
}

/// On FATE: one button per eligible commander, its owner's.
pub fn fate_buttons(
    session: &Session,
    turn: u32,
    impulse: u32,
    commanders: &[String],
    guild: Option<u64>,
    lang: Lang,
) -> Vec<Offer> {
    let mut out = Vec::new();
    for c in commanders.iter().take(25) {
        let p = TermPress::Fate {
            session: session.id,
            turn,
            impulse,
            commander: c.clone(),
        };
        out.push(offer(session, owner_of(session, c), &p, guild, lang));
    }
    out
}

fn moved_on() -> Refusal {
    Refusal(refusal(
        "This button is out of date: the game has moved on.",
        "このボタンは古くなっています（ゲームが先に進んでいます）。",
    ))
}

/// A new message with `view` (its buttons, if any, come through [`PressReply::offering`]).
fn message(view: &crate::embeds::EmbedView) -> Shown {
    Shown::Message(CreateInteractionResponseMessage::new().embed(view.to_embed()))
}

pub async fn press(p: &Press<'_>, answer: Answer<'_>) -> Result<PressReply, BotError> {
    let t: TermPress = serde::Deserialize::deserialize(&p.action.payload).map_err(BotError::internal)?;
    if t.kind() != p.action.kind {
        return Err(BotError::internal(format!(
            "unknown action kind {}",
            p.action.kind
        )));
    }
    let lang = p.lang;
    let who = p.interaction.user.display_name().to_string();
    let guild = p.interaction.guild_id.map(|g| g.get());
    match t {
        TermPress::First { session, turn, side } => {
            let (_, next) = store::run_press(p, None, session, &mut |chars, state, _| {
                if state.turn != turn || state.phase != Phase::FirstPlayer {
                    return Err(moved_on());
                }
                Ok(state.choose_first(&side, chars)?)
            })
            .await?;
            p.data.tap(p.interaction.id.get(), &next);
            // The choice is made: the roll-off's message says it, and its buttons go.
            Ok(answer.show(Shown::appended(
                p,
                embeds::first_view(&side, &next, lang).to_embed(),
            )))
        }
        TermPress::Fate {
            session,
            turn,
            impulse,
            commander,
        } => {
            let (_, a) = store::run_press(p, None, session, &mut |chars, state, _| {
                let current = state.impulse.as_ref().map(|i| (state.turn, i.number));
                if current != Some((turn, impulse)) {
                    return Err(moved_on());
                }
                Ok(state.activate(&commander, &[], chars)?)
            })
            .await?;
            p.data.tap(p.interaction.id.get(), &a);
            Ok(answer.show(message(&embeds::activation_view(&a, lang, &who))))
        }
        TermPress::Continue {
            session,
            attacker,
            stage,
        } => {
            let rolling = answer.roll();
            let (saved, rep) = store::run_press(p, Some(&rolling), session, &mut |chars, state, r| {
                let a = state.attack.as_ref().ok_or_else(moved_on)?;
                if a.run.request.attacker != attacker || a.run.stage != stage {
                    return Err(moved_on());
                }
                Ok(state.continue_attack(chars, &mut &mut *r)?)
            })
            .await?;
            let buttons = attack_buttons(&saved, &rep, guild, lang);
            // The report is the whole attack so far: its row says all of it.
            let log = PressLog::new(session, "/term continue", &rep);
            Ok(rolling
                .show(message(&embeds::attack_view(&rep, lang, &who)), log)
                .offering(offers::rows_of(buttons)))
        }
        TermPress::IllBeBack {
            session,
            attacker,
            targets,
        } => {
            let rolling = answer.roll();
            let (saved, rep) = store::run_press(p, Some(&rolling), session, &mut |chars, state, r| {
                let a = state.attack.as_ref().ok_or_else(moved_on)?;
                let waiting =
                    matches!(a.run.waiting(), Some(Waiting::IllBeBack { targets: t }) if t == targets);
                if a.run.request.attacker != attacker || !waiting {
                    return Err(moved_on());
                }
                Ok(state.continue_attack(chars, &mut &mut *r)?)
            })
            .await?;
            let buttons = attack_buttons(&saved, &rep, guild, lang);
            let log = PressLog::new(session, "/term continue (I'll Be Back)", &rep);
            Ok(rolling
                .show(message(&embeds::attack_view(&rep, lang, &who)), log)
                .offering(offers::rows_of(buttons)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_payload_reads_back_under_its_kind() {
        let all = [
            TermPress::First {
                session: 1,
                turn: 2,
                side: "Skynet".into(),
            },
            TermPress::Fate {
                session: 1,
                turn: 2,
                impulse: 3,
                commander: "Kyle".into(),
            },
            TermPress::Continue {
                session: 1,
                attacker: "Kyle".into(),
                stage: Stage::Saves,
            },
            TermPress::IllBeBack {
                session: 1,
                attacker: "Kyle".into(),
                targets: vec!["T1".into()],
            },
        ];
        for p in all {
            assert!(p.kind().starts_with(PREFIX));
            let v = serde_json::to_value(&p).unwrap();
            assert_eq!(serde_json::from_value::<TermPress>(v).unwrap(), p);
            assert!(!p.label(Lang::Ja).is_empty() && p.label(Lang::En).len() <= 80);
        }
    }
}

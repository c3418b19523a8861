//! The game's transactions: read the characters from the roster and the game from the session,
//! let a step roll and change them, write both back — one store transaction, retried on a
//! conflict, nothing written when anything refuses. Who may run a step is checked inside the
//! same transaction ([`Gate`]). Nothing here decides a rule.

use std::collections::BTreeMap;

use engine::dice::{FixedRoller, Roller};
use engine::i18n::Lang;
use engine::session::{Actor, ServerSettings, Session, SessionError, SystemId};
use engine::systems::rules::SessionState;
use engine::systems::sheet_error::SheetError;
use engine::systems::terminator::rules::options as house_options;
use engine::systems::terminator::{
    Character, RuleError, TerminatorOptions, TerminatorState, Waiting, characters_of, write_characters,
};

use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::press::Press;
use crate::{BotError, Context};

/// Why a step refused: a rule, a sheet, or the session itself; `?` takes all three.
pub struct Refusal(pub SessionError);

impl From<RuleError> for Refusal {
    fn from(e: RuleError) -> Refusal {
        Refusal(SessionError::rule(&e))
    }
}

impl From<SheetError> for Refusal {
    fn from(e: SheetError) -> Refusal {
        Refusal(SessionError::Rule { en: e.en, ja: e.ja })
    }
}

impl From<SessionError> for Refusal {
    fn from(e: SessionError) -> Refusal {
        Refusal(e)
    }
}

/// The characters by roster name.
pub type Chars = BTreeMap<String, Character>;

/// What a game step gets: the characters, the game, and the dice.
pub type Step<'a, T> =
    dyn FnMut(&mut Chars, &mut TerminatorState, &mut dyn Roller) -> Result<T, Refusal> + Send + 'a;

pub fn refusal(en: &str, ja: &str) -> SessionError {
    SessionError::Rule {
        en: en.to_string(),
        ja: ja.to_string(),
    }
}

pub fn not_a_game() -> SessionError {
    refusal(
        "This channel's session is not a Terminator Genisys game (/session start system:terminator).",
        "このチャンネルのセッションはターミネーター ジェニシスのゲームではありません（/session start system:terminator）。",
    )
}

/// The options the server's house settings choose (`/config option`).
pub fn options(settings: &ServerSettings) -> TerminatorOptions {
    house_options(&settings.house)
}

/// The roster's spelling of a typed name (any case); unknown names pass through for the
/// engine to refuse by name.
pub fn canon(chars: &Chars, typed: &str) -> String {
    let t = typed.trim();
    chars
        .keys()
        .find(|k| k.eq_ignore_ascii_case(t))
        .cloned()
        .unwrap_or_else(|| t.chars().take(64).collect())
}

/// A comma-separated list of names (followers, secondary targets), each in the roster's spelling.
pub fn names(chars: &Chars, typed: &str) -> Vec<String> {
    typed
        .split([',', '、'])
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| canon(chars, n))
        .collect()
}

/// Who may run a step.
pub enum Gate {
    /// The owners of these characters (typed names), or the GM.
    Chars(Vec<String>),
    /// A player of the side whose impulse it is, or the GM.
    ImpulsePlayer,
    /// A player of the side holding the Tactical Edge, or the GM.
    EdgePlayer,
    /// The attack under way: the owners of the targets it waits to roll I'll Be Back for, else
    /// the attacker's owner (or, for a lost die, the target's); or the GM.
    Attack,
    /// Anyone with a character in the game, or the GM.
    Player,
    Gm,
}

/// Whether `actor` plays `side`: owns one of its characters.
pub fn plays_side(session: &Session, chars: &Chars, actor: Actor, side: &str) -> bool {
    session
        .roster
        .iter()
        .any(|e| e.owner == actor.user && chars.get(&e.name).is_some_and(|c| c.side == side))
}

/// The user a side's buttons belong to: the owner of its first character (else the GM).
pub fn side_owner(session: &Session, chars: &Chars, side: &str) -> u64 {
    session
        .roster
        .iter()
        .find(|e| chars.get(&e.name).is_some_and(|c| c.side == side))
        .map_or(session.gm, |e| e.owner)
}

fn side_refusal(side: &str) -> SessionError {
    SessionError::Rule {
        en: format!("Only a player of {side} (or the GM) may do this now."),
        ja: format!("今これを行えるのは{side}のプレイヤー（またはGM）だけです。"),
    }
}

pub fn check_gate(
    session: &Session,
    chars: &Chars,
    state: &TerminatorState,
    actor: Actor,
    gate: &Gate,
) -> Result<(), SessionError> {
    if session.may_manage(actor) {
        return Ok(());
    }
    let side_gate = |side: Option<&String>| match side {
        Some(side) if plays_side(session, chars, actor, side) => Ok(()),
        Some(side) => Err(side_refusal(side)),
        None => Err(refusal(
            "Only the GM may do this now.",
            "今これを行えるのはGMだけです。",
        )),
    };
    match gate {
        Gate::Chars(typed) => {
            for t in typed {
                let name = canon(chars, t);
                match session.entry(&name) {
                    Some(e) if e.owner == actor.user => {}
                    Some(e) => return Err(SessionError::NotOwner { name: e.name.clone() }),
                    None => {
                        return Err(SessionError::rule(&RuleError::UnknownCharacter {
                            name: t.trim().chars().take(64).collect(),
                        }));
                    }
                }
            }
            Ok(())
        }
        Gate::Attack => {
            let a = state
                .attack
                .as_ref()
                .ok_or_else(|| SessionError::rule(&RuleError::NoAttack))?;
            let attacker = a.run.request.attacker.clone();
            let who: Vec<String> = match a.run.waiting() {
                Some(Waiting::IllBeBack { targets }) => targets,
                // A lost die: the target's owner knows it as well as the attacker's.
                Some(Waiting::Die { target, .. }) => vec![attacker, target],
                None => vec![attacker],
            };
            if who
                .iter()
                .any(|n| session.entry(n).is_some_and(|e| e.owner == actor.user))
            {
                Ok(())
            } else {
                Err(SessionError::NotOwner { name: who.join(", ") })
            }
        }
        Gate::ImpulsePlayer => side_gate(state.impulse.as_ref().map(|i| &i.player)),
        Gate::EdgePlayer => side_gate(state.edge.as_ref()),
        Gate::Player => {
            if session.roster.iter().any(|e| e.owner == actor.user) {
                Ok(())
            } else {
                Err(refusal(
                    "Only a player with a character in this game (or the GM) may do this.",
                    "これを行えるのは、このゲームにキャラクターがいるプレイヤー（またはGM）だけです。",
                ))
            }
        }
        Gate::Gm => Err(refusal(
            "Only the GM may do this.",
            "これを行えるのはGMだけです。",
        )),
    }
}

fn read_state(session: &Session) -> Result<(Chars, TerminatorState), SessionError> {
    let chars = characters_of(&session.roster).map_err(|e| SessionError::rule(&e))?;
    let state = TerminatorState::read(&session.system_state).map_err(|e| SessionError::Rule {
        en: e.en.clone(),
        ja: e.ja.clone(),
    })?;
    Ok((chars, state))
}

/// One step on a session known to be a game: characters and state in, both out when it
/// succeeds.
fn step_on<T>(
    session: &mut Session,
    actor: Option<Actor>,
    gate: &Gate,
    roller: &mut dyn Roller,
    step: &mut Step<'_, T>,
) -> Result<T, SessionError> {
    if session.system != SystemId::Terminator {
        return Err(not_a_game());
    }
    let (mut chars, mut state) = read_state(session)?;
    if let Some(actor) = actor {
        check_gate(session, &chars, &state, actor, gate)?;
    }
    let out = step(&mut chars, &mut state, roller).map_err(|r| r.0)?;
    write_characters(&mut session.roster, &chars);
    state.write(&mut session.system_state);
    Ok(out)
}

/// Run `step` on the channel's game in one transaction. Returns the session as saved.
/// With the [`CommandRoll`] that answers and logs what `step` rolled.
pub async fn run<'a, T: Send>(
    ctx: Context<'a>,
    inv: &Invocation,
    gate: Gate,
    step: &mut Step<'_, T>,
) -> Result<(CommandRoll<'a>, std::sync::Arc<Session>, T), BotError> {
    let actor = inv.actor;
    let mut produced: Option<T> = None;
    let roll = CommandRoll::new(ctx);
    let updated = inv
        .update(ctx, |s| {
            let out = roll.with(|r| step_on(s, Some(actor), &gate, r, step))?;
            produced = Some(out);
            Ok(())
        })
        .await;
    // Refused (or not stored): the command answers with the error, and logs nothing.
    let session = match updated {
        Ok(s) => s,
        Err(e) => return Err(roll.abandon(e)),
    };
    let out = produced.ok_or_else(|| BotError::internal("game step produced nothing"))?;
    Ok((roll, session, out))
}

/// A read-only look (status, raw rolls that look characters up).
pub async fn read(
    ctx: Context<'_>,
    inv: &Invocation,
) -> Result<(std::sync::Arc<Session>, Chars, TerminatorState), BotError> {
    let session = inv.session(ctx).await?;
    if session.system != SystemId::Terminator {
        return Err(inv.user_error(&not_a_game()));
    }
    let (chars, state) = read_state(&session).map_err(|e| inv.user_error(&e))?;
    Ok((session, chars, state))
}

/// [`run`] for a button press on the channel's game, which must still be `session_id`. The
/// dispatcher has already checked who pressed (the action's owner, or the GM). Without
/// `rolling` (a press that only chooses) the step gets no dice: one it rolls is refused.
pub async fn run_press<T: Send>(
    p: &Press<'_>,
    rolling: Option<&crate::press::Rolling<'_>>,
    session_id: i64,
    step: &mut Step<'_, T>,
) -> Result<(std::sync::Arc<Session>, T), BotError> {
    let mut produced: Option<T> = None;
    let session = p
        .data
        .store
        .update(p.interaction.channel_id.get(), |s| {
            if s.id != session_id || s.system != SystemId::Terminator {
                return Err(refusal(
                    "The game of this button has ended.",
                    "このボタンのゲームは終了しています。",
                ));
            }
            let out = match rolling {
                Some(rolling) => rolling.dice().with(|r| step_on(s, None, &Gate::Gm, r, step))?,
                None => step_on(s, None, &Gate::Gm, &mut FixedRoller::new([]), step)?,
            };
            produced = Some(out);
            Ok(())
        })
        .await
        .map_err(|e| crate::invocation::store_error(e, p.lang))?;
    let out = produced.ok_or_else(|| BotError::internal("game step produced nothing"))?;
    Ok((session, out))
}

/// A refusal in the reader's language.
pub fn localized(e: &SessionError, lang: Lang) -> String {
    use engine::i18n::Localized;
    e.localized(lang)
}

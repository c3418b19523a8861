//! The game's transactions: load the Warmachine state and the models from the session (the
//! engine's `WarmachineState` under `system_state.warmachine`, each model in its roster entry's
//! sheet), let a step roll and change them, and save what changed — one store transaction,
//! retried on a conflict, written only when every check passed. Nothing here decides a rule.

use std::collections::BTreeMap;

use engine::dice::Roller;
use engine::i18n::Lang;
use engine::session::{Actor, MAX_SHEET_BYTES, Session, SessionError, SystemId};
use engine::systems::rules::SessionState;
use engine::systems::warmachine::effects::Stat;
use engine::systems::warmachine::{Model, RuleError, WarmachineState, players, sheet};
use serde_json::Value;

use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::press::Press;
use crate::{BotError, Context};

/// The session's game: its state and every roster entry that is a model, by entry name.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub state: WarmachineState,
    pub models: BTreeMap<String, Model>,
}

/// A rule error carried through the store's transaction.
pub fn rule(e: RuleError) -> SessionError {
    SessionError::rule(&e)
}

pub fn refusal(en: impl Into<String>, ja: impl Into<String>) -> SessionError {
    SessionError::Rule {
        en: en.into(),
        ja: ja.into(),
    }
}

pub fn not_warmachine() -> SessionError {
    refusal(
        "This channel's session is not a Warmachine game (/session start system:warmachine).",
        "このチャンネルのセッションはウォーマシンのゲームではありません（/session start system:warmachine）。",
    )
}

/// Read the game out of a session. Entries whose stats are not a model are left out.
pub fn load(s: &Session) -> Result<Game, SessionError> {
    if s.system != SystemId::Warmachine {
        return Err(not_warmachine());
    }
    let state =
        WarmachineState::read(&s.system_state).map_err(|e| SessionError::Rule { en: e.en, ja: e.ja })?;
    let mut models = BTreeMap::new();
    for e in &s.roster {
        if let Ok(Some(mut m)) = sheet::read(&e.sheet) {
            m.name = e.name.clone();
            // Issue 29: a model typed without a controller is its entry owner's.
            if m.controller.trim().is_empty() {
                m.controller = format!("<@{}>", e.owner);
            }
            models.insert(e.name.clone(), m);
        }
    }
    Ok(Game { state, models })
}

/// The game read-only, or `None` when the session is another system's (status boards).
pub fn peek(s: &Session) -> Option<Game> {
    load(s).ok()
}

/// Write back the models that changed and the state. Roll-offs are history (their rulings are
/// kept apart), so the oldest give way when the state would outgrow the session's limit.
pub fn save(s: &mut Session, before: &Game, after: &Game) -> Result<(), SessionError> {
    for (name, m) in &after.models {
        if before.models.get(name) == Some(m) {
            continue;
        }
        let Some(entry) = s.roster.iter_mut().find(|e| &e.name == name) else {
            continue;
        };
        entry.sheet = serde_json::to_value(m)
            .map_err(|e| refusal(e.to_string(), e.to_string()))?
            .into();
    }
    if before.state != after.state {
        // The size is counted, not written out, and the state copied only to trim it.
        let mut trimmed: Option<WarmachineState> = None;
        loop {
            let state = trimmed.as_ref().unwrap_or(&after.state);
            if state.roll_offs.is_empty() || state.written_len(&s.system_state) <= MAX_SHEET_BYTES {
                break;
            }
            trimmed
                .get_or_insert_with(|| after.state.clone())
                .roll_offs
                .remove(0);
        }
        trimmed
            .as_ref()
            .unwrap_or(&after.state)
            .write(&mut s.system_state);
    }
    Ok(())
}

/// The roster name of the model typed (any case), or why there is none.
pub fn model_name(s: &Session, game: &Game, typed: &str) -> Result<String, SessionError> {
    let Some(entry) = s.entry(typed) else {
        return Err(rule(RuleError::UnknownModel {
            name: typed.trim().chars().take(64).collect(),
        }));
    };
    if !game.models.contains_key(&entry.name) {
        return Err(refusal(
            format!(
                "“{}” has no Warmachine stats; set them with /char (controller, def, arm, boxes).",
                entry.name
            ),
            format!(
                "「{}」にはウォーマシンの能力値がありません。/char で設定してください（controller、def、arm、boxes）。",
                entry.name
            ),
        ));
    }
    Ok(entry.name.clone())
}

/// The model by roster name (after [`model_name`]).
pub fn model<'a>(game: &'a Game, name: &str) -> Result<&'a Model, SessionError> {
    game.models.get(name).ok_or_else(|| {
        rule(RuleError::UnknownModel {
            name: name.to_string(),
        })
    })
}

/// Who is typing, for the models they may command.
#[derive(Debug, Clone)]
pub struct Commander {
    pub actor: Actor,
    /// Their user name and display name: a model's `controller` may name them so.
    pub names: Vec<String>,
}

impl Commander {
    pub fn of(ctx: Context<'_>, inv: &Invocation) -> Commander {
        let a = ctx.author();
        let mut names = vec![a.name.clone(), a.display_name().to_string()];
        names.dedup();
        Commander {
            actor: inv.actor,
            names,
        }
    }

    /// Whether a model's `controller` names this person: their mention (issue 29), or, for a
    /// model stored before controllers were members, their name.
    fn controls(&self, model: &Model) -> bool {
        self.is_player(&model.controller)
    }

    /// Whether `player` (as the game stores players: `<@id>`, or an older name) is this person.
    pub fn is_player(&self, player: &str) -> bool {
        match players::user_id(player) {
            Some(id) => id == self.actor.user,
            None => self
                .names
                .iter()
                .any(|n| n.eq_ignore_ascii_case(player.trim().trim_start_matches('@'))),
        }
    }

    /// This person as the game names players: their mention.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.actor.user)
    }

    /// The GM (or a server manager).
    pub fn is_gm(&self, s: &Session) -> bool {
        s.may_manage(self.actor)
    }

    /// Issue 33: what belongs to `player` (their turn, their trigger) is theirs or the GM's.
    pub fn may_act_for(&self, s: &Session, player: &str, what: (&str, &str)) -> Result<(), SessionError> {
        if self.is_gm(s) || self.is_player(player) {
            return Ok(());
        }
        Err(refusal(
            format!("{} is {player}'s: only they or the GM may do it.", what.0),
            format!("{}は{player}のものです。本人かGMだけが行えます。", what.1),
        ))
    }

    /// Issue 33: only the GM (or a server manager).
    pub fn gm_only(&self, s: &Session, en: &str, ja: &str) -> Result<(), SessionError> {
        if self.is_gm(s) {
            Ok(())
        } else {
            Err(refusal(
                format!("Only the GM may {en}."),
                format!("{ja}はGMだけが行えます。"),
            ))
        }
    }

    /// Changing the game is for the people playing it: the GM (or a manager), a player who
    /// joined the session, an entry's owner, or a player some model's `controller` names.
    pub fn in_game(&self, s: &Session, game: &Game) -> Result<(), SessionError> {
        let user = self.actor.user;
        if s.may_manage(self.actor)
            || s.is_member(user)
            || s.roster.iter().any(|e| e.owner == user)
            || game.models.values().any(|m| self.controls(m))
        {
            Ok(())
        } else {
            Err(SessionError::NotAPlayer)
        }
    }

    /// The GM (or a manager), the entry's owner, or the player its `controller` names.
    pub fn may_command(&self, s: &Session, model: &Model) -> Result<(), SessionError> {
        let Some(entry) = s.entry(&model.name) else {
            return Ok(());
        };
        if s.may_manage(self.actor) || entry.owner == self.actor.user || self.controls(model) {
            Ok(())
        } else {
            Err(refusal(
                format!(
                    "{} is controlled by {}: only its controller, its owner or the GM commands it.",
                    model.name, model.controller
                ),
                format!(
                    "{}のコントローラーは{}です。コントローラー、登録した人、GMだけが指示できます。",
                    model.name, model.controller
                ),
            ))
        }
    }
}

/// A copy of `m` whose `stat` is exactly `value`: a raw number typed beside a model replaces
/// the stat after effects, so the effects' changes to that stat are left out.
pub fn with_raw(m: &Model, stat: Stat, value: u32) -> Model {
    let mut m = m.clone();
    match stat {
        Stat::Mat => m.mat = value,
        Stat::Rat => m.rat = value,
        Stat::Def => m.def = value,
        Stat::Arm => m.arm = value,
        Stat::Cmd => m.cmd = value,
        Stat::Spd => m.spd = value,
        Stat::Pow => {}
    }
    for e in &mut m.effects {
        e.changes.retain(|c| c.stat != stat);
    }
    m
}

/// A model made of raw numbers only (a table without a roster).
pub fn raw_model(name: &str, stat: u32, def: u32, arm: u32) -> Model {
    let mut m = Model::new(name, "", def, arm, engine::systems::warmachine::model::MAX_BOXES);
    m.mat = stat;
    m.rat = stat;
    m
}

/// Before any step: the triggers of models destroyed since (by a hit, or `/char edit
/// status=destroyed`) leave the queue (issue 29), so they never block the turn or "any time"
/// rules. Saved with the step; a refused step saves nothing, and the next one tidies again.
fn tidy(game: &mut Game) {
    game.state.game.drop_destroyed(&game.models);
}

/// Players typed into a command (`players:`), each a Discord member (issue 29).
pub fn typed_players(list: &[String]) -> Result<Vec<String>, SessionError> {
    players::members(list).map_err(rule)
}

/// What a step gets: the fresh session (names, owners), the game to change, the dice.
pub type Step<'a, T> = dyn FnMut(&Session, &mut Game, &mut dyn Roller) -> Result<T, SessionError> + Send + 'a;

/// Load the game, let `step` roll and change it, save it — one transaction. Only someone in
/// the game ([`Commander::in_game`]) changes it; nothing is written when anything refuses.
/// With the [`CommandRoll`] that answers and logs what `step` rolled.
pub async fn run<'a, T: Send>(
    ctx: Context<'a>,
    inv: &Invocation,
    step: &mut Step<'_, T>,
) -> Result<(CommandRoll<'a>, std::sync::Arc<Session>, T), BotError> {
    let commander = Commander::of(ctx, inv);
    let mut produced: Option<T> = None;
    let roll = CommandRoll::new(ctx);
    let updated = inv
        .update(ctx, |s| {
            let before = load(s)?;
            commander.in_game(s, &before)?;
            let mut game = before.clone();
            tidy(&mut game);
            let out = roll.with(|r| step(s, &mut game, r))?;
            save(s, &before, &game)?;
            produced = Some(out);
            Ok(())
        })
        .await;
    // Refused (or not stored): the command answers with the error, and logs nothing.
    let session = match updated {
        Ok(s) => s,
        Err(e) => return Err(roll.abandon(e)),
    };
    let out = produced.ok_or_else(|| BotError::internal("warmachine step produced nothing"))?;
    Ok((roll, session, out))
}

/// [`run`] for a button press, on the channel's session, which must still be `session_id`.
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
            if s.id != session_id {
                return Err(game_over());
            }
            let before = load(s)?;
            let mut game = before.clone();
            tidy(&mut game);
            // Without `rolling` (a press that rolls nothing) the step gets no dice.
            let out = match rolling {
                Some(rolling) => rolling.dice().with(|r| step(s, &mut game, r))?,
                None => step(s, &mut game, &mut engine::dice::FixedRoller::new([]))?,
            };
            save(s, &before, &game)?;
            produced = Some(out);
            Ok(())
        })
        .await
        .map_err(|e| match e {
            crate::store::StoreError::NotFound => {
                BotError::User(engine::i18n::Localized::localized(&game_over(), p.lang))
            }
            other => crate::invocation::store_error(other, p.lang),
        })?;
    let out = produced.ok_or_else(|| BotError::internal("warmachine step produced nothing"))?;
    Ok((session, out))
}

pub fn game_over() -> SessionError {
    refusal(
        "The game of this button has ended.",
        "このボタンのゲームは終了しています。",
    )
}

/// The channel's session and its game, read-only.
pub async fn read(ctx: Context<'_>, inv: &Invocation) -> Result<(std::sync::Arc<Session>, Game), BotError> {
    let session = inv.session(ctx).await?;
    let game = load(&session).map_err(|e| inv.user_error(&e))?;
    Ok((session, game))
}

/// The players of the game: its turn order once started, else the models' controllers in
/// roster order.
pub fn players(s: &Session, game: &Game) -> Vec<String> {
    if !game.state.game.players.is_empty() {
        return game.state.game.players.clone();
    }
    let mut out: Vec<String> = Vec::new();
    for e in &s.roster {
        if let Some(m) = game.models.get(&e.name)
            && !m.controller.trim().is_empty()
            && !out.contains(&m.controller)
        {
            out.push(m.controller.clone());
        }
    }
    out
}

/// A typed player list: comma separated (、 too); empty: none named.
pub fn split_list(typed: Option<&str>) -> Vec<String> {
    typed
        .unwrap_or("")
        .split([',', '、', ';', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A refusal as the user sees it.
pub fn say(e: &SessionError, lang: Lang) -> BotError {
    BotError::User(engine::i18n::Localized::localized(e, lang))
}

/// A model's stats as stored (for tests and the console).
pub fn sheet_of(m: &Model) -> Value {
    serde_json::to_value(m).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::session::RosterEntry;
    use engine::systems::warmachine::effects::{Expiry, preset};
    use serde_json::json;

    fn session() -> Session {
        let mut s = Session::start(1, 2, "G", SystemId::Warmachine, 9, 0).unwrap();
        s.roster.push(
            RosterEntry::new("Stalker", 5)
                .with_sheet(json!({"controller": "@ana", "def": 13, "arm": 17, "boxes": 10})),
        );
        s.roster.push(RosterEntry::new("Notes", 5).with_sheet(json!({})));
        s
    }

    #[test]
    fn models_load_by_entry_name_and_only_changes_are_written() {
        let mut s = session();
        let before = load(&s).unwrap();
        assert_eq!(before.models.len(), 1);
        assert_eq!(before.models["Stalker"].name, "Stalker");
        assert!(model_name(&s, &before, "stalker").is_ok());
        assert!(model_name(&s, &before, "Notes").is_err());
        assert!(model_name(&s, &before, "Nobody").is_err());
        let mut after = before.clone();
        after
            .models
            .get_mut("Stalker")
            .unwrap()
            .add_effect(&preset("Dark Shroud").unwrap(), Expiry::Manual, None, None)
            .unwrap();
        save(&mut s, &before, &after).unwrap();
        assert_eq!(s.roster[0].sheet["effects"][0]["name"], "Dark Shroud");
        assert!(s.system_state.is_null(), "the state did not change");
        assert_eq!(load(&s).unwrap().models["Stalker"].stat(Stat::Arm).value, 15);
    }

    #[test]
    fn old_roll_offs_give_way_to_the_size_limit() {
        let mut s = session();
        let before = load(&s).unwrap();
        let mut after = before.clone();
        let players = vec!["A".to_string(), "B".to_string()];
        let mut dice = engine::dice::FixedRoller::new([1, 2].repeat(200));
        for i in 0..50 {
            after
                .state
                .dispute(&format!("{i} {}", "x".repeat(190)), &players, None, 0, &mut dice)
                .unwrap();
        }
        save(&mut s, &before, &after).unwrap();
        let size = serde_json::to_string(&s.system_state).unwrap().len();
        assert!(size <= MAX_SHEET_BYTES, "{size}");
        let kept = WarmachineState::read(&s.system_state).unwrap().roll_offs;
        assert!(!kept.is_empty() && kept.len() < 50);
        assert!(kept.last().unwrap().question.starts_with("49 "));
    }

    #[test]
    fn only_people_in_the_game_change_it() {
        let s = session();
        let game = load(&s).unwrap();
        let who = |user: u64, name: &str| Commander {
            actor: Actor::user(user),
            names: vec![name.to_string()],
        };
        assert!(who(5, "x").in_game(&s, &game).is_ok(), "an owner");
        assert!(who(9, "gm").in_game(&s, &game).is_ok(), "the GM");
        assert!(who(7, "Ana").in_game(&s, &game).is_ok(), "a controller, any case");
        assert_eq!(who(8, "eve").in_game(&s, &game), Err(SessionError::NotAPlayer));
        let stalker = &game.models["Stalker"];
        assert!(who(7, "ana").may_command(&s, stalker).is_ok());
        assert!(who(8, "eve").may_command(&s, stalker).is_err());
        assert!(
            Commander {
                actor: Actor::manager(8),
                names: vec![]
            }
            .may_command(&s, stalker)
            .is_ok()
        );
    }

    #[test]
    fn raw_numbers_beside_a_model_replace_the_stat_after_effects() {
        let mut m = Model::new("J", "Ana", 12, 18, 20);
        m.add_effect(&preset("Dark Shroud").unwrap(), Expiry::Manual, None, None)
            .unwrap();
        assert_eq!(m.stat(Stat::Arm).value, 16);
        let r = with_raw(&m, Stat::Arm, 15);
        assert_eq!(r.stat(Stat::Arm).value, 15);
        assert_eq!(r.effects.len(), 1, "the effect (and its flags) stay");
    }
}

//! `/wm-ruling` (list, add, remove) and `/wm-turn end-game` (WG-5): rulings bind the rest of
//! the game, and the game's end archives them; the archive stays listed (`archived:`).
//!
//! Who may (issue 33): anyone in the game adds a ruling; the one who added it, or the GM,
//! removes it; the GM ends the game, or every player asks to (each types `/wm-turn end-game`).

use engine::i18n::Lang;
use engine::systems::warmachine::players;

use super::embeds as view;
use super::notice;
use super::store::{self, Commander, refusal, rule};
use crate::embeds::{EmbedView, colour};
use crate::invocation::{Invocation, now_ms};
use crate::{BotError, Context};

/// Rulings that bind the rest of the game
#[poise::command(
    slash_command,
    rename = "wm-ruling",
    name_localized("ja", "ウォーマシン-裁定"),
    description_localized("ja", "ゲームの最後まで有効な裁定"),
    subcommands("ruling_list", "ruling_add", "ruling_remove"),
    subcommand_required
)]
pub async fn wm_ruling(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// List the game's rulings (or those of finished games)
#[poise::command(
    slash_command,
    rename = "list",
    name_localized("ja", "一覧"),
    description_localized("ja", "このゲームの裁定一覧（または終了したゲームの裁定）")
)]
pub async fn ruling_list(
    ctx: Context<'_>,
    #[description = "The rulings of finished games (archived at end-game)"]
    #[name_localized("ja", "保管分")]
    #[description_localized("ja", "終了したゲームの裁定（ゲーム終了時に保管）")]
    archived: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, game) = store::read(ctx, &inv).await?;
    let v = if archived.unwrap_or(false) {
        view::archived_view(&game.state, inv.lang)
    } else {
        view::rulings_view(&game.state, inv.lang)
    };
    notice(ctx, &v).await
}

/// Record a ruling agreed without a roll-off
#[poise::command(
    slash_command,
    rename = "add",
    name_localized("ja", "追加"),
    description_localized("ja", "ロールオフなしで合意した裁定を記録")
)]
pub async fn ruling_add(
    ctx: Context<'_>,
    #[description = "The question"]
    #[name_localized("ja", "論点")]
    #[description_localized("ja", "争点")]
    #[max_length = 200]
    question: String,
    #[description = "The ruling"]
    #[name_localized("ja", "裁定")]
    #[description_localized("ja", "裁定の内容")]
    #[max_length = 500]
    ruling: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let by = Some(inv.user);
    let (_, _, r) = store::run(ctx, &inv, &mut |_s, game, _r| {
        game.state
            .add_ruling_by(&question, &ruling, now_ms(), by)
            .map_err(rule)
    })
    .await?;
    let v = EmbedView {
        title: inv.lang.pick("📜 Ruling recorded", "📜 裁定を記録").to_string(),
        description: view::ruling_line(&r, inv.lang),
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    };
    notice(ctx, &v).await
}

/// Remove a ruling by its number
#[poise::command(
    slash_command,
    rename = "remove",
    name_localized("ja", "削除"),
    description_localized("ja", "番号で裁定を削除")
)]
pub async fn ruling_remove(
    ctx: Context<'_>,
    #[description = "Ruling number"]
    #[name_localized("ja", "番号")]
    #[description_localized("ja", "裁定の番号")]
    #[min = 1]
    #[max = 100000]
    id: i64,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let id = u32::try_from(id).unwrap_or(0);
    let commander = Commander::of(ctx, &inv);
    let (_, _, r) = store::run(ctx, &inv, &mut |s, game, _r| {
        // Issue 33: who added it, or the GM (a ruling kept from before has no author: the GM's).
        let found = game.state.ruling(id).map_err(rule)?;
        if !commander.is_gm(s) && found.added_by != Some(commander.actor.user) {
            let by = found.added_by.map(|u| format!("<@{u}>"));
            return Err(match by {
                Some(by) => refusal(
                    format!("Ruling #{id} was recorded by {by}: only they or the GM remove it."),
                    format!("裁定{id}番は{by}が記録しました。削除できるのは本人かGMだけです。"),
                ),
                None => refusal(
                    format!("Ruling #{id} has no recorded author: only the GM removes it."),
                    format!("裁定{id}番は記録者が分かりません。削除できるのはGMだけです。"),
                ),
            });
        }
        game.state.remove_ruling(id).map_err(rule)
    })
    .await?;
    let v = EmbedView {
        title: inv.lang.pick("📜 Ruling removed", "📜 裁定を削除").to_string(),
        description: format!("~~{}~~", view::ruling_line(&r, inv.lang)),
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    };
    notice(ctx, &v).await
}

/// What `/wm-turn end-game` did.
enum EndGame {
    Ended(usize),
    /// Confirmed so far, and the players still to confirm.
    Waiting(Vec<String>, Vec<String>),
}

/// End the game (the GM, or every player): rulings archived, the turn state starts afresh
#[poise::command(
    slash_command,
    rename = "end-game",
    name_localized("ja", "ゲーム終了"),
    description_localized(
        "ja",
        "ゲーム終了（GMか、プレイヤー全員の確認）：裁定を保管し、手番をリセット"
    )
)]
pub async fn turn_end_game(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let commander = Commander::of(ctx, &inv);
    let (_, _, done) = store::run(ctx, &inv, &mut |s, game, _r| {
        if commander.is_gm(s) {
            return Ok(EndGame::Ended(game.state.end_game(now_ms()).rulings.len()));
        }
        // Issue 33: a player asks; the game ends when every player has.
        let everyone = store::players(s, game);
        if !everyone.iter().any(|p| commander.is_player(p)) {
            return Err(refusal(
                "Only the GM or a player of the game ends it.",
                "ゲームを終了できるのはGMかこのゲームのプレイヤーだけです。",
            ));
        }
        let user = commander.actor.user;
        if !game.state.end_votes.contains(&user) {
            game.state.end_votes.push(user);
        }
        let votes = &game.state.end_votes;
        let (yes, missing): (Vec<String>, Vec<String>) = everyone
            .iter()
            .cloned()
            .partition(|p| players::user_id(p).is_some_and(|id| votes.contains(&id)));
        if missing.is_empty() {
            return Ok(EndGame::Ended(game.state.end_game(now_ms()).rulings.len()));
        }
        Ok(EndGame::Waiting(yes, missing))
    })
    .await?;
    let (title, line) = match done {
        EndGame::Ended(n) => (
            lang.pick("🏁 Game over", "🏁 ゲーム終了").to_string(),
            match lang {
                Lang::En => format!("{n} ruling(s) archived (/wm-ruling list archived:true)."),
                Lang::Ja => format!("裁定{n}件を保管しました（/wm-ruling list archived:true）。"),
            },
        ),
        EndGame::Waiting(yes, missing) => (
            lang.pick("🏁 Ending the game?", "🏁 ゲームを終了しますか？")
                .to_string(),
            match lang {
                Lang::En => format!(
                    "Confirmed by {} ({} of {}). Waiting for {}: each types /wm-turn end-game, or the GM ends it.",
                    yes.join(", "),
                    yes.len(),
                    yes.len() + missing.len(),
                    missing.join(", ")
                ),
                Lang::Ja => format!(
                    "確認済み：{}（{}/{}人）。{}の確認待ち：それぞれ /wm-turn end-game を入力するか、GMが終了します。",
                    yes.join("、"),
                    yes.len(),
                    yes.len() + missing.len(),
                    missing.join("、")
                ),
            },
        ),
    };
    let v = EmbedView {
        title,
        description: line,
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    };
    notice(ctx, &v).await
}

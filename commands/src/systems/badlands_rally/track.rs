//! On the track: `/rally move` (MR spent over a typed path of hexes), `/rally collide`
//! (collision damage for the forced gear and whatever it hit) and `/rally victory` (who won,
//! with the contested-victory check when gears finished in the same round).

use engine::session::SessionError;
use engine::systems::badlands_rally::moves::{CollisionCause, MovePlan, Step, Terrain};
use engine::systems::badlands_rally::race::{Action, Victory};

use super::embeds::{action_view, collision_view, victory_view};
use super::store::{self, rule};
use super::{answer_with, gear_autocomplete, reliable, reply};
use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// What forced the gear into the obstacle.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum CauseChoice {
    #[name = "push"]
    #[name_localized("ja", "プッシュ")]
    Push,
    #[name = "jump"]
    #[name_localized("ja", "ジャンプ")]
    Jump,
    #[name = "skid"]
    #[name_localized("ja", "スキッド")]
    Skid,
}

pub fn cause(c: CauseChoice, amount: u32) -> CollisionCause {
    match c {
        CauseChoice::Push => CollisionCause::Push { mos: amount },
        CauseChoice::Jump => CollisionCause::Jump { dice: amount },
        CauseChoice::Skid => CollisionCause::Skid { distance: amount },
    }
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum TerrainChoice {
    #[name = "hardpack"]
    #[name_localized("ja", "舗装")]
    Hardpack,
    #[name = "normal"]
    #[name_localized("ja", "通常")]
    Normal,
    #[name = "rough"]
    #[name_localized("ja", "荒地")]
    Rough,
    #[name = "water"]
    #[name_localized("ja", "水")]
    Water,
}

impl From<TerrainChoice> for Terrain {
    fn from(t: TerrainChoice) -> Terrain {
        match t {
            TerrainChoice::Hardpack => Terrain::Hardpack,
            TerrainChoice::Normal => Terrain::Normal,
            TerrainChoice::Rough => Terrain::Rough,
            TerrainChoice::Water => Terrain::Water,
        }
    }
}

fn terrain(word: &str) -> Option<Terrain> {
    Some(match word {
        "h" | "hardpack" | "舗装" => Terrain::Hardpack,
        "n" | "normal" | "通常" => Terrain::Normal,
        "r" | "rough" | "荒地" => Terrain::Rough,
        "w" | "water" | "水" => Terrain::Water,
        "l1" | "level1" => Terrain::Level1,
        "l2" | "level2" => Terrain::Level2,
        "s" | "structure" | "建造物" => Terrain::Structure,
        _ => return None,
    })
}

/// A path such as `n n t r t t h -n`: one word per hex entered (h hardpack, n normal, r rough,
/// w water, or 舗装 通常 荒地 水; `-` in front: backwards), `t` or 向き (`2t`, `2向き`) for
/// hexside turns before the next hex, or after the last one. The word it cannot read is the
/// error.
pub fn parse_path(start: Terrain, path: &str) -> Result<MovePlan, String> {
    let mut plan = MovePlan {
        start,
        steps: Vec::new(),
        final_turns: 0,
    };
    let mut turns = 0u32;
    for word in path
        .split([' ', ',', '、', '　'])
        .map(str::trim)
        .filter(|w| !w.is_empty())
    {
        let w = word.to_lowercase();
        if let Some(n) = w.strip_suffix('t').or_else(|| w.strip_suffix("向き")) {
            let n = if n.is_empty() { Ok(1) } else { n.parse::<u32>() };
            match n {
                Ok(n) if n <= 6 => {
                    turns = turns.saturating_add(n);
                    continue;
                }
                _ => return Err(word.to_string()),
            }
        }
        let (backwards, name) = match w.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, w.as_str()),
        };
        let enter = terrain(name).ok_or_else(|| word.to_string())?;
        plan.steps.push(Step {
            turns,
            enter,
            backwards,
        });
        turns = 0;
    }
    plan.final_turns = turns;
    Ok(plan)
}

/// Move a gear along a path of hexes; the MR it costs is spent
#[poise::command(
    slash_command,
    rename = "move",
    name_localized("ja", "移動"),
    description_localized("ja", "ヘクスの経路に沿って移動し、かかるMRを消費")
)]
pub async fn rally_move(
    ctx: Context<'_>,
    #[description = "The gear"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "ギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
    #[description = "Hexes entered: h hardpack, n normal, r rough, w water; t = a turn; -n backwards"]
    #[name_localized("ja", "経路")]
    #[description_localized(
        "ja",
        "進入ヘクス：舗装・通常・荒地・水、「向き」で向き変更1回、前に - で後退（例: 通常 向き 荒地 -通常）"
    )]
    #[max_length = 600]
    path: String,
    #[description = "The hex the gear starts in (default normal)"]
    #[name_localized("ja", "開始地形")]
    #[description_localized("ja", "開始ヘクスの地形（既定は通常）")]
    start: Option<TerrainChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let start = start.map_or(Terrain::Normal, Terrain::from);
    let plan = parse_path(start, &path).map_err(|w| {
        inv.text(
            &format!("“{w}” is not a hex: use h, n, r, w (- in front for backwards) and t for a turn."),
            &format!(
                "「{w}」はヘクスではありません。舗装・通常・荒地・水（後退は前に -）、向き変更は 向き で。"
            ),
        )
    })?;
    let action = Action::Move(plan);
    let (roll, session, (id, report)) = store::run(ctx, &inv, &[&gear], &mut |s, race, roller| {
        let id = store::gear_name(s, &gear)?;
        let (after, report) = race.act(&id, &action, &mut &mut *roller).map_err(rule)?;
        Ok((after, (id, report)))
    })
    .await?;
    let title = format!("{} — {id}", inv.lang.pick("Move", "移動"));
    roll.answer(
        &inv,
        Some(&session),
        reply(ctx, &action_view(&title, &report, inv.lang)),
        &report,
    )
    .await?;
    Ok(())
}

/// A collision: damage for the gear forced into a gear or terrain (and for the gear it hit)
#[poise::command(
    slash_command,
    rename = "collide",
    name_localized("ja", "衝突"),
    description_localized("ja", "衝突：ギアか地形にぶつかったギア（とぶつけられたギア）のダメージ")
)]
pub async fn rally_collide(
    ctx: Context<'_>,
    #[description = "The gear that was forced to move"]
    #[name_localized("ja", "ギア")]
    #[description_localized("ja", "押し出されて動いたギア")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    gear: String,
    #[description = "What forced it: push, jump or skid"]
    #[name_localized("ja", "原因")]
    #[description_localized("ja", "原因：プッシュ、ジャンプ、スキッド")]
    cause: CauseChoice,
    #[description = "The push's MOS, the jump's dice, or the skid's hexes"]
    #[name_localized("ja", "値")]
    #[description_localized("ja", "プッシュのMOS、ジャンプのダイス数、スキッドのヘクス数")]
    #[min = 0]
    #[max = 60]
    amount: i64,
    #[description = "The gear it ran into (leave empty for terrain: 2D6)"]
    #[name_localized("ja", "相手")]
    #[description_localized("ja", "ぶつかったギア（地形なら空欄：2D6）")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    into: Option<String>,
    #[description = "The gear that forced it (the pusher): credited with the spin-outs (Derby)"]
    #[name_localized("ja", "原因ギア")]
    #[description_localized("ja", "押し出したギア：起きたスピンアウトの数が記録される（ダービー）")]
    #[autocomplete = "gear_autocomplete"]
    #[max_length = 64]
    by: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let amount = u32::try_from(amount.clamp(0, 60)).unwrap_or(0);
    let c = self::cause(cause, amount);
    let actor = inv.actor;
    let (roll, session, (m, st, report)) = store::run(ctx, &inv, &[], &mut |s, race, roller| {
        let m = store::gear_name(s, &gear)?;
        let st = into.as_deref().map(|n| store::gear_name(s, n)).transpose()?;
        let by = by.as_deref().map(|n| store::gear_name(s, n)).transpose()?;
        // The GM, or the player of one of the gears involved: the forced gear, the gear it ran
        // into, or the pusher credited with the spin-outs.
        let involved = [Some(&m), st.as_ref(), by.as_ref()];
        let mine = involved
            .iter()
            .flatten()
            .any(|n| store::ensure_may_act(s, actor, n).is_ok());
        if !mine {
            return Err(store::refusal(
                "Only the GM or the player of one of the gears in this collision may apply it.",
                "この衝突を適用できるのは、GMか関係するギアのプレイヤーだけです。",
            ));
        }
        let (after, report) = race
            .collide_by(&m, st.as_deref(), c, by.as_deref(), &mut &mut *roller)
            .map_err(rule)?;
        Ok((after, (m, st, report)))
    })
    .await?;
    let race = store::race_of(&session, store::options(&inv.settings));
    let status = |id: &str| race.gear(id).map(|g| g.status()).map_err(|e| inv.user_error(&e));
    let moving = status(&m)?;
    let struck = st.as_deref().map(status).transpose()?;
    let view = collision_view(
        &report,
        (&m, &moving),
        st.as_deref().zip(struck.as_ref()),
        inv.lang,
    );
    roll.answer(&inv, Some(&session), reply(ctx, &view), &report)
        .await?;
    Ok(())
}

/// Who has won: the first across the line, the Derby's sixth spin-out, or a contested check
#[poise::command(
    slash_command,
    rename = "victory",
    name_localized("ja", "勝敗"),
    description_localized("ja", "勝者：最初にゴールしたギア、ダービーの6回目、または僅差勝利の判定")
)]
pub async fn rally_victory(
    ctx: Context<'_>,
    #[description = "Track positions for ties, leader first: \"A, B\""]
    #[name_localized("ja", "順位")]
    #[description_localized("ja", "同値のときの位置：ギアの名前を先頭から「、」区切りで")]
    #[max_length = 1000]
    ahead: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (mut session, race) = store::read(ctx, &inv).await?;
    let victory = race.victory();
    let mut buttons = Vec::new();
    let contest = match &victory {
        Victory::Contested { ids } => {
            let typed: Vec<String> = ahead
                .as_deref()
                .unwrap_or("")
                .split([',', '、'])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            // Rolled once and kept with the race (Reliable rerolls it); asked again, the stored
            // check is shown.
            let (roll, saved, (out, offer)) = store::run(ctx, &inv, &[], &mut |s, race, roller| {
                let ahead = typed
                    .iter()
                    .map(|n| store::gear_name(s, n))
                    .collect::<Result<Vec<_>, SessionError>>()?;
                let out = match reliable::stored_contest(s, race, ids) {
                    Some(out) => out,
                    None => {
                        let out = race
                            .contested_victory(ids, &ahead, &mut &mut *roller)
                            .map_err(rule)?;
                        reliable::store_contest(s, race, ids, &out);
                        out
                    }
                };
                let offer = reliable::CheckOffer::new(&out, &ahead, race, race);
                Ok((race.clone(), (out, offer)))
            })
            .await?;
            session = saved;
            buttons = reliable::check_buttons(
                ctx.guild_id().map(|g| g.get()),
                ctx.channel_id().get(),
                &session,
                &offer,
                inv.lang,
            );
            Some((roll, out))
        }
        _ => None,
    };
    let view = victory_view(&victory, contest.as_ref().map(|(_, out)| out), inv.lang);
    match contest {
        Some((roll, out)) => answer_with(roll, &inv, Some(&session), &view, buttons, &out).await,
        // Nothing rolled: the victory is logged the way rolls are.
        None => {
            answer_with(
                CommandRoll::new(ctx),
                &inv,
                Some(&session),
                &view,
                buttons,
                &victory,
            )
            .await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_hexes_turns_and_backwards() {
        let p = parse_path(Terrain::Hardpack, "n 2t r, t -h t").unwrap();
        assert_eq!(p.start, Terrain::Hardpack);
        assert_eq!(p.steps.len(), 3);
        assert_eq!((p.steps[1].turns, p.steps[1].enter), (2, Terrain::Rough));
        assert!(p.steps[2].backwards && p.steps[2].turns == 1);
        assert_eq!(p.final_turns, 1);
        assert_eq!(parse_path(Terrain::Normal, "n x").unwrap_err(), "x");
        assert!(parse_path(Terrain::Normal, "9t").is_err());
        assert!(parse_path(Terrain::Normal, "").unwrap().steps.is_empty());
    }

    /// Issue 36: the path in the Japanese words the option's description shows reads as the
    /// letters do.
    #[test]
    fn paths_read_in_japanese_words() {
        let ja = parse_path(Terrain::Normal, "通常 2向き 荒地、向き -舗装 向き").unwrap();
        let en = parse_path(Terrain::Normal, "n 2t r t -h t").unwrap();
        assert_eq!(ja, en);
        assert_eq!(parse_path(Terrain::Normal, "通常 向こう").unwrap_err(), "向こう");
    }
}

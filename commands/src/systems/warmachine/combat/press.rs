//! The buttons after a hit: "Roll damage" / "Boosted damage", then "Apply damage".

use engine::i18n::Lang;
use engine::systems::warmachine::dice::DiceRequest;
use engine::systems::warmachine::{DamageRequest, ModelStatus};
use serenity::all::{CreateActionRow, CreateButton, CreateEmbed, CreateInteractionResponseMessage};

use super::apply_button;
use super::damage::{Landing, damage_step, marked};
use crate::BotError;
use crate::press::{Answer, Press, PressLog, PressReply, Shown};
use crate::systems::warmachine::embeds as view;
use crate::systems::warmachine::press_data::{ApplyPress, BOOST, DamagePress};
use crate::systems::warmachine::store::{self, Game, model, raw_model, rule, say};

/// The press's reply: the message as it was, with `embed` added and `buttons` in place of the
/// pressed ones.
fn updated(p: &Press<'_>, embed: CreateEmbed, buttons: Vec<CreateButton>) -> Shown {
    let mut embeds: Vec<CreateEmbed> = p
        .interaction
        .message
        .embeds
        .iter()
        .take(9)
        .cloned()
        .map(CreateEmbed::from)
        .collect();
    embeds.push(embed);
    let rows = if buttons.is_empty() {
        vec![]
    } else {
        vec![CreateActionRow::Buttons(buttons)]
    };
    Shown::Update(
        CreateInteractionResponseMessage::new()
            .embeds(embeds)
            .components(rows),
    )
}

/// "Roll damage" / "Boosted damage" after a hit.
pub async fn damage_press(p: &Press<'_>, answer: Answer<'_>, d: DamagePress) -> Result<PressReply, BotError> {
    let lang = p.lang;
    let rolling = answer.roll();
    let boosted = p.variant.as_deref() == Some(BOOST);
    let req = DamageRequest {
        pow: d.pow.clone(),
        modifier: 0,
        dice: DiceRequest {
            boost: boosted,
            ..DiceRequest::default()
        },
    };
    let (o, landing, session) = match d.session {
        Some(sid) => {
            let (_, (o, landing)) = store::run_press(p, Some(&rolling), sid, &mut |_s, game, r| {
                let a = match &d.attacker {
                    Some(n) => model(game, n)?.clone(),
                    None => raw_model("", 0, 0, 0),
                };
                damage_step(game, &req, &a, d.target.as_deref(), d.arm, true, r)
            })
            .await?;
            (o, landing, Some(sid))
        }
        None => {
            let a = raw_model("", 0, 0, 0);
            let mut g = Game {
                state: Default::default(),
                models: Default::default(),
            };
            let (o, landing) = rolling
                .dice()
                .with(|r| damage_step(&mut g, &req, &a, None, d.arm, true, r))
                .map_err(|e| say(&e, lang))?;
            (o, landing, None)
        }
    };
    let command = if boosted {
        "/wm boosted damage"
    } else {
        "/wm damage"
    };
    let log = match session {
        Some(session) => PressLog::new(session, command, &o),
        None => PressLog::outside_session(command, &o),
    };
    let mut buttons = vec![];
    if let (Landing::Later(name), Some(sid)) = (&landing, session) {
        let press = ApplyPress {
            session: sid,
            target: name.clone(),
            damage: o.damage,
        };
        buttons = apply_button(
            p.data,
            p.interaction.guild_id.map(|g| g.get()),
            p.interaction.channel_id.get(),
            p.action.owner,
            press,
            lang,
        )
        .await;
    }
    let mut v = view::damage_view(&o, marked(&landing), d.active.as_deref(), lang);
    if boosted {
        v.title.push_str(lang.pick(" (boosted)", "（ブースト）"));
    }
    Ok(rolling.show(updated(p, v.to_embed(), buttons), log))
}

/// The applied damage as the press shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Applied {
    pub target: String,
    pub damage: u32,
    pub boxes_before: engine::systems::warmachine::model::Boxes,
    pub boxes_after: engine::systems::warmachine::model::Boxes,
    pub status_after: ModelStatus,
    pub destroyed_by_hit: bool,
}

/// "Apply damage": mark damage rolled earlier on the target as it is now.
pub async fn apply_press(p: &Press<'_>, answer: Answer<'_>, a: ApplyPress) -> Result<PressReply, BotError> {
    let lang = p.lang;
    let (_, done) = store::run_press(p, None, a.session, &mut |_s, game, _r| {
        let m = game.models.get_mut(&a.target).ok_or_else(|| {
            rule(engine::systems::warmachine::RuleError::UnknownModel {
                name: a.target.clone(),
            })
        })?;
        m.alive().map_err(rule)?;
        let before = m.boxes();
        let destroyed_by_hit = m.take_hit(a.damage);
        Ok(Applied {
            target: a.target.clone(),
            damage: a.damage,
            boxes_before: before,
            boxes_after: m.boxes(),
            status_after: m.status,
            destroyed_by_hit,
        })
    })
    .await?;
    let log = PressLog::new(a.session, "/wm apply damage", &done);
    let mut text = format!(
        "{} {} → {}",
        done.target,
        view::boxes_text(done.boxes_before),
        view::boxes_text(done.boxes_after)
    );
    if let Some(b) = view::status_badge(done.status_after, lang) {
        text.push_str(&format!(" · {b}"));
    }
    let embed = CreateEmbed::new()
        .title(match lang {
            Lang::En => format!("✅ Damage applied: {}", done.damage),
            Lang::Ja => format!("✅ ダメージ適用：{}", done.damage),
        })
        .description(text)
        .colour(crate::embeds::colour::FAILURE);
    Ok(answer.show_logged(updated(p, embed, vec![]), log))
}

//! `/char`: the session's roster — characters or gear with typed stats that the session's
//! system validates (`stats:"body=4 agility=5 …"`), and their effects.

use engine::i18n::Lang;
use engine::session::{Effect, EntryEdit, RosterEntry, SessionError};
use engine::systems::sheet::{
    SheetError, describe_sheet, edit_entry_in_session, gm_only_fields, parse_fields,
};
use poise::CreateReply;
use serenity::all::User;

use crate::embeds::markdown::escape;
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Characters and gear in this session
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "キャラ"),
    description_localized("ja", "このセッションのキャラクター・機体"),
    subcommands(
        "add",
        "edit",
        "show",
        "remove",
        "effect",
        "super::char_files::export",
        "super::char_files::import"
    )
)]
pub async fn char(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

pub use crate::autocomplete::{autocomplete_entry, entry_names};

/// Autocomplete of the session system's models (its registry entry's sheet choices: the rally's
/// datacards).
pub async fn autocomplete_model(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::all::CreateAutocompleteResponse {
    let lang = ctx.locale().map_or(Lang::En, Lang::from_locale);
    let system = ctx
        .data()
        .store
        .shared_session(ctx.channel_id().get())
        .await
        .ok()
        .flatten()
        .map(|s| s.system);
    let choices = system.map_or_else(Vec::new, |s| crate::systems::bot(s).sheet_choices(partial, lang));
    let choices = choices
        .into_iter()
        .take(25)
        .map(|(label, key)| serenity::all::AutocompleteChoice::new(label, key))
        .collect();
    serenity::all::CreateAutocompleteResponse::new().set_choices(choices)
}

fn sheet_error(e: SheetError) -> SessionError {
    SessionError::Rule { en: e.en, ja: e.ja }
}

fn entry_view(system: engine::session::SystemId, e: &RosterEntry, lang: Lang) -> EmbedView {
    let mut fields: Vec<(String, String, bool)> = describe_sheet(system, &e.sheet, lang)
        .into_iter()
        .map(|(k, v)| (k, v, true))
        .collect();
    if !e.effects.is_empty() {
        let fx: Vec<String> = e
            .effects
            .iter()
            .map(|f| {
                let mut s = f.name.clone();
                if let Some(r) = f.rounds {
                    s.push_str(&format!(" ({r})"));
                }
                if !f.note.is_empty() {
                    s.push_str(&format!(": {}", f.note));
                }
                s
            })
            .collect();
        fields.push((lang.pick("Effects", "効果").into(), fx.join("\n"), false));
    }
    EmbedView {
        title: e.name.clone(),
        description: format!(
            "{} <@{}> · {}",
            lang.pick("Owner", "所有者"),
            e.owner,
            system.display_name(lang)
        ),
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

async fn show_entry(
    ctx: Context<'_>,
    inv: &Invocation,
    session: &engine::session::Session,
    name: &str,
) -> Result<(), BotError> {
    let entry = session.entry(name).ok_or_else(|| {
        inv.user_error(&SessionError::UnknownEntry {
            name: name.to_string(),
        })
    })?;
    crate::reply::send(
        ctx,
        CreateReply::default().embed(entry_view(session.system, entry, inv.lang).to_embed()),
    )
    .await?;
    Ok(())
}

/// Add a character or gear (its stats as name=value)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "追加"),
    description_localized("ja", "キャラクター・機体を追加（シートは 項目名=値）")
)]
pub async fn add(
    ctx: Context<'_>,
    #[description = "Name"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "名前")]
    #[max_length = 64]
    name: String,
    #[description = "The sheet as name=value (each system's fields: /help)"]
    #[name_localized("ja", "シート")]
    #[description_localized("ja", "シート（項目名=値。項目は /ヘルプ の各システムのページ）")]
    #[max_length = 1500]
    #[autocomplete = "crate::autocomplete::autocomplete_stats"]
    stats: Option<String>,
    #[description = "Model or datacard, where the system has them (autocompletes)"]
    #[name_localized("ja", "機種")]
    #[description_localized("ja", "機種・データカード（システムにある場合、候補表示）")]
    #[max_length = 64]
    #[autocomplete = "autocomplete_model"]
    model: Option<String>,
    #[description = "Who plays it (default: you; the GM may choose anyone)"]
    #[name_localized("ja", "所有者")]
    #[description_localized("ja", "操作するプレイヤー（既定: あなた）")]
    owner: Option<User>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = inv.session(ctx).await?;
    let mut fields = parse_fields(stats.as_deref().unwrap_or("")).map_err(|e| inv.user_error(&e))?;
    if let Some(m) = model.filter(|m| !m.trim().is_empty())
        && !fields.iter().any(|(k, _)| k == "model")
    {
        fields.insert(0, ("model".into(), m.trim().to_string()));
    }
    // The session's own presets count (Terminator's session profiles and weapons).
    let empty = serde_json::Value::Object(serde_json::Map::new());
    let sheet = edit_entry_in_session(
        session.system,
        name.trim(),
        &empty,
        &fields,
        true,
        &session.system_state,
    )
    .map_err(|e| inv.user_error(&e))?;
    let owner_name = owner.as_ref().map(|u| (u.id.get(), u.display_name().to_string()));
    let entry = RosterEntry::new(name.trim(), owner.map_or(inv.user, |u| u.id.get())).with_sheet(sheet);
    let actor = inv.actor;
    let saved = inv
        .update(ctx, |s| {
            s.add_entry(actor, entry.clone())?;
            if let Some((id, name)) = &owner_name {
                s.saw(*id, name);
            }
            Ok(())
        })
        .await?;
    show_entry(ctx, &inv, &saved, name.trim()).await
}

/// Change a character's stats (name=value; an empty value removes a field) or name
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "編集"),
    description_localized("ja", "シートの項目（項目名=値、空で削除）や名前を変更")
)]
pub async fn edit(
    ctx: Context<'_>,
    #[description = "Character"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "キャラクター")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    name: String,
    #[description = "Fields to change as name=value (an empty value removes one)"]
    #[name_localized("ja", "シート")]
    #[description_localized("ja", "変更するシートの項目（項目名=値、空の値で削除）")]
    #[max_length = 1500]
    #[autocomplete = "crate::autocomplete::autocomplete_stats"]
    stats: Option<String>,
    #[description = "New name"]
    #[name_localized("ja", "新しい名前")]
    #[description_localized("ja", "新しい名前")]
    #[max_length = 64]
    rename: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let fields = parse_fields(stats.as_deref().unwrap_or("")).map_err(|e| inv.user_error(&e))?;
    if fields.is_empty() && rename.is_none() {
        return Err(inv.text(
            "Nothing to change: give stats or rename.",
            "変更内容がありません（変更する項目か新しい名前を指定してください）。",
        ));
    }
    let actor = inv.actor;
    let rename = rename.map(|r| r.trim().to_string());
    // The sheet edit runs inside the transaction, on the sheet as stored now, so two
    // concurrent edits of different fields both land.
    let saved = inv
        .update(ctx, |s| {
            let system = s.system;
            let current = s
                .entry(&name)
                .ok_or_else(|| SessionError::UnknownEntry { name: name.clone() })?;
            let gm = s.may_manage(actor);
            let locked = gm_only_fields(system, &fields);
            if !locked.is_empty() && !gm {
                let list = locked.join(", ");
                return Err(SessionError::Rule {
                    en: format!("Only the GM may change {list}."),
                    ja: format!("{list} を変更できるのはGMだけです。"),
                });
            }
            let sheet = if fields.is_empty() {
                None
            } else {
                Some(
                    edit_entry_in_session(
                        system,
                        &current.name,
                        &current.sheet,
                        &fields,
                        gm,
                        &s.system_state,
                    )
                    .map_err(sheet_error)?,
                )
            };
            s.edit_entry(
                actor,
                &name,
                EntryEdit {
                    rename: rename.clone(),
                    sheet,
                    ..Default::default()
                },
            )
        })
        .await?;
    show_entry(ctx, &inv, &saved, rename.as_deref().unwrap_or(&name)).await
}

/// Show a character's sheet and state
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "表示"),
    description_localized("ja", "キャラクターのシートと状態を表示")
)]
pub async fn show(
    ctx: Context<'_>,
    #[description = "Character"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "キャラクター")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    name: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = inv.session(ctx).await?;
    show_entry(ctx, &inv, &session, &name).await
}

/// Remove a character from the roster
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "削除"),
    description_localized("ja", "キャラクターをロスターから削除")
)]
pub async fn remove(
    ctx: Context<'_>,
    #[description = "Character"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "キャラクター")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    name: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let actor = inv.actor;
    let mut removed = None;
    inv.update(ctx, |s| {
        removed = Some(s.remove_entry(actor, &name)?);
        Ok(())
    })
    .await?;
    let name = removed.map_or(name, |e| e.name);
    let text = match inv.lang {
        Lang::En => format!("Removed {}.", escape(&name)),
        Lang::Ja => format!("{} を削除しました。", escape(&name)),
    };
    crate::reply::send(ctx, CreateReply::default().content(text)).await?;
    Ok(())
}

/// Add or clear an effect on a character (e.g. Stunned for 2 rounds)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "効果"),
    description_localized("ja", "キャラクターの効果を付ける・外す")
)]
pub async fn effect(
    ctx: Context<'_>,
    #[description = "Character"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "キャラクター")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    name: String,
    #[description = "Effect"]
    #[name_localized("ja", "効果")]
    #[description_localized("ja", "効果名")]
    #[max_length = 64]
    effect: String,
    #[description = "Rounds it lasts"]
    #[name_localized("ja", "ラウンド")]
    #[description_localized("ja", "持続ラウンド数")]
    #[min = 1]
    #[max = 99]
    rounds: Option<u32>,
    #[description = "A note"]
    #[name_localized("ja", "メモ")]
    #[description_localized("ja", "メモ")]
    #[max_length = 200]
    note: Option<String>,
    #[description = "Remove this effect instead"]
    #[name_localized("ja", "外す")]
    #[description_localized("ja", "この効果を外す")]
    clear: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let actor = inv.actor;
    let effect = effect.trim().to_string();
    let clear = clear.unwrap_or(false);
    let saved = inv
        .update(ctx, |s| {
            let current = s
                .entry(&name)
                .ok_or_else(|| SessionError::UnknownEntry { name: name.clone() })?;
            let mut effects: Vec<Effect> = current
                .effects
                .iter()
                .filter(|f| !f.name.eq_ignore_ascii_case(&effect))
                .cloned()
                .collect();
            if !clear {
                effects.push(Effect {
                    name: effect.clone(),
                    note: note.clone().unwrap_or_default(),
                    rounds,
                });
            }
            s.edit_entry(
                actor,
                &name,
                EntryEdit {
                    effects: Some(effects),
                    ..Default::default()
                },
            )
        })
        .await?;
    show_entry(ctx, &inv, &saved, &name).await
}

//! `/char export` and `/char import`: characters as text files (issue 27), in the format the
//! engine defines once (`engine::systems::sheet_file`): one sheet, or a roster of sheets
//! separated by `---` lines.

use std::time::Duration;

use engine::i18n::{Lang, Localized};
use engine::session::{EntryEdit, RosterEntry, SessionError};
use engine::systems::sheet_file::{FORMAT, Imported, MAX_ROSTER_BYTES, export_roster, import_roster};
use poise::CreateReply;
use serenity::all::{Attachment, CreateAttachment, User};

use crate::embeds::markdown::escape;
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// How long a download may take before the import gives up.
const DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(10);
/// What `name:` takes to export the whole roster (besides leaving it out).
const ALL: [&str; 2] = ["all", "全員"];

/// A file name from a character's name: letters, digits, `-` and `_` kept, the rest `_`.
fn file_stem(name: &str) -> String {
    let stem: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(48)
        .collect();
    if stem.trim_matches('_').is_empty() {
        "character".into()
    } else {
        stem
    }
}

/// Export a character's sheet as a file (no name: the whole roster)
// Anyone in the channel may export: every field of a sheet is already shown to everyone by
// `/char show` (GM-only fields restrict who may *change* them, not who may read them), so a
// file tells nobody anything new.
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "書き出し"),
    description_localized("ja", "キャラクターのシートをファイルに書き出す（名前なし: 全員）")
)]
pub async fn export(
    ctx: Context<'_>,
    #[description = "Character (empty or all: the whole roster)"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "キャラクター（空欄か「全員」で全員）")]
    #[autocomplete = "crate::autocomplete::autocomplete_entry"]
    #[max_length = 64]
    name: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = inv.session(ctx).await?;
    let system = session.system;
    let one = name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty() && !ALL.iter().any(|a| n.eq_ignore_ascii_case(a)));
    let entries: Vec<&RosterEntry> = match one {
        Some(n) => vec![
            session
                .entry(n)
                .ok_or_else(|| inv.user_error(&SessionError::UnknownEntry { name: n.to_string() }))?,
        ],
        None => session.roster.iter().collect(),
    };
    if entries.is_empty() {
        return Err(inv.text(
            "The roster is empty: nothing to export.",
            "ロスターが空なので、書き出すものがありません。",
        ));
    }
    let text = export_roster(system, entries.iter().map(|e| (e.name.as_str(), e.sheet.value())));
    if text.len() > MAX_ROSTER_BYTES {
        return Err(inv.text(
            "The roster is too large for one file: export the characters one by one.",
            "ロスターが大きすぎて1つのファイルにできません。1人ずつ書き出してください。",
        ));
    }
    let (file, title) = match one {
        Some(_) => (
            format!("{}.saikoro.txt", file_stem(&entries[0].name)),
            entries[0].name.clone(),
        ),
        None => (
            format!("{}-roster.saikoro.txt", file_stem(&session.name)),
            session.name.clone(),
        ),
    };
    let count = entries.len();
    let view = EmbedView {
        title,
        description: match inv.lang {
            Lang::En => format!(
                "{} sheet file{} · {} · format {FORMAT}. Edit it by hand if you like; `/char import` reads it back here or in another server.",
                count,
                if count == 1 { "" } else { "s" },
                system.display_name(inv.lang)
            ),
            Lang::Ja => format!(
                "シート{count}枚のファイル · {} · 形式 {FORMAT}。手で編集できます。`/char import` でこのサーバーや別のサーバーに読み込めます。",
                system.display_name(inv.lang)
            ),
        },
        colour: colour::NEUTRAL,
        fields: Vec::new(),
        footer: None,
    };
    crate::reply::send(
        ctx,
        CreateReply::default()
            .embed(view.to_embed())
            .attachment(CreateAttachment::bytes(text.into_bytes(), file)),
    )
    .await?;
    Ok(())
}

/// Why a download did not give a file's text.
enum Fetch {
    TooBig,
    Failed(String),
}

/// The attachment's bytes, reading at most `limit` of them whatever its declared size said.
async fn download(url: &str, limit: usize) -> Result<Vec<u8>, Fetch> {
    let read = async {
        let mut response = reqwest::get(url)
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| Fetch::Failed(e.to_string()))?;
        let mut bytes = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| Fetch::Failed(e.to_string()))? {
            if bytes.len() + chunk.len() > limit {
                return Err(Fetch::TooBig);
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    };
    tokio::time::timeout(DOWNLOAD_TIMEOUT, read)
        .await
        .unwrap_or_else(|_| Err(Fetch::Failed("timed out".into())))
}

fn too_big(inv: &Invocation) -> BotError {
    let kb = MAX_ROSTER_BYTES / 1024;
    BotError::User(match inv.lang {
        Lang::En => {
            format!("That file is larger than any sheet or roster could be (at most {kb} KB): not read.")
        }
        Lang::Ja => {
            format!("このファイルはシートやロスターより大きすぎます（{kb}KBまで）。読み込みませんでした。")
        }
    })
}

/// Import characters from a sheet file (one sheet or a roster)
// An import is `/char add` from a file, with its rights: players import characters they own,
// the GM (or Manage Server) for anyone. Every character goes in one transaction, or none does.
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "読み込み"),
    description_localized("ja", "シートのファイルからキャラクターを読み込む（1枚かロスター）")
)]
pub async fn import(
    ctx: Context<'_>,
    #[description = "A file from /char export"]
    #[name_localized("ja", "ファイル")]
    #[description_localized("ja", "/キャラ 書き出し のファイル")]
    file: Attachment,
    #[description = "Who plays them (default: you; the GM may choose anyone)"]
    #[name_localized("ja", "所有者")]
    #[description_localized("ja", "操作するプレイヤー（既定: あなた）")]
    owner: Option<User>,
    #[description = "Overwrite characters of the same name (default: refuse)"]
    #[name_localized("ja", "上書き")]
    #[description_localized("ja", "同名のキャラクターを上書き（既定: しない）")]
    replace: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    // The declared size first: a file too big is never downloaded.
    if file.size as usize > MAX_ROSTER_BYTES {
        return Err(too_big(&inv));
    }
    let session = inv.session(ctx).await?;
    let bytes = match download(&file.url, MAX_ROSTER_BYTES).await {
        Ok(b) => b,
        Err(Fetch::TooBig) => return Err(too_big(&inv)),
        Err(Fetch::Failed(why)) => {
            tracing::warn!("attachment download failed: {why}");
            return Err(inv.text(
                "The file could not be downloaded from Discord; try again.",
                "Discordからファイルを取得できませんでした。もう一度お試しください。",
            ));
        }
    };
    let text = String::from_utf8(bytes).map_err(|_| {
        inv.text(
            "This is not a Saikoro sheet file (not text).",
            "Saikoroのシートファイルではありません（テキストではありません）。",
        )
    })?;
    let read = import_roster(&text, Some(session.system)).map_err(|e| inv.user_error(&e))?;
    let chosen = owner.map(|u| u.id.get());
    let replace = replace.unwrap_or(false);
    let actor = inv.actor;
    let saved = inv
        .update(ctx, |s| add_all(s, actor, &read, chosen, replace))
        .await?;
    let owner = chosen.unwrap_or(inv.user);
    let names: Vec<String> = read
        .iter()
        .filter_map(|r| r.name.as_deref())
        .filter_map(|n| saved.entry(n))
        .map(|e| escape(&e.name))
        .collect();
    let view = EmbedView {
        title: match inv.lang {
            Lang::En => format!("Imported {}", names.len()),
            Lang::Ja => format!("{}人を読み込みました", names.len()),
        },
        description: format!(
            "{} · {} <@{owner}>\n{}",
            saved.system.display_name(inv.lang),
            inv.lang.pick("Owner", "所有者"),
            names.join(", ")
        ),
        colour: colour::NEUTRAL,
        fields: Vec::new(),
        footer: None,
    };
    crate::reply::send(ctx, CreateReply::default().embed(view.to_embed())).await?;
    Ok(())
}

/// Every imported character added to the session (or, with `replace`, laid over the entry of
/// the same name), or the first refusal, naming the character: the store then saves nothing.
/// `chosen`: the `owner:` given (new characters are otherwise the importer's; a replaced one
/// keeps its owner).
fn add_all(
    s: &mut engine::session::Session,
    actor: engine::session::Actor,
    read: &[Imported],
    chosen: Option<u64>,
    replace: bool,
) -> Result<(), SessionError> {
    for one in read {
        let name = one.name.as_deref().unwrap_or_default().trim().to_string();
        let named = |e: SessionError| {
            // A name taken: say how to overwrite it.
            let (en, ja) = match e {
                SessionError::DuplicateEntry { .. } => (
                    " (replace:true overwrites it)",
                    "（replace:true で上書きできます）",
                ),
                _ => ("", ""),
            };
            SessionError::Rule {
                en: format!("{name}: {}{en}", e.localized(Lang::En)),
                ja: format!("{name}: {}{ja}", e.localized(Lang::Ja)),
            }
        };
        if replace && s.entry(&name).is_some() {
            let hand_on = chosen.filter(|o| s.entry(&name).map(|e| e.owner) != Some(*o));
            s.edit_entry(
                actor,
                &name,
                EntryEdit {
                    sheet: Some(one.sheet.clone()),
                    owner: hand_on,
                    ..Default::default()
                },
            )
            .map_err(named)?;
        } else {
            let owner = chosen.unwrap_or(actor.user);
            s.add_entry(
                actor,
                RosterEntry::new(name.clone(), owner).with_sheet(one.sheet.clone()),
            )
            .map_err(named)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_letters_and_digits() {
        assert_eq!(file_stem("Ana"), "Ana");
        assert_eq!(file_stem("T-800 #2"), "T-800__2");
        assert_eq!(file_stem("ザク改"), "ザク改");
        assert_eq!(file_stem("../.."), "character");
    }

    #[test]
    fn a_file_name_is_never_a_path() {
        assert_eq!(file_stem("a/b\\c"), "a_b_c");
    }
}

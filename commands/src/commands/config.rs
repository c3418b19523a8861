//! `/config`: what server admins decide — language, enabled systems, a channel's system and
//! visibility, the GM role, where secret rolls go. Manage Server only (and hidden from others
//! through `default_member_permissions`).

use engine::i18n::Lang;
use engine::session::{ChannelSettings, SecretRolls, ServerSettings, SystemId, Visibility};
use engine::systems::rules::HouseOption;
use poise::CreateReply;
use serenity::all::{ChannelId, CommandDataOption, CommandDataOptionValue, Permissions, RoleId};

use super::system_choice::SystemChoice;
use crate::embeds::{EmbedView, colour};
use crate::invocation::{Invocation, store_error};
use crate::{BotError, Context, registration};

/// Server settings (Manage Server)
#[poise::command(
    slash_command,
    guild_only,
    default_member_permissions = "MANAGE_GUILD",
    name_localized("ja", "設定"),
    description_localized("ja", "サーバー設定（サーバー管理権限）"),
    subcommands("show", "language", "systems", "channel", "gm_role", "secret_rolls", "option")
)]
pub async fn config(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum LanguageChoice {
    #[name = "Each user's Discord language"]
    #[name_localized("ja", "各ユーザーのDiscordの言語")]
    Auto,
    #[name = "日本語"]
    Japanese,
    #[name = "English"]
    English,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum VisibilityChoice {
    #[name = "Public"]
    #[name_localized("ja", "公開")]
    Public,
    #[name = "Secret (results to the roller and the GM)"]
    #[name_localized("ja", "シークレット（本人とGMのみ）")]
    Secret,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum SecretRouting {
    #[name = "DM to the GM"]
    #[name_localized("ja", "GMへのDM")]
    Dm,
    #[name = "A GM channel"]
    #[name_localized("ja", "GMチャンネル")]
    GmChannel,
}

/// Manage Server (or Administrator), from the interaction's resolved member permissions.
fn require_manager(ctx: Context<'_>, inv: &Invocation) -> Result<u64, BotError> {
    let guild = inv.require_guild()?;
    let poise::Context::Application(app) = ctx else {
        return Err(denied(inv));
    };
    let ok = app
        .interaction
        .member
        .as_ref()
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD) || p.administrator());
    if ok { Ok(guild) } else { Err(denied(inv)) }
}

fn denied(inv: &Invocation) -> BotError {
    inv.text(
        "Only members with Manage Server can change settings.",
        "設定を変更できるのはサーバー管理権限を持つメンバーだけです。",
    )
}

/// Settings need to be readable before they are changed: an outage must not reset them.
fn loaded(inv: &Invocation) -> Result<ServerSettings, BotError> {
    if inv.settings_loaded {
        Ok(inv.settings.clone())
    } else {
        Err(store_error(
            crate::store::StoreError::Unavailable("settings not loaded".into()),
            inv.lang,
        ))
    }
}

/// Change the server's settings in one store transaction (concurrent admins never clobber).
async fn update(
    ctx: Context<'_>,
    inv: &Invocation,
    guild: u64,
    mut edit: impl FnMut(&mut ServerSettings) + Send,
) -> Result<ServerSettings, BotError> {
    let mut apply = |s: &mut ServerSettings| {
        edit(s);
        Ok(())
    };
    ctx.data()
        .store
        .update_server_settings(guild, &mut apply)
        .await
        .map_err(|e| settings_error(e, inv))
}

/// A store failure of a settings change: a conflict is the settings row held by another change
/// (a settings change has no session to have "changed meanwhile").
fn settings_error(e: crate::store::StoreError, inv: &Invocation) -> BotError {
    match e {
        crate::store::StoreError::Conflict => inv.text(
            "The server's settings were being changed by someone else at the same moment, so \
             nothing was changed; please try again.",
            "サーバー設定が同時に別の操作で変更されていたため、何も変更していません。もう一度お試しください。",
        ),
        other => store_error(other, inv.lang),
    }
}

fn settings_view(settings: &ServerSettings, channel: Option<&ChannelSettings>, lang: Lang) -> EmbedView {
    let language = match settings.language {
        None => lang.pick("each user's own", "各ユーザーの言語"),
        Some(Lang::Ja) => "日本語",
        Some(Lang::En) => "English",
    };
    let systems: Vec<&str> = SystemId::ALL
        .iter()
        .map(|s| {
            if settings.is_enabled(*s) {
                s.display_name(lang)
            } else {
                ""
            }
        })
        .filter(|s| !s.is_empty())
        .collect();
    let gm_role = settings
        .gm_role
        .map_or_else(|| lang.pick("none", "なし").to_string(), |r| format!("<@&{r}>"));
    let secret = match settings.secret_rolls {
        SecretRolls::Dm => lang
            .pick("DM to the session's GM", "セッションのGMへDM")
            .to_string(),
        SecretRolls::GmChannel { channel } => format!("<#{channel}>"),
    };
    let mut fields = vec![
        (
            lang.pick("Language", "言語").to_string(),
            language.to_string(),
            true,
        ),
        (lang.pick("GM role", "GMロール").to_string(), gm_role, true),
        (
            lang.pick("Secret rolls", "シークレットダイス").to_string(),
            secret,
            true,
        ),
        (
            lang.pick("Enabled systems", "有効なシステム").to_string(),
            if systems.is_empty() {
                lang.pick("none", "なし").to_string()
            } else {
                systems.join(", ")
            },
            false,
        ),
    ];
    // The enabled systems' house options, each with its value here (or its default): a field
    // per system, so no one field outgrows Discord's 1,024 characters as systems add options.
    // A disabled system's options are still set by `/config option`; they show when it is on.
    for id in SystemId::ALL.into_iter().filter(|s| settings.is_enabled(*s)) {
        let options: Vec<String> = id
            .rules()
            .house_options()
            .iter()
            .map(|o| {
                let value = o.value_in(&settings.house);
                format!("`{}` = `{value}` — {}", o.key, o.describe(lang))
            })
            .collect();
        if !options.is_empty() {
            fields.push((
                format!(
                    "{} · {}",
                    lang.pick("House options", "ハウスルール"),
                    id.display_name(lang)
                ),
                options.join("\n"),
                false,
            ));
        }
    }
    if let Some(c) = channel {
        let sys = c.system.map_or_else(
            || lang.pick("none", "なし").to_string(),
            |s| s.display_name(lang).to_string(),
        );
        let vis = match c.visibility {
            Visibility::Public => lang.pick("public", "公開"),
            Visibility::Secret => lang.pick("secret", "シークレット"),
        };
        fields.push((
            lang.pick("This channel", "このチャンネル").to_string(),
            format!("{sys} · {vis}"),
            false,
        ));
    }
    EmbedView {
        title: lang.pick("⚙️ Server settings", "⚙️ サーバー設定").into(),
        colour: colour::NEUTRAL,
        fields,
        ..Default::default()
    }
}

async fn show_settings(
    ctx: Context<'_>,
    inv: &Invocation,
    settings: &ServerSettings,
) -> Result<(), BotError> {
    let channel = ctx
        .data()
        .store
        .channel_settings(inv.channel)
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    let view = settings_view(settings, channel.as_ref(), inv.lang);
    crate::reply::send(ctx, CreateReply::default().embed(view.to_embed()).ephemeral(true)).await?;
    Ok(())
}

/// Show the settings
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "表示"),
    description_localized("ja", "設定を表示")
)]
pub async fn show(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    // Only looking: the refusal says who may look, not who may change (the member changes
    // nothing here).
    require_manager(ctx, &inv).map_err(|_| {
        inv.text(
            "The server's settings are shown only to members with Manage Server.",
            "サーバー設定を表示できるのはサーバー管理権限を持つメンバーだけです。",
        )
    })?;
    let settings = loaded(&inv)?;
    show_settings(ctx, &inv, &settings).await
}

/// The language the bot answers in
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "言語"),
    description_localized("ja", "ボットが答える言語")
)]
pub async fn language(
    ctx: Context<'_>,
    #[description = "Language"]
    #[name_localized("ja", "言語")]
    #[description_localized("ja", "言語")]
    language: LanguageChoice,
) -> Result<(), BotError> {
    let mut inv = Invocation::load(ctx).await;
    let guild = require_manager(ctx, &inv)?;
    let language = match language {
        LanguageChoice::Auto => None,
        LanguageChoice::Japanese => Some(Lang::Ja),
        LanguageChoice::English => Some(Lang::En),
    };
    let settings = update(ctx, &inv, guild, |s| s.language = language).await?;
    if let Some(l) = settings.language {
        inv.lang = l;
    }
    show_settings(ctx, &inv, &settings).await
}

/// Turn a system's commands on or off on this server
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "システム"),
    description_localized("ja", "システムのコマンドを有効・無効にする")
)]
pub async fn systems(
    ctx: Context<'_>,
    #[description = "System"]
    #[name_localized("ja", "システム")]
    #[description_localized("ja", "システム")]
    system: SystemChoice,
    #[description = "Enabled"]
    #[name_localized("ja", "有効")]
    #[description_localized("ja", "有効にする")]
    enabled: bool,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let guild = require_manager(ctx, &inv)?;
    let system = SystemId::from(system);
    let settings = update(ctx, &inv, guild, |s| {
        if enabled {
            s.enabled_systems.insert(system);
        } else {
            s.enabled_systems.remove(&system);
        }
    })
    .await?;
    // The server's command list follows, so disabled systems disappear from it.
    registration::register_guild(ctx.http(), &ctx.framework().options().commands, guild, &settings).await?;
    show_settings(ctx, &inv, &settings).await
}

/// This channel's system and default visibility
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "チャンネル"),
    description_localized("ja", "このチャンネルのシステムと既定の公開範囲")
)]
pub async fn channel(
    ctx: Context<'_>,
    #[description = "System played here"]
    #[name_localized("ja", "システム")]
    #[description_localized("ja", "このチャンネルのシステム")]
    system: Option<SystemChoice>,
    #[description = "Who sees /roll results by default"]
    #[name_localized("ja", "公開範囲")]
    #[description_localized("ja", "/ダイス の結果を誰が見るか")]
    visibility: Option<VisibilityChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let guild = require_manager(ctx, &inv)?;
    let settings = loaded(&inv)?;
    let system = system.map(SystemId::from);
    if let Some(s) = system {
        inv.require_system(s)?;
    }
    let visibility = visibility.map(|v| match v {
        VisibilityChoice::Public => Visibility::Public,
        VisibilityChoice::Secret => Visibility::Secret,
    });
    // Read, change and write in one transaction: an admin changing the visibility while another
    // changes the system keeps both.
    let mut edit = |ch: &mut ChannelSettings| {
        if let Some(s) = system {
            ch.system = Some(s);
        }
        if let Some(v) = visibility {
            ch.visibility = v;
        }
        Ok(())
    };
    ctx.data()
        .store
        .update_channel_settings(guild, inv.channel, &mut edit)
        .await
        .map_err(|e| settings_error(e, &inv))?;
    show_settings(ctx, &inv, &settings).await
}

/// Members with this role act as GM in every session (omit to clear)
#[poise::command(
    slash_command,
    guild_only,
    rename = "gm-role",
    name_localized("ja", "ゲームマスターロール"),
    description_localized(
        "ja",
        "このロールのメンバーはすべてのセッションでGMとして扱われます（省略で解除）"
    )
)]
pub async fn gm_role(
    ctx: Context<'_>,
    #[description = "Role"]
    #[name_localized("ja", "ロール")]
    #[description_localized("ja", "ロール")]
    role: Option<RoleId>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let guild = require_manager(ctx, &inv)?;
    let role = role.map(|r| r.get());
    let settings = update(ctx, &inv, guild, |s| s.gm_role = role).await?;
    show_settings(ctx, &inv, &settings).await
}

/// Where secret rolls are sent: the GM's DMs or a GM channel
#[poise::command(
    slash_command,
    guild_only,
    rename = "secret-rolls",
    name_localized("ja", "シークレット送信先"),
    description_localized("ja", "シークレットダイスの送り先（GMのDMかGMチャンネル）")
)]
pub async fn secret_rolls(
    ctx: Context<'_>,
    #[description = "Where"]
    #[name_localized("ja", "送信先")]
    #[description_localized("ja", "送信先")]
    to: SecretRouting,
    #[description = "The GM channel (for 'A GM channel')"]
    #[name_localized("ja", "チャンネル")]
    #[description_localized("ja", "GMチャンネル")]
    channel: Option<ChannelId>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let guild = require_manager(ctx, &inv)?;
    let routing = match (to, channel) {
        (SecretRouting::Dm, _) => SecretRolls::Dm,
        (SecretRouting::GmChannel, Some(c)) => SecretRolls::GmChannel { channel: c.get() },
        (SecretRouting::GmChannel, None) => {
            return Err(inv.text("Choose the GM channel too.", "GMチャンネルも指定してください。"));
        }
    };
    let settings = update(ctx, &inv, guild, |s| s.secret_rolls = routing).await?;
    show_settings(ctx, &inv, &settings).await
}

/// Every system's house options, from the registry.
fn house_options() -> impl Iterator<Item = &'static HouseOption> {
    SystemId::ALL
        .into_iter()
        .flat_map(|id| id.rules().house_options())
}

/// Autocomplete: the house options, or the values of the one named (`rally.recovery=…`).
async fn autocomplete_option(ctx: Context<'_>, partial: &str) -> serenity::all::CreateAutocompleteResponse {
    let lang = ctx.locale().map_or(Lang::En, Lang::from_locale);
    let needle = partial.trim().to_lowercase();
    let choices = house_options()
        .filter(|o| o.key.contains(&needle) || o.describe(lang).to_lowercase().contains(&needle))
        .take(25)
        .map(|o| {
            let label: String = format!("{} — {}", o.key, o.describe(lang))
                .chars()
                .take(100)
                .collect();
            serenity::all::AutocompleteChoice::new(label, o.key)
        })
        .collect();
    serenity::all::CreateAutocompleteResponse::new().set_choices(choices)
}

/// The language a setting's autocomplete speaks: the server's pinned one, else the client's.
async fn reader_lang(ctx: Context<'_>) -> Lang {
    let own = ctx.locale().map_or(Lang::En, Lang::from_locale);
    let Some(guild) = ctx.guild_id() else {
        return own;
    };
    match ctx.data().store.server_settings(guild.get()).await {
        Ok(Some(s)) => s.language.unwrap_or(own),
        _ => own,
    }
}

/// A string option typed so far (the focused one too), inside its subcommand.
fn typed_option(options: &[CommandDataOption], name: &str) -> Option<String> {
    options.iter().find_map(|o| match &o.value {
        CommandDataOptionValue::SubCommand(inner) | CommandDataOptionValue::SubCommandGroup(inner) => {
            typed_option(inner, name)
        }
        CommandDataOptionValue::String(v) | CommandDataOptionValue::Autocomplete { value: v, .. }
            if o.name == name =>
        {
            Some(v.clone())
        }
        _ => None,
    })
}

/// The `value:` choices of `option`, each with what it means in `lang` (the value is what is
/// sent: the stored token), those matching `partial` by token or meaning.
fn value_choices(option: &HouseOption, partial: &str, lang: Lang) -> Vec<(String, String)> {
    let needle = partial.trim().to_lowercase();
    option
        .values
        .iter()
        .filter_map(|v| {
            let meaning = option.value_meaning(v, lang);
            let hit = v.to_lowercase().contains(&needle)
                || meaning.is_some_and(|m| m.to_lowercase().contains(&needle));
            hit.then(|| {
                let label = match meaning {
                    Some(m) => format!("{v} — {m}"),
                    None => (*v).to_string(),
                };
                (label.chars().take(100).collect(), (*v).to_string())
            })
        })
        .take(25)
        .collect()
}

/// Autocomplete of `value:`: the values of the option named in `name:`, described in the
/// reader's language (none before an option is named).
async fn autocomplete_value(ctx: Context<'_>, partial: &str) -> serenity::all::CreateAutocompleteResponse {
    let lang = reader_lang(ctx).await;
    let named = match ctx {
        poise::Context::Application(app) => typed_option(&app.interaction.data.options, "name"),
        poise::Context::Prefix(_) => None,
    };
    let key = named.map(|n| n.trim().to_lowercase()).unwrap_or_default();
    let choices = house_options()
        .find(|o| o.key == key)
        .map(|o| value_choices(o, partial, lang))
        .unwrap_or_default()
        .into_iter()
        .map(|(label, value)| serenity::all::AutocompleteChoice::new(label, value))
        .collect();
    serenity::all::CreateAutocompleteResponse::new().set_choices(choices)
}

/// A house option of a system (omit the value for its default)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "ハウスルール"),
    description_localized("ja", "システムのハウスルール（値を省略すると既定値に戻します）")
)]
pub async fn option(
    ctx: Context<'_>,
    #[description = "The option"]
    #[name_localized("ja", "項目")]
    #[description_localized("ja", "項目")]
    #[autocomplete = "autocomplete_option"]
    #[max_length = 64]
    name: String,
    #[description = "Its value (omit: the default)"]
    #[name_localized("ja", "値")]
    #[description_localized("ja", "値（省略で既定値）")]
    #[autocomplete = "autocomplete_value"]
    #[max_length = 64]
    value: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let guild = require_manager(ctx, &inv)?;
    loaded(&inv)?;
    let key = name.trim().to_lowercase();
    let Some(option) = house_options().find(|o| o.key == key) else {
        let known: Vec<&str> = house_options().map(|o| o.key).collect();
        let shown: String = name.trim().chars().take(40).collect();
        return Err(BotError::User(match inv.lang {
            Lang::En => format!(
                "There is no house option `{shown}`. Options: {}.",
                known.join(", ")
            ),
            Lang::Ja => format!(
                "`{shown}` というハウスルールはありません。項目: {}。",
                known.join("、")
            ),
        }));
    };
    let value = value.map(|v| v.trim().to_lowercase()).filter(|v| !v.is_empty());
    if let Some(v) = &value
        && !option.values.contains(&v.as_str())
    {
        let shown: String = v.chars().take(40).collect();
        return Err(BotError::User(match inv.lang {
            Lang::En => format!(
                "`{}` takes {}, not `{shown}`.",
                option.key,
                option.values.join(" or ")
            ),
            Lang::Ja => format!(
                "`{}` の値は {} のどれかです（`{shown}` は使えません）。",
                option.key,
                option.values.join("、")
            ),
        }));
    }
    let key = option.key.to_string();
    // The value before, read inside the transaction (another admin may just have changed it).
    let mut before = option.default_value().to_string();
    let settings = update(ctx, &inv, guild, |s| {
        before = option.value_in(&s.house).to_string();
        match &value {
            // The default is not stored: a later change of default reaches this server too.
            Some(v) if v != option.default_value() => {
                s.house.insert(key.clone(), v.clone());
            }
            _ => {
                s.house.remove(&key);
            }
        }
    })
    .await?;
    // One line for the one change (the whole page is `/config show`).
    let line = option_changed(option, &before, option.value_in(&settings.house), inv.lang);
    crate::reply::send(ctx, CreateReply::default().content(line).ephemeral(true)).await?;
    Ok(())
}

/// `sr.edge_rule` (description): `old` → `new`, in the reader's language.
fn option_changed(option: &HouseOption, before: &str, after: &str, lang: Lang) -> String {
    match (lang, before == after) {
        (Lang::En, false) => format!(
            "House option `{}` ({}): `{before}` → `{after}`.",
            option.key,
            option.describe(lang)
        ),
        (Lang::En, true) => format!(
            "House option `{}` ({}) stays `{after}`.",
            option.key,
            option.describe(lang)
        ),
        (Lang::Ja, false) => format!(
            "ハウスルール `{}`（{}）: `{before}` → `{after}`。",
            option.key,
            option.describe(lang)
        ),
        (Lang::Ja, true) => format!(
            "ハウスルール `{}`（{}）は `{after}` のままです。",
            option.key,
            option.describe(lang)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value's declared meaning names a value the option takes (a typo would never show),
    /// and every word value (`hull_first`, `on`) has one in both languages.
    #[test]
    fn every_word_value_is_described_in_both_languages() {
        for o in house_options() {
            for (v, en, ja) in o.value_text {
                assert!(o.values.contains(v), "{}: {v}", o.key);
                assert!(!en.is_empty() && !ja.is_empty(), "{}: {v}", o.key);
            }
            for v in o
                .values
                .iter()
                .filter(|v| v.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
            {
                assert!(o.value_meaning(v, Lang::Ja).is_some(), "{}: {v}", o.key);
            }
        }
        let recovery = house_options().find(|o| o.key == "rally.recovery").unwrap();
        assert_eq!(
            value_choices(recovery, "スト", Lang::Ja),
            vec![(
                "structure_first — ストラクチャーのボックスから".to_string(),
                "structure_first".to_string()
            )]
        );
    }

    /// Every enabled system's house options show in full: a field per system, each within
    /// Discord's 1,024 characters, and the whole embed within 6,000 — nothing cut, nothing
    /// dropped. A disabled system's are left out.
    #[test]
    fn show_lists_every_house_option_within_discords_limits() {
        use crate::embeds::limits::{FIELD_VALUE, TOTAL};
        let mut settings = ServerSettings::default();
        // The longest value of each option, so the field is as long as it can get.
        for o in house_options() {
            let longest = o.values.iter().max_by_key(|v| v.chars().count()).unwrap();
            settings.house.insert(o.key.to_string(), longest.to_string());
        }
        for lang in [Lang::En, Lang::Ja] {
            let channel = ChannelSettings {
                system: Some(SystemId::Terminator),
                visibility: Visibility::Secret,
            };
            let view = settings_view(&settings, Some(&channel), lang);
            assert_eq!(view.limited(), view, "nothing is cut or dropped ({lang:?})");
            assert!(view.total_chars() <= TOTAL);
            for (name, value, _) in &view.fields {
                assert!(
                    value.chars().count() <= FIELD_VALUE,
                    "{name}: {}",
                    value.chars().count()
                );
            }
            for o in house_options() {
                assert!(
                    view.fields
                        .iter()
                        .any(|(_, v, _)| v.contains(&format!("`{}`", o.key))),
                    "{} is shown",
                    o.key
                );
            }
            let terminator = view
                .fields
                .iter()
                .find(|(n, _, _)| n.contains(SystemId::Terminator.display_name(lang)))
                .expect("a Terminator field");
            assert!(terminator.1.contains("`term.tactical_die`"));
        }
        settings.enabled_systems.remove(&SystemId::Terminator);
        let view = settings_view(&settings, None, Lang::En);
        assert!(!view.fields.iter().any(|(_, v, _)| v.contains("`term.")));
        assert!(view.fields.iter().any(|(_, v, _)| v.contains("`sr.")));
    }
}

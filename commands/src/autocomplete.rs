//! Autocomplete shared by the generic commands and the systems' own: the roster's names. Kept
//! apart from `/char` so system commands need not import a command tree.

use crate::Context;

/// The names in this channel's session roster containing `partial` (at most 25, Discord's cap).
pub async fn entry_names(ctx: Context<'_>, partial: &str) -> Vec<String> {
    let Ok(Some(session)) = ctx.data().store.shared_session(ctx.channel_id().get()).await else {
        return Vec::new();
    };
    let partial = partial.to_lowercase();
    session
        .roster
        .iter()
        .map(|e| e.name.clone())
        .filter(|n| n.to_lowercase().contains(&partial))
        .take(25)
        .collect()
}

/// Autocomplete of roster names (for any command's character option).
pub async fn autocomplete_entry(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::all::CreateAutocompleteResponse {
    let choices = entry_names(ctx, partial)
        .await
        .into_iter()
        .map(|n| serenity::all::AutocompleteChoice::new(n.clone(), n))
        .collect();
    serenity::all::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Autocomplete of `/char add|edit stats:`: the fields the session system's sheet declares
/// (engine `SheetDecl::choices`), after what was already typed.
pub async fn autocomplete_stats(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::all::CreateAutocompleteResponse {
    let lang = ctx
        .locale()
        .map_or(engine::i18n::Lang::En, engine::i18n::Lang::from_locale);
    let system = ctx
        .data()
        .store
        .shared_session(ctx.channel_id().get())
        .await
        .ok()
        .flatten()
        .map(|s| s.system);
    let choices = system.map_or_else(Vec::new, |s| s.rules().sheet_decl().choices(partial, lang));
    let choices = choices
        .into_iter()
        .map(|(label, value)| serenity::all::AutocompleteChoice::new(label, value))
        .collect();
    serenity::all::CreateAutocompleteResponse::new().set_choices(choices)
}

/// What was typed so far into another option of the command being completed (`attacker:` while
/// `weapon:` is focused); `None` outside an autocomplete or when it was not typed.
pub fn typed_option(ctx: Context<'_>, name: &str) -> Option<String> {
    let poise::Context::Application(a) = ctx else {
        return None;
    };
    a.args
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| match &o.value {
            serenity::all::ResolvedValue::String(s) => Some(s.to_string()),
            _ => None,
        })
}

/// The client's language, for labels.
pub fn lang(ctx: Context<'_>) -> engine::i18n::Lang {
    ctx.locale()
        .map_or(engine::i18n::Lang::En, engine::i18n::Lang::from_locale)
}

/// `(label, value)` pairs as Discord's autocomplete answer.
pub fn response(choices: Vec<(String, String)>) -> serenity::all::CreateAutocompleteResponse {
    serenity::all::CreateAutocompleteResponse::new().set_choices(
        choices
            .into_iter()
            .map(|(label, value)| serenity::all::AutocompleteChoice::new(label, value))
            .collect(),
    )
}

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

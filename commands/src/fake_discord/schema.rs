//! Every request body the fake receives is checked against the schema Discord publishes for its
//! route (the OpenAPI description in `commands/vendor/discord-api-spec`, its `requests.json`
//! subset embedded here): a body Discord would refuse is refused, and fails the test that caused
//! it (see [`super::FakeDiscord::refused_requests`]). Each route's validator is built once, on
//! its first request.

use std::collections::HashMap;
use std::sync::{LazyLock, OnceLock};

use jsonschema::Validator;
use serde_json::{Value, json};

/// The routes' request schemas and the components they reference (`subset.py` writes it).
const REQUESTS: &str = include_str!("../../vendor/discord-api-spec/requests.json");

/// A route the fake validates, as the description names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Route {
    OpenDm,
    ChannelMessage,
    GlobalCommands,
    GuildCommands,
    Callback,
    Followup,
    EditOriginal,
}

impl Route {
    pub(crate) const ALL: [Route; 7] = [
        Route::OpenDm,
        Route::ChannelMessage,
        Route::GlobalCommands,
        Route::GuildCommands,
        Route::Callback,
        Route::Followup,
        Route::EditOriginal,
    ];

    pub(crate) fn key(self) -> &'static str {
        match self {
            Route::OpenDm => "POST /users/@me/channels",
            Route::ChannelMessage => "POST /channels/{channel_id}/messages",
            Route::GlobalCommands => "PUT /applications/{application_id}/commands",
            Route::GuildCommands => "PUT /applications/{application_id}/guilds/{guild_id}/commands",
            Route::Callback => "POST /interactions/{interaction_id}/{interaction_token}/callback",
            Route::Followup => "POST /webhooks/{webhook_id}/{webhook_token}",
            Route::EditOriginal => "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
        }
    }
}

/// `requests.json`, parsed once, with the two places where the description is stricter than
/// Discord's own documentation (and than Discord itself) relaxed to what the docs say.
static SPEC: LazyLock<Value> = LazyLock::new(|| {
    let mut spec: Value = serde_json::from_str(REQUESTS).expect("the vendored requests.json is JSON");
    let schemas = &mut spec["components"]["schemas"];
    // Docs (Reference, "Uploading Files"): an attachment in a request names a file of the same
    // request by its index, `{"id": 0}`, and serenity sends it so; the description only allows
    // a snowflake string.
    schemas["MessageAttachmentRequest"]["properties"]["id"] = json!({
        "anyOf": [
            { "$ref": "#/components/schemas/SnowflakeType" },
            { "type": "integer", "minimum": 0 }
        ]
    });
    // Docs (Application Commands, "Application Command Object"): `default_member_permissions`
    // is a string (a permission bit set), as serenity sends it; the description says integer.
    schemas["ApplicationCommandUpdateRequest"]["properties"]["default_member_permissions"] = json!({
        "type": ["string", "null"],
        "pattern": "^[0-9]+$"
    });
    spec
});

/// One validator per route, built on first use: the route's schema with the components beside
/// it, so its `#/components/schemas/…` references resolve.
fn validator(route: Route) -> &'static Validator {
    static BUILT: LazyLock<HashMap<Route, OnceLock<Validator>>> =
        LazyLock::new(|| Route::ALL.iter().map(|r| (*r, OnceLock::new())).collect());
    BUILT[&route].get_or_init(|| {
        let mut schema = SPEC["routes"][route.key()].clone();
        schema["components"] = SPEC["components"].clone();
        jsonschema::validator_for(&schema).expect("Discord's schema compiles")
    })
}

/// Why `body` does not fit its route's schema: `path: reason` for each of the deepest
/// violations (inside a union such as a callback's, the shallower ones are only the branches
/// that do not apply: "`type` 4 is not 8").
pub(crate) fn check(route: Route, body: &Value) -> Result<(), Vec<String>> {
    let validator = validator(route);
    if validator.is_valid(body) {
        return Ok(());
    }
    let evaluation = validator.evaluate(body);
    let errors: Vec<(usize, String)> = evaluation
        .iter_errors()
        .map(|e| {
            let path = e.instance_location.as_str();
            let mut line = format!("{path}: {}", e.error);
            // An error may quote the whole value (a 6,000-character embed).
            if let Some((at, _)) = line.char_indices().nth(300) {
                line.truncate(at);
                line.push('…');
            }
            (path.matches('/').count(), line)
        })
        .collect();
    let deepest = errors.iter().map(|(d, _)| *d).max().unwrap_or(0);
    let mut why: Vec<String> = errors
        .into_iter()
        .filter(|(d, _)| *d == deepest)
        .map(|(_, line)| line)
        .collect();
    why.dedup();
    if why.is_empty() {
        why.push("does not fit the schema".into());
    }
    Err(why)
}

/// The one documented limit of a message body that a JSON schema cannot say: "the combined sum
/// of characters in all title, description, field.name, field.value, footer.text, and
/// author.name fields across all embeds attached to a message must not exceed 6000" (Discord
/// docs, Embed Limits).
const EMBEDS_TOTAL: usize = 6000;

/// [`check`], then the limits the schema leaves out.
pub(crate) fn check_all(route: Route, body: &Value) -> Result<(), Vec<String>> {
    check(route, body)?;
    let message = match route {
        Route::Callback => &body["data"],
        Route::ChannelMessage | Route::Followup | Route::EditOriginal => body,
        _ => return Ok(()),
    };
    let chars = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
    let total: usize = message["embeds"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            chars(&e["title"])
                + chars(&e["description"])
                + chars(&e["footer"]["text"])
                + chars(&e["author"]["name"])
                + e["fields"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|f| chars(&f["name"]) + chars(&f["value"]))
                    .sum::<usize>()
        })
        .sum();
    if total > EMBEDS_TOTAL {
        return Err(vec![format!(
            "/embeds: {total} characters in all embeds, over Discord's {EMBEDS_TOTAL}"
        )]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_has_a_schema_that_compiles() {
        for route in Route::ALL {
            assert!(SPEC["routes"][route.key()].is_object(), "{route:?}");
            validator(route);
        }
        assert_eq!(
            SPEC["commit"].as_str(),
            Some(include_str!("../../vendor/discord-api-spec/COMMIT").trim())
        );
    }

    #[test]
    fn a_message_over_discords_limits_is_refused() {
        let long = "x".repeat(2001);
        let why = check(
            Route::Callback,
            &json!({ "type": 4, "data": { "content": long } }),
        )
        .unwrap_err();
        assert!(why.iter().any(|w| w.starts_with("/data/content")), "{why:?}");
        let why = check(
            Route::EditOriginal,
            &json!({ "embeds": [{ "title": "t", "fields": [{ "name": "n", "value": "v".repeat(1025) }] }] }),
        )
        .unwrap_err();
        assert!(
            why.iter().any(|w| w.starts_with("/embeds/0/fields/0/value")),
            "{why:?}"
        );
        assert!(
            check(
                Route::Callback,
                &json!({ "type": 4, "data": { "content": "ok" } })
            )
            .is_ok()
        );
    }

    #[test]
    fn embeds_over_six_thousand_characters_in_all_are_refused() {
        let embed = json!({ "description": "d".repeat(4000) });
        let one = json!({ "embeds": [embed] });
        assert_eq!(check_all(Route::Followup, &one), Ok(()));
        let two = json!({ "type": 4, "data": { "embeds": [embed, embed] } });
        let why = check_all(Route::Callback, &two).unwrap_err();
        assert!(why[0].contains("8000 characters"), "{why:?}");
    }

    #[test]
    fn the_docs_win_where_the_description_is_stricter() {
        let upload = json!({ "content": "chart", "attachments": [{ "id": 0, "filename": "odds.png" }] });
        assert_eq!(check(Route::Followup, &upload), Ok(()));
        let command = json!([{ "name": "config", "description": "d", "default_member_permissions": "32" }]);
        assert_eq!(check(Route::GuildCommands, &command), Ok(()));
        let bad = json!([{ "name": "config", "description": "d", "default_member_permissions": "all" }]);
        assert!(check(Route::GuildCommands, &bad).is_err());
    }

    /// `requests.json` is `openapi.json`'s own schemas, unchanged (`subset.py` writes it).
    #[test]
    fn the_embedded_subset_matches_the_vendored_description() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor/discord-api-spec");
        let full: Value = serde_json::from_slice(&std::fs::read(dir.join("openapi.json")).unwrap()).unwrap();
        let subset: Value = serde_json::from_str(REQUESTS).unwrap();
        for route in Route::ALL {
            let (method, path) = route.key().split_once(' ').unwrap();
            let pointer = format!(
                "/paths/{}/{}/requestBody/content/application~1json/schema",
                path.replace('~', "~0").replace('/', "~1"),
                method.to_lowercase()
            );
            assert_eq!(
                full.pointer(&pointer),
                Some(&subset["routes"][route.key()]),
                "{route:?}"
            );
        }
        for (name, schema) in subset["components"]["schemas"].as_object().unwrap() {
            assert_eq!(&full["components"]["schemas"][name], schema, "{name}");
        }
    }
}

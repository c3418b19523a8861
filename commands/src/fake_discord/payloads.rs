//! JSON payloads shaped exactly as Discord sends them. serenity turns a payload it cannot parse
//! into `Event::Unknown` silently, so every builder here is checked against serenity's own
//! model types in the tests below.

use serde_json::{Value, json};

/// Discord's epoch (2015-01-01) in unix milliseconds, for realistic snowflakes.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

pub fn snowflake(unix_ms: u64, counter: u64) -> u64 {
    (unix_ms.saturating_sub(DISCORD_EPOCH_MS) << 22) | (counter & 0x3f_ffff)
}

pub const TIMESTAMP: &str = "2026-01-01T00:00:00.000000+00:00";

/// A person (or the bot) as Discord describes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeUser {
    pub id: u64,
    pub name: String,
    pub bot: bool,
}

pub fn user(u: &FakeUser) -> Value {
    json!({
        "id": u.id.to_string(),
        "username": u.name,
        "discriminator": "0",
        "global_name": u.name,
        "avatar": null,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
    })
}

pub fn member(u: &FakeUser, guild_id: u64, permissions: u64, roles: &[u64]) -> Value {
    let roles: Vec<String> = roles.iter().map(u64::to_string).collect();
    json!({
        "user": user(u),
        "nick": null,
        "avatar": null,
        "roles": roles,
        "joined_at": TIMESTAMP,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "permissions": permissions.to_string(),
        "communication_disabled_until": null,
        "guild_id": guild_id.to_string(),
    })
}

/// A role as Discord resolves it in an interaction.
pub fn role(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(),
        "name": name,
        "color": 0,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": 1,
        "permissions": "0",
        "managed": false,
        "mentionable": true,
        "flags": 0,
    })
}

/// A text channel as Discord resolves it in an interaction.
pub fn resolved_channel(id: u64, name: &str) -> Value {
    json!({ "id": id.to_string(), "name": name, "type": 0, "permissions": ALL_PERMISSIONS.to_string() })
}

pub fn hello(heartbeat_interval_ms: u64) -> Value {
    json!({ "op": 10, "d": { "heartbeat_interval": heartbeat_interval_ms }, "s": null, "t": null })
}

pub fn heartbeat_ack() -> Value {
    json!({ "op": 11, "d": null, "s": null, "t": null })
}

pub fn dispatch(event: &str, seq: u64, data: Value) -> Value {
    json!({ "op": 0, "t": event, "s": seq, "d": data })
}

pub fn ready(
    bot: &FakeUser,
    app_id: u64,
    guilds: &[u64],
    shard: [u32; 2],
    session_id: &str,
    url: &str,
) -> Value {
    let mut me = user(bot);
    me["verified"] = json!(true);
    me["mfa_enabled"] = json!(false);
    json!({
        "v": 10,
        "user": me,
        "guilds": guilds.iter().map(|g| json!({ "id": g.to_string(), "unavailable": true })).collect::<Vec<_>>(),
        "session_id": session_id,
        "resume_gateway_url": url,
        "shard": shard,
        "application": { "id": app_id.to_string(), "flags": 0 },
    })
}

/// `GUILD_CREATE` for a server that has just added the bot (every key serenity 0.12.5 needs;
/// it turns a payload it cannot parse into an unknown event, silently).
pub fn guild_create(guild_id: u64, name: &str, owner: u64) -> Value {
    let mut guild = json!({
        "id": guild_id.to_string(),
        "name": name,
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": owner.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_presences": null,
        "max_members": 500000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
    });
    // Two literals: one is past `json!`'s recursion limit.
    let extra = json!({
        "joined_at": TIMESTAMP,
        "large": false,
        "unavailable": false,
        "member_count": 2,
        "voice_states": [],
        "members": [],
        "channels": [],
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    });
    if let (Some(g), Value::Object(e)) = (guild.as_object_mut(), extra) {
        g.extend(e);
    }
    guild
}

/// `GET /oauth2/applications/@me`.
pub fn application(bot: &FakeUser, app_id: u64) -> Value {
    json!({
        "id": app_id.to_string(),
        "name": bot.name,
        "icon": null,
        "description": "",
        "bot_public": true,
        "bot_require_code_grant": false,
        "verify_key": "0000",
        "team": null,
        "owner": user(&FakeUser { id: 1, name: "owner".into(), bot: false }),
        "flags": 0,
        "summary": "",
        "rpc_origins": [],
    })
}

/// A channel message as Discord returns it.
pub fn message(id: u64, channel_id: u64, author: &FakeUser, body: &Value, app_id: u64) -> Value {
    json!({
        "id": id.to_string(),
        "channel_id": channel_id.to_string(),
        "author": user(author),
        "content": body.get("content").cloned().unwrap_or(json!("")),
        "timestamp": TIMESTAMP,
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": body.get("attachments").cloned().unwrap_or(json!([])),
        "embeds": body.get("embeds").cloned().unwrap_or(json!([])),
        "components": body.get("components").cloned().unwrap_or(json!([])),
        "pinned": false,
        "type": 20,
        "flags": body.get("flags").cloned().unwrap_or(json!(0)),
        "application_id": app_id.to_string(),
        "webhook_id": app_id.to_string(),
    })
}

/// Where and as whom an interaction happens.
#[derive(Debug, Clone)]
pub struct Invoker {
    pub user: FakeUser,
    pub locale: String,
    pub guild_id: Option<u64>,
    pub channel_id: u64,
    /// The member's permissions in the channel (Discord sends them resolved).
    pub permissions: u64,
    /// The member's roles (ids).
    pub roles: Vec<u64>,
}

/// Every permission bit Discord defines today; the bot's own `app_permissions`.
pub const ALL_PERMISSIONS: u64 = (1 << 51) - 1;

fn interaction_base(id: u64, app_id: u64, kind: u8, token: &str, who: &Invoker) -> Value {
    let mut v = json!({
        "id": id.to_string(),
        "application_id": app_id.to_string(),
        "type": kind,
        "token": token,
        "version": 1,
        "channel_id": who.channel_id.to_string(),
        "channel": { "id": who.channel_id.to_string(), "type": 0, "name": "table" },
        "app_permissions": ALL_PERMISSIONS.to_string(),
        "locale": who.locale,
        "entitlements": [],
        "authorizing_integration_owners": {},
        "attachment_size_limit": 10_485_760,
    });
    match who.guild_id {
        Some(g) => {
            v["guild_id"] = json!(g.to_string());
            v["guild_locale"] = json!("en-US");
            v["member"] = member(&who.user, g, who.permissions, &who.roles);
            v["context"] = json!(0);
        }
        None => {
            v["user"] = user(&who.user);
            v["context"] = json!(1);
        }
    }
    v
}

/// A slash command (type 2) or autocomplete (type 4) interaction. `options` is the data's option
/// tree as Discord nests it; `resolved` the users etc. it names.
#[allow(clippy::too_many_arguments)]
pub fn command_interaction(
    id: u64,
    app_id: u64,
    kind: u8,
    token: &str,
    who: &Invoker,
    command: &Value,
    options: Value,
    resolved: Value,
) -> Value {
    let mut v = interaction_base(id, app_id, kind, token, who);
    v["data"] = json!({
        "id": command.get("id").cloned().unwrap_or(json!("0")),
        "name": command.get("name").cloned().unwrap_or(json!("")),
        "type": 1,
        "options": options,
        "resolved": resolved,
    });
    if let Some(g) = command.get("guild_id") {
        v["data"]["guild_id"] = g.clone();
    }
    v
}

/// A button press (type 3) on `message`.
pub fn button_interaction(
    id: u64,
    app_id: u64,
    token: &str,
    who: &Invoker,
    message: &Value,
    custom_id: &str,
) -> Value {
    let mut v = interaction_base(id, app_id, 3, token, who);
    v["data"] = json!({ "custom_id": custom_id, "component_type": 2 });
    v["message"] = message.clone();
    v
}

/// Options picked in a string select menu (also a type 3 interaction) on `message`.
pub fn select_interaction(
    id: u64,
    app_id: u64,
    token: &str,
    who: &Invoker,
    message: &Value,
    custom_id: &str,
    values: &[String],
) -> Value {
    let mut v = button_interaction(id, app_id, token, who, message, custom_id);
    v["data"] = json!({ "custom_id": custom_id, "component_type": 3, "values": values });
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use serenity::all as s;

    fn alice() -> Invoker {
        Invoker {
            user: FakeUser {
                id: 42,
                name: "alice".into(),
                bot: false,
            },
            locale: "ja".into(),
            guild_id: Some(7),
            channel_id: 9,
            permissions: ALL_PERMISSIONS,
            roles: vec![],
        }
    }

    #[test]
    fn payloads_parse_as_serenity_models() {
        let bot = FakeUser {
            id: 1000,
            name: "Saikoro".into(),
            bot: true,
        };
        let r = ready(&bot, 1000, &[7], [0, 1], "sess", "ws://127.0.0.1:1");
        serde_json::from_value::<s::Ready>(r).expect("READY");
        serde_json::from_value::<s::CurrentApplicationInfo>(application(&bot, 1000)).expect("application");
        let cmd = json!({ "id": "5", "name": "roll" });
        let opts = json!([{ "name": "dice", "type": 3, "value": "2d6" }]);
        let i = command_interaction(11, 1000, 2, "tok", &alice(), &cmd, opts, json!({}));
        let parsed: s::Interaction = serde_json::from_value(i).expect("command interaction");
        let s::Interaction::Command(c) = parsed else {
            panic!("not a command")
        };
        assert_eq!(c.locale, "ja");
        assert_eq!(c.data.name, "roll");
        let mut dm = alice();
        dm.guild_id = None;
        let i = command_interaction(12, 1000, 2, "tok", &dm, &cmd, json!([]), json!({}));
        serde_json::from_value::<s::Interaction>(i).expect("DM command interaction");
        let body = json!({ "embeds": [{ "title": "t", "type": "rich" }], "components": [
            { "type": 1, "components": [{ "type": 2, "style": 1, "label": "Reveal", "custom_id": "x" }] }
        ]});
        let m = message(13, 9, &bot, &body, 1000);
        serde_json::from_value::<s::Message>(m.clone()).expect("message");
        let g: s::GuildCreateEvent =
            serde_json::from_value(guild_create(77, "New", 42)).expect("GUILD_CREATE");
        assert_eq!(g.guild.id.get(), 77);
        let b = button_interaction(14, 1000, "tok2", &alice(), &m, "x");
        let parsed: s::Interaction = serde_json::from_value(b).expect("button interaction");
        assert!(matches!(parsed, s::Interaction::Component(_)));
    }
}

//! End to end through the fake Discord: sessions, rosters, settings, permissions, restart,
//! a PostgreSQL outage, and private/secret rolls with their reveal button.

use crate::support;
use crate::support::e2e::*;

use std::time::Duration;

use saikoro_bot::console::{Console, ConsoleOptions, user_for};
use saikoro_bot::fake_discord::{DEFAULT_CHANNEL, DEFAULT_GUILD, Reply, dm_channel_id};
use serde_json::{Value, json};

async fn session_version(c: &Console) -> Option<i64> {
    c.store()
        .active_session(DEFAULT_CHANNEL)
        .await
        .unwrap()
        .map(|s| s.version)
}

#[tokio::test]
async fn session_lifecycle_roster_log_and_export() {
    let mut c = console().await;
    let gm = c.invoker();
    let ana = player(&c, "ana");
    let r = as_(&mut c, &gm, "/session start name:Night Run system:generic").await;
    assert!(!r.ephemeral);
    assert_eq!(r.embeds()[0]["title"], "Session started: Night Run");
    let r = as_(&mut c, &ana, "/session join").await;
    assert!(r.content().contains("joined Night Run"), "{}", r.content());
    // A player adds their own character with typed stats.
    let r = as_(
        &mut c,
        &ana,
        "/char add name:Ana stats:body=4 agility=5 note=\"street sam\"",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    let entry = s.entry("Ana").expect("stored");
    assert_eq!(entry.owner, ana.user.id);
    assert_eq!(entry.sheet["body"], 4);
    assert_eq!(entry.sheet["note"], "street sam");
    as_(&mut c, &ana, "/char effect name:Ana effect:Stunned rounds:2").await;
    // Rolls in a session are logged with their outcome.
    c.queue_dice([3, 4]);
    as_(&mut c, &ana, "/roll dice:2d6+1").await;
    let r = as_(&mut c, &gm, "/session status").await;
    let status = text(&r);
    assert!(
        status.contains("Ana") && status.contains("body 4") && status.contains("Stunned"),
        "{status}"
    );
    let r = as_(&mut c, &gm, "/session log").await;
    assert!(
        text(&r).contains("/roll dice:2d6+1") && text(&r).contains("→ **8**"),
        "{}",
        text(&r)
    );
    let log = c.store().recent_rolls(s.id, 10).await.unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].outcome["lines"][0]["total"], 8);
    assert_eq!(log[0].user_id, ana.user.id);
    // Export: a JSON attachment with the session and its log.
    let r = as_(&mut c, &gm, "/session export").await;
    let files = r.body["files"].as_array().expect("an attachment");
    assert_eq!(files[0]["filename"], format!("session-{}.json", s.id));
    let exported: Value = serde_json::from_str(files[0]["content"].as_str().unwrap()).unwrap();
    assert_eq!(exported["session"]["name"], "Night Run");
    assert_eq!(exported["log"].as_array().unwrap().len(), 1);
    // The GM hands over, the new GM ends it; history stays.
    as_(&mut c, &gm, "/session gm user:ana").await;
    let r = as_(&mut c, &ana, "/session end").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(session_version(&c).await, None);
    let ended = c.store().ended_sessions(DEFAULT_GUILD, 5).await.unwrap();
    assert_eq!(ended[0].name, "Night Run");
    assert_eq!(c.store().recent_rolls(ended[0].id, 10).await.unwrap().len(), 1);
    let r = as_(&mut c, &gm, "/session status").await;
    assert!(r.ephemeral && r.content().contains("No session"), "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn permissions_are_enforced_and_denials_change_nothing() {
    let mut c = console().await;
    let gm = player(&c, "gm-player"); // the GM needs no server permission
    let bob = player(&c, "bob");
    as_(&mut c, &gm, "/session start name:Run system:generic").await;
    as_(&mut c, &gm, "/char add name:Boss stats:body=9").await;
    as_(&mut c, &bob, "/session join").await;
    let before = session_version(&c).await;
    for line in [
        "/session end",
        "/char edit name:Boss stats:body=1",
        "/char remove name:Boss",
        "/session gm user:bob",
    ] {
        let r = as_(&mut c, &bob, line).await;
        assert!(r.ephemeral, "{line} should be refused: {}", text(&r));
        assert_eq!(session_version(&c).await, before, "{line} wrote something");
    }
    // Japanese for a Japanese client.
    let mut bob_ja = bob.clone();
    bob_ja.locale = "ja".into();
    let r = as_(&mut c, &bob_ja, "/session end").await;
    assert!(r.ephemeral);
    assert!(
        r.content()
            .chars()
            .any(|ch| ('\u{3040}'..='\u{30ff}').contains(&ch)),
        "{}",
        r.content()
    );
    // Settings need Manage Server; the command is also hidden from others by default.
    let r = as_(&mut c, &bob, "/config systems system:generic enabled:false").await;
    assert!(
        r.ephemeral && r.content().contains("Manage Server"),
        "{}",
        r.content()
    );
    let config = c
        .fake
        .commands(None)
        .into_iter()
        .find(|c| c["name"] == "config")
        .unwrap();
    assert_eq!(config["default_member_permissions"], "32");
    // The GM manages the session without server permissions; a server manager can too.
    let r = as_(&mut c, &gm, "/char edit name:Boss stats:body=8").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let admin = c.invoker();
    let r = as_(&mut c, &admin, "/char edit name:Boss stats:body=7").await;
    assert!(!r.ephemeral, "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn bad_input_is_a_clear_error_and_writes_nothing() {
    let mut c = console().await;
    let gm = c.invoker();
    as_(&mut c, &gm, "/session start name:Run system:generic").await;
    as_(&mut c, &gm, "/char add name:Ana stats:body=4").await;
    let before = session_version(&c).await;
    let cases = [
        (
            "/session start name:Second system:Terminator Genisys",
            "already running",
        ),
        ("/char edit name:Nobody stats:body=1", "Nobody"),
        ("/char add name:Ana stats:body=5", "Ana"),
        ("/char add name:Bad stats:body 5", "name=value"),
        ("/char edit name:Ana", "Nothing to change"),
    ];
    for (line, expect) in cases {
        let r = as_(&mut c, &gm, line).await;
        assert!(r.ephemeral, "{line}: {}", text(&r));
        assert!(r.content().contains(expect), "{line}: {}", r.content());
        assert_eq!(session_version(&c).await, before, "{line} wrote something");
    }
    // What Discord's client would block, the bot refuses too: a raw interaction with a
    // 150-character name and an out-of-range system choice.
    c.store()
        .end_session(DEFAULT_CHANNEL, engine::session::Actor::manager(gm.user.id), 1)
        .await
        .unwrap();
    let session_cmd = c
        .fake
        .commands(None)
        .into_iter()
        .find(|c| c["name"] == "session")
        .unwrap();
    for (name, system) in [("x".repeat(150), 1), ("Fine".to_string(), 99)] {
        let options = json!([{ "name": "start", "type": 1, "options": [
            { "name": "name", "type": 3, "value": name },
            { "name": "system", "type": 4, "value": system },
        ]}]);
        let interaction = c
            .fake
            .command_interaction(&gm, 2, &session_cmd, options, json!({}));
        let id = c.fake.deliver(interaction).unwrap();
        let r = c.fake.wait_reply(id, WAIT).await.unwrap();
        assert!(r.ephemeral, "{}", text(&r));
        assert_eq!(session_version(&c).await, None, "nothing started");
    }
    c.shutdown().await;
}

#[tokio::test]
async fn disabling_a_system_refuses_it_and_re_registers_the_servers_commands() {
    let mut c = console().await;
    let admin = c.invoker();
    let puts_before = c.fake.command_puts();
    let r = as_(&mut c, &admin, "/config systems system:shadowrun4 enabled:false").await;
    assert!(
        r.ephemeral && text(&r).contains("Badlands Rally") && !text(&r).contains("Shadowrun"),
        "{}",
        text(&r)
    );
    assert!(
        c.fake.command_puts() > puts_before,
        "the guild's commands were re-registered"
    );
    let guild_names: Vec<String> = c
        .fake
        .commands(Some(DEFAULT_GUILD))
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert!(!guild_names.iter().any(|n| n == "sr"), "{guild_names:?}");
    let r = as_(&mut c, &admin, "/session start name:Run system:shadowrun4").await;
    assert!(
        r.ephemeral && r.content().contains("turned off"),
        "{}",
        r.content()
    );
    assert_eq!(session_version(&c).await, None);
    // Language pinned by the server wins over the client's locale.
    as_(&mut c, &admin, "/config language language:日本語").await;
    let r = as_(&mut c, &admin, "/session status").await;
    assert!(r.content().contains("セッション"), "{}", r.content());
    c.shutdown().await;
}

#[tokio::test]
async fn sessions_settings_and_logs_survive_a_restart_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    survive_a_restart(|| ConsoleOptions {
        data_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    })
    .await;
}

#[tokio::test]
async fn sessions_settings_and_logs_survive_a_restart_on_postgres() {
    let db = support::pg::TestDb::create().await;
    survive_a_restart(|| ConsoleOptions {
        database_url: Some(db.url.clone()),
        ..Default::default()
    })
    .await;
}

/// Stop the bot, start a new one on the same database: sessions, settings and logs are there.
async fn survive_a_restart(opts: impl Fn() -> ConsoleOptions) {
    let mut c = console_with(opts()).await;
    let admin = c.invoker();
    as_(&mut c, &admin, "/session start name:Campaign system:generic").await;
    as_(&mut c, &admin, "/char add name:Juggernaut stats:arm=20 def=10").await;
    c.queue_dice([6, 6]);
    as_(&mut c, &admin, "/roll dice:2d6").await;
    as_(&mut c, &admin, "/config gm-role role:@&GameMasters").await;
    c.shutdown().await;

    let mut c = console_with(opts()).await;
    let r = as_(&mut c, &admin, "/session status").await;
    assert!(
        text(&r).contains("Juggernaut") && text(&r).contains("arm 20"),
        "{}",
        text(&r)
    );
    let r = as_(&mut c, &admin, "/session log").await;
    assert!(text(&r).contains("→ **12**"), "{}", text(&r));
    let r = as_(&mut c, &admin, "/config show").await;
    assert!(text(&r).contains("<@&"), "gm role kept: {}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn fifty_concurrent_edits_through_the_bot_all_land_on_sqlite() {
    fifty_concurrent_edits(console().await).await;
}

#[tokio::test]
async fn fifty_concurrent_edits_through_the_bot_all_land_on_postgres() {
    let db = support::pg::TestDb::create().await;
    let c = console_with(ConsoleOptions {
        database_url: Some(db.url.clone()),
        ..Default::default()
    })
    .await;
    fifty_concurrent_edits(c).await;
}

async fn fifty_concurrent_edits(mut c: Console) {
    let admin = c.invoker();
    as_(&mut c, &admin, "/session start name:Run system:generic").await;
    as_(&mut c, &admin, "/char add name:Jack").await;
    let command = c
        .fake
        .commands(Some(DEFAULT_GUILD))
        .into_iter()
        .find(|c| c["name"] == "char")
        .unwrap();
    let mut ids = Vec::new();
    for i in 0..50 {
        let options = json!([{ "name": "edit", "type": 1, "options": [
            { "name": "name", "type": 3, "value": "Jack" },
            { "name": "stats", "type": 3, "value": format!("k{i}={i}") },
        ]}]);
        let interaction = c
            .fake
            .command_interaction(&admin, 2, &command, options, json!({}));
        ids.push(c.fake.deliver(interaction).unwrap());
    }
    for id in ids {
        let r = c.fake.wait_reply(id, Duration::from_secs(60)).await.unwrap();
        assert!(!r.ephemeral, "{}", text(&r));
    }
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    let sheet = &s.entry("Jack").unwrap().sheet;
    for i in 0..50 {
        assert_eq!(sheet[format!("k{i}")], i, "edit {i} lost");
    }
    c.shutdown().await;
}

#[tokio::test]
async fn secret_rolls_go_to_the_roller_the_gm_and_reveal_once() {
    let mut c = console().await;
    let admin = c.invoker();
    let gm = player(&c, "gm-dm");
    let ana = player(&c, "ana");
    let bob = player(&c, "bob");
    as_(&mut c, &gm, "/session start name:Run system:generic").await;
    c.queue_dice([2, 5]);
    let (id, r) = c.send_as("/roll dice:S2D6", &ana).await.unwrap();
    assert!(r.ephemeral, "the roller sees the result privately");
    assert!(text(&r).contains("**7**"), "{}", text(&r));
    let notice = &r.followups[0];
    assert!(notice["content"].as_str().unwrap().contains("made a secret roll"));
    assert!(
        notice["embeds"].as_array().is_none_or(|e| e.is_empty()),
        "the channel sees no result"
    );
    assert_eq!(
        notice["flags"].as_u64().unwrap_or(0) & 64,
        0,
        "the notice is public"
    );
    // The session's GM got it by DM (the default routing).
    let dm = c
        .fake
        .wait_channel_messages(dm_channel_id(gm.user.id), 1, WAIT)
        .await
        .unwrap();
    assert!(dm[0]["embeds"].to_string().contains("**7**"));
    // The notice's button: only the roller may press it, once.
    let custom_id = notice["components"][0]["components"][0]["custom_id"]
        .as_str()
        .unwrap()
        .to_string();
    let message = notice_message(&c, id);
    for (who, ok) in [(&bob, false), (&gm, false), (&ana, true), (&ana, false)] {
        let press = c.fake.button_interaction(who, &message, &custom_id);
        let pid = c.fake.deliver(press).unwrap();
        let r = c.fake.wait_reply(pid, WAIT).await.unwrap();
        if ok {
            assert_eq!(r.body["type"], 7, "the notice is updated in place");
            assert!(
                text(&r).contains("revealed") && text(&r).contains("**7**"),
                "{}",
                text(&r)
            );
            assert_eq!(r.message["components"], json!([]));
        } else {
            assert!(r.ephemeral, "{}", text(&r));
        }
    }
    // Private: the channel is told, without a button; GM channel routing for secrets.
    c.queue_dice([4]);
    let r = as_(&mut c, &ana, "/roll dice:p 1d6").await;
    assert!(
        r.ephemeral
            && r.followups[0]["content"]
                .as_str()
                .unwrap()
                .contains("private roll")
    );
    assert!(
        r.followups[0]["components"]
            .as_array()
            .is_none_or(|c| c.is_empty())
    );
    as_(&mut c, &admin, "/config secret-rolls to:A GM channel channel:#gm").await;
    c.queue_dice([6]);
    as_(&mut c, &ana, "/roll dice:S1d6").await;
    let gm_channel = saikoro_bot::console::line::named_id("gm");
    let posted = c.fake.wait_channel_messages(gm_channel, 1, WAIT).await.unwrap();
    assert!(
        posted[0]["content"]
            .as_str()
            .unwrap()
            .contains("Secret roll by ana")
    );
    c.shutdown().await;
}

/// The channel message a follow-up became (what a button press refers to).
fn notice_message(c: &Console, interaction: u64) -> Value {
    let events = c.fake.events(interaction);
    let body = events
        .iter()
        .find_map(|e| match e {
            saikoro_bot::fake_discord::ReplyEvent::Followup(b) => Some(b.clone()),
            _ => None,
        })
        .unwrap();
    saikoro_bot::fake_discord::payloads::message(
        77,
        DEFAULT_CHANNEL,
        &user_for("Saikoro"),
        &body,
        c.fake.app_id(),
    )
}

#[tokio::test]
async fn a_postgres_outage_is_answered_cleanly_and_the_bot_recovers_unaided() {
    let server = std::sync::Arc::new(
        tokio::task::spawn_blocking(support::pg::PgServer::start)
            .await
            .unwrap()
            .expect("throwaway PostgreSQL"),
    );
    let url = support::pg::TestDb::on(&server).await;
    let mut c = console_with(ConsoleOptions {
        database_url: Some(url),
        ..Default::default()
    })
    .await;
    let admin = c.invoker();
    as_(&mut c, &admin, "/session start name:Run system:generic").await;
    as_(&mut c, &admin, "/char add name:Jack stats:arm=15").await;

    tokio::task::spawn_blocking({
        let s = server.clone();
        move || s.stop()
    })
    .await
    .unwrap()
    .expect("stop PostgreSQL");
    // A stateless roll still answers, in time.
    c.queue_dice([3, 3]);
    let started = std::time::Instant::now();
    let r = as_(&mut c, &admin, "/roll dice:2d6").await;
    assert!(!r.ephemeral && text(&r).contains("**6**"), "{}", text(&r));
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    // Nothing rolled in a session channel vanishes silently: the channel is told this roll is
    // not in the log.
    let told = r.followups.iter().any(|f| {
        f["content"]
            .as_str()
            .is_some_and(|t| t.contains("Storage is unavailable") && t.contains("not in its log"))
    });
    assert!(told, "{:?}", r.followups);
    // State commands say storage is unavailable and write nothing.
    for line in ["/session status", "/char edit name:Jack stats:arm=1"] {
        let r = as_(&mut c, &admin, line).await;
        assert!(
            r.ephemeral && r.content().contains("Storage is unavailable"),
            "{line}: {}",
            text(&r)
        );
    }
    tokio::task::spawn_blocking({
        let s = server.clone();
        move || s.start_again()
    })
    .await
    .unwrap()
    .expect("start PostgreSQL again");
    // The same bot recovers by itself; the refused edit never landed.
    let mut recovered = None;
    for _ in 0..20 {
        let r = as_(&mut c, &admin, "/session status").await;
        if !r.ephemeral {
            recovered = Some(r);
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let r = recovered.expect("the bot recovered after PostgreSQL came back");
    assert!(text(&r).contains("arm 15"), "{}", text(&r));
    // With storage back, a roll is logged and nothing is announced.
    c.queue_dice([2, 2]);
    let r = as_(&mut c, &admin, "/roll dice:2d6").await;
    assert!(r.followups.is_empty(), "{:?}", r.followups);
    c.shutdown().await;
}

#[tokio::test]
async fn character_names_autocomplete_from_the_roster() {
    let mut c = console().await;
    let admin = c.invoker();
    as_(&mut c, &admin, "/session start name:Run system:generic").await;
    for name in ["Ana", "Anders", "Bob"] {
        as_(&mut c, &admin, &format!("/char add name:{name}")).await;
    }
    let command = c
        .fake
        .commands(Some(DEFAULT_GUILD))
        .into_iter()
        .find(|c| c["name"] == "char")
        .unwrap();
    let options = json!([{ "name": "show", "type": 1, "options": [
        { "name": "name", "type": 3, "value": "an", "focused": true },
    ]}]);
    let interaction = c
        .fake
        .command_interaction(&admin, 4, &command, options, json!({}));
    let id = c.fake.deliver(interaction).unwrap();
    let r = c.fake.wait_reply(id, WAIT).await.unwrap();
    assert_eq!(r.body["type"], 8, "an autocomplete result");
    let names: Vec<&str> = r.body["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ana", "Anders"]);
    c.shutdown().await;
}

/// Every message of a reply: the reply itself and its follow-ups.
fn all_text(r: &Reply) -> String {
    let mut s = text(r);
    for f in &r.followups {
        s.push_str(&f.to_string());
    }
    s
}

#[tokio::test]
async fn hidden_rolls_stay_out_of_the_public_log_and_export_until_revealed() {
    let mut c = console().await;
    let gm = player(&c, "gm-hidden");
    let ana = player(&c, "ana");
    let bob = player(&c, "bob");
    as_(&mut c, &gm, "/session start name:Run system:generic").await;
    c.queue_dice([2, 5]);
    let (roll_id, _) = c.send_as("/roll dice:S2D6 label:Trap check", &ana).await.unwrap();
    c.queue_dice([6]);
    as_(&mut c, &ana, "/roll dice:p 1d6+30").await;
    c.queue_dice([1, 1]);
    as_(&mut c, &ana, "/roll dice:2d6+40").await;

    // Bob sees that two hidden rolls were made, never their results, expressions or labels.
    let r = as_(&mut c, &bob, "/session log").await;
    assert!(!r.ephemeral);
    let public = all_text(&r);
    assert!(
        public.contains("made a secret roll") && public.contains("made a private roll"),
        "{public}"
    );
    assert!(public.contains("→ **42**"), "public rolls still show: {public}");
    for leak in ["→ **7**", "→ **36**", "S2D6", "Trap", "p 1d6"] {
        assert!(!public.contains(leak), "{leak} leaked: {public}");
    }
    assert!(r.followups.is_empty(), "nothing hidden for bob");
    let r = as_(&mut c, &bob, "/session export").await;
    assert!(!r.ephemeral, "a redacted export is public");
    let file = r.body["files"][0]["content"].as_str().unwrap().to_string();
    for leak in ["Trap", "S2D6", "\"total\":7", "\"total\":36"] {
        assert!(!file.contains(leak), "{leak} leaked: {file}");
    }
    // Nor in the transcript beside it: the channel's view of a hidden roll.
    let transcript = r.body["files"][1]["content"].as_str().unwrap().to_string();
    assert!(transcript.contains("made a secret roll"), "{transcript}");
    for leak in ["Trap", "S2D6", "**7**", "**36**"] {
        assert!(!transcript.contains(leak), "{leak} leaked: {transcript}");
    }
    let exported: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(exported["log"][0]["outcome"], json!({ "hidden": "secret" }));
    assert_eq!(exported["log"][1]["outcome"], json!({ "hidden": "private" }));

    // The GM: the channel's copy stays redacted; the results come only to the GM.
    let r = as_(&mut c, &gm, "/session log").await;
    assert!(!r.ephemeral && !text(&r).contains("→ **7**"), "{}", text(&r));
    let mine = r.followups.first().expect("the GM's own view");
    assert_eq!(
        mine["flags"].as_u64().unwrap_or(0) & 64,
        64,
        "only the GM sees it"
    );
    assert!(
        mine.to_string().contains("→ **7**") && mine.to_string().contains("→ **36**"),
        "{mine}"
    );
    let r = as_(&mut c, &gm, "/session export").await;
    assert!(r.ephemeral, "an export with hidden results goes only to the GM");
    assert!(r.body["files"][0]["content"].as_str().unwrap().contains("Trap"));

    // Revealed, the secret roll joins the public log.
    let notice = notice_message(&c, roll_id);
    let custom_id = saikoro_bot::fake_discord::buttons(&notice)[0].1.clone();
    let r = c.fake.press(&ana, &notice, &custom_id, WAIT).await.unwrap();
    assert!(text(&r).contains("revealed"), "{}", text(&r));
    let r = as_(&mut c, &bob, "/session log").await;
    let public = all_text(&r);
    assert!(
        public.contains("(revealed)") && public.contains("→ **7**"),
        "{public}"
    );
    assert!(
        !public.contains("→ **36**"),
        "the private roll stays hidden: {public}"
    );
    c.shutdown().await;
}

#[tokio::test]
async fn concurrent_channel_setting_edits_are_both_kept() {
    let c = console().await;
    let admin = c.invoker();
    let commands = c.fake.visible_commands(Some(DEFAULT_GUILD));
    let build = |line: &str| {
        saikoro_bot::console::line::build(line, &commands, &|n| {
            saikoro_bot::fake_discord::payloads::user(&user_for(n))
        })
        .unwrap()
    };
    // Two admins at once in each of several channels: one sets the system, one the visibility.
    let mut ids = Vec::new();
    let channels: Vec<u64> = (0..8).map(|i| DEFAULT_CHANNEL + 1000 + i).collect();
    for &channel in &channels {
        let mut who = admin.clone();
        who.channel_id = channel;
        for line in [
            "/config channel system:shadowrun4",
            "/config channel visibility:Secret (results to the roller and the GM)",
        ] {
            let b = build(line);
            let i = c
                .fake
                .command_interaction(&who, 2, &b.command, b.options, b.resolved);
            ids.push(c.fake.deliver(i).unwrap());
        }
    }
    for id in ids {
        let r = c.fake.wait_reply(id, WAIT).await.unwrap();
        assert!(!r.embeds().is_empty(), "{}", text(&r));
    }
    for channel in channels {
        let ch = c.store().channel_settings(channel).await.unwrap().unwrap();
        assert_eq!(
            ch.system,
            Some(engine::session::SystemId::Shadowrun4),
            "channel {channel}"
        );
        assert_eq!(
            ch.visibility,
            engine::session::Visibility::Secret,
            "channel {channel}"
        );
    }
    c.shutdown().await;
}

#[tokio::test]
async fn status_shows_every_entry_of_a_long_roster_within_discords_limits() {
    let mut c = console().await;
    let gm = c.invoker();
    as_(&mut c, &gm, "/session start name:Big Table system:generic").await;
    for i in 0..30 {
        let stats: Vec<String> = (1..=12)
            .map(|j| format!("k{j:02}={}", 1000 + i * 12 + j))
            .collect();
        as_(
            &mut c,
            &gm,
            &format!("/char add name:Entry{i:02} stats:{}", stats.join(" ")),
        )
        .await;
    }
    let r = as_(&mut c, &gm, "/session status").await;
    let mut messages = vec![r.message.clone()];
    messages.extend(r.followups.iter().cloned());
    let mut all = String::new();
    for m in &messages {
        let embeds = m["embeds"].as_array().unwrap();
        assert!(!embeds.is_empty() && embeds.len() <= 10);
        let mut chars = 0;
        for e in embeds {
            let d = e["description"].as_str().unwrap_or("");
            assert!(d.chars().count() <= 4096);
            chars += d.chars().count() + e["title"].as_str().unwrap_or("").chars().count();
            for f in e["fields"].as_array().into_iter().flatten() {
                chars += f["name"].as_str().unwrap().chars().count()
                    + f["value"].as_str().unwrap().chars().count();
            }
            all.push_str(&e.to_string());
        }
        assert!(chars <= 6000, "{chars} characters in one message");
    }
    for i in 0..30 {
        assert!(all.contains(&format!("Entry{i:02}")), "Entry{i:02} missing");
        for j in 1..=12 {
            let v = 1000 + i * 12 + j;
            assert!(
                all.contains(&format!("k{j:02} {v}")),
                "Entry{i:02}: k{j:02} {v} missing"
            );
        }
    }
    c.shutdown().await;
}

#[tokio::test]
async fn export_splits_a_long_log_and_reaches_ended_sessions() {
    let mut c = console().await;
    let gm = c.invoker();
    as_(&mut c, &gm, "/session start name:Old Campaign system:generic").await;
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    for n in 0..40 {
        let entry = engine::session::RollLogEntry {
            session_id: s.id,
            user_id: gm.user.id,
            command: format!("/roll {n}"),
            outcome: json!({ "n": n, "padding": "x".repeat(1000) }),
            at_ms: 1_700_000_000_000 + n,
            user_name: None,
        };
        c.store().append_roll(&(&entry).into()).await.unwrap();
    }
    // A server whose uploads are small: 64 KiB are kept for the rest, a third of the remainder
    // for each of the JSON, the transcript and the page: ~9 rolls fit.
    c.fake.set_attachment_size_limit(64 * 1024 + 30_000);
    let mut seen = Vec::new();
    let mut line = "/session export".to_string();
    for _ in 0..10 {
        let r = as_(&mut c, &gm, &line).await;
        assert!(!r.ephemeral, "{}", r.content());
        let file = r.body["files"][0]["content"].as_str().unwrap();
        assert!(file.len() <= 10_000, "{} bytes", file.len());
        let exported: Value = serde_json::from_str(file).unwrap();
        let log = exported["log"].as_array().unwrap();
        assert!(!log.is_empty() && log.len() < 40);
        seen.extend(log.iter().map(|e| e["outcome"]["n"].as_i64().unwrap()));
        match r.content().split("/session export ").nth(1) {
            Some(next) => line = format!("/session export {next}"),
            None => break,
        }
    }
    assert_eq!(seen, (0..40).collect::<Vec<_>>(), "every roll once, in order");

    // Ended: a new session runs here, the old one is still exportable by its id.
    as_(&mut c, &gm, "/session end").await;
    as_(&mut c, &gm, "/session start name:New Campaign system:generic").await;
    c.fake
        .set_attachment_size_limit(saikoro_bot::fake_discord::DEFAULT_ATTACHMENT_LIMIT);
    let r = as_(&mut c, &gm, &format!("/session export session:{}", s.id)).await;
    let exported: Value = serde_json::from_str(r.body["files"][0]["content"].as_str().unwrap()).unwrap();
    assert_eq!(exported["session"]["name"], "Old Campaign");
    assert_eq!(exported["log"].as_array().unwrap().len(), 40);
    // It autocompletes.
    let command = c
        .fake
        .commands(None)
        .into_iter()
        .find(|c| c["name"] == "session")
        .unwrap();
    let options = json!([{ "name": "export", "type": 1, "options": [
        { "name": "session", "type": 4, "value": "old", "focused": true },
    ]}]);
    let i = c.fake.command_interaction(&gm, 4, &command, options, json!({}));
    let id = c.fake.deliver(i).unwrap();
    let r = c.fake.wait_reply(id, WAIT).await.unwrap();
    let choices = r.body["data"]["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 1, "{choices:?}");
    assert_eq!(choices[0]["value"], s.id);
    // Another server's session is not ours to read.
    let mut elsewhere = gm.clone();
    elsewhere.guild_id = Some(DEFAULT_GUILD + 1);
    let r = as_(&mut c, &elsewhere, &format!("/session export session:{}", s.id)).await;
    assert!(r.ephemeral && r.body.get("files").is_none(), "{}", text(&r));
    // Past the end of the log: a clear error and no file.
    let r = as_(&mut c, &gm, &format!("/session export session:{} start:41", s.id)).await;
    assert!(
        r.ephemeral && r.content().contains("past the end") && r.body.get("files").is_none(),
        "{}",
        text(&r)
    );
    // A player elsewhere in the server cannot read this channel's log; here they can.
    let mut bob = player(&c, "bob");
    bob.channel_id = DEFAULT_CHANNEL + 5;
    let r = as_(&mut c, &bob, &format!("/session export session:{}", s.id)).await;
    assert!(r.ephemeral && r.body.get("files").is_none(), "{}", text(&r));
    bob.channel_id = DEFAULT_CHANNEL;
    let r = as_(&mut c, &bob, &format!("/session export session:{}", s.id)).await;
    assert!(r.body["files"][0]["content"].is_string(), "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn a_refused_command_registration_does_not_keep_the_bot_from_answering() {
    let dir = tempfile::tempdir().unwrap();
    let fake = saikoro_bot::fake_discord::FakeDiscord::start().await.unwrap();
    fake.fail_command_puts(true);
    let h = support::harness::Harness::start(fake, support::harness::sqlite(dir.path()).await).await;
    let who = h.invoker("ana");
    h.dice.queue([3, 4]);
    let r = h.send(&who, "/roll dice:2d6").await;
    assert!(!r.ephemeral && text(&r).contains("**7**"), "{}", text(&r));
    assert!(h.fake.commands(None).is_empty(), "nothing was registered");
    h.shutdown().await;
}

#[tokio::test]
async fn unreadable_settings_never_bring_a_disabled_system_back() {
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().unwrap();
    let inner = support::harness::sqlite(dir.path()).await;
    let mut settings = engine::session::ServerSettings::default();
    settings
        .enabled_systems
        .remove(&engine::session::SystemId::Shadowrun4);
    inner.put_server_settings(DEFAULT_GUILD, &settings).await.unwrap();
    let store = std::sync::Arc::new(support::harness::FlakyStore::new(inner));
    store.settings_down.store(true, Ordering::SeqCst);
    let fake = saikoro_bot::fake_discord::FakeDiscord::start().await.unwrap();
    let h = support::harness::Harness::start(fake, store.clone()).await;
    h.fake.wait_commands(None, WAIT).await.unwrap();
    // Registration ran (global first, then the guilds) without touching this server's list.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        h.fake.commands(Some(DEFAULT_GUILD)).is_empty(),
        "registered with defaults: {:?}",
        h.fake.commands(Some(DEFAULT_GUILD))
    );
    // A disabled system's stateless command refuses while the settings cannot be read.
    let admin = h.invoker("admin");
    let r = h.send(&admin, "/sr test pool:6").await;
    assert!(
        r.ephemeral && r.content().contains("Storage is unavailable"),
        "{}",
        text(&r)
    );
    store.settings_down.store(false, Ordering::SeqCst);
    let r = h.send(&admin, "/sr test pool:6").await;
    assert!(r.ephemeral && r.content().contains("turned off"), "{}", text(&r));
    h.shutdown().await;
}

#[tokio::test]
async fn a_server_added_after_start_gets_its_system_commands() {
    let mut c = console().await;
    let new_guild = DEFAULT_GUILD + 7;
    assert!(c.fake.commands(Some(new_guild)).is_empty());
    let who = c.invoker();
    let names: Vec<String> = join_server(&mut c, new_guild, &who)
        .await
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert!(
        names.contains(&"sr".to_string()) && names.contains(&"rally".to_string()),
        "{names:?}"
    );
    c.shutdown().await;
}

#[tokio::test]
async fn latency_runs_from_the_interaction_to_the_reply_not_to_later_work() {
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(support::harness::FlakyStore::new(
        support::harness::sqlite(dir.path()).await,
    ));
    let metrics = saikoro_bot::metrics::Metrics::new();
    let fake = saikoro_bot::fake_discord::FakeDiscord::start().await.unwrap();
    let scale = saikoro_bot::bot::ScaleOptions {
        metrics: Some(metrics.clone()),
        ..Default::default()
    };
    let h = support::harness::Harness::start_with(fake, store.clone(), scale).await;
    let gm = h.invoker("gm");
    h.send(&gm, "/session start name:Run system:generic").await;
    // Logging the roll (after the reply) takes 5 s: the user did not wait for it. The margins
    // are wide so a loaded CI machine cannot blur reply time and log time.
    store.append_delay_ms.store(5000, Ordering::SeqCst);
    h.dice.queue([3, 4]);
    let started = std::time::Instant::now();
    let r = h.send(&gm, "/roll dice:2d6").await;
    assert!(text(&r).contains("**7**"), "{}", text(&r));
    assert!(
        started.elapsed() < Duration::from_millis(3000),
        "the reply came first"
    );
    // The command finishes (and is counted) once the log is written.
    let count = r#"saikoro_interaction_duration_seconds_count{command="roll"}"#;
    let sum = r#"saikoro_interaction_duration_seconds_sum{command="roll"}"#;
    let value = |body: &str, series: &str| {
        body.lines()
            .find_map(|l| l.strip_prefix(series).and_then(|v| v.trim().parse::<f64>().ok()))
            .unwrap_or(0.0)
    };
    let mut body = String::new();
    for _ in 0..150 {
        body = metrics.render();
        if value(&body, count) >= 1.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(value(&body, count), 1.0, "{body}");
    assert!(
        value(&body, sum) < 3.0,
        "timed to the reply, not the 5 s log write: {body}"
    );
    h.shutdown().await;
}

#[tokio::test]
async fn a_slow_write_is_deferred_and_its_reply_fills_in_the_original_response() {
    use saikoro_bot::fake_discord::ReplyEvent;
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(support::harness::FlakyStore::new(
        support::harness::sqlite(dir.path()).await,
    ));
    let fake = saikoro_bot::fake_discord::FakeDiscord::start().await.unwrap();
    let h = support::harness::Harness::start(fake, store.clone()).await;
    let gm = h.invoker("gm");
    h.send(&gm, "/session start name:Run system:generic").await;
    let quick = h.send(&gm, "/char add name:Ana stats:body=4").await;
    assert!(
        matches!(&quick.events[..], [ReplyEvent::Callback(b)] if b["type"] == 4),
        "a quick command answers directly: {:?}",
        quick.events
    );

    // Each session write now takes longer than Discord's window allows without a defer.
    store.update_delay_ms.store(2600, Ordering::SeqCst);
    let slow = h.send(&gm, "/char add name:Bob stats:body=5").await;
    match &slow.events[..] {
        [ReplyEvent::Callback(defer), ReplyEvent::EditOriginal(_), ..] => {
            assert_eq!(defer["type"], 5, "a deferred channel message: {defer}");
            assert_eq!(
                defer["data"]["flags"].as_u64().unwrap_or(0) & 64,
                0,
                "public thinking"
            );
        }
        other => panic!("expected a defer then an edit of the original: {other:?}"),
    }
    assert!(!slow.ephemeral);
    assert!(text(&slow).contains("Bob"), "{}", text(&slow));
    assert!(
        slow.followups.is_empty(),
        "no follow-up completes it: {:?}",
        slow.followups
    );

    // A private error after a public defer replaces the thinking message with a private one.
    let refused = h.send(&gm, "/char add name:Bob stats:body=5").await;
    assert!(refused.ephemeral, "{:?}", refused.events);
    assert!(
        refused
            .events
            .iter()
            .any(|e| matches!(e, ReplyEvent::DeleteOriginal)),
        "{:?}",
        refused.events
    );
    store.update_delay_ms.store(0, Ordering::SeqCst);
    let status = h.send(&gm, "/session status").await;
    let shown = all_text(&status);
    assert!(shown.contains("Ana") && shown.contains("Bob"), "{shown}");
    h.shutdown().await;
}

#[tokio::test]
async fn a_slow_button_press_is_acknowledged_then_edits_its_message() {
    use saikoro_bot::fake_discord::ReplyEvent;
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(support::harness::FlakyStore::new(
        support::harness::sqlite(dir.path()).await,
    ));
    let fake = saikoro_bot::fake_discord::FakeDiscord::start().await.unwrap();
    let h = support::harness::Harness::start(fake, store.clone()).await;
    let (gm, ana) = (h.invoker("gm"), h.invoker("ana"));
    h.send(&gm, "/session start name:Run system:generic").await;
    h.dice.queue([2, 5]);
    let (roll, _) = h.send_id(&ana, "/roll dice:S2D6").await;
    let mut notice = None;
    for _ in 0..50 {
        notice = h.fake.events(roll).into_iter().find_map(|e| match e {
            ReplyEvent::Followup(b) if b["components"].is_array() => Some(b),
            _ => None,
        });
        if notice.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let notice = notice.expect("the channel notice with its Reveal button");
    let custom_id = notice["components"][0]["components"][0]["custom_id"]
        .as_str()
        .unwrap()
        .to_string();
    let message = saikoro_bot::fake_discord::payloads::message(
        77,
        DEFAULT_CHANNEL,
        &user_for("Saikoro"),
        &notice,
        h.fake.app_id(),
    );

    // Logging the revealed result now takes longer than Discord waits for an answer.
    store.append_delay_ms.store(2600, Ordering::SeqCst);
    let r = h.fake.press(&ana, &message, &custom_id, WAIT).await.unwrap();
    match &r.events[..] {
        [ReplyEvent::Callback(ack), ReplyEvent::EditOriginal(edit), ..] => {
            assert_eq!(ack["type"], 6, "a deferred update: {ack}");
            assert!(
                edit.to_string().contains("**7**"),
                "the result replaces the notice: {edit}"
            );
        }
        other => panic!("expected an acknowledgement then an edit: {other:?}"),
    }
    h.shutdown().await;
}

/// The choices `/session export session:` offers `who` (an autocomplete request as Discord
/// sends it).
async fn export_choices(c: &mut Console, who: &saikoro_bot::fake_discord::Invoker) -> Vec<String> {
    let commands = c.fake.visible_commands(who.guild_id);
    let built = saikoro_bot::console::line::build_partial("/session export session:", &commands, &|n| {
        saikoro_bot::fake_discord::payloads::user(&user_for(n))
    })
    .unwrap();
    let interaction = c
        .fake
        .command_interaction(who, 4, &built.command, built.options, built.resolved);
    let id = c.fake.deliver(interaction).unwrap();
    let r = c.fake.wait_reply(id, WAIT).await.unwrap();
    r.body["data"]["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|ch| ch["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn export_autocomplete_offers_only_what_the_member_may_export() {
    let mut c = console().await;
    let admin = c.invoker();
    let mut bob = player(&c, "bob");
    bob.channel_id = DEFAULT_CHANNEL + 1;
    let mut carol = player(&c, "carol");
    carol.channel_id = DEFAULT_CHANNEL + 2;
    as_(&mut c, &admin, "/session start name:Alpha system:generic").await;
    as_(&mut c, &admin, "/session end").await;
    as_(&mut c, &bob, "/session start name:Beta system:generic").await;
    as_(&mut c, &bob, "/session end").await;
    let all = export_choices(&mut c, &admin).await;
    assert!(
        all.iter().any(|n| n.contains("Alpha")) && all.iter().any(|n| n.contains("Beta")),
        "{all:?}"
    );
    // bob ran Beta (elsewhere) and may export it; Alpha is another channel's, not his.
    let mut bob_elsewhere = bob.clone();
    bob_elsewhere.channel_id = DEFAULT_CHANNEL + 3;
    let his = export_choices(&mut c, &bob_elsewhere).await;
    assert_eq!(his.len(), 1, "{his:?}");
    assert!(his[0].contains("Beta"), "{his:?}");
    // carol ran nothing: another channel's sessions are not offered.
    assert!(export_choices(&mut c, &carol).await.is_empty());
    // In Beta's own channel, its log is hers to see.
    let mut carol_there = carol.clone();
    carol_there.channel_id = bob.channel_id;
    let there = export_choices(&mut c, &carol_there).await;
    assert!(there.len() == 1 && there[0].contains("Beta"), "{there:?}");
    c.shutdown().await;
}

/// Users' words are shown as words: a name that is a masked link is not a link anywhere, and a
/// control character or direction override in any text option is refused with nothing done.
#[tokio::test]
async fn user_text_is_never_a_link_and_never_carries_control_characters() {
    let mut c = console().await;
    let gm = c.invoker();
    as_(&mut c, &gm, "/session start name:Run system:generic").await;
    let r = as_(
        &mut c,
        &gm,
        "/char add name:[Free Nitro](https://evil.example) stats:hp=3",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let r = as_(&mut c, &gm, "/session status").await;
    let mut seen = 0;
    for e in r.embeds() {
        let fields = e["fields"].as_array().cloned().unwrap_or_default();
        let texts =
            std::iter::once(e["description"].clone()).chain(fields.iter().map(|f| f["value"].clone()));
        for t in texts.filter_map(|t| t.as_str().map(str::to_string)) {
            assert!(!t.contains("](") && !t.contains("https://"), "a link: {t}");
            if t.contains("Free Nitro") {
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "the name is shown: {}", text(&r));
    // An effect named as a link, on the board too.
    let r = as_(
        &mut c,
        &gm,
        "/char effect name:[Free Nitro](https://evil.example) effect:[win](https://evil.example)",
    )
    .await;
    let shown = text(&as_(&mut c, &gm, "/session status").await);
    assert!(
        shown.contains("win") && !shown.contains("](https"),
        "{}\n{shown}",
        text(&r)
    );
    let before = session_version(&c).await;
    for bad in ["Sword\u{202E}", "a\u{1b}[31mred"] {
        let r = as_(&mut c, &gm, &format!("/roll dice:1d6 label:{bad}")).await;
        assert!(r.ephemeral && r.content().contains("`label`"), "{}", text(&r));
        let r = as_(&mut c, &gm, &format!("/char edit name:Boss{bad} stats:hp=1")).await;
        assert!(r.ephemeral, "{}", text(&r));
    }
    assert_eq!(session_version(&c).await, before, "nothing written");
    c.shutdown().await;
}

/// Japanese replies name the Japanese command (issue 15): 「/セッション 参加」, not `/session join`,
/// in embeds and in refusals alike; English replies keep the English names.
#[tokio::test]
async fn japanese_replies_name_the_japanese_commands() {
    let mut c = Console::start(ConsoleOptions {
        locale: "ja".into(),
        ..ConsoleOptions::default()
    })
    .await
    .expect("console");
    let refused = c.send("/session status").await.unwrap();
    assert!(refused.ephemeral);
    assert!(
        refused.content().contains("/セッション 開始 で始めてください"),
        "{}",
        refused.content()
    );
    assert!(!refused.content().contains("/session"), "{}", refused.content());
    let started = c.send("/session start name:Run system:shadowrun4").await.unwrap();
    let text = started.embeds()[0].to_string();
    assert!(text.contains("/セッション 参加"), "{text}");
    assert!(!text.contains("/session join"), "{text}");
    c.shutdown().await;

    let mut en = Console::start(ConsoleOptions::default()).await.expect("console");
    let started = en
        .send("/session start name:Run system:shadowrun4")
        .await
        .unwrap();
    assert!(started.embeds()[0].to_string().contains("/session join"));
    en.shutdown().await;
}

/// Starting a session says where its rolls are: the system's own commands, or `/roll` for a
/// system that has none (issue 15).
#[tokio::test]
async fn starting_a_session_says_where_its_rolls_are() {
    let mut c = Console::start(ConsoleOptions::default()).await.expect("console");
    let generic = c.send("/session start name:Free system:generic").await.unwrap();
    let text = generic.embeds()[0].to_string();
    assert!(
        text.contains("no commands of its own") && text.contains("/roll"),
        "{text}"
    );
    c.send("/session end").await.unwrap();
    let sr = c
        .send("/session start name:Run system:shadowrun4 campaign:new")
        .await
        .unwrap();
    let text = sr.embeds()[0].to_string();
    assert!(text.contains("Its commands: /sr, /sr-matrix, /sr-rig."), "{text}");
    c.shutdown().await;
}

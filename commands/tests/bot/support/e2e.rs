//! What the end-to-end suites share: a console with fixed dice, typing as someone, reading the
//! reply, pressing its buttons, and the stored session behind it.

use std::time::Duration;

use saikoro_bot::console::{Console, ConsoleOptions, user_for};
use saikoro_bot::fake_discord::{DEFAULT_CHANNEL, DEFAULT_GUILD, Invoker, Reply};
use serde_json::Value;

pub use saikoro_bot::fake_discord::buttons;

/// Discord's Send Messages permission: what a plain member has.
pub const SEND_MESSAGES: u64 = 1 << 11;
pub const WAIT: Duration = Duration::from_secs(15);

/// The bot against the fake Discord with fixed dice (queue them per test), typed by the GM.
pub async fn console_with(opts: ConsoleOptions) -> Console {
    Console::start(ConsoleOptions {
        dice: Some(vec![]),
        user: "gm".into(),
        admin: true,
        ..opts
    })
    .await
    .expect("bot starts against the fake Discord")
}

pub async fn console() -> Console {
    console_with(ConsoleOptions::default()).await
}

/// [`console`], once the server's system commands (`/sr`, `/rally`) are registered too.
pub async fn system_console() -> Console {
    system_console_with(ConsoleOptions {
        dice: Some(vec![]),
        user: "gm".into(),
        admin: true,
        ..Default::default()
    })
    .await
}

/// A console started with exactly `opts`, once the server's system commands are registered.
pub async fn system_console_with(opts: ConsoleOptions) -> Console {
    let c = Console::start(opts)
        .await
        .expect("bot starts against the fake Discord");
    c.fake
        .wait_commands(Some(DEFAULT_GUILD), Duration::from_secs(30))
        .await
        .expect("server commands registered");
    c
}

/// A member without Manage Server.
pub fn player(c: &Console, name: &str) -> Invoker {
    let mut who = c.invoker();
    who.user = user_for(name);
    who.permissions = SEND_MESSAGES;
    who
}

/// Type `line` as `who`: the interaction's id and the reply. Checks what every command owes
/// (issue 28), as [`press`] does for buttons: one that rolled in a channel with a session, and
/// was answered in the channel (not refused), left a row in its log.
pub async fn as_id(c: &mut Console, who: &Invoker, line: &str) -> (u64, Reply) {
    let before = (c.dice_left(), log_rows(c, who.channel_id).await);
    let unanswered = saikoro_bot::command_roll::unanswered_rolls();
    let (id, r) = c
        .send_as(line, who)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let after = (c.dice_left(), log_rows(c, who.channel_id).await);
    // Process-wide: a roll dropped unanswered by any test is a bug wherever it shows.
    assert_eq!(
        saikoro_bot::command_roll::unanswered_rolls(),
        unanswered,
        "`{line}`: a command rolled and ended without answering through its CommandRoll"
    );
    let rolled = matches!((before.0, after.0), (Some(b), Some(a)) if a < b);
    if rolled
        && !r.ephemeral
        && let (Some(b), Some(a)) = (before.1, after.1)
    {
        assert!(a > b, "`{line}` rolled and left no log row: {}", text(&r));
    }
    (id, r)
}

pub async fn as_(c: &mut Console, who: &Invoker, line: &str) -> Reply {
    as_id(c, who, line).await.1
}

/// The bot learns that it is in server `guild` as Discord tells it: `GUILD_CREATE` on the
/// gateway, or over HTTP (no gateway events, issue 35) the server's first interaction, `/help`
/// typed there by `who`. The server's commands, once registered.
pub async fn join_server(c: &mut Console, guild: u64, who: &Invoker) -> Vec<Value> {
    if c.fake.over_http() {
        let mut there = who.clone();
        there.guild_id = Some(guild);
        as_(c, &there, "/help").await;
    } else {
        c.fake
            .add_guild(guild, "Another table")
            .expect("GUILD_CREATE sent");
    }
    c.fake
        .wait_commands(Some(guild), WAIT)
        .await
        .expect("the server's commands were registered")
}

/// Type `line` as the console's user (the GM).
pub async fn send(c: &mut Console, line: &str) -> Reply {
    let who = c.invoker();
    as_(c, &who, line).await
}

/// The entry of `list` called `name` (or, failing that, the first whose name starts with it).
pub fn find<'a>(list: &'a Value, name: &str) -> &'a Value {
    let entries = list.as_array().map_or(&[][..], Vec::as_slice);
    entries
        .iter()
        .find(|o| o["name"] == name)
        .or_else(|| {
            entries
                .iter()
                .find(|o| o["name"].as_str().is_some_and(|n| n.starts_with(name)))
        })
        .unwrap_or_else(|| panic!("no `{name}` in {list}"))
}

/// An embed field's value.
pub fn field<'a>(embed: &'a Value, name: &str) -> &'a str {
    find(&embed["fields"], name)["value"].as_str().unwrap_or_default()
}

/// A reply's content and embeds as one string, for `contains` checks.
pub fn text(r: &Reply) -> String {
    let mut s = r.content().to_string();
    for e in r.embeds() {
        s.push_str(&e.to_string());
    }
    s
}

/// The `custom_id` of the button whose label starts with `label`.
pub fn button(message: &Value, label: &str) -> String {
    saikoro_bot::fake_discord::button_id(message, label)
        .unwrap_or_else(|| panic!("no `{label}` button in {message}"))
}

/// Press `custom_id` as `who`, and check what every press owes (issue 28): one that rolled in
/// a channel with a session, and was answered (not refused: a refusal changes nothing), left a
/// row in its log.
pub async fn press(c: &Console, who: &Invoker, message: &Value, custom_id: &str) -> Reply {
    let before = (c.dice_left(), log_rows(c, who.channel_id).await);
    let r = c.fake.press(who, message, custom_id, WAIT).await.unwrap();
    let after = (c.dice_left(), log_rows(c, who.channel_id).await);
    let rolled = matches!((before.0, after.0), (Some(b), Some(a)) if a < b);
    if rolled
        && !r.ephemeral
        && let (Some(b), Some(a)) = (before.1, after.1)
    {
        assert!(
            a > b,
            "a `{}` press rolled and left no log row: {}",
            press_kind(c, custom_id).await,
            text(&r)
        );
    }
    r
}

/// How many rolls the log of `channel`'s active session has (`None`: no session, or the store
/// cannot say — an outage test has stopped it — so the checks above have nothing to compare).
pub async fn log_rows(c: &Console, channel: u64) -> Option<u64> {
    let s = c.store().active_session(channel).await.ok().flatten()?;
    Some(c.store().export_page(s.id, 0, 1).await.ok()?.total_rolls)
}

/// The action kind behind a button (`sr.second_chance`).
pub async fn press_kind(c: &Console, custom_id: &str) -> String {
    let (id, _) = saikoro_bot::press::parse_custom_id(custom_id).expect("one of our buttons");
    c.store()
        .action(id)
        .await
        .unwrap()
        .map_or_else(|| "?".into(), |a| a.kind)
}

/// The stored sheet of roster entry `name` in the channel's active session.
pub async fn sheet(c: &Console, name: &str) -> Value {
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    s.entry(name).expect("entry").sheet.value().clone()
}

/// The active session's version (0 when there is none).
pub async fn version(c: &Console) -> i64 {
    c.store()
        .active_session(DEFAULT_CHANNEL)
        .await
        .unwrap()
        .map_or(0, |s| s.version)
}

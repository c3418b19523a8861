//! End to end through the fake Discord with fixed dice: `/wm` registered in both languages, an
//! attack on session models followed by the boosted-damage button (the roller's, once) and the
//! boxes changing in `/session status`, raw numbers without a roster, a roll-off whose ruling
//! survives a restart (and a damage button pressed after it), effects that do not stack, and
//! bad input refused with nothing written.

use crate::support::e2e::*;

use saikoro_bot::console::{Console, ConsoleOptions, user_for};
use saikoro_bot::fake_discord::DEFAULT_GUILD;
use serde_json::Value;

const STALKER: &str =
    r#"/char add name:Stalker stats:controller=@ana mat=7 def=13 arm=17 boxes=10 weapon1="Blade 13 melee""#;
const GRUNT: &str = "/char add name:Grunt stats:controller=@bob def=12 arm=14 boxes=8";

/// How the bot names the member the console calls `name` (a mention; issue 29).
pub fn at(name: &str) -> String {
    format!("<@{}>", user_for(name).id)
}

/// A game with two models, both added by the GM, controlled by ana and bob.
async fn game(c: &mut Console) {
    for line in ["/session start name:Skirmish system:warmachine", STALKER, GRUNT] {
        let r = send(c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
}

#[tokio::test]
async fn wm_is_registered_in_english_and_japanese() {
    let c = system_console().await;
    let commands = Value::Array(c.fake.visible_commands(Some(DEFAULT_GUILD)));
    let wm = find(&commands, "wm");
    let attack = find(&wm["options"], "attack");
    assert_eq!(attack["name_localizations"]["ja"], "攻撃");
    for raw in ["stat", "def", "pow", "arm"] {
        assert_eq!(find(&attack["options"], raw)["type"], 4, "{raw}");
    }
    assert_eq!(find(&attack["options"], "attacker")["autocomplete"], true);
    for sub in ["damage", "roll", "d3", "rolloff", "status"] {
        assert!(
            find(&wm["options"], sub)["description_localizations"]["ja"].is_string(),
            "{sub}"
        );
    }
    let effect = find(&commands, "wm-effect");
    let add = find(&effect["options"], "add");
    assert_eq!(find(&add["options"], "preset")["autocomplete"], true);
    for (tree, subs) in [
        (
            "wm-turn",
            &[
                "start",
                "activate",
                "move",
                "anytime",
                "end-activation",
                "end",
                "trigger",
                "resolve",
                "end-game",
            ][..],
        ),
        ("wm-ruling", &["list", "add", "remove"][..]),
        ("wm-effect", &["add", "remove", "list"][..]),
    ] {
        let t = find(&commands, tree);
        assert!(t["name_localizations"]["ja"].is_string(), "{tree}");
        for sub in subs {
            assert!(
                find(&t["options"], sub)["name_localizations"]["ja"].is_string(),
                "{tree} {sub}"
            );
        }
    }
    for name in ["wm", "wm-effect", "wm-turn", "wm-ruling"] {
        let total = saikoro_bot::registration::command_chars(find(&commands, name));
        assert!(
            total <= saikoro_bot::registration::COMMAND_BUDGET,
            "{name}: {total}"
        );
    }
    c.shutdown().await;
}

#[tokio::test]
async fn an_attack_then_the_boosted_damage_button_changes_the_boxes() {
    let mut c = system_console().await;
    game(&mut c).await;
    // Dark Shroud and Kiss of Lyliss stack: ARM 14 − 4 = 10 (item 15).
    send(&mut c, "/wm-effect add model:Grunt preset:dark_shroud").await;
    send(&mut c, "/wm-effect add model:Grunt preset:キスオブ・リリス").await;
    let ana = player(&c, "ana");
    let bob = player(&c, "bob");

    // Boosted attack: 4 + 5 + 2 + MAT 7 = 18 vs DEF 12: a hit.
    c.queue_dice([4, 5, 2]);
    let (id, r) = as_id(
        &mut c,
        &ana,
        "/wm attack attacker:Stalker target:Grunt boost:true",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    let d = e["description"].as_str().unwrap();
    assert!(d.starts_with("**HIT**"), "{d}");
    assert!(d.contains("[**4** **5** **2**(boost)]"), "{d}");
    assert!(d.contains("= **18** vs DEF **12**"), "{d}");
    assert!(d.ends_with(&format!("Active player: {}", at("ana"))), "{d}");
    let message = c.fake.original_message(id).unwrap();
    let boosted = button(&message, "Boosted damage");
    let plain = button(&message, "Roll damage");

    // Bob may not press Ana's damage.
    let r = press(&c, &bob, &message, &boosted).await;
    assert!(r.ephemeral && text(&r).contains("Only <@"), "{}", text(&r));
    assert_eq!(sheet(&c, "Grunt").await["marked"], 0);

    // Ana chooses boosted damage: 3 + 3 + 6 + POW 13 − ARM 10 = 15 → 8/8, disabled.
    c.queue_dice([3, 3, 6]);
    let r = press(&c, &ana, &message, &boosted).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let embeds = r.embeds();
    let dmg = embeds.last().unwrap();
    assert!(dmg["title"].as_str().unwrap().contains("(boosted)"), "{dmg}");
    assert!(
        dmg["description"].as_str().unwrap().starts_with("**15 damage**"),
        "{dmg}"
    );
    assert!(field(dmg, "ARM").contains("ARM 14 → **10**"), "{dmg}");
    assert_eq!(field(dmg, "Grunt"), "0/8 → 8/8 · **DISABLED**");
    let stored = sheet(&c, "Grunt").await;
    assert_eq!(
        (stored["marked"].as_u64(), stored["status"].as_str()),
        (Some(8), Some("disabled"))
    );

    // Once: neither button works again, and nothing more is rolled or marked.
    let v = version(&c).await;
    for id in [&boosted, &plain] {
        let r = press(&c, &ana, &message, id).await;
        assert!(r.ephemeral, "{}", text(&r));
    }
    assert_eq!(version(&c).await, v);

    let r = send(&mut c, "/session status").await;
    let status = text(&r);
    assert!(
        status.contains(&format!("**Grunt** ({}) 8/8 **DISABLED**", at("bob"))),
        "{status}"
    );
    assert!(status.contains("Dark Shroud, Kiss of Lyliss"), "{status}");
    c.shutdown().await;
}

#[tokio::test]
async fn raw_numbers_work_without_a_roster() {
    let mut c = system_console().await;
    // No session at all: 5 + 6 + 5 = 16 vs DEF 13.
    c.queue_dice([5, 6]);
    let gm = c.invoker();
    let (id, r) = as_id(&mut c, &gm, "/wm attack stat:5 def:13 pow:10 arm:12").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert!(
        r.embeds()[0]["description"]
            .as_str()
            .unwrap()
            .contains("= **16** vs DEF **13**")
    );
    let message = c.fake.original_message(id).unwrap();
    // 3 + 4 + POW 10 − ARM 12 = 5; no model to mark, so no Apply damage.
    c.queue_dice([3, 4]);
    let r = press(&c, &gm, &message, &button(&message, "Roll damage")).await;
    let dmg = r.embeds().last().unwrap().clone();
    assert!(
        dmg["description"].as_str().unwrap().starts_with("**5 damage**"),
        "{dmg}"
    );
    assert!(saikoro_bot::fake_discord::button_id(&r.body["data"], "Apply damage").is_none());

    // A miss offers no buttons; all 1s is an automatic miss (the option's default).
    c.queue_dice([1, 1]);
    let (id, r) = as_id(&mut c, &gm, "/wm attack stat:20 def:5 pow:10 arm:12").await;
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.starts_with("**MISS** · **AUTOMATIC MISS**"), "{d}");
    assert!(
        saikoro_bot::fake_discord::button_id(&c.fake.original_message(id).unwrap(), "Roll damage").is_none()
    );

    // The server's option off: all 6s is only a 12 (wm.auto_hit_miss, item 8).
    let r = send(&mut c, "/config option name:wm.auto_hit_miss value:off").await;
    assert!(text(&r).contains("wm.auto_hit_miss"), "{}", text(&r));
    c.queue_dice([6, 6]);
    let r = send(&mut c, "/wm attack stat:0 def:25").await;
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(
        d.starts_with("**MISS**") && d.contains("automatic hits and misses are off"),
        "{d}"
    );

    // Damage by numbers, and a d3.
    c.queue_dice([6, 6]);
    let r = send(&mut c, "/wm damage pow:12 arm:14").await;
    assert!(text(&r).contains("**10 damage**"), "{}", text(&r));
    c.queue_dice([5]);
    let r = send(&mut c, "/wm d3").await;
    assert!(text(&r).contains("⌈5 / 2⌉ = **3**"), "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn a_ruling_and_a_damage_button_survive_a_restart() {
    let dir = std::env::temp_dir().join(format!("saikoro-e2e-wm-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = ConsoleOptions {
        dice: Some(vec![]),
        user: "gm".into(),
        admin: true,
        data_dir: Some(dir.clone()),
        ..Default::default()
    };
    let mut c = system_console_with(opts.clone()).await;
    game(&mut c).await;
    // Every player rolls (@ana, @bob: the controllers); tied 4s reroll, then 2 against 6.
    c.queue_dice([4, 4, 2, 6]);
    let r = send(
        &mut c,
        "/wm rolloff question:LOS through the wreck? ruling:Wrecks block LOS",
    )
    .await;
    let t = text(&r);
    assert!(t.contains(&format!("2. {} wins", at("bob"))), "{t}");
    assert!(
        t.contains("tied leaders reroll") && t.contains("Round 2: 1: 2 · 2: **6**"),
        "{t}"
    );
    // An attack whose damage is rolled after the restart.
    let ana = player(&c, "ana");
    c.queue_dice([6, 5]);
    let (id, _) = as_id(&mut c, &ana, "/wm attack attacker:Stalker target:Grunt").await;
    let message = c.fake.original_message(id).unwrap();
    c.shutdown().await;

    let mut c = system_console_with(opts).await;
    let r = send(&mut c, "/session status").await;
    let status = text(&r);
    assert!(status.contains("Rulings (1)"), "{status}");
    assert!(
        status.contains(&format!(
            "#1 LOS through the wreck? → **Wrecks block LOS** (roll-off won by 2. {})",
            at("bob")
        )),
        "{status}"
    );
    let r = send(&mut c, "/wm-ruling list").await;
    assert!(text(&r).contains("Wrecks block LOS"), "{}", text(&r));
    // 2 + 1 + POW 13 − ARM 14 = 2.
    let ana = player(&c, "ana");
    c.queue_dice([2, 1]);
    let r = press(&c, &ana, &message, &button(&message, "Roll damage")).await;
    assert_eq!(
        field(r.embeds().last().unwrap(), "Grunt"),
        "0/8 → 2/8",
        "{}",
        text(&r)
    );
    assert_eq!(sheet(&c, "Grunt").await["marked"], 2);
    let r = press(&c, &ana, &message, &button(&message, "Boosted damage")).await;
    assert!(r.ephemeral);
    // Removing the ruling works too; it is gone from the status.
    send(&mut c, "/wm-ruling remove id:1").await;
    let r = send(&mut c, "/session status").await;
    assert!(text(&r).contains("Rulings (0)"), "{}", text(&r));
    c.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn effects_show_what_applies_and_what_does_not_stack() {
    let mut c = system_console().await;
    game(&mut c).await;
    for line in [
        "/wm-effect add model:Grunt preset:dark_shroud source:Stalker",
        "/wm-effect add model:Grunt preset:Dark Shroud",
        "/wm-effect add model:Grunt name:Stationary changes:def-2",
        "/wm-effect add model:Stalker name:Rooted cannot:knockdown, boost_attack",
    ] {
        let r = send(&mut c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
    let r = send(&mut c, "/wm-effect list model:Grunt").await;
    let t = text(&r);
    assert!(
        t.contains("**Dark Shroud** #1 ARM −2 (until removed) from Stalker; #2 does not stack"),
        "{t}"
    );
    assert!(
        t.contains("ARM 14 → **12** (Dark Shroud #1 −2) · does not stack: Dark Shroud #2 −2 (#1 applies)"),
        "{t}"
    );
    assert!(t.contains("DEF 12 → **10** (Stationary #3 −2)"), "{t}");
    // A boost the target's "cannot" forbids is removed, and the result says why (item 11).
    let gm = c.invoker();
    c.queue_dice([3, 4]);
    let (_, r) = as_id(
        &mut c,
        &gm,
        "/wm attack attacker:Grunt target:Stalker stat:5 boost:true",
    )
    .await;
    let t = text(&r);
    assert!(
        t.contains("the boost die is removed: Stalker cannot boost attack rolls"),
        "{t}"
    );
    // Instance 1 goes: instance 2 now applies.
    send(&mut c, "/wm-effect remove model:Grunt instance:1").await;
    let r = send(&mut c, "/wm-effect list model:Grunt").await;
    assert!(
        text(&r).contains("ARM 14 → **12** (Dark Shroud #2 −2)"),
        "{}",
        text(&r)
    );
    c.shutdown().await;
}

#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let mut c = system_console().await;
    game(&mut c).await;
    send(&mut c, "/wm-turn start").await;
    let v = version(&c).await;
    let bob = player(&c, "bob");
    let eve = player(&c, "eve");
    for (who, line, says) in [
        (
            Some(&eve),
            "/wm-effect add model:Grunt preset:dark_shroud",
            "not a player",
        ),
        (Some(&eve), "/wm-ruling add question:Q ruling:R", "not a player"),
        (
            None,
            "/wm attack attacker:Nobody target:Grunt",
            "model called 'Nobody'",
        ),
        (
            Some(&bob),
            "/wm attack attacker:Stalker target:Grunt",
            "controlled by <@",
        ),
        (
            None,
            "/wm attack attacker:Stalker target:Grunt discard_lowest:1 discard_highest:1",
            "not both",
        ),
        (None, "/wm attack attacker:Stalker", "def:"),
        (
            None,
            "/wm-effect add model:Grunt name:Odd changes:armour-2",
            "STAT±N",
        ),
        (None, "/wm-effect add model:Grunt", "preset or a name"),
        (
            None,
            "/wm-effect remove model:Grunt name:Nothing",
            "no effect called",
        ),
        (None, "/wm-ruling remove id:9", "no ruling number 9"),
        (
            Some(&bob),
            "/wm-turn activate model:Grunt",
            "'s turn, and Grunt is controlled by <@",
        ),
        (None, "/wm-turn end-activation", "No model is activating"),
        (None, "/wm rolloff question:Who? players:@ana", "between 2 and 16"),
        (
            None,
            "/wm rolloff question:Who? players:@ana, bob",
            "'bob' is no Discord member",
        ),
        (None, "/wm damage target:Grunt", "pow:"),
    ] {
        let r = match who {
            Some(p) => as_(&mut c, p, line).await,
            None => send(&mut c, line).await,
        };
        assert!(r.ephemeral, "{line}: {}", text(&r));
        assert!(text(&r).contains(says), "{line}: {}", text(&r));
    }
    assert_eq!(version(&c).await, v, "nothing was written");
    assert_eq!(sheet(&c, "Grunt").await["effects"], Value::Array(vec![]));
    // In Japanese too.
    let mut ja = player(&c, "bob");
    ja.locale = "ja".into();
    let r = as_(&mut c, &ja, "/wm-ruling remove id:9").await;
    assert!(
        r.ephemeral && text(&r).contains("裁定9番はありません"),
        "{}",
        text(&r)
    );
    c.shutdown().await;
}

/// Typed damage lands on a model only by the hand of whoever commands it (or the GM), unless
/// the server lets the roller apply it.
#[tokio::test]
async fn typed_damage_on_another_players_model_is_refused_unless_the_server_allows_it() {
    let mut c = system_console().await;
    game(&mut c).await;
    let ana = player(&c, "ana");
    let line = "/wm damage target:Grunt pow:20";
    let r = as_(&mut c, &ana, line).await;
    assert!(r.ephemeral && text(&r).contains("Grunt"), "{}", text(&r));
    send(&mut c, "/config option name:wm.roller_applies_damage value:on").await;
    c.queue_dice([6, 6]);
    let r = as_(&mut c, &ana, line).await;
    assert!(!r.ephemeral, "{}", text(&r));
    c.shutdown().await;
}

/// Names, not ids, in the export: a roll-off's players are Discord mentions (issue 29), which a
/// page read outside Discord shows as `@name` for every member the game has seen.
#[tokio::test]
async fn the_export_names_the_members_a_roll_off_mentions() {
    let mut c = system_console().await;
    game(&mut c).await;
    // ana and bob each act once, so the game has seen their names.
    for who in ["ana", "bob"] {
        let p = player(&c, who);
        c.queue_dice([3, 3]);
        as_(&mut c, &p, "/wm roll").await;
    }
    c.queue_dice([2, 6]);
    let r = send(
        &mut c,
        "/wm rolloff question:LOS through the wreck? ruling:Wrecks block LOS",
    )
    .await;
    assert!(
        text(&r).contains(&format!("2. {} wins", at("bob"))),
        "{}",
        text(&r)
    );
    let r = send(&mut c, "/session export").await;
    let files = r.body["files"].as_array().expect("attachments");
    let md = files[1]["content"].as_str().unwrap();
    assert!(
        md.contains("roll-off \"LOS through the wreck?\": @bob wins"),
        "{md}"
    );
    let html = files[2]["content"].as_str().unwrap();
    assert!(html.contains("@bob wins"), "{html}");
    assert!(!md.contains("<@") && !html.contains("&lt;@"), "{md}");
    c.shutdown().await;
}

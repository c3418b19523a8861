//! End to end through the fake Discord with fixed dice: `/rally` checks, two gears registered
//! with `/char`, attacks changing both status lines (embed and stored session), RATTLED with its
//! record k/6, the initiative order stored, and bad input refused with nothing written.

use crate::support::e2e::*;
use std::time::Duration;

use saikoro_bot::console::{Console, user_for};
use saikoro_bot::fake_discord::{DEFAULT_CHANNEL, DEFAULT_GUILD, Invoker, Reply};
use serde_json::Value;

const HOPPER: &str = r#"/char add name:Hopper stats:model=jerboa attack=4+ defence=3+ initiative=4+ mr=16 hits=2/1 ar=5 weapon1="Rifle 6 3-6/12""#;
const BRUTE: &str = r#"/char add name:Brute stats:model=grizzly attack=4+ defence=4+ initiative=4+ mr=12 hits=2/2 ar=6 weapon1="Autocannon 7 2-4/10""#;

/// A race with two gears, both the GM's.
async fn race(c: &mut Console) {
    let r = send(c, "/session start name:Race system:Badlands Rally").await;
    assert!(!r.ephemeral, "{}", text(&r));
    for line in [HOPPER, BRUTE] {
        let r = send(c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
}

#[tokio::test]
async fn rally_is_registered_in_english_and_japanese() {
    let c = system_console().await;
    let commands = Value::Array(c.fake.visible_commands(Some(DEFAULT_GUILD)));
    let rally = find(&commands, "rally");
    assert_eq!(rally["name_localizations"]["ja"], "ラリー");
    let attack = find(&rally["options"], "attack");
    assert_eq!(attack["name_localizations"]["ja"], "攻撃");
    assert!(
        attack["description_localizations"]["ja"]
            .as_str()
            .unwrap()
            .contains("攻撃")
    );
    let facing = find(&attack["options"], "facing");
    assert_eq!(facing["choices"].as_array().unwrap().len(), 3);
    assert_eq!(find(&attack["options"], "attacker")["autocomplete"], true);
    for sub in [
        "roll",
        "check",
        "push",
        "damage",
        "burn",
        "jump",
        "crowd",
        "recover",
        "spinout",
        "initiative",
        "scenario",
        "upgrade",
        "status",
        "move",
        "collide",
        "wrongway",
        "victory",
    ] {
        let s = find(&rally["options"], sub);
        assert!(s["name_localizations"]["ja"].is_string(), "{sub}");
    }
    // Discord's limits: 25 subcommands, 8000 characters for the whole tree.
    assert!(rally["options"].as_array().unwrap().len() <= 25);
    let total = saikoro_bot::registration::command_chars(rally);
    assert!(total <= 8000, "{total}");
    c.shutdown().await;
}

#[tokio::test]
async fn two_gears_attack_and_both_status_lines_change() {
    let mut c = system_console().await;
    race(&mut c).await;
    let before = sheet(&c, "Brute").await;
    assert_eq!(before["state"]["hull"], 2);
    assert!(
        before["sheet"]["traits"]
            .as_array()
            .unwrap()
            .contains(&Value::from("tall"))
    );

    send(&mut c, "/rally activate gear:Hopper speed:cruising").await;
    // Attack 6,5 at 4+ → 7; defence 2,1 at 4+ → 2; MOS 5; damage 5 + (6 − 6) = 5 dice.
    c.queue_dice([6, 5, 2, 1, 4, 4, 4, 1, 1]);
    let r = send(&mut c, "/rally attack attacker:Hopper defender:Brute distance:4").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(e["description"].as_str().unwrap().contains("MOS 5"), "{e}");
    assert!(field(e, "Damage").contains("**3 damage**"), "{e}");
    assert!(
        field(e, "Damage").contains("[**4**, **4**, **4**, ~~1~~, ~~1~~]"),
        "{e}"
    );
    assert!(field(e, "Attack — Hopper").contains("→ **7**"), "{e}");
    assert!(field(e, "Defence — Brute").contains("→ **2**"), "{e}");
    let brute = field(e, "Brute");
    assert!(brute.starts_with("□□/■□"), "{brute}");
    assert!(brute.contains("**RATTLED**") && brute.contains("record 1/6") && brute.contains("OFF BALANCE"));
    assert_eq!(field(e, "Hopper"), "■■/■ · record 0/6");
    let stored = sheet(&c, "Brute").await;
    assert_eq!(stored["state"]["hull"], 0);
    assert_eq!(stored["state"]["structure"], 1);
    assert_eq!(stored["state"]["rattled"], true);
    assert_eq!(stored["state"]["rattle_record"], 1);

    // Brute answers with a reaction attack, rattled: 1D6. 6 → 6; Hopper 3,1 at 3+ → 3; MOS 3;
    // damage 3 + (7 − 5) = 5 dice → 2.
    c.queue_dice([6, 3, 1, 5, 5, 1, 1, 1]);
    let r = send(
        &mut c,
        "/rally attack attacker:Brute defender:Hopper distance:3 reaction:true",
    )
    .await;
    let e = &r.embeds()[0];
    assert!(e["description"].as_str().unwrap().contains("MOS 3"), "{e}");
    assert!(field(e, "Attack — Brute").contains("−1 rattled"), "{e}");
    let hopper = field(e, "Hopper");
    assert!(
        hopper.starts_with("□□/■ · **RATTLED** · record 1/6 · OFF BALANCE"),
        "{hopper}"
    );
    let stored = sheet(&c, "Hopper").await;
    assert_eq!(stored["state"]["hull"], 0);
    assert_eq!(stored["state"]["rattle_record"], 1);

    // The race board in /rally status and /session status.
    let r = send(&mut c, "/rally status").await;
    let board = text(&r);
    assert!(
        board.contains("Hopper (lap 0/2)") && board.contains("record 1/6"),
        "{board}"
    );
    let r = send(&mut c, "/session status").await;
    assert!(text(&r).contains("**RATTLED**"), "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn initiative_orders_every_gear_and_is_stored() {
    let mut c = system_console().await;
    race(&mut c).await;
    // Hopper 3,1 → 3; Brute 6,4 → 7.
    c.queue_dice([3, 1, 6, 4]);
    let r = send(&mut c, "/rally initiative").await;
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.starts_with("1. **Brute** — **7**"), "{d}");
    assert!(d.contains("2. **Hopper** — **3**"), "{d}");
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    assert_eq!(s.turn.order, vec!["Brute".to_string(), "Hopper".to_string()]);
    assert_eq!(s.turn.round, 1);
    // A tie (4 and 4): Hopper is ahead on the track, so Hopper wins it.
    c.queue_dice([4, 2, 4, 1]);
    let r = send(&mut c, "/rally initiative ahead:Hopper, Brute").await;
    assert!(text(&r).contains("the gear ahead wins"), "{}", text(&r));
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    assert_eq!(s.turn.order, vec!["Hopper".to_string(), "Brute".to_string()]);
    assert_eq!(s.turn.round, 2);
    // A third gear joins (seated after Brute). Brute 6,4 → 7 wins, Hopper 5,1 → 5, Cobra 4,1 → 4:
    // Brute acts first, then play goes clockwise — Cobra, then Hopper — whatever the ranking.
    let cobra = HOPPER.replace("name:Hopper", "name:Cobra");
    assert!(!send(&mut c, &cobra).await.ephemeral);
    c.queue_dice([5, 1, 6, 4, 4, 1]);
    let r = send(&mut c, "/rally initiative").await;
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(
        d.starts_with("1. **Brute** — **7**") && d.contains("2. **Hopper** — **5**"),
        "{d}"
    );
    assert!(text(&r).contains("Brute → Cobra → Hopper"), "{}", text(&r));
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    assert_eq!(
        s.turn.order,
        ["Brute", "Cobra", "Hopper"].map(String::from).to_vec()
    );
    // Rally the Crowd then shows up as an extra die.
    send(&mut c, "/rally activate gear:Brute").await;
    let r = send(&mut c, "/rally crowd gear:Brute").await;
    assert!(text(&r).contains("Rally ×1"), "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn bad_input_is_an_ephemeral_localized_error_and_nothing_is_written() {
    let mut c = system_console().await;
    race(&mut c).await;
    let v = version(&c).await;
    let r = send(&mut c, "/rally attack attacker:Nobody defender:Brute distance:3").await;
    assert!(r.ephemeral);
    assert!(r.content().contains("Nobody"), "{}", r.content());
    // Hopper has not activated: the engine refuses, nothing is rolled or written.
    c.queue_dice([6, 6, 6, 6]);
    let r = send(&mut c, "/rally attack attacker:Hopper defender:Brute distance:3").await;
    assert!(
        r.ephemeral && r.content().contains("not activating"),
        "{}",
        r.content()
    );
    let r = send(
        &mut c,
        "/rally attack attacker:Hopper defender:Brute distance:3 weapon:laser",
    )
    .await;
    assert!(r.ephemeral && r.content().contains("wacker"), "{}", r.content());
    // The rating's 2–6 is the option's own bound: Discord refuses 7 before the bot sees it.
    let err = c.type_line("/rally check rating:7").await.unwrap_err();
    assert!(err.to_string().contains("out of range (2 to 6)"), "{err}");
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    let r = as_(&mut c, &ja, "/rally activate gear:Nobody").await;
    assert!(
        r.ephemeral && r.content().contains("「Nobody」"),
        "{}",
        r.content()
    );
    // A bad rating on a gear sheet.
    let r = send(
        &mut c,
        "/char add name:Bad stats:attack=9 defence=4 initiative=4 mr=10 hits=2/1 ar=4",
    )
    .await;
    assert!(r.ephemeral && r.content().contains("9+"), "{}", r.content());
    // Someone else's gear.
    let mut bob = c.invoker();
    bob.user = user_for("bob");
    bob.permissions = SEND_MESSAGES;
    let r = as_(&mut c, &bob, "/rally activate gear:Hopper").await;
    assert!(r.ephemeral, "{}", text(&r));
    let r = as_(&mut c, &bob, "/rally initiative").await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, v, "nothing was written");
    // The dice queued for the refused attack are still there.
    let r = send(&mut c, "/rally roll rating:4 dice:4").await;
    assert_eq!(field(&r.embeds()[0], "Successes"), "**4**");
    c.shutdown().await;
}

#[tokio::test]
async fn the_gms_scenario_roll_is_kept_with_the_race_and_models_autocomplete() {
    let mut c = system_console().await;
    send(&mut c, "/session start name:Cup system:badlands_rally").await;
    // Race Day (die 1) with a laps die of 5 → three laps.
    c.queue_dice([1, 5]);
    let r = send(&mut c, "/rally scenario").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    assert_eq!(s.system_state["race"]["laps"], 3, "{}", s.system_state);
    assert!(
        !s.system_state["race"]["scenario"].is_null(),
        "{}",
        s.system_state
    );
    // The datacards autocomplete in /char add's model option.
    let command = c
        .fake
        .commands(Some(DEFAULT_GUILD))
        .into_iter()
        .find(|c| c["name"] == "char")
        .unwrap();
    let options = serde_json::json!([{ "name": "add", "type": 1, "options": [
        { "name": "name", "type": 3, "value": "Hopper" },
        { "name": "model", "type": 3, "value": "jerb", "focused": true },
    ]}]);
    let who = c.invoker();
    let interaction = c
        .fake
        .command_interaction(&who, 4, &command, options, serde_json::json!({}));
    let id = c.fake.deliver(interaction).unwrap();
    let r = c.fake.wait_reply(id, Duration::from_secs(15)).await.unwrap();
    let choices = r.body["data"]["choices"].as_array().unwrap();
    assert_eq!(choices[0]["value"], "jerboa", "{choices:?}");
    c.shutdown().await;
}

const HUNTER: &str = r#"/char add name:Hunter stats:model=hunter attack=4+ defence=4+ initiative=4+ mr=10 hits=3/2 ar=6 weapon1="Autocannon 7 2-4/10""#;

/// Send a command and return its reply and the message it posted (buttons included).
async fn posted(c: &mut Console, line: &str) -> (Reply, Value) {
    let who = c.invoker();
    let (id, r) = c
        .send_as(line, &who)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    let message = c.fake.original_message(id).unwrap_or(Value::Null);
    (r, message)
}

#[tokio::test]
async fn reliable_rerolls_an_attack_once_per_lap_from_a_button() {
    let mut c = system_console().await;
    send(&mut c, "/session start name:Race system:Badlands Rally").await;
    for line in [HUNTER, BRUTE] {
        let r = send(&mut c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
    send(&mut c, "/rally activate gear:Hunter").await;
    // Attack 2,1 at 4+ → 2; Brute's defence 6,5 at 4+ → 7: MOF 5.
    c.queue_dice([2, 1, 6, 5]);
    let (r, message) = posted(&mut c, "/rally attack attacker:Hunter defender:Brute distance:4").await;
    assert!(text(&r).contains("MOF 5"), "{}", text(&r));
    let reroll = button(&message, "Reliable: reroll Hunter's attack");
    assert_eq!(buttons(&message).len(), 1, "Brute has no Reliable: {message}");

    // Someone else may not press it; nothing changes.
    let v = version(&c).await;
    let mut bob = c.invoker();
    bob.user = user_for("bob");
    bob.permissions = SEND_MESSAGES;
    let r = press(&c, &bob, &message, &reroll).await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, v);

    // The attack is rerolled (6,5 → 7), the defence kept (7): MOS 0, a hit; damage 0 + (7 − 6)
    // = 1 die: 4 → 1 damage.
    c.queue_dice([6, 5, 4]);
    let gm = c.invoker();
    let r = press(&c, &gm, &message, &reroll).await;
    assert_eq!(r.body["type"], 7, "the result is updated in place: {}", text(&r));
    let e = &r.embeds()[0];
    assert!(e["description"].as_str().unwrap().contains("MOS 0"), "{e}");
    assert!(field(e, "Attack — Hunter").contains("→ **7**"), "{e}");
    assert!(field(e, "Defence — Brute").contains("→ **7**"), "{e}");
    assert!(e["footer"]["text"].as_str().unwrap().contains("Reliable"), "{e}");
    assert!(field(e, "Brute").starts_with("■□/■■"), "{e}");
    assert_eq!(r.message["components"], serde_json::json!([]));
    assert_eq!(sheet(&c, "Brute").await["state"]["hull"], 1);
    assert_eq!(sheet(&c, "Hunter").await["state"]["reliable_used_lap"], 0);
    // Once: a second press is refused and changes nothing.
    let v = version(&c).await;
    let r = press(&c, &gm, &message, &reroll).await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, v);

    // Next round, same lap: no Reliable button any more.
    c.queue_dice([5, 4, 3, 1]);
    send(&mut c, "/rally initiative").await;
    send(&mut c, "/rally activate gear:Hunter").await;
    c.queue_dice([2, 1, 6, 5]);
    let (r, message) = posted(&mut c, "/rally attack attacker:Hunter defender:Brute distance:4").await;
    assert!(text(&r).contains("MOF"), "{}", text(&r));
    assert!(
        buttons(&message).is_empty(),
        "Reliable is spent for lap 0: {message}"
    );

    // A new lap brings it back; a stale button (the race moved on) is refused and stays usable.
    send(&mut c, "/rally lap gear:Hunter").await;
    c.queue_dice([5, 4, 3, 1]);
    send(&mut c, "/rally initiative").await;
    send(&mut c, "/rally activate gear:Hunter").await;
    c.queue_dice([2, 1, 6, 5]);
    let (_, message) = posted(&mut c, "/rally attack attacker:Hunter defender:Brute distance:4").await;
    let reroll = button(&message, "Reliable");
    send(&mut c, "/rally end gear:Hunter").await;
    let r = press(&c, &gm, &message, &reroll).await;
    assert!(r.ephemeral && r.content().contains("moved on"), "{}", text(&r));
    let r = press(&c, &gm, &message, &reroll).await;
    assert!(
        r.content().contains("moved on"),
        "released, not used up: {}",
        text(&r)
    );
    assert_eq!(sheet(&c, "Hunter").await["state"]["reliable_used_lap"], 0);
    c.shutdown().await;
}

#[tokio::test]
async fn collisions_wrong_way_moves_and_contested_victory() {
    let mut c = system_console().await;
    race(&mut c).await;
    // Brute 6,4 → 7 wins the round over Hopper 3,1 → 3.
    c.queue_dice([3, 1, 6, 4]);
    send(&mut c, "/rally initiative").await;

    // Hopper (AR 5) pushed into Brute (AR 6) with MOS 2: Hopper rolls 2 + 1 = 3 dice (4,4,1 → 2),
    // Brute 2 − 1 = 1 die (5 → 1). Both took damage, so both spin out: Hopper turns 2, skids 3;
    // Brute turns 3, skids 2.
    // Cobra did the pushing: it is credited with both spin-outs.
    send(
        &mut c,
        "/char add name:Cobra stats:attack=4+ defence=4+ initiative=4+ mr=10 hits=2/2 ar=6",
    )
    .await;
    c.queue_dice([4, 4, 1, 5, 2, 3, 3, 2]);
    let r = send(
        &mut c,
        "/rally collide gear:Hopper cause:push amount:2 into:Brute by:Cobra",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(
        e["title"]
            .as_str()
            .unwrap()
            .contains("Hopper → Brute (collision)"),
        "{e}"
    );
    let hopper = field(e, "→ Hopper");
    assert!(
        hopper.contains("3 dice [**4**, **4**, ~~1~~] → **2 damage**"),
        "{hopper}"
    );
    assert!(
        hopper.contains("**RATTLED**") && hopper.contains("skid [3] + 0 excess = **3 hexes**"),
        "{hopper}"
    );
    let brute = field(e, "→ Brute");
    assert!(brute.contains("1 dice [**5**] → **1 damage**"), "{brute}");
    assert!(field(e, "Brute").starts_with("■□/■■"), "{e}");
    assert_eq!(field(e, "Spin-outs caused"), "Cobra: +2");
    assert_eq!(sheet(&c, "Cobra").await["state"]["spin_outs_caused"], 2);
    assert_eq!(sheet(&c, "Hopper").await["state"]["hull"], 0);
    assert_eq!(sheet(&c, "Brute").await["state"]["hull"], 1);

    // Skidding into terrain: always 2D6 (3,2 → no damage, no spin-out).
    c.queue_dice([3, 2]);
    let r = send(&mut c, "/rally collide gear:Brute cause:skid amount:5").await;
    let e = &r.embeds()[0];
    assert!(e["title"].as_str().unwrap().contains("Brute → terrain"), "{e}");
    assert!(
        field(e, "→ Brute").contains("2 dice [3, 2] → **0 damage**"),
        "{e}"
    );
    assert_eq!(sheet(&c, "Brute").await["state"]["hull"], 1);

    // The wrong way: the record advances, no RATTLED token.
    let r = send(&mut c, "/rally wrongway gear:Brute").await;
    let brute = field(&r.embeds()[0], "Brute");
    assert!(
        brute.contains("record 1/6") && !brute.contains("RATTLED"),
        "{brute}"
    );

    // Moving at top speed: normal 1, rough 1 (Rough Racer), a turn 1, normal 1 = 4 MR.
    send(&mut c, "/rally activate gear:Brute speed:top").await;
    let before = sheet(&c, "Brute").await["state"]["activation"].clone();
    let r = send(&mut c, "/rally move gear:Brute path:n r t n").await;
    assert!(
        r.embeds()[0]["description"]
            .as_str()
            .unwrap()
            .contains("4 MR spent"),
        "{}",
        text(&r)
    );
    assert_ne!(sheet(&c, "Brute").await["state"]["activation"], before);
    let v = version(&c).await;
    let r = send(&mut c, "/rally move gear:Brute path:-n").await;
    assert!(r.ephemeral, "no backwards at top speed: {}", text(&r));
    let r = send(&mut c, "/rally move gear:Brute path:n q").await;
    assert!(r.ephemeral && r.content().contains("“q”"), "{}", r.content());
    assert_eq!(version(&c).await, v);

    // Nobody has finished: no winner yet.
    let r = send(&mut c, "/rally victory").await;
    assert!(text(&r).contains("No gear has finished yet"), "{}", text(&r));
    // Both finish their second lap in round 1: a contested victory. Hopper (rattled: 1 die)
    // 6 − record 1 = 5; Brute 3,2 → 3 − record 1 = 2.
    for g in ["Hopper", "Hopper", "Brute", "Brute"] {
        send(&mut c, &format!("/rally lap gear:{g}")).await;
    }
    // Judged when the round ends: Cobra and Hopper have not activated yet.
    let r = send(&mut c, "/rally victory").await;
    assert!(
        text(&r).contains("the winner is judged when the round ends"),
        "{}",
        text(&r)
    );
    for line in [
        "/rally end gear:Brute",
        "/rally activate gear:Hopper",
        "/rally end gear:Hopper",
        "/rally activate gear:Cobra",
        "/rally end gear:Cobra",
    ] {
        let r = send(&mut c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
    let r = send(&mut c, "/rally status").await;
    assert!(
        text(&r).contains("Contested victory: Hopper, Brute"),
        "{}",
        text(&r)
    );
    assert!(text(&r).contains("Hopper (lap 2/2)"), "{}", text(&r));
    c.queue_dice([6, 3, 2]);
    let r = send(&mut c, "/rally victory").await;
    let e = &r.embeds()[0];
    let d = e["description"].as_str().unwrap();
    assert!(d.starts_with("## 🏆 Hopper wins"), "{d}");
    assert!(d.contains("1. **Hopper** — **5** −1"), "{d}");
    assert!(d.contains("2. **Brute** — **2** −1"), "{d}");
    c.shutdown().await;
}

#[tokio::test]
async fn scenario_rules_follow_the_stored_scenario() {
    let mut c = system_console().await;
    race(&mut c).await;
    // Grudge Match (3): rattling a target earns a free Rally token.
    c.queue_dice([3]);
    send(&mut c, "/rally scenario").await;
    c.queue_dice([3, 1, 6, 4]);
    send(&mut c, "/rally initiative").await;
    send(&mut c, "/rally activate gear:Hopper").await;
    c.queue_dice([6, 5, 2, 1, 4, 4, 4, 1, 1]);
    let r = send(&mut c, "/rally attack attacker:Hopper defender:Brute distance:4").await;
    let e = &r.embeds()[0];
    assert!(field(e, "Brute").contains("**RATTLED**"), "{e}");
    assert!(field(e, "→ Hopper").contains("+1 Rally token(s)"), "{e}");
    assert!(field(e, "Hopper").contains("Rally ×1"), "{e}");

    // Show Off Central (5): a jump over a gear earns a token. Initiative spends Hopper's token
    // (3 dice with it: 3,1,1; Brute rattled: 1 die, 6).
    c.queue_dice([5]);
    send(&mut c, "/rally scenario").await;
    c.queue_dice([3, 1, 1, 6]);
    send(&mut c, "/rally initiative").await;
    assert_eq!(sheet(&c, "Hopper").await["state"]["rally_tokens"], 0);
    send(&mut c, "/rally activate gear:Hopper").await;
    // Defence 3+ with 2 + 2 (Jump Jets) dice: 5,4,1,2 → 2 hexes jumped over 1 gear.
    c.queue_dice([5, 4, 1, 2]);
    let r = send(&mut c, "/rally jump gear:Hopper gears_jumped:1").await;
    assert!(text(&r).contains("2 hexes jumped"), "{}", text(&r));
    assert!(
        field(&r.embeds()[0], "Changes").contains("+1 Rally token(s)"),
        "{}",
        text(&r)
    );
    assert_eq!(sheet(&c, "Hopper").await["state"]["rally_tokens"], 1);

    // Derby (6): three laps, and each gear's spin-outs caused on the board.
    c.queue_dice([6]);
    send(&mut c, "/rally scenario").await;
    for line in ["/rally status", "/session status"] {
        let r = send(&mut c, line).await;
        let board = text(&r);
        assert!(board.contains("Derby · 3 laps"), "{line}: {board}");
        assert!(board.contains("Hopper (lap 0/3)"), "{line}: {board}");
        assert!(board.contains("spin-outs caused 0/6"), "{line}: {board}");
    }
    // Hopper spins Brute out (rattled: 1 defence die, a 1): Hopper's Derby count is 1/6.
    c.queue_dice([3, 1, 1, 6]);
    send(&mut c, "/rally initiative").await;
    send(&mut c, "/rally activate gear:Hopper").await;
    c.queue_dice([6, 5, 1, 1, 1, 1, 1, 1, 1, 2, 3]);
    let r = send(&mut c, "/rally attack attacker:Hopper defender:Brute distance:4").await;
    assert!(text(&r).contains("Spin-out"), "{}", text(&r));
    let r = send(&mut c, "/session status").await;
    let board = text(&r);
    let hopper = board
        .split("Hopper (lap 0/3)")
        .nth(1)
        .unwrap_or_else(|| panic!("{board}"));
    assert!(hopper.contains("spin-outs caused 1/6"), "{board}");
    c.shutdown().await;
}

#[tokio::test]
async fn each_side_rerolls_with_its_own_reliable_and_only_its_owner_or_the_gm_may() {
    let mut c = system_console().await;
    send(&mut c, "/session start name:Race system:Badlands Rally").await;
    let jager = r#"/char add name:Jager owner:@bob stats:model=jager attack=4+ defence=4+ initiative=4+ mr=10 hits=3/2 ar=6 weapon1="Autocannon 7 2-4/10""#;
    for line in [HUNTER, jager] {
        let r = send(&mut c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
    send(&mut c, "/rally activate gear:Hunter").await;
    // Attack 6,5 → 7; Jager's defence 2,1 → 2: MOS 5, 5 + (7 − 6) = 6 damage dice, all 1s.
    c.queue_dice([6, 5, 2, 1, 1, 1, 1, 1, 1, 1]);
    let (r, first) = posted(&mut c, "/rally attack attacker:Hunter defender:Jager distance:4").await;
    assert!(text(&r).contains("MOS 5"), "{}", text(&r));
    assert_eq!(buttons(&first).len(), 2, "{first}");
    let defence = button(&first, "Reliable: reroll Jager's defence");

    let mut bob = c.invoker();
    bob.user = user_for("bob");
    bob.permissions = SEND_MESSAGES;
    // Bob may not reroll Hunter's attack.
    let r = press(
        &c,
        &bob,
        &first,
        &button(&first, "Reliable: reroll Hunter's attack"),
    )
    .await;
    assert!(r.ephemeral && r.content().contains("Only"), "{}", text(&r));
    // Bob rerolls his defence: 6,5 → 7 against the kept 7: MOS 0; 0 + 1 = 1 damage die, 1.
    c.queue_dice([6, 5, 1]);
    let r = press(&c, &bob, &first, &defence).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert!(text(&r).contains("MOS 0"), "{}", text(&r));
    assert_eq!(sheet(&c, "Jager").await["state"]["reliable_used_lap"], 0);
    let second = updated_message(&first, &r);
    assert_eq!(
        buttons(&second).len(),
        1,
        "only Hunter's reroll is left: {second}"
    );
    // The first message's Hunter button is stale now.
    let gm = c.invoker();
    let r = press(
        &c,
        &gm,
        &first,
        &button(&first, "Reliable: reroll Hunter's attack"),
    )
    .await;
    assert!(r.ephemeral && r.content().contains("moved on"), "{}", text(&r));
    // The GM rerolls Hunter's attack on the new result (Jager's 7 kept): 3,2 → 3, MOF 4.
    c.queue_dice([3, 2]);
    let r = press(
        &c,
        &gm,
        &second,
        &button(&second, "Reliable: reroll Hunter's attack"),
    )
    .await;
    assert!(text(&r).contains("MOF 4"), "{}", text(&r));
    assert!(
        field(&r.embeds()[0], "Defence — Jager").contains("→ **7**"),
        "{}",
        text(&r)
    );
    assert_eq!(r.message["components"], serde_json::json!([]));
    assert_eq!(sheet(&c, "Hunter").await["state"]["reliable_used_lap"], 0);
    assert_eq!(
        sheet(&c, "Jager").await["state"]["reliable_used_lap"],
        0,
        "Jager's reroll stays spent"
    );
    assert_eq!(sheet(&c, "Jager").await["state"]["hull"], 3);
    c.shutdown().await;
}

/// The message as a press updated it.
fn updated_message(old: &Value, r: &Reply) -> Value {
    let mut m = old.clone();
    m["embeds"] = r.message["embeds"].clone();
    m["components"] = r.message["components"].clone();
    m
}

#[tokio::test]
async fn new_race_commands_speak_japanese() {
    let mut c = system_console().await;
    race(&mut c).await;
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    // Terrain 2D6: 4,5 → 2 damage, and the spin-out: turns 1, skid 2.
    c.queue_dice([4, 5, 1, 2]);
    let r = as_(&mut c, &ja, "/rally collide gear:Hopper cause:skid amount:3").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(
        e["title"].as_str().unwrap().contains("Hopper → 地形 (衝突)"),
        "{e}"
    );
    assert!(field(e, "→ Hopper").contains("スキッド [2]"), "{e}");
    assert!(
        field(e, "→ Hopper").contains("2個 [**4**, **5**] → **2ダメージ**"),
        "{e}"
    );
    let r = as_(&mut c, &ja, "/rally victory").await;
    assert!(
        text(&r).contains("まだゴールしたギアはありません"),
        "{}",
        text(&r)
    );
    let r = as_(&mut c, &ja, "/rally move gear:Hopper path:n x").await;
    assert!(r.ephemeral && r.content().contains("「x」"), "{}", r.content());
    // Issue 36: the path in the Japanese words its description shows; the refusal names them.
    let r = as_(&mut c, &ja, "/ラリー 移動 ギア:Hopper 経路:通常 向こう").await;
    assert!(
        r.ephemeral && r.content().contains("「向こう」") && r.content().contains("舗装・通常・荒地・水"),
        "{}",
        r.content()
    );
    let r = as_(&mut c, &ja, "/rally status").await;
    assert!(text(&r).contains("Hopper (0/2ラップ)"), "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn reliable_rerolls_a_burn_rubber_test() {
    let mut c = system_console().await;
    send(&mut c, "/session start name:Race system:Badlands Rally").await;
    for line in [HUNTER, HOPPER] {
        send(&mut c, line).await;
    }
    send(&mut c, "/rally activate gear:Hunter").await;
    // Defence 4+ with 2 dice: 1,2 → no success, +0 MR.
    c.queue_dice([1, 2]);
    let (r, message) = posted(&mut c, "/rally burn gear:Hunter").await;
    assert!(text(&r).contains("+0 MR"), "{}", text(&r));
    let reroll = button(&message, "Reliable: reroll Hunter's test");
    // Hopper has no Reliable: no button on its test.
    send(&mut c, "/rally activate gear:Hopper").await;
    c.queue_dice([1, 2]);
    let (_, plain) = posted(&mut c, "/rally burn gear:Hopper").await;
    assert!(buttons(&plain).is_empty(), "{plain}");
    // The reroll: 5,6 → +2 MR, from the state before the test (one action, spent once).
    c.queue_dice([5, 6]);
    let gm = c.invoker();
    let r = press(&c, &gm, &message, &reroll).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert!(text(&r).contains("+2 MR"), "{}", text(&r));
    assert!(
        r.embeds()[0]["footer"]["text"]
            .as_str()
            .unwrap()
            .contains("Reliable")
    );
    assert_eq!(r.message["components"], serde_json::json!([]));
    assert_eq!(sheet(&c, "Hunter").await["state"]["reliable_used_lap"], 0);
    let r = press(&c, &gm, &message, &reroll).await;
    assert!(r.ephemeral, "once: {}", text(&r));
    c.shutdown().await;
}

async fn session_json(c: &Console) -> engine::session::Session {
    c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap()
}

#[tokio::test]
async fn area_effect_neighbours_typed_twice_are_hit_once() {
    let mut c = system_console().await;
    race(&mut c).await;
    send(
        &mut c,
        r#"/char add name:Gunner stats:attack=4+ defence=4+ initiative=4+ mr=10 hits=2/1 ar=5 weapon1="Mortar 7 2-4/10 ae impact""#,
    )
    .await;
    send(&mut c, "/rally activate gear:Gunner").await;
    // Attack 6,1 → 6; Brute's defence 5,2 → 5: MOS 1, 1 + (7 − 6) = 2 dice 4,4 → 2 damage;
    // Impact: Brute turns 2, skids 3. Hopper takes 1 (Impact: turn 1, skid 4) — once. The
    // last 6 is left for the roll after.
    c.queue_dice([6, 1, 5, 2, 4, 4, 2, 3, 1, 4, 6]);
    let r = send(
        &mut c,
        r#"/rally attack attacker:Gunner defender:Brute distance:3 adjacent:"Hopper, hopper, HOPPER, Brute""#,
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Hopper").await["state"]["hull"], 1);
    assert_eq!(sheet(&c, "Gunner").await["state"]["spin_outs_caused"], 2);
    let r = send(&mut c, "/rally roll rating:4 dice:1").await;
    assert!(text(&r).contains("6"), "one die left over: {}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn a_jump_landing_on_a_gear_stops_short_and_both_collide() {
    let mut c = system_console().await;
    race(&mut c).await;
    send(&mut c, "/rally activate gear:Hopper").await;
    // 2 + 2 (Jump Jets) dice at 3+: 5,4,1,2 → 2 successes → 3 hexes; Brute is in the third:
    // stopped after 2. Collision with the jump's 4 dice: Hopper (AR 5) 5 dice, all 1s; Brute
    // (AR 6) 3 dice 4,1,1 → 1. Hopper spins out (turn 2, skid 3); Brute rolls a 6.
    c.queue_dice([5, 4, 1, 2, 1, 1, 1, 1, 1, 4, 1, 1, 2, 3, 6]);
    let r = send(&mut c, "/rally jump gear:Hopper landing_on:brute").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert!(text(&r).contains("stopped in the hex before it"), "{}", text(&r));
    assert!(text(&r).contains("2 MR spent"), "{}", text(&r));
    let hopper = sheet(&c, "Hopper").await;
    assert_eq!(hopper["state"]["activation"]["phase"], "done", "{hopper}");
    assert_eq!(hopper["state"]["spin_outs_caused"], 1);
    let brute = sheet(&c, "Brute").await;
    assert_eq!(brute["state"]["hull"], 1);
    assert_eq!(brute["state"]["rally_tokens"], 1);
    // Landing on a gear that is not in the race: refused, nothing written.
    send(&mut c, "/rally activate gear:Brute").await;
    let v = version(&c).await;
    let r = send(&mut c, "/rally jump gear:Brute landing_on:Nobody").await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, v);
    c.shutdown().await;
}

#[tokio::test]
async fn upgrade_twins_picks_the_only_weapon_or_asks_before_rolling() {
    let mut c = system_console().await;
    race(&mut c).await;
    // Hopper's only Rifle: a 6 pairs it.
    c.queue_dice([6]);
    let r = send(&mut c, "/rally upgrade gear:Hopper").await;
    assert!(text(&r).contains("Twins on weapon 1"), "{}", text(&r));
    assert_eq!(
        sheet(&c, "Hopper").await["sheet"]["upgrades"],
        serde_json::json!([{"twins": {"weapon": 0}}])
    );
    // Two weapons Twins could pair and none named: refused before the die is rolled.
    send(
        &mut c,
        r#"/char add name:Duo stats:attack=4+ defence=4+ initiative=4+ mr=10 hits=2/1 ar=5 weapon1="Rifle 6 3-6/12" weapon2="Autocannon 7 2-4/10""#,
    )
    .await;
    let v = version(&c).await;
    c.queue_dice([6]);
    let r = send(&mut c, "/rally upgrade gear:Duo").await;
    assert!(
        r.ephemeral && r.content().contains("weapon:1 / 2"),
        "{}",
        r.content()
    );
    assert_eq!(version(&c).await, v);
    let r = send(&mut c, "/rally upgrade gear:Duo weapon:2").await;
    assert!(text(&r).contains("Twins on weapon 2"), "{}", text(&r));
    // No weapon to pair: the roll stands, with no effect.
    send(
        &mut c,
        "/char add name:Bare stats:attack=4+ defence=4+ initiative=4+ mr=10 hits=2/1 ar=5",
    )
    .await;
    c.queue_dice([6]);
    let r = send(&mut c, "/rally upgrade gear:Bare").await;
    assert!(text(&r).contains("no effect"), "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn a_lap_counted_against_other_laps_keeps_the_race_length() {
    let mut c = system_console().await;
    race(&mut c).await;
    let r = send(&mut c, "/rally lap gear:Hopper laps:1").await;
    assert!(text(&r).contains("finished in round"), "{}", text(&r));
    let s = session_json(&c).await;
    assert_eq!(s.system_state["race"]["laps"], 2, "{}", s.system_state);
    c.shutdown().await;
}

#[tokio::test]
async fn the_attacking_player_applies_damage_with_impact_where_the_server_allows_it() {
    let mut c = system_console().await;
    send(&mut c, "/session start name:Race system:Badlands Rally").await;
    send(&mut c, BRUTE).await;
    send(
        &mut c,
        r#"/char add name:Bobcat owner:@bob stats:attack=4+ defence=4+ initiative=4+ mr=10 hits=2/1 ar=5 weapon1="Rifle 6 3-6/12""#,
    )
    .await;
    let mut bob = c.invoker();
    bob.user = user_for("bob");
    bob.permissions = SEND_MESSAGES;
    // Not his gear, no attacker: refused.
    let v = version(&c).await;
    let r = as_(&mut c, &bob, "/rally damage mos:1 pow:7 target:Brute").await;
    assert!(r.ephemeral, "{}", text(&r));
    let r = as_(
        &mut c,
        &bob,
        "/rally damage mos:1 pow:7 target:Bobcat attacker:Brute",
    )
    .await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, v);
    // Typed numbers land on the GM's gear only by the GM's hand — unless the server lets the
    // attacking gear's player apply them.
    let r = as_(
        &mut c,
        &bob,
        "/rally damage mos:1 pow:7 target:Brute attacker:Bobcat impact:true",
    )
    .await;
    assert!(r.ephemeral && text(&r).contains("Brute"), "{}", text(&r));
    assert_eq!(version(&c).await, v);
    send(
        &mut c,
        "/config option name:rally.attacker_applies_damage value:on",
    )
    .await;
    // As Bobcat's player: 1 + (7 − 6) = 2 dice, 4,4 → 2 damage; Impact: turn 2, skid 3.
    c.queue_dice([4, 4, 2, 3]);
    let r = as_(
        &mut c,
        &bob,
        "/rally damage mos:1 pow:7 target:Brute attacker:Bobcat impact:true",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(field(e, "Spin-out").contains("3 hexes"), "{e}");
    assert!(field(e, "→ Bobcat").contains("spin-outs caused +1"), "{e}");
    assert_eq!(sheet(&c, "Bobcat").await["state"]["spin_outs_caused"], 1);
    assert_eq!(sheet(&c, "Brute").await["state"]["hull"], 0);
    c.shutdown().await;
}

const JAGER_BOB: &str = r#"/char add name:Jager owner:@bob stats:model=jager attack=4+ defence=4+ initiative=4+ mr=10 hits=3/2 ar=6 weapon1="Autocannon 7 2-4/10""#;

fn bob(c: &Console) -> Invoker {
    let mut bob = c.invoker();
    bob.user = user_for("bob");
    bob.permissions = SEND_MESSAGES;
    bob
}

#[tokio::test]
async fn reliable_rerolls_pole_position_and_a_rounds_initiative_from_buttons() {
    let mut c = system_console().await;
    send(&mut c, "/session start name:Race system:Badlands Rally").await;
    for line in [HUNTER, HOPPER, JAGER_BOB] {
        let r = send(&mut c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
    // Pole: Hunter 2,1 → 2; Hopper 6,5 → 7; Jager 3,1 → 3.
    c.queue_dice([2, 1, 6, 5, 3, 1]);
    let (r, first) = posted(&mut c, "/rally initiative pole:true").await;
    assert!(text(&r).contains("1. **Hopper** — **7**"), "{}", text(&r));
    assert_eq!(buttons(&first).len(), 2, "Hopper has no Reliable: {first}");
    let hunter = button(&first, "Reliable: reroll Hunter's pole position check");
    let jager = button(&first, "Reliable: reroll Jager's pole position check");

    // Bob may not reroll the GM's Hunter; nothing is written.
    let v = version(&c).await;
    let r = press(&c, &bob(&c), &first, &hunter).await;
    assert!(r.ephemeral && r.content().contains("Only"), "{}", text(&r));
    assert_eq!(version(&c).await, v);

    // The GM rerolls Hunter: 6,6 → 7 ties Hopper's 7, and pole ties reroll: Hopper 2,1 → 2,
    // Hunter 5,4 → 6. Hunter takes the pole; the order and the pole are stored.
    c.queue_dice([6, 6, 2, 1, 5, 4]);
    let gm = c.invoker();
    let r = press(&c, &gm, &first, &hunter).await;
    assert_eq!(r.body["type"], 7, "updated in place: {}", text(&r));
    let e = &r.embeds()[0];
    let d = e["description"].as_str().unwrap();
    assert!(d.starts_with("1. **Hunter** — **6**"), "{d}");
    assert!(d.contains("(Reliable, was ~~2~~)"), "{d}");
    assert!(e["footer"]["text"].as_str().unwrap().contains("Reliable"), "{e}");
    let s = session_json(&c).await;
    assert_eq!(s.turn.order, ["Hunter", "Hopper", "Jager"]);
    assert_eq!(s.system_state["race"]["pole"], "Hunter");
    assert_eq!(sheet(&c, "Hunter").await["state"]["reliable_used_lap"], 0);
    let second = updated_message(&first, &r);
    assert_eq!(buttons(&second).len(), 1, "only Jager's is left: {second}");
    // A second press of Hunter's button is refused.
    let v = version(&c).await;
    let r = press(&c, &gm, &first, &hunter).await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, v);
    // The first message's Jager button is stale; the new one works for Bob: 4,1 → 4, still
    // third (Hunter and Hopper keep their tie rerolls: no new dice).
    let r = press(&c, &bob(&c), &first, &jager).await;
    assert!(r.ephemeral && r.content().contains("moved on"), "{}", text(&r));
    c.queue_dice([4, 1]);
    let r = press(
        &c,
        &bob(&c),
        &second,
        &button(&second, "Reliable: reroll Jager's pole position check"),
    )
    .await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert!(text(&r).contains("3. **Jager** — **4**"), "{}", text(&r));
    assert_eq!(r.message["components"], serde_json::json!([]));
    assert_eq!(session_json(&c).await.turn.order, ["Hunter", "Hopper", "Jager"]);
    assert_eq!(sheet(&c, "Jager").await["state"]["reliable_used_lap"], 0);

    // Both spent for lap 0: the next round's initiative offers nothing.
    c.queue_dice([2, 1, 5, 4, 3, 2]);
    let (_, message) = posted(&mut c, "/rally initiative").await;
    assert!(buttons(&message).is_empty(), "{message}");
    // Hunter's next lap brings its reroll back: Hunter 2,1 → 2; Hopper 5,4 → 6; Jager 3,2 → 3.
    send(&mut c, "/rally lap gear:Hunter").await;
    c.queue_dice([2, 1, 5, 4, 3, 2]);
    let (r, message) = posted(&mut c, "/rally initiative").await;
    assert!(text(&r).contains("1. **Hopper** — **6**"), "{}", text(&r));
    assert_eq!(buttons(&message).len(), 1, "{message}");
    let reroll = button(&message, "Reliable: reroll Hunter's initiative");
    // Once the race moves on, the button is refused and nothing is written.
    send(&mut c, "/rally activate gear:Hopper").await;
    let v = version(&c).await;
    let r = press(&c, &gm, &message, &reroll).await;
    assert!(r.ephemeral && r.content().contains("moved on"), "{}", text(&r));
    assert_eq!(version(&c).await, v);
    // A fresh round: Hunter rerolls 6,5 → 7 and goes first.
    c.queue_dice([2, 1, 5, 4, 3, 2]);
    let (_, message) = posted(&mut c, "/rally initiative").await;
    let reroll = button(&message, "Reliable: reroll Hunter's initiative");
    c.queue_dice([6, 5]);
    let r = press(&c, &gm, &message, &reroll).await;
    assert!(text(&r).contains("1. **Hunter** — **7**"), "{}", text(&r));
    assert_eq!(session_json(&c).await.turn.order, ["Hunter", "Hopper", "Jager"]);
    assert_eq!(sheet(&c, "Hunter").await["state"]["reliable_used_lap"], 1);
    c.shutdown().await;
}

#[tokio::test]
async fn reliable_rerolls_the_contested_victory_check_which_is_kept_with_the_race() {
    let mut c = system_console().await;
    send(&mut c, "/session start name:Race system:Badlands Rally").await;
    for line in [HUNTER, JAGER_BOB] {
        send(&mut c, line).await;
    }
    c.queue_dice([5, 4, 3, 2]);
    send(&mut c, "/rally initiative").await;
    for g in ["Hunter", "Hunter", "Jager", "Jager"] {
        let r = send(&mut c, &format!("/rally lap gear:{g}")).await;
        assert!(!r.ephemeral, "{}", text(&r));
    }
    // The next round ends round 1: both finished in it. Neither has used Reliable yet.
    c.queue_dice([5, 4, 3, 2]);
    send(&mut c, "/rally initiative").await;
    // Hunter 3,2 → 3; Jager 6,5 → 7.
    c.queue_dice([3, 2, 6, 5]);
    let (r, first) = posted(&mut c, "/rally victory").await;
    assert!(text(&r).contains("🏆 Jager wins"), "{}", text(&r));
    assert_eq!(buttons(&first).len(), 2, "{first}");
    // Asked again, the stored check is shown: no dice are rolled.
    let r = send(&mut c, "/rally victory").await;
    assert!(text(&r).contains("🏆 Jager wins"), "{}", text(&r));
    // The GM rerolls Hunter: 6,6 → 7 ties, no track positions: both roll again, Jager 2,1 → 2,
    // Hunter 5,5 → 6.
    c.queue_dice([6, 6, 2, 1, 5, 5]);
    let gm = c.invoker();
    let r = press(
        &c,
        &gm,
        &first,
        &button(&first, "Reliable: reroll Hunter's victory check"),
    )
    .await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.starts_with("## 🏆 Hunter wins"), "{d}");
    assert_eq!(sheet(&c, "Hunter").await["state"]["reliable_used_lap"], 2);
    let second = updated_message(&first, &r);
    let s = session_json(&c).await;
    assert_eq!(
        s.system_state["race"]["contest"]["outcome"]["order"][0]["id"],
        "Hunter"
    );
    let r = send(&mut c, "/rally victory").await;
    assert!(
        text(&r).contains("🏆 Hunter wins"),
        "the reroll is kept: {}",
        text(&r)
    );
    // The first message's Jager button is stale; the new one is Bob's: 2,2 → 2, Hunter keeps it.
    let r = press(
        &c,
        &bob(&c),
        &first,
        &button(&first, "Reliable: reroll Jager's victory check"),
    )
    .await;
    assert!(r.ephemeral && r.content().contains("moved on"), "{}", text(&r));
    c.queue_dice([2, 2]);
    let r = press(
        &c,
        &bob(&c),
        &second,
        &button(&second, "Reliable: reroll Jager's victory check"),
    )
    .await;
    assert!(text(&r).contains("🏆 Hunter wins"), "{}", text(&r));
    assert_eq!(r.message["components"], serde_json::json!([]));
    assert_eq!(sheet(&c, "Jager").await["state"]["reliable_used_lap"], 2);
    c.shutdown().await;
}

#[tokio::test]
async fn collide_is_applied_only_by_the_gm_or_a_player_of_a_gear_in_it() {
    let mut c = system_console().await;
    race(&mut c).await;
    send(&mut c, JAGER_BOB).await;
    send(
        &mut c,
        "/char add name:Cobra owner:@carol stats:attack=4+ defence=4+ initiative=4+ mr=10 hits=2/2 ar=6",
    )
    .await;
    c.queue_dice([5, 4, 3, 2, 1, 1]);
    send(&mut c, "/rally initiative").await;
    let mut carol = c.invoker();
    carol.user = user_for("carol");
    carol.permissions = SEND_MESSAGES;
    // Carol's Cobra is not in this collision: refused in her language, nothing written.
    let v = version(&c).await;
    let r = as_(
        &mut c,
        &carol,
        "/rally collide gear:Hopper cause:push amount:2 into:Brute by:Jager",
    )
    .await;
    assert!(
        r.ephemeral
            && r.content()
                .contains("Only the GM or the player of one of the gears"),
        "{}",
        text(&r)
    );
    carol.locale = "ja".into();
    let r = as_(&mut c, &carol, "/rally collide gear:Hopper cause:skid amount:3").await;
    assert!(
        r.ephemeral && r.content().contains("GMか関係するギアのプレイヤー"),
        "{}",
        text(&r)
    );
    assert_eq!(version(&c).await, v);
    assert_eq!(sheet(&c, "Hopper").await["state"]["hull"], 2);
    assert_eq!(sheet(&c, "Cobra").await["state"]["spin_outs_caused"], 0);
    // Bob pushed Hopper into a wall with his Jager: terrain 4,5 → 2 damage, the spin-out turns 1,
    // skids 2, and Jager is credited with it.
    c.queue_dice([4, 5, 1, 2]);
    let b = bob(&c);
    let r = as_(
        &mut c,
        &b,
        "/rally collide gear:Hopper cause:skid amount:3 by:Jager",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Hopper").await["state"]["hull"], 0);
    assert_eq!(sheet(&c, "Jager").await["state"]["spin_outs_caused"], 1);
    c.shutdown().await;
}

/// A pool past the limit is refused with what was typed and the limit (it was clamped first
/// and read as "a pool of 1000"), in both languages, and nothing is rolled.
#[tokio::test]
async fn a_huge_pool_is_refused_as_typed_with_the_limit() {
    let mut c = system_console().await;
    c.queue_dice([6, 6]);
    for line in [
        "/rally roll rating:4 dice:2147483647",
        "/rally check rating:4 dice:2 extra:2147483647",
    ] {
        let r = send(&mut c, line).await;
        assert!(r.ephemeral, "{line}: {}", text(&r));
        assert!(
            r.content().contains("2147483647") && r.content().contains("60"),
            "{line}: {}",
            r.content()
        );
    }
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    let r = as_(&mut c, &ja, "/rally roll rating:4 dice:2147483647").await;
    assert!(
        r.ephemeral && r.content().contains("ダイスが2147483647個") && r.content().contains("60個まで"),
        "{}",
        r.content()
    );
    assert_eq!(c.dice_left(), Some(2), "nothing was rolled");
    c.shutdown().await;
}

//! d20 Mecha end to end through the fake Discord, typed as the console's users type: a whole
//! turn with two squads — initiative, an attack whose critical destroys an arm and its weapon,
//! the damage held until the application phase, then the Escape and Fatigue check buttons
//! (the owner's, once, after a restart) and the board on `/session status`.

use saikoro_bot::console::{Console, ConsoleOptions, Exchange, Who, exchange_text};
use saikoro_bot::fake_discord::button_id;

const ZAKU: &str = "/char add name:Zaku owner:@bob stats:squad=Red leader=yes judgement=3 tactics=2 concentration=4 shooting=3 reaction=3 evade=2 ap=5 spirit=10 durability=6 armour=4 evasion=1 escape_device=5 w1=\"MG 2d6+3 r3 front left_arm\" w2=\"Axe 1d6+4 melee right_arm\"";
const GUNDAM: &str = "/char add name:Gundam owner:@alice stats:squad=Blue leader=yes judgement=4 tactics=3 concentration=5 shooting=4 reaction=4 evade=3 ap=6 durability=30 armour=8 evasion=2 cockpit=all_round w1=\"Rifle 2d6+5 r4 front\"";

async fn start(dir: &std::path::Path) -> Console {
    Console::start(ConsoleOptions {
        dice: Some(vec![]),
        user: "gm".into(),
        admin: true,
        data_dir: Some(dir.to_path_buf()),
        ..Default::default()
    })
    .await
    .expect("bot starts against the fake Discord")
}

fn as_(c: &mut Console, name: &str) {
    c.set_who(Who::member(name));
}

fn gm(c: &mut Console) {
    c.set_who(Who::parse("gm admin").unwrap());
}

async fn line(c: &mut Console, text: &str) -> String {
    let x: Exchange = c.type_line(text).await.unwrap_or_else(|e| panic!("{text}: {e}"));
    c.readable(&exchange_text(&x))
}

#[tokio::test]
async fn a_whole_turn_held_damage_applied_then_escape_and_fatigue_checks() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = start(dir.path()).await;
    line(&mut c, "/session start name:Ridge system:mecha_d20").await;
    line(&mut c, ZAKU).await;
    line(&mut c, GUNDAM).await;
    let out = line(&mut c, "/mecha turn").await;
    assert!(out.contains("Turn 1 · initiative phase"), "{out}");

    // Gundam 5 + 4 + 3 = 12 against Zaku 12 + 3 + 2 = 17: Blue, the lower, acts first.
    c.queue_dice([5, 12]);
    let out = line(&mut c, "/mecha initiative").await;
    assert!(out.contains("1. Blue\n2. Red"), "{out}");

    // Red may not act in Blue's phase; nothing is rolled.
    as_(&mut c, "bob");
    let out = line(
        &mut c,
        "/mecha attack attacker:Zaku weapon:Axe target:Gundam distance:0",
    )
    .await;
    assert!(out.starts_with("(only you can see this)"), "{out}");
    // Nor may bob fire alice's suit.
    let out = line(
        &mut c,
        "/mecha attack attacker:Gundam weapon:Rifle target:Zaku distance:4",
    )
    .await;
    assert!(out.contains("(only you can see this)"), "{out}");

    // 15 + 9 = 24 against 3 + 6 = 9: a hit; 4, 4 a critical; 13 − 4 = 9; secondary 18 (arm).
    as_(&mut c, "alice");
    c.queue_dice([15, 3, 4, 4, 18]);
    let out = line(
        &mut c,
        "/mecha attack attacker:Gundam weapon:Rifle target:Zaku distance:4",
    )
    .await;
    assert!(
        out.contains("Attack: d20 **15** + Concentration 5 + Shooting 4 = **24**"),
        "{out}"
    );
    assert!(out.contains("**💥 HIT** (attack ≥ evasion)"), "{out}");
    assert!(out.contains("2d6+5 [4, 4] = 13 − armour 4 = 9 → **9**"), "{out}");
    assert!(out.contains("d20 **18** → 18 Arm destroyed!"), "{out}");
    assert!(out.contains("Held: #1"), "{out}");

    // Held, not applied: Zaku still stands in the second phase.
    gm(&mut c);
    let out = line(&mut c, "/session status").await;
    assert!(out.contains("Zaku: Durability 6/6 (pending −9)"), "{out}");
    assert!(!out.contains("DESTROYED"), "{out}");
    line(&mut c, "/mecha phase").await;
    // Only the GM runs the turn.
    as_(&mut c, "bob");
    let out = line(&mut c, "/mecha apply").await;
    assert!(out.contains("Only the GM runs the turn"), "{out}");
    gm(&mut c);
    let out = line(&mut c, "/mecha phase").await;
    assert!(out.contains("application phase"), "{out}");

    // Application: the left arm (d2 = 1) goes with the MG; Zaku at −3 is destroyed.
    c.queue_dice([1]);
    let x = c.type_line("/mecha apply").await.unwrap();
    let out = c.readable(&exchange_text(&x));
    assert!(out.contains("9 damage · durability 6 → -3"), "{out}");
    assert!(out.contains("arm destroyed (left) · lost: MG"), "{out}");
    assert!(out.contains("💀 DESTROYED: escape checks: Zaku"), "{out}");
    assert!(
        out.contains("[Escape check: Zaku] [Fatigue check: Gundam]"),
        "{out}"
    );
    let message = c
        .fake
        .original_message(x.interaction)
        .expect("the application message");
    let escape_id = button_id(&message, "Escape check").expect("an Escape check button");
    let fatigue_id = button_id(&message, "Fatigue check").expect("a Fatigue check button");

    // A restart: the buttons are in the store, the waiting checks in the session.
    c.shutdown().await;
    let mut c = start(dir.path()).await;
    let (escape_msg, fatigue_msg) = (&message, &message);
    let wait = std::time::Duration::from_secs(15);
    let alice = Who::member("alice").invoker("en-US");
    let bob = Who::member("bob").invoker("en-US");
    let r = c.fake.press(&alice, escape_msg, &escape_id, wait).await.unwrap();
    assert!(
        r.ephemeral && r.content().contains("can use this button"),
        "{:?}",
        r.message
    );
    // 5 + 16 = 21 ≥ 20: escaped.
    c.queue_dice([16]);
    let r = c.fake.press(&bob, escape_msg, &escape_id, wait).await.unwrap();
    let title = r.embeds()[0]["title"].as_str().unwrap_or_default().to_string();
    assert_eq!(title, "🪂 Zaku · Escape check");
    assert!(
        r.embeds()[0]["fields"][0]["value"]
            .as_str()
            .unwrap()
            .contains("ESCAPED")
    );
    // Once: the second press rolls nothing.
    let r = c.fake.press(&bob, escape_msg, &escape_id, wait).await.unwrap();
    assert!(
        r.ephemeral && r.content().contains("already used"),
        "{:?}",
        r.message
    );
    // Gundam: 6 + 14 = 20, no fatigue.
    c.queue_dice([14]);
    let r = c
        .fake
        .press(&alice, fatigue_msg, &fatigue_id, wait)
        .await
        .unwrap();
    assert!(
        r.embeds()[0]["fields"][0]["value"]
            .as_str()
            .unwrap()
            .contains("no fatigue")
    );

    // The board: destroyed and escaped, the MG lost, the turn over, nothing held or waiting.
    gm(&mut c);
    let out = line(&mut c, "/session status").await;
    assert!(out.contains("Zaku: Durability -3/6"), "{out}");
    assert!(out.contains("💀 DESTROYED · ESCAPED"), "{out}");
    assert!(out.contains("MG (lost from turn 2)"), "{out}");
    assert!(out.contains("Turn 1 · turn over"), "{out}");
    assert!(out.contains("Held damage: none"), "{out}");
    assert!(!out.contains("Waiting checks"), "{out}");
    // The turn is over: the next one may start.
    let out = line(&mut c, "/mecha turn").await;
    assert!(out.contains("Turn 2 · initiative phase"), "{out}");
    c.shutdown().await;
}

#[tokio::test]
async fn spending_spirit_asks_for_a_faint_check_when_the_option_is_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = start(dir.path()).await;
    line(&mut c, "/session start name:Ridge system:mecha_d20").await;
    line(&mut c, ZAKU).await;
    // Off (the default): spending is just spending.
    as_(&mut c, "bob");
    let out = line(&mut c, "/mecha spend unit:Zaku spirit:3").await;
    assert!(out.contains("spirit 7/10"), "{out}");
    assert!(!out.contains("Faint check"), "{out}");
    // More than is left: refused, nothing spent.
    let out = line(&mut c, "/mecha spend unit:Zaku ap:1 spirit:8").await;
    assert!(out.starts_with("(only you can see this)"), "{out}");
    let out = line(&mut c, "/mecha status").await;
    assert!(out.contains("AP 5/5") && out.contains("spirit 7/10"), "{out}");

    gm(&mut c);
    line(&mut c, "/config option name:mecha.faint_after_spirit value:on").await;
    as_(&mut c, "bob");
    let out = line(&mut c, "/mecha spend unit:Zaku spirit:2").await;
    assert!(
        out.contains("spirit 5/10") && out.contains("[Faint check: Zaku]"),
        "{out}"
    );
    // alice may not press bob's; bob's check: 5 + 14 = 19 < 20, fainted.
    as_(&mut c, "alice");
    let x = c.press("Faint check").await.unwrap();
    assert!(exchange_text(&x).contains("can use this button"), "{x:?}");
    as_(&mut c, "bob");
    c.queue_dice([14]);
    let x = c.press("Faint check").await.unwrap();
    let out = c.readable(&exchange_text(&x));
    assert!(out.contains("d20 **14** + Spirit points 5 = **19**"), "{out}");
    assert!(out.contains("**FAINTED**"), "{out}");
    let out = line(&mut c, "/mecha status").await;
    assert!(out.contains("😵 FAINTED"), "{out}");
    // The check is answered: asking for it by command now is on demand, and says so.
    c.queue_dice([20]);
    let out = line(&mut c, "/mecha survive check:faint unit:Zaku").await;
    assert!(out.contains("On demand: no check was waiting."), "{out}");
    c.shutdown().await;
}

/// Issues 29 and 33 at the table: raw damage on another player's unit follows an attack that
/// hit (or the server's option); an attack says it spent no AP, a melee one shows no arc, one
/// hex is "1 hex"; a secondary row on armour already 0 says so; a destroyed suit's pilot takes
/// no fatigue check; the fatigue result and the raw check's title read right; in leaders mode a
/// destroyed leader says what to do.
#[tokio::test]
async fn the_table_of_issues_29_and_33() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = start(dir.path()).await;
    line(&mut c, "/session start name:Ridge system:mecha_d20").await;
    line(
        &mut c,
        "/char add name:Zaku owner:@bob stats:squad=Red leader=yes ap=5 durability=40 armour=0 movement=1 w1=\"MG 2d6+3 r3 front\"",
    )
    .await;
    line(
        &mut c,
        "/char add name:Gouf owner:@bob stats:squad=Red ap=5 durability=20 movement=1",
    )
    .await;
    line(
        &mut c,
        "/char add name:Gundam owner:@alice stats:squad=Blue leader=yes ap=6 durability=30 armour=8 movement=4 w1=\"Rifle 2d6+5 r1 front\" w2=\"Saber 1d6+6 melee\"",
    )
    .await;
    line(&mut c, "/mecha turn").await;
    c.queue_dice([1, 10, 10]);
    let out = line(&mut c, "/mecha initiative").await;
    assert!(out.contains("1. Blue\n2. Red"), "{out}");

    // No attack yet: alice's raw damage on bob's Zaku is refused, and says how it goes.
    as_(&mut c, "alice");
    let out = line(&mut c, "/mecha damage power:10d6+99 target:Zaku attacker:Gundam").await;
    assert!(out.starts_with("(only you can see this)"), "{out}");
    assert!(
        out.contains("Raw damage on Zaku, a unit you do not own, is the GM's, or follows an attack of Gundam's that hit Zaku this turn")
            && out.contains("mecha.raw_damage_on_others"),
        "{out}"
    );
    // The rifle at one hex: 15 against 3 hits; 3, 3 a critical; 11 − 0 = 11; row 4 (armour −1).
    c.queue_dice([15, 3, 3, 3, 4]);
    let out = line(
        &mut c,
        "/mecha attack attacker:Gundam weapon:Rifle target:Zaku distance:1",
    )
    .await;
    assert!(
        out.contains("1 hex · front arc\nNo AP spent: the rules give attacks no AP cost"),
        "{out}"
    );
    assert!(out.contains("Held: #1"), "{out}");
    // After that hit, raw damage may follow it.
    c.queue_dice([2]);
    let out = line(&mut c, "/mecha damage power:1d6 target:Zaku attacker:Gundam").await;
    assert!(out.contains("Held: #2"), "{out}");
    // But not onto Gouf, which it did not hit.
    let out = line(&mut c, "/mecha damage power:1d6 target:Gouf attacker:Gundam").await;
    assert!(out.contains("Raw damage on Gouf"), "{out}");
    // A melee strike: hex 0, no arc.
    c.queue_dice([15, 3, 4]);
    let out = line(
        &mut c,
        "/mecha attack attacker:Gundam weapon:Saber target:Zaku distance:0",
    )
    .await;
    assert!(out.contains("melee · hex 0\nNo AP spent"), "{out}");
    assert!(!out.contains("arc"), "{out}");

    // Application: row 4 on armour 0 takes nothing and says so.
    gm(&mut c);
    line(&mut c, "/mecha phase").await;
    line(&mut c, "/mecha phase").await;
    let out = line(&mut c, "/mecha apply").await;
    assert!(out.contains("armour already 0: no effect"), "{out}");
    assert!(!out.contains("armour −0"), "{out}");
    // Gundam's waiting fatigue check: 6 + 1 = 7 < 20.
    as_(&mut c, "alice");
    c.queue_dice([1]);
    let out = line(&mut c, "/mecha survive check:fatigue unit:Gundam").await;
    assert!(out.contains("**+1 fatigue (total 1) · AP left 5**"), "{out}");
    // A destroyed suit's pilot takes no fatigue check (checklist 17); nothing rolled.
    gm(&mut c);
    line(&mut c, "/char edit name:Zaku stats:destroyed=yes").await;
    let out = line(&mut c, "/mecha survive check:fatigue unit:Zaku").await;
    assert!(
        out.contains("Zaku's suit is destroyed: the fatigue check is for pilots whose suits were not"),
        "{out}"
    );
    // A raw check is titled by its kind.
    c.queue_dice([1]);
    let out = line(&mut c, "/mecha survive check:faint base:5").await;
    assert!(out.contains("== 😵 Faint check (raw) =="), "{out}");

    // Leaders mode with Red's leader destroyed: what to do, not a bare "no leader".
    line(&mut c, "/config option name:mecha.initiative_mode value:leaders").await;
    line(&mut c, "/mecha turn").await;
    let out = line(&mut c, "/mecha initiative").await;
    assert!(
        out.contains("Squad Red's leader Zaku is destroyed: another of its pilots (Gouf) takes the lead with /char edit name:… stats:leader=yes"),
        "{out}"
    );
    line(&mut c, "/char edit name:Gouf stats:leader=yes").await;
    c.queue_dice([1, 10]);
    let out = line(&mut c, "/mecha initiative").await;
    assert!(out.contains("1. Blue\n2. Red"), "{out}");
    // The server's option lets players hold raw damage on others' units.
    line(&mut c, "/config option name:mecha.raw_damage_on_others value:on").await;
    as_(&mut c, "alice");
    c.queue_dice([2]);
    let out = line(&mut c, "/mecha damage power:1d6 target:Gouf attacker:Gundam").await;
    assert!(out.contains("Pending: Gouf: 2 damage waits"), "{out}");
    c.shutdown().await;
}

/// Issue 29 in Japanese: the survival checks' command in the seed's words, the `ap` option's
/// Japanese name, and the raw faint check's title.
#[tokio::test]
async fn the_survival_checks_and_ap_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Console::start(ConsoleOptions {
        dice: Some(vec![]),
        user: "gm".into(),
        admin: true,
        locale: "ja".into(),
        data_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    })
    .await
    .expect("bot starts against the fake Discord");
    line(&mut c, "/session start name:Ridge system:mecha_d20").await;
    line(
        &mut c,
        "/char add name:Gouf owner:@bob stats:squad=Red ap=5 spirit=4 durability=20 movement=2",
    )
    .await;
    c.queue_dice([1]);
    let out = line(&mut c, "/メカ 疲労気絶脱出判定 判定:気絶 基本値:5").await;
    assert!(out.contains("== 😵 気絶判定（数値のみ） =="), "{out}");
    c.queue_dice([1]);
    let out = line(&mut c, "/メカ 疲労気絶脱出判定 判定:疲労 ユニット:Gouf").await;
    assert!(out.contains("**疲労+1（合計1）· 残りAP 4**"), "{out}");
    let out = line(
        &mut c,
        "/メカ 移動 ユニット:Gouf 種類:通常移動 ヘクス:1 行動ポイント:1",
    )
    .await;
    assert!(out.contains("1/2ヘクス · 残りAP 3"), "{out}");
    c.shutdown().await;
}

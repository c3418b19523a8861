//! Every roll a button press makes is in the session's log (issue 28), typed as the console's
//! users type: Terminator's I'll Be Back and Continue and the d20 mecha checks, which once left
//! no row; and a walk over every button kind of every registered system, checking that each
//! press that rolled left its row.

use saikoro_bot::console::{Console, ConsoleOptions, Exchange, exchange_text};

async fn console(dice: &[u32]) -> Console {
    Console::start(ConsoleOptions {
        dice: Some(dice.to_vec()),
        user: "gm".into(),
        admin: true,
        ..Default::default()
    })
    .await
    .expect("bot starts against the fake Discord")
}

async fn line(c: &mut Console, text: &str) -> String {
    let x: Exchange = c.type_line(text).await.unwrap_or_else(|e| panic!("{text}: {e}"));
    c.readable(&exchange_text(&x))
}

async fn press(c: &mut Console, label: &str) -> String {
    let x = c.press(label).await.unwrap_or_else(|e| panic!("{label}: {e}"));
    c.readable(&exchange_text(&x))
}

const G: &str = r#"/char add name:G model:Resistance Soldier stats:side=Resistance skill=d8 resolution=d8 w1="Gun short rof1 d10""#;
const E: &str = "/char add name:E model:Endoskeleton stats:side=Skynet skill=d8";

/// The issue's reproduction: `saikoro console --user gm --dice 6,9,5`, an attack that kills E,
/// and I'll Be Back pressed: the log ends with the Crawler the board shows, and the 5.
#[tokio::test]
async fn ill_be_back_pressed_is_logged_as_the_board_shows_it() {
    let mut c = console(&[6, 9, 5]).await;
    line(&mut c, "/session start name:I system:Terminator Genisys").await;
    line(&mut c, G).await;
    line(&mut c, E).await;
    let out = line(&mut c, "/term attack band:close attacker:G weapon:Gun target:E").await;
    assert!(out.contains("KILLED"), "{out}");
    let out = press(&mut c, "I'll Be Back").await;
    assert!(out.contains("Crawler"), "{out}");
    let log = line(&mut c, "/session log").await;
    let last = log
        .lines()
        .rev()
        .find(|l| l.contains("/term"))
        .unwrap_or_default();
    assert!(
        last.ends_with(
            " gm `/term continue (I'll Be Back)` → G · Gun → E: 1 hit(s), 1 damaging, I'll Be Back d6 5 (5+), 🦾 Crawler"
        ),
        "{log}"
    );
    assert!(last.contains("I'll Be Back d6 5 (5+)"), "{log}");
    assert!(!last.contains("KILLED"), "{log}");
    c.shutdown().await;
}

/// A stepped attack finished by Continue presses: each press logs the attack so far, so the
/// log ends with all of it (the damage, the kill, the Crawler), not the first stage's hit.
#[tokio::test]
async fn a_stepped_attack_continued_by_buttons_logs_all_of_it() {
    let mut c = console(&[6]).await;
    line(&mut c, "/session start name:I system:Terminator Genisys").await;
    line(&mut c, G).await;
    line(&mut c, E).await;
    let out = line(
        &mut c,
        "/term attack band:close attacker:G weapon:Gun target:E step:true",
    )
    .await;
    assert!(out.contains("[Continue: cover saves]"), "{out}");
    press(&mut c, "Continue: cover saves").await;
    c.queue_dice([9]);
    let out = press(&mut c, "Continue: damage roll").await;
    assert!(out.contains("KILLED"), "{out}");
    c.queue_dice([5]);
    press(&mut c, "I'll Be Back").await;
    let log = line(&mut c, "/session log").await;
    let rows: Vec<&str> = log.lines().filter(|l| l.contains("/term")).collect();
    // The attack, two Continue presses and I'll Be Back: every press that rolled has its row.
    assert_eq!(rows.len(), 4, "{log}");
    assert!(
        rows[2].contains("1 damaging") && rows[2].contains("KILLED"),
        "{log}"
    );
    assert!(
        rows[3].contains("1 damaging") && rows[3].contains("Crawler"),
        "{log}"
    );
    c.shutdown().await;
}

const ZAKU: &str = "/char add name:Zaku owner:@bob stats:squad=Red leader=yes judgement=3 tactics=2 concentration=4 shooting=3 reaction=3 evade=2 ap=5 spirit=10 durability=6 armour=4 evasion=1 escape_device=5 w1=\"MG 2d6+3 r3 front left_arm\" w2=\"Axe 1d6+4 melee right_arm\"";
const GUNDAM: &str = "/char add name:Gundam owner:@alice stats:squad=Blue leader=yes judgement=4 tactics=3 concentration=5 shooting=4 reaction=4 evade=3 ap=6 spirit=10 durability=30 armour=8 evasion=2 cockpit=all_round w1=\"Rifle 2d6+5 r4 front\"";

/// The mecha checks pressed after `/mecha apply` (and a Faint check after spending spirit) are
/// logged as `/mecha survive` would be.
#[tokio::test]
async fn mecha_check_presses_are_logged() {
    let mut c = console(&[]).await;
    line(&mut c, "/session start name:Ridge system:mecha_d20").await;
    line(&mut c, ZAKU).await;
    line(&mut c, GUNDAM).await;
    line(&mut c, "/mecha turn").await;
    c.queue_dice([5, 12]);
    line(&mut c, "/mecha initiative").await;
    c.set_who(saikoro_bot::console::Who::member("alice"));
    // Gundam's rifle at Zaku: 15 + 9 = 24 against 9, a hit; 4, 4 a critical; 13 − 4 = 9;
    // secondary 18 (arm).
    c.queue_dice([15, 3, 4, 4, 18]);
    line(
        &mut c,
        "/mecha attack attacker:Gundam weapon:Rifle target:Zaku distance:4",
    )
    .await;
    c.set_who(saikoro_bot::console::Who::parse("gm admin").unwrap());
    line(&mut c, "/mecha phase").await;
    line(&mut c, "/mecha phase").await;
    c.queue_dice([1]);
    let out = line(&mut c, "/mecha apply").await;
    assert!(
        out.contains("[Escape check: Zaku] [Fatigue check: Gundam]"),
        "{out}"
    );
    c.queue_dice([16]);
    let out = press(&mut c, "Escape check: Zaku").await;
    assert!(out.contains("ESCAPED"), "{out}");
    c.queue_dice([14]);
    let out = press(&mut c, "Fatigue check: Gundam").await;
    assert!(out.contains("no fatigue"), "{out}");
    line(&mut c, "/config option name:mecha.faint_after_spirit value:on").await;
    line(&mut c, "/mecha spend unit:Gundam spirit:2").await;
    c.queue_dice([3]);
    press(&mut c, "Faint check: Gundam").await;
    let log = line(&mut c, "/session log").await;
    let rows: Vec<&str> = log.lines().filter(|l| l.contains("/mecha survive")).collect();
    assert_eq!(rows.len(), 3, "{log}");
    assert!(
        rows[0].contains("`/mecha survive check:escape unit:Zaku`"),
        "{log}"
    );
    assert!(
        rows[0].contains("ESCAPED") || rows[0].contains("escaped"),
        "{log}"
    );
    assert!(
        rows[1].contains("`/mecha survive check:fatigue unit:Gundam`"),
        "{log}"
    );
    assert!(
        rows[2].contains("`/mecha survive check:faint unit:Gundam`"),
        "{log}"
    );
    c.shutdown().await;
}

/// Terminator's Fate row says what the embed shows: the die's face and what it counts as.
#[tokio::test]
async fn the_fate_row_carries_the_result_the_embed_shows() {
    let mut c = console(&[]).await;
    line(&mut c, "/session start name:I system:Terminator Genisys").await;
    line(&mut c, G).await;
    line(&mut c, E).await;
    line(&mut c, "/term start").await;
    c.queue_dice([6, 2]);
    line(&mut c, "/term rolloff").await;
    press(&mut c, "Resistance goes first").await;
    c.queue_dice([4]);
    let out = line(&mut c, "/term fate").await;
    assert!(out.contains("d6 4 → **2**"), "{out}");
    let log = line(&mut c, "/session log").await;
    let fate = log.lines().find(|l| l.contains("/term fate")).unwrap_or_default();
    assert!(
        fate.contains("Fate d6 4 → 2 · 1 may take a Ready marker"),
        "{log}"
    );
    c.shutdown().await;
}

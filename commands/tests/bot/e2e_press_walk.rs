//! The walk of issue 28: every button kind of every registered system (and `/roll`'s Reveal)
//! pressed end to end through the fake Discord, each through the suites' `press`, which fails
//! when a press that rolled left no row in the session's log. The walk fails too when a
//! registered kind was never pressed, so a new button joins it.

use std::collections::BTreeSet;

use crate::support::e2e::*;

use saikoro_bot::console::Console;
use saikoro_bot::fake_discord::{Invoker, Reply};
use serde_json::Value;

/// The kinds pressed, and those whose press rolled.
#[derive(Default)]
struct Walk {
    pressed: BTreeSet<String>,
    rolled: BTreeSet<String>,
}

impl Walk {
    /// Press the button labelled `label` on `message` as `who`: it must be answered (not
    /// refused), and [`press`] checks its log row. Returns the message as it is after.
    async fn press(&mut self, c: &Console, who: &Invoker, message: &Value, label: &str) -> Value {
        let id = button(message, label);
        let kind = press_kind(c, &id).await;
        let left = c.dice_left();
        let r = press(c, who, message, &id).await;
        assert!(!r.ephemeral, "{kind} ({label}) refused: {}", text(&r));
        if c.dice_left() < left {
            self.rolled.insert(kind.clone());
        }
        self.pressed.insert(kind);
        after(message, &r)
    }
}

/// The message a press left: the pressed one updated, or a new one (its buttons read from the
/// reply; pressing needs only a message to point at).
fn after(old: &Value, r: &Reply) -> Value {
    let mut m = old.clone();
    m["embeds"] = r.message["embeds"].clone();
    m["components"] = r.message["components"].clone();
    m
}

/// `line` as `who`, and the message it posted.
async fn posted(c: &mut Console, who: &Invoker, line: &str) -> Value {
    let (id, r) = as_id(c, who, line).await;
    assert!(!r.ephemeral, "{line}: {}", text(&r));
    c.fake.original_message(id).expect("the posted message")
}

async fn all(c: &mut Console, lines: &[&str]) {
    for l in lines {
        let r = send(c, l).await;
        assert!(!r.ephemeral, "{l}: {}", text(&r));
    }
}

const SR_ATTACK: &str = "/sr attack attacker:Ana target:Bob skill:pistols dv:5 ap:-1 weapon:Ares Predator";
const SR_TEST: &str = "/sr test character:Ana attribute:agility skill:pistols threshold:2";
const SR_HIT: [u32; 17] = [5, 2, 3, 1, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4];

async fn shadowrun(w: &mut Walk) {
    let mut c = system_console().await;
    all(
        &mut c,
        &[
            "/session start name:Run system:Shadowrun 4",
            "/char add name:Ana owner:@ana stats:body=3 agility=3 reaction=3 willpower=3 edge=3 pistols=2",
            "/char add name:Bob owner:@bob stats:body=4 agility=3 reaction=3 willpower=3 edge=1 armour=6/4",
        ],
    )
    .await;
    let (ana, bob) = (player(&c, "ana"), player(&c, "bob"));
    // An attack: Second chance (its three misses again), then its damage applied. Edge 3: three
    // points, one for each of the next three presses.
    c.queue_dice(SR_HIT);
    let m = posted(&mut c, &ana, SR_ATTACK).await;
    c.queue_dice([5, 6, 2]);
    let m = w.press(&c, &ana, &m, "Second chance").await;
    w.press(&c, &bob, &m, "Apply damage").await;
    // A glitch negated; Edge dice added; Edge burnt.
    c.queue_dice([1, 1, 1, 5, 2]);
    let m = posted(&mut c, &ana, SR_TEST).await;
    w.press(&c, &ana, &m, "Negate glitch").await;
    c.queue_dice([2, 2, 3, 4, 1]);
    let m = posted(&mut c, &ana, SR_TEST).await;
    // Three Edge dice, the six exploding once.
    c.queue_dice([6, 5, 2, 3]);
    w.press(&c, &ana, &m, "+3 Edge dice").await;
    c.queue_dice([2, 2, 3, 4, 1]);
    let m = posted(&mut c, &ana, SR_TEST).await;
    w.press(&c, &ana, &m, "Burn Edge").await;
    // A kill, and death cheated.
    all(&mut c, &["/char edit name:Bob stats:physical=12"]).await;
    c.queue_dice(SR_HIT);
    let m = posted(&mut c, &ana, SR_ATTACK).await;
    let m = w.press(&c, &bob, &m, "Apply damage").await;
    w.press(&c, &bob, &m, "Cheat death").await;
    c.shutdown().await;
}

const HUNTER: &str = r#"/char add name:Hunter stats:model=hunter attack=4+ defence=4+ initiative=4+ mr=10 hits=3/2 ar=6 weapon1="Autocannon 7 2-4/10""#;
const BRUTE: &str = r#"/char add name:Brute stats:model=grizzly attack=4+ defence=4+ initiative=4+ mr=12 hits=2/2 ar=6 weapon1="Autocannon 7 2-4/10""#;
const HOPPER: &str = r#"/char add name:Hopper stats:model=jerboa attack=4+ defence=3+ initiative=4+ mr=16 hits=2/1 ar=5 weapon1="Rifle 6 3-6/12""#;

/// Reliable is once a lap per gear: each reroll in a race of its own.
async fn rally(w: &mut Walk) {
    let race = [
        "/session start name:Race system:Badlands Rally",
        HUNTER,
        BRUTE,
        HOPPER,
    ];
    let mut c = system_console().await;
    let gm = c.invoker();
    all(&mut c, &race).await;
    all(&mut c, &["/rally activate gear:Hunter"]).await;
    c.queue_dice([2, 1, 6, 5]);
    let m = posted(
        &mut c,
        &gm,
        "/rally attack attacker:Hunter defender:Brute distance:4",
    )
    .await;
    c.queue_dice([6, 5, 4]);
    w.press(&c, &gm, &m, "Reliable: reroll Hunter's attack").await;
    c.shutdown().await;

    let mut c = system_console().await;
    all(&mut c, &race).await;
    all(&mut c, &["/rally activate gear:Hunter"]).await;
    c.queue_dice([1, 2]);
    let m = posted(&mut c, &gm, "/rally burn gear:Hunter").await;
    c.queue_dice([6, 6]);
    w.press(&c, &gm, &m, "Reliable: reroll Hunter's test").await;
    c.shutdown().await;

    let mut c = system_console().await;
    all(&mut c, &race).await;
    c.queue_dice([2, 1, 6, 5, 3, 1]);
    let m = posted(&mut c, &gm, "/rally initiative pole:true").await;
    // Hunter's check again: 1, 1 ties nobody.
    c.queue_dice([1, 1]);
    w.press(&c, &gm, &m, "Reliable: reroll Hunter's pole position check")
        .await;
    c.shutdown().await;
}

async fn warmachine(w: &mut Walk) {
    let mut c = system_console().await;
    all(
        &mut c,
        &[
            "/session start name:Skirmish system:warmachine",
            r#"/char add name:Stalker stats:controller=@ana mat=7 def=13 arm=17 boxes=10 weapon1="Blade 13 melee""#,
            "/char add name:Grunt stats:controller=@bob def=12 arm=14 boxes=8",
        ],
    )
    .await;
    let (ana, gm) = (player(&c, "ana"), c.invoker());
    c.queue_dice([6, 5]);
    let m = posted(&mut c, &ana, "/wm attack attacker:Stalker target:Grunt").await;
    c.queue_dice([2, 1]);
    w.press(&c, &ana, &m, "Roll damage").await;
    c.queue_dice([3, 3]);
    let m = posted(&mut c, &gm, "/wm damage target:Grunt pow:14 apply:false").await;
    w.press(&c, &gm, &m, "Apply damage").await;
    c.shutdown().await;
}

async fn terminator(w: &mut Walk) {
    let mut c = system_console().await;
    let gm = c.invoker();
    all(
        &mut c,
        &[
            "/session start name:I system:Terminator Genisys",
            r#"/char add name:K stats:side=Resistance profile="Kyle Reese" skill=d8 resolution=d8 w1="Gun short rof1 d10""#,
            "/char add name:E model:Endoskeleton stats:side=Skynet skill=d8",
            "/term start",
        ],
    )
    .await;
    c.queue_dice([6, 2]);
    let m = posted(&mut c, &gm, "/term rolloff").await;
    w.press(&c, &gm, &m, "Resistance goes first").await;
    // FATE (face 5): K, a commander, activates by button.
    c.queue_dice([5]);
    let m = posted(&mut c, &gm, "/term fate").await;
    w.press(&c, &gm, &m, "FATE: K").await;
    // A stepped attack: Continue, the damage kills E, I'll Be Back makes it a Crawler.
    c.queue_dice([6]);
    let m = posted(
        &mut c,
        &gm,
        "/term attack band:close attacker:K weapon:Gun target:E step:true",
    )
    .await;
    let m = w.press(&c, &gm, &m, "Continue").await;
    c.queue_dice([9]);
    let m = w.press(&c, &gm, &m, "Continue").await;
    c.queue_dice([5]);
    w.press(&c, &gm, &m, "I'll Be Back").await;
    c.shutdown().await;
}

async fn mecha(w: &mut Walk) {
    let mut c = system_console().await;
    let gm = c.invoker();
    all(
        &mut c,
        &[
            "/session start name:Ridge system:mecha_d20",
            "/char add name:Zaku stats:squad=Red leader=yes judgement=3 tactics=2 concentration=4 shooting=3 reaction=3 evade=2 ap=5 spirit=10 durability=6 armour=4 evasion=1 escape_device=5 w1=\"MG 2d6+3 r3 front left_arm\"",
            "/char add name:Gundam stats:squad=Blue leader=yes judgement=4 tactics=3 concentration=5 shooting=4 reaction=4 evade=3 ap=6 spirit=10 durability=30 armour=8 evasion=2 cockpit=all_round w1=\"Rifle 2d6+5 r4 front\"",
            "/mecha turn",
        ],
    )
    .await;
    c.queue_dice([5, 12]);
    all(&mut c, &["/mecha initiative"]).await;
    c.queue_dice([15, 3, 4, 4, 18]);
    all(
        &mut c,
        &["/mecha attack attacker:Gundam weapon:Rifle target:Zaku distance:4"],
    )
    .await;
    all(&mut c, &["/mecha phase", "/mecha phase"]).await;
    c.queue_dice([1]);
    let m = posted(&mut c, &gm, "/mecha apply").await;
    c.queue_dice([16]);
    w.press(&c, &gm, &m, "Escape check").await;
    c.shutdown().await;
}

async fn reveal(w: &mut Walk) {
    let mut c = system_console().await;
    all(&mut c, &["/session start name:Crypt system:generic"]).await;
    let alice = player(&c, "alice");
    c.queue_dice([3, 4]);
    let (id, _) = as_id(&mut c, &alice, "/roll dice:S2d6").await;
    let notice = c
        .fake
        .followup_messages(id)
        .into_iter()
        .find(|m| saikoro_bot::fake_discord::button_id(m, "Reveal").is_some())
        .expect("the channel's notice with its Reveal button");
    w.press(&c, &alice, &notice, "Reveal").await;
    c.shutdown().await;
}

#[tokio::test]
async fn every_button_kind_of_every_system_is_pressed_and_a_press_that_rolled_is_logged() {
    let mut w = Walk::default();
    shadowrun(&mut w).await;
    rally(&mut w).await;
    warmachine(&mut w).await;
    terminator(&mut w).await;
    mecha(&mut w).await;
    reveal(&mut w).await;
    let registered: BTreeSet<String> = saikoro_bot::systems::all()
        .flat_map(|s| s.button_kinds().iter().map(|k| k.to_string()))
        .chain([saikoro_bot::commands::roll::REVEAL.to_string()])
        .collect();
    let missed: Vec<&String> = registered.difference(&w.pressed).collect();
    assert!(missed.is_empty(), "kinds the walk never pressed: {missed:?}");
    // The walk does reach the presses that roll (each checked by `press`).
    for kind in [
        "sr.second_chance",
        "term.continue",
        "term.ibb",
        "mecha.check",
        "wm.damage",
    ] {
        assert!(w.rolled.contains(kind), "{kind} rolled nothing: {:?}", w.rolled);
    }
}

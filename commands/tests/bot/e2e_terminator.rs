//! Terminator Genisys end to end through the fake Discord, typed as the console's users type:
//! an attack whose kill waits for I'll Be Back, rolled by the target's owner with a button (after
//! a restart, once, refused to anyone else), and the Crawler on the `/session status` board; the
//! roll-off winner's first-player button; FATE with a commander's button and a step-by-step
//! attack continued by button; and a whole turn — two impulses each, a character that reels
//! before activating and starts the next turn done, End Turn and On Your Feet.

use saikoro_bot::console::{Console, ConsoleOptions, Exchange, Who, exchange_text};
use saikoro_bot::fake_discord::button_id;

const KYLE: &str = "/char add name:Kyle owner:@alice stats:side=Resistance profile=\"Kyle Reese\" skill=d8 resolution=d8 w1=\"Plasma rifle d10\"";
const JOE: &str = "/char add name:Joe owner:@alice stats:side=Resistance profile=\"Resistance Soldier\" skill=d6 resolution=d6 w2=\"Assault rifle d8\"";
const ANN: &str = "/char add name:Ann owner:@alice stats:side=Resistance profile=SWAT skill=d6 resolution=d6 w1=\"Pistol d6\"";

fn endo(name: &str) -> String {
    format!(
        "/char add name:{name} owner:@bob model:Endoskeleton stats:side=Skynet skill=d8 w1=\"Terminator claw d8\" w2=\"Plasma gun d10\""
    )
}

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

async fn press(c: &mut Console, label: &str) -> String {
    let x = c.press(label).await.unwrap_or_else(|e| panic!("{label}: {e}"));
    c.readable(&exchange_text(&x))
}

/// A game with `extra` characters, started, the roll-off won by Resistance (6–2) and Resistance
/// first by alice's button.
async fn game(c: &mut Console, extra: &[String]) {
    line(c, "/session start name:Judgment system:Terminator Genisys").await;
    for l in [KYLE, JOE]
        .iter()
        .map(|s| s.to_string())
        .chain(extra.iter().cloned())
    {
        let out = line(c, &l).await;
        assert!(!out.contains("(only you can see this)"), "{l}: {out}");
    }
    let out = line(c, "/term start").await;
    assert!(out.contains("Resistance vs Skynet"), "{out}");
    c.queue_dice([6, 2]);
    let out = line(c, "/term rolloff").await;
    assert!(out.contains("Resistance 6 · Skynet 2"), "{out}");
    assert!(
        out.contains("[Resistance goes first] [Skynet goes first]"),
        "{out}"
    );
    // The winner's choice: bob (Skynet) may not make it.
    as_(c, "bob");
    let out = press(c, "Resistance goes first").await;
    assert!(out.contains("Only @alice can use this button"), "{out}");
    as_(c, "alice");
    let x = c
        .press("Resistance goes first")
        .await
        .expect("the winner's press");
    let out = c.readable(&exchange_text(&x));
    // The choice is made on the roll-off's own message, whose buttons go.
    let updated = x
        .shown
        .iter()
        .find(|s| s.kind == saikoro_bot::console::exchange::Kind::Update)
        .expect("the roll-off's message updated");
    assert!(
        saikoro_bot::fake_discord::buttons(updated.message()).is_empty(),
        "{}",
        updated.message()
    );
    assert!(out.contains("Resistance goes first"), "{out}");
    assert!(
        out.contains("Impulse 1: **Resistance** rolls the Fate die"),
        "{out}"
    );
    assert!(out.contains("Resistance 6 · Skynet 2"), "{out}");
}

#[tokio::test]
async fn a_kill_waits_for_the_owners_ill_be_back_button_and_the_crawler_is_on_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = start(dir.path()).await;
    game(&mut c, &[endo("T1"), endo("T2")]).await;
    // T1 fielded without a resolution die: its Crawler has none either (it keeps the model's).
    gm(&mut c);
    let out = line(&mut c, "/char edit name:T1 stats:resolution=\"\"").await;
    assert!(out.contains("Stats: skill D8 · armour 8+\n"), "{out}");
    as_(&mut c, "alice");
    // Fate 1: Kyle brings Joe (Come With Me If You Want To Live).
    c.queue_dice([1]);
    line(&mut c, "/term fate").await;
    let out = line(&mut c, "/term activate character:Kyle followers:joe").await;
    assert!(out.contains("🟢 Ready: Kyle, Joe (Come With Me"), "{out}");
    // bob may not fire alice's Kyle; nothing is rolled.
    as_(&mut c, "bob");
    let out = line(
        &mut c,
        "/term attack band:long (6+) attacker:Kyle weapon:Plasma rifle target:T1",
    )
    .await;
    assert!(out.starts_with("(only you can see this)"), "{out}");
    // Long: Semi-auto ROF 1, 7 ≥ 6 hits; Mindless: no save; D10 9 ≥ 8 kills T1.
    as_(&mut c, "alice");
    c.queue_dice([7, 9]);
    let x = c
        .type_line("/term attack band:long (6+) attacker:Kyle weapon:Plasma rifle target:T1")
        .await
        .unwrap();
    let out = c.readable(&exchange_text(&x));
    assert!(out.contains("== ⚔️ Kyle → T1 · Plasma rifle =="), "{out}");
    assert!(out.contains("D8 ×1 at 6+: [**7**] → **1 hit**"), "{out}");
    assert!(out.contains("no save: Mindless"), "{out}");
    assert!(
        out.contains("D10 ×1 vs armour 8+: [**9**] → **1 damaging**"),
        "{out}"
    );
    assert!(out.contains("💀 KILLED"), "{out}");
    assert!(out.contains("Waiting for I'll Be Back: T1"), "{out}");
    let message = c
        .fake
        .original_message(x.interaction)
        .expect("the attack message");
    let ibb = button_id(&message, "I'll Be Back").expect("an I'll Be Back button");
    // Nothing is applied while the roll waits; the attack blocks other steps.
    let out = line(&mut c, "/term done character:Kyle").await;
    assert!(out.contains("An attack is under way"), "{out}");
    gm(&mut c);
    let out = line(&mut c, "/session status").await;
    assert!(out.contains("Waiting for I'll Be Back: T1"), "{out}");
    assert!(!out.contains("KILLED"), "{out}");

    // A restart: the button is in the store, the attack in the session.
    c.shutdown().await;
    let mut c = start(dir.path()).await;
    let wait = std::time::Duration::from_secs(15);
    let alice = Who::member("alice").invoker("en-US");
    let bob = Who::member("bob").invoker("en-US");
    let r = c.fake.press(&alice, &message, &ibb, wait).await.unwrap();
    assert!(
        r.ephemeral && r.content().contains("can use this button"),
        "{:?}",
        r.message
    );
    // bob's roll: 5 → T1 fights on as a Crawler.
    c.queue_dice([5]);
    let r = c.fake.press(&bob, &message, &ibb, wait).await.unwrap();
    let text = serde_json::to_string(&r.embeds()).unwrap();
    assert!(text.contains("D6 **5** (5+)"), "{text}");
    assert!(text.contains("Crawler"), "{text}");
    // Once: the second press rolls nothing.
    let r = c.fake.press(&bob, &message, &ibb, wait).await.unwrap();
    assert!(
        r.ephemeral && r.content().contains("already used"),
        "{:?}",
        r.message
    );
    gm(&mut c);
    let out = line(&mut c, "/session status").await;
    assert!(
        out.contains("**T1** (Crawler): ⏳ to activate · 🦾 Crawler"),
        "{out}"
    );
    assert!(
        out.contains("Resistance ▶️ impulse: **Kyle** (Kyle Reese (1)): 🟢 Ready"),
        "{out}"
    );
    assert!(!out.contains("Waiting for"), "{out}");
    // The attack is over: Kyle may finish.
    as_(&mut c, "alice");
    let out = line(&mut c, "/term done character:Kyle").await;
    assert!(out.contains("☑️ Kyle is done"), "{out}");

    // Joe hits the Crawler: D8 3 < 8 owes a test on the Crawler's resolution die, which the seed
    // lost (and T1 had none to keep): the attack waits for it, and continuing is refused until
    // it is given.
    c.queue_dice([6, 3]);
    let out = line(
        &mut c,
        "/term attack band:long (6+) attacker:Joe weapon:Assault rifle target:T1",
    )
    .await;
    assert!(out.contains("Waiting for T1's resolution die"), "{out}");
    assert!(!out.contains("[Continue"), "{out}");
    let out = line(&mut c, "/term continue").await;
    assert!(out.contains("T1 has no resolution die"), "{out}");
    // bob gives T1's die (D6; a D8 is not heavy): 1 → Retreat!
    as_(&mut c, "bob");
    c.queue_dice([1]);
    let out = line(&mut c, "/term die target:T1 die:D6").await;
    assert!(out.contains("D6 ×1: [1] → 🏳️ RETREAT!"), "{out}");
    assert!(out.contains("🏳️ RETREATED"), "{out}");
    let out = line(&mut c, "/term status").await;
    assert!(
        out.contains("**T1** (Crawler): 🏳️ RETREATED · 🦾 Crawler"),
        "{out}"
    );
    c.shutdown().await;
}

#[tokio::test]
async fn fate_offers_each_commander_a_button_and_a_stepped_attack_continues_by_button() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = start(dir.path()).await;
    game(&mut c, &[endo("T1")]).await;
    // FATE (face 5): Kyle is Resistance's only eligible commander.
    c.queue_dice([5]);
    let out = line(&mut c, "/term fate").await;
    assert!(out.contains("Fate d6 5 → **FATE**"), "{out}");
    assert!(out.contains("choose one commander (Kyle)"), "{out}");
    assert!(out.contains("[FATE: Kyle activates]"), "{out}");
    // Joe is no commander: refused on FATE.
    let out = line(&mut c, "/term activate character:Joe").await;
    assert!(out.contains("only a commander activates"), "{out}");
    as_(&mut c, "bob");
    let out = press(&mut c, "FATE: Kyle").await;
    assert!(out.contains("Only @alice can use this button"), "{out}");
    as_(&mut c, "alice");
    let out = press(&mut c, "FATE: Kyle").await;
    assert!(out.contains("▶️ Kyle activates"), "{out}");
    assert!(out.contains("(FATE commander)"), "{out}");

    // Step by step: the attack roll, then a Continue button for each stage.
    c.queue_dice([6]);
    let out = line(
        &mut c,
        "/term attack band:long (6+) attacker:Kyle weapon:1 target:T1 step:true",
    )
    .await;
    assert!(out.contains("[**6**] → **1 hit**"), "{out}");
    assert!(out.contains("[Continue: cover saves]"), "{out}");
    let out = press(&mut c, "Continue: cover saves").await;
    assert!(out.contains("no save: Mindless"), "{out}");
    assert!(out.contains("[Continue: damage roll]"), "{out}");
    // By command instead of the button: the damage (D10 3 < 8) owes a test.
    c.queue_dice([3]);
    let out = line(&mut c, "/term continue").await;
    assert!(out.contains("[3] → **0 damaging**"), "{out}");
    assert!(out.contains("[Continue: resolution tests]"), "{out}");
    // T1's D20 degraded by the D10 to D12: 12 → no effect.
    c.queue_dice([12]);
    let out = press(&mut c, "Continue: resolution tests").await;
    assert!(out.contains("D20→D12 ×1: [**12**] → no effect"), "{out}");
    assert!(out.contains("Applied to the characters"), "{out}");
    let out = line(&mut c, "/term done character:Kyle").await;
    assert!(out.contains("Impulse 2: **Skynet**"), "{out}");
    // Skynet's FATE (face 6) with no commander: the impulse passes back.
    as_(&mut c, "bob");
    c.queue_dice([6]);
    let out = line(&mut c, "/term fate").await;
    assert!(
        out.contains("no commander may be chosen: the impulse passes"),
        "{out}"
    );
    assert!(out.contains("Impulse 3: **Resistance**"), "{out}");
    assert!(!out.contains("[FATE"), "{out}");
    c.shutdown().await;
}

#[tokio::test]
async fn a_whole_turn_two_impulses_each_reeling_end_turn_and_on_your_feet() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = start(dir.path()).await;
    let extra = [ANN.to_string(), endo("T1"), endo("T2"), endo("T3"), endo("T4")];
    game(&mut c, &extra).await;

    // Impulse 1, Resistance: Fate 1, Kyle. 7 hits T1; D10 3 < 8 → a test on T1's D20 degraded
    // to D12: 4 → Reeling; T1 has not activated: two Done markers.
    c.queue_dice([1]);
    line(&mut c, "/term fate").await;
    line(&mut c, "/term activate character:Kyle").await;
    c.queue_dice([7, 3, 4]);
    let out = line(
        &mut c,
        "/term attack band:long (6+) attacker:Kyle weapon:Plasma rifle target:T1",
    )
    .await;
    assert!(out.contains("D20→D12 ×1: [4] → 💫 REELING"), "{out}");
    assert!(out.contains("☑️ Done +2 → ×2"), "{out}");
    let out = line(&mut c, "/term done character:Kyle").await;
    assert!(out.contains("Impulse 2: **Skynet**"), "{out}");

    // Impulse 2, Skynet: Fate 2; T1 may not activate (Done markers); T2 and T3 do.
    as_(&mut c, "bob");
    c.queue_dice([3]);
    let out = line(&mut c, "/term fate").await;
    assert!(out.contains("2 characters may take a Ready marker"), "{out}");
    let out = line(&mut c, "/term activate character:T1").await;
    assert!(out.contains("already has a Ready or Done marker"), "{out}");
    line(&mut c, "/term activate character:T2").await;
    // T2's plasma gun at Joe, long: 6 hits, 1 misses; Joe saves at long: 2 fails; D10 3 < 4 →
    // Joe's D6 degraded to D4: 3 → Reeling, two Done markers.
    c.queue_dice([6, 1, 2, 3, 3]);
    let out = line(
        &mut c,
        "/term attack band:long (6+) attacker:T2 weapon:Plasma gun target:Joe",
    )
    .await;
    assert!(out.contains("[**6** 1] → **1 hit**"), "{out}");
    assert!(out.contains("D6 ×1 (4+): [2] → 0 saved, 1 through"), "{out}");
    assert!(out.contains("D6→D4 ×1: [3] → 💫 REELING"), "{out}");
    let out = line(&mut c, "/term done character:T2").await;
    assert!(out.contains("The impulse goes on"), "{out}");
    line(&mut c, "/term activate character:T3").await;
    let out = line(&mut c, "/term done character:T3").await;
    assert!(out.contains("Impulse 3: **Resistance**"), "{out}");

    // Impulse 3, Resistance: only Ann is left. Impulse 4, Skynet: only T4.
    as_(&mut c, "alice");
    c.queue_dice([3]);
    let out = line(&mut c, "/term fate").await;
    assert!(out.contains("1 character may take a Ready marker"), "{out}");
    line(&mut c, "/term activate character:Ann").await;
    let out = line(&mut c, "/term done character:Ann").await;
    assert!(out.contains("Impulse 4: **Skynet**"), "{out}");
    as_(&mut c, "bob");
    c.queue_dice([1]);
    line(&mut c, "/term fate").await;
    line(&mut c, "/term activate character:T4").await;
    let out = line(&mut c, "/term done character:T4").await;
    assert!(out.contains("Every character has activated: End Turn"), "{out}");

    // End Turn: one Done marker off each; T1 and Joe keep one and still reel.
    let out = line(&mut c, "/term endturn").await;
    assert!(out.contains("Done markers left: Joe ×1, T1 ×1"), "{out}");
    assert!(
        out.contains("On Your Feet, Soldier! (/term feet): Kyle 3"),
        "{out}"
    );
    // On Your Feet: only Kyle's owner (or the GM) spends Kyle's; Joe stops reeling.
    let out = line(&mut c, "/term feet commander:Kyle friend:Joe").await;
    assert!(out.starts_with("(only you can see this)"), "{out}");
    as_(&mut c, "alice");
    let out = line(&mut c, "/term feet commander:Kyle friend:T1").await;
    assert!(out.contains("T1 is not a friend of Kyle"), "{out}");
    let out = line(&mut c, "/term feet commander:Kyle friend:Joe").await;
    assert!(
        out.contains("Kyle takes 1 Done marker(s) off Joe: ×0 left. No longer reeling."),
        "{out}"
    );
    assert!(out.contains("Kyle has left: 2"), "{out}");
    gm(&mut c);
    let out = line(&mut c, "/session status").await;
    assert!(out.contains("Turn 1 · On Your Feet, Soldier!"), "{out}");
    assert!(
        out.contains("**T1** (Endoskeleton): ☑️ Done ×1 · 💫 REELING"),
        "{out}"
    );
    assert!(out.contains("**Joe** (Resistance Soldier)\n"), "{out}");

    // Turn 2: Skynet wins and goes first; T1 starts the turn already activated.
    c.queue_dice([1, 5]);
    let out = line(&mut c, "/term rolloff").await;
    assert!(out.contains("Turn 2"), "{out}");
    as_(&mut c, "bob");
    press(&mut c, "Skynet goes first").await;
    c.queue_dice([1]);
    line(&mut c, "/term fate").await;
    let out = line(&mut c, "/term activate character:T1").await;
    assert!(out.contains("already has a Ready or Done marker"), "{out}");
    let out = line(&mut c, "/term status").await;
    assert!(out.contains("Turn 2 · impulse"), "{out}");
    assert!(out.contains("▶️ Impulse 1: **Skynet**'s turn"), "{out}");
    c.shutdown().await;
}

/// Issue 29 at the table: a built-in weapon overridden by whatever slot names it; `weapon:` and
/// `followers:` autocomplete; a unique start of a weapon's name; a refusal that lists the
/// weapons; `/help` lists the tables' weapons; a killed model keeps no markers; step mode shows
/// no empty target line; the sides' order does not follow the roster (Arnold, a Skynet model,
/// comes first by name); `/term rolloff` mid-turn says what comes first; a new Crawler keeps
/// the model's dice.
#[tokio::test]
async fn the_table_of_issue_29() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = start(dir.path()).await;
    line(&mut c, "/session start name:Judgment system:Terminator Genisys").await;
    line(&mut c, KYLE).await;
    line(&mut c, JOE).await;
    // w1 names the Endoskeleton's plasma gun: it is overridden where it is, the claw stays.
    let out = line(
        &mut c,
        "/char add name:Arnold owner:@bob model:Endoskeleton stats:side=Skynet skill=d8 w1=\"Plasma gun d10\"",
    )
    .await;
    assert!(!out.contains("(only you can see this)"), "{out}");
    assert!(
        out.contains(
            "Weapons: 1. Terminator claw · CC · ROF 1 · power unset\n2. Plasma gun · Long · ROF 2 · power D10"
        ),
        "{out}"
    );
    // w2 names the claw: the claw gets its power, the plasma gun stays.
    let out = line(&mut c, "/char edit name:Arnold stats:w2=\"Terminator claw d8\"").await;
    assert!(
        out.contains("1. Terminator claw · CC · ROF 1 · power D8\n2. Plasma gun · Long · ROF 2 · power D10"),
        "{out}"
    );
    line(&mut c, &endo("Bot")).await;

    // Autocomplete: the attacker's weapons, and a commander's friends that may follow.
    let x = c
        .complete("/term attack band:long (6+) attacker:arnold weapon:pla")
        .await
        .unwrap();
    let out = c.readable(&exchange_text(&x));
    assert_eq!(
        out.trim(),
        "- 2. Plasma gun · Long · ROF 2 · power D10 (Plasma gun)",
        "{out}"
    );
    let x = c
        .complete("/term activate character:Kyle followers:")
        .await
        .unwrap();
    let out = c.readable(&exchange_text(&x));
    assert_eq!(out.trim(), "- Joe", "{out}");

    // Free play. Step by step: no empty line for Kyle before his saves.
    c.queue_dice([7, 6]);
    let out = line(
        &mut c,
        "/term attack band:long (6+) attacker:Arnold weapon:plasma target:Kyle step:true",
    )
    .await;
    assert!(out.contains("→ **2 hits**"), "{out}");
    assert!(!out.contains("🎯"), "{out}");
    line(&mut c, "/term cancel").await;
    // Bot reels with two Done markers and is killed (D10 9; I'll Be Back 4): no markers stay.
    line(&mut c, "/char edit name:Bot stats:done=2 reeling=yes").await;
    c.queue_dice([7, 9]);
    line(
        &mut c,
        "/term attack band:long (6+) attacker:Kyle weapon:Plasma target:Bot",
    )
    .await;
    c.queue_dice([4]);
    line(&mut c, "/term ibb").await;
    let out = line(&mut c, "/term status").await;
    assert!(out.contains("**Bot** (Endoskeleton): 💀 KILLED\n"), "{out}");
    assert!(!out.contains("Done ×2") && !out.contains("REELING"), "{out}");

    // The sides in name order, not the roster's (Arnold comes before Kyle): the same dice
    // give the same winner.
    let out = line(&mut c, "/term start").await;
    assert!(out.contains("Resistance vs Skynet"), "{out}");
    c.queue_dice([6, 2]);
    let out = line(&mut c, "/term rolloff").await;
    assert!(out.contains("Resistance 6 · Skynet 2"), "{out}");
    let out = line(&mut c, "/term rolloff").await;
    assert!(
        out.contains("The roll-off of this turn is done: the Tactical Edge holder chooses the first player"),
        "{out}"
    );
    // An attack or a Fate roll before the choice says what comes first, not just "not now".
    let out = line(
        &mut c,
        "/term attack band:long (6+) attacker:Kyle weapon:1 target:Arnold",
    )
    .await;
    assert!(
        out.contains(
            "This is not the time for activation: the Tactical Edge holder chooses the first player first (the button, or /term first)"
        ),
        "{out}"
    );
    let out = line(&mut c, "/term fate").await;
    assert!(
        out.contains("This is not the time for the Fate roll: the Tactical Edge holder chooses"),
        "{out}"
    );
    as_(&mut c, "alice");
    press(&mut c, "Resistance goes first").await;
    let out = line(&mut c, "/term activate character:Kyle").await;
    assert!(
        out.contains("roll the Fate die first (/term fate)") || out.contains("Roll the Fate die first"),
        "{out}"
    );
    c.queue_dice([1]);
    line(&mut c, "/term fate").await;
    line(&mut c, "/term activate character:Kyle").await;
    let out = line(&mut c, "/term rolloff").await;
    assert!(
        out.contains("The turn is under way: the next roll-off comes after"),
        "{out}"
    );

    // "2" is no weapon of Kyle's: the refusal lists his weapons.
    let out = line(
        &mut c,
        "/term attack band:long (6+) attacker:Kyle weapon:2 target:Arnold",
    )
    .await;
    assert!(
        out.contains("Kyle has no weapon called 2; its weapons: 1. Plasma rifle."),
        "{out}"
    );
    // weapon:Plasma (a unique start): D10 9 kills Arnold; bob's I'll Be Back 5 → a Crawler
    // keeping its skill D8, resolution D20 and the claw's D8.
    c.queue_dice([7, 9]);
    let out = line(
        &mut c,
        "/term attack band:long (6+) attacker:Kyle weapon:Plasma target:Arnold",
    )
    .await;
    assert!(out.contains("== ⚔️ Kyle → Arnold · Plasma rifle =="), "{out}");
    as_(&mut c, "bob");
    c.queue_dice([5]);
    let out = line(&mut c, "/term ibb").await;
    assert!(out.contains("Crawler"), "{out}");
    let out = line(&mut c, "/char show name:Arnold").await;
    assert!(out.contains("Profile: Crawler"), "{out}");
    assert!(
        out.contains("Stats: skill D8 · armour 8+ · resolution D20"),
        "{out}"
    );
    assert!(
        out.contains("1. Terminator claw · CC · ROF 1 · power D8"),
        "{out}"
    );

    // /help lists the tables' weapons, which a slot takes by name.
    let out = line(&mut c, "/help topic:terminator").await;
    assert!(out.contains("Weapons of the tables (by name): Fists"), "{out}");
    assert!(
        out.contains("Plasma gun") && out.contains("Heavy plasma gun"),
        "{out}"
    );
    assert!(out.contains("keeps the claw"), "{out}");
    c.shutdown().await;
}

//! Warmachine at the table (issues 29 and 33), end to end with fixed dice: players are
//! Discord members, damage buttons keep their attack's moment, damage is handed over to the
//! target's controller, cover and distances can be asked for, archived rulings are listed,
//! triggers hold the turn and leave with their model, a model's rule refusal names it, the
//! weapon is chosen or asked for, and who may change another player's game.

use crate::e2e_warmachine::at;
use crate::support::e2e::*;

use saikoro_bot::console::Console;

const STALKER: &str =
    r#"/char add name:Stalker stats:controller=@ana mat=7 def=13 arm=17 boxes=10 weapon1="Blade 13 melee""#;
const GRUNT: &str = r#"/char add name:Grunt stats:controller=@bob mat=5 rat=5 def=12 arm=14 boxes=8 weapon1="Bayonet 10 melee" weapon2="Rifle 11 ranged""#;

async fn ok(c: &mut Console, line: &str) -> String {
    let r = send(c, line).await;
    assert!(!r.ephemeral, "{line}: {}", text(&r));
    text(&r)
}

async fn refused(c: &mut Console, who: &saikoro_bot::fake_discord::Invoker, line: &str, says: &str) {
    let v = version(c).await;
    let r = as_(c, who, line).await;
    assert!(r.ephemeral, "{line}: {}", text(&r));
    assert!(text(&r).contains(says), "{line}: {}", text(&r));
    assert_eq!(version(c).await, v, "{line}: nothing was written");
}

/// A started game: ana's Stalker, bob's Grunt, ana's turn.
async fn game(c: &mut Console) {
    for line in ["/session start name:Skirmish system:warmachine", STALKER, GRUNT] {
        ok(c, line).await;
    }
    ok(c, "/wm-turn start players:@ana, @bob").await;
}

/// Item 1: players and controllers are members; a name that is none is refused with what to
/// type, so `ana`, `@ana` and `Ana` never become three players.
#[tokio::test]
async fn players_and_controllers_are_members() {
    let mut c = system_console().await;
    ok(&mut c, "/session start name:Skirmish system:warmachine").await;
    let gm = c.invoker();
    refused(
        &mut c,
        &gm,
        "/char add name:Stalker stats:controller=ana def=13 arm=17 boxes=10",
        "'ana' is no Discord member: type @ and pick the member",
    )
    .await;
    ok(&mut c, STALKER).await;
    ok(&mut c, GRUNT).await;
    refused(
        &mut c,
        &gm,
        "/wm-turn start players:ana, bob",
        "'ana' is no Discord member",
    )
    .await;
    let t = ok(&mut c, "/wm-turn start players:@ana, @bob").await;
    assert!(t.contains(&format!("Active player: **{}**", at("ana"))), "{t}");
    // The controller's mention and the player are one person: ana activates and attacks.
    let ana = player(&c, "ana");
    let r = as_(&mut c, &ana, "/wm-turn activate model:Stalker").await;
    assert!(!r.ephemeral, "{}", text(&r));
    c.queue_dice([1, 2]);
    let r = as_(&mut c, &ana, "/wm attack attacker:Stalker target:Grunt").await;
    assert!(!r.ephemeral, "{}", text(&r));
    // A model added without a controller is its owner's.
    ok(
        &mut c,
        "/char add name:Jack owner:@cy stats:def=12 arm=16 boxes=12",
    )
    .await;
    let r = send(&mut c, "/wm status").await;
    assert!(
        text(&r).contains(&format!("**Jack** ({})", at("cy"))),
        "{}",
        text(&r)
    );
    c.shutdown().await;
}

/// Items 2 and 3: a damage button past its attack's moment says why and what to type; typed
/// damage on another player's model is refused naming the ways that work, and `apply:false`
/// hands Apply damage to the target's controller.
#[tokio::test]
async fn damage_keeps_its_moment_and_is_handed_over() {
    let mut c = system_console().await;
    game(&mut c).await;
    let (ana, bob) = (player(&c, "ana"), player(&c, "bob"));
    as_(&mut c, &ana, "/wm-turn activate model:Stalker").await;
    // 6 + 6 + MAT 7 = 19 vs DEF 12: a hit, with Blade (Stalker's only weapon).
    c.queue_dice([6, 5]);
    let (id, r) = as_id(&mut c, &ana, "/wm attack attacker:Stalker target:Grunt").await;
    assert!(text(&r).contains("Blade"), "{}", text(&r));
    let message = c.fake.original_message(id).unwrap();
    as_(&mut c, &ana, "/wm-turn end-activation").await;
    let r = press(&c, &ana, &message, &button(&message, "Roll damage")).await;
    let t = text(&r);
    assert!(r.ephemeral && t.contains("the game has moved on"), "{t}");
    assert!(
        t.contains("/wm damage attacker:Stalker target:Grunt weapon:Blade arm:14"),
        "{t}"
    );
    assert_eq!(sheet(&c, "Grunt").await["marked"], 0);

    refused(
        &mut c,
        &ana,
        "/wm damage attacker:Stalker target:Grunt weapon:Blade",
        "apply:false",
    )
    .await;
    let r = as_(
        &mut c,
        &ana,
        "/wm damage attacker:Stalker target:Grunt weapon:Blade",
    )
    .await;
    assert!(text(&r).contains("wm.roller_applies_damage"), "{}", text(&r));
    // 3 + 3 + POW 13 − ARM 14 = 5, not marked until bob (or the GM) applies it.
    c.queue_dice([3, 3]);
    let (id, r) = as_id(
        &mut c,
        &ana,
        "/wm damage attacker:Stalker target:Grunt weapon:Blade apply:false",
    )
    .await;
    assert!(!r.ephemeral && text(&r).contains("**5 damage**"), "{}", text(&r));
    assert_eq!(sheet(&c, "Grunt").await["marked"], 0);
    let message = c.fake.original_message(id).unwrap();
    let apply = button(&message, "Apply damage");
    let r = press(&c, &ana, &message, &apply).await;
    assert!(r.ephemeral && text(&r).contains(&at("bob")), "{}", text(&r));
    let r = press(&c, &bob, &message, &apply).await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Grunt").await["marked"], 5);
    // The log says the roll marked nothing and the press marked it, in that order.
    let log = text(&send(&mut c, "/session log").await);
    let rolled = log
        .find("ARM 14 → 5 damage, boxes 5/8 if applied (not marked until Apply damage)")
        .unwrap_or_else(|| panic!("{log}"));
    let applied = log
        .find("5 damage applied to Grunt: boxes 5/8")
        .unwrap_or_else(|| panic!("{log}"));
    assert!(rolled < applied, "{log}");
    c.shutdown().await;
}

/// Items 4 and 5: cover is asked for on the attack and `cannot:cover` refuses it; within and
/// completely within from the measured edges.
#[tokio::test]
async fn cover_and_distances() {
    let mut c = system_console().await;
    game(&mut c).await;
    ok(&mut c, "/char edit name:Grunt stats:cannot=cover").await;
    let gm = c.invoker();
    refused(
        &mut c,
        &gm,
        "/wm attack attacker:Stalker target:Grunt cover:4",
        "Grunt cannot gain cover",
    )
    .await;
    // 5 + 4 + RAT 5 = 14 vs DEF 13 + 4 = 17: a miss, the cover shown in the DEF.
    c.queue_dice([5, 4]);
    let t = ok(
        &mut c,
        "/wm attack attacker:Grunt target:Stalker weapon:Rifle cover:4",
    )
    .await;
    assert!(t.contains("**MISS**") && t.contains("vs DEF **17**"), "{t}");
    assert!(t.contains("Cover"), "{t}");
    let t = ok(&mut c, "/wm within range:2 nearest:2 farthest:3").await;
    assert!(t.contains("📏 within 2\\\"") || t.contains("within 2"), "{t}");
    assert!(t.contains("not completely within"), "{t}");
    let t = ok(&mut c, "/wm within range:2 nearest:0 farthest:1.5").await;
    assert!(t.contains("completely within"), "{t}");
    c.shutdown().await;
}

/// Items 6 and 10: rulings archived at end-game are listed; end-game is the GM's or every
/// player's; a ruling is removed by who added it or the GM.
#[tokio::test]
async fn rulings_are_archived_and_listed_and_end_game_needs_everyone() {
    let mut c = system_console().await;
    game(&mut c).await;
    let (ana, bob) = (player(&c, "ana"), player(&c, "bob"));
    as_(
        &mut c,
        &ana,
        "/wm-ruling add question:Forest? ruling:The hedge is a forest",
    )
    .await;
    refused(&mut c, &bob, "/wm-ruling remove id:1", "only they or the GM").await;
    as_(
        &mut c,
        &bob,
        "/wm-ruling add question:Wreck? ruling:Wrecks are rough",
    )
    .await;
    let r = as_(&mut c, &bob, "/wm-turn end-game").await;
    let t = text(&r);
    assert!(t.contains("1 of 2") && t.contains(&at("ana")), "{t}");
    let t = text(&send(&mut c, "/wm-ruling list").await);
    assert!(t.contains("Rulings (2)"), "{t}");
    let r = as_(&mut c, &ana, "/wm-turn end-game").await;
    assert!(text(&r).contains("2 ruling(s) archived"), "{}", text(&r));
    let t = text(&send(&mut c, "/wm-ruling list").await);
    assert!(t.contains("Rulings (0)"), "{t}");
    let t = text(&send(&mut c, "/wm-ruling list archived:true").await);
    assert!(
        t.contains("The hedge is a forest") && t.contains("Wrecks are rough"),
        "{t}"
    );
    assert!(t.contains("Archived rulings (1 game(s))"), "{t}");
    c.shutdown().await;
}

/// Item 7: the turn waits for its triggers (the refusal names them); a destroyed model's
/// trigger leaves the queue; resolve closes the next without id:; "any time" uses are logged.
#[tokio::test]
async fn triggers_hold_the_turn_and_leave_with_their_model() {
    let mut c = system_console().await;
    game(&mut c).await;
    let ana = player(&c, "ana");
    ok(
        &mut c,
        "/wm-turn trigger lines:Grunt: Counterblast; @ana: Vengeance",
    )
    .await;
    let gm = c.invoker();
    refused(&mut c, &gm, "/wm-turn end", "#1 ").await;
    let r = send(&mut c, "/wm-turn end").await;
    assert!(
        text(&r).contains("Vengeance") && text(&r).contains("Counterblast"),
        "{}",
        text(&r)
    );
    ok(&mut c, "/char edit name:Grunt stats:status=destroyed").await;
    let t = ok(&mut c, "/wm-turn resolve").await;
    assert!(
        t.contains("Vengeance") && t.contains("0 trigger(s) waiting"),
        "{t}"
    );
    as_(&mut c, &ana, "/wm-turn activate model:Stalker").await;
    let before = log_rows(&c, c.invoker().channel_id).await.unwrap();
    let r = as_(&mut c, &ana, "/wm-turn anytime model:Stalker rule:Feat").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(log_rows(&c, c.invoker().channel_id).await.unwrap(), before + 1);
    as_(&mut c, &ana, "/wm-turn end-activation").await;
    let t = ok(&mut c, "/wm-turn end").await;
    assert!(t.contains("End of turn"), "{t}");
    c.shutdown().await;
}

/// Items 8 and 9: a refusal of the model's own rule names it; without weapon: a model with
/// several is refused with the list; weapon: autocompletes the attacker's weapons.
#[tokio::test]
async fn own_rules_name_the_model_and_weapons_are_chosen_or_asked_for() {
    let mut c = system_console().await;
    game(&mut c).await;
    ok(
        &mut c,
        "/char add name:Nomad stats:controller=@ana def=11 arm=19 boxes=20 cannot=knockdown",
    )
    .await;
    let gm = c.invoker();
    refused(
        &mut c,
        &gm,
        "/char edit name:Nomad stats:knocked_down=yes",
        "Nomad cannot be knocked down",
    )
    .await;
    refused(
        &mut c,
        &gm,
        "/wm attack attacker:Grunt target:Stalker",
        "Grunt has several weapons: Bayonet (POW 10 melee), Rifle (POW 11 ranged)",
    )
    .await;
    let x = c.complete("/wm attack attacker:Grunt weapon:").await.unwrap();
    let offered = saikoro_bot::console::exchange_text(&x);
    assert!(
        offered.contains("Bayonet") && offered.contains("Rifle"),
        "{offered}"
    );
    assert!(!offered.contains("Blade"), "{offered}");
    c.shutdown().await;
}

/// Item 10 (issue 33): a model's effects and activation are its controller's or the GM's;
/// the turn is its player's or the GM's.
#[tokio::test]
async fn another_players_model_and_turn_are_not_yours() {
    let mut c = system_console().await;
    game(&mut c).await;
    let (ana, bob) = (player(&c, "ana"), player(&c, "bob"));
    refused(
        &mut c,
        &bob,
        "/wm-effect add model:Stalker preset:dark_shroud",
        "its controller or the GM puts effects on it",
    )
    .await;
    // A debuff of bob's model's rule: bob may put it on ana's model, and remove it.
    let r = as_(
        &mut c,
        &bob,
        "/wm-effect add model:Stalker preset:dark_shroud source:Grunt",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    as_(
        &mut c,
        &ana,
        "/wm-effect add model:Stalker name:Rooted cannot:knockdown",
    )
    .await;
    refused(
        &mut c,
        &bob,
        "/wm-effect remove model:Stalker name:Rooted",
        "removes its effects",
    )
    .await;
    let r = as_(&mut c, &bob, "/wm-effect remove model:Stalker name:Dark Shroud").await;
    assert!(!r.ephemeral, "{}", text(&r));
    as_(&mut c, &ana, "/wm-turn activate model:Stalker").await;
    refused(&mut c, &bob, "/wm-turn end-activation", "controlled by").await;
    refused(&mut c, &bob, "/wm-turn move", "controlled by").await;
    as_(&mut c, &ana, "/wm-turn end-activation").await;
    refused(&mut c, &bob, "/wm-turn end", "only they or the GM").await;
    refused(&mut c, &bob, "/wm-turn start players:@bob, @ana", "Only the GM").await;
    let r = as_(&mut c, &ana, "/wm-turn end").await;
    assert!(!r.ephemeral, "{}", text(&r));
    c.shutdown().await;
}

/// Item 2: the in-bot help states the decisions (English and Japanese).
#[tokio::test]
async fn the_help_page_states_the_decisions() {
    let mut c = system_console().await;
    let t = text(&send(&mut c, "/help topic:warmachine").await);
    assert!(
        t.contains("Damage buttons belong to their attack's moment"),
        "{t}"
    );
    assert!(t.contains("apply:false"), "{t}");
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    let r = as_(&mut c, &ja, "/help topic:warmachine").await;
    assert!(
        text(&r).contains("ダメージボタンは攻撃の時点のもの"),
        "{}",
        text(&r)
    );
    c.shutdown().await;
}

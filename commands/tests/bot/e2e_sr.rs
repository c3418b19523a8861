//! End to end through the fake Discord with fixed dice: `/sr attack` between two session
//! characters, the Second chance button (Edge spent, misses rerolled, one press, roller or GM
//! only), Apply damage and the target's monitor after it, glitch display, bad input refused
//! with nothing written, and `/roll 6B6` read the Shadowrun way in a Shadowrun session.

use crate::support::e2e::*;

use saikoro_bot::console::{Console, ConsoleOptions};
use saikoro_bot::fake_discord::{DEFAULT_CHANNEL, DEFAULT_GUILD, Reply};
use serde_json::{Value, json};

/// A run with Ana (owned by ana) and Bob (owned by bob); the console user is the GM.
async fn run(c: &mut Console) {
    let r = send(c, "/session start name:Run system:Shadowrun 4").await;
    assert!(!r.ephemeral, "{}", text(&r));
    for line in [
        "/char add name:Ana owner:@ana stats:body=3 agility=3 reaction=3 willpower=3 edge=2 pistols=2",
        "/char add name:Bob owner:@bob stats:body=4 agility=3 reaction=3 willpower=3 edge=1 armour=6/4",
    ] {
        let r = send(c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
}

const ATTACK: &str = "/sr attack attacker:Ana target:Bob skill:pistols dv:5 ap:-1 weapon:Ares Predator";

#[tokio::test]
async fn attack_second_chance_apply_damage_and_the_monitor() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    let carl = player(&c, "carl");
    // Attack Agility 3 + pistols 2 = 5 dice: 2 hits. Defence Reaction 3: 1 hit. Net 1: DV 6P
    // against armour 6 − 1. Soak Body 4 + 6 − 1 = 9 dice: 1 hit → 5 boxes, knockdown (> Body 4).
    c.queue_dice([5, 2, 3, 1, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4]);
    let (id, r) = as_id(&mut c, &ana, ATTACK).await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(
        e["title"]
            .as_str()
            .unwrap()
            .contains("Ana · Ranged attack → Bob (Ares Predator)"),
        "{e}"
    );
    let attack = field(e, "Attack");
    assert!(attack.contains("Agility 3 pistols +2 = 5"), "{attack}");
    // The summary comes first (a long field is cut at its end, never there), then the dice.
    assert!(attack.starts_with("hits **2**\n"), "{attack}");
    assert!(attack.ends_with("[**5** 2 3 1✗ **6**]"), "{attack}");
    assert!(field(e, "Defence").starts_with("hits **1**\n"), "{e}");
    assert!(field(e, "Defence").ends_with("[**5** 2 2]"), "{e}");
    assert_eq!(field(e, "Net hits"), "**1**");
    assert!(field(e, "Soak").contains("Body 4 Armour +6 AP −1 = 9"), "{e}");
    let damage = field(e, "Damage");
    assert!(
        damage.contains("**6P**") && damage.contains("**5 box(es)**") && damage.contains("KNOCKDOWN"),
        "{damage}"
    );
    assert!(field(e, "Monitor now").contains("□□□□□□□□□□ 0/10"), "{e}");
    let outcome = c.take_outcome(id).expect("outcome tapped");
    assert_eq!(outcome["damage"]["boxes"], 5);
    assert_eq!(outcome["attack"]["roll"]["hits"], 2);

    let message = c.fake.original_message(id).expect("the result message");
    let chance = button(&message, "Second chance");
    let apply_old = button(&message, "Apply damage");

    // Only the roller or the GM: carl is refused and nothing changes.
    let before = version(&c).await;
    let r = press(&c, &carl, &message, &chance).await;
    assert!(r.ephemeral && r.content().contains("Only"), "{}", text(&r));
    assert_eq!(version(&c).await, before);

    // Ana rerolls her three misses (2, 3, 1 → 5, 6, 2): 4 hits, net 3, DV 8P, soak kept: 7 boxes.
    c.queue_dice([5, 6, 2]);
    let r = press(&c, &ana, &message, &chance).await;
    let updated = updated_message(&message, &r);
    assert_eq!(r.body["type"], 7, "the result is updated in place: {}", text(&r));
    let e = &r.embeds()[0];
    let attack = field(e, "Attack");
    assert!(
        attack.starts_with("hits **4**\n")
            && attack.contains("[**5** ~~2~~ ~~3~~ ~~1✗~~ **6**] ↺[**5** **6** 2]"),
        "{attack}"
    );
    assert!(
        field(e, "Damage").contains("**8P**") && field(e, "Damage").contains("**7 box(es)**"),
        "{e}"
    );
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1, "one Edge point spent");
    // A second press is refused; so is the Apply damage of the first result.
    let r = press(&c, &ana, &message, &chance).await;
    assert!(r.ephemeral, "{}", text(&r));
    let r = press(&c, &ana, &message, &apply_old).await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    assert_eq!(sheet(&c, "Bob").await["physical"], 0);

    // Apply damage on the updated result: Bob's monitor takes 7 boxes.
    let apply = button(&updated, "Apply damage");
    // The roller may not put damage on another player's character (the option is off): the
    // button is Bob's owner's, and pressing it changes nothing.
    let r = press(&c, &ana, &updated, &apply).await;
    assert!(
        r.ephemeral && text(&r).contains("can use this button"),
        "{}",
        text(&r)
    );
    assert_eq!(sheet(&c, "Bob").await["physical"], 0);
    let bob = player(&c, "bob");
    let r = press(&c, &bob, &updated, &apply).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let applied = field(&r.embeds()[0], "✅ Damage applied");
    assert!(applied.contains("Bob marks 7 Physical box(es)"), "{applied}");
    assert!(applied.contains("■■■■■■■□□□ 7/10"), "{applied}");
    assert_eq!(r.message["components"], json!([]));
    assert_eq!(sheet(&c, "Bob").await["physical"], 7);
    // Once only.
    let r = press(&c, &ana, &updated, &apply).await;
    assert!(r.ephemeral);
    assert_eq!(sheet(&c, "Bob").await["physical"], 7);

    // /char show reads the monitor and the wound modifier.
    let r = send(&mut c, "/char show name:Bob").await;
    let e = &r.embeds()[0];
    assert!(field(e, "physical").contains("■■■■■■■□□□ 7/10"), "{e}");
    assert!(field(e, "Condition").contains("wounds -2"), "{e}");

    // The wounds now take dice off Bob's pools by themselves: Agility 3 + defaulting −1 − 2 = 0.
    let r = send(&mut c, "/sr test character:Bob attribute:agility skill:pistols").await;
    assert!(r.ephemeral && r.content().contains("pool is 0"), "{}", text(&r));
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
async fn second_chance_is_too_late_once_damage_is_applied_and_the_gm_may_press() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    c.queue_dice([5, 2, 3, 1, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4]);
    let (id, _) = as_id(&mut c, &ana, ATTACK).await;
    let message = c.fake.original_message(id).unwrap();
    // The GM applies the damage for Ana.
    let gm = c.invoker();
    let r = press(&c, &gm, &message, &button(&message, "Apply damage")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert_eq!(sheet(&c, "Bob").await["physical"], 5);
    // Now the Second chance is refused, and no Edge is spent.
    let r = press(&c, &ana, &message, &button(&message, "Second chance")).await;
    assert!(
        r.ephemeral && r.content().contains("already applied"),
        "{}",
        text(&r)
    );
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 2);
    c.shutdown().await;
}

#[tokio::test]
async fn glitches_cannot_be_missed() {
    let mut c = system_console().await;
    c.queue_dice([1, 1, 3, 5]);
    let r = send(&mut c, "/sr test pool:4 threshold:1").await;
    let e = &r.embeds()[0];
    assert!(e["title"].as_str().unwrap().starts_with("⚠️ GLITCH"), "{e}");
    assert_eq!(e["color"], 0xE67E22);
    assert!(
        e["description"]
            .as_str()
            .unwrap()
            .starts_with("hits **1** · **⚠️ GLITCH**\n"),
        "{e}"
    );
    assert!(
        e["description"].as_str().unwrap().ends_with("[1✗ 1✗ 3 **5**]"),
        "{e}"
    );
    // 2 dice with one 1 and no hit: critical, in Japanese too.
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    c.queue_dice([1, 2]);
    let (_, r) = as_id(&mut c, &ja, "/sr test pool:2").await;
    let e = &r.embeds()[0];
    assert!(
        e["title"]
            .as_str()
            .unwrap()
            .starts_with("💀 クリティカル・グリッチ"),
        "{e}"
    );
    assert_eq!(e["color"], 0x8B0000);
    // 3 dice with one 1: no glitch.
    c.queue_dice([1, 5, 3]);
    let r = send(&mut c, "/sr test pool:3").await;
    assert!(!text(&r).contains("GLITCH"), "{}", text(&r));
    // Pushing the limit: the six explodes, shown apart.
    c.queue_dice([6, 2, 1, 5]);
    let r = send(&mut c, "/sr test pool:2 edge:push the limit edge_rating:1").await;
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(
        d.starts_with("hits **2**\n") && d.contains("[**6** 2 1✗] 💥[**5**]"),
        "{d}"
    );
    c.shutdown().await;
}

#[tokio::test]
async fn bad_input_is_refused_in_the_users_language_and_nothing_is_written() {
    let mut c = system_console().await;
    run(&mut c).await;
    let before = version(&c).await;
    let r = send(&mut c, "/sr attack attacker:Nobody target:Bob skill:pistols dv:5").await;
    assert!(r.ephemeral && r.embeds().is_empty(), "{}", text(&r));
    assert!(r.content().contains("Nobody"), "{}", text(&r));
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    let (_, r) = as_id(&mut c, &ja, "/sr test pool:60 dice:50").await;
    assert!(
        r.ephemeral && r.content().contains("大きすぎます"),
        "{}",
        text(&r)
    );
    let r = send(&mut c, "/sr test pool:-2").await;
    assert!(r.ephemeral && r.content().contains("long shot"), "{}", text(&r));
    let r = send(&mut c, "/sr test pool:3 modifiers:ranged.nope").await;
    assert!(r.ephemeral && r.content().contains("ranged.nope"), "{}", text(&r));
    let r = send(&mut c, "/sr test character:Ana attribute:agility").await;
    assert!(r.ephemeral && r.content().contains("skill"), "{}", text(&r));
    // Ana's Edge is not Bob's player's to spend: refused before a die is rolled.
    let bob = player(&c, "bob");
    let (_, r) = as_id(
        &mut c,
        &bob,
        "/sr test character:Ana attribute:agility skill:pistols edge:push the limit",
    )
    .await;
    assert!(
        r.ephemeral && r.content().contains("belongs to someone else"),
        "{}",
        text(&r)
    );
    assert_eq!(version(&c).await, before, "nothing was written");
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 2);
    // The next roll is served with fresh dice.
    c.queue_dice([5, 5, 2]);
    let r = send(&mut c, "/sr test pool:3 threshold:2").await;
    assert_eq!(field(&r.embeds()[0], "Net hits"), "**0**");
    c.shutdown().await;
}

#[tokio::test]
async fn roll_reads_b6_the_shadowrun_way_in_a_shadowrun_session() {
    let mut c = system_console().await;
    // Outside a Shadowrun channel, 6B6 stays a plain BCDice roll.
    c.queue_dice([1, 1, 1, 5, 2, 3]);
    let r = send(&mut c, "/roll dice:6B6").await;
    assert!(!text(&r).contains("GLITCH"), "{}", text(&r));
    run(&mut c).await;
    c.queue_dice([1, 1, 1, 5, 2, 3]);
    let r = send(&mut c, "/roll dice:6B6").await;
    let e = &r.embeds()[0];
    assert!(e["title"].as_str().unwrap().starts_with("⚠️ GLITCH"), "{e}");
    assert!(field(e, "Shadowrun").contains("Hits **1** · 1: 3/6"), "{e}");
    // nR6: sixes rerolled; the rerolled 1 counts in the divisor only (BCDice).
    c.queue_dice([6, 1]);
    let r = send(&mut c, "/roll dice:1R6").await;
    let e = &r.embeds()[0];
    assert!(field(e, "Shadowrun").contains("Hits **1** · 1: 0/2"), "{e}");
    assert!(!text(&r).contains("GLITCH"));
    c.queue_dice([1, 2]);
    let r = send(&mut c, "/roll dice:2B6>=4").await;
    assert!(
        r.embeds()[0]["title"]
            .as_str()
            .unwrap()
            .starts_with("💀 CRITICAL GLITCH"),
        "{}",
        text(&r)
    );
    c.shutdown().await;
}

#[tokio::test]
async fn initiative_orders_the_session_and_sr_is_localized() {
    let mut c = system_console().await;
    run(&mut c).await;
    // Ana Init 3 + Intuition 0 = 3, Bob 3: Ana 2 hits, Bob 0 → Ana first.
    c.queue_dice([5, 6, 1, 2, 3, 4]);
    let r = send(&mut c, "/sr initiative roll").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    assert_eq!(s.turn.order, vec!["Ana".to_string(), "Bob".to_string()]);
    assert!(field(&r.embeds()[0], "Pass 1").contains("Ana → Bob"));
    let commands = Value::Array(c.fake.commands(Some(DEFAULT_GUILD)));
    let sr = find(&commands, "sr");
    assert_eq!(sr["description_localizations"]["ja"], "シャドウラン第4版");
    let attack = find(&sr["options"], "attack");
    assert_eq!(attack["name_localizations"]["ja"], "攻撃");
    let target = find(&attack["options"], "target");
    assert_eq!(target["autocomplete"], true);
    let mods = find(&attack["options"], "modifiers");
    assert_eq!(mods["autocomplete"], true);
    c.shutdown().await;
}

#[tokio::test]
async fn the_sr_tree_fits_discords_limits() {
    let c = system_console().await;
    let commands = Value::Array(c.fake.commands(Some(DEFAULT_GUILD)));
    let sr = find(&commands, "sr");
    let total = saikoro_bot::registration::command_chars(sr);
    eprintln!("sr chars: {total}");
    assert!(total <= 8000, "{total}");
    for sub in sr["options"].as_array().unwrap() {
        assert!(sub["options"].as_array().map_or(0, Vec::len) <= 25);
    }
    c.shutdown().await;
}

#[tokio::test]
async fn buttons_work_after_a_restart() {
    let dir = std::env::temp_dir().join(format!("saikoro-e2e-sr-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = ConsoleOptions {
        dice: Some(vec![]),
        user: "gm".into(),
        admin: true,
        data_dir: Some(dir.clone()),
        ..Default::default()
    };
    let mut c = system_console_with(opts.clone()).await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    c.queue_dice([5, 2, 3, 1, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4]);
    let (id, _) = as_id(&mut c, &ana, ATTACK).await;
    let message = c.fake.original_message(id).unwrap();
    c.shutdown().await;

    // A new process on the same database: the Second chance still works, once.
    let c = system_console_with(opts).await;
    let ana = player(&c, "ana");
    c.queue_dice([5, 6, 2]);
    let r = press(&c, &ana, &message, &button(&message, "Second chance")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert!(
        field(&r.embeds()[0], "Damage").contains("**7 box(es)**"),
        "{}",
        text(&r)
    );
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    let r = press(&c, &ana, &message, &button(&message, "Second chance")).await;
    assert!(r.ephemeral);
    c.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn every_subcommand_answers() {
    let mut c = system_console_with(ConsoleOptions {
        seed: Some(7),
        user: "gm".into(),
        admin: true,
        ..Default::default()
    })
    .await;
    run(&mut c).await;
    for line in [
        "/char add name:Mage stats:body=3 willpower=4 logic=4 magic=5 edge=2 spellcasting=4 summoning=3 tradition=hermetic",
        "/char add name:Techno stats:body=3 willpower=4 resonance=4 edge=2 software=4 compiling=3",
    ] {
        let r = send(&mut c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
    for line in [
        "/sr test character:Ana attribute:agility skill:pistols threshold:2 modifiers:ranged.smartlink, ranged.aim=2",
        "/sr test character:Ana attribute:intuition attribute2:willpower",
        "/sr test pool:8 buy_hits:true threshold:1",
        "/sr opposed character:Ana attribute:agility skill:pistols opponent:Bob opponent_attribute:reaction opponent_attribute2:intuition",
        "/sr extended pool:6 threshold:8",
        "/sr teamwork character:Ana attribute:agility skill:pistols assistants:Bob, 3 threshold:2",
        "/sr attack attacker:Bob target:Ana skill:unarmed_combat dv:3 kind:melee stun:true melee_defence:block",
        "/sr surprise aware:Ana ambush:Bob",
        "/sr spell caster:Mage force:6 drain:3 target:Bob resist:body",
        "/sr summon caster:Mage force:4",
        "/sr dispel caster:Mage force:4 magic:4 drain:2 hits:1",
        "/sr spell caster:Mage force:3 drain:2 resist_pool:3 counterspell:Mage",
        "/sr thread character:Techno rating:2",
        "/sr compile character:Techno rating:3",
        "/sr-matrix cybercombat attack:8 defence:6 dv:5 resist:6 target:black IC (stun)",
        "/sr-matrix hack pool:8 firewall:4 node:6 stealth:4",
        "/sr-matrix perception pool:6 hidden:4",
        "/sr-rig sensor pool:6 threshold:2",
        "/sr-rig crash damage:8 body:6 pool:7",
        "/sr-rig chase pool:7 quarry_pool:6 current:near",
        "/sr initiative roll push:Ana",
    ] {
        let r = send(&mut c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
        assert!(!r.embeds().is_empty(), "{line}");
    }
    assert!(
        c.fake.unhandled_requests().is_empty(),
        "{:?}",
        c.fake.unhandled_requests()
    );
    c.shutdown().await;
}

const ANA_TEST: &str = "/sr test character:Ana attribute:agility skill:pistols threshold:2";

#[tokio::test]
async fn negate_glitch_and_burn_edge_buttons_use_the_characters_edge_once_per_roll() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    let carl = player(&c, "carl");
    // Agility 3 + pistols 2 = 5 dice: three 1s and one hit is a glitch (3 × 2 ≥ 5).
    c.queue_dice([1, 1, 1, 5, 2]);
    let (id, r) = as_id(&mut c, &ana, ANA_TEST).await;
    assert!(text(&r).contains("GLITCH"), "{}", text(&r));
    let message = c.fake.original_message(id).unwrap();
    let labels: Vec<String> = buttons(&message).into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels,
        vec![
            "Second chance (Edge)",
            "+2 Edge dice (Edge)",
            "Negate glitch (Edge)",
            "Burn Edge: critical success"
        ],
        "{message}"
    );
    let negate = button(&message, "Negate glitch");
    // Not carl's character.
    let r = press(&c, &carl, &message, &negate).await;
    assert!(r.ephemeral && r.content().contains("Only"), "{}", text(&r));
    let before = version(&c).await;
    let r = press(&c, &ana, &message, &negate).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let e = &r.embeds()[0];
    let d = e["description"].as_str().unwrap();
    assert!(d.contains("~~⚠️ GLITCH~~ (negated)"), "{d}");
    assert!(!e["title"].as_str().unwrap().contains("GLITCH"), "{e}");
    assert!(
        e["footer"]["text"].as_str().unwrap().contains("Glitch negated"),
        "{e}"
    );
    assert_eq!(r.message["components"], json!([]));
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1, "one point spent");
    assert_eq!(
        version(&c).await,
        before + 1,
        "the point and the roll's Edge use: one write"
    );
    // One Edge use per roll: the other buttons of the same result are refused, nothing spent.
    for label in ["Second chance", "Burn Edge", "Negate glitch"] {
        let r = press(&c, &ana, &message, &button(&message, label)).await;
        assert!(r.ephemeral, "{label}: {}", text(&r));
    }
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    assert_eq!(sheet(&c, "Ana").await["attributes"]["edge"], 2);

    // A critical glitch can be negated too (decisions "Edge"); the GM may press for Ana.
    c.queue_dice([1, 1, 1, 2, 2]);
    let (id, r) = as_id(&mut c, &ana, ANA_TEST).await;
    assert!(text(&r).contains("CRITICAL GLITCH"), "{}", text(&r));
    let message = c.fake.original_message(id).unwrap();
    let gm = c.invoker();
    let r = press(&c, &gm, &message, &button(&message, "Negate glitch")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert!(
        r.embeds()[0]["description"]
            .as_str()
            .unwrap()
            .contains("~~💀 CRITICAL GLITCH~~ (negated)"),
        "{}",
        text(&r)
    );
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 0);

    // No point left: no Second chance or Negate; burning needs only the attribute.
    c.queue_dice([2, 2, 3, 4, 1]);
    let (id, r) = as_id(&mut c, &ana, ANA_TEST).await;
    assert!(
        text(&r).contains("Failure") || text(&r).contains("fail"),
        "{}",
        text(&r)
    );
    let message = c.fake.original_message(id).unwrap();
    let labels: Vec<String> = buttons(&message).into_iter().map(|(l, _)| l).collect();
    assert_eq!(labels, vec!["Burn Edge: critical success"]);
    let r = press(&c, &ana, &message, &button(&message, "Burn Edge")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(
        e["description"].as_str().unwrap().contains("✨ CRITICAL SUCCESS"),
        "{e}"
    );
    assert!(e["footer"]["text"].as_str().unwrap().contains("burnt"), "{e}");
    let s = sheet(&c, "Ana").await;
    assert_eq!(
        (s["attributes"]["edge"].clone(), s["edge_burnt"].clone()),
        (json!(1), json!(1))
    );
    let outcome = c.take_outcome(id);
    assert!(outcome.is_some());
    c.shutdown().await;
}

#[tokio::test]
async fn negate_glitch_works_after_a_restart() {
    let dir = std::env::temp_dir().join(format!("saikoro-e2e-sr-negate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = ConsoleOptions {
        dice: Some(vec![]),
        user: "gm".into(),
        admin: true,
        data_dir: Some(dir.clone()),
        ..Default::default()
    };
    let mut c = system_console_with(opts.clone()).await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    c.queue_dice([1, 1, 1, 5, 2]);
    let (id, _) = as_id(&mut c, &ana, ANA_TEST).await;
    let message = c.fake.original_message(id).unwrap();
    c.shutdown().await;
    let c = system_console_with(opts).await;
    let ana = player(&c, "ana");
    let r = press(&c, &ana, &message, &button(&message, "Negate glitch")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    let r = press(&c, &ana, &message, &button(&message, "Second chance")).await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    c.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn initiative_edge_uses_and_the_order_are_one_write() {
    let mut c = system_console().await;
    run(&mut c).await;
    // Bob cannot pay for two uses with one point: refused, nothing written.
    // (The dice are rolled before the Edge is checked: queue them, so the refusal read is the
    // Edge one and not "the fixed dice ran out".)
    let before = version(&c).await;
    c.queue_dice([1, 2, 3, 4, 1, 2, 3]);
    let r = send(&mut c, "/sr initiative roll push:Bob seize:Bob").await;
    assert!(r.ephemeral && text(&r).contains("No Edge point"), "{}", text(&r));
    assert_eq!(version(&c).await, before);
    // Ana 2 hits (score 5), Bob 0 (score 3); Bob seizes the first action, Ana takes an extra pass.
    c.queue_dice([5, 6, 1, 2, 3, 4]);
    let r = send(&mut c, "/sr initiative roll seize:Bob extra_pass:Ana").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, before + 1, "Edge and order in one transaction");
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    assert_eq!(s.turn.order, vec!["Bob".to_string(), "Ana".to_string()]);
    let stored = &s.system_state["shadowrun4"]["initiative"];
    assert_eq!(stored["acting_first"], json!(["Bob"]));
    assert_eq!(stored["extra_pass"], json!(["Ana"]));
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    assert_eq!(sheet(&c, "Bob").await["edge_points"], 0);
    let e = &r.embeds()[0];
    assert!(field(e, "Pass 1").contains("Bob → Ana"), "{e}");
    assert!(field(e, "Pass 2").contains("Ana"), "{e}");
    let d = e["description"].as_str().unwrap();
    assert!(
        d.contains("acts first (Edge)") && d.contains("+1 pass: Edge"),
        "{d}"
    );
    c.shutdown().await;
}

#[tokio::test]
async fn second_chance_on_an_extended_test() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    // 5 dice, one interval: 1 hit of 3 needed.
    c.queue_dice([5, 2, 3, 1, 2]);
    let (id, r) = as_id(
        &mut c,
        &ana,
        "/sr extended character:Ana attribute:agility skill:pistols threshold:3 max_intervals:1",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let message = c.fake.original_message(id).unwrap();
    let labels: Vec<String> = buttons(&message).into_iter().map(|(l, _)| l).collect();
    assert_eq!(labels, vec!["Second chance (Edge)"]);
    // The four misses reroll 5, 6, 2, 2: total 3, reached.
    c.queue_dice([5, 6, 2, 2]);
    let r = press(&c, &ana, &message, &button(&message, "Second chance")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let t = text(&r);
    assert!(t.contains("↺[**5** **6** 2 2]"), "{t}");
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    let r = press(&c, &ana, &message, &button(&message, "Second chance")).await;
    assert!(r.ephemeral);
    c.shutdown().await;
}

#[tokio::test]
async fn spell_second_chance_counterspelling_and_dispelling() {
    let mut c = system_console().await;
    run(&mut c).await;
    for line in [
        "/char add name:Mage stats:body=3 willpower=4 logic=4 magic=3 edge=2 spellcasting=1 counterspelling=2 tradition=hermetic",
        "/char add name:Sham stats:body=3 willpower=3 magic=2 edge=1 counterspelling=2",
    ] {
        let r = send(&mut c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
    // Cast Magic 3 + 1 = 4 dice, 1 hit. Bob resists Willpower 3 + Sham's Counterspelling 2 =
    // 5 dice, 1 hit: a tie. Drain 3 against Willpower 4 + Logic 4: 2 hits → 1 Stun.
    c.queue_dice([5, 2, 2, 1, 5, 2, 2, 2, 2, 5, 5, 2, 2, 2, 2, 2, 2]);
    let gm = c.invoker();
    let (id, r) = as_id(
        &mut c,
        &gm,
        "/sr spell caster:Mage force:3 drain:3 target:Bob counterspell:Sham",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(field(e, "Resistance").contains("counterspelling +2 = 5"), "{e}");
    assert!(field(e, "Result").contains("Tie"), "{e}");
    let message = c.fake.original_message(id).unwrap();
    let labels: Vec<String> = buttons(&message).into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels,
        vec!["Second chance (Edge)", "+2 Edge dice (Edge)", "Apply drain"]
    );
    // The three misses reroll 5, 6, 2: 3 hits (Force 3), net 2: success; the drain stays.
    c.queue_dice([5, 6, 2]);
    let r = press(&c, &gm, &message, &button(&message, "Second chance")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(field(e, "Result").contains("Success"), "{e}");
    assert_eq!(sheet(&c, "Mage").await["edge_points"], 1);
    let updated = updated_message(&message, &r);
    // The first result's Apply drain is gone; the updated one applies the same 1 Stun once.
    let r = press(&c, &gm, &message, &button(&message, "Apply drain")).await;
    assert!(r.ephemeral, "{}", text(&r));
    let r = press(&c, &gm, &updated, &button(&updated, "Apply drain")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert_eq!(sheet(&c, "Mage").await["stun"], 1);

    // Dispelling: Counterspelling 2 + Magic 3 = 5 dice, 3 hits, against Force 3 + Magic 4 =
    // 7 dice, 1 hit: net 2 takes both of the spell's hits. Drain 2, 1 hit: 1 Stun.
    c.queue_dice([5, 5, 6, 2, 2, 5, 2, 2, 2, 2, 2, 2, 5, 2, 2, 2, 2, 2, 2, 2]);
    let r = send(&mut c, "/sr dispel caster:Mage force:3 magic:4 drain:2 hits:2").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(field(e, "Dispelling").contains("counterspelling +2 = 5"), "{e}");
    assert!(field(e, "Spell · Force 3").contains("hits **1**"), "{e}");
    assert_eq!(field(e, "Spell hits removed"), "**2**");
    assert!(field(e, "Result").contains("Dispelled"), "{e}");
    assert!(field(e, "Drain").contains("1"), "{e}");
    // Counterspelling needs someone to protect.
    let r = send(&mut c, "/sr spell caster:Mage force:3 drain:3 counterspell:Sham").await;
    assert!(r.ephemeral, "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn negate_glitch_on_an_attack_keeps_the_damage_and_only_the_owner_spends_edge() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    let bob = player(&c, "bob");
    // Attack 5 dice 1,1,1,5,6: 2 hits and a glitch. Defence 3 dice, 1 hit. Net 1: 6P; soak
    // 9 dice, 1 hit: 5 boxes.
    let dice = [1, 1, 1, 5, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4];
    c.queue_dice(dice);
    let (id, r) = as_id(&mut c, &ana, ATTACK).await;
    assert!(text(&r).contains("GLITCH"), "{}", text(&r));
    let message = c.fake.original_message(id).unwrap();
    let labels: Vec<String> = buttons(&message).into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels,
        vec![
            "Second chance (Edge)",
            "+2 Edge dice (Edge)",
            "Negate glitch (Edge)",
            "Apply damage",
            "Defender: Second chance (Edge)",
            "Defender: +1 Edge dice (Edge)",
            "Defender soak: Second chance (Edge)",
            "Defender soak: +1 Edge dice (Edge)",
        ],
        "{message}"
    );
    let r = press(&c, &ana, &message, &button(&message, "Negate glitch")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(field(e, "Attack").contains("(negated)"), "{e}");
    assert!(field(e, "Damage").contains("**5 box(es)**"), "{e}");
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    // The Apply damage of the first result is replaced by the updated one.
    let updated = updated_message(&message, &r);
    let r = press(&c, &ana, &message, &button(&message, "Apply damage")).await;
    assert!(r.ephemeral, "{}", text(&r));
    let r = press(&c, &bob, &updated, &button(&updated, "Apply damage")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert_eq!(sheet(&c, "Bob").await["physical"], 5);

    // Bob rolls with Ana's sheet: he may not spend her Edge with the button.
    c.queue_dice([1, 1, 1, 5, 2]);
    let (id, _) = as_id(&mut c, &bob, ANA_TEST).await;
    let message = c.fake.original_message(id).unwrap();
    let before = version(&c).await;
    let r = press(&c, &bob, &message, &button(&message, "Negate glitch")).await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, before);
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    // The GM may.
    let gm = c.invoker();
    let r = press(&c, &gm, &message, &button(&message, "Negate glitch")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 0);
    c.shutdown().await;
}

#[tokio::test]
async fn a_killed_character_may_burn_edge_to_cheat_death() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    let bob = player(&c, "bob");
    let r = send(&mut c, "/char edit name:Bob stats:physical=12").await;
    assert!(!r.ephemeral, "{}", text(&r));
    // 5 more boxes: 17 > track 10 + Body 4, dead.
    c.queue_dice([5, 2, 3, 1, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4]);
    let (id, _) = as_id(&mut c, &ana, ATTACK).await;
    let message = c.fake.original_message(id).unwrap();
    let r = press(&c, &bob, &message, &button(&message, "Apply damage")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let dead = updated_message(&message, &r);
    let cheat = button(&dead, "Cheat death");
    // Bob's to press (or the GM's), not Ana's.
    let r = press(&c, &ana, &dead, &cheat).await;
    assert!(r.ephemeral, "{}", text(&r));
    let r = press(&c, &bob, &dead, &cheat).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert!(text(&r).contains("Death cheated"), "{}", text(&r));
    let s = sheet(&c, "Bob").await;
    assert_eq!(s["attributes"]["edge"], 0);
    assert_eq!(s["edge_burnt"], 1);
    assert_eq!(s["physical"], 14);
    let r = press(&c, &bob, &dead, &cheat).await;
    assert!(r.ephemeral);
    c.shutdown().await;
}

#[tokio::test]
async fn edge_dice_after_the_roll_explode_alone() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    c.queue_dice([2, 2, 3, 4, 1]);
    let (id, _) = as_id(&mut c, &ana, ANA_TEST).await;
    let message = c.fake.original_message(id).unwrap();
    // Edge 2: two dice, 6 and 5; the six explodes into a 2. 2 hits: threshold reached.
    c.queue_dice([6, 5, 2]);
    let r = press(&c, &ana, &message, &button(&message, "+2 Edge dice")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let e = &r.embeds()[0];
    assert_eq!(field(e, "Hits"), "**2**", "{e}");
    assert!(field(e, "Result").contains("Success"), "{e}");
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    let r = press(&c, &ana, &message, &button(&message, "Second chance")).await;
    assert!(r.ephemeral, "{}", text(&r));
    c.shutdown().await;
}

#[tokio::test]
async fn target_edge_is_spent_only_for_rolls_made_and_empty_pools_still_resolve() {
    let mut c = system_console().await;
    run(&mut c).await;
    // The GM spends Bob's Edge. Ana's 5 dice all miss: no soak roll, so soak Edge costs nothing.
    c.queue_dice([2, 2, 2, 2, 2, 5, 2, 2]);
    let r = send(&mut c, &format!("{ATTACK} soak_edge:true")).await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert!(field(&r.embeds()[0], "Result").contains("Miss"), "{}", text(&r));
    assert_eq!(sheet(&c, "Bob").await["edge_points"], 1, "no soak roll, no Edge");
    // Defence Edge on a miss: the defence was rolled (3 + 1 Edge dice), one point spent.
    c.queue_dice([2, 2, 2, 2, 2, 2, 2, 2, 5]);
    let r = send(&mut c, &format!("{ATTACK} defence_edge:true")).await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(field(e, "Defence").contains("+ Edge 1"), "{e}");
    assert_eq!(sheet(&c, "Bob").await["edge_points"], 0);

    // Cy has no Reaction and no armour: with Edge, the defence and the soak (Body 1 + 0 − 1 AP)
    // are long shots of 2 Edge dice instead of aborting the attack.
    let r = send(
        &mut c,
        "/char add name:Cy owner:@cy stats:body=1 reaction=0 willpower=2 edge=2",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    c.queue_dice([5, 5, 2, 2, 2, 5, 2, 2, 2]);
    let gm = c.invoker();
    let (id, r) = as_id(
        &mut c,
        &gm,
        "/sr attack attacker:Ana target:Cy skill:pistols dv:5 ap:-1 defence_edge:true soak_edge:true",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(field(e, "Defence").contains("long shot: Edge 2"), "{e}");
    assert!(field(e, "Defence").starts_with("hits **1**"), "{e}");
    assert!(field(e, "Soak").contains("long shot: Edge 2"), "{e}");
    assert!(field(e, "Damage").contains("**6 box(es)**"), "{e}");
    let outcome = c.take_outcome(id).expect("outcome tapped");
    assert_eq!(outcome["damage"]["boxes"], 6);
    assert_eq!(
        sheet(&c, "Cy").await["edge_points"],
        0,
        "two rolls with Edge, two points"
    );
    // A Cy without Edge asked: no dice at all, the hit still resolves.
    c.queue_dice([5, 2, 2, 2, 2]);
    let r = send(
        &mut c,
        "/sr attack attacker:Ana target:Cy skill:pistols dv:2 ap:-1",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(field(e, "Defence").contains("no dice"), "{e}");
    assert!(field(e, "Damage").contains("**3 box(es)**"), "{e}");
    c.shutdown().await;
}

#[tokio::test]
async fn a_soak_first_rolled_after_an_edge_press_spends_the_targets_edge_asked_for_on_the_attack() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    // Ana's 5 dice all miss; Bob's defence 3 dice, 1 hit. Queued for the attack that is made.
    c.queue_dice([2, 2, 2, 2, 2, 5, 2, 2]);
    // Ana's player may not ask for Bob's Edge: refused before any roll, nothing written.
    let before = version(&c).await;
    let (_, r) = as_id(&mut c, &ana, &format!("{ATTACK} soak_edge:true")).await;
    assert!(
        r.ephemeral && r.content().contains("Only Bob's owner or the GM"),
        "{}",
        text(&r)
    );
    let mut ana_ja = player(&c, "ana");
    ana_ja.locale = "ja".into();
    let (_, r) = as_id(&mut c, &ana_ja, &format!("{ATTACK} defence_edge:true")).await;
    assert!(
        r.ephemeral && r.content().contains("持ち主かGMだけ"),
        "{}",
        text(&r)
    );
    assert_eq!(version(&c).await, before, "nothing written");
    // The GM asks for Bob's soak Edge; the attack misses, so no soak yet and no point spent.
    let gm = c.invoker();
    let (id, r) = as_id(&mut c, &gm, &format!("{ATTACK} soak_edge:true")).await;
    assert!(field(&r.embeds()[0], "Result").contains("Miss"), "{}", text(&r));
    assert_eq!(sheet(&c, "Bob").await["edge_points"], 1);
    let message = c.fake.original_message(id).unwrap();
    // Second chance: the misses reroll 5, 5, 2, 2, 2 — 2 hits, net 1, 6P. The soak is rolled
    // now, with Bob's Edge: Body 4 + armour 6 − 1 + Edge 1 = 10 dice, 1 hit: 5 boxes.
    c.queue_dice([5, 5, 2, 2, 2, 5, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    let r = press(&c, &gm, &message, &button(&message, "Second chance")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(field(e, "Soak").contains("Edge"), "{e}");
    assert!(field(e, "Damage").contains("**5 box(es)**"), "{e}");
    assert_eq!(
        sheet(&c, "Ana").await["edge_points"],
        1,
        "Ana's point for the press"
    );
    assert_eq!(
        sheet(&c, "Bob").await["edge_points"],
        0,
        "Bob's soak Edge, asked by the GM"
    );
    c.shutdown().await;
}

#[tokio::test]
async fn a_defenders_glitch_is_in_the_title_with_its_name() {
    let mut c = system_console().await;
    run(&mut c).await;
    // Ana 2 hits; Bob's defence 1, 1, 2: a critical glitch; soak 9 dice, no hit.
    c.queue_dice([5, 5, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    let r = send(&mut c, ATTACK).await;
    let e = &r.embeds()[0];
    let title = e["title"].as_str().unwrap();
    assert!(title.starts_with("💀 CRITICAL GLITCH (Bob) · 🎲 Ana"), "{title}");
    assert_eq!(e["color"], 0x8B0000);
    assert!(
        field(e, "Defence").starts_with("hits **0** · **💀 CRITICAL GLITCH**"),
        "{e}"
    );
    // In Japanese, a soak glitch names the soak.
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    // Ana 2 hits; Bob 0; soak 9 dice with five 1s and a hit: a glitch.
    c.queue_dice([5, 5, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 5, 2, 2, 2]);
    let (_, r) = as_id(&mut c, &ja, ATTACK).await;
    let title = r.embeds()[0]["title"].as_str().unwrap().to_string();
    assert!(title.starts_with("⚠️ グリッチ (Bob, ダメージ抵抗) · "), "{title}");
    assert_eq!(r.embeds()[0]["color"], 0xE67E22);
    c.shutdown().await;
}

#[tokio::test]
async fn initiative_next_moves_through_passes_and_rolls_a_new_turn() {
    let mut c = system_console().await;
    run(&mut c).await;
    let r = send(&mut c, "/sr initiative next").await;
    assert!(
        r.ephemeral && r.content().contains("/sr initiative roll"),
        "{}",
        text(&r)
    );
    let r = send(&mut c, "/char edit name:Ana stats:passes=2").await;
    assert!(!r.ephemeral, "{}", text(&r));
    // Turn 1: Ana 2 hits (5), Bob 0 (3). Ana has two passes, Bob one.
    c.queue_dice([5, 6, 1, 2, 3, 4]);
    let r = send(&mut c, "/sr initiative roll").await;
    let e = &r.embeds()[0];
    assert!(e["title"].as_str().unwrap().ends_with("Turn 1 · pass 1"), "{e}");
    assert_eq!(field(e, "Acting now"), "**Ana**");
    // Pushing the limit is refused: Ana has a second pass, so this is not a new turn.
    let before = version(&c).await;
    let r = send(&mut c, "/sr initiative next push:Ana").await;
    assert!(
        r.ephemeral && r.content().contains("new combat turn"),
        "{}",
        text(&r)
    );
    assert_eq!(version(&c).await, before, "nothing written");
    // Pass 2: only Ana acts; Bob spends Edge for an extra pass and acts in it too.
    let r = send(&mut c, "/sr initiative next extra_pass:Bob").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(e["title"].as_str().unwrap().ends_with("Turn 1 · pass 2"), "{e}");
    assert!(field(e, "Pass 1 (done)").contains("Ana → Bob"), "{e}");
    assert!(field(e, "Pass 2 ◀ now").contains("Ana → Bob"), "{e}");
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    assert_eq!(s.turn.order, vec!["Ana".to_string(), "Bob".to_string()]);
    let stored = &s.system_state["shadowrun4"]["initiative"];
    assert_eq!(
        (stored["turn"].clone(), stored["pass"].clone()),
        (json!(1), json!(2))
    );
    assert_eq!(sheet(&c, "Bob").await["edge_points"], 0);
    // Every pass spent (Ana 2, Bob 1 + 1): turn 2 rolls again. Ana 0 hits (3), Bob 2 (5).
    c.queue_dice([2, 2, 2, 5, 5, 2]);
    let r = send(&mut c, "/sr initiative next").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(e["title"].as_str().unwrap().ends_with("Turn 2 · pass 1"), "{e}");
    assert_eq!(field(e, "Acting now"), "**Bob**");
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    assert_eq!(s.turn.order, vec!["Bob".to_string(), "Ana".to_string()]);
    let stored = &s.system_state["shadowrun4"]["initiative"];
    assert_eq!(stored["turn"], 2);
    assert_eq!(stored["extra_pass"], json!([]), "the extra pass was for turn 1");
    // A player may not move the initiative on.
    let ana = player(&c, "ana");
    let before = version(&c).await;
    let (_, r) = as_id(&mut c, &ana, "/sr initiative next").await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, before);
    // Japanese names of the new subcommand.
    let commands = Value::Array(c.fake.commands(Some(DEFAULT_GUILD)));
    let init = find(&find(&commands, "sr")["options"], "initiative");
    assert_eq!(find(&init["options"], "next")["name_localizations"]["ja"], "次");
    c.shutdown().await;
}

#[tokio::test]
async fn a_sustained_spell_or_thread_counts_on_the_sheet_until_dropped() {
    let mut c = system_console().await;
    run(&mut c).await;
    for line in [
        "/char add name:Mage owner:@mia stats:body=3 willpower=4 logic=4 magic=5 edge=2 spellcasting=4 tradition=hermetic",
        "/char add name:Techno stats:body=3 willpower=4 resonance=4 edge=2 software=4",
    ] {
        let r = send(&mut c, line).await;
        assert!(!r.ephemeral, "{line}: {}", text(&r));
    }
    // A failed spell is not sustained: 9 casting dice miss; drain 8 dice.
    c.queue_dice([2; 17]);
    let r = send(
        &mut c,
        "/sr spell caster:Mage force:3 drain:2 threshold:1 sustain:true",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Mage").await["sustained"], 0);
    // A success is: 1 hit against threshold 1.
    c.queue_dice([5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    let r = send(
        &mut c,
        "/sr spell caster:Mage force:3 drain:2 threshold:1 sustain:true",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert!(
        field(&r.embeds()[0], "Sustained").contains("Mage now sustains 1"),
        "{}",
        text(&r)
    );
    assert_eq!(sheet(&c, "Mage").await["sustained"], 1);
    // The next test carries −2.
    c.queue_dice([2; 7]);
    let r = send(
        &mut c,
        "/sr test character:Mage attribute:magic skill:spellcasting",
    )
    .await;
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("Sustaining ×1 −2 = 7"), "{d}");
    // A thread that gains a rating: 1 hit of 8; fading 1, 8 dice miss.
    c.queue_dice([5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    let r = send(&mut c, "/sr thread character:Techno rating:2 sustain:true").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Techno").await["sustained"], 1);
    // Only Mage's owner or the GM drops Mage's spell.
    let bob = player(&c, "bob");
    let before = version(&c).await;
    let (_, r) = as_id(&mut c, &bob, "/sr drop character:Mage").await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(version(&c).await, before);
    let mia = player(&c, "mia");
    let (_, r) = as_id(&mut c, &mia, "/sr drop character:Mage").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Mage").await["sustained"], 0);
    // Nothing left to drop: refused, nothing written.
    let before = version(&c).await;
    let (_, r) = as_id(&mut c, &mia, "/sr drop character:Mage").await;
    assert!(
        r.ephemeral && r.content().contains("sustains nothing"),
        "{}",
        text(&r)
    );
    assert_eq!(version(&c).await, before);
    c.shutdown().await;
}

#[tokio::test]
async fn a_preset_for_the_other_kind_of_attack_is_refused() {
    let mut c = system_console().await;
    run(&mut c).await;
    let before = version(&c).await;
    let r = send(
        &mut c,
        "/sr attack attacker:Bob target:Ana skill:unarmed_combat dv:3 kind:melee defence_modifiers:defence.running",
    )
    .await;
    assert!(
        r.ephemeral && r.content().contains("ranged attacks only"),
        "{}",
        text(&r)
    );
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    let (_, r) = as_id(
        &mut c,
        &ja,
        "/sr attack attacker:Ana target:Bob skill:pistols dv:3 defence_modifiers:defence.prone_melee",
    )
    .await;
    assert!(
        r.ephemeral && r.content().contains("近接戦闘専用"),
        "{}",
        text(&r)
    );
    assert_eq!(version(&c).await, before, "nothing written");
    c.shutdown().await;
}

#[tokio::test]
async fn only_the_gm_refreshes_edge_or_clears_monitors_through_char() {
    let mut c = system_console().await;
    run(&mut c).await;
    let r = send(&mut c, "/char edit name:Ana stats:edge_points=0 physical=3").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let ana = player(&c, "ana");
    let before = version(&c).await;
    for stats in [
        "edge_points=2",
        "refresh=yes",
        "physical=0",
        "stun=0 pistols=3",
        "edge_burnt=0",
    ] {
        let (_, r) = as_id(&mut c, &ana, &format!("/char edit name:Ana stats:{stats}")).await;
        assert!(
            r.ephemeral && r.content().contains("Only the GM"),
            "{stats}: {}",
            text(&r)
        );
    }
    assert_eq!(version(&c).await, before, "nothing written");
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 0);
    // Her own skills and attributes stay hers to change.
    let (_, r) = as_id(&mut c, &ana, "/char edit name:Ana stats:pistols=3 直感力=2").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Ana").await["attributes"]["intuition"], 2);
    // The GM refreshes.
    let r = send(&mut c, "/char edit name:Ana stats:refresh=yes physical=0").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 2);
    c.shutdown().await;
}

#[tokio::test]
async fn matrix_pools_from_a_sheet_black_ic_and_feedback_apply_damage() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    let r = send(&mut c, "/char edit name:Ana stats:hacking=4 exploit=5 stun=3").await;
    assert!(!r.ephemeral, "{}", text(&r));
    // Ana's pool from her sheet: exploit 5 + hacking 4 − wounds 1 = 8 dice (1 hit); node 1 die.
    c.queue_dice([5, 2, 2, 2, 2, 2, 2, 2, 2]);
    let (_, r) = as_id(
        &mut c,
        &ana,
        "/sr-matrix hack character:Ana firewall:1 node:1 stealth:10",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let t = text(&r);
    assert!(
        t.contains("exploit 5") && t.contains("hacking +4") && t.contains("Wounds −1 = 8"),
        "{t}"
    );
    assert!(t.contains("In, undetected"), "{t}");
    // A program missing from the sheet is refused, nothing rolled.
    let r = send(&mut c, "/sr-matrix perception character:Ana").await;
    assert!(
        r.ephemeral && r.content().contains("no `analyze`"),
        "{}",
        text(&r)
    );

    // Black IC (2 dice, 2 hits) against defence 1 die (0): DV 3 + 2 = 5; Bob resists with
    // Willpower 3 (1 hit): 4 Stun boxes, written by Apply damage.
    c.queue_dice([5, 5, 2, 5, 2, 2]);
    let line = "/sr-matrix cybercombat attack:2 defence:1 dv:3 target:black IC (stun) defender:Bob";
    let (id, r) = as_id(&mut c, &ana, line).await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert!(
        field(&r.embeds()[0], "Resist").contains("Willpower 3"),
        "{}",
        text(&r)
    );
    let message = c.fake.original_message(id).expect("the result message");
    let bob = player(&c, "bob");
    let r = press(&c, &bob, &message, &button(&message, "Apply damage")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert_eq!(sheet(&c, "Bob").await["stun"], 4);
    // An icon target takes no character.
    let r = send(
        &mut c,
        "/sr-matrix cybercombat attack:2 defence:1 dv:3 resist:2 defender:Bob",
    )
    .await;
    assert!(r.ephemeral && r.content().contains("black IC"), "{}", text(&r));
    assert_eq!(sheet(&c, "Bob").await["stun"], 4);

    // Rigger feedback: drone damage 5 → 3 Stun; Willpower 3 + filter 1 = 4 dice, 1 hit → 2.
    c.queue_dice([5, 2, 2, 2]);
    let (id, r) = as_id(&mut c, &ana, "/sr-rig feedback damage:5 character:Bob filter:1").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert!(text(&r).contains("Rigger feedback"), "{}", text(&r));
    let message = c.fake.original_message(id).expect("the result message");
    let r = press(&c, &bob, &message, &button(&message, "Apply damage")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert_eq!(sheet(&c, "Bob").await["stun"], 6);
    c.shutdown().await;
}

#[tokio::test]
async fn teamwork_second_chance_spends_the_leaders_edge() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    // Bob assists: Agility 3 defaulting −1 = 2 dice, 1 hit. Ana leads: Agility 3 + pistols 2 + 1
    // = 6 dice, 1 hit: short of 3.
    c.queue_dice([5, 2, 5, 2, 2, 2, 2, 1]);
    let line = "/sr teamwork assistants:Bob character:Ana attribute:agility skill:pistols threshold:3";
    let (id, r) = as_id(&mut c, &ana, line).await;
    assert!(!r.ephemeral, "{}", text(&r));
    let message = c.fake.original_message(id).expect("the result message");
    // The five misses rerolled: 5, 6, 2, 2, 2 → 3 hits, success.
    c.queue_dice([5, 6, 2, 2, 2]);
    let r = press(&c, &ana, &message, &button(&message, "Second chance")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let t = text(&r);
    assert!(t.contains("Second chance: Edge spent") && t.contains("↺"), "{t}");
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    let r = press(&c, &ana, &message, &button(&message, "Second chance")).await;
    assert!(r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 1);
    c.shutdown().await;
}

#[tokio::test]
async fn a_player_cannot_refill_edge_by_lowering_and_raising_the_attribute() {
    let mut c = system_console().await;
    run(&mut c).await;
    // Ana has Edge 2 with one point left.
    let r = send(&mut c, "/char edit name:Ana stats:edge_points=1").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let ana = player(&c, "ana");
    // Edge 1 makes the points "full"; Edge 4 then must not refill them.
    for stats in ["edge=1", "edge=4"] {
        let (_, r) = as_id(&mut c, &ana, &format!("/char edit name:Ana stats:{stats}")).await;
        assert!(!r.ephemeral, "{stats}: {}", text(&r));
    }
    let s = sheet(&c, "Ana").await;
    assert_eq!(s["attributes"]["edge"], 4);
    assert_eq!(s["edge_points"], 1, "only the GM refreshes Edge points");
    // The GM's refresh fills them.
    let r = send(&mut c, "/char edit name:Ana stats:refresh=yes").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 4);
    c.shutdown().await;
}

#[tokio::test]
async fn the_defender_spends_their_own_edge_after_the_gms_attack() {
    let mut c = system_console().await;
    run(&mut c).await;
    let r = send(
        &mut c,
        "/char add name:Ganger stats:agility=4 reaction=3 body=3 edge=1 pistols=3",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let bob = player(&c, "bob");
    let carl = player(&c, "carl");
    let gm = c.invoker();
    // Attack 7 dice: 3 hits. Bob's defence, Reaction 3: 5, 2, 1 — one hit. Net 2: DV 7P
    // against armour 6 − 1. Soak 4 + 6 − 1 = 9 dice, one hit: 6 boxes, knockdown (> Body 4).
    c.queue_dice([5, 5, 6, 2, 3, 1, 2, 5, 2, 1, 5, 2, 2, 3, 4, 2, 3, 4, 1]);
    let (id, r) = as_id(
        &mut c,
        &gm,
        "/sr attack attacker:Ganger target:Bob skill:pistols dv:5 ap:-1",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    assert!(
        field(e, "Damage").contains("**7P**") && field(e, "Damage").contains("**6 box(es)**"),
        "{e}"
    );
    let message = c.fake.original_message(id).unwrap();
    let labels: Vec<String> = buttons(&message).into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels,
        vec![
            "Second chance (Edge)",
            "+1 Edge dice (Edge)",
            "Apply damage",
            "Defender: Second chance (Edge)",
            "Defender: +1 Edge dice (Edge)",
            "Defender soak: Second chance (Edge)",
            "Defender soak: +1 Edge dice (Edge)",
        ],
        "{message}"
    );
    assert_eq!(
        message["components"].as_array().unwrap().len(),
        3,
        "one row per roll"
    );
    let defender_chance = button(&message, "Defender: Second chance");
    // Bob's Edge: not carl's to spend.
    let before = version(&c).await;
    let r = press(&c, &carl, &message, &defender_chance).await;
    assert!(r.ephemeral && r.content().contains("Only"), "{}", text(&r));
    assert_eq!(version(&c).await, before);

    // Bob rerolls his two misses (2, 1 → 5, 3): 2 hits, net 1, DV 6P; the soak stays (1 hit):
    // 5 boxes, still a knockdown.
    c.queue_dice([5, 3]);
    let r = press(&c, &bob, &message, &defender_chance).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let updated = updated_message(&message, &r);
    let e = &r.embeds()[0];
    let defence = field(e, "Defence");
    assert!(
        defence.starts_with("hits **2**\n") && defence.contains("↺[**5** 3]"),
        "{defence}"
    );
    assert_eq!(field(e, "Net hits"), "**1**");
    let damage = field(e, "Damage");
    assert!(
        damage.contains("**6P**") && damage.contains("**5 box(es)**") && damage.contains("KNOCKDOWN"),
        "{damage}"
    );
    assert_eq!(sheet(&c, "Bob").await["edge_points"], 0, "Bob's point spent");
    assert_eq!(sheet(&c, "Ganger").await["edge_points"], 1, "not the attacker's");
    // Bob has no Edge left: no defender buttons; the attacker's stay, with Apply damage.
    let labels: Vec<String> = buttons(&updated).into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels,
        vec!["Second chance (Edge)", "+1 Edge dice (Edge)", "Apply damage"],
        "{updated}"
    );

    // A second press is refused, by Bob or the GM; so are the old message's other buttons.
    let before = version(&c).await;
    let r = press(&c, &bob, &message, &defender_chance).await;
    assert!(r.ephemeral, "{}", text(&r));
    let r = press(&c, &gm, &message, &defender_chance).await;
    assert!(r.ephemeral, "{}", text(&r));
    let r = press(&c, &gm, &message, &button(&message, "Second chance")).await;
    assert!(r.ephemeral && r.content().contains("changed"), "{}", text(&r));
    assert_eq!(version(&c).await, before, "nothing written");
    assert_eq!(sheet(&c, "Ganger").await["edge_points"], 1);

    // The attacker's Second chance on the updated result works (the GM's), and Apply damage.
    c.queue_dice([2, 2, 2, 2]);
    let r = press(&c, &gm, &updated, &button(&updated, "Second chance")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert_eq!(sheet(&c, "Ganger").await["edge_points"], 0);
    let last = updated_message(&updated, &r);
    let r = press(&c, &gm, &last, &button(&last, "Apply damage")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert_eq!(sheet(&c, "Bob").await["physical"], 5);
    c.shutdown().await;
}

#[tokio::test]
async fn the_gm_may_press_the_defenders_edge_on_the_soak() {
    let mut c = system_console().await;
    run(&mut c).await;
    let gm = c.invoker();
    let ana = player(&c, "ana");
    // Ana's attack from above: net 1, DV 6P, soak 9 dice with one hit: 5 boxes.
    c.queue_dice([5, 2, 3, 1, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4]);
    let (id, _) = as_id(&mut c, &ana, ATTACK).await;
    let message = c.fake.original_message(id).unwrap();
    // Ana may not press Bob's buttons.
    let soak = button(&message, "Defender soak: Second chance");
    let r = press(&c, &ana, &message, &soak).await;
    assert!(r.ephemeral && r.content().contains("Only"), "{}", text(&r));
    // The GM rerolls Bob's eight soak misses: four more hits, 5 in all: 1 box, no knockdown.
    c.queue_dice([5, 5, 6, 5, 2, 2, 2, 2]);
    let r = press(&c, &gm, &message, &soak).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    let damage = field(&r.embeds()[0], "Damage");
    assert!(
        damage.contains("**1 box(es)**") && !damage.contains("KNOCKDOWN"),
        "{damage}"
    );
    assert_eq!(sheet(&c, "Bob").await["edge_points"], 0);
    assert_eq!(sheet(&c, "Ana").await["edge_points"], 2);
    c.shutdown().await;
}

#[tokio::test]
async fn with_the_servers_option_the_roller_applies_the_damage() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    let r = send(&mut c, "/config option name:sr.roller_applies_damage value:on").await;
    assert!(
        !r.ephemeral || text(&r).contains("sr.roller_applies_damage"),
        "{}",
        text(&r)
    );
    c.queue_dice([5, 2, 3, 1, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4]);
    let (id, _) = as_id(&mut c, &ana, ATTACK).await;
    let message = c.fake.original_message(id).unwrap();
    let r = press(&c, &ana, &message, &button(&message, "Apply damage")).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    assert!(sheet(&c, "Bob").await["physical"].as_u64().unwrap() > 0);
    c.shutdown().await;
}

/// Issue 15: a sheet typed in Japanese rolls the same; a pool that uses what the sheet lacks
/// says so; a skill one typo from the sheet's is refused with the suggestion, nothing rolled.
#[tokio::test]
async fn sheets_say_what_is_missing_and_typos_are_caught() {
    let mut c = system_console().await;
    run(&mut c).await;
    // Japanese field and skill names: armour 6/4 and dodge under 回避.
    let r = send(
        &mut c,
        "/char add name:Kei stats:強靭力=3 反応力=4 回避=3 装甲=6/4",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let e = &r.embeds()[0];
    // The sheet lists what a roll would miss.
    let missing = field(e, "Missing to roll");
    assert!(missing.starts_with("Agility, Strength, Charisma"), "{missing}");
    assert!(
        !missing.contains("Body") && !missing.contains("Reaction"),
        "{missing}"
    );

    // Full defence adds 回避 (dodge 3): Reaction 4 + dodge 3 = 7 dice. Attack 1 hit, defence 2:
    // a miss, no soak.
    c.queue_dice([5, 1, 1, 1, 1, 5, 5, 1, 2, 2, 2, 2]);
    let r = send(
        &mut c,
        "/sr attack attacker:Ana target:Kei skill:pistols dv:5 full_defence:True",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let defence = field(&r.embeds()[0], "Defence");
    assert!(
        defence.contains("Reaction 4") && defence.contains("dodge +3") && defence.contains("= 7"),
        "{defence}"
    );

    // A typo of a skill on the sheet: refused with the suggestion, no roll, nothing written.
    let before = version(&c).await;
    let r = send(&mut c, "/sr test character:Ana attribute:agility skill:pistls").await;
    assert!(r.ephemeral, "{}", text(&r));
    assert!(r.content().contains("Did you mean `pistols`?"), "{}", text(&r));
    assert_eq!(version(&c).await, before);

    // A skill not on the sheet at all is defaulting, and the reply says so; so is an attribute
    // the sheet leaves at 0 (Agility 0 − 1: no pool, and the refusal says why).
    let r = send(&mut c, "/sr test character:Kei attribute:agility skill:blades").await;
    assert!(r.ephemeral, "{}", text(&r));
    assert!(
        r.content().contains("Agility not on Kei's sheet: 0 used."),
        "{}",
        text(&r)
    );
    assert!(
        r.content().contains("blades not on Kei's sheet: defaulting"),
        "{}",
        text(&r)
    );
    c.queue_dice([5, 5]);
    let r = send(&mut c, "/sr test character:Kei attribute:body skill:blades").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let d = r.embeds()[0]["description"].as_str().unwrap_or("").to_string();
    assert!(d.contains("blades not on Kei's sheet: defaulting"), "{d}");
    assert!(
        d.contains("Body 3 Defaulting −1 = 2") && !d.contains("Body not on"),
        "{d}"
    );

    // In Japanese the same notes, in Japanese.
    send(&mut c, "/config language language:日本語").await;
    let r = send(&mut c, "/sr test character:Kei attribute:agility skill:blades").await;
    assert!(
        r.content().contains("Keiのシートに敏捷力がありません"),
        "{}",
        text(&r)
    );
    assert!(
        r.content().contains("Keiのシートに技能「blades」がありません"),
        "{}",
        text(&r)
    );
}

/// Issue 36: a Japanese table types its sheet with full-width digits, as it types `２Ｄ６`.
#[tokio::test]
async fn a_sheet_typed_with_full_width_digits_is_read() {
    let mut c = system_console().await;
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    as_(&mut c, &ja, "/セッション 開始 名前:ラン システム:Shadowrun 4").await;
    let r = as_(&mut c, &ja, "/キャラ 追加 名前:ケン シート:強靭力＝４ 敏捷力＝３").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let s = sheet(&c, "ケン").await;
    assert_eq!(
        (
            s["attributes"]["body"].clone(),
            s["attributes"]["agility"].clone()
        ),
        (json!(4), json!(3))
    );
}

/// A button pressed from another channel or server is refused as such (not "the session of
/// this roll has ended"), in both languages, and stays usable where its message is.
#[tokio::test]
async fn a_button_pressed_from_elsewhere_says_so_and_stays_usable() {
    let mut c = system_console().await;
    run(&mut c).await;
    let ana = player(&c, "ana");
    c.queue_dice([5, 2, 3, 1, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4]);
    let (id, r) = as_id(&mut c, &ana, ATTACK).await;
    assert!(!r.ephemeral, "{}", text(&r));
    let message = c.fake.original_message(id).expect("the result message");
    let chance = button(&message, "Second chance");
    let mut other_channel = ana.clone();
    other_channel.channel_id += 1;
    let mut other_server = ana.clone();
    other_server.guild_id = other_server.guild_id.map(|g| g + 1);
    for who in [&other_channel, &other_server] {
        let r = press(&c, who, &message, &chance).await;
        assert!(
            r.ephemeral && r.content().contains("another channel"),
            "{}",
            text(&r)
        );
    }
    let mut ja = other_channel.clone();
    ja.locale = "ja".into();
    let r = press(&c, &ja, &message, &chance).await;
    assert!(r.content().contains("別のチャンネル"), "{}", text(&r));
    // Where it belongs it still works: Ana rerolls her three misses.
    c.queue_dice([5, 6, 2]);
    let r = press(&c, &ana, &message, &chance).await;
    assert_eq!(r.body["type"], 7, "{}", text(&r));
    c.shutdown().await;
}

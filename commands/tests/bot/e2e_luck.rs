//! End to end through the fake Discord with fixed dice: `/session luck` (issue 28) gives each
//! player's rolls their exact chance of a result at least as good — a Shadowrun test, the Second
//! chance press that rerolled its misses (only its own dice), `/roll` — tonight and over the
//! channel's sessions, in English and Japanese; bad input (no session, a player without rolls)
//! is refused; and each system's logged roll (Rally, Warmachine, Terminator, d20 mecha, `/roll`)
//! carries the luck input whose chance matches a count by hand; a spell cast counts its hits up to
//! Force.

use crate::support::e2e::*;

use saikoro_bot::console::user_for;
use saikoro_bot::fake_discord::{DEFAULT_CHANNEL, Reply};

const ANA: &str = "/char add name:Ana stats:body=3 agility=3 reaction=3 strength=2 charisma=2 intuition=3 logic=2 willpower=3 edge=2 pistols=2";

fn embed(r: &Reply) -> &serde_json::Value {
    &r.embeds()[0]
}

/// The field whose name starts with `<@user> · span`.
fn span(r: &Reply, user: &str, span: &str) -> String {
    let name = format!("<@{}> · {span}", user_for(user).id);
    field(embed(r), &name).to_string()
}

#[tokio::test]
async fn luck_reads_each_roll_against_its_exact_odds() {
    let mut c = system_console().await;
    let gm = c.invoker();
    let bob = player(&c, "bob");

    // No session in the channel, ever: refused.
    let r = send(&mut c, "/session luck").await;
    assert!(r.ephemeral && text(&r).contains("No session"), "{}", text(&r));

    send(&mut c, "/session start name:Heist system:shadowrun4").await;
    send(&mut c, ANA).await;
    as_(&mut c, &bob, "/session join").await;
    // Agility 3 + pistols 2 = 5 dice, 2 hits: P(≥ 2 of Bin(5, 1/3)) = 131/243 = 53.91 %, and
    // P(≤ 2) = 192/243 = 79.01 %.
    c.queue_dice([5, 2, 1, 3, 6]);
    let (id, r) = as_id(
        &mut c,
        &gm,
        "/sr test character:Ana attribute:agility skill:pistols threshold:3",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    // Second chance: the 2 hits stay, the 3 misses reroll to 5, 4, 6 → 4 hits. Only those three
    // dice are this row's luck: P(≥ 2 of Bin(3, 1/3)) = 7/27 = 25.93 %.
    let message = c.fake.original_message(id).expect("the result message");
    c.queue_dice([5, 4, 6]);
    let r = press(&c, &gm, &message, &button(&message, "Second chance")).await;
    assert!(text(&r).contains("Second chance"), "{}", text(&r));
    // 2d6 showing 12: 1/36 = 2.78 %.
    c.queue_dice([6, 6]);
    send(&mut c, "/roll dice:2d6").await;
    // Bob's d20 shows 1: as bad as it gets, 1/20 = 5.00 % (and a secret roll counts for no one).
    c.queue_dice([1]);
    as_(&mut c, &bob, "/roll dice:1d20").await;
    c.queue_dice([20]);
    as_(&mut c, &bob, "/roll dice:S1d20").await;

    // The luck input went into the log with each roll; the odds did not.
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    let log = c.store().export_session(s.id).await.unwrap().log;
    assert_eq!(
        log[0].outcome["luck"],
        serde_json::json!({"roll": {"kind": "shadowrun4", "pools": [{"dice": 5}], "fixed": 0}, "observed": 2})
    );
    assert_eq!(
        log[1].outcome["luck"]["roll"],
        serde_json::json!({"kind": "shadowrun4", "pools": [{"dice": 3}], "fixed": 2})
    );
    assert!(
        log.last().unwrap().outcome.get("luck").is_none(),
        "a secret roll has none"
    );

    let r = send(&mut c, "/session luck").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let tonight = span(&r, "gm", "this evening");
    // Luckiest: the 12 on 2d6. Unluckiest: the 2 hits of 5 dice (the smallest chance of as bad
    // or worse: 79.01 %, against 96.30 % for the Second chance and 100 % for the 12).
    assert!(tonight.starts_with("3 roll(s) · average percentile"), "{tonight}");
    assert!(
        tonight.contains("🍀 `/roll dice:2d6`")
            && tonight.contains("2.78 % chance of a result at least as good"),
        "{tonight}"
    );
    assert!(
        tonight.contains("🌧️ `/sr test character:Ana")
            && tonight.contains("79.01 % chance of a result this bad or worse"),
        "{tonight}"
    );
    // Percentiles: 12 on 2d6 → (1 − 1/36 + 1)/2; 2 of 5 → (1 − 131/243 + 192/243)/2; the
    // Second chance → (1 − 7/27 + 26/27)/2. Their mean is 82 %.
    let mean = ((2.0 - 1.0 / 36.0) + (1.0 + 61.0 / 243.0) + (1.0 + 19.0 / 27.0)) / 6.0;
    assert_eq!(format!("{:.0} %", mean * 100.0), "82 %");
    assert!(tonight.contains("average percentile **82 %**"), "{tonight}");
    let bob_all = span(&r, "bob", "campaign");
    assert!(
        bob_all.contains("5.00 % chance of a result this bad or worse"),
        "{bob_all}"
    );
    // His only roll is said once, as the unlucky one it is (not also "100 % … at least as good").
    assert!(!bob_all.contains("🍀"), "{bob_all}");
    // The chart comes with it.
    assert!(
        embed(&r)["image"]["url"]
            .as_str()
            .is_some_and(|u| u.ends_with("odds.png")),
        "{}",
        text(&r)
    );

    // One player; a player without rolls is refused.
    let r = send(&mut c, "/session luck player:@bob").await;
    assert_eq!(embed(&r)["fields"].as_array().unwrap().len(), 2, "{}", text(&r));
    let r = send(&mut c, "/session luck player:@carol").await;
    assert!(
        r.ephemeral && text(&r).contains("has no roll with luck"),
        "{}",
        text(&r)
    );

    // After the session ends the campaign keeps it; a new evening starts empty.
    send(&mut c, "/session end").await;
    send(&mut c, "/session start campaign:continue name:Day two").await;
    c.queue_dice([2, 1]);
    send(&mut c, "/roll dice:2d6").await;
    let mut ja = c.invoker();
    ja.locale = "ja".into();
    let r = as_(&mut c, &ja, "/セッション 運").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let campaign = span(&r, "gm", "キャンペーン");
    assert!(campaign.starts_with("4回 · 平均パーセンタイル"), "{campaign}");
    // 3 on 2d6: P(≤ 3) = 3/36 = 8.33 %, now the unluckiest.
    assert!(
        campaign.contains("🌧️ `") && campaign.contains("これ以下の結果が出る確率 8.33 %"),
        "{campaign}"
    );
    assert!(span(&r, "gm", "今夜").starts_with("1回"), "{}", text(&r));
    c.shutdown().await;
}

/// The luck input of the active session's last row, and its chance through the odds engine.
async fn last_luck(c: &saikoro_bot::console::Console) -> (engine::odds::LuckInput, engine::odds::Chance) {
    let s = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    // The row is written after the reply: wait for it (never long).
    let (mut input, mut log) = (None, Vec::new());
    for _ in 0..100 {
        log = c.store().export_session(s.id).await.unwrap().log;
        input = log
            .last()
            .and_then(|r| saikoro_bot::log_line::stored_luck(&r.outcome));
        if input.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let input = input.unwrap_or_else(|| panic!("no luck input in {log:?}"));
    let chance = engine::odds::chance_at_least_as_good(&input).unwrap();
    (input, chance)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// A Badlands Rally check by hand: the highest die plus one per other die meeting the rating.
fn rally_check(faces: &[u32], rating: u32) -> i64 {
    let high = *faces.iter().max().unwrap();
    let meeting = faces.iter().filter(|&&f| f >= rating).count() as i64;
    i64::from(high) + meeting - i64::from(high >= rating)
}

/// Send `line` as the GM; it must not be refused.
async fn ok(c: &mut saikoro_bot::console::Console, line: &str) {
    let r = send(c, line).await;
    assert!(!r.ephemeral, "{line}: {}", text(&r));
}

#[tokio::test]
async fn each_systems_logged_roll_carries_the_luck_its_dice_give() {
    use engine::odds::LuckRoll;
    let mut c = system_console().await;

    // Badlands Rally: attack 6,5 at 4+ → 7 against defence 2,1 → 2: margin 5. By hand over
    // the 6⁴ ways four dice fall: margins of 5 or more.
    ok(
        &mut c,
        "/session start name:Race system:Badlands Rally campaign:new",
    )
    .await;
    ok(&mut c, r#"/char add name:Hopper stats:model=jerboa attack=4+ defence=3+ initiative=4+ mr=16 hits=2/1 ar=5 weapon1="Rifle 6 3-6/12""#).await;
    ok(&mut c, r#"/char add name:Brute stats:model=grizzly attack=4+ defence=4+ initiative=4+ mr=12 hits=2/2 ar=6 weapon1="Autocannon 7 2-4/10""#).await;
    ok(&mut c, "/rally activate gear:Hopper speed:cruising").await;
    c.queue_dice([6, 5, 2, 1, 4, 4, 4, 1, 1]);
    ok(&mut c, "/rally attack attacker:Hopper defender:Brute distance:4").await;
    let (input, chance) = last_luck(&c).await;
    let LuckRoll::RallyAttack {
        rating,
        dice: 2,
        defence_rating,
        defence_dice: 2,
    } = input.roll
    else {
        panic!("{input:?}")
    };
    assert_eq!(input.observed, 5);
    let mut n = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            for d in 1..=6 {
                for e in 1..=6 {
                    let m = rally_check(&[a, b], u32::from(rating))
                        - rally_check(&[d, e], u32::from(defence_rating));
                    n += i32::from(m >= 5);
                }
            }
        }
    }
    assert!(
        close(chance.at_least, f64::from(n) / 1296.0),
        "{chance:?} vs {n}/1296"
    );
    ok(&mut c, "/session end").await;

    // Warmachine: 5 + 6 on 2d6: 11 or more is 3/36.
    ok(
        &mut c,
        "/session start name:Skirmish system:warmachine campaign:new",
    )
    .await;
    c.queue_dice([5, 6]);
    ok(&mut c, "/wm attack stat:5 def:13 pow:10 arm:12").await;
    let (input, chance) = last_luck(&c).await;
    assert_eq!(
        (input.observed, close(chance.at_least, 3.0 / 36.0)),
        (11, true),
        "{input:?}"
    );
    ok(&mut c, "/session end").await;

    // Terminator: two D6 at close range (4+), both hit: 1/4.
    ok(
        &mut c,
        "/session start name:Judgment system:terminator campaign:new",
    )
    .await;
    c.queue_dice([4, 6]);
    ok(&mut c, "/term attack band:close (4+) skill:D6 rof:2").await;
    let (input, chance) = last_luck(&c).await;
    assert_eq!(
        (input.observed, close(chance.at_least, 0.25)),
        (2, true),
        "{input:?}"
    );
    ok(&mut c, "/session end").await;

    // The d20 mecha RPG: 6 + 6 + 5 − 8 = 9 damage, the most 2d6+5 can do through armour 8: 1/36
    // (a critical: its secondary d20 shows 5).
    ok(&mut c, "/session start name:Front system:mecha_d20 campaign:new").await;
    c.queue_dice([6, 6, 5]);
    ok(&mut c, "/mecha damage power:2d6+5 armour:8").await;
    let (input, chance) = last_luck(&c).await;
    assert_eq!(
        (input.observed, close(chance.at_least, 1.0 / 36.0)),
        (9, true),
        "{input:?}"
    );

    // `/roll` in any session: 4d6 keep 3 showing 6, 6, 6: (1 + 4·5)/6⁴ = 21/1296.
    c.queue_dice([6, 6, 1, 6]);
    ok(&mut c, "/roll dice:4d6 k3").await;
    let (input, chance) = last_luck(&c).await;
    assert_eq!(
        (input.observed, close(chance.at_least, 21.0 / 1296.0)),
        (18, true),
        "{input:?}"
    );
    c.shutdown().await;
}

/// Issue 28's console script: alice's stepped-out attack waits for bob's I'll Be Back die. The
/// attack's luck is alice's (on the row logged when its dice were rolled), the press row carries
/// only bob's d6.
#[tokio::test]
async fn an_attack_waiting_for_ill_be_back_credits_the_attacker_and_the_press_only_its_die() {
    let mut c = system_console().await;
    let alice = player(&c, "alice");
    let bob = player(&c, "bob");
    ok(&mut c, "/session start name:I system:Terminator Genisys").await;
    ok(&mut c, r#"/char add name:G owner:@alice model:Resistance Soldier stats:side=Resistance skill=d8 resolution=d8 w1="Gun short rof1 d10""#).await;
    ok(
        &mut c,
        "/char add name:E owner:@bob model:Endoskeleton stats:side=Skynet skill=d8",
    )
    .await;
    // Close (4+): the D8 shows 5, a hit: P(≥ 1 hit of one D8 at 4+) = 5/8 = 62.50 %. Mindless:
    // no save. The D10 shows 9 against armour 8: E is killed and waits for I'll Be Back.
    c.queue_dice([5, 9]);
    let (id, r) = as_id(
        &mut c,
        &alice,
        "/term attack band:close attacker:G weapon:Gun target:E",
    )
    .await;
    assert!(text(&r).contains("Waiting for I'll Be Back: E"), "{}", text(&r));
    let (input, chance) = last_luck(&c).await;
    assert_eq!(input.observed, 1, "{input:?}");
    assert!(close(chance.at_least, 5.0 / 8.0), "{chance:?}");
    // bob's d6 shows 5: E crawls on. 5+ on a d6: P(at least as good) = 2/6 = 33.33 %.
    let message = c.fake.original_message(id).expect("the attack message");
    c.queue_dice([5]);
    let r = press(&c, &bob, &message, &button(&message, "I'll Be Back")).await;
    assert!(text(&r).contains("D6 **5** (5+)"), "{}", text(&r));
    let (input, chance) = last_luck(&c).await;
    assert_eq!(input.observed, 1, "{input:?}");
    assert!(close(chance.at_least, 2.0 / 6.0), "{chance:?}");

    let r = send(&mut c, "/session luck").await;
    let a = span(&r, "alice", "this evening");
    assert!(a.starts_with("1 roll(s)") && a.contains("62.50 %"), "{a}");
    let b = span(&r, "bob", "this evening");
    assert!(b.starts_with("1 roll(s)") && b.contains("33.33 %"), "{b}");
    assert!(!b.contains("62.50 %"), "{b}");
    c.shutdown().await;
}

#[tokio::test]
async fn a_spell_cast_in_a_session_shows_its_luck_counted_up_to_force() {
    let mut c = system_console().await;
    ok(&mut c, "/session start name:Ritual system:shadowrun4").await;
    ok(&mut c, "/char add name:Mage stats:body=3 willpower=4 logic=4 magic=3 edge=2 spellcasting=1 tradition=hermetic").await;
    // Magic 3 + Spellcasting 1 = 4 dice: 5, 5, 6, 2 are 3 hits, 2 counted (Force 2). Drain 2
    // against Willpower 4 + Logic 4 = 8 dice, all misses.
    c.queue_dice([5, 5, 6, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    ok(&mut c, "/sr spell caster:Mage force:2 drain:2").await;
    let (input, chance) = last_luck(&c).await;
    assert_eq!(
        serde_json::to_value(&input).unwrap(),
        serde_json::json!({"roll": {"kind": "shadowrun4", "pools": [{"dice": 4, "cap": 2}], "fixed": 0}, "observed": 2})
    );
    // min(Bin(4, 1/3), 2) = 2: 1 − (2/3)⁴ − 4(1/3)(2/3)³ = 1 − 16/81 − 32/81 = 33/81 = 40.74 %.
    assert!(close(chance.at_least, 33.0 / 81.0), "{chance:?}");
    let r = send(&mut c, "/session luck").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let tonight = span(&r, "gm", "this evening");
    assert!(
        tonight.starts_with("1 roll(s)")
            && tonight.contains("🍀 `/sr spell caster:Mage")
            && tonight.contains("40.74 % chance of a result at least as good"),
        "{tonight}"
    );
    c.shutdown().await;
}

//! End to end: the real bot (serenity + poise) against the fake Discord, `/roll` with fixed dice.

use crate::support::e2e::*;
use saikoro_bot::console::{Console, ConsoleOptions};
use serde_json::Value;

async fn start() -> Console {
    let opts = ConsoleOptions {
        dice: Some(vec![]),
        ..Default::default()
    };
    Console::start(opts)
        .await
        .expect("bot starts against the fake Discord")
}

#[tokio::test]
async fn registers_roll_with_japanese_localizations() {
    let console = start().await;
    let commands = Value::Array(console.fake.commands(None));
    let roll = find(&commands, "roll");
    assert_eq!(roll["name_localizations"]["ja"], "ダイス");
    assert!(roll["description"].as_str().unwrap().contains("Roll dice"));
    assert!(
        roll["description_localizations"]["ja"]
            .as_str()
            .unwrap()
            .contains("ダイスを振ります")
    );
    let dice = find(&roll["options"], "dice");
    assert_eq!(dice["type"], 3);
    assert_eq!(dice["required"], true);
    assert_eq!(dice["name_localizations"]["ja"], "式");
    assert_eq!(dice["max_length"], 200);
    let label = find(&roll["options"], "label");
    assert_eq!(label["name_localizations"]["ja"], "ラベル");
    assert_ne!(label["required"], true);
    console.shutdown().await;
}

#[tokio::test]
async fn roll_shows_every_die_and_the_total() {
    let mut console = start().await;
    console.queue_dice([3, 4, 2]);
    let reply = console.send("/roll dice:2d6+1d4+3 label:Attack").await.unwrap();
    assert!(!reply.ephemeral);
    let embed = &reply.embeds()[0];
    assert_eq!(embed["title"], "🎲 Attack");
    let description = embed["description"].as_str().unwrap();
    assert!(description.contains("2d6[4, 3]"), "{description}");
    assert!(description.contains("1d4[2]"), "{description}");
    let total = find(&embed["fields"], "Total");
    assert_eq!(total["value"], "**12**");
    assert_eq!(embed["footer"]["text"], "player");

    // Subtraction and a second interaction on the same bot.
    console.queue_dice([6, 1]);
    let reply = console.send("/roll dice:1d20-1d4").await.unwrap();
    assert_eq!(find(&reply.embeds()[0]["fields"], "Total")["value"], "**5**");
    assert!(
        console.fake.unhandled_requests().is_empty(),
        "{:?}",
        console.fake.unhandled_requests()
    );
    console.shutdown().await;
}

#[tokio::test]
async fn a_malformed_expression_gets_an_ephemeral_error_and_the_next_is_served() {
    let mut console = start().await;
    let reply = console.send("/roll dice:2d6*").await.unwrap();
    assert!(reply.ephemeral, "errors are shown to the roller only");
    assert!(reply.embeds().is_empty());
    assert!(reply.content().contains("position 5"), "{}", reply.content());

    // In Japanese for a Japanese client.
    let mut ja = console.invoker();
    ja.locale = "ja".into();
    let (_, reply) = console.send_as("/roll dice:2d6*", &ja).await.unwrap();
    assert!(reply.ephemeral);
    assert!(reply.content().contains("5文字目"), "{}", reply.content());

    // Too many dice is refused before rolling: the fixed dice are untouched.
    let reply = console.send("/roll dice:5000d6").await.unwrap();
    assert!(reply.ephemeral);
    console.queue_dice([2, 2]);
    let reply = console.send("/roll dice:2d6").await.unwrap();
    assert!(!reply.ephemeral);
    assert_eq!(find(&reply.embeds()[0]["fields"], "Total")["value"], "**4**");
    console.shutdown().await;
}

#[tokio::test]
async fn the_embed_marks_dropped_exploded_and_successful_dice() {
    let mut console = start().await;
    // 4d6 k3: the 1 is dropped (struck through).
    console.queue_dice([4, 1, 6, 3]);
    let r = console.send("/roll dice:4d6 k3").await.unwrap();
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("[6, 4, 3, ~~1~~]"), "{d}");
    assert_eq!(find(&r.embeds()[0]["fields"], "Total")["value"], "**13**");
    // 3d10 e10 t8: the 10 explodes into a 9; successes are bold and counted.
    console.queue_dice([10, 2, 8, 9]);
    let r = console.send("/roll dice:3d10 e10 t8").await.unwrap();
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(
        d.contains("**10**!") && d.contains("**9**") && d.contains("**8**") && d.contains(", 2]"),
        "{d}"
    );
    assert_eq!(find(&r.embeds()[0]["fields"], "Successes")["value"], "**3**");
    // Asked-for failures and botches show even at zero; a 1 is both here.
    console.queue_dice([9, 5, 7]);
    let r = console.send("/roll dice:3d10 t7 f1 b1").await.unwrap();
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("Failures 0") && d.contains("Botches 0"), "{d}");
    console.queue_dice([1, 8, 2]);
    let r = console.send("/roll dice:3d10 t7 f1 b1").await.unwrap();
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("Failures 1") && d.contains("Botches 1"), "{d}");
    // BCDice verdict.
    console.queue_dice([6, 5]);
    let r = console.send("/roll dice:2D6>=10").await.unwrap();
    let d = r.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("Success"), "{d}");
    assert_eq!(r.embeds()[0]["color"], 0x2ECC71);
    console.shutdown().await;
}

#[tokio::test]
async fn a_long_roll_is_shortened_to_fit_discord() {
    let opts = ConsoleOptions {
        seed: Some(7),
        ..Default::default()
    };
    let mut console = Console::start(opts).await.unwrap();
    let r = console.send("/roll dice:20 50d6").await.unwrap();
    assert!(!r.ephemeral, "{}", r.content());
    let e = &r.embeds()[0];
    let len = |k: &str| e[k].as_str().map_or(0, |s| s.chars().count());
    assert!(len("description") <= 4096, "{}", len("description"));
    assert!(len("title") <= 256);
    let total: usize =
        len("title") + len("description") + e["footer"]["text"].as_str().map_or(0, |s| s.chars().count());
    assert!(total <= 6000, "{total}");
    assert!(
        e["description"].as_str().unwrap().contains("#20"),
        "all 20 sets are listed"
    );
    console.shutdown().await;
}

/// A roll says its expression once (the title) and its total once (the field); in a Shadowrun
/// session `6B6` says its hits once (the system's reading), not also as generic successes.
#[tokio::test]
async fn the_expression_and_the_result_are_said_once() {
    let mut console = start().await;
    console.queue_dice([2, 5, 1, 4]);
    let reply = console.send("/roll dice:4d6 k3").await.unwrap();
    let embed = &reply.embeds()[0];
    assert_eq!(embed["title"], "🎲 4d6 k3");
    assert_eq!(embed["description"], "[5, 4, 2, ~~1~~]");
    let fields = embed["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 1);
    assert_eq!(find(&embed["fields"], "Total")["value"], "**11**");
    // Several lines keep each line's expression and result.
    console.queue_dice([3, 4, 6, 6]);
    let reply = console.send("/roll dice:x2 2d6").await.unwrap();
    let description = reply.embeds()[0]["description"].as_str().unwrap().to_string();
    assert_eq!(description, "#1 `2d6` [4, 3] → **7**\n#2 `2d6` [6, 6] → **12**");

    console
        .send("/session start name:Run system:shadowrun4")
        .await
        .unwrap();
    console.queue_dice([5, 6, 1, 2, 3, 5]);
    let reply = console.send("/roll dice:6B6").await.unwrap();
    let embed = &reply.embeds()[0];
    let fields = embed["fields"].to_string();
    assert!(fields.contains("Hits **3**"), "{fields}");
    assert!(!fields.contains("Successes"), "the hits are said once: {fields}");
    // The dice's sum (5+6+1+2+3+5 = 22) is no Shadowrun result: no "Total" above the hits.
    assert!(!fields.contains("Total") && !fields.contains("22"), "{fields}");
    assert!(!embed["description"].as_str().unwrap().contains("Successes"));
    console.shutdown().await;
}

#[tokio::test]
async fn flat_terms_stay_in_the_breakdown_and_avrae_advantage_says_how_it_was_read() {
    let mut console = start().await;
    // 11 + 2 + 3 = 16: the `+3` is shown with the dice.
    console.queue_dice([11, 2]);
    let reply = console.send("/roll dice:1d20+1d4+3").await.unwrap();
    let embed = &reply.embeds()[0];
    assert_eq!(embed["description"], "1d20[11]+1d4[2]+3");
    assert_eq!(find(&embed["fields"], "Total")["value"], "**16**");

    // Avrae's `1d20-2 dis Hide`: 2d20kl1-2 with 7 and 15 → 7 − 2 = 5, `Hide` the comment.
    console.queue_dice([7, 15]);
    let reply = console.send("/roll dice:1d20-2 dis Hide").await.unwrap();
    let embed = &reply.embeds()[0];
    assert_eq!(embed["title"], "🎲 1d20-2 dis Hide");
    assert_eq!(embed["description"], "2d20kl1[~~15~~, 7]-2");
    assert_eq!(find(&embed["fields"], "Total")["value"], "**5**");
    assert_eq!(embed["footer"]["text"], "player · Hide");
    console.shutdown().await;
}

/// Avrae's annotations stay beside their term in the breakdown; the d20 library's minimum shows
/// the face rolled and what it counts (issue 31).
#[tokio::test]
async fn avrae_annotations_and_the_minimum_show_in_the_breakdown() {
    let mut console = start().await;
    console.queue_dice([11]);
    let reply = console.send("/roll dice:1d20 + 5 [fire]").await.unwrap();
    let embed = &reply.embeds()[0];
    assert_eq!(embed["description"], "1d20[11] + 5 [fire]");
    assert_eq!(find(&embed["fields"], "Total")["value"], "**16**");

    console.queue_dice([3, 4]);
    let reply = console.send("/roll dice:2d6 [attack]").await.unwrap();
    let embed = &reply.embeds()[0];
    assert_eq!(embed["description"], "2d6[4, 3] [attack]");
    assert_eq!(find(&embed["fields"], "Total")["value"], "**7**");

    // 1 counts 2: 2 + 3 + 5 + 2 = 12.
    console.queue_dice([1, 3, 5, 2]);
    let reply = console.send("/roll dice:4d6mi2").await.unwrap();
    let embed = &reply.embeds()[0];
    assert_eq!(embed["description"], "[5, 3, 1→2, 2]");
    assert_eq!(find(&embed["fields"], "Total")["value"], "**12**");

    // `ra5` is refused with the explosion to type, in the reader's language.
    let reply = console.send("/roll dice:10d6ra5").await.unwrap();
    assert!(
        reply.content().contains("Did you mean `10d6e5`?"),
        "{}",
        reply.content()
    );
    console.shutdown().await;
}

/// `10d6>4`: BCDice's reading (the total against 4) is kept, and the reply says so and how to
/// count the dice instead (`10d6 t5`), in the roller's language (issue 31).
#[tokio::test]
async fn a_total_compared_says_its_reading_and_how_to_count_the_dice() {
    let mut console = start().await;
    // 1+2+…+6 +1+2+3+4 = 31 > 4: success.
    console.queue_dice([1, 2, 3, 4, 5, 6, 1, 2, 3, 4]);
    let reply = console.send("/roll dice:10d6>4").await.unwrap();
    let embed = &reply.embeds()[0];
    let description = embed["description"].as_str().unwrap();
    assert!(
        description.ends_with(
            "*Read as BCDice does: the total against >4. To count the dice of 5 or more, type `10d6 t5`*"
        ),
        "{description}"
    );
    assert_eq!(find(&embed["fields"], "Total")["value"], "**31**");
    // The other reading, typed as suggested: the 5 and the 6 count.
    console.queue_dice([1, 2, 3, 4, 5, 6, 1, 2, 3, 4]);
    let reply = console.send("/roll dice:10d6 t5").await.unwrap();
    assert_eq!(find(&reply.embeds()[0]["fields"], "Successes")["value"], "**2**");

    let mut ja = console.invoker();
    ja.locale = "ja".into();
    console.queue_dice([6, 6, 6, 6]);
    let (_, reply) = console.send_as("/roll dice:4D6>=5", &ja).await.unwrap();
    let description = reply.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(
        description.contains("BCDiceの読み方で合計を>=5と比べました。5以上のダイスを数えるなら `4d6 t5`"),
        "{description}"
    );
    // One die, a target no die reaches, or more than the dice: nothing to tell apart.
    console.queue_dice([6, 6]);
    let reply = console.send("/roll dice:2D6>=10").await.unwrap();
    assert!(!reply.embeds()[0]["description"].to_string().contains("BCDice"));
    console.queue_dice([15]);
    let reply = console.send("/roll dice:1d20>=15").await.unwrap();
    assert!(!reply.embeds()[0]["description"].to_string().contains("BCDice"));
    console.queue_dice([3, 4]);
    let reply = console.send("/roll dice:2d6+1>=7").await.unwrap();
    assert!(!reply.embeds()[0]["description"].to_string().contains("BCDice"));
    console.shutdown().await;
}

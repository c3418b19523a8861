//! End to end: `/odds` through the real bot and the fake Discord: the embed with the chance and
//! the histogram, and the PNG chart as an attachment, within Discord's limits.

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
async fn registers_odds_with_japanese_localizations() {
    let console = start().await;
    let commands = Value::Array(console.fake.commands(None));
    let odds = find(&commands, "odds");
    assert_eq!(odds["name_localizations"]["ja"], "確率");
    let roll = find(&odds["options"], "roll");
    let expression = find(&roll["options"], "expression");
    assert_eq!(expression["max_length"], 200);
    assert_eq!(expression["name_localizations"]["ja"], "式");
    let sr = find(&odds["options"], "sr");
    assert_eq!(find(&sr["options"], "pool")["max_value"].as_f64(), Some(100.0));
    let rally = find(&odds["options"], "rally");
    assert_eq!(find(&rally["options"], "rating")["min_value"].as_f64(), Some(2.0));
    console.shutdown().await;
}

#[tokio::test]
async fn odds_of_2d6_at_least_7_are_58_33_percent_with_a_chart() {
    let mut console = start().await;
    let reply = console.send("/odds roll expression:2d6>=7").await.unwrap();
    assert!(!reply.ephemeral);
    let embed = &reply.embeds()[0];
    let chance = embed["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"].as_str().unwrap_or("").contains(">=7"))
        .expect("a chance field");
    assert_eq!(chance["value"], "**58.33 %**");
    let description = embed["description"].as_str().unwrap();
    assert!(description.contains("16.67 %"), "{description}");
    assert_eq!(embed["image"]["url"], "attachment://odds.png");
    // The title shows the expression as typed: no backslash before `>` (titles render no quotes).
    assert_eq!(embed["title"], "📊 Odds: 2d6>=7");
    // Discord's limits: 6000 characters in all, 4096 in the description.
    let total: usize = embed["title"].as_str().unwrap().chars().count()
        + description.chars().count()
        + embed["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                f["name"].as_str().unwrap().chars().count() + f["value"].as_str().unwrap().chars().count()
            })
            .sum::<usize>()
        + embed["footer"]["text"].as_str().unwrap_or("").chars().count();
    assert!(total <= 6000 && description.chars().count() <= 4096, "{total}");
    let files = reply.body["files"].as_array().expect("the reply carries files");
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0]["filename"], "odds.png");
    let png = files[0]["content"].as_str().unwrap();
    assert!(png.contains("PNG") && png.contains("IHDR") && png.contains("IEND"));
    assert!(
        console.fake.unhandled_requests().is_empty(),
        "{:?}",
        console.fake.unhandled_requests()
    );
    console.shutdown().await;
}

#[tokio::test]
async fn odds_for_the_systems_and_refusals() {
    let mut console = start().await;
    let reply = console.send("/odds sr pool:12 threshold:3 edge:2").await.unwrap();
    let fields = reply.embeds()[0]["fields"].to_string();
    assert!(fields.contains("Glitch") && fields.contains("Edge"), "{fields}");
    let reply = console
        .send("/odds rally rating:4 dice:3 vs_rating:5 vs_dice:2 pow:7 ar:6")
        .await
        .unwrap();
    assert!(reply.embeds()[0]["fields"].to_string().contains("Damage"));
    // Too large to compute: refused, to the asker only, in their language.
    let reply = console.send("/odds roll expression:1000d1000k500").await.unwrap();
    assert!(reply.ephemeral);
    assert!(reply.content().contains("too large"), "{}", reply.content());
    console.shutdown().await;
}

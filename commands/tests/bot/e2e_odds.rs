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
    assert_eq!(
        find(&rally["options"], "heat")["name_localizations"]["ja"],
        "ヒート"
    );
    assert_eq!(
        find(&rally["options"], "blast")["name_localizations"]["ja"],
        "ブラスト"
    );
    // /odds term takes /term attack's choices.
    let term = find(&odds["options"], "term");
    assert_eq!(term["name_localizations"]["ja"], "ターミネーター");
    let band = find(&term["options"], "band");
    assert_eq!(band["required"], true);
    assert_eq!(band["choices"].as_array().map(Vec::len), Some(4));
    assert_eq!(
        find(&term["options"], "skill")["choices"]
            .as_array()
            .map(Vec::len),
        Some(6)
    );
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

/// `/odds sr character:` takes the pool /sr test would roll from the session's sheet: Ana's
/// agility 5 + pistols 5 = 10 dice; 2 hits or more come 1 − (2/3)^10 − 10·(1/3)·(2/3)^9 of the
/// time = 89.60 %.
#[tokio::test]
async fn odds_for_a_session_character_use_the_pool_from_the_sheet() {
    let mut console = start().await;
    console
        .send("/session start name:Run system:shadowrun4")
        .await
        .unwrap();
    console
        .send("/char add name:Ana stats:agility=5 pistols=5 edge=2")
        .await
        .unwrap();
    let reply = console
        .send("/odds sr character:Ana attribute:agility skill:pistols threshold:2")
        .await
        .unwrap();
    assert!(!reply.ephemeral, "{}", reply.content());
    let embed = &reply.embeds()[0];
    assert!(embed["title"].as_str().unwrap().ends_with("· Ana"), "{embed}");
    let p = 1.0 - (2.0f64 / 3.0).powi(10) - 10.0 / 3.0 * (2.0f64 / 3.0).powi(9);
    let shown = format!("{:.2} %", p * 100.0);
    assert_eq!(shown, "89.60 %");
    assert!(embed["fields"].to_string().contains(&shown), "{embed}");
    // The same as the number typed.
    let by_number = console.send("/odds sr pool:10 threshold:2").await.unwrap();
    assert!(by_number.embeds()[0]["fields"].to_string().contains(&shown));
    // Bad input changes nothing and says why: both a pool and a character, an unknown one.
    let both = console
        .send("/odds sr pool:4 character:Ana attribute:agility skill:pistols")
        .await
        .unwrap();
    assert!(
        both.ephemeral && both.content().contains("not both"),
        "{}",
        both.content()
    );
    let unknown = console
        .send("/odds sr character:Zed attribute:agility skill:pistols")
        .await
        .unwrap();
    assert!(unknown.ephemeral, "{}", unknown.content());
    let neither = console.send("/odds sr threshold:2").await.unwrap();
    assert!(
        neither.ephemeral && neither.content().contains("pool"),
        "{}",
        neither.content()
    );
    console.shutdown().await;
}

/// Issue 16: Warmachine and d20 mecha odds through the real bot, with numbers worked out here.
#[tokio::test]
async fn warmachine_and_mecha_odds_are_exact() {
    // As a server manager, to turn the automatic hit/miss option off.
    let mut console = console().await;
    // RAT 6 vs DEF 12 on 2d6: a hit needs 2d6 ≥ 6 = 26/36 (all 1s misses anyway, all 6s hits
    // anyway). POW 10 vs ARM 14: damage 2d6 − 4 > 0 needs 2d6 ≥ 5 = 30/36 per hit, so at least
    // one damage is 26/36 × 30/36 only when the damage roll follows a hit.
    let reply = console
        .send("/odds wm stat:6 def:12 pow:10 arm:14")
        .await
        .unwrap();
    assert!(!reply.ephemeral, "{}", text(&reply));
    let e = &reply.embeds()[0];
    assert_eq!(field(e, "Hit"), "**72.22 %**", "{e}");
    let damage = 26.0 / 36.0 * 30.0 / 36.0 * 100.0;
    assert_eq!(field(e, "At least 1 damage"), format!("**{damage:.2} %**"), "{e}");
    assert_eq!(e["image"]["url"], "attachment://odds.png");
    // Damage alone, and the chance to fill 3 boxes left: 2d6 − 4 ≥ 3 needs 2d6 ≥ 7 = 21/36.
    let reply = console.send("/odds wm pow:10 arm:14 boxes:3").await.unwrap();
    let e = &reply.embeds()[0];
    assert_eq!(field(e, "At least 1 damage"), "**83.33 %**", "{e}");
    assert_eq!(field(e, "Disabled"), "**58.33 %**", "{e}");
    // The server's automatic hit/miss option counts: RAT 0 vs DEF 13 hits only on all 6s.
    let reply = console.send("/odds wm stat:0 def:13").await.unwrap();
    assert_eq!(field(&reply.embeds()[0], "Hit"), "**2.78 %**");
    console
        .send("/config option name:wm.auto_hit_miss value:off")
        .await
        .unwrap();
    let reply = console.send("/odds wm stat:0 def:13").await.unwrap();
    assert_eq!(field(&reply.embeds()[0], "Hit"), "**0.00 %**");
    // Half an attack is refused, nothing computed.
    let reply = console.send("/odds wm stat:6").await.unwrap();
    assert!(
        reply.ephemeral && reply.content().contains("`def`"),
        "{}",
        text(&reply)
    );

    // The mecha attack: the bot shows the engine's exact chance.
    let expected =
        engine::systems::mecha_d20::odds::mecha_d20_odds(&engine::systems::mecha_d20::odds::MechaRequest {
            attack: 5,
            evasion: 3,
            cockpit: Default::default(),
            facing: Default::default(),
            damage: None,
        })
        .unwrap();
    let reply = console
        .send("/odds mecha attack_mod:5 evasion_mod:3 power:2d6+3 armour:4")
        .await
        .unwrap();
    assert!(!reply.ephemeral, "{}", text(&reply));
    let e = &reply.embeds()[0];
    assert_eq!(
        field(e, "Hit"),
        format!("**{:.2} %**", expected.hit * 100.0),
        "{e}"
    );
    assert!(
        field(e, "Mean damage (a miss is 0)").parse::<f64>().is_ok(),
        "{e}"
    );
    console.shutdown().await;
}

/// The chances of one die of a raw Terminator attack: (damaging, owes a test, nothing), by
/// walking every face of the attack die, the cover save (when allowed) and the power die.
fn term_die(skill: u32, at: u32, save: bool, power: u32, armour: u32) -> (f64, f64, f64) {
    let (mut dmg, mut test, mut none) = (0.0, 0.0, 0.0);
    let saves = if save { 6 } else { 1 };
    for a in 1..=skill {
        for s in 1..=saves {
            for p in 1..=power {
                let w = 1.0 / f64::from(skill * saves * power);
                if a < at || (save && s >= 4) {
                    none += w;
                } else if p >= armour {
                    dmg += w;
                } else {
                    test += w;
                }
            }
        }
    }
    (dmg, test, none)
}

fn pc(p: f64) -> String {
    format!("{:.2} %", p * 100.0)
}

/// `/odds term`, a raw attack: D10 ×2 at long range (6+), in cover (4+ saves), a D8 power die
/// against armour 6+, a D6 resolution die. Every way the two dice can end is enumerated here;
/// with a Damage limit of 0 one damaging die kills, and a target left standing takes one test
/// per die that did not damage: 1 is Retreat!, 6 no effect, else Reeling.
#[tokio::test]
async fn terminator_odds_of_a_raw_attack_are_exact() {
    let mut console = start().await;
    let (d, t, n) = term_die(10, 6, true, 8, 6);
    let outcomes = [d, t, n];
    let (mut killed, mut taken, mut retreat, mut reeling, mut calm) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (i, a) in outcomes.iter().enumerate() {
        for (j, b) in outcomes.iter().enumerate() {
            let w = a * b;
            let damaging = usize::from(i == 0) + usize::from(j == 0);
            let tests = i32::from(i == 1) + i32::from(j == 1);
            if damaging > 0 {
                killed += w;
            } else if tests > 0 {
                taken += w;
                let stays = (5.0f64 / 6.0).powi(tests);
                let unmoved = (1.0f64 / 6.0).powi(tests);
                retreat += w * (1.0 - stays);
                calm += w * unmoved;
                reeling += w * (stays - unmoved);
            }
        }
    }
    let reply = console
        .send("/odds term band:long (6+) skill:D10 rof:2 power:D8 armour:6 resolution:D6 cover:true")
        .await
        .unwrap();
    assert!(!reply.ephemeral, "{}", text(&reply));
    let e = &reply.embeds()[0];
    // Each die hits on 6–10: 1 − (1/2)².
    assert_eq!(field(e, "Hit"), "**75.00 %**", "{e}");
    let target = field(e, "🎯 Target");
    assert!(target.contains("cover save 4+ · D8 vs armour 6+"), "{target}");
    assert!(
        target.contains(&format!("Damage ≥ 1: **{}**", pc(killed))),
        "{target}"
    );
    assert!(
        target.contains(&format!("Killed: **{}**", pc(killed))),
        "{target}"
    );
    let tests = format!(
        "Resolution tests taken: {} → Retreat! {} · Reeling {} · no effect {}",
        pc(taken),
        pc(retreat),
        pc(reeling),
        pc(calm)
    );
    assert!(target.contains(&tests), "{target}\n{tests}");
    assert_eq!(e["image"]["url"], "attachment://odds.png");
    assert_eq!(reply.body["files"][0]["filename"], "odds.png");

    // Without a resolution die the tests are left out, and the answer says what to give.
    let reply = console
        .send("/odds term band:close (4+) skill:D6 power:D6 armour:4")
        .await
        .unwrap();
    let target = field(&reply.embeds()[0], "🎯 Target");
    assert!(target.contains("give the target's `resolution` die"), "{target}");
    // The attack roll alone: D8 ×1 at CC (3+).
    let reply = console.send("/odds term band:CC (3+) skill:D8").await.unwrap();
    let e = &reply.embeds()[0];
    assert_eq!(field(e, "Hit"), "**75.00 %**", "{e}");
    assert!(e["fields"].as_array().unwrap().len() == 2, "{e}");

    // Bad input: refused to the asker only, in their language, nothing rolled (the fixed dice
    // are empty: a roll would fail).
    for (line, en) in [
        ("/odds term band:long (6+)", "skill die"),
        ("/odds term band:long (6+) skill:D8 armour:6", "`power`"),
        ("/odds term band:long (6+) attacker:Kyle", "or neither"),
        ("/odds term band:long (6+) skill:D8 weapon:Pistol", "`weapon`"),
    ] {
        let reply = console.send(line).await.unwrap();
        assert!(
            reply.ephemeral && reply.content().contains(en),
            "{line}: {}",
            text(&reply)
        );
    }
    let mut ja = console.invoker();
    ja.locale = "ja".into();
    let (_, reply) = console
        .send_as("/odds term band:long (6+) skill:D8 armour:6", &ja)
        .await
        .unwrap();
    assert!(
        reply.ephemeral && reply.content().contains("ダメージには"),
        "{}",
        text(&reply)
    );
    // In Japanese, the same numbers.
    let (_, reply) = console
        .send_as(
            "/odds term band:long (6+) skill:D10 rof:2 power:D8 armour:6 resolution:D6 cover:true",
            &ja,
        )
        .await
        .unwrap();
    let e = &reply.embeds()[0];
    assert_eq!(field(e, "命中"), "**75.00 %**", "{e}");
    assert!(
        field(e, "🎯 ターゲット").contains(&format!("撃破: **{}**", pc(killed))),
        "{e}"
    );
    console.shutdown().await;
}

/// `/odds term` between session characters takes what `/term attack` would: Kyle's Plasma rifle
/// (Semi-auto: 2 dice at close range) with his D8 at 4+, a D10 against an Endoskeleton's armour
/// 8+ (Mindless: no save), I'll Be Back on 5–6 — and the server's `term.ibb_carry_over`.
#[tokio::test]
async fn terminator_odds_between_characters_follow_the_sheets_and_the_house_option() {
    let mut console = console().await;
    for line in [
        "/session start name:Judgment system:Terminator Genisys",
        "/char add name:Kyle stats:side=Resistance profile=\"Kyle Reese\" skill=d8 resolution=d8 w1=\"Plasma rifle d10\"",
        "/char add name:T1 model:Endoskeleton stats:side=Skynet skill=d8",
    ] {
        let reply = console.send(line).await.unwrap();
        assert!(!reply.ephemeral, "{line}: {}", text(&reply));
    }
    // A die damages on a hit (5/8) and a 8–10 on the D10 (3/10); the first damaging die kills.
    let (d, _, _) = term_die(8, 4, false, 10, 8);
    assert!((d - 0.1875).abs() < 1e-12);
    let killed = 1.0 - (1.0 - d) * (1.0 - d);
    let line = "/odds term band:close (4+) attacker:Kyle weapon:Plasma rifle target:T1";
    let reply = console.send(line).await.unwrap();
    assert!(!reply.ephemeral, "{}", text(&reply));
    let e = &reply.embeds()[0];
    assert_eq!(
        e["title"], "📊 Odds: Terminator · Kyle → T1 · Plasma rifle",
        "{e}"
    );
    assert_eq!(
        field(e, "Hit"),
        format!("**{}**", pc(1.0 - (3.0f64 / 8.0).powi(2)))
    );
    let t1 = field(e, "🎯 T1");
    assert!(
        t1.contains("no save: Mindless · D10 vs armour 8+ · heavy"),
        "{t1}"
    );
    // Killed, then a Crawler one time in three; the rest are removed.
    let shown = format!(
        "Killed: **{}** → Crawler (I'll Be Back) {} · removed {}",
        pc(killed),
        pc(killed / 3.0),
        pc(killed * 2.0 / 3.0)
    );
    assert!(t1.contains(&shown), "{t1}\n{shown}");
    // With the house option on, a second damaging die lands on the new Crawler (armour 8+,
    // no Damage limit) and kills it too.
    console
        .send("/config option name:term.ibb_carry_over value:on")
        .await
        .unwrap();
    let reply = console.send(line).await.unwrap();
    let t1 = field(&reply.embeds()[0], "🎯 T1").to_string();
    let removed = killed * 2.0 / 3.0 + d * d / 3.0;
    assert!(t1.contains(&format!("removed {}", pc(removed))), "{t1}");
    // Nothing was rolled or left under way: no attack to continue.
    let reply = console.send("/term continue").await.unwrap();
    assert!(reply.ephemeral, "{}", text(&reply));
    // Bad input: an unknown target, a raw option with characters, both refused.
    let reply = console
        .send("/odds term band:close (4+) attacker:Kyle weapon:Plasma rifle target:Zed")
        .await
        .unwrap();
    assert!(
        reply.ephemeral && reply.content().contains("Zed"),
        "{}",
        text(&reply)
    );
    let reply = console
        .send("/odds term band:close (4+) attacker:Kyle weapon:Plasma rifle target:T1 armour:5")
        .await
        .unwrap();
    assert!(
        reply.ephemeral && reply.content().contains("raw"),
        "{}",
        text(&reply)
    );
    console.shutdown().await;
}

/// BCDice `choice` and tally rolls: each item's chance to be picked and each face's count,
/// enumerated here over every pick and every roll.
#[tokio::test]
async fn choice_and_tally_odds_show_each_item_and_face() {
    let mut console = start().await;
    // choice2 of [a, b, c, a]: every ordered pair of different positions, alike.
    let items = ["a", "b", "c", "a"];
    let (mut a, mut b, mut pairs) = (0, 0, 0);
    for i in 0..4 {
        for j in 0..4 {
            if i != j {
                pairs += 1;
                a += usize::from(items[i] == "a" || items[j] == "a");
                b += usize::from(items[i] == "b" || items[j] == "b");
            }
        }
    }
    let (pa, pb) = (a as f64 / pairs as f64, b as f64 / pairs as f64);
    let reply = console
        .send("/odds roll expression:choice2[a,b,c,a]")
        .await
        .unwrap();
    assert!(!reply.ephemeral, "{}", text(&reply));
    let e = &reply.embeds()[0];
    let d = e["description"].as_str().unwrap();
    assert!(d.contains("Chance each item is picked"), "{d}");
    for (item, p) in [("a", pa), ("b", pb), ("c", pb)] {
        let row = d
            .lines()
            .find(|l| l.starts_with(&format!("{item} ")))
            .unwrap_or_else(|| panic!("{item} in {d}"));
        assert!(row.ends_with(&pc(p)), "{row}");
    }
    assert_eq!(field(e, "Items"), "3");
    assert_eq!(field(e, "Picks"), "2");
    assert_eq!(e["image"]["url"], "attachment://odds.png");

    // 4TY6: every roll of four dice; how many show a 6 (any face alike).
    let mut at_least_one = 0;
    let mut count = [0usize; 5];
    for roll in 0..6u32.pow(4) {
        let sixes = (0..4).filter(|k| (roll / 6u32.pow(*k)) % 6 == 5).count();
        count[sixes] += 1;
        at_least_one += usize::from(sixes > 0);
    }
    let total = 6f64.powi(4);
    let reply = console.send("/odds roll expression:4TY6").await.unwrap();
    let e = &reply.embeds()[0];
    assert_eq!(field(e, "Faces"), "1 – 6");
    assert_eq!(
        field(e, "A face shows at least once"),
        format!("**{}**", pc(at_least_one as f64 / total))
    );
    assert_eq!(field(e, "Mean count of a face"), "0.67");
    let d = e["description"].as_str().unwrap();
    for (k, c) in count.iter().enumerate() {
        let row = d
            .lines()
            .find(|l| l.starts_with(&format!("{k} ")))
            .unwrap_or_else(|| panic!("{k} in {d}"));
        assert!(row.ends_with(&pc(*c as f64 / total)), "{row}");
    }
    // In Japanese.
    let mut ja = console.invoker();
    ja.locale = "ja".into();
    let (_, reply) = console.send_as("/odds roll expression:4TY6", &ja).await.unwrap();
    let e = &reply.embeds()[0];
    assert_eq!(
        field(e, "ある出目が1個以上"),
        format!("**{}**", pc(at_least_one as f64 / total))
    );
    let (_, reply) = console
        .send_as("/odds roll expression:choice[東,西]", &ja)
        .await
        .unwrap();
    let d = reply.embeds()[0]["description"].as_str().unwrap().to_string();
    assert!(d.contains("各項目が選ばれる確率") && d.contains("東 "), "{d}");
    assert!(d.contains("50.00 %"), "{d}");
    // A backward run is refused, in the asker's language.
    let (_, reply) = console
        .send_as("/odds roll expression:choice[F-A]", &ja)
        .await
        .unwrap();
    assert!(reply.ephemeral && reply.embeds().is_empty(), "{}", text(&reply));
    assert!(!reply.content().is_ascii(), "{}", reply.content());
    console.shutdown().await;
}

/// Badlands Rally Heat and Blast: 2D6 at 4+ against 1D6 at 4+, POW 3 against AR 2, every roll
/// of the three dice walked here. A check is the highest die plus one for every other die at the
/// rating; MOS ≥ 0 hits with MOS + POW − AR damage dice (4+ one damage; with Heat a 6 is two);
/// Blast: a miss where an attack die met the rating rolls one die, 4+ one damage (POW > AR).
#[tokio::test]
async fn rally_heat_and_blast_odds_are_exact() {
    let mut console = start().await;
    let check = |dice: &[u32], rating: u32| -> i64 {
        let top = dice.iter().copied().max().unwrap_or(0);
        let met = dice.iter().filter(|&&d| d >= rating).count() as i64;
        i64::from(top) + met - i64::from(top >= rating)
    };
    let (pow, ar) = (3i64, 2i64);
    let (mut chance, mut mean) = (0.0, 0.0);
    for a1 in 1..=6 {
        for a2 in 1..=6 {
            for d in 1..=6 {
                let w = 1.0 / 216.0;
                let mos = check(&[a1, a2], 4) - check(&[d], 4);
                if mos >= 0 {
                    let n = (mos + pow - ar).max(0);
                    // Each die: 1–3 nothing, 4–5 one, 6 two (Heat).
                    chance += w * (1.0 - 0.5f64.powi(n as i32));
                    mean += w * n as f64 * (2.0 / 6.0 + 2.0 / 6.0);
                } else if a1 >= 4 || a2 >= 4 {
                    chance += w * 0.5;
                    mean += w * 0.5;
                }
            }
        }
    }
    let reply = console
        .send("/odds rally rating:4 dice:2 vs_rating:4 vs_dice:1 pow:3 ar:2 heat:true blast:true")
        .await
        .unwrap();
    assert!(!reply.ephemeral, "{}", text(&reply));
    let e = &reply.embeds()[0];
    assert!(e["title"].as_str().unwrap().ends_with("· Heat · Blast"), "{e}");
    assert_eq!(field(e, "Damage ≥ 1"), format!("**{}**", pc(chance)), "{e}");
    assert_eq!(field(e, "Mean damage"), format!("{mean:.2}"), "{e}");
    // Without the traits the numbers drop: no blast die, a 6 is one damage.
    let plain = console
        .send("/odds rally rating:4 dice:2 vs_rating:4 vs_dice:1 pow:3 ar:2")
        .await
        .unwrap();
    let plain_mean: f64 = field(&plain.embeds()[0], "Mean damage").parse().unwrap();
    assert!(plain_mean < mean, "{plain_mean} vs {mean}");
    // A trait without a weapon is refused, in the asker's language.
    let reply = console
        .send("/odds rally rating:4 dice:2 vs_rating:4 vs_dice:1 heat:true")
        .await
        .unwrap();
    assert!(
        reply.ephemeral && reply.content().contains("`pow`"),
        "{}",
        text(&reply)
    );
    let mut ja = console.invoker();
    ja.locale = "ja".into();
    let (_, reply) = console
        .send_as("/odds rally rating:4 dice:2 blast:true", &ja)
        .await
        .unwrap();
    assert!(
        reply.ephemeral && reply.content().contains("ブラスト"),
        "{}",
        text(&reply)
    );
    console.shutdown().await;
}

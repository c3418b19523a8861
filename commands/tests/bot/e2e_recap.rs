//! End to end with fixed dice: the recap of the evening (`/session recap`, `/session end`), the
//! export's HTML page rendered by a real headless Chromium, and the `/session status` board.

use std::path::PathBuf;
use std::process::Command;

use crate::support::e2e::*;

use saikoro_bot::console::{Console, user_for};
use saikoro_bot::fake_discord::{Invoker, Reply};

const ANA: &str = "/char add name:Ana owner:@alice stats:body=3 agility=3 reaction=3 strength=2 charisma=2 intuition=3 logic=2 willpower=3 edge=2 pistols=2";
const BOB: &str = "/char add name:Bob owner:@bob stats:body=4 agility=3 reaction=4 strength=2 charisma=2 intuition=3 logic=2 willpower=3 edge=1 dodge=2";

fn description(r: &Reply, i: usize) -> String {
    r.embeds()[i]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn title(r: &Reply, i: usize) -> String {
    r.embeds()[i]["title"].as_str().unwrap_or_default().to_string()
}

fn id(name: &str) -> u64 {
    user_for(name).id
}

/// A Shadowrun evening: Ana (alice) rolls a critical glitch and a plain `/roll`, Bob (bob) a
/// glitch.
async fn heist(c: &mut Console) -> (Invoker, Invoker) {
    let alice = player(c, "alice");
    let bob = player(c, "bob");
    send(c, "/session start name:Heist system:shadowrun4").await;
    send(c, ANA).await;
    send(c, BOB).await;
    as_(c, &alice, "/session join").await;
    as_(c, &bob, "/session join").await;
    // Agility 3 + pistols 2: four 1s and no hit of five dice, a critical glitch.
    c.queue_dice([1, 1, 1, 2, 1]);
    let r = as_(
        c,
        &alice,
        "/sr test character:Ana attribute:agility skill:pistols",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    // Two 1s of four dice and a hit: a glitch.
    c.queue_dice([1, 1, 5, 2]);
    as_(c, &bob, "/sr test pool:4").await;
    c.queue_dice([3, 4]);
    as_(c, &alice, "/roll dice:2d6").await;
    (alice, bob)
}

#[tokio::test]
async fn the_recap_counts_each_players_rolls_and_tells_the_moments_in_the_systems_words() {
    let mut c = system_console().await;
    let (_, bob) = heist(&mut c).await;
    let r = as_(&mut c, &bob, "/session recap").await;
    assert!(!r.ephemeral, "{}", text(&r));
    assert_eq!(title(&r, 0), "📖 Recap: Heist");
    let d = description(&r, 0);
    assert!(d.starts_with("Shadowrun 4 · 3 rolls\n"), "{d}");
    assert!(d.contains("\ngm · GM — 0 rolls\n"), "{d}");
    assert!(
        d.contains("\nalice (Ana) — 2 rolls · 💥 critical glitch ×1\n"),
        "{d}"
    );
    assert!(d.contains("\nbob (Bob) — 1 roll · ⚠️ glitch ×1\n"), "{d}");
    assert!(
        d.contains("**Moments**\n💥 critical glitch ×1 · ⚠️ glitch ×1\n"),
        "{d}"
    );
    assert!(d.contains(":t> alice (Ana) — 💥 critical glitch"), "{d}");
    // The luck of the evening, exactly. Ana's five dice without a hit: P(≤ 0) = (2/3)^5 =
    // 32/243 = 13.17 %, percentile 6.58 %; her 2d6 showing 7: P(≥ 7) = P(≤ 7) = 21/36, percentile
    // 50 %: average 28 %. Bob's one hit of four: P(≤ 1) = 48/81, P(≥ 1) = 65/81 = 80.25 %,
    // percentile (1 − 65/81 + 48/81)/2 = 39.5 % → 40 %.
    let luck = d.split("**🍀 Luck").nth(1).expect("the luck table");
    let ana = luck
        .lines()
        .find(|l| l.starts_with("alice"))
        .expect("alice's row");
    assert!(ana.contains("Rolls: 2 · Average percentile: 28 %"), "{ana}");
    assert!(ana.contains("58.33 % chance of at least as good"), "{ana}");
    assert!(ana.contains("13.17 % chance of this bad or worse"), "{ana}");
    let bob = luck.lines().find(|l| l.starts_with("bob")).expect("bob's row");
    assert!(bob.contains("Rolls: 1 · Average percentile: 40 %"), "{bob}");
    // One roll, said once, on the side it falls: at the 40th percentile it is the unlucky one
    // (48/81 = 59.26 % chance of this bad or worse; not also 65/81 "at least as good").
    assert!(bob.contains("59.26 % chance of this bad or worse"), "{bob}");
    assert!(!bob.contains("at least as good"), "{bob}");

    // In the reader's language.
    let mut ja = player(&c, "kenji");
    ja.locale = "ja".into();
    let r = as_(&mut c, &ja, "/session recap").await;
    assert_eq!(title(&r, 0), "📖 振り返り: Heist");
    let d = description(&r, 0);
    assert!(d.contains("ロール3件"), "{d}");
    assert!(d.contains("**🍀 運（正確な確率）**"), "{d}");
    assert!(d.contains("最も不運: /シャドウラン テスト キャラ\\:Ana"), "{d}");
    assert!(d.contains("平均パーセンタイル: 28 %"), "{d}");
    assert!(
        d.contains("**名場面**\n💥 クリティカル・グリッチ ×1 · ⚠️ グリッチ ×1"),
        "{d}"
    );

    // The end of the session shows it too, under the ending note.
    let r = send(&mut c, "/session end").await;
    assert_eq!(r.embeds().len(), 2, "{}", text(&r));
    assert_eq!(title(&r, 0), "Session ended: Heist");
    assert_eq!(title(&r, 1), "📖 Recap: Heist");
    assert!(description(&r, 1).contains("⚠️ glitch ×1"), "{}", text(&r));
    // Without a session there is nothing to recap: a clear error, nothing else.
    let r = send(&mut c, "/session recap").await;
    assert!(r.ephemeral, "{}", text(&r));
    c.shutdown().await;
}

/// A defender's glitch on its defence or soak is the defender's (its owner's), not the
/// attacker's; an Edge press logs the whole attack again, and counts only a glitch its own dice
/// made, not the ones the attack's first row already told.
#[tokio::test]
async fn a_defenders_glitch_is_the_defenders_and_a_press_tells_only_what_it_rolled() {
    let mut c = system_console().await;
    let alice = player(&c, "alice");
    let bob = player(&c, "bob");
    send(&mut c, "/session start name:Ambush system:shadowrun4").await;
    send(&mut c, ANA).await;
    send(&mut c, BOB).await;
    as_(&mut c, &alice, "/session join").await;
    as_(&mut c, &bob, "/session join").await;
    // Ana's five dice: a 1 of five and two hits, no glitch. Bob's Reaction 4: three 1s and no
    // hit, a critical glitch on his defence. Soak, Body 4: two 1s of four and a hit, a glitch.
    c.queue_dice([5, 6, 1, 2, 3, 1, 1, 1, 2, 1, 1, 5, 3]);
    let (id, r) = as_id(
        &mut c,
        &alice,
        "/sr attack attacker:Ana target:Bob skill:pistols dv:5",
    )
    .await;
    assert!(text(&r).contains("CRITICAL GLITCH (Bob)"), "{}", text(&r));
    let r = send(&mut c, "/session recap").await;
    let d = description(&r, 0);
    let line = |who: &str| {
        d.lines()
            .find(|l| l.starts_with(who))
            .unwrap_or_else(|| panic!("{who}: {d}"))
            .to_string()
    };
    assert_eq!(line("alice"), "alice (Ana) — 1 roll", "{d}");
    assert_eq!(
        line("bob"),
        "bob (Bob) — 0 rolls · 💥 critical glitch ×1 · ⚠️ glitch ×1",
        "{d}"
    );
    assert!(d.contains("— 💥 critical glitch\n"), "{d}");
    assert!(!d.contains("alice (Ana) — 💥"), "{d}");

    // Bob rerolls his defence's misses with Edge: the row logs the attack again, Ana's dice and
    // Bob's soak with it; his new dice make no glitch, and the ones told are not told again.
    let message = c.fake.original_message(id).expect("the attack message");
    c.queue_dice([2, 3, 4, 2]);
    press(
        &c,
        &bob,
        &message,
        &button(&message, "Defender: Second chance (Edge)"),
    )
    .await;
    let r = send(&mut c, "/session recap").await;
    let d = description(&r, 0);
    assert!(d.starts_with("Shadowrun 4 · 2 rolls"), "{d}");
    assert!(d.contains("💥 critical glitch ×1 · ⚠️ glitch ×1\n"), "{d}");
    assert!(
        d.contains("bob (Bob) — 1 roll · 💥 critical glitch ×1 · ⚠️ glitch ×1"),
        "{d}"
    );
    assert!(d.contains("alice (Ana) — 1 roll\n"), "{d}");
}

#[tokio::test]
async fn every_system_names_its_own_moments() {
    let mut c = system_console().await;
    // The d20 mecha game: a natural 20, then a natural 1.
    send(&mut c, "/session start name:Front system:mecha_d20 campaign:new").await;
    c.queue_dice([20]);
    send(&mut c, "/mecha check ability:5 skill:2 target:20").await;
    c.queue_dice([1]);
    send(&mut c, "/mecha check ability:5 skill:2 target:20").await;
    let d = description(&send(&mut c, "/session recap").await, 0);
    assert!(d.contains("✨ natural 20 ×1 · 🎲 natural 1 ×1"), "{d}");
    send(&mut c, "/session end").await;

    // Warmachine: 6 + 6 + POW 20 − ARM 14 = 18 damage fills Grunt's 8 boxes: DISABLED.
    send(
        &mut c,
        "/session start name:Skirmish system:warmachine campaign:new",
    )
    .await;
    send(
        &mut c,
        "/char add name:Grunt stats:controller=@bob def=12 arm=14 boxes=8",
    )
    .await;
    c.queue_dice([6, 6]);
    send(&mut c, "/wm damage target:Grunt pow:20").await;
    let d = description(&send(&mut c, "/session recap").await, 0);
    assert!(d.contains("🛑 DISABLED ×1"), "{d}");
    assert!(d.contains("— 🛑 DISABLED: Grunt"), "{d}");

    send(&mut c, "/session end").await;

    // Terminator Genisys: a hit (6 at 4+) and a damaging 9 kill a Resistance soldier outright.
    send(
        &mut c,
        "/session start name:Judgment system:terminator campaign:new",
    )
    .await;
    send(
        &mut c,
        r#"/char add name:G model:Resistance Soldier stats:side=Resistance skill=d8 resolution=d8 w1="Gun short rof1 d10""#,
    )
    .await;
    send(
        &mut c,
        r#"/char add name:E model:Endoskeleton stats:side=Skynet skill=d8 w2="Plasma gun long rof1 d10""#,
    )
    .await;
    c.queue_dice([6, 9]);
    send(
        &mut c,
        "/term attack band:close attacker:E weapon:Plasma gun target:G",
    )
    .await;
    let d = description(&send(&mut c, "/session recap").await, 0);
    assert!(d.contains("— 💀 KILLED: G"), "{d}");
    send(&mut c, "/session end").await;

    // Badlands Rally: four 6s of damage take Hopper's hull to 0: rattled (the spin-out's 6
    // recovers, so no spin-out).
    send(
        &mut c,
        "/session start name:Race system:badlands_rally campaign:new",
    )
    .await;
    send(
        &mut c,
        r#"/char add name:Hopper stats:model=jerboa attack=4+ defence=3+ initiative=4+ mr=16 hits=2/1 ar=5 weapon1="Rifle 6 3-6/12""#,
    )
    .await;
    c.queue_dice([6, 6, 6, 6, 6]);
    send(&mut c, "/rally damage mos:3 pow:6 target:Hopper").await;
    let d = description(&send(&mut c, "/session recap").await, 0);
    assert!(d.contains("**Moments**\n🫨 rattled gear ×1\n"), "{d}");
    assert!(d.contains("— 🫨 rattled gear: Hopper"), "{d}");
    // And the board says so in one line.
    let d = description(&send(&mut c, "/session status").await, 0);
    let gm = c.invoker().user.id;
    assert!(
        d.contains(&format!(
            "\n**Hopper** — <@{gm}> · hull □□ 0/2 · structure □ 0/1 · rattle record 1/6 · **rattled** · **off balance**"
        )),
        "{d}"
    );

    // A secret roll is counted, never told.
    c.queue_dice([1, 1]);
    send(&mut c, "/roll dice:S2d6").await;
    let d = description(&send(&mut c, "/session recap").await, 0);
    assert!(d.contains("· 2 rolls"), "{d}");
    c.shutdown().await;
}

/// Chromium from the distribution's packages, or a failure that says how to install it.
fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::var("PATH").unwrap_or_default().split(':') {
            let p = PathBuf::from(dir).join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "Chromium is needed to render the export's HTML page in a real browser, and it is not \
         installed. Install Debian's package: `apt-get install -y chromium` (.ci/run does this)."
    );
}

/// The page as Chromium builds it: headless, no network, a throwaway profile.
fn rendered(html: &str, name: &str) -> String {
    let browser = chromium();
    let dir = tempfile::tempdir().expect("temp dir");
    let page = dir.path().join(name);
    std::fs::write(&page, html).expect("write the page");
    let profile = dir.path().join("profile");
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success() && dom.contains("</html>"),
        "chromium failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    dom
}

#[tokio::test]
async fn the_export_adds_a_page_a_real_browser_renders_with_names_totals_and_sections() {
    let mut c = system_console().await;
    let _ = heist(&mut c).await;
    // A name that would be markup if it were not escaped.
    send(&mut c, r#"/char add name:<b>Eve & "Co"</b> stats:body=2"#).await;
    let r = send(&mut c, "/session export").await;
    let files = r.body["files"].as_array().expect("attachments");
    assert_eq!(files.len(), 3, "{files:?}");
    let name = files[2]["filename"].as_str().unwrap().to_string();
    assert!(name.ends_with(".html"), "{name}");
    let html = files[2]["content"].as_str().unwrap();
    assert!(
        !html.contains("<script") && !html.contains("src="),
        "self-contained: {html}"
    );

    let dom = rendered(html, &name);
    assert!(dom.contains("<html lang=\"en\">"), "{dom}");
    assert!(dom.contains("<h1 id=\"session-name\">Heist</h1>"), "{dom}");
    for section in [
        "id=\"recap\"",
        "id=\"players\"",
        "id=\"moments\"",
        "id=\"roster\"",
        "id=\"log-table\"",
        "<svg",
    ] {
        assert!(dom.contains(section), "{section} missing: {dom}");
    }
    assert!(dom.contains("<p id=\"total-rolls\">3 rolls</p>"), "{dom}");
    assert!(
        dom.contains("<td>alice (Ana)</td><td class=\"n\">2</td>"),
        "{dom}"
    );
    assert!(dom.contains("💥 critical glitch ×1"), "{dom}");
    assert!(dom.contains("<code>/sr test pool:4</code>"), "{dom}");
    // The luck table, with its exact figures (see the recap test) and its chart.
    assert!(
        dom.contains("<section id=\"extra-0\" class=\"extra\"><h3>🍀 Luck (exact odds)</h3>"),
        "{dom}"
    );
    assert!(
        dom.contains("<td>alice (Ana)</td><td>2</td><td>28 %</td>"),
        "{dom}"
    );
    assert!(dom.contains("13.17 % chance of this bad or worse"), "{dom}");
    // Escaped: the name reads as typed and made no element.
    assert!(dom.contains("&lt;b&gt;Eve &amp; \"Co\"&lt;/b&gt;"), "{dom}");
    assert!(!dom.contains("<b>Eve"), "{dom}");

    // A Japanese reader gets the page in Japanese.
    let mut ja = player(&c, "kenji");
    ja.locale = "ja".into();
    let r = as_(&mut c, &ja, "/session export").await;
    let html = r.body["files"][2]["content"].as_str().unwrap().to_string();
    let dom = rendered(&html, "ja.html");
    assert!(dom.contains("<html lang=\"ja\">"), "{dom}");
    assert!(dom.contains("<h2>振り返り</h2>"), "{dom}");
    assert!(dom.contains("<p id=\"total-rolls\">ロール3件</p>"), "{dom}");
    assert!(dom.contains("クリティカル・グリッチ ×1"), "{dom}");

    // A result's bold, as Discord shows it, is bold on the page, never raw asterisks.
    c.queue_dice([3, 4]);
    send(&mut c, "/roll dice:2d6").await;
    let r = send(&mut c, "/session export").await;
    let html = r.body["files"][2]["content"].as_str().unwrap().to_string();
    let dom = rendered(&html, "bold.html");
    assert!(dom.contains("<td><strong>7</strong></td>"), "{dom}");
    assert!(!dom.contains("**"), "{dom}");
    c.shutdown().await;
}

#[tokio::test]
async fn the_status_board_is_one_short_line_per_character_with_what_the_system_watches() {
    let mut c = system_console().await;
    heist(&mut c).await;
    let r = send(&mut c, "/session status").await;
    let d = description(&r, 0);
    let ana = d.lines().find(|l| l.starts_with("**Ana**")).expect("Ana's line");
    let alice = id("alice");
    assert_eq!(
        ana,
        format!("**Ana** — <@{alice}> · edge_points 2/2 · physical □□□□□□□□□□ 0/10 · stun □□□□□□□□□□ 0/10")
    );
    assert!(!d.contains("passes") && !d.contains("Attributes"), "{d}");
    // The whole sheet is /char show's.
    let r = send(&mut c, "/char show name:Ana").await;
    assert!(text(&r).contains("passes 1"), "{}", text(&r));
    send(&mut c, "/session end").await;

    send(
        &mut c,
        "/session start name:Skirmish system:warmachine campaign:new",
    )
    .await;
    send(
        &mut c,
        "/char add name:Grunt stats:controller=@bob def=12 arm=14 boxes=8",
    )
    .await;
    c.queue_dice([1, 1]);
    send(&mut c, "/wm damage target:Grunt pow:16").await;
    let mut ja = player(&c, "kenji");
    ja.locale = "ja".into();
    let d = description(&as_(&mut c, &ja, "/session status").await, 0);
    let grunt = d
        .lines()
        .find(|l| l.starts_with("**Grunt**"))
        .expect("Grunt's line");
    // 1 + 1 + 16 − 14 = 4 boxes of 8.
    assert!(grunt.ends_with(" · ダメージ 4/8"), "{grunt}");
    c.shutdown().await;
}

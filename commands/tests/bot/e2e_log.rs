//! End to end through the fake Discord with fixed dice: `/session log` and `/session export`'s
//! transcript read as a person would — the command with option and choice names as typed, each
//! system's result in the reader's language — and Shadowrun's turn and pass said the same way
//! on `/session status` as on `/sr initiative`.

use crate::support::e2e::*;

use saikoro_bot::console::Console;
use saikoro_bot::fake_discord::{Invoker, Reply};

const ANA: &str = "/char add name:Ana stats:body=3 agility=3 reaction=3 strength=2 charisma=2 intuition=3 logic=2 willpower=3 edge=2 pistols=2";
const BOB: &str = "/char add name:Bob stats:body=4 agility=3 reaction=4 strength=2 charisma=2 intuition=3 logic=2 willpower=3 edge=1 dodge=2";
const HOPPER: &str = r#"/char add name:Hopper stats:model=jerboa attack=4+ defence=3+ initiative=4+ mr=16 hits=2/1 ar=5 weapon1="Rifle 6 3-6/12""#;
const HUNTER: &str = r#"/char add name:Hunter stats:model=hunter attack=4+ defence=4+ initiative=4+ mr=10 hits=3/2 ar=6 weapon1="Autocannon 7 2-4/10""#;
const BRUTE: &str = r#"/char add name:Brute stats:model=grizzly attack=4+ defence=4+ initiative=4+ mr=12 hits=2/2 ar=6 weapon1="Autocannon 7 2-4/10""#;

fn japanese(c: &Console, name: &str) -> Invoker {
    let mut p = player(c, name);
    p.locale = "ja".into();
    p
}

fn description(r: &Reply) -> String {
    r.embeds()[0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The log's lines, newest last, without their `<t:…:t>` time and mention.
async fn log_lines(c: &mut Console, who: &Invoker) -> Vec<String> {
    let r = as_(c, who, "/session log").await;
    assert!(!r.ephemeral, "{}", text(&r));
    description(&r)
        .lines()
        .map(|l| l.splitn(3, ' ').nth(2).unwrap_or_default().to_string())
        .collect()
}

async fn started(c: &mut Console, line: &str) {
    let r = send(c, line).await;
    assert!(!r.ephemeral, "{line}: {}", text(&r));
}

#[tokio::test]
async fn every_systems_log_line_is_the_command_as_typed_and_its_result_in_the_readers_language() {
    let mut c = system_console().await;
    let gm = c.invoker();
    let ja = japanese(&c, "kenji");

    // Shadowrun 4: agility 3 + pistols 2 = 5 dice; 5 and 6 hit: 2 hits against 3, a failure.
    started(&mut c, "/session start name:Heist system:shadowrun4").await;
    started(&mut c, ANA).await;
    c.queue_dice([5, 2, 1, 3, 6]);
    send(
        &mut c,
        "/sr test character:Ana attribute:agility skill:pistols threshold:3",
    )
    .await;
    // Plain notation in the same session, with a comment.
    c.queue_dice([3, 4]);
    send(&mut c, "/roll dice:2d6+1 attack").await;
    let lines = log_lines(&mut c, &gm).await;
    assert_eq!(
        lines,
        [
            // The choice reads `agility`, never the index Discord sends (`attribute:1`).
            "`/sr test character:Ana attribute:agility skill:pistols threshold:3` → hits 2 / 3 → failure",
            "`/roll dice:2d6+1 attack` → **8**",
        ],
        "{lines:?}"
    );
    // A Japanese reader gets the same rolls in Japanese: the command as the Japanese list
    // names it, choice included, and the result.
    let lines = log_lines(&mut c, &ja).await;
    assert_eq!(
        lines[0],
        "`/シャドウラン テスト キャラ:Ana 能力値:敏捷力 技能:pistols 目標値:3` → ヒット 2 / 3 → 失敗"
    );
    send(&mut c, "/session end").await;

    // Badlands Rally: an attack logged no result before. Attack 6,5 at 4+ → 7; defence 2,1
    // → 2; MOS 5; damage 5 dice [4 4 4 1 1] → 3: Brute loses its hull and is rattled.
    started(
        &mut c,
        "/session start name:Race system:Badlands Rally campaign:new",
    )
    .await;
    started(&mut c, HOPPER).await;
    started(&mut c, BRUTE).await;
    send(&mut c, "/rally activate gear:Hopper speed:cruising").await;
    c.queue_dice([6, 5, 2, 1, 4, 4, 4, 1, 1]);
    send(&mut c, "/rally attack attacker:Hopper defender:Brute distance:4").await;
    let lines = log_lines(&mut c, &gm).await;
    let attack = lines.last().unwrap();
    assert!(
        attack.starts_with(
            "`/rally attack attacker:Hopper defender:Brute distance:4` → MOS 5 — HIT · defender: "
        ),
        "{lines:?}"
    );
    assert!(
        attack.contains("RATTLED") || attack.contains("rattled"),
        "{attack}"
    );
    let lines = log_lines(&mut c, &ja).await;
    assert!(
        lines.last().unwrap().contains("→ MOS 5 — 命中 · 防御側: "),
        "{lines:?}"
    );
    send(&mut c, "/session end").await;

    // Warmachine: 5 + 6 + RAT 5 = 16 against DEF 13: a hit.
    started(
        &mut c,
        "/session start name:Skirmish system:warmachine campaign:new",
    )
    .await;
    c.queue_dice([5, 6]);
    send(&mut c, "/wm attack stat:5 def:13 pow:10 arm:12").await;
    let lines = log_lines(&mut c, &gm).await;
    assert_eq!(
        lines.last().unwrap(),
        "`/wm attack stat:5 def:13 pow:10 arm:12` → Attacker → Target: 16 vs DEF 13 → hit"
    );
    send(&mut c, "/session end").await;

    // Terminator: a ladder roll of 3 D8 at 5+: 6 and 8 succeed.
    started(
        &mut c,
        "/session start name:Judgment system:terminator campaign:new",
    )
    .await;
    c.queue_dice([6, 2, 8]);
    send(&mut c, "/term ladder die:D8 count:3 target:5").await;
    let lines = log_lines(&mut c, &gm).await;
    assert_eq!(
        lines.last().unwrap(),
        "`/term ladder die:D8 count:3 target:5` → 🎲 D8 ×3: [**6** 2 **8**] at 5+ → **2 successes**"
    );
    send(&mut c, "/session end").await;

    // The d20 mecha RPG: 12 + 5 + 2 = 19 against 20: a failure, said against its target.
    started(&mut c, "/session start name:Front system:mecha_d20 campaign:new").await;
    c.queue_dice([12]);
    send(&mut c, "/mecha check ability:5 skill:2 target:20").await;
    let lines = log_lines(&mut c, &gm).await;
    assert_eq!(
        lines.last().unwrap(),
        "`/mecha check ability:5 skill:2 target:20` → d20 **12** + Ability 5 + Skill 2 = **19** → **FAILURE** (< 20)"
    );
    let lines = log_lines(&mut c, &ja).await;
    // Issue 36: ability and skill by name, not two parts both called 修正.
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with("d20 **12** + 能力値 5 + 技能 2 = **19** → **失敗**（20未満）"),
        "{lines:?}"
    );
    c.shutdown().await;
}

#[tokio::test]
async fn the_export_carries_a_markdown_transcript_beside_the_json() {
    let mut c = system_console().await;
    let ja = japanese(&c, "kenji");
    started(&mut c, "/session start name:Heist system:shadowrun4").await;
    started(&mut c, ANA).await;
    c.queue_dice([5, 2, 1, 3, 6]);
    send(
        &mut c,
        "/sr test character:Ana attribute:agility skill:pistols threshold:3",
    )
    .await;
    // A secret roll: in the transcript of someone who may not see it, neither dice nor command.
    c.queue_dice([6, 6]);
    send(&mut c, "/roll dice:S2d6").await;
    let s = c
        .store()
        .active_session(saikoro_bot::fake_discord::DEFAULT_CHANNEL)
        .await
        .unwrap()
        .unwrap();
    let r = as_(&mut c, &ja, "/session export").await;
    let files = r.body["files"].as_array().expect("attachments");
    assert_eq!(files.len(), 3, "{files:?}");
    assert_eq!(files[0]["filename"], format!("session-{}.json", s.id));
    assert_eq!(files[1]["filename"], format!("session-{}.md", s.id));
    assert_eq!(files[2]["filename"], format!("session-{}.html", s.id));
    let md = files[1]["content"].as_str().unwrap();
    assert!(md.starts_with("# Heist\n"), "{md}");
    assert!(md.contains("\n## ロスター\n"), "{md}");
    assert!(md.contains("\n## 振り返り\n\nロール2件\n"), "{md}");
    assert!(
        md.contains(
            "(Ana) `/シャドウラン テスト キャラ:Ana 能力値:敏捷力 技能:pistols 目標値:3` → ヒット 2 / 3 → 失敗\n"
        ),
        "{md}"
    );
    assert!(md.contains("シークレットダイスを振りました"), "{md}");
    assert!(!md.contains("S2d6"), "{md}");
    // The JSON keeps the summaries in both languages beside the outcome.
    let json: serde_json::Value = serde_json::from_str(files[0]["content"].as_str().unwrap()).unwrap();
    assert_eq!(json["log"][0]["outcome"]["summary"]["en"], "hits 2 / 3 → failure");
    assert_eq!(json["log"][0]["outcome"]["hits"], 2);
    // Names, not ids (issue 28): each roll under its roller's display name, in the JSON and
    // the transcript; nobody outside Discord reads a mention.
    assert_eq!(json["log"][0]["user_name"], "gm");
    assert!(md.contains("- GM: gm\n"), "{md}");
    assert!(md.contains(" gm (Ana) `/シャドウラン テスト"), "{md}");
    assert!(!md.contains("<@"), "{md}");
    c.shutdown().await;
}

#[tokio::test]
async fn shadowrun_turn_and_pass_read_the_same_on_status_and_initiative() {
    let mut c = system_console().await;
    started(&mut c, "/session start name:Heist system:shadowrun4").await;
    started(&mut c, ANA).await;
    started(&mut c, BOB).await;
    // Ana: initiative 6 + 0 hits; Bob: 7 + 2 hits — Bob first; Bob has 1 pass as Ana does.
    c.queue_dice([1, 2, 3, 4, 2, 3, 5, 6, 1, 2, 3, 4, 2]);
    let r = send(&mut c, "/sr initiative roll characters:Ana, Bob").await;
    let title = r.embeds()[0]["title"].as_str().unwrap().to_string();
    assert!(title.ends_with("Turn 1 · pass 1"), "{title}");
    let status = description(&send(&mut c, "/session status").await);
    assert!(status.contains("\nTurn 1 · pass 1: **▶ "), "{status}");
    // Never the session's generic round, which restarts with every pass's order.
    assert!(!status.contains("Round"), "{status}");
    c.shutdown().await;
}

#[tokio::test]
async fn a_shadowrun_attack_and_its_edge_reroll_are_logged_with_hits_damage_and_boxes() {
    let mut c = system_console().await;
    started(&mut c, "/session start name:Run system:Shadowrun 4").await;
    started(
        &mut c,
        "/char add name:Ana owner:@ana stats:body=3 agility=3 reaction=3 willpower=3 edge=2 pistols=2",
    )
    .await;
    started(
        &mut c,
        "/char add name:Bob owner:@bob stats:body=4 agility=3 reaction=3 willpower=3 edge=1 armour=6/4",
    )
    .await;
    let ana = player(&c, "ana");
    // Attack 5 dice: 2 hits; defence 1 hit; net 1: 6P; soak 9 dice, 1 hit: 5 boxes.
    c.queue_dice([5, 2, 3, 1, 6, 5, 2, 2, 5, 1, 2, 2, 3, 4, 2, 3, 4]);
    let (id, _) = as_id(
        &mut c,
        &ana,
        "/sr attack attacker:Ana target:Bob skill:pistols dv:5 ap:-1 weapon:Ares Predator",
    )
    .await;
    // Second chance rerolls the three misses (5, 6, 2): 4 hits, net 3, 8P; the soak is kept.
    let message = c.fake.original_message(id).expect("the result message");
    c.queue_dice([5, 6, 2]);
    press(&c, &ana, &message, &button(&message, "Second chance")).await;
    let gm = c.invoker();
    let lines = log_lines(&mut c, &gm).await;
    assert_eq!(
        lines,
        [
            "`/sr attack attacker:Ana target:Bob skill:pistols dv:5 ap:-1 weapon:Ares Predator` → hits 2 vs 1 (net 1) → hit, 6P: 5 box(es)",
            "`/sr second chance` → hits 4 vs 1 (net 3) → hit, 8P: 7 box(es)",
        ],
        "{lines:?}"
    );
    let ja = japanese(&c, "kenji");
    let lines = log_lines(&mut c, &ja).await;
    assert!(
        lines[0].ends_with("→ ヒット2対1（純ヒット1） → 命中、身体6：5ボックス"),
        "{lines:?}"
    );
    c.shutdown().await;
}

#[tokio::test]
async fn a_reliable_reroll_pressed_on_the_rally_is_logged_with_its_result() {
    let mut c = system_console().await;
    started(&mut c, "/session start name:Race system:Badlands Rally").await;
    started(&mut c, HUNTER).await;
    started(&mut c, BRUTE).await;
    send(&mut c, "/rally activate gear:Hunter").await;
    // Attack 2,1 → 2 against Brute's 6,5 → 7: MOF 5. Reliable rerolls the attack (6,5 → 7):
    // MOS 0, a hit; damage 1 die: 4 → 1 damage.
    c.queue_dice([2, 1, 6, 5]);
    let gm = c.invoker();
    let (id, _) = as_id(
        &mut c,
        &gm,
        "/rally attack attacker:Hunter defender:Brute distance:4",
    )
    .await;
    let message = c.fake.original_message(id).expect("the attack message");
    c.queue_dice([6, 5, 4]);
    press(
        &c,
        &gm,
        &message,
        &button(&message, "Reliable: reroll Hunter's attack"),
    )
    .await;
    let lines = log_lines(&mut c, &gm).await;
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].ends_with("→ MOF 5 — MISS"), "{lines:?}");
    assert!(
        lines[1].starts_with("`/rally reliable` → MOS 0 — HIT · defender: "),
        "{lines:?}"
    );
    c.shutdown().await;
}

/// One language per line (issue 28): a Japanese character name does not turn the rest of the
/// command back into English in a Japanese reader's `/session log`.
#[tokio::test]
async fn a_japanese_value_keeps_the_rest_of_the_command_japanese() {
    let mut c = system_console().await;
    let ja = japanese(&c, "kenji");
    started(&mut c, "/session start name:Heist system:shadowrun4").await;
    started(&mut c, &ANA.replace("name:Ana", "name:アナ")).await;
    c.queue_dice([5, 2, 1, 3, 6]);
    send(
        &mut c,
        "/sr test character:アナ attribute:agility skill:pistols threshold:3",
    )
    .await;
    let lines = log_lines(&mut c, &ja).await;
    assert_eq!(
        lines,
        ["`/シャドウラン テスト キャラ:アナ 能力値:敏捷力 技能:pistols 目標値:3` → ヒット 2 / 3 → 失敗"],
        "{lines:?}"
    );
    c.shutdown().await;
}

/// The issue's mecha line, typed with the Japanese names: logged and shown in Japanese all along,
/// not in English after the first Japanese value.
#[tokio::test]
async fn a_mecha_attack_typed_in_japanese_reads_japanese_all_along() {
    let mut c = system_console().await;
    let mut gm = c.invoker();
    gm.locale = "ja".into();
    for line in [
        "/session start name:Ridge system:mecha_d20",
        "/char add name:ザク stats:squad=Red leader=yes judgement=3 tactics=2 concentration=4 shooting=3 reaction=3 evade=2 ap=5 spirit=10 durability=6 armour=4 evasion=1",
        "/char add name:ガンダム stats:squad=Blue leader=yes judgement=4 tactics=3 concentration=5 shooting=4 reaction=4 evade=3 ap=6 durability=30 armour=8 evasion=2 w1=\"ビームライフル 2d6+5 r4 front\"",
        "/mecha turn",
    ] {
        started(&mut c, line).await;
    }
    c.queue_dice([5, 12]);
    started(&mut c, "/mecha initiative").await;
    c.queue_dice([15, 3, 4, 4, 18]);
    let r = as_(
        &mut c,
        &gm,
        "/メカ 攻撃 攻撃側:ガンダム 兵器:ビームライフル 目標:ザク 距離:3",
    )
    .await;
    assert!(!r.ephemeral, "{}", text(&r));
    let lines = log_lines(&mut c, &gm).await;
    let attack = lines.last().expect("the attack's row");
    assert!(
        attack.starts_with("`/メカ 攻撃 攻撃側:ガンダム 兵器:ビームライフル 目標:ザク 距離:3"),
        "{lines:?}"
    );
    for english in ["weapon:", "target:", "distance:", "facing:"] {
        assert!(!attack.contains(english), "{lines:?}");
    }
    c.shutdown().await;
}

//! Issue 15: `/help` through the fake Discord — every page in both languages within Discord's
//! limits, every notation example typed into `/roll` exactly as help shows it, `/roll dice:help`,
//! refusals that point to help, and the README's complete `/char add` and `/roll` examples
//! pasted as written (quotes and all) into a session of the system their section describes.

use crate::support::e2e::*;

use saikoro_bot::embeds::limits;
use serde_json::Value;

/// Characters of an embed as Discord counts them toward its total.
fn embed_chars(e: &Value) -> usize {
    let n = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
    let fields: usize = e["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            assert!(n(&f["value"]) <= limits::FIELD_VALUE, "{f}");
            n(&f["name"]) + n(&f["value"])
        })
        .sum();
    n(&e["title"]) + n(&e["description"]) + n(&e["footer"]["text"]) + fields
}
use saikoro_bot::help::notation::EXAMPLES;

const TOPICS: [&str; 7] = [
    "commands",
    "notation",
    "shadowrun4",
    "badlands_rally",
    "warmachine",
    "terminator",
    "mecha_d20",
];

async fn random_dice_console() -> saikoro_bot::console::Console {
    system_console_with(saikoro_bot::console::ConsoleOptions {
        user: "gm".into(),
        admin: true,
        seed: Some(15),
        ..Default::default()
    })
    .await
}

#[tokio::test]
async fn every_help_page_answers_in_both_languages_within_limits() {
    let mut c = system_console().await;
    for lang in ["English", "日本語"] {
        send(&mut c, &format!("/config language language:{lang}")).await;
        for topic in TOPICS {
            let r = send(&mut c, &format!("/help topic:{topic}")).await;
            assert!(r.ephemeral, "help is for the one who asks");
            let e = &r.embeds()[0];
            assert!(embed_chars(e) <= limits::TOTAL, "{topic}: {e}");
            let title = e["title"].as_str().unwrap_or_default();
            assert!(title.starts_with("📖"), "{topic}: {title}");
        }
    }
    // The Japanese system page lists the Japanese field names and the Japanese commands.
    let r = send(&mut c, "/help topic:shadowrun4").await;
    let e = &r.embeds()[0];
    let fields = field(e, "シートの項目（/キャラ 追加 シート:）");
    assert!(fields.contains("`armour` (装甲"), "{e}");
    assert!(
        e["description"]
            .as_str()
            .unwrap_or_default()
            .contains("`/シャドウラン テスト`"),
        "{e}"
    );
}

#[tokio::test]
async fn the_first_page_lists_this_servers_commands_and_systems() {
    let mut c = system_console().await;
    let r = send(&mut c, "/help").await;
    let e = &r.embeds()[0];
    let commands = field(e, "Commands");
    for name in ["/roll", "/odds", "/session", "/char", "/help"] {
        assert!(commands.contains(&format!("`{name}`")), "{name}: {commands}");
    }
    let systems = field(e, "Game systems on this server");
    assert!(
        systems.contains("Shadowrun 4: `/sr` `/sr-matrix` `/sr-rig`"),
        "{systems}"
    );
    // A system turned off leaves the list (and its page says so).
    send(&mut c, "/config systems system:Warmachine enabled:False").await;
    let r = send(&mut c, "/help").await;
    assert!(!field(&r.embeds()[0], "Game systems on this server").contains("Warmachine"));
    let r = send(&mut c, "/help topic:warmachine").await;
    assert!(text(&r).contains("Not enabled on this server"), "{}", text(&r));
}

#[tokio::test]
async fn every_notation_example_rolls_as_written() {
    let mut c = random_dice_console().await;
    for (example, _, _) in EXAMPLES {
        let r = send(&mut c, &format!("/roll dice:{example}")).await;
        let e = r.embeds().first().cloned().unwrap_or_default();
        let title = e["title"].as_str().unwrap_or_default();
        assert!(title.contains('🎲'), "`{example}` was not rolled: {}", text(&r));
    }
}

#[tokio::test]
async fn roll_help_is_the_notation_page_and_refusals_point_there() {
    let mut c = system_console().await;
    let help = send(&mut c, "/roll dice:help").await;
    let page = send(&mut c, "/help topic:notation").await;
    assert_eq!(help.embeds(), page.embeds());
    let r = send(&mut c, "/roll dice:2d6 k").await;
    assert!(
        r.ephemeral && r.content().contains("/help topic:notation"),
        "{}",
        text(&r)
    );
    send(&mut c, "/config language language:日本語").await;
    let r = send(&mut c, "/roll dice:blah").await;
    assert!(
        r.content().contains("使える書き方の例: /ヘルプ 項目:ダイス表記"),
        "{}",
        text(&r)
    );
}

/// The complete examples of README and every guide, English and Japanese (no `…`, `[`, `<` or
/// `|` placeholders, no empty option): backquoted or in a code block, continuation lines
/// indented by two spaces; each with the page and section it is in.
fn docs_examples(prefixes: &[&str]) -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut pages = vec![root.join("README.md")];
    for dir in ["docs", "docs/ja"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            if entry.path().extension().is_some_and(|e| e == "md") {
                pages.push(entry.path());
            }
        }
    }
    let mut out: Vec<(String, String)> = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(&root).unwrap().display().to_string();
        let mut section = String::new();
        let mut in_block = false;
        // Whether the line before was an example, which a continuation line goes on.
        let mut continues = false;
        for line in text.lines() {
            if line.starts_with("```") {
                in_block = !in_block;
                continues = false;
                continue;
            }
            if line.starts_with('#') {
                section = line.to_string();
                continue;
            }
            let mut candidates = Vec::new();
            if in_block || line.starts_with("    /") {
                let t = line.trim_start();
                if line.starts_with("  ") && !line.trim_start().starts_with('/') {
                    if let Some(last) = out.last_mut().filter(|_| in_block && continues) {
                        last.1.push(' ');
                        last.1.push_str(t);
                    }
                    continue;
                }
                // A transcript's prompt is not part of the line.
                let t = t
                    .split_once("> /")
                    .map_or(t.to_string(), |(_, l)| format!("/{l}"));
                candidates.push(t);
            } else {
                candidates.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
            }
            continues = false;
            for cand in candidates {
                if prefixes.iter().any(|p| cand.starts_with(p)) {
                    out.push((format!("{name} {section}"), cand));
                    continues = in_block;
                }
            }
        }
    }
    out.retain(|(_, l)| !l.contains(['…', '[', '<', '|']) && !l.contains(": ") && !l.ends_with(':'));
    out
}

/// The system of an example's session: its guide's (`docs/warmachine.md`), else its section's
/// (README's and the other pages' examples are Shadowrun's, as they always were).
fn system_of(section: &str) -> &'static str {
    let file = section.split(' ').next().unwrap_or_default();
    let in_file = |key: &str| file.ends_with(&format!("/{key}.md"));
    if in_file("badlands_rally") || section.contains("Rally") {
        "Badlands Rally"
    } else if in_file("warmachine") || section.contains("Warmachine") {
        "warmachine"
    } else if in_file("mecha_d20") || section.contains("Mecha") {
        "mecha_d20"
    } else if in_file("terminator") || section.contains("Terminator") {
        "Terminator Genisys"
    } else if in_file("playing") || in_file("console") || in_file("notation") {
        "generic"
    } else {
        "Shadowrun 4"
    }
}

#[tokio::test]
async fn docs_char_and_roll_examples_work_when_pasted() {
    let examples = docs_examples(&["/char add ", "/roll dice:", "/キャラ 追加 ", "/ダイス 式:"]);
    let adds = examples
        .iter()
        .filter(|(_, l)| l.starts_with("/char add") || l.starts_with("/キャラ 追加"))
        .count();
    assert!(adds >= 14, "{examples:#?}");
    assert!(
        examples.iter().any(|(s, _)| s.starts_with("docs/ja/")),
        "{examples:#?}"
    );
    for (section, line) in &examples {
        let mut c = random_dice_console().await;
        send(
            &mut c,
            &format!("/session start name:Docs system:{}", system_of(section)),
        )
        .await;
        let r = send(&mut c, line).await;
        // Help is shown to the one who asks, and a secret or private roll's result too, with a
        // notice in the channel; everything else is a public result.
        let help = r
            .embeds()
            .first()
            .is_some_and(|e| e["title"].as_str().unwrap_or("").starts_with("📖"));
        let hidden_roll = r
            .embeds()
            .first()
            .is_some_and(|e| e["title"].as_str().unwrap_or("").starts_with("🎲"))
            && !r.followups.is_empty();
        assert!(
            !r.ephemeral || help || hidden_roll,
            "{section}\n{line}\n{}",
            text(&r)
        );
        c.shutdown().await;
    }
}

/// Issue 30: the Terminator and mecha pages say how a weapon is written and what the slots
/// are, in both languages (the field comes first, so a long page never drops it).
#[tokio::test]
async fn terminator_and_mecha_help_say_how_to_write_a_weapon() {
    let mut c = system_console().await;
    for (topic, grammar) in [
        ("terminator", "NAME [cc|short|long]"),
        ("mecha_d20", "NAME POWER"),
    ] {
        let r = send(&mut c, &format!("/help topic:{topic}")).await;
        let weapons = field(&r.embeds()[0], "Weapons (/char add stats:)");
        assert!(
            weapons.contains(grammar) && weapons.contains("Slots 1–8"),
            "{topic}: {weapons}"
        );
    }
    send(&mut c, "/config language language:日本語").await;
    let r = send(&mut c, "/help topic:mecha_d20").await;
    let e = &r.embeds()[0];
    let weapons = e["fields"][0]["value"].as_str().unwrap_or_default();
    assert!(
        weapons.contains("名前 威力") && weapons.contains("スロットは1〜8"),
        "{e}"
    );
}

/// Issue 31: `/config option … value:` confirms the one change in one line, old and new value,
/// in the reader's language — not every system's whole settings page.
#[tokio::test]
async fn config_option_confirms_the_one_change_in_one_line() {
    let mut c = console().await;
    let r = send(&mut c, "/config option name:rally.recovery value:structure_first").await;
    assert!(r.ephemeral && r.embeds().is_empty(), "{}", text(&r));
    assert_eq!(
        r.content(),
        "House option `rally.recovery` (Which boxes recovery refills first): `hull_first` → `structure_first`."
    );
    send(&mut c, "/config language language:日本語").await;
    let r = send(&mut c, "/config option name:rally.recovery").await;
    assert_eq!(
        r.content(),
        "ハウスルール `rally.recovery`（回復で先に埋めるボックス）: `structure_first` → `hull_first`。"
    );
    let r = send(&mut c, "/config option name:rally.recovery value:hull_first").await;
    assert_eq!(
        r.content(),
        "ハウスルール `rally.recovery`（回復で先に埋めるボックス）は `hull_first` のままです。"
    );
}

/// Issue 31: Discord hides `/config` from members without Manage Server, so `/help` leaves it
/// out for them; an admin still sees it.
#[tokio::test]
async fn help_lists_config_only_to_those_who_can_see_it() {
    let mut c = system_console().await;
    let bob = player(&c, "bob");
    let r = as_(&mut c, &bob, "/help").await;
    let commands = field(&r.embeds()[0], "Commands");
    assert!(
        commands.contains("`/roll`") && !commands.contains("`/config`"),
        "{commands}"
    );
    let r = send(&mut c, "/help").await;
    assert!(
        field(&r.embeds()[0], "Commands").contains("`/config`"),
        "{}",
        text(&r)
    );
}

/// The console's `help` typed in a session with `locale`: what it printed.
async fn console_help(locale: &str) -> String {
    use saikoro_bot::console::script::{Mode, run_session};
    let mut out: Vec<u8> = Vec::new();
    let opts = saikoro_bot::console::ConsoleOptions {
        user: "alice".into(),
        locale: locale.into(),
        ..Default::default()
    };
    let mode = Mode {
        interactive: false,
        echo: false,
    };
    let code = run_session(opts, &b"help\n"[..], &mut out, mode).await.unwrap();
    assert_eq!(code, 0);
    String::from_utf8(out).unwrap()
}

/// Issue 31: the console's own `help` lists `/roll` first, then the other commands, then the
/// systems'; under `--locale ja` it speaks Japanese with the Japanese command names.
#[tokio::test]
async fn console_help_lists_roll_first_in_the_consoles_language() {
    let en = console_help("en-US").await;
    let lines: Vec<&str> = en.lines().collect();
    assert_eq!(lines[0], "Commands alice can use here:", "{en}");
    assert!(lines[1].starts_with("  /roll  "), "{en}");
    let at = |s: &str| en.find(s).unwrap_or_else(|| panic!("no {s}: {en}"));
    assert!(at("  /session {") < at("  /sr {"), "{en}");
    let ja = console_help("ja").await;
    let lines: Vec<&str> = ja.lines().collect();
    assert_eq!(lines[0], "alice がここで使えるコマンド:", "{ja}");
    assert!(lines[1].starts_with("  /ダイス  "), "{ja}");
    assert!(ja.contains("コンソールの言葉:"), "{ja}");
    assert!(!ja.contains("Console words") && !ja.contains("/roll "), "{ja}");
}

/// The autocomplete choices the bot offers for the last option of `line`, as the console prints them.
async fn choices(c: &mut saikoro_bot::console::Console, line: &str) -> String {
    let x = c.complete(line).await.unwrap_or_else(|e| panic!("{line}: {e}"));
    saikoro_bot::console::exchange_text(&x)
}

/// Issue 31: `/config option value:` offers the named option's values, each with what it
/// means in the reader's language; what is sent stays the stored token.
#[tokio::test]
async fn config_option_values_autocomplete_in_the_readers_language() {
    let mut c = console().await;
    let en = choices(&mut c, "/config option name:rally.recovery value:str").await;
    assert_eq!(
        en.trim(),
        "- structure_first — Structure boxes first (structure_first)",
        "{en}"
    );
    send(&mut c, "/config language language:日本語").await;
    let ja = choices(&mut c, "/config option name:rally.recovery value:h").await;
    assert_eq!(
        ja.trim(),
        "- hull_first — ハルのボックスから (hull_first)",
        "{ja}"
    );
    let ja = choices(&mut c, "/config option name:wm.auto_hit_miss value:オ").await;
    assert!(
        ja.contains("- on — オン (on)") && ja.contains("- off — オフ (off)"),
        "{ja}"
    );
    // A value that speaks for itself is offered as it is.
    let d = choices(&mut c, "/config option name:term.tactical_die value:D2").await;
    assert_eq!(d.trim(), "- D20", "{d}");
    // The choice's value is the token the option takes.
    let r = send(&mut c, "/config option name:rally.recovery value:structure_first").await;
    assert!(r.content().contains("`structure_first`"), "{}", text(&r));
}

/// Issue 31: Japanese help names a topic once — `/help topic:notation` becomes
/// 「/ヘルプ 項目:ダイス表記」, so the text around it must not say ダイス表記 again.
#[tokio::test]
async fn japanese_help_names_each_topic_once() {
    let mut c = system_console().await;
    send(&mut c, "/config language language:日本語").await;
    let r = send(&mut c, "/help").await;
    let description = r.embeds()[0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        description.contains("ダイスの書き方は /ヘルプ 項目:ダイス表記、"),
        "{description}"
    );
    let r = send(&mut c, "/help topic:notation").await;
    let title = r.embeds()[0]["title"].as_str().unwrap_or_default().to_string();
    assert_eq!(title, "📖 ダイス表記（/ダイス）");
    for page in ["", " topic:notation", " topic:shadowrun4"] {
        let r = send(&mut c, &format!("/help{page}")).await;
        assert!(!text(&r).contains("ダイス表記（ダイス表記）"), "{}", text(&r));
    }
}

//! The `saikoro` binary as a user runs it: the console, and start-up without a token.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn saikoro(args: &[&str], stdin: Option<&str>) -> Output {
    let dir = std::env::temp_dir();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_saikoro"));
    // No `.env` from the repository, no token or database from the caller.
    cmd.args(args)
        .current_dir(&dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run saikoro");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("saikoro finishes")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn one_line_with_fixed_dice_prints_the_total() {
    let out = saikoro(&["console", "-c", "/roll dice:2d6", "--dice", "3,4"], None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Total: **7**"), "{stdout}");
    assert!(stdout.contains("[4, 3]"), "{stdout}");
    // The expression and the total are said once each: the title, the field.
    assert_eq!(stdout.matches("2d6").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("7").count(), 1, "{stdout}");
}

#[test]
fn json_prints_the_reply_and_the_outcome() {
    let out = saikoro(
        &[
            "console",
            "-c",
            "/roll dice:2d6",
            "--dice",
            "3,4",
            "--json",
            "--user",
            "alice",
        ],
        None,
    );
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "one line per interaction: {stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON on stdout");
    let reply = &v[0];
    assert_eq!(reply["kind"], "reply");
    assert_eq!(reply["ephemeral"], false);
    assert_eq!(reply["body"]["type"], 4, "a message callback: {v}");
    assert_eq!(reply["body"]["data"]["embeds"][0]["footer"]["text"], "alice");
    assert_eq!(reply["outcome"]["lines"][0]["total"], 7);
    assert_eq!(v.as_array().map(Vec::len), Some(1), "nothing else: {v}");
}

#[test]
fn seeds_reproduce_and_japanese_is_spoken() {
    let a = saikoro(
        &[
            "console",
            "-c",
            "/roll dice:10d6",
            "--seed",
            "99",
            "--locale",
            "ja",
        ],
        None,
    );
    let b = saikoro(
        &[
            "console",
            "-c",
            "/roll dice:10d6",
            "--seed",
            "99",
            "--locale",
            "ja",
        ],
        None,
    );
    assert_eq!(text(&a.stdout), text(&b.stdout));
    assert!(text(&a.stdout).contains("合計"), "{}", text(&a.stdout));
}

#[test]
fn bad_lines_print_errors_not_panics() {
    for line in [
        "/nope",
        "roll dice:2d6",
        "/roll",
        "/roll dize:2d6",
        "/roll dice:2d6 dice:1",
        // Discord itself refuses a rating outside 2–6 (the option says its range).
        "/rally roll rating:2147483647",
    ] {
        let out = saikoro(&["console", "-c", line], None);
        assert_eq!(out.status.code(), Some(1), "{line}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).starts_with("error: "),
            "{line}: {}",
            text(&out.stdout)
        );
        assert!(
            !text(&out.stderr).contains("panicked"),
            "{line}: {}",
            text(&out.stderr)
        );
    }
    // A bad expression is the bot's own ephemeral error, not a console error.
    let out = saikoro(&["console", "-c", "/roll dice:2d6*"], None);
    assert!(
        text(&out.stdout).contains("(only you can see this)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_bad_line_does_not_end_a_stdin_session() {
    let input = "/roll dice:1d6\n/nope\n/roll dice:2x\n\n/roll dice:1d6+10\n";
    let out = saikoro(&["console", "--dice", "2,5"], Some(input));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("Total: **2**"), "{stdout}");
    assert!(stdout.contains("error: unknown command `/nope`"), "{stdout}");
    assert!(stdout.contains("(only you can see this)"), "{stdout}");
    assert!(stdout.contains("Total: **15**"), "{stdout}");
}

#[test]
fn without_a_token_start_up_says_what_to_set_and_fails() {
    let out = saikoro(&[], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("DISCORD_TOKEN"), "{stderr}");
    assert!(
        stderr.contains("saikoro console"),
        "points at the offline console: {stderr}"
    );
    assert!(!stderr.contains("panicked"));
}

/// Run `saikoro console ARGS` with `input` on stdin; stdout as text, after checking it ran.
fn console_text(args: &[&str], input: Option<&str>) -> String {
    let mut all = vec!["console"];
    all.extend_from_slice(args);
    let out = saikoro(&all, input);
    let stdout = text(&out.stdout);
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{stdout}{}",
        text(&out.stderr)
    );
    stdout
}

#[test]
fn system_commands_are_known_from_the_first_line_fifty_runs_running() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_string();
    let enabled = console_text(
        &[
            "--data-dir",
            &data,
            "--admin",
            "-c",
            "/config systems system:shadowrun4 enabled:true",
        ],
        None,
    );
    assert!(enabled.contains("Server settings"), "{enabled}");
    // Five at a time, so start-ups overlap as they would on a loaded machine.
    let failures: Vec<String> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..5)
            .map(|_| {
                s.spawn(|| {
                    (0..10)
                        .filter_map(|_| {
                            let out = console_text(
                                &[
                                    "--data-dir",
                                    &data,
                                    "-c",
                                    "/sr test pool:6",
                                    "--dice",
                                    "1,2,3,4,5,6",
                                ],
                                None,
                            );
                            (!out.contains("Hits: **2**")).then_some(out)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        runs.into_iter().flat_map(|r| r.join().unwrap()).collect()
    });
    assert!(
        failures.is_empty(),
        "{} of 50 runs failed: {failures:?}",
        failures.len()
    );
}

#[test]
fn a_secret_roll_is_revealed_by_its_roller_and_refused_to_another() {
    let input = "\
/session start name:Crypt system:generic
as alice
/roll dice:S2d6
as bob
press Reveal
as alice
press Reveal
press Reveal
";
    let out = console_text(&["--user", "gm", "--dice", "3,4"], Some(input));
    let bob = out.find("now typing as bob").expect("switched to bob");
    let after_bob = &out[bob..];
    assert!(
        after_bob.contains("(only you can see this)\nOnly @alice can use this button."),
        "{out}"
    );
    let alice = after_bob.find("now typing as alice").unwrap();
    let revealed = &after_bob[alice..];
    assert!(
        revealed.contains("(the message with the button now reads)\n🎲 alice revealed a secret roll."),
        "{out}"
    );
    assert!(revealed.contains("Total: **7**"), "{out}");
    // The button is gone; a client that still shows it gets the bot's own answer.
    assert!(revealed.contains("That button was already used."), "{out}");
}

#[test]
fn an_edge_button_works_for_the_characters_owner_only() {
    let input = "\
/session start name:Heist system:shadowrun4
/char add name:Ana owner:@alice stats:agility=3 edge=2 pistols=2
as alice
/session join
/sr test character:Ana attribute:agility skill:pistols
as bob
/session join
press Second chance
as alice
press Second chance
/char show name:Ana
";
    let out = console_text(
        &["--user", "gm", "--admin", "--dice", "5,2,1,3,6,5,4,6"],
        Some(input),
    );
    assert!(out.contains("[**5** 2 1✗ 3 **6**]"), "{out}");
    let bob = &out[out.find("now typing as bob").unwrap()..];
    let (bob, alice) = bob.split_at(bob.find("now typing as alice").unwrap());
    assert!(
        bob.contains("(only you can see this)\nOnly @alice can use this button."),
        "{out}"
    );
    assert!(alice.contains("↺[**5** 4 **6**]"), "{out}");
    assert!(alice.contains("Hits: **4**"), "{out}");
    assert!(alice.contains("edge_points 1/2"), "Edge spent once: {out}");
}

#[test]
fn config_is_hidden_from_a_plain_member_and_works_with_admin() {
    let out = saikoro(&["console", "-c", "/config show"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("error: `/config show` is hidden from you"),
        "{}",
        text(&out.stdout)
    );
    let out = saikoro(&["console", "--admin", "-c", "/config show"], None);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("Server settings"),
        "{}",
        text(&out.stdout)
    );
    // Mid-session: a player is refused, the same person made admin is not.
    let out = console_text(
        &[],
        Some("/config language language:English\nas player admin\n/config language language:English\n"),
    );
    let mut parts = out.split("now typing as player (admin)");
    assert!(
        parts
            .next()
            .unwrap()
            .starts_with("error: `/config language` is hidden"),
        "{out}"
    );
    assert!(parts.next().unwrap().contains("Server settings"), "{out}");
    // The GM role set by an admin lets its holder use what the GM may (a player may not).
    let out = console_text(
        &["--admin", "--user", "owner", "--dice", "2,2"],
        Some(
            "/config gm-role role:@GM\n/session start name:Run system:generic\n/char add name:Boss stats:hp=9\nas bob\n/char edit name:Boss stats:hp=1\nas carol role:GM\n/char edit name:Boss stats:hp=2\n",
        ),
    );
    let bob = &out[out.find("now typing as bob").unwrap()..out.find("now typing as carol").unwrap()];
    assert!(bob.contains("(only you can see this)"), "{out}");
    let carol = &out[out.find("now typing as carol (role GM)").unwrap()..];
    assert!(!carol.contains("(only you can see this)"), "{out}");
    assert!(carol.contains("hp"), "{out}");
}

#[test]
fn json_lists_every_message_of_a_secret_roll() {
    let input = "/session start name:Crypt system:generic\nas alice\n/roll dice:S2d6\n";
    let out = console_text(&["--user", "gm", "--dice", "3,4", "--json"], Some(input));
    let last = out.lines().last().expect("a line per interaction");
    let v: serde_json::Value = serde_json::from_str(last).expect("one JSON array per line");
    let items = v.as_array().expect("an array");
    assert_eq!(items.len(), 3, "{v}");
    assert_eq!(items[0]["kind"], "reply");
    assert_eq!(items[0]["ephemeral"], true, "the result is the roller's only");
    assert_eq!(items[0]["outcome"]["lines"][0]["total"], 7);
    assert_eq!(items[0]["body"]["type"], 4);
    assert_eq!(items[1]["kind"], "followup");
    assert_eq!(items[1]["ephemeral"], false);
    assert_eq!(items[1]["body"]["content"], "🎲 alice made a secret roll.");
    assert_eq!(
        items[1]["body"]["components"][0]["components"][0]["label"],
        "Reveal"
    );
    assert_eq!(items[2]["kind"], "dm");
    assert_eq!(items[2]["to"], "gm");
    assert_eq!(items[2]["body"]["content"], "Secret roll by alice");
}

#[test]
fn a_gm_channel_post_is_labelled_with_its_channel() {
    let input = "/config secret-rolls to:A GM channel channel:#gm-room\n/roll dice:S1d6\n";
    let out = console_text(&["--admin", "--dice", "4"], Some(input));
    assert!(
        out.contains("Secret rolls: #gm-room"),
        "mentions read as names: {out}"
    );
    assert!(
        out.contains("[Reveal]\n(#gm-room)\nSecret roll by player\n== 🎲 S1d6 =="),
        "{out}"
    );
}

#[test]
fn presses_after_one_line_and_unknown_buttons() {
    let out = console_text(
        &[
            "--user",
            "alice",
            "--dice",
            "1,2",
            "-c",
            "/roll dice:S2d6",
            "--press",
            "Reveal",
        ],
        None,
    );
    assert!(out.contains("🎲 alice made a secret roll.\n[Reveal]"), "{out}");
    assert!(out.contains("🎲 alice revealed a secret roll."), "{out}");
    let out = saikoro(&["console", "-c", "/roll dice:S2d6", "--press", "Fly away"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout)
            .contains("error: no button or option `Fly away` on the messages you can see; there: [Reveal]"),
        "{}",
        text(&out.stdout)
    );
    // A custom id typed by hand reaches the bot, which says what it makes of it.
    let out = console_text(&["-c", "/roll dice:S2d6", "--press", "act:99999"], None);
    assert!(
        out.contains("(only you can see this)\nThat button no longer works: what it belonged to is gone."),
        "{out}"
    );
    let out = console_text(&["-c", "/roll dice:S2d6", "--press", "other:1"], None);
    assert!(
        out.contains("(only you can see this)\nThis button is not ours."),
        "{out}"
    );
    let out = console_text(&["-c", "/roll dice:1d6", "--press", "Reveal"], None);
    assert!(
        out.contains("error: nothing to press: no message you can see has buttons"),
        "{out}"
    );
}

#[test]
fn complete_prints_the_choices_the_bot_offers() {
    let input = "\
/session start name:Run system:generic
/char add name:Anna stats:hp=3
/char add name:Andre stats:hp=4
/char add name:Bruno stats:hp=5
complete /char edit name:An
complete /char edit name:zz
complete /roll dice:2d
";
    let out = console_text(&["--user", "gm"], Some(input));
    assert!(out.contains("- Anna\n- Andre\n"), "{out}");
    assert!(!out.contains("- Bruno"), "{out}");
    assert!(out.contains("(no suggestions)"), "{out}");
    assert!(
        out.contains("error: option `dice` offers no suggestions"),
        "{out}"
    );
}

#[test]
fn help_lists_the_servers_commands_and_a_pipe_gets_no_banner() {
    let out = console_text(&[], Some("help\n"));
    assert!(out.starts_with("Commands player can use here:"), "{out}");
    assert!(out.contains("  /roll  "), "{out}");
    assert!(out.contains("  /sr {test"), "system commands too: {out}");
    assert!(!out.contains("/config"), "hidden from a plain member: {out}");
    assert!(out.contains("press LABEL"), "{out}");
    assert!(!out.contains("Saikoro console:"), "no banner when piped: {out}");
}

#[tokio::test]
async fn a_terminal_gets_a_banner_and_a_prompt() {
    use saikoro_bot::console::script::{Mode, run_session};
    let mut out: Vec<u8> = Vec::new();
    let opts = saikoro_bot::console::ConsoleOptions {
        user: "alice".into(),
        dice: Some(vec![3]),
        ..Default::default()
    };
    let mode = Mode {
        interactive: true,
        echo: false,
    };
    let code = run_session(
        opts,
        &b"/roll dice:1d6\nexit\n/roll dice:1d6\n"[..],
        &mut out,
        mode,
    )
    .await
    .unwrap();
    assert_eq!(code, 0);
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.starts_with("Saikoro console: the real bot on a fake Discord, typing as alice."),
        "{out}"
    );
    assert_eq!(
        out.matches("alice> ").count(),
        2,
        "a prompt per line read, none after exit: {out}"
    );
    assert_eq!(out.matches("Total: **3**").count(), 1, "{out}");
}

/// The console session the console guide shows, typed by three people: run here, compared with
/// the guide (`docs/console.md`).
#[test]
fn the_console_guides_three_person_session_is_what_the_console_prints() {
    let input = "\
/session start name:Heist system:shadowrun4
/char add name:Ana owner:@alice stats:agility=3 edge=2 pistols=2
as alice
/session join
/sr test character:Ana attribute:agility skill:pistols threshold:3
as bob
/session join
press Second chance
as alice
press Second chance
/roll dice:S2d6
";
    let out = console_text(
        &[
            "--user",
            "gm",
            "--admin",
            "--dice",
            "5,2,1,3,6,5,4,6,3,4",
            "--echo",
        ],
        Some(input),
    );
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/console.md")).unwrap();
    let start = guide
        .find("<!-- console transcript: begin -->\n```text\n")
        .expect("the console guide has the console transcript");
    let body = &guide[start..];
    let body = &body[body.find("```text\n").unwrap() + 8..];
    let end = body.find("```\n<!-- console transcript: end -->").unwrap();
    let shown = &body[..end];
    assert!(
        shown.contains("saikoro console --user gm --admin --dice 5,2,1,3,6,5,4,6,3,4 --echo"),
        "the command line is in the guide"
    );
    let transcript = &shown[shown.find("gm> ").unwrap()..];
    assert_eq!(
        transcript, out,
        "the guide's transcript is what the console prints"
    );
    for line in input.lines() {
        assert!(out.contains(&format!("> {line}\n")), "{line} echoed");
    }
}

/// The playing guide's campaign over two evenings (issue 27), typed by a GM and a player: run
/// here, compared with `docs/playing.md` (Discord timestamps, which change with the clock, read
/// as `<t:…>`).
#[test]
fn the_playing_guides_campaign_transcript_is_what_the_console_prints() {
    let script = "\
/session start name:Night system:generic
/char add name:Ana owner:@alice stats:hp=9
as alice
/session join
/char edit name:Ana stats:hp-=3
/roll dice:1d20+2
as gm
/session end
/session start
as alice
press Continue
as gm
press Continue
/char show name:Ana
/session log evening:0
";
    let times = regex::Regex::new(r"<t:\d+:").unwrap();
    let out = console_text(
        &["--user", "gm", "--admin", "--dice", "14", "--echo"],
        Some(script),
    );
    let out = times.replace_all(&out, "<t:…:").into_owned();
    let guide = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/playing.md")).unwrap();
    let start = guide
        .find("<!-- campaign transcript: begin -->\n```text\n")
        .expect("the playing guide has the campaign transcript");
    let body = &guide[start..];
    let body = &body[body.find("```text\n").unwrap() + 8..];
    let shown = &body[..body.find("```\n<!-- campaign transcript: end -->").unwrap()];
    assert!(
        shown.starts_with("$ saikoro console --user gm --admin --dice 14 --echo < campaign.txt\n"),
        "the command line is in the guide"
    );
    let transcript = &shown[shown.find("gm> ").unwrap()..];
    assert_eq!(
        transcript, out,
        "the guide's campaign transcript is what the console prints"
    );
    assert!(
        out.contains("== Evening 2 of Night ==") && out.contains("hp: 6"),
        "{out}"
    );
}

/// A display name that is a mention must not ping: nothing the bot sends allows a mention.
#[test]
fn a_display_name_that_is_a_mention_pings_nobody() {
    let input = "/session start name:Crypt system:generic\nas <@1234>\n/roll dice:S2d6\npress Reveal\n";
    let out = console_text(&["--user", "gm", "--dice", "3,4", "--json"], Some(input));
    let mut seen = 0;
    for line in out.lines().skip(2) {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        // Outcomes handed to the console (a revealed roll's, logged again) are no message.
        for item in v.as_array().unwrap().iter().filter(|i| i["kind"] != "outcome") {
            let body = &item["body"];
            let message = if body.get("type").is_some() {
                &body["data"]
            } else {
                body
            };
            let allowed = &message["allowed_mentions"];
            assert_eq!(allowed["parse"], serde_json::json!([]), "{item}");
            assert!(allowed["users"].as_array().is_none_or(Vec::is_empty), "{item}");
            seen += 1;
        }
    }
    assert_eq!(
        seen, 4,
        "the result, the notice, the GM's DM and the reveal: {out}"
    );
    // Shown as typed, escaped: not even rendered as a mention.
    assert!(out.contains(r"🎲 \\<\\@1234\\> made a secret roll."), "{out}");
}

#[test]
fn a_byte_that_is_not_utf8_does_not_end_a_stdin_session() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .args(["console", "--dice", "2,3"])
        .current_dir(std::env::temp_dir())
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run saikoro");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"/roll dice:1d6\n\xff\xfe bad\n/roll dice:1d6+1\n")
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Total: **2**"), "{stdout}");
    assert!(
        stdout.contains("error: a line starts with a slash command"),
        "{stdout}"
    );
    assert!(stdout.contains("Total: **4**"), "the session went on: {stdout}");
}

#[test]
fn a_malformed_database_url_is_a_configuration_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .current_dir(std::env::temp_dir())
        .env("DISCORD_TOKEN", "ZmFrZQ.ZmFrZQ.ZmFrZS10b2tlbg")
        .env("DATABASE_URL", "postgres://u@[bad")
        .env_remove("RUST_LOG")
        .output()
        .expect("run saikoro");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not a valid PostgreSQL URL"),
        "{}",
        text(&out.stderr)
    );
}

/// No token in any log line at any level: interaction tokens (the fake issues `itoken-<id>`)
/// and the bot token, in text and JSON logs, over commands, follow-ups, a DM and a press.
#[test]
fn no_token_reaches_the_log_even_at_trace() {
    let input = "/session start name:Crypt system:generic\nas alice\n/roll dice:S2d6\npress Reveal\n";
    for format in ["text", "json"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_saikoro"))
            .args(["console", "--user", "gm", "--dice", "3,4"])
            .current_dir(std::env::temp_dir())
            .env_remove("DISCORD_TOKEN")
            .env_remove("DATABASE_URL")
            .env("RUST_LOG", "trace")
            .env("LOG_FORMAT", format)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run saikoro");
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let log = text(&out.stderr);
        assert!(
            text(&out.stdout).contains("revealed a secret roll"),
            "{}",
            text(&out.stdout)
        );
        assert!(log.lines().count() > 100, "a trace log ({format}): {log}");
        assert!(log.contains("[redacted]"), "tokens were there to hide ({format})");
        let leaked: Vec<&str> = log.lines().filter(|l| l.contains("itoken-")).collect();
        assert!(leaked.is_empty(), "{format}: {leaked:?}");
        assert!(
            !log.contains(saikoro_bot::fake_discord::FAKE_TOKEN),
            "the bot token ({format})"
        );
    }
}

/// Issue 30: `stats:` autocompletes the fields the system's sheet declares (and `/char add`
/// takes), `model:` only models: Warmachine has none, so it no longer offers `controller=…`.
#[test]
fn stats_autocompletes_the_declared_fields_and_model_only_models() {
    let input = "\
/session start name:Skirmish system:warmachine
complete /char add name:J stats:controller=Ana bo
complete /char add name:J model:c
";
    let out = console_text(&["--user", "gm"], Some(input));
    assert!(
        out.contains("- controller=Ana boxes= (damage boxes) (controller=Ana boxes=)\n"),
        "{out}"
    );
    assert!(out.contains("(no suggestions)"), "{out}");
    assert!(!out.contains("- controller=@you"), "{out}");
}

/// `saikoro --help` and `saikoro run --help` list every setting with its variable and default.
#[test]
fn help_lists_every_variable_with_its_default() {
    for args in [&["--help"][..], &["run", "--help"]] {
        let out = saikoro(args, None);
        assert_eq!(out.status.code(), Some(0));
        let help = text(&out.stdout);
        for name in [
            "DISCORD_TOKEN",
            "DATABASE_URL",
            "SAIKORO_DATA_DIR",
            "DEV_GUILD_ID",
            "DISCORD_PROXY_URL",
            "SHARD_TOTAL",
            "SHARD_RANGE",
            "METRICS_ADDR",
            "LOG_FORMAT",
        ] {
            assert!(
                help.contains(&format!("[env: {name}")),
                "{args:?}: {name} in {help}"
            );
        }
        assert!(help.contains("[default: data]"), "{help}");
        assert!(help.contains("[default: text]"), "{help}");
        assert!(help.contains("RUST_LOG"), "{help}");
    }
}

/// The token and the database URL (which may hold a password) are never echoed by `--help`.
#[test]
fn help_does_not_show_the_token_or_the_database_url() {
    let out = Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .arg("--help")
        .current_dir(std::env::temp_dir())
        .env("DISCORD_TOKEN", saikoro_bot::fake_discord::FAKE_TOKEN)
        .env("DATABASE_URL", "postgres://u:hunter2@db/saikoro")
        .output()
        .expect("run saikoro");
    let help = text(&out.stdout);
    assert!(!help.contains(saikoro_bot::fake_discord::FAKE_TOKEN), "{help}");
    assert!(!help.contains("hunter2"), "{help}");
}

/// A malformed variable read by clap still stops start-up with one line and exit code 2, as
/// does the same value given as a flag.
#[test]
fn a_malformed_setting_stops_start_up_in_one_line() {
    let env = Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .current_dir(std::env::temp_dir())
        .env("DISCORD_TOKEN", saikoro_bot::fake_discord::FAKE_TOKEN)
        .env("SHARD_TOTAL", "-1")
        .env_remove("DATABASE_URL")
        .output()
        .expect("run saikoro");
    let flag = saikoro(
        &[
            "--discord-token",
            saikoro_bot::fake_discord::FAKE_TOKEN,
            "--shard-total=-1",
        ],
        None,
    );
    for out in [env, flag] {
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(
            stderr.trim(),
            "saikoro: SHARD_TOTAL must be a whole number from 1 to 65535, got \"-1\""
        );
        assert!(!stderr.contains(saikoro_bot::fake_discord::FAKE_TOKEN));
    }
}

/// The bot's settings in the environment (a `.env` made for `saikoro run`) do not stop the
/// console.
#[test]
fn the_console_runs_beside_the_bots_settings() {
    let out = Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .args(["console", "-c", "/roll dice:2d6", "--dice", "3,4"])
        .current_dir(std::env::temp_dir())
        .env("DISCORD_TOKEN", saikoro_bot::fake_discord::FAKE_TOKEN)
        .env("SHARD_TOTAL", "x")
        .env_remove("DATABASE_URL")
        .output()
        .expect("run saikoro");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Total: **7**"),
        "{}",
        text(&out.stdout)
    );
}

/// The `/odds` chart leaves the console whole: `--json` carries its bytes as base64, and
/// `--save-attachments` writes the same bytes to a file a person can open (issue 31).
#[test]
fn attachments_keep_their_bytes_in_json_and_on_disk() {
    use base64::Engine as _;
    let dir = std::env::temp_dir().join(format!("saikoro-attachments-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = saikoro(
        &[
            "console",
            "-c",
            "/odds roll expression:2d6>=7",
            "--json",
            "--save-attachments",
            dir.to_str().unwrap(),
        ],
        None,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON on stdout");
    let file = &v[0]["body"]["files"][0];
    assert_eq!(file["filename"], "odds.png");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(file["base64"].as_str().expect("base64"))
        .unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let saved: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(saved[0].to_string_lossy().ends_with("-odds.png"), "{saved:?}");
    assert_eq!(std::fs::read(&saved[0]).unwrap(), bytes);
    // The picture decodes: as wide and tall as the chart.
    let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
    let info = decoder.read_info().unwrap();
    assert_eq!((info.info().width, info.info().height), (640, 320));

    // Without --json, the text says where the file went.
    let out = saikoro(
        &[
            "console",
            "-c",
            "/odds roll expression:3d6",
            "--save-attachments",
            dir.to_str().unwrap(),
        ],
        None,
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("[saved: ") && stdout.contains("-odds.png]"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A load run whose database cannot be opened says so and exits 2 (an error, not a failed run); it used to end in a panic
/// (the bot's runtime dropped inside the load tool's async code).
#[test]
fn a_load_run_without_its_database_says_so_without_a_panic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .args(["loadtest", "--game", "roll", "-n", "1", "--database-url"])
        // Port 9 (discard) on loopback: nothing answers PostgreSQL there.
        .arg("postgres://postgres@127.0.0.1:9/saikoro_no_such_database?sslmode=disable")
        .current_dir(dir.path())
        .output()
        .expect("run saikoro");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the store cannot be opened"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

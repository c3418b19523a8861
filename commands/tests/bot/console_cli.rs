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
    assert!(stdout.contains("2d6[4, 3]"), "{stdout}");
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
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(v["type"], 4, "a message callback: {v}");
    assert_eq!(v["data"]["embeds"][0]["footer"]["text"], "alice");
    assert_eq!(v["outcome"]["lines"][0]["total"], 7);
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
    let out = saikoro(&["console", "-c", "/roll dice:2d"], None);
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
    assert!(!stderr.contains("panicked"));
}

//! The guides under `docs/` (and README) as the bot sees them (issue 34): every console
//! transcript a page shows is run and must be what the console prints, in English and
//! Japanese; and the front page's picture of a result is drawn from the embed the bot sends.
//! `SAIKORO_WRITE_DOCS=1` writes the picture and the transcripts afresh instead of failing
//! (read the diff: a transcript that changed is a behaviour that changed).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::support::e2e::{send, system_console};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// README and every Markdown page under `docs/`.
fn pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out.sort();
    out
}

/// A transcript: the files it shows with `$ cat NAME`, the console's flags, and what follows
/// the `$ saikoro console … < script` line (the prompts and replies, as `--echo` prints them).
#[derive(Debug)]
struct Transcript {
    files: Vec<(String, String)>,
    args: Vec<String>,
    shown: String,
}

/// Every ```text block of `text` with a `$ saikoro console` line.
fn transcripts(text: &str) -> Vec<Transcript> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("```text\n") {
        let body = &rest[at + 8..];
        let end = body.find("\n```").map_or(body.len(), |e| e + 1);
        let block = &body[..end];
        rest = &body[end..];
        let Some(run) = block.find("$ saikoro console ") else {
            continue;
        };
        let mut files = Vec::new();
        for part in block[..run].split("$ cat ").skip(1) {
            let (name, content) = part.split_once('\n').unwrap_or((part, ""));
            files.push((name.trim().to_string(), content.to_string()));
        }
        let line_end = block[run..].find('\n').map_or(block.len(), |e| run + e);
        let command = &block[run + "$ saikoro console ".len()..line_end];
        let command = command.split(" < ").next().unwrap_or(command);
        out.push(Transcript {
            files,
            args: command.split_whitespace().map(str::to_string).collect(),
            shown: block[(line_end + 1).min(block.len())..].to_string(),
        });
    }
    out
}

/// The lines typed in a transcript: what follows each prompt (`alice> …`).
fn typed(shown: &str) -> String {
    shown
        .lines()
        .filter_map(|l| {
            let (who, line) = l.split_once("> ")?;
            let prompt = !who.is_empty() && who.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-');
            prompt.then(|| format!("{line}\n"))
        })
        .collect()
}

fn run_console(t: &Transcript) -> String {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in &t.files {
        std::fs::write(dir.path().join(name), content).unwrap();
    }
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .arg("console")
        .args(&t.args)
        .current_dir(dir.path())
        .env_remove("DISCORD_TOKEN")
        .env_remove("DATABASE_URL")
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run saikoro");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(typed(&t.shown).as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout).into_owned();
    // Discord timestamps change with the clock: a page shows them as `<t:…:f>`.
    regex::Regex::new(r"<t:\d+:")
        .unwrap()
        .replace_all(&out, "<t:…:")
        .into_owned()
}

/// Every transcript in every page, English and Japanese, is what the console prints when its
/// lines are typed with its flags (`--echo` included, so the prompts are in the output).
#[test]
fn docs_console_transcripts_are_what_the_console_prints() {
    let write = std::env::var_os("SAIKORO_WRITE_DOCS").is_some();
    let mut ran = Vec::new();
    let mut wrong = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let mut rewritten = text.clone();
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        for t in transcripts(&text) {
            assert!(
                t.args.iter().any(|a| a == "--echo"),
                "{name}: a transcript is typed with --echo"
            );
            let out = run_console(&t);
            if out != t.shown {
                if write {
                    rewritten = rewritten.replacen(&t.shown, &out, 1);
                } else {
                    wrong.push(format!("{name}: `saikoro console {}`:\n{out}", t.args.join(" ")));
                }
            }
            ran.push(name.clone());
        }
        if rewritten != text {
            std::fs::write(&page, rewritten).unwrap();
        }
    }
    assert!(
        ran.iter().filter(|p| p.starts_with("docs/ja/")).count() >= 5 && ran.len() >= 12,
        "transcripts were not found: {ran:?}"
    );
    assert!(
        wrong.is_empty(),
        "{} transcripts differ; the console printed:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_transcripts_files_flags_and_typed_lines_are_read() {
    let text = "x\n```text\n$ cat a.txt\nhp = 1\n$ saikoro console --user gm --echo < s.txt\ngm> /roll dice:1\n== 🎲 1 ==\ngm> as bob\nnow typing as bob\nbob> press Reveal\n```\n";
    let t = &transcripts(text)[0];
    assert_eq!(t.files, [("a.txt".to_string(), "hp = 1\n".to_string())]);
    assert_eq!(t.args, ["--user", "gm", "--echo"]);
    assert_eq!(typed(&t.shown), "/roll dice:1\nas bob\npress Reveal\n");
    assert!(transcripts("```text\n/char add name:A\n```\n").is_empty());
}

/// XML text.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A rough width in pixels of `s` at 14 px: wide (CJK, emoji) characters count double.
fn width(s: &str) -> usize {
    s.chars().map(|c| if (c as u32) < 0x2000 { 8 } else { 15 }).sum()
}

/// One line of Discord Markdown as SVG tspans: `**bold**` bold, `~~struck~~` struck through.
fn spans(line: &str) -> String {
    let mut out = String::new();
    let (mut bold, mut struck) = (false, false);
    let mut rest = line;
    loop {
        let next = [rest.find("**"), rest.find("~~")].into_iter().flatten().min();
        let Some(at) = next else {
            break;
        };
        if at > 0 {
            out.push_str(&tspan(&rest[..at], bold, struck));
        }
        if rest[at..].starts_with("**") {
            bold = !bold;
        } else {
            struck = !struck;
        }
        rest = &rest[at + 2..];
    }
    out.push_str(&tspan(rest, bold, struck));
    out
}

fn tspan(text: &str, bold: bool, struck: bool) -> String {
    let text = text.replace('\\', "");
    match (bold, struck) {
        (false, false) => esc(&text),
        _ => format!(
            "<tspan{}{}>{}</tspan>",
            if bold { " font-weight=\"bold\"" } else { "" },
            if struck {
                " text-decoration=\"line-through\" fill=\"#949ba4\""
            } else {
                ""
            },
            esc(&text)
        ),
    }
}

/// A message as Discord lays it out, as SVG: the embed (its colour bar, title, description,
/// fields, inline ones up to three a row) and its buttons. An approximation of Discord's dark
/// theme, drawn from the message's JSON.
fn message_svg(message: &serde_json::Value) -> String {
    let embed = &message["embeds"][0];
    let colour = embed["color"].as_u64().unwrap_or(0x5865F2);
    // (x column 0..3, line, is a heading) per text row.
    let mut rows: Vec<Vec<(usize, String, &str)>> = Vec::new();
    if let Some(title) = embed["title"].as_str() {
        rows.push(vec![(0, format!("**{title}**"), "title")]);
    }
    for l in embed["description"].as_str().unwrap_or_default().lines() {
        rows.push(vec![(0, l.to_string(), "")]);
    }
    let mut inline_run: Vec<&serde_json::Value> = Vec::new();
    let fields: Vec<&serde_json::Value> = embed["fields"].as_array().into_iter().flatten().collect();
    let flush = |run: &mut Vec<&serde_json::Value>, rows: &mut Vec<Vec<(usize, String, &str)>>| {
        for chunk in run.chunks(3) {
            let lines: Vec<Vec<String>> = chunk
                .iter()
                .map(|f| {
                    f["value"]
                        .as_str()
                        .unwrap_or_default()
                        .lines()
                        .map(str::to_string)
                        .collect()
                })
                .collect();
            rows.push(
                chunk
                    .iter()
                    .enumerate()
                    .map(|(i, f)| (i, f["name"].as_str().unwrap_or_default().to_string(), "name"))
                    .collect(),
            );
            for k in 0..lines.iter().map(Vec::len).max().unwrap_or(0) {
                rows.push(
                    lines
                        .iter()
                        .enumerate()
                        .filter_map(|(i, l)| Some((i, l.get(k)?.clone(), "")))
                        .collect(),
                );
            }
        }
        run.clear();
    };
    for f in fields {
        if f["inline"].as_bool() == Some(true) {
            inline_run.push(f);
            continue;
        }
        flush(&mut inline_run, &mut rows);
        inline_run.push(f);
        flush(&mut inline_run, &mut rows);
    }
    flush(&mut inline_run, &mut rows);
    if let Some(footer) = embed["footer"]["text"].as_str() {
        rows.push(vec![(0, footer.to_string(), "footer")]);
    }
    let buttons: Vec<&str> = message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
        .filter_map(|b| b["label"].as_str())
        .collect();
    let plain = |l: &str| width(&l.replace("**", "").replace("~~", ""));
    let text_w = rows
        .iter()
        .flatten()
        .map(|(col, l, _)| col * 160 + plain(l))
        .max()
        .unwrap_or(0);
    let buttons_w: usize = buttons.iter().map(|b| width(b) + 32 + 8).sum();
    let w = (text_w + 48).max(buttons_w + 16).max(360);
    let embed_h = 16 + rows.len() * 22 + 8;
    let h = embed_h + 16 + if buttons.is_empty() { 0 } else { 48 };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"'gg sans','Noto Sans','Noto Sans CJK JP',Helvetica,Arial,sans-serif\" font-size=\"14\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#313338\"/>\n\
         <rect x=\"8\" y=\"8\" width=\"{}\" height=\"{embed_h}\" rx=\"4\" fill=\"#2b2d31\"/>\n\
         <rect x=\"8\" y=\"8\" width=\"4\" height=\"{embed_h}\" rx=\"2\" fill=\"#{colour:06x}\"/>\n",
        w - 16
    );
    for (i, row) in rows.iter().enumerate() {
        let y = 8 + 16 + 14 + i * 22;
        for (col, line, kind) in row {
            let x = 24 + col * 160;
            let (style, line) = match *kind {
                "title" => (" font-size=\"16\"".to_string(), line.clone()),
                "name" => (String::new(), format!("**{line}**")),
                "footer" => (" font-size=\"12\" fill-opacity=\"0.7\"".to_string(), line.clone()),
                _ => (String::new(), line.clone()),
            };
            svg.push_str(&format!(
                "<text x=\"{x}\" y=\"{y}\" fill=\"#dbdee1\"{style}>{}</text>\n",
                spans(&line)
            ));
        }
    }
    let mut x = 8;
    let y = embed_h + 16;
    for b in buttons {
        let bw = width(b) + 32;
        svg.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{bw}\" height=\"32\" rx=\"3\" fill=\"#4e5058\"/>\n\
             <text x=\"{}\" y=\"{}\" fill=\"#ffffff\" text-anchor=\"middle\">{}</text>\n",
            x + bw / 2,
            y + 21,
            esc(b)
        ));
        x += bw + 8;
    }
    svg.push_str("</svg>\n");
    svg
}

/// The front page's picture: the Shadowrun test of the console guide's transcript, as the bot
/// sends it (`docs/img/sr-test.svg`).
#[tokio::test]
async fn docs_front_page_picture_is_the_embed_the_bot_sends() {
    let mut c = system_console().await;
    send(&mut c, "/session start name:Heist system:shadowrun4").await;
    send(
        &mut c,
        "/char add name:Ana owner:@gm stats:agility=3 edge=2 pistols=2",
    )
    .await;
    c.queue_dice([5, 2, 1, 3, 6]);
    let r = send(
        &mut c,
        "/sr test character:Ana attribute:agility skill:pistols threshold:3",
    )
    .await;
    let svg = message_svg(&r.message);
    assert!(
        svg.contains("Second chance") && svg.contains("Threshold"),
        "{svg}"
    );
    let path = root().join("docs/img/sr-test.svg");
    if std::env::var_os("SAIKORO_WRITE_DOCS").is_some() {
        std::fs::write(&path, &svg).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == svg,
        "docs/img/sr-test.svg is not the bot's embed (SAIKORO_WRITE_DOCS=1 cargo test -p saikoro-bot --test bot docs_ writes it)"
    );
    c.shutdown().await;
}

/// The lines of a guide's per-command example block (`### One example per command`, or the
/// Japanese page's `### コマンドごとの例`).
fn example_block(text: &str) -> Vec<String> {
    let Some(at) = text
        .find("### One example per command")
        .or_else(|| text.find("### コマンドごとの例"))
    else {
        return Vec::new();
    };
    let body = &text[at..];
    let body = &body[body.find("```text\n").map_or(body.len(), |i| i + 8)..];
    let body = &body[..body.find("```").unwrap_or(body.len())];
    body.lines().map(str::to_string).collect()
}

/// Every system guide's one-example-per-command lines, English and Japanese, typed by the GM
/// into the console after the guide's first evening: each gets an answer (a refusal of a move
/// the game does not allow at that moment is one), none is refused as a malformed line, and
/// none ends in an internal error.
#[test]
fn docs_every_command_example_is_answered_after_the_first_evening() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for key in [
        "shadowrun4",
        "badlands_rally",
        "warmachine",
        "terminator",
        "mecha_d20",
    ] {
        for dir in ["docs", "docs/ja"] {
            let page = format!("{dir}/{key}.md");
            let text = std::fs::read_to_string(root().join(&page)).unwrap();
            let examples = example_block(&text);
            assert!(examples.len() >= 10, "{page}: {examples:?}");
            let first = transcripts(&text)
                .into_iter()
                .next()
                .unwrap_or_else(|| panic!("{page}: no first evening"));
            // Seeded dice: the examples roll more than the evening's fixed faces hold.
            let mut args = Vec::new();
            let mut rest = first.args.iter();
            while let Some(a) = rest.next() {
                if a == "--dice" || a == "--seed" {
                    rest.next();
                } else {
                    args.push(a.clone());
                }
            }
            args.extend(["--seed".to_string(), "1".to_string()]);
            let mut shown = first.shown.clone();
            shown.push_str("gm> as gm\n");
            for line in &examples {
                shown.push_str(&format!("gm> {line}\n"));
            }
            let out = run_console(&Transcript {
                files: first.files.clone(),
                args,
                shown,
            });
            for line in &examples {
                checked += 1;
                let Some(at) = out.find(&format!("gm> {line}\n")) else {
                    wrong.push(format!("{page}: `{line}` was not typed"));
                    continue;
                };
                let answer = &out[at + line.len() + 5..];
                let answer = &answer[..answer.find("\ngm> ").map_or(answer.len(), |e| e + 1)];
                if answer.trim().is_empty()
                    || answer.starts_with("error:")
                    || answer.contains("Something went wrong")
                    || answer.contains("エラーID")
                {
                    wrong.push(format!("{page}: `{line}`: {answer}"));
                }
            }
        }
    }
    assert!(checked >= 200, "{checked}");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

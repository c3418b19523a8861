//! The console's words around the slash lines: `press`, `complete`, `as`, `help`, `exit` — and
//! the two ways of running it, one line (`-c`, with `--press`) or lines from standard input.

use serde_json::json;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};

use super::{Console, ConsoleError, ConsoleOptions, Exchange, Who, exchange_text};

/// What one typed line did.
enum Done {
    /// Print this.
    Print(String),
    /// End the session.
    Exit,
}

fn error_line(e: &ConsoleError, json: bool) -> String {
    if json {
        json!({ "error": e.to_string() }).to_string()
    } else {
        format!("error: {e}")
    }
}

fn show(c: &Console, x: &Exchange) -> Result<String, ConsoleError> {
    let saved = c.save_attachments(x)?;
    Ok(if c.json() {
        x.json().to_string()
    } else {
        let mut text = c.readable(&exchange_text(x));
        for path in saved {
            text.push_str(&format!("\n[saved: {}]", path.display()));
        }
        text
    })
}

/// A command's (or subcommand's) name or description in the console's locale: Japanese when
/// the client's locale is Japanese and the bot registered one.
fn localized<'a>(v: &'a serde_json::Value, key: &str, ja: bool) -> &'a str {
    let own = v[key].as_str().unwrap_or_default();
    if ja {
        v[format!("{key}_localizations")]["ja"].as_str().unwrap_or(own)
    } else {
        own
    }
}

/// The commands the person typing sees, and the console's own words, in the console's locale:
/// `/roll` first, then the other commands every server has, then the systems'.
pub fn help(c: &Console) -> String {
    let ja = c.opts.locale.starts_with("ja");
    let pick = |en: &'static str, jp: &'static str| if ja { jp } else { en };
    let who = c.who().describe();
    let mut out = vec![if ja {
        format!("{who} がここで使えるコマンド:")
    } else {
        format!("Commands {who} can use here:")
    }];
    let mut commands = c.commands();
    // A stable sort: the registry's order within each group.
    commands.sort_by_key(|cmd| {
        let name = cmd["name"].as_str().unwrap_or_default();
        (name != "roll", crate::systems::of_command(name).is_some())
    });
    for cmd in &commands {
        let name = localized(cmd, "name", ja);
        let about = localized(cmd, "description", ja);
        let subs: Vec<&str> = cmd["options"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
            .map(|o| localized(o, "name", ja))
            .collect();
        if subs.is_empty() {
            out.push(format!("  /{name}  {about}"));
        } else {
            out.push(format!("  /{name} {{{}}}  {about}", subs.join(", ")));
        }
    }
    out.push(pick("Console words:", "コンソールの言葉:").into());
    out.push(
        pick(
            "  press LABEL            press a button (or pick a menu option) you can see",
            "  press ラベル           見えているボタンを押す（メニューの項目を選ぶ）",
        )
        .into(),
    );
    out.push(
        pick(
            "  complete /cmd opt:Ab   the choices the bot suggests for the last option",
            "  complete /cmd opt:Ab   最後のオプションにボットが出す候補",
        )
        .into(),
    );
    out.push(
        pick(
            "  as NAME [admin] [role:NAME]   type as someone else from now on",
            "  as 名前 [admin] [role:ロール名]   以後は別の人として入力する",
        )
        .into(),
    );
    out.push(pick("  help, exit", "  help（この一覧）、exit（終了）").into());
    out.join("\n")
}

async fn run_word(c: &mut Console, line: &str) -> Result<Done, ConsoleError> {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    match word {
        "exit" | "quit" | "/exit" | "/quit" => Ok(Done::Exit),
        "help" if rest.is_empty() => {
            let text = help(c);
            Ok(Done::Print(if c.json() {
                json!({ "help": text }).to_string()
            } else {
                text
            }))
        }
        "press" => {
            let x = c.press(rest).await?;
            Ok(Done::Print(show(c, &x)?))
        }
        "complete" => {
            let x = c.complete(rest).await?;
            Ok(Done::Print(show(c, &x)?))
        }
        "as" => {
            let who = Who::parse(rest).map_err(ConsoleError::As)?;
            let text = format!("now typing as {}", who.describe());
            let printed = if c.json() {
                json!({ "as": { "name": who.name, "admin": who.admin, "roles": who.roles } }).to_string()
            } else {
                text
            };
            c.set_who(who);
            Ok(Done::Print(printed))
        }
        _ => {
            let x = c.type_line(line).await?;
            Ok(Done::Print(show(c, &x)?))
        }
    }
}

async fn print(out: &mut (impl AsyncWrite + Unpin), text: &str) {
    let _ = out.write_all(text.as_bytes()).await;
    let _ = out.flush().await;
}

/// `-c LINE [--press LABEL]…`: run the line, then each press in order; the exit code is 0
/// when every one was answered, 1 when the console refused one (the rest are not run).
pub async fn run_once(
    opts: ConsoleOptions,
    text: &str,
    presses: &[String],
    out: &mut (impl AsyncWrite + Unpin),
) -> Result<i32, ConsoleError> {
    let json = opts.json;
    let mut console = Console::start(opts).await?;
    let mut code = 0;
    let lines = std::iter::once(text.to_string()).chain(presses.iter().map(|p| format!("press {p}")));
    for l in lines {
        match run_word(&mut console, l.trim()).await {
            Ok(Done::Print(s)) => print(out, &format!("{s}\n")).await,
            Ok(Done::Exit) => break,
            Err(e) => {
                print(out, &format!("{}\n", error_line(&e, json))).await;
                code = 1;
                break;
            }
        }
    }
    console.shutdown().await;
    Ok(code)
}

/// How a stdin session shows itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mode {
    /// A person at a terminal: a banner, and a prompt before each line.
    pub interactive: bool,
    /// Print each line read after the prompt, as a terminal would show it typed.
    pub echo: bool,
}

/// Read lines until `exit` or end of input; a bad line prints an error line and the session
/// goes on.
pub async fn run_session(
    opts: ConsoleOptions,
    input: impl AsyncBufRead + Unpin,
    out: &mut (impl AsyncWrite + Unpin),
    mode: Mode,
) -> Result<i32, ConsoleError> {
    let interactive = mode.interactive;
    let json = opts.json;
    let mut console = Console::start(opts).await?;
    if interactive {
        let banner = format!(
            "Saikoro console: the real bot on a fake Discord, typing as {}. Try /roll dice:2d6, `help`, `exit`.\n",
            console.who().describe()
        );
        print(out, &banner).await;
    }
    let mut input = input;
    let mut raw = Vec::new();
    loop {
        if interactive {
            print(out, &format!("{}> ", console.who().name)).await;
        }
        raw.clear();
        match input.read_until(b'\n', &mut raw).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        // A byte that is not UTF-8 is shown as �, never the end of the session.
        let l = String::from_utf8_lossy(&raw);
        let l = l.trim();
        if mode.echo && !interactive {
            print(out, &format!("{}> {l}\n", console.who().name)).await;
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        match run_word(&mut console, l).await {
            Ok(Done::Print(s)) => print(out, &format!("{s}\n")).await,
            Ok(Done::Exit) => break,
            Err(e) => print(out, &format!("{}\n", error_line(&e, json))).await,
        }
    }
    if interactive {
        print(out, "\n").await;
    }
    console.shutdown().await;
    Ok(0)
}

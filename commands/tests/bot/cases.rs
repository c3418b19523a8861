//! The fixed-dice case files in `tests/cases/*.toml` (one per game system, as BCDice keeps its
//! tests), run through the console: each case gets a fresh bot against the fake Discord, its
//! setup lines, its dice queued, its line typed, and every expectation checked. All failures of
//! all files are reported together; so are dice a case listed but did not roll, and a file with
//! no case. The format is in `tests/cases/README.md`.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use futures::stream::{self, StreamExt};
use saikoro_bot::console::{Console, ConsoleOptions, reply_text};
use saikoro_bot::fake_discord::Reply;
use serde::Deserialize;
use serde_json::Value;

use crate::support::e2e::{player, system_console_with};

/// Cases run at once (each is its own console); the CI machines have two cores.
const PARALLEL: usize = 4;

/// The one way the console lets a test see the fixed dice left: roll them off one at a time.
/// Any face up to 1000 fits a d1000; an empty queue is refused with "the fixed dice ran out".
const PROBE: &str = "/roll dice:1d1000";
/// Most leftover faces listed before giving up on counting.
const PROBE_MAX: usize = 50;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    system: String,
    #[serde(default)]
    case: Vec<Case>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    /// Typed by the GM before the line, in order; none may be refused.
    #[serde(default)]
    setup: Vec<String>,
    /// The faces the setup lines roll, in order; all must be used by the setup.
    #[serde(default)]
    setup_dice: Vec<u32>,
    /// `gm` (the default: the console's user, with Manage Server) or a player's name.
    #[serde(default)]
    user: Option<String>,
    line: String,
    /// The faces the line rolls, in order; all must be used.
    #[serde(default)]
    dice: Vec<u32>,
    /// JSON pointers into the outcome (`"/hits" = 2`), `title_contains`, `text_contains`,
    /// `error`.
    expect: BTreeMap<String, toml::Value>,
}

/// What a case expects, read from its `[case.expect]` table.
#[derive(Debug, Default)]
struct Expect {
    error: Option<String>,
    title_contains: Vec<String>,
    text_contains: Vec<String>,
    fields: Vec<(String, Value)>,
}

fn strings(key: &str, v: &toml::Value) -> Result<Vec<String>, String> {
    match v {
        toml::Value::String(s) => Ok(vec![s.clone()]),
        toml::Value::Array(a) => a
            .iter()
            .map(|s| {
                s.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("`{key}` takes strings, not {s}"))
            })
            .collect(),
        other => Err(format!(
            "`{key}` takes a string or a list of strings, not {other}"
        )),
    }
}

impl Expect {
    fn read(table: &BTreeMap<String, toml::Value>) -> Result<Expect, String> {
        let mut e = Expect::default();
        for (key, v) in table {
            match key.as_str() {
                "error" => {
                    let s = v.as_str().ok_or("`error` takes a string")?;
                    e.error = Some(s.to_string());
                }
                "title_contains" => e.title_contains = strings(key, v)?,
                "text_contains" => e.text_contains = strings(key, v)?,
                k if k.starts_with('/') => {
                    let json = serde_json::to_value(v).map_err(|err| format!("`{k}`: {err}"))?;
                    e.fields.push((k.to_string(), json));
                }
                k => {
                    return Err(format!(
                        "unknown expectation `{k}` (outcome fields are JSON pointers: \"/{k}\")"
                    ));
                }
            }
        }
        if e.error.is_some() && (!e.fields.is_empty() || !e.title_contains.is_empty()) {
            return Err("`error` checks a refusal: it takes no outcome field or title".into());
        }
        if e.error.is_none()
            && e.fields.is_empty()
            && e.title_contains.is_empty()
            && e.text_contains.is_empty()
        {
            return Err("`expect` checks nothing".into());
        }
        Ok(e)
    }
}

/// Every `*.toml` in `tests/cases/`, sorted.
fn case_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

/// A file's name for the report: `shadowrun4.toml`.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Read and check one file: its `system` matches its name, it has cases, names are unique and
/// every `expect` table is well formed. `Err` lists what is wrong with the file itself.
fn load(path: &Path) -> Result<(CaseFile, Vec<Expect>), Vec<String>> {
    let name = file_name(path);
    let text = std::fs::read_to_string(path).map_err(|e| vec![format!("{name}: {e}")])?;
    let file: CaseFile = toml::from_str(&text).map_err(|e| vec![format!("{name}: {e}")])?;
    let mut problems = Vec::new();
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
    if stem.as_deref() != Some(file.system.as_str()) {
        problems.push(format!(
            "{name}: system = \"{}\" but the file is named for `{}`",
            file.system,
            stem.unwrap_or_default()
        ));
    }
    if file.case.is_empty() {
        problems.push(format!("{name}: the file has no [[case]]"));
    }
    let mut seen = HashSet::new();
    let mut expects = Vec::new();
    for case in &file.case {
        if !seen.insert(case.name.as_str()) {
            problems.push(format!("{name} · {}: the name is used twice", case.name));
        }
        match Expect::read(&case.expect) {
            Ok(e) => expects.push(e),
            Err(e) => problems.push(format!("{name} · {}: {e}", case.name)),
        }
    }
    if problems.is_empty() {
        Ok((file, expects))
    } else {
        Err(problems)
    }
}

/// A value for a report line: JSON, cut to a readable length.
fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 300 {
        format!("{}…", s.chars().take(300).collect::<String>())
    } else {
        s
    }
}

/// The reply as the console prints it, on one line for a report.
fn one_line(r: &Reply) -> String {
    show(&Value::String(reply_text(r)))
}

/// Roll off whatever faces are still queued: `Ok` with the faces found (empty: none left).
async fn leftover(c: &mut Console) -> Result<Vec<u32>, String> {
    let gm = c.invoker();
    let mut left = Vec::new();
    while left.len() < PROBE_MAX {
        let (id, r) = c
            .send_as(PROBE, &gm)
            .await
            .map_err(|e| format!("`{PROBE}` (counting dice left): {e}"))?;
        if r.ephemeral && r.content().contains("ran out") {
            return Ok(left);
        }
        let face = c
            .take_outcome(id)
            .as_ref()
            .and_then(|o| o.pointer("/lines/0/groups/0/dice/0/face"))
            .and_then(Value::as_u64)
            .ok_or_else(|| {
                format!(
                    "`{PROBE}` (counting dice left) answered {} (a face that fits no die?)",
                    one_line(&r)
                )
            })?;
        left.push(u32::try_from(face).unwrap_or(u32::MAX));
    }
    Ok(left)
}

/// Run one case on a fresh console; every failed check is one line of the result.
async fn run_case(file: &str, case: &Case, expect: &Expect) -> Vec<String> {
    let at = format!("{file} · {}", case.name);
    let mut c = system_console_with(ConsoleOptions {
        dice: Some(vec![]),
        user: "gm".into(),
        admin: true,
        ..Default::default()
    })
    .await;
    let failures = check_case(&mut c, case, expect).await;
    c.shutdown().await;
    failures.into_iter().map(|f| format!("{at}: {f}")).collect()
}

async fn check_case(c: &mut Console, case: &Case, expect: &Expect) -> Vec<String> {
    let mut failures = Vec::new();
    let gm = c.invoker();
    c.queue_dice(case.setup_dice.iter().copied());
    for line in &case.setup {
        match c.send_as(line, &gm).await {
            Ok((_, r)) if r.ephemeral => {
                return vec![format!("setup `{line}` was refused: {}", one_line(&r))];
            }
            Ok(_) => {}
            Err(e) => return vec![format!("setup `{line}`: {e}")],
        }
    }
    if !case.setup_dice.is_empty() {
        match leftover(c).await {
            Ok(left) if left.is_empty() => {}
            Ok(left) => {
                return vec![format!(
                    "setup_dice {:?}: the setup left {left:?} unrolled",
                    case.setup_dice
                )];
            }
            Err(e) => return vec![e],
        }
    }

    let who = match case.user.as_deref() {
        None | Some("gm") => gm,
        Some(name) => player(c, name),
    };
    c.queue_dice(case.dice.iter().copied());
    let (id, reply) = match c.send_as(&case.line, &who).await {
        Ok(x) => x,
        Err(e) => return vec![format!("`{}`: {e}", case.line)],
    };
    let outcome = c.take_outcome(id);
    let refused = reply.ephemeral && reply.embeds().is_empty();
    let text = reply_text(&reply);

    if let Some(error) = &expect.error {
        if !refused {
            failures.push(format!(
                "error: expected a refusal containing {error:?}, got {}",
                one_line(&reply)
            ));
        } else if !reply.content().contains(error.as_str()) {
            failures.push(format!("error: expected {error:?}, actual {:?}", reply.content()));
        }
    } else if refused {
        failures.push(format!("refused: {}", one_line(&reply)));
    } else {
        let title = reply
            .embeds()
            .first()
            .and_then(|e| e["title"].as_str())
            .unwrap_or_default();
        for want in &expect.title_contains {
            if !title.contains(want.as_str()) {
                failures.push(format!("title_contains: expected {want:?}, actual {title:?}"));
            }
        }
        match &outcome {
            None if !expect.fields.is_empty() => {
                failures.push("the command reported no outcome".to_string());
            }
            None => {}
            Some(o) => {
                let mut missing = false;
                for (pointer, want) in &expect.fields {
                    match o.pointer(pointer) {
                        Some(got) if got == want => {}
                        Some(got) => failures.push(format!(
                            "{pointer}: expected {}, actual {}",
                            show(want),
                            show(got)
                        )),
                        None => {
                            missing = true;
                            failures.push(format!("{pointer}: expected {}, actual (missing)", show(want)));
                        }
                    }
                }
                if missing {
                    failures.push(format!("(the outcome: {})", show(o)));
                }
            }
        }
    }
    for want in &expect.text_contains {
        if !text.contains(want.as_str()) {
            failures.push(format!(
                "text_contains: expected {want:?}, actual {}",
                one_line(&reply)
            ));
        }
    }

    match leftover(c).await {
        Ok(left) if left.is_empty() => {}
        Ok(left) => failures.push(format!(
            "dice {:?}: {} listed but not rolled: {left:?}",
            case.dice,
            left.len()
        )),
        Err(e) => failures.push(e),
    }
    failures
}

#[tokio::test]
async fn every_case_file_passes() {
    let started = std::time::Instant::now();
    let files = case_files();
    assert!(!files.is_empty(), "no case file in tests/cases/");
    let mut failures = Vec::new();
    let mut cases = Vec::new();
    let mut summary = String::new();
    for path in &files {
        match load(path) {
            Ok((file, expects)) => {
                let name = file_name(path);
                let _ = write!(summary, " {name}: {}", file.case.len());
                for (case, expect) in file.case.into_iter().zip(expects) {
                    cases.push((name.clone(), case, expect));
                }
            }
            Err(problems) => failures.extend(problems),
        }
    }
    let total = cases.len();
    let results: Vec<Vec<String>> = stream::iter(&cases)
        .map(|(file, case, expect)| run_case(file, case, expect))
        .buffered(PARALLEL)
        .collect()
        .await;
    let broken = results.iter().filter(|r| !r.is_empty()).count();
    let file_problems = failures.len();
    failures.extend(results.into_iter().flatten());
    eprintln!(
        "cases:{summary} ({total} cases, {broken} failed, {:.1?})",
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{broken} of {total} cases failed, {file_problems} problem(s) in the files themselves:\n{}",
        failures.join("\n")
    );
}

/// Every system with commands of its own keeps a case file named by its key (the checklist in
/// README's "Adding a game system").
#[test]
fn every_system_with_commands_has_a_case_file() {
    let names: HashSet<String> = case_files()
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    for id in engine::session::SystemId::ALL {
        if !saikoro_bot::systems::bot(id).commands().is_empty() {
            assert!(
                names.contains(id.key()),
                "tests/cases/{}.toml is missing",
                id.key()
            );
        }
    }
}

//! The pages under `docs/` that the bot writes itself, and the checks that keep every page
//! honest (issue 34). Generated from what the bot already knows, so they cannot drift: the
//! command reference (names, options, descriptions in both languages, from the command trees
//! the bot registers), the house options (from the options registry), the option table in each
//! system's guide (between `<!-- generated: options KEY -->` and `<!-- generated: end -->`;
//! `evenings KEY` its "Between evenings" lists),
//! and the `/odds` chart on the front page (drawn by the chart code `/odds` sends).
//!
//! `cargo test -p saikoro-bot --lib docs` fails when a committed page is not what the bot
//! would write; `SAIKORO_WRITE_DOCS=1 cargo test -p saikoro-bot --lib docs` rewrites them.
//! The same tests check every link between the pages.

use std::path::{Path, PathBuf};

use engine::i18n::Lang;
use engine::session::SystemId;
use engine::systems::rules::HouseOption;
use serde_json::Value;

/// The repository's root (the bot crate is `commands/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `docs/` for English, `docs/ja/` for Japanese.
fn dir(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "docs",
        Lang::Ja => "docs/ja",
    }
}

/// A table cell: one line, no column break.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// The Japanese of a `*_localizations` map, if any.
fn ja<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v[format!("{key}_localizations").as_str()]["ja"].as_str()
}

/// A name or description in `lang` (English when no Japanese is registered).
fn text_in<'a>(v: &'a Value, key: &str, lang: Lang) -> &'a str {
    let en = v[key].as_str().unwrap_or_default();
    match lang {
        Lang::En => en,
        Lang::Ja => ja(v, key).unwrap_or(en),
    }
}

/// A name as the reader's client shows it; in Japanese the English one follows, since both
/// work when typed (`式` (`dice`)).
fn name_in(v: &Value, lang: Lang) -> String {
    let en = v["name"].as_str().unwrap_or_default();
    match (lang, ja(v, "name")) {
        (Lang::Ja, Some(j)) if j != en => format!("`{j}` (`{en}`)"),
        _ => format!("`{en}`"),
    }
}

fn type_name(t: u64, lang: Lang) -> &'static str {
    let (en, ja) = match t {
        3 => ("text", "文字列"),
        4 => ("integer", "整数"),
        5 => ("true/false", "真偽値"),
        6 => ("member", "メンバー"),
        7 => ("channel", "チャンネル"),
        8 => ("role", "ロール"),
        9 => ("mentionable", "メンション"),
        10 => ("number", "数値"),
        11 => ("attachment", "添付ファイル"),
        _ => ("?", "?"),
    };
    lang.pick(en, ja)
}

/// An option's description with what the tree says of it besides: its range, choices and
/// autocomplete.
fn option_text(o: &Value, lang: Lang) -> String {
    let mut text = text_in(o, "description", lang).to_string();
    let mut more = Vec::new();
    // poise states the widest bounds Discord takes (±2^53) on every integer: not worth a word.
    let bound = |k: &str| o[k].as_f64().filter(|x| x.abs() < 1e15).map(|x| x.to_string());
    match (bound("min_value"), bound("max_value")) {
        (Some(a), Some(b)) => more.push(format!("{a}–{b}")),
        (Some(a), None) => more.push(lang.pick("at least ", "").to_string() + &a + lang.pick("", "以上")),
        (None, Some(b)) => more.push(lang.pick("at most ", "").to_string() + &b + lang.pick("", "以下")),
        (None, None) => {}
    }
    if let Some(choices) = o["choices"].as_array().filter(|c| !c.is_empty()) {
        let list: Vec<String> = choices.iter().map(|c| name_in(c, lang)).collect();
        more.push(format!(
            "{}{}",
            lang.pick("choices: ", "選択肢: "),
            list.join(", ")
        ));
    }
    if o["autocomplete"].as_bool() == Some(true) {
        more.push(lang.pick("autocompletes", "入力候補あり").to_string());
    }
    if !more.is_empty() {
        text = format!("{text} ({})", more.join(lang.pick("; ", "、")));
    }
    text
}

/// The rows of `v` (a command, group or subcommand) at `path`: its own row, then one per
/// option, then its subcommands'.
fn rows(v: &Value, path: &str, lang: Lang, out: &mut String) {
    let options = v["options"].as_array().cloned().unwrap_or_default();
    let subs: Vec<&Value> = options
        .iter()
        .filter(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
        .collect();
    if subs.is_empty() {
        out.push_str(&format!(
            "| `{path}` | | | {} |\n",
            cell(text_in(v, "description", lang))
        ));
        for o in &options {
            let required = if o["required"].as_bool() == Some(true) {
                lang.pick(" (required)", "（必須）")
            } else {
                ""
            };
            out.push_str(&format!(
                "| | {}{required} | {} | {} |\n",
                name_in(o, lang),
                if o["choices"].as_array().is_some_and(|c| !c.is_empty()) {
                    lang.pick("choice", "選択")
                } else {
                    type_name(o["type"].as_u64().unwrap_or(0), lang)
                },
                cell(&option_text(o, lang))
            ));
        }
    }
    for s in subs {
        rows(s, &format!("{path} {}", text_in(s, "name", lang)), lang, out);
    }
}

/// Every command the bot registers, as Discord receives it, with the system it belongs to.
fn trees() -> Vec<(Option<SystemId>, Value)> {
    crate::commands::all()
        .iter()
        .filter_map(|c| {
            let json = serde_json::to_value(c.create_as_slash_command()?).ok()?;
            Some((crate::registration::system_of(&c.name), json))
        })
        .collect()
}

const GENERATED_EN: &str = "Generated from the bot's command trees and options registry; do not edit by hand. \
     `SAIKORO_WRITE_DOCS=1 cargo test -p saikoro-bot --lib docs` writes it again, and \
     `cargo test` fails while it is not current.";
const GENERATED_JA: &str = "ボットのコマンド定義とハウスルール一覧から生成したページです。手で編集しないでください。\
     `SAIKORO_WRITE_DOCS=1 cargo test -p saikoro-bot --lib docs` で書き直せます。古いままだと `cargo test` が失敗します。";

/// `docs/reference/commands.md` in `lang`.
pub fn commands_page(lang: Lang) -> String {
    let mut out = String::new();
    out.push_str(lang.pick("# Command reference\n\n", "# コマンド一覧\n\n"));
    out.push_str(lang.pick(GENERATED_EN, GENERATED_JA));
    out.push_str("\n\n");
    out.push_str(lang.pick(
        "Every server sees the generic commands; a system's commands appear where the server's admins \
         enabled the system (`/config systems`). Each name and option works in English and Japanese \
         alike, whatever the client's language.\n",
        "共通コマンドはどのサーバーにも出ます。各システムのコマンドは、サーバー管理者がそのシステムを有効にした\
         サーバーにだけ出ます（`/設定 システム`）。コマンド名もオプション名も、クライアントの言語に関係なく日本語・英語\
         のどちらでも使えます。\n",
    ));
    let trees = trees();
    let mut groups: Vec<(String, Vec<&Value>)> = vec![(
        lang.pick("Generic commands", "共通コマンド").to_string(),
        trees
            .iter()
            .filter(|(s, _)| s.is_none())
            .map(|(_, v)| v)
            .collect(),
    )];
    for id in SystemId::ALL {
        let own: Vec<&Value> = trees
            .iter()
            .filter(|(s, _)| *s == Some(id))
            .map(|(_, v)| v)
            .collect();
        if !own.is_empty() {
            groups.push((id.rules().name(lang).to_string(), own));
        }
    }
    let header = lang.pick(
        "| command | option | type | description |\n|---|---|---|---|\n",
        "| コマンド | オプション | 型 | 説明 |\n|---|---|---|---|\n",
    );
    for (title, commands) in groups {
        out.push_str(&format!("\n## {title}\n"));
        for c in commands {
            let en = c["name"].as_str().unwrap_or_default();
            let shown = text_in(c, "name", lang);
            match lang {
                Lang::Ja if shown != en => out.push_str(&format!("\n### /{shown} (/{en})\n\n")),
                _ => out.push_str(&format!("\n### /{en}\n\n")),
            }
            out.push_str(header);
            rows(c, &format!("/{shown}"), lang, &mut out);
        }
    }
    out
}

/// One system's house options as a table.
pub fn options_table(options: &[HouseOption], lang: Lang) -> String {
    let mut out = String::from(lang.pick(
        "| option | values (first = default) | what |\n|---|---|---|\n",
        "| オプション | 値（最初が既定値） | 内容 |\n|---|---|---|\n",
    ));
    for o in options {
        let values: Vec<String> = o
            .values
            .iter()
            .map(|v| match o.value_meaning(v, lang) {
                Some(m) => format!("`{v}` ({m})"),
                None => format!("`{v}`"),
            })
            .collect();
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            o.key,
            cell(&values.join(", ")),
            cell(&match lang {
                Lang::En => o.describe(lang).to_string(),
                // A Japanese page names commands the Japanese way, as the bot's replies do.
                Lang::Ja => crate::command_names::in_japanese_text(o.describe(lang)).into_owned(),
            })
        ));
    }
    out
}

/// `docs/reference/options.md` in `lang`.
pub fn options_page(lang: Lang) -> String {
    crate::command_names::learn(&crate::commands::all());
    let mut out = String::from(lang.pick("# House options\n\n", "# ハウスルール一覧\n\n"));
    out.push_str(lang.pick(GENERATED_EN, GENERATED_JA));
    out.push_str("\n\n");
    out.push_str(lang.pick(
        "A server's admins set them with `/config option name:<option> value:<value>`; no value \
         restores the default. `/config show` lists their values on the server.\n",
        "サーバー管理者が `/設定 ハウスルール 名前:<オプション> 値:<値>` で設定します。値を省くと既定値に戻ります。\
         サーバーでの現在の値は `/設定 表示` で確認できます。\n",
    ));
    out.push_str(&all_options(lang).replace("\n### ", "\n## "));
    out
}

/// Every system's house options, a `###` heading and a table each.
fn all_options(lang: Lang) -> String {
    let mut out = String::new();
    for id in SystemId::ALL {
        let options = id.rules().house_options();
        if !options.is_empty() {
            out.push_str(&format!("\n### {}\n\n", id.rules().name(lang)));
            out.push_str(&options_table(options, lang));
        }
    }
    out
}

/// A system's "Between evenings" lists, from its `Evenings` (what carries, what a new game
/// resets, and the GM's choice of a new game or the same one), commands named as `/help`
/// names them in `lang`.
pub fn evenings_lists(id: SystemId, lang: Lang) -> String {
    let ev = id.rules().evenings();
    let shown = |l: &str| match lang {
        Lang::En => l.to_string(),
        Lang::Ja => crate::command_names::in_japanese_text(l).into_owned(),
    };
    let list = |title: &str, lines: Vec<String>| {
        let items: Vec<String> = lines.iter().map(|l| format!("- {}\n", shown(l))).collect();
        format!("\n{title}\n\n{}", items.concat())
    };
    let mut out = list(
        lang.pick("Carries:", "引き継ぐもの："),
        ev.carries_in(lang).into_iter().map(str::to_string).collect(),
    );
    out.push_str(&list(
        lang.pick("A new game starts fresh:", "新しいゲームでリセットされるもの："),
        ev.resets_in(lang).into_iter().map(str::to_string).collect(),
    ));
    if let Some(choice) = ev.choice_in(lang) {
        let lines = std::iter::once(choice)
            .chain(ev.goes_on_in(lang).into_iter().map(str::to_string))
            .collect();
        out.push_str(&list(
            lang.pick("A new game or the same one:", "新しいゲームか続きか："),
            lines,
        ));
    }
    out.push('\n');
    out
}

/// What a `<!-- generated: NAME -->` region of a page in `lang` holds: `options` (every
/// system's), `options KEY` (one system's) or `evenings KEY` (its "Between evenings").
fn region(name: &str, lang: Lang) -> Option<String> {
    if name == "options" {
        return Some(all_options(lang));
    }
    let system = |key: &str| SystemId::ALL.into_iter().find(|id| id.key() == key);
    if let Some(key) = name.strip_prefix("evenings ") {
        return Some(evenings_lists(system(key)?, lang));
    }
    let key = name.strip_prefix("options ")?;
    Some(options_table(system(key)?.rules().house_options(), lang))
}

const REGION_END: &str = "<!-- generated: end -->";

/// `text` with every generated region written afresh: a marker is a line of its own (one
/// named in prose is left alone); an unknown region is an error.
fn with_regions(text: &str, lang: Lang) -> Result<String, String> {
    let mut out = String::new();
    let mut inside: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let t = line.trim_end();
        if inside.is_some() {
            if t == REGION_END {
                out.push_str(line);
                inside = None;
            }
            continue;
        }
        out.push_str(line);
        if let Some(name) = t
            .strip_prefix("<!-- generated: ")
            .and_then(|r| r.strip_suffix(" -->"))
        {
            if name == "end" {
                return Err("an end marker without a start".into());
            }
            out.push_str(&region(name, lang).ok_or(format!("unknown region `{name}`"))?);
            inside = Some(name);
        }
    }
    match inside {
        Some(name) => Err(format!("`{name}` has no end")),
        None => Ok(out),
    }
}

/// The `/odds` chart of `2D6>=7` the front page shows, drawn as `/odds roll` draws it.
pub fn odds_chart() -> Vec<u8> {
    use crate::embeds::odds::{MAX_BINS, bins, chart};
    let o = engine::odds::roll_odds("2D6>=7").expect("2D6>=7 has odds");
    let target = o.target;
    chart::draw(&bins(&o.dist, MAX_BINS), &|v| target.is_none_or(|t| t.test(v))).expect("the chart draws")
}

/// Every Markdown page: README and everything under `docs/`.
pub fn pages() -> Vec<PathBuf> {
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
    let root = root();
    let mut out = vec![root.join("README.md")];
    walk(&root.join("docs"), &mut out);
    out.sort();
    out
}

/// The language of a page (`docs/ja/…` is Japanese).
pub fn lang_of(page: &Path) -> Lang {
    let rel = page.strip_prefix(root()).unwrap_or(page);
    if rel.starts_with("docs/ja") {
        Lang::Ja
    } else {
        Lang::En
    }
}

/// Every file the bot writes, with what it should hold: whole pages, the chart, and each page
/// with generated regions.
pub fn generated() -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    // The Japanese pages name commands in Japanese: the names must be learned first, as the
    // bot does before it serves (else the pages would depend on which test ran first).
    crate::command_names::learn(&crate::commands::all());
    let root = root();
    let mut out = Vec::new();
    for lang in [Lang::En, Lang::Ja] {
        let reference = root.join(dir(lang)).join("reference");
        out.push((reference.join("commands.md"), commands_page(lang).into_bytes()));
        out.push((reference.join("options.md"), options_page(lang).into_bytes()));
    }
    out.push((root.join("docs/img/odds-2d6.png"), odds_chart()));
    for page in pages() {
        let text = std::fs::read_to_string(&page).map_err(|e| format!("{}: {e}", page.display()))?;
        if text.contains("<!-- generated: ") {
            let fresh =
                with_regions(&text, lang_of(&page)).map_err(|e| format!("{}: {e}", page.display()))?;
            out.push((page, fresh.into_bytes()));
        }
    }
    Ok(out)
}

/// GitHub's anchor of a heading: the text as shown (code marks and link targets gone),
/// lower case, punctuation dropped, spaces as hyphens.
pub fn anchor(heading: &str) -> String {
    let mut shown = String::new();
    let mut rest = heading;
    // A link shows its text only.
    while let Some(open) = rest.find("](") {
        let close = rest[open..].find(')').map_or(rest.len(), |c| open + c + 1);
        shown.push_str(&rest[..open]);
        rest = &rest[close..];
    }
    shown.push_str(rest);
    shown
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors a page's headings make (outside code blocks), duplicates numbered as GitHub
/// numbers them.
pub fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
        }
        if in_block || !line.starts_with('#') {
            continue;
        }
        let base = anchor(line.trim_start_matches('#').trim());
        let mut a = base.clone();
        let mut n = 0;
        while out.contains(&a) {
            n += 1;
            a = format!("{base}-{n}");
        }
        out.push(a);
    }
    out
}

/// The targets of a page's Markdown links and images (outside code blocks and code spans).
pub fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        // Code spans hold examples, not links.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let target = &rest[at + 2..];
            let end = target.find(')').unwrap_or(target.len());
            out.push(target[..end].trim().to_string());
            rest = &target[end..];
        }
    }
    out
}

/// The command lines a page shows: code spans and code-block lines that start with a slash and
/// a registered command's name (English or Japanese), continuation lines (indented by two
/// spaces in a block) joined on.
pub fn command_lines(text: &str, commands: &[Value]) -> Vec<String> {
    let known = |l: &str| {
        let word = l
            .strip_prefix('/')
            .and_then(|r| r.split(char::is_whitespace).next())
            .unwrap_or("");
        commands
            .iter()
            .any(|c| c["name"] == word || ja(c, "name") == Some(word))
    };
    let mut out: Vec<String> = Vec::new();
    let mut in_block = false;
    // Whether the line before was a command, which a continuation line goes on.
    let mut continues = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continues = false;
            continue;
        }
        if in_block || line.starts_with("    /") {
            let t = line.trim_start();
            if in_block && line.starts_with("  ") && !t.starts_with('/') {
                if let Some(last) = out.last_mut().filter(|_| continues) {
                    last.push(' ');
                    last.push_str(t);
                }
                continue;
            }
            // A transcript's prompt (`gm> /roll dice:2d6`).
            let t = t
                .split_once("> /")
                .filter(|(p, _)| !p.contains(' '))
                .map_or(t.to_string(), |(_, l)| format!("/{l}"));
            continues = in_block && known(&t);
            if known(&t) {
                out.push(t);
            }
        } else {
            out.extend(
                line.split('`')
                    .skip(1)
                    .step_by(2)
                    .filter(|s| known(s))
                    .map(str::to_string),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(p: &Path) -> String {
        p.strip_prefix(root()).unwrap_or(p).display().to_string()
    }

    /// The committed pages are what the bot writes today; `SAIKORO_WRITE_DOCS=1` writes them.
    #[test]
    fn docs_generated_pages_are_current() {
        let write = std::env::var_os("SAIKORO_WRITE_DOCS").is_some();
        let mut stale = Vec::new();
        for (path, fresh) in generated().unwrap() {
            if std::fs::read(&path).ok().as_deref() == Some(&fresh[..]) {
                continue;
            }
            if write {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &fresh).unwrap();
            } else {
                stale.push(rel(&path));
            }
        }
        assert!(
            stale.is_empty(),
            "not current (SAIKORO_WRITE_DOCS=1 cargo test -p saikoro-bot --lib docs writes them): {stale:?}"
        );
    }

    /// Every relative link and image between the pages names a file that exists, and every
    /// `#anchor` a heading of its page.
    #[test]
    fn docs_links_between_pages_resolve() {
        let mut broken = Vec::new();
        let mut seen = 0;
        for page in pages() {
            let text = std::fs::read_to_string(&page).unwrap();
            for link in links(&text) {
                if link.contains("://") || link.starts_with("mailto:") {
                    continue;
                }
                seen += 1;
                let (file, hash) = link
                    .split_once('#')
                    .map_or((link.as_str(), None), |(f, h)| (f, Some(h)));
                let target = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file)
                };
                if !target.exists() {
                    broken.push(format!("{}: {link} (no such file)", rel(&page)));
                    continue;
                }
                if let Some(hash) = hash {
                    let there = std::fs::read_to_string(&target).unwrap_or_default();
                    if !anchors(&there).iter().any(|a| a == hash) {
                        broken.push(format!("{}: {link} (no such heading)", rel(&page)));
                    }
                }
            }
        }
        assert!(seen > 30, "links were not found: {seen}");
        assert!(broken.is_empty(), "broken links: {broken:#?}");
    }

    /// Each guide is in English and in Japanese (`docs/X.md` and `docs/ja/X.md`).
    #[test]
    fn docs_every_guide_is_in_both_languages() {
        let root = root();
        let mut missing = Vec::new();
        for page in pages() {
            let r = page.strip_prefix(&root).unwrap().to_path_buf();
            let other = match r.strip_prefix("docs/ja") {
                // The Japanese front page is README's twin.
                Ok(rest) if rest == Path::new("README.md") => root.join("README.md"),
                Ok(rest) => root.join("docs").join(rest),
                Err(_) if r.starts_with("docs") => root.join("docs/ja").join(r.strip_prefix("docs").unwrap()),
                Err(_) => root.join("docs/ja/README.md"),
            };
            if !other.exists() {
                missing.push(format!("{} has no {}", r.display(), rel(&other)));
            }
        }
        assert!(missing.is_empty(), "{missing:#?}");
    }

    /// README stays a front page, and keeps the two commands, of which `.ci/run` runs the test one.
    #[test]
    fn docs_readme_is_a_front_page_with_the_two_commands() {
        let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
        let lines = readme.lines().count();
        assert!(lines < 250, "README has {lines} lines");
        let start = readme.find("## The two commands\n").expect("the two commands");
        let block = &readme[start..];
        let block = &block[block.find("```sh\n").unwrap() + 6..];
        let block = &block[..block.find("```").unwrap()];
        let commands: Vec<&str> = block
            .lines()
            .map(|l| l.split('#').next().unwrap().trim())
            .collect();
        assert_eq!(commands, ["cargo run", "cargo test"]);
        let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
        let last = ci
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .unwrap();
        assert_eq!(
            last.trim(),
            commands[1],
            ".ci/run ends with README's test command"
        );
    }

    /// Every command a page shows is one the bot registers: its path, option names, choices and
    /// value types, checked by the console's parser against the schema Discord is sent. A span
    /// naming a command without options (`/sr test`) needs only the path; one with a
    /// placeholder (`…`, `[`, `<`, `|`, an empty `name:`) is a description, not an example.
    #[test]
    fn docs_command_examples_match_the_registered_commands() {
        use crate::console::line::{LineError, build};
        let commands: Vec<Value> = trees().into_iter().map(|(_, v)| v).collect();
        let users = |n: &str| crate::fake_discord::payloads::user(&crate::console::user_for(n));
        let (mut checked, mut wrong) = (0, Vec::new());
        for page in pages() {
            let text = std::fs::read_to_string(&page).unwrap();
            for line in command_lines(&text, &commands) {
                if line.contains(['…', '[', '<', '|']) || line.contains(": ") || line.ends_with(':') {
                    continue;
                }
                checked += 1;
                let has_options = line.contains(':');
                match build(&line, &commands, &users) {
                    Ok(_) => {}
                    Err(LineError::Missing(_) | LineError::MissingSubcommand(..)) if !has_options => {}
                    // A name followed by option names is a description of the command.
                    Err(LineError::Stray(_)) if !has_options => {}
                    Err(e) => wrong.push(format!("{}: `{line}`: {e}", rel(&page))),
                }
            }
        }
        assert!(checked > 250, "examples were not found: {checked}");
        assert!(
            wrong.is_empty(),
            "{} examples the bot would refuse: {wrong:#?}",
            wrong.len()
        );
    }

    #[test]
    fn anchors_are_githubs() {
        assert_eq!(
            anchor("`/odds` (`/確率`) — the exact chances"),
            "odds-確率--the-exact-chances"
        );
        assert_eq!(
            anchor("A campaign over many evenings"),
            "a-campaign-over-many-evenings"
        );
        assert_eq!(anchor("[Tests](x.md) here"), "tests-here");
        assert_eq!(anchors("# A\n```\n# no\n```\n## A\n"), ["a", "a-1"]);
        assert_eq!(links("[a](b.md) `[c](d.md)` ![e](f.png#g)"), ["b.md", "f.png#g"]);
    }

    /// The reference names every command and option in both languages, and a region outside
    /// the known ones is refused rather than left stale.
    #[test]
    fn docs_reference_names_commands_and_options_in_both_languages() {
        let en = commands_page(Lang::En);
        let ja = commands_page(Lang::Ja);
        assert!(en.contains("### /roll\n") && en.contains("| `/roll` |"), "{en}");
        assert!(en.contains("`dice` (required) | text |"), "{en}");
        assert!(
            ja.contains("### /ダイス (/roll)\n") && ja.contains("`式` (`dice`)（必須） | 文字列 |"),
            "{ja}"
        );
        assert!(en.contains("## Shadowrun 4\n") && en.contains("| `/sr test` |"));
        let opts = options_page(Lang::Ja);
        assert!(opts.contains("| `rally.recovery` | `hull_first` ("), "{opts}");
        assert!(with_regions("<!-- generated: nothing -->\n<!-- generated: end -->", Lang::En).is_err());
        let fresh = with_regions(
            "a\n<!-- generated: options warmachine -->\nold\n<!-- generated: end -->\nb",
            Lang::En,
        )
        .unwrap();
        assert!(
            fresh.contains("`wm.auto_hit_miss`") && !fresh.contains("old") && fresh.ends_with("end -->\nb")
        );
    }
}

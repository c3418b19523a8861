//! The source tree keeps its rules: the contributors' guide's Layout (`docs/contributors.md`)
//! names every module, and no source file of
//! either crate is over [`MAX_CODE_LINES`] lines of code, so the rule stays
//! kept: `cargo test -p saikoro-bot --lib source_tree`. A line of code is any line that is not
//! blank and not a comment (`//`, `///`, `//!`, or inside `/* … */`); unit tests in the file
//! count too.

use std::path::{Path, PathBuf};

const MAX_CODE_LINES: usize = 800;

/// Lines of code in `text`: neither blank nor comment.
fn code_lines(text: &str) -> usize {
    let mut in_block = false;
    text.lines()
        .filter(|line| {
            let l = line.trim();
            if in_block {
                in_block = !l.contains("*/");
                return false;
            }
            if l.starts_with("/*") {
                in_block = !l.contains("*/");
                return false;
            }
            !l.is_empty() && !l.starts_with("//")
        })
        .count()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_source_file_is_over_800_lines_of_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["src", "commands/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "the sources were not found: {}", files.len());
    let mut over = Vec::new();
    for path in files {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let n = code_lines(&text);
        if n > MAX_CODE_LINES {
            over.push(format!("{name}: {n}"));
        }
    }
    over.sort();
    assert!(
        over.is_empty(),
        "over {MAX_CODE_LINES} lines of code (split by concern): {over:?}"
    );
}

#[test]
fn comments_and_blank_lines_do_not_count() {
    let text = "//! doc\n\nfn a() {\n    // why\n    /* one\n       two */\n    1\n}\n/// doc\n";
    assert_eq!(code_lines(text), 3);
}

/// The contributors' guide's Layout names every file and folder of the engine's and the bot's
/// top folders and of both `systems/` folders, so the table stays the tree.
#[test]
fn contributors_guide_layout_names_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let guide = std::fs::read_to_string(root.join("docs/contributors.md")).expect("docs/contributors.md");
    let start = guide.find("## Layout").expect("the Layout section");
    let layout = &guide[start..];
    let layout = &layout[..layout[3..].find("\n## ").map_or(layout.len(), |i| i + 3)];
    let mut missing = Vec::new();
    for dir in ["src", "src/systems", "commands/src", "commands/src/systems"] {
        let entries = std::fs::read_dir(root.join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let shown = if entry.path().is_dir() {
                format!("`{name}/`")
            } else {
                format!("`{name}`")
            };
            // A module is also named without `.rs` (`odds` among the commands).
            let bare = format!("`{}`", name.trim_end_matches(".rs"));
            if !layout.contains(&shown) && !layout.contains(&bare) {
                missing.push(format!("{dir}/{name}"));
            }
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/contributors.md's Layout does not name {missing:?}"
    );
}

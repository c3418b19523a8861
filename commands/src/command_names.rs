//! Commands named in the reader's language: a Japanese reply says 「/セッション 参加」, not
//! `/session join` (issue 15). The names come from the same localizations the bot registers
//! (`name_localized("ja", …)` on every command, subcommand and option), so a reply and the
//! command list can never disagree.

use std::collections::HashMap;
use std::sync::OnceLock;

/// A command path (`session join`) and its options, each with its Japanese name.
#[derive(Default)]
struct Names {
    /// English path → Japanese path.
    paths: HashMap<String, String>,
    /// (English path, English option) → Japanese option.
    options: HashMap<(String, String), String>,
    /// (English path, English option, English choice) → Japanese choice (`agility` → 敏捷力).
    choices: HashMap<(String, String, String), String>,
}

/// A registered name's Japanese form (poise keeps them as (locale, name) pairs).
type Localizations = [(std::borrow::Cow<'static, str>, std::borrow::Cow<'static, str>)];

fn japanese(localizations: &Localizations) -> Option<&str> {
    localizations
        .iter()
        .find(|(locale, _)| locale == "ja")
        .map(|(_, name)| name.as_ref())
}

static NAMES: OnceLock<Names> = OnceLock::new();

/// Learns the commands' names; the bot calls it with its command list before it serves
/// (this module stays below the commands that use it). Later calls change nothing.
pub fn learn<U, E>(commands: &[poise::Command<U, E>]) {
    NAMES.get_or_init(|| {
        let mut names = Names::default();
        for c in commands {
            add(&mut names, c, "", "");
        }
        names
    });
}

/// The names learned (none before [`learn`]: every text is then left as written).
fn names() -> &'static Names {
    static NONE: OnceLock<Names> = OnceLock::new();
    NAMES.get().unwrap_or_else(|| NONE.get_or_init(Names::default))
}

fn add<U, E>(names: &mut Names, c: &poise::Command<U, E>, en_above: &str, ja_above: &str) {
    let ja_own = japanese(&c.name_localizations).unwrap_or(&c.name);
    let join = |above: &str, own: &str| {
        if above.is_empty() {
            own.to_string()
        } else {
            format!("{above} {own}")
        }
    };
    let (en, ja) = (join(en_above, &c.name), join(ja_above, ja_own));
    for p in &c.parameters {
        for choice in p.choices.iter() {
            if let Some(ja_choice) = japanese(&choice.localizations) {
                names.choices.insert(
                    (en.clone(), p.name.to_string(), choice.name.to_string()),
                    ja_choice.to_string(),
                );
            }
        }
        if let Some(ja_option) = japanese(&p.name_localizations) {
            names
                .options
                .insert((en.clone(), p.name.to_string()), ja_option.to_string());
        }
    }
    for s in &c.subcommands {
        add(names, s, &en, &ja);
    }
    names.paths.insert(en, ja);
}

/// Kana or kanji: the text is a Japanese message.
fn japanese_char(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}')
}

/// Where an option's value that starts at `from` ends: at the next option of the command
/// (` name:`), so a value may hold spaces (`weapon:Ares Predator`) and any script
/// (`攻撃側:ガンダム`); the last one at the first space, line break, code span's end or closing
/// Japanese punctuation (「… system:warmachine）」).
fn value_end(chars: &[char], from: usize) -> usize {
    let ends_text = |c: char| matches!(c, '\n' | '\r' | '`' | '）' | '」' | '』' | '】' | '、' | '。');
    let option_at = |k: usize| {
        let mut j = k;
        while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '-' || chars[j] == '_') {
            j += 1;
        }
        j > k && chars.get(j) == Some(&':')
    };
    let mut k = from;
    while k < chars.len() && !ends_text(chars[k]) {
        if chars[k] == ' ' && option_at(k + 1) {
            return k;
        }
        k += 1;
    }
    // No option follows: the value is one word.
    let mut end = from;
    while end < chars.len() && !chars[end].is_whitespace() && !ends_text(chars[end]) {
        end += 1;
    }
    end
}

/// A Japanese message with every command it mentions named the Japanese way (the path and its
/// option names and choices; other values as written): 「/session join で参加」 → 「/セッション 参加 で参加」. Text
/// without kana or kanji, and slashes that start no known command, are left alone. Every embed
/// and every command reply passes through this, so no message needs to spell the Japanese names.
pub fn in_japanese_text(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('/') || !text.chars().any(japanese_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let names = names();
    let chars: Vec<char> = text.chars().collect();
    let word_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let mut out = String::with_capacity(text.len() + 16);
    let mut i = 0;
    while i < chars.len() {
        let starts_command = chars[i] == '/'
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || matches!(chars[i - 1], '/' | ':' | '.')));
        if starts_command {
            // The words after the slash, one space apart: `/session start system:x`.
            let mut ends = Vec::new();
            let mut words = Vec::new();
            let mut j = i + 1;
            loop {
                let from = j;
                while j < chars.len() && word_char(chars[j]) {
                    j += 1;
                }
                if j == from || chars.get(j) == Some(&':') {
                    break;
                }
                words.push(chars[from..j].iter().collect::<String>());
                ends.push(j);
                if chars.get(j) == Some(&' ') && chars.get(j + 1).is_some_and(|c| c.is_ascii_lowercase()) {
                    j += 1;
                } else {
                    break;
                }
            }
            let found = (1..=words.len())
                .rev()
                .find(|&k| names.paths.contains_key(&words[..k].join(" ")));
            if let Some(k) = found {
                let path = words[..k].join(" ");
                out.push('/');
                out.push_str(&names.paths[&path]);
                i = ends[k - 1];
                // Its options, `name:value`, each a space after the last.
                while chars.get(i) == Some(&' ') {
                    let mut j = i + 1;
                    while j < chars.len() && word_char(chars[j]) {
                        j += 1;
                    }
                    if j == i + 1 || chars.get(j) != Some(&':') {
                        break;
                    }
                    let option: String = chars[i + 1..j].iter().collect();
                    out.push(' ');
                    out.push_str(
                        names
                            .options
                            .get(&(path.clone(), option.clone()))
                            .map_or(option.as_str(), String::as_str),
                    );
                    out.push(':');
                    let end = value_end(&chars, j + 1);
                    let value: String = chars[j + 1..end].iter().collect();
                    i = end;
                    // A choice reads as the Japanese list shows it (`能力値:敏捷力`).
                    match names.choices.get(&(path.clone(), option, value.clone())) {
                        Some(ja) => out.push_str(ja),
                        None => out.push_str(&value),
                    }
                }
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    std::borrow::Cow::Owned(out)
}

//! User text in our messages: names, effects, labels, comments and session names are the users'
//! own words, shown as written — never as formatting, a heading, a mention or a link.
//!
//! [`escape`] is for user text placed into a description or field value we assemble;
//! [`defuse_links`] is the last guard every embed passes through ([`super::EmbedView::to_embed`]):
//! we never write links ourselves, so any masked link (`[text](url)`) or bare URL there came
//! from a user and is shown as text.

/// Every Markdown character of `s` escaped with a backslash, so Discord shows it as typed.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '#' | '[' | ']' | '(' | ')' | '-' | '<' | '@' | ':'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `s` for an embed title: Discord renders only inline emphasis there (`*`, `_`, `~`, `` ` ``,
/// `|`), and shows any other backslash as typed, so only those are escaped (`2D6>=7` stays
/// `2D6>=7`, `2d6*2*3` keeps its stars).
pub fn escape_title(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for c in s.chars() {
        if matches!(c, '\\' | '*' | '_' | '~' | '`' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `s` with masked links (`](`) and bare URLs (`://`) broken: Discord renders neither as a link.
pub fn defuse_links(s: &str) -> String {
    if !s.contains("](") && !s.contains("://") {
        return s.to_string();
    }
    s.replace("](", "]\\(").replace("://", ":\\/\\/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_masked_link_in_a_name_is_text() {
        let name = "[Free Nitro](https://evil.example)";
        let e = escape(name);
        assert_eq!(e, r"\[Free Nitro\]\(https\://evil.example\)");
        assert!(!e.contains("]("));
        assert_eq!(
            escape("**bold** _it_ # h <@1>"),
            r"\*\*bold\*\* \_it\_ \# h \<\@1\>"
        );
        assert_eq!(escape("Ana"), "Ana");
        assert_eq!(escape_title("2D6>=7 (hit)"), "2D6>=7 (hit)");
        assert_eq!(escape_title("2d6*2*3"), "2d6\\*2\\*3");
    }

    #[test]
    fn links_we_did_not_write_are_defused() {
        assert_eq!(
            defuse_links("**[Free Nitro](https://evil.example)** — <@1>"),
            r"**[Free Nitro]\(https:\/\/evil.example)** — <@1>"
        );
        assert_eq!(defuse_links("hits **2** [5 6]"), "hits **2** [5 6]");
    }
}

//! The two languages Saikoro speaks. Messages are `match`es on [`Lang`] beside the type they
//! describe, so a missing translation is a compile error rather than a runtime fallback.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Ja,
}

impl Lang {
    /// Discord locale codes (`ja`, `en-US`, `en-GB`, …) to a language; anything else is English.
    pub fn from_locale(locale: &str) -> Lang {
        if locale.eq_ignore_ascii_case("ja") || locale.to_ascii_lowercase().starts_with("ja-") {
            Lang::Ja
        } else {
            Lang::En
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// Pick the sentence for this language.
    pub fn pick<'a>(self, en: &'a str, ja: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Ja => ja,
        }
    }
}

/// An error a user caused, explainable in either language.
pub trait Localized {
    fn localized(&self, lang: Lang) -> String;
}

/// What Japanese keyboards type for ASCII, as ASCII: full-width letters, digits and signs
/// (`４`, `＝`, `Ｄ`) and the ideographic space — the width part of Unicode's compatibility
/// form, one char for one so positions in the input stay where the user typed them.
pub fn fold_width_char(c: char) -> char {
    match c {
        '\u{3000}' => ' ',
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// [`fold_width_char`] over a whole text: how every line a player types is read (the dice
/// notation, sheets).
pub fn fold_width(s: &str) -> String {
    s.chars().map(fold_width_char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discord_locales_map_to_languages() {
        assert_eq!(Lang::from_locale("ja"), Lang::Ja);
        assert_eq!(Lang::from_locale("en-US"), Lang::En);
        assert_eq!(Lang::from_locale("fr"), Lang::En);
        assert_eq!(Lang::from_locale(""), Lang::En);
    }
}

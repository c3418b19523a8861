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

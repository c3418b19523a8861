//! The error every system's sheet parsing returns: already phrased in both languages, so the
//! registry can carry any system's refusal without knowing its error type.

use crate::i18n::{Lang, Localized};

/// A sheet problem, already phrased in both languages (systems bring their own error types).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{en}")]
pub struct SheetError {
    pub en: String,
    pub ja: String,
}

impl SheetError {
    pub fn new(en: impl Into<String>, ja: impl Into<String>) -> Self {
        SheetError {
            en: en.into(),
            ja: ja.into(),
        }
    }

    pub fn from_localized(e: &impl Localized) -> Self {
        SheetError {
            en: e.localized(Lang::En),
            ja: e.localized(Lang::Ja),
        }
    }
}

impl Localized for SheetError {
    fn localized(&self, lang: Lang) -> String {
        lang.pick(&self.en, &self.ja).to_string()
    }
}

//! The systems as a slash-command choice, built from the engine's registry (names shown in the
//! user's language): a new system appears in `/session start` and `/config` by itself.

use engine::i18n::Lang;
use engine::session::SystemId;
use std::borrow::Cow;

use poise::CommandParameterChoice;

/// A system picked from Discord's choice list (the value is its index in [`SystemId::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SystemChoice(pub SystemId);

impl poise::ChoiceParameter for SystemChoice {
    fn list() -> Cow<'static, [CommandParameterChoice]> {
        SystemId::ALL
            .into_iter()
            // Built as poise's own derive builds it (the field is hidden, not private).
            .map(|id| CommandParameterChoice {
                name: id.display_name(Lang::En).into(),
                localizations: vec![("ja".into(), id.display_name(Lang::Ja).into())].into(),
                __non_exhaustive: (),
            })
            .collect::<Vec<_>>()
            .into()
    }

    fn from_index(index: usize) -> Option<Self> {
        SystemId::ALL.get(index).copied().map(SystemChoice)
    }

    fn from_name(name: &str) -> Option<Self> {
        name.parse().ok().map(SystemChoice)
    }

    fn name(&self) -> &'static str {
        self.0.display_name(Lang::En)
    }

    fn localized_name(&self, locale: &str) -> Option<&'static str> {
        (Lang::from_locale(locale) == Lang::Ja).then(|| self.0.display_name(Lang::Ja))
    }
}

impl From<SystemChoice> for SystemId {
    fn from(c: SystemChoice) -> SystemId {
        c.0
    }
}

#[cfg(test)]
mod tests {
    use poise::ChoiceParameter;

    use super::*;

    #[test]
    fn every_registered_system_is_a_choice_in_both_languages() {
        let list = SystemChoice::list();
        assert_eq!(list.len(), SystemId::ALL.len());
        for (i, id) in SystemId::ALL.into_iter().enumerate() {
            assert_eq!(SystemChoice::from_index(i), Some(SystemChoice(id)));
            assert_eq!(list[i].name, id.display_name(Lang::En));
            assert_eq!(list[i].localizations[0].1, id.display_name(Lang::Ja));
            assert_eq!(SystemChoice::from_name(id.key()), Some(SystemChoice(id)));
        }
        assert_eq!(SystemChoice::from_index(SystemId::ALL.len()), None);
    }
}

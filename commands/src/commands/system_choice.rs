//! The systems as a slash-command choice (names shown in the user's language).

use engine::session::SystemId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum SystemChoice {
    #[name = "Badlands Rally"]
    #[name_localized("ja", "バッドランズ・ラリー")]
    BadlandsRally,
    #[name = "Shadowrun 4"]
    #[name_localized("ja", "シャドウラン第4版")]
    Shadowrun4,
    #[name = "Warmachine"]
    #[name_localized("ja", "ウォーマシン")]
    Warmachine,
    #[name = "Terminator"]
    #[name_localized("ja", "ターミネーター")]
    Terminator,
    #[name = "Mecha d20"]
    #[name_localized("ja", "メカd20")]
    MechaD20,
}

impl From<SystemChoice> for SystemId {
    fn from(c: SystemChoice) -> SystemId {
        match c {
            SystemChoice::BadlandsRally => SystemId::BadlandsRally,
            SystemChoice::Shadowrun4 => SystemId::Shadowrun4,
            SystemChoice::Warmachine => SystemId::Warmachine,
            SystemChoice::Terminator => SystemId::Terminator,
            SystemChoice::MechaD20 => SystemId::MechaD20,
        }
    }
}

//! What a continued evening of a campaign plays (issue 27, each rules file's "Between
//! evenings"): `/session start campaign:continue game:` and the offer's buttons say whether a
//! new battle, race or scenario begins or the unfinished one goes on. Only the table knows
//! whether last week's battle ended, so it is asked per evening, not a server option.

use engine::i18n::Lang;
use engine::systems::rules::{Evenings, NextGame};

/// `/session start`'s `game:` choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum NextGameChoice {
    #[name = "new"]
    #[name_localized("ja", "新しく")]
    New,
    #[name = "same"]
    #[name_localized("ja", "続き")]
    Same,
    #[name = "mid_combat"]
    #[name_localized("ja", "戦闘の途中から")]
    MidCombat,
}

impl From<NextGameChoice> for NextGame {
    fn from(c: NextGameChoice) -> NextGame {
        match c {
            NextGameChoice::New => NextGame::New,
            NextGameChoice::Same => NextGame::Same,
            NextGameChoice::MidCombat => NextGame::MidCombat,
        }
    }
}

/// What the evening plays and whether the GM said so (an unsaid choice is named, with how to
/// say the other: never play something other than what the table meant without saying so).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Told {
    pub next: NextGame,
    pub said: bool,
}

impl Told {
    /// The GM's choice, else the system's usual one.
    pub fn from(ev: &Evenings, choice: Option<NextGame>) -> Told {
        match choice {
            Some(next) => Told { next, said: true },
            None => Told {
                next: ev.usual,
                said: false,
            },
        }
    }
}

/// A choice's name as the player sees it on the command.
fn choice_name(next: NextGame, lang: Lang) -> &'static str {
    match lang {
        Lang::En => next.key(),
        Lang::Ja => next.name_ja(),
    }
}

/// The offer's continue button: `Continue: evening 3, new battle`.
pub fn button_label(ev: &Evenings, next: Option<NextGame>, evening: u32, lang: Lang) -> String {
    let Some(((en, ja), next)) = ev.game.zip(next) else {
        return match lang {
            Lang::En => format!("Continue: evening {evening}"),
            Lang::Ja => format!("続ける（第{evening}回）"),
        };
    };
    match (lang, next) {
        (Lang::En, NextGame::New) => format!("Evening {evening}: new {en}"),
        (Lang::En, NextGame::Same) => format!("Evening {evening}: same {en}"),
        (Lang::En, NextGame::MidCombat) => format!("Evening {evening}: same {en}, mid-combat"),
        (Lang::Ja, NextGame::New) => format!("第{evening}回：新しい{ja}"),
        (Lang::Ja, NextGame::Same) => format!("第{evening}回：{ja}の続き"),
        (Lang::Ja, NextGame::MidCombat) => format!("第{evening}回：{ja}の続き（戦闘中）"),
    }
}

/// The started evening's line on what it plays, `\n`-led; empty for a system with no game.
pub fn line(ev: &Evenings, told: Told, lang: Lang) -> String {
    let Some((en, ja)) = ev.game else {
        return String::new();
    };
    let mut out = match (lang, told.next, ev.keeps_turn(told.next)) {
        (Lang::En, NextGame::New, _) => format!("\nA new {en} begins."),
        (Lang::En, NextGame::MidCombat, _) if ev.fight_apart => {
            format!("\nThe {en} goes on in the middle of its fight, as the last evening left it.")
        }
        (Lang::En, _, true) => format!("\nThe unfinished {en} goes on as it was: nothing resets."),
        (Lang::En, _, false) => format!("\nThe {en} goes on; its fight ended with the last evening."),
        (Lang::Ja, NextGame::New, _) => format!("\n新しい{ja}を始めます。"),
        (Lang::Ja, NextGame::MidCombat, _) if ev.fight_apart => {
            format!("\n{ja}を戦闘の途中から、前回の終わりのまま続けます。")
        }
        (Lang::Ja, _, true) => format!("\n終わっていない{ja}をそのまま続けます（何もリセットしません）。"),
        (Lang::Ja, _, false) => format!("\n{ja}を続けます。戦闘は前回で終わりました。"),
    };
    if !told.said {
        let others: Vec<String> = ev
            .choices()
            .iter()
            .filter(|n| **n != told.next)
            .map(|n| format!("`{}`", choice_name(*n, lang)))
            .collect();
        out.push_str(&match lang {
            Lang::En => format!(
                " (Not said, so the usual; `game:` {} to choose otherwise.)",
                others.join(" or ")
            ),
            Lang::Ja => format!(
                "（指定がないので通常どおり。ほかは `ゲーム:` {}。）",
                others.join("、")
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use engine::session::SystemId;

    use super::*;

    fn evenings(system: SystemId) -> &'static Evenings {
        engine::systems::rules(system).evenings()
    }

    #[test]
    fn an_unsaid_choice_is_named_with_how_to_say_the_other() {
        let wm = evenings(SystemId::Warmachine);
        let told = Told::from(wm, None);
        assert_eq!(told.next, NextGame::New);
        assert_eq!(
            line(wm, told, Lang::En),
            "\nA new battle begins. (Not said, so the usual; `game:` `same` to choose otherwise.)"
        );
        let sr = evenings(SystemId::Shadowrun4);
        let told = Told::from(sr, None);
        assert_eq!(told.next, NextGame::Same, "a scenario usually spans evenings");
        assert_eq!(
            line(sr, told, Lang::Ja),
            "\nシナリオを続けます。戦闘は前回で終わりました。（指定がないので通常どおり。ほかは `ゲーム:` `新しく`、`戦闘の途中から`。）"
        );
    }

    #[test]
    fn a_said_choice_is_only_stated() {
        let rally = evenings(SystemId::BadlandsRally);
        let told = Told::from(rally, Some(NextGame::Same));
        assert_eq!(
            line(rally, told, Lang::En),
            "\nThe unfinished race goes on as it was: nothing resets."
        );
        // Mid-combat is the same game going on where a fight does not end with the evening.
        let told = Told::from(rally, Some(NextGame::MidCombat));
        assert_eq!(
            line(rally, told, Lang::En),
            "\nThe unfinished race goes on as it was: nothing resets."
        );
        let sr = evenings(SystemId::Shadowrun4);
        let told = Told::from(sr, Some(NextGame::MidCombat));
        assert_eq!(
            line(sr, told, Lang::En),
            "\nThe scenario goes on in the middle of its fight, as the last evening left it."
        );
    }

    #[test]
    fn free_form_rolls_have_no_game_to_choose() {
        let generic = evenings(SystemId::Generic);
        assert_eq!(line(generic, Told::from(generic, None), Lang::En), "");
        assert_eq!(button_label(generic, None, 2, Lang::En), "Continue: evening 2");
        assert!(generic.choices().is_empty());
    }

    #[test]
    fn buttons_name_the_evening_and_the_game() {
        let term = evenings(SystemId::Terminator);
        assert_eq!(
            button_label(term, Some(NextGame::Same), 3, Lang::En),
            "Evening 3: same game"
        );
        assert_eq!(
            button_label(evenings(SystemId::MechaD20), Some(NextGame::New), 2, Lang::Ja),
            "第2回：新しい戦闘"
        );
    }
}

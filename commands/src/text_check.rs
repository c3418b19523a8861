//! Every command's text options, checked before the command runs: a control character (NUL,
//! ESC, …) or an invisible direction override in any of them is refused, in the user's
//! language, with nothing done — names already were; now labels, comments, notes, effects and
//! every other free text are too.

use engine::i18n::Lang;
use engine::session::unsafe_char;
use serenity::all::{CommandDataOption, CommandDataOptionValue};

use crate::{BotError, Context};

/// The first text option (by name) holding an unsafe character.
fn offending(options: &[CommandDataOption]) -> Option<&str> {
    options.iter().find_map(|o| match &o.value {
        CommandDataOptionValue::String(s) if s.chars().any(unsafe_char) => Some(o.name.as_str()),
        CommandDataOptionValue::SubCommand(inner) | CommandDataOptionValue::SubCommandGroup(inner) => {
            offending(inner)
        }
        _ => None,
    })
}

/// poise's `command_check`: `Err` refuses the command with our sentence.
pub async fn no_unsafe_text(ctx: Context<'_>) -> Result<bool, BotError> {
    let poise::Context::Application(app) = ctx else {
        return Ok(true);
    };
    match offending(&app.interaction.data.options) {
        None => Ok(true),
        Some(name) => {
            let lang = crate::error::lang_of(ctx);
            Err(BotError::User(match lang {
                Lang::En => format!(
                    "`{name}` contains a control character or an invisible direction mark; remove it and try again."
                ),
                Lang::Ja => format!(
                    "`{name}` に制御文字か見えない書字方向の記号が含まれています。取り除いてやり直してください。"
                ),
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opt(name: &str, value: CommandDataOptionValue) -> CommandDataOption {
        serde_json::from_value(serde_json::json!({ "name": name, "type": 3, "value": "x" }))
            .map(|mut o: CommandDataOption| {
                o.value = value;
                o
            })
            .unwrap()
    }

    #[test]
    fn nested_text_with_an_override_or_a_nul_is_found() {
        let clean = opt("label", CommandDataOptionValue::String("Sword".into()));
        assert_eq!(offending(std::slice::from_ref(&clean)), None);
        for bad in ["a\u{202E}b", "nul\0", "esc\u{1b}[31m"] {
            let sub = opt(
                "test",
                CommandDataOptionValue::SubCommand(vec![
                    clean.clone(),
                    opt("comment", CommandDataOptionValue::String(bad.into())),
                ]),
            );
            assert_eq!(offending(&[sub]), Some("comment"), "{bad:?}");
        }
    }
}

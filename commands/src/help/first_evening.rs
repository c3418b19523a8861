//! A system's "first evening in five lines" on its `/help` page: five steps, each a real command
//! as typed. The steps live in each system's folder ([`SystemBot::first_evening`]); a test here
//! checks that every step names a registered command with registered options.
//!
//! [`SystemBot::first_evening`]: crate::systems::SystemBot::first_evening

use engine::i18n::Lang;
use engine::session::SystemId;

/// The field: its title and its five numbered lines, or `None` when the system has no steps.
pub fn field(id: SystemId, lang: Lang) -> Option<(String, String, bool)> {
    let steps = crate::systems::bot(id).first_evening();
    if steps.is_empty() {
        return None;
    }
    let lines: Vec<String> = steps
        .iter()
        .enumerate()
        .map(|(i, (cmd, en, ja))| format!("{}. `{cmd}` — {}", i + 1, lang.pick(en, ja)))
        .collect();
    Some((
        lang.pick("First evening in five lines", "はじめての1回を5行で")
            .to_string(),
        lines.join("\n"),
        false,
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    /// `/cmd sub opt:value opt:"two words"`: the words before the first option, and the
    /// options' names.
    fn split(step: &str) -> (Vec<String>, Vec<String>) {
        let mut path = Vec::new();
        let mut options = Vec::new();
        let mut quoted = false;
        for word in step.trim_start_matches('/').split(' ') {
            if quoted {
                quoted = !word.ends_with('"');
                continue;
            }
            match word.split_once(':') {
                Some((name, value)) => {
                    options.push(name.to_string());
                    quoted = value.starts_with('"') && !(value.len() > 1 && value.ends_with('"'));
                }
                None if options.is_empty() => path.push(word.to_string()),
                None => panic!("`{step}`: `{word}` is neither an option nor a subcommand"),
            }
        }
        (path, options)
    }

    /// The registered command (or subcommand) at `path`, as Discord receives it.
    fn find(path: &[String]) -> Option<Value> {
        let top = crate::commands::all()
            .into_iter()
            .find(|c| c.name == path[0])?
            .create_as_slash_command()?;
        let mut v = serde_json::to_value(top).ok()?;
        for name in &path[1..] {
            v = v["options"]
                .as_array()?
                .iter()
                .find(|o| o["name"] == name.as_str() && matches!(o["type"].as_u64(), Some(1 | 2)))?
                .clone();
        }
        Some(v)
    }

    #[test]
    fn every_step_is_a_registered_command_with_registered_options() {
        let mut systems = 0;
        for id in engine::session::SystemId::ALL {
            let bot = crate::systems::bot(id);
            if bot.help_topic().is_none() {
                continue;
            }
            let steps = bot.first_evening();
            assert_eq!(steps.len(), 5, "{id:?}: five steps");
            systems += 1;
            for (step, en, ja) in steps {
                assert!(!en.is_empty() && !ja.is_empty(), "{step}");
                let (path, options) = split(step);
                let command =
                    find(&path).unwrap_or_else(|| panic!("{id:?}: `{step}` is no registered command"));
                let known: Vec<&str> = command["options"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|o| o["name"].as_str())
                    .collect();
                assert!(
                    !known.is_empty() || options.is_empty(),
                    "{id:?}: `{step}` stops at a command group"
                );
                for o in &options {
                    assert!(
                        known.contains(&o.as_str()),
                        "{id:?}: `{step}`: no option `{o}` in {known:?}"
                    );
                }
                // Options that must be given are.
                for o in command["options"].as_array().into_iter().flatten() {
                    if o["required"] == true && !matches!(o["type"].as_u64(), Some(1 | 2)) {
                        let name = o["name"].as_str().unwrap_or_default();
                        assert!(
                            options.iter().any(|x| x == name),
                            "{id:?}: `{step}` leaves out `{name}`"
                        );
                    }
                }
            }
        }
        assert_eq!(systems, 5, "every system with commands has its evening");
    }

    #[test]
    fn the_page_numbers_the_steps_in_the_readers_language() {
        let id = engine::session::SystemId::ALL
            .into_iter()
            .find(|id| !crate::systems::bot(*id).first_evening().is_empty())
            .unwrap();
        let (title, en, _) = super::field(id, engine::i18n::Lang::En).unwrap();
        assert_eq!(title, "First evening in five lines");
        assert!(en.starts_with("1. `/"), "{en}");
        assert!(en.contains("\n5. `/"), "{en}");
        let (title, ja, _) = super::field(id, engine::i18n::Lang::Ja).unwrap();
        assert_eq!(title, "はじめての1回を5行で");
        assert_ne!(en, ja);
    }
}

//! Players are Discord members (issue 29): a player or a model's controller is stored as the
//! member's mention, `<@123…>`, however it was typed (`<@!123…>`, the bare user id). A name is
//! no member: `alice`, `@alice` and `Alice` would be three players, so the bot refuses them and
//! says what to type. The engine's turn and roll-off keep players as opaque text (a table
//! without Discord, the tests); the bot passes every typed player through [`member`].

use super::error::RuleError;

/// Discord's user ids are snowflakes: 17–20 digits today; 15 leaves room for old ones.
const ID_DIGITS: std::ops::RangeInclusive<usize> = 15..=20;

fn id_digits(s: &str) -> Option<u64> {
    (ID_DIGITS.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// The member `typed` names, as its mention `<@id>`: a mention (`<@id>`, `<@!id>`) or a bare
/// user id. Anything else (a name, `@name` typed without picking the member) is refused.
pub fn member(typed: &str) -> Result<String, RuleError> {
    user_id(typed)
        .map(|id| format!("<@{id}>"))
        .ok_or_else(|| RuleError::NotAMember {
            typed: typed.trim().chars().take(60).collect(),
        })
}

/// The user id of a player as stored (`<@id>`, `<@!id>` or the id), if it is a member.
pub fn user_id(player: &str) -> Option<u64> {
    let t = player.trim();
    let inner = t
        .strip_prefix("<@")
        .and_then(|r| r.strip_suffix('>'))
        .map(|r| r.trim_start_matches('!'));
    id_digits(inner.unwrap_or(t))
}

/// Each typed player as a member, in order; the first that is none is the error.
pub fn members(typed: &[String]) -> Result<Vec<String>, RuleError> {
    typed.iter().map(|t| member(t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, Localized};

    #[test]
    fn mentions_and_ids_are_one_member_and_names_are_refused() {
        let id = "123456789012345678";
        for typed in [format!("<@{id}>"), format!("<@!{id}>"), format!(" {id} ")] {
            assert_eq!(member(&typed).unwrap(), format!("<@{id}>"), "{typed}");
        }
        assert_eq!(user_id(&format!("<@{id}>")), Some(123456789012345678));
        for typed in [
            "alice",
            "@alice",
            "Alice",
            "<@alice>",
            "12345",
            "<@&123456789012345678>",
            "",
        ] {
            let e = member(typed).unwrap_err();
            assert!(matches!(e, RuleError::NotAMember { .. }), "{typed}");
        }
        let e = member("@alice").unwrap_err();
        assert!(e.localized(Lang::En).contains("@alice"), "{e}");
        assert!(e.localized(Lang::En).contains("pick"), "{e}");
        assert!(e.localized(Lang::Ja).contains("メンバー"));
        assert!(members(&["<@123456789012345678>".into(), "bob".into()]).is_err());
    }
}

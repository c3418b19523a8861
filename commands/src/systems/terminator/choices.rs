//! The fixed choices of the Terminator commands, in English and Japanese, mapped onto the
//! engine's types.

use engine::systems::terminator::{Band, Die};

/// The range band (the player measures it with the templates, §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum BandChoice {
    #[name = "CC (3+)"]
    #[name_localized("ja", "接近戦 (3+)")]
    Cc,
    #[name = "close (4+)"]
    #[name_localized("ja", "至近 (4+)")]
    Close,
    #[name = "short (5+)"]
    #[name_localized("ja", "近 (5+)")]
    Short,
    #[name = "long (6+)"]
    #[name_localized("ja", "遠 (6+)")]
    Long,
}

impl From<BandChoice> for Band {
    fn from(c: BandChoice) -> Band {
        match c {
            BandChoice::Cc => Band::Cc,
            BandChoice::Close => Band::Close,
            BandChoice::Short => Band::Short,
            BandChoice::Long => Band::Long,
        }
    }
}

/// A die of the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum DieChoice {
    #[name = "D4"]
    D4,
    #[name = "D6"]
    D6,
    #[name = "D8"]
    D8,
    #[name = "D10"]
    D10,
    #[name = "D12"]
    D12,
    #[name = "D20"]
    D20,
}

impl From<DieChoice> for Die {
    fn from(c: DieChoice) -> Die {
        match c {
            DieChoice::D4 => Die::D4,
            DieChoice::D6 => Die::D6,
            DieChoice::D8 => Die::D8,
            DieChoice::D10 => Die::D10,
            DieChoice::D12 => Die::D12,
            DieChoice::D20 => Die::D20,
        }
    }
}

/// What `/term define` defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum DefineChoice {
    #[name = "profile"]
    #[name_localized("ja", "プロフィール")]
    Profile,
    #[name = "weapon"]
    #[name_localized("ja", "武器")]
    Weapon,
    #[name = "forget"]
    #[name_localized("ja", "削除")]
    Forget,
}

/// `weapon:` autocomplete: the weapons of the `attacker:` typed (any case), by number, name and
/// power; without one, every character's weapons by name.
pub async fn autocomplete_weapon(
    ctx: crate::Context<'_>,
    partial: &str,
) -> serenity::all::CreateAutocompleteResponse {
    let lang = crate::autocomplete::lang(ctx);
    let attacker = crate::autocomplete::typed_option(ctx, "attacker").unwrap_or_default();
    let chars = roster(ctx).await;
    let choices = match chars
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(attacker.trim()))
    {
        Some((_, c)) => c.weapon_choices(partial, lang),
        None => {
            let mut out: Vec<(String, String)> = Vec::new();
            for c in chars.values() {
                for (_, name) in c.weapon_choices(partial, lang) {
                    if !out.iter().any(|(_, v)| *v == name) && out.len() < 25 {
                        let label = engine::systems::terminator::weapon::display_name(&name, lang);
                        out.push((label, name));
                    }
                }
            }
            out
        }
    };
    crate::autocomplete::response(choices)
}

/// `followers:` autocomplete: the list typed so far, completed by each friend of the
/// `character:` typed that may follow it.
pub async fn autocomplete_followers(
    ctx: crate::Context<'_>,
    partial: &str,
) -> serenity::all::CreateAutocompleteResponse {
    let commander = crate::autocomplete::typed_option(ctx, "character").unwrap_or_default();
    let chars = roster(ctx).await;
    let choices = engine::systems::terminator::character::follower_choices(&chars, &commander, partial)
        .into_iter()
        .map(|v| (v.clone(), v))
        .collect();
    crate::autocomplete::response(choices)
}

/// The channel's characters (none when the session is not a game or cannot be read).
async fn roster(ctx: crate::Context<'_>) -> super::store::Chars {
    let Ok(Some(session)) = ctx.data().store.shared_session(ctx.channel_id().get()).await else {
        return Default::default();
    };
    if session.system != engine::session::SystemId::Terminator {
        return Default::default();
    }
    // A sheet that does not read is left out rather than spoiling the list.
    session
        .roster
        .iter()
        .filter_map(|e| {
            Some((
                e.name.clone(),
                engine::systems::terminator::Character::read(&e.sheet, &e.name).ok()?,
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_maps_onto_the_engine() {
        assert_eq!(Band::from(BandChoice::Cc).threshold(), 3);
        assert_eq!(Band::from(BandChoice::Long).threshold(), 6);
        assert_eq!(Die::from(DieChoice::D20).sides(), 20);
        assert_eq!(Die::from(DieChoice::D4).sides(), 4);
    }
}

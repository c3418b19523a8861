//! What every `/sr` subcommand shares: option choices, pools from numbers or sheets, modifier
//! presets typed as a list, Edge before the roll, saving sheet changes, and the reply with
//! its buttons.
//!
//! Here: choices, characters, presets, pools and the reply; `changes.rs` Edge before the roll
//! and saving sheet changes, `edge_offers.rs` Edge after the roll (the stored actions behind
//! its buttons, and the marks that keep each use once). Callers keep the `common::` paths.

mod changes;
mod edge_offers;

pub use changes::{Op, damage_owner, edge_before, edge_before_by, roll, save_ops, save_ops_with, spend_edge};
pub use edge_offers::{
    ButtonPlace, EdgeOffer, EdgeSide, STATE_KEY, action, burn_edge_button, cheat_death_button, edge_buttons,
    edge_buttons_at, edge_dice_button, edge_roll_used, mark_edge_roll, mark_version, negate_glitch_button,
    second_chance_button, state, version_changed,
};

use engine::i18n::{Lang, Localized};
use engine::session::{Session, SessionError, SystemId};
use engine::systems::shadowrun4::character::{Attribute, Character, MissingSkill};
use engine::systems::shadowrun4::modifiers::{self, PresetChoice};
use engine::systems::shadowrun4::sheet::{self, Sheet};
use engine::systems::shadowrun4::{DicePool, RuleError};
use poise::CreateReply;
use serenity::all::{AutocompleteChoice, ButtonStyle, CreateAutocompleteResponse, CreateButton};

use crate::command_roll::CommandRoll;
use crate::embeds::EmbedView;
use crate::invocation::Invocation;

use crate::offers::Offer;
use crate::press as buttons;
use crate::{BotError, Context};

/// Most presets one option may list.
pub const MAX_PRESETS: usize = 12;

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum AttrChoice {
    #[name = "body"]
    #[name_localized("ja", "強靭力")]
    Body,
    #[name = "agility"]
    #[name_localized("ja", "敏捷力")]
    Agility,
    #[name = "reaction"]
    #[name_localized("ja", "反応力")]
    Reaction,
    #[name = "strength"]
    #[name_localized("ja", "筋力")]
    Strength,
    #[name = "charisma"]
    #[name_localized("ja", "魅力")]
    Charisma,
    #[name = "intuition"]
    #[name_localized("ja", "直観力")]
    Intuition,
    #[name = "logic"]
    #[name_localized("ja", "論理力")]
    Logic,
    #[name = "willpower"]
    #[name_localized("ja", "意志力")]
    Willpower,
    #[name = "edge"]
    #[name_localized("ja", "エッジ")]
    Edge,
    #[name = "magic"]
    #[name_localized("ja", "魔力")]
    Magic,
    #[name = "resonance"]
    #[name_localized("ja", "共振力")]
    Resonance,
}

impl AttrChoice {
    pub fn attribute(self) -> Attribute {
        match self {
            AttrChoice::Body => Attribute::Body,
            AttrChoice::Agility => Attribute::Agility,
            AttrChoice::Reaction => Attribute::Reaction,
            AttrChoice::Strength => Attribute::Strength,
            AttrChoice::Charisma => Attribute::Charisma,
            AttrChoice::Intuition => Attribute::Intuition,
            AttrChoice::Logic => Attribute::Logic,
            AttrChoice::Willpower => Attribute::Willpower,
            AttrChoice::Edge => Attribute::Edge,
            AttrChoice::Magic => Attribute::Magic,
            AttrChoice::Resonance => Attribute::Resonance,
        }
    }
}

/// Edge before the roll (seed 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum EdgeChoice {
    #[name = "push the limit"]
    #[name_localized("ja", "限界突破")]
    Push,
    #[name = "long shot"]
    #[name_localized("ja", "ロングショット")]
    LongShot,
}

/// A session character as the commands use it.
#[derive(Debug, Clone)]
pub struct Sr4Char {
    pub name: String,
    pub owner: u64,
    pub sheet: Sheet,
    pub character: Character,
}

/// A rule's refusal, with what the sheet lacked (`Agility not on Kei's sheet`) when that is
/// why: a pool of −1 is no riddle then.
pub fn rule(inv: &Invocation, e: &RuleError) -> BotError {
    let mut text = e.localized(inv.lang);
    for n in inv.take_notes() {
        text.push_str(&format!("\n⚠ {n}"));
    }
    BotError::User(text)
}

/// The channel's session, which must be a Shadowrun 4 one.
pub async fn sr_session(ctx: Context<'_>, inv: &Invocation) -> Result<std::sync::Arc<Session>, BotError> {
    let s = inv.session(ctx).await?;
    if s.system != SystemId::Shadowrun4 {
        return Err(inv.text(
            "This channel's session is not a Shadowrun 4 game.",
            "このチャンネルのセッションはシャドウラン4ではありません。",
        ));
    }
    Ok(s)
}

/// A character of the session by name.
pub fn find_char(inv: &Invocation, session: &Session, name: &str) -> Result<Sr4Char, BotError> {
    let entry = session.entry(name).ok_or_else(|| {
        inv.user_error(&SessionError::UnknownEntry {
            name: name.trim().chars().take(64).collect(),
        })
    })?;
    let (sheet, character) = sheet::character(&entry.sheet, &entry.name).map_err(|e| inv.user_error(&e))?;
    Ok(Sr4Char {
        name: entry.name.clone(),
        owner: entry.owner,
        sheet,
        character,
    })
}

/// `ranged.smartlink, ranged.aim=2` → choices. `=`, `:` or `*` before a count.
pub fn parse_presets(inv: &Invocation, text: Option<&str>) -> Result<Vec<PresetChoice>, BotError> {
    let Some(text) = text else { return Ok(Vec::new()) };
    // Read as `/roll` reads `２Ｄ６`: `ranged.aim＝２` is `ranged.aim=2` (issue 36).
    let text = engine::i18n::fold_width(text);
    let mut out = Vec::new();
    for token in text
        .split([',', ' ', '、', ';'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        let (key, count) = match token.split_once(['=', ':', '*']) {
            Some((k, c)) => {
                let n: i32 = c.trim().parse().map_err(|_| {
                    inv.text(
                        &format!("The count after `{k}` must be a whole number."),
                        &format!("`{k}` の後の数値は整数にしてください。"),
                    )
                })?;
                (k.trim(), Some(n))
            }
            None => (token, None),
        };
        let key = key.to_lowercase();
        let preset = modifiers::preset(&key).map_err(|e| rule(inv, &e))?;
        out.push(PresetChoice {
            key: preset.key.to_string(),
            count,
        });
        if out.len() > MAX_PRESETS {
            return Err(inv.text(
                &format!("At most {MAX_PRESETS} modifiers at once."),
                &format!("修正は一度に{MAX_PRESETS}個までです。"),
            ));
        }
    }
    Ok(out)
}

/// Autocomplete of modifier presets for a comma-separated list: the last item is completed.
pub async fn autocomplete_presets(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let lang = ctx.locale().map_or(Lang::En, Lang::from_locale);
    CreateAutocompleteResponse::new().set_choices(preset_choices(partial, lang))
}

/// The choices for [`autocomplete_presets`] (pure, for tests).
pub fn preset_choices(partial: &str, lang: Lang) -> Vec<AutocompleteChoice> {
    let (head, last) = match partial.rfind(',') {
        Some(i) => (format!("{}, ", partial[..i].trim_end()), partial[i + 1..].trim()),
        None => (String::new(), partial.trim()),
    };
    let (query, count) = match last.split_once(['=', ':', '*']) {
        Some((q, c)) => (q.trim(), Some(c.trim())),
        None => (last, None),
    };
    modifiers::search(query, None, 25)
        .into_iter()
        .filter_map(|p| {
            let mut value = format!("{head}{}", p.key);
            if let Some(c) = count.filter(|c| !c.is_empty()) {
                value.push_str(&format!("={c}"));
            }
            if value.chars().count() > 100 {
                return None;
            }
            let mut name = format!("{} — {}", p.key, p.name(lang));
            if p.needs_count() && count.is_none() {
                name.push_str(lang.pick(" (add =N)", "（=数値 を付ける）"));
            }
            Some(AutocompleteChoice::new(
                crate::embeds::truncate(&name, 100),
                value,
            ))
        })
        .collect()
}

/// Session character names for autocomplete (shared with `/char`).
pub async fn autocomplete_character(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    crate::autocomplete::autocomplete_entry(ctx, partial).await
}

/// Where a roll's dice come from: a number, or a character's attribute + skill (or two attributes).
#[derive(Debug, Clone, Default)]
pub struct PoolArgs<'a> {
    pub pool: Option<i64>,
    pub character: Option<&'a str>,
    pub attribute: Option<AttrChoice>,
    pub skill: Option<&'a str>,
    pub attribute2: Option<AttrChoice>,
    /// A rating in the attribute's place (matrix program, drone attribute or sensor): a number,
    /// or a name on the character's sheet (`exploit=5`).
    pub program: Option<&'a str>,
    pub modifiers: Option<&'a str>,
    /// Extra dice (±) the user adds.
    pub dice: Option<i64>,
}

/// What a pool takes from the sheet that is not there (issue 15), as the engine finds it: an
/// attribute at 0 and a skill the test defaults on are said in the reply; a skill one typo
/// from one on the sheet is refused with it.
fn sheet_gaps(
    inv: &Invocation,
    c: &Sr4Char,
    attributes: &[Attribute],
    skill: Option<&str>,
) -> Result<(), BotError> {
    let gaps = c.character.pool_gaps(attributes, skill);
    let typed: String = skill.unwrap_or("").trim().chars().take(40).collect();
    if let Some(MissingSkill::Typo { meant }) = &gaps.missing_skill {
        return Err(inv.text(
            &format!("`{typed}` is not on {}'s sheet. Did you mean `{meant}`?", c.name),
            &format!(
                "{}のシートに `{typed}` はありません。`{meant}` のことですか？",
                c.name
            ),
        ));
    }
    for a in gaps.zero_attributes {
        inv.note(match inv.lang {
            Lang::En => format!("{} not on {}'s sheet: 0 used.", a.name(Lang::En), c.name),
            Lang::Ja => format!(
                "{}のシートに{}がありません（0として計算）。",
                c.name,
                a.name(Lang::Ja)
            ),
        });
    }
    if gaps.missing_skill == Some(MissingSkill::Defaulting) {
        inv.note(match inv.lang {
            Lang::En => format!("{typed} not on {}'s sheet: defaulting (attribute − 1).", c.name),
            Lang::Ja => format!(
                "{}のシートに技能「{typed}」がありません：技能なし判定（能力値−1）。",
                c.name
            ),
        });
    }
    Ok(())
}

/// The pool and, when it came from a sheet, the character.
pub fn build_pool(
    inv: &Invocation,
    session: Option<&Session>,
    args: &PoolArgs<'_>,
) -> Result<(DicePool, Option<Sr4Char>), BotError> {
    let presets = parse_presets(inv, args.modifiers)?;
    let (pool, who) = match (args.pool, args.character) {
        (Some(_), Some(_)) => {
            return Err(inv.text(
                "Give either a pool or a character, not both.",
                "ダイスプールかキャラクターのどちらか一方を指定してください。",
            ));
        }
        (None, None) => {
            return Err(inv.text(
                "Give a pool (number of dice) or a session character.",
                "ダイスプール（ダイス数）かセッションのキャラクターを指定してください。",
            ));
        }
        (Some(n), None) => {
            let n = i32::try_from(n).unwrap_or(i32::MAX);
            let pool = DicePool::dice(n)
                .with_presets(&presets, false)
                .map_err(|e| rule(inv, &e))?;
            (pool, None)
        }
        (None, Some(name)) => {
            let session = session.ok_or_else(|| inv.no_session())?;
            let c = find_char(inv, session, name)?;
            if let Some(program) = args.program {
                if args.attribute.is_some() || args.attribute2.is_some() {
                    return Err(inv.text(
                        "Give an attribute or a program (rating), not both.",
                        "能力値かプログラム（レーティング）のどちらか一方を指定してください。",
                    ));
                }
                let skill = args.skill.ok_or_else(|| {
                    inv.text(
                        "With a program (rating), name the skill too.",
                        "プログラム（レーティング）を使うときは技能も指定してください。",
                    )
                })?;
                sheet_gaps(inv, &c, &[], Some(skill))?;
                let rating = program_rating(inv, &c, program)?;
                let pool = c
                    .character
                    .program_pool((rating.0.as_str(), rating.1), skill, &presets)
                    .map_err(|e| rule(inv, &e))?;
                let pool = match args.dice.filter(|&d| d != 0) {
                    Some(d) => pool.with_custom(
                        inv.lang.pick("Modifier", "修正"),
                        i32::try_from(d).unwrap_or(i32::MAX),
                    ),
                    None => pool,
                };
                return Ok((pool, Some(c)));
            }
            let a = args.attribute.ok_or_else(|| {
                inv.text(
                    "With a character, name the attribute (and a skill or a second attribute).",
                    "キャラクターを使うときは能力値（と技能か2つ目の能力値）を指定してください。",
                )
            })?;
            let attributes: Vec<Attribute> = std::iter::once(a.attribute())
                .chain(args.attribute2.map(|b| b.attribute()))
                .collect();
            sheet_gaps(inv, &c, &attributes, args.skill)?;
            let pool = match (args.skill, args.attribute2) {
                (Some(_), Some(_)) => {
                    return Err(inv.text(
                        "Give a skill or a second attribute, not both.",
                        "技能か2つ目の能力値のどちらか一方を指定してください。",
                    ));
                }
                (Some(skill), None) => c.character.pool(a.attribute(), skill, &presets),
                (None, Some(b)) => c.character.attribute_pool(a.attribute(), b.attribute(), &presets),
                (None, None) => {
                    return Err(inv.text(
                        "Name a skill (or a second attribute for an attribute-only test).",
                        "技能（能力値のみのテストなら2つ目の能力値）を指定してください。",
                    ));
                }
            }
            .map_err(|e| rule(inv, &e))?;
            (pool, Some(c))
        }
    };
    let pool = match args.dice.filter(|&d| d != 0) {
        Some(d) => pool.with_custom(
            inv.lang.pick("Modifier", "修正"),
            i32::try_from(d).unwrap_or(i32::MAX),
        ),
        None => pool,
    };
    Ok((pool, who))
}

/// A program (or drone/sensor) rating: a number, or a rating on the character's sheet by name.
pub fn program_rating(inv: &Invocation, c: &Sr4Char, text: &str) -> Result<(String, u32), BotError> {
    let text = text.trim();
    if let Ok(n) = text.parse::<i64>() {
        if !(0..=i64::from(engine::systems::shadowrun4::character::MAX_ATTRIBUTE)).contains(&n) {
            return Err(inv.text(
                &format!("A rating is 0 to 30, not {n}."),
                &format!("レーティングは0〜30です（{n}は使えません）。"),
            ));
        }
        return Ok((String::new(), u32::try_from(n).unwrap_or(0)));
    }
    match c.character.skill(text) {
        Some(r) => Ok((text.to_lowercase(), r)),
        None => {
            let shown: String = text.chars().take(40).collect();
            Err(inv.text(
                &format!(
                    "{} has no `{shown}` on the sheet: give its rating as a number, or add it with /char edit (`{shown}=4`).",
                    c.name
                ),
                &format!(
                    "{}のシートに `{shown}` がありません。レーティングを数値で指定するか、/char edit で追加してください（`{shown}=4`）。",
                    c.name
                ),
            ))
        }
    }
}

pub fn apply_button(id: i64, drain: bool, lang: Lang) -> CreateButton {
    let label = if drain {
        lang.pick("Apply drain", "ドレインを適用")
    } else {
        lang.pick("Apply damage", "ダメージを適用")
    };
    buttons::button(id, label, ButtonStyle::Danger)
}

/// Show the result of `roll`, tap and log it.
pub async fn reply(
    roll: CommandRoll<'_>,
    inv: &Invocation,
    session: Option<&Session>,
    view: EmbedView,
    buttons: Vec<Offer>,
    outcome: &(impl serde::Serialize + crate::log_line::LogSummary),
) -> Result<(), BotError> {
    reply_rows(roll, inv, session, view, vec![buttons], outcome).await
}

/// [`reply`] with its buttons in several rows (an attack: the roller's, the defender's).
/// The roll is logged and the pending buttons' actions stored in one write before the reply
/// goes out (the buttons need their ids); a roll the log missed is still shown, and said so.
pub async fn reply_rows(
    roll: CommandRoll<'_>,
    inv: &Invocation,
    session: Option<&Session>,
    view: EmbedView,
    offers: Vec<Vec<Offer>>,
    outcome: &(impl serde::Serialize + crate::log_line::LogSummary),
) -> Result<(), BotError> {
    let view = with_notes(view, inv.take_notes());
    let r = CreateReply::default().embed(view.to_embed());
    roll.answer_offering(inv, session, r, offers, outcome).await
}

/// An outcome as logged with the names of the other characters whose own dice are in it, so the
/// recap credits their moments to them, not to the roller (`moments.rs`): `target_name` the
/// defender, the spell's target, the opponent; `assistant_names` a teamwork test's assistants,
/// in the order of its rolls.
#[derive(serde::Serialize)]
pub struct Named<'a, T> {
    #[serde(flatten)]
    pub outcome: &'a T,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_name: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub assistant_names: &'a [String],
}

impl<'a, T> Named<'a, T> {
    pub fn target(outcome: &'a T, name: Option<&'a str>) -> Named<'a, T> {
        Named {
            outcome,
            target_name: name,
            assistant_names: &[],
        }
    }

    pub fn assistants(outcome: &'a T, names: &'a [String]) -> Named<'a, T> {
        Named {
            outcome,
            target_name: None,
            assistant_names: names,
        }
    }
}

impl<T: crate::log_line::LogSummary> crate::log_line::LogSummary for Named<'_, T> {
    fn summary(&self, lang: engine::i18n::Lang) -> String {
        self.outcome.summary(lang)
    }

    fn luck(&self) -> Option<engine::odds::LuckInput> {
        self.outcome.luck()
    }
}

/// `view` with what the sheet lacked said under the result (⚠ lines).
pub fn with_notes(mut view: EmbedView, notes: Vec<String>) -> EmbedView {
    for n in notes {
        if !view.description.is_empty() {
            view.description.push('\n');
        }
        view.description.push_str(&format!("⚠ {n}"));
    }
    view
}

/// Names in a comma-separated option.
pub fn name_list(text: Option<&str>) -> Vec<String> {
    text.map(|t| {
        t.split([',', '、'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_completion_keeps_earlier_items_and_counts() {
        let c = preset_choices("ranged.smartlink, aim=3", Lang::En);
        let v = serde_json::to_value(&c).unwrap();
        assert!(
            v.as_array()
                .unwrap()
                .iter()
                .any(|x| x["value"] == "ranged.smartlink, ranged.aim=3"),
            "{v}"
        );
        let ja = preset_choices("スマート", Lang::Ja);
        assert!(!ja.is_empty());
        assert!(preset_choices("", Lang::En).len() <= 25);
    }
}

//! What every `/sr` subcommand shares: option choices, pools from numbers or sheets, modifier
//! presets typed as a list, Edge before the roll, saving sheet changes, and the reply with
//! its buttons.

use engine::i18n::{Lang, Localized};
use engine::session::{Actor, Session, SessionError, SystemId};
use engine::systems::shadowrun4::character::{Attribute, Character, DamageReport, DamageType, MissingSkill};
use engine::systems::shadowrun4::modifiers::{self, PresetChoice};
use engine::systems::shadowrun4::sheet::{self, Sheet};
use engine::systems::shadowrun4::{DicePool, EdgeBefore, RuleError};
use poise::CreateReply;
use serenity::all::{
    AutocompleteChoice, ButtonStyle, CreateActionRow, CreateAutocompleteResponse, CreateButton,
};

use crate::embeds::EmbedView;
use crate::invocation::Invocation;
use engine::systems::rules::SessionState;
use engine::systems::shadowrun4::rules::Shadowrun4State;

use super::press_data::{EdgePress, EdgeRoll, SrPress};
use crate::offers::{self, Offer};
use crate::press as buttons;
use crate::store::{JsonText, NewAction};
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

/// A change to a character's sheet, applied inside the session transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    SpendEdge,
    /// Spend a point of Edge use that was authorised when the roll was made (a target's soak
    /// Edge asked for by its owner or the GM on `/sr attack`, first rolled after a press): no
    /// owner check against whoever spends it now, but the point must still be there.
    SpendAuthorisedEdge,
    /// Burn a point of the Edge attribute (seed 2: critical success).
    BurnEdge,
    /// Seed 2: burn a point of Edge to live through a killing blow (the character must be dead).
    CheatDeath,
    Damage(DamageType, u32),
    /// Start sustaining one more spell or complex form (−2 dice per sustained effect).
    Sustain,
    /// Drop one sustained spell or complex form.
    DropSustained,
}

/// Edge before the roll: from the character's sheet (a point is spent when the roll is saved)
/// or from `edge_rating` for a bare pool.
pub fn edge_before(
    inv: &Invocation,
    choice: Option<EdgeChoice>,
    who: Option<&Sr4Char>,
    edge_rating: Option<i64>,
) -> Result<Option<EdgeBefore>, BotError> {
    let Some(choice) = choice else { return Ok(None) };
    let long = choice == EdgeChoice::LongShot;
    match who {
        Some(c) => c
            .character
            .edge_before(long)
            .map(|(_, e)| Some(e))
            .map_err(|e| rule(inv, &e)),
        None => {
            let edge = edge_rating.ok_or_else(|| {
                inv.text(
                    "Edge with a bare pool needs edge_rating (the Edge attribute).",
                    "キャラクターなしでエッジを使うには edge_rating（【エッジ】）が必要です。",
                )
            })?;
            let edge = u32::try_from(edge).unwrap_or(0);
            Ok(Some(if long {
                EdgeBefore::LongShot { edge }
            } else {
                EdgeBefore::PushTheLimit { edge }
            }))
        }
    }
}

/// Edge before a roll is the character's owner's (or the GM's) to spend: checked before any die
/// is rolled, as the transaction that spends it checks again.
pub fn edge_before_by(
    inv: &Invocation,
    session: Option<&Session>,
    choice: Option<EdgeChoice>,
    who: Option<&Sr4Char>,
    edge_rating: Option<i64>,
) -> Result<Option<EdgeBefore>, BotError> {
    if choice.is_some()
        && let Some(c) = who
        && c.owner != inv.user
        && !session.is_some_and(|s| s.may_manage(inv.actor))
    {
        return Err(inv.user_error(&SessionError::NotOwner { name: c.name.clone() }));
    }
    edge_before(inv, choice, who, edge_rating)
}

fn rule_session(e: &impl Localized) -> SessionError {
    SessionError::Rule {
        en: e.localized(Lang::En),
        ja: e.localized(Lang::Ja),
    }
}

/// Apply `ops` to the named characters in one session transaction. Spending Edge needs the
/// character's owner or the GM. Returns the saved session and the damage reports in order.
pub async fn save_ops(
    store: &dyn crate::store::Store,
    channel: u64,
    lang: Lang,
    actor: Option<Actor>,
    session_id: i64,
    ops: &[(String, Op)],
) -> Result<(Session, Vec<(String, DamageReport, Character)>), BotError> {
    save_ops_with(store, channel, lang, actor, session_id, ops, &mut |_| Ok(())).await
}

/// [`save_ops`] plus `extra`, run in the same session transaction after the ops (the turn
/// order, the record of a roll's Edge use).
pub async fn save_ops_with(
    store: &dyn crate::store::Store,
    channel: u64,
    lang: Lang,
    actor: Option<Actor>,
    session_id: i64,
    ops: &[(String, Op)],
    extra: &mut (dyn FnMut(&mut Session) -> Result<(), SessionError> + Send),
) -> Result<(Session, Vec<(String, DamageReport, Character)>), BotError> {
    let mut reports = Vec::new();
    let saved = store
        .update_session(channel, &mut |s: &mut Session| {
            reports.clear();
            if s.id != session_id {
                return Err(SessionError::Rule {
                    en: "The session of this roll has ended.".into(),
                    ja: "このロールのセッションは終了しています。".into(),
                });
            }
            for (name, op) in ops {
                let Some(index) = s.roster.iter().position(|e| e.name == *name) else {
                    return Err(SessionError::UnknownEntry { name: name.clone() });
                };
                let entry = &s.roster[index];
                let (sh, c) = sheet::character(&entry.sheet, &entry.name).map_err(|e| rule_session(&e))?;
                if matches!(
                    op,
                    Op::SpendEdge | Op::BurnEdge | Op::CheatDeath | Op::Sustain | Op::DropSustained
                ) && let Some(a) = actor
                    && entry.owner != a.user
                    && !s.may_manage(a)
                {
                    return Err(SessionError::NotOwner { name: name.clone() });
                }
                let next = match op {
                    Op::SpendEdge | Op::SpendAuthorisedEdge => {
                        c.spend_edge().map_err(|e| rule_session(&e))?
                    }
                    Op::BurnEdge => c.burn_edge().map_err(|e| rule_session(&e))?,
                    Op::CheatDeath => c.cheat_death().map_err(|e| rule_session(&e))?,
                    Op::Sustain => c
                        .set_sustained(c.sustained.saturating_add(1))
                        .map_err(|e| rule_session(&e))?,
                    Op::DropSustained => c.drop_sustained().map_err(|e| rule_session(&e))?,
                    Op::Damage(t, boxes) => {
                        let (next, report) = c.apply_damage(*t, *boxes).map_err(|e| rule_session(&e))?;
                        reports.push((name.clone(), report, next.clone()));
                        next
                    }
                };
                s.roster[index].sheet = sheet::write(&sh, &next);
            }
            extra(s)
        })
        .await
        .map_err(|e| match e {
            crate::store::StoreError::NotFound => BotError::User(
                lang.pick(
                    "No session is running in this channel.",
                    "このチャンネルには進行中のセッションがありません。",
                )
                .to_string(),
            ),
            other => crate::invocation::store_error(other, lang),
        })?;
    Ok((saved, reports))
}

/// Spend the Edge points a command used (nothing when `names` is empty).
pub async fn spend_edge(
    ctx: Context<'_>,
    inv: &Invocation,
    session: Option<&Session>,
    names: &[String],
) -> Result<(), BotError> {
    if names.is_empty() {
        return Ok(());
    }
    let session = session.ok_or_else(|| inv.no_session())?;
    let ops: Vec<(String, Op)> = names.iter().map(|n| (n.clone(), Op::SpendEdge)).collect();
    save_ops(
        &*ctx.data().store,
        inv.channel,
        inv.lang,
        Some(inv.actor),
        session.id,
        &ops,
    )
    .await?;
    Ok(())
}

/// Roll with the bot's dice.
pub fn roll<T>(
    ctx: Context<'_>,
    f: impl FnOnce(&mut dyn engine::dice::Roller) -> Result<T, RuleError>,
) -> Result<T, RuleError> {
    ctx.data().command_dice(ctx).with(f)
}

/// Who presses an Apply damage (or drain) button for `target`: its owner (the GM for an NPC) —
/// or the roller, where the server's `sr.roller_applies_damage` is on, or when `target` is not
/// a roster character.
pub fn damage_owner(
    session: &engine::session::Session,
    target: &str,
    roller: u64,
    settings: &engine::session::ServerSettings,
) -> u64 {
    let roller_may =
        engine::systems::shadowrun4::rules::ROLLER_APPLIES_DAMAGE.value_in(&settings.house) == "on";
    match session.entry(target) {
        Some(e) if !roller_may => e.owner,
        _ => roller,
    }
}

/// A stored action behind a button, its kind and payload from the typed press; `None`
/// (logged) when the store refused.
pub async fn action(
    data: &crate::Data,
    inv_guild: Option<u64>,
    channel: u64,
    owner: u64,
    press: &SrPress,
) -> Option<i64> {
    let kind = press.kind();
    let a = new_action(inv_guild, channel, owner, press)?;
    match data.store.create_action(&a).await {
        Ok(id) => Some(id),
        Err(e) => {
            tracing::warn!(kind, "button not offered: {e}");
            None
        }
    }
}

/// The action a press makes, to store; `None` (logged) when its payload cannot be written.
fn new_action(guild: Option<u64>, channel: u64, owner: u64, press: &SrPress) -> Option<NewAction> {
    let kind = press.kind();
    match press.to_action() {
        Ok((_, payload)) => Some(NewAction {
            kind: kind.into(),
            guild,
            channel,
            owner,
            payload,
        }),
        Err(e) => {
            tracing::warn!(kind, "button not offered: {e}");
            None
        }
    }
}

pub fn second_chance_button(id: i64, lang: Lang) -> CreateButton {
    buttons::button(
        id,
        lang.pick("Second chance (Edge)", "セカンド・チャンス（エッジ）"),
        ButtonStyle::Primary,
    )
}

fn edge_dice_label(edge: u32, lang: Lang) -> String {
    match lang {
        Lang::Ja => format!("エッジ{edge}個追加（エッジ）"),
        _ => format!("+{edge} Edge dice (Edge)"),
    }
}

pub fn edge_dice_button(id: i64, edge: u32, lang: Lang) -> CreateButton {
    buttons::button(id, &edge_dice_label(edge, lang), ButtonStyle::Secondary)
}

pub fn negate_glitch_button(id: i64, lang: Lang) -> CreateButton {
    buttons::button(
        id,
        lang.pick("Negate glitch (Edge)", "グリッチ回避（エッジ）"),
        ButtonStyle::Primary,
    )
}

pub fn cheat_death_button(id: i64, lang: Lang) -> CreateButton {
    buttons::button(
        id,
        lang.pick("Cheat death (burn Edge)", "死を免れる（エッジを燃やす）"),
        ButtonStyle::Danger,
    )
}

pub fn burn_edge_button(id: i64, lang: Lang) -> CreateButton {
    buttons::button(
        id,
        lang.pick(
            "Burn Edge: critical success",
            "エッジを燃やす：クリティカル・サクセス",
        ),
        ButtonStyle::Danger,
    )
}

/// Key of the session's Shadowrun state in `Session::system_state`.
pub const STATE_KEY: &str = <Shadowrun4State as SessionState>::KEY;

/// The session's Shadowrun state (a state that does not read counts as new).
pub fn state(s: &Session) -> Shadowrun4State {
    Shadowrun4State::read_or_default(&s.system_state)
}

/// Record that Edge was used on roll `token`: refused if it already was (one use per roll,
/// whichever of its buttons was pressed first; the engine's `Shadowrun4State`). Runs inside the
/// session transaction.
pub fn mark_edge_roll(s: &mut Session, token: &str) -> Result<(), SessionError> {
    let mut st = state(s);
    st.mark_edge_roll(token).map_err(|e| SessionError::rule(&e))?;
    st.write(&mut s.system_state);
    Ok(())
}

/// Record that the result shown with `version` changed (an Edge press updated it): buttons
/// still carrying that version are refused, whoever's they are. Runs inside the session
/// transaction, in the same list as the rolls' Edge uses.
pub fn mark_version(s: &mut Session, version: &str) -> Result<(), SessionError> {
    mark_edge_roll(s, &format!("v:{version}")).map_err(|_| version_changed())
}

/// The refusal of a button whose result an Edge press changed since.
pub fn version_changed() -> SessionError {
    SessionError::Rule {
        en: "This result has changed since: use the buttons on the message as it is now.".into(),
        ja: "この結果はその後更新されています。現在のメッセージのボタンを使ってください。".into(),
    }
}

/// Whether Edge was already used on roll `token` (read from a saved session).
pub fn edge_roll_used(s: &Session, token: &str) -> bool {
    state(s).edge_roll_used(token)
}

/// Which Edge-after buttons a roll gets, and the press data they share (with the session,
/// `who`'s name and a `roll_id` that ties them together: the first pressed uses the roll's
/// Edge, the others are then refused).
pub struct EdgeOffer<'a> {
    pub who: &'a Sr4Char,
    pub roll: &'a engine::systems::shadowrun4::PoolRoll,
    /// Offer "Burn Edge: critical success" (tests only).
    pub burn: bool,
    /// Offer "Second chance" (every roll with a miss).
    pub second_chance: bool,
    /// Offer "Negate glitch" (a roll showing a glitch) and "+Edge dice" (Edge after the roll).
    pub negate: bool,
    pub session: i64,
    /// The roll the buttons act on, as their handler needs it.
    pub edge_roll: EdgeRoll,
}

/// Whose Edge a row of buttons spends on an attack: the roller's on their own roll, or the
/// defender's on the defence or the soak roll (the labels say which).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeSide {
    Own,
    Defence,
    Soak,
}

impl EdgeSide {
    fn label(self, label: &str, lang: Lang) -> String {
        let prefix = match self {
            EdgeSide::Own => "",
            EdgeSide::Defence => lang.pick("Defender: ", "防御側："),
            EdgeSide::Soak => lang.pick("Defender soak: ", "防御側の抵抗："),
        };
        format!("{prefix}{label}")
    }
}

/// Where the buttons go and whose they are.
pub struct ButtonPlace<'a> {
    pub data: &'a crate::Data,
    pub guild: Option<u64>,
    pub channel: u64,
    /// Who may press (besides the GM).
    pub owner: u64,
    pub lang: Lang,
}

/// Create the Edge-after buttons the rules allow on this roll: Second chance (a miss to
/// reroll), Negate glitch (a glitch or critical glitch, decisions "Edge"), Burn Edge for a
/// critical success. Spending needs a point left; burning needs the attribute.
pub async fn edge_buttons(ctx: Context<'_>, inv: &Invocation, offer: EdgeOffer<'_>) -> Vec<Offer> {
    let place = ButtonPlace {
        data: ctx.data(),
        guild: inv.guild,
        channel: inv.channel,
        owner: inv.user,
        lang: inv.lang,
    };
    edge_buttons_at(&place, offer, &ctx.id().to_string(), EdgeSide::Own).await
}

/// An Edge button to offer: the press it makes from the roll's shared data (the buttons of
/// one roll differ only by kind), its label and style.
type EdgeButton = (&'static str, String, ButtonStyle);

/// [`edge_buttons`] for any place and roll: `roll_id` ties the buttons of one roll together.
/// The buttons' actions are stored with the reply ([`reply_rows`]), in one write.
pub async fn edge_buttons_at(
    place: &ButtonPlace<'_>,
    offer: EdgeOffer<'_>,
    roll_id: &str,
    side: EdgeSide,
) -> Vec<Offer> {
    let c = &offer.who.character;
    let lang = place.lang;
    let mut out = Vec::new();
    if offer.roll.edge_used {
        return out;
    }
    let points = c.edge_points > 0;
    let mut kinds: Vec<EdgeButton> = Vec::new();
    if offer.second_chance && points && offer.roll.standing().any(|d| !d.is_hit()) {
        kinds.push((
            SrPress::SECOND_CHANCE,
            lang.pick("Second chance (Edge)", "セカンド・チャンス（エッジ）")
                .to_string(),
            ButtonStyle::Primary,
        ));
    }
    if offer.negate && points {
        // After the roll: add Edge dice, only they follow the rule of six (decisions "Edge").
        kinds.push((
            SrPress::EDGE_DICE,
            edge_dice_label(c.attributes.edge, lang),
            ButtonStyle::Secondary,
        ));
    }
    if offer.negate && points && offer.roll.glitch != engine::systems::shadowrun4::Glitch::None {
        kinds.push((
            SrPress::NEGATE_GLITCH,
            lang.pick("Negate glitch (Edge)", "グリッチ回避（エッジ）")
                .to_string(),
            ButtonStyle::Primary,
        ));
    }
    if offer.burn && c.attributes.edge > 0 {
        kinds.push((
            SrPress::BURN_EDGE,
            lang.pick(
                "Burn Edge: critical success",
                "エッジを燃やす：クリティカル・サクセス",
            )
            .to_string(),
            ButtonStyle::Danger,
        ));
    }
    let data = EdgePress {
        session: offer.session,
        character: offer.who.name.clone(),
        roll: offer.edge_roll,
        roll_id: Some(roll_id.to_string()),
    };
    if kinds.is_empty() {
        return out;
    }
    // Every Edge button of the roll carries the same data: serialized once (it holds the
    // whole roll), the kind tells them apart (`SrPress::from_action`).
    let payload = match JsonText::of(&data) {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!("Edge buttons not offered: {e}");
            return out;
        }
    };
    for (kind, label, style) in kinds {
        out.push(Offer::Pending {
            action: NewAction {
                kind: kind.into(),
                guild: place.guild,
                channel: place.channel,
                owner: place.owner,
                payload: payload.clone(),
            },
            label: side.label(&label, lang),
            style,
        });
    }
    out
}

pub fn apply_button(id: i64, drain: bool, lang: Lang) -> CreateButton {
    let label = if drain {
        lang.pick("Apply drain", "ドレインを適用")
    } else {
        lang.pick("Apply damage", "ダメージを適用")
    };
    buttons::button(id, label, ButtonStyle::Danger)
}

/// Show the result, tap and log it.
pub async fn reply(
    ctx: Context<'_>,
    inv: &Invocation,
    session: Option<&Session>,
    view: EmbedView,
    buttons: Vec<Offer>,
    outcome: &(impl serde::Serialize + crate::log_line::LogSummary),
) -> Result<(), BotError> {
    reply_rows(ctx, inv, session, view, vec![buttons], outcome).await
}

/// The action rows of a reply: empty rows left out, at most Discord's five.
pub fn rows(rows: Vec<Vec<CreateButton>>) -> Vec<CreateActionRow> {
    rows.into_iter()
        .filter(|r| !r.is_empty())
        .take(5)
        .map(CreateActionRow::Buttons)
        .collect()
}

/// [`reply`] with its buttons in several rows (an attack: the roller's, the defender's).
/// The roll is logged and the pending buttons' actions stored in one write before the reply
/// goes out (the buttons need their ids); a roll the log missed is still shown, and said so.
pub async fn reply_rows(
    ctx: Context<'_>,
    inv: &Invocation,
    session: Option<&Session>,
    view: EmbedView,
    offers: Vec<Vec<Offer>>,
    outcome: &(impl serde::Serialize + crate::log_line::LogSummary),
) -> Result<(), BotError> {
    ctx.data().tap(ctx.id(), outcome);
    let entry = inv.roll_entry(session, &crate::log_line::typed(ctx), outcome);
    let (buttons, logged) = offers::settle(ctx.data().store.as_ref(), offers, entry.as_ref()).await;
    let view = with_notes(view, inv.take_notes());
    let mut r = CreateReply::default().embed(view.to_embed());
    let rows = rows(buttons);
    if !rows.is_empty() {
        r = r.components(rows);
    }
    crate::reply::send(ctx, r).await?;
    inv.logged(ctx, session, logged).await;
    Ok(())
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
    use engine::systems::shadowrun4::rules::MAX_EDGE_ROLLS;

    #[test]
    fn a_rolls_edge_use_is_remembered_once_and_the_list_stays_bounded() {
        let mut s = Session::start(1, 2, "Run", SystemId::Shadowrun4, 3, 0).unwrap();
        mark_edge_roll(&mut s, "r1").unwrap();
        assert!(mark_edge_roll(&mut s, "r1").is_err());
        for i in 0..MAX_EDGE_ROLLS + 5 {
            mark_edge_roll(&mut s, &format!("x{i}")).unwrap();
        }
        let list = s.system_state[STATE_KEY]["edge_rolls"].as_array().unwrap();
        assert_eq!(list.len(), MAX_EDGE_ROLLS);
        // The oldest fell off; the session still validates (size limit).
        mark_edge_roll(&mut s, "r1").unwrap();
        assert!(s.validate().is_ok());
    }

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

//! `/wm-effect add|remove|list`: named effects on the session's models (items 12–18, WG-1–3,
//! WG-10). A preset (Dark Shroud, Kiss of Lyliss) or a name with stat changes and cannot-flags;
//! each instance keeps its own expiry; the same name never stacks (the strongest applies, the
//! list says which do not stack), different names do.

use engine::i18n::Lang;
use engine::session::SessionError;
use engine::systems::warmachine::effects::{CannotFlag, PRESETS, StatChange, preset, shown_name};
use engine::systems::warmachine::{EffectSpec, Expiry, Stat};
use serenity::all::{AutocompleteChoice, CreateAutocompleteResponse};

use super::embeds as view;
use super::store::{self, Commander, model, model_name, refusal, rule};
use super::{model_autocomplete, notice};
use crate::embeds::EmbedView;
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// When an instance ends (WG-1).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ExpiryChoice {
    #[name = "until removed"]
    #[name_localized("ja", "取り除くまで")]
    Manual,
    #[name = "end of the source's activation"]
    #[name_localized("ja", "発生源のアクティベーション終了まで")]
    EndOfActivation,
    #[name = "end of this turn"]
    #[name_localized("ja", "この手番の終了まで")]
    EndOfTurn,
    #[name = "one round (the source's next turn)"]
    #[name_localized("ja", "1ラウンド（発生源の次の手番まで）")]
    OneRound,
}

/// Autocomplete: the presets, in the asker's language.
pub async fn preset_autocomplete(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let lang = ctx.locale().map_or(Lang::En, Lang::from_locale);
    CreateAutocompleteResponse::new().set_choices(
        preset_choices(partial, lang)
            .into_iter()
            .map(|(label, key)| AutocompleteChoice::new(label, key))
            .collect(),
    )
}

pub fn preset_choices(partial: &str, lang: Lang) -> Vec<(String, String)> {
    let p = partial.trim().to_lowercase();
    PRESETS
        .iter()
        .filter(|x| {
            p.is_empty()
                || x.key.contains(&p)
                || x.en.to_lowercase().contains(&p)
                || x.ja.contains(partial.trim())
        })
        .map(|x| {
            let changes: Vec<String> = x
                .changes
                .iter()
                .map(|c| format!("{} {:+}", c.stat.abbr(), c.delta))
                .collect();
            let name = lang.pick(x.en, x.ja);
            (format!("{name} ({})", changes.join(", ")), x.key.to_string())
        })
        .collect()
}

/// `arm-2, def+1` (or `ARM -2`, `装甲-2`) → changes; each stat once.
pub fn parse_changes(typed: &str) -> Result<Vec<StatChange>, SessionError> {
    // Read as `/roll` reads `２Ｄ６`: `ARM－２` is `ARM-2` (issue 36).
    let typed = engine::i18n::fold_width(typed);
    let mut out: Vec<StatChange> = Vec::new();
    for part in typed
        .split([',', '、', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let bad = || {
            refusal(
                format!("Write each change as STAT±N (e.g. `arm-2, def+1`), not `{part}`."),
                format!(
                    "変化は「能力値±数」で書いてください（例 `装甲-2、防御値+1`）。`{part}` は読めません。"
                ),
            )
        };
        let at = part.find(['+', '-', '−']).ok_or_else(bad)?;
        let (name, num) = part.split_at(at);
        let stat = Stat::parse(name).ok_or_else(bad)?;
        let num = num.replace('−', "-");
        let delta: i32 = num.trim().parse().map_err(|_| bad())?;
        if out.iter().any(|c| c.stat == stat) {
            return Err(refusal(
                format!("{} is changed twice; give one change per stat.", stat.abbr()),
                format!(
                    "{}が2回指定されています。能力値ごとに1つにしてください。",
                    stat.abbr()
                ),
            ));
        }
        out.push(StatChange { stat, delta });
    }
    Ok(out)
}

/// Named effects on models: add, remove, list
#[poise::command(
    slash_command,
    rename = "wm-effect",
    name_localized("ja", "ウォーマシン-効果"),
    description_localized("ja", "モデルの名前付き効果：追加・削除・一覧"),
    subcommands("effect_add", "effect_remove", "effect_list"),
    subcommand_required
)]
pub async fn wm_effect(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Put an effect on a model: a preset, or a name with stat changes and cannot-flags
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "add",
    name_localized("ja", "追加"),
    description_localized(
        "ja",
        "モデルに効果を付ける：プリセットか、名前と能力値の変化・できないフラグ"
    )
)]
pub async fn effect_add(
    ctx: Context<'_>,
    #[description = "The model"]
    #[name_localized("ja", "モデル")]
    #[description_localized("ja", "モデル")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    model: String,
    #[description = "A preset (Dark Shroud, Kiss of Lyliss)"]
    #[name_localized("ja", "プリセット")]
    #[description_localized("ja", "プリセット（ダーク・シュラウド、キスオブ・リリス）")]
    #[autocomplete = "preset_autocomplete"]
    #[max_length = 60]
    preset: Option<String>,
    #[description = "Effect name (without a preset)"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "効果の名前（プリセット以外）")]
    #[max_length = 60]
    name: Option<String>,
    #[description = "Stat changes, e.g. arm-2, def+1"]
    #[name_localized("ja", "変化")]
    #[description_localized("ja", "能力値の変化（例: 装甲-2、防御値+1）")]
    #[max_length = 100]
    changes: Option<String>,
    #[description = "Cannot-flags: knockdown, boost_attack, boost_damage, additional_dice, cover, stand_up"]
    #[name_localized("ja", "できない")]
    #[description_localized(
        "ja",
        "できないこと：ノックダウン、攻撃ブースト、ダメージブースト、追加ダイス、カバー、立ち上がり（「、」区切り）"
    )]
    #[max_length = 200]
    cannot: Option<String>,
    #[description = "When it ends (default: until removed)"]
    #[name_localized("ja", "期限")]
    #[description_localized("ja", "いつ切れるか（既定は取り除くまで）")]
    expiry: Option<ExpiryChoice>,
    #[description = "The model whose rule causes it"]
    #[name_localized("ja", "発生源")]
    #[description_localized("ja", "効果の元になったモデル")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    source: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let spec = match (&preset, &name) {
        (Some(_), Some(_)) => {
            return Err(inv.text(
                "Give a preset or a name, not both.",
                "プリセットか名前のどちらかを指定してください（両方は不可）。",
            ));
        }
        (Some(p), None) => {
            let mut spec = self::preset(p).map_err(|e| inv.user_error(&e))?;
            if changes.is_some() {
                return Err(inv.text(
                    "A preset has its own changes; give a name for a different effect.",
                    "プリセットの変化は決まっています。別の効果なら名前を指定してください。",
                ));
            }
            spec.cannot = flags(cannot.as_deref());
            spec
        }
        (None, Some(n)) => EffectSpec {
            name: n.clone(),
            changes: parse_changes(changes.as_deref().unwrap_or("")).map_err(|e| store::say(&e, lang))?,
            cannot: flags(cannot.as_deref()),
        },
        (None, None) => {
            return Err(inv.text(
                "Give a preset or a name for the effect.",
                "効果のプリセットか名前を指定してください。",
            ));
        }
    };
    let expiry = expiry.unwrap_or(ExpiryChoice::Manual);
    let commander = Commander::of(ctx, &inv);
    let (_, _, (m, id)) = store::run(ctx, &inv, &mut |s, game, _r| {
        let target = model_name(s, game, &model)?;
        let src = match &source {
            Some(n) => Some(self::model(game, &model_name(s, game, n)?)?.clone()),
            None => None,
        };
        // Issue 33: a model's effects are its controller's or the GM's; a debuff another
        // model's rule puts on it is that model's controller's (`source:`).
        let on_target = commander.may_command(s, self::model(game, &target)?).is_ok();
        if !on_target && src.as_ref().is_none_or(|x| commander.may_command(s, x).is_err()) {
            return Err(not_yours(game, &target, "add"));
        }
        let turn_player = game.state.game.turn_player().map(str::to_string);
        let expiry = match expiry {
            ExpiryChoice::Manual => Expiry::Manual,
            ExpiryChoice::EndOfActivation => {
                let model = src
                    .as_ref()
                    .map(|m| m.name.clone())
                    .or_else(|| game.state.game.activation.as_ref().map(|a| a.model.clone()))
                    .ok_or_else(|| {
                        refusal(
                            "Name the source model (or activate one) for an end-of-activation effect.",
                            "「アクティベーション終了まで」には発生源のモデルを指定してください（またはアクティベーション中であること）。",
                        )
                    })?;
                Expiry::EndOfActivation { model }
            }
            ExpiryChoice::EndOfTurn => Expiry::EndOfTurn {
                player: turn_player.clone().ok_or_else(|| rule(engine::systems::warmachine::RuleError::GameNotStarted))?,
            },
            ExpiryChoice::OneRound => {
                let player = src
                    .as_ref()
                    .map(|m| m.controller.clone())
                    .filter(|c| !c.is_empty())
                    .or(turn_player.clone())
                    .ok_or_else(|| {
                        refusal(
                            "Name the source model (or start the game) for a one-round effect.",
                            "「1ラウンド」には発生源のモデルを指定してください（またはゲームを開始）。",
                        )
                    })?;
                Expiry::StartOfTurn { player }
            }
        };
        let m = game
            .models
            .get_mut(&target)
            .ok_or_else(|| rule(engine::systems::warmachine::RuleError::UnknownModel { name: target.clone() }))?;
        let id = m
            .add_effect(
                &spec,
                expiry,
                src.as_ref().map(|x| x.name.as_str()),
                src.as_ref().map(|x| x.controller.as_str()),
            )
            .map_err(rule)?;
        Ok((m.clone(), id))
    })
    .await?;
    let mut v = view::effects_view(&[&m], lang);
    v.title = match lang {
        Lang::En => format!("✨ {} #{id} on {}", spec_name(&m, id, lang), m.name),
        Lang::Ja => format!("✨ {}に{} #{id}", m.name, spec_name(&m, id, lang)),
    };
    notice(ctx, &v).await
}

/// Issue 33: changing another player's model's effects is refused, saying whose they are.
fn not_yours(game: &store::Game, model: &str, verb: &str) -> SessionError {
    let controller = game
        .models
        .get(model)
        .map(|m| m.controller.clone())
        .unwrap_or_default();
    let (en, ja) = match verb {
        "add" => (
            format!(
                "{model} is controlled by {controller}: its controller or the GM puts effects on it, or the controller of the model whose rule causes it (give source:)."
            ),
            format!(
                "{model}のコントローラーは{controller}です。効果を付けられるのはコントローラーかGM、または効果の元になったモデルのコントローラー（source: を指定）です。"
            ),
        ),
        _ => (
            format!(
                "{model} is controlled by {controller}: its controller or the GM removes its effects (or whoever controls the model that put them there)."
            ),
            format!(
                "{model}のコントローラーは{controller}です。効果を取り除けるのはコントローラーかGM（または効果の元になったモデルのコントローラー）です。"
            ),
        ),
    };
    refusal(en, ja)
}

fn spec_name(m: &engine::systems::warmachine::Model, id: u32, lang: Lang) -> String {
    m.effects
        .iter()
        .find(|e| e.id == id)
        .map(|e| shown_name(&e.name, lang).to_string())
        .unwrap_or_default()
}

fn flags(typed: Option<&str>) -> Vec<CannotFlag> {
    let mut out: Vec<CannotFlag> = Vec::new();
    for f in store::split_list(typed).into_iter().map(CannotFlag::from) {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Remove an effect (every instance) or one instance by number
#[poise::command(
    slash_command,
    rename = "remove",
    name_localized("ja", "削除"),
    description_localized("ja", "効果（全インスタンス）か番号のインスタンスを取り除く")
)]
pub async fn effect_remove(
    ctx: Context<'_>,
    #[description = "The model"]
    #[name_localized("ja", "モデル")]
    #[description_localized("ja", "モデル")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    model: String,
    #[description = "Effect name: every instance"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "効果の名前：全インスタンス")]
    #[max_length = 60]
    name: Option<String>,
    #[description = "Instance number: that one only"]
    #[name_localized("ja", "番号")]
    #[description_localized("ja", "インスタンス番号：その1つだけ")]
    #[min = 1]
    #[max = 100000]
    instance: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    if name.is_some() == instance.is_some() {
        return Err(inv.text(
            "Give the effect's name or an instance number (one of them).",
            "効果の名前かインスタンス番号のどちらか一方を指定してください。",
        ));
    }
    let commander = Commander::of(ctx, &inv);
    let (_, _, (m, gone)) = store::run(ctx, &inv, &mut |s, game, _r| {
        let target = model_name(s, game, &model)?;
        let commands = commander.may_command(s, self::model(game, &target)?).is_ok();
        let m = game.models.get_mut(&target).ok_or_else(|| {
            rule(engine::systems::warmachine::RuleError::UnknownModel { name: target.clone() })
        })?;
        let gone = match (&name, instance) {
            (Some(n), _) => m.remove_effect(n).map_err(rule)?,
            (None, Some(i)) => vec![m.remove_instance(u32::try_from(i).unwrap_or(0)).map_err(rule)?],
            (None, None) => vec![],
        };
        // Issue 33: the model's controller or the GM removes its effects; so does the
        // controller of the model whose rule put them there (every instance removed).
        let theirs = gone
            .iter()
            .all(|e| e.owner.as_deref().is_some_and(|o| commander.is_player(o)));
        if !commands && !theirs {
            return Err(not_yours(game, &target, "remove"));
        }
        Ok((m.clone(), gone))
    })
    .await?;
    let removed: Vec<String> = gone
        .iter()
        .map(|e| format!("~~{} #{}~~", shown_name(&e.name, lang), e.id))
        .collect();
    let mut v = view::effects_view(&[&m], lang);
    v.title = match lang {
        Lang::En => format!("✨ Removed from {}", m.name),
        Lang::Ja => format!("✨ {}から取り除いた", m.name),
    };
    v.description = removed.join(", ");
    notice(ctx, &v).await
}

/// Effects on a model (or every model), which apply and which do not stack
#[poise::command(
    slash_command,
    rename = "list",
    name_localized("ja", "一覧"),
    description_localized("ja", "モデル（または全モデル）の効果：適用されるものと累積しないもの")
)]
pub async fn effect_list(
    ctx: Context<'_>,
    #[description = "The model (default: every model)"]
    #[name_localized("ja", "モデル")]
    #[description_localized("ja", "モデル（既定は全モデル）")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    model: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let (s, game) = store::read(ctx, &inv).await?;
    let v: EmbedView = match &model {
        Some(n) => {
            let name = model_name(&s, &game, n).map_err(|e| store::say(&e, lang))?;
            let m = self::model(&game, &name).map_err(|e| store::say(&e, lang))?;
            view::effects_view(&[m], lang)
        }
        None => {
            let all: Vec<_> = s.roster.iter().filter_map(|e| game.models.get(&e.name)).collect();
            view::effects_view(&all, lang)
        }
    };
    notice(ctx, &v).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_read_in_both_languages_and_refuse_nonsense() {
        let c = parse_changes("arm-2, def+1").unwrap();
        assert_eq!(
            c,
            vec![
                StatChange {
                    stat: Stat::Arm,
                    delta: -2
                },
                StatChange {
                    stat: Stat::Def,
                    delta: 1
                }
            ]
        );
        assert_eq!(parse_changes("装甲−2").unwrap()[0].delta, -2);
        // Issue 36: the option's Japanese example reads as the English one.
        assert_eq!(parse_changes("装甲-2、防御値+1").unwrap(), c);
        assert_eq!(
            flags(Some(
                "ノックダウン、攻撃ブースト、ダメージブースト、追加ダイス、カバー、立ち上がり"
            )),
            CannotFlag::KNOWN.to_vec()
        );
        assert!(parse_changes("armour-2").is_err());
        assert!(parse_changes("arm-2 arm-1").is_err());
        assert!(parse_changes("arm").is_err());
        assert!(parse_changes("").unwrap().is_empty());
    }

    #[test]
    fn presets_complete_in_both_languages() {
        let en = preset_choices("dark", Lang::En);
        assert_eq!(en.len(), 1);
        assert_eq!(en[0].1, "dark_shroud");
        assert!(en[0].0.contains("ARM -2"));
        let ja = preset_choices("キス", Lang::Ja);
        assert_eq!(ja[0].1, "kiss_of_lyliss");
        assert!(ja[0].0.starts_with("キスオブ・リリス"));
        assert_eq!(preset_choices("", Lang::En).len(), PRESETS.len());
    }
}

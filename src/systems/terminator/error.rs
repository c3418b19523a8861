//! Every way a Terminator Genisys request can be refused, in English and Japanese. A transition
//! that returns one of these has changed nothing.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::dice::DiceError;
use crate::i18n::{Lang, Localized};

/// A number a request carries, named in the refusal when it is out of range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    DiceCount,
    Armour,
    Rof,
    Markers,
    Targets,
}

impl Quantity {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Quantity::DiceCount => lang.pick("number of dice", "ダイスの個数"),
            Quantity::Armour => lang.pick("armour", "アーマー"),
            Quantity::Rof => lang.pick("ROF", "射撃回数"),
            Quantity::Markers => lang.pick("number of Done markers", "ダンマーカーの数"),
            Quantity::Targets => lang.pick("number of targets", "ターゲットの数"),
        }
    }
}

/// A die the seed lost (every icon): which one a roll needed and found unset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DieField {
    Skill,
    Power,
    StoppingPower,
    Resolution,
}

impl DieField {
    /// The sheet field to set, in the language asked.
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            DieField::Skill => lang.pick("skill", "スキル"),
            DieField::Power => lang.pick("power", "パワー"),
            DieField::StoppingPower => lang.pick("stopping power", "ストッピングパワー"),
            DieField::Resolution => lang.pick("resolution", "レゾリューション"),
        }
    }
}

/// A point of the turn, named when a request comes at the wrong one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Start,
    RollOff,
    FirstPlayer,
    Fate,
    Activation,
    EndTurn,
    OnYourFeet,
}

impl Step {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Step::Start => lang.pick("the start of the game", "ゲーム開始"),
            Step::RollOff => lang.pick("the tactical roll-off", "タクティカルロールオフ"),
            Step::FirstPlayer => lang.pick("the choice of first player", "先攻プレイヤーの選択"),
            Step::Fate => lang.pick("the Fate roll", "フェイトロール"),
            Step::Activation => lang.pick("activation", "アクティベーション"),
            Step::EndTurn => lang.pick("End Turn", "エンドターン"),
            Step::OnYourFeet => lang.pick("On Your Feet, Soldier!", "さあ立ち上がれ！"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum RuleError {
    #[error(transparent)]
    Dice(#[from] DiceError),
    #[error("the {} must be between {min} and {max}, not {value}", what.name(Lang::En))]
    OutOfRange {
        what: Quantity,
        value: i64,
        min: i64,
        max: i64,
    },
    #[error("`{input}` is not a die of the ladder (D4, D6, D8, D10, D12, D20)")]
    UnknownDie { input: String },
    #[error("`{input}` is not six Fate faces such as 1,1,2,2,FATE,FATE")]
    BadFateFaces { input: String },
    #[error("`{input}` is not a range band (cc, close, short, long)")]
    UnknownBand { input: String },
    #[error("{who} has no {} die: the seed lost it, so set it on the sheet or give it with the roll", field.name(Lang::En))]
    MissingDie { who: String, field: DieField },
    #[error("{weapon} has no range: the seed lost it, so set it on the sheet")]
    MissingRange { weapon: String },
    #[error(
        "{weapon} is a ranged weapon: it cannot attack a target within CC (except See you in hell, baby!)"
    )]
    RangedAtCc { weapon: String },
    #[error("{weapon} does not reach {band} range")]
    OutOfBand { weapon: String, band: String },
    #[error("See you in hell, baby! needs a ranged weapon, and {weapon} is a CC weapon")]
    HellNeedsRanged { weapon: String },
    #[error("See you in hell, baby! needs a reeling target, and {target} is not reeling")]
    HellNeedsReeling { target: String },
    #[error("{weapon} is Heavy: it cannot fire after its character moved in this activation")]
    HeavyMoved { weapon: String },
    #[error("{weapon} has Limited ammo({limit}) and has fired {limit} times this game")]
    OutOfAmmo { weapon: String, limit: u32 },
    #[error("a friendly character would be a secondary target: the shot is not allowed")]
    FriendlyTouched,
    #[error("{weapon} has no Area rule: it has no secondary targets")]
    NotArea { weapon: String },
    #[error("{name} is listed twice among the targets")]
    DuplicateTarget { name: String },
    #[error("no character called {name} is in this game")]
    UnknownCharacter { name: String },
    #[error("{character} has no weapon called {weapon}{}", weapon_list(has, Lang::En))]
    NoSuchWeapon {
        character: String,
        weapon: String,
        /// The character's weapons, to say what it may use.
        has: Vec<String>,
    },
    #[error("{name} has been removed from the battlefield")]
    Removed { name: String },
    #[error("{target} is on {side}'s side, the same as the attacker: only enemies are targets")]
    FriendlyTarget { target: String, side: String },
    #[error("a character cannot attack itself")]
    SelfTarget,
    #[error("the roll-off ties did not resolve after {rerolls} rerolls")]
    TiesUnresolved { rerolls: u32 },
    #[error("a game needs exactly two different sides")]
    NeedTwoSides,
    #[error("{side} is not a side of this game")]
    UnknownSide { side: String },
    #[error("{name} has no side: set `side` on its sheet")]
    NoSide { name: String },
    /// `needed` is what was asked for; `now` what the game waits for instead.
    #[error("{}", wrong_step(*needed, *now, Lang::En))]
    WrongStep { needed: Step, now: Step },
    /// The roll-off starts a turn; `now` is the step the game waits for instead.
    #[error("{}", roll_off_now(*now, Lang::En))]
    RollOffNotNow { now: Step },
    #[error("the Fate die has already been rolled in this impulse")]
    FateRolled,
    #[error("roll the Fate die first")]
    FateNotRolled,
    #[error("{name} belongs to {side}, not to {player}, whose impulse it is")]
    NotYourImpulse {
        name: String,
        side: String,
        player: String,
    },
    #[error("{name} cannot activate: it already has a Ready or Done marker")]
    NotEligible { name: String },
    #[error("no more characters may activate in this impulse")]
    NoActivationsLeft,
    #[error("on a FATE result only a commander activates, with its followers")]
    FateNeedsCommander,
    #[error("{name} is not a commander")]
    NotCommander { name: String },
    #[error("{name} may bring {}", friends(*max))]
    TooManyFollowers { name: String, max: u32 },
    #[error("{name} is a commander: Command abilities do not activate other commanders")]
    FollowerIsCommander { name: String },
    #[error("{name} is not activating (it has no Ready marker)")]
    NotReady { name: String },
    #[error("{names} still have a Ready marker: finish their activations first")]
    ReadyRemain { names: String },
    #[error("an attack is under way: finish or cancel it first")]
    AttackUnderWay,
    #[error("no attack is under way")]
    NoAttack,
    #[error("the attack waits for {target}'s I'll Be Back roll")]
    WaitingIllBeBack { target: String },
    #[error("{target} is not waiting for a die in this attack")]
    NotWaiting { target: String },
    #[error("{commander} has {} left, not {wanted}", count(*left, "On Your Feet marker"))]
    OnYourFeetSpent {
        commander: String,
        left: u32,
        wanted: u32,
    },
    #[error("{name} has {}: fewer than {wanted} to remove", count(*done, "Done marker"))]
    NotEnoughDone { name: String, done: u32, wanted: u32 },
    #[error("{name} is not a friend of {commander}")]
    NotFriend { name: String, commander: String },
    #[error("at most {max} {what} in one session")]
    TooMany { what: String, max: usize },
    #[error("the sheet of {name} does not read as a Terminator Genisys character")]
    BadSheet { name: String },
}

impl Localized for RuleError {
    fn localized(&self, lang: Lang) -> String {
        use RuleError::*;
        let ja = match self {
            Dice(e) => return e.localized(lang),
            OutOfRange {
                what,
                value,
                min,
                max,
            } => format!(
                "{}は{min}〜{max}の範囲で指定してください（{value}は使えません）。",
                what.name(Lang::Ja)
            ),
            UnknownDie { input } => {
                format!("`{input}` はダイスの段階（D4, D6, D8, D10, D12, D20）にありません。")
            }
            BadFateFaces { input } => {
                format!("`{input}` はフェイトダイスの6面として読めません（例: 1,1,2,2,FATE,FATE）。")
            }
            UnknownBand { input } => {
                format!("`{input}` は距離帯として読めません（接近戦・至近・近・遠）。")
            }
            MissingDie { who, field } => format!(
                "{who}の{}のダイスが未設定です（シードで失われています）。シートで設定するか、ロールで指定してください。",
                field.name(Lang::Ja)
            ),
            MissingRange { weapon } => {
                format!("{weapon}の射程が未設定です（シードで失われています）。シートで設定してください。")
            }
            RangedAtCc { weapon } => format!(
                "{weapon}は射撃武器なので、接近戦距離以内のターゲットは攻撃できません（「地獄で会おうぜ、ベイビー！」を除く）。"
            ),
            OutOfBand { weapon, band } => format!("{weapon}は{}に届きません。", band_ja(band)),
            HellNeedsRanged { weapon } => {
                format!("「地獄で会おうぜ、ベイビー！」は射撃武器で行います（{weapon}は接近戦武器です）。")
            }
            HellNeedsReeling { target } => format!(
                "「地獄で会おうぜ、ベイビー！」のターゲットはリーリング状態の敵です（{target}はリーリング状態ではありません）。"
            ),
            HeavyMoved { weapon } => {
                format!(
                    "{weapon}は重火器なので、このアクティベーションで移動したキャラクターは射撃できません。"
                )
            }
            OutOfAmmo { weapon, limit } => {
                format!("{weapon}は弾数制限（{limit}）で、このゲームで既に{limit}回射撃しています。")
            }
            FriendlyTouched => "味方キャラクターが第２ターゲットになるので、射撃はできません。".to_string(),
            NotArea { weapon } => format!("{weapon}はエリアの武器ではないので、第２ターゲットはありません。"),
            DuplicateTarget { name } => format!("{name}がターゲットに2回指定されています。"),
            UnknownCharacter { name } => format!("このゲームに「{name}」はいません。"),
            NoSuchWeapon {
                character,
                weapon,
                has,
            } => format!(
                "{character}に「{weapon}」という武器はありません{}。",
                weapon_list(has, Lang::Ja)
            ),
            Removed { name } => format!("{name}は戦場から取り除かれています。"),
            FriendlyTarget { target, side } => {
                format!("{target}は攻撃側と同じ陣営（{side}）です。ターゲットにできるのは敵だけです。")
            }
            SelfTarget => "自分自身は攻撃できません。".to_string(),
            TiesUnresolved { rerolls } => {
                format!("ロールオフの同値が{rerolls}回振り直しても決着しませんでした。")
            }
            NeedTwoSides => "ゲームには異なる2つの陣営が必要です。".to_string(),
            UnknownSide { side } => format!("{side}はこのゲームの陣営ではありません。"),
            NoSide { name } => format!("{name}に陣営がありません。シートで `陣営` を設定してください。"),
            WrongStep { needed, now } => wrong_step(*needed, *now, Lang::Ja),
            RollOffNotNow { now } => roll_off_now(*now, Lang::Ja),
            FateRolled => "このインパルスではフェイトダイスを既に振っています。".to_string(),
            FateNotRolled => "先にフェイトダイスを振ってください。".to_string(),
            NotYourImpulse { name, side, player } => {
                format!("{name}は{side}のキャラクターです。今は{player}のインパルスです。")
            }
            NotEligible { name } => {
                format!("{name}は既にレディかダンのマーカーがあるので、アクティベートできません。")
            }
            NoActivationsLeft => {
                "このインパルスでアクティベートできるキャラクターは残っていません。".to_string()
            }
            FateNeedsCommander => {
                "Fate の出目では、コマンダー1人（と味方）だけがアクティベートできます。".to_string()
            }
            NotCommander { name } => format!("{name}はコマンダーではありません。"),
            TooManyFollowers { name, max: 0 } => format!("{name}は味方を連れて行けません。"),
            TooManyFollowers { name, max } => {
                format!("{name}が連れて行ける味方は{max}人までです。")
            }
            FollowerIsCommander { name } => format!(
                "{name}はコマンダーです。コマンダーの能力は他のコマンダーをアクティベートさせません。"
            ),
            NotReady { name } => {
                format!("{name}はアクティベート中ではありません（レディマーカーがありません）。")
            }
            ReadyRemain { names } => {
                format!("{names}にレディマーカーが残っています。先にアクティベーションを終えてください。")
            }
            AttackUnderWay => "攻撃の途中です。先に終えるか取り消してください。".to_string(),
            NoAttack => "進行中の攻撃はありません。".to_string(),
            WaitingIllBeBack { target } => {
                format!("攻撃は{target}の「アイル ビー バック」のロールを待っています。")
            }
            NotWaiting { target } => format!("この攻撃で{target}はダイスを待っていません。"),
            OnYourFeetSpent {
                commander,
                left,
                wanted,
            } => format!(
                "{commander}が取り除けるダンマーカーは残り{left}個です（{wanted}個は取り除けません）。"
            ),
            NotEnoughDone { name, done, wanted } => {
                format!("{name}のダンマーカーは{done}個です（{wanted}個は取り除けません）。")
            }
            NotFriend { name, commander } => format!("{name}は{commander}の味方ではありません。"),
            TooMany { what, max } => format!("1つのセッションで{}は{max}個までです。", too_many_ja(what)),
            BadSheet { name } => {
                format!("{name}のシートはターミネーター ジェニシスのキャラクターとして読めません。")
            }
        };
        match lang {
            Lang::Ja => ja,
            Lang::En => {
                let mut s = self.to_string();
                if let Some(first) = s.get(0..1) {
                    let upper = first.to_uppercase();
                    s.replace_range(0..1, &upper);
                }
                s.push('.');
                s
            }
        }
    }
}

fn band_ja(band: &str) -> &str {
    match band {
        "CC" => "接近戦距離",
        "close" => "至近距離",
        "short" => "近距離",
        "long" => "遠距離",
        other => other,
    }
}

/// "1 Done marker", "2 Done markers".
fn count(n: u32, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn friends(max: u32) -> String {
    match max {
        0 => "no friends".into(),
        1 => "at most 1 friend".into(),
        n => format!("at most {n} friends"),
    }
}

/// Why `/term rolloff` waits: the roll-off opens a turn, and the game is at `now`.
/// "this is not the time for activation: …" and what comes first, with the command for it.
fn wrong_step(needed: Step, now: Step, lang: Lang) -> String {
    let first = match (now, lang) {
        (Step::Start, Lang::En) => "start the game first (/term start)",
        (Step::Start, Lang::Ja) => "先にゲームを始めてください（/term start）",
        (Step::RollOff, Lang::En) => "the turn begins with the roll-off (/term rolloff)",
        (Step::RollOff, Lang::Ja) => "ターンはロールオフから始まります（/term rolloff）",
        (Step::FirstPlayer, Lang::En) => {
            "the Tactical Edge holder chooses the first player first (the button, or /term first)"
        }
        (Step::FirstPlayer, Lang::Ja) => {
            "先にタクティカルエッジを持つ側が先攻プレイヤーを選びます（ボタンか /term first）"
        }
        (Step::Fate, Lang::En) => "roll the Fate die first (/term fate)",
        (Step::Fate, Lang::Ja) => "先にフェイトダイスを振ってください（/term fate）",
        (Step::Activation, Lang::En) => "an impulse is under way: activate a character (/term activate)",
        (Step::Activation, Lang::Ja) => {
            "インパルスの途中です。キャラクターをアクティベートしてください（/term activate）"
        }
        (Step::EndTurn, Lang::En) => "every character has activated: end the turn (/term endturn)",
        (Step::EndTurn, Lang::Ja) => {
            "全キャラクターがアクティベートしました。ターンを終えてください（/term endturn）"
        }
        (Step::OnYourFeet, Lang::En) => "On Your Feet (/term feet) or the next roll-off (/term rolloff)",
        (Step::OnYourFeet, Lang::Ja) => "さあ立ち上がれ！（/term feet）か次のロールオフ（/term rolloff）です",
    };
    match lang {
        Lang::En if needed == now => format!("this is not the time for {}", needed.name(lang)),
        Lang::En => format!("this is not the time for {}: {first}", needed.name(lang)),
        Lang::Ja if needed == now => format!("今は{}の時ではありません。", needed.name(lang)),
        Lang::Ja => format!("今は{}の時ではありません。{first}。", needed.name(lang)),
    }
}

fn roll_off_now(now: Step, lang: Lang) -> String {
    match (now, lang) {
        (Step::FirstPlayer, Lang::En) => {
            "the roll-off of this turn is done: the Tactical Edge holder chooses the first player (the button, or /term first)".into()
        }
        (Step::FirstPlayer, Lang::Ja) => {
            "このターンのロールオフは済んでいます。タクティカルエッジを持つ側が先攻プレイヤーを選びます（ボタンか /term first）。".into()
        }
        (Step::EndTurn, Lang::En) => {
            "every character has activated: end the turn first (/term endturn), then roll off for the next".into()
        }
        (Step::EndTurn, Lang::Ja) => {
            "全キャラクターがアクティベートしました。先にターンを終えてから（/term endturn）次のロールオフです。".into()
        }
        (_, Lang::En) => {
            "the turn is under way: the next roll-off comes after every character has activated and End Turn (/term endturn)".into()
        }
        (_, Lang::Ja) => {
            "ターンの途中です。次のロールオフは全キャラクターのアクティベーションとエンドターン（/term endturn）の後です。".into()
        }
    }
}

/// "; its weapons: 1. Terminator claw, 2. Plasma gun" (the tail of a refusal).
fn weapon_list(has: &[String], lang: Lang) -> String {
    let list: Vec<String> = has
        .iter()
        .enumerate()
        .map(|(i, w)| format!("{}. {}", i + 1, super::weapon::display_name(w, lang)))
        .collect();
    match (lang, list.is_empty()) {
        (Lang::En, true) => ": it carries none (give it one on its sheet: w1=\"Pistol d6\")".into(),
        (Lang::En, false) => format!("; its weapons: {}", list.join(", ")),
        (Lang::Ja, true) => "（武器がありません。シートで指定してください: 武器1=\"ピストル d6\"）".into(),
        (Lang::Ja, false) => format!("（武器: {}）", list.join("、")),
    }
}

fn too_many_ja(what: &str) -> &str {
    match what {
        "profiles" => "プロフィール",
        "weapons" => "武器",
        other => other,
    }
}

/// A bounded user number, or a clear error naming it.
pub(crate) fn bounded(what: Quantity, value: i64, min: i64, max: i64) -> Result<(), RuleError> {
    crate::systems::bounds::within(value, min, max, || RuleError::OutOfRange {
        what,
        value,
        min,
        max,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_reads_in_both_languages() {
        let errors = [
            RuleError::OutOfRange {
                what: Quantity::DiceCount,
                value: 0,
                min: 1,
                max: 50,
            },
            RuleError::MissingDie {
                who: "Shotgun".into(),
                field: DieField::StoppingPower,
            },
            RuleError::OutOfBand {
                weapon: "Pistol".into(),
                band: "long".into(),
            },
            RuleError::WrongStep {
                needed: Step::Fate,
                now: Step::RollOff,
            },
            RuleError::FriendlyTouched,
            RuleError::TooMany {
                what: "profiles".into(),
                max: 50,
            },
        ];
        for e in errors {
            let en = e.localized(Lang::En);
            let ja = e.localized(Lang::Ja);
            assert!(
                en.ends_with('.') && !en.chars().next().unwrap().is_lowercase(),
                "{en}"
            );
            assert!(!ja.is_empty() && en != ja);
        }
        let e = RuleError::MissingDie {
            who: "Shotgun".into(),
            field: DieField::StoppingPower,
        };
        assert!(
            e.localized(Lang::En)
                .starts_with("Shotgun has no stopping power die")
        );
        assert!(
            e.localized(Lang::Ja)
                .contains("ストッピングパワーのダイスが未設定")
        );
        assert!(
            RuleError::OutOfBand {
                weapon: "Pistol".into(),
                band: "long".into()
            }
            .localized(Lang::Ja)
            .contains("遠距離")
        );
    }

    /// Issue 29: counts read right in English ("1 Done marker", "no friends").
    #[test]
    fn counts_are_singular_or_plural() {
        let en = |e: RuleError| e.localized(Lang::En);
        assert_eq!(
            en(RuleError::TooManyFollowers {
                name: "Kyle".into(),
                max: 0
            }),
            "Kyle may bring no friends."
        );
        assert_eq!(
            en(RuleError::TooManyFollowers {
                name: "Kyle".into(),
                max: 1
            }),
            "Kyle may bring at most 1 friend."
        );
        assert_eq!(
            en(RuleError::TooManyFollowers {
                name: "Kyle".into(),
                max: 2
            }),
            "Kyle may bring at most 2 friends."
        );
        assert_eq!(
            en(RuleError::NotEnoughDone {
                name: "Joe".into(),
                done: 1,
                wanted: 2
            }),
            "Joe has 1 Done marker: fewer than 2 to remove."
        );
        assert_eq!(
            en(RuleError::OnYourFeetSpent {
                commander: "Kyle".into(),
                left: 1,
                wanted: 2
            }),
            "Kyle has 1 On Your Feet marker left, not 2."
        );
        assert_eq!(
            RuleError::TooManyFollowers {
                name: "Kyle".into(),
                max: 0
            }
            .localized(Lang::Ja),
            "Kyleは味方を連れて行けません。"
        );
    }

    #[test]
    fn bounded_is_inclusive() {
        assert!(bounded(Quantity::Rof, 1, 1, 10).is_ok());
        assert!(bounded(Quantity::Rof, 10, 1, 10).is_ok());
        assert!(matches!(
            bounded(Quantity::Rof, 11, 1, 10),
            Err(RuleError::OutOfRange { value: 11, .. })
        ));
    }
}

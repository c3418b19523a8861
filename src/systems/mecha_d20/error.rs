//! Every way a d20 mecha request can be refused, in English and Japanese.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::dice::DiceError;
use crate::i18n::{Lang, Localized};

/// A number a request carries, named in the refusal when it is out of range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    Modifier,
    Distance,
    Multiplier,
    DiceCount,
    DiceSides,
    DamageConstant,
    Armour,
    ActionPoints,
    SpiritPoints,
    Propellant,
    Hexes,
    Target,
}

impl Quantity {
    pub fn name(self, lang: Lang) -> &'static str {
        use Quantity::*;
        match self {
            Modifier => lang.pick("modifier", "修正"),
            Distance => lang.pick("distance", "距離"),
            Multiplier => lang.pick("multiplier", "倍率"),
            DiceCount => lang.pick("number of dice", "ダイスの個数"),
            DiceSides => lang.pick("die size", "ダイスの面数"),
            DamageConstant => lang.pick("damage bonus", "ダメージの修正値"),
            Armour => lang.pick("armour", "装甲値"),
            ActionPoints => lang.pick("action points", "行動ポイント"),
            SpiritPoints => lang.pick("spirit points", "精神ポイント"),
            Propellant => lang.pick("propellant", "推進剤量"),
            Hexes => lang.pick("hexes", "ヘクス数"),
            Target => lang.pick("target number", "目標値"),
        }
    }
}

/// A rule or input error. Never a panic: every resolver and transition returns one of these,
/// and a transition that returns one has changed nothing.
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
    #[error("`{input}` is not a damage expression such as 2d6+5")]
    BadDice { input: String },
    #[error("{weapon} is a melee weapon: it reaches hex 0 only, not hex {distance}")]
    MeleeReach { weapon: String, distance: u32 },
    #[error("{weapon} reaches hexes {min} to {max}, not hex {distance}")]
    OutOfReach {
        weapon: String,
        distance: u32,
        min: u32,
        max: u32,
    },
    #[error("the target is not in {weapon}'s firing arc")]
    OutOfArc { weapon: String },
    #[error("{weapon} is malfunctioning in turn {turn}")]
    WeaponMalfunction { weapon: String, turn: u32 },
    #[error("{weapon} is destroyed")]
    WeaponDestroyed { weapon: String },
    #[error("{weapon} was lost with its part")]
    WeaponLost { weapon: String },
    #[error("{unit} has no weapon called {weapon}")]
    NoSuchWeapon { unit: String, weapon: String },
    #[error("no unit called {name} is in this battle")]
    UnknownUnit { name: String },
    #[error("{name}'s suit is destroyed")]
    Destroyed { name: String },
    #[error("{name}'s suit is not destroyed: there is nothing to escape from")]
    NotDestroyed { name: String },
    #[error("a unit cannot attack itself")]
    SelfTarget,
    #[error("no turn has started yet")]
    NoTurn,
    #[error("this is not the {needed} phase")]
    WrongPhase { needed: String },
    #[error("{name}'s squad ({squad}) is not the one acting in this phase")]
    NotYourPhase { name: String, squad: String },
    #[error("{name} has {left} action points left, not {needed}")]
    NotEnoughAp { name: String, left: u32, needed: u32 },
    #[error("{name} has {left} spirit points left, not {needed}")]
    NotEnoughSpirit { name: String, left: u32, needed: u32 },
    #[error("{name} has {left} propellant left, not {needed}")]
    NotEnoughPropellant { name: String, left: u32, needed: u32 },
    #[error("{name} moves at most {} this way, not {hexes}", if *max == 1 { "1 hex".to_string() } else { format!("{max} hexes") })]
    TooFar { name: String, hexes: u32, max: u32 },
    /// The sheet never set the move (`movement`, `high_speed`): say so, not "at most 0".
    #[error("{name} has no `{field}` on its sheet: set it with /char edit (e.g. {field}=4)")]
    NoMove { name: String, field: &'static str },
    #[error("a high-speed move goes only to the three front directions")]
    HighSpeedDirection,
    #[error("a normal move uses no propellant")]
    NormalMoveNoPropellant,
    #[error("{name} belongs to no squad")]
    NoSquad { name: String },
    #[error(
        "squad {squad} has no leader: make one of its pilots the leader (/char edit name:… stats:leader=yes), or the GM sets the option mecha.initiative_mode to all_pilots"
    )]
    NoLeader { squad: String },
    /// Leaders mode: the squad's leader is destroyed (MG-1 says only leaders roll).
    #[error(
        "squad {squad}'s leader {leader} is destroyed: another of its pilots ({pilots}) takes the lead with /char edit name:… stats:leader=yes, or the GM sets the option mecha.initiative_mode to all_pilots"
    )]
    LeaderDestroyed {
        squad: String,
        leader: String,
        pilots: String,
    },
    /// Checklist 17: the fatigue check is for pilots whose suits were not destroyed.
    #[error(
        "{name}'s suit is destroyed: the fatigue check is for pilots whose suits were not (its pilot takes the escape check)"
    )]
    FatigueDestroyed { name: String },
    #[error("squad {squad} has more than one leader")]
    SeveralLeaders { squad: String },
    #[error("initiative needs at least one squad")]
    NoSquads,
    #[error("the initiative ties did not resolve after {rerolls} rerolls")]
    TieUnresolved { rerolls: u32 },
    #[error("there is no {kind} check waiting for {name} (already made?)")]
    NoPrompt { kind: String, name: String },
    #[error("there is no held damage number {id}")]
    NoHeld { id: u32 },
    #[error("at most {max} damage entries can be held in one turn")]
    TooManyHeld { max: usize },
    #[error("{name} has no lost-part choice waiting")]
    NoChoice { name: String },
    #[error("{weapon} is not one of the weapons that part can lose")]
    BadChoice { weapon: String },
    #[error("the sheet of {name} does not read as a d20 mecha unit")]
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
            BadDice { input } => {
                format!("`{input}` はダメージの式として読めません（例: 2d6+5）。")
            }
            MeleeReach { weapon, distance } => {
                format!("{weapon}は格闘兵器なので0ヘクスにしか届きません（{distance}ヘクス）。")
            }
            OutOfReach {
                weapon,
                distance,
                min,
                max,
            } => format!("{weapon}の攻撃範囲は{min}〜{max}ヘクスです（{distance}ヘクスには届きません）。"),
            OutOfArc { weapon } => format!("目標は{weapon}の射界の外です。"),
            WeaponMalfunction { weapon, turn } => {
                format!("{weapon}はターン{turn}の間、兵器不調で使えません。")
            }
            WeaponDestroyed { weapon } => format!("{weapon}は破損しています。"),
            WeaponLost { weapon } => format!("{weapon}は部位ごと失われました。"),
            NoSuchWeapon { unit, weapon } => format!("{unit}に「{weapon}」という兵器はありません。"),
            UnknownUnit { name } => format!("この戦闘に「{name}」はいません。"),
            Destroyed { name } => format!("{name}の兵装は撃破されています。"),
            NotDestroyed { name } => {
                format!("{name}の兵装は撃破されていないので、脱出判定はありません。")
            }
            SelfTarget => "自分自身は攻撃できません。".to_string(),
            NoTurn => "まだターンが始まっていません。".to_string(),
            WrongPhase { needed } => format!("今は{}ではありません。", phase_ja(needed)),
            NotYourPhase { name, squad } => {
                format!("{name}の部隊（{squad}）はこのフェイズの行動部隊ではありません。")
            }
            NotEnoughAp { name, left, needed } => {
                format!("{name}の残り行動ポイントは{left}です（{needed}必要です）。")
            }
            NotEnoughSpirit { name, left, needed } => {
                format!("{name}の残り精神ポイントは{left}です（{needed}必要です）。")
            }
            NotEnoughPropellant { name, left, needed } => {
                format!("{name}の残り推進剤量は{left}です（{needed}必要です）。")
            }
            NoMove { name, field } => {
                format!(
                    "{name}のシートに `{field}` がありません。/char edit で設定してください（例: {field}=4）。"
                )
            }
            TooFar { name, hexes, max } => {
                format!("{name}のこの移動は最大{max}ヘクスです（{hexes}ヘクスは移動できません）。")
            }
            HighSpeedDirection => "高速移動は前3方向にしか移動できません。".to_string(),
            NormalMoveNoPropellant => "通常移動は推進剤を消費しません。".to_string(),
            NoSquad { name } => format!("{name}はどの部隊にも所属していません。"),
            NoLeader { squad } => format!(
                "部隊「{squad}」に隊長機がいません。部隊のパイロットを隊長にする（/char edit name:… stats:隊長=yes）か、GMがオプション mecha.initiative_mode を all_pilots にしてください。"
            ),
            LeaderDestroyed {
                squad,
                leader,
                pilots,
            } => format!(
                "部隊「{squad}」の隊長機{leader}は撃破されています。部隊の他のパイロット（{pilots}）を隊長にする（/char edit name:… stats:隊長=yes）か、GMがオプション mecha.initiative_mode を all_pilots にしてください。"
            ),
            FatigueDestroyed { name } => format!(
                "{name}の兵装は撃破されています。疲労判定は兵装が撃破されていないパイロットが行います（このパイロットは脱出判定）。"
            ),
            SeveralLeaders { squad } => format!("部隊「{squad}」に隊長機が複数います。"),
            NoSquads => "イニシアチブには部隊が1つ以上必要です。".to_string(),
            TieUnresolved { rerolls } => {
                format!("イニシアチブの同値が{rerolls}回振り直しても決着しませんでした。")
            }
            NoPrompt { kind, name } => {
                format!("{name}の{}は待っていません（判定済みでは？）。", prompt_ja(kind))
            }
            NoHeld { id } => format!("保留ダメージ{id}番はありません。"),
            TooManyHeld { max } => format!("1ターンに保留できるダメージは{max}件までです。"),
            NoChoice { name } => format!("{name}に選択待ちの部位破損はありません。"),
            BadChoice { weapon } => format!("{weapon}はその部位で失われる兵器ではありません。"),
            BadSheet { name } => format!("{name}のシートはd20メカのユニットとして読めません。"),
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

fn phase_ja(needed: &str) -> &str {
    match needed {
        "initiative" => "イニシアチブフェイズ",
        "squad" => "部隊の行動フェイズ",
        "application" => "適用フェイズ",
        other => other,
    }
}

fn prompt_ja(kind: &str) -> &str {
    match kind {
        "escape" => "脱出判定",
        "fatigue" => "疲労判定",
        "faint" => "気絶判定",
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

    /// Issue 29: "1 hex", not "1 hexes".
    #[test]
    fn one_hex_is_singular() {
        let far = |max| RuleError::TooFar {
            name: "Zaku".into(),
            hexes: 2,
            max,
        };
        assert_eq!(
            far(1).localized(Lang::En),
            "Zaku moves at most 1 hex this way, not 2."
        );
        assert_eq!(
            far(3).localized(Lang::En),
            "Zaku moves at most 3 hexes this way, not 2."
        );
    }

    #[test]
    fn every_error_reads_in_both_languages() {
        let errors = [
            RuleError::OutOfRange {
                what: Quantity::Multiplier,
                value: 0,
                min: 1,
                max: 10,
            },
            RuleError::BadDice { input: "2x6".into() },
            RuleError::MeleeReach {
                weapon: "Heat Hawk".into(),
                distance: 1,
            },
            RuleError::OutOfReach {
                weapon: "Rifle".into(),
                distance: 5,
                min: 2,
                max: 4,
            },
            RuleError::WrongPhase {
                needed: "application".into(),
            },
            RuleError::NoPrompt {
                kind: "escape".into(),
                name: "Zaku".into(),
            },
            RuleError::NotEnoughAp {
                name: "Zaku".into(),
                left: 0,
                needed: 1,
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
        let e = RuleError::OutOfRange {
            what: Quantity::Multiplier,
            value: 0,
            min: 1,
            max: 10,
        };
        assert_eq!(
            e.localized(Lang::En),
            "The multiplier must be between 1 and 10, not 0."
        );
        assert!(e.localized(Lang::Ja).contains("倍率は1〜10"));
        assert!(
            RuleError::WrongPhase {
                needed: "application".into()
            }
            .localized(Lang::Ja)
            .contains("適用フェイズ")
        );
        assert!(
            RuleError::NoPrompt {
                kind: "escape".into(),
                name: "Zaku".into()
            }
            .localized(Lang::Ja)
            .contains("脱出判定")
        );
    }

    #[test]
    fn bounded_is_inclusive() {
        assert!(bounded(Quantity::Hexes, 0, 0, 3).is_ok());
        assert!(bounded(Quantity::Hexes, 3, 0, 3).is_ok());
        assert!(matches!(
            bounded(Quantity::Hexes, 4, 0, 3),
            Err(RuleError::OutOfRange { value: 4, .. })
        ));
    }
}

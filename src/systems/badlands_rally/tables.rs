//! The scenario table and the upgrade table (seed ◆シナリオ, ◆アップグレード).

use serde::{Deserialize, Serialize};

use super::error::RuleError;
use super::gear_sheet::Upgrade;
use crate::dice::Roller;
use crate::i18n::Lang;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scenario {
    RaceDay,
    GrudgeMatch,
    RaceAndReturn,
    ShowOffCentral,
    Derby,
}

impl Scenario {
    /// Seed ◆シナリオ: 1–2 Race Day, 3 Grudge Match, 4 Race and Return, 5 Show Off Central,
    /// 6 Derby.
    pub fn from_die(die: u32) -> Result<Scenario, RuleError> {
        Ok(match die {
            1 | 2 => Scenario::RaceDay,
            3 => Scenario::GrudgeMatch,
            4 => Scenario::RaceAndReturn,
            5 => Scenario::ShowOffCentral,
            6 => Scenario::Derby,
            _ => return Err(out_of_die(die)),
        })
    }

    /// Laps for every scenario but Race Day, whose laps are rolled.
    pub fn fixed_laps(self) -> Option<u32> {
        match self {
            Scenario::RaceDay => None,
            Scenario::Derby => Some(3),
            _ => Some(2),
        }
    }

    pub fn name(self, lang: Lang) -> &'static str {
        let (en, ja) = match self {
            Scenario::RaceDay => ("Race Day", "レース・デイ／競争日和"),
            Scenario::GrudgeMatch => ("Grudge Match", "グラッジ・マッチ／怨恨試合"),
            Scenario::RaceAndReturn => ("Race and Return", "レース・アンド・リターン／行ったり来たり！"),
            Scenario::ShowOffCentral => ("Show Off Central", "ショー・オフ・セントラル／見世物試合"),
            Scenario::Derby => ("Derby", "ダービー／競技試合"),
        };
        lang.pick(en, ja)
    }

    pub fn special_rule(self, lang: Lang) -> &'static str {
        let (en, ja) = match self {
            Scenario::RaceDay => ("None.", "なし。"),
            Scenario::GrudgeMatch => (
                "Each time a gear rattles its target it gains a free Rally the Crowd token.",
                "ギアが目標をラタルド状態にする度に、ラリー・ザ・クラウド・トークンを1つ得る。",
            ),
            Scenario::RaceAndReturn => (
                "The second lap runs the course backwards.",
                "2ラップ目はコースを逆走する。",
            ),
            Scenario::ShowOffCentral => (
                "Each time a gear jumps over another gear it gains a free Rally the Crowd token.",
                "ギアが他のギアをジャンプで飛び越える度に、ラリー・ザ・クラウド・トークンを1つ得る。",
            ),
            Scenario::Derby => (
                "The first gear to make others spin out 6 times (at the end of a round) wins; \
                 several at once roll a contested victory.",
                "ラウンド終了時に最初に合計6回スピンアウトさせたギアが勝利する。同じラウンドに複数なら僅差勝利のチェックを行う。",
            ),
        };
        lang.pick(en, ja)
    }
}

fn out_of_die(die: u32) -> RuleError {
    RuleError::OutOfBounds {
        field: "die".into(),
        value: i64::from(die),
        min: 1,
        max: 6,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioOutcome {
    pub die: u32,
    pub scenario: Scenario,
    /// Race Day's laps die: 1–4 two laps, 5–6 three.
    pub laps_die: Option<u32>,
    pub laps: u32,
}

/// Roll the scenario (and Race Day's laps).
pub fn roll_scenario(roller: &mut impl Roller) -> Result<ScenarioOutcome, RuleError> {
    let die = roller.roll(6)?;
    let scenario = Scenario::from_die(die)?;
    let (laps_die, laps) = match scenario.fixed_laps() {
        Some(l) => (None, l),
        None => {
            let d = roller.roll(6)?;
            (Some(d), if d <= 4 { 2 } else { 3 })
        }
    };
    Ok(ScenarioOutcome {
        die,
        scenario,
        laps_die,
        laps,
    })
}

/// The upgrade table's six results; Twins still needs the weapon it pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UpgradeRoll {
    TheMove,
    SpeedDemon,
    CoiledHydraulicEnhancer,
    SponsorshipPaint,
    Wacker,
    Twins,
}

impl UpgradeRoll {
    pub fn from_die(die: u32) -> Result<UpgradeRoll, RuleError> {
        Ok(match die {
            1 => UpgradeRoll::TheMove,
            2 => UpgradeRoll::SpeedDemon,
            3 => UpgradeRoll::CoiledHydraulicEnhancer,
            4 => UpgradeRoll::SponsorshipPaint,
            5 => UpgradeRoll::Wacker,
            6 => UpgradeRoll::Twins,
            _ => return Err(out_of_die(die)),
        })
    }

    /// The upgrade to put on a sheet; Twins needs `weapon`.
    pub fn upgrade(self, weapon: Option<usize>) -> Result<Upgrade, RuleError> {
        Ok(match self {
            UpgradeRoll::TheMove => Upgrade::TheMove,
            UpgradeRoll::SpeedDemon => Upgrade::SpeedDemon,
            UpgradeRoll::CoiledHydraulicEnhancer => Upgrade::CoiledHydraulicEnhancer,
            UpgradeRoll::SponsorshipPaint => Upgrade::SponsorshipPaint,
            UpgradeRoll::Wacker => Upgrade::Wacker,
            UpgradeRoll::Twins => Upgrade::Twins {
                weapon: weapon.ok_or(RuleError::TwinsWeapon)?,
            },
        })
    }

    pub fn name(self, lang: Lang) -> &'static str {
        self.upgrade(Some(0)).map_or("", |u| u.name(lang))
    }

    pub fn description(self, lang: Lang) -> &'static str {
        let (en, ja) = match self {
            UpgradeRoll::TheMove => (
                "Choose the spin direction; roll 2D6 for turns and keep the higher; a 6 on either cancels the skid.",
                "スピン方向を選べ、ターン数は2D6の高い方。どちらかが6ならスキッドはキャンセル。",
            ),
            UpgradeRoll::SpeedDemon => ("+1 die on burn rubber.", "バーンラバーにダイス1個を追加。"),
            UpgradeRoll::CoiledHydraulicEnhancer => ("+1 die on jumps.", "ジャンプにダイス1個を追加。"),
            UpgradeRoll::SponsorshipPaint => (
                "+1 die on initiative checks (pole position and contested victory too).",
                "イニシアチブ・チェックにダイス1個を追加（ポール・ポジションと僅差勝利を含む）。",
            ),
            UpgradeRoll::Wacker => (
                "A POW 7 melee weapon reaching 1–2 hexes.",
                "POW7、レンジ1-2ヘクスのメレー武器。",
            ),
            UpgradeRoll::Twins => (
                "Pair a Vibro Blade, Autocannon or Rifle: its rating improves one step; guns drop to 2-4/8.",
                "Vibro Blade・Autocannon・Rifleを2つ持ち、攻撃値が1良くなる。AutocannonとRifleはレンジ2-4/8。",
            ),
        };
        lang.pick(en, ja)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpgradeOutcome {
    pub die: u32,
    pub upgrade: UpgradeRoll,
}

pub fn roll_upgrade(roller: &mut impl Roller) -> Result<UpgradeOutcome, RuleError> {
    let die = roller.roll(6)?;
    Ok(UpgradeOutcome {
        die,
        upgrade: UpgradeRoll::from_die(die)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    #[test]
    fn scenario_table() {
        let o = roll_scenario(&mut FixedRoller::new([2, 4])).unwrap();
        assert_eq!((o.scenario, o.laps_die, o.laps), (Scenario::RaceDay, Some(4), 2));
        let o = roll_scenario(&mut FixedRoller::new([1, 5])).unwrap();
        assert_eq!(o.laps, 3);
        let o = roll_scenario(&mut FixedRoller::new([3])).unwrap();
        assert_eq!((o.scenario, o.laps), (Scenario::GrudgeMatch, 2));
        assert_eq!(Scenario::from_die(4).unwrap(), Scenario::RaceAndReturn);
        assert_eq!(Scenario::from_die(5).unwrap(), Scenario::ShowOffCentral);
        let o = roll_scenario(&mut FixedRoller::new([6])).unwrap();
        assert_eq!((o.scenario, o.laps), (Scenario::Derby, 3));
        assert!(Scenario::from_die(7).is_err());
        assert!(!Scenario::Derby.special_rule(Lang::Ja).is_ascii());
    }

    #[test]
    fn upgrade_table() {
        let expected = [
            UpgradeRoll::TheMove,
            UpgradeRoll::SpeedDemon,
            UpgradeRoll::CoiledHydraulicEnhancer,
            UpgradeRoll::SponsorshipPaint,
            UpgradeRoll::Wacker,
            UpgradeRoll::Twins,
        ];
        for (i, e) in expected.iter().enumerate() {
            let o = roll_upgrade(&mut FixedRoller::new([i as u32 + 1])).unwrap();
            assert_eq!(o.upgrade, *e);
            assert!(!e.name(Lang::En).is_empty());
            assert!(!e.description(Lang::Ja).is_ascii());
        }
        assert_eq!(UpgradeRoll::Twins.upgrade(None), Err(RuleError::TwinsWeapon));
        assert_eq!(
            UpgradeRoll::Twins.upgrade(Some(1)).unwrap(),
            Upgrade::Twins { weapon: 1 }
        );
        assert!(UpgradeRoll::from_die(0).is_err());
    }
}

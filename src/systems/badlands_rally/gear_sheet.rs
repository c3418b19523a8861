//! A gear's sheet: what the players enter from the datacard (ratings, hits, weapons, traits,
//! upgrades). Plain data with its own checks; it knows nothing of the tracked state
//! ([`super::gear_state`]), so the state can be built from a sheet without importing
//! [`super::gear`]. The types keep their old paths (`gear::GearSheet`, `gear::Trait`…) through
//! re-exports in [`super::gear`].

use serde::{Deserialize, Serialize};

use super::error::{RuleError, bounded};
use super::roll::Rating;
use crate::i18n::Lang;

/// Upper bound on every stat a player types (hits, MR, AR, POW, ranges).
pub const MAX_STAT: u32 = 99;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    #[default]
    Cruising,
    Top,
}

/// Weapon bonuses (seed ◆武器ボーナス).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponTrait {
    AreaEffect,
    /// Burst:XD6 — X extra attack dice.
    Burst(u8),
    Blast,
    Heat,
    Impact,
    Melee,
}

/// The weapons the seed names, so Twins and the Grizzly's Twins trait can find them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    VibroBlade,
    Autocannon,
    Rifle,
    RocketPack,
    Wacker,
    #[default]
    Other,
}

/// Ranges as written "2-4/8": optimal 2 to 4 hexes, maximum 8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Range {
    pub optimal_min: u32,
    pub optimal_max: u32,
    pub max: u32,
}

impl Range {
    pub fn new(optimal_min: u32, optimal_max: u32, max: u32) -> Result<Self, RuleError> {
        let r = Range {
            optimal_min,
            optimal_max,
            max,
        };
        r.validate()?;
        Ok(r)
    }

    pub fn validate(&self) -> Result<(), RuleError> {
        if self.optimal_min >= 1
            && self.optimal_min <= self.optimal_max
            && self.optimal_max <= self.max
            && self.max <= MAX_STAT
        {
            Ok(())
        } else {
            Err(RuleError::BadRange)
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub name: String,
    #[serde(default)]
    pub kind: WeaponKind,
    pub pow: u32,
    pub range: Range,
    #[serde(default)]
    pub traits: Vec<WeaponTrait>,
    /// A weapon-specific attack rating, when the datacard gives one; else the gear's Attack.
    #[serde(default)]
    pub attack: Option<Rating>,
}

impl Weapon {
    pub fn has(&self, t: WeaponTrait) -> bool {
        self.traits.contains(&t)
    }

    pub fn is_melee(&self) -> bool {
        self.has(WeaponTrait::Melee)
    }

    pub fn burst(&self) -> u32 {
        self.traits
            .iter()
            .map(|t| match t {
                WeaponTrait::Burst(x) => u32::from(*x),
                _ => 0,
            })
            .sum()
    }

    /// The Wacker upgrade (seed アップグレード 出目5): POW 7 melee, 1-2 hexes.
    pub fn wacker() -> Weapon {
        Weapon {
            name: "Wacker".to_string(),
            kind: WeaponKind::Wacker,
            pow: 7,
            range: Range {
                optimal_min: 1,
                optimal_max: 2,
                max: 2,
            },
            traits: vec![WeaponTrait::Melee],
            attack: None,
        }
    }
}

/// Datacard traits (seed ◆データカード).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trait {
    OffRoadSpecialist,
    HiTech,
    LowProfile,
    ExposedMovement,
    JumpJets,
    UrbanModification,
    Brawler,
    GentleHands,
    Overdrive,
    BoosterRockets,
    /// The Grizzly family's Twins: Rocket Pack attacks at 3+.
    Twins,
    Pyrotechnics,
    RoughRacer,
    Tall,
    ExposedCrew,
    LowPerformance,
    Reliable,
    EasyToTrain,
    EasyToModify,
    Hover,
    HardToModify,
    Shield,
}

impl Trait {
    pub const ALL: [Trait; 22] = [
        Trait::OffRoadSpecialist,
        Trait::HiTech,
        Trait::LowProfile,
        Trait::ExposedMovement,
        Trait::JumpJets,
        Trait::UrbanModification,
        Trait::Brawler,
        Trait::GentleHands,
        Trait::Overdrive,
        Trait::BoosterRockets,
        Trait::Twins,
        Trait::Pyrotechnics,
        Trait::RoughRacer,
        Trait::Tall,
        Trait::ExposedCrew,
        Trait::LowPerformance,
        Trait::Reliable,
        Trait::EasyToTrain,
        Trait::EasyToModify,
        Trait::Hover,
        Trait::HardToModify,
        Trait::Shield,
    ];

    pub fn name(self, lang: Lang) -> &'static str {
        use Trait::*;
        let (en, ja) = match self {
            OffRoadSpecialist => ("Off-Road Specialist", "オフロード・スペシャリスト"),
            HiTech => ("Hi-Tech", "ハイテク"),
            LowProfile => ("Low Profile", "ロー・プロフィール"),
            ExposedMovement => ("Exposed Movement", "エクスポーズド・ムーブメント"),
            JumpJets => ("Jump Jets", "ジャンプジェット"),
            UrbanModification => ("Urban Modification", "アーバン・モディフィケーション"),
            Brawler => ("Brawler", "ブラウラー"),
            GentleHands => ("Gentle Hands", "ジェントル・ハンズ"),
            Overdrive => ("Overdrive", "オーバードライブ"),
            BoosterRockets => ("Booster Rockets", "ブースターロケット"),
            Twins => ("Twins", "ツインズ"),
            Pyrotechnics => ("Pyrotechnics", "パイロテクニクス"),
            RoughRacer => ("Rough Racer", "ラフ・レーサー"),
            Tall => ("Tall", "トール"),
            ExposedCrew => ("Exposed Crew", "エクスポーズド・クルー"),
            LowPerformance => ("Low Performance", "ロー・パフォーマンス"),
            Reliable => ("Reliable", "リライアブル"),
            EasyToTrain => ("Easy to Train", "イージー・トゥ・トレイン"),
            EasyToModify => ("Easy to Modify", "イージー・トゥ・モディファイ"),
            Hover => ("Hover", "ホバー"),
            HardToModify => ("Hard to Modify", "ハード・トゥ・モディファイ"),
            Shield => ("Shield", "シールド"),
        };
        lang.pick(en, ja)
    }

    /// One line of rules text, for help and embeds.
    pub fn description(self, lang: Lang) -> &'static str {
        use Trait::*;
        let (en, ja) = match self {
            OffRoadSpecialist => (
                "Roll Defence: ignore that many consecutive rough hexes. Once per turn.",
                "防御ロールの成功数分だけ連続したラフ・テレインを無視する。1ターンに1度。",
            ),
            HiTech => (
                "Stays rattled from the 4th rattle; knocked out on the 5th.",
                "4ラタルドで以後ラタルドのまま、5ラタルドでノックアウト。",
            ),
            LowProfile => (
                "+1 die on defence while in cover.",
                "カバーを得ている場合、防御テストにダイス1個を加える。",
            ),
            ExposedMovement => (
                "A defence check of 1 or 2 spins it out.",
                "防御チェックが1か2の場合、スピンアウトしスキッドする。",
            ),
            JumpJets => ("+2D6 on jump tests.", "ジャンプ・テストに2D6を加える。"),
            UrbanModification => (
                "Turning on hardpack costs no MR.",
                "ハードパックでのターンにコスト不要。",
            ),
            Brawler => (
                "+2D6 on every push test, attacking or defending.",
                "プッシュのあらゆるテストに2D6を加える。",
            ),
            GentleHands => (
                "At cruising speed, no penalty beyond optimal range.",
                "クルージング・スピードの時、最適レンジ外のペナルティを受けない。",
            ),
            Overdrive => ("+1D6 on burn rubber.", "バーンラバーに1D6を加える。"),
            BoosterRockets => ("+2D6 on burn rubber.", "バーンラバーに2D6を加える。"),
            Twins => (
                "The Rocket Pack attacks at 3+.",
                "Rocket Packの攻撃値が3+になる。",
            ),
            Pyrotechnics => (
                "Gains a Rally token whenever it gives another gear one.",
                "他のギアにラリー・トークンを与えた場合、ラリーできる。",
            ),
            RoughRacer => (
                "No rough terrain penalty.",
                "ラフ・テレインのペナルティを受けない。",
            ),
            Tall => ("Cannot be jumped over.", "ジャンプで飛び越されない。"),
            ExposedCrew => (
                "An attack that rattles it always spins it out.",
                "このギアをラタルドさせる攻撃は必ずスピンアウトとスキッドを引き起こす。",
            ),
            LowPerformance => (
                "Special move tests always take the rattled modifier.",
                "特殊移動のテストで常にラタルドの修正を受ける。",
            ),
            Reliable => (
                "Once per lap, reroll one test.",
                "1ラップにつき1回、テストを1つ振り直せる。",
            ),
            EasyToTrain => (
                "Campaign: skills start at level 2.",
                "キャンペーン：スキルがレベル2で開始。",
            ),
            EasyToModify => (
                "Campaign: modification rolls always succeed.",
                "キャンペーン：改造ロールに常に成功。",
            ),
            Hover => ("Treats water as normal terrain.", "水を通常のテレインとみなす。"),
            HardToModify => (
                "Campaign: modification needs 2 successes.",
                "キャンペーン：改造に2成功が必要。",
            ),
            Shield => (
                "+1D6 cover against frontal attacks.",
                "前面からの攻撃に対する防御に1D6のカバー修正。",
            ),
        };
        lang.pick(en, ja)
    }
}

/// Upgrades (seed ◆アップグレード).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Upgrade {
    TheMove,
    SpeedDemon,
    CoiledHydraulicEnhancer,
    SponsorshipPaint,
    Wacker,
    /// Twins on the sheet's weapon at this index.
    Twins {
        weapon: usize,
    },
}

impl Upgrade {
    pub fn name(self, lang: Lang) -> &'static str {
        let (en, ja) = match self {
            Upgrade::TheMove => ("The Move", "ザ・ムーブ"),
            Upgrade::SpeedDemon => ("Speed Demon", "スピード・デーモン"),
            Upgrade::CoiledHydraulicEnhancer => (
                "Coiled Hydraulic Enhancer",
                "コイルド・ハイドロリック・エンハンサー",
            ),
            Upgrade::SponsorshipPaint => ("Sponsorship Paint", "スポンサーシップ・ペイント"),
            Upgrade::Wacker => ("Wacker", "ワッカー"),
            Upgrade::Twins { .. } => ("Twins", "ツインズ"),
        };
        lang.pick(en, ja)
    }
}

/// Which weapon an attack uses: one on the sheet, or the Wacker upgrade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponChoice {
    Sheet(usize),
    Wacker,
}

/// What the players enter from the datacard (the seed gives traits only; the decision note
/// leaves ratings, MR, hits, AR and weapons to the players).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GearSheet {
    pub name: String,
    /// A [`super::datacards`] key, when the gear is a known model.
    #[serde(default)]
    pub model: Option<String>,
    pub attack: Rating,
    pub defence: Rating,
    pub initiative: Rating,
    pub mr: u32,
    pub hull: u32,
    pub structure: u32,
    pub ar: u32,
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    #[serde(default)]
    pub traits: Vec<Trait>,
    #[serde(default)]
    pub upgrades: Vec<Upgrade>,
}

impl GearSheet {
    /// Every number within bounds, every range sane, Twins on a weapon that can be twinned.
    pub fn validate(&self) -> Result<(), RuleError> {
        bounded("MR", i64::from(self.mr), 0, i64::from(MAX_STAT))?;
        bounded("Hull", i64::from(self.hull), 0, i64::from(MAX_STAT))?;
        bounded("Structure", i64::from(self.structure), 0, i64::from(MAX_STAT))?;
        bounded("AR", i64::from(self.ar), 0, i64::from(MAX_STAT))?;
        if self.hull == 0 {
            bounded("Hull", 0, 1, i64::from(MAX_STAT))?;
        }
        for w in &self.weapons {
            bounded("POW", i64::from(w.pow), 0, i64::from(MAX_STAT))?;
            w.range.validate()?;
            bounded("Burst", i64::from(w.burst()), 0, 20)?;
        }
        for u in &self.upgrades {
            if let Upgrade::Twins { weapon } = u {
                let w = self
                    .weapons
                    .get(*weapon)
                    .ok_or(RuleError::NoSuchWeapon { index: *weapon })?;
                if !matches!(
                    w.kind,
                    WeaponKind::VibroBlade | WeaponKind::Autocannon | WeaponKind::Rifle
                ) {
                    return Err(RuleError::TwinsWeapon);
                }
            }
        }
        Ok(())
    }

    pub fn has(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }

    /// The weapons (indices) the Twins upgrade can pair: Vibro Blade, Autocannon, Rifle (seed
    /// アップグレード 出目6).
    pub fn twins_candidates(&self) -> Vec<usize> {
        self.weapons
            .iter()
            .enumerate()
            .filter(|(_, w)| {
                matches!(
                    w.kind,
                    WeaponKind::VibroBlade | WeaponKind::Autocannon | WeaponKind::Rifle
                )
            })
            .map(|(i, _)| i)
            .collect()
    }

    pub fn has_upgrade(&self, u: Upgrade) -> bool {
        self.upgrades.contains(&u)
    }

    /// Hi-Tech gears stay rattled from the 4th rattle and are out on the 5th (seed データカード).
    pub fn rattle_limits(&self) -> RattleLimits {
        if self.has(Trait::HiTech) {
            RattleLimits {
                permanent: 4,
                knocked_out: 5,
            }
        } else {
            RattleLimits {
                permanent: 5,
                knocked_out: 6,
            }
        }
    }

    /// The weapon as it attacks: the gear's Attack (or the weapon's own), improved by Twins,
    /// set to 3+ for a Grizzly-family Rocket Pack, ranges cut to 2-4/8 for twinned guns.
    pub fn effective_weapon(&self, choice: WeaponChoice) -> Result<(Weapon, Rating), RuleError> {
        let (mut weapon, index) = match choice {
            WeaponChoice::Sheet(i) => (
                self.weapons
                    .get(i)
                    .cloned()
                    .ok_or(RuleError::NoSuchWeapon { index: i })?,
                Some(i),
            ),
            WeaponChoice::Wacker => {
                if !self.has_upgrade(Upgrade::Wacker) {
                    return Err(RuleError::MissingTrait {
                        name: self.name.clone(),
                        what: "Wacker".to_string(),
                    });
                }
                (Weapon::wacker(), None)
            }
        };
        let mut rating = weapon.attack.unwrap_or(self.attack);
        // Seed データカード Grizzly: Twins — Rocket Pack attacks at 3+.
        if self.has(Trait::Twins) && weapon.kind == WeaponKind::RocketPack {
            rating = Rating::new(3)?;
        }
        // Seed アップグレード 出目6: the twinned weapon's rating improves one step.
        if index.is_some_and(|i| self.upgrades.contains(&Upgrade::Twins { weapon: i })) {
            rating = rating.improved();
            if matches!(weapon.kind, WeaponKind::Autocannon | WeaponKind::Rifle) {
                weapon.range = Range {
                    optimal_min: 2,
                    optimal_max: 4,
                    max: 8,
                };
            }
        }
        Ok((weapon, rating))
    }
}

/// When the rattle record makes the gear permanently rattled, and when it is knocked out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RattleLimits {
    pub permanent: u8,
    pub knocked_out: u8,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn sheet(name: &str) -> GearSheet {
        GearSheet {
            name: name.to_string(),
            model: None,
            attack: Rating::new(4).unwrap(),
            defence: Rating::new(4).unwrap(),
            initiative: Rating::new(4).unwrap(),
            mr: 12,
            hull: 2,
            structure: 1,
            ar: 5,
            weapons: vec![Weapon {
                name: "Rifle".into(),
                kind: WeaponKind::Rifle,
                pow: 6,
                range: Range::new(3, 6, 12).unwrap(),
                traits: vec![],
                attack: None,
            }],
            traits: vec![],
            upgrades: vec![],
        }
    }

    #[test]
    fn sheets_are_validated() {
        let mut s = sheet("A");
        assert!(s.validate().is_ok());
        s.mr = 1000;
        assert!(matches!(s.validate(), Err(RuleError::OutOfBounds { .. })));
        let mut s = sheet("A");
        s.hull = 0;
        assert!(s.validate().is_err());
        let mut s = sheet("A");
        s.weapons[0].range = Range {
            optimal_min: 5,
            optimal_max: 3,
            max: 8,
        };
        assert_eq!(s.validate(), Err(RuleError::BadRange));
        let mut s = sheet("A");
        s.upgrades.push(Upgrade::Twins { weapon: 3 });
        assert_eq!(s.validate(), Err(RuleError::NoSuchWeapon { index: 3 }));
        let mut s = sheet("A");
        s.weapons[0].kind = WeaponKind::RocketPack;
        s.upgrades.push(Upgrade::Twins { weapon: 0 });
        assert_eq!(s.validate(), Err(RuleError::TwinsWeapon));
    }

    #[test]
    fn twins_upgrade_improves_rating_and_cuts_gun_range() {
        let mut s = sheet("A");
        s.upgrades.push(Upgrade::Twins { weapon: 0 });
        let (w, r) = s.effective_weapon(WeaponChoice::Sheet(0)).unwrap();
        assert_eq!(r.value(), 3);
        assert_eq!(w.range, Range::new(2, 4, 8).unwrap());
        let plain = sheet("B");
        let (w, r) = plain.effective_weapon(WeaponChoice::Sheet(0)).unwrap();
        assert_eq!(r.value(), 4);
        assert_eq!(w.range.max, 12);
    }

    #[test]
    fn grizzly_twins_trait_sets_rocket_pack_to_three_plus() {
        let mut s = sheet("Grizzly");
        s.attack = Rating::new(5).unwrap();
        s.weapons[0].kind = WeaponKind::RocketPack;
        s.traits.push(Trait::Twins);
        assert_eq!(s.effective_weapon(WeaponChoice::Sheet(0)).unwrap().1.value(), 3);
        s.traits.clear();
        assert_eq!(s.effective_weapon(WeaponChoice::Sheet(0)).unwrap().1.value(), 5);
    }

    #[test]
    fn wacker_needs_the_upgrade() {
        let mut s = sheet("A");
        assert!(matches!(
            s.effective_weapon(WeaponChoice::Wacker),
            Err(RuleError::MissingTrait { .. })
        ));
        s.upgrades.push(Upgrade::Wacker);
        let (w, _) = s.effective_weapon(WeaponChoice::Wacker).unwrap();
        assert_eq!(w.pow, 7);
        assert!(w.is_melee());
        assert_eq!(w.range.max, 2);
        assert_eq!(
            s.effective_weapon(WeaponChoice::Sheet(9)),
            Err(RuleError::NoSuchWeapon { index: 9 })
        );
    }

    #[test]
    fn every_trait_has_both_names() {
        for t in Trait::ALL {
            assert!(!t.name(Lang::En).is_empty());
            assert!(!t.name(Lang::Ja).is_ascii());
            assert!(!t.description(Lang::Ja).is_ascii());
        }
    }
}

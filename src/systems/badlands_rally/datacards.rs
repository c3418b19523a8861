//! The seed's datacards as data: every model's traits, with English and Japanese names and a
//! stable key for autocomplete (seed ◆データカード). Ratings, MR, hits, AR and weapons are not in
//! the seed; the decision note leaves them to the players.

use serde::Serialize;

use super::error::RuleError;
use super::gear_sheet::{GearSheet, Trait};
use crate::i18n::Lang;

/// One gear model. Models printed on the same datacard share its traits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Model {
    /// Stable, lowercase, hyphenated: store this, not the name.
    pub key: &'static str,
    pub en: &'static str,
    pub ja: &'static str,
    /// The datacard's heading, as the seed prints it (typos corrected: Jerboa, Iguana,
    /// Salamander).
    pub card: &'static str,
    pub traits: &'static [Trait],
}

impl Model {
    pub fn name(&self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.ja)
    }
}

/// Every model the seed's datacards name, in the seed's order.
pub const MODELS: &[Model] = &[
    Model {
        key: "pitbull",
        en: "Rally Pitbull",
        ja: "ラリー・ピットブル",
        card: "Rally Pitbull",
        traits: &[Trait::OffRoadSpecialist, Trait::HiTech],
    },
    Model {
        key: "ferret",
        en: "Rally Ferret",
        ja: "ラリー・フェレット",
        card: "Rally Ferret / Weasel",
        traits: &[Trait::LowProfile, Trait::ExposedMovement],
    },
    Model {
        key: "weasel",
        en: "Rally Weasel",
        ja: "ラリー・ウィーゼル",
        card: "Rally Ferret / Weasel",
        traits: &[Trait::LowProfile, Trait::ExposedMovement],
    },
    Model {
        key: "jerboa",
        en: "Rally Jerboa",
        ja: "ラリー・ジャーボア",
        card: "Rally Jerboa",
        traits: &[Trait::LowProfile, Trait::ExposedMovement, Trait::JumpJets],
    },
    Model {
        key: "viper",
        en: "Rally Viper",
        ja: "ラリー・ヴァイパー",
        card: "Rally Viper / Wildcat",
        traits: &[Trait::UrbanModification, Trait::ExposedMovement],
    },
    Model {
        key: "wildcat",
        en: "Rally Wildcat",
        ja: "ラリー・ワイルドキャット",
        card: "Rally Viper / Wildcat",
        traits: &[Trait::UrbanModification, Trait::ExposedMovement],
    },
    Model {
        key: "ferret-ii",
        en: "Rally Ferret II",
        ja: "ラリー・フェレットII",
        card: "Rally Ferret II / Weasel II",
        traits: &[Trait::LowProfile, Trait::ExposedMovement, Trait::Brawler],
    },
    Model {
        key: "weasel-ii",
        en: "Rally Weasel II",
        ja: "ラリー・ウィーゼルII",
        card: "Rally Ferret II / Weasel II",
        traits: &[Trait::LowProfile, Trait::ExposedMovement, Trait::Brawler],
    },
    Model {
        key: "pitbull-ii",
        en: "Rally Pitbull II",
        ja: "ラリー・ピットブルII",
        card: "Rally Pitbull II",
        traits: &[Trait::GentleHands, Trait::HiTech],
    },
    Model {
        key: "viper-ii",
        en: "Rally Viper II",
        ja: "ラリー・ヴァイパーII",
        card: "Rally Viper II / Wildcat II",
        traits: &[Trait::OffRoadSpecialist, Trait::ExposedMovement, Trait::Overdrive],
    },
    Model {
        key: "wildcat-ii",
        en: "Rally Wildcat II",
        ja: "ラリー・ワイルドキャットII",
        card: "Rally Viper II / Wildcat II",
        traits: &[Trait::OffRoadSpecialist, Trait::ExposedMovement, Trait::Overdrive],
    },
    Model {
        key: "jerboa-ii",
        en: "Rally Jerboa II",
        ja: "ラリー・ジャーボアII",
        card: "Rally Jerboa II",
        traits: &[Trait::LowProfile, Trait::BoosterRockets, Trait::GentleHands],
    },
    Model {
        key: "grizzly",
        en: "Rally Grizzly",
        ja: "ラリー・グリズリー",
        card: "Rally Grizzly / Bear / Koala / Dingo / Chevalier / Crusader IV",
        traits: &[Trait::Twins, Trait::Pyrotechnics, Trait::RoughRacer, Trait::Tall],
    },
    Model {
        key: "bear",
        en: "Rally Bear",
        ja: "ラリー・ベア",
        card: "Rally Grizzly / Bear / Koala / Dingo / Chevalier / Crusader IV",
        traits: &[Trait::Twins, Trait::Pyrotechnics, Trait::RoughRacer, Trait::Tall],
    },
    Model {
        key: "koala",
        en: "Rally Koala",
        ja: "ラリー・コアラ",
        card: "Rally Grizzly / Bear / Koala / Dingo / Chevalier / Crusader IV",
        traits: &[Trait::Twins, Trait::Pyrotechnics, Trait::RoughRacer, Trait::Tall],
    },
    Model {
        key: "dingo",
        en: "Rally Dingo",
        ja: "ラリー・ディンゴ",
        card: "Rally Grizzly / Bear / Koala / Dingo / Chevalier / Crusader IV",
        traits: &[Trait::Twins, Trait::Pyrotechnics, Trait::RoughRacer, Trait::Tall],
    },
    Model {
        key: "chevalier",
        en: "Rally Chevalier",
        ja: "ラリー・シュヴァリエ",
        card: "Rally Grizzly / Bear / Koala / Dingo / Chevalier / Crusader IV",
        traits: &[Trait::Twins, Trait::Pyrotechnics, Trait::RoughRacer, Trait::Tall],
    },
    Model {
        key: "crusader-iv",
        en: "Rally Crusader IV",
        ja: "ラリー・クルセイダーIV",
        card: "Rally Grizzly / Bear / Koala / Dingo / Chevalier / Crusader IV",
        traits: &[Trait::Twins, Trait::Pyrotechnics, Trait::RoughRacer, Trait::Tall],
    },
    Model {
        key: "cobra",
        en: "Rally Cobra",
        ja: "ラリー・コブラ",
        card: "Rally Cobra",
        traits: &[Trait::Pyrotechnics, Trait::Brawler, Trait::Tall],
    },
    Model {
        key: "sapeur",
        en: "Rally Sapeur",
        ja: "ラリー・サプール",
        card: "Rally Sapeur / Engineering Grizzly / Engineering Cobra",
        traits: &[Trait::ExposedCrew, Trait::LowPerformance, Trait::Tall],
    },
    Model {
        key: "engineering-grizzly",
        en: "Rally Engineering Grizzly",
        ja: "ラリー・エンジニアリング・グリズリー",
        card: "Rally Sapeur / Engineering Grizzly / Engineering Cobra",
        traits: &[Trait::ExposedCrew, Trait::LowPerformance, Trait::Tall],
    },
    Model {
        key: "engineering-cobra",
        en: "Rally Engineering Cobra",
        ja: "ラリー・エンジニアリング・コブラ",
        card: "Rally Sapeur / Engineering Grizzly / Engineering Cobra",
        traits: &[Trait::ExposedCrew, Trait::LowPerformance, Trait::Tall],
    },
    Model {
        key: "hunter",
        en: "Rally Hunter",
        ja: "ラリー・ハンター",
        card: "Rally Hunter / Jager / Warrior / Stripped Down Hunter / Stripped Down Jager / Hunter XMG",
        traits: &[Trait::Reliable, Trait::EasyToTrain, Trait::EasyToModify],
    },
    Model {
        key: "jager",
        en: "Rally Jager",
        ja: "ラリー・イェーガー",
        card: "Rally Hunter / Jager / Warrior / Stripped Down Hunter / Stripped Down Jager / Hunter XMG",
        traits: &[Trait::Reliable, Trait::EasyToTrain, Trait::EasyToModify],
    },
    Model {
        key: "warrior",
        en: "Rally Warrior",
        ja: "ラリー・ウォーリアー",
        card: "Rally Hunter / Jager / Warrior / Stripped Down Hunter / Stripped Down Jager / Hunter XMG",
        traits: &[Trait::Reliable, Trait::EasyToTrain, Trait::EasyToModify],
    },
    Model {
        key: "stripped-down-hunter",
        en: "Rally Stripped Down Hunter",
        ja: "ラリー・ストリップダウン・ハンター",
        card: "Rally Hunter / Jager / Warrior / Stripped Down Hunter / Stripped Down Jager / Hunter XMG",
        traits: &[Trait::Reliable, Trait::EasyToTrain, Trait::EasyToModify],
    },
    Model {
        key: "stripped-down-jager",
        en: "Rally Stripped Down Jager",
        ja: "ラリー・ストリップダウン・イェーガー",
        card: "Rally Hunter / Jager / Warrior / Stripped Down Hunter / Stripped Down Jager / Hunter XMG",
        traits: &[Trait::Reliable, Trait::EasyToTrain, Trait::EasyToModify],
    },
    Model {
        key: "hunter-xmg",
        en: "Rally Hunter XMG",
        ja: "ラリー・ハンターXMG",
        card: "Rally Hunter / Jager / Warrior / Stripped Down Hunter / Stripped Down Jager / Hunter XMG",
        traits: &[Trait::Reliable, Trait::EasyToTrain, Trait::EasyToModify],
    },
    Model {
        key: "chasseur-mkii",
        en: "Chasseur MkII",
        ja: "シャスールMkII",
        card: "Chasseur MkII",
        traits: &[Trait::JumpJets, Trait::HiTech, Trait::Hover],
    },
    Model {
        key: "mamba",
        en: "Rally Mamba",
        ja: "ラリー・マンバ",
        card: "Rally Mamba / Cuirassier / Jaguar / Tiger / Sidewinder / Warrior IV",
        traits: &[Trait::HiTech, Trait::HardToModify, Trait::Shield],
    },
    Model {
        key: "cuirassier",
        en: "Rally Cuirassier",
        ja: "ラリー・キュイラシェ",
        card: "Rally Mamba / Cuirassier / Jaguar / Tiger / Sidewinder / Warrior IV",
        traits: &[Trait::HiTech, Trait::HardToModify, Trait::Shield],
    },
    Model {
        key: "jaguar",
        en: "Rally Jaguar",
        ja: "ラリー・ジャガー",
        card: "Rally Mamba / Cuirassier / Jaguar / Tiger / Sidewinder / Warrior IV",
        traits: &[Trait::HiTech, Trait::HardToModify, Trait::Shield],
    },
    Model {
        key: "tiger",
        en: "Rally Tiger",
        ja: "ラリー・タイガー",
        card: "Rally Mamba / Cuirassier / Jaguar / Tiger / Sidewinder / Warrior IV",
        traits: &[Trait::HiTech, Trait::HardToModify, Trait::Shield],
    },
    Model {
        key: "sidewinder",
        en: "Rally Sidewinder",
        ja: "ラリー・サイドワインダー",
        card: "Rally Mamba / Cuirassier / Jaguar / Tiger / Sidewinder / Warrior IV",
        traits: &[Trait::HiTech, Trait::HardToModify, Trait::Shield],
    },
    Model {
        key: "warrior-iv",
        en: "Rally Warrior IV",
        ja: "ラリー・ウォーリアーIV",
        card: "Rally Mamba / Cuirassier / Jaguar / Tiger / Sidewinder / Warrior IV",
        traits: &[Trait::HiTech, Trait::HardToModify, Trait::Shield],
    },
    Model {
        key: "dart-jager",
        en: "Dart Jager",
        ja: "ダート・イェーガー",
        card: "Dart Jager / Salamander / Bobcat",
        traits: &[Trait::OffRoadSpecialist, Trait::ExposedMovement, Trait::Shield],
    },
    Model {
        key: "salamander",
        en: "Salamander",
        ja: "サラマンダー",
        card: "Dart Jager / Salamander / Bobcat",
        traits: &[Trait::OffRoadSpecialist, Trait::ExposedMovement, Trait::Shield],
    },
    Model {
        key: "bobcat",
        en: "Bobcat",
        ja: "ボブキャット",
        card: "Dart Jager / Salamander / Bobcat",
        traits: &[Trait::OffRoadSpecialist, Trait::ExposedMovement, Trait::Shield],
    },
    Model {
        key: "iguana",
        en: "Rally Iguana",
        ja: "ラリー・イグアナ",
        card: "Rally Iguana / Cheetah / Skirmisher",
        traits: &[Trait::Overdrive, Trait::HiTech],
    },
    Model {
        key: "cheetah",
        en: "Rally Cheetah",
        ja: "ラリー・チーター",
        card: "Rally Iguana / Cheetah / Skirmisher",
        traits: &[Trait::Overdrive, Trait::HiTech],
    },
    Model {
        key: "skirmisher",
        en: "Rally Skirmisher",
        ja: "ラリー・スカーミッシャー",
        card: "Rally Iguana / Cheetah / Skirmisher",
        traits: &[Trait::Overdrive, Trait::HiTech],
    },
];

/// The model with this key.
pub fn model(key: &str) -> Result<&'static Model, RuleError> {
    MODELS
        .iter()
        .find(|m| m.key.eq_ignore_ascii_case(key.trim()))
        .ok_or_else(|| RuleError::UnknownModel {
            key: key.chars().take(50).collect(),
        })
}

/// Autocomplete: models whose key or name (either language) contains the text, at most
/// `limit` (Discord shows 25).
pub fn search(text: &str, limit: usize) -> Vec<&'static Model> {
    let needle = text.trim().to_lowercase();
    MODELS
        .iter()
        .filter(|m| {
            needle.is_empty()
                || m.key.contains(&needle)
                || m.en.to_lowercase().contains(&needle)
                || m.ja.contains(&needle)
        })
        .take(limit)
        .collect()
}

/// Put the model's key and traits on a sheet (traits the players added stay).
pub fn with_model(mut sheet: GearSheet, key: &str) -> Result<GearSheet, RuleError> {
    let m = model(key)?;
    sheet.model = Some(m.key.to_string());
    for t in m.traits {
        if !sheet.traits.contains(t) {
            sheet.traits.push(*t);
        }
    }
    Ok(sheet)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::badlands_rally::gear_sheet::tests::sheet;

    #[test]
    fn keys_are_unique_and_tidy() {
        for (i, a) in MODELS.iter().enumerate() {
            assert!(
                a.key
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            );
            assert!(!a.ja.is_ascii(), "{} needs a Japanese name", a.key);
            assert!(!a.traits.is_empty());
            for b in &MODELS[i + 1..] {
                assert_ne!(a.key, b.key);
            }
        }
        assert_eq!(MODELS.len(), 41);
    }

    #[test]
    fn seed_traits_are_on_the_right_cards() {
        let j = model("jerboa").unwrap();
        assert_eq!(
            j.traits,
            &[Trait::LowProfile, Trait::ExposedMovement, Trait::JumpJets]
        );
        assert!(model("pitbull").unwrap().traits.contains(&Trait::HiTech));
        assert!(model("koala").unwrap().traits.contains(&Trait::Tall));
        assert!(model("hunter-xmg").unwrap().traits.contains(&Trait::Reliable));
        assert!(model("tiger").unwrap().traits.contains(&Trait::Shield));
        assert!(
            model("engineering-cobra")
                .unwrap()
                .traits
                .contains(&Trait::ExposedCrew)
        );
        assert!(model("chasseur-mkii").unwrap().traits.contains(&Trait::Hover));
        assert!(model("cheetah").unwrap().traits.contains(&Trait::Overdrive));
        assert!(matches!(model("atlas"), Err(RuleError::UnknownModel { .. })));
    }

    #[test]
    fn search_matches_keys_and_both_languages() {
        let hits: Vec<&str> = search("jerboa", 25).iter().map(|m| m.key).collect();
        assert_eq!(hits, vec!["jerboa", "jerboa-ii"]);
        assert_eq!(search("ジャーボア", 25).len(), 2);
        assert_eq!(search("", 25).len(), 25);
        assert!(search("zzz", 25).is_empty());
    }

    #[test]
    fn with_model_fills_traits_once() {
        let mut s = sheet("Hopper");
        s.traits.push(Trait::JumpJets);
        let s = with_model(s, "jerboa").unwrap();
        assert_eq!(s.model.as_deref(), Some("jerboa"));
        assert_eq!(s.traits.iter().filter(|t| **t == Trait::JumpJets).count(), 1);
        assert_eq!(s.traits.len(), 3);
    }
}

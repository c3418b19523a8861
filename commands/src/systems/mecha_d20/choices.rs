//! The fixed choices of `/mecha` options, in English and Japanese, mapped onto the engine's types.

use engine::systems::mecha_d20::attack::{AttackSkill, EvasionSkill};
use engine::systems::mecha_d20::movement::{Direction, MoveKind};
use engine::systems::mecha_d20::state::PromptKind;
use engine::systems::mecha_d20::unit::{Cockpit, Facing};

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum FacingChoice {
    #[name = "front"]
    #[name_localized("ja", "正面")]
    Front,
    #[name = "side"]
    #[name_localized("ja", "側面")]
    Side,
    #[name = "rear"]
    #[name_localized("ja", "背面")]
    Rear,
}

impl From<FacingChoice> for Facing {
    fn from(c: FacingChoice) -> Facing {
        match c {
            FacingChoice::Front => Facing::Front,
            FacingChoice::Side => Facing::Side,
            FacingChoice::Rear => Facing::Rear,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum SkillChoice {
    #[name = "shooting"]
    #[name_localized("ja", "射撃")]
    Shooting,
    #[name = "melee"]
    #[name_localized("ja", "格闘")]
    Melee,
    #[name = "charge"]
    #[name_localized("ja", "突撃")]
    Charge,
}

impl From<SkillChoice> for AttackSkill {
    fn from(c: SkillChoice) -> AttackSkill {
        match c {
            SkillChoice::Shooting => AttackSkill::Shooting,
            SkillChoice::Melee => AttackSkill::Melee,
            SkillChoice::Charge => AttackSkill::Charge,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum EvasionChoice {
    #[name = "evade"]
    #[name_localized("ja", "回避")]
    Evade,
    #[name = "parry"]
    #[name_localized("ja", "武器受け")]
    Parry,
    #[name = "intercept"]
    #[name_localized("ja", "迎撃")]
    Intercept,
}

impl From<EvasionChoice> for EvasionSkill {
    fn from(c: EvasionChoice) -> EvasionSkill {
        match c {
            EvasionChoice::Evade => EvasionSkill::Evade,
            EvasionChoice::Parry => EvasionSkill::Parry,
            EvasionChoice::Intercept => EvasionSkill::Intercept,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum CockpitChoice {
    #[name = "multi-monitor"]
    #[name_localized("ja", "多面モニター")]
    Multi,
    #[name = "all-round"]
    #[name_localized("ja", "全周囲モニター")]
    AllRound,
}

impl From<CockpitChoice> for Cockpit {
    fn from(c: CockpitChoice) -> Cockpit {
        match c {
            CockpitChoice::Multi => Cockpit::MultiMonitor,
            CockpitChoice::AllRound => Cockpit::AllRound,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum MoveChoice {
    #[name = "normal"]
    #[name_localized("ja", "通常移動")]
    Normal,
    #[name = "high-speed"]
    #[name_localized("ja", "高速移動")]
    HighSpeed,
}

impl From<MoveChoice> for MoveKind {
    fn from(c: MoveChoice) -> MoveKind {
        match c {
            MoveChoice::Normal => MoveKind::Normal,
            MoveChoice::HighSpeed => MoveKind::HighSpeed,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum DirectionChoice {
    #[name = "front"]
    #[name_localized("ja", "前")]
    Front,
    #[name = "front-left"]
    #[name_localized("ja", "左前")]
    FrontLeft,
    #[name = "front-right"]
    #[name_localized("ja", "右前")]
    FrontRight,
    #[name = "rear-left"]
    #[name_localized("ja", "左後")]
    RearLeft,
    #[name = "rear-right"]
    #[name_localized("ja", "右後")]
    RearRight,
    #[name = "rear"]
    #[name_localized("ja", "後")]
    Rear,
}

impl From<DirectionChoice> for Direction {
    fn from(c: DirectionChoice) -> Direction {
        match c {
            DirectionChoice::Front => Direction::Front,
            DirectionChoice::FrontLeft => Direction::FrontLeft,
            DirectionChoice::FrontRight => Direction::FrontRight,
            DirectionChoice::RearLeft => Direction::RearLeft,
            DirectionChoice::RearRight => Direction::RearRight,
            DirectionChoice::Rear => Direction::Rear,
        }
    }
}

/// The survival checks a command can roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poise::ChoiceParameter)]
pub enum SurvivalChoice {
    #[name = "fatigue"]
    #[name_localized("ja", "疲労")]
    Fatigue,
    #[name = "faint"]
    #[name_localized("ja", "気絶")]
    Faint,
    #[name = "escape"]
    #[name_localized("ja", "脱出")]
    Escape,
}

impl From<SurvivalChoice> for PromptKind {
    fn from(c: SurvivalChoice) -> PromptKind {
        match c {
            SurvivalChoice::Fatigue => PromptKind::Fatigue,
            SurvivalChoice::Faint => PromptKind::Faint,
            SurvivalChoice::Escape => PromptKind::Escape,
        }
    }
}

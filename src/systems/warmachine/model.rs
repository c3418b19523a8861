//! A model on the table (items 19, 20, 35, WG-8): its stats, weapons, damage boxes, state,
//! effect instances and its own cannot-flags. Stored as the roster entry's JSON; every field is
//! open to every player (item 20: no secret mode).

use serde::{Deserialize, Serialize};

use super::effects::{
    CannotFlag, EffectInstance, EffectSpec, Expiry, FlagSource, Stat, StatReading, by_name, canonical_name,
    read_stat, same_name,
};
use super::error::RuleError;
use crate::i18n::Lang;

/// Largest base stat (MAT, RAT, DEF, ARM, CMD, SPD, POW).
pub const MAX_STAT: u32 = 30;
/// Most damage boxes a model has.
pub const MAX_BOXES: u32 = 100;
/// Most weapons one model carries.
pub const MAX_WEAPONS: usize = 8;
/// Most effect instances one model carries.
pub const MAX_EFFECTS: usize = 40;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Melee,
    Ranged,
}

impl AttackKind {
    /// The stat the attack roll adds (item 4).
    pub fn stat(self) -> Stat {
        match self {
            AttackKind::Melee => Stat::Mat,
            AttackKind::Ranged => Stat::Rat,
        }
    }

    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            AttackKind::Melee => lang.pick("melee", "近接"),
            AttackKind::Ranged => lang.pick("ranged", "射撃"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub name: String,
    pub pow: u32,
    pub kind: AttackKind,
}

/// WG-8: disabled when the boxes are full; destroyed by an explicit action or a later hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelStatus {
    #[default]
    Ok,
    Disabled,
    Destroyed,
}

impl ModelStatus {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            ModelStatus::Ok => lang.pick("OK", "健在"),
            ModelStatus::Disabled => lang.pick("Disabled", "ディスエイブル"),
            ModelStatus::Destroyed => lang.pick("Destroyed", "デストロイ"),
        }
    }
}

/// Damage boxes as a pair, for "before → after".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Boxes {
    pub marked: u32,
    pub total: u32,
}

/// A state change a rule asks of a model (item 16's "must" rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateRequest {
    KnockDown,
    StandUp,
    GainCover,
    LoseCover,
}

impl StateRequest {
    /// The cannot-flag that forbids it.
    pub fn forbidden_by(self) -> Option<CannotFlag> {
        match self {
            StateRequest::KnockDown => Some(CannotFlag::Knockdown),
            StateRequest::StandUp => Some(CannotFlag::StandUp),
            StateRequest::GainCover => Some(CannotFlag::Cover),
            StateRequest::LoseCover => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    /// The roster entry's name (the bot fills it in; messages name the model by it).
    #[serde(default)]
    pub name: String,
    pub controller: String,
    #[serde(default)]
    pub mat: u32,
    #[serde(default)]
    pub rat: u32,
    pub def: u32,
    pub arm: u32,
    #[serde(default)]
    pub cmd: u32,
    #[serde(default)]
    pub spd: u32,
    pub boxes: u32,
    #[serde(default)]
    pub marked: u32,
    #[serde(default)]
    pub status: ModelStatus,
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// The model's own cannot-flags (its rules).
    #[serde(default)]
    pub cannot: Vec<CannotFlag>,
    /// Item 17: the model's own rule on automatic hits and misses, over the server option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_hit_miss: Option<bool>,
    #[serde(default)]
    pub knocked_down: bool,
    #[serde(default)]
    pub cover: bool,
    #[serde(default)]
    pub effects: Vec<EffectInstance>,
    /// The next effect instance's id.
    #[serde(default)]
    pub next_effect_id: u32,
}

/// An instance that ended, for the report of a turn or activation end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Expired {
    pub model: String,
    pub instance: EffectInstance,
    /// Whether another instance of the same name is still on the model (item 14).
    pub effect_remains: bool,
}

impl Model {
    /// A model with the given stats and nothing else (tests and presets).
    pub fn new(name: &str, controller: &str, def: u32, arm: u32, boxes: u32) -> Model {
        Model {
            name: name.into(),
            controller: controller.into(),
            mat: 0,
            rat: 0,
            def,
            arm,
            cmd: 0,
            spd: 0,
            boxes,
            marked: 0,
            status: ModelStatus::Ok,
            weapons: Vec::new(),
            cannot: Vec::new(),
            auto_hit_miss: None,
            knocked_down: false,
            cover: false,
            effects: Vec::new(),
            next_effect_id: 1,
        }
    }

    pub fn base(&self, stat: Stat) -> u32 {
        match stat {
            Stat::Mat => self.mat,
            Stat::Rat => self.rat,
            Stat::Def => self.def,
            Stat::Arm => self.arm,
            Stat::Cmd => self.cmd,
            Stat::Spd => self.spd,
            Stat::Pow => 0,
        }
    }

    /// A stat after this model's effects (item 18).
    pub fn stat(&self, stat: Stat) -> StatReading {
        read_stat(stat, i64::from(self.base(stat)), &self.effects)
    }

    pub fn boxes(&self) -> Boxes {
        Boxes {
            marked: self.marked,
            total: self.boxes,
        }
    }

    pub fn weapon(&self, name: &str) -> Result<&Weapon, RuleError> {
        self.weapons
            .iter()
            .find(|w| same_name(&w.name, name))
            .ok_or_else(|| RuleError::NoSuchWeapon {
                model: self.name.clone(),
                weapon: name.trim().to_string(),
            })
    }

    /// Whether a cannot-flag is present, and who carries it (the model's rule first).
    pub fn cannot(&self, flag: &CannotFlag) -> Option<FlagSource> {
        if self.cannot.contains(flag) {
            return Some(FlagSource::ModelRule);
        }
        // Flags carry no magnitude, so any instance of an effect carries them for the effect.
        self.effects
            .iter()
            .find(|e| e.cannot.contains(flag))
            .map(|e| FlagSource::Effect { name: e.name.clone() })
    }

    /// Every flag present, with its source (known and free text alike), for display.
    pub fn flags(&self) -> Vec<(CannotFlag, FlagSource)> {
        let mut out: Vec<(CannotFlag, FlagSource)> = self
            .cannot
            .iter()
            .map(|f| (f.clone(), FlagSource::ModelRule))
            .collect();
        for e in &self.effects {
            for f in &e.cannot {
                if !out.iter().any(|(g, _)| g == f) {
                    out.push((f.clone(), FlagSource::Effect { name: e.name.clone() }));
                }
            }
        }
        out
    }

    /// Refused with the reason when `flag` is present (item 16, WG-3).
    pub fn check_not_forbidden(&self, flag: &CannotFlag) -> Result<(), RuleError> {
        match self.cannot(flag) {
            None => Ok(()),
            Some(carrier) => Err(RuleError::CannotBeatsMust {
                model: self.name.clone(),
                flag: flag.clone(),
                carrier,
            }),
        }
    }

    /// A "must" state change: refused when a cannot-flag forbids it (item 16: "cannot be knocked
    /// down" against "is knocked down" → not knocked down).
    pub fn request(&mut self, req: StateRequest) -> Result<(), RuleError> {
        self.alive()?;
        if let Some(flag) = req.forbidden_by() {
            self.check_not_forbidden(&flag)?;
        }
        match req {
            StateRequest::KnockDown => self.knocked_down = true,
            StateRequest::StandUp => self.knocked_down = false,
            StateRequest::GainCover => self.cover = true,
            StateRequest::LoseCover => self.cover = false,
        }
        Ok(())
    }

    /// Item 16, guideline 1: a rule that states its interaction with the cannot-flag (players
    /// say so) is followed, so the state change applies whatever the flags.
    pub fn request_stated(&mut self, req: StateRequest) -> Result<(), RuleError> {
        self.alive()?;
        let saved = std::mem::take(&mut self.cannot);
        let effects_flags: Vec<Vec<CannotFlag>> = self
            .effects
            .iter_mut()
            .map(|e| std::mem::take(&mut e.cannot))
            .collect();
        let result = self.request(req);
        self.cannot = saved;
        for (e, flags) in self.effects.iter_mut().zip(effects_flags) {
            e.cannot = flags;
        }
        result
    }

    pub fn alive(&self) -> Result<(), RuleError> {
        if self.status == ModelStatus::Destroyed {
            Err(RuleError::Destroyed {
                model: self.name.clone(),
            })
        } else {
            Ok(())
        }
    }

    /// Put an instance of `spec` on the model (WG-1); its id is returned. The name of a preset
    /// typed in Japanese is stored as the preset's, so both count as the same effect.
    pub fn add_effect(
        &mut self,
        spec: &EffectSpec,
        expiry: Expiry,
        source: Option<&str>,
        owner: Option<&str>,
    ) -> Result<u32, RuleError> {
        spec.validate()?;
        self.alive()?;
        if self.effects.len() >= MAX_EFFECTS {
            return Err(RuleError::TooManyEffects {
                model: self.name.clone(),
                max: MAX_EFFECTS,
            });
        }
        let id = self.next_effect_id.max(1);
        self.next_effect_id = id + 1;
        self.effects.push(EffectInstance {
            id,
            name: canonical_name(&spec.name),
            changes: spec.changes.clone(),
            cannot: spec.cannot.clone(),
            source: source.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()),
            owner: owner.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()),
            expiry,
        });
        Ok(id)
    }

    /// Remove one instance by hand (manual expiry).
    pub fn remove_instance(&mut self, id: u32) -> Result<EffectInstance, RuleError> {
        let at = self
            .effects
            .iter()
            .position(|e| e.id == id)
            .ok_or_else(|| RuleError::NoSuchInstance {
                model: self.name.clone(),
                id,
            })?;
        Ok(self.effects.remove(at))
    }

    /// Remove every instance of an effect (players remove Dark Shroud when the 2" no longer holds).
    pub fn remove_effect(&mut self, name: &str) -> Result<Vec<EffectInstance>, RuleError> {
        let name = canonical_name(name);
        if !self.effects.iter().any(|e| same_name(&e.name, &name)) {
            return Err(RuleError::NoSuchEffect {
                model: self.name.clone(),
                name,
            });
        }
        let (gone, keep): (Vec<_>, Vec<_>) = self.effects.drain(..).partition(|e| same_name(&e.name, &name));
        self.effects = keep;
        Ok(gone)
    }

    /// Remove the instances whose expiry is `at` (item 14: each instance by its own expiry).
    pub fn expire(&mut self, at: &Expiry) -> Vec<Expired> {
        let (gone, keep): (Vec<_>, Vec<_>) = self.effects.drain(..).partition(|e| &e.expiry == at);
        self.effects = keep;
        gone.into_iter()
            .map(|instance| Expired {
                model: self.name.clone(),
                effect_remains: self.effects.iter().any(|e| same_name(&e.name, &instance.name)),
                instance,
            })
            .collect()
    }

    /// The effects present, one line each: the name and the instance that applies.
    pub fn effect_names(&self) -> Vec<String> {
        by_name(&self.effects)
            .into_iter()
            .map(|(w, _)| w.name.clone())
            .collect()
    }

    /// WG-8: mark `damage` boxes; disabled when they are full; a hit on a disabled model
    /// destroys it. Returns whether this hit destroyed it.
    pub fn take_hit(&mut self, damage: u32) -> bool {
        if self.status == ModelStatus::Disabled {
            self.status = ModelStatus::Destroyed;
            return true;
        }
        self.marked = self.marked.saturating_add(damage).min(self.boxes);
        if self.marked >= self.boxes {
            self.status = ModelStatus::Disabled;
        }
        false
    }

    /// A new game (rules file §5): no damage, no effects, standing, out of cover, OK. Stats,
    /// weapons, controller and the model's own rules stay.
    pub fn new_game(&mut self) {
        self.marked = 0;
        self.status = ModelStatus::Ok;
        self.effects.clear();
        self.knocked_down = false;
        self.cover = false;
    }

    /// WG-8's explicit removal.
    pub fn destroy(&mut self) -> Result<(), RuleError> {
        self.alive()?;
        self.status = ModelStatus::Destroyed;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Localized;
    use crate::systems::warmachine::effects::{StatChange, preset};

    fn spec(name: &str, stat: Stat, delta: i32) -> EffectSpec {
        EffectSpec {
            name: name.into(),
            changes: vec![StatChange { stat, delta }],
            cannot: vec![],
        }
    }

    #[test]
    fn cannot_be_knocked_down_beats_is_knocked_down() {
        // Item 16's example, from the model's own rule and from an effect.
        let mut m = Model::new("Juggernaut", "Ana", 12, 18, 30);
        m.cannot.push(CannotFlag::Knockdown);
        let before = m.clone();
        let e = m.request(StateRequest::KnockDown).unwrap_err();
        assert!(matches!(
            &e,
            RuleError::CannotBeatsMust {
                carrier: FlagSource::ModelRule,
                ..
            }
        ));
        assert!(e.to_string().contains("cannot beats must"));
        assert_eq!(m, before, "nothing changed");

        let mut m = Model::new("Stalker", "Ana", 14, 13, 10);
        m.add_effect(
            &EffectSpec {
                name: "Steady".into(),
                changes: vec![],
                cannot: vec![CannotFlag::Knockdown, CannotFlag::StandUp],
            },
            Expiry::Manual,
            None,
            None,
        )
        .unwrap();
        let e = m.request(StateRequest::KnockDown).unwrap_err();
        assert!(e.localized(Lang::En).contains("effect Steady"), "{e}");
        assert!(e.localized(Lang::Ja).contains("効果「Steady」"));
        assert!(!m.knocked_down);
        m.request(StateRequest::GainCover).unwrap();
        assert!(m.cover);
        m.cannot.push(CannotFlag::Cover);
        m.request(StateRequest::LoseCover).unwrap();
        assert!(m.request(StateRequest::GainCover).is_err());
        assert!(!m.cover);
    }

    #[test]
    fn a_rule_that_states_its_interaction_is_followed() {
        // Item 16, guideline 1 comes before "cannot beats must".
        let mut m = Model::new("Juggernaut", "Ana", 12, 18, 30);
        m.cannot.push(CannotFlag::Knockdown);
        m.request_stated(StateRequest::KnockDown).unwrap();
        assert!(m.knocked_down);
        assert_eq!(m.cannot, vec![CannotFlag::Knockdown], "the flags stay");
        assert!(m.request(StateRequest::KnockDown).is_err());
    }

    #[test]
    fn a_knocked_down_model_with_cannot_stand_up_stays_down() {
        let mut m = Model::new("Slave", "Ana", 12, 12, 5);
        m.request(StateRequest::KnockDown).unwrap();
        m.cannot.push(CannotFlag::StandUp);
        assert!(m.request(StateRequest::StandUp).is_err());
        assert!(m.knocked_down);
    }

    #[test]
    fn instances_expire_each_by_its_own_expiry() {
        // Item 14: the effect stays while one instance is left.
        let mut m = Model::new("Target", "Ben", 12, 16, 10);
        let a = m
            .add_effect(
                &spec("Dark Shroud", Stat::Arm, -2),
                Expiry::EndOfActivation {
                    model: "Shade".into(),
                },
                Some("Shade"),
                Some("Ana"),
            )
            .unwrap();
        let b = m
            .add_effect(&spec("Dark Shroud", Stat::Arm, -2), Expiry::Manual, None, None)
            .unwrap();
        assert_ne!(a, b);
        assert_eq!(m.stat(Stat::Arm).value, 14);
        let gone = m.expire(&Expiry::EndOfActivation {
            model: "Shade".into(),
        });
        assert_eq!(gone.len(), 1);
        assert!(gone[0].effect_remains);
        assert_eq!(m.stat(Stat::Arm).value, 14, "the other instance still applies");
        m.remove_instance(b).unwrap();
        assert_eq!(m.stat(Stat::Arm).value, 16);
        assert!(matches!(
            m.remove_instance(b),
            Err(RuleError::NoSuchInstance { .. })
        ));
    }

    #[test]
    fn remove_effect_takes_every_instance_and_presets_match_in_japanese() {
        let mut m = Model::new("Target", "Ben", 12, 16, 10);
        let p = preset("dark_shroud").unwrap();
        m.add_effect(&p, Expiry::Manual, None, None).unwrap();
        m.add_effect(
            &spec("ダーク・シュラウド", Stat::Arm, -2),
            Expiry::Manual,
            None,
            None,
        )
        .unwrap();
        assert_eq!(m.effects[1].name, "Dark Shroud");
        assert_eq!(m.stat(Stat::Arm).value, 14);
        assert_eq!(m.remove_effect("dark shroud").unwrap().len(), 2);
        assert!(m.effects.is_empty());
        assert!(matches!(
            m.remove_effect("Fog"),
            Err(RuleError::NoSuchEffect { .. })
        ));
    }

    #[test]
    fn boxes_fill_to_disabled_and_a_later_hit_destroys() {
        // WG-8.
        let mut m = Model::new("Grunt", "Ben", 13, 13, 5);
        assert!(!m.take_hit(4));
        assert_eq!((m.marked, m.status), (4, ModelStatus::Ok));
        assert!(!m.take_hit(9));
        assert_eq!(
            (m.marked, m.status),
            (5, ModelStatus::Disabled),
            "marked never passes total"
        );
        assert!(m.take_hit(0), "a later hit, even for 0, destroys");
        assert_eq!(m.status, ModelStatus::Destroyed);
        assert!(matches!(m.destroy(), Err(RuleError::Destroyed { .. })));
        let mut n = Model::new("Other", "Ben", 13, 13, 5);
        n.destroy().unwrap();
        assert_eq!(n.status, ModelStatus::Destroyed);
    }

    #[test]
    fn too_many_effects_and_destroyed_models_are_refused() {
        let mut m = Model::new("T", "Ben", 12, 12, 5);
        for i in 0..MAX_EFFECTS {
            m.add_effect(&spec(&format!("E{i}"), Stat::Def, -1), Expiry::Manual, None, None)
                .unwrap();
        }
        let before = m.clone();
        assert!(matches!(
            m.add_effect(&spec("One more", Stat::Def, -1), Expiry::Manual, None, None),
            Err(RuleError::TooManyEffects { .. })
        ));
        assert_eq!(m, before);
        m.destroy().unwrap();
        assert!(m.request(StateRequest::KnockDown).is_err());
    }
}

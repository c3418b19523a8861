//! A roster entry: one pilot in one suit (兵装), with the stats the rules read (checklist 23–24)
//! and the state they change. Stored as the entry's JSON sheet; edited by [`super::sheet`].
//!
//! The suit keeps its base stats apart from the wear secondary damage caused ([`Wear`]), so the
//! board can show "armour 8 → 5" and a repair is just clearing the wear (MG-8 c: penalties stack;
//! armour, reactor and movement floor at 0; evasion, accuracy and fire control may go negative).

use serde::{Deserialize, Serialize};

use super::error::RuleError;
use crate::i18n::Lang;

/// The pilot's abilities, skills and tracked points (checklist 23).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Pilot {
    /// Shown name when it differs from the entry's.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// 判断力
    pub judgement: i64,
    /// 集中力
    pub concentration: i64,
    /// 反応力
    pub reaction: i64,
    /// 戦術
    pub tactics: i64,
    /// 射撃
    pub shooting: i64,
    /// 格闘
    pub melee: i64,
    /// 突撃
    pub charge: i64,
    /// 回避
    pub evade: i64,
    /// 武器受け
    pub parry: i64,
    /// 迎撃
    pub intercept: i64,
    /// Maximum AP (行動ポイント): the fatigue check's base (checklist 7).
    pub ap_max: u32,
    /// AP left this turn (MG-4).
    pub ap: u32,
    /// Fatigue points taken; each lowers the AP a turn starts with (MG-4).
    pub fatigue: u32,
    pub spirit_max: u32,
    /// Current spirit points: the faint check's base (checklist 8).
    pub spirit: u32,
    /// Fainted until the GM clears the flag (MG-3).
    pub fainted: bool,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub squad: String,
    pub leader: bool,
    /// The last escape check's result, once the suit was destroyed (MG-2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub escaped: Option<bool>,
}

/// Which cockpit decides the facing penalty (checklist 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cockpit {
    /// 多面モニター (early suits): side −2, rear −5.
    #[default]
    MultiMonitor,
    /// 全周囲モニター (second generation): side −1, rear −4.
    AllRound,
}

impl Cockpit {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Cockpit::MultiMonitor => lang.pick("multi-monitor", "多面モニター"),
            Cockpit::AllRound => lang.pick("all-round monitor", "全周囲モニター"),
        }
    }
}

/// Where the attacker stands, seen from the target (the player says: the figure is lost, L128).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    #[default]
    Front,
    Side,
    Rear,
}

impl Facing {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Facing::Front => lang.pick("front", "正面"),
            Facing::Side => lang.pick("side", "側面"),
            Facing::Rear => lang.pick("rear", "背面"),
        }
    }
}

/// The evasion penalty for an attack from `facing` at a suit with `cockpit` (L126–130).
pub fn facing_penalty(cockpit: Cockpit, facing: Facing) -> i64 {
    match (cockpit, facing) {
        (_, Facing::Front) => 0,
        (Cockpit::MultiMonitor, Facing::Side) => -2,
        (Cockpit::MultiMonitor, Facing::Rear) => -5,
        (Cockpit::AllRound, Facing::Side) => -1,
        (Cockpit::AllRound, Facing::Rear) => -4,
    }
}

/// Melee weapons reach hex 0 only; ranged ones r−1…r+1 (checklist 21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponKind {
    Melee,
    #[default]
    Ranged,
}

/// Firing arcs (checklist 20). The bot cannot see the map: the player says whether the target
/// is in the arc, and the arc is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arc {
    /// 正面: wide; arms and legs.
    #[default]
    Front,
    /// 前面: straight ahead; fixed to the body.
    Forward,
    /// 全周: all round.
    AllRound,
    /// 背面: rear.
    Rear,
}

impl Arc {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Arc::Front => lang.pick("front arc", "正面射界"),
            Arc::Forward => lang.pick("forward arc", "前面射界"),
            Arc::AllRound => lang.pick("all-round arc", "全周面射界"),
            Arc::Rear => lang.pick("rear arc", "背面射界"),
        }
    }
}

/// Left or right, when a weapon's mount records it (MG-8 d).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Side::Left => lang.pick("left", "左"),
            Side::Right => lang.pick("right", "右"),
        }
    }
}

/// The part a weapon is mounted on: rows 17–19 lose the weapons on a destroyed part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "part")]
pub enum Mount {
    Head,
    Arm {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
    },
    Leg {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
    },
    Body,
}

impl Mount {
    pub fn name(self, lang: Lang) -> String {
        let side = |s: Option<Side>| s.map(|s| s.name(lang)).unwrap_or("");
        match self {
            Mount::Head => lang.pick("head", "頭部").to_string(),
            Mount::Body => lang.pick("body", "胴体").to_string(),
            Mount::Arm { side: s } => match lang {
                Lang::En => format!("{} arm", side(s)).trim().to_string(),
                Lang::Ja => format!("{}腕", side(s)),
            },
            Mount::Leg { side: s } => match lang {
                Lang::En => format!("{} leg", side(s)).trim().to_string(),
                Lang::Ja => format!("{}脚", side(s)),
            },
        }
    }
}

/// Fixed (固定武装) or standard (標準武装): rows 7–8 and 15–16 pick among one category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Fixed,
    #[default]
    Standard,
}

/// A weapon's state (checklist 24; MG-8 e).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum WeaponStatus {
    #[default]
    Usable,
    /// Unusable in turn `turn` only (rows 7–8 applied in turn `turn − 1`).
    Malfunction { turn: u32 },
    /// Unusable from turn `from` on (rows 15–16).
    Destroyed { from: u32 },
    /// Lost with its part from turn `from` on (rows 17–19).
    Lost { from: u32 },
}

impl WeaponStatus {
    /// Whether a weapon in this state can fire in `turn`.
    pub fn usable_in(self, turn: u32) -> bool {
        match self {
            WeaponStatus::Usable => true,
            WeaponStatus::Malfunction { turn: t } => turn != t,
            WeaponStatus::Destroyed { from } | WeaponStatus::Lost { from } => turn < from,
        }
    }
}

/// A weapon's damage expression: `count`d`sides` + `bonus` (2d6+5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Power {
    pub count: u32,
    pub sides: u32,
    pub bonus: i64,
}

impl std::fmt::Display for Power {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.bonus {
            0 => Ok(()),
            b if b > 0 => write!(f, "+{b}"),
            b => write!(f, "{b}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    pub name: String,
    #[serde(default)]
    pub kind: WeaponKind,
    pub power: Power,
    /// The range r of a ranged weapon (0 for melee).
    #[serde(default)]
    pub range: u32,
    #[serde(default)]
    pub arc: Arc,
    /// Added to the attack total.
    #[serde(default)]
    pub modifier: i64,
    /// Not recorded: no part destruction loses it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount: Option<Mount>,
    #[serde(default)]
    pub category: Category,
    #[serde(default)]
    pub status: WeaponStatus,
}

impl Weapon {
    /// The hexes it reaches (checklist 21, MG-12).
    pub fn reach(&self) -> (u32, u32) {
        match self.kind {
            WeaponKind::Melee => (0, 0),
            WeaponKind::Ranged => (self.range.saturating_sub(1), self.range + 1),
        }
    }
}

/// Destroyed limbs: a recorded side, or one the owner did not name (MG-8 d).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limb {
    Left,
    Right,
    Unnamed,
}

/// What secondary damage did to the suit, kept apart from its base stats (MG-8 c).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Wear {
    pub escape_device: u32,
    pub armour: u32,
    pub evasion: u32,
    pub fire_control: u32,
    pub accuracy: u32,
    pub reactor: u32,
    pub movement: u32,
    /// Row 20: reactor output 0 (a badge; MG-8 f gives it no automatic effect).
    pub reactor_zero: bool,
    /// Times the head was destroyed (row 17).
    pub head: u32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arms: Vec<Limb>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub legs: Vec<Limb>,
}

impl Wear {
    pub fn is_empty(&self) -> bool {
        *self == Wear::default()
    }
}

/// The suit (checklist 24). Base stats as the sheet gives them; [`Suit::wear`] lowers them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Suit {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub model: String,
    pub durability_max: u32,
    /// Current durability, applied only in the application phase; ≤ 0 there destroys (MG-6).
    pub durability: i64,
    pub armour: u32,
    /// 回避力: the suit's modifier to evasion.
    pub evasion: i64,
    /// 火器管制力: added to attacks (MG-8 g).
    pub fire_control: i64,
    /// 命中: added to attacks (MG-8 g).
    pub accuracy: i64,
    pub reactor: u32,
    pub propellant_max: u32,
    /// Propellant left (MG-5).
    pub propellant: u32,
    pub movement: u32,
    pub high_speed: u32,
    pub escape_device: i64,
    /// 操縦難易度修正: added to the fatigue check.
    pub handling: i64,
    pub cockpit: Cockpit,
    pub destroyed: bool,
    pub weapons: Vec<Weapon>,
    pub wear: Wear,
}

impl Suit {
    pub fn armour_now(&self) -> u32 {
        self.armour.saturating_sub(self.wear.armour)
    }
    pub fn evasion_now(&self) -> i64 {
        self.evasion - i64::from(self.wear.evasion)
    }
    pub fn fire_control_now(&self) -> i64 {
        self.fire_control - i64::from(self.wear.fire_control)
    }
    pub fn accuracy_now(&self) -> i64 {
        self.accuracy - i64::from(self.wear.accuracy)
    }
    pub fn reactor_now(&self) -> u32 {
        if self.wear.reactor_zero {
            0
        } else {
            self.reactor.saturating_sub(self.wear.reactor)
        }
    }
    pub fn movement_now(&self) -> u32 {
        self.movement.saturating_sub(self.wear.movement)
    }
    pub fn high_speed_now(&self) -> u32 {
        self.high_speed.saturating_sub(self.wear.movement)
    }
    /// Not floored: the seed names no floor for it, and it only adds to a d20.
    pub fn escape_device_now(&self) -> i64 {
        self.escape_device - i64::from(self.wear.escape_device)
    }
}

/// One roster entry: a pilot in a suit.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Unit {
    pub pilot: Pilot,
    pub suit: Suit,
}

impl Unit {
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }

    /// The weapon called `name` (case-insensitive), or its 1-based number.
    pub fn weapon_index(&self, unit: &str, name: &str) -> Result<usize, RuleError> {
        let t = name.trim();
        let by_number = t
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=self.suit.weapons.len()).contains(n))
            .map(|n| n - 1);
        by_number
            .or_else(|| {
                self.suit
                    .weapons
                    .iter()
                    .position(|w| w.name.eq_ignore_ascii_case(t))
            })
            .ok_or_else(|| RuleError::NoSuchWeapon {
                unit: unit.to_string(),
                weapon: t.to_string(),
            })
    }

    /// Refused when the suit was destroyed in an earlier application phase.
    pub fn ensure_active(&self, name: &str) -> Result<(), RuleError> {
        if self.suit.destroyed {
            Err(RuleError::Destroyed {
                name: name.to_string(),
            })
        } else {
            Ok(())
        }
    }

    /// MG-4: the AP a turn starts with, maximum AP − fatigue (never below 0).
    pub fn refresh_ap(&mut self) {
        self.pilot.ap = self.pilot.ap_max.saturating_sub(self.pilot.fatigue);
    }

    /// Spend AP (a move, an action); refused, with nothing spent, when there is not enough.
    pub fn spend_ap(&mut self, name: &str, ap: u32) -> Result<u32, RuleError> {
        if ap > self.pilot.ap {
            return Err(RuleError::NotEnoughAp {
                name: name.to_string(),
                left: self.pilot.ap,
                needed: ap,
            });
        }
        self.pilot.ap -= ap;
        Ok(self.pilot.ap)
    }

    /// Spend spirit points (spirit commands are not in the seed: the player says how many).
    pub fn spend_spirit(&mut self, name: &str, points: u32) -> Result<u32, RuleError> {
        if points > self.pilot.spirit {
            return Err(RuleError::NotEnoughSpirit {
                name: name.to_string(),
                left: self.pilot.spirit,
                needed: points,
            });
        }
        self.pilot.spirit -= points;
        Ok(self.pilot.spirit)
    }

    /// Spend propellant (MG-5: the player states the amount).
    pub fn spend_propellant(&mut self, name: &str, amount: u32) -> Result<u32, RuleError> {
        if amount > self.suit.propellant {
            return Err(RuleError::NotEnoughPropellant {
                name: name.to_string(),
                left: self.suit.propellant,
                needed: amount,
            });
        }
        self.suit.propellant -= amount;
        Ok(self.suit.propellant)
    }

    /// A new battle without repairs (rules file §5, `mecha.repair_between_battles=none`): the
    /// pilot rested (AP full, no fatigue, spirit full, awake), propellant refilled, malfunctions
    /// over; durability, wear and a destroyed suit stay, and so do destroyed and lost weapons,
    /// now from the battle's first turn (turns count again from 1).
    pub fn rest(&mut self) {
        let s = &mut self.suit;
        s.propellant = s.propellant_max;
        for w in &mut s.weapons {
            w.status = match w.status {
                WeaponStatus::Usable | WeaponStatus::Malfunction { .. } => WeaponStatus::Usable,
                WeaponStatus::Destroyed { .. } => WeaponStatus::Destroyed { from: 0 },
                WeaponStatus::Lost { .. } => WeaponStatus::Lost { from: 0 },
            };
        }
        let p = &mut self.pilot;
        p.fatigue = 0;
        p.ap = p.ap_max;
        p.spirit = p.spirit_max;
        p.fainted = false;
    }

    /// Back to a fresh unit: full durability, AP, spirit and propellant; no wear, fatigue,
    /// faint or weapon damage.
    pub fn repair(&mut self) {
        let s = &mut self.suit;
        s.durability = i64::from(s.durability_max);
        s.propellant = s.propellant_max;
        s.destroyed = false;
        s.wear = Wear::default();
        for w in &mut s.weapons {
            w.status = WeaponStatus::Usable;
        }
        let p = &mut self.pilot;
        p.fatigue = 0;
        p.ap = p.ap_max;
        p.spirit = p.spirit_max;
        p.fainted = false;
        p.escaped = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_penalties_follow_the_cockpit() {
        use Cockpit::*;
        use Facing::*;
        assert_eq!(facing_penalty(MultiMonitor, Front), 0);
        assert_eq!(facing_penalty(MultiMonitor, Side), -2);
        assert_eq!(facing_penalty(MultiMonitor, Rear), -5);
        assert_eq!(facing_penalty(AllRound, Front), 0);
        assert_eq!(facing_penalty(AllRound, Side), -1);
        assert_eq!(facing_penalty(AllRound, Rear), -4);
    }

    #[test]
    fn weapon_status_reads_by_turn() {
        // Row 7 applied in turn 3: unusable in 4, usable again from 5 (MG-8 e).
        let m = WeaponStatus::Malfunction { turn: 4 };
        assert!(m.usable_in(3) && !m.usable_in(4) && m.usable_in(5));
        // Row 15 applied in turn 3: unusable from 4 on.
        let d = WeaponStatus::Destroyed { from: 4 };
        assert!(d.usable_in(3) && !d.usable_in(4) && !d.usable_in(9));
    }

    #[test]
    fn wear_lowers_stats_with_the_rules_floors() {
        let mut s = Suit {
            armour: 2,
            evasion: 1,
            reactor: 2,
            movement: 1,
            high_speed: 3,
            escape_device: 0,
            ..Suit::default()
        };
        s.wear.armour = 3;
        s.wear.evasion = 3;
        s.wear.reactor = 1;
        s.wear.movement = 2;
        s.wear.escape_device = 1;
        assert_eq!(s.armour_now(), 0, "armour floors at 0");
        assert_eq!(s.evasion_now(), -2, "evasion may go negative");
        assert_eq!(s.reactor_now(), 1);
        assert_eq!((s.movement_now(), s.high_speed_now()), (0, 1));
        assert_eq!(s.escape_device_now(), -1);
        s.wear.reactor_zero = true;
        assert_eq!(s.reactor_now(), 0);
    }

    #[test]
    fn spending_more_than_is_left_is_refused_and_changes_nothing() {
        let mut u = Unit::default();
        u.pilot.ap = 2;
        u.pilot.spirit = 3;
        u.suit.propellant = 4;
        let before = u.clone();
        assert!(matches!(
            u.spend_ap("A", 3),
            Err(RuleError::NotEnoughAp {
                left: 2,
                needed: 3,
                ..
            })
        ));
        assert!(u.spend_spirit("A", 4).is_err());
        assert!(u.spend_propellant("A", 5).is_err());
        assert_eq!(u, before);
        assert_eq!(u.spend_ap("A", 2), Ok(0));
        assert_eq!(u.spend_propellant("A", 4), Ok(0));
    }

    #[test]
    fn ranged_reach_floors_at_zero_and_melee_is_hex_zero() {
        let mut w = Weapon {
            name: "R".into(),
            kind: WeaponKind::Ranged,
            power: Power {
                count: 2,
                sides: 6,
                bonus: 0,
            },
            range: 0,
            arc: Arc::Front,
            modifier: 0,
            mount: None,
            category: Category::Standard,
            status: WeaponStatus::Usable,
        };
        assert_eq!(w.reach(), (0, 1));
        w.range = 1;
        assert_eq!(w.reach(), (0, 2));
        w.range = 4;
        assert_eq!(w.reach(), (3, 5));
        w.kind = WeaponKind::Melee;
        assert_eq!(w.reach(), (0, 0));
    }
}

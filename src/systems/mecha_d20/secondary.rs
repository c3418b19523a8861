//! The secondary-damage table (二次損害, checklist 13–14, MG-8): twenty rows in the seed's order,
//! rolled on a d20 with the damage and applied to the suit in the application phase.

use serde::{Deserialize, Serialize};

use super::error::RuleError;
use super::unit::{Category, Limb, Mount, Side, Unit, WeaponStatus};
use crate::dice::Roller;
use crate::i18n::Lang;

/// A row of the table; the serde form is the bot's key (`armour_-1`, `reactor_zero`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SecondaryRow {
    #[serde(rename = "escape_-1")]
    Escape1,
    #[serde(rename = "propellant_-2")]
    Propellant2,
    #[serde(rename = "evasion_-1")]
    Evasion1,
    #[serde(rename = "armour_-1")]
    Armour1,
    #[serde(rename = "fire_control_-1")]
    FireControl1,
    #[serde(rename = "reactor_-1")]
    Reactor1,
    #[serde(rename = "fixed_weapon_malfunction")]
    FixedMalfunction,
    #[serde(rename = "standard_weapon_malfunction")]
    StandardMalfunction,
    #[serde(rename = "movement_-1")]
    Movement1,
    #[serde(rename = "propellant_-5")]
    Propellant5,
    #[serde(rename = "evasion_-3")]
    Evasion3,
    #[serde(rename = "armour_-3")]
    Armour3,
    #[serde(rename = "fire_control_-3")]
    FireControl3,
    #[serde(rename = "reactor_-3")]
    Reactor3,
    #[serde(rename = "fixed_weapon_destroyed")]
    FixedDestroyed,
    #[serde(rename = "standard_weapon_destroyed")]
    StandardDestroyed,
    #[serde(rename = "head_destroyed")]
    Head,
    #[serde(rename = "arm_destroyed")]
    Arm,
    #[serde(rename = "leg_destroyed")]
    Leg,
    #[serde(rename = "reactor_zero")]
    ReactorZero,
}

impl SecondaryRow {
    /// Rows 1–20 in the seed's order (checklist 14).
    pub const ALL: [SecondaryRow; 20] = [
        SecondaryRow::Escape1,
        SecondaryRow::Propellant2,
        SecondaryRow::Evasion1,
        SecondaryRow::Armour1,
        SecondaryRow::FireControl1,
        SecondaryRow::Reactor1,
        SecondaryRow::FixedMalfunction,
        SecondaryRow::StandardMalfunction,
        SecondaryRow::Movement1,
        SecondaryRow::Propellant5,
        SecondaryRow::Evasion3,
        SecondaryRow::Armour3,
        SecondaryRow::FireControl3,
        SecondaryRow::Reactor3,
        SecondaryRow::FixedDestroyed,
        SecondaryRow::StandardDestroyed,
        SecondaryRow::Head,
        SecondaryRow::Arm,
        SecondaryRow::Leg,
        SecondaryRow::ReactorZero,
    ];

    /// The row a d20 face reads (1–20).
    pub fn from_number(n: u32) -> Option<SecondaryRow> {
        let i = usize::try_from(n).ok()?.checked_sub(1)?;
        Self::ALL.get(i).copied()
    }

    pub fn number(self) -> u32 {
        Self::ALL
            .iter()
            .position(|&r| r == self)
            .map_or(0, |i| i as u32 + 1)
    }

    /// The bot's key for the row.
    pub fn key(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// What happens (説明).
    pub fn describe(self, lang: Lang) -> &'static str {
        use SecondaryRow::*;
        match self {
            Escape1 => lang.pick(
                "Escape device damaged, malfunctions",
                "脱出装置にダメージを受け、作動不良を起こす",
            ),
            Propellant2 => lang.pick(
                "Propellant tank damaged, minor fuel leak",
                "推進剤タンクにダメージを受け、軽微な燃料漏れを起こす",
            ),
            Evasion1 => lang.pick(
                "Sub-thrusters damaged, mobility reduced",
                "サブスラスターにダメージを受け、機動性が低下する",
            ),
            Armour1 => lang.pick("Armour partly peels away", "装甲材が部分的に剥離する"),
            FireControl1 => lang.pick("Error in the control program", "制御プログラムにエラーが起きる"),
            Reactor1 => lang.pick("Reactor output drops", "反応炉の出力が低下する"),
            FixedMalfunction => lang.pick(
                "One fixed weapon (random) unusable for the next 1 turn",
                "固定武装の1つ(ランダム)が次の1ターンの間、使用不可能になる",
            ),
            StandardMalfunction => lang.pick(
                "One standard weapon (random) unusable for the next 1 turn",
                "標準武装の1つ(ランダム)が次の1ターンの間、使用不可能になる",
            ),
            Movement1 => lang.pick(
                "Main thruster damaged, thrust greatly reduced",
                "メインスラスターにダメージを受け、推力が大幅に低下する",
            ),
            Propellant5 => lang.pick(
                "Propellant tank badly damaged, heavy fuel leak",
                "推進剤タンクに大きなダメージを受け、大量の燃料漏れを起こす",
            ),
            Evasion3 => lang.pick(
                "Sub-thrusters seriously damaged, mobility greatly reduced",
                "サブスラスターが深刻ダメージを受け、機動性が大きく低下する",
            ),
            Armour3 => lang.pick("Armour largely peels away", "装甲材が大きく剥離する"),
            FireControl3 => lang.pick(
                "Serious error in the control program",
                "制御プログラムに深刻なエラーが起きる",
            ),
            Reactor3 => lang.pick("Reactor output greatly drops", "反応炉の出力が大きく低下する"),
            FixedDestroyed => lang.pick(
                "One fixed weapon (random) unusable from the next turn on",
                "固定武装の1つ(ランダム)が次のターンから使用不可能になる",
            ),
            StandardDestroyed => lang.pick(
                "One standard weapon (random) unusable from the next turn on",
                "標準武装の1つ(ランダム)が次のターンから使用不可能になる",
            ),
            Head => lang.pick("Head destroyed!", "頭部破損!"),
            Arm => lang.pick("Arm destroyed!", "腕破損!"),
            Leg => lang.pick("Leg destroyed!", "脚破損!"),
            ReactorZero => lang.pick("Direct hit on the reactor!", "反応炉直撃!"),
        }
    }

    /// The effect (効果).
    pub fn effect(self, lang: Lang) -> &'static str {
        use SecondaryRow::*;
        match self {
            Escape1 => lang.pick("escape device −1", "脱出装置 -1"),
            Propellant2 => lang.pick("propellant −2", "推進剤量 -2"),
            Evasion1 => lang.pick("evasion −1", "回避力 -1"),
            Armour1 => lang.pick("armour −1", "装甲 -1"),
            FireControl1 => lang.pick("fire control −1", "火器管制力 -1"),
            Reactor1 => lang.pick("reactor −1", "反応炉 -1"),
            FixedMalfunction | StandardMalfunction => lang.pick("weapon malfunction", "兵器不調"),
            Movement1 => lang.pick("normal and high-speed movement −1", "通常・高速移動共 -1"),
            Propellant5 => lang.pick("propellant −5", "推進剤量 -5"),
            Evasion3 => lang.pick("evasion −3", "回避力 -3"),
            Armour3 => lang.pick("armour −3", "装甲 -3"),
            FireControl3 => lang.pick("fire control −3", "火器管制力 -3"),
            Reactor3 => lang.pick("reactor −3", "反応炉 -3"),
            FixedDestroyed | StandardDestroyed => lang.pick("weapon destroyed", "兵器破損"),
            Head => lang.pick(
                "accuracy −5; weapons on the head lost",
                "命中 -5 頭部にある兵器損失",
            ),
            Arm => lang.pick(
                "evasion −5; weapons on the arm lost",
                "回避力 -5 腕装備の兵器損失",
            ),
            Leg => lang.pick(
                "evasion −5; weapons on the leg lost",
                "回避力 -5 脚装備の兵器損失",
            ),
            ReactorZero => lang.pick("reactor output 0", "反応炉出力0"),
        }
    }
}

/// The secondary d20 as rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecondaryRoll {
    pub die: u32,
    pub row: SecondaryRow,
}

/// Roll the table.
pub fn roll(roller: &mut dyn Roller) -> Result<SecondaryRoll, RuleError> {
    let die = roller.roll(20)?;
    let row =
        SecondaryRow::from_number(die).ok_or(RuleError::Dice(crate::dice::DiceError::FaceDoesNotFit {
            face: die,
            sides: 20,
        }))?;
    Ok(SecondaryRoll { die, row })
}

/// Which part a limb row destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimbPart {
    Arm,
    Leg,
}

/// What applying one row did to the suit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "effect")]
pub enum SecondaryEffect {
    /// A stat went down by `by` (after the floor: `by` may be less than the row says).
    Lowered {
        stat: Stat,
        by: u32,
    },
    /// The random weapon row picked `weapon` (index `index`).
    WeaponHit {
        index: usize,
        weapon: String,
        status: WeaponStatus,
    },
    /// No usable weapon of the category was left (MG-8 b).
    NoWeaponLeft {
        category: Category,
    },
    /// A part was destroyed: the penalty, and the weapons lost with it.
    PartDestroyed {
        part: PartHit,
        lost: Vec<String>,
    },
    /// An arm or leg without recorded sides: the owner chooses which weapons go (MG-8 d).
    OwnerChooses {
        part: LimbPart,
        candidates: Vec<String>,
    },
    ReactorZero,
}

/// The stats the table lowers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    EscapeDevice,
    Propellant,
    Evasion,
    Armour,
    FireControl,
    Accuracy,
    Reactor,
    Movement,
}

/// A part rows 17–19 destroy; `side` when weapons recorded one and it was picked at random.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartHit {
    pub part: PartKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// No part of that kind was left: the penalty stacks, nothing more is lost (MG-8 d).
    pub none_left: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartKind {
    Head,
    Arm,
    Leg,
}

/// Floor-at-0 subtraction, reporting how much really went.
fn lower(value: &mut u32, by: u32) -> u32 {
    let taken = by.min(*value);
    *value -= taken;
    taken
}

/// Apply `row` to `unit` in turn `turn`'s application phase (MG-8 b–e).
pub fn apply(
    row: SecondaryRow,
    unit: &mut Unit,
    turn: u32,
    roller: &mut dyn Roller,
) -> Result<Vec<SecondaryEffect>, RuleError> {
    use SecondaryRow::*;
    let s = &mut unit.suit;
    let lowered = |stat, by| SecondaryEffect::Lowered { stat, by };
    // Stats tracked as wear stack without limit; the *_now readers apply the floors.
    Ok(match row {
        Escape1 => {
            s.wear.escape_device += 1;
            vec![lowered(Stat::EscapeDevice, 1)]
        }
        Propellant2 => vec![lowered(Stat::Propellant, lower(&mut s.propellant, 2))],
        Propellant5 => vec![lowered(Stat::Propellant, lower(&mut s.propellant, 5))],
        Evasion1 | Evasion3 => {
            let by = if row == Evasion1 { 1 } else { 3 };
            s.wear.evasion += by;
            vec![lowered(Stat::Evasion, by)]
        }
        Armour1 | Armour3 => {
            let before = s.armour_now();
            s.wear.armour += if row == Armour1 { 1 } else { 3 };
            vec![lowered(Stat::Armour, before - s.armour_now())]
        }
        FireControl1 | FireControl3 => {
            let by = if row == FireControl1 { 1 } else { 3 };
            s.wear.fire_control += by;
            vec![lowered(Stat::FireControl, by)]
        }
        Reactor1 | Reactor3 => {
            let before = s.reactor_now();
            s.wear.reactor += if row == Reactor1 { 1 } else { 3 };
            vec![lowered(Stat::Reactor, before - s.reactor_now())]
        }
        Movement1 => {
            let before = s.movement_now().max(s.high_speed_now());
            s.wear.movement += 1;
            vec![lowered(
                Stat::Movement,
                before - s.movement_now().max(s.high_speed_now()),
            )]
        }
        ReactorZero => {
            s.wear.reactor_zero = true;
            vec![SecondaryEffect::ReactorZero]
        }
        FixedMalfunction | StandardMalfunction | FixedDestroyed | StandardDestroyed => {
            let category = if matches!(row, FixedMalfunction | FixedDestroyed) {
                Category::Fixed
            } else {
                Category::Standard
            };
            // MG-8 b: among the weapons of the category still usable next turn, after what this
            // application already did.
            let usable: Vec<usize> = (0..s.weapons.len())
                .filter(|&i| s.weapons[i].category == category && s.weapons[i].status.usable_in(turn + 1))
                .collect();
            if usable.is_empty() {
                return Ok(vec![SecondaryEffect::NoWeaponLeft { category }]);
            }
            let index = pick(&usable, roller)?;
            let status = if matches!(row, FixedMalfunction | StandardMalfunction) {
                // MG-8 e: unusable in T+1, usable again from T+2.
                WeaponStatus::Malfunction { turn: turn + 1 }
            } else {
                WeaponStatus::Destroyed { from: turn + 1 }
            };
            s.weapons[index].status = status;
            vec![SecondaryEffect::WeaponHit {
                index,
                weapon: s.weapons[index].name.clone(),
                status,
            }]
        }
        Head => {
            s.wear.accuracy += 5;
            let first = s.wear.head == 0;
            s.wear.head += 1;
            let lost = if first {
                lose(s, turn, |m| m == Mount::Head)
            } else {
                Vec::new()
            };
            vec![
                lowered(Stat::Accuracy, 5),
                SecondaryEffect::PartDestroyed {
                    part: PartHit {
                        part: PartKind::Head,
                        side: None,
                        none_left: !first,
                    },
                    lost,
                },
            ]
        }
        Arm | Leg => {
            s.wear.evasion += 5;
            let mut out = vec![lowered(Stat::Evasion, 5)];
            out.push(limb(unit, row == Arm, turn, roller)?);
            out
        }
    })
}

/// One of `items`, at random.
fn pick(items: &[usize], roller: &mut dyn Roller) -> Result<usize, RuleError> {
    if items.len() == 1 {
        return Ok(items[0]);
    }
    let face = roller.roll(items.len() as u32)?;
    Ok(items[face as usize - 1])
}

/// Mark every not-yet-lost weapon on a matching mount as lost from the next turn.
fn lose(s: &mut super::unit::Suit, turn: u32, on: impl Fn(Mount) -> bool) -> Vec<String> {
    let mut lost = Vec::new();
    for w in &mut s.weapons {
        if w.mount.is_some_and(&on) && !matches!(w.status, WeaponStatus::Lost { .. }) {
            w.status = WeaponStatus::Lost { from: turn + 1 };
            lost.push(w.name.clone());
        }
    }
    lost
}

fn is_limb(m: Mount, arm: bool) -> bool {
    matches!((m, arm), (Mount::Arm { .. }, true) | (Mount::Leg { .. }, false))
}

fn side_of(m: Mount) -> Option<Side> {
    match m {
        Mount::Arm { side } | Mount::Leg { side } => side,
        _ => None,
    }
}

/// MG-8 d for an arm (`arm`) or a leg: a random side among those left when weapons record sides;
/// otherwise the owner chooses among the limb's weapons. Two limbs of each kind.
fn limb(
    unit: &mut Unit,
    arm: bool,
    turn: u32,
    roller: &mut dyn Roller,
) -> Result<SecondaryEffect, RuleError> {
    let s = &mut unit.suit;
    let kind = if arm { PartKind::Arm } else { PartKind::Leg };
    let record = if arm { &s.wear.arms } else { &s.wear.legs };
    let destroyed = record.clone();
    let none = |side| SecondaryEffect::PartDestroyed {
        part: PartHit {
            part: kind,
            side,
            none_left: true,
        },
        lost: Vec::new(),
    };
    if destroyed.len() >= 2 {
        return Ok(none(None));
    }
    let sided = s
        .weapons
        .iter()
        .filter_map(|w| w.mount)
        .any(|m| is_limb(m, arm) && side_of(m).is_some());
    let push = |s: &mut super::unit::Suit, l: Limb| {
        if arm {
            s.wear.arms.push(l)
        } else {
            s.wear.legs.push(l)
        }
    };
    if sided {
        let left: Vec<Side> = [Side::Left, Side::Right]
            .into_iter()
            .filter(|side| {
                !destroyed.contains(&match side {
                    Side::Left => Limb::Left,
                    Side::Right => Limb::Right,
                })
            })
            .collect();
        let side = match left.as_slice() {
            [] => return Ok(none(None)),
            [one] => *one,
            _ => left[roller.roll(2)? as usize - 1],
        };
        push(
            s,
            match side {
                Side::Left => Limb::Left,
                Side::Right => Limb::Right,
            },
        );
        let lost = lose(s, turn, |m| is_limb(m, arm) && side_of(m) == Some(side));
        return Ok(SecondaryEffect::PartDestroyed {
            part: PartHit {
                part: kind,
                side: Some(side),
                none_left: false,
            },
            lost,
        });
    }
    push(s, Limb::Unnamed);
    let candidates: Vec<String> = s
        .weapons
        .iter()
        .filter(|w| {
            w.mount.is_some_and(|m| is_limb(m, arm)) && !matches!(w.status, WeaponStatus::Lost { .. })
        })
        .map(|w| w.name.clone())
        .collect();
    if candidates.is_empty() {
        return Ok(SecondaryEffect::PartDestroyed {
            part: PartHit {
                part: kind,
                side: None,
                none_left: false,
            },
            lost: Vec::new(),
        });
    }
    Ok(SecondaryEffect::OwnerChooses {
        part: if arm { LimbPart::Arm } else { LimbPart::Leg },
        candidates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::mecha_d20::unit::{Power, Weapon, WeaponKind};

    fn weapon(name: &str, category: Category, mount: Option<Mount>) -> Weapon {
        Weapon {
            name: name.into(),
            kind: WeaponKind::Ranged,
            power: Power {
                count: 2,
                sides: 6,
                bonus: 0,
            },
            range: 3,
            arc: Default::default(),
            modifier: 0,
            mount,
            category,
            status: WeaponStatus::Usable,
        }
    }

    fn unit() -> Unit {
        let mut u = Unit::default();
        let s = &mut u.suit;
        s.armour = 4;
        s.evasion = 2;
        s.fire_control = 1;
        s.accuracy = 1;
        s.reactor = 5;
        s.propellant = 6;
        s.movement = 3;
        s.high_speed = 5;
        s.escape_device = 2;
        s.weapons = vec![
            weapon("Vulcan", Category::Fixed, Some(Mount::Head)),
            weapon(
                "Rifle",
                Category::Standard,
                Some(Mount::Arm {
                    side: Some(Side::Right),
                }),
            ),
            weapon(
                "Shield Gun",
                Category::Standard,
                Some(Mount::Arm {
                    side: Some(Side::Left),
                }),
            ),
            weapon("Missiles", Category::Fixed, Some(Mount::Leg { side: None })),
        ];
        u
    }

    #[test]
    fn the_table_has_twenty_rows_in_the_seeds_order_with_the_bots_keys() {
        let keys: Vec<String> = SecondaryRow::ALL.iter().map(|r| r.key()).collect();
        assert_eq!(
            keys,
            [
                "escape_-1",
                "propellant_-2",
                "evasion_-1",
                "armour_-1",
                "fire_control_-1",
                "reactor_-1",
                "fixed_weapon_malfunction",
                "standard_weapon_malfunction",
                "movement_-1",
                "propellant_-5",
                "evasion_-3",
                "armour_-3",
                "fire_control_-3",
                "reactor_-3",
                "fixed_weapon_destroyed",
                "standard_weapon_destroyed",
                "head_destroyed",
                "arm_destroyed",
                "leg_destroyed",
                "reactor_zero"
            ]
        );
        // The edges of the d20: 1 and 20 read, 0 and 21 do not.
        assert_eq!(SecondaryRow::from_number(1), Some(SecondaryRow::Escape1));
        assert_eq!(SecondaryRow::from_number(20), Some(SecondaryRow::ReactorZero));
        assert_eq!(SecondaryRow::from_number(0), None);
        assert_eq!(SecondaryRow::from_number(21), None);
        for (i, r) in SecondaryRow::ALL.into_iter().enumerate() {
            assert_eq!(r.number(), i as u32 + 1);
            assert_eq!(roll(&mut FixedRoller::new([i as u32 + 1])).unwrap().row, r);
            assert_ne!(r.describe(Lang::En), r.describe(Lang::Ja));
            assert_ne!(r.effect(Lang::En), r.effect(Lang::Ja));
        }
        assert!(SecondaryRow::Arm.effect(Lang::Ja).contains("腕装備の兵器損失"));
    }

    /// Every row, applied once to a fresh suit in turn 3.
    #[test]
    fn every_row_does_what_the_table_says() {
        use SecondaryRow::*;
        let turn = 3;
        let applied = |row, faces: Vec<u32>| {
            let mut u = unit();
            let fx = apply(row, &mut u, turn, &mut FixedRoller::new(faces)).unwrap();
            (u, fx)
        };
        let (u, _) = applied(Escape1, vec![]);
        assert_eq!(u.suit.escape_device_now(), 1);
        let (u, _) = applied(Propellant2, vec![]);
        assert_eq!(u.suit.propellant, 4);
        let (u, _) = applied(Evasion1, vec![]);
        assert_eq!(u.suit.evasion_now(), 1);
        let (u, _) = applied(Armour1, vec![]);
        assert_eq!(u.suit.armour_now(), 3);
        let (u, _) = applied(FireControl1, vec![]);
        assert_eq!(u.suit.fire_control_now(), 0);
        let (u, _) = applied(Reactor1, vec![]);
        assert_eq!(u.suit.reactor_now(), 4);
        // Row 7: the only fixed weapons are Vulcan (0) and Missiles (3); the d2 picks the second.
        let (u, fx) = applied(FixedMalfunction, vec![2]);
        assert_eq!(u.suit.weapons[3].status, WeaponStatus::Malfunction { turn: 4 });
        assert!(matches!(&fx[0], SecondaryEffect::WeaponHit { index: 3, .. }));
        let (u, _) = applied(StandardMalfunction, vec![1]);
        assert_eq!(u.suit.weapons[1].status, WeaponStatus::Malfunction { turn: 4 });
        let (u, _) = applied(Movement1, vec![]);
        assert_eq!((u.suit.movement_now(), u.suit.high_speed_now()), (2, 4));
        let (u, _) = applied(Propellant5, vec![]);
        assert_eq!(u.suit.propellant, 1);
        let (u, _) = applied(Evasion3, vec![]);
        assert_eq!(u.suit.evasion_now(), -1);
        let (u, _) = applied(Armour3, vec![]);
        assert_eq!(u.suit.armour_now(), 1);
        let (u, _) = applied(FireControl3, vec![]);
        assert_eq!(u.suit.fire_control_now(), -2);
        let (u, _) = applied(Reactor3, vec![]);
        assert_eq!(u.suit.reactor_now(), 2);
        let (u, _) = applied(FixedDestroyed, vec![1]);
        assert_eq!(u.suit.weapons[0].status, WeaponStatus::Destroyed { from: 4 });
        let (u, _) = applied(StandardDestroyed, vec![2]);
        assert_eq!(u.suit.weapons[2].status, WeaponStatus::Destroyed { from: 4 });
        let (u, fx) = applied(Head, vec![]);
        assert_eq!(u.suit.accuracy_now(), -4);
        assert_eq!(u.suit.weapons[0].status, WeaponStatus::Lost { from: 4 });
        assert!(matches!(&fx[1], SecondaryEffect::PartDestroyed { lost, .. } if lost == &["Vulcan"]));
        // Row 18: the arm weapons record sides, so the d2 picks one (2 = right: the Rifle).
        let (u, fx) = applied(Arm, vec![2]);
        assert_eq!(u.suit.evasion_now(), -3);
        assert_eq!(u.suit.weapons[1].status, WeaponStatus::Lost { from: 4 });
        assert_eq!(u.suit.weapons[2].status, WeaponStatus::Usable);
        assert!(matches!(
            &fx[1],
            SecondaryEffect::PartDestroyed {
                part: PartHit {
                    side: Some(Side::Right),
                    ..
                },
                ..
            }
        ));
        // Row 19: the leg weapon records no side: the owner chooses.
        let (u, fx) = applied(Leg, vec![]);
        assert_eq!(u.suit.evasion_now(), -3);
        assert_eq!(u.suit.weapons[3].status, WeaponStatus::Usable);
        assert!(
            matches!(&fx[1], SecondaryEffect::OwnerChooses { part: LimbPart::Leg, candidates } if candidates == &["Missiles"])
        );
        let (u, _) = applied(ReactorZero, vec![]);
        assert_eq!(u.suit.reactor_now(), 0);
        assert!(u.suit.wear.reactor_zero);
    }

    #[test]
    fn penalties_stack_and_floor_where_the_rules_say() {
        let mut u = unit();
        let r = &mut FixedRoller::new([]);
        apply(SecondaryRow::Armour3, &mut u, 1, r).unwrap();
        let fx = apply(SecondaryRow::Armour3, &mut u, 1, r).unwrap();
        assert_eq!(u.suit.armour_now(), 0, "4 − 6 floors at 0");
        assert_eq!(
            fx,
            vec![SecondaryEffect::Lowered {
                stat: Stat::Armour,
                by: 1
            }]
        );
        apply(SecondaryRow::Propellant5, &mut u, 1, r).unwrap();
        let fx = apply(SecondaryRow::Propellant2, &mut u, 1, r).unwrap();
        assert_eq!(u.suit.propellant, 0);
        assert_eq!(
            fx,
            vec![SecondaryEffect::Lowered {
                stat: Stat::Propellant,
                by: 1
            }]
        );
        apply(SecondaryRow::Evasion3, &mut u, 1, r).unwrap();
        apply(SecondaryRow::Evasion3, &mut u, 1, r).unwrap();
        assert_eq!(u.suit.evasion_now(), -4, "evasion goes negative");
    }

    #[test]
    fn random_weapons_come_from_those_left_and_parts_lose_weapons_once() {
        let mut u = unit();
        // Two malfunctions in one application: the second picks among what the first left.
        apply(
            SecondaryRow::FixedMalfunction,
            &mut u,
            1,
            &mut FixedRoller::new([1]),
        )
        .unwrap();
        let fx = apply(
            SecondaryRow::FixedMalfunction,
            &mut u,
            1,
            &mut FixedRoller::new([]),
        )
        .unwrap();
        assert!(
            matches!(&fx[0], SecondaryEffect::WeaponHit { index: 3, .. }),
            "{fx:?}"
        );
        let fx = apply(SecondaryRow::FixedDestroyed, &mut u, 1, &mut FixedRoller::new([])).unwrap();
        assert_eq!(
            fx,
            vec![SecondaryEffect::NoWeaponLeft {
                category: Category::Fixed
            }]
        );
        // Next turn's malfunctions are over in turn 3: usable again, so they can be picked.
        let fx = apply(
            SecondaryRow::FixedDestroyed,
            &mut u,
            2,
            &mut FixedRoller::new([1]),
        )
        .unwrap();
        assert!(matches!(&fx[0], SecondaryEffect::WeaponHit { index: 0, .. }));
        // The head twice: the penalty stacks, the Vulcan is not lost twice.
        let mut u = unit();
        apply(SecondaryRow::Head, &mut u, 1, &mut FixedRoller::new([])).unwrap();
        let fx = apply(SecondaryRow::Head, &mut u, 2, &mut FixedRoller::new([])).unwrap();
        assert_eq!(u.suit.accuracy_now(), -9);
        assert_eq!(u.suit.weapons[0].status, WeaponStatus::Lost { from: 2 });
        assert!(
            matches!(&fx[1], SecondaryEffect::PartDestroyed { lost, part: PartHit { none_left: true, .. } } if lost.is_empty())
        );
        // Arms: right first (d2 = 2), then only the left is left (no die), then none.
        let mut u = unit();
        apply(SecondaryRow::Arm, &mut u, 1, &mut FixedRoller::new([2])).unwrap();
        let fx = apply(SecondaryRow::Arm, &mut u, 1, &mut FixedRoller::new([])).unwrap();
        assert!(
            matches!(&fx[1], SecondaryEffect::PartDestroyed { part: PartHit { side: Some(Side::Left), .. }, lost } if lost == &["Shield Gun"])
        );
        let fx = apply(SecondaryRow::Arm, &mut u, 1, &mut FixedRoller::new([])).unwrap();
        assert!(matches!(
            &fx[1],
            SecondaryEffect::PartDestroyed {
                part: PartHit { none_left: true, .. },
                ..
            }
        ));
        assert_eq!(u.suit.evasion_now(), 2 - 15);
    }
}

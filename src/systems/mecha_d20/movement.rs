//! Movement (checklist 18–19, 22): recorded and validated only — the bot has no map. A normal
//! move uses no propellant and goes any of the 6 directions; a high-speed move spends the
//! propellant the player states (MG-5) and goes only to the front 3. Either costs the AP the
//! player states. Entering a zone of control ends the move; another Move action may leave it.

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, bounded};
use super::unit::Unit;

pub const MAX_HEXES: u32 = 99;
pub const MAX_SPEND: u32 = 999;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// 通常移動
    Normal,
    /// 高速移動
    HighSpeed,
}

/// The six hex directions, relative to the suit's facing (which a move never changes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    #[default]
    Front,
    FrontLeft,
    FrontRight,
    RearLeft,
    RearRight,
    Rear,
}

impl Direction {
    pub fn is_front(self) -> bool {
        matches!(
            self,
            Direction::Front | Direction::FrontLeft | Direction::FrontRight
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRequest {
    pub kind: MoveKind,
    pub direction: Direction,
    pub hexes: u32,
    /// AP the move costs (the seed does not say how many).
    pub ap: u32,
    /// Propellant a high-speed move spends (MG-5).
    #[serde(default)]
    pub propellant: u32,
    /// The move ended by entering a non-friendly suit's zone of control.
    #[serde(default)]
    pub entered_zone_of_control: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveOutcome {
    pub kind: MoveKind,
    pub direction: Direction,
    pub hexes: u32,
    pub max_hexes: u32,
    pub ap_left: u32,
    pub propellant_left: u32,
    /// Stopped in a zone of control: a further Move action (with AP) leaves it freely.
    pub stopped_by_zone_of_control: bool,
}

/// Validate and record a move: all refusals come before anything is spent.
pub fn make_move(name: &str, unit: &mut Unit, req: &MoveRequest) -> Result<MoveOutcome, RuleError> {
    unit.ensure_active(name)?;
    bounded(Quantity::Hexes, i64::from(req.hexes), 0, i64::from(MAX_HEXES))?;
    bounded(Quantity::ActionPoints, i64::from(req.ap), 0, i64::from(MAX_SPEND))?;
    bounded(
        Quantity::Propellant,
        i64::from(req.propellant),
        0,
        i64::from(MAX_SPEND),
    )?;
    let max = match req.kind {
        MoveKind::Normal => {
            if req.propellant > 0 {
                return Err(RuleError::NormalMoveNoPropellant);
            }
            unit.suit.movement_now()
        }
        MoveKind::HighSpeed => {
            if !req.direction.is_front() {
                return Err(RuleError::HighSpeedDirection);
            }
            unit.suit.high_speed_now()
        }
    };
    let (base, field) = match req.kind {
        MoveKind::Normal => (unit.suit.movement, "movement"),
        MoveKind::HighSpeed => (unit.suit.high_speed, "high_speed"),
    };
    if base == 0 && req.hexes > 0 {
        return Err(RuleError::NoMove {
            name: name.to_string(),
            field,
        });
    }
    if req.hexes > max {
        return Err(RuleError::TooFar {
            name: name.to_string(),
            hexes: req.hexes,
            max,
        });
    }
    if req.ap > unit.pilot.ap {
        return Err(RuleError::NotEnoughAp {
            name: name.to_string(),
            left: unit.pilot.ap,
            needed: req.ap,
        });
    }
    if req.propellant > unit.suit.propellant {
        return Err(RuleError::NotEnoughPropellant {
            name: name.to_string(),
            left: unit.suit.propellant,
            needed: req.propellant,
        });
    }
    let ap_left = unit.spend_ap(name, req.ap)?;
    let propellant_left = unit.spend_propellant(name, req.propellant)?;
    Ok(MoveOutcome {
        kind: req.kind,
        direction: req.direction,
        hexes: req.hexes,
        max_hexes: max,
        ap_left,
        propellant_left,
        stopped_by_zone_of_control: req.entered_zone_of_control,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> Unit {
        let mut u = Unit::default();
        u.suit.movement = 3;
        u.suit.high_speed = 6;
        u.suit.propellant = 5;
        u.pilot.ap = 2;
        u
    }

    fn req(kind: MoveKind, direction: Direction, hexes: u32, propellant: u32) -> MoveRequest {
        MoveRequest {
            kind,
            direction,
            hexes,
            ap: 1,
            propellant,
            entered_zone_of_control: false,
        }
    }

    #[test]
    fn normal_moves_go_any_way_without_propellant_up_to_movement() {
        let mut u = unit();
        let o = make_move("A", &mut u, &req(MoveKind::Normal, Direction::Rear, 3, 0)).unwrap();
        assert_eq!((o.ap_left, o.propellant_left, o.max_hexes), (1, 5, 3));
        let before = u.clone();
        assert!(matches!(
            make_move("A", &mut u, &req(MoveKind::Normal, Direction::Front, 4, 0)),
            Err(RuleError::TooFar { max: 3, .. })
        ));
        assert_eq!(
            make_move("A", &mut u, &req(MoveKind::Normal, Direction::Front, 1, 1)),
            Err(RuleError::NormalMoveNoPropellant)
        );
        assert_eq!(u, before, "refusals spend nothing");
    }

    #[test]
    fn high_speed_moves_spend_propellant_and_go_front_only() {
        let mut u = unit();
        for d in [Direction::Rear, Direction::RearLeft, Direction::RearRight] {
            assert_eq!(
                make_move("A", &mut u, &req(MoveKind::HighSpeed, d, 2, 1)),
                Err(RuleError::HighSpeedDirection)
            );
        }
        assert!(matches!(
            make_move("A", &mut u, &req(MoveKind::HighSpeed, Direction::FrontLeft, 6, 6)),
            Err(RuleError::NotEnoughPropellant {
                left: 5,
                needed: 6,
                ..
            })
        ));
        let mut zoc = req(MoveKind::HighSpeed, Direction::FrontRight, 6, 2);
        zoc.entered_zone_of_control = true;
        let o = make_move("A", &mut u, &zoc).unwrap();
        assert_eq!((o.propellant_left, o.ap_left), (3, 1));
        assert!(o.stopped_by_zone_of_control);
        // Leaving the zone: another Move action, AP permitting.
        let o = make_move("A", &mut u, &req(MoveKind::Normal, Direction::Rear, 1, 0)).unwrap();
        assert_eq!(o.ap_left, 0);
        assert!(matches!(
            make_move("A", &mut u, &req(MoveKind::Normal, Direction::Rear, 1, 0)),
            Err(RuleError::NotEnoughAp { .. })
        ));
        // Row 9 lowers both movements.
        u.suit.wear.movement = 1;
        u.pilot.ap = 1;
        assert!(matches!(
            make_move("A", &mut u, &req(MoveKind::HighSpeed, Direction::Front, 6, 0)),
            Err(RuleError::TooFar { max: 5, .. })
        ));
    }
}

//! Special moves and actions taken in the race.

use super::*;

/// A gear's own action or move in the race.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    BurnRubber(MoveRequest),
    /// A jump; `landing_blocked` on the request: level-1 terrain is in the landing hex.
    Jump(MoveRequest),
    /// A jump whose landing hex holds the gear `onto`: it stops short, spins out, and both
    /// gears take collision damage (seed 着地点に障害物がある場合).
    JumpOnto {
        req: MoveRequest,
        onto: String,
    },
    Recover,
    RallyTheCrowd,
    OffRoad,
    Move(MovePlan),
    /// Roll a spin-out left pending (e.g. after a hand-entered hit).
    SpinOut,
    /// Reliable on a test outside an attack: the bot rerolls from the earlier state.
    UseReliable,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum ActionOutcome {
    BurnRubber(moves::BurnRubberOutcome),
    Jump(moves::JumpOutcome),
    Recover(moves::RecoveryOutcome),
    RallyTheCrowd { tokens: u32 },
    OffRoad(roll::RollOutcome),
    Move(moves::MoveCost),
    SpinOut(SpinOutOutcome),
    UseReliable,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionReport {
    pub outcome: ActionOutcome,
    pub changes: Vec<Change>,
    pub status: GearStatus,
    /// A jump that came down on a gear or level-1 terrain: the collision it caused.
    #[serde(default)]
    pub collision: Option<CollisionReport>,
}

impl RaceState {
    /// One gear's action, rolled and applied.
    pub fn act(
        &self,
        id: &str,
        action: &Action,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, ActionReport), RuleError> {
        let gear = self.gear(id)?;
        // A jump onto a gear: that gear must be in the race (checked before any die is rolled).
        let onto = match action {
            Action::JumpOnto { onto, .. } => {
                let onto = self.find_id(onto)?;
                if onto == id {
                    return Err(RuleError::SelfTarget);
                }
                Some(onto)
            }
            _ => None,
        };
        let (mut outcome, mut g, mut changes) = match action {
            Action::BurnRubber(req) => {
                let r = moves::burn_rubber(gear, req, roller)?;
                (ActionOutcome::BurnRubber(r.outcome), r.gear, r.changes)
            }
            Action::Jump(req) => {
                let r = moves::jump(gear, req, roller)?;
                (ActionOutcome::Jump(r.outcome), r.gear, r.changes)
            }
            Action::JumpOnto { req, .. } => {
                let req = MoveRequest {
                    landing_blocked: true,
                    ..*req
                };
                let r = moves::jump(gear, &req, roller)?;
                (ActionOutcome::Jump(r.outcome), r.gear, r.changes)
            }
            Action::Recover => {
                let r = moves::recover(gear, self.options.recovery_order, roller)?;
                (ActionOutcome::Recover(r.outcome), r.gear, r.changes)
            }
            Action::RallyTheCrowd => {
                let r = moves::rally_the_crowd(gear)?;
                (
                    ActionOutcome::RallyTheCrowd { tokens: r.outcome },
                    r.gear,
                    r.changes,
                )
            }
            Action::OffRoad => {
                let r = moves::off_road(gear, roller)?;
                (ActionOutcome::OffRoad(r.outcome), r.gear, r.changes)
            }
            Action::Move(plan) => {
                let r = moves::travel(gear, plan)?;
                (ActionOutcome::Move(r.outcome), r.gear, r.changes)
            }
            Action::SpinOut => {
                let r = moves::spin_out(gear, roller)?;
                (ActionOutcome::SpinOut(r.outcome), r.gear, r.changes)
            }
            Action::UseReliable => {
                let (g, ch) = gear.step(&GearEvent::UseReliable)?;
                (ActionOutcome::UseReliable, g, ch)
            }
        };
        let jump_req = match action {
            Action::Jump(req) | Action::JumpOnto { req, .. } => Some(req),
            _ => None,
        };
        if let (Some(Scenario::ShowOffCentral), ActionOutcome::Jump(j), Some(req)) =
            (self.scenario, &outcome, jump_req)
            && j.hexes_jumped > 0
        {
            // Seed ショー オフ セントラル: a free Rally token per gear jumped over.
            let n = req.gears_jumped.min(j.hexes_jumped);
            g = step_into(g, &GearEvent::GainRallyTokens { tokens: n }, &mut changes)?;
        }
        let mut r = self.clone();
        r.set(id, g)?;
        let mut collision = None;
        if let ActionOutcome::Jump(j) = &mut outcome
            && j.stopped_short
        {
            // Seed 着地点に障害物がある場合: stopped in the hex before, the jumper spins out, and
            // both gears take the collision (the jump's dice; terrain 2D6).
            let (after, report) = r.collide(
                id,
                onto.as_deref(),
                CollisionCause::Jump { dice: j.dice_rolled },
                roller,
            )?;
            r = after;
            changes.extend(report.moving_changes.iter().cloned());
            j.spin_out.clone_from(&report.moving_spin_out);
            if onto.is_some() {
                // The jumper is credited with the spin-out it caused in the gear it came down on.
                let mut credit_changes = Vec::new();
                let struck = [(report.struck_changes.as_slice(), report.struck_spin_out.as_ref())];
                let jumper = r.credit(r.gear(id)?.clone(), &struck, &mut credit_changes)?;
                r.set(id, jumper)?;
                changes.extend(credit_changes);
            }
            collision = Some(report);
        }
        let status = r.gear(id)?.status();
        Ok((
            r,
            ActionReport {
                outcome,
                changes,
                status,
                collision,
            },
        ))
    }

    /// A collision: damage rolled for the forced gear (and the gear it hit), applied, and any
    /// resulting spin-outs rolled (seed 地形やギアへの衝突, 衝突ダメージ).
    pub fn collide(
        &self,
        moving: &str,
        struck: Option<&str>,
        cause: CollisionCause,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, CollisionReport), RuleError> {
        if struck == Some(moving) {
            return Err(RuleError::SelfTarget);
        }
        let m = self.gear(moving)?;
        let s = struck.map(|id| self.gear(id)).transpose()?;
        let outcome = moves::collide(m, s, cause, roller)?;
        let mut moving_hit = moves::collision_hit(&outcome.moving);
        if matches!(cause, CollisionCause::Jump { .. }) {
            // Seed 着地点に障害物がある場合: a jump that comes down on an obstacle stops short and
            // spins out, damaged or not.
            moving_hit.spin_out.push(SpinOutCause::JumpBlocked);
        }
        let (mut mg, mut moving_changes) = m.step(&GearEvent::Hit(moving_hit))?;
        let moving_spin_out = moves::settle(&mut mg, &mut moving_changes, roller)?;
        let mut r = self.clone();
        r.set(moving, mg)?;
        let mut struck_changes = Vec::new();
        let mut struck_spin_out = None;
        if let (Some(id), Some(sg), Some(roll)) = (struck, s, &outcome.struck) {
            let (mut g, ch) = sg.step(&GearEvent::Hit(moves::collision_hit(roll)))?;
            struck_changes = ch;
            struck_spin_out = moves::settle(&mut g, &mut struck_changes, roller)?;
            r.set(id, g)?;
        }
        Ok((
            r,
            CollisionReport {
                outcome,
                moving_changes,
                moving_spin_out,
                struck_changes,
                struck_spin_out,
                caused_by: None,
                by_changes: Vec::new(),
            },
        ))
    }
}

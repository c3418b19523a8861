//! Collisions between gears (or with terrain) and damage dealt outside an attack.

use super::*;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollisionReport {
    pub outcome: CollisionOutcome,
    pub moving_changes: Vec<Change>,
    pub moving_spin_out: Option<SpinOutOutcome>,
    pub struck_changes: Vec<Change>,
    pub struck_spin_out: Option<SpinOutOutcome>,
    /// The gear credited with the spin-outs (the pusher, say) and how many it caused.
    #[serde(default)]
    pub caused_by: Option<(String, u32)>,
    /// What the crediting changed on that gear (Rally tokens from Grudge Match, Pyrotechnics).
    #[serde(default)]
    pub by_changes: Vec<Change>,
}

impl RaceState {
    /// [`RaceState::collide`], crediting `by` (the gear that forced the collision, e.g. the
    /// pusher) with every spin-out it caused in another gear (seed ダービー counts them).
    pub fn collide_by(
        &self,
        moving: &str,
        struck: Option<&str>,
        cause: CollisionCause,
        by: Option<&str>,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, CollisionReport), RuleError> {
        if let Some(b) = by {
            self.gear(b)?;
        }
        let (mut r, mut report) = self.collide(moving, struck, cause, roller)?;
        if let Some(b) = by {
            // The gear that forced the collision gets the same credit as an attacker: Derby
            // spin-outs, Grudge Match tokens, Pyrotechnics (never for its own gear).
            let mut affected: Vec<(&[Change], Option<&SpinOutOutcome>)> = Vec::new();
            if moving != b {
                affected.push((&report.moving_changes, report.moving_spin_out.as_ref()));
            }
            if let Some(st) = struck
                && st != b
            {
                affected.push((&report.struck_changes, report.struck_spin_out.as_ref()));
            }
            let spun = affected.iter().filter(|(_, so)| so.is_some()).count() as u32;
            let mut by_changes = Vec::new();
            let g = r.credit(r.gear(b)?.clone(), &affected, &mut by_changes)?;
            r.set(b, g)?;
            report.caused_by = Some((b.to_string(), spun));
            report.by_changes = by_changes;
        }
        Ok((r, report))
    }
}

/// Damage rolled by hand (`/rally damage`) and applied to a gear of the race.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageReport {
    pub damage: crate::systems::badlands_rally::damage::DamageOutcome,
    pub changes: Vec<Change>,
    pub spin_out: Option<SpinOutOutcome>,
    pub status: GearStatus,
    /// The attacker named, credited like an attack's (Derby, Grudge Match, Pyrotechnics), and
    /// what that changed on it.
    pub attacker: Option<(String, Vec<Change>)>,
}

impl RaceState {
    /// Roll damage and apply it to `target` as an attack's hit (with `impact`, a damaged gear
    /// spins out); any spin-out is rolled at once, and `attacker`, when named, gets the credit an
    /// attack would give it.
    pub fn damage(
        &self,
        target: &str,
        req: &crate::systems::badlands_rally::damage::DamageRequest,
        impact: bool,
        attacker: Option<&str>,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, DamageReport), RuleError> {
        let gear = self.gear(target)?;
        if let Some(a) = attacker {
            if a == target {
                return Err(RuleError::SelfTarget);
            }
            self.gear(a)?;
        }
        // Refused before any die is rolled.
        gear.ensure_in_race()?;
        let damage = crate::systems::badlands_rally::damage::resolve_damage(req, roller)?;
        let (mut g, mut changes) = gear.step(&GearEvent::Hit(Hit {
            damage: damage.damage,
            attack_hit: true,
            from_attack: true,
            impact,
            ..Hit::default()
        }))?;
        let spin_out = moves::settle(&mut g, &mut changes, roller)?;
        let mut r = self.clone();
        r.set(target, g)?;
        let attacker = match attacker {
            Some(a) => {
                let mut ch = Vec::new();
                let credited = r.credit(r.gear(a)?.clone(), &[(&changes, spin_out.as_ref())], &mut ch)?;
                r.set(a, credited)?;
                Some((a.to_string(), ch))
            }
            None => None,
        };
        let status = r.gear(target)?.status();
        Ok((
            r,
            DamageReport {
                damage,
                changes,
                spin_out,
                status,
                attacker,
            },
        ))
    }
}

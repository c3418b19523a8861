//! The race-level attack: both gears' dice resolved and both gears updated at once, with
//! Reliable rerolls and the credit an attacker earns.

use super::*;

/// An attack between two gears of the race.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceAttack {
    pub attacker: String,
    pub defender: String,
    pub setup: AttackSetup,
    /// A passive gear's reaction attack (spends this round's action before it activates).
    #[serde(default)]
    pub reaction: bool,
    /// Gears adjacent to the target, for Area Effect.
    #[serde(default)]
    pub adjacent: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceAttackReport {
    pub attack: AttackOutcome,
    pub defender_changes: Vec<Change>,
    pub defender_spin_out: Option<SpinOutOutcome>,
    pub attacker_changes: Vec<Change>,
    pub attacker_spin_out: Option<SpinOutOutcome>,
    /// Area Effect: each adjacent gear's changes and spin-out.
    pub adjacent: Vec<(String, Vec<Change>, Option<SpinOutOutcome>)>,
    pub attacker_status: GearStatus,
    pub defender_status: GearStatus,
}

impl RaceState {
    /// Resolve an attack and apply it: the action spent, damage to the target, spin-outs rolled,
    /// Grudge Match, Pyrotechnics and Derby counts.
    pub fn attack(
        &self,
        req: &RaceAttack,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, RaceAttackReport), RuleError> {
        self.attack_inner(req, None, roller)
    }

    /// Reliable: from the state before the attack, reroll one side's check (once per lap for
    /// the gear whose check it is) and apply the new result instead.
    pub fn attack_reroll(
        &self,
        req: &RaceAttack,
        previous: &AttackOutcome,
        side: Side,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, RaceAttackReport), RuleError> {
        let who = match side {
            Side::Attacker => &req.attacker,
            Side::Defender => &req.defender,
        };
        let r = self.apply(&RaceEvent::Gear {
            id: who.clone(),
            event: GearEvent::UseReliable,
        })?;
        r.attack_inner(req, Some((previous, side)), roller)
    }

    fn attack_inner(
        &self,
        req: &RaceAttack,
        reroll: Option<(&AttackOutcome, Side)>,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, RaceAttackReport), RuleError> {
        if req.attacker == req.defender {
            return Err(RuleError::SelfTarget);
        }
        if self.options.gentlemens_sport && self.round <= 1 {
            return Err(RuleError::GentlemensSport);
        }
        let attacker = self.gear(&req.attacker)?;
        let defender = self.gear(&req.defender)?;
        let mut attacker_changes = Vec::new();
        // The action first: an attack costs one (seed ◆攻撃), a reaction borrows this round's.
        let spend = if req.reaction {
            GearEvent::ReactionAttack
        } else {
            GearEvent::SpendAction
        };
        let (mut a, ch) = attacker.step(&spend)?;
        attacker_changes.extend(ch);
        let areq = AttackRequest {
            attacker,
            defender,
            setup: &req.setup,
        };
        let outcome = match reroll {
            None => attack::resolve(&areq, roller)?,
            Some((prev, side)) => attack::reroll(&areq, prev, side, roller)?,
        };
        let (mut d, mut defender_changes) = defender.step(&GearEvent::Hit(outcome.target_hit()))?;
        if outcome.attacker_fumble {
            // Seed プッシュ: a fumbled push spins the pusher out.
            a.queue_spin_out(SpinOutCause::PushFumble, &mut attacker_changes);
        }
        let defender_spin_out = moves::settle(&mut d, &mut defender_changes, roller)?;
        let attacker_spin_out = moves::settle(&mut a, &mut attacker_changes, roller)?;
        let mut r = self.clone();
        // Area Effect: adjacent gears take their share and may spin out (each gear once, however
        // often it is named; never the attacker or the target).
        let mut adjacent = Vec::new();
        if let Some(share) = outcome.area_damage {
            // Seed インパクト: a neighbour damaged by an Impact weapon spins out too.
            let impact = outcome
                .weapon
                .as_ref()
                .is_some_and(|w| w.has(crate::systems::badlands_rally::gear::WeaponTrait::Impact));
            for id in self.distinct_neighbours(req)? {
                let (mut g, mut ch) = self.gear(&id)?.step(&GearEvent::Hit(Hit {
                    damage: share,
                    attack_hit: true,
                    from_attack: true,
                    impact,
                    ..Hit::default()
                }))?;
                let so = moves::settle(&mut g, &mut ch, roller)?;
                r.set(&id, g)?;
                adjacent.push((id, ch, so));
            }
        }
        // Scenario and trait hooks on the attacker.
        let mut affected: Vec<(&[Change], Option<&SpinOutOutcome>)> =
            vec![(&defender_changes, defender_spin_out.as_ref())];
        affected.extend(adjacent.iter().map(|(_, ch, so)| (ch.as_slice(), so.as_ref())));
        a = self.credit(a, &affected, &mut attacker_changes)?;
        let report = RaceAttackReport {
            attack: outcome,
            defender_changes,
            defender_spin_out,
            attacker_changes,
            attacker_spin_out,
            adjacent,
            attacker_status: a.status(),
            defender_status: d.status(),
        };
        r.set(&req.attacker, a)?;
        r.set(&req.defender, d)?;
        Ok((r, report))
    }
}

impl RaceState {
    /// The Area Effect neighbours of an attack, each once (names matched ignoring case), without
    /// the attacker and the target.
    fn distinct_neighbours(&self, req: &RaceAttack) -> Result<Vec<String>, RuleError> {
        let mut out: Vec<String> = Vec::new();
        for typed in &req.adjacent {
            let id = self.find_id(typed)?;
            if id != req.attacker && id != req.defender && !out.contains(&id) {
                out.push(id);
            }
        }
        Ok(out)
    }

    /// The scenario and trait hooks for the gear `by` that attacked, pushed or forced other gears
    /// (`affected`: each one's changes and spin-out): Derby spin-outs caused, a Grudge Match
    /// token per gear rattled, and Pyrotechnics' token when a gear it spun out rolled a 6.
    pub(super) fn credit(
        &self,
        mut by: Gear,
        affected: &[(&[Change], Option<&SpinOutOutcome>)],
        changes: &mut Vec<Change>,
    ) -> Result<Gear, RuleError> {
        let spun = affected.iter().filter(|(_, so)| so.is_some()).count();
        for _ in 0..spun {
            by = step_into(by, &GearEvent::CausedSpinOut, changes)?;
        }
        mark_derby(&mut by, self.round);
        if self.scenario == Some(Scenario::GrudgeMatch) {
            // Seed グラッジ マッチ: a free Rally token for each target rattled.
            let rattled = affected
                .iter()
                .filter(|(ch, _)| ch.iter().any(|c| matches!(c, Change::Rattled { .. })))
                .count() as u32;
            by = step_into(by, &GearEvent::GainRallyTokens { tokens: rattled }, changes)?;
        }
        if by
            .sheet
            .has(crate::systems::badlands_rally::gear::Trait::Pyrotechnics)
        {
            // Seed Grizzly: Pyrotechnics — it rallies when it gives another gear a Rally token.
            let given = affected
                .iter()
                .filter(|(_, so)| so.is_some_and(|s| s.recovered))
                .count() as u32;
            by = step_into(by, &GearEvent::GainRallyTokens { tokens: given }, changes)?;
        }
        Ok(by)
    }
}

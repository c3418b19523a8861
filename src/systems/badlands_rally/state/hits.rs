//! What a hit does to a gear, and what recovery undoes (seed ヒット / ラタルド / スピニングアウト):
//! Hull first, then Structure; the rattled token and record; off balance and the spin-outs a hit
//! makes due; recovery in the house's order. Called by the transitions in `state`.

use super::*;

impl Gear {
    /// Seed ヒット / ラタルド / スピニングアウト: Hull first, then Structure, never below 0.
    pub(super) fn take_hit(&mut self, hit: &Hit, ch: &mut Vec<Change>) -> Result<(), RuleError> {
        self.ensure_in_race()?;
        let s = &mut self.state;
        let hull_before = s.hull;
        let from_hull = hit.damage.min(s.hull);
        s.hull -= from_hull;
        let rest = hit.damage - from_hull;
        let from_structure = rest.min(s.structure);
        s.structure -= from_structure;
        let excess = rest - from_structure;
        if from_hull > 0 {
            ch.push(Change::HullLost { hits: from_hull });
        }
        if from_structure > 0 {
            ch.push(Change::StructureLost { hits: from_structure });
        }
        if excess > 0 {
            ch.push(Change::ExcessDamage { hits: excess });
        }
        let was_off_balance = s.off_balance;
        let mut causes: Vec<SpinOutCause> = hit.spin_out.clone();
        // Seed オフバランス: hit again while off balance, it spins out again.
        if was_off_balance && hit.attack_hit {
            causes.push(SpinOutCause::OffBalance);
        }
        if hull_before > 0 && s.hull == 0 {
            let rattled_now = self.rattle(ch);
            // Seed Sapeur: Exposed Crew — an attack that rattles it always spins it out.
            if rattled_now && hit.from_attack && self.sheet.has(Trait::ExposedCrew) {
                causes.push(SpinOutCause::ExposedCrew);
            }
        }
        if self.state.knocked_out {
            return Ok(());
        }
        let s = &mut self.state;
        if hit.damage > 0 && s.hull == 0 && s.structure == 0 {
            // Seed ヒット値0: spin out, and the next activation can only recover.
            if from_hull > 0 || from_structure > 0 {
                causes.push(SpinOutCause::HitsZero);
            }
            s.must_recover = true;
            s.off_balance = true;
        }
        if hit.damage > 0 && hit.impact {
            causes.push(SpinOutCause::Impact);
        }
        if hit.damage > 0 && hit.collision {
            causes.push(SpinOutCause::Collision);
        }
        self.due_spin_out(&causes, excess, hit.from_attack, ch);
        Ok(())
    }

    /// Queue a spin-out unless the gear already spun out this round (seed ※メモ).
    pub(super) fn due_spin_out(
        &mut self,
        causes: &[SpinOutCause],
        excess: u32,
        from_attack: bool,
        ch: &mut Vec<Change>,
    ) {
        if causes.is_empty() {
            return;
        }
        let s = &mut self.state;
        if let Some(p) = &mut s.pending_spin_out {
            // Same round, not yet rolled: one spin-out, the skid grows.
            p.excess_skid = p.excess_skid.saturating_add(excess);
            for c in causes {
                if !p.causes.contains(c) {
                    p.causes.push(*c);
                }
            }
            return;
        }
        if s.spun_out_this_round {
            for c in causes {
                ch.push(Change::SpinOutIgnored { cause: *c });
            }
            return;
        }
        s.spun_out_this_round = true;
        for c in causes {
            ch.push(Change::SpinOutDue { cause: *c });
        }
        let mut uniq: Vec<SpinOutCause> = Vec::new();
        for c in causes {
            if !uniq.contains(c) {
                uniq.push(*c);
            }
        }
        s.pending_spin_out = Some(PendingSpinOut {
            causes: uniq,
            excess_skid: excess,
            from_attack,
        });
    }

    /// Queue a spin-out from a move or a push fumble.
    pub(crate) fn queue_spin_out(&mut self, cause: SpinOutCause, ch: &mut Vec<Change>) {
        self.due_spin_out(&[cause], 0, false, ch);
    }

    /// Hull reached 0. Returns whether the gear was rattled now (not blocked by the lock).
    pub(super) fn rattle(&mut self, ch: &mut Vec<Change>) -> bool {
        let s = &mut self.state;
        // Seed ラタルド: not again before its next activation; off balance adds no record.
        if s.rattle_locked {
            ch.push(Change::RattleIgnored);
            return false;
        }
        s.rattled = true;
        s.rattle_locked = true;
        if !s.off_balance {
            s.off_balance = true;
            ch.push(Change::OffBalance);
        }
        self.advance_record(ch);
        self.drop_to_cruising(ch);
        true
    }

    /// Seed ラタルド: a rattled gear cannot move at top speed, even in the activation that
    /// rattled it.
    pub(super) fn drop_to_cruising(&mut self, ch: &mut Vec<Change>) {
        if let Activation::Active { speed, .. } = &mut self.state.activation
            && self.state.rattled
            && *speed == Speed::Top
        {
            *speed = Speed::Cruising;
            ch.push(Change::DroppedToCruising);
        }
    }

    /// One more rattle on the record: permanent at 5 (Hi-Tech 4), out at 6 (Hi-Tech 5).
    pub(super) fn advance_record(&mut self, ch: &mut Vec<Change>) {
        let limits = self.sheet.rattle_limits();
        let s = &mut self.state;
        s.rattle_record = s.rattle_record.saturating_add(1);
        ch.push(Change::Rattled {
            record: s.rattle_record,
        });
        if s.rattle_record == limits.permanent {
            s.rattled = true;
            ch.push(Change::PermanentlyRattled);
            self.drop_to_cruising(ch);
        }
        let s = &mut self.state;
        if s.rattle_record >= limits.knocked_out && !s.knocked_out {
            s.knocked_out = true;
            s.rattled = true;
            s.pending_spin_out = None;
            if s.is_active() {
                s.activation = Activation::Done;
            }
            ch.push(Change::KnockedOut);
        }
    }

    /// Seed リカバリー: add hits up to the maximum; the token goes once Hull is 1+.
    pub(super) fn recover(&mut self, healed: u32, order: RecoveryOrder, ch: &mut Vec<Change>) {
        let (hull_max, structure_max) = (self.sheet.hull, self.sheet.structure);
        let s = &mut self.state;
        let mut left = healed;
        let mut fill = |cur: &mut u32, max: u32| {
            let room = max.saturating_sub(*cur);
            let n = left.min(room);
            *cur += n;
            left -= n;
            n
        };
        let gained = match order {
            RecoveryOrder::StructureFirst => {
                fill(&mut s.structure, structure_max) + fill(&mut s.hull, hull_max)
            }
            RecoveryOrder::HullFirst => fill(&mut s.hull, hull_max) + fill(&mut s.structure, structure_max),
        };
        ch.push(Change::Recovered { hits: gained });
        s.must_recover = false;
        if s.off_balance {
            s.off_balance = false;
            ch.push(Change::OffBalanceCleared);
        }
        let permanent = s.rattle_record >= self.sheet.rattle_limits().permanent;
        if s.rattled && s.hull >= 1 && !permanent {
            s.rattled = false;
            ch.push(Change::RattledTokenRemoved);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{activate, gear, hit};
    use super::super::*;
    use crate::systems::badlands_rally::gear_sheet::tests::sheet;

    #[test]
    fn damage_takes_hull_then_structure_and_excess_skids() {
        let g = gear(); // 2/1
        let (g, ch) = g.step(&hit(1)).unwrap();
        assert_eq!((g.state.hull, g.state.structure), (1, 1));
        assert_eq!(ch, vec![Change::HullLost { hits: 1 }]);
        assert!(!g.state.rattled);
        let (g, ch) = g.step(&hit(4)).unwrap();
        assert_eq!((g.state.hull, g.state.structure), (0, 0));
        assert!(ch.contains(&Change::ExcessDamage { hits: 2 }));
        assert!(g.state.rattled && g.state.off_balance && g.state.must_recover);
        assert_eq!(g.state.rattle_record, 1);
        let p = g.state.pending_spin_out.clone().unwrap();
        assert_eq!(p.excess_skid, 2);
        assert_eq!(p.causes, vec![SpinOutCause::HitsZero]);
    }

    #[test]
    fn hull_zero_rattles_without_spinning_out() {
        let (g, ch) = gear().step(&hit(2)).unwrap();
        assert_eq!((g.state.hull, g.state.structure), (0, 1));
        assert!(g.state.rattled && g.state.off_balance);
        assert!(ch.contains(&Change::Rattled { record: 1 }));
        assert!(g.state.pending_spin_out.is_none());
        assert!(!g.state.must_recover);
    }

    #[test]
    fn off_balance_gear_hit_again_spins_out_but_adds_no_record() {
        let g = gear().apply(&hit(2)).unwrap();
        let (g, ch) = g.step(&hit(0)).unwrap();
        assert_eq!(g.state.rattle_record, 1);
        assert!(ch.contains(&Change::SpinOutDue {
            cause: SpinOutCause::OffBalance
        }));
    }

    #[test]
    fn rattle_lock_holds_until_next_activation() {
        // Rattled, recovered by someone's rules quirk to Hull 1 without activating: locked.
        let mut g = gear().apply(&hit(2)).unwrap();
        g.state.hull = 1;
        let (g2, ch) = g.step(&hit(1)).unwrap();
        assert_eq!(g2.state.rattle_record, 1);
        assert!(ch.contains(&Change::RattleIgnored));
        // After activating, the lock is gone.
        let g3 = activate(&g).apply(&hit(1)).unwrap();
        assert_eq!(g3.state.rattle_record, 2);
    }

    #[test]
    fn fifth_rattle_is_permanent_and_sixth_knocks_out() {
        let mut g = gear();
        for n in 1..=6u8 {
            g.state.pending_spin_out = None;
            g = activate(&g);
            g.state.hull = 1;
            let (next, ch) = g.step(&hit(1)).unwrap();
            g = next;
            assert_eq!(g.state.rattle_record, n);
            assert_eq!(ch.contains(&Change::PermanentlyRattled), n == 5, "rattle {n}");
            assert_eq!(g.state.knocked_out, n == 6, "rattle {n}");
            if n < 6 {
                g = g.apply(&GearEvent::EndActivation).unwrap();
            }
        }
        assert!(matches!(g.apply(&hit(1)), Err(RuleError::KnockedOut { .. })));
    }

    #[test]
    fn hi_tech_is_permanent_at_four_and_out_at_five() {
        let mut s = sheet("Mamba");
        s.traits.push(Trait::HiTech);
        let mut g = Gear::new(s).unwrap();
        for n in 1..=5u8 {
            g.state.pending_spin_out = None;
            g = activate(&g);
            g.state.hull = 1;
            let (next, ch) = g.step(&hit(1)).unwrap();
            g = next;
            assert_eq!(ch.contains(&Change::PermanentlyRattled), n == 4);
            assert_eq!(g.state.knocked_out, n == 5);
            if n < 5 {
                g = g.apply(&GearEvent::EndActivation).unwrap();
            }
        }
    }

    #[test]
    fn permanent_rattle_survives_recovery() {
        let mut g = activate(&gear());
        g.state.rattle_record = 4;
        g.state.hull = 1;
        let g = g.apply(&hit(1)).unwrap();
        assert_eq!(g.state.rattle_record, 5);
        let g = g
            .apply(&GearEvent::Recover {
                healed: 6,
                action_regained: false,
                order: RecoveryOrder::StructureFirst,
            })
            .unwrap();
        assert_eq!(g.state.hull, 2);
        assert!(g.state.rattled, "5th rattle stays");
        assert!(!g.state.off_balance);
    }

    #[test]
    fn recovery_removes_token_once_hull_is_back() {
        let g = activate(&gear()).apply(&hit(3)).unwrap(); // 0/0
        let g = g
            .apply(&GearEvent::SpinOutResolved {
                recovered: false,
                skid: 3,
            })
            .unwrap();
        let g = activate(&g);
        let (g1, ch) = g
            .step(&GearEvent::Recover {
                healed: 1,
                action_regained: false,
                order: RecoveryOrder::StructureFirst,
            })
            .unwrap();
        assert_eq!((g1.state.hull, g1.state.structure), (0, 1));
        assert!(g1.state.rattled, "Hull still 0");
        assert!(!ch.contains(&Change::RattledTokenRemoved));
        let (g2, ch) = g
            .step(&GearEvent::Recover {
                healed: 1,
                action_regained: true,
                order: RecoveryOrder::HullFirst,
            })
            .unwrap();
        assert_eq!((g2.state.hull, g2.state.structure), (1, 0));
        assert!(!g2.state.rattled && !g2.state.must_recover);
        assert!(ch.contains(&Change::RattledTokenRemoved));
        assert!(ch.contains(&Change::ActionRegained));
    }
}

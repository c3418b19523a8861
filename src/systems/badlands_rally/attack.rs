//! Attack check against defence check, every dice modifier, MOS/MOF, then the damage roll
//! (seed ◆攻撃, 攻撃チェックの修正表, カバー, レンジ, 側面と背面, ◆武器ボーナス, プッシュ).

use serde::{Deserialize, Serialize};

use super::damage::{self, BlastOutcome, DamageOutcome, DamageRequest};
use super::error::{RuleError, bounded};
use super::gear::{Gear, Speed, Trait, Weapon, WeaponChoice, WeaponTrait};
use super::roll::{self, CheckOutcome, Pool, Rating, Source};
use super::state::{Hit, SpinOutCause};
use crate::dice::Roller;

/// Where the attacker stands relative to the target's facing (seed 側面と背面).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Facing {
    #[default]
    Front,
    Side,
    Rear,
}

/// Terrain elements giving partial cover between the gears, counted as the seed says: one element
/// is one or more adjacent hexes of the same level, and only cover nearer the target counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Cover {
    pub level1: u32,
    pub level2: u32,
}

impl Cover {
    pub fn any(&self) -> bool {
        self.level1 > 0 || self.level2 > 0
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Weapon(WeaponChoice),
    /// A push: an attack check at range 1, no weapon (seed プッシュ).
    Push,
}

/// What the attacking player declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackSetup {
    pub kind: AttackKind,
    pub facing: Facing,
    /// Hexes to the target.
    pub distance: u32,
    #[serde(default)]
    pub cover: Cover,
    /// Situational dice the table agrees on.
    #[serde(default)]
    pub attack_extra: i32,
    #[serde(default)]
    pub defence_extra: i32,
}

/// The attack as resolved against two gears.
#[derive(Debug, Clone, Copy)]
pub struct AttackRequest<'a> {
    pub attacker: &'a Gear,
    pub defender: &'a Gear,
    pub setup: &'a AttackSetup,
}

/// Where the target falls in the weapon's ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RangeBand {
    Optimal,
    BeyondOptimal,
    OutOfRange,
}

/// Which side of an attack a Reliable reroll replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Attacker,
    Defender,
}

/// Everything an attack rolled and decided. Dice order: attack, defence, damage, blast.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackOutcome {
    pub kind: AttackKind,
    /// The weapon as it fired (after Twins), none for a push.
    pub weapon: Option<Weapon>,
    pub attack_rating: Rating,
    pub range: RangeBand,
    /// None when the target was out of range (no dice rolled).
    pub attack: Option<CheckOutcome>,
    /// None when the attack failed before the defence rolled (out of range, 0 dice).
    pub defence: Option<CheckOutcome>,
    /// Attack − defence: 0+ is MOS, negative MOF. None on an automatic failure.
    pub margin: Option<i32>,
    pub hit: bool,
    pub damage: Option<DamageOutcome>,
    pub blast: Option<BlastOutcome>,
    /// Area Effect: damage each gear adjacent to the target takes.
    pub area_damage: Option<u32>,
    /// Total damage to the target (hit + blast).
    pub target_damage: u32,
    /// Impact weapon and damage dealt: the target spins out.
    pub impact: bool,
    /// Push: hexes the target may be pushed (up to the MOS).
    pub push_hexes: Option<u32>,
    /// Push with every attack die a 1: the pusher spins out and skids.
    pub attacker_fumble: bool,
    /// Spin-outs the defence dice caused (all ones, Exposed Movement).
    pub defender_spin_out: Vec<SpinOutCause>,
}

impl AttackOutcome {
    pub fn mos(&self) -> Option<u32> {
        self.margin.filter(|m| *m >= 0).map(|m| m as u32)
    }

    pub fn mof(&self) -> Option<u32> {
        self.margin.filter(|m| *m < 0).map(|m| m.unsigned_abs())
    }

    /// The event to apply to the target.
    pub fn target_hit(&self) -> Hit {
        Hit {
            damage: self.target_damage,
            attack_hit: self.hit,
            from_attack: true,
            impact: self.impact,
            collision: false,
            spin_out: self.defender_spin_out.clone(),
        }
    }
}

struct Prepared {
    weapon: Option<Weapon>,
    rating: Rating,
    band: RangeBand,
    attack_pool: Pool,
    defence_pool: Pool,
}

fn prepare(req: &AttackRequest<'_>) -> Result<Prepared, RuleError> {
    let (a, d, s) = (req.attacker, req.defender, req.setup);
    bounded("distance", i64::from(s.distance), 1, 999).map_err(|_| RuleError::ZeroDistance)?;
    bounded("level-1 cover", i64::from(s.cover.level1), 0, 20)?;
    bounded("level-2 cover", i64::from(s.cover.level2), 0, 20)?;
    bounded("attack dice", i64::from(s.attack_extra), -20, 20)?;
    bounded("defence dice", i64::from(s.defence_extra), -20, 20)?;
    let push = s.kind == AttackKind::Push;
    let (weapon, rating) = match s.kind {
        AttackKind::Weapon(choice) => {
            let (w, r) = a.sheet.effective_weapon(choice)?;
            (Some(w), r)
        }
        AttackKind::Push => {
            if s.distance != 1 {
                return Err(RuleError::PushRange { distance: s.distance });
            }
            (None, a.sheet.attack)
        }
    };
    // Seed レンジ: optimal no modifier, beyond optimal −1D6, beyond maximum automatic failure.
    let band = match &weapon {
        None => RangeBand::Optimal,
        Some(w) if s.distance > w.range.max => RangeBand::OutOfRange,
        Some(w) if s.distance < w.range.optimal_min || s.distance > w.range.optimal_max => {
            RangeBand::BeyondOptimal
        }
        Some(_) => RangeBand::Optimal,
    };

    let mut ap = Pool::standard();
    // Seed 側面と背面: side +1D6, rear +2D6.
    ap.add(
        match s.facing {
            Facing::Front => Source::Base,
            Facing::Side => Source::SideAttack,
            Facing::Rear => Source::RearAttack,
        },
        match s.facing {
            Facing::Front => 0,
            Facing::Side => 1,
            Facing::Rear => 2,
        },
    );
    if band == RangeBand::BeyondOptimal {
        // Seed Pitbull II: Gentle Hands — no long-range penalty at cruising speed.
        let gentle = a.sheet.has(Trait::GentleHands) && a.state.speed() == Speed::Cruising;
        ap.add(Source::BeyondOptimalRange, if gentle { 0 } else { -1 });
    }
    if let Some(w) = &weapon {
        // Seed バースト: +X attack dice.
        ap.add(Source::Burst, w.burst() as i32);
    }
    // Seed ラタルドの影響: −1D6 on every check.
    ap.add(Source::Rattled, if a.is_rattled() { -1 } else { 0 });
    // Seed Ferret II / Cobra: Brawler +2D6 on push tests, attacking or defending.
    if push && a.sheet.has(Trait::Brawler) {
        ap.add(Source::Brawler, 2);
    }
    ap.add(Source::Situational, s.attack_extra);

    let mut dp = Pool::standard();
    // Seed カバー: +1D6 per level-1 element, +2D6 per level-2 element.
    dp.add(Source::CoverLevel1, s.cover.level1 as i32);
    dp.add(Source::CoverLevel2, 2 * s.cover.level2 as i32);
    // Seed Ferret: Low Profile — +1 die on defence while in cover.
    if s.cover.any() && d.sheet.has(Trait::LowProfile) {
        dp.add(Source::LowProfile, 1);
    }
    // Seed Mamba: Shield — +1D6 cover against frontal attacks.
    if s.facing == Facing::Front && d.sheet.has(Trait::Shield) {
        dp.add(Source::Shield, 1);
    }
    dp.add(Source::Rattled, if d.is_rattled() { -1 } else { 0 });
    if push && d.sheet.has(Trait::Brawler) {
        dp.add(Source::Brawler, 2);
    }
    dp.add(Source::Situational, s.defence_extra);
    ap.net()?;
    dp.net()?;
    Ok(Prepared {
        weapon,
        rating,
        band,
        attack_pool: ap,
        defence_pool: dp,
    })
}

/// Resolve an attack (or a push) and its damage. Nothing is applied: see
/// [`AttackOutcome::target_hit`] and [`super::race::RaceState::attack`].
pub fn resolve(req: &AttackRequest<'_>, roller: &mut impl Roller) -> Result<AttackOutcome, RuleError> {
    validate_targets(req)?;
    let p = prepare(req)?;
    if p.band == RangeBand::OutOfRange {
        return Ok(failed(req, p, None));
    }
    let attack = roll::check(&p.attack_pool, p.rating, roller)?;
    if attack.automatic_failure {
        return Ok(failed(req, p, Some(attack)));
    }
    let defence = roll::check(&p.defence_pool, req.defender.sheet.defence, roller)?;
    finish(req, p, attack, defence, roller)
}

/// Reliable: reroll one side's check, keep the other, and resolve the rest afresh.
pub fn reroll(
    req: &AttackRequest<'_>,
    previous: &AttackOutcome,
    side: Side,
    roller: &mut impl Roller,
) -> Result<AttackOutcome, RuleError> {
    validate_targets(req)?;
    let p = prepare(req)?;
    if p.band == RangeBand::OutOfRange {
        return Ok(failed(req, p, None));
    }
    let attack = match (side, &previous.attack) {
        (Side::Defender, Some(a)) => a.clone(),
        _ => roll::check(&p.attack_pool, p.rating, roller)?,
    };
    if attack.automatic_failure {
        return Ok(failed(req, p, Some(attack)));
    }
    let defence = match (side, &previous.defence) {
        (Side::Attacker, Some(d)) => d.clone(),
        _ => roll::check(&p.defence_pool, req.defender.sheet.defence, roller)?,
    };
    finish(req, p, attack, defence, roller)
}

fn validate_targets(req: &AttackRequest<'_>) -> Result<(), RuleError> {
    if std::ptr::eq(req.attacker, req.defender) {
        return Err(RuleError::SelfTarget);
    }
    for g in [req.attacker, req.defender] {
        if g.state.knocked_out {
            return Err(RuleError::KnockedOut {
                name: g.sheet.name.clone(),
            });
        }
    }
    Ok(())
}

fn failed(req: &AttackRequest<'_>, p: Prepared, attack: Option<CheckOutcome>) -> AttackOutcome {
    AttackOutcome {
        kind: req.setup.kind,
        weapon: p.weapon,
        attack_rating: p.rating,
        range: p.band,
        attacker_fumble: false,
        attack,
        defence: None,
        margin: None,
        hit: false,
        damage: None,
        blast: None,
        area_damage: None,
        target_damage: 0,
        impact: false,
        push_hexes: None,
        defender_spin_out: Vec::new(),
    }
}

fn finish(
    req: &AttackRequest<'_>,
    p: Prepared,
    attack: CheckOutcome,
    defence: CheckOutcome,
    roller: &mut impl Roller,
) -> Result<AttackOutcome, RuleError> {
    let margin = roll::margin(&attack, &defence);
    let (any_met, attack_all_ones) = (attack.any_met, attack.all_ones);
    let hit = margin >= 0;
    let mut defender_spin_out = Vec::new();
    // Seed スピニングアウトの発生 B: every defence die a 1.
    if defence.all_ones {
        defender_spin_out.push(SpinOutCause::DefenceAllOnes);
    }
    // Seed Ferret: Exposed Movement — a defence check of 1 or 2 (every die 2 or less).
    if req.defender.sheet.has(Trait::ExposedMovement) && !defence.automatic_failure && defence.result <= 2 {
        defender_spin_out.push(SpinOutCause::ExposedMovement);
    }
    let mut out = AttackOutcome {
        kind: req.setup.kind,
        weapon: None,
        attack_rating: p.rating,
        range: p.band,
        attacker_fumble: false,
        margin: Some(margin),
        hit,
        damage: None,
        blast: None,
        area_damage: None,
        target_damage: 0,
        impact: false,
        push_hexes: None,
        defender_spin_out,
        attack: Some(attack),
        defence: Some(defence),
    };
    let Some(weapon) = p.weapon else {
        // Seed プッシュ: up to MOS hexes; all ones on the attack is a fumble.
        out.attacker_fumble = attack_all_ones;
        out.push_hexes = hit.then_some(margin as u32);
        return Ok(out);
    };
    let ar = req.defender.sheet.ar;
    if hit {
        let d = damage::resolve_damage(
            &DamageRequest {
                mos: margin as u32,
                pow: weapon.pow,
                ar,
                melee: weapon.is_melee(),
                heat: weapon.has(WeaponTrait::Heat),
            },
            roller,
        )?;
        out.target_damage = d.damage;
        out.damage = Some(d);
    } else if weapon.has(WeaponTrait::Blast) && any_met && weapon.pow > ar {
        // Seed ブラスト: on a MOF, one blast die if a die met the rating and POW > AR.
        let b = damage::roll_blast(roller)?;
        out.target_damage = b.damage;
        out.blast = Some(b);
    }
    if weapon.has(WeaponTrait::AreaEffect) && any_met {
        // Seed エリア エフェクト: adjacent gears take half (blast damage not halved).
        let hit_damage = out.damage.as_ref().map_or(0, |d| d.damage);
        let blast = out.blast.map_or(0, |b| b.damage);
        out.area_damage = Some(damage::area_damage(hit_damage, blast));
    }
    // Seed インパクト: damaged by it, the target spins out and skids.
    out.impact = weapon.has(WeaponTrait::Impact) && out.target_damage > 0;
    out.weapon = Some(weapon);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::badlands_rally::gear::{Gear, Range, Upgrade, WeaponKind};
    use crate::systems::badlands_rally::gear_sheet::tests::sheet;
    use crate::systems::badlands_rally::state::GearEvent;

    fn gears() -> (Gear, Gear) {
        (Gear::new(sheet("A")).unwrap(), Gear::new(sheet("D")).unwrap())
    }

    fn setup(distance: u32) -> AttackSetup {
        AttackSetup {
            kind: AttackKind::Weapon(WeaponChoice::Sheet(0)),
            facing: Facing::Front,
            distance,
            cover: Cover::default(),
            attack_extra: 0,
            defence_extra: 0,
        }
    }

    fn run(a: &Gear, d: &Gear, s: &AttackSetup, faces: &[u32]) -> AttackOutcome {
        let mut dice = FixedRoller::new(faces.iter().copied());
        let out = resolve(
            &AttackRequest {
                attacker: a,
                defender: d,
                setup: s,
            },
            &mut dice,
        )
        .unwrap();
        assert_eq!(dice.remaining(), 0, "every fixed die used: {out:?}");
        out
    }

    #[test]
    fn hit_rolls_damage_with_pow_versus_ar() {
        let (a, d) = gears(); // rifle POW 6 vs AR 5, optimal 3-6
        // Attack 6,5 at 4+ → 7; defence 3,2 → 3; MOS 4; damage dice 4 + 1 = 5.
        let out = run(&a, &d, &setup(4), &[6, 5, 3, 2, 4, 4, 1, 6, 2]);
        assert_eq!(out.margin, Some(4));
        assert_eq!(out.mos(), Some(4));
        let dmg = out.damage.unwrap();
        assert_eq!(dmg.dice, vec![4, 4, 1, 6, 2]);
        assert_eq!(out.target_damage, 3);
    }

    #[test]
    fn miss_reports_mof_and_rolls_no_damage() {
        let (a, d) = gears();
        let out = run(&a, &d, &setup(4), &[3, 2, 6, 5]);
        assert_eq!(out.margin, Some(-4));
        assert_eq!(out.mof(), Some(4));
        assert!(!out.hit && out.damage.is_none());
    }

    #[test]
    fn equal_results_are_a_hit_with_mos_zero() {
        let (a, d) = gears();
        // 5,1 vs 5,2 → 5 vs 5; MOS 0 → 0 + 1 damage die.
        let out = run(&a, &d, &setup(4), &[5, 1, 5, 2, 4]);
        assert_eq!(out.mos(), Some(0));
        assert_eq!(out.target_damage, 1);
    }

    #[test]
    fn facing_adds_attack_dice() {
        let (a, d) = gears();
        let mut s = setup(4);
        s.facing = Facing::Side;
        let out = run(&a, &d, &s, &[1, 1, 1, 6, 1]);
        assert_eq!(out.attack.as_ref().unwrap().dice.len(), 3);
        s.facing = Facing::Rear;
        let out = run(&a, &d, &s, &[1, 1, 1, 6, 6, 6]);
        assert_eq!(out.attack.as_ref().unwrap().dice.len(), 4);
        assert_eq!(out.margin, Some(-1));
    }

    #[test]
    fn range_bands() {
        let (a, d) = gears(); // optimal 3-6, max 12
        let out = run(&a, &d, &setup(8), &[3, 6, 6]);
        assert_eq!(out.range, RangeBand::BeyondOptimal);
        assert_eq!(out.attack.as_ref().unwrap().dice, vec![3]);
        let out = run(&a, &d, &setup(2), &[3, 6, 6]);
        assert_eq!(out.range, RangeBand::BeyondOptimal);
        let out = run(&a, &d, &setup(13), &[]);
        assert_eq!(out.range, RangeBand::OutOfRange);
        assert!(!out.hit && out.attack.is_none() && out.margin.is_none());
        let mut dice = FixedRoller::new([]);
        let s = setup(0);
        let r = AttackRequest {
            attacker: &a,
            defender: &d,
            setup: &s,
        };
        assert_eq!(resolve(&r, &mut dice), Err(RuleError::ZeroDistance));
    }

    #[test]
    fn gentle_hands_ignores_long_range_at_cruising_only() {
        let (mut a, d) = gears();
        a.sheet.traits.push(Trait::GentleHands);
        let a = a
            .apply(&GearEvent::Activate {
                speed: Speed::Cruising,
            })
            .unwrap();
        let out = run(&a, &d, &setup(8), &[3, 3, 6, 6]);
        assert_eq!(out.attack.as_ref().unwrap().dice.len(), 2);
        let mut top = a.clone();
        top.state.activation = crate::systems::badlands_rally::state::Activation::Active {
            speed: Speed::Top,
            actions: 1,
            mr_left: 5,
        };
        let out = run(&top, &d, &setup(8), &[3, 6, 6]);
        assert_eq!(out.attack.as_ref().unwrap().dice.len(), 1);
    }

    #[test]
    fn cover_low_profile_and_shield_add_defence_dice() {
        let (a, mut d) = gears();
        let mut s = setup(4);
        s.cover = Cover { level1: 1, level2: 1 };
        // 2 + 1 + 2 = 5 defence dice.
        let out = run(&a, &d, &s, &[1, 1, 1, 1, 1, 1, 1, 3]);
        assert_eq!(out.defence.as_ref().unwrap().dice.len(), 5);
        assert!(out.defender_spin_out.contains(&SpinOutCause::DefenceAllOnes));
        d.sheet.traits.push(Trait::LowProfile);
        d.sheet.traits.push(Trait::Shield);
        let out = run(&a, &d, &s, &[1, 1, 1, 1, 1, 1, 1, 1, 1, 3]);
        assert_eq!(out.defence.as_ref().unwrap().dice.len(), 7);
        s.facing = Facing::Side;
        s.cover = Cover::default();
        // Side attack: no Shield; no cover: no Low Profile. Attack 3 dice, defence 2.
        let out = run(&a, &d, &s, &[1, 1, 1, 6, 6]);
        assert_eq!(out.defence.as_ref().unwrap().dice.len(), 2);
    }

    #[test]
    fn burst_and_rattled_change_pools() {
        let (mut a, d) = gears();
        a.sheet.weapons[0].traits.push(WeaponTrait::Burst(2));
        a.state.rattled = true;
        // 2 + 2 − 1 = 3 attack dice.
        let out = run(&a, &d, &setup(4), &[1, 1, 2, 6, 6]);
        assert_eq!(out.attack.as_ref().unwrap().dice, vec![1, 1, 2]);
        assert!(
            out.attack
                .as_ref()
                .unwrap()
                .pool
                .modifiers
                .iter()
                .any(|m| m.source == Source::Burst)
        );
    }

    #[test]
    fn zero_attack_dice_fail_without_defence() {
        let (a, d) = gears();
        let mut s = setup(8); // −1 beyond optimal
        s.attack_extra = -1;
        let out = run(&a, &d, &s, &[]);
        assert!(out.attack.as_ref().unwrap().automatic_failure);
        assert!(!out.hit && out.defence.is_none());
    }

    #[test]
    fn zero_defence_dice_score_zero() {
        let (a, d) = gears();
        let mut s = setup(4);
        s.defence_extra = -2;
        let out = run(&a, &d, &s, &[2, 1, 4, 4, 4]);
        assert_eq!(out.margin, Some(2));
        assert!(out.defender_spin_out.is_empty());
    }

    #[test]
    fn exposed_movement_spins_out_on_one_or_two() {
        let (a, mut d) = gears();
        d.sheet.traits.push(Trait::ExposedMovement);
        let out = run(&a, &d, &setup(4), &[2, 1, 2, 1, 4]);
        assert_eq!(out.defender_spin_out, vec![SpinOutCause::ExposedMovement]);
        let out = run(&a, &d, &setup(4), &[2, 1, 2, 2, 4]);
        assert_eq!(
            out.defender_spin_out,
            vec![SpinOutCause::ExposedMovement],
            "2,2 at 4+ is 2"
        );
        let out = run(&a, &d, &setup(4), &[2, 1, 3, 1]);
        assert!(out.defender_spin_out.is_empty(), "3,1 is 3");
    }

    #[test]
    fn melee_and_heat_damage() {
        let (mut a, d) = gears();
        a.sheet.weapons[0] = Weapon {
            name: "Bazooka".into(),
            kind: WeaponKind::Other,
            pow: 5,
            range: Range::new(1, 4, 8).unwrap(),
            traits: vec![WeaponTrait::Heat],
            attack: None,
        };
        // MOS 1 (6,1 vs 5,1 → 6 vs 5), 1 + 0 = 1 damage die: a 6 with Heat is 2.
        let out = run(&a, &d, &setup(2), &[6, 1, 5, 1, 6]);
        assert_eq!(out.target_damage, 2);
        a.sheet.weapons[0].traits = vec![WeaponTrait::Melee];
        a.sheet.weapons[0].pow = 2;
        let out = run(&a, &d, &setup(2), &[6, 1, 5, 1, 4, 3, 5]);
        assert_eq!(out.damage.as_ref().unwrap().dice_count, 3);
        assert_eq!(out.target_damage, 2);
    }

    #[test]
    fn blast_on_a_miss_needs_a_die_at_rating_and_pow_over_ar() {
        let (mut a, d) = gears();
        a.sheet.weapons[0].traits = vec![WeaponTrait::Blast, WeaponTrait::AreaEffect];
        // 4,1 → 4 (a die met 4+) vs 6,5 → 7: MOF 3, blast die 5 → 1 damage.
        let out = run(&a, &d, &setup(4), &[4, 1, 6, 5, 5]);
        assert!(!out.hit);
        assert_eq!(out.blast, Some(BlastOutcome { die: 5, damage: 1 }));
        assert_eq!(out.target_damage, 1);
        assert_eq!(out.area_damage, Some(1), "blast damage is not halved");
        // No die at 4+: no blast, no area.
        let out = run(&a, &d, &setup(4), &[3, 1, 6, 5]);
        assert!(out.blast.is_none() && out.area_damage.is_none());
        // POW not above AR: no blast.
        a.sheet.weapons[0].pow = 5;
        let out = run(&a, &d, &setup(4), &[4, 1, 6, 5]);
        assert!(out.blast.is_none());
    }

    #[test]
    fn area_effect_halves_damage_rounding_down() {
        let (mut a, d) = gears();
        a.sheet.weapons[0].traits = vec![WeaponTrait::AreaEffect];
        // MOS 4 → 5 dice, 3 damage → adjacent 1.
        let out = run(&a, &d, &setup(4), &[6, 5, 3, 2, 4, 4, 1, 6, 2]);
        assert_eq!(out.target_damage, 3);
        assert_eq!(out.area_damage, Some(1));
    }

    #[test]
    fn impact_needs_damage() {
        let (mut a, d) = gears();
        a.sheet.weapons[0].traits = vec![WeaponTrait::Impact];
        let out = run(&a, &d, &setup(4), &[5, 1, 5, 2, 4]);
        assert!(out.impact);
        let out = run(&a, &d, &setup(4), &[5, 1, 5, 2, 3]);
        assert!(!out.impact);
        assert!(out.target_hit().attack_hit);
    }

    #[test]
    fn push_uses_brawler_and_reports_hexes_and_fumble() {
        let (mut a, mut d) = gears();
        let mut s = setup(1);
        s.kind = AttackKind::Push;
        let out = run(&a, &d, &s, &[6, 4, 3, 1]);
        assert_eq!(out.push_hexes, Some(4));
        assert!(out.damage.is_none());
        let out = run(&a, &d, &s, &[1, 1, 3, 1]);
        assert!(out.attacker_fumble && out.push_hexes.is_none());
        a.sheet.traits.push(Trait::Brawler);
        d.sheet.traits.push(Trait::Brawler);
        let out = run(&a, &d, &s, &[1, 1, 1, 1, 2, 2, 2, 2]);
        assert_eq!(out.attack.as_ref().unwrap().dice.len(), 4);
        assert_eq!(out.defence.as_ref().unwrap().dice.len(), 4);
        s.distance = 2;
        let r = AttackRequest {
            attacker: &a,
            defender: &d,
            setup: &s,
        };
        assert_eq!(
            resolve(&r, &mut FixedRoller::new([])),
            Err(RuleError::PushRange { distance: 2 })
        );
    }

    #[test]
    fn twins_upgrade_improves_the_attack_rating() {
        let (mut a, d) = gears();
        a.sheet.upgrades.push(Upgrade::Twins { weapon: 0 });
        // 3,3 at 3+ → 4; without Twins 3,3 at 4+ would be 3.
        let out = run(&a, &d, &setup(3), &[3, 3, 6, 5]);
        assert_eq!(out.attack.as_ref().unwrap().result, 4);
        assert_eq!(out.attack_rating.value(), 3);
    }

    #[test]
    fn reliable_reroll_keeps_the_other_side() {
        let (a, d) = gears();
        let s = setup(4);
        let r = AttackRequest {
            attacker: &a,
            defender: &d,
            setup: &s,
        };
        let first = resolve(&r, &mut FixedRoller::new([2, 1, 6, 5])).unwrap();
        assert!(!first.hit);
        let again = reroll(
            &r,
            &first,
            Side::Attacker,
            &mut FixedRoller::new([6, 6, 4, 4, 4, 4, 4]),
        )
        .unwrap();
        assert_eq!(again.defence, first.defence);
        assert_eq!(again.margin, Some(0));
        assert_eq!(again.target_damage, 1);
    }

    #[test]
    fn knocked_out_gears_cannot_attack_or_be_attacked() {
        let (a, mut d) = gears();
        d.state.knocked_out = true;
        let s = setup(4);
        let r = AttackRequest {
            attacker: &a,
            defender: &d,
            setup: &s,
        };
        assert!(matches!(
            resolve(&r, &mut FixedRoller::new([])),
            Err(RuleError::KnockedOut { .. })
        ));
        let r = AttackRequest {
            attacker: &a,
            defender: &a,
            setup: &s,
        };
        assert_eq!(resolve(&r, &mut FixedRoller::new([])), Err(RuleError::SelfTarget));
    }
}

//! Combat end to end between two sheets: attack, defence, soak, damage on the monitor, the
//! wound modifier on the target's next pools, Second Chance paid from the attacker's Edge,
//! overflow and death.

use saikoro::dice::FixedRoller;
use saikoro::systems::shadowrun4::character::EdgeAfterKind;
use saikoro::systems::shadowrun4::combat::{
    AttackKind, AttackRequest, AttackRoll, MeleeDefence, SheetAttack, Weapon, apply_attack, resolve_attack,
};
use saikoro::systems::shadowrun4::pool::PartSource;
use saikoro::systems::shadowrun4::{
    Attribute, Attributes, Character, Condition, DamageType, PresetChoice, RollSpec, RuleError,
};

fn runner() -> Character {
    Character::new(
        "Ryu",
        Attributes {
            body: 4,
            agility: 5,
            reaction: 4,
            strength: 3,
            charisma: 2,
            intuition: 4,
            logic: 3,
            willpower: 3,
            edge: 3,
            ..Attributes::default()
        },
    )
    .unwrap()
    .with_skill("pistols", 4)
    .unwrap()
    .with_skill("unarmed combat", 3)
    .unwrap()
}

fn ganger() -> Character {
    Character::new(
        "Ganger",
        Attributes {
            body: 3,
            agility: 3,
            reaction: 3,
            strength: 3,
            charisma: 2,
            intuition: 3,
            logic: 2,
            willpower: 2,
            edge: 1,
            ..Attributes::default()
        },
    )
    .unwrap()
    .with_skill("pistols", 3)
    .unwrap()
    .with_skill("dodge", 2)
    .unwrap()
    .with_skill("unarmed_combat", 4)
    .unwrap()
    .with_armour(6, 4)
    .unwrap()
}

fn fixed(f: &[u32]) -> FixedRoller {
    FixedRoller::new(f.iter().copied())
}

const PISTOL: Weapon = Weapon {
    dv: 5,
    stun: false,
    ap: -1,
};

fn shot(presets: Vec<PresetChoice>) -> SheetAttack {
    SheetAttack {
        attack_skill: "pistols".into(),
        attack_presets: presets,
        ..SheetAttack::default()
    }
}

#[test]
fn a_ranged_hit_lands_on_the_monitor_and_the_wounds_follow_the_target() {
    let (ryu, ganger) = (runner(), ganger());
    let req = AttackRequest::from_sheets(
        AttackKind::Ranged,
        &ryu,
        &ganger,
        PISTOL,
        &shot(vec![PresetChoice::new("ranged.smartlink")]),
    )
    .unwrap();
    assert_eq!(req.attack.pool.total(), Ok(11));
    assert_eq!(req.defence.pool.total(), Ok(3));
    // Attack 11 dice: 3 hits. Defence 3 dice: 1 hit. Soak 3 + 6 − 1 = 8 dice: 1 hit.
    let mut dice = fixed(&[5, 5, 6, 1, 2, 3, 4, 2, 3, 4, 2, 5, 2, 3, 5, 2, 2, 2, 2, 2, 2, 2]);
    let o = resolve_attack(&req, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(o.hit);
    // The preset is listed among the parts of the attack.
    assert!(o.attack.parts.iter().any(|p| matches!(
        &p.source,
        PartSource::Preset { key, .. } if key == "ranged.smartlink"
    )));
    let d = o.damage.as_ref().unwrap();
    assert_eq!(
        (d.modified_dv, d.modified_armour, d.damage_type),
        (7, 5, DamageType::Physical)
    );
    assert_eq!((d.soak_pool, d.soak_hits, d.boxes, d.knockdown), (8, 1, 6, true));

    let (hurt, report) = apply_attack(&ganger, &o).unwrap();
    let report = report.unwrap();
    assert_eq!((report.physical_after, report.wound_modifier), (6, -2));
    // The ganger's next pool carries the wounds by itself: 3 + 3 − 2.
    let next = hurt.pool(Attribute::Agility, "pistols", &[]).unwrap();
    assert_eq!(next.total(), Ok(4));
    assert!(
        next.parts
            .iter()
            .any(|p| p.source == PartSource::Wounds && p.value == -2)
    );
    // …and so does the defence it rolls next.
    let again = AttackRequest::from_sheets(AttackKind::Ranged, &ryu, &hurt, PISTOL, &shot(vec![])).unwrap();
    assert_eq!(again.defence.pool.total(), Ok(1));
}

#[test]
fn overflow_then_death() {
    let ganger = ganger();
    // Physical track 8 + ⌈3/2⌉ = 10; overflow up to Body 3 more.
    assert_eq!(ganger.physical_track(), 10);
    let big = AttackRequest {
        kind: AttackKind::Ranged,
        attack: RollSpec::dice(1),
        defence: RollSpec::dice(0),
        full_defence: false,
        weapon: Weapon {
            dv: 12,
            stun: false,
            ap: -6,
        },
        armour: 6,
        body: 3,
        soak_edge: None,
    };
    // 1 hit: DV 13 against 3 soak dice, no hits → 13 boxes: track full and 3 overflow.
    let o = resolve_attack(&big, &mut fixed(&[5, 2, 2, 2])).unwrap();
    let (dying, r) = apply_attack(&ganger, &o).unwrap();
    let r = r.unwrap();
    assert_eq!(
        (r.physical_after, r.physical_overflow, r.condition),
        (13, 3, Condition::Unconscious)
    );
    // One more box kills.
    let (dead, r) = dying.apply_damage(DamageType::Physical, 1).unwrap();
    assert_eq!(r.condition, Condition::Dead);
    assert!(matches!(apply_attack(&dead, &o), Err(RuleError::Dead { .. })));
    assert!(matches!(
        dead.pool(Attribute::Agility, "pistols", &[]),
        Err(RuleError::Dead { .. })
    ));
}

#[test]
fn stun_weapons_overflow_into_physical() {
    let ganger = ganger();
    let taser = AttackRequest {
        kind: AttackKind::Ranged,
        attack: RollSpec::dice(1),
        defence: RollSpec::dice(0),
        full_defence: false,
        weapon: Weapon {
            dv: 11,
            stun: true,
            ap: -9,
        },
        armour: 6,
        body: 3,
        soak_edge: None,
    };
    // 12 Stun against 0 soak dice (3 + 6 − 9): Stun track 9 full, 3 overflow into Physical.
    let o = resolve_attack(&taser, &mut fixed(&[6])).unwrap();
    let d = o.damage.as_ref().unwrap();
    assert_eq!((d.damage_type, d.soak_pool, d.boxes), (DamageType::Stun, 0, 12));
    let (after, r) = apply_attack(&ganger, &o).unwrap();
    assert_eq!((after.stun, after.physical, r.unwrap().stun_overflow), (9, 3, 3));
    assert_eq!(after.condition(), Condition::Unconscious);
}

#[test]
fn second_chance_is_paid_from_the_attackers_edge_once() {
    let (ryu, ganger) = (runner(), ganger());
    let req = AttackRequest::from_sheets(AttackKind::Ranged, &ryu, &ganger, PISTOL, &shot(vec![])).unwrap();
    // 9 attack dice, 1 hit; defence 3 dice, 1 hit: a miss.
    let o = resolve_attack(&req, &mut fixed(&[5, 1, 2, 2, 3, 3, 4, 4, 2, 5, 2, 2])).unwrap();
    assert!(!o.hit);
    let (ryu2, action) = ryu.edge_after(EdgeAfterKind::SecondChance).unwrap();
    assert_eq!(ryu2.edge_points, 2);
    // The 8 misses are rerolled: 2 hits, then the soak (8 dice) is rolled.
    let rerolled = [5, 6, 1, 2, 2, 3, 3, 4, 2, 2, 2, 2, 2, 2, 2, 2];
    let o2 = o
        .with_edge_after(&req, AttackRoll::Attack, action, &mut fixed(&rerolled))
        .unwrap();
    assert!(o2.hit);
    assert_eq!(o2.attack_hits, 3);
    assert_eq!(o2.damage.as_ref().unwrap().boxes, 7);
    // Every original die is still shown, marked replaced.
    assert_eq!(o2.attack.roll.dice.len(), 17);
    assert_eq!(o2.attack.roll.dice.iter().filter(|d| d.replaced).count(), 8);
    // A second press is refused.
    let (_, again) = ryu2.edge_after(EdgeAfterKind::SecondChance).unwrap();
    assert_eq!(
        o2.with_edge_after(&req, AttackRoll::Attack, again, &mut fixed(&[])),
        Err(RuleError::EdgeAlreadyUsed)
    );
    // Out of points: the sheet refuses before any dice move.
    let broke = ryu2.spend_edge().unwrap().spend_edge().unwrap();
    assert_eq!(
        broke.edge_after(EdgeAfterKind::SecondChance).unwrap_err(),
        RuleError::NoEdgeLeft
    );
}

#[test]
fn full_defence_and_melee_defences_use_the_seeds_pools() {
    let (ryu, ganger) = (runner(), ganger());
    let full = SheetAttack {
        full_defence: true,
        ..shot(vec![])
    };
    let r = AttackRequest::from_sheets(AttackKind::Ranged, &ryu, &ganger, PISTOL, &full).unwrap();
    // Reaction 3 + Dodge 2 (better than Gymnastics 0).
    assert_eq!(r.defence.pool.total(), Ok(5));

    let punch = Weapon {
        dv: 2,
        stun: true,
        ap: 0,
    };
    let melee = |defence, full_defence| SheetAttack {
        attack_skill: "unarmed_combat".into(),
        melee_defence: defence,
        full_defence,
        ..SheetAttack::default()
    };
    let block = AttackRequest::from_sheets(
        AttackKind::Melee,
        &ryu,
        &ganger,
        punch,
        &melee(MeleeDefence::Block, false),
    )
    .unwrap();
    assert_eq!(block.attack.pool.total(), Ok(8));
    assert_eq!(block.defence.pool.total(), Ok(7));
    // Melee soaks with impact armour.
    assert_eq!(block.armour, 4);
    let dodge = AttackRequest::from_sheets(
        AttackKind::Melee,
        &ryu,
        &ganger,
        punch,
        &melee(MeleeDefence::Dodge, true),
    )
    .unwrap();
    // Reaction 3 + Dodge 2 + the better of Dodge/Gymnastics (2).
    assert_eq!(dodge.defence.pool.total(), Ok(7));
    let block_full = AttackRequest::from_sheets(
        AttackKind::Melee,
        &ryu,
        &ganger,
        punch,
        &melee(MeleeDefence::Block, true),
    )
    .unwrap();
    // Reaction 3 + Unarmed 4 + the better of Dodge/Unarmed (4).
    assert_eq!(block_full.defence.pool.total(), Ok(11));
}

#[test]
fn an_unaware_defender_rolls_no_defence() {
    let (ryu, ganger) = (runner(), ganger());
    let how = SheetAttack {
        defence_presets: vec![PresetChoice::new("defence.unaware")],
        ..shot(vec![])
    };
    let req = AttackRequest::from_sheets(AttackKind::Ranged, &ryu, &ganger, PISTOL, &how).unwrap();
    // 9 attack dice (1 hit), no defence roll, soak 8 dice.
    let mut dice = fixed(&[5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    let o = resolve_attack(&req, &mut dice).unwrap();
    assert!(o.undefended && o.defence.is_none() && o.hit);
    assert_eq!(dice.remaining(), 0);
}

#[test]
fn knockdown_at_ten_boxes_or_more_than_body() {
    let req = |dv, body| AttackRequest {
        kind: AttackKind::Melee,
        attack: RollSpec::dice(1),
        defence: RollSpec::dice(0),
        full_defence: false,
        weapon: Weapon {
            dv,
            stun: true,
            ap: 0,
        },
        armour: 0,
        body,
        soak_edge: None,
    };
    // Body 10 soak dice all miss. 9 + 1 = 10 boxes: knocked down (10 or more).
    let ten = resolve_attack(&req(9, 10), &mut fixed(&[5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2])).unwrap();
    assert_eq!(
        ten.damage.as_ref().map(|d| (d.boxes, d.knockdown)),
        Some((10, true))
    );
    // 8 + 1 = 9 boxes against Body 10: stays up.
    let nine = resolve_attack(&req(8, 10), &mut fixed(&[5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2])).unwrap();
    assert_eq!(
        nine.damage.as_ref().map(|d| (d.boxes, d.knockdown)),
        Some((9, false))
    );
    // 3 + 1 = 4 boxes against Body 3: more than Body, knocked down.
    let small = resolve_attack(&req(3, 3), &mut fixed(&[5, 2, 2, 2])).unwrap();
    assert_eq!(
        small.damage.as_ref().map(|d| (d.boxes, d.knockdown)),
        Some((4, true))
    );
}

fn bare(attack: i32, defence: i32, armour: u32, body: u32) -> AttackRequest {
    AttackRequest {
        kind: AttackKind::Ranged,
        attack: RollSpec::dice(attack),
        defence: RollSpec::dice(defence),
        full_defence: false,
        weapon: PISTOL,
        armour,
        body,
        soak_edge: None,
    }
}

#[test]
fn defender_edge_counts_only_for_the_rolls_made() {
    let push = saikoro::systems::shadowrun4::EdgeBefore::PushTheLimit { edge: 2 };
    // A miss: defence rolled with Edge (1 + 2 dice), no soak roll, so one point only.
    let mut r = bare(1, 1, 6, 3);
    r.defence.edge = Some(push);
    r.soak_edge = Some(push);
    let o = resolve_attack(&r, &mut fixed(&[2, 5, 2, 2])).unwrap();
    assert!(!o.hit && o.damage.is_none());
    assert!(o.defence_edge_rolled() && !o.soak_edge_rolled());
    assert_eq!(o.defender_edge_spent(), 1);
    // A hit: defence and soak both rolled with Edge → two points.
    let mut dice = fixed(&[5, 5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    let mut r2 = bare(2, 1, 6, 3);
    r2.defence.edge = Some(push);
    r2.soak_edge = Some(push);
    let o = resolve_attack(&r2, &mut dice).unwrap();
    assert!(o.hit);
    assert_eq!(o.defender_edge_spent(), 2);
    // 2 attack + 3 defence + (3 + 6 − 1 + 2) soak dice.
    assert_eq!(dice.remaining(), 0);
    // No Edge asked: nothing spent even on a hit.
    let o = resolve_attack(&bare(1, 1, 0, 1), &mut fixed(&[5, 2])).unwrap();
    assert!(o.hit);
    assert_eq!(o.defender_edge_spent(), 0);
}

#[test]
fn an_unaware_defender_spends_no_defence_edge() {
    let (ryu, ganger) = (runner(), ganger());
    let how = SheetAttack {
        defence_presets: vec![PresetChoice::new("defence.unaware")],
        defence_edge: Some(saikoro::systems::shadowrun4::EdgeBefore::PushTheLimit { edge: 1 }),
        ..shot(vec![])
    };
    let req = AttackRequest::from_sheets(AttackKind::Ranged, &ryu, &ganger, PISTOL, &how).unwrap();
    // 9 attack dice all miss: no defence roll (unaware), no soak (miss).
    let mut dice = fixed(&[2; 9]);
    let o = resolve_attack(&req, &mut dice).unwrap();
    assert!(o.undefended && o.defence.is_none() && !o.hit);
    assert_eq!(o.defender_edge_spent(), 0);
    assert_eq!(dice.remaining(), 0);
}

#[test]
fn empty_defence_and_soak_pools_do_not_abort_a_hit() {
    let push = saikoro::systems::shadowrun4::EdgeBefore::PushTheLimit { edge: 2 };
    // Defence 0 dice with Edge pushed: a long shot of 2 Edge dice (6 explodes into a 2).
    // Soak Body 0 + armour 0 + AP −1: no dice, Edge pushed → long shot of 2 dice.
    let mut r = bare(2, 0, 0, 0);
    r.defence.edge = Some(push);
    r.soak_edge = Some(push);
    let mut dice = fixed(&[5, 5, 6, 2, 1, 5, 2]);
    let o = resolve_attack(&r, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    let d = o.defence.as_ref().expect("the long shot was rolled");
    assert_eq!(
        d.edge,
        Some(saikoro::systems::shadowrun4::EdgeBefore::LongShot { edge: 2 })
    );
    assert_eq!((d.rolled, o.defence_hits), (2, 1));
    assert!(o.hit, "2 hits against 1");
    let dmg = o.damage.as_ref().unwrap();
    let soak = dmg.soak.as_ref().expect("soak long shot");
    assert_eq!(
        soak.edge,
        Some(saikoro::systems::shadowrun4::EdgeBefore::LongShot { edge: 2 })
    );
    // DV 5 + 1 net = 6, soak 1 hit → 5 boxes.
    assert_eq!((dmg.soak_pool, dmg.soak_hits, dmg.boxes), (0, 1, 5));
    assert_eq!(o.defender_edge_spent(), 2);
    // A negative defence pool with no Edge: no dice, the hit resolves.
    let mut neg = bare(1, 0, 0, 1);
    neg.defence.pool = neg.defence.pool.with_custom("wounds", -3);
    let mut dice = fixed(&[5]);
    let o = resolve_attack(&neg, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(o.hit && o.defence.is_none());
    assert_eq!(o.damage.unwrap().boxes, 6);
}

#[test]
fn a_late_hit_rolls_the_soak_and_says_so() {
    let push = saikoro::systems::shadowrun4::EdgeBefore::PushTheLimit { edge: 1 };
    let mut r = bare(2, 1, 0, 1);
    r.soak_edge = Some(push);
    let o = resolve_attack(&r, &mut fixed(&[5, 2, 6])).unwrap();
    assert!(!o.hit);
    assert_eq!(o.defender_edge_spent(), 0);
    // Second chance on the attack: 2 → 5, a hit (net 1); soak Body 1 + 0 − 1 = 0 dice with
    // Edge pushed: a long shot of 1 die, rolled now, so the defender's point is spent now.
    let o2 = o
        .with_edge_after(
            &r,
            AttackRoll::Attack,
            saikoro::systems::shadowrun4::EdgeAfter::SecondChance,
            &mut fixed(&[5, 2]),
        )
        .unwrap();
    assert!(o2.hit);
    assert!(o2.soak_edge_rolled());
    assert_eq!(o2.defender_edge_spent() - o.defender_edge_spent(), 1);
}

#[test]
fn presets_for_the_other_kind_of_attack_are_refused() {
    use saikoro::systems::shadowrun4::combat::preset_attack_kind;
    let (ryu, ganger) = (runner(), ganger());
    // Ranged-only defence rows (seed 防御修正表, under 射撃戦闘時のみ) on a melee attack.
    let how = SheetAttack {
        attack_skill: "unarmed combat".into(),
        defence_presets: vec![PresetChoice::new("defence.running")],
        ..SheetAttack::default()
    };
    let r = AttackRequest::from_sheets(AttackKind::Melee, &ryu, &ganger, PISTOL, &how);
    assert_eq!(
        r,
        Err(RuleError::PresetWrongAttackKind {
            key: "defence.running".into(),
            melee_only: false
        })
    );
    // "Defender prone" is melee only: refused on a ranged attack, taken on a melee one.
    let prone = SheetAttack {
        defence_presets: vec![PresetChoice::new("defence.prone_melee")],
        ..shot(vec![])
    };
    assert!(matches!(
        AttackRequest::from_sheets(AttackKind::Ranged, &ryu, &ganger, PISTOL, &prone),
        Err(RuleError::PresetWrongAttackKind { melee_only: true, .. })
    ));
    let melee_prone = SheetAttack {
        attack_skill: "unarmed combat".into(),
        ..prone.clone()
    };
    let ok = AttackRequest::from_sheets(AttackKind::Melee, &ryu, &ganger, PISTOL, &melee_prone).unwrap();
    // Reaction 3 + dodge 2 − 2 prone.
    assert_eq!(ok.defence.pool.total(), Ok(3));
    // The attack side: a smartlink on a punch is refused, a charge on a shot too.
    let punch = SheetAttack {
        attack_skill: "unarmed combat".into(),
        attack_presets: vec![PresetChoice::new("ranged.smartlink")],
        ..SheetAttack::default()
    };
    assert!(AttackRequest::from_sheets(AttackKind::Melee, &ryu, &ganger, PISTOL, &punch).is_err());
    let charge = shot(vec![PresetChoice::new("melee.charging")]);
    assert!(AttackRequest::from_sheets(AttackKind::Ranged, &ryu, &ganger, PISTOL, &charge).is_err());
    // Rows that fit both stay allowed.
    assert_eq!(preset_attack_kind("defence.in_moving_vehicle"), None);
    assert_eq!(preset_attack_kind("visibility.full_darkness.normal"), None);
    let both = SheetAttack {
        defence_presets: vec![PresetChoice::new("defence.in_moving_vehicle")],
        ..shot(vec![PresetChoice::new("visibility.full_darkness.normal")])
    };
    assert!(AttackRequest::from_sheets(AttackKind::Ranged, &ryu, &ganger, PISTOL, &both).is_ok());
}

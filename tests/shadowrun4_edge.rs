//! Edge from a character's points: pushing the limit, long shot, Second Chance, negating a
//! glitch, burning for a critical success, initiative uses, refresh.

use saikoro::dice::FixedRoller;
use saikoro::systems::shadowrun4::character::EdgeAfterKind;
use saikoro::systems::shadowrun4::dice::DieSource;
use saikoro::systems::shadowrun4::initiative::{Combatant, roll_initiative};
use saikoro::systems::shadowrun4::test_kinds::{SuccessRequest, success_test};
use saikoro::systems::shadowrun4::{
    Attribute, Attributes, Character, DamageType, EdgeBefore, Glitch, PresetChoice, RollSpec, RuleError,
};

fn face() -> Character {
    Character::new(
        "Kei",
        Attributes {
            body: 3,
            agility: 3,
            reaction: 3,
            strength: 2,
            charisma: 5,
            intuition: 4,
            logic: 3,
            willpower: 3,
            edge: 4,
            ..Attributes::default()
        },
    )
    .unwrap()
    .with_skill("con", 2)
    .unwrap()
}

fn fixed(f: &[u32]) -> FixedRoller {
    FixedRoller::new(f.iter().copied())
}

fn test_req(roll: RollSpec, threshold: u32) -> SuccessRequest {
    SuccessRequest {
        roll,
        threshold: Some(threshold),
        ..SuccessRequest::default()
    }
}

#[test]
fn pushing_the_limit_from_the_sheet_spends_a_point_and_explodes() {
    let kei = face();
    let (kei, edge) = kei.edge_before(false).unwrap();
    assert_eq!((kei.edge_points, edge), (3, EdgeBefore::PushTheLimit { edge: 4 }));
    let pool = kei.pool(Attribute::Charisma, "con", &[]).unwrap();
    let req = test_req(RollSpec::new(pool).with_edge(edge), 4);
    // 7 + 4 = 11 dice; two sixes explode into 6 and 2; the new six into 5.
    let faces = [6, 6, 1, 2, 3, 4, 2, 3, 4, 2, 3, 6, 2, 5];
    let o = success_test(&req, &mut fixed(&faces)).unwrap();
    let r = o.rolled.as_ref().unwrap();
    assert_eq!(r.rolled, 11);
    assert_eq!(
        r.roll
            .dice
            .iter()
            .filter(|d| d.source == DieSource::Exploded)
            .count(),
        3
    );
    assert_eq!((o.hits, o.success), (4, Some(true)));
}

#[test]
fn a_long_shot_when_wounds_empty_the_pool() {
    let kei = face();
    let (hurt, _) = kei.apply_damage(DamageType::Physical, 9).unwrap();
    // Physical track 10: 9 boxes = −3. Charisma 5 + con 2 − 3 − 6 (VR) = −2.
    let pool = hurt
        .pool(
            Attribute::Charisma,
            "con",
            &[PresetChoice::new("perception.using_vr")],
        )
        .unwrap();
    assert_eq!(pool.total(), Ok(-2));
    let plain = test_req(RollSpec::new(pool.clone()), 1);
    assert_eq!(
        success_test(&plain, &mut fixed(&[])).unwrap_err(),
        RuleError::PoolEmpty { pool: -2 }
    );
    let (hurt, edge) = hurt.edge_before(true).unwrap();
    assert_eq!(hurt.edge_points, 3);
    let long = test_req(RollSpec::new(pool).with_edge(edge), 1);
    // Edge 4 dice with the rule of six: 6 → 1 more (a 1, which is an explosion).
    let o = success_test(&long, &mut fixed(&[6, 2, 3, 1, 1])).unwrap();
    let r = o.rolled.as_ref().unwrap();
    assert_eq!((r.rolled, r.roll.dice.len(), o.hits), (4, 5, 1));
    // One original 1 over 5 dice: no glitch.
    assert_eq!(o.glitch, Glitch::None);
}

#[test]
fn negate_a_glitch_and_burn_for_a_critical_success() {
    let kei = face();
    let req = test_req(RollSpec::dice(4), 2);
    let o = success_test(&req, &mut fixed(&[1, 1, 2, 3])).unwrap();
    assert_eq!((o.glitch, o.success), (Glitch::Critical, Some(false)));
    let (kei2, negate) = kei.edge_after(EdgeAfterKind::NegateGlitch).unwrap();
    let saved = o.with_edge_after(negate, &mut fixed(&[])).unwrap();
    assert_eq!((saved.glitch, saved.success), (Glitch::None, Some(false)));
    assert_eq!(kei2.edge_points, 3);

    let (kei3, burn) = kei.edge_after(EdgeAfterKind::BurnForCriticalSuccess).unwrap();
    assert_eq!(
        (kei3.attributes.edge, kei3.edge_points, kei3.edge_burnt),
        (3, 3, 1)
    );
    let crit = o.with_edge_after(burn, &mut fixed(&[])).unwrap();
    assert!(crit.critical_success);
    assert_eq!((crit.success, crit.glitch), (Some(true), Glitch::None));
    // Burnt Edge does not come back with a refresh.
    assert_eq!(kei3.spend_edge().unwrap().refresh_edge().edge_points, 3);
}

#[test]
fn edge_after_adds_dice_that_alone_explode() {
    let kei = face();
    let req = test_req(RollSpec::dice(3), 3);
    let o = success_test(&req, &mut fixed(&[6, 5, 2])).unwrap();
    assert_eq!(o.success, Some(false));
    let (_, add) = kei.edge_after(EdgeAfterKind::AddDice).unwrap();
    // The pool's six did not explode; Edge's 4 dice do: 6 → 3.
    let o2 = o.with_edge_after(add, &mut fixed(&[6, 2, 2, 2, 3])).unwrap();
    assert_eq!((o2.hits, o2.success), (3, Some(true)));
}

#[test]
fn initiative_edge_pushes_the_roll() {
    let kei = face();
    let (kei, _) = kei.edge_before(false).unwrap();
    let mut me = Combatant::from_sheet(&kei);
    me.push_the_limit = true;
    assert_eq!(me.initiative, 7);
    // 7 + 4 = 11 dice, one six explodes.
    let faces = [6, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 5];
    let s = roll_initiative(&[me], &mut fixed(&faces)).unwrap();
    assert_eq!(s.entries[0].score, 9);
    assert_eq!(kei.edge_points, 3);
}

#[test]
fn several_seizing_the_initiative_keep_their_scores_order_among_themselves() {
    // Seed 2: when several spend Edge to act first, their own scores order them.
    let c = |name: &str, init: u32| Combatant {
        name: name.into(),
        initiative: init,
        edge: 2,
        passes: 1,
        modifier: 0,
        sustained: 0,
        push_the_limit: false,
    };
    let list = [c("A", 1), c("B", 2), c("C", 3)];
    // No hits: C 3, B 2, A 1.
    let s = roll_initiative(&list, &mut fixed(&[2, 2, 2, 2, 2, 2])).unwrap();
    let s = s.seize_first("A").unwrap().seize_first("B").unwrap();
    let order: Vec<&str> = s.order().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(order, vec!["B", "A", "C"]);
    let s = s.extra_pass("A").unwrap();
    assert!(matches!(
        s.extra_pass("A"),
        Err(RuleError::ExtraPassAlreadyUsed { .. })
    ));
    let p2 = s.next_pass().unwrap();
    let order: Vec<&str> = p2.order().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(order, vec!["A"]);
    // Advancing: pass 2 is A's extra pass, and B's too if B buys one now; after it the turn
    // is over (an extra pass bought then would be a pass 2 already gone).
    assert_eq!(s.advance(&[]).unwrap(), Some(p2.clone()));
    let both = s.advance(&["B".to_string()]).unwrap().expect("pass 2");
    assert_eq!((both.pass, both.order().len()), (2, 2));
    assert_eq!(p2.advance(&[]).unwrap(), None);
    assert_eq!(p2.advance(&["B".to_string()]).unwrap(), None);
}

#[test]
fn second_chance_on_an_extended_test_from_the_sheet() {
    use saikoro::systems::shadowrun4::test_kinds::{ExtendedEnd, ExtendedRequest, extended_test};
    let kei = face();
    let pool = kei.pool(Attribute::Charisma, "con", &[]).unwrap();
    let req = ExtendedRequest {
        pool,
        retry: 0,
        threshold: 4,
        max_intervals: Some(1),
        edge: None,
    };
    // 7 dice, 2 hits: short of 4.
    let o = extended_test(&req, &mut fixed(&[5, 6, 2, 2, 3, 3, 4])).unwrap();
    assert_eq!(o.end, ExtendedEnd::OutOfIntervals);
    let (kei, _) = kei.edge_after(EdgeAfterKind::SecondChance).unwrap();
    assert_eq!(kei.edge_points, 3);
    let n = o.with_second_chance(&req, &mut fixed(&[5, 5, 1, 2, 2])).unwrap();
    assert_eq!((n.total_hits, n.success), (4, true));
}

#[test]
fn sustaining_lowers_the_initiative_pool_like_every_other_test() {
    use saikoro::systems::shadowrun4::pool::PartSource;
    let mage = Character::new(
        "Mage",
        Attributes {
            reaction: 2,
            intuition: 3,
            edge: 1,
            magic: 4,
            ..Attributes::default()
        },
    )
    .unwrap()
    .set_sustained(2)
    .unwrap();
    let cb = Combatant::from_sheet(&mage);
    assert_eq!(cb.sustained, 2);
    // Initiative 5, −4 for two sustained spells: 1 die. The score still adds the attribute.
    let mut dice = fixed(&[5]);
    let s = roll_initiative(&[cb], &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0, "one die rolled, not five");
    let e = &s.entries[0];
    assert_eq!((e.hits, e.score), (1, 6));
    let roll = e.roll.as_ref().unwrap();
    assert_eq!(roll.pool, 1);
    assert!(
        roll.parts
            .iter()
            .any(|p| p.source == PartSource::Sustaining { count: 2 } && p.value == -4)
    );
    // Three sustained: the pool is below 0, no dice, the score is the attribute alone.
    let cb = Combatant::from_sheet(&mage.set_sustained(3).unwrap());
    let s = roll_initiative(&[cb], &mut fixed(&[])).unwrap();
    assert_eq!((s.entries[0].score, s.entries[0].roll.is_none()), (5, true));
}

#[test]
fn a_players_sheet_edit_never_raises_edge_points_the_gms_may() {
    use saikoro::session::SystemId;
    use saikoro::systems::sheet::{edit_sheet_as, new_sheet, parse_fields};
    let f = |s: &str| parse_fields(s).unwrap();
    let sheet = new_sheet(SystemId::Shadowrun4, &f("body=3 edge=3")).unwrap();
    let sheet = edit_sheet_as(SystemId::Shadowrun4, &sheet, &f("edge_points=1"), true).unwrap();
    assert_eq!(sheet["edge_points"], 1);
    // A player lowers the attribute to the points left (now "full"), then raises it again: the
    // points stay 1, no refill.
    let p = edit_sheet_as(SystemId::Shadowrun4, &sheet, &f("edge=1"), false).unwrap();
    assert_eq!(
        (p["attributes"]["edge"].clone(), p["edge_points"].clone()),
        (1.into(), 1.into())
    );
    let p = edit_sheet_as(SystemId::Shadowrun4, &p, &f("edge=4"), false).unwrap();
    assert_eq!(
        (p["attributes"]["edge"].clone(), p["edge_points"].clone()),
        (4.into(), 1.into())
    );
    // Lowering still takes the points down with it.
    let p = edit_sheet_as(SystemId::Shadowrun4, &p, &f("edge=0"), false).unwrap();
    assert_eq!(p["edge_points"], 0);
    // The GM's same edits refill a full pool.
    let g = edit_sheet_as(SystemId::Shadowrun4, &sheet, &f("edge=1"), true).unwrap();
    let g = edit_sheet_as(SystemId::Shadowrun4, &g, &f("edge=4"), true).unwrap();
    assert_eq!(g["edge_points"], 4);
    // A new sheet starts full whoever writes it.
    let empty = serde_json::json!({});
    let n = edit_sheet_as(SystemId::Shadowrun4, &empty, &f("edge=2"), false).unwrap();
    assert_eq!(n["edge_points"], 2);
}

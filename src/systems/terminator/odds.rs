//! Terminator Genisys odds: the attack sequence of `systems::terminator::attack` for one
//! request, target by target (shared/rules/terminator.md items 13–21, 29–31, TG-1, TG-4–6,
//! TG-9, TG-15, TG-18). ROF dice of the skill die, each at or over the band's number (2 under See
//! you in hell) a hit; every target takes as many hits; one D6 per hit where a save is allowed, 4+
//! cancels it; one power die per unsaved hit (a D20 for See you in hell's target), each at or over
//! the armour a damaging die, killing at the Damage limit; a killed target with I'll Be Back
//! fights on as a Crawler on a 5–6, taking the leftover damaging dice with `carry_over`; one resolution
//! test per die that did not damage, on the resolution die one step down after a heavy roll,
//! stopping at a Retreat.
//!
//! Each of the ROF dice ends independently as a damaging die, a die that owes a test, or nothing,
//! so a target's counts are a multinomial over the ROF; the tests are closed forms over their
//! number. The odds of each target are its own (the targets share the attack roll).

use crate::odds::dist::Dist;
use crate::odds::error::{OddsError, OddsInput, within};
use crate::systems::terminator::attack::{
    AttackRequest, AttackRun, CrawlerStats, MAX_DICE, ResolutionRoll, SaveRule, TargetStats, heavy,
};
use crate::systems::terminator::dice::Die;
use crate::systems::terminator::error::{DieField, Quantity, RuleError, bounded};

/// Largest Damage limit, and damage already taken, a sheet may give (`sheet.rs`: 0..=10).
pub const MAX_DAMAGE_LIMIT: u32 = 10;

/// How a target's resolution tests may end, when its resolution die is known. The three chances
/// add up to the chance that a test is taken at all.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TestOdds {
    /// At least one test is owed and taken.
    pub taken: f64,
    /// Every test taken shows 6+ (never on a D4, only a 6 on a D6: TG-18).
    pub no_effect: f64,
    /// No Retreat and at least one Reeling: it stays, Reeling.
    pub reeling: f64,
    /// A 1: Retreat!, the character is removed.
    pub retreat: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TargetOdds {
    pub name: String,
    pub save: SaveRule,
    /// The power die rolled for this target.
    pub power: Die,
    /// TG-1: a roll on this die degrades the resolution die.
    pub heavy: bool,
    /// Hits left after the cover saves (the same as the hits without a save).
    pub unsaved: Dist,
    /// Damage dice at or over the armour.
    pub damaging: Dist,
    /// At least one damaging die.
    pub damage_chance: f64,
    /// The damage roll kills it (before I'll Be Back).
    pub killed: f64,
    /// Killed, and fights on as a Crawler (I'll Be Back).
    pub crawls: f64,
    /// Removed as killed at the end (a Crawler killed by leftover dice included).
    pub dead: f64,
    /// `None` when a resolution die it may need is unset (the resolver waits for it).
    pub tests: Option<TestOdds>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TerminatorOdds {
    /// The request as the run reads it (the band is CC under See you in hell).
    pub request: AttackRequest,
    pub rof: u32,
    pub threshold: u32,
    /// Hits on the attack roll.
    pub hits: Dist,
    /// At least one hit.
    pub hit: f64,
    /// In the request's order: the primary target first.
    pub targets: Vec<TargetOdds>,
}

/// `P(face ≥ t)` on a die.
fn at_least(die: Die, t: u32) -> f64 {
    let s = die.sides();
    f64::from((s + 1).saturating_sub(t.max(1)).min(s)) / f64::from(s)
}

/// The hits of an attack roll: `rof` dice of `die`, each at or over `threshold` a hit (the luck
/// of a logged attack: [`super::luck`]).
pub fn attack_hits(die: Die, rof: u32, threshold: u32) -> Result<Dist, OddsError> {
    bounded(Quantity::Rof, i64::from(rof), 1, MAX_DICE as i64)?;
    let lnf = ln_factorials(rof as usize);
    binomial(&lnf, rof as usize, at_least(die, threshold))
}

/// How `tests` resolution tests on `die` may end, scored for the character tested (the luck of a
/// logged resolution roll): `−k` for `k` Reeling results and no Retreat (each Reeling adds a Done
/// marker), below them all a Retreat, `−tests − 1`, whatever came before it ([`resolution_score`]).
pub fn resolution_scores(die: Die, tests: u32) -> Result<Dist, OddsError> {
    bounded(Quantity::DiceCount, i64::from(tests), 1, MAX_DICE as i64)?;
    let s = die.sides();
    // Faces 2–5 reel, 6+ have no effect (none on a D4), a 1 retreats.
    let p_reel = f64::from(s.min(5) - 1) / f64::from(s);
    let p_calm = f64::from(s.saturating_sub(5)) / f64::from(s);
    let n = tests as usize;
    let lnf = ln_factorials(n);
    let mut pairs: Vec<(i64, f64)> = (0..=n)
        .map(|k| {
            let ways = (lnf[n] - lnf[k] - lnf[n - k]).exp();
            (
                -(k as i64),
                ways * p_reel.powi(k as i32) * p_calm.powi((n - k) as i32),
            )
        })
        .collect();
    pairs.push((-(n as i64) - 1, 1.0 - (1.0 - 1.0 / f64::from(s)).powi(n as i32)));
    Dist::from_pairs(&pairs)
}

/// A logged resolution roll's score on [`resolution_scores`].
pub fn resolution_score(roll: &ResolutionRoll) -> i64 {
    let tests = roll.faces.len() as i64 + i64::from(roll.skipped);
    if roll.retreat() {
        -tests - 1
    } else {
        -i64::from(roll.reeling())
    }
}

fn ln_factorials(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n + 1];
    for k in 1..=n {
        v[k] = v[k - 1] + (k as f64).ln();
    }
    v
}

/// `n! / (k! m! (n − k − m)!) · a^k · b^m · c^(n−k−m)`.
fn multinomial(lnf: &[f64], n: usize, k: usize, m: usize, (a, b, c): (f64, f64, f64)) -> f64 {
    let r = n - k - m;
    (lnf[n] - lnf[k] - lnf[m] - lnf[r]).exp() * a.powi(k as i32) * b.powi(m as i32) * c.powi(r as i32)
}

fn binomial(lnf: &[f64], n: usize, p: f64) -> Result<Dist, OddsError> {
    let pairs: Vec<(i64, f64)> = (0..=n)
        .map(|k| (k as i64, multinomial(lnf, n, k, 0, (p, 0.0, 1.0 - p))))
        .collect();
    Dist::from_pairs(&pairs)
}

/// Damaging dice needed to kill (TG-4): one without a limit, else what is left of the limit.
fn needed(limit: u32, damage: u32) -> usize {
    if limit == 0 {
        1
    } else {
        limit.saturating_sub(damage).max(1) as usize
    }
}

/// Add the end of `tests` tests on `die`, weighted `w`, to `out`.
fn add_tests(out: &mut TestOdds, die: Die, tests: usize, w: f64) {
    if tests == 0 || w == 0.0 {
        return;
    }
    let s = f64::from(die.sides());
    let p1 = 1.0 / s;
    let p6 = f64::from(die.sides().saturating_sub(5)) / s;
    let t = tests as i32;
    let no_retreat = (1.0 - p1).powi(t);
    let calm = p6.powi(t);
    out.taken += w;
    out.no_effect += w * calm;
    out.reeling += w * (no_retreat - calm);
    out.retreat += w * (1.0 - no_retreat);
}

/// The checks the run makes before its first die, and the few it makes only when a die needs
/// them (ROF) or never (the Crawler's numbers, damage against the limit).
fn check(req: &AttackRequest) -> Result<AttackRun, OddsError> {
    let run = AttackRun::start(req.clone())?;
    bounded(Quantity::Rof, i64::from(run.rof), 1, MAX_DICE as i64)?;
    for t in &req.targets {
        within(
            OddsInput::DamageLimit,
            i64::from(t.damage_limit),
            0,
            i64::from(MAX_DAMAGE_LIMIT),
        )?;
        within(
            OddsInput::DamageTaken,
            i64::from(t.damage),
            0,
            i64::from(MAX_DAMAGE_LIMIT),
        )?;
        if let Some(c) = t.crawler {
            bounded(Quantity::Armour, i64::from(c.armour), 2, 20)?;
            within(
                OddsInput::DamageLimit,
                i64::from(c.damage_limit),
                0,
                i64::from(MAX_DAMAGE_LIMIT),
            )?;
        }
    }
    Ok(run)
}

struct Target<'a> {
    stats: &'a TargetStats,
    save: SaveRule,
    power: Die,
    heavy: bool,
    ill_be_back: Option<CrawlerStats>,
}

fn target_odds(
    t: &Target,
    rof: usize,
    p_hit: f64,
    carry_over: bool,
    lnf: &[f64],
) -> Result<TargetOdds, OddsError> {
    let p_unsaved = if t.save.allowed() { 0.5 } else { 1.0 };
    let p_dmg = at_least(t.power, t.stats.armour);
    let a = p_hit * p_unsaved * p_dmg;
    let b = p_hit * p_unsaved * (1.0 - p_dmg);
    let probs = (a, b, 1.0 - a - b);
    let need = needed(t.stats.damage_limit, t.stats.damage);
    let test_die = |base: Option<Die>| base.map(|d| if t.heavy { d.degrade() } else { d });
    let own_die = test_die(t.stats.resolution);
    let crawler_die = t.ill_be_back.map(|c| test_die(c.resolution));
    // The resolver needs every die it may roll: without one, no test odds.
    let known = own_die.is_some() && crawler_die.is_none_or(|d| d.is_some());
    let mut tests = TestOdds::default();
    let (mut killed, mut crawls, mut dead) = (0.0, 0.0, 0.0);
    for k in 0..=rof {
        for m in 0..=(rof - k) {
            let w = multinomial(lnf, rof, k, m, probs);
            if w == 0.0 {
                continue;
            }
            if k < need {
                if let Some(d) = own_die {
                    add_tests(&mut tests, d, m, w);
                }
                continue;
            }
            killed += w;
            let Some(c) = t.ill_be_back else {
                dead += w;
                continue;
            };
            // I'll Be Back: 5–6 on a D6.
            let (up, down) = (w / 3.0, w * 2.0 / 3.0);
            dead += down;
            crawls += up;
            let die = crawler_die.flatten();
            if !carry_over {
                if let Some(d) = die {
                    add_tests(&mut tests, d, m, up);
                }
                continue;
            }
            // The leftover damaging dice land on the Crawler (its damage starts at 0): each one
            // is a face at or over the target's armour, and damages the Crawler at its armour;
            // one that does not owes a test.
            let left = k - need;
            let q = at_least(t.power, c.armour.max(t.stats.armour)) / p_dmg;
            let c_need = needed(c.damage_limit, 0);
            for j in 0..=left {
                let wj = up * multinomial(lnf, left, j, 0, (q, 0.0, 1.0 - q));
                if j >= c_need {
                    dead += wj;
                } else if let Some(d) = die {
                    add_tests(&mut tests, d, m + left - j, wj);
                }
            }
        }
    }
    let unsaved = binomial(lnf, rof, p_hit * p_unsaved)?;
    let damaging = binomial(lnf, rof, a)?;
    Ok(TargetOdds {
        name: t.stats.name.clone(),
        save: t.save,
        power: t.power,
        heavy: t.heavy,
        damage_chance: damaging.chance(|v| v >= 1),
        unsaved,
        damaging,
        killed,
        crawls,
        dead,
        tests: known.then_some(tests),
    })
}

/// The odds of a Terminator Genisys attack, target by target. The request is checked as
/// [`AttackRun::start`] checks it (bands, See you in hell, Heavy, Area, unset dice), before any
/// work; resolution dice may be unset (their test odds are then `None`).
pub fn terminator_odds(req: &AttackRequest) -> Result<TerminatorOdds, OddsError> {
    let run = check(req)?;
    let r = &run.request;
    let skill = r.skill.ok_or_else(|| RuleError::MissingDie {
        who: r.attacker.clone(),
        field: DieField::Skill,
    })?;
    let threshold = r.threshold();
    let p_hit = at_least(skill, threshold);
    let rof = run.rof as usize;
    let lnf = ln_factorials(rof);
    let hits = binomial(&lnf, rof, p_hit)?;
    let mut targets = Vec::with_capacity(r.targets.len());
    for (i, (stats, tr)) in r.targets.iter().zip(&run.targets).enumerate() {
        let hell = r.hell && i == 0;
        let power = r.power_die(i)?;
        let t = Target {
            stats,
            save: tr.save,
            power,
            heavy: heavy(power, r.heavy),
            // No I'll Be Back after See you in hell (item 31).
            ill_be_back: stats.crawler.filter(|_| !hell),
        };
        targets.push(target_odds(&t, rof, p_hit, r.carry_over, &lnf)?);
    }
    Ok(TerminatorOdds {
        request: run.request.clone(),
        rof: run.rof,
        threshold,
        hit: hits.chance(|v| v >= 1),
        hits,
        targets,
    })
}

/// A typical attack's hits (a pistol, D8 skill, short band, one soldier): the registry's
/// [`SystemRules::typical_odds`](crate::systems::rules::SystemRules::typical_odds).
pub fn typical() -> Result<Dist, OddsError> {
    let mut weapon = crate::systems::terminator::weapon::find(&[], "Pistol")
        .cloned()
        .unwrap_or_else(|| crate::systems::terminator::weapon::Weapon::new("Pistol", None, 1));
    weapon.power = Some(Die::D6);
    let o = terminator_odds(&AttackRequest {
        attacker: "Kyle".into(),
        weapon,
        skill: Some(Die::D8),
        power: None,
        band: crate::systems::terminator::weapon::Band::Short,
        hell: false,
        moved: false,
        heavy: None,
        targets: vec![TargetStats::new("Soldier", 4, Some(Die::D6))],
        friendly_touched: false,
        carry_over: false,
    })?;
    Ok(o.hits)
}

/// The system's refusals reach `/odds` as they are (the odds module names no system).
impl From<RuleError> for OddsError {
    fn from(e: RuleError) -> Self {
        OddsError::rule(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{DiceError, Roller};
    use crate::systems::terminator::attack::{Stage, resolve_attack};
    use crate::systems::terminator::character::Removal;
    use crate::systems::terminator::weapon::{Area, Band, Reach, Weapon};

    const EPS: f64 = 1e-12;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < EPS
    }

    use crate::systems::terminator::attack::fixtures::{endo, request, soldier, weapon};

    #[test]
    fn one_die_by_hand() {
        // Pistol (ROF 1) with a D8 at short range (5+): hit 4/8. Target in cover at short range:
        // save on 4+ (1/2). Power D6 against armour 4: 3/6 damages and kills; else a D6 test:
        // 1 Retreat, 2–5 Reeling, 6 no effect.
        let mut t = soldier("Ann");
        t.cover = true;
        let o = terminator_odds(&request(weapon("Pistol", Die::D6), Die::D8, Band::Short, vec![t])).unwrap();
        assert_eq!((o.rof, o.threshold), (1, 5));
        assert!(close(o.hit, 0.5));
        let a = &o.targets[0];
        assert_eq!(a.save, SaveRule::Allowed);
        assert!(close(a.unsaved.mean(), 0.25));
        assert!(close(a.killed, 0.125));
        assert!(close(a.damage_chance, 0.125));
        let tests = a.tests.unwrap();
        assert!(close(tests.taken, 0.125));
        assert!(close(tests.retreat, 0.125 / 6.0));
        assert!(close(tests.reeling, 0.125 * 4.0 / 6.0));
        assert!(close(tests.no_effect, 0.125 / 6.0));
    }

    #[test]
    fn see_you_in_hell_hits_on_two_with_a_d20_and_no_save() {
        let mut joe = soldier("Joe");
        joe.reeling = true;
        joe.cover = true;
        let mut req = request(weapon("Assault rifle", Die::D6), Die::D4, Band::Long, vec![joe]);
        req.hell = true;
        let o = terminator_odds(&req).unwrap();
        // Semi-auto at CC: 2 dice, D4 at 2+: 3/4 each.
        assert_eq!((o.rof, o.threshold, o.request.band), (2, 2, Band::Cc));
        assert!(close(o.hit, 1.0 - 1.0 / 16.0));
        let t = &o.targets[0];
        assert_eq!((t.save, t.power, t.heavy), (SaveRule::Hell, Die::D20, true));
        // Each die kills with 3/4 · 17/20.
        let p = 0.75 * 17.0 / 20.0;
        assert!(close(t.killed, 1.0 - (1.0 - p) * (1.0 - p)));
    }

    // ------------------------------------------------------------- brute force through the resolver

    /// Faces from a script; when it runs out, the die asked for is noted so the enumeration can
    /// branch on it.
    struct Script {
        faces: Vec<u32>,
        at: usize,
        weight: f64,
        wanted: Option<u32>,
    }

    impl Roller for Script {
        fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
            let Some(&f) = self.faces.get(self.at) else {
                self.wanted = Some(sides);
                return Err(DiceError::FixedExhausted { rolled: self.at });
            };
            self.at += 1;
            self.weight /= f64::from(sides);
            Ok(f)
        }
    }

    /// Every complete run of the resolver, with its chance: a depth-first walk over the dice it
    /// asks for.
    fn every_run(req: &AttackRequest) -> Vec<(f64, crate::systems::terminator::attack::AttackRun)> {
        let mut out = Vec::new();
        let mut stack = vec![Vec::<u32>::new()];
        while let Some(prefix) = stack.pop() {
            let mut s = Script {
                faces: prefix.clone(),
                at: 0,
                weight: 1.0,
                wanted: None,
            };
            match resolve_attack(req, &mut s) {
                Ok(run) => {
                    assert_eq!(run.stage, Stage::Complete);
                    assert_eq!(s.at, prefix.len(), "every face used");
                    out.push((s.weight, run));
                }
                Err(e) => {
                    let sides = s.wanted.unwrap_or_else(|| panic!("{e:?}"));
                    for f in 1..=sides {
                        let mut p = prefix.clone();
                        p.push(f);
                        stack.push(p);
                    }
                }
            }
        }
        out
    }

    fn agree(req: &AttackRequest) {
        let o = terminator_odds(req).unwrap();
        let runs = every_run(req);
        let total: f64 = runs.iter().map(|r| r.0).sum();
        assert!(close(total, 1.0));
        let ctx = format!("{} {:?}", req.weapon.name, req.targets);
        let hit: f64 = runs.iter().filter(|r| r.1.hits() > 0).map(|r| r.0).sum();
        assert!(close(o.hit, hit), "{ctx}");
        for v in 0..=o.rof {
            let p: f64 = runs.iter().filter(|r| r.1.hits() == v).map(|r| r.0).sum();
            assert!(close(o.hits.prob(i64::from(v)), p), "{ctx} hits {v}");
        }
        for (i, t) in o.targets.iter().enumerate() {
            let sum = |f: &dyn Fn(&crate::systems::terminator::attack::TargetRun) -> bool| -> f64 {
                runs.iter().filter(|r| f(&r.1.targets[i])).map(|r| r.0).sum()
            };
            let unsaved = |x: &crate::systems::terminator::attack::TargetRun| {
                x.saves.as_ref().map_or(x.hits, |s| s.unsaved)
            };
            let damaging = |x: &crate::systems::terminator::attack::TargetRun| {
                x.damage_roll.as_ref().map_or(0, |d| d.damaging)
            };
            for v in 0..=o.rof {
                assert!(
                    close(t.unsaved.prob(i64::from(v)), sum(&|x| unsaved(x) == v)),
                    "{ctx} unsaved {v}"
                );
                assert!(
                    close(t.damaging.prob(i64::from(v)), sum(&|x| damaging(x) == v)),
                    "{ctx} damaging {v}"
                );
            }
            assert!(close(t.damage_chance, sum(&|x| damaging(x) > 0)), "{ctx}");
            // Killed by the damage roll: a kill, an I'll Be Back roll, or a Crawler.
            let killed = sum(&|x| x.ill_be_back.is_some() || x.removed == Some(Removal::Killed));
            assert!(close(t.killed, killed), "{ctx} killed {} vs {killed}", t.killed);
            assert!(close(t.crawls, sum(&|x| x.crawler)), "{ctx}");
            assert!(
                close(t.dead, sum(&|x| x.removed == Some(Removal::Killed))),
                "{ctx}"
            );
            let tests = t.tests.unwrap();
            let taken = sum(&|x| x.tests.is_some());
            assert!(
                close(tests.taken, taken),
                "{ctx} taken {} vs {taken}",
                tests.taken
            );
            assert!(
                close(tests.retreat, sum(&|x| x.removed == Some(Removal::Retreated))),
                "{ctx}"
            );
            let reeling = sum(&|x| x.tests.as_ref().is_some_and(|r| r.reeling() > 0 && !r.retreat()));
            assert!(close(tests.reeling, reeling), "{ctx}");
            let calm = sum(&|x| x.tests.as_ref().is_some_and(|r| r.reeling() == 0 && !r.retreat()));
            assert!(close(tests.no_effect, calm), "{ctx}");
        }
    }

    #[test]
    fn plain_attacks_agree_with_the_resolver() {
        let mut cover = soldier("Ann");
        cover.cover = true;
        agree(&request(
            weapon("Pistol", Die::D6),
            Die::D8,
            Band::Short,
            vec![cover.clone()],
        ));
        // Two dice, no save at close range, D8 power (not heavy), a D4 resolution.
        let mut weak = soldier("Bob");
        weak.resolution = Some(Die::D4);
        agree(&request(
            weapon("Submachine gun", Die::D8),
            Die::D6,
            Band::Close,
            vec![weak],
        ));
        // Long range saves; a heavy D10 degrades D6 → D4.
        agree(&request(
            weapon("Plasma gun", Die::D10),
            Die::D10,
            Band::Long,
            vec![cover],
        ));
    }

    #[test]
    fn damage_limits_agree_with_the_resolver() {
        let mut kyle = soldier("Kyle");
        kyle.damage_limit = 2;
        agree(&request(
            weapon("Submachine gun", Die::D6),
            Die::D6,
            Band::Short,
            vec![kyle.clone()],
        ));
        kyle.damage = 1;
        let mut req = request(
            weapon("Submachine gun", Die::D6),
            Die::D6,
            Band::Short,
            vec![kyle],
        );
        req.heavy = Some(true);
        agree(&req);
    }

    #[test]
    fn ill_be_back_and_carry_over_agree_with_the_resolver() {
        // Small dice keep the walk short: a D4 resolution, a D6 Crawler test.
        let mut t = endo("T-800");
        t.armour = 4;
        t.resolution = Some(Die::D4);
        t.crawler = Some(CrawlerStats {
            armour: 5,
            resolution: Some(Die::D6),
            damage_limit: 0,
        });
        let mut req = request(
            weapon("Submachine gun", Die::D6),
            Die::D6,
            Band::Close,
            vec![t.clone()],
        );
        agree(&req);
        let spent = terminator_odds(&req).unwrap().targets[0].clone();
        assert!(spent.crawls > 0.0 && spent.dead < spent.killed);
        req.carry_over = true;
        agree(&req);
        // Carried over, a leftover 5 or 6 kills the Crawler again.
        let carried = terminator_odds(&req).unwrap().targets[0].clone();
        assert!(close(carried.crawls, spent.crawls));
        assert!(carried.dead > spent.dead);
        // A Crawler with a limit of 2 survives one leftover die.
        t.crawler = Some(CrawlerStats {
            armour: 4,
            resolution: Some(Die::D4),
            damage_limit: 2,
        });
        req.targets = vec![t];
        agree(&req);
    }

    #[test]
    fn area_and_hell_targets_agree_with_the_resolver() {
        // Hell on a reeling primary (no save, D20, no I'll Be Back), normal rules for the rest.
        let mut w = Weapon::new("Launcher", Some(Reach::Long), 1);
        w.power = Some(Die::D6);
        w.area = Some(Area::Small);
        let mut primary = endo("T-800");
        primary.reeling = true;
        primary.resolution = Some(Die::D4);
        let mut second = soldier("Ann");
        second.cover = true;
        second.resolution = Some(Die::D4);
        let mut req = request(w, Die::D4, Band::Long, vec![primary, second]);
        req.hell = true;
        agree(&req);
    }

    // ------------------------------------------------------------------- bounds

    #[test]
    fn every_bound_is_refused() {
        let base = request(
            weapon("Pistol", Die::D6),
            Die::D8,
            Band::Short,
            vec![soldier("Ann")],
        );
        let out_of_range = |req: &AttackRequest, q: Quantity| {
            let e = terminator_odds(req).expect_err("refused");
            assert!(
                matches!(e.rule_error::<RuleError>(), Some(RuleError::OutOfRange { what, .. }) if *what == q),
                "{e:?}"
            );
        };
        // ROF 1..=50.
        for rof in [0, MAX_DICE as u32 + 1] {
            let mut r = base.clone();
            r.weapon.rof = rof;
            out_of_range(&r, Quantity::Rof);
        }
        let mut r = base.clone();
        r.weapon.rof = MAX_DICE as u32;
        let o = terminator_odds(&r).unwrap();
        assert!(close(o.targets[0].damaging.mass(), 1.0));
        // Armour 2..=20, the target's and the Crawler's.
        for armour in [1, 21] {
            let mut r = base.clone();
            r.targets[0].armour = armour;
            out_of_range(&r, Quantity::Armour);
            let mut r = base.clone();
            r.targets[0].crawler = Some(CrawlerStats {
                armour,
                resolution: None,
                damage_limit: 0,
            });
            out_of_range(&r, Quantity::Armour);
        }
        // Targets: 1..=21.
        let mut r = base.clone();
        r.targets.clear();
        out_of_range(&r, Quantity::Targets);
        // Damage limit and damage taken: 0..=10.
        let odds_input = |r: &AttackRequest, w: OddsInput| {
            let e = terminator_odds(r).expect_err("refused");
            assert!(
                matches!(e, OddsError::OutOfRange { what, .. } if what == w),
                "{e:?}"
            );
        };
        let mut r = base.clone();
        r.targets[0].damage_limit = MAX_DAMAGE_LIMIT + 1;
        odds_input(&r, OddsInput::DamageLimit);
        let mut r = base.clone();
        r.targets[0].damage = MAX_DAMAGE_LIMIT + 1;
        odds_input(&r, OddsInput::DamageTaken);
        let mut r = base.clone();
        r.targets[0].crawler = Some(CrawlerStats {
            armour: 8,
            resolution: None,
            damage_limit: MAX_DAMAGE_LIMIT + 1,
        });
        odds_input(&r, OddsInput::DamageLimit);
        // The run's own refusals: an unset skill or power die, a weapon out of its band.
        let mut r = base.clone();
        r.skill = None;
        assert!(matches!(
            terminator_odds(&r).unwrap_err().rule_error(),
            Some(RuleError::MissingDie {
                field: DieField::Skill,
                ..
            })
        ));
        let mut r = base.clone();
        r.weapon.power = None;
        assert!(matches!(
            terminator_odds(&r).unwrap_err().rule_error(),
            Some(RuleError::MissingDie {
                field: DieField::Power,
                ..
            })
        ));
        let mut r = base.clone();
        r.band = Band::Long;
        assert!(matches!(
            terminator_odds(&r).unwrap_err().rule_error(),
            Some(RuleError::OutOfBand { .. })
        ));
        // An unset resolution die is no refusal: only the tests are unknown.
        let mut r = base;
        r.targets[0].resolution = None;
        assert!(terminator_odds(&r).unwrap().targets[0].tests.is_none());
    }
}

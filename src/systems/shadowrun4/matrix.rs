//! The Matrix: cybercombat (seed 5.5), hacking on the fly as a race of two extended tests and
//! probing (seed 5.2), matrix perception (seed 5.4).

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, check_range};
use super::pool::DicePool;
use super::terms::DamageType;
use super::test_kinds::{
    ExtendedEnd, ExtendedOutcome, ExtendedRequest, ExtendedRun, OpposedResult, RollSpec, Rolled,
    SearchOutcome, SearchRequest, hits_of, roll, roll_or_nothing, search_test,
};
use crate::dice::Roller;

// ---------------------------------------------------------------- cybercombat

/// What a cybercombat hit damages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "target", rename_all = "snake_case")]
pub enum MatrixTarget {
    /// An icon's matrix condition monitor (resisted with System + Armor).
    Icon,
    /// A user hit by black IC (resisted with Willpower + Biofeedback Filter).
    BlackIc { damage_type: DamageType },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CybercombatRequest {
    /// Cybercombat (or rating) + attack program.
    pub attack: RollSpec,
    /// Response + Firewall (+ Hacking or rating on full defence).
    pub defence: RollSpec,
    #[serde(default)]
    pub full_defence: bool,
    /// The attack's damage value.
    pub dv: u32,
    /// System + Armor, or Willpower + Biofeedback Filter against black IC.
    pub resist: RollSpec,
    pub target: MatrixTarget,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CybercombatOutcome {
    pub attack: Rolled,
    pub defence: Option<Rolled>,
    pub attack_hits: u32,
    pub defence_hits: u32,
    pub net_hits: i64,
    pub hit: bool,
    pub modified_dv: u32,
    pub resist: Option<Rolled>,
    pub resist_hits: u32,
    pub boxes: u32,
    pub target: MatrixTarget,
}

/// Seed 5.5: opposed test, ties miss, net hits add to DV, each resistance hit removes a box.
pub fn cybercombat(
    req: &CybercombatRequest,
    roller: &mut impl Roller,
) -> Result<CybercombatOutcome, RuleError> {
    check_range(Quantity::DamageValue, i64::from(req.dv), 0, 50)?;
    let attack = roll(&req.attack, roller)?;
    let defence = roll_or_nothing(&req.defence, roller)?;
    let (attack_hits, defence_hits) = (attack.hits(), hits_of(&defence));
    let net_hits = i64::from(attack_hits) - i64::from(defence_hits);
    let hit = OpposedResult::from_net(net_hits).actor_succeeds();
    let modified_dv = if hit {
        req.dv + u32::try_from(net_hits).unwrap_or(0)
    } else {
        0
    };
    let resist = if hit {
        roll_or_nothing(&req.resist, roller)?
    } else {
        None
    };
    let resist_hits = hits_of(&resist);
    Ok(CybercombatOutcome {
        attack,
        defence,
        attack_hits,
        defence_hits,
        net_hits,
        hit,
        modified_dv,
        resist,
        resist_hits,
        boxes: modified_dv.saturating_sub(resist_hits),
        target: req.target,
    })
}

// ---------------------------------------------------------------- hacking

/// Default and hard maximum number of passes a hacking race runs.
pub const DEFAULT_HACK_PASSES: u32 = 20;
pub const MAX_HACK_PASSES: u32 = 100;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HackRequest {
    /// Hacking + Exploit.
    pub hacker: DicePool,
    /// The node's Firewall: the hacker's threshold.
    pub firewall: u32,
    /// Analyze + Firewall.
    pub node: DicePool,
    /// The hacker's Stealth: the node's threshold.
    pub stealth: u32,
    #[serde(default)]
    pub max_passes: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HackResult {
    /// The hacker reached the Firewall first: an account, undetected.
    HackerIn,
    /// Both reached their thresholds in the same pass: in, but detected.
    InButDetected,
    /// The node reached the Stealth first: the hacker is detected and not in.
    Detected,
    /// The hacker critically glitched and the attempt ended.
    HackerGlitched,
    /// Neither side got there within the passes.
    OutOfPasses,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HackOutcome {
    pub hacker: ExtendedOutcome,
    pub node: ExtendedOutcome,
    pub passes: u32,
    pub result: HackResult,
}

/// Seed 5.2 hacking on the fly: the hacker's extended Hacking + Exploit (Firewall, 1 pass)
/// against the node's extended Analyze + Firewall (Stealth), one roll each per pass;
/// whoever reaches the threshold first wins (decisions "Matrix").
pub fn hack_on_the_fly(req: &HackRequest, roller: &mut impl Roller) -> Result<HackOutcome, RuleError> {
    let max = req.max_passes.unwrap_or(DEFAULT_HACK_PASSES);
    check_range(Quantity::Passes, i64::from(max), 1, i64::from(MAX_HACK_PASSES))?;
    let ext = |pool: &DicePool, threshold: u32| ExtendedRequest {
        pool: pool.clone(),
        retry: 0,
        threshold,
        max_intervals: Some(max),
        edge: None,
    };
    let (mut hacker, hparts, _) = ExtendedRun::start(&ext(&req.hacker, req.firewall))?;
    let (mut node, nparts, _) = ExtendedRun::start(&ext(&req.node, req.stealth))?;
    let mut passes = 0;
    let mut result = HackResult::OutOfPasses;
    while passes < max {
        passes += 1;
        hacker.step(roller)?;
        // Seed 5.2: the node tests every time the hacker does.
        node.step(roller)?;
        let node_done = node.end == Some(ExtendedEnd::Reached);
        match hacker.end {
            Some(ExtendedEnd::Reached) if node_done => result = HackResult::InButDetected,
            Some(ExtendedEnd::Reached) => result = HackResult::HackerIn,
            Some(_) => result = HackResult::HackerGlitched,
            None if node_done => result = HackResult::Detected,
            None => continue,
        }
        break;
    }
    Ok(HackOutcome {
        hacker: hacker.finish(hparts),
        node: node.finish(nparts),
        passes,
        result,
    })
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeRequest {
    /// Hacking + Exploit.
    pub hacker: DicePool,
    /// System + Firewall.
    pub threshold: u32,
    /// Analyze + Firewall, rolled once when the hacker logs in.
    pub node: DicePool,
    pub stealth: u32,
    #[serde(default)]
    pub max_intervals: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeOutcome {
    pub probe: ExtendedOutcome,
    /// The node's single test on entry (only when the probe succeeded).
    pub node: Option<Rolled>,
    pub detected: bool,
}

/// Seed 5.2 probing for a vulnerability: an extended test (System + Firewall, 1 hour/1 day),
/// then one node test against Stealth when the hacker actually enters.
pub fn probe(req: &ProbeRequest, roller: &mut impl Roller) -> Result<ProbeOutcome, RuleError> {
    let probe = super::test_kinds::extended_test(
        &ExtendedRequest {
            pool: req.hacker.clone(),
            retry: 0,
            threshold: req.threshold,
            max_intervals: req.max_intervals,
            edge: None,
        },
        roller,
    )?;
    check_range(Quantity::Threshold, i64::from(req.stealth), 0, 100)?;
    let node = if probe.success {
        Some(roll(&RollSpec::new(req.node.clone()), roller)?)
    } else {
        None
    };
    let detected = node.as_ref().is_some_and(|n| n.hits() >= req.stealth);
    Ok(ProbeOutcome {
        probe,
        node,
        detected,
    })
}

/// Seed 5.4 matrix perception: Computer + Analyze; against a hidden icon, opposed by
/// Hacking + Stealth (a program or node: Firewall + Stealth). Technomancers add the
/// `other.technomancer_matrix_perception` preset.
pub fn matrix_perception(req: &SearchRequest, roller: &mut impl Roller) -> Result<SearchOutcome, RuleError> {
    search_test(req, roller)
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::dice::FixedRoller;

    fn fixed(f: &[u32]) -> FixedRoller {
        FixedRoller::new(f.iter().copied())
    }

    fn hack(firewall: u32, stealth: u32) -> HackRequest {
        HackRequest {
            hacker: DicePool::dice(2),
            firewall,
            node: DicePool::dice(2),
            stealth,
            max_passes: Some(5),
        }
    }

    #[test]
    fn hacker_reaching_first_gets_in() {
        // Pass 1: hacker 5,2 (1) node 2,2 (0); pass 2: hacker 5,6 (3) node 5,2 (1).
        let o = hack_on_the_fly(&hack(3, 3), &mut fixed(&[5, 2, 2, 2, 5, 6, 5, 2])).unwrap();
        assert_eq!((o.result, o.passes), (HackResult::HackerIn, 2));
        assert_eq!(o.hacker.total_hits, 3);
        assert_eq!(o.node.intervals.len(), 2);
    }

    #[test]
    fn node_reaching_first_detects() {
        let o = hack_on_the_fly(&hack(4, 2), &mut fixed(&[5, 2, 5, 5])).unwrap();
        assert_eq!((o.result, o.passes), (HackResult::Detected, 1));
        let both = hack_on_the_fly(&hack(1, 1), &mut fixed(&[5, 2, 5, 2])).unwrap();
        assert_eq!(both.result, HackResult::InButDetected);
        let glitch = hack_on_the_fly(&hack(3, 3), &mut fixed(&[1, 1, 2, 2])).unwrap();
        assert_eq!(glitch.result, HackResult::HackerGlitched);
    }

    #[test]
    fn cybercombat_adds_net_hits_and_resists() {
        let req = CybercombatRequest {
            attack: RollSpec::dice(3),
            defence: RollSpec::dice(2),
            full_defence: false,
            dv: 4,
            resist: RollSpec::dice(3),
            target: MatrixTarget::Icon,
        };
        // Attack 3 hits, defence 1: DV 6; resist 1 hit → 5 boxes.
        let o = cybercombat(&req, &mut fixed(&[5, 5, 6, 5, 2, 5, 2, 2])).unwrap();
        assert_eq!((o.modified_dv, o.boxes), (6, 5));
        let miss = cybercombat(&req, &mut fixed(&[5, 2, 2, 5, 2])).unwrap();
        assert!(!miss.hit);
        assert_eq!(miss.boxes, 0);
    }

    #[test]
    fn probing_gives_the_node_one_test_on_entry() {
        let req = ProbeRequest {
            hacker: DicePool::dice(2),
            threshold: 2,
            node: DicePool::dice(2),
            stealth: 1,
            max_intervals: None,
        };
        let o = probe(&req, &mut fixed(&[5, 5, 2, 2])).unwrap();
        assert!(o.probe.success && !o.detected);
        let o = probe(&req, &mut fixed(&[5, 5, 6, 2])).unwrap();
        assert!(o.detected);
    }
}

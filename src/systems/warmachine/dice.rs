//! The dice of an attack or damage roll (items 5–8, 10, 11): 2d6, a boost die, one die per
//! distinct rule granting one, a compulsory discard, criticals, automatic hits and misses, d3.
//!
//! Why the dice remember their source: a "cannot" removes a die (item 11) and the result must
//! say which die and why, and a discard must be shown die by die.

use serde::{Deserialize, Serialize};

use super::effects::{CannotFlag, FlagSource, same_name};
use super::error::{Quantity, RuleError, check_range};
use super::model::Model;
use crate::dice::Roller;
use crate::i18n::Lang;

/// Most distinct additional-die rules on one roll.
pub const MAX_ADDITIONAL: usize = 8;
/// Dice every attack and damage roll starts with.
pub const BASE_DICE: u32 = 2;

/// Where a die came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "rule")]
pub enum DieSource {
    Base,
    Boost,
    Additional(String),
}

/// One die, in the order rolled, with whether it counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    pub value: u32,
    pub kept: bool,
    pub source: DieSource,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscardWhich {
    Lowest,
    Highest,
}

/// Item 6: discard the lowest or highest `count` dice after rolling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discard {
    pub which: DiscardWhich,
    pub count: u32,
}

/// What the player asks for beyond the two dice.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DiceRequest {
    /// Item 5: declared before rolling; one boost die at most.
    #[serde(default)]
    pub boost: bool,
    /// Item 5: the rules granting an additional die; the same rule twice is one die.
    #[serde(default)]
    pub additional: Vec<String>,
    #[serde(default)]
    pub discard: Option<Discard>,
}

/// A die a "cannot" removed (item 11), with the flag and who carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RemovedDie {
    pub source: DieSource,
    pub model: String,
    pub flag: CannotFlag,
    pub carrier: FlagSource,
}

impl RemovedDie {
    pub fn describe(&self, lang: Lang) -> String {
        let what = match (&self.source, lang) {
            (DieSource::Boost, Lang::En) => "the boost die".to_string(),
            (DieSource::Boost, Lang::Ja) => "ブーストのダイス".to_string(),
            (DieSource::Additional(r), Lang::En) => format!("the additional die from {r}"),
            (DieSource::Additional(r), Lang::Ja) => format!("{r}による追加のダイス"),
            (DieSource::Base, _) => String::new(),
        };
        match lang {
            Lang::En => format!(
                "{what} is removed: {} cannot {} ({}); cannot beats must",
                self.model,
                self.flag.phrase(lang),
                self.carrier.describe(lang)
            ),
            Lang::Ja => format!(
                "{what}はなくなります：{}は{}ができません（{}）。「できない」が優先します",
                self.model,
                self.flag.phrase(lang),
                self.carrier.describe(lang)
            ),
        }
    }
}

/// The roll as shown: every die, what was removed or ignored, and the kept total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiceRoll {
    pub dice: Vec<Die>,
    pub discard: Option<Discard>,
    pub boosted: bool,
    /// Rules whose die was rolled.
    pub additional: Vec<String>,
    /// Item 5: the same rule named again gives no second die.
    pub duplicates_ignored: Vec<String>,
    pub removed: Vec<RemovedDie>,
    pub kept_total: i64,
}

impl DiceRoll {
    pub fn kept(&self) -> impl Iterator<Item = u32> + '_ {
        self.dice.iter().filter(|d| d.kept).map(|d| d.value)
    }

    pub fn kept_count(&self) -> usize {
        self.dice.iter().filter(|d| d.kept).count()
    }

    /// Item 7's pair: any two kept dice show the same number.
    pub fn has_pair(&self) -> bool {
        let mut seen = [false; 7];
        for v in self.kept() {
            let i = v as usize;
            if i < seen.len() {
                if seen[i] {
                    return true;
                }
                seen[i] = true;
            }
        }
        false
    }

    /// Item 8 / WG-7: all kept dice 1s (any number), or all 6s (two or more).
    pub fn automatic(&self) -> Option<Automatic> {
        let n = self.kept_count();
        if n > 0 && self.kept().all(|v| v == 1) {
            Some(Automatic::Miss)
        } else if n >= 2 && self.kept().all(|v| v == 6) {
            Some(Automatic::Hit)
        } else {
            None
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Automatic {
    Hit,
    Miss,
}

/// Which boost flag a roll checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollKind {
    Attack,
    Damage,
}

/// Validate the request; refuses a bad discard or too many rules before any die is rolled.
pub fn check_request(req: &DiceRequest) -> Result<(), RuleError> {
    check_counts(req.additional.len(), req.discard)?;
    for r in &req.additional {
        super::error::text("rule text", r, 60)?;
    }
    Ok(())
}

/// The numbers a request may ask for (items 5–6): at most [`MAX_ADDITIONAL`] rules granting a
/// die, and a discard no larger than the largest pool. (`/odds wm` checks the same.)
pub fn check_counts(additional: usize, discard: Option<Discard>) -> Result<(), RuleError> {
    check_range(
        Quantity::AdditionalDice,
        additional as i64,
        0,
        MAX_ADDITIONAL as i64,
    )?;
    if let Some(d) = discard {
        let max = i64::from(BASE_DICE) + 1 + MAX_ADDITIONAL as i64;
        check_range(Quantity::Discard, i64::from(d.count), 0, max)?;
    }
    Ok(())
}

/// Roll the dice of `req`: the roller's model and the other model are both checked for the
/// cannot-flags (a flag on the roller forbids its own boost; on the other model, boosts
/// against it).
pub fn roll(
    req: &DiceRequest,
    kind: RollKind,
    models: [&Model; 2],
    roller: &mut impl Roller,
) -> Result<DiceRoll, RuleError> {
    check_request(req)?;
    let mut removed = Vec::new();
    let forbidden = |flag: CannotFlag| {
        models
            .iter()
            .find_map(|m| m.cannot(&flag).map(|src| (m.name.clone(), flag.clone(), src)))
    };
    let boost_flag = match kind {
        RollKind::Attack => CannotFlag::BoostAttack,
        RollKind::Damage => CannotFlag::BoostDamage,
    };
    let mut sources = vec![DieSource::Base; BASE_DICE as usize];
    let mut boosted = false;
    if req.boost {
        match forbidden(boost_flag) {
            Some((model, flag, carrier)) => removed.push(RemovedDie {
                source: DieSource::Boost,
                model,
                flag,
                carrier,
            }),
            None => {
                boosted = true;
                sources.push(DieSource::Boost);
            }
        }
    }
    let mut additional: Vec<String> = Vec::new();
    let mut duplicates_ignored = Vec::new();
    let extra_forbidden = forbidden(CannotFlag::AdditionalDice);
    for rule in &req.additional {
        let rule = rule.trim().to_string();
        let seen = additional.iter().any(|r| same_name(r, &rule))
            || removed
                .iter()
                .any(|d| matches!(&d.source, DieSource::Additional(r) if same_name(r, &rule)));
        if seen {
            duplicates_ignored.push(rule);
            continue;
        }
        match &extra_forbidden {
            Some((model, flag, carrier)) => removed.push(RemovedDie {
                source: DieSource::Additional(rule),
                model: model.clone(),
                flag: flag.clone(),
                carrier: carrier.clone(),
            }),
            None => {
                sources.push(DieSource::Additional(rule.clone()));
                additional.push(rule);
            }
        }
    }
    let n = sources.len() as u32;
    if let Some(d) = req.discard
        && d.count >= n
    {
        return Err(RuleError::DiscardTooMany {
            discard: d.count,
            dice: n,
        });
    }
    let values = roller.roll_many(sources.len(), 6)?;
    let mut dice: Vec<Die> = values
        .into_iter()
        .zip(sources)
        .map(|(value, source)| Die {
            value,
            kept: true,
            source,
        })
        .collect();
    if let Some(d) = req.discard {
        // Among equal faces the later die goes first, so the display is stable.
        let mut order: Vec<usize> = (0..dice.len()).collect();
        match d.which {
            DiscardWhich::Lowest => order.sort_by_key(|&i| (dice[i].value, std::cmp::Reverse(i))),
            DiscardWhich::Highest => {
                order.sort_by_key(|&i| (std::cmp::Reverse(dice[i].value), std::cmp::Reverse(i)))
            }
        }
        for &i in order.iter().take(d.count as usize) {
            dice[i].kept = false;
        }
    }
    let kept_total = dice.iter().filter(|d| d.kept).map(|d| i64::from(d.value)).sum();
    Ok(DiceRoll {
        dice,
        discard: req.discard,
        boosted,
        additional,
        duplicates_ignored,
        removed,
        kept_total,
    })
}

/// Item 10: ⌈x / 2⌉, the game's halving.
pub fn half_up(x: i64) -> i64 {
    (x + 1).div_euclid(2)
}

/// Item 10: a d3 as ⌈d6 / 2⌉, with the d6 kept for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct D3 {
    pub d6: u32,
    pub value: u32,
}

pub fn d3(roller: &mut impl Roller) -> Result<D3, RuleError> {
    let d6 = roller.roll(6)?;
    Ok(D3 {
        d6,
        value: half_up(i64::from(d6)) as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    fn plain() -> [Model; 2] {
        [
            Model::new("A", "Ana", 12, 14, 10),
            Model::new("B", "Ben", 12, 14, 10),
        ]
    }

    fn go(req: &DiceRequest, faces: &[u32]) -> DiceRoll {
        let [a, b] = plain();
        roll(
            req,
            RollKind::Attack,
            [&a, &b],
            &mut FixedRoller::new(faces.to_vec()),
        )
        .unwrap()
    }

    #[test]
    fn boost_adds_one_die_and_each_distinct_rule_one_more() {
        let r = go(
            &DiceRequest {
                boost: true,
                additional: vec!["Pack Hunters".into(), "pack hunters".into(), "Feat".into()],
                discard: None,
            },
            &[1, 2, 3, 4, 5],
        );
        assert_eq!(r.dice.len(), 5);
        assert_eq!(r.dice[2].source, DieSource::Boost);
        assert_eq!(r.additional, vec!["Pack Hunters", "Feat"]);
        assert_eq!(r.duplicates_ignored, vec!["pack hunters"]);
        assert_eq!(r.kept_total, 15);
    }

    #[test]
    fn a_discard_is_compulsory_and_breaks_a_critical_pair() {
        // Item 6's example: 2,2,5 discard lowest → 2+5, no pair.
        let req = DiceRequest {
            boost: true,
            additional: vec![],
            discard: Some(Discard {
                which: DiscardWhich::Lowest,
                count: 1,
            }),
        };
        let r = go(&req, &[2, 2, 5]);
        assert_eq!(r.kept().collect::<Vec<_>>(), vec![2, 5]);
        assert!(!r.dice[1].kept, "the later 2 is discarded");
        assert_eq!(r.kept_total, 7);
        assert!(!r.has_pair());
        let high = DiceRequest {
            discard: Some(Discard {
                which: DiscardWhich::Highest,
                count: 1,
            }),
            ..req
        };
        let r = go(&high, &[2, 2, 5]);
        assert_eq!(r.kept().collect::<Vec<_>>(), vec![2, 2]);
        assert!(r.has_pair());
    }

    #[test]
    fn a_discard_must_leave_a_die_and_rolls_nothing_when_refused() {
        let [a, b] = plain();
        let mut dice = FixedRoller::new(vec![3, 3, 3]);
        let req = DiceRequest {
            boost: false,
            additional: vec![],
            discard: Some(Discard {
                which: DiscardWhich::Lowest,
                count: 2,
            }),
        };
        assert_eq!(
            roll(&req, RollKind::Attack, [&a, &b], &mut dice),
            Err(RuleError::DiscardTooMany { discard: 2, dice: 2 })
        );
        assert_eq!(dice.remaining(), 3);
        let one = DiceRequest {
            discard: Some(Discard {
                which: DiscardWhich::Lowest,
                count: 1,
            }),
            ..req
        };
        assert_eq!(
            roll(&one, RollKind::Attack, [&a, &b], &mut dice)
                .unwrap()
                .kept_count(),
            1
        );
    }

    #[test]
    fn cannot_removes_boost_and_additional_dice_and_says_why() {
        // Item 11: "gains an additional die" is a must; a cannot on either model removes it.
        let [mut a, mut b] = plain();
        b.cannot.push(CannotFlag::BoostAttack);
        a.cannot.push(CannotFlag::AdditionalDice);
        let req = DiceRequest {
            boost: true,
            additional: vec!["Feat".into(), "feat".into()],
            discard: None,
        };
        let r = roll(
            &req,
            RollKind::Attack,
            [&a, &b],
            &mut FixedRoller::new(vec![4, 5]),
        )
        .unwrap();
        assert_eq!(r.dice.len(), 2);
        assert!(!r.boosted);
        assert_eq!(r.removed.len(), 2);
        assert_eq!(r.removed[0].model, "B");
        assert!(
            r.removed[0]
                .describe(Lang::En)
                .contains("B cannot boost attack rolls")
        );
        assert!(r.removed[1].describe(Lang::Ja).contains("追加のダイス"));
        assert_eq!(r.duplicates_ignored, vec!["feat"]);
        // A damage boost is checked against its own flag.
        let r = roll(
            &req,
            RollKind::Damage,
            [&a, &b],
            &mut FixedRoller::new(vec![4, 5, 6]),
        )
        .unwrap();
        assert!(r.boosted);
    }

    #[test]
    fn automatic_results_follow_the_kept_dice() {
        // All 1s whatever the number kept; all 6s only with two or more.
        let mk = |faces: &[u32], keep: &[bool]| DiceRoll {
            dice: faces
                .iter()
                .zip(keep)
                .map(|(&value, &kept)| Die {
                    value,
                    kept,
                    source: DieSource::Base,
                })
                .collect(),
            discard: None,
            boosted: false,
            additional: vec![],
            duplicates_ignored: vec![],
            removed: vec![],
            kept_total: 0,
        };
        assert_eq!(mk(&[1, 1], &[true, true]).automatic(), Some(Automatic::Miss));
        assert_eq!(mk(&[1, 6], &[true, false]).automatic(), Some(Automatic::Miss));
        assert_eq!(
            mk(&[6, 6, 1], &[true, true, false]).automatic(),
            Some(Automatic::Hit)
        );
        assert_eq!(mk(&[6, 1], &[true, false]).automatic(), None, "one 6 kept");
        assert_eq!(mk(&[6, 5], &[true, true]).automatic(), None);
    }

    #[test]
    fn d3_halves_up() {
        let mut r = FixedRoller::new(vec![1, 2, 3, 4, 5, 6]);
        let got: Vec<u32> = (0..6).map(|_| d3(&mut r).unwrap().value).collect();
        assert_eq!(got, vec![1, 1, 2, 2, 3, 3]);
        assert_eq!((half_up(7), half_up(0), half_up(1)), (4, 0, 1));
    }

    #[test]
    fn bad_requests_are_refused_before_rolling() {
        let [a, b] = plain();
        let mut dice = FixedRoller::new(vec![3; 20]);
        let many = DiceRequest {
            additional: (0..9).map(|i| format!("R{i}")).collect(),
            ..DiceRequest::default()
        };
        assert!(matches!(
            roll(&many, RollKind::Attack, [&a, &b], &mut dice),
            Err(RuleError::OutOfRange {
                what: Quantity::AdditionalDice,
                ..
            })
        ));
        let blank = DiceRequest {
            additional: vec![" ".into()],
            ..DiceRequest::default()
        };
        assert!(roll(&blank, RollKind::Attack, [&a, &b], &mut dice).is_err());
        assert_eq!(dice.remaining(), 20);
    }
}

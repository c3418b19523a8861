//! The extended test (seed 1.3): a pool rolled interval by interval until the hits reach the
//! threshold, a critical glitch ends it, or the intervals run out; Edge pushed on the first
//! interval, Second Chance on the last; and [`ExtendedRun`], the same run stepped by hand.

use super::*;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtendedRequest {
    pub pool: DicePool,
    #[serde(default)]
    pub retry: u32,
    pub threshold: u32,
    /// Defaults to [`DEFAULT_EXTENDED_INTERVALS`]; at most [`MAX_EXTENDED_INTERVALS`].
    #[serde(default)]
    pub max_intervals: Option<u32>,
    /// Edge before the roll: pushing the limit adds the Edge dice, with the rule of six, to the
    /// first interval only (one Edge use per test). A long shot is refused: an extended test
    /// needs a pool.
    #[serde(default)]
    pub edge: Option<EdgeBefore>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub roll: PoolRoll,
    /// Hits so far, this interval included.
    pub total: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExtendedEnd {
    Reached,
    CriticalGlitch,
    OutOfIntervals,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtendedOutcome {
    pub parts: Vec<PoolPart>,
    pub pool: u32,
    pub threshold: u32,
    pub intervals: Vec<Interval>,
    pub total_hits: u32,
    pub success: bool,
    pub end: ExtendedEnd,
    /// Edge was used after the roll (once per test).
    #[serde(default)]
    pub edge_used: bool,
}

fn check_extended(req: &ExtendedRequest) -> Result<(Vec<PoolPart>, u32, u32), RuleError> {
    check_range(
        Quantity::Threshold,
        i64::from(req.threshold),
        1,
        i64::from(MAX_THRESHOLD),
    )?;
    let max = req.max_intervals.unwrap_or(DEFAULT_EXTENDED_INTERVALS);
    check_range(
        Quantity::Intervals,
        i64::from(max),
        1,
        i64::from(MAX_EXTENDED_INTERVALS),
    )?;
    let (parts, pool) = final_parts(&RollSpec {
        pool: req.pool.clone(),
        edge: None,
        retry: req.retry,
    })?;
    let pool = check_pool(pool)?;
    match req.edge {
        None => {}
        Some(EdgeBefore::PushTheLimit { edge }) => {
            check_edge(edge)?;
            check_pool(i64::from(pool) + i64::from(edge))?;
        }
        Some(EdgeBefore::LongShot { .. }) => {
            return Err(RuleError::LongShotNotNeeded {
                pool: i64::from(pool),
            });
        }
    }
    Ok((parts, pool, max))
}

/// Seed 1.2 extended test: roll per interval and add hits until the threshold is reached,
/// a critical glitch ends it, or the intervals run out.
pub fn extended_test(req: &ExtendedRequest, roller: &mut impl Roller) -> Result<ExtendedOutcome, RuleError> {
    let (parts, pool, max) = check_extended(req)?;
    let mut intervals = Vec::new();
    let mut total = 0u32;
    let mut end = ExtendedEnd::OutOfIntervals;
    for i in 0..max {
        let r = match (i, req.edge) {
            (0, Some(EdgeBefore::PushTheLimit { edge })) => {
                let mut r = roll_pool(pool + edge, true, roller)?;
                r.edge_used = true;
                r
            }
            _ => roll_pool(pool, false, roller)?,
        };
        total += r.hits;
        let glitch = r.glitch;
        intervals.push(Interval { roll: r, total });
        if glitch == Glitch::Critical {
            end = ExtendedEnd::CriticalGlitch;
            break;
        }
        if total >= req.threshold {
            end = ExtendedEnd::Reached;
            break;
        }
    }
    Ok(ExtendedOutcome {
        parts,
        pool,
        threshold: req.threshold,
        intervals,
        total_hits: total,
        success: end == ExtendedEnd::Reached,
        end,
        edge_used: false,
    })
}

impl ExtendedOutcome {
    /// Seed 2 / decisions "Edge": Second chance on an extended test rerolls the misses of the
    /// interval that ended it (the last one shown). If the test is then still open (no critical
    /// glitch any more, threshold not reached) it goes on rolling up to `req`'s interval limit.
    /// Once per test.
    pub fn with_second_chance(
        &self,
        req: &ExtendedRequest,
        roller: &mut impl Roller,
    ) -> Result<ExtendedOutcome, RuleError> {
        if self.edge_used {
            return Err(RuleError::EdgeAlreadyUsed);
        }
        let (parts, pool, max) = check_extended(req)?;
        let mut intervals = self.intervals.clone();
        let last = intervals.pop().ok_or(RuleError::NothingToReroll)?;
        let before = intervals.last().map_or(0, |i| i.total);
        let again = last.roll.with_edge_after(EdgeAfter::SecondChance, roller)?;
        let total = before + again.hits;
        let glitch = again.glitch;
        intervals.push(Interval { roll: again, total });
        let mut run = ExtendedRun {
            pool,
            threshold: self.threshold,
            total,
            intervals,
            end: None,
        };
        if glitch == Glitch::Critical {
            run.end = Some(ExtendedEnd::CriticalGlitch);
        } else if total >= self.threshold {
            run.end = Some(ExtendedEnd::Reached);
        }
        while run.end.is_none() && (run.intervals.len() as u32) < max {
            run.step(roller)?;
        }
        let mut out = run.finish(parts);
        out.edge_used = true;
        Ok(out)
    }
}

/// One step of an extended test run by hand (one roll per pass in a race).
pub(crate) struct ExtendedRun {
    pub pool: u32,
    pub threshold: u32,
    pub total: u32,
    pub intervals: Vec<Interval>,
    pub end: Option<ExtendedEnd>,
}

impl ExtendedRun {
    pub fn start(req: &ExtendedRequest) -> Result<(ExtendedRun, Vec<PoolPart>, u32), RuleError> {
        let (parts, pool, max) = check_extended(req)?;
        Ok((
            ExtendedRun {
                pool,
                threshold: req.threshold,
                total: 0,
                intervals: Vec::new(),
                end: None,
            },
            parts,
            max,
        ))
    }

    pub fn step(&mut self, roller: &mut impl Roller) -> Result<(), RuleError> {
        if self.end.is_some() {
            return Ok(());
        }
        let r = roll_pool(self.pool, false, roller)?;
        self.total += r.hits;
        let glitch = r.glitch;
        self.intervals.push(Interval {
            roll: r,
            total: self.total,
        });
        if glitch == Glitch::Critical {
            self.end = Some(ExtendedEnd::CriticalGlitch);
        } else if self.total >= self.threshold {
            self.end = Some(ExtendedEnd::Reached);
        }
        Ok(())
    }

    pub fn finish(self, parts: Vec<PoolPart>) -> ExtendedOutcome {
        let end = self.end.unwrap_or(ExtendedEnd::OutOfIntervals);
        ExtendedOutcome {
            parts,
            pool: self.pool,
            threshold: self.threshold,
            intervals: self.intervals,
            total_hits: self.total,
            success: end == ExtendedEnd::Reached,
            end,
            edge_used: false,
        }
    }
}

#[cfg(test)]
mod unit {
    use super::super::unit::fixed;
    use super::*;

    #[test]
    fn extended_adds_hits_until_the_threshold() {
        let req = ExtendedRequest {
            pool: DicePool::dice(2),
            retry: 0,
            threshold: 3,
            max_intervals: None,
            edge: None,
        };
        let o = extended_test(&req, &mut fixed(&[5, 2, 6, 3, 5, 5])).unwrap();
        assert_eq!(o.intervals.len(), 3);
        assert_eq!(o.total_hits, 4);
        assert_eq!(o.intervals[1].total, 2);
        assert!(o.success);
        assert_eq!(o.end, ExtendedEnd::Reached);
        // Reaching exactly the threshold is enough.
        let o = extended_test(&req, &mut fixed(&[5, 6, 5, 2])).unwrap();
        assert_eq!((o.total_hits, o.intervals.len(), o.success), (3, 2, true));
    }

    #[test]
    fn extended_stops_on_a_critical_glitch_or_the_limit() {
        let req = ExtendedRequest {
            pool: DicePool::dice(2),
            retry: 0,
            threshold: 5,
            max_intervals: Some(2),
            edge: None,
        };
        let o = extended_test(&req, &mut fixed(&[5, 2, 1, 1])).unwrap();
        assert_eq!(
            (o.end, o.success, o.total_hits),
            (ExtendedEnd::CriticalGlitch, false, 1)
        );
        let o = extended_test(&req, &mut fixed(&[5, 2, 3, 3])).unwrap();
        assert_eq!((o.end, o.intervals.len()), (ExtendedEnd::OutOfIntervals, 2));
        let bad = ExtendedRequest {
            max_intervals: Some(MAX_EXTENDED_INTERVALS + 1),
            ..req
        };
        assert!(extended_test(&bad, &mut fixed(&[])).is_err());
    }

    #[test]
    fn second_chance_on_an_extended_test_rerolls_the_last_interval_and_goes_on() {
        let req = ExtendedRequest {
            pool: DicePool::dice(2),
            retry: 0,
            threshold: 3,
            max_intervals: Some(2),
            edge: None,
        };
        // 5,2 then 3,3: 1 hit, out of intervals.
        let o = extended_test(&req, &mut fixed(&[5, 2, 3, 3])).unwrap();
        assert_eq!((o.end, o.total_hits), (ExtendedEnd::OutOfIntervals, 1));
        // The last interval's misses reroll 5, 6: total 3, reached.
        let n = o.with_second_chance(&req, &mut fixed(&[5, 6])).unwrap();
        assert_eq!(
            (n.end, n.total_hits, n.success, n.intervals.len()),
            (ExtendedEnd::Reached, 3, true, 2)
        );
        assert!(n.edge_used);
        assert_eq!(
            n.with_second_chance(&req, &mut fixed(&[5])),
            Err(RuleError::EdgeAlreadyUsed)
        );
        // A critical glitch rerolled away: the test goes on to its limit.
        let long = ExtendedRequest {
            max_intervals: Some(3),
            ..req
        };
        let o = extended_test(&long, &mut fixed(&[1, 1])).unwrap();
        assert_eq!(o.end, ExtendedEnd::CriticalGlitch);
        let n = o
            .with_second_chance(&long, &mut fixed(&[5, 2, 5, 2, 6, 2]))
            .unwrap();
        assert_eq!(
            (n.end, n.total_hits, n.intervals.len()),
            (ExtendedEnd::Reached, 3, 3)
        );
        assert!(n.intervals[0].roll.dice[0].replaced);
    }
}

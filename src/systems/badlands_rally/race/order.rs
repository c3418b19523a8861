//! Initiative-style checks (pole position, a round's initiative, the contested victory), the
//! seating and the rounds, and who wins the race.

use super::*;

/// What an initiative-style check is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitiativeKind {
    /// Seed 3. ポール・ポジション: 2D6, ties reroll.
    Pole,
    /// Seed 6. 新ラウンド: 2D6 + rally dice; ties to the gear ahead, else reroll.
    Round,
    /// Seed 僅差勝利: 2D6 (rattled −1D6) minus the rattle record, floor 0; ties to the leader.
    Contested,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeEntry {
    pub id: String,
    /// The first check, then any rerolls, in order.
    pub checks: Vec<CheckOutcome>,
    /// Contested victory: the rattle record taken off.
    pub penalty: u32,
    /// The final score used for ordering (the last check, less the penalty, floor 0).
    pub score: u32,
    /// Reliable: the check this gear rerolled (its first check is the reroll).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reliable: Option<CheckOutcome>,
}

/// How a tie was settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "by")]
pub enum TieBreak {
    /// The gear further ahead won (the ids in the final order).
    Position {
        ids: Vec<String>,
    },
    Reroll {
        ids: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeOutcome {
    pub kind: InitiativeKind,
    /// Every gear, best first.
    pub order: Vec<InitiativeEntry>,
    pub tie_breaks: Vec<TieBreak>,
}

impl InitiativeOutcome {
    pub fn winner(&self) -> Option<&str> {
        self.order.first().map(|e| e.id.as_str())
    }

    /// Seed 3 and 6: the winner places (pole) or acts (a round) first, then play goes on to the
    /// left (clockwise) round the table. `seating` is the table's order — the order the gears
    /// joined the race ([`RaceState::seating`]); a gear in the check but not seated follows in
    /// rank order.
    pub fn play_order(&self, seating: &[String]) -> Vec<String> {
        let in_check = |id: &String| self.order.iter().any(|e| &e.id == id);
        let mut seated: Vec<String> = seating.iter().filter(|id| in_check(id)).cloned().collect();
        if let Some(at) = self.winner().and_then(|w| seated.iter().position(|id| id == w)) {
            seated.rotate_left(at);
        }
        for e in &self.order {
            if !seated.contains(&e.id) {
                seated.push(e.id.clone());
            }
        }
        seated
    }
}

fn initiative_pool(gear: &Gear, kind: InitiativeKind) -> Result<Pool, RuleError> {
    let mut pool = Pool::standard();
    pool.add(Source::Rattled, if gear.is_rattled() { -1 } else { 0 });
    // Seed アップグレード 出目4: Sponsorship Paint, pole and contested victory included.
    pool.add(
        Source::SponsorshipPaint,
        i32::from(gear.sheet.has_upgrade(Upgrade::SponsorshipPaint)),
    );
    if kind == InitiativeKind::Round {
        // Seed ラリーザクラウド: +1 die per token; not for victory checks.
        let tokens = i32::try_from(gear.state.rally_tokens).map_err(|_| RuleError::Overflow)?;
        pool.add(Source::RallyDice, tokens);
    }
    pool.net()?;
    Ok(pool)
}

fn score(check: &CheckOutcome, penalty: u32) -> u32 {
    check.result.saturating_sub(penalty)
}

/// Roll an initiative-style check for `ids`, rank them, and settle ties. `ahead` lists gear ids
/// by track position, leader first; a tie between gears not both in it is rerolled.
pub fn rank(
    race: &RaceState,
    ids: &[String],
    kind: InitiativeKind,
    ahead: &[String],
    roller: &mut impl Roller,
) -> Result<InitiativeOutcome, RuleError> {
    if ids.is_empty() {
        return Err(RuleError::NoGears);
    }
    let mut entries = Vec::with_capacity(ids.len());
    for id in ids {
        let gear = race.gear(id)?;
        let pool = initiative_pool(gear, kind)?;
        let check = roll::check(&pool, gear.sheet.initiative, roller)?;
        let penalty = if kind == InitiativeKind::Contested {
            u32::from(gear.state.rattle_record)
        } else {
            0
        };
        entries.push(InitiativeEntry {
            id: id.clone(),
            score: score(&check, penalty),
            checks: vec![check],
            penalty,
            reliable: None,
        });
    }
    let mut tie_breaks = Vec::new();
    let mut rerolls = 0;
    let mut stored = Stored::new();
    let order = settle_order(
        race,
        entries,
        kind,
        ahead,
        roller,
        &mut stored,
        &mut tie_breaks,
        &mut rerolls,
    )?;
    Ok(InitiativeOutcome {
        kind,
        order,
        tie_breaks,
    })
}

/// Tie rerolls already rolled, per gear, used again when a ranking is rebuilt.
type Stored = std::collections::BTreeMap<String, std::collections::VecDeque<CheckOutcome>>;

/// Reliable (seed データカード Hunter: 1ラップにつき1回、1つのテストを振り直せる) on an
/// initiative-style check: `id`'s check is rolled again from `race` (the gears as they were
/// before the check, rally dice included) and the ranking rebuilt. The other gears keep their
/// checks, and the tie rerolls they already made are used again where they are still tied; a
/// new tie is settled as the rules say (the gear ahead, or a reroll of the tied gears).
pub fn rerank(
    race: &RaceState,
    previous: &InitiativeOutcome,
    id: &str,
    ahead: &[String],
    roller: &mut impl Roller,
) -> Result<InitiativeOutcome, RuleError> {
    let kind = previous.kind;
    if !previous.order.iter().any(|e| e.id == id) {
        return Err(RuleError::UnknownGear { id: id.to_string() });
    }
    let mut entries = Vec::with_capacity(previous.order.len());
    let mut stored = Stored::new();
    for e in &previous.order {
        if e.id == id {
            let gear = race.gear(id)?;
            let pool = initiative_pool(gear, kind)?;
            let check = roll::check(&pool, gear.sheet.initiative, roller)?;
            entries.push(InitiativeEntry {
                id: e.id.clone(),
                score: score(&check, e.penalty),
                reliable: e.checks.first().cloned(),
                checks: vec![check],
                penalty: e.penalty,
            });
            continue;
        }
        let mut checks = e.checks.iter().cloned();
        let first = checks.next().ok_or(RuleError::NoGears)?;
        stored.insert(e.id.clone(), checks.collect());
        entries.push(InitiativeEntry {
            id: e.id.clone(),
            score: score(&first, e.penalty),
            checks: vec![first],
            penalty: e.penalty,
            reliable: e.reliable.clone(),
        });
    }
    let mut tie_breaks = Vec::new();
    let mut rerolls = 0;
    let order = settle_order(
        race,
        entries,
        kind,
        ahead,
        roller,
        &mut stored,
        &mut tie_breaks,
        &mut rerolls,
    )?;
    Ok(InitiativeOutcome {
        kind,
        order,
        tie_breaks,
    })
}

#[allow(clippy::too_many_arguments)]
fn settle_order(
    race: &RaceState,
    mut entries: Vec<InitiativeEntry>,
    kind: InitiativeKind,
    ahead: &[String],
    roller: &mut impl Roller,
    stored: &mut Stored,
    tie_breaks: &mut Vec<TieBreak>,
    rerolls: &mut u32,
) -> Result<Vec<InitiativeEntry>, RuleError> {
    entries.sort_by_key(|e| std::cmp::Reverse(e.score));
    let mut out = Vec::with_capacity(entries.len());
    let mut rest = entries.into_iter().peekable();
    while let Some(first) = rest.next() {
        let mut group = vec![first];
        while rest.peek().is_some_and(|e| e.score == group[0].score) {
            group.extend(rest.next());
        }
        if group.len() == 1 {
            out.append(&mut group);
            continue;
        }
        let pos = |id: &str| ahead.iter().position(|a| a == id);
        let positions: Vec<Option<usize>> = group.iter().map(|e| pos(&e.id)).collect();
        if kind != InitiativeKind::Pole && positions.iter().all(Option::is_some) {
            // Seed 6. 新ラウンド / 僅差勝利: the gear ahead wins the tie.
            group.sort_by_key(|e| pos(&e.id));
            tie_breaks.push(TieBreak::Position {
                ids: group.iter().map(|e| e.id.clone()).collect(),
            });
            out.append(&mut group);
            continue;
        }
        // Unclear (or pole position): the tied gears reroll, rally dice and all.
        *rerolls += 1;
        if *rerolls > MAX_TIE_REROLLS {
            return Err(RuleError::TieUnresolved {
                rerolls: MAX_TIE_REROLLS,
            });
        }
        tie_breaks.push(TieBreak::Reroll {
            ids: group.iter().map(|e| e.id.clone()).collect(),
        });
        for e in &mut group {
            let check = match stored.get_mut(&e.id).and_then(|q| q.pop_front()) {
                Some(check) => check,
                None => {
                    let gear = race.gear(&e.id)?;
                    let pool = initiative_pool(gear, kind)?;
                    roll::check(&pool, gear.sheet.initiative, roller)?
                }
            };
            e.score = score(&check, e.penalty);
            e.checks.push(check);
        }
        let mut settled = settle_order(race, group, kind, ahead, roller, stored, tie_breaks, rerolls)?;
        out.append(&mut settled);
    }
    Ok(out)
}

impl RaceState {
    /// The table's seating: the order the gears joined the race (their roster order).
    pub fn seating(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.id.clone()).collect()
    }

    fn racing_ids(&self) -> Vec<String> {
        self.entries
            .iter()
            .filter(|e| !e.gear.state.knocked_out)
            .map(|e| e.id.clone())
            .collect()
    }

    /// Seed 3. ポール・ポジション: every gear checks initiative; the winner starts first.
    pub fn pole_position(
        &self,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, InitiativeOutcome), RuleError> {
        let out = rank(self, &self.racing_ids(), InitiativeKind::Pole, &[], roller)?;
        let mut r = self.clone();
        r.pole = out.winner().map(str::to_string);
        r.initiative = r.pole.clone();
        Ok((r, out))
    }

    /// Seed 6. 新ラウンド: initiative with rally dice; the tokens are spent.
    pub fn initiative(
        &self,
        ahead: &[String],
        roller: &mut impl Roller,
    ) -> Result<(RaceState, InitiativeOutcome), RuleError> {
        let out = rank(self, &self.racing_ids(), InitiativeKind::Round, ahead, roller)?;
        let mut r = self.clone();
        for e in &mut r.entries {
            e.gear = e.gear.apply(&GearEvent::SpendRallyTokens)?;
        }
        r.initiative = out.winner().map(str::to_string);
        Ok((r, out))
    }

    /// Seed 僅差勝利: the contenders check; the best score wins.
    pub fn contested_victory(
        &self,
        ids: &[String],
        ahead: &[String],
        roller: &mut impl Roller,
    ) -> Result<InitiativeOutcome, RuleError> {
        rank(self, ids, InitiativeKind::Contested, ahead, roller)
    }

    /// Reliable on pole position, a round's initiative or the contested-victory check: from the
    /// race as it was before the check (`self`), `id` spends this lap's Reliable, its check is
    /// rolled again and the order rebuilt ([`rerank`]); what the check decides is applied again
    /// as [`RaceState::pole_position`] or [`RaceState::initiative`] would (the pole, the
    /// round's initiative, rally tokens spent). Refused without the trait or once it is spent.
    pub fn initiative_reroll(
        &self,
        previous: &InitiativeOutcome,
        id: &str,
        ahead: &[String],
        roller: &mut impl Roller,
    ) -> Result<(RaceState, InitiativeOutcome), RuleError> {
        if !previous.order.iter().any(|e| e.id == id) {
            return Err(RuleError::UnknownGear { id: id.to_string() });
        }
        let spent = self.apply(&RaceEvent::Gear {
            id: id.to_string(),
            event: GearEvent::UseReliable,
        })?;
        let out = rerank(&spent, previous, id, ahead, roller)?;
        let mut r = spent;
        match out.kind {
            InitiativeKind::Pole => {
                r.pole = out.winner().map(str::to_string);
                r.initiative = r.pole.clone();
            }
            InitiativeKind::Round => {
                for e in &mut r.entries {
                    e.gear = e.gear.apply(&GearEvent::SpendRallyTokens)?;
                }
                r.initiative = out.winner().map(str::to_string);
            }
            InitiativeKind::Contested => {}
        }
        Ok((r, out))
    }

    /// Whether `round` is over: a later round has started, or every gear still in the race has
    /// ended its activation in it.
    pub fn round_over(&self, round: u32) -> bool {
        round < self.round
            || (round == self.round
                && self
                    .entries
                    .iter()
                    .all(|e| e.gear.state.knocked_out || e.gear.state.activation == Activation::Done))
    }

    /// Who has won, judged at the end of a round (seed ◆ゲームの勝敗: 複数のギアが同じラウンドに…
    /// ラウンド終了時に判定; ダービー: レース中のラウンド終了時に). Gears that finished (or caused
    /// their sixth spin-out in a Derby) in the same round contest the victory; while that round
    /// is still being played the answer is [`Victory::RoundNotOver`]. A gear knocked out after
    /// crossing the finish line can still win.
    pub fn victory(&self) -> Victory {
        let derby: Vec<(String, u32)> = if self.scenario == Some(Scenario::Derby) {
            self.entries
                .iter()
                .filter(|e| e.gear.state.spin_outs_caused >= DERBY_SPIN_OUTS)
                // A count from before rounds were recorded is taken as long settled.
                .map(|e| (e.id.clone(), e.gear.state.derby_round.unwrap_or(0)))
                .collect()
        } else {
            Vec::new()
        };
        let derby_first = derby.iter().map(|(_, r)| *r).min();
        let finish_first = self
            .entries
            .iter()
            .filter_map(|e| e.gear.state.finished_round)
            .min();
        let first = match (derby_first, finish_first) {
            (Some(d), Some(f)) => d.min(f),
            (Some(d), None) => d,
            (None, Some(f)) => f,
            (None, None) => return Victory::None,
        };
        let ids: Vec<String> = if derby_first == Some(first) {
            derby
                .iter()
                .filter(|(_, r)| *r == first)
                .map(|(id, _)| id.clone())
                .collect()
        } else {
            self.entries
                .iter()
                .filter(|e| e.gear.state.finished_round == Some(first))
                .map(|e| e.id.clone())
                .collect()
        };
        if !self.round_over(first) {
            return Victory::RoundNotOver { round: first, ids };
        }
        match (ids.len(), derby_first == Some(first)) {
            (1, true) => Victory::Derby { id: ids[0].clone() },
            (1, false) => Victory::Uncontested { id: ids[0].clone() },
            _ => Victory::Contested { ids },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "victory")]
pub enum Victory {
    None,
    Uncontested {
        id: String,
    },
    /// Roll [`RaceState::contested_victory`] for these.
    Contested {
        ids: Vec<String>,
    },
    Derby {
        id: String,
    },
    /// These gears finished (or reached six spin-outs caused) in `round`, which is still being
    /// played: the winner is judged when it ends.
    RoundNotOver {
        round: u32,
        ids: Vec<String>,
    },
}

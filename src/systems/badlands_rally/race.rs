//! The race: its gears, rounds, initiative (rally dice, ties to the gear ahead), pole position,
//! laps, victory (uncontested, contested, Derby), and the race-level attack that resolves the
//! dice and updates both gears at once (seed ◆プレイの手順, ◆ゲームの勝敗, ◆シナリオ).

use serde::{Deserialize, Serialize};

use super::attack::{self, AttackOutcome, AttackRequest, AttackSetup, Side};
use super::error::{RuleError, add, bounded};
use super::gear::{Gear, GearSheet, GearStatus, Upgrade};
use super::moves::{self, CollisionCause, CollisionOutcome, MovePlan, MoveRequest, SpinOutOutcome};
use super::roll::{self, CheckOutcome, Pool, Source};
use super::state::{Activation, Change, GearEvent, Hit, RecoveryOrder, SpinOutCause};
use super::tables::Scenario;
use crate::dice::Roller;

/// How many times tied gears reroll before the engine gives up (ties that long are absurd).
pub const MAX_TIE_REROLLS: u32 = 50;
/// Most gears in one race.
pub const MAX_GEARS: usize = 24;
/// Spin-outs a Derby gear must cause to win (seed ダービー).
pub const DERBY_SPIN_OUTS: u32 = 6;

/// Table settings the seed or the note leave to the players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceOptions {
    /// Which boxes recovery refills first. Default: Hull, then Structure (the seed's rattled
    /// token goes once Hull is back; Structure first is a house option).
    #[serde(default)]
    pub recovery_order: RecoveryOrder,
    /// Seed オプション・ルール 紳士のスポーツ: no attacks in the first round. Default off.
    #[serde(default)]
    pub gentlemens_sport: bool,
}

impl Default for RaceOptions {
    fn default() -> Self {
        RaceOptions {
            recovery_order: RecoveryOrder::HullFirst,
            gentlemens_sport: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The roster key the bot uses.
    pub id: String,
    pub gear: Gear,
}

/// One race: plain serde data, changed only by the pure methods below.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceState {
    #[serde(default)]
    pub options: RaceOptions,
    pub scenario: Option<Scenario>,
    pub laps: u32,
    /// 0 before the first round.
    pub round: u32,
    pub entries: Vec<Entry>,
    /// Who holds the pole position token.
    pub pole: Option<String>,
    /// Who won this round's initiative.
    pub initiative: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum RaceEvent {
    AddGear {
        id: String,
        sheet: GearSheet,
    },
    RemoveGear {
        id: String,
    },
    SetScenario {
        scenario: Option<Scenario>,
        laps: u32,
    },
    SetOptions {
        options: RaceOptions,
    },
    /// The next round: every gear may activate again.
    StartRound,
    Gear {
        id: String,
        event: GearEvent,
    },
}

impl RaceState {
    pub fn new(laps: u32, options: RaceOptions) -> Result<RaceState, RuleError> {
        bounded("laps", i64::from(laps), 1, 99)?;
        Ok(RaceState {
            options,
            scenario: None,
            laps,
            round: 0,
            entries: Vec::new(),
            pole: None,
            initiative: None,
        })
    }

    pub fn gear(&self, id: &str) -> Result<&Gear, RuleError> {
        self.entries
            .iter()
            .find(|e| e.id == id)
            .map(|e| &e.gear)
            .ok_or_else(|| RuleError::UnknownGear { id: id.to_string() })
    }

    /// The id of the gear `typed` names: exactly, else ignoring case.
    pub fn find_id(&self, typed: &str) -> Result<String, RuleError> {
        let typed = typed.trim();
        self.entries
            .iter()
            .find(|e| e.id == typed)
            .or_else(|| {
                self.entries
                    .iter()
                    .find(|e| e.id.to_lowercase() == typed.to_lowercase())
            })
            .map(|e| e.id.clone())
            .ok_or_else(|| RuleError::UnknownGear {
                id: typed.to_string(),
            })
    }

    fn index(&self, id: &str) -> Result<usize, RuleError> {
        self.entries
            .iter()
            .position(|e| e.id == id)
            .ok_or_else(|| RuleError::UnknownGear { id: id.to_string() })
    }

    fn set(&mut self, id: &str, gear: Gear) -> Result<(), RuleError> {
        let i = self.index(id)?;
        self.entries[i].gear = gear;
        Ok(())
    }

    /// Status lines for the race board, in roster order.
    pub fn board(&self) -> Vec<(String, GearStatus)> {
        self.entries
            .iter()
            .map(|e| (e.id.clone(), e.gear.status()))
            .collect()
    }

    pub fn apply(&self, event: &RaceEvent) -> Result<RaceState, RuleError> {
        self.step(event).map(|(r, _)| r)
    }

    /// Apply an event; gear events also return their changes.
    pub fn step(&self, event: &RaceEvent) -> Result<(RaceState, Vec<Change>), RuleError> {
        let mut r = self.clone();
        let mut changes = Vec::new();
        match event {
            RaceEvent::AddGear { id, sheet } => {
                bounded("gear id length", id.chars().count() as i64, 1, 100)?;
                if self.index(id).is_ok() {
                    return Err(RuleError::DuplicateGear { id: id.clone() });
                }
                if self.entries.len() >= MAX_GEARS {
                    return Err(RuleError::OutOfBounds {
                        field: "gears".into(),
                        value: self.entries.len() as i64 + 1,
                        min: 1,
                        max: MAX_GEARS as i64,
                    });
                }
                r.entries.push(Entry {
                    id: id.clone(),
                    gear: Gear::new(sheet.clone())?,
                });
            }
            RaceEvent::RemoveGear { id } => {
                let i = self.index(id)?;
                r.entries.remove(i);
            }
            RaceEvent::SetScenario { scenario, laps } => {
                bounded("laps", i64::from(*laps), 1, 99)?;
                r.scenario = *scenario;
                r.laps = *laps;
            }
            RaceEvent::SetOptions { options } => r.options = *options,
            RaceEvent::StartRound => {
                r.round = add(r.round, 1)?;
                for e in &mut r.entries {
                    e.gear = e.gear.apply(&GearEvent::NewRound)?;
                }
            }
            RaceEvent::Gear { id, event } => {
                let event = match event {
                    // Laps are counted against this race's length and round.
                    GearEvent::CompleteLap { .. } => GearEvent::CompleteLap {
                        round: r.round,
                        race_laps: r.laps,
                    },
                    other => other.clone(),
                };
                let (mut g, ch) = self.gear(id)?.step(&event)?;
                if matches!(event, GearEvent::CausedSpinOut) {
                    mark_derby(&mut g, r.round);
                }
                r.set(id, g)?;
                changes = ch;
            }
        }
        Ok((r, changes))
    }
}

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
                .is_some_and(|w| w.has(super::gear::WeaponTrait::Impact));
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

fn step_into(g: Gear, event: &GearEvent, changes: &mut Vec<Change>) -> Result<Gear, RuleError> {
    let (g, ch) = g.step(event)?;
    changes.extend(ch);
    Ok(g)
}

/// Derby: remember the round in which the gear reached its sixth spin-out caused.
fn mark_derby(g: &mut Gear, round: u32) {
    if g.state.spin_outs_caused >= DERBY_SPIN_OUTS && g.state.derby_round.is_none() {
        g.state.derby_round = Some(round);
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
    fn credit(
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
        if by.sheet.has(super::gear::Trait::Pyrotechnics) {
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

/// A gear's own action or move in the race.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum Action {
    BurnRubber(MoveRequest),
    /// A jump; `landing_blocked` on the request: level-1 terrain is in the landing hex.
    Jump(MoveRequest),
    /// A jump whose landing hex holds the gear `onto`: it stops short, spins out, and both
    /// gears take collision damage (seed 着地点に障害物がある場合).
    JumpOnto {
        req: MoveRequest,
        onto: String,
    },
    Recover,
    RallyTheCrowd,
    OffRoad,
    Move(MovePlan),
    /// Roll a spin-out left pending (e.g. after a hand-entered hit).
    SpinOut,
    /// Reliable on a test outside an attack: the bot rerolls from the earlier state.
    UseReliable,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum ActionOutcome {
    BurnRubber(moves::BurnRubberOutcome),
    Jump(moves::JumpOutcome),
    Recover(moves::RecoveryOutcome),
    RallyTheCrowd { tokens: u32 },
    OffRoad(roll::RollOutcome),
    Move(moves::MoveCost),
    SpinOut(SpinOutOutcome),
    UseReliable,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionReport {
    pub outcome: ActionOutcome,
    pub changes: Vec<Change>,
    pub status: GearStatus,
    /// A jump that came down on a gear or level-1 terrain: the collision it caused.
    #[serde(default)]
    pub collision: Option<CollisionReport>,
}

impl RaceState {
    /// One gear's action, rolled and applied.
    pub fn act(
        &self,
        id: &str,
        action: &Action,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, ActionReport), RuleError> {
        let gear = self.gear(id)?;
        // A jump onto a gear: that gear must be in the race (checked before any die is rolled).
        let onto = match action {
            Action::JumpOnto { onto, .. } => {
                let onto = self.find_id(onto)?;
                if onto == id {
                    return Err(RuleError::SelfTarget);
                }
                Some(onto)
            }
            _ => None,
        };
        let (mut outcome, mut g, mut changes) = match action {
            Action::BurnRubber(req) => {
                let r = moves::burn_rubber(gear, req, roller)?;
                (ActionOutcome::BurnRubber(r.outcome), r.gear, r.changes)
            }
            Action::Jump(req) => {
                let r = moves::jump(gear, req, roller)?;
                (ActionOutcome::Jump(r.outcome), r.gear, r.changes)
            }
            Action::JumpOnto { req, .. } => {
                let req = MoveRequest {
                    landing_blocked: true,
                    ..*req
                };
                let r = moves::jump(gear, &req, roller)?;
                (ActionOutcome::Jump(r.outcome), r.gear, r.changes)
            }
            Action::Recover => {
                let r = moves::recover(gear, self.options.recovery_order, roller)?;
                (ActionOutcome::Recover(r.outcome), r.gear, r.changes)
            }
            Action::RallyTheCrowd => {
                let r = moves::rally_the_crowd(gear)?;
                (
                    ActionOutcome::RallyTheCrowd { tokens: r.outcome },
                    r.gear,
                    r.changes,
                )
            }
            Action::OffRoad => {
                let r = moves::off_road(gear, roller)?;
                (ActionOutcome::OffRoad(r.outcome), r.gear, r.changes)
            }
            Action::Move(plan) => {
                let r = moves::travel(gear, plan)?;
                (ActionOutcome::Move(r.outcome), r.gear, r.changes)
            }
            Action::SpinOut => {
                let r = moves::spin_out(gear, roller)?;
                (ActionOutcome::SpinOut(r.outcome), r.gear, r.changes)
            }
            Action::UseReliable => {
                let (g, ch) = gear.step(&GearEvent::UseReliable)?;
                (ActionOutcome::UseReliable, g, ch)
            }
        };
        let jump_req = match action {
            Action::Jump(req) | Action::JumpOnto { req, .. } => Some(req),
            _ => None,
        };
        if let (Some(Scenario::ShowOffCentral), ActionOutcome::Jump(j), Some(req)) =
            (self.scenario, &outcome, jump_req)
            && j.hexes_jumped > 0
        {
            // Seed ショー オフ セントラル: a free Rally token per gear jumped over.
            let n = req.gears_jumped.min(j.hexes_jumped);
            g = step_into(g, &GearEvent::GainRallyTokens { tokens: n }, &mut changes)?;
        }
        let mut r = self.clone();
        r.set(id, g)?;
        let mut collision = None;
        if let ActionOutcome::Jump(j) = &mut outcome
            && j.stopped_short
        {
            // Seed 着地点に障害物がある場合: stopped in the hex before, the jumper spins out, and
            // both gears take the collision (the jump's dice; terrain 2D6).
            let (after, report) = r.collide(
                id,
                onto.as_deref(),
                CollisionCause::Jump { dice: j.dice_rolled },
                roller,
            )?;
            r = after;
            changes.extend(report.moving_changes.iter().cloned());
            j.spin_out.clone_from(&report.moving_spin_out);
            if onto.is_some() {
                // The jumper is credited with the spin-out it caused in the gear it came down on.
                let mut credit_changes = Vec::new();
                let struck = [(report.struck_changes.as_slice(), report.struck_spin_out.as_ref())];
                let jumper = r.credit(r.gear(id)?.clone(), &struck, &mut credit_changes)?;
                r.set(id, jumper)?;
                changes.extend(credit_changes);
            }
            collision = Some(report);
        }
        let status = r.gear(id)?.status();
        Ok((
            r,
            ActionReport {
                outcome,
                changes,
                status,
                collision,
            },
        ))
    }

    /// A collision: damage rolled for the forced gear (and the gear it hit), applied, and any
    /// resulting spin-outs rolled (seed 地形やギアへの衝突, 衝突ダメージ).
    pub fn collide(
        &self,
        moving: &str,
        struck: Option<&str>,
        cause: CollisionCause,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, CollisionReport), RuleError> {
        if struck == Some(moving) {
            return Err(RuleError::SelfTarget);
        }
        let m = self.gear(moving)?;
        let s = struck.map(|id| self.gear(id)).transpose()?;
        let outcome = moves::collide(m, s, cause, roller)?;
        let mut moving_hit = moves::collision_hit(&outcome.moving);
        if matches!(cause, CollisionCause::Jump { .. }) {
            // Seed 着地点に障害物がある場合: a jump that comes down on an obstacle stops short and
            // spins out, damaged or not.
            moving_hit.spin_out.push(SpinOutCause::JumpBlocked);
        }
        let (mut mg, mut moving_changes) = m.step(&GearEvent::Hit(moving_hit))?;
        let moving_spin_out = moves::settle(&mut mg, &mut moving_changes, roller)?;
        let mut r = self.clone();
        r.set(moving, mg)?;
        let mut struck_changes = Vec::new();
        let mut struck_spin_out = None;
        if let (Some(id), Some(sg), Some(roll)) = (struck, s, &outcome.struck) {
            let (mut g, ch) = sg.step(&GearEvent::Hit(moves::collision_hit(roll)))?;
            struck_changes = ch;
            struck_spin_out = moves::settle(&mut g, &mut struck_changes, roller)?;
            r.set(id, g)?;
        }
        Ok((
            r,
            CollisionReport {
                outcome,
                moving_changes,
                moving_spin_out,
                struck_changes,
                struck_spin_out,
                caused_by: None,
                by_changes: Vec::new(),
            },
        ))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollisionReport {
    pub outcome: CollisionOutcome,
    pub moving_changes: Vec<Change>,
    pub moving_spin_out: Option<SpinOutOutcome>,
    pub struck_changes: Vec<Change>,
    pub struck_spin_out: Option<SpinOutOutcome>,
    /// The gear credited with the spin-outs (the pusher, say) and how many it caused.
    #[serde(default)]
    pub caused_by: Option<(String, u32)>,
    /// What the crediting changed on that gear (Rally tokens from Grudge Match, Pyrotechnics).
    #[serde(default)]
    pub by_changes: Vec<Change>,
}

impl RaceState {
    /// [`RaceState::collide`], crediting `by` (the gear that forced the collision, e.g. the
    /// pusher) with every spin-out it caused in another gear (seed ダービー counts them).
    pub fn collide_by(
        &self,
        moving: &str,
        struck: Option<&str>,
        cause: CollisionCause,
        by: Option<&str>,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, CollisionReport), RuleError> {
        if let Some(b) = by {
            self.gear(b)?;
        }
        let (mut r, mut report) = self.collide(moving, struck, cause, roller)?;
        if let Some(b) = by {
            // The gear that forced the collision gets the same credit as an attacker: Derby
            // spin-outs, Grudge Match tokens, Pyrotechnics (never for its own gear).
            let mut affected: Vec<(&[Change], Option<&SpinOutOutcome>)> = Vec::new();
            if moving != b {
                affected.push((&report.moving_changes, report.moving_spin_out.as_ref()));
            }
            if let Some(st) = struck
                && st != b
            {
                affected.push((&report.struck_changes, report.struck_spin_out.as_ref()));
            }
            let spun = affected.iter().filter(|(_, so)| so.is_some()).count() as u32;
            let mut by_changes = Vec::new();
            let g = r.credit(r.gear(b)?.clone(), &affected, &mut by_changes)?;
            r.set(b, g)?;
            report.caused_by = Some((b.to_string(), spun));
            report.by_changes = by_changes;
        }
        Ok((r, report))
    }
}

/// Damage rolled by hand (`/rally damage`) and applied to a gear of the race.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageReport {
    pub damage: super::damage::DamageOutcome,
    pub changes: Vec<Change>,
    pub spin_out: Option<SpinOutOutcome>,
    pub status: GearStatus,
    /// The attacker named, credited like an attack's (Derby, Grudge Match, Pyrotechnics), and
    /// what that changed on it.
    pub attacker: Option<(String, Vec<Change>)>,
}

impl RaceState {
    /// Roll damage and apply it to `target` as an attack's hit (with `impact`, a damaged gear
    /// spins out); any spin-out is rolled at once, and `attacker`, when named, gets the credit an
    /// attack would give it.
    pub fn damage(
        &self,
        target: &str,
        req: &super::damage::DamageRequest,
        impact: bool,
        attacker: Option<&str>,
        roller: &mut impl Roller,
    ) -> Result<(RaceState, DamageReport), RuleError> {
        let gear = self.gear(target)?;
        if let Some(a) = attacker {
            if a == target {
                return Err(RuleError::SelfTarget);
            }
            self.gear(a)?;
        }
        // Refused before any die is rolled.
        gear.ensure_in_race()?;
        let damage = super::damage::resolve_damage(req, roller)?;
        let (mut g, mut changes) = gear.step(&GearEvent::Hit(Hit {
            damage: damage.damage,
            attack_hit: true,
            from_attack: true,
            impact,
            ..Hit::default()
        }))?;
        let spin_out = moves::settle(&mut g, &mut changes, roller)?;
        let mut r = self.clone();
        r.set(target, g)?;
        let attacker = match attacker {
            Some(a) => {
                let mut ch = Vec::new();
                let credited = r.credit(r.gear(a)?.clone(), &[(&changes, spin_out.as_ref())], &mut ch)?;
                r.set(a, credited)?;
                Some((a.to_string(), ch))
            }
            None => None,
        };
        let status = r.gear(target)?.status();
        Ok((
            r,
            DamageReport {
                damage,
                changes,
                spin_out,
                status,
                attacker,
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::badlands_rally::attack::{AttackKind, Cover, Facing};
    use crate::systems::badlands_rally::gear::{Speed, Trait, WeaponChoice};
    use crate::systems::badlands_rally::gear_sheet::tests::sheet;

    fn race(ids: &[&str]) -> RaceState {
        let mut r = RaceState::new(2, RaceOptions::default()).unwrap();
        for id in ids {
            r = r
                .apply(&RaceEvent::AddGear {
                    id: id.to_string(),
                    sheet: sheet(id),
                })
                .unwrap();
        }
        r
    }

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn on(r: &RaceState, id: &str, event: GearEvent) -> RaceState {
        r.apply(&RaceEvent::Gear { id: id.into(), event }).unwrap()
    }

    #[test]
    fn roster_events() {
        let r = race(&["a", "b"]);
        assert!(matches!(
            r.apply(&RaceEvent::AddGear {
                id: "a".into(),
                sheet: sheet("a")
            }),
            Err(RuleError::DuplicateGear { .. })
        ));
        let r2 = r.apply(&RaceEvent::RemoveGear { id: "a".into() }).unwrap();
        assert_eq!(r2.entries.len(), 1);
        assert!(matches!(r2.gear("a"), Err(RuleError::UnknownGear { .. })));
        assert!(RaceState::new(0, RaceOptions::default()).is_err());
        let r3 = r.apply(&RaceEvent::StartRound).unwrap();
        assert_eq!(r3.round, 1);
        assert_eq!(r.board().len(), 2);
    }

    #[test]
    fn pole_position_ties_reroll() {
        let r = race(&["a", "b"]);
        // a: 5,3 → 5; b: 4,5 → 5+... at 4+: 5 + 1 (the 4) = 6. b wins.
        let (r2, out) = r.pole_position(&mut FixedRoller::new([5, 3, 4, 5])).unwrap();
        assert_eq!(out.winner(), Some("b"));
        assert_eq!(r2.pole.as_deref(), Some("b"));
        // Tie 6 and 6; even with positions known, pole rerolls: a 6,6 → 7, b 1,1 → 1.
        let mut dice = FixedRoller::new([6, 4, 4, 6, 6, 6, 1, 1]);
        let out = rank(
            &r,
            &ids(&["a", "b"]),
            InitiativeKind::Pole,
            &ids(&["b", "a"]),
            &mut dice,
        )
        .unwrap();
        assert_eq!(out.winner(), Some("a"));
        assert_eq!(
            out.tie_breaks,
            vec![TieBreak::Reroll {
                ids: ids(&["a", "b"])
            }]
        );
        assert_eq!(out.order[0].checks.len(), 2);
    }

    #[test]
    fn the_winner_goes_first_then_play_goes_clockwise_round_the_table() {
        let r = race(&["a", "b", "c", "d"]);
        assert_eq!(r.seating(), ids(&["a", "b", "c", "d"]));
        let entry = |id: &str, score: u32| InitiativeEntry {
            id: id.into(),
            checks: Vec::new(),
            penalty: 0,
            score,
            reliable: None,
        };
        // Ranked c, a, d, b: c acts first, then the gears seated after it, wrapping round.
        let out = InitiativeOutcome {
            kind: InitiativeKind::Round,
            order: vec![entry("c", 6), entry("a", 4), entry("d", 3), entry("b", 1)],
            tie_breaks: Vec::new(),
        };
        assert_eq!(out.play_order(&r.seating()), ids(&["c", "d", "a", "b"]));
        // A knocked-out gear (not in the check) is skipped; one not seated follows by rank.
        let out = InitiativeOutcome {
            order: vec![entry("d", 5), entry("x", 4), entry("a", 2)],
            ..out
        };
        assert_eq!(out.play_order(&r.seating()), ids(&["d", "a", "x"]));
    }

    #[test]
    fn initiative_uses_rally_dice_and_ties_go_to_the_gear_ahead() {
        let r = race(&["a", "b"]);
        let r = on(&r, "a", GearEvent::GainRallyTokens { tokens: 2 });
        // a rolls 4 dice: 1,1,1,3 → 3. b rolls 2: 3,1 → 3. Tie; b is ahead.
        let (r2, out) = r
            .initiative(&ids(&["b", "a"]), &mut FixedRoller::new([1, 1, 1, 3, 3, 1]))
            .unwrap();
        assert_eq!(out.order[1].id, "a");
        assert_eq!(out.order[1].checks[0].dice.len(), 4);
        assert_eq!(out.winner(), Some("b"));
        assert_eq!(
            out.tie_breaks,
            vec![TieBreak::Position {
                ids: ids(&["b", "a"])
            }]
        );
        assert_eq!(r2.gear("a").unwrap().state.rally_tokens, 0, "tokens spent");
        assert_eq!(r2.initiative.as_deref(), Some("b"));
        // Unknown positions: reroll with the rally dice again.
        let mut dice = FixedRoller::new([1, 1, 1, 3, 3, 1, 6, 6, 6, 6, 1, 1]);
        let (_, out) = r.initiative(&[], &mut dice).unwrap();
        assert_eq!(out.winner(), Some("a"));
        assert_eq!(out.order[0].checks[1].dice.len(), 4);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn sponsorship_paint_and_rattled_change_initiative_dice() {
        let mut r = race(&["a", "b"]);
        r.entries[0].gear.sheet.upgrades.push(Upgrade::SponsorshipPaint);
        r.entries[1].gear.state.rattled = true;
        let (_, out) = r.pole_position(&mut FixedRoller::new([1, 1, 1, 6])).unwrap();
        let a = out.order.iter().find(|e| e.id == "a").unwrap();
        let b = out.order.iter().find(|e| e.id == "b").unwrap();
        assert_eq!(a.checks[0].dice.len(), 3);
        assert_eq!(b.checks[0].dice.len(), 1);
    }

    #[test]
    fn contested_victory_subtracts_the_rattle_record() {
        let mut r = race(&["a", "b"]);
        r.entries[0].gear.state.rattle_record = 3;
        // a: 6,5 → 7 − 3 = 4; b: 5,1 → 5. b wins. Rally tokens are not used.
        r.entries[0].gear.state.rally_tokens = 3;
        let out = r
            .contested_victory(&ids(&["a", "b"]), &[], &mut FixedRoller::new([6, 5, 5, 1]))
            .unwrap();
        assert_eq!(out.winner(), Some("b"));
        assert_eq!(out.order[1].penalty, 3);
        assert_eq!(out.order[1].score, 4);
        // Floor 0, and the leader wins a tie: a 2,1 → 2 − 3 → 0; b 1,1 → 1... make both 0.
        r.entries[1].gear.state.rattle_record = 2;
        let out = r
            .contested_victory(
                &ids(&["a", "b"]),
                &ids(&["a", "b"]),
                &mut FixedRoller::new([2, 1, 2, 1]),
            )
            .unwrap();
        assert_eq!(out.order[0].score, 0);
        assert_eq!(out.winner(), Some("a"));
    }

    #[test]
    fn laps_and_victory() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        assert_eq!(r.victory(), Victory::None);
        let r = on(
            &r,
            "a",
            GearEvent::CompleteLap {
                round: 0,
                race_laps: 0,
            },
        );
        let r = on(
            &r,
            "a",
            GearEvent::CompleteLap {
                round: 0,
                race_laps: 0,
            },
        );
        assert_eq!(r.gear("a").unwrap().state.finished_round, Some(1));
        assert_eq!(
            r.victory(),
            Victory::RoundNotOver {
                round: 1,
                ids: ids(&["a"])
            }
        );
        assert_eq!(
            r.apply(&RaceEvent::StartRound).unwrap().victory(),
            Victory::Uncontested { id: "a".into() }
        );
        let r = on(
            &r,
            "b",
            GearEvent::CompleteLap {
                round: 0,
                race_laps: 0,
            },
        );
        let r = on(
            &r,
            "b",
            GearEvent::CompleteLap {
                round: 0,
                race_laps: 0,
            },
        );
        let r = r.apply(&RaceEvent::StartRound).unwrap();
        assert_eq!(
            r.victory(),
            Victory::Contested {
                ids: ids(&["a", "b"])
            }
        );
    }

    #[test]
    fn derby_counts_spin_outs_caused() {
        // Counts stored without their round are taken as settled before this round.
        let mut r = race(&["a", "b", "c"]).apply(&RaceEvent::StartRound).unwrap();
        r.scenario = Some(Scenario::Derby);
        r.entries[0].gear.state.spin_outs_caused = 6;
        assert_eq!(r.victory(), Victory::Derby { id: "a".into() });
        r.entries[1].gear.state.spin_outs_caused = 7;
        assert_eq!(
            r.victory(),
            Victory::Contested {
                ids: ids(&["a", "b"])
            }
        );
    }

    fn rifle_attack(attacker: &str, defender: &str) -> RaceAttack {
        RaceAttack {
            attacker: attacker.into(),
            defender: defender.into(),
            setup: AttackSetup {
                kind: AttackKind::Weapon(WeaponChoice::Sheet(0)),
                facing: Facing::Front,
                distance: 4,
                cover: Cover::default(),
                attack_extra: 0,
                defence_extra: 0,
            },
            reaction: false,
            adjacent: vec![],
        }
    }

    #[test]
    fn race_attack_spends_the_action_and_applies_damage() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        let req = rifle_attack("a", "b");
        assert!(matches!(
            r.attack(&req, &mut FixedRoller::new([])),
            Err(RuleError::NotActivating { .. })
        ));
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        // MOS 4 → 5 damage dice: 4,4,1,6,2 → 3 damage on 2/1: 0/0, spin-out: turn 2, skid 3 (+0).
        let mut dice = FixedRoller::new([6, 5, 3, 2, 4, 4, 1, 6, 2, 2, 3]);
        let (r2, rep) = r.attack(&req, &mut dice).unwrap();
        assert_eq!(dice.remaining(), 0);
        let b = r2.gear("b").unwrap();
        assert_eq!((b.state.hull, b.state.structure), (0, 0));
        assert_eq!(rep.defender_status.rattle_record, 1);
        let so = rep.defender_spin_out.unwrap();
        assert_eq!(so.skid, 3);
        assert_eq!(r2.gear("a").unwrap().state.spin_outs_caused, 1);
        assert_eq!(
            rep.attacker_status.spin_outs_caused, 1,
            "the Derby count is on the status"
        );
        assert!(matches!(
            r2.attack(&req, &mut FixedRoller::new([])),
            Err(RuleError::NoActionLeft { .. })
        ));
    }

    #[test]
    fn grudge_match_and_pyrotechnics_tokens() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.scenario = Some(Scenario::GrudgeMatch);
        r.entries[0].gear.sheet.traits.push(Trait::Pyrotechnics);
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        // MOS 0 → 1 die: 4 → 1 damage; b 2/1 → 1/1: no rattle.
        let (r1, _) = r
            .attack(&rifle_attack("a", "b"), &mut FixedRoller::new([5, 1, 5, 2, 4]))
            .unwrap();
        assert_eq!(r1.gear("a").unwrap().state.rally_tokens, 0);
        // MOS 1 → 2 dice: 4,4 → 2 damage → Hull 0: rattled → a token; no spin-out.
        let (r2, _) = r
            .attack(&rifle_attack("a", "b"), &mut FixedRoller::new([6, 1, 5, 2, 4, 4]))
            .unwrap();
        assert_eq!(r2.gear("a").unwrap().state.rally_tokens, 1);
        // 3 damage → 0/0 spin-out; b rolls a 6: b gets a token, Pyrotechnics gives a one too.
        let (r3, rep) = r
            .attack(
                &rifle_attack("a", "b"),
                &mut FixedRoller::new([6, 4, 5, 2, 4, 4, 4, 6]),
            )
            .unwrap();
        assert!(rep.defender_spin_out.unwrap().recovered);
        assert_eq!(r3.gear("b").unwrap().state.rally_tokens, 1);
        assert_eq!(r3.gear("a").unwrap().state.rally_tokens, 2);
    }

    #[test]
    fn reaction_attack_and_gentlemens_sport() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        let mut req = rifle_attack("b", "a");
        req.reaction = true;
        let (r2, _) = r.attack(&req, &mut FixedRoller::new([1, 1, 6, 6])).unwrap();
        assert!(r2.gear("b").unwrap().state.action_borrowed);
        assert!(matches!(
            r2.attack(&req, &mut FixedRoller::new([])),
            Err(RuleError::NoReactionLeft { .. })
        ));
        let mut g = r.clone();
        g.options.gentlemens_sport = true;
        assert_eq!(
            g.attack(&req, &mut FixedRoller::new([])),
            Err(RuleError::GentlemensSport)
        );
    }

    #[test]
    fn push_fumble_spins_the_pusher() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let mut req = rifle_attack("a", "b");
        req.setup.kind = AttackKind::Push;
        req.setup.distance = 1;
        // Attack 1,1; defence 3,2; attacker spin: turn 4, skid 5.
        let (r2, rep) = r.attack(&req, &mut FixedRoller::new([1, 1, 3, 2, 4, 5])).unwrap();
        assert!(rep.attack.attacker_fumble);
        let so = rep.attacker_spin_out.unwrap();
        assert_eq!(so.causes, vec![SpinOutCause::PushFumble]);
        assert_eq!(so.skid, 5);
        assert_eq!(
            r2.gear("a").unwrap().state.activation,
            super::super::state::Activation::Done
        );
    }

    #[test]
    fn area_effect_hits_adjacent_gears() {
        let mut r = race(&["a", "b", "c"]).apply(&RaceEvent::StartRound).unwrap();
        r.entries[0].gear.sheet.weapons[0].traits = vec![super::super::gear::WeaponTrait::AreaEffect];
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let mut req = rifle_attack("a", "b");
        req.adjacent = ids(&["c"]);
        // MOS 1 → 2 dice: 4,4 → 2 damage; c takes 1.
        let (r2, rep) = r.attack(&req, &mut FixedRoller::new([6, 1, 5, 2, 4, 4])).unwrap();
        assert_eq!(rep.attack.area_damage, Some(1));
        assert_eq!(r2.gear("c").unwrap().state.hull, 1);
    }

    #[test]
    fn reliable_attack_reroll_once_per_lap() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.entries[0].gear.sheet.traits.push(Trait::Reliable);
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let req = rifle_attack("a", "b");
        let (_, first) = r.attack(&req, &mut FixedRoller::new([2, 1, 6, 5])).unwrap();
        assert!(!first.attack.hit);
        let (r2, again) = r
            .attack_reroll(
                &req,
                &first.attack,
                Side::Attacker,
                &mut FixedRoller::new([6, 6, 4]),
            )
            .unwrap();
        assert!(again.attack.hit);
        assert_eq!(r2.gear("b").unwrap().state.hull, 1);
        assert_eq!(r2.gear("a").unwrap().state.reliable_used_lap, Some(0));
        assert!(matches!(
            r.attack_reroll(&req, &first.attack, Side::Defender, &mut FixedRoller::new([])),
            Err(RuleError::MissingTrait { .. })
        ));
    }

    #[test]
    fn both_sides_reroll_in_turn_from_the_state_before_the_attack() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.entries[0].gear.sheet.traits.push(Trait::Reliable);
        r.entries[1].gear.sheet.traits.push(Trait::Reliable);
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let req = rifle_attack("a", "b");
        let (_, first) = r.attack(&req, &mut FixedRoller::new([2, 1, 6, 5])).unwrap();
        // The attacker rerolls (6,6 → 7 against the kept 7: MOS 0, one damage die).
        let (_, second) = r
            .attack_reroll(
                &req,
                &first.attack,
                Side::Attacker,
                &mut FixedRoller::new([6, 6, 1]),
            )
            .unwrap();
        assert_eq!(second.attack.margin, Some(0));
        // Then the defender, from the state before the attack with the attacker's reroll spent.
        let spent = on(&r, "a", GearEvent::UseReliable);
        let (r3, third) = spent
            .attack_reroll(
                &req,
                &second.attack,
                Side::Defender,
                &mut FixedRoller::new([2, 1, 1, 1, 1, 1, 1, 1]),
            )
            .unwrap();
        assert_eq!(
            third.attack.attack, second.attack.attack,
            "the attacker's reroll is kept"
        );
        assert_eq!(third.attack.margin, Some(5));
        assert_eq!(r3.gear("a").unwrap().state.reliable_used_lap, Some(0));
        assert_eq!(r3.gear("b").unwrap().state.reliable_used_lap, Some(0));
        assert!(!r3.gear("a").unwrap().reliable_available());
        // The attacker cannot reroll again in this lap.
        assert!(matches!(
            spent.attack_reroll(&req, &third.attack, Side::Attacker, &mut FixedRoller::new([6, 6])),
            Err(RuleError::AlreadyUsed { .. })
        ));
    }

    #[test]
    fn show_off_central_tokens_for_jumping_gears() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.scenario = Some(Scenario::ShowOffCentral);
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let req = MoveRequest {
            gears_jumped: 1,
            ..MoveRequest::default()
        };
        let (r2, rep) = r
            .act("a", &Action::Jump(req), &mut FixedRoller::new([5, 4]))
            .unwrap();
        assert_eq!(rep.status.rally_tokens, 1);
        assert_eq!(r2.gear("a").unwrap().state.mr_left(), 9);
    }

    #[test]
    fn collisions_apply_to_both_gears() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.entries[0].gear.sheet.ar = 4;
        // Push MOS 2: a takes 3 dice (4,4,4 → 3 → 0/0, spin: 1, skid 1), b takes 1 die (5 → 1, spins: 2, skid 2).
        let mut dice = FixedRoller::new([4, 4, 4, 5, 1, 1, 2, 2]);
        let (r2, rep) = r
            .collide("a", Some("b"), CollisionCause::Push { mos: 2 }, &mut dice)
            .unwrap();
        assert_eq!(dice.remaining(), 0);
        assert_eq!(rep.outcome.moving.damage, 3);
        assert!(rep.moving_spin_out.is_some() && rep.struck_spin_out.is_some());
        assert_eq!(r2.gear("b").unwrap().state.hull, 1);
        // Terrain: always 2D6.
        let (_, rep) = r
            .collide(
                "b",
                None,
                CollisionCause::Skid { distance: 5 },
                &mut FixedRoller::new([3, 2]),
            )
            .unwrap();
        assert_eq!(rep.outcome.moving.dice_count, 2);
        assert!(rep.moving_spin_out.is_none(), "no damage, no spin-out");
    }

    #[test]
    fn a_pusher_is_credited_with_the_spin_outs_of_a_collision() {
        let mut r = race(&["a", "b", "c"]).apply(&RaceEvent::StartRound).unwrap();
        r.scenario = Some(Scenario::Derby);
        r.entries[0].gear.sheet.ar = 4;
        // c pushed a into b (MOS 2): both take damage and spin out, as in the test above.
        let mut dice = FixedRoller::new([4, 4, 4, 5, 1, 1, 2, 2]);
        let (r2, rep) = r
            .collide_by(
                "a",
                Some("b"),
                CollisionCause::Push { mos: 2 },
                Some("c"),
                &mut dice,
            )
            .unwrap();
        assert_eq!(dice.remaining(), 0);
        assert_eq!(rep.caused_by, Some(("c".to_string(), 2)));
        assert_eq!(r2.gear("c").unwrap().state.spin_outs_caused, 2);
        assert_eq!(r2.gear("c").unwrap().status().spin_outs_caused, 2);
        // The pusher itself is not credited for its own spin-out.
        let (r3, rep) = r
            .collide_by(
                "a",
                Some("b"),
                CollisionCause::Push { mos: 2 },
                Some("a"),
                &mut FixedRoller::new([4, 4, 4, 5, 1, 1, 2, 2]),
            )
            .unwrap();
        assert_eq!(rep.caused_by, Some(("a".to_string(), 1)));
        assert_eq!(r3.gear("a").unwrap().state.spin_outs_caused, 1);
        // No damage, no spin-out, nothing credited; an unknown gear is refused.
        let (_, rep) = r
            .collide_by(
                "b",
                None,
                CollisionCause::Skid { distance: 3 },
                Some("c"),
                &mut FixedRoller::new([3, 2]),
            )
            .unwrap();
        assert_eq!(rep.caused_by, Some(("c".to_string(), 0)));
        assert!(matches!(
            r.collide_by(
                "b",
                None,
                CollisionCause::Skid { distance: 3 },
                Some("zz"),
                &mut FixedRoller::new([3, 2])
            ),
            Err(RuleError::UnknownGear { .. })
        ));
        // Six spin-outs caused win the Derby.
        let mut r4 = r2.clone();
        r4.entries[2].gear.state.spin_outs_caused = 6;
        assert_eq!(r4.victory(), Victory::Derby { id: "c".into() });
    }

    #[test]
    fn race_round_trips_through_json() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<RaceState>(&json).unwrap(), r);
    }
}

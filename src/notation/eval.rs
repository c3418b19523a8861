//! Rolling a parsed command: one line per `;` roll, set and repeat, every die through a
//! [`Budget`] so no roller can make a command loop.

use super::arith;
use super::ast::{Command, ExprCommand, Parsed};
use super::bcdice as bc;
use super::dice_maiden::roll_group;
use super::error::NotationError;
use super::limits::MAX_DICE_PER_COMMAND;
use super::outcome::{RollLine, RollOutcome, Verdict};
use crate::dice::{Budget, Roller};

impl Parsed {
    /// Roll this command with `roller`.
    pub fn roll(&self, roller: &mut dyn Roller) -> Result<RollOutcome, NotationError> {
        let mut budget = Budget::with_max(roller, MAX_DICE_PER_COMMAND);
        let mut lines = Vec::new();
        for (n, spec) in self.rolls.iter().enumerate() {
            for set in 1..=spec.times {
                let mut line = RollLine::new(kind(&spec.command), spec.expression.clone());
                line.roll = u32::try_from(n + 1).unwrap_or(u32::MAX);
                line.set = (spec.times > 1).then_some(set);
                line.label = spec.label.clone();
                roll_command(&mut line, &spec.command, &mut budget)?;
                lines.push(line);
            }
        }
        Ok(RollOutcome {
            input: self.input.clone(),
            label: self.label.clone(),
            comment: self.comment.clone(),
            flags: self.flags,
            lines,
            dice_rolled: budget.rolled(),
        })
    }
}

fn kind(command: &Command) -> super::outcome::Kind {
    use super::outcome::Kind;
    match command {
        Command::Expr(e) => e.kind,
        Command::Barabara { .. } => Kind::Barabara,
        Command::Reroll { .. } => Kind::Reroll,
        Command::Upper { .. } => Kind::Upper,
        Command::D66 { .. } => Kind::D66,
        Command::Choice { .. } => Kind::Choice,
        Command::Tally { .. } => Kind::Tally,
    }
}

fn roll_command(line: &mut RollLine, command: &Command, r: &mut dyn Roller) -> Result<(), NotationError> {
    match command {
        Command::Expr(e) => roll_expr(line, e, r),
        Command::Barabara { groups, target } => bc::barabara(line, groups, *target, r),
        Command::Reroll {
            groups,
            threshold,
            target,
        } => bc::reroll(line, groups, *threshold, *target, r),
        Command::Upper {
            groups,
            threshold,
            bonus,
            target,
        } => bc::upper(line, groups, *threshold, *bonus, *target, r),
        Command::D66 { order } => bc::d66(line, *order, r),
        Command::Choice { pick, items } => bc::choice(line, *pick, items, r),
        Command::Tally { group, zeros } => bc::tally(line, group, *zeros, r),
    }
}

fn roll_expr(line: &mut RollLine, e: &ExprCommand, r: &mut dyn Roller) -> Result<(), NotationError> {
    let mut values = Vec::with_capacity(e.groups.len());
    for spec in &e.groups {
        let group = roll_group(spec, r, &mut line.capped)?;
        values.push(group.subtotal);
        line.groups.push(group);
    }
    let total = arith::eval(&e.expr, &values, e.rounding)?;
    line.total = Some(total);
    let counted = |f: fn(&super::outcome::Die) -> bool| {
        line.groups.iter().flat_map(|g| &g.dice).filter(|d| f(d)).count() as u32
    };
    let rules: Vec<_> = e.groups.iter().filter_map(|g| g.success).collect();
    if !rules.is_empty() {
        line.successes = Some(line.groups.iter().filter_map(|g| g.successes).sum());
        if rules.iter().any(|r| r.fail_at_most.is_some()) {
            line.failures = Some(counted(|d| d.failure));
        }
        if rules.iter().any(|r| r.botch_at_most.is_some()) {
            line.botches = Some(counted(|d| d.botch));
        }
    }
    if let Some(t) = e.target {
        line.target = Some(t);
        line.verdict = Some(if t.test(total) {
            Verdict::Success
        } else {
            Verdict::Failure
        });
    }
    Ok(())
}

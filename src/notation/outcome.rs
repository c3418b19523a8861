//! The result of a roll, complete enough that a renderer never re-derives a rule: every die in
//! roll order with its marks, each group's subtotal, and every derived number.

use serde::{Deserialize, Serialize};

/// Display flags. `secret` comes from the BCDice `S` prefix, the rest from Dice Maiden words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flags {
    /// `p`: show the result to the roller only.
    pub private: bool,
    /// `s`: no dice breakdown.
    pub simple: bool,
    /// `nr`: no result line.
    pub no_result: bool,
    /// `ul`: show dice in roll order rather than sorted.
    pub unsorted: bool,
    /// `S…`: result to the roller only, with a reveal for later.
    pub secret: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RollOutcome {
    /// The input, trimmed.
    pub input: String,
    /// The first roll's `(label)`: the title.
    pub label: Option<String>,
    /// The comment: text after a spaced `!`, after `#`, or after the roll (`2d6 attack`).
    pub comment: Option<String>,
    pub flags: Flags,
    /// One line per `;` roll, set and repeat, in order.
    pub lines: Vec<RollLine>,
    /// Dice rolled for the whole command.
    pub dice_rolled: usize,
}

/// Which rules produced a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Dice Maiden expression.
    Dice,
    Sum,
    Barabara,
    Reroll,
    Upper,
    D66,
    Choice,
    Tally,
    Calc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmpOp {
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "=")]
    Eq,
    #[serde(rename = "<>")]
    Ne,
}

impl CmpOp {
    pub fn test(self, lhs: i64, rhs: i64) -> bool {
        match self {
            CmpOp::Ge => lhs >= rhs,
            CmpOp::Gt => lhs > rhs,
            CmpOp::Le => lhs <= rhs,
            CmpOp::Lt => lhs < rhs,
            CmpOp::Eq => lhs == rhs,
            CmpOp::Ne => lhs != rhs,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Ge => ">=",
            CmpOp::Gt => ">",
            CmpOp::Le => "<=",
            CmpOp::Lt => "<",
            CmpOp::Eq => "=",
            CmpOp::Ne => "<>",
        }
    }
}

/// A BCDice comparison such as `>=7`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    pub op: CmpOp,
    pub value: i64,
}

impl Target {
    pub fn test(self, v: i64) -> bool {
        self.op.test(v, self.value)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Success,
    Failure,
}

/// One roll, set or repeat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RollLine {
    /// 1-based index of the `;` roll this line belongs to.
    pub roll: u32,
    /// 1-based set or repeat number, when the roll has sets or a repeat.
    pub set: Option<u32>,
    pub label: Option<String>,
    /// The command as typed (without label, sets or repeat).
    pub expression: String,
    pub kind: Kind,
    /// Dice groups in the order written; their dice in the order rolled.
    pub groups: Vec<DiceGroup>,
    /// The result number: None for choice and tally, whose result is `chosen` / `tally`.
    pub total: Option<i64>,
    /// Net successes (failures already subtracted) where success counting applies.
    pub successes: Option<i64>,
    /// Dice that rolled a failure (`f`).
    pub failures: Option<u32>,
    /// Dice that rolled a botch (`b`).
    pub botches: Option<u32>,
    /// BCDice comparison the total (or each die) was tested against.
    pub target: Option<Target>,
    /// BCDice sum with a comparison: did the total meet it.
    pub verdict: Option<Verdict>,
    /// Upper: each die's chained sum plus the bonus, in die order.
    pub values: Vec<i64>,
    /// Upper without a target: the largest of `values`.
    pub max: Option<i64>,
    /// Choice: the picks, in the order drawn.
    pub chosen: Vec<String>,
    /// Tally: how many dice show each face (ascending; zeros only for `TZ`).
    pub tally: Vec<TallyCount>,
    /// A chain (explosion, reroll-until, R, U) stopped at the cap of extra dice per die.
    pub capped: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyCount {
    pub face: u32,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceGroup {
    /// The group as written, e.g. `4d6k3`.
    pub text: String,
    pub count: u32,
    pub sides: u32,
    pub dice: Vec<Die>,
    /// Kept dice minus imploded (subtracted) dice.
    pub subtotal: i64,
    /// Net successes of this group, where it counts them.
    pub successes: Option<i64>,
    /// Fate/Fudge dice (`4dF`): each die is a d3 whose face 1, 2, 3 counts −1, 0, +1.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fudge: bool,
}

/// Where a die came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Origin {
    /// Rolled as part of the group (advantage dice included).
    Rolled,
    /// Added because die `from` (index in the same group) exploded, rerolled-and-added (BCDice
    /// R) or chained (BCDice U).
    Explosion { from: usize },
    /// Replaces die `from`, which was rerolled away.
    Reroll { from: usize },
    /// Subtracted because die `from` imploded.
    Implosion { from: usize },
}

/// Whether a die counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Counts toward the total.
    Kept,
    /// Dropped by keep/drop or advantage: strike it through.
    Dropped,
    /// Rerolled away: strike it through; its replacement follows.
    Rerolled,
    /// An implosion die: subtracted from the total.
    Subtracted,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    pub face: u32,
    pub sides: u32,
    pub origin: Origin,
    pub status: Status,
    /// This die set off an extra die (explosion, BCDice R/U).
    pub exploded: bool,
    /// This die set off a subtracted die.
    pub imploded: bool,
    /// Successes this die scores: 0, 1, or 2 for a double success.
    pub success: u8,
    pub failure: bool,
    pub botch: bool,
    /// The face rolled when the d20 library's minimum (`mi2`) raised it to `face`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raised_from: Option<u32>,
}

impl Die {
    pub(crate) fn new(face: u32, sides: u32, origin: Origin) -> Self {
        Die {
            face,
            sides,
            origin,
            status: Status::Kept,
            exploded: false,
            imploded: false,
            success: 0,
            failure: false,
            botch: false,
            raised_from: None,
        }
    }
}

impl RollLine {
    pub(crate) fn new(kind: Kind, expression: String) -> Self {
        RollLine {
            roll: 1,
            set: None,
            label: None,
            expression,
            kind,
            groups: Vec::new(),
            total: None,
            successes: None,
            failures: None,
            botches: None,
            target: None,
            verdict: None,
            values: Vec::new(),
            max: None,
            chosen: Vec::new(),
            tally: Vec::new(),
            capped: false,
        }
    }
}

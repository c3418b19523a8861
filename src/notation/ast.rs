//! What a parsed roll means, before any die is rolled. Every number here is already checked
//! against the caps in [`super::limits`].

use super::outcome::{CmpOp, Flags, Kind, Target};

/// A validated command, ready to roll any number of times.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub(crate) input: String,
    pub(crate) flags: Flags,
    pub(crate) label: Option<String>,
    pub(crate) comment: Option<String>,
    pub(crate) rolls: Vec<RollSpec>,
    pub(crate) worst_case_dice: u64,
}

impl Parsed {
    pub fn flags(&self) -> Flags {
        self.flags
    }
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }
    pub fn comment(&self) -> Option<&str> {
        self.comment.as_deref()
    }
    /// Rolls joined by `;`.
    pub fn roll_count(&self) -> usize {
        self.rolls.len()
    }
    /// Most dice this command could roll, explosions and rerolls included.
    pub fn worst_case_dice(&self) -> u64 {
        self.worst_case_dice
    }
}

/// One `;`-separated roll.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RollSpec {
    pub label: Option<String>,
    pub expression: String,
    /// How many times the command runs: sets or a BCDice repeat (1 = neither).
    pub times: u32,
    pub command: Command,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Command {
    /// Dice Maiden expressions, BCDice sums and calc: arithmetic over dice groups.
    Expr(ExprCommand),
    Barabara {
        groups: Vec<Group>,
        target: Option<Target>,
    },
    Reroll {
        groups: Vec<Group>,
        threshold: Target,
        target: Option<Target>,
    },
    /// `threshold` None: each group chains on its maximum face.
    Upper {
        groups: Vec<Group>,
        threshold: Option<u32>,
        bonus: i64,
        target: Option<Target>,
    },
    D66 {
        order: D66Order,
    },
    Choice {
        pick: u32,
        items: Vec<String>,
    },
    Tally {
        group: Group,
        zeros: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum D66Order {
    AsRolled,
    Ascending,
    Descending,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExprCommand {
    pub kind: Kind,
    pub expr: Expr,
    pub groups: Vec<DiceSpec>,
    pub rounding: Rounding,
    pub target: Option<Target>,
}

/// A plain `NdX` for the BCDice forms.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Group {
    pub text: String,
    pub count: u32,
    pub sides: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rounding {
    Down,
    Up,
    HalfUp,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Num(i64),
    /// Index into the command's dice groups.
    Dice(usize),
    Neg {
        at: usize,
        inner: Box<Expr>,
    },
    Bin {
        op: Op,
        at: usize,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
}

impl Expr {
    /// The same expression with every dice index moved up by `offset` (an alias's expansion
    /// spliced after groups already parsed).
    pub fn shifted(self, offset: usize) -> Expr {
        match self {
            Expr::Num(n) => Expr::Num(n),
            Expr::Dice(i) => Expr::Dice(i + offset),
            Expr::Neg { at, inner } => Expr::Neg {
                at,
                inner: Box::new(inner.shifted(offset)),
            },
            Expr::Bin { op, at, lhs, rhs } => Expr::Bin {
                op,
                at,
                lhs: Box::new(lhs.shifted(offset)),
                rhs: Box::new(rhs.shifted(offset)),
            },
        }
    }

    pub fn has_dice(&self) -> bool {
        match self {
            Expr::Num(_) => false,
            Expr::Dice(_) => true,
            Expr::Neg { inner, .. } => inner.has_dice(),
            Expr::Bin { lhs, rhs, .. } => lhs.has_dice() || rhs.has_dice(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

/// A dice group with its Dice Maiden modifiers (none for BCDice sums).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct DiceSpec {
    pub text: String,
    pub count: u32,
    pub sides: u32,
    /// `advN` (drop lowest) / `disN` (drop highest): extra dice rolled first.
    pub advantage: Option<(u32, bool)>,
    /// Stage 2, in written order.
    pub stage2: Vec<Stage2>,
    pub keep: Option<Keep>,
    pub success: Option<SuccessRule>,
    /// Fate/Fudge dice (`4dF`): each a d3 read 1 → −1, 2 → 0, 3 → +1.
    pub fudge: bool,
    /// The d20 library's `miN`: a die showing less counts N (after stage 2, before keep).
    pub minimum: Option<u32>,
    /// `2D66`: each "die" a D66 roll (two d6 read as tens and units), as BCDice reads it.
    pub d66: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage2 {
    Explode { at_least: u32, indefinite: bool },
    Implode { at_most: u32 },
    Reroll { cmp: CmpOp, value: u32, until: bool },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    Highest(u32),
    Lowest(u32),
    Middle(u32),
    DropLowest(u32),
    DropHighest(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct SuccessRule {
    /// `tN` (`>=`) or `tlN` (`<=`).
    pub target: Option<(CmpOp, u32)>,
    pub fail_at_most: Option<u32>,
    pub botch_at_most: Option<u32>,
    pub double_at_least: Option<u32>,
}

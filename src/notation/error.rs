//! Everything a user can get wrong in a roll, with the 1-based character position it happened at.

use thiserror::Error;

use crate::dice::DiceError;
use crate::i18n::{Lang, Localized};

/// What the parser was looking for when it stopped; localized in both languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    End,
    Number,
    Sides,
    Operand,
    Operator,
    CloseParen,
    CloseBracket,
    LabelClose,
    Command,
    SpaceAfterRepeat,
    ChoiceItems,
    Threshold,
    Comparison,
    Group,
}

impl Expected {
    fn text(self, lang: Lang) -> &'static str {
        use Expected::*;
        match self {
            End => lang.pick("the end of the roll", "式の終わり"),
            Number => lang.pick("a number", "数"),
            Sides => lang.pick(
                "the number of sides (or `%`) after `d`",
                "`d` の後の面数（または `%`）",
            ),
            Operand => lang.pick(
                "dice like `2d6`, a number or `(`",
                "`2d6` のようなダイス、数、または `(`",
            ),
            Operator => lang.pick(
                "a modifier, `+`, `-`, `*`, `/`, `;`, `!` or the end",
                "修飾子、`+`・`-`・`*`・`/`・`;`・`!` または式の終わり",
            ),
            CloseParen => lang.pick("`)`", "`)`"),
            CloseBracket => lang.pick("`]`", "`]`"),
            LabelClose => lang.pick("`)` closing the label", "ラベルを閉じる `)`"),
            Command => lang.pick("a dice command such as `2d6`", "`2d6` のようなダイスコマンド"),
            SpaceAfterRepeat => lang.pick(
                "a space and a command after the repeat count",
                "繰り返し回数の後に空白とコマンド",
            ),
            ChoiceItems => lang.pick(
                "choices such as `[A,B,C]`, `(A,B)` or ` A B C`",
                "`[A,B,C]`・`(A,B)`・` A B C` のような選択肢",
            ),
            Threshold => lang.pick(
                "a threshold such as `[6]`, `[>=5]` or `@6`",
                "`[6]`・`[>=5]`・`@6` のような振り足し条件",
            ),
            Comparison => lang.pick(
                "a target after `>=`, `>`, `<=`, `<`, `=` or `<>`",
                "`>=`・`>`・`<=`・`<`・`=`・`<>` の後の目標値",
            ),
            Group => lang.pick("a dice group such as `2B6`", "`2B6` のようなダイス"),
        }
    }
}

/// Why a form players type elsewhere is refused here; [`NotationError::DidYouMean`] pairs it with
/// what to type instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// Roll20's `!!` (compounding) or `!p` (penetrating).
    ExplodeVariant,
    /// Roll20's `!>N`: explode on N or more.
    ExplodeCompare,
    /// `1d20!note`: `!` touching the dice explodes them, so the text is not a comment.
    TextAfterExplode,
    /// Avrae's `1d20+5 adv`: advantage written after the math.
    AdvantageWord,
    /// `4d6 kh` / `4d6 k 3`: a keep or drop without its count.
    CountMissing,
    /// `1d20+5 attack; 2d6 damage`: only the last roll takes a comment.
    CommentBeforeSemicolon,
    /// `4dF k3`: Fate dice take no modifiers.
    FudgeModifier,
    /// A bare `d` or `D`: no count and no sides, which would otherwise roll a d6 unannounced.
    SidesMissing,
    /// `4d6 ul`: a Dice Maiden flag after the roll, which would otherwise be a comment.
    FlagAfterRoll,
    /// `roll 2d6`, `/roll 2d6` typed into `dice:`: the command's name before the roll.
    CommandWord,
    /// BCDice's Call of Cthulhu `CC<=50` / `CCB<=50`: not read by the generic `/roll`.
    CthulhuCheck,
    /// The d20 library's `ra5` on a d6 (add a die on exactly 5) or `ra<3`: only the highest face
    /// and `ra>N` are read.
    RerollAndAdd,
}

impl Hint {
    fn text(self, lang: Lang) -> &'static str {
        use Hint::*;
        match self {
            ExplodeVariant => lang.pick(
                "compounding (`!!`) and penetrating (`!p`) dice are not supported; `!` explodes each die",
                "`!!`（累積）と `!p`（貫通）の振り足しには対応していません。`!` で各ダイスを振り足せます",
            ),
            ExplodeCompare => lang.pick(
                "explode on N or more is written `ieN`",
                "N以上で振り足すときは `ieN` と書きます",
            ),
            TextAfterExplode => lang.pick(
                "`!` right after the dice explodes them; a comment needs a space before `!` (or `#`)",
                "ダイスの直後の `!` は振り足しです。コメントは `!`（または `#`）の前に空白を入れてください",
            ),
            AdvantageWord => lang.pick(
                "advantage and disadvantage go on the die, not after the math",
                "有利・不利は計算の後ではなくダイスに付けます",
            ),
            CountMissing => lang.pick(
                "a keep or drop needs its count right after it",
                "キープ・ドロップの直後に個数が必要です",
            ),
            CommentBeforeSemicolon => lang.pick(
                "only the last roll can have a comment; give the others a label",
                "コメントを付けられるのは最後のロールだけです。他のロールにはラベルを付けてください",
            ),
            FudgeModifier => lang.pick(
                "Fate dice (`dF`) take no modifiers",
                "Fateダイス（`dF`）に修飾子は付けられません",
            ),
            SidesMissing => lang.pick(
                "a die needs its number of sides after `d` (`d6`, `d20`, `d%`)",
                "`d` の後にダイスの面数が必要です（`d6`・`d20`・`d%`）",
            ),
            CthulhuCheck => lang.pick(
                "Call of Cthulhu's `CC` / `CCB` checks (BCDice) are not read by the generic /roll; roll the d100 against the skill",
                "クトゥルフ神話TRPGの `CC`・`CCB`（BCDice）は汎用の /roll では読めません。技能値に対して1D100を振ってください",
            ),
            RerollAndAdd => lang.pick(
                "`ra` adds a die here only on the highest face (`ra6` on a d6) or above a number (`ra>4`); `eN` adds one on N or more",
                "`ra` で1個振り足せるのは最大の出目（d6なら `ra6`）か、ある数より上（`ra>4`）のときだけです。`eN` はN以上で1個振り足します",
            ),
            CommandWord => lang.pick(
                "type only the roll: the command is already /roll",
                "ロールだけを入力してください（コマンドはすでに /roll です）",
            ),
            FlagAfterRoll => lang.pick(
                "the flags `p`, `s`, `nr` and `ul` go before the roll",
                "フラグ `p`・`s`・`nr`・`ul` はロールの前に書きます",
            ),
        }
    }
}

/// Why a roll was refused. Every `at` is a 1-based character position in the input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error("empty roll")]
    Empty,
    #[error("the roll is {len} characters long; at most {max} are allowed")]
    InputTooLong { len: usize, max: usize },
    #[error("at position {at}: found {found:?}, expected {expected:?}")]
    Unexpected {
        at: usize,
        found: String,
        expected: Expected,
    },
    #[error("at position {at}: number larger than {max}")]
    NumberTooLarge { at: usize, max: u64 },
    #[error("at position {at}: a group needs at least one die")]
    ZeroDice { at: usize },
    #[error("at position {at}: a die needs 1 to {max} sides, not {sides}")]
    SidesOutOfRange { at: usize, sides: u64, max: u32 },
    #[error("this roll could need {worst} dice (explosions and rerolls included); at most {max} are allowed")]
    TooManyDice { worst: u64, max: usize },
    #[error("{count} rolls joined by `;`; at most {max} are allowed")]
    TooManyRolls { count: usize, max: usize },
    #[error("at position {at}: {sets} sets; between {min} and {max} are allowed")]
    SetsOutOfRange {
        at: usize,
        sets: u64,
        min: u32,
        max: u32,
    },
    #[error("at position {at}: repeat {count} times; between 1 and {max} are allowed")]
    RepeatOutOfRange { at: usize, count: u64, max: u32 },
    #[error("at position {at}: repeats and sets cannot be nested")]
    NestedRepeat { at: usize },
    #[error("at position {at}: {count} choices; at most {max} are allowed")]
    TooManyChoices { at: usize, count: usize, max: usize },
    #[error("at position {at}: empty choice")]
    EmptyChoice { at: usize },
    #[error("at position {at}: cannot pick {pick} of {items} choices")]
    PickOutOfRange { at: usize, pick: u64, items: usize },
    #[error("at position {at}: nested deeper than {max} levels")]
    TooDeep { at: usize, max: usize },
    #[error("at position {at}: more than {max} terms")]
    TooManyTerms { at: usize, max: usize },
    #[error("at position {at}: modifier `{modifier}` given twice")]
    DuplicateModifier { at: usize, modifier: &'static str },
    #[error("at position {at}: `{modifier}` cannot be combined with `{other}`")]
    ConflictingModifiers {
        at: usize,
        modifier: &'static str,
        other: &'static str,
    },
    #[error("at position {at}: `{modifier}{value}` does not fit a d{sides}")]
    ThresholdOutOfRange {
        at: usize,
        modifier: &'static str,
        value: u64,
        sides: u32,
    },
    #[error("at position {at}: `{modifier}{n}` needs 1 to {max} with {dice} dice")]
    KeepOutOfRange {
        at: usize,
        modifier: &'static str,
        n: u64,
        dice: u32,
        max: u32,
    },
    #[error("at position {at}: `{modifier}` would go on forever: every face meets it")]
    EndlessChain { at: usize, modifier: &'static str },
    #[error("at position {at}: a dice count in parentheses cannot contain dice")]
    DiceCountNotConstant { at: usize },
    #[error("at position {at}: division by zero")]
    DivisionByZero { at: usize },
    #[error("at position {at}: the result is too large")]
    Overflow { at: usize },
    #[error("at position {at}: {hint:?}; did you mean `{suggestion}`?")]
    DidYouMean {
        at: usize,
        hint: Hint,
        suggestion: String,
    },
    /// `1d20+dex`: a word where a number goes.
    #[error("at position {at}: `{word}` is not a number")]
    NotANumber { at: usize, word: String },
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl NotationError {
    /// The same error placed at `at`: an alias's expansion is parsed on its own, and its errors
    /// belong where the alias was typed.
    pub(crate) fn relocated(self, to: usize) -> Self {
        use NotationError::*;
        match self {
            Unexpected { found, expected, .. } => Unexpected {
                at: to,
                found,
                expected,
            },
            NumberTooLarge { max, .. } => NumberTooLarge { at: to, max },
            ZeroDice { .. } => ZeroDice { at: to },
            SidesOutOfRange { sides, max, .. } => SidesOutOfRange { at: to, sides, max },
            ThresholdOutOfRange {
                modifier,
                value,
                sides,
                ..
            } => ThresholdOutOfRange {
                at: to,
                modifier,
                value,
                sides,
            },
            KeepOutOfRange {
                modifier,
                n,
                dice,
                max,
                ..
            } => KeepOutOfRange {
                at: to,
                modifier,
                n,
                dice,
                max,
            },
            EndlessChain { modifier, .. } => EndlessChain { at: to, modifier },
            TooManyTerms { max, .. } => TooManyTerms { at: to, max },
            TooDeep { max, .. } => TooDeep { at: to, max },
            other => other,
        }
    }
}

impl Localized for NotationError {
    fn localized(&self, lang: Lang) -> String {
        use NotationError::*;
        let ja = lang == Lang::Ja;
        match self {
            Empty => lang
                .pick(
                    "The roll is empty: type dice such as `2d6`.",
                    "ダイス式が空です。`2d6` のように入力してください。",
                )
                .into(),
            InputTooLong { len, max } if ja => format!("ダイス式が長すぎます（{len}文字、上限{max}文字）。"),
            InputTooLong { len, max } => format!("The roll is too long: {len} characters, at most {max}."),
            Unexpected { at, found, expected } => {
                let what = expected.text(lang);
                // Japanese puts a space between inline code and its particle (`(` が), as
                // everywhere else in these messages.
                let what = if ja && what.ends_with('`') {
                    format!("{what} ")
                } else {
                    what.to_string()
                };
                match (found.is_empty(), ja) {
                    (true, false) => {
                        format!("At position {at}: the roll ends here, but {what} was expected.")
                    }
                    (false, false) => format!("At position {at}: found `{found}`, but {what} was expected."),
                    (true, true) => format!("{at}文字目: 式が終わっていますが、{what}が必要です。"),
                    (false, true) => format!("{at}文字目: `{found}` は読めません。{what}が必要です。"),
                }
            }
            NumberTooLarge { at, max } if ja => format!("{at}文字目: 数が大きすぎます（上限{max}）。"),
            NumberTooLarge { at, max } => format!("At position {at}: the number is larger than {max}."),
            ZeroDice { at } if ja => format!("{at}文字目: ダイスは1個以上必要です。"),
            ZeroDice { at } => format!("At position {at}: a dice group needs at least one die."),
            SidesOutOfRange { at, sides, max } if ja => {
                format!("{at}文字目: ダイスの面数は1〜{max}です（{sides}面は振れません）。")
            }
            SidesOutOfRange { at, sides, max } => {
                format!("At position {at}: a die needs between 1 and {max} sides, not {sides}.")
            }
            TooManyDice { worst, max } if ja => format!(
                "このロールは振り足し込みで最大{worst}個のダイスが必要です。1回のコマンドは{max}個までです。"
            ),
            TooManyDice { worst, max } => format!(
                "This roll could need {worst} dice (explosions and rerolls included); one command may roll at most {max}."
            ),
            TooManyRolls { count, max } if ja => {
                format!("`;` で区切ったロールが{count}個あります。{max}個までです。")
            }
            TooManyRolls { count, max } => {
                format!("There are {count} rolls joined by `;`; at most {max} are allowed.")
            }
            SetsOutOfRange { at, sets, min, max } if ja => {
                format!("{at}文字目: セット数は{min}〜{max}です（{sets}は使えません）。")
            }
            SetsOutOfRange { at, sets, min, max } => {
                format!("At position {at}: {sets} sets; the number of sets must be {min} to {max}.")
            }
            RepeatOutOfRange { at, count, max } if ja => {
                format!("{at}文字目: 繰り返し回数は1〜{max}です（{count}は使えません）。")
            }
            RepeatOutOfRange { at, count, max } => {
                format!("At position {at}: repeat {count} times; the count must be 1 to {max}.")
            }
            NestedRepeat { at } if ja => format!("{at}文字目: 繰り返しやセットは入れ子にできません。"),
            NestedRepeat { at } => format!("At position {at}: repeats and sets cannot be nested."),
            TooManyChoices { at, count, max } if ja => {
                format!("{at}文字目: 選択肢が{count}個あります。{max}個までです。")
            }
            TooManyChoices { at, count, max } => {
                format!("At position {at}: {count} choices; at most {max} are allowed.")
            }
            EmptyChoice { at } if ja => format!("{at}文字目: 空の選択肢があります。"),
            EmptyChoice { at } => format!("At position {at}: a choice is empty."),
            PickOutOfRange { at, pick, items } if ja => {
                format!("{at}文字目: {items}個の選択肢から{pick}個は選べません（重複なし）。")
            }
            PickOutOfRange { at, pick, items } => format!(
                "At position {at}: cannot pick {pick} of {items} choices without repeats (pick 1 to {items})."
            ),
            TooDeep { at, max } if ja => format!("{at}文字目: 括弧や符号の入れ子は{max}段までです。"),
            TooDeep { at, max } => {
                format!("At position {at}: parentheses and signs nest at most {max} deep.")
            }
            TooManyTerms { at, max } if ja => format!("{at}文字目: 項は{max}個までです。"),
            TooManyTerms { at, max } => {
                format!("At position {at}: an expression may have at most {max} terms.")
            }
            DuplicateModifier { at, modifier } if ja => {
                format!("{at}文字目: 修飾子 `{modifier}` が2回指定されています。")
            }
            DuplicateModifier { at, modifier } => {
                format!("At position {at}: the modifier `{modifier}` is given twice.")
            }
            ConflictingModifiers { at, modifier, other } if ja => {
                format!("{at}文字目: `{modifier}` と `{other}` は同時に使えません。")
            }
            ConflictingModifiers { at, modifier, other } => {
                format!("At position {at}: `{modifier}` cannot be combined with `{other}`.")
            }
            ThresholdOutOfRange {
                at,
                modifier,
                value,
                sides,
            } if ja => {
                format!("{at}文字目: `{modifier}{value}` はd{sides}には使えません（1〜{sides}）。")
            }
            ThresholdOutOfRange {
                at,
                modifier,
                value,
                sides,
            } => format!("At position {at}: `{modifier}{value}` does not fit a d{sides}; use 1 to {sides}."),
            KeepOutOfRange {
                at,
                modifier,
                n,
                dice,
                max,
            } if ja => format!("{at}文字目: `{modifier}{n}` は{dice}個のダイスには使えません（1〜{max}）。"),
            KeepOutOfRange {
                at,
                modifier,
                n,
                dice,
                max,
            } => format!("At position {at}: `{modifier}{n}` does not fit {dice} dice; use 1 to {max}."),
            EndlessChain { at, modifier } if ja => {
                format!("{at}文字目: `{modifier}` はどの出目でも条件を満たすため、終わりません。")
            }
            EndlessChain { at, modifier } => {
                format!("At position {at}: `{modifier}` would never stop, because every face meets it.")
            }
            DiceCountNotConstant { at } if ja => {
                format!("{at}文字目: 括弧で書くダイスの個数にダイスは使えません。")
            }
            DiceCountNotConstant { at } => {
                format!("At position {at}: a dice count in parentheses cannot contain dice.")
            }
            DivisionByZero { at } if ja => format!("{at}文字目: 0で割ることはできません。"),
            DivisionByZero { at } => format!("At position {at}: division by zero."),
            Overflow { at } if ja => format!("{at}文字目: 計算結果が大きすぎます。"),
            Overflow { at } => format!("At position {at}: the result is too large to compute."),
            DidYouMean { at, hint, suggestion } if ja => {
                format!(
                    "{at}文字目: {}。`{suggestion}` ではありませんか？",
                    hint.text(lang)
                )
            }
            DidYouMean { at, hint, suggestion } => {
                format!(
                    "At position {at}: {}. Did you mean `{suggestion}`?",
                    hint.text(lang)
                )
            }
            NotANumber { at, word } if ja => format!(
                "{at}文字目: `{word}` は数ではありません。/roll はシートの値を読みません。数を入力してください。"
            ),
            NotANumber { at, word } => format!(
                "At position {at}: `{word}` is not a number: sheet values are not read by /roll; type the number."
            ),
            Dice(e) => e.localized(lang),
        }
    }
}

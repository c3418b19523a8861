//! Character cursor shared by the parsers. It reads a normalized copy of the input (full-width
//! ASCII folded to ASCII, as Japanese keyboards type `２Ｄ６`), one char per input char, so every
//! position still points at what the user typed; text the user wrote (labels, choices) is taken
//! from the original.

use super::error::{Expected, NotationError};
use super::limits::MAX_NUMBER;

pub(crate) struct Source {
    pub orig: Vec<char>,
    pub norm: Vec<char>,
}

impl Source {
    pub fn new(input: &str) -> Self {
        let orig: Vec<char> = input.chars().collect();
        let norm = orig.iter().map(|&c| normalize(c)).collect();
        Source { orig, norm }
    }

    /// Original text of `start..end`, trimmed.
    pub fn text(&self, start: usize, end: usize) -> String {
        self.orig
            .get(start..end)
            .map(|s| s.iter().collect::<String>())
            .unwrap_or_default()
            .trim()
            .to_string()
    }

    /// The whole input, trimmed, with `from..to` replaced by `with`: a corrected roll to suggest.
    pub fn edited(&self, from: usize, to: usize, with: &str) -> String {
        let part = |r: std::ops::Range<usize>| -> String {
            self.orig.get(r).map(|s| s.iter().collect()).unwrap_or_default()
        };
        let from = from.min(self.orig.len());
        let to = to.clamp(from, self.orig.len());
        format!("{}{with}{}", part(0..from), part(to..self.orig.len()))
            .trim()
            .to_string()
    }
}

fn normalize(c: char) -> char {
    crate::i18n::fold_width_char(c)
}

#[derive(Clone)]
pub(crate) struct Cursor<'a> {
    pub src: &'a Source,
    pub pos: usize,
    pub end: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(src: &'a Source, start: usize, end: usize) -> Self {
        Cursor {
            src,
            pos: start,
            end: end.min(src.norm.len()),
        }
    }

    pub fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    pub fn peek_at(&self, k: usize) -> Option<char> {
        let i = self.pos.checked_add(k)?;
        if i < self.end {
            self.src.norm.get(i).copied()
        } else {
            None
        }
    }

    pub fn peek_lower(&self) -> Option<char> {
        self.peek().map(|c| c.to_ascii_lowercase())
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.end
    }

    pub fn bump(&mut self) {
        if self.pos < self.end {
            self.pos += 1;
        }
    }

    /// 1-based position of the current character (one past the end at the end).
    pub fn at(&self) -> usize {
        self.pos + 1
    }

    pub fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    pub fn starts_with_ci(&self, word: &str) -> bool {
        word.chars()
            .enumerate()
            .all(|(k, w)| self.peek_at(k).is_some_and(|c| c.eq_ignore_ascii_case(&w)))
    }

    pub fn eat_ci(&mut self, word: &str) -> bool {
        if self.starts_with_ci(word) {
            self.pos += word.chars().count();
            true
        } else {
            false
        }
    }

    pub fn eat(&mut self, c: char) -> bool {
        if self.peek().is_some_and(|p| p.eq_ignore_ascii_case(&c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub fn is_digit_at(&self, k: usize) -> bool {
        self.peek_at(k).is_some_and(|c| c.is_ascii_digit())
    }

    /// An unsigned decimal literal, at most [`MAX_NUMBER`].
    pub fn number(&mut self) -> Result<Option<u64>, NotationError> {
        let start = self.at();
        let mut n: u64 = 0;
        let mut any = false;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            any = true;
            n = n.saturating_mul(10).saturating_add(u64::from(d));
            self.pos += 1;
        }
        if n > MAX_NUMBER {
            return Err(NotationError::NumberTooLarge {
                at: start,
                max: MAX_NUMBER,
            });
        }
        Ok(any.then_some(n))
    }

    pub fn expect_number(&mut self) -> Result<u64, NotationError> {
        self.number()?.ok_or_else(|| self.unexpected(Expected::Number))
    }

    pub fn unexpected(&self, expected: Expected) -> NotationError {
        let found = self
            .peek()
            .and_then(|_| self.src.orig.get(self.pos))
            .map(|c| c.to_string());
        NotationError::Unexpected {
            at: self.at(),
            found: found.unwrap_or_default(),
            expected,
        }
    }

    pub fn expect_end(&self) -> Result<(), NotationError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.unexpected(Expected::End))
        }
    }
}

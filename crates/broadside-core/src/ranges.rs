//! The documented range of every number and dice expression in rule data.
//!
//! A rule system lists its data ranges once, as a table of [`DataRange`]s,
//! and both its validation and its documentation read that table: the
//! validator checks each value with [`DataProblems::check`] or
//! [`DataProblems::check_dice`], and [`ranges_markdown`] renders the rows a
//! rules document lists, so a test can hold the two together.
//!
//! Messages give the line of a faulty key when the rule system, which knows
//! its file format, can find it ([`KeyLines`]).
//!
//! Bounding every value at load keeps the rules' arithmetic on data far from
//! the integer limits, so that arithmetic needs no overflow checks of its own.

use std::fmt;

use crate::dice::{DiceExpr, Die, Pool};
use crate::error::DataProblems;

/// What a value read from data may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// A whole number from `min` to `max`, both included.
    Number {
        /// The least value allowed.
        min: i64,
        /// The greatest value allowed.
        max: i64,
    },
    /// A dice expression `NdS+B` of at most [`Pool::CAPACITY`] dice of at
    /// most [`DataRange::MAX_SIDES`] sides, whose highest total
    /// (`N × S + B`) is from `min_high` to `max_high`: at least 1, so the
    /// bonus cannot cancel every roll.
    Dice {
        /// The least the highest total may be.
        min_high: i64,
        /// The most the highest total may be.
        max_high: i64,
    },
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Bound::Number { min, max } => write!(f, "{min}..={max}"),
            Bound::Dice { min_high, max_high } => {
                write!(f, "dice, highest total {min_high}..={max_high}")
            }
        }
    }
}

/// The documented range of one key of a ruleset file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataRange {
    /// The file the key is in (`weapons.toml`).
    pub file: &'static str,
    /// The key, with `<...>` standing for a part the data names
    /// (`<weapon>.dtm`).
    pub key: &'static str,
    /// What the value may be.
    pub bound: Bound,
    /// Why the rules make that range sensible.
    pub why: &'static str,
}

impl DataRange {
    /// The most sides a die of a dice expression may have: the largest die
    /// any rule system rolls is a d100.
    pub const MAX_SIDES: u32 = 100;

    /// A whole number from `min` to `max`.
    pub const fn number(
        file: &'static str,
        key: &'static str,
        min: i64,
        max: i64,
        why: &'static str,
    ) -> DataRange {
        DataRange {
            file,
            key,
            bound: Bound::Number { min, max },
            why,
        }
    }

    /// A dice expression whose highest total is from `min_high` to
    /// `max_high`.
    pub const fn dice(
        file: &'static str,
        key: &'static str,
        min_high: i64,
        max_high: i64,
        why: &'static str,
    ) -> DataRange {
        DataRange {
            file,
            key,
            bound: Bound::Dice { min_high, max_high },
            why,
        }
    }

    /// Whether `value` is within a number range (never, for a dice range).
    pub fn allows(&self, value: i64) -> bool {
        match self.bound {
            Bound::Number { min, max } => (min..=max).contains(&value),
            Bound::Dice { .. } => false,
        }
    }

    /// Why `expr` is outside a dice range, or `None` when it is within.
    pub fn dice_fault(&self, expr: &DiceExpr) -> Option<String> {
        let Bound::Dice { min_high, max_high } = self.bound else {
            return Some("a number is expected, not dice".into());
        };
        if expr.count as usize > Pool::CAPACITY {
            return Some(format!(
                "'{expr}' rolls {} dice: at most {} may be rolled at once",
                expr.count,
                Pool::CAPACITY
            ));
        }
        if expr.die.sides() > DataRange::MAX_SIDES {
            return Some(format!(
                "'{expr}': a die has at most {} sides",
                DataRange::MAX_SIDES
            ));
        }
        let high = i64::from(expr.count) * i64::from(expr.die.sides()) + i64::from(expr.bonus);
        (!(min_high..=max_high).contains(&high)).then(|| {
            format!("'{expr}' can total at most {high}: its highest total must be in {min_high}..={max_high}")
        })
    }
}

impl DataProblems {
    /// Checks a number against its documented range, recording a problem
    /// that names the file, the line when `lines` finds it, the key, the
    /// allowed range and why; returns the value clamped into the range, so
    /// validation can go on.
    pub fn check(&mut self, range: &DataRange, lines: &dyn KeyLines, key: &str, value: i64) -> i64 {
        let Bound::Number { min, max } = range.bound else {
            // Our mistake, not the data's, but reported rather than passed.
            self.push(range.file, key, "a dice range checked as a number");
            return value;
        };
        if !range.allows(value) {
            self.push(
                range.file,
                key,
                format!(
                    "{}{value} is outside {min}..={max} ({})",
                    line_prefix(lines, key),
                    range.why
                ),
            );
        }
        value.clamp(min, max)
    }

    /// Reads a dice expression and checks it against its documented range,
    /// recording a problem as [`DataProblems::check`] does; a faulty
    /// expression is replaced by `fallback` so validation can go on.
    pub fn check_dice(
        &mut self,
        range: &DataRange,
        lines: &dyn KeyLines,
        key: &str,
        value: &str,
        fallback: DiceExpr,
    ) -> DiceExpr {
        let fault = match value.parse::<DiceExpr>() {
            Err(message) => message,
            Ok(expr) => match range.dice_fault(&expr) {
                None => return expr,
                Some(fault) => fault,
            },
        };
        self.push(
            range.file,
            key,
            format!("{}{fault} ({})", line_prefix(lines, key), range.why),
        );
        fallback
    }

    /// Records one problem of a key, its message led by the key's line when
    /// `lines` finds it, as a range problem's is.
    pub fn push_at(
        &mut self,
        file: &str,
        lines: &dyn KeyLines,
        key: impl Into<String>,
        message: impl Into<String>,
    ) {
        let key = key.into();
        let message = format!("{}{}", line_prefix(lines, &key), message.into());
        self.push(file, key, message);
    }
}

/// `line N: ` for a key `lines` can find, or nothing.
fn line_prefix(lines: &dyn KeyLines, key: &str) -> String {
    lines
        .line_of(key)
        .map(|line| format!("line {line}: "))
        .unwrap_or_default()
}

/// Finds the line of a data file that sets a key, for messages.
///
/// Core knows no file format, so each rule system says how its files set a
/// key; `()` finds nothing.
pub trait KeyLines {
    /// The 1-based line that sets the dotted `key`, if it can be found.
    fn line_of(&self, key: &str) -> Option<usize>;
}

impl KeyLines for () {
    fn line_of(&self, _key: &str) -> Option<usize> {
        None
    }
}

/// The rows of a rules document's "Data ranges" table for `ranges`, one a
/// line: `| file | key | range | why |`.
pub fn ranges_markdown(ranges: &[DataRange]) -> String {
    let mut out = String::from("| file | key | range | why |\n| --- | --- | --- | --- |\n");
    for range in ranges {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} |\n",
            range.file, range.key, range.bound, range.why
        ));
    }
    out
}

/// A stand-in for a faulty dice expression, so validation can go on.
pub const FALLBACK_DICE: DiceExpr = DiceExpr {
    count: 1,
    die: Die::D6,
    bonus: 0,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Finds `laser-cannon.dtm` on line 6 and nothing else.
    struct OneKey;

    impl KeyLines for OneKey {
        fn line_of(&self, key: &str) -> Option<usize> {
            (key == "laser-cannon.dtm").then_some(6)
        }
    }

    const RANGE: DataRange = DataRange::number("w.toml", "<weapon>.dtm", -100, 100, "a DTM");
    const DICE: DataRange = DataRange::dice("w.toml", "<weapon>.damage", 1, 1000, "damage");

    /// Checks `value` against RANGE and returns the messages recorded.
    fn check_number(value: i64, clamped: i64) -> Vec<String> {
        let mut problems = DataProblems::default();
        assert_eq!(
            problems.check(&RANGE, &OneKey, "laser-cannon.dtm", value),
            clamped
        );
        match problems.finish(()) {
            Ok(()) => Vec::new(),
            Err(errors) => errors.0.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn a_number_is_checked_at_both_bounds() {
        assert!(check_number(-100, -100).is_empty());
        assert!(check_number(100, 100).is_empty());
        assert_eq!(
            check_number(-101, -100),
            ["w.toml: laser-cannon.dtm: line 6: -101 is outside -100..=100 (a DTM)"]
        );
        assert_eq!(check_number(i64::MIN, -100).len(), 1);
        assert_eq!(check_number(i64::MAX, 100).len(), 1);
    }

    fn check_dice_text(text: &str, accepted: bool) {
        let mut problems = DataProblems::default();
        let expr = problems.check_dice(&DICE, &(), "x.damage", text, FALLBACK_DICE);
        assert_eq!(problems.is_empty(), accepted, "{text}");
        if accepted {
            assert_eq!(expr.to_string(), text);
        }
    }

    #[test]
    fn dice_must_be_able_to_total_1_and_no_more_than_the_bound() {
        check_dice_text("1d6-5", true);
        check_dice_text("1d6-6", false);
        check_dice_text("1d6-100", false);
        check_dice_text("10d100", true);
        check_dice_text("10d100+1", false);
        check_dice_text("1d101", false);
        check_dice_text("1d6+999999999", false);
        check_dice_text("0d6", false);
    }

    #[test]
    fn the_markdown_table_lists_each_range() {
        assert_eq!(
            ranges_markdown(&[RANGE, DICE]),
            "| file | key | range | why |\n| --- | --- | --- | --- |\n\
             | w.toml | `<weapon>.dtm` | -100..=100 | a DTM |\n\
             | w.toml | `<weapon>.damage` | dice, highest total 1..=1000 | damage |\n"
        );
    }
}

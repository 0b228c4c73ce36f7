//! The documented range of every number and dice expression in rule data.
//!
//! A rule system lists its data ranges once, as a table of [`DataRange`]s,
//! and both its validation and its documentation read that table: the
//! validator checks each value with [`DataProblems::check`] or
//! [`DataProblems::check_dice`], and [`ranges_markdown`] renders the rows a
//! rules document lists, so a test can hold the two together.
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
    /// that names the file, the line when `text` shows it, the key, the
    /// allowed range and why; returns the value clamped into the range, so
    /// validation can go on.
    pub fn check(&mut self, range: &DataRange, text: &str, key: &str, value: i64) -> i64 {
        let Bound::Number { min, max } = range.bound else {
            self.push(range.file, key, "a dice range checked as a number");
            return value;
        };
        if !range.allows(value) {
            self.push(
                range.file,
                key,
                format!(
                    "{}{value} is outside {min}..={max} ({})",
                    line_prefix(text, key),
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
        text: &str,
        key: &str,
        value: &str,
        fallback: DiceExpr,
    ) -> DiceExpr {
        let fault = match value.parse::<DiceExpr>() {
            Err(message) => Some(message),
            Ok(expr) => match range.dice_fault(&expr) {
                None => return expr,
                Some(fault) => Some(fault),
            },
        };
        if let Some(fault) = fault {
            self.push(
                range.file,
                key,
                format!("{}{fault} ({})", line_prefix(text, key), range.why),
            );
        }
        fallback
    }
}

/// `line N: ` for a key found in `text`, or nothing.
fn line_prefix(text: &str, key: &str) -> String {
    key_line(text, key)
        .map(|line| format!("line {line}: "))
        .unwrap_or_default()
}

/// The 1-based line of TOML `text` that sets the dotted `key`
/// (`laser-cannon.dtm`, `target-lock.die`, `row[3].rolls`), found by a
/// plain search rather than a parse: the key's table header (`[laser-cannon]`,
/// the fourth `[[row]]`), then the first line of that table that starts
/// with the field's name. Parts after the field (`effect.multiplier` of
/// `effect = { … }`) are taken to be on the field's line; an element of an
/// array (`rows[2].roll`) is not looked for. `None` when the search fails.
pub fn key_line(text: &str, key: &str) -> Option<usize> {
    let parts: Vec<&str> = key.split('.').collect();
    // The longest header that exists wins: `[damage]` then `magazine-warheads`
    // rather than a top-level `damage`.
    for split in (0..parts.len()).rev() {
        let (header, rest) = parts.split_at(split);
        let Some(field) = rest.first() else { continue };
        let Some((start, end)) = table_lines(text, header) else {
            continue;
        };
        let (name, index) = split_index(field);
        if index.is_some() && rest.len() > 1 {
            return None;
        }
        let found = text
            .lines()
            .enumerate()
            .take(end)
            .skip(start)
            .find(|(_, line)| sets(line, name))
            .map(|(i, _)| i + 1);
        if found.is_some() {
            return found;
        }
        if !header.is_empty() {
            // The table exists but not the field: its header is the place.
            return Some(start);
        }
    }
    None
}

/// `rows[2]` as `("rows", Some(2))`; `dtm` as `("dtm", None)`.
fn split_index(part: &str) -> (&str, Option<usize>) {
    match part.strip_suffix(']').and_then(|p| p.split_once('[')) {
        Some((name, index)) => (name, index.parse().ok()),
        None => (part, None),
    }
}

/// Whether `line` sets the key `name` (`name = …`).
fn sets(line: &str, name: &str) -> bool {
    line.trim_start()
        .strip_prefix(name)
        .is_some_and(|rest| rest.trim_start().starts_with('='))
}

/// The lines of the table named by `header` (every part but the last a
/// plain table, the last maybe `row[3]`, the fourth of an array of tables):
/// from the line after its header up to the next header, as 0-based line
/// indices `start..end`. An empty header is the top level, before any header.
fn table_lines(text: &str, header: &[&str]) -> Option<(usize, usize)> {
    let is_header = |line: &str| line.trim_start().starts_with('[');
    let lines: Vec<&str> = text.lines().collect();
    let start = if header.is_empty() {
        0
    } else {
        let (last, index) = split_index(header[header.len() - 1]);
        let mut name: Vec<&str> = header[..header.len() - 1].to_vec();
        name.push(last);
        let name = name.join(".");
        let wanted = match index {
            None => format!("[{name}]"),
            Some(_) => format!("[[{name}]]"),
        };
        let nth = index.unwrap_or(0);
        lines
            .iter()
            .enumerate()
            .filter(|(_, line)| {
                line.split('#')
                    .next()
                    .is_some_and(|code| code.trim() == wanted)
            })
            .nth(nth)?
            .0
            + 1
    };
    let end = lines
        .iter()
        .enumerate()
        .skip(start)
        .find(|(_, line)| is_header(line))
        .map_or(lines.len(), |(i, _)| i);
    Some((start, end))
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

    const TEXT: &str = "\
# a comment
head-on = 10

[laser-cannon]   # the first weapon
name = \"Laser Cannon\"
dtm = 0

[target-lock]
die = 10

[[row]]
rolls = [1, 2]

[[row]]
rolls = [3, 4]
effect = { kind = \"hull\", multiplier = 2 }
";

    fn check_line(key: &str, line: Option<usize>) {
        assert_eq!(key_line(TEXT, key), line, "{key}");
    }

    #[test]
    fn a_key_is_found_under_its_table_header() {
        check_line("head-on", Some(2));
        check_line("laser-cannon.dtm", Some(6));
        check_line("target-lock.die", Some(9));
        check_line("row[1].rolls", Some(15));
        check_line("row[1].effect.multiplier", Some(16));
        // A missing field points at its table; a missing table at nothing.
        check_line("laser-cannon.range", Some(4));
        check_line("frigate.hull", None);
        check_line("row[1].rolls[0].x", None);
    }

    const RANGE: DataRange = DataRange::number("w.toml", "<weapon>.dtm", -100, 100, "a DTM");
    const DICE: DataRange = DataRange::dice("w.toml", "<weapon>.damage", 1, 1000, "damage");

    /// Checks `value` against RANGE and returns the messages recorded.
    fn check_number(value: i64, clamped: i64) -> Vec<String> {
        let mut problems = DataProblems::default();
        assert_eq!(
            problems.check(&RANGE, TEXT, "laser-cannon.dtm", value),
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
        let expr = problems.check_dice(&DICE, "", "x.damage", text, FALLBACK_DICE);
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

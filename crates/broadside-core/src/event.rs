//! Structured events: what resolution did, in order, as data.
//!
//! The `--explain` log, the JSON `events` array and the snapshot tests are all
//! renderings of the same events. Rules code emits them through an
//! [`EventSink`]; a Monte Carlo run passes [`NullSink`], and because events are
//! built inside a closure that a disabled sink never calls, the hot loop
//! neither formats nor allocates.

use std::fmt;

use serde::Serialize;

/// One thing that happened during resolution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// A new game turn or phase begins.
    Phase {
        /// Game turn, from 1.
        turn: u32,
        /// The phase's name in the rules.
        name: String,
    },
    /// A side declared an action (an attack, a move, a launch).
    Declared {
        /// Who acts.
        actor: String,
        /// What they do, in the rules' words.
        action: String,
    },
    /// A number the rules start from (a table cell, a skill, a chance).
    Base {
        /// What the number is.
        what: String,
        /// Its value.
        value: i32,
        /// Where it came from (table and cell, rule).
        source: String,
    },
    /// A modifier added to a number.
    Modifier {
        /// The number being modified.
        to: String,
        /// The signed amount.
        amount: i32,
        /// Why the rules apply it.
        reason: String,
    },
    /// Dice were rolled.
    Roll {
        /// Why they were rolled.
        purpose: String,
        /// The dice, like `d100` or `4d10`.
        dice: String,
        /// Each face, in rolled order.
        faces: Vec<u32>,
        /// The total after any modifier stated in `purpose`.
        total: i32,
    },
    /// A roll was compared with a number.
    Check {
        /// What was checked.
        what: String,
        /// The roll.
        roll: i32,
        /// The number it was compared with.
        target: i32,
        /// Whether it succeeded.
        success: bool,
        /// The rule that decided, when not the plain comparison.
        rule: Option<String>,
    },
    /// A table was read.
    TableRow {
        /// The table.
        table: String,
        /// The (modified) roll used to find the row.
        roll: i32,
        /// The row found.
        row: String,
    },
    /// The state of a ship changed.
    Effect {
        /// The ship affected.
        ship: String,
        /// What happened to it.
        effect: String,
    },
    /// A rule replaced one result with another (a fall-back).
    Ruling {
        /// What the rules said and why it changed.
        text: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Phase { turn, name } => write!(f, "turn {turn}: {name}"),
            Event::Declared { actor, action } => write!(f, "{actor} {action}"),
            Event::Base {
                what,
                value,
                source,
            } => write!(f, "{what} is {value} ({source})"),
            Event::Modifier { to, amount, reason } => write!(f, "{amount:+} to {to}: {reason}"),
            Event::Roll {
                purpose,
                dice,
                faces,
                total,
            } => {
                let shown: Vec<String> = faces.iter().map(u32::to_string).collect();
                if faces.len() == 1 && i64::from(faces[0]) == i64::from(*total) {
                    write!(f, "{purpose}: rolled {dice} = {total}")
                } else {
                    write!(
                        f,
                        "{purpose}: rolled {dice} [{}] = {total}",
                        shown.join(", ")
                    )
                }
            }
            Event::Check {
                what,
                roll,
                target,
                success,
                rule,
            } => {
                let verdict = if *success { "succeeds" } else { "fails" };
                write!(f, "{what}: {roll} against {target}, {verdict}")?;
                if let Some(rule) = rule {
                    write!(f, " ({rule})")?;
                }
                Ok(())
            }
            Event::TableRow { table, roll, row } => write!(f, "{table} at {roll}: {row}"),
            Event::Effect { ship, effect } => write!(f, "{ship}: {effect}"),
            Event::Ruling { text } => write!(f, "ruling: {text}"),
        }
    }
}

/// Where events go.
///
/// # Contract for implementors
/// `enabled` must be cheap and must not change during a resolution; when it is
/// false, `push` is never called.
pub trait EventSink {
    /// Whether this sink keeps events at all.
    fn enabled(&self) -> bool;
    /// Keeps one event.
    fn push(&mut self, event: Event);
}

impl dyn EventSink + '_ {
    /// Emits the event `make` builds, building it only if the sink keeps events.
    #[inline]
    pub fn emit(&mut self, make: impl FnOnce() -> Event) {
        Emit::emit(self, make);
    }
}

/// [`EventSink`]'s `emit` for rules code generic over its sink type, so that
/// a hot path given a [`NullSink`] by type builds no event and makes no call
/// at all: `enabled` is known to be false where it is compiled.
pub trait Emit {
    /// Emits the event `make` builds, building it only if the sink keeps events.
    fn emit(&mut self, make: impl FnOnce() -> Event);
}

impl<S: EventSink + ?Sized> Emit for S {
    #[inline]
    fn emit(&mut self, make: impl FnOnce() -> Event) {
        if self.enabled() {
            self.push(make());
        }
    }
}

/// A sink that keeps nothing: the Monte Carlo hot loop's sink.
#[derive(Debug, Clone, Copy, Default)]
pub struct NullSink;

impl EventSink for NullSink {
    #[inline]
    fn enabled(&self) -> bool {
        false
    }
    fn push(&mut self, _event: Event) {}
}

/// A sink that keeps every event, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventLog {
    /// The events kept so far.
    pub events: Vec<Event>,
}

impl EventSink for EventLog {
    fn enabled(&self) -> bool {
        true
    }
    fn push(&mut self, event: Event) {
        self.events.push(event);
    }
}

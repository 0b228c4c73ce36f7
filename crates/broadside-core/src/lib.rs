//! Broadside's core: dice, events, errors and the traits every rule system implements.
//!
//! This crate knows no rule system, no file format and no terminal. A rule
//! system implements [`AttackResolution`], [`DamageAllocation`] and
//! [`TurnSequence`] with its own types, and [`System`] for what only it
//! knows; the plug-in kit ([`kit`]) gives it the object-safe [`Ruleset`]
//! the outside sees. All randomness passes through
//! [`Dice`]; everything resolution does is reported as [`Event`]s.

pub mod board;
pub mod dice;
pub mod error;
pub mod event;
pub mod exact;
pub mod fleet;
pub mod hex;
pub mod kit;
pub mod montecarlo;
pub mod ranges;
pub mod rules;
pub mod ruleset;

pub use board::Board;
pub use dice::{
    Check, Dice, DiceError, DiceExpr, Die, Order, Pool, ScriptedDice, SeededDice, read_pool_as,
};
pub use error::{DataError, DataErrors, DataProblems, ResolveError, did_you_mean, line_at};
pub use event::{Emit, Event, EventLog, EventSink, NullSink};
pub use fleet::{
    Frame, FrameRules, MAX_SIDE, Roster, RosterShip, Setup, parse_side, play_setup, roll_first,
};
pub use kit::{Resolved, System};
pub use montecarlo::{
    Engagement, Loss, Shard, ShipFate, ShipHull, ShipsLost, Summary, Tally, TrialOutcome,
    find_trial, play_trial, run_shard, run_shard_while, run_trials,
};
pub use ranges::{Bound, DataRange, FALLBACK_DICE, KeyLines, ranges_markdown};
pub use rules::{AttackResolution, DamageAllocation, Side, TurnSequence, Verdict, play};
pub use ruleset::{
    AttackOutcome, BattleRequest, OptionKind, OptionSpec, OptionValue, Options, Registration,
    ResolveRequest, Ruleset, Sheet, ShipSheet, SourceFile, TableRowView, TableView,
};

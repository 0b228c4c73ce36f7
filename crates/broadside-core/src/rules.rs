//! The generic rule traits every system implements with its own types.
//!
//! A rule system is three things the seeds all share: an attack that resolves
//! to hit or miss, a damage allocation that turns a hit into changes of the
//! target's state, and a turn sequence of phases that ask each side for
//! decisions and resolve them. Each trait has associated types, so rules code
//! stays typed and monomorphic; the CLI and the runner see a system only
//! through the object-safe [`crate::Ruleset`].

use std::fmt;

use serde::Serialize;

use crate::dice::Dice;
use crate::error::ResolveError;
use crate::event::EventSink;

/// One of the two sides of an engagement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first side named (`duel A B`: A).
    A,
    /// The second side named.
    B,
}

impl Side {
    /// Both sides, A first.
    pub const BOTH: [Side; 2] = [Side::A, Side::B];

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    /// 0 for A, 1 for B.
    pub const fn index(self) -> usize {
        match self {
            Side::A => 0,
            Side::B => 1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "A",
            Side::B => "B",
        })
    }
}

/// Resolves a declared attack to hit or miss, with every roll shown.
///
/// # Contract for implementors
/// - Validate the declaration first: an attack the rules forbid (out of range,
///   a weapon the attacker lacks or has lost) returns
///   [`ResolveError::Refused`] and changes nothing.
/// - Spend what firing spends (limited supplies) whether or not it hits.
/// - Defender reactions that the rules resolve before the roll (ICMs, point
///   defence, dodge) are part of the declaration or asked of the board's
///   tactics; they are resolved here, before the to-hit roll.
/// - Emit a [`crate::Event`] for each base number, modifier, roll and verdict.
pub trait AttackResolution {
    /// What the attack reads and changes: the ships involved and their state.
    type Board;
    /// A declared attack: attacker, weapon, target, and the options the rules
    /// let either side choose.
    type Declaration;
    /// What resolution found: at least whether it hit.
    type Outcome;

    /// Resolves one attack against the board.
    fn resolve_attack(
        &self,
        board: &mut Self::Board,
        attack: &Self::Declaration,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Self::Outcome, ResolveError>;
}

/// Turns a hit into effects on the target's state.
///
/// # Contract for implementors
/// - Apply the rules' fall-backs here (a result the target cannot take becomes
///   the result the rules name instead) and emit an [`crate::Event::Ruling`]
///   saying so.
/// - Never leave the target in a state the rules cannot reach: hull above its
///   original, a system destroyed twice, negative supplies.
pub trait DamageAllocation {
    /// The state that takes the damage (usually one ship).
    type Target;
    /// What landed: weapon, modifiers, anything the damage rules read.
    type Hit;
    /// What the hit did.
    type Applied;

    /// Allocates one hit to the target.
    fn allocate(
        &self,
        hit: &Self::Hit,
        target: &mut Self::Target,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Self::Applied, ResolveError>;
}

/// How an engagement ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case", tag = "verdict", content = "side")]
pub enum Verdict {
    /// One side has a ship left that can fight and the other has none.
    Winner(Side),
    /// Neither side has a ship left that can fight: both destroyed, both
    /// unable ever to harm the other, or both gone together (a mutual escape).
    Draw,
    /// One side left the engagement (a jump, for systems that have one).
    Escaped(Side),
    /// The turn limit came first.
    Undecided,
}

impl Verdict {
    /// The verdict from whether each side still has a ship that can fight:
    /// `None` while both can, a winner when one can, a draw when neither can.
    pub fn from_able(a: bool, b: bool) -> Option<Verdict> {
        match (a, b) {
            (true, true) => None,
            (true, false) => Some(Verdict::Winner(Side::A)),
            (false, true) => Some(Verdict::Winner(Side::B)),
            (false, false) => Some(Verdict::Draw),
        }
    }
}

/// Plays a system's game turns as an ordered list of phases.
///
/// # Contract for implementors
/// - [`TurnSequence::phases`] lists a game turn's phases in order; it may
///   depend on the turn number (a repair turn every third turn) but not on
///   dice.
/// - [`TurnSequence::play_phase`] asks each side's tactics for what the phase
///   needs and resolves it. Phases that act without a decision (drift,
///   gravity, fire damage, missile arrival) are phases like any other.
/// - [`TurnSequence::verdict`] is `None` while the engagement goes on; the
///   runner asks after every phase, so a ship destroyed mid-turn acts no more.
/// - A phase may be split into steps ([`TurnSequence::steps`],
///   [`TurnSequence::play_step`]) so that exact odds can merge equal states
///   between them (one ship's fire, then the next). Playing steps `0..steps`
///   in order must be exactly [`TurnSequence::play_phase`]: the same dice
///   calls, the same events, the same state. Everything a later step needs
///   from an earlier one is therefore in the state.
pub trait TurnSequence {
    /// Everything that changes during an engagement.
    type State;
    /// A phase of the turn.
    type Phase: Copy + fmt::Display;
    /// The system's decision-making trait, as a trait object type
    /// (`dyn PercentileTactics`).
    type Tactics: ?Sized;

    /// The phases of game turn `turn` (from 1), in order.
    fn phases(&self, turn: u32) -> &[Self::Phase];

    /// Plays one phase.
    fn play_phase(
        &self,
        phase: Self::Phase,
        turn: u32,
        state: &mut Self::State,
        tactics: [&Self::Tactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError>;

    /// How the engagement has ended, or `None` while it goes on.
    fn verdict(&self, state: &Self::State) -> Option<Verdict>;

    /// How many steps `phase` of game turn `turn` is played in; one unless
    /// the system splits it. It may not depend on dice or on the state.
    fn steps(&self, phase: Self::Phase, turn: u32) -> u32 {
        let _ = (phase, turn);
        1
    }

    /// Plays step `step` (from 0) of a phase split by
    /// [`TurnSequence::steps`]; a phase of one step is played whole.
    #[allow(clippy::too_many_arguments)]
    fn play_step(
        &self,
        phase: Self::Phase,
        turn: u32,
        step: u32,
        state: &mut Self::State,
        tactics: [&Self::Tactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let _ = step;
        self.play_phase(phase, turn, state, tactics, dice, sink)
    }
}

/// Plays an engagement through its turn sequence until it ends or `max_turns`
/// game turns have been played. Returns the verdict and the turns played.
pub fn play<T: TurnSequence + ?Sized>(
    sequence: &T,
    state: &mut T::State,
    tactics: [&T::Tactics; 2],
    max_turns: u32,
    dice: &mut dyn Dice,
    sink: &mut dyn EventSink,
) -> Result<(Verdict, u32), ResolveError> {
    if let Some(verdict) = sequence.verdict(state) {
        return Ok((verdict, 0));
    }
    for turn in 1..=max_turns {
        for &phase in sequence.phases(turn) {
            sink.emit(|| crate::Event::Phase {
                turn,
                name: phase.to_string(),
            });
            sequence.play_phase(phase, turn, state, tactics, dice, sink)?;
            if let Some(verdict) = sequence.verdict(state) {
                return Ok((verdict, turn));
            }
        }
    }
    Ok((Verdict::Undecided, max_turns))
}

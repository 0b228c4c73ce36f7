//! The state of an engagement between two ships: range band, each side's turn state, salvos in flight.
//!
//! A single attack (`broadside resolve`) is resolved on a battle too, one
//! made fresh for it, so that attacks in a duel and on the command line go
//! through the same code. Everything here is `Clone` without allocation and
//! `Eq + Hash`.

use arrayvec::ArrayVec;
use broadside_core::{ResolveError, Side};

use crate::check::Label;
use crate::model::{Band, ClassId, Position, Rules, WeaponId};
use crate::ship::{MAX_MOUNTS, Ship};

/// The most salvos in flight at once: a salvo a side each round for the
/// longest flight is well below this.
pub const MAX_SALVOS: usize = 32;

/// Where a chained DM for a gunner came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChainSource {
    /// The Pilot's Line Up Shot.
    LineUpShot,
    /// The Sensor Operator's targeting solution.
    TargetingSolution,
}

/// A chained DM waiting for one gunner's attack this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Chain {
    /// The mount whose next attack takes it.
    pub mount: u8,
    /// Which check it came from.
    pub source: ChainSource,
    /// The Effect of that check.
    pub effect: i8,
    /// The DM it passes on.
    pub dm: i8,
}

/// One side's state within a turn, and what it carries to the next.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SideState {
    /// This turn's initiative.
    pub initiative: i32,
    /// Reactions this turn's initiative allows.
    pub reactions: u8,
    /// Reactions taken this turn.
    pub reactions_used: u8,
    /// Thrust for this round, after any overcharge.
    pub thrust: i32,
    /// Thrust not yet spent this round.
    pub thrust_left: i32,
    /// Thrust applied toward (+) or away from (-) the enemy this round.
    pub applied: i32,
    /// DM to next turn's initiative from the Captain's Inspire.
    pub inspire_dm: i32,
    /// DM to next turn's initiative from reactions burned this turn.
    pub burn_penalty: i32,
    /// DM on this turn's Scan and targeting solutions: the enemy's jamming.
    pub jam_sensors: i32,
    /// Jamming done this turn, for next turn.
    pub jam_sensors_next: i32,
    /// DM on this turn's comms checks: the enemy's jamming.
    pub jam_comms: i32,
    /// Comms jamming done this turn, for next turn.
    pub jam_comms_next: i32,
    /// The ship is at a marked jump point (an Alderson point).
    pub at_jump_point: bool,
    /// The jump drive was activated this turn: the ship leaves at its end.
    pub jumping: bool,
    /// The ship has jumped away.
    pub jumped: bool,
    /// Aim actions taken by each mount's gunner, waiting for its next attack.
    pub aim: [u8; MAX_MOUNTS],
    /// Chained DMs for gunners this turn.
    pub chains: ArrayVec<Chain, 4>,
    /// Weapon slots that attacked or made point defence this round, as bits.
    pub used: u16,
    /// Magazines that launched a salvo this round, as bits.
    pub launched: u8,
    /// Positions that have acted in the current phase, as bits
    /// ([`Position::bit`]).
    pub acted: u16,
}

impl SideState {
    fn new() -> SideState {
        SideState {
            initiative: 0,
            reactions: u8::MAX,
            reactions_used: 0,
            thrust: 0,
            thrust_left: 0,
            applied: 0,
            inspire_dm: 0,
            burn_penalty: 0,
            jam_sensors: 0,
            jam_sensors_next: 0,
            jam_comms: 0,
            jam_comms_next: 0,
            at_jump_point: false,
            jumping: false,
            jumped: false,
            aim: [0; MAX_MOUNTS],
            chains: ArrayVec::new(),
            used: 0,
            launched: 0,
            acted: 0,
        }
    }

    /// Reactions left before more must be burned.
    pub fn reactions_left(&self) -> u8 {
        self.reactions.saturating_sub(self.reactions_used)
    }

    /// Reactions taken beyond the allowance this turn.
    pub fn burned(&self) -> u8 {
        self.reactions_used.saturating_sub(self.reactions)
    }
}

/// A salvo of missiles in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Salvo {
    /// The side that launched it; it attacks the other.
    pub owner: Side,
    /// The missile.
    pub weapon: WeaponId,
    /// Missiles in it.
    pub missiles: u8,
    /// Rounds before it attacks (0: in this round's missile step).
    pub rounds_left: u8,
    /// The missiles' TL, or the firing ship's if higher.
    pub tl: i32,
    /// Whether the Smart trait's TL difference DM applies.
    pub smart: bool,
    /// A launcher it left from suffers a Bane: its attack roll takes it.
    pub bane: bool,
    /// Aim and chained DMs of the launching gunner, for a salvo that attacks
    /// in the round it was launched.
    pub dm: i8,
}

/// Everything that changes during an engagement; also the board a single
/// attack is resolved on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Battle {
    /// Side A's ship and side B's.
    pub ships: [Ship; 2],
    /// How events name them.
    pub labels: [Label; 2],
    /// The range band between them.
    pub band: Band,
    /// Thrust accumulated toward changing band: closing (+) or opening (-).
    pub closing: i32,
    /// Each side's turn state.
    pub sides: [SideState; 2],
    /// Salvos in flight, in launch order.
    pub salvos: ArrayVec<Salvo, MAX_SALVOS>,
    /// A successful boarding action holds the ships together.
    pub grappled: bool,
    /// The side that won a free round of actions when setting up.
    pub free_round: Option<Side>,
    /// The side that cannot act or react (the other side's free round).
    pub surprised: Option<Side>,
    /// This turn's initiative order: the first acts first in the attack step.
    pub order: [Side; 2],
}

impl Battle {
    /// A battle between two fresh ships at a band.
    pub fn new(rules: &Rules, a: ClassId, b: ClassId, band: Band, sides: bool) -> Battle {
        let label = |class, side| Label {
            class,
            side: sides.then_some(side),
        };
        Battle {
            ships: [Ship::new(rules, a), Ship::new(rules, b)],
            labels: [label(a, Side::A), label(b, Side::B)],
            band,
            closing: 0,
            sides: [SideState::new(), SideState::new()],
            salvos: ArrayVec::new(),
            grappled: false,
            free_round: None,
            surprised: None,
            order: [Side::A, Side::B],
        }
    }

    /// A side's ship.
    pub fn ship(&self, side: Side) -> &Ship {
        &self.ships[side.index()]
    }

    /// A side's ship, to change it.
    pub fn ship_mut(&mut self, side: Side) -> &mut Ship {
        &mut self.ships[side.index()]
    }

    /// A side's turn state.
    pub fn side(&self, side: Side) -> &SideState {
        &self.sides[side.index()]
    }

    /// A side's turn state, to change it.
    pub fn side_mut(&mut self, side: Side) -> &mut SideState {
        &mut self.sides[side.index()]
    }

    /// The name events give a side's ship.
    pub fn name(&self, rules: &Rules, side: Side) -> String {
        self.labels[side.index()].name(rules)
    }

    /// Whether a side's ship is still in the fight: not wrecked, not gone.
    pub fn present(&self, side: Side) -> bool {
        !self.ship(side).is_wrecked() && !self.side(side).jumped
    }

    /// Marks a position as having acted in this phase; an error if it
    /// already has. The rules count actions by position, so one person
    /// holding several positions acts once for each.
    pub fn act(&mut self, side: Side, position: Position, what: &str) -> Result<(), ResolveError> {
        let bit = position.bit();
        let state = self.side_mut(side);
        if state.acted & bit != 0 {
            return Err(ResolveError::Refused(format!(
                "the {position:?} position of side {side} has already acted this phase ({what})"
            )));
        }
        state.acted |= bit;
        Ok(())
    }
}

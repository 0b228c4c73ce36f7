//! The state of an engagement between two sides of one or more ships: each pair's range band, each ship's turn state, salvos in flight.
//!
//! Ships are numbered in roster order: side A's in the order named, then
//! side B's. There is no map: what the rules measure between ships is the
//! range band, and the only ranges any rule reads are between enemies, so a
//! band (and the thrust accumulated toward the next) is kept for every pair
//! of one ship of A and one of B, and none between friends.
//!
//! A single attack (`broadside resolve`) is resolved on a battle too, one of
//! two ships made fresh for it, so that attacks in play and on the command
//! line go through the same code. Everything here is `Eq + Hash`; a battle
//! is cloned once per trial, and copying one over another of the same size
//! (`clone_from`) reuses its storage.

use arrayvec::ArrayVec;
use broadside_core::{ResolveError, Side};

use crate::check::Label;
use crate::model::{Band, ClassId, Position, Rules, WeaponId};
use crate::ship::{MAX_MOUNTS, Ship};

/// A ship of the engagement: its place in the roster (side A's ships in
/// the order named, then side B's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ShipId(pub u8);

impl ShipId {
    /// The roster index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

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
    /// The enemy ship the shot was lined up on or the solution found for:
    /// it counts only for an attack on that ship.
    pub target: ShipId,
    /// Which check it came from.
    pub source: ChainSource,
    /// The Effect of that check.
    pub effect: i8,
    /// The DM it passes on.
    pub dm: i8,
}

/// One ship's state within a turn, and what it carries to the next.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ShipState {
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
    /// Thrust applied toward (+) or away from (-) the maneuver target this
    /// round.
    pub applied: i32,
    /// The enemy ship this round's Maneuver was made against.
    pub maneuver_target: Option<ShipId>,
    /// DM to next turn's initiative from the Captain's Inspire.
    pub inspire_dm: i32,
    /// DM to next turn's initiative from reactions burned this turn.
    pub burn_penalty: i32,
    /// DM on this turn's Scan and targeting solutions: the enemy's jamming.
    pub jam_sensors: i32,
    /// Jamming done to this ship this turn, for next turn.
    pub jam_sensors_next: i32,
    /// DM on this turn's comms checks: the enemy's jamming.
    pub jam_comms: i32,
    /// Comms jamming done to this ship this turn, for next turn.
    pub jam_comms_next: i32,
    /// The ship is at a marked jump point (an Alderson point).
    pub at_jump_point: bool,
    /// The jump drive was activated this turn: the ship leaves at its end.
    pub jumping: bool,
    /// The ship has jumped away.
    pub jumped: bool,
    /// Aim actions taken by each mount's gunner, waiting for its next attack.
    pub aim: [u8; MAX_MOUNTS],
    /// The enemy ship each mount's gunner is aiming at (read only while its
    /// aim is above 0).
    pub aim_target: [ShipId; MAX_MOUNTS],
    /// Chained DMs for gunners this turn.
    pub chains: ArrayVec<Chain, 4>,
    /// Weapon slots that attacked or made point defence this round, as bits.
    pub used: u16,
    /// Positions that have acted in the current phase, as bits
    /// ([`Position::bit`]).
    pub acted: u16,
}

impl ShipState {
    fn new() -> ShipState {
        ShipState {
            initiative: 0,
            reactions: u8::MAX,
            reactions_used: 0,
            thrust: 0,
            thrust_left: 0,
            applied: 0,
            maneuver_target: None,
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
            aim_target: [ShipId(0); MAX_MOUNTS],
            chains: ArrayVec::new(),
            used: 0,
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

/// What lies between one ship of side A and one of side B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pair {
    /// Their range band.
    pub band: Band,
    /// Thrust accumulated toward changing band: closing (+) or opening (-).
    pub closing: i32,
    /// A successful boarding action holds the two together.
    pub grappled: bool,
}

/// A salvo of missiles in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Salvo {
    /// The ship that launched it.
    pub owner: ShipId,
    /// The enemy ship it attacks.
    pub target: ShipId,
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
    /// Every ship, in roster order.
    pub ships: Vec<Ship>,
    /// How events name them.
    pub labels: Vec<Label>,
    /// Each ship's turn state.
    pub states: Vec<ShipState>,
    /// Side A's ships: the first `a_len` of the roster.
    a_len: u8,
    /// Each pair of enemies: A's ship `a` and B's ship `b` at
    /// `a * (ships of B) + (b - a_len)`.
    pub pairs: Vec<Pair>,
    /// Salvos in flight, in launch order.
    pub salvos: Vec<Salvo>,
    /// The side that won a free round of actions when setting up.
    pub free_round: Option<Side>,
    /// The side that cannot act or react (the other side's free round).
    pub surprised: Option<Side>,
    /// This turn's initiative order of the ships in the fight: the first
    /// acts first in the attack step.
    pub order: Vec<ShipId>,
    /// A single attack whose report prints the faces of its attack and
    /// reaction checks, whatever the log keeps: those checks then always
    /// ask for real faces (see [`crate::check::Reading`]).
    pub reported: bool,
    /// A single attack played in steps for exact odds: a hit leaves the
    /// critical hits it sets off in [`Battle::pending`] instead of doing
    /// them.
    pub defer_criticals: bool,
    /// Critical-hit work a hit left undone (see
    /// [`Battle::defer_criticals`]), last pushed first.
    pub pending: Vec<crate::damage::Pending>,
}

impl Battle {
    /// A battle between two fleets of fresh ships, every pair at one band.
    /// Events name the ships as the roster does: `corvette (A)`, or
    /// `corvette #2 (A)` when a side has several of a class. Each side has
    /// at least one ship, and the two at most 255 together.
    pub fn new(rules: &Rules, sides: [&[ClassId]; 2], band: Band) -> Battle {
        let [a, b] = sides;
        let mut labels = Vec::with_capacity(a.len() + b.len());
        for (side, classes) in [(Side::A, a), (Side::B, b)] {
            for (i, &class) in classes.iter().enumerate() {
                let numbered = classes.iter().filter(|&&c| c == class).count() > 1;
                let nth = if numbered {
                    classes[..=i].iter().filter(|&&c| c == class).count() as u8
                } else {
                    0
                };
                labels.push(Label {
                    class,
                    side: Some(side),
                    nth,
                });
            }
        }
        Battle::with_labels(rules, labels, a.len() as u8, band)
    }

    /// One ship against one, as a duel and a single attack have them: ship
    /// 0 of side A and ship 1 of side B. With `sides` false events name
    /// them by class alone, as a single attack's report does.
    pub fn duel(rules: &Rules, a: ClassId, b: ClassId, band: Band, sides: bool) -> Battle {
        let label = |class, side| Label {
            class,
            side: sides.then_some(side),
            nth: 0,
        };
        Battle::with_labels(rules, vec![label(a, Side::A), label(b, Side::B)], 1, band)
    }

    fn with_labels(rules: &Rules, labels: Vec<Label>, a_len: u8, band: Band) -> Battle {
        let n = labels.len();
        let pairs = usize::from(a_len) * (n - usize::from(a_len));
        Battle {
            ships: labels.iter().map(|l| Ship::new(rules, l.class)).collect(),
            states: vec![ShipState::new(); n],
            labels,
            a_len,
            pairs: vec![
                Pair {
                    band,
                    closing: 0,
                    grappled: false,
                };
                pairs
            ],
            salvos: Vec::new(),
            free_round: None,
            surprised: None,
            order: (0..n as u8).map(ShipId).collect(),
            reported: false,
            defer_criticals: false,
            pending: Vec::new(),
        }
    }

    /// Ships in the battle.
    pub fn len(&self) -> usize {
        self.ships.len()
    }

    /// Whether the battle has no ships (never, once built).
    pub fn is_empty(&self) -> bool {
        self.ships.is_empty()
    }

    /// Whether it is one ship against one: events then speak of "the
    /// enemy" and "both ships", as they always have.
    pub fn is_duel(&self) -> bool {
        self.ships.len() == 2
    }

    /// Every ship, in roster order.
    pub fn ids(&self) -> impl Iterator<Item = ShipId> + use<> {
        (0..self.ships.len() as u8).map(ShipId)
    }

    /// A ship's side.
    pub fn side_of(&self, ship: ShipId) -> Side {
        if ship.0 < self.a_len {
            Side::A
        } else {
            Side::B
        }
    }

    /// A side's ships, in roster order.
    pub fn of(&self, side: Side) -> impl Iterator<Item = ShipId> + use<> {
        let range = match side {
            Side::A => 0..self.a_len,
            Side::B => self.a_len..self.ships.len() as u8,
        };
        range.map(ShipId)
    }

    /// The ships of the other side, in roster order.
    pub fn enemies_of(&self, ship: ShipId) -> impl Iterator<Item = ShipId> + use<> {
        self.of(self.side_of(ship).other())
    }

    /// Whether two ships are on different sides.
    pub fn are_enemies(&self, x: ShipId, y: ShipId) -> bool {
        x.index() < self.ships.len()
            && y.index() < self.ships.len()
            && self.side_of(x) != self.side_of(y)
    }

    fn pair_index(&self, x: ShipId, y: ShipId) -> usize {
        debug_assert!(self.are_enemies(x, y), "{x:?} and {y:?} are not enemies");
        let (a, b) = if x.0 < y.0 { (x, y) } else { (y, x) };
        let b_len = self.ships.len() - usize::from(self.a_len);
        a.index() * b_len + (b.index() - usize::from(self.a_len))
    }

    /// What lies between two enemies, in either order.
    pub fn pair(&self, x: ShipId, y: ShipId) -> &Pair {
        &self.pairs[self.pair_index(x, y)]
    }

    /// What lies between two enemies, to change it.
    pub fn pair_mut(&mut self, x: ShipId, y: ShipId) -> &mut Pair {
        let i = self.pair_index(x, y);
        &mut self.pairs[i]
    }

    /// The range band between two enemies.
    pub fn band(&self, x: ShipId, y: ShipId) -> Band {
        self.pair(x, y).band
    }

    /// Every pair of enemies: A's ship, B's ship, in roster order.
    pub fn pair_ids(&self) -> impl Iterator<Item = (ShipId, ShipId)> + use<> {
        let a_len = self.a_len;
        let n = self.ships.len() as u8;
        (0..a_len).flat_map(move |a| (a_len..n).map(move |b| (ShipId(a), ShipId(b))))
    }

    /// Whether a ship is grappled to any enemy.
    pub fn grappled(&self, ship: ShipId) -> bool {
        self.enemies_of(ship).any(|e| self.pair(ship, e).grappled)
    }

    /// A ship.
    pub fn ship(&self, ship: ShipId) -> &Ship {
        &self.ships[ship.index()]
    }

    /// A ship, to change it.
    pub fn ship_mut(&mut self, ship: ShipId) -> &mut Ship {
        &mut self.ships[ship.index()]
    }

    /// A ship's turn state.
    pub fn state(&self, ship: ShipId) -> &ShipState {
        &self.states[ship.index()]
    }

    /// A ship's turn state, to change it.
    pub fn state_mut(&mut self, ship: ShipId) -> &mut ShipState {
        &mut self.states[ship.index()]
    }

    /// The name events give a ship.
    pub fn name(&self, rules: &Rules, ship: ShipId) -> String {
        self.labels[ship.index()].name(rules)
    }

    /// How events name a side as a whole: its ship in a duel (`the scout
    /// (A)`), otherwise `side A`.
    pub fn side_name(&self, rules: &Rules, side: Side) -> String {
        match self.of(side).next() {
            Some(ship) if self.is_duel() => format!("the {}", self.name(rules, ship)),
            _ => format!("side {side}"),
        }
    }

    /// Whether a ship is still in the fight: not wrecked, not gone.
    pub fn present(&self, ship: ShipId) -> bool {
        !self.ship(ship).is_wrecked() && !self.state(ship).jumped
    }

    /// Whether a ship may be attacked by another: an enemy still in the
    /// fight.
    pub fn is_target(&self, attacker: ShipId, target: ShipId) -> bool {
        self.are_enemies(attacker, target) && self.present(target)
    }

    /// Marks a position as having acted in this phase; an error if it
    /// already has. The rules count actions by position, so one person
    /// holding several positions acts once for each.
    pub fn act(
        &mut self,
        ship: ShipId,
        position: Position,
        what: &str,
    ) -> Result<(), ResolveError> {
        let bit = position.bit();
        let side = self.side_of(ship);
        let state = self.state_mut(ship);
        if state.acted & bit != 0 {
            return Err(ResolveError::Refused(format!(
                "the {position:?} position of ship {} (side {side}) has already acted this phase ({what})",
                ship.0
            )));
        }
        state.acted |= bit;
        Ok(())
    }
}

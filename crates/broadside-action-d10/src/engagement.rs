//! Whole engagements: the sequence of play (Command Points, Initiative,
//! Actions, Drift, Gravity, Point Defense Fire, Missile Resolution, Record
//! Keeping) played through core's `TurnSequence`.
//!
//! Ships move by vectors: each has a ship counter (where it is) and a
//! destination counter (where its velocity carries it). A Move action shifts
//! the destination counter by up to the ship's thrust; in the Drift phase
//! every ship moves to its destination and keeps the same velocity. Salvos
//! are counters placed in the target's destination hex, and strike in the
//! Missile Resolution phase only if the target's ship is in that hex.
//! Decisions come from an [`ActionTactics`]; this module checks them
//! against the rules and resolves them.

use std::sync::Arc;

use broadside_core::hex::{self, Direction, Entry, Hex};
use broadside_core::{Dice, Die, Event, EventSink, ResolveError, Side, TurnSequence, Verdict};

use crate::ActionD10;
use crate::attack::{Attack, Board, LockNeed, LockSituation, Situation, Strike};
use crate::model::{Drive, Mount, System, WeaponId};
use crate::ship::{Repairable, Status};
use crate::tactics::ActionTactics;

/// Where a ship is, where its velocity takes it, and which way it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pose {
    /// The ship counter.
    pub hex: Hex,
    /// The destination counter: where the ship will be after the Drift phase.
    pub dest: Hex,
    /// The hexside its bow points through.
    pub facing: Direction,
}

impl Pose {
    /// The velocity, as an offset from the ship counter to the destination.
    pub fn velocity(&self) -> Hex {
        self.dest - self.hex
    }
}

/// What a ship has done and may still do this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TurnState {
    /// Actions left.
    pub actions: u8,
    /// Actions taken so far.
    pub acted: u8,
    /// Command Points left for re-rolls.
    pub command_points: u8,
    /// Made its Move (or Dock) this turn.
    pub moved: bool,
    /// Hexes its destination was displaced by thrust this turn.
    pub displacement: u8,
    /// Took Activate Point Defense.
    pub point_defense: bool,
    /// Dropped a chaff pod.
    pub chaff: bool,
    /// Activated an antimatter spread.
    pub spread: bool,
    /// Took Support Troops.
    pub support: bool,
    /// Activated its hyperdrive: it leaves in Record Keeping.
    pub hyperdrive: bool,
    /// Scuttled: it blows up in Record Keeping.
    pub scuttle: bool,
    /// Ships it holds a lock on.
    pub locks: ShipSet,
    /// Ships whose lock roll it failed this turn.
    pub failed_locks: ShipSet,
    /// Ships it aimed at.
    pub aims: ShipSet,
    /// Mounts that fired this turn, one bit per mount.
    pub fired: u16,
}

/// Words of 64 bits in a [`ShipSet`].
const SHIP_WORDS: usize = 4;

/// The most ships one battle may hold, riders included: every ship index
/// fits the `u8` an action or a salvo names a ship by, and a [`ShipSet`].
pub const MAX_SHIPS: usize = 64 * SHIP_WORDS;

// Every battle core allows fits: two sides of `MAX_SIDE` ships, each
// carrying as many riders as the data lets a ship carry.
const _: () = assert!(2 * broadside_core::MAX_SIDE * (1 + crate::data::MAX_RIDERS) <= MAX_SHIPS);

/// A set of a battle's ships, one bit per ship index: a ship's locks, its
/// failed lock rolls, its aims. Fixed in size, so a turn's state stays
/// `Copy` and hashable whatever the fleets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ShipSet([u64; SHIP_WORDS]);

impl ShipSet {
    /// No ship.
    pub const EMPTY: ShipSet = ShipSet([0; SHIP_WORDS]);

    /// Whether ship `i` is in the set.
    pub fn contains(&self, i: usize) -> bool {
        i < MAX_SHIPS && self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Adds ship `i`; an index beyond [`MAX_SHIPS`] names no ship a battle
    /// can hold, and is ignored.
    pub fn insert(&mut self, i: usize) {
        if i < MAX_SHIPS {
            self.0[i / 64] |= 1 << (i % 64);
        }
    }

    /// Removes ship `i`.
    pub fn remove(&mut self, i: usize) {
        if i < MAX_SHIPS {
            self.0[i / 64] &= !(1 << (i % 64));
        }
    }

    /// Whether no ship is in the set.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// Every ship of either set.
    #[must_use]
    pub fn union(mut self, other: ShipSet) -> ShipSet {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine |= theirs;
        }
        self
    }

    /// Whether every ship of `other` is in this set.
    pub fn contains_all(&self, other: &ShipSet) -> bool {
        self.0
            .iter()
            .zip(other.0)
            .all(|(mine, theirs)| mine & theirs == theirs)
    }

    /// The ships in the set, in index order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..MAX_SHIPS).filter(|&i| self.contains(i))
    }
}

/// A salvo counter in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Salvo {
    /// The counter's id, from 1.
    pub id: u16,
    /// The ship that launched it.
    pub owner: u8,
    /// The ship it is aimed at.
    pub target: u8,
    /// The hex it waits in: the target's destination when it was launched.
    pub hex: Hex,
    /// Where the launcher's destination counter was, to read the arc it strikes from.
    pub from: Hex,
    /// Range from the launcher's destination to the target's destination.
    pub range: u8,
    /// The weapon.
    pub weapon: WeaponId,
    /// Missiles in the counter: one per launcher of the bank that fired
    /// it, each rolling its own d10; point defence hits take one each.
    pub missiles: u8,
    /// The launcher had aimed at the target when it launched: the Aim's +1
    /// lasts the rest of the turn, and the salvo strikes this turn.
    pub aim: bool,
}

/// A flight of small craft in space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Flight {
    /// The carrier that launched it.
    pub carrier: u8,
    /// Its side.
    pub side: Side,
    /// Craft left.
    pub craft: u8,
    /// Where it is.
    pub hex: Hex,
    /// Launched this turn: it acts from the next.
    pub fresh: bool,
}

/// Something point defence can shoot at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Threat {
    /// A salvo, by index into [`Battle::salvos`].
    Salvo(usize),
    /// An enemy flight, by index into [`Battle::flights`].
    Flight(usize),
}

/// One action of the rules' list, as a ship declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Move: shift the destination counter by up to the thrust, and face anew.
    Move {
        /// The new destination.
        dest: Hex,
        /// The new facing (a change needs a maneuvering jet).
        facing: Direction,
    },
    /// Target Lock on an enemy ship.
    TargetLock {
        /// The target.
        target: u8,
        /// Command Points the ship will spend re-rolling a failure.
        rerolls: u8,
    },
    /// Coordinate Fire Control: friendly ships in range share this ship's locks.
    CoordinateFireControl,
    /// Charge Weapon.
    ChargeWeapon {
        /// The mount.
        mount: u8,
    },
    /// Aim at a locked target: a bonus on this turn's attacks on it.
    Aim {
        /// The target.
        target: u8,
    },
    /// Attack with one weapon or bank: fire at once, or launch a salvo.
    Attack {
        /// The mount.
        mount: u8,
        /// The target.
        target: u8,
        /// Command Points the ship will spend re-rolling misses.
        rerolls: u8,
    },
    /// Activate Hyperdrive: leave the fight at the end of the turn.
    ActivateHyperdrive,
    /// Repair one damaged item.
    Repair {
        /// What.
        item: Repairable,
        /// Command Points the ship will spend re-rolling a failure.
        rerolls: u8,
    },
    /// Recharge Shields to their most.
    RechargeShields,
    /// Launch/Recover Small Craft: launch from the hangar.
    LaunchSmallCraft,
    /// Launch/Recover Small Craft: take aboard flights in the ship's hex.
    RecoverSmallCraft,
    /// Launch/Recover Riders: release one rider from the clamps.
    LaunchRider,
    /// Launch/Recover Riders: take a rider in the ship's hex back aboard.
    RecoverRider {
        /// The rider.
        rider: u8,
    },
    /// Activate Point Defense: point defence weapons fire this turn.
    ActivatePointDefense,
    /// Ready Troops for boarding.
    ReadyTroops,
    /// Support Troops: a bonus to this side's boarders this turn.
    SupportTroops,
    /// Board Enemy Vessel: send the ready troops across to a docked enemy.
    BoardEnemyVessel {
        /// The enemy ship docked with.
        target: u8,
    },
    /// Transport ready troops by transporter to an enemy with shields down.
    Transport {
        /// The enemy ship.
        target: u8,
    },
    /// Dock: match another ship's hex and velocity.
    Dock {
        /// The ship to dock with.
        with: u8,
    },
    /// Scuttle: the ship blows itself up at the end of the turn.
    Scuttle,
    /// Drop Chaff Pod.
    DropChaffPod,
    /// Activate Antimatter Spread against salvos aimed at the ship.
    ActivateAntimatterSpread,
}

impl Action {
    /// The action's name in the rules' list.
    pub const fn name(&self) -> &'static str {
        match self {
            Action::Move { .. } => "Move",
            Action::TargetLock { .. } => "Target Lock",
            Action::CoordinateFireControl => "Coordinate Fire Control",
            Action::ChargeWeapon { .. } => "Charge Weapon",
            Action::Aim { .. } => "Aim",
            Action::Attack { .. } => "Attack",
            Action::ActivateHyperdrive => "Activate Hyperdrive",
            Action::Repair { .. } => "Repair",
            Action::RechargeShields => "Recharge Shields",
            Action::LaunchSmallCraft | Action::RecoverSmallCraft => "Launch/Recover Small Craft",
            Action::LaunchRider | Action::RecoverRider { .. } => "Launch/Recover Riders",
            Action::ActivatePointDefense => "Activate Point Defense",
            Action::ReadyTroops => "Ready Troops",
            Action::SupportTroops => "Support Troops",
            Action::BoardEnemyVessel { .. } => "Board Enemy Vessel",
            Action::Transport { .. } => "Transport",
            Action::Dock { .. } => "Dock",
            Action::Scuttle => "Scuttle",
            Action::DropChaffPod => "Drop Chaff Pod",
            Action::ActivateAntimatterSpread => "Activate Antimatter Spread",
        }
    }
}

/// A side's answer when the Actions phase comes to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// One ship takes one action.
    Act(usize, Action),
    /// Let the other side act first, keeping the actions left.
    Wait,
    /// Take no more actions this turn.
    Done,
}

/// Where a small craft flight goes and whom it attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FlightOrder {
    /// The hex it moves to (within its speed).
    pub to: Hex,
    /// The enemy ship it attacks from there, if any (within its weapon's reach).
    pub target: Option<usize>,
}

/// A phase of the turn, in the rules' sequence of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Each ship receives Command Points and may buy extra actions.
    CommandPoints,
    /// Each side rolls; the higher acts first.
    Initiative,
    /// Sides take actions in turn, one at a time; then small craft act.
    Actions,
    /// Every ship moves to its destination counter.
    Drift,
    /// Bodies pull ships in their wells.
    Gravity,
    /// Point defence fires at salvos and small craft.
    PointDefenseFire,
    /// Salvos strike, or are discarded if the target left their hex.
    MissileResolution,
    /// Bleeding tanks, boarding, jumps, scuttling; the turn's state is cleared.
    RecordKeeping,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::CommandPoints => "Command Points",
            Phase::Initiative => "Initiative",
            Phase::Actions => "Actions",
            Phase::Drift => "Drift",
            Phase::Gravity => "Gravity",
            Phase::PointDefenseFire => "Point Defense Fire",
            Phase::MissileResolution => "Missile Resolution",
            Phase::RecordKeeping => "Record Keeping",
        })
    }
}

/// The sequence of play, every turn alike.
pub const SEQUENCE: [Phase; 8] = [
    Phase::CommandPoints,
    Phase::Initiative,
    Phase::Actions,
    Phase::Drift,
    Phase::Gravity,
    Phase::PointDefenseFire,
    Phase::MissileResolution,
    Phase::RecordKeeping,
];

/// Everything that changes during an engagement.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Battle {
    /// The ships and their names.
    pub board: Board,
    /// Each ship's side.
    pub sides: Vec<Side>,
    /// Each ship's counters.
    pub poses: Vec<Pose>,
    /// The carrier a rider belongs to.
    pub carrier: Vec<Option<u8>>,
    /// A rider on its carrier's clamps: it moves with the carrier and cannot act.
    pub docked: Vec<bool>,
    /// The ship each ship is docked with by a Dock action.
    pub docked_with: Vec<Option<u8>>,
    /// Each ship's turn.
    pub turn: Vec<TurnState>,
    /// Salvo counters in flight.
    pub salvos: Vec<Salvo>,
    /// Small craft flights in space.
    pub flights: Vec<Flight>,
    /// The next salvo counter's id.
    pub next_salvo: u16,
    /// The side that won initiative this turn.
    pub first: Side,
    /// A body whose gravity well pulls ships, if the engagement has one.
    pub gravity_well: Option<Hex>,
    /// Each side that stopped being able to fight in a Record Keeping in
    /// which its last fighting ships jumped away: it escaped.
    pub left_by_jump: [bool; 2],
    /// Where an Actions phase played in steps stands between two of them;
    /// `None` outside one (a phase played whole keeps it to itself).
    pub actions_round: Option<ActionsRound>,
}

/// Where the Actions phase stands between two decisions: whose turn it is
/// to decide, which sides are done, which waited at their last decision,
/// and how many rounds have been played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ActionsRound {
    /// The side asked next.
    pub side: Side,
    /// Each side that has finished its actions.
    pub done: [bool; 2],
    /// Each side whose last decision was to wait.
    pub waited: [bool; 2],
    /// Rounds played so far.
    pub rounds: u16,
}

impl ActionsRound {
    /// The phase's start: the initiative winner decides first.
    pub fn start(first: Side) -> ActionsRound {
        ActionsRound {
            side: first,
            done: [false; 2],
            waited: [false; 2],
            rounds: 0,
        }
    }
}

/// What one round of the Actions phase did.
enum Round {
    /// A ship acted.
    Acted,
    /// A side waited, finished or was passed over, acting not at all.
    Passed,
    /// Both sides are done: the ships' part of the phase is over.
    Over,
}

/// Every Act spends an action and a side that waits twice in a row is
/// done, so the Actions phase ends; this bound on its rounds only guards
/// that reasoning.
const MOST_ROUNDS: u16 = 10_000;

impl Battle {
    /// Whether a ship is in the fight and on the map (not on a carrier's clamps).
    pub fn on_map(&self, i: usize) -> bool {
        self.board.ships[i].is_active() && !self.docked[i]
    }

    /// Indices of a side's ships on the map.
    pub fn ships_of(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        (0..self.board.ships.len()).filter(move |&i| self.sides[i] == side && self.on_map(i))
    }

    /// Indices of the enemies of ship `i` on the map.
    pub fn enemies_of(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.sides[i];
        (0..self.board.ships.len()).filter(move |&j| self.sides[j] != side && self.on_map(j))
    }

    /// Whether ship `i` holds a lock on ship `target`.
    pub fn locked(&self, i: usize, target: usize) -> bool {
        self.turn[i].locks.contains(target)
    }

    /// Whether mount `m` of ship `i` fired this turn.
    pub fn fired(&self, i: usize, m: usize) -> bool {
        self.turn[i].fired & (1 << m) != 0
    }
}

impl ActionD10 {
    /// Whether a mount of ship `i` can fire at `target` from where it is:
    /// fixed and spinal mounts only into the forward arc (the bow's 60
    /// degrees, its edges included), and the same hex from any mount.
    /// Direct fire reads the arc between ship counters; a launcher reads it
    /// between destination counters, where its range is counted and its
    /// salvo counter placed.
    pub fn bears(&self, battle: &Battle, i: usize, mount: usize, target: usize) -> bool {
        let weapon = self
            .rules
            .weapon(battle.board.ships[i].weapons[mount].weapon);
        let (from, to) = if weapon.kind.is_salvo() {
            (battle.poses[i].dest, battle.poses[target].dest)
        } else {
            (battle.poses[i].hex, battle.poses[target].hex)
        };
        let facing = battle.poses[i].facing;
        match weapon.mount {
            Mount::Turret => true,
            Mount::Fixed | Mount::Spinal => match hex::entry_side(to, from).relative_to(facing) {
                Entry::Same => true,
                Entry::Side(d) => d.index() == 0,
                Entry::Corner(a, b) => a.index() == 0 || b.index() == 0,
            },
        }
    }

    /// Whether a shot from `from` strikes ship `target` from its aft arc:
    /// the stern's 60 degrees, its edges included.
    pub fn from_aft(&self, battle: &Battle, from: Hex, target: usize) -> bool {
        let pose = battle.poses[target];
        match hex::struck_side(from, pose.hex, pose.facing) {
            Entry::Same => false,
            Entry::Side(d) => d.index() == 3,
            Entry::Corner(a, b) => a.index() == 3 || b.index() == 3,
        }
    }

    /// The range a mount of ship `i` would fire at `target` at: between ship
    /// counters for direct fire and swarms, between destination counters
    /// for salvos. `None` if the mount does not bear or cannot reach.
    pub fn fire_range(
        &self,
        battle: &Battle,
        i: usize,
        mount: usize,
        target: usize,
    ) -> Option<u32> {
        let weapon = self
            .rules
            .weapon(battle.board.ships[i].weapons[mount].weapon);
        if !self.bears(battle, i, mount, target) {
            return None;
        }
        let range = if weapon.kind.is_salvo() {
            battle.poses[i].dest.distance(battle.poses[target].dest)
        } else {
            battle.poses[i].hex.distance(battle.poses[target].hex)
        };
        (range <= weapon.max_range()).then_some(range)
    }

    /// Whether ship `i` could attack `target` with mount `m` now, apart from
    /// holding a lock: ready, not fired this turn, bearing and in reach.
    pub fn can_attack(&self, battle: &Battle, i: usize, m: usize, target: usize) -> bool {
        battle.board.ships[i].can_fire(&self.rules, m)
            && !battle.fired(i, m)
            && battle.on_map(target)
            && battle.sides[target] != battle.sides[i]
            && self.fire_range(battle, i, m, target).is_some()
    }

    /// What the lock modifiers read from the map.
    pub fn lock_situation(&self, battle: &Battle, locker: usize, target: usize) -> LockSituation {
        let at = battle.poses[target].hex;
        let mut s = LockSituation {
            range: battle.poses[locker].hex.distance(at),
            target_thrusting: battle.turn[target].displacement > 0,
            chaff: battle.turn[target].chaff,
            ..LockSituation::default()
        };
        for j in 0..battle.board.ships.len() {
            if !battle.on_map(j) {
                continue;
            }
            let here = battle.poses[j].hex;
            if here == at && battle.sides[j] != battle.sides[locker] {
                s.enemies_in_target_hex += 1;
            }
            if j == target || j == locker || battle.turn[j].displacement == 0 {
                continue;
            }
            let drive = battle.board.ships[j].class(&self.rules).drive;
            match (here.distance(at), drive) {
                (0, Drive::Reaction) => s.reaction_same_hex += 1,
                (0, Drive::Reactionless) => s.reactionless_same_hex += 1,
                (1, Drive::Reaction) => s.reaction_adjacent += 1,
                _ => {}
            }
        }
        s
    }

    /// What the to-hit modifiers read for ship `i` firing from `from` at `target`.
    pub fn situation(&self, battle: &Battle, i: usize, from: Hex, target: usize) -> Situation {
        Situation {
            displacement: u32::from(battle.turn[target].displacement),
            aft: self.from_aft(battle, from, target),
            aim: battle.turn[i].aims.contains(target),
            chaff: battle.turn[target].chaff,
        }
    }

    /// Everything ship `i`'s point defence could shoot at, with the range:
    /// salvos aimed at its side and enemy flights, within `reach` hexes.
    pub fn threats(&self, battle: &Battle, i: usize, reach: u32) -> Vec<(Threat, u32)> {
        let here = battle.poses[i].hex;
        let side = battle.sides[i];
        let mut out = Vec::new();
        for (s, salvo) in battle.salvos.iter().enumerate() {
            let d = here.distance(salvo.hex);
            if battle.sides[usize::from(salvo.target)] == side && d <= reach {
                out.push((Threat::Salvo(s), d));
            }
        }
        for (f, flight) in battle.flights.iter().enumerate() {
            let d = here.distance(flight.hex);
            if flight.side != side && flight.craft > 0 && d <= reach {
                out.push((Threat::Flight(f), d));
            }
        }
        out
    }

    /// Carries a ship's fate to the riders on its clamps: destroyed,
    /// captured or gone with it.
    fn settle_riders(&self, battle: &mut Battle, sink: &mut dyn EventSink) {
        for r in 0..battle.board.ships.len() {
            let Some(c) = battle.carrier[r] else {
                continue;
            };
            let status = battle.board.ships[usize::from(c)].status;
            if battle.docked[r] && battle.board.ships[r].is_active() && status != Status::Active {
                battle.board.ships[r].status = status;
                let (name, carrier) = (&battle.board.names[r], &battle.board.names[usize::from(c)]);
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!(
                        "on the clamps of the {carrier}, it shares its fate: {}",
                        status.id()
                    ),
                });
            }
        }
    }

    /// The Command Points phase: each ship on the map receives its Command
    /// Points and actions, and may buy extra actions.
    fn command_phase(
        &self,
        battle: &mut Battle,
        tactics: [&dyn ActionTactics; 2],
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let c = &rules.constants;
        for i in 0..battle.board.ships.len() {
            battle.turn[i] = TurnState::default();
            if !battle.on_map(i) {
                continue;
            }
            let ship = &battle.board.ships[i];
            let points = ship.command_points(rules);
            let actions = ship.actions_per_turn(rules);
            let extra = tactics[battle.sides[i].index()].extra_actions(self, battle, i);
            let cost = u16::from(extra) * u16::from(c.extra_action_cost);
            if extra > c.extra_actions || cost > u16::from(points) {
                return Err(ResolveError::Internal(format!(
                    "tactics bought {extra} extra actions for the {} with {points} Command Points",
                    battle.board.names[i]
                )));
            }
            let t = &mut battle.turn[i];
            t.actions = actions + extra;
            t.command_points = points - cost as u8;
            let name = &battle.board.names[i];
            let t = *t;
            sink.emit(|| Event::Effect {
                ship: name.clone(),
                effect: if extra > 0 {
                    format!(
                        "{points} Command Points; buys {extra} extra action(s): {} actions, {} Command Points left",
                        t.actions, t.command_points
                    )
                } else {
                    format!("{points} Command Points, {} actions", t.actions)
                },
            });
        }
        Ok(())
    }

    /// The Initiative phase: each side rolls; the higher acts first, and a
    /// tie is rolled again.
    fn initiative_phase(
        &self,
        battle: &mut Battle,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let die = self.rules.constants.initiative_die;
        let log = |sink: &mut dyn EventSink, a: u32, b: u32| {
            for (side, face) in [(Side::A, a), (Side::B, b)] {
                sink.emit(|| Event::Roll {
                    purpose: format!("initiative, side {side}"),
                    dice: format!("1{die}"),
                    faces: vec![face],
                    total: face as i32,
                });
            }
        };
        let (a, b) = if dice.enumerates() || !sink.enabled() {
            // One call for the rolls until the dice differ, so an exact
            // source weighs the limit of the ties rolled again (half and
            // half) instead of branching for ever; only which side rolled
            // higher is read.
            dice.apart(die)?
        } else {
            // A log shows every tie, so plain dice are rolled pair by pair:
            // the faces `apart` would roll, in the same order.
            loop {
                let (a, b) = (dice.roll(die)?, dice.roll(die)?);
                if a != b {
                    break (a, b);
                }
                log(sink, a, b);
                sink.emit(|| Event::Ruling {
                    text: "initiative tied: both sides roll again".into(),
                });
            }
        };
        log(sink, a, b);
        battle.first = if a > b { Side::A } else { Side::B };
        let first = battle.first;
        sink.emit(|| Event::Declared {
            actor: format!("side {first}"),
            action: "wins initiative and acts first".into(),
        });
        Ok(())
    }

    fn side_has_actions(&self, battle: &Battle, side: Side) -> bool {
        battle.ships_of(side).any(|i| battle.turn[i].actions > 0)
    }

    /// The Actions phase: sides take one action at a time, the initiative
    /// winner first, until both are done; then small craft flights act.
    fn actions_phase(
        &self,
        battle: &mut Battle,
        tactics: [&dyn ActionTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let mut at = ActionsRound::start(battle.first);
        while at.rounds < MOST_ROUNDS {
            at.rounds += 1;
            if let Round::Over = self.action_round(battle, &mut at, tactics, dice, sink)? {
                return self.flights_act(battle, tactics, dice, sink);
            }
        }
        Err(ResolveError::Internal(
            "the Actions phase did not end".into(),
        ))
    }

    /// Step `step` of the Actions phase played in steps: the rounds up to
    /// and including the next ship's action, so that exact odds merge equal
    /// states after every action. The last step plays every round left and
    /// the flights. Steps `0..last` in order play the same rounds, dice and
    /// events as [`ActionD10::actions_phase`], and leave the same state.
    fn actions_step(
        &self,
        battle: &mut Battle,
        step: u32,
        last: bool,
        tactics: [&dyn ActionTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let mut at = match battle.actions_round.take() {
            Some(at) => at,
            None if step == 0 => ActionsRound::start(battle.first),
            // The ships' part ended in an earlier step.
            None => return Ok(()),
        };
        while at.rounds < MOST_ROUNDS {
            at.rounds += 1;
            match self.action_round(battle, &mut at, tactics, dice, sink)? {
                Round::Over => return self.flights_act(battle, tactics, dice, sink),
                Round::Acted if !last => {
                    battle.actions_round = Some(at);
                    return Ok(());
                }
                Round::Acted | Round::Passed => {}
            }
        }
        Err(ResolveError::Internal(
            "the Actions phase did not end".into(),
        ))
    }

    /// One round of the Actions phase: the side whose turn it is decides
    /// and acts, waits or finishes.
    fn action_round(
        &self,
        battle: &mut Battle,
        at: &mut ActionsRound,
        tactics: [&dyn ActionTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Round, ResolveError> {
        for s in Side::BOTH {
            if !at.done[s.index()] && !self.side_has_actions(battle, s) {
                at.done[s.index()] = true;
            }
        }
        if at.done[0] && at.done[1] {
            return Ok(Round::Over);
        }
        let side = at.side;
        if at.done[side.index()] {
            at.side = side.other();
            return Ok(Round::Passed);
        }
        let other = side.other();
        let last_chance = at.done[other.index()] || at.waited[other.index()];
        at.side = other;
        match tactics[side.index()].next_action(self, battle, side, last_chance) {
            Decision::Done => at.done[side.index()] = true,
            Decision::Wait if last_chance => at.done[side.index()] = true,
            Decision::Wait => at.waited[side.index()] = true,
            Decision::Act(i, action) => {
                at.waited[side.index()] = false;
                if battle.sides.get(i) != Some(&side)
                    || !battle.on_map(i)
                    || battle.turn[i].actions == 0
                {
                    return Err(ResolveError::Internal(format!(
                        "side {side}'s tactics chose ship {i}, which cannot act now"
                    )));
                }
                self.act(battle, i, action, dice, sink)
                    .map_err(|e| match e {
                        ResolveError::Refused(why) => ResolveError::Internal(format!(
                            "tactics chose an illegal {} for the {}: {why}",
                            action.name(),
                            battle.board.names[i]
                        )),
                        other => other,
                    })?;
                self.settle_riders(battle, sink);
                return Ok(Round::Acted);
            }
        }
        Ok(Round::Passed)
    }

    /// Carries out one action of ship `i`, checked against the rules: an
    /// action the rules forbid is refused and changes nothing.
    pub fn act(
        &self,
        battle: &mut Battle,
        i: usize,
        action: Action,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        self.check_action(battle, i, &action)?;
        let rules = &self.rules;
        battle.turn[i].actions -= 1;
        battle.turn[i].acted = battle.turn[i].acted.saturating_add(1);
        let names = Arc::clone(&battle.board.names);
        let name = &names[i];
        sink.emit(|| Event::Declared {
            actor: name.clone(),
            action: self.describe_action(battle, i, &action),
        });
        match action {
            Action::Move { dest, facing } => {
                let d = battle.poses[i].dest.distance(dest);
                self.thrust_to(battle, i, dest, facing, dice, sink)?;
                let pose = battle.poses[i];
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!(
                        "thrusts {d} hex(es): destination {}, velocity {}, facing {}",
                        pose.dest,
                        pose.velocity(),
                        pose.facing.index()
                    ),
                });
            }
            Action::Dock { with } => {
                let with = usize::from(with);
                let dest = battle.poses[with].dest;
                let facing = battle.poses[i].facing;
                self.thrust_to(battle, i, dest, facing, dice, sink)?;
                battle.docked_with[i] = Some(with as u8);
                battle.docked_with[with] = Some(i as u8);
                let other = &names[with];
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!("docks with the {other}"),
                });
            }
            Action::TargetLock { target, rerolls } => {
                let target = usize::from(target);
                let situation = self.lock_situation(battle, i, target);
                let outcome = self.make_lock(
                    &battle.board.ships[i],
                    &battle.board.ships[target],
                    &situation,
                    rerolls,
                    dice,
                    sink,
                )?;
                let t = &mut battle.turn[i];
                t.command_points -= outcome.rerolls_used * rules.constants.reroll_cost;
                if outcome.locked {
                    t.locks.insert(target);
                    t.failed_locks.remove(target);
                } else {
                    t.failed_locks.insert(target);
                }
                let locked = outcome.locked;
                let other = &names[target];
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: if locked {
                        format!("holds a lock on the {other} this turn")
                    } else {
                        format!("fails to lock on the {other}")
                    },
                });
            }
            Action::CoordinateFireControl => {
                let locks = battle.turn[i].locks;
                let reach = rules.constants.coordinate_range;
                for j in 0..battle.board.ships.len() {
                    if j != i
                        && battle.on_map(j)
                        && battle.sides[j] == battle.sides[i]
                        && battle.poses[j].hex.distance(battle.poses[i].hex) <= reach
                    {
                        battle.turn[j].locks = battle.turn[j].locks.union(locks);
                        let friend = &names[j];
                        sink.emit(|| Event::Effect {
                            ship: friend.clone(),
                            effect: format!("shares the {name}'s target locks"),
                        });
                    }
                }
            }
            Action::ChargeWeapon { mount } => {
                battle.board.ships[i].weapons[usize::from(mount)].charged = true;
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!("mount {} charged", mount + 1),
                });
            }
            Action::Aim { target } => battle.turn[i].aims.insert(usize::from(target)),
            Action::Attack {
                mount,
                target,
                rerolls,
            } => self.attack_action(
                battle,
                i,
                usize::from(mount),
                usize::from(target),
                rerolls,
                dice,
                sink,
            )?,
            Action::ActivateHyperdrive => {
                battle.turn[i].hyperdrive = true;
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: "hyperdrive spinning up: it jumps at the end of the turn".into(),
                });
            }
            Action::Repair { item, rerolls } => {
                let outcome =
                    self.repair(&mut battle.board.ships[i], name, item, rerolls, dice, sink)?;
                battle.turn[i].command_points -= outcome.rerolls_used * rules.constants.reroll_cost;
            }
            Action::RechargeShields => {
                let ship = &mut battle.board.ships[i];
                ship.shields = ship.max_shields(rules);
                let shields = ship.shields;
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!("shields recharged to {shields}"),
                });
            }
            Action::LaunchSmallCraft => {
                let ship = &mut battle.board.ships[i];
                let n = if ship.intact(System::Catapult) > 0 {
                    ship.small_craft
                } else {
                    ship.small_craft
                        .min(rules.constants.launch_without_catapult)
                };
                ship.small_craft -= n;
                let left = ship.small_craft;
                battle.flights.push(Flight {
                    carrier: i as u8,
                    side: battle.sides[i],
                    craft: n,
                    hex: battle.poses[i].hex,
                    fresh: true,
                });
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!(
                        "launches {n} small craft ({left} left aboard); they act from next turn"
                    ),
                });
            }
            Action::RecoverSmallCraft => {
                let here = battle.poses[i].hex;
                for f in 0..battle.flights.len() {
                    let ship = &mut battle.board.ships[i];
                    let room = ship
                        .intact(System::SmallCraftBay)
                        .saturating_sub(ship.small_craft);
                    let flight = &mut battle.flights[f];
                    if usize::from(flight.carrier) == i && flight.hex == here && room > 0 {
                        let n = flight.craft.min(room);
                        flight.craft -= n;
                        ship.small_craft += n;
                        sink.emit(|| Event::Effect {
                            ship: name.clone(),
                            effect: format!("recovers {n} small craft"),
                        });
                    }
                }
                battle.flights.retain(|f| f.craft > 0);
            }
            Action::LaunchRider => {
                if let Some(r) = (0..battle.board.ships.len()).find(|&r| {
                    battle.carrier[r] == Some(i as u8)
                        && battle.docked[r]
                        && battle.board.ships[r].is_active()
                }) {
                    battle.docked[r] = false;
                    battle.poses[r] = battle.poses[i];
                    battle.turn[r] = TurnState::default();
                    let rider = &names[r];
                    sink.emit(|| Event::Effect {
                        ship: rider.clone(),
                        effect: "released from the clamps; it acts from next turn".into(),
                    });
                }
            }
            Action::RecoverRider { rider } => {
                let r = usize::from(rider);
                battle.docked[r] = true;
                battle.docked_with[r] = None;
                battle.turn[r] = TurnState::default();
                battle.poses[r] = battle.poses[i];
                let rider = &names[r];
                sink.emit(|| Event::Effect {
                    ship: rider.clone(),
                    effect: "back on its carrier's clamps".into(),
                });
            }
            Action::ActivatePointDefense => battle.turn[i].point_defense = true,
            Action::ReadyTroops => {
                let ship = &mut battle.board.ships[i];
                ship.ready_troops = ship.intact(System::Troops);
                let ready = ship.ready_troops;
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!("{ready} troop unit(s) ready to board"),
                });
            }
            Action::SupportTroops => battle.turn[i].support = true,
            Action::BoardEnemyVessel { target } => {
                let n = battle.board.ships[i].ready_troops;
                self.send_troops(battle, i, usize::from(target), n, sink);
            }
            Action::Transport { target } => {
                let n = battle.board.ships[i]
                    .ready_troops
                    .min(rules.constants.transport_per_action);
                self.send_troops(battle, i, usize::from(target), n, sink);
            }
            Action::Scuttle => {
                battle.turn[i].scuttle = true;
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: "scuttling charges set: it blows up at the end of the turn".into(),
                });
            }
            Action::DropChaffPod => {
                battle.board.ships[i].chaff_pods -= 1;
                battle.turn[i].chaff = true;
            }
            Action::ActivateAntimatterSpread => {
                battle.board.ships[i].antimatter_spreads -= 1;
                battle.turn[i].spread = true;
            }
        }
        Ok(())
    }

    /// Moves a ship's destination counter by thrust, spending remass for a
    /// reaction drive, breaking any dock, and losing cargo if containment
    /// is breached.
    fn thrust_to(
        &self,
        battle: &mut Battle,
        i: usize,
        dest: Hex,
        facing: Direction,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let d = battle.poses[i].dest.distance(dest);
        let d8 = u8::try_from(d).unwrap_or(u8::MAX);
        // Seed 002's breached containment loses cargo "on every maneuver or
        // acceleration": a new facing is a manoeuvre, a new destination an
        // acceleration.
        let manoeuvred = d > 0 || battle.poses[i].facing != facing;
        battle.poses[i].dest = dest;
        battle.poses[i].facing = facing;
        battle.turn[i].moved = true;
        battle.turn[i].displacement = d8;
        let ship = &mut battle.board.ships[i];
        if ship.class(rules).drive == Drive::Reaction {
            ship.remass = ship.remass.saturating_sub(d as u16);
        }
        if let Some(j) = battle.docked_with[i].take() {
            battle.docked_with[usize::from(j)] = None;
        }
        for j in 0..battle.docked_with.len() {
            if battle.docked_with[j] == Some(i as u8) {
                battle.docked_with[j] = None;
            }
        }
        if manoeuvred && battle.board.ships[i].all_lost(rules, crate::model::Letter::Containment) {
            let expr = rules.constants.boxes.containment_breach_cargo;
            let lost = self.roll_expr(
                expr,
                battle.board.ships[i].cargo,
                || "containment breached: cargo lost on the move".into(),
                dice,
                sink,
            )?;
            let ship = &mut battle.board.ships[i];
            ship.cargo -= lost;
            let left = ship.cargo;
            self.say(sink, &battle.board.names[i], || {
                format!("{lost} cargo points lost ({left} left)")
            });
        }
        Ok(())
    }

    /// Sends ready troops aboard an enemy ship.
    fn send_troops(
        &self,
        battle: &mut Battle,
        i: usize,
        target: usize,
        n: u8,
        sink: &mut dyn EventSink,
    ) {
        let ship = &mut battle.board.ships[i];
        ship.ready_troops -= n;
        ship.intact[System::Troops.index()] -= n;
        battle.board.ships[target].boarders += n;
        let (name, other) = (&battle.board.names[i], &battle.board.names[target]);
        sink.emit(|| Event::Effect {
            ship: name.clone(),
            effect: format!("sends {n} troop unit(s) aboard the {other}"),
        });
    }

    /// An Attack action: a salvo launched, or a direct or swarm attack resolved.
    #[allow(
        clippy::too_many_arguments,
        reason = "the attack's parts and the usual rules context"
    )]
    fn attack_action(
        &self,
        battle: &mut Battle,
        i: usize,
        mount: usize,
        target: usize,
        rerolls: u8,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let m = battle.board.ships[i].weapons[mount];
        let weapon = rules.weapon(m.weapon);
        let range = self.fire_range(battle, i, mount, target).ok_or_else(|| {
            ResolveError::Refused("the target is out of the weapon's reach or arc".into())
        })?;
        battle.turn[i].fired |= 1 << mount;
        if weapon.kind.is_salvo() {
            self.spend(&mut battle.board.ships[i], mount);
            let salvo = Salvo {
                id: battle.next_salvo,
                owner: i as u8,
                target: target as u8,
                hex: battle.poses[target].dest,
                from: battle.poses[i].dest,
                range: u8::try_from(range).unwrap_or(u8::MAX),
                weapon: m.weapon,
                missiles: m.bank,
                aim: battle.turn[i].aims.contains(target),
            };
            battle.next_salvo = battle.next_salvo.wrapping_add(1);
            battle.salvos.push(salvo);
            let (name, other) = (&battle.board.names[i], &battle.board.names[target]);
            sink.emit(|| Event::Effect {
                ship: name.clone(),
                effect: format!(
                    "salvo counter {} ({}{}) placed at {}: target {}, range {}{}",
                    salvo.id,
                    weapon.name,
                    if salvo.missiles > 1 {
                        format!(", {} missiles from a bank of {}", salvo.missiles, m.bank)
                    } else {
                        String::new()
                    },
                    salvo.hex,
                    other,
                    salvo.range,
                    if salvo.aim { ", aimed" } else { "" }
                ),
            });
            return Ok(());
        }
        let before = battle.board.ships[target].actions_per_turn(rules);
        let attack = Attack {
            attacker: i,
            mount,
            target,
            range,
            situation: self.situation(battle, i, battle.poses[i].hex, target),
            lock: LockNeed::Held,
            rerolls,
        };
        let outcome = broadside_core::AttackResolution::resolve_attack(
            self,
            &mut battle.board,
            &attack,
            dice,
            sink,
        )?;
        battle.turn[i].command_points -= outcome.rerolls_used * rules.constants.reroll_cost;
        self.lose_actions(battle, target, before);
        Ok(())
    }

    /// A ship that lost A boxes loses as many of its actions left this turn.
    fn lose_actions(&self, battle: &mut Battle, target: usize, before: u8) {
        let after = battle.board.ships[target].actions_per_turn(&self.rules);
        let t = &mut battle.turn[target];
        t.actions = t.actions.saturating_sub(before.saturating_sub(after));
    }

    /// Checks an action against the rules; an action they forbid is refused.
    pub fn check_action(
        &self,
        battle: &Battle,
        i: usize,
        action: &Action,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        if i >= battle.board.ships.len() {
            return Err(ResolveError::Refused(format!("there is no ship {i}")));
        }
        let ship = &battle.board.ships[i];
        let t = &battle.turn[i];
        let refuse = |why: &str| Err(ResolveError::Refused(why.to_owned()));
        if !battle.on_map(i) {
            return refuse("the ship is not in the fight on the map");
        }
        if t.actions == 0 {
            return refuse("the ship has no action left this turn");
        }
        let enemy_on_map = |target: u8| {
            let target = usize::from(target);
            target < battle.board.ships.len()
                && battle.sides[target] != battle.sides[i]
                && battle.on_map(target)
        };
        match *action {
            Action::Move { dest, facing } => {
                if t.moved {
                    return refuse("a ship moves once a turn");
                }
                if battle.poses[i].dest.distance(dest) > ship.thrust(rules) {
                    return refuse("the new destination is beyond the ship's thrust");
                }
                if facing != battle.poses[i].facing && !ship.can_turn() {
                    return refuse("without maneuvering jets the ship cannot turn");
                }
            }
            Action::Dock { with } => {
                let with = usize::from(with);
                if with == i {
                    return refuse("a ship cannot dock with itself");
                }
                if with >= battle.board.ships.len() || !battle.on_map(with) {
                    return refuse("there is no such ship to dock with");
                }
                if t.moved {
                    return refuse("docking uses the turn's move, already made");
                }
                if battle.poses[with].hex != battle.poses[i].hex {
                    return refuse("docking needs both ships in one hex");
                }
                if battle.poses[i].dest.distance(battle.poses[with].dest) > ship.thrust(rules) {
                    return refuse(
                        "matching the other ship's velocity is beyond the ship's thrust",
                    );
                }
            }
            Action::TargetLock { target, rerolls } => {
                if !enemy_on_map(target) {
                    return refuse("the target is not an enemy ship on the map");
                }
                if battle.locked(i, usize::from(target)) {
                    return refuse("the ship already holds a lock on the target");
                }
                if rerolls.saturating_mul(rules.constants.reroll_cost) > t.command_points {
                    return refuse("not enough Command Points for the re-rolls");
                }
            }
            Action::CoordinateFireControl => {
                if t.locks.is_empty() {
                    return refuse("the ship holds no lock to share");
                }
            }
            Action::ChargeWeapon { mount } => {
                let Some(m) = ship.weapons.get(usize::from(mount)) else {
                    return refuse("no such mount");
                };
                if !rules.weapon(m.weapon).charge {
                    return refuse("the mount's weapon needs no charge");
                }
                if m.destroyed {
                    return refuse("the mount is destroyed");
                }
                if m.charged {
                    return refuse("the mount is charged already");
                }
                if !ship.has_power() {
                    return refuse("the power plant is destroyed");
                }
            }
            Action::Aim { target } => {
                if !enemy_on_map(target) {
                    return refuse("the target is not an enemy ship on the map");
                }
                if !battle.locked(i, usize::from(target)) {
                    return refuse("aiming needs a lock on the target");
                }
                if t.aims.contains(usize::from(target)) {
                    return refuse("the ship already aimed at the target");
                }
            }
            Action::Attack {
                mount,
                target,
                rerolls,
            } => {
                let (m, tg) = (usize::from(mount), usize::from(target));
                if m >= ship.weapons.len() {
                    return refuse("no such mount");
                }
                if !enemy_on_map(target) {
                    return refuse("the target is not an enemy ship on the map");
                }
                if !battle.locked(i, tg) {
                    return refuse("an attack needs a target lock");
                }
                if battle.fired(i, m) {
                    return refuse("each weapon attacks once a turn");
                }
                if let Some(why) = ship.why_cannot_fire(rules, m) {
                    return refuse(why);
                }
                if self.fire_range(battle, i, m, tg).is_none() {
                    return refuse("the target is out of the weapon's reach or arc");
                }
                if rerolls.saturating_mul(rules.constants.reroll_cost) > t.command_points {
                    return refuse("not enough Command Points for the re-rolls");
                }
            }
            Action::ActivateHyperdrive => {
                if t.hyperdrive {
                    return refuse("the hyperdrive is spinning up already");
                }
                if !ship.hyperdrive_ready(rules) {
                    return refuse("the hyperdrive cannot be used");
                }
            }
            Action::Repair { item, rerolls } => {
                // The difficulty is there only for damage a repair can mend.
                if self.repair_difficulty(ship, item).is_none() {
                    return refuse(if ship.damaged(rules).contains(&item) {
                        "it cannot be repaired in battle"
                    } else {
                        "nothing to repair there"
                    });
                }
                if rerolls.saturating_mul(rules.constants.reroll_cost) > t.command_points {
                    return refuse("not enough Command Points for the re-rolls");
                }
            }
            Action::RechargeShields => {
                if ship.shields >= ship.max_shields(rules) {
                    return refuse("the shields are at their most");
                }
            }
            Action::LaunchSmallCraft => {
                if ship.small_craft == 0 {
                    return refuse("no small craft aboard");
                }
                if !ship.hangar_usable(rules) {
                    return refuse("the hangar cannot launch");
                }
            }
            Action::RecoverSmallCraft => {
                let here = battle.poses[i].hex;
                let room = ship
                    .intact(System::SmallCraftBay)
                    .saturating_sub(ship.small_craft);
                if !battle
                    .flights
                    .iter()
                    .any(|f| usize::from(f.carrier) == i && f.hex == here)
                {
                    return refuse("no flight of this ship in its hex");
                }
                if !ship.hangar_usable(rules) {
                    return refuse("the hangar is unusable");
                }
                if room == 0 {
                    return refuse("no free bay");
                }
            }
            Action::LaunchRider => {
                if !(0..battle.board.ships.len()).any(|r| {
                    battle.carrier[r] == Some(i as u8)
                        && battle.docked[r]
                        && battle.board.ships[r].is_active()
                }) {
                    return refuse("no rider on the clamps");
                }
            }
            Action::RecoverRider { rider } => {
                let r = usize::from(rider);
                if r >= battle.board.ships.len() || battle.carrier[r] != Some(i as u8) {
                    return refuse("no rider of this ship by that number");
                }
                if !battle.on_map(r) {
                    return refuse("the rider is not in the fight on the map");
                }
                if battle.poses[r].hex != battle.poses[i].hex {
                    return refuse("the rider is not in this ship's hex");
                }
            }
            Action::ActivatePointDefense => {
                if !ship.has_point_defense(rules) {
                    return refuse("no point defence weapon that can fire");
                }
                if t.point_defense {
                    return refuse("point defence is active already");
                }
            }
            Action::ReadyTroops => {
                if ship.intact(System::Troops) <= ship.ready_troops {
                    return refuse("no troops aboard to ready");
                }
            }
            Action::SupportTroops => {
                if t.support {
                    return refuse("already supporting the troops");
                }
            }
            Action::BoardEnemyVessel { target } => {
                if !enemy_on_map(target) {
                    return refuse("the target is not an enemy ship on the map");
                }
                if battle.docked_with[i] != Some(target) {
                    return refuse("boarding needs the ship docked with the enemy");
                }
                if ship.ready_troops == 0 {
                    return refuse("no troops ready");
                }
            }
            Action::Transport { target } => {
                let tg = usize::from(target);
                if !enemy_on_map(target) {
                    return refuse("the target is not an enemy ship on the map");
                }
                if ship.intact(System::Transporter) == 0 {
                    return refuse("no transporter left");
                }
                if ship.ready_troops == 0 {
                    return refuse("no troops ready");
                }
                if battle.poses[i].hex.distance(battle.poses[tg].hex)
                    > rules.constants.transporter_range
                {
                    return refuse("the target is beyond the transporter's reach");
                }
                if battle.board.ships[tg].shields > 0 {
                    return refuse("the target's shields are up");
                }
            }
            Action::Scuttle => {}
            Action::DropChaffPod => {
                if ship.chaff_pods == 0 {
                    return refuse("no chaff pod left");
                }
                if t.chaff {
                    return refuse("a chaff pod was dropped this turn already");
                }
            }
            Action::ActivateAntimatterSpread => {
                if ship.antimatter_spreads == 0 {
                    return refuse("no antimatter spread left");
                }
                if t.spread {
                    return refuse("an antimatter spread is active already");
                }
            }
        }
        Ok(())
    }

    /// An action in words, for the log.
    fn describe_action(&self, battle: &Battle, i: usize, action: &Action) -> String {
        let names = &battle.board.names;
        let mount_name = |m: u8| {
            battle.board.ships[i]
                .weapons
                .get(usize::from(m))
                .map_or("?", |w| self.rules.weapon(w.weapon).name.as_str())
        };
        match *action {
            Action::TargetLock { target, .. } => {
                format!("takes Target Lock on the {}", names[usize::from(target)])
            }
            Action::Attack { mount, target, .. } => format!(
                "takes Attack with its {} (mount {}) on the {}",
                mount_name(mount),
                mount + 1,
                names[usize::from(target)]
            ),
            Action::Aim { target } => format!("takes Aim at the {}", names[usize::from(target)]),
            Action::ChargeWeapon { mount } => {
                format!(
                    "takes Charge Weapon: its {} (mount {})",
                    mount_name(mount),
                    mount + 1
                )
            }
            Action::Repair { item, .. } => format!(
                "takes Repair: {}",
                self.repairable_name(&battle.board.ships[i], item)
            ),
            Action::BoardEnemyVessel { target } | Action::Transport { target } => {
                format!(
                    "takes {} against the {}",
                    action.name(),
                    names[usize::from(target)]
                )
            }
            Action::Dock { with } => format!("takes Dock with the {}", names[usize::from(with)]),
            _ => format!("takes {}", action.name()),
        }
    }

    /// Small craft flights act after the ships: the initiative winner's
    /// first, each moving and then attacking as a swarm.
    fn flights_act(
        &self,
        battle: &mut Battle,
        tactics: [&dyn ActionTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        for side in [battle.first, battle.first.other()] {
            for f in 0..battle.flights.len() {
                let flight = battle.flights[f];
                if flight.side != side || flight.fresh || flight.craft == 0 {
                    continue;
                }
                let carrier = battle.board.ships[usize::from(flight.carrier)].class(rules);
                let Some(craft) = carrier.small_craft else {
                    continue;
                };
                let order = tactics[side.index()].flight(self, battle, f);
                if flight.hex.distance(order.to) > craft.speed {
                    return Err(ResolveError::Internal(format!(
                        "tactics moved a flight {} hexes with speed {}",
                        flight.hex.distance(order.to),
                        craft.speed
                    )));
                }
                battle.flights[f].hex = order.to;
                if order.to != flight.hex {
                    let carrier_name = &battle.board.names[usize::from(flight.carrier)];
                    sink.emit(|| Event::Effect {
                        ship: format!("the {carrier_name}'s flight"),
                        effect: format!("moves from {} to {}", flight.hex, order.to),
                    });
                }
                let Some(target) = order.target else {
                    continue;
                };
                let weapon = rules.weapon(craft.weapon);
                let range = order
                    .to
                    .distance(battle.poses.get(target).map_or(order.to, |p| p.hex));
                if target >= battle.board.ships.len()
                    || battle.sides[target] == side
                    || !battle.on_map(target)
                    || weapon.bracket(range).is_none()
                {
                    return Err(ResolveError::Internal(
                        "tactics sent a flight against a ship it cannot attack".into(),
                    ));
                }
                let target_name = &battle.board.names[target];
                let carrier_name = &battle.board.names[usize::from(flight.carrier)];
                sink.emit(|| Event::Declared {
                    actor: format!(
                        "the {carrier_name}'s flight of {} small craft",
                        flight.craft
                    ),
                    action: format!("attacks the {target_name} at range {range}"),
                });
                let before = battle.board.ships[target].actions_per_turn(rules);
                // A flight aims on its own: its carrier's Aim does not count.
                let strike = Strike {
                    weapon: craft.weapon,
                    dice: 1,
                    swarm: u32::from(flight.craft),
                    target,
                    range,
                    situation: Situation {
                        aim: false,
                        ..self.situation(battle, usize::from(flight.carrier), order.to, target)
                    },
                    rerolls: 0,
                };
                self.strike(&mut battle.board, &strike, dice, sink)?;
                self.lose_actions(battle, target, before);
                self.settle_riders(battle, sink);
            }
        }
        Ok(())
    }

    /// The Drift phase: every ship on the map moves to its destination
    /// counter and keeps its velocity; riders on clamps go with their carrier.
    fn drift_phase(&self, battle: &mut Battle, sink: &mut dyn EventSink) {
        for i in 0..battle.board.ships.len() {
            if !battle.on_map(i) {
                continue;
            }
            let pose = battle.poses[i];
            let velocity = pose.velocity();
            battle.poses[i] = Pose {
                hex: pose.dest,
                dest: pose.dest + velocity,
                facing: pose.facing,
            };
            if velocity != Hex::ORIGIN {
                let name = &battle.board.names[i];
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!("drifts to {} (velocity {velocity})", pose.dest),
                });
            }
        }
        for r in 0..battle.board.ships.len() {
            if battle.docked[r]
                && let Some(c) = battle.carrier[r]
            {
                battle.poses[r] = battle.poses[usize::from(c)];
            }
        }
    }

    /// The Gravity phase: a body pulls every ship within its well toward
    /// it, shifting the ship's destination counter.
    fn gravity_phase(&self, battle: &mut Battle, turn: u32, sink: &mut dyn EventSink) {
        let Some(body) = battle.gravity_well else {
            if turn == 1 {
                sink.emit(|| Event::Ruling {
                    text: "no body's gravity well reaches this engagement: the Gravity phase does nothing".into(),
                });
            }
            return;
        };
        let c = &self.rules.constants;
        for i in 0..battle.board.ships.len() {
            if !battle.on_map(i) || battle.poses[i].hex.distance(body) > c.gravity_well {
                continue;
            }
            for _ in 0..c.gravity_pull {
                let dest = battle.poses[i].dest;
                if dest == body {
                    break;
                }
                let step = Direction::ALL
                    .into_iter()
                    .min_by_key(|&d| (dest.neighbour(d).distance(body), d.index()))
                    .unwrap_or(Direction::EAST);
                battle.poses[i].dest = dest.neighbour(step);
            }
            let (name, dest) = (&battle.board.names[i], battle.poses[i].dest);
            sink.emit(|| Event::Effect {
                ship: name.clone(),
                effect: format!("pulled by gravity: destination now {dest}"),
            });
        }
    }

    /// The Point Defense Fire phase: antimatter spreads, then each ship that
    /// activated point defence fires its point defence weapons.
    fn point_defense_phase(
        &self,
        battle: &mut Battle,
        tactics: [&dyn ActionTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let order: Vec<usize> = battle
            .ships_of(battle.first)
            .chain(battle.ships_of(battle.first.other()))
            .collect();
        for &i in &order {
            if !battle.turn[i].spread {
                continue;
            }
            let kill = rules.constants.antimatter_kill;
            let mut s = 0;
            while s < battle.salvos.len() {
                if usize::from(battle.salvos[s].target) != i {
                    s += 1;
                    continue;
                }
                let check = dice.check(Die::D10, kill)?;
                let id = battle.salvos[s].id;
                sink.emit(|| Event::Check {
                    what: format!("antimatter spread against salvo {id}"),
                    roll: check.face as i32,
                    target: kill,
                    success: check.passed,
                    rule: None,
                });
                if check.passed {
                    battle.salvos.remove(s);
                } else {
                    s += 1;
                }
            }
        }
        for &i in &order {
            if !battle.turn[i].point_defense || !battle.on_map(i) {
                continue;
            }
            let ship = &battle.board.ships[i];
            let reach = (0..ship.weapons.len())
                .filter(|&m| rules.weapon(ship.weapons[m].weapon).point_defense)
                .map(|m| rules.weapon(ship.weapons[m].weapon).max_range())
                .max()
                .unwrap_or(0);
            let threats = self.threats(battle, i, reach);
            if threats.is_empty() {
                continue;
            }
            let shots = tactics[battle.sides[i].index()].point_defense(self, battle, i, &threats);
            let mut used = 0u16;
            let mut hits_on: Vec<(Threat, u32)> = Vec::new();
            // What each threat has left after the shots already rolled, so
            // no report claims more than the salvo or flight holds.
            let mut left: Vec<u32> = threats
                .iter()
                .map(|&(threat, _)| match threat {
                    Threat::Salvo(s) => u32::from(battle.salvos[s].missiles),
                    Threat::Flight(f) => u32::from(battle.flights[f].craft),
                })
                .collect();
            for (m, k) in shots {
                let ship = &battle.board.ships[i];
                let Some(&(threat, range)) = threats.get(k) else {
                    return Err(ResolveError::Internal(
                        "tactics fired point defence at a threat not offered".into(),
                    ));
                };
                if m >= ship.weapons.len()
                    || used & (1 << m) != 0
                    || !rules.weapon(ship.weapons[m].weapon).point_defense
                    || !ship.can_fire(rules, m)
                    || rules
                        .weapon(ship.weapons[m].weapon)
                        .bracket(range)
                        .is_none()
                {
                    return Err(ResolveError::Internal(format!(
                        "tactics chose an illegal point defence shot for the {}",
                        battle.board.names[i]
                    )));
                }
                used |= 1 << m;
                let downed =
                    self.point_defense_shot(battle, i, m, threat, range, left[k], dice, sink)?;
                left[k] -= downed;
                hits_on.push((threat, downed));
            }
            // Salvos and craft shot down leave together, so indices stay
            // valid while the shots are rolled.
            for &(threat, downed) in &hits_on {
                let downed = u8::try_from(downed).unwrap_or(u8::MAX);
                match threat {
                    Threat::Salvo(s) => {
                        let salvo = &mut battle.salvos[s];
                        salvo.missiles = salvo.missiles.saturating_sub(downed);
                        if salvo.missiles == 0 {
                            salvo.id = 0;
                        }
                    }
                    Threat::Flight(f) => {
                        let flight = &mut battle.flights[f];
                        flight.craft = flight.craft.saturating_sub(downed);
                    }
                }
            }
            battle.salvos.retain(|s| s.id != 0);
            battle.flights.retain(|f| f.craft > 0);
        }
        Ok(())
    }

    /// One point defence weapon fires at one threat that has `left`
    /// missiles or craft after the shots before it; returns how many it
    /// shot down: one per hit, no more than are left.
    #[allow(
        clippy::too_many_arguments,
        reason = "the shot's parts and the usual rules context"
    )]
    fn point_defense_shot(
        &self,
        battle: &mut Battle,
        i: usize,
        m: usize,
        threat: Threat,
        range: u32,
        left: u32,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<u32, ResolveError> {
        let rules = &self.rules;
        let t = &rules.constants.to_hit;
        let mount = battle.board.ships[i].weapons[m];
        let weapon = rules.weapon(mount.weapon);
        self.spend(&mut battle.board.ships[i], m);
        let name = &battle.board.names[i];
        let base = weapon.bracket(range).map_or(0, |b| b.value);
        let (modifier, reason) = match threat {
            Threat::Salvo(_) if weapon.antimissile => (
                0,
                "a dedicated antimissile weapon ignores the warhead modifier",
            ),
            Threat::Salvo(_) => (t.warhead, "firing at a warhead"),
            Threat::Flight(_) => (t.small_craft_size, "small craft size"),
        };
        // The threat's name is built only when a sink keeps the events.
        let what = || match threat {
            Threat::Salvo(s) => format!("salvo {}", battle.salvos[s].id),
            Threat::Flight(f) => format!("a flight of {} small craft", battle.flights[f].craft),
        };
        let number = base + modifier;
        sink.emit(|| Event::Declared {
            actor: name.clone(),
            action: format!(
                "fires point defence: its {} (mount {}) at {}, range {range}",
                weapon.name,
                m + 1,
                what()
            ),
        });
        sink.emit(|| Event::Base {
            what: "to-hit number".into(),
            value: base,
            source: format!("{} at range {range}", weapon.name),
        });
        if modifier != 0 || weapon.antimissile {
            sink.emit(|| Event::Modifier {
                to: "to-hit number".into(),
                amount: modifier,
                reason: reason.into(),
            });
        }
        let mut hits = 0;
        // The natural miss folded into the number: a hit is one check.
        let needed = crate::attack::hit_number(number, t.natural_miss);
        for _ in 0..mount.bank {
            let check = dice.check(Die::D10, needed)?;
            let hit = check.passed;
            sink.emit(|| Event::Check {
                what: if hit {
                    "point defence hit".into()
                } else {
                    "point defence miss".into()
                },
                roll: check.face as i32,
                target: number,
                success: hit,
                rule: crate::attack::natural_miss_ruled(check.face, number, t.natural_miss)
                    .then(|| format!("a natural {} always misses", t.natural_miss)),
            });
            if hit {
                hits += 1;
            }
        }
        let downed = hits.min(left);
        if downed > 0 {
            let rest = left - downed;
            sink.emit(|| Event::Effect {
                ship: name.clone(),
                effect: match threat {
                    Threat::Salvo(_) if rest == 0 => format!("shoots down {}", what()),
                    Threat::Salvo(_) => {
                        format!(
                            "shoots down {downed} missile(s) of {} ({rest} left)",
                            what()
                        )
                    }
                    Threat::Flight(_) if rest == 0 => {
                        format!("shoots down {downed} small craft: none of the flight is left")
                    }
                    Threat::Flight(_) => format!("shoots down {downed} small craft ({rest} left)"),
                },
            });
        }
        if hits > downed {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "{} hit(s) find nothing left of {} to shoot down",
                    hits - downed,
                    what()
                ),
            });
        }
        Ok(downed)
    }

    /// The Missile Resolution phase: each salvo strikes its target if the
    /// target's ship is in the salvo's hex, and is discarded otherwise.
    fn missile_phase(
        &self,
        battle: &mut Battle,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let salvos = std::mem::take(&mut battle.salvos);
        for salvo in &salvos {
            let target = usize::from(salvo.target);
            let weapon = rules.weapon(salvo.weapon);
            if !battle.on_map(target) || battle.poses[target].hex != salvo.hex {
                let name = &battle.board.names[target];
                sink.emit(|| Event::Ruling {
                    text: format!(
                        "salvo {} ({}) discarded: the {name} is not in its hex {}",
                        salvo.id, weapon.name, salvo.hex
                    ),
                });
                continue;
            }
            let owner = usize::from(salvo.owner);
            let name = &battle.board.names[owner];
            sink.emit(|| Event::Declared {
                actor: format!("salvo {} of the {name}", salvo.id),
                action: format!(
                    "strikes the {} ({}{} at range {})",
                    battle.board.names[target],
                    weapon.name,
                    if salvo.missiles > 1 {
                        format!(", {} missiles", salvo.missiles)
                    } else {
                        String::new()
                    },
                    salvo.range
                ),
            });
            let before = battle.board.ships[target].actions_per_turn(rules);
            // One d10 per missile left in the counter, as a bank of direct
            // fire weapons rolls one per weapon.
            let strike = Strike {
                weapon: salvo.weapon,
                dice: salvo.missiles,
                swarm: 0,
                target,
                range: u32::from(salvo.range),
                situation: Situation {
                    displacement: u32::from(battle.turn[target].displacement),
                    aft: self.from_aft(battle, salvo.from, target),
                    aim: salvo.aim,
                    chaff: battle.turn[target].chaff,
                },
                rerolls: 0,
            };
            self.strike(&mut battle.board, &strike, dice, sink)?;
            self.lose_actions(battle, target, before);
            self.settle_riders(battle, sink);
        }
        let mut salvos = salvos;
        salvos.clear();
        battle.salvos = salvos;
        Ok(())
    }

    /// The Record Keeping phase: bleeding tanks, boarding, jumps and
    /// scuttling; then the turn's state is cleared.
    fn record_phase(
        &self,
        battle: &mut Battle,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let c = &rules.constants;
        let names = Arc::clone(&battle.board.names);
        let mut jumped = [false; 2];
        let fought = Side::BOTH.map(|side| self.side_can_fight(battle, side));
        for i in 0..battle.board.ships.len() {
            let name = &names[i];
            if !battle.board.ships[i].is_active() {
                continue;
            }
            if battle.board.ships[i].all_lost(rules, crate::model::Letter::Remass)
                && battle.board.ships[i].remass > 0
            {
                let lost = self.roll_expr(
                    c.boxes.remass_bleed,
                    battle.board.ships[i].remass,
                    || "remass bleeding from breached tanks".into(),
                    dice,
                    sink,
                )?;
                let ship = &mut battle.board.ships[i];
                ship.remass -= lost;
                let left = ship.remass;
                self.say(sink, name, || {
                    format!("{lost} remass burns bleed away ({left} left)")
                });
            }
            if battle.board.ships[i].boarders > 0 {
                self.boarding_round(battle, i, dice, sink)?;
            }
            if battle.turn[i].hyperdrive && battle.board.ships[i].is_active() {
                if battle.board.ships[i].hyperdrive_ready(rules) && !battle.docked[i] {
                    battle.board.ships[i].status = Status::Escaped;
                    jumped[battle.sides[i].index()] = true;
                    self.say(sink, name, || {
                        "jumps to hyperspace and leaves the fight".into()
                    });
                } else {
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "the {name}'s hyperdrive was damaged before the jump: it stays"
                        ),
                    });
                }
            }
            if battle.turn[i].scuttle && battle.board.ships[i].is_active() {
                battle.board.ships[i].status = Status::Scuttled;
                self.say(sink, name, || "scuttled: the charges blow".into());
            }
        }
        self.settle_riders(battle, sink);
        for side in Side::BOTH {
            if jumped[side.index()] && fought[side.index()] && !self.side_can_fight(battle, side) {
                battle.left_by_jump[side.index()] = true;
            }
        }
        if jumped == [true, true]
            && !self.side_can_fight(battle, Side::A)
            && !self.side_can_fight(battle, Side::B)
        {
            // Core's verdict for "neither side fights on" is a draw; here it
            // is a draw by mutual escape, not a mutual defeat.
            sink.emit(|| Event::Ruling {
                text: "both sides' last fighting ships jumped away this turn: a draw, both sides escaped and neither lost a ship".into(),
            });
        }
        for f in &mut battle.flights {
            f.fresh = false;
        }
        Ok(())
    }

    /// One round of boarding combat aboard ship `i`: each boarder, then each
    /// defender, rolls 1d10; a hit at or under the number kills one enemy
    /// unit. Losses are taken together; a ship with boarders and no
    /// defenders left is captured.
    fn boarding_round(
        &self,
        battle: &mut Battle,
        i: usize,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let c = &self.rules.constants;
        let attackers = battle.board.ships[i].boarders;
        let defenders = battle.board.ships[i].intact(System::Troops);
        let boarding_side = battle.sides[i].other();
        let supported = (0..battle.board.ships.len())
            .any(|j| battle.sides[j] == boarding_side && battle.turn[j].support);
        let attack_number = c.boarding_hit + if supported { c.support_bonus } else { 0 };
        let name = &battle.board.names[i];
        let mut killed_defenders = 0u8;
        let mut killed_attackers = 0u8;
        if defenders > 0 {
            for _ in 0..attackers {
                let check = dice.check(Die::D10, attack_number)?;
                sink.emit(|| Event::Check {
                    what: format!("boarder aboard the {name}"),
                    roll: check.face as i32,
                    target: attack_number,
                    success: check.passed,
                    rule: supported.then(|| "supported this turn".to_owned()),
                });
                killed_defenders += u8::from(check.passed);
            }
            for _ in 0..defenders {
                let check = dice.check(Die::D10, c.boarding_hit)?;
                sink.emit(|| Event::Check {
                    what: format!("defender of the {name}"),
                    roll: check.face as i32,
                    target: c.boarding_hit,
                    success: check.passed,
                    rule: None,
                });
                killed_attackers += u8::from(check.passed);
            }
        }
        let ship = &mut battle.board.ships[i];
        ship.boarders = attackers.saturating_sub(killed_attackers);
        ship.intact[System::Troops.index()] = defenders.saturating_sub(killed_defenders);
        ship.ready_troops = ship.ready_troops.min(ship.intact(System::Troops));
        let (left_a, left_d) = (ship.boarders, ship.intact(System::Troops));
        self.say(sink, name, || {
            format!("boarding: {left_a} boarder(s) and {left_d} defender(s) left")
        });
        if left_a > 0 && left_d == 0 {
            battle.board.ships[i].status = Status::Captured;
            self.say(sink, name, || "captured by enemy troops".into());
        }
        Ok(())
    }

    /// Whether a side still has a ship that can fight.
    pub fn side_can_fight(&self, battle: &Battle, side: Side) -> bool {
        (0..battle.board.ships.len())
            .any(|i| battle.sides[i] == side && battle.board.ships[i].can_fight(&self.rules))
    }
}

/// A rules engine bound to its tactics: the action-d10 turn sequence.
pub struct Sequence<'a> {
    /// The rules.
    pub system: &'a ActionD10,
    /// The steps the Actions phase is played in (see
    /// [`TurnSequence::steps`]): one per action the battle's ships could
    /// take in a turn, and one more to finish; 1 plays it whole.
    pub actions_steps: u32,
}

impl<'a> Sequence<'a> {
    /// The sequence with each phase played whole.
    pub fn new(system: &'a ActionD10) -> Sequence<'a> {
        Sequence {
            system,
            actions_steps: 1,
        }
    }

    /// The sequence for a battle that starts as `start`, its Actions phase
    /// played in steps, one per action its ships could take in a turn.
    pub fn for_battle(system: &'a ActionD10, start: &Battle) -> Sequence<'a> {
        let c = &system.rules.constants;
        // Actions only ever fall: boxes are not repaired in battle, and no
        // ship buys more extra actions than the rules allow or its Command
        // Points pay for.
        let actions: u32 = start
            .board
            .ships
            .iter()
            .map(|ship| {
                let points = ship.command_points(&system.rules);
                // Validation keeps the cost at 1 or more.
                let extra = c.extra_actions.min(points / c.extra_action_cost);
                u32::from(ship.actions_per_turn(&system.rules)) + u32::from(extra)
            })
            .sum();
        Sequence {
            system,
            actions_steps: actions.saturating_add(1),
        }
    }
}

impl TurnSequence for Sequence<'_> {
    type State = Battle;
    type Phase = Phase;
    type Tactics = dyn ActionTactics;

    fn phases(&self, _turn: u32) -> &[Phase] {
        &SEQUENCE
    }

    fn play_phase(
        &self,
        phase: Phase,
        turn: u32,
        battle: &mut Battle,
        tactics: [&dyn ActionTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let system = self.system;
        match phase {
            Phase::CommandPoints => system.command_phase(battle, tactics, sink),
            Phase::Initiative => system.initiative_phase(battle, dice, sink),
            Phase::Actions => system.actions_phase(battle, tactics, dice, sink),
            Phase::Drift => {
                system.drift_phase(battle, sink);
                Ok(())
            }
            Phase::Gravity => {
                system.gravity_phase(battle, turn, sink);
                Ok(())
            }
            Phase::PointDefenseFire => system.point_defense_phase(battle, tactics, dice, sink),
            Phase::MissileResolution => system.missile_phase(battle, dice, sink),
            Phase::RecordKeeping => system.record_phase(battle, dice, sink),
        }
    }

    fn steps(&self, phase: Phase, _turn: u32) -> u32 {
        match phase {
            Phase::Actions => self.actions_steps.max(1),
            _ => 1,
        }
    }

    fn play_step(
        &self,
        phase: Phase,
        turn: u32,
        step: u32,
        battle: &mut Battle,
        tactics: [&Self::Tactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let steps = self.steps(phase, turn);
        if phase == Phase::Actions && steps > 1 {
            return self
                .system
                .actions_step(battle, step, step + 1 >= steps, tactics, dice, sink);
        }
        self.play_phase(phase, turn, battle, tactics, dice, sink)
    }

    fn verdict(&self, battle: &Battle) -> Option<Verdict> {
        let fights = |side| self.system.side_can_fight(battle, side);
        let escaped = |side: Side| battle.left_by_jump[side.index()];
        let (a, b) = (fights(Side::A), fights(Side::B));
        // A side that is out of the fight because its last fighting ships
        // jumped away escaped; it did not lose. A side that fought on after
        // an earlier jump and was beaten lost (ruling 53).
        match Verdict::from_able(a, b) {
            Some(Verdict::Winner(Side::A)) if escaped(Side::B) => Some(Verdict::Escaped(Side::B)),
            Some(Verdict::Winner(Side::B)) if escaped(Side::A) => Some(Verdict::Escaped(Side::A)),
            verdict => verdict,
        }
    }
}

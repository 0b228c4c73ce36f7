//! Whole engagements: power, movement, fire and recovery phases on a hex map, played through core's `TurnSequence`.
//!
//! The published section covers how a hit lands and what it breaks; the turn
//! around it is a set of rulings, each in `rules.toml` `[engagement]` and the
//! rules note:
//! - Power: a ship with a working Engine reallocates power, restoring its
//!   Guns and (with a working Shields module) its Shields; Used markers and
//!   shot counts are cleared, and each working Science Bay gives its scans.
//! - Movement: each side in turn moves its ships, one at a time in the order
//!   they were named, each up to its Speed in hexes (none without a working
//!   Engine), turning one hexside before and one after (not without a
//!   working Helm, nor while tumbling).
//! - Fire: each side in turn fires, one ship at a time in the order named,
//!   each firing what bears one shot at a time at any living enemy, the
//!   tactics choosing each shot in the light of the last.
//! - Recovery: repairs (Engineering checks) and OOC recovery (a Piloting
//!   check at the Helm), ship by ship.
//!
//! Which side moves and fires first is rolled for on the first turn and
//! alternates after. A side is beaten when every one of its ships has
//! exploded. Decisions come from a [`ModuleGridTactics`]; this module checks
//! them against the rules and treats an illegal answer as an internal error.
//!
//! Ships are numbered on the board as in core's roster: side A's in the
//! order named, then side B's. A one-against-one battle is the duel it has
//! always been: the same placement, the same names and the same dice.

use std::sync::Arc;

use broadside_core::hex::{Direction, Hex};
use broadside_core::{
    BattleRequest, Dice, Die, Event, EventSink, Frame, FrameRules, Loss, ResolveError, Roster,
    ShipFate, Side, TurnSequence, Verdict, roll_first,
};

use crate::ModuleGrid;
use crate::attack::{AllocationView, Board, BurstFirer, Shot, Weapon};
use crate::damage::{Cause, Hit};
use crate::explosion::Bystander;
use crate::model::{Function, Mode, ModuleIx, ModuleSet, ShipSide, SideSet, Square};
use crate::placement::{Placement, parse_hexes};
use crate::sight::{self, MapObject, Sight};
use crate::tactics::{DefaultTactics, ModuleGridTactics};

/// Where a ship is and which way it points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pose {
    /// Its hex.
    pub hex: Hex,
    /// The hexside its bow points through.
    pub facing: Direction,
}

/// A ship's movement for one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Maneuver {
    /// A turn before moving: -1 left, 0 none, +1 right.
    pub turn_before: i8,
    /// Hexes moved straight ahead.
    pub steps: u8,
    /// A turn after moving: -1 left, 0 none, +1 right.
    pub turn_after: i8,
}

impl Maneuver {
    /// Where the move ends from a pose.
    pub fn apply(self, pose: Pose) -> Pose {
        let facing = pose.facing.turn(i32::from(self.turn_before));
        let hex = pose.hex.step(facing, i32::from(self.steps));
        Pose {
            hex,
            facing: facing.turn(i32::from(self.turn_after)),
        }
    }
}

/// A shot the tactics choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShotChoice {
    /// The board index of the enemy fired at: one of the targets offered.
    pub target: usize,
    /// What fires.
    pub weapon: Weapon,
    /// The side struck, from those offered.
    pub side: ShipSide,
    /// The point called as the "7" (direct fire only).
    pub call: Option<Square>,
}

/// What a ship can do against one enemy ship this fire phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FireOptions {
    /// The enemy ship's board index.
    pub target: usize,
    /// Hexes to it.
    pub range: u32,
    /// Whether the line of sight is clear.
    pub sight: Sight,
    /// The target's sides a shot may strike (one; two at a corner; all four
    /// in the same hex).
    pub struck: SideSet,
    /// The firer's own sides the line leaves through.
    pub toward: SideSet,
    /// Working Cannons that bear on the target with a shot left this turn.
    pub cannons: ModuleSet,
    /// Working, unused Missile Bays with an external facing, with missiles
    /// left and the target in missile range.
    pub missile_bays: ModuleSet,
    /// Working, unused Teleporters with bombs left and a clear line.
    pub teleporters: ModuleSet,
}

/// A phase of the game turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Power reallocation, Used markers cleared, scans.
    Power,
    /// The first side moves.
    FirstMovement,
    /// The second side moves.
    SecondMovement,
    /// The first side fires.
    FirstFire,
    /// The second side fires.
    SecondFire,
    /// Repairs and OOC recovery.
    Recovery,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Power => "power phase",
            Phase::FirstMovement => "first side's movement",
            Phase::SecondMovement => "second side's movement",
            Phase::FirstFire => "first side's fire",
            Phase::SecondFire => "second side's fire",
            Phase::Recovery => "recovery phase",
        })
    }
}

const TURN: [Phase; 6] = [
    Phase::Power,
    Phase::FirstMovement,
    Phase::SecondMovement,
    Phase::FirstFire,
    Phase::SecondFire,
    Phase::Recovery,
];

/// The most ships a battle holds: sets of ships (those exploded, those whose
/// blast is resolved) are bits of one `u64`. Two sides of core's largest
/// fleet fit well inside it.
pub const MAX_SHIPS: usize = 64;

/// Everything that changes during an engagement: the ships of both sides on
/// one board, side A's in the order named, then side B's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Battle {
    /// The ships and their names.
    pub board: Board,
    /// Each ship's position, in board order.
    pub poses: Vec<Pose>,
    /// Each ship's side, in board order.
    pub sides: Arc<[Side]>,
    /// The side acting first this turn.
    pub first: Side,
    /// How far each ship has come in firing during the fire phase being
    /// played: empty between phases.
    pub firing: Firing,
}

/// Which ships have come to fire in the phase being played, which have
/// finished (one bit each), and the shot under way: what a fire phase
/// played in steps (a part of a shot a step) carries from step to step. A
/// ship's bits are cleared when its fire is over and a shot is under way
/// only within a ship's fire, so all is clear between phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Firing {
    /// Ships that have made their scans and are firing.
    pub started: u64,
    /// Ships that have fired every shot they will.
    pub done: u64,
    /// The shot under way, between its parts.
    pub shot: Option<ShotUnderWay>,
}

/// A shot resolved in part: the hit allocated, or its dice laid, and what
/// is still to come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShotUnderWay {
    /// The board index of the ship struck.
    pub target: usize,
    /// The hit whose dice are still to be laid, if they are.
    pub hit: Option<Hit>,
    /// Whether the target's hull check is still to come.
    pub hull_check: bool,
    /// The power of the Fusion burst still to reach the ships beyond the
    /// target, if the shot was a Fusion shot that hit.
    pub burst: Option<u8>,
    /// The ships that had exploded before the shot.
    pub exploded_before: u64,
}

impl Battle {
    /// The side whose turn a phase belongs to.
    pub fn actor(&self, phase: Phase) -> Side {
        match phase {
            Phase::SecondMovement | Phase::SecondFire => self.first.other(),
            _ => self.first,
        }
    }

    /// A ship's side.
    pub fn side_of(&self, ship: usize) -> Side {
        self.sides[ship]
    }

    /// The board indices of a side's ships, exploded or not, in board order.
    pub fn of_side(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        (0..self.sides.len()).filter(move |&i| self.sides[i] == side)
    }

    /// The ships of the other side that have not exploded, in board order.
    pub fn enemies(&self, ship: usize) -> impl Iterator<Item = usize> + '_ {
        let theirs = self.sides[ship].other();
        self.of_side(theirs)
            .filter(|&i| !self.board.ships[i].is_destroyed())
    }

    /// The other ships of the same side that have not exploded, in board
    /// order.
    pub fn allies(&self, ship: usize) -> impl Iterator<Item = usize> + '_ {
        self.of_side(self.sides[ship])
            .filter(move |&i| i != ship && !self.board.ships[i].is_destroyed())
    }

    /// Whether a side still has a ship that has not exploded.
    pub fn side_stands(&self, side: Side) -> bool {
        self.of_side(side)
            .any(|i| !self.board.ships[i].is_destroyed())
    }
}

impl ModuleGrid {
    /// A duel between two ships: A at the origin facing east, B `range`
    /// hexes east facing west.
    pub fn battle(&self, a: &str, b: &str, range: u32) -> Result<Battle, ResolveError> {
        let roster = Roster::new(&[a.to_owned()], &[b.to_owned()]);
        self.fleet_battle(
            &roster,
            range,
            &[Placement::default(), Placement::default()],
        )
    }

    /// A battle between the ships of a roster, each side placed by its
    /// set-up: side A's lead ship at the origin, side B's `range` hexes east
    /// (see [`crate::placement`]).
    pub fn fleet_battle(
        &self,
        roster: &Roster,
        range: u32,
        placement: &[Placement; 2],
    ) -> Result<Battle, ResolveError> {
        if roster.len() > MAX_SHIPS {
            return Err(ResolveError::bad_option(
                "side",
                format!(
                    "{} ships in all, but a module-grid battle holds at most {MAX_SHIPS}",
                    roster.len()
                ),
            ));
        }
        let known = || self.rules.ships.iter().map(|s| s.id.as_str());
        let mut ships = Vec::with_capacity(roster.len());
        for entry in roster.ships() {
            ships.push(
                self.ship(&entry.id)
                    .ok_or_else(|| ResolveError::unknown("ship", &entry.id, known()))?,
            );
        }
        let range =
            i32::try_from(range).map_err(|_| ResolveError::bad_option("start-range", "too far"))?;
        let mut poses = Vec::with_capacity(roster.len());
        for (side, lead) in [
            (Side::A, Hex::ORIGIN),
            (Side::B, Hex::ORIGIN.step(Direction::EAST, range)),
        ] {
            let count = roster.side_len(side);
            poses.extend(placement[side.index()].poses(side, lead, count));
        }
        Ok(Battle {
            board: Board {
                ships,
                names: roster.ships().iter().map(|s| s.name.clone()).collect(),
            },
            poses,
            sides: roster.ships().iter().map(|s| s.side).collect(),
            first: Side::A,
            firing: Firing::default(),
        })
    }

    /// Whether a ship's OOC is above its pilot's skill: it tumbles and
    /// cannot turn.
    pub fn tumbling(&self, battle: &Battle, ship: usize) -> bool {
        let s = &battle.board.ships[ship];
        let pilot = self
            .rules
            .class(s.class)
            .crew
            .level(self.rules.constants.ooc_recovery_skill);
        i32::from(s.ooc) > i32::from(pilot)
    }

    /// Whether a maneuver is legal for a ship now.
    pub fn maneuver_allowed(
        &self,
        battle: &Battle,
        ship: usize,
        m: Maneuver,
    ) -> Result<(), String> {
        let s = &battle.board.ships[ship];
        let class = self.rules.class(s.class);
        let speed = if s.has_working(class, Function::Engine) {
            class.speed
        } else {
            0
        };
        if m.steps > speed {
            return Err(format!("{} hexes, but it can move {speed}", m.steps));
        }
        if m.turn_before.abs() > 1 || m.turn_after.abs() > 1 {
            return Err("a turn is one hexside at a time".into());
        }
        if (m.turn_before != 0 || m.turn_after != 0)
            && (!s.has_working(class, Function::Helm) || self.tumbling(battle, ship))
        {
            return Err("it cannot turn without a working Helm or while tumbling".into());
        }
        Ok(())
    }

    /// What a ship can fire at every enemy that has not exploded, one entry
    /// per enemy in board order.
    pub fn fire_options_all(
        &self,
        battle: &Battle,
        ship: usize,
        objects: &[MapObject],
    ) -> Vec<FireOptions> {
        battle
            .enemies(ship)
            .map(|target| self.fire_options(battle, ship, target, objects))
            .collect()
    }

    /// What a ship can fire at one other ship now. Range, line of sight,
    /// the sides struck and the firer's sides facing it are all taken for
    /// this pair alone: a third ship neither blocks the line nor, sharing a
    /// hex with the firer, gives facing on anyone.
    pub fn fire_options(
        &self,
        battle: &Battle,
        ship: usize,
        target: usize,
        objects: &[MapObject],
    ) -> FireOptions {
        let me = &battle.board.ships[ship];
        let class = self.rules.class(me.class);
        let from = battle.poses[ship];
        let to = battle.poses[target];
        let range = from.hex.distance(to.hex);
        let sight = self.line_of_sight(from.hex, to.hex, objects);
        let struck = sight::sides_struck(from.hex, to.hex, to.facing);
        let toward = sight::sides_toward(from.hex, from.facing, to.hex);
        let mut options = FireOptions {
            target,
            range,
            sight,
            struck,
            toward,
            cannons: 0,
            missile_bays: 0,
            teleporters: 0,
        };
        if me.is_destroyed()
            || battle.board.ships[target].is_destroyed()
            || battle.side_of(target) == battle.side_of(ship)
        {
            return options;
        }
        let clear = sight == Sight::Clear;
        // Ships sharing a hex have facing on each other with every weapon on
        // every side, buried or not, so exposure stops mattering there.
        let same_hex = from.hex == to.hex;
        let most_shots = self
            .rules
            .modes
            .iter()
            .map(|m| m.shots_per_turn)
            .max()
            .unwrap_or(1);
        for (ix, module) in class.modules.iter().enumerate() {
            let m = ix as ModuleIx;
            let bit = 1u64 << ix;
            if !me.is_working(m) || me.used & bit != 0 {
                continue;
            }
            match self.rules.module_type(class, m).function {
                Function::Cannon => {
                    let fired = crate::ship::Ship::cannon_order(class, m)
                        .and_then(|o| me.shots.get(o).copied())
                        .unwrap_or(u8::MAX);
                    if clear && fired < most_shots && (same_hex || module.exposed.meets(toward)) {
                        options.cannons |= bit;
                    }
                }
                Function::MissileBay
                    if me.missiles > 0
                        && !module.exposed.is_empty()
                        && range <= self.rules.constants.missile_range =>
                {
                    options.missile_bays |= bit;
                }
                Function::Teleporter if me.bombs > 0 && clear => {
                    options.teleporters |= bit;
                }
                _ => {}
            }
        }
        options
    }

    fn power_phase(&self, battle: &mut Battle, sink: &mut dyn EventSink) {
        for i in 0..battle.board.ships.len() {
            let ship = &mut battle.board.ships[i];
            if ship.is_destroyed() {
                continue;
            }
            let class = self.rules.class(ship.class);
            ship.used = 0;
            ship.shots = [0; crate::ship::MAX_CANNONS];
            // The turn's scans are made on the enemy the ship's tactics
            // choose when it first comes to fire (ruling: scans in fleets).
            ship.scans = ship.scan_capacity(&self.rules);
            ship.scans_on = None;
            let name = &battle.board.names[i];
            if !ship.has_working(class, Function::Engine) {
                sink.emit(|| Event::Ruling {
                    text: format!(
                        "the {name} has no working Engine: its power cannot be reallocated"
                    ),
                });
                continue;
            }
            let shields = if ship.has_working(class, Function::Shields) {
                class.shields
            } else {
                0
            };
            if ship.guns != class.guns || ship.shields != shields {
                let (g0, s0) = (ship.guns, ship.shields);
                ship.guns = class.guns;
                ship.shields = shields;
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!(
                        "reallocates power: Guns {g0} -> {}, Shields {s0} -> {shields}{}",
                        class.guns,
                        if shields < class.shields {
                            " (no working Shields module)"
                        } else {
                            ""
                        }
                    ),
                });
            }
        }
    }

    fn movement_phase(
        &self,
        battle: &mut Battle,
        ship: usize,
        tactics: &dyn ModuleGridTactics,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        if battle.board.ships[ship].is_destroyed() {
            return Ok(());
        }
        let m = tactics.maneuver(self, battle, ship);
        if let Err(why) = self.maneuver_allowed(battle, ship, m) {
            return Err(ResolveError::Internal(format!(
                "tactics chose an illegal move for the {}: {why}",
                battle.board.names[ship]
            )));
        }
        let end = m.apply(battle.poses[ship]);
        battle.poses[ship] = end;
        sink.emit(|| Event::Effect {
            ship: battle.board.names[ship].clone(),
            effect: format!(
                "moves {} {} (turns {:+} before, {:+} after) to {} facing {}",
                m.steps,
                if m.steps == 1 { "hex" } else { "hexes" },
                m.turn_before,
                m.turn_after,
                end.hex,
                end.facing.index()
            ),
        });
        Ok(())
    }

    /// A side's ships fire one at a time, in board order; each fires every
    /// shot it will before the next begins (ruling: order of play in fleets).
    fn fire_phase(
        &self,
        battle: &mut Battle,
        side: Side,
        objects: &[MapObject],
        tactics: &dyn ModuleGridTactics,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        for ship in 0..battle.board.ships.len() {
            if battle.side_of(ship) == side {
                self.ship_fires(battle, ship, objects, tactics, None, dice, sink)?;
            }
        }
        Ok(())
    }

    /// One ship fires, shot by shot, until its tactics stop, it explodes or
    /// no enemy is left. With `most`, it goes at most that many parts of a
    /// shot further ([`ModuleGrid::fire_part`]) and pauses, to go on where
    /// it left off when called again (the progress is in
    /// [`Battle::firing`]). Called without `most` it finishes and clears its
    /// progress, so firing in parts ends as firing whole.
    #[allow(
        clippy::too_many_arguments,
        reason = "the fire phase's parts, and how far to go"
    )]
    fn ship_fires(
        &self,
        battle: &mut Battle,
        ship: usize,
        objects: &[MapObject],
        tactics: &dyn ModuleGridTactics,
        most: Option<u32>,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let bit = ship_bit(ship);
        if battle.firing.done & bit == 0 {
            let mut parts = 0;
            loop {
                if most == Some(parts) {
                    return Ok(());
                }
                if !self.fire_part(battle, ship, objects, tactics, dice, sink)? {
                    break;
                }
                parts += 1;
            }
        }
        if most.is_some() {
            battle.firing.done |= bit;
        } else {
            battle.firing.started &= !bit;
            battle.firing.done &= !bit;
        }
        Ok(())
    }

    /// The next part of the ship's fire: a shot aimed and its hit allocated
    /// on the target, then its dice laid, then the target's hull check,
    /// the Fusion burst beyond it and the explosions it set off. Whether
    /// the ship fired on (`false`: it has finished).
    fn fire_part(
        &self,
        battle: &mut Battle,
        ship: usize,
        objects: &[MapObject],
        tactics: &dyn ModuleGridTactics,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<bool, ResolveError> {
        let Some(mut under_way) = battle.firing.shot else {
            return self.aim_next_shot(battle, ship, objects, tactics, dice, sink);
        };
        let target = under_way.target;
        if let Some(hit) = under_way.hit.take() {
            let applied = self.lay_dice(
                &hit,
                &mut battle.board.ships[target],
                &battle.board.names[target],
                dice,
                sink,
            )?;
            under_way.hull_check = Self::hull_check_due(&hit, &applied);
            battle.firing.shot = Some(under_way);
            return Ok(true);
        }
        battle.firing.shot = None;
        if under_way.hull_check {
            self.hull_check(
                &mut battle.board.ships[target],
                &battle.board.names[target],
                dice,
                sink,
            )?;
        }
        if let Some(power) = under_way.burst {
            self.burst_beyond(battle, ship, target, power, objects, tactics, dice, sink)?;
        }
        self.explosions(battle, under_way.exploded_before, dice, sink)?;
        Ok(true)
    }

    /// The ship's next shot, if it takes one, resolved as far as its hit
    /// allocation: whether it fired.
    fn aim_next_shot(
        &self,
        battle: &mut Battle,
        ship: usize,
        objects: &[MapObject],
        tactics: &dyn ModuleGridTactics,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<bool, ResolveError> {
        if battle.board.ships[ship].is_destroyed() {
            return Ok(false);
        }
        // On the stack: asked again after every shot, a `Vec` here
        // would allocate once per shot.
        let mut options: arrayvec::ArrayVec<FireOptions, MAX_SHIPS> = arrayvec::ArrayVec::new();
        options.extend(
            battle
                .enemies(ship)
                .map(|target| self.fire_options(battle, ship, target, objects)),
        );
        if options.is_empty() {
            return Ok(false);
        }
        if battle.firing.started & ship_bit(ship) == 0 {
            // The turn's scans are made on one enemy, chosen when the
            // ship first comes to fire (ruling: scans in fleets).
            battle.firing.started |= ship_bit(ship);
            let on = tactics.scan_target(self, battle, ship, &options);
            if let Some(on) = on
                && !options.iter().any(|o| o.target == on)
            {
                return Err(ResolveError::Internal(format!(
                    "tactics chose to scan ship {on} for the {}, which is not an enemy still in play",
                    battle.board.names[ship]
                )));
            }
            battle.board.ships[ship].scans_on = on.and_then(|i| u8::try_from(i).ok());
        }
        let Some(choice) = tactics.next_shot(self, battle, ship, &options) else {
            return Ok(false);
        };
        let chosen = self.check_choice(battle, ship, &options, &choice)?;
        let shot = Shot {
            attacker: ship,
            weapon: choice.weapon,
            target: chosen.target,
            range: chosen.range,
            side: choice.side,
            call: choice.call,
            // The tactics choose each reroll as the dice fall; the ship
            // may spend all it has.
            scans: battle.board.ships[ship].scans,
            luck: battle.board.ships[ship].luck,
        };
        if let Err(e) = self.check_shot(&battle.board, &shot) {
            return Err(ResolveError::Internal(format!(
                "tactics chose a shot the rules refuse: {e}"
            )));
        }
        let exploded_before = exploded_mask(battle);
        let choose = |view: &AllocationView<'_>| tactics.allocation_reroll(self, ship, view);
        let (outcome, hit) = self.aim_shot(&mut battle.board, &shot, &choose, dice, sink)?;
        let fusion = matches!(
            choice.weapon,
            Weapon::Cannon {
                mode: Mode::Fusion,
                ..
            }
        );
        battle.firing.shot = Some(ShotUnderWay {
            target: chosen.target,
            hit,
            hull_check: false,
            burst: (fusion && outcome.hit).then_some(outcome.power),
            exploded_before,
        });
        Ok(true)
    }

    /// The shots a ship of a class fires in one fire phase when each of its
    /// weapons fires once, and at least one: how many shots its fire is
    /// split into for exact odds. A Multi Cannon's second shot, or any shot
    /// beyond, is played in the ship's last step with what is left of its
    /// fire, which changes nothing but where equal states merge.
    pub fn most_shots(&self, class: &crate::model::ShipClass) -> u8 {
        let shots = (0..class.modules.len())
            .filter(|&m| {
                matches!(
                    self.rules.module_type(class, m as ModuleIx).function,
                    Function::Cannon | Function::MissileBay | Function::Teleporter
                )
            })
            .count();
        u8::try_from(shots.max(1)).unwrap_or(u8::MAX)
    }

    /// Checks a tactics choice against what was offered, and returns the
    /// options of the enemy chosen: only a living enemy can be a target.
    fn check_choice(
        &self,
        battle: &Battle,
        ship: usize,
        options: &[FireOptions],
        choice: &ShotChoice,
    ) -> Result<FireOptions, ResolveError> {
        let Some(&options) = options.iter().find(|o| o.target == choice.target) else {
            return Err(ResolveError::Internal(format!(
                "tactics chose an illegal shot for the {}: ship {}, which is not an enemy still in play",
                battle.board.names[ship], choice.target
            )));
        };
        let bit = crate::ship::bit(choice.weapon.module());
        let offered = match choice.weapon {
            Weapon::Cannon { .. } => options.cannons,
            Weapon::Missile { .. } => options.missile_bays,
            Weapon::Teleporter { .. } => options.teleporters,
        };
        let why = if offered & bit == 0 {
            Some("a weapon that cannot fire at the target".to_owned())
        } else if !options.struck.has(choice.side) {
            Some(format!(
                "the {} side, which the line of sight does not reach",
                choice.side
            ))
        } else {
            None
        };
        match why {
            None => Ok(options),
            Some(why) => Err(ResolveError::Internal(format!(
                "tactics chose an illegal shot for the {}: {why}",
                battle.board.names[ship]
            ))),
        }
    }

    /// A Fusion burst in the target's hex reaches every other ship in range
    /// and in sight of it (the target itself took it as the shot's hit).
    /// The firer chooses the side struck where the rules let it (a corner,
    /// or the burst's own hex) and may spend scans and Luck on each
    /// allocation, as for its shot.
    #[allow(
        clippy::too_many_arguments,
        reason = "the burst reads the battle, the map and the firer's tactics"
    )]
    fn burst_beyond(
        &self,
        battle: &mut Battle,
        firer: usize,
        target: usize,
        power: u8,
        objects: &[MapObject],
        tactics: &dyn ModuleGridTactics,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let at = battle.poses[target].hex;
        for other in 0..battle.board.ships.len() {
            if other == target || battle.board.ships[other].is_destroyed() {
                continue;
            }
            let pose = battle.poses[other];
            let reach = self.burst_power(power, at.distance(pose.hex));
            if reach == 0 || self.line_of_sight(at, pose.hex, objects) != Sight::Clear {
                continue;
            }
            // Seed line 28: at a corner the firing character chooses the
            // side; line 30: in one hex, any side.
            let sides = sight::sides_struck(at, pose.hex, pose.facing);
            let side = match sides.sides().nth(1) {
                None => blast_side(sides),
                Some(_) => {
                    let side = tactics.burst_side(self, battle, firer, other, sides);
                    if !sides.has(side) {
                        return Err(ResolveError::Internal(format!(
                            "tactics chose the {side} side of the {} for a burst that can strike only {}",
                            battle.board.names[other],
                            sides
                                .sides()
                                .map(|s| s.to_string())
                                .collect::<Vec<_>>()
                                .join(" or ")
                        )));
                    }
                    side
                }
            };
            let choose = |view: &AllocationView<'_>| tactics.allocation_reroll(self, firer, view);
            let burst_firer = BurstFirer {
                ship: firer,
                foe: battle.sides[other] != battle.sides[firer],
                choose: &choose,
            };
            self.blast_strike(
                &mut battle.board,
                other,
                reach,
                side,
                Cause::FusionBurst,
                Some(burst_firer),
                dice,
                sink,
            )?;
        }
        Ok(())
    }

    /// Every ship that exploded since `before` (a mask of the ships already
    /// exploded) blasts the others, which may explode in turn. Blasts go off
    /// in board order, each once, and each strikes the other ships that have
    /// not exploded in board order, friend or foe, with no regard to line of
    /// sight (rulings: blasts in fleets).
    fn explosions(
        &self,
        battle: &mut Battle,
        before: u64,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        // A ship's blast is resolved once: `blasted` marks those done.
        let mut blasted = before;
        loop {
            let Some(source) = (0..battle.board.ships.len())
                .find(|&i| battle.board.ships[i].exploded && blasted & ship_bit(i) == 0)
            else {
                return Ok(());
            };
            blasted |= ship_bit(source);
            let size = self.rules.class(battle.board.ships[source].class).size;
            let at = battle.poses[source].hex;
            let mut bystanders: arrayvec::ArrayVec<Bystander, MAX_SHIPS> =
                arrayvec::ArrayVec::new();
            for other in 0..battle.board.ships.len() {
                if other == source || battle.board.ships[other].is_destroyed() {
                    continue;
                }
                let pose = battle.poses[other];
                bystanders.push(Bystander::Ship {
                    index: other,
                    distance: at.distance(pose.hex),
                    side: blast_side(sight::sides_struck(at, pose.hex, pose.facing)),
                    docked: false,
                });
            }
            self.explosion(size, &mut battle.board, &bystanders, dice, sink)?;
        }
    }

    fn recovery_phase(
        &self,
        battle: &mut Battle,
        tactics: [&dyn ModuleGridTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        for i in 0..battle.board.ships.len() {
            self.recover(battle, i, tactics, dice, sink)?;
        }
        Ok(())
    }

    /// One ship's repairs and OOC recovery.
    fn recover(
        &self,
        battle: &mut Battle,
        i: usize,
        tactics: [&dyn ModuleGridTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let c = &self.rules.constants;
        if battle.board.ships[i].is_destroyed() {
            return Ok(());
        }
        let tactic = tactics[battle.side_of(i).index()];
        for _ in 0..c.repairs_per_turn {
            let Some(module) = tactic.repair(self, battle, i) else {
                break;
            };
            self.repair(&mut battle.board, i, module, dice, sink)?;
        }
        let ship = battle.board.ships[i];
        let class = self.rules.class(ship.class);
        if ship.ooc > 0 && ship.has_working(class, Function::Helm) {
            let name = &battle.board.names[i];
            sink.emit(|| Event::Base {
                what: "OOC recovery difficulty".into(),
                value: c.ooc_recovery_difficulty,
                source: "ruling: a Piloting check at the Helm each turn (rules.toml engagement)"
                    .into(),
            });
            let penalty = if c.ooc_recovery_penalised {
                ship.ooc
            } else {
                0
            };
            let roll = self.skill_check(
                &class.crew,
                c.ooc_recovery_skill,
                penalty,
                c.ooc_recovery_difficulty,
                "OOC recovery",
                dice,
                sink,
            )?;
            if roll.success {
                let s = &mut battle.board.ships[i];
                s.ooc = s.ooc.saturating_sub(c.ooc_recovered);
                let ooc = s.ooc;
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!("regains some control: OOC {ooc}"),
                });
            }
        }
        Ok(())
    }

    /// An Engineering check to take one Broken marker off a module: the
    /// repair difficulty, more in a slagged square.
    pub fn repair(
        &self,
        board: &mut Board,
        ship: usize,
        module: ModuleIx,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<bool, ResolveError> {
        let c = &self.rules.constants;
        let s = board.ships[ship];
        let class = self.rules.class(s.class);
        let name = &board.names[ship];
        if usize::from(module) >= class.modules.len() || s.markers(module) == 0 {
            return Err(ResolveError::Internal(format!(
                "a repair of the {name}'s module {module}, which is not broken"
            )));
        }
        let markers = s.markers(module);
        let at = class.modules[usize::from(module)].at;
        let kind = &self.rules.module_type(class, module).name;
        sink.emit(|| Event::Declared {
            actor: name.clone(),
            action: format!("repairs the {kind} at {at}"),
        });
        sink.emit(|| Event::Base {
            what: "repair difficulty".into(),
            value: c.repair_difficulty,
            source: "Broken Modules: an Engineering check".into(),
        });
        let mut difficulty = c.repair_difficulty;
        if markers >= 2 {
            difficulty += c.slagged_penalty;
            sink.emit(|| Event::Modifier {
                to: "repair difficulty".into(),
                amount: c.slagged_penalty,
                reason: "the square is slagged".into(),
            });
        }
        let roll = self.skill_check(
            &class.crew,
            c.repair_skill,
            0,
            difficulty,
            "repair",
            dice,
            sink,
        )?;
        if roll.success {
            let left = board.ships[ship].remove_marker(module);
            sink.emit(|| Event::Effect {
                ship: name.clone(),
                effect: format!(
                    "takes a Broken marker off the {kind} at {at}: {}",
                    if left == 0 {
                        "working again"
                    } else {
                        "still broken"
                    }
                ),
            });
        }
        Ok(roll.success)
    }
}

/// A ship's bit in a set of ships; set-up keeps every index below
/// [`MAX_SHIPS`], and a stray one has no bit rather than a panic.
const fn ship_bit(i: usize) -> u64 {
    if i < MAX_SHIPS { 1 << i } else { 0 }
}

/// The ships that have exploded, one bit each.
fn exploded_mask(battle: &Battle) -> u64 {
    battle
        .board
        .ships
        .iter()
        .enumerate()
        .filter(|(_, s)| s.exploded)
        .fold(0, |mask, (i, _)| mask | ship_bit(i))
}

/// The side an explosion strikes among the `sides` its line meets: the one
/// it crosses; at a corner the first of the two clockwise from the bow, and
/// in the same hex the fore side (ruling 16: an exploding ship has no firer
/// to choose).
fn blast_side(sides: SideSet) -> ShipSide {
    sides.sides().next().unwrap_or(ShipSide::Fore)
}

/// A rules engine bound to its map: the module-grid turn sequence.
pub struct Sequence<'a> {
    /// The rules.
    pub system: &'a ModuleGrid,
    /// Objects on the map.
    pub objects: &'a [MapObject],
    /// How many steps each ship's fire is split into, in board order (three
    /// for each shot of [`ModuleGrid::most_shots`]), so that exact odds
    /// merge equal states after every part of a shot and after each ship's
    /// recovery; empty to play every phase in one step. Either way the game
    /// is the same.
    pub fire_steps: &'a [u8],
}

impl Sequence<'_> {
    /// The ship whose part step `step` of a fire phase is, and whether it
    /// is that ship's last.
    fn fire_step(&self, step: u32) -> Option<(usize, bool)> {
        let mut first = 0u32;
        for (ship, &count) in self.fire_steps.iter().enumerate() {
            let count = u32::from(count.max(1));
            if step < first + count {
                return Some((ship, step + 1 == first + count));
            }
            first += count;
        }
        None
    }
}

impl TurnSequence for Sequence<'_> {
    type State = Battle;
    type Phase = Phase;
    type Tactics = dyn ModuleGridTactics;

    fn phases(&self, _turn: u32) -> &[Phase] {
        &TURN
    }

    fn play_phase(
        &self,
        phase: Phase,
        turn: u32,
        battle: &mut Battle,
        tactics: [&dyn ModuleGridTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let system = self.system;
        match phase {
            Phase::Power => {
                if turn > 1 {
                    battle.first = battle.first.other();
                }
                system.power_phase(battle, sink);
                Ok(())
            }
            Phase::FirstMovement | Phase::SecondMovement => {
                // A side's ships move one at a time, in board order (ruling:
                // order of play in fleets).
                let side = battle.actor(phase);
                for ship in 0..battle.board.ships.len() {
                    if battle.side_of(ship) == side {
                        system.movement_phase(battle, ship, tactics[side.index()], sink)?;
                    }
                }
                Ok(())
            }
            Phase::FirstFire | Phase::SecondFire => {
                let side = battle.actor(phase);
                system.fire_phase(
                    battle,
                    side,
                    self.objects,
                    tactics[side.index()],
                    dice,
                    sink,
                )
            }
            Phase::Recovery => system.recovery_phase(battle, tactics, dice, sink),
        }
    }

    fn verdict(&self, battle: &Battle) -> Option<Verdict> {
        // A side is beaten when every one of its ships has exploded; a ship
        // with no weapon left still stands, since it may repair.
        Verdict::from_able(battle.side_stands(Side::A), battle.side_stands(Side::B))
    }

    /// A fire phase in one step per part of a shot each ship may fire (the
    /// side not firing passes through its ships' steps), the recovery phase in one
    /// step per ship; the other phases whole. Nothing here depends on the
    /// state: which side fires is read when a step is played.
    fn steps(&self, phase: Phase, _turn: u32) -> u32 {
        if self.fire_steps.is_empty() {
            return 1;
        }
        match phase {
            Phase::FirstFire | Phase::SecondFire => self
                .fire_steps
                .iter()
                .map(|&count| u32::from(count.max(1)))
                .sum(),
            Phase::Recovery => self.fire_steps.len() as u32,
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
        if self.steps(phase, turn) == 1 {
            return self.play_phase(phase, turn, battle, tactics, dice, sink);
        }
        let system = self.system;
        match phase {
            Phase::FirstFire | Phase::SecondFire => {
                let side = battle.actor(phase);
                let Some((ship, last)) = self.fire_step(step) else {
                    return Err(ResolveError::Internal(format!(
                        "step {step} of a fire phase of {} steps",
                        self.steps(phase, turn)
                    )));
                };
                if battle.side_of(ship) != side {
                    return Ok(());
                }
                // One part of a shot a step; the ship's last step finishes
                // its fire.
                let most = if last { None } else { Some(1) };
                system.ship_fires(
                    battle,
                    ship,
                    self.objects,
                    tactics[side.index()],
                    most,
                    dice,
                    sink,
                )
            }
            Phase::Recovery => {
                let ship = step as usize;
                if ship >= battle.board.ships.len() {
                    return Err(ResolveError::Internal(format!(
                        "step {step} of a recovery phase of {} ships",
                        battle.board.ships.len()
                    )));
                }
                system.recover(battle, ship, tactics, dice, sink)
            }
            _ => self.play_phase(phase, turn, battle, tactics, dice, sink),
        }
    }
}

/// A battle set up once and played many times: one ship a side (a duel) or
/// fleets.
pub type Duel = Frame<Arena>;

/// The module-grid system's own part of a battle set up: the rules, the
/// objects on the map and each ship's fire steps.
pub struct Arena {
    system: ModuleGrid,
    objects: Vec<MapObject>,
    /// Each ship's fire steps, in board order (see [`Sequence::fire_steps`]).
    fire_steps: Vec<u8>,
}

impl Arena {
    /// The objects on the map.
    pub fn objects(&self) -> &[MapObject] {
        &self.objects
    }
}

impl FrameRules for Arena {
    type State = Battle;
    type Tactics = dyn ModuleGridTactics;
    type DefaultTactics = DefaultTactics;
    type Sequence<'a> = Sequence<'a>;

    fn sequence(frame: &Duel) -> Sequence<'_> {
        let arena = frame.rules();
        Sequence {
            system: &arena.system,
            objects: &arena.objects,
            fire_steps: &arena.fire_steps,
        }
    }

    fn as_tactics(tactics: &DefaultTactics) -> &(dyn ModuleGridTactics + 'static) {
        tactics
    }

    fn before_first_turn(
        &self,
        battle: &mut Battle,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        // Who acts first on turn 1 is rolled for; it alternates after, so
        // neither side is favoured.
        // Only which half the die falls in is read.
        battle.first = roll_first(Die::D6, dice, sink, |first| {
            format!(
                "who acts first: 1-3 side A, 4-6 side B; side {first} acts first on turn 1, then the sides alternate"
            )
        })?;
        Ok(())
    }

    fn fates(&self, roster: &Roster, battle: &Battle) -> Vec<ShipFate> {
        let rules = &self.system.rules;
        battle
            .board
            .ships
            .iter()
            .enumerate()
            .map(|(i, ship)| {
                let hull = i32::from(rules.class(ship.class).hull);
                ShipFate {
                    side: roster.side(i),
                    loss: if ship.is_destroyed() {
                        Some(Loss::Destroyed)
                    } else if !ship.is_armed(rules) {
                        Some(Loss::Disarmed)
                    } else {
                        None
                    },
                    escaped: false,
                    hull: (hull - i32::from(ship.hull_damage), hull),
                }
            })
            .collect()
    }
}

/// Refuses asteroid hexes given twice, and any on a ship's starting hex
/// (see the rules note's set-up rulings): either is a slip in the hexes
/// given, not a battle anyone meant.
fn check_asteroids(objects: &[MapObject], start: &Battle) -> Result<(), ResolveError> {
    let written = |hex: Hex| format!("{},{}", hex.q, hex.r);
    for (i, object) in objects.iter().enumerate() {
        if objects[..i].iter().any(|o| o.hex == object.hex) {
            return Err(ResolveError::bad_option(
                "asteroids",
                format!("the asteroid hex {} is given twice", written(object.hex)),
            ));
        }
        if let Some(ship) = start.poses.iter().position(|p| p.hex == object.hex) {
            return Err(ResolveError::bad_option(
                "asteroids",
                format!(
                    "the asteroid hex {} is the starting hex of {}",
                    written(object.hex),
                    start.board.names[ship]
                ),
            ));
        }
    }
    Ok(())
}

/// The parts a shot is played in when a fire phase is split into steps:
/// aimed with its hit allocated, its dice laid, then the hull check and the
/// blasts (see [`ModuleGrid::fire_part`]).
const PARTS_PER_SHOT: u8 = 3;

/// The default starting range of a duel, in hexes.
pub const DEFAULT_START_RANGE: u32 = 8;

impl ModuleGrid {
    /// The battle a request asks for: its sides' ships, each side placed by
    /// its own set-up ([`crate::placement::SIDE_OPTIONS`]).
    pub fn duel(&self, request: &BattleRequest) -> Result<Duel, ResolveError> {
        request.check()?;
        let range = request
            .options
            .count_or("start-range", DEFAULT_START_RANGE)?;
        let objects = match request.options.text("asteroids") {
            None => Vec::new(),
            Some(text) => self.parse_objects(text, "asteroid")?,
        };
        let placement = [Side::A, Side::B].map(|side| {
            Placement::from_options(request.side_options(side), side, request.side(side).len())
        });
        let [a, b] = placement;
        let placement = [a?, b?];
        let roster = request.roster();
        let start = self.fleet_battle(&roster, range, &placement)?;
        check_asteroids(&objects, &start)?;
        let fire_steps = start
            .board
            .ships
            .iter()
            .map(|ship| {
                self.most_shots(self.rules.class(ship.class))
                    .saturating_mul(PARTS_PER_SHOT)
            })
            .collect();
        let arena = Arena {
            system: self.clone(),
            objects,
            fire_steps,
        };
        Ok(Frame::from_parts(
            arena,
            start,
            roster,
            request.max_turns,
            [DefaultTactics; 2],
        ))
    }

    /// Reads hexes written `Q,R` separated by spaces or semicolons as objects
    /// of one kind.
    pub fn parse_objects(&self, text: &str, kind: &str) -> Result<Vec<MapObject>, ResolveError> {
        let index = self
            .rules
            .objects
            .iter()
            .position(|o| o.id == kind)
            .and_then(|i| u8::try_from(i).ok())
            .ok_or_else(|| {
                ResolveError::unknown(
                    "object",
                    kind,
                    self.rules.objects.iter().map(|o| o.id.as_str()),
                )
            })?;
        Ok(parse_hexes(text, "asteroids")?
            .into_iter()
            .map(|hex| MapObject { hex, kind: index })
            .collect())
    }
}

//! Fleets: a battle set up from a request, each side placed by its own set-up (formation, spacing, positions, speed, riders), and played per trial through core's `Setup`.
//!
//! Ships are numbered as core's roster numbers them: side A's in the order
//! named, then side B's, each carrier's riders right after it. Names come
//! from the roster (`frigate #2 (A)`), so a one-against-one duel keeps the
//! names it always had.

use std::sync::Arc;

use broadside_core::hex::{Direction, Hex};
use broadside_core::{
    BattleRequest, Frame, FrameRules, Loss, OptionKind, OptionSpec, Options, ResolveError, Roster,
    RosterShip, ShipFate, Side,
};

use crate::ActionD10;
use crate::attack::Board;
use crate::engagement::{Battle, MAX_SHIPS, Pose, Sequence, TurnState};
use crate::model::ClassId;
use crate::ship::{Ship, Status};
use crate::tactics::{ActionTactics, DefaultTactics};

/// The default range between the two sides' lead ships, in hexes.
pub const DEFAULT_START_RANGE: u32 = 12;

/// The farthest a ship may be placed from the origin, along either axis,
/// so that every range and offset stays far inside `i32`.
const MAX_COORDINATE: i32 = 1000;

/// The set-up each side may be given on its own.
pub(crate) const SIDE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "formation",
        value_name: "FORMATION",
        help: "how the side's ships stand at the start: line (abreast, default), column (astern of the lead) or stack (all in the lead's hex)",
        kind: OptionKind::Choice(&["line", "column", "stack"]),
        required: false,
    },
    OptionSpec {
        name: "spacing",
        value_name: "N",
        help: "hexes between neighbours in a line or column (default 1; 0 stacks them)",
        kind: OptionKind::Number { min: 0, max: 6 },
        required: false,
    },
    OptionSpec {
        name: "positions",
        value_name: "Q,R[,F];...",
        help: "one hex per ship in the order named, instead of a formation: axial q,r and an optional facing 0-5 clockwise from east",
        kind: OptionKind::Text,
        required: false,
    },
    OptionSpec {
        name: "speed",
        value_name: "N",
        help: "starting velocity in hexes a turn along the facing (default 0: at rest)",
        kind: OptionKind::Number { min: 0, max: 20 },
        required: false,
    },
    OptionSpec {
        name: "riders",
        value_name: "RIDERS",
        help: "riders start on their carriers' clamps (clamped, default) or launched in their carriers' hexes, acting from turn 1",
        kind: OptionKind::Choice(&["clamped", "launched"]),
        required: false,
    },
    OptionSpec {
        name: "escape-below",
        value_name: "PCT",
        help: "the side's ships jump out when their boxes left fall to this percentage (default: the battle's --escape-below)",
        kind: OptionKind::Number { min: 0, max: 100 },
        required: false,
    },
];

/// How a side's ships stand at the start when no positions are given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Formation {
    /// Abreast of the lead, across its facing, alternately to its left and right.
    Line,
    /// One behind another along the facing, the lead nearest the enemy.
    Column,
    /// Every ship in the lead's hex.
    Stack,
}

/// One side's set-up, read from its options.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SideSetup {
    /// The formation, when no positions are given.
    pub formation: Formation,
    /// Hexes between neighbours in a line or column.
    pub spacing: u32,
    /// A hex and, if given, a facing for each named ship, in order.
    pub positions: Option<Vec<(Hex, Option<Direction>)>>,
    /// Starting velocity along the facing, in hexes a turn.
    pub speed: u32,
    /// Riders start off their carriers' clamps.
    pub riders_launched: bool,
    /// The side's ships jump out at or below this percentage of boxes left.
    pub escape_below: u8,
}

impl SideSetup {
    /// The set-up a side gets when it is given none.
    pub fn standard(escape_below: u8) -> SideSetup {
        SideSetup {
            formation: Formation::Line,
            spacing: 1,
            positions: None,
            speed: 0,
            riders_launched: false,
            escape_below,
        }
    }

    /// Reads a side's options for a side of `ships` named ships. Errors name
    /// the option as the command line does (`a-positions`).
    pub fn read(
        options: &Options,
        side: Side,
        ships: usize,
        escape_below: u8,
    ) -> Result<SideSetup, ResolveError> {
        let flag = |name: &str| format!("{}-{name}", side_prefix(side));
        options.validate(SIDE_OPTIONS).map_err(|e| match e {
            ResolveError::BadOption { option, message } => {
                ResolveError::bad_option(&flag(&option), message)
            }
            other => other,
        })?;
        let mut setup = SideSetup::standard(escape_below);
        setup.formation = match options.text("formation") {
            Some("column") => Formation::Column,
            Some("stack") => Formation::Stack,
            _ => Formation::Line,
        };
        setup.spacing = options.count_or("spacing", setup.spacing)?;
        setup.speed = options.count_or("speed", setup.speed)?;
        setup.riders_launched = options.text("riders") == Some("launched");
        if let Some(pct) = options.number("escape-below")? {
            setup.escape_below = u8::try_from(pct)
                .ok()
                .filter(|p| *p <= 100)
                .ok_or_else(|| {
                    ResolveError::bad_option(
                        &flag("escape-below"),
                        "must be a percentage from 0 to 100",
                    )
                })?;
        }
        if let Some(text) = options.text("positions") {
            setup.positions = Some(
                parse_positions(text, ships)
                    .map_err(|m| ResolveError::bad_option(&flag("positions"), m))?,
            );
        }
        Ok(setup)
    }

    /// The poses of a side's `ships` named ships, in order, with the side's
    /// lead at `lead` facing `facing` unless positions say otherwise.
    pub fn poses(&self, ships: usize, lead: Hex, facing: Direction) -> Vec<Pose> {
        (0..ships)
            .map(|k| {
                let (hex, facing) = match &self.positions {
                    Some(given) => {
                        let (hex, f) = given[k];
                        (hex, f.unwrap_or(facing))
                    }
                    None => (
                        lead + self
                            .offset(k)
                            .rotate_around(Hex::ORIGIN, facing.index() as i32),
                        facing,
                    ),
                };
                let speed = i32::try_from(self.speed).unwrap_or(0);
                Pose {
                    hex,
                    dest: hex.step(facing, speed),
                    facing,
                }
            })
            .collect()
    }

    /// Where ship `k` of a formation stands from its lead, for a lead
    /// facing east (`k` = 0 is the lead).
    ///
    /// A line zig-zags across the facing: odd ships to the left (north),
    /// even ships to the right (south), `n` hexes out. The north zig-zag
    /// takes its odd steps north-east and the south one south-east, so every
    /// ship of a line is as far from a foe straight ahead as its lead, or
    /// half a hex nearer: none hangs back.
    pub fn offset(&self, k: usize) -> Hex {
        let spacing = i32::try_from(self.spacing).unwrap_or(0);
        if k == 0 || spacing == 0 {
            return Hex::ORIGIN;
        }
        let k = i32::try_from(k).unwrap_or(0);
        match self.formation {
            Formation::Stack => Hex::ORIGIN,
            Formation::Column => Hex::new(-k * spacing, 0),
            Formation::Line => {
                let n = (k + 1) / 2 * spacing;
                if k % 2 == 1 {
                    Hex::new((n + 1) / 2, -n)
                } else {
                    Hex::new(-(n / 2), n)
                }
            }
        }
    }
}

/// How the command line prefixes a side's options.
fn side_prefix(side: Side) -> &'static str {
    match side {
        Side::A => "a",
        Side::B => "b",
    }
}

/// `q,r[,f];q,r[,f];...`: one entry per named ship.
fn parse_positions(text: &str, ships: usize) -> Result<Vec<(Hex, Option<Direction>)>, String> {
    let entries: Vec<&str> = text.split(';').map(str::trim).collect();
    if entries.len() != ships {
        return Err(format!(
            "gives {} position(s) for a side of {ships} ship(s): write one q,r[,facing] per ship, separated by ';'",
            entries.len()
        ));
    }
    entries
        .iter()
        .enumerate()
        .map(|(k, entry)| {
            let bad = |why: &str| {
                format!(
                    "position {} '{}': {why}",
                    k + 1,
                    entry.escape_debug().take(40).collect::<String>()
                )
            };
            let parts: Vec<&str> = entry.split(',').map(str::trim).collect();
            if !(2..=3).contains(&parts.len()) {
                return Err(bad("write q,r or q,r,facing"));
            }
            let coordinate = |p: &str| coordinate(p).ok_or_else(|| bad(&coordinate_rule()));
            let hex = Hex::new(coordinate(parts[0])?, coordinate(parts[1])?);
            let facing = match parts.get(2) {
                None => None,
                Some(f) => Some(
                    f.parse::<i32>()
                        .ok()
                        .filter(|f| (0..6).contains(f))
                        .map(Direction::from_index)
                        .ok_or_else(|| bad("a facing is 0 to 5, clockwise from east"))?,
                ),
            };
            Ok((hex, facing))
        })
        .collect()
}

/// What a coordinate must be, for the messages that refuse one.
fn coordinate_rule() -> String {
    format!("a coordinate is a whole number from -{MAX_COORDINATE} to {MAX_COORDINATE}")
}

/// One coordinate of a hex, within those a ship may be placed at.
fn coordinate(text: &str) -> Option<i32> {
    text.parse::<i32>()
        .ok()
        .filter(|n| n.abs() <= MAX_COORDINATE)
}

/// A body's hex, `q,r`.
fn parse_hex(text: &str) -> Result<Hex, String> {
    let shown = text.escape_debug().take(40).collect::<String>();
    match text.split(',').map(str::trim).collect::<Vec<_>>()[..] {
        [q, r] => match (coordinate(q), coordinate(r)) {
            (Some(q), Some(r)) => Ok(Hex::new(q, r)),
            _ => Err(format!("'{shown}': {}", coordinate_rule())),
        },
        _ => Err(format!("'{shown}': write a hex as q,r")),
    }
}

/// A ship's name for the log: the roster's name for a named ship; for a
/// rider, its class and its number on its carrier, and the carrier when
/// its side has several of that class (`gunboat 1 of carrier #2 (A)`).
fn rider_name(rider: &str, n: usize, carrier: &str, carrier_unique: bool, side: Side) -> String {
    if carrier_unique {
        format!("{rider} {n} ({side})")
    } else {
        let carrier = carrier
            .strip_suffix(&format!(" ({side})"))
            .unwrap_or(carrier);
        format!("{rider} {n} of {carrier} ({side})")
    }
}

impl ActionD10 {
    /// The battle a request sets up, before any turn is played, and its
    /// roster: each side placed by its set-up, each carrier followed by its
    /// riders. Side A's lead stands at the origin facing east, side B's
    /// `start-range` hexes east of it facing west.
    pub fn battle_of(
        &self,
        request: &BattleRequest,
    ) -> Result<(Battle, Roster, [SideSetup; 2]), ResolveError> {
        request.check()?;
        let rules = &self.rules;
        let range = request
            .options
            .count_or("start-range", DEFAULT_START_RANGE)?;
        let range = i32::try_from(range)
            .ok()
            .filter(|r| *r <= MAX_COORDINATE)
            .ok_or_else(|| ResolveError::bad_option("start-range", "too far"))?;
        let escape_below = match request.options.number("escape-below")? {
            None => 0,
            Some(p) => u8::try_from(p).ok().filter(|p| *p <= 100).ok_or_else(|| {
                ResolveError::bad_option("escape-below", "must be a percentage from 0 to 100")
            })?,
        };
        let gravity_well = match request.options.text("gravity-well") {
            None => None,
            Some(text) => {
                Some(parse_hex(text).map_err(|why| ResolveError::bad_option("gravity-well", why))?)
            }
        };
        let known = || rules.ships.iter().map(|s| s.id.as_str());
        let mut classes: [Vec<ClassId>; 2] = [Vec::new(), Vec::new()];
        for side in Side::BOTH {
            for id in request.side(side) {
                classes[side.index()].push(
                    rules
                        .class_id(id)
                        .ok_or_else(|| ResolveError::unknown("ship", id, known()))?,
                );
            }
        }
        let total: usize = Side::BOTH
            .iter()
            .flat_map(|&side| classes[side.index()].iter())
            .map(|&class| 1 + rules.class(class).riders.len())
            .sum();
        // The data's limit on riders keeps every battle core allows within
        // MAX_SHIPS (checked where it is defined); this guards that reasoning.
        if total > MAX_SHIPS {
            return Err(ResolveError::bad_option(
                "side",
                format!(
                    "the two sides field {total} ships with their riders; a battle holds at most {MAX_SHIPS}"
                ),
            ));
        }
        let setups = [Side::A, Side::B].map(|side| {
            SideSetup::read(
                request.side_options(side),
                side,
                request.side(side).len(),
                escape_below,
            )
        });
        let [setup_a, setup_b] = setups;
        let setups = [setup_a?, setup_b?];
        let named = request.roster();
        let mut battle = Battle {
            board: Board {
                ships: Vec::with_capacity(total),
                names: Arc::from(Vec::new()),
            },
            sides: Vec::with_capacity(total),
            poses: Vec::with_capacity(total),
            carrier: Vec::with_capacity(total),
            docked: Vec::with_capacity(total),
            docked_with: Vec::with_capacity(total),
            turn: Vec::with_capacity(total),
            salvos: Vec::new(),
            flights: Vec::new(),
            next_salvo: 1,
            first: Side::A,
            gravity_well,
            left_by_jump: [false; 2],
            actions_round: None,
        };
        let mut roster = Vec::with_capacity(total);
        let mut named_index = 0;
        for side in Side::BOTH {
            let (lead, facing) = match side {
                Side::A => (Hex::ORIGIN, Direction::EAST),
                Side::B => (Hex::ORIGIN.step(Direction::EAST, range), Direction::WEST),
            };
            let setup = &setups[side.index()];
            let ids = request.side(side);
            let poses = setup.poses(ids.len(), lead, facing);
            for (k, (&class, pose)) in classes[side.index()].iter().zip(poses).enumerate() {
                let carrier = battle.board.ships.len();
                let carrier_name = named.name(named_index).to_owned();
                named_index += 1;
                let carrier_unique = ids.iter().filter(|id| **id == ids[k]).count() == 1;
                let mut push = |class: ClassId, carried: Option<u8>, name: String| {
                    battle.board.ships.push(Ship::new(rules, class));
                    battle.sides.push(side);
                    battle.poses.push(pose);
                    battle.carrier.push(carried);
                    battle
                        .docked
                        .push(carried.is_some() && !setup.riders_launched);
                    battle.docked_with.push(None);
                    battle.turn.push(TurnState::default());
                    roster.push(RosterShip {
                        side,
                        id: rules.class(class).id.clone(),
                        name,
                        carried: carried.is_some(),
                    });
                };
                push(class, None, carrier_name.clone());
                for (n, &rider) in rules.class(class).riders.iter().enumerate() {
                    let name = rider_name(
                        &rules.class(rider).id,
                        n + 1,
                        &carrier_name,
                        carrier_unique,
                        side,
                    );
                    // The total was checked against MAX_SHIPS, so every index fits a u8.
                    push(rider, Some(carrier as u8), name);
                }
            }
        }
        let roster = Roster::from_ships(roster)?;
        battle.board.names = Arc::from(
            roster
                .ships()
                .iter()
                .map(|s| s.name.clone())
                .collect::<Vec<_>>(),
        );
        Ok((battle, roster, setups))
    }

    /// A battle between two ships (and their riders, on the clamps): A at the
    /// origin facing east, B `range` hexes east facing west, both at rest.
    pub fn battle(&self, a: &str, b: &str, range: u32) -> Result<Battle, ResolveError> {
        let options = Options::new().with(
            "start-range",
            broadside_core::OptionValue::Number(i64::from(range)),
        );
        let request = BattleRequest::duel(a, b, 1, options);
        self.battle_of(&request).map(|(battle, ..)| battle)
    }

    /// A battle of the fleets a request names, set up once to be played
    /// any number of times.
    pub fn set_up(&self, request: &BattleRequest) -> Result<BattleSetup, ResolveError> {
        let (start, roster, setups) = self.battle_of(request)?;
        Ok(Frame::from_parts(
            self.clone(),
            start,
            roster,
            request.max_turns,
            setups.map(|s| DefaultTactics {
                escape_below: s.escape_below,
            }),
        ))
    }
}

/// A battle set up once and played many times.
pub type BattleSetup = Frame<ActionD10>;

impl FrameRules for ActionD10 {
    type State = Battle;
    type Tactics = dyn ActionTactics;
    type DefaultTactics = DefaultTactics;
    type Sequence<'a> = Sequence<'a>;

    fn sequence(frame: &BattleSetup) -> Sequence<'_> {
        Sequence::for_battle(frame.rules(), frame.start())
    }

    fn as_tactics(tactics: &DefaultTactics) -> &(dyn ActionTactics + 'static) {
        tactics
    }

    fn fates(&self, _roster: &Roster, battle: &Battle) -> Vec<ShipFate> {
        let rules = &self.rules;
        battle
            .board
            .ships
            .iter()
            .enumerate()
            .map(|(i, ship)| ShipFate {
                side: battle.sides[i],
                loss: match ship.status {
                    Status::Destroyed | Status::Scuttled => Some(Loss::Destroyed),
                    // Core has no "captured": a ship taken by boarders is whole but
                    // fights no more, which is what "disarmed" reports.
                    Status::Captured => Some(Loss::Disarmed),
                    Status::Escaped => None,
                    Status::Active => (!ship.can_fight(rules)).then_some(Loss::Disarmed),
                },
                escaped: ship.status == Status::Escaped,
                hull: (
                    i32::from(ship.boxes_left(rules)),
                    i32::from(ship.boxes(rules)),
                ),
            })
            .collect()
    }
}

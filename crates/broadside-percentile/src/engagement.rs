//! Whole Advanced Game engagements: the turn sequence, movement, fire,
//! mines, seekers and repair turns, played through core's `TurnSequence`.
//!
//! A game turn is two side turns, each a movement phase and a combat phase,
//! and every third turn ends with a Repair Turn. Decisions come from a
//! [`PercentileTactics`]; this module checks them against the rules and
//! resolves them.

use arrayvec::ArrayVec;
use broadside_core::hex::{self, Direction, Hex};
use broadside_core::{
    BattleRequest, Dice, Die, Event, EventSink, Frame, FrameRules, Loss, MAX_SIDE, ResolveError,
    Roster, ShipFate, Side, TurnSequence, Verdict, roll_first,
};

use crate::attack::{Board, IcmLaunch, IcmLaunches, Strike};
use crate::hazards::RepairAttempt;
use crate::model::{Defence, WeaponId};
use crate::setup::SideSetup;
use crate::tactics::{DefaultTactics, PercentileTactics};
use crate::{Percentile, count_of};

/// Where a ship is and how it moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pose {
    /// Its hex.
    pub hex: Hex,
    /// The hexside its bow points through.
    pub facing: Direction,
    /// Hexes per turn.
    pub speed: u32,
}

/// A mine pattern laid in a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Minefield {
    /// Where it lies.
    pub hex: Hex,
    /// The side that laid it: it attacks the other side's ships.
    pub owner: Side,
    /// The weapon (for its Combat Table row and damage).
    pub weapon: WeaponId,
}

/// A seeker missile, placed and perhaps activated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seeker {
    /// Where it is.
    pub hex: Hex,
    /// Which way it points.
    pub facing: Direction,
    /// The side that placed it (it cannot tell friend from foe).
    pub owner: Side,
    /// The weapon (for its Combat Table row and damage).
    pub weapon: WeaponId,
    /// Moves made since activation; 0 while waiting.
    pub moves: u32,
    /// Activated by its owner.
    pub active: bool,
}

impl Seeker {
    /// Hexes it moves on its next move: 2, 4, 6, ... after activation.
    pub fn next_move(&self) -> u32 {
        2 * (self.moves + 1)
    }
}

/// A ship's movement for one turn, as tactics choose it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Maneuver {
    /// The speed for this turn and after.
    pub speed: u32,
    /// Turns, as (hex number from 1, -1 left or +1 right): the ship turns
    /// one hexside after entering that hex.
    pub turns: Vec<(u32, i32)>,
    /// A new facing, allowed only to a ship that spends the whole turn at
    /// speed 0 and has MR left.
    pub face: Option<Direction>,
    /// Release a masking screen as the move starts. It lasts only if the
    /// move keeps course and speed.
    pub release_masking_screen: bool,
}

/// A phase of the game turn. Which side moves first is rolled at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The first side's movement phase.
    FirstMovement,
    /// The first side's combat phase.
    FirstCombat,
    /// The second side's movement phase.
    SecondMovement,
    /// The second side's combat phase.
    SecondCombat,
    /// Both sides repair.
    Repair,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::FirstMovement => "first side's movement phase",
            Phase::FirstCombat => "first side's combat phase",
            Phase::SecondMovement => "second side's movement phase",
            Phase::SecondCombat => "second side's combat phase",
            Phase::Repair => "repair turn",
        })
    }
}

const TURN: [Phase; 4] = [
    Phase::FirstMovement,
    Phase::FirstCombat,
    Phase::SecondMovement,
    Phase::SecondCombat,
];
const TURN_WITH_REPAIR: [Phase; 5] = [
    Phase::FirstMovement,
    Phase::FirstCombat,
    Phase::SecondMovement,
    Phase::SecondCombat,
    Phase::Repair,
];

/// Everything that changes during an engagement.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Battle {
    /// The ships and their names.
    pub board: Board,
    /// Each ship's side.
    pub sides: Vec<Side>,
    /// Each ship's position.
    pub poses: Vec<Pose>,
    /// The hexes each ship passed through in the current movement phase,
    /// starting hex first: defensive fire and mines look at them.
    pub paths: Vec<Vec<Hex>>,
    /// Mines laid and not yet exploded.
    pub mines: Vec<Minefield>,
    /// Seekers placed and not yet exploded.
    pub seekers: Vec<Seeker>,
    /// The side that moves first each turn.
    pub first: Side,
}

impl Battle {
    /// The side whose turn a phase belongs to.
    pub fn mover(&self, phase: Phase) -> Side {
        match phase {
            Phase::FirstMovement | Phase::FirstCombat | Phase::Repair => self.first,
            Phase::SecondMovement | Phase::SecondCombat => self.first.other(),
        }
    }

    /// Indices of a side's ships still in play.
    pub fn ships_of(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        (0..self.board.ships.len())
            .filter(move |&i| self.sides[i] == side && !self.board.ships[i].is_destroyed())
    }

    /// Whether a ship can still fight: in play, with a weapon it can fire or
    /// a destroyed one the Repair Turn could restore.
    pub fn ship_can_fight(&self, ship: usize) -> bool {
        let s = &self.board.ships[ship];
        !s.is_destroyed() && (s.is_armed() || s.has_repairable_weapon())
    }

    /// Whether a side has mines laid or seekers placed (activated or not).
    pub fn has_placed(&self, side: Side) -> bool {
        self.mines.iter().any(|m| m.owner == side) || self.seekers.iter().any(|s| s.owner == side)
    }

    /// Whether a side is not yet beaten: it has a ship in play, and either a
    /// ship that can fight or mines and seekers of its own still to go off.
    pub fn can_fight(&self, side: Side) -> bool {
        let mut ships = self.ships_of(side).peekable();
        ships.peek().is_some() && (self.has_placed(side) || ships.any(|i| self.ship_can_fight(i)))
    }
}

impl Percentile {
    /// A battle between two ships: A at the origin facing B, B `range` hexes
    /// east facing A, both stopped.
    pub fn battle(&self, a: &str, b: &str, range: u32) -> Result<Battle, ResolveError> {
        let roster = Roster::new(&[a.to_owned()], &[b.to_owned()]);
        let range = start_range(range)?;
        self.battle_of(
            &roster,
            &[
                SideSetup::default_for(Side::A, range),
                SideSetup::default_for(Side::B, range),
            ],
        )
    }

    /// The battle a roster starts, each side set up as given: every ship
    /// named as the roster names it and placed by its side's formation, in
    /// roster order; every mine pattern and seeker placed before play, side
    /// A's first. Side A is first until the roll of the first turn.
    pub fn battle_of(
        &self,
        roster: &Roster,
        setups: &[SideSetup; 2],
    ) -> Result<Battle, ResolveError> {
        let known = || self.rules.ships.iter().map(|s| s.id.as_str());
        let n = roster.len();
        let mut battle = Battle {
            board: Board {
                ships: Vec::with_capacity(n),
                names: (0..n).map(|i| roster.name(i).to_owned()).collect(),
            },
            sides: Vec::with_capacity(n),
            poses: Vec::with_capacity(n),
            paths: Vec::with_capacity(n),
            mines: Vec::new(),
            seekers: Vec::new(),
            first: Side::A,
        };
        let mut placed = [0usize; 2];
        for entry in roster.ships() {
            let ship = self
                .ship(&entry.id)
                .ok_or_else(|| ResolveError::unknown("ship", &entry.id, known()))?;
            let setup = &setups[entry.side.index()];
            let hex = setup.place(placed[entry.side.index()]);
            placed[entry.side.index()] += 1;
            battle.board.ships.push(ship);
            battle.sides.push(entry.side);
            battle.poses.push(Pose {
                hex,
                facing: setup.facing,
                speed: setup.speed,
            });
            battle.paths.push(vec![hex]);
        }
        // Seed 000 gives mines and seekers before play to "the defending
        // player": one side, whichever the scenario makes it (ruling 50).
        let places = |s: &SideSetup| !s.mines.is_empty() || !s.seekers.is_empty();
        if places(&setups[0]) && places(&setups[1]) {
            let option = if setups[1].mines.is_empty() {
                "b-seekers"
            } else {
                "b-mines"
            };
            return Err(ResolveError::bad_option(
                option,
                "only the defending side places mines and seekers before play, and side A already does",
            ));
        }
        for side in Side::BOTH {
            let setup = &setups[side.index()];
            if !setup.mines.is_empty() {
                let weapon = self.placed_weapon(false, side, "mines")?;
                battle
                    .mines
                    .extend(setup.mines.iter().map(|&hex| Minefield {
                        hex,
                        owner: side,
                        weapon,
                    }));
            }
            if !setup.seekers.is_empty() {
                let weapon = self.placed_weapon(true, side, "seekers")?;
                battle
                    .seekers
                    .extend(setup.seekers.iter().map(|&hex| Seeker {
                        hex,
                        facing: setup.facing,
                        owner: side,
                        weapon,
                        moves: 0,
                        active: false,
                    }));
            }
        }
        Ok(battle)
    }

    /// The data's mine (or seeker) weapon, for patterns and seekers placed
    /// before play, which come from no ship's supply (ruling 50).
    fn placed_weapon(
        &self,
        seeker: bool,
        side: Side,
        option: &str,
    ) -> Result<WeaponId, ResolveError> {
        let found = self
            .rules
            .weapons
            .iter()
            .position(|weapon| weapon.placed && weapon.seeker == seeker)
            .and_then(|i| WeaponId::try_from(i).ok());
        found.ok_or_else(|| {
            let prefix = if side == Side::A { "a-" } else { "b-" };
            ResolveError::bad_option(
                &format!("{prefix}{option}"),
                format!(
                    "the data has no {} to place",
                    if seeker {
                        "seeker weapon"
                    } else {
                        "mine weapon"
                    }
                ),
            )
        })
    }

    /// Whether a seeker sees a ship: in play and not a space station, to
    /// which seekers are never drawn (seed 000, ruling 40).
    fn seeker_sees(&self, battle: &Battle, i: usize) -> bool {
        let ship = &battle.board.ships[i];
        !ship.is_destroyed() && !self.rules.class(ship.class).station
    }

    /// The ships in a hex a seeker can attack, largest (most original hull
    /// points) first.
    fn ships_in(&self, battle: &Battle, at: Hex) -> Vec<usize> {
        let mut here: Vec<usize> = (0..battle.board.ships.len())
            .filter(|&i| self.seeker_sees(battle, i) && battle.poses[i].hex == at)
            .collect();
        here.sort_by_key(|&i| {
            std::cmp::Reverse(self.rules.class(battle.board.ships[i].class).hull)
        });
        here
    }

    /// Picks one of several equal candidates by a die, as the rules say to.
    fn pick_by_die(
        &self,
        candidates: &[usize],
        why: &str,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<usize, ResolveError> {
        if candidates.len() <= 1 {
            return candidates
                .first()
                .copied()
                .ok_or_else(|| ResolveError::Internal("no candidate".into()));
        }
        let sides = u32::try_from(candidates.len()).unwrap_or(u32::MAX);
        let die =
            Die::new(sides).ok_or_else(|| ResolveError::Internal("die of one side".into()))?;
        let face = dice.roll(die)?;
        sink.emit(|| Event::Roll {
            purpose: why.to_owned(),
            dice: die.to_string(),
            faces: vec![face],
            total: face as i32,
        });
        Ok(candidates[(face - 1) as usize])
    }

    /// A mine or seeker explodes against a ship.
    fn explode(
        &self,
        battle: &mut Battle,
        (weapon, owner): (WeaponId, Side),
        target: usize,
        tactics: [&dyn PercentileTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let defender = battle.sides[target];
        let (icm_launcher, icms) =
            self.icm_choice(battle, tactics[defender.index()], weapon, target)?;
        let strike = Strike {
            weapon,
            attacker: None,
            target,
            range: 0,
            head_on: false,
            icms,
            icm_launcher,
        };
        sink.emit(|| Event::Declared {
            actor: format!(
                "a {} of side {owner}",
                if self.rules.weapon(weapon).seeker {
                    "seeker missile"
                } else {
                    "mine pattern"
                }
            ),
            action: format!("explodes against the {}", battle.board.names[target]),
        });
        self.strike(&mut battle.board, &strike, dice, sink)?;
        Ok(())
    }

    /// ICMs the defending side launches against a strike, checked against
    /// the rules: each launcher a ship of the target's side in its hex,
    /// listed once, with that many ICMs ready, against a weapon ICMs can
    /// stop (rulings 46 to 48). Returns the launches, if any, and their total.
    fn icm_choice(
        &self,
        battle: &Battle,
        tactics: &dyn PercentileTactics,
        weapon: WeaponId,
        target: usize,
    ) -> Result<(Option<IcmLaunches>, u16), ResolveError> {
        if self.rules.weapon(weapon).per_icm.is_none() {
            return Ok((None, 0));
        }
        let answer = tactics.icms(self, battle, weapon, target);
        if answer.is_empty() {
            return Ok((None, 0));
        }
        let illegal = |why: &str| {
            Err(ResolveError::Internal(format!(
                "tactics launched ICMs illegally against a strike on the {}: {why}",
                battle.board.names[target]
            )))
        };
        let mut launches = IcmLaunches::new();
        let mut total: u16 = 0;
        for IcmLaunch {
            ship: launcher,
            count: n,
        } in answer.iter()
        {
            // Launching none is no launch at all.
            if n == 0 {
                continue;
            }
            if launcher >= battle.board.ships.len() {
                return illegal("no such launcher");
            }
            if battle.sides[launcher] != battle.sides[target] {
                return illegal("the launcher is on the other side");
            }
            if battle.poses[launcher].hex != battle.poses[target].hex {
                return illegal("the launcher is not in the target's hex");
            }
            if battle.board.ships[launcher].is_destroyed() {
                return illegal("the launcher is destroyed");
            }
            if launches.iter().any(|l| l.ship == launcher) {
                return illegal("one launcher is listed twice");
            }
            if n > battle.board.ships[launcher].icms_ready() {
                return illegal("more ICMs than the launcher has ready");
            }
            let Some(sum) = total.checked_add(n) else {
                return illegal("more ICMs than can be counted");
            };
            total = sum;
            if launches
                .push(IcmLaunch {
                    ship: launcher,
                    count: n,
                })
                .is_err()
            {
                return illegal("more launchers than a side has ships");
            }
        }
        if total == 0 {
            return Ok((None, 0));
        }
        Ok((Some(launches), total))
    }

    fn movement_phase(
        &self,
        battle: &mut Battle,
        mover: Side,
        tactics: [&dyn PercentileTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let own = tactics[mover.index()];
        let movers: ArrayVec<usize, MAX_SIDE> = battle.ships_of(mover).take(MAX_SIDE).collect();
        for &i in &movers {
            battle.paths[i].clear();
            let here = battle.poses[i].hex;
            battle.paths[i].push(here);
        }

        // Screens are switched before anything moves.
        for &i in &movers {
            self.set_screens(battle, i, own, sink)?;
        }

        // Seekers: activation, then movement of every active seeker.
        for s in own.activate_seekers(self, battle, mover) {
            match battle.seekers.get_mut(s) {
                Some(seeker) if seeker.owner == mover && !seeker.active => {
                    seeker.active = true;
                    let at = seeker.hex;
                    sink.emit(|| Event::Declared {
                        actor: format!("side {mover}"),
                        action: format!("activates its seeker missile at {at}"),
                    });
                }
                _ => {
                    return Err(ResolveError::Internal(format!(
                        "tactics activated seeker {s}, which is not a waiting seeker of side {mover}"
                    )));
                }
            }
        }
        let mut s = 0;
        while s < battle.seekers.len() {
            if battle.seekers[s].owner == mover
                && battle.seekers[s].active
                && self.move_seeker(battle, s, tactics, dice, sink)?
            {
                battle.seekers.remove(s);
                continue;
            }
            s += 1;
        }

        // Mines and seekers dropped where the ship is, before it moves.
        for &i in &movers {
            // A seeker may have destroyed the ship before it could drop anything.
            if battle.board.ships[i].is_destroyed() {
                continue;
            }
            for weapon in own.drops(self, battle, i) {
                self.drop_placed(battle, i, weapon, sink)?;
            }
        }

        // Each ship finishes its move before the next starts, in the order
        // the side's tactics give (ruling 42).
        for i in self.move_order(battle, own, mover)? {
            if battle.board.ships[i].is_destroyed() {
                continue;
            }
            let maneuver = own.maneuver(self, battle, i);
            self.move_ship(battle, i, &maneuver, tactics, dice, sink)?;
        }

        // Mines go off at the end of all movement, against every enemy ship
        // that entered or passed through their hex.
        let mut m = 0;
        while m < battle.mines.len() {
            let field = battle.mines[m];
            let victims: Vec<usize> = movers
                .iter()
                .copied()
                .filter(|&i| {
                    battle.sides[i] != field.owner
                        && !battle.board.ships[i].is_destroyed()
                        && battle.paths[i].iter().skip(1).any(|&h| h == field.hex)
                })
                .collect();
            if victims.is_empty() {
                m += 1;
                continue;
            }
            battle.mines.remove(m);
            sink.emit(|| Event::Declared {
                actor: format!("side {}'s mines at {}", field.owner, field.hex),
                action: format!(
                    "detonate against {}",
                    count_of(victims.len() as i64, "ship", "ships")
                ),
            });
            for victim in victims {
                if !battle.board.ships[victim].is_destroyed() {
                    self.explode(
                        battle,
                        (field.weapon, field.owner),
                        victim,
                        tactics,
                        dice,
                        sink,
                    )?;
                }
            }
        }
        Ok(())
    }

    /// The order the side's tactics move its ships in, checked: every ship
    /// of the side in play, each once.
    fn move_order(
        &self,
        battle: &Battle,
        tactics: &dyn PercentileTactics,
        side: Side,
    ) -> Result<Vec<usize>, ResolveError> {
        let order = tactics.move_order(self, battle, side);
        let in_play = battle.ships_of(side).count();
        let every_one_once = order.len() == in_play
            && order.iter().enumerate().all(|(n, &i)| {
                i < battle.board.ships.len()
                    && battle.sides[i] == side
                    && !battle.board.ships[i].is_destroyed()
                    && !order[..n].contains(&i)
            });
        if every_one_once {
            Ok(order)
        } else {
            Err(ResolveError::Internal(format!(
                "tactics gave side {side} the move order {order:?}, which is not each of its \
                 {in_play} ships in play once"
            )))
        }
    }

    fn set_screens(
        &self,
        battle: &mut Battle,
        i: usize,
        tactics: &dyn PercentileTactics,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let chosen = tactics.screen(self, battle, i);
        let name = &battle.board.names[i];
        let ship = &mut battle.board.ships[i];
        // With the power short-circuited no screen runs, whatever is asked.
        if ship.damaged.short_circuit {
            return Ok(());
        }
        if let Some(d) = chosen
            && (!d.is_screen() || ship.defence(d).is_none())
        {
            return Err(ResolveError::Internal(format!(
                "tactics switched on a {} the {name} does not carry",
                d.id()
            )));
        }
        let wanted = chosen;
        if wanted != ship.screen {
            ship.screen = wanted;
            sink.emit(|| Event::Effect {
                ship: name.clone(),
                effect: match wanted {
                    Some(d) => format!(
                        "switches on its {}",
                        self.rules.defence_info(d).name.to_lowercase()
                    ),
                    None => "switches its screen off".into(),
                },
            });
        }
        Ok(())
    }

    fn drop_placed(
        &self,
        battle: &mut Battle,
        i: usize,
        weapon: WeaponId,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let ship = &mut battle.board.ships[i];
        let Some(mount) = ship.ready_mount(weapon) else {
            return Err(ResolveError::Internal(format!(
                "tactics dropped a {} the {} does not have ready",
                self.rules.weapon(weapon).name,
                battle.board.names[i]
            )));
        };
        let w = self.rules.weapon(weapon);
        if !w.placed {
            return Err(ResolveError::Internal(format!(
                "tactics dropped a {}, which is fired, not placed",
                w.name
            )));
        }
        if let Some(n) = &mut ship.weapons[mount].supply {
            *n -= 1;
        }
        let pose = battle.poses[i];
        let owner = battle.sides[i];
        if w.seeker {
            battle.seekers.push(Seeker {
                hex: pose.hex,
                facing: pose.facing,
                owner,
                weapon,
                moves: 0,
                active: false,
            });
            sink.emit(|| Event::Declared {
                actor: battle.board.names[i].clone(),
                action: format!("places a seeker missile at {}", pose.hex),
            });
        } else {
            battle.mines.push(Minefield {
                hex: pose.hex,
                owner,
                weapon,
            });
            sink.emit(|| Event::Declared {
                actor: battle.board.names[i].clone(),
                action: format!("lays mines at {}", pose.hex),
            });
        }
        Ok(())
    }

    /// Moves one active seeker; returns whether it exploded.
    fn move_seeker(
        &self,
        battle: &mut Battle,
        s: usize,
        tactics: [&dyn PercentileTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<bool, ResolveError> {
        let hexes = battle.seekers[s].next_move();
        let start = battle.seekers[s].hex;
        // A ship already in its hex is the closest ship of all: the seeker
        // goes off where it is rather than flying away from it.
        if !self.ships_in(battle, start).is_empty() {
            return self
                .seeker_detonates(battle, s, tactics, dice, sink)
                .map(|()| true);
        }
        // The closest ship at the start of its move, friend or foe; ties by die.
        let alive: Vec<usize> = (0..battle.board.ships.len())
            .filter(|&i| self.seeker_sees(battle, i))
            .collect();
        let Some(nearest) = alive
            .iter()
            .map(|&i| start.distance(battle.poses[i].hex))
            .min()
        else {
            return Ok(false);
        };
        let closest: Vec<usize> = alive
            .iter()
            .copied()
            .filter(|&i| start.distance(battle.poses[i].hex) == nearest)
            .collect();
        let target = self.pick_by_die(
            &closest,
            "seeker chooses between equally close ships",
            dice,
            sink,
        )?;
        let goal = battle.poses[target].hex;
        sink.emit(|| Event::Declared {
            actor: format!("side {}'s seeker at {start}", battle.seekers[s].owner),
            action: format!(
                "moves {hexes} hexes toward the {}",
                battle.board.names[target]
            ),
        });
        // Up to three facing changes before it moves; then it keeps itself
        // aimed, turning one hexside per hex as it flies.
        let mut facing = battle.seekers[s].facing;
        for _ in 0..3 {
            facing = turn_toward(battle.seekers[s].hex, facing, goal);
        }
        let mut at = start;
        for _ in 0..hexes {
            if at == goal {
                break;
            }
            at = at.neighbour(facing);
            facing = turn_toward(at, facing, goal);
            if !self.ships_in(battle, at).is_empty() {
                battle.seekers[s].hex = at;
                sink.emit(|| Event::Effect {
                    ship: format!("side {}'s seeker", battle.seekers[s].owner),
                    effect: format!("enters {at}, a hex with a ship, and stops there"),
                });
                return self
                    .seeker_detonates(battle, s, tactics, dice, sink)
                    .map(|()| true);
            }
        }
        let seeker = &mut battle.seekers[s];
        seeker.hex = at;
        seeker.facing = facing;
        seeker.moves += 1;
        let owner = seeker.owner;
        sink.emit(|| Event::Effect {
            ship: format!("side {owner}'s seeker"),
            effect: format!("stops at {at} facing {}", facing.index()),
        });
        if hexes >= 12 {
            // The turn it moves 12 hexes it explodes wherever it is.
            sink.emit(|| Event::Ruling {
                text: "a seeker explodes on the turn it moves 12 hexes".into(),
            });
            self.seeker_detonates(battle, s, tactics, dice, sink)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// A seeker explodes in its hex against the largest ship there, if any.
    fn seeker_detonates(
        &self,
        battle: &mut Battle,
        s: usize,
        tactics: [&dyn PercentileTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let seeker = battle.seekers[s];
        let here = self.ships_in(battle, seeker.hex);
        let Some(&largest) = here.first() else {
            sink.emit(|| Event::Effect {
                ship: format!("seeker at {}", seeker.hex),
                effect: "explodes with no ship in its hex".into(),
            });
            return Ok(());
        };
        let size = |i: usize| self.rules.class(battle.board.ships[i].class).hull;
        let tied: Vec<usize> = here
            .iter()
            .copied()
            .filter(|&i| size(i) == size(largest))
            .collect();
        let target = self.pick_by_die(
            &tied,
            "seeker chooses between equally large ships",
            dice,
            sink,
        )?;
        self.explode(
            battle,
            (seeker.weapon, seeker.owner),
            target,
            tactics,
            dice,
            sink,
        )
    }

    /// Moves a ship by its maneuver, checked against its ADF and MR.
    fn move_ship(
        &self,
        battle: &mut Battle,
        i: usize,
        maneuver: &Maneuver,
        tactics: [&dyn PercentileTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        // The name is for the log only; a sink that keeps nothing skips it.
        let name = if sink.enabled() {
            battle.board.names[i].clone()
        } else {
            String::new()
        };
        let ship = &battle.board.ships[i];
        let pose = battle.poses[i];
        let (adf, mr) = (u32::from(ship.adf), u32::from(ship.mr));
        let illegal = |why: String| {
            Err(ResolveError::Internal(format!(
                "tactics chose an illegal move for the {}: {why}",
                battle.board.names[i]
            )))
        };

        // Speed changes by at most ADF, up or down, never both.
        if maneuver.speed.abs_diff(pose.speed) > adf {
            return illegal(format!(
                "speed {} to {} with ADF {adf}",
                pose.speed, maneuver.speed
            ));
        }
        let mut turns: Vec<(u32, i32)> = maneuver.turns.clone();
        if let Some(facing) = maneuver.face {
            if pose.speed != 0 || maneuver.speed != 0 || mr == 0 {
                return illegal(
                    "only a ship stopped all turn with MR left may face anywhere".into(),
                );
            }
            if facing != pose.facing {
                battle.poses[i].facing = facing;
                sink.emit(|| Event::Effect {
                    ship: name.clone(),
                    effect: format!("turns in place to face {}", facing.index()),
                });
            }
            return Ok(());
        }
        // A navigation hit forces turns to one side in every hex entered
        // until the MR is used up; a stopped ship ignores it.
        if battle.board.ships[i].damaged.navigation && maneuver.speed > 0 && mr > 0 {
            // Only the way matters, so the roll is one check: 1-5 passes.
            let check = dice.check(Die::D10, 5)?;
            let (roll, way) = (check.face, if check.passed { -1 } else { 1 });
            sink.emit(|| Event::Roll {
                purpose: format!("navigation hit: 1-5 turns left, 6-10 right (rolled {roll})"),
                dice: Die::D10.to_string(),
                faces: vec![roll],
                total: roll as i32,
            });
            turns = (1..=maneuver.speed.min(mr)).map(|h| (h, way)).collect();
        }
        if turns.len() as u32 > mr {
            return illegal(format!("{} turns with MR {mr}", turns.len()));
        }
        let mut seen = Vec::with_capacity(turns.len());
        for &(h, way) in &turns {
            if h == 0 || h > maneuver.speed || way.abs() != 1 || seen.contains(&h) {
                return illegal(format!("a turn at hex {h} of {}", maneuver.speed));
            }
            seen.push(h);
        }

        if maneuver.release_masking_screen {
            let ship = &mut battle.board.ships[i];
            let free = !ship.masked && !ship.damaged.short_circuit;
            match ship
                .defence_mut(Defence::MaskingScreen)
                .and_then(|m| m.supply.as_mut())
            {
                Some(n) if *n > 0 && free => *n -= 1,
                _ => return illegal("a masking screen it cannot release".into()),
            }
            ship.masked = true;
            sink.emit(|| Event::Effect {
                ship: name.clone(),
                effect: "releases a masking screen".into(),
            });
        }
        // A severely damaged ship risks breaking apart when it uses ADF or MR.
        let points = maneuver.speed.abs_diff(pose.speed) + turns.len() as u32;
        if self.check_break_apart(&mut battle.board.ships[i], &name, points, dice, sink)? {
            return Ok(());
        }

        let mut at = pose;
        at.speed = maneuver.speed;
        let mut turns_made = 0u32;
        // Whether the move's break-apart roll above could have been made:
        // a ship a seeker leaves severely damaged rolls for what it still
        // turns (ruling 36).
        let mut at_risk = battle.board.ships[i].severely_damaged(&self.rules);
        for h in 1..=maneuver.speed {
            at.hex = at.hex.neighbour(at.facing);
            battle.paths[i].push(at.hex);
            battle.poses[i] = at;
            // Every activated seeker in a hex goes off as a ship enters it,
            // each against the largest ship there, before the ship turns in
            // that hex; the move goes on if the ship survives (ruling 36).
            // A Vec allocates only on its first push, so a hex with no
            // seeker costs nothing.
            let waiting: Vec<usize> = (0..battle.seekers.len())
                .filter(|&s| battle.seekers[s].active && battle.seekers[s].hex == at.hex)
                .collect();
            if !waiting.is_empty() {
                let n = waiting.len() as i64;
                sink.emit(|| Event::Declared {
                    actor: battle.board.names[i].clone(),
                    action: format!(
                        "enters {}, where {} waiting",
                        at.hex,
                        count_of(n, "active seeker missile is", "active seeker missiles are")
                    ),
                });
                for &s in &waiting {
                    self.seeker_detonates(battle, s, tactics, dice, sink)?;
                }
                // Detonating changes no seeker, so the indices still hold;
                // removing from the last keeps the earlier ones in place.
                for &s in waiting.iter().rev() {
                    battle.seekers.remove(s);
                }
                if battle.board.ships[i].is_destroyed() {
                    return Ok(());
                }
                if !at_risk && battle.board.ships[i].severely_damaged(&self.rules) {
                    at_risk = true;
                    let mr_left = u32::from(battle.board.ships[i].mr).saturating_sub(turns_made);
                    let left = turns.iter().filter(|(t, _)| *t >= h).count() as u32;
                    let points = left.min(mr_left);
                    if self.check_break_apart(
                        &mut battle.board.ships[i],
                        &name,
                        points,
                        dice,
                        sink,
                    )? {
                        return Ok(());
                    }
                }
            }
            if let Some(&(_, way)) = turns.iter().find(|(t, _)| *t == h) {
                // Seed 000: "A ship with an MR of 0 cannot turn"; a seeker's
                // hit earlier in the move may have taken the MR it meant to
                // use.
                if turns_made < u32::from(battle.board.ships[i].mr) {
                    at.facing = at.facing.turn(way);
                    turns_made += 1;
                    battle.poses[i] = at;
                } else {
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "no MR left after the seeker's hit: the turn declared at hex {h} is not made"
                        ),
                    });
                }
            }
        }
        battle.poses[i] = at;
        sink.emit(|| Event::Effect {
            ship: name.clone(),
            effect: format!(
                "moves at speed {} to {} facing {} ({})",
                at.speed,
                at.hex,
                at.facing.index(),
                count_of(i64::from(turns_made), "turn", "turns")
            ),
        });
        // A masking screen lasts only while the ship holds course and speed.
        let ship = &mut battle.board.ships[i];
        if ship.masked && (maneuver.speed != pose.speed || turns_made > 0) {
            ship.masked = false;
            sink.emit(|| Event::Effect {
                ship: name,
                effect: "leaves its masking screen behind by changing course or speed".into(),
            });
        }
        Ok(())
    }

    fn combat_phase(
        &self,
        battle: &mut Battle,
        mover: Side,
        tactics: [&dyn PercentileTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        // Fires burn at the start of the opponent's combat step (seed wording).
        let burning: Vec<usize> = battle
            .ships_of(mover.other())
            .filter(|&i| battle.board.ships[i].damaged.fire)
            .collect();
        for i in burning {
            let hit = self.fire_hit();
            let name = &battle.board.names[i];
            sink.emit(|| Event::Declared {
                actor: name.clone(),
                action: "burns: a Damage Table roll at +20".into(),
            });
            self.allocate_named(&hit, &mut battle.board.ships[i], name, dice, sink)?;
        }
        // Defensive fire by the side that did not move, at the hexes the
        // movers passed through; then offensive fire by the movers.
        self.fire(battle, mover.other(), true, tactics, dice, sink)?;
        self.fire(battle, mover, false, tactics, dice, sink)
    }

    /// Every shot a ship could take this phase, for its tactics to choose from.
    pub fn fire_options(&self, battle: &Battle, i: usize, defensive: bool) -> Vec<FireOption> {
        let mut options = Vec::new();
        let ship = &battle.board.ships[i];
        if ship.is_destroyed() {
            return options;
        }
        let from = battle.poses[i];
        for (mount, m) in ship.weapons.iter().enumerate() {
            if !ship.can_fire(mount) {
                continue;
            }
            let w = self.rules.weapon(m.weapon);
            if w.placed || (defensive && w.moving_player_only) {
                continue;
            }
            for target in
                (0..battle.board.ships.len()).filter(|&t| battle.sides[t] != battle.sides[i])
            {
                if battle.board.ships[target].is_destroyed() {
                    continue;
                }
                // Defensive fire may use any hex the target passed through;
                // offensive fire sees only where it stands.
                let spots: &[Hex] = if defensive {
                    &battle.paths[target]
                } else {
                    std::slice::from_ref(&battle.poses[target].hex)
                };
                let best = spots
                    .iter()
                    .filter_map(|&h| {
                        let range = from.hex.distance(h);
                        let bears = if w.forward_firing {
                            hex::in_forward_band(from.hex, from.facing, h, 1)
                        } else {
                            true
                        };
                        (bears && range <= w.range).then(|| {
                            (
                                range,
                                w.forward_firing && hex::on_centre_line(from.hex, from.facing, h),
                            )
                        })
                    })
                    .min_by_key(|&(range, head_on)| {
                        (range as i64 * 5 - if head_on { 10 } else { 0 }, range)
                    });
                if let Some((range, head_on)) = best {
                    options.push(FireOption {
                        mount,
                        weapon: m.weapon,
                        target,
                        range,
                        head_on,
                    });
                }
            }
        }
        options
    }

    fn fire(
        &self,
        battle: &mut Battle,
        side: Side,
        defensive: bool,
        tactics: [&dyn PercentileTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        // Every target is declared before any die is rolled.
        let mut declared: Vec<(usize, FireOption)> = Vec::new();
        // One list of the weapons each ship has fired, emptied for the next.
        let mut used = Vec::new();
        for i in battle.ships_of(side) {
            let options = self.fire_options(battle, i, defensive);
            if options.is_empty() {
                continue;
            }
            let chosen = tactics[side.index()].targets(self, battle, i, &options);
            used.clear();
            for pick in chosen {
                let Some(&option) = options.get(pick) else {
                    return Err(ResolveError::Internal(
                        "tactics chose a shot that was not offered".into(),
                    ));
                };
                if used.contains(&option.mount) {
                    return Err(ResolveError::Internal(
                        "tactics fired one weapon twice in a phase".into(),
                    ));
                }
                used.push(option.mount);
                declared.push((i, option));
            }
        }
        if !declared.is_empty() {
            sink.emit(|| Event::Declared {
                actor: format!("side {side}"),
                action: if defensive {
                    "fires defensively, as the side that did not move".into()
                } else {
                    "fires offensively, as the side that moved".into()
                },
            });
        }
        for (i, option) in declared {
            if battle.board.ships[option.target].is_destroyed() {
                let (shooter, target) = (
                    battle.board.names[i].clone(),
                    battle.board.names[option.target].clone(),
                );
                sink.emit(|| Event::Ruling {
                    text: format!(
                        "the {shooter}'s shot is lost: the {target} is already destroyed"
                    ),
                });
                continue;
            }
            let defender = battle.sides[option.target];
            let (icm_launcher, icms) = self.icm_choice(
                battle,
                tactics[defender.index()],
                option.weapon,
                option.target,
            )?;
            let attack = crate::Attack {
                attacker: i,
                mount: option.mount,
                target: option.target,
                range: option.range,
                head_on: option.head_on,
                icms,
                icm_launcher,
            };
            broadside_core::AttackResolution::resolve_attack(
                self,
                &mut battle.board,
                &attack,
                dice,
                sink,
            )?;
        }
        Ok(())
    }

    fn repair_phase(
        &self,
        battle: &mut Battle,
        tactics: [&dyn PercentileTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        for i in 0..battle.board.ships.len() {
            if battle.board.ships[i].is_destroyed() {
                continue;
            }
            let attempts: Vec<RepairAttempt> =
                tactics[battle.sides[i].index()].repairs(self, battle, i);
            if attempts.is_empty() {
                continue;
            }
            let name = &battle.board.names[i];
            // The tactics contract asks for repairs within DCR on damaged
            // systems; anything else is the tactic's bug, not bad input.
            self.repair_turn(&mut battle.board.ships[i], name, &attempts, dice, sink)
                .map_err(|e| match e {
                    ResolveError::Refused(why) => {
                        ResolveError::Internal(format!("tactics chose an illegal repair: {why}"))
                    }
                    other => other,
                })?;
        }
        Ok(())
    }
}

/// One shot a ship could take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FireOption {
    /// The weapon mount.
    pub mount: usize,
    /// Its weapon.
    pub weapon: WeaponId,
    /// The target ship.
    pub target: usize,
    /// The range it would fire at.
    pub range: u32,
    /// Whether it fires head-on.
    pub head_on: bool,
}

/// The facing one hexside closer to pointing at `goal`.
pub(crate) fn turn_toward(at: Hex, facing: Direction, goal: Hex) -> Direction {
    if at == goal {
        return facing;
    }
    let best = Direction::ALL
        .into_iter()
        .min_by_key(|&d| {
            (
                at.neighbour(d).distance(goal),
                facing.turns_between(d).abs(),
            )
        })
        .unwrap_or(facing);
    let turns = facing.turns_between(best);
    if turns == 0 {
        facing
    } else {
        facing.turn(turns.signum())
    }
}

/// A rules engine bound to its tactics: the percentile turn sequence.
pub struct Sequence<'a> {
    /// The rules.
    pub system: &'a Percentile,
}

impl TurnSequence for Sequence<'_> {
    type State = Battle;
    type Phase = Phase;
    type Tactics = dyn PercentileTactics;

    fn phases(&self, turn: u32) -> &[Phase] {
        if turn.is_multiple_of(self.system.rules.constants.repair_turn_every) {
            &TURN_WITH_REPAIR
        } else {
            &TURN
        }
    }

    fn play_phase(
        &self,
        phase: Phase,
        _turn: u32,
        battle: &mut Battle,
        tactics: [&dyn PercentileTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let mover = battle.mover(phase);
        match phase {
            Phase::FirstMovement | Phase::SecondMovement => self
                .system
                .movement_phase(battle, mover, tactics, dice, sink),
            Phase::FirstCombat | Phase::SecondCombat => {
                self.system.combat_phase(battle, mover, tactics, dice, sink)
            }
            Phase::Repair => self.system.repair_phase(battle, tactics, dice, sink),
        }
    }

    fn verdict(&self, battle: &Battle) -> Option<Verdict> {
        Verdict::from_able(battle.can_fight(Side::A), battle.can_fight(Side::B))
    }
}

/// A battle set up once and played many times: the system, the battle as
/// every trial starts it, its roster and turn limit.
pub type PreparedBattle = Frame<Percentile>;

impl FrameRules for Percentile {
    type State = Battle;
    type Tactics = dyn PercentileTactics;
    type DefaultTactics = DefaultTactics;
    type Sequence<'a> = Sequence<'a>;

    fn sequence(frame: &PreparedBattle) -> Sequence<'_> {
        Sequence {
            system: frame.rules(),
        }
    }

    fn as_tactics(tactics: &DefaultTactics) -> &(dyn PercentileTactics + 'static) {
        tactics
    }

    fn before_first_turn(
        &self,
        battle: &mut Battle,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        // Who moves first is rolled for, so that neither side is favoured.
        // Only the side matters, so the roll is one check: 1-5 passes.
        battle.first = roll_first(Die::D10, dice, sink, |first| {
            format!("who moves first: 1-5 side A, 6-10 side B; side {first} moves first")
        })?;
        Ok(())
    }

    fn fates(&self, _roster: &Roster, battle: &Battle) -> Vec<ShipFate> {
        battle
            .board
            .ships
            .iter()
            .enumerate()
            .map(|(i, ship)| ShipFate {
                side: battle.sides[i],
                loss: if ship.broken_apart {
                    Some(Loss::BrokenApart)
                } else if ship.hull <= 0 {
                    Some(Loss::Destroyed)
                } else if !battle.ship_can_fight(i) && !battle.has_placed(battle.sides[i]) {
                    Some(Loss::Disarmed)
                } else {
                    None
                },
                escaped: false,
                hull: (ship.hull, self.rules.class(ship.class).hull),
            })
            .collect()
    }
}

/// The default starting range of a battle, in hexes.
pub const DEFAULT_START_RANGE: u32 = 12;

/// A start range as hex arithmetic takes it.
fn start_range(range: u32) -> Result<i32, ResolveError> {
    i32::try_from(range).map_err(|_| ResolveError::bad_option("start-range", "too far"))
}

impl Percentile {
    /// The battle a request asks for, set up once for any number of trials:
    /// each side's ships in the order named, each side set up by its side
    /// options (see [`crate::setup`]).
    pub fn set_up(&self, request: &BattleRequest) -> Result<PreparedBattle, ResolveError> {
        request.check()?;
        let range = start_range(
            request
                .options
                .count_or("start-range", DEFAULT_START_RANGE)?,
        )?;
        let setups = [
            SideSetup::read(Side::A, request.side_options(Side::A), range)?,
            SideSetup::read(Side::B, request.side_options(Side::B), range)?,
        ];
        let roster = request.roster();
        let start = self.battle_of(&roster, &setups)?;
        Ok(Frame::from_parts(
            self.clone(),
            start,
            roster,
            request.max_turns,
            [DefaultTactics; 2],
        ))
    }
}

//! Check helpers for whole percentile engagements: scripted phases, test tactics, duel logs and fleets.
//!
//! A test builds a [`Battle`] with [`battle`] and edits its public fields
//! through the helpers here (poses, damage, mines, seekers, extra ships), sets
//! each side's answers in a [`Script`] per [`Step`], and plays chosen phases
//! of the turn sequence with scripted dice through [`play_steps`] or
//! [`check_steps`]. The latter renders a transcript (the start, the steps and
//! their answers, every event numbered, the end) and asserts a named snapshot
//! that records its inputs and cites the rule it reproduces.
//!
//! Whole seeded duels and fleet battles are set up as the CLI sets them up
//! ([`duel`], [`fleet`] with each side's set-up, [`fleet_battle`] for the
//! starting state alone) and played through the same `Engagement` the Monte
//! Carlo runner uses ([`check_duel_log`]); [`observed_trial`] and
//! [`observed`] play one with tactics that watch every state the default
//! tactics are shown, for the property tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use broadside_core::exact::{self, ExactAttack, ExactOdds};
use broadside_core::hex::{Direction, Hex};
use broadside_core::montecarlo::Tally;
use broadside_core::{
    AttackOutcome, BattleRequest, Dice, Engagement, Event, EventLog, EventSink, NullSink,
    OptionValue, Options, ResolveError, ResolveRequest, Ruleset, ScriptedDice, SeededDice, Side,
    TrialOutcome, TurnSequence, Verdict, play_trial,
};
use broadside_percentile::engagement::{FireOption, Minefield, Seeker, Sequence};
use broadside_percentile::model::{Defence, WeaponId};
use broadside_percentile::{
    Battle, DefaultTactics, IcmLaunch, IcmLaunches, Maneuver, Percentile, PercentileTactics, Phase,
    Pose, PreparedBattle, RepairAttempt, Repairable, Ship,
};
use serde_json::{Value, json};

use crate::{Damage, apply_damage, describe, percentile};

// ---------------------------------------------------------------------------
// Building a battle
// ---------------------------------------------------------------------------

/// A battle between two fresh ships, as a duel starts: A at the origin facing
/// east, B `range` hexes east facing west, both stopped, side A first.
pub fn battle(a: &str, b: &str, range: u32) -> Battle {
    percentile()
        .battle(a, b, range)
        .unwrap_or_else(|e| panic!("cannot set up {a} against {b}: {e}"))
}

/// The hex at axial `(q, r)`.
pub const fn hex(q: i32, r: i32) -> Hex {
    Hex::new(q, r)
}

/// Puts a ship somewhere, facing a way, at a speed; its path starts there.
pub fn place(battle: &mut Battle, ship: usize, at: Hex, facing: Direction, speed: u32) {
    battle.poses[ship] = Pose {
        hex: at,
        facing,
        speed,
    };
    battle.paths[ship] = vec![at];
}

/// Adds a fresh ship of class `id` to a side, named `"{id} ({side}{n})"` with
/// `n` its number on that side, and returns its index.
pub fn add_ship(
    battle: &mut Battle,
    id: &str,
    side: Side,
    at: Hex,
    facing: Direction,
    speed: u32,
) -> usize {
    let ship = percentile()
        .ship(id)
        .unwrap_or_else(|| panic!("no ship class '{id}' in the data"));
    let n = battle.sides.iter().filter(|&&s| s == side).count() + 1;
    battle.board.ships.push(ship);
    // The names are shared between copies of a board, so a new one is a new list.
    let mut names = battle.board.names.to_vec();
    names.push(format!("{id} ({side}{n})"));
    battle.board.names = names.into();
    battle.sides.push(side);
    battle.poses.push(Pose {
        hex: at,
        facing,
        speed,
    });
    battle.paths.push(vec![at]);
    battle.board.ships.len() - 1
}

/// Applies damage to one ship of the battle, as a roster records it.
pub fn damage(battle: &mut Battle, ship: usize, damage: &[Damage]) {
    for &d in damage {
        apply_damage(&mut battle.board.ships[ship], d);
    }
}

/// The weapon with this id.
pub fn weapon(id: &str) -> WeaponId {
    percentile()
        .rules
        .weapon_id(id)
        .unwrap_or_else(|| panic!("no weapon '{id}'"))
}

/// Lays a mine pattern of `owner` in a hex.
pub fn lay_mines(battle: &mut Battle, owner: Side, at: Hex) {
    battle.mines.push(Minefield {
        hex: at,
        owner,
        weapon: weapon("mine"),
    });
}

/// Places a seeker missile of `owner`: `moves` moves already made since its
/// activation, `active` whether it has been activated. Returns its index.
pub fn place_seeker(
    battle: &mut Battle,
    owner: Side,
    at: Hex,
    facing: Direction,
    moves: u32,
    active: bool,
) -> usize {
    battle.seekers.push(Seeker {
        hex: at,
        facing,
        owner,
        weapon: weapon("seeker-missile"),
        moves,
        active,
    });
    battle.seekers.len() - 1
}

/// Supply left on the first mount of a weapon (by id), destroyed or not.
pub fn weapon_supply(battle: &Battle, ship: usize, id: &str) -> Option<u16> {
    let rules = &percentile().rules;
    battle.board.ships[ship]
        .weapons
        .iter()
        .find(|m| rules.weapon(m.weapon).id == id)
        .and_then(|m| m.supply)
}

/// Supply left on a defence (ICMs, masking screens).
pub fn defence_supply(battle: &Battle, ship: usize, defence: Defence) -> Option<u16> {
    battle.board.ships[ship]
        .defences
        .iter()
        .find(|m| m.defence == defence)
        .and_then(|m| m.supply)
}

/// The shots the engine offers a ship in a combat phase (defensive fire at
/// the hexes the movers passed through, or offensive fire where they stand),
/// as `(weapon id, target, range, head-on)`.
pub fn offered(battle: &Battle, ship: usize, defensive: bool) -> Vec<(String, usize, u32, bool)> {
    let system = percentile();
    system
        .fire_options(battle, ship, defensive)
        .into_iter()
        .map(|o: FireOption| {
            (
                system.rules.weapon(o.weapon).id.clone(),
                o.target,
                o.range,
                o.head_on,
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Scripted tactics
// ---------------------------------------------------------------------------

/// One shot a script takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The offered shot with this weapon (by id) at this target; the script
    /// panics if the engine does not offer it.
    Shot {
        /// The weapon's id.
        weapon: &'static str,
        /// The target ship.
        target: usize,
    },
    /// The offered shot at this index, offered or not: for illegal answers.
    Index(usize),
}

/// Exactly what one side answers, set by the test. A ship with no maneuver
/// set holds its course and speed; with no screen set keeps the one it has;
/// anything else not set is "nothing".
#[derive(Debug, Clone, Default)]
pub struct Script {
    /// Each ship's movement.
    pub maneuvers: BTreeMap<usize, Maneuver>,
    /// Each ship's shots, in order.
    pub shots: BTreeMap<usize, Vec<Pick>>,
    /// ICMs against strikes on a target: `target -> [(launcher, count)]`,
    /// launched in that order.
    pub icms: BTreeMap<usize, Vec<(usize, u16)>>,
    /// Each ship's screen.
    pub screens: BTreeMap<usize, Option<Defence>>,
    /// Each ship's mines and seekers dropped before it moves, by weapon id.
    pub drops: BTreeMap<usize, Vec<&'static str>>,
    /// Seekers (indices into `battle.seekers`) to activate.
    pub activate: Vec<usize>,
    /// Each ship's repair attempts.
    pub repairs: BTreeMap<usize, Vec<RepairAttempt>>,
    /// The order each side moves its ships in, where set.
    pub move_orders: BTreeMap<Side, Vec<usize>>,
}

impl Script {
    /// A script that answers nothing: every ship holds course and speed.
    pub fn new() -> Script {
        Script::default()
    }

    /// The ship moves at `speed`, turning one hexside (-1 left, +1 right)
    /// after entering each listed hex (numbered from 1).
    pub fn moves(mut self, ship: usize, speed: u32, turns: &[(u32, i32)]) -> Script {
        let m = self.maneuvers.entry(ship).or_default();
        m.speed = speed;
        m.turns = turns.to_vec();
        self
    }

    /// The ship stays stopped and turns in place to face `facing`.
    pub fn faces(mut self, ship: usize, facing: Direction) -> Script {
        let m = self.maneuvers.entry(ship).or_default();
        m.speed = 0;
        m.face = Some(facing);
        self
    }

    /// The ship moves at `speed` with `face` set: for illegal answers.
    pub fn moves_and_faces(mut self, ship: usize, speed: u32, facing: Direction) -> Script {
        let m = self.maneuvers.entry(ship).or_default();
        m.speed = speed;
        m.face = Some(facing);
        self
    }

    /// The ship releases a masking screen as its move (set with
    /// [`Script::moves`]) starts.
    pub fn releases_masking_screen(mut self, ship: usize) -> Script {
        self.maneuvers
            .get_mut(&ship)
            .expect("set the ship's move before its masking screen")
            .release_masking_screen = true;
        self
    }

    /// The ship fires this weapon (by id) at this target.
    pub fn shoots(mut self, ship: usize, weapon: &'static str, target: usize) -> Script {
        self.shots
            .entry(ship)
            .or_default()
            .push(Pick::Shot { weapon, target });
        self
    }

    /// The ship takes the offered shot at `index`, offered or not.
    pub fn picks(mut self, ship: usize, index: usize) -> Script {
        self.shots.entry(ship).or_default().push(Pick::Index(index));
        self
    }

    /// `launcher` launches `count` ICMs against any strike on `target`,
    /// after any launchers already set for that target.
    pub fn icms(mut self, target: usize, launcher: usize, count: u16) -> Script {
        self.icms.entry(target).or_default().push((launcher, count));
        self
    }

    /// The side moves its ships in this order (otherwise in roster order).
    pub fn move_order(mut self, side: Side, order: &[usize]) -> Script {
        self.move_orders.insert(side, order.to_vec());
        self
    }

    /// The ship switches this screen on (`None`: off).
    pub fn screen(mut self, ship: usize, screen: Option<Defence>) -> Script {
        self.screens.insert(ship, screen);
        self
    }

    /// The ship drops a mine pattern or seeker (by weapon id) before moving.
    pub fn drops(mut self, ship: usize, weapon: &'static str) -> Script {
        self.drops.entry(ship).or_default().push(weapon);
        self
    }

    /// The side activates this seeker.
    pub fn activates(mut self, seeker: usize) -> Script {
        self.activate.push(seeker);
        self
    }

    /// The ship gives `points` DCR points to repairing `system`.
    pub fn repairs(mut self, ship: usize, system: Repairable, points: u16) -> Script {
        self.repairs
            .entry(ship)
            .or_default()
            .push(RepairAttempt { system, points });
        self
    }

    /// The answers, one line each, for transcripts.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (ship, m) in &self.maneuvers {
            let mut line = format!("ship {ship}: ");
            match m.face {
                Some(f) if m.turns.is_empty() => {
                    line.push_str(&format!("speed {}, face {}", m.speed, f.index()));
                }
                _ => {
                    line.push_str(&format!("speed {}", m.speed));
                    for (h, way) in &m.turns {
                        let way = if *way < 0 { "left" } else { "right" };
                        line.push_str(&format!(", turn {way} after hex {h}"));
                    }
                    if let Some(f) = m.face {
                        line.push_str(&format!(", face {}", f.index()));
                    }
                }
            }
            if m.release_masking_screen {
                line.push_str(", releases a masking screen");
            }
            out.push(line);
        }
        for (ship, picks) in &self.shots {
            for pick in picks {
                out.push(match pick {
                    Pick::Shot { weapon, target } => {
                        format!("ship {ship}: fires its {weapon} at ship {target}")
                    }
                    Pick::Index(i) => format!("ship {ship}: takes offered shot {i}"),
                });
            }
        }
        for (target, launches) in &self.icms {
            for (launcher, n) in launches {
                let icms = if *n == 1 { "ICM" } else { "ICMs" };
                out.push(format!(
                    "ship {launcher}: launches {n} {icms} against strikes on ship {target}"
                ));
            }
        }
        for (ship, screen) in &self.screens {
            out.push(format!(
                "ship {ship}: screen {}",
                screen.map_or("off", Defence::id)
            ));
        }
        for (ship, drops) in &self.drops {
            out.push(format!("ship {ship}: drops {}", drops.join(", ")));
        }
        for seeker in &self.activate {
            out.push(format!("activates seeker {seeker}"));
        }
        for (ship, attempts) in &self.repairs {
            for a in attempts {
                out.push(format!(
                    "ship {ship}: {} DCR points on {:?}",
                    a.points, a.system
                ));
            }
        }
        for (side, order) in &self.move_orders {
            out.push(format!(
                "side {side} moves its ships in the order {order:?}"
            ));
        }
        out
    }
}

impl PercentileTactics for Script {
    fn screen(&self, _system: &Percentile, battle: &Battle, ship: usize) -> Option<Defence> {
        self.screens
            .get(&ship)
            .copied()
            .unwrap_or(battle.board.ships[ship].screen)
    }

    fn activate_seekers(&self, _system: &Percentile, _battle: &Battle, _side: Side) -> Vec<usize> {
        self.activate.clone()
    }

    fn drops(&self, system: &Percentile, _battle: &Battle, ship: usize) -> Vec<WeaponId> {
        self.drops.get(&ship).map_or_else(Vec::new, |ids| {
            ids.iter()
                .map(|id| {
                    system
                        .rules
                        .weapon_id(id)
                        .unwrap_or_else(|| panic!("no weapon '{id}'"))
                })
                .collect()
        })
    }

    fn maneuver(&self, _system: &Percentile, battle: &Battle, ship: usize) -> Maneuver {
        self.maneuvers.get(&ship).cloned().unwrap_or(Maneuver {
            speed: battle.poses[ship].speed,
            ..Maneuver::default()
        })
    }

    fn targets(
        &self,
        system: &Percentile,
        _battle: &Battle,
        ship: usize,
        options: &[FireOption],
    ) -> Vec<usize> {
        let Some(picks) = self.shots.get(&ship) else {
            return Vec::new();
        };
        picks
            .iter()
            .map(|pick| match *pick {
                Pick::Index(i) => i,
                Pick::Shot { weapon, target } => options
                    .iter()
                    .position(|o| system.rules.weapon(o.weapon).id == weapon && o.target == target)
                    .unwrap_or_else(|| {
                        let shown: Vec<String> = options
                            .iter()
                            .map(|o| {
                                format!(
                                    "{} at ship {} range {}",
                                    system.rules.weapon(o.weapon).id,
                                    o.target,
                                    o.range
                                )
                            })
                            .collect();
                        panic!(
                            "the script fires ship {ship}'s {weapon} at ship {target}, \
                             which the engine does not offer; offered: {shown:?}"
                        )
                    }),
            })
            .collect()
    }

    fn icms(
        &self,
        _system: &Percentile,
        _battle: &Battle,
        _weapon: WeaponId,
        target: usize,
    ) -> IcmLaunches {
        let mut launches = IcmLaunches::new();
        for &(ship, count) in self.icms.get(&target).into_iter().flatten() {
            launches
                .push(IcmLaunch { ship, count })
                .expect("a script launches from at most a side's worth of ships");
        }
        launches
    }

    fn repairs(&self, _system: &Percentile, _battle: &Battle, ship: usize) -> Vec<RepairAttempt> {
        self.repairs.get(&ship).cloned().unwrap_or_default()
    }

    fn move_order(&self, _system: &Percentile, battle: &Battle, side: Side) -> Vec<usize> {
        self.move_orders
            .get(&side)
            .cloned()
            .unwrap_or_else(|| battle.ships_of(side).collect())
    }
}

// ---------------------------------------------------------------------------
// Playing phases
// ---------------------------------------------------------------------------

/// What playing some phases did.
#[derive(Debug)]
pub struct Played {
    /// `Ok`, or the first error.
    pub result: Result<(), ResolveError>,
    /// Every event, a phase marker first for each phase played.
    pub events: Vec<Event>,
    /// Scripted dice not rolled.
    pub dice_left: Vec<u32>,
    /// The verdict after the last phase played, if the engagement ended.
    pub verdict: Option<Verdict>,
}

impl Played {
    /// The events as the log prints them.
    pub fn lines(&self) -> Vec<String> {
        self.events.iter().map(ToString::to_string).collect()
    }

    /// Whether some event's text contains `fragment`.
    pub fn mentions(&self, fragment: &str) -> bool {
        self.lines().iter().any(|l| l.contains(fragment))
    }

    /// The message of an internal error; panics on any other result.
    pub fn internal_error(&self) -> &str {
        match &self.result {
            Err(ResolveError::Internal(message)) => message,
            other => panic!(
                "expected an internal error, got {other:?}; events: {:#?}",
                self.lines()
            ),
        }
    }
}

/// One phase to play and what each side answers in it.
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    /// The game turn, from 1.
    pub turn: u32,
    /// The phase.
    pub phase: Phase,
    /// Side A's answers.
    pub a: &'a Script,
    /// Side B's answers.
    pub b: &'a Script,
}

/// Phase `phase` of game turn `turn`, with side A answering `a` and side B
/// answering `b`.
pub fn step<'a>(turn: u32, phase: Phase, a: &'a Script, b: &'a Script) -> Step<'a> {
    Step { turn, phase, a, b }
}

/// Plays `phases` (turn, phase) in order with the same tactics throughout
/// and scripted dice, as core's runner does: a phase marker event before
/// each, and a stop after the first phase at whose end the engagement is
/// decided, or at an error.
pub fn play_with(
    battle: &mut Battle,
    phases: &[(u32, Phase)],
    tactics: [&(dyn PercentileTactics + 'static); 2],
    dice: &[u32],
) -> Played {
    play_tactics(
        percentile(),
        battle,
        phases.iter().map(|&(turn, phase)| (turn, phase, tactics)),
        dice,
    )
}

fn play_tactics<'t>(
    system: &Percentile,
    battle: &mut Battle,
    phases: impl Iterator<Item = (u32, Phase, [&'t (dyn PercentileTactics + 'static); 2])>,
    dice: &[u32],
) -> Played {
    let sequence = Sequence { system };
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    let mut result = Ok(());
    let mut verdict = None;
    for (turn, phase, tactics) in phases {
        log.events.push(Event::Phase {
            turn,
            name: phase.to_string(),
        });
        result = sequence.play_phase(phase, turn, battle, tactics, &mut scripted, &mut log);
        verdict = sequence.verdict(battle);
        if result.is_err() || verdict.is_some() {
            break;
        }
    }
    Played {
        result,
        events: log.events,
        dice_left: scripted.remaining().to_vec(),
        verdict,
    }
}

/// Plays the steps in order, each with its own answers, with scripted dice.
pub fn play_steps(battle: &mut Battle, steps: &[Step<'_>], dice: &[u32]) -> Played {
    play_steps_in(percentile(), battle, steps, dice)
}

/// [`play_steps`] under a given system (one with test-only ships, say),
/// whose ship classes the battle was built from.
pub fn play_steps_in(
    system: &Percentile,
    battle: &mut Battle,
    steps: &[Step<'_>],
    dice: &[u32],
) -> Played {
    play_tactics(
        system,
        battle,
        steps.iter().map(|s| {
            let tactics: [&(dyn PercentileTactics + 'static); 2] = [s.a, s.b];
            (s.turn, s.phase, tactics)
        }),
        dice,
    )
}

/// How playing an engagement to its end went.
#[derive(Debug)]
pub struct PlayedOut {
    /// The verdict and the game turns played, or the first error.
    pub result: Result<(Verdict, u32), ResolveError>,
    /// Every event, a phase marker first for each phase played.
    pub events: Vec<Event>,
    /// Scripted dice not rolled.
    pub dice_left: Vec<u32>,
}

/// Plays whole game turns from the battle as it stands, through core's
/// `play` as a duel is played (the verdict asked before the first phase and
/// after every phase), with the same tactics throughout and scripted dice,
/// until the engagement ends or `max_turns` game turns have been played.
pub fn play_out(
    battle: &mut Battle,
    tactics: [&(dyn PercentileTactics + 'static); 2],
    max_turns: u32,
    dice: &[u32],
) -> PlayedOut {
    let sequence = Sequence {
        system: percentile(),
    };
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    let result = broadside_core::play(
        &sequence,
        battle,
        tactics,
        max_turns,
        &mut scripted,
        &mut log,
    );
    PlayedOut {
        result,
        events: log.events,
        dice_left: scripted.remaining().to_vec(),
    }
}

/// Plays one phase of turn 1 with a script for each side.
pub fn play_phase(
    battle: &mut Battle,
    phase: Phase,
    a: &Script,
    b: &Script,
    dice: &[u32],
) -> Played {
    play_steps(battle, &[step(1, phase, a, b)], dice)
}

/// One line for a ship of the battle: index, name, pose, state, supplies.
pub fn ship_line(battle: &Battle, i: usize) -> String {
    let rules = &percentile().rules;
    let pose = battle.poses[i];
    let ship: &Ship = &battle.board.ships[i];
    let mut line = format!(
        "ship {i}, {}: at {} facing {} speed {}; {}",
        battle.board.names[i],
        pose.hex,
        pose.facing.index(),
        pose.speed,
        describe(ship)
    );
    let mut supplies: Vec<String> = ship
        .weapons
        .iter()
        .filter_map(|m| {
            m.supply
                .map(|n| format!("{} {n}", rules.weapon(m.weapon).id))
        })
        .collect();
    supplies.extend(
        ship.defences
            .iter()
            .filter_map(|m| m.supply.map(|n| format!("{} {n}", m.defence.id()))),
    );
    if !supplies.is_empty() {
        line.push_str(&format!("; supplies: {}", supplies.join(", ")));
    }
    if let Some(screen) = ship.screen {
        line.push_str(&format!("; {} on", screen.id()));
    }
    if ship.masked {
        line.push_str("; inside a masking screen");
    }
    if !ship.beyond_repair.is_empty() {
        line.push_str(&format!(
            "; beyond repair in space: {:?}",
            ship.beyond_repair.iter().collect::<Vec<_>>()
        ));
    }
    line
}

/// The whole battle, one line per ship, mine pattern and seeker.
pub fn battle_lines(battle: &Battle) -> Vec<String> {
    let mut out: Vec<String> = (0..battle.board.ships.len())
        .map(|i| ship_line(battle, i))
        .collect();
    for m in &battle.mines {
        out.push(format!("mines of side {} at {}", m.owner, m.hex));
    }
    for (i, s) in battle.seekers.iter().enumerate() {
        out.push(format!(
            "seeker {i} of side {} at {} facing {}, {}, moves made: {}",
            s.owner,
            s.hex,
            s.facing.index(),
            if s.active { "active" } else { "waiting" },
            s.moves
        ));
    }
    out
}

fn verdict_text(verdict: Option<Verdict>) -> String {
    match verdict {
        None => "none: the engagement goes on".into(),
        Some(Verdict::Winner(side)) => format!("side {side} wins"),
        Some(Verdict::Draw) => "a draw: neither side can fight on".into(),
        Some(Verdict::Escaped(side)) => format!("side {side} escaped"),
        Some(Verdict::Undecided) => "undecided".into(),
    }
}

fn dice_text(dice: &[u32]) -> String {
    if dice.is_empty() {
        return "none".into();
    }
    let shown: Vec<String> = dice.iter().map(u32::to_string).collect();
    shown.join(", ")
}

/// Where every snapshot of this crate lives: beside the test files.
fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// Asserts a named snapshot recording its inputs and citing its source.
pub fn assert_snapshot_named(name: &str, source: &str, inputs: &Value, transcript: &str) {
    insta::with_settings!({
        info => inputs,
        description => source,
        omit_expression => true,
        snapshot_path => snapshot_dir(),
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(name, transcript);
    });
}

/// Plays the steps of a scripted battle with scripted dice, which must all
/// be used and must not fail; renders the transcript (the start, the steps
/// with each side's answers, the dice, every event numbered, the end and the
/// verdict) and asserts it as the named snapshot. Returns what was played;
/// the battle is left as the steps left it.
pub fn check_steps(
    name: &str,
    source: &str,
    title: &str,
    battle: &mut Battle,
    steps: &[Step<'_>],
    dice: &[u32],
) -> Played {
    let start = battle_lines(battle);
    let played = play_steps(battle, steps, dice);
    if let Err(e) = &played.result {
        panic!(
            "{name}: the steps failed: {e}; events: {:#?}",
            played.lines()
        );
    }
    assert!(
        played.dice_left.is_empty(),
        "{name}: scripted dice left unused: {:?}; events: {:#?}",
        played.dice_left,
        played.lines()
    );
    let mut shown_steps = Vec::new();
    let mut text = String::new();
    for (n, s) in steps.iter().enumerate() {
        let header = format!("turn {}: {}", s.turn, s.phase);
        text.push_str(&format!("{:>3}. {header}\n", n + 1));
        let mut answers = serde_json::Map::new();
        for (side, script) in Side::BOTH.iter().zip([s.a, s.b]) {
            let lines = script.lines();
            if lines.is_empty() {
                text.push_str(&format!(
                    "       side {side}: nothing set; ships hold course and speed\n"
                ));
            }
            for line in &lines {
                text.push_str(&format!("       side {side}: {line}\n"));
            }
            answers.insert(side.to_string(), json!(lines));
        }
        shown_steps.push(json!({"phase": header, "answers": answers}));
    }
    let inputs = json!({
        "title": title,
        "first": battle.first.to_string(),
        "steps": shown_steps,
        "dice": dice,
    });
    let mut out = format!(
        "engagement: {title}\nside {} moves first\nstart:\n",
        battle.first
    );
    for line in &start {
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str("steps:\n");
    out.push_str(&text);
    out.push_str(&format!("dice: {}\nevents:\n", dice_text(dice)));
    for (i, event) in played.events.iter().enumerate() {
        out.push_str(&format!("{:>3}. {event}\n", i + 1));
    }
    out.push_str("end:\n");
    for line in battle_lines(battle) {
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str(&format!("verdict: {}\n", verdict_text(played.verdict)));
    assert_snapshot_named(name, source, &inputs, &out);
    played
}

// ---------------------------------------------------------------------------
// Whole duels
// ---------------------------------------------------------------------------

/// A duel as `broadside duel percentile A B --start-range R --max-turns T`
/// sets it up.
pub fn duel(a: &str, b: &str, start_range: u32, max_turns: u32) -> PreparedBattle {
    percentile()
        .set_up(&BattleRequest::duel(
            a,
            b,
            max_turns,
            Options::new().with("start-range", OptionValue::Number(start_range.into())),
        ))
        .unwrap_or_else(|e| panic!("cannot set up the duel {a} against {b}: {e}"))
}

/// One side's set-up, as `--a-NAME VALUE` flags give it: each `(name,
/// value)` a number when the option takes one, text otherwise.
pub fn side_setup(options: &[(&str, &str)]) -> Options {
    let mut set = Options::new();
    for &(name, value) in options {
        let number = matches!(name, "spacing" | "speed")
            .then(|| value.parse::<i64>().ok())
            .flatten();
        set.set(
            name,
            number.map_or_else(|| OptionValue::Text(value.to_owned()), OptionValue::Number),
        );
    }
    set
}

/// A battle of two fleets as `broadside battle percentile A B` sets it up,
/// with `--start-range`, at most `max_turns` turns and each side's set-up.
pub fn fleet_request(
    a: &[&str],
    b: &[&str],
    start_range: u32,
    max_turns: u32,
    setups: [&[(&str, &str)]; 2],
) -> BattleRequest {
    let mut request = BattleRequest::fleets(
        a,
        b,
        max_turns,
        Options::new().with("start-range", OptionValue::Number(start_range.into())),
    );
    request.side_options = setups.map(side_setup);
    request
}

/// [`fleet_request`], set up.
pub fn fleet(
    a: &[&str],
    b: &[&str],
    start_range: u32,
    max_turns: u32,
    setups: [&[(&str, &str)]; 2],
) -> PreparedBattle {
    percentile()
        .set_up(&fleet_request(a, b, start_range, max_turns, setups))
        .unwrap_or_else(|e| panic!("cannot set up {a:?} against {b:?}: {e}"))
}

/// The battle a fleet starts from, to play phase by phase: side A first.
pub fn fleet_battle(
    a: &[&str],
    b: &[&str],
    start_range: u32,
    setups: [&[(&str, &str)]; 2],
) -> Battle {
    fleet(a, b, start_range, 50, setups).start().clone()
}

/// Plays one seeded trial of a duel, keeping every event.
pub fn duel_trial(duel: &PreparedBattle, seed: u64, trial: u64) -> (TrialOutcome, Vec<Event>) {
    let mut log = EventLog::default();
    let outcome = play_trial(duel, seed, trial, &mut log)
        .unwrap_or_else(|e| panic!("seed {seed} trial {trial} failed: {e}"));
    (outcome, log.events)
}

/// Plays trial `trial` of a seeded duel (start range 12, at most 50 turns, as
/// the CLI's defaults) and asserts the named snapshot of its whole event log
/// and outcome.
pub fn check_duel_log(name: &str, source: &str, a: &str, b: &str, seed: u64, trial: u64) {
    const RANGE: u32 = 12;
    const MAX_TURNS: u32 = 50;
    let (outcome, events) = duel_trial(&duel(a, b, RANGE, MAX_TURNS), seed, trial);
    let inputs = json!({
        "system": "percentile",
        "a": a,
        "b": b,
        "start_range": RANGE,
        "max_turns": MAX_TURNS,
        "seed": seed,
        "trial": trial,
    });
    let mut out = format!(
        "duel percentile: {a} (A) against {b} (B), start range {RANGE}, at most {MAX_TURNS} turns, seed {seed}, trial {trial}\nevents:\n"
    );
    for (i, event) in events.iter().enumerate() {
        out.push_str(&format!("{:>4}. {event}\n", i + 1));
    }
    out.push_str(&format!(
        "outcome: {} after {} turns\n",
        verdict_text(Some(outcome.verdict)),
        outcome.turns
    ));
    if let Some((left, original)) = outcome.winner_hull {
        out.push_str(&format!("winner's hull left: {left} of {original}\n"));
    }
    for fate in &outcome.ships {
        if let Some(loss) = fate.loss {
            out.push_str(&format!("side {} lost a ship: {loss:?}\n", fate.side));
        }
    }
    assert_snapshot_named(name, source, &inputs, &out);
}

/// Tallies trials of an engagement played one by one in the given order.
pub fn tally_in_order(
    duel: &PreparedBattle,
    seed: u64,
    trials: impl Iterator<Item = u64>,
) -> Tally {
    let mut tally = Tally::default();
    for trial in trials {
        let outcome = play_trial(duel, seed, trial, &mut NullSink)
            .unwrap_or_else(|e| panic!("seed {seed} trial {trial} failed: {e}"));
        tally.add(&outcome);
    }
    tally
}

/// The default tactics, watching every state of the battle they are shown.
#[derive(Debug, Default)]
pub struct Watching {
    seen: Mutex<Vec<Battle>>,
}

impl Watching {
    fn see(&self, battle: &Battle) {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(battle.clone());
    }
}

impl PercentileTactics for Watching {
    fn screen(&self, system: &Percentile, battle: &Battle, ship: usize) -> Option<Defence> {
        self.see(battle);
        DefaultTactics.screen(system, battle, ship)
    }
    fn activate_seekers(&self, system: &Percentile, battle: &Battle, side: Side) -> Vec<usize> {
        self.see(battle);
        DefaultTactics.activate_seekers(system, battle, side)
    }
    fn drops(&self, system: &Percentile, battle: &Battle, ship: usize) -> Vec<WeaponId> {
        self.see(battle);
        DefaultTactics.drops(system, battle, ship)
    }
    fn maneuver(&self, system: &Percentile, battle: &Battle, ship: usize) -> Maneuver {
        self.see(battle);
        DefaultTactics.maneuver(system, battle, ship)
    }
    fn targets(
        &self,
        system: &Percentile,
        battle: &Battle,
        ship: usize,
        options: &[FireOption],
    ) -> Vec<usize> {
        self.see(battle);
        DefaultTactics.targets(system, battle, ship, options)
    }
    fn icms(
        &self,
        system: &Percentile,
        battle: &Battle,
        weapon: WeaponId,
        target: usize,
    ) -> IcmLaunches {
        self.see(battle);
        DefaultTactics.icms(system, battle, weapon, target)
    }
    fn repairs(&self, system: &Percentile, battle: &Battle, ship: usize) -> Vec<RepairAttempt> {
        self.see(battle);
        DefaultTactics.repairs(system, battle, ship)
    }
    fn move_order(&self, system: &Percentile, battle: &Battle, side: Side) -> Vec<usize> {
        self.see(battle);
        DefaultTactics.move_order(system, battle, side)
    }
}

/// One trial played with [`Watching`] tactics.
#[derive(Debug)]
pub struct ObservedTrial {
    /// How it ended.
    pub outcome: TrialOutcome,
    /// Every event.
    pub events: Vec<Event>,
    /// Every state the tactics were shown, in order, the start first and
    /// the end last.
    pub states: Vec<Battle>,
    /// The same trial's outcome played by the Monte Carlo path
    /// (`play_trial`, default tactics, no events kept).
    pub unobserved: TrialOutcome,
}

/// Plays trial `trial` of a seeded duel twice: with [`Watching`] tactics
/// and an event log, and as the Monte Carlo runner plays it.
pub fn observed_trial(
    a: &str,
    b: &str,
    start_range: u32,
    max_turns: u32,
    seed: u64,
    trial: u64,
) -> ObservedTrial {
    observed(&duel(a, b, start_range, max_turns), seed, trial)
}

/// [`observed_trial`] for any battle set up.
pub fn observed(battle: &PreparedBattle, seed: u64, trial: u64) -> ObservedTrial {
    let what = broadside_core::Setup::roster(battle);
    let what = format!("{} against {}", what.label(Side::A), what.label(Side::B));
    let watching = Watching::default();
    let mut dice = SeededDice::for_trial(seed, trial);
    let mut log = EventLog::default();
    let (outcome, end) = battle
        .play_with([&watching, &watching], &mut dice, &mut log)
        .unwrap_or_else(|e| panic!("{what}, seed {seed} trial {trial}: {e}"));
    let unobserved = play_trial(battle, seed, trial, &mut NullSink)
        .unwrap_or_else(|e| panic!("{what}, seed {seed} trial {trial}: {e}"));
    let mut states = vec![battle.start().clone()];
    states.append(
        &mut watching
            .seen
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    states.push(end);
    ObservedTrial {
        outcome,
        events: log.events,
        states,
        unobserved,
    }
}

/// Checks that no ship acts once the log has said it is destroyed: no
/// declaration by it (firing, laying mines, placing seekers, launching ICMs,
/// burning) and no change of its own making (moving, turning, releasing or
/// switching screens) after the event that destroys it.
pub fn check_destroyed_ships_do_not_act(events: &[Event]) -> Result<(), String> {
    let mut destroyed: Vec<(&str, usize)> = Vec::new();
    for (n, event) in events.iter().enumerate() {
        match event {
            Event::Effect { ship, effect }
                if effect == "destroyed" || effect.ends_with("is destroyed") =>
            {
                if let Some(&(_, at)) = destroyed.iter().find(|(name, _)| name == ship) {
                    return Err(format!(
                        "event {}: the {ship} is destroyed a second time (first at event {})",
                        n + 1,
                        at + 1
                    ));
                }
                destroyed.push((ship, n));
            }
            Event::Declared { actor, action } => {
                if let Some(&(_, at)) = destroyed.iter().find(|(name, _)| name == actor) {
                    return Err(format!(
                        "event {}: the {actor}, destroyed at event {}, acts: {action}",
                        n + 1,
                        at + 1
                    ));
                }
            }
            Event::Effect { ship, effect } => {
                let own_doing = ["moves", "turns in place", "releases", "switches", "leaves"];
                if own_doing.iter().any(|d| effect.starts_with(d))
                    && let Some(&(_, at)) = destroyed.iter().find(|(name, _)| name == ship)
                {
                    return Err(format!(
                        "event {}: the {ship}, destroyed at event {}, acts: {effect}",
                        n + 1,
                        at + 1
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Checks the state invariants over a trial's states, in order: hull never
/// above the original nor below 0; limited supplies (weapons, ICMs, masking
/// screens) never rise, since no rule restores them; a destroyed ship stays
/// destroyed.
pub fn check_state_invariants(states: &[Battle]) -> Result<(), String> {
    let rules = &percentile().rules;
    for (n, battle) in states.iter().enumerate() {
        for (i, ship) in battle.board.ships.iter().enumerate() {
            let name = &battle.board.names[i];
            let original = rules.class(ship.class).hull;
            if ship.hull > original || ship.hull < 0 {
                return Err(format!(
                    "state {n}: the {name} has hull {} of {original}",
                    ship.hull
                ));
            }
        }
        let Some(before) = n.checked_sub(1).map(|p| &states[p]) else {
            continue;
        };
        for (i, (was, is)) in before
            .board
            .ships
            .iter()
            .zip(&battle.board.ships)
            .enumerate()
        {
            let name = &battle.board.names[i];
            for (m, (w0, w1)) in was.weapons.iter().zip(is.weapons.iter()).enumerate() {
                if w1.supply > w0.supply {
                    return Err(format!(
                        "state {n}: the {name}'s weapon mount {m} supply rose from {:?} to {:?}",
                        w0.supply, w1.supply
                    ));
                }
            }
            for (d0, d1) in was.defences.iter().zip(is.defences.iter()) {
                if d1.supply > d0.supply {
                    return Err(format!(
                        "state {n}: the {name}'s {} supply rose from {:?} to {:?}",
                        d1.defence.id(),
                        d0.supply,
                        d1.supply
                    ));
                }
            }
            if was.is_destroyed() && !is.is_destroyed() {
                return Err(format!("state {n}: the destroyed {name} is whole again"));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Exact odds
// ---------------------------------------------------------------------------

/// The most dice paths one exact attack may take, as `resolve --exact` allows.
pub const EXACT_ATTACK_PATHS: u64 = 2_000_000;

/// The most dice paths one exact battle may take, as `battle --exact` allows.
pub const EXACT_BATTLE_PATHS: u64 = 20_000_000;

/// A resolve request from fresh ships, as the CLI builds it, its options
/// checked against the system's specs.
pub fn resolve_request(
    attacker: &str,
    target: &str,
    options: &[(&str, OptionValue)],
) -> ResolveRequest {
    let mut set = Options::new();
    for (name, value) in options {
        set.set(name, value.clone());
    }
    let request = ResolveRequest {
        attacker: attacker.to_owned(),
        target: target.to_owned(),
        options: set,
    };
    let system: &dyn Ruleset = percentile();
    if let Err(e) = request.options.validate(system.resolve_options()) {
        panic!("{attacker} against {target}: bad options {options:?}: {e}");
    }
    request
}

/// One resolution of a request with the dice and sink given: the attack in
/// shared terms.
pub fn attack_outcome(
    request: &ResolveRequest,
    dice: &mut dyn Dice,
    sink: &mut dyn EventSink,
) -> Result<AttackOutcome, ResolveError> {
    let system: &dyn Ruleset = percentile();
    let report = system.resolve(request, dice, sink)?;
    report
        .attack_outcome()
        .ok_or_else(|| ResolveError::Internal("the report is not an attack's".into()))
}

/// The exact distribution of an attack, as `resolve percentile --exact`
/// gives it.
pub fn exact_resolve(request: &ResolveRequest) -> ExactAttack {
    exact::exact_attack(EXACT_ATTACK_PATHS, |dice| {
        attack_outcome(request, dice, &mut NullSink)
    })
    .unwrap_or_else(|e| {
        panic!(
            "{} against {}: no exact odds: {e}",
            request.attacker, request.target
        )
    })
}

/// `trials` seeded resolutions of a request, trial `i` on stream `i` of
/// `seed`. Each keeps its log, as `resolve --explain` does, so the damage
/// dice are rolled face by face rather than asked for as a sum: a sample
/// that takes the other road through the rules from the exact odds.
pub fn sampled_resolves(request: &ResolveRequest, seed: u64, trials: u64) -> Vec<AttackOutcome> {
    (0..trials)
        .map(|trial| {
            let mut dice = SeededDice::for_trial(seed, trial);
            attack_outcome(request, &mut dice, &mut EventLog::default()).unwrap_or_else(|e| {
                panic!(
                    "{} against {}, trial {trial}: {e}",
                    request.attacker, request.target
                )
            })
        })
        .collect()
}

/// A legal attack of the data of record, chosen by `picks`: the attacker
/// class, one of its weapons, the target class, a range the weapon reaches,
/// head-on when it fires forward, ICMs the target has when the weapon can be
/// stopped, a screen the target carries, and masking screens on either side
/// when carried. Each pick is reduced modulo the choices it has.
pub fn legal_attack(picks: [u32; 8]) -> ResolveRequest {
    let rules = &percentile().rules;
    let pick = |n: usize, of: usize| -> usize { picks[n] as usize % of.max(1) };
    let attacker = &rules.ships[pick(0, rules.ships.len())];
    let (weapon_id, _) = attacker.weapons[pick(1, attacker.weapons.len())];
    let weapon = rules.weapon(weapon_id);
    let target = &rules.ships[pick(2, rules.ships.len())];
    let range = if weapon.placed {
        0
    } else {
        // Forward-firing weapons cannot fire into their own hex.
        let lowest = u32::from(weapon.forward_firing);
        lowest + picks[3] % (weapon.range - lowest + 1)
    };
    let mut options = vec![
        ("weapon", OptionValue::Text(weapon.id.clone())),
        ("range", OptionValue::Number(range.into())),
    ];
    if weapon.forward_firing && picks[4] % 2 == 1 {
        options.push(("head-on", OptionValue::Flag));
    }
    let supply = |defence: Defence| {
        target
            .defences
            .iter()
            .find(|(d, _)| *d == defence)
            .map(|(_, supply)| supply.unwrap_or(0))
    };
    if weapon.per_icm.is_some()
        && let Some(icms) = supply(Defence::Icm)
    {
        let launched = picks[5] % (u32::from(icms.min(3)) + 1);
        if launched > 0 {
            options.push(("icm", OptionValue::Number(launched.into())));
        }
    }
    let screens: Vec<&str> = [
        (Defence::ProtonScreen, "proton"),
        (Defence::ElectronScreen, "electron"),
        (Defence::StasisScreen, "stasis"),
    ]
    .into_iter()
    .filter(|&(d, _)| supply(d).is_some())
    .map(|(_, name)| name)
    .collect();
    // One more choice than screens: none at all.
    if let Some(&screen) = screens.get(picks[6] as usize % (screens.len() + 1)) {
        options.push(("screen", OptionValue::Text(screen.to_owned())));
    }
    let carries_mask = |class: &broadside_percentile::model::ShipClass| {
        class
            .defences
            .iter()
            .any(|&(d, supply)| d == Defence::MaskingScreen && supply != Some(0))
    };
    if carries_mask(target) && picks[7] % 2 == 1 {
        options.push(("masking-screen", OptionValue::Flag));
    }
    if carries_mask(attacker) && (picks[7] / 2) % 2 == 1 {
        options.push(("attacker-masking-screen", OptionValue::Flag));
    }
    let (a, t) = (attacker.id.clone(), target.id.clone());
    resolve_request(&a, &t, &options)
}

/// The exact odds of a prepared battle, as `battle --exact` gives them.
pub fn exact_battle(battle: &PreparedBattle, max_states: usize) -> ExactOdds {
    Engagement::exact(battle, max_states, EXACT_BATTLE_PATHS)
        .unwrap_or_else(|e| panic!("no exact odds for the battle: {e}"))
}

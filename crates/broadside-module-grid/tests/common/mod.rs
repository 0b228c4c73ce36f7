//! Shared `check` helpers for the module-grid tests: one per area, so an API change touches one place.
//!
//! Every snapshot helper records its inputs (`info`) and cites the rules
//! passage it reproduces (`description`), and asserts that a scripted dice
//! list was used up exactly: an example whose dice are left over or run
//! short has a wrong script or a wrong procedure.

#![allow(
    dead_code,
    reason = "each test file uses a different part of the helpers"
)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

use broadside_core::exact::{ExactAttack, Prob};
use broadside_core::hex::{Direction, Hex};
use broadside_core::kit::System as _;
use broadside_core::{
    BattleRequest, Dice, Event, EventLog, OptionValue, ResolveError, Roster, Ruleset, ScriptedDice,
    SeededDice, Side, SourceFile, TurnSequence,
};
use broadside_data::testing;
#[allow(
    unused_imports,
    reason = "each test file uses a different part of the helpers"
)]
pub use broadside_data::testing::{
    Resolution, Sampled, assert_all_used, dice_text, duel_request, event_lines, fleet_request, num,
    numbered as numbered_events, options, text,
};
use broadside_module_grid::engagement::{FireOptions, Maneuver, Phase, Sequence, ShotChoice};
use broadside_module_grid::model::{Mode, ModuleIx, ShipClass, ShipSide, SideSet, Square};
use broadside_module_grid::placement::Placement;
use broadside_module_grid::{
    AllocationView, Battle, Board, DefaultTactics, MapObject, ModuleGrid, ModuleGridTactics, Pose,
    Reroll, RerollWith, Ship, Shot, Weapon,
};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Loading the system
// ---------------------------------------------------------------------------

/// The system, loaded once from its embedded data of record.
pub fn system() -> &'static ModuleGrid {
    static SYSTEM: OnceLock<ModuleGrid> = OnceLock::new();
    testing::loaded(&SYSTEM, "module-grid", ModuleGrid::embedded)
}

/// The embedded data files, for tests that load altered copies.
pub fn sources() -> Vec<SourceFile> {
    broadside_module_grid::REGISTRATION.embedded_sources()
}

/// The embedded files with one file's text changed by `edit`.
pub fn edited(file: &str, edit: impl FnOnce(&mut String)) -> Vec<SourceFile> {
    let mut files = sources();
    edit(&mut testing::file_mut(&mut files, file).text);
    files
}

/// The data with `from` in rules.toml replaced by `to`; `from` must be
/// there exactly once, so that a change of the data of record cannot void
/// a test silently.
pub fn custom(from: &str, to: &str) -> ModuleGrid {
    let files = edited("rules.toml", |text| {
        assert_eq!(
            text.matches(from).count(),
            1,
            "rules.toml must hold {from:?} once; update the test"
        );
        *text = text.replacen(from, to, 1);
    });
    ModuleGrid::load(&files).unwrap_or_else(|e| panic!("{to:?} does not load:\n{e}"))
}

/// Loading `files` fails; the problems, one per line.
pub fn load_errors(files: &[SourceFile]) -> String {
    match ModuleGrid::load(files) {
        Ok(_) => panic!("the data was expected to be refused"),
        Err(errors) => errors.to_string(),
    }
}

// ---------------------------------------------------------------------------
// Ships
// ---------------------------------------------------------------------------

/// A ship class of the data.
pub fn class(id: &str) -> &'static ShipClass {
    let rules = &system().rules;
    let index = rules
        .class_id(id)
        .unwrap_or_else(|| panic!("no ship class '{id}' in the data"));
    rules.class(index)
}

/// A fresh ship of a class of the data.
pub fn ship(id: &str) -> Ship {
    system()
        .ship(id)
        .unwrap_or_else(|| panic!("no ship class '{id}' in the data"))
}

/// The module at a square written "R,C".
pub fn module(id: &str, square: &str) -> ModuleIx {
    let at = Square::parse(square).expect("a square");
    class(id)
        .module_at(at)
        .unwrap_or_else(|| panic!("no module at {square} of the {id}"))
}

/// A board of two ships, named by their class ids.
pub fn board(attacker: Ship, target: Ship) -> Board {
    let rules = &system().rules;
    let names: Vec<String> = [attacker, target]
        .iter()
        .map(|s| rules.class(s.class).id.clone())
        .collect();
    Board {
        ships: vec![attacker, target],
        names: Arc::from(names),
    }
}

/// One line describing a ship's state, for transcripts.
pub fn describe(ship: &Ship) -> String {
    let rules = &system().rules;
    let class = rules.class(ship.class);
    let mut broken: Vec<String> = Vec::new();
    for (i, m) in class.modules.iter().enumerate() {
        let markers = ship.markers(i as ModuleIx);
        if markers > 0 {
            broken.push(format!(
                "{} at {}{}",
                rules.module_types[usize::from(m.kind)].id,
                m.at,
                if markers > 1 { " (slagged)" } else { "" }
            ));
        }
    }
    format!(
        "{}: hull damage {}, Shields {}, Guns {}, OOC {}, Luck {}, scans {}{}{}",
        class.id,
        ship.hull_damage,
        ship.shields,
        ship.guns,
        ship.ooc,
        ship.luck,
        ship.scans,
        if broken.is_empty() {
            String::new()
        } else {
            format!("; broken: {}", broken.join(", "))
        },
        if ship.exploded { "; exploded" } else { "" }
    )
}

// ---------------------------------------------------------------------------
// Snapshots
// ---------------------------------------------------------------------------

/// Asserts a named snapshot recording its inputs and citing its source.
pub fn assert_named(name: &str, source: &str, inputs: &Value, transcript: &str) {
    broadside_data::snapshot!(name, source, inputs, transcript);
}

// ---------------------------------------------------------------------------
// Resolving attacks through the object-safe Ruleset
// ---------------------------------------------------------------------------

/// Resolves one attack from fresh ships with any dice, checking the options
/// against the system's specs first, as the CLI does.
pub fn resolve_with(
    attacker: &str,
    target: &str,
    options: &[(&str, OptionValue)],
    dice: &mut dyn Dice,
) -> Result<Resolution, ResolveError> {
    testing::resolve(system(), attacker, target, options, dice)
}

/// Resolves with scripted dice, which must all be used.
pub fn resolve(
    attacker: &str,
    target: &str,
    options: &[(&str, OptionValue)],
    dice: &[u32],
) -> Result<Resolution, ResolveError> {
    let mut scripted = ScriptedDice::new(dice);
    let resolution = resolve_with(attacker, target, options, &mut scripted)?;
    assert_all_used(&scripted, "resolve");
    Ok(resolution)
}

/// Resolves an example with scripted dice and asserts the named snapshot of
/// its transcript: the inputs, each event numbered, the report's lines and
/// its JSON.
pub fn check_resolve(
    name: &str,
    source: &str,
    attacker: &str,
    target: &str,
    options: &[(&str, OptionValue)],
    dice: &[u32],
) -> Resolution {
    let resolution = match resolve(attacker, target, options, dice) {
        Ok(r) => r,
        Err(e) => panic!("{name}: resolution failed: {e}"),
    };
    let shown: Vec<String> = testing::options(options)
        .iter()
        .map(|(k, v)| match v {
            OptionValue::Flag => format!("--{k}"),
            OptionValue::Number(n) => format!("--{k} {n}"),
            OptionValue::Text(t) => format!("--{k} {t}"),
        })
        .collect();
    let inputs = json!({
        "system": "module-grid",
        "attacker": attacker,
        "target": target,
        "options": shown,
        "dice": dice,
    });
    let mut out = format!(
        "resolve module-grid: {attacker} attacks {target}\noptions: {}\ndice: {}\n",
        shown.join(" "),
        dice_text(dice)
    );
    resolution.write_transcript(&mut out, "report");
    assert_named(name, source, &inputs, &out);
    resolution
}

// ---------------------------------------------------------------------------
// Exact odds of one attack, and the same attack sampled
// ---------------------------------------------------------------------------

/// The exact distribution of one attack from fresh ships, the rules code run
/// over every dice path as `resolve --exact` runs it.
pub fn exact(attacker: &str, target: &str, options: &[(&str, OptionValue)]) -> ExactAttack {
    let system: &dyn Ruleset = system();
    let request = testing::resolve_request(system, attacker, target, options)
        .unwrap_or_else(|e| panic!("{attacker} against {target}: options refused: {e}"));
    testing::exact_every_path(system, &request, testing::EXACT_ATTACK_PATHS)
        .unwrap_or_else(|e| panic!("{attacker} against {target}: {e}"))
}

/// Asserts one exact figure (`p_hit`, `mean_hull_damage`, `result NAME`,
/// `destroyed NAME`, `damage N`) as the fraction `expected`.
pub fn check_fraction(exact: &ExactAttack, figure: &str, expected: Prob) {
    let want = format!("{}/{}", expected.numer(), expected.denom());
    let got = exact.fractions.get(figure).map_or("absent", String::as_str);
    assert_eq!(got, want, "{figure}");
}

/// Resolves one attack `trials` times from fresh ships, trial `i` with
/// stream `i` of `seed`, and counts what the attacks came to.
pub fn sample(
    attacker: &str,
    target: &str,
    options: &[(&str, OptionValue)],
    seed: u64,
    trials: u64,
) -> Sampled {
    let system: &dyn Ruleset = system();
    let request = testing::request(attacker, target, options);
    testing::sample_attack(seed, trials, |dice| {
        testing::attack_outcome(system, &request, dice)
    })
    .unwrap_or_else(|e| panic!("{attacker} against {target}: a trial failed: {e}"))
}

/// Whether a proportion seen in `n` trials lies within four standard errors
/// of the exact `p`. The standard error is taken at no less than that of
/// one event in `n`, so that an outcome too rare to expect in the sample is
/// not judged on a single sighting.
pub fn within_four_errors(seen: u64, n: u64, p: f64) -> bool {
    let n = n as f64;
    let floor = 1.0 / n;
    let error = (p.max(floor) * (1.0 - p).max(floor) / n).sqrt();
    (seen as f64 / n - p).abs() <= 4.0 * error
}

// ---------------------------------------------------------------------------
// Rules procedures called directly, with a transcript
// ---------------------------------------------------------------------------

/// Runs `act` with scripted dice and an event log, checks the dice were used
/// up, and asserts a named snapshot of the heading, the events and what
/// `act` reports.
pub fn check_procedure(
    name: &str,
    source: &str,
    heading: &str,
    dice: &[u32],
    act: impl FnOnce(&mut ScriptedDice, &mut EventLog) -> Result<String, ResolveError>,
) {
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    let report = act(&mut scripted, &mut log).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_all_used(&scripted, name);
    let inputs = json!({"system": "module-grid", "procedure": heading, "dice": dice});
    let shown = if dice.is_empty() {
        "none".to_owned()
    } else {
        dice_text(dice)
    };
    let mut out = format!("{heading}\ndice: {shown}\n");
    numbered_events(&mut out, &log.events);
    out.push_str(&report);
    if !report.ends_with('\n') {
        out.push('\n');
    }
    assert_named(name, source, &inputs, &out);
}

// ---------------------------------------------------------------------------
// Fleets
// ---------------------------------------------------------------------------

/// One ship placed by hand: its class id, axial hex (q, r) and facing.
pub type Placed<'a> = (&'a str, (i32, i32), Direction);

/// A battle of ships placed by hand, side A's then side B's, named by the
/// roster as in play (`scout #2 (B)`).
pub fn fleet(a: &[Placed<'_>], b: &[Placed<'_>]) -> Battle {
    fleet_in(system(), a, b)
}

/// [`fleet`] under other data.
pub fn fleet_in(grid: &ModuleGrid, a: &[Placed<'_>], b: &[Placed<'_>]) -> Battle {
    let ids = |side: &[Placed<'_>]| side.iter().map(|p| p.0.to_owned()).collect::<Vec<_>>();
    let roster = Roster::new(&ids(a), &ids(b));
    let mut battle = grid
        .fleet_battle(&roster, 0, &[Placement::default(), Placement::default()])
        .expect("every ship exists");
    for (pose, &(_, (q, r), facing)) in battle.poses.iter_mut().zip(a.iter().chain(b)) {
        *pose = Pose {
            hex: Hex::new(q, r),
            facing,
        };
    }
    battle
}

/// The burst scenes: a cruiser (A) at (0,0) facing east fires Fusion with
/// its bow Cannon at the fore side of a frigate (B) at (2,0), a scout (B)
/// standing at `scout` facing west. The first fire phase under `grid`,
/// with the battle after it.
pub fn fusion_at_frigate(
    grid: &ModuleGrid,
    scout: (i32, i32),
    script: &Script,
    dice: &mut dyn Dice,
    log: &mut EventLog,
) -> Result<Battle, ResolveError> {
    let mut battle = fleet_in(
        grid,
        &[("cruiser", (0, 0), Direction::EAST)],
        &[
            ("frigate", (2, 0), Direction::WEST),
            ("scout", scout, Direction::WEST),
        ],
    );
    let sequence = Sequence {
        system: grid,
        objects: &[],
        fire_steps: &[],
    };
    sequence.play_phase(
        Phase::FirstFire,
        1,
        &mut battle,
        [script, script],
        dice,
        log,
    )?;
    Ok(battle)
}

/// The dice of [`fusion_at_frigate`] up to the burst's first ship beyond
/// the frigate: to-hit [3,3,1] (best two 6 + Gunnery 3 = 9 against
/// 7 + 2, a hit), the frigate's allocation [4,3] and its Guns 5 + Shields 3
/// dice of 1, then the cruiser itself, 2 hexes from the burst at power 3:
/// [4,3] and 3 + 4 dice of 1.
pub fn fusion_at_frigate_dice() -> Vec<u32> {
    let mut dice = vec![3, 3, 1, 4, 3];
    dice.extend([1; 8]);
    dice.extend([4, 3]);
    dice.extend([1; 7]);
    dice
}

/// Plays one phase of turn 1 with `first` acting first and scripted dice,
/// which must all be used; returns the events.
pub fn play_phase(
    battle: &mut Battle,
    phase: Phase,
    first: Side,
    tactics: [&(dyn ModuleGridTactics + 'static); 2],
    objects: &[MapObject],
    dice: &[u32],
) -> Result<Vec<Event>, ResolveError> {
    let sequence = Sequence {
        system: system(),
        objects,
        fire_steps: &[],
    };
    battle.first = first;
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    sequence.play_phase(phase, 1, battle, tactics, &mut scripted, &mut log)?;
    assert_all_used(&scripted, "phase");
    Ok(log.events)
}

/// Tactics that hold still, fire exactly the shots given in the order
/// given, scan whom they are told (else the first enemy offered), never
/// reroll and never repair. Each allocation reroll offer's scans are kept,
/// to show which hits a scan could pay for, and every question about
/// firing is written down: `scan N` when ship N chooses whom to scan,
/// `shot N` when it is asked for its next shot.
#[derive(Debug, Default)]
pub struct Script {
    /// Shots still to fire: the firing ship's index and its choice.
    shots: Mutex<VecDeque<(usize, ShotChoice)>>,
    /// Who scans whom.
    scans: Vec<(usize, usize)>,
    /// The scans offered at each allocation reroll, in order.
    pub offered_scans: Mutex<Vec<u8>>,
    /// The questions asked about firing, in order.
    asks: Mutex<Vec<String>>,
    /// The side its Fusion bursts strike where it may choose; the default
    /// policy's when `None`.
    burst_side: Option<ShipSide>,
    /// Luck rerolls of die 0 still to make on its own or a friend's share
    /// of a burst, one at each question while Luck is offered.
    friendly_luck: Mutex<u8>,
}

impl Script {
    /// The cruiser (ship 0) of [`fusion_at_frigate`] firing Fusion at the
    /// frigate (ship 1).
    pub fn fusion_at_frigate() -> Script {
        Script::firing(&[(
            0,
            cannon("cruiser", "1,3", Mode::Fusion, 1, ShipSide::Fore, None),
        )])
    }

    /// Fires these shots, each when its ship comes to fire.
    pub fn firing(shots: &[(usize, ShotChoice)]) -> Script {
        Script {
            shots: Mutex::new(shots.iter().copied().collect()),
            ..Script::default()
        }
    }

    /// Also makes each `(ship, enemy)` ship's scans on that enemy.
    pub fn scanning(mut self, scans: &[(usize, usize)]) -> Script {
        self.scans = scans.to_vec();
        self
    }

    /// Also strikes `side` with its Fusion bursts wherever it may choose.
    pub fn bursting_on(mut self, side: ShipSide) -> Script {
        self.burst_side = Some(side);
        self
    }

    /// Also rerolls die 0 with Luck, `n` times in all, on its own or a
    /// friend's share of its bursts.
    pub fn sparing_friends(self, n: u8) -> Script {
        *self.friendly_luck.lock().expect("not poisoned") = n;
        self
    }

    /// Shots not fired.
    pub fn left(&self) -> usize {
        self.shots.lock().expect("not poisoned").len()
    }

    /// The questions asked about firing so far.
    pub fn asks(&self) -> Vec<String> {
        self.asks.lock().expect("not poisoned").clone()
    }

    fn note(&self, ask: String) {
        self.asks.lock().expect("not poisoned").push(ask);
    }
}

impl ModuleGridTactics for Script {
    fn maneuver(&self, _system: &ModuleGrid, _battle: &Battle, _ship: usize) -> Maneuver {
        Maneuver::default()
    }

    fn next_shot(
        &self,
        _system: &ModuleGrid,
        _battle: &Battle,
        ship: usize,
        _options: &[FireOptions],
    ) -> Option<ShotChoice> {
        self.note(format!("shot {ship}"));
        let mut shots = self.shots.lock().expect("not poisoned");
        match shots.front() {
            Some(&(firer, choice)) if firer == ship => {
                shots.pop_front();
                Some(choice)
            }
            _ => None,
        }
    }

    fn scan_target(
        &self,
        _system: &ModuleGrid,
        _battle: &Battle,
        ship: usize,
        options: &[FireOptions],
    ) -> Option<usize> {
        self.note(format!("scan {ship}"));
        self.scans
            .iter()
            .find(|(scanner, _)| *scanner == ship)
            .map(|&(_, on)| on)
            .or_else(|| options.first().map(|o| o.target))
    }

    fn burst_side(
        &self,
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        struck: usize,
        sides: SideSet,
    ) -> ShipSide {
        let named: Vec<String> = sides.sides().map(|s| s.to_string()).collect();
        self.note(format!("burst {ship} on {struck}: {}", named.join(" ")));
        self.burst_side
            .unwrap_or_else(|| DefaultTactics::burst_side_for(system, battle, ship, struck, sides))
    }

    fn allocation_reroll(
        &self,
        _system: &ModuleGrid,
        _ship: usize,
        view: &AllocationView<'_>,
    ) -> Option<Reroll> {
        let whose = if view.foe { "a foe" } else { "a friend" };
        self.note(format!(
            "reroll on {whose}: {} scans, {} Luck",
            view.scans, view.luck
        ));
        self.offered_scans
            .lock()
            .expect("not poisoned")
            .push(view.scans);
        let mut left = self.friendly_luck.lock().expect("not poisoned");
        (!view.foe && view.luck > 0 && *left > 0).then(|| {
            *left -= 1;
            Reroll {
                die: 0,
                with: RerollWith::Luck,
            }
        })
    }

    fn repair(&self, _system: &ModuleGrid, _battle: &Battle, _ship: usize) -> Option<ModuleIx> {
        None
    }
}

/// A Cannon shot chosen by hand: the module at `square` of the firer's
/// class `id`, in `mode`, at `target`'s `side`, calling `call`.
pub fn cannon(
    id: &str,
    square: &str,
    mode: Mode,
    target: usize,
    side: ShipSide,
    call: Option<&str>,
) -> ShotChoice {
    ShotChoice {
        target,
        weapon: Weapon::Cannon {
            module: module(id, square),
            mode,
        },
        side,
        call: call.map(|c| Square::parse(c).expect("a square")),
    }
}

// ---------------------------------------------------------------------------
// Phases played in steps
// ---------------------------------------------------------------------------

/// Seeded dice that remember every face they show.
struct Recorded {
    dice: SeededDice,
    faces: Vec<u32>,
}

impl Dice for Recorded {
    fn roll(&mut self, die: broadside_core::Die) -> Result<u32, broadside_core::DiceError> {
        let face = self.dice.roll(die)?;
        self.faces.push(face);
        Ok(face)
    }
}

/// What one play of a battle came to: every face rolled, every event and
/// the battle at the end.
type Played = (Vec<u32>, Vec<String>, Battle);

/// Plays the battle `request` asks for with `seed`, every phase whole and
/// then every phase step by step as exact odds play it (core's contract:
/// the steps in order are the phase), until a verdict or the turn limit;
/// asserts that both roll the same faces, tell the same events and end in
/// the same battle, with no fire left under way.
pub fn check_steps_play_as_phases(request: &BattleRequest, seed: u64) {
    use broadside_core::Setup;
    let duel = system().duel(request).expect("the battle sets up");
    let sequence = duel.sequence();
    let tactics = duel.tactics();
    assert!(
        sequence.steps(Phase::FirstFire, 1) > 1,
        "the fire phase is split"
    );
    let play = |stepped: bool| -> Played {
        let mut dice = Recorded {
            dice: SeededDice::new(seed),
            faces: Vec::new(),
        };
        let mut log = EventLog::default();
        let mut battle = duel.begin(&mut dice, &mut log).expect("the battle begins");
        'turns: for turn in 1..=duel.max_turns() {
            for &phase in sequence.phases(turn) {
                let played = if stepped {
                    (0..sequence.steps(phase, turn)).try_for_each(|step| {
                        sequence.play_step(
                            phase,
                            turn,
                            step,
                            &mut battle,
                            tactics,
                            &mut dice,
                            &mut log,
                        )
                    })
                } else {
                    sequence.play_phase(phase, turn, &mut battle, tactics, &mut dice, &mut log)
                };
                played.unwrap_or_else(|e| panic!("seed {seed}, turn {turn}, {phase}: {e}"));
                if sequence.verdict(&battle).is_some() {
                    break 'turns;
                }
            }
        }
        let events = event_lines(&log.events);
        (dice.faces, events, battle)
    };
    let (whole, stepped) = (play(false), play(true));
    assert!(!whole.0.is_empty(), "seed {seed}: no dice were rolled");
    assert_eq!(stepped.0, whole.0, "seed {seed}: the faces rolled");
    assert_eq!(stepped.1, whole.1, "seed {seed}: the events");
    assert_eq!(stepped.2, whole.2, "seed {seed}: the battle at the end");
    assert_eq!(
        stepped.2.firing,
        broadside_module_grid::engagement::Firing::default(),
        "seed {seed}: fire left under way"
    );
}

/// A shot of ship 0 at ship 1's `side` from `range` hexes, calling `call`,
/// with no scans or Luck: what most tests set up, the rest given over it.
pub fn shot_at(weapon: Weapon, range: u32, side: ShipSide, call: Option<&str>) -> Shot {
    Shot {
        attacker: 0,
        weapon,
        target: 1,
        range,
        side,
        call: call.map(|c| Square::parse(c).expect("a square")),
        scans: 0,
        luck: 0,
    }
}

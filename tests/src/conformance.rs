//! The conformance suite: what every rule system must do, checked by one
//! driver over each system's cases.
//!
//! A system passes when its data loads and describes itself consistently,
//! when resolution is deterministic for a seed, independent of the event
//! sink, and replayable from the faces it rolled as scripted dice, when its
//! duels end by the turn limit, replay exactly, and tally the same on any
//! number of threads, when a mirror match favours neither side within four
//! standard errors of its trial count, and when its attack and damage
//! allocation, called through core's traits, read a table, roll, say so,
//! refuse without rolling and never leave a state the rules cannot reach.
//! `docs/adding-a-ruleset.md` ("The conformance contract") states each
//! check and its bound in words.

use std::fmt::Debug;

use broadside_core::montecarlo::Tally;
use broadside_core::{
    AttackResolution, BattleRequest, DamageAllocation, Dice, DiceError, Die, Engagement, Event,
    EventLog, NullSink, Registration, ResolveError, ResolveRequest, Ruleset, ScriptedDice,
    SeededDice, Side, Verdict, play_trial, run_trials,
};
use serde_json::Value;

/// One system's cases.
pub struct Case {
    /// The system, as the CLI registers it.
    pub registration: Registration,
    /// Attacks the rules allow, each of which must resolve.
    pub resolves: Vec<ResolveRequest>,
    /// Attacks the rules forbid, each of which must be refused.
    pub refused: Vec<ResolveRequest>,
    /// Table cells and what they hold: (table, row, column, cell).
    pub cells: Vec<(
        &'static str,
        &'static str,
        Option<&'static str>,
        &'static str,
    )>,
    /// A duel between two different ships.
    pub duel: BattleRequest,
    /// A mirror match: the same ship on both sides.
    pub mirror: BattleRequest,
    /// A battle of fleets, side A with two ships of one id.
    pub fleet: BattleRequest,
}

/// Dice that pass a seeded source through and remember every face, so a
/// seeded resolution can be replayed as a script.
struct Recording {
    inner: SeededDice,
    faces: Vec<u32>,
}

impl Dice for Recording {
    fn roll(&mut self, die: Die) -> Result<u32, DiceError> {
        let face = self.inner.roll(die)?;
        self.faces.push(face);
        Ok(face)
    }
}

fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('-')
        && !id.ends_with('-')
        && !id.contains("--")
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn json_of(report: &dyn broadside_core::Sheet) -> Value {
    serde_json::to_value(report).expect("a report serialises")
}

/// Runs every conformance check on one system's cases.
pub fn check_conformance(case: &Case) {
    let system = case.registration.load_embedded().unwrap_or_else(|e| {
        panic!(
            "{}: the embedded data does not load:\n{e}",
            case.registration.id
        )
    });
    check_description(&*system, case);
    check_ships_and_tables(&*system);
    for request in &case.resolves {
        check_resolution(&*system, request);
    }
    for request in &case.refused {
        // A refused attack is refused before anything happens: no die is
        // rolled and nothing is logged.
        let mut script = ScriptedDice::new(vec![1; 64]);
        let mut log = EventLog::default();
        let result = system.resolve(request, &mut script, &mut log);
        assert!(
            matches!(result, Err(ResolveError::Refused(_))),
            "{}: {} against {} should be refused",
            system.id(),
            request.attacker,
            request.target
        );
        assert_eq!(
            script.used(),
            0,
            "{}: a refused attack rolled dice",
            system.id()
        );
        assert!(
            log.events.is_empty(),
            "{}: a refused attack logged events",
            system.id()
        );
    }
    for &(table, row, column, expected) in &case.cells {
        let tables = system.tables();
        let view = tables
            .iter()
            .find(|t| t.id == table)
            .unwrap_or_else(|| panic!("{}: no table {table}", system.id()));
        assert_eq!(
            view.cell(row, column).ok(),
            Some(expected),
            "{}: {table} {row} {column:?}",
            system.id()
        );
    }
    check_unknown_ships(&*system, case);
    check_duel(&*system, &case.duel);
    assert_eq!(
        case.mirror.sides[0], case.mirror.sides[1],
        "a mirror match names one fleet twice"
    );
    let engagement = system
        .prepare_battle(&case.mirror)
        .unwrap_or_else(|e| panic!("{}: the mirror match does not set up: {e}", system.id()));
    if let Err(problem) = check_mirror(&*engagement, MIRROR_SEED, MIRROR_TRIALS) {
        panic!(
            "{}: mirror match {:?}: {problem}",
            system.id(),
            case.mirror.sides[0]
        );
    }
    check_duel(&*system, &case.fleet);
    check_fleet(&*system, &case.fleet);
}

/// A fleet battle: one fate per ship of the roster on the ship's side, no
/// side losing more ships than it has, per-side counts that sum to the
/// trials, and a log that tells two ships of one id apart.
fn check_fleet(system: &dyn Ruleset, request: &BattleRequest) {
    let what = format!(
        "{}: fleet {:?} against {:?}",
        system.id(),
        request.sides[0],
        request.sides[1]
    );
    let engagement = system
        .prepare_battle(request)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let roster = engagement.roster();
    assert!(
        roster.len() >= request.sides[0].len() + request.sides[1].len(),
        "{what}: the roster lacks ships that were named"
    );
    let mut named_apart = false;
    for trial in 0..12 {
        let mut log = EventLog::default();
        let outcome = play_trial(&*engagement, 41, trial, &mut log).unwrap();
        assert_eq!(
            outcome.ships.len(),
            roster.len(),
            "{what}: one fate per ship"
        );
        for (i, fate) in outcome.ships.iter().enumerate() {
            assert_eq!(fate.side, roster.side(i), "{what}: ship {i} changed side");
        }
        for side in Side::BOTH {
            assert!(
                outcome.lost(side) <= roster.side_len(side),
                "{what}: side {side} lost more ships than it has"
            );
        }
        let text: Vec<String> = log.events.iter().map(ToString::to_string).collect();
        let text = text.join("\n");
        named_apart |= text.contains(" #1 (A)") && text.contains(" #2 (A)");
    }
    assert!(
        named_apart,
        "{what}: no log names the two ships of one id apart"
    );
    let summary = run_trials(&*engagement, 41, 60, &|_| {})
        .unwrap()
        .summary(roster);
    for side in Side::BOTH {
        let lost = summary.ships_lost.of(side);
        assert_eq!(lost.len(), roster.side_len(side) + 1, "{what}: side {side}");
        assert_eq!(lost.iter().sum::<u64>(), 60, "{what}: side {side}");
    }
}

fn check_description(system: &dyn Ruleset, case: &Case) {
    assert_eq!(system.id(), case.registration.id);
    assert!(is_kebab(system.id()));
    assert!(!system.title().is_empty() && !system.description().is_empty());
    for specs in [system.resolve_options(), system.battle_options()] {
        let mut names: Vec<&str> = specs.iter().map(|s| s.name).collect();
        assert!(
            names.iter().all(|n| is_kebab(n)),
            "{}: option names {names:?}",
            system.id()
        );
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            specs.len(),
            "{}: an option is declared twice",
            system.id()
        );
    }
    for request in &case.resolves {
        request
            .options
            .validate(system.resolve_options())
            .unwrap_or_else(|e| {
                panic!(
                    "{}: a conformance case's options are invalid: {e}",
                    system.id()
                )
            });
    }
}

fn check_ships_and_tables(system: &dyn Ruleset) {
    let ships = system.ships();
    assert!(!ships.is_empty(), "{} has no ships", system.id());
    let headers: Vec<&str> = ships[0].row().iter().map(|(h, _)| *h).collect();
    let mut ids = Vec::new();
    for ship in &ships {
        assert!(is_kebab(ship.id()), "ship id {}", ship.id());
        ids.push(ship.id().to_owned());
        let row = ship.row();
        assert_eq!(
            row.iter().map(|(h, _)| *h).collect::<Vec<_>>(),
            headers,
            "{}",
            ship.id()
        );
        assert!(
            json_of(&**ship).is_object(),
            "{} does not serialise to an object",
            ship.id()
        );
        assert!(!ship.lines().is_empty());
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), ships.len(), "{}: ship ids repeat", system.id());

    let tables = system.tables();
    assert!(!tables.is_empty(), "{} has no tables", system.id());
    let mut table_ids = Vec::new();
    for table in &tables {
        assert!(is_kebab(&table.id), "table id {}", table.id);
        table_ids.push(table.id.clone());
        assert!(!table.rows.is_empty(), "table {} is empty", table.id);
        for row in &table.rows {
            assert_eq!(
                row.cells.len(),
                table.columns.len(),
                "table {} row {}",
                table.id,
                row.label
            );
        }
        let first = &table.rows[0];
        let cell = table.cell(&first.label, table.columns.first().map(String::as_str));
        assert_eq!(
            cell.ok(),
            first.cells.first().map(String::as_str),
            "table {}",
            table.id
        );
    }
    table_ids.sort();
    table_ids.dedup();
    assert_eq!(
        table_ids.len(),
        tables.len(),
        "{}: table ids repeat",
        system.id()
    );
}

fn check_resolution(system: &dyn Ruleset, request: &ResolveRequest) {
    let what = format!(
        "{}: {} against {}",
        system.id(),
        request.attacker,
        request.target
    );
    for seed in 0..40 {
        let mut log = EventLog::default();
        let mut recording = Recording {
            inner: SeededDice::new(seed),
            faces: Vec::new(),
        };
        let report = system
            .resolve(request, &mut recording, &mut log)
            .unwrap_or_else(|e| panic!("{what}, seed {seed}: {e}"));
        let json = json_of(&*report);
        assert!(json.is_object(), "{what}: the report is not an object");
        assert!(!log.events.is_empty(), "{what}: no events");
        assert!(!recording.faces.is_empty(), "{what}: no dice rolled");

        // The same seed gives the same result, whatever the sink.
        let again = system
            .resolve(request, &mut SeededDice::new(seed), &mut NullSink)
            .unwrap();
        assert_eq!(
            json_of(&*again),
            json,
            "{what}, seed {seed}: the sink changed the result"
        );

        // The faces rolled, given back as a script, reproduce it exactly.
        let mut script = ScriptedDice::new(recording.faces.clone());
        let mut replay_log = EventLog::default();
        let replay = system
            .resolve(request, &mut script, &mut replay_log)
            .unwrap();
        assert_eq!(
            json_of(&*replay),
            json,
            "{what}, seed {seed}: scripted replay differs"
        );
        assert_eq!(
            replay_log, log,
            "{what}, seed {seed}: scripted replay logs differently"
        );
        assert!(script.remaining().is_empty());
    }
    // Running out of scripted dice is an error, not a panic.
    let mut empty = ScriptedDice::new(Vec::new());
    match system.resolve(request, &mut empty, &mut NullSink) {
        Err(ResolveError::Dice(DiceError::Exhausted { position: 1, .. })) => {}
        other => panic!("{what}: with no dice: {:?}", other.map(|r| json_of(&*r))),
    }
}

fn check_unknown_ships(system: &dyn Ruleset, case: &Case) {
    let Some(request) = case.resolves.first() else {
        return;
    };
    let mut bad = request.clone();
    bad.attacker = "no-such-ship".into();
    let result = system.resolve(&bad, &mut SeededDice::new(1), &mut NullSink);
    assert!(
        matches!(result, Err(ResolveError::Unknown { kind: "ship", .. })),
        "{}: an unknown attacker is not reported as an unknown ship",
        system.id()
    );
    let mut bad = case.duel.clone();
    bad.sides[1] = vec!["no-such-ship".into()];
    assert!(
        matches!(
            system.prepare_battle(&bad),
            Err(ResolveError::Unknown { kind: "ship", .. })
        ),
        "{}: an unknown duel ship is not reported as an unknown ship",
        system.id()
    );
}

fn check_duel(system: &dyn Ruleset, request: &BattleRequest) {
    let what = format!(
        "{}: battle {:?} against {:?}",
        system.id(),
        request.sides[0],
        request.sides[1]
    );
    let engagement = system
        .prepare_battle(request)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let seed = 77;
    let mut sequential = Tally::default();
    for trial in 0..24 {
        let mut log = EventLog::default();
        let outcome = play_trial(&*engagement, seed, trial, &mut log).unwrap();
        assert!(
            outcome.turns <= request.max_turns,
            "{what}: trial {trial} ran past the limit"
        );
        if outcome.verdict == Verdict::Undecided {
            assert_eq!(
                outcome.turns, request.max_turns,
                "{what}: undecided before the limit"
            );
        }
        // A replay is the same trial, event for event, and a sink that keeps
        // nothing does not change it.
        let mut again = EventLog::default();
        assert_eq!(
            play_trial(&*engagement, seed, trial, &mut again).unwrap(),
            outcome
        );
        assert_eq!(again, log, "{what}: trial {trial} does not replay");
        assert_eq!(
            play_trial(&*engagement, seed, trial, &mut NullSink).unwrap(),
            outcome
        );
        sequential.add(&outcome);
    }
    let parallel = run_trials(&*engagement, seed, 24, &|_| {}).unwrap();
    assert_eq!(
        parallel, sequential,
        "{what}: the tally depends on how trials are run"
    );
}

/// The gap between the two sides' win shares a mirror match must catch:
/// two points (side A winning 0.51 and side B 0.49, say).
pub const MIRROR_BIAS: f64 = 0.02;

/// How many standard errors apart the two sides' win shares may be.
pub const MIRROR_STANDARD_ERRORS: f64 = 4.0;

/// The trials of a mirror match. The standard error of the gap between the
/// sides' win shares is at most `1 / sqrt(n)` (a match with no draws and
/// even odds), so four of them stay under [`MIRROR_BIAS`] once `n` passes
/// `(4 / 0.02)^2 = 40,000`: at 41,000 they come to at most 0.0198.
pub const MIRROR_TRIALS: u64 = 41_000;

/// The seed of every mirror match, so that the check is the same on every
/// run.
pub const MIRROR_SEED: u64 = 2026;

/// What a mirror match came to: each side's win share and the standard
/// error of their gap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mirror {
    /// Trials played.
    pub trials: u64,
    /// Side A's share of wins.
    pub a: f64,
    /// Side B's share of wins.
    pub b: f64,
    /// The standard error of `a - b`.
    pub standard_error: f64,
}

/// Plays a mirror match (the same fleet on both sides) `trials` times from
/// `seed` and checks that the engine favours neither side: the gap between
/// the sides' win shares within [`MIRROR_STANDARD_ERRORS`] standard errors.
///
/// A trial is one draw of a three-way outcome (A wins, B wins, neither), so
/// the gap `a - b` has variance `(a + b - (a - b)^2) / n`, estimated from
/// the shares found. A check with too few trials to catch a gap of
/// [`MIRROR_BIAS`], or with fewer than half its trials decided (a match
/// nobody wins cannot show who is favoured), is an error too.
pub fn check_mirror(engagement: &dyn Engagement, seed: u64, trials: u64) -> Result<Mirror, String> {
    if trials == 0 || MIRROR_STANDARD_ERRORS / (trials as f64).sqrt() >= MIRROR_BIAS {
        return Err(format!(
            "{trials} trials cannot catch a gap of {MIRROR_BIAS} within {MIRROR_STANDARD_ERRORS} standard errors"
        ));
    }
    let summary = run_trials(engagement, seed, trials, &|_| {})
        .map_err(|e| e.to_string())?
        .summary(engagement.roster());
    let n = trials as f64;
    let a = summary.outcomes.a_wins.count as f64 / n;
    let b = summary.outcomes.b_wins.count as f64 / n;
    let standard_error = ((a + b - (a - b).powi(2)) / n).sqrt();
    let mirror = Mirror {
        trials,
        a,
        b,
        standard_error,
    };
    if 2.0 * (a + b) < 1.0 {
        return Err(format!(
            "fewer than half the trials decided (A {a:.4}, B {b:.4} of {trials})"
        ));
    }
    if (a - b).abs() > MIRROR_STANDARD_ERRORS * standard_error {
        return Err(format!(
            "it favours one side: A wins {a:.4}, B {b:.4} of {trials} trials, a gap of {:.1} standard errors ({standard_error:.4}), more than {MIRROR_STANDARD_ERRORS}",
            (a - b).abs() / standard_error
        ));
    }
    Ok(mirror)
}

// ---------------------------------------------------------------------------
// The design traits, called directly
// ---------------------------------------------------------------------------

/// Seeds each attack and each allocation is played from.
const TRAIT_SEEDS: u64 = 40;

/// Dice that count the dice rolled and remember every face, so a seeded call
/// can be replayed as a script.
struct Counting {
    inner: SeededDice,
    faces: Vec<u32>,
}

impl Counting {
    fn new(seed: u64) -> Counting {
        Counting {
            inner: SeededDice::new(seed),
            faces: Vec::new(),
        }
    }
}

impl Dice for Counting {
    fn roll(&mut self, die: Die) -> Result<u32, DiceError> {
        let face = self.inner.roll(die)?;
        self.faces.push(face);
        Ok(face)
    }
}

/// Whether a log reads a number from the rules' tables or data: a base
/// number with its source, or a table's row.
fn reads_a_table(events: &[Event]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::Base { .. } | Event::TableRow { .. }))
}

/// Checks a system's attack resolution through core's [`AttackResolution`],
/// each declaration on its own board, as the system's case sets it up:
/// - each `legal` declaration, from seeds 0 to 39, resolves, rolls at least
///   one die, reads a number from a table (a `Base` or `TableRow` event),
///   logs the roll (a `Roll` event), and replays exactly, state and events,
///   from the faces it rolled given back as scripted dice;
/// - each `refused` declaration, with an empty script, is
///   [`ResolveError::Refused`]: no die rolled (an empty script would fail
///   any roll), no event, the board as it was.
pub fn check_attack_resolution<R>(
    system: &str,
    rules: &R,
    legal: &[(R::Board, R::Declaration)],
    refused: &[(R::Board, R::Declaration)],
) where
    R: AttackResolution,
    R::Board: Clone + PartialEq + Debug,
    R::Outcome: Debug,
{
    assert!(
        !legal.is_empty() && !refused.is_empty(),
        "{system}: the case needs an attack the rules allow and one they refuse"
    );
    for (i, (board, attack)) in legal.iter().enumerate() {
        let what = format!("{system}: legal attack {i}");
        for seed in 0..TRAIT_SEEDS {
            let mut after = board.clone();
            let mut dice = Counting::new(seed);
            let mut log = EventLog::default();
            let outcome = rules
                .resolve_attack(&mut after, attack, &mut dice, &mut log)
                .unwrap_or_else(|e| panic!("{what}, seed {seed}: {e}"));
            assert!(!dice.faces.is_empty(), "{what}, seed {seed}: no die rolled");
            assert!(
                reads_a_table(&log.events),
                "{what}, seed {seed}: no number read from a table: {:#?}",
                log.events
            );
            assert!(
                log.events.iter().any(|e| matches!(e, Event::Roll { .. })),
                "{what}, seed {seed}: no roll logged: {:#?}",
                log.events
            );
            let mut replayed = board.clone();
            let mut script = ScriptedDice::new(dice.faces.clone());
            let mut replay_log = EventLog::default();
            let again = rules
                .resolve_attack(&mut replayed, attack, &mut script, &mut replay_log)
                .unwrap_or_else(|e| panic!("{what}, seed {seed}: the replay fails: {e}"));
            assert_eq!(
                format!("{again:?}"),
                format!("{outcome:?}"),
                "{what}, seed {seed}: the replay's outcome differs"
            );
            assert_eq!(
                replayed, after,
                "{what}, seed {seed}: the replay's board differs"
            );
            assert_eq!(
                replay_log, log,
                "{what}, seed {seed}: the replay logs differently"
            );
            assert!(script.remaining().is_empty(), "{what}, seed {seed}");
        }
    }
    for (i, (board, attack)) in refused.iter().enumerate() {
        let what = format!("{system}: refused attack {i}");
        let mut after = board.clone();
        let mut empty = ScriptedDice::new(Vec::new());
        let mut log = EventLog::default();
        match rules.resolve_attack(&mut after, attack, &mut empty, &mut log) {
            Err(ResolveError::Refused(_)) => {}
            other => panic!("{what}: expected a refusal, got {other:?}"),
        }
        assert_eq!(empty.used(), 0, "{what}: a refused attack rolled dice");
        assert!(
            log.events.is_empty(),
            "{what}: a refused attack logged events"
        );
        assert_eq!(&after, board, "{what}: a refused attack changed the board");
    }
}

/// A ship's hull, or its system's measure of it: what is left, and what it
/// started with.
pub type HullOf<'a, T> = &'a dyn Fn(&T) -> (i32, i32);

/// Checks a system's damage allocation through core's [`DamageAllocation`]:
/// each hit, from seeds 0 to 39, allocated again and again to a fresh
/// `target` until its hull is gone (at most 60 times), logs at least one
/// event each time, never leaves the hull above its start or above what it
/// was before the hit, and replays exactly from the faces it rolled. `hull`
/// reads the system's measure of the hull (a system may count damage past
/// the hull, so what is left may fall below nothing).
pub fn check_damage_allocation<R>(
    system: &str,
    rules: &R,
    target: &R::Target,
    hits: &[R::Hit],
    hull: HullOf<'_, R::Target>,
) where
    R: DamageAllocation,
    R::Target: Clone + PartialEq + Debug,
    R::Applied: Debug,
{
    assert!(!hits.is_empty(), "{system}: the case needs a hit");
    let (full, start) = hull(target);
    assert_eq!(full, start, "{system}: the target starts undamaged");
    for (i, hit) in hits.iter().enumerate() {
        let what = format!("{system}: hit {i}");
        for seed in 0..TRAIT_SEEDS {
            let mut ship = target.clone();
            let mut dice = Counting::new(seed);
            for n in 0..60 {
                let (before, _) = hull(&ship);
                if before <= 0 {
                    break;
                }
                let was = ship.clone();
                let rolled = dice.faces.len();
                let mut log = EventLog::default();
                let applied = rules
                    .allocate(hit, &mut ship, &mut dice, &mut log)
                    .unwrap_or_else(|e| panic!("{what}, seed {seed}, hit {n}: {e}"));
                assert!(
                    !log.events.is_empty(),
                    "{what}, seed {seed}, hit {n}: nothing logged"
                );
                let (left, started) = hull(&ship);
                assert_eq!(
                    started, start,
                    "{what}, seed {seed}, hit {n}: the start moved"
                );
                assert!(
                    left <= before,
                    "{what}, seed {seed}, hit {n}: hull {before} became {left} of {start}"
                );
                let mut replayed = was.clone();
                let mut script = ScriptedDice::new(dice.faces[rolled..].to_vec());
                let mut replay_log = EventLog::default();
                let again = rules
                    .allocate(hit, &mut replayed, &mut script, &mut replay_log)
                    .unwrap_or_else(|e| panic!("{what}, seed {seed}, hit {n}: the replay: {e}"));
                assert_eq!(
                    format!("{again:?}"),
                    format!("{applied:?}"),
                    "{what}, seed {seed}, hit {n}: the replay's result differs"
                );
                assert_eq!(
                    replayed, ship,
                    "{what}, seed {seed}, hit {n}: the replay differs"
                );
                assert_eq!(replay_log, log, "{what}, seed {seed}, hit {n}");
            }
        }
    }
}

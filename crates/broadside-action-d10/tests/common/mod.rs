//! Shared `check` helpers for the action-d10 tests: one per area, so an API change touches one place.
//!
//! Snapshot helpers record each test's inputs (`info`) and the rule it
//! reproduces (`description`), and write a transcript: the inputs, every
//! event numbered, the report's lines and its JSON, so a reviewer can check
//! every number against the rules.

#![allow(
    dead_code,
    reason = "each test binary uses a different part of the helpers"
)]

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use broadside_action_d10::AttackOutcome as D10Outcome;
use broadside_action_d10::engagement::{Sequence, TurnState};
use broadside_action_d10::{
    Action, ActionD10, ActionTactics, Attack, Battle, BattleSetup, Board, DefaultTactics, LockNeed,
    LockSituation, Phase, Pose, Ship, Situation,
};
use broadside_core::exact::{ExactAttack, ExactError, ExactOdds, Prob, exact_attack, exact_battle};
use broadside_core::hex::{Direction, Hex};
use broadside_core::kit::System as _;
use broadside_core::{
    AttackOutcome, AttackResolution, BattleRequest, Dice, DiceError, Die, Event, EventLog,
    EventSink, NullSink, OptionValue, Options, ResolveError, ResolveRequest, Ruleset, ScriptedDice,
    SeededDice, Setup, SourceFile, TableView, TurnSequence, Verdict,
};
use broadside_data::testing::{self, numbered};
#[allow(
    unused_imports,
    reason = "each test binary uses a different part of the helpers"
)]
pub use broadside_data::testing::{Sampled, duel_request, fleet_request, num};
use serde_json::{Value, json};

/// The system, loaded once from its embedded data of record.
pub fn system() -> &'static ActionD10 {
    static SYSTEM: OnceLock<ActionD10> = OnceLock::new();
    testing::loaded(&SYSTEM, "action-d10", ActionD10::embedded)
}

/// The embedded data files, for tests that load altered copies in memory.
pub fn sources() -> Vec<SourceFile> {
    broadside_action_d10::REGISTRATION.embedded_sources()
}

/// One change to the data of record: in `file`, the first `from` becomes `to`.
pub type Edit<'a> = (&'a str, &'a str, &'a str);

/// The embedded data files with edits applied; each `from` must be there.
pub fn edited_sources(edits: &[Edit<'_>]) -> Vec<SourceFile> {
    testing::edited(sources(), edits)
}

/// The system loaded from the data of record with edits applied, as a
/// user's `--rules` folder would give it (kept for the test's lifetime).
pub fn edited_system(edits: &[Edit<'_>]) -> &'static ActionD10 {
    if edits.is_empty() {
        return system();
    }
    match ActionD10::load(&edited_sources(edits)) {
        Ok(system) => Box::leak(Box::new(system)),
        Err(errors) => panic!("the edited action-d10 data does not load:\n{errors}"),
    }
}

/// A fresh ship of a class of the data of record.
pub fn ship(id: &str) -> Ship {
    system()
        .ship(id)
        .unwrap_or_else(|| panic!("no ship class '{id}' in the data"))
}

/// Asserts a named snapshot that records its inputs and cites its source.
pub fn snapshot(name: &str, source: &str, inputs: &Value, transcript: &str) {
    broadside_data::snapshot!(name, source, inputs, transcript);
}

/// Damage set on a ship directly: what it is, in words, and how.
pub type Prepare<'a> = (&'a str, fn(&mut Ship));

/// One resolution through the object-safe `Ruleset` face, from ships that
/// may start damaged.
#[derive(Debug, Clone)]
pub struct Resolve<'a> {
    /// Snapshot name.
    pub name: &'a str,
    /// The rule reproduced, as the published rules name it.
    pub source: &'a str,
    /// Attacking ship class.
    pub attacker: &'a str,
    /// `--weapon`.
    pub weapon: &'a str,
    /// Target ship class.
    pub target: &'a str,
    /// `--range`.
    pub range: i64,
    /// `--locked`.
    pub locked: bool,
    /// `--displacement`.
    pub displacement: Option<i64>,
    /// `--aft`.
    pub aft: bool,
    /// Boxes of the target's track already marked before the attack.
    pub marked: u8,
    /// The target's shield points before the attack (its full shields if `None`).
    pub shields: Option<u8>,
    /// Scripted dice, in the order the rules roll them.
    pub dice: &'a [u32],
    /// Damage set on the target before the attack, beyond marked boxes.
    pub prepare: Option<Prepare<'a>>,
    /// `--lock-range`.
    pub lock_range: Option<i64>,
    /// Changes to the data of record, as a `--rules` folder would make them.
    pub edits: &'a [Edit<'a>],
}

impl Default for Resolve<'_> {
    fn default() -> Self {
        Resolve {
            name: "",
            source: "",
            attacker: "destroyer",
            weapon: "laser-turret",
            target: "frigate",
            range: 1,
            locked: true,
            displacement: None,
            aft: false,
            marked: 0,
            shields: None,
            dice: &[],
            prepare: None,
            lock_range: None,
            edits: &[],
        }
    }
}

impl Resolve<'_> {
    /// The request the CLI would build.
    pub fn request(&self) -> ResolveRequest {
        let mut options = Options::new()
            .with("weapon", OptionValue::Text(self.weapon.into()))
            .with("range", OptionValue::Number(self.range));
        if self.locked {
            options.set("locked", OptionValue::Flag);
        }
        if let Some(d) = self.displacement {
            options.set("displacement", OptionValue::Number(d));
        }
        if self.aft {
            options.set("aft", OptionValue::Flag);
        }
        if let Some(r) = self.lock_range {
            options.set("lock-range", OptionValue::Number(r));
        }
        ResolveRequest {
            attacker: self.attacker.into(),
            target: self.target.into(),
            options,
        }
    }

    fn system(&self) -> &'static ActionD10 {
        edited_system(self.edits)
    }

    fn ship(&self, id: &str) -> Ship {
        self.system()
            .ship(id)
            .unwrap_or_else(|| panic!("no ship class '{id}' in the data"))
    }

    fn target_ship(&self) -> Ship {
        let system = self.system();
        let mut target = self
            .ship(self.target)
            .with_boxes_marked(&system.rules, self.marked);
        if let Some(shields) = self.shields {
            target.shields = shields;
        }
        if let Some((_, prepare)) = self.prepare {
            prepare(&mut target);
        }
        target
    }

    fn inputs(&self) -> Value {
        let mut inputs = json!({
            "attacker": self.attacker, "weapon": self.weapon, "target": self.target,
            "range": self.range, "locked": self.locked, "displacement": self.displacement,
            "aft": self.aft, "target_boxes_already_marked": self.marked,
            "target_shields": self.shields, "target_prepared": self.prepare.map(|(what, _)| what),
            "dice": self.dice,
        });
        // Recorded only when used, so the older snapshots keep their inputs.
        if let Some(r) = self.lock_range {
            inputs["lock_range"] = json!(r);
        }
        if !self.edits.is_empty() {
            inputs["data_edits"] = json!(self.edits);
        }
        inputs
    }

    /// Runs the resolution with scripted dice.
    pub fn run(&self) -> Result<(Value, Vec<String>, Vec<Event>, ScriptedDice), ResolveError> {
        let s = self.system();
        let request = self.request();
        request.options.validate(s.resolve_options())?;
        let mut dice = ScriptedDice::new(self.dice.to_vec());
        let mut log = EventLog::default();
        let report = s.resolve_ships(
            &request,
            self.ship(self.attacker),
            self.target_ship(),
            &mut dice,
            &mut log,
        )?;
        let value = serde_json::to_value(&*report).expect("a report serialises");
        Ok((value, report.lines(), log.events, dice))
    }
}

impl Resolve<'_> {
    /// Resolves the attack once with the dice given, keeping no log, and
    /// reads it in the terms every system shares.
    pub fn outcome(&self, dice: &mut dyn Dice) -> Result<AttackOutcome, ResolveError> {
        let s = self.system();
        let request = self.request();
        request.options.validate(s.resolve_options())?;
        let report = s.resolve_ships(
            &request,
            self.ship(self.attacker),
            self.target_ship(),
            dice,
            &mut NullSink,
        )?;
        report.attack_outcome().ok_or_else(|| {
            ResolveError::Internal("the resolve report gives no attack outcome".into())
        })
    }
}

/// The exact distribution of an attack: the rules run over every outcome
/// of its dice.
pub fn exact(case: &Resolve<'_>) -> Result<ExactAttack, ExactError> {
    exact_attack(testing::EXACT_ATTACK_PATHS, |dice| case.outcome(dice))
}

/// Checks an attack's exact distribution against figures worked out apart
/// from the rules code. `expected` names every figure the distribution has
/// (`p_hit`, `mean_hull_damage`, `damage N`, `result NAME`, `destroyed
/// NAME`, as `ExactAttack::fractions` names them), each with its exact
/// probability; a figure missing from either side fails. Returns the
/// distribution for further checks.
pub fn check_exact(case: Resolve<'_>, expected: &[(&str, Prob)]) -> ExactAttack {
    let exact =
        exact(&case).unwrap_or_else(|e| panic!("{}: no exact distribution: {e}", case.name));
    let want: BTreeMap<String, String> = expected
        .iter()
        .map(|(name, p)| ((*name).to_owned(), format!("{}/{}", p.numer(), p.denom())))
        .collect();
    assert_eq!(
        exact.fractions, want,
        "{}: the exact distribution (left) against the independent one (right)",
        case.name
    );
    let total: f64 = exact.hull_damage.iter().map(|(_, p)| p).sum();
    assert!(
        (total - 1.0).abs() < 1e-12,
        "{}: hull damage sums to {total}",
        case.name
    );
    exact
}

/// Resolves an attack `trials` times with seeded dice, trial `i` on stream
/// `i` of `seed`, counted as the exact distribution counts it.
pub fn sample(case: &Resolve<'_>, seed: u64, trials: u64) -> Result<Sampled, ResolveError> {
    testing::sample_attack(seed, trials, |dice| case.outcome(dice))
}

/// How many standard errors a sampled figure may stray from the exact one.
pub const STANDARD_ERRORS: f64 = 4.0;

/// Checks every figure of a seeded run against the exact distribution:
/// P(hit), the mean hull damage, each hull damage, each result and each
/// system destroyed, within [`STANDARD_ERRORS`] standard errors of the
/// exact figure. A figure the exact distribution gives probability 0 or 1
/// must be sampled exactly so. Returns every figure that strays.
pub fn sampled_agrees(exact: &ExactAttack, sampled: &Sampled) -> Result<(), String> {
    let n = sampled.trials as f64;
    let mut strays = Vec::new();
    let mut check = |what: String, exact_mean: f64, variance: f64, sampled_mean: f64| {
        let error = (variance.max(0.0) / n).sqrt();
        if (sampled_mean - exact_mean).abs() > STANDARD_ERRORS * error + 1e-12 {
            strays.push(format!(
                "{what}: exact {exact_mean:.5}, sampled {sampled_mean:.5} (standard error {error:.5})"
            ));
        }
    };
    let indicator = |p: f64| p * (1.0 - p);
    check(
        "P(hit)".into(),
        exact.p_hit,
        indicator(exact.p_hit),
        sampled.hits as f64 / n,
    );
    let second: f64 = exact
        .hull_damage
        .iter()
        .map(|&(d, p)| f64::from(d) * f64::from(d) * p)
        .sum();
    check(
        "mean hull damage".into(),
        exact.mean_hull_damage,
        second - exact.mean_hull_damage * exact.mean_hull_damage,
        sampled.hull_damage as f64 / n,
    );
    let mut damages: Vec<i32> = exact.hull_damage.iter().map(|(d, _)| *d).collect();
    damages.extend(sampled.damage.keys());
    damages.sort_unstable();
    damages.dedup();
    for d in damages {
        let p = exact
            .hull_damage
            .iter()
            .find(|(e, _)| *e == d)
            .map_or(0.0, |(_, p)| *p);
        let got = sampled.damage.get(&d).copied().unwrap_or(0) as f64 / n;
        check(format!("hull damage {d}"), p, indicator(p), got);
    }
    let mut names: Vec<&str> = exact.results.iter().map(|(r, _)| r.as_str()).collect();
    names.extend(sampled.results.keys().map(String::as_str));
    names.sort_unstable();
    names.dedup();
    for name in names {
        let p = exact
            .results
            .iter()
            .find(|(r, _)| r == name)
            .map_or(0.0, |(_, p)| *p);
        let got = sampled.results.get(name).copied().unwrap_or(0) as f64 / n;
        check(format!("result {name}"), p, indicator(p), got);
    }
    let mut systems: Vec<&str> = exact.destroyed.iter().map(|(s, _)| s.as_str()).collect();
    systems.extend(sampled.destroyed.keys().map(String::as_str));
    systems.sort_unstable();
    systems.dedup();
    for system in systems {
        let mean = exact
            .destroyed
            .iter()
            .find(|(s, _)| s == system)
            .map_or(0.0, |(_, p)| *p);
        let sum = sampled.destroyed.get(system).copied().unwrap_or(0);
        let squares = sampled.destroyed_squares.get(system).copied().unwrap_or(0);
        let got = sum as f64 / n;
        // A system may be destroyed more than once in one attack (two U
        // boxes, two sensors), so the spread is the larger of a single
        // chance's and the one sampled; one the exact odds never destroy
        // must never be sampled destroyed.
        let spread = if mean == 0.0 {
            0.0
        } else {
            indicator(mean.min(1.0)).max(squares as f64 / n - got * got)
        };
        check(format!("destroyed {system}"), mean, spread, got);
    }
    if strays.is_empty() {
        Ok(())
    } else {
        Err(strays.join("\n"))
    }
}

/// Resolves and snapshots one attack; the script must be used up exactly.
/// Returns the report's JSON for further checks.
pub fn check_resolve(case: Resolve<'_>) -> Value {
    let (json, lines, events, dice) = case
        .run()
        .unwrap_or_else(|e| panic!("{}: the resolution failed: {e}", case.name));
    testing::assert_all_used(&dice, case.name);
    let inputs = case.inputs();
    let mut out = format!("inputs: {inputs}\n");
    let resolution = testing::Resolution {
        lines,
        json,
        events,
    };
    resolution.write_transcript(&mut out, "report");
    snapshot(case.name, case.source, &inputs, &out);
    resolution.json
}

/// Resolves an attack that must fail, returning the error.
pub fn check_resolve_error(case: Resolve<'_>) -> ResolveError {
    match case.run() {
        Ok((value, ..)) => panic!("{}: expected an error, got {value}", case.name),
        Err(e) => e,
    }
}

/// One attack declared on a board directly, as an engagement declares it:
/// for what `resolve` cannot ask, such as Command Point re-rolls, a lock
/// situation with other ships around the target, or a damaged attacker.
#[derive(Debug, Clone)]
pub struct Declared<'a> {
    /// Snapshot name.
    pub name: &'a str,
    /// The rule reproduced, as the published rules name it.
    pub source: &'a str,
    /// Attacking ship class.
    pub attacker: &'a str,
    /// The attacker's weapon (its first mount of it).
    pub weapon: &'a str,
    /// Target ship class.
    pub target: &'a str,
    /// Range in hexes.
    pub range: u32,
    /// The lock still to make, as the map gives it; `None` when held.
    pub lock: Option<LockSituation>,
    /// The to-hit modifiers' facts.
    pub situation: Situation,
    /// Command Points the attacker will spend re-rolling failed dice.
    pub rerolls: u8,
    /// Damage set on the attacker before the attack.
    pub prepare_attacker: Option<Prepare<'a>>,
    /// Scripted dice, in the order the rules roll them.
    pub dice: &'a [u32],
    /// Changes to the data of record, as a `--rules` folder would make them.
    pub edits: &'a [Edit<'a>],
}

impl Default for Declared<'_> {
    fn default() -> Self {
        Declared {
            name: "",
            source: "",
            attacker: "destroyer",
            weapon: "laser-turret",
            target: "frigate",
            range: 1,
            lock: None,
            situation: Situation::default(),
            rerolls: 0,
            prepare_attacker: None,
            dice: &[],
            edits: &[],
        }
    }
}

/// The lock situation of a target alone in its hex at `range` hexes,
/// nothing thrusting around it.
pub fn lone_target(range: u32) -> LockSituation {
    LockSituation {
        range,
        enemies_in_target_hex: 1,
        ..LockSituation::default()
    }
}

/// Resolves and snapshots one declared attack with its weapons charged;
/// the script must be used up exactly. Returns the outcome for further
/// checks.
pub fn check_declared(case: Declared<'_>) -> D10Outcome {
    let s = edited_system(case.edits);
    let fresh = |id: &str| {
        s.ship(id)
            .unwrap_or_else(|| panic!("no ship class '{id}' in the data"))
    };
    let mut attacker = fresh(case.attacker);
    for m in &mut attacker.weapons {
        m.charged = true;
    }
    if let Some((_, prepare)) = case.prepare_attacker {
        prepare(&mut attacker);
    }
    let weapon = s
        .rules
        .weapon_id(case.weapon)
        .unwrap_or_else(|| panic!("no weapon '{}' in the data", case.weapon));
    let mount = attacker
        .weapons
        .iter()
        .position(|m| m.weapon == weapon)
        .unwrap_or_else(|| panic!("the {} carries no {}", case.attacker, case.weapon));
    let mut board = Board {
        ships: vec![attacker, fresh(case.target)],
        names: std::sync::Arc::from(vec![case.attacker.to_owned(), case.target.to_owned()]),
    };
    let attack = Attack {
        attacker: 0,
        mount,
        target: 1,
        range: case.range,
        situation: case.situation,
        lock: case.lock.map_or(LockNeed::Held, LockNeed::Make),
        rerolls: case.rerolls,
    };
    let mut dice = ScriptedDice::new(case.dice.to_vec());
    let mut log = EventLog::default();
    let outcome = s
        .resolve_attack(&mut board, &attack, &mut dice, &mut log)
        .unwrap_or_else(|e| panic!("{}: the attack failed: {e}", case.name));
    testing::assert_all_used(&dice, case.name);
    let mut inputs = json!({
        "attacker": case.attacker, "weapon": case.weapon, "target": case.target,
        "range": case.range, "lock": format!("{:?}", case.lock),
        "situation": format!("{:?}", case.situation), "rerolls": case.rerolls,
        "attacker_prepared": case.prepare_attacker.map(|(what, _)| what), "dice": case.dice,
    });
    if !case.edits.is_empty() {
        inputs["data_edits"] = json!(case.edits);
    }
    let mut out = format!("inputs: {inputs}\n");
    numbered(&mut out, &log.events);
    out.push_str(&format!("outcome: {outcome:#?}\n"));
    snapshot(case.name, case.source, &inputs, &out);
    outcome
}

/// A table as text, the way `broadside table` lays it out.
pub fn table_text(table: &TableView) -> String {
    let mut out = format!("{} [{}]\n{}", table.title, table.id, table.row_header);
    for c in &table.columns {
        out.push_str(&format!(" | {c}"));
    }
    out.push('\n');
    for row in &table.rows {
        out.push_str(&row.label);
        for cell in &row.cells {
            out.push_str(&format!(" | {cell}"));
        }
        out.push('\n');
    }
    out
}

/// Snapshots one table of the system.
pub fn check_table(id: &str) {
    let tables = Ruleset::tables(system());
    let table = tables
        .iter()
        .find(|t| t.id == id)
        .unwrap_or_else(|| panic!("no table '{id}'"));
    snapshot(
        &format!("table_{id}"),
        "every table of the d10 action-based rules and its authored weapons, from the data of record",
        &json!({ "table": id }),
        &table_text(table),
    );
}

/// A cell of a table, as `broadside table action-d10 <table> <row> <column>` prints it.
pub fn cell(table: &str, row: &str, column: Option<&str>) -> Result<String, ResolveError> {
    let tables = Ruleset::tables(system());
    let t = tables.iter().find(|t| t.id == table).ok_or_else(|| {
        ResolveError::unknown("table", table, tables.iter().map(|t| t.id.as_str()))
    })?;
    t.cell(row, column).map(str::to_owned)
}

/// Plays one seeded trial of a duel and snapshots its whole log.
pub fn check_duel_log(name: &str, a: &str, b: &str, seed: u64, trial: u64, max_turns: u32) {
    let request = duel_request(a, b, max_turns, &[]);
    let engagement = Ruleset::prepare_battle(system(), &request).expect("the duel sets up");
    let mut log = EventLog::default();
    let outcome =
        broadside_core::play_trial(&*engagement, seed, trial, &mut log).expect("the duel plays");
    let inputs = json!({"a": a, "b": b, "seed": seed, "trial": trial, "max_turns": max_turns});
    let mut out = format!("inputs: {inputs}\n");
    numbered(&mut out, &log.events);
    out.push_str(&format!(
        "outcome: {}\n",
        serde_json::to_string(&outcome).expect("JSON prints")
    ));
    snapshot(
        name,
        "d10 action-based rules, Sequence of Play, with the default tactics (rules note, Default tactics)",
        &inputs,
        &out,
    );
}

/// A fleet battle set up through the fleet set-up (side A's lead at the
/// origin facing east, side B's 12 hexes east facing west, each side in a
/// line abreast), at the start of a turn as [`battle`] gives it.
pub fn fleet(a: &[&str], b: &[&str]) -> Battle {
    let request = fleet_request(a, b, 1, &[], [&[], &[]]);
    let (mut battle, ..) = system().battle_of(&request).expect("the fleets set up");
    start_turn(&mut battle);
    battle
}

/// Puts ship `i` at `hex`, at rest, facing `facing`.
pub fn place(battle: &mut Battle, i: usize, hex: Hex, facing: Direction) {
    battle.poses[i] = Pose {
        hex,
        dest: hex,
        facing,
    };
}

/// Plays one seeded trial of a fleet battle and snapshots its whole log.
pub fn check_fleet_log(name: &str, request: &BattleRequest, seed: u64, trial: u64) {
    let engagement = Ruleset::prepare_battle(system(), request).expect("the battle sets up");
    let mut log = EventLog::default();
    let outcome =
        broadside_core::play_trial(&*engagement, seed, trial, &mut log).expect("the battle plays");
    let side_options: Vec<Value> = request
        .side_options
        .iter()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.to_owned(), json!(format!("{v:?}"))))
                .collect::<serde_json::Map<String, Value>>()
                .into()
        })
        .collect();
    let options: serde_json::Map<String, Value> = request
        .options
        .iter()
        .map(|(k, v)| (k.to_owned(), json!(format!("{v:?}"))))
        .collect();
    let inputs = json!({
        "a": request.sides[0], "b": request.sides[1], "options": options,
        "side_options": side_options, "seed": seed, "trial": trial,
        "max_turns": request.max_turns,
    });
    let mut out = format!("inputs: {inputs}\n");
    numbered(&mut out, &log.events);
    out.push_str(&format!(
        "outcome: {}\n",
        serde_json::to_string(&outcome).expect("JSON prints")
    ));
    snapshot(
        name,
        "d10 action-based rules, Sequence of Play, fleets with the default tactics (rules note, Fleets and Default tactics)",
        &inputs,
        &out,
    );
}

/// A battle at the start of a turn: every ship on the map has its actions
/// and Command Points, as after the Command Points phase with no extra
/// action bought.
pub fn battle(a: &str, b: &str, range: u32) -> Battle {
    battle_on(system(), a, b, range)
}

/// [`battle`] under a system loaded from edited data.
pub fn battle_on(s: &ActionD10, a: &str, b: &str, range: u32) -> Battle {
    let mut battle = s.battle(a, b, range).expect("both ships exist");
    start_turn_on(s, &mut battle);
    battle
}

/// Gives every ship on the map a fresh turn.
pub fn start_turn(battle: &mut Battle) {
    start_turn_on(system(), battle);
}

fn start_turn_on(s: &ActionD10, battle: &mut Battle) {
    let rules = &s.rules;
    for i in 0..battle.board.ships.len() {
        battle.turn[i] = TurnState::default();
        if battle.on_map(i) {
            let ship = &battle.board.ships[i];
            battle.turn[i].actions = ship.actions_per_turn(rules);
            battle.turn[i].command_points = ship.command_points(rules);
        }
    }
}

/// A scripted stretch of an engagement: actions and phases played in
/// order on one battle, with one script of dice and one event log.
pub struct Script {
    /// The rules played.
    pub system: &'static ActionD10,
    /// The battle.
    pub battle: Battle,
    /// The dice.
    pub dice: ScriptedDice,
    /// Everything that happened.
    pub log: EventLog,
}

impl Script {
    /// A script on a battle.
    pub fn new(battle: Battle, dice: &[u32]) -> Script {
        Script::on(system(), battle, dice)
    }

    /// A script on a battle under a system loaded from edited data.
    pub fn on(system: &'static ActionD10, battle: Battle, dice: &[u32]) -> Script {
        Script {
            system,
            battle,
            dice: ScriptedDice::new(dice.to_vec()),
            log: EventLog::default(),
        }
    }

    /// Ship `i` takes an action; it must be legal.
    pub fn act(&mut self, i: usize, action: Action) -> &mut Script {
        if let Err(e) = self.try_act(i, action) {
            panic!("{} refused: {e}", action.name());
        }
        self
    }

    /// Ship `i` takes a Target Lock on `target` (offering no re-roll), then
    /// attacks it with `mount`, offering `rerolls`; both must be legal.
    pub fn lock_and_attack(&mut self, i: usize, target: u8, mount: u8, rerolls: u8) -> &mut Script {
        self.act(i, Action::TargetLock { target, rerolls: 0 }).act(
            i,
            Action::Attack {
                mount,
                target,
                rerolls,
            },
        )
    }

    /// Ship `i` tries an action.
    pub fn try_act(&mut self, i: usize, action: Action) -> Result<(), ResolveError> {
        self.system
            .act(&mut self.battle, i, action, &mut self.dice, &mut self.log)
    }

    /// Plays one phase with tactics that must make a mistake the engine
    /// names: its internal error's message. `what` says what mistake.
    pub fn tactics_error(
        &mut self,
        phase: Phase,
        turn: u32,
        tactics: [&(dyn ActionTactics + 'static); 2],
        what: &str,
    ) -> String {
        match self.phase_with(phase, turn, tactics) {
            Err(ResolveError::Internal(why)) => why,
            other => panic!("{what}: expected the tactics' error, got {other:?}"),
        }
    }

    /// Plays one phase with the default tactics for both sides.
    pub fn phase(&mut self, phase: Phase, turn: u32) -> &mut Script {
        let tactics = DefaultTactics::default();
        self.phase_with(phase, turn, [&tactics, &tactics])
            .unwrap_or_else(|e| panic!("{phase} failed: {e}"));
        self
    }

    /// Plays one phase with the given tactics.
    pub fn phase_with(
        &mut self,
        phase: Phase,
        turn: u32,
        tactics: [&(dyn ActionTactics + 'static); 2],
    ) -> Result<(), ResolveError> {
        let sequence = Sequence::new(self.system);
        self.log.push(Event::Phase {
            turn,
            name: phase.to_string(),
        });
        sequence.play_phase(
            phase,
            turn,
            &mut self.battle,
            tactics,
            &mut self.dice,
            &mut self.log,
        )
    }

    /// Snapshots the script's events and the ships' final state; the dice
    /// must be used up exactly.
    pub fn check(&self, name: &str, source: &str, inputs: Value) {
        assert!(
            self.dice.remaining().is_empty(),
            "{name}: scripted dice left unused: {:?}",
            self.dice.remaining()
        );
        let mut out = format!("inputs: {inputs}\n");
        numbered(&mut out, &self.log.events);
        out.push_str("ships:\n");
        for (i, ship) in self.battle.board.ships.iter().enumerate() {
            let pose = self.battle.poses[i];
            out.push_str(&format!(
                "  {}: {} at {} (destination {}, facing {}), {} of {} boxes marked, shields {}\n",
                self.battle.board.names[i],
                ship.status.id(),
                pose.hex,
                pose.dest,
                pose.facing.index(),
                ship.marked,
                ship.boxes(&self.system.rules),
                ship.shields
            ));
        }
        snapshot(name, source, &inputs, &out);
    }
}

/// Seeded dice for a trial, for tests that want variety without a script.
pub fn seeded(seed: u64) -> SeededDice {
    SeededDice::new(seed)
}

/// Emits nothing: a sink for runs whose events do not matter.
pub fn quiet() -> impl EventSink {
    NullSink
}

/// A die roll through a `dyn Dice`, for tests of dice sources.
pub fn roll(dice: &mut dyn Dice, die: Die) -> u32 {
    dice.roll(die).expect("a seeded die always rolls")
}

/// Dice that follow one path of faces through a run, extending it with the
/// first face where it ends: every call branches on each face it could
/// show, not on the outcomes the rules read. A roll made again until kept
/// branches on the kept faces, two dice rolled until they differ on the
/// pairs that differ, each alike: the limit of rolling again, worked out
/// face by face. Written apart from core's exact source, to check it.
struct Faces<'a> {
    /// Each call on the path: the face (or pair) chosen, of how many.
    path: &'a mut Vec<(usize, usize)>,
    /// The next call's place on the path.
    at: usize,
    /// The path's probability so far.
    weight: f64,
}

impl Faces<'_> {
    fn branch(&mut self, count: usize) -> usize {
        if self.at == self.path.len() {
            self.path.push((0, count));
        }
        let (chosen, of) = self.path[self.at];
        assert_eq!(of, count, "the rules did not repeat themselves");
        self.at += 1;
        self.weight /= count as f64;
        chosen
    }
}

impl Dice for Faces<'_> {
    fn roll(&mut self, die: Die) -> Result<u32, DiceError> {
        Ok(self.branch(die.sides() as usize) as u32 + 1)
    }

    fn band_until(&mut self, die: Die, tops: &[u32], keep: &[bool]) -> Result<u32, DiceError> {
        let kept: Vec<u32> = (1..=die.sides())
            .filter(|&face| {
                let band = tops.iter().filter(|&&top| top < face).count();
                keep.get(band) == Some(&true)
            })
            .collect();
        assert!(!kept.is_empty(), "a roll again that keeps nothing");
        Ok(kept[self.branch(kept.len())])
    }

    fn apart(&mut self, die: Die) -> Result<(u32, u32), DiceError> {
        let faces = 1..=die.sides();
        let pairs: Vec<(u32, u32)> = faces
            .clone()
            .flat_map(|a| faces.clone().map(move |b| (a, b)))
            .filter(|(a, b)| a != b)
            .collect();
        Ok(pairs[self.branch(pairs.len())])
    }
}

/// Every path of faces of `run`, with its probability.
fn every_face<T>(mut run: impl FnMut(&mut dyn Dice) -> T, mut visit: impl FnMut(T, f64)) {
    let mut path: Vec<(usize, usize)> = Vec::new();
    loop {
        let mut dice = Faces {
            path: &mut path,
            at: 0,
            weight: 1.0,
        };
        let result = run(&mut dice);
        let (at, weight) = (dice.at, dice.weight);
        visit(result, weight);
        path.truncate(at);
        while let Some(last) = path.last_mut() {
            if last.0 + 1 < last.1 {
                last.0 += 1;
                break;
            }
            path.pop();
        }
        if path.is_empty() {
            return;
        }
    }
}

/// A battle's odds worked out face by face, apart from core's exact odds:
/// every phase played whole over every face of its dice, equal states
/// merged after each phase, the verdict asked after each. Returns the
/// probabilities of A winning, B winning, and undecided at the turn limit.
pub fn odds_face_by_face(setup: &BattleSetup, system: &ActionD10) -> [f64; 3] {
    let sequence = Sequence::new(system);
    let tactics = setup.tactics();
    let mut states: HashMap<Battle, f64> = HashMap::from([(setup.start().clone(), 1.0)]);
    let mut wins = [0.0; 2];
    for turn in 1..=setup.max_turns() {
        for &phase in sequence.phases(turn) {
            let mut next: HashMap<Battle, f64> = HashMap::new();
            for (state, p) in states.drain() {
                every_face(
                    |dice| {
                        let mut s = state.clone();
                        sequence
                            .play_phase(phase, turn, &mut s, tactics, dice, &mut NullSink)
                            .expect("the phase plays");
                        s
                    },
                    |s, q| match sequence.verdict(&s) {
                        Some(Verdict::Winner(side)) => wins[side.index()] += p * q,
                        Some(other) => panic!("{other:?} is not expected here"),
                        None => *next.entry(s).or_default() += p * q,
                    },
                );
            }
            states = next;
        }
    }
    [wins[0], wins[1], states.values().sum()]
}

/// Checks a battle's exact odds (`battle --exact`, its Actions phase
/// played in steps) against the odds worked out face by face, with every
/// phase played whole, and against `expect`: the exact fractions of A
/// winning, B winning and undecided at the turn limit, as `battle --exact
/// --format json` prints them. Nothing may be dropped. Returns the odds.
pub fn check_exact_battle(
    name: &str,
    system: &'static ActionD10,
    request: &BattleRequest,
    expect: [&str; 3],
) -> ExactOdds {
    let setup = system.set_up(request).expect("the battle sets up");
    let exact = exact_battle(&setup, 200_000, 20_000_000)
        .unwrap_or_else(|e| panic!("{name}: no exact odds: {e}"));
    let faces = odds_face_by_face(&setup, system);
    let got = [exact.a_wins, exact.b_wins, exact.undecided];
    for (((what, key), exact_p), (faces, expect)) in [
        ("A wins", "a_wins"),
        ("B wins", "b_wins"),
        ("undecided", "undecided"),
    ]
    .iter()
    .zip(got)
    .zip(faces.into_iter().zip(expect))
    {
        assert!(
            (exact_p - faces).abs() < 1e-12,
            "{name}: {what}: exact {exact_p}, face by face {faces}"
        );
        assert_eq!(exact.fractions[*key], expect, "{name}: {what}");
    }
    assert_eq!(
        exact.fractions["pruned"], "0/1",
        "{name}: nothing is dropped"
    );
    exact
}

/// Checks that a battle's Actions phase played in steps (as exact odds
/// play it) is the phase played whole: trial `trial` of `seed` played turn
/// by turn, each Actions phase both ways, with a log kept and without, must
/// roll the same dice, log the same events and leave the same battle.
pub fn check_steps(name: &str, request: &BattleRequest, seed: u64, trial: u64) {
    let setup = system().set_up(request).expect("the battle sets up");
    let stepped = setup.sequence();
    let whole = Sequence::new(system());
    let steps = stepped.steps(Phase::Actions, 1);
    assert!(steps > 1, "{name}: the Actions phase is played in steps");
    let tactics = setup.tactics();
    let mut battle = setup.start().clone();
    let mut dice = SeededDice::for_trial(seed, trial);
    let mut acted = 0;
    'turns: for turn in 1..=request.max_turns {
        for &phase in whole.phases(turn) {
            if phase == Phase::Actions {
                for logged in [true, false] {
                    let play = |by_steps: bool| {
                        let (mut b, mut d) = (battle.clone(), dice.clone());
                        let mut log = EventLog::default();
                        let sink: &mut dyn EventSink =
                            if logged { &mut log } else { &mut NullSink };
                        if by_steps {
                            for step in 0..steps {
                                stepped
                                    .play_step(phase, turn, step, &mut b, tactics, &mut d, sink)
                                    .expect("the step plays");
                            }
                        } else {
                            whole
                                .play_phase(phase, turn, &mut b, tactics, &mut d, sink)
                                .expect("the phase plays");
                        }
                        let next: Vec<u32> =
                            (0..8).map(|_| d.roll(Die::D100).expect("a face")).collect();
                        (b, log.events, next)
                    };
                    let (by_steps, by_phase) = (play(true), play(false));
                    assert!(
                        by_steps == by_phase,
                        "{name}: turn {turn}, log kept {logged}: the steps differ from the phase"
                    );
                }
                acted += 1;
            }
            whole
                .play_phase(phase, turn, &mut battle, tactics, &mut dice, &mut NullSink)
                .expect("the phase plays");
            if whole.verdict(&battle).is_some() {
                break 'turns;
            }
        }
    }
    assert!(acted > 0, "{name}: no Actions phase was played");
}

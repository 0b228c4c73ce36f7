//! Shared `check` helpers for the cross-ruleset tests: one per area, so an API change touches one place.
//!
//! The tests under `tests/` say what the rules do; the helpers here say how
//! to ask the code. When a signature of the rules crates changes, only this
//! file should need to follow (the rust-analyzer habit).
//!
//! Snapshot helpers write named snapshots to `tests/tests/snapshots/`, each
//! recording its inputs (`info`) and the rulebook passage it reproduces
//! (`description`), so a reviewer can check every number against the source.
//!
//! The end-to-end tests of the `broadside` binary live in the CLI package
//! (`crates/broadside-cli/tests/`), where Cargo builds the binary for them.
//!
//! The conformance suite, one driver for every rule system, is in
//! [`conformance`].

pub mod conformance;
pub mod engagement;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use broadside_core::{
    Dice, Event, EventLog, OptionValue, Options, ResolveError, ResolveRequest, Ruleset,
    ScriptedDice,
};
use broadside_percentile::model::Defence;
use broadside_percentile::{
    Applied, Attack, AttackOutcome, Board, Hit, Percentile, RepairAttempt, RepairOutcome,
    Repairable, Ship,
};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Loading the system
// ---------------------------------------------------------------------------

/// The percentile system, loaded once from its embedded data of record.
pub fn percentile() -> &'static Percentile {
    static SYSTEM: OnceLock<Percentile> = OnceLock::new();
    SYSTEM.get_or_init(|| match Percentile::embedded() {
        Ok(system) => system,
        Err(errors) => panic!("the embedded percentile data does not load:\n{errors}"),
    })
}

/// A civilian ore carrier, authored here (not in the data of record) from the
/// reference note's rule for civilian ships: hull size 6, so HP 6 x 5 = 30 and
/// DCR 6 x 3 + 20 = 38, no weapons and no defence at all. The seeds name "a
/// weapon hit on a civilian ore carrier" as the example of a hit on a system
/// the ship lacks, and no military ship of the data lacks every system of a
/// weapon-hit row (each row lists assault rockets and every other ship has a
/// laser battery).
pub const ORE_CARRIER: &str = r#"
[ore-carrier]
name = "Ore Carrier"
source = "sample data authored by the tests: civilian ship, hull size 6"
hull = 30
adf = 1
mr = 1
dcr = 38
weapons = []
defences = []
"#;

/// The percentile system with the test-only [`ORE_CARRIER`] added to its ships.
pub fn percentile_with_civilians() -> &'static Percentile {
    static SYSTEM: OnceLock<Percentile> = OnceLock::new();
    SYSTEM.get_or_init(|| percentile_with_ships(ORE_CARRIER))
}

/// The data of record with `extra` ship classes appended to `ships.toml`.
fn percentile_with_ships(extra: &str) -> Percentile {
    let mut files = broadside_percentile::REGISTRATION.embedded_sources();
    let ships = files
        .iter_mut()
        .find(|f| f.name == "ships.toml")
        .expect("the embedded data has a ships.toml");
    ships.text.push_str(extra);
    match Percentile::load(&files) {
        Ok(system) => system,
        Err(errors) => panic!("the data with added ships does not load:\n{errors}\n{extra}"),
    }
}

/// The percentile system with some numbers of `rules.toml` changed: the
/// house-rule options, chiefly, which the data of record leaves off.
pub fn percentile_with(
    change: impl FnOnce(&mut broadside_percentile::model::Constants),
) -> Percentile {
    let mut system = percentile().clone();
    change(&mut system.rules.constants);
    system
}

/// A space station, authored here (not in the data of record) from the
/// reference note's station row: 100 HP, ADF 0, MR 0, DCR about half its HP,
/// one battery per 50 HP, and marked a station, which seekers ignore.
pub const STATION: &str = r#"
[station]
name = "Space Station"
source = "sample data authored by the tests: a space station of 100 HP"
hull = 100
adf = 0
mr = 0
dcr = 50
weapons = ["laser-battery", "laser-battery"]
defences = ["reflective-hull"]
station = true
"#;

/// The percentile system with the test-only [`STATION`] added to its ships.
pub fn percentile_with_station() -> &'static Percentile {
    static SYSTEM: OnceLock<Percentile> = OnceLock::new();
    SYSTEM.get_or_init(|| percentile_with_ships(STATION))
}

// ---------------------------------------------------------------------------
// Ships and their state
// ---------------------------------------------------------------------------

/// A fresh ship of a class of the data of record.
pub fn ship(id: &str) -> Ship {
    ship_of(percentile(), id)
}

/// A fresh ship of a class of the given system.
pub fn ship_of(system: &Percentile, id: &str) -> Ship {
    system
        .ship(id)
        .unwrap_or_else(|| panic!("no ship class '{id}' in the data"))
}

/// Damage set on a ship directly, before a test runs: the roster as a
/// rulebook example describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    /// Hull points lost.
    Hull(i32),
    /// ADF points lost.
    Adf(u8),
    /// MR points lost.
    Mr(u8),
    /// The first intact mount of this weapon (by id) destroyed.
    Weapon(&'static str),
    /// The first intact mount of this defence (by id) destroyed.
    Defence(&'static str),
    /// Burning.
    Fire,
    /// Combat control system hit.
    CombatControl,
    /// Damage control hit (DCR halved, rounded up, as the hit does).
    DamageControl,
    /// Navigation hit.
    Navigation,
    /// Power short circuit.
    ShortCircuit,
}

/// A fresh ship with damage applied directly to its state.
pub fn damaged_ship(id: &str, damage: &[Damage]) -> Ship {
    let mut ship = ship(id);
    for &d in damage {
        apply_damage(&mut ship, d);
    }
    ship
}

/// Applies one [`Damage`] to a ship's state.
pub fn apply_damage(ship: &mut Ship, damage: Damage) {
    let rules = &percentile().rules;
    match damage {
        Damage::Hull(points) => ship.hull -= points,
        Damage::Adf(points) => ship.adf -= points,
        Damage::Mr(points) => ship.mr -= points,
        Damage::Weapon(id) => {
            let index = weapon_mount(ship, id);
            ship.weapons[index].destroyed = true;
        }
        Damage::Defence(id) => {
            let defence = defence(id);
            let mount = ship
                .defence_mut(defence)
                .unwrap_or_else(|| panic!("the ship has no intact {id}"));
            mount.destroyed = true;
        }
        Damage::Fire => ship.damaged.fire = true,
        Damage::CombatControl => ship.damaged.combat_control = true,
        Damage::DamageControl => {
            ship.damaged.damage_control = true;
            ship.dcr = rules.class(ship.class).dcr.div_ceil(2);
        }
        Damage::Navigation => ship.damaged.navigation = true,
        Damage::ShortCircuit => ship.damaged.short_circuit = true,
    }
}

/// The defence with this id.
pub fn defence(id: &str) -> Defence {
    Defence::from_id(id).unwrap_or_else(|| panic!("no defence '{id}'"))
}

/// Index of the first intact mount of a weapon (by id) on a ship.
pub fn weapon_mount(ship: &Ship, weapon: &str) -> usize {
    let rules = &percentile().rules;
    ship.weapons
        .iter()
        .position(|m| !m.destroyed && rules.weapon(m.weapon).id == weapon)
        .unwrap_or_else(|| panic!("the ship has no intact {weapon}"))
}

/// Index of the first mount of a weapon (by id), destroyed or not.
pub fn any_weapon_mount(ship: &Ship, weapon: &str) -> usize {
    let rules = &percentile().rules;
    ship.weapons
        .iter()
        .position(|m| rules.weapon(m.weapon).id == weapon)
        .unwrap_or_else(|| panic!("the ship carries no {weapon}"))
}

/// Destroyed weapon and defence mounts: the systems a ship has lost.
pub fn systems_destroyed(ship: &Ship) -> usize {
    ship.weapons.iter().filter(|m| m.destroyed).count()
        + ship.defences.iter().filter(|m| m.destroyed).count()
}

/// One line describing a ship's state, for transcripts.
pub fn describe(ship: &Ship) -> String {
    let rules = &percentile().rules;
    let class = rules.class(ship.class);
    let mut line = format!(
        "{}: hull {}/{}, ADF {}/{}, MR {}/{}, DCR {}/{}",
        class.id,
        ship.hull,
        class.hull,
        ship.adf,
        class.adf,
        ship.mr,
        class.mr,
        ship.dcr,
        class.dcr
    );
    let d = ship.damaged;
    let damaged: Vec<&str> = [
        (d.combat_control, "combat-control"),
        (d.damage_control, "damage-control"),
        (d.navigation, "navigation"),
        (d.fire, "fire"),
        (d.short_circuit, "short-circuit"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    if !damaged.is_empty() {
        line.push_str(&format!("; damaged: {}", damaged.join(", ")));
    }
    let mut lost: Vec<String> = ship
        .weapons
        .iter()
        .filter(|m| m.destroyed)
        .map(|m| rules.weapon(m.weapon).id.clone())
        .collect();
    lost.extend(
        ship.defences
            .iter()
            .filter(|m| m.destroyed)
            .map(|m| m.defence.id().to_owned()),
    );
    if !lost.is_empty() {
        line.push_str(&format!("; lost: {}", lost.join(", ")));
    }
    if ship.broken_apart {
        line.push_str("; broken apart");
    }
    line
}

// ---------------------------------------------------------------------------
// Snapshots
// ---------------------------------------------------------------------------

/// Where every snapshot of this crate lives: beside the test files.
fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// Asserts a named snapshot recording its inputs and citing its source.
fn assert_named(name: &str, source: &str, inputs: &Value, transcript: &str) {
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

fn numbered_events(out: &mut String, events: &[Event]) {
    out.push_str("events:\n");
    for (i, event) in events.iter().enumerate() {
        out.push_str(&format!("{:>3}. {event}\n", i + 1));
    }
}

// A rulebook example whose dice are left over, or run short, is a wrong
// script or a wrong procedure: the shared check says which.
use broadside_core::kit::System as _;
use broadside_data::testing::{assert_all_used, dice_text};

// ---------------------------------------------------------------------------
// Resolving attacks through the object-safe Ruleset
// ---------------------------------------------------------------------------

/// Options as the command line gives them: a flag (`--head-on`), a number
/// (`--range 3`), a text (`--weapon torpedo`).
pub use broadside_data::testing::{flag, num, text};

/// What one `Ruleset::resolve` call produced.
#[derive(Debug)]
pub struct Resolution {
    /// The report's text lines.
    pub lines: Vec<String>,
    /// The report as JSON.
    pub json: Value,
    /// Every event, in order.
    pub events: Vec<Event>,
}

fn request(attacker: &str, target: &str, options: &[(&str, OptionValue)]) -> ResolveRequest {
    let mut opts = Options::new();
    for (name, value) in options {
        opts.set(name, value.clone());
    }
    ResolveRequest {
        attacker: attacker.to_owned(),
        target: target.to_owned(),
        options: opts,
    }
}

/// Resolves one attack from fresh ships with any dice, checking the options
/// against the system's specs first, as the CLI does.
pub fn resolve_with(
    attacker: &str,
    target: &str,
    options: &[(&str, OptionValue)],
    dice: &mut dyn Dice,
) -> Result<Resolution, ResolveError> {
    let system: &dyn Ruleset = percentile();
    let request = request(attacker, target, options);
    request.options.validate(system.resolve_options())?;
    let mut log = EventLog::default();
    let report = system.resolve(&request, dice, &mut log)?;
    let json = serde_json::to_value(&*report).expect("a report serialises to JSON");
    Ok(Resolution {
        lines: report.lines(),
        json,
        events: log.events,
    })
}

/// Resolves one attack from fresh ships with scripted dice, which must all be
/// used.
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

/// Resolves a rulebook example through `Ruleset::resolve` with scripted dice
/// and asserts the named snapshot of its transcript: the inputs, each event
/// numbered, the report's lines and the report's JSON.
pub fn check_resolve(
    name: &str,
    source: &str,
    attacker: &str,
    target: &str,
    options: &[(&str, OptionValue)],
    dice: &[u32],
) {
    let resolution = match resolve(attacker, target, options, dice) {
        Ok(r) => r,
        Err(e) => panic!("{name}: resolution failed: {e}"),
    };
    let shown_options: Vec<String> = request(attacker, target, options)
        .options
        .iter()
        .map(|(k, v)| match v {
            OptionValue::Flag => format!("--{k}"),
            OptionValue::Number(n) => format!("--{k} {n}"),
            OptionValue::Text(t) => format!("--{k} {t}"),
        })
        .collect();
    let inputs = json!({
        "system": "percentile",
        "attacker": attacker,
        "target": target,
        "options": shown_options,
        "dice": dice,
    });
    let mut out = format!(
        "resolve percentile: {attacker} attacks {target}\noptions: {}\ndice: {}\n",
        shown_options.join(" "),
        dice_text(dice)
    );
    numbered_events(&mut out, &resolution.events);
    out.push_str("report:\n");
    for line in &resolution.lines {
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str("json:\n");
    out.push_str(&serde_json::to_string_pretty(&resolution.json).expect("JSON renders"));
    out.push('\n');
    assert_named(name, source, &inputs, &out);
}

// ---------------------------------------------------------------------------
// Hazards: break-apart and the Repair Turn
// ---------------------------------------------------------------------------

/// Runs a break-apart check for a ship of `ship_id` that has taken `damage`
/// hull points and uses `points` of ADF and MR this turn, and asserts the
/// named snapshot of its transcript.
pub fn check_break_apart(
    name: &str,
    source: &str,
    ship_id: &str,
    damage: i32,
    points: u32,
    dice: &[u32],
) {
    let system = percentile();
    let mut target = damaged_ship(ship_id, &[Damage::Hull(damage)]);
    let before = describe(&target);
    let chance = system.break_apart_chance(&target, points);
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    let broke = system
        .check_break_apart(&mut target, ship_id, points, &mut scripted, &mut log)
        .unwrap_or_else(|e| panic!("{name}: break-apart check failed: {e}"));
    assert_all_used(&scripted, name);
    assert_eq!(
        broke, target.broken_apart,
        "{name}: result and state differ"
    );
    let inputs = json!({
        "ship": ship_id,
        "damage_taken": damage,
        "adf_and_mr_points_used": points,
        "dice": dice,
    });
    let mut out = format!(
        "break-apart check: {before}\nADF and MR points used: {points}\ndice: {}\nchance: {chance}%\n",
        dice_text(dice)
    );
    numbered_events(&mut out, &log.events);
    out.push_str(&format!(
        "broken apart: {broke}\nafter: {}\n",
        describe(&target)
    ));
    assert_named(name, source, &inputs, &out);
}

/// A system to repair, named as a roster names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fix {
    /// Hull points.
    Hull,
    /// One lost ADF point.
    Drive,
    /// One lost MR point.
    Steering,
    /// The first destroyed mount of this weapon (by id).
    Weapon(&'static str),
    /// The first destroyed mount of this defence (by id).
    Defence(&'static str),
    /// The fire.
    Fire,
    /// Combat control.
    CombatControl,
    /// Damage control.
    DamageControl,
    /// Navigation.
    Navigation,
    /// The power short circuit.
    ShortCircuit,
}

fn repairable(ship: &Ship, fix: Fix) -> Repairable {
    let rules = &percentile().rules;
    match fix {
        Fix::Hull => Repairable::Hull,
        Fix::Drive => Repairable::Drive,
        Fix::Steering => Repairable::Steering,
        Fix::Weapon(id) => Repairable::Weapon(
            ship.weapons
                .iter()
                .position(|m| m.destroyed && rules.weapon(m.weapon).id == id)
                .unwrap_or_else(|| panic!("no destroyed {id} to repair")),
        ),
        Fix::Defence(id) => {
            let d = defence(id);
            Repairable::Defence(
                ship.defences
                    .iter()
                    .position(|m| m.destroyed && m.defence == d)
                    .unwrap_or_else(|| panic!("no destroyed {id} to repair")),
            )
        }
        Fix::Fire => Repairable::Fire,
        Fix::CombatControl => Repairable::CombatControl,
        Fix::DamageControl => Repairable::DamageControl,
        Fix::Navigation => Repairable::Navigation,
        Fix::ShortCircuit => Repairable::ShortCircuit,
    }
}

/// Plays one Repair Turn for a damaged ship.
pub fn repair(
    target: &mut Ship,
    attempts: &[(Fix, u16)],
    dice: &[u32],
) -> Result<(Vec<RepairOutcome>, Vec<Event>), ResolveError> {
    let system = percentile();
    let name = system.rules.class(target.class).id.clone();
    let attempts: Vec<RepairAttempt> = attempts
        .iter()
        .map(|&(fix, points)| RepairAttempt {
            system: repairable(target, fix),
            points,
        })
        .collect();
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    let outcomes = system.repair_turn(target, &name, &attempts, &mut scripted, &mut log)?;
    assert_all_used(&scripted, "repair turn");
    Ok((outcomes, log.events))
}

/// Plays a Repair Turn for a ship of `ship_id` with `damage` set first, and
/// asserts the named snapshot of its transcript.
pub fn check_repair(
    name: &str,
    source: &str,
    ship_id: &str,
    damage: &[Damage],
    attempts: &[(Fix, u16)],
    dice: &[u32],
) {
    let mut target = damaged_ship(ship_id, damage);
    let before = describe(&target);
    let (outcomes, events) = repair(&mut target, attempts, dice)
        .unwrap_or_else(|e| panic!("{name}: repair turn failed: {e}"));
    let inputs = json!({
        "ship": ship_id,
        "damage": damage.iter().map(|d| format!("{d:?}")).collect::<Vec<_>>(),
        "attempts": attempts.iter().map(|(f, p)| format!("{f:?} with {p}")).collect::<Vec<_>>(),
        "dice": dice,
    });
    let mut out = format!("repair turn: {before}\nattempts:\n");
    for (fix, points) in attempts {
        out.push_str(&format!("  {fix:?} with {points} DCR points\n"));
    }
    out.push_str(&format!("dice: {}\n", dice_text(dice)));
    numbered_events(&mut out, &events);
    out.push_str("outcomes:\n");
    for o in &outcomes {
        out.push_str(&format!(
            "  {:?} ({} points): rolled {}, {}{}\n",
            o.attempt.system,
            o.attempt.points,
            o.roll,
            if o.repaired {
                "repaired"
            } else {
                "not repaired"
            },
            if o.beyond_repair {
                ", beyond repair in space"
            } else {
                ""
            }
        ));
    }
    out.push_str(&format!("after: {}\n", describe(&target)));
    assert_named(name, source, &inputs, &out);
}

// ---------------------------------------------------------------------------
// Damage allocation and attacks on a hand-built board
// ---------------------------------------------------------------------------

/// What allocating one hit did.
#[derive(Debug, Clone)]
pub struct Allocation {
    /// What the rules code reported.
    pub applied: Applied,
    /// The ship before the hit.
    pub before: Ship,
    /// The ship after the hit.
    pub after: Ship,
    /// Every event, in order.
    pub events: Vec<Event>,
}

/// Allocates a hit by `weapon` (by id) to a copy of `target`, with scripted
/// dice that must all be used: the Damage Table roll, then any hull dice.
pub fn allocate(target: &Ship, weapon: &str, half_damage: bool, dice: &[u32]) -> Allocation {
    allocate_in(percentile(), target, weapon, half_damage, dice)
}

/// [`allocate`] under a given system (one with test-only ships, say).
pub fn allocate_in(
    system: &Percentile,
    target: &Ship,
    weapon: &str,
    half_damage: bool,
    dice: &[u32],
) -> Allocation {
    let rules = &system.rules;
    let w = rules
        .weapon_id(weapon)
        .unwrap_or_else(|| panic!("no weapon '{weapon}'"));
    let hit = Hit::from_weapon(rules, w, half_damage);
    allocate_hit(system, target, &hit, dice)
}

/// Allocates an electrical fire's damage roll to a copy of `target`.
pub fn allocate_fire(target: &Ship, dice: &[u32]) -> Allocation {
    allocate_hit(percentile(), target, &percentile().fire_hit(), dice)
}

fn allocate_hit(system: &Percentile, target: &Ship, hit: &Hit, dice: &[u32]) -> Allocation {
    let name = system.rules.class(target.class).id.clone();
    let mut after = *target;
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    let applied = system
        .allocate_named(hit, &mut after, &name, &mut scripted, &mut log)
        .unwrap_or_else(|e| panic!("allocating a hit to the {name} failed: {e}"));
    assert_all_used(&scripted, "allocate");
    Allocation {
        applied,
        before: *target,
        after,
        events: log.events,
    }
}

/// Asserts that a hit fell back to a normal hull hit, as the rules require
/// when the row's result cannot apply: the ship loses exactly
/// `expected_hull_damage` hull points, nothing else about it changes, no
/// system is destroyed, and a ruling says why.
pub fn check_hull_fallback(
    case: &str,
    target: &Ship,
    weapon: &str,
    dice: &[u32],
    expected_hull_damage: i32,
) {
    check_hull_fallback_in(
        percentile(),
        case,
        target,
        weapon,
        dice,
        expected_hull_damage,
    );
}

/// [`check_hull_fallback`] under a given system.
pub fn check_hull_fallback_in(
    system: &Percentile,
    case: &str,
    target: &Ship,
    weapon: &str,
    dice: &[u32],
    expected_hull_damage: i32,
) {
    let a = allocate_in(system, target, weapon, false, dice);
    assert_fell_back(case, &a, expected_hull_damage);
}

/// [`check_hull_fallback`] for an electrical fire's damage roll.
pub fn check_fire_fallback(case: &str, target: &Ship, dice: &[u32], expected_hull_damage: i32) {
    let a = allocate_fire(target, dice);
    assert_fell_back(case, &a, expected_hull_damage);
}

fn assert_fell_back(case: &str, a: &Allocation, expected_hull_damage: i32) {
    let events: Vec<String> = a.events.iter().map(ToString::to_string).collect();
    assert!(
        a.applied.fell_back,
        "{case}: expected a fall-back to a hull hit; events: {events:#?}"
    );
    assert_eq!(
        a.applied.system_lost, None,
        "{case}: a fall-back destroys no system"
    );
    assert_eq!(
        a.applied.hull_damage, expected_hull_damage,
        "{case}: hull damage; events: {events:#?}"
    );
    let mut expected = a.before;
    expected.hull = (expected.hull - expected_hull_damage).max(0);
    assert_eq!(
        a.after, expected,
        "{case}: a fall-back changes the hull alone; events: {events:#?}"
    );
    assert!(
        a.events.iter().any(|e| matches!(e, Event::Ruling { .. })),
        "{case}: a fall-back is announced by a ruling; events: {events:#?}"
    );
}

/// A board of named ships; the first attacks, the second is the target.
pub fn board(ships: Vec<(&str, Ship)>) -> Board {
    let (names, ships): (Vec<String>, _) = ships
        .into_iter()
        .map(|(name, ship)| (name.to_owned(), ship))
        .unzip();
    Board {
        ships,
        names: names.into(),
    }
}

/// Ship 0 fires mount `mount` at ship 1 at `range`: no head-on, no ICMs.
pub fn attack(mount: usize, range: u32) -> Attack {
    Attack {
        attacker: 0,
        mount,
        target: 1,
        range,
        head_on: false,
        icms: 0,
        icm_launcher: None,
    }
}

/// What firing on a board did.
#[derive(Debug)]
pub struct Shot {
    /// The outcome, or why it was refused.
    pub outcome: Result<AttackOutcome, ResolveError>,
    /// Every event, in order.
    pub events: Vec<Event>,
    /// Scripted dice rolled.
    pub dice_used: usize,
}

/// Resolves one attack on a board with scripted dice (not all need be used,
/// so that refusals can be checked to roll nothing).
pub fn fire(board: &mut Board, attack: &Attack, dice: &[u32]) -> Shot {
    fire_with(percentile(), board, attack, dice)
}

/// [`fire`] under a given (possibly altered) system.
pub fn fire_with(system: &Percentile, board: &mut Board, attack: &Attack, dice: &[u32]) -> Shot {
    use broadside_core::AttackResolution;
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    let outcome = system.resolve_attack(board, attack, &mut scripted, &mut log);
    Shot {
        outcome,
        events: log.events,
        dice_used: scripted.used(),
    }
}

/// Asserts that the rules refuse an attack: `ResolveError::Refused` with a
/// message containing `fragment`, no dice rolled, no event, and the board
/// exactly as it was.
pub fn check_refused(case: &str, board: &Board, attack: &Attack, fragment: &str) {
    let mut after = board.clone();
    let shot = fire(&mut after, attack, &[50, 50, 5, 5, 5, 5, 5]);
    match &shot.outcome {
        Err(ResolveError::Refused(message)) => assert!(
            message.contains(fragment),
            "{case}: refusal '{message}' lacks '{fragment}'"
        ),
        other => panic!("{case}: expected a refusal, got {other:?}"),
    }
    assert_eq!(shot.dice_used, 0, "{case}: a refused attack rolls nothing");
    assert!(
        shot.events.is_empty(),
        "{case}: a refused attack emits nothing"
    );
    assert_eq!(&after, board, "{case}: a refused attack changes nothing");
}

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

use std::sync::{Arc, OnceLock};

use broadside_core::{
    BattleRequest, Dice, Event, EventLog, OptionValue, Options, ResolveError, ResolveRequest,
    Ruleset, ScriptedDice, SourceFile,
};
use broadside_module_grid::model::{ModuleIx, ShipClass};
use broadside_module_grid::{Board, ModuleGrid, Ship};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Loading the system
// ---------------------------------------------------------------------------

/// The system, loaded once from its embedded data of record.
pub fn system() -> &'static ModuleGrid {
    static SYSTEM: OnceLock<ModuleGrid> = OnceLock::new();
    SYSTEM.get_or_init(|| match ModuleGrid::embedded() {
        Ok(system) => system,
        Err(errors) => panic!("the embedded module-grid data does not load:\n{errors}"),
    })
}

/// The embedded data files, for tests that load altered copies.
pub fn sources() -> Vec<SourceFile> {
    broadside_module_grid::REGISTRATION.embedded_sources()
}

/// The embedded files with one file's text changed by `edit`.
pub fn edited(file: &str, edit: impl FnOnce(&mut String)) -> Vec<SourceFile> {
    let mut files = sources();
    let f = files
        .iter_mut()
        .find(|f| f.name == file)
        .unwrap_or_else(|| panic!("no embedded file {file}"));
    edit(&mut f.text);
    files
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
    let at = broadside_module_grid::Square::parse(square).expect("a square");
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
    insta::with_settings!({
        info => inputs,
        description => source,
        omit_expression => true,
        snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots"),
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(name, transcript);
    });
}

/// Appends the events, numbered.
pub fn numbered_events(out: &mut String, events: &[Event]) {
    out.push_str("events:\n");
    for (i, event) in events.iter().enumerate() {
        out.push_str(&format!("{:>3}. {event}\n", i + 1));
    }
}

/// Faces as "1, 2, 3".
pub fn dice_text(dice: &[u32]) -> String {
    let shown: Vec<String> = dice.iter().map(u32::to_string).collect();
    shown.join(", ")
}

/// Asserts that a script was used up exactly.
pub fn assert_all_used(dice: &ScriptedDice, what: &str) {
    assert!(
        dice.remaining().is_empty(),
        "{what}: scripted dice left unused: {:?}",
        dice.remaining()
    );
}

// ---------------------------------------------------------------------------
// Resolving attacks through the object-safe Ruleset
// ---------------------------------------------------------------------------

/// A number option.
pub fn num(n: i64) -> OptionValue {
    OptionValue::Number(n)
}

/// A text option.
pub fn text(t: &str) -> OptionValue {
    OptionValue::Text(t.to_owned())
}

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
    let system: &dyn Ruleset = system();
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
    let shown: Vec<String> = request(attacker, target, options)
        .options
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
    numbered_events(&mut out, &resolution.events);
    out.push_str("report:\n");
    for line in &resolution.lines {
        out.push_str(&format!("  {line}\n"));
    }
    out.push_str("json:\n");
    out.push_str(&serde_json::to_string_pretty(&resolution.json).expect("JSON renders"));
    out.push('\n');
    assert_named(name, source, &inputs, &out);
    resolution
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
// Duels
// ---------------------------------------------------------------------------

/// A duel request with the system's options.
pub fn duel_request(
    a: &str,
    b: &str,
    max_turns: u32,
    options: &[(&str, OptionValue)],
) -> BattleRequest {
    let mut opts = Options::new();
    for (name, value) in options {
        opts.set(name, value.clone());
    }
    BattleRequest {
        sides: [vec![a.to_owned()], vec![b.to_owned()]],
        max_turns,
        options: opts,
        ..Default::default()
    }
}

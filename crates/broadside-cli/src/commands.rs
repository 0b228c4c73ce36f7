//! What each subcommand does: load, run, render. Rendering is text, JSON or
//! CSV of the same data.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use broadside_core::dice::GENERATOR;
use broadside_core::exact::{DROP_NONE, ExactError, Prob, to_f64};
use broadside_core::montecarlo::Summary;
use broadside_core::{
    BattleRequest, EventLog, ResolveError, ResolveRequest, Ruleset, ScriptedDice, SeededDice,
    ShipSheet, Side, SourceFile, TableView,
};
use broadside_core::{Shard, Tally};
use clap::ArgMatches;
use comfy_table::Table;
use serde_json::{Value, json};

use crate::cli::{self, system_options};
use crate::report::{self, BattleRow, Run, Style};
use crate::{Failure, data_failure, registry, scenario, shard};

type Out<'a> = &'a mut dyn Write;

/// Runs the parsed command.
pub fn run(
    systems: &[Box<dyn Ruleset>],
    matches: &ArgMatches,
    out: Out<'_>,
) -> Result<(), Failure> {
    match matches.subcommand() {
        Some(("systems", m)) => systems_command(systems, m, out),
        Some(("ships", m)) => ships_command(m, out),
        Some(("table", m)) => table_command(m, out),
        Some(("resolve", m)) => {
            let (id, m) = m
                .subcommand()
                .ok_or_else(|| Failure::Input("resolve needs a system".into()))?;
            resolve_command(id, m, out)
        }
        Some(("battle", m)) => match m.subcommand() {
            Some((id, m)) => battle_command(id, m, out, None),
            None if m.contains_id("scenario") => compare_command(m, out, None),
            None => Err(Failure::Input(
                "battle needs a system or --scenario FILE (see --help)".into(),
            )),
        },
        Some(("sweep", m)) => match m.subcommand() {
            Some((id, m)) => crate::sweep::sweep_command(id, m, out),
            None => Err(Failure::Input("sweep needs a system (see --help)".into())),
        },
        Some(("compare", m)) => compare_command(m, out, None),
        Some(("serve", m)) => crate::serve::serve_command(m, out),
        Some(("merge", m)) => merge_command(systems, m, out),
        Some(("completions", m)) => {
            let shell = m
                .get_one::<clap_complete::Shell>("shell")
                .copied()
                .ok_or_else(|| Failure::Input("completions needs a shell".into()))?;
            let mut command = cli::command(systems);
            clap_complete::generate(shell, &mut command, "broadside", out);
            Ok(())
        }
        Some(("rules", m)) => match m.subcommand() {
            Some(("export", m)) => export_command(m, out),
            _ => Err(Failure::Internal("no rules command".into())),
        },
        Some(("man", _)) => {
            clap_mangen::Man::new(cli::command(systems)).render(out)?;
            Ok(())
        }
        _ => Err(Failure::Internal("no command".into())),
    }
}

pub(crate) fn format(m: &ArgMatches) -> &str {
    m.get_one::<String>("format").map_or("text", String::as_str)
}

/// Loads a system: its built-in data, overlaid with `--rules DIR` if given.
pub(crate) fn load(id: &str, m: &ArgMatches) -> Result<Box<dyn Ruleset>, Failure> {
    let registration = registry::find(id).ok_or_else(|| Failure::from(registry::unknown(id)))?;
    let dir = m.try_get_one::<String>("rules").ok().flatten();
    load_with(registration, dir.map(Path::new))
}

/// Loads a system's built-in data, with the files of `dir`, if given, in
/// place of the built-in files of the same names: a folder holding only
/// `ships.toml` changes the ships and keeps the rest.
pub fn load_with(
    registration: &broadside_core::Registration,
    dir: Option<&Path>,
) -> Result<Box<dyn Ruleset>, Failure> {
    let id = registration.id;
    let Some(dir) = dir else {
        return registration
            .load_embedded()
            .map_err(|e| data_failure(&format!("the built-in {id} data"), &e));
    };
    let mut files = registration.embedded_sources();
    for file in read_ruleset_dir(dir)? {
        match files.iter_mut().find(|f| f.name == file.name) {
            Some(built_in) => *built_in = file,
            None => {
                // A misspelt file name would otherwise be ignored without a
                // word, and the built-in file used in its place.
                let names = registration.embedded.iter().map(|(name, _)| *name);
                let unknown = ResolveError::unknown("data file", &file.name, names);
                return Err(Failure::Input(format!(
                    "rules folder {}: {unknown}",
                    dir.display()
                )));
            }
        }
    }
    let origin = format!("the {id} data in {}", dir.display());
    let system = (registration.load)(&files).map_err(|e| data_failure(&origin, &e))?;
    let problems = id_problems(system.as_ref(), &files);
    if !problems.is_empty() {
        let mut text = format!("{origin} has {} problem(s):", problems.len());
        for problem in problems {
            text.push_str("\n  ");
            text.push_str(&problem);
        }
        return Err(Failure::Input(text));
    }
    Ok(system)
}

/// The ship and table ids that are not kebab-case (`heavy-cruiser`), each
/// with the file, line and text where it is first written. Users type ids
/// on command lines and in side strings, where a space, a comma or a
/// capital letter would not survive.
fn id_problems(system: &dyn Ruleset, files: &[SourceFile]) -> Vec<String> {
    let ships = system.ships();
    let ship_ids = ships.iter().map(|ship| ("ship", ship.id().to_owned()));
    let table_ids = system.tables().into_iter().map(|table| ("table", table.id));
    let mut problems = Vec::new();
    for (kind, id) in ship_ids.chain(table_ids) {
        if broadside_core::ruleset::kebab(&id) == id {
            continue;
        }
        // An id may hold a newline or another control character, written
        // escaped in a quoted key; the message shows it escaped too, so that
        // it stays one line.
        let escaped: String = id
            .chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect();
        let advice = format!(
            "{kind} id '{escaped}' is not kebab-case: lower-case letters and digits joined by single hyphens, as '{}'",
            broadside_core::ruleset::kebab(&id)
        );
        // The id as a table header or a quoted key, else anywhere.
        let written = [
            format!("[{id}]"),
            format!("'{id}'"),
            format!("\"{id}\""),
            format!("\"{escaped}\""),
            id.clone(),
        ];
        let found = written.iter().find_map(|text| {
            files
                .iter()
                .find_map(|file| file.text.find(text.as_str()).map(|at| (file, at)))
        });
        problems.push(match found {
            Some((file, at)) => {
                let line = broadside_core::line_at(&file.text, at);
                let snippet = file.text.lines().nth(line - 1).unwrap_or_default();
                format!(
                    "{}: line {line}: {advice}\n    {line} | {snippet}",
                    file.name
                )
            }
            None => advice,
        });
    }
    problems
}

/// Writes a system's built-in files into a folder, never over a file that
/// is there.
fn export_command(m: &ArgMatches, out: Out<'_>) -> Result<(), Failure> {
    let id = m.get_one::<String>("system").map_or("", String::as_str);
    let dir = Path::new(m.get_one::<String>("dir").map_or("", String::as_str));
    let registration = registry::find(id).ok_or_else(|| Failure::from(registry::unknown(id)))?;
    let taken: Vec<String> = registration
        .embedded
        .iter()
        .filter(|(name, _)| dir.join(name).exists())
        .map(|(name, _)| dir.join(name).display().to_string())
        .collect();
    if !taken.is_empty() {
        return Err(Failure::Input(format!(
            "rules export would overwrite {}: choose an empty folder",
            taken.join(", ")
        )));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::Input(format!("cannot create {}: {e}", dir.display())))?;
    for (name, text) in registration.embedded {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| Failure::Input(format!("cannot write {}: {e}", path.display())))?;
        writeln!(out, "{}", path.display())?;
    }
    Ok(())
}

fn read_ruleset_dir(dir: &Path) -> Result<Vec<SourceFile>, Failure> {
    let unreadable = |e: std::io::Error| {
        Failure::Input(format!("cannot read rules folder {}: {e}", dir.display()))
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            files.push(SourceFile { name, text });
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(files)
}

fn json_line(out: Out<'_>, value: &Value) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::Internal(e.to_string()))?;
    writeln!(out, "{text}")?;
    Ok(())
}

fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<Value, Failure> {
    serde_json::to_value(value).map_err(|e| Failure::Internal(e.to_string()))
}

/// `systems --format json`, for the command and the web API.
pub fn systems_json(systems: &[Box<dyn Ruleset>]) -> Value {
    let list: Vec<Value> = systems
        .iter()
        .map(|s| {
            json!({
                "id": s.id(),
                "title": s.title(),
                "description": s.description(),
                "loss_kinds": s.loss_kinds().iter().map(|&kind| report::loss_key(kind)).collect::<Vec<_>>(),
                "escapes": s.escapes(),
            })
        })
        .collect();
    Value::Array(list)
}

fn systems_command(
    systems: &[Box<dyn Ruleset>],
    m: &ArgMatches,
    out: Out<'_>,
) -> Result<(), Failure> {
    if format(m) == "json" {
        return json_line(out, &systems_json(systems));
    }
    // Which endings a system can reach, so that a reader knows why its
    // reports leave the others out.
    let mut table = text_table(&["system", "game", "combat", "ships are lost", "escapes"]);
    for s in systems {
        let losses: Vec<&str> = s.loss_kinds().iter().map(|&kind| kind.text()).collect();
        let escapes = if s.escapes() { "yes" } else { "no" };
        table.add_row(vec![
            s.id(),
            s.title(),
            s.description(),
            &losses.join(", "),
            escapes,
        ]);
    }
    writeln!(out, "{table}")?;
    Ok(())
}

fn text_table(headers: &[&str]) -> Table {
    Style::Text.table(headers)
}

/// `ships --format json`: the ships' sheets, for the command and the web API.
pub fn ships_json(id: &str, ships: &[Box<dyn ShipSheet>]) -> Result<Value, Failure> {
    let list = ships
        .iter()
        .map(|s| to_json(&**s))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({"system": id, "ships": list}))
}

/// `table SYSTEM --format json`: the tables' ids and titles.
pub fn tables_json(id: &str, tables: &[TableView]) -> Value {
    let list: Vec<Value> = tables
        .iter()
        .map(|t| json!({"id": t.id, "title": t.title}))
        .collect();
    json!({"system": id, "tables": list})
}

/// `table SYSTEM TABLE --format json`: one whole table.
pub fn table_json(table: &TableView) -> Result<Value, Failure> {
    to_json(table)
}

fn ships_command(m: &ArgMatches, out: Out<'_>) -> Result<(), Failure> {
    let id = m.get_one::<String>("system").map_or("", String::as_str);
    let system = load(id, m)?;
    let mut ships = system.ships();
    if let Some(wanted) = m.get_one::<String>("ship") {
        // One ship's sheet: the same figures, a row of the table and its
        // notes, for that ship alone.
        let known: Vec<String> = ships.iter().map(|s| s.id().to_owned()).collect();
        let at = known.iter().position(|k| k == wanted).ok_or_else(|| {
            Failure::from(ResolveError::unknown(
                "ship",
                wanted,
                known.iter().map(String::as_str),
            ))
        })?;
        ships = vec![ships.swap_remove(at)];
    }
    if format(m) == "json" {
        return json_line(out, &ships_json(id, &ships)?);
    }
    let Some(first) = ships.first() else {
        writeln!(out, "{id} has no ships")?;
        return Ok(());
    };
    let headers: Vec<&str> = first.row().iter().map(|(h, _)| *h).collect();
    let mut table = text_table(&headers);
    for ship in &ships {
        table.add_row(
            ship.row()
                .into_iter()
                .map(|(_, cell)| cell)
                .collect::<Vec<_>>(),
        );
    }
    writeln!(out, "{table}")?;
    for ship in &ships {
        for line in ship.lines().iter().skip(1) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

fn table_command(m: &ArgMatches, out: Out<'_>) -> Result<(), Failure> {
    let id = m.get_one::<String>("system").map_or("", String::as_str);
    let system = load(id, m)?;
    let tables = system.tables();
    let json = format(m) == "json";
    let Some(table_id) = m.get_one::<String>("table") else {
        if json {
            return json_line(out, &tables_json(id, &tables));
        }
        let mut list = text_table(&["table", "title"]);
        for table in &tables {
            list.add_row([table.id.as_str(), table.title.as_str()]);
        }
        writeln!(out, "{list}")?;
        return Ok(());
    };
    let table = tables.iter().find(|t| &t.id == table_id).ok_or_else(|| {
        let unknown =
            ResolveError::unknown("table", table_id, tables.iter().map(|t| t.id.as_str()));
        Failure::Input(format!("{id}: {unknown}"))
    })?;
    match m.get_one::<String>("row") {
        None => print_table(table, json, out),
        Some(row) if m.get_one::<String>("column").is_none() && table.columns.len() > 1 => {
            // A row without a column: the whole row, one cell per column.
            let found = table.find_row(row)?;
            if json {
                let cells: serde_json::Map<String, Value> = table
                    .columns
                    .iter()
                    .cloned()
                    .zip(found.cells.iter().map(|c| json!(c)))
                    .collect();
                return json_line(
                    out,
                    &json!({"system": id, "table": table.id, "row": found.label, "cells": cells}),
                );
            }
            for (column, cell) in table.columns.iter().zip(&found.cells) {
                writeln!(out, "{column}: {cell}")?;
            }
            Ok(())
        }
        Some(row) => {
            let column = m.get_one::<String>("column").map(String::as_str);
            let cell = table.cell(row, column)?;
            if json {
                json_line(
                    out,
                    &json!({"system": id, "table": table.id, "row": row, "column": column, "cell": cell}),
                )
            } else {
                writeln!(out, "{cell}")?;
                Ok(())
            }
        }
    }
}

fn print_table(table: &TableView, json: bool, out: Out<'_>) -> Result<(), Failure> {
    if json {
        return json_line(out, &table_json(table)?);
    }
    let mut headers = vec![table.row_header.as_str()];
    headers.extend(table.columns.iter().map(String::as_str));
    let mut text = text_table(&headers);
    for row in &table.rows {
        let mut cells = vec![row.label.clone()];
        cells.extend(row.cells.iter().cloned());
        text.add_row(cells);
    }
    writeln!(out, "{}\n{text}", table.title)?;
    Ok(())
}

/// A seed from the clock, for runs given none; it is printed, so the run can
/// be repeated.
pub(crate) fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// Where an attack's dice come from.
pub enum ResolveDice {
    /// Seeded dice.
    Seed(u64),
    /// The faces given, in the order the rules roll them.
    Scripted(Vec<u32>),
}

/// One attack resolved: its report, every event, and its dice.
pub struct Resolved {
    /// The system's report of the attack.
    pub report: Box<dyn broadside_core::Sheet>,
    /// Every roll, modifier and table row, in order.
    pub log: EventLog,
    /// The seed and generator, or the scripted faces, as JSON fields.
    pub dice_source: Value,
    /// Scripted faces the attack did not need.
    pub unused: Vec<u32>,
}

/// Resolves one attack with seeded or scripted dice, keeping every event.
pub fn resolve_attack(
    system: &dyn Ruleset,
    request: &ResolveRequest,
    dice: ResolveDice,
) -> Result<Resolved, Failure> {
    let mut log = EventLog::default();
    let (report, dice_source, unused) = match dice {
        ResolveDice::Scripted(faces) => {
            if faces.is_empty() {
                return Err(Failure::Input("--dice: give at least one face".into()));
            }
            let mut dice = ScriptedDice::new(faces.clone());
            let report = system.resolve(request, &mut dice, &mut log)?;
            let unused = dice.remaining().to_vec();
            (report, json!({"dice": faces}), unused)
        }
        ResolveDice::Seed(seed) => {
            let mut dice = SeededDice::new(seed);
            let report = system.resolve(request, &mut dice, &mut log)?;
            (
                report,
                json!({"seed": seed, "generator": GENERATOR}),
                Vec::new(),
            )
        }
    };
    Ok(Resolved {
        report,
        log,
        dice_source,
        unused,
    })
}

impl Resolved {
    /// `resolve --format json`, for the command and the web API.
    pub fn json(&self, id: &str) -> Result<Value, Failure> {
        let mut object = serde_json::Map::new();
        object.insert("system".into(), json!(id));
        if let Value::Object(source) = &self.dice_source {
            object.extend(source.clone());
        }
        if let Value::Object(fields) = to_json(&*self.report)? {
            object.extend(fields);
        }
        object.insert("events".into(), to_json(&self.log.events)?);
        if !self.unused.is_empty() {
            object.insert("dice_unused".into(), json!(self.unused));
        }
        Ok(Value::Object(object))
    }
}

fn resolve_command(id: &str, m: &ArgMatches, out: Out<'_>) -> Result<(), Failure> {
    let system = load(id, m)?;
    let text = |name: &str| m.get_one::<String>(name).cloned().unwrap_or_default();
    let options = system_options(m, system.resolve_options());
    options.validate(system.resolve_options())?;
    let request = ResolveRequest {
        attacker: text("attacker"),
        target: text("target"),
        options,
    };
    if m.get_flag("exact") {
        return exact_resolve(id, &*system, &request, m, out);
    }
    let scripted: Option<Vec<u32>> = m.get_many::<u32>("dice").map(|d| d.copied().collect());
    let dice = match scripted {
        Some(faces) => ResolveDice::Scripted(faces),
        None => ResolveDice::Seed(m.get_one::<u64>("seed").copied().unwrap_or_else(fresh_seed)),
    };
    let resolved = resolve_attack(&*system, &request, dice)?;
    if format(m) == "json" {
        return json_line(out, &resolved.json(id)?);
    }
    let Resolved {
        report,
        log,
        dice_source,
        unused,
    } = resolved;
    match dice_source.get("seed") {
        Some(seed) => writeln!(out, "{id}, seed {seed} ({GENERATOR})")?,
        None => writeln!(out, "{id}, scripted dice {}", dice_source["dice"])?,
    }
    if m.get_flag("explain") {
        for (i, event) in log.events.iter().enumerate() {
            writeln!(out, "{:>3}. {event}", i + 1)?;
        }
    }
    for line in report.lines() {
        writeln!(out, "{line}")?;
    }
    if !unused.is_empty() {
        let shown: Vec<String> = unused.iter().map(u32::to_string).collect();
        writeln!(out, "note: scripted dice not needed: {}", shown.join(","))?;
    }
    Ok(())
}

/// The most dice paths an exact attack may take: enough for any single attack
/// of the four systems, small enough to answer in a second.
const MAX_PATHS: u64 = 2_000_000;

/// The most dice paths an exact battle may take in all, so that a battle too
/// big to enumerate says so within seconds.
const MAX_BATTLE_PATHS: u64 = 20_000_000;

/// The dice paths `resolve --exact` may take when it drops the states less
/// likely than `--min-probability`, having found the attack too big to
/// follow whole within [`MAX_PATHS`].
const MAX_DROPPING_PATHS: u64 = 20_000_000;

/// How likely a state of an attack too big to follow whole must be to be
/// followed, unless `--min-probability` asks otherwise (its help quotes
/// this): 1e-7.
pub const DEFAULT_MIN_PROBABILITY: Prob = Prob::new_raw(1, 10_000_000);

/// An attack's outcomes over every roll of its dice. Asked for, the states
/// less likely than `min_probability` are dropped at once; by default the
/// attack is followed whole if it fits [`MAX_PATHS`], else again with the
/// states less likely than [`DEFAULT_MIN_PROBABILITY`] dropped, within a
/// larger budget.
pub fn exact_attack(
    system: &dyn Ruleset,
    request: &ResolveRequest,
    min_probability: Option<Prob>,
) -> Result<broadside_core::exact::ExactAttack, Failure> {
    let exact = match min_probability {
        Some(least) => system.resolve_exact(request, MAX_DROPPING_PATHS, least),
        None => match system.resolve_exact(request, MAX_PATHS, DROP_NONE) {
            Err(ExactError::TooManyPaths { .. }) => {
                system.resolve_exact(request, MAX_DROPPING_PATHS, DEFAULT_MIN_PROBABILITY)
            }
            whole => whole,
        },
    };
    Ok(exact.map_err(ResolveError::from)?)
}

/// `resolve --exact --format json`, for the command and the web API.
pub fn exact_json(
    id: &str,
    request: &ResolveRequest,
    exact: &broadside_core::exact::ExactAttack,
) -> Result<Value, Failure> {
    Ok(
        json!({"system": id, "attacker": request.attacker, "target": request.target,
                "options": request.options.iter().map(|(k, v)| (k.to_owned(), option_json(v))).collect::<serde_json::Map<_, _>>(),
                "exact": to_json(exact)?}),
    )
}

/// `resolve --exact`: the attack's outcome over every roll of its dice.
fn exact_resolve(
    id: &str,
    system: &dyn Ruleset,
    request: &ResolveRequest,
    m: &ArgMatches,
    out: Out<'_>,
) -> Result<(), Failure> {
    // Given only when asked for: the flag has no default of its own.
    let min_probability = m.get_one::<Prob>("min-probability").copied();
    let exact = exact_attack(system, request, min_probability)?;
    if format(m) == "json" {
        return json_line(out, &exact_json(id, request, &exact)?);
    }
    writeln!(
        out,
        "{id}, exact: {} against {}, over {} dice paths",
        request.attacker, request.target, exact.paths
    )?;
    writeln!(
        out,
        "P(hit) = {} ({})",
        percent(exact.p_hit),
        exact.fractions["p_hit"]
    )?;
    let mut results = text_table(&["result", "p", ""]);
    for (name, p) in &exact.results {
        results.add_row(vec![name.clone(), percent(*p), bar(*p)]);
    }
    if !exact.results.is_empty() {
        writeln!(out, "{results}")?;
    }
    let mut damage = text_table(&["hull damage", "p", ""]);
    for (d, p) in &exact.hull_damage {
        damage.add_row(vec![d.to_string(), percent(*p), bar(*p)]);
    }
    writeln!(out, "{damage}")?;
    writeln!(out, "mean hull damage: {:.3}", exact.mean_hull_damage)?;
    if !exact.destroyed.is_empty() {
        let mut destroyed = text_table(&["destroyed", "p", ""]);
        for (name, p) in &exact.destroyed {
            destroyed.add_row(vec![name.clone(), percent(*p), bar(*p)]);
        }
        writeln!(out, "{destroyed}")?;
    }
    if exact.pruned > 0.0 {
        writeln!(
            out,
            "note: {} of the probability, in states less likely than --min-probability {:e}, was dropped; the figures above sum to the rest, and P(hit) is exact",
            percent(exact.pruned),
            to_f64(&min_probability.unwrap_or(DEFAULT_MIN_PROBABILITY))
        )?;
    }
    Ok(())
}

fn option_json(value: &broadside_core::OptionValue) -> Value {
    match value {
        broadside_core::OptionValue::Flag => json!(true),
        broadside_core::OptionValue::Number(n) => json!(n),
        broadside_core::OptionValue::Text(t) => json!(t),
    }
}

/// A probability in percent: two decimals, or two significant digits under
/// 1%, so a rare outcome does not print as 0.00%.
fn percent(p: f64) -> String {
    let pct = 100.0 * p;
    if pct > 0.0 && pct < 1.0 {
        let decimals = (1 - pct.log10().floor() as i32).clamp(2, 12) as usize;
        format!("{pct:.decimals$}%")
    } else {
        format!("{pct:.2}%")
    }
}

/// A bar of up to 20 blocks, in eighths, for a probability.
fn bar(p: f64) -> String {
    const EIGHTHS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let eighths = (p.clamp(0.0, 1.0) * 160.0).round() as usize;
    let mut text = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        text.push(EIGHTHS[eighths % 8]);
    }
    text
}

/// `battle --exact`: the battle over every roll of its dice.
fn exact_battle_report(
    id: &str,
    engagement: &dyn broadside_core::Engagement,
    max_turns: u32,
    m: &ArgMatches,
    out: Out<'_>,
) -> Result<(), Failure> {
    let max_states = m.get_one::<u64>("max-states").copied().unwrap_or(200_000);
    let max_states = usize::try_from(max_states).unwrap_or(usize::MAX);
    let roster = engagement.roster();
    let (a, b) = (roster.label(Side::A), roster.label(Side::B));
    let odds = engagement
        .exact(max_states, MAX_BATTLE_PATHS)
        .map_err(ResolveError::from)?;
    if format(m) == "json" {
        return json_line(
            out,
            &json!({"system": id, "a": a, "b": b, "max_turns": max_turns, "max_states": max_states,
                    "exact": to_json(&odds)?}),
        );
    }
    writeln!(
        out,
        "{id} battle, exact: {a} (A) against {b} (B), at most {max_turns} turns, at most {max_states} states"
    )?;
    let mut table = text_table(&["outcome", "p", ""]);
    for (name, p) in [
        (format!("A ({a}) wins"), odds.a_wins),
        (format!("B ({b}) wins"), odds.b_wins),
        ("draw".to_owned(), odds.draws),
        ("A escaped".to_owned(), odds.a_escapes),
        ("B escaped".to_owned(), odds.b_escapes),
        ("undecided at the turn limit".to_owned(), odds.undecided),
        ("dropped to keep within the states".to_owned(), odds.pruned),
    ] {
        table.add_row(vec![name, percent(p), bar(p)]);
    }
    writeln!(out, "{table}")?;
    writeln!(
        out,
        "{} dice paths, at most {} states after a phase",
        odds.paths, odds.peak_states
    )?;
    if odds.pruned > 0.0 {
        writeln!(
            out,
            "note: {} of the probability was dropped to stay within --max-states {max_states}; raise it, or drop --exact for Monte Carlo",
            percent(odds.pruned)
        )?;
    }
    Ok(())
}

/// A side's ships from a side string (`3xfrigate,destroyer`), each id one
/// of the system's ships; the message names the side as `side A: ...`.
pub fn side_ships(system: &dyn Ruleset, side: Side, text: &str) -> Result<Vec<String>, Failure> {
    // The side is the user's text: one_line keeps the message to one
    // escaped, bounded line.
    let failure = |message: String| Failure::Input(crate::one_line(&message));
    let ships = broadside_core::parse_side(text)
        .map_err(|e| failure(format!("side {side}: {}", side_message(e))))?;
    scenario::check_ids(system, &ships).map_err(|e| failure(format!("side {side}: {e}")))?;
    Ok(ships)
}

/// A battle request's options checked against the system's, and the battle
/// set up from it, ready to play.
pub fn prepare_battle(
    system: &dyn Ruleset,
    request: &BattleRequest,
) -> Result<Box<dyn broadside_core::Engagement>, Failure> {
    request.options.validate(system.battle_options())?;
    for (prefix, side) in ["a-", "b-"].into_iter().zip(&request.side_options) {
        // A side's set-up is given as --a-NAME or --b-NAME: say which.
        side.validate(system.side_options()).map_err(|e| match e {
            ResolveError::BadOption { option, message } => {
                ResolveError::bad_option(&format!("{prefix}{option}"), message)
            }
            other => other,
        })?;
    }
    Ok(system.prepare_battle(request)?)
}

/// `battle --replay K --format json`: trial `trial` of a run played again
/// with every event kept, for the command and the web API.
pub fn replay_json(
    id: &str,
    engagement: &dyn broadside_core::Engagement,
    seed: u64,
    trial: u64,
) -> Result<Value, Failure> {
    let roster = engagement.roster();
    let mut log = EventLog::default();
    let outcome = broadside_core::play_trial(engagement, seed, trial, &mut log)?;
    Ok(
        json!({"system": id, "a": roster.label(Side::A), "b": roster.label(Side::B), "ships": to_json(roster.ships())?,
                "seed": seed, "generator": GENERATOR, "trial": trial,
                "outcome": to_json(&outcome)?, "events": to_json(&log.events)?}),
    )
}

/// The registered systems a scenario has no section for, in registry order:
/// `compare` names them, so that a system is never left out silently.
pub fn left_out(scenario: &scenario::Scenario) -> Vec<&'static str> {
    registry::RULESETS
        .iter()
        .map(|registration| registration.id)
        .filter(|id| !scenario.battles.iter().any(|battle| battle.system == *id))
        .collect()
}

/// `compare --format json` as a value: the report's figures and the
/// registered systems the scenario leaves out. The command prints it and the
/// web API answers it.
pub fn compare_json(
    scenario: &scenario::Scenario,
    title: &report::ScenarioTitle<'_>,
    rows: &[BattleRow],
    trials: u64,
    run: &Run<'_>,
) -> Result<Value, Failure> {
    let mut value = report::compare_json(title, rows, trials, run)?;
    let Value::Object(fields) = &mut value else {
        return Err(Failure::Internal(
            "the comparison's JSON is not an object".into(),
        ));
    };
    fields.insert("left_out".into(), json!(left_out(scenario)));
    Ok(value)
}

/// The rows of a comparison: each battle of the scenario with its summary
/// and what its system, one of `systems`, declares.
pub fn compare_rows(
    scenario: &scenario::Scenario,
    systems: &[Box<dyn Ruleset>],
    summaries: Vec<Summary>,
) -> Result<Vec<BattleRow>, Failure> {
    scenario
        .battles
        .iter()
        .zip(summaries)
        .map(|(battle, summary)| {
            let roster = battle.engagement.roster();
            let system = systems
                .iter()
                .find(|system| system.id() == battle.system)
                .ok_or_else(|| {
                    Failure::Internal(format!("{}: played but not loaded", battle.system))
                })?;
            Ok(BattleRow::new(
                system.as_ref(),
                roster.label(Side::A),
                roster.label(Side::B),
                &battle.request,
                summary,
            ))
        })
        .collect()
}

fn battle_command(
    id: &str,
    m: &ArgMatches,
    out: Out<'_>,
    merged: Option<Vec<Tally>>,
) -> Result<(), Failure> {
    start_run(m)?;
    let path = m.get_one::<String>("scenario");
    let (origin, text) = match path {
        Some(path) => (scenario_origin(path), read_scenario(path)?),
        None => (String::new(), String::new()),
    };
    let source = scenario::Source {
        origin: &origin,
        text: &text,
    };
    let settings = match path {
        Some(_) => {
            scenario::settings(&source).map_err(|problems| scenario_failure(&source, &problems))?
        }
        None => scenario::Settings::default(),
    };
    let registration = registry::find(id).ok_or_else(|| Failure::from(registry::unknown(id)))?;
    let rules = match m.get_one::<String>("rules") {
        Some(dir) => Some(PathBuf::from(dir)),
        None => settings
            .rules
            .get(id)
            .map(|dir| beside_scenario(path.map(String::as_str), dir)),
    };
    let system = load_with(registration, rules.as_deref())?;
    let max_turns = setting(m, "max-turns", settings.max_turns, cli::DEFAULT_MAX_TURNS);
    let run_of = RunOf::of(m, &settings);
    let RunOf { seed, trials, .. } = run_of;
    let mut options = system_options(m, system.battle_options());
    let mut side_options = [
        cli::side_options(m, "a-", system.side_options()),
        cli::side_options(m, "b-", system.side_options()),
    ];
    let request = match path {
        Some(_) => {
            let scenario = scenario::read(&source, std::slice::from_ref(&system), max_turns)
                .map_err(|problems| scenario_failure(&source, &problems))?;
            let Some(battle) = scenario.battles.into_iter().next() else {
                return Err(Failure::Input(format!(
                    "{}: has no [systems.{id}] section",
                    source.origin
                )));
            };
            // Options given on the command line add to the scenario's, or
            // replace them.
            let mut request = battle.request;
            for (name, value) in options.iter() {
                request.options.set(name, value.clone());
            }
            for (side, given) in side_options.iter().enumerate() {
                for (name, value) in given.iter() {
                    request.side_options[side].set(name, value.clone());
                }
            }
            request
        }
        None => {
            let side = |key: &str, side: Side| {
                let text = m.get_one::<String>(key).map_or("", String::as_str);
                side_ships(system.as_ref(), side, text)
            };
            BattleRequest {
                sides: [side("a", Side::A)?, side("b", Side::B)?],
                max_turns,
                options: std::mem::take(&mut options),
                side_options: std::mem::take(&mut side_options),
            }
        }
    };
    let engagement = prepare_battle(system.as_ref(), &request)?;
    if m.get_flag("exact") {
        if matches!(format(m), "csv" | "markdown" | "html") {
            return Err(Failure::Input(
                "--exact has no CSV, markdown or HTML report: use --format text or json".into(),
            ));
        }
        return exact_battle_report(id, &*engagement, request.max_turns, m, out);
    }
    let roster = engagement.roster();
    let (label_a, label_b) = (roster.label(Side::A), roster.label(Side::B));
    let replay = match m.get_one::<String>("find") {
        Some(wanted) => {
            let verdict = match wanted.as_str() {
                "a-wins" => broadside_core::Verdict::Winner(Side::A),
                "b-wins" => broadside_core::Verdict::Winner(Side::B),
                "draw" => broadside_core::Verdict::Draw,
                "a-escapes" => broadside_core::Verdict::Escaped(Side::A),
                "b-escapes" => broadside_core::Verdict::Escaped(Side::B),
                _ => broadside_core::Verdict::Undecided,
            };
            let found = broadside_core::find_trial(&*engagement, seed, trials, verdict)?;
            Some(found.ok_or_else(|| {
                Failure::Input(format!(
                    "--find {wanted}: none of the {trials} trials with seed {seed} ended so ({}); try more --trials",
                    verdict_text(&verdict)
                ))
            })?)
        }
        None => m.get_one::<u64>("replay").copied(),
    };
    if let Some(trial) = replay {
        if trial >= trials {
            return Err(Failure::Input(format!(
                "--replay {trial} is not a trial of this run: its trials are 0 to {} (--trials {trials})",
                trials - 1
            )));
        }
        if matches!(format(m), "csv" | "markdown" | "html") {
            return Err(Failure::Input(
                "--replay prints an event log: use --format text or json".into(),
            ));
        }
        if format(m) == "json" {
            return json_line(out, &replay_json(id, &*engagement, seed, trial)?);
        }
        let mut log = EventLog::default();
        let outcome = broadside_core::play_trial(&*engagement, seed, trial, &mut log)?;
        writeln!(
            out,
            "{id} battle {label_a} (A) against {label_b} (B), seed {seed} ({GENERATOR}), trial {trial}"
        )?;
        for event in &log.events {
            writeln!(out, "{event}")?;
        }
        writeln!(
            out,
            "outcome: {} after {} turns",
            verdict_text(&outcome.verdict),
            outcome.turns
        )?;
        for (i, fate) in outcome.ships.iter().enumerate() {
            let state = match fate.loss {
                Some(loss) => loss.text(),
                None if fate.escaped => "jumped away",
                None => "in the fight",
            };
            writeln!(
                out,
                "  {}: {state}, hull {} of {}",
                roster.name(i),
                fate.hull.0.max(0),
                fate.hull.1
            )?;
        }
        return Ok(());
    }
    let Some(summary) =
        play_or_merge(m, &[(id, &*engagement)], run_of, merged, out)?.and_then(|mut s| s.pop())
    else {
        // A shard: its tally is the output.
        return Ok(());
    };
    let row = BattleRow::new(system.as_ref(), label_a, label_b, &request, summary);
    let rules = rules.map(|dir| dir.display().to_string());
    let run = Run {
        seed,
        max_turns: request.max_turns,
        rules: rules.as_deref(),
    };
    report::battle(format(m), &row, &run, out)
}

/// A side error's message without the option name a flag would carry.
fn side_message(e: ResolveError) -> String {
    match e {
        ResolveError::BadOption { message, .. } => message,
        other => other.to_string(),
    }
}

/// A scenario's text, from a file or, for `-`, from standard input.
fn read_scenario(path: &str) -> Result<String, Failure> {
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| {
            Failure::Input(format!("cannot read a scenario from standard input: {e}"))
        })?
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| Failure::Input(format!("cannot read scenario {path}: {e}")))?
    };
    if text.trim().is_empty() {
        return Err(Failure::Input(format!(
            "{} is empty",
            scenario_origin(path)
        )));
    }
    Ok(text)
}

/// How messages name a scenario.
fn scenario_origin(path: &str) -> String {
    if path == "-" {
        "the scenario on standard input".to_owned()
    } else {
        format!("scenario {path}")
    }
}

/// A rules folder a scenario names, relative to the scenario's own folder
/// (or to the working folder for standard input and the built-in one).
fn beside_scenario(scenario: Option<&str>, dir: &str) -> PathBuf {
    match scenario
        .filter(|p| *p != "-")
        .and_then(|p| Path::new(p).parent())
    {
        Some(folder) => folder.join(dir),
        None => PathBuf::from(dir),
    }
}

/// A run setting: the command line's if given there, else the scenario's,
/// else the default.
fn setting<T: Copy + Send + Sync + 'static>(
    m: &ArgMatches,
    name: &str,
    scenario: Option<T>,
    default: T,
) -> T {
    let given = m.value_source(name) == Some(clap::parser::ValueSource::CommandLine);
    match (given, scenario) {
        (false, Some(value)) => value,
        _ => m.get_one::<T>(name).copied().unwrap_or(default),
    }
}

/// `--rules SYSTEM=DIR`, each naming a registered system once.
pub(crate) fn rules_folders(m: &ArgMatches) -> Result<BTreeMap<String, PathBuf>, Failure> {
    let mut folders = BTreeMap::new();
    for given in m.get_many::<String>("rules").into_iter().flatten() {
        let Some((id, dir)) = given.split_once('=') else {
            return Err(Failure::Input(crate::one_line(&format!(
                "--rules: '{given}' is not SYSTEM=DIR (for example percentile=my-ships)"
            ))));
        };
        registry::find(id).ok_or_else(|| Failure::from(registry::unknown(id)))?;
        if folders.insert(id.to_owned(), PathBuf::from(dir)).is_some() {
            return Err(Failure::Input(format!("--rules: {id} is given twice")));
        }
    }
    Ok(folders)
}

/// Every problem of a scenario, one per line.
pub(crate) fn scenario_failure(source: &scenario::Source<'_>, problems: &[String]) -> Failure {
    // Each problem is a line that says it all, then the file's line and a
    // caret; every line is made safe on its own.
    let safe = |problem: &str| {
        problem
            .split('\n')
            .map(crate::one_line)
            .collect::<Vec<_>>()
            .join("\n  ")
    };
    if let [one] = problems {
        return Failure::Input(safe(one));
    }
    let mut text = format!("{} has {} problems:", source.origin, problems.len());
    for problem in problems {
        text.push_str("\n  ");
        text.push_str(&safe(problem));
    }
    Failure::Input(text)
}

fn verdict_text(verdict: &broadside_core::Verdict) -> String {
    match verdict {
        broadside_core::Verdict::Winner(side) => format!("side {side} wins"),
        // A draw covers both sides destroyed, both unable to fight on, and both
        // escaping together, so the text names none of those causes.
        broadside_core::Verdict::Draw => "a draw: neither side can fight on".into(),
        broadside_core::Verdict::Escaped(side) => format!("side {side} escaped"),
        broadside_core::Verdict::Undecided => "undecided at the turn limit".into(),
    }
}

/// Whether `-q/--quiet` asked for no progress on standard error.
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Readies a run of trials: `-q/--quiet`, and the pool trials are played on
/// sized from `-j/--threads` (without it, rayon's own default: one thread a
/// core, or `RAYON_NUM_THREADS`).
pub(crate) fn start_run(m: &ArgMatches) -> Result<(), Failure> {
    if m.try_get_one::<bool>("quiet").ok().flatten() == Some(&true) {
        QUIET.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    if let Some(&threads) = m.get_one::<u16>("threads") {
        rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(threads))
            .build_global()
            .map_err(|e| Failure::Internal(format!("starting {threads} threads: {e}")))?;
    }
    Ok(())
}

/// The trials a command plays: with which seed (and whether the user gave
/// it, or a scenario did), and how many.
#[derive(Clone, Copy)]
struct RunOf {
    seed: u64,
    seed_given: bool,
    trials: u64,
}

impl RunOf {
    /// The run the command line asks for, over a scenario's settings: a
    /// flag given wins, then the scenario, then the default (a fresh seed).
    fn of(m: &ArgMatches, settings: &scenario::Settings) -> RunOf {
        let given = m.get_one::<u64>("seed").copied().or(settings.seed);
        RunOf {
            seed: given.unwrap_or_else(fresh_seed),
            seed_given: given.is_some(),
            trials: setting(m, "trials", settings.trials, cli::DEFAULT_TRIALS),
        }
    }
}

/// Each battle's summary: from the tallies of merged shards, or by playing
/// the run. With `--shard I/N`, plays only that shard, prints its tallies
/// as a shard file and returns `None`.
fn play_or_merge(
    m: &ArgMatches,
    battles: &[(&str, &dyn broadside_core::Engagement)],
    run: RunOf,
    merged: Option<Vec<Tally>>,
    out: Out<'_>,
) -> Result<Option<Vec<Summary>>, Failure> {
    if let Some(tallies) = merged {
        if tallies.len() != battles.len() {
            return Err(Failure::Input(format!(
                "the shards tally {} battles, but their command plays {}",
                tallies.len(),
                battles.len()
            )));
        }
        let mut summaries = Vec::with_capacity(battles.len());
        for (&(label, engagement), tally) in battles.iter().zip(tallies) {
            let roster = engagement.roster();
            tally
                .check(roster)
                .map_err(|e| Failure::Input(format!("the shards' {label} tally is broken: {e}")))?;
            if tally.trials() != run.trials {
                return Err(Failure::Input(format!(
                    "the shards played {} {label} trials, but their command's run has {}",
                    tally.trials(),
                    run.trials
                )));
            }
            summaries.push(tally.summary(roster));
        }
        return Ok(Some(summaries));
    }
    if let Some(&shard) = m.try_get_one::<Shard>("shard").ok().flatten() {
        if !run.seed_given {
            // Shards drawing fresh seeds would be shards of different runs.
            return Err(Failure::Input(
                "--shard needs --seed S (or a scenario's seed), the same for every shard".into(),
            ));
        }
        let mut tallies = Vec::with_capacity(battles.len());
        for &(_, engagement) in battles {
            tallies.push(broadside_core::run_shard(
                engagement,
                run.seed,
                run.trials,
                shard,
                &|_| {},
            )?);
        }
        let args = shard::recorded_args();
        writeln!(out, "{}", shard::to_json(args, shard, tallies)?)?;
        return Ok(None);
    }
    battles
        .iter()
        .map(|&(label, engagement)| run_with_progress(label, engagement, run.seed, run.trials))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// `merge FILE...`: the shards' command set up again, reported from their
/// summed tallies.
fn merge_command(
    systems: &[Box<dyn Ruleset>],
    m: &ArgMatches,
    out: Out<'_>,
) -> Result<(), Failure> {
    let files: Vec<String> = m
        .get_many::<String>("files")
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let (args, tallies) = shard::read_all(&files)?;
    let argv = std::iter::once("broadside".to_owned())
        .chain(args)
        .chain(["--format".to_owned(), format(m).to_owned()]);
    let matches = cli::command(systems)
        .try_get_matches_from(argv)
        .map_err(|e| {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or_default().to_owned();
            Failure::Input(crate::one_line(&format!(
                "the shards' command no longer reads: {first}"
            )))
        })?;
    match matches.subcommand() {
        Some(("battle", m)) => match m.subcommand() {
            Some((id, m)) => battle_command(id, m, out, Some(tallies)),
            None => compare_command(m, out, Some(tallies)),
        },
        Some(("compare", m)) => compare_command(m, out, Some(tallies)),
        _ => Err(Failure::Input(
            "the shards' command is not a battle or compare run".into(),
        )),
    }
}

pub(crate) fn run_with_progress(
    label: &str,
    engagement: &dyn broadside_core::Engagement,
    seed: u64,
    trials: u64,
) -> Result<Summary, Failure> {
    // The bar draws only when stderr is a terminal, so piped output and
    // tests see nothing of it.
    let style = |template: &str| {
        indicatif::ProgressStyle::with_template(template)
            .map_err(|e| Failure::Internal(format!("progress bar template: {e}")))
    };
    let bar = if QUIET.load(std::sync::atomic::Ordering::Relaxed) {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(trials)
    };
    let bar = bar
        .with_style(style(
            "{prefix:>11} {wide_bar} {human_pos}/{human_len} trials, {per_sec:0}, {eta} left",
        )?)
        .with_prefix(label.to_owned());
    let tally = broadside_core::run_trials(engagement, seed, trials, &|n| bar.inc(n))?;
    // The bar gives way to one line saying what it measured, as cargo's
    // "Finished" line does.
    bar.set_style(style("{prefix:>11} {msg}")?);
    bar.finish_with_message(format!(
        "{} trials in {:.1} s",
        indicatif::HumanCount(trials),
        bar.elapsed().as_secs_f64()
    ));
    Ok(tally.summary(engagement.roster()))
}

fn compare_command(
    m: &ArgMatches,
    out: Out<'_>,
    merged: Option<Vec<Tally>>,
) -> Result<(), Failure> {
    start_run(m)?;
    let path = m.get_one::<String>("scenario");
    let (origin, text) = match path {
        None => (
            "the built-in default scenario".to_owned(),
            scenario::DEFAULT.to_owned(),
        ),
        Some(path) => (scenario_origin(path), read_scenario(path)?),
    };
    let source = scenario::Source {
        origin: &origin,
        text: &text,
    };
    let settings =
        scenario::settings(&source).map_err(|problems| scenario_failure(&source, &problems))?;
    let max_turns = setting(m, "max-turns", settings.max_turns, cli::DEFAULT_MAX_TURNS);
    let run_of = RunOf::of(m, &settings);
    let RunOf { seed, trials, .. } = run_of;
    // Each system's folder: the command line's, else the scenario's
    // (relative to the scenario file), else none.
    let mut folders = rules_folders(m)?;
    for (id, dir) in &settings.rules {
        folders
            .entry(id.clone())
            .or_insert_with(|| beside_scenario(path.map(String::as_str), dir));
    }
    let systems = registry::RULESETS
        .iter()
        .map(|registration| {
            load_with(
                registration,
                folders.get(registration.id).map(PathBuf::as_path),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Every system's battle is read and set up before any is played, so a
    // mistake in the last section is reported before minutes of trials.
    let scenario = scenario::read(&source, &systems, max_turns)
        .map_err(|problems| scenario_failure(&source, &problems))?;
    let rules_echo = folders
        .iter()
        .map(|(id, dir)| format!("{id}={}", dir.display()))
        .collect::<Vec<_>>()
        .join(" ");
    let battles: Vec<(&str, &dyn broadside_core::Engagement)> = scenario
        .battles
        .iter()
        .map(|battle| (battle.system, &*battle.engagement))
        .collect();
    let Some(summaries) = play_or_merge(m, &battles, run_of, merged, out)? else {
        return Ok(());
    };
    let rows = compare_rows(&scenario, &systems, summaries)?;
    let run = Run {
        seed,
        max_turns,
        rules: (!rules_echo.is_empty()).then_some(rules_echo.as_str()),
    };
    let title = report::ScenarioTitle {
        name: &scenario.name,
        description: &scenario.description,
    };
    let left_out = left_out(&scenario);
    match format(m) {
        "json" => json_line(out, &compare_json(&scenario, &title, &rows, trials, &run)?),
        // Columns and a page have no place for a line; their rows name
        // the systems that were played.
        other @ ("csv" | "html") => report::compare(other, &title, &rows, trials, &run, out),
        other => {
            report::compare(other, &title, &rows, trials, &run, out)?;
            // Text ends with a table and markdown with a blank line, so this
            // line reads as the report's last.
            if !left_out.is_empty() {
                writeln!(out, "not in this scenario: {}", left_out.join(", "))?;
            }
            Ok(())
        }
    }
}

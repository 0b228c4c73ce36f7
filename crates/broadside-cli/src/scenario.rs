//! Scenario files: per system, the two sides, each side's set-up and the
//! battle's options, read into battle requests with every problem located by
//! file, key and line before anything runs.
//!
//! A side is written as one ship id (`a = "destroyer"`), a side string
//! (`a = "3xfrigate,destroyer"`), a list of either (`a = ["2xfrigate",
//! "destroyer"]`), or a table with its set-up (`[systems.percentile.a]`
//! with `ships = ...` and the system's side options).

use std::collections::BTreeMap;

use broadside_core::{
    BattleRequest, Engagement, OptionKind, OptionSpec, OptionValue, Options, ResolveError, Ruleset,
    Side,
};
use toml::{Spanned, Value};

use crate::registry;

/// The built-in default scenario.
pub const DEFAULT: &str = include_str!("../../../rulesets/scenarios/default.toml");

/// A scenario file as written.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    name: String,
    #[serde(default)]
    description: String,
    /// Trials to play, unless the command line says.
    trials: Option<Spanned<i64>>,
    /// The seed, unless the command line says.
    seed: Option<Spanned<i64>>,
    /// The turn limit, unless the command line says.
    #[serde(rename = "max-turns")]
    max_turns: Option<Spanned<i64>>,
    // Missing is the same mistake as empty, and gets the same message.
    #[serde(default)]
    systems: BTreeMap<String, Spanned<BTreeMap<String, Spanned<Value>>>>,
}

/// The keys of a system's section that are not battle options.
const SECTION_KEYS: [&str; 3] = ["a", "b", "rules"];

/// What a scenario sets beyond its battles: the run's settings, each `None`
/// where the file leaves it to the command line or the default, and each
/// system's rules folder as written (relative to the scenario's folder).
#[derive(Debug, Default)]
pub struct Settings {
    /// `trials = N`.
    pub trials: Option<u64>,
    /// `seed = S`.
    pub seed: Option<u64>,
    /// `max-turns = T`.
    pub max_turns: Option<u32>,
    /// `rules = "dir"` of each system's section, by system id.
    pub rules: BTreeMap<String, String>,
    /// The systems the scenario names, in file order.
    pub systems: Vec<String>,
}

/// A scenario's text, named `origin` in messages (`scenario fleets.toml`),
/// read into its settings, or every problem found as one message: a first
/// line for each problem naming the origin, line, column and key, then the
/// line of the text with a caret. The entry point a generated-input harness
/// calls: whatever the text, it answers and never panics.
pub fn parse_settings(text: &str, origin: &str) -> Result<Settings, String> {
    let source = Source { origin, text };
    settings(&source).map_err(|problems| problems.join("\n"))
}

/// Reads a scenario's settings: the trials, seed, turn limit and rules
/// folders it carries. `Err` holds every problem found, one line each.
pub fn settings(source: &Source<'_>) -> Result<Settings, Vec<String>> {
    let raw = parse(source)?;
    let mut problems = Vec::new();
    let mut number = |value: &Option<Spanned<i64>>, key: &str, min: i64, max: i64| {
        let value = value.as_ref()?;
        let n = *value.get_ref();
        if (min..=max).contains(&n) {
            Some(n)
        } else {
            problems.push(source.at(
                value.span().start,
                key,
                format_args!("{n} is not in {min}..={max}"),
            ));
            None
        }
    };
    let mut settings = Settings {
        trials: number(&raw.trials, "trials", 1, crate::cli::MAX_TRIALS as i64)
            .map(|n| n.unsigned_abs()),
        seed: number(&raw.seed, "seed", 0, i64::MAX).map(|n| n.unsigned_abs()),
        max_turns: number(&raw.max_turns, "max-turns", 1, 10_000)
            .and_then(|n| u32::try_from(n).ok()),
        ..Settings::default()
    };
    for (id, section) in &raw.systems {
        settings.systems.push(id.clone());
        if let Some(rules) = section.get_ref().get("rules") {
            match rules.get_ref() {
                Value::String(dir) => {
                    settings.rules.insert(id.clone(), dir.clone());
                }
                other => problems.push(source.at(
                    rules.span().start,
                    &format!("systems.{id}.rules"),
                    format_args!("{other} is not a quoted folder name"),
                )),
            }
        }
    }
    if problems.is_empty() {
        Ok(settings)
    } else {
        Err(problems)
    }
}

/// The file as written, or the TOML error located in it.
fn parse(source: &Source<'_>) -> Result<Raw, Vec<String>> {
    toml::from_str(source.text).map_err(|e| {
        let message = e.message().trim();
        vec![match e.span() {
            Some(span) => source.at(span.start, "", message),
            None => format!("{}: {message}", source.origin),
        }]
    })
}

/// A scenario read and checked: one battle request per system it names.
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// What it asks.
    pub description: String,
    /// The systems it names, in registry order, with their requests and the
    /// battles set up from them.
    pub battles: Vec<Battle>,
}

/// One system's battle of a scenario.
pub struct Battle {
    /// The system's id.
    pub system: &'static str,
    /// The request, as read.
    pub request: BattleRequest,
    /// The battle set up from it, ready to play.
    pub engagement: Box<dyn Engagement>,
}

/// Where a scenario came from and its text, for locating problems.
pub struct Source<'a> {
    /// How messages name it: `scenario fleets.toml`.
    pub origin: &'a str,
    /// Its contents.
    pub text: &'a str,
}

impl Source<'_> {
    /// A problem at byte `offset`: a first line that says it all (file,
    /// line, column, key, message), then the line of the file with a caret
    /// under the column.
    fn at(&self, offset: usize, key: &str, message: impl std::fmt::Display) -> String {
        let key = if key.is_empty() {
            String::new()
        } else {
            format!("{key}: ")
        };
        format!(
            "{}{key}{message}{}",
            self.place(offset),
            self.snippet(offset)
        )
    }

    /// `scenario fleets.toml: line 4, column 5: `.
    fn place(&self, offset: usize) -> String {
        let (line, column, _) = self.locate(offset);
        format!("{}: line {line}, column {column}: ", self.origin)
    }

    /// The line holding `offset`, numbered, and a caret under its column.
    fn snippet(&self, offset: usize) -> String {
        let (line, column, text) = self.locate(offset);
        let number = line.to_string();
        format!(
            "\n    {number} | {text}\n    {} | {}^",
            " ".repeat(number.len()),
            " ".repeat(column - 1)
        )
    }

    /// The 1-based line and column (in characters) of byte `offset`, and
    /// the line's text.
    fn locate(&self, offset: usize) -> (usize, usize, &str) {
        let offset = offset.min(self.text.len());
        let line = broadside_core::line_at(self.text, offset);
        let start = self.text[..offset].rfind('\n').map_or(0, |at| at + 1);
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |at| start + at);
        let text = self.text[start..end].trim_end_matches('\r');
        let column = self.text[start..offset].chars().count() + 1;
        (line, column, text)
    }
}

/// Reads a scenario's sections for the loaded systems (sections of other
/// registered systems are skipped). `Err` holds every problem found, one line
/// each.
pub fn read(
    source: &Source<'_>,
    systems: &[Box<dyn Ruleset>],
    max_turns: u32,
) -> Result<Scenario, Vec<String>> {
    let raw = parse(source)?;
    let mut problems = Vec::new();
    if raw.systems.is_empty() {
        problems.push(format!(
            "{}: names no system to run: add a [systems.<id>] section (known: {})",
            source.origin,
            registry::known()
        ));
    }
    for (id, section) in &raw.systems {
        if registry::find(id).is_none() {
            problems.push(source.at(
                section.span().start,
                &format!("systems.{id}"),
                format_args!("{}", registry::unknown(id)),
            ));
        }
    }
    let mut battles = Vec::new();
    for system in systems {
        let Some(section) = raw.systems.get(system.id()) else {
            continue;
        };
        match read_section(source, system.as_ref(), section, max_turns) {
            Ok((request, engagement)) => battles.push(Battle {
                system: system.id(),
                request,
                engagement,
            }),
            Err(mut found) => problems.append(&mut found),
        }
    }
    if problems.is_empty() {
        Ok(Scenario {
            name: raw.name,
            description: raw.description,
            battles,
        })
    } else {
        Err(problems)
    }
}

fn read_section(
    source: &Source<'_>,
    system: &dyn Ruleset,
    section: &Spanned<BTreeMap<String, Spanned<Value>>>,
    max_turns: u32,
) -> Result<(BattleRequest, Box<dyn Engagement>), Vec<String>> {
    let id = system.id();
    let mut problems = Vec::new();
    let mut sides: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut side_options = [Options::new(), Options::new()];
    for side in Side::BOTH {
        let key = side_key(side);
        let path = format!("systems.{id}.{key}");
        match section.get_ref().get(key) {
            None => problems.push(source.at(
                section.span().start,
                &format!("systems.{id}"),
                format_args!("side {side} is missing: add {key} = \"ship-id\""),
            )),
            Some(value) => match read_side(source, system, &path, value) {
                Ok((ships, options)) => {
                    sides[side.index()] = ships;
                    side_options[side.index()] = options;
                }
                Err(mut found) => problems.append(&mut found),
            },
        }
    }
    let mut options = Options::new();
    let specs = system.battle_options();
    for (key, value) in section.get_ref() {
        if SECTION_KEYS.contains(&key.as_str()) {
            continue;
        }
        let path = format!("systems.{id}.{key}");
        match option_value(specs, key, value.get_ref()) {
            Ok(Some(v)) => {
                let name = crate::cli::canonical(key, specs).unwrap_or(key);
                // Each value is checked on its own, so that every bad one is
                // reported at its own line, not only the first at the
                // section's.
                let mut one = Options::new();
                one.set(name, v.clone());
                match one.validate(specs) {
                    Ok(()) => {
                        options.set(name, v);
                    }
                    Err(e) => {
                        problems.push(source.at(value.span().start, &path, option_message(&e)));
                    }
                }
            }
            Ok(None) => {}
            Err(message) => problems.push(source.at(value.span().start, &path, message)),
        }
    }
    if problems.is_empty()
        && let Err(e) = options.validate(specs)
    {
        problems.push(source.at(section.span().start, &format!("systems.{id}"), e));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let request = BattleRequest {
        sides,
        max_turns,
        options,
        side_options,
    };
    // What only the system can judge (a mine placed off the map, a fleet too
    // big for its state) is found by setting the battle up once.
    let engagement = system.prepare_battle(&request).map_err(|e| {
        // A battle option the system refuses is shown at its own key.
        let key = match &e {
            ResolveError::BadOption { option, .. } => section.get_ref().iter().find(|(key, _)| {
                !SECTION_KEYS.contains(&key.as_str())
                    && crate::cli::canonical(key, specs).unwrap_or(key) == option.as_str()
            }),
            _ => None,
        };
        vec![match key {
            Some((key, value)) => source.at(
                value.span().start,
                &format!("systems.{id}.{key}"),
                option_message(&e),
            ),
            None => source.at(section.span().start, &format!("systems.{id}"), e),
        }]
    })?;
    Ok((request, engagement))
}

/// What is wrong with an option or a side a scenario sets, without the
/// command-line flag that the error names: the scenario's key path names it
/// instead.
fn option_message(e: &ResolveError) -> String {
    match e {
        ResolveError::BadOption { message, .. } => message.clone(),
        other => other.to_string(),
    }
}

fn side_key(side: Side) -> &'static str {
    match side {
        Side::A => "a",
        Side::B => "b",
    }
}

/// A side: its ship ids (counts expanded) and its set-up.
fn read_side(
    source: &Source<'_>,
    system: &dyn Ruleset,
    path: &str,
    value: &Spanned<Value>,
) -> Result<(Vec<String>, Options), Vec<String>> {
    let at = |message: String| vec![source.at(value.span().start, path, message)];
    let (ships, setup) = match value.get_ref() {
        Value::Table(table) => {
            let Some(ships) = table.get("ships") else {
                return Err(at(
                    "a side written as a table needs ships = \"ship-id\" or a list of ids".into(),
                ));
            };
            (ships, Some(table))
        }
        other => (other, None),
    };
    let ships = ship_list(ships).map_err(&at)?;
    check_ids(system, &ships).map_err(&at)?;
    let mut options = Options::new();
    if let Some(table) = setup {
        for (key, v) in table.iter().filter(|(k, _)| *k != "ships") {
            let specs = system.side_options();
            match option_value(specs, key, v) {
                Ok(Some(v)) => {
                    options.set(crate::cli::canonical(key, specs).unwrap_or(key), v);
                }
                Ok(None) => {}
                Err(message) => return Err(at(format!("{key}: {message}"))),
            }
        }
        options
            .validate(system.side_options())
            .map_err(|e| at(e.to_string()))?;
    }
    Ok((ships, options))
}

/// Ship ids from a side string or a list of side strings.
fn ship_list(value: &Value) -> Result<Vec<String>, String> {
    let wrong = || {
        "a side is a ship id, a side string such as \"3xfrigate,destroyer\", or a list of them"
            .to_owned()
    };
    let mut ships = Vec::new();
    match value {
        Value::String(text) => {
            ships = broadside_core::parse_side(text).map_err(|e| option_message(&e))?
        }
        Value::Array(items) => {
            for item in items {
                let Value::String(text) = item else {
                    return Err(wrong());
                };
                ships.extend(broadside_core::parse_side(text).map_err(|e| option_message(&e))?);
            }
            broadside_core::fleet::check_side_size(&ships).map_err(|e| option_message(&e))?;
        }
        _ => return Err(wrong()),
    }
    Ok(ships)
}

/// Every id must be one of the system's ships.
pub fn check_ids(system: &dyn Ruleset, ships: &[String]) -> Result<(), String> {
    let known: Vec<String> = system.ships().iter().map(|s| s.id().to_owned()).collect();
    for ship in ships {
        if !known.contains(ship) {
            return Err(
                ResolveError::unknown("ship", ship, known.iter().map(String::as_str)).to_string(),
            );
        }
    }
    Ok(())
}

/// A scenario value as an option value, of the kind the option takes, as on
/// the command line: `start-range = false` or `start-range = "12"` is an
/// error, not a default or a number read out of a string. `Ok(None)` is a
/// flag set to false. An unknown name is an error listing the known ones.
fn option_value(
    specs: &[OptionSpec],
    key: &str,
    value: &Value,
) -> Result<Option<OptionValue>, String> {
    let name = crate::cli::canonical(key, specs);
    let kind = specs
        .iter()
        .find(|spec| Some(spec.name) == name)
        .map(|spec| spec.kind);
    Ok(Some(match (kind, value) {
        (Some(OptionKind::Flag), Value::Boolean(true)) => OptionValue::Flag,
        (Some(OptionKind::Flag), Value::Boolean(false)) => return Ok(None),
        (Some(OptionKind::Number { .. }), Value::Integer(n)) => OptionValue::Number(*n),
        (Some(OptionKind::Choice(_) | OptionKind::Text), Value::String(s)) => {
            OptionValue::Text(s.clone())
        }
        (None, _) => {
            let known = specs.iter().map(|spec| spec.name);
            return Err(ResolveError::unknown("option", key, known).to_string());
        }
        (Some(kind), other) => {
            let wanted = match kind {
                OptionKind::Flag => "true or false",
                OptionKind::Number { .. } => "a whole number",
                OptionKind::Choice(_) | OptionKind::Text => "a quoted name",
            };
            return Err(format!("{other} is not {wanted}"));
        }
    }))
}

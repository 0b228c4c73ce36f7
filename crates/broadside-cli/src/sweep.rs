//! `broadside sweep`: many battles of one system as one table, for balancing: every ship against every ship, or one battle with a number option over a range.
//!
//! Each battle is played as `battle` plays it, from the same seed, so a
//! cell of the table is the figure `battle` gives for that pair. JSON and
//! CSV carry each battle's full figures, as `compare` writes them; text
//! and markdown draw the table of side A's chance to win.

use std::io::Write;

use broadside_core::{BattleRequest, OptionKind, OptionValue, Ruleset, Side};
use clap::ArgMatches;

use crate::cli::{self, system_options};
use crate::commands::{format, fresh_seed, load, run_with_progress, start_run};
use crate::report::{self, BattleRow, Run, Style};
use crate::{Failure, scenario};

/// The most battles one sweep plays.
const MAX_BATTLES: usize = 2_500;

/// What a sweep varies.
enum Axis {
    /// Every ship of the list against every ship of it.
    Ships(Vec<String>),
    /// Side A against side B, with the option at each value.
    Option {
        name: String,
        values: Vec<i64>,
        a: Vec<String>,
        b: Vec<String>,
    },
}

pub fn sweep_command(id: &str, m: &ArgMatches, out: &mut dyn Write) -> Result<(), Failure> {
    start_run(m)?;
    let system = load(id, m)?;
    let trials = m.get_one::<u64>("trials").copied().unwrap_or(1000);
    let max_turns = m
        .get_one::<u32>("max-turns")
        .copied()
        .unwrap_or(cli::DEFAULT_MAX_TURNS);
    let seed = m.get_one::<u64>("seed").copied().unwrap_or_else(fresh_seed);
    let options = system_options(m, system.battle_options());
    options.validate(system.battle_options())?;
    let axis = axis(system.as_ref(), m)?;
    let requests: Vec<(String, BattleRequest)> = match &axis {
        Axis::Ships(ships) => ships
            .iter()
            .flat_map(|a| ships.iter().map(move |b| (a, b)))
            .map(|(a, b)| {
                let request = BattleRequest::duel(a, b, max_turns, options.clone());
                (String::new(), request)
            })
            .collect(),
        Axis::Option { name, values, a, b } => values
            .iter()
            .map(|&value| {
                let mut request = BattleRequest {
                    sides: [a.clone(), b.clone()],
                    max_turns,
                    options: options.clone(),
                    side_options: Default::default(),
                };
                request.options.set(name, OptionValue::Number(value));
                (format!("{name} {value}"), request)
            })
            .collect(),
    };
    if requests.len() > MAX_BATTLES {
        return Err(Failure::Input(format!(
            "the sweep would play {} battles, more than {MAX_BATTLES}: name fewer --ships or a shorter range",
            requests.len()
        )));
    }
    // Every battle is set up before any is played, so a pair the rules
    // refuse is reported before minutes of trials.
    let engagements = requests
        .iter()
        .map(|(label, request)| {
            system.prepare_battle(request).map_err(|e| {
                let what = if label.is_empty() {
                    format!("{} against {}", request.sides[0][0], request.sides[1][0])
                } else {
                    label.clone()
                };
                Failure::Input(crate::one_line(&format!("{what}: {e}")))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut rows = Vec::with_capacity(requests.len());
    for ((label, request), engagement) in requests.iter().zip(&engagements) {
        let roster = engagement.roster();
        let progress = if label.is_empty() { id } else { label.as_str() };
        let summary = run_with_progress(progress, &**engagement, seed, trials)?;
        rows.push(BattleRow::new(
            system.as_ref(),
            roster.label(Side::A),
            roster.label(Side::B),
            request,
            summary,
        ));
    }
    let rules = m.get_one::<String>("rules").map(String::as_str);
    let run = Run {
        seed,
        max_turns,
        rules,
    };
    let style = match (format(m), &axis) {
        ("text", _) => Style::Text,
        ("markdown", _) => Style::Markdown,
        ("html", Axis::Ships(ships)) => {
            let heading = format!("{id} sweep: every ship against every ship");
            return report::sweep_html(&heading, ships, &rows, &run, out);
        }
        ("html", Axis::Option { name, values, .. }) => {
            // One row of the page per value, named by it, as compare names
            // its rows by system.
            for (row, value) in rows.iter_mut().zip(values) {
                row.system = format!("{name} {value}");
            }
            let heading = format!("{id} sweep over {name}");
            let title = report::ScenarioTitle {
                name: &heading,
                description: "",
            };
            return report::compare("html", &title, &rows, trials, &run, out);
        }
        (other, _) => {
            let name = match &axis {
                Axis::Ships(_) => format!("{id} sweep: every ship against every ship"),
                Axis::Option { name, .. } => format!("{id} sweep over {name}"),
            };
            let title = report::ScenarioTitle {
                name: &name,
                description: "",
            };
            return report::compare(other, &title, &rows, trials, &run, out);
        }
    };
    writeln!(
        out,
        "{id} sweep: {trials} trials a battle, seed {seed}, at most {max_turns} turns"
    )?;
    writeln!(out)?;
    match &axis {
        Axis::Ships(ships) => {
            writeln!(
                out,
                "the chance that the row's ship (A) beats the column's (B)"
            )?;
            let mut headers = vec!["A \\ B".to_owned()];
            headers.extend(ships.iter().cloned());
            let mut table = style.table(&headers);
            for (a, cells) in ships.iter().zip(rows.chunks(ships.len())) {
                let mut line = vec![a.clone()];
                line.extend(
                    cells
                        .iter()
                        .map(|row| report::percent(&row.summary.outcomes.a_wins)),
                );
                style.row(&mut table, line);
            }
            writeln!(out, "{table}")?;
        }
        Axis::Option { name, values, .. } => {
            let mut table = style.table(&[name.as_str(), "A wins", "B wins", "draw", "undecided"]);
            for (value, row) in values.iter().zip(&rows) {
                let o = &row.summary.outcomes;
                style.row(
                    &mut table,
                    vec![
                        value.to_string(),
                        report::percent(&o.a_wins),
                        report::percent(&o.b_wins),
                        report::percent(&o.draws),
                        report::percent(&o.undecided),
                    ],
                );
            }
            writeln!(out, "{table}")?;
        }
    }
    Ok(())
}

/// The sweep's axis from `--ships`, `--vary` and the sides.
fn axis(system: &dyn Ruleset, m: &ArgMatches) -> Result<Axis, Failure> {
    let side = |key: &str| -> Result<Vec<String>, Failure> {
        let text = m.get_one::<String>(key).map_or("", String::as_str);
        let ships = broadside_core::parse_side(text)
            .map_err(|e| Failure::Input(crate::one_line(&format!("side {key}: {e}"))))?;
        scenario::check_ids(system, &ships)
            .map_err(|e| Failure::Input(crate::one_line(&format!("side {key}: {e}"))))?;
        Ok(ships)
    };
    let Some(vary) = m.get_one::<String>("vary") else {
        if m.contains_id("a") {
            return Err(Failure::Input(
                "sides are swept only with --vary NAME=FROM..TO; use --ships to play ships against each other".into(),
            ));
        }
        let ships: Vec<String> = match m.get_many::<String>("ships") {
            Some(ids) => ids.cloned().collect(),
            None => system.ships().iter().map(|s| s.id().to_owned()).collect(),
        };
        scenario::check_ids(system, &ships).map_err(|e| Failure::Input(crate::one_line(&e)))?;
        if ships.len() * ships.len() > MAX_BATTLES {
            return Err(Failure::Input(format!(
                "{} ships make {} battles, more than {MAX_BATTLES}: name fewer --ships",
                ships.len(),
                ships.len() * ships.len()
            )));
        }
        return Ok(Axis::Ships(ships));
    };
    let bad = || {
        Failure::Input(crate::one_line(&format!(
            "--vary: '{vary}' is not NAME=FROM..TO (for example start-range=2..20)"
        )))
    };
    let (name, range) = vary.split_once('=').ok_or_else(bad)?;
    let (from, to) = range.split_once("..").ok_or_else(bad)?;
    let from: i64 = from.trim().parse().map_err(|_| bad())?;
    let to: i64 = to.trim().parse().map_err(|_| bad())?;
    let spec = system
        .battle_options()
        .iter()
        .find(|spec| spec.name == name);
    let (min, max) = match spec.map(|spec| spec.kind) {
        Some(OptionKind::Number { min, max }) => (min, max),
        Some(_) => {
            return Err(Failure::Input(format!(
                "--vary: {name} is not a number option"
            )));
        }
        None => {
            let known = system
                .battle_options()
                .iter()
                .filter(|spec| matches!(spec.kind, OptionKind::Number { .. }))
                .map(|spec| spec.name);
            let unknown = broadside_core::ResolveError::unknown("number option", name, known);
            return Err(Failure::Input(format!("--vary: {unknown}")));
        }
    };
    if from > to || from < min || to > max {
        return Err(Failure::Input(format!(
            "--vary: {from}..{to} is not a range within {name}'s {min}..={max}"
        )));
    }
    if m.contains_id(name) {
        return Err(Failure::Input(format!(
            "--vary {name} and --{name} are both given: drop one"
        )));
    }
    if to.abs_diff(from) >= MAX_BATTLES as u64 {
        return Err(Failure::Input(format!(
            "--vary: {from}..{to} is more than {MAX_BATTLES} battles"
        )));
    }
    Ok(Axis::Option {
        name: name.to_owned(),
        values: (from..=to).collect(),
        a: side("a")?,
        b: side("b")?,
    })
}

//! Generated inputs against the contract: whatever a data file, a scenario or a command line holds, Broadside answers (exit 0 with output, or exit 2 with a located `error:` line) and never panics or fails inside.
//!
//! Three harnesses, each a property test:
//! - rule data: each system's built-in files with one mutation (a number set
//!   to an extreme, a line dropped or doubled, the file cut short, a string
//!   made long or given control characters), loaded through the system's
//!   registered loader (the library entry point a fuzzer would call), and,
//!   when it loads, its ships listed and a short battle set up and played;
//! - scenarios: scenario files built from good and bad pieces, read by the
//!   scenario reader as a library function (`parse_settings`, the entry
//!   point a fuzzer would call) and run through `compare`;
//! - command lines: argument vectors from the commands, systems, ships and
//!   flags, good and bad, through the binary.
//!
//! CI runs a few hundred cases in all from a fixed seed, so a run is
//! repeatable. `BROADSIDE_FUZZ_CASES=N` runs N cases of each from a fresh
//! seed (see docs/testing.md).

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use broadside_core::{BattleRequest, EventLog, Options, Registration, SourceFile, play_trial};
use common::{ScenarioFile, fuzz_config as config, run_cli};
use proptest::prelude::*;

/// Every system, as the binary registers it.
const SYSTEMS: [Registration; 4] = [
    broadside_percentile::REGISTRATION,
    broadside_action_d10::REGISTRATION,
    broadside_module_grid::REGISTRATION,
    broadside_crew_2d6::REGISTRATION,
];

/// Numbers at the edges of what a data file could hold.
const EXTREMES: [&str; 9] = [
    "0",
    "-1",
    "1",
    "-9223372036854775808",
    "9223372036854775807",
    "1000000",
    "-1000000",
    "255",
    "65536",
];

/// Text that could break a message, a table or an id.
fn odd_text(which: usize) -> String {
    match which % 5 {
        0 => String::new(),
        1 => "x".repeat(5_000),
        2 => "a\nb\u{1b}[31mc\td".to_owned(),
        3 => "1d6-100".to_owned(),
        _ => "0d0+999999999".to_owned(),
    }
}

/// One change to a file's text: what kind, where (as a share of the
/// candidates) and which value.
#[derive(Debug, Clone, Copy)]
struct Mutation {
    kind: usize,
    at: usize,
    value: usize,
}

/// The byte spans of the whole numbers written in `text`.
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = if i > 0 && bytes[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// The byte spans of the insides of the double-quoted strings of `text`.
fn strings(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut open = None;
    for (i, c) in text.char_indices() {
        if c == '"' {
            match open.take() {
                Some(start) => spans.push((start, i)),
                None => open = Some(i + 1),
            }
        } else if c == '\n' {
            open = None;
        }
    }
    spans
}

fn mutate(text: &str, m: Mutation) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let replace =
        |spans: Vec<(usize, usize)>, with: &str| match spans.get(m.at % spans.len().max(1)) {
            Some(&(start, end)) => format!("{}{with}{}", &text[..start], &text[end..]),
            None => text.to_owned(),
        };
    match m.kind % 5 {
        0 => replace(numbers(text), EXTREMES[m.value % EXTREMES.len()]),
        1 => replace(strings(text), &odd_text(m.value)),
        2 => {
            let drop = m.at % lines.len().max(1);
            lines
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != drop)
                .map(|(_, line)| *line)
                .collect::<Vec<_>>()
                .join("\n")
        }
        3 => {
            let twice = m.at % lines.len().max(1);
            let mut out = Vec::with_capacity(lines.len() + 1);
            for (i, line) in lines.iter().enumerate() {
                out.push(*line);
                if i == twice {
                    out.push(*line);
                }
            }
            out.join("\n")
        }
        _ => {
            let mut cut = m.at % text.len().max(1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text[..cut].to_owned()
        }
    }
}

/// Loads a system's data with one file mutated and, if it loads, uses it:
/// lists its ships and tables and plays a few short trials of its first two
/// ships. Errors are answers; a panic is the failure.
fn check_ruleset(system: usize, file: usize, m: Mutation) -> Result<(), String> {
    let registration = SYSTEMS[system % SYSTEMS.len()];
    let mut files = registration.embedded_sources();
    let at = file % files.len();
    files[at].text = mutate(&files[at].text, m);
    let name = files[at].name.clone();
    let what = format!("{} {name} {m:?}", registration.id);
    let outcome = catch_unwind(AssertUnwindSafe(|| use_ruleset(&registration, &files)));
    outcome.map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        format!("{what}: panicked: {message}")
    })
}

fn use_ruleset(registration: &Registration, files: &[SourceFile]) {
    let Ok(system) = (registration.load)(files) else {
        return;
    };
    let ships: Vec<String> = system.ships().iter().map(|s| s.id().to_owned()).collect();
    for table in system.tables() {
        for row in &table.rows {
            let _ = table.cell(&row.label, None);
        }
    }
    let (Some(a), Some(b)) = (ships.first(), ships.get(1)) else {
        return;
    };
    let request = BattleRequest::duel(a, b, 5, Options::new());
    let Ok(battle) = system.prepare_battle(&request) else {
        return;
    };
    for trial in 0..3 {
        let _ = play_trial(&*battle, 7, trial, &mut EventLog::default());
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn mutated_rule_data_never_panics(
        system in 0usize..4,
        file in 0usize..16,
        kind in 0usize..5,
        at in 0usize..100_000,
        value in 0usize..64,
    ) {
        let m = Mutation { kind, at, value };
        if let Err(problem) = check_ruleset(system, file, m) {
            prop_assert!(false, "{}", problem);
        }
    }
}

/// Asserts the CLI contract for one run: exit 0 with something on stdout,
/// or exit 2 with a first line `error: ...`; never a panic or exit 1.
fn check_contract(args: &[&str], code: i32, stdout: &str, stderr: &str) -> Result<(), String> {
    let shown = || format!("{args:?}: exit {code}\nstdout: {stdout:.300}\nstderr: {stderr:.600}");
    if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
        return Err(format!("panicked: {}", shown()));
    }
    match code {
        0 if !stdout.is_empty() => Ok(()),
        2 if stdout.is_empty() && stderr.starts_with("error: ") => Ok(()),
        _ => Err(shown()),
    }
}

/// Pieces of a scenario, good and bad.
const SCENARIO_SIDES: [&str; 8] = [
    "\"destroyer\"",
    "\"3xfrigate,destroyer\"",
    "[\"2xfrigate\", \"destroyer\"]",
    "{ ships = \"frigate\" }",
    "\"battlship\"",
    "\"0xfrigate\"",
    "42",
    "\"25xfighter\"",
];
const SCENARIO_OPTIONS: [&str; 8] = [
    "",
    "start-range = 10",
    "start-range = false",
    "start-range = \"12\"",
    "start-range = -4",
    "warp = 3",
    "rules = \"no-such-folder\"",
    "start-range = 9223372036854775807",
];
const SCENARIO_HEADS: [&str; 6] = [
    "name = \"generated\"",
    "name = \"generated\"\ntrials = 3\nseed = 1",
    "name = \"generated\"\ntrials = 0",
    "",
    "name = 5",
    "name = \"generated\"\nmax-turns = 100000",
];
const SCENARIO_SYSTEMS: [&str; 5] = [
    "percentile",
    "action-d10",
    "module-grid",
    "crew-2d6",
    "warp-drive",
];

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn generated_scenarios_answer_by_the_contract(
        head in 0usize..SCENARIO_HEADS.len(),
        system in 0usize..SCENARIO_SYSTEMS.len(),
        a in 0usize..SCENARIO_SIDES.len(),
        b in 0usize..SCENARIO_SIDES.len(),
        option in 0usize..SCENARIO_OPTIONS.len(),
        cut in proptest::option::of(0usize..400),
    ) {
        let mut text = format!(
            "{}\n[systems.{}]\na = {}\nb = {}\n{}\n",
            SCENARIO_HEADS[head],
            SCENARIO_SYSTEMS[system],
            SCENARIO_SIDES[a],
            SCENARIO_SIDES[b],
            SCENARIO_OPTIONS[option],
        );
        if let Some(cut) = cut {
            text.truncate(cut.min(text.len()));
        }
        // The reader answers every text: its settings, or problems each
        // naming the scenario.
        match catch_unwind(|| broadside_cli::scenario::parse_settings(&text, "scenario fuzz.toml")) {
            Err(_) => prop_assert!(false, "the scenario reader panicked on\n{}", text),
            Ok(Err(message)) => prop_assert!(
                message.starts_with("scenario fuzz.toml"),
                "a problem not naming its scenario: {}\n{}",
                message,
                text
            ),
            Ok(Ok(_)) => {}
        }
        let file = ScenarioFile::new("fuzz", &text);
        let args = ["compare", file.path(), "-n", "3", "--max-turns", "5", "-f", "json"];
        let (code, stdout, stderr) = run_cli(&args);
        if let Err(problem) = check_contract(&args, code, &stdout, &stderr) {
            prop_assert!(false, "{}\n{}", problem, text);
        }
    }
}

/// Words a command line is built from: commands, systems, ships, flags and
/// values, good and bad.
const WORDS: [&str; 48] = [
    "systems",
    "ships",
    "table",
    "resolve",
    "battle",
    "duel",
    "compare",
    "sweep",
    "merge",
    "completions",
    "man",
    "help",
    "percentile",
    "action-d10",
    "module-grid",
    "crew-2d6",
    "destroyer",
    "frigate",
    "3xfrigate,destroyer",
    "escort",
    "scout",
    "battlship",
    "damage-table",
    "83",
    "--attacker",
    "--target",
    "--weapon",
    "torpedo",
    "--range",
    "3",
    "--range-band",
    "short",
    "--dice",
    "1,2,3",
    "--seed",
    "-1",
    "--replay",
    "2",
    "--find",
    "b-wins",
    "--format",
    "json",
    "csv",
    "--vary",
    "start-range=2..4",
    "--ships",
    "\u{1b}[2J\n",
    "99999999999999999999",
];

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn generated_command_lines_answer_by_the_contract(
        words in proptest::collection::vec(0usize..WORDS.len(), 0..8),
    ) {
        let mut args: Vec<&str> = words.iter().map(|&w| WORDS[w]).collect();
        // Runs stay short: few trials and turns, however the line reads.
        if matches!(args.first(), Some(&("battle" | "duel" | "compare" | "sweep"))) {
            args.extend(["-n", "3", "--max-turns", "5"]);
        }
        let (code, stdout, stderr) = run_cli(&args);
        if let Err(problem) = check_contract(&args, code, &stdout, &stderr) {
            prop_assert!(false, "{}", problem);
        }
    }
}

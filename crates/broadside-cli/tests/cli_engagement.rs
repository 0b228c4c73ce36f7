//! End-to-end tests of `broadside duel` and `broadside compare` over the real binary: formats, seeds, replays, scenario files and every bad input.
//!
//! The figures are seeded, so each run of a command with the same seed must print the same bytes,
//! and a replayed trial must be the trial the library plays for that seed.

mod common;

use common::{
    RulesetCopy, ScenarioFile, check_cli, check_cli_data_error, check_cli_error,
    check_cli_scenario_error, cli_json, cli_ok, duel, duel_trial,
};
use serde_json::{Value, json};

const DUEL: &[&str] = &[
    "duel",
    "percentile",
    "destroyer",
    "frigate",
    "--trials",
    "200",
    "--seed",
    "5",
];

const COMPARE: &[&str] = &["compare", "--trials", "200", "--seed", "5"];

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

/// Asserts that a proportion is `{"p": .., "ci95": [lo, hi]}` with
/// 0 <= lo <= p <= hi <= 1, and returns p.
fn proportion(value: &Value, what: &str) -> f64 {
    let p = value["p"]
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: no p in {value}"));
    let ci = value["ci95"]
        .as_array()
        .unwrap_or_else(|| panic!("{what}: no ci95 in {value}"));
    assert_eq!(ci.len(), 2, "{what}: ci95 is [lo, hi]");
    let (lo, hi) = (
        ci[0].as_f64().expect("a number"),
        ci[1].as_f64().expect("a number"),
    );
    assert!(
        (0.0..=1.0).contains(&lo) && lo <= p && p <= hi && hi <= 1.0,
        "{what}: {lo} <= {p} <= {hi} within [0, 1]"
    );
    p
}

/// Asserts the three outcomes a report must have, each a proportion, with
/// the counts of every outcome summing to the trials; returns the p of A
/// winning, B winning and undecided.
fn outcomes(value: &Value, trials: u64, what: &str) -> [f64; 3] {
    let o = &value["outcomes"];
    let ps = ["a_wins", "b_wins", "undecided"].map(|k| proportion(&o[k], &format!("{what} {k}")));
    let counted: u64 = [
        "a_wins",
        "b_wins",
        "undecided",
        "draws",
        "a_escapes",
        "b_escapes",
    ]
    .iter()
    .map(|k| o[k]["count"].as_u64().unwrap_or(0))
    .sum();
    assert_eq!(counted, trials, "{what}: every trial has one outcome");
    ps
}

// ---------------------------------------------------------------------------
// duel
// ---------------------------------------------------------------------------

/// The design brief's CLI contract: `duel` reports the odds of each outcome
/// with their 95% intervals, the seed and the generator; Advanced Game rules
/// throughout.
#[test]
fn duel_seeded_text() {
    check_cli(
        "cli_duel_destroyer_frigate_seed_5_text",
        "Design brief, CLI: broadside duel percentile destroyer frigate --trials 200 --seed 5 \
         reports each outcome's probability and 95% interval, with the seed and generator \
         printed; Advanced Game rules.",
        DUEL,
    );
}

/// The design brief's CLI contract: the JSON report has the system, the
/// trials, the seed and each outcome as `{"p", "ci95": [lo, hi]}`.
#[test]
fn duel_seeded_json() {
    let j = cli_json(&with(DUEL, &["--format", "json"]));
    assert_eq!(j["system"], "percentile");
    assert_eq!(j["a"], "destroyer");
    assert_eq!(j["b"], "frigate");
    assert_eq!(j["trials"], 200);
    assert_eq!(j["seed"], 5);
    let [a, b, undecided] = outcomes(&j, 200, "duel");
    assert!(a + b + undecided <= 1.0 + 1e-9);
}

/// The design brief's CLI contract: CSV is a header and one row of the same
/// figures as the JSON.
#[test]
fn duel_seeded_csv_matches_the_json() {
    let csv = cli_ok(&with(DUEL, &["--format", "csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2, "{csv}");
    let header: Vec<&str> = lines[0].split(',').collect();
    let row: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(header.len(), row.len(), "{csv}");
    let field = |name: &str| -> &str {
        let i = header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name} in {csv}"));
        row[i]
    };
    assert_eq!(
        (field("system"), field("a"), field("b")),
        ("percentile", "destroyer", "frigate")
    );
    assert_eq!((field("trials"), field("seed")), ("200", "5"));
    let j = cli_json(&with(DUEL, &["--format", "json"]));
    for (column, key) in [
        ("p_a_wins", "a_wins"),
        ("p_b_wins", "b_wins"),
        ("p_undecided", "undecided"),
    ] {
        let from_csv: f64 = field(column).parse().expect("a number");
        let from_json = j["outcomes"][key]["p"].as_f64().expect("a number");
        assert!(
            (from_csv - from_json).abs() < 1e-4,
            "{column}: {from_csv} against {from_json}"
        );
    }
}

/// The design brief, Dice: a run is repeated exactly by its seed.
#[test]
fn duel_same_seed_same_bytes() {
    for format in ["text", "json", "csv"] {
        let args = with(DUEL, &["--format", format]);
        assert_eq!(cli_ok(&args), cli_ok(&args), "{format}");
    }
    let other = with(
        &[
            "duel",
            "percentile",
            "destroyer",
            "frigate",
            "--trials",
            "200",
        ],
        &["--seed", "6", "--format", "json"],
    );
    assert_ne!(
        cli_json(&with(DUEL, &["--format", "json"]))["outcomes"],
        cli_json(&other)["outcomes"],
        "another seed plays other games"
    );
}

/// The design brief, Events: `--replay K` re-runs trial K of the seeded run
/// with a sink that keeps everything, so it prints the same events, in the
/// same order, as the library's trial K; and it is the same every time.
#[test]
fn duel_replay_prints_the_whole_log_of_that_trial() {
    let args = with(DUEL, &["--replay", "9"]);
    let text = cli_ok(&args);
    assert_eq!(text, cli_ok(&args), "a replay repeats exactly");
    let (outcome, events) = duel_trial(&duel("destroyer", "frigate", 12, 50), 5, 9);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "percentile battle destroyer (A) against frigate (B), seed 5 (Xoshiro256++), trial 9"
    );
    let expected: Vec<String> = events.iter().map(ToString::to_string).collect();
    // The events, then the outcome, then one line per ship.
    let fates = outcome.ships.len();
    assert_eq!(&lines[1..lines.len() - 1 - fates], expected.as_slice());
    let last = lines[lines.len() - 1 - fates];
    assert!(
        last.starts_with("outcome: ") && last.ends_with(&format!("after {} turns", outcome.turns)),
        "{last}"
    );
    assert_eq!(
        &lines[lines.len() - fates..],
        [
            "  destroyer (A): in the fight, hull 36 of 50",
            "  frigate (B): destroyed, hull 0 of 40"
        ]
    );

    let j = cli_json(&with(&args, &["--format", "json"]));
    assert_eq!(j["seed"], 5);
    assert_eq!(j["trial"], 9);
    assert_eq!(j["events"], serde_json::to_value(&events).expect("events"));
    assert_eq!(
        j["outcome"],
        serde_json::to_value(&outcome).expect("outcome")
    );
}

/// Bad input to `duel`: an unknown ship and zero trials, each refused with
/// one `error:` line and exit code 2 (design brief, CLI).
#[test]
fn duel_bad_input() {
    check_cli_error(
        &[
            "duel",
            "percentile",
            "destroyer",
            "dreadnought",
            "--trials",
            "10",
            "--seed",
            "5",
        ],
        "unknown ship 'dreadnought'",
    );
    check_cli_error(
        &[
            "duel",
            "percentile",
            "destroyer",
            "frigate",
            "--trials",
            "0",
            "--seed",
            "5",
        ],
        "--trials",
    );
}

// ---------------------------------------------------------------------------
// compare
// ---------------------------------------------------------------------------

/// The design brief, CLI: `compare` with no scenario runs the built-in one,
/// a row per system, with the percentile system among them.
#[test]
fn compare_default_scenario() {
    let text = cli_ok(COMPARE);
    assert!(
        text.lines().next().is_some_and(
            |l| l.ends_with(": 200 trials each, seed 5 (Xoshiro256++), at most 50 turns")
        ),
        "{text}"
    );
    assert!(text.contains("percentile"), "{text}");
    assert_eq!(text, cli_ok(COMPARE), "the same seed prints the same bytes");

    let j = cli_json(&with(COMPARE, &["--format", "json"]));
    assert!(j["scenario"].as_str().is_some_and(|s| !s.is_empty()), "{j}");
    assert_eq!(j["trials"], 200);
    assert_eq!(j["seed"], 5);
    let rows = j["rows"].as_array().expect("rows");
    assert!(!rows.is_empty());
    for row in rows {
        let system = row["system"].as_str().expect("each row names its system");
        outcomes(row, 200, system);
    }
    assert!(rows.iter().any(|r| r["system"] == "percentile"));

    let csv = cli_ok(&with(COMPARE, &["--format", "csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), rows.len() + 1, "{csv}");
    assert!(lines[0].starts_with("system,a,b,trials,seed,"), "{csv}");
    for (line, row) in lines[1..].iter().zip(rows) {
        let system = row["system"].as_str().expect("a system");
        assert!(line.starts_with(&format!("{system},")), "{line}");
    }
}

const SCENARIO: &str = r#"
name = "destroyer and frigate, close"
description = "A test scenario: the percentile ships 12 hexes apart."

[systems.percentile]
a = "destroyer"
b = "frigate"
start-range = 12
"#;

/// The design brief, CLI: `compare SCENARIO` reads a scenario file; its
/// percentile row is the same duel `duel` plays with the same ships, start
/// range, trials and seed.
#[test]
fn compare_a_scenario_file() {
    let file = ScenarioFile::new("compare", SCENARIO);
    let args = with(&["compare", file.path()], &COMPARE[1..]);
    let text = cli_ok(&args);
    assert!(
        text.starts_with("destroyer and frigate, close: 200 trials each, seed 5"),
        "{text}"
    );
    let j = cli_json(&with(&args, &["--format", "json"]));
    assert_eq!(j["scenario"], "destroyer and frigate, close");
    let rows = j["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 1, "one system in the scenario, one row");
    assert_eq!(rows[0]["system"], "percentile");
    outcomes(&rows[0], 200, "percentile");
    let duel_json = cli_json(&with(DUEL, &["--start-range", "12", "--format", "json"]));
    assert_eq!(rows[0]["outcomes"], duel_json["outcomes"]);

    let csv = cli_ok(&with(&args, &["--format", "csv"]));
    let duel_csv = cli_ok(&with(DUEL, &["--start-range", "12", "--format", "csv"]));
    assert_eq!(csv, duel_csv, "the same row, header and all");
}

/// `compare` names every registered system a scenario has no section for,
/// after the table in text and markdown and as `left_out` in JSON, so that
/// no system is skipped silently; the built-in scenario leaves none out.
#[test]
fn compare_names_the_systems_a_scenario_leaves_out() {
    let file = ScenarioFile::new("left-out", SCENARIO);
    let args = with(
        &["compare", file.path()],
        &["--trials", "20", "--seed", "5"],
    );
    let others: Vec<&str> = broadside_cli::registry::RULESETS
        .iter()
        .map(|registration| registration.id)
        .filter(|&id| id != "percentile")
        .collect();
    assert!(
        !others.is_empty(),
        "a scenario of one system leaves some out"
    );
    let line = format!("not in this scenario: {}", others.join(", "));

    let text = cli_ok(&args);
    assert_eq!(text.lines().last(), Some(line.as_str()), "{text}");
    let markdown = cli_ok(&with(&args, &["--format", "markdown"]));
    assert_eq!(markdown.lines().last(), Some(line.as_str()), "{markdown}");
    let j = cli_json(&with(&args, &["--format", "json"]));
    assert_eq!(j["left_out"], json!(others), "{j}");

    let built_in = ["compare", "--trials", "20", "--seed", "5"];
    assert!(!cli_ok(&built_in).contains("not in this scenario"));
    let j = cli_json(&with(&built_in, &["--format", "json"]));
    assert_eq!(
        j["left_out"],
        json!([]),
        "the built-in scenario plays every system"
    );
}

/// Bad input to `compare`, each refused with one `error:` line and exit
/// code 2 naming what and where (design brief, CLI): a scenario that cannot
/// be read, one that is not TOML, one naming an unknown system, one giving a
/// system an option it does not have, one naming an unknown ship, one with
/// an option out of range.
#[test]
fn compare_bad_scenarios() {
    let file = ScenarioFile::new("missing", SCENARIO);
    let missing = file.missing();
    check_cli_error(
        &["compare", &missing, "--trials", "5"],
        "cannot read scenario",
    );

    let cases: [(&str, &str, &str); 5] = [
        (
            "syntax",
            "name = \"broken\"\n[systems.percentile\na = \"destroyer\"\n",
            "scenario ",
        ),
        (
            "system",
            "name = \"x\"\n[systems.warp-drive]\na = \"destroyer\"\nb = \"frigate\"\n",
            "systems.warp-drive: unknown system",
        ),
        (
            "option",
            "name = \"x\"\n[systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\nwarp = 3\n",
            "line 5, column 8: systems.percentile.warp: unknown option 'warp'",
        ),
        (
            "ship",
            "name = \"x\"\n[systems.percentile]\na = \"destroyer\"\nb = \"dreadnought\"\n",
            "line 4, column 5: systems.percentile.b: unknown ship 'dreadnought'",
        ),
        (
            "range",
            "name = \"x\"\n[systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\nstart-range = 500\n",
            "start-range",
        ),
    ];
    for (tag, text, fragment) in cases {
        let file = ScenarioFile::new(tag, text);
        check_cli_scenario_error(&["compare", file.path(), "--trials", "5"], fragment);
        check_cli_scenario_error(&["compare", file.path(), "--trials", "5"], file.path());
    }
}

/// Every bad battle option of a scenario is reported, each at its own line
/// and under its key path, with no command-line flag in the message; a
/// value only the system can judge (a body's hex) is placed at its key too.
#[test]
fn every_bad_option_of_a_scenario_is_reported_at_its_line() {
    let file = ScenarioFile::new(
        "options",
        "name = \"x\"\n[systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\nstart-range = 300\n\
         [systems.action-d10]\na = \"destroyer\"\nb = \"frigate\"\nescape-below = 500\nstart-range = 999\n",
    );
    let (code, _, stderr) = common::run_cli(&["compare", file.path(), "--trials", "5"]);
    assert_eq!(code, 2, "{stderr}");
    for expected in [
        "has 3 problems",
        "line 5, column 15: systems.percentile.start-range: 300 is outside 0..=200",
        "line 9, column 16: systems.action-d10.escape-below: 500 is outside 0..=100",
        "line 10, column 15: systems.action-d10.start-range: 999 is outside 0..=200",
    ] {
        assert!(stderr.contains(expected), "{expected}:\n{stderr}");
    }
    assert!(!stderr.contains("--"), "{stderr}");
    let body = ScenarioFile::new(
        "body",
        "name = \"x\"\n[systems.action-d10]\na = \"destroyer\"\nb = \"frigate\"\ngravity-well = \"5\"\n",
    );
    check_cli_scenario_error(
        &["compare", body.path(), "--trials", "5"],
        "line 5, column 16: systems.action-d10.gravity-well: '5': write a hex as q,r",
    );
}

/// A TOML error whose faulty token starts its line names that line, not the
/// one before: an unknown key on line 2 and a duplicate key on line 4 of a
/// scenario.
#[test]
fn scenario_errors_name_the_line_of_a_token_that_starts_it() {
    let cases = [
        (
            "unknown-key-line",
            "name = \"x\"\nturns = 1\n[systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\n",
            "line 2, column 1: unknown field",
        ),
        (
            "duplicate-key-line",
            "name = \"x\"\n[systems.percentile]\na = \"destroyer\"\na = \"frigate\"\n",
            "line 4, column 1: duplicate key",
        ),
    ];
    check_scenario_errors(&cases);
}

/// `--replay K` replays a trial of the run, so K must be below `--trials`
/// (10,000 when not given); a K past the run is bad input, not a log of a
/// trial the run never had.
#[test]
fn a_replay_past_the_run_is_refused() {
    check_cli_error(
        &[
            "duel",
            "percentile",
            "destroyer",
            "frigate",
            "--trials",
            "8",
            "--seed",
            "7",
            "--replay",
            "8",
        ],
        "--replay 8 is not a trial of this run: its trials are 0 to 7",
    );
    check_cli_error(
        &[
            "duel",
            "percentile",
            "destroyer",
            "frigate",
            "--replay",
            "10000",
        ],
        "--trials 10000",
    );
}

/// A scenario is as strict as the command line: one that names no system is
/// an error, and an option's value must have the option's type.
#[test]
fn scenarios_are_as_strict_as_the_command_line() {
    let cases = [
        (
            "no-systems",
            "name = \"x\"\n[systems]\n",
            "names no system to run",
        ),
        (
            "false-range",
            "name = \"x\"\n[systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\nstart-range = false\n",
            "systems.percentile.start-range: false is not a whole number",
        ),
        (
            "string-range",
            "name = \"x\"\n[systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\nstart-range = \"12\"\n",
            "systems.percentile.start-range: \"12\" is not a whole number",
        ),
    ];
    check_scenario_errors(&cases);
}

/// CSV fields are quoted where they must be: a side of two ships, whose
/// field holds a comma, stays one field.
#[test]
fn csv_quotes_sides_that_need_it() {
    let csv = cli_ok(&[
        "battle",
        "percentile",
        "battleship,frigate",
        "frigate",
        "--trials",
        "20",
        "--seed",
        "7",
        "--format",
        "csv",
    ]);
    let row = csv.lines().nth(1).expect("a data row");
    assert!(
        row.starts_with("percentile,\"battleship,frigate\",frigate,20,7,"),
        "{row}"
    );
}

/// An id that a command line or a side string could not carry whole (a
/// quote, a comma, a space, a capital) is refused when the data is read,
/// with the file, the line and the line's text; the kebab-case id is
/// suggested.
#[test]
fn ids_must_be_kebab_case() {
    for (written, id, suggested) in [
        ("['fri\"gate']", "fri\"gate", "fri-gate"),
        ("['Big Frigate']", "Big Frigate", "big-frigate"),
        ("['frigate,2']", "frigate,2", "frigate-2"),
        // A newline, written escaped in a quoted key, stays escaped in the
        // one-line message.
        ("[\"fri\\ngate\"]", "fri\\ngate", "fri-gate"),
    ] {
        let copy = RulesetCopy::new("kebab-ids");
        copy.edit("ships.toml", "[frigate]", written);
        check_cli_data_error(
            &["ships", "percentile", "--rules", copy.path()],
            &[
                "ships.toml: line 33:",
                &format!("ship id '{id}' is not kebab-case"),
                &format!("as '{suggested}'"),
                &format!("33 | {written}"),
            ],
        );
    }
}

/// Each scenario `(tag, text, fragment)` is refused by `compare` with one
/// located line mentioning the fragment.
fn check_scenario_errors(cases: &[(&str, &str, &str)]) {
    for &(tag, text, fragment) in cases {
        let file = ScenarioFile::new(tag, text);
        check_cli_scenario_error(&["compare", file.path(), "--trials", "5"], fragment);
    }
}

/// `--find OUTCOME` replays the first trial of the run with that outcome:
/// the same log as `--replay K` for the K a trial-by-trial search finds, and
/// bad input when no trial of the run has it.
#[test]
fn find_replays_the_first_trial_with_an_outcome() {
    let run = [
        "battle",
        "percentile",
        "destroyer",
        "frigate",
        "-n",
        "60",
        "-s",
        "7",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        run.iter().chain(extra).map(|s| (*s).to_owned()).collect()
    };
    let args = with(&["--find", "b-wins", "-f", "json"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let found = cli_json(&args);
    let trial = found["trial"].as_u64().expect("the trial replayed");
    assert_eq!(
        found["outcome"]["verdict"],
        json!({"verdict": "winner", "side": "b"}),
        "{found}"
    );
    // No earlier trial ended with B winning.
    for earlier in 0..trial {
        let k = earlier.to_string();
        let args = with(&["--replay", &k, "-f", "json"]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let replay = cli_json(&args);
        assert_ne!(
            replay["outcome"]["verdict"], found["outcome"]["verdict"],
            "trial {k}"
        );
    }
    let k = trial.to_string();
    let args = with(&["--replay", &k]);
    let replayed = cli_ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let args = with(&["--find", "b-wins"]);
    assert_eq!(
        cli_ok(&args.iter().map(String::as_str).collect::<Vec<_>>()),
        replayed
    );
    let args = with(&["--find", "draw"]);
    check_cli_error(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        "--find draw: none of the 60 trials with seed 7 ended so",
    );
}

/// A replay names a ship that jumped away as such, not as one still in the
/// fight: a trader at an Alderson point jumps from a corvette (crew-2d6), and
/// both sides' ships jump below half their boxes (action-d10).
#[test]
fn a_replay_says_which_ships_jumped_away() {
    let crew = cli_ok(&[
        "battle",
        "crew-2d6",
        "trader",
        "corvette",
        "--jump-point",
        "a",
        "-n",
        "100",
        "-s",
        "2",
        "--find",
        "a-escapes",
    ]);
    assert!(crew.contains("trader (A): jumped away"), "{crew}");
    assert!(crew.contains("corvette (B): in the fight"), "{crew}");
    let d10 = cli_ok(&[
        "battle",
        "action-d10",
        "frigate",
        "destroyer",
        "-n",
        "100",
        "-s",
        "3",
        "--escape-below",
        "50",
        "--find",
        "draw",
    ]);
    assert!(d10.contains("frigate (A): jumped away"), "{d10}");
    assert!(d10.contains("destroyer (B): jumped away"), "{d10}");
}

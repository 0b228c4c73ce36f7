//! End-to-end tests of a designer's own data in every command: `--rules` over the built-in data, `rules export`, `compare --rules SYSTEM=DIR`, a scenario's `rules` key, and scenarios as whole set-ups (trials, seed, turn limit, standard input).

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{
    RulesetCopy, ScenarioFile, binary, check_cli_data_error, check_cli_error,
    check_cli_scenario_error, cli_json, cli_ok,
};
use serde_json::Value;

/// The frigate of the data of record, and the same frigate with twice the
/// hull, as a designer's own `ships.toml` would change it.
const FRIGATE: &str =
    "[frigate]\nname = \"Frigate\"\nsource = \"Advanced Game ship list\"\nhull = 40";
const BIG_FRIGATE: &str =
    "[frigate]\nname = \"Frigate\"\nsource = \"Advanced Game ship list\"\nhull = 80";

/// The JSON field `path` (dot-separated) of a command's report, checked
/// against the expected value.
fn check(args: &[&str], path: &str, expected: &Value) -> Value {
    let report = cli_json(args);
    let found = path
        .split('.')
        .fold(&report, |value, key| match key.parse::<usize>() {
            Ok(i) => &value[i],
            Err(_) => &value[key],
        });
    assert_eq!(found, expected, "{args:?}: {path}");
    report
}

/// A folder holding only `ships.toml`, with the big frigate.
fn big_frigate_folder(tag: &str) -> RulesetCopy {
    let copy = RulesetCopy::of("percentile", tag);
    copy.keep_only("ships.toml")
        .edit("ships.toml", FRIGATE, BIG_FRIGATE);
    copy
}

fn frigate_hull(ships: &Value) -> &Value {
    ships["ships"]
        .as_array()
        .and_then(|list| list.iter().find(|s| s["id"] == "frigate"))
        .map_or(&Value::Null, |frigate| &frigate["hull"])
}

#[test]
fn a_folder_with_only_ships_overlays_the_built_in_data() {
    let folder = big_frigate_folder("overlay");
    let ships = cli_json(&[
        "ships",
        "percentile",
        "--rules",
        folder.path(),
        "-f",
        "json",
    ]);
    assert_eq!(frigate_hull(&ships), &Value::from(80));
    // The weapons, tables and rules came from the built-in data.
    let torpedo = [
        "resolve",
        "percentile",
        "--attacker",
        "destroyer",
        "--weapon",
        "torpedo",
        "--target",
        "frigate",
        "--range",
        "3",
        "--exact",
        "-f",
        "json",
    ];
    let built_in = cli_json(&torpedo);
    let mut args = torpedo.to_vec();
    args.extend(["--rules", folder.path()]);
    check(&args, "exact.p_hit", &built_in["exact"]["p_hit"]);
}

#[test]
fn a_misspelt_data_file_is_refused_not_ignored() {
    let folder = big_frigate_folder("misspelt");
    folder.add("ship.toml", "");
    check_cli_error(
        &["ships", "percentile", "--rules", folder.path()],
        "unknown data file 'ship.toml' (did you mean 'ships.toml'?",
    );
}

#[test]
fn exported_rules_are_the_built_in_data_and_load_back() {
    let folder = RulesetCopy::of("percentile", "export");
    folder.keep_only("none");
    let target = format!("{}/mine", folder.path());
    let written = cli_ok(&["rules", "export", "percentile", &target]);
    assert_eq!(written.lines().count(), 6, "{written}");
    let built_in = cli_ok(&["ships", "percentile", "-f", "json"]);
    assert_eq!(
        cli_ok(&["ships", "percentile", "--rules", &target, "-f", "json"]),
        built_in
    );
    // A second export would overwrite the first: refused.
    check_cli_error(
        &["rules", "export", "percentile", &target],
        "rules export would overwrite",
    );
}

/// The destroyer against the frigate under percentile only.
const ONE_SYSTEM: &str = "name = \"destroyer and frigate\"\n\
                          [systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\n";

#[test]
fn compare_reads_a_system_s_folder_from_the_command_line() {
    let folder = big_frigate_folder("compare");
    let scenario = ScenarioFile::new("compare-rules", ONE_SYSTEM);
    let rules = format!("percentile={}", folder.path());
    let run = |extra: &[&str]| {
        let mut args = vec![
            "compare",
            scenario.path(),
            "-n",
            "200",
            "-s",
            "5",
            "-f",
            "json",
        ];
        args.extend_from_slice(extra);
        cli_json(&args)
    };
    let built_in = run(&[]);
    let custom = run(&["--rules", &rules]);
    assert_eq!(custom["rules"], Value::from(rules.as_str()));
    assert_eq!(built_in["rules"], Value::Null);
    let frigate_wins = |report: &Value| report["rows"][0]["outcomes"]["b_wins"]["count"].clone();
    assert!(
        frigate_wins(&custom).as_u64() > frigate_wins(&built_in).as_u64(),
        "a frigate with twice the hull wins more often: {} against {}",
        frigate_wins(&custom),
        frigate_wins(&built_in)
    );
    check_cli_error(
        &["compare", scenario.path(), "--rules", "percentil=x"],
        "did you mean 'percentile'?",
    );
    check_cli_error(
        &["compare", scenario.path(), "--rules", "x"],
        "is not SYSTEM=DIR",
    );
}

#[test]
fn a_scenario_names_its_rules_folder_beside_itself() {
    let scenario = ScenarioFile::new(
        "scenario-rules",
        "name = \"big frigate\"\n[systems.percentile]\nrules = \"my-ships\"\n\
         a = \"destroyer\"\nb = \"frigate\"\n",
    );
    let ships = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../rulesets/percentile/ships.toml"
    ))
    .expect("the data of record reads");
    scenario.beside(
        "my-ships",
        "ships.toml",
        &ships.replacen(FRIGATE, BIG_FRIGATE, 1),
    );
    let report = cli_json(&[
        "compare",
        scenario.path(),
        "-n",
        "50",
        "-s",
        "1",
        "-f",
        "json",
    ]);
    let rules = report["rules"].as_str().unwrap_or_default();
    assert!(
        rules.starts_with("percentile=") && rules.ends_with("my-ships"),
        "{rules}"
    );
    let battle = cli_json(&[
        "battle",
        "percentile",
        "--scenario",
        scenario.path(),
        "-n",
        "50",
        "-s",
        "1",
        "-f",
        "json",
    ]);
    assert!(
        battle["rules"]
            .as_str()
            .is_some_and(|r| r.ends_with("my-ships")),
        "{battle}"
    );
    assert_eq!(
        battle["outcomes"], report["rows"][0]["outcomes"],
        "battle and compare read the same folder"
    );
}

/// A scenario's trials, seed and turn limit hold unless the command line
/// says otherwise.
const WITH_SETTINGS: &str = "name = \"settled\"\ntrials = 120\nseed = 11\nmax-turns = 9\n\
                             [systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\n";

#[test]
fn a_scenario_carries_its_run_settings() {
    let scenario = ScenarioFile::new("settings", WITH_SETTINGS);
    let from_file = check(
        &["compare", scenario.path(), "-f", "json"],
        "trials",
        &Value::from(120),
    );
    assert_eq!(from_file["seed"], 11);
    assert_eq!(from_file["max_turns"], 9);
    let overridden = check(
        &[
            "compare",
            scenario.path(),
            "-n",
            "40",
            "--max-turns",
            "5",
            "-f",
            "json",
        ],
        "trials",
        &Value::from(40),
    );
    assert_eq!(
        (&overridden["seed"], &overridden["max_turns"]),
        (&Value::from(11), &Value::from(5))
    );
    // The same settings under `battle SYSTEM --scenario`.
    let battle = check(
        &[
            "battle",
            "percentile",
            "--scenario",
            scenario.path(),
            "-f",
            "json",
        ],
        "trials",
        &Value::from(120),
    );
    assert_eq!(battle["outcomes"], from_file["rows"][0]["outcomes"]);
    // And under `battle --scenario` with no system, which plays every
    // system of the file as compare does.
    let every = cli_json(&["battle", "--scenario", scenario.path(), "-f", "json"]);
    assert_eq!(every["rows"], from_file["rows"]);
    for (text, fragment) in [
        ("trials = 0", "trials: 0 is not in 1..="),
        ("max-turns = -3", "max-turns: -3 is not in 1..="),
        ("seed = \"x\"", "invalid type"),
    ] {
        let bad = ScenarioFile::new(
            "bad-settings",
            &format!(
                "name = \"x\"\n{text}\n[systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\n"
            ),
        );
        check_cli_scenario_error(&["compare", bad.path()], fragment);
        check_cli_scenario_error(&["compare", bad.path()], "line 2, column ");
    }
}

/// Runs the binary with `stdin` as its standard input: (exit code, stdout,
/// stderr).
fn run_with_stdin(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(binary())
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the broadside binary runs");
    child
        .stdin
        .take()
        .expect("a standard input")
        .write_all(stdin.as_bytes())
        .expect("the scenario is written");
    let output = child.wait_with_output().expect("the binary ends");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_scenario_is_read_from_standard_input() {
    let scenario = ScenarioFile::new("stdin", WITH_SETTINGS);
    let from_file = cli_ok(&["compare", scenario.path(), "-f", "json"]);
    let (code, from_stdin, stderr) = run_with_stdin(&["compare", "-", "-f", "json"], WITH_SETTINGS);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(from_stdin, from_file);
    let (code, _, stderr) = run_with_stdin(&["battle", "--scenario", "-"], "  \n");
    assert_eq!(code, 2);
    assert_eq!(stderr, "error: the scenario on standard input is empty\n");
}

#[test]
fn an_empty_scenario_is_an_error() {
    let empty = ScenarioFile::new("empty", "name = \"nothing\"\n# no systems\n");
    check_cli_error(&["compare", empty.path()], "names no system to run");
    let blank = ScenarioFile::new("blank", "");
    check_cli_error(&["compare", blank.path()], "is empty");
}

/// Reliability review, finding 8: an empty file that the others take names
/// from is one problem, not one for every name taken (an empty
/// `weapons.toml` gave 78).
#[test]
fn an_empty_file_is_one_problem() {
    for (system, file, what) in [
        ("percentile", "weapons.toml", "weapon"),
        ("percentile", "ships.toml", "ship"),
        ("action-d10", "weapons.toml", "weapon"),
        ("action-d10", "ships.toml", "ship"),
        ("module-grid", "modules.toml", "module type"),
        ("module-grid", "ships.toml", "ship"),
    ] {
        let copy = RulesetCopy::of(system, "empty-file");
        copy.add(file, "");
        check_cli_data_error(
            &["ships", system, "--rules", copy.path()],
            &[
                "has 1 problem(s):",
                &format!("{file}: defines no {what}: the rules need at least one"),
            ],
        );
    }
}

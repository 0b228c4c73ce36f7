//! End-to-end tests of `broadside battle` over the real binary: sides written
//! as fleets, the `duel` alias, per-side reports, and sides in scenario files.

mod common;

use common::{ScenarioFile, check_cli_error, cli_json, cli_ok, run_cli, workspace_file};
use serde_json::Value;

/// A seeded percentile battle of `a` against `b`, with `extra` arguments.
fn battle<'a>(system: &'a str, a: &'a str, b: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["battle", system, a, b, "--trials", "120", "--seed", "11"];
    args.extend_from_slice(extra);
    args
}

/// The per-side figures of a JSON report are consistent with the sides:
/// `ships_lost.a` has one entry more than side A has ships, every list sums
/// to the trials, and the hull rows name the side's ids.
fn check_side_figures(report: &Value, sizes: [usize; 2], trials: u64) {
    for (key, size) in ["a", "b"].into_iter().zip(sizes) {
        let lost = report["ships_lost"][key]
            .as_array()
            .unwrap_or_else(|| panic!("no ships_lost.{key} in {report}"));
        assert_eq!(lost.len(), size + 1, "side {key}: 0 to {size} ships lost");
        let sum: u64 = lost.iter().map(|n| n.as_u64().expect("a count")).sum();
        assert_eq!(sum, trials, "side {key}: the counts sum to the trials");
        let ships: u64 = report["mean_hull_left"]
            .as_array()
            .expect("hull rows")
            .iter()
            .filter(|row| row["side"] == key)
            .map(|row| row["ships"].as_u64().expect("a count"))
            .sum();
        assert!(
            ships >= size as u64,
            "side {key}: every ship has a hull row"
        );
    }
}

/// `duel` is another name for `battle`: the same arguments print the same
/// bytes.
#[test]
fn duel_is_an_alias_of_battle() {
    let args = battle("percentile", "destroyer", "frigate", &[]);
    let mut duel = args.clone();
    duel[0] = "duel";
    assert_eq!(cli_ok(&args), cli_ok(&duel));
}

/// A one-against-one battle reports ships lost per side as counts of trials
/// that sum to the trials, and names each side's ship in the hull rows.
#[test]
fn a_duel_reports_ships_lost_per_side() {
    let report = cli_json(&battle(
        "percentile",
        "destroyer",
        "frigate",
        &["--format", "json"],
    ));
    check_side_figures(&report, [1, 1], 120);
    assert_eq!(report["a"], "destroyer");
    assert_eq!(report["mean_hull_left"][1]["id"], "frigate");
    let csv = cli_ok(&battle(
        "percentile",
        "destroyer",
        "frigate",
        &["--format", "csv"],
    ));
    // The per-side columns keep the places they had before later columns
    // were added after them.
    let header: Vec<&str> = csv.lines().next().expect("a header").split(',').collect();
    assert_eq!(
        header[18..22],
        [
            "ships_lost_a",
            "ships_lost_b",
            "mean_hull_left_a",
            "mean_hull_left_b"
        ],
        "{header:?}"
    );
}

/// A side that cannot be read is bad input, exit code 2, naming the side.
#[test]
fn bad_sides_are_refused() {
    for (a, fragment) in [
        ("0xfrigate", "side A: '0xfrigate': a count is from 1 to 24"),
        (
            "25xfrigate",
            "side A: '25xfrigate': a count is from 1 to 24",
        ),
        ("frigate,", "side A: 'frigate,' has an empty entry"),
        (
            "20xfrigate,5xdestroyer",
            "side A: a side may have at most 24 ships",
        ),
        ("frigate,dreadnought", "unknown ship 'dreadnought'"),
    ] {
        check_cli_error(&battle("percentile", a, "frigate", &[]), fragment);
    }
}

/// A side in a scenario may be an id, a side string, a list or a table with
/// `ships`: written any of these ways, one destroyer plays the same battle.
#[test]
fn scenario_sides_in_every_form_play_the_same_battle() {
    let play = |tag: &str, side: &str| {
        let file = ScenarioFile::new(
            tag,
            &format!("name = \"forms\"\n[systems.percentile]\n{side}\nb = \"frigate\"\n"),
        );
        cli_ok(&[
            "battle",
            "percentile",
            "--scenario",
            file.path(),
            "--trials",
            "60",
            "--seed",
            "3",
            "--format",
            "json",
        ])
    };
    let id = play("form-id", "a = \"destroyer\"");
    assert_eq!(id, play("form-string", "a = \"1xdestroyer\""));
    assert_eq!(id, play("form-list", "a = [\"destroyer\"]"));
    assert_eq!(id, play("form-table", "a = { ships = \"destroyer\" }"));
    assert_eq!(
        id,
        cli_ok(&[
            "battle",
            "percentile",
            "destroyer",
            "frigate",
            "--trials",
            "60",
            "--seed",
            "3",
            "--format",
            "json"
        ])
    );
}

/// Every problem of a scenario, in every system, is reported before any
/// battle is played, each with its key and line.
#[test]
fn scenario_problems_are_all_reported_up_front() {
    let file = ScenarioFile::new(
        "many-problems",
        "name = \"x\"\n\
         [systems.percentile]\n\
         a = \"0xdestroyer\"\n\
         b = \"frigate\"\n\
         [systems.module-grid]\n\
         a = [\"destroyer\", 3]\n\
         b = { ship = \"frigate\" }\n\
         [systems.crew-2d6]\n\
         a = \"escort\"\n",
    );
    let (code, out, err) = run_cli(&["compare", file.path(), "--trials", "5"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "nothing is played: {out}");
    for fragment in [
        "has 4 problems",
        "line 3, column 5: systems.percentile.a: '0xdestroyer': a count is from 1 to 24",
        "line 6, column 5: systems.module-grid.a: a side is a ship id",
        "line 7, column 5: systems.module-grid.b: a side written as a table needs ships",
        "line 8, column 1: systems.crew-2d6: side B is missing",
    ] {
        assert!(err.contains(fragment), "{fragment} not in {err}");
    }
}

/// `battle --scenario` needs the system's own section.
#[test]
fn a_scenario_without_the_system_is_refused() {
    let file = ScenarioFile::new(
        "other-system",
        "name = \"x\"\n[systems.crew-2d6]\na = \"escort\"\nb = \"corvette\"\n",
    );
    check_cli_error(
        &["battle", "percentile", "--scenario", file.path()],
        "has no [systems.percentile] section",
    );
}

/// Every scenario shipped in `rulesets/scenarios/` runs under `compare`, with
/// a row for each system it names and per-side ships lost that sum to the
/// trials.
#[test]
fn the_shipped_scenarios_run() {
    let folder = workspace_file("rulesets/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .expect("the scenarios folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 3,
        "default, many-against-one and mixed-fleets"
    );
    for file in files {
        let path = file.to_str().expect("a UTF-8 path");
        let text = std::fs::read_to_string(&file).expect("readable");
        let report = cli_json(&[
            "compare", path, "--trials", "20", "--seed", "1", "--format", "json",
        ]);
        let rows = report["rows"].as_array().expect("rows");
        // A system's section header, not a side's table under it.
        let sections = text
            .lines()
            .filter(|line| line.starts_with("[systems.") && line.matches('.').count() == 1)
            .count();
        assert_eq!(rows.len(), sections, "{path}: a row per system");
        for row in rows {
            let sizes = ["a", "b"].map(|key| {
                row[key]
                    .as_str()
                    .map(|side| broadside_core::parse_side(side).expect("a side").len())
                    .expect("a side label")
            });
            check_side_figures(row, sizes, 20);
        }
    }
}

//! End-to-end tests of `broadside sweep`: every cell is the figure `battle` gives for that battle with the same seed, for a sweep over ships and over an option's range, and bad sweeps are refused before anything is played.

mod common;

use common::{check_cli_error, cli_json, cli_ok};
use serde_json::Value;

/// A battle's outcomes as `battle` reports them.
fn battle(system: &str, a: &str, b: &str, extra: &[&str]) -> Value {
    let mut args = vec!["battle", system, a, b, "-n", "120", "-s", "3", "-f", "json"];
    args.extend_from_slice(extra);
    cli_json(&args)["outcomes"].clone()
}

/// Each row of a sweep's JSON against `battle` of the same pair and
/// options.
fn check(system: &str, sweep: &[&str], expected: &[(&str, &str, &[&str])]) {
    let mut args = vec!["sweep", system, "-n", "120", "-s", "3", "-f", "json"];
    args.extend_from_slice(sweep);
    let report = cli_json(&args);
    let rows = report["rows"].as_array().expect("a row per battle");
    assert_eq!(rows.len(), expected.len(), "{args:?}");
    for (row, &(a, b, extra)) in rows.iter().zip(expected) {
        assert_eq!((row["a"].as_str(), row["b"].as_str()), (Some(a), Some(b)));
        assert_eq!(
            row["outcomes"],
            battle(system, a, b, extra),
            "{a} against {b} {extra:?}"
        );
    }
}

#[test]
fn every_ship_against_every_ship() {
    check(
        "percentile",
        &["--ships", "fighter,frigate"],
        &[
            ("fighter", "fighter", &[]),
            ("fighter", "frigate", &[]),
            ("frigate", "fighter", &[]),
            ("frigate", "frigate", &[]),
        ],
    );
    let text = cli_ok(&[
        "sweep",
        "crew-2d6",
        "--ships",
        "scout,escort",
        "-n",
        "50",
        "-s",
        "1",
    ]);
    assert!(
        text.contains("the chance that the row's ship (A) beats the column's (B)"),
        "{text}"
    );
    assert!(text.contains("│ escort"), "{text}");
}

#[test]
fn an_option_over_a_range() {
    check(
        "module-grid",
        &["destroyer", "frigate", "--vary", "start-range=6..8"],
        &[
            ("destroyer", "frigate", &["--start-range", "6"]),
            ("destroyer", "frigate", &["--start-range", "7"]),
            ("destroyer", "frigate", &["--start-range", "8"]),
        ],
    );
}

#[test]
fn bad_sweeps_are_refused() {
    let base = ["sweep", "percentile", "destroyer", "frigate", "--vary"];
    for (vary, fragment) in [
        ("start-rang=2..4", "did you mean 'start-range'?"),
        ("start-range=9..2", "is not a range within"),
        ("start-range=2..999999", "is not a range within"),
        ("start-range", "is not NAME=FROM..TO"),
    ] {
        let mut args = base.to_vec();
        args.push(vary);
        check_cli_error(&args, fragment);
    }
    check_cli_error(
        &["sweep", "percentile", "--ships", "frigate,battlship"],
        "did you mean 'battleship'?",
    );
    check_cli_error(
        &["sweep", "percentile", "destroyer", "frigate"],
        "sides are swept only with --vary",
    );
}

/// `--format html` over ships is a heat map: one cell per battle, each
/// titled with the pair and the chance with its interval, the numbers in a
/// table under it; over an option's range it is compare's page, a row per
/// value.
#[test]
fn html_is_a_heat_map_over_ships() {
    let page = cli_ok(&[
        "sweep",
        "percentile",
        "--ships",
        "fighter,frigate,destroyer",
        "-n",
        "60",
        "-s",
        "2",
        "-f",
        "html",
    ]);
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert_eq!(page.matches("<svg").count(), 1);
    assert!(page.contains("<figure id=\"heat\">"));
    assert_eq!(page.matches("<rect ").count(), 9, "one cell per battle");
    assert!(
        page.contains("<title>frigate against destroyer: "),
        "{page}"
    );
    assert!(!page.contains("http://") && !page.contains("https://") && !page.contains("<script"));
    let range = cli_ok(&[
        "sweep",
        "module-grid",
        "destroyer",
        "frigate",
        "--vary",
        "start-range=6..7",
        "-n",
        "40",
        "-s",
        "2",
        "-f",
        "html",
    ]);
    assert!(
        range.contains("start-range 6") && range.contains("start-range 7"),
        "{range}"
    );
}

//! End-to-end tests of the command-line conventions the binary follows as cargo, ripgrep and fd do: help when run bare, did-you-mean suggestions, counts written as people write them, a thread count that does not change results, completions and a man page.

mod common;

use common::{check_cli_error, cli_ok, run_cli};

/// Runs a command that must succeed and checks its stdout holds every
/// fragment.
fn check(args: &[&str], fragments: &[&str]) -> String {
    let stdout = cli_ok(args);
    for fragment in fragments {
        assert!(
            stdout.contains(fragment),
            "{args:?}: stdout should hold '{fragment}', got:\n{stdout}"
        );
    }
    stdout
}

#[test]
fn bare_broadside_prints_its_help() {
    let help = check(&[], &["Usage: broadside <COMMAND>", "Commands:", "compare"]);
    // The help, not the about line as an error.
    assert!(!help.starts_with("error"), "{help}");
}

#[test]
fn a_command_without_its_system_lists_the_systems() {
    for command in ["battle", "resolve", "duel"] {
        let help = check(
            &[command],
            &["<SYSTEM>", "Systems:", "percentile", "crew-2d6"],
        );
        // `help` is not a rule system.
        let systems = help
            .split("Systems:")
            .nth(1)
            .and_then(|rest| rest.split("Options:").next())
            .unwrap_or_default();
        assert!(
            !systems.contains("help"),
            "{command}: 'help' listed among the systems:\n{help}"
        );
    }
}

#[test]
fn a_misspelt_system_or_command_gets_clap_s_suggestion() {
    check_cli_error(
        &["battle", "percentle", "destroyer", "frigate"],
        "did you mean 'percentile'?",
    );
    check_cli_error(
        &[
            "battle",
            "percentile",
            "destroyer",
            "frigate",
            "--trails",
            "3",
        ],
        "did you mean '--trials'?",
    );
    check_cli_error(&["ships", "percentil"], "did you mean 'percentile'?");
}

#[test]
fn a_misspelt_name_from_the_data_gets_a_suggestion() {
    check_cli_error(
        &["battle", "percentile", "battlship", "frigate", "-n", "3"],
        "unknown ship 'battlship' (did you mean 'battleship'?",
    );
    check_cli_error(
        &["table", "percentile", "damag-table"],
        "unknown table 'damag-table' (did you mean 'damage-table'?",
    );
    check_cli_error(
        &[
            "resolve",
            "percentile",
            "--attacker",
            "destroyer",
            "--weapon",
            "torpdo",
            "--target",
            "frigate",
            "--range",
            "3",
        ],
        "unknown weapon 'torpdo' (did you mean 'torpedo'?",
    );
    // Nothing alike: the known names alone.
    check_cli_error(
        &["battle", "percentile", "destroyer", "zzz", "-n", "3"],
        "unknown ship 'zzz' (known: assault-carrier,",
    );
}

#[test]
fn trial_counts_are_read_as_people_write_them() {
    let run = |trials: &str| {
        cli_ok(&[
            "battle",
            "percentile",
            "destroyer",
            "frigate",
            "--trials",
            trials,
            "--seed",
            "3",
            "--format",
            "csv",
        ])
    };
    let plain = run("1000");
    for written in ["1_000", "1,000", "1e3", "0.1e4"] {
        assert_eq!(run(written), plain, "--trials {written}");
    }
    for refused in ["1.5", "0", "1e9", "ten", "1e"] {
        check_cli_error(
            &[
                "battle",
                "percentile",
                "destroyer",
                "frigate",
                "-n",
                refused,
            ],
            "--trials",
        );
    }
}

#[test]
fn short_flags_and_threads_give_the_same_report() {
    let long = cli_ok(&[
        "battle", "crew-2d6", "escort", "corvette", "--trials", "300", "--seed", "9", "--format",
        "json",
    ]);
    for threads in ["1", "3"] {
        let short = cli_ok(&[
            "battle", "crew-2d6", "escort", "corvette", "-n", "300", "-s", "9", "-f", "json", "-j",
            threads, "-q",
        ]);
        assert_eq!(short, long, "-j {threads}");
    }
}

#[test]
fn completions_are_generated_for_each_shell() {
    check(&["completions", "bash"], &["_broadside()", "percentile"]);
    check(&["completions", "zsh"], &["#compdef broadside"]);
    check(&["completions", "fish"], &["complete -c broadside"]);
    check_cli_error(&["completions", "fsh"], "did you mean 'fish'?");
}

#[test]
fn the_man_page_is_roff_naming_every_command() {
    check(
        &["man"],
        &[
            ".TH broadside 1",
            "broadside\\-battle",
            "broadside\\-compare",
        ],
    );
}

#[test]
fn progress_is_silent_when_stderr_is_not_a_terminal() {
    let (code, _, stderr) = run_cli(&["compare", "-n", "200", "-s", "1", "-f", "csv"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "", "no bar and no timing line off a terminal");
}

/// One naming policy for every system's flags: both spellings of defence
/// and armour, and the other systems' names for crew-2d6's range bands, on
/// the command line and in scenarios, each giving what the option's own
/// name gives.
#[test]
fn options_answer_to_the_policy_s_other_names() {
    let resolve = |range: &str, defence: &str| {
        cli_ok(&[
            "resolve",
            "crew-2d6",
            "--attacker",
            "corvette",
            "--weapon",
            "missile-rack",
            "--target",
            "trader",
            range,
            "long",
            defence,
            "1",
            "-s",
            "4",
            "-f",
            "json",
        ])
    };
    let own = resolve("--range-band", "--point-defense");
    assert_eq!(resolve("--range", "--point-defence"), own);
    let help = cli_ok(&["resolve", "crew-2d6", "--help"]);
    assert!(
        help.contains("[alias: --range]") && help.contains("[alias: --point-defence]"),
        "{help}"
    );
    let battle = |key: &str| {
        let scenario = common::ScenarioFile::new(
            "aliases",
            &format!(
                "name = \"x\"\n[systems.crew-2d6]\na = \"escort\"\nb = \"corvette\"\n{key} = \"long\"\n"
            ),
        );
        cli_ok(&[
            "compare",
            scenario.path(),
            "-n",
            "40",
            "-s",
            "2",
            "-f",
            "json",
        ])
    };
    assert_eq!(battle("start-range"), battle("start-band"));
}

/// A newcomer finds the ship ids in a system command's help, and one ship's
/// sheet with `ships SYSTEM SHIP`.
#[test]
fn ship_ids_are_in_the_help_and_one_ship_has_its_sheet() {
    for command in ["battle", "resolve", "sweep"] {
        check(
            &[command, "percentile", "--help"],
            &["Ships: assault-carrier, assault-scout, battleship,"],
        );
    }
    let sheet = check(
        &["ships", "percentile", "frigate", "-f", "json"],
        &["\"frigate\""],
    );
    let sheet: serde_json::Value = serde_json::from_str(&sheet).expect("JSON");
    assert_eq!(sheet["ships"].as_array().map(Vec::len), Some(1), "{sheet}");
    check_cli_error(
        &["ships", "percentile", "frigat"],
        "did you mean 'frigate'?",
    );
}

/// Reliability review, finding 8: a negative seed, trial or die is a bad
/// value of its flag, not an unknown flag `-1`; a row label starting with
/// `-` can be given as it is written.
#[test]
fn negative_values_and_hyphenated_labels_read_as_values() {
    let base = ["battle", "percentile", "destroyer", "frigate", "-n", "5"];
    for (flag, fragment) in [
        (
            "--seed",
            "invalid value '-1' for '--seed <S>': '-1' is not a whole number from 0",
        ),
        ("--replay", "invalid value '-1' for '--replay <K>'"),
        ("--max-turns", "invalid value '-1' for '--max-turns <T>'"),
    ] {
        let mut args = base.to_vec();
        args.extend([flag, "-1"]);
        check_cli_error(&args, fragment);
    }
    check_cli_error(
        &[
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
            "--dice",
            "-1",
        ],
        "invalid value '-1' for '--dice <D,D,...>'",
    );
    let row = cli_ok(&["table", "percentile", "damage-table", "-20-10"]);
    assert_eq!(row, cli_ok(&["table", "percentile", "damage-table", "-15"]));
    assert!(row.contains("result: "), "{row}");
}

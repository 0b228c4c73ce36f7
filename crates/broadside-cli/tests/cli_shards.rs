//! End-to-end tests of sharded runs: `--shard I/N` plays a share of a run's trials and `merge` reports the shards exactly as one unsharded run with the same seed, byte for byte.

mod common;

use common::{ScenarioFile, check_cli_error, cli_ok};

/// Writes each shard of `command` (`--shard i/count`) into the folder of
/// `scratch`, returning their paths.
fn shards(scratch: &ScenarioFile, tag: &str, command: &[&str], count: u32) -> Vec<String> {
    (0..count)
        .map(|i| {
            let spec = format!("{i}/{count}");
            let mut args = command.to_vec();
            args.extend(["--shard", &spec]);
            let text = cli_ok(&args);
            let path = scratch
                .missing()
                .replace("no-such-scenario", &format!("{tag}-{i}"));
            std::fs::write(&path, text).expect("the shard file writes");
            path
        })
        .collect()
}

/// The report of `command` in `format`, against `merge` of its shards.
fn check(command: &[&str], count: u32, formats: &[&str]) {
    let scratch = ScenarioFile::new("shards", "");
    let files = shards(&scratch, "shard", command, count);
    for format in formats {
        let mut whole = command.to_vec();
        whole.extend(["--format", format]);
        let mut merge = vec!["merge"];
        merge.extend(files.iter().map(String::as_str));
        merge.extend(["--format", format]);
        assert_eq!(
            cli_ok(&merge),
            cli_ok(&whole),
            "{command:?} in {count} shards, as {format}"
        );
    }
}

#[test]
fn a_battle_s_shards_merge_into_the_whole_run() {
    let battle = [
        "battle",
        "percentile",
        "2xfrigate",
        "destroyer",
        "-n",
        "700",
        "-s",
        "7",
    ];
    check(&battle, 3, &["json", "csv", "text"]);
    check(&battle, 1, &["json"]);
    // More shards than trials: some shards play nothing.
    let short = [
        "battle", "crew-2d6", "escort", "corvette", "-n", "5", "-s", "2",
    ];
    check(&short, 8, &["json"]);
}

#[test]
fn a_comparison_s_shards_merge_into_the_whole_run() {
    check(
        &["compare", "-n", "300", "-s", "3", "-j", "1"],
        2,
        &["json", "markdown"],
    );
}

#[test]
fn shards_of_different_runs_do_not_merge() {
    let scratch = ScenarioFile::new("shards-bad", "");
    let run = [
        "battle",
        "percentile",
        "destroyer",
        "frigate",
        "-n",
        "50",
        "-s",
        "1",
    ];
    let files = shards(&scratch, "run", &run, 3);
    let other = [
        "battle",
        "percentile",
        "destroyer",
        "frigate",
        "-n",
        "50",
        "-s",
        "2",
    ];
    let others = shards(&scratch, "other", &other, 3);
    check_cli_error(
        &["merge", &files[0], &files[1]],
        "the run has 3 shards and these are missing: 2",
    );
    check_cli_error(
        &["merge", &files[0], &files[1], &files[1], &files[2]],
        "shard 1 of 3 is given twice",
    );
    check_cli_error(
        &["merge", &files[0], &others[1], &files[2]],
        "is not of the same run as",
    );
    let broken = files[0].replace("run-0", "broken");
    let text = std::fs::read_to_string(&files[0]).expect("the shard reads");
    std::fs::write(&broken, text.replacen("\"a_wins\": ", "\"a_wins\": 1", 1))
        .expect("the broken shard writes");
    check_cli_error(
        &["merge", &broken, &files[1], &files[2]],
        "its endings do not add up",
    );
    std::fs::write(&broken, "{}").expect("the empty shard writes");
    check_cli_error(&["merge", &broken], "not a shard file");
}

#[test]
fn a_shard_needs_a_seed_and_a_share() {
    check_cli_error(
        &[
            "battle",
            "percentile",
            "destroyer",
            "frigate",
            "--shard",
            "0/2",
        ],
        "--shard needs --seed S",
    );
    for bad in ["2/2", "1", "a/b", "0/0"] {
        check_cli_error(
            &[
                "battle",
                "percentile",
                "destroyer",
                "frigate",
                "-s",
                "1",
                "--shard",
                bad,
            ],
            "is not I/N",
        );
    }
}

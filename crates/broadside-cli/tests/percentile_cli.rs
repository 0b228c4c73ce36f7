//! End-to-end tests of percentile fleets over the real binary: `battle` with several ships a side and each side's set-up flags and scenario tables, replays that name every ship, and `resolve --hexmate-icms`.
//!
//! Figures are seeded, so a run's bytes are fixed.

mod common;

use broadside_core::Side;
use common::{
    ScenarioFile, check_cli, check_cli_error, check_cli_scenario_error, cli_json, cli_ok, fleet,
    fleet_request, percentile,
};
use serde_json::Value;

/// Two destroyers and a frigate against a minelayer and a light cruiser,
/// side B having mined two hexes and placed a seeker before play (seed 000
/// line 38, "The defending player can place mines in a hex before the game
/// starts"; line 41, seekers "before the scenario begins"), side A abreast.
const FLEETS: &[&str] = &[
    "battle",
    "percentile",
    "2xdestroyer,frigate",
    "minelayer,light-cruiser",
    "--b-mines",
    "6,0;6,-1",
    "--b-seekers",
    "8,0",
    "--a-formation",
    "line",
    "--trials",
    "200",
    "--seed",
    "5",
];

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

/// The design brief's battle command with fleets: the report names each
/// side by its ships, gives each side's ships lost as a distribution and
/// the hull left per ship id; the set-up flags of both sides are taken.
#[test]
fn battle_of_fleets_with_each_sides_set_up() {
    check_cli(
        "percentile_cli_battle_fleets_with_set_up",
        "Design brief, CLI: broadside battle percentile with sides of several ships and \
         --a-/--b- set-up flags; seed 000 line 38 (mines placed before play) and line 41 \
         (seekers placed before play).",
        FLEETS,
    );
}

/// The JSON report of a fleet battle: each side's ships-lost list has one
/// entry more than the side has ships and sums to the trials, and it is the
/// tally the library gives for the same request.
#[test]
fn a_fleet_reports_ships_lost_per_side() {
    let j = cli_json(&with(FLEETS, &["--format", "json"]));
    assert_eq!(j["a"], "2xdestroyer,frigate");
    assert_eq!(j["b"], "minelayer,light-cruiser");
    let lost = &j["ships_lost"];
    for (side, size) in [("a", 3), ("b", 2)] {
        let counts: Vec<u64> = lost[side]
            .as_array()
            .unwrap_or_else(|| panic!("no ships_lost.{side} in {j}"))
            .iter()
            .map(|n| n.as_u64().expect("a count"))
            .collect();
        assert_eq!(counts.len(), size + 1, "{side}: {counts:?}");
        assert_eq!(counts.iter().sum::<u64>(), 200, "{side}: {counts:?}");
    }
    let library = fleet(
        &["destroyer", "destroyer", "frigate"],
        &["minelayer", "light-cruiser"],
        12,
        50,
        [
            &[("formation", "line")],
            &[("mines", "6,0;6,-1"), ("seekers", "8,0")],
        ],
    );
    let tally = broadside_core::run_trials(&library, 5, 200, &|_| {}).expect("the trials play");
    let summary = tally.summary(broadside_core::Setup::roster(&library));
    assert_eq!(
        lost["a"],
        serde_json::to_value(summary.ships_lost.of(Side::A)).expect("JSON")
    );
    assert_eq!(
        lost["b"],
        serde_json::to_value(summary.ships_lost.of(Side::B)).expect("JSON")
    );
}

/// A scenario's side tables carry the same set-up as the flags: the same
/// figures, byte for byte.
#[test]
fn a_scenarios_side_tables_set_up_as_the_flags_do() {
    let file = ScenarioFile::new(
        "percentile-fleets",
        r#"
name = "escorts against a minefield"

[systems.percentile]
start-range = 12

[systems.percentile.a]
ships = "2xdestroyer,frigate"
formation = "line"

[systems.percentile.b]
ships = ["minelayer", "light-cruiser"]
mines = "6,0;6,-1"
seekers = "8,0"
"#,
    );
    let from_file = cli_json(&[
        "battle",
        "percentile",
        "--scenario",
        file.path(),
        "--trials",
        "200",
        "--seed",
        "5",
        "--format",
        "json",
    ]);
    let from_flags = cli_json(&with(FLEETS, &["--format", "json"]));
    let figures = |j: &Value| (j["outcomes"].clone(), j["ships_lost"].clone());
    assert_eq!(figures(&from_file), figures(&from_flags));
    assert_eq!(from_file["a"], "2xdestroyer,frigate");
}

/// A replay prints every ship by the roster's name, so ships of one class
/// on one side are told apart (`frigate #2 (A)`), and ends with one line per
/// ship.
#[test]
fn a_fleet_replay_names_every_ship_apart() {
    let text = cli_ok(&[
        "battle",
        "percentile",
        "3xfrigate",
        "heavy-cruiser",
        "--seed",
        "1",
        "--replay",
        "0",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "percentile battle 3xfrigate (A) against heavy-cruiser (B), seed 1 (Xoshiro256++), trial 0"
    );
    for name in ["frigate #1 (A)", "frigate #2 (A)", "frigate #3 (A)"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("{name}: moves"))),
            "{name} never moves:\n{text}"
        );
    }
    let fates = &lines[lines.len() - 4..];
    assert!(fates[0].starts_with("  frigate #1 (A): "), "{fates:?}");
    assert!(fates[3].starts_with("  heavy-cruiser (B): "), "{fates:?}");
}

/// Each side's set-up is checked before anything runs; a bad value is bad
/// input (exit 2) with one line naming the flag.
#[test]
fn bad_set_up_is_refused() {
    let base = [
        "battle",
        "percentile",
        "2xfrigate",
        "destroyer",
        "--trials",
        "5",
    ];
    for (flag, value, fragment) in [
        ("--a-mines", "6,0;6,0", "--a-mines: (6, 0) is listed twice"),
        ("--b-mines", "6,0;", "--b-mines: '6,0;' has an empty entry"),
        ("--b-seekers", "6", "--b-seekers: '6': write a hex as Q,R"),
        (
            "--a-start",
            "1,2,3",
            "--a-start: '1,2,3': write a hex as Q,R",
        ),
        (
            "--b-start",
            "0,5000",
            "is not a whole number from -1000 to 1000",
        ),
        ("--a-facing", "up", "invalid value 'up' for '--a-facing"),
        (
            "--b-formation",
            "wedge",
            "invalid value 'wedge' for '--b-formation",
        ),
        ("--a-spacing", "0", "invalid value '0' for '--a-spacing"),
    ] {
        check_cli_error(&with(&base, &[flag, value]), fragment);
    }
    let file = ScenarioFile::new(
        "percentile-bad-set-up",
        "name = \"x\"\n[systems.percentile]\na = \"frigate\"\n[systems.percentile.b]\nships = \"destroyer\"\nmines = \"1,1;1,1\"\n",
    );
    check_cli_scenario_error(
        &[
            "battle",
            "percentile",
            "--scenario",
            file.path(),
            "--trials",
            "5",
        ],
        "--b-mines: (1, 1) is listed twice",
    );
}

/// Seed 000 line 24 through the binary: `resolve --hexmate-icms` adds
/// ships in the target's hex launching their own ICMs (50 - 3 x 10 = 20%,
/// rolled 25, a miss), and refuses what the rules do not allow.
#[test]
fn resolve_with_hexmates_over_the_binary() {
    let args = [
        "resolve",
        "percentile",
        "--attacker",
        "destroyer",
        "--target",
        "frigate",
        "--weapon",
        "torpedo",
        "--range",
        "2",
        "--icm",
        "1",
        "--hexmate-icms",
        "destroyer:2",
        "--dice",
        "25",
    ];
    check_cli(
        "percentile_cli_resolve_hexmate_icms_explain",
        "Seed 000 line 24, ICMs in the Advanced Game: a destroyer in the frigate's hex \
         launches 2 ICMs beside the frigate's 1 against a torpedo: 50 - 30 = 20%, rolled 25.",
        &with(&args, &["--explain"]),
    );
    let j = cli_json(&with(&args, &["--format", "json"]));
    assert_eq!(j["to_hit"], 20);
    assert_eq!(j["icm_launches"][1]["ship"], "destroyer (hexmate)");
    assert_eq!(j["hexmates"][0]["supplies"][3]["left"], 3);
    let refused = |hexmates: &str, weapon: &str, fragment: &str| {
        check_cli_error(
            &[
                "resolve",
                "percentile",
                "--attacker",
                "destroyer",
                "--target",
                "frigate",
                "--weapon",
                weapon,
                "--range",
                "2",
                "--hexmate-icms",
                hexmates,
                "--dice",
                "25",
            ],
            fragment,
        );
    };
    refused("destroyer:6", "torpedo", "can launch 5 ICMs, not 6");
    refused("fighter:1", "torpedo", "carries no ICMs");
    refused("cruiser:1", "torpedo", "unknown ship 'cruiser'");
    refused(
        "destroyer:1",
        "laser-battery",
        "ICMs cannot stop a Laser Battery",
    );
}

/// The request a scenario or the flags build is the one the library sets up,
/// ship for ship: the roster names.
#[test]
fn the_flags_build_the_roster_the_library_does() {
    let request = fleet_request(&["frigate", "frigate"], &["destroyer"], 12, 50, [&[], &[]]);
    let prepared = percentile().set_up(&request).expect("the battle sets up");
    assert_eq!(
        prepared.start().board.names[..],
        ["frigate #1 (A)", "frigate #2 (A)", "destroyer (B)"]
    );
    let replay = cli_ok(&[
        "battle",
        "percentile",
        "2xfrigate",
        "destroyer",
        "--seed",
        "3",
        "--replay",
        "0",
    ]);
    assert!(replay.contains("frigate #2 (A)"), "{replay}");
}

//! End-to-end tests of the real `broadside` binary: its output, its JSON, and every bad input refused with exit code 2 and one `error:` line.
//!
//! The binary is the one Cargo builds for these tests, from the same
//! sources (see `common`).

mod common;

use common::{RulesetCopy, check_cli, check_cli_data_error, check_cli_error, cli_json, cli_ok};
use serde_json::Value;

/// The README's first command, without `--explain`.
const PROTON_BEAM_2026: &[&str] = &[
    "resolve",
    "percentile",
    "--attacker",
    "light-cruiser",
    "--weapon",
    "proton-beam-battery",
    "--target",
    "destroyer",
    "--range",
    "5",
    "--seed",
    "2026",
];

fn with(base: &[&'static str], extra: &[&'static str]) -> Vec<&'static str> {
    base.iter().chain(extra).copied().collect()
}

// ---------------------------------------------------------------------------
// Listing commands
// ---------------------------------------------------------------------------

#[test]
fn systems_text() {
    check_cli("cli_systems_text", "broadside systems", &["systems"]);
}

#[test]
fn systems_json_lists_percentile() {
    let v = cli_json(&["systems", "--format", "json"]);
    let list = v.as_array().expect("a JSON array of systems");
    let percentile = list
        .iter()
        .find(|s| s["id"] == "percentile")
        .expect("percentile is registered");
    assert_eq!(
        percentile["title"],
        "Star Frontiers: Knight Hawks, Advanced Game"
    );
    assert!(percentile["description"].is_string());
    // Knight Hawks ships can break apart but have no jump out of a battle.
    assert_eq!(
        percentile["loss_kinds"],
        serde_json::json!(["destroyed", "broken_apart", "disarmed"])
    );
    assert_eq!(percentile["escapes"], false);
}

#[test]
fn ships_percentile_text() {
    check_cli(
        "cli_ships_percentile_text",
        "broadside ships percentile: the Advanced Game ship list (Knight Hawks rulebook)",
        &["ships", "percentile"],
    );
}

/// The reference note's ship list: HP, ADF, MR and DCR of every class.
#[test]
fn ships_percentile_json_matches_the_ship_list() {
    let v = cli_json(&["ships", "percentile", "--format", "json"]);
    assert_eq!(v["system"], "percentile");
    let ships = v["ships"].as_array().expect("a list of ships");
    let stats = |id: &str| {
        let s = ships
            .iter()
            .find(|s| s["id"] == id)
            .unwrap_or_else(|| panic!("{id} listed"));
        (
            s["hull"].as_i64().unwrap(),
            s["adf"].as_i64().unwrap(),
            s["mr"].as_i64().unwrap(),
            s["dcr"].as_i64().unwrap(),
        )
    };
    assert_eq!(stats("fighter"), (8, 5, 5, 30));
    assert_eq!(stats("assault-scout"), (15, 5, 4, 50));
    assert_eq!(stats("frigate"), (40, 4, 3, 70));
    assert_eq!(stats("destroyer"), (50, 3, 3, 75));
    assert_eq!(stats("minelayer"), (50, 1, 2, 75));
    assert_eq!(stats("light-cruiser"), (70, 3, 2, 100));
    assert_eq!(stats("assault-carrier"), (75, 2, 1, 150));
    assert_eq!(stats("heavy-cruiser"), (80, 2, 1, 120));
    assert_eq!(stats("battleship"), (120, 2, 2, 200));
}

#[test]
fn table_damage_table() {
    check_cli(
        "cli_table_damage_table",
        "broadside table percentile damage-table: seed 000, Advanced Game Damage Table",
        &["table", "percentile", "damage-table"],
    );
}

/// Seed 000, Combat Table: the weapons in the printed order (laser cannon,
/// laser battery, proton and electron beam batteries, disruptor cannon,
/// torpedo, assault rocket, rocket battery, mines, seeker missile), not
/// sorted by name.
#[test]
fn table_combat_table_in_printed_order() {
    check_cli(
        "cli_table_combat_table",
        "broadside table percentile combat-table: seed 000, Advanced Game Combat Table, rows in the printed order",
        &["table", "percentile", "combat-table"],
    );
}

/// Seed 000, Damage Table example: a modified roll of 83 is a defense hit.
#[test]
fn table_damage_table_row_83() {
    // A row of a table with several columns, without a column, is the whole row.
    let out = cli_ok(&["table", "percentile", "damage-table", "83"]);
    assert_eq!(
        out,
        "result: defense-hit\ntype of damage: Defense hit: ICM; SS; PS; ES; MS\n"
    );
    let out = cli_ok(&["table", "percentile", "damage-table", "83", "result"]);
    assert_eq!(out, "defense-hit\n");
    let out = cli_ok(&[
        "table",
        "percentile",
        "damage-table",
        "83",
        "type of damage",
    ]);
    assert_eq!(out, "Defense hit: ICM; SS; PS; ES; MS\n");
    // The open-ended first row reads negative rolls, given plainly or after `--`.
    let out = cli_ok(&["table", "percentile", "damage-table", "--", "-19", "result"]);
    assert_eq!(out, "double-hull-hit\n");
    let out = cli_ok(&["table", "percentile", "damage-table", "-19", "result"]);
    assert_eq!(out, "double-hull-hit\n");
}

// ---------------------------------------------------------------------------
// resolve
// ---------------------------------------------------------------------------

#[test]
fn resolve_seeded_text() {
    check_cli(
        "cli_resolve_seed_2026_text",
        "README first command without --explain: light cruiser proton beam at a destroyer, range 5, seed 2026",
        PROTON_BEAM_2026,
    );
}

#[test]
fn resolve_seeded_explain() {
    check_cli(
        "cli_resolve_seed_2026_explain",
        "README first command: light cruiser proton beam at a destroyer, range 5, seed 2026, --explain",
        &with(PROTON_BEAM_2026, &["--explain"]),
    );
}

/// The JSON report carries the seed, every number of the resolution, the
/// target's state and the events.
#[test]
fn resolve_seeded_json_fields() {
    let v = cli_json(&with(PROTON_BEAM_2026, &["--format", "json"]));
    for key in [
        "system",
        "seed",
        "to_hit",
        "roll",
        "hit",
        "damage_roll",
        "result",
        "system_destroyed",
        "hull_damage",
        "target",
        "events",
    ] {
        assert!(v.get(key).is_some(), "JSON lacks '{key}': {v:#}");
    }
    for key in ["hull", "adf", "mr", "dcr"] {
        assert!(v["target"][key].is_number(), "target lacks '{key}': {v:#}");
    }
    assert_eq!(v["system"], "percentile");
    assert_eq!(v["seed"], 2026);
    assert_eq!(v["to_hit"], 35);
    let events = v["events"].as_array().expect("events are a list");
    assert!(!events.is_empty());
    assert!(events.iter().all(|e| e["kind"].is_string()));
}

/// The same seed gives the same report, run after run.
#[test]
fn resolve_seeded_is_repeatable() {
    let args = with(PROTON_BEAM_2026, &["--format", "json"]);
    assert_eq!(cli_ok(&args), cli_ok(&args));
}

/// Seed 000, Damage Table example through the binary, with `--dice` and
/// `--explain`: to-hit roll 10 at range 2 (50%), damage roll 73 + 10 = 83.
#[test]
fn resolve_scripted_explain() {
    check_cli(
        "cli_resolve_dice_proton_beam_83_explain",
        "seed 000, Damage Table example: proton beam battery, 73 + 10 = 83",
        &[
            "resolve",
            "percentile",
            "--attacker",
            "light-cruiser",
            "--weapon",
            "proton-beam-battery",
            "--target",
            "destroyer",
            "--range",
            "2",
            "--dice",
            "10,73",
            "--explain",
        ],
    );
}

/// Seed 001's ICM example in Advanced numbers, as JSON: 50 - 20 = 30%.
#[test]
fn resolve_scripted_json() {
    let v = cli_json(&[
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
        "--icm",
        "2",
        "--dice",
        "30,40,5,6,7,8",
        "--format",
        "json",
    ]);
    assert_eq!(v["dice"], serde_json::json!([30, 40, 5, 6, 7, 8]));
    assert_eq!(v["to_hit"], 30);
    assert_eq!(v["roll"], 30);
    assert_eq!(v["hit"], true);
    assert_eq!(v["damage_roll"], 20);
    assert_eq!(v["result"], "hull-hit");
    assert_eq!(v["system_destroyed"], Value::Null);
    assert_eq!(v["hull_damage"], 26);
    assert_eq!(v["target"]["hull"], 14);
    assert!(v.get("dice_unused").is_none());
}

/// Scripted dice left over are reported, not silently dropped.
#[test]
fn resolve_scripted_reports_unused_dice() {
    let out = cli_ok(&[
        "resolve",
        "percentile",
        "--attacker",
        "frigate",
        "--weapon",
        "laser-battery",
        "--target",
        "destroyer",
        "--range",
        "1",
        "--dice",
        "99,4,4",
    ]);
    assert!(out.contains("miss"), "{out}");
    assert!(out.contains("4,4"), "{out}");
}

// ---------------------------------------------------------------------------
// Bad input: exit code 2, one line
// ---------------------------------------------------------------------------

fn resolve_args(extra: &[&'static str]) -> Vec<&'static str> {
    with(&["resolve", "percentile"], extra)
}

#[test]
fn unknown_system() {
    check_cli_error(&["ships", "starfire"], "starfire");
    check_cli_error(
        &[
            "resolve",
            "starfire",
            "--attacker",
            "frigate",
            "--target",
            "destroyer",
        ],
        "starfire",
    );
}

#[test]
fn unknown_ship() {
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "starbase",
            "--weapon",
            "laser-battery",
            "--target",
            "destroyer",
            "--range",
            "1",
            "--seed",
            "1",
        ]),
        "unknown ship 'starbase'",
    );
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "frigate",
            "--weapon",
            "laser-battery",
            "--target",
            "starbase",
            "--range",
            "1",
            "--seed",
            "1",
        ]),
        "unknown ship 'starbase'",
    );
}

#[test]
fn unknown_weapon() {
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "frigate",
            "--weapon",
            "phaser",
            "--target",
            "destroyer",
            "--range",
            "1",
            "--seed",
            "1",
        ]),
        "unknown weapon 'phaser'",
    );
}

/// A frigate carries no proton screen (reference note's ship list).
#[test]
fn a_defence_the_target_lacks() {
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "destroyer",
            "--weapon",
            "laser-battery",
            "--target",
            "frigate",
            "--range",
            "1",
            "--screen",
            "proton",
            "--seed",
            "1",
        ]),
        "proton screen",
    );
}

#[test]
fn a_refused_attack_out_of_range() {
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "frigate",
            "--weapon",
            "laser-battery",
            "--target",
            "destroyer",
            "--range",
            "10",
            "--seed",
            "1",
        ]),
        "refused",
    );
}

/// Reference note, Fire: a forward-firing weapon fires only into its arc
/// ahead, never into its own hex: `resolve` refuses a laser cannon at range
/// 0, head-on or not, with a located message and no roll.
#[test]
fn a_forward_firing_weapon_at_range_0_is_refused() {
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "destroyer",
            "--target",
            "frigate",
            "--weapon",
            "laser-cannon",
            "--range",
            "0",
            "--head-on",
            "--dice",
            "80",
        ]),
        "the Laser Cannon fires forward only, into a hex ahead of the ship, so it cannot fire at range 0",
    );
}

#[test]
fn scripted_dice_that_run_out() {
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "frigate",
            "--weapon",
            "laser-battery",
            "--target",
            "destroyer",
            "--range",
            "1",
            "--dice",
            "10",
        ]),
        "ran out",
    );
}

#[test]
fn a_face_the_die_lacks() {
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "frigate",
            "--weapon",
            "laser-battery",
            "--target",
            "destroyer",
            "--range",
            "1",
            "--dice",
            "101",
        ]),
        "101",
    );
}

#[test]
fn seed_and_dice_together() {
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "frigate",
            "--weapon",
            "laser-battery",
            "--target",
            "destroyer",
            "--range",
            "1",
            "--seed",
            "1",
            "--dice",
            "10,20",
        ]),
        "--seed",
    );
}

/// A table the system lacks, and a roll no row of the Damage Table covers.
#[test]
fn unknown_table_or_row() {
    check_cli_error(
        &["table", "percentile", "hit-table"],
        "unknown table 'hit-table'",
    );
    check_cli_error(&["table", "percentile", "damage-table", "121"], "121");
}

/// A rules folder that does not exist.
#[test]
fn a_missing_rules_folder() {
    let copy = RulesetCopy::new("missing");
    let missing = format!("{}-not-there", copy.path());
    check_cli_error(
        &["ships", "percentile", "--rules", &missing],
        "cannot read rules folder",
    );
}

/// A value outside what an option takes is bad input like any other.
#[test]
fn an_option_value_out_of_range() {
    check_cli_error(
        &resolve_args(&[
            "--attacker",
            "frigate",
            "--weapon",
            "laser-battery",
            "--target",
            "destroyer",
            "--range",
            "5000",
            "--seed",
            "1",
        ]),
        "5000",
    );
}

// ---------------------------------------------------------------------------
// Bad ruleset data given with --rules DIR
// ---------------------------------------------------------------------------

fn ships_with_rules(dir: &str) -> Vec<&str> {
    vec!["ships", "percentile", "--rules", dir]
}

/// The copy of the data of record loads as it is: the edits below are the
/// only cause of the errors they produce.
#[test]
fn an_unbroken_copy_loads() {
    let copy = RulesetCopy::new("unbroken");
    assert_eq!(
        cli_ok(&ships_with_rules(copy.path())),
        cli_ok(&["ships", "percentile"])
    );
}

#[test]
fn rules_with_a_toml_syntax_error() {
    let copy = RulesetCopy::new("syntax");
    copy.edit("ships.toml", "hull = 40", "hull = = 40");
    check_cli_data_error(&ships_with_rules(copy.path()), &["ships.toml", "line "]);
}

/// A key that starts its line is reported on that line: an unknown key added
/// as the line after the frigate's heading.
#[test]
fn rules_error_names_the_line_of_a_key_that_starts_it() {
    let copy = RulesetCopy::new("key-line");
    let ships = std::fs::read_to_string(format!("{}/ships.toml", copy.path())).expect("copied");
    let heading = ships
        .lines()
        .position(|l| l == "[frigate]")
        .expect("a frigate section")
        + 1;
    copy.edit("ships.toml", "[frigate]\n", "[frigate]\nbogus-key = 1\n");
    check_cli_data_error(
        &ships_with_rules(copy.path()),
        &[
            "ships.toml",
            &format!("line {}: unknown field", heading + 1),
        ],
    );
}

/// Design brief, Data: a damage table with a gap is reported with its file
/// and key. 46 is left uncovered.
#[test]
fn rules_with_a_damage_table_gap() {
    let copy = RulesetCopy::new("gap");
    copy.edit("damage-table.toml", "rolls = [46, 49]", "rolls = [47, 49]");
    check_cli_data_error(
        &ships_with_rules(copy.path()),
        &["damage-table.toml", "row[2].rolls", "46"],
    );
}

/// A damage table with an overlap: 49 is claimed by two rows.
#[test]
fn rules_with_a_damage_table_overlap() {
    let copy = RulesetCopy::new("overlap");
    copy.edit("damage-table.toml", "rolls = [50, 52]", "rolls = [49, 52]");
    check_cli_data_error(
        &ships_with_rules(copy.path()),
        &["damage-table.toml", "row[3].rolls", "overlap"],
    );
}

#[test]
fn rules_with_a_percentage_over_100() {
    let copy = RulesetCopy::new("percent");
    copy.edit(
        "combat-table.toml",
        "none            = { advanced = 75, skilled = 60 }",
        "none            = { advanced = 175, skilled = 60 }",
    );
    check_cli_data_error(
        &ships_with_rules(copy.path()),
        &["combat-table.toml", "laser-cannon.none.advanced", "175"],
    );
}

#[test]
fn rules_with_an_unknown_weapon_on_a_ship() {
    let copy = RulesetCopy::new("weapon");
    copy.edit(
        "ships.toml",
        r#"weapons = ["laser-cannon", "laser-battery", "rocket-battery x4", "torpedo x2"]"#,
        r#"weapons = ["laser-canon", "laser-battery", "rocket-battery x4", "torpedo x2"]"#,
    );
    let args = [
        "resolve",
        "percentile",
        "--attacker",
        "frigate",
        "--weapon",
        "laser-battery",
        "--target",
        "destroyer",
        "--range",
        "1",
        "--seed",
        "1",
        "--rules",
        copy.path(),
    ];
    check_cli_data_error(&args, &["ships.toml", "frigate.weapons[0]", "laser-canon"]);
}

/// Every problem is reported at once (design brief, Data): two broken files
/// give two problem lines.
#[test]
fn rules_report_every_problem_at_once() {
    let copy = RulesetCopy::new("several");
    copy.edit("damage-table.toml", "rolls = [46, 49]", "rolls = [47, 49]");
    copy.edit(
        "combat-table.toml",
        "none            = { advanced = 75, skilled = 60 }",
        "none            = { advanced = 175, skilled = 60 }",
    );
    check_cli_data_error(
        &ships_with_rules(copy.path()),
        &[
            "damage-table.toml",
            "row[2].rolls",
            "combat-table.toml",
            "laser-cannon.none.advanced",
        ],
    );
}

/// A message repeats what the user typed safely: a line break in an argument
/// is shown escaped, so the error stays one line, and a very long name is
/// cut to 80 characters with an ellipsis rather than echoed in full.
#[test]
fn user_text_in_a_message_is_escaped_and_bounded() {
    check_cli_error(&["ships", "percentile-x\nnext"], "'percentile-x\\nnext'");
    check_cli_error(
        &["duel", "percentile", "a\nb", "frigate"],
        "unknown ship 'a\\nb'",
    );
    let long = "z".repeat(5000);
    let cut = format!("'{}…'", "z".repeat(79));
    check_cli_error(&["duel", "percentile", &long, "frigate"], &cut);
}

/// The smallest 64-bit DTM is refused by its own check, naming the weapon's
/// key and the allowed range; it once overflowed the check (a panic in a
/// debug build) and was blamed on the Damage Table instead.
#[test]
fn rules_with_the_smallest_dtm() {
    let copy = RulesetCopy::new("dtm-min");
    let weapons = std::fs::read_to_string(format!("{}/weapons.toml", copy.path())).expect("copied");
    let section = weapons
        .find("[laser-cannon]")
        .expect("a laser cannon section");
    let dtm = section + weapons[section..].find("dtm = 0").expect("its dtm");
    let edited = format!(
        "{}dtm = -9223372036854775808{}",
        &weapons[..dtm],
        &weapons[dtm + "dtm = 0".len()..]
    );
    std::fs::write(format!("{}/weapons.toml", copy.path()), edited).expect("written");
    check_cli_data_error(
        &ships_with_rules(copy.path()),
        &["weapons.toml", "laser-cannon.dtm", "is outside -100..=100"],
    );
}

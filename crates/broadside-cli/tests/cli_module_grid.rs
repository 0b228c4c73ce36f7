//! End-to-end tests of the binary for the module hit allocation system
//! (Battlestations), bad input included.

mod common;

use common::{RulesetCopy, check_cli, check_cli_data_error, check_cli_error, cli_json, cli_ok};

/// The Guns 5 against Shields 4 example of Battlestations, Ship to Ship
/// Combat, "Cannon Hits", through the command line: the pool
/// (6,6,6,4,4,3,2,2,1) loses its four highest dice to the Shields and lays
/// 4, 3, 2, 2, 1 from the module of impact.
#[test]
fn the_guns_5_against_shields_4_example() {
    let args = [
        "resolve",
        "module-grid",
        "--attacker",
        "cruiser",
        "--target",
        "cruiser",
        "--range",
        "2",
        "--dice",
        "5,4,2,3,4,6,6,6,4,4,3,2,2,1",
        "--format",
        "json",
    ];
    let json = cli_json(&args);
    assert_eq!(json["system"], "module-grid");
    assert_eq!(json["hit"], true);
    assert_eq!(json["pool"], serde_json::json!([6, 6, 6, 4, 4, 3, 2, 2, 1]));
    assert_eq!(json["kept"], serde_json::json!([4, 3, 2, 2, 1]));
    assert!(json["events"].as_array().is_some_and(|e| !e.is_empty()));
    check_cli(
        "cli_module_grid_guns_5_shields_4_explain",
        "Battlestations, Ship to Ship Combat: Cannon Hits (Guns 5 against Shields 4)",
        &[
            "resolve",
            "module-grid",
            "--attacker",
            "cruiser",
            "--target",
            "cruiser",
            "--range",
            "2",
            "--dice",
            "5,4,2,3,4,6,6,6,4,4,3,2,2,1",
            "--explain",
        ],
    );
}

#[test]
fn ships_are_listed_with_their_layouts() {
    let text = cli_ok(&["ships", "module-grid"]);
    for id in ["scout", "frigate", "destroyer", "cruiser"] {
        assert!(text.contains(id), "{id} missing from:\n{text}");
    }
    let json = cli_json(&["ships", "module-grid", "--format", "json"]);
    assert_eq!(json["system"], "module-grid");
}

#[test]
fn a_seeded_duel_reports_its_odds() {
    let json = cli_json(&[
        "duel",
        "module-grid",
        "destroyer",
        "frigate",
        "--trials",
        "200",
        "--seed",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(json["system"], "module-grid");
    assert_eq!(json["trials"], 200);
    for outcome in ["a_wins", "b_wins", "undecided"] {
        assert!(json["outcomes"][outcome]["p"].is_number(), "{outcome}");
    }
}

#[test]
fn a_called_point_off_the_ship_is_refused() {
    check_cli_error(
        &[
            "resolve",
            "module-grid",
            "--attacker",
            "frigate",
            "--target",
            "scout",
            "--range",
            "1",
            "--call",
            "1,1",
        ],
        "off the scout",
    );
}

#[test]
fn a_malformed_called_point_is_bad_input() {
    check_cli_error(
        &[
            "resolve",
            "module-grid",
            "--attacker",
            "frigate",
            "--target",
            "scout",
            "--range",
            "1",
            "--call",
            "abc",
        ],
        "--call",
    );
}

#[test]
fn fusion_mode_needs_a_fusion_node() {
    check_cli_error(
        &[
            "resolve",
            "module-grid",
            "--attacker",
            "scout",
            "--target",
            "frigate",
            "--range",
            "1",
            "--mode",
            "fusion",
        ],
        "Fusion",
    );
}

#[test]
fn an_unknown_ship_is_bad_input() {
    check_cli_error(
        &[
            "resolve",
            "module-grid",
            "--attacker",
            "dreadnought",
            "--target",
            "scout",
            "--range",
            "1",
        ],
        "unknown ship 'dreadnought'",
    );
}

#[test]
fn an_unknown_module_type_in_a_layout_file() {
    let copy = RulesetCopy::of("module-grid", "unknown-module");
    copy.edit(
        "ships.toml",
        r#"[".",       "cannon",    "."],"#,
        r#"[".",       "lazer",     "."],"#,
    );
    check_cli_data_error(
        &["ships", "module-grid", "--rules", copy.path()],
        &[
            "ships.toml",
            "scout.layout[0][1]",
            "unknown module type 'lazer'",
        ],
    );
}

#[test]
fn a_ragged_grid_in_a_layout_file() {
    let copy = RulesetCopy::of("module-grid", "ragged");
    copy.edit(
        "ships.toml",
        r#"["engine",  "cargo-bay", "engine"],"#,
        r#"["engine",  "cargo-bay"],"#,
    );
    check_cli_data_error(
        &["ships", "module-grid", "--rules", copy.path()],
        &["ships.toml", "scout.layout", "ragged"],
    );
}

/// Battlestations, Ship to Ship Combat, "Hit Allocation": "Each scan you
/// have on a ship may be expended to reroll one of the hit allocation
/// dice." A frigate with one scan on a scout, range 1: to-hit 4 + 4 +
/// Gunnery 2 = 10 against 7 + 1 = 8 hits; 6 + 6 lands five columns to
/// starboard of the centre, off the ship; the default tactics spend the
/// scan on the first 6, which comes up 1: 1 + 6 = 7, the centre column, and
/// the kept 4, 2, 1 fall on the Cannon, the Helm and the Cargo Bay.
#[test]
fn a_scan_rerolls_an_allocation_die() {
    let json = cli_json(&[
        "resolve",
        "module-grid",
        "--attacker",
        "frigate",
        "--target",
        "scout",
        "--range",
        "1",
        "--scans",
        "1",
        "--dice",
        "4,4,6,6,1,6,5,4,2,1",
        "--format",
        "json",
    ]);
    assert_eq!(json["allocation"], 7);
    assert_eq!(json["impact"]["at"], "1,2");
    assert_eq!(json["hull_damage"], 7);
}

/// `--luck` may not offer more Luck than the attacker has.
#[test]
fn more_luck_than_the_ship_has_is_bad_input() {
    check_cli_error(
        &[
            "resolve",
            "module-grid",
            "--attacker",
            "frigate",
            "--target",
            "scout",
            "--range",
            "1",
            "--luck",
            "4",
        ],
        "the frigate has 3 Luck",
    );
}

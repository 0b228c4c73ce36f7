//! End-to-end tests of the binary for the 2d6 crew-position system, bad input
//! included.

use broadside_tests::{RulesetCopy, check_cli_data_error, check_cli_error, cli_json, cli_ok};

#[test]
fn a_beam_laser_attack_in_json() {
    let json = cli_json(&[
        "resolve",
        "crew-2d6",
        "--attacker",
        "corvette",
        "--weapon",
        "beam-laser",
        "--target",
        "trader",
        "--range-band",
        "short",
        "--seed",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(json["system"], "crew-2d6");
    for field in ["total", "effect", "hit", "damage", "criticals", "events"] {
        assert!(!json[field].is_null(), "{field} missing");
    }
    assert!(json["target"]["hull"].is_number() && json["target"]["armour"].is_number());
}

#[test]
fn ships_list_their_crews() {
    let text = cli_ok(&["ships", "crew-2d6"]);
    for id in ["scout", "trader", "corvette", "escort"] {
        assert!(text.contains(id), "{id} missing from:\n{text}");
    }
}

/// Escaping by jump is its own outcome of a duel: a trader starting at an
/// Alderson point jumps away from a corvette.
#[test]
fn escapes_by_jump_are_their_own_outcome() {
    let json = cli_json(&[
        "duel",
        "crew-2d6",
        "trader",
        "corvette",
        "--jump-point",
        "a",
        "--trials",
        "100",
        "--seed",
        "2",
        "--format",
        "json",
    ]);
    assert!(
        json["outcomes"]["a_escapes"]["p"]
            .as_f64()
            .is_some_and(|p| p > 0.5),
        "{json}"
    );
}

#[test]
fn an_unknown_range_band_is_bad_input() {
    check_cli_error(
        &[
            "resolve",
            "crew-2d6",
            "--attacker",
            "corvette",
            "--weapon",
            "beam-laser",
            "--target",
            "trader",
            "--range-band",
            "far",
        ],
        "invalid value 'far' for '--range-band",
    );
}

#[test]
fn a_salvo_larger_than_the_magazine_is_refused() {
    check_cli_error(
        &[
            "resolve",
            "crew-2d6",
            "--attacker",
            "escort",
            "--weapon",
            "missile-rack",
            "--target",
            "corvette",
            "--range-band",
            "medium",
            "--salvo",
            "25",
        ],
        "larger than the magazine",
    );
}

#[test]
fn a_crew_member_with_a_skill_the_system_lacks() {
    let copy = RulesetCopy::of("crew-2d6", "unknown-skill");
    copy.edit("ships.toml", "skills = { ", "skills = { astrophysics = 2, ");
    check_cli_data_error(
        &["ships", "crew-2d6", "--rules", copy.path()],
        &[
            "ships.toml",
            "skills.astrophysics",
            "unknown skill 'astrophysics'",
        ],
    );
}

//! End-to-end tests of the binary for the 2d6 crew-position system, bad input
//! included.

mod common;

use common::{RulesetCopy, check_cli_data_error, check_cli_error, cli_json, cli_ok};

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

/// Seed 004, Point Defense and ECM against missiles about to hit, declared
/// on the command line: two point-defence mounts and ECM against the
/// escort's two missiles. The corvette's triple beam laser turret (Gunner 2,
/// +2 for three lasers) rolls 5 + 5 + 4 = 14, Effect +6, and destroys both;
/// nothing is left about to hit, so no further reaction is made.
#[test]
fn resolve_declares_ecm_and_several_point_defence_mounts() {
    let json = cli_json(&[
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
        "--point-defense",
        "2",
        "--ecm",
        "--dice",
        "5,5",
        "--format",
        "json",
    ]);
    let reactions = json["reactions"].as_array().expect("reactions");
    assert_eq!(reactions.len(), 1, "{json}");
    assert_eq!(reactions[0]["amount"], 2);
    assert_eq!(json["missiles"]["attacking"], 0);
}

#[test]
fn point_defence_from_no_mount_is_bad_input() {
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
            "--point-defense",
            "0",
        ],
        "--point-defense",
    );
}

/// Seed 004, Dodge Attack: "Gives the current attack a negative DM equal to
/// any positive Effect". The corvette's beam lasers roll 1 + 1 + 7 = 9 (Gunner
/// 2, Short +1, beam laser +4). A failed dodge (6 + 1 + Pilot 1 = 8 against
/// 10+) gives the attack nothing, and the summary names no consequence rather
/// than "attack DM -0"; the hit then does 1D 1 + 2 + 1 - 1 = 3. A successful
/// dodge (6 + 6 + 1 = 13, Effect +3) names its DM, and 9 - 3 = 6 misses.
#[test]
fn a_failed_reaction_names_no_consequence() {
    let resolve = |dice: &str| {
        cli_ok(&[
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
            "--dodge",
            "--dice",
            dice,
        ])
    };
    let failed = resolve("1,1,6,1,1");
    let line = failed
        .lines()
        .find(|l| l.starts_with("dodge:"))
        .expect("a dodge line");
    assert!(line.ends_with("failure (Effect -2)"), "{line}");
    let succeeded = resolve("1,1,6,6");
    let line = succeeded
        .lines()
        .find(|l| l.starts_with("dodge:"))
        .expect("a dodge line");
    assert!(
        line.contains("success") && line.contains(", attack DM -"),
        "{line}"
    );
}

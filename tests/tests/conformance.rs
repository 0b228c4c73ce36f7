//! The conformance suite over every rule system: the same driver, each
//! system's cases.

use broadside_core::{BattleRequest, OptionValue, Options, ResolveRequest};
use broadside_tests::conformance::{Case, check_conformance};

fn duel(a: &str, b: &str, options: Options) -> BattleRequest {
    BattleRequest {
        sides: [vec![a.into()], vec![b.into()]],
        max_turns: 30,
        options,
        ..Default::default()
    }
}

/// Fleets: side A two ships of `a` and one of `b`, side B one of each.
fn fleet(a: &str, b: &str) -> BattleRequest {
    BattleRequest {
        sides: [vec![a.into(), a.into(), b.into()], vec![a.into(), b.into()]],
        max_turns: 30,
        ..Default::default()
    }
}

fn resolve(attacker: &str, target: &str, options: &[(&str, OptionValue)]) -> ResolveRequest {
    let mut set = Options::new();
    for (name, value) in options {
        set.set(name, value.clone());
    }
    ResolveRequest {
        attacker: attacker.into(),
        target: target.into(),
        options: set,
    }
}

fn text(value: &str) -> OptionValue {
    OptionValue::Text(value.into())
}

#[test]
fn percentile_conforms() {
    check_conformance(&Case {
        registration: broadside_percentile::REGISTRATION,
        resolves: vec![
            resolve(
                "frigate",
                "destroyer",
                &[
                    ("weapon", text("laser-battery")),
                    ("range", OptionValue::Number(3)),
                ],
            ),
            resolve(
                "destroyer",
                "frigate",
                &[
                    ("weapon", text("torpedo")),
                    ("range", OptionValue::Number(2)),
                    ("icm", OptionValue::Number(2)),
                ],
            ),
            resolve(
                "light-cruiser",
                "heavy-cruiser",
                &[
                    ("weapon", text("proton-beam-battery")),
                    ("range", OptionValue::Number(6)),
                    ("screen", text("electron")),
                ],
            ),
            resolve(
                "battleship",
                "frigate",
                &[
                    ("weapon", text("disruptor-cannon")),
                    ("range", OptionValue::Number(1)),
                    ("head-on", OptionValue::Flag),
                    ("masking-screen", OptionValue::Flag),
                ],
            ),
        ],
        refused: vec![resolve(
            "frigate",
            "destroyer",
            &[
                ("weapon", text("laser-battery")),
                ("range", OptionValue::Number(20)),
            ],
        )],
        cells: vec![
            ("damage-table", "83", Some("result"), "defense-hit"),
            ("combat-table", "torpedo", Some("stasis-screen"), "75%"),
        ],
        duel: duel("destroyer", "frigate", Options::new()),
        mirror: duel(
            "frigate",
            "frigate",
            Options::new().with("start-range", OptionValue::Number(10)),
        ),
        fleet: fleet("frigate", "destroyer"),
    });
}

#[test]
fn module_grid_conforms() {
    check_conformance(&Case {
        registration: broadside_module_grid::REGISTRATION,
        resolves: vec![
            resolve("frigate", "destroyer", &[("range", OptionValue::Number(2))]),
            resolve(
                "cruiser",
                "frigate",
                &[
                    ("range", OptionValue::Number(4)),
                    ("mode", text("long")),
                    ("side", text("port")),
                ],
            ),
            resolve(
                "destroyer",
                "cruiser",
                &[("range", OptionValue::Number(1)), ("mode", text("multi"))],
            ),
        ],
        refused: vec![resolve(
            "frigate",
            "scout",
            &[("range", OptionValue::Number(1)), ("call", text("1,1"))],
        )],
        cells: vec![],
        duel: duel("destroyer", "frigate", Options::new()),
        mirror: duel("destroyer", "destroyer", Options::new()),
        fleet: fleet("frigate", "destroyer"),
    });
}

#[test]
fn action_d10_conforms() {
    check_conformance(&Case {
        registration: broadside_action_d10::REGISTRATION,
        resolves: vec![
            resolve(
                "frigate",
                "destroyer",
                &[
                    ("weapon", text("heavy-laser")),
                    ("range", OptionValue::Number(5)),
                ],
            ),
            resolve(
                "cruiser",
                "frigate",
                &[
                    ("weapon", text("spinal-railgun")),
                    ("range", OptionValue::Number(8)),
                    ("aft", OptionValue::Flag),
                ],
            ),
            resolve(
                "destroyer",
                "carrier",
                &[
                    ("weapon", text("particle-cannon")),
                    ("range", OptionValue::Number(3)),
                    ("locked", OptionValue::Flag),
                ],
            ),
        ],
        refused: vec![resolve(
            "frigate",
            "destroyer",
            &[
                ("weapon", text("laser-turret")),
                ("range", OptionValue::Number(20)),
            ],
        )],
        cells: vec![
            ("swarmer-hits", "7", Some("12"), "8"),
            ("swarmer-hits", "0", Some("40"), "0"),
            ("swarmer-hits", "15", Some("40"), "40"),
        ],
        duel: duel(
            "destroyer",
            "frigate",
            Options::new().with("start-range", OptionValue::Number(10)),
        ),
        mirror: duel("destroyer", "destroyer", Options::new()),
        fleet: fleet("frigate", "destroyer"),
    });
}

#[test]
fn crew_2d6_conforms() {
    check_conformance(&Case {
        registration: broadside_crew_2d6::REGISTRATION,
        resolves: vec![
            resolve(
                "corvette",
                "trader",
                &[
                    ("weapon", text("beam-laser")),
                    ("range-band", text("short")),
                ],
            ),
            resolve(
                "escort",
                "corvette",
                &[
                    ("weapon", text("missile-rack")),
                    ("range-band", text("medium")),
                    ("salvo", OptionValue::Number(2)),
                ],
            ),
            resolve(
                "corvette",
                "scout",
                &[
                    ("weapon", text("beam-laser")),
                    ("range-band", text("close")),
                    ("aim", OptionValue::Number(2)),
                    ("dodge", OptionValue::Flag),
                ],
            ),
        ],
        refused: vec![resolve(
            "corvette",
            "trader",
            &[
                ("weapon", text("beam-laser")),
                ("range-band", text("distant")),
            ],
        )],
        cells: vec![],
        duel: duel("escort", "corvette", Options::new()),
        mirror: duel(
            "corvette",
            "corvette",
            Options::new().with("start-band", text("long")),
        ),
        fleet: fleet("scout", "corvette"),
    });
}

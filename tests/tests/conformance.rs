//! The conformance suite over every rule system: the same driver, each
//! system's cases.

use broadside_core::{DuelRequest, OptionValue, Options, ResolveRequest};
use broadside_tests::conformance::{Case, check_conformance};

fn duel(a: &str, b: &str, options: Options) -> DuelRequest {
    DuelRequest {
        a: a.into(),
        b: b.into(),
        max_turns: 30,
        options,
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
        duel: duel("destroyer", "frigate", Options::new()),
        mirror: duel(
            "frigate",
            "frigate",
            Options::new().with("start-range", OptionValue::Number(10)),
        ),
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
        duel: duel("destroyer", "frigate", Options::new()),
        mirror: duel("destroyer", "destroyer", Options::new()),
    });
}

//! The minimal system's tests: worked examples, exact odds, a data problem and the conformance suite.

use broadside_core::exact::Prob;
use broadside_core::{BattleRequest, EventLog, ResolveRequest, Ruleset, ScriptedDice, System};
use broadside_minimal::{Minimal, REGISTRATION};
use broadside_tests::conformance::{Case, check_conformance};
use serde_json::{Value, json};

fn system() -> Minimal {
    broadside_core::kit::embedded().expect("the embedded data loads")
}

fn request(attacker: &str, target: &str) -> ResolveRequest {
    ResolveRequest::new(attacker, target, Default::default())
}

/// The report of `attacker` firing at `target` with scripted faces, every
/// face read and events logged.
fn check(attacker: &str, target: &str, faces: Vec<u32>) -> Value {
    let (mut dice, mut log) = (ScriptedDice::new(faces), EventLog::default());
    let report = system()
        .resolve(&request(attacker, target), &mut dice, &mut log)
        .unwrap();
    assert!(dice.remaining().is_empty() && !log.events.is_empty());
    serde_json::to_value(&*report).unwrap()
}

/// Source: `data/ships.toml` (a frigate hits on 4+, a cutter has hull 2)
/// and the rules in `src/lib.rs` (a hit takes one point off the hull).
#[test]
fn a_frigate_hits_a_cutter_on_a_four_and_misses_on_a_three() {
    let hit = json!({"attacker": "frigate", "target": "cutter", "hits_on": 4, "roll": 4,
                     "hit": true, "hull_damage": 1, "hull_left": 1});
    assert_eq!(check("frigate", "cutter", vec![4]), hit);
    let miss = check("frigate", "cutter", vec![3]);
    assert_eq!(
        [&miss["hit"], &miss["hull_left"]],
        [&json!(false), &json!(2)]
    );
}

/// A cruiser hits on 3+: four faces of six.
#[test]
fn exact_odds_count_the_faces_that_hit() {
    let exact = system().resolve_exact(&request("cruiser", "frigate"), 1000, Prob::new(0, 1));
    let exact = exact.unwrap();
    assert_eq!((exact.fractions["p_hit"].as_str(), exact.paths), ("2/3", 6));
}

#[test]
fn a_hull_out_of_range_is_reported_with_its_file_key_and_line() {
    let text = "[tug]\nname = \"Tug\"\nhull = 0\nhits-on = 5\nsource = \"test\"\n";
    let files = [broadside_core::SourceFile {
        name: "ships.toml".into(),
        text: text.into(),
    }];
    let error = Minimal::from_files(&files).unwrap_err().to_string();
    assert!(
        error.contains("ships.toml") && error.contains("tug.hull") && error.contains("line 3"),
        "{error}"
    );
}

fn battle(a: &[&str], b: &[&str]) -> BattleRequest {
    BattleRequest::fleets(a, b, 30, Default::default())
}

#[test]
fn conforms() {
    check_conformance(&Case {
        registration: REGISTRATION,
        resolves: vec![request("frigate", "cutter"), request("cruiser", "cruiser")],
        refused: Vec::new(),
        cells: vec![("ships", "cruiser", Some("hits on"), "3+")],
        duel: battle(&["frigate"], &["cruiser"]),
        mirror: battle(&["frigate"], &["frigate"]),
        fleet: battle(&["cutter", "cutter", "frigate"], &["cutter", "frigate"]),
    });
}

//! Value stability: fixed seeds give fixed outcomes. If one of these
//! changes, every published seed changes meaning: that must be deliberate.

mod common;

use broadside_core::{
    OptionValue, Options, ResolveRequest, Ruleset, SeededDice, Side, Verdict, play_trial,
};
use common::{duel_request, system};

#[test]
fn a_seeded_resolution_is_fixed() {
    let request = ResolveRequest {
        attacker: "destroyer".into(),
        target: "frigate".into(),
        options: Options::new()
            .with("weapon", OptionValue::Text("heavy-laser".into()))
            .with("range", OptionValue::Number(7)),
    };
    let report = system()
        .resolve(
            &request,
            &mut SeededDice::new(2028),
            &mut broadside_core::NullSink,
        )
        .expect("the attack resolves");
    let json = serde_json::to_value(&*report).expect("JSON");
    assert_eq!(
        (
            json["lock"]["rolls"].clone(),
            json["rolls"].clone(),
            json["hits"].clone(),
            json["boxes_marked"].clone()
        ),
        (
            serde_json::json!(STABLE_LOCK),
            serde_json::json!(STABLE_ROLLS),
            serde_json::json!(STABLE_HITS),
            serde_json::json!(STABLE_BOXES)
        )
    );
}

#[test]
fn a_seeded_duel_is_fixed() {
    let engagement = system()
        .prepare_battle(&duel_request("destroyer", "frigate", 50, &[]))
        .expect("the duel sets up");
    let outcomes: Vec<Fixed> = (0..4)
        .map(|trial| {
            let o = play_trial(&*engagement, 2026, trial, &mut broadside_core::NullSink)
                .expect("the trial plays");
            (o.verdict, o.turns, o.winner_hull)
        })
        .collect();
    assert_eq!(outcomes, STABLE_DUELS.to_vec());
}

// Seed 2028. Lock at range 7: 7 - 3 + 2 (FCS) = 6, rolled 2; to hit 6,
// rolled 1: one hit, into the frigate's shield point.
const STABLE_LOCK: [u32; 1] = [2];
const STABLE_ROLLS: [u32; 1] = [1];
const STABLE_HITS: u32 = 1;
const STABLE_BOXES: [&str; 1] = ["-"];
/// A trial's verdict, turns, and the winner's boxes left and total.
type Fixed = (Verdict, u32, Option<(i32, i32)>);

const STABLE_DUELS: [Fixed; 4] = [
    (Verdict::Winner(Side::B), 9, Some((4, 22))),
    (Verdict::Winner(Side::A), 7, Some((14, 31))),
    (Verdict::Winner(Side::B), 9, Some((8, 22))),
    (Verdict::Winner(Side::B), 8, Some((5, 22))),
];

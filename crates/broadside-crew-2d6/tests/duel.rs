//! Whole engagements: a seeded duel log, value stability, escapes by jump, and the default tactics.

mod common;

use broadside_core::{
    BattleRequest, Engagement, EventLog, NullSink, ResolveError, Ruleset, SeededDice, Side,
    Verdict, play_trial, run_trials,
};
use common::{check_named, duel_request, numbered, resolve_with, system, text};
use serde_json::json;

/// A seeded duel, logged in full: the scout against the trader, starting at
/// Medium range, two turns. The log shows every phase of the turn sequence
/// with the default tactics.
#[test]
fn seeded_duel_log() {
    let ruleset: &dyn Ruleset = system();
    let request = duel_request("scout", "trader", 2, &[("start-band", text("medium"))]);
    let duel = ruleset
        .prepare_battle(&request)
        .expect("the duel is set up");
    let mut log = EventLog::default();
    let outcome = play_trial(&*duel, 2026, 0, &mut log).expect("the trial plays");
    let mut out = format!("outcome: {outcome:?}\n");
    out.push_str(&numbered(&log.events));
    check_named(
        "duel_scout_trader_seed_2026_two_turns",
        "Traveller house-rule cheat sheet, Turn Sequence: setting up, initiative, maneuver step (reverse order), attack step, missile hits",
        &json!({"system": "crew-2d6", "a": "scout", "b": "trader", "start-band": "medium", "max_turns": 2, "seed": 2026, "trial": 0}),
        &out,
    );
}

/// Value stability: a fixed seed gives a fixed outcome, so a seed printed in
/// a report keeps its meaning. The values were recorded once from a run; a
/// change here changes every published seed, which must be deliberate. All
/// were recorded again when the seeded generator became Xoshiro256++.
#[test]
fn fixed_seeds_give_fixed_outcomes() {
    let mut dice = SeededDice::new(2026);
    let r = resolve_with(
        "corvette",
        "trader",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("short")),
        ],
        &mut dice,
    )
    .expect("the attack resolves");
    assert_eq!(
        (
            r.json["roll"]["total"].clone(),
            r.json["total"].clone(),
            r.json["damage"].clone()
        ),
        (json!(7), json!(14), json!(23))
    );
    let ruleset: &dyn Ruleset = system();
    let duel = ruleset
        .prepare_battle(&duel_request("escort", "corvette", 50, &[]))
        .expect("the duel is set up");
    let outcome = play_trial(&*duel, 2026, 0, &mut NullSink).expect("the trial plays");
    assert_eq!(
        (outcome.verdict, outcome.turns, outcome.winner_hull),
        (Verdict::Winner(Side::A), 6, Some((170, 200)))
    );
}

/// Escaping by jump is its own outcome: the trader starting at an Alderson
/// point facing a corvette with twice its hull jumps away.
#[test]
fn a_ship_at_a_jump_point_escapes() {
    let ruleset: &dyn Ruleset = system();
    let duel = ruleset
        .prepare_battle(&duel_request(
            "trader",
            "corvette",
            20,
            &[("jump-point", text("a"))],
        ))
        .expect("the duel is set up");
    let summary = run_trials(&*duel, 3, 200, &|_| {})
        .expect("trials run")
        .summary(duel.roster());
    assert!(summary.outcomes.a_escapes.count > 150, "{summary:?}");
    assert_eq!(summary.outcomes.b_escapes.count, 0);

    // The trader that jumped is reported as escaped, not lost; the corvette
    // is neither.
    let escape = (0..20)
        .map(|i| {
            duel.play(&mut SeededDice::for_trial(3, i), &mut NullSink)
                .expect("a trial plays")
        })
        .find(|outcome| outcome.verdict == Verdict::Escaped(Side::A))
        .expect("a trial in which the trader jumps");
    let fates: Vec<_> = escape.ships.iter().map(|f| (f.escaped, f.loss)).collect();
    assert_eq!(fates, [(true, None), (false, None)]);
}

/// The default tactics play sensibly: the stronger ship usually wins, a
/// mirror match is close to even, and nothing stays undecided.
#[test]
fn default_tactics_play_sensibly() {
    let ruleset: &dyn Ruleset = system();
    let odds = |a: &str, b: &str| {
        let duel: Box<dyn Engagement> = ruleset
            .prepare_battle(&duel_request(a, b, 50, &[]))
            .expect("the duel is set up");
        run_trials(&*duel, 9, 300, &|_| {})
            .expect("trials run")
            .summary(duel.roster())
    };
    let stronger = odds("escort", "corvette");
    assert!(stronger.outcomes.a_wins.p > 0.7, "{stronger:?}");
    let mirror = odds("corvette", "corvette");
    assert!(
        (mirror.outcomes.a_wins.p - mirror.outcomes.b_wins.p).abs() < 0.2,
        "{mirror:?}"
    );
    assert_eq!(mirror.outcomes.undecided.count, 0);
}

/// Duel options are checked: an unknown ship, both a band and an
/// encounter, a turn limit of 0.
#[test]
fn duel_requests_are_checked() {
    let ruleset: &dyn Ruleset = system();
    let err = |request: BattleRequest| ruleset.prepare_battle(&request).err();
    assert!(matches!(
        err(duel_request("scout", "yacht", 5, &[])),
        Some(ResolveError::Unknown { kind: "ship", .. })
    ));
    assert!(matches!(
        err(duel_request(
            "scout",
            "trader",
            5,
            &[("start-band", text("short")), ("encounter", text("random"))]
        )),
        Some(ResolveError::BadOption { .. })
    ));
    assert!(matches!(
        err(duel_request("scout", "trader", 0, &[])),
        Some(ResolveError::BadOption { .. })
    ));
}

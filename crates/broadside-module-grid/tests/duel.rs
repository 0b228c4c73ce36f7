//! Whole engagements: a seeded duel log, value stability of seeded results, and the conformance checks every system passes.

mod common;

use broadside_core::{
    BattleRequest, EventLog, NullSink, Options, ResolveError, Ruleset, ScriptedDice, SeededDice,
    Verdict, play_trial, run_trials,
};
use common::{
    assert_named, duel_request, num, numbered_events, resolve, resolve_with, system, text,
};
use serde_json::json;

/// A destroyer against a frigate, seed 2026, trial 0, at most 2 turns: the
/// whole log, from the roll for who acts first to the verdict.
#[test]
fn seeded_duel_log_destroyer_against_frigate() {
    let grid: &dyn Ruleset = system();
    let request = duel_request("destroyer", "frigate", 2, &[("start-range", num(6))]);
    let engagement = grid.prepare_battle(&request).expect("the duel is set up");
    let mut log = EventLog::default();
    let outcome = play_trial(&*engagement, 2026, 0, &mut log).expect("the trial plays");
    let mut out = String::from(
        "duel module-grid: destroyer (A) against frigate (B), start range 6, at most 2 turns, seed 2026, trial 0\n",
    );
    numbered_events(&mut out, &log.events);
    out.push_str(&format!("outcome: {outcome:?}\n"));
    assert_named(
        "duel_destroyer_against_frigate_seed_2026",
        "a seeded engagement under the module-grid rules and the default tactics",
        &json!({"a": "destroyer", "b": "frigate", "start-range": 6, "max-turns": 2, "seed": 2026, "trial": 0}),
        &out,
    );
}

/// Fixed seeds give fixed outcomes: if these change, every published seed
/// changes meaning, which must be deliberate.
#[test]
fn seeded_results_are_value_stable() {
    let r = resolve_with(
        "destroyer",
        "frigate",
        &[("range", num(2)), ("side", text("port"))],
        &mut SeededDice::new(2043),
    )
    .expect("resolves");
    assert_eq!(
        (
            r.json["hit"].clone(),
            r.json["allocation"].clone(),
            r.json["kept"].clone(),
            r.json["hull_damage"].clone()
        ),
        (json!(true), json!(7), json!([5, 3, 2, 1]), json!(11)),
        "seeded resolution: {}",
        r.json
    );

    let grid: &dyn Ruleset = system();
    let engagement = grid
        .prepare_battle(&duel_request("destroyer", "frigate", 50, &[]))
        .expect("the duel is set up");
    let tally = run_trials(&*engagement, 7, 400, &|_| {}).expect("the trials play");
    let s = tally.summary(engagement.roster());
    assert_eq!(
        (
            s.outcomes.a_wins.count,
            s.outcomes.b_wins.count,
            s.outcomes.draws.count,
            s.outcomes.undecided.count
        ),
        (362, 32, 6, 0),
        "destroyer against frigate, seed 7, 400 trials"
    );
}

/// The same seed gives the same duel, and different trials differ.
#[test]
fn the_same_seed_gives_the_same_duel() {
    let grid: &dyn Ruleset = system();
    let engagement = grid
        .prepare_battle(&duel_request("cruiser", "destroyer", 50, &[]))
        .expect("the duel is set up");
    let play = |trial| {
        let mut log = EventLog::default();
        let outcome = play_trial(&*engagement, 99, trial, &mut log).expect("plays");
        (outcome, log.events)
    };
    assert_eq!(play(3), play(3));
    assert_ne!(play(3).1, play(4).1);
}

/// Conformance: what every rule system must do with a resolution.
#[test]
fn conformance_resolution() {
    // A legal attack resolves.
    let r = resolve_with(
        "scout",
        "frigate",
        &[("range", num(1))],
        &mut SeededDice::new(1),
    )
    .expect("a legal attack resolves");
    assert!(r.json["hit"].is_boolean());
    // An unknown ship is Unknown, with the known list.
    match resolve("battlestar", "frigate", &[("range", num(1))], &[]) {
        Err(ResolveError::Unknown { kind, known, .. }) => {
            assert_eq!(kind, "ship");
            assert!(known.contains("scout") && known.contains("cruiser"));
        }
        other => panic!("expected an unknown ship, got {other:?}"),
    }
    // An unknown option, a missing required option, a bad choice.
    assert!(matches!(
        resolve(
            "scout",
            "frigate",
            &[("range", num(1)), ("weapon", text("cannon"))],
            &[]
        ),
        Err(ResolveError::Unknown { kind: "option", .. })
    ));
    assert!(matches!(
        resolve("scout", "frigate", &[], &[]),
        Err(ResolveError::BadOption { .. })
    ));
    assert!(matches!(
        resolve(
            "scout",
            "frigate",
            &[("range", num(1)), ("mode", text("rapid"))],
            &[]
        ),
        Err(ResolveError::Unknown { .. })
    ));
    assert!(matches!(
        resolve("scout", "frigate", &[("range", num(-1))], &[]),
        Err(ResolveError::BadOption { .. })
    ));
    // Scripted dice that run out are an error, not a panic.
    let mut short = ScriptedDice::new([6, 6, 3]);
    assert!(matches!(
        resolve_with("scout", "frigate", &[("range", num(1))], &mut short),
        Err(ResolveError::Dice(_))
    ));
    // A face a die cannot show is an error too.
    let mut impossible = ScriptedDice::new([7]);
    assert!(matches!(
        resolve_with("scout", "frigate", &[("range", num(1))], &mut impossible),
        Err(ResolveError::Dice(_))
    ));
}

/// Conformance: what every rule system must do with a duel.
#[test]
fn conformance_duel() {
    let grid: &dyn Ruleset = system();
    // A duel plays to a verdict or to the turn limit.
    let engagement = grid
        .prepare_battle(&duel_request("scout", "scout", 2, &[]))
        .expect("the duel is set up");
    let outcome = engagement
        .play(&mut SeededDice::new(5), &mut NullSink)
        .expect("plays");
    assert!(outcome.turns <= 2);
    if outcome.verdict == Verdict::Undecided {
        assert_eq!(outcome.turns, 2);
    }
    // Unknown ships and bad options are refused.
    assert!(matches!(
        grid.prepare_battle(&duel_request("scout", "warbird", 5, &[])),
        Err(ResolveError::Unknown { .. })
    ));
    assert!(matches!(
        grid.prepare_battle(&BattleRequest {
            sides: [vec!["scout".into()], vec!["frigate".into()]],
            max_turns: 0,
            options: Options::new(),
            ..Default::default()
        }),
        Err(ResolveError::BadOption { .. })
    ));
    assert!(matches!(
        grid.prepare_battle(&duel_request(
            "scout",
            "frigate",
            5,
            &[("start-range", num(-2))]
        )),
        Err(ResolveError::BadOption { .. })
    ));
    // Scripted dice that run out stop a duel with an error.
    let mut short = ScriptedDice::new([1, 2]);
    assert!(matches!(
        engagement.play(&mut short, &mut NullSink),
        Err(ResolveError::Dice(_))
    ));
}

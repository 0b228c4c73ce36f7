//! Property tests of whole percentile engagements over seeds, ship pairs and starting ranges.
//!
//! Every duel here is played by the default tactics through the same
//! `Engagement` the CLI and the Monte Carlo runner use, watched at every
//! decision. The invariants come from the design brief and the Advanced
//! Game rules: a destroyed ship acts no more (Sequence of play; Hull Hits);
//! hull points never exceed the original and limited supplies never come back
//! (Recording Damage, Repairs: no rule restores a supply); an engagement ends
//! by its turn limit; and a Monte Carlo tally does not depend on the order in
//! which its trials are played. Fleets of one to four ships a side keep the
//! same invariants, and a side never loses more ships than it fields.

use broadside_core::{Setup, Side, Verdict, run_trials};
use broadside_tests::engagement::{
    check_destroyed_ships_do_not_act, check_state_invariants, duel, fleet, observed,
    observed_trial, tally_in_order,
};
use broadside_tests::percentile;
use proptest::prelude::*;

/// Any ship class of the data of record, by id.
fn ship_id() -> impl Strategy<Value = String> {
    let ids: Vec<String> = percentile()
        .rules
        .ships
        .iter()
        .map(|s| s.id.clone())
        .collect();
    proptest::sample::select(ids)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// One seeded trial of any pair of ships from 0 to 20 hexes apart,
    /// with a limit of 1 to 30 turns: no destroyed ship acts, the state
    /// invariants hold at every decision, the engagement ends by its turn
    /// limit, and watching it changes nothing.
    #[test]
    fn whole_duels_keep_the_rules_invariants(
        a in ship_id(),
        b in ship_id(),
        range in 0u32..=20,
        max_turns in 1u32..=30,
        seed: u64,
        trial in 0u64..1_000,
    ) {
        let t = observed_trial(&a, &b, range, max_turns, seed, trial);
        prop_assert_eq!(&t.outcome, &t.unobserved, "watching the trial changed it");
        if let Err(e) = check_destroyed_ships_do_not_act(&t.events) {
            prop_assert!(false, "{a} against {b}, seed {seed} trial {trial}: {e}");
        }
        if let Err(e) = check_state_invariants(&t.states) {
            prop_assert!(false, "{a} against {b}, seed {seed} trial {trial}: {e}");
        }
        prop_assert!(t.outcome.turns <= max_turns);
        if t.outcome.verdict == Verdict::Undecided {
            prop_assert_eq!(t.outcome.turns, max_turns);
        } else {
            prop_assert!(t.outcome.turns >= 1, "decided before any turn was played");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() })]

    /// Trials 0..40 of a seeded duel tally the same played forwards,
    /// backwards, and by the runner on every core.
    #[test]
    fn a_tally_does_not_depend_on_the_order_of_its_trials(
        a in ship_id(),
        b in ship_id(),
        range in 0u32..=16,
        seed: u64,
    ) {
        const TRIALS: u64 = 40;
        let engagement = duel(&a, &b, range, 20);
        let forwards = tally_in_order(&engagement, seed, 0..TRIALS);
        let backwards = tally_in_order(&engagement, seed, (0..TRIALS).rev());
        let parallel = run_trials(&engagement, seed, TRIALS, &|_| {})
            .expect("the trials play");
        prop_assert_eq!(&forwards, &backwards);
        prop_assert_eq!(&forwards, &parallel);
        prop_assert_eq!(forwards.summary(Setup::roster(&engagement)).trials, TRIALS);
    }
}

/// One side of one to four ships of any class, in any order.
fn fleet_side() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(ship_id(), 1..=4)
}

/// Any formation a side may start in.
fn formation() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(vec!["stack", "line", "column"])
}

fn ids(side: &[String]) -> Vec<&str> {
    side.iter().map(String::as_str).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    /// One seeded trial of two random fleets in random formations: one fate
    /// per ship of the roster, each on its ship's side; a side loses at most
    /// the ships it fields; no destroyed ship acts; the state invariants hold
    /// at every decision; and watching the trial changes nothing.
    #[test]
    fn fleets_keep_the_rules_invariants(
        a in fleet_side(),
        b in fleet_side(),
        formations in (formation(), formation()),
        range in 0u32..=16,
        seed: u64,
        trial in 0u64..1_000,
    ) {
        let (a, b) = (ids(&a), ids(&b));
        let battle = fleet(
            &a,
            &b,
            range,
            15,
            [&[("formation", formations.0)], &[("formation", formations.1)]],
        );
        let t = observed(&battle, seed, trial);
        prop_assert_eq!(&t.outcome, &t.unobserved, "watching the trial changed it");
        let roster = Setup::roster(&battle);
        prop_assert_eq!(t.outcome.ships.len(), roster.len());
        for (fate, ship) in t.outcome.ships.iter().zip(roster.ships()) {
            prop_assert_eq!(fate.side, ship.side);
        }
        prop_assert!(t.outcome.lost(Side::A) <= a.len());
        prop_assert!(t.outcome.lost(Side::B) <= b.len());
        if let Err(e) = check_destroyed_ships_do_not_act(&t.events) {
            prop_assert!(false, "{a:?} against {b:?}, seed {seed} trial {trial}: {e}");
        }
        if let Err(e) = check_state_invariants(&t.states) {
            prop_assert!(false, "{a:?} against {b:?}, seed {seed} trial {trial}: {e}");
        }
        prop_assert!(t.outcome.turns <= 15);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, failure_persistence: None, ..ProptestConfig::default() })]

    /// A run of a random fleet battle: each side's ships-lost list has one
    /// entry for every number of ships it could lose, none past its size,
    /// and sums to the trials; and the run is the trials played in order.
    #[test]
    fn a_fleet_tally_counts_every_trial_once_a_side(
        a in fleet_side(),
        b in fleet_side(),
        seed: u64,
    ) {
        const TRIALS: u64 = 12;
        let (a, b) = (ids(&a), ids(&b));
        let battle = fleet(&a, &b, 8, 12, [&[], &[]]);
        let tally = run_trials(&battle, seed, TRIALS, &|_| {}).expect("the trials play");
        prop_assert_eq!(&tally, &tally_in_order(&battle, seed, 0..TRIALS));
        let summary = tally.summary(Setup::roster(&battle));
        for (side, size) in [(Side::A, a.len()), (Side::B, b.len())] {
            let lost = summary.ships_lost.of(side);
            prop_assert_eq!(lost.len(), size + 1);
            prop_assert_eq!(lost.iter().sum::<u64>(), TRIALS);
        }
    }
}

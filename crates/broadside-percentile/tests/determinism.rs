//! A fleet battle's Monte Carlo tally is the same whatever the number of threads that play it.
//!
//! Core gives trial `i` its own dice stream and merges tallies by addition;
//! this checks that nothing in the percentile system (its set-up, tactics or
//! state) breaks that with several ships a side: the run on a pool of one
//! thread, on a pool of two, and the trials played one by one in order all
//! tally alike.

use broadside_core::kit::System as _;
use broadside_core::{BattleRequest, NullSink, OptionValue, Options, Tally, play_trial};
use broadside_data::testing;
use broadside_percentile::Percentile;

#[test]
fn fleet_tallies_do_not_depend_on_thread_count() {
    let system = Percentile::embedded().expect("the built-in data loads");
    // Close enough to fight at once, so a trial is short.
    let request = BattleRequest::fleets(
        &["destroyer", "frigate"],
        &["light-cruiser", "frigate"],
        30,
        Options::new().with("start-range", OptionValue::Number(4)),
    );
    let battle = system.set_up(&request).expect("the fleets exist");
    // More trials than core plays in one chunk, so two threads share them.
    const TRIALS: u64 = 1100;
    let one = testing::tally_on_one_and_two_threads(&battle, 7, TRIALS);
    let mut in_order = Tally::default();
    for trial in 0..TRIALS {
        in_order.add(&play_trial(&battle, 7, trial, &mut NullSink).expect("the trial plays"));
    }
    assert_eq!(one, in_order);
    let summary = one.summary(broadside_core::Setup::roster(&battle));
    assert_eq!(summary.ships_lost.a.iter().sum::<u64>(), TRIALS);
    assert_eq!(summary.ships_lost.b.iter().sum::<u64>(), TRIALS);
}

//! Monte Carlo throughput: trials a second of each system's battle in the default comparison, on one and on two threads.
//!
//! Run with `cargo bench -p broadside-cli --bench throughput`; the figures,
//! the machine and the revision are kept in `docs/performance.md`.
//!
//! Each iteration plays a whole run of [`TRIALS`] trials through core's
//! `run_trials` (the runner `battle` and `compare` use: trial `i` on its own
//! generator, tallies merged by addition) inside a rayon pool of the given
//! size, so a figure is the run's wall-clock rate, thread start-up excluded.
//! The battles are those of the built-in default scenario, set up as
//! `broadside compare` sets them up.

use broadside_cli::cli;
use broadside_cli::registry::RULESETS;
use broadside_cli::scenario::{self, Source};
use broadside_core::{Ruleset, run_trials};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};

/// Trials a run: enough that the pool's start and the tally's merge are
/// lost in the noise, few enough that a sample takes well under a second.
const TRIALS: u64 = 20_000;

/// The seed of every run; any fixed value will do.
const SEED: u64 = 7;

/// Threads of the pool each benchmark runs in.
const THREADS: [usize; 2] = [1, 2];

fn main() {
    divan::Divan::default()
        .sample_count(10)
        .sample_size(1)
        .config_with_args()
        .main();
}

/// The default scenario's battle for `system`, set up as `compare` does.
fn battle(system: &str) -> Box<dyn broadside_core::Engagement> {
    let systems: Vec<Box<dyn Ruleset>> = RULESETS
        .iter()
        .filter(|r| r.id == system)
        .map(|r| r.load_embedded().expect("the built-in data loads"))
        .collect();
    let source = Source {
        origin: "the default scenario",
        text: scenario::DEFAULT,
    };
    let settings = scenario::settings(&source).expect("the default scenario reads");
    let max_turns = settings.max_turns.unwrap_or(cli::DEFAULT_MAX_TURNS);
    let mut read =
        scenario::read(&source, &systems, max_turns).expect("the default scenario sets up");
    read.battles
        .pop()
        .expect("the default scenario has a battle for every system")
        .engagement
}

/// Plays one run of `system`'s default battle per iteration on `threads`.
fn run(bencher: Bencher<'_, '_>, system: &str, threads: usize) {
    let engagement = battle(system);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool starts");
    bencher.counter(ItemsCount::new(TRIALS)).bench_local(|| {
        pool.install(|| {
            let tally = run_trials(engagement.as_ref(), SEED, TRIALS, &|_| {});
            black_box(tally.expect("the default battles play"))
        })
    });
}

#[divan::bench(consts = THREADS)]
fn percentile<const N: usize>(bencher: Bencher<'_, '_>) {
    run(bencher, "percentile", N);
}

#[divan::bench(consts = THREADS)]
fn action_d10<const N: usize>(bencher: Bencher<'_, '_>) {
    run(bencher, "action-d10", N);
}

#[divan::bench(consts = THREADS)]
fn module_grid<const N: usize>(bencher: Bencher<'_, '_>) {
    run(bencher, "module-grid", N);
}

#[divan::bench(consts = THREADS)]
fn crew_2d6<const N: usize>(bencher: Bencher<'_, '_>) {
    run(bencher, "crew-2d6", N);
}

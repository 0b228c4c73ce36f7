//! Benchmarks of exact single attacks: the rules code run over every outcome of its dice, path by path (`resolve --exact` plays them in steps instead).
//!
//! Run with `cargo bench -p broadside-crew-2d6 --bench exact`. Each
//! iteration enumerates every dice path of one attack on the data of
//! record and gathers the distribution; the attacks are ones whose chains
//! of critical hits stay within the command line's budget of paths.

use broadside_core::kit::System as _;
use broadside_crew_2d6::Crew2d6;
use broadside_data::testing::{self, text};
use divan::Bencher;

fn main() {
    divan::main();
}

fn bench_exact(bencher: Bencher<'_, '_>, attacker: &str, target: &str, weapon: &str, band: &str) {
    let system = Crew2d6::embedded().expect("the embedded crew-2d6 data is valid");
    let pairs = [("weapon", text(weapon)), ("range-band", text(band))];
    testing::bench_exact_attack(
        bencher,
        &system,
        &testing::request(attacker, target, &pairs),
    );
}

/// The corvette's twin pulse lasers at the escort at Long range: few hits
/// reach a critical hit (236 paths).
#[divan::bench]
fn pulse_lasers_at_the_escort_long(bencher: Bencher<'_, '_>) {
    bench_exact(bencher, "corvette", "escort", "pulse-laser", "long");
}

/// The trader's beam laser at the escort at Medium range, critical hits of
/// a high Effect included (992 paths).
#[divan::bench]
fn beam_laser_at_the_escort_medium(bencher: Bencher<'_, '_>) {
    bench_exact(bencher, "trader", "escort", "beam-laser", "medium");
}

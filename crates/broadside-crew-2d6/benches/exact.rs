//! Benchmarks of exact single attacks: the rules code run over every outcome of its dice, as `resolve --exact` runs it.
//!
//! Run with `cargo bench -p broadside-crew-2d6 --bench exact`. Each
//! iteration enumerates every dice path of one attack on the data of
//! record and gathers the distribution; the attacks are ones whose chains
//! of critical hits stay within the command line's budget of paths.

use broadside_core::exact::{ExactAttack, exact_attack};
use broadside_core::{NullSink, OptionValue, Options, ResolveRequest, Ruleset};
use broadside_crew_2d6::Crew2d6;
use divan::{Bencher, black_box};

/// The command line's budget of paths for one attack.
const MAX_PATHS: u64 = 2_000_000;

fn main() {
    divan::main();
}

fn request(attacker: &str, target: &str, weapon: &str, band: &str) -> ResolveRequest {
    let options = Options::new()
        .with("weapon", OptionValue::Text(weapon.into()))
        .with("range-band", OptionValue::Text(band.into()));
    ResolveRequest {
        attacker: attacker.into(),
        target: target.into(),
        options,
    }
}

fn exact(system: &Crew2d6, request: &ResolveRequest) -> ExactAttack {
    exact_attack(MAX_PATHS, |dice| {
        let report = system.resolve(request, dice, &mut NullSink)?;
        Ok(report.attack_outcome().unwrap_or_default())
    })
    .expect("the attack fits the budget")
}

fn bench_exact(bencher: Bencher<'_, '_>, attacker: &str, target: &str, weapon: &str, band: &str) {
    let system = Crew2d6::embedded().expect("the embedded crew-2d6 data is valid");
    let request = request(attacker, target, weapon, band);
    bencher.bench_local(|| black_box(exact(&system, black_box(&request))));
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

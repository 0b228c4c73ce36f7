//! Benchmarks of exact odds: one attack resolved over every outcome of its dice, as `resolve --exact` does.
//!
//! Run with `cargo bench -p broadside-action-d10 --bench exact`. Each
//! figure is one whole enumeration: the resolution run once per dice path,
//! through the same `Ruleset::resolve` the command line calls, and the
//! outcomes gathered into their distribution.

use broadside_action_d10::ActionD10;
use broadside_core::ResolveRequest;
use broadside_core::kit::System as _;
use broadside_data::testing::{self, flag, num, text};
use divan::Bencher;

broadside_data::bench_main!();

fn request(attacker: &str, target: &str, weapon: &str, range: i64, locked: bool) -> ResolveRequest {
    let mut pairs = vec![("weapon", text(weapon)), ("range", num(range))];
    if locked {
        pairs.push(("locked", flag()));
    }
    testing::request(attacker, target, &pairs)
}

fn bench_exact(bencher: Bencher<'_, '_>, request: ResolveRequest) {
    let system = ActionD10::embedded().expect("the embedded action-d10 data is valid");
    testing::bench_exact_attack(bencher, &system, &request);
}

/// A destroyer's seeker salvo against a destroyer at range 3: the lock is
/// automatic and the shields take the hit, two dice paths.
#[divan::bench]
fn exact_seeker_vs_destroyer_range_3(bencher: Bencher<'_, '_>) {
    bench_exact(
        bencher,
        request("destroyer", "destroyer", "seeker-launcher", 3, false),
    );
}

/// A heavy cruiser's spinal railgun against a frigate at range 7, lock
/// held: 1d6+1 boxes reaching the U and A boxes, 27 paths.
#[divan::bench]
fn exact_spinal_railgun_vs_frigate(bencher: Bencher<'_, '_>) {
    bench_exact(
        bencher,
        request("cruiser", "frigate", "spinal-railgun", 7, true),
    );
}

/// A gunboat's rocket pack against a carrier at range 0, lock held: up to
/// ten boxes with Hangar and Surface Features rolls, 226 paths.
#[divan::bench]
fn exact_rocket_pack_vs_carrier(bencher: Bencher<'_, '_>) {
    bench_exact(
        bencher,
        request("gunboat", "carrier", "rocket-pack", 0, true),
    );
}

/// A gunboat's rocket pack against a gunboat at range 0, lock held: the
/// largest attack of the data, 257 paths. The gunboat lacks most Surface
/// Features rows and three Internal Damage rows, whose roll again is one
/// call of three outcomes.
#[divan::bench]
fn exact_rocket_pack_vs_gunboat(bencher: Bencher<'_, '_>) {
    bench_exact(
        bencher,
        request("gunboat", "gunboat", "rocket-pack", 0, true),
    );
}

//! Benchmarks of exact odds: one attack over every outcome of its dice, and a small duel played exactly.
//!
//! Run with `cargo bench -p broadside-percentile --bench exact`. The attack
//! goes through `Ruleset::resolve_exact`, as `broadside resolve --exact`
//! runs it: the request read and the board set up once, then the attack
//! resolved from a copy of that board on every dice path. The duel goes
//! through `Engagement::exact` as `broadside battle --exact` does.

use broadside_core::exact::DROP_NONE;
use broadside_core::kit::System as _;
use broadside_core::{BattleRequest, Engagement, Options, ResolveRequest, Ruleset};
use broadside_data::testing::{self, num, text};
use broadside_percentile::{Percentile, REGISTRATION};
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// The most dice paths and states an exact battle may take, as the command
/// line allows by default.
const BATTLE_PATHS: u64 = 20_000_000;
const BATTLE_STATES: usize = 200_000;

/// The torpedo attack of both benchmarks, as a request.
fn torpedo_request() -> ResolveRequest {
    let options = [
        ("weapon", text("torpedo")),
        ("range", num(3)),
        ("icm", num(2)),
    ];
    testing::request("frigate", "destroyer", &options)
}

/// A frigate's torpedo against a destroyer launching 2 ICMs, at range 3,
/// over every outcome of its dice.
#[divan::bench(sample_count = 200, sample_size = 20)]
fn torpedo_vs_destroyer_2_icms_range_3(bencher: Bencher<'_, '_>) {
    let ruleset: Box<dyn Ruleset> = REGISTRATION
        .load_embedded()
        .expect("the embedded percentile data is valid");
    let request = torpedo_request();
    bencher.bench_local(|| {
        black_box(
            ruleset
                .resolve_exact(black_box(&request), testing::EXACT_ATTACK_PATHS, DROP_NONE)
                .expect("the attack has exact odds"),
        )
    });
}

/// Two fighters 12 hexes apart, at most two turns, played exactly.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn fighter_duel_2_turns(bencher: Bencher<'_, '_>) {
    let system = Percentile::embedded().expect("the built-in data loads");
    let battle = system
        .set_up(&BattleRequest::duel(
            "fighter",
            "fighter",
            2,
            Options::new(),
        ))
        .expect("fighters exist");
    bencher.bench_local(|| {
        black_box(
            battle
                .exact(BATTLE_STATES, BATTLE_PATHS)
                .expect("the duel fits the budget"),
        )
    });
}

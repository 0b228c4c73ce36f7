//! Benchmarks whole percentile battles, one ship a side and four: the Monte Carlo hot loop on one core.

use broadside_core::kit::System as _;
use broadside_core::{BattleRequest, Options};
use broadside_data::testing;
use broadside_percentile::{Percentile, PreparedBattle};

fn main() {
    divan::main();
}

fn duel(a: &str, b: &str) -> PreparedBattle {
    battle(&[a], &[b])
}

/// A battle of two fleets as `broadside battle` sets it up by default:
/// start range 12, each side stacked, at most 50 turns.
fn battle(a: &[&str], b: &[&str]) -> PreparedBattle {
    let system = Percentile::embedded().expect("the built-in data loads");
    let request = BattleRequest::fleets(a, b, 50, Options::new());
    system.set_up(&request).expect("every ship exists")
}

/// One destroyer-against-frigate trial: setup copy, every phase, default tactics.
#[divan::bench(sample_count = 200, sample_size = 50)]
fn destroyer_against_frigate(bencher: divan::Bencher<'_, '_>) {
    let engagement = duel("destroyer", "frigate");
    testing::bench_trials(bencher, &engagement, 1);
}

/// A longer fight between two heavily armed ships.
#[divan::bench(sample_count = 100, sample_size = 20)]
fn battleship_against_heavy_cruiser(bencher: divan::Bencher<'_, '_>) {
    let engagement = duel("battleship", "heavy-cruiser");
    testing::bench_trials(bencher, &engagement, 1);
}

/// Four against four, mixed: the cost of one trial of a fleet battle, where
/// every shot weighs every enemy and every strike every hexmate's ICMs.
#[divan::bench(sample_count = 100, sample_size = 10)]
fn four_against_four(bencher: divan::Bencher<'_, '_>) {
    let engagement = battle(
        &["destroyer", "destroyer", "frigate", "frigate"],
        &["light-cruiser", "destroyer", "frigate", "frigate"],
    );
    testing::bench_trials(bencher, &engagement, 1);
}

//! Benchmarks whole percentile duels: the Monte Carlo hot loop on one core.

use broadside_core::{BattleRequest, Engagement, NullSink, Options, SeededDice};
use broadside_percentile::Percentile;

fn main() {
    divan::main();
}

fn duel(a: &str, b: &str) -> impl Engagement {
    let system = Percentile::embedded().expect("the built-in data loads");
    let request = BattleRequest {
        sides: [vec![a.into()], vec![b.into()]],
        max_turns: 50,
        options: Options::new(),
        ..Default::default()
    };
    system.set_up(&request).expect("both ships exist")
}

/// One destroyer-against-frigate trial: setup copy, every phase, default tactics.
#[divan::bench(sample_count = 200, sample_size = 50)]
fn destroyer_against_frigate(bencher: divan::Bencher<'_, '_>) {
    let engagement = duel("destroyer", "frigate");
    let mut trial = 0u64;
    bencher.bench_local(|| {
        trial += 1;
        let mut dice = SeededDice::for_trial(1, trial);
        divan::black_box(engagement.play(&mut dice, &mut NullSink))
    });
}

/// A longer fight between two heavily armed ships.
#[divan::bench(sample_count = 100, sample_size = 20)]
fn battleship_against_heavy_cruiser(bencher: divan::Bencher<'_, '_>) {
    let engagement = duel("battleship", "heavy-cruiser");
    let mut trial = 0u64;
    bencher.bench_local(|| {
        trial += 1;
        let mut dice = SeededDice::for_trial(1, trial);
        divan::black_box(engagement.play(&mut dice, &mut NullSink))
    });
}

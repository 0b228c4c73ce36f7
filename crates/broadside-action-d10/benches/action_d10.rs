//! Benchmarks of action-d10 resolutions, whole duels and a four-against-four fleet battle on one core, measured against the dice alone.
//!
//! Run with `cargo bench -p broadside-action-d10`. Each resolution starts
//! from the same board, copied over the previous one without allocating, and
//! keeps drawing from one seeded stream, so a figure is the average over the
//! outcomes the dice produce (no lock, misses, hits, sub-table chains).

use std::sync::Arc;

use broadside_action_d10::{
    ActionD10, Attack, BattleSetup, Board, LockNeed, LockSituation, Situation,
};
use broadside_core::kit::System as _;
use broadside_core::{BattleRequest, Die, Options};
use broadside_data::testing;
use divan::Bencher;

broadside_data::bench_main!();

const SEED: u64 = testing::BENCH_SEED;

fn system() -> ActionD10 {
    ActionD10::embedded().expect("the embedded action-d10 data is valid")
}

/// A board of two fresh ships, the attacker's weapons charged.
fn board(system: &ActionD10, attacker: &str, target: &str) -> Board {
    let ship = |id: &str| system.ship(id).expect("the ship is in the data");
    let mut first = ship(attacker);
    for m in &mut first.weapons {
        m.charged = true;
    }
    Board {
        ships: vec![first, ship(target)],
        names: Arc::from(vec![attacker.to_owned(), target.to_owned()]),
    }
}

fn attack(system: &ActionD10, board: &Board, weapon: &str, range: u32, locked: bool) -> Attack {
    let weapon = system
        .rules
        .weapon_id(weapon)
        .expect("the weapon is in the data");
    let mount = board.ships[0]
        .weapons
        .iter()
        .position(|m| m.weapon == weapon)
        .expect("the attacker carries the weapon");
    Attack {
        attacker: 0,
        mount,
        target: 1,
        range,
        situation: Situation::default(),
        lock: if locked {
            LockNeed::Held
        } else {
            LockNeed::Make(LockSituation {
                range,
                enemies_in_target_hex: 1,
                ..LockSituation::default()
            })
        },
        rerolls: 0,
    }
}

fn bench_attack(
    bencher: Bencher<'_, '_>,
    attacker: &str,
    target: &str,
    weapon: &str,
    range: u32,
    locked: bool,
) {
    let system = system();
    let template = board(&system, attacker, target);
    let attack = attack(&system, &template, weapon, range, locked);
    let reset = |board: &mut Board, template: &Board| board.ships.clone_from(&template.ships);
    testing::bench_resolve_attack(bencher, &system, &template, &attack, reset, SEED);
}

/// The floor: one seeded d10, which every to-hit roll makes.
#[divan::bench]
fn dice_d10(bencher: Bencher<'_, '_>) {
    testing::bench_roll(bencher, Die::D10, SEED);
}

/// A frigate's heavy laser bank against a destroyer at range 5, lock rolled.
#[divan::bench]
fn resolve_heavy_laser_bank_vs_destroyer(bencher: Bencher<'_, '_>) {
    bench_attack(bencher, "frigate", "destroyer", "heavy-laser", 5, false);
}

/// A destroyer's particle cannon against a frigate at range 3, lock held.
#[divan::bench]
fn resolve_particle_cannon_vs_frigate(bencher: Bencher<'_, '_>) {
    bench_attack(bencher, "destroyer", "frigate", "particle-cannon", 3, true);
}

fn duel(a: &str, b: &str) -> BattleSetup {
    fleets(&[a], &[b])
}

fn fleets(a: &[&str], b: &[&str]) -> BattleSetup {
    let request = BattleRequest::fleets(a, b, 50, Options::new());
    system().set_up(&request).expect("every ship exists")
}

/// One destroyer-against-frigate trial: setup copy, every phase, default tactics.
#[divan::bench(sample_count = 200, sample_size = 20)]
fn duel_destroyer_vs_frigate(bencher: Bencher<'_, '_>) {
    let engagement = duel("destroyer", "frigate");
    testing::bench_trials(bencher, &engagement, 1);
}

/// A carrier with small craft and riders against a heavy cruiser.
#[divan::bench(sample_count = 100, sample_size = 10)]
fn duel_carrier_vs_cruiser(bencher: Bencher<'_, '_>) {
    let engagement = duel("carrier", "cruiser");
    testing::bench_trials(bencher, &engagement, 1);
}

/// One four-against-four trial: a destroyer, two frigates and an escort on
/// each side, in a line abreast, with the default fleet tactics (target
/// choice, formation, shared locks, point defence for friends).
#[divan::bench(sample_count = 50, sample_size = 5)]
fn fleet_four_against_four(bencher: Bencher<'_, '_>) {
    let side = ["destroyer", "frigate", "frigate", "escort"];
    let engagement = fleets(&side, &side);
    testing::bench_trials(bencher, &engagement, 1);
}

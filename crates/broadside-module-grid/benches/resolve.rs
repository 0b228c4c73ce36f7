//! Benchmarks of module-grid resolutions, whole duels and a four-a-side battle on one core, measured against the dice alone.
//!
//! Run with `cargo bench -p broadside-module-grid --bench resolve`.
//!
//! Each resolution benchmark starts every iteration from the same board,
//! copied over the previous one without allocating, and keeps drawing from
//! one seeded stream, so a figure is the average over what the dice produce
//! (misses, hits on modules, hits off the silhouette, hull checks). The
//! allocation profiler counts heap allocations per iteration, which is how
//! an allocation on the hot path shows up.

use std::sync::Arc;

use broadside_core::kit::System as _;
use broadside_core::{BattleRequest, Die, Engagement, Options, Ruleset};
use broadside_data::testing;
use broadside_module_grid::model::{Function, Mode, ShipSide};
use broadside_module_grid::{Board, ModuleGrid, REGISTRATION, Shot, Weapon};
use divan::Bencher;

broadside_data::bench_main!();

const SEED: u64 = testing::BENCH_SEED;

fn system() -> ModuleGrid {
    ModuleGrid::embedded().expect("the embedded module-grid data is valid")
}

/// A board of two fresh ships: the attacker at index 0, the target at 1.
fn board(system: &ModuleGrid, attacker: &str, target: &str) -> Board {
    let ship = |id: &str| system.ship(id).unwrap_or_else(|| panic!("no ship '{id}'"));
    Board {
        ships: vec![ship(attacker), ship(target)],
        names: Arc::from(vec![attacker.to_owned(), target.to_owned()]),
    }
}

/// A Standard shot from the attacker's first Cannon at the target's fore side.
fn shot(system: &ModuleGrid, board: &Board, range: u32) -> Shot {
    let class = system.rules.class(board.ships[0].class);
    let cannon = class.modules_of(Function::Cannon).trailing_zeros() as u8;
    Shot {
        attacker: 0,
        weapon: Weapon::Cannon {
            module: cannon,
            mode: Mode::Standard,
        },
        target: 1,
        range,
        side: ShipSide::Fore,
        call: None,
        scans: 0,
        luck: 0,
    }
}

/// Resolves `shot` once per iteration through the generic trait, the board
/// put back first (ships are `Copy`, names shared, so nothing allocates).
fn bench_resolve_attack(bencher: Bencher<'_, '_>, template: Board, shot: Shot) {
    let reset = |board: &mut Board, template: &Board| board.ships.copy_from_slice(&template.ships);
    testing::bench_resolve_attack(bencher, &system(), &template, &shot, reset, SEED);
}

/// The floor: one seeded d6, which every resolution rolls many times.
#[divan::bench]
fn dice_d6(bencher: Bencher<'_, '_>) {
    testing::bench_roll(bencher, Die::D6, SEED);
}

/// Resolutions through `AttackResolution::resolve_attack`, as an engagement
/// makes them: no allocation of the board, events discarded.
#[divan::bench_group]
mod resolve_attack {
    use super::*;

    /// A frigate's Standard shot at a frigate, range 2.
    #[divan::bench]
    fn frigate_vs_frigate_range_2(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = board(&system, "frigate", "frigate");
        let shot = shot(&system, &template, 2);
        bench_resolve_attack(bencher, template, shot);
    }

    /// A cruiser's Standard shot (Guns 5) at a cruiser (Shields 4), range 2:
    /// the published example's nine-dice pool.
    #[divan::bench]
    fn cruiser_vs_cruiser_range_2(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = board(&system, "cruiser", "cruiser");
        let shot = shot(&system, &template, 2);
        bench_resolve_attack(bencher, template, shot);
    }
}

/// The same shot through the object-safe `Ruleset::resolve`, as
/// `broadside resolve` makes it: fresh ships, options by name and a report
/// with a layout picture, so it allocates.
#[divan::bench]
fn ruleset_resolve_cruiser_vs_cruiser_range_2(bencher: Bencher<'_, '_>) {
    let ruleset: Box<dyn Ruleset> = REGISTRATION
        .load_embedded()
        .expect("the embedded module-grid data is valid");
    let request = testing::request("cruiser", "cruiser", &[("range", testing::num(2))]);
    testing::bench_ruleset_resolve(bencher, &*ruleset, &request, SEED);
}

/// Whole duels with the default tactics, the Monte Carlo hot loop on one
/// core: each iteration is one trial on its own stream.
#[divan::bench_group(sample_count = 100, sample_size = 20)]
mod duel {
    use super::*;

    fn engagement(a: &[&str], b: &[&str]) -> Box<dyn Engagement> {
        let system = system();
        let request = BattleRequest::fleets(a, b, 50, Options::new());
        Box::new(system.duel(&request).expect("every ship exists"))
    }

    fn bench_battle(bencher: Bencher<'_, '_>, a: &[&str], b: &[&str]) {
        testing::bench_trials(bencher, &*engagement(a, b), SEED);
    }

    /// The default comparison: a destroyer against a frigate.
    #[divan::bench]
    fn destroyer_against_frigate(bencher: Bencher<'_, '_>) {
        bench_battle(bencher, &["destroyer"], &["frigate"]);
    }

    /// A mirror match of the largest ships.
    #[divan::bench]
    fn cruiser_against_cruiser(bencher: Bencher<'_, '_>) {
        bench_battle(bencher, &["cruiser"], &["cruiser"]);
    }

    /// Four ships a side, mixed, in the default line: the cost of a fleet
    /// trial, where every move weighs each enemy's Cannons and each
    /// friend's blast and every shot ranks the enemies.
    #[divan::bench]
    fn four_against_four(bencher: Bencher<'_, '_>) {
        bench_battle(
            bencher,
            &["destroyer", "frigate", "frigate", "scout"],
            &["cruiser", "frigate", "scout", "scout"],
        );
    }
}

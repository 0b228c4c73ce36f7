//! Benchmarks of single percentile attack resolutions, measured against the dice alone.
//!
//! Run with `cargo bench -p broadside-percentile --bench resolve`; the figures
//! and the machine they came from are kept in `docs/performance.md`.
//!
//! Each resolution benchmark starts every iteration from the same board,
//! copied over the previous one without allocating, and keeps drawing from
//! one seeded stream, so a figure is the average over the outcomes the dice
//! produce (misses, hull hits, system hits) rather than one fixed path.
//! The allocation profiler counts heap allocations per iteration, which is
//! how an allocation on the hot path shows up.

use broadside_core::kit::System as _;
use broadside_core::{Die, EventSink, NullSink, ResolveRequest, Ruleset, SeededDice};
use broadside_data::testing::{self, num, text};
use broadside_percentile::{Attack, Board, Hit, Percentile, REGISTRATION};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

const SEED: u64 = testing::BENCH_SEED;

fn main() {
    // Fixed, large samples: a resolution takes a few hundred nanoseconds,
    // close to the timer's precision, and divan's automatic sizing can settle
    // on one iteration per sample when the machine is busy. Command-line
    // options (`--sample-count`, `--sample-size`) still override these.
    divan::Divan::default()
        .sample_count(500)
        .sample_size(1000)
        .config_with_args()
        .main();
}

/// The system loaded from its embedded data of record.
fn system() -> Percentile {
    Percentile::embedded().expect("the embedded percentile data is valid")
}

/// A board of two fresh ships: the attacker at index 0, the target at 1.
fn board(system: &Percentile, attacker: &str, target: &str) -> Board {
    let ship = |id: &str| {
        system
            .ship(id)
            .unwrap_or_else(|| panic!("no ship class '{id}' in the data"))
    };
    Board {
        ships: vec![ship(attacker), ship(target)],
        names: [attacker.to_owned(), target.to_owned()].into(),
    }
}

/// An attack by the board's attacker with the first ready mount of `weapon`.
fn attack(system: &Percentile, board: &Board, weapon: &str, range: u32, icms: u16) -> Attack {
    let weapon = system
        .rules
        .weapon_id(weapon)
        .unwrap_or_else(|| panic!("no weapon '{weapon}' in the data"));
    let mount = board.ships[0]
        .ready_mount(weapon)
        .expect("the attacker carries the weapon");
    Attack {
        attacker: 0,
        mount,
        target: 1,
        range,
        head_on: false,
        icms,
        icm_launcher: None,
    }
}

/// Puts the board back to its starting state without allocating: ships are
/// `Copy`, so this is one memory copy; names never change during a
/// resolution.
fn reset(board: &mut Board, template: &Board) {
    board.ships.copy_from_slice(&template.ships);
}

/// Resolves `attack` once per iteration, the dice and the sink known by
/// type (`Percentile::resolve_attack_with`), as a hot loop that knows them
/// makes it: no dynamic call for a roll or a discarded event.
fn bench_resolve_attack(bencher: Bencher<'_, '_>, template: Board, attack: Attack) {
    let system = system();
    let mut board = template.clone();
    let mut dice = SeededDice::new(SEED);
    let mut sink = NullSink;
    bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
        reset(&mut board, &template);
        let outcome =
            system.resolve_attack_with(&mut board, black_box(&attack), &mut dice, &mut sink);
        black_box(outcome.expect("the attack is legal"))
    });
}

/// The same through `AttackResolution::resolve_attack`, with the dice and
/// the sink as trait objects, as the engagement runner makes it.
fn bench_resolve_attack_dyn(bencher: Bencher<'_, '_>, template: Board, attack: Attack) {
    testing::bench_resolve_attack(bencher, &system(), &template, &attack, reset, SEED);
}

/// The floor: one seeded d100, which every resolution makes at least once.
#[divan::bench]
fn dice_d100(bencher: Bencher<'_, '_>) {
    testing::bench_roll(bencher, Die::D100, SEED);
}

/// Resolutions with the dice and sink known by type: no allocation of the
/// board, events discarded.
#[divan::bench_group]
mod resolve_attack {
    use super::*;

    /// A frigate's laser battery against a frigate at range 3.
    #[divan::bench]
    fn laser_battery_vs_frigate_range_3(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = board(&system, "frigate", "frigate");
        let attack = attack(&system, &template, "laser-battery", 3, 0);
        bench_resolve_attack(bencher, template, attack);
    }

    /// A frigate's torpedo against a destroyer launching 2 ICMs, at range 3.
    #[divan::bench]
    fn torpedo_vs_destroyer_2_icms_range_3(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = board(&system, "frigate", "destroyer");
        let attack = attack(&system, &template, "torpedo", 3, 2);
        bench_resolve_attack(bencher, template, attack);
    }
}

/// The same resolutions through `AttackResolution::resolve_attack`, dice and
/// sink as trait objects, as the engagement runner makes them.
#[divan::bench_group]
mod resolve_attack_dyn {
    use super::*;

    /// A frigate's laser battery against a frigate at range 3.
    #[divan::bench]
    fn laser_battery_vs_frigate_range_3(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = board(&system, "frigate", "frigate");
        let attack = attack(&system, &template, "laser-battery", 3, 0);
        bench_resolve_attack_dyn(bencher, template, attack);
    }

    /// A frigate's torpedo against a destroyer launching 2 ICMs, at range 3.
    #[divan::bench]
    fn torpedo_vs_destroyer_2_icms_range_3(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = board(&system, "frigate", "destroyer");
        let attack = attack(&system, &template, "torpedo", 3, 2);
        bench_resolve_attack_dyn(bencher, template, attack);
    }
}

/// The same attacks through the object-safe `Ruleset::resolve`, as
/// `broadside resolve` makes them: fresh ships, options by name and a report,
/// so it allocates.
#[divan::bench_group]
mod ruleset_resolve {
    use super::*;

    fn bench_request(bencher: Bencher<'_, '_>, request: ResolveRequest) {
        let ruleset: Box<dyn Ruleset> = REGISTRATION
            .load_embedded()
            .expect("the embedded percentile data is valid");
        testing::bench_ruleset_resolve(bencher, &*ruleset, &request, SEED);
    }

    /// A frigate's laser battery against a frigate at range 3.
    #[divan::bench]
    fn laser_battery_vs_frigate_range_3(bencher: Bencher<'_, '_>) {
        let options = [("weapon", text("laser-battery")), ("range", num(3))];
        bench_request(bencher, testing::request("frigate", "frigate", &options));
    }

    /// A frigate's torpedo against a destroyer launching 2 ICMs, at range 3.
    #[divan::bench]
    fn torpedo_vs_destroyer_2_icms_range_3(bencher: Bencher<'_, '_>) {
        let options = [
            ("weapon", text("torpedo")),
            ("range", num(3)),
            ("icm", num(2)),
        ];
        bench_request(bencher, testing::request("frigate", "destroyer", &options));
    }
}

/// The two halves of a resolution on their own, to see where the time goes:
/// the to-hit computation (no dice) and the Damage Table allocation of a hit.
#[divan::bench_group]
mod parts {
    use super::*;

    /// `Percentile::to_hit` for the laser battery attack: cell choice and
    /// range diffusion.
    #[divan::bench]
    fn to_hit_laser_battery_range_3(bencher: Bencher<'_, '_>) {
        let system = system();
        let board = board(&system, "frigate", "frigate");
        let attack = attack(&system, &board, "laser-battery", 3, 0);
        let mut sink = NullSink;
        bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
            let sink: &mut dyn EventSink = &mut sink;
            black_box(system.to_hit(black_box(&board), black_box(&attack), sink))
        });
    }

    /// `Percentile::to_hit` for the torpedo attack: cell choice and 2 ICMs.
    #[divan::bench]
    fn to_hit_torpedo_2_icms(bencher: Bencher<'_, '_>) {
        let system = system();
        let board = board(&system, "frigate", "destroyer");
        let attack = attack(&system, &board, "torpedo", 3, 2);
        let mut sink = NullSink;
        bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
            let sink: &mut dyn EventSink = &mut sink;
            black_box(system.to_hit(black_box(&board), black_box(&attack), sink))
        });
    }

    /// One laser battery hit on a frigate: the Damage Table roll and its
    /// result, the target reset each iteration.
    #[divan::bench]
    fn allocate_laser_battery_hit(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = board(&system, "frigate", "frigate");
        let weapon = system
            .rules
            .weapon_id("laser-battery")
            .expect("the data has a laser battery");
        let hit = Hit::from_weapon(&system.rules, weapon, false);
        let mut target = template.ships[1];
        let mut dice = SeededDice::new(SEED);
        let mut sink = NullSink;
        bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
            target.clone_from(&template.ships[1]);
            let sink: &mut dyn EventSink = &mut sink;
            let applied =
                system.allocate_named(black_box(&hit), &mut target, "frigate", &mut dice, sink);
            black_box(applied.expect("seeded dice never run out"))
        });
    }

    /// Resetting the board alone, the overhead inside every resolution figure.
    #[divan::bench]
    fn reset_board(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = board(&system, "frigate", "destroyer");
        let mut board = template.clone();
        bencher.bench_local(|| {
            reset(&mut board, black_box(&template));
            black_box(&board);
        });
    }
}

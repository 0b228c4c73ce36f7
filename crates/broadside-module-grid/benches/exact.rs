//! Benchmarks of exact odds: one attack's distribution over every dice path, and a small duel's.
//!
//! Run with `cargo bench -p broadside-module-grid --bench exact`.
//!
//! The attacks are resolved through the object-safe `Ruleset`, as
//! `resolve --exact` resolves them, so each figure includes building the
//! report on every path. The duels are the trimmed drone duel of the exact
//! tests and the one-turn duel of two scouts of the data of record, the
//! largest of its battles that fits whole.

use broadside_core::kit::System as _;
use broadside_core::{BattleRequest, Engagement, Options};
use broadside_data::testing::{self, num, text};
use broadside_module_grid::{ModuleGrid, REGISTRATION};
use divan::black_box;

fn main() {
    divan::main();
}

fn system() -> ModuleGrid {
    ModuleGrid::embedded().expect("the embedded module-grid data is valid")
}

/// A scout's Multi shot at a scout a hex away: three dice keeping the
/// lowest, 21 paths.
#[divan::bench]
fn scout_multi_at_scout(bencher: divan::Bencher<'_, '_>) {
    let request = testing::request(
        "scout",
        "scout",
        &[("range", num(1)), ("mode", text("multi"))],
    );
    testing::bench_exact_attack(bencher, &system(), &request);
}

/// A scout's Standard shot at a scout a hex away: four dice keeping the
/// lowest two, 76 paths.
#[divan::bench(sample_count = 10)]
fn scout_standard_at_scout(bencher: divan::Bencher<'_, '_>) {
    let request = testing::request("scout", "scout", &[("range", num(1))]);
    testing::bench_exact_attack(bencher, &system(), &request);
}

/// One turn of the drone duel of the exact tests, every outcome of its dice.
#[divan::bench(sample_count = 10)]
fn drone_duel_one_turn(bencher: divan::Bencher<'_, '_>) {
    let mut files = REGISTRATION.embedded_sources();
    for file in &mut files {
        if file.name == "ships.toml" {
            file.text.push_str(DRONE);
        }
        if file.name == "rules.toml" {
            let multi = file.text.find("[mode.multi]").expect("a Multi mode");
            let at = multi
                + file.text[multi..]
                    .find("shots-per-turn = 2")
                    .expect("Multi fires twice a turn");
            file.text
                .replace_range(at..at + "shots-per-turn = 2".len(), "shots-per-turn = 1");
        }
    }
    let system = ModuleGrid::load(&files).expect("the trimmed data loads");
    let request = testing::duel_request("drone", "drone", 1, &[("start-range", num(1))]);
    let duel = system.duel(&request).expect("the duel sets up");
    bencher.bench_local(|| black_box(duel.exact(200_000, 20_000_000).expect("the duel fits")));
}

/// Two scouts of the data of record for one turn from the default 8 hexes,
/// every outcome of their dice: about 300,000 paths.
#[divan::bench(sample_count = 5)]
fn scout_duel_one_turn(bencher: divan::Bencher<'_, '_>) {
    let system = system();
    let duel = system
        .duel(&BattleRequest::duel("scout", "scout", 1, Options::new()))
        .expect("the duel sets up");
    bencher.bench_local(|| black_box(duel.exact(200_000, 20_000_000).expect("the duel fits")));
}

/// The drone of the exact tests: a Cannon and an Engine, 27 hull damage on
/// its record sheet.
const DRONE: &str = r#"
[drone]
name = "Drone"
source = "test ship: a Cannon and an Engine"
size = 1
shields = 0
guns = 1
speed = 0
luck = 0
missiles = 0
bombs = 0
hull-damage = 27
centre = "1,1"
layout = [
  ["cannon"],
  ["engine"],
]
occupants = {}
crew = { gunnery = 2, piloting = 0, science = 0, engineering = 0, professional = [] }
"#;

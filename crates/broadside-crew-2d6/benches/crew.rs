//! Benchmarks of crew-2d6 attack resolutions, whole duels and a fleet battle on one core, against the dice alone.
//!
//! Run with `cargo bench -p broadside-crew-2d6`. Each resolution benchmark
//! starts every iteration from the same battle, copied over the previous one
//! (a battle holds no heap data, so the copy allocates nothing), and keeps
//! drawing from one seeded stream, so a figure is the average over the
//! outcomes the dice produce. The allocation profiler counts heap
//! allocations per iteration, which is how an allocation on the hot path
//! shows up.

use broadside_core::kit::System as _;
use broadside_core::{BattleRequest, Dice, Die, Options, Ruleset, SeededDice};
use broadside_crew_2d6::model::Band;
use broadside_crew_2d6::{Attack, Battle, Crew2d6, Reactions, ShipId, Weaponry};
use broadside_data::testing::{self, flag, text};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};

broadside_data::bench_main!();

const SEED: u64 = testing::BENCH_SEED;

fn system() -> Crew2d6 {
    Crew2d6::embedded().expect("the embedded crew-2d6 data is valid")
}

fn battle(system: &Crew2d6, a: &str, b: &str, band: Band) -> Battle {
    let rules = &system.rules;
    let class = |id: &str| rules.class_id(id).expect("the ship is in the data");
    let mut battle = Battle::duel(rules, class(a), class(b), band, false);
    let thrust = battle.ship(ShipId(1)).thrust(rules);
    battle.state_mut(ShipId(1)).thrust_left = thrust;
    battle
}

fn bench_attack(bencher: Bencher<'_, '_>, system: Crew2d6, template: Battle, attack: Attack) {
    let reset = |battle: &mut Battle, template: &Battle| battle.clone_from(template);
    testing::bench_resolve_attack(bencher, &system, &template, &attack, reset, SEED);
}

/// The floor: the two seeded d6 every check rolls.
#[divan::bench]
fn dice_2d6(bencher: Bencher<'_, '_>) {
    let mut dice = SeededDice::new(SEED);
    bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
        let a = dice.roll(black_box(Die::D6));
        let b = dice.roll(black_box(Die::D6));
        black_box((a, b))
    });
}

/// Resolutions through `AttackResolution::resolve_attack`, as the engagement
/// runner makes them: the battle copied back, events discarded.
#[divan::bench_group]
mod resolve_attack {
    use super::*;

    /// The corvette's triple beam laser turret at the trader, Short range,
    /// the trader dodging.
    #[divan::bench]
    fn beam_lasers_vs_trader_dodging(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = battle(&system, "corvette", "trader", Band::Short);
        let weapon = system.rules.weapon_id("beam-laser").expect("in the data");
        let attack = Attack {
            attacker: ShipId(0),
            target: ShipId(1),
            weaponry: Weaponry::Direct { mount: 0, weapon },
            reactions: Reactions {
                dodge: true,
                ..Reactions::default()
            },
        };
        bench_attack(bencher, system, template, attack);
    }

    /// The escort's salvo of two at the trader, Medium range, against point
    /// defence.
    #[divan::bench]
    fn salvo_vs_trader_point_defence(bencher: Bencher<'_, '_>) {
        let system = system();
        let template = battle(&system, "escort", "trader", Band::Medium);
        let weapon = system.rules.weapon_id("missile-rack").expect("in the data");
        let attack = Attack {
            attacker: ShipId(0),
            target: ShipId(1),
            weaponry: Weaponry::Salvo {
                weapon,
                missiles: 2,
            },
            reactions: Reactions {
                point_defence: 1,
                ..Reactions::default()
            },
        };
        bench_attack(bencher, system, template, attack);
    }
}

/// The same kind of attack through the object-safe `Ruleset::resolve`, as
/// `broadside resolve` makes it: fresh ships, options by name and a report,
/// so it allocates.
#[divan::bench]
fn ruleset_resolve_beam_lasers(bencher: Bencher<'_, '_>) {
    let system = system();
    let ruleset: &dyn Ruleset = &system;
    let options = [
        ("weapon", text("beam-laser")),
        ("range-band", text("short")),
        ("dodge", flag()),
    ];
    let request = testing::request("corvette", "trader", &options);
    testing::bench_ruleset_resolve(bencher, ruleset, &request, SEED);
}

/// Whole duels, one trial per iteration, as the Monte Carlo runner plays
/// them: default tactics, every phase, events discarded.
#[divan::bench_group(sample_count = 100, sample_size = 10)]
mod duel {
    use super::*;

    fn bench_duel(bencher: Bencher<'_, '_>, a: &str, b: &str) {
        bench_battle(bencher, &[a], &[b]);
    }

    /// The default comparison: the escort (destroyer-class) against the
    /// corvette (frigate-class), from a random encounter at Very Long range.
    #[divan::bench]
    fn escort_against_corvette(bencher: Bencher<'_, '_>) {
        bench_duel(bencher, "escort", "corvette");
    }

    /// A mirror match.
    #[divan::bench]
    fn corvette_against_corvette(bencher: Bencher<'_, '_>) {
        bench_duel(bencher, "corvette", "corvette");
    }

    /// Small ships: the scout against the trader.
    #[divan::bench]
    fn scout_against_trader(bencher: Bencher<'_, '_>) {
        bench_duel(bencher, "scout", "trader");
    }
}

/// One trial of a battle per iteration: default tactics, every phase,
/// events discarded, so a figure is the cost of a trial.
fn bench_battle(bencher: Bencher<'_, '_>, a: &[&str], b: &[&str]) {
    let system = system();
    let request = BattleRequest::fleets(a, b, 50, Options::new());
    let engagement = system.fleets(&request).expect("every ship exists");
    testing::bench_trials(bencher, &engagement, 1);
}

/// Fleet battles, one trial per iteration: every ship rolls initiative,
/// chooses targets and keeps a band to each enemy, so the cost per trial
/// grows with the ships and the pairs between them.
#[divan::bench_group(sample_count = 50, sample_size = 5)]
mod fleet {
    use super::*;

    /// Four against four: two corvettes, a scout and a trader against two
    /// escorts and two traders, from a random encounter at Very Long range.
    #[divan::bench]
    fn four_against_four(bencher: Bencher<'_, '_>) {
        bench_battle(
            bencher,
            &["corvette", "corvette", "scout", "trader"],
            &["escort", "escort", "trader", "trader"],
        );
    }
}

/// Copying the battle back alone: the overhead inside every resolution
/// figure above.
#[divan::bench]
fn reset_battle(bencher: Bencher<'_, '_>) {
    let system = system();
    let template = battle(&system, "corvette", "trader", Band::Short);
    let mut battle = template.clone();
    bencher.bench_local(|| {
        battle.clone_from(black_box(&template));
        black_box(&battle);
    });
}

//! Property tests of the module-grid invariants, over seeded dice and every legal declaration.

mod common;

use broadside_core::{
    Engagement, EventLog, Loss, NullSink, Ruleset, SeededDice, Side, Verdict, run_trials,
};
use broadside_data::testing;
use broadside_module_grid::model::ModuleIx;
use common::{duel_request, fleet_request, num, resolve_with, ship, system, text};
use proptest::prelude::*;

const SHIPS: [&str; 4] = ["scout", "frigate", "destroyer", "cruiser"];
const SIDES: [&str; 4] = ["fore", "aft", "port", "starboard"];
const MODES: [&str; 4] = ["standard", "long", "multi", "fusion"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Any declaration resolves or is refused, never panics; a hit's numbers
    /// agree with one another and with the rules.
    #[test]
    fn resolution_invariants(
        attacker in 0usize..4,
        target in 0usize..4,
        range in 0i64..8,
        side in 0usize..4,
        mode in 0usize..4,
        guns in proptest::option::of(0i64..8),
        shields in proptest::option::of(0i64..8),
        seed: u64,
    ) {
        let mut options = vec![
            ("range", num(range)),
            ("side", text(SIDES[side])),
            ("mode", text(MODES[mode])),
        ];
        if let Some(g) = guns {
            options.push(("guns", num(g)));
        }
        if let Some(s) = shields {
            options.push(("shields", num(s)));
        }
        let Ok(r) = resolve_with(SHIPS[attacker], SHIPS[target], &options, &mut SeededDice::new(seed)) else {
            return Ok(());
        };
        let j = &r.json;
        let shields_before = j["shields_before"].as_u64().unwrap_or(0);
        let power = j["power"].as_u64().unwrap_or(0);
        let kept: Vec<u64> = j["kept"].as_array().map(|a| a.iter().filter_map(|v| v.as_u64()).collect()).unwrap_or_default();
        let pool_len = j["pool"].as_array().map_or(0, Vec::len) as u64;
        if j["hit"] == true {
            // Shields drop by one per strike, never below 0.
            prop_assert_eq!(j["shields_after"].as_u64(), Some(shields_before.saturating_sub(1)));
            // Power + Shields dice are rolled (none at power 0), and the
            // Shields highest removed: power dice are kept.
            if power > 0 {
                prop_assert_eq!(pool_len, power + shields_before);
                prop_assert_eq!(kept.len() as u64, power);
            }
            // Kept dice are laid highest first.
            prop_assert!(kept.windows(2).all(|w| w[0] >= w[1]));
            // Hull damage is the face on a module, 1 off the silhouette.
            let laid: u64 = j["dice_laid"].as_array().map(|a| a.iter().map(|d| d["hull_damage"].as_u64().unwrap_or(0)).sum()).unwrap_or(0);
            prop_assert_eq!(j["hull_damage"].as_u64(), Some(laid));
            for d in j["dice_laid"].as_array().into_iter().flatten() {
                let face = d["die"].as_u64().unwrap_or(0);
                if d["at"].is_null() {
                    prop_assert_eq!(d["hull_damage"].as_u64(), Some(1));
                    prop_assert_eq!(d["ooc"].as_bool(), Some(face >= 4));
                } else {
                    prop_assert_eq!(d["hull_damage"].as_u64(), Some(face));
                }
            }
            // The impact is the first die's module.
            if let Some(first) = j["dice_laid"].as_array().and_then(|a| a.first()) {
                prop_assert_eq!(&j["impact"]["at"], &first["at"]);
            }
        } else {
            prop_assert!(j["allocation"].is_null() && kept.is_empty());
            prop_assert_eq!(j["hull_damage"].as_u64(), Some(0));
        }
        // Multi uses no Guns; the other modes use one, unless Guns is
        // already 0 (ruling "Guns 0": the shot fires at power 0).
        let before = j["guns_before"].as_u64().unwrap_or(0);
        let after = j["guns_after"].as_u64().unwrap_or(0);
        if MODES[mode] == "multi" || before == 0 {
            prop_assert_eq!(after, before);
        } else {
            prop_assert_eq!(after + 1, before);
        }
    }

    /// Whole duels from any start: no error, a verdict consistent with the
    /// ships' state, hull damage and markers within the rules' bounds.
    #[test]
    fn duel_invariants(a in 0usize..4, b in 0usize..4, range in 0i64..12, seed: u64) {
        let grid = system();
        let duel = grid
            .duel(&duel_request(SHIPS[a], SHIPS[b], 12, &[("start-range", num(range))]))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut dice = SeededDice::new(seed);
        let tactics = broadside_module_grid::DefaultTactics;
        let (outcome, battle) = duel
            .play_with([&tactics, &tactics], &mut dice, &mut NullSink)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        for (i, s) in battle.board.ships.iter().enumerate() {
            let class = grid.rules.class(s.class);
            prop_assert!(s.hull_damage >= class.hull_damage);
            prop_assert!(s.shields <= class.shields);
            prop_assert!(s.guns <= class.guns);
            prop_assert!(s.luck <= class.luck);
            prop_assert!(s.missiles <= class.missiles && s.bombs <= class.bombs);
            // Slagged modules are broken modules; no module outside the class.
            prop_assert_eq!(s.slagged & !s.broken, 0);
            prop_assert_eq!(s.broken & !class.all_modules(), 0);
            for m in 0..class.modules.len() as ModuleIx {
                prop_assert!(s.markers(m) <= 2);
            }
            let lost = outcome.ships[i].loss == Some(Loss::Destroyed);
            prop_assert_eq!(lost, s.exploded);
        }
        // The same seed plays the same duel.
        let again = duel.play(&mut SeededDice::new(seed), &mut NullSink).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let first = duel.play(&mut SeededDice::new(seed), &mut NullSink).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(again, first);
    }

    /// A sink that keeps events does not change the result.
    #[test]
    fn events_do_not_change_the_result(seed: u64) {
        let grid: &dyn Ruleset = system();
        let engagement = grid
            .prepare_battle(&duel_request("frigate", "destroyer", 20, &[]))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let quiet = engagement.play(&mut SeededDice::new(seed), &mut NullSink);
        let mut log = EventLog::default();
        let loud = engagement.play(&mut SeededDice::new(seed), &mut log);
        prop_assert_eq!(quiet, loud);
    }
}

const FORMATIONS: [&str; 3] = ["line", "column", "stack"];

/// A side of one to three ships, as class ids.
fn side() -> impl Strategy<Value = Vec<&'static str>> {
    proptest::collection::vec(proptest::sample::select(&SHIPS[..]), 1..=3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random small fleets in any formation: one fate per roster ship on
    /// the right side, no side losing more ships than it has, a ship
    /// counted destroyed exactly when it exploded, and a verdict that agrees
    /// with who is left.
    #[test]
    fn fleet_invariants(
        a in side(),
        b in side(),
        formations in (0usize..3, 0usize..3),
        range in 0i64..10,
        seed: u64,
    ) {
        let grid = system();
        let request = fleet_request(
            &a,
            &b,
            6,
            &[("start-range", num(range))],
            [
                &[("formation", text(FORMATIONS[formations.0]))],
                &[("formation", text(FORMATIONS[formations.1]))],
            ],
        );
        let duel = grid.duel(&request).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let tactics = broadside_module_grid::DefaultTactics;
        let (outcome, battle) = duel
            .play_with([&tactics, &tactics], &mut SeededDice::new(seed), &mut NullSink)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let roster = duel.roster();
        prop_assert_eq!(outcome.ships.len(), roster.len());
        for (i, fate) in outcome.ships.iter().enumerate() {
            prop_assert_eq!(fate.side, roster.side(i));
            prop_assert_eq!(fate.loss == Some(Loss::Destroyed), battle.board.ships[i].exploded);
        }
        prop_assert!(outcome.lost(Side::A) <= a.len());
        prop_assert!(outcome.lost(Side::B) <= b.len());
        let standing = |side: Side| {
            roster.of(side).filter(|&i| !battle.board.ships[i].exploded).count()
        };
        match outcome.verdict {
            Verdict::Winner(side) => {
                prop_assert_eq!(standing(side.other()), 0);
                prop_assert!(standing(side) > 0);
            }
            Verdict::Draw => prop_assert_eq!(standing(Side::A) + standing(Side::B), 0),
            Verdict::Undecided => prop_assert!(standing(Side::A) > 0 && standing(Side::B) > 0),
            Verdict::Escaped(_) => prop_assert!(false, "no ship of this system escapes"),
        }
    }

    /// A tally of random small fleets: each side's ships-lost distribution
    /// sums to the trials and has no entry past the side's size.
    #[test]
    fn fleet_tallies_count_every_trial(a in side(), b in side(), seed: u64) {
        let grid: &dyn Ruleset = system();
        let engagement = grid
            .prepare_battle(&fleet_request(&a, &b, 4, &[], [&[], &[]]))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let trials = 6;
        let tally = run_trials(&*engagement, seed, trials, &|_| {})
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let summary = tally.summary(engagement.roster());
        prop_assert_eq!(summary.trials, trials);
        for (side, size) in [(Side::A, a.len()), (Side::B, b.len())] {
            let lost = summary.ships_lost.of(side);
            prop_assert_eq!(lost.iter().sum::<u64>(), trials);
            prop_assert!(lost.len() <= size + 1);
        }
    }
}

/// A fleet battle's tally does not depend on the number of threads: trial i
/// always draws from its own stream, and tallies merge by addition. 1100
/// trials make two chunks of the runner's 1024, so two threads really split
/// the work.
#[test]
fn fleet_tallies_are_the_same_on_one_thread_and_two() {
    let grid: &dyn Ruleset = system();
    let engagement = grid
        .prepare_battle(&fleet_request(
            &["frigate", "scout"],
            &["scout", "scout"],
            3,
            &[("start-range", num(3))],
            [&[], &[]],
        ))
        .expect("the battle is set up");
    let one = testing::tally_on_one_and_two_threads(&*engagement, 41, 1100);
    let summary = one.summary(engagement.roster());
    assert_eq!(summary.trials, 1100);
    assert_eq!(summary.ships_lost.a.iter().sum::<u64>(), 1100);
    // Replaying a trial gives the same events each time.
    let replay = |trial| {
        let mut log = EventLog::default();
        broadside_core::play_trial(&*engagement, 41, trial, &mut log).expect("plays");
        log.events
    };
    assert_eq!(replay(7), replay(7));
}

/// A fresh ship is at full power with nothing broken.
#[test]
fn fresh_ships_are_whole() {
    for id in SHIPS {
        let s = ship(id);
        let class = common::class(id);
        assert_eq!((s.broken, s.slagged, s.ooc), (0, 0, 0));
        assert_eq!((s.guns, s.shields), (class.guns, class.shields));
        assert!(s.is_armed(&system().rules));
    }
}

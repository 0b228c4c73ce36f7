//! Property tests of the system's invariants: whatever the dice, a ship's
//! record sheet stays one the rules can reach, nothing panics, and a fleet
//! battle accounts for every ship of its roster.

mod common;

use std::sync::Arc;

use broadside_action_d10::model::{Letter, System};
use broadside_action_d10::ship::ScannerState;
use broadside_action_d10::{
    Attack, Board, DefaultTactics, Hit, LockNeed, LockSituation, Ship, Situation, Status,
};
use broadside_core::montecarlo::Tally;
use broadside_core::{
    AttackResolution, NullSink, ResolveError, Ruleset, SeededDice, Side, Verdict, play_trial,
    run_trials,
};
use broadside_data::testing;
use common::{num, system};
use proptest::prelude::*;

const SHIPS: [&str; 6] = [
    "gunboat",
    "escort",
    "frigate",
    "destroyer",
    "cruiser",
    "carrier",
];

/// Everything that must hold of any ship's state.
fn check_ship(ship: &Ship) -> Result<(), TestCaseError> {
    let rules = &system().rules;
    let class = ship.class(rules);
    let marked = usize::from(ship.marked);
    prop_assert!(marked <= class.track.len());
    for letter in Letter::ALL {
        let on_marked = class.track[..marked]
            .iter()
            .filter(|&&l| l == letter)
            .count();
        prop_assert_eq!(usize::from(ship.lost[letter.index()]), on_marked);
    }
    if marked == class.track.len() {
        prop_assert!(matches!(
            ship.status,
            Status::Destroyed | Status::Scuttled | Status::Captured | Status::Escaped
        ));
    }
    if ship.status == Status::Destroyed {
        prop_assert_eq!(marked, class.track.len());
    }
    for s in System::ALL {
        prop_assert!(
            ship.intact(s) <= class.has(s),
            "{} above its original",
            s.id()
        );
    }
    let lost_mounts = ship.weapons.iter().filter(|m| m.destroyed).count();
    let weapon_systems = [
        System::TurretWeapon,
        System::FixedWeapon,
        System::SpinalMount,
    ];
    let intact_mounts: usize = weapon_systems
        .iter()
        .map(|&s| usize::from(ship.intact(s)))
        .sum();
    prop_assert_eq!(intact_mounts + lost_mounts, ship.weapons.len());
    for s in broadside_action_d10::model::Scanner::ALL {
        let state = ship.scanners[s.index()];
        prop_assert_eq!(
            ship.intact(s.system()) == 0,
            matches!(state, ScannerState::Absent | ScannerState::Destroyed)
        );
    }
    prop_assert!(ship.shields <= ship.max_shields(rules));
    prop_assert!(ship.cargo <= class.cargo);
    prop_assert!(ship.remass <= class.remass);
    prop_assert!(ship.warheads <= class.warheads);
    prop_assert!(ship.small_craft <= ship.intact(System::SmallCraftBay));
    prop_assert!(ship.ready_troops <= ship.intact(System::Troops));
    prop_assert!(ship.actions_per_turn(rules) <= class.actions());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 96,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Any attack by any mount at any range, on a target in any state of
    /// damage, resolves or is refused, and leaves a reachable record sheet.
    #[test]
    fn attacks_keep_record_sheets_reachable(
        attacker in 0..SHIPS.len(),
        target in 0..SHIPS.len(),
        mount in 0usize..12,
        range in 0u32..26,
        displacement in 0u32..5,
        aft in any::<bool>(),
        locked in any::<bool>(),
        marked in 0u8..40,
        seed in any::<u64>(),
    ) {
        let s = system();
        let rules = &s.rules;
        let mut first = common::ship(SHIPS[attacker]);
        for m in &mut first.weapons {
            m.charged = true;
        }
        let victim = common::ship(SHIPS[target]).with_boxes_marked(rules, marked);
        let mount = mount % first.weapons.len();
        let mut board = Board {
            ships: vec![first, victim],
            names: Arc::from(vec!["a".to_owned(), "b".to_owned()]),
        };
        let before = board.ships[1].clone();
        let attack = Attack {
            attacker: 0,
            mount,
            target: 1,
            range,
            situation: Situation { displacement, aft, aim: false, chaff: false },
            lock: if locked {
                LockNeed::Held
            } else {
                LockNeed::Make(LockSituation { range, enemies_in_target_hex: 1, ..LockSituation::default() })
            },
            rerolls: 0,
        };
        let mut dice = SeededDice::new(seed);
        match s.resolve_attack(&mut board, &attack, &mut dice, &mut NullSink) {
            Ok(outcome) => {
                if let Some(applied) = &outcome.applied {
                    let marked_now = usize::from(board.ships[1].marked - before.marked);
                    prop_assert_eq!(applied.boxes.len(), marked_now);
                    prop_assert!(applied.absorbed <= u32::from(before.shields));
                }
                if outcome.hits == 0 {
                    prop_assert_eq!(&board.ships[1], &before);
                }
            }
            Err(ResolveError::Refused(_)) => prop_assert_eq!(&board.ships[1], &before),
            Err(other) => return Err(TestCaseError::fail(format!("unexpected error: {other}"))),
        }
        check_ship(&board.ships[0])?;
        check_ship(&board.ships[1])?;
    }

    /// Hits of any weapon, in any number, from either arc, on any ship.
    #[test]
    fn allocation_marks_boxes_in_order_and_never_destroys_twice(
        target in 0..SHIPS.len(),
        weapon in 0usize..9,
        hits in 0u32..30,
        aft in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let s = system();
        let mut ship = common::ship(SHIPS[target]);
        let before = ship.clone();
        let hit = Hit { weapon: weapon as u8, hits, aft };
        let applied = s
            .allocate_named(&hit, &mut ship, "target", &mut SeededDice::new(seed), &mut NullSink)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let track = &before.class(&s.rules).track;
        prop_assert_eq!(&applied.boxes[..], &track[..applied.boxes.len()]);
        prop_assert_eq!(applied.core_hit, applied.actions_lost >= s.rules.constants.boxes.core_hit_actions && ship.status == Status::Active);
        check_ship(&ship)?;
    }

    /// Whole duels between any two ships play to a verdict or the limit,
    /// every record sheet reachable at the end, and replay exactly.
    #[test]
    fn duels_end_in_a_reachable_state(
        a in 0..SHIPS.len(),
        b in 0..SHIPS.len(),
        range in 0i64..20,
        seed in any::<u64>(),
    ) {
        let s = system();
        let request = common::duel_request(SHIPS[a], SHIPS[b], 20, &[("start-range", num(range))]);
        let duel = s.set_up(&request).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let tactics = DefaultTactics::default();
        let (outcome, battle) = duel
            .play_with([&tactics, &tactics], &mut SeededDice::new(seed), &mut NullSink)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(outcome.turns <= 20);
        if outcome.verdict != Verdict::Undecided {
            prop_assert!(outcome.turns >= 1);
        }
        for ship in &battle.board.ships {
            check_ship(ship)?;
        }
        let (again, _) = duel
            .play_with([&tactics, &tactics], &mut SeededDice::new(seed), &mut NullSink)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(outcome, again);
    }
}

proptest! {
    // Each case plays whole fleet battles, so fewer cases than above.
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Random small fleets, carriers and their riders included: every
    /// trial's outcome has one fate per roster ship, on the roster's side;
    /// no side loses more ships than it has; and the tally's per-side
    /// counts of ships lost sum to the trials, the same whether the trials
    /// are played one by one or by the runner.
    #[test]
    fn fleets_account_for_every_ship(
        a in proptest::collection::vec(0..SHIPS.len(), 1..=3),
        b in proptest::collection::vec(0..SHIPS.len(), 1..=3),
        range in 0i64..16,
        seed in any::<u64>(),
    ) {
        let ids = |side: &[usize]| side.iter().map(|&k| SHIPS[k]).collect::<Vec<_>>();
        let request = common::fleet_request(&ids(&a), &ids(&b), 8, &[("start-range", num(range))], [&[], &[]]);
        let engagement = system()
            .prepare_battle(&request)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let roster = engagement.roster();
        const TRIALS: u64 = 3;
        let mut tally = Tally::default();
        for trial in 0..TRIALS {
            let outcome = play_trial(&*engagement, seed, trial, &mut NullSink)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(outcome.ships.len(), roster.len());
            for (i, fate) in outcome.ships.iter().enumerate() {
                prop_assert_eq!(fate.side, roster.side(i));
            }
            for side in Side::BOTH {
                prop_assert!(outcome.lost(side) <= roster.side_len(side));
            }
            tally.add(&outcome);
        }
        let run = run_trials(&*engagement, seed, TRIALS, &|_| {})
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&run, &tally);
        let summary = run.summary(roster);
        for side in Side::BOTH {
            let lost = summary.ships_lost.of(side);
            prop_assert_eq!(lost.iter().sum::<u64>(), TRIALS);
            prop_assert_eq!(lost.len(), roster.side_len(side) + 1);
        }
    }
}

/// A fleet run's tally is the same on a pool of one thread and of two: the
/// runner splits 1,100 one-turn trials into two chunks, and trial i always draws from
/// its own stream, so neither the split nor the order trials finish in
/// shows in the figures.
#[test]
fn a_fleet_run_tallies_the_same_on_one_thread_and_on_two() {
    let request = common::fleet_request(
        &["gunboat", "escort"],
        &["escort", "gunboat"],
        1,
        &[("start-range", num(4))],
        [&[], &[]],
    );
    let engagement = system()
        .prepare_battle(&request)
        .expect("the fleets set up");
    let one = testing::tally_on_one_and_two_threads(&*engagement, 2026, 1100);
    let summary = one.summary(engagement.roster());
    assert_eq!(summary.trials, 1100);
    assert_eq!(summary.ships_lost.a.iter().sum::<u64>(), 1100);
}

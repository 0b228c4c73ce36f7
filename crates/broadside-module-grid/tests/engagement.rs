//! What broken modules stop working in an engagement, and the turn's rulings: power reallocation, movement, tumbling, scans, blasts.

mod common;

use broadside_core::{EventLog, SeededDice, TurnSequence};
use broadside_module_grid::engagement::{Maneuver, Phase, Sequence};
use broadside_module_grid::model::Function;
use broadside_module_grid::{Battle, ModuleGrid};
use common::{event_lines, system};

/// A frigate (A) against a scout (B) two hexes apart.
fn battle() -> Battle {
    system()
        .battle("frigate", "scout", 2)
        .expect("both ships exist")
}

/// Breaks every module of a function on ship `i`.
fn break_all(grid: &ModuleGrid, battle: &mut Battle, i: usize, function: Function) {
    let ship = &mut battle.board.ships[i];
    let class = grid.rules.class(ship.class);
    let set = class.modules_of(function);
    for m in 0..class.modules.len() as u8 {
        if set & (1 << m) != 0 {
            ship.add_marker(m, 2);
        }
    }
}

fn power_phase(grid: &ModuleGrid, battle: &mut Battle) -> Vec<String> {
    let sequence = Sequence {
        system: grid,
        objects: &[],
        fire_steps: &[],
    };
    let tactics = broadside_module_grid::DefaultTactics;
    let mut log = EventLog::default();
    sequence
        .play_phase(
            Phase::Power,
            1,
            battle,
            [&tactics, &tactics],
            &mut SeededDice::new(1),
            &mut log,
        )
        .expect("the power phase plays");
    event_lines(&log.events)
}

/// Power is reallocated only with a working Engine; Shields come back only
/// with a working Shields module; scans come only from working Science Bays.
#[test]
fn power_reallocation_needs_an_engine_and_shields_modules() {
    let grid = system();
    let mut b = battle();
    for ship in &mut b.board.ships {
        ship.guns = 0;
        ship.shields = 0;
    }
    break_all(grid, &mut b, 0, Function::Engine);
    break_all(grid, &mut b, 1, Function::Shields);
    break_all(grid, &mut b, 1, Function::Science);
    let events = power_phase(grid, &mut b);
    assert!(
        events.iter().any(|e| e.contains("no working Engine")),
        "{events:?}"
    );
    assert_eq!((b.board.ships[0].guns, b.board.ships[0].shields), (0, 0));
    assert_eq!(b.board.ships[1].guns, 2);
    assert_eq!(b.board.ships[1].shields, 0, "no working Shields module");
    assert_eq!(b.board.ships[1].scans, 0, "no working Science Bay");
    assert_eq!(b.board.ships[0].scans, 1);
}

/// Without a working Engine a ship cannot move; without a working Helm, or
/// while tumbling (OOC above its pilot's Piloting), it cannot turn.
#[test]
fn movement_needs_an_engine_and_turns_need_a_helm() {
    let grid = system();
    let go = |steps, turn| Maneuver {
        turn_before: turn,
        steps,
        turn_after: 0,
    };
    let b = battle();
    assert!(grid.maneuver_allowed(&b, 0, go(3, 1)).is_ok());
    assert!(
        grid.maneuver_allowed(&b, 0, go(4, 0)).is_err(),
        "beyond Speed 3"
    );
    assert!(
        grid.maneuver_allowed(&b, 0, go(1, 2)).is_err(),
        "two hexsides at once"
    );

    let mut no_engine = battle();
    break_all(grid, &mut no_engine, 0, Function::Engine);
    assert!(grid.maneuver_allowed(&no_engine, 0, go(1, 0)).is_err());
    assert!(grid.maneuver_allowed(&no_engine, 0, go(0, 1)).is_ok());

    let mut no_helm = battle();
    break_all(grid, &mut no_helm, 0, Function::Helm);
    assert!(grid.maneuver_allowed(&no_helm, 0, go(2, 0)).is_ok());
    assert!(grid.maneuver_allowed(&no_helm, 0, go(2, 1)).is_err());

    let mut tumbling = battle();
    tumbling.board.ships[0].ooc = 3;
    assert!(grid.tumbling(&tumbling, 0));
    assert!(grid.maneuver_allowed(&tumbling, 0, go(2, -1)).is_err());
    tumbling.board.ships[0].ooc = 2;
    assert!(
        !grid.tumbling(&tumbling, 0),
        "OOC equal to Piloting 2 is still in control"
    );
}

/// A broken Cannon does not fire and a broken Teleporter does not teleport.
#[test]
fn broken_weapons_are_not_offered() {
    let grid = system();
    let mut b = battle();
    b.poses[1].hex = b.poses[0].hex.neighbour(b.poses[0].facing);
    let before = grid.fire_options(&b, 0, 1, &[]);
    assert_ne!(before.cannons, 0);
    assert_ne!(before.teleporters, 0);
    break_all(grid, &mut b, 0, Function::Cannon);
    break_all(grid, &mut b, 0, Function::Teleporter);
    let after = grid.fire_options(&b, 0, 1, &[]);
    assert_eq!((after.cannons, after.teleporters), (0, 0));
}

/// A ship that explodes next to its enemy blasts it: the duel ends in a
/// draw when the blast sets off the other ship too, and every trial's
/// losses agree with the verdict.
#[test]
fn explosions_in_duels_blast_the_other_ship() {
    let grid = system();
    let duel = grid
        .duel(&common::duel_request(
            "cruiser",
            "cruiser",
            30,
            &[("start-range", common::num(1))],
        ))
        .expect("the duel is set up");
    let tactics = broadside_module_grid::DefaultTactics;
    let mut blasts = 0;
    for trial in 0..40 {
        let mut dice = SeededDice::for_trial(5, trial);
        let mut log = EventLog::default();
        let (outcome, end) = duel
            .play_with([&tactics, &tactics], &mut dice, &mut log)
            .expect("plays");
        if log
            .events
            .iter()
            .any(|e| e.to_string().starts_with("explosion power is"))
        {
            blasts += 1;
        }
        let exploded: Vec<bool> = end.board.ships.iter().map(|s| s.exploded).collect();
        match outcome.verdict {
            broadside_core::Verdict::Winner(side) => {
                assert!(exploded[1 - side.index()] && !exploded[side.index()]);
            }
            broadside_core::Verdict::Draw => assert!(exploded[0] && exploded[1]),
            _ => assert!(!exploded[0] && !exploded[1]),
        }
    }
    assert!(
        blasts > 0,
        "some cruiser exploded beside the other in 40 trials"
    );
}

/// Only a living enemy may be fired at (rules note, fleets: each ship fires
/// "at any enemy still in play"), and a ship that has exploded fires no
/// more (seed 003 line 91: a ship that cannot roll its hull check high
/// enough "explodes", its crew left as spacewalkers). The frigate beside
/// an enemy scout has a Cannon and a Teleporter to offer it; once either
/// ship has exploded, nothing is offered either way, and a friendly scout
/// in the same place is never offered anything.
#[test]
fn only_living_enemies_are_offered_weapons() {
    use broadside_core::hex::Direction;
    let grid = system();
    let mut b = battle();
    b.poses[1].hex = b.poses[0].hex.neighbour(b.poses[0].facing);
    let living = grid.fire_options(&b, 0, 1, &[]);
    assert_ne!((living.cannons, living.teleporters), (0, 0));

    let nothing = |o: &broadside_module_grid::engagement::FireOptions| {
        (o.cannons, o.missile_bays, o.teleporters)
    };
    let mut target_gone = b.clone();
    target_gone.board.ships[1].exploded = true;
    assert_eq!(
        nothing(&grid.fire_options(&target_gone, 0, 1, &[])),
        (0, 0, 0)
    );

    let mut firer_gone = b.clone();
    firer_gone.board.ships[0].exploded = true;
    assert_eq!(
        nothing(&grid.fire_options(&firer_gone, 0, 1, &[])),
        (0, 0, 0)
    );

    let friend = common::fleet(
        &[
            ("frigate", (0, 0), Direction::EAST),
            ("scout", (1, 0), Direction::WEST),
        ],
        &[("scout", (6, 0), Direction::WEST)],
    );
    assert_eq!(nothing(&grid.fire_options(&friend, 0, 1, &[])), (0, 0, 0));
}

/// A Cannon fires once a turn, twice in Multi mode (ruling 10: a Multi
/// Cannon takes no Used marker and may fire twice a turn; other modes
/// once). The frigate's bow Cannon, bearing on the scout beside it, is
/// offered after one Multi shot this turn and not after two.
#[test]
fn a_cannon_is_offered_until_it_has_fired_its_multi_shots() {
    let grid = system();
    let mut b = battle();
    b.poses[1].hex = b.poses[0].hex.neighbour(b.poses[0].facing);
    let bow = 1u64 << common::module("frigate", "1,2");
    assert_ne!(grid.fire_options(&b, 0, 1, &[]).cannons & bow, 0);

    // Multi shots take no Used marker: only the count of shots fired grows.
    b.board.ships[0].shots.fill(1);
    assert_ne!(
        grid.fire_options(&b, 0, 1, &[]).cannons & bow,
        0,
        "one Multi shot fired: a second is still allowed"
    );
    b.board.ships[0].shots.fill(2);
    assert_eq!(
        grid.fire_options(&b, 0, 1, &[]).cannons & bow,
        0,
        "two Multi shots fired: the Cannon is done for the turn"
    );
}

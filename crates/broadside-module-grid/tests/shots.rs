//! Two edges of a Cannon shot: the Used marker a shot at Guns 0 still takes, and a range too long for any roll.
//!
//! Battlestations, Ship to Ship Combat: a Standard Cannon shot has power
//! equal to the Guns and puts a Used marker on the Cannon; the rules note's
//! ruling "Guns 0" (the shot fires at power 0 and still takes its Used
//! marker) and its to-hit ruling (a Gunnery check against 7 + range).

mod common;

use broadside_core::{AttackResolution, EventLog, ScriptedDice};
use broadside_module_grid::Weapon;
use broadside_module_grid::model::{Mode, ShipSide};
use common::{assert_all_used, board, module, ship, shot_at, system};

/// The frigate's bow Cannon at Guns 0 fires at the scout, range 1, and
/// misses (1 + 1 + 2 = 4 against 8): the Cannon is Used all the same.
#[test]
fn a_shot_at_guns_0_takes_a_used_marker() {
    let grid = system();
    let cannon = module("frigate", "1,2");
    let mut frigate = ship("frigate");
    frigate.guns = 0;
    let mut b = board(frigate, ship("scout"));
    let shot = shot_at(
        Weapon::Cannon {
            module: cannon,
            mode: Mode::Standard,
        },
        1,
        ShipSide::Fore,
        None,
    );
    let mut dice = ScriptedDice::new([1, 1]);
    let outcome = grid
        .resolve_attack(&mut b, &shot, &mut dice, &mut EventLog::default())
        .expect("the shot resolves");
    assert_all_used(&dice, "a miss at Guns 0");
    assert!(!outcome.hit);
    assert_ne!(b.ships[0].used & (1 << cannon), 0, "the Cannon is Used");
    assert_eq!(b.ships[0].guns, 0);
}

/// The to-hit difficulty is 7 + range, whatever the range a caller of the
/// library gives: at three thousand million hexes no roll hits, so
/// 6 + 6 + 2 misses and nothing more is rolled.
#[test]
fn a_shot_beyond_any_roll_misses() {
    let grid = system();
    let mut b = board(ship("frigate"), ship("scout"));
    let shot = shot_at(
        Weapon::Cannon {
            module: module("frigate", "1,2"),
            mode: Mode::Standard,
        },
        3_000_000_000,
        ShipSide::Fore,
        None,
    );
    let mut dice = ScriptedDice::new([6, 6]);
    let outcome = grid
        .resolve_attack(&mut b, &shot, &mut dice, &mut EventLog::default())
        .expect("the shot resolves");
    assert_all_used(&dice, "a shot at an absurd range");
    assert!(!outcome.hit);
    assert!(
        outcome.check.difficulty > 14,
        "{}",
        outcome.check.difficulty
    );
}

//! Module damage and the other attacks: Broken and slagged modules, repairs, teleported bombs and missiles.
//!
//! Battlestations, Ship to Ship Combat: Cannon Hits, Broken Modules, Slagged
//! Modules; the Teleporter and missiles use the same hit allocation.

mod common;

use std::fmt::Write as _;

use broadside_core::{AttackResolution, DamageAllocation, EventLog, ResolveError, ScriptedDice};
use broadside_module_grid::damage::{Cause, Hit};
use broadside_module_grid::model::{Mode, ShipSide};
use broadside_module_grid::{Shot, Square, Weapon};
use common::{board, check_procedure, describe, module, ship, shot_at, system};

/// Broken Modules and Slagged Modules: a die of 4-6 puts a Broken marker on
/// the module; "A module that has two Broken markers on it is slagged ... A
/// module can have at most two Broken markers on it." Three single dice of
/// 4, 5 and 6 land on the scout's bow Cannon: broken, slagged, and still
/// slagged (each raising OOC, as any 4-6 on a module does). The third hit
/// brings the hull damage to 15, chart 5 less Size 1: a hull check of 4,
/// made with 5 + 5.
#[test]
fn a_second_marker_slags_and_a_third_is_not_added() {
    let grid = system();
    check_procedure(
        "module_damage_broken_slagged_and_no_third_marker",
        "Battlestations, Ship to Ship Combat: Broken Modules, Slagged Modules (two Broken markers slag a module; at most two)",
        "three power-1 hits on the scout's bow column, Shields 0",
        &[4, 5, 6, 5, 5],
        |dice, log| {
            let mut scout = ship("scout");
            scout.shields = 0;
            let hit = Hit {
                cause: Cause::Cannon(Mode::Multi),
                power: 1,
                through_shields: true,
                side: ShipSide::Fore,
                line: 1,
                impact_only: false,
            };
            let mut out = String::new();
            for _ in 0..3 {
                grid.allocate(&hit, &mut scout, dice, log)?;
                let _ = writeln!(out, "after: {}", describe(&scout));
            }
            assert_eq!(scout.markers(module("scout", "1,2")), 2);
            assert_eq!(scout.ooc, 3);
            Ok(out)
        },
    );
}

/// Broken Modules: "It requires an Engineering Skill check action of 11 to
/// remove a Broken marker"; Slagged Modules: "Any action (including
/// repairs!) taken in a slagged square is at a penalty of +3 difficulty."
/// The frigate (Engineering 2) repairs its broken bow Cannon with 5 + 4 + 2
/// = 11, then fails on its slagged port Cannon with 6 + 5 + 2 = 13 against
/// 14.
#[test]
fn repairs_of_broken_and_slagged_modules() {
    let grid = system();
    check_procedure(
        "repair_broken_11_and_slagged_14",
        "Battlestations, Ship to Ship Combat: Broken Modules (Engineering check of 11), Slagged Modules (+3 difficulty)",
        "the frigate repairs a broken and a slagged Cannon",
        &[5, 4, 6, 5],
        |dice, log| {
            let mut frigate = ship("frigate");
            let bow = module("frigate", "1,2");
            let port = module("frigate", "3,1");
            frigate.add_marker(bow, 2);
            frigate.add_marker(port, 2);
            frigate.add_marker(port, 2);
            let mut b = board(frigate, ship("scout"));
            let before = describe(&b.ships[0]);
            let first = grid.repair(&mut b, 0, bow, dice, log)?;
            let second = grid.repair(&mut b, 0, port, dice, log)?;
            assert!(first && !second);
            Ok(format!(
                "before: {before}\nafter: {}",
                describe(&b.ships[0])
            ))
        },
    );
}

/// Teleporter (the game's rules wiki): a Science check against the firer's
/// Shields + the target's Shields + distance; hit allocation as a
/// direct-fire hit, with a called point; a bomb of one die on the module
/// struck, 4-6 breaking it. The frigate (Science 2) teleports onto the
/// destroyer at range 1: 3 + 3 + 1 = 7; rolls 3 + 3 + 2 = 8; calls 2,1 from
/// port; allocation 7; the bomb's 5 breaks the destroyer's port Cannon.
#[test]
fn a_teleported_bomb() {
    let grid = system();
    check_procedure(
        "teleporter_bomb_breaks_a_cannon",
        "Battlestations, Teleporter: Science check against both ships' Shields + distance; a bomb of one die, 4-6 breaks the module",
        "the frigate teleports a bomb onto the destroyer's port side at range 1, calling 2,1",
        &[3, 3, 3, 4, 5],
        |dice, log| {
            let mut b = board(ship("frigate"), ship("destroyer"));
            let shot = shot_at(
                Weapon::Teleporter {
                    module: module("frigate", "3,3"),
                },
                1,
                ShipSide::Port,
                Some("2,1"),
            );
            let outcome = grid.resolve_attack(&mut b, &shot, dice, log)?;
            let applied = outcome.applied.expect("the bomb lands");
            assert_eq!(applied.hull_damage, 5);
            assert_eq!(
                applied.shields_after, 3,
                "a bomb does not pass through Shields"
            );
            Ok(format!(
                "firer after: {}\ntarget after: {}",
                describe(&b.ships[0]),
                describe(&b.ships[1])
            ))
        },
    );
}

/// A teleport whose allocation misses the silhouette fails: no bomb die is
/// rolled, and the bomb is spent.
#[test]
fn a_teleport_off_the_silhouette_fails() {
    let grid = system();
    let mut b = board(ship("frigate"), ship("destroyer"));
    let shot = shot_at(
        Weapon::Teleporter {
            module: module("frigate", "3,3"),
        },
        1,
        ShipSide::Port,
        None,
    );
    let mut dice = ScriptedDice::new([6, 6, 6, 6]);
    let outcome = grid
        .resolve_attack(&mut b, &shot, &mut dice, &mut EventLog::default())
        .expect("the dice suffice");
    assert!(outcome.hit && outcome.applied.is_none());
    assert!(dice.remaining().is_empty());
    assert_eq!(b.ships[0].bombs, 1);
    assert_eq!(b.ships[1], ship("destroyer"));
}

/// Missiles, a ruling: an indirect hit, a Gunnery check against 8 within 8
/// hexes, then power 3 through Shields on the target's centre mark. The
/// destroyer (Gunnery 2) launches at the frigate at range 4: 4 + 3 + 2 = 9;
/// allocation 7 on the frigate's column 2; 6 dice keep 3, 3, 1.
#[test]
fn a_missile_is_an_indirect_hit() {
    let grid = system();
    check_procedure(
        "missile_indirect_hit_on_the_centre_mark",
        "Battlestations, Ship to Ship Combat: missiles use hit allocation on the centre mark (power and to-hit are a ruling)",
        "the destroyer launches a missile at the frigate's fore side at range 4",
        &[4, 3, 4, 3, 6, 5, 4, 3, 3, 1],
        |dice, log| {
            let mut b = board(ship("destroyer"), ship("frigate"));
            let shot = shot_at(
                Weapon::Missile {
                    module: module("destroyer", "4,1"),
                },
                4,
                ShipSide::Fore,
                None,
            );
            let outcome = grid.resolve_attack(&mut b, &shot, dice, log)?;
            assert_eq!(outcome.applied.map(|a| a.hull_damage), Some(7));
            Ok(format!(
                "firer after: {} (missiles {})\ntarget after: {}",
                describe(&b.ships[0]),
                b.ships[0].missiles,
                describe(&b.ships[1])
            ))
        },
    );
}

/// A missile takes no call, flies no farther than its range, and a bay
/// fires once a turn.
#[test]
fn missile_refusals() {
    let grid = system();
    let bay = module("destroyer", "4,1");
    let shot = |range: u32, call: Option<Square>| Shot {
        call,
        ..shot_at(Weapon::Missile { module: bay }, range, ShipSide::Fore, None)
    };
    let b = board(ship("destroyer"), ship("frigate"));
    let refused = |s: Shot| matches!(grid.check_shot(&b, &s), Err(ResolveError::Refused(_)));
    assert!(refused(shot(9, None)));
    assert!(refused(shot(
        1,
        Some(Square::parse("1,2").expect("a square"))
    )));
    let mut used = b.clone();
    used.ships[0].used |= 1 << bay;
    assert!(matches!(
        grid.check_shot(&used, &shot(1, None)),
        Err(ResolveError::Refused(_))
    ));
    let mut empty = b.clone();
    empty.ships[0].missiles = 0;
    assert!(matches!(
        grid.check_shot(&empty, &shot(1, None)),
        Err(ResolveError::Refused(_))
    ));
}

/// A refused shot changes nothing: the board is the same after as before.
#[test]
fn a_refused_shot_changes_nothing() {
    let grid = system();
    let mut b = board(ship("scout"), ship("frigate"));
    b.ships[0].add_marker(module("scout", "1,2"), 2);
    let before = b.clone();
    let shot = shot_at(
        Weapon::Cannon {
            module: module("scout", "1,2"),
            mode: Mode::Standard,
        },
        1,
        ShipSide::Fore,
        None,
    );
    let mut dice = ScriptedDice::new([6, 6]);
    let result = grid.resolve_attack(&mut b, &shot, &mut dice, &mut EventLog::default());
    assert!(matches!(result, Err(ResolveError::Refused(ref m)) if m.contains("broken")));
    assert_eq!(b, before);
    assert_eq!(dice.used(), 0);
}

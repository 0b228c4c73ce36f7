//! Fleets with scripted dice: every rule of seed 002 that involves more than one ship a side, each reproduced with the arithmetic shown, and the fleet rulings of the rules note.
//!
//! Ships are numbered as the roster numbers them: side A's in the order
//! named, then side B's. Each test places the ships by hand after the fleet
//! set-up, at rest, so the geometry is the one the doc comment describes.

mod common;

use broadside_action_d10::engagement::Sequence;
use broadside_action_d10::{Action, ActionD10, ActionTactics, Battle, Decision, Phase, Status};
use broadside_core::hex::{Direction, Hex};
use broadside_core::{
    Event, Loss, NullSink, ResolveError, Ruleset, Setup, Side, TurnSequence, Verdict,
};
use common::{Script, fleet, fleet_request, num, place, system};
use serde_json::json;

/// The seed file every test below cites.
const SEED: &str = "Seed 002 (002_a55310e8ab9fe49d.txt)";

/// The destroyer's first missile launcher (mount 5 on its record sheet).
const MISSILE: u8 = 4;
/// The destroyer's second missile launcher.
const MISSILE_2: u8 = 5;

fn lock(script: &mut Script, i: usize, target: u8) {
    script.act(i, Action::TargetLock { target, rerolls: 0 });
}

fn attack(script: &mut Script, i: usize, mount: u8, target: u8) {
    script.act(
        i,
        Action::Attack {
            mount,
            target,
            rerolls: 0,
        },
    );
}

fn end_of_turn(script: &mut Script) {
    script
        .phase(Phase::Drift, 1)
        .phase(Phase::Gravity, 1)
        .phase(Phase::PointDefenseFire, 1)
        .phase(Phase::MissileResolution, 1);
}

/// Destroyer (0) against a frigate (1) and an escort (2): the frigate at
/// (8, 0), the escort at `escort`, all at rest.
fn destroyer_against_frigate_and_escort(escort: Hex, dice: &[u32]) -> Script {
    let mut b = fleet(&["destroyer"], &["frigate", "escort"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(8, 0), Direction::WEST);
    place(&mut b, 2, escort, Direction::WEST);
    Script::new(b, dice)
}

fn locked_on(script: &Script, i: usize, target: usize) -> bool {
    script.battle.locked(i, target)
}

/// Seed 002, line 44: "+1 for multiple enemies in the same hex" (ruling 46).
/// The destroyer locks on the frigate at range 8 with the escort in the
/// frigate's hex: 7 - 4 (range 8: four full steps of 2 hexes) + 2 (FCS) +
/// 0 (size) + 1 (two enemies in the hex) = 6; rolled 6, locked.
#[test]
fn two_enemies_in_the_targets_hex_make_the_lock_easier() {
    let mut script = destroyer_against_frigate_and_escort(Hex::new(8, 0), &[6]);
    lock(&mut script, 0, 1);
    assert!(locked_on(&script, 0, 1));
    script.check(
        "fleet_lock_multiple_enemies_in_hex",
        &format!("{SEED}, line 44: +1 for multiple enemies in the same hex"),
        json!({"a": "destroyer at (0,0)", "b": ["frigate at (8,0)", "escort at (8,0)"], "lock on": "frigate", "dice": [6]}),
    );
}

/// Seed 002, line 44, the control: with the escort one hex away the
/// frigate is alone in its hex: 7 - 4 + 2 + 0 = 5; the same 6 fails.
#[test]
fn a_lone_target_gets_no_bonus() {
    let mut script = destroyer_against_frigate_and_escort(Hex::new(9, 0), &[6]);
    lock(&mut script, 0, 1);
    assert!(!locked_on(&script, 0, 1));
    assert!(script.battle.turn[0].failed_locks.contains(1));
    script.check(
        "fleet_lock_lone_target",
        &format!("{SEED}, line 44: no second enemy in the target's hex, no +1"),
        json!({"a": "destroyer at (0,0)", "b": ["frigate at (8,0)", "escort at (9,0)"], "lock on": "frigate", "dice": [6]}),
    );
}

/// Seed 002, line 46: "Nearby ship using reaction drive: -2 in same hex".
/// The escort (reaction drive) thrusts its destination from (8, 0) to
/// (9, -1), one hex of displacement; its ship counter stays in the
/// frigate's hex until the drift. The destroyer's lock on the frigate:
/// 7 - 4 + 2 + 1 (two enemies in the hex) - 2 (the escort thrusting on
/// reaction drives in the hex) = 4; rolled 5, it fails.
#[test]
fn a_hexmate_thrusting_on_reaction_drives_spoils_the_lock() {
    let mut script = destroyer_against_frigate_and_escort(Hex::new(8, 0), &[5]);
    script.act(
        2,
        Action::Move {
            dest: Hex::new(9, -1),
            facing: Direction::WEST,
        },
    );
    lock(&mut script, 0, 1);
    assert!(!locked_on(&script, 0, 1));
    script.check(
        "fleet_lock_reaction_drive_hexmate",
        &format!("{SEED}, line 46: -2 for a ship thrusting on reaction drives in the target's hex"),
        json!({"a": "destroyer at (0,0)", "b": ["frigate at (8,0)", "escort at (8,0), thrusts to (9,-1)"], "lock on": "frigate", "dice": [5]}),
    );
}

/// The twin of the test above: the same number 4, rolled 4, locks.
#[test]
fn a_hexmate_thrusting_on_reaction_drives_leaves_a_four() {
    let mut script = destroyer_against_frigate_and_escort(Hex::new(8, 0), &[4]);
    script.act(
        2,
        Action::Move {
            dest: Hex::new(9, -1),
            facing: Direction::WEST,
        },
    );
    lock(&mut script, 0, 1);
    assert!(locked_on(&script, 0, 1));
    assert!(script.dice.remaining().is_empty());
}

/// Seed 002, line 45: "Nearby ship using reactionless drive: -1 in same
/// hex." The cruiser (reactionless) shares the frigate's hex at (8, 0) and
/// thrusts to (9, 0). The destroyer's lock on the frigate: 7 - 4 + 2 + 0 +
/// 1 (two enemies in the hex) - 1 (reactionless thrust in the hex) = 5;
/// rolled 5, locked.
#[test]
fn a_hexmate_thrusting_reactionlessly_spoils_the_lock_by_one() {
    let mut b = fleet(&["destroyer"], &["frigate", "cruiser"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(8, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(8, 0), Direction::WEST);
    let mut script = Script::new(b, &[5]);
    script.act(
        2,
        Action::Move {
            dest: Hex::new(9, 0),
            facing: Direction::WEST,
        },
    );
    lock(&mut script, 0, 1);
    assert!(locked_on(&script, 0, 1));
    script.check(
        "fleet_lock_reactionless_hexmate",
        &format!("{SEED}, line 45: -1 for a ship thrusting on a reactionless drive in the target's hex"),
        json!({"a": "destroyer at (0,0)", "b": ["frigate at (8,0)", "cruiser at (8,0), thrusts to (9,0)"], "lock on": "frigate", "dice": [5]}),
    );
}

/// The twin: the same 5, rolled 6, fails.
#[test]
fn a_hexmate_thrusting_reactionlessly_leaves_a_five() {
    let mut b = fleet(&["destroyer"], &["frigate", "cruiser"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(8, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(8, 0), Direction::WEST);
    let mut script = Script::new(b, &[6]);
    script.act(
        2,
        Action::Move {
            dest: Hex::new(9, 0),
            facing: Direction::WEST,
        },
    );
    lock(&mut script, 0, 1);
    assert!(!locked_on(&script, 0, 1));
}

/// Seed 002, line 46: "-1 in adjacent hex" for a ship on reaction drives.
/// The escort at (9, 0), next to the frigate at (8, 0), thrusts to (10, 0).
/// The frigate is alone in its hex: 7 - 4 + 2 + 0 - 1 (reaction thrust
/// next door) = 4; rolled 4, locked.
#[test]
fn a_neighbour_thrusting_on_reaction_drives_spoils_the_lock_by_one() {
    let mut script = destroyer_against_frigate_and_escort(Hex::new(9, 0), &[4]);
    script.act(
        2,
        Action::Move {
            dest: Hex::new(10, 0),
            facing: Direction::WEST,
        },
    );
    lock(&mut script, 0, 1);
    assert!(locked_on(&script, 0, 1));
    script.check(
        "fleet_lock_reaction_drive_neighbour",
        &format!("{SEED}, line 46: -1 for a ship thrusting on reaction drives next to the target"),
        json!({"a": "destroyer at (0,0)", "b": ["frigate at (8,0)", "escort at (9,0), thrusts to (10,0)"], "lock on": "frigate", "dice": [4]}),
    );
}

/// The twin: the same 4, rolled 5, fails.
#[test]
fn a_neighbour_thrusting_on_reaction_drives_leaves_a_four() {
    let mut script = destroyer_against_frigate_and_escort(Hex::new(9, 0), &[5]);
    script.act(
        2,
        Action::Move {
            dest: Hex::new(10, 0),
            facing: Direction::WEST,
        },
    );
    lock(&mut script, 0, 1);
    assert!(!locked_on(&script, 0, 1));
}

/// Seed 002, lines 44-46, rulings 46 and 47: a friend of the locking ship in
/// the target's hex is no "enemy" for the +1, but its thrust is a "nearby
/// ship" all the same. The destroyer (0) locks on the frigate (2) at (8, 0);
/// its own gunboat (1), in that hex, thrusts on reaction drives to (9, 0):
/// 7 - 4 + 2 + 0 (one enemy in the hex) - 2 (reaction thrust in the hex) =
/// 3; rolled 4, it fails.
#[test]
fn a_friend_in_the_targets_hex_is_no_enemy_but_its_thrust_counts() {
    let mut b = fleet(&["destroyer", "gunboat"], &["frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(8, 0), Direction::EAST);
    place(&mut b, 2, Hex::new(8, 0), Direction::WEST);
    let mut script = Script::new(b, &[4]);
    script.act(
        1,
        Action::Move {
            dest: Hex::new(9, 0),
            facing: Direction::EAST,
        },
    );
    lock(&mut script, 0, 2);
    assert!(!locked_on(&script, 0, 2));
    script.check(
        "fleet_lock_friend_in_target_hex",
        &format!("{SEED}, lines 44-46: a friend is not an enemy in the hex, but its thrust is a nearby ship's (rulings 46, 47)"),
        json!({"a": ["destroyer at (0,0)", "gunboat at (8,0), thrusts to (9,0)"], "b": "frigate at (8,0)", "lock on": "frigate", "dice": [4]}),
    );
}

/// The twin: the same 3, rolled 3, locks.
#[test]
fn a_friend_in_the_targets_hex_leaves_a_three() {
    let mut b = fleet(&["destroyer", "gunboat"], &["frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(8, 0), Direction::EAST);
    place(&mut b, 2, Hex::new(8, 0), Direction::WEST);
    let mut script = Script::new(b, &[3]);
    script.act(
        1,
        Action::Move {
            dest: Hex::new(9, 0),
            facing: Direction::EAST,
        },
    );
    lock(&mut script, 0, 2);
    assert!(locked_on(&script, 0, 2));
}

/// Riders on their carrier's clamps are not ships on the map (ruling 46):
/// a lock on a carrier with both gunboats aboard counts one enemy in its hex.
#[test]
fn riders_on_the_clamps_are_no_second_enemy_in_the_hex() {
    let b = fleet(&["destroyer"], &["carrier"]);
    let situation = system().lock_situation(&b, 0, 1);
    assert_eq!(situation.enemies_in_target_hex, 1);
    let mut launched = b.clone();
    launched.docked[2] = false;
    let situation = system().lock_situation(&launched, 0, 1);
    assert_eq!(situation.enemies_in_target_hex, 2);
}

/// Seed 002, line 10 ("Point Defense Fire") and line 22 ("Activate Point
/// Defense"); ruling 48: a salvo aimed at one ship may be shot down by a
/// friend's point defence. The destroyer locks on the escort at (6, 0),
/// range 6: 7 - 3 + 2 - 1 (size) - 1 (stealth) = 4, rolled 3; it launches
/// a missile, whose counter waits at (6, 0). The frigate at (6, 1),
/// one hex away, activates point defence: its first laser turret at range
/// 1 hits on 7 - 3 (warhead) = 4, rolled 4: shot down. Nothing strikes.
#[test]
fn point_defense_covers_a_friend() {
    let mut b = fleet(&["destroyer"], &["escort", "frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(6, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(6, 1), Direction::WEST);
    let mut script = Script::new(b, &[3, 4]);
    lock(&mut script, 0, 1);
    attack(&mut script, 0, MISSILE, 1);
    script.act(2, Action::ActivatePointDefense);
    end_of_turn(&mut script);
    assert!(script.battle.salvos.is_empty());
    assert_eq!(script.battle.board.ships[1].marked, 0);
    script.check(
        "fleet_point_defense_for_a_friend",
        &format!("{SEED}, lines 10 and 22: point defence fire at a salvo aimed at a friend (ruling 48)"),
        json!({"a": "destroyer at (0,0)", "b": ["escort at (6,0)", "frigate at (6,1)"], "dice": [3, 4]}),
    );
}

/// Seed 002, line 31: a counter notes its "target ID", and Missile
/// Resolution discards "any projectile counters that are not in the same
/// hex as the target's ship counter" (ruling 48: it strikes nothing else).
/// The escort and the frigate share (6, 0). The destroyer locks on the
/// escort: 7 - 3 + 2 - 1 - 1 + 1 (two enemies in the hex) = 5, rolled 3,
/// and launches at it. The escort then thrusts to (7, 0): at Missile
/// Resolution the salvo finds no escort in its hex and is discarded; the
/// frigate still sitting there is not struck.
#[test]
fn a_salvo_strikes_only_its_own_target() {
    let mut b = fleet(&["destroyer"], &["escort", "frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(6, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(6, 0), Direction::WEST);
    let mut script = Script::new(b, &[3]);
    lock(&mut script, 0, 1);
    attack(&mut script, 0, MISSILE, 1);
    script.act(
        1,
        Action::Move {
            dest: Hex::new(7, 0),
            facing: Direction::WEST,
        },
    );
    end_of_turn(&mut script);
    assert_eq!(script.battle.board.ships[2].marked, 0);
    assert_eq!(script.battle.board.ships[2].shields, 1);
    assert!(
        script
            .log
            .events
            .iter()
            .any(|e| matches!(e, Event::Ruling { text } if text.contains("discarded")))
    );
    script.check(
        "fleet_salvo_strikes_only_its_target",
        &format!("{SEED}, line 31: a counter strikes its target ID only (ruling 48)"),
        json!({"a": "destroyer at (0,0)", "b": ["escort at (6,0), thrusts to (7,0)", "frigate at (6,0)"], "dice": [3]}),
    );
}

/// Seed 002, line 25 ("Activate Antimatter Spread"), ruling 50: a spread
/// protects the ship that used it, not its hexmates. The frigate (given one
/// spread) and the escort share (6, 0). The destroyer locks on the frigate,
/// 7 - 3 + 2 + 0 + 1 (two enemies in the hex) = 7, rolled 3, and launches at
/// it; locks on the escort, 7 - 3 + 2 - 1 - 1 + 1 = 5, rolled 3, and
/// launches at it. The frigate activates its spread: against its own salvo
/// 1d10 at or under 7, rolled 2, destroyed; the escort's salvo is not rolled
/// against. It strikes at range 6: 7 - 1 (size) = 6, rolled 1, a hit of 2
/// boxes on the unshielded escort.
#[test]
fn an_antimatter_spread_protects_only_its_own_ship() {
    let mut b = fleet(&["destroyer"], &["frigate", "escort"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(6, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(6, 0), Direction::WEST);
    b.board.ships[1].antimatter_spreads = 1;
    let mut script = Script::new(b, &[3, 3, 2, 1]);
    lock(&mut script, 0, 1);
    attack(&mut script, 0, MISSILE, 1);
    lock(&mut script, 0, 2);
    attack(&mut script, 0, MISSILE_2, 2);
    script.act(1, Action::ActivateAntimatterSpread);
    end_of_turn(&mut script);
    assert_eq!(script.battle.board.ships[1].marked, 0);
    assert_eq!(script.battle.board.ships[2].marked, 2);
    script.check(
        "fleet_antimatter_spread_own_ship_only",
        &format!("{SEED}, line 25: Activate Antimatter Spread covers its own ship (ruling 50)"),
        json!({"a": "destroyer at (0,0)", "b": ["frigate at (6,0), one antimatter spread", "escort at (6,0)"], "dice": [3, 3, 2, 1]}),
    );
}

/// Seed 002, line 23 ("Support Troops"), ruling 51: support counts for every
/// boarder of its side, wherever the supporting ship is. The destroyer at
/// (0, 0) readies its troops and transports one unit to the unshielded
/// escort at (1, 0); the frigate, five hexes behind, takes Support Troops.
/// In Record Keeping the boarder hits on 5 + 1 (supported) = 6, rolled 6:
/// the escort's one defender falls. The defender rolled 9 against 5, a miss.
/// The escort is captured and side A wins.
#[test]
fn support_troops_from_another_ship_count() {
    let mut b = fleet(&["destroyer", "frigate"], &["escort"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(-5, 0), Direction::EAST);
    place(&mut b, 2, Hex::new(1, 0), Direction::WEST);
    let mut script = Script::new(b, &[6, 9]);
    script
        .act(0, Action::ReadyTroops)
        .act(0, Action::Transport { target: 2 })
        .act(1, Action::SupportTroops);
    script.phase(Phase::RecordKeeping, 1);
    assert_eq!(script.battle.board.ships[2].status, Status::Captured);
    let sequence = Sequence::new(system());
    assert_eq!(
        sequence.verdict(&script.battle),
        Some(Verdict::Winner(Side::A))
    );
    script.check(
        "fleet_support_troops_from_another_ship",
        &format!("{SEED}, line 23: Support Troops for the side's boarders (ruling 51)"),
        json!({"a": ["destroyer at (0,0): ready troops, transport", "frigate at (-5,0): support troops"], "b": "escort at (1,0)", "dice": [6, 9]}),
    );
}

/// Seed 002, lines 23-24 ("Board Enemy Vessel", "Transport"), ruling 51:
/// units sent aboard one enemy from two ships fight as one party. The
/// destroyer and the frigate each transport one unit to the escort at
/// (1, 0) (both within 1 hex). Record Keeping: the two boarders roll 9
/// (a miss against 5) and 3 (a kill); the escort's one defender rolls 2, a
/// kill. One boarder is left and no defender: the escort is captured.
#[test]
fn boarders_from_two_ships_fight_as_one_party() {
    let mut b = fleet(&["destroyer", "frigate"], &["escort"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(1, 1), Direction::NORTH_EAST);
    place(&mut b, 2, Hex::new(1, 0), Direction::WEST);
    let mut script = Script::new(b, &[9, 3, 2]);
    script
        .act(0, Action::ReadyTroops)
        .act(0, Action::Transport { target: 2 })
        .act(1, Action::ReadyTroops)
        .act(1, Action::Transport { target: 2 });
    assert_eq!(script.battle.board.ships[2].boarders, 2);
    script.phase(Phase::RecordKeeping, 1);
    assert_eq!(script.battle.board.ships[2].boarders, 1);
    assert_eq!(script.battle.board.ships[2].status, Status::Captured);
    script.check(
        "fleet_boarders_from_two_ships",
        &format!("{SEED}, lines 23-24: boarders from several ships, one party (ruling 51)"),
        json!({"a": ["destroyer at (0,0): ready troops, transport", "frigate at (1,1): ready troops, transport"], "b": "escort at (1,0)", "dice": [9, 3, 2]}),
    );
}

/// Seed 002, line 29: "Use an attack action for every weapon or weapon bank
/// firing on that target" (ruling 44: each mount picks its own target). The
/// destroyer holds automatic locks on the frigate at (2, 0) and the escort
/// at (2, -1), both at range 2 (within 2 + FCS 2). Its first laser turret
/// fires at the frigate: 7 + 0 (size) = 7, rolled 7, a hit, which the
/// frigate's one shield point absorbs. Its second fires at the escort:
/// 7 - 1 (size) = 6, rolled 6, a hit: one box marked.
#[test]
fn a_ship_splits_its_fire_between_two_targets() {
    let mut b = fleet(&["destroyer"], &["frigate", "escort"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(2, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(2, -1), Direction::WEST);
    let mut script = Script::new(b, &[7, 6]);
    lock(&mut script, 0, 1);
    lock(&mut script, 0, 2);
    attack(&mut script, 0, 1, 1);
    attack(&mut script, 0, 2, 2);
    assert_eq!(script.battle.board.ships[1].shields, 0);
    assert_eq!(script.battle.board.ships[1].marked, 0);
    assert_eq!(script.battle.board.ships[2].marked, 1);
    script.check(
        "fleet_split_fire",
        &format!("{SEED}, line 29: an attack action for every weapon or bank, each on its own target (ruling 44)"),
        json!({"a": "destroyer at (0,0)", "b": ["frigate at (2,0)", "escort at (2,-1)"], "dice": [7, 6]}),
    );
}

/// Seed 002, line 68: UDST rolls Surface Features "adding +2 if attack came
/// from the aft arc", read for each attacker: while the destroyer engages
/// the frigate's bow from the west, the gunboat strikes it from astern.
/// The frigate at (4, 0) faces west, two boxes already marked, shields
/// down; the gunboat at (6, 0) locks on automatically (range 2, within 2 +
/// FCS 0) and fires its laser turret: 7 (bracket 0-2) + 0 (size), rolled 3,
/// a hit of 1 box, the frigate's third, a U. Surface Features: rolled 5,
/// +2 from the aft arc = 7, Hyperdrive Impeller: destroyed.
#[test]
fn a_second_ship_strikes_from_the_aft_arc() {
    let mut b = fleet(&["destroyer", "gunboat"], &["frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(6, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(4, 0), Direction::WEST);
    b.board.ships[2] = b.board.ships[2]
        .clone()
        .with_boxes_marked(&system().rules, 2);
    b.board.ships[2].shields = 0;
    assert!(!system().from_aft(&b, b.poses[0].hex, 2));
    assert!(system().from_aft(&b, b.poses[1].hex, 2));
    let mut script = Script::new(b, &[3, 5]);
    lock(&mut script, 1, 2);
    attack(&mut script, 1, 1, 2);
    assert_eq!(script.battle.board.ships[2].marked, 3);
    script.check(
        "fleet_second_ship_from_aft",
        &format!("{SEED}, line 68: +2 on Surface Features from the aft arc, for each attacker"),
        json!({"a": ["destroyer at (0,0)", "gunboat at (6,0)"], "b": "frigate at (4,0) facing west, 2 boxes marked, shields 0", "dice": [3, 5]}),
    );
}

/// Seed 002, line 104 (Core Hit "2. Flag Bridge"), ruling 52: Command
/// Points stay each ship's own. The first frigate has lost its flag bridge
/// and receives none; the second, beside it, still receives its 1 and buys
/// its extra action with it. No die is rolled.
#[test]
fn a_lost_flag_bridge_costs_only_its_own_ship() {
    let mut b = fleet(&["frigate", "frigate"], &["destroyer"]);
    b.board.ships[0].intact[broadside_action_d10::model::System::FlagBridge.index()] = 0;
    let mut script = Script::new(b, &[]);
    script.phase(Phase::CommandPoints, 1);
    assert_eq!(script.battle.turn[0].command_points, 0);
    assert_eq!(script.battle.turn[0].actions, 4);
    assert_eq!(script.battle.turn[1].actions, 5);
    script.check(
        "fleet_flag_bridge_per_ship",
        &format!(
            "{SEED}, line 104: a Flag Bridge lost costs its own ship its Command Points (ruling 52)"
        ),
        json!({"a": ["frigate (flag bridge destroyed)", "frigate"], "b": "destroyer", "dice": []}),
    );
}

/// A side's tactics that act with the first ship that has actions, always
/// by scuttling: legal for any ship and rolling no die, so the order of
/// actions is all a log shows.
struct FirstShipScuttles;

impl ActionTactics for FirstShipScuttles {
    fn extra_actions(&self, _: &ActionD10, _: &Battle, _: usize) -> u8 {
        0
    }
    fn next_action(&self, _: &ActionD10, battle: &Battle, side: Side, _: bool) -> Decision {
        battle
            .ships_of(side)
            .find(|&i| battle.turn[i].actions > 0)
            .map_or(Decision::Done, |i| Decision::Act(i, Action::Scuttle))
    }
    fn flight(
        &self,
        _: &ActionD10,
        battle: &Battle,
        f: usize,
    ) -> broadside_action_d10::engagement::FlightOrder {
        broadside_action_d10::engagement::FlightOrder {
            to: battle.flights[f].hex,
            target: None,
        }
    }
    fn point_defense(
        &self,
        _: &ActionD10,
        _: &Battle,
        _: usize,
        _: &[(broadside_action_d10::engagement::Threat, u32)],
    ) -> Vec<(usize, usize)> {
        Vec::new()
    }
}

/// The actors of the Actions phase, in the order they acted.
fn actors(script: &Script) -> Vec<String> {
    script
        .log
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Declared { actor, action } if action.starts_with("takes") => Some(actor.clone()),
            _ => None,
        })
        .collect()
}

/// Seed 002, line 6 ("2. Initiative"), ruling 43: initiative is rolled per
/// side, the sides alternate single actions, each side choosing which of
/// its ships acts, and a side with actions left after the other is done
/// takes them in a row. Side A (frigate, 4 actions; escort, 3) rolls 3,
/// side B (gunboat, 2) rolls 8: B first. Gunboat, frigate, gunboat; then
/// A's remaining six in a row: the frigate three times, the escort three.
#[test]
fn initiative_is_per_side_and_the_sides_alternate_single_actions() {
    let b = fleet(&["frigate", "escort"], &["gunboat"]);
    let mut script = Script::new(b, &[3, 8]);
    let tactics = FirstShipScuttles;
    script
        .phase_with(Phase::Initiative, 1, [&tactics, &tactics])
        .expect("initiative is rolled");
    script
        .phase_with(Phase::Actions, 1, [&tactics, &tactics])
        .expect("the sides act");
    assert_eq!(script.battle.first, Side::B);
    let mut expected = vec!["gunboat (B)", "frigate (A)", "gunboat (B)"];
    expected.extend(["frigate (A)"; 3]);
    expected.extend(["escort (A)"; 3]);
    assert_eq!(actors(&script), expected);
    script.check(
        "fleet_initiative_and_alternation",
        &format!("{SEED}, line 6: Initiative, then single actions side by side (ruling 43)"),
        json!({"a": ["frigate", "escort"], "b": "gunboat", "tactics": "each side acts with its first ship that has actions, by scuttling", "dice": [3, 8]}),
    );
}

/// Ruling 43, the tie: both sides roll 5, a ruling, both roll again: A 2,
/// B 6, so B acts first.
#[test]
fn a_tied_initiative_is_rolled_again() {
    let b = fleet(&["frigate", "escort"], &["gunboat"]);
    let mut script = Script::new(b, &[5, 5, 2, 6]);
    let tactics = FirstShipScuttles;
    script
        .phase_with(Phase::Initiative, 1, [&tactics, &tactics])
        .expect("initiative is rolled");
    assert_eq!(script.battle.first, Side::B);
    assert!(script.dice.remaining().is_empty());
    assert!(
        script
            .log
            .events
            .iter()
            .any(|e| matches!(e, Event::Ruling { text } if text.contains("initiative tied")))
    );
}

/// Seed 002, line 17 ("Coordinate Fire Control"), ruling 49: friends within
/// 6 hexes share every lock. The destroyer at (0, 0) makes an automatic
/// lock on the escort at (3, 0) (range 3, within 2 + FCS 2) and shares it.
/// The frigate at (6, -6), 6 hexes away, now holds the lock and fires its
/// first laser turret at the escort at range 6: 3 (bracket 6-8) - 1 (size)
/// = 2, rolled 2, a hit: one box. The gunboat at (7, -7) is 7 hexes away:
/// it holds no lock, and its attack is refused.
#[test]
fn coordinate_fire_control_reaches_friends_within_six_hexes() {
    let mut b = fleet(&["destroyer", "frigate", "gunboat"], &["escort"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(6, -6), Direction::SOUTH_WEST);
    place(&mut b, 2, Hex::new(7, -7), Direction::SOUTH_WEST);
    place(&mut b, 3, Hex::new(3, 0), Direction::WEST);
    let mut script = Script::new(b, &[2]);
    lock(&mut script, 0, 3);
    script.act(0, Action::CoordinateFireControl);
    assert!(locked_on(&script, 1, 3));
    assert!(!locked_on(&script, 2, 3));
    attack(&mut script, 1, 0, 3);
    let refused = script.try_act(
        2,
        Action::Attack {
            mount: 1,
            target: 3,
            rerolls: 0,
        },
    );
    assert!(
        matches!(&refused, Err(ResolveError::Refused(why)) if why.contains("needs a target lock")),
        "{refused:?}"
    );
    assert_eq!(script.battle.board.ships[3].marked, 1);
    script.check(
        "fleet_coordinate_fire_control",
        &format!("{SEED}, line 17: Coordinate Fire Control shares locks within 6 hexes (ruling 49)"),
        json!({"a": ["destroyer at (0,0)", "frigate at (6,-6)", "gunboat at (7,-7)"], "b": "escort at (3,0)", "dice": [2]}),
    );
}

/// Checks ruling 53 for a destroyer (A) against a frigate and an escort (B):
/// `before` sets up what happened in earlier turns, then `ship` takes
/// `action` and the turn's Record Keeping is played; the verdict is
/// `verdict`, and each ship's loss is `lost`.
fn check_end_of_a_fleet(
    before: impl FnOnce(&mut Battle),
    ship: usize,
    action: Action,
    verdict: Verdict,
    lost: [Option<Loss>; 3],
) {
    let setup = system()
        .set_up(&fleet_request(
            &["destroyer"],
            &["frigate", "escort"],
            5,
            &[],
            [&[], &[]],
        ))
        .expect("the fleets set up");
    let mut b = setup.start().clone();
    common::start_turn(&mut b);
    before(&mut b);
    let mut script = Script::new(b, &[]);
    script.act(ship, action);
    script.phase(Phase::RecordKeeping, 1);
    let sequence = Sequence::new(system());
    assert_eq!(sequence.verdict(&script.battle), Some(verdict));
    let fates = Setup::fates(&setup, &script.battle);
    let losses: Vec<Option<Loss>> = fates.iter().map(|f| f.loss).collect();
    assert_eq!(losses, lost);
    // The frigate (ship 1) jumps in both endings, and only it escaped.
    let escaped: Vec<bool> = fates.iter().map(|f| f.escaped).collect();
    assert_eq!(escaped, [false, true, false]);
}

/// Ruling 53 (a): the escort was destroyed in an earlier turn; the frigate,
/// the side's last fighting ship, jumps in this Record Keeping. Side B has
/// escaped, and lost one ship, not two.
#[test]
fn a_side_whose_last_fighting_ship_jumps_has_escaped() {
    check_end_of_a_fleet(
        |b| b.board.ships[2].status = Status::Destroyed,
        1,
        Action::ActivateHyperdrive,
        Verdict::Escaped(Side::B),
        [None, None, Some(Loss::Destroyed)],
    );
}

/// Ruling 53 (b): the frigate jumped in an earlier turn, the escort fought
/// on and is scuttled in this Record Keeping. Side B could fight when the
/// turn began and no ship of it jumped this turn: it lost, though the
/// frigate that jumped is not lost.
#[test]
fn a_side_beaten_after_an_earlier_jump_has_lost() {
    check_end_of_a_fleet(
        |b| b.board.ships[1].status = Status::Escaped,
        2,
        Action::Scuttle,
        Verdict::Winner(Side::A),
        [None, None, Some(Loss::Destroyed)],
    );
}

/// Names come from the roster, riders right after their carrier: a side of
/// several ships of one class numbers them, a carrier alone on its side
/// keeps its riders' duel names, and fates, roster and ships agree.
#[test]
fn names_come_from_the_roster_with_riders_after_their_carrier() {
    let request = fleet_request(
        &["carrier", "frigate", "frigate"],
        &["destroyer"],
        3,
        &[],
        [&[], &[]],
    );
    let setup = system().set_up(&request).expect("the fleets set up");
    let names: Vec<&str> = setup
        .start()
        .board
        .names
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(
        names,
        [
            "carrier (A)",
            "gunboat 1 (A)",
            "gunboat 2 (A)",
            "frigate #1 (A)",
            "frigate #2 (A)",
            "destroyer (B)"
        ]
    );
    let roster = Setup::roster(&setup);
    assert_eq!(roster.len(), 6);
    // The side as named leaves the riders out; the roster holds them, as
    // carried ships of side A.
    assert_eq!(roster.ids(Side::A), ["carrier", "frigate", "frigate"]);
    assert_eq!(roster.label(Side::A), "carrier,2xfrigate");
    let carried: Vec<(&str, bool)> = roster
        .ships()
        .iter()
        .map(|ship| (ship.id.as_str(), ship.carried))
        .collect();
    assert_eq!(
        carried,
        [
            ("carrier", false),
            ("gunboat", true),
            ("gunboat", true),
            ("frigate", false),
            ("frigate", false),
            ("destroyer", false)
        ]
    );
    let (outcome, battle) = setup
        .play_with(
            [&setup.default_tactics()[0], &setup.default_tactics()[1]],
            &mut common::seeded(5),
            &mut NullSink,
        )
        .expect("the battle plays");
    assert_eq!(outcome.ships.len(), 6);
    assert_eq!(battle.board.ships.len(), 6);

    let two = fleet_request(&["carrier", "carrier"], &["destroyer"], 3, &[], [&[], &[]]);
    let (battle, ..) = system().battle_of(&two).expect("the fleets set up");
    let names: Vec<&str> = battle.board.names.iter().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "carrier #1 (A)",
            "gunboat 1 of carrier #1 (A)",
            "gunboat 2 of carrier #1 (A)",
            "carrier #2 (A)",
            "gunboat 1 of carrier #2 (A)",
            "gunboat 2 of carrier #2 (A)",
            "destroyer (B)"
        ]
    );
    assert_eq!(battle.carrier[4], Some(3));
}

/// A side's options as written: (name, value) pairs.
type SideOptions<'a> = &'a [(&'static str, &'a str)];

/// Side options, as `--a-formation` and friends would give them: numbers
/// as numbers, the rest as text.
fn side(options: SideOptions<'_>) -> Vec<(&'static str, broadside_core::OptionValue)> {
    options
        .iter()
        .map(|&(name, value)| {
            let value = match value.parse::<i64>() {
                Ok(n) => broadside_core::OptionValue::Number(n),
                Err(_) => broadside_core::OptionValue::Text(value.to_owned()),
            };
            (name, value)
        })
        .collect()
}

fn hexes(battle: &Battle, side_of: Side) -> Vec<(i32, i32, usize)> {
    (0..battle.poses.len())
        .filter(|&i| battle.sides[i] == side_of)
        .map(|i| {
            let p = battle.poses[i];
            (p.hex.q, p.hex.r, p.facing.index())
        })
        .collect()
}

/// Ruling 56, the default placement: each side's lead at its end of the
/// start range facing the enemy, the others in a line abreast one hex apart,
/// alternately left and right, never behind the lead; side B the mirror of
/// side A about the midpoint, so a mirror match favours neither.
#[test]
fn default_placement_is_a_line_abreast_mirrored() {
    let request = fleet_request(&["frigate"; 3], &["frigate"; 3], 5, &[], [&[], &[]]);
    let (battle, ..) = system().battle_of(&request).expect("the fleets set up");
    assert_eq!(hexes(&battle, Side::A), [(0, 0, 0), (1, -1, 0), (0, 1, 0)]);
    assert_eq!(
        hexes(&battle, Side::B),
        [(12, 0, 3), (11, 1, 3), (12, -1, 3)]
    );
    for k in 0..3 {
        let a = battle.poses[k].hex;
        assert_eq!(a.rotate_around(Hex::new(6, 0), 3), battle.poses[3 + k].hex);
        // Every ship of A is as far from B's lead as A's lead is.
        assert_eq!(a.distance(battle.poses[3].hex), 12);
        assert_eq!(battle.poses[k].dest, a, "at rest");
    }
}

/// Side set-up: a column astern of the lead, a stack, a spacing, a speed,
/// launched riders and given positions.
#[test]
fn each_side_takes_its_own_set_up() {
    let column = side(&[("formation", "column"), ("spacing", "2"), ("speed", "3")]);
    let stack = side(&[("formation", "stack"), ("riders", "launched")]);
    let request = fleet_request(
        &["frigate", "frigate", "escort"],
        &["carrier", "frigate"],
        5,
        &[("start-range", num(10))],
        [&column, &stack],
    );
    let (battle, ..) = system().battle_of(&request).expect("the fleets set up");
    assert_eq!(hexes(&battle, Side::A), [(0, 0, 0), (-2, 0, 0), (-4, 0, 0)]);
    assert_eq!(battle.poses[1].dest, Hex::new(1, 0), "velocity 3 east");
    assert_eq!(
        hexes(&battle, Side::B),
        [(10, 0, 3), (10, 0, 3), (10, 0, 3), (10, 0, 3)]
    );
    assert!(battle.on_map(4) && battle.on_map(5), "riders launched");
    assert_eq!(battle.poses[5].dest, battle.poses[5].hex, "at rest");

    let given = side(&[("positions", "3,-2,5; -1,4")]);
    let request = fleet_request(
        &["frigate", "escort"],
        &["destroyer"],
        5,
        &[],
        [&given, &[]],
    );
    let (battle, ..) = system().battle_of(&request).expect("the fleets set up");
    assert_eq!(hexes(&battle, Side::A), [(3, -2, 5), (-1, 4, 0)]);
}

/// Each side's escape threshold: the battle's for both unless a side sets
/// its own.
#[test]
fn escape_below_is_set_per_side() {
    let own = side(&[("escape-below", "30")]);
    let request = fleet_request(
        &["frigate"],
        &["frigate"],
        5,
        &[("escape-below", num(10))],
        [&own, &[]],
    );
    let setup = system().set_up(&request).expect("the fleets set up");
    let [a, b] = setup.default_tactics();
    assert_eq!((a.escape_below, b.escape_below), (30, 10));
}

/// A bad set-up is bad input naming the side's option as the command line
/// does: positions for the wrong number of ships, a coordinate that is not
/// a number, a facing off the compass; a formation not on the list.
#[test]
fn a_bad_set_up_is_bad_input_on_the_sides_option() {
    let cases: [(SideOptions<'_>, &str, &str); 4] = [
        (
            &[("positions", "0,0")],
            "a-positions",
            "1 position(s) for a side of 2",
        ),
        (&[("positions", "0,0;x,1")], "a-positions", "position 2"),
        (
            &[("positions", "0,0;1,1,6")],
            "a-positions",
            "a facing is 0 to 5",
        ),
        (&[("formation", "wedge")], "", "wedge"),
    ];
    for (options, option, fragment) in cases {
        let given = side(options);
        let request = fleet_request(
            &["frigate", "escort"],
            &["destroyer"],
            5,
            &[],
            [&given, &[]],
        );
        let error = match system().set_up(&request) {
            Ok(_) => panic!("{options:?} should be refused"),
            Err(e) => e,
        };
        assert!(error.is_user_error(), "{error}");
        let text = error.to_string();
        assert!(text.contains(fragment), "{text}");
        if !option.is_empty() {
            assert!(
                matches!(&error, ResolveError::BadOption { option: o, .. } if o == option),
                "{error:?}"
            );
        }
    }
}

/// Every battle core allows is one the engine holds: 24 carriers a side,
/// each with the most riders the data lets a ship carry (4), are 240 ships,
/// within the 256 a battle holds; they set up and play.
#[test]
fn the_largest_fleets_set_up_and_play() {
    let crowded = common::edited_system(&[(
        "ships.toml",
        "riders = [\"gunboat\", \"gunboat\"]",
        "riders = [\"gunboat\", \"gunboat\", \"gunboat\", \"gunboat\"]",
    )]);
    let big = fleet_request(&["carrier"; 24], &["carrier"; 24], 1, &[], [&[], &[]]);
    let (battle, roster, _) = crowded.battle_of(&big).expect("24 carriers a side set up");
    assert_eq!(battle.board.ships.len(), 240);
    assert_eq!(roster.len(), 240);
    assert_eq!(roster.name(239), "gunboat 4 of carrier #24 (B)");
    let engagement = crowded.prepare_battle(&big).expect("it sets up");
    let outcome = broadside_core::play_trial(&*engagement, 1, 0, &mut NullSink)
        .expect("a turn of the largest fleets plays");
    assert_eq!(outcome.ships.len(), 240);
}

/// A seeded fleet battle's whole log: two frigates against a heavy cruiser,
/// the frigates in a line abreast, for two turns.
#[test]
fn a_seeded_fleet_log() {
    common::check_fleet_log(
        "fleet_2xfrigate_cruiser_seed_2026",
        &fleet_request(&["frigate", "frigate"], &["cruiser"], 2, &[], [&[], &[]]),
        2026,
        0,
    );
}

/// The default tactics against two frigates: the destroyer, having moved,
/// locks on the more damaged one (focus fire), and once it holds a lock on
/// the other, it attacks that one instead of spending an action on a
/// second lock.
#[test]
fn default_tactics_focus_on_the_most_damaged_and_keep_their_lock() {
    let mut b = fleet(&["destroyer"], &["frigate", "frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(4, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(4, -1), Direction::WEST);
    b.board.ships[2] = b.board.ships[2]
        .clone()
        .with_boxes_marked(&system().rules, 10);
    b.turn[0].moved = true;
    let tactics = &broadside_action_d10::DefaultTactics::default();
    assert_eq!(
        tactics.next_action(system(), &b, Side::A, false),
        Decision::Act(
            0,
            Action::TargetLock {
                target: 2,
                rerolls: 2
            }
        )
    );
    b.turn[0].locks.insert(1);
    assert!(matches!(
        tactics.next_action(system(), &b, Side::A, false),
        Decision::Act(0, Action::Attack { target: 1, .. })
    ));
}

/// The default tactics go round by round: a ship that has acted less acts first.
#[test]
fn default_tactics_let_the_ship_that_acted_least_act_first() {
    let mut b = fleet(&["frigate", "escort"], &["frigate"]);
    b.turn[0].acted = 1;
    b.turn[0].moved = true;
    let tactics = &broadside_action_d10::DefaultTactics::default();
    assert!(matches!(
        tactics.next_action(system(), &b, Side::A, false),
        Decision::Act(1, Action::Move { .. })
    ));
}

/// The default tactics keep formation: two frigates stacked in one hex
/// each move toward the enemy, the second to a destination next to the
/// first's rather than into it (one hex holding both would give enemy
/// locks on either +1).
#[test]
fn default_tactics_do_not_end_a_move_in_a_friends_hex() {
    let stack = side(&[("formation", "stack")]);
    let request = fleet_request(&["frigate", "frigate"], &["frigate"], 5, &[], [&stack, &[]]);
    let (mut b, ..) = system().battle_of(&request).expect("the fleets set up");
    common::start_turn(&mut b);
    let tactics = &broadside_action_d10::DefaultTactics::default();
    let mut moves = Vec::new();
    for _ in 0..2 {
        let Decision::Act(i, action @ Action::Move { dest, .. }) =
            tactics.next_action(system(), &b, Side::A, false)
        else {
            panic!("each frigate moves first");
        };
        system()
            .act(&mut b, i, action, &mut common::seeded(1), &mut NullSink)
            .expect("the move is legal");
        moves.push((i, dest));
    }
    assert_eq!(moves[0].0, 0);
    assert_eq!(moves[1].0, 1);
    assert_eq!(moves[0].1.distance(moves[1].1), 1, "{moves:?}");
}

/// The default tactics share a lock by Coordinate Fire Control when a friend
/// in reach would otherwise have to roll for it: the frigate at (6, -6)
/// would roll (range 6 to the escort, beyond 2 + FCS 1).
#[test]
fn default_tactics_share_a_lock_a_friend_would_have_to_roll_for() {
    let mut b = fleet(&["destroyer", "frigate"], &["escort"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(6, -6), Direction::SOUTH_WEST);
    place(&mut b, 2, Hex::new(3, 0), Direction::WEST);
    b.turn[0].moved = true;
    b.turn[0].acted = 1;
    b.turn[0].locks.insert(2);
    // The frigate has acted more, so the destroyer's turn comes first.
    b.turn[1].acted = 2;
    b.turn[1].moved = true;
    let tactics = &broadside_action_d10::DefaultTactics::default();
    assert_eq!(
        tactics.next_action(system(), &b, Side::A, false),
        Decision::Act(0, Action::CoordinateFireControl)
    );
}

/// The default tactics activate point defence for a salvo aimed at a
/// friend within the guns' reach.
#[test]
fn default_tactics_activate_point_defense_for_a_friend() {
    let mut b = fleet(&["destroyer"], &["escort", "frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(6, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(6, 1), Direction::WEST);
    let mut script = Script::new(b, &[3]);
    lock(&mut script, 0, 1);
    attack(&mut script, 0, MISSILE, 1);
    let mut b = script.battle;
    b.turn[1].actions = 0;
    b.turn[2].moved = true;
    b.turn[2].acted = 1;
    let tactics = &broadside_action_d10::DefaultTactics::default();
    assert_eq!(
        tactics.next_action(system(), &b, Side::B, false),
        Decision::Act(2, Action::ActivatePointDefense)
    );
}

/// Small craft go for the most damaged enemy they can reach: the carrier's
/// flight at (0, 0), speed 6, has a fresh frigate and a frigate with ten
/// boxes marked both in reach, the damaged one farther away.
#[test]
fn default_small_craft_go_for_the_most_damaged_enemy_in_reach() {
    let mut b = fleet(&["carrier"], &["frigate", "frigate"]);
    place(&mut b, 3, Hex::new(3, 0), Direction::WEST);
    place(&mut b, 4, Hex::new(5, -1), Direction::WEST);
    b.board.ships[4] = b.board.ships[4]
        .clone()
        .with_boxes_marked(&system().rules, 10);
    b.flights.push(broadside_action_d10::engagement::Flight {
        carrier: 0,
        side: Side::A,
        craft: 6,
        hex: Hex::ORIGIN,
        fresh: false,
    });
    let order = broadside_action_d10::DefaultTactics::default().flight(system(), &b, 0);
    assert_eq!(order.target, Some(4));
    b.board.ships[4].marked = 0;
    let order = broadside_action_d10::DefaultTactics::default().flight(system(), &b, 0);
    assert_eq!(order.target, Some(3), "of equals, the nearest");
}

/// The Gravity phase (seed 002's sequence of play) needs a body, which the
/// battle option `gravity-well` places: with a body at (3, 0) and a well of
/// one hex (`rules.toml` `gravity.well`), the destroyer at rest at (2, 0) has
/// its destination pulled to (3, 0) in turn 1's Gravity phase; the frigate
/// 12 hexes east is out of the well. A hex the option cannot read is bad
/// input on the option.
#[test]
fn the_gravity_well_option_places_a_body_that_pulls() {
    let grid = system();
    let request = fleet_request(
        &["destroyer"],
        &["frigate"],
        5,
        &[
            ("start-range", num(12)),
            ("gravity-well", broadside_data::testing::text("3,0")),
        ],
        [&[("positions", broadside_data::testing::text("2,0"))], &[]],
    );
    let (battle, _, _) = grid.battle_of(&request).expect("the battle sets up");
    assert_eq!(battle.gravity_well, Some(Hex::new(3, 0)));
    let mut script = Script::new(battle, &[]);
    script.phase(Phase::Drift, 1).phase(Phase::Gravity, 1);
    assert_eq!(script.battle.poses[0].dest, Hex::new(3, 0));
    assert_eq!(script.battle.poses[1].dest, Hex::new(12, 0));

    for (bad, why) in [
        ("3", "write a hex as q,r"),
        ("3,0,1", "write a hex as q,r"),
        ("3,x", "a coordinate is a whole number"),
        (
            "1001,0",
            "a coordinate is a whole number from -1000 to 1000",
        ),
    ] {
        let request = fleet_request(
            &["destroyer"],
            &["frigate"],
            5,
            &[("gravity-well", broadside_data::testing::text(bad))],
            [&[], &[]],
        );
        let error = match grid.battle_of(&request) {
            Ok(_) => panic!("{bad}: a body was placed"),
            Err(error) => error.to_string(),
        };
        assert!(
            error.contains("gravity-well") && error.contains(why),
            "{bad}: {error}"
        );
    }
}

//! Every action of the rules' list has its effect, and the rules refuse the
//! actions they forbid.

mod common;

use broadside_action_d10::engagement::Sequence;
use broadside_action_d10::model::{Letter, System};
use broadside_action_d10::{Action, Phase, Repairable, Status};
use broadside_core::hex::{Direction, Hex};
use broadside_core::{ResolveError, Side, TurnSequence, Verdict};
use common::{Script, battle, battle_on, edited_system, system};
use serde_json::json;

fn refused(script: &mut Script, i: usize, action: Action) -> String {
    match script.try_act(i, action) {
        Err(ResolveError::Refused(why)) => why,
        other => panic!("{} should be refused, got {other:?}", action.name()),
    }
}

/// Destroyer (0) against frigate (1) at `range`, dice as given.
fn duel(range: u32, dice: &[u32]) -> Script {
    Script::new(battle("destroyer", "frigate", range), dice)
}

/// The carrier against the frigate `range` hexes off, its catapult lost so
/// that a launch puts out four of its 6 craft, and one flight launched.
fn carrier_launched(range: u32) -> Script {
    let mut s = Script::new(battle("carrier", "frigate", range), &[]);
    s.battle.board.ships[0].intact[System::Catapult.index()] = 0;
    s.act(0, Action::LaunchSmallCraft);
    s
}

#[test]
fn move_shifts_the_destination_within_thrust_once_a_turn() {
    let mut s = duel(10, &[]);
    let remass = s.battle.board.ships[0].remass;
    s.act(
        0,
        Action::Move {
            dest: Hex::new(2, 1),
            facing: Direction::SOUTH_EAST,
        },
    );
    let t = s.battle.turn[0];
    assert_eq!(s.battle.poses[0].dest, Hex::new(2, 1));
    assert_eq!(s.battle.poses[0].facing, Direction::SOUTH_EAST);
    assert!(t.moved);
    assert_eq!(t.displacement, 3);
    assert_eq!(s.battle.board.ships[0].remass, remass - 3);
    assert_eq!(t.actions, 4);
    let why = refused(
        &mut s,
        0,
        Action::Move {
            dest: Hex::ORIGIN,
            facing: Direction::EAST,
        },
    );
    assert!(why.contains("once a turn"), "{why}");
    let why = refused(
        &mut s,
        1,
        Action::Move {
            dest: Hex::new(6, 0),
            facing: Direction::WEST,
        },
    );
    assert!(why.contains("beyond the ship's thrust"), "{why}");
}

#[test]
fn without_maneuvering_jets_a_ship_cannot_turn() {
    let mut s = duel(10, &[]);
    s.battle.board.ships[0].intact[System::ManeuveringJets.index()] = 0;
    let why = refused(
        &mut s,
        0,
        Action::Move {
            dest: Hex::new(1, 0),
            facing: Direction::WEST,
        },
    );
    assert!(why.contains("cannot turn"), "{why}");
    s.act(
        0,
        Action::Move {
            dest: Hex::new(1, 0),
            facing: Direction::EAST,
        },
    );
}

#[test]
fn a_reaction_drive_cannot_thrust_beyond_its_remass() {
    let mut s = duel(10, &[]);
    s.battle.board.ships[0].remass = 1;
    assert_eq!(s.battle.board.ships[0].thrust(&system().rules), 1);
    let why = refused(
        &mut s,
        0,
        Action::Move {
            dest: Hex::new(2, 0),
            facing: Direction::EAST,
        },
    );
    assert!(why.contains("thrust"), "{why}");
}

#[test]
fn containment_breached_loses_cargo_on_every_move() {
    let mut s = duel(10, &[6]);
    let ship = &mut s.battle.board.ships[1];
    *ship = ship.clone().with_boxes_marked(&system().rules, 18);
    assert!(ship.all_lost(&system().rules, Letter::Containment));
    s.act(
        1,
        Action::Move {
            dest: Hex::new(9, 0),
            facing: Direction::WEST,
        },
    );
    assert_eq!(s.battle.board.ships[1].cargo, 0);

    // Ruling 33: turning in place, the destination unchanged, is a
    // manoeuvre (seed 002 line 58: "on every maneuver or acceleration"), so
    // it loses cargo too.
    let mut s = duel(10, &[4]);
    let ship = &mut s.battle.board.ships[1];
    *ship = ship.clone().with_boxes_marked(&system().rules, 18);
    let (cargo, dest) = (ship.cargo, s.battle.poses[1].dest);
    assert!(cargo > 4, "cargo {cargo}");
    s.act(
        1,
        Action::Move {
            dest,
            facing: Direction::SOUTH_WEST,
        },
    );
    assert_eq!(s.battle.board.ships[1].cargo, cargo - 4);
    assert_eq!(s.dice.used(), 1);

    // A Move that keeps both the destination and the facing is neither, and
    // rolls nothing.
    let mut s = duel(10, &[]);
    let ship = &mut s.battle.board.ships[1];
    *ship = ship.clone().with_boxes_marked(&system().rules, 18);
    let (cargo, pose) = (ship.cargo, s.battle.poses[1]);
    s.act(
        1,
        Action::Move {
            dest: pose.dest,
            facing: pose.facing,
        },
    );
    assert_eq!(s.battle.board.ships[1].cargo, cargo);
    assert_eq!(s.dice.used(), 0);
}

#[test]
fn target_lock_holds_for_the_turn_and_is_not_taken_twice() {
    let mut s = duel(3, &[]);
    s.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    );
    assert!(s.battle.locked(0, 1));
    let why = refused(
        &mut s,
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    );
    assert!(why.contains("already holds"), "{why}");
    let why = refused(
        &mut s,
        0,
        Action::TargetLock {
            target: 0,
            rerolls: 0,
        },
    );
    assert!(why.contains("not an enemy"), "{why}");
    s.phase(Phase::RecordKeeping, 1)
        .phase(Phase::CommandPoints, 2);
    assert!(
        !s.battle.locked(0, 1),
        "a lock lasts until the end of the turn"
    );
}

#[test]
fn a_failed_lock_may_be_rerolled_with_a_command_point() {
    // Range 10: 7 - 5 + 2 (FCS) = 4; rolled 6, re-rolled 2.
    let mut s = duel(10, &[6, 2]);
    assert_eq!(s.battle.turn[0].command_points, 2);
    s.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 1,
        },
    );
    assert!(s.battle.locked(0, 1));
    assert_eq!(s.battle.turn[0].command_points, 1);
    let why = refused(
        &mut s,
        1,
        Action::TargetLock {
            target: 0,
            rerolls: 2,
        },
    );
    assert!(why.contains("Command Points"), "{why}");
}

const LOCK: &str = "Seed 002, \"Target Lock\": \"Automatic within 2 + FCS rating hexes, otherwise roll 7 or less on 1d6, plus the modifiers below\"";

/// Seed 002, "Target Lock": "Automatic within 2 + FCS rating hexes,
/// otherwise roll 7 or less on 1d6": no scanner takes part, so a disabled
/// long range scanner changes nothing.
/// Destroyer (FCS 2) on the frigate (size 0, stealth 0) at range 10:
/// beyond 2 + 2 = 4 hexes, so a roll at
/// 7 - 5 (five full steps of 2 hexes) + 2 (FCS) = 4; rolled 4, locked.
#[test]
fn beyond_the_automatic_range_a_lock_is_rolled_whatever_the_scanners() {
    let mut s = duel(10, &[4]);
    s.battle.board.ships[0].scanners[0] = broadside_action_d10::ship::ScannerState::Disabled;
    s.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    );
    assert!(s.battle.locked(0, 1));
    s.check(
        "lock_rolled_long_range_scanner_disabled",
        LOCK,
        json!({"a": "destroyer (long range scanner disabled)", "b": "frigate", "range": 10, "dice": [4]}),
    );
}

/// The option `target-lock.needs-scanners` (off by default; seed 002 ties
/// no scanner to Target Lock): a lock roll beyond 2 + FCS = 4 hexes needs
/// a working long range scanner, so at range 10 with it disabled the lock
/// is impossible and no die is rolled.
#[test]
fn with_the_scanner_option_a_lock_beyond_the_automatic_range_needs_the_long_range_scanner() {
    let edits = [(
        "rules.toml",
        "needs-scanners = false",
        "needs-scanners = true",
    )];
    let system = edited_system(&edits);
    let mut s = Script::on(system, battle_on(system, "destroyer", "frigate", 10), &[]);
    s.battle.board.ships[0].scanners[0] = broadside_action_d10::ship::ScannerState::Disabled;
    s.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    );
    assert!(!s.battle.locked(0, 1));
    s.check(
        "lock_option_needs_scanners_impossible",
        "option target-lock.needs-scanners (a house rule, off by default)",
        json!({"a": "destroyer (long range scanner disabled)", "b": "frigate", "range": 10, "data_edits": edits, "dice": []}),
    );
}

#[test]
fn chaff_makes_locks_harder() {
    // Range 6: 7 - 3 + 2 (FCS) - 2 (chaff) = 4; rolled 5: no lock.
    let mut s = duel(6, &[5]);
    s.act(1, Action::DropChaffPod);
    assert_eq!(s.battle.board.ships[1].chaff_pods, 1);
    s.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    );
    assert!(!s.battle.locked(0, 1));
    let why = refused(&mut s, 1, Action::DropChaffPod);
    assert!(why.contains("chaff"), "{why}");
}

#[test]
fn attacks_need_a_lock_and_each_weapon_fires_once_a_turn() {
    let mut s = duel(2, &[10]);
    let why = refused(
        &mut s,
        0,
        Action::Attack {
            mount: 1,
            target: 1,
            rerolls: 0,
        },
    );
    assert!(why.contains("target lock"), "{why}");
    s.lock_and_attack(0, 1, 1, 0);
    let why = refused(
        &mut s,
        0,
        Action::Attack {
            mount: 1,
            target: 1,
            rerolls: 0,
        },
    );
    assert!(why.contains("once a turn"), "{why}");
}

#[test]
fn fixed_weapons_fire_only_into_the_forward_arc() {
    let mut s = duel(2, &[]);
    s.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    );
    // The destroyer faces east, the frigate is dead ahead: its heavy laser bears.
    assert!(system().can_attack(&s.battle, 0, 0, 1));
    s.battle.poses[0].facing = Direction::WEST;
    assert!(!system().can_attack(&s.battle, 0, 0, 1));
    let why = refused(
        &mut s,
        0,
        Action::Attack {
            mount: 0,
            target: 1,
            rerolls: 0,
        },
    );
    assert!(why.contains("arc"), "{why}");
    // Turrets fire all round.
    assert!(system().can_attack(&s.battle, 0, 1, 1));
}

#[test]
fn a_shot_from_behind_comes_from_the_aft_arc() {
    let s = duel(2, &[]);
    // The frigate at (2, 0) faces west: a shot from (0, 0) strikes its bow.
    assert!(!system().from_aft(&s.battle, Hex::ORIGIN, 1));
    assert!(system().from_aft(&s.battle, Hex::new(5, 0), 1));
}

/// Rules note ruling 15: a fixed mount fires into the forward arc, "the 60
/// degrees through the bow hexside, its edges included". A target on the
/// line through either bow vertex is in the arc; one on the line through the
/// vertex between the starboard sides is not.
#[test]
fn the_forward_arc_includes_both_its_edges() {
    let mut s = duel(2, &[]);
    // The destroyer at the origin faces east; mount 0 is its fixed heavy laser.
    for (edge, hex) in [("port", Hex::new(2, -1)), ("starboard", Hex::new(1, 1))] {
        common::place(&mut s.battle, 1, hex, Direction::WEST);
        assert!(
            system().bears(&s.battle, 0, 0, 1),
            "the {edge} edge of the forward arc, at {hex}"
        );
    }
    // The vertex between the starboard and starboard-aft sides.
    common::place(&mut s.battle, 1, Hex::new(-1, 2), Direction::WEST);
    assert!(!system().bears(&s.battle, 0, 0, 1));
}

/// Rules note ruling 15: "the aft arc is the 60 degrees through the stern
/// hexside, edges included", read for the +2 on Surface Features (seed 002,
/// UDST: "adding +2 if attack came from the aft arc"). A shot along the
/// line through either stern vertex comes from the aft arc.
#[test]
fn the_aft_arc_includes_both_its_edges() {
    let mut s = duel(2, &[]);
    // The frigate at the origin faces east: its stern faces west.
    common::place(&mut s.battle, 1, Hex::ORIGIN, Direction::EAST);
    for (edge, from) in [("port", Hex::new(-1, -1)), ("starboard", Hex::new(-2, 1))] {
        assert!(
            system().from_aft(&s.battle, from, 1),
            "the {edge} edge of the aft arc, from {from}"
        );
    }
}

/// Seed 002, Sequence of Play, Command Points: each ship receives its
/// Command Points and may buy extra actions; rules note ruling 5 and
/// `command.extra-action-cost` price an extra action in Command Points.
/// At 2 points an action, the destroyer's 2 points buy one extra action
/// and leave none.
#[test]
fn an_extra_action_costs_its_price_in_command_points() {
    let system = edited_system(&[(
        "rules.toml",
        "extra-action-cost = 1",
        "extra-action-cost = 2",
    )]);
    let mut s = Script::on(system, battle_on(system, "destroyer", "frigate", 10), &[]);
    let actions = s.battle.turn[0].actions;
    assert_eq!(s.battle.turn[0].command_points, 2);
    s.phase(Phase::CommandPoints, 1);
    assert_eq!(s.battle.turn[0].actions, actions + 1);
    assert_eq!(s.battle.turn[0].command_points, 0);
}

/// Seed 002's action list, "Launch/Recover Small Craft"; the rules note
/// reads Recover as taking aboard "this ship's flights in its hex". A
/// flight of the carrier's out in another hex stays there, whole.
#[test]
fn recovery_takes_aboard_only_the_flights_in_the_carriers_hex() {
    let mut s = carrier_launched(3);
    let away = Hex::new(0, 5);
    s.battle.flights[0].hex = away;
    // The 2 craft left aboard launch as a second flight, in the carrier's hex.
    s.act(0, Action::LaunchSmallCraft);
    assert_eq!(s.battle.board.ships[0].small_craft, 0);
    s.act(0, Action::RecoverSmallCraft);
    assert_eq!(s.battle.board.ships[0].small_craft, 2);
    assert_eq!(s.battle.flights.len(), 1);
    assert_eq!(s.battle.flights[0].hex, away);
    assert_eq!(s.battle.flights[0].craft, 4);
}

/// Seed 002's action list, "Launch/Recover Small Craft": craft come back
/// into free bays. The carrier, eight of its twelve bays lost, has room
/// for 4: it takes aboard its flight of 4 and has no room for its flight
/// of 2, which stays out, whole. One recovery is logged, of 4 craft.
#[test]
fn recovery_stops_when_the_bays_are_full() {
    let mut s = carrier_launched(3);
    s.act(0, Action::LaunchSmallCraft);
    assert_eq!(s.battle.flights.len(), 2);
    s.battle.board.ships[0].intact[System::SmallCraftBay.index()] = 4;
    s.act(0, Action::RecoverSmallCraft);
    assert_eq!(s.battle.board.ships[0].small_craft, 4);
    assert_eq!(s.battle.flights.len(), 1);
    assert_eq!(s.battle.flights[0].craft, 2);
    let recoveries: Vec<String> = s
        .log
        .events
        .iter()
        .map(ToString::to_string)
        .filter(|e| e.contains("recovers"))
        .collect();
    assert_eq!(recoveries.len(), 1, "{recoveries:?}");
    assert!(recoveries[0].contains("recovers 4 small craft"));
}

#[test]
fn charge_weapon_then_fire_and_no_charging_without_power() {
    let mut s = duel(2, &[4]);
    s.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    );
    let why = refused(
        &mut s,
        0,
        Action::Attack {
            mount: 3,
            target: 1,
            rerolls: 0,
        },
    );
    assert!(why.contains("not charged"), "{why}");
    s.act(0, Action::ChargeWeapon { mount: 3 });
    assert!(s.battle.board.ships[0].weapons[3].charged);
    assert!(
        s.log
            .events
            .iter()
            .any(|e| e.to_string().contains("takes Charge Weapon: its ")),
        "the log names the mount charged"
    );
    s.act(
        0,
        Action::Attack {
            mount: 3,
            target: 1,
            rerolls: 0,
        },
    );
    assert!(
        !s.battle.board.ships[0].weapons[3].charged,
        "firing spends the charge"
    );
    s.battle.board.ships[0].intact[System::PowerPlant.index()] = 0;
    let why = refused(&mut s, 0, Action::ChargeWeapon { mount: 3 });
    assert!(why.contains("power plant"), "{why}");
}

#[test]
fn aim_needs_a_lock_and_adds_to_this_turns_attacks() {
    let mut s = duel(2, &[]);
    let why = refused(&mut s, 0, Action::Aim { target: 1 });
    assert!(why.contains("lock"), "{why}");
    s.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    );
    s.act(0, Action::Aim { target: 1 });
    let situation = system().situation(&s.battle, 0, s.battle.poses[0].hex, 1);
    assert!(situation.aim);
}

#[test]
fn coordinate_fire_control_shares_locks_with_friends_in_range() {
    let mut s = Script::new(battle("carrier", "frigate", 3), &[]);
    s.act(0, Action::LaunchRider);
    assert!(s.battle.on_map(1));
    assert_eq!(
        s.battle.turn[1].actions, 0,
        "a rider acts from the next turn"
    );
    s.act(
        0,
        Action::TargetLock {
            target: 3,
            rerolls: 0,
        },
    );
    s.act(0, Action::CoordinateFireControl);
    assert!(s.battle.locked(1, 3));
    assert!(
        !s.battle.locked(2, 3),
        "a rider still on the clamps is not in the fight"
    );
}

#[test]
fn riders_launch_and_are_recovered() {
    let mut s = Script::new(battle("carrier", "frigate", 8), &[]);
    s.act(0, Action::LaunchRider).act(0, Action::LaunchRider);
    let why = refused(&mut s, 0, Action::LaunchRider);
    assert!(why.contains("no rider"), "{why}");
    s.act(0, Action::RecoverRider { rider: 2 });
    assert!(s.battle.docked[2]);
    assert!(!s.battle.on_map(2));
}

/// Seed 002's action list, "Launch/Recover Riders"; the rules note reads
/// Recover as taking back "one rider in the ship's hex": an enemy sharing
/// the carrier's hex is no rider of its, and an index past the roster
/// names no ship.
#[test]
fn only_the_carriers_own_riders_are_recovered() {
    let mut s = Script::new(battle("carrier", "frigate", 8), &[]);
    // The carrier's two riders come right after it; the frigate is ship 3.
    assert_eq!(s.battle.sides[3], Side::B);
    let carrier_hex = s.battle.poses[0].hex;
    common::place(&mut s.battle, 3, carrier_hex, Direction::WEST);
    let why = refused(&mut s, 0, Action::RecoverRider { rider: 3 });
    assert!(why.contains("no rider"), "{why}");
    let why = refused(&mut s, 0, Action::RecoverRider { rider: 200 });
    assert!(why.contains("no rider"), "{why}");
}

/// Seed 002's action list, "Activate Antimatter Spread"; the rules refuse
/// one "already active": a cruiser with two spreads still spends only one a
/// turn.
#[test]
fn an_antimatter_spread_is_activated_once_a_turn() {
    let mut s = Script::new(battle("cruiser", "frigate", 8), &[]);
    assert_eq!(s.battle.board.ships[0].antimatter_spreads, 2);
    s.act(0, Action::ActivateAntimatterSpread);
    let why = refused(&mut s, 0, Action::ActivateAntimatterSpread);
    assert!(why.contains("active already"), "{why}");
    assert_eq!(s.battle.board.ships[0].antimatter_spreads, 1);
}

#[test]
fn riders_on_the_clamps_share_their_carriers_fate() {
    let mut s = Script::new(battle("carrier", "frigate", 8), &[]);
    s.battle.board.ships[0].status = Status::Escaped;
    s.phase(Phase::RecordKeeping, 1);
    assert_eq!(s.battle.board.ships[1].status, Status::Escaped);
    assert_eq!(s.battle.board.ships[2].status, Status::Escaped);
}

#[test]
fn small_craft_launch_and_are_recovered_in_the_carriers_hex() {
    let mut s = carrier_launched(8);
    // Without a catapult, four craft a launch.
    assert_eq!(s.battle.flights[0].craft, 4);
    assert_eq!(s.battle.board.ships[0].small_craft, 2);
    s.act(0, Action::RecoverSmallCraft);
    assert!(s.battle.flights.is_empty());
    assert_eq!(s.battle.board.ships[0].small_craft, 6);
    s.battle.board.ships[0].intact[System::HangarDoor.index()] = 0;
    let why = refused(&mut s, 0, Action::LaunchSmallCraft);
    assert!(why.contains("hangar"), "{why}");
}

#[test]
fn activate_point_defense_needs_a_point_defense_weapon() {
    let mut s = duel(8, &[]);
    s.act(1, Action::ActivatePointDefense);
    assert!(s.battle.turn[1].point_defense);
    let why = refused(&mut s, 1, Action::ActivatePointDefense);
    assert!(why.contains("point defence"), "{why}");
}

#[test]
fn antimatter_spread_destroys_salvos_aimed_at_the_ship() {
    // The frigate launches at the destroyer; the destroyer's spread rolls 7
    // (at or under 7): the salvo is gone before Missile Resolution.
    let mut s = Script::new(battle("frigate", "destroyer", 3), &[7]);
    s.lock_and_attack(0, 1, 3, 0);
    s.act(1, Action::ActivateAntimatterSpread);
    assert_eq!(s.battle.board.ships[1].antimatter_spreads, 0);
    s.phase(Phase::Drift, 1)
        .phase(Phase::PointDefenseFire, 1)
        .phase(Phase::MissileResolution, 1);
    assert_eq!(s.battle.board.ships[1].marked, 0);
    let why = refused(&mut s, 1, Action::ActivateAntimatterSpread);
    assert!(why.contains("antimatter"), "{why}");
}

/// Seed 002's action list, "Activate Antimatter Spread", with the rules
/// note: in Point Defense Fire "each salvo aimed at the ship is destroyed
/// on 1d10 at or under 7". Two salvos close on the destroyer: the first
/// rolls 8 and survives, the second rolls 3 and is gone. Each salvo is
/// rolled for once.
#[test]
fn an_antimatter_spread_rolls_once_for_each_salvo() {
    let mut s = Script::new(battle("frigate", "destroyer", 3), &[8, 3]);
    s.lock_and_attack(0, 1, 3, 0);
    let first = s.battle.salvos[0];
    let mut second = first;
    second.id = first.id + 1;
    s.battle.salvos.push(second);
    s.act(1, Action::ActivateAntimatterSpread);
    s.phase(Phase::Drift, 1).phase(Phase::PointDefenseFire, 1);
    assert_eq!(s.battle.salvos.len(), 1);
    assert_eq!(s.battle.salvos[0].id, first.id);
    assert_eq!(s.dice.used(), 2);
}

/// Seed 002's action list, "Repair": the log names what a ship repairs,
/// as the record sheet names it.
#[test]
fn a_repair_is_logged_with_what_it_repairs() {
    let mut s = duel(8, &[7]);
    s.battle.board.ships[0].jammed = true;
    s.act(
        0,
        Action::Repair {
            item: Repairable::MagazineJam,
            rerolls: 0,
        },
    );
    let declared = s
        .log
        .events
        .iter()
        .find_map(|e| match e {
            broadside_core::Event::Declared { action, .. } => Some(action.clone()),
            _ => None,
        })
        .expect("the repair is declared");
    assert!(declared.starts_with("takes Repair: "), "{declared}");
    assert!(declared.to_lowercase().contains("jam"), "{declared}");
}

#[test]
fn repair_clears_a_jam_on_seven_or_less() {
    let mut s = duel(8, &[8, 7]);
    s.battle.board.ships[0].jammed = true;
    s.act(
        0,
        Action::Repair {
            item: Repairable::MagazineJam,
            rerolls: 0,
        },
    );
    assert!(s.battle.board.ships[0].jammed, "8 fails an Easy repair");
    s.act(
        0,
        Action::Repair {
            item: Repairable::MagazineJam,
            rerolls: 0,
        },
    );
    assert!(!s.battle.board.ships[0].jammed);
    let why = refused(
        &mut s,
        0,
        Action::Repair {
            item: Repairable::MagazineJam,
            rerolls: 0,
        },
    );
    assert!(why.contains("nothing to repair"), "{why}");

    // Ruling 29: a crew deck lost stays lost in battle.
    s.battle.board.ships[0].intact[System::CrewDeck.index()] -= 1;
    let why = refused(
        &mut s,
        0,
        Action::Repair {
            item: Repairable::System(System::CrewDeck),
            rerolls: 0,
        },
    );
    assert!(why.contains("cannot be repaired in battle"), "{why}");
}

/// Ruling 5: a Command Point re-rolls a failed repair die once at most.
/// An Easy repair (7 or less on 1d10) rolls 8, re-rolled 9, and with a
/// second point offered is not rolled again: the jam stays, one point is
/// spent.
#[test]
fn a_failed_repair_is_re_rolled_once_at_most() {
    let mut s = duel(8, &[8, 9]);
    s.battle.board.ships[0].jammed = true;
    let points = s.battle.turn[0].command_points;
    assert!(points >= 2, "the destroyer has {points} points");
    s.act(
        0,
        Action::Repair {
            item: Repairable::MagazineJam,
            rerolls: 2,
        },
    );
    assert!(s.battle.board.ships[0].jammed);
    assert_eq!(s.dice.used(), 2);
    assert_eq!(s.battle.turn[0].command_points, points - 1);
}

#[test]
fn repairs_are_harder_for_each_crew_deck_lost() {
    let mut ship = common::ship("destroyer");
    ship.intact[System::CrewDeck.index()] = 1;
    let d = system()
        .repair_difficulty(
            &{
                let mut s = ship.clone();
                s.jammed = true;
                s
            },
            Repairable::MagazineJam,
        )
        .expect("a jam can be repaired");
    assert_eq!(system().repair_target(&ship, d), 5);
    let why = system().repair_difficulty(&ship, Repairable::System(System::CrewDeck));
    assert_eq!(why, None, "crew decks are not repaired in battle");
}

#[test]
fn recharge_shields_restores_them_to_their_most() {
    let mut s = duel(8, &[]);
    s.battle.board.ships[0].shields = 0;
    s.act(0, Action::RechargeShields);
    assert_eq!(s.battle.board.ships[0].shields, 2);
    let why = refused(&mut s, 0, Action::RechargeShields);
    assert!(why.contains("most"), "{why}");
    s.battle.board.ships[0].shields = 0;
    s.battle.board.ships[0].intact[System::ShieldGenerator.index()] = 0;
    let why = refused(&mut s, 0, Action::RechargeShields);
    assert!(why.contains("most"), "{why}");
}

#[test]
fn activate_hyperdrive_leaves_the_fight_at_the_end_of_the_turn() {
    let mut s = duel(8, &[]);
    s.act(1, Action::ActivateHyperdrive);
    s.phase(Phase::RecordKeeping, 1);
    assert_eq!(s.battle.board.ships[1].status, Status::Escaped);
    let sequence = Sequence::new(system());
    assert_eq!(sequence.verdict(&s.battle), Some(Verdict::Escaped(Side::B)));

    // The same for side A.
    let mut s = duel(8, &[]);
    s.act(0, Action::ActivateHyperdrive);
    s.phase(Phase::RecordKeeping, 1);
    assert_eq!(s.battle.board.ships[0].status, Status::Escaped);
    assert_eq!(sequence.verdict(&s.battle), Some(Verdict::Escaped(Side::A)));
}

#[test]
fn a_hyperdrive_damaged_before_the_jump_keeps_the_ship() {
    let mut s = duel(8, &[]);
    s.act(1, Action::ActivateHyperdrive);
    s.battle.board.ships[1].intact[System::HyperdriveImpeller.index()] = 0;
    s.phase(Phase::RecordKeeping, 1);
    assert_eq!(s.battle.board.ships[1].status, Status::Active);
    let why = refused(&mut s, 1, Action::ActivateHyperdrive);
    assert!(why.contains("hyperdrive"), "{why}");
}

#[test]
fn scuttle_destroys_the_ship_at_the_end_of_the_turn() {
    let mut s = duel(8, &[]);
    s.act(1, Action::Scuttle);
    assert_eq!(s.battle.board.ships[1].status, Status::Active);
    s.phase(Phase::RecordKeeping, 1);
    assert_eq!(s.battle.board.ships[1].status, Status::Scuttled);
    let sequence = Sequence::new(system());
    assert_eq!(sequence.verdict(&s.battle), Some(Verdict::Winner(Side::A)));
}

#[test]
fn dock_then_board_enemy_vessel_with_support() {
    // Both at rest in one hex: the frigate docks with the destroyer, readies
    // its two units and boards. In Record Keeping, supported, they hit on 6
    // or less: 6 and 2 kill two of the four defenders; the defenders roll
    // 9, 9, 1, 8 and kill one boarder.
    let mut s = Script::new(battle("frigate", "destroyer", 0), &[6, 2, 9, 9, 1, 8]);
    s.battle.turn[0].actions = 5;
    let why = refused(&mut s, 0, Action::BoardEnemyVessel { target: 1 });
    assert!(why.contains("docked"), "{why}");
    s.act(0, Action::Dock { with: 1 });
    assert_eq!(s.battle.docked_with[0], Some(1));
    assert!(
        s.log
            .events
            .iter()
            .any(|e| e.to_string().contains("takes Dock with the destroyer")),
        "the log names the ship docked with"
    );
    s.act(0, Action::ReadyTroops)
        .act(0, Action::SupportTroops)
        .act(0, Action::BoardEnemyVessel { target: 1 });
    assert_eq!(s.battle.board.ships[1].boarders, 2);
    // The two units have left the frigate: none ready, none aboard.
    assert_eq!(s.battle.board.ships[0].ready_troops, 0);
    assert_eq!(s.battle.board.ships[0].intact(System::Troops), 0);
    s.phase(Phase::RecordKeeping, 1);
    assert_eq!(s.battle.board.ships[1].boarders, 1);
    assert_eq!(s.battle.board.ships[1].intact(System::Troops), 2);
    // A Move breaks the dock.
    common::start_turn(&mut s.battle);
    s.act(
        1,
        Action::Move {
            dest: Hex::new(1, 0),
            facing: Direction::EAST,
        },
    );
    assert_eq!(s.battle.docked_with[0], None);
}

/// Seed 002, Internal Damage "5. Troops", with ruling 38 (Ready Troops
/// readies every unit aboard): a troop unit killed is no longer there to
/// board, so the ready troops never exceed the units left.
///
/// The frigate (1), its first two boxes marked, shields down and its solar
/// panel already lost, readies its two units. The destroyer locks (range 1,
/// automatic within 2 + FCS 2) and fires a laser turret: 7 at range 1,
/// rolled 1, a hit; its box marks the frigate's U (box 3). Surface Features
/// 5 is the lost Solar Panel, so Internal Damage: 5, Troops. One unit is
/// left, and ready; with the destroyer's shields down it goes across by
/// transporter, and there is none to send after it.
#[test]
fn a_troop_unit_killed_is_no_longer_ready_to_board() {
    let mut s = duel(1, &[1, 5, 5]);
    let frigate = &mut s.battle.board.ships[1];
    *frigate = frigate.clone().with_boxes_marked(&system().rules, 2);
    frigate.shields = 0;
    frigate.intact[System::SolarPanel.index()] = 0;
    s.act(1, Action::ReadyTroops);
    assert_eq!(s.battle.board.ships[1].ready_troops, 2);
    s.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    )
    .act(
        0,
        Action::Attack {
            mount: 1,
            target: 1,
            rerolls: 0,
        },
    );
    let frigate = &s.battle.board.ships[1];
    assert_eq!(frigate.intact(System::Troops), 1);
    assert_eq!(frigate.ready_troops, 1);
    assert!(s.dice.remaining().is_empty());
    s.battle.board.ships[0].shields = 0;
    s.act(1, Action::Transport { target: 0 });
    assert_eq!(s.battle.board.ships[0].boarders, 1);
    let why = refused(&mut s, 1, Action::Transport { target: 0 });
    assert!(why.contains("no troops ready"), "{why}");
}

#[test]
fn transport_needs_the_targets_shields_down_and_a_transporter() {
    let mut s = duel(1, &[]);
    s.act(1, Action::ReadyTroops);
    let why = refused(&mut s, 1, Action::Transport { target: 0 });
    assert!(why.contains("shields"), "{why}");
    s.battle.board.ships[0].shields = 0;
    s.battle.board.ships[1].intact[System::Transporter.index()] = 0;
    let why = refused(&mut s, 1, Action::Transport { target: 0 });
    assert!(why.contains("transporter"), "{why}");
}

/// Ruling 27 and `boarding.transporter-range` (1 hex in the data of
/// record): a transporter reaches the destroyer 1 hex off, with its
/// shields down, and not 2 hexes off.
#[test]
fn a_transporter_reaches_its_range_and_no_further() {
    for (range, reaches) in [(1, true), (2, false)] {
        let mut s = duel(range, &[]);
        s.battle.board.ships[0].shields = 0;
        s.act(1, Action::ReadyTroops);
        let result = s.try_act(1, Action::Transport { target: 0 });
        if reaches {
            assert_eq!(result, Ok(()), "range {range}");
            assert!(s.battle.board.ships[0].boarders > 0);
        } else {
            match result {
                Err(ResolveError::Refused(why)) => assert!(why.contains("reach"), "{why}"),
                other => panic!("a transport at range {range} should be refused, got {other:?}"),
            }
        }
    }
}

#[test]
fn a_ship_without_actions_left_or_off_the_map_cannot_act() {
    let mut s = duel(8, &[]);
    s.battle.turn[1].actions = 0;
    let why = refused(&mut s, 1, Action::Scuttle);
    assert!(why.contains("no action left"), "{why}");
    let mut s = Script::new(battle("carrier", "frigate", 8), &[]);
    s.battle.turn[1].actions = 2;
    let why = refused(&mut s, 1, Action::Scuttle);
    assert!(why.contains("not in the fight"), "{why}");
    let why = refused(&mut s, 9, Action::Scuttle);
    assert!(why.contains("no ship 9"), "{why}");
}

#[test]
fn every_action_of_the_list_has_a_name() {
    let names = [
        Action::Move {
            dest: Hex::ORIGIN,
            facing: Direction::EAST,
        },
        Action::TargetLock {
            target: 0,
            rerolls: 0,
        },
        Action::CoordinateFireControl,
        Action::ChargeWeapon { mount: 0 },
        Action::Aim { target: 0 },
        Action::Attack {
            mount: 0,
            target: 0,
            rerolls: 0,
        },
        Action::ActivateHyperdrive,
        Action::Repair {
            item: Repairable::MagazineJam,
            rerolls: 0,
        },
        Action::RechargeShields,
        Action::LaunchSmallCraft,
        Action::LaunchRider,
        Action::ActivatePointDefense,
        Action::ReadyTroops,
        Action::SupportTroops,
        Action::BoardEnemyVessel { target: 0 },
        Action::Transport { target: 0 },
        Action::Dock { with: 0 },
        Action::Scuttle,
        Action::DropChaffPod,
        Action::ActivateAntimatterSpread,
    ]
    .map(|a| a.name());
    // The rules list twenty actions; each has its variant.
    let mut unique = names.to_vec();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), 20);
}

/// Ruling 37: Dock "needs the other ship in the same hex and matches its
/// destination with the docking ship's thrust". A ship cannot dock with
/// itself, nor with a ship that is out of the fight though its wreck
/// shares the hex; a destination exactly the thrust away is matched, one
/// hex further is not.
#[test]
fn dock_needs_another_ship_in_the_fight_within_thrust() {
    let mut s = Script::new(battle("frigate", "destroyer", 0), &[]);
    let why = refused(&mut s, 0, Action::Dock { with: 0 });
    assert!(why.contains("cannot dock with itself"), "{why}");

    let mut wreck = s.battle.clone();
    wreck.board.ships[1].status = Status::Destroyed;
    let mut w = Script::new(wreck, &[]);
    let why = refused(&mut w, 0, Action::Dock { with: 1 });
    assert!(why.contains("no such ship to dock with"), "{why}");

    let thrust = s.battle.board.ships[0].thrust(&system().rules);
    let here = s.battle.poses[0].hex;
    let mut far = s.battle.clone();
    far.poses[1].dest = here.step(Direction::EAST, thrust as i32 + 1);
    let mut f = Script::new(far, &[]);
    let why = refused(&mut f, 0, Action::Dock { with: 1 });
    assert!(why.contains("beyond the ship's thrust"), "{why}");

    s.battle.poses[1].dest = here.step(Direction::EAST, thrust as i32);
    s.act(0, Action::Dock { with: 1 });
    assert_eq!(s.battle.docked_with[0], Some(1));
}

/// Ruling 37: "a later Move by either ship undocks them", those two and no
/// others. Two pairs are docked, each frigate with a destroyer; the first
/// frigate moves a hex, which breaks its own dock and leaves the other
/// pair docked.
#[test]
fn a_move_breaks_only_the_movers_own_dock() {
    let mut b = common::fleet(&["frigate", "frigate"], &["destroyer", "destroyer"]);
    for (x, y) in [(0, 2), (1, 3)] {
        b.docked_with[x] = Some(y as u8);
        b.docked_with[y] = Some(x as u8);
    }
    let mut s = Script::new(b, &[]);
    let (from, facing) = (s.battle.poses[0].dest, s.battle.poses[0].facing);
    s.act(
        0,
        Action::Move {
            dest: from.step(facing, 1),
            facing,
        },
    );
    assert_eq!(s.battle.docked_with[..4], [None, Some(3), None, Some(1)]);
}

/// Seed 002's action list, each refusal by the rule it keeps: a lock
/// needs an enemy ship (an index one past the roster names none), an
/// attack needs an enemy target, a charged weapon takes no second charge
/// and one that needs none takes none, and a hyperdrive is activated once.
#[test]
fn actions_on_the_wrong_thing_are_refused_by_name() {
    let mut s = duel(2, &[]);
    let past = u8::try_from(s.battle.board.ships.len()).expect("a small roster");
    let why = refused(
        &mut s,
        0,
        Action::TargetLock {
            target: past,
            rerolls: 0,
        },
    );
    assert!(why.contains("not an enemy ship on the map"), "{why}");
    let why = refused(
        &mut s,
        0,
        Action::Attack {
            mount: 0,
            target: 0,
            rerolls: 0,
        },
    );
    assert!(why.contains("not an enemy ship on the map"), "{why}");
    let why = refused(
        &mut s,
        0,
        Action::Attack {
            mount: 99,
            target: 1,
            rerolls: 0,
        },
    );
    assert!(why.contains("no such mount"), "{why}");

    s.act(0, Action::ChargeWeapon { mount: 3 });
    let why = refused(&mut s, 0, Action::ChargeWeapon { mount: 3 });
    assert!(why.contains("is charged"), "{why}");
    // The laser turret (mount 0) needs no charge at all.
    let why = refused(&mut s, 0, Action::ChargeWeapon { mount: 0 });
    assert!(why.contains("needs no charge"), "{why}");

    s.act(1, Action::ActivateHyperdrive);
    let why = refused(&mut s, 1, Action::ActivateHyperdrive);
    assert!(why.contains("hyperdrive is spinning up already"), "{why}");
}

/// Seed 002's action list, "Launch/Recover Small Craft" and "Launch/Recover
/// Riders", as the rules note reads them: a carrier recovers only what is
/// in its own hex, into a free bay. With free bays and its flight out of
/// the hex, or its flight in the hex and no bay free, Recover Small Craft
/// is refused; with a launched rider moved away, Recover Riders is refused.
#[test]
fn recovery_needs_the_flight_or_rider_in_the_carriers_hex() {
    let mut s = carrier_launched(8);
    s.battle.flights[0].hex = Hex::new(0, 5);
    let why = refused(&mut s, 0, Action::RecoverSmallCraft);
    assert!(why.contains("no flight of this ship in its hex"), "{why}");
    // Back in the hex, but with every bay left full: no room.
    let here = s.battle.poses[0].hex;
    s.battle.flights[0].hex = here;
    let aboard = s.battle.board.ships[0].small_craft;
    s.battle.board.ships[0].intact[System::SmallCraftBay.index()] = aboard;
    let why = refused(&mut s, 0, Action::RecoverSmallCraft);
    assert!(why.contains("no free bay"), "{why}");

    s.act(0, Action::LaunchRider);
    assert!(s.battle.on_map(1));
    common::place(&mut s.battle, 1, Hex::new(0, 5), Direction::EAST);
    let why = refused(&mut s, 0, Action::RecoverRider { rider: 1 });
    assert!(why.contains("not in this ship's hex"), "{why}");
}

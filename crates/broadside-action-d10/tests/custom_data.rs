//! A rule number the data of record leaves at 1 or -1, set to another legal value and checked on the rule it controls.
//!
//! Seed 002, "Target Lock" (roll 7 or less on 1d6, plus the modifiers),
//! its "To-hit Modifiers", and the ruling in rules.toml that a Command
//! Point re-rolls a die (`command.reroll-cost` points a die, 1 in the data
//! of record). A modifier of -1 a step gives the same number whether the
//! steps are multiplied by it or divided by it, so each is checked here at
//! -2, as a referee's own rules folder may set it.

mod common;

use broadside_action_d10::Action;
use broadside_action_d10::LockSituation;
use broadside_core::ResolveError;
use common::{
    Declared, Resolve, Script, battle_on, check_declared, check_resolve, edited_system, lone_target,
};

const LOCK: &str = "Seed 002, \"Target Lock\": \"roll 7 or less on 1d6, plus the modifiers below\"";

/// A destroyer's Target Lock on the frigate at range 10 with `rerolls`
/// offered, under the data with Command Points per re-roll set to `cost`.
fn check_lock(cost: &str, rerolls: u8, dice: &[u32]) -> (Result<(), ResolveError>, Script) {
    let mut s = priced(cost, 10, dice);
    let result = s.try_act(0, Action::TargetLock { target: 1, rerolls });
    (result, s)
}

/// The destroyer against the frigate `range` hexes off, with `dice`, under
/// the data with Command Points per re-roll set to `cost`.
fn priced(cost: &str, range: u32, dice: &[u32]) -> Script {
    let system = edited_system(&[(
        "rules.toml",
        "reroll-cost = 1",
        &format!("reroll-cost = {cost}"),
    )]);
    Script::on(
        system,
        battle_on(system, "destroyer", "frigate", range),
        dice,
    )
}

/// `command.reroll-cost` at 2: the destroyer's 2 Command Points pay for
/// one re-roll, not two. Range 10 needs 4 or less (7 - 5 + 2 for its FCS):
/// rolled 6, re-rolled 2, locked, with no Command Point left. Offering two
/// re-rolls is refused before any die is rolled.
#[test]
fn a_reroll_costs_reroll_cost_command_points() {
    let (result, s) = check_lock("2", 1, &[6, 2]);
    assert_eq!(result, Ok(()));
    assert!(s.battle.locked(0, 1));
    assert_eq!(s.battle.turn[0].command_points, 0);
    assert_eq!(s.dice.used(), 2);

    let (result, s) = check_lock("2", 2, &[]);
    match result {
        Err(ResolveError::Refused(why)) => assert!(why.contains("Command Points"), "{why}"),
        other => panic!("two re-rolls at 2 points each should be refused, got {other:?}"),
    }
    assert_eq!(s.battle.turn[0].command_points, 2);
}

/// Seed 002, "Target Lock": "-1 for every 2 full hexes of range", with
/// `target-lock.per-range-step` set to -2 (the data of record's -1 is
/// neutral for this check). Destroyer (FCS 2) on the frigate (size 0,
/// stealth 0) at range 6: three full steps of 2 hexes, so the lock number
/// is 7 - 3 x 2 + 2 = 3; rolled 3, locked. To hit: laser turret 3
/// (bracket 6-8) + 0 (size) = 3; rolled 1, a hit, its 1 box taken by the
/// frigate's shield point.
#[test]
fn the_range_penalty_is_the_full_steps_times_the_modifier() {
    let json = check_resolve(Resolve {
        name: "custom_lock_per_range_step",
        source: LOCK,
        range: 6,
        locked: false,
        dice: &[3, 1],
        edits: &[("rules.toml", "per-range-step = -1", "per-range-step = -2")],
        ..Resolve::default()
    });
    assert_eq!(json["lock"]["number"], 3);
    assert_eq!(json["lock"]["locked"], true);
}

/// Seed 002, "To-hit Modifiers": "Target thrusting: -1 per hex of
/// displacement", with `to-hit.thrusting-per-hex` set to -2 (the data of
/// record's -1 is neutral for this check). Destroyer's laser turret on the
/// frigate at range 1, the frigate displaced 2 hexes: 7 (bracket 0-2) + 0
/// (size) - 2 x 2 = 3; rolled 3, a hit, its 1 box taken by the frigate's
/// shield point.
#[test]
fn the_thrusting_penalty_is_the_displacement_times_the_modifier() {
    let json = check_resolve(Resolve {
        name: "custom_to_hit_thrusting_per_hex",
        source: "Seed 002, \"To-hit Modifiers\": \"Target thrusting: -1 per hex of displacement\"",
        range: 1,
        displacement: Some(2),
        dice: &[3],
        edits: &[(
            "rules.toml",
            "thrusting-per-hex = -1",
            "thrusting-per-hex = -2",
        )],
        ..Resolve::default()
    });
    assert_eq!(json["target_number"], 3);
    assert_eq!(json["hits"], 1);
}

/// A destroyer (FCS 2) locking on the frigate (size 0, stealth 0) at range
/// 6 in the situation `nearby` (the ships thrusting in its hex or next to
/// it, as the map gives them), then firing its laser turret (3 at bracket
/// 6-8, + 0 size). Returns the lock number.
fn check_nearby(
    name: &str,
    rule: &str,
    edit: (&str, &str),
    nearby: LockSituation,
    dice: &[u32],
) -> i32 {
    let edits = [("rules.toml", edit.0, edit.1)];
    let outcome = check_declared(Declared {
        name,
        source: rule,
        range: 6,
        lock: Some(nearby),
        dice,
        edits: &edits,
        ..Declared::default()
    });
    match outcome.lock.map(|lock| lock.number) {
        Some(broadside_action_d10::attack::LockNumber::Roll(n)) => n,
        other => panic!("{name}: the lock should be rolled, got {other:?}"),
    }
}

/// Seed 002, "Target Lock": "Nearby ship using reactionless drive: -1 in
/// same hex", with `target-lock.nearby-reactionless-same-hex` set to -2
/// (the data of record's -1 is neutral for this check). One such ship in
/// the frigate's hex: 7 - 3 (range 6) + 2 (FCS) - 2 = 4; rolled 4, locked;
/// to hit 3, rolled 1, a hit on the frigate's shield point.
#[test]
fn a_reactionless_ship_in_the_target_hex_counts_times_its_modifier() {
    let number = check_nearby(
        "custom_lock_nearby_reactionless_same_hex",
        "Seed 002, \"Target Lock\": \"Nearby ship using reactionless drive: -1 in same hex\"",
        (
            "nearby-reactionless-same-hex = -1",
            "nearby-reactionless-same-hex = -2",
        ),
        LockSituation {
            reactionless_same_hex: 1,
            ..lone_target(6)
        },
        &[4, 1],
    );
    assert_eq!(number, 4);
}

/// Seed 002, "Target Lock": "Nearby ship using reaction drive: ... -1 in
/// adjacent hex", with `target-lock.nearby-reaction-adjacent` set to -2
/// (the data of record's -1 is neutral for this check). One such ship next
/// to the frigate: 7 - 3 (range 6) + 2 (FCS) - 2 = 4; rolled 4, locked; to
/// hit 3, rolled 1, a hit on the frigate's shield point.
#[test]
fn a_reaction_ship_next_to_the_target_counts_times_its_modifier() {
    let number = check_nearby(
        "custom_lock_nearby_reaction_adjacent",
        "Seed 002, \"Target Lock\": \"Nearby ship using reaction drive: -2 in same hex, -1 in adjacent hex\"",
        (
            "nearby-reaction-adjacent = -1",
            "nearby-reaction-adjacent = -2",
        ),
        LockSituation {
            reaction_adjacent: 1,
            ..lone_target(6)
        },
        &[4, 1],
    );
    assert_eq!(number, 4);
}

/// `command.reroll-cost` at 2 prices a repair's re-roll too (rules.toml,
/// `[command]`: a Command Point re-rolls "one failed lock, to-hit or repair
/// die"). The destroyer's magazine jam is an Easy repair, 7 or less: rolled
/// 8, re-rolled 7, cleared, and the one re-roll took both of its 2 points.
#[test]
fn a_repair_reroll_costs_reroll_cost_command_points() {
    let mut s = priced("2", 8, &[8, 7]);
    s.battle.board.ships[0].jammed = true;
    assert_eq!(s.battle.turn[0].command_points, 2);
    s.act(
        0,
        Action::Repair {
            item: broadside_action_d10::Repairable::MagazineJam,
            rerolls: 1,
        },
    );
    assert!(!s.battle.board.ships[0].jammed);
    assert_eq!(s.battle.turn[0].command_points, 0);
    assert_eq!(s.dice.used(), 2);
}

/// `command.reroll-cost` at 2 prices a to-hit re-roll as well. The
/// destroyer, locked on the frigate 2 hexes off (automatic within 2 + its
/// FCS), fires a laser turret offering one re-roll: 7 or less hits at
/// range 0-2 against size 0; rolled 9, re-rolled 8, a miss both times, and
/// the re-roll took both of its 2 points.
#[test]
fn a_to_hit_reroll_costs_reroll_cost_command_points() {
    let mut s = priced("2", 2, &[9, 8]);
    s.lock_and_attack(0, 1, 0, 1);
    assert_eq!(s.battle.board.ships[1].marked, 0);
    assert_eq!(s.battle.turn[0].command_points, 0);
    assert_eq!(s.dice.used(), 2);
}

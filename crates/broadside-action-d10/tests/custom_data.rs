//! A rule number the data of record leaves at 1, set to another legal value and checked on the rule it controls.
//!
//! Seed 002, "Target Lock" (roll 7 or less on 1d6, plus the modifiers),
//! and the ruling in rules.toml that a Command Point re-rolls a die
//! (`command.reroll-cost` points a die, 1 in the data of record).

mod common;

use broadside_action_d10::Action;
use broadside_core::ResolveError;
use common::{Script, battle_on, edited_system};

/// A destroyer's Target Lock on the frigate at range 10 with `rerolls`
/// offered, under the data with Command Points per re-roll set to `cost`.
fn check_lock(cost: &str, rerolls: u8, dice: &[u32]) -> (Result<(), ResolveError>, Script) {
    let system = edited_system(&[(
        "rules.toml",
        "reroll-cost = 1",
        &format!("reroll-cost = {cost}"),
    )]);
    let mut s = Script::on(system, battle_on(system, "destroyer", "frigate", 10), dice);
    let result = s.try_act(0, Action::TargetLock { target: 1, rerolls });
    (result, s)
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

//! The edges of three rules: a hull check of exactly what two dice can roll, Luck that runs out on a hit allocation, and a missile at exactly its range.
//!
//! Battlestations, Ship to Ship Combat: Hull Damage and Ship Explosion (two
//! dice at or over the chart's check less Size); Hit Allocation (the firing
//! character may spend Luck to reroll allocation dice); and the rules note's
//! ruling for missiles (a Gunnery check against 8 within 8 hexes, in
//! rules.toml).

mod common;

use broadside_core::exact::exact_attack;
use broadside_core::{AttackOutcome, DamageAllocation, NullSink, ResolveError};
use broadside_core::{EventLog, ScriptedDice};
use broadside_module_grid::attack::Rerolls;
use broadside_module_grid::damage::{Cause, Hit};
use broadside_module_grid::model::ShipSide;
use broadside_module_grid::{AllocationView, DefaultTactics, Reroll, RerollWith, Weapon};
use common::{assert_all_used, board, class, exact, module, num, ship, shot_at, system};

/// A scout's hull check at `damage` hull damage with scripted dice: the
/// check needed and rolled, whether it holds, and whether the ship blew up.
fn check_hull(case: &str, damage: u16, dice: &[u32]) -> (i32, Vec<u8>, bool, bool) {
    let grid = system();
    let mut scout = ship("scout");
    scout.hull_damage = damage;
    let mut scripted = ScriptedDice::new(dice);
    let check = grid
        .hull_check(&mut scout, "scout", &mut scripted, &mut EventLog::default())
        .unwrap_or_else(|e| panic!("{case}: {e}"))
        .unwrap_or_else(|| panic!("{case}: a hull check is due"));
    assert_all_used(&scripted, case);
    (
        check.needed,
        check.faces.to_vec(),
        check.passed,
        scout.exploded,
    )
}

/// Hull Damage: the check is "two dice at or over" the chart's number less
/// Size. At 91 hull damage the chart gives 13; less the scout's Size 1 that
/// is 12, which 6 + 6 makes: the dice are rolled and the ship holds. At 105
/// the chart gives 14, a check of 13 that no two dice make: the ship
/// explodes without a roll.
#[test]
fn a_hull_check_of_twelve_is_rolled_and_thirteen_is_not() {
    assert_eq!(
        check_hull("a check of 12", 91, &[6, 6]),
        (12, vec![6, 6], true, false)
    );
    assert_eq!(
        check_hull("a check of 13", 105, &[]),
        (13, vec![], false, true)
    );
}

/// Hit Allocation, with Luck: a frigate offers 1 Luck on its allocation
/// roll against a scout's fore side. 6 + 6 lands off the ship; Luck rerolls
/// a 6, which comes up 6 again. With the one Luck spent the roll stands at
/// 12, off the ship, and the frigate's 3 Luck are down to 2.
#[test]
fn luck_on_an_allocation_runs_out() {
    let grid = system();
    let scout = class("scout");
    let target = ship("scout");
    let choose = |view: &AllocationView<'_>| DefaultTactics::worth_reroll(grid, view, true);
    let mut firer = ship("frigate");
    assert_eq!(firer.luck, 3, "the frigate's Luck of record");
    let mut dice = ScriptedDice::new([6, 6, 6]);
    let roll = grid
        .allocation_roll(
            &target,
            ShipSide::Fore,
            scout.centre,
            Some(Rerolls {
                firer: &mut firer,
                scans: 0,
                luck: 1,
                foe: true,
                choose: &choose,
            }),
            &mut dice,
            &mut EventLog::default(),
        )
        .expect("the dice suffice");
    assert_all_used(&dice, "one Luck reroll");
    assert_eq!((roll.faces, roll.total), ([6, 6], 12));
    assert_eq!((roll.scans_spent, roll.luck_spent), (0, 1));
    assert_eq!(firer.luck, 2);
}

/// The engine checks the firer's answers (architecture: an illegal answer
/// is a bug): a firer with a scan but no Luck that asks to reroll with Luck
/// is refused as an internal error, and spends nothing.
#[test]
fn a_reroll_with_luck_not_offered_is_refused() {
    let grid = system();
    let scout = class("scout");
    let target = ship("scout");
    let with_luck = |_: &AllocationView<'_>| {
        Some(Reroll {
            die: 0,
            with: RerollWith::Luck,
        })
    };
    let mut firer = ship("frigate");
    let result = grid.allocation_roll(
        &target,
        ShipSide::Fore,
        scout.centre,
        Some(Rerolls {
            firer: &mut firer,
            scans: 1,
            luck: 0,
            foe: true,
            choose: &with_luck,
        }),
        &mut ScriptedDice::new([6, 6]),
        &mut EventLog::default(),
    );
    assert!(
        matches!(result, Err(ResolveError::Internal(ref why)) if why.contains("none to spend")),
        "{result:?}"
    );
    assert_eq!((firer.scans, firer.luck), (ship("frigate").scans, 3));
}

/// Hit Allocation: "Each scan you have on a ship may be expended to reroll
/// one of the hit allocation dice", and the firing character "may spend
/// Luck on the hit allocation roll": one reroll either way. The exact odds
/// of the frigate's shot at the scout offering one scan and offering one
/// Luck are the same, and not those of a shot offering neither.
#[test]
fn one_luck_rerolls_an_allocation_as_one_scan_does() {
    let offering = |option: &str| exact("frigate", "scout", &[("range", num(1)), (option, num(1))]);
    let (scan, luck) = (offering("scans"), offering("luck"));
    assert_eq!(scan.fractions, luck.fractions);
    let neither = exact("frigate", "scout", &[("range", num(1))]);
    assert_ne!(neither.fractions, luck.fractions);
}

/// Hit Allocation with a scan to spend, counted two ways. The frigate's
/// shot at the scout (range 1) hits 13 times in 18; then 2d6 fix its line
/// and the firer may reroll one die with its scan. Played with scripted
/// dice over every first roll and every rerolled face, the line misses the
/// scout some number of times in 216; the exact odds of the whole shot must
/// give that miss 13/18 of it.
#[test]
fn the_exact_odds_of_a_rerolled_allocation_count_every_roll() {
    let grid = system();
    let scout = class("scout");
    let target = ship("scout");
    let choose = |view: &AllocationView<'_>| DefaultTactics::worth_reroll(grid, view, true);
    let mut misses: u64 = 0;
    for first in 1..=6 {
        for second in 1..=6 {
            for reroll in 1..=6 {
                let mut firer = ship("frigate");
                let roll = grid
                    .allocation_roll(
                        &target,
                        ShipSide::Fore,
                        scout.centre,
                        Some(Rerolls {
                            firer: &mut firer,
                            scans: 1,
                            luck: 0,
                            foe: true,
                            choose: &choose,
                        }),
                        &mut ScriptedDice::new([first, second, reroll]),
                        &mut EventLog::default(),
                    )
                    .expect("three dice suffice");
                if scout
                    .lane_modules(ShipSide::Fore, roll.line)
                    .next()
                    .is_none()
                {
                    misses += 1;
                }
            }
        }
    }
    let shot = exact("frigate", "scout", &[("range", num(1)), ("scans", num(1))]);
    assert_eq!(shot.fractions["p_hit"], "13/18");
    let (numer, denom) = (13 * misses, 18 * 216);
    let common = (1..=numer.min(denom))
        .rev()
        .find(|d| numer % d == 0 && denom % d == 0)
        .unwrap_or(1);
    assert_eq!(
        shot.fractions["result the line misses the silhouette"],
        format!("{}/{}", numer / common, denom / common)
    );
}

/// Teleporter: a bomb goes off in the module it is teleported into; one
/// whose line finds no module does nothing: its die (5) is rolled and goes
/// off nowhere, and it calls for no hull check, even on a scout already at
/// 91 hull damage, where any hit that lands calls for a check of 12.
#[test]
fn a_bomb_with_no_module_to_go_off_in_calls_for_no_hull_check() {
    let grid = system();
    let mut scout = ship("scout");
    scout.hull_damage = 91;
    let bomb = Hit {
        cause: Cause::Bomb,
        power: 1,
        through_shields: false,
        side: ShipSide::Fore,
        line: 9,
        impact_only: true,
    };
    let mut dice = ScriptedDice::new([5]);
    let applied = grid
        .allocate(&bomb, &mut scout, &mut dice, &mut EventLog::default())
        .expect("one die is needed");
    assert_all_used(&dice, "a bomb off the ship");
    assert_eq!(applied.impact, None);
    assert_eq!(applied.hull_check, None);
    assert_eq!(scout.hull_damage, 91);
    assert!(!scout.exploded);
}

/// Hull Damage and Ship Explosion: a Hull Stabilizer rerolls one die of a
/// failed hull check. The destroyer (Size 3, a Hull Stabilizer, no Luck)
/// at 45 hull damage needs 9 - 3 = 6. Counted by hand over every first
/// roll and rerolled face, it explodes some number of times in 216; the
/// exact odds of the same check must say the same.
#[test]
fn the_exact_odds_of_a_stabilized_hull_check_count_every_roll() {
    let grid = system();
    let destroyer = || {
        let mut s = ship("destroyer");
        s.hull_damage = 45;
        s.luck = 0;
        s
    };
    let mut explodes: u64 = 0;
    for first in 1..=6 {
        for second in 1..=6 {
            for reroll in 1..=6 {
                let mut s = destroyer();
                let check = grid
                    .hull_check(
                        &mut s,
                        "destroyer",
                        &mut ScriptedDice::new([first, second, reroll]),
                        &mut EventLog::default(),
                    )
                    .expect("three dice suffice")
                    .expect("a check is due");
                if !check.passed {
                    explodes += 1;
                }
            }
        }
    }
    let odds = exact_attack(1_000, |dice| {
        let mut s = destroyer();
        let check = grid
            .hull_check(&mut s, "destroyer", dice, &mut NullSink)?
            .expect("a check is due");
        Ok(AttackOutcome {
            hit: true,
            results: vec![if check.passed { "holds" } else { "explodes" }.into()],
            hull_damage: 0,
            destroyed: Vec::new(),
        })
    })
    .expect("the check fits");
    let common = (1..=explodes.min(216))
        .rev()
        .find(|d| explodes.is_multiple_of(*d) && 216u64.is_multiple_of(*d))
        .unwrap_or(1);
    assert_eq!(
        odds.fractions["result explodes"],
        format!("{}/{}", explodes / common, 216 / common)
    );
}

/// The missile ruling: a missile flies up to 8 hexes. A destroyer's
/// missile at a frigate exactly 8 hexes off is allowed; at 9 it is refused.
#[test]
fn a_missile_reaches_exactly_its_range() {
    let grid = system();
    let b = board(ship("destroyer"), ship("frigate"));
    let shot = |range: u32| {
        shot_at(
            Weapon::Missile {
                module: module("destroyer", "4,1"),
            },
            range,
            ShipSide::Fore,
            None,
        )
    };
    assert_eq!(grid.check_shot(&b, &shot(8)), Ok(()));
    assert!(grid.check_shot(&b, &shot(9)).is_err());
}

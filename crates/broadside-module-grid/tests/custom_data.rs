//! Rule numbers the data of record leaves at 1, set to other legal values, each checked on the rule it controls.
//!
//! The data of record sets each of these to 1, where multiplying by it or
//! dividing by it, adding it once or counting it once, all read the same.
//! A custom ruleset may set them otherwise; each test loads the data with
//! one number of rules.toml changed and checks its rule against the same
//! play under the data of record. Sources are named per test.

mod common;

use broadside_core::{AttackResolution, DamageAllocation, EventLog, ScriptedDice};
use broadside_module_grid::damage::{Applied, Cause, Hit};
use broadside_module_grid::model::{Mode, ShipSide};
use broadside_module_grid::{Board, ModuleGrid, Shot, ShotOutcome, Weapon};
use common::{
    Script, assert_all_used, board, custom, event_lines, fusion_at_frigate, module, shot_at, system,
};

/// Resolves `shot` on a board of two ships of `grid` (after `prepare`),
/// with dice that must all be used.
fn check_shot(
    grid: &ModuleGrid,
    ships: [&str; 2],
    prepare: impl FnOnce(&mut Board),
    shot: &Shot,
    dice: &[u32],
) -> (ShotOutcome, Board) {
    let ship = |id: &str| grid.ship(id).unwrap_or_else(|| panic!("no ship {id}"));
    let mut board = board(ship(ships[0]), ship(ships[1]));
    prepare(&mut board);
    let mut scripted = ScriptedDice::new(dice);
    let outcome = grid
        .resolve_attack(&mut board, shot, &mut scripted, &mut EventLog::default())
        .unwrap_or_else(|e| panic!("the shot resolves: {e}"));
    assert_all_used(&scripted, "shot");
    (outcome, board)
}

/// Allocates `hit` to a ship of `grid` (after `prepare`), with dice that
/// must all be used: what it did and the ship after.
fn check_hit(
    grid: &ModuleGrid,
    id: &str,
    prepare: impl FnOnce(&mut broadside_module_grid::Ship),
    hit: &Hit,
    dice: &[u32],
) -> (Applied, broadside_module_grid::Ship) {
    let mut target = grid.ship(id).unwrap_or_else(|| panic!("no ship {id}"));
    prepare(&mut target);
    let mut scripted = ScriptedDice::new(dice);
    let applied = grid
        .allocate(hit, &mut target, &mut scripted, &mut EventLog::default())
        .unwrap_or_else(|e| panic!("the hit allocates: {e}"));
    assert_all_used(&scripted, "hit");
    (applied, target)
}

/// A Standard Cannon shot from the frigate's bow Cannon at range `range`.
fn frigate_cannon(range: u32) -> Shot {
    shot_at(
        Weapon::Cannon {
            module: module("frigate", "1,2"),
            mode: Mode::Standard,
        },
        range,
        ShipSide::Fore,
        None,
    )
}

/// A power-1 Multi shot's hit on the scout's fore side, down `line`.
fn single_die(line: i32) -> Hit {
    Hit {
        cause: Cause::Cannon(Mode::Multi),
        power: 1,
        through_shields: true,
        side: ShipSide::Fore,
        line,
        impact_only: false,
    }
}

/// `to-hit.ooc-penalty` (ruling: two dice + Gunnery - OOC x ooc-penalty
/// against 7 + range). The frigate (Gunnery 2) at OOC 2 fires at range 1,
/// difficulty 8, rolling 4 + 3: 9 - 2 = 7 as shipped; with a penalty of 3
/// per level, 9 - 6 = 3. Both miss.
#[test]
fn the_ooc_penalty_is_per_level() {
    let at_ooc_2 = |b: &mut Board| b.ships[0].ooc = 2;
    let total = |grid: &ModuleGrid| {
        let (outcome, _) = check_shot(
            grid,
            ["frigate", "scout"],
            at_ooc_2,
            &frigate_cannon(1),
            &[4, 3],
        );
        assert!(!outcome.hit);
        outcome.check.total
    };
    assert_eq!(total(system()), 7);
    assert_eq!(total(&custom("ooc-penalty = 1", "ooc-penalty = 3")), 3);
}

/// `to-hit.per-hex` (ruling: against 7 + per-hex x range). The frigate at
/// range 3: difficulty 10 with 1 per hex, 13 with 2.
#[test]
fn the_to_hit_difficulty_grows_per_hex() {
    let grid = custom("\nper-hex = 1", "\nper-hex = 2");
    let (outcome, _) = check_shot(
        &grid,
        ["frigate", "scout"],
        |_| {},
        &frigate_cannon(3),
        &[4, 4],
    );
    assert_eq!(outcome.check.difficulty, 13);
    assert!(!outcome.hit, "4 + 4 + 2 = 10 misses 13");
}

/// `module-damage.ooc-on-break` (Cannon Hits: a die of 4-6 on a module
/// breaks it and raises OOC). A die of 4 on the scout's bow Cannon raises
/// OOC by 1 as shipped, by 2 when set to 2, and not at all at 0.
#[test]
fn a_break_raises_ooc_by_ooc_on_break() {
    let unshielded = |s: &mut broadside_module_grid::Ship| s.shields = 0;
    for (grid, ooc) in [
        (custom("ooc-on-break = 1", "ooc-on-break = 2"), 2),
        (custom("ooc-on-break = 1", "ooc-on-break = 0"), 0),
    ] {
        let (applied, scout) = check_hit(&grid, "scout", unshielded, &single_die(1), &[4]);
        assert_eq!(applied.broken.count_ones(), 1, "the Cannon breaks");
        assert_eq!((scout.ooc, applied.ooc_added), (ooc, u32::from(ooc)));
        assert_eq!(applied.placed[0].ooc, ooc > 0);
    }
}

/// `off-silhouette.hull-damage` and `.ooc` (Cannon Hits: a die that misses
/// the silhouette does 1 hull damage, and raises OOC on 4-6). Set to 2
/// each, a die of 4 down a line that misses the scout does 2 and 2.
#[test]
fn a_die_off_the_silhouette_does_what_the_data_says() {
    let grid = custom(
        "hull-damage = 1\nooc-at = 4\nooc = 1",
        "hull-damage = 2\nooc-at = 4\nooc = 2",
    );
    let (applied, scout) = check_hit(&grid, "scout", |s| s.shields = 0, &single_die(9), &[4]);
    assert_eq!(applied.placed[0].module, None, "the die misses the ship");
    assert_eq!((applied.hull_damage, scout.hull_damage), (2, 2));
    assert_eq!((applied.ooc_added, scout.ooc), (2, 2));
}

/// `shields.drop-per-strike` (Cannon Hits: Shields drop by one each time
/// the ship is struck). The scout (Shields 2) struck by a power-1 hit keeps
/// 1 die of 6, 5, 1 and drops to Shields 0 at 2 per strike.
#[test]
fn shields_drop_by_drop_per_strike() {
    let grid = custom("drop-per-strike = 1", "drop-per-strike = 2");
    let (applied, scout) = check_hit(&grid, "scout", |_| {}, &single_die(1), &[6, 5, 1]);
    assert_eq!((applied.shields_before, applied.shields_after), (2, 0));
    assert_eq!(scout.shields, 0);
}

/// `teleporter.bomb-dice` (Teleporter: a bomb is dice laid on the module
/// struck, as module damage). As in the teleporter example, the frigate
/// teleports onto the destroyer's port side calling 2,1: Science 3 + 3 + 2
/// = 8 against 7, allocation 3 + 4 = 7, the port Cannon. With 3 bomb dice,
/// 5, 6 and 4 all go off in it: two Broken markers, slagged, the third
/// finding it slagged already; 15 hull damage, and no other module broken.
#[test]
fn every_bomb_die_goes_off_in_the_module_struck() {
    let grid = custom("bomb-dice = 1", "bomb-dice = 3");
    let shot = shot_at(
        Weapon::Teleporter {
            module: module("frigate", "3,3"),
        },
        1,
        ShipSide::Port,
        Some("2,1"),
    );
    let (outcome, board) = check_shot(
        &grid,
        ["frigate", "destroyer"],
        |_| {},
        &shot,
        &[3, 3, 3, 4, 5, 6, 4],
    );
    let applied = outcome.applied.expect("the bomb lands");
    let cannon = module("destroyer", "2,1");
    assert_eq!(applied.hull_damage, 15);
    assert_eq!(
        (applied.broken, applied.slagged),
        (1 << cannon, 1 << cannon)
    );
    assert_eq!(board.ships[1].markers(cannon), 2);
}

/// A hull check of the scout at 91 hull damage: 12 needed.
fn scout_hull_check(grid: &ModuleGrid, luck: u8, dice: &[u32]) -> (u8, u8, bool) {
    let mut scout = grid.ship("scout").expect("the scout");
    scout.hull_damage = 91;
    scout.luck = luck;
    let mut scripted = ScriptedDice::new(dice);
    let check = grid
        .hull_check(&mut scout, "scout", &mut scripted, &mut EventLog::default())
        .expect("the dice suffice")
        .expect("a check is due");
    assert_all_used(&scripted, "hull check");
    (check.luck_rerolls, scout.luck, check.passed)
}

/// `hull-check.luck-per-reroll` (Hull Damage: Luck may reroll a die of a
/// hull check). At 2 Luck a reroll, the scout's 2 Luck buy one reroll of
/// its 5 (6 + 5 fails 12), which comes up 6: it holds with no Luck left.
/// With 1 Luck it buys none, and the ship explodes.
#[test]
fn a_luck_reroll_costs_luck_per_reroll() {
    let grid = custom("luck-per-reroll = 1", "luck-per-reroll = 2");
    assert_eq!(scout_hull_check(&grid, 2, &[6, 5, 6]), (1, 0, true));
    assert_eq!(scout_hull_check(&grid, 1, &[6, 5]), (0, 1, false));
    // As shipped, 1 Luck buys a reroll.
    assert_eq!(scout_hull_check(system(), 1, &[6, 5, 6]), (1, 0, true));
}

/// `hull-check.luck-per-reroll` on a hit allocation (Hit Allocation: the
/// firing character may spend Luck on the roll). At 2 Luck a reroll the
/// frigate's 3 Luck buy one reroll, whatever the shot offers: to-hit
/// 4 + 4 + 2 = 10 against 8; 6 + 6 lands off the scout, Luck rerolls a 6 to 6,
/// and it stays off. The 5 dice 6, 5, 4, 2, 1 less Shields 2 keep 4, 2, 1,
/// each 1 hull damage off the silhouette. The frigate has 1 Luck left.
#[test]
fn an_allocation_reroll_costs_luck_per_reroll() {
    let grid = custom("luck-per-reroll = 1", "luck-per-reroll = 2");
    let mut shot = frigate_cannon(1);
    shot.luck = 2;
    let (outcome, board) = check_shot(
        &grid,
        ["frigate", "scout"],
        |_| {},
        &shot,
        &[4, 4, 6, 6, 6, 6, 5, 4, 2, 1],
    );
    let allocation = outcome.allocation.expect("the shot hits");
    assert_eq!((allocation.luck_spent, allocation.total), (1, 12));
    assert_eq!(board.ships[0].luck, 1);
    assert_eq!(board.ships[1].hull_damage, 3);
}

/// `hull-check.luck-per-reroll` on a Fusion burst's allocations (Hit
/// Allocation: the firing character may spend Luck): at 2 Luck a reroll,
/// the cruiser's 4 Luck offer 2 rerolls on its shot and on each ship its
/// burst strikes beyond the frigate, itself included. On its own share
/// (2 hexes out, power 3, [4,3]) it rerolls the first die with Luck, to 4:
/// 2 Luck spent and 1 reroll left; the scout is then offered that 1.
#[test]
fn a_bursts_luck_rerolls_cost_luck_per_reroll() {
    let grid = custom("luck-per-reroll = 1", "luck-per-reroll = 2");
    let mut dice = vec![3, 3, 1, 4, 3];
    dice.extend([1; 8]);
    dice.extend([4, 3, 4]);
    dice.extend([1; 7]);
    dice.extend([4, 3]);
    dice.extend([1; 7]);
    let script = Script::fusion_at_frigate().sparing_friends(1);
    let mut scripted = ScriptedDice::new(&dice[..]);
    let battle = fusion_at_frigate(
        &grid,
        (2, 0),
        &script,
        &mut scripted,
        &mut EventLog::default(),
    )
    .expect("the dice suffice");
    assert_all_used(&scripted, "burst");
    let rerolls: Vec<String> = script
        .asks()
        .into_iter()
        .filter(|a| a.starts_with("reroll"))
        .collect();
    assert_eq!(
        rerolls,
        [
            "reroll on a foe: 2 scans, 2 Luck",
            "reroll on a friend: 0 scans, 2 Luck",
            "reroll on a friend: 0 scans, 1 Luck",
            "reroll on a foe: 0 scans, 1 Luck"
        ]
    );
    assert_eq!(battle.board.ships[0].luck, 2);
}

/// `hull-check.stabilizer-rerolls` (Hull Damage: a Hull Stabilizer rerolls
/// a die of a hull check). The destroyer (Size 3, a Hull Stabilizer, its
/// Luck spent) at 45 hull damage needs 9 - 3 = 6; it rolls 1 + 1, and with
/// 2 rerolls a check rolls both 1s again, to 1 and 1: it fails.
#[test]
fn a_hull_stabilizer_rerolls_stabilizer_rerolls_dice() {
    let grid = custom("stabilizer-rerolls = 1", "stabilizer-rerolls = 2");
    let mut destroyer = grid.ship("destroyer").expect("the destroyer");
    destroyer.hull_damage = 45;
    destroyer.luck = 0;
    let mut dice = ScriptedDice::new([1, 1, 1, 1]);
    let check = grid
        .hull_check(
            &mut destroyer,
            "destroyer",
            &mut dice,
            &mut EventLog::default(),
        )
        .expect("the dice suffice")
        .expect("a check is due");
    assert_all_used(&dice, "hull check");
    assert_eq!(check.needed, 6);
    assert_eq!((check.stabilizer_rerolls, check.passed), (2, false));
}

/// Allocates `hit` to a ship of `grid` at `shields` with an event log: the
/// events as text and the ship after.
fn logged_hit(
    grid: &ModuleGrid,
    id: &str,
    shields: u8,
    hit: &Hit,
    dice: &[u32],
) -> (Vec<String>, broadside_module_grid::Ship) {
    let mut target = grid.ship(id).unwrap_or_else(|| panic!("no ship {id}"));
    target.shields = shields;
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    grid.allocate(hit, &mut target, &mut scripted, &mut log)
        .unwrap_or_else(|e| panic!("the hit allocates: {e}"));
    assert_all_used(&scripted, "hit");
    (event_lines(&log.events), target)
}

/// `shields.drop-per-strike` at 0 (a legal value: Shields that never drop):
/// the scout (Shields 2) struck by a power-1 hit, keeping the 2 of 6, 5, 2,
/// keeps its Shields 2, and the log says nothing of them dropping.
#[test]
fn shields_that_never_drop_are_not_reported_dropping() {
    let grid = custom("drop-per-strike = 1", "drop-per-strike = 0");
    let (events, scout) = logged_hit(&grid, "scout", 2, &single_die(1), &[6, 5, 2]);
    assert_eq!(scout.shields, 2);
    assert!(
        !events.iter().any(|e| e.contains("struck: Shields")),
        "{events:#?}"
    );
}

/// `off-silhouette.hull-damage` at 0 (legal: a miss does no hull damage)
/// with OOC as shipped: a die of 4 off the scout does no hull damage but
/// raises OOC, and the log reports the OOC.
#[test]
fn ooc_without_hull_damage_is_reported() {
    let grid = custom("hull-damage = 1\nooc-at = 4", "hull-damage = 0\nooc-at = 4");
    let (events, scout) = logged_hit(&grid, "scout", 0, &single_die(9), &[4]);
    assert_eq!((scout.hull_damage, scout.ooc), (0, 1));
    assert!(
        events
            .iter()
            .any(|e| e.contains("takes 0 hull damage (total 0); OOC 1")),
        "{events:#?}"
    );
}

/// `module-damage.collateral-dice` at 0: a die below breaks-at on an
/// occupied module does its hull damage and no collateral damage, and the
/// log names none. A 2 on the scout's crewed bow Cannon.
#[test]
fn no_collateral_dice_are_not_reported() {
    let grid = custom("collateral-dice = 1", "collateral-dice = 0");
    let (events, scout) = logged_hit(&grid, "scout", 0, &single_die(1), &[2]);
    assert_eq!(scout.hull_damage, 2);
    assert!(
        !events.iter().any(|e| e.contains("collateral")),
        "{events:#?}"
    );
}

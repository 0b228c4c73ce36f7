//! The default tactics' choices, and the tactics trait's provided method: each preference pinned by a scenario it decides.
//!
//! The default policy is a house choice, not a seed rule: the rules note
//! (Default tactics) states each preference, and every test here quotes it
//! with the arithmetic that decides the choice. Where the policy weighs a
//! chance it rolls the check as the rules do (rulings 1 and 17 of the note,
//! and the skill check: two dice plus the skill, a professional keeping the
//! best two of three), and the test cites that rule. Board order is side
//! A's ships, then side B's; a duel puts A at (0,0) facing east and B the
//! range east, facing west. The ships: the frigate (Gunnery 2, Guns 3; bow
//! Cannon 1,2), the scout (Size 1) and the cruiser (professional Gunnery 3,
//! Guns 5; bow Cannon 1,3). Chances are counted in 1296ths, as the policy
//! counts them. No dice are rolled: each test asks the tactics directly.

mod common;

use broadside_core::hex::{Direction, Hex};
use broadside_module_grid::engagement::{FireOptions, Maneuver, ShotChoice};
use broadside_module_grid::model::{Mode, ModuleIx, ShipSide};
use broadside_module_grid::{
    AllocationView, Battle, DefaultTactics, ModuleGrid, ModuleGridTactics, Reroll, Square, Weapon,
};
use common::{custom, edited, fleet, fleet_in, module, system};

const EAST: Direction = Direction::EAST;
const WEST: Direction = Direction::WEST;

/// A tactic that makes the required decisions as the default tactics do and
/// leaves its scans to the trait's provided method.
struct RequiredOnly;

impl ModuleGridTactics for RequiredOnly {
    fn maneuver(&self, system: &ModuleGrid, battle: &Battle, ship: usize) -> Maneuver {
        DefaultTactics.maneuver(system, battle, ship)
    }

    fn next_shot(
        &self,
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        options: &[FireOptions],
    ) -> Option<ShotChoice> {
        DefaultTactics.next_shot(system, battle, ship, options)
    }

    fn allocation_reroll(
        &self,
        system: &ModuleGrid,
        ship: usize,
        view: &AllocationView<'_>,
    ) -> Option<Reroll> {
        DefaultTactics.allocation_reroll(system, ship, view)
    }

    fn repair(&self, system: &ModuleGrid, battle: &Battle, ship: usize) -> Option<ModuleIx> {
        DefaultTactics.repair(system, battle, ship)
    }
}

/// The Cannon and mode of the default tactics' first shot of ship 0 in a
/// battle of `grid`.
fn first_cannon_shot(grid: &ModuleGrid, battle: &Battle) -> (ModuleIx, Mode) {
    let options = grid.fire_options_all(battle, 0, &[]);
    match DefaultTactics.next_shot(grid, battle, 0, &options) {
        Some(ShotChoice {
            weapon: Weapon::Cannon { module, mode },
            ..
        }) => (module, mode),
        other => panic!("a Cannon shot was expected, not {other:?}"),
    }
}

/// Rules note, Default tactics: "A tactic that does not choose its scans
/// makes them on the first enemy offered" (the trait's provided
/// `scan_target`). A frigate at (0,0) facing east against two scouts in
/// (2,0), the second with 10 hull damage: the default tactics scan the
/// second, their focus (hull check 4 - Size 1 = 3 against the fresh
/// scout's -1), but a tactic that leaves its scans to the trait scans the
/// first offered, board index 1.
#[test]
fn a_tactic_that_leaves_its_scans_to_the_trait_scans_the_first_enemy_offered() {
    let grid = system();
    let mut battle = fleet(
        &[("frigate", (0, 0), EAST)],
        &[("scout", (2, 0), WEST), ("scout", (2, 0), WEST)],
    );
    battle.board.ships[2].hull_damage = 10;
    let options = grid.fire_options_all(&battle, 0, &[]);
    assert_eq!(options[0].target, 1);
    assert_eq!(
        DefaultTactics.scan_target(grid, &battle, 0, &options),
        Some(2)
    );
    assert_eq!(
        RequiredOnly.scan_target(grid, &battle, 0, &options),
        Some(1)
    );
}

/// Rules note, Default tactics, fire: "every Cannon that bears, each in the
/// mode with the best chance to hit times power"; odds: the chance is the
/// check's "as the rules roll it", "a professional's
/// `skill-check.professional-dice` keeping the best `skill-check.dice`"
/// (the note's skill-check rule; ruling 1: Gunnery against 7 + range, Long
/// counting half the range rounded up). The cruiser (professional Gunnery
/// 3) at Guns 4 fires its bow Cannon at a scout 6 hexes off: Standard needs
/// its best two dice at 7 + 6 - 3 = 10 or more, for power 4; Long needs
/// 7 + 3 - 3 = 7, for power 4 / 2 = 2.
///
/// With three dice (the data of record) Standard makes 10 on 462/1296 and
/// Long 7 on 1044/1296: 462 x 4 = 1848 against 1044 x 2 = 2088, Long. With
/// four dice the best two make 10 on 676/1296 and 7 on 1179/1296:
/// 676 x 4 = 2704 against 1179 x 2 = 2358, Standard.
#[test]
fn a_professionals_best_two_of_four_dice_make_standard_worth_more_than_long() {
    let bow = module("cruiser", "1,3");
    let duel = |grid: &ModuleGrid| {
        let mut battle = grid.battle("cruiser", "scout", 6).expect("both exist");
        battle.board.ships[0].guns = 4;
        battle
    };
    let record = system();
    assert_eq!(first_cannon_shot(record, &duel(record)), (bow, Mode::Long));
    let four = custom("professional-dice = 3", "professional-dice = 4");
    assert_eq!(
        first_cannon_shot(&four, &duel(&four)),
        (bow, Mode::Standard)
    );
}

/// Rules note, Default tactics, fire: "each in the mode with the best
/// chance to hit times power"; odds: "on a to-hit check less the firer's
/// OOC level times `to-hit.ooc-penalty`" (ruling 17; ruling 1: two dice +
/// Gunnery against 7 + range, Long counting half the range rounded up).
/// The frigate (Gunnery 2, Guns 3) fires its bow Cannon at a scout 4 hexes
/// off, with `ooc-penalty = 2`.
///
/// At OOC 0, Standard needs 2d6 at 7 + 4 - 2 = 9, 360/1296, for power 3:
/// 1080; Long needs 7 + 2 - 2 = 7, 756/1296, for power 1: 756. Standard.
/// At OOC 1 the penalty is 1 x 2 = 2: Standard needs 11, 108 x 3 = 324;
/// Long needs 9, 360 x 1 = 360. Long. Under the data of record (penalty 1)
/// OOC 1 leaves Standard ahead: 10 on 216, x 3 = 648, against 8 on 540.
#[test]
fn each_ooc_level_costs_the_penalty_when_the_mode_is_weighed() {
    let bow = module("frigate", "1,2");
    let duel = |grid: &ModuleGrid, ooc: u8| {
        let mut battle = grid.battle("frigate", "scout", 4).expect("both exist");
        battle.board.ships[0].ooc = ooc;
        battle
    };
    let record = system();
    assert_eq!(
        first_cannon_shot(record, &duel(record, 1)),
        (bow, Mode::Standard)
    );
    let doubled = custom("ooc-penalty = 1", "ooc-penalty = 2");
    assert_eq!(
        first_cannon_shot(&doubled, &duel(&doubled, 0)),
        (bow, Mode::Standard)
    );
    assert_eq!(
        first_cannon_shot(&doubled, &duel(&doubled, 1)),
        (bow, Mode::Long)
    );
}

/// A test layout as wide as the data allows: one row of sixteen squares,
/// twelve Cargo Bays and then four Cannons at the starboard end.
const RAIL: &str = r#"
[rail]
name = "Rail"
source = "authored test layout: sixteen squares in one row, Cannons at the starboard end"
size = 2
shields = 0
guns = 1
speed = 1
luck = 0
centre = "1,8"
layout = [[
  "cargo-bay", "cargo-bay", "cargo-bay", "cargo-bay", "cargo-bay", "cargo-bay",
  "cargo-bay", "cargo-bay", "cargo-bay", "cargo-bay", "cargo-bay", "cargo-bay",
  "cannon", "cannon", "cannon", "cannon",
]]
crew = { gunnery = 0, piloting = 0, science = 0, engineering = 0 }
"#;

/// Rules note, Default tactics, aim: "the side and the called row or column
/// where a 2d6 allocation finds the most valuable modules (working weapons
/// first ...)", and "a total that lands off the layout finds nothing". A
/// frigate 2 hexes off the rail's fore side fires its bow Cannon; from fore
/// each column is one module, a Cannon worth 4 and a Cargo Bay 2, and a
/// call on column c puts total t on column c + t - 7.
///
/// Column 13: totals 2-6 (1 + 2 + 3 + 4 + 5 = 15 ways) on Cargo Bays,
/// 15 x 2 = 30, and 7-10 (6 + 5 + 4 + 3 = 18 ways) on Cannons, 18 x 4 =
/// 72: 102; 11 and 12 land past column 16. Column 14: 10 ways x 2 + 20 x 4
/// = 100; column 12: 21 x 2 + 14 x 4 = 98; column 16, the edge: totals 2-3
/// on Cargo Bays (3 x 2 = 6), 4-7 on Cannons (18 x 4 = 72), 8-12 off the
/// ship: 78. The call is the Cannon at 1,13, short of the edge, and the far
/// columns are weighed without reaching past the layout.
#[test]
fn the_call_weighs_only_the_totals_that_land_on_the_layout() {
    let grid = ModuleGrid::load(&edited("ships.toml", |t| t.push_str(RAIL))).expect("loads");
    let battle = grid.battle("frigate", "rail", 2).expect("both exist");
    let options = grid.fire_options_all(&battle, 0, &[]);
    let choice = DefaultTactics
        .next_shot(&grid, &battle, 0, &options)
        .expect("a shot");
    assert_eq!(
        (choice.side, choice.call),
        (
            ShipSide::Fore,
            Some(Square::parse("1,13").expect("a square"))
        )
    );
}

/// Rules note, Default tactics, aim: "the side and the called row or column
/// where a 2d6 allocation finds the most valuable modules", and "a tie goes
/// to the first side clockwise from the bow". Two frigates share a hex, so
/// the firer chooses the side struck (ruling 39). The target's lines, each
/// worth its first three modules (Cannon and Teleporter 4; Shields, Engine
/// and Helm 3; Science and Cargo Bays 2):
///
/// - fore, by column: 10, 9, 9; calling column 2, totals 6-8 (5, 6, 5
///   ways) land on columns 1-3: 50 + 54 + 45 = 149, the best fore call;
/// - starboard, by row: Cannon 4; Science + Helm + Shields 8; Teleporter +
///   Cargo + Cannon 10; Engine + Shields + Engine 9; calling row 3, totals
///   5-8 (4, 5, 6, 5 ways) land on rows 1-4: 16 + 40 + 60 + 45 = 161;
/// - aft at most 143, and port 161 again, a tie that starboard keeps.
///
/// The shot strikes starboard, calling the Teleporter at 3,3.
#[test]
fn the_firer_strikes_the_side_whose_call_is_worth_most() {
    let grid = system();
    let battle = grid.battle("frigate", "frigate", 0).expect("both exist");
    let options = grid.fire_options_all(&battle, 0, &[]);
    assert_eq!(options[0].struck.len(), 4, "the same hex: every side");
    let choice = DefaultTactics
        .next_shot(grid, &battle, 0, &options)
        .expect("a shot");
    assert_eq!(
        (choice.side, choice.call),
        (
            ShipSide::Starboard,
            Some(Square::parse("3,3").expect("a square"))
        )
    );
}

/// Rules note, Default tactics, aim: "Missiles strike the side whose centre
/// line is worth most", and "Between sides, a tie goes to the first side
/// clockwise from the bow". A destroyer with its three Cannons broken
/// shares a hex with a frigate, so it chooses the side its missile strikes
/// (ruling 39). A missile lands on the centre mark (3,2), so each side is
/// weighed with the allocation centred on the centre mark's line, the lines
/// worth as in the shared-hex shot above: fore, column 2 of 10, 9, 9:
/// 5 x 10 + 6 x 9 + 5 x 9 = 149; starboard, row 3 of 4, 8, 10, 9:
/// 4 x 4 + 5 x 8 + 6 x 10 + 5 x 9 = 161; aft at most 143; port 161, the
/// tie starboard keeps. The missile strikes starboard.
#[test]
fn a_missile_strikes_the_side_whose_centre_line_is_worth_most() {
    let grid = system();
    let mut battle = grid.battle("destroyer", "frigate", 0).expect("both exist");
    for square in ["1,2", "2,1", "2,3"] {
        battle.board.ships[0].add_marker(module("destroyer", square), 2);
    }
    let options = grid.fire_options_all(&battle, 0, &[]);
    assert_eq!(options[0].cannons, 0, "every Cannon broken");
    let choice = DefaultTactics
        .next_shot(grid, &battle, 0, &options)
        .expect("a shot");
    assert!(matches!(choice.weapon, Weapon::Missile { .. }));
    assert_eq!((choice.side, choice.call), (ShipSide::Starboard, None));
}

/// Rules note, Default tactics, fire: "a Cannon no roll can hit with, in
/// any mode, holds its fire, however far off the target: the difficulty of
/// a range past any roll only grows" (and a bomb needs the teleport to
/// succeed one time in three). A cruiser at (0,0) facing east against
/// fresh scouts at (2,0), (3,0) and (7,0) fires Fusion at the nearest (the
/// Fusion test of `tests/fleet.rs`). Offered the same weapons at the
/// farthest range a battle can report, u32::MAX hexes (its Missile Bays
/// out of missile range), it fires nothing: Standard and Multi need the
/// best two dice at 7 + u32::MAX - 3, Long at half that, Fusion as
/// Standard, and the teleport two dice at 4 + 2 + u32::MAX - 2; each
/// difficulty saturates past any roll. Had the range been read as a few
/// hexes, every one of them could hit.
#[test]
fn no_weapon_fires_at_a_target_past_any_roll() {
    let grid = system();
    let battle = fleet(
        &[("cruiser", (0, 0), EAST)],
        &[
            ("scout", (2, 0), WEST),
            ("scout", (3, 0), WEST),
            ("scout", (7, 0), WEST),
        ],
    );
    let mut options = grid.fire_options_all(&battle, 0, &[]);
    let near = DefaultTactics
        .next_shot(grid, &battle, 0, &options)
        .expect("a shot");
    assert!(matches!(
        near.weapon,
        Weapon::Cannon {
            mode: Mode::Fusion,
            ..
        }
    ));
    assert_ne!(options[0].teleporters, 0, "a bomb is offered");
    for o in &mut options {
        o.range = u32::MAX;
        o.missile_bays = 0;
    }
    assert_eq!(DefaultTactics.next_shot(grid, &battle, 0, &options), None);
}

/// Rules note, Default tactics, fire: "each in the mode with the best
/// chance to hit times power (Multi wins a tie, as it costs no Guns)". The
/// frigate (Gunnery 2) with 1 Guns power left fires its bow Cannon at a
/// scout 2 hexes off: Multi (power 1) and Standard (power 1 / 1 = 1) both
/// need 2d6 at 7 + 2 - 2 = 7, 756/1296, so both are worth 756; Long has
/// power 1 / 2 = 0. The tie goes to Multi. At Guns 2 Standard is worth
/// 756 x 2 = 1512 and fires.
#[test]
fn multi_wins_a_tie_with_standard() {
    let grid = system();
    let bow = module("frigate", "1,2");
    let duel = |guns: u8| {
        let mut battle = grid.battle("frigate", "scout", 2).expect("both exist");
        battle.board.ships[0].guns = guns;
        battle
    };
    assert_eq!(first_cannon_shot(grid, &duel(1)), (bow, Mode::Multi));
    assert_eq!(first_cannon_shot(grid, &duel(2)), (bow, Mode::Standard));
}

/// Rules note, Default tactics, focus: enemies whose hull checks cannot yet
/// fail are ranked "by danger (working Cannons times the Guns rating,
/// highest first)". A frigate faces a cruiser with four of its five
/// Cannons broken (1 working x Guns 5 = 5) and a fresh frigate (2 x Guns
/// 3 = 6): the frigate is the more dangerous and comes first, though the
/// cruiser has the higher rating. With the cruiser's bow Cannon mended too
/// it is 2 x 5 = 10, and the cruiser comes first.
#[test]
fn danger_is_working_cannons_times_guns() {
    let grid = system();
    let mut battle = fleet(
        &[("frigate", (0, 0), EAST)],
        &[("cruiser", (3, 0), WEST), ("frigate", (3, 1), WEST)],
    );
    for square in ["1,3", "2,2", "2,4", "4,1", "4,5"] {
        battle.board.ships[1].add_marker(module("cruiser", square), 2);
    }
    battle.board.ships[1].remove_marker(module("cruiser", "2,2"));
    assert_eq!(
        DefaultTactics::focus_order(grid, &battle, 0).as_slice(),
        [2, 1]
    );
    battle.board.ships[1].remove_marker(module("cruiser", "1,3"));
    assert_eq!(
        DefaultTactics::focus_order(grid, &battle, 0).as_slice(),
        [1, 2]
    );
}

/// Rules note, Default tactics, Fusion: "the burst's gain is its power (one
/// less per hex from the target's hex) summed over the other enemies, less
/// the same over the firer and its friends"; "a Fusion shot is worth its
/// chance to hit times (power + gain), against the best ordinary mode's
/// chance times power". The target itself is not in the gain: it takes the
/// shot's power in any mode. A cruiser (Guns 5) at (0,0) fires at the
/// nearer of two fresh scouts, at (2,0); Fusion and Standard both count 2
/// hexes. With the other scout at (9,0), 7 hexes from the burst, it gains
/// 0, and the cruiser, 2 hexes from it, takes 5 - 2 = 3: gain -3, so
/// Fusion is worth less than Standard and Standard fires. With the other
/// scout at (3,0) the burst reaches it with 5 - 1 = 4: gain 4 - 3 = 1, and
/// Fusion fires.
#[test]
fn a_burst_gains_only_from_the_enemies_beyond_the_target() {
    let grid = system();
    let mode_at = |other: (i32, i32)| {
        let battle = fleet(
            &[("cruiser", (0, 0), EAST)],
            &[("scout", (2, 0), WEST), ("scout", other, WEST)],
        );
        let options = grid.fire_options_all(&battle, 0, &[]);
        match DefaultTactics.next_shot(grid, &battle, 0, &options) {
            Some(ShotChoice {
                target: 1,
                weapon: Weapon::Cannon { mode, .. },
                ..
            }) => mode,
            other => panic!("a Cannon shot at the scout at (2,0) was expected, not {other:?}"),
        }
    };
    assert_eq!(mode_at((9, 0)), Mode::Standard);
    assert_eq!(mode_at((3, 0)), Mode::Fusion);
}

/// Rules note, Default tactics, Fusion: the gain is the burst's power
/// "summed over the other enemies, less the same over the firer and its
/// friends", and Fusion fires only when it is worth more than the best
/// ordinary mode. A cruiser (Guns 5) at (0,0), alone on its side, fires at
/// the nearer of two fresh scouts, at (1,0), the other at (2,0). The burst
/// reaches the far scout with 5 - 1 = 4 and the cruiser, a hex from it,
/// with 4 as well: gain 4 - 4 = 0, so Fusion is worth its chance times 5,
/// no more than Standard's at the same range, and Standard fires. With
/// the cruiser two hexes back at (-1,0) the burst reaches it with 3: gain
/// 1, and Fusion fires.
#[test]
fn the_firers_own_share_of_the_burst_counts_against_it() {
    let grid = system();
    let mode_from = |at: (i32, i32)| {
        let battle = fleet(
            &[("cruiser", at, EAST)],
            &[("scout", (1, 0), WEST), ("scout", (2, 0), WEST)],
        );
        let options = grid.fire_options_all(&battle, 0, &[]);
        match DefaultTactics.next_shot(grid, &battle, 0, &options) {
            Some(ShotChoice {
                target: 1,
                weapon: Weapon::Cannon { mode, .. },
                ..
            }) => mode,
            other => panic!("a Cannon shot at the scout at (1,0) was expected, not {other:?}"),
        }
    };
    assert_eq!(mode_from((0, 0)), Mode::Standard);
    assert_eq!(mode_from((-1, 0)), Mode::Fusion);
}

/// Rules note, Default tactics, Fusion: "Fusion is never fired in a duel
/// (it gains nothing there and gives up the called point)", even where the
/// data makes a Fusion shot likelier to hit than any other. With the
/// Fusion mode counting range halved (`range-divisor = 2`, a custom
/// ruleset), a cruiser (professional Gunnery 3, Guns 5) fires at a scout 6
/// hexes off: Fusion needs its best two of three dice at 7 + 3 - 3 = 7,
/// 1044/1296, for power 5, and the burst reaches nothing else (it dies out
/// 5 hexes from the scout): 5220; Standard needs 10, 462 x 5 = 2310, the
/// best ordinary mode (Long: 1044 x 2 = 2088). In the duel the cruiser
/// fires Standard; with a third ship on the board, another scout 14 hexes
/// further off, Fusion is weighed and fires.
#[test]
fn fusion_is_never_fired_in_a_duel() {
    let grid = custom(
        "range-divisor = 1\nuses-guns = true\nshots-per-turn = 1\nindirect = true",
        "range-divisor = 2\nuses-guns = true\nshots-per-turn = 1\nindirect = true",
    );
    let duel = grid.battle("cruiser", "scout", 6).expect("both exist");
    assert_eq!(first_cannon_shot(&grid, &duel).1, Mode::Standard);
    let crowded = fleet_in(
        &grid,
        &[("cruiser", (0, 0), EAST)],
        &[("scout", (6, 0), WEST), ("scout", (20, 0), WEST)],
    );
    assert_eq!(first_cannon_shot(&grid, &crowded).1, Mode::Fusion);
}

/// Rules note, Default tactics, fire: "then a bomb when the teleport
/// succeeds one time in three or better", the teleport being "a Science
/// check against the firer's Shields + the target's Shields + the
/// distance" (rules note, Teleporter and missiles; `teleporter.base` 0). A
/// frigate (Science 2, Shields 3) with both Cannons broken faces a frigate
/// (Shields 3). At 4 hexes the check is 3 + 3 + 4 = 10: 2d6 at 8 or more,
/// 540/1296, and 540 x 3 = 1620 is at least 1296: it teleports a bomb. At
/// 5 hexes 2d6 must make 9, 360 x 3 = 1080, short of one time in three:
/// it holds its fire.
#[test]
fn a_bomb_is_teleported_when_the_check_passes_one_time_in_three() {
    let grid = system();
    let teleporter = module("frigate", "3,3");
    let duel = |range: u32| {
        let mut battle = grid
            .battle("frigate", "frigate", range)
            .expect("both exist");
        for square in ["1,2", "3,1"] {
            battle.board.ships[0].add_marker(module("frigate", square), 2);
        }
        let options = grid.fire_options_all(&battle, 0, &[]);
        DefaultTactics
            .next_shot(grid, &battle, 0, &options)
            .map(|c| c.weapon)
    };
    assert_eq!(duel(4), Some(Weapon::Teleporter { module: teleporter }));
    assert_eq!(duel(5), None);
}

/// Rules note, Default tactics, movement: "close to range 1 of the focus
/// enemy (never into an enemy's hex, where a blast is at full power)", and
/// "a move's end scores 10 less per hex off range 1 and 12 less in an
/// enemy's hex, 6 more per working Cannon that bears on the focus enemy,
/// and 2 less per enemy Cannon that bears on it". A cruiser at (0,0) facing east, a
/// scout at (2,0) facing west. One hex ahead, facing it, three Cannons
/// (1,3, 2,2 and 2,4) bear and the scout's bow Cannon bears back:
/// 3 x 6 - 2 = 16. In the scout's hex all five bear, but it is a hex off
/// range 1 and an enemy's: 5 x 6 - 2 - 10 - 12 = 6. The cruiser moves one
/// hex and stops short of the scout.
#[test]
fn a_ship_stops_at_range_1_rather_than_enter_the_enemys_hex() {
    let grid = system();
    let battle = grid.battle("cruiser", "scout", 2).expect("both exist");
    let end = DefaultTactics
        .maneuver(grid, &battle, 0)
        .apply(battle.poses[0]);
    assert_eq!((end.hex, end.facing), (Hex::new(1, 0), EAST));
}

/// Rules note, Default tactics, movement: "each point of explosion power
/// that would pass between the end hex and a friendly ship (its blast
/// reaching us, ours reaching it) costs as much as 0.4 hexes of approach",
/// that is 4 points, against "6 more per working Cannon that bears on the
/// focus enemy, and 2 less per enemy Cannon that bears on it". A scout at
/// (0,0) facing east closes on an enemy scout at (3,0) facing west. Alone,
/// it runs past it to (4,0) and turns to face north-east: its bow Cannon
/// bears to port and the enemy's, facing away, does not, 6 - 0 = 6, where
/// one hex short at (2,0), facing east, it would bear back, 6 - 2 = 4.
/// With its own cruiser at (8,0) the cruiser's blast (Size 5) would reach
/// (4,0) at 5 - 4 = 1, and the scout's own (Size 1) reaches nothing a hex
/// off: 1 point, 4 x 1 = 4, and 6 - 4 = 2 is less than 4. The scout stops
/// at (2,0), facing east.
#[test]
fn a_ship_keeps_out_of_its_friends_blast() {
    let grid = system();
    let end = |a: &[(&str, (i32, i32), Direction)]| {
        let battle = fleet(a, &[("scout", (3, 0), WEST)]);
        let end = DefaultTactics
            .maneuver(grid, &battle, 0)
            .apply(battle.poses[0]);
        (end.hex, end.facing)
    };
    assert_eq!(
        end(&[("scout", (0, 0), EAST)]),
        (Hex::new(4, 0), Direction::NORTH_EAST)
    );
    assert_eq!(
        end(&[("scout", (0, 0), EAST), ("cruiser", (8, 0), EAST)]),
        (Hex::new(2, 0), EAST)
    );
}

/// Rules note, Default tactics, repairs: "only repairs the dice can make".
/// Seed 003 line 72: a repair is "an Engineering Skill check action of 11";
/// line 78: "Any action (including repairs!) taken in a slagged square is
/// at a penalty of +3 difficulty". A slagged module needs 11 + 3 = 14: the
/// scout (Engineering 1) makes at most 12 + 1 = 13, so with only its
/// Cannon slagged it tries no repair; the destroyer (Engineering 2) makes
/// 14 on double six, and tries to repair its slagged bow Cannon.
#[test]
fn a_slagged_module_is_repaired_only_when_the_dice_can_reach_14() {
    let grid = system();
    let repair = |id: &str, square: &str| {
        let mut battle = grid.battle(id, "scout", 4).expect("both exist");
        let cannon = module(id, square);
        battle.board.ships[0].add_marker(cannon, 2);
        battle.board.ships[0].add_marker(cannon, 2);
        assert_eq!(battle.board.ships[0].markers(cannon), 2, "slagged");
        (DefaultTactics.repair(grid, &battle, 0), cannon)
    };
    assert_eq!(repair("scout", "1,2").0, None);
    let (chosen, cannon) = repair("destroyer", "1,2");
    assert_eq!(chosen, Some(cannon));
}

/// Rules note, Default tactics, repairs: "Cannons, then Engines, Shields,
/// Helm, ...; a single marker before a slagged module", and "between
/// modules of one kind with as many markers, the first in the layout (row
/// by row from the bow, port to starboard)". The frigate with both Cannons
/// and an Engine broken, one marker each, tries its bow Cannon (1,2)
/// before the port Cannon (3,1), both before the Engine; with the bow
/// Cannon slagged instead, the port Cannon (one marker) comes first. With
/// Engineering 2, 2d6 can make both 11 and 14 (11 + 3, slagged).
#[test]
fn repairs_take_the_first_cannon_with_the_fewest_markers() {
    let grid = system();
    let (bow, port, engine) = (
        module("frigate", "1,2"),
        module("frigate", "3,1"),
        module("frigate", "4,1"),
    );
    let mut battle = grid.battle("frigate", "scout", 4).expect("both exist");
    for m in [engine, port, bow] {
        battle.board.ships[0].add_marker(m, 2);
    }
    assert_eq!(DefaultTactics.repair(grid, &battle, 0), Some(bow));
    battle.board.ships[0].add_marker(bow, 2);
    assert_eq!(DefaultTactics.repair(grid, &battle, 0), Some(port));
}

/// Rules note, default tactics: the default spends a scan on an allocation
/// only against an enemy. Dice of [6,6] on the scout's fore land five lines
/// off its centre column, off the ship, so rolling one again is worth it
/// against an enemy; on a friend's or its own share of a Fusion burst the
/// same dice are kept.
#[test]
fn the_default_rerolls_allocation_only_against_an_enemy() {
    let grid = system();
    let scout = grid.ship("scout").expect("the scout");
    let centre = grid.rules.class(scout.class).centre;
    let view = |foe: bool| AllocationView {
        target: &scout,
        side: ShipSide::Fore,
        centre,
        faces: [6, 6],
        line: grid
            .rules
            .class(scout.class)
            .centre_line(ShipSide::Fore, centre)
            + 5,
        scans: 1,
        luck: 0,
        foe,
    };
    assert!(DefaultTactics::worth_reroll(grid, &view(true), false).is_some());
    assert_eq!(
        DefaultTactics::worth_reroll(grid, &view(false), false),
        None
    );
}

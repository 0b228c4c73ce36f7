//! Percentile battles of several ships a side: each multi-ship rule of the Advanced Game played phase by phase with scripted answers and dice, the set-up before play, and the default fleet tactics.
//!
//! Seeds: `000_e16e1041e455e860.txt` (seed 000: ICMs in the Advanced Game,
//! line 24; Mines, line 38; Seeker missiles, lines 41-47; Defensive Fire,
//! line 185) and the reference note's Sequence of play and Movement (any
//! number of ships may share a hex). Each test's doc comment cites its line
//! and works the arithmetic.
//!
//! Map conventions: axial hexes, facings 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE;
//! side A starts at (0, 0) facing east and side B on the same row facing
//! west, each side's ships stacked in its start hex unless a test says
//! otherwise.

use broadside_core::hex::{self, Direction};
use broadside_core::{Event, Side, TurnSequence, Verdict};
use broadside_percentile::engagement::{Battle, FireOption, Sequence};
use broadside_percentile::model::{Defence, WeaponId};
use broadside_percentile::{
    DefaultTactics, IcmLaunches, Maneuver, Percentile, PercentileTactics, Phase, RepairAttempt,
    Repairable,
};
use broadside_tests::Damage;
use broadside_tests::engagement::{
    Script, add_ship, battle, check_steps, damage, defence_supply, fleet_battle, fleet_request,
    hex, lay_mines, offered, place, place_seeker, play_phase, play_with, step, weapon,
    weapon_supply,
};
use broadside_tests::{check_resolve, num, percentile, resolve, text};

const E: Direction = Direction::EAST;
const W: Direction = Direction::WEST;

use Phase::{FirstCombat, FirstMovement, SecondMovement};

fn nothing() -> Script {
    Script::new()
}

/// The index of the first event whose text contains `fragment`.
fn event_at(events: &[Event], fragment: &str) -> usize {
    events
        .iter()
        .position(|e| e.to_string().contains(fragment))
        .unwrap_or_else(|| panic!("no event mentions '{fragment}': {events:#?}"))
}

// ---------------------------------------------------------------------------
// ICMs from several ships
// ---------------------------------------------------------------------------

/// Seed 000 line 24 (ICMs in the Advanced Game): "ICMs can defend any ship
/// in the same hex as the ship that launched them ... The two destroyers
/// could launch ICMs against the missiles that were aimed at the ore
/// carrier." Two hexmates of the frigate launch against one torpedo: the
/// destroyer 2, the second frigate 1, so 3 ICMs at -10 each: 50 - 30 = 20%.
/// Rolled 25, a miss; with the destroyer's 2 alone it would have been 30%
/// and a hit. Each launcher spends its own (destroyer 5 to 3, second frigate
/// 4 to 3), the target none, and the attacker one torpedo.
#[test]
fn icms_from_two_hexmates_add_up_against_one_torpedo() {
    let mut b = battle("destroyer", "frigate", 2);
    let b2 = add_ship(&mut b, "destroyer", Side::B, hex(2, 0), W, 0);
    let b3 = add_ship(&mut b, "frigate", Side::B, hex(2, 0), W, 0);
    let fire = Script::new().shoots(0, "torpedo", 1);
    let cover = Script::new().icms(1, b2, 2).icms(1, b3, 1);
    let played = check_steps(
        "fleet_icms_from_two_hexmates_add_up_against_one_torpedo",
        "Seed 000 line 24, ICMs in the Advanced Game: ships in the target's hex launch ICMs \
         for it, and every ICM counts (torpedo 50 - 3 x 10 = 20%, rolled 25, a miss); each \
         launcher spends its own.",
        "a destroyer and a second frigate cover the frigate beside them against a torpedo",
        &mut b,
        &[step(1, FirstCombat, &fire, &cover)],
        &[25],
    );
    assert_eq!(b.board.ships[1].hull, 40);
    assert_eq!(weapon_supply(&b, 0, "torpedo"), Some(1));
    assert_eq!(defence_supply(&b, b2, Defence::Icm), Some(3));
    assert_eq!(defence_supply(&b, b3, Defence::Icm), Some(3));
    assert_eq!(defence_supply(&b, 1, Defence::Icm), Some(4));
    assert!(
        event_at(&played.events, "destroyer (B2) launches 2 ICMs")
            < event_at(&played.events, "frigate (B3) launches 1 ICM against")
    );

    // The same cover against a roll of 20: 20 is at or under 20%, a hit;
    // Damage Table 40 - 20 = 20, a hull hit of 4d10 = 1 + 2 + 3 + 4 = 10.
    let mut b = battle("destroyer", "frigate", 2);
    let b2 = add_ship(&mut b, "destroyer", Side::B, hex(2, 0), W, 0);
    let b3 = add_ship(&mut b, "frigate", Side::B, hex(2, 0), W, 0);
    let cover = Script::new().icms(1, b2, 2).icms(1, b3, 1);
    let played = play_phase(&mut b, FirstCombat, &fire, &cover, &[20, 40, 1, 2, 3, 4]);
    played.result.as_ref().expect("the phase plays");
    assert!(played.dice_left.is_empty());
    assert!(played.mentions("hit: 20 against 20, succeeds"));
    assert_eq!(b.board.ships[1].hull, 30);
}

/// The tactics contract and rulings 34, 47 and 48: ICMs come only from
/// ships of the target's side standing in its hex when the strike is
/// resolved, each listed once, each within what it has ready (seed 000 line
/// 24: "any ship in the same hex as the ship that launched them"). Any other
/// answer is the tactics' bug, an internal error, and nothing is spent or
/// rolled.
#[test]
fn illegal_icm_lists_are_internal_errors() {
    for (why, fragment) in [
        (
            "a launcher outside the target's hex",
            "not in the target's hex",
        ),
        ("one launcher twice", "listed twice"),
        (
            "more than the launcher has ready",
            "more ICMs than the launcher has ready",
        ),
        (
            "a launcher of the other side",
            "the launcher is on the other side",
        ),
        ("a destroyed launcher", "the launcher is destroyed"),
    ] {
        let mut b = battle("destroyer", "frigate", 2);
        let b2 = add_ship(&mut b, "destroyer", Side::B, hex(2, 0), W, 0);
        let a2 = add_ship(&mut b, "destroyer", Side::A, hex(2, 0), E, 0);
        let far = add_ship(&mut b, "destroyer", Side::B, hex(3, 0), W, 0);
        let cover = match why {
            "a launcher outside the target's hex" => Script::new().icms(1, far, 1),
            "one launcher twice" => Script::new().icms(1, b2, 1).icms(1, b2, 1),
            "more than the launcher has ready" => Script::new().icms(1, b2, 6),
            "a launcher of the other side" => Script::new().icms(1, a2, 1),
            _ => {
                damage(&mut b, b2, &[Damage::Hull(50)]);
                Script::new().icms(1, b2, 1)
            }
        };
        let fire = Script::new().shoots(0, "torpedo", 1);
        let played = play_phase(&mut b, FirstCombat, &fire, &cover, &[1]);
        let message = played.internal_error();
        assert!(message.contains(fragment), "{why}: {message}");
        assert_eq!(played.dice_left, [1], "{why}: nothing was rolled");
        assert_eq!(defence_supply(&b, b2, Defence::Icm), Some(5), "{why}");
    }
}

/// Ruling 48, from seed 000 line 38 (mines "detonate automatically at the
/// end of all movement") and line 24: the ICMs against a mine come from the
/// ships in the hex where the victim ends its move, not the mined hex it
/// passed. The frigate runs from (6, 0) through side A's mines at (3, 0) to
/// (2, 0), where side B's destroyer waits and launches 2 ICMs at -5 each:
/// 60 - 10 = 50%, rolled 50, a hit; Damage Table 40 - 20 = 20, a hull hit
/// of 3d10+5 = 4 + 5 + 6 + 5 = 20.
#[test]
fn icm_cover_for_a_mine_victim_comes_from_its_end_hex() {
    let mut b = battle("destroyer", "frigate", 6);
    let b2 = add_ship(&mut b, "destroyer", Side::B, hex(2, 0), W, 0);
    lay_mines(&mut b, Side::A, hex(3, 0));
    let run = Script::new().moves(1, 4, &[]).icms(1, b2, 2);
    check_steps(
        "fleet_icm_cover_for_a_mine_victim_comes_from_its_end_hex",
        "Seed 000 line 38, Mines: they go off at the end of all movement; line 24: a hexmate's \
         ICMs cover the victim where it then stands (60 - 2 x 5 = 50%, rolled 50; 40 - 20 = \
         20, hull 3d10+5 = 20).",
        "the frigate runs through side A's mines to a destroyer of its own side",
        &mut b,
        &[step(1, SecondMovement, &nothing(), &run)],
        &[50, 40, 4, 5, 6],
    );
    assert_eq!(b.board.ships[1].hull, 20);
    assert_eq!(defence_supply(&b, b2, Defence::Icm), Some(3));
    assert!(b.mines.is_empty());
}

/// Seed 001 lines 4-5, Masking Screen: the cloud forms "surrounding the
/// ship" and its counter "stays on top of the ship as long as the ship
/// travels in a straight line", so it masks the ship that released it and
/// not the hexmates beside it. The masked frigate and an unmasked destroyer
/// share (2, 0). Side A's laser cannon at the frigate, head-on at range 2:
/// 25 - 10 + 10 = 25%, rolled 20, a hit; Damage Table 30, a hull hit of
/// 2d10 = 5 + 5 = 10, halved to 5. Its laser battery at the destroyer: the
/// reflective hull's 50 - 10 = 40%, rolled 40, a hit; Damage Table 30, a
/// hull hit of 1d10 = 6, in full.
#[test]
fn a_masking_screen_masks_only_the_ship_that_released_it() {
    let mut b = battle("destroyer", "frigate", 2);
    let b2 = add_ship(&mut b, "destroyer", Side::B, hex(2, 0), W, 0);
    b.board.ships[1].masked = true;
    let fire = Script::new()
        .shoots(0, "laser-cannon", 1)
        .shoots(0, "laser-battery", b2);
    check_steps(
        "fleet_a_masking_screen_masks_only_the_ship_that_released_it",
        "Seed 001 lines 4-5, Masking Screen: the cloud surrounds the ship that released it, \
         not its hexmates (laser cannon at the masked frigate 25 - 10 + 10 = 25%, hull 2d10 = 10 \
         halved to 5; laser battery at the destroyer beside it 50 - 10 = 40%, hull 1d10 = 6).",
        "side A's lasers at a masked frigate and the unmasked destroyer in its hex",
        &mut b,
        &[step(1, FirstCombat, &fire, &nothing())],
        &[20, 30, 5, 5, 40, 30, 6],
    );
    assert_eq!(b.board.ships[1].hull, 35);
    assert_eq!(b.board.ships[b2].hull, 44);
    assert!(!b.board.ships[b2].masked);
}

// ---------------------------------------------------------------------------
// Mines and seekers placed before play
// ---------------------------------------------------------------------------

/// Seed 000 line 38, Mines: "The defending player can place mines in a hex
/// before the game starts ... If several enemy ships enter or pass through a
/// mined hex on the same turn, all of them will be attacked ... After the
/// mines in a hex have exploded, the hex is no longer mined." Side A's set-up
/// mines (3, 0); side B's frigate and destroyer start stacked at (6, 0). The
/// frigate passes through the hex to (2, 0), the destroyer stops in it; once
/// both have moved the mines attack each, in roster order: the frigate 60%,
/// rolled 60, a hit; Damage Table 40 - 20 = 20, a hull hit of 3d10+5 = 4 +
/// 5 + 6 + 5 = 20; the destroyer 60%, rolled 61, a miss. Then the hex is
/// clear, and no ship's supply paid for the pattern.
#[test]
fn a_minefield_placed_before_play_attacks_both_ships_passing_through() {
    let mut b = fleet_battle(
        &["destroyer"],
        &["frigate", "destroyer"],
        6,
        [&[("mines", "3,0")], &[]],
    );
    assert_eq!(
        b.board.names[..],
        ["destroyer (A)", "frigate (B)", "destroyer (B)"]
    );
    assert_eq!([b.poses[1].hex, b.poses[2].hex], [hex(6, 0), hex(6, 0)]);
    assert_eq!([b.poses[1].facing, b.poses[2].facing], [W, W]);
    assert_eq!(b.mines.len(), 1);
    assert_eq!((b.mines[0].hex, b.mines[0].owner), (hex(3, 0), Side::A));
    assert_eq!(b.mines[0].weapon, weapon("mine"));
    let run = Script::new().moves(1, 4, &[]).moves(2, 3, &[]);
    check_steps(
        "fleet_a_minefield_placed_before_play_attacks_both_ships_passing_through",
        "Seed 000 line 38, Mines: placed before play by side A's set-up; every enemy ship that \
         enters or passes through the hex is attacked after all movement (frigate 60%, rolled \
         60; 40 - 20 = 20, hull 3d10+5 = 20; destroyer 60%, rolled 61), then the hex is clear.",
        "side B's frigate and destroyer run into a minefield side A placed before play",
        &mut b,
        &[step(1, SecondMovement, &nothing(), &run)],
        &[60, 40, 4, 5, 6, 61],
    );
    assert_eq!(b.board.ships[1].hull, 20);
    assert_eq!(b.board.ships[2].hull, 50);
    assert_eq!(b.board.ships[0].hull, 50);
    assert!(b.mines.is_empty());
    assert_eq!(weapon_supply(&b, 0, "torpedo"), Some(2));
}

/// Seed 000 lines 41-47, Seeker missiles: placed "before the scenario
/// begins", a seeker waits until its owner activates it; activated, it
/// moves two hexes toward the closest ship (ties by a die), and "If the hex
/// contains more than one ship, the seeker will attack the largest." Side
/// A's set-up places a seeker at (4, 0); side B's battleship and frigate
/// start stacked at (6, 0), both 2 hexes away: d2 = 2 aims it at the
/// frigate, but in (6, 0) it attacks the battleship (120 hull points against
/// 40), with no die: 75%, rolled 50, a hit; Damage Table 40 - 20 = 20, a
/// hull hit of 5d10 = 1 + 2 + 3 + 4 + 5 = 15, so 105 of 120.
#[test]
fn a_seeker_placed_before_play_attacks_the_larger_of_two_ships() {
    let mut b = fleet_battle(
        &["destroyer"],
        &["battleship", "frigate"],
        6,
        [&[("seekers", "4,0")], &[]],
    );
    assert_eq!(b.seekers.len(), 1);
    let seeker = b.seekers[0];
    assert_eq!(
        (seeker.hex, seeker.facing, seeker.owner, seeker.active),
        (hex(4, 0), E, Side::A, false)
    );
    assert_eq!(seeker.weapon, weapon("seeker-missile"));
    let activate = Script::new().activates(0);
    let played = check_steps(
        "fleet_a_seeker_placed_before_play_attacks_the_larger_of_two_ships",
        "Seed 000 lines 41-47, Seeker missiles: placed before play, activated by its owner, it \
         flies at the closest ship (a tie, d2 = 2: the frigate) and attacks the largest ship in \
         the hex (the battleship): 75%, rolled 50; 40 - 20 = 20, hull 5d10 = 15.",
        "side A activates the seeker its set-up placed two hexes from side B's stack",
        &mut b,
        &[step(1, FirstMovement, &activate, &nothing())],
        &[2, 50, 40, 1, 2, 3, 4, 5],
    );
    assert!(played.mentions("moves 2 hexes toward the frigate (B)"));
    assert!(played.mentions("explodes against the battleship (B)"));
    assert_eq!(b.board.ships[1].hull, 105);
    assert_eq!(b.board.ships[2].hull, 40);
    assert!(b.seekers.is_empty());
}

/// Ruling 50: mines and seekers placed before play are the data's placed
/// weapons, from no ship's supply. A referee's data whose one placed weapon
/// besides the seeker missile is turned into a second seeker has no mine
/// weapon, so a set-up that lays mines is refused, and the refusal names the
/// option of the side that laid them.
#[test]
fn mines_laid_with_no_mine_weapon_in_the_data_name_the_sides_option() {
    let mine = "abbreviation = \"M\"\nlimited-supply = true\nplaced = true\n";
    let edits = [("weapons.toml", mine, format!("{mine}seeker = true\n"))];
    let sources = broadside_percentile::REGISTRATION.embedded_sources();
    let system = Percentile::load(&broadside_data::testing::edited(sources, &edits))
        .expect("a second seeker weapon is valid data");
    for (side, option) in [(0, "a-mines"), (1, "b-mines")] {
        let mut setups: [&[(&str, &str)]; 2] = [&[], &[]];
        setups[side] = &[("mines", "3,0")];
        let request = fleet_request(&["destroyer"], &["frigate"], 6, 50, setups);
        let error = match system.set_up(&request) {
            Ok(_) => panic!("{option}: mines were laid with no mine weapon"),
            Err(error) => error.to_string(),
        };
        assert!(error.contains(option), "{error}");
        assert!(
            error.contains("the data has no mine weapon to place"),
            "{error}"
        );
    }
}

/// Seed 000: "The defending player can place mines in a hex before the
/// game starts", and seekers likewise: one side. A set-up that has both
/// sides place them is refused, naming side B's option.
#[test]
fn only_one_side_places_mines_and_seekers_before_play() {
    type Setups = [&'static [(&'static str, &'static str)]; 2];
    let cases: [(Setups, &str); 3] = [
        ([&[("mines", "3,0")], &[("mines", "4,0")]], "b-mines"),
        ([&[("mines", "3,0")], &[("seekers", "4,0")]], "b-seekers"),
        ([&[("seekers", "3,0")], &[("mines", "4,0")]], "b-mines"),
    ];
    for (setups, option) in cases {
        let request = fleet_request(&["destroyer"], &["frigate"], 6, 50, setups);
        let error = match percentile().set_up(&request) {
            Ok(_) => panic!("{setups:?}: both sides placed before play"),
            Err(error) => error.to_string(),
        };
        assert!(error.contains(option), "{error}");
        assert!(error.contains("only the defending side"), "{error}");
    }
}

/// Ruling 50: a scenario's set-up may place mines and seekers for either
/// side (one of them), and the set-up's other keys place the ships: side B's two frigates
/// start in a column two hexes apart from (8, -2), facing south-west at speed
/// 3; its seekers wait at (5, 0) and (5, 1), facing as the side faces.
#[test]
fn a_sides_set_up_places_its_ships_mines_and_seekers() {
    let b = fleet_battle(
        &["destroyer", "destroyer"],
        &["frigate", "frigate"],
        6,
        [
            &[("formation", "line")],
            &[
                ("formation", "column"),
                ("spacing", "2"),
                ("start", "8,-2"),
                ("facing", "sw"),
                ("speed", "3"),
                ("seekers", "5,0;5,1"),
            ],
        ],
    );
    assert_eq!(
        b.board.names[..],
        [
            "destroyer #1 (A)",
            "destroyer #2 (A)",
            "frigate #1 (B)",
            "frigate #2 (B)"
        ]
    );
    // Side A abreast: the second destroyer one hex to the first's left.
    assert_eq!([b.poses[0].hex, b.poses[1].hex], [hex(0, 0), hex(1, -1)]);
    // Side B in column: the second frigate 2 hexes astern (north-east) of
    // the first.
    assert_eq!([b.poses[2].hex, b.poses[3].hex], [hex(8, -2), hex(10, -4)]);
    let sw = Direction::SOUTH_WEST;
    assert!(b.poses[2..].iter().all(|p| p.facing == sw && p.speed == 3));
    assert_eq!(b.seekers.len(), 2);
    assert!(
        b.seekers
            .iter()
            .all(|s| s.owner == Side::B && s.facing == sw && !s.active && s.moves == 0)
    );
    assert_eq!(b.paths[3], [hex(10, -4)]);
}

// ---------------------------------------------------------------------------
// Movement and fire with several ships
// ---------------------------------------------------------------------------

/// A tactic that gives the default policy's answers to every question but
/// the move order, which it leaves to the trait.
struct RosterOrder;

impl PercentileTactics for RosterOrder {
    fn screen(&self, system: &Percentile, battle: &Battle, ship: usize) -> Option<Defence> {
        DefaultTactics.screen(system, battle, ship)
    }
    fn activate_seekers(&self, system: &Percentile, battle: &Battle, side: Side) -> Vec<usize> {
        DefaultTactics.activate_seekers(system, battle, side)
    }
    fn drops(&self, system: &Percentile, battle: &Battle, ship: usize) -> Vec<WeaponId> {
        DefaultTactics.drops(system, battle, ship)
    }
    fn maneuver(&self, system: &Percentile, battle: &Battle, ship: usize) -> Maneuver {
        DefaultTactics.maneuver(system, battle, ship)
    }
    fn targets(
        &self,
        system: &Percentile,
        battle: &Battle,
        ship: usize,
        options: &[FireOption],
    ) -> Vec<usize> {
        DefaultTactics.targets(system, battle, ship, options)
    }
    fn icms(
        &self,
        system: &Percentile,
        battle: &Battle,
        weapon: WeaponId,
        target: usize,
    ) -> IcmLaunches {
        DefaultTactics.icms(system, battle, weapon, target)
    }
    fn repairs(&self, system: &Percentile, battle: &Battle, ship: usize) -> Vec<RepairAttempt> {
        DefaultTactics.repairs(system, battle, ship)
    }
}

/// Ruling 42: the order a side's ships move in is its tactics' choice; a
/// tactic that does not choose moves them in roster order, every ship of
/// the side in play once. Side B's frigate, battleship and frigate (ships 1,
/// 2 and 3) move 1, 2, 3 (the default policy would move the battleship, its
/// guide, first); with the first frigate destroyed, 2 and 3.
#[test]
fn a_tactic_that_gives_no_move_order_moves_its_ships_in_roster_order() {
    let mut b = fleet_battle(
        &["destroyer"],
        &["frigate", "battleship", "frigate"],
        12,
        [&[], &[]],
    );
    let system = percentile();
    assert_eq!(RosterOrder.move_order(system, &b, Side::B), [1, 2, 3]);
    assert_eq!(RosterOrder.move_order(system, &b, Side::A), [0]);
    b.board.ships[1].hull = 0;
    assert_eq!(RosterOrder.move_order(system, &b, Side::B), [2, 3]);
}

/// Reference note, Sequence of play: in its movement phase a side moves
/// its ships; in what order is the side's choice (ruling 42), each ship
/// finishing its move before the next starts. Side B's tactics move the
/// battleship before the frigate, though the frigate comes first in the
/// roster. An order that leaves out a ship of the side, lists one twice,
/// names an enemy or names a ship the battle does not have (index 3 of
/// three) is the tactics' bug, an internal error, and nothing moves.
#[test]
fn ships_of_a_side_move_in_the_order_their_tactics_give() {
    let mut b = battle("destroyer", "frigate", 6);
    let b2 = add_ship(&mut b, "battleship", Side::B, hex(6, 0), W, 0);
    let order = Script::new()
        .moves(1, 1, &[])
        .moves(b2, 1, &[])
        .move_order(Side::B, &[b2, 1]);
    let played = play_phase(&mut b, SecondMovement, &nothing(), &order, &[]);
    played.result.as_ref().expect("the phase plays");
    assert!(
        event_at(&played.events, "battleship (B2): moves at speed 1")
            < event_at(&played.events, "frigate (B): moves at speed 1")
    );

    for bad in [vec![b2], vec![b2, 1, 1], vec![b2, 0], vec![b2, 3]] {
        let mut b = battle("destroyer", "frigate", 6);
        add_ship(&mut b, "battleship", Side::B, hex(6, 0), W, 0);
        let order = Script::new().moves(1, 1, &[]).move_order(Side::B, &bad);
        let played = play_phase(&mut b, SecondMovement, &nothing(), &order, &[]);
        let message = played.internal_error();
        assert!(message.contains("move order"), "{bad:?}: {message}");
        assert_eq!(b.poses[1].hex, hex(6, 0), "{bad:?}: nothing moved");
    }
}

/// Seed 000 line 185, Defensive Fire: "the non-moving player can shoot at
/// the moving player's ships in any hexes they traveled through". Side B's
/// frigate and destroyer both move; side A's destroyer is offered each of
/// them at the nearest hex of its own path: the frigate, which ran from
/// (6, 0) through (5, 0) and turned north-west to (5, -3), at range 5; the
/// destroyer, which backed away from (6, 0) to (7, 0), at range 6, where it
/// started. Never at its own side's second ship.
#[test]
fn defensive_fire_is_offered_at_every_ship_that_moved() {
    let mut b = battle("destroyer", "frigate", 6);
    let b2 = add_ship(&mut b, "destroyer", Side::B, hex(6, 0), E, 0);
    let a2 = add_ship(&mut b, "frigate", Side::A, hex(0, 0), E, 0);
    let run = Script::new().moves(1, 4, &[(1, 1)]).moves(b2, 1, &[]);
    let played = play_phase(&mut b, SecondMovement, &nothing(), &run, &[]);
    played.result.as_ref().expect("the phase plays");
    assert_eq!(
        b.paths[1],
        [hex(6, 0), hex(5, 0), hex(5, -1), hex(5, -2), hex(5, -3)]
    );
    let shots = offered(&b, 0, true);
    let range_to = |target: usize, weapon: &str| {
        shots
            .iter()
            .find(|(w, t, _, _)| w == weapon && *t == target)
            .map(|&(_, _, range, _)| range)
    };
    assert_eq!(range_to(1, "laser-battery"), Some(5));
    assert_eq!(range_to(b2, "laser-battery"), Some(6));
    assert!(shots.iter().all(|(_, t, _, _)| *t != a2 && *t != 0));
}

/// Ruling 33 with fleets: a side is beaten only when none of its ships is
/// left in play that can fight. Side A's destroyer is destroyed while its
/// frigate fights on, and the battle goes on; once the frigate is gone too,
/// side B wins.
#[test]
fn a_side_fights_on_while_any_of_its_ships_can() {
    let mut b = battle("destroyer", "frigate", 12);
    let a2 = add_ship(&mut b, "frigate", Side::A, hex(0, 0), E, 0);
    let sequence = Sequence {
        system: percentile(),
    };
    damage(&mut b, 0, &[Damage::Hull(50)]);
    assert_eq!(sequence.verdict(&b), None);
    damage(&mut b, a2, &[Damage::Hull(40)]);
    assert_eq!(sequence.verdict(&b), Some(Verdict::Winner(Side::B)));
}

/// Reference note, Sequence of play: the combat phase starts with "fire
/// damage rolls for burning ships": every burning ship of the side that did
/// not move rolls, in roster order. Both of side B's ships burn: +20 on each
/// Damage Table roll, 10 + 20 = 30 and 5 + 20 = 25, hull hits of 1d10 = 3
/// and 4.
#[test]
fn every_burning_ship_rolls_for_its_fire() {
    let mut b = battle("destroyer", "frigate", 12);
    let b2 = add_ship(&mut b, "destroyer", Side::B, hex(12, 0), W, 0);
    damage(&mut b, 1, &[Damage::Fire]);
    damage(&mut b, b2, &[Damage::Fire]);
    let played = play_phase(&mut b, FirstCombat, &nothing(), &nothing(), &[10, 3, 5, 4]);
    played.result.as_ref().expect("the phase plays");
    assert!(played.dice_left.is_empty());
    assert_eq!(b.board.ships[1].hull, 37);
    assert_eq!(b.board.ships[b2].hull, 46);
}

// ---------------------------------------------------------------------------
// The default fleet tactics
// ---------------------------------------------------------------------------

/// The default tactics (rules note, The default tactics) release a masking
/// screen when an enemy carries lasers and the ship can fight on without its
/// own lasers (as many other weapons as lasers; mines and seekers do not
/// count) or is badly damaged (more than half its hull lost), and its move
/// holds course and speed. A frigate 1 hex before a destroyer's bow holds
/// still. With both lasers and two other weapons (rockets, torpedoes) it
/// releases one; with no screen left it cannot; with its rocket battery gone
/// (two lasers, one other) it does not, until it has lost 21 of its 40 hull
/// points (20 is exactly half, not more).
#[test]
fn default_tactics_release_a_masking_screen_when_lasers_are_a_threat() {
    let system = percentile();
    let releases = |b: &Battle| DefaultTactics.maneuver(system, b, 1).release_masking_screen;
    let b = battle("destroyer", "frigate", 1);
    assert!(releases(&b));

    let mut spent = b.clone();
    for d in &mut spent.board.ships[1].defences {
        if d.defence == Defence::MaskingScreen {
            d.supply = Some(0);
        }
    }
    assert!(!releases(&spent));

    let mut outgunned = b.clone();
    damage(&mut outgunned, 1, &[Damage::Weapon("rocket-battery")]);
    assert!(!releases(&outgunned));
    damage(&mut outgunned, 1, &[Damage::Hull(20)]);
    assert!(!releases(&outgunned));
    damage(&mut outgunned, 1, &[Damage::Hull(1)]);
    assert!(releases(&outgunned));
}

/// The move the default tactics choose for a ship.
fn default_move(b: &Battle, ship: usize) -> Maneuver {
    DefaultTactics.maneuver(percentile(), b, ship)
}

/// A move at `speed` with turns as (hex number, -1 left or +1 right).
fn course(speed: u32, turns: &[(u32, i32)]) -> Maneuver {
    Maneuver {
        speed,
        turns: turns.to_vec(),
        ..Maneuver::default()
    }
}

/// The default tactics point forward-firing weapons at the enemy (rules
/// note, The default tactics: 12 for ending with it dead ahead, 6 within a
/// lane of the bow), and the enemy's own hex is not ahead, since
/// forward-firing weapons cannot fire at range 0 (ruling 22). A heavy cruiser
/// (ADF 2, MR 1, a disruptor cannon) runs east at speed 5 with the destroyer
/// 3 hexes dead ahead, facing it; the slowest it can go is 3. Slowing to 3
/// straight on ends in the destroyer's hex, bow toward it: 10 off for range
/// 0 (the preferred range is 1) and 3 for speed 3 over 0 + 2, -13, with no
/// bonus. Holding speed 5 ends 2 hexes past it: -10, and 3 for 5 over 2 + 2,
/// -13. Slowing to 3 and turning after the first hex ends 2 hexes off at
/// (3, -2) or (1, 2): -10; the left turn, weighed first, is kept. Had the
/// destroyer's hex counted as dead ahead (-1) or within a lane (-7), the
/// cruiser would have stopped in it.
#[test]
fn default_tactics_do_not_count_the_enemys_own_hex_as_ahead() {
    let mut b = battle("heavy-cruiser", "destroyer", 3);
    place(&mut b, 0, hex(0, 0), E, 5);
    assert_eq!(default_move(&b, 0), course(3, &[(1, -1)]));
}

/// The default tactics keep the enemy within a lane of the bow when they
/// cannot have it dead ahead (rules note, The default tactics: 6 for that).
/// A light cruiser (ADF 3, MR 2, a disruptor cannon) is stopped at (0, 0)
/// facing east, the destroyer 6 hexes off at (4, 2): at speed 3 it ends 3
/// hexes away at best, 2 off the preferred range, -20. Running 3 hexes east
/// and turning right after the third ends at (3, 0) facing south-east with
/// the destroyer 3 ahead and 1 lane to port: -20 + 6 = -14. Every other move
/// to range 3 leaves it outside that band: -20 at best.
#[test]
fn default_tactics_keep_the_enemy_within_a_lane_of_the_bow() {
    let mut b = battle("light-cruiser", "destroyer", 6);
    place(&mut b, 1, hex(4, 2), W, 0);
    assert_eq!(default_move(&b, 0), course(3, &[(3, 1)]));
    assert_eq!(
        hex::ahead_offset(hex(3, 0), Direction::SOUTH_EAST, hex(4, 2)),
        (3, -1)
    );
}

/// The default tactics keep off the centre line of an enemy with
/// forward-firing weapons (rules note, The default tactics: 4 off for ending
/// on it). A light cruiser is stopped at (0, 0) facing east; the destroyer is
/// 2 hexes off at (2, -2) facing south-west, so its bow line runs through
/// the cruiser's hex. Turning in place to face north-east puts the destroyer
/// dead ahead, 1 off the preferred range: -10 + 12 = 2, but on its line:
/// -2. Running 3 hexes with a left turn after the first ends at (3, -2),
/// beside the destroyer and off its line, though not pointing at it: 0. The
/// cruiser moves. With the destroyer's laser cannon, its only forward-firing
/// weapon, destroyed, the line costs nothing and the cruiser turns in place.
#[test]
fn default_tactics_keep_off_an_enemys_forward_firing_line() {
    let mut b = battle("light-cruiser", "destroyer", 2);
    place(&mut b, 1, hex(2, -2), Direction::SOUTH_WEST, 0);
    assert_eq!(default_move(&b, 0), course(3, &[(1, -1)]));

    damage(&mut b, 1, &[Damage::Weapon("laser-cannon")]);
    assert_eq!(
        default_move(&b, 0),
        Maneuver {
            face: Some(Direction::NORTH_EAST),
            ..Maneuver::default()
        }
    );
}

/// The default tactics avoid overshooting (rules note, The default tactics:
/// 3 off for each point of speed over the distance to the enemy plus 2) and
/// weigh a break-apart chance at 2 a percentage point. A light cruiser that
/// has lost 36 of its 70 hull points (1 over half: 1% to break apart for
/// each ADF or MR point a move uses, Hull Hits) runs east at speed 5; the
/// destroyer is at (6, 2). Accelerating to 6 and turning right after the
/// sixth hex ends at (6, 0), the destroyer 2 hexes dead ahead: -10 + 12, 3
/// for each of the 2 points of speed over 2 + 2, 2 for each of 2 points:
/// -10 + 12 - 6 - 4 = -8. Accelerating to 8 with two right turns at the end
/// reaches range 1 at (7, 1), the destroyer dead ahead, but 5 over 1 + 2 and
/// with 5 points: 12 - 15 - 10 = -13. The cruiser keeps its distance.
#[test]
fn default_tactics_avoid_overshooting_the_enemy() {
    let mut b = battle("light-cruiser", "destroyer", 6);
    place(&mut b, 0, hex(0, 0), E, 5);
    place(&mut b, 1, hex(6, 2), W, 0);
    damage(&mut b, 0, &[Damage::Hull(36)]);
    assert_eq!(default_move(&b, 0), course(6, &[(6, 1)]));
}

/// The default tactics hold course and speed while a ship wants a masking
/// screen, which lasts only while it does (ruling 28; rules note, The
/// default tactics: 8 off for any move that uses ADF or MR). A frigate (two
/// lasers and two other weapons, so it wants a screen against the
/// destroyer's lasers) runs east at speed 1; the destroyer is at (1, -1),
/// off its port bow, facing west. Holding on to (1, 0) leaves the destroyer
/// at range 1 behind its port beam: 0, and the screen is released. Stopping
/// keeps it at range 1 within a lane of the bow, 6, for 1 ADF point: 6 - 8 =
/// -2; turning left in (1, 0) does the same for 1 MR point: -2.
#[test]
fn default_tactics_hold_course_to_keep_a_masking_screen() {
    let mut b = battle("frigate", "destroyer", 1);
    place(&mut b, 0, hex(0, 0), E, 1);
    place(&mut b, 1, hex(1, -1), W, 0);
    assert_eq!(
        default_move(&b, 0),
        Maneuver {
            release_masking_screen: true,
            ..course(1, &[])
        }
    );
}

/// Escorts keep station (rules note, The default tactics, Formation: 20
/// more for ending in the guide's hex, 5 less for each hex away). A light
/// cruiser (ADF 3) at speed 3 follows a battleship, its guide, that has
/// moved to (3, 0) and stopped; the destroyer is at (10, 0), facing west.
/// Holding speed 3 ends in the guide's hex, 7 from the destroyer, dead ahead
/// and on its centre line: -60 + 12 - 4 + 20 = -32. Accelerating to 6 ends 3
/// hexes nearer but 3 past the guide: -30 + 12 - 4 - 15 = -37. The cruiser
/// stays with the battleship.
#[test]
fn escorts_lose_5_for_each_hex_away_from_the_guide() {
    let mut b = battle("battleship", "destroyer", 10);
    let escort = add_ship(&mut b, "light-cruiser", Side::A, hex(0, 0), E, 3);
    place(&mut b, 0, hex(3, 0), E, 0);
    assert_eq!(DefaultTactics::guide(percentile(), &b, Side::A), Some(0));
    assert_eq!(default_move(&b, escort), course(3, &[]));
}

/// The default tactics switch on the screen that most lowers the summed
/// chances to hit of every enemy weapon (rules note, The default tactics),
/// with the ship's reflective hull counted, as the Combat Table uses the
/// most effective defence unless one attracts the weapon (ruling 1). The
/// heavy cruiser carries proton, electron and stasis screens. Against the
/// destroyer's laser cannon, laser battery, electron beam battery, rocket
/// battery and torpedo: 60 + 50 + 60 + 40 + 50 = 260 with no screen; the
/// electron screen takes the electron beam to 25: 225; the proton screen
/// attracts it to 70: 270; the stasis screen takes it to 40 but attracts
/// the torpedo to 75: 265. The electron screen goes on. Against the frigate
/// (no electron beam) no screen lowers 200, so none goes on. Against the
/// light cruiser all three lower 320 to 285, and the first weighed of
/// proton, electron and stasis, the proton screen, goes on.
#[test]
fn default_tactics_switch_on_the_screen_that_most_lowers_the_enemys_chances() {
    let system = percentile();
    let screen = |enemy: &str| DefaultTactics.screen(system, &battle("heavy-cruiser", enemy, 5), 0);
    assert_eq!(screen("destroyer"), Some(Defence::ElectronScreen));
    assert_eq!(screen("frigate"), None);
    assert_eq!(screen("light-cruiser"), Some(Defence::ProtonScreen));
}

/// The default tactics activate a waiting seeker only when the nearest ship
/// is an enemy and no friend is close (rules note, The default tactics:
/// strictly nearer than every friend, none within 2 hexes; a seeker flies at
/// the nearest ship, friend or foe, seed 000 line 45). Side A's destroyer is
/// at (0, 0) and the frigate at (10, 0). A seeker at (7, 0), 3 from the
/// frigate and 7 from the destroyer, is activated; one at (5, 0), 5 from
/// each, is not, since a die would choose its target. A wreck of side A
/// beside the seeker at (7, 0) is no ship to fly at and does not hold it
/// back; and with side A's only ship destroyed, no friend is left to hit,
/// and both seekers are activated.
#[test]
fn default_tactics_activate_a_seeker_only_when_an_enemy_is_nearest() {
    let system = percentile();
    let mut b = battle("destroyer", "frigate", 10);
    let far = place_seeker(&mut b, Side::A, hex(7, 0), W, 0, false);
    let halfway = place_seeker(&mut b, Side::A, hex(5, 0), W, 0, false);
    assert_eq!(DefaultTactics.activate_seekers(system, &b, Side::A), [far]);

    let mut wrecked = b.clone();
    let wreck = add_ship(&mut wrecked, "frigate", Side::A, hex(7, 1), E, 0);
    damage(&mut wrecked, wreck, &[Damage::Hull(40)]);
    assert_eq!(
        DefaultTactics.activate_seekers(system, &wrecked, Side::A),
        [far]
    );

    let mut alone = b.clone();
    damage(&mut alone, 0, &[Damage::Hull(50)]);
    assert_eq!(
        DefaultTactics.activate_seekers(system, &alone, Side::A),
        [far, halfway]
    );
}

/// The default tactics drop mines and seekers when an enemy is near (rules
/// note, The default tactics: a mine pattern with the nearest enemy within 6
/// hexes, unless the side already has one in the ship's hex; a seeker with
/// it within 10, unless the side already has one waiting). A minelayer at
/// (0, 0) with the frigate 5 hexes off drops both. With its own side's
/// pattern already in its hex it drops only a seeker; a pattern of the
/// enemy's there does not stop it, since mines attack only the other side's
/// ships (seed 000 line 38); with one of its side's seekers waiting it drops
/// only a mine.
#[test]
fn default_tactics_drop_mines_and_seekers_when_an_enemy_is_near() {
    let system = percentile();
    let b = battle("minelayer", "frigate", 5);
    let drops = |b: &Battle| DefaultTactics.drops(system, b, 0);
    let (mine, seeker) = (weapon("mine"), weapon("seeker-missile"));
    assert_eq!(drops(&b), [mine, seeker]);

    let mut own_mines = b.clone();
    lay_mines(&mut own_mines, Side::A, hex(0, 0));
    assert_eq!(drops(&own_mines), [seeker]);

    let mut enemy_mines = b.clone();
    lay_mines(&mut enemy_mines, Side::B, hex(0, 0));
    assert_eq!(drops(&enemy_mines), [mine, seeker]);

    let mut waiting = b.clone();
    place_seeker(&mut waiting, Side::A, hex(0, 3), E, 0, false);
    assert_eq!(drops(&waiting), [mine]);
}

/// The default tactics repair fire first, then drive, steering, control
/// systems and weapons, hull last, up to 89 points an attempt, since 90-00
/// always fails (Advanced Game rules, Repairs; rules note, The default
/// tactics: no attempt with under 10 points left, and no repair of a weapon
/// whose supply is spent). A battleship (DCR 200) burning, with 1 ADF lost,
/// its first laser battery destroyed and 10 hull points lost: fire 89, drive
/// 89, the laser battery the 22 left, and nothing for the hull. With its DCR
/// at 99, fire 89 and the drive the 10 left.
#[test]
fn default_repairs_go_in_order_up_to_89_points_each() {
    let system = percentile();
    let mut b = battle("battleship", "frigate", 10);
    damage(
        &mut b,
        0,
        &[
            Damage::Fire,
            Damage::Adf(1),
            Damage::Weapon("laser-battery"),
            Damage::Hull(10),
        ],
    );
    let attempts = |b: &Battle| -> Vec<(Repairable, u16)> {
        DefaultTactics
            .repairs(system, b, 0)
            .iter()
            .map(|a| (a.system, a.points))
            .collect()
    };
    assert_eq!(
        attempts(&b),
        [
            (Repairable::Fire, 89),
            (Repairable::Drive, 89),
            (Repairable::Weapon(1), 22)
        ]
    );
    b.board.ships[0].dcr = 99;
    assert_eq!(
        attempts(&b),
        [(Repairable::Fire, 89), (Repairable::Drive, 10)]
    );
}

/// The default tactics (rules note, The default tactics): the focus is the
/// enemy that has lost the largest share of its hull, not the most points.
/// Side B's battleship has lost 30 of 120 (250 thousandths) and its frigate
/// 12 of 40 (300): the frigate is the focus. With the frigate at 10 lost
/// (250, a tie) the nearer to side A's guide is, the battleship, placed a
/// hex nearer.
#[test]
fn default_tactics_focus_on_the_largest_share_of_hull_lost() {
    let system = percentile();
    let mut b = fleet_battle(&["destroyer"], &["battleship", "frigate"], 6, [&[], &[]]);
    place(&mut b, 1, hex(5, 0), W, 0);
    damage(&mut b, 1, &[Damage::Hull(30)]);
    damage(&mut b, 2, &[Damage::Hull(12)]);
    assert_eq!(DefaultTactics::focus(system, &b, Side::A), Some(2));
    b.board.ships[2].hull += 2;
    assert_eq!(DefaultTactics::focus(system, &b, Side::A), Some(1));
}

/// The default tactics (rules note, The default tactics): each weapon fires
/// at the side's focus, the enemy that can fight and has lost the largest
/// share of its hull, when its chance there is within 15 points of its best.
/// Two destroyers of side A face two frigates stacked 2 hexes away, the
/// second with 25 of 40 hull points lost: every weapon of both destroyers
/// picks it. Moved 11 hexes away, it is in reach of the electron beam only,
/// at 60 - 55 = 5% against 50% at the fresh frigate, so every weapon,
/// the electron beam included, fires at the fresh one.
#[test]
fn default_tactics_focus_fire_on_the_most_damaged_reachable_enemy() {
    let system = percentile();
    let mut b = fleet_battle(
        &["destroyer", "destroyer"],
        &["frigate", "frigate"],
        2,
        [&[], &[]],
    );
    damage(&mut b, 3, &[Damage::Hull(25)]);
    assert_eq!(DefaultTactics::focus(system, &b, Side::A), Some(3));
    for shooter in [0, 1] {
        let options = system.fire_options(&b, shooter, false);
        let picked = DefaultTactics.targets(system, &b, shooter, &options);
        // Laser cannon, laser battery, electron beam, rocket battery, torpedo.
        assert_eq!(picked.len(), 5, "{options:?}");
        assert!(picked.iter().all(|&p| options[p].target == 3), "{picked:?}");
    }

    place(&mut b, 3, hex(11, 0), W, 0);
    let options = system.fire_options(&b, 0, false);
    let picked = DefaultTactics.targets(system, &b, 0, &options);
    let eb = weapon("electron-beam-battery");
    assert!(
        options
            .iter()
            .any(|o| o.weapon == eb && o.target == 3 && o.range == 11)
    );
    assert_eq!(picked.len(), 5);
    assert!(picked.iter().all(|&p| options[p].target == 2), "{picked:?}");
}

/// The default tactics: ICMs against a torpedo (3 wanted) are drawn one at
/// a time from whichever ship of the target's side in its hex has the most
/// left, the first in roster order on a tie: the destroyer (5 ready), then
/// the frigate (4 against the destroyer's 4, and first in the roster), then
/// the destroyer again (4 against 3). A rocket battery draws 1, only with 6
/// or more ready in the hex (9 here). A ship in another hex gives none, and
/// none are asked for against a weapon ICMs cannot stop.
#[test]
fn default_icms_are_drawn_from_the_hexmate_with_most_ready() {
    let system = percentile();
    let mut b = battle("destroyer", "frigate", 2);
    let b2 = add_ship(&mut b, "destroyer", Side::B, hex(2, 0), W, 0);
    add_ship(&mut b, "battleship", Side::B, hex(3, 0), W, 0);
    let launches = |w: &str| -> Vec<(usize, u16)> {
        DefaultTactics
            .icms(system, &b, weapon(w), 1)
            .iter()
            .map(|l| (l.ship, l.count))
            .collect()
    };
    assert_eq!(launches("torpedo"), [(b2, 2), (1, 1)]);
    assert_eq!(launches("rocket-battery"), [(b2, 1)]);
    assert!(
        DefaultTactics
            .icms(system, &b, weapon("laser-battery"), 1)
            .is_empty()
    );
}

/// The default tactics keep station: the side's largest ship, its guide,
/// moves first, and every other ship but the evasive small craft ends its
/// move in the guide's hex, where its hexmates' ICMs cover it (seed 000 line
/// 24) and a seeker strikes only the largest (line 47). Side B's battleship
/// and two frigates start stacked 12 hexes from side A; after their movement
/// phase, played by the default tactics with no dice, the frigates (ADF 4)
/// are still in the hex of the battleship (ADF 2).
#[test]
fn escorts_keep_station_in_the_guides_hex() {
    let mut b = fleet_battle(
        &["destroyer"],
        &["frigate", "battleship", "frigate"],
        12,
        [&[], &[]],
    );
    let system = percentile();
    assert_eq!(DefaultTactics::guide(system, &b, Side::B), Some(2));
    assert_eq!(DefaultTactics.move_order(system, &b, Side::B), [2, 1, 3]);
    let played = play_with(
        &mut b,
        &[(1, SecondMovement)],
        [&DefaultTactics, &DefaultTactics],
        &[],
    );
    played.result.as_ref().expect("the phase plays");
    assert!(played.dice_left.is_empty());
    let guide = b.poses[2];
    assert_ne!(guide.hex, hex(12, 0), "the battleship closes");
    assert_eq!(b.poses[1], guide);
    assert_eq!(b.poses[3], guide);
    assert!(
        event_at(&played.events, "battleship (B): moves")
            < event_at(&played.events, "frigate #1 (B): moves")
    );

    // Fighters are evasive and skirmish: they do not hang back with the
    // battleship.
    let mut b = fleet_battle(&["destroyer"], &["battleship", "fighter"], 12, [&[], &[]]);
    let played = play_with(
        &mut b,
        &[(1, SecondMovement)],
        [&DefaultTactics, &DefaultTactics],
        &[],
    );
    played.result.as_ref().expect("the phase plays");
    assert!(b.poses[2].hex.distance(hex(0, 0)) < b.poses[1].hex.distance(hex(0, 0)));
}

// ---------------------------------------------------------------------------
// One attack with hexmates' ICMs (`resolve --hexmate-icms`)
// ---------------------------------------------------------------------------

/// Seed 000 line 24, through `resolve`: the frigate launches 1 ICM and a
/// destroyer in its hex 2 more against a torpedo at range 2: 50 - 3 x 10 =
/// 20%, rolled 25, a miss. The hexmate stands beside the attacker and target
/// as a third ship, and the report says who launched what and shows its ICMs
/// left (5 - 2 = 3).
#[test]
fn resolve_with_a_hexmates_icms() {
    check_resolve(
        "fleet_resolve_torpedo_against_the_target_and_a_hexmates_icms",
        "Seed 000 line 24, ICMs in the Advanced Game: a ship in the target's hex launches ICMs \
         for it; with the target's own, 3 ICMs at -10: 50 - 30 = 20%, rolled 25, a miss.",
        "destroyer",
        "frigate",
        &[
            ("weapon", text("torpedo")),
            ("range", num(2)),
            ("icm", num(1)),
            ("hexmate-icms", text("destroyer:2")),
        ],
        &[25],
    );
    // 20 is at or under 20%: a hit; Damage Table 40 - 20 = 20, a hull hit of
    // 4d10 = 1 + 2 + 3 + 4 = 10, so the frigate keeps 30 of 40.
    let hit = resolve(
        "destroyer",
        "frigate",
        &[
            ("weapon", text("torpedo")),
            ("range", num(2)),
            ("icm", num(1)),
            ("hexmate-icms", text("destroyer:2")),
        ],
        &[20, 40, 1, 2, 3, 4],
    )
    .expect("the attack is allowed");
    assert_eq!(hit.json["hit"], true);
    assert_eq!(hit.json["hull_damage"], 10);
    assert_eq!(hit.json["target"]["hull"], 30);
    // Two hexmates of one class are two ships, numbered as a roster numbers
    // them, and the target may launch none of its own: a rocket battery
    // salvo at 40 - 3 x 3 = 31%, rolled 99, a miss.
    let two = resolve(
        "destroyer",
        "frigate",
        &[
            ("weapon", text("rocket-battery")),
            ("range", num(1)),
            ("hexmate-icms", text("destroyer:1, destroyer:2")),
        ],
        &[99],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(two.json["to_hit"], 31);
    assert!(
        two.lines.contains(
            &"ICMs launched: destroyer #1 (hexmate) 1, destroyer #2 (hexmate) 2 (3 in all)"
                .to_owned()
        ),
        "{:?}",
        two.lines
    );
}

/// `resolve --hexmate-icms` takes `SHIP:N` entries of ships that carry ICMs,
/// each launching from 1 to what it has ready, against a weapon ICMs can
/// stop; anything else is refused with a message naming the problem.
#[test]
fn resolve_refuses_bad_hexmates() {
    for (hexmates, weapon, fragment) in [
        (
            "destroyer:6",
            "torpedo",
            "the destroyer (hexmate) can launch 5 ICMs, not 6",
        ),
        (
            "fighter:1",
            "torpedo",
            "the fighter (hexmate) carries no ICMs",
        ),
        ("cruiser:1", "torpedo", "unknown ship 'cruiser'"),
        (
            "destroyer:1",
            "laser-battery",
            "ICMs cannot stop a Laser Battery",
        ),
        ("destroyer", "torpedo", "'destroyer' is not SHIP:N"),
        (
            "destroyer:0",
            "torpedo",
            "'0' is not a count of ICMs from 1",
        ),
        ("destroyer:2,", "torpedo", "'' is not SHIP:N"),
    ] {
        let error = resolve(
            "destroyer",
            "frigate",
            &[
                ("weapon", text(weapon)),
                ("range", num(2)),
                ("hexmate-icms", text(hexmates)),
            ],
            &[],
        )
        .map(|r| r.lines)
        .expect_err(hexmates);
        assert!(error.to_string().contains(fragment), "{hexmates}: {error}");
    }
}

//! Percentile engagements phase by phase: seekers, mines, break-apart, defensive fire, repairs, movement and fire, each with scripted answers and dice; and whole seeded duels.
//!
//! Every case builds a battle by hand, sets what each side answers in each
//! phase, and plays the phases through the turn sequence with scripted dice,
//! so each roll is the one the rules call for. Sources: the Advanced Game
//! rules (Mines, Seeker missiles, Hull Hits, Steering Hit and Drifting,
//! Navigation Hit, Electrical Fire, Defensive Fire, ICMs in the Advanced Game,
//! New Statistics for Basic Game Weapons) and the rulebook's Sequence of play,
//! Movement, Fire and Repairs.
//!
//! Map conventions: axial hexes, facings 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE;
//! a duel starts with A at (0, 0) facing east and B on the same row facing
//! west.

use broadside_core::hex::{Direction, Hex};
use broadside_core::{FrameRules, Loss, Roster, Side, TurnSequence, Verdict, run_trials};
use broadside_percentile::engagement::{Battle, Sequence};
use broadside_percentile::model::Defence;
use broadside_percentile::{DefaultTactics, PercentileTactics, Phase, Repairable};
use broadside_tests::Damage;
use broadside_tests::engagement::{
    Played, Script, add_ship, battle, check_destroyed_ships_do_not_act, check_duel_log,
    check_steps, damage, defence_supply, duel, hex, lay_mines, offered, place, place_seeker,
    play_out, play_phase, play_steps, play_steps_in, play_with, step, weapon_supply,
};
use broadside_tests::{percentile, percentile_with_station};

const E: Direction = Direction::EAST;
const SE: Direction = Direction::SOUTH_EAST;
const SW: Direction = Direction::SOUTH_WEST;
const W: Direction = Direction::WEST;
const NW: Direction = Direction::NORTH_WEST;
const NE: Direction = Direction::NORTH_EAST;

use Phase::{FirstCombat, FirstMovement, Repair, SecondCombat, SecondMovement};

fn nothing() -> Script {
    Script::new()
}

// ---------------------------------------------------------------------------
// The turn sequence
// ---------------------------------------------------------------------------

/// Advanced Game rules, Sequence of play: in each game turn the side rolled
/// first has a movement phase and a combat phase, then the other side does;
/// after turns 3, 6, 9 and so on both sides also get a Repair Turn.
#[test]
fn a_game_turn_is_two_side_turns_and_every_third_ends_with_repairs() {
    let sequence = Sequence {
        system: percentile(),
    };
    for turn in 1..=9 {
        let phases = sequence.phases(turn);
        let mut expected = vec![FirstMovement, FirstCombat, SecondMovement, SecondCombat];
        if turn % 3 == 0 {
            expected.push(Repair);
        }
        assert_eq!(phases, expected.as_slice(), "turn {turn}");
    }
    let mut b = battle("destroyer", "frigate", 12);
    for (first, second) in [(Side::A, Side::B), (Side::B, Side::A)] {
        b.first = first;
        assert_eq!(b.mover(FirstMovement), first);
        assert_eq!(b.mover(FirstCombat), first);
        assert_eq!(b.mover(SecondMovement), second);
        assert_eq!(b.mover(SecondCombat), second);
    }
}

// ---------------------------------------------------------------------------
// Seeker missiles
// ---------------------------------------------------------------------------

/// Advanced Game rules, Seeker missiles: activated, a seeker moves 2 hexes
/// toward the closest ship at once, 4 on the next turn, 6 on the one after.
/// The seeker starts at (22, 0), 18 hexes from the frigate and 22 from the
/// destroyer, and flies east: (24, 0), (28, 0), (34, 0).
#[test]
fn an_activated_seeker_moves_2_then_4_then_6_hexes() {
    let mut b = battle("destroyer", "frigate", 40);
    place_seeker(&mut b, Side::A, hex(22, 0), E, 0, false);
    let activate = Script::new().activates(0);
    let played = check_steps(
        "engagement_seeker_moves_2_then_4_then_6_hexes",
        "Advanced Game rules, Seeker missiles: once activated a seeker moves 2 hexes toward \
         the closest ship, then 4 on the next turn and 6 on the turn after (22, 0) -> (24, 0) \
         -> (28, 0) -> (34, 0).",
        "a seeker of side A activated 18 hexes from the frigate",
        &mut b,
        &[
            step(1, FirstMovement, &activate, &nothing()),
            step(2, FirstMovement, &nothing(), &nothing()),
            step(3, FirstMovement, &nothing(), &nothing()),
        ],
        &[],
    );
    assert!(played.mentions("moves 2 hexes toward the frigate (B)"));
    assert!(played.mentions("moves 4 hexes toward the frigate (B)"));
    assert!(played.mentions("moves 6 hexes toward the frigate (B)"));
    assert_eq!(b.seekers.len(), 1);
    assert_eq!((b.seekers[0].hex, b.seekers[0].moves), (hex(34, 0), 3));
    assert!(b.seekers[0].active);
}

/// Seed 000 line 63: a player activates a screen by circling it on the ship
/// roster and deactivates it by erasing the circle; no more than one screen
/// is on at a time. Screens are switched as the side's movement begins. The
/// light cruiser carries electron and stasis screens: its side switches the
/// electron screen on in turn 1, and off in turn 2.
#[test]
fn a_side_switches_its_ships_screens_as_it_moves() {
    let mut b = battle("light-cruiser", "frigate", 12);
    let on = Script::new().screen(0, Some(Defence::ElectronScreen));
    let played = play_phase(&mut b, FirstMovement, &on, &nothing(), &[]);
    played.result.as_ref().expect("the screen goes on");
    assert!(played.mentions("switches on its electron screen"));
    assert_eq!(b.board.ships[0].screen, Some(Defence::ElectronScreen));

    let off = Script::new().screen(0, None);
    let played = play_phase(&mut b, FirstMovement, &off, &nothing(), &[]);
    played.result.as_ref().expect("the screen goes off");
    assert!(played.mentions("switches its screen off"));
    assert_eq!(b.board.ships[0].screen, None);
}

/// Seed 000 line 63: only a screen the ship carries can be circled on its
/// roster. A tactic that switches on a screen the light cruiser lacks (a
/// proton screen), or a defence that is not a screen (its ICMs, its
/// reflective hull), is a bug in the tactic: an internal error, and no
/// screen goes on.
#[test]
fn only_a_screen_the_ship_carries_can_be_switched_on() {
    for (defence, id) in [
        (Defence::ProtonScreen, "proton-screen"),
        (Defence::Icm, "icm"),
        (Defence::ReflectiveHull, "reflective-hull"),
    ] {
        let mut b = battle("light-cruiser", "frigate", 12);
        let wrong = Script::new().screen(0, Some(defence));
        let played = play_phase(&mut b, FirstMovement, &wrong, &nothing(), &[]);
        let message = played.internal_error();
        assert!(
            message.contains(&format!("tactics switched on a {id} the")),
            "{message}"
        );
        assert_eq!(b.board.ships[0].screen, None, "{id}");
    }
}

/// Advanced Game rules, Mines and Seeker missiles: mines go off against
/// enemy ships that enter their hex, and only activated seekers move, each in
/// its owner's movement. Side A's destroyer runs 2 hexes east through its
/// own mines at (1, 0), past a waiting seeker of its own and one of side B:
/// the mines stay, neither seeker moves, and the destroyer is untouched.
#[test]
fn own_mines_and_waiting_seekers_let_a_mover_pass() {
    let mut b = battle("destroyer", "frigate", 12);
    lay_mines(&mut b, Side::A, hex(1, 0));
    place_seeker(&mut b, Side::B, hex(5, 5), W, 0, false);
    place_seeker(&mut b, Side::A, hex(-5, 5), E, 0, false);
    place(&mut b, 0, hex(0, 0), E, 2);
    let hull = b.board.ships[0].hull;
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().moves(0, 2, &[]),
        &nothing(),
        &[],
    );
    played.result.as_ref().expect("the phase plays");
    assert_eq!(b.poses[0].hex, hex(2, 0));
    assert_eq!(b.mines.len(), 1);
    let seekers: Vec<_> = b.seekers.iter().map(|s| (s.hex, s.active)).collect();
    assert_eq!(seekers, [(hex(5, 5), false), (hex(-5, 5), false)]);
    assert_eq!(b.board.ships[0].hull, hull);
}

/// Advanced Game rules, Seeker missiles: a player activates their own
/// seeker, once. A tactic that activates the other side's seeker, or its own
/// seeker that is already flying, is a bug in the tactic, and the phase
/// stops with an internal error naming the seeker; nothing moves.
#[test]
fn only_a_waiting_seeker_of_ones_own_side_can_be_activated() {
    for (owner, active, why) in [
        (Side::B, false, "another side's seeker"),
        (Side::A, true, "a seeker already flying"),
    ] {
        let mut b = battle("destroyer", "frigate", 40);
        place_seeker(&mut b, owner, hex(22, 0), E, 0, active);
        let played = play_phase(
            &mut b,
            FirstMovement,
            &Script::new().activates(0),
            &nothing(),
            &[],
        );
        let message = played.internal_error();
        assert!(
            message.contains("tactics activated seeker 0, which is not a waiting seeker of side A"),
            "{why}: {message}"
        );
        assert_eq!(b.seekers[0].hex, hex(22, 0), "{why}");
        assert_eq!(b.seekers[0].active, active, "{why}");
    }
}

/// Advanced Game rules, Seeker missiles: a seeker cannot tell friend from
/// foe and flies at the closest ship. Side A's seeker at (4, 0) is 4 hexes
/// from A's own destroyer and 8 from the frigate, so it turns about and
/// flies at the destroyer: 2 hexes to (2, 0), then on the next turn into the
/// destroyer's hex, where it explodes. The destroyer launches 2 ICMs at -8
/// each: 75 - 16 = 59%, rolled 59, a hit; Damage Table 60 - 20 = 40, a hull
/// hit of 5d10 = 15.
#[test]
fn a_seeker_flies_at_the_nearest_ship_friend_or_foe() {
    let mut b = battle("destroyer", "frigate", 12);
    place_seeker(&mut b, Side::A, hex(4, 0), E, 0, false);
    let activate = Script::new().activates(0);
    let icms = Script::new().icms(0, 0, 2);
    check_steps(
        "engagement_seeker_flies_at_the_nearest_ship_friend_or_foe",
        "Advanced Game rules, Seeker missiles: a seeker flies at the closest ship, friend or \
         foe, and explodes on entering its hex; ICMs count -8 each against it (75 - 16 = 59%); \
         seeker DTM -20.",
        "side A's seeker is nearer side A's own destroyer than the frigate",
        &mut b,
        &[
            step(1, FirstMovement, &activate, &nothing()),
            step(2, FirstMovement, &icms, &nothing()),
        ],
        &[59, 60, 1, 2, 3, 4, 5],
    );
    assert!(b.seekers.is_empty(), "the seeker is spent");
    assert_eq!(b.board.ships[0].hull, 35);
    assert_eq!(defence_supply(&b, 0, Defence::Icm), Some(3));
    assert_eq!(b.board.ships[1].hull, 40);
}

/// Advanced Game rules, Seeker missiles: when two ships are equally close, a
/// die says which the seeker aims at. A seeker at (6, 0) is 6 hexes from
/// both ships; the die (one face per ship, in ship order) picks the
/// destroyer on 1, the frigate on 2.
#[test]
fn equal_distances_are_settled_by_a_die() {
    for (face, target, ends_at) in [
        (1, "destroyer (A)", hex(4, 0)),
        (2, "frigate (B)", hex(8, 0)),
    ] {
        let mut b = battle("destroyer", "frigate", 12);
        place_seeker(&mut b, Side::A, hex(6, 0), E, 0, false);
        let played = play_phase(
            &mut b,
            FirstMovement,
            &Script::new().activates(0),
            &nothing(),
            &[face],
        );
        played.result.as_ref().expect("the phase plays");
        assert!(played.dice_left.is_empty());
        assert!(
            played.mentions(&format!(
                "seeker chooses between equally close ships: rolled d2 = {face}"
            )),
            "{:#?}",
            played.lines()
        );
        assert!(played.mentions(&format!("moves 2 hexes toward the {target}")));
        assert_eq!(b.seekers[0].hex, ends_at, "face {face}");
    }
}

/// Advanced Game rules, Seeker missiles, and ICMs in the Advanced Game: a
/// seeker entering a hex with several ships attacks the largest. The frigate
/// and a second destroyer of side B share (6, 0); both are 2 hexes from the
/// seeker, so a die picks which it flies at (1: the frigate), but it attacks
/// the destroyer, the larger. The frigate, in the same hex, launches 2 ICMs
/// for it: 75 - 16 = 59%, rolled 50, a hit; 90 - 20 = 70, the first weapon
/// of "LB; RB; T; AR; PB; EB; LC" the destroyer has: its laser battery.
#[test]
fn a_seeker_attacks_the_largest_ship_in_the_hex() {
    let mut b = battle("destroyer", "frigate", 6);
    let second = add_ship(&mut b, "destroyer", Side::B, hex(6, 0), W, 0);
    place_seeker(&mut b, Side::A, hex(4, 0), E, 0, true);
    let icms = Script::new().icms(second, 1, 2);
    check_steps(
        "engagement_seeker_attacks_the_largest_ship_in_the_hex",
        "Advanced Game rules, Seeker missiles: the seeker attacks the largest ship in the hex \
         (the 50-hull destroyer, not the 40-hull frigate); ICMs in the Advanced Game: a ship in \
         the target's hex may launch them (75 - 16 = 59%, rolled 50); Damage Table 90 - 20 = 70.",
        "side A's seeker flies into a hex holding a frigate and a destroyer of side B",
        &mut b,
        &[step(1, FirstMovement, &nothing(), &icms)],
        &[1, 50, 90],
    );
    let lb = broadside_tests::any_weapon_mount(&b.board.ships[second], "laser-battery");
    assert!(b.board.ships[second].weapons[lb].destroyed);
    assert_eq!(defence_supply(&b, 1, Defence::Icm), Some(2));
    assert_eq!(defence_supply(&b, second, Defence::Icm), Some(5));
    assert!(b.seekers.is_empty());
}

/// Advanced Game rules, Seeker missiles: a tie for the largest ship in the
/// hex is broken by a die. Two frigates of side
/// B share (6, 0): the first die picks which the seeker flies at, the second
/// which it attacks (2: the second frigate), and 99 misses.
#[test]
fn equally_large_ships_are_settled_by_a_die() {
    let mut b = battle("destroyer", "frigate", 6);
    let second = add_ship(&mut b, "frigate", Side::B, hex(6, 0), W, 0);
    place_seeker(&mut b, Side::A, hex(4, 0), E, 0, true);
    let played = play_phase(&mut b, FirstMovement, &nothing(), &nothing(), &[1, 2, 99]);
    played.result.as_ref().expect("the phase plays");
    assert!(played.dice_left.is_empty());
    assert!(played.mentions("seeker chooses between equally large ships: rolled d2 = 2"));
    assert!(played.mentions("explodes against the frigate (B2)"));
    assert_eq!(b.board.names[second], "frigate (B2)");
    assert!(b.seekers.is_empty());
}

/// Advanced Game rules, Seeker missiles: an activated seeker goes off when a
/// ship moves into its hex, and its owner rolls the attack; one still
/// waiting for activation does nothing. The frigate accelerates to 4 from
/// (6, 0) westward through an active seeker at (4, 0) and a waiting one at
/// (3, 0): 75%, rolled 20, a hit; 50 - 20 = 30, a hull hit of 5d10 = 10;
/// the frigate finishes its move at (2, 0).
#[test]
fn a_ship_entering_an_activated_seekers_hex_sets_it_off() {
    let mut b = battle("destroyer", "frigate", 6);
    place_seeker(&mut b, Side::A, hex(4, 0), W, 1, true);
    place_seeker(&mut b, Side::A, hex(3, 0), E, 0, false);
    let run = Script::new().moves(1, 4, &[]);
    check_steps(
        "engagement_a_ship_entering_an_activated_seeker_sets_it_off",
        "Advanced Game rules, Seeker missiles: an activated seeker goes off when a ship moves \
         into its hex (75%, rolled 20; 50 - 20 = 30, hull hit 5d10 = 10); one still waiting \
         for activation stays where it is.",
        "the frigate runs through an active seeker and a waiting one",
        &mut b,
        &[step(1, SecondMovement, &nothing(), &run)],
        &[20, 50, 2, 2, 2, 2, 2],
    );
    assert_eq!(b.board.ships[1].hull, 30);
    assert_eq!(b.poses[1].hex, hex(2, 0));
    assert_eq!(b.seekers.len(), 1);
    assert_eq!(b.seekers[0].hex, hex(3, 0));
    assert!(!b.seekers[0].active);
}

/// Advanced Game rules, Seeker missiles: a seeker's 12-hex move is its last:
/// it blows up where the move ends, hurting nothing if no ship is there.
/// A seeker with five moves made (2, 4, 6, 8, 10) moves 12 from (21, 0) to
/// (33, 0), 7 hexes short of the frigate, and is gone.
#[test]
fn a_seeker_explodes_harmlessly_on_the_turn_it_moves_12_hexes() {
    let mut b = battle("destroyer", "frigate", 40);
    place_seeker(&mut b, Side::A, hex(21, 0), E, 5, true);
    check_steps(
        "engagement_seeker_explodes_harmlessly_on_its_12_hex_turn",
        "Advanced Game rules, Seeker missiles: a seeker's 12-hex move is its last; it blows \
         up where the move ends, hurting nothing with no ship there.",
        "a seeker on its sixth move, 19 hexes from the frigate",
        &mut b,
        &[step(1, FirstMovement, &nothing(), &nothing())],
        &[],
    );
    assert!(b.seekers.is_empty());
    assert_eq!(b.board.ships[0].hull, 50);
    assert_eq!(b.board.ships[1].hull, 40);
}

/// Advanced Game rules, Seeker missiles: only the 12-hex move ends a
/// seeker's flight; on its 10-hex move it flies on. And a ship in the hex
/// where its 12-hex move ends is attacked on entry, once.
#[test]
fn a_seeker_flies_on_before_its_12_hex_move_and_strikes_a_ship_at_its_end() {
    let mut b = battle("destroyer", "frigate", 40);
    place_seeker(&mut b, Side::A, hex(21, 0), E, 4, true);
    let played = play_phase(&mut b, FirstMovement, &nothing(), &nothing(), &[]);
    played.result.as_ref().expect("the phase plays");
    assert_eq!((b.seekers[0].hex, b.seekers[0].moves), (hex(31, 0), 5));

    let mut b = battle("destroyer", "frigate", 33);
    place_seeker(&mut b, Side::A, hex(21, 0), E, 5, true);
    let played = play_phase(&mut b, FirstMovement, &nothing(), &nothing(), &[99]);
    played.result.as_ref().expect("the phase plays");
    assert!(played.dice_left.is_empty());
    let explosions = played
        .lines()
        .iter()
        .filter(|l| l.contains("explodes"))
        .count();
    assert_eq!(explosions, 1, "{:#?}", played.lines());
    assert!(played.mentions("a seeker missile of side A explodes against the frigate (B)"));
    assert!(b.seekers.is_empty());
}

// ---------------------------------------------------------------------------
// Mines
// ---------------------------------------------------------------------------

/// Advanced Game rules, Mines: once every ship of the moving side has moved,
/// a minefield attacks each enemy ship whose path took it into the hex, never
/// against the side that laid them, and the hex is then clear. Side A's
/// destroyer ends its move in A's own minefield at (3, 0) untouched; then the
/// frigate passes through it and side B's second destroyer stops in it, and
/// both are attacked once all B's ships have moved. The frigate launches 2
/// ICMs at -5 each: 60 - 10 = 50%, rolled 45, a hit; 50 - 20 = 30, a hull
/// hit of 3d10+5 = 20. The destroyer: 60%, rolled 61, a miss. A's other
/// minefield, at (10, -5), stays.
#[test]
fn mines_go_off_after_movement_against_every_enemy_that_entered() {
    let mut b = battle("destroyer", "frigate", 6);
    let b2 = add_ship(&mut b, "destroyer", Side::B, hex(5, 0), W, 0);
    lay_mines(&mut b, Side::A, hex(3, 0));
    lay_mines(&mut b, Side::A, hex(10, -5));
    let a_moves = Script::new().moves(0, 3, &[]);
    let b_moves = Script::new()
        .moves(1, 4, &[])
        .moves(b2, 2, &[])
        .icms(1, 1, 2);
    check_steps(
        "engagement_mines_go_off_after_movement_against_every_enemy_that_entered",
        "Advanced Game rules, Mines: once all ships have moved, the minefield attacks each \
         enemy ship whose path took it into the hex (not the layer's side), then it is spent; ICMs -5 each (60 - 10 = 50%, rolled 45; 50 - 20 = 30, hull 3d10+5 = 20); \
         the second destroyer 60%, rolled 61.",
        "side B's frigate and destroyer run through side A's minefield",
        &mut b,
        &[
            step(1, FirstMovement, &a_moves, &nothing()),
            step(1, SecondMovement, &nothing(), &b_moves),
        ],
        &[45, 50, 4, 5, 6, 61],
    );
    assert_eq!(b.board.ships[0].hull, 50, "the layer's own side is safe");
    assert_eq!(b.board.ships[1].hull, 20);
    assert_eq!(b.board.ships[b2].hull, 50);
    assert_eq!(b.mines.len(), 1);
    assert_eq!(b.mines[0].hex, hex(10, -5));
    assert_eq!(defence_supply(&b, 1, Defence::Icm), Some(2));
}

/// Advanced Game rules, Mines: the mines wait for an enemy to enter their
/// hex; a ship that starts its move in the mined hex and leaves it has not
/// entered it.
#[test]
fn a_ship_leaving_a_mined_hex_it_started_in_is_not_attacked() {
    let mut b = battle("destroyer", "frigate", 6);
    lay_mines(&mut b, Side::A, hex(6, 0));
    let played = play_phase(
        &mut b,
        SecondMovement,
        &nothing(),
        &Script::new().moves(1, 2, &[]),
        &[],
    );
    played.result.as_ref().expect("the phase plays");
    assert!(!played.mentions("detonate"));
    assert_eq!(b.mines.len(), 1);
    assert_eq!(b.poses[1].hex, hex(4, 0));
}

// ---------------------------------------------------------------------------
// Breaking apart
// ---------------------------------------------------------------------------

/// Advanced Game rules, Hull Hits: a destroyer (50 hull points) with 32
/// points of damage accelerates by 3 and turns once: (32 - 25) x (3 + 1) =
/// 28%. On a roll of 28 it breaks apart before it moves and is destroyed: it
/// neither moves nor fires, while side A's frigate fights on (laser battery
/// at range 8: 50 - 40 = 10%, rolled 90, a miss).
#[test]
fn a_severely_damaged_ship_breaks_apart_while_manoeuvring_and_acts_no_more() {
    let mut b = battle("destroyer", "frigate", 8);
    damage(&mut b, 0, &[Damage::Hull(32)]);
    let a2 = add_ship(&mut b, "frigate", Side::A, hex(0, 1), E, 0);
    let run = Script::new().moves(0, 3, &[(2, -1)]);
    let fire = Script::new()
        .shoots(0, "laser-battery", 1)
        .shoots(a2, "laser-battery", 1);
    let played = check_steps(
        "engagement_break_apart_while_manoeuvring_28_percent_roll_28",
        "Advanced Game rules, Hull Hits: (32 - 25) x (3 ADF + 1 MR) = 28%; a roll of 28 or \
         less breaks the ship apart and it is destroyed, so it does not move or fire.",
        "a destroyer with 32 damage accelerates and turns",
        &mut b,
        &[
            step(1, FirstMovement, &run, &nothing()),
            step(1, FirstCombat, &fire, &nothing()),
        ],
        &[28, 90],
    );
    assert!(b.board.ships[0].broken_apart);
    assert_eq!(b.poses[0].hex, hex(0, 0));
    assert!(!played.mentions("destroyer (A) fires"));
    assert!(played.mentions("frigate (A2) fires its Laser Battery"));
    check_destroyed_ships_do_not_act(&played.events).expect("the wreck does nothing");
}

/// Advanced Game rules, Hull Hits: on a roll over the chance the ship makes
/// its manoeuvre: from (0, 0) east, 3 hexes with a left turn after the
/// second, to (3, -1) facing north-east.
#[test]
fn a_roll_over_the_chance_completes_the_manoeuvre() {
    let mut b = battle("destroyer", "frigate", 8);
    damage(&mut b, 0, &[Damage::Hull(32)]);
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().moves(0, 3, &[(2, -1)]),
        &nothing(),
        &[29],
    );
    played.result.as_ref().expect("the phase plays");
    assert!(played.mentions("chance to break apart is 28"));
    assert!(!b.board.ships[0].broken_apart);
    assert_eq!((b.poses[0].hex, b.poses[0].facing), (hex(3, -1), NE));
}

// ---------------------------------------------------------------------------
// Defensive fire
// ---------------------------------------------------------------------------

/// Advanced Game rules, Defensive Fire: the non-moving side fires once the
/// mover has finished, at any hex the mover passed through, and its damage
/// takes effect after the move. The frigate runs from (0, 0) through (2, 0),
/// where it turns left, to (4, -2); the destroyer at (2, 3) facing
/// north-west has (2, 0) 3 hexes dead ahead, the nearest hex of the path:
/// laser cannon 60 - 15 + 10 = 55%, rolled 30, a hit; Damage Table 59,
/// "lose entire MR". The frigate's turn stands; it then fires its laser
/// battery from (4, -2) at range 5: 50 - 25 = 25%, rolled 70, a miss.
#[test]
fn defensive_fire_reaches_the_nearest_hex_of_the_path_after_the_move() {
    let mut b = battle("frigate", "destroyer", 6);
    place(&mut b, 1, hex(2, 3), NW, 0);
    let run = Script::new().moves(0, 4, &[(2, -1)]);
    let defend = Script::new().shoots(1, "laser-cannon", 0);
    let attack = Script::new().shoots(0, "laser-battery", 1);
    check_steps(
        "engagement_defensive_fire_at_the_nearest_hex_of_the_path",
        "Advanced Game rules, Defensive Fire: after the mover finishes, the other side fires at \
         any hex it passed through (range 3 to (2, 0), head-on: 60 - 15 + 10 = 55%); the damage \
         (Damage Table 59, lose entire MR) does not undo the move already made.",
        "the frigate runs past the destroyer, turning in front of its bow",
        &mut b,
        &[
            step(1, FirstMovement, &run, &nothing()),
            step(1, FirstCombat, &attack, &defend),
        ],
        &[30, 59, 70],
    );
    assert_eq!(
        (b.poses[0].hex, b.poses[0].facing, b.poses[0].speed),
        (hex(4, -2), NE, 4)
    );
    assert_eq!(b.board.ships[0].mr, 0);
    // What each side was offered: the destroyer every hex of the path, its
    // torpedoes (moving player only) not at all; the frigate only where the
    // destroyer stands.
    let d = |w: &str, r: u32, head_on: bool| (w.to_owned(), 0, r, head_on);
    assert_eq!(
        offered(&b, 1, true),
        vec![
            d("laser-cannon", 3, true),
            d("laser-battery", 3, false),
            d("electron-beam-battery", 3, false),
            d("rocket-battery", 3, false),
        ]
    );
    assert_eq!(
        offered(&b, 0, false),
        vec![("laser-battery".to_owned(), 1, 5, false)]
    );
}

// ---------------------------------------------------------------------------
// The Repair Turn
// ---------------------------------------------------------------------------

/// Advanced Game rules, Repairs: in the Repair Turn after every third game
/// turn both sides repair at once, each ship dividing its DCR among its
/// attempts, each rolled on d100 at or under its points; 90-00 always
/// fails, and 99-00 puts the system beyond repair in space. The battleship
/// (DCR 200) gives 100 to its drive (rolls 90: fails), 60 to its steering
/// (99: fails, beyond repair) and 40 to its fire (12: out); the destroyer
/// (DCR 75) 45 to its hull (30: repaired, 1d10 = 7) and 30 to its
/// navigation (00: fails, beyond repair).
#[test]
fn the_repair_turn_rolls_each_sides_attempts() {
    let mut b = battle("battleship", "destroyer", 10);
    damage(&mut b, 0, &[Damage::Fire, Damage::Adf(1), Damage::Mr(1)]);
    damage(&mut b, 1, &[Damage::Hull(20), Damage::Navigation]);
    let a = Script::new()
        .repairs(0, Repairable::Drive, 100)
        .repairs(0, Repairable::Steering, 60)
        .repairs(0, Repairable::Fire, 40);
    let bb = Script::new()
        .repairs(1, Repairable::Hull, 45)
        .repairs(1, Repairable::Navigation, 30);
    check_steps(
        "engagement_repair_turn_after_every_third_turn",
        "Advanced Game rules, Repairs: DCR divided among attempts, each its percent chance; \
         90-00 always fails (drive, 90 of 100); 99-00 also puts the system beyond repair in \
         space (steering 99, navigation 00); a hull repair restores 1d10.",
        "a damaged battleship and destroyer repair after turn 3",
        &mut b,
        &[step(3, Repair, &a, &bb)],
        &[90, 99, 12, 30, 7, 100],
    );
    let system = percentile();
    let (battleship, destroyer) = (&b.board.ships[0], &b.board.ships[1]);
    assert_eq!((battleship.adf, battleship.mr), (1, 1));
    assert!(!battleship.damaged.fire);
    assert!(!system.needs_repair(battleship, Repairable::Steering));
    assert!(system.needs_repair(battleship, Repairable::Drive));
    assert_eq!(destroyer.hull, 37);
    assert!(destroyer.damaged.navigation);
    assert!(!system.needs_repair(destroyer, Repairable::Navigation));
}

// ---------------------------------------------------------------------------
// Movement
// ---------------------------------------------------------------------------

/// Advanced Game rules, Navigation Hit: a d10 rolled as the move starts
/// forces a turn after each hex entered, left on 1-5 and right on 6-10, for
/// as many hexes as the ship has MR. A destroyer (MR 3) accelerating from 2 to 4 rolls 5: left after
/// hexes 1, 2 and 3, ending at (1, -2) facing west; the turns it asked for
/// (none) do not matter.
#[test]
fn a_navigation_hit_turns_the_ship_left_in_every_hex_until_its_mr_is_spent() {
    let mut b = battle("destroyer", "frigate", 12);
    damage(&mut b, 0, &[Damage::Navigation]);
    place(&mut b, 0, hex(0, 0), E, 2);
    check_steps(
        "engagement_navigation_hit_turns_left_until_mr_is_spent",
        "Advanced Game rules, Navigation Hit: a d10 as the move starts forces a turn after \
         each hex entered, as many as the MR (3), left on 1-5 (rolled 5), right on 6-10.",
        "a destroyer with a navigation hit accelerates from 2 to 4",
        &mut b,
        &[step(
            1,
            FirstMovement,
            &Script::new().moves(0, 4, &[]),
            &nothing(),
        )],
        &[5],
    );
    assert_eq!((b.poses[0].hex, b.poses[0].facing), (hex(1, -2), W));
}

/// Advanced Game rules, Navigation Hit: 6-10 turns right; with MR 1 only the
/// first hex; with no MR left no turn can be forced, so no die is rolled and
/// the ship flies straight; a stopped ship ignores the hit (no die is
/// rolled, and it may still face anywhere); and the forced turns count
/// toward breaking apart.
#[test]
fn navigation_hit_right_turns_mr_limit_stopped_ships_and_break_apart() {
    let run = |nav_mr_lost: u8, dice: &[u32]| {
        let mut b = battle("destroyer", "frigate", 12);
        damage(&mut b, 0, &[Damage::Navigation, Damage::Mr(nav_mr_lost)]);
        place(&mut b, 0, hex(0, 0), E, 2);
        let played = play_phase(
            &mut b,
            FirstMovement,
            &Script::new().moves(0, 4, &[]),
            &nothing(),
            dice,
        );
        played.result.as_ref().expect("the phase plays");
        assert!(played.dice_left.is_empty());
        (b.poses[0].hex, b.poses[0].facing)
    };
    assert_eq!(run(0, &[6]), (hex(-1, 2), W));
    assert_eq!(run(0, &[10]), (hex(-1, 2), W));
    assert_eq!(run(0, &[1]), (hex(1, -2), W));
    // MR 1: one right turn after the first hex, then straight on.
    assert_eq!(run(2, &[10]), (hex(1, 3), SE));
    // MR 0: no die (the script has none), four hexes straight on.
    assert_eq!(run(3, &[]), (hex(4, 0), E));

    // Stopped: no roll (the script has no dice), and free facing still works.
    let mut b = battle("destroyer", "frigate", 12);
    damage(&mut b, 0, &[Damage::Navigation]);
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().moves(0, 0, &[]),
        &nothing(),
        &[],
    );
    played
        .result
        .as_ref()
        .expect("a stopped ship rolls nothing");
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().faces(0, SW),
        &nothing(),
        &[],
    );
    played
        .result
        .as_ref()
        .expect("a stopped ship may face anywhere");
    assert_eq!(b.poses[0].facing, SW);

    // Severely damaged (30 of 50 lost, 5 over half) at constant speed 3:
    // three forced turns, (30 - 25) x 3 = 15%.
    let mut b = battle("destroyer", "frigate", 12);
    damage(&mut b, 0, &[Damage::Navigation, Damage::Hull(30)]);
    place(&mut b, 0, hex(0, 0), E, 3);
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().moves(0, 3, &[]),
        &nothing(),
        &[6, 16],
    );
    played.result.as_ref().expect("the phase plays");
    assert!(played.dice_left.is_empty());
    assert!(played.mentions("chance to break apart is 15"));
    assert!(!b.board.ships[0].broken_apart);
}

/// Advanced Game rules, Steering Hit and Drifting: a ship with no ADF and no
/// MR drifts on at the same speed and heading; any change of speed or
/// heading is an illegal answer. The default tactics let it drift.
#[test]
fn a_ship_with_no_adf_and_no_mr_drifts() {
    let drifting = || {
        let mut b = battle("destroyer", "frigate", 12);
        damage(&mut b, 0, &[Damage::Adf(3), Damage::Mr(3)]);
        place(&mut b, 0, hex(0, 0), E, 3);
        b
    };
    let mut b = drifting();
    let played = play_phase(&mut b, FirstMovement, &nothing(), &nothing(), &[]);
    played.result.as_ref().expect("the phase plays");
    assert_eq!((b.poses[0].hex, b.poses[0].facing), (hex(3, 0), E));

    let mut b = drifting();
    let none = nothing();
    let tactics: [&(dyn PercentileTactics + 'static); 2] = [&DefaultTactics, &none];
    let played = play_with(&mut b, &[(1, FirstMovement)], tactics, &[]);
    played.result.as_ref().expect("the default tactics drift");
    assert_eq!(
        (b.poses[0].hex, b.poses[0].facing, b.poses[0].speed),
        (hex(3, 0), E, 3)
    );

    for (script, why) in [
        (Script::new().moves(0, 4, &[]), "speed 3 to 4 with ADF 0"),
        (Script::new().moves(0, 2, &[]), "speed 3 to 2 with ADF 0"),
        (Script::new().moves(0, 3, &[(1, 1)]), "1 turns with MR 0"),
        (
            Script::new().moves_and_faces(0, 3, W),
            "only a ship stopped all turn",
        ),
    ] {
        let mut b = drifting();
        let played = play_phase(&mut b, FirstMovement, &script, &nothing(), &[]);
        let message = played.internal_error();
        assert!(message.contains(why), "{message}");
    }
}

/// Advanced Game rules, Movement: a ship stopped for the whole turn may turn
/// to any facing; Steering Hit: not with MR 0, even stopped.
#[test]
fn a_stopped_ship_may_face_anywhere_unless_its_mr_is_gone() {
    let mut b = battle("destroyer", "frigate", 12);
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().faces(0, SW),
        &nothing(),
        &[],
    );
    played.result.as_ref().expect("the phase plays");
    assert!(played.mentions("destroyer (A): turns in place to face 2"));
    assert_eq!(
        (b.poses[0].hex, b.poses[0].facing, b.poses[0].speed),
        (hex(0, 0), SW, 0)
    );

    let mut b = battle("destroyer", "frigate", 12);
    damage(&mut b, 0, &[Damage::Mr(3)]);
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().faces(0, SW),
        &nothing(),
        &[],
    );
    assert!(
        played
            .internal_error()
            .contains("only a ship stopped all turn with MR left")
    );
    assert_eq!(b.poses[0].facing, E);

    // Moving this turn, or having moved into it, is not "stopped all turn".
    let mut b = battle("destroyer", "frigate", 12);
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().moves_and_faces(0, 1, SW),
        &nothing(),
        &[],
    );
    played.internal_error();
    let mut b = battle("destroyer", "frigate", 12);
    place(&mut b, 0, hex(0, 0), E, 1);
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().faces(0, SW),
        &nothing(),
        &[],
    );
    played.internal_error();
}

/// Advanced Game rules, Fire (masking screen): the screen stays with the ship
/// only as long as it neither turns nor changes speed. The frigate releases one
/// moving at speed 1 (supply 2 to 1); the other frigate's laser cannon
/// fires into it at range 4, head-on: 25 - 20 + 10 = 15%, rolled 15, a hit;
/// a hull hit of 2d10 = 14, halved (rounded up) to 7. Holding course and
/// speed keeps the screen; the turn on turn 3 leaves it behind.
#[test]
fn a_masking_screen_lasts_only_while_course_and_speed_hold() {
    let mut b = battle("frigate", "frigate", 5);
    place(&mut b, 0, hex(0, 0), E, 1);
    let release = Script::new().moves(0, 1, &[]).releases_masking_screen(0);
    let fire = Script::new().shoots(1, "laser-cannon", 0);
    let hold = Script::new().moves(0, 1, &[]);
    let turn = Script::new().moves(0, 1, &[(1, -1)]);
    let played = check_steps(
        "engagement_masking_screen_lasts_while_course_and_speed_hold",
        "Advanced Game rules, Fire (masking screen): lasers into it use its Combat Table cell \
         (25%, half damage rounded up: 14 -> 7); it stays with a ship that neither turns nor \
         changes speed and is left behind by a turn; a limited supply.",
        "a frigate hides in a masking screen, then turns out of it",
        &mut b,
        &[
            step(1, FirstMovement, &release, &nothing()),
            step(1, FirstCombat, &nothing(), &fire),
            step(2, FirstMovement, &hold, &nothing()),
            step(3, FirstMovement, &turn, &nothing()),
        ],
        &[15, 20, 6, 8],
    );
    assert_eq!(b.board.ships[0].hull, 33);
    assert!(!b.board.ships[0].masked);
    assert_eq!(defence_supply(&b, 0, Defence::MaskingScreen), Some(1));
    let left_behind = played
        .lines()
        .iter()
        .position(|l| l.contains("leaves its masking screen behind"))
        .expect("the screen is left behind");
    let turn_3 = played
        .lines()
        .iter()
        .position(|l| l.starts_with("turn 3"))
        .expect("turn 3 is played");
    assert!(left_behind > turn_3, "kept until the turn on turn 3");

    // Releasing a second screen while inside one, or with none left, is an
    // illegal answer.
    let mut b = battle("frigate", "frigate", 5);
    b.board.ships[0].masked = true;
    let played = play_phase(&mut b, FirstMovement, &release, &nothing(), &[]);
    assert!(played.internal_error().contains("masking screen"));
    let mut b = battle("frigate", "frigate", 5);
    place(&mut b, 0, hex(0, 0), E, 1);
    let mount = b.board.ships[0]
        .defence_mut(Defence::MaskingScreen)
        .expect("a frigate carries masking screens");
    mount.supply = Some(0);
    let played = play_phase(&mut b, FirstMovement, &release, &nothing(), &[]);
    assert!(played.internal_error().contains("masking screen"));
}

// ---------------------------------------------------------------------------
// Combat phases
// ---------------------------------------------------------------------------

/// Advanced Game rules, Electrical Fire: each turn, as the other side's
/// combat phase opens, a burning ship takes a Damage Table roll at +20; not
/// in its own side's combat phase. In
/// side A's combat phase the burning frigate (B) rolls 15 + 20 = 35, a hull
/// hit of the fire's 1d10 = 6; in side B's, the burning destroyer (A) rolls
/// 80 + 20 = 100, a second fire, which a ship cannot have, so a hull hit of
/// 1d10 = 3.
#[test]
fn an_electrical_fire_burns_at_the_start_of_the_opponents_combat_phase() {
    let mut b = battle("destroyer", "frigate", 12);
    damage(&mut b, 0, &[Damage::Fire]);
    damage(&mut b, 1, &[Damage::Fire]);
    let played = check_steps(
        "engagement_electrical_fire_burns_in_the_opponents_combat_phase",
        "Advanced Game rules, Electrical Fire: a Damage Table roll at +20 as the other side's \
         combat phase opens, each turn (15 + 20 = 35, hull 1d10 = 6; 80 + 20 = 100, a \
         second fire becomes a hull hit, 1d10 = 3).",
        "both ships burn",
        &mut b,
        &[
            step(1, FirstCombat, &nothing(), &nothing()),
            step(1, SecondCombat, &nothing(), &nothing()),
        ],
        &[15, 6, 80, 3],
    );
    assert_eq!((b.board.ships[0].hull, b.board.ships[1].hull), (47, 34));
    let lines = played.lines();
    assert!(lines[1].starts_with("frigate (B) burns"), "{lines:#?}");
}

/// Advanced Game rules, New Statistics for Basic Game Weapons and Sequence
/// of play: MPO weapons (torpedoes, assault rockets) fire only in their
/// owner's combat phase, not as defensive fire.
#[test]
fn moving_player_only_weapons_fire_only_in_their_owners_phase() {
    let b = battle("destroyer", "frigate", 3);
    let weapons = |defensive| -> Vec<String> {
        offered(&b, 0, defensive)
            .into_iter()
            .map(|(w, ..)| w)
            .collect()
    };
    assert!(weapons(false).contains(&"torpedo".to_owned()));
    assert!(!weapons(true).contains(&"torpedo".to_owned()));
    assert!(weapons(true).contains(&"rocket-battery".to_owned()));
    let b = battle("assault-scout", "frigate", 3);
    let ar = |defensive| {
        offered(&b, 0, defensive)
            .iter()
            .any(|(w, ..)| w == "assault-rocket")
    };
    assert!(ar(false));
    assert!(!ar(true));
}

/// Advanced Game rules, Defensive Fire, and Fire: the non-moving side may
/// shoot at any hex of the mover's path, so it takes the hex where its
/// chance is best. A laser cannon (range diffusion, -5% a hex) gains +10%
/// head-on. The destroyer at (0, 0) faces east; the frigate's path runs
/// through a head-on hex and an off-line hex 3 away, (3, -1): at 3 hexes
/// off-line the cannon has 60 - 15 = 45%; head-on at 6 hexes only
/// 60 - 30 + 10 = 40%, so it fires off-line; head-on at 4 hexes it has
/// 60 - 20 + 10 = 50%, so it fires head-on.
#[test]
fn defensive_fire_takes_the_hex_of_the_path_with_the_best_chance() {
    for (head_on_hex, expected) in [(hex(6, 0), (3, false)), (hex(4, 0), (4, true))] {
        let mut b = battle("destroyer", "frigate", 3);
        place(&mut b, 1, hex(3, -1), W, 0);
        b.paths[1] = vec![head_on_hex, hex(3, -1)];
        let cannon = offered(&b, 0, true)
            .into_iter()
            .find(|(w, ..)| w == "laser-cannon")
            .map(|(_, _, range, head_on)| (range, head_on));
        assert_eq!(cannon, Some(expected), "head-on hex {head_on_hex}");
    }
}

/// Advanced Game rules, Fire: a forward-firing weapon bears only on the band
/// three hexes wide before its bow, head-on along the middle lane of it;
/// batteries fire all round. A destroyer at (0, 0) facing east, the frigate
/// 3 hexes away in four places.
#[test]
fn forward_firing_weapons_fire_only_into_their_forward_arc() {
    let mut b = battle("destroyer", "frigate", 3);
    for (at, cannon) in [
        (hex(3, 0), Some(true)),
        (hex(3, -1), Some(false)),
        (hex(0, 3), None),
        (hex(-3, 0), None),
    ] {
        place(&mut b, 1, at, W, 0);
        let shots = offered(&b, 0, false);
        let lc = shots
            .iter()
            .find(|(w, ..)| w == "laser-cannon")
            .map(|&(_, _, _, head_on)| head_on);
        assert_eq!(lc, cannon, "frigate at {at}");
        assert!(
            shots
                .iter()
                .any(|(w, _, r, _)| w == "laser-battery" && *r == 3),
            "frigate at {at}"
        );
    }
}

/// Advanced Game rules, Fire: each weapon fires once a phase; a limited
/// supply weapon (two torpedoes) is one system offered once a target, and
/// choosing the same weapon twice is an illegal answer.
#[test]
fn each_weapon_fires_once_a_phase() {
    let b = battle("frigate", "destroyer", 2);
    let shots = offered(&b, 0, false);
    let torpedoes = shots.iter().filter(|(w, ..)| w == "torpedo").count();
    assert_eq!(torpedoes, 1);
    let torpedo = shots
        .iter()
        .position(|(w, ..)| w == "torpedo")
        .expect("the torpedo is offered");
    let mut b = battle("frigate", "destroyer", 2);
    let twice = Script::new().picks(0, torpedo).picks(0, torpedo);
    let played = play_phase(&mut b, FirstCombat, &twice, &nothing(), &[50, 50, 50, 50]);
    assert!(played.internal_error().contains("fired one weapon twice"));
    assert_eq!(played.dice_left.len(), 4, "nothing is rolled");
    assert_eq!(weapon_supply(&b, 0, "torpedo"), Some(2));
}

/// Advanced Game rules, ICMs in the Advanced Game: a ship's ICMs may protect
/// another ship sharing its hex. The frigate and a second destroyer of side B share
/// (2, 0); the destroyer launches 2 ICMs against each missile fired at the
/// frigate: torpedo 50 - 20 = 30%, rolled 31, a miss; rocket battery 40 - 6
/// = 34%, rolled 35, a miss. Supplies spent: the attacker's torpedo (2 to 1)
/// and rocket battery (4 to 3), the launcher's ICMs (5 to 1); the frigate's
/// own ICMs are untouched.
#[test]
fn icms_from_another_ship_in_the_targets_hex() {
    let mut b = battle("destroyer", "frigate", 2);
    let b2 = add_ship(&mut b, "destroyer", Side::B, hex(2, 0), W, 0);
    let fire = Script::new()
        .shoots(0, "torpedo", 1)
        .shoots(0, "rocket-battery", 1);
    let cover = Script::new().icms(1, b2, 2);
    check_steps(
        "engagement_icms_launched_by_a_friend_in_the_targets_hex",
        "Advanced Game rules, ICMs in the Advanced Game: any ship in the target's hex may \
         launch ICMs for it (torpedo 50 - 2 x 10 = 30%, rolled 31; rocket battery 40 - 2 x 3 = \
         34%, rolled 35); supplies are spent hit or miss.",
        "side B's destroyer covers the frigate beside it",
        &mut b,
        &[step(1, FirstCombat, &fire, &cover)],
        &[31, 35],
    );
    assert_eq!(weapon_supply(&b, 0, "torpedo"), Some(1));
    assert_eq!(weapon_supply(&b, 0, "rocket-battery"), Some(3));
    assert_eq!(defence_supply(&b, b2, Defence::Icm), Some(1));
    assert_eq!(defence_supply(&b, 1, Defence::Icm), Some(4));
}

/// Advanced Game rules, Mines and Seeker missiles: both are limited
/// supplies, spent as they are dropped in the minelayer's hex before it
/// moves.
#[test]
fn dropping_mines_and_seekers_spends_their_supply() {
    let mut b = battle("minelayer", "frigate", 12);
    let drop = Script::new()
        .drops(0, "mine")
        .drops(0, "seeker-missile")
        .moves(0, 1, &[]);
    let played = play_phase(&mut b, FirstMovement, &drop, &nothing(), &[]);
    played.result.as_ref().expect("the phase plays");
    assert_eq!(weapon_supply(&b, 0, "mine"), Some(19));
    assert_eq!(weapon_supply(&b, 0, "seeker-missile"), Some(3));
    assert_eq!(b.mines.len(), 1);
    assert_eq!((b.mines[0].hex, b.mines[0].owner), (hex(0, 0), Side::A));
    assert_eq!(b.seekers.len(), 1);
    assert_eq!(b.seekers[0].hex, hex(0, 0));
    assert!(!b.seekers[0].active);
    assert_eq!(b.poses[0].hex, hex(1, 0));
}

// ---------------------------------------------------------------------------
// Illegal answers
// ---------------------------------------------------------------------------

/// The tactics contract (the `PercentileTactics` trait): an answer the rules
/// forbid is a bug of the tactics, reported as an internal error, never
/// quietly corrected: a speed change beyond ADF, more turns than MR, two
/// turns in one hex, a shot not offered, one weapon fired twice, dropping a
/// weapon that is fired.
#[test]
fn illegal_answers_are_internal_errors() {
    let moving = |speed: u32, script: Script, why: &str| {
        let mut b = battle("destroyer", "frigate", 12);
        place(&mut b, 0, hex(0, 0), E, speed);
        let before = b.poses[0];
        let played = play_phase(&mut b, FirstMovement, &script, &nothing(), &[1, 1, 1]);
        let message = played.internal_error();
        assert!(message.contains(why), "{message}");
        assert_eq!(b.poses[0], before, "{why}: the ship did not move");
        assert_eq!(played.dice_left.len(), 3, "{why}: nothing was rolled");
    };
    moving(0, Script::new().moves(0, 4, &[]), "speed 0 to 4 with ADF 3");
    moving(5, Script::new().moves(0, 1, &[]), "speed 5 to 1 with ADF 3");
    moving(
        3,
        Script::new().moves(0, 4, &[(1, 1), (2, 1), (3, 1), (4, 1)]),
        "4 turns with MR 3",
    );
    moving(
        3,
        Script::new().moves(0, 3, &[(2, 1), (2, -1)]),
        "a turn at hex 2 of 3",
    );
    moving(
        3,
        Script::new().moves(0, 3, &[(4, 1)]),
        "a turn at hex 4 of 3",
    );
    moving(
        3,
        Script::new().moves(0, 3, &[(1, 2)]),
        "a turn at hex 1 of 3",
    );

    let mut b = battle("destroyer", "frigate", 3);
    let played = play_phase(
        &mut b,
        FirstCombat,
        &Script::new().picks(0, 99),
        &nothing(),
        &[50],
    );
    assert!(played.internal_error().contains("not offered"));

    let mut b = battle("destroyer", "frigate", 3);
    let played = play_phase(
        &mut b,
        FirstMovement,
        &Script::new().drops(0, "torpedo"),
        &nothing(),
        &[],
    );
    assert!(played.internal_error().contains("fired, not placed"));
    assert_eq!(weapon_supply(&b, 0, "torpedo"), Some(2));
}

/// The tactics contract names repairs within DCR on damaged systems among
/// the legal answers, and anything else an internal error: a Repair Turn
/// answer giving more points than the DCR, or repairing what needs no
/// repair, is the tactics' bug, not the user's bad input.
#[test]
fn an_illegal_repair_answer_is_an_internal_error() {
    for (script, why) in [
        (
            Script::new().repairs(0, Repairable::Hull, 76),
            "more points than DCR 75",
        ),
        (
            Script::new().repairs(0, Repairable::Drive, 10),
            "an undamaged drive",
        ),
    ] {
        let mut b = battle("destroyer", "frigate", 12);
        damage(&mut b, 0, &[Damage::Hull(10)]);
        let played = play_steps(&mut b, &[step(3, Repair, &script, &nothing())], &[1, 1]);
        assert!(
            matches!(
                played.result,
                Err(broadside_core::ResolveError::Internal(_))
            ),
            "{why}: expected an internal error, got {:?}",
            played.result
        );
    }
}

/// The tactics contract: ICMs are launched by a ship in the target's hex
/// from what it has; an answer launching more than it has is the tactics'
/// bug and must be refused as an internal error, not cut down to what the
/// launcher has.
#[test]
fn launching_more_icms_than_the_launcher_has_is_an_internal_error() {
    let mut b = battle("destroyer", "frigate", 2);
    let fire = Script::new().shoots(0, "torpedo", 1);
    let too_many = Script::new().icms(1, 1, 9);
    let played = play_phase(&mut b, FirstCombat, &fire, &too_many, &[99]);
    assert!(
        matches!(
            played.result,
            Err(broadside_core::ResolveError::Internal(_))
        ),
        "expected an internal error, got {:?}; events: {:#?}",
        played.result,
        played.lines()
    );
}

/// Sequence of play: a ship destroyed during its side's movement phase acts
/// no more. Side A's own active seeker, one hex from its minelayer (1 hull
/// point left), flies into it and destroys it (75%, rolled 10; 50 - 20 =
/// 30, a hull hit of 5d10 = 5); the wreck must not then lay the mines its
/// tactics asked for.
#[test]
fn a_ship_destroyed_by_a_seeker_lays_no_mines_afterwards() {
    let mut b = battle("minelayer", "frigate", 12);
    damage(&mut b, 0, &[Damage::Hull(49)]);
    place_seeker(&mut b, Side::A, hex(1, 0), W, 0, true);
    let drop = Script::new().drops(0, "mine");
    let played = play_phase(
        &mut b,
        FirstMovement,
        &drop,
        &nothing(),
        &[10, 50, 1, 1, 1, 1, 1],
    );
    played.result.as_ref().expect("the phase plays");
    assert!(b.board.ships[0].is_destroyed());
    assert!(
        b.mines.is_empty(),
        "the destroyed minelayer laid mines: {:#?}",
        played.lines()
    );
    assert_eq!(weapon_supply(&b, 0, "mine"), Some(20));
    check_destroyed_ships_do_not_act(&played.events).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(played.verdict, Some(Verdict::Winner(Side::B)));
}

// ---------------------------------------------------------------------------
// Whole duels
// ---------------------------------------------------------------------------

/// A whole seeded duel, destroyer against frigate (seed 5, trial 9: the
/// destroyer is destroyed on turn 3), every event of its log: Advanced Game
/// rules throughout (Sequence of play, Defensive Fire, the Damage Table,
/// masking screens, ICMs).
#[test]
fn duel_log_destroyer_against_frigate() {
    check_duel_log(
        "engagement_duel_destroyer_frigate_seed_5_trial_9",
        "Advanced Game rules, Sequence of play, Movement, Fire, Defensive Fire and the Damage \
         Table: a whole seeded duel with the default tactics, every roll shown.",
        "destroyer",
        "frigate",
        5,
        9,
    );
}

/// A whole seeded duel with a minelayer (seed 5, trial 18): seekers placed,
/// activated and exploding, mines laid and going off against the frigate,
/// navigation hits forcing turns, a break-apart check and a Repair Turn.
#[test]
fn duel_log_minelayer_against_frigate() {
    check_duel_log(
        "engagement_duel_minelayer_frigate_seed_5_trial_18",
        "Advanced Game rules, Mines, Seeker missiles, Navigation Hit, Hull Hits (breaking \
         apart) and Repairs within a whole seeded duel with the default tactics.",
        "minelayer",
        "frigate",
        5,
        18,
    );
}

/// A battleship (120 hull points, eight torpedoes, a disruptor cannon)
/// beats a frigate far more often than not: over 400 trials of seed 11,
/// side A wins more than 90%.
#[test]
fn a_battleship_beats_a_frigate_far_more_often_than_not() {
    let engagement = duel("battleship", "frigate", 12, 50);
    let tally = run_trials(&engagement, 11, 400, &|_| {}).expect("the trials play");
    let s = tally.summary(broadside_core::Setup::roster(&engagement));
    assert!(
        s.outcomes.a_wins.p > 0.9,
        "battleship wins {} of 400",
        s.outcomes.a_wins.count
    );
}

/// The same ship on both sides, who moves first rolled each trial: over 1000
/// trials of seed 13 the two sides win within 10 percentage points of each
/// other.
#[test]
fn a_destroyer_mirror_match_is_close_to_even() {
    let engagement = duel("destroyer", "destroyer", 12, 50);
    let tally = run_trials(&engagement, 13, 1000, &|_| {}).expect("the trials play");
    let o = tally
        .summary(broadside_core::Setup::roster(&engagement))
        .outcomes;
    assert!(
        (o.a_wins.p - o.b_wins.p).abs() < 0.1,
        "A wins {}, B wins {} of 1000",
        o.a_wins.count,
        o.b_wins.count
    );
}

// ---------------------------------------------------------------------------
// When a side is beaten
// ---------------------------------------------------------------------------

/// Seed 000, "Recording Damage": "Damage will remain in effect until it is
/// repaired (see Repair)"; the reference note's repair example: "50 on
/// torpedoes (rolls 24: repaired)". A fighter whose only weapon system, its
/// assault rockets, is destroyed is not beaten while the Repair Turn can
/// restore them: after its movement phase the engagement goes on, and in the
/// Repair Turn it gives all its DCR, 30 points, to the rockets and rolls 24:
/// 24 is at or under 30 and below 90, so they are repaired, with their three
/// rockets.
#[test]
fn a_side_is_not_beaten_while_it_can_repair_a_weapon() {
    let mut b = battle("fighter", "assault-scout", 12);
    damage(&mut b, 0, &[Damage::Weapon("assault-rocket")]);
    assert!(!b.board.ships[0].is_armed());
    let repair = Script::new().repairs(0, Repairable::Weapon(0), 30);
    let played = check_steps(
        "engagement_a_destroyed_weapon_the_repair_turn_restores",
        "Seed 000, Recording Damage: damage stays until repaired; reference note, Repairs: a \
         repair at or under its DCR points succeeds (30 points, rolled 24). A fighter whose \
         assault rockets are destroyed is not beaten while they can be repaired.",
        "a fighter with its assault rockets destroyed, before and in a Repair Turn",
        &mut b,
        &[
            step(3, FirstMovement, &nothing(), &nothing()),
            step(3, Repair, &repair, &nothing()),
        ],
        &[24],
    );
    assert_eq!(played.verdict, None);
    assert!(b.board.ships[0].is_armed());
    assert_eq!(weapon_supply(&b, 0, "assault-rocket"), Some(3));
}

/// Seed 000 and the reference note, Repairs: a roll of 99-00 means the
/// system "cannot be repaired in space", and an LTD system with no supply
/// left fires nothing even when repaired. A fighter whose destroyed assault
/// rockets are beyond repair, or have no rocket left, can never fight again:
/// side B wins at the end of the next phase. So does the assault scout's
/// side if the fighter's rockets are fine but spent.
#[test]
fn a_side_with_no_weapon_it_can_fire_or_repair_is_beaten() {
    for case in ["beyond repair", "destroyed and spent", "spent"] {
        let mut b = battle("fighter", "assault-scout", 12);
        let rockets = &mut b.board.ships[0].weapons[0];
        match case {
            "beyond repair" => {
                rockets.destroyed = true;
                rockets.beyond_repair = true;
            }
            "destroyed and spent" => {
                rockets.destroyed = true;
                rockets.supply = Some(0);
            }
            _ => rockets.supply = Some(0),
        }
        let played = play_phase(&mut b, FirstMovement, &nothing(), &nothing(), &[]);
        played.result.as_ref().expect("the phase plays");
        assert_eq!(played.verdict, Some(Verdict::Winner(Side::B)), "{case}");
    }
}

/// Seed 000, Mines: mines laid go off when an enemy ship enters their hex,
/// and Seeker missiles: a placed seeker waits for its owner to activate it.
/// A minelayer with every weapon destroyed beyond repair still has a mine
/// pattern laid, then a seeker placed: while either is in play its side is
/// not beaten. With neither, side B wins.
#[test]
fn mines_laid_and_seekers_placed_keep_a_side_in_the_fight() {
    let mut b = battle("minelayer", "destroyer", 12);
    for mount in b.board.ships[0].weapons.iter_mut() {
        mount.destroyed = true;
        mount.beyond_repair = true;
    }
    lay_mines(&mut b, Side::A, hex(6, 0));
    let played = play_phase(&mut b, FirstMovement, &nothing(), &nothing(), &[]);
    played.result.as_ref().expect("the phase plays");
    assert_eq!(played.verdict, None, "mines laid");

    b.mines.clear();
    place_seeker(&mut b, Side::A, hex(6, 0), E, 0, false);
    let played = play_phase(&mut b, FirstMovement, &nothing(), &nothing(), &[]);
    assert_eq!(played.verdict, None, "a seeker placed, not yet activated");

    b.seekers.clear();
    let played = play_phase(&mut b, FirstMovement, &nothing(), &nothing(), &[]);
    assert_eq!(
        played.verdict,
        Some(Verdict::Winner(Side::B)),
        "nothing left"
    );
}

/// Two fighters whose assault rockets are destroyed can fight again only
/// if a repair succeeds. With tactics that never try one, the engagement
/// cannot be decided, and the turn limit ends it as undecided after 3 game
/// turns (no die is rolled: the ships stay stopped and nothing fires). With
/// both fighters' rockets beyond repair, neither side can ever fight again,
/// and the engagement is a draw before the first phase, each fighter lost
/// as disarmed, unless its side still has mines or seekers to go off.
#[test]
fn disarmed_ships_never_loop_forever() {
    let mut b = battle("fighter", "fighter", 12);
    damage(&mut b, 0, &[Damage::Weapon("assault-rocket")]);
    damage(&mut b, 1, &[Damage::Weapon("assault-rocket")]);
    let out = play_out(&mut b, [&nothing(), &nothing()], 3, &[]);
    assert_eq!(
        out.result.expect("the engagement plays"),
        (Verdict::Undecided, 3)
    );
    assert!(out.dice_left.is_empty());

    for ship in &mut b.board.ships {
        ship.weapons[0].beyond_repair = true;
    }
    let out = play_out(&mut b, [&nothing(), &nothing()], 3, &[]);
    assert_eq!(
        out.result.expect("the engagement plays"),
        (Verdict::Draw, 0)
    );
    assert!(out.events.is_empty());

    // Each fighter is reported disarmed; a side with mines still laid is
    // not beaten yet, so its fighter is not.
    let fighter = ["fighter".to_owned()];
    let roster = Roster::new(&fighter, &fighter);
    let losses = |b: &Battle| -> Vec<Option<Loss>> {
        percentile()
            .fates(&roster, b)
            .iter()
            .map(|f| f.loss)
            .collect()
    };
    assert_eq!(losses(&b), [Some(Loss::Disarmed), Some(Loss::Disarmed)]);
    lay_mines(&mut b, Side::A, hex(6, 6));
    assert_eq!(losses(&b), [None, Some(Loss::Disarmed)]);
}

// ---------------------------------------------------------------------------
// Seekers a ship runs into
// ---------------------------------------------------------------------------

/// Seed 000, Seeker missiles: "A seeker detonates as soon as it enters a
/// hex containing a ship, or a ship enters the hex containing the activated
/// seeker": every activated seeker in the hex, not only the first. The
/// frigate accelerates 0 to 3 east from (0, 0), turning right after its
/// third hex, through two active seekers of side B at (2, 0). The first:
/// 75% against a reflective hull, rolled 30, a hit; Damage Table 79 - 20 =
/// 59, "Steering hit: lose entire MR", MR 3 to 0. The second: rolled 80
/// against 75, a miss. Both are gone. The hit lands mid-move and takes
/// effect at once (ruling 36): "A ship with an MR of 0 cannot turn", so the
/// frigate goes on to (3, 0) but does not make the turn it declared there,
/// and ends facing east.
#[test]
fn every_active_seeker_in_the_hex_a_ship_enters_goes_off() {
    let mut b = battle("frigate", "destroyer", 12);
    place_seeker(&mut b, Side::B, hex(2, 0), W, 1, true);
    place_seeker(&mut b, Side::B, hex(2, 0), W, 1, true);
    let run = Script::new().moves(0, 3, &[(3, 1)]);
    check_steps(
        "engagement_every_active_seeker_in_the_hex_goes_off",
        "Seed 000, Seeker missiles: a seeker detonates when a ship enters the hex of the \
         activated seeker, so both seekers there go off (75%: rolled 30, a hit, 79 - 20 = 59, \
         lose entire MR; rolled 80, a miss); the move goes on without the turn the lost MR \
         would have made (ruling 36; seed 000: \"A ship with an MR of 0 cannot turn\").",
        "the frigate runs into two active seekers in one hex",
        &mut b,
        &[step(1, FirstMovement, &run, &nothing())],
        &[30, 79, 80],
    );
    assert!(b.seekers.is_empty());
    assert_eq!(b.board.ships[0].mr, 0);
    assert_eq!(b.board.ships[0].hull, 40);
    assert_eq!(b.poses[0].hex, hex(3, 0));
    assert_eq!(b.poses[0].facing, E);
}

/// Seed 000, Damage: "Whenever a severely damaged ship accelerates,
/// decelerates or turns", it may break apart. The frigate (40 hull points)
/// starts its move at 22, 18 damage, within half its hull: no roll. It
/// runs into an active seeker at (2, 0): 75%, rolled 30, a hit; Damage
/// Table 50 - 20 = 30, a hull hit, 5d10 rolled 1 each: 5, to 17 (23
/// damage). Severely damaged now, it rolls for the turn it still makes at
/// (3, 0) (ruling 36): (23 - 20) x 1 point = 3%, rolled 50, it holds and
/// turns.
#[test]
fn a_seeker_that_leaves_a_ship_severely_damaged_mid_move_brings_a_break_apart_roll() {
    let mut b = battle("frigate", "destroyer", 12);
    b.board.ships[0].hull = 22;
    place_seeker(&mut b, Side::B, hex(2, 0), W, 1, true);
    let run = Script::new().moves(0, 3, &[(3, 1)]);
    check_steps(
        "engagement_seeker_mid_move_break_apart",
        "Seed 000, Damage: a severely damaged ship that turns may break apart; Seeker missiles: \
         a seeker detonates as a ship enters its hex (75%: rolled 30, a hit; 50 - 20 = 30, a hull \
         hit of 5d10, rolled 5); the turn after it brings a break-apart roll (ruling 36: 3%, \
         rolled 50).",
        "a frigate at 22 hull runs into an active seeker, then turns",
        &mut b,
        &[step(1, FirstMovement, &run, &nothing())],
        &[30, 50, 1, 1, 1, 1, 1, 50],
    );
    assert_eq!(b.board.ships[0].hull, 17);
    assert!(!b.board.ships[0].is_destroyed());
    assert_eq!(b.poses[0].hex, hex(3, 0));
    assert_eq!(b.poses[0].facing, SE);
}

/// The frigate, at `hull` of its 40 hull points, accelerates 0 to 3 east
/// from (0, 0) and turns right after its third hex, through an active seeker
/// of side B at each of `seekers`: the first movement phase, with `dice`.
/// Every die must be rolled.
fn frigate_runs_into_seekers(hull: i32, seekers: &[Hex], dice: &[u32]) -> (Battle, Played) {
    let mut b = battle("frigate", "destroyer", 12);
    b.board.ships[0].hull = hull;
    for &at in seekers {
        place_seeker(&mut b, Side::B, at, W, 1, true);
    }
    let run = Script::new().moves(0, 3, &[(3, 1)]);
    let played = play_steps(&mut b, &[step(1, FirstMovement, &run, &nothing())], dice);
    played.result.as_ref().expect("the phase plays");
    assert!(played.dice_left.is_empty(), "{:?}", played.dice_left);
    (b, played)
}

/// Ruling 36, the other way round: a ship already severely damaged rolled
/// for its whole move before it moved (ruling 26), so a seeker's hit during
/// it brings no second roll. The frigate at 18 of 40 hull (22 damage)
/// accelerates 0 to 3 and turns once: (22 - 20) x 4 points = 8%, rolled
/// 50, it holds. The seeker at (2, 0): rolled 30, a hit; 50 - 20 = 30, a
/// hull hit of 5 (13 left); the frigate turns at (3, 0) with no roll.
#[test]
fn a_ship_severely_damaged_before_its_move_rolls_once_whatever_a_seeker_does() {
    let (b, _) = frigate_runs_into_seekers(18, &[hex(2, 0)], &[50, 30, 50, 1, 1, 1, 1, 1]);
    assert_eq!(b.board.ships[0].hull, 13);
    assert_eq!(b.poses[0].facing, SE);
}

/// Ruling 36: the roll comes with the hit that leaves the ship severely
/// damaged, not with an earlier one that did not. The frigate at 26 of 40
/// hull (14 damage) runs through a seeker at (1, 0): rolled 30, a hit;
/// 50 - 20 = 30, a hull hit of 5 (21 left, 19 damage: within half its
/// hull, no roll). Then one at (2, 0): the same hit, to 16 (24 damage); it
/// rolls for its turn at (3, 0): (24 - 20) x 1 = 4%, rolled 50, it holds.
#[test]
fn the_break_apart_roll_waits_for_the_hit_that_brings_it() {
    let (b, played) = frigate_runs_into_seekers(
        26,
        &[hex(1, 0), hex(2, 0)],
        &[30, 50, 1, 1, 1, 1, 1, 30, 50, 1, 1, 1, 1, 1, 50],
    );
    assert!(played.mentions("(24 damage - 20 half hull) x 1 ADF and MR points"));
    assert_eq!(b.board.ships[0].hull, 16);
    assert_eq!(b.poses[0].facing, SE);
}

/// Ruling 36: the roll is for the turns the ship can still make. Two
/// seekers wait at (2, 0) for the frigate at 22 of 40 hull: the first hits
/// (rolled 30; 79 - 20 = 59, "Steering hit: lose entire MR"), the second
/// too (rolled 30; 50 - 20 = 30, a hull hit of 5, to 17: 23 damage). The
/// frigate is now severely damaged but has no MR for the turn it declared
/// at (3, 0): no points, no roll, and no turn.
#[test]
fn a_ship_left_no_mr_rolls_for_no_turn() {
    let (b, played) = frigate_runs_into_seekers(
        22,
        &[hex(2, 0), hex(2, 0)],
        &[30, 79, 30, 50, 1, 1, 1, 1, 1],
    );
    assert!(!played.mentions("break-apart roll"));
    assert_eq!((b.board.ships[0].mr, b.board.ships[0].hull), (0, 17));
    assert_eq!(b.poses[0].facing, E);
}

/// Seed 000, Seeker missiles: "Seekers will not be attracted to planets,
/// moons, asteroids or space stations." A seeker of side B at (2, 0) is 2
/// hexes from a station at (0, 0) and 4 from the frigate at (6, 0); it
/// flies its 2 hexes at the frigate, to (4, 0), where it would have reached
/// the station had it seen it. No die is rolled: there is no tie and
/// nothing to hit.
#[test]
fn seekers_ignore_space_stations() {
    let system = percentile_with_station();
    let mut b = system
        .battle("station", "frigate", 6)
        .expect("the test data has a station");
    place_seeker(&mut b, Side::B, hex(2, 0), E, 0, true);
    let played = play_steps_in(
        system,
        &mut b,
        &[step(1, SecondMovement, &nothing(), &nothing())],
        &[],
    );
    played.result.as_ref().expect("the phase plays");
    assert!(played.dice_left.is_empty());
    assert_eq!(b.seekers.len(), 1);
    assert_eq!(b.seekers[0].hex, hex(4, 0));
    assert!(played.mentions("moves 2 hexes toward the frigate (B)"));
}

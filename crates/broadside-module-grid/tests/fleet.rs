//! Battles of several ships a side: each rule that reaches past one pair of ships, with scripted dice and the arithmetic.
//!
//! Seed 003 (Battlestations, Ship to Ship Combat) is cited by line. Board
//! order is side A's ships as named, then side B's. The ships: the frigate
//! (Gunnery 2, Shields 3, Guns 3, Size 2, centre 3,2; bow Cannon 1,2, port
//! Cannon 3,1), the scout (Gunnery 2, Shields 2, Guns 2, Size 1, centre 2,2;
//! bow Cannon 1,2; Piloting 2, professional) and the cruiser (professional
//! Gunnery 3, Shields 4, Guns 5, Size 5, centre 4,3; bow Cannon 1,3; a
//! Fusion Node). A Cannon hits on 2d6 + Gunnery - OOC at or over 7 + range
//! (ruling 1); a professional rolls three dice and keeps the best two.

mod common;

use broadside_core::hex::{Direction, Hex};
use broadside_core::{
    Engagement, EventLog, ResolveError, Ruleset, ScriptedDice, Side, TurnSequence, Verdict,
};
use broadside_module_grid::engagement::{MAX_SHIPS, Phase, Sequence};
use broadside_module_grid::model::{Mode, ShipSide};
use broadside_module_grid::placement::Placement;
use broadside_module_grid::{DefaultTactics, ModuleGridTactics, Sight, Weapon};
use common::{
    Script, cannon, check_procedure, event_lines, fleet, fleet_request, fusion_at_frigate,
    fusion_at_frigate_dice, module, num, play_phase, system, text,
};

const EAST: Direction = Direction::EAST;
const WEST: Direction = Direction::WEST;

/// Seed 003 line 13: "Starbases, ships, fighters, missiles, spacewalkers do
/// not block line of sight. Asteroids, moons, planets and stars block line
/// of sight." A frigate at (0,0) fires east at a scout at (2,0) through a
/// hex holding its own scout (1,0); a second enemy scout sits beside the
/// line (1,-1). The line is clear and the bow Cannon bears; an asteroid in
/// (1,0) blocks it.
///
/// The shot: to-hit 2d6 [4,3] = 7, + Gunnery 2 = 9 against 7 + range 2 = 9,
/// a hit. Allocation [4,3] = 7 on the called column 2 of the scout's fore
/// side. Guns 3 + Shields 2 = 5 dice [1,1,1,6,6]; Shields remove the two
/// highest, and 1, 1, 1 land on the Cannon, Helm and Cargo Bay: 3 hull.
/// 9 dice.
#[test]
fn ships_never_block_a_line_of_sight() {
    let grid = system();
    let mut battle = fleet(
        &[("frigate", (0, 0), EAST), ("scout", (1, 0), EAST)],
        &[("scout", (2, 0), WEST), ("scout", (1, -1), WEST)],
    );
    let bow = module("frigate", "1,2");
    let open = grid.fire_options(&battle, 0, 2, &[]);
    assert_eq!(open.sight, Sight::Clear);
    assert_eq!(open.range, 2);
    assert_ne!(open.cannons & (1 << bow), 0, "the bow Cannon bears");
    let asteroid = grid.parse_objects("1,0", "asteroid").expect("a hex");
    let blocked = grid.fire_options(&battle, 0, 2, &asteroid);
    assert!(matches!(blocked.sight, Sight::Blocked(_)));
    assert_eq!((blocked.cannons, blocked.teleporters), (0, 0));

    let script = Script::firing(&[(
        0,
        cannon(
            "frigate",
            "1,2",
            Mode::Standard,
            2,
            ShipSide::Fore,
            Some("2,2"),
        ),
    )]);
    let events = play_phase(
        &mut battle,
        Phase::FirstFire,
        Side::A,
        [&script, &script],
        &[],
        &[4, 3, 4, 3, 1, 1, 1, 6, 6],
    )
    .expect("the shot resolves");
    assert_eq!(script.left(), 0);
    assert_eq!(battle.board.ships[2].hull_damage, 3);
    assert_eq!(
        battle.board.ships[1].hull_damage, 0,
        "the friend in the line"
    );
    assert_eq!(battle.board.ships[3].hull_damage, 0, "the enemy beside it");
    assert!(
        event_lines(&events)
            .iter()
            .any(|e| e.contains("fires its Cannon at 1,2 in Standard mode at the scout #1 (B)"))
    );
}

/// Seed 003 line 56: "Reduce the Shields level of the target ship by 1 each
/// time it is struck", and the dice are "Guns power for the firing ship plus
/// the Shields power of the target ship". Two frigates in one hex fire their
/// bow Cannons in turn at a scout one hex east (range 1), both calling 2,2
/// on its fore side.
///
/// First frigate: to-hit [3,3] = 6 + 2 = 8 against 7 + 1 = 8, a hit;
/// allocation [4,3] = 7 on column 2; Guns 3 + Shields 2 = 5 dice
/// [1,1,1,6,6], the two highest removed, 1, 1, 1 laid: 3 hull. Shields
/// 2 -> 1. Hull check: the chart gives 2 at 3 damage, less Size 1 = 1,
/// which two dice cannot fail: no roll.
/// Second frigate: the same to-hit and allocation; Guns 3 + Shields **1** =
/// 4 dice [1,1,1,6], one removed: 3 more hull, 6 in all. Shields 1 -> 0.
/// Check 3 - 1 = 2: no roll. 17 dice.
#[test]
fn shields_drop_with_every_strike_whoever_fires() {
    let mut battle = fleet(
        &[("frigate", (0, 0), EAST), ("frigate", (0, 0), EAST)],
        &[("scout", (1, 0), WEST)],
    );
    let shot = |firer| {
        (
            firer,
            cannon(
                "frigate",
                "1,2",
                Mode::Standard,
                2,
                ShipSide::Fore,
                Some("2,2"),
            ),
        )
    };
    let script = Script::firing(&[shot(0), shot(1)]);
    let events = play_phase(
        &mut battle,
        Phase::FirstFire,
        Side::A,
        [&script, &script],
        &[],
        &[3, 3, 4, 3, 1, 1, 1, 6, 6, 3, 3, 4, 3, 1, 1, 1, 6],
    )
    .expect("both shots resolve");
    assert_eq!(script.left(), 0);
    let scout = &battle.board.ships[2];
    assert_eq!((scout.hull_damage, scout.shields), (6, 0));
    let pools: Vec<String> = event_lines(&events)
        .into_iter()
        .filter(|e| e.starts_with("Standard Cannon shot damage"))
        .collect();
    assert_eq!(pools.len(), 2, "{pools:?}");
    assert!(
        pools[0].contains("power 3 + Shields 2: rolled 5d6"),
        "{}",
        pools[0]
    );
    assert!(
        pools[1].contains("power 3 + Shields 1: rolled 4d6"),
        "{}",
        pools[1]
    );
}

/// Seed 003 line 44: "Each scan you have on a ship may be expended to
/// reroll one of the hit allocation dice." A frigate makes its scan on the
/// first enemy scout, then fires at the second: no scan is offered for that
/// hit. Fired at the scout it scanned, the scan is offered.
///
/// Each shot: to-hit [6,6] = 12 + 2 = 14 against 8, a hit; allocation [6,6]
/// = 12, five columns starboard of the called column 2, off the ship; Guns
/// 3 + Shields 2 = 5 dice [1,1,1,1,1], two removed, three 1s miss the
/// silhouette for 1 hull each: 3 hull. 9 dice a shot.
#[test]
fn a_scan_rerolls_only_hits_on_the_ship_scanned() {
    for (target, offered) in [(2usize, 0u8), (1, 1)] {
        let mut battle = fleet(
            &[("frigate", (0, 0), EAST)],
            &[("scout", (1, 0), WEST), ("scout", (1, 0), WEST)],
        );
        battle.board.ships[0].scans = 1;
        let script = Script::firing(&[(
            0,
            cannon(
                "frigate",
                "1,2",
                Mode::Standard,
                target,
                ShipSide::Fore,
                Some("2,2"),
            ),
        )])
        .scanning(&[(0, 1)]);
        play_phase(
            &mut battle,
            Phase::FirstFire,
            Side::A,
            [&script, &script],
            &[],
            &[6, 6, 6, 6, 1, 1, 1, 1, 1],
        )
        .expect("the shot resolves");
        assert_eq!(battle.board.ships[0].scans_on, Some(1));
        assert_eq!(
            *script.offered_scans.lock().expect("not poisoned"),
            vec![offered],
            "a hit on ship {target}"
        );
        assert_eq!(battle.board.ships[target].hull_damage, 3);
    }

    // The default tactics scan the enemy their first shot goes to, the one
    // they focus on: the second scout, with 10 hull damage, has hull check
    // 4 - Size 1 = 3, against -1 for the fresh one, and both are in the bow
    // Cannon's arc.
    let grid = system();
    let mut battle = fleet(
        &[("frigate", (0, 0), EAST)],
        &[("scout", (2, 0), WEST), ("scout", (2, 0), WEST)],
    );
    battle.board.ships[2].hull_damage = 10;
    let options = grid.fire_options_all(&battle, 0, &[]);
    assert_eq!(
        DefaultTactics.scan_target(grid, &battle, 0, &options),
        Some(2)
    );
}

/// Seed 003 line 3: the Fusion mode "deals indirect damage to everything in
/// range and line of sight of the explosion it generates" (ruling 11: the
/// power of a Standard shot in the target's hex, one less per hex out, the
/// firer included). A cruiser at (0,0) fires its bow Cannon in Fusion at a
/// frigate at (2,0); its own scout is at (2,1), enemy scouts at (3,0) and
/// (7,0).
///
/// To-hit: the best two of [3,3,1] = 6, + Gunnery 3 = 9 against 7 + 2 = 9,
/// a hit. The frigate (fore, centre mark, [4,3] = 7): Guns 5 + Shields 3 =
/// 8 dice of 1, five kept: 5 hull. The burst then strikes in board order:
/// the cruiser itself, 2 hexes out, power 5 - 2 = 3, fore, 3 + 4 = 7 dice,
/// 3 kept: 3 hull; the friendly scout, 1 hex out, power 4, port, 4 + 2 = 6
/// dice, 4 kept: 4 hull; the enemy scout at (3,0), power 4, fore: 4 hull;
/// the far scout, 5 hexes out, power 0: nothing. 38 dice.
#[test]
fn a_fusion_burst_strikes_friend_and_foe() {
    let mut dice = vec![3, 3, 1, 4, 3];
    dice.extend([1; 8]);
    dice.extend([4, 3]);
    dice.extend([1; 7]);
    dice.extend([4, 3]);
    dice.extend([1; 6]);
    dice.extend([4, 3]);
    dice.extend([1; 6]);
    let mut end = None;
    check_procedure(
        "fleet_fusion_burst_strikes_friend_and_foe",
        "Battlestations, Ship to Ship Combat (seed 003 line 3): a Fusion Cannon deals indirect damage to everything in range and line of sight of its burst; ruling 11",
        "fusion: cruiser (A) at 0,0 facing east and scout (A) at 2,1 against frigate (B) at 2,0, scouts (B) at 3,0 and 7,0; the cruiser's bow Cannon fires Fusion at the frigate's fore side",
        &dice,
        |scripted, log| {
            let mut battle = fleet(
                &[("cruiser", (0, 0), EAST), ("scout", (2, 1), EAST)],
                &[
                    ("frigate", (2, 0), WEST),
                    ("scout", (3, 0), WEST),
                    ("scout", (7, 0), WEST),
                ],
            );
            let script = Script::firing(&[(
                0,
                cannon("cruiser", "1,3", Mode::Fusion, 2, ShipSide::Fore, None),
            )]);
            let sequence = Sequence {
                system: system(),
                objects: &[],
                fire_steps: &[],
            };
            sequence.play_phase(
                Phase::FirstFire,
                1,
                &mut battle,
                [&script, &script],
                scripted,
                log,
            )?;
            let mut out = String::from("after:\n");
            for (i, ship) in battle.board.ships.iter().enumerate() {
                out.push_str(&format!(
                    "  {}: hull damage {}, Shields {}, Guns {}\n",
                    battle.board.names[i], ship.hull_damage, ship.shields, ship.guns
                ));
            }
            end = Some(battle);
            Ok(out)
        },
    );
    let battle = end.expect("played");
    let hull: Vec<u16> = battle.board.ships.iter().map(|s| s.hull_damage).collect();
    assert_eq!(hull, [3, 4, 5, 4, 0]);
    let shields: Vec<u8> = battle.board.ships.iter().map(|s| s.shields).collect();
    assert_eq!(shields, [3, 1, 2, 1, 2]);
    assert_eq!(battle.board.ships[0].guns, 4);
}

/// Seed 003 line 30: in one hex "the firing ship chooses which facing it
/// will strike with each shot", and line 44: "The firing character may
/// spend Luck on the hit allocation roll". A Fusion burst is the firer's,
/// so on an enemy scout sharing the target's hex the firer's tactics choose
/// among all four sides, here the aft, and are shown the Luck they may spend
/// (the cruiser's 4, a point a reroll; no scans, which were made on the
/// frigate). The cruiser at (0,0) fires its bow Cannon in Fusion at a
/// frigate at (2,0) (dice: `fusion_at_frigate_dice`); the burst then
/// strikes the scout at power 5, aft: [4,3] and 5 + 2 dice.
#[test]
fn a_fusion_bursts_firer_chooses_the_side_and_may_spend_luck() {
    let mut dice = fusion_at_frigate_dice();
    dice.extend([4, 3]);
    dice.extend([1; 7]);
    let script = Script::fusion_at_frigate().bursting_on(ShipSide::Aft);
    let mut lines = Vec::new();
    check_procedure(
        "fleet_fusion_burst_side_chosen_by_the_firer",
        "Battlestations, Ship to Ship Combat (seed 003 lines 28, 30 and 44): at a corner or in one hex the firing character chooses the side, and may spend Luck on hit allocation",
        "fusion: cruiser (A) at 0,0 facing east against frigate (B) and scout (B) at 2,0; the cruiser's bow Cannon fires Fusion at the frigate's fore side, and its tactics strike the scout's aft side",
        &dice,
        |scripted, log| {
            fusion_at_frigate(system(), (2, 0), &script, scripted, log)?;
            lines = event_lines(&log.events);
            Ok(String::new())
        },
    );
    let asks = script.asks();
    assert!(
        asks.contains(&"burst 0 on 2: fore starboard aft port".to_owned()),
        "{asks:?}"
    );
    // Offered for its shot and for each ship its burst strikes (itself and
    // the scout), with scans only on the frigate it scanned.
    let rerolls: Vec<&String> = asks.iter().filter(|a| a.starts_with("reroll")).collect();
    assert_eq!(
        rerolls,
        [
            "reroll on a foe: 2 scans, 4 Luck",
            "reroll on a friend: 0 scans, 4 Luck",
            "reroll on a foe: 0 scans, 4 Luck"
        ],
        "{asks:?}"
    );
    assert!(
        lines
            .iter()
            .any(|line| line.contains("scout (B)'s aft side")),
        "{lines:#?}"
    );
}

/// Seed 003 line 28: at a corner the firer chooses between the two sides
/// the line meets, and no other. The scout at (3,1) facing west is met at
/// the corner of its fore and starboard sides by a burst at (2,0); tactics
/// that answer its aft side are refused as an internal error.
#[test]
fn a_burst_side_off_the_corner_is_refused() {
    let script = Script::fusion_at_frigate().bursting_on(ShipSide::Aft);
    let played = fusion_at_frigate(
        system(),
        (3, 1),
        &script,
        &mut ScriptedDice::new(&fusion_at_frigate_dice()[..]),
        &mut EventLog::default(),
    );
    match played {
        Err(ResolveError::Internal(why)) => {
            assert!(why.contains("can strike only fore or starboard"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        script
            .asks()
            .contains(&"burst 0 on 2: fore starboard".to_owned())
    );
}

/// Rules note, default tactics: a burst's side, where the firer chooses, is
/// the one where the hit is worth most on an enemy and least on a friend.
/// The scout's lanes (the first three modules' worth: weapons 4, Shields,
/// Engines and Helm 3, others 2) are columns 5, 9, 6 from the bow or stern
/// and rows 4, 8, 8 from either beam; on its centre mark (the Helm) a hit
/// weighs 5, 6, 5 of 36 on the three lines, so a bow or stern hit is worth
/// 5 x 5 + 6 x 9 + 5 x 6 = 109 and a beam hit 5 x 4 + 6 x 8 + 5 x 8 = 108.
/// An enemy scout is struck on the fore (first of the best, clockwise from
/// the bow), a friendly one on the starboard side.
#[test]
fn the_default_burst_side_hurts_enemies_most_and_friends_least() {
    let battle = fleet(
        &[("cruiser", (0, 0), EAST), ("scout", (2, 0), EAST)],
        &[("frigate", (2, 0), WEST), ("scout", (2, 0), WEST)],
    );
    let grid = system();
    let all = broadside_module_grid::model::SideSet::ALL;
    assert_eq!(
        DefaultTactics.burst_side(grid, &battle, 0, 3, all),
        ShipSide::Fore
    );
    assert_eq!(
        DefaultTactics.burst_side(grid, &battle, 0, 1, all),
        ShipSide::Starboard
    );
}

/// Seed 003 lines 84, 91, 95 and 97: a ship makes a hull check "each time
/// it is hit" past the threshold and, failing, "explodes"; the explosion
/// "deals damage like a Cannon blast at a Guns strength equal to its Size to
/// each object in its hex, and less damage to things further out", one less
/// per hex. Four ships: a frigate (A) at (0,0) fires at a cruiser (B) at
/// (2,0) with 170 hull damage; a scout of each side shares (4,0), the enemy
/// one with 104 hull damage.
///
/// The shot: [4,3] = 7 + 2 = 9 against 7 + 2, a hit; centre mark [4,3];
/// Guns 3 + Shields 4 = 7 dice of 1, 3 kept: the cruiser reaches 173, chart
/// 18 less Size 5 = 13, beyond two dice: it explodes with no roll.
/// Its blast, Size 5 less 2 hexes = 3, strikes in board order: the frigate
/// (fore, 3 + 3 = 6 dice, 3 kept: 3 hull, Shields 3 -> 2); the friendly
/// scout (aft, 3 + 2 = 5 dice: 3 hull, Shields 2 -> 1); the enemy scout
/// (fore, 5 dice: 107 hull, chart 14 less 1 = 13: it explodes too).
/// The scout's blast, Size 1: the frigate 4 hexes out gets power 0 and no
/// dice; the friendly scout in its hex gets power 1, fore, 1 + 1 = 2 dice,
/// 1 kept: 4 hull, Shields 0, check 2 - 1 = 1, no roll. Side B has no ship
/// left: side A wins. 37 dice.
#[test]
fn an_explosion_strikes_every_ship_near_it_and_sets_off_others() {
    let mut dice = vec![4, 3, 4, 3];
    dice.extend([1; 7]);
    dice.extend([4, 3]);
    dice.extend([1; 6]);
    dice.extend([4, 3]);
    dice.extend([1; 5]);
    dice.extend([4, 3]);
    dice.extend([1; 5]);
    dice.extend([4, 3, 1, 1]);
    let layout = |scout_damage: u16| {
        let mut battle = fleet(
            &[("frigate", (0, 0), EAST), ("scout", (4, 0), EAST)],
            &[("cruiser", (2, 0), WEST), ("scout", (4, 0), WEST)],
        );
        battle.board.ships[2].hull_damage = 170;
        battle.board.ships[3].hull_damage = scout_damage;
        battle
    };
    let shot = || {
        Script::firing(&[(
            0,
            cannon("frigate", "1,2", Mode::Standard, 2, ShipSide::Fore, None),
        )])
    };
    let mut end = None;
    check_procedure(
        "fleet_explosion_chain_four_ships",
        "Battlestations, Ship to Ship Combat (seed 003 lines 84, 91, 95, 97): a failed hull check explodes the ship; the blast strikes everything near it, one less per hex; rulings on blasts in fleets",
        "explosion chain: frigate (A) at 0,0 and scout (A) at 4,0 against cruiser (B) at 2,0 with 170 hull damage and scout (B) at 4,0 with 104; the frigate fires its bow Cannon at the cruiser",
        &dice,
        |scripted, log| {
            let mut battle = layout(104);
            let script = shot();
            let sequence = Sequence {
                system: system(),
                objects: &[],
                fire_steps: &[],
            };
            sequence.play_phase(
                Phase::FirstFire,
                1,
                &mut battle,
                [&script, &script],
                scripted,
                log,
            )?;
            let verdict = sequence.verdict(&battle);
            let mut out = format!("verdict: {verdict:?}\nafter:\n");
            for (i, ship) in battle.board.ships.iter().enumerate() {
                out.push_str(&format!(
                    "  {}: hull damage {}, Shields {}, exploded {}\n",
                    battle.board.names[i], ship.hull_damage, ship.shields, ship.exploded
                ));
            }
            end = Some((battle, verdict));
            Ok(out)
        },
    );
    let (battle, verdict) = end.expect("played");
    assert_eq!(verdict, Some(Verdict::Winner(Side::A)));
    let hull: Vec<u16> = battle.board.ships.iter().map(|s| s.hull_damage).collect();
    assert_eq!(hull, [3, 4, 173, 107]);
    let exploded: Vec<bool> = battle.board.ships.iter().map(|s| s.exploded).collect();
    assert_eq!(exploded, [false, false, true, true]);

    // With a fresh enemy scout the cruiser's blast does 3 hull to it, no
    // chain follows, and the scout fights on: side B still stands. The
    // script stops after the first blast: 4 + 7 + 8 + 7 + 7 = 33 dice.
    let mut battle = layout(0);
    let script = shot();
    play_phase(
        &mut battle,
        Phase::FirstFire,
        Side::A,
        [&script, &script],
        &[],
        &dice[..33],
    )
    .expect("the shot resolves");
    let sequence = Sequence {
        system: system(),
        objects: &[],
        fire_steps: &[],
    };
    assert_eq!(battle.board.ships[3].hull_damage, 3);
    assert!(!battle.board.ships[3].exploded);
    assert_eq!(sequence.verdict(&battle), None);
}

/// Seed 003 line 30: "If a ship is in the same hex as another ship, all
/// weapons on all sides are considered to have facing on the enemy and the
/// firing ship chooses which facing it will strike with each shot." The
/// rule holds between the firer and the enemy in its hex, not a friend: a
/// frigate sharing (0,0) with its own frigate still needs facing on a scout
/// two hexes east (only the bow Cannon bears; the port Cannon at 3,1 looks
/// only to port, and only the scout's fore side is struck). With the scout
/// in the hex, both Cannons bear and all four sides are open.
///
/// The port Cannon then fires at the scout's aft side in the same hex:
/// to-hit [3,2] = 5 + 2 = 7 against 7 + 0, a hit; allocation [4,3] on the
/// centre mark 2,2; aft column 2 from the stern meets the Cargo Bay, Helm
/// and Cannon; 3 + 2 = 5 dice [2,2,2,6,6], two removed: 6 hull. 9 dice.
#[test]
fn the_same_hex_gives_facing_on_the_enemy_in_it_only() {
    let grid = system();
    let mut battle = fleet(
        &[("frigate", (0, 0), EAST), ("frigate", (0, 0), EAST)],
        &[("scout", (2, 0), WEST)],
    );
    let bow = 1u64 << module("frigate", "1,2");
    let port = 1u64 << module("frigate", "3,1");
    let apart = grid.fire_options(&battle, 0, 2, &[]);
    assert_eq!(apart.cannons, bow);
    assert_eq!(apart.struck.sides().collect::<Vec<_>>(), [ShipSide::Fore]);
    battle.poses[2].hex = Hex::ORIGIN;
    let together = grid.fire_options(&battle, 0, 2, &[]);
    assert_eq!(together.cannons, bow | port);
    assert_eq!(together.struck.sides().count(), 4);

    let script = Script::firing(&[(
        0,
        cannon("frigate", "3,1", Mode::Standard, 2, ShipSide::Aft, None),
    )]);
    play_phase(
        &mut battle,
        Phase::FirstFire,
        Side::A,
        [&script, &script],
        &[],
        &[3, 2, 4, 3, 2, 2, 2, 6, 6],
    )
    .expect("the shot resolves");
    assert_eq!(battle.board.ships[2].hull_damage, 6);
}

/// Range, the side struck and the firer's facing are taken per pair of
/// ships (ruling: fleets). A destroyer at (0,0) facing east has a scout 3
/// hexes east and another 9 hexes east: its missiles reach the near one
/// (within 8 hexes, ruling 13) and not the far one, and each is struck on
/// the side its own line enters. No dice.
#[test]
fn range_and_sides_are_taken_per_pair() {
    let grid = system();
    let battle = fleet(
        &[("destroyer", (0, 0), EAST)],
        &[("scout", (3, 0), WEST), ("scout", (0, 9), EAST)],
    );
    let options = grid.fire_options_all(&battle, 0, &[]);
    assert_eq!(options.iter().map(|o| o.target).collect::<Vec<_>>(), [1, 2]);
    assert_eq!((options[0].range, options[1].range), (3, 9));
    assert_ne!(options[0].missile_bays, 0);
    assert_eq!(options[1].missile_bays, 0);
    assert_eq!(
        options[0].struck.sides().collect::<Vec<_>>(),
        [ShipSide::Fore]
    );
    assert!(!options[1].struck.has(ShipSide::Fore));
}

/// Only a living enemy may be fired at (ruling: fleets; the seed's weapons
/// strike "the enemy", seed 003 lines 3 and 30). A shot at a friend, or at
/// an enemy that has exploded, is an internal error before any die is
/// rolled; so is a scan on a friend.
#[test]
fn only_living_enemies_are_targets() {
    let layout = || {
        fleet(
            &[("frigate", (0, 0), EAST), ("frigate", (0, 2), EAST)],
            &[("scout", (1, 0), WEST), ("scout", (1, 1), WEST)],
        )
    };
    let at = |target| cannon("frigate", "1,2", Mode::Multi, target, ShipSide::Fore, None);
    // Side A's first fire phase with `script` is refused as a bug of the
    // tactics, with a message holding `fragment`.
    let refused = |battle: &mut broadside_module_grid::Battle, script: &Script, fragment: &str| {
        let err = play_phase(
            battle,
            Phase::FirstFire,
            Side::A,
            [script, script],
            &[],
            &[],
        );
        assert!(
            matches!(&err, Err(ResolveError::Internal(m)) if m.contains(fragment)),
            "{err:?}"
        );
    };
    refused(
        &mut layout(),
        &Script::firing(&[(0, at(1))]),
        "not an enemy still in play",
    );

    let mut gone = layout();
    gone.board.ships[2].exploded = true;
    refused(
        &mut gone,
        &Script::firing(&[(0, at(2))]),
        "not an enemy still in play",
    );

    refused(
        &mut layout(),
        &Script::firing(&[]).scanning(&[(0, 1)]),
        "scan",
    );
}

/// Order of play (ruling: fleets, extending rulings 33 and 35): the side
/// that acts first is rolled for on turn 1 (d6 [5]: 4-6, side B) and the
/// sides alternate after; within a side the ships move one at a time in the
/// order named. Two scouts a side that hold still and never fire: one die
/// in two turns, and the movement reads B, B, A, A then A, A, B, B.
#[test]
fn sides_alternate_and_ships_act_in_the_order_named() {
    let grid = system();
    let duel = grid
        .duel(&fleet_request(
            &["scout", "scout"],
            &["scout", "scout"],
            2,
            &[],
            [&[], &[]],
        ))
        .expect("the battle is set up");
    let still = Script::default();
    let mut dice = ScriptedDice::new([5]);
    let mut log = EventLog::default();
    let (outcome, _) = duel
        .play_with([&still, &still], &mut dice, &mut log)
        .expect("plays");
    common::assert_all_used(&dice, "order of play");
    assert_eq!(outcome.verdict, Verdict::Undecided);
    let movers: Vec<String> = log
        .events
        .iter()
        .filter_map(|e| match e {
            broadside_core::Event::Effect { ship, effect } if effect.starts_with("moves") => {
                Some(ship.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        movers,
        [
            "scout #1 (B)",
            "scout #2 (B)",
            "scout #1 (A)",
            "scout #2 (A)",
            "scout #1 (A)",
            "scout #2 (A)",
            "scout #1 (B)",
            "scout #2 (B)",
        ]
    );
}

/// Repairs and OOC recovery reach every ship of a fleet, not only the first
/// two (seed 003 line 72: "It requires an Engineering Skill check action of
/// 11 to remove a Broken marker"; ruling 18). The fourth ship, a scout with
/// its bow Cannon broken and OOC 1: the repair rolls [6,4] = 10 +
/// Engineering 1 = 11 against 11, the Cannon works again; OOC recovery is
/// professional Piloting, the best two of [3,2,1] = 5 + 2 = 7 against 7,
/// OOC 0. 5 dice.
#[test]
fn every_ship_of_a_fleet_repairs_and_recovers() {
    let mut battle = fleet(
        &[("frigate", (0, 0), EAST), ("frigate", (0, 2), EAST)],
        &[("scout", (8, 0), WEST), ("scout", (7, 2), WEST)],
    );
    let bow = module("scout", "1,2");
    battle.board.ships[3].add_marker(bow, 2);
    battle.board.ships[3].ooc = 1;
    play_phase(
        &mut battle,
        Phase::Recovery,
        Side::A,
        [&DefaultTactics, &DefaultTactics],
        &[],
        &[6, 4, 3, 2, 1],
    )
    .expect("the recovery phase plays");
    let scout = &battle.board.ships[3];
    assert!(scout.is_working(bow));
    assert_eq!(scout.ooc, 0);
}

/// The default tactics' focus: among the enemies a weapon reaches, the one
/// closest to exploding, else the most dangerous. A frigate at (0,0) facing
/// east, with no bombs, has a fresh scout at (2,0) and a scout with 10 hull
/// damage (hull check 4 - Size 1 = 3, a check that can fail) at (1,1): it
/// fires at the damaged one. With that one astern at (-2,0), out of every
/// arc, it fires at the other rather than hold its Cannon. Among fresh
/// ships (every check 2 or less) a frigate two hexes off (2 Cannons x Guns
/// 3 = 6) comes before a scout one hex off (1 x 2 = 2). Against one enemy
/// the choice is the duel's. No dice.
#[test]
fn the_default_fire_goes_to_the_most_damaged_enemy_in_reach() {
    let grid = system();
    let mut battle = fleet(
        &[("frigate", (0, 0), EAST)],
        &[("scout", (2, 0), WEST), ("scout", (1, 1), WEST)],
    );
    battle.board.ships[0].bombs = 0;
    battle.board.ships[2].hull_damage = 10;
    let options = grid.fire_options_all(&battle, 0, &[]);
    let choice = DefaultTactics
        .next_shot(grid, &battle, 0, &options)
        .expect("a shot");
    assert_eq!(choice.target, 2);

    battle.poses[2].hex = Hex::new(-2, 0);
    let options = grid.fire_options_all(&battle, 0, &[]);
    assert_eq!(options[1].cannons, 0, "astern, out of every arc");
    let choice = DefaultTactics
        .next_shot(grid, &battle, 0, &options)
        .expect("a shot");
    assert_eq!(choice.target, 1);

    let fresh = fleet(
        &[("frigate", (0, 0), EAST)],
        &[("scout", (1, 0), WEST), ("frigate", (2, 0), WEST)],
    );
    assert_eq!(
        DefaultTactics::focus_order(grid, &fresh, 0).as_slice(),
        [2, 1]
    );

    let duel = grid.battle("frigate", "scout", 2).expect("both exist");
    let alone = grid.fire_options_all(&duel, 0, &[]);
    assert_eq!(
        DefaultTactics.next_shot(grid, &duel, 0, &alone),
        DefaultTactics
            .next_shot(grid, &battle, 0, &options[..1])
            .map(|c| { broadside_module_grid::engagement::ShotChoice { target: 1, ..c } }),
    );
}

/// The default tactics fire Fusion when the burst reaches the other enemies
/// harder than it reaches the firer and its friends. A cruiser at (0,0)
/// against fresh scouts at (2,0), (3,0) and (7,0) focuses on the nearest;
/// at Guns 5 a burst there reaches the scout at (3,0) with 5 - 1 = 4 and the
/// far one with 0, and the cruiser itself, 2 hexes off, with 3: 4 > 3, so
/// Fusion. With a friendly scout at (2,1) (reach 4) it is 4 against 7: the
/// best ordinary mode. A cruiser against a single ship never fires Fusion.
/// No dice.
#[test]
fn the_default_tactics_fire_fusion_only_where_the_burst_pays() {
    let grid = system();
    let enemies = [
        ("scout", (2, 0), WEST),
        ("scout", (3, 0), WEST),
        ("scout", (7, 0), WEST),
    ];
    let mode_of = |battle: &broadside_module_grid::Battle| {
        let options = grid.fire_options_all(battle, 0, &[]);
        match DefaultTactics.next_shot(grid, battle, 0, &options) {
            Some(choice) => match choice.weapon {
                Weapon::Cannon { mode, .. } => (choice.target, Some(mode)),
                _ => (choice.target, None),
            },
            None => panic!("no shot"),
        }
    };
    let alone = fleet(&[("cruiser", (0, 0), EAST)], &enemies);
    assert_eq!(mode_of(&alone), (1, Some(Mode::Fusion)));
    let escorted = fleet(
        &[("cruiser", (0, 0), EAST), ("scout", (2, 1), EAST)],
        &enemies,
    );
    let (target, mode) = mode_of(&escorted);
    assert_eq!(target, 2);
    assert_ne!(mode, Some(Mode::Fusion));
    let duel = grid.battle("cruiser", "scout", 2).expect("both exist");
    assert_ne!(mode_of(&duel).1, Some(Mode::Fusion));
}

/// Set-up (a ruling: the seed places no ships). The lead ships stand where
/// a duel's do; in a line with spacing 2 every ship of A is exactly the
/// start range from its opposite number; a column stands astern; a stack
/// shares one hex; positions place each ship, and the wrong number of them
/// is refused. No dice.
#[test]
fn fleets_are_placed_by_each_sides_set_up() {
    let grid = system();
    let hexes = |request| {
        let duel = grid.duel(&request).expect("the battle is set up");
        duel.start()
            .poses
            .iter()
            .map(|p| (p.hex.q, p.hex.r, p.facing.index()))
            .collect::<Vec<_>>()
    };
    let duel = grid.battle("frigate", "scout", 8).expect("both exist");
    assert_eq!(
        hexes(fleet_request(&["frigate"], &["scout"], 5, &[], [&[], &[]])),
        duel.poses
            .iter()
            .map(|p| (p.hex.q, p.hex.r, p.facing.index()))
            .collect::<Vec<_>>()
    );
    let line = hexes(fleet_request(
        &["frigate", "frigate"],
        &["scout", "scout"],
        5,
        &[],
        [&[], &[]],
    ));
    assert_eq!(line, [(0, 0, 0), (-1, 2, 0), (8, 0, 3), (7, 2, 3)]);
    let d = |a: (i32, i32, usize), b: (i32, i32, usize)| {
        Hex::new(a.0, a.1).distance(Hex::new(b.0, b.1))
    };
    assert_eq!(
        (
            d(line[0], line[2]),
            d(line[1], line[3]),
            d(line[0], line[3])
        ),
        (8, 8, 9)
    );
    let shaped = hexes(fleet_request(
        &["frigate", "frigate", "frigate"],
        &["scout", "scout"],
        5,
        &[("start-range", num(6))],
        [
            &[("formation", text("column")), ("spacing", num(3))],
            &[("formation", text("stack")), ("facing", text("north-west"))],
        ],
    ));
    assert_eq!(
        shaped,
        [(0, 0, 0), (-3, 0, 0), (-6, 0, 0), (6, 0, 4), (6, 0, 4)]
    );
    let placed = hexes(fleet_request(
        &["frigate", "scout"],
        &["cruiser"],
        5,
        &[],
        [&[("positions", text("0,0 2,-3"))], &[]],
    ));
    assert_eq!(placed, [(0, 0, 0), (2, -3, 0), (8, 0, 3)]);
    for (side, wrong, key) in [
        (0, "0,0", "a-positions"),
        (1, "1,1 2,2", "b-positions"),
        (0, "0,0 x,1", "a-positions"),
    ] {
        let mut sides: [&[(&str, broadside_core::OptionValue)]; 2] = [&[], &[]];
        let given = [("positions", text(wrong))];
        sides[side] = &given;
        let request = fleet_request(&["frigate", "scout"], &["cruiser"], 5, &[], sides);
        assert!(
            matches!(
                grid.duel(&request),
                Err(ResolveError::BadOption { ref option, .. }) if option == key
            ),
            "{wrong}"
        );
    }
    let ruleset: &dyn Ruleset = grid;
    let names: Vec<&str> = ruleset.side_options().iter().map(|o| o.name).collect();
    assert_eq!(names, ["formation", "spacing", "positions", "facing"]);
}

/// Core's largest fleets (24 a side) fit on one board and play; a board
/// larger than the engine holds is refused as bad input, never a panic.
#[test]
fn the_largest_fleets_play_and_larger_boards_are_refused() {
    let grid = system();
    let ids = vec!["scout"; broadside_core::MAX_SIDE];
    let duel = grid
        .duel(&fleet_request(&ids, &ids, 1, &[], [&[], &[]]))
        .expect("24 a side is set up");
    let outcome = duel
        .play(
            &mut broadside_core::SeededDice::new(3),
            &mut broadside_core::NullSink,
        )
        .expect("plays");
    assert_eq!(outcome.ships.len(), 2 * broadside_core::MAX_SIDE);

    let many: Vec<String> = vec!["scout".to_owned(); MAX_SHIPS];
    let roster = broadside_core::Roster::new(&many, &["scout".to_owned()]);
    let placement = [Placement::default(), Placement::default()];
    assert!(matches!(
        grid.fleet_battle(&roster, 8, &placement),
        Err(ResolveError::BadOption { ref option, .. }) if option == "side"
    ));
}

/// The engine holds up to 64 ships on one board and refuses more as a bad
/// `side` (rules note, fleets: "the engine holds up to 64 ships on one
/// board and refuses more"). A board of exactly 64 is set up with every
/// ship on it; one more is refused.
#[test]
fn a_board_holds_exactly_the_engines_most_ships() {
    let grid = system();
    let placement = [Placement::default(), Placement::default()];
    let scouts = |n: usize| vec!["scout".to_owned(); n];
    let full = broadside_core::Roster::new(&scouts(MAX_SHIPS - 1), &scouts(1));
    let battle = grid
        .fleet_battle(&full, 8, &placement)
        .expect("a board of exactly the most ships is set up");
    assert_eq!(battle.board.ships.len(), MAX_SHIPS);

    let over = broadside_core::Roster::new(&scouts(MAX_SHIPS), &scouts(1));
    assert!(matches!(
        grid.fleet_battle(&over, 8, &placement),
        Err(ResolveError::BadOption { ref option, .. }) if option == "side"
    ));
}

/// The frigate at (0,0) facing east fires its bow Cannon twice in Multi
/// (ruling 10), at each of two scouts beside it in turn, and both shots
/// miss: 2d6 [1,1] = 2, + Gunnery 2 = 4 against 7 + range 1 = 8. 4 dice.
fn two_multi_misses() -> (broadside_module_grid::Battle, Script) {
    let battle = fleet(
        &[("frigate", (0, 0), EAST)],
        &[("scout", (1, 0), WEST), ("scout", (1, 0), WEST)],
    );
    let at = |target| cannon("frigate", "1,2", Mode::Multi, target, ShipSide::Fore, None);
    let script = Script::firing(&[(0, at(1)), (0, at(2))]);
    (battle, script)
}

/// Ruling 41 (scans in fleets): a ship makes all of its turn's scans on
/// one enemy, chosen by its tactics when it first comes to fire that turn.
/// Firing two shots, the frigate is asked whom to scan once, before its
/// first shot, and never again that turn.
#[test]
fn the_scan_target_is_chosen_once_when_the_ship_first_fires() {
    let (mut battle, asked) = two_multi_misses();
    play_phase(
        &mut battle,
        Phase::FirstFire,
        Side::A,
        [&asked, &asked],
        &[],
        &[1, 1, 1, 1],
    )
    .expect("both shots resolve");
    assert_eq!(asked.left(), 0);
    assert_eq!(asked.asks(), ["scan 0", "shot 0", "shot 0", "shot 0"]);
    assert_eq!(battle.board.ships[0].scans_on, Some(1));
}

/// A fire phase played in steps is the same game as the phase played
/// whole (the sequence's contract, as exact odds play it): the tactics are
/// asked the same questions in the same order, so a ship that stops firing
/// before its last step is not asked again. The frigate's fire is split
/// into nine steps (three for each of three shots) though it fires two.
/// Exact odds merge equal states between the parts of a shot, so each step
/// plays one part and no more: aiming a shot (the tactics asked, the to-hit
/// rolled), then the rest of it. The two misses take two steps each, the
/// fifth step finds no shot left, and the last four play nothing; the
/// questions asked after each step show how far the fire has gone.
#[test]
fn a_fire_phase_in_steps_asks_what_the_whole_phase_asks() {
    let grid = system();
    let play = |stepped: bool| {
        let (mut battle, asked) = two_multi_misses();
        battle.first = Side::A;
        let fire_steps: &[u8] = if stepped { &[9, 3, 3] } else { &[] };
        let sequence = Sequence {
            system: grid,
            objects: &[],
            fire_steps,
        };
        let mut dice = ScriptedDice::new([1, 1, 1, 1]);
        let mut log = EventLog::default();
        let mut after_each = Vec::new();
        for step in 0..sequence.steps(Phase::FirstFire, 1) {
            sequence
                .play_step(
                    Phase::FirstFire,
                    1,
                    step,
                    &mut battle,
                    [&asked, &asked],
                    &mut dice,
                    &mut log,
                )
                .expect("the step plays");
            after_each.push((asked.asks().len(), battle.firing.shot.is_some()));
        }
        common::assert_all_used(&dice, "fire phase");
        (asked.asks(), event_lines(&log.events), battle, after_each)
    };
    let (whole, stepped) = (play(false), play(true));
    assert_eq!(whole.0, ["scan 0", "shot 0", "shot 0", "shot 0"]);
    assert_eq!(stepped.0, whole.0);
    assert_eq!(stepped.1, whole.1);
    assert_eq!(stepped.2, whole.2);
    // The frigate's nine steps, then the scouts' six, which are side B's
    // and play nothing in side A's fire phase.
    let (asks, under_way): (Vec<usize>, Vec<bool>) = stepped.3.into_iter().unzip();
    assert_eq!(asks[..9], [2, 2, 3, 3, 4, 4, 4, 4, 4]);
    assert_eq!(
        under_way[..9],
        [true, false, true, false, false, false, false, false, false]
    );
    assert_eq!(
        (&asks[9..], &under_way[9..]),
        (&[4; 6][..], &[false; 6][..])
    );
}

/// Seed 003 line 13: "Starbases, ships, fighters, missiles, spacewalkers do
/// not block line of sight. Asteroids, moons, planets and stars block line
/// of sight." Objects read from the map keep the kind they are named as: a
/// starbase on the line between the frigate (0,0) and a scout (2,0) leaves
/// it clear, and an asteroid in the same hex blocks it.
#[test]
fn map_objects_keep_the_kind_they_are_named() {
    let grid = system();
    let battle = fleet(&[("frigate", (0, 0), EAST)], &[("scout", (2, 0), WEST)]);
    let starbase = grid.parse_objects("1,0", "starbase").expect("a hex");
    assert_eq!(
        grid.fire_options(&battle, 0, 1, &starbase).sight,
        Sight::Clear
    );
    let asteroid = grid.parse_objects("1,0", "asteroid").expect("a hex");
    assert!(matches!(
        grid.fire_options(&battle, 0, 1, &asteroid).sight,
        Sight::Blocked(_)
    ));
}

/// Seed 003 line 95: "A ship that explodes deals damage like a Cannon blast
/// ... to each object in its hex, and less damage to things further out":
/// once, when it explodes. A cruiser that exploded earlier in the battle
/// lies in the frigate's hex; the frigate's shot at the scout beside it
/// misses (2d6 [1,1] = 2, + Gunnery 2 = 4 against 7 + range 1 = 8), and the
/// old wreck blasts nobody again: the two to-hit dice are all the phase
/// rolls, and no explosion power is read.
#[test]
fn a_ship_that_exploded_before_a_shot_does_not_blast_again_after_it() {
    let mut battle = fleet(
        &[("frigate", (0, 0), EAST)],
        &[("scout", (1, 0), WEST), ("cruiser", (0, 0), WEST)],
    );
    battle.board.ships[2].exploded = true;
    let script = Script::firing(&[(
        0,
        cannon("frigate", "1,2", Mode::Standard, 1, ShipSide::Fore, None),
    )]);
    let events = play_phase(
        &mut battle,
        Phase::FirstFire,
        Side::A,
        [&script, &script],
        &[],
        &[1, 1],
    )
    .expect("the shot resolves");
    assert_eq!(script.left(), 0);
    let lines = event_lines(&events);
    assert!(
        lines.iter().any(|e| e.contains("at the scout")),
        "the shot was fired: {lines:?}"
    );
    assert!(
        !lines.iter().any(|e| e.contains("explosion power")),
        "no blast: {lines:?}"
    );
}

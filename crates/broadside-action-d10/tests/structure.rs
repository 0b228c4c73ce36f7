//! Resolutions touching each structure letter, the sub-tables and their
//! fall-backs, the Core Hit, target lock and the to-hit rules, with scripted
//! dice in the order the rules roll them.

mod common;

use broadside_action_d10::attack::LockNumber;
use broadside_action_d10::model::{Scanner, System};
use broadside_action_d10::ship::ScannerState;
use broadside_core::{DiceError, ResolveError};
use common::{Declared, Resolve, check_declared, check_resolve, check_resolve_error, lone_target};

const C: &str = "d10 action-based rules, Structure Damage: Containment (C)";
const R: &str = "d10 action-based rules, Structure Damage: Remass (R)";
const M: &str = "d10 action-based rules, Structure Damage: Magazine (M)";
const S: &str = "d10 action-based rules, Structure Damage: System (S)";
const H: &str = "d10 action-based rules, Structure Damage: Hangar (H) and the Hangar Table";
const U: &str =
    "d10 action-based rules, Structure Damage: UDST (U), Surface Features and Internal Damage";
const A: &str = "d10 action-based rules, Structure Damage: Action (A) and the Core Hit table";
const DIRECT: &str =
    "d10 action-based rules, Attack Procedures: Direct Fire Attack; To-hit Modifiers";
const LOCK: &str = "d10 action-based rules, Target Lock and its Modifiers";
const SWARM: &str = "d10 action-based rules, Swarmer/Rocket Pack Hits Table";

#[test]
fn containment_box_loses_cargo() {
    // Carrier box 18 is its first C; 1d10 = 4 cargo points of 40.
    let json = check_resolve(Resolve {
        name: "c_box_cargo_lost",
        source: C,
        target: "carrier",
        marked: 17,
        shields: Some(0),
        dice: &[3, 4],
        ..Resolve::default()
    });
    assert_eq!(json["boxes_marked"], serde_json::json!(["C"]));
    assert_eq!(json["target"]["cargo"], 36);
}

#[test]
fn last_containment_box_breaches_containment() {
    let json = check_resolve(Resolve {
        name: "c_box_last_breaches_containment",
        source: C,
        target: "frigate",
        marked: 17,
        shields: Some(0),
        dice: &[2, 9],
        ..Resolve::default()
    });
    assert_eq!(json["target"]["cargo"], 0);
    assert!(json["effects"].to_string().contains("containment breached"));
}

#[test]
fn remass_box_loses_burns_and_the_last_bleeds() {
    let json = check_resolve(Resolve {
        name: "r_box_burns_lost_last_bleeds",
        source: R,
        target: "frigate",
        marked: 10,
        shields: Some(0),
        dice: &[5, 5],
        ..Resolve::default()
    });
    assert_eq!(json["target"]["remass"], 18);
}

#[test]
fn remass_roll_below_zero_loses_nothing() {
    // 1d6-3 with a 2 is -1: no burns lost.
    let json = check_resolve(Resolve {
        name: "r_box_negative_roll_loses_nothing",
        source: R,
        target: "gunboat",
        marked: 5,
        dice: &[4, 2],
        ..Resolve::default()
    });
    assert_eq!(json["target"]["remass"], 12);
}

#[test]
fn magazine_box_jams_and_loses_warheads() {
    let json = check_resolve(Resolve {
        name: "m_box_jam_and_warheads_lost",
        source: M,
        target: "destroyer",
        marked: 8,
        shields: Some(0),
        dice: &[6, 4],
        ..Resolve::default()
    });
    assert_eq!(json["target"]["jammed"], true);
    assert_eq!(json["target"]["warheads"], 13);
}

#[test]
fn last_magazine_box_loses_every_warhead() {
    let json = check_resolve(Resolve {
        name: "m_box_last_loses_every_warhead",
        source: M,
        target: "frigate",
        marked: 8,
        shields: Some(0),
        dice: &[1, 1],
        ..Resolve::default()
    });
    assert_eq!(json["target"]["warheads"], 0);
}

#[test]
fn system_box_disables_a_scanner() {
    let json = check_resolve(Resolve {
        name: "s_box_disables_long_range_scanner",
        source: S,
        target: "escort",
        marked: 6,
        dice: &[2],
        ..Resolve::default()
    });
    assert_eq!(json["target"]["long_range_scanner"], "disabled");
    assert_eq!(json["target"]["short_range_scanner"], "working");
}

#[test]
fn system_box_on_disabled_scanners_destroys_one() {
    let json = check_resolve(Resolve {
        name: "s_box_destroys_a_disabled_scanner",
        source: S,
        target: "escort",
        marked: 6,
        dice: &[2],
        prepare: Some(("both scanners disabled", |ship| {
            ship.scanners = [ScannerState::Disabled, ScannerState::Disabled];
        })),
        ..Resolve::default()
    });
    assert_eq!(json["target"]["long_range_scanner"], "destroyed");
    assert_eq!(json["target"]["short_range_scanner"], "disabled");
}

#[test]
fn system_box_with_no_scanner_left_does_nothing_more() {
    let json = check_resolve(Resolve {
        name: "s_box_no_scanner_left",
        source: S,
        target: "escort",
        marked: 6,
        dice: &[2],
        prepare: Some(("both scanners destroyed", |ship| {
            ship.scanners = [ScannerState::Destroyed, ScannerState::Destroyed];
            ship.intact[System::LongRangeScanner.index()] = 0;
            ship.intact[System::ShortRangeScanner.index()] = 0;
        })),
        ..Resolve::default()
    });
    assert_eq!(json["effects"], serde_json::json!([]));
}

#[test]
fn hangar_box_rolls_on_the_hangar_table() {
    // Hangar roll 5: 1d6 small craft bays, here 3 of 12.
    let json = check_resolve(Resolve {
        name: "h_box_small_craft_bays",
        source: H,
        target: "carrier",
        marked: 2,
        shields: Some(0),
        dice: &[1, 5, 3],
        ..Resolve::default()
    });
    assert!(
        json["target"]["systems_lost"]
            .to_string()
            .contains("small-craft-bay x3")
    );
}

#[test]
fn hangar_box_hits_the_door() {
    check_resolve(Resolve {
        name: "h_box_hangar_door",
        source: H,
        target: "carrier",
        marked: 11,
        shields: Some(0),
        dice: &[4, 1],
        ..Resolve::default()
    });
}

#[test]
fn hangar_result_already_lost_does_nothing_more() {
    let json = check_resolve(Resolve {
        name: "h_box_catapult_already_lost",
        source: H,
        target: "carrier",
        marked: 2,
        shields: Some(0),
        dice: &[1, 6],
        prepare: Some(("catapult destroyed", |ship| {
            ship.intact[System::Catapult.index()] = 0;
        })),
        ..Resolve::default()
    });
    assert_eq!(json["effects"], serde_json::json!([]));
}

#[test]
fn last_hangar_box_makes_the_hangar_unusable() {
    let json = check_resolve(Resolve {
        name: "h_box_last_hangar_unusable",
        source: H,
        target: "carrier",
        marked: 32,
        shields: Some(0),
        dice: &[1, 2],
        ..Resolve::default()
    });
    assert!(json["effects"].to_string().contains("hangar unusable"));
}

#[test]
fn udst_box_rolls_on_surface_features() {
    let json = check_resolve(Resolve {
        name: "u_box_sensors",
        source: U,
        target: "frigate",
        marked: 2,
        shields: Some(0),
        dice: &[7, 2],
        ..Resolve::default()
    });
    assert!(
        json["target"]["systems_lost"]
            .to_string()
            .contains("sensors x1")
    );
}

#[test]
fn udst_box_from_the_aft_arc_adds_two() {
    // 6 + 2 = 8: Turret Weapon, a row only the aft arc reaches.
    let json = check_resolve(Resolve {
        name: "u_box_aft_arc_plus_two",
        source: U,
        target: "frigate",
        marked: 2,
        shields: Some(0),
        aft: true,
        dice: &[5, 6],
        ..Resolve::default()
    });
    assert!(
        json["target"]["weapons_lost"]
            .to_string()
            .contains("laser-turret")
    );
}

#[test]
fn udst_fall_back_chain_reaches_internal_damage_and_rolls_again() {
    // Surface 6: Shield Emitter (the escort has none), so Internal Damage:
    // 1 Fixed Weapon (none), roll again: 2 Transporter (none), roll again:
    // 3 Thruster.
    let json = check_resolve(Resolve {
        name: "u_box_fall_back_chain",
        source: U,
        target: "escort",
        marked: 2,
        dice: &[1, 6, 1, 2, 3],
        ..Resolve::default()
    });
    assert!(
        json["target"]["systems_lost"]
            .to_string()
            .contains("thruster x1")
    );
}

#[test]
fn udst_fall_back_with_nothing_left_to_hit_ends() {
    // Surface 2: Sensors already lost; Internal Damage 4: Crew Deck lost
    // too, and no row of the table can hit anything left.
    let json = check_resolve(Resolve {
        name: "u_box_nothing_left_to_hit",
        source: U,
        target: "escort",
        marked: 2,
        dice: &[1, 2, 4],
        prepare: Some(("sensors, thrusters, crew deck and troops lost", |ship| {
            for s in [
                System::Sensors,
                System::Thruster,
                System::CrewDeck,
                System::Troops,
            ] {
                ship.intact[s.index()] = 0;
            }
        })),
        ..Resolve::default()
    });
    assert_eq!(json["effects"], serde_json::json!([]));
}

/// Surface Features at 6 (a Shield Emitter, which the escort lacks) sends
/// box 3, the escort's U, to Internal Damage, rolled `face`: the laser
/// turret hits on 1 (7 at range 1, -1 for the escort's size). Returns the
/// systems the escort has lost, as the report lists them.
fn internal_damage_on_the_escort(name: &str, face: u32) -> serde_json::Value {
    let json = check_resolve(Resolve {
        name,
        source: U,
        target: "escort",
        marked: 2,
        dice: &[1, 6, face],
        ..Resolve::default()
    });
    json["target"]["systems_lost"].clone()
}

/// Seed 002, Internal Damage "4. Crew Deck"; ruling 40: each crew deck
/// destroyed takes 1 from every repair number, and the event tells the
/// player so.
#[test]
fn a_crew_deck_lost_makes_repairs_harder() {
    let lost = internal_damage_on_the_escort("u_box_crew_deck_lost", 4);
    assert_eq!(lost, serde_json::json!(["crew-deck x1"]));
}

/// Seed 002, Internal Damage "5. Troops": one troop unit is killed, and
/// the event tells the player so.
#[test]
fn a_troops_result_kills_a_troop_unit() {
    let lost = internal_damage_on_the_escort("u_box_troop_unit_killed", 5);
    assert_eq!(lost, serde_json::json!(["troops x1"]));
}

#[test]
fn action_box_loses_an_action() {
    let json = check_resolve(Resolve {
        name: "a_box_action_lost",
        source: A,
        target: "gunboat",
        marked: 3,
        dice: &[6],
        ..Resolve::default()
    });
    assert_eq!(json["target"]["actions_per_turn"], 1);
    assert_eq!(json["core_hit"], false);
}

/// The particle cannon's 3 boxes mark the destroyer's boxes 22 (A), 23 and
/// 24 (A): two A boxes lost in one attack, so one roll on the Core Hit
/// table, rolled `face`. Returns the systems the destroyer has lost, as
/// the report lists them.
fn core_hit_on_the_destroyer(name: &str, face: u32) -> serde_json::Value {
    let json = check_resolve(Resolve {
        name,
        source: A,
        weapon: "particle-cannon",
        target: "destroyer",
        range: 3,
        marked: 21,
        shields: Some(0),
        dice: &[4, face],
        ..Resolve::default()
    });
    assert_eq!(json["core_hit"], true, "{name}");
    assert_eq!(
        json["boxes_marked"],
        serde_json::json!(["A", "-", "A"]),
        "{name}"
    );
    json["target"]["systems_lost"].clone()
}

#[test]
fn two_action_boxes_in_one_attack_roll_on_core_hit() {
    let lost = core_hit_on_the_destroyer("a_boxes_two_in_one_attack_core_hit", 3);
    assert_eq!(lost, serde_json::json!(["power-plant x1"]));
}

#[test]
fn core_hit_on_a_system_the_ship_lacks_does_nothing_more() {
    let lost = core_hit_on_the_destroyer("a_boxes_core_hit_spinal_mount_missing", 4);
    assert_eq!(lost, serde_json::json!([]));
}

/// Seed 002, Core Hit "1. Fire Control"; ruling 13: the FCS rating counts
/// only while fire control is intact, and the event tells the player so.
#[test]
fn a_core_hit_on_fire_control_says_the_fcs_no_longer_counts() {
    let lost = core_hit_on_the_destroyer("a_boxes_core_hit_fire_control", 1);
    assert_eq!(lost, serde_json::json!(["fire-control x1"]));
}

/// Seed 002, Core Hit "2. Flag Bridge"; ruling 5: without its flag bridge
/// a ship receives no Command Points, and the event tells the player so.
#[test]
fn a_core_hit_on_the_flag_bridge_ends_the_command_points() {
    let lost = core_hit_on_the_destroyer("a_boxes_core_hit_flag_bridge", 2);
    assert_eq!(lost, serde_json::json!(["flag-bridge x1"]));
}

/// Seed 002, Core Hit "6. Shield Generator"; the rules note's table of
/// what each lost system does: its shields fall to 0 for good, and the
/// event tells the player so.
#[test]
fn a_core_hit_on_the_shield_generator_takes_the_shields_down_for_good() {
    let lost = core_hit_on_the_destroyer("a_boxes_core_hit_shield_generator", 6);
    assert_eq!(lost, serde_json::json!(["shield-generator x1"]));
}

/// A referee's rules folder may make Surface Features roll again on
/// itself, as Internal Damage does, instead of falling to Internal Damage
/// (`tables.toml` `surface-features.fallback`). No table of the data of
/// record that rolls again is ever rolled with a modifier, so this takes
/// edited data. Seed 002, line 68: the Surface Features roll adds +2 when
/// the attack came from the aft arc, so a roll again from the aft arc adds
/// it too, and ruling 17's "until a result can apply; if no row could hit
/// anything left, nothing more happens" asks which rows the die plus 2
/// can reach.
///
/// The frigate has lost both laser turrets, its sensors, its maneuvering
/// jets, its solar panel and its shield emitter: of its Surface Features
/// only the Hyperdrive Impeller is left, row 7, which only the +2 reaches.
/// The laser turret hits on 1 (7 at range 1) and marks box 3, the U:
/// 3 + 2 = 5, the Solar Panel, already lost, so roll again; 5 + 2 = 7, the
/// impeller is destroyed.
#[test]
fn a_surface_features_roll_again_from_the_aft_arc_keeps_its_plus_two() {
    let json = check_resolve(Resolve {
        name: "u_box_roll_again_aft_reaches_the_impeller",
        source: U,
        target: "frigate",
        aft: true,
        marked: 2,
        shields: Some(0),
        dice: &[1, 3, 5],
        prepare: Some((
            "both laser turrets, sensors, maneuvering jets, solar panel and shield emitter lost",
            |ship| {
                for mount in &mut ship.weapons[..2] {
                    mount.destroyed = true;
                }
                for s in [
                    System::TurretWeapon,
                    System::Sensors,
                    System::ManeuveringJets,
                    System::SolarPanel,
                    System::ShieldEmitter,
                ] {
                    ship.intact[s.index()] = 0;
                }
            },
        )),
        edits: &[(
            "tables.toml",
            "fallback = \"internal-damage\"",
            "fallback = \"roll-again\"",
        )],
        ..Resolve::default()
    });
    assert!(
        json["target"]["systems_lost"]
            .to_string()
            .contains("hyperdrive-impeller x1")
    );
}

#[test]
fn the_last_box_destroys_the_ship() {
    let json = check_resolve(Resolve {
        name: "last_box_destroys",
        source: "d10 action-based rules, Structure Damage (ruling: the last box destroys the ship)",
        target: "gunboat",
        marked: 8,
        dice: &[1],
        ..Resolve::default()
    });
    assert_eq!(json["target"]["status"], "destroyed");
}

#[test]
fn a_fresh_resolution_with_lock_roll_damage_dice_and_shields() {
    // Lock: 7 - 4 (range 8) + 3 (FCS) = 6, rolled 6. To hit 6 (bracket
    // 7-13), rolled 2. Damage 1d6+1 = 6: the frigate's 1 shield point takes
    // one, and boxes 1-5 are marked: U rolls Surface Features 3 (a turret),
    // A loses an action.
    let json = check_resolve(Resolve {
        name: "spinal_railgun_lock_roll_damage_dice",
        source: DIRECT,
        attacker: "cruiser",
        weapon: "spinal-railgun",
        target: "frigate",
        range: 8,
        locked: false,
        dice: &[6, 2, 5, 3],
        ..Resolve::default()
    });
    assert_eq!(json["lock"]["number"], 6);
    assert_eq!(json["shields_absorbed"], 1);
    assert_eq!(
        json["boxes_marked"],
        serde_json::json!(["-", "-", "U", "-", "A"])
    );
}

#[test]
fn natural_ten_always_misses() {
    // Particle cannon 8 + carrier size 2 = 10: a 10 is at or under, yet misses.
    let json = check_resolve(Resolve {
        name: "natural_ten_misses",
        source: "d10 action-based rules, Direct Fire Attack: a natural 10 always misses",
        weapon: "particle-cannon",
        target: "carrier",
        range: 3,
        dice: &[10],
        ..Resolve::default()
    });
    assert_eq!(json["target_number"], 10);
    assert_eq!(json["hits"], 0);
}

#[test]
fn nine_hits_at_ten() {
    let json = check_resolve(Resolve {
        name: "nine_hits_at_ten",
        source: "d10 action-based rules, Direct Fire Attack",
        weapon: "particle-cannon",
        target: "carrier",
        range: 3,
        shields: Some(0),
        dice: &[9, 3],
        ..Resolve::default()
    });
    assert_eq!(json["hits"], 1);
}

#[test]
fn a_bank_rolls_one_die_per_weapon_and_thrusting_lowers_the_number() {
    // Heavy laser 6 (range 5) + destroyer size 1 - 2 displacement = 5.
    // Rolls 5 (hit) and 6 (miss); the hit's 2 boxes go into 2 shield points.
    let json = check_resolve(Resolve {
        name: "heavy_laser_bank_target_thrusting",
        source: DIRECT,
        attacker: "frigate",
        weapon: "heavy-laser",
        target: "destroyer",
        range: 5,
        displacement: Some(2),
        dice: &[5, 6],
        ..Resolve::default()
    });
    assert_eq!(json["target_number"], 5);
    assert_eq!(json["rolls"], serde_json::json!([5, 6]));
    assert_eq!(json["shields_absorbed"], 2);
    assert_eq!(json["boxes_marked"], serde_json::json!([]));
}

#[test]
fn seekers_ignore_the_thrusting_modifier() {
    let json = check_resolve(Resolve {
        name: "seeker_ignores_thrusting",
        source: DIRECT,
        weapon: "seeker-launcher",
        target: "frigate",
        range: 10,
        displacement: Some(3),
        dice: &[5],
        ..Resolve::default()
    });
    assert_eq!(json["target_number"], 5);
}

#[test]
fn lock_within_two_plus_fcs_is_automatic() {
    // The frigate's FCS 1: automatic to range 3, so the first die is the to-hit roll.
    let json = check_resolve(Resolve {
        name: "lock_automatic",
        source: LOCK,
        attacker: "frigate",
        weapon: "heavy-laser",
        target: "destroyer",
        range: 3,
        locked: false,
        dice: &[8, 9],
        ..Resolve::default()
    });
    assert_eq!(json["lock"]["how"], "automatic");
}

#[test]
fn lock_roll_with_every_modifier_resolve_can_show() {
    // 7 - 3 (range 6) + 1 (FCS) - 1 (escort size) - 1 (stealth) + 2 (reaction
    // drive thrusting) = 5; rolled 4. To hit: 6 - 1 (size) - 1 (thrusting) = 4; rolled 6.
    let json = check_resolve(Resolve {
        name: "lock_roll_modifiers",
        source: LOCK,
        attacker: "frigate",
        weapon: "heavy-laser",
        target: "escort",
        range: 6,
        locked: false,
        displacement: Some(1),
        dice: &[4, 6, 7],
        ..Resolve::default()
    });
    assert_eq!(json["lock"]["number"], 5);
    assert_eq!(json["target_number"], 4);
}

#[test]
fn failed_lock_means_no_attack() {
    // 7 - 6 (range 12) + 1 (FCS) + 1 (size) = 3; rolled 5: no to-hit dice.
    let json = check_resolve(Resolve {
        name: "lock_fails",
        source: LOCK,
        attacker: "frigate",
        weapon: "heavy-laser",
        target: "destroyer",
        range: 12,
        locked: false,
        dice: &[5],
        ..Resolve::default()
    });
    assert_eq!(json["lock"]["locked"], false);
    assert_eq!(json["rolls"], serde_json::json!([]));
}

#[test]
fn rocket_pack_rolls_on_the_swarm_table() {
    // Range 4: modifier 0; rolled 7: row 7, column 10: 7 hits of 1 box.
    let json = check_resolve(Resolve {
        name: "rocket_pack_swarm_seven_hits",
        source: SWARM,
        attacker: "gunboat",
        weapon: "rocket-pack",
        target: "frigate",
        range: 4,
        dice: &[7, 1],
        ..Resolve::default()
    });
    assert_eq!(json["hits"], 7);
}

#[test]
fn swarm_rolls_below_one_read_the_0_minus_row() {
    // -2 (range 8) - 1 (escort size) = -3; rolled 2: -1, row "0-": no hits.
    let json = check_resolve(Resolve {
        name: "rocket_pack_swarm_row_zero_or_less",
        source: SWARM,
        attacker: "gunboat",
        weapon: "rocket-pack",
        target: "escort",
        range: 8,
        dice: &[2],
        ..Resolve::default()
    });
    assert_eq!(json["hits"], 0);
}

#[test]
fn swarm_rolls_above_eleven_read_the_12_plus_row() {
    // +2 (range 0) + 2 (carrier size) = +4; rolled 9: 13, row "12+": 10 hits.
    let json = check_resolve(Resolve {
        name: "rocket_pack_swarm_row_twelve_or_more",
        source: SWARM,
        attacker: "gunboat",
        weapon: "rocket-pack",
        target: "carrier",
        range: 0,
        dice: &[9, 4, 2],
        ..Resolve::default()
    });
    assert_eq!(json["hits"], 10);
}

#[test]
fn beyond_the_weapons_reach_is_refused() {
    let e = check_resolve_error(Resolve {
        name: "out_of_range",
        weapon: "laser-turret",
        range: 9,
        dice: &[1],
        ..Resolve::default()
    });
    assert!(matches!(e, ResolveError::Refused(_)), "{e}");
}

#[test]
fn a_weapon_the_attacker_lacks_is_refused_and_an_unknown_one_is_unknown() {
    let lacks = check_resolve_error(Resolve {
        name: "lacks",
        attacker: "escort",
        weapon: "heavy-laser",
        ..Resolve::default()
    });
    assert!(matches!(lacks, ResolveError::Refused(_)), "{lacks}");
    let unknown = check_resolve_error(Resolve {
        name: "unknown",
        weapon: "phaser",
        ..Resolve::default()
    });
    assert!(
        matches!(unknown, ResolveError::Unknown { kind: "weapon", .. }),
        "{unknown}"
    );
}

#[test]
fn scripted_dice_that_run_out_are_an_error() {
    let e = check_resolve_error(Resolve {
        name: "dice_run_out",
        target: "carrier",
        marked: 2,
        shields: Some(0),
        dice: &[1],
        ..Resolve::default()
    });
    assert!(
        matches!(
            e,
            ResolveError::Dice(DiceError::Exhausted { position: 2, .. })
        ),
        "{e}"
    );
}

#[test]
fn a_scripted_face_the_die_cannot_show_is_an_error() {
    let e = check_resolve_error(Resolve {
        name: "impossible_face",
        range: 12,
        weapon: "missile-launcher",
        locked: false,
        dice: &[7],
        ..Resolve::default()
    });
    assert!(
        matches!(e, ResolveError::Dice(DiceError::Impossible { face: 7, .. })),
        "{e}"
    );
}

/// Seed 002, "Target Lock": "Automatic within 2 + FCS rating hexes,
/// otherwise roll 7 or less on 1d6", with no scanner named. The gunboat has
/// no long range scanner and still rolls: at range 6 the number is 7 - 3
/// (three full steps of 2 hexes) + 0 (no fire control) + 0 (frigate size)
/// minus 0 (frigate stealth) = 4; rolled 1, locked. To hit: laser turret 3
/// (bracket 6-8) + 0 (size) = 3; rolled 1, a hit; its 1 box goes into the
/// frigate's shield point.
#[test]
fn a_lock_roll_needs_no_scanner() {
    let json = check_resolve(Resolve {
        name: "lock_rolled_without_long_range_scanner",
        source: LOCK,
        attacker: "gunboat",
        weapon: "laser-turret",
        target: "frigate",
        range: 6,
        locked: false,
        dice: &[1, 1],
        ..Resolve::default()
    });
    assert_eq!(json["lock"]["how"], "rolled");
    assert_eq!(json["lock"]["number"], 4);
    assert_eq!(json["hits"], 1);
}

/// The option `target-lock.needs-scanners`, off by default, keeps the old
/// house rule: without a long range scanner the gunboat cannot lock
/// beyond 2 + FCS 0 = 2 hexes, and rolls nothing.
#[test]
fn with_the_scanner_option_a_ship_without_a_long_range_scanner_cannot_roll_a_lock() {
    let json = check_resolve(Resolve {
        name: "lock_option_needs_scanners_gunboat",
        source: "option target-lock.needs-scanners (a house rule, off by default)",
        attacker: "gunboat",
        weapon: "laser-turret",
        target: "frigate",
        range: 6,
        locked: false,
        dice: &[],
        edits: &[(
            "rules.toml",
            "needs-scanners = false",
            "needs-scanners = true",
        )],
        ..Resolve::default()
    });
    assert_eq!(json["lock"]["how"], "impossible");
    assert_eq!(json["rolls"], serde_json::json!([]));
}

/// Seed 002: the lock counts the range between ship counters, a salvo
/// between destination counters. Destroyer on the frigate with ship
/// counters 6 hexes apart and destinations 10 apart: lock
/// 7 - 3 (range 6) + 2 (FCS) = 6, rolled 6, locked; the missile at range 10 (bracket
/// 7-12) is 6 + 0 (size) = 6, rolled 6, a hit; 2 boxes, the shield point
/// takes 1 and one box is marked.
#[test]
fn resolve_takes_the_lock_range_apart_from_the_salvo_range() {
    let json = check_resolve(Resolve {
        name: "missile_lock_range_apart",
        source: "Seed 002, \"Projectile/Seeker Attack\": \"Count the range between the attacker and target's destination counters\"; \"Target Lock\": \"-1 for every 2 full hexes of range to the target ship\"",
        weapon: "missile-launcher",
        range: 10,
        lock_range: Some(6),
        locked: false,
        dice: &[6, 6],
        ..Resolve::default()
    });
    assert_eq!(json["lock"]["number"], 6);
    assert_eq!(json["target_number"], 6);
    assert_eq!(json["hits"], 1);
}

/// Direct fire counts both the lock and the attack between ship counters,
/// so a separate lock range is bad input, named as such.
#[test]
fn a_lock_range_for_direct_fire_is_bad_input() {
    let e = check_resolve_error(Resolve {
        name: "lock_range_direct",
        weapon: "laser-turret",
        range: 2,
        lock_range: Some(6),
        locked: false,
        dice: &[1, 1],
        ..Resolve::default()
    });
    assert!(
        matches!(&e, ResolveError::BadOption { option, .. } if option == "lock-range"),
        "{e}"
    );
}

/// Seed 002: "roll 1d10 per weapon used in the attack"; `resolve` rolls a
/// bank of three launchers as an engagement does. To hit at range 3: 7
/// (bracket 0-6) + 1 (destroyer size) = 8; rolled 2, 8, 10: two hits (a
/// natural 10 misses). The shields take the first hit's 2 boxes; the
/// second marks 2.
#[test]
fn resolve_rolls_a_bank_of_launchers_one_die_each() {
    let json = check_resolve(Resolve {
        name: "missile_bank_of_three_resolve",
        source: "Seed 002, \"Direct Fire Attack\": \"roll 1d10 per weapon used in the attack\"",
        attacker: "frigate",
        weapon: "missile-launcher",
        target: "destroyer",
        range: 3,
        dice: &[2, 8, 10],
        edits: &[(
            "ships.toml",
            "{ weapon = \"missile-launcher\" },",
            "{ weapon = \"missile-launcher\", bank = 3 },",
        )],
        ..Resolve::default()
    });
    assert_eq!(json["bank"], 3);
    assert_eq!(json["hits"], 2);
}

const NEEDS_SCANNERS: [(&str, &str, &str); 1] = [(
    "rules.toml",
    "needs-scanners = false",
    "needs-scanners = true",
)];

/// The option `target-lock.needs-scanners` (off by default): an automatic
/// lock needs a working short range scanner. The destroyer (FCS 2) at
/// range 2 is within 2 + 2 = 4 hexes: with its short range scanner working
/// the lock is automatic and no die is rolled; to hit, laser turret 7
/// (bracket 0-2) + 0 (frigate size) = 7, rolled 1, a hit on the frigate's
/// shield point.
#[test]
fn with_the_scanner_option_a_working_short_range_scanner_locks_close_targets_automatically() {
    let outcome = check_declared(Declared {
        name: "lock_option_needs_scanners_short_range_working",
        source: "option target-lock.needs-scanners (a house rule, off by default)",
        range: 2,
        lock: Some(lone_target(2)),
        dice: &[1],
        edits: &NEEDS_SCANNERS,
        ..Declared::default()
    });
    let lock = outcome.lock.expect("a lock is made");
    assert_eq!(lock.number, LockNumber::Automatic);
    assert!(lock.rolls.is_empty());
}

/// The option `target-lock.needs-scanners`: without a working short range
/// scanner even a close lock is rolled. The destroyer, its short range
/// scanner disabled, at range 2: 7 - 1 (one full step of 2 hexes) + 2
/// (FCS) = 8; rolled 6, locked. To hit 7, rolled 1, a hit on the frigate's
/// shield point.
#[test]
fn with_the_scanner_option_a_close_lock_without_the_short_range_scanner_is_rolled() {
    let outcome = check_declared(Declared {
        name: "lock_option_needs_scanners_short_range_disabled",
        source: "option target-lock.needs-scanners (a house rule, off by default)",
        range: 2,
        lock: Some(lone_target(2)),
        prepare_attacker: Some(("short range scanner disabled", |ship| {
            ship.scanners[Scanner::ShortRange.index()] = ScannerState::Disabled;
        })),
        dice: &[6, 1],
        edits: &NEEDS_SCANNERS,
        ..Declared::default()
    });
    let lock = outcome.lock.expect("a lock is made");
    assert_eq!(lock.number, LockNumber::Roll(8));
    assert!(lock.locked);
}

/// Seed 002, "Target Lock" names no scanner, so with the option off a
/// destroyer whose short range scanner is disabled still locks
/// automatically within 2 + FCS 2 = 4 hexes; to hit 7, rolled 1, a hit.
#[test]
fn without_the_scanner_option_a_close_lock_is_automatic_whatever_the_scanners() {
    let outcome = check_declared(Declared {
        name: "lock_automatic_short_range_scanner_disabled",
        source: LOCK,
        range: 2,
        lock: Some(lone_target(2)),
        prepare_attacker: Some(("short range scanner disabled", |ship| {
            ship.scanners[Scanner::ShortRange.index()] = ScannerState::Disabled;
        })),
        dice: &[1],
        ..Declared::default()
    });
    assert_eq!(
        outcome.lock.map(|lock| lock.number),
        Some(LockNumber::Automatic)
    );
}

/// Ruling 5 (rules note): a Command Point re-rolls one failed lock or
/// to-hit die, and a point spent is gone. The destroyer offers 2 re-rolls
/// with its heavy laser on the frigate at range 10. Lock: 7 - 5 (five full
/// steps of 2 hexes) + 2 (FCS) = 4; rolled 6, re-rolled 2 (one point
/// spent), locked. To hit: 4 (bracket 8-12) + 0 (size) = 4; rolled 9, a
/// miss, re-rolled 9 (the last point), a miss, and no point is left to
/// roll again. Both points count as used, and the miss applies nothing.
#[test]
fn command_points_spent_on_the_lock_are_gone_for_the_to_hit_roll() {
    let outcome = check_declared(Declared {
        name: "rerolls_shared_by_lock_and_to_hit",
        source: "d10 action-based rules, Target Lock and Direct Fire Attack; rules note, ruling 5 (a Command Point re-rolls one failed die)",
        weapon: "heavy-laser",
        range: 10,
        lock: Some(lone_target(10)),
        rerolls: 2,
        dice: &[6, 2, 9, 9],
        ..Declared::default()
    });
    assert_eq!(outcome.lock.as_ref().map(|l| l.rerolls_used), Some(1));
    assert_eq!(outcome.rerolls_used, 2, "the lock's re-roll counts too");
    assert_eq!(outcome.hits, 0);
    assert_eq!(outcome.applied, None, "a miss applies no damage");
}

/// Ruling 5 (rules note): a Command Point re-rolls a failed die once at
/// most. The frigate's bank of two heavy lasers at the frigate, range 1,
/// lock held, with 3 re-rolls offered: the first die rolls a natural 10,
/// re-rolled 10, and is not rolled a third time; the second rolls 10,
/// re-rolled 1, a hit. Two points are spent, the third is left.
#[test]
fn a_command_point_re_rolls_each_die_once_at_most() {
    let outcome = check_declared(Declared {
        name: "reroll_once_per_die_bank",
        source: "rules note, ruling 5 (a Command Point re-rolls one failed die, once per die); seed 002, \"Direct Fire Attack\": \"roll 1d10 per weapon used in the attack\"",
        attacker: "frigate",
        weapon: "heavy-laser",
        rerolls: 3,
        dice: &[10, 10, 10, 1],
        ..Declared::default()
    });
    assert_eq!(&outcome.rolls[..], &[10, 10, 10, 1]);
    assert_eq!(outcome.rerolls_used, 2);
    assert_eq!(outcome.hits, 1);
}

/// Ruling 5 for the lock: the destroyer's lock on the frigate at range 10
/// needs 4 or less; rolled 6, re-rolled 6, and with a second point offered
/// the die is not rolled again. No lock, so nothing is fired.
#[test]
fn a_failed_lock_is_re_rolled_once_at_most() {
    let outcome = check_declared(Declared {
        name: "reroll_once_per_die_lock",
        source: "Seed 002, \"Target Lock\"; rules note, ruling 5 (a Command Point re-rolls one failed die, once per die)",
        weapon: "heavy-laser",
        range: 10,
        lock: Some(lone_target(10)),
        rerolls: 2,
        dice: &[6, 6],
        ..Declared::default()
    });
    let lock = outcome.lock.as_ref().expect("a lock was rolled");
    assert_eq!((lock.locked, lock.rerolls_used), (false, 1));
    assert_eq!(outcome.rerolls_used, 1);
    assert!(outcome.rolls.is_empty(), "no lock, no to-hit roll");
}

/// Seed 002, "Direct Fire Attack": "If the roll is higher than the target
/// number ... you miss": nothing reaches the target. Laser turret on the
/// frigate at range 1, lock held: 7 (bracket 0-2) + 0 (size) = 7; rolled
/// 8, a miss: no damage is applied, not even an empty one.
#[test]
fn a_miss_applies_nothing() {
    let outcome = check_declared(Declared {
        name: "miss_applies_nothing",
        source: DIRECT,
        range: 1,
        dice: &[8],
        ..Declared::default()
    });
    assert_eq!(outcome.hits, 0);
    assert_eq!(outcome.applied, None);
}

/// Rules note, ruling 14: a bank of launchers takes each launcher's
/// warheads and cannot launch unless the magazine holds them all, so a
/// frigate with a bank of three missile launchers and exactly 3 warheads
/// left may fire it. To hit at range 3: 7 (bracket 0-6) + 1 (destroyer size) = 8;
/// rolled 2, 8, 10: two hits (a natural 10 misses). The shields take the
/// first hit's 2 boxes; the second marks 2.
#[test]
fn a_magazine_holding_exactly_the_salvo_s_warheads_fires_it() {
    let json = check_resolve(Resolve {
        name: "missile_bank_of_three_last_warheads",
        source: "Seed 002, \"Projectile/Seeker Attack\"; rules note, ruling 14 (a bank takes each launcher's warheads)",
        attacker: "frigate",
        weapon: "missile-launcher",
        target: "destroyer",
        range: 3,
        dice: &[2, 8, 10],
        edits: &[
            (
                "ships.toml",
                "{ weapon = \"missile-launcher\" },",
                "{ weapon = \"missile-launcher\", bank = 3 },",
            ),
            ("ships.toml", "warheads = 8", "warheads = 3"),
        ],
        ..Resolve::default()
    });
    assert_eq!(json["bank"], 3);
    assert_eq!(json["hits"], 2);
}

/// Seed 002, "Swarmer/Rocket Pack Hits Table": the smallest column is a
/// swarm of 3; a smaller swarm reads it but cannot score more hits than
/// it has rockets (rules note, ruling 26). A gunboat's rocket pack
/// of 2 rockets on the frigate at range 1: 1d10 + 2 (bracket 0-2) + 0
/// (size); rolled 8, row 10 of column 3 prints 3 hits, so the swarm of 2
/// scores 2, and the log says why. The shield point takes the first; the
/// second marks a blank box.
#[test]
fn a_swarm_smaller_than_its_column_scores_no_more_hits_than_its_rockets() {
    let json = check_resolve(Resolve {
        name: "swarm_of_two_capped",
        source: SWARM,
        attacker: "gunboat",
        weapon: "rocket-pack",
        range: 1,
        dice: &[8],
        edits: &[("weapons.toml", "swarm-size = 10", "swarm-size = 2")],
        ..Resolve::default()
    });
    assert_eq!(json["hits"], 2);
}

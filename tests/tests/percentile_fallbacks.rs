//! Every fall-back of the Damage Table to a normal hull hit, the hull-damage multipliers, the 01-05 / 96-00 rule, and refused attacks.
//!
//! Sources: seed 000, "Explanation of Results" and "Recording Damage" (every
//! fall-back to a hull hit, double damage, LTD systems destroyed whole); seed
//! 001, "Defensive Systems" (masking screens halve lasers, rounded up); the
//! reference note (01-05 always hits, 96-00 always misses; the asterisk and
//! the masking rule are one halving). Damage rolls are unmodified for lasers
//! (DTM 0), so a script's first value is the Damage Table row.

use broadside_core::{Die, ResolveError, ScriptedDice};
use broadside_percentile::model::{Column, Defence};
use broadside_percentile::{Attack, Board, IcmLaunches, Percentile, SystemLost};
use broadside_tests::{
    Damage, allocate, allocate_fire, allocate_in, any_weapon_mount, attack, board,
    check_fire_fallback, check_hull_fallback, check_hull_fallback_in, check_refused, check_resolve,
    damaged_ship, fire, fire_with, num, percentile, percentile_with, percentile_with_civilians,
    resolve, resolve_with, ship, ship_of, systems_destroyed, text, weapon_mount,
};

// ---------------------------------------------------------------------------
// A system the ship lacks
// ---------------------------------------------------------------------------

/// Seed 000: "a weapon hit on a civilian ore carrier" is a hull hit. Every
/// weapon-hit row lists AR and every military ship but the fighter carries a
/// laser battery, so only a ship with no weapons at all lacks a whole row:
/// the tests' ore carrier. Each of the five weapon-hit rows falls back.
#[test]
fn weapon_hit_on_a_ship_without_weapons_is_a_hull_hit() {
    let system = percentile_with_civilians();
    let carrier = ship_of(system, "ore-carrier");
    for roll in [61, 63, 65, 67, 69] {
        check_hull_fallback_in(
            system,
            &format!("weapon hit {roll} on an ore carrier"),
            &carrier,
            "laser-battery",
            &[roll, 7],
            7,
        );
    }
}

/// Seed 000: a defense hit on a ship with none of the listed defences is a
/// hull hit. A fighter has only a reflective hull, which no row lists.
#[test]
fn defense_hit_on_a_ship_without_the_listed_defences_is_a_hull_hit() {
    let fighter = ship("fighter");
    for roll in [75, 78, 81] {
        check_hull_fallback(
            &format!("defense hit {roll} on a fighter"),
            &fighter,
            "laser-battery",
            &[roll, 3],
            3,
        );
    }
}

/// Seed 000: a hit on a system a ship does not have is a hull hit: the ore
/// carrier has no screens, masking screens or ICMs to short-circuit, and no
/// defences at all.
#[test]
fn power_short_circuit_and_defense_hits_on_an_ore_carrier_are_hull_hits() {
    let system = percentile_with_civilians();
    let carrier = ship_of(system, "ore-carrier");
    for roll in [71, 74, 75, 78, 81] {
        check_hull_fallback_in(
            system,
            &format!("row {roll} on an ore carrier"),
            &carrier,
            "laser-battery",
            &[roll, 5],
            5,
        );
    }
}

/// Seed 000, the same fall-back seen through `Ruleset::resolve`, as the CLI
/// reports it: a frigate's laser battery hits a fighter (50 - 5 = 45%, roll
/// 20); damage roll 76 is a defense hit (PS; ES; SS; MS; ICM), which a fighter
/// cannot take, so it is a hull hit of 1d10 = 6 instead: 8 - 6 = 2 left.
#[test]
fn a_fall_back_as_the_report_shows_it() {
    check_resolve(
        "seed000_defense_hit_on_a_fighter_is_a_hull_hit",
        "seed 000, Explanation of Results: a hit on a system the ship does not have is a hull hit (defense hit 76 on a fighter)",
        "frigate",
        "fighter",
        &[("weapon", text("laser-battery")), ("range", num(1))],
        &[20, 76, 6],
    );
    let r = resolve(
        "frigate",
        "fighter",
        &[("weapon", text("laser-battery")), ("range", num(1))],
        &[20, 76, 6],
    )
    .expect("the attack is allowed");
    assert_eq!(r.json["result"], "defense-hit");
    assert_eq!(r.json["applied"], "hull-hit");
    assert_eq!(r.json["system_destroyed"], serde_json::Value::Null);
    assert_eq!(r.json["hull_damage"], 6);
    assert_eq!(r.json["target"]["hull"], 2);
}

// ---------------------------------------------------------------------------
// A system already lost
// ---------------------------------------------------------------------------

/// Seed 000: a hit on a system already destroyed is a hull hit. A fighter
/// whose assault rockets are destroyed takes weapon hit 61 (LC; LB; PB; EB;
/// AR; RB): 1d10 = 7 hull points instead.
#[test]
fn weapon_hit_on_a_weapon_already_lost_is_a_hull_hit() {
    let fighter = damaged_ship("fighter", &[Damage::Weapon("assault-rocket")]);
    check_hull_fallback(
        "weapon hit 61 on a fighter with no assault rockets",
        &fighter,
        "laser-battery",
        &[61, 7],
        7,
    );
}

/// Seed 000, Weapon System Hit: "If the damaged ship does not have that
/// type of system, then the system listed second will be destroyed"; and
/// "if a hit is scored on a ship's system that has already been destroyed by
/// damage ..., that hit is treated as a hull hit". A destroyer whose laser
/// cannon is gone takes 66 (DC; LC; AR; T; LB): it does not have a DC, so
/// the hit passes to LC, which it has but which is destroyed: a hull hit of
/// the laser battery's 1d10 = 4 (50 - 4 = 46 left), and its torpedoes stay.
#[test]
fn weapon_hit_on_a_listed_weapon_already_destroyed_is_a_hull_hit() {
    let destroyer = damaged_ship("destroyer", &[Damage::Weapon("laser-cannon")]);
    check_hull_fallback(
        "weapon hit 66 on a destroyer whose laser cannon is destroyed",
        &destroyer,
        "laser-battery",
        &[66, 4],
        4,
    );
}

/// Seed 000, Weapon System Hit: the list names types of system. A
/// battleship carries three laser batteries (three systems); with one
/// destroyed it still has that type intact, so row 69 (LB; RB; T; AR; PB;
/// EB; LC) destroys a second laser battery. With all three destroyed the
/// same row is a hull hit: 1d10 = 8, 120 - 8 = 112.
#[test]
fn weapon_hit_on_a_type_with_an_intact_mount_destroys_it() {
    let battleship = damaged_ship("battleship", &[Damage::Weapon("laser-battery")]);
    let a = allocate(&battleship, "laser-battery", false, &[69]);
    let lb = percentile().rules.weapon_id("laser-battery").unwrap();
    assert!(!a.applied.fell_back);
    assert_eq!(a.applied.system_lost, Some(SystemLost::Weapon(lb)));
    assert_eq!(systems_destroyed(&a.after), 2);

    let stripped = damaged_ship(
        "battleship",
        &[
            Damage::Weapon("laser-battery"),
            Damage::Weapon("laser-battery"),
            Damage::Weapon("laser-battery"),
        ],
    );
    check_hull_fallback(
        "weapon hit 69 on a battleship with every laser battery destroyed",
        &stripped,
        "laser-battery",
        &[69, 8],
        8,
    );
}

/// House rule `skip-destroyed-systems` (off by default): a destroyed system
/// passes the hit on down the list like one the ship does not have. The
/// destroyer without its laser cannon takes 66 (DC; LC; AR; T; LB): no DC,
/// LC destroyed, no AR, so its torpedoes are destroyed and no hull is lost.
#[test]
fn skip_destroyed_systems_house_rule_passes_the_hit_down_the_list() {
    let system = percentile_with(|c| c.skip_destroyed_systems = true);
    let destroyer = damaged_ship("destroyer", &[Damage::Weapon("laser-cannon")]);
    let a = allocate_in(&system, &destroyer, "laser-battery", false, &[66]);
    let torpedo = percentile().rules.weapon_id("torpedo").unwrap();
    assert!(!a.applied.fell_back);
    assert_eq!(a.applied.system_lost, Some(SystemLost::Weapon(torpedo)));
    assert_eq!(a.applied.hull_damage, 0);
    assert!(a.after.weapons[any_weapon_mount(&a.after, "torpedo")].destroyed);
    assert_eq!(systems_destroyed(&a.after), 2);

    // Defense hits likewise: without ICMs, 83 (ICM; SS; PS; ES; MS) takes the
    // masking screen.
    let destroyer = damaged_ship("destroyer", &[Damage::Defence("icm")]);
    let a = allocate_in(&system, &destroyer, "laser-battery", false, &[83]);
    assert_eq!(
        a.applied.system_lost,
        Some(SystemLost::Defence(Defence::MaskingScreen))
    );
    assert!(!a.applied.fell_back);
}

/// Seed 000, Defense Hit: "handled the same as weapon system hits". A
/// destroyer whose ICMs are gone takes 83 (ICM; SS; PS; ES; MS): it has ICMs
/// and they are destroyed, so it is a hull hit, 1d10 = 5, and its masking
/// screen stays. With masking screen and ICMs both gone, 76 (PS; ES; SS; MS;
/// ICM) passes PS, ES and SS, which a destroyer does not have, to MS: a hull
/// hit again.
#[test]
fn defense_hit_on_defences_already_lost() {
    let destroyer = damaged_ship("destroyer", &[Damage::Defence("icm")]);
    check_hull_fallback(
        "defense hit 83 on a destroyer whose ICMs are destroyed",
        &destroyer,
        "laser-battery",
        &[83, 5],
        5,
    );

    let stripped = damaged_ship(
        "destroyer",
        &[Damage::Defence("icm"), Damage::Defence("masking-screen")],
    );
    check_hull_fallback(
        "defense hit 76 on a destroyer without masking screen or ICMs",
        &stripped,
        "laser-battery",
        &[76, 4],
        4,
    );
}

/// Seed 000: "a drive hit on a ship with no ADF left" is a hull hit, for each
/// of the three drive rows.
#[test]
fn drive_hit_at_adf_0_is_a_hull_hit() {
    let destroyer = damaged_ship("destroyer", &[Damage::Adf(3)]);
    for roll in [46, 49, 50, 52, 53] {
        check_hull_fallback(
            &format!("drive hit {roll} at ADF 0"),
            &destroyer,
            "laser-battery",
            &[roll, 6],
            6,
        );
    }
}

/// Seed 000, Recording Damage: drive hits are cumulative; "if the ship had
/// only 1 or 2 ADF points to begin with, then its ADF is brought to 0 and all
/// further drive hits are treated as hull hits." Three lose-1 hits take a
/// destroyer from ADF 3 to 0; the fourth is a hull hit.
#[test]
fn drive_hits_are_cumulative_then_hull_hits() {
    let mut destroyer = ship("destroyer");
    for expected_adf in [2, 1, 0] {
        let a = allocate(&destroyer, "laser-battery", false, &[47]);
        assert!(!a.applied.fell_back);
        assert_eq!(a.after.adf, expected_adf);
        destroyer = a.after;
    }
    check_hull_fallback("fourth drive hit", &destroyer, "laser-battery", &[47, 9], 9);
}

/// Seed 000, Drive Hit: "If a ship has taken some drive damage, and receives
/// a '1/2 ADF' hit, it loses a number of ADF points equal to one-half of its
/// original ADF": half of 3, rounded up as the table prints, is 2. A
/// destroyer at ADF 2 drops to 0; one at ADF 1 loses its last point (a ship
/// cannot go below 0).
#[test]
fn half_adf_hit_on_a_damaged_drive_takes_half_the_original() {
    let at_2 = damaged_ship("destroyer", &[Damage::Adf(1)]);
    let a = allocate(&at_2, "laser-battery", false, &[51]);
    assert!(!a.applied.fell_back);
    assert_eq!(a.after.adf, 0);

    let at_1 = damaged_ship("destroyer", &[Damage::Adf(2)]);
    let a = allocate(&at_1, "laser-battery", false, &[51]);
    assert!(!a.applied.fell_back);
    assert_eq!(a.after.adf, 0);

    // A frigate's ADF 4: half is 2, from 4 leaves 2.
    let a = allocate(&ship("frigate"), "laser-battery", false, &[50]);
    assert_eq!(a.after.adf, 2);
    // A fighter's ADF 5: half rounded up is 3, from 5 leaves 2.
    let a = allocate(&ship("fighter"), "laser-battery", false, &[52]);
    assert_eq!(a.after.adf, 2);
}

/// Seed 000: a steering hit on a ship with no MR left is a hull hit (the
/// drive rule's "system already destroyed" applied to steering).
#[test]
fn steering_hit_at_mr_0_is_a_hull_hit() {
    let destroyer = damaged_ship("destroyer", &[Damage::Mr(3)]);
    for roll in [54, 58, 59, 60] {
        check_hull_fallback(
            &format!("steering hit {roll} at MR 0"),
            &destroyer,
            "laser-battery",
            &[roll, 2],
            2,
        );
    }
}

/// Seed 000: "Combat control system and damage control hits are not
/// cumulative. After one of these systems has been hit, any more hits on
/// that system are considered hull hits."
#[test]
fn second_combat_control_hit_is_a_hull_hit() {
    let destroyer = damaged_ship("destroyer", &[Damage::CombatControl]);
    check_hull_fallback(
        "second combat control hit",
        &destroyer,
        "laser-battery",
        &[88, 5],
        5,
    );
}

/// Seed 000: a second damage control hit is a hull hit. The disruptor cannon
/// (DTM +20) reaches the row: 86 + 20 = 106; 3d10 = 3 + 4 + 5 = 12.
#[test]
fn second_damage_control_hit_is_a_hull_hit() {
    let destroyer = damaged_ship("destroyer", &[Damage::DamageControl]);
    assert_eq!(destroyer.dcr, 38, "75 halved, rounded up");
    check_hull_fallback(
        "second damage control hit",
        &destroyer,
        "disruptor-cannon",
        &[86, 3, 4, 5],
        12,
    );
}

/// Seed 000, Damage Control Hit: DCR cut in half, fractions rounded up: a
/// destroyer's 75 becomes 38.
#[test]
fn damage_control_hit_halves_dcr_rounding_up() {
    let a = allocate(&ship("destroyer"), "disruptor-cannon", false, &[90]);
    assert!(!a.applied.fell_back);
    assert_eq!(a.after.dcr, 38);
    assert!(a.after.damaged.damage_control);
}

/// Seed 000 treats a second navigation hit like any hit on a system already
/// damaged: a hull hit.
#[test]
fn second_navigation_hit_is_a_hull_hit() {
    let destroyer = damaged_ship("destroyer", &[Damage::Navigation]);
    check_hull_fallback(
        "second navigation hit",
        &destroyer,
        "laser-battery",
        &[95, 8],
        8,
    );
}

/// Seed 000: "a ship can have only one fire at a time, so a result that would
/// cause a second fire is treated as hull damage." Also when the roll is the
/// fire's own: 80 + 20 = 100, a hull hit of the fire's 1d10.
#[test]
fn second_fire_is_a_hull_hit() {
    let destroyer = damaged_ship("destroyer", &[Damage::Fire]);
    check_hull_fallback(
        "second fire from a weapon",
        &destroyer,
        "laser-battery",
        &[98, 6],
        6,
    );
    check_fire_fallback("second fire from the fire's roll", &destroyer, &[80, 6], 6);
}

/// Seed 000, Power Short Circuit: all active defences stop, and no new
/// masking screens. A fighter has none of them (a reflective hull is not
/// affected): a hull hit. A ship already short-circuited: a hull hit.
#[test]
fn power_short_circuit_without_anything_to_lose_is_a_hull_hit() {
    let fighter = ship("fighter");
    check_hull_fallback(
        "short circuit on a fighter",
        &fighter,
        "laser-battery",
        &[71, 4],
        4,
    );
    let shorted = damaged_ship("destroyer", &[Damage::ShortCircuit]);
    check_hull_fallback(
        "second short circuit",
        &shorted,
        "laser-battery",
        &[74, 4],
        4,
    );
}

/// Seed 000, Power Short Circuit: a ship with ICMs and screens loses their
/// use (and the screen that was up), not the systems themselves.
#[test]
fn power_short_circuit_stops_screens_and_icms() {
    let mut cruiser = ship("light-cruiser");
    cruiser.screen = Some(Defence::StasisScreen);
    let a = allocate(&cruiser, "laser-battery", false, &[72]);
    assert!(!a.applied.fell_back);
    assert!(a.after.damaged.short_circuit);
    assert_eq!(a.after.screen, None);
    assert_eq!(a.after.icms_ready(), 0);
    assert_eq!(systems_destroyed(&a.after), 0);
}

/// Seed 000, Disastrous Fire: "DCR cut in half; lose entire ADF and MR; -10%
/// on all attacks; roll additional damage at +20 each turn". On a destroyer
/// already burning with its combat control hit, the parts that can happen
/// apply (DCR 75 / 2 rounded up = 38, ADF 0, MR 0), and the parts already
/// in effect are hull damage: "a result that would cause a second fire is
/// treated as hull damage", and "any more hits on that system [combat
/// control] are considered hull hits". One normal hull hit for the result:
/// 97 + 20 (disruptor) = 117; 3d10 = 2 + 3 + 4 = 9, 50 - 9 = 41 left.
#[test]
fn disastrous_fire_on_a_burning_ship_applies_the_rest_and_a_hull_hit() {
    let destroyer = damaged_ship("destroyer", &[Damage::Fire, Damage::CombatControl]);
    let a = allocate(&destroyer, "disruptor-cannon", false, &[97, 2, 3, 4]);
    assert_eq!(a.applied.damage_roll, 117);
    assert!(a.applied.fell_back);
    assert_eq!(a.applied.hull_damage, 9);
    let mut expected = destroyer;
    expected.dcr = 38;
    expected.damaged.damage_control = true;
    expected.adf = 0;
    expected.mr = 0;
    expected.hull = 41;
    assert_eq!(a.after, expected);
    let lines: Vec<String> = a.events.iter().map(ToString::to_string).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("combat control is already damaged")
                && l.contains("only one fire at a time")),
        "{lines:#?}"
    );
}

/// Seed 000, a burning ship's own fire roll: +20 on d100, so 97 gives 117, a
/// Disastrous Fire, whose fire part would be a second fire. On an otherwise
/// whole destroyer: DCR 38, ADF 0, MR 0, combat control damaged, and the
/// second fire is a hull hit of the fire's 1d10 = 6 (50 - 6 = 44 left).
#[test]
fn a_fire_rolling_disastrous_fire_does_hull_damage_for_the_second_fire() {
    let burning = damaged_ship("destroyer", &[Damage::Fire]);
    let a = allocate_fire(&burning, &[97, 6]);
    assert_eq!(a.applied.damage_roll, 117);
    assert!(a.applied.fell_back);
    assert_eq!(a.applied.hull_damage, 6);
    assert_eq!((a.after.dcr, a.after.adf, a.after.mr), (38, 0, 0));
    assert!(a.after.damaged.combat_control && a.after.damaged.fire);
    assert_eq!(a.after.hull, 44);
}

/// Seed 000, Disastrous Fire ("lose entire ADF and MR") with one of the two
/// already gone: a hit on a system with nothing left to lose is a hull hit
/// ("a drive hit on a ship with no ADF left"), so the part already in
/// effect makes one normal hull hit while the rest apply. A destroyer with
/// no MR left, then one with no ADF left, takes 97 + 20 (disruptor) = 117:
/// DCR 38, ADF and MR 0, combat control damaged, burning, and 3d10 =
/// 1 + 2 + 3 = 6 hull points for the blocked part.
#[test]
fn disastrous_fire_with_mr_or_adf_already_gone_adds_a_hull_hit() {
    for (case, prepare) in [
        (
            "no MR left",
            (|s: &mut broadside_percentile::Ship| s.mr = 0) as fn(&mut _),
        ),
        ("no ADF left", |s: &mut broadside_percentile::Ship| {
            s.adf = 0
        }),
    ] {
        let mut destroyer = ship("destroyer");
        prepare(&mut destroyer);
        let a = allocate(&destroyer, "disruptor-cannon", false, &[97, 1, 2, 3]);
        assert!(
            a.applied.fell_back,
            "{case}: the blocked part is a hull hit"
        );
        assert_eq!(a.applied.hull_damage, 6, "{case}");
        assert_eq!((a.after.dcr, a.after.adf, a.after.mr), (38, 0, 0), "{case}");
        assert!(
            a.after.damaged.combat_control && a.after.damaged.fire,
            "{case}"
        );
        assert_eq!(a.after.hull, destroyer.hull - 6, "{case}");
    }
}

/// Seed 000, Disastrous Fire on an undamaged ship: every part applies.
#[test]
fn disastrous_fire_on_an_undamaged_ship_applies_every_part() {
    let a = allocate(&ship("destroyer"), "disruptor-cannon", false, &[100]);
    assert_eq!(a.applied.damage_roll, 120);
    let after = &a.after;
    assert_eq!((after.dcr, after.adf, after.mr), (38, 0, 0));
    assert!(after.damaged.damage_control && after.damaged.combat_control && after.damaged.fire);
    assert_eq!(a.applied.hull_damage, 0);
}

/// Seed 000: a disastrous fire of which every part is already in effect is a
/// hull hit, here 3d10 = 1 + 2 + 3 = 6, and the ruling says so: every part,
/// not some.
#[test]
fn disastrous_fire_with_every_part_in_effect_is_a_hull_hit() {
    let destroyer = damaged_ship(
        "destroyer",
        &[
            Damage::DamageControl,
            Damage::Adf(3),
            Damage::Mr(3),
            Damage::CombatControl,
            Damage::Fire,
        ],
    );
    check_hull_fallback(
        "disastrous fire with everything in effect",
        &destroyer,
        "disruptor-cannon",
        &[100, 1, 2, 3],
        6,
    );
    let a = allocate(&destroyer, "disruptor-cannon", false, &[100, 1, 2, 3]);
    let lines: Vec<String> = a.events.iter().map(ToString::to_string).collect();
    assert!(
        lines.iter().any(|l| l.contains(
            "every part of it is already in effect: the destroyer takes a normal hull hit instead"
        )),
        "{lines:#?}"
    );
}

// ---------------------------------------------------------------------------
// Hull damage: double, half, and what is never destroyed
// ---------------------------------------------------------------------------

/// Seed 000, Hull Hits: "If the result indicates 'Double Damage,' the attacker
/// should roll the dice and multiply the result by 2": the assault rocket's
/// 2d10+4, bonus included. 20 - 10 = 10, double damage; (3 + 5 + 4) x 2 = 24.
#[test]
fn double_damage_doubles_the_rolled_damage_bonus_included() {
    let a = allocate(&ship("destroyer"), "assault-rocket", false, &[20, 3, 5]);
    assert_eq!(a.applied.damage_roll, 10);
    assert!(!a.applied.fell_back);
    assert_eq!(a.applied.hull_damage, 24);
    assert_eq!(a.after.hull, 26);
}

/// Seed 000: the Damage Table's first row starts at -20: a torpedo's 1 - 20 =
/// -19 is double damage, 4d10 = 4 x 1 = 4, doubled to 8.
#[test]
fn the_lowest_roll_is_double_damage() {
    let a = allocate(&ship("battleship"), "torpedo", false, &[1, 1, 1, 1, 1]);
    assert_eq!(a.applied.damage_roll, -19);
    assert_eq!(a.applied.hull_damage, 8);
}

/// A frigate's laser cannon at a destroyer in a masking screen at range 1:
/// 25 (masking screen, a * cell) - 5 = 20%.
fn laser_at_masked_destroyer(attacker_masked: bool, dice: &[u32]) -> i32 {
    let frigate = {
        let mut s = ship("frigate");
        s.masked = attacker_masked;
        s
    };
    let mut destroyer = ship("destroyer");
    destroyer.masked = true;
    let lc = weapon_mount(&frigate, "laser-cannon");
    let mut b = board(vec![("frigate", frigate), ("destroyer", destroyer)]);
    let shot = fire(&mut b, &attack(lc, 1), dice);
    let outcome = shot.outcome.expect("the attack is allowed");
    assert_eq!(outcome.to_hit, 20);
    assert_eq!(shot.dice_used, dice.len());
    let damage = outcome.damage.expect("the script hits");
    assert_eq!(b.ships[1].hull, 50 - damage.hull_damage);
    damage.hull_damage
}

/// Seed 001, Masking Screen: a laser hitting a ship in a masking screen does
/// half damage, fractions rounded up: 2d10 = 2 + 3 = 5, halved to 3. Double
/// damage is doubled first, then halved once: 5 x 2 = 10, halved to 5 (not
/// 3 x 2 = 6). A laser fired out of a masking screen into another is still
/// halved once, not twice (reference note: the asterisk and the masking rule
/// are the same halving).
#[test]
fn half_damage_for_lasers_and_masking_screens_applies_once_after_doubling() {
    assert_eq!(laser_at_masked_destroyer(false, &[10, 30, 2, 3]), 3);
    assert_eq!(laser_at_masked_destroyer(false, &[10, 5, 2, 3]), 5);
    assert_eq!(laser_at_masked_destroyer(true, &[10, 30, 2, 3]), 3);
    assert_eq!(laser_at_masked_destroyer(true, &[10, 5, 2, 3]), 5);
}

/// Seed 001: a masking screen has the same effect on a laser fired out of it:
/// an unmasked destroyer hit by a frigate firing its laser battery out of its
/// own screen takes half damage: 1d10 = 9, halved to 5, at 20 - 5 = 15%.
#[test]
fn a_laser_fired_out_of_a_masking_screen_is_halved() {
    let mut frigate = ship("frigate");
    frigate.masked = true;
    let lb = weapon_mount(&frigate, "laser-battery");
    let mut b = board(vec![("frigate", frigate), ("destroyer", ship("destroyer"))]);
    let shot = fire(&mut b, &attack(lb, 1), &[15, 20, 9]);
    let outcome = shot.outcome.expect("the attack is allowed");
    assert_eq!(outcome.to_hit, 15);
    assert_eq!(outcome.damage.expect("a hit").hull_damage, 5);
}

/// Seed 000's Damage Table: an electron beam against an electron screen is a
/// * cell (25%*): its hull damage is halved, rounded up: 1d10 = 7 gives 4.
#[test]
fn a_starred_screen_cell_halves_hull_damage() {
    let cruiser = ship("light-cruiser");
    let mut target = ship("light-cruiser");
    target.screen = Some(Defence::ElectronScreen);
    let eb = weapon_mount(&cruiser, "electron-beam-battery");
    let mut b = board(vec![("attacker", cruiser), ("target", target)]);
    let shot = fire(&mut b, &attack(eb, 0), &[25, 20, 7]);
    let outcome = shot.outcome.expect("the attack is allowed");
    assert_eq!(outcome.to_hit, 25);
    let damage = outcome.damage.expect("a hit");
    assert_eq!(damage.damage_roll, 30);
    assert_eq!(damage.hull_damage, 4);
}

/// Seed 000, Power Short Circuit and Defense Hit: a reflective hull is never
/// lost. No defense row lists it, so a fighter's defense hits are hull hits
/// (above), and a destroyer stripped of its other defences keeps it.
#[test]
fn a_reflective_hull_is_never_destroyed() {
    assert_eq!(
        percentile()
            .rules
            .defence_info(Defence::ReflectiveHull)
            .abbreviation,
        None
    );
    let stripped = damaged_ship(
        "destroyer",
        &[Damage::Defence("icm"), Damage::Defence("masking-screen")],
    );
    for roll in [75, 78, 81, 84] {
        let a = allocate(&stripped, "laser-battery", false, &[roll, 1]);
        assert!(a.applied.fell_back, "defense hit {roll}");
        assert!(a.after.defence(Defence::ReflectiveHull).is_some());
    }
    // And it still counts against the next attack: a laser battery at the
    // stripped destroyer uses the reflective-hull cell, 50%.
    let frigate = ship("frigate");
    let lb = weapon_mount(&frigate, "laser-battery");
    let b = board(vec![("frigate", frigate), ("destroyer", stripped)]);
    let to_hit = percentile().to_hit(&b, &attack(lb, 0), &mut broadside_core::NullSink);
    assert_eq!(to_hit.column, Column::ReflectiveHull);
    assert_eq!(to_hit.chance, 50);
}

/// Seed 000, Recording Damage: "If a torpedo, assault rocket or other LTD
/// weapon is damaged, the entire system is shut down, not just one torpedo or
/// rocket." 67 (T; AR; EB; PB; LB; RB) on a frigate destroys its torpedo
/// system, both torpedoes with it.
#[test]
fn an_ltd_system_is_destroyed_whole() {
    let frigate = ship("frigate");
    let a = allocate(&frigate, "laser-battery", false, &[67]);
    let torpedo = percentile().rules.weapon_id("torpedo").unwrap();
    assert_eq!(a.applied.system_lost, Some(SystemLost::Weapon(torpedo)));
    assert_eq!(a.after.ready_mount(torpedo), None, "no torpedo can fire");
    assert_eq!(
        systems_destroyed(&a.after),
        1,
        "one system, not one torpedo"
    );
}

/// Seed 000, Weapon System Hit: "If an LTD system with no ammunition left is
/// hit, the system is still destroyed."
#[test]
fn an_empty_ltd_system_is_still_destroyed() {
    let mut frigate = ship("frigate");
    let t = any_weapon_mount(&frigate, "torpedo");
    frigate.weapons[t].supply = Some(0);
    let a = allocate(&frigate, "laser-battery", false, &[68]);
    assert!(!a.applied.fell_back);
    assert!(a.after.weapons[t].destroyed);
}

// ---------------------------------------------------------------------------
// 01-05 always hits, 96-00 always misses
// ---------------------------------------------------------------------------

/// The to-hit roll of an attack on a board, and whether it hit.
fn hits(system: &Percentile, b: &Board, a: &Attack, roll: u32) -> (i32, bool) {
    let mut b = b.clone();
    let shot = fire_with(system, &mut b, a, &[roll, 50, 5, 5, 5, 5]);
    let outcome = shot.outcome.expect("the attack is allowed");
    (outcome.to_hit, outcome.hit)
}

/// Reference note: "A to-hit roll of 01-05 always hits". A destroyer's torpedo
/// at an evasive fighter (MR 5: -25) with a battleship in the fighter's hex
/// launching 12 ICMs (-120): 50 - 25 - 120 = -95%, and 01-05 still hit.
#[test]
fn rolls_01_to_05_always_hit_even_below_0_percent() {
    let destroyer = ship("destroyer");
    let t = weapon_mount(&destroyer, "torpedo");
    let b = board(vec![
        ("destroyer", destroyer),
        ("fighter", ship("fighter")),
        ("battleship", ship("battleship")),
    ]);
    let mut a = attack(t, 2);
    a.icms = 12;
    a.icm_launcher = Some(IcmLaunches::one(2, a.icms));
    for roll in 1..=5 {
        assert_eq!(hits(percentile(), &b, &a, roll), (-95, true), "roll {roll}");
    }
    assert_eq!(hits(percentile(), &b, &a, 6), (-95, false));

    // Exactly 0%: a torpedo at a destroyer launching its 5 ICMs: 50 - 50.
    let destroyer = ship("destroyer");
    let t = weapon_mount(&destroyer, "torpedo");
    let b = board(vec![("attacker", destroyer), ("target", ship("destroyer"))]);
    let mut a = attack(t, 1);
    a.icms = 5;
    assert_eq!(hits(percentile(), &b, &a, 5), (0, true));
    assert_eq!(hits(percentile(), &b, &a, 6), (0, false));
}

/// Reference note: "96-00 always misses". No cell of the data of record
/// reaches 96, so the test raises the laser cannon's reflective-hull cell to
/// 100: head-on at range 1 that is 100 - 5 + 10 = 105%, and 96-100 still
/// miss while 95 hits.
#[test]
fn rolls_96_to_00_always_miss_even_above_100_percent() {
    let mut system = percentile().clone();
    let lc = system.rules.weapon_id("laser-cannon").unwrap();
    system.rules.weapons[usize::from(lc)].cells[Column::ReflectiveHull.index()].advanced = 100;
    let frigate = ship("frigate");
    let m = weapon_mount(&frigate, "laser-cannon");
    let b = board(vec![("frigate", frigate), ("destroyer", ship("destroyer"))]);
    let mut a = attack(m, 1);
    a.head_on = true;
    for roll in 96..=100 {
        assert_eq!(hits(&system, &b, &a, roll), (105, false), "roll {roll}");
    }
    assert_eq!(hits(&system, &b, &a, 95), (105, true));
}

// ---------------------------------------------------------------------------
// Refused attacks change nothing
// ---------------------------------------------------------------------------

fn frigate_and_destroyer() -> Board {
    board(vec![
        ("frigate", ship("frigate")),
        ("destroyer", ship("destroyer")),
    ])
}

/// Reference note, Fire: a weapon fires only within its range (RA). A
/// frigate's laser battery (RA 9) at 10 hexes is refused, not missed.
#[test]
fn out_of_range_is_refused() {
    let b = frigate_and_destroyer();
    let lb = weapon_mount(&b.ships[0], "laser-battery");
    check_refused("laser battery at 10", &b, &attack(lb, 10), "beyond");
    // At RA itself it is allowed.
    let mut ok = b.clone();
    assert!(fire(&mut ok, &attack(lb, 9), &[99]).outcome.is_ok());
}

/// Reference note, Fire: forward-firing weapons fire "only into a
/// three-hex-wide arc ahead of the ship", which never holds the firer's own
/// hex, so an FF weapon at range 0 is refused (head-on or not), as
/// engagements never offer it; a battery at range 0 is allowed.
#[test]
fn forward_firing_weapons_at_range_0_are_refused() {
    let b = board(vec![
        ("light-cruiser", ship("light-cruiser")),
        ("destroyer", ship("destroyer")),
    ]);
    let dc = weapon_mount(&b.ships[0], "disruptor-cannon");
    let mut a = attack(dc, 0);
    check_refused("disruptor cannon", &b, &a, "cannot fire at range 0");
    a.head_on = true;
    check_refused("disruptor cannon head-on", &b, &a, "cannot fire at range 0");
    let frigate = frigate_and_destroyer();
    let lc = weapon_mount(&frigate.ships[0], "laser-cannon");
    check_refused(
        "laser cannon",
        &frigate,
        &attack(lc, 0),
        "cannot fire at range 0",
    );
    let scout = board(vec![
        ("assault-scout", ship("assault-scout")),
        ("destroyer", ship("destroyer")),
    ]);
    let ar = weapon_mount(&scout.ships[0], "assault-rocket");
    check_refused(
        "assault rocket",
        &scout,
        &attack(ar, 0),
        "cannot fire at range 0",
    );
    let mut ok = frigate.clone();
    let lb = weapon_mount(&ok.ships[0], "laser-battery");
    assert!(fire(&mut ok, &attack(lb, 0), &[99]).outcome.is_ok());
}

/// Seed 001, Masking Screen: a laser fired out of a masking screen is
/// resolved "as if the defending ship is masked", and a screen has "exactly
/// the same effect on a laser fired out of the screen as it does on a laser
/// fired into the screen", so two screens halve once (ruling 39). A masked
/// destroyer's laser battery at a masked destroyer, range 0: the masking
/// column, 20% (a `*` cell); rolled 05, a hit; Damage Table 30, a hull hit;
/// 1d10 = 10, halved once rounded up to 5, not 3.
#[test]
fn a_laser_between_two_masking_screens_is_halved_once() {
    let mut shooter = ship("destroyer");
    shooter.masked = true;
    let mut target = ship("destroyer");
    target.masked = true;
    let lb = weapon_mount(&shooter, "laser-battery");
    let mut b = board(vec![("destroyer", shooter), ("masked destroyer", target)]);
    let shot = fire(&mut b, &attack(lb, 0), &[5, 30, 10]);
    assert_eq!(shot.dice_used, 3);
    let outcome = shot.outcome.expect("the attack is allowed");
    assert_eq!(outcome.to_hit, 20);
    assert!(outcome.hit);
    assert_eq!(outcome.damage.expect("a hit").hull_damage, 5);
    assert_eq!(b.ships[1].hull, 45);
}

/// A destroyed weapon cannot fire.
#[test]
fn a_destroyed_weapon_is_refused() {
    let mut b = frigate_and_destroyer();
    let lc = weapon_mount(&b.ships[0], "laser-cannon");
    b.ships[0].weapons[lc].destroyed = true;
    check_refused("destroyed laser cannon", &b, &attack(lc, 1), "destroyed");
}

/// An LTD weapon whose supply is spent cannot fire.
#[test]
fn an_empty_limited_supply_is_refused() {
    let mut b = frigate_and_destroyer();
    let t = weapon_mount(&b.ships[0], "torpedo");
    b.ships[0].weapons[t].supply = Some(0);
    check_refused("no torpedoes left", &b, &attack(t, 1), "no Torpedo left");
}

/// Reference note: only forward-firing weapons fire head-on; a laser battery
/// declared head-on is refused.
#[test]
fn head_on_with_a_weapon_that_is_not_forward_firing_is_refused() {
    let b = frigate_and_destroyer();
    let lb = weapon_mount(&b.ships[0], "laser-battery");
    let mut a = attack(lb, 1);
    a.head_on = true;
    check_refused("head-on laser battery", &b, &a, "forward-firing");
}

/// Seed 001: ICMs are fired at torpedoes, assault rockets and rocket
/// batteries (and, in the Advanced Game, mines and seekers), never at lasers.
#[test]
fn icms_against_a_laser_are_refused() {
    let b = frigate_and_destroyer();
    let lb = weapon_mount(&b.ships[0], "laser-battery");
    let mut a = attack(lb, 1);
    a.icms = 1;
    check_refused("ICM at a laser battery", &b, &a, "ICMs cannot stop");
}

/// Seed 001: a ship carries a limited number of ICMs; a short-circuited ship
/// can launch none (seed 000, Power Short Circuit).
#[test]
fn icms_beyond_those_ready_are_refused() {
    let b = frigate_and_destroyer();
    let t = weapon_mount(&b.ships[0], "torpedo");
    let mut a = attack(t, 1);
    a.icms = 6;
    check_refused(
        "six ICMs from a destroyer's five",
        &b,
        &a,
        "can launch 5 ICMs",
    );
    let mut shorted = b.clone();
    shorted.ships[1].damaged.short_circuit = true;
    a.icms = 1;
    check_refused(
        "ICMs after a short circuit",
        &shorted,
        &a,
        "can launch 0 ICMs",
    );
}

/// Seed 000: mines detonate when an enemy ship enters their hex, and a
/// seeker when it enters a ship's hex or a ship enters its own: both attack
/// only ships in their own hex, and the refusal says so in the singular.
#[test]
fn mines_and_seekers_at_range_are_refused() {
    let b = board(vec![
        ("minelayer", ship("minelayer")),
        ("destroyer", ship("destroyer")),
    ]);
    let m = weapon_mount(&b.ships[0], "mine");
    check_refused(
        "mines at range 1",
        &b,
        &attack(m, 1),
        "a placed weapon (Mines) can attack only a ship in its own hex (range 0), not one at range 1",
    );
    let s = weapon_mount(&b.ships[0], "seeker-missile");
    check_refused(
        "a seeker at range 1",
        &b,
        &attack(s, 1),
        "a placed weapon (Seeker Missile) can attack only a ship in its own hex (range 0), not one at range 1",
    );
}

/// A weapon the attacker does not carry is refused by `Ruleset::resolve`,
/// which starts from fresh ships, before any die is rolled.
#[test]
fn a_weapon_the_attacker_lacks_is_refused() {
    let mut dice = ScriptedDice::new([50, 50, 5]);
    let result = resolve_with(
        "fighter",
        "destroyer",
        &[("weapon", text("laser-cannon")), ("range", num(1))],
        &mut dice,
    );
    match result {
        Err(ResolveError::Refused(message)) => {
            assert!(message.contains("carries no laser-cannon"), "{message}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(dice.used(), 0);
}

/// A fresh fire: the fire's Damage Table roll is d100 + 20, and a hull result
/// does the fire's 1d10 (reference note, Electrical fire).
#[test]
fn a_fire_hull_hit_does_1d10() {
    let burning = damaged_ship("destroyer", &[Damage::Fire]);
    let a = allocate_fire(&burning, &[15, 10]);
    assert_eq!(a.applied.damage_roll, 35);
    assert_eq!(a.applied.hull_damage, 10);
    assert_eq!(percentile().rules.constants.fire_hull_damage.die, Die::D10);
}

//! Every worked example of seeds 000 and 001 and of the percentile reference note, as a named snapshot with scripted dice.
//!
//! Each test names its source in its doc comment and in the snapshot's
//! `description`; each snapshot records its inputs. Where an example leaves a
//! roll out (the to-hit roll of a Damage Table example, the hull dice), the
//! script picks one that lets the example happen, and the test says which.

use broadside_tests::{Damage, Fix, check_break_apart, check_repair, check_resolve, flag, num};
use broadside_tests::{percentile, text};

/// Seed 000, Damage Table example: a destroyer is hit by a proton beam
/// battery; d100 73 + DTM 10 = 83. The seed prints the result garbled
/// ("Defensive Control hit"); 81-84 on the Damage Table is "Defense hit: ICM;
/// SS; PS; ES; MS", and the destroyer carries ICMs, so its ICMs are destroyed.
/// The example gives no firer or range: a light cruiser fires at range 2,
/// 60 (reflective hull) - 2 x 5 = 50%, and the to-hit roll is 10.
#[test]
fn proton_beam_73_plus_10_is_83() {
    check_resolve(
        "seed000_proton_beam_73_plus_10_is_83",
        "seed 000, Damage Table example: proton beam battery, 73 + 10 = 83, defense hit (ICM first)",
        "light-cruiser",
        "destroyer",
        &[("weapon", text("proton-beam-battery")), ("range", num(2))],
        &[10, 73],
    );
}

/// Seed 000, Weapon System Hit example: a destroyer takes a damage roll of
/// 66, "Weapon hit: DC; LC; AR; T; LB"; it has no disruptor cannon, so its
/// laser cannon is destroyed. A laser (DTM 0) makes the roll unmodified: a
/// frigate's laser battery at range 1, 50 - 5 = 45%, to-hit roll 20.
#[test]
fn weapon_hit_66_destroys_the_laser_cannon() {
    check_resolve(
        "seed000_weapon_hit_66_destroys_laser_cannon",
        "seed 000, Weapon System Hit example: damage roll 66 on a destroyer, no DC, so the LC is destroyed",
        "frigate",
        "destroyer",
        &[("weapon", text("laser-battery")), ("range", num(1))],
        &[20, 66],
    );
}

/// Seed 000, Drive Hit: "If a ship with 3 ADF loses 1, its ADF is reduced to
/// 2." A destroyer (ADF 3) takes damage roll 46 from a laser battery (DTM 0).
#[test]
fn drive_hit_on_adf_3_loses_one() {
    check_resolve(
        "seed000_drive_hit_adf_3_lose_one",
        "seed 000, Drive Hit: a ship with ADF 3 that loses 1 has ADF 2 (damage roll 46-49)",
        "frigate",
        "destroyer",
        &[("weapon", text("laser-battery")), ("range", num(1))],
        &[20, 46],
    );
}

/// Seed 000, Drive Hit: "If it loses one-half of its ADF, its ADF is reduced
/// to 1 (one-half of 3, rounded down)": the table's "lose 1/2 total ADF
/// (round up)" takes 2 of 3. Damage roll 50 on a destroyer.
#[test]
fn drive_hit_on_adf_3_loses_half() {
    check_resolve(
        "seed000_drive_hit_adf_3_lose_half",
        "seed 000, Drive Hit: a ship with ADF 3 that loses half has ADF 1 (damage roll 50-52)",
        "frigate",
        "destroyer",
        &[("weapon", text("laser-battery")), ("range", num(1))],
        &[20, 50],
    );
}

/// Seed 000, Drive Hit: "If the ship loses its entire ADF, its ADF is
/// reduced to 0." Damage roll 53 on a destroyer.
#[test]
fn drive_hit_on_adf_3_loses_all() {
    check_resolve(
        "seed000_drive_hit_adf_3_lose_all",
        "seed 000, Drive Hit: a ship with ADF 3 that loses its entire ADF has ADF 0 (damage roll 53)",
        "frigate",
        "destroyer",
        &[("weapon", text("laser-battery")), ("range", num(1))],
        &[20, 53],
    );
}

/// Seed 001, ICM example, in Advanced Game numbers. The seed's Basic Game
/// torpedo has 70% against a reflective hull; the Advanced Combat Table
/// gives 50%, so two ICMs at -10 each leave 50 - 20 = 30%. A destroyer's
/// torpedo at a frigate at range 3 (torpedoes have no range diffusion); the
/// frigate launches 2 of its 4 ICMs. To-hit roll 30 (hits, at the chance);
/// damage roll 40 - 20 = 20, a hull hit for 4d10 = 5 + 6 + 7 + 8 = 26.
#[test]
fn icm_torpedo_advanced_numbers() {
    check_resolve(
        "seed001_icm_torpedo_advanced_50_minus_20",
        "seed 001, ICM example in Advanced Game numbers: torpedo against reflective hull 50%, two ICMs at -10: 30%",
        "destroyer",
        "frigate",
        &[
            ("weapon", text("torpedo")),
            ("range", num(3)),
            ("icm", num(2)),
        ],
        &[30, 40, 5, 6, 7, 8],
    );
}

/// Seed 001, ICMs: "The attack's chance to hit is determined as if the
/// attack was hitting a reflective hull or a masking screen, whichever the
/// ship is using." A frigate's torpedo at a light cruiser with its stasis
/// screen up, at range 2, against 2 ICMs: the reflective hull's 50, not the
/// stasis screen's 75, so 50 - 2 x 10 = 30%. Rolled 40: a miss (at 75 - 20
/// = 55 it would have hit).
#[test]
fn icms_against_a_stasis_screen_use_the_hull_column() {
    check_resolve(
        "seed001_icms_against_a_stasis_screen_use_the_hull_column",
        "seed 001, ICMs: the chance is taken as against a reflective hull or masking screen; torpedo 50%, two ICMs at -10: 30%, rolled 40",
        "frigate",
        "light-cruiser",
        &[
            ("weapon", text("torpedo")),
            ("range", num(2)),
            ("screen", text("stasis")),
            ("icm", num(2)),
        ],
        &[40],
    );
}

/// Seed 001, ICM example, Basic Game arithmetic: "The torpedo normally has a
/// 70% chance to hit, but each of the ICMs lowers this by 10%... (70 - 20 =)
/// 50%." The Advanced table's torpedo against a reflective hull is 50%, not
/// 70%, so only the per-ICM modifier of the data can be checked against it.
#[test]
fn icm_torpedo_basic_arithmetic() {
    let rules = &percentile().rules;
    let torpedo = rules.weapon(rules.weapon_id("torpedo").expect("torpedo in the data"));
    let per_icm = torpedo.per_icm.expect("ICMs can stop a torpedo");
    assert_eq!(
        per_icm, -10,
        "seed 001: each ICM lowers a torpedo's chance by 10%"
    );
    assert_eq!(70 + 2 * per_icm, 50, "seed 001: (70 - 20 =) 50%");
}

/// Seed 000, Hull Hits, break-apart example: a destroyer of 50 hull points
/// has taken 32; it uses 3 ADF + 1 MR = 4 points; (32 - 25) x 4 = 28%. The
/// player rolls 29: the destroyer makes its move.
#[test]
fn break_apart_roll_29_survives() {
    check_break_apart(
        "seed000_break_apart_28_percent_roll_29_survives",
        "seed 000, break-apart example: destroyer, 32 damage of 50, 3 ADF + 1 MR: (32 - 25) x 4 = 28%, roll 29 survives",
        "destroyer",
        32,
        4,
        &[29],
    );
}

/// Seed 000, break-apart example: "If the player had rolled 28 or less, the
/// ship would have been destroyed." Roll 28.
#[test]
fn break_apart_roll_28_breaks_apart() {
    check_break_apart(
        "seed000_break_apart_28_percent_roll_28_breaks_apart",
        "seed 000, break-apart example: destroyer, 32 damage of 50, 3 ADF + 1 MR: 28%, a roll of 28 or less breaks it apart",
        "destroyer",
        32,
        4,
        &[28],
    );
}

/// Reference note (percentile), Fire: a laser cannon against a reflective
/// hull at 4 hexes, head-on: 60 + 10 - 20 = 50%. A frigate fires at a
/// destroyer; to-hit roll 50 (hits, at the chance); damage roll 30, a hull
/// hit for 2d10 = 4 + 9 = 13.
#[test]
fn head_on_laser_cannon_at_4_hexes() {
    check_resolve(
        "reference_head_on_laser_cannon_4_hexes_50_percent",
        "Knight Hawks rulebook, Fire: laser cannon against a reflective hull at 4 hexes, head-on: 60 + 10 - 20 = 50%",
        "frigate",
        "destroyer",
        &[
            ("weapon", text("laser-cannon")),
            ("range", num(4)),
            ("head-on", flag()),
        ],
        &[50, 30, 4, 9],
    );
}

/// Reference note (percentile), Repairs: a battleship (DCR 200) puts 50 on
/// its fire (rolls 89: fails), 50 on torpedoes (rolls 24: repaired), 50 and
/// 50 on its drive (62 fails, 30 succeeds: +1 ADF). The battleship starts
/// burning, with its torpedo system destroyed and one ADF lost (ADF 1 of 2).
#[test]
fn battleship_repair_turn() {
    check_repair(
        "reference_battleship_repair_turn",
        "Knight Hawks rulebook, Repairs: battleship DCR 200: fire 50 (89 fails), torpedoes 50 (24 repaired), drive 50 (62 fails), drive 50 (30: +1 ADF)",
        "battleship",
        &[Damage::Fire, Damage::Weapon("torpedo"), Damage::Adf(1)],
        &[
            (Fix::Fire, 50),
            (Fix::Weapon("torpedo"), 50),
            (Fix::Drive, 50),
            (Fix::Drive, 50),
        ],
        &[89, 24, 62, 30],
    );
}

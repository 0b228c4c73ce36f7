//! The chance to hit: which Combat Table cell a defence gives, and every modifier the Advanced Game applies to it.
//!
//! Sources: seed 001, "Defensive Systems" (the most effective defence is
//! used, except that a defence attracting a weapon is used instead; ICMs
//! subtract their modifier each) and the Combat Table; the reference note,
//! "Fire" (range diffusion, head-on, evasive manoeuvres, ICMs from any ship in
//! the target's hex) and seed 000, "Combat Control System Hit".

use broadside_core::{Event, EventLog, NullSink};
use broadside_percentile::model::{Column, Defence};
use broadside_percentile::{Attack, Board, IcmLaunches, Percentile, ToHit};
use broadside_tests::{
    Damage, attack, board, damaged_ship, fire, percentile, percentile_with, ship, weapon_mount,
};

/// The chance for `attacker`'s `weapon` at `target` at `range`, with the
/// target's `screen` up and masking screens as given.
fn chance(
    attacker: &str,
    weapon: &str,
    target: &str,
    range: u32,
    screen: Option<Defence>,
    target_masked: bool,
) -> ToHit {
    let a = ship(attacker);
    let mut t = ship(target);
    t.screen = screen;
    t.masked = target_masked;
    let m = weapon_mount(&a, weapon);
    let b = board(vec![("attacker", a), ("target", t)]);
    percentile().to_hit(&b, &attack(m, range), &mut NullSink)
}

fn cell(chance: i32, column: Column, half_damage: bool) -> ToHit {
    ToHit {
        chance,
        column,
        half_damage,
    }
}

/// Seed 001: "an attack's chance to hit is calculated against the most
/// effective defense": a laser battery at a heavy cruiser with its stasis
/// screen up uses the reflective hull (50), not the screen (65).
#[test]
fn the_most_effective_defence_is_used() {
    let h = chance(
        "light-cruiser",
        "laser-battery",
        "heavy-cruiser",
        0,
        Some(Defence::StasisScreen),
        false,
    );
    assert_eq!(h, cell(50, Column::ReflectiveHull, false));
    // A disruptor cannon at the same screen: 40 beats the hull's 60.
    let h = chance(
        "light-cruiser",
        "disruptor-cannon",
        "heavy-cruiser",
        0,
        Some(Defence::StasisScreen),
        false,
    );
    assert_eq!(h, cell(40, Column::StasisScreen, false));
}

/// Seed 001, NOTE: a proton screen attracts electron beams, and the chance
/// is taken against the attracting defence: 70, not the hull's 60.
#[test]
fn a_defence_that_attracts_the_weapon_is_used() {
    let h = chance(
        "light-cruiser",
        "electron-beam-battery",
        "heavy-cruiser",
        0,
        Some(Defence::ProtonScreen),
        false,
    );
    assert_eq!(h, cell(70, Column::ProtonScreen, false));
    let h = chance(
        "light-cruiser",
        "proton-beam-battery",
        "light-cruiser",
        0,
        Some(Defence::ElectronScreen),
        false,
    );
    assert_eq!(h, cell(70, Column::ElectronScreen, false));
    // A stasis screen lets missiles home in: a torpedo at 75, not 50.
    let h = chance(
        "light-cruiser",
        "torpedo",
        "heavy-cruiser",
        1,
        Some(Defence::StasisScreen),
        false,
    );
    assert_eq!(h, cell(75, Column::StasisScreen, false));
    // An attracting screen is used even inside a masking screen.
    let h = chance(
        "light-cruiser",
        "electron-beam-battery",
        "heavy-cruiser",
        0,
        Some(Defence::ProtonScreen),
        true,
    );
    assert_eq!(h.chance, 70);
}

/// Seed 001, ICMs: with ICMs launched the chance is "as if the attack was
/// hitting a reflective hull or a masking screen, whichever the ship is
/// using", so a stasis screen's attracting 75 for a torpedo gives way to the
/// hull's 50: with 2 ICMs, 50 - 20 = 30. A seeker (range 0) likewise: the
/// hull's 75 less 2 x 8 = 59, not the stasis screen's 90 - 16 = 74. Without
/// ICMs the stasis screen still draws the torpedo in (75).
/// The house rule `attracting-screen-against-icms` (off by default) keeps
/// the stasis column: 75 - 20 = 55.
#[test]
fn icms_take_the_chance_against_the_hull_or_masking_screen() {
    let with_icms = |system: &Percentile, weapon: &str, range: u32, icms: u16| {
        let a = ship("heavy-cruiser");
        let mut t = ship("light-cruiser");
        t.screen = Some(Defence::StasisScreen);
        let m = weapon_mount(&a, weapon);
        let b = board(vec![("heavy-cruiser", a), ("light-cruiser", t)]);
        let mut attack = attack(m, range);
        attack.icms = icms;
        system.to_hit(&b, &attack, &mut NullSink)
    };
    assert_eq!(
        with_icms(percentile(), "torpedo", 2, 2),
        cell(30, Column::ReflectiveHull, false)
    );
    assert_eq!(
        with_icms(percentile(), "seeker-missile", 0, 2),
        cell(59, Column::ReflectiveHull, false)
    );
    assert_eq!(
        with_icms(percentile(), "torpedo", 2, 0),
        cell(75, Column::StasisScreen, false)
    );
    let house = percentile_with(|c| c.attracting_screen_against_icms = true);
    assert_eq!(
        with_icms(&house, "torpedo", 2, 2),
        cell(55, Column::StasisScreen, false)
    );
}

/// Seed 001: a proton screen blocks proton beams: 25%, a * cell (half damage).
#[test]
fn a_screen_against_its_own_beam_is_a_starred_cell() {
    let h = chance(
        "light-cruiser",
        "proton-beam-battery",
        "heavy-cruiser",
        0,
        Some(Defence::ProtonScreen),
        false,
    );
    assert_eq!(h, cell(25, Column::ProtonScreen, true));
}

/// Seed 001: a masking screen protects against every weapon in its column;
/// against lasers it is a * cell.
#[test]
fn a_masking_screen_column() {
    let h = chance("frigate", "laser-battery", "destroyer", 0, None, true);
    assert_eq!(h, cell(20, Column::MaskingScreen, true));
    let h = chance(
        "light-cruiser",
        "proton-beam-battery",
        "destroyer",
        0,
        None,
        true,
    );
    assert_eq!(h, cell(50, Column::MaskingScreen, false));
}

/// Reference note: range diffusion costs RD weapons 5 per hex; others keep
/// their cell at any range they reach.
#[test]
fn range_diffusion_only_for_rd_weapons() {
    for range in 0..=9 {
        let h = chance("frigate", "laser-battery", "destroyer", range, None, false);
        assert_eq!(h.chance, 50 - 5 * range as i32, "laser battery at {range}");
    }
    for range in 0..=4 {
        let h = chance("destroyer", "torpedo", "frigate", range, None, false);
        assert_eq!(h.chance, 50, "torpedo at {range}");
    }
    let h = chance("frigate", "rocket-battery", "destroyer", 3, None, false);
    assert_eq!(h.chance, 40);
}

/// Seed 000, Combat Control System Hit: "subtract 10% from this ship's
/// chance to hit with any weapon".
#[test]
fn a_damaged_combat_control_system_costs_10() {
    let frigate = damaged_ship("frigate", &[Damage::CombatControl]);
    let lb = weapon_mount(&frigate, "laser-battery");
    let b = board(vec![("frigate", frigate), ("destroyer", ship("destroyer"))]);
    let h = percentile().to_hit(&b, &attack(lb, 1), &mut NullSink);
    assert_eq!(h.chance, 50 - 5 - 10);
}

/// Reference note (check): fighters and assault scouts attacked by torpedoes
/// subtract 5% per point of their MR; other weapons, and ships with no MR
/// left, are not dodged.
#[test]
fn evasive_small_craft_against_torpedoes() {
    assert_eq!(
        chance("destroyer", "torpedo", "fighter", 1, None, false).chance,
        50 - 25
    );
    assert_eq!(
        chance("destroyer", "torpedo", "assault-scout", 1, None, false).chance,
        50 - 20
    );
    assert_eq!(
        chance("destroyer", "laser-battery", "fighter", 1, None, false).chance,
        50 - 5
    );
    let destroyer = ship("destroyer");
    let t = weapon_mount(&destroyer, "torpedo");
    let b = board(vec![
        ("destroyer", destroyer),
        ("fighter", damaged_ship("fighter", &[Damage::Mr(5)])),
    ]);
    let mut log = EventLog::default();
    assert_eq!(percentile().to_hit(&b, &attack(t, 1), &mut log).chance, 50);
    // With no MR left there is no manoeuvre to show, not a modifier of 0.
    assert!(
        log.events
            .iter()
            .all(|e| !matches!(e, Event::Modifier { reason, .. } if reason.contains("evasive"))),
        "{:?}",
        log.events
    );
}

/// Reference note: a forward-firing weapon fired head-on gains +10.
#[test]
fn head_on_bonus_for_forward_firing_weapons() {
    let cruiser = ship("light-cruiser");
    let dc = weapon_mount(&cruiser, "disruptor-cannon");
    let b: Board = board(vec![("cruiser", cruiser), ("destroyer", ship("destroyer"))]);
    let mut a: Attack = attack(dc, 2);
    a.head_on = true;
    assert_eq!(
        percentile().to_hit(&b, &a, &mut NullSink).chance,
        60 - 10 + 10
    );
}

/// Seed 000, ICMs in the Advanced Game: ICMs can defend any ship in the
/// launcher's hex. A destroyer sharing a fighter's hex launches 2 ICMs
/// against an assault rocket aimed at the fighter: 60 - 2 x 5 = 50, and the
/// destroyer's ICMs are spent, not the fighter's (it has none).
#[test]
fn icms_from_another_ship_in_the_hex() {
    let scout = ship("assault-scout");
    let ar = weapon_mount(&scout, "assault-rocket");
    let mut b = board(vec![
        ("assault-scout", scout),
        ("fighter", ship("fighter")),
        ("destroyer", ship("destroyer")),
    ]);
    let mut a = attack(ar, 1);
    a.icms = 2;
    a.icm_launcher = Some(IcmLaunches::one(2, a.icms));
    let shot = fire(&mut b, &a, &[99]);
    let outcome = shot.outcome.expect("the attack is allowed");
    assert_eq!(outcome.to_hit, 50);
    assert!(!outcome.hit);
    assert_eq!(b.ships[2].icms_ready(), 3, "the destroyer spent 2 of 5");
    assert_eq!(
        b.ships[0].weapons[ar].supply,
        Some(3),
        "the scout spent 1 of 4 rockets"
    );
}

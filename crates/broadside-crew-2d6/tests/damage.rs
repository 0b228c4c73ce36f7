//! Direct-fire damage against armour: armour piercing, critical severity from the damage done, and the critical hits' own hull damage.
//!
//! Sources: the reference note for crew-2d6, "Damage" (the weapon's dice +
//! the attack's Effect - the target's armour), "Turret weapons" (railgun:
//! 2D, AP 4) and "Critical hits" (a hit at Effect 6 or more that does
//! damage is a critical hit of severity damage / 10, rounded up; each 10% of
//! the starting hull lost is a severity 1 critical hit; location on 2D,
//! 7 the Hull); criticals.toml gives the Hull's rows (severity 2: 2D
//! damage). Every hit here is allocated with scripted dice that must all be
//! used.

mod common;

use broadside_core::{DamageAllocation, EventLog, NullSink, ScriptedDice};
use broadside_crew_2d6::damage::{Pending, Work};
use broadside_crew_2d6::model::Band;
use broadside_crew_2d6::{Applied, Cause, Hit, Ship};
use common::{assert_all_used, battle, event_lines, location, system, weapon};

/// A fresh ship of the data of record.
fn fresh(id: &str) -> Ship {
    system()
        .ship(id)
        .unwrap_or_else(|| panic!("no ship class '{id}'"))
}

/// A direct-fire hit by one weapon of `id` at `effect`, from a turret.
fn direct(id: &str, effect: i32) -> Hit {
    Hit {
        weapon: weapon(id),
        effect,
        identical: 1,
        multiplier: 1,
        sand: 0,
        missiles: None,
    }
}

/// Allocates `hit` to `target` through the `DamageAllocation` trait, with
/// dice that must all be used; the ship after and what the hit did.
fn check_allocation(case: &str, target: &Ship, hit: &Hit, dice: &[u32]) -> (Ship, Applied) {
    let (ship, applied, _) = check_logged(case, target, hit, dice);
    (ship, applied)
}

/// [`check_allocation`] with the events it logged, as text.
fn check_logged(
    case: &str,
    target: &Ship,
    hit: &Hit,
    dice: &[u32],
) -> (Ship, Applied, Vec<String>) {
    let mut ship = target.clone();
    let mut scripted = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    let applied = system()
        .allocate(hit, &mut ship, &mut scripted, &mut log)
        .unwrap_or_else(|e| panic!("{case}: {e}"));
    assert_all_used(&scripted, case);
    let events = event_lines(&log.events);
    (ship, applied, events)
}

/// The severity of the attack's critical hit that a hit sets off, if any,
/// before any of it is done: the work's last piece.
fn attack_severity(case: &str, target: &Ship, hit: &Hit, dice: &[u32]) -> Option<u8> {
    let sys = system();
    let b = battle("corvette", "escort", Band::Short);
    let mut ship = target.clone();
    let mut work = Work::new();
    let mut scripted = ScriptedDice::new(dice);
    sys.allocate_deferred(
        hit,
        &mut ship,
        b.labels[1],
        &mut work,
        &mut scripted,
        &mut NullSink,
    )
    .unwrap_or_else(|e| panic!("{case}: {e}"));
    assert_all_used(&scripted, case);
    match work.last() {
        Some(Pending::Critical {
            location: None,
            severity,
            cause: Cause::Attack,
        }) => Some(*severity),
        _ => None,
    }
}

/// Railgun, AP 4, at an escort of armour 5: one point of armour counts.
/// 2D = 3 + 4 = 7, Effect 2: 7 + 2 - 1 = 8 damage, 200 - 8 = 192 hull.
#[test]
fn armour_piercing_lowers_the_targets_armour() {
    let escort = fresh("escort");
    assert_eq!(escort.armour, 5, "the escort's armour of record");
    let (after, applied, events) = check_logged(
        "railgun at an escort",
        &escort,
        &direct("railgun", 2),
        &[3, 4],
    );
    assert_eq!(applied.armour, 1, "armour 5 less AP 4");
    assert!(
        events.iter().any(|e| e.contains("armour 5 less AP 4")),
        "the log names the AP: {events:#?}"
    );
    assert_eq!(applied.damage, 8);
    assert_eq!(after.hull, 192);
    assert_eq!(
        after.armour, 5,
        "AP lowers armour for the hit, not for good"
    );
}

/// Railgun, AP 4, at a scout of armour 2: armour pierced beyond nothing
/// counts as none, never as extra damage. 2D = 2 + 1 = 3, Effect 0: 3 (less
/// than a tenth of the scout's 40 hull, so no critical hit).
#[test]
fn armour_piercing_beyond_the_armour_leaves_none() {
    let scout = fresh("scout");
    assert_eq!(scout.armour, 2, "the scout's armour of record");
    let (after, applied) =
        check_allocation("railgun at a scout", &scout, &direct("railgun", 0), &[2, 1]);
    assert_eq!(applied.armour, 0);
    assert_eq!(applied.damage, 3);
    assert_eq!(after.hull, 37);
}

/// A weapon without AP meets the whole armour: a pulse laser (2D) at the
/// escort, 2D = 6 + 6, Effect 1: 12 + 1 - 5 = 8.
#[test]
fn without_armour_piercing_the_whole_armour_counts() {
    let (_, applied, events) = check_logged(
        "pulse laser at an escort",
        &fresh("escort"),
        &direct("pulse-laser", 1),
        &[6, 6],
    );
    assert_eq!(applied.armour, 5);
    assert!(
        !events.iter().any(|e| e.contains("less AP")),
        "no AP to name: {events:#?}"
    );
    assert_eq!(applied.damage, 8);
}

/// Severity = damage / 10, rounded up, for a fusion gun (4D) at Effect 6
/// against the escort's armour 5: damage 10 is severity 1, 11 and 20 are
/// severity 2, 21 is severity 3. At Effect 5 the same damage is no critical
/// hit.
#[test]
fn critical_severity_is_the_damage_over_ten_rounded_up() {
    let escort = fresh("escort");
    let fusion = direct("fusion-gun", 6);
    // 4D totals 9, 10, 19 and 20: + 6 - 5 = damage 10, 11, 20 and 21.
    for (dice, severity) in [
        ([3, 2, 2, 2], 1),
        ([4, 2, 2, 2], 2),
        ([6, 6, 6, 1], 2),
        ([6, 6, 6, 2], 3),
    ] {
        let case = format!("fusion gun rolling {dice:?} at Effect 6");
        assert_eq!(
            attack_severity(&case, &escort, &fusion, &dice),
            Some(severity),
            "{case}"
        );
    }
    assert_eq!(
        attack_severity(
            "fusion gun at Effect 5",
            &escort,
            &direct("fusion-gun", 5),
            &[6, 6, 6, 1]
        ),
        None,
        "Effect 5 is below the critical threshold"
    );
    // Rules note, criticals: only a hit "that does damage". One missile at
    // Effect 6 whose 4D of 1 + 1 + 1 + 1 = 4 is all stopped by the escort's
    // armour 5 does none, x 6 = 0: no critical hit.
    let missile = Hit {
        missiles: Some(1),
        ..direct("missile-rack", 6)
    };
    assert_eq!(
        attack_severity(
            "a missile stopped by armour",
            &escort,
            &missile,
            &[1, 1, 1, 1]
        ),
        None,
        "no damage, no critical hit"
    );
}

/// A hit's critical hits do their own hull damage, recorded apart from the
/// hit's. Fusion gun at Effect 6, 4D = 19: 20 damage, severity 2 at 2D = 7,
/// the Hull: 2D damage = 1 + 2 = 3. The escort is at 177 of 200: 23 lost,
/// one tenth, so a severity 1 critical hit at 2D = 2, the Sensors.
#[test]
fn critical_hull_damage_is_reported_apart() {
    let (after, applied) = check_allocation(
        "fusion gun at Effect 6 on an escort",
        &fresh("escort"),
        &direct("fusion-gun", 6),
        &[6, 6, 6, 1, 3, 4, 1, 2, 1, 1],
    );
    assert_eq!(applied.damage, 20);
    assert_eq!(applied.critical_damage, 3);
    assert_eq!(after.hull, 177);
    let hits: Vec<(usize, u8, u8, Cause)> = applied
        .criticals
        .iter()
        .map(|c| (usize::from(c.location), c.from, c.to, c.cause))
        .collect();
    assert_eq!(
        hits,
        [
            (location("hull"), 0, 2, Cause::Attack),
            (location("sensors"), 0, 1, Cause::Sustained),
        ]
    );
    assert!(!applied.wrecked);
}

/// Sustained damage on its own (as an engagement counts it after damage
/// from outside an attack): each whole tenth of the starting hull lost is a
/// severity 1 critical hit. The escort at 180 of 200 has lost one tenth:
/// one critical hit, at 2D = 1 + 1, the Sensors; counted again, nothing
/// more.
#[test]
fn sustained_damage_counts_each_tenth_once() {
    let sys = system();
    let b = battle("corvette", "escort", Band::Short);
    let mut escort = fresh("escort");
    escort.hull = 180;
    let mut applied = Applied::default();
    let mut dice = ScriptedDice::new([1, 1]);
    sys.sustained(
        &mut escort,
        b.labels[1],
        &mut applied,
        &mut dice,
        &mut NullSink,
    )
    .expect("the dice suffice");
    sys.sustained(
        &mut escort,
        b.labels[1],
        &mut applied,
        &mut dice,
        &mut NullSink,
    )
    .expect("nothing more to roll");
    assert_all_used(&dice, "one tenth lost");
    let hits: Vec<(usize, u8, Cause)> = applied
        .criticals
        .iter()
        .map(|c| (usize::from(c.location), c.to, c.cause))
        .collect();
    assert_eq!(hits, [(location("sensors"), 1, Cause::Sustained)]);
    assert_eq!(escort.sustained, 1);
}

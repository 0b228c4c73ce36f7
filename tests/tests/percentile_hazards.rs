//! Break-apart checks and the Repair Turn beyond their worked examples: when no roll is made, the limits of a repair, and refusals.
//!
//! Sources: seed 000, Hull Hits (break-apart, "more than half of the ship's
//! hull points are gone"); the reference note, "Break-apart" and "Repairs"
//! (DCR divided among repairs, 90-00 always fails, 99-00 beyond repair in
//! space, a hull repair restores 1d10, a fire repair does not undo the fire's
//! damage).

use broadside_core::{EventLog, ResolveError, ScriptedDice};
use broadside_tests::{Damage, Fix, damaged_ship, percentile, repair, ship};

/// Break-apart chance and whether any die was rolled.
fn break_apart(id: &str, damage: i32, points: u32, dice: &[u32]) -> (i32, bool, usize) {
    let system = percentile();
    let mut s = damaged_ship(id, &[Damage::Hull(damage)]);
    let chance = system.break_apart_chance(&s, points);
    let mut scripted = ScriptedDice::new(dice);
    let broke = system
        .check_break_apart(&mut s, id, points, &mut scripted, &mut EventLog::default())
        .expect("the dice suffice");
    (chance, broke, scripted.used())
}

/// Seed 000: only a ship with more than half its hull points gone can break
/// apart; at exactly half, or using no ADF or MR, no die is rolled.
#[test]
fn no_break_apart_roll_unless_severely_damaged_and_manoeuvring() {
    assert_eq!(break_apart("destroyer", 25, 4, &[1]), (0, false, 0));
    assert_eq!(break_apart("destroyer", 32, 0, &[1]), (0, false, 0));
    // One point past half, 4 points used: 4%.
    assert_eq!(break_apart("destroyer", 26, 4, &[4]), (4, true, 1));
    assert_eq!(break_apart("destroyer", 26, 4, &[5]), (4, false, 1));
}

/// Reference note: half the original hull is rounded down, so an assault
/// scout (15 HP) is severely damaged from 8 points: (8 - 7) x 2 = 2%.
#[test]
fn break_apart_with_an_odd_hull() {
    assert_eq!(break_apart("assault-scout", 7, 2, &[1]), (0, false, 0));
    assert_eq!(break_apart("assault-scout", 8, 2, &[3]), (2, false, 1));
}

/// Reference note: a successful hull repair restores 1d10 hull points, never
/// above the original.
#[test]
fn a_hull_repair_restores_1d10_up_to_the_original() {
    let mut s = damaged_ship("destroyer", &[Damage::Hull(20)]);
    let (outcomes, _) = repair(&mut s, &[(Fix::Hull, 40)], &[40, 7]).unwrap();
    assert!(outcomes[0].repaired);
    assert_eq!(outcomes[0].hull_restored, 7);
    assert_eq!(s.hull, 37);

    let mut s = damaged_ship("destroyer", &[Damage::Hull(3)]);
    let (outcomes, _) = repair(&mut s, &[(Fix::Hull, 40)], &[10, 9]).unwrap();
    assert_eq!(outcomes[0].hull_restored, 3);
    assert_eq!(s.hull, 50);
}

/// Reference note: 90-00 always fails, whatever the points; 99 or 00 also
/// put the system beyond repair in space, so a later attempt is refused.
#[test]
fn rolls_of_90_to_00_always_fail() {
    for roll in [90, 95, 98] {
        let mut s = damaged_ship("battleship", &[Damage::Adf(1)]);
        let (outcomes, _) = repair(&mut s, &[(Fix::Drive, 100)], &[roll]).unwrap();
        assert!(!outcomes[0].repaired, "roll {roll}");
        assert!(!outcomes[0].beyond_repair, "roll {roll}");
        assert_eq!(s.adf, 1);
    }
    for roll in [99, 100] {
        let mut s = damaged_ship("battleship", &[Damage::Adf(1)]);
        let (outcomes, _) = repair(&mut s, &[(Fix::Drive, 100)], &[roll]).unwrap();
        assert!(!outcomes[0].repaired && outcomes[0].beyond_repair);
        match repair(&mut s, &[(Fix::Drive, 100)], &[1]) {
            Err(ResolveError::Refused(_)) => {}
            other => panic!("roll {roll}: expected a refusal, got {other:?}"),
        }
    }
    // 89 with 100 points succeeds.
    let mut s = damaged_ship("battleship", &[Damage::Adf(1)]);
    let (outcomes, _) = repair(&mut s, &[(Fix::Drive, 100)], &[89]).unwrap();
    assert!(outcomes[0].repaired);
    assert_eq!(s.adf, 2);
}

/// Reference note: the DCR is divided among the repairs; a ship cannot give
/// more than it has, and after a damage control hit it has half. A refused
/// Repair Turn rolls nothing and changes nothing.
#[test]
fn repairs_cannot_spend_more_than_the_dcr() {
    let mut s = damaged_ship("destroyer", &[Damage::Adf(2)]);
    let before = s;
    let refused = repair(&mut s, &[(Fix::Drive, 40), (Fix::Drive, 36)], &[]);
    assert!(
        matches!(refused, Err(ResolveError::Refused(_))),
        "{refused:?}"
    );
    assert_eq!(s, before);
    assert!(repair(&mut s, &[(Fix::Drive, 40), (Fix::Drive, 35)], &[50, 50]).is_ok());

    let mut s = damaged_ship("destroyer", &[Damage::DamageControl, Damage::Adf(1)]);
    assert_eq!(s.dcr, 38);
    let refused = repair(&mut s, &[(Fix::Drive, 39)], &[]);
    assert!(
        matches!(refused, Err(ResolveError::Refused(_))),
        "{refused:?}"
    );
}

/// A system that needs no repair is refused: nothing to mend.
#[test]
fn repairing_an_undamaged_system_is_refused() {
    let mut s = ship("destroyer");
    let refused = repair(&mut s, &[(Fix::Drive, 10)], &[]);
    assert!(
        matches!(refused, Err(ResolveError::Refused(_))),
        "{refused:?}"
    );
    let refused = repair(&mut s, &[(Fix::Fire, 10)], &[]);
    assert!(
        matches!(refused, Err(ResolveError::Refused(_))),
        "{refused:?}"
    );
}

/// Reference note: several attempts may be made on the same system, each
/// restoring one point; once the system is whole, a later success restores
/// nothing more.
#[test]
fn several_drive_repairs_restore_one_point_each() {
    let mut s = damaged_ship("destroyer", &[Damage::Adf(2)]);
    repair(&mut s, &[(Fix::Drive, 30), (Fix::Drive, 30)], &[10, 20]).unwrap();
    assert_eq!(s.adf, 3);

    let mut s = damaged_ship("destroyer", &[Damage::Adf(1)]);
    let (outcomes, _) = repair(&mut s, &[(Fix::Drive, 30), (Fix::Drive, 30)], &[10, 20]).unwrap();
    assert!(outcomes[0].repaired && !outcomes[1].repaired);
    assert_eq!(s.adf, 3, "never above the original ADF");
}

/// Reference note: "A successful fire repair puts the fire out; it does not
/// undo what the fire did." Seed 000: a damage control repair restores DCR.
#[test]
fn fire_and_damage_control_repairs() {
    let mut s = damaged_ship(
        "destroyer",
        &[Damage::Fire, Damage::Adf(3), Damage::DamageControl],
    );
    repair(
        &mut s,
        &[(Fix::Fire, 19), (Fix::DamageControl, 19)],
        &[5, 6],
    )
    .unwrap();
    assert!(!s.damaged.fire);
    assert_eq!(s.adf, 0, "the fire's damage stays");
    assert!(!s.damaged.damage_control);
    assert_eq!(s.dcr, 75);
}

/// Seed 000, Power Short Circuit: "Repairing a power short circuit will
/// remove all effects of the hit": the ICMs can launch again.
#[test]
fn a_short_circuit_repair_restores_the_icms() {
    let mut s = damaged_ship("destroyer", &[Damage::ShortCircuit]);
    assert_eq!(s.icms_ready(), 0);
    repair(&mut s, &[(Fix::ShortCircuit, 50)], &[50]).unwrap();
    assert_eq!(s.icms_ready(), 5);
}

//! Cannon modes: Standard, Long, Multi and Fusion, their power, range, Guns use and refusals.
//!
//! Battlestations, Ship to Ship Combat: "A Standard Cannon will have a shot
//! with power equal to the Guns of the firing ship. A Long Range
//! configuration makes the Cannon count range as half (round up) but also
//! its Guns power (round down). A Cannon configured in Multi mode has
//! effective Guns power at only 1 but firing does not add Used markers." A
//! Fusion Node allows Fusion mode, an indirect burst.

mod common;

use broadside_core::ResolveError;
use common::{check_resolve, num, resolve, text};

/// Long: a cruiser (Guns 5) at range 5 counts range 3 (half, rounded up) and
/// fires power 2 (half of 5, rounded down): difficulty 10; best two of
/// 4, 4, 1 = 8 + Gunnery 3 = 11 hits; allocation 7 on the frigate's centre
/// column; 5 dice (2 + Shields 3) keep 2, 1.
#[test]
fn long_mode_halves_range_up_and_power_down() {
    let r = check_resolve(
        "mode_long_range_5_guns_5",
        "Battlestations, Ship to Ship Combat: Long Range configuration (range half rounded up, power half rounded down)",
        "cruiser",
        "frigate",
        &[("range", num(5)), ("mode", text("long"))],
        &[4, 4, 1, 3, 4, 5, 4, 3, 2, 1],
    );
    assert_eq!(r.json["counted_range"], 3);
    assert_eq!(r.json["power"], 2);
    assert_eq!(r.json["guns_after"], 4);
}

/// Multi: power 1 whatever the Guns, and no Guns power used up.
#[test]
fn multi_mode_has_power_1_and_uses_no_guns() {
    let r = check_resolve(
        "mode_multi_power_1",
        "Battlestations, Ship to Ship Combat: Multi configuration (Guns power 1, no Used marker)",
        "frigate",
        "scout",
        &[("range", num(1)), ("mode", text("multi"))],
        &[5, 5, 3, 4, 6, 4, 2],
    );
    assert_eq!(r.json["power"], 1);
    assert_eq!(r.json["guns_after"], 3);
}

/// "A Standard Cannon will have a shot with power equal to the Guns of the
/// firing ship": at Guns 0 that is power 0, and a power-0 hit strikes as
/// the Long shot at Guns 1 below does (ruling "Power 0"). A frigate
/// (Gunnery 2) at a scout, range 1, Guns 0: difficulty 7 + 1 = 8, to-hit
/// 4 + 4 + 2 = 10 hits; allocation 3 + 4 = 7 on the centre column; the
/// power 0 + Shields 2 dice would all be removed, so none is rolled; the
/// scout is struck, so its Shields drop from 2 to 1. Guns stays 0: there is
/// none to use up.
#[test]
fn standard_mode_at_guns_0_has_power_0() {
    let r = check_resolve(
        "mode_standard_guns_0_power_0",
        "Battlestations, Ship to Ship Combat: a Standard Cannon shot has power equal to the Guns (Guns 0, power 0)",
        "frigate",
        "scout",
        &[("range", num(1)), ("guns", num(0))],
        &[4, 4, 3, 4],
    );
    assert_eq!(r.json["power"], 0);
    assert_eq!(r.json["pool"], serde_json::json!([]));
    assert_eq!(r.json["shields_after"], 1);
    assert_eq!(r.json["guns_after"], 0);
}

/// Long at Guns 0 is power 0 too (0 halved, rounded down, is 0), at half
/// the range: range 2 counts 1, difficulty 8, the same dice as above strike
/// with no dice rolled and drop the Shields from 2 to 1. Multi fires at
/// power 1 with no Guns left, and uses none: the to-hit 5 + 5 + 2 = 12,
/// allocation 3 + 4 = 7, 1 + 2 dice (6, 4, 2) lose the two highest and lay
/// the 2 on the Cannon.
#[test]
fn long_and_multi_at_guns_0() {
    let long = resolve(
        "frigate",
        "scout",
        &[("range", num(2)), ("mode", text("long")), ("guns", num(0))],
        &[4, 4, 3, 4],
    )
    .expect("a Long shot at Guns 0 fires at power 0");
    assert_eq!(
        (
            long.json["power"].clone(),
            long.json["counted_range"].clone(),
            long.json["shields_after"].clone()
        ),
        (
            serde_json::json!(0),
            serde_json::json!(1),
            serde_json::json!(1)
        )
    );
    let multi = resolve(
        "frigate",
        "scout",
        &[("range", num(1)), ("mode", text("multi")), ("guns", num(0))],
        &[5, 5, 3, 4, 6, 4, 2],
    )
    .expect("Multi needs no Guns power");
    assert_eq!(multi.json["power"], 1);
    assert_eq!(multi.json["kept"], serde_json::json!([2]));
    assert_eq!(multi.json["guns_after"], 0);
}

/// A Long shot at Guns 1 has power 0: every die would be removed by the
/// Shields, so none is rolled (a ruling); the target is still struck, so
/// its Shields drop.
#[test]
fn long_mode_at_guns_1_has_power_0() {
    let r = check_resolve(
        "mode_long_power_0",
        "Battlestations, Ship to Ship Combat: Long Range configuration at Guns 1 (power 0, rounded down)",
        "frigate",
        "scout",
        &[("range", num(2)), ("mode", text("long")), ("guns", num(1))],
        &[4, 4, 3, 4],
    );
    assert_eq!(r.json["power"], 0);
    assert_eq!(r.json["pool"], serde_json::json!([]));
    assert_eq!(r.json["shields_after"], 1);
}

/// Fusion: the cruiser's Fusion Node allows it; the burst is indirect, so
/// hit allocation lands on the destroyer's centre mark (3,2): column 2 from
/// fore. Power 5 (a Standard shot's), 8 dice, kept 4, 3, 2, 2, 1.
#[test]
fn fusion_mode_is_an_indirect_burst() {
    let r = check_resolve(
        "mode_fusion_burst_on_the_centre_mark",
        "Battlestations, Ship to Ship Combat: Fusion mode (needs a Fusion Node; indirect damage)",
        "cruiser",
        "destroyer",
        &[("range", num(3)), ("mode", text("fusion"))],
        &[5, 5, 2, 2, 5, 6, 6, 5, 4, 3, 2, 2, 1],
    );
    assert_eq!(r.json["impact"]["at"], "1,2");
    assert_eq!(r.json["call"], serde_json::Value::Null);
}

/// Fusion needs a working Fusion Node, and an indirect hit takes no call.
#[test]
fn fusion_refusals() {
    match resolve(
        "scout",
        "frigate",
        &[("range", num(1)), ("mode", text("fusion"))],
        &[],
    ) {
        Err(ResolveError::Refused(message)) => {
            assert!(message.contains("Fusion Node"), "{message}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    match resolve(
        "cruiser",
        "frigate",
        &[
            ("range", num(1)),
            ("mode", text("fusion")),
            ("call", text("1,2")),
        ],
        &[],
    ) {
        Err(ResolveError::Refused(message)) => {
            assert!(message.contains("centre mark"), "{message}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// A missed shot rolls only the to-hit dice, and still uses up Guns power.
#[test]
fn a_miss_uses_only_the_to_hit_dice() {
    let r = check_resolve(
        "cannon_miss_range_4",
        "Battlestations, Ship to Ship Combat: a Cannon shot uses up one Guns power, hit or miss (to-hit ruling: 7 + range)",
        "frigate",
        "scout",
        &[("range", num(4))],
        &[3, 3],
    );
    assert_eq!(r.json["hit"], false);
    assert_eq!(r.json["guns_after"], 2);
}

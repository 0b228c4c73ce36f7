//! A Defense hit on the screen a ship has up: the screen is destroyed, so it is up no longer; a hit on another defence leaves it up.
//!
//! Source: seed 000, Damage Table rows 75-84 and "Defense Hit" (handled the
//! same as weapon system hits, except defensive systems are destroyed
//! instead of weapons). A light cruiser carries an electron screen and a
//! stasis screen but no proton screen, so row 76 (PS; ES; SS; MS; ICM)
//! passes PS by and destroys its electron screen. Lasers have DTM 0, so the
//! script's value is the Damage Table row.

use broadside_percentile::SystemLost;
use broadside_percentile::model::Defence;
use broadside_tests::{allocate, ship, systems_destroyed};

/// Allocates Damage Table row `row` to a light cruiser with `screen_up`, and
/// checks that `lost` is destroyed and `screen_after` is the screen then up.
fn check_defence_hit(
    case: &str,
    screen_up: Option<Defence>,
    row: u32,
    lost: Defence,
    screen_after: Option<Defence>,
) {
    let mut cruiser = ship("light-cruiser");
    cruiser.screen = screen_up;
    let a = allocate(&cruiser, "laser-battery", false, &[row]);
    assert!(!a.applied.fell_back, "{case}: no fall-back");
    assert_eq!(
        a.applied.system_lost,
        Some(SystemLost::Defence(lost)),
        "{case}: the system destroyed"
    );
    assert_eq!(a.applied.hull_damage, 0, "{case}: no hull lost");
    assert_eq!(systems_destroyed(&a.after), 1, "{case}: one system lost");
    assert_eq!(a.after.screen, screen_after, "{case}: the screen up after");
}

/// Seed 000, Defense Hit: the electron screen the cruiser has up is the one
/// destroyed, so no screen is up after the hit.
#[test]
fn destroying_the_screen_in_use_takes_it_down() {
    check_defence_hit(
        "defense hit 76 on a cruiser behind its electron screen",
        Some(Defence::ElectronScreen),
        76,
        Defence::ElectronScreen,
        None,
    );
}

/// Seed 000, Defense Hit: destroying the electron screen does not touch the
/// stasis screen the cruiser has up.
#[test]
fn destroying_another_defence_leaves_the_screen_up() {
    check_defence_hit(
        "defense hit 76 on a cruiser behind its stasis screen",
        Some(Defence::StasisScreen),
        76,
        Defence::ElectronScreen,
        Some(Defence::StasisScreen),
    );
    check_defence_hit(
        "defense hit 76 on a cruiser with no screen up",
        None,
        76,
        Defence::ElectronScreen,
        None,
    );
}

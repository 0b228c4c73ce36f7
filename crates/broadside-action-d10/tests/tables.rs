//! Every table of the system in a snapshot, and the cell look-ups
//! `broadside table` makes, open-ended rows included.

mod common;

use broadside_core::{ResolveError, Ruleset};
use broadside_data::testing;
use common::{cell, check_table, system};

#[test]
fn every_table_is_in_a_snapshot() {
    let tables = Ruleset::tables(system());
    let ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    for id in &ids {
        check_table(id);
    }
    // The tables the rules print and the rulings' tables are all there.
    for id in [
        "hangar",
        "internal-damage",
        "surface-features",
        "core-hit",
        "repairs",
        "repair-difficulty",
        "swarmer-hits",
        "structure-boxes",
        "target-lock",
        "to-hit-modifiers",
        "weapons",
    ] {
        assert!(ids.contains(&id), "no table {id}");
    }
}

#[test]
fn table_ids_are_unique_and_kebab_case() {
    let tables = Ruleset::tables(system());
    let mut ids: Vec<&str> = tables.iter().map(|t| t.id.as_str()).collect();
    for id in &ids {
        assert!(
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{id}"
        );
    }
    let n = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), n);
}

#[test]
fn every_row_has_a_cell_per_column() {
    for table in Ruleset::tables(system()) {
        testing::assert_rows_fill_columns(&table);
    }
}

#[test]
fn swarmer_hits_seven_by_twelve_is_eight() {
    assert_eq!(cell("swarmer-hits", "7", Some("12")).unwrap(), "8");
}

#[test]
fn swarmer_hits_open_rows_are_found_by_number() {
    // Rolls of 0 and below read the "0-" row; 12 and above the "12+" row.
    for (roll, want) in [
        ("0", "0"),
        ("-3", "0"),
        ("0-", "0"),
        ("12", "40"),
        ("15", "40"),
        ("12+", "40"),
    ] {
        assert_eq!(
            cell("swarmer-hits", roll, Some("40")).unwrap(),
            want,
            "roll {roll}"
        );
    }
    assert_eq!(cell("swarmer-hits", "11", Some("3")).unwrap(), "3");
    assert_eq!(cell("swarmer-hits", "1", Some("3")).unwrap(), "1");
}

#[test]
fn sub_tables_read_by_roll() {
    assert_eq!(cell("hangar", "5", None).unwrap(), "1d6 Small Craft Bays");
    assert_eq!(
        cell("surface-features", "8", None).unwrap(),
        "Turret Weapon"
    );
    assert_eq!(
        cell("internal-damage", "3", Some("result")).unwrap(),
        "Thruster"
    );
    assert_eq!(cell("core-hit", "4", None).unwrap(), "Spinal Mount");
    assert_eq!(cell("repairs", "very-hard", None).unwrap(), "2");
    assert_eq!(cell("repairs", "Easy", None).unwrap(), "7");
}

#[test]
fn weapon_tables_read_by_range() {
    assert_eq!(cell("heavy-laser", "5", Some("to-hit")).unwrap(), "6");
    assert_eq!(
        cell("rocket-pack", "0", Some("row modifier")).unwrap(),
        "+2"
    );
    assert_eq!(
        cell("weapons", "seeker-launcher", Some("kind")).unwrap(),
        "seeker"
    );
}

#[test]
fn unknown_rows_and_columns_are_unknown() {
    assert!(matches!(
        cell("swarmer-hits", "seven", None),
        Err(ResolveError::Unknown { kind: "row", .. })
    ));
    assert!(matches!(
        cell("swarmer-hits", "7", Some("13")),
        Err(ResolveError::Unknown { kind: "column", .. })
    ));
    assert!(matches!(
        cell("hangar", "7", None),
        Err(ResolveError::Unknown { kind: "row", .. })
    ));
    assert!(matches!(
        cell("no-such-table", "1", None),
        Err(ResolveError::Unknown { kind: "table", .. })
    ));
}

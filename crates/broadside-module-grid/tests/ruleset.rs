//! The object-safe face: ship sheets with layout pictures, every table, and the option specs the CLI builds flags from.

mod common;

use std::fmt::Write as _;

use broadside_core::{OptionKind, Ruleset};
use broadside_data::testing;
use common::{assert_named, system};
use serde_json::json;

/// Every ship's sheet: the same row headers for all, a first line of
/// statistics, then a text picture of its layout (what `broadside ships`
/// prints after the table), and the JSON.
#[test]
fn ship_sheets_with_layout_pictures() {
    let grid: &dyn Ruleset = system();
    let ships = grid.ships();
    let headers: Vec<&str> = ships[0].row().iter().map(|(h, _)| *h).collect();
    let mut out = format!("headers: {}\n", headers.join(" | "));
    for sheet in &ships {
        let these: Vec<&str> = sheet.row().iter().map(|(h, _)| *h).collect();
        assert_eq!(these, headers, "{}", sheet.id());
        let cells: Vec<String> = sheet.row().into_iter().map(|(_, c)| c).collect();
        let _ = writeln!(out, "row: {}", cells.join(" | "));
        for line in sheet.lines() {
            let _ = writeln!(out, "  {line}");
        }
        let json = serde_json::to_value(&**sheet).expect("a sheet serialises");
        assert_eq!(json["id"], sheet.id());
        assert!(json["layout"].is_array());
    }
    let scout = ships.iter().find(|s| s.id() == "scout").expect("a scout");
    let scout = serde_json::to_value(&**scout).expect("JSON");
    let _ = writeln!(
        out,
        "scout JSON: {}",
        serde_json::to_string_pretty(&scout).expect("renders")
    );
    assert!(
        ships.iter().all(|s| s.lines().len() > 3),
        "every sheet draws its layout"
    );
    for id in ["scout", "frigate", "cruiser", "destroyer"] {
        assert!(ships.iter().any(|s| s.id() == id), "{id}");
    }
    assert_named(
        "ships_sheets_and_layouts",
        "the sample ships (authored samples), as broadside ships lists them",
        &json!({"system": "module-grid", "command": "ships"}),
        &out,
    );
}

/// Every table, as `broadside table` prints it.
#[test]
fn every_table() {
    let grid: &dyn Ruleset = system();
    let mut out = String::new();
    for table in grid.tables() {
        assert_eq!(
            table.id,
            broadside_core::ruleset::kebab(&table.id),
            "kebab-case id"
        );
        let _ = writeln!(out, "{}: {}", table.id, table.title);
        let _ = writeln!(
            out,
            "  {} | {}",
            table.row_header,
            table.columns.join(" | ")
        );
        testing::assert_rows_fill_columns(&table);
        for row in &table.rows {
            let _ = writeln!(out, "  {} | {}", row.label, row.cells.join(" | "));
        }
    }
    assert_named(
        "tables_all",
        "every table of the module-grid data (Battlestations, Ship to Ship Combat, and the rulings)",
        &json!({"system": "module-grid", "command": "table"}),
        &out,
    );
}

/// Cells are found by row label, by a number falling in a row's range and
/// by kebab-case column.
#[test]
fn table_cells_by_label_and_number() {
    let grid: &dyn Ruleset = system();
    let tables = grid.tables();
    let table = |id: &str| {
        tables
            .iter()
            .find(|t| t.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    let cell = |id: &str, row: &str, column: Option<&str>| {
        table(id)
            .cell(row, column)
            .unwrap_or_else(|e| panic!("{id} {row}: {e}"))
            .to_owned()
    };
    assert_eq!(cell("hull-check-chart", "12", None), "4");
    assert_eq!(cell("hull-check-chart", "10-14", None), "4");
    assert_eq!(cell("hull-check-chart", "210", None), "20");
    assert_eq!(cell("hull-check-chart", "500", None), "20");
    assert_eq!(cell("hull-check-chart", "0", None), "none");
    assert_eq!(cell("hull-check-by-size", "36", Some("size-1")), "7");
    assert_eq!(cell("hull-check-by-size", "12", Some("size 5")), "-");
    assert_eq!(cell("to-hit", "5", Some("long")), "10");
    assert_eq!(
        cell("hit-allocation", "12", Some("from-fore-or-aft")),
        "5 to starboard"
    );
    assert_eq!(
        cell("hit-allocation", "2", Some("from-port-or-starboard")),
        "5 forward"
    );
    assert_eq!(cell("explosion-power", "2", Some("size-5")), "3");
    assert_eq!(cell("facing", "2", None), "starboard");
    assert_eq!(cell("facing", "6", None), "port");
    assert_eq!(
        cell("cannon-modes", "long", Some("power")),
        "Guns / 2, rounded down"
    );
    assert_eq!(cell("sight", "asteroid", None), "blocks");
    assert_eq!(cell("sight", "ship", None), "clear");
    assert_eq!(cell("modules", "cannon", Some("code")), "Cn");
}

/// The options the CLI builds flags from.
#[test]
fn option_specs() {
    let grid: &dyn Ruleset = system();
    let names: Vec<&str> = grid.resolve_options().iter().map(|o| o.name).collect();
    assert_eq!(
        names,
        [
            "range", "mode", "side", "call", "guns", "shields", "scans", "luck"
        ]
    );
    let range = grid.resolve_options()[0];
    assert!(range.required);
    assert!(matches!(range.kind, OptionKind::Number { min: 0, .. }));
    assert!(grid.resolve_options()[1..].iter().all(|o| !o.required));
    let duel: Vec<&str> = grid.battle_options().iter().map(|o| o.name).collect();
    assert_eq!(duel, ["start-range", "asteroids"]);
    assert_eq!(grid.id(), "module-grid");
    assert!(!grid.title().is_empty() && !grid.description().is_empty());
}

//! Data validation: every problem in the ruleset files reported at once, each with its file and key.

mod common;

use broadside_core::SourceFile;
use common::{assert_named, edited, load_errors, sources};
use serde_json::json;

/// A broken ship file: an unknown module type, a ragged grid, a centre mark
/// on an empty square, occupants off the ship, an unknown skill and a Size
/// out of range, all in one load.
const BROKEN_SHIPS: &str = r#"
[bad-types]
name = "Unknown module"
source = "test"
size = 1
shields = 1
guns = 1
speed = 1
luck = 0
centre = "1,1"
layout = [["cannon", "lazer"], ["helm", "engine"]]
crew = { gunnery = 1, piloting = 1, science = 1, engineering = 1, professional = ["gunnery", "juggling"] }

[ragged]
name = "Ragged grid"
source = "test"
size = 1
shields = 1
guns = 1
speed = 1
luck = 0
centre = "1,1"
layout = [["cannon", "helm"], ["engine"]]
crew = { gunnery = 1, piloting = 1, science = 1, engineering = 1 }

[hollow]
name = "Centre off the ship"
source = "test"
size = 0
shields = 1
guns = 1
speed = 1
luck = 0
centre = "1,1"
layout = [[".", "cannon"], ["helm", "engine"]]
occupants = { "1,1" = 2, "9,9" = 1, "x" = 1 }
crew = { gunnery = 1, piloting = 1, science = 1, engineering = 1 }
"#;

#[test]
fn bad_ships_are_reported_with_file_and_key() {
    let errors = load_errors(&edited("ships.toml", |t| t.push_str(BROKEN_SHIPS)));
    for expected in [
        "ships.toml: bad-types.layout[0][1]: unknown module type 'lazer'",
        "ships.toml: bad-types.crew.professional[1]: unknown skill 'juggling'",
        "ships.toml: ragged.layout[1]: ragged grid: row 2 has 1 square but row 1 has 2",
        "ships.toml: hollow.size: line 140: 0 is outside 1..=20 (Size reduces",
        "ships.toml: hollow.centre: 1,1 is not a module square of the layout",
        "ships.toml: hollow.occupants.\"1,1\": 1,1 is not a module square of the layout",
        "ships.toml: hollow.occupants.\"9,9\": 9,9 is not a module square of the layout",
        "ships.toml: hollow.occupants.\"x\": 'x' is not a square",
    ] {
        assert!(
            errors.contains(expected),
            "missing '{expected}' in:\n{errors}"
        );
    }
    assert_named(
        "data_errors_in_ships",
        "validation of ships.toml: every problem at once, with file and key",
        &json!({"file": "ships.toml", "appended": BROKEN_SHIPS}),
        &errors,
    );
}

/// The other files: a hull chart out of order, an unknown Cannon mode, a
/// missing mode, an unknown module function, a duplicate code, a number out
/// of range.
#[test]
fn bad_rules_chart_and_modules_are_reported() {
    let mut files = sources();
    for file in &mut files {
        match file.name.as_str() {
            "hull-checks.toml" => {
                file.text = file.text.replacen("damage = 6\n", "damage = 2\n", 1);
            }
            "rules.toml" => {
                file.text = file.text.replace("[mode.multi]", "[mode.rapid]");
                file.text = file.text.replace("breaks-at = 4", "breaks-at = 9");
            }
            "modules.toml" => {
                file.text = file
                    .text
                    .replace("function = \"helm\"", "function = \"steering\"");
                file.text = file.text.replace("code = \"En\"", "code = \"Cn\"");
            }
            _ => {}
        }
    }
    let errors = load_errors(&files);
    for expected in [
        "hull-checks.toml: row[2].damage: 2 does not rise above the row before (3)",
        "rules.toml: mode.rapid: unknown Cannon mode",
        "rules.toml: mode.multi: missing",
        "rules.toml: module-damage.breaks-at: line 77: 9 is outside 1..=7 (a die of 4, 5 or 6 breaks",
        "modules.toml: helm.function: unknown function 'steering'",
        "modules.toml: engine.code: 'Cn' is already the code of cannon",
    ] {
        assert!(
            errors.contains(expected),
            "missing '{expected}' in:\n{errors}"
        );
    }
    assert_named(
        "data_errors_in_rules_chart_and_modules",
        "validation of rules.toml, hull-checks.toml and modules.toml: every problem at once, with file and key",
        &json!({"edits": ["hull chart row 3 damage 2", "mode.multi renamed rapid", "breaks-at 9", "helm function steering", "engine code Cn"]}),
        &errors,
    );
}

/// A missing file, an unknown file, a syntax error with its line and an
/// unknown key are each reported.
#[test]
fn files_missing_unknown_or_unreadable() {
    let mut files: Vec<SourceFile> = sources()
        .into_iter()
        .filter(|f| f.name != "hull-checks.toml")
        .collect();
    files.push(SourceFile {
        name: "weapons.toml".into(),
        text: String::new(),
    });
    let errors = load_errors(&files);
    assert!(
        errors.contains("hull-checks.toml: the file is missing"),
        "{errors}"
    );
    assert!(
        errors.contains("weapons.toml: not a module-grid ruleset file"),
        "{errors}"
    );

    let errors = load_errors(&edited("ships.toml", |t| t.push_str("\n[broken\n")));
    assert!(errors.starts_with("ships.toml: line "), "{errors}");

    let errors = load_errors(&edited("ships.toml", |t| {
        *t = t.replacen("speed = 4\n", "speed = 4\nwarp = 9\n", 1);
    }));
    assert!(errors.contains("unknown field `warp`"), "{errors}");
}

/// The embedded data of record loads, and every sample ship says it is an
/// authored sample.
#[test]
fn the_data_of_record_loads_and_marks_its_samples() {
    let grid = common::system();
    for id in ["scout", "frigate", "destroyer", "cruiser"] {
        let class = common::class(id);
        assert!(
            class.source.starts_with("authored sample"),
            "{id}: {}",
            class.source
        );
    }
    assert_eq!(grid.rules.hull_chart.len(), 20);
    assert_eq!(grid.rules.chart_check(210), 20);
    assert_eq!(grid.rules.chart_check(209), 19);
    assert_eq!(grid.rules.chart_check(0), 0);
    assert_eq!(grid.rules.chart_check(60_000), 20);
}

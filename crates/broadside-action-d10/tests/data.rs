//! The data of record loads, and broken data is reported all at once, each
//! problem with its file and key.

mod common;

use broadside_action_d10::ActionD10;
use broadside_core::{DataErrors, Ruleset, SourceFile};
use common::{edited_sources as edited, sources};

/// Loads files that must fail, returning every problem as `file: key: message`.
fn problems(files: &[SourceFile]) -> Vec<String> {
    match ActionD10::load(files) {
        Ok(_) => panic!("the broken data loaded"),
        Err(DataErrors(errors)) => errors.iter().map(ToString::to_string).collect(),
    }
}

fn has(problems: &[String], want: &str) {
    assert!(
        problems.iter().any(|p| p.contains(want)),
        "no problem mentions '{want}' in:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_data_of_record_loads() {
    let system = ActionD10::load(&sources()).expect("the embedded data loads");
    assert!(system.ships().len() >= 4);
    for id in ["destroyer", "frigate", "escort", "carrier"] {
        assert!(system.rules.class_id(id).is_some(), "no {id}");
    }
    for class in &system.rules.ships {
        assert_eq!(class.source, "authored sample", "{}", class.id);
    }
    let carrier = &system.rules.ships[system.rules.class_id("carrier").unwrap() as usize];
    assert!(carrier.small_craft.is_some() && !carrier.riders.is_empty());
}

#[test]
fn every_problem_is_reported_at_once() {
    let files = edited(&[
        (
            "weapons.toml",
            "brackets = [[0, 3, 7], [4, 7, 6], [8, 12, 4]]",
            "brackets = [[0, 3, 7], [5, 7, 6], [7, 12, 4]]",
        ),
        ("weapons.toml", "damage = 3", "damage = 99"),
        (
            "ships.toml",
            "{ weapon = \"laser-turret\", count = 2 },\n    { weapon = \"heavy-laser\", bank = 2 },",
            "{ weapon = \"lazer\", count = 2 },\n    { weapon = \"heavy-laser\", bank = 2 },",
        ),
        (
            "ships.toml",
            "structure = \".U.A.R..A\"",
            "structure = \".U.X.R..\"",
        ),
        (
            "tables.toml",
            "    { roll = 3, result = \"thruster\" },\n",
            "",
        ),
        (
            "tables.toml",
            "{ roll = \"7\", hits = [2, 3, 3, 4, 7, 8, 10, 13, 16, 26] },\n",
            "",
        ),
        ("tables.toml", "easy = 7", "easy = 11"),
        (
            "rules.toml",
            "[target-lock]\ndie = 6",
            "[target-lock]\ndie = 1",
        ),
        (
            "rules.toml",
            "hangar-door = \"average\"",
            "hangar-door = \"tricky\"",
        ),
    ]);
    let p = problems(&files);
    has(
        &p,
        "weapons.toml: heavy-laser.brackets[1]: gap: no bracket covers 4-4",
    );
    has(
        &p,
        "weapons.toml: heavy-laser.brackets[2]: 7-12 overlaps the bracket before (5-7)",
    );
    has(
        &p,
        "weapons.toml: particle-cannon.damage: line 48: 99 is outside 1..=64 \
         (structure boxes a hit marks: at least 1)",
    );
    has(
        &p,
        "ships.toml: frigate.weapons[0].weapon: unknown weapon 'lazer'",
    );
    has(&p, "ships.toml: gunboat.structure: box 4 is 'X'");
    has(&p, "ships.toml: gunboat.structure: no A box");
    has(
        &p,
        "tables.toml: internal-damage.rows[2].roll: row 3 is for roll 4",
    );
    has(
        &p,
        "tables.toml: internal-damage.rows: a roll can reach 6 but the rows stop at 5",
    );
    has(
        &p,
        "tables.toml: swarmer-hits.rows[7].roll: '8' does not follow '6'",
    );
    has(
        &p,
        "tables.toml: repairs.easy: 11 is more than the repair die's sides (10)",
    );
    has(
        &p,
        "rules.toml: target-lock.die: line 9: 1 is outside 2..=100 (sides of the Target Lock die)",
    );
    has(
        &p,
        "rules.toml: repair.difficulty.hangar-door: 'tricky' is not a difficulty",
    );
    assert!(p.len() >= 12, "{p:#?}");
}

#[test]
fn missing_unknown_and_malformed_files_are_reported() {
    let mut files = sources();
    files.retain(|f| f.name != "rules.toml");
    files.push(SourceFile {
        name: "notes.toml".into(),
        text: String::new(),
    });
    files
        .iter_mut()
        .find(|f| f.name == "ships.toml")
        .expect("ships.toml")
        .text
        .push_str("\n[broken\n");
    let p = problems(&files);
    has(&p, "notes.toml: not an action-d10 ruleset file");
    has(&p, "rules.toml: the file is missing");
    has(&p, "ships.toml: line");
}

#[test]
fn unknown_keys_are_errors() {
    let files = edited(&[(
        "ships.toml",
        "size = -1\nstructure = \".U.A.R..A\"",
        "size = -1\nspeed = 3\nstructure = \".U.A.R..A\"",
    )]);
    has(&problems(&files), "unknown field `speed`");
}

#[test]
fn cross_references_are_checked() {
    let files = edited(&[
        (
            "ships.toml",
            "riders = [\"gunboat\", \"gunboat\"]",
            "riders = [\"gunboat\", \"shuttle\"]",
        ),
        (
            "ships.toml",
            "small-craft = { count = 6, weapon = \"swarmer-guns\", speed = 6 }",
            "small-craft = { count = 20, weapon = \"laser-turret\", speed = 6 }",
        ),
        (
            "tables.toml",
            "fallback = \"none\"\nsource = \"d10 action-based rules, Structure Damage: Hangar Table\"",
            "fallback = \"surface-features\"\nsource = \"d10 action-based rules, Structure Damage: Hangar Table\"",
        ),
        (
            "tables.toml",
            "fallback = \"roll-again\"",
            "fallback = \"hangar\"",
        ),
    ]);
    let p = problems(&files);
    has(&p, "ships.toml: carrier.riders[1]: unknown ship 'shuttle'");
    has(
        &p,
        "ships.toml: carrier.small-craft.count: 20 small craft but 12 small-craft-bay",
    );
    has(
        &p,
        "ships.toml: carrier.small-craft.weapon: 'laser-turret' is not a small craft weapon",
    );
    has(&p, "the fall-backs from hangar run in a circle");
}

#[test]
fn a_weapon_cannot_take_a_tables_id() {
    let files = edited(&[("weapons.toml", "[rocket-pack]", "[hangar]")]);
    has(
        &problems(&files),
        "weapons.toml: hangar: 'hangar' is the id of one of the system's tables",
    );
}

#[test]
fn riders_cannot_carry_riders() {
    let files = edited(&[(
        "ships.toml",
        "notes = \"A rider: carried by the carrier, or fought alone.\"",
        "notes = \"A rider: carried by the carrier, or fought alone.\"\nriders = [\"escort\"]",
    )]);
    has(
        &problems(&files),
        "carrier.riders: 'gunboat' carries riders itself",
    );
}

#[test]
fn the_surface_features_table_must_reach_the_aft_rows() {
    let files = edited(&[(
        "rules.toml",
        "aft-surface-features = 2",
        "aft-surface-features = 3",
    )]);
    has(
        &problems(&files),
        "surface-features.rows: a roll can reach 9 but the rows stop at 8",
    );
}

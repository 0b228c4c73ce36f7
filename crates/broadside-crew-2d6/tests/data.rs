//! Validation of the ruleset's data: every problem reported at once, each with its file and key.

mod common;

use common::{appended, check_data_error, edited, load, load_errors, sources};

/// The data of record loads, and every sample ship says it is authored.
#[test]
fn the_data_of_record_loads_and_marks_its_samples() {
    let system = load(&sources());
    let ids: Vec<&str> = system.rules.ships.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["corvette", "escort", "scout", "trader"]);
    for ship in &system.rules.ships {
        assert_eq!(ship.source, "authored sample", "{}", ship.id);
    }
}

/// Bad input: a crew member with a skill the system lacks is
/// reported with the file and the key that names it.
#[test]
fn a_skill_the_system_lacks_is_reported_with_file_and_key() {
    let files = edited(
        &sources(),
        "ships.toml",
        "skills = { pilot = 2, tactics-naval = 0, leadership = 1, gunnery-turret = 0 }",
        "skills = { pilot = 2, tactics-naval = 0, leadership = 1, gunnery-turret = 0, astrophysics = 1 }",
    );
    let errors = load_errors(&files);
    check_data_error(
        &errors,
        &[
            "ships.toml",
            "scout.crew[0].skills.astrophysics",
            "unknown skill 'astrophysics'",
        ],
    );
}

/// A gap or an overlap in a row table is reported with the row.
#[test]
fn gaps_and_overlaps_in_tables_are_reported() {
    let gap = edited(
        &sources(),
        "checks.toml",
        "from = 1\nto = 5\ndm = 1",
        "from = 2\nto = 5\ndm = 1",
    );
    check_data_error(
        &load_errors(&gap),
        &["checks.toml", "chain.row[4].from", "gap: no row covers 1-1"],
    );
    let overlap = edited(
        &sources(),
        "checks.toml",
        "from = 9\nto = 12\ncount = 3",
        "from = 8\nto = 12\ncount = 3",
    );
    check_data_error(
        &load_errors(&overlap),
        &["checks.toml", "reactions[2].from", "overlaps"],
    );
    let short = edited(
        &sources(),
        "rules.toml",
        "{ from = 3, to = 6, band = \"long\" }",
        "{ from = 3, to = 5, band = \"long\" }",
    );
    check_data_error(
        &load_errors(&short),
        &["rules.toml", "setup.near-object[1].to", "must reach 6"],
    );
}

/// Unknown names that ships refer to are reported, all at once.
#[test]
fn every_problem_of_a_ship_is_reported_together() {
    let files = edited(
        &sources(),
        "ships.toml",
        "{ id = \"turret-1\", kind = \"turret\", weapons = [\"beam-laser\", \"sandcaster\"] },",
        "{ id = \"turret-1\", kind = \"turrett\", weapons = [\"lazer\", \"sandcaster\"] },",
    );
    let files = edited(
        &files,
        "ships.toml",
        "positions = [\"gunner:turret-1\"]",
        "positions = [\"gunner:turret-9\"]",
    );
    let files = edited(
        &files,
        "ships.toml",
        "characteristics = { str = 7, dex = 7, end = 7, int = 7, edu = 7, soc = 7 }",
        "characteristics = { str = 7, dex = 7, end = 7, int = 7, edu = 7, luck = 7 }",
    );
    let errors = load_errors(&files);
    check_data_error(
        &errors,
        &[
            "ships.toml",
            "trader.mount[0].kind",
            "unknown mount kind 'turrett'",
        ],
    );
    check_data_error(
        &errors,
        &[
            "ships.toml",
            "trader.mount[0].weapons[0]",
            "unknown weapon 'lazer'",
        ],
    );
    check_data_error(
        &errors,
        &[
            "ships.toml",
            "trader.crew[2].positions[0]",
            "no mount 'turret-9'",
        ],
    );
    check_data_error(
        &errors,
        &[
            "ships.toml",
            "trader.crew[0].characteristics.luck",
            "unknown characteristic",
        ],
    );
    check_data_error(
        &errors,
        &[
            "ships.toml",
            "trader.crew[0].characteristics.soc",
            "missing",
        ],
    );
}

/// Positions: every ship needs a Captain, a Pilot and a Sensor Operator,
/// and no position is held twice.
#[test]
fn positions_are_checked() {
    let files = edited(
        &sources(),
        "ships.toml",
        "positions = [\"captain\", \"pilot\"]",
        "positions = [\"pilot\"]",
    );
    check_data_error(
        &load_errors(&files),
        &["ships.toml", "scout.crew", "no crew member holds captain"],
    );
    let files = edited(
        &sources(),
        "ships.toml",
        "positions = [\"engineer-j-drive\"]\nskills = { engineer-j-drive = 1",
        "positions = [\"pilot\"]\nskills = { engineer-j-drive = 1",
    );
    check_data_error(
        &load_errors(&files),
        &["ships.toml", "corvette.crew", "2 crew members hold pilot"],
    );
}

/// A mount cannot hold more than its kind allows, and missiles are not
/// mounted in barbettes or bays.
#[test]
fn mounts_are_checked() {
    let files = edited(
        &sources(),
        "ships.toml",
        "weapons = [\"beam-laser\", \"beam-laser\", \"beam-laser\"] },\n  { id = \"turret-2\", kind = \"turret\", weapons = [\"missile-rack\", \"missile-rack\", \"sandcaster\"] },\n  { id = \"turret-3\", kind = \"turret\", weapons = [\"pulse-laser\", \"pulse-laser\"] },\n]\n\n[[corvette",
        "weapons = [\"beam-laser\", \"beam-laser\", \"beam-laser\", \"beam-laser\"] },\n  { id = \"turret-2\", kind = \"small-bay\", weapons = [\"missile-rack\"] },\n  { id = \"turret-3\", kind = \"turret\", weapons = [\"pulse-laser\", \"pulse-laser\"] },\n]\n\n[[corvette",
    );
    let errors = load_errors(&files);
    check_data_error(
        &errors,
        &["corvette.mount[0].weapons", "a turret holds at most 3"],
    );
    check_data_error(&errors, &["corvette.mount[1].weapons[0]", "missile bays"]);
}

/// Critical hit locations must cover 2 to 12 once each, with a row for
/// every severity, and name the Hull and M-drive the rules refer to.
#[test]
fn critical_locations_are_checked() {
    let files = edited(
        &sources(),
        "criticals.toml",
        "roll = 9\nid = \"cargo\"",
        "roll = 8\nid = \"cargo\"",
    );
    let errors = load_errors(&files);
    check_data_error(
        &errors,
        &["criticals.toml", "location[7].roll", "another location"],
    );
    check_data_error(
        &errors,
        &["criticals.toml", "no location for the roll of 9"],
    );
    let files = edited(
        &sources(),
        "criticals.toml",
        "id = \"m-drive\"",
        "id = \"drive\"",
    );
    check_data_error(
        &load_errors(&files),
        &["criticals.toml", "no 'm-drive' location"],
    );
    let files = edited(
        &sources(),
        "criticals.toml",
        "  { text = \"1D damage\", hull-damage = \"1d6\", repairable = false },\n",
        "",
    );
    check_data_error(
        &load_errors(&files),
        &["criticals.toml", "location[5].severity", "5 rows"],
    );
    let files = edited(
        &sources(),
        "criticals.toml",
        "hull-damage = \"2d6\"",
        "hull-damage = \"2x6\"",
    );
    check_data_error(
        &load_errors(&files),
        &[
            "criticals.toml",
            "location[5].severity[1].hull-damage",
            "not dice",
        ],
    );
}

/// Every task of the rules needs its check, with known skills and a known
/// difficulty.
#[test]
fn tasks_are_checked() {
    let files = edited(&sources(), "tasks.toml", "[task.ecm]", "[task.ecmm]");
    let errors = load_errors(&files);
    check_data_error(&errors, &["tasks.toml", "task.ecm", "missing"]);
    check_data_error(&errors, &["tasks.toml", "task.ecmm", "not a task"]);
    let files = edited(
        &sources(),
        "tasks.toml",
        "difficulty = \"difficult\"",
        "difficulty = \"hard\"",
    );
    check_data_error(
        &load_errors(&files),
        &[
            "tasks.toml",
            "task.dodge.difficulty",
            "unknown difficulty 'hard'",
        ],
    );
}

/// Files: an unknown file, a missing one and a syntax error (with its line).
#[test]
fn files_are_checked() {
    let mut files = sources();
    files.retain(|f| f.name != "ranges.toml");
    let errors = load_errors(&files);
    check_data_error(&errors, &["ranges.toml", "the file is missing"]);
    let files = appended(&sources(), "weapons.toml", "\n[weapon.broken\n");
    check_data_error(&load_errors(&files), &["weapons.toml", "line "]);
    let mut files = sources();
    files.push(broadside_core::SourceFile {
        name: "extra.toml".into(),
        text: String::new(),
    });
    check_data_error(
        &load_errors(&files),
        &["extra.toml", "not a crew-2d6 ruleset file"],
    );
}

/// Numbers out of range are reported and unknown keys refused.
#[test]
fn numbers_and_keys_are_checked() {
    let files = edited(&sources(), "ships.toml", "hull = 40", "hull = 0");
    check_data_error(
        &load_errors(&files),
        &["ships.toml", "scout.hull", "0 is outside 1..="],
    );
    let files = edited(
        &sources(),
        "ships.toml",
        "skills = { pilot = 2, tactics-naval = 0",
        "skills = { pilot = 9, tactics-naval = 0",
    );
    check_data_error(
        &load_errors(&files),
        &["scout.crew[0].skills.pilot", "9 is outside 0..=6"],
    );
    let files = edited(
        &sources(),
        "weapons.toml",
        "attack-dm = 4",
        "attack-dm = 4\ncolour = \"red\"",
    );
    check_data_error(&load_errors(&files), &["weapons.toml", "colour"]);
}

/// The numbers of the core rules' summaries are the data's: difficulties,
/// characteristic DMs, range bands and their thrust, the turret weapons,
/// and hull points of about tons / 2.5.
#[test]
fn the_published_numbers_are_the_data() {
    let system = load(&sources());
    let rules = &system.rules;
    let difficulties: Vec<(&str, i32)> = rules
        .difficulties
        .iter()
        .map(|(n, t)| (n.as_str(), *t))
        .collect();
    assert_eq!(
        difficulties,
        [
            ("simple", 2),
            ("easy", 4),
            ("routine", 6),
            ("average", 8),
            ("difficult", 10),
            ("very-difficult", 12),
            ("formidable", 14)
        ]
    );
    let dms: Vec<i32> = (0..=15).map(|v| rules.characteristic_dm(v)).collect();
    assert_eq!(dms, [-3, -2, -2, -1, -1, -1, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3]);
    assert_eq!(rules.unskilled, -3);
    let bands: Vec<(i32, i32)> = rules
        .bands
        .iter()
        .map(|b| (b.attack_dm, b.thrust))
        .collect();
    assert_eq!(
        bands,
        [(0, 1), (0, 1), (1, 2), (0, 5), (-2, 10), (-4, 25), (-6, 50)]
    );
    let weapon = |id: &str| {
        let w = rules.weapon(rules.weapon_id(id).expect("in the data"));
        (
            w.range.id(),
            w.damage.map(|d| d.to_string()),
            w.attack_dm,
            w.ap,
        )
    };
    assert_eq!(weapon("beam-laser"), ("medium", Some("1d6".into()), 4, 0));
    assert_eq!(weapon("pulse-laser"), ("long", Some("2d6".into()), 2, 0));
    assert_eq!(
        weapon("particle-beam"),
        ("very-long", Some("3d6".into()), 0, 0)
    );
    assert_eq!(weapon("plasma-gun"), ("medium", Some("3d6".into()), 0, 0));
    assert_eq!(weapon("fusion-gun"), ("medium", Some("4d6".into()), 0, 0));
    assert_eq!(weapon("railgun"), ("short", Some("2d6".into()), 0, 4));
    assert_eq!(weapon("missile-rack").1, Some("4d6".into()));
    for ship in &rules.ships {
        assert_eq!(
            ship.hull * 5,
            ship.tons * 2,
            "{}: hull about tons / 2.5",
            ship.id
        );
    }
}

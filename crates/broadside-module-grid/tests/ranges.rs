//! Data ranges: every number of the module-grid data held to its documented range at both ends, and the rules note's table of them.

mod common;

use broadside_core::{Bound, DataRange, ranges_markdown};
use broadside_module_grid::data::RANGES;
use common::{edited, sources};

/// Loads the data of record with `edit` made to `file`: the problems, one a
/// line, or none when the data loads.
fn check(file: &str, edit: impl FnOnce(&mut String)) -> Vec<String> {
    match broadside_module_grid::ModuleGrid::load(&edited(file, edit)) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.0.iter().map(ToString::to_string).collect(),
    }
}

/// Where a value of a range is written for a test: the file, the key the
/// problem names, and how to write the value (returning the 1-based line it
/// is written on).
struct Place {
    file: &'static str,
    key: &'static str,
    write: fn(&mut String, i64) -> usize,
}

/// The 1-based line of the first line at or after `from` (0-based) that
/// starts with `start`, and its 0-based index.
fn find_line(text: &str, from: usize, start: &str) -> usize {
    text.lines()
        .enumerate()
        .skip(from)
        .find(|(_, line)| line.trim_start().starts_with(start))
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no line starting with {start:?}"))
}

/// Replaces line `index` (0-based) of `text` with `line`.
fn replace_line(text: &mut String, index: usize, line: &str) {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[index] = line;
    *text = lines.join("\n") + "\n";
}

/// Sets `field = value` in the `nth` table headed `header` (`[to-hit]`,
/// `[[row]]`).
fn set_field(text: &mut String, header: &str, nth: usize, field: &str, value: i64) -> usize {
    let mut at = 0;
    for _ in 0..=nth {
        at = find_line(text, at, header) + 1;
    }
    let index = find_line(text, at, &format!("{field} ="));
    replace_line(text, index, &format!("{field} = {value}"));
    index + 1
}

/// Sets `inner = value` inside the inline table of `field` in `[header]`
/// (`crew = { gunnery = 2, ... }`).
fn set_inline(text: &mut String, header: &str, field: &str, inner: &str, value: i64) -> usize {
    let at = find_line(text, 0, header) + 1;
    let index = find_line(text, at, &format!("{field} ="));
    let line = text.lines().nth(index).unwrap_or_default().to_owned();
    let start = line.find(&format!("{inner} = ")).expect("the inner key") + inner.len() + 3;
    let end = line[start..]
        .find([',', ' ', '}'])
        .map_or(line.len(), |e| start + e);
    let changed = format!("{}{value}{}", &line[..start], &line[end..]);
    replace_line(text, index, &changed);
    index + 1
}

/// Appends a ship `test-ship` with a layout of `rows` rows of `cols`
/// squares, all `module` (the first `cannons` of them Cannons; when `module`
/// is `.`, the last square a Cargo Bay), and the given centre mark and
/// occupants; the line of `line_of` is returned.
#[allow(
    clippy::too_many_arguments,
    reason = "each part of a test ship is set by one test"
)]
fn append_ship(
    text: &mut String,
    rows: i64,
    cols: i64,
    module: &str,
    cannons: i64,
    centre: &str,
    occupants: &str,
    line_of: &str,
) -> usize {
    let mut n = 0;
    let layout: Vec<String> = (0..rows)
        .map(|r| {
            let row: Vec<String> = (0..cols)
                .map(|c| {
                    n += 1;
                    // `.` with a module in the last square, or empty
                    // throughout.
                    let last = r == rows - 1 && c == cols - 1;
                    if n <= cannons {
                        "\"cannon\"".to_owned()
                    } else if module == "." && last {
                        "\"cargo-bay\"".to_owned()
                    } else if module == "empty" {
                        "\".\"".to_owned()
                    } else {
                        format!("\"{module}\"")
                    }
                })
                .collect();
            format!("[{}]", row.join(", "))
        })
        .collect();
    text.push_str(&format!(
        "\n[test-ship]\nname = \"Test ship\"\nsource = \"test\"\nsize = 1\nshields = 0\nguns = 0\nspeed = 0\nluck = 0\ncentre = \"{centre}\"\nlayout = [{}]\noccupants = {{ {occupants} }}\ncrew = {{ gunnery = 0, piloting = 0, science = 0, engineering = 0 }}\n",
        layout.join(", ")
    ));
    let header = find_line(text, 0, "[test-ship]");
    find_line(text, header, line_of) + 1
}

macro_rules! field {
    ($file:literal, $key:literal, $header:literal, $nth:literal, $field:literal) => {
        Place {
            file: $file,
            key: $key,
            write: |t, v| set_field(t, $header, $nth, $field, v),
        }
    };
}

/// Where each range is tested: its low end and its high end (the same
/// place but for the hull check chart, whose rows must rise, and for
/// layouts built to the size asked for).
fn places(range: &DataRange) -> (Place, Place) {
    let same = |p: fn() -> Place| (p(), p());
    match (range.file, range.key) {
        ("rules.toml", "skill-check.dice") => {
            same(|| field!("rules.toml", "skill-check.dice", "[skill-check]", 0, "dice"))
        }
        ("rules.toml", "skill-check.professional-dice") => (
            // A professional rolls no fewer dice than anyone: at 1, so do all.
            Place {
                file: "rules.toml",
                key: "skill-check.professional-dice",
                write: |t, v| {
                    set_field(t, "[skill-check]", 0, "dice", 1);
                    set_field(t, "[skill-check]", 0, "professional-dice", v)
                },
            },
            field!(
                "rules.toml",
                "skill-check.professional-dice",
                "[skill-check]",
                0,
                "professional-dice"
            ),
        ),
        ("rules.toml", "to-hit.base") => {
            same(|| field!("rules.toml", "to-hit.base", "[to-hit]", 0, "base"))
        }
        ("rules.toml", "to-hit.per-hex") => {
            same(|| field!("rules.toml", "to-hit.per-hex", "[to-hit]", 0, "per-hex"))
        }
        ("rules.toml", "to-hit.ooc-penalty") => same(|| {
            field!(
                "rules.toml",
                "to-hit.ooc-penalty",
                "[to-hit]",
                0,
                "ooc-penalty"
            )
        }),
        ("rules.toml", "allocation.dice") => {
            same(|| field!("rules.toml", "allocation.dice", "[allocation]", 0, "dice"))
        }
        ("rules.toml", "allocation.centre") => same(|| {
            field!(
                "rules.toml",
                "allocation.centre",
                "[allocation]",
                0,
                "centre"
            )
        }),
        ("rules.toml", "mode.<mode>.power-divisor") => same(|| {
            field!(
                "rules.toml",
                "mode.long.power-divisor",
                "[mode.long]",
                0,
                "power-divisor"
            )
        }),
        ("rules.toml", "mode.<mode>.fixed-power") => same(|| {
            field!(
                "rules.toml",
                "mode.multi.fixed-power",
                "[mode.multi]",
                0,
                "fixed-power"
            )
        }),
        ("rules.toml", "mode.<mode>.range-divisor") => same(|| {
            field!(
                "rules.toml",
                "mode.long.range-divisor",
                "[mode.long]",
                0,
                "range-divisor"
            )
        }),
        ("rules.toml", "mode.<mode>.shots-per-turn") => same(|| {
            field!(
                "rules.toml",
                "mode.multi.shots-per-turn",
                "[mode.multi]",
                0,
                "shots-per-turn"
            )
        }),
        ("rules.toml", "mode.<mode>.falloff-per-hex") => same(|| {
            field!(
                "rules.toml",
                "mode.fusion.falloff-per-hex",
                "[mode.fusion]",
                0,
                "falloff-per-hex"
            )
        }),
        ("rules.toml", "module-damage.breaks-at") => same(|| {
            field!(
                "rules.toml",
                "module-damage.breaks-at",
                "[module-damage]",
                0,
                "breaks-at"
            )
        }),
        ("rules.toml", "module-damage.collateral-dice-break") => same(|| {
            field!(
                "rules.toml",
                "module-damage.collateral-dice-break",
                "[module-damage]",
                0,
                "collateral-dice-break"
            )
        }),
        ("rules.toml", "module-damage.collateral-dice") => same(|| {
            field!(
                "rules.toml",
                "module-damage.collateral-dice",
                "[module-damage]",
                0,
                "collateral-dice"
            )
        }),
        ("rules.toml", "module-damage.ooc-on-break") => same(|| {
            field!(
                "rules.toml",
                "module-damage.ooc-on-break",
                "[module-damage]",
                0,
                "ooc-on-break"
            )
        }),
        ("rules.toml", "module-damage.max-broken-markers") => same(|| {
            field!(
                "rules.toml",
                "module-damage.max-broken-markers",
                "[module-damage]",
                0,
                "max-broken-markers"
            )
        }),
        ("rules.toml", "off-silhouette.hull-damage") => same(|| {
            field!(
                "rules.toml",
                "off-silhouette.hull-damage",
                "[off-silhouette]",
                0,
                "hull-damage"
            )
        }),
        ("rules.toml", "off-silhouette.ooc-at") => same(|| {
            field!(
                "rules.toml",
                "off-silhouette.ooc-at",
                "[off-silhouette]",
                0,
                "ooc-at"
            )
        }),
        ("rules.toml", "off-silhouette.ooc") => same(|| {
            field!(
                "rules.toml",
                "off-silhouette.ooc",
                "[off-silhouette]",
                0,
                "ooc"
            )
        }),
        ("rules.toml", "shields.drop-per-strike") => same(|| {
            field!(
                "rules.toml",
                "shields.drop-per-strike",
                "[shields]",
                0,
                "drop-per-strike"
            )
        }),
        ("rules.toml", "hull-check.dice") => {
            same(|| field!("rules.toml", "hull-check.dice", "[hull-check]", 0, "dice"))
        }
        ("rules.toml", "hull-check.first-check") => same(|| {
            field!(
                "rules.toml",
                "hull-check.first-check",
                "[hull-check]",
                0,
                "first-check"
            )
        }),
        ("rules.toml", "hull-check.stabilizer-rerolls") => same(|| {
            field!(
                "rules.toml",
                "hull-check.stabilizer-rerolls",
                "[hull-check]",
                0,
                "stabilizer-rerolls"
            )
        }),
        ("rules.toml", "hull-check.luck-per-reroll") => same(|| {
            field!(
                "rules.toml",
                "hull-check.luck-per-reroll",
                "[hull-check]",
                0,
                "luck-per-reroll"
            )
        }),
        ("rules.toml", "hull-check.crew-damage-dice") => same(|| {
            field!(
                "rules.toml",
                "hull-check.crew-damage-dice",
                "[hull-check]",
                0,
                "crew-damage-dice"
            )
        }),
        ("rules.toml", "repair.difficulty") => same(|| {
            field!(
                "rules.toml",
                "repair.difficulty",
                "[repair]",
                0,
                "difficulty"
            )
        }),
        ("rules.toml", "repair.slagged-penalty") => same(|| {
            field!(
                "rules.toml",
                "repair.slagged-penalty",
                "[repair]",
                0,
                "slagged-penalty"
            )
        }),
        ("rules.toml", "explosion.falloff-per-hex") => same(|| {
            field!(
                "rules.toml",
                "explosion.falloff-per-hex",
                "[explosion]",
                0,
                "falloff-per-hex"
            )
        }),
        ("rules.toml", "explosion.docked-times") => same(|| {
            field!(
                "rules.toml",
                "explosion.docked-times",
                "[explosion]",
                0,
                "docked-times"
            )
        }),
        ("rules.toml", "explosion.microship-survival") => same(|| {
            field!(
                "rules.toml",
                "explosion.microship-survival",
                "[explosion]",
                0,
                "microship-survival"
            )
        }),
        ("rules.toml", "teleporter.base") => {
            same(|| field!("rules.toml", "teleporter.base", "[teleporter]", 0, "base"))
        }
        ("rules.toml", "teleporter.bomb-dice") => same(|| {
            field!(
                "rules.toml",
                "teleporter.bomb-dice",
                "[teleporter]",
                0,
                "bomb-dice"
            )
        }),
        ("rules.toml", "missile.difficulty") => same(|| {
            field!(
                "rules.toml",
                "missile.difficulty",
                "[missile]",
                0,
                "difficulty"
            )
        }),
        ("rules.toml", "missile.range") => {
            same(|| field!("rules.toml", "missile.range", "[missile]", 0, "range"))
        }
        ("rules.toml", "missile.power") => {
            same(|| field!("rules.toml", "missile.power", "[missile]", 0, "power"))
        }
        ("rules.toml", "engagement.scans-per-science") => same(|| {
            field!(
                "rules.toml",
                "engagement.scans-per-science",
                "[engagement]",
                0,
                "scans-per-science"
            )
        }),
        ("rules.toml", "engagement.ooc-recovery-difficulty") => same(|| {
            field!(
                "rules.toml",
                "engagement.ooc-recovery-difficulty",
                "[engagement]",
                0,
                "ooc-recovery-difficulty"
            )
        }),
        ("rules.toml", "engagement.ooc-recovered") => same(|| {
            field!(
                "rules.toml",
                "engagement.ooc-recovered",
                "[engagement]",
                0,
                "ooc-recovered"
            )
        }),
        ("rules.toml", "engagement.repairs-per-turn") => same(|| {
            field!(
                "rules.toml",
                "engagement.repairs-per-turn",
                "[engagement]",
                0,
                "repairs-per-turn"
            )
        }),
        // The chart's rows rise: the low end is tried on the first row, the
        // high end on the last.
        ("hull-checks.toml", "row[<n>].damage") => (
            field!("hull-checks.toml", "row[0].damage", "[[row]]", 0, "damage"),
            field!(
                "hull-checks.toml",
                "row[19].damage",
                "[[row]]",
                19,
                "damage"
            ),
        ),
        ("hull-checks.toml", "row[<n>].check") => (
            field!("hull-checks.toml", "row[0].check", "[[row]]", 0, "check"),
            field!("hull-checks.toml", "row[19].check", "[[row]]", 19, "check"),
        ),
        ("ships.toml", "<ship>.size") => {
            same(|| field!("ships.toml", "scout.size", "[scout]", 0, "size"))
        }
        ("ships.toml", "<ship>.shields") => {
            same(|| field!("ships.toml", "scout.shields", "[scout]", 0, "shields"))
        }
        ("ships.toml", "<ship>.guns") => {
            same(|| field!("ships.toml", "scout.guns", "[scout]", 0, "guns"))
        }
        ("ships.toml", "<ship>.speed") => {
            same(|| field!("ships.toml", "scout.speed", "[scout]", 0, "speed"))
        }
        ("ships.toml", "<ship>.luck") => {
            same(|| field!("ships.toml", "scout.luck", "[scout]", 0, "luck"))
        }
        ("ships.toml", "<ship>.missiles") => {
            same(|| field!("ships.toml", "scout.missiles", "[scout]", 0, "missiles"))
        }
        ("ships.toml", "<ship>.bombs") => {
            same(|| field!("ships.toml", "scout.bombs", "[scout]", 0, "bombs"))
        }
        ("ships.toml", "<ship>.hull-damage") => same(|| {
            field!(
                "ships.toml",
                "scout.hull-damage",
                "[scout]",
                0,
                "hull-damage"
            )
        }),
        ("ships.toml", "<ship>.layout (rows)") => same(|| Place {
            file: "ships.toml",
            key: "test-ship.layout",
            write: |t, v| append_ship(t, v, 1, "cargo-bay", 0, "1,1", "", "layout ="),
        }),
        ("ships.toml", "<ship>.layout[<row>] (columns)") => same(|| Place {
            file: "ships.toml",
            key: "test-ship.layout[0]",
            write: |t, v| append_ship(t, 1, v, "cargo-bay", 0, "1,1", "", "layout ="),
        }),
        ("ships.toml", "<ship>.layout (modules)") => same(|| Place {
            file: "ships.toml",
            key: "test-ship.layout",
            // 0 modules: one empty square; 64: 8 x 8; 65: 5 x 13.
            write: |t, v| match v {
                0 => append_ship(t, 1, 1, "empty", 0, "1,1", "", "layout ="),
                64 => append_ship(t, 8, 8, "cargo-bay", 0, "1,1", "", "layout ="),
                65 => append_ship(t, 5, 13, "cargo-bay", 0, "1,1", "", "layout ="),
                _ => append_ship(t, 1, v, "cargo-bay", 0, "1,1", "", "layout ="),
            },
        }),
        ("ships.toml", "<ship>.layout (Cannons)") => same(|| Place {
            file: "ships.toml",
            key: "test-ship.layout",
            // 16: 4 x 4 Cannons; 17: 17 of 2 x 9.
            write: |t, v| match v {
                17 => append_ship(t, 2, 9, "cargo-bay", 17, "1,1", "", "layout ="),
                _ => append_ship(t, 4, 4, "cargo-bay", v, "1,1", "", "layout ="),
            },
        }),
        ("ships.toml", "<ship>.centre (row, column)") => same(|| Place {
            file: "ships.toml",
            key: "test-ship.centre",
            // A 16 x 16 layout whose one module is its last square.
            write: |t, v| match v {
                1 => append_ship(t, 1, 1, "cargo-bay", 0, "1,1", "", "centre ="),
                _ => append_ship(t, 16, 16, ".", 0, &format!("{v},16"), "", "centre ="),
            },
        }),
        ("ships.toml", "<ship>.occupants (row, column)") => same(|| Place {
            file: "ships.toml",
            key: "test-ship.occupants.\"<at>\"",
            write: |t, v| match v {
                1 => append_ship(t, 1, 1, "cargo-bay", 0, "1,1", "\"1,1\" = 1", "occupants ="),
                _ => append_ship(
                    t,
                    16,
                    16,
                    ".",
                    0,
                    "16,16",
                    &format!("\"16,{v}\" = 1"),
                    "occupants =",
                ),
            },
        }),
        ("ships.toml", "<ship>.occupants.\"<R,C>\"") => same(|| Place {
            file: "ships.toml",
            key: "scout.occupants.\"1,2\"",
            write: |t, v| set_inline(t, "[scout]", "occupants", "\"1,2\"", v),
        }),
        ("ships.toml", "<ship>.crew.<skill>") => same(|| Place {
            file: "ships.toml",
            key: "scout.crew.gunnery",
            write: |t, v| set_inline(t, "[scout]", "crew", "gunnery", v),
        }),
        (file, key) => panic!("no test place for {file} {key}: add one"),
    }
}

/// The problem a value out of `range` written at `place` on `line` gets.
fn refusal(range: &DataRange, place: &Place, key: &str, line: usize, value: i64) -> String {
    let Bound::Number { min, max } = range.bound else {
        panic!("module-grid data has no dice ranges");
    };
    format!(
        "{}: {key}: line {line}: {value} is outside {min}..={max} ({})",
        place.file, range.why
    )
}

/// Writes `value` at `place`: the problems, and the line it was written on.
fn check_at(place: &Place, value: i64) -> (Vec<String>, usize) {
    let mut line = 0;
    let problems = check(place.file, |text| line = (place.write)(text, value));
    (problems, line)
}

/// The key a problem names for a value written at `place`.
fn key_for(place: &Place, value: i64) -> String {
    place.key.replace("<at>", &format!("16,{value}"))
}

#[test]
fn every_range_accepts_its_ends_and_refuses_one_past() {
    for range in RANGES {
        let Bound::Number { min, max } = range.bound else {
            panic!("{}: module-grid data has no dice ranges", range.key);
        };
        let (low, high) = places(range);
        for (place, value) in [(&low, min), (&high, max)] {
            let (problems, _) = check_at(place, value);
            assert!(
                problems.is_empty(),
                "{} = {value} is within {min}..={max} but was refused:\n{}",
                place.key,
                problems.join("\n")
            );
        }
        for (place, value) in [(&low, min - 1), (&high, max + 1)] {
            // A count cannot be written below 0.
            if value < 0 && range.key.starts_with("<ship>.layout") {
                continue;
            }
            let (problems, line) = check_at(place, value);
            let expected = refusal(range, place, &key_for(place, value), line, value);
            assert!(
                problems.contains(&expected),
                "{} = {value} is outside {min}..={max}: expected\n{expected}\nin:\n{}",
                place.key,
                problems.join("\n")
            );
        }
    }
}

/// The extremes of a 64-bit number, where a check written `abs() > 100`
/// once overflowed: each is refused with its range, never clamped into it.
#[test]
fn the_extremes_of_i64_are_refused() {
    let keys = [
        "skill-check.dice",
        "to-hit.base",
        "mode.<mode>.power-divisor",
        "row[<n>].damage",
        "<ship>.size",
        "<ship>.hull-damage",
        "<ship>.crew.<skill>",
        "<ship>.occupants.\"<R,C>\"",
    ];
    for key in keys {
        let range = RANGES
            .iter()
            .find(|r| r.key == key)
            .unwrap_or_else(|| panic!("no range {key}"));
        let (low, high) = places(range);
        for (place, value) in [(&low, i64::MIN), (&high, i64::MAX)] {
            let (problems, line) = check_at(place, value);
            let expected = refusal(range, place, place.key, line, value);
            assert!(
                problems.contains(&expected),
                "expected\n{expected}\nin:\n{}",
                problems.join("\n")
            );
        }
    }
    // Squares are read as whole numbers too.
    let centre = RANGES
        .iter()
        .find(|r| r.key == "<ship>.centre (row, column)")
        .expect("the centre range");
    for value in [i64::MIN, i64::MAX] {
        let mut line = 0;
        let problems = check("ships.toml", |t| {
            line = append_ship(
                t,
                1,
                1,
                "cargo-bay",
                0,
                &format!("1,{value}"),
                "",
                "centre =",
            );
        });
        let place = places(centre).0;
        assert!(
            problems.contains(&refusal(centre, &place, "test-ship.centre", line, value)),
            "{}",
            problems.join("\n")
        );
    }
}

/// Seed 003, "Line of Sight (Ships)": asteroids, moons, planets and stars
/// block; starbases, ships, fighters, missiles and spacewalkers do not. An
/// object the rule does not name is refused where it is listed, whichever
/// list it is in.
#[test]
fn sight_lists_only_objects_the_rule_names() {
    let known = "asteroid, moon, planet, star, starbase, ship, fighter, missile, spacewalker";
    let problems = check("rules.toml", |t| {
        *t = t.replace(
            "blocking = [\"asteroid\",",
            "blocking = [\"torpedo x-1\", \"asteroid\",",
        );
    });
    assert_eq!(
        problems,
        [format!(
            "rules.toml: sight.blocking[0]: line 172: 'torpedo x-1' is not an object the line of sight rule names (known: {known})"
        )]
    );
    let problems = check("rules.toml", |t| {
        *t = t.replace(
            "clear = [\"ship\",",
            "clear = [\"ship\", \"nebula\\u001b\",",
        );
    });
    assert_eq!(
        problems,
        [format!(
            "rules.toml: sight.clear[1]: line 173: 'nebula\\u{{1b}}' is not an object the line of sight rule names (known: {known})"
        )]
    );
    // Moving a named object to the other list is a rule variant, not a fault.
    let problems = check("rules.toml", |t| {
        *t = t
            .replace("blocking = [\"asteroid\", ", "blocking = [")
            .replace("clear = [\"ship\",", "clear = [\"asteroid\", \"ship\",");
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The data of record sits inside every range (it loads), and the rules
/// note lists exactly the ranges the validation checks.
#[test]
fn the_rules_note_lists_the_data_ranges() {
    assert!(broadside_module_grid::ModuleGrid::load(&sources()).is_ok());
    let note = include_str!("../../../docs/rules/module-grid.md");
    let section = note
        .split("\n## Data ranges\n")
        .nth(1)
        .expect("a \"Data ranges\" section in docs/rules/module-grid.md");
    let section = section.split("\n## ").next().unwrap_or(section);
    let table: String = section
        .lines()
        .filter(|line| line.starts_with('|'))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(table, ranges_markdown(RANGES));
}

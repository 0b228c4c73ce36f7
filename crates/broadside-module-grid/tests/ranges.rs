//! Data ranges: every number of the module-grid data held to its documented range at both ends, and the rules note's table of them.

mod common;

use broadside_core::{Bound, DataRange};
use broadside_data::testing;
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

/// Writes a value into a file's text and returns the 1-based line it is on.
type Write = Box<dyn Fn(&mut String, i64) -> usize>;

/// Where a value of a range is written for a test: the file, the key the
/// problem names, and how to write the value (returning the 1-based line it
/// is written on).
struct Place {
    file: &'static str,
    key: String,
    write: Write,
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

/// `field = value` in the `nth` table headed `header`, named `key`.
fn field(file: &'static str, key: &str, header: &str, nth: usize, name: &str) -> Place {
    let (header, name) = (header.to_owned(), name.to_owned());
    Place {
        file,
        key: key.to_owned(),
        write: Box::new(move |t, v| set_field(t, &header, nth, &name, v)),
    }
}

/// A value written on an appended `test-ship` by `write`, named `key`.
fn test_ship(key: &str, write: fn(&mut String, i64) -> usize) -> Place {
    Place {
        file: "ships.toml",
        key: key.to_owned(),
        write: Box::new(write),
    }
}

/// Where each range is tested: its low end and its high end (the same
/// place but for the hull check chart, whose rows must rise, and for
/// layouts built to the size asked for).
fn places(range: &DataRange) -> (Place, Place) {
    let twice = |p: &dyn Fn() -> Place| (p(), p());
    match (range.file, range.key) {
        // A professional rolls no fewer dice than anyone: at 1, so do all.
        ("rules.toml", "skill-check.professional-dice") => (
            Place {
                file: "rules.toml",
                key: range.key.to_owned(),
                write: Box::new(|t, v| {
                    set_field(t, "[skill-check]", 0, "dice", 1);
                    set_field(t, "[skill-check]", 0, "professional-dice", v)
                }),
            },
            field(
                "rules.toml",
                range.key,
                "[skill-check]",
                0,
                "professional-dice",
            ),
        ),
        // Each mode field is tried on a mode that writes it.
        ("rules.toml", key) if key.starts_with("mode.<mode>.") => {
            let name = &key["mode.<mode>.".len()..];
            let mode = match name {
                "fixed-power" | "shots-per-turn" => "multi",
                "falloff-per-hex" => "fusion",
                _ => "long",
            };
            let key = format!("mode.{mode}.{name}");
            twice(&|| field("rules.toml", &key, &format!("[mode.{mode}]"), 0, name))
        }
        ("rules.toml", key) => {
            let (table, name) = key.split_once('.').expect("a table and a field");
            twice(&|| field("rules.toml", key, &format!("[{table}]"), 0, name))
        }
        // The chart's rows rise: the low end is tried on the first row, the
        // high end on the last.
        ("hull-checks.toml", key) => {
            let name = key.rsplit('.').next().unwrap_or(key);
            (
                field(
                    "hull-checks.toml",
                    &format!("row[0].{name}"),
                    "[[row]]",
                    0,
                    name,
                ),
                field(
                    "hull-checks.toml",
                    &format!("row[19].{name}"),
                    "[[row]]",
                    19,
                    name,
                ),
            )
        }
        ("ships.toml", "<ship>.layout (rows)") => twice(&|| {
            test_ship("test-ship.layout", |t, v| {
                append_ship(t, v, 1, "cargo-bay", 0, "1,1", "", "layout =")
            })
        }),
        ("ships.toml", "<ship>.layout[<row>] (columns)") => twice(&|| {
            test_ship("test-ship.layout[0]", |t, v| {
                append_ship(t, 1, v, "cargo-bay", 0, "1,1", "", "layout =")
            })
        }),
        // 0 modules: one empty square; 64: 8 x 8; 65: 5 x 13.
        ("ships.toml", "<ship>.layout (modules)") => twice(&|| {
            test_ship("test-ship.layout", |t, v| match v {
                0 => append_ship(t, 1, 1, "empty", 0, "1,1", "", "layout ="),
                64 => append_ship(t, 8, 8, "cargo-bay", 0, "1,1", "", "layout ="),
                65 => append_ship(t, 5, 13, "cargo-bay", 0, "1,1", "", "layout ="),
                _ => append_ship(t, 1, v, "cargo-bay", 0, "1,1", "", "layout ="),
            })
        }),
        // 16: 4 x 4 Cannons; 17: 17 of 2 x 9.
        ("ships.toml", "<ship>.layout (Cannons)") => twice(&|| {
            test_ship("test-ship.layout", |t, v| match v {
                17 => append_ship(t, 2, 9, "cargo-bay", 17, "1,1", "", "layout ="),
                _ => append_ship(t, 4, 4, "cargo-bay", v, "1,1", "", "layout ="),
            })
        }),
        // A 16 x 16 layout whose one module is its last square.
        ("ships.toml", "<ship>.centre (row, column)") => twice(&|| {
            test_ship("test-ship.centre", |t, v| match v {
                1 => append_ship(t, 1, 1, "cargo-bay", 0, "1,1", "", "centre ="),
                _ => append_ship(t, 16, 16, ".", 0, &format!("{v},16"), "", "centre ="),
            })
        }),
        ("ships.toml", "<ship>.occupants (row, column)") => twice(&|| {
            test_ship("test-ship.occupants.\"<at>\"", |t, v| match v {
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
            })
        }),
        ("ships.toml", "<ship>.occupants.\"<R,C>\"") => twice(&|| Place {
            file: "ships.toml",
            key: "scout.occupants.\"1,2\"".to_owned(),
            write: Box::new(|t, v| set_inline(t, "[scout]", "occupants", "\"1,2\"", v)),
        }),
        ("ships.toml", "<ship>.crew.<skill>") => twice(&|| Place {
            file: "ships.toml",
            key: "scout.crew.gunnery".to_owned(),
            write: Box::new(|t, v| set_inline(t, "[scout]", "crew", "gunnery", v)),
        }),
        // Every other ship number is a plain field of the scout.
        ("ships.toml", key) => {
            let name = key.strip_prefix("<ship>.").expect("a ship key");
            assert!(
                !name.contains(['(', '<', '[', '.']),
                "no test place for ships.toml {key}: add one"
            );
            twice(&|| field("ships.toml", &format!("scout.{name}"), "[scout]", 0, name))
        }
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
            let expected = refusal(range, place, &place.key, line, value);
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
    testing::assert_ranges_documented(note, "docs/rules/module-grid.md", RANGES);
}

//! Every number and dice expression of the percentile data is held to its
//! documented range at load, with its file, line, key, range and why, and
//! the rules document lists exactly the ranges the validator checks.

use broadside_core::{DataRange, SourceFile};
use broadside_data::testing::{self, Edit, RangeSite as Site};
use broadside_percentile::Percentile;
use broadside_percentile::data::{self, RANGES};

/// The embedded data files.
fn sources() -> Vec<SourceFile> {
    broadside_percentile::REGISTRATION.embedded_sources()
}

/// Loads the data of record with `edits`: `None` when it loads, otherwise
/// every problem as `file: key: message`.
fn check(edits: &[Edit]) -> Option<Vec<String>> {
    testing::problems(Percentile::load(&testing::edited(sources(), edits)))
}

/// The 1-based line of the data of record's `file` holding `from`.
fn line_of(file: &str, from: &str) -> usize {
    testing::line_of(testing::text_of(&sources(), file), from)
}

fn site(range: DataRange, key: &'static str, from: &'static str, to: &'static str) -> Site {
    Site::new(range, key, from, to)
}

fn edit(file: &'static str, from: &'static str, to: &str) -> Edit {
    (file, from, to.to_owned())
}

/// A Damage Table whose first row starts at -99: what the least DTM needs.
fn lowest_table() -> Vec<Edit> {
    vec![edit(
        "damage-table.toml",
        "rolls = [-20, 10]",
        "rolls = [-99, 10]",
    )]
}

/// A Damage Table whose last row ends at 200: what the greatest DTM or
/// fire modifier needs.
fn highest_table() -> Vec<Edit> {
    vec![edit(
        "damage-table.toml",
        "rolls = [117, 120]",
        "rolls = [117, 200]",
    )]
}

fn sites() -> Vec<Site> {
    use data::*;
    const W: &str = "weapons.toml";
    vec![
        Site {
            at_min: lowest_table(),
            at_max: highest_table(),
            ..site(DTM, "laser-cannon.dtm", "dtm = 0", "dtm = {}")
        },
        site(RANGE, "laser-cannon.range", "range = 10", "range = {}"),
        site(
            CELL_ADVANCED,
            "laser-cannon.none.advanced",
            "advanced = 75",
            "advanced = {}",
        ),
        site(
            CELL_SKILLED,
            "laser-cannon.none.skilled",
            "skilled = 60",
            "skilled = {}",
        ),
        site(
            PER_ICM,
            "assault-rocket.per-icm",
            "per-icm = -5",
            "per-icm = {}",
        ),
        // A row's start at the least, its end at the greatest.
        Site {
            loads: [true, false],
            ..site(
                ROLLS,
                "row[0].rolls",
                "rolls = [-20, 10]",
                "rolls = [{}, 10]",
            )
        },
        Site {
            at_max: vec![edit(W, "dtm = 20", "dtm = 100")],
            loads: [false, true],
            ..site(
                ROLLS,
                "row[20].rolls",
                "rolls = [117, 120]",
                "rolls = [117, {}]",
            )
        },
        site(
            MULTIPLIER,
            "row[0].effect.multiplier",
            "multiplier = 2",
            "multiplier = {}",
        ),
        Site {
            at_min: vec![edit(
                "damage-table.toml",
                "penalty = -10 }",
                "penalty = -100 }",
            )],
            at_max: vec![edit(
                "damage-table.toml",
                "penalty = -10 }",
                "penalty = 0 }",
            )],
            ..site(
                PENALTY,
                "row[16].effect.penalty",
                "penalty = -10 }",
                "penalty = {} }",
            )
        },
        site(HULL, "fighter.hull", "hull = 8", "hull = {}"),
        site(ADF, "fighter.adf", "adf = 5", "adf = {}"),
        site(MR, "fighter.mr", "mr = 5", "mr = {}"),
        site(DCR, "fighter.dcr", "dcr = 30", "dcr = {}"),
        site(
            WEAPON_COUNT,
            "fighter.weapons[0]",
            "\"assault-rocket x3\"",
            "\"assault-rocket x{}\"",
        ),
        site(
            DEFENCE_COUNT,
            "frigate.defences[2]",
            "\"icm x4\"",
            "\"icm x{}\"",
        ),
        site(
            RANGE_DIFFUSION_PER_HEX,
            "range-diffusion-per-hex",
            "range-diffusion-per-hex = -5",
            "range-diffusion-per-hex = {}",
        ),
        site(HEAD_ON, "head-on", "head-on = 10", "head-on = {}"),
        Site {
            at_max: vec![edit(
                "rules.toml",
                "always-miss-at-least = 96",
                "always-miss-at-least = 100",
            )],
            ..site(
                ALWAYS_HIT_AT_MOST,
                "always-hit-at-most",
                "always-hit-at-most = 5",
                "always-hit-at-most = {}",
            )
        },
        Site {
            at_min: vec![edit(
                "rules.toml",
                "always-hit-at-most = 5",
                "always-hit-at-most = 0",
            )],
            ..site(
                ALWAYS_MISS_AT_LEAST,
                "always-miss-at-least",
                "always-miss-at-least = 96",
                "always-miss-at-least = {}",
            )
        },
        site(
            EVASION_PER_MR,
            "evasion-per-mr",
            "evasion-per-mr = -5",
            "evasion-per-mr = {}",
        ),
        Site {
            at_max: highest_table(),
            ..site(
                FIRE_DAMAGE_MODIFIER,
                "fire-damage-modifier",
                "fire-damage-modifier = 20",
                "fire-damage-modifier = {}",
            )
        },
        Site {
            at_max: vec![edit(
                "rules.toml",
                "repair-impossible-at-least = 99",
                "repair-impossible-at-least = 100",
            )],
            ..site(
                REPAIR_ALWAYS_FAILS_AT_LEAST,
                "repair-always-fails-at-least",
                "repair-always-fails-at-least = 90",
                "repair-always-fails-at-least = {}",
            )
        },
        Site {
            at_min: vec![edit(
                "rules.toml",
                "repair-always-fails-at-least = 90",
                "repair-always-fails-at-least = 0",
            )],
            ..site(
                REPAIR_IMPOSSIBLE_AT_LEAST,
                "repair-impossible-at-least",
                "repair-impossible-at-least = 99",
                "repair-impossible-at-least = {}",
            )
        },
        site(
            REPAIR_TURN_EVERY,
            "repair-turn-every",
            "repair-turn-every = 3",
            "repair-turn-every = {}",
        ),
    ]
}

#[test]
fn the_data_of_record_is_within_every_range() {
    assert_eq!(check(&[]), None);
}

/// The least and greatest value load; one below and one above are refused
/// with one problem, in the range's own file, naming the key's line, the
/// range and why.
#[test]
fn every_number_range_holds_at_its_bounds() {
    let line = |site: &Site| format!("line {}: ", line_of(site.range.file, site.from));
    testing::check_number_ranges(RANGES, &sites(), check, line);
}

/// Reliability review, finding 3: the least i64 once got past the DTM
/// check (`abs()` overflowed) and was blamed on the Damage Table.
#[test]
fn a_dtm_at_the_integer_limits_is_refused_in_weapons_toml_alone() {
    let line = line_of("weapons.toml", "dtm = 0");
    for value in [i64::MIN, i64::MAX] {
        let problems = check(&[edit("weapons.toml", "dtm = 0", &format!("dtm = {value}"))]);
        assert_eq!(
            problems,
            Some(vec![format!(
                "weapons.toml: laser-cannon.dtm: line {line}: {value} is outside -100..=100 \
                 (a DTM moves a d100 roll along the Damage Table)"
            )])
        );
    }
}

#[test]
fn the_damage_table_ends_at_the_highest_roll() {
    // Reliability review, finding 6: a last row running to 1000000.
    let problems = check(&[edit(
        "damage-table.toml",
        "rolls = [117, 120]",
        "rolls = [117, 1000000]",
    )])
    .expect("refused");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("1000000 is outside -99..=200"))
    );
    let problems = check(&[edit(
        "damage-table.toml",
        "rolls = [117, 120]",
        "rolls = [117, 121]",
    )])
    .expect("refused");
    assert_eq!(
        problems,
        [
            "damage-table.toml: row[20].rolls: ends at 121 but no roll can pass 120 \
             (d100 plus the largest DTM or fire modifier)"
        ]
    );
}

/// Each dice key with `accepted` expressions and the ones every dice key
/// refuses, the problem naming the key's line.
fn check_dice(file: &'static str, key: &str, from: &'static str, to: &str, accepted: &[&str]) {
    let line = format!("line {}: ", line_of(file, from));
    let refused = [
        "1d6-6",
        "1d6-100",
        "10d100+1",
        "1d6+999999999",
        "1d101",
        "49d6",
    ];
    testing::check_dice_key(check, (file, key, from, to), &line, accepted, &refused);
}

#[test]
fn every_dice_expression_can_do_1_and_at_most_1000() {
    // Reliability review, finding 6: `1d6-100` hit and never did damage.
    let accepted = ["1d6-5", "10d100", "1d2", "48d20"];
    check_dice(
        "weapons.toml",
        "laser-cannon.hull-damage",
        "hull-damage = \"2d10\"",
        "hull-damage = \"{}\"",
        &accepted,
    );
    check_dice(
        "rules.toml",
        "fire-hull-damage",
        "fire-hull-damage = \"1d10\"",
        "fire-hull-damage = \"{}\"",
        &accepted,
    );
    check_dice(
        "rules.toml",
        "hull-repair",
        "hull-repair = \"1d10\"",
        "hull-repair = \"{}\"",
        &accepted,
    );
    let problems = check(&[edit(
        "weapons.toml",
        "hull-damage = \"2d10\"",
        "hull-damage = \"1d6-100\"",
    )]);
    assert_eq!(
        problems,
        Some(vec![format!(
            "weapons.toml: laser-cannon.hull-damage: line {}: '1d6-100' can total at most -94: \
             its highest total must be in 1..=1000 ({})",
            line_of("weapons.toml", "hull-damage = \"2d10\""),
            data::HULL_DAMAGE.why
        )])
    );
}

/// The rules document's "Data ranges" table is the validator's table.
#[test]
fn the_rules_document_lists_the_validated_ranges() {
    let doc = include_str!("../../../docs/rules/percentile.md");
    testing::assert_ranges_documented(doc, "docs/rules/percentile.md", RANGES);
}

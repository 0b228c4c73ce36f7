//! The documented data ranges: every range is checked at its bounds through the loader, and the rules note lists exactly the ranges the validator checks.

mod common;

use broadside_core::{Bound, DataRange};
use broadside_crew_2d6::data::{self, RANGES};
use broadside_data::testing;
use common::{edited, sources};

/// Where a range's value is set in the data of record: the file, the key a
/// message names, the text there and the same text with `{}` for the value.
struct Site {
    range: DataRange,
    key: &'static str,
    from: &'static str,
    to: &'static str,
}

const fn site(range: DataRange, key: &'static str, from: &'static str, to: &'static str) -> Site {
    Site {
        range,
        key,
        from,
        to,
    }
}

/// One site for every range of the table.
const SITES: &[Site] = &[
    site(
        data::UNSKILLED,
        "unskilled",
        "unskilled = -3",
        "unskilled = {}",
    ),
    site(
        data::DIFFICULTY,
        "difficulty.average",
        "average = 8",
        "average = {}",
    ),
    site(
        data::CHARACTERISTIC_FROM_TO,
        "characteristic-dm[6].from",
        "from = 15\ndm = 3",
        "from = {}\ndm = 3",
    ),
    site(
        data::CHARACTERISTIC_DM,
        "characteristic-dm[6].dm",
        "from = 15\ndm = 3",
        "from = 15\ndm = {}",
    ),
    site(
        data::CHAIN_FROM_TO,
        "chain.row[0].to",
        "to = -6\ndm = -3",
        "to = {}\ndm = -3",
    ),
    site(
        data::CHAIN_DM,
        "chain.row[0].dm",
        "to = -6\ndm = -3",
        "to = -6\ndm = {}",
    ),
    site(
        data::REACTIONS_FROM_TO,
        "reactions[3].from",
        "from = 13\ncount = 4",
        "from = {}\ncount = 4",
    ),
    site(
        data::REACTIONS_COUNT,
        "reactions[3].count",
        "from = 13\ncount = 4",
        "from = 13\ncount = {}",
    ),
    site(
        data::TASK_THRUST,
        "task.boarding.thrust",
        "thrust = 1",
        "thrust = {}",
    ),
    site(
        data::BAND_ATTACK_DM,
        "band[6].attack-dm",
        "attack-dm = -6",
        "attack-dm = {}",
    ),
    site(
        data::BAND_THRUST,
        "band[6].thrust",
        "thrust = 50",
        "thrust = {}",
    ),
    site(
        data::BAND_MISSILE_FLIGHT,
        "band[6].missile-flight",
        "missile-flight = 10",
        "missile-flight = {}",
    ),
    site(
        data::WEAPON_TL,
        "weapon.beam-laser.tl",
        "tl = 10",
        "tl = {}",
    ),
    site(
        data::WEAPON_DAMAGE,
        "weapon.beam-laser.damage",
        "damage = \"1d6\"",
        "damage = \"{}\"",
    ),
    site(
        data::WEAPON_ATTACK_DM,
        "weapon.beam-laser.attack-dm",
        "attack-dm = 4",
        "attack-dm = {}",
    ),
    site(data::WEAPON_AP, "weapon.railgun.ap", "ap = 4", "ap = {}"),
    site(
        data::WEAPON_MAGAZINE,
        "weapon.missile-rack.magazine",
        "magazine = 12",
        "magazine = {}",
    ),
    site(
        data::MOUNT_CAPACITY,
        "mount.turret.capacity",
        "capacity = 3",
        "capacity = {}",
    ),
    site(
        data::MOUNT_MULTIPLIER,
        "mount.large-bay.multiplier",
        "multiplier = 100",
        "multiplier = {}",
    ),
    site(
        data::IDENTICAL_ATTACK_DM,
        "identical.attack-dm[2]",
        "attack-dm = [0, 0, 0]",
        "attack-dm = [0, 0, {}]",
    ),
    site(
        data::IDENTICAL_POINT_DEFENCE_DM,
        "identical.point-defence-dm[2]",
        "point-defence-dm = [0, 1, 2]",
        "point-defence-dm = [0, 1, {}]",
    ),
    site(
        data::IDENTICAL_DAMAGE_PER_DIE,
        "identical.damage-per-die[2]",
        "damage-per-die = [0, 1, 2]",
        "damage-per-die = [0, 1, {}]",
    ),
    site(
        data::CRITICAL_EFFECT,
        "effect",
        "effect = 6 ",
        "effect = {} ",
    ),
    site(
        data::DAMAGE_PER_SEVERITY,
        "damage-per-severity",
        "damage-per-severity = 10",
        "damage-per-severity = {}",
    ),
    site(
        data::MAX_SEVERITY,
        "max-severity",
        "max-severity = 6",
        "max-severity = {}",
    ),
    site(
        data::SUSTAINED_PERCENT,
        "sustained-percent",
        "sustained-percent = 10",
        "sustained-percent = {}",
    ),
    site(
        data::REPAIR_DM_PER_SEVERITY,
        "repair-dm-per-severity",
        "repair-dm-per-severity = -1",
        "repair-dm-per-severity = {}",
    ),
    site(
        data::LOCATION_ROLL,
        "location[0].roll",
        "roll = 2\n",
        "roll = {}\n",
    ),
    site(
        data::SEVERITY_CHECK_DM,
        "location[0].severity[0].check-dm",
        "check-dm = -2, checks = \"sensors\"",
        "check-dm = {}, checks = \"sensors\"",
    ),
    site(
        data::SEVERITY_THRUST,
        "location[1].severity[0].thrust",
        "thrust = -1 }",
        "thrust = {} }",
    ),
    site(
        data::SEVERITY_HULL_DAMAGE,
        "location[5].severity[0].hull-damage",
        "hull-damage = \"1d6\"",
        "hull-damage = \"{}\"",
    ),
    site(
        data::SEVERITY_ARMOUR_LOSS,
        "location[4].severity[0].armour-loss",
        "armour-loss = \"1\"",
        "armour-loss = \"{}\"",
    ),
    site(
        data::SEVERITY_ARMOUR_LOSS_DICE,
        "location[4].severity[1].armour-loss",
        "armour-loss = \"1d3\"",
        "armour-loss = \"{}\"",
    ),
    site(
        data::SEVERITY_HULL_SEVERITY,
        "location[1].severity[4].hull-severity",
        "hull-severity = 1",
        "hull-severity = {}",
    ),
    site(
        data::NEAR_OBJECT_FROM_TO,
        "setup.near-object[1].to",
        "{ from = 3, to = 6, band = \"long\" }",
        "{ from = 3, to = {}, band = \"long\" }",
    ),
    site(data::BURN, "initiative.burn", "burn = -2", "burn = {}"),
    site(data::AIM_DM, "aim.dm", "dm = 2\n", "dm = {}\n"),
    site(data::AIM_MAX, "aim.max", "max = 3", "max = {}"),
    site(
        data::OVERCHARGE_MAX_MULTIPLE,
        "overcharge.max-multiple",
        "max-multiple = 2",
        "max-multiple = {}",
    ),
    site(
        data::OVERCHARGE_ONE_HIT_AT,
        "overcharge.one-hit-at",
        "one-hit-at = -4",
        "one-hit-at = {}",
    ),
    site(
        data::OVERCHARGE_TWO_HITS_AT,
        "overcharge.two-hits-at",
        "two-hits-at = -6",
        "two-hits-at = {}",
    ),
    site(
        data::PER_EXTRA_MISSILE,
        "missiles.per-extra-missile",
        "per-extra-missile = 1",
        "per-extra-missile = {}",
    ),
    site(
        data::TL_DM_MIN,
        "missiles.tl-dm-min",
        "tl-dm-min = 1",
        "tl-dm-min = {}",
    ),
    site(
        data::TL_DM_MAX,
        "missiles.tl-dm-max",
        "tl-dm-max = 6",
        "tl-dm-max = {}",
    ),
    site(
        data::ZERO_EFFECT_MULTIPLIER,
        "missiles.zero-effect-multiplier",
        "zero-effect-multiplier = 0",
        "zero-effect-multiplier = {}",
    ),
    site(
        data::SAND_REDUCTION,
        "sand.reduction",
        "reduction = \"1d6\"",
        "reduction = \"{}\"",
    ),
    site(data::SHIP_TONS, "scout.tons", "tons = 100", "tons = {}"),
    site(data::SHIP_TL, "scout.tl", "tl = 12", "tl = {}"),
    site(data::SHIP_HULL, "scout.hull", "hull = 40", "hull = {}"),
    site(
        data::SHIP_ARMOUR,
        "scout.armour",
        "armour = 2",
        "armour = {}",
    ),
    site(
        data::SHIP_THRUST,
        "scout.thrust",
        "thrust = 2",
        "thrust = {}",
    ),
    site(data::SHIP_JUMP, "scout.jump", "jump = 2", "jump = {}"),
    site(
        data::SHIP_SENSORS_DM,
        "scout.sensors-dm",
        "sensors-dm = 0",
        "sensors-dm = {}",
    ),
    site(
        data::CREW_SKILL,
        "scout.crew[0].skills.pilot",
        "{ pilot = 2,",
        "{ pilot = {},",
    ),
    site(
        data::CREW_CHARACTERISTIC,
        "scout.crew[0].characteristics.dex",
        "dex = 9,",
        "dex = {},",
    ),
];

/// Loads the data of record with one site's value set to `value` and
/// returns the range problems reported for the site's key: none when the
/// value is accepted. Other problems a value at a bound sets off (a table
/// that no longer reaches its end) are not the range's, so they are left
/// out.
fn check(site: &Site, value: &str) -> Vec<String> {
    let files = edited(
        &sources(),
        site.range.file,
        site.from,
        &site.to.replacen("{}", value, 1),
    );
    match broadside_crew_2d6::Crew2d6::load(&files) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .0
            .iter()
            .map(ToString::to_string)
            .filter(|e| {
                e.starts_with(&format!("{}: {}: ", site.range.file, site.key))
                    && e.contains(site.range.why)
            })
            .collect(),
    }
}

/// Asserts that `value` is refused at the site with the range in the
/// message, and a line number when the key can be found.
fn check_refused(site: &Site, value: &str, expected: &str) {
    let problems = check(site, value);
    assert!(
        problems.iter().any(|p| p.contains(expected)),
        "{} = {value}: expected a problem with {expected:?}, got {problems:?}",
        site.key
    );
}

#[test]
fn every_range_has_a_site_and_every_site_a_range() {
    let named: Vec<DataRange> = SITES.iter().map(|s| s.range).collect();
    assert_eq!(named, RANGES);
}

/// The validator keeps checked numbers as `i32` (and some narrower), so
/// every bound must fit one.
#[test]
fn every_range_fits_an_i32() {
    for range in RANGES {
        let (low, high) = match range.bound {
            Bound::Number { min, max } => (min, max),
            Bound::Dice { min_high, max_high } => (min_high, max_high),
        };
        assert!(low <= high, "{}", range.key);
        assert!(
            i32::try_from(low).is_ok() && i32::try_from(high).is_ok(),
            "{}",
            range.key
        );
    }
}

#[test]
fn every_number_is_accepted_at_its_bounds_and_refused_one_past() {
    for site in SITES {
        let Bound::Number { min, max } = site.range.bound else {
            continue;
        };
        assert_eq!(
            check(site, &min.to_string()),
            Vec::<String>::new(),
            "{} = {min}",
            site.key
        );
        assert_eq!(
            check(site, &max.to_string()),
            Vec::<String>::new(),
            "{} = {max}",
            site.key
        );
        let range = format!("is outside {min}..={max}");
        check_refused(
            site,
            &(min - 1).to_string(),
            &format!("{} {range}", min - 1),
        );
        check_refused(
            site,
            &(max + 1).to_string(),
            &format!("{} {range}", max + 1),
        );
    }
}

#[test]
fn every_dice_expression_can_total_1_and_no_more_than_its_bound() {
    for site in SITES {
        let Bound::Dice { min_high, max_high } = site.range.bound else {
            continue;
        };
        // Every dice range here is 1..=100.
        assert_eq!((min_high, max_high), (1, 100), "{}", site.key);
        for accepted in ["1d6-5", "1d100", "4d6", "2d6-11"] {
            assert_eq!(
                check(site, accepted),
                Vec::<String>::new(),
                "{} = {accepted}",
                site.key
            );
        }
        for (refused, why) in [
            ("1d6-6", "can total at most 0"),
            ("1d6-100", "can total at most -94"),
            ("1d100+1", "can total at most 101"),
            ("1d6+999999999", "1..=100"),
            ("1d101", "at most 100 sides"),
            ("0d6", ""),
        ] {
            check_refused(site, refused, why);
        }
    }
}

#[test]
fn the_extremes_of_i64_are_refused_with_the_line() {
    let at = |key: &str| SITES.iter().find(|s| s.key == key).expect(key);
    for (key, line) in [
        ("weapon.beam-laser.tl", "line 20: "),
        ("scout.hull", "line 19: "),
        ("scout.tons", "line 17: "),
        ("identical.damage-per-die[2]", "line 140: "),
        ("setup.near-object[1].to", ""),
        ("unskilled", "line 9: "),
    ] {
        for value in [i64::MIN, i64::MAX] {
            check_refused(
                at(key),
                &value.to_string(),
                &format!("{line}{value} is outside"),
            );
        }
    }
}

/// Loads the data of record with the near-object starting band table (a
/// d6 table) replaced, and returns every problem reported for it.
fn check_band_table(rows: &str) -> Vec<String> {
    let files = edited(
        &sources(),
        "rules.toml",
        "near-object = [\n  { from = 1, to = 2, band = \"medium\" },\n  { from = 3, to = 6, band = \"long\" },\n]",
        &format!("near-object = [\n{rows}\n]"),
    );
    match broadside_crew_2d6::Crew2d6::load(&files) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.0.iter().map(ToString::to_string).collect(),
    }
}

/// Finding 6 of the reliability review: the d6 table must cover 1 to 6,
/// no more, without gaps or overlaps (rules.toml; the core rules' d6 roll
/// of the starting band near an object).
#[test]
fn the_near_object_table_covers_the_d6_exactly() {
    let medium = "{ from = 1, to = 2, band = \"medium\" }";
    assert_eq!(
        check_band_table(&format!(
            "{medium},\n{{ from = 3, to = 6, band = \"long\" }}"
        )),
        Vec::<String>::new()
    );
    assert_eq!(
        check_band_table("{ from = 1, to = 6, band = \"long\" }"),
        Vec::<String>::new()
    );
    let cases: [(String, &str); 7] = [
        (
            format!("{medium},\n{{ from = 3, to = 9223372036854775807, band = \"long\" }}"),
            "rules.toml: setup.near-object[1].to: line 13: 9223372036854775807 is outside 1..=6",
        ),
        (
            "{ from = -1, to = 2, band = \"medium\" },\n{ from = 3, to = 6, band = \"long\" }"
                .into(),
            "rules.toml: setup.near-object[0].from: line 12: -1 is outside 1..=6",
        ),
        (
            format!("{medium},\n{{ from = 3, to = 7, band = \"long\" }}"),
            "rules.toml: setup.near-object[1].to: line 13: 7 is outside 1..=6",
        ),
        (
            format!("{medium},\n{{ from = 3, band = \"long\" }}"),
            "rules.toml: setup.near-object[1].to: line 13: missing: the table ends at 6",
        ),
        (
            "{ to = 2, band = \"medium\" },\n{ from = 3, to = 6, band = \"long\" }".into(),
            "rules.toml: setup.near-object[0].from: line 12: missing: the table starts at 1",
        ),
        (
            format!("{medium},\n{{ from = 4, to = 6, band = \"long\" }}"),
            "rules.toml: setup.near-object[1].from: line 13: gap: no row covers 3-3",
        ),
        (
            format!("{medium},\n{{ from = 2, to = 6, band = \"long\" }}"),
            "rules.toml: setup.near-object[1].from: line 13: 2 overlaps the row before (which ends at 2)",
        ),
    ];
    for (rows, expected) in cases {
        let problems = check_band_table(&rows);
        assert!(
            problems.iter().any(|p| p.starts_with(expected)),
            "{rows}: expected {expected:?}, got {problems:?}"
        );
    }
    let short = check_band_table(&format!(
        "{medium},\n{{ from = 3, to = 5, band = \"long\" }}"
    ));
    assert!(
        short
            .iter()
            .any(|p| p == "rules.toml: setup.near-object[1].to: line 13: the table must reach 6"),
        "{short:?}"
    );
}

/// The rules note's "Data ranges" table is the validator's table.
#[test]
fn the_rules_note_lists_the_validated_ranges() {
    let note = include_str!("../../../docs/rules/crew-2d6.md");
    testing::assert_ranges_documented(note, "docs/rules/crew-2d6.md", RANGES);
}

//! Every number and dice expression of the action-d10 data is held to its
//! documented range at load, with its file, line, key, range and why, and
//! the rules document lists exactly the ranges the validator checks.

mod common;

use broadside_action_d10::ActionD10;
use broadside_action_d10::data::{self, RANGES};
use broadside_core::{DataRange, KeyLines};
use broadside_data::TomlLines;
use broadside_data::testing::{self, Edit, RangeSite as Site};
use common::sources;

/// Loads the data of record with `edits`: `None` when it loads, otherwise
/// every problem as `file: key: message`.
fn check(edits: &[Edit]) -> Option<Vec<String>> {
    testing::problems(ActionD10::load(&testing::edited(sources(), edits)))
}

fn text_of(file: &str) -> String {
    testing::text_of(&sources(), file).to_owned()
}

/// The 1-based line of the data of record's `file` holding `from`.
fn line_of(file: &str, from: &str) -> usize {
    testing::line_of(&text_of(file), from)
}

const BOTH: [bool; 2] = [true, true];
const MIN_ONLY: [bool; 2] = [true, false];
const MAX_ONLY: [bool; 2] = [false, true];
const NEITHER: [bool; 2] = [false, false];

fn site(
    range: DataRange,
    key: &'static str,
    from: &'static str,
    to: &'static str,
    loads: [bool; 2],
) -> Site {
    Site {
        loads,
        ..Site::new(range, key, from, to)
    }
}

fn sites() -> Vec<Site> {
    use data::*;
    vec![
        site(
            BRACKET_FROM,
            "laser-turret.brackets[0][0]",
            "brackets = [[0, 2, 7]",
            "brackets = [[{}, 2, 7]",
            MIN_ONLY,
        ),
        site(
            BRACKET_TO,
            "laser-turret.brackets[2][1]",
            "[6, 8, 3]]",
            "[6, {}, 3]]",
            MAX_ONLY,
        ),
        site(
            BRACKET_TO_HIT,
            "laser-turret.brackets[0][2]",
            "brackets = [[0, 2, 7]",
            "brackets = [[0, 2, {}]",
            BOTH,
        ),
        site(
            SWARM_BRACKET,
            "rocket-pack.brackets[0][2]",
            "brackets = [[0, 2, 2]",
            "brackets = [[0, 2, {}]",
            BOTH,
        ),
        site(
            DAMAGE,
            "laser-turret.damage",
            "damage = 1\n",
            "damage = {}\n",
            BOTH,
        ),
        site(
            WARHEADS,
            "missile-launcher.warheads",
            "warheads = 1",
            "warheads = {}",
            BOTH,
        ),
        site(
            SWARM_SIZE,
            "rocket-pack.swarm-size",
            "swarm-size = 10",
            "swarm-size = {}",
            BOTH,
        ),
        site(SHOTS, "rocket-pack.shots", "shots = 1", "shots = {}", BOTH),
        site(
            SYSTEMS,
            "gunboat.systems.crew-deck",
            "crew-deck = 1, power-plant",
            "crew-deck = {}, power-plant",
            BOTH,
        ),
        site(
            SINGLE_SYSTEM,
            "gunboat.systems.power-plant",
            "power-plant = 1",
            "power-plant = {}",
            MAX_ONLY,
        ),
        site(TROOPS, "gunboat.troops", "troops = 0", "troops = {}", BOTH),
        site(
            MOUNT_COUNT,
            "gunboat.weapons[0].count",
            "{ weapon = \"heavy-laser\" },",
            "{ weapon = \"heavy-laser\", count = {} },",
            // 16 mounts of one weapon and the gunboat's others pass 16.
            MIN_ONLY,
        ),
        site(
            MOUNT_BANK,
            "gunboat.weapons[0].bank",
            "{ weapon = \"heavy-laser\" },",
            "{ weapon = \"heavy-laser\", bank = {} },",
            BOTH,
        ),
        site(FCS, "escort.fcs", "fcs = 1", "fcs = {}", BOTH),
        site(
            COMMAND_POINTS,
            "gunboat.command-points",
            "command-points = 0",
            "command-points = {}",
            MIN_ONLY,
        ),
        site(
            SHIELD_PER_EMITTER,
            "gunboat.shield-per-emitter",
            "shield-per-emitter = 0",
            "shield-per-emitter = {}",
            MIN_ONLY,
        ),
        site(
            CRAFT_COUNT,
            "carrier.small-craft.count",
            "small-craft = { count = 6,",
            "small-craft = { count = {},",
            MIN_ONLY,
        ),
        site(
            CRAFT_SPEED,
            "carrier.small-craft.speed",
            "speed = 6 }",
            "speed = {} }",
            BOTH,
        ),
        site(SIZE, "gunboat.size", "size = -1", "size = {}", BOTH),
        site(
            STEALTH,
            "gunboat.stealth",
            "stealth = 1",
            "stealth = {}",
            BOTH,
        ),
        site(
            THRUST_PER_THRUSTER,
            "gunboat.thrust-per-thruster",
            "thrust-per-thruster = 2",
            "thrust-per-thruster = {}",
            BOTH,
        ),
        site(REMASS, "gunboat.remass", "remass = 12", "remass = {}", BOTH),
        site(CARGO, "gunboat.cargo", "cargo = 0", "cargo = {}", BOTH),
        site(
            SHIP_WARHEADS,
            "gunboat.warheads",
            "warheads = 0",
            "warheads = {}",
            BOTH,
        ),
        site(
            CHAFF_PODS,
            "gunboat.chaff-pods",
            "chaff-pods = 1",
            "chaff-pods = {}",
            BOTH,
        ),
        site(
            ANTIMATTER_SPREADS,
            "destroyer.antimatter-spreads",
            "antimatter-spreads = 1",
            "antimatter-spreads = {}",
            BOTH,
        ),
        // A table's rows follow its die, so no other die loads unchanged.
        site(TABLE_DIE, "hangar.die", "die = 6", "die = {}", NEITHER),
        site(REPAIRS_DIE, "repairs.die", "die = 10", "die = {}", MAX_ONLY),
        site(
            REPAIRS_EASY,
            "repairs.easy",
            "easy = 7",
            "easy = {}",
            MIN_ONLY,
        ),
        site(
            REPAIRS_AVERAGE,
            "repairs.average",
            "average = 5",
            "average = {}",
            MIN_ONLY,
        ),
        site(
            REPAIRS_HARD,
            "repairs.hard",
            "hard = 4",
            "hard = {}",
            MIN_ONLY,
        ),
        site(
            REPAIRS_VERY_HARD,
            "repairs.very-hard",
            "very-hard = 2",
            "very-hard = {}",
            MIN_ONLY,
        ),
        site(
            SWARM_COLUMN,
            "swarmer-hits.columns[9]",
            "25, 40]\nrows",
            "25, {}]\nrows",
            MAX_ONLY,
        ),
        // The rows' labels must follow one another, so only the refusals.
        site(
            SWARM_ROLL,
            "swarmer-hits.rows[12].roll",
            "roll = \"12+\"",
            "roll = \"{}+\"",
            NEITHER,
        ),
        site(
            SWARM_HITS,
            "swarmer-hits.rows[12].hits[9]",
            "15, 20, 25, 40] },\n]",
            "15, 20, 25, {}] },\n]",
            MIN_ONLY,
        ),
        site(LOCK_DIE, "target-lock.die", "die = 6", "die = {}", BOTH),
        site(
            LOCK_TARGET,
            "target-lock.target",
            "target = 7",
            "target = {}",
            BOTH,
        ),
        site(
            LOCK_AUTOMATIC_BASE,
            "target-lock.automatic-base",
            "automatic-base = 2",
            "automatic-base = {}",
            BOTH,
        ),
        site(
            LOCK_RANGE_STEP,
            "target-lock.range-step",
            "range-step = 2",
            "range-step = {}",
            BOTH,
        ),
        site(
            LOCK_PER_RANGE_STEP,
            "target-lock.per-range-step",
            "per-range-step = -1",
            "per-range-step = {}",
            BOTH,
        ),
        site(
            LOCK_REACTION_DRIVE,
            "target-lock.reaction-drive",
            "reaction-drive = 2",
            "reaction-drive = {}",
            BOTH,
        ),
        site(
            LOCK_MULTIPLE_ENEMIES,
            "target-lock.multiple-enemies",
            "multiple-enemies = 1",
            "multiple-enemies = {}",
            BOTH,
        ),
        site(
            LOCK_NEARBY_REACTIONLESS_SAME_HEX,
            "target-lock.nearby-reactionless-same-hex",
            "nearby-reactionless-same-hex = -1",
            "nearby-reactionless-same-hex = {}",
            BOTH,
        ),
        site(
            LOCK_NEARBY_REACTION_SAME_HEX,
            "target-lock.nearby-reaction-same-hex",
            "nearby-reaction-same-hex = -2",
            "nearby-reaction-same-hex = {}",
            BOTH,
        ),
        site(
            LOCK_NEARBY_REACTION_ADJACENT,
            "target-lock.nearby-reaction-adjacent",
            "nearby-reaction-adjacent = -1",
            "nearby-reaction-adjacent = {}",
            BOTH,
        ),
        site(
            LOCK_CHAFF,
            "target-lock.chaff",
            "chaff = -2",
            "chaff = {}",
            BOTH,
        ),
        site(
            NATURAL_MISS,
            "to-hit.natural-miss",
            "natural-miss = 10",
            "natural-miss = {}",
            BOTH,
        ),
        site(
            THRUSTING_PER_HEX,
            "to-hit.thrusting-per-hex",
            "thrusting-per-hex = -1",
            "thrusting-per-hex = {}",
            BOTH,
        ),
        site(
            WARHEAD,
            "to-hit.warhead",
            "warhead = -3",
            "warhead = {}",
            BOTH,
        ),
        site(AIM, "to-hit.aim", "aim = 1", "aim = {}", BOTH),
        site(
            CHAFF_AGAINST_SEEKERS,
            "to-hit.chaff-against-seekers",
            "chaff-against-seekers = -2",
            "chaff-against-seekers = {}",
            BOTH,
        ),
        site(
            SMALL_CRAFT_SIZE,
            "to-hit.small-craft-size",
            "small-craft-size = -2",
            "small-craft-size = {}",
            BOTH,
        ),
        // The Surface Features table's rows follow the aft bonus.
        site(
            AFT_SURFACE_FEATURES,
            "damage.aft-surface-features",
            "aft-surface-features = 2",
            "aft-surface-features = {}",
            NEITHER,
        ),
        site(
            CORE_HIT_ACTIONS,
            "damage.core-hit-actions",
            "core-hit-actions = 2",
            "core-hit-actions = {}",
            BOTH,
        ),
        site(
            EXTRA_ACTIONS,
            "command.extra-actions",
            "extra-actions = 1",
            "extra-actions = {}",
            BOTH,
        ),
        site(
            EXTRA_ACTION_COST,
            "command.extra-action-cost",
            "extra-action-cost = 1",
            "extra-action-cost = {}",
            BOTH,
        ),
        site(
            REROLL_COST,
            "command.reroll-cost",
            "reroll-cost = 1",
            "reroll-cost = {}",
            BOTH,
        ),
        site(
            WITHOUT_CATAPULT,
            "launch.without-catapult",
            "without-catapult = 4",
            "without-catapult = {}",
            BOTH,
        ),
        site(BOARDING_HIT, "boarding.hit", "hit = 5", "hit = {}", BOTH),
        site(
            SUPPORT_BONUS,
            "boarding.support-bonus",
            "support-bonus = 1",
            "support-bonus = {}",
            BOTH,
        ),
        site(
            TRANSPORTER_RANGE,
            "boarding.transporter-range",
            "transporter-range = 1",
            "transporter-range = {}",
            BOTH,
        ),
        site(
            TRANSPORT_PER_ACTION,
            "boarding.transport-per-action",
            "transport-per-action = 1",
            "transport-per-action = {}",
            BOTH,
        ),
        site(
            COORDINATE_RANGE,
            "coordinate-fire-control.range",
            "range = 6",
            "range = {}",
            BOTH,
        ),
        site(
            ANTIMATTER_KILL,
            "antimatter-spread.kill",
            "kill = 7",
            "kill = {}",
            BOTH,
        ),
        site(
            INITIATIVE_DIE,
            "initiative.die",
            "die = 10",
            "die = {}",
            BOTH,
        ),
        site(GRAVITY_PULL, "gravity.pull", "pull = 1", "pull = {}", BOTH),
        site(GRAVITY_WELL, "gravity.well", "well = 1", "well = {}", BOTH),
        site(
            CREW_DECK_LOST,
            "repair.crew-deck-lost",
            "crew-deck-lost = -1",
            "crew-deck-lost = {}",
            BOTH,
        ),
    ]
}

#[test]
fn the_data_of_record_is_within_every_range() {
    assert_eq!(check(&[]), None);
}

/// The bounds that may load do; one below the least and one above the
/// greatest are refused in the range's own file, naming the key, its line
/// when it can be found, the range and why.
#[test]
fn every_number_range_holds_at_its_bounds() {
    let line = |site: &Site| {
        TomlLines(&text_of(site.range.file))
            .line_of(site.key)
            .map(|line| format!("line {line}: "))
            .unwrap_or_default()
    };
    testing::check_number_ranges(RANGES, &sites(), check, line);
}

#[test]
fn a_key_in_its_own_table_is_reported_at_its_line() {
    let problems = check(&[("ships.toml", "size = -1", format!("size = {}", i64::MIN))]);
    assert_eq!(
        problems,
        Some(vec![format!(
            "ships.toml: gunboat.size: line {}: {} is outside -5..=5 (the size modifier to hit the ship)",
            line_of("ships.toml", "size = -1"),
            i64::MIN
        )])
    );
}

/// A dice key: `accepted` expressions load, and each refused one gives one
/// problem naming the key's line.
fn check_dice(
    file: &'static str,
    key: &str,
    from: &'static str,
    to: &str,
    accepted: &[&str],
    refused: &[&str],
) {
    let line = TomlLines(&text_of(file))
        .line_of(key)
        .map(|line| format!("line {line}: "))
        .unwrap_or_default();
    testing::check_dice_key(check, (file, key, from, to), &line, accepted, refused);
}

#[test]
fn every_dice_expression_can_do_1_and_no_more_than_its_bound() {
    // Reliability review, finding 6: `1d6-100` was accepted everywhere.
    let always_refused = ["1d6-6", "1d6-100", "1d6+999999999", "1d101", "49d6"];
    check_dice(
        "weapons.toml",
        "spinal-railgun.damage",
        "damage = \"1d6+1\"",
        "damage = \"{}\"",
        &["1d6-5", "8d8", "1d2"],
        &[&always_refused[..], &["8d8+1"]].concat(),
    );
    for (key, from) in [
        ("damage.containment-cargo", "containment-cargo = \"1d10\""),
        (
            "damage.containment-breach-cargo",
            "containment-breach-cargo = \"1d10\"",
        ),
        ("damage.remass-burns", "remass-burns = \"1d6-3\""),
        ("damage.remass-bleed", "remass-bleed = \"1d6\""),
        ("damage.magazine-warheads", "magazine-warheads = \"1d6-1\""),
    ] {
        let name = key.trim_start_matches("damage.");
        check_dice(
            "rules.toml",
            key,
            from,
            &format!("{name} = \"{{}}\""),
            &["1d6-5", "10d100"],
            &[&always_refused[..], &["10d100+1"]].concat(),
        );
    }
    // A sub-table row's count is in an inline array: no line is given.
    check_dice(
        "tables.toml",
        "hangar.rows[4].count",
        "count = \"1d6\"",
        "count = \"{}\"",
        &["1d6-5", "5d10"],
        &[&always_refused[..], &["5d10+1"]].concat(),
    );
}

/// The rules document's "Data ranges" table is the validator's table.
#[test]
fn the_rules_document_lists_the_validated_ranges() {
    let doc = include_str!("../../../docs/rules/action-d10.md");
    testing::assert_ranges_documented(doc, "docs/rules/action-d10.md", RANGES);
}

//! Reading the ruleset's TOML files and validating them into [`Rules`].
//!
//! The raw types mirror the files exactly (unknown keys are errors); the
//! validation step turns them into domain types and reports every problem it
//! finds, each with its file and key, rather than stopping at the first: an
//! unknown module type in a layout, a ragged grid, a centre mark off the
//! ship, a hull check chart out of order, a number out of range.

use std::collections::BTreeMap;

use broadside_core::{DataErrors, DataProblems, DataRange, KeyLines, SourceFile};
use broadside_data::{Sources, TomlLines, unknown};
use serde::Deserialize;

use crate::model::{
    ClassId, Constants, Crew, Function, HullRow, MAX_MODULES, MAX_SIDE, Mode, ModeRule, Module,
    ModuleIx, ModuleType, ObjectKind, Rules, ShipClass, ShipSide, SideSet, Skill, Square, TypeId,
};
use crate::ship::MAX_CANNONS;

/// The mark of a square outside the silhouette in a layout.
pub const EMPTY_SQUARE: &str = ".";

/// Why a difficulty may be from -50 to 50: a check totals its kept dice
/// (at most three: 1 to 18) and a skill of -5 to 20, so a difficulty past
/// either bound is already one every roll makes or every roll misses.
const WHY_DIFFICULTY: &str = "a check totals its kept dice (at most three: 1 to 18) and a skill of -5 to 20: past ±50 every roll makes it or every roll misses";

/// Skill check dice (rules.toml `skill-check.dice`).
pub const SKILL_DICE: DataRange = DataRange::number(
    "rules.toml",
    "skill-check.dice",
    1,
    3,
    "a skill check rolls two dice; at most three, so a professional's extra die stays within the four dice the default tactics' odds cover",
);
/// Dice a professional rolls, keeping the best of them.
pub const PROFESSIONAL_DICE: DataRange = DataRange::number(
    "rules.toml",
    "skill-check.professional-dice",
    1,
    4,
    "a professional rolls three dice and keeps the best two; at most four, the most the default tactics' odds cover (and no fewer than `skill-check.dice`)",
);
/// The to-hit difficulty at range 0.
pub const TO_HIT_BASE: DataRange =
    DataRange::number("rules.toml", "to-hit.base", -50, 50, WHY_DIFFICULTY);
/// The to-hit difficulty added per hex.
pub const TO_HIT_PER_HEX: DataRange = DataRange::number(
    "rules.toml",
    "to-hit.per-hex",
    0,
    20,
    "difficulty added per hex of range (ruling 1: 1); at 20 a shot two hexes off can no longer hit",
);
/// The to-hit penalty per OOC level.
pub const OOC_PENALTY: DataRange = DataRange::number(
    "rules.toml",
    "to-hit.ooc-penalty",
    0,
    20,
    "subtracted from a Gunnery roll per OOC level (ruling 17: 1); at most 20, the highest skill",
);
/// Hit allocation dice.
pub const ALLOCATION_DICE: DataRange = DataRange::number(
    "rules.toml",
    "allocation.dice",
    2,
    2,
    "hit allocation rolls two dice and totals them; the allocation rules read exactly two",
);
/// The allocation total that lands on the centre line.
pub const ALLOCATION_CENTRE: DataRange = DataRange::number(
    "rules.toml",
    "allocation.centre",
    2,
    12,
    "the total that hits the centre line (7): a total two dice can show",
);
/// A Cannon mode's Guns divisor.
pub const POWER_DIVISOR: DataRange = DataRange::number(
    "rules.toml",
    "mode.<mode>.power-divisor",
    1,
    10,
    "Guns are divided by it, rounded down (Long: 2); at 10 every Guns rating of at most 20 gives power 2 or less",
);
/// A Cannon mode's power whatever the Guns.
pub const FIXED_POWER: DataRange = DataRange::number(
    "rules.toml",
    "mode.<mode>.fixed-power",
    0,
    20,
    "Multi fires at power 1 whatever the Guns; at most 20, the highest Guns rating",
);
/// A Cannon mode's range divisor.
pub const RANGE_DIVISOR: DataRange = DataRange::number(
    "rules.toml",
    "mode.<mode>.range-divisor",
    1,
    10,
    "range is divided by it, rounded up (Long: 2); at least 1",
);
/// Shots a Cannon fires a turn in a mode.
pub const SHOTS_PER_TURN: DataRange = DataRange::number(
    "rules.toml",
    "mode.<mode>.shots-per-turn",
    1,
    10,
    "shots one Cannon fires a turn (ruling 10: 2 in Multi, else 1)",
);
/// Burst power lost per hex.
pub const MODE_FALLOFF: DataRange = DataRange::number(
    "rules.toml",
    "mode.<mode>.falloff-per-hex",
    0,
    20,
    "a burst's power lost per hex (ruling 11: 1; an indirect mode loses at least 1); at 20 any burst stays in the target hex",
);
/// A die of at least this breaks the module.
pub const BREAKS_AT: DataRange = DataRange::number(
    "rules.toml",
    "module-damage.breaks-at",
    1,
    7,
    "a die of 4, 5 or 6 breaks its module; 7 means no die breaks one",
);
/// Collateral dice when the module breaks.
pub const COLLATERAL_DICE_BREAK: DataRange = DataRange::number(
    "rules.toml",
    "module-damage.collateral-dice-break",
    0,
    20,
    "two dice of collateral damage to each occupant of a module broken; reported, not rolled",
);
/// Collateral dice otherwise.
pub const COLLATERAL_DICE: DataRange = DataRange::number(
    "rules.toml",
    "module-damage.collateral-dice",
    0,
    20,
    "one die of collateral damage to each occupant when the module holds; reported, not rolled",
);
/// OOC added when a module breaks.
pub const OOC_ON_BREAK: DataRange = DataRange::number(
    "rules.toml",
    "module-damage.ooc-on-break",
    0,
    10,
    "a broken module raises OOC by one",
);
/// Broken markers a module can hold.
pub const MAX_BROKEN_MARKERS: DataRange = DataRange::number(
    "rules.toml",
    "module-damage.max-broken-markers",
    1,
    2,
    "a module can have at most two Broken markers; the second slags it",
);
/// Hull damage of a die missing the silhouette.
pub const OFF_SILHOUETTE_HULL: DataRange = DataRange::number(
    "rules.toml",
    "off-silhouette.hull-damage",
    0,
    6,
    "a die that misses the silhouette deals 1 hull damage; no more than the die shows",
);
/// A missing die of at least this raises OOC.
pub const OFF_SILHOUETTE_OOC_AT: DataRange = DataRange::number(
    "rules.toml",
    "off-silhouette.ooc-at",
    1,
    7,
    "a missing die of 4, 5 or 6 generates OOC; 7 means none does",
);
/// OOC a missing die raises.
pub const OFF_SILHOUETTE_OOC: DataRange = DataRange::number(
    "rules.toml",
    "off-silhouette.ooc",
    0,
    6,
    "OOC a missing die generates (ruling 29: 1)",
);
/// Shields lost per strike.
pub const SHIELDS_DROP: DataRange = DataRange::number(
    "rules.toml",
    "shields.drop-per-strike",
    0,
    20,
    "Shields drop by 1 each time the ship is struck; 20 empties the highest Shields",
);
/// Hull check dice.
pub const HULL_DICE: DataRange = DataRange::number(
    "rules.toml",
    "hull-check.dice",
    1,
    6,
    "a hull check rolls two dice",
);
/// Where hull checks begin.
pub const HULL_FIRST_CHECK: DataRange = DataRange::number(
    "rules.toml",
    "hull-check.first-check",
    -50,
    50,
    "hull checks begin once the check less Size reaches it (ruling 5: 1); past ±50 every hull check would be rolled or none",
);
/// Dice a Hull Stabilizer rerolls.
pub const STABILIZER_REROLLS: DataRange = DataRange::number(
    "rules.toml",
    "hull-check.stabilizer-rerolls",
    0,
    6,
    "a Hull Stabilizer rerolls one die of a hull check; no more than the most hull check dice",
);
/// Luck spent per reroll.
pub const LUCK_PER_REROLL: DataRange = DataRange::number(
    "rules.toml",
    "hull-check.luck-per-reroll",
    1,
    10,
    "Luck spent to reroll one die (ruling 30: 1); at least 1, so Luck runs out as the rules say it does",
);
/// Damage dice to all aboard an exploding ship.
pub const CREW_DAMAGE_DICE: DataRange = DataRange::number(
    "rules.toml",
    "hull-check.crew-damage-dice",
    0,
    40,
    "all aboard an exploding ship suffer 10 dice of damage; reported, not rolled",
);
/// The repair difficulty.
pub const REPAIR_DIFFICULTY: DataRange =
    DataRange::number("rules.toml", "repair.difficulty", -50, 50, WHY_DIFFICULTY);
/// The penalty for work in a slagged square.
pub const SLAGGED_PENALTY: DataRange = DataRange::number(
    "rules.toml",
    "repair.slagged-penalty",
    0,
    20,
    "actions in a slagged square are at +3 difficulty",
);
/// Explosion power lost per hex.
pub const EXPLOSION_FALLOFF: DataRange = DataRange::number(
    "rules.toml",
    "explosion.falloff-per-hex",
    1,
    20,
    "an explosion loses one power per hex of distance; at least 1, so every blast dies out",
);
/// Times a docked ship takes an explosion.
pub const DOCKED_TIMES: DataRange = DataRange::number(
    "rules.toml",
    "explosion.docked-times",
    1,
    4,
    "anything docked to an exploding ship suffers the blast twice",
);
/// A microship's survival check.
pub const MICROSHIP_SURVIVAL: DataRange = DataRange::number(
    "rules.toml",
    "explosion.microship-survival",
    -50,
    50,
    WHY_DIFFICULTY,
);
/// The teleport difficulty before Shields and distance.
pub const TELEPORT_BASE: DataRange =
    DataRange::number("rules.toml", "teleporter.base", -50, 50, WHY_DIFFICULTY);
/// Dice of a teleported bomb.
pub const BOMB_DICE: DataRange = DataRange::number(
    "rules.toml",
    "teleporter.bomb-dice",
    1,
    6,
    "a bomb does one die of hull damage",
);
/// The missile to-hit difficulty.
pub const MISSILE_DIFFICULTY: DataRange =
    DataRange::number("rules.toml", "missile.difficulty", -50, 50, WHY_DIFFICULTY);
/// Missile range.
pub const MISSILE_RANGE: DataRange = DataRange::number(
    "rules.toml",
    "missile.range",
    0,
    100,
    "hexes a missile reaches (ruling 13: 8)",
);
/// Missile power.
pub const MISSILE_POWER: DataRange = DataRange::number(
    "rules.toml",
    "missile.power",
    0,
    20,
    "a missile hits at power 3 (ruling 13); at most 20, the highest Guns rating, so its dice and the Shields' fit one roll",
);
/// Scans each working Science Bay gives a turn.
pub const SCANS_PER_SCIENCE: DataRange = DataRange::number(
    "rules.toml",
    "engagement.scans-per-science",
    0,
    6,
    "scans a working Science Bay gives a turn (ruling 20: 1)",
);
/// The OOC recovery difficulty.
pub const OOC_RECOVERY_DIFFICULTY: DataRange = DataRange::number(
    "rules.toml",
    "engagement.ooc-recovery-difficulty",
    -50,
    50,
    WHY_DIFFICULTY,
);
/// OOC removed by a recovery.
pub const OOC_RECOVERED: DataRange = DataRange::number(
    "rules.toml",
    "engagement.ooc-recovered",
    1,
    20,
    "OOC a successful recovery check removes (ruling 18: 1)",
);
/// Repair checks a ship makes a turn.
pub const REPAIRS_PER_TURN: DataRange = DataRange::number(
    "rules.toml",
    "engagement.repairs-per-turn",
    0,
    10,
    "repair checks a ship makes a turn (ruling 21: 1)",
);
/// Hull damage from which a chart row applies.
pub const CHART_DAMAGE: DataRange = DataRange::number(
    "hull-checks.toml",
    "row[<n>].damage",
    1,
    60_000,
    "hull damage from which the row applies, rising row by row (1, 3, 6 ... 210); within the 65,535 a ship's record holds",
);
/// The hull check of a chart row.
pub const CHART_CHECK: DataRange = DataRange::number(
    "hull-checks.toml",
    "row[<n>].check",
    1,
    100,
    "the row's hull check before Size, rising row by row (1 to 20); past 100 no dice here could make it",
);
/// A ship's Size.
pub const SIZE: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.size",
    1,
    20,
    "Size reduces hull checks and is the power of the ship's explosion; Size 20 cancels every check of the published chart, and a blast of 20 with Shields of 20 fits one roll",
);
/// A ship's Shields at full power.
pub const SHIELDS: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.shields",
    0,
    20,
    "the Shields level: a hit rolls power + Shields dice together, and 20 + 20 fits one roll",
);
/// A ship's Guns at full power.
pub const GUNS: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.guns",
    0,
    20,
    "the Guns power: a hit rolls power + Shields dice together, and 20 + 20 fits one roll",
);
/// A ship's Speed.
pub const SPEED: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.speed",
    0,
    20,
    "hexes a turn at most (ruling 34)",
);
/// A ship's Luck.
pub const LUCK: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.luck",
    0,
    100,
    "Luck points the crew may spend on rerolls, one a die (ruling 30)",
);
/// Missiles carried.
pub const MISSILES: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.missiles",
    0,
    100,
    "missiles carried for the Missile Bays",
);
/// Bombs carried.
pub const BOMBS: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.bombs",
    0,
    100,
    "bombs carried for the Teleporter",
);
/// Hull damage on the record sheet at the start.
pub const SHIP_HULL_DAMAGE: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.hull-damage",
    0,
    60_000,
    "hull damage already on the record sheet; within the 65,535 a ship's record holds",
);
/// Rows of a layout.
pub const LAYOUT_ROWS: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.layout (rows)",
    1,
    MAX_SIDE as i64,
    "rows of a layout, bow to stern: at least one; 16 is over twice the largest sample (7)",
);
/// Columns of a layout.
pub const LAYOUT_COLUMNS: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.layout[<row>] (columns)",
    1,
    MAX_SIDE as i64,
    "columns of a layout, port to starboard: at least one; 16 is over three times the largest sample (5)",
);
/// Modules of a layout.
pub const LAYOUT_MODULES: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.layout (modules)",
    1,
    MAX_MODULES as i64,
    "modules of a layout: at least one; a ship's state keeps one bit a module, 64 in all",
);
/// Cannons of a layout.
pub const LAYOUT_CANNONS: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.layout (Cannons)",
    0,
    MAX_CANNONS as i64,
    "Cannon modules of a layout, whose shots each turn are counted (the largest sample has 5)",
);
/// The centre mark's row and column.
pub const CENTRE_SQUARE: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.centre (row, column)",
    1,
    MAX_SIDE as i64,
    "row and column of the centre mark, from 1: a module square of the layout",
);
/// An occupied square's row and column.
pub const OCCUPANTS_SQUARE: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.occupants (row, column)",
    1,
    MAX_SIDE as i64,
    "row and column of an occupied square, from 1: a module square of the layout",
);
/// Crew standing in one module at the start.
pub const OCCUPANTS: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.occupants.\"<R,C>\"",
    0,
    20,
    "crew standing in the module at the start, each owed collateral damage dice",
);
/// A crew skill level.
pub const SKILL_LEVEL: DataRange = DataRange::number(
    "ships.toml",
    "<ship>.crew.<skill>",
    -5,
    20,
    "a skill level, added to the dice of the checks it makes",
);

/// The documented range of every number in the module-grid data, in the
/// order the rules document lists them.
pub const RANGES: &[DataRange] = &[
    SKILL_DICE,
    PROFESSIONAL_DICE,
    TO_HIT_BASE,
    TO_HIT_PER_HEX,
    OOC_PENALTY,
    ALLOCATION_DICE,
    ALLOCATION_CENTRE,
    POWER_DIVISOR,
    FIXED_POWER,
    RANGE_DIVISOR,
    SHOTS_PER_TURN,
    MODE_FALLOFF,
    BREAKS_AT,
    COLLATERAL_DICE_BREAK,
    COLLATERAL_DICE,
    OOC_ON_BREAK,
    MAX_BROKEN_MARKERS,
    OFF_SILHOUETTE_HULL,
    OFF_SILHOUETTE_OOC_AT,
    OFF_SILHOUETTE_OOC,
    SHIELDS_DROP,
    HULL_DICE,
    HULL_FIRST_CHECK,
    STABILIZER_REROLLS,
    LUCK_PER_REROLL,
    CREW_DAMAGE_DICE,
    REPAIR_DIFFICULTY,
    SLAGGED_PENALTY,
    EXPLOSION_FALLOFF,
    DOCKED_TIMES,
    MICROSHIP_SURVIVAL,
    TELEPORT_BASE,
    BOMB_DICE,
    MISSILE_DIFFICULTY,
    MISSILE_RANGE,
    MISSILE_POWER,
    SCANS_PER_SCIENCE,
    OOC_RECOVERY_DIFFICULTY,
    OOC_RECOVERED,
    REPAIRS_PER_TURN,
    CHART_DAMAGE,
    CHART_CHECK,
    SIZE,
    SHIELDS,
    GUNS,
    SPEED,
    LUCK,
    MISSILES,
    BOMBS,
    SHIP_HULL_DAMAGE,
    LAYOUT_ROWS,
    LAYOUT_COLUMNS,
    LAYOUT_MODULES,
    LAYOUT_CANNONS,
    CENTRE_SQUARE,
    OCCUPANTS_SQUARE,
    OCCUPANTS,
    SKILL_LEVEL,
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawModuleType {
    name: String,
    code: String,
    function: String,
    #[allow(
        dead_code,
        reason = "kept in the data for readers; not used by the rules"
    )]
    source: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawShip {
    name: String,
    source: String,
    size: i64,
    shields: i64,
    guns: i64,
    speed: i64,
    luck: i64,
    #[serde(default)]
    missiles: i64,
    #[serde(default)]
    bombs: i64,
    #[serde(default)]
    hull_damage: i64,
    centre: String,
    layout: Vec<Vec<String>>,
    #[serde(default)]
    occupants: BTreeMap<String, i64>,
    crew: RawCrew,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCrew {
    gunnery: i64,
    piloting: i64,
    science: i64,
    engineering: i64,
    #[serde(default)]
    professional: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHullChart {
    #[allow(
        dead_code,
        reason = "kept in the data for readers; not used by the rules"
    )]
    source: String,
    row: Vec<RawHullRow>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHullRow {
    damage: i64,
    check: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRules {
    skill_check: RawSkillCheck,
    to_hit: RawToHit,
    allocation: RawAllocation,
    mode: BTreeMap<String, RawMode>,
    module_damage: RawModuleDamage,
    off_silhouette: RawOffSilhouette,
    shields: RawShields,
    hull_check: RawHullCheck,
    repair: RawRepair,
    explosion: RawExplosion,
    teleporter: RawTeleporter,
    missile: RawMissile,
    engagement: RawEngagement,
    sight: RawSight,
}

/// Declares a raw table whose fields are all whole numbers or names, plus a
/// `source` kept for readers.
macro_rules! raw_table {
    ($name:ident { $($field:ident : $ty:ty),* $(,)? }) => {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields, rename_all = "kebab-case")]
        struct $name {
            $($field: $ty,)*
            #[allow(dead_code, reason = "kept in the data for readers; not used by the rules")]
            source: String,
        }
    };
}

raw_table!(RawSkillCheck {
    dice: i64,
    professional_dice: i64
});
raw_table!(RawToHit {
    skill: String,
    base: i64,
    per_hex: i64,
    ooc_penalty: i64
});
raw_table!(RawAllocation {
    dice: i64,
    centre: i64
});
raw_table!(RawModuleDamage {
    breaks_at: i64,
    collateral_dice_break: i64,
    collateral_dice: i64,
    ooc_on_break: i64,
    max_broken_markers: i64,
    gaps_take_dice: bool,
});
raw_table!(RawOffSilhouette {
    hull_damage: i64,
    ooc_at: i64,
    ooc: i64
});
raw_table!(RawShields {
    drop_per_strike: i64
});
raw_table!(RawHullCheck {
    dice: i64,
    first_check: i64,
    stabilizer_rerolls: i64,
    luck_per_reroll: i64,
    crew_damage_dice: i64,
});
raw_table!(RawRepair {
    skill: String,
    difficulty: i64,
    slagged_penalty: i64
});
raw_table!(RawExplosion {
    falloff_per_hex: i64,
    docked_times: i64,
    microship_survival: i64
});
raw_table!(RawTeleporter {
    skill: String,
    base: i64,
    bomb_dice: i64
});
raw_table!(RawMissile {
    skill: String,
    difficulty: i64,
    range: i64,
    power: i64
});
raw_table!(RawEngagement {
    scans_per_science: i64,
    ooc_recovery_skill: String,
    ooc_recovery_difficulty: i64,
    ooc_recovery_penalised: bool,
    ooc_recovered: i64,
    repairs_per_turn: i64,
});
raw_table!(RawSight { blocking: Vec<String>, clear: Vec<String> });

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawMode {
    #[serde(default = "one")]
    power_divisor: i64,
    #[serde(default)]
    fixed_power: Option<i64>,
    #[serde(default = "one")]
    range_divisor: i64,
    uses_guns: bool,
    shots_per_turn: i64,
    #[serde(default)]
    indirect: bool,
    #[serde(default)]
    needs: Option<String>,
    #[serde(default)]
    falloff_per_hex: i64,
    #[allow(
        dead_code,
        reason = "kept in the data for readers; not used by the rules"
    )]
    source: String,
}

fn one() -> i64 {
    1
}

/// Validates a set of files into the rules, reporting every problem found.
pub fn load(files: &[SourceFile]) -> Result<Rules, DataErrors> {
    let mut problems = DataProblems::default();
    let sources = Sources::check(
        files,
        <crate::ModuleGrid as broadside_core::kit::System>::EMBEDDED,
        "a module-grid",
        &mut problems,
    );
    let modules: Option<BTreeMap<String, RawModuleType>> =
        sources.parse("modules.toml", &mut problems);
    let ships: Option<BTreeMap<String, RawShip>> = sources.parse("ships.toml", &mut problems);
    let rules: Option<RawRules> = sources.parse("rules.toml", &mut problems);
    let chart: Option<RawHullChart> = sources.parse("hull-checks.toml", &mut problems);

    // Ships refer to module types and the chart, so cross-checks wait until
    // every file has been read: a syntax error in one file is reported
    // alone, not echoed by every reference to what it failed to define.
    let (Some(modules), Some(ships), Some(rules), Some(chart)) = (modules, ships, rules, chart)
    else {
        return Err(problems.stop());
    };
    // A file that defines nothing is one problem, not one for every name
    // the other files take from it.
    if problems.none_defined(&[
        ("modules.toml", modules.is_empty(), "module type"),
        ("ships.toml", ships.is_empty(), "ship"),
    ]) {
        return Err(problems.stop());
    }
    // The texts are searched for the line of a value out of range.
    let text = |name: &str| sources.text(name);
    let module_types = validate_module_types(modules, &mut problems);
    let (constants, modes, objects) = validate_rules(rules, text("rules.toml"), &mut problems);
    let hull_chart = validate_chart(chart, text("hull-checks.toml"), &mut problems);
    let most = Rules::most(constants.hull_dice);
    let mut validated = Rules {
        module_types,
        ships: Vec::new(),
        hull_chart,
        modes,
        objects,
        constants,
    };
    validated.ships = validate_ships(ships, text("ships.toml"), &validated, most, &mut problems);
    problems.finish(validated)
}

/// A whole number checked against its range: the value when it is within,
/// `None` (with the problem reported) when it is not.
fn within(
    problems: &mut DataProblems,
    range: &DataRange,
    text: &str,
    key: &str,
    value: i64,
) -> Option<i64> {
    let checked = problems.check(range, &TomlLines(text), key, value);
    (checked == value).then_some(checked)
}

/// `line N: ` for a key found in `text`, or nothing.
fn line_prefix(text: &str, key: &str) -> String {
    TomlLines(text)
        .line_of(key)
        .map(|line| format!("line {line}: "))
        .unwrap_or_default()
}

/// A square written "R,C" (row and column from 1), each checked against
/// `range`; `None`, with the problem reported, when it is not a square or
/// either number is out of range.
fn square(
    problems: &mut DataProblems,
    range: &DataRange,
    text: &str,
    key: &str,
    written: &str,
) -> Option<Square> {
    let numbers = written
        .split_once(',')
        .and_then(|(r, c)| Some((r.trim().parse::<i64>().ok()?, c.trim().parse::<i64>().ok()?)));
    let Some((row, col)) = numbers else {
        // Square::parse words the message for text that is no square at all.
        let message = Square::parse(written)
            .err()
            .unwrap_or_else(|| format!("'{written}' is not a square"));
        problems.push(range.file, key, message);
        return None;
    };
    let row = within(problems, range, text, key, row);
    let col = within(problems, range, text, key, col);
    // Both are within 1..=MAX_SIDE, so each fits a u8 once made 0-based.
    Some(Square {
        row: u8::try_from(row? - 1).ok()?,
        col: u8::try_from(col? - 1).ok()?,
    })
}

fn skill(problems: &mut DataProblems, file: &str, key: &str, id: &str) -> Skill {
    Skill::from_id(id).unwrap_or_else(|| {
        problems.push(
            file,
            key,
            unknown("skill", id, Skill::ALL.iter().map(|s| s.id())),
        );
        Skill::Gunnery
    })
}

fn validate_module_types(
    raw: BTreeMap<String, RawModuleType>,
    problems: &mut DataProblems,
) -> Vec<ModuleType> {
    const FILE: &str = "modules.toml";
    let mut out: Vec<ModuleType> = Vec::new();
    for (id, module) in raw {
        let function = Function::from_id(&module.function).unwrap_or_else(|| {
            problems.push(
                FILE,
                format!("{id}.function"),
                unknown(
                    "function",
                    &module.function,
                    Function::ALL.iter().map(|f| f.id()),
                ),
            );
            Function::None
        });
        if module.code.chars().count() != 2 || !module.code.chars().all(|c| c.is_ascii_graphic()) {
            problems.push(
                FILE,
                format!("{id}.code"),
                format!("'{}' should be two printable letters", module.code),
            );
        }
        if let Some(other) = out.iter().find(|t| t.code == module.code) {
            problems.push(
                FILE,
                format!("{id}.code"),
                format!("'{}' is already the code of {}", module.code, other.id),
            );
        }
        if id == EMPTY_SQUARE {
            problems.push(
                FILE,
                id.as_str(),
                "'.' marks an empty square and cannot be a module type",
            );
        }
        out.push(ModuleType {
            id,
            name: module.name,
            code: module.code,
            function,
        });
    }
    if out.is_empty() {
        problems.push(FILE, "", "no module types");
    }
    if out.len() > usize::from(TypeId::MAX) {
        problems.push(FILE, "", "too many module types");
    }
    out
}

fn validate_rules(
    raw: RawRules,
    text: &str,
    problems: &mut DataProblems,
) -> (Constants, [ModeRule; 4], Vec<ObjectKind>) {
    const FILE: &str = "rules.toml";
    // Each value is clamped into its range, so every cast below is lossless.
    let mut n = |range: &DataRange, key: &str, value: i64| {
        problems.check(range, &TomlLines(text), key, value)
    };
    let skill_dice = n(&SKILL_DICE, "skill-check.dice", raw.skill_check.dice) as u8;
    let professional_dice = n(
        &PROFESSIONAL_DICE,
        "skill-check.professional-dice",
        raw.skill_check.professional_dice,
    ) as u8;
    let allocation_dice = n(&ALLOCATION_DICE, "allocation.dice", raw.allocation.dice) as u8;
    let allocation_centre = n(
        &ALLOCATION_CENTRE,
        "allocation.centre",
        raw.allocation.centre,
    ) as i32;
    let constants = Constants {
        skill_dice,
        professional_dice,
        to_hit_skill: Skill::Gunnery,
        to_hit_base: n(&TO_HIT_BASE, "to-hit.base", raw.to_hit.base) as i32,
        to_hit_per_hex: n(&TO_HIT_PER_HEX, "to-hit.per-hex", raw.to_hit.per_hex) as i32,
        ooc_penalty: n(&OOC_PENALTY, "to-hit.ooc-penalty", raw.to_hit.ooc_penalty) as i32,
        allocation_dice,
        allocation_centre,
        breaks_at: n(
            &BREAKS_AT,
            "module-damage.breaks-at",
            raw.module_damage.breaks_at,
        ) as u32,
        collateral_dice_break: n(
            &COLLATERAL_DICE_BREAK,
            "module-damage.collateral-dice-break",
            raw.module_damage.collateral_dice_break,
        ) as u8,
        collateral_dice: n(
            &COLLATERAL_DICE,
            "module-damage.collateral-dice",
            raw.module_damage.collateral_dice,
        ) as u8,
        ooc_on_break: n(
            &OOC_ON_BREAK,
            "module-damage.ooc-on-break",
            raw.module_damage.ooc_on_break,
        ) as u8,
        max_broken_markers: n(
            &MAX_BROKEN_MARKERS,
            "module-damage.max-broken-markers",
            raw.module_damage.max_broken_markers,
        ) as u8,
        gaps_take_dice: raw.module_damage.gaps_take_dice,
        off_silhouette_hull: n(
            &OFF_SILHOUETTE_HULL,
            "off-silhouette.hull-damage",
            raw.off_silhouette.hull_damage,
        ) as u32,
        off_silhouette_ooc_at: n(
            &OFF_SILHOUETTE_OOC_AT,
            "off-silhouette.ooc-at",
            raw.off_silhouette.ooc_at,
        ) as u32,
        off_silhouette_ooc: n(
            &OFF_SILHOUETTE_OOC,
            "off-silhouette.ooc",
            raw.off_silhouette.ooc,
        ) as u8,
        shields_drop: n(
            &SHIELDS_DROP,
            "shields.drop-per-strike",
            raw.shields.drop_per_strike,
        ) as u8,
        hull_dice: n(&HULL_DICE, "hull-check.dice", raw.hull_check.dice) as u8,
        hull_first_check: n(
            &HULL_FIRST_CHECK,
            "hull-check.first-check",
            raw.hull_check.first_check,
        ) as i32,
        stabilizer_rerolls: n(
            &STABILIZER_REROLLS,
            "hull-check.stabilizer-rerolls",
            raw.hull_check.stabilizer_rerolls,
        ) as u8,
        luck_per_reroll: n(
            &LUCK_PER_REROLL,
            "hull-check.luck-per-reroll",
            raw.hull_check.luck_per_reroll,
        ) as u8,
        crew_damage_dice: n(
            &CREW_DAMAGE_DICE,
            "hull-check.crew-damage-dice",
            raw.hull_check.crew_damage_dice,
        ) as u8,
        repair_skill: Skill::Engineering,
        repair_difficulty: n(
            &REPAIR_DIFFICULTY,
            "repair.difficulty",
            raw.repair.difficulty,
        ) as i32,
        slagged_penalty: n(
            &SLAGGED_PENALTY,
            "repair.slagged-penalty",
            raw.repair.slagged_penalty,
        ) as i32,
        explosion_falloff: n(
            &EXPLOSION_FALLOFF,
            "explosion.falloff-per-hex",
            raw.explosion.falloff_per_hex,
        ) as u8,
        docked_times: n(
            &DOCKED_TIMES,
            "explosion.docked-times",
            raw.explosion.docked_times,
        ) as u8,
        microship_survival: n(
            &MICROSHIP_SURVIVAL,
            "explosion.microship-survival",
            raw.explosion.microship_survival,
        ) as i32,
        teleport_skill: Skill::Science,
        teleport_base: n(&TELEPORT_BASE, "teleporter.base", raw.teleporter.base) as i32,
        bomb_dice: n(&BOMB_DICE, "teleporter.bomb-dice", raw.teleporter.bomb_dice) as u8,
        missile_skill: Skill::Gunnery,
        missile_difficulty: n(
            &MISSILE_DIFFICULTY,
            "missile.difficulty",
            raw.missile.difficulty,
        ) as i32,
        missile_range: n(&MISSILE_RANGE, "missile.range", raw.missile.range) as u32,
        missile_power: n(&MISSILE_POWER, "missile.power", raw.missile.power) as u8,
        scans_per_science: n(
            &SCANS_PER_SCIENCE,
            "engagement.scans-per-science",
            raw.engagement.scans_per_science,
        ) as u8,
        ooc_recovery_skill: Skill::Piloting,
        ooc_recovery_difficulty: n(
            &OOC_RECOVERY_DIFFICULTY,
            "engagement.ooc-recovery-difficulty",
            raw.engagement.ooc_recovery_difficulty,
        ) as i32,
        ooc_recovery_penalised: raw.engagement.ooc_recovery_penalised,
        ooc_recovered: n(
            &OOC_RECOVERED,
            "engagement.ooc-recovered",
            raw.engagement.ooc_recovered,
        ) as u8,
        repairs_per_turn: n(
            &REPAIRS_PER_TURN,
            "engagement.repairs-per-turn",
            raw.engagement.repairs_per_turn,
        ) as u8,
    };
    let mut constants = constants;
    constants.to_hit_skill = skill(problems, FILE, "to-hit.skill", &raw.to_hit.skill);
    constants.repair_skill = skill(problems, FILE, "repair.skill", &raw.repair.skill);
    constants.teleport_skill = skill(problems, FILE, "teleporter.skill", &raw.teleporter.skill);
    constants.missile_skill = skill(problems, FILE, "missile.skill", &raw.missile.skill);
    constants.ooc_recovery_skill = skill(
        problems,
        FILE,
        "engagement.ooc-recovery-skill",
        &raw.engagement.ooc_recovery_skill,
    );
    if constants.professional_dice < constants.skill_dice {
        problems.push(
            FILE,
            "skill-check.professional-dice",
            "a professional rolls at least as many dice as anyone",
        );
    }

    let default_mode = ModeRule {
        power_divisor: 1,
        fixed_power: None,
        range_divisor: 1,
        uses_guns: true,
        shots_per_turn: 1,
        indirect: false,
        needs: None,
        falloff_per_hex: 1,
    };
    let mut modes = [default_mode; 4];
    let mut seen = [false; 4];
    for (id, mode) in &raw.mode {
        let key = |field: &str| format!("mode.{id}.{field}");
        let Some(which) = Mode::from_id(id) else {
            problems.push(
                FILE,
                format!("mode.{id}"),
                format!("unknown Cannon mode (known: {})", Mode::IDS.join(", ")),
            );
            continue;
        };
        seen[which.index()] = true;
        let needs = mode.needs.as_deref().and_then(|f| {
            let function = Function::from_id(f);
            if function.is_none() {
                problems.push(FILE, key("needs"), format!("unknown module function '{f}'"));
            }
            function
        });
        let mut n = |range: &DataRange, field: &str, value: i64| {
            problems.check(range, &TomlLines(text), &key(field), value) as u8
        };
        let fixed_power = mode.fixed_power.map(|p| n(&FIXED_POWER, "fixed-power", p));
        let power_divisor = n(&POWER_DIVISOR, "power-divisor", mode.power_divisor);
        let range_divisor = n(&RANGE_DIVISOR, "range-divisor", mode.range_divisor);
        let shots_per_turn = n(&SHOTS_PER_TURN, "shots-per-turn", mode.shots_per_turn);
        // An indirect mode's burst loses at least one power a hex, so it
        // dies out (the value is checked as written first).
        let falloff_per_hex =
            n(&MODE_FALLOFF, "falloff-per-hex", mode.falloff_per_hex).max(u8::from(mode.indirect));
        modes[which.index()] = ModeRule {
            power_divisor,
            fixed_power,
            range_divisor,
            uses_guns: mode.uses_guns,
            shots_per_turn,
            indirect: mode.indirect,
            needs,
            falloff_per_hex,
        };
    }
    for mode in Mode::ALL {
        if !seen[mode.index()] {
            problems.push(
                FILE,
                format!("mode.{}", mode.id()),
                "missing: every Cannon mode needs an entry",
            );
        }
    }

    let mut objects: Vec<ObjectKind> = Vec::new();
    for (list, blocks) in [(&raw.sight.blocking, true), (&raw.sight.clear, false)] {
        for (i, id) in list.iter().enumerate() {
            let key = format!("sight.{}[{i}]", if blocks { "blocking" } else { "clear" });
            if !ObjectKind::NAMED.contains(&id.as_str()) {
                let line = line_prefix(text, &key);
                problems.push(
                    FILE,
                    key,
                    format!(
                        "{line}'{}' is not an object the line of sight rule names (known: {})",
                        id.escape_debug(),
                        ObjectKind::NAMED.join(", ")
                    ),
                );
                continue;
            }
            if objects.iter().any(|o| &o.id == id) {
                problems.push(FILE, key, format!("'{id}' is listed twice"));
                continue;
            }
            objects.push(ObjectKind {
                id: id.clone(),
                blocks,
            });
        }
    }
    if !objects.iter().any(|o| o.id == "ship") {
        problems.push(
            FILE,
            "sight.clear",
            "'ship' must be listed: ships never block line of sight in these rules",
        );
    }
    (constants, modes, objects)
}

fn validate_chart(raw: RawHullChart, text: &str, problems: &mut DataProblems) -> Vec<HullRow> {
    const FILE: &str = "hull-checks.toml";
    let mut rows: Vec<HullRow> = Vec::new();
    for (i, row) in raw.row.iter().enumerate() {
        let damage_key = format!("row[{i}].damage");
        let check_key = format!("row[{i}].check");
        // Each value is clamped into its range, so the casts are lossless.
        let damage = problems.check(&CHART_DAMAGE, &TomlLines(text), &damage_key, row.damage);
        let check = problems.check(&CHART_CHECK, &TomlLines(text), &check_key, row.check);
        // A value out of range is reported once, not again as out of order.
        if let Some(before) = rows.last() {
            if damage == row.damage && damage <= i64::from(before.damage) {
                problems.push(
                    FILE,
                    damage_key,
                    format!(
                        "{damage} does not rise above the row before ({})",
                        before.damage
                    ),
                );
            }
            if check == row.check && check <= i64::from(before.check) {
                problems.push(
                    FILE,
                    check_key,
                    format!(
                        "{check} does not rise above the row before ({})",
                        before.check
                    ),
                );
            }
        }
        rows.push(HullRow {
            damage: damage as u16,
            check: check as u8,
        });
    }
    if rows.is_empty() {
        problems.push(FILE, "row", "the chart has no rows");
    }
    rows
}

fn validate_ships(
    raw: BTreeMap<String, RawShip>,
    text: &str,
    rules: &Rules,
    most: i32,
    problems: &mut DataProblems,
) -> Vec<ShipClass> {
    const FILE: &str = "ships.toml";
    let mut out = Vec::new();
    for (id, ship) in raw {
        let key = |field: &str| format!("{id}.{field}");
        // Each value is clamped into its range, so every cast is lossless.
        let mut n = |range: &DataRange, field: &str, value: i64| {
            problems.check(range, &TomlLines(text), &key(field), value)
        };
        let size = n(&SIZE, "size", ship.size) as u8;
        let shields = n(&SHIELDS, "shields", ship.shields) as u8;
        let guns = n(&GUNS, "guns", ship.guns) as u8;
        let speed = n(&SPEED, "speed", ship.speed) as u8;
        let luck = n(&LUCK, "luck", ship.luck) as u8;
        let missiles = n(&MISSILES, "missiles", ship.missiles) as u8;
        let bombs = n(&BOMBS, "bombs", ship.bombs) as u8;
        let hull_damage = n(&SHIP_HULL_DAMAGE, "hull-damage", ship.hull_damage) as u16;

        let (rows, cols, cells, modules, sound) =
            validate_layout(&id, &ship.layout, text, rules, problems);
        let mut class = ShipClass {
            id: id.clone(),
            name: ship.name,
            source: ship.source,
            size,
            shields,
            guns,
            speed,
            luck,
            missiles,
            bombs,
            hull_damage,
            rows,
            cols,
            cells,
            modules,
            centre: Square { row: 0, col: 0 },
            crew: Crew::default(),
            by_function: [0; Function::ALL.len()],
            hull: 0,
        };

        match square(problems, &CENTRE_SQUARE, text, &key("centre"), &ship.centre) {
            None => {}
            Some(square) if class.module_at(square).is_none() && sound => problems.push(
                FILE,
                key("centre"),
                format!("{square} is not a module square of the layout"),
            ),
            Some(square) => class.centre = square,
        }
        for (at, &count) in &ship.occupants {
            let okey = format!("{id}.occupants.\"{at}\"");
            let count = problems.check(&OCCUPANTS, &TomlLines(text), &okey, count) as u8;
            match square(problems, &OCCUPANTS_SQUARE, text, &okey, at) {
                None => {}
                // A layout already reported as broken would echo its own
                // problem here; squares are checked against sound layouts only.
                Some(_) if !sound => {}
                Some(square) => match class.module_at(square) {
                    None => problems.push(
                        FILE,
                        okey,
                        format!("{square} is not a module square of the layout"),
                    ),
                    Some(m) => class.modules[usize::from(m)].occupants = count,
                },
            }
        }
        let crew = &ship.crew;
        let mut levels = [0i8; 4];
        for (skill, value) in [
            (Skill::Gunnery, crew.gunnery),
            (Skill::Piloting, crew.piloting),
            (Skill::Science, crew.science),
            (Skill::Engineering, crew.engineering),
        ] {
            let crew_key = format!("{id}.crew.{}", skill.id());
            levels[skill as usize] =
                problems.check(&SKILL_LEVEL, &TomlLines(text), &crew_key, value) as i8;
        }
        let mut professional = [false; 4];
        for (i, name) in crew.professional.iter().enumerate() {
            let s = skill(
                problems,
                FILE,
                &format!("{id}.crew.professional[{i}]"),
                name,
            );
            professional[s as usize] = true;
        }
        class.crew = Crew {
            levels,
            professional,
        };
        for (ix, module) in class.modules.iter().enumerate() {
            let function = rules.module_types[usize::from(module.kind)].function;
            class.by_function[function.index()] |= 1 << ix;
        }
        let cannons = class.modules_of(Function::Cannon).count_ones();
        problems.check(
            &LAYOUT_CANNONS,
            &TomlLines(text),
            &key("layout"),
            i64::from(cannons),
        );
        class.hull = effective_hull(rules, size, most);
        out.push(class);
    }
    if out.is_empty() {
        problems.push(FILE, "", "no ships");
    }
    if out.len() > usize::from(ClassId::MAX) {
        problems.push(FILE, "", "too many ships");
    }
    out
}

/// The hull damage from which no hull check can be passed: the first chart
/// row whose check, less Size, is above the most the hull dice can show;
/// the last row's damage when even that row's check can be made.
fn effective_hull(rules: &Rules, size: u8, most: i32) -> u16 {
    rules
        .hull_chart
        .iter()
        .find(|row| i32::from(row.check) - i32::from(size) > most)
        .or(rules.hull_chart.last())
        .map_or(0, |row| row.damage)
}

/// A layout read from the data: rows, columns, the module in each square,
/// the modules, and whether it was sound (no problem reported).
type Layout = (u8, u8, Vec<Option<ModuleIx>>, Vec<Module>, bool);

/// Reads a layout: its size, the module in each square and the modules,
/// reporting a ragged grid, unknown module types and layouts too large.
fn validate_layout(
    id: &str,
    layout: &[Vec<String>],
    text: &str,
    rules: &Rules,
    problems: &mut DataProblems,
) -> Layout {
    const FILE: &str = "ships.toml";
    let rows = layout.len();
    let cols = layout.first().map_or(0, Vec::len);
    // Counts past i64 cannot be held in memory; saturating keeps that plain.
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    let rows_fit = within(
        problems,
        &LAYOUT_ROWS,
        text,
        &format!("{id}.layout"),
        count(rows),
    )
    .is_some();
    // Columns are counted on the first row; the others are held to it.
    let cols_fit = rows == 0
        || within(
            problems,
            &LAYOUT_COLUMNS,
            text,
            &format!("{id}.layout[0]"),
            count(cols),
        )
        .is_some();
    let mut sound = rows_fit && cols_fit;
    let mut report = |key: String, message: String| {
        sound = false;
        problems.push(FILE, key, message);
    };
    let mut ragged = false;
    for (r, row) in layout.iter().enumerate() {
        if row.len() != cols {
            ragged = true;
            report(
                format!("{id}.layout[{r}]"),
                format!(
                    "ragged grid: row {} has {} square{} but row 1 has {cols}",
                    r + 1,
                    row.len(),
                    if row.len() == 1 { "" } else { "s" }
                ),
            );
        }
    }
    let mut modules: Vec<Module> = Vec::new();
    for (r, row) in layout.iter().enumerate() {
        for (c, name) in row.iter().enumerate() {
            if name == EMPTY_SQUARE {
                continue;
            }
            match rules.module_types.iter().position(|t| &t.id == name) {
                None => {
                    let known: Vec<&str> =
                        rules.module_types.iter().map(|t| t.id.as_str()).collect();
                    report(
                        format!("{id}.layout[{r}][{c}]"),
                        format!(
                            "unknown module type '{name}' (known: {}, or '.' for an empty square)",
                            known.join(", ")
                        ),
                    );
                }
                Some(kind) if r < MAX_SIDE && c < MAX_SIDE => modules.push(Module {
                    kind: kind as TypeId,
                    at: Square {
                        row: r as u8,
                        col: c as u8,
                    },
                    occupants: 0,
                    exposed: SideSet::NONE,
                }),
                Some(_) => {}
            }
        }
    }
    if !rows_fit || !cols_fit || ragged {
        // The grid cannot be indexed; the rest of the ship is still
        // validated, against an empty layout, so its other problems show.
        return (0, 0, Vec::new(), Vec::new(), false);
    }
    if within(
        problems,
        &LAYOUT_MODULES,
        text,
        &format!("{id}.layout"),
        count(modules.len()),
    )
    .is_none()
    {
        sound = false;
        // One bit a module: a layout past the limit keeps its first modules
        // only, so the rest of validation can go on.
        modules.truncate(MAX_MODULES);
    }
    let mut cells: Vec<Option<ModuleIx>> = vec![None; rows * cols];
    for (ix, module) in modules.iter().enumerate() {
        cells[usize::from(module.at.row) * cols + usize::from(module.at.col)] =
            Some(ix as ModuleIx);
    }
    let (rows, cols) = (rows as u8, cols as u8);
    // A module sees out of a side when no module stands between it and that
    // side along its row or column.
    let occupied = |r: usize, c: usize| cells[r * usize::from(cols) + c].is_some();
    for module in &mut modules {
        let (r, c) = (usize::from(module.at.row), usize::from(module.at.col));
        let mut exposed = SideSet::NONE;
        if !(0..r).any(|k| occupied(k, c)) {
            exposed = exposed.with(ShipSide::Fore);
        }
        if !(r + 1..usize::from(rows)).any(|k| occupied(k, c)) {
            exposed = exposed.with(ShipSide::Aft);
        }
        if !(0..c).any(|k| occupied(r, k)) {
            exposed = exposed.with(ShipSide::Port);
        }
        if !(c + 1..usize::from(cols)).any(|k| occupied(r, k)) {
            exposed = exposed.with(ShipSide::Starboard);
        }
        module.exposed = exposed;
    }
    (rows, cols, cells, modules, sound)
}

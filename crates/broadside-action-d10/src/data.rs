//! Reading the ruleset's TOML files and validating them into [`Rules`].
//!
//! The raw types mirror the files exactly (unknown keys are errors); the
//! validation step turns them into domain types and reports every problem it
//! finds, each with its file and key, rather than stopping at the first.

use std::collections::BTreeMap;

use broadside_core::{DataErrors, DataProblems, DataRange, Die, FALLBACK_DICE, SourceFile};
use serde::Deserialize;

use broadside_data::{Sources, TomlLines, unknown};

use crate::model::{
    BoxRules, Bracket, ClassId, Constants, Damage, Difficulty, Drive, Fallback, Letter, LockRules,
    Mount, MountEntry, Repairs, Rules, ShipClass, SmallCraft, SubRow, SubTable, SwarmRow,
    SwarmTable, System, TableId, ToHitRules, Weapon, WeaponId, WeaponKind,
};
use crate::ship::{MAX_BOXES, MAX_MOUNTS};

const WEAPONS: &str = "weapons.toml";

/// The ids of the tables `broadside table` lists besides one per weapon.
pub const TABLE_IDS: [&str; 11] = [
    "hangar",
    "internal-damage",
    "surface-features",
    "core-hit",
    "repairs",
    "repair-difficulty",
    "swarmer-hits",
    "structure-boxes",
    "target-lock",
    "to-hit-modifiers",
    "weapons",
];
const SHIPS: &str = "ships.toml";

/// The most riders one ship carries on its clamps.
pub const MAX_RIDERS: usize = 4;
const TABLES: &str = "tables.toml";
const RULES: &str = "rules.toml";

/// `<weapon>.brackets[<n>][0]`.
pub const BRACKET_FROM: DataRange = DataRange::number(
    WEAPONS,
    "<weapon>.brackets[<n>][0]",
    0,
    200,
    "the bracket's nearest range, in hexes",
);

/// `<weapon>.brackets[<n>][1]`.
pub const BRACKET_TO: DataRange = DataRange::number(
    WEAPONS,
    "<weapon>.brackets[<n>][1]",
    0,
    200,
    "the bracket's farthest range, in hexes",
);

/// `<weapon>.brackets[<n>][2]`.
pub const BRACKET_TO_HIT: DataRange = DataRange::number(
    WEAPONS,
    "<weapon>.brackets[<n>][2]",
    0,
    20,
    "the to-hit number a d10 is rolled at or under, before modifiers",
);

/// `<swarm weapon>.brackets[<n>][2]`.
pub const SWARM_BRACKET: DataRange = DataRange::number(
    WEAPONS,
    "<swarm weapon>.brackets[<n>][2]",
    -20,
    20,
    "added to the Swarmer/Rocket Pack Hits roll",
);

/// `<weapon>.damage`.
pub const DAMAGE: DataRange = DataRange::number(
    WEAPONS,
    "<weapon>.damage",
    1,
    64,
    "structure boxes a hit marks: at least 1",
);

/// `<weapon>.damage`.
pub const DAMAGE_DICE: DataRange = DataRange::dice(
    WEAPONS,
    "<weapon>.damage",
    1,
    64,
    "structure boxes a hit marks, as dice: they must be able to mark 1, by ruling 57",
);

/// `<weapon>.warheads`.
pub const WARHEADS: DataRange = DataRange::number(
    WEAPONS,
    "<weapon>.warheads",
    1,
    100,
    "warheads a salvo takes from the magazine",
);

/// `<weapon>.swarm-size`.
pub const SWARM_SIZE: DataRange = DataRange::number(
    WEAPONS,
    "<weapon>.swarm-size",
    1,
    1000,
    "rockets in one swarm",
);

/// `<weapon>.shots`.
pub const SHOTS: DataRange =
    DataRange::number(WEAPONS, "<weapon>.shots", 1, 255, "swarms a mount carries");

/// `<ship>.systems.<system>`.
pub const SYSTEMS: DataRange = DataRange::number(
    SHIPS,
    "<ship>.systems.<system>",
    0,
    50,
    "systems of that kind on the ship",
);

/// `<ship>.systems.<single system>`.
pub const SINGLE_SYSTEM: DataRange = DataRange::number(
    SHIPS,
    "<ship>.systems.<single system>",
    0,
    1,
    "a ship has at most one fire-control, flag-bridge, power-plant, hyperdrive, shield-generator, hangar-door, catapult, long- or short-range-scanner or spinal-mount",
);

/// `<ship>.troops`.
pub const TROOPS: DataRange =
    DataRange::number(SHIPS, "<ship>.troops", 0, 50, "troop units aboard");

/// `<ship>.weapons[<n>].count`.
pub const MOUNT_COUNT: DataRange = DataRange::number(
    SHIPS,
    "<ship>.weapons[<n>].count",
    1,
    16,
    "mounts of that weapon",
);

/// `<ship>.weapons[<n>].bank`.
pub const MOUNT_BANK: DataRange = DataRange::number(
    SHIPS,
    "<ship>.weapons[<n>].bank",
    1,
    8,
    "the bank the mounts fire in",
);

/// `<ship>.fcs`.
pub const FCS: DataRange = DataRange::number(
    SHIPS,
    "<ship>.fcs",
    0,
    10,
    "the fire control rating, added to the automatic lock range",
);

/// `<ship>.command-points`.
pub const COMMAND_POINTS: DataRange = DataRange::number(
    SHIPS,
    "<ship>.command-points",
    0,
    10,
    "Command Points a turn",
);

/// `<ship>.shield-per-emitter`.
pub const SHIELD_PER_EMITTER: DataRange = DataRange::number(
    SHIPS,
    "<ship>.shield-per-emitter",
    0,
    10,
    "shield points each emitter gives",
);

/// `<ship>.small-craft.count`.
pub const CRAFT_COUNT: DataRange = DataRange::number(
    SHIPS,
    "<ship>.small-craft.count",
    1,
    40,
    "small craft carried, each in a bay",
);

/// `<ship>.small-craft.speed`.
pub const CRAFT_SPEED: DataRange = DataRange::number(
    SHIPS,
    "<ship>.small-craft.speed",
    1,
    20,
    "hexes a small craft flight moves",
);

/// `<ship>.size`.
pub const SIZE: DataRange = DataRange::number(
    SHIPS,
    "<ship>.size",
    -5,
    5,
    "the size modifier to hit the ship",
);

/// `<ship>.stealth`.
pub const STEALTH: DataRange = DataRange::number(
    SHIPS,
    "<ship>.stealth",
    -5,
    10,
    "the stealth modifier to lock on",
);

/// `<ship>.thrust-per-thruster`.
pub const THRUST_PER_THRUSTER: DataRange = DataRange::number(
    SHIPS,
    "<ship>.thrust-per-thruster",
    0,
    10,
    "hexes of thrust each thruster gives",
);

/// `<ship>.remass`.
pub const REMASS: DataRange =
    DataRange::number(SHIPS, "<ship>.remass", 0, 1000, "burns of reaction mass");

/// `<ship>.cargo`.
pub const CARGO: DataRange = DataRange::number(SHIPS, "<ship>.cargo", 0, 10000, "cargo points");

/// `<ship>.warheads`.
pub const SHIP_WARHEADS: DataRange = DataRange::number(
    SHIPS,
    "<ship>.warheads",
    0,
    1000,
    "warheads in the magazine",
);

/// `<ship>.chaff-pods`.
pub const CHAFF_PODS: DataRange =
    DataRange::number(SHIPS, "<ship>.chaff-pods", 0, 20, "chaff pods carried");

/// `<ship>.antimatter-spreads`.
pub const ANTIMATTER_SPREADS: DataRange = DataRange::number(
    SHIPS,
    "<ship>.antimatter-spreads",
    0,
    20,
    "antimatter spreads carried",
);

/// `<table>.die`.
pub const TABLE_DIE: DataRange = DataRange::number(
    TABLES,
    "<table>.die",
    2,
    100,
    "sides of the table's die; the rows cover every face",
);

/// `<table>.rows[<n>].count`.
pub const TABLE_COUNT: DataRange = DataRange::dice(
    TABLES,
    "<table>.rows[<n>].count",
    1,
    50,
    "systems a result hits, as dice: they must be able to hit 1, by ruling 57",
);

/// `repairs.die`.
pub const REPAIRS_DIE: DataRange =
    DataRange::number(TABLES, "repairs.die", 2, 100, "sides of the repair die");

/// `repairs.easy`.
pub const REPAIRS_EASY: DataRange = DataRange::number(
    TABLES,
    "repairs.easy",
    0,
    100,
    "a repair roll at or under it succeeds; at most the repair die's sides",
);

/// `repairs.average`.
pub const REPAIRS_AVERAGE: DataRange = DataRange::number(
    TABLES,
    "repairs.average",
    0,
    100,
    "a repair roll at or under it succeeds; at most the repair die's sides",
);

/// `repairs.hard`.
pub const REPAIRS_HARD: DataRange = DataRange::number(
    TABLES,
    "repairs.hard",
    0,
    100,
    "a repair roll at or under it succeeds; at most the repair die's sides",
);

/// `repairs.very-hard`.
pub const REPAIRS_VERY_HARD: DataRange = DataRange::number(
    TABLES,
    "repairs.very-hard",
    0,
    100,
    "a repair roll at or under it succeeds; at most the repair die's sides",
);

/// `swarmer-hits.columns[<n>]`.
pub const SWARM_COLUMN: DataRange = DataRange::number(
    TABLES,
    "swarmer-hits.columns[<n>]",
    1,
    1000,
    "a swarm size, rising from left to right",
);

/// `swarmer-hits.rows[<n>].roll`.
pub const SWARM_ROLL: DataRange = DataRange::number(
    TABLES,
    "swarmer-hits.rows[<n>].roll",
    -100,
    100,
    "a d10 roll plus modifiers (`0-` and `12+` open the ends)",
);

/// `swarmer-hits.rows[<n>].hits[<m>]`.
pub const SWARM_HITS: DataRange = DataRange::number(
    TABLES,
    "swarmer-hits.rows[<n>].hits[<m>]",
    0,
    1000,
    "hits scored; at most the column's swarm size",
);

/// `target-lock.die`.
pub const LOCK_DIE: DataRange = DataRange::number(
    RULES,
    "target-lock.die",
    2,
    100,
    "sides of the Target Lock die",
);

/// `target-lock.target`.
pub const LOCK_TARGET: DataRange = DataRange::number(
    RULES,
    "target-lock.target",
    -20,
    20,
    "the lock roll must be at or under it plus the modifiers",
);

/// `target-lock.automatic-base`.
pub const LOCK_AUTOMATIC_BASE: DataRange = DataRange::number(
    RULES,
    "target-lock.automatic-base",
    0,
    50,
    "hexes within which a lock is automatic, before the FCS rating",
);

/// `target-lock.range-step`.
pub const LOCK_RANGE_STEP: DataRange = DataRange::number(
    RULES,
    "target-lock.range-step",
    1,
    50,
    "hexes of range per step of the range modifier",
);

/// `target-lock.per-range-step`.
pub const LOCK_PER_RANGE_STEP: DataRange = DataRange::number(
    RULES,
    "target-lock.per-range-step",
    -10,
    10,
    "a lock modifier per range step",
);

/// `target-lock.reaction-drive`.
pub const LOCK_REACTION_DRIVE: DataRange = DataRange::number(
    RULES,
    "target-lock.reaction-drive",
    -10,
    10,
    "a lock modifier",
);

/// `target-lock.multiple-enemies`.
pub const LOCK_MULTIPLE_ENEMIES: DataRange = DataRange::number(
    RULES,
    "target-lock.multiple-enemies",
    -10,
    10,
    "a lock modifier",
);

/// `target-lock.nearby-reactionless-same-hex`.
pub const LOCK_NEARBY_REACTIONLESS_SAME_HEX: DataRange = DataRange::number(
    RULES,
    "target-lock.nearby-reactionless-same-hex",
    -10,
    10,
    "a lock modifier",
);

/// `target-lock.nearby-reaction-same-hex`.
pub const LOCK_NEARBY_REACTION_SAME_HEX: DataRange = DataRange::number(
    RULES,
    "target-lock.nearby-reaction-same-hex",
    -10,
    10,
    "a lock modifier",
);

/// `target-lock.nearby-reaction-adjacent`.
pub const LOCK_NEARBY_REACTION_ADJACENT: DataRange = DataRange::number(
    RULES,
    "target-lock.nearby-reaction-adjacent",
    -10,
    10,
    "a lock modifier",
);

/// `target-lock.chaff`.
pub const LOCK_CHAFF: DataRange =
    DataRange::number(RULES, "target-lock.chaff", -10, 10, "a lock modifier");

/// `to-hit.natural-miss`.
pub const NATURAL_MISS: DataRange = DataRange::number(
    RULES,
    "to-hit.natural-miss",
    1,
    10,
    "a d10 face at or above which a shot always misses",
);

/// `to-hit.thrusting-per-hex`.
pub const THRUSTING_PER_HEX: DataRange = DataRange::number(
    RULES,
    "to-hit.thrusting-per-hex",
    -10,
    10,
    "a to-hit modifier per hex",
);

/// `to-hit.warhead`.
pub const WARHEAD: DataRange =
    DataRange::number(RULES, "to-hit.warhead", -10, 10, "a to-hit modifier");

/// `to-hit.aim`.
pub const AIM: DataRange = DataRange::number(RULES, "to-hit.aim", -10, 10, "a to-hit modifier");

/// `to-hit.chaff-against-seekers`.
pub const CHAFF_AGAINST_SEEKERS: DataRange = DataRange::number(
    RULES,
    "to-hit.chaff-against-seekers",
    -10,
    10,
    "a to-hit modifier",
);

/// `to-hit.small-craft-size`.
pub const SMALL_CRAFT_SIZE: DataRange = DataRange::number(
    RULES,
    "to-hit.small-craft-size",
    -10,
    10,
    "a to-hit modifier",
);

/// `damage.containment-cargo`.
pub const CONTAINMENT_CARGO: DataRange = DataRange::dice(
    RULES,
    "damage.containment-cargo",
    1,
    1000,
    "cargo points lost, as dice: they must be able to lose 1, by ruling 57",
);

/// `damage.containment-breach-cargo`.
pub const CONTAINMENT_BREACH_CARGO: DataRange = DataRange::dice(
    RULES,
    "damage.containment-breach-cargo",
    1,
    1000,
    "cargo points lost, as dice: they must be able to lose 1, by ruling 57",
);

/// `damage.remass-burns`.
pub const REMASS_BURNS: DataRange = DataRange::dice(
    RULES,
    "damage.remass-burns",
    1,
    1000,
    "burns lost, as dice: they must be able to lose 1, by ruling 57",
);

/// `damage.remass-bleed`.
pub const REMASS_BLEED: DataRange = DataRange::dice(
    RULES,
    "damage.remass-bleed",
    1,
    1000,
    "burns lost, as dice: they must be able to lose 1, by ruling 57",
);

/// `damage.magazine-warheads`.
pub const MAGAZINE_WARHEADS: DataRange = DataRange::dice(
    RULES,
    "damage.magazine-warheads",
    1,
    1000,
    "warheads lost, as dice: they must be able to lose 1, by ruling 57",
);

/// `damage.aft-surface-features`.
pub const AFT_SURFACE_FEATURES: DataRange = DataRange::number(
    RULES,
    "damage.aft-surface-features",
    0,
    10,
    "added to a Surface Features roll from the aft arc",
);

/// `damage.core-hit-actions`.
pub const CORE_HIT_ACTIONS: DataRange = DataRange::number(
    RULES,
    "damage.core-hit-actions",
    1,
    10,
    "A boxes lost in one attack that roll on Core Hit",
);

/// `command.extra-actions`.
pub const EXTRA_ACTIONS: DataRange = DataRange::number(
    RULES,
    "command.extra-actions",
    0,
    10,
    "actions a ship may buy in one turn",
);

/// `command.extra-action-cost`.
pub const EXTRA_ACTION_COST: DataRange = DataRange::number(
    RULES,
    "command.extra-action-cost",
    1,
    10,
    "Command Points per extra action",
);

/// `command.reroll-cost`.
pub const REROLL_COST: DataRange = DataRange::number(
    RULES,
    "command.reroll-cost",
    1,
    10,
    "Command Points per re-rolled die",
);

/// `launch.without-catapult`.
pub const WITHOUT_CATAPULT: DataRange = DataRange::number(
    RULES,
    "launch.without-catapult",
    1,
    40,
    "small craft launched per action without a catapult",
);

/// `boarding.hit`.
pub const BOARDING_HIT: DataRange = DataRange::number(
    RULES,
    "boarding.hit",
    0,
    10,
    "a d10 at or under it hits, per troop unit per round",
);

/// `boarding.support-bonus`.
pub const SUPPORT_BONUS: DataRange = DataRange::number(
    RULES,
    "boarding.support-bonus",
    -10,
    10,
    "a boarding modifier",
);

/// `boarding.transporter-range`.
pub const TRANSPORTER_RANGE: DataRange = DataRange::number(
    RULES,
    "boarding.transporter-range",
    0,
    20,
    "hexes a transporter reaches",
);

/// `boarding.transport-per-action`.
pub const TRANSPORT_PER_ACTION: DataRange = DataRange::number(
    RULES,
    "boarding.transport-per-action",
    1,
    20,
    "troop units moved by one Transport action",
);

/// `coordinate-fire-control.range`.
pub const COORDINATE_RANGE: DataRange = DataRange::number(
    RULES,
    "coordinate-fire-control.range",
    0,
    50,
    "hexes within which a lock can be shared",
);

/// `antimatter-spread.kill`.
pub const ANTIMATTER_KILL: DataRange = DataRange::number(
    RULES,
    "antimatter-spread.kill",
    0,
    10,
    "a d10 at or under it destroys a salvo",
);

/// `initiative.die`.
pub const INITIATIVE_DIE: DataRange = DataRange::number(
    RULES,
    "initiative.die",
    2,
    100,
    "sides of the initiative die",
);

/// `gravity.pull`.
pub const GRAVITY_PULL: DataRange = DataRange::number(
    RULES,
    "gravity.pull",
    0,
    10,
    "hexes a body pulls a ship in its well, per turn",
);

/// `gravity.well`.
pub const GRAVITY_WELL: DataRange = DataRange::number(
    RULES,
    "gravity.well",
    0,
    20,
    "hexes the well reaches from the body",
);

/// `repair.crew-deck-lost`.
pub const CREW_DECK_LOST: DataRange = DataRange::number(
    RULES,
    "repair.crew-deck-lost",
    -10,
    0,
    "a repair modifier per crew deck destroyed",
);

/// Every number and dice expression the action-d10 data holds, in the order
/// the rules document lists them.
pub const RANGES: &[DataRange] = &[
    BRACKET_FROM,
    BRACKET_TO,
    BRACKET_TO_HIT,
    SWARM_BRACKET,
    DAMAGE,
    DAMAGE_DICE,
    WARHEADS,
    SWARM_SIZE,
    SHOTS,
    SYSTEMS,
    SINGLE_SYSTEM,
    TROOPS,
    MOUNT_COUNT,
    MOUNT_BANK,
    FCS,
    COMMAND_POINTS,
    SHIELD_PER_EMITTER,
    CRAFT_COUNT,
    CRAFT_SPEED,
    SIZE,
    STEALTH,
    THRUST_PER_THRUSTER,
    REMASS,
    CARGO,
    SHIP_WARHEADS,
    CHAFF_PODS,
    ANTIMATTER_SPREADS,
    TABLE_DIE,
    TABLE_COUNT,
    REPAIRS_DIE,
    REPAIRS_EASY,
    REPAIRS_AVERAGE,
    REPAIRS_HARD,
    REPAIRS_VERY_HARD,
    SWARM_COLUMN,
    SWARM_ROLL,
    SWARM_HITS,
    LOCK_DIE,
    LOCK_TARGET,
    LOCK_AUTOMATIC_BASE,
    LOCK_RANGE_STEP,
    LOCK_PER_RANGE_STEP,
    LOCK_REACTION_DRIVE,
    LOCK_MULTIPLE_ENEMIES,
    LOCK_NEARBY_REACTIONLESS_SAME_HEX,
    LOCK_NEARBY_REACTION_SAME_HEX,
    LOCK_NEARBY_REACTION_ADJACENT,
    LOCK_CHAFF,
    NATURAL_MISS,
    THRUSTING_PER_HEX,
    WARHEAD,
    AIM,
    CHAFF_AGAINST_SEEKERS,
    SMALL_CRAFT_SIZE,
    CONTAINMENT_CARGO,
    CONTAINMENT_BREACH_CARGO,
    REMASS_BURNS,
    REMASS_BLEED,
    MAGAZINE_WARHEADS,
    AFT_SURFACE_FEATURES,
    CORE_HIT_ACTIONS,
    EXTRA_ACTIONS,
    EXTRA_ACTION_COST,
    REROLL_COST,
    WITHOUT_CATAPULT,
    BOARDING_HIT,
    SUPPORT_BONUS,
    TRANSPORTER_RANGE,
    TRANSPORT_PER_ACTION,
    COORDINATE_RANGE,
    ANTIMATTER_KILL,
    INITIATIVE_DIE,
    GRAVITY_PULL,
    GRAVITY_WELL,
    CREW_DECK_LOST,
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawWeapon {
    name: String,
    kind: String,
    mount: String,
    brackets: Vec<[i64; 3]>,
    damage: RawDamage,
    #[serde(default)]
    point_defense: bool,
    #[serde(default)]
    antimissile: bool,
    #[serde(default)]
    charge: bool,
    #[serde(default)]
    warheads: Option<i64>,
    #[serde(default)]
    swarm_size: Option<i64>,
    #[serde(default)]
    shots: Option<i64>,
    #[serde(default)]
    small_craft: bool,
    source: String,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawDamage {
    Fixed(i64),
    Dice(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawMount {
    weapon: String,
    #[serde(default)]
    count: Option<i64>,
    #[serde(default)]
    bank: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSmallCraft {
    count: i64,
    weapon: String,
    speed: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawShip {
    name: String,
    source: String,
    #[serde(default)]
    notes: Option<String>,
    size: i64,
    structure: String,
    command_points: i64,
    fcs: i64,
    stealth: i64,
    drive: String,
    thrust_per_thruster: i64,
    remass: i64,
    cargo: i64,
    warheads: i64,
    shield_per_emitter: i64,
    troops: i64,
    #[serde(default)]
    chaff_pods: i64,
    #[serde(default)]
    antimatter_spreads: i64,
    systems: BTreeMap<String, i64>,
    weapons: Vec<RawMount>,
    #[serde(default)]
    small_craft: Option<RawSmallCraft>,
    #[serde(default)]
    riders: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTables {
    hangar: RawSubTable,
    internal_damage: RawSubTable,
    surface_features: RawSubTable,
    core_hit: RawSubTable,
    repairs: RawRepairs,
    swarmer_hits: RawSwarm,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSubTable {
    name: String,
    die: i64,
    fallback: String,
    source: String,
    rows: Vec<RawSubRow>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSubRow {
    roll: i64,
    result: String,
    #[serde(default)]
    count: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRepairs {
    die: i64,
    source: String,
    easy: i64,
    average: i64,
    hard: i64,
    very_hard: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSwarm {
    source: String,
    columns: Vec<i64>,
    rows: Vec<RawSwarmRow>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSwarmRow {
    roll: String,
    hits: Vec<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRules {
    target_lock: RawLock,
    to_hit: RawToHit,
    damage: RawBoxes,
    command: RawCommand,
    launch: RawLaunch,
    boarding: RawBoarding,
    coordinate_fire_control: RawRange,
    antimatter_spread: RawSpread,
    initiative: RawInitiative,
    gravity: RawGravity,
    repair: RawRepair,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLock {
    die: i64,
    target: i64,
    automatic_base: i64,
    range_step: i64,
    per_range_step: i64,
    reaction_drive: i64,
    multiple_enemies: i64,
    nearby_reactionless_same_hex: i64,
    nearby_reaction_same_hex: i64,
    nearby_reaction_adjacent: i64,
    chaff: i64,
    #[serde(default)]
    needs_scanners: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawToHit {
    natural_miss: i64,
    thrusting_per_hex: i64,
    warhead: i64,
    aim: i64,
    chaff_against_seekers: i64,
    small_craft_size: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBoxes {
    containment_cargo: String,
    containment_breach_cargo: String,
    remass_burns: String,
    remass_bleed: String,
    magazine_warheads: String,
    aft_surface_features: i64,
    core_hit_actions: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCommand {
    extra_actions: i64,
    extra_action_cost: i64,
    reroll_cost: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLaunch {
    without_catapult: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBoarding {
    hit: i64,
    support_bonus: i64,
    transporter_range: i64,
    transport_per_action: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRange {
    range: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSpread {
    kill: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawInitiative {
    die: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawGravity {
    pull: i64,
    well: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRepair {
    crew_deck_lost: i64,
    difficulty: BTreeMap<String, String>,
}

/// Validates a set of files into the rules, reporting every problem found.
pub fn load(files: &[SourceFile]) -> Result<Rules, DataErrors> {
    let mut problems = DataProblems::default();
    let sources = Sources::check(
        files,
        <crate::ActionD10 as broadside_core::kit::System>::EMBEDDED,
        "an action-d10",
        &mut problems,
    );
    let weapons: Option<BTreeMap<String, RawWeapon>> = sources.parse(WEAPONS, &mut problems);
    let ships: Option<BTreeMap<String, RawShip>> = sources.parse(SHIPS, &mut problems);
    let tables: Option<RawTables> = sources.parse(TABLES, &mut problems);
    let rules: Option<RawRules> = sources.parse(RULES, &mut problems);

    // Files refer to one another, so cross-checks wait until every file has
    // been read: a syntax error in one file is reported alone, not echoed by
    // every reference to what it failed to define.
    let (Some(weapons), Some(ships), Some(tables), Some(rules)) = (weapons, ships, tables, rules)
    else {
        return Err(problems.stop());
    };
    // A file that defines nothing is one problem, not one for every name
    // the other files take from it.
    if problems.none_defined(&[
        ("weapons.toml", weapons.is_empty(), "weapon"),
        ("ships.toml", ships.is_empty(), "ship"),
    ]) {
        return Err(problems.stop());
    }
    let text = |name: &str| sources.lines(name);
    let weapons = validate_weapons(weapons, &text(WEAPONS), &mut problems);
    // The Surface Features table's rows are judged only against an aft
    // bonus in its range: one out of range is reported in rules.toml alone.
    let aft_valid = AFT_SURFACE_FEATURES.allows(rules.damage.aft_surface_features);
    let (constants, difficulty, crew_deck_lost) =
        validate_rules(rules, &text(RULES), &mut problems);
    let (sub_tables, repairs, swarm) = validate_tables(
        tables,
        difficulty,
        &constants,
        aft_valid,
        &text(TABLES),
        &mut problems,
    );
    let ships = validate_ships(ships, &weapons, &text(SHIPS), &mut problems);
    let mut constants = constants;
    constants.crew_deck_lost = crew_deck_lost;
    problems.finish(Rules {
        weapons,
        ships,
        tables: sub_tables,
        repairs,
        swarm,
        constants,
    })
}

/// A number held below a bound the data sets (a repair target by the repair
/// die's sides), once its documented range is checked.
fn at_most(
    problems: &mut DataProblems,
    file: &str,
    key: &str,
    value: i64,
    hi: i64,
    what: &str,
) -> i64 {
    if value > hi {
        problems.push(file, key, format!("{value} is more than {what} ({hi})"));
    }
    value.min(hi)
}

fn die(
    problems: &mut DataProblems,
    range: &DataRange,
    text: &TomlLines<'_>,
    key: &str,
    sides: i64,
) -> Die {
    let sides = problems.check(range, text, key, sides);
    Die::new(sides as u32).unwrap_or(Die::D6)
}

fn validate_weapons(
    raw: BTreeMap<String, RawWeapon>,
    text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> Vec<Weapon> {
    let mut out = Vec::new();
    for (id, w) in raw {
        let key = |field: &str| format!("{id}.{field}");
        // Each weapon's range table is listed under its id beside the
        // system's other tables, so the id must not be one of theirs.
        if TABLE_IDS.contains(&id.as_str()) {
            problems.push(
                WEAPONS,
                id.as_str(),
                format!("'{id}' is the id of one of the system's tables: choose another"),
            );
        }
        let kind = match w.kind.as_str() {
            "direct" => WeaponKind::Direct,
            "projectile" => WeaponKind::Projectile,
            "seeker" => WeaponKind::Seeker,
            "swarm" => WeaponKind::Swarm,
            other => {
                problems.push(
                    WEAPONS,
                    key("kind"),
                    format!("'{other}' is not a kind (direct, projectile, seeker, swarm)"),
                );
                WeaponKind::Direct
            }
        };
        let mount = match w.mount.as_str() {
            "turret" => Mount::Turret,
            "fixed" => Mount::Fixed,
            "spinal" => Mount::Spinal,
            other => {
                problems.push(
                    WEAPONS,
                    key("mount"),
                    format!("'{other}' is not a mount (turret, fixed, spinal)"),
                );
                Mount::Turret
            }
        };
        let brackets = validate_brackets(&id, &w.brackets, kind, text, problems);
        let damage = match &w.damage {
            RawDamage::Fixed(n) => {
                Damage::Fixed(problems.check(&DAMAGE, text, &key("damage"), *n) as u32)
            }
            RawDamage::Dice(dice) => match dice.parse::<u32>() {
                Ok(n) => {
                    Damage::Fixed(problems.check(&DAMAGE, text, &key("damage"), i64::from(n)) as u32)
                }
                Err(_) => Damage::Dice(problems.check_dice(
                    &DAMAGE_DICE,
                    text,
                    &key("damage"),
                    dice,
                    FALLBACK_DICE,
                )),
            },
        };
        let warheads = match (kind.is_salvo(), w.warheads) {
            (true, Some(n)) => problems.check(&WARHEADS, text, &key("warheads"), n) as u16,
            (true, None) => {
                problems.push(
                    WEAPONS,
                    key("warheads"),
                    "missing: a salvo takes warheads from the magazine",
                );
                1
            }
            (false, Some(_)) => {
                problems.push(
                    WEAPONS,
                    key("warheads"),
                    "only projectile and seeker weapons take warheads",
                );
                0
            }
            (false, None) => 0,
        };
        let swarm_size = match (kind, w.small_craft, w.swarm_size) {
            (WeaponKind::Swarm, false, Some(n)) => {
                problems.check(&SWARM_SIZE, text, &key("swarm-size"), n) as u32
            }
            (WeaponKind::Swarm, false, None) => {
                problems.push(
                    WEAPONS,
                    key("swarm-size"),
                    "missing: a ship's swarm weapon fires a swarm of a given size",
                );
                1
            }
            (_, _, Some(_)) => {
                problems.push(
                    WEAPONS,
                    key("swarm-size"),
                    "only a ship's swarm weapon has a swarm size (a flight's size is its craft)",
                );
                0
            }
            (_, _, None) => 0,
        };
        if w.small_craft && kind != WeaponKind::Swarm {
            problems.push(
                WEAPONS,
                key("small-craft"),
                "small craft fight as a swarm: set kind = \"swarm\"",
            );
        }
        if w.point_defense && kind != WeaponKind::Direct {
            problems.push(
                WEAPONS,
                key("point-defense"),
                "only a direct-fire weapon can fire point defence",
            );
        }
        if w.antimissile && !w.point_defense {
            problems.push(
                WEAPONS,
                key("antimissile"),
                "a dedicated antimissile weapon must be a point-defense weapon",
            );
        }
        let shots = w
            .shots
            .map(|n| problems.check(&SHOTS, text, &key("shots"), n) as u8);
        out.push(Weapon {
            id,
            name: w.name,
            kind,
            mount,
            brackets,
            damage,
            point_defense: w.point_defense,
            antimissile: w.antimissile,
            charge: w.charge,
            warheads,
            swarm_size,
            shots,
            small_craft: w.small_craft,
            source: w.source,
        });
    }
    if out.len() > usize::from(WeaponId::MAX) {
        problems.push(WEAPONS, "", "too many weapons");
    }
    out
}

/// Range brackets must start at range 0 and follow one another without a
/// gap or an overlap.
fn validate_brackets(
    id: &str,
    raw: &[[i64; 3]],
    kind: WeaponKind,
    text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> Vec<Bracket> {
    let key = format!("{id}.brackets");
    if raw.is_empty() {
        problems.push(WEAPONS, &key, "a weapon needs at least one range bracket");
        return vec![Bracket {
            from: 0,
            to: 0,
            value: 0,
        }];
    }
    let mut out: Vec<Bracket> = Vec::new();
    for (i, &[from, to, value]) in raw.iter().enumerate() {
        let bkey = format!("{key}[{i}]");
        let from = problems.check(&BRACKET_FROM, text, &format!("{bkey}[0]"), from) as u32;
        let to = problems.check(&BRACKET_TO, text, &format!("{bkey}[1]"), to) as u32;
        if from > to {
            problems.push(WEAPONS, &bkey, format!("[{from}, {to}] runs backwards"));
        }
        let value_range = if kind == WeaponKind::Swarm {
            &SWARM_BRACKET
        } else {
            &BRACKET_TO_HIT
        };
        let value = problems.check(value_range, text, &format!("{bkey}[2]"), value) as i32;
        match out.last() {
            None if from != 0 => problems.push(
                WEAPONS,
                &bkey,
                format!("the first bracket starts at {from}: ranges from 0 need a to-hit number"),
            ),
            Some(prev) if from <= prev.to => problems.push(
                WEAPONS,
                &bkey,
                format!(
                    "{from}-{to} overlaps the bracket before ({}-{})",
                    prev.from, prev.to
                ),
            ),
            Some(prev) if from > prev.to + 1 => problems.push(
                WEAPONS,
                &bkey,
                format!("gap: no bracket covers {}-{}", prev.to + 1, from - 1),
            ),
            _ => {}
        }
        out.push(Bracket {
            from,
            to: to.max(from),
            value,
        });
    }
    out
}

/// Systems at most one of which a ship can have.
const SINGLE: [System; 10] = [
    System::FireControl,
    System::FlagBridge,
    System::PowerPlant,
    System::Hyperdrive,
    System::ShieldGenerator,
    System::HangarDoor,
    System::Catapult,
    System::LongRangeScanner,
    System::ShortRangeScanner,
    System::SpinalMount,
];

fn validate_ships(
    raw: BTreeMap<String, RawShip>,
    weapons: &[Weapon],
    text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> Vec<ShipClass> {
    let ids: Vec<String> = raw.keys().cloned().collect();
    let mut out = Vec::new();
    let mut rider_names: Vec<Vec<String>> = Vec::new();
    for (id, ship) in raw {
        let key = |field: &str| format!("{id}.{field}");
        let n = |problems: &mut DataProblems, range: &DataRange, value: i64| {
            let field = range.key.trim_start_matches("<ship>.");
            problems.check(range, text, &key(field), value)
        };
        let mut track = Vec::new();
        for (i, c) in ship.structure.chars().enumerate() {
            match Letter::from_symbol(c) {
                Some(letter) => track.push(letter),
                None => problems.push(
                    SHIPS,
                    key("structure"),
                    format!(
                        "box {} is '{c}': a box is '.' or one of C, R, M, S, H, U, A",
                        i + 1
                    ),
                ),
            }
        }
        if track.is_empty() {
            problems.push(SHIPS, key("structure"), "the track has no boxes");
            track.push(Letter::Action);
        }
        if track.len() > MAX_BOXES {
            problems.push(
                SHIPS,
                key("structure"),
                format!("{} boxes: a track holds at most {MAX_BOXES}", track.len()),
            );
            track.truncate(MAX_BOXES);
        }
        let mut letters = [0u8; 8];
        for letter in &track {
            letters[letter.index()] += 1;
        }
        if letters[Letter::Action.index()] == 0 {
            problems.push(
                SHIPS,
                key("structure"),
                "no A box: a ship's actions per turn are its A boxes",
            );
        }
        let mut systems = [0u8; System::COUNT];
        for (name, &count) in &ship.systems {
            let skey = format!("{id}.systems.{name}");
            match System::from_id(name) {
                None => {
                    let known = System::ALL
                        .iter()
                        .filter(|s| s.mount().is_none() && **s != System::Troops)
                        .map(|s| s.id());
                    problems.push(SHIPS, skey, unknown("system", name, known));
                }
                Some(s) if s.mount().is_some() => problems.push(
                    SHIPS,
                    skey,
                    "weapons are counted from the ship's weapons, not listed as systems",
                ),
                Some(System::Troops) => {
                    problems.push(SHIPS, skey, "troops are given by the ship's `troops`")
                }
                Some(s) => {
                    let range = if SINGLE.contains(&s) {
                        &SINGLE_SYSTEM
                    } else {
                        &SYSTEMS
                    };
                    systems[s.index()] = problems.check(range, text, &skey, count) as u8;
                }
            }
        }
        systems[System::Troops.index()] = n(problems, &TROOPS, ship.troops) as u8;

        let mut mounts = Vec::new();
        for (i, entry) in ship.weapons.iter().enumerate() {
            let wkey = format!("{id}.weapons[{i}]");
            let count = problems.check(
                &MOUNT_COUNT,
                text,
                &format!("{wkey}.count"),
                entry.count.unwrap_or(1),
            );
            let bank = problems.check(
                &MOUNT_BANK,
                text,
                &format!("{wkey}.bank"),
                entry.bank.unwrap_or(1),
            );
            match weapons.iter().position(|w| w.id == entry.weapon) {
                None => problems.push(
                    SHIPS,
                    format!("{wkey}.weapon"),
                    unknown(
                        "weapon",
                        &entry.weapon,
                        weapons.iter().map(|w| w.id.as_str()),
                    ),
                ),
                Some(w) if weapons[w].small_craft => problems.push(
                    SHIPS,
                    format!("{wkey}.weapon"),
                    format!("'{}' is carried by small craft only", entry.weapon),
                ),
                Some(w) => {
                    for _ in 0..count {
                        mounts.push(MountEntry {
                            weapon: w as WeaponId,
                            bank: bank as u8,
                        });
                        let system = weapons[w].mount.system();
                        systems[system.index()] = systems[system.index()].saturating_add(1);
                    }
                }
            }
        }
        if mounts.len() > MAX_MOUNTS {
            problems.push(
                SHIPS,
                key("weapons"),
                format!(
                    "{} mounts: a ship carries at most {MAX_MOUNTS}",
                    mounts.len()
                ),
            );
            mounts.truncate(MAX_MOUNTS);
        }
        if systems[System::SpinalMount.index()] > 1 {
            problems.push(SHIPS, key("weapons"), "a ship has at most one spinal mount");
        }

        let fcs = n(problems, &FCS, ship.fcs) as u8;
        let command_points = n(problems, &COMMAND_POINTS, ship.command_points) as u8;
        let shield_per_emitter = n(problems, &SHIELD_PER_EMITTER, ship.shield_per_emitter) as u8;
        let has = |s: System| systems[s.index()] > 0;
        if fcs > 0 && !(has(System::FireControl) && has(System::Sensors)) {
            problems.push(
                SHIPS,
                key("fcs"),
                "an FCS rating needs fire-control and sensors among the systems",
            );
        }
        if command_points > 0 && !has(System::FlagBridge) {
            problems.push(
                SHIPS,
                key("command-points"),
                "Command Points need a flag-bridge",
            );
        }
        if shield_per_emitter > 0 && !(has(System::ShieldEmitter) && has(System::ShieldGenerator)) {
            problems.push(
                SHIPS,
                key("shield-per-emitter"),
                "shields need a shield-emitter and a shield-generator",
            );
        }
        if !has(System::PowerPlant) {
            problems.push(SHIPS, key("systems"), "every ship has a power-plant");
        }
        if has(System::HyperdriveImpeller) && !has(System::Hyperdrive) {
            problems.push(
                SHIPS,
                key("systems"),
                "hyperdrive impellers without a hyperdrive",
            );
        }
        let small_craft = ship.small_craft.as_ref().and_then(|craft| {
            let ckey = |field: &str| format!("{id}.small-craft.{field}");
            let count = problems.check(&CRAFT_COUNT, text, &ckey("count"), craft.count) as u8;
            let speed = problems.check(&CRAFT_SPEED, text, &ckey("speed"), craft.speed) as u32;
            if systems[System::SmallCraftBay.index()] < count {
                problems.push(
                    SHIPS,
                    ckey("count"),
                    format!(
                        "{count} small craft but {} small-craft-bay: each craft needs a bay",
                        systems[System::SmallCraftBay.index()]
                    ),
                );
            }
            if !has(System::HangarDoor) {
                problems.push(SHIPS, ckey("count"), "small craft need a hangar-door");
            }
            match weapons.iter().position(|w| w.id == craft.weapon) {
                Some(w) if weapons[w].small_craft => Some(SmallCraft {
                    count,
                    weapon: w as WeaponId,
                    speed,
                }),
                Some(_) => {
                    problems.push(
                        SHIPS,
                        ckey("weapon"),
                        format!("'{}' is not a small craft weapon", craft.weapon),
                    );
                    None
                }
                None => {
                    problems.push(
                        SHIPS,
                        ckey("weapon"),
                        format!("unknown weapon '{}'", craft.weapon),
                    );
                    None
                }
            }
        });
        let drive = match ship.drive.as_str() {
            "reaction" => Drive::Reaction,
            "reactionless" => Drive::Reactionless,
            other => {
                problems.push(
                    SHIPS,
                    key("drive"),
                    format!("'{other}' is not a drive (reaction, reactionless)"),
                );
                Drive::Reaction
            }
        };
        if ship.riders.len() > MAX_RIDERS {
            problems.push(
                SHIPS,
                key("riders"),
                format!("a ship carries at most {MAX_RIDERS} riders"),
            );
        }
        for (i, rider) in ship.riders.iter().enumerate() {
            if !ids.contains(rider) {
                problems.push(
                    SHIPS,
                    format!("{id}.riders[{i}]"),
                    unknown("ship", rider, ids.iter().map(String::as_str)),
                );
            }
        }
        rider_names.push(ship.riders.iter().take(MAX_RIDERS).cloned().collect());
        out.push(ShipClass {
            size: n(problems, &SIZE, ship.size) as i32,
            letters,
            track,
            command_points,
            fcs,
            stealth: n(problems, &STEALTH, ship.stealth) as i32,
            drive,
            thrust_per_thruster: n(problems, &THRUST_PER_THRUSTER, ship.thrust_per_thruster) as u8,
            remass: n(problems, &REMASS, ship.remass) as u16,
            cargo: n(problems, &CARGO, ship.cargo) as u16,
            warheads: n(problems, &SHIP_WARHEADS, ship.warheads) as u16,
            shield_per_emitter,
            systems,
            weapons: mounts,
            small_craft,
            riders: Vec::new(),
            chaff_pods: n(problems, &CHAFF_PODS, ship.chaff_pods) as u8,
            antimatter_spreads: n(problems, &ANTIMATTER_SPREADS, ship.antimatter_spreads) as u8,
            id,
            name: ship.name,
            source: ship.source,
            notes: ship.notes,
        });
    }
    // Riders are resolved once every class has its index.
    let carries: Vec<bool> = rider_names.iter().map(|names| !names.is_empty()).collect();
    for (i, names) in rider_names.into_iter().enumerate() {
        let mut riders = Vec::new();
        for name in names {
            if let Some(r) = out.iter().position(|c| c.id == name) {
                if carries[r] {
                    problems.push(
                        SHIPS,
                        format!("{}.riders", out[i].id),
                        format!("'{name}' carries riders itself: riders cannot be nested"),
                    );
                }
                riders.push(r as ClassId);
            }
        }
        out[i].riders = riders;
    }
    if out.len() > usize::from(ClassId::MAX) {
        problems.push(SHIPS, "", "too many ships");
    }
    out
}

fn validate_sub_table(
    id: TableId,
    raw: RawSubTable,
    reach: Option<i32>,
    text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> SubTable {
    let key = |field: &str| format!("{}.{field}", id.id());
    let die = die(problems, &TABLE_DIE, text, &key("die"), raw.die);
    let fallback = match raw.fallback.as_str() {
        "none" => Fallback::None,
        "roll-again" => Fallback::RollAgain,
        other => match TableId::from_id(other) {
            Some(t) if t == id => {
                problems.push(
                    TABLES,
                    key("fallback"),
                    "use \"roll-again\" to roll on the same table",
                );
                Fallback::RollAgain
            }
            Some(t) => Fallback::Table(t),
            None => {
                problems.push(
                    TABLES,
                    key("fallback"),
                    format!("'{other}' is not none, roll-again or a table id (hangar, internal-damage, surface-features, core-hit)"),
                );
                Fallback::None
            }
        },
    };
    let mut rows = Vec::new();
    for (i, row) in raw.rows.iter().enumerate() {
        let rkey = format!("{}.rows[{i}]", id.id());
        if row.roll != i as i64 + 1 {
            problems.push(
                TABLES,
                format!("{rkey}.roll"),
                format!(
                    "row {} is for roll {}: rows run 1, 2, 3... without gap or overlap",
                    i + 1,
                    row.roll
                ),
            );
        }
        let result = System::from_id(&row.result).unwrap_or_else(|| {
            problems.push(
                TABLES,
                format!("{rkey}.result"),
                unknown("system", &row.result, System::ALL.iter().map(|s| s.id())),
            );
            System::SolarPanel
        });
        let count = row.count.as_ref().map(|c| {
            problems.check_dice(
                &TABLE_COUNT,
                text,
                &format!("{rkey}.count"),
                c,
                FALLBACK_DICE,
            )
        });
        rows.push(SubRow { result, count });
    }
    // `None`: the reach is out of its own range, so the rows are not judged.
    let highest = reach.map(|reach| die.sides() as i32 + reach);
    if rows.is_empty() {
        problems.push(TABLES, key("rows"), "the table has no rows");
        rows.push(SubRow {
            result: System::SolarPanel,
            count: None,
        });
    } else if let Some(highest) = highest
        && (rows.len() as i32) < highest
    {
        problems.push(
            TABLES,
            key("rows"),
            format!(
                "a roll can reach {highest} but the rows stop at {}",
                rows.len()
            ),
        );
    } else if let Some(highest) = highest
        && rows.len() as i32 > highest
    {
        problems.push(
            TABLES,
            key("rows"),
            format!("rows past {highest} can never be rolled"),
        );
    }
    SubTable {
        id,
        name: raw.name,
        die,
        rows,
        fallback,
        source: raw.source,
    }
}

fn validate_tables(
    raw: RawTables,
    difficulty: RawDifficulty,
    constants: &Constants,
    aft_valid: bool,
    text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> (Vec<SubTable>, Repairs, SwarmTable) {
    let aft = aft_valid.then_some(constants.boxes.aft_surface_features.max(0));
    let tables = vec![
        validate_sub_table(TableId::Hangar, raw.hangar, Some(0), text, problems),
        validate_sub_table(
            TableId::InternalDamage,
            raw.internal_damage,
            Some(0),
            text,
            problems,
        ),
        validate_sub_table(
            TableId::SurfaceFeatures,
            raw.surface_features,
            aft,
            text,
            problems,
        ),
        validate_sub_table(TableId::CoreHit, raw.core_hit, Some(0), text, problems),
    ];
    // A chain of fall-backs must end: following table fall-backs from any
    // table must not come back to it.
    for start in TableId::ALL {
        let mut seen = vec![start];
        let mut at = start;
        while let Fallback::Table(next) = tables[at.index()].fallback {
            if seen.contains(&next) {
                problems.push(
                    TABLES,
                    format!("{}.fallback", at.id()),
                    format!("the fall-backs from {} run in a circle", start.id()),
                );
                break;
            }
            seen.push(next);
            at = next;
        }
    }

    let r = raw.repairs;
    let rdie = die(problems, &REPAIRS_DIE, text, "repairs.die", r.die);
    let hi = i64::from(rdie.sides());
    let mut target = |range: &DataRange, value: i64| {
        let value = problems.check(range, text, range.key, value);
        at_most(
            problems,
            TABLES,
            range.key,
            value,
            hi,
            "the repair die's sides",
        ) as i32
    };
    let targets = [
        target(&REPAIRS_EASY, r.easy),
        target(&REPAIRS_AVERAGE, r.average),
        target(&REPAIRS_HARD, r.hard),
        target(&REPAIRS_VERY_HARD, r.very_hard),
    ];
    let mut repairs = Repairs {
        die: rdie,
        targets,
        jam: None,
        disabled_scanner: None,
        destroyed_scanner: None,
        systems: [None; System::COUNT],
        source: r.source,
    };
    for (name, level) in difficulty.entries {
        let dkey = format!("repair.difficulty.{name}");
        let Some(level) = Difficulty::from_id(&level) else {
            problems.push(
                RULES,
                dkey,
                format!("'{level}' is not a difficulty (easy, average, hard, very-hard)"),
            );
            continue;
        };
        match name.as_str() {
            "magazine-jam" => repairs.jam = Some(level),
            "disabled-scanner" => repairs.disabled_scanner = Some(level),
            "destroyed-scanner" => repairs.destroyed_scanner = Some(level),
            other => match System::from_id(other) {
                Some(s) if s.scanner().is_some() => problems.push(
                    RULES,
                    dkey,
                    "scanners are repaired as disabled-scanner or destroyed-scanner",
                ),
                Some(s) => repairs.systems[s.index()] = Some(level),
                None => problems.push(
                    RULES,
                    dkey,
                    format!("'{other}' is not a system, magazine-jam, disabled-scanner or destroyed-scanner"),
                ),
            },
        }
    }

    let swarm = validate_swarm(raw.swarmer_hits, text, problems);
    (tables, repairs, swarm)
}

/// Reads a row label: `7`, `0-` (and below) or `12+` (and above).
fn swarm_label(label: &str) -> Option<(i32, i32)> {
    if let Some(n) = label.strip_suffix('+') {
        return Some((n.parse().ok()?, i32::MAX));
    }
    if let Some(n) = label.strip_suffix('-') {
        return Some((i32::MIN, n.parse().ok()?));
    }
    let n = label.parse().ok()?;
    Some((n, n))
}

fn validate_swarm(raw: RawSwarm, text: &TomlLines<'_>, problems: &mut DataProblems) -> SwarmTable {
    const KEY: &str = "swarmer-hits";
    let mut columns = Vec::new();
    for (i, &c) in raw.columns.iter().enumerate() {
        let c = problems.check(&SWARM_COLUMN, text, &format!("{KEY}.columns[{i}]"), c) as u32;
        if columns.last().is_some_and(|&prev| prev >= c) {
            problems.push(
                TABLES,
                format!("{KEY}.columns[{i}]"),
                "swarm sizes must rise from left to right",
            );
        }
        columns.push(c);
    }
    if columns.is_empty() {
        problems.push(TABLES, format!("{KEY}.columns"), "the table has no columns");
        columns.push(1);
    }
    let mut rows: Vec<SwarmRow> = Vec::new();
    for (i, row) in raw.rows.iter().enumerate() {
        let rkey = format!("{KEY}.rows[{i}]");
        let Some((from, to)) = swarm_label(&row.roll) else {
            problems.push(
                TABLES,
                format!("{rkey}.roll"),
                format!("'{}' is not a roll like 7, 0- or 12+", row.roll),
            );
            continue;
        };
        // The printed number of the label; an open end stays open.
        let roll_key = format!("{rkey}.roll");
        let mut bounded = |end: i32| match end {
            i32::MIN | i32::MAX => end,
            _ => problems.check(&SWARM_ROLL, text, &roll_key, i64::from(end)) as i32,
        };
        let (from, to) = if from == to {
            let roll = bounded(from);
            (roll, roll)
        } else {
            (bounded(from), bounded(to))
        };
        if let Some(prev) = rows.last()
            && prev.to.checked_add(1) != Some(from)
        {
            problems.push(
                TABLES,
                format!("{rkey}.roll"),
                format!(
                    "'{}' does not follow '{}' without gap or overlap",
                    row.roll, prev.label
                ),
            );
        }
        if row.hits.len() != columns.len() {
            problems.push(
                TABLES,
                format!("{rkey}.hits"),
                format!("{} cells for {} columns", row.hits.len(), columns.len()),
            );
        }
        let mut hits = Vec::new();
        for (j, &h) in row.hits.iter().enumerate() {
            let size = columns.get(j).copied().unwrap_or(1000);
            let hkey = format!("{rkey}.hits[{j}]");
            let h = problems.check(&SWARM_HITS, text, &hkey, h);
            let h = at_most(
                problems,
                TABLES,
                &hkey,
                h,
                i64::from(size),
                "the column's swarm size",
            );
            hits.push(h as u32);
        }
        hits.resize(columns.len(), 0);
        rows.push(SwarmRow {
            from,
            to,
            label: row.roll.clone(),
            hits,
        });
    }
    match (rows.first(), rows.last()) {
        (Some(first), Some(last)) => {
            if first.from != i32::MIN {
                problems.push(
                    TABLES,
                    format!("{KEY}.rows[0].roll"),
                    "the first row must be open below (like 0-): modifiers can take a roll under 1",
                );
            }
            if last.to != i32::MAX {
                problems.push(
                    TABLES,
                    format!("{KEY}.rows[{}].roll", rows.len() - 1),
                    "the last row must be open above (like 12+): modifiers can take a roll over 10",
                );
            }
        }
        _ => {
            problems.push(TABLES, format!("{KEY}.rows"), "the table has no rows");
            rows.push(SwarmRow {
                from: i32::MIN,
                to: i32::MAX,
                label: "any".into(),
                hits: vec![0; columns.len()],
            });
        }
    }
    SwarmTable {
        columns,
        rows,
        source: raw.source,
    }
}

/// The repair difficulties as read, checked once the tables are known.
struct RawDifficulty {
    entries: BTreeMap<String, String>,
}

fn validate_rules(
    raw: RawRules,
    text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> (Constants, RawDifficulty, i32) {
    let n = |problems: &mut DataProblems, range: &DataRange, value: i64| {
        problems.check(range, text, range.key, value) as i32
    };
    let l = &raw.target_lock;
    let lock = LockRules {
        die: die(problems, &LOCK_DIE, text, "target-lock.die", l.die),
        target: n(problems, &LOCK_TARGET, l.target),
        automatic_base: n(problems, &LOCK_AUTOMATIC_BASE, l.automatic_base) as u32,
        range_step: n(problems, &LOCK_RANGE_STEP, l.range_step) as u32,
        per_range_step: n(problems, &LOCK_PER_RANGE_STEP, l.per_range_step),
        reaction_drive: n(problems, &LOCK_REACTION_DRIVE, l.reaction_drive),
        multiple_enemies: n(problems, &LOCK_MULTIPLE_ENEMIES, l.multiple_enemies),
        nearby_reactionless_same_hex: n(
            problems,
            &LOCK_NEARBY_REACTIONLESS_SAME_HEX,
            l.nearby_reactionless_same_hex,
        ),
        nearby_reaction_same_hex: n(
            problems,
            &LOCK_NEARBY_REACTION_SAME_HEX,
            l.nearby_reaction_same_hex,
        ),
        nearby_reaction_adjacent: n(
            problems,
            &LOCK_NEARBY_REACTION_ADJACENT,
            l.nearby_reaction_adjacent,
        ),
        chaff: n(problems, &LOCK_CHAFF, l.chaff),
        needs_scanners: l.needs_scanners,
    };
    let t = &raw.to_hit;
    let to_hit = ToHitRules {
        natural_miss: n(problems, &NATURAL_MISS, t.natural_miss) as u32,
        thrusting_per_hex: n(problems, &THRUSTING_PER_HEX, t.thrusting_per_hex),
        warhead: n(problems, &WARHEAD, t.warhead),
        aim: n(problems, &AIM, t.aim),
        chaff_against_seekers: n(problems, &CHAFF_AGAINST_SEEKERS, t.chaff_against_seekers),
        small_craft_size: n(problems, &SMALL_CRAFT_SIZE, t.small_craft_size),
    };
    let b = &raw.damage;
    let boxes = BoxRules {
        containment_cargo: problems.check_dice(
            &CONTAINMENT_CARGO,
            text,
            CONTAINMENT_CARGO.key,
            &b.containment_cargo,
            FALLBACK_DICE,
        ),
        containment_breach_cargo: problems.check_dice(
            &CONTAINMENT_BREACH_CARGO,
            text,
            CONTAINMENT_BREACH_CARGO.key,
            &b.containment_breach_cargo,
            FALLBACK_DICE,
        ),
        remass_burns: problems.check_dice(
            &REMASS_BURNS,
            text,
            REMASS_BURNS.key,
            &b.remass_burns,
            FALLBACK_DICE,
        ),
        remass_bleed: problems.check_dice(
            &REMASS_BLEED,
            text,
            REMASS_BLEED.key,
            &b.remass_bleed,
            FALLBACK_DICE,
        ),
        magazine_warheads: problems.check_dice(
            &MAGAZINE_WARHEADS,
            text,
            MAGAZINE_WARHEADS.key,
            &b.magazine_warheads,
            FALLBACK_DICE,
        ),
        aft_surface_features: n(problems, &AFT_SURFACE_FEATURES, b.aft_surface_features),
        core_hit_actions: n(problems, &CORE_HIT_ACTIONS, b.core_hit_actions) as u8,
    };
    let c = &raw.command;
    let constants = Constants {
        lock,
        to_hit,
        boxes,
        extra_actions: n(problems, &EXTRA_ACTIONS, c.extra_actions) as u8,
        extra_action_cost: n(problems, &EXTRA_ACTION_COST, c.extra_action_cost) as u8,
        reroll_cost: n(problems, &REROLL_COST, c.reroll_cost) as u8,
        launch_without_catapult: n(problems, &WITHOUT_CATAPULT, raw.launch.without_catapult) as u8,
        boarding_hit: n(problems, &BOARDING_HIT, raw.boarding.hit),
        support_bonus: n(problems, &SUPPORT_BONUS, raw.boarding.support_bonus),
        transporter_range: n(problems, &TRANSPORTER_RANGE, raw.boarding.transporter_range) as u32,
        transport_per_action: n(
            problems,
            &TRANSPORT_PER_ACTION,
            raw.boarding.transport_per_action,
        ) as u8,
        coordinate_range: n(
            problems,
            &COORDINATE_RANGE,
            raw.coordinate_fire_control.range,
        ) as u32,
        antimatter_kill: n(problems, &ANTIMATTER_KILL, raw.antimatter_spread.kill),
        initiative_die: die(
            problems,
            &INITIATIVE_DIE,
            text,
            "initiative.die",
            raw.initiative.die,
        ),
        gravity_pull: n(problems, &GRAVITY_PULL, raw.gravity.pull) as u32,
        gravity_well: n(problems, &GRAVITY_WELL, raw.gravity.well) as u32,
        crew_deck_lost: 0,
    };
    let crew = n(problems, &CREW_DECK_LOST, raw.repair.crew_deck_lost);
    (
        constants,
        RawDifficulty {
            entries: raw.repair.difficulty,
        },
        crew,
    )
}

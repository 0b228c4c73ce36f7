//! Reading the ruleset's TOML files and validating them into [`Rules`].
//!
//! The raw types mirror the files exactly (unknown keys are errors); the
//! validation step turns them into domain types and reports every problem it
//! finds, each with its file and key, rather than stopping at the first.

use std::collections::BTreeMap;

use broadside_core::{DataErrors, DataProblems, DataRange, DiceExpr, FALLBACK_DICE, SourceFile};
use broadside_data::{Sources, unknown};
use serde::Deserialize;

use crate::model::{
    ALL_GROUPS, Amount, Band, BandInfo, ChainMode, Characteristic, Constants, CrewMember,
    Criticals, Group, Groups, Identical, Location, MissileArmour, Mount, MountKind, Position, Row,
    RowTable, Rules, SeverityRow, ShipClass, Skill, SkillId, Slot, Standing, Task, TaskDef, Weapon,
    WeaponHarm, WeaponId, WeaponKind,
};
use crate::ship::{MAX_CREW, MAX_MAGAZINES, MAX_MOUNTS, MAX_SLOTS};

const CHECKS: &str = "checks.toml";
const TASKS: &str = "tasks.toml";
const RANGES_FILE: &str = "ranges.toml";
const WEAPONS: &str = "weapons.toml";
const CRITICALS: &str = "criticals.toml";
const RULES: &str = "rules.toml";
const SHIPS: &str = "ships.toml";

/// A DM on a 2D check: the rules' DMs run from -6 to +6, and a handful added
/// together stay within a few dozen of the 2 to 12 a roll makes.
const DM_WHY: &str = "a DM on a 2D check";

/// The unskilled DM.
pub const UNSKILLED: DataRange = DataRange::number(
    CHECKS,
    "unskilled",
    -10,
    0,
    "the DM for a check without the skill; the rules give -3",
);
/// A difficulty's target number.
pub const DIFFICULTY: DataRange = DataRange::number(
    CHECKS,
    "difficulty.<name>",
    0,
    30,
    "a target number for 2D plus DMs; the rules give 2 to 14",
);
/// A characteristic DM row's bounds.
pub const CHARACTERISTIC_FROM_TO: DataRange = DataRange::number(
    CHECKS,
    "characteristic-dm[<n>].from, .to",
    0,
    20,
    "characteristic values, 0 to 20 as a crew member's are",
);
/// A characteristic DM.
pub const CHARACTERISTIC_DM: DataRange =
    DataRange::number(CHECKS, "characteristic-dm[<n>].dm", -20, 20, DM_WHY);
/// A task chain row's bounds.
pub const CHAIN_FROM_TO: DataRange = DataRange::number(
    CHECKS,
    "chain.row[<n>].from, .to",
    -100,
    100,
    "Effects of a check: 2D plus DMs less a target",
);
/// A task chain DM.
pub const CHAIN_DM: DataRange = DataRange::number(CHECKS, "chain.row[<n>].dm", -20, 20, DM_WHY);
/// A reactions row's bounds.
pub const REACTIONS_FROM_TO: DataRange = DataRange::number(
    CHECKS,
    "reactions[<n>].from, .to",
    0,
    100,
    "Initiative values, from 0 as the table is printed",
);
/// Reactions a turn.
pub const REACTIONS_COUNT: DataRange = DataRange::number(
    CHECKS,
    "reactions[<n>].count",
    0,
    20,
    "reactions a ship may take in a turn; the rules give 1 to 4",
);
/// Thrust a task spends.
pub const TASK_THRUST: DataRange = DataRange::number(
    TASKS,
    "task.<task>.thrust",
    0,
    6,
    "thrust spent on the attempt; the rules give 0 or 1",
);
/// A band's attack DM.
pub const BAND_ATTACK_DM: DataRange =
    DataRange::number(RANGES_FILE, "band[<n>].attack-dm", -20, 20, DM_WHY);
/// Thrust to leave a band.
pub const BAND_THRUST: DataRange = DataRange::number(
    RANGES_FILE,
    "band[<n>].thrust",
    1,
    1000,
    "accumulated thrust that moves the ships out of the band; the rules give 1 to 50",
);
/// Missile flight time.
pub const BAND_MISSILE_FLIGHT: DataRange = DataRange::number(
    RANGES_FILE,
    "band[<n>].missile-flight",
    0,
    100,
    "rounds a salvo flies; the rules give 0 to 10",
);
/// A weapon's TL.
pub const WEAPON_TL: DataRange = DataRange::number(
    WEAPONS,
    "weapon.<weapon>.tl",
    0,
    30,
    "a Traveller technology level",
);
/// A weapon's damage dice.
pub const WEAPON_DAMAGE: DataRange = DataRange::dice(
    WEAPONS,
    "weapon.<weapon>.damage",
    1,
    100,
    "damage a hit rolls before armour and multipliers; the rules give 1D to 4D: it must be able to do 1",
);
/// A weapon's attack DM.
pub const WEAPON_ATTACK_DM: DataRange =
    DataRange::number(WEAPONS, "weapon.<weapon>.attack-dm", -10, 10, DM_WHY);
/// A weapon's armour piercing.
pub const WEAPON_AP: DataRange = DataRange::number(
    WEAPONS,
    "weapon.<weapon>.ap",
    0,
    100,
    "armour a hit ignores, at most a ship's armour",
);
/// A weapon's magazine.
pub const WEAPON_MAGAZINE: DataRange = DataRange::number(
    WEAPONS,
    "weapon.<weapon>.magazine",
    0,
    1000,
    "missiles or sand canisters a mount carries; the rules give 12 or 20",
);
/// A mount's weapons.
pub const MOUNT_CAPACITY: DataRange = DataRange::number(
    WEAPONS,
    "mount.<mount>.capacity",
    1,
    3,
    "weapons a mount holds: a triple turret's 3 at most",
);
/// A mount's damage multiplier.
pub const MOUNT_MULTIPLIER: DataRange = DataRange::number(
    WEAPONS,
    "mount.<mount>.multiplier",
    1,
    1000,
    "damage is multiplied by it; the rules give 1 to 100 for a large bay",
);
/// Identical weapons' attack DM.
pub const IDENTICAL_ATTACK_DM: DataRange =
    DataRange::number(WEAPONS, "identical.attack-dm[<n>]", -10, 10, DM_WHY);
/// Identical weapons' point defence DM.
pub const IDENTICAL_POINT_DEFENCE_DM: DataRange =
    DataRange::number(WEAPONS, "identical.point-defence-dm[<n>]", -10, 10, DM_WHY);
/// Identical weapons' damage per die.
pub const IDENTICAL_DAMAGE_PER_DIE: DataRange = DataRange::number(
    WEAPONS,
    "identical.damage-per-die[<n>]",
    0,
    10,
    "damage added per damage die for firing together; the rules give +1 per die per extra weapon: never taken away",
);
/// The Effect of a critical hit.
pub const CRITICAL_EFFECT: DataRange = DataRange::number(
    CRITICALS,
    "effect",
    0,
    30,
    "an Effect of an attack; the rules give 6",
);
/// Damage per severity.
pub const DAMAGE_PER_SEVERITY: DataRange = DataRange::number(
    CRITICALS,
    "damage-per-severity",
    1,
    1000,
    "damage divided by it gives a critical hit's severity; the rules give 10",
);
/// The highest severity.
pub const MAX_SEVERITY: DataRange = DataRange::number(
    CRITICALS,
    "max-severity",
    1,
    6,
    "severities the location tables give; the rules give 6",
);
/// Sustained damage.
pub const SUSTAINED_PERCENT: DataRange = DataRange::number(
    CRITICALS,
    "sustained-percent",
    1,
    100,
    "a percentage of starting hull; the rules give 10",
);
/// Repair DM per severity.
pub const REPAIR_DM_PER_SEVERITY: DataRange = DataRange::number(
    CRITICALS,
    "repair-dm-per-severity",
    -6,
    0,
    "a DM per severity on a repair check; the rules give -1",
);
/// A location's roll.
pub const LOCATION_ROLL: DataRange = DataRange::number(
    CRITICALS,
    "location[<n>].roll",
    2,
    12,
    "a 2D roll on the location table",
);
/// A severity row's check DM.
pub const SEVERITY_CHECK_DM: DataRange = DataRange::number(
    CRITICALS,
    "location[<n>].severity[<n>].check-dm",
    -10,
    10,
    DM_WHY,
);
/// A severity row's thrust loss.
pub const SEVERITY_THRUST: DataRange = DataRange::number(
    CRITICALS,
    "location[<n>].severity[<n>].thrust",
    -12,
    0,
    "thrust lost, at most a ship's thrust",
);
/// A severity row's hull damage.
pub const SEVERITY_HULL_DAMAGE: DataRange = DataRange::dice(
    CRITICALS,
    "location[<n>].severity[<n>].hull-damage",
    1,
    100,
    "hull damage a critical hit does; the rules give 1D to 6D: it must be able to do 1",
);
/// A severity row's armour loss, as a number.
pub const SEVERITY_ARMOUR_LOSS: DataRange = DataRange::number(
    CRITICALS,
    "location[<n>].severity[<n>].armour-loss",
    0,
    100,
    "armour lost, at most a ship's armour",
);
/// A severity row's armour loss, as dice.
pub const SEVERITY_ARMOUR_LOSS_DICE: DataRange = DataRange::dice(
    CRITICALS,
    "location[<n>].severity[<n>].armour-loss",
    1,
    100,
    "armour lost; the rules give 1D3 to 2D, at most a ship's armour: it must be able to take 1",
);
/// A severity row's Hull severity.
pub const SEVERITY_HULL_SEVERITY: DataRange = DataRange::number(
    CRITICALS,
    "location[<n>].severity[<n>].hull-severity",
    0,
    6,
    "severities added to the Hull location, at most the highest severity",
);
/// The near-object starting band table's rows.
pub const NEAR_OBJECT_FROM_TO: DataRange = DataRange::number(
    RULES,
    "setup.near-object[<n>].from, .to",
    1,
    6,
    "faces of the d6 rolled: the rows cover 1 to 6, no more, without gap or overlap",
);
/// Initiative lost per extra reaction.
pub const BURN: DataRange = DataRange::number(
    RULES,
    "initiative.burn",
    -10,
    0,
    "Initiative lost per reaction beyond the allowance; the rules give -2",
);
/// The DM an Aim action gives.
pub const AIM_DM: DataRange = DataRange::number(
    RULES,
    "aim.dm",
    0,
    10,
    "a DM per Aim action; the rules give +2",
);
/// Aim actions before firing.
pub const AIM_MAX: DataRange = DataRange::number(
    RULES,
    "aim.max",
    0,
    10,
    "Aim actions before firing; the rules give 3",
);
/// The overcharge limit.
pub const OVERCHARGE_MAX_MULTIPLE: DataRange = DataRange::number(
    RULES,
    "overcharge.max-multiple",
    1,
    10,
    "thrust is kept below this multiple of the ship's; the rules give 2",
);
/// Overcharge: one hit.
pub const OVERCHARGE_ONE_HIT_AT: DataRange = DataRange::number(
    RULES,
    "overcharge.one-hit-at",
    -20,
    0,
    "an Effect of the Pilot's check; the rules give -4",
);
/// Overcharge: two hits.
pub const OVERCHARGE_TWO_HITS_AT: DataRange = DataRange::number(
    RULES,
    "overcharge.two-hits-at",
    -20,
    0,
    "an Effect of the Pilot's check, not above one-hit-at; the rules give -6",
);
/// DM per extra missile.
pub const PER_EXTRA_MISSILE: DataRange = DataRange::number(
    RULES,
    "missiles.per-extra-missile",
    0,
    10,
    "a DM per missile beyond the first; the rules give +1",
);
/// TL difference DM, least.
pub const TL_DM_MIN: DataRange = DataRange::number(
    RULES,
    "missiles.tl-dm-min",
    -10,
    10,
    "a DM, not above tl-dm-max; the rules give +1",
);
/// TL difference DM, most.
pub const TL_DM_MAX: DataRange = DataRange::number(
    RULES,
    "missiles.tl-dm-max",
    -10,
    10,
    "a DM, not below tl-dm-min; the rules give +6",
);
/// The house-rule multiplier at Effect 0.
pub const ZERO_EFFECT_MULTIPLIER: DataRange = DataRange::number(
    RULES,
    "missiles.zero-effect-multiplier",
    0,
    10,
    "multiplies one missile's damage at Effect 0, as an Effect would; the rules give 0",
);
/// Sand's damage reduction.
pub const SAND_REDUCTION: DataRange = DataRange::dice(
    RULES,
    "sand.reduction",
    1,
    100,
    "damage a sandcaster's sand stops; the rules give 1D: it must be able to stop 1",
);
/// A ship's displacement.
pub const SHIP_TONS: DataRange = DataRange::number(
    SHIPS,
    "<ship>.tons",
    10,
    100_000,
    "displacement tons, from a small craft to a capital ship",
);
/// A ship's TL.
pub const SHIP_TL: DataRange =
    DataRange::number(SHIPS, "<ship>.tl", 0, 30, "a Traveller technology level");
/// A ship's hull points.
pub const SHIP_HULL: DataRange = DataRange::number(
    SHIPS,
    "<ship>.hull",
    1,
    40_000,
    "hull points, about tons / 2.5: a ship needs at least 1",
);
/// A ship's armour.
pub const SHIP_ARMOUR: DataRange = DataRange::number(
    SHIPS,
    "<ship>.armour",
    0,
    100,
    "armour points taken from each hit's damage",
);
/// A ship's thrust.
pub const SHIP_THRUST: DataRange =
    DataRange::number(SHIPS, "<ship>.thrust", 0, 12, "an M-drive's thrust rating");
/// A ship's jump rating.
pub const SHIP_JUMP: DataRange =
    DataRange::number(SHIPS, "<ship>.jump", 0, 9, "a J-drive's jump rating");
/// A ship's sensors DM.
pub const SHIP_SENSORS_DM: DataRange = DataRange::number(SHIPS, "<ship>.sensors-dm", -6, 6, DM_WHY);
/// A crew member's skill level.
pub const CREW_SKILL: DataRange = DataRange::number(
    SHIPS,
    "<ship>.crew[<n>].skills.<skill>",
    0,
    6,
    "a skill level, added to checks as a DM",
);
/// A crew member's characteristic.
pub const CREW_CHARACTERISTIC: DataRange = DataRange::number(
    SHIPS,
    "<ship>.crew[<n>].characteristics.<characteristic>",
    0,
    20,
    "a characteristic value; the rules give 2 to 15 for people",
);

/// Every documented range of the data, in the order the rules note lists
/// them; the validator checks each value through one of them.
pub const RANGES: &[DataRange] = &[
    UNSKILLED,
    DIFFICULTY,
    CHARACTERISTIC_FROM_TO,
    CHARACTERISTIC_DM,
    CHAIN_FROM_TO,
    CHAIN_DM,
    REACTIONS_FROM_TO,
    REACTIONS_COUNT,
    TASK_THRUST,
    BAND_ATTACK_DM,
    BAND_THRUST,
    BAND_MISSILE_FLIGHT,
    WEAPON_TL,
    WEAPON_DAMAGE,
    WEAPON_ATTACK_DM,
    WEAPON_AP,
    WEAPON_MAGAZINE,
    MOUNT_CAPACITY,
    MOUNT_MULTIPLIER,
    IDENTICAL_ATTACK_DM,
    IDENTICAL_POINT_DEFENCE_DM,
    IDENTICAL_DAMAGE_PER_DIE,
    CRITICAL_EFFECT,
    DAMAGE_PER_SEVERITY,
    MAX_SEVERITY,
    SUSTAINED_PERCENT,
    REPAIR_DM_PER_SEVERITY,
    LOCATION_ROLL,
    SEVERITY_CHECK_DM,
    SEVERITY_THRUST,
    SEVERITY_HULL_DAMAGE,
    SEVERITY_ARMOUR_LOSS,
    SEVERITY_ARMOUR_LOSS_DICE,
    SEVERITY_HULL_SEVERITY,
    NEAR_OBJECT_FROM_TO,
    BURN,
    AIM_DM,
    AIM_MAX,
    OVERCHARGE_MAX_MULTIPLE,
    OVERCHARGE_ONE_HIT_AT,
    OVERCHARGE_TWO_HITS_AT,
    PER_EXTRA_MISSILE,
    TL_DM_MIN,
    TL_DM_MAX,
    ZERO_EFFECT_MULTIPLIER,
    SAND_REDUCTION,
    SHIP_TONS,
    SHIP_TL,
    SHIP_HULL,
    SHIP_ARMOUR,
    SHIP_THRUST,
    SHIP_JUMP,
    SHIP_SENSORS_DM,
    CREW_SKILL,
    CREW_CHARACTERISTIC,
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawChecks {
    unskilled: i64,
    difficulty: BTreeMap<String, i64>,
    characteristic_dm: Vec<RawDmRow>,
    chain: RawChain,
    reactions: Vec<RawCountRow>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawDmRow {
    #[serde(default)]
    from: Option<i64>,
    #[serde(default)]
    to: Option<i64>,
    dm: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawChain {
    mode: String,
    row: Vec<RawDmRow>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCountRow {
    #[serde(default)]
    from: Option<i64>,
    #[serde(default)]
    to: Option<i64>,
    count: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTasks {
    skills: BTreeMap<String, String>,
    task: BTreeMap<String, RawTask>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTask {
    name: String,
    position: String,
    #[serde(default)]
    skills: Vec<String>,
    #[serde(default)]
    mount_skill: bool,
    characteristics: Vec<String>,
    difficulty: String,
    #[serde(default)]
    thrust: i64,
    groups: Vec<String>,
    #[serde(default)]
    sensors_dm: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRanges {
    band: Vec<RawBand>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBand {
    id: String,
    name: String,
    distance: String,
    attack_dm: i64,
    thrust: i64,
    missile_flight: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawWeapons {
    weapon: BTreeMap<String, RawWeapon>,
    mount: BTreeMap<String, RawMountKind>,
    identical: RawIdentical,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawWeapon {
    name: String,
    tl: i64,
    kind: String,
    range: String,
    #[serde(default)]
    damage: Option<String>,
    #[serde(default)]
    attack_dm: i64,
    #[serde(default)]
    point_defence: bool,
    #[serde(default)]
    sand_stops: bool,
    #[serde(default)]
    ap: i64,
    #[serde(default)]
    smart: bool,
    #[serde(default)]
    magazine: i64,
    source: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawMountKind {
    capacity: i64,
    multiplier: i64,
    skill: String,
    #[serde(default)]
    pilot: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawIdentical {
    attack_dm: Vec<i64>,
    point_defence_dm: Vec<i64>,
    damage_per_die: Vec<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCriticals {
    effect: i64,
    damage_per_severity: i64,
    max_severity: i64,
    sustained_percent: i64,
    repair_dm_per_severity: i64,
    location: Vec<RawLocation>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLocation {
    roll: i64,
    id: String,
    name: String,
    #[serde(default)]
    repair_skill: Option<String>,
    severity: Vec<RawSeverity>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSeverity {
    text: String,
    #[serde(default)]
    check_dm: Option<i64>,
    #[serde(default)]
    checks: Option<String>,
    #[serde(default)]
    thrust: Option<i64>,
    #[serde(default)]
    thrust_zero: bool,
    #[serde(default)]
    max_band: Option<String>,
    #[serde(default)]
    disables: Option<String>,
    #[serde(default)]
    no_jump: bool,
    #[serde(default)]
    hull_damage: Option<String>,
    #[serde(default)]
    armour_loss: Option<String>,
    #[serde(default)]
    hull_severity: Option<i64>,
    #[serde(default)]
    weapon: Option<String>,
    #[serde(default)]
    repairable: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawRules {
    setup: RawSetup,
    initiative: RawInitiative,
    aim: RawAim,
    overcharge: RawOvercharge,
    missiles: RawMissiles,
    sand: RawSand,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSetup {
    random_encounter: String,
    near_object: Vec<RawBandRow>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawBandRow {
    #[serde(default)]
    from: Option<i64>,
    #[serde(default)]
    to: Option<i64>,
    band: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawInitiative {
    tactics: String,
    burn: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawAim {
    dm: i64,
    max: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOvercharge {
    max_multiple: i64,
    one_hit_at: i64,
    two_hits_at: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawMissiles {
    attack: String,
    per_extra_missile: i64,
    tl_dm_min: i64,
    tl_dm_max: i64,
    smart_lost_at: Vec<String>,
    zero_effect_multiplier: i64,
    cap_at_missiles: bool,
    armour: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSand {
    reduction: String,
    add_effect: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawShip {
    name: String,
    source: String,
    #[serde(default)]
    notes: Option<String>,
    tons: i64,
    tl: i64,
    hull: i64,
    armour: i64,
    thrust: i64,
    jump: i64,
    sensors: String,
    sensors_dm: i64,
    mount: Vec<RawMount>,
    crew: Vec<RawCrew>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawMount {
    id: String,
    kind: String,
    weapons: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCrew {
    name: String,
    positions: Vec<String>,
    #[serde(default)]
    skills: BTreeMap<String, i64>,
    characteristics: BTreeMap<String, i64>,
}

/// Validates a set of files into the rules, reporting every problem found.
pub fn load(files: &[SourceFile]) -> Result<Rules, DataErrors> {
    let mut problems = DataProblems::default();
    let sources = Sources::check(
        files,
        <crate::Crew2d6 as broadside_core::kit::System>::EMBEDDED,
        "a crew-2d6",
        &mut problems,
    );
    let checks: Option<RawChecks> = sources.parse("checks.toml", &mut problems);
    let tasks: Option<RawTasks> = sources.parse("tasks.toml", &mut problems);
    let ranges: Option<RawRanges> = sources.parse("ranges.toml", &mut problems);
    let weapons: Option<RawWeapons> = sources.parse("weapons.toml", &mut problems);
    let criticals: Option<RawCriticals> = sources.parse("criticals.toml", &mut problems);
    let rules: Option<RawRules> = sources.parse("rules.toml", &mut problems);
    let ships: Option<BTreeMap<String, RawShip>> = sources.parse("ships.toml", &mut problems);

    // Files refer to one another, so cross-checks wait until every file has
    // been read: a syntax error in one file is reported alone, not echoed by
    // every reference to what it failed to define.
    let (
        Some(checks),
        Some(tasks),
        Some(ranges),
        Some(weapons),
        Some(criticals),
        Some(rules),
        Some(ships),
    ) = (checks, tasks, ranges, weapons, criticals, rules, ships)
    else {
        return Err(problems.stop());
    };

    let mut v = Validator {
        problems,
        sources,
        difficulties: Vec::new(),
        skills: Vec::new(),
    };
    let checks = v.checks(checks);
    let skills = v.skills(&tasks.skills);
    v.skills = skills.clone();
    let tasks = v.tasks(tasks.task);
    let bands = v.bands(ranges);
    let (weapons, mount_kinds, identical) = v.weapons(weapons);
    let criticals = v.criticals(criticals);
    let constants = v.constants(rules);
    let ships = v.ships(ships, &weapons, &mount_kinds);
    let Validator {
        problems,
        difficulties,
        ..
    } = v;
    let (unskilled, characteristic_dm, chain_mode, chain, reactions) = checks;
    let characteristic_dms = (0..=u8::MAX)
        .map(|value| characteristic_dm.value(i32::from(value)))
        .collect();
    problems.finish(Rules {
        difficulties,
        unskilled,
        characteristic_dm,
        characteristic_dms,
        chain_mode,
        chain,
        reactions,
        skills,
        tasks,
        bands,
        weapons,
        mount_kinds,
        identical,
        criticals,
        ships,
        constants,
    })
}

/// The validation state: problems found so far and what later files refer to.
struct Validator<'a> {
    problems: DataProblems,
    /// The files, searched for the line of a faulty key.
    sources: Sources<'a>,
    difficulties: Vec<(String, i32)>,
    skills: Vec<Skill>,
}

type CheckTables = (i32, RowTable<i32>, ChainMode, RowTable<i32>, RowTable<u8>);

impl Validator<'_> {
    /// A problem of a key, with the key's line when it is found.
    fn push(&mut self, file: &str, key: impl Into<String>, message: impl Into<String>) {
        let lines = self.sources.lines(file);
        self.problems.push_at(file, &lines, key, message);
    }

    /// A number checked against its documented range; an out-of-range value
    /// is reported and clamped so validation can go on. Every range fits an
    /// `i32`, so the cast after clamping is exact.
    fn check(&mut self, range: &DataRange, key: &str, value: i64) -> i32 {
        let lines = self.sources.lines(range.file);
        self.problems.check(range, &lines, key, value) as i32
    }

    /// A dice expression checked against its documented range.
    fn dice(&mut self, range: &DataRange, key: &str, text: &str) -> DiceExpr {
        let lines = self.sources.lines(range.file);
        self.problems
            .check_dice(range, &lines, key, text, FALLBACK_DICE)
    }

    fn band(&mut self, file: &str, key: &str, id: &str) -> Band {
        Band::from_id(id).unwrap_or_else(|| {
            self.push(
                file,
                key,
                format!(
                    "unknown range band '{id}' (known: {})",
                    crate::model::BAND_IDS.join(", ")
                ),
            );
            Band::Distant
        })
    }

    fn difficulty(&mut self, file: &str, key: &str, name: &str) -> i32 {
        match self.difficulties.iter().find(|(n, _)| n == name) {
            Some((_, target)) => *target,
            None => {
                let known = self.difficulties.iter().map(|(n, _)| n.as_str());
                let message = unknown("difficulty", name, known);
                self.push(file, key, message);
                8
            }
        }
    }

    fn skill(&mut self, file: &str, key: &str, id: &str) -> SkillId {
        match self.skills.iter().position(|s| s.id == id) {
            Some(i) => i as SkillId,
            None => {
                self.unknown_skill(file, key, id);
                0
            }
        }
    }

    fn unknown_skill(&mut self, file: &str, key: &str, id: &str) {
        let known: Vec<&str> = self.skills.iter().map(|s| s.id.as_str()).collect();
        self.push(
            file,
            key,
            format!(
                "unknown skill '{id}': the system has no such skill (known: {})",
                known.join(", ")
            ),
        );
    }

    fn group(&mut self, file: &str, key: &str, id: &str) -> Groups {
        if id == "all" {
            return ALL_GROUPS;
        }
        match Group::from_id(id) {
            Some(g) => g.bit(),
            None => {
                let known: Vec<&str> = Group::ALL.iter().map(|g| g.id()).collect();
                self.push(
                    file,
                    key,
                    format!(
                        "unknown check group '{id}' (known: all, {})",
                        known.join(", ")
                    ),
                );
                0
            }
        }
    }

    /// Validates an ordered table of rows read by number: each bound within
    /// `bound`, no row runs backwards, each follows the last without gap or
    /// overlap, the first reaches down to `low` (or is open below when `low`
    /// is `None`) and the last up to `high` (or is open above). A table with
    /// both ends (a die's faces) gives both: it covers them and no more.
    fn rows<T: Copy>(
        &mut self,
        key: &str,
        bound: &DataRange,
        raw: Vec<(Option<i64>, Option<i64>, T)>,
        low: Option<i64>,
        high: Option<i64>,
    ) -> RowTable<T> {
        let file = bound.file;
        let raw: Vec<_> = raw
            .into_iter()
            .enumerate()
            .map(|(i, (from, to, value))| {
                let from =
                    from.map(|f| i64::from(self.check(bound, &format!("{key}[{i}].from"), f)));
                let to = to.map(|t| i64::from(self.check(bound, &format!("{key}[{i}].to"), t)));
                (from, to, value)
            })
            .collect();
        if let (Some(l), Some(h)) = (low, high) {
            if raw.first().is_some_and(|r| r.0.is_none()) {
                self.push(
                    file,
                    format!("{key}[0].from"),
                    format!("missing: the table starts at {l}"),
                );
            }
            if let Some(last) = raw.len().checked_sub(1)
                && raw[last].1.is_none()
            {
                self.push(
                    file,
                    format!("{key}[{last}].to"),
                    format!("missing: the table ends at {h}"),
                );
            }
        }
        // Every bound is within `bound`, whose limits fit an i32.
        let narrow = |n: i64| n as i32;
        let mut rows: Vec<Row<T>> = Vec::with_capacity(raw.len());
        for (i, (from, to, value)) in raw.into_iter().enumerate() {
            if let (Some(f), Some(t)) = (from, to)
                && f > t
            {
                self.push(
                    file,
                    format!("{key}[{i}]"),
                    format!("{f}-{t} runs backwards"),
                );
            }
            if let Some(prev) = rows.last() {
                match (prev.to, from) {
                    (None, _) => self.push(
                        file,
                        format!("{key}[{i}]"),
                        "follows a row that is open above (overlap)",
                    ),
                    (Some(_), None) => self.push(
                        file,
                        format!("{key}[{i}].from"),
                        "missing: only the first row may be open below",
                    ),
                    (Some(p), Some(f)) if i64::from(p) + 1 < f => self.push(
                        file,
                        format!("{key}[{i}].from"),
                        format!("gap: no row covers {}-{}", p + 1, f - 1),
                    ),
                    (Some(p), Some(f)) if i64::from(p) + 1 > f => self.push(
                        file,
                        format!("{key}[{i}].from"),
                        format!("{f} overlaps the row before (which ends at {p})"),
                    ),
                    _ => {}
                }
            }
            rows.push(Row {
                from: from.map(narrow),
                to: to.map(narrow),
                value,
            });
        }
        match (rows.first(), low) {
            (None, _) => self.push(file, key, "the table has no rows"),
            (Some(first), None) if first.from.is_some() => self.push(
                file,
                format!("{key}[0].from"),
                "the first row must be open below (give no `from`)",
            ),
            (Some(first), Some(l)) if first.from.is_some_and(|f| i64::from(f) > l) => self.push(
                file,
                format!("{key}[0].from"),
                format!("the table must start at {l} or below"),
            ),
            _ => {}
        }
        match (rows.last(), high) {
            (Some(last), None) if last.to.is_some() => self.push(
                file,
                format!("{key}[{}].to", rows.len() - 1),
                "the last row must be open above (give no `to`)",
            ),
            (Some(last), Some(h)) if last.to.is_some_and(|t| i64::from(t) < h) => self.push(
                file,
                format!("{key}[{}].to", rows.len() - 1),
                format!("the table must reach {h}"),
            ),
            _ => {}
        }
        RowTable { rows }
    }

    fn checks(&mut self, raw: RawChecks) -> CheckTables {
        const FILE: &str = "checks.toml";
        let unskilled = self.check(&UNSKILLED, "unskilled", raw.unskilled);
        let mut difficulties: Vec<(String, i32)> = Vec::new();
        for (name, target) in raw.difficulty {
            let t = self.check(&DIFFICULTY, &format!("difficulty.{name}"), target);
            difficulties.push((name, t));
        }
        difficulties.sort_by_key(|&(_, t)| t);
        for name in ["simple", "average", "difficult"] {
            if !difficulties.iter().any(|(n, _)| n == name) {
                self.push(
                    FILE,
                    format!("difficulty.{name}"),
                    "missing: the rules name this difficulty",
                );
            }
        }
        self.difficulties = difficulties;
        let dm_rows = |rows: Vec<RawDmRow>, v: &mut Validator<'_>, range: &DataRange, key: &str| {
            rows.into_iter()
                .enumerate()
                .map(|(i, r)| {
                    let dm = v.check(range, &format!("{key}[{i}].dm"), r.dm);
                    (r.from, r.to, dm)
                })
                .collect::<Vec<_>>()
        };
        let raw_dm = dm_rows(
            raw.characteristic_dm,
            self,
            &CHARACTERISTIC_DM,
            "characteristic-dm",
        );
        let characteristic_dm = self.rows(
            "characteristic-dm",
            &CHARACTERISTIC_FROM_TO,
            raw_dm,
            Some(0),
            None,
        );
        let chain_mode = match raw.chain.mode.as_str() {
            "table" => ChainMode::Table,
            "effect" => ChainMode::Effect,
            other => {
                self.push(
                    FILE,
                    "chain.mode",
                    format!("'{other}' is neither \"table\" nor \"effect\""),
                );
                ChainMode::Table
            }
        };
        let raw_chain = dm_rows(raw.chain.row, self, &CHAIN_DM, "chain.row");
        let chain = self.rows("chain.row", &CHAIN_FROM_TO, raw_chain, None, None);
        let raw_reactions = raw
            .reactions
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let count = self.check(&REACTIONS_COUNT, &format!("reactions[{i}].count"), r.count);
                (r.from, r.to, count as u8)
            })
            .collect();
        // The table starts at Initiative 0, as printed; a lower Initiative
        // reads the first row.
        let reactions = self.rows(
            "reactions",
            &REACTIONS_FROM_TO,
            raw_reactions,
            Some(0),
            None,
        );
        (unskilled, characteristic_dm, chain_mode, chain, reactions)
    }

    fn skills(&mut self, raw: &BTreeMap<String, String>) -> Vec<Skill> {
        if raw.is_empty() {
            self.push("tasks.toml", "skills", "no skills");
        }
        if raw.len() > 200 {
            self.push("tasks.toml", "skills", "too many skills");
        }
        raw.iter()
            .take(200)
            .map(|(id, name)| Skill {
                id: id.clone(),
                name: name.clone(),
            })
            .collect()
    }

    fn tasks(&mut self, mut raw: BTreeMap<String, RawTask>) -> Vec<TaskDef> {
        const FILE: &str = "tasks.toml";
        let mut out = Vec::with_capacity(Task::ALL.len());
        for task in Task::ALL {
            let id = task.id();
            let Some(t) = raw.remove(id) else {
                self.push(
                    FILE,
                    format!("task.{id}"),
                    "missing: the rules code makes this check",
                );
                out.push(TaskDef {
                    task,
                    name: id.to_owned(),
                    position: String::new(),
                    skills: Vec::new(),
                    mount_skill: false,
                    characteristics: vec![Characteristic::Int],
                    difficulty_name: "average".into(),
                    difficulty: 8,
                    thrust: 0,
                    groups: 0,
                    sensors_dm: false,
                });
                continue;
            };
            let key = |field: &str| format!("task.{id}.{field}");
            let skills: Vec<SkillId> = t
                .skills
                .iter()
                .enumerate()
                .map(|(i, s)| self.skill(FILE, &format!("task.{id}.skills[{i}]"), s))
                .collect();
            if t.mount_skill != skills.is_empty() {
                self.push(
                    FILE,
                    key("skills"),
                    "give either `skills` or `mount-skill = true`, not both or neither",
                );
            }
            let mut characteristics = Vec::new();
            for (i, c) in t.characteristics.iter().enumerate() {
                match Characteristic::from_id(c) {
                    Some(c) => characteristics.push(c),
                    None => self.push(
                        FILE,
                        format!("task.{id}.characteristics[{i}]"),
                        format!(
                            "unknown characteristic '{c}' (known: str, dex, end, int, edu, soc)"
                        ),
                    ),
                }
            }
            if characteristics.is_empty() {
                self.push(FILE, key("characteristics"), "no characteristic");
                characteristics.push(Characteristic::Int);
            }
            let difficulty = self.difficulty(FILE, &key("difficulty"), &t.difficulty);
            let thrust = self.check(&TASK_THRUST, &key("thrust"), t.thrust);
            let mut groups = 0;
            for (i, g) in t.groups.iter().enumerate() {
                groups |= self.group(FILE, &format!("task.{id}.groups[{i}]"), g);
            }
            out.push(TaskDef {
                task,
                name: t.name,
                position: t.position,
                skills,
                mount_skill: t.mount_skill,
                characteristics,
                difficulty_name: t.difficulty,
                difficulty,
                thrust,
                groups,
                sensors_dm: t.sensors_dm,
            });
        }
        for extra in raw.keys() {
            self.push(FILE, format!("task.{extra}"), "not a task of these rules");
        }
        out
    }

    fn bands(&mut self, raw: RawRanges) -> Vec<BandInfo> {
        const FILE: &str = "ranges.toml";
        if raw.band.len() != Band::ALL.len() {
            self.push(
                FILE,
                "band",
                format!(
                    "{} bands: the rules know exactly {} ({})",
                    raw.band.len(),
                    Band::ALL.len(),
                    crate::model::BAND_IDS.join(", ")
                ),
            );
        }
        let mut out = Vec::with_capacity(Band::ALL.len());
        for (i, band) in Band::ALL.into_iter().enumerate() {
            let Some(b) = raw.band.get(i) else {
                out.push(BandInfo {
                    band,
                    name: band.id().into(),
                    distance: String::new(),
                    attack_dm: 0,
                    thrust: 1,
                    missile_flight: 0,
                });
                continue;
            };
            if b.id != band.id() {
                self.push(
                    FILE,
                    format!("band[{i}].id"),
                    format!(
                        "'{}' should be '{}': bands are listed closest first",
                        b.id,
                        band.id()
                    ),
                );
            }
            out.push(BandInfo {
                band,
                name: b.name.clone(),
                distance: b.distance.clone(),
                attack_dm: self.check(
                    &BAND_ATTACK_DM,
                    &format!("band[{i}].attack-dm"),
                    b.attack_dm,
                ),
                thrust: self.check(&BAND_THRUST, &format!("band[{i}].thrust"), b.thrust),
                missile_flight: self.check(
                    &BAND_MISSILE_FLIGHT,
                    &format!("band[{i}].missile-flight"),
                    b.missile_flight,
                ) as u8,
            });
        }
        out
    }

    fn weapons(&mut self, raw: RawWeapons) -> (Vec<Weapon>, Vec<MountKind>, Identical) {
        const FILE: &str = "weapons.toml";
        let mut weapons = Vec::new();
        for (id, w) in raw.weapon {
            let key = |field: &str| format!("weapon.{id}.{field}");
            let kind = match w.kind.as_str() {
                "direct" => WeaponKind::Direct,
                "missile" => WeaponKind::Missile,
                "sandcaster" => WeaponKind::Sandcaster,
                other => {
                    self.push(
                        FILE,
                        key("kind"),
                        format!("'{other}' is not direct, missile or sandcaster"),
                    );
                    WeaponKind::Direct
                }
            };
            let damage = match (&w.damage, kind) {
                (Some(d), WeaponKind::Direct | WeaponKind::Missile) => {
                    Some(self.dice(&WEAPON_DAMAGE, &key("damage"), d))
                }
                (None, WeaponKind::Direct | WeaponKind::Missile) => {
                    self.push(FILE, key("damage"), "missing: the weapon does damage");
                    None
                }
                (Some(_), WeaponKind::Sandcaster) => {
                    self.push(FILE, key("damage"), "a sandcaster does no damage");
                    None
                }
                (None, WeaponKind::Sandcaster) => None,
            };
            let magazine = self.check(&WEAPON_MAGAZINE, &key("magazine"), w.magazine) as u16;
            if kind != WeaponKind::Direct && magazine == 0 {
                self.push(
                    FILE,
                    key("magazine"),
                    "missing: missiles and sand are carried in a magazine",
                );
            }
            if kind == WeaponKind::Direct && magazine != 0 {
                self.push(
                    FILE,
                    key("magazine"),
                    "direct-fire weapons have no magazine",
                );
            }
            if w.smart && kind != WeaponKind::Missile {
                self.push(FILE, key("smart"), "only missiles are smart");
            }
            weapons.push(Weapon {
                name: w.name,
                tl: self.check(&WEAPON_TL, &key("tl"), w.tl),
                kind,
                range: self.band(FILE, &key("range"), &w.range),
                damage,
                attack_dm: self.check(&WEAPON_ATTACK_DM, &key("attack-dm"), w.attack_dm),
                point_defence: w.point_defence,
                sand_stops: w.sand_stops,
                ap: self.check(&WEAPON_AP, &key("ap"), w.ap),
                smart: w.smart,
                magazine,
                source: w.source,
                id,
            });
        }
        if weapons.len() > usize::from(WeaponId::MAX) {
            self.push(FILE, "weapon", "too many weapons");
        }
        let mut kinds = Vec::new();
        for (id, m) in raw.mount {
            let key = |field: &str| format!("mount.{id}.{field}");
            kinds.push(MountKind {
                capacity: self.check(&MOUNT_CAPACITY, &key("capacity"), m.capacity) as u8,
                multiplier: self.check(&MOUNT_MULTIPLIER, &key("multiplier"), m.multiplier),
                skill: self.skill(FILE, &key("skill"), &m.skill),
                pilot: m.pilot,
                id,
            });
        }
        if kinds.is_empty() {
            self.push(FILE, "mount", "no mount kinds");
        }
        let mut three = |range: &DataRange, key: &str, values: Vec<i64>| -> [i32; 3] {
            if values.len() != 3 {
                self.push(
                    FILE,
                    format!("identical.{key}"),
                    format!(
                        "{} values: give one each for 1, 2 and 3 weapons",
                        values.len()
                    ),
                );
            }
            let mut out = [0; 3];
            for (i, v) in values.into_iter().take(3).enumerate() {
                out[i] = self.check(range, &format!("identical.{key}[{i}]"), v);
            }
            out
        };
        let identical = Identical {
            attack_dm: three(&IDENTICAL_ATTACK_DM, "attack-dm", raw.identical.attack_dm),
            point_defence_dm: three(
                &IDENTICAL_POINT_DEFENCE_DM,
                "point-defence-dm",
                raw.identical.point_defence_dm,
            ),
            damage_per_die: three(
                &IDENTICAL_DAMAGE_PER_DIE,
                "damage-per-die",
                raw.identical.damage_per_die,
            ),
        };
        (weapons, kinds, identical)
    }

    fn criticals(&mut self, raw: RawCriticals) -> Criticals {
        const FILE: &str = "criticals.toml";
        let max_severity = self.check(&MAX_SEVERITY, "max-severity", raw.max_severity) as u8;
        let mut locations: Vec<Option<Location>> = vec![None; crate::model::LOCATIONS];
        for (i, loc) in raw.location.into_iter().enumerate() {
            let key = |field: &str| format!("location[{i}].{field}");
            let roll = self.check(&LOCATION_ROLL, &key("roll"), loc.roll) as u8;
            let repair_skill = loc
                .repair_skill
                .as_ref()
                .map(|s| self.skill(FILE, &key("repair-skill"), s));
            if loc.severity.len() != usize::from(max_severity) {
                self.push(
                    FILE,
                    key("severity"),
                    format!(
                        "{} rows: give one for each severity 1 to {max_severity}",
                        loc.severity.len()
                    ),
                );
            }
            let mut rows = Vec::new();
            for (s, row) in loc.severity.into_iter().enumerate() {
                let rkey = |field: &str| format!("location[{i}].severity[{s}].{field}");
                let mut standing = Standing::default();
                match (row.check_dm, &row.checks) {
                    (Some(dm), Some(checks)) => {
                        let dm = self.check(&SEVERITY_CHECK_DM, &rkey("check-dm"), dm) as i8;
                        let groups = self.group(FILE, &rkey("checks"), checks);
                        for g in Group::ALL {
                            if groups & g.bit() != 0 {
                                standing.dm[g as usize] = dm;
                            }
                        }
                    }
                    (None, None) => {}
                    _ => self.push(
                        FILE,
                        rkey("check-dm"),
                        "give `check-dm` and `checks` together",
                    ),
                }
                if let Some(t) = row.thrust {
                    standing.thrust_loss =
                        -(self.check(&SEVERITY_THRUST, &rkey("thrust"), t) as i8);
                }
                standing.thrust_zero = row.thrust_zero;
                if let Some(b) = &row.max_band {
                    standing.max_band = self.band(FILE, &rkey("max-band"), b);
                }
                if let Some(g) = &row.disables {
                    standing.disables = self.group(FILE, &rkey("disables"), g);
                }
                standing.no_jump = row.no_jump;
                let hull_damage = row
                    .hull_damage
                    .as_ref()
                    .map(|d| self.dice(&SEVERITY_HULL_DAMAGE, &rkey("hull-damage"), d));
                let armour_loss = row
                    .armour_loss
                    .as_ref()
                    .map(|text| match text.parse::<i64>() {
                        Ok(n) => Amount::Fixed(self.check(
                            &SEVERITY_ARMOUR_LOSS,
                            &rkey("armour-loss"),
                            n,
                        )),
                        Err(_) => Amount::Dice(self.dice(
                            &SEVERITY_ARMOUR_LOSS_DICE,
                            &rkey("armour-loss"),
                            text,
                        )),
                    });
                let hull_severity = row.hull_severity.map_or(0, |n| {
                    self.check(&SEVERITY_HULL_SEVERITY, &rkey("hull-severity"), n) as u8
                });
                let weapon = row.weapon.as_deref().map(|w| match w {
                    "bane" => WeaponHarm::Bane,
                    "disabled" => WeaponHarm::Disabled,
                    "destroyed" => WeaponHarm::Destroyed,
                    other => {
                        self.push(
                            FILE,
                            rkey("weapon"),
                            format!("'{other}' is not bane, disabled or destroyed"),
                        );
                        WeaponHarm::Disabled
                    }
                });
                rows.push(SeverityRow {
                    text: row.text,
                    standing,
                    hull_damage,
                    armour_loss,
                    hull_severity,
                    weapon,
                    repairable: row.repairable.unwrap_or(true),
                });
            }
            let mut cumulative = vec![Standing::default()];
            for row in &rows {
                let last = cumulative[cumulative.len() - 1];
                cumulative.push(last.combine(&row.standing));
            }
            let slot = usize::from(roll - 2);
            if locations[slot].is_some() {
                self.push(
                    FILE,
                    key("roll"),
                    format!("{roll} is the roll of another location too"),
                );
            }
            locations[slot] = Some(Location {
                id: loc.id,
                name: loc.name,
                roll,
                repair_skill,
                rows,
                cumulative,
            });
        }
        let mut out = Vec::with_capacity(crate::model::LOCATIONS);
        for (slot, loc) in locations.into_iter().enumerate() {
            match loc {
                Some(loc) => out.push(loc),
                None => {
                    self.push(
                        FILE,
                        "location",
                        format!("no location for the roll of {}", slot + 2),
                    );
                    out.push(Location {
                        id: format!("roll-{}", slot + 2),
                        name: String::new(),
                        roll: slot as u8 + 2,
                        repair_skill: None,
                        rows: Vec::new(),
                        cumulative: vec![Standing::default()],
                    });
                }
            }
        }
        // Every location needs a row for every severity the code can reach,
        // so that reading a row never fails; validation reported any short one.
        for loc in &mut out {
            while loc.rows.len() < usize::from(max_severity) {
                loc.rows.push(SeverityRow {
                    text: String::new(),
                    standing: Standing::default(),
                    hull_damage: None,
                    armour_loss: None,
                    hull_severity: 0,
                    weapon: None,
                    repairable: false,
                });
                let last = loc.cumulative[loc.cumulative.len() - 1];
                loc.cumulative.push(last);
            }
        }
        let mut find = |id: &str| match out.iter().position(|l| l.id == id) {
            Some(i) => i,
            None => {
                self.push(
                    FILE,
                    "location",
                    format!("no '{id}' location: the rules code needs one"),
                );
                0
            }
        };
        let hull = find("hull");
        let m_drive = find("m-drive");
        Criticals {
            effect: self.check(&CRITICAL_EFFECT, "effect", raw.effect),
            damage_per_severity: self.check(
                &DAMAGE_PER_SEVERITY,
                "damage-per-severity",
                raw.damage_per_severity,
            ),
            max_severity,
            sustained_percent: self.check(
                &SUSTAINED_PERCENT,
                "sustained-percent",
                raw.sustained_percent,
            ),
            repair_dm_per_severity: self.check(
                &REPAIR_DM_PER_SEVERITY,
                "repair-dm-per-severity",
                raw.repair_dm_per_severity,
            ),
            locations: out,
            hull,
            m_drive,
        }
    }

    fn constants(&mut self, raw: RawRules) -> Constants {
        const FILE: &str = "rules.toml";
        let random_encounter =
            self.band(FILE, "setup.random-encounter", &raw.setup.random_encounter);
        let near_rows = raw
            .setup
            .near_object
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let band = self.band(FILE, &format!("setup.near-object[{i}].band"), &r.band);
                (r.from, r.to, band)
            })
            .collect();
        let near_object = self.rows(
            "setup.near-object",
            &NEAR_OBJECT_FROM_TO,
            near_rows,
            Some(1),
            Some(6),
        );
        let tactics_mode = match raw.initiative.tactics.as_str() {
            "effect" => ChainMode::Effect,
            "chain" => ChainMode::Table,
            other => {
                self.push(
                    FILE,
                    "initiative.tactics",
                    format!("'{other}' is neither \"effect\" nor \"chain\""),
                );
                ChainMode::Effect
            }
        };
        let mut smart_lost_at = [false; 7];
        for (i, b) in raw.missiles.smart_lost_at.iter().enumerate() {
            let band = self.band(FILE, &format!("missiles.smart-lost-at[{i}]"), b);
            smart_lost_at[band.index()] = true;
        }
        let missile_armour = match raw.missiles.armour.as_str() {
            "per-missile" => MissileArmour::PerMissile,
            "once" => MissileArmour::Once,
            other => {
                self.push(
                    FILE,
                    "missiles.armour",
                    format!("'{other}' is neither \"per-missile\" nor \"once\""),
                );
                MissileArmour::PerMissile
            }
        };
        let one_hit_at = self.check(
            &OVERCHARGE_ONE_HIT_AT,
            "overcharge.one-hit-at",
            raw.overcharge.one_hit_at,
        );
        let two_hits_at = self.check(
            &OVERCHARGE_TWO_HITS_AT,
            "overcharge.two-hits-at",
            raw.overcharge.two_hits_at,
        );
        if two_hits_at > one_hit_at {
            self.push(
                FILE,
                "overcharge.two-hits-at",
                "must not be above one-hit-at",
            );
        }
        let tl_dm_min = self.check(&TL_DM_MIN, "missiles.tl-dm-min", raw.missiles.tl_dm_min);
        let tl_dm_max = self.check(&TL_DM_MAX, "missiles.tl-dm-max", raw.missiles.tl_dm_max);
        if tl_dm_min > tl_dm_max {
            self.push(FILE, "missiles.tl-dm-min", "must not be above tl-dm-max");
        }
        Constants {
            random_encounter,
            near_object,
            tactics_mode,
            burn: self.check(&BURN, "initiative.burn", raw.initiative.burn),
            aim_dm: self.check(&AIM_DM, "aim.dm", raw.aim.dm),
            aim_max: self.check(&AIM_MAX, "aim.max", raw.aim.max) as u8,
            overcharge_max_multiple: self.check(
                &OVERCHARGE_MAX_MULTIPLE,
                "overcharge.max-multiple",
                raw.overcharge.max_multiple,
            ),
            overcharge_one_hit_at: one_hit_at,
            overcharge_two_hits_at: two_hits_at,
            missile_attack: self.difficulty(FILE, "missiles.attack", &raw.missiles.attack),
            missile_attack_name: raw.missiles.attack,
            per_extra_missile: self.check(
                &PER_EXTRA_MISSILE,
                "missiles.per-extra-missile",
                raw.missiles.per_extra_missile,
            ),
            tl_dm_min,
            tl_dm_max: tl_dm_max.max(tl_dm_min),
            smart_lost_at,
            zero_effect_multiplier: self.check(
                &ZERO_EFFECT_MULTIPLIER,
                "missiles.zero-effect-multiplier",
                raw.missiles.zero_effect_multiplier,
            ),
            cap_at_missiles: raw.missiles.cap_at_missiles,
            missile_armour,
            sand_reduction: self.dice(&SAND_REDUCTION, "sand.reduction", &raw.sand.reduction),
            sand_add_effect: raw.sand.add_effect,
        }
    }

    fn ships(
        &mut self,
        raw: BTreeMap<String, RawShip>,
        weapons: &[Weapon],
        kinds: &[MountKind],
    ) -> Vec<ShipClass> {
        const FILE: &str = "ships.toml";
        let mut out = Vec::new();
        for (id, ship) in raw {
            let key = |field: &str| format!("{id}.{field}");
            // Mounts first: gunner positions refer to them.
            let mut mounts: Vec<Mount> = Vec::new();
            let mut slots: Vec<Slot> = Vec::new();
            for (m, mount) in ship.mount.iter().enumerate() {
                let mkey = |field: &str| format!("{id}.mount[{m}].{field}");
                if mounts.iter().any(|other| other.id == mount.id) {
                    self.push(FILE, mkey("id"), format!("'{}' is used twice", mount.id));
                }
                let kind = match kinds.iter().position(|k| k.id == mount.kind) {
                    Some(k) => k,
                    None => {
                        let known = kinds.iter().map(|k| k.id.as_str());
                        self.push(
                            FILE,
                            mkey("kind"),
                            unknown("mount kind", &mount.kind, known),
                        );
                        0
                    }
                };
                let capacity = kinds.get(kind).map_or(1, |k| k.capacity);
                if mount.weapons.is_empty() {
                    self.push(FILE, mkey("weapons"), "an empty mount");
                }
                if mount.weapons.len() > usize::from(capacity) {
                    self.push(
                        FILE,
                        mkey("weapons"),
                        format!(
                            "{} weapons: a {} holds at most {capacity}",
                            mount.weapons.len(),
                            mount.kind
                        ),
                    );
                }
                let mut mount_slots = Vec::new();
                for (w, wid) in mount.weapons.iter().enumerate() {
                    match weapons.iter().position(|x| &x.id == wid) {
                        None => {
                            let known = weapons.iter().map(|x| x.id.as_str());
                            self.push(
                                FILE,
                                format!("{id}.mount[{m}].weapons[{w}]"),
                                unknown("weapon", wid, known),
                            );
                        }
                        Some(weapon) => {
                            if weapons[weapon].kind == WeaponKind::Missile
                                && kinds.get(kind).is_some_and(|k| k.multiplier != 1)
                            {
                                self.push(
                                    FILE,
                                    format!("{id}.mount[{m}].weapons[{w}]"),
                                    "missile bays and barbettes are not part of these rules: mount missiles in turrets",
                                );
                            }
                            mount_slots.push(slots.len() as u8);
                            slots.push(Slot {
                                mount: m as u8,
                                weapon: weapon as WeaponId,
                            });
                        }
                    }
                }
                mounts.push(Mount {
                    id: mount.id.clone(),
                    kind: kind as u8,
                    slots: mount_slots,
                    firer: None,
                });
            }
            if mounts.len() > MAX_MOUNTS {
                self.push(FILE, key("mount"), format!("more than {MAX_MOUNTS} mounts"));
                mounts.truncate(MAX_MOUNTS);
            }
            if slots.len() > MAX_SLOTS {
                self.push(FILE, key("mount"), format!("more than {MAX_SLOTS} weapons"));
                slots.truncate(MAX_SLOTS);
                for mount in &mut mounts {
                    mount.slots.retain(|&s| usize::from(s) < MAX_SLOTS);
                }
            }

            let mut crew = Vec::new();
            for (c, member) in ship.crew.iter().enumerate() {
                let ckey = |field: &str| format!("{id}.crew[{c}].{field}");
                let mut positions = Vec::new();
                for (p, text) in member.positions.iter().enumerate() {
                    let pkey = format!("{id}.crew[{c}].positions[{p}]");
                    let position = if let Some(mount_id) = text.strip_prefix("gunner:") {
                        match mounts.iter().position(|m| m.id == mount_id) {
                            Some(m) => Some(Position::Gunner(m as u8)),
                            None => {
                                self.push(
                                    FILE,
                                    pkey.clone(),
                                    format!("no mount '{mount_id}' on this ship"),
                                );
                                None
                            }
                        }
                    } else {
                        match Position::NAMED.iter().find(|(_, name)| name == text) {
                            Some(&(position, _)) => Some(position),
                            None => {
                                let known: Vec<&str> =
                                    Position::NAMED.iter().map(|(_, n)| *n).collect();
                                self.push(
                                    FILE,
                                    pkey.clone(),
                                    format!(
                                        "unknown position '{text}' (known: {}, gunner:<mount>)",
                                        known.join(", ")
                                    ),
                                );
                                None
                            }
                        }
                    };
                    if let Some(position) = position {
                        if positions.contains(&position) {
                            self.push(FILE, pkey, format!("'{text}' is listed twice"));
                        } else {
                            positions.push(position);
                        }
                    }
                }
                if member.positions.is_empty() {
                    self.push(FILE, ckey("positions"), "a crew member needs a position");
                }
                let mut skills = vec![None; self.skills.len()];
                for (skill, level) in &member.skills {
                    let skey = format!("{id}.crew[{c}].skills.{skill}");
                    match self.skills.iter().position(|s| &s.id == skill) {
                        None => self.unknown_skill(FILE, &skey, skill),
                        Some(s) => {
                            skills[s] = Some(self.check(&CREW_SKILL, &skey, *level) as i8);
                        }
                    }
                }
                let mut characteristics = [7u8; 6];
                for (name, value) in &member.characteristics {
                    let chkey = format!("{id}.crew[{c}].characteristics.{name}");
                    match Characteristic::from_id(name) {
                        None => self.push(
                            FILE,
                            chkey,
                            format!("unknown characteristic '{name}' (known: str, dex, end, int, edu, soc)"),
                        ),
                        Some(ch) => {
                            characteristics[ch as usize] = self.check(&CREW_CHARACTERISTIC, &chkey, *value) as u8;
                        }
                    }
                }
                for ch in Characteristic::ALL {
                    if !member.characteristics.contains_key(ch.id()) {
                        self.push(
                            FILE,
                            format!("{id}.crew[{c}].characteristics.{}", ch.id()),
                            "missing",
                        );
                    }
                }
                crew.push(CrewMember {
                    name: member.name.clone(),
                    positions,
                    skills,
                    characteristics,
                });
            }
            if crew.len() > MAX_CREW {
                self.push(
                    FILE,
                    key("crew"),
                    format!("more than {MAX_CREW} crew members"),
                );
                crew.truncate(MAX_CREW);
            }
            // Every position is held at most once, and the Captain, Pilot
            // and Sensor Operator are needed by every turn.
            let holders = |position: Position| crew.iter().filter(|m| m.holds(position)).count();
            for (position, name) in Position::NAMED {
                let n = holders(position);
                if n > 1 {
                    self.push(FILE, key("crew"), format!("{n} crew members hold {name}"));
                }
                if n == 0
                    && matches!(
                        position,
                        Position::Captain | Position::Pilot | Position::Sensors
                    )
                {
                    self.push(
                        FILE,
                        key("crew"),
                        format!("no crew member holds {name}: every ship needs one"),
                    );
                }
            }
            let pilot = crew.iter().position(|m| m.holds(Position::Pilot));
            for m in 0..mounts.len() {
                let gunners: Vec<usize> = (0..crew.len())
                    .filter(|&c| crew[c].holds(Position::Gunner(m as u8)))
                    .collect();
                let kind = &kinds[usize::from(mounts[m].kind).min(kinds.len().saturating_sub(1))];
                if kind.pilot {
                    if !gunners.is_empty() {
                        self.push(
                            FILE,
                            key("crew"),
                            format!(
                                "mount '{}' is fired by the Pilot, not a gunner",
                                mounts[m].id
                            ),
                        );
                    }
                    mounts[m].firer = pilot.map(|p| p as u8);
                } else {
                    if gunners.len() > 1 {
                        self.push(
                            FILE,
                            key("crew"),
                            format!("mount '{}' has {} gunners", mounts[m].id, gunners.len()),
                        );
                    }
                    mounts[m].firer = gunners.first().map(|&g| g as u8);
                }
            }
            // A mount holds one load of each kind of missile or sand it
            // fires, however many launchers of it share the mount (a turret
            // holds 12 missiles); the ship's loads are pooled by weapon.
            let mut magazines: Vec<(WeaponId, u16)> = Vec::new();
            for mount in &mounts {
                for (i, &s) in mount.slots.iter().enumerate() {
                    let weapon = slots[usize::from(s)].weapon;
                    let load = weapons[usize::from(weapon)].magazine;
                    let seen_in_mount = mount.slots[..i]
                        .iter()
                        .any(|&t| slots[usize::from(t)].weapon == weapon);
                    if load == 0 || seen_in_mount {
                        continue;
                    }
                    match magazines.iter_mut().find(|(w, _)| *w == weapon) {
                        Some((_, n)) => *n = n.saturating_add(load),
                        None => magazines.push((weapon, load)),
                    }
                }
            }
            if magazines.len() > MAX_MAGAZINES {
                self.push(
                    FILE,
                    key("mount"),
                    format!("more than {MAX_MAGAZINES} kinds of missile or sand"),
                );
                magazines.truncate(MAX_MAGAZINES);
            }
            out.push(ShipClass {
                name: ship.name,
                source: ship.source,
                notes: ship.notes,
                tons: self.check(&SHIP_TONS, &key("tons"), ship.tons),
                tl: self.check(&SHIP_TL, &key("tl"), ship.tl),
                hull: self.check(&SHIP_HULL, &key("hull"), ship.hull),
                armour: self.check(&SHIP_ARMOUR, &key("armour"), ship.armour),
                thrust: self.check(&SHIP_THRUST, &key("thrust"), ship.thrust),
                jump: self.check(&SHIP_JUMP, &key("jump"), ship.jump),
                sensors: ship.sensors,
                sensors_dm: self.check(&SHIP_SENSORS_DM, &key("sensors-dm"), ship.sensors_dm),
                mounts,
                slots,
                crew,
                magazines,
                id,
            });
        }
        if out.is_empty() {
            self.push(FILE, "", "no ships");
        }
        if out.len() > 255 {
            self.push(FILE, "", "too many ships");
        }
        out
    }
}

//! Reading the ruleset's TOML files and validating them into [`Rules`].
//!
//! The raw types mirror the files exactly (unknown keys are errors); the
//! validation step turns them into domain types and reports every problem it
//! finds, each with its file and key, rather than stopping at the first.

use std::collections::BTreeMap;

use broadside_core::{DataErrors, DataProblems, DataRange, FALLBACK_DICE, SourceFile};
use serde::Deserialize;

use broadside_data::{Sources, TomlLines, counted, unknown};
use toml::Spanned;

use crate::model::{
    Cell, Column, Constants, DamageRow, Defence, DefenceInfo, Effect, Loss, Rules, ShipClass,
    Weapon, WeaponId,
};

const WEAPONS: &str = "weapons.toml";
const COMBAT: &str = "combat-table.toml";
const DAMAGE: &str = "damage-table.toml";
const SHIPS: &str = "ships.toml";
const RULES: &str = "rules.toml";

/// A Damage Table roll is d100 plus a DTM or the fire modifier, each
/// from -100 to 100.
const DTM_WHY: &str = "a DTM moves a d100 roll along the Damage Table";

/// A weapon's Damage Table Modifier.
pub const DTM: DataRange = DataRange::number(WEAPONS, "<weapon>.dtm", -100, 100, DTM_WHY);
/// A fired weapon's range.
pub const RANGE: DataRange = DataRange::number(
    WEAPONS,
    "<weapon>.range",
    1,
    1000,
    "hexes a fired weapon reaches (placed weapons have none)",
);
/// A weapon's hull damage dice.
pub const HULL_DAMAGE: DataRange = DataRange::dice(
    WEAPONS,
    "<weapon>.hull-damage",
    1,
    1000,
    "hull points a hull hit does: it must be able to do 1, by ruling 52",
);
/// A Combat Table cell's chance to hit for advanced crews.
pub const CELL_ADVANCED: DataRange = DataRange::number(
    COMBAT,
    "<weapon>.<column>.advanced",
    0,
    100,
    "a percentage chance to hit",
);
/// A Combat Table cell's chance to hit for skilled crews.
pub const CELL_SKILLED: DataRange = DataRange::number(
    COMBAT,
    "<weapon>.<column>.skilled",
    0,
    100,
    "a percentage chance to hit",
);
/// The to-hit penalty for each ICM launched against a weapon.
pub const PER_ICM: DataRange = DataRange::number(
    COMBAT,
    "<weapon>.per-icm",
    -100,
    0,
    "each ICM lowers the chance to hit",
);
/// Each end of a Damage Table row.
pub const ROLLS: DataRange = DataRange::number(
    DAMAGE,
    "row[<n>].rolls",
    -99,
    200,
    "d100 plus a modifier from -100 to 100; the rows cover every roll the \
     weapons and fires can make, and the last ends at the highest",
);
/// A hull hit's damage multiplier.
pub const MULTIPLIER: DataRange = DataRange::number(
    DAMAGE,
    "row[<n>].effect.multiplier",
    1,
    10,
    "hull damage is multiplied by it (double damage is 2)",
);
/// The to-hit penalty of a damaged combat control system.
pub const PENALTY: DataRange = DataRange::number(
    DAMAGE,
    "row[<n>].effect.penalty",
    -100,
    0,
    "a damaged combat control system lowers the chance to hit",
);
/// A ship's hull points.
pub const HULL: DataRange = DataRange::number(
    SHIPS,
    "<ship>.hull",
    1,
    10_000,
    "hull points: a ship needs at least 1",
);
/// A ship's acceleration/deceleration factor.
pub const ADF: DataRange =
    DataRange::number(SHIPS, "<ship>.adf", 0, 50, "hexes of speed change a turn");
/// A ship's manoeuvre rating.
pub const MR: DataRange = DataRange::number(
    SHIPS,
    "<ship>.mr",
    0,
    50,
    "60-degree turns a turn; evasion multiplies it",
);
/// A ship's damage control rating.
pub const DCR: DataRange = DataRange::number(
    SHIPS,
    "<ship>.dcr",
    0,
    10_000,
    "repair points a Repair Turn divides",
);
/// The count after ` x` in a ship's weapon list.
pub const WEAPON_COUNT: DataRange = DataRange::number(
    SHIPS,
    "<ship>.weapons[<n>]",
    1,
    100,
    "the count after ` x`: weapon systems, or a limited weapon's supply",
);
/// The count after ` x` in a ship's defence list.
pub const DEFENCE_COUNT: DataRange = DataRange::number(
    SHIPS,
    "<ship>.defences[<n>]",
    1,
    100,
    "the count after ` x`: a masking screen's or ICMs' supply, otherwise 1",
);
/// The to-hit change per hex of range for range-diffusion weapons.
pub const RANGE_DIFFUSION_PER_HEX: DataRange = DataRange::number(
    RULES,
    "range-diffusion-per-hex",
    -100,
    0,
    "range diffusion lowers the chance to hit with each hex",
);
/// The to-hit bonus of a head-on shot.
pub const HEAD_ON: DataRange = DataRange::number(
    RULES,
    "head-on",
    0,
    100,
    "a head-on shot raises the chance to hit",
);
/// The highest to-hit roll that always hits.
pub const ALWAYS_HIT_AT_MOST: DataRange = DataRange::number(
    RULES,
    "always-hit-at-most",
    0,
    99,
    "a d100 face; below always-miss-at-least",
);
/// The lowest to-hit roll that always misses.
pub const ALWAYS_MISS_AT_LEAST: DataRange = DataRange::number(
    RULES,
    "always-miss-at-least",
    1,
    100,
    "a d100 face; above always-hit-at-most",
);
/// The to-hit change per point of an evading target's MR.
pub const EVASION_PER_MR: DataRange = DataRange::number(
    RULES,
    "evasion-per-mr",
    -100,
    0,
    "evasive manoeuvres lower the chance to hit",
);
/// The Damage Table modifier of an electrical fire.
pub const FIRE_DAMAGE_MODIFIER: DataRange = DataRange::number(
    RULES,
    "fire-damage-modifier",
    -100,
    100,
    "moves an electrical fire's d100 roll along the Damage Table",
);
/// An electrical fire's hull damage dice.
pub const FIRE_HULL_DAMAGE: DataRange = DataRange::dice(
    RULES,
    "fire-hull-damage",
    1,
    1000,
    "hull points a fire's hull hit does: it must be able to do 1, by ruling 52",
);
/// The lowest repair roll that always fails.
pub const REPAIR_ALWAYS_FAILS_AT_LEAST: DataRange =
    DataRange::number(RULES, "repair-always-fails-at-least", 0, 100, "a d100 face");
/// The lowest repair roll that leaves the system beyond repair.
pub const REPAIR_IMPOSSIBLE_AT_LEAST: DataRange = DataRange::number(
    RULES,
    "repair-impossible-at-least",
    0,
    100,
    "a d100 face, not below repair-always-fails-at-least",
);
/// The hull points a successful hull repair restores.
pub const HULL_REPAIR: DataRange = DataRange::dice(
    RULES,
    "hull-repair",
    1,
    1000,
    "hull points a repair restores: it must be able to restore 1, by ruling 52",
);
/// How many game turns apart Repair Turns come.
pub const REPAIR_TURN_EVERY: DataRange = DataRange::number(
    RULES,
    "repair-turn-every",
    1,
    100,
    "a Repair Turn follows every that many game turns",
);

/// Every number and dice expression the percentile data holds, in the order
/// the rules document lists them.
pub const RANGES: &[DataRange] = &[
    DTM,
    RANGE,
    HULL_DAMAGE,
    CELL_ADVANCED,
    CELL_SKILLED,
    PER_ICM,
    ROLLS,
    MULTIPLIER,
    PENALTY,
    HULL,
    ADF,
    MR,
    DCR,
    WEAPON_COUNT,
    DEFENCE_COUNT,
    RANGE_DIFFUSION_PER_HEX,
    HEAD_ON,
    ALWAYS_HIT_AT_MOST,
    ALWAYS_MISS_AT_LEAST,
    EVASION_PER_MR,
    FIRE_DAMAGE_MODIFIER,
    FIRE_HULL_DAMAGE,
    REPAIR_ALWAYS_FAILS_AT_LEAST,
    REPAIR_IMPOSSIBLE_AT_LEAST,
    HULL_REPAIR,
    REPAIR_TURN_EVERY,
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawWeapon {
    name: String,
    abbreviation: String,
    #[serde(default)]
    forward_firing: bool,
    #[serde(default)]
    range_diffusion: bool,
    #[serde(default)]
    moving_player_only: bool,
    #[serde(default)]
    limited_supply: bool,
    #[serde(default)]
    placed: bool,
    #[serde(default)]
    seeker: bool,
    #[serde(default)]
    laser: bool,
    #[serde(default)]
    evadable: bool,
    #[serde(default)]
    range: Option<i64>,
    dtm: i64,
    hull_damage: String,
    source: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawDefence {
    name: String,
    #[serde(default)]
    abbreviation: Option<String>,
    kind: String,
    #[allow(
        dead_code,
        reason = "kept in the data for readers; not used by the rules"
    )]
    source: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCell {
    advanced: i64,
    skilled: i64,
    #[serde(default)]
    half_damage: bool,
}

// Not `deny_unknown_fields`: serde cannot combine it with `flatten`; cells
// with unknown column names are reported by validation instead.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
struct RawCombatRow {
    #[serde(default)]
    per_icm: Option<i64>,
    #[serde(flatten)]
    cells: BTreeMap<String, RawCell>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDamageTable {
    row: Vec<RawDamageRow>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDamageRow {
    rolls: [i64; 2],
    id: String,
    text: String,
    effect: RawEffect,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum RawEffect {
    Hull { multiplier: i64 },
    Drive { loss: RawLoss },
    Steering { loss: RawLoss },
    Weapon { systems: Vec<String> },
    PowerShortCircuit,
    Defence { systems: Vec<String> },
    CombatControl { penalty: i64 },
    Navigation,
    ElectricalFire,
    DamageControl,
    DisastrousFire { penalty: i64 },
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum RawLoss {
    One,
    Half,
    All,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawShip {
    name: String,
    source: String,
    hull: i64,
    adf: i64,
    mr: i64,
    dcr: i64,
    weapons: Vec<String>,
    defences: Vec<String>,
    #[serde(default)]
    evasive: bool,
    #[serde(default)]
    station: bool,
    #[serde(default)]
    notes: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConstants {
    range_diffusion_per_hex: i64,
    head_on: i64,
    always_hit_at_most: i64,
    always_miss_at_least: i64,
    evasion_per_mr: i64,
    fire_damage_modifier: i64,
    fire_hull_damage: String,
    repair_always_fails_at_least: i64,
    repair_impossible_at_least: i64,
    hull_repair: String,
    repair_turn_every: i64,
    #[serde(default)]
    skip_destroyed_systems: bool,
    #[serde(default)]
    attracting_screen_against_icms: bool,
}

/// Validates a set of files into the rules, reporting every problem found.
pub fn load(files: &[SourceFile]) -> Result<Rules, DataErrors> {
    let mut problems = DataProblems::default();
    let sources = Sources::check(
        files,
        <crate::Percentile as broadside_core::kit::System>::EMBEDDED,
        "a percentile",
        &mut problems,
    );
    let weapons: Option<BTreeMap<String, Spanned<RawWeapon>>> =
        sources.parse("weapons.toml", &mut problems);
    let defences: Option<BTreeMap<String, RawDefence>> =
        sources.parse("defences.toml", &mut problems);
    let combat: Option<BTreeMap<String, RawCombatRow>> =
        sources.parse("combat-table.toml", &mut problems);
    let damage: Option<RawDamageTable> = sources.parse("damage-table.toml", &mut problems);
    let ships: Option<BTreeMap<String, RawShip>> = sources.parse("ships.toml", &mut problems);
    let constants: Option<RawConstants> = sources.parse("rules.toml", &mut problems);

    // Files refer to one another, so cross-checks wait until every file has
    // been read: a syntax error in one file is reported alone, not echoed by
    // every reference to what it failed to define.
    let (Some(weapons), Some(defences), Some(combat), Some(damage), Some(ships), Some(constants)) =
        (weapons, defences, combat, damage, ships, constants)
    else {
        return Err(problems.stop());
    };
    // A file that defines nothing is one problem, not one for every name
    // the other files take from it.
    if problems.none_defined(&[
        (WEAPONS, weapons.is_empty(), "weapon"),
        ("defences.toml", defences.is_empty(), "defence"),
        (SHIPS, ships.is_empty(), "ship"),
    ]) {
        return Err(problems.stop());
    }
    let text = |name: &str| sources.lines(name);
    let defences = validate_defences(defences, &mut problems);
    let (weapons, dtms_valid) = validate_weapons(
        weapons,
        combat,
        &text(WEAPONS),
        &text(COMBAT),
        &mut problems,
    );
    let modifiers_valid = dtms_valid && FIRE_DAMAGE_MODIFIER.allows(constants.fire_damage_modifier);
    let constants = validate_constants(constants, &text(RULES), &mut problems);
    let damage_table = validate_damage_table(
        damage,
        &weapons,
        &defences,
        &constants,
        modifiers_valid,
        &text(DAMAGE),
        &mut problems,
    );
    let ships = validate_ships(ships, &weapons, &text(SHIPS), &mut problems);
    problems.finish(Rules {
        weapons,
        defences,
        damage_table,
        ships,
        constants,
    })
}

fn validate_defences(
    raw: BTreeMap<String, RawDefence>,
    problems: &mut DataProblems,
) -> Vec<DefenceInfo> {
    const FILE: &str = "defences.toml";
    let mut out = Vec::new();
    for (id, defence) in &raw {
        if Defence::from_id(id).is_none() {
            let known: Vec<&str> = Defence::ALL.iter().map(|d| d.id()).collect();
            problems.push(
                FILE,
                id.as_str(),
                format!("unknown defence (the rules know {})", known.join(", ")),
            );
        }
        let expected = match Defence::from_id(id) {
            Some(Defence::ReflectiveHull) => "hull",
            Some(Defence::MaskingScreen) => "masking",
            Some(Defence::Icm) => "interceptor",
            _ => "screen",
        };
        if defence.kind != expected {
            problems.push(
                FILE,
                format!("{id}.kind"),
                format!("'{}' should be '{expected}'", defence.kind),
            );
        }
    }
    for defence in Defence::ALL {
        match raw.get(defence.id()) {
            None => problems.push(
                FILE,
                defence.id(),
                "missing: every defence of the rules needs an entry",
            ),
            Some(info) => {
                if defence != Defence::ReflectiveHull && info.abbreviation.is_none() {
                    problems.push(FILE, format!("{}.abbreviation", defence.id()), "missing");
                }
                out.push(DefenceInfo {
                    defence,
                    name: info.name.clone(),
                    abbreviation: info.abbreviation.clone(),
                });
            }
        }
    }
    out
}

/// The weapons and their Combat Table rows, and whether every DTM was in
/// its range (the Damage Table's cover is judged only against valid DTMs,
/// so that a bad DTM is blamed on its weapon alone).
fn validate_weapons(
    raw: BTreeMap<String, Spanned<RawWeapon>>,
    mut combat: BTreeMap<String, RawCombatRow>,
    text: &TomlLines<'_>,
    table_text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> (Vec<Weapon>, bool) {
    const FILE: &str = WEAPONS;
    const TABLE: &str = COMBAT;
    let mut dtms_valid = true;
    // Weapons keep the order weapons.toml lists them in, the Combat Table's
    // printed order, so that tables print as the rulebook does: a map of
    // tables forgets that order, but each entry's place in the file remains.
    let mut raw: Vec<(String, Spanned<RawWeapon>)> = raw.into_iter().collect();
    raw.sort_by_key(|(_, w)| w.span().start);
    let mut out = Vec::new();
    for (id, w) in raw {
        let w = w.into_inner();
        let key = |field: &str| format!("{id}.{field}");
        let range = match (w.placed, w.range) {
            (true, None) => 0,
            (true, Some(_)) => {
                problems.push(
                    FILE,
                    key("range"),
                    "a placed weapon attacks only in its own hex and has no range",
                );
                0
            }
            (false, Some(r)) => problems.check(&RANGE, text, &key("range"), r) as u32,
            (false, None) => {
                problems.push(FILE, key("range"), "missing");
                0
            }
        };
        if w.seeker && !w.placed {
            problems.push(
                FILE,
                key("seeker"),
                "a seeker is placed before it flies: set placed = true",
            );
        }
        let Some(row) = combat.remove(&id) else {
            problems.push(
                TABLE,
                id.as_str(),
                "missing: every weapon needs a Combat Table row",
            );
            continue;
        };
        let mut cells = [Cell {
            advanced: 0,
            skilled: 0,
            half_damage: false,
        }; Column::ALL.len()];
        for column in Column::ALL {
            let ckey = format!("{id}.{}", column.id());
            match row.cells.get(column.id()) {
                None => problems.push(TABLE, ckey, "missing cell"),
                Some(cell) => {
                    cells[column.index()] = Cell {
                        advanced: problems.check(
                            &CELL_ADVANCED,
                            table_text,
                            &format!("{ckey}.advanced"),
                            cell.advanced,
                        ) as i32,
                        skilled: problems.check(
                            &CELL_SKILLED,
                            table_text,
                            &format!("{ckey}.skilled"),
                            cell.skilled,
                        ) as i32,
                        half_damage: cell.half_damage,
                    };
                }
            }
        }
        for extra in row
            .cells
            .keys()
            .filter(|k| !Column::ALL.iter().any(|c| c.id() == k.as_str()))
        {
            problems.push(TABLE, format!("{id}.{extra}"), "not a Combat Table column");
        }
        let per_icm = row
            .per_icm
            .map(|m| problems.check(&PER_ICM, table_text, &format!("{id}.per-icm"), m) as i32);
        // A range test, never `abs()`, which overflows at i64::MIN.
        dtms_valid &= DTM.allows(w.dtm);
        let dtm = problems.check(&DTM, text, &key("dtm"), w.dtm) as i32;
        out.push(Weapon {
            hull_damage: problems.check_dice(
                &HULL_DAMAGE,
                text,
                &key("hull-damage"),
                &w.hull_damage,
                FALLBACK_DICE,
            ),
            id,
            name: w.name,
            abbreviation: w.abbreviation,
            forward_firing: w.forward_firing,
            range_diffusion: w.range_diffusion,
            moving_player_only: w.moving_player_only,
            limited_supply: w.limited_supply,
            placed: w.placed,
            seeker: w.seeker,
            laser: w.laser,
            evadable: w.evadable,
            range,
            dtm,
            per_icm,
            cells,
        });
        let _ = w.source;
    }
    for orphan in combat.keys() {
        problems.push(
            TABLE,
            orphan.as_str(),
            "a Combat Table row for a weapon not in weapons.toml",
        );
    }
    if out.len() > usize::from(WeaponId::MAX) {
        problems.push(FILE, "", "too many weapons");
    }
    (out, dtms_valid)
}

fn validate_constants(
    raw: RawConstants,
    text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> Constants {
    const FILE: &str = RULES;
    let mut check = |range: &DataRange, value: i64| problems.check(range, text, range.key, value);
    let always_hit_at_most = check(&ALWAYS_HIT_AT_MOST, raw.always_hit_at_most) as u32;
    let always_miss_at_least = check(&ALWAYS_MISS_AT_LEAST, raw.always_miss_at_least) as u32;
    let repair_always_fails_at_least = check(
        &REPAIR_ALWAYS_FAILS_AT_LEAST,
        raw.repair_always_fails_at_least,
    ) as u32;
    let repair_impossible_at_least =
        check(&REPAIR_IMPOSSIBLE_AT_LEAST, raw.repair_impossible_at_least) as u32;
    let range_diffusion_per_hex =
        check(&RANGE_DIFFUSION_PER_HEX, raw.range_diffusion_per_hex) as i32;
    let head_on = check(&HEAD_ON, raw.head_on) as i32;
    let evasion_per_mr = check(&EVASION_PER_MR, raw.evasion_per_mr) as i32;
    let fire_damage_modifier = check(&FIRE_DAMAGE_MODIFIER, raw.fire_damage_modifier) as i32;
    let repair_turn_every = check(&REPAIR_TURN_EVERY, raw.repair_turn_every) as u32;
    if always_hit_at_most >= always_miss_at_least {
        problems.push(
            FILE,
            "always-hit-at-most",
            "must be below always-miss-at-least",
        );
    }
    if repair_impossible_at_least < repair_always_fails_at_least {
        problems.push(
            FILE,
            "repair-impossible-at-least",
            "must not be below repair-always-fails-at-least",
        );
    }
    let mut dice = |range: &DataRange, value: &str| {
        problems.check_dice(range, text, range.key, value, FALLBACK_DICE)
    };
    Constants {
        range_diffusion_per_hex,
        head_on,
        always_hit_at_most,
        always_miss_at_least,
        evasion_per_mr,
        fire_damage_modifier,
        fire_hull_damage: dice(&FIRE_HULL_DAMAGE, &raw.fire_hull_damage),
        repair_always_fails_at_least,
        repair_impossible_at_least,
        hull_repair: dice(&HULL_REPAIR, &raw.hull_repair),
        repair_turn_every,
        skip_destroyed_systems: raw.skip_destroyed_systems,
        attracting_screen_against_icms: raw.attracting_screen_against_icms,
    }
}

fn validate_damage_table(
    raw: RawDamageTable,
    weapons: &[Weapon],
    defences: &[DefenceInfo],
    constants: &Constants,
    modifiers_valid: bool,
    text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> Vec<DamageRow> {
    const FILE: &str = DAMAGE;
    let mut rows = Vec::new();
    for (i, row) in raw.row.into_iter().enumerate() {
        let key = |field: &str| format!("row[{i}].{field}");
        let [from, to] = row
            .rolls
            .map(|end| problems.check(&ROLLS, text, &key("rolls"), end));
        if from > to {
            problems.push(FILE, key("rolls"), format!("[{from}, {to}] runs backwards"));
        }
        let effect = match row.effect {
            RawEffect::Hull { multiplier } => Effect::Hull {
                multiplier: problems.check(&MULTIPLIER, text, &key("effect.multiplier"), multiplier)
                    as i32,
            },
            RawEffect::Drive { loss } => Effect::Drive(loss.into()),
            RawEffect::Steering { loss } => Effect::Steering(loss.into()),
            // Abbreviations are resolved to ids here, once, so that a hit
            // in play compares small ids rather than strings.
            RawEffect::Weapon { systems } => Effect::Weapon(
                systems
                    .iter()
                    .filter_map(|s| {
                        let found = weapons.iter().position(|w| &w.abbreviation == s);
                        if found.is_none() {
                            problems.push(
                                FILE,
                                key("effect.systems"),
                                format!("'{s}' is no weapon's abbreviation"),
                            );
                        }
                        found.and_then(|i| WeaponId::try_from(i).ok())
                    })
                    .collect(),
            ),
            RawEffect::Defence { systems } => Effect::Defence(
                systems
                    .iter()
                    .filter_map(|s| {
                        let found = defences.iter().find(|d| d.abbreviation.as_ref() == Some(s));
                        if found.is_none() {
                            problems.push(
                                FILE,
                                key("effect.systems"),
                                format!("'{s}' is no defence's abbreviation"),
                            );
                        }
                        found.map(|d| d.defence)
                    })
                    .collect(),
            ),
            RawEffect::PowerShortCircuit => Effect::PowerShortCircuit,
            RawEffect::CombatControl { penalty } => Effect::CombatControl {
                penalty: problems.check(&PENALTY, text, &key("effect.penalty"), penalty) as i32,
            },
            RawEffect::Navigation => Effect::Navigation,
            RawEffect::ElectricalFire => Effect::ElectricalFire,
            RawEffect::DamageControl => Effect::DamageControl,
            RawEffect::DisastrousFire { penalty } => Effect::DisastrousFire {
                penalty: problems.check(&PENALTY, text, &key("effect.penalty"), penalty) as i32,
            },
        };
        rows.push(DamageRow {
            from: from as i32,
            to: to as i32,
            id: row.id,
            text: row.text,
            effect,
        });
    }
    // A damaged combat control system takes the same penalty whichever row
    // damaged it, so the rows that name one must agree, and one must exist.
    let penalties: Vec<(usize, i32)> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r.effect {
            Effect::CombatControl { penalty } | Effect::DisastrousFire { penalty } => {
                Some((i, penalty))
            }
            _ => None,
        })
        .collect();
    if !rows
        .iter()
        .any(|r| matches!(r.effect, Effect::CombatControl { .. }))
    {
        problems.push(FILE, "row", "no combat-control row: the table needs one");
    }
    if let Some(&(_, first)) = penalties.first() {
        for &(i, penalty) in &penalties {
            if penalty != first {
                problems.push(
                    FILE,
                    format!("row[{i}].effect.penalty"),
                    format!(
                        "{penalty} differs from {first}: every combat-control penalty must agree"
                    ),
                );
            }
        }
    }
    // Rows must follow one another without a gap or an overlap.
    for (i, pair) in rows.windows(2).enumerate() {
        let (a, b) = (&pair[0], &pair[1]);
        if b.from <= a.to {
            problems.push(
                FILE,
                format!("row[{}].rolls", i + 1),
                format!(
                    "{}-{} overlaps the row before ({}-{})",
                    b.from, b.to, a.from, a.to
                ),
            );
        } else if b.from > a.to + 1 {
            problems.push(
                FILE,
                format!("row[{}].rolls", i + 1),
                format!("gap: no row covers {}-{}", a.to + 1, b.from - 1),
            );
        }
    }
    // And cover every roll the rules can make, the last row ending at the
    // highest. The cover is judged only against modifiers in their range:
    // one out of range is reported where it is, not here as well.
    if let (Some(first), Some(last)) = (rows.first(), rows.last())
        && modifiers_valid
    {
        let lowest = 1 + weapons.iter().map(|w| w.dtm).min().unwrap_or(0).min(0);
        let highest_modifier = weapons
            .iter()
            .map(|w| w.dtm)
            .max()
            .unwrap_or(0)
            .max(constants.fire_damage_modifier);
        let highest = 100 + highest_modifier;
        if first.from > lowest {
            problems.push(
                FILE,
                "row[0].rolls",
                format!(
                    "starts at {} but a roll can be as low as {lowest}",
                    first.from
                ),
            );
        }
        if last.to < highest {
            problems.push(
                FILE,
                format!("row[{}].rolls", rows.len() - 1),
                format!("ends at {} but a roll can reach {highest}", last.to),
            );
        } else if last.to > highest {
            problems.push(
                FILE,
                format!("row[{}].rolls", rows.len() - 1),
                format!(
                    "ends at {} but no roll can pass {highest} (d100 plus the largest DTM or fire modifier)",
                    last.to
                ),
            );
        }
    } else if rows.is_empty() {
        problems.push(FILE, "row", "the table has no rows");
    }
    rows
}

impl From<RawLoss> for Loss {
    fn from(raw: RawLoss) -> Loss {
        match raw {
            RawLoss::One => Loss::One,
            RawLoss::Half => Loss::Half,
            RawLoss::All => Loss::All,
        }
    }
}

fn validate_ships(
    raw: BTreeMap<String, RawShip>,
    weapons: &[Weapon],
    text: &TomlLines<'_>,
    problems: &mut DataProblems,
) -> Vec<ShipClass> {
    const FILE: &str = SHIPS;
    let mut out = Vec::new();
    for (id, ship) in raw {
        let key = |field: &str| format!("{id}.{field}");
        let mut class_weapons = Vec::new();
        for (i, entry) in ship.weapons.iter().enumerate() {
            let wkey = format!("{id}.weapons[{i}]");
            match counted(entry) {
                Err(message) => problems.push(FILE, wkey, message),
                Ok((wid, count)) => match weapons.iter().position(|w| w.id == wid) {
                    _ if !WEAPON_COUNT.allows(count) => {
                        problems.check(&WEAPON_COUNT, text, &wkey, count);
                    }
                    None => problems.push(
                        FILE,
                        wkey,
                        unknown("weapon", wid, weapons.iter().map(|w| w.id.as_str())),
                    ),
                    Some(index) => {
                        let index = index as WeaponId;
                        if weapons[usize::from(index)].limited_supply {
                            class_weapons.push((index, Some(count as u16)));
                        } else {
                            class_weapons
                                .extend(std::iter::repeat_n((index, None), count as usize));
                        }
                    }
                },
            }
        }
        let mut class_defences = Vec::new();
        for (i, entry) in ship.defences.iter().enumerate() {
            let dkey = format!("{id}.defences[{i}]");
            match counted(entry) {
                Err(message) => problems.push(FILE, dkey, message),
                Ok((did, count)) => match Defence::from_id(did) {
                    _ if !DEFENCE_COUNT.allows(count) => {
                        problems.check(&DEFENCE_COUNT, text, &dkey, count);
                    }
                    None => problems.push(
                        FILE,
                        dkey,
                        unknown("defence", did, Defence::ALL.iter().map(|d| d.id())),
                    ),
                    Some(d @ (Defence::MaskingScreen | Defence::Icm)) => {
                        class_defences.push((d, Some(count as u16)))
                    }
                    Some(d) => {
                        if count != 1 {
                            problems.push(FILE, dkey, format!("a ship has at most one {did}"));
                        }
                        if class_defences.iter().any(|&(e, _)| e == d) {
                            problems.push(
                                FILE,
                                format!("{id}.defences"),
                                format!("{did} is listed twice"),
                            );
                        }
                        class_defences.push((d, None));
                    }
                },
            }
        }
        if class_weapons.len() > crate::ship::MAX_WEAPONS {
            problems.push(
                FILE,
                key("weapons"),
                format!("more than {} weapon systems", crate::ship::MAX_WEAPONS),
            );
            class_weapons.truncate(crate::ship::MAX_WEAPONS);
        }
        if class_defences.len() > crate::ship::MAX_DEFENCES {
            problems.push(
                FILE,
                key("defences"),
                format!("more than {} defence systems", crate::ship::MAX_DEFENCES),
            );
            class_defences.truncate(crate::ship::MAX_DEFENCES);
        }
        out.push(ShipClass {
            hull: problems.check(&HULL, text, &key("hull"), ship.hull) as i32,
            adf: problems.check(&ADF, text, &key("adf"), ship.adf) as u8,
            mr: problems.check(&MR, text, &key("mr"), ship.mr) as u8,
            dcr: problems.check(&DCR, text, &key("dcr"), ship.dcr) as u16,
            id,
            name: ship.name,
            source: ship.source,
            weapons: class_weapons,
            defences: class_defences,
            evasive: ship.evasive,
            station: ship.station,
            notes: ship.notes,
        });
    }
    if out.len() > 255 {
        problems.push(FILE, "", "too many ships");
    }
    out
}

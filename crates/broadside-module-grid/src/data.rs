//! Reading the ruleset's TOML files and validating them into [`Rules`].
//!
//! The raw types mirror the files exactly (unknown keys are errors); the
//! validation step turns them into domain types and reports every problem it
//! finds, each with its file and key, rather than stopping at the first: an
//! unknown module type in a layout, a ragged grid, a centre mark off the
//! ship, a hull check chart out of order, a number out of range.

use std::collections::BTreeMap;

use broadside_core::{DataErrors, DataProblems, SourceFile};
use serde::Deserialize;

use crate::model::{
    ClassId, Constants, Crew, Function, HullRow, MAX_MODULES, MAX_SIDE, Mode, ModeRule, Module,
    ModuleIx, ModuleType, ObjectKind, Rules, ShipClass, ShipSide, SideSet, Skill, Square, TypeId,
};
use crate::ship::MAX_CANNONS;

/// The files a module-grid ruleset consists of.
pub const FILES: [&str; 4] = [
    "modules.toml",
    "ships.toml",
    "rules.toml",
    "hull-checks.toml",
];

/// The mark of a square outside the silhouette in a layout.
pub const EMPTY_SQUARE: &str = ".";

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
    for file in files {
        if !FILES.contains(&file.name.as_str()) {
            problems.push(
                &file.name,
                "",
                format!(
                    "not a module-grid ruleset file (expected {})",
                    FILES.join(", ")
                ),
            );
        }
    }
    let modules: Option<BTreeMap<String, RawModuleType>> =
        parse(files, "modules.toml", &mut problems);
    let ships: Option<BTreeMap<String, RawShip>> = parse(files, "ships.toml", &mut problems);
    let rules: Option<RawRules> = parse(files, "rules.toml", &mut problems);
    let chart: Option<RawHullChart> = parse(files, "hull-checks.toml", &mut problems);

    // Ships refer to module types and the chart, so cross-checks wait until
    // every file has been read: a syntax error in one file is reported
    // alone, not echoed by every reference to what it failed to define.
    let (Some(modules), Some(ships), Some(rules), Some(chart)) = (modules, ships, rules, chart)
    else {
        return Err(problems
            .finish(())
            .err()
            .unwrap_or_else(|| DataErrors(Vec::new())));
    };
    let module_types = validate_module_types(modules, &mut problems);
    let (constants, modes, objects) = validate_rules(rules, &mut problems);
    let hull_chart = validate_chart(chart, &mut problems);
    let most = Rules::most(constants.hull_dice);
    let mut validated = Rules {
        module_types,
        ships: Vec::new(),
        hull_chart,
        modes,
        objects,
        constants,
    };
    validated.ships = validate_ships(ships, &validated, most, &mut problems);
    problems.finish(validated)
}

/// Parses one file, recording a missing file or a syntax error.
fn parse<T: for<'de> Deserialize<'de>>(
    files: &[SourceFile],
    name: &str,
    problems: &mut DataProblems,
) -> Option<T> {
    let file = problems.source(files, name)?;
    toml::from_str(&file.text)
        .map_err(|e| problems.unreadable(file, e.span().map(|s| s.start), e.message()))
        .ok()
}

/// A whole number checked against a range; out-of-range values are reported
/// and clamped so validation can go on.
fn ranged(problems: &mut DataProblems, file: &str, key: &str, value: i64, lo: i64, hi: i64) -> i64 {
    if !(lo..=hi).contains(&value) {
        problems.push(file, key, format!("{value} is outside {lo}..={hi}"));
    }
    value.clamp(lo, hi)
}

fn skill(problems: &mut DataProblems, file: &str, key: &str, id: &str) -> Skill {
    Skill::from_id(id).unwrap_or_else(|| {
        let known: Vec<&str> = Skill::ALL.iter().map(|s| s.id()).collect();
        problems.push(
            file,
            key,
            format!("unknown skill '{id}' (known: {})", known.join(", ")),
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
            let known: Vec<&str> = Function::ALL.iter().map(|f| f.id()).collect();
            problems.push(
                FILE,
                format!("{id}.function"),
                format!(
                    "unknown function '{}' (known: {})",
                    module.function,
                    known.join(", ")
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
    problems: &mut DataProblems,
) -> (Constants, [ModeRule; 4], Vec<ObjectKind>) {
    const FILE: &str = "rules.toml";
    let mut n =
        |key: &str, value: i64, lo: i64, hi: i64| ranged(problems, FILE, key, value, lo, hi);
    // The default tactics' odds table covers up to four dice.
    let skill_dice = n("skill-check.dice", raw.skill_check.dice, 1, 3) as u8;
    let professional_dice = n(
        "skill-check.professional-dice",
        raw.skill_check.professional_dice,
        1,
        4,
    ) as u8;
    let allocation_dice = n("allocation.dice", raw.allocation.dice, 2, 2) as u8;
    let allocation_centre = n("allocation.centre", raw.allocation.centre, 2, 12) as i32;
    let constants = Constants {
        skill_dice,
        professional_dice,
        to_hit_skill: Skill::Gunnery,
        to_hit_base: n("to-hit.base", raw.to_hit.base, -50, 50) as i32,
        to_hit_per_hex: n("to-hit.per-hex", raw.to_hit.per_hex, 0, 20) as i32,
        ooc_penalty: n("to-hit.ooc-penalty", raw.to_hit.ooc_penalty, 0, 20) as i32,
        allocation_dice,
        allocation_centre,
        breaks_at: n("module-damage.breaks-at", raw.module_damage.breaks_at, 1, 7) as u32,
        collateral_dice_break: n(
            "module-damage.collateral-dice-break",
            raw.module_damage.collateral_dice_break,
            0,
            20,
        ) as u8,
        collateral_dice: n(
            "module-damage.collateral-dice",
            raw.module_damage.collateral_dice,
            0,
            20,
        ) as u8,
        ooc_on_break: n(
            "module-damage.ooc-on-break",
            raw.module_damage.ooc_on_break,
            0,
            10,
        ) as u8,
        max_broken_markers: n(
            "module-damage.max-broken-markers",
            raw.module_damage.max_broken_markers,
            1,
            2,
        ) as u8,
        gaps_take_dice: raw.module_damage.gaps_take_dice,
        off_silhouette_hull: n(
            "off-silhouette.hull-damage",
            raw.off_silhouette.hull_damage,
            0,
            6,
        ) as u32,
        off_silhouette_ooc_at: n("off-silhouette.ooc-at", raw.off_silhouette.ooc_at, 1, 7) as u32,
        off_silhouette_ooc: n("off-silhouette.ooc", raw.off_silhouette.ooc, 0, 6) as u8,
        shields_drop: n(
            "shields.drop-per-strike",
            raw.shields.drop_per_strike,
            0,
            20,
        ) as u8,
        hull_dice: n("hull-check.dice", raw.hull_check.dice, 1, 6) as u8,
        hull_first_check: n(
            "hull-check.first-check",
            raw.hull_check.first_check,
            -50,
            50,
        ) as i32,
        stabilizer_rerolls: n(
            "hull-check.stabilizer-rerolls",
            raw.hull_check.stabilizer_rerolls,
            0,
            6,
        ) as u8,
        luck_per_reroll: n(
            "hull-check.luck-per-reroll",
            raw.hull_check.luck_per_reroll,
            1,
            10,
        ) as u8,
        crew_damage_dice: n(
            "hull-check.crew-damage-dice",
            raw.hull_check.crew_damage_dice,
            0,
            40,
        ) as u8,
        repair_skill: Skill::Engineering,
        repair_difficulty: n("repair.difficulty", raw.repair.difficulty, -50, 50) as i32,
        slagged_penalty: n("repair.slagged-penalty", raw.repair.slagged_penalty, 0, 20) as i32,
        explosion_falloff: n(
            "explosion.falloff-per-hex",
            raw.explosion.falloff_per_hex,
            1,
            20,
        ) as u8,
        docked_times: n("explosion.docked-times", raw.explosion.docked_times, 1, 4) as u8,
        microship_survival: n(
            "explosion.microship-survival",
            raw.explosion.microship_survival,
            -50,
            50,
        ) as i32,
        teleport_skill: Skill::Science,
        teleport_base: n("teleporter.base", raw.teleporter.base, -50, 50) as i32,
        bomb_dice: n("teleporter.bomb-dice", raw.teleporter.bomb_dice, 1, 6) as u8,
        missile_skill: Skill::Gunnery,
        missile_difficulty: n("missile.difficulty", raw.missile.difficulty, -50, 50) as i32,
        missile_range: n("missile.range", raw.missile.range, 0, 100) as u32,
        missile_power: n("missile.power", raw.missile.power, 0, 20) as u8,
        scans_per_science: n(
            "engagement.scans-per-science",
            raw.engagement.scans_per_science,
            0,
            6,
        ) as u8,
        ooc_recovery_skill: Skill::Piloting,
        ooc_recovery_difficulty: n(
            "engagement.ooc-recovery-difficulty",
            raw.engagement.ooc_recovery_difficulty,
            -50,
            50,
        ) as i32,
        ooc_recovery_penalised: raw.engagement.ooc_recovery_penalised,
        ooc_recovered: n(
            "engagement.ooc-recovered",
            raw.engagement.ooc_recovered,
            1,
            20,
        ) as u8,
        repairs_per_turn: n(
            "engagement.repairs-per-turn",
            raw.engagement.repairs_per_turn,
            0,
            10,
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
        let fixed_power = mode
            .fixed_power
            .map(|p| ranged(problems, FILE, &key("fixed-power"), p, 0, 20) as u8);
        modes[which.index()] = ModeRule {
            power_divisor: ranged(
                problems,
                FILE,
                &key("power-divisor"),
                mode.power_divisor,
                1,
                10,
            ) as u8,
            fixed_power,
            range_divisor: ranged(
                problems,
                FILE,
                &key("range-divisor"),
                mode.range_divisor,
                1,
                10,
            ) as u8,
            uses_guns: mode.uses_guns,
            shots_per_turn: ranged(
                problems,
                FILE,
                &key("shots-per-turn"),
                mode.shots_per_turn,
                1,
                10,
            ) as u8,
            indirect: mode.indirect,
            needs,
            falloff_per_hex: ranged(
                problems,
                FILE,
                &key("falloff-per-hex"),
                mode.falloff_per_hex.max(i64::from(mode.indirect)),
                0,
                20,
            ) as u8,
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

fn validate_chart(raw: RawHullChart, problems: &mut DataProblems) -> Vec<HullRow> {
    const FILE: &str = "hull-checks.toml";
    let mut rows: Vec<HullRow> = Vec::new();
    for (i, row) in raw.row.iter().enumerate() {
        let damage = ranged(
            problems,
            FILE,
            &format!("row[{i}].damage"),
            row.damage,
            1,
            60_000,
        );
        let check = ranged(
            problems,
            FILE,
            &format!("row[{i}].check"),
            row.check,
            1,
            100,
        );
        if let Some(before) = rows.last() {
            if damage <= i64::from(before.damage) {
                problems.push(
                    FILE,
                    format!("row[{i}].damage"),
                    format!(
                        "{damage} does not rise above the row before ({})",
                        before.damage
                    ),
                );
            }
            if check <= i64::from(before.check) {
                problems.push(
                    FILE,
                    format!("row[{i}].check"),
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
    rules: &Rules,
    most: i32,
    problems: &mut DataProblems,
) -> Vec<ShipClass> {
    const FILE: &str = "ships.toml";
    let mut out = Vec::new();
    for (id, ship) in raw {
        let key = |field: &str| format!("{id}.{field}");
        let mut n = |field: &str, value: i64, lo: i64, hi: i64| {
            ranged(problems, FILE, &key(field), value, lo, hi)
        };
        let size = n("size", ship.size, 1, 20) as u8;
        let shields = n("shields", ship.shields, 0, 20) as u8;
        let guns = n("guns", ship.guns, 0, 20) as u8;
        let speed = n("speed", ship.speed, 0, 20) as u8;
        let luck = n("luck", ship.luck, 0, 100) as u8;
        let missiles = n("missiles", ship.missiles, 0, 100) as u8;
        let bombs = n("bombs", ship.bombs, 0, 100) as u8;
        let hull_damage = n("hull-damage", ship.hull_damage, 0, 60_000) as u16;

        let (rows, cols, cells, modules, sound) =
            validate_layout(&id, &ship.layout, rules, problems);
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

        match Square::parse(&ship.centre) {
            Err(message) => problems.push(FILE, key("centre"), message),
            Ok(square) if class.module_at(square).is_none() && sound => problems.push(
                FILE,
                key("centre"),
                format!("{square} is not a module square of the layout"),
            ),
            Ok(square) => class.centre = square,
        }
        for (at, &count) in &ship.occupants {
            let okey = format!("{id}.occupants.\"{at}\"");
            let count = ranged(problems, FILE, &okey, count, 0, 20) as u8;
            match Square::parse(at) {
                Err(message) => problems.push(FILE, okey, message),
                // A layout already reported as broken would echo its own
                // problem here; squares are checked against sound layouts only.
                Ok(_) if !sound => {}
                Ok(square) => match class.module_at(square) {
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
            levels[skill as usize] = ranged(
                problems,
                FILE,
                &format!("{id}.crew.{}", skill.id()),
                value,
                -5,
                20,
            ) as i8;
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
        let cannons = class.modules_of(Function::Cannon).count_ones() as usize;
        if cannons > MAX_CANNONS {
            problems.push(
                FILE,
                key("layout"),
                format!("{cannons} Cannons: at most {MAX_CANNONS}"),
            );
        }
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
    rules: &Rules,
    problems: &mut DataProblems,
) -> Layout {
    const FILE: &str = "ships.toml";
    let mut sound = true;
    let mut report = |key: String, message: String| {
        sound = false;
        problems.push(FILE, key, message);
    };
    let rows = layout.len();
    let cols = layout.first().map_or(0, Vec::len);
    if rows == 0 || cols == 0 {
        report(format!("{id}.layout"), "the layout has no squares".into());
    }
    if rows > MAX_SIDE || cols > MAX_SIDE {
        report(
            format!("{id}.layout"),
            format!("{rows} x {cols} squares: at most {MAX_SIDE} rows and {MAX_SIDE} columns"),
        );
    }
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
    if modules.len() > MAX_MODULES {
        report(
            format!("{id}.layout"),
            format!("{} modules: at most {MAX_MODULES}", modules.len()),
        );
        modules.truncate(MAX_MODULES);
    }
    if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE || ragged {
        // The grid cannot be indexed; the rest of the ship is still
        // validated, against an empty layout, so its other problems show.
        return (0, 0, Vec::new(), Vec::new(), false);
    }
    if modules.is_empty() {
        report(format!("{id}.layout"), "the layout has no modules".into());
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

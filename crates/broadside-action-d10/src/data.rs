//! Reading the ruleset's TOML files and validating them into [`Rules`].
//!
//! The raw types mirror the files exactly (unknown keys are errors); the
//! validation step turns them into domain types and reports every problem it
//! finds, each with its file and key, rather than stopping at the first.

use std::collections::BTreeMap;

use broadside_core::{DataErrors, DataProblems, DiceExpr, Die, SourceFile};
use serde::Deserialize;

use crate::model::{
    BoxRules, Bracket, ClassId, Constants, Damage, Difficulty, Drive, Fallback, Letter, LockRules,
    Mount, MountEntry, Repairs, Rules, ShipClass, SmallCraft, SubRow, SubTable, SwarmRow,
    SwarmTable, System, TableId, ToHitRules, Weapon, WeaponId, WeaponKind,
};
use crate::ship::{MAX_BOXES, MAX_MOUNTS};

/// The files an action-d10 ruleset consists of.
pub const FILES: [&str; 4] = ["weapons.toml", "ships.toml", "tables.toml", "rules.toml"];

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
    for file in files {
        if !FILES.contains(&file.name.as_str()) {
            problems.push(
                &file.name,
                "",
                format!(
                    "not an action-d10 ruleset file (expected {})",
                    FILES.join(", ")
                ),
            );
        }
    }
    let weapons: Option<BTreeMap<String, RawWeapon>> = parse(files, WEAPONS, &mut problems);
    let ships: Option<BTreeMap<String, RawShip>> = parse(files, SHIPS, &mut problems);
    let tables: Option<RawTables> = parse(files, TABLES, &mut problems);
    let rules: Option<RawRules> = parse(files, RULES, &mut problems);

    // Files refer to one another, so cross-checks wait until every file has
    // been read: a syntax error in one file is reported alone, not echoed by
    // every reference to what it failed to define.
    let (Some(weapons), Some(ships), Some(tables), Some(rules)) = (weapons, ships, tables, rules)
    else {
        return Err(problems
            .finish(())
            .err()
            .unwrap_or_else(|| DataErrors(Vec::new())));
    };
    let weapons = validate_weapons(weapons, &mut problems);
    let (constants, difficulty, crew_deck_lost) = validate_rules(rules, &mut problems);
    let (sub_tables, repairs, swarm) =
        validate_tables(tables, difficulty, &constants, &mut problems);
    let ships = validate_ships(ships, &weapons, &mut problems);
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

/// A number checked against an inclusive range; out of range is reported
/// and clamped, so validation can go on.
fn within(problems: &mut DataProblems, file: &str, key: &str, value: i64, lo: i64, hi: i64) -> i64 {
    if !(lo..=hi).contains(&value) {
        problems.push(file, key, format!("{value} is outside {lo}..={hi}"));
    }
    value.clamp(lo, hi)
}

fn dice(problems: &mut DataProblems, file: &str, key: &str, text: &str) -> DiceExpr {
    text.parse().unwrap_or_else(|message: String| {
        problems.push(file, key, message);
        DiceExpr {
            count: 1,
            die: Die::D6,
            bonus: 0,
        }
    })
}

fn die(problems: &mut DataProblems, file: &str, key: &str, sides: i64) -> Die {
    let sides = within(problems, file, key, sides, 2, 100);
    Die::new(sides as u32).unwrap_or(Die::D6)
}

fn validate_weapons(raw: BTreeMap<String, RawWeapon>, problems: &mut DataProblems) -> Vec<Weapon> {
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
        let brackets = validate_brackets(&id, &w.brackets, kind, problems);
        let damage = match &w.damage {
            RawDamage::Fixed(n) => {
                Damage::Fixed(within(problems, WEAPONS, &key("damage"), *n, 0, 64) as u32)
            }
            RawDamage::Dice(text) => match text.parse::<u32>() {
                Ok(n) => {
                    Damage::Fixed(
                        within(problems, WEAPONS, &key("damage"), i64::from(n), 0, 64) as u32,
                    )
                }
                Err(_) => {
                    let expr = dice(problems, WEAPONS, &key("damage"), text);
                    if expr.bonus < -64 || expr.bonus > 64 {
                        problems.push(WEAPONS, key("damage"), "the bonus is outside -64..=64");
                    }
                    Damage::Dice(expr)
                }
            },
        };
        let warheads = match (kind.is_salvo(), w.warheads) {
            (true, Some(n)) => within(problems, WEAPONS, &key("warheads"), n, 1, 100) as u16,
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
                within(problems, WEAPONS, &key("swarm-size"), n, 1, 1000) as u32
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
            .map(|n| within(problems, WEAPONS, &key("shots"), n, 1, 255) as u8);
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
        let from = within(problems, WEAPONS, &bkey, from, 0, 200) as u32;
        let to = within(problems, WEAPONS, &bkey, to, 0, 200) as u32;
        if from > to {
            problems.push(WEAPONS, &bkey, format!("[{from}, {to}] runs backwards"));
        }
        let value = if kind == WeaponKind::Swarm {
            within(problems, WEAPONS, &bkey, value, -20, 20)
        } else {
            within(problems, WEAPONS, &bkey, value, 0, 20)
        } as i32;
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
    problems: &mut DataProblems,
) -> Vec<ShipClass> {
    let ids: Vec<String> = raw.keys().cloned().collect();
    let mut out = Vec::new();
    let mut rider_names: Vec<Vec<String>> = Vec::new();
    for (id, ship) in raw {
        let key = |field: &str| format!("{id}.{field}");
        let n = |problems: &mut DataProblems, field: &str, value: i64, lo: i64, hi: i64| {
            within(problems, SHIPS, &key(field), value, lo, hi)
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
                    let known: Vec<&str> = System::ALL
                        .iter()
                        .filter(|s| s.mount().is_none() && **s != System::Troops)
                        .map(|s| s.id())
                        .collect();
                    problems.push(
                        SHIPS,
                        skey,
                        format!("unknown system '{name}' (known: {})", known.join(", ")),
                    );
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
                    let hi = if SINGLE.contains(&s) { 1 } else { 50 };
                    systems[s.index()] = within(problems, SHIPS, &skey, count, 0, hi) as u8;
                }
            }
        }
        systems[System::Troops.index()] = n(problems, "troops", ship.troops, 0, 50) as u8;

        let mut mounts = Vec::new();
        for (i, entry) in ship.weapons.iter().enumerate() {
            let wkey = format!("{id}.weapons[{i}]");
            let count = within(
                problems,
                SHIPS,
                &format!("{wkey}.count"),
                entry.count.unwrap_or(1),
                1,
                16,
            );
            let bank = within(
                problems,
                SHIPS,
                &format!("{wkey}.bank"),
                entry.bank.unwrap_or(1),
                1,
                8,
            );
            match weapons.iter().position(|w| w.id == entry.weapon) {
                None => {
                    let known: Vec<&str> = weapons.iter().map(|w| w.id.as_str()).collect();
                    problems.push(
                        SHIPS,
                        format!("{wkey}.weapon"),
                        format!(
                            "unknown weapon '{}' (known: {})",
                            entry.weapon,
                            known.join(", ")
                        ),
                    );
                }
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

        let fcs = n(problems, "fcs", ship.fcs, 0, 10) as u8;
        let command_points = n(problems, "command-points", ship.command_points, 0, 10) as u8;
        let shield_per_emitter = n(
            problems,
            "shield-per-emitter",
            ship.shield_per_emitter,
            0,
            10,
        ) as u8;
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
            let count = within(problems, SHIPS, &ckey("count"), craft.count, 1, 40) as u8;
            let speed = within(problems, SHIPS, &ckey("speed"), craft.speed, 1, 20) as u32;
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
                    format!("unknown ship '{rider}' (known: {})", ids.join(", ")),
                );
            }
        }
        rider_names.push(ship.riders.iter().take(MAX_RIDERS).cloned().collect());
        out.push(ShipClass {
            size: n(problems, "size", ship.size, -5, 5) as i32,
            letters,
            track,
            command_points,
            fcs,
            stealth: n(problems, "stealth", ship.stealth, -5, 10) as i32,
            drive,
            thrust_per_thruster: n(
                problems,
                "thrust-per-thruster",
                ship.thrust_per_thruster,
                0,
                10,
            ) as u8,
            remass: n(problems, "remass", ship.remass, 0, 1000) as u16,
            cargo: n(problems, "cargo", ship.cargo, 0, 10_000) as u16,
            warheads: n(problems, "warheads", ship.warheads, 0, 1000) as u16,
            shield_per_emitter,
            systems,
            weapons: mounts,
            small_craft,
            riders: Vec::new(),
            chaff_pods: n(problems, "chaff-pods", ship.chaff_pods, 0, 20) as u8,
            antimatter_spreads: n(
                problems,
                "antimatter-spreads",
                ship.antimatter_spreads,
                0,
                20,
            ) as u8,
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
    reach: i32,
    problems: &mut DataProblems,
) -> SubTable {
    let key = |field: &str| format!("{}.{field}", id.id());
    let die = die(problems, TABLES, &key("die"), raw.die);
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
            let known: Vec<&str> = System::ALL.iter().map(|s| s.id()).collect();
            problems.push(
                TABLES,
                format!("{rkey}.result"),
                format!(
                    "unknown system '{}' (known: {})",
                    row.result,
                    known.join(", ")
                ),
            );
            System::SolarPanel
        });
        let count = row
            .count
            .as_ref()
            .map(|c| dice(problems, TABLES, &format!("{rkey}.count"), c));
        rows.push(SubRow { result, count });
    }
    let sides = die.sides() as i32;
    let highest = sides + reach;
    if rows.is_empty() {
        problems.push(TABLES, key("rows"), "the table has no rows");
        rows.push(SubRow {
            result: System::SolarPanel,
            count: None,
        });
    } else if (rows.len() as i32) < highest {
        problems.push(
            TABLES,
            key("rows"),
            format!(
                "a roll can reach {highest} but the rows stop at {}",
                rows.len()
            ),
        );
    } else if rows.len() as i32 > highest {
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
    problems: &mut DataProblems,
) -> (Vec<SubTable>, Repairs, SwarmTable) {
    let aft = constants.boxes.aft_surface_features.max(0);
    let tables = vec![
        validate_sub_table(TableId::Hangar, raw.hangar, 0, problems),
        validate_sub_table(TableId::InternalDamage, raw.internal_damage, 0, problems),
        validate_sub_table(
            TableId::SurfaceFeatures,
            raw.surface_features,
            aft,
            problems,
        ),
        validate_sub_table(TableId::CoreHit, raw.core_hit, 0, problems),
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
    let rdie = die(problems, TABLES, "repairs.die", r.die);
    let hi = i64::from(rdie.sides());
    let targets = [
        within(problems, TABLES, "repairs.easy", r.easy, 0, hi) as i32,
        within(problems, TABLES, "repairs.average", r.average, 0, hi) as i32,
        within(problems, TABLES, "repairs.hard", r.hard, 0, hi) as i32,
        within(problems, TABLES, "repairs.very-hard", r.very_hard, 0, hi) as i32,
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

    let swarm = validate_swarm(raw.swarmer_hits, problems);
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

fn validate_swarm(raw: RawSwarm, problems: &mut DataProblems) -> SwarmTable {
    const KEY: &str = "swarmer-hits";
    let mut columns = Vec::new();
    for (i, &c) in raw.columns.iter().enumerate() {
        let c = within(problems, TABLES, &format!("{KEY}.columns[{i}]"), c, 1, 1000) as u32;
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
            let h = within(
                problems,
                TABLES,
                &format!("{rkey}.hits[{j}]"),
                h,
                0,
                i64::from(size),
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

fn validate_rules(raw: RawRules, problems: &mut DataProblems) -> (Constants, RawDifficulty, i32) {
    let n = |problems: &mut DataProblems, key: &str, value: i64, lo: i64, hi: i64| {
        within(problems, RULES, key, value, lo, hi) as i32
    };
    let l = &raw.target_lock;
    let lock = LockRules {
        die: die(problems, RULES, "target-lock.die", l.die),
        target: n(problems, "target-lock.target", l.target, -20, 20),
        automatic_base: n(
            problems,
            "target-lock.automatic-base",
            l.automatic_base,
            0,
            50,
        ) as u32,
        range_step: n(problems, "target-lock.range-step", l.range_step, 1, 50) as u32,
        per_range_step: n(
            problems,
            "target-lock.per-range-step",
            l.per_range_step,
            -10,
            10,
        ),
        reaction_drive: n(
            problems,
            "target-lock.reaction-drive",
            l.reaction_drive,
            -10,
            10,
        ),
        multiple_enemies: n(
            problems,
            "target-lock.multiple-enemies",
            l.multiple_enemies,
            -10,
            10,
        ),
        nearby_reactionless_same_hex: n(
            problems,
            "target-lock.nearby-reactionless-same-hex",
            l.nearby_reactionless_same_hex,
            -10,
            10,
        ),
        nearby_reaction_same_hex: n(
            problems,
            "target-lock.nearby-reaction-same-hex",
            l.nearby_reaction_same_hex,
            -10,
            10,
        ),
        nearby_reaction_adjacent: n(
            problems,
            "target-lock.nearby-reaction-adjacent",
            l.nearby_reaction_adjacent,
            -10,
            10,
        ),
        chaff: n(problems, "target-lock.chaff", l.chaff, -10, 10),
        needs_scanners: l.needs_scanners,
    };
    let t = &raw.to_hit;
    let to_hit = ToHitRules {
        natural_miss: n(problems, "to-hit.natural-miss", t.natural_miss, 1, 10) as u32,
        thrusting_per_hex: n(
            problems,
            "to-hit.thrusting-per-hex",
            t.thrusting_per_hex,
            -10,
            10,
        ),
        warhead: n(problems, "to-hit.warhead", t.warhead, -10, 10),
        aim: n(problems, "to-hit.aim", t.aim, -10, 10),
        chaff_against_seekers: n(
            problems,
            "to-hit.chaff-against-seekers",
            t.chaff_against_seekers,
            -10,
            10,
        ),
        small_craft_size: n(
            problems,
            "to-hit.small-craft-size",
            t.small_craft_size,
            -10,
            10,
        ),
    };
    let b = &raw.damage;
    let boxes = BoxRules {
        containment_cargo: dice(
            problems,
            RULES,
            "damage.containment-cargo",
            &b.containment_cargo,
        ),
        containment_breach_cargo: dice(
            problems,
            RULES,
            "damage.containment-breach-cargo",
            &b.containment_breach_cargo,
        ),
        remass_burns: dice(problems, RULES, "damage.remass-burns", &b.remass_burns),
        remass_bleed: dice(problems, RULES, "damage.remass-bleed", &b.remass_bleed),
        magazine_warheads: dice(
            problems,
            RULES,
            "damage.magazine-warheads",
            &b.magazine_warheads,
        ),
        aft_surface_features: n(
            problems,
            "damage.aft-surface-features",
            b.aft_surface_features,
            0,
            10,
        ),
        core_hit_actions: n(
            problems,
            "damage.core-hit-actions",
            b.core_hit_actions,
            1,
            10,
        ) as u8,
    };
    let c = &raw.command;
    let constants = Constants {
        lock,
        to_hit,
        boxes,
        extra_actions: n(problems, "command.extra-actions", c.extra_actions, 0, 10) as u8,
        extra_action_cost: n(
            problems,
            "command.extra-action-cost",
            c.extra_action_cost,
            1,
            10,
        ) as u8,
        reroll_cost: n(problems, "command.reroll-cost", c.reroll_cost, 1, 10) as u8,
        launch_without_catapult: n(
            problems,
            "launch.without-catapult",
            raw.launch.without_catapult,
            1,
            40,
        ) as u8,
        boarding_hit: n(problems, "boarding.hit", raw.boarding.hit, 0, 10),
        support_bonus: n(
            problems,
            "boarding.support-bonus",
            raw.boarding.support_bonus,
            -10,
            10,
        ),
        transporter_range: n(
            problems,
            "boarding.transporter-range",
            raw.boarding.transporter_range,
            0,
            20,
        ) as u32,
        transport_per_action: n(
            problems,
            "boarding.transport-per-action",
            raw.boarding.transport_per_action,
            1,
            20,
        ) as u8,
        coordinate_range: n(
            problems,
            "coordinate-fire-control.range",
            raw.coordinate_fire_control.range,
            0,
            50,
        ) as u32,
        antimatter_kill: n(
            problems,
            "antimatter-spread.kill",
            raw.antimatter_spread.kill,
            0,
            10,
        ),
        initiative_die: die(problems, RULES, "initiative.die", raw.initiative.die),
        gravity_pull: n(problems, "gravity.pull", raw.gravity.pull, 0, 10) as u32,
        gravity_well: n(problems, "gravity.well", raw.gravity.well, 0, 20) as u32,
        crew_deck_lost: 0,
    };
    let crew = n(
        problems,
        "repair.crew-deck-lost",
        raw.repair.crew_deck_lost,
        -10,
        0,
    );
    (
        constants,
        RawDifficulty {
            entries: raw.repair.difficulty,
        },
        crew,
    )
}

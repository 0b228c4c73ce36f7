//! Reading the ruleset's TOML files and validating them into [`Rules`].
//!
//! The raw types mirror the files exactly (unknown keys are errors); the
//! validation step turns them into domain types and reports every problem it
//! finds, each with its file and key, rather than stopping at the first.

use std::collections::BTreeMap;

use broadside_core::{DataErrors, DataProblems, DiceExpr, SourceFile};
use serde::Deserialize;

use crate::model::{
    ALL_GROUPS, Amount, Band, BandInfo, ChainMode, Characteristic, Constants, CrewMember,
    Criticals, Group, Groups, Identical, Location, MissileArmour, Mount, MountKind, Position, Row,
    RowTable, Rules, SeverityRow, ShipClass, Skill, SkillId, Slot, Standing, Task, TaskDef, Weapon,
    WeaponHarm, WeaponId, WeaponKind,
};
use crate::ship::{MAX_CREW, MAX_MAGAZINES, MAX_MOUNTS, MAX_SLOTS};

/// The files a crew-2d6 ruleset consists of.
pub const FILES: [&str; 7] = [
    "checks.toml",
    "tasks.toml",
    "ranges.toml",
    "weapons.toml",
    "criticals.toml",
    "rules.toml",
    "ships.toml",
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
    for file in files {
        if !FILES.contains(&file.name.as_str()) {
            problems.push(
                &file.name,
                "",
                format!(
                    "not a crew-2d6 ruleset file (expected {})",
                    FILES.join(", ")
                ),
            );
        }
    }
    let checks: Option<RawChecks> = parse(files, "checks.toml", &mut problems);
    let tasks: Option<RawTasks> = parse(files, "tasks.toml", &mut problems);
    let ranges: Option<RawRanges> = parse(files, "ranges.toml", &mut problems);
    let weapons: Option<RawWeapons> = parse(files, "weapons.toml", &mut problems);
    let criticals: Option<RawCriticals> = parse(files, "criticals.toml", &mut problems);
    let rules: Option<RawRules> = parse(files, "rules.toml", &mut problems);
    let ships: Option<BTreeMap<String, RawShip>> = parse(files, "ships.toml", &mut problems);

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
        return Err(problems
            .finish(())
            .err()
            .unwrap_or_else(|| DataErrors(Vec::new())));
    };

    let mut v = Validator {
        problems,
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

/// The validation state: problems found so far and what later files refer to.
struct Validator {
    problems: DataProblems,
    difficulties: Vec<(String, i32)>,
    skills: Vec<Skill>,
}

type CheckTables = (i32, RowTable<i32>, ChainMode, RowTable<i32>, RowTable<u8>);

impl Validator {
    fn push(&mut self, file: &str, key: impl Into<String>, message: impl Into<String>) {
        self.problems.push(file, key, message);
    }

    /// A number that must lie in `lo..=hi`; out-of-range values are reported
    /// and clamped so validation can go on.
    fn within(&mut self, file: &str, key: &str, value: i64, lo: i64, hi: i64) -> i32 {
        if !(lo..=hi).contains(&value) {
            self.push(file, key, format!("{value} is outside {lo}..={hi}"));
        }
        value.clamp(lo, hi) as i32
    }

    fn dice(&mut self, file: &str, key: &str, text: &str) -> DiceExpr {
        text.parse().unwrap_or_else(|message: String| {
            self.push(file, key, message);
            DiceExpr {
                count: 1,
                die: broadside_core::Die::D6,
                bonus: 0,
            }
        })
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
                let known: Vec<&str> = self.difficulties.iter().map(|(n, _)| n.as_str()).collect();
                self.push(
                    file,
                    key,
                    format!("unknown difficulty '{name}' (known: {})", known.join(", ")),
                );
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

    /// Validates an ordered table of rows read by number: no row runs
    /// backwards, each follows the last without gap or overlap, the first
    /// reaches down to `low` (or is open below when `low` is `None`) and the
    /// last up to `high` (or is open above).
    fn rows<T: Copy>(
        &mut self,
        file: &str,
        key: &str,
        raw: Vec<(Option<i64>, Option<i64>, T)>,
        low: Option<i64>,
        high: Option<i64>,
    ) -> RowTable<T> {
        let clamp = |n: i64| n.clamp(-1000, 1000) as i32;
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
                from: from.map(clamp),
                to: to.map(clamp),
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
        let unskilled = self.within(FILE, "unskilled", raw.unskilled, -10, 0);
        let mut difficulties: Vec<(String, i32)> = Vec::new();
        for (name, target) in raw.difficulty {
            let t = self.within(FILE, &format!("difficulty.{name}"), target, 0, 30);
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
        let dm_rows = |rows: Vec<RawDmRow>, v: &mut Validator, key: &str| {
            rows.into_iter()
                .enumerate()
                .map(|(i, r)| {
                    let dm = v.within(FILE, &format!("{key}[{i}].dm"), r.dm, -20, 20);
                    (r.from, r.to, dm)
                })
                .collect::<Vec<_>>()
        };
        let raw_dm = dm_rows(raw.characteristic_dm, self, "characteristic-dm");
        let characteristic_dm = self.rows(FILE, "characteristic-dm", raw_dm, Some(0), None);
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
        let raw_chain = dm_rows(raw.chain.row, self, "chain.row");
        let chain = self.rows(FILE, "chain.row", raw_chain, None, None);
        let raw_reactions = raw
            .reactions
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                let count = self.within(FILE, &format!("reactions[{i}].count"), r.count, 0, 20);
                (r.from, r.to, count as u8)
            })
            .collect();
        // The table starts at Initiative 0, as printed; a lower Initiative
        // reads the first row.
        let reactions = self.rows(FILE, "reactions", raw_reactions, Some(0), None);
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
            let thrust = self.within(FILE, &key("thrust"), t.thrust, 0, 6);
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
                attack_dm: self.within(FILE, &format!("band[{i}].attack-dm"), b.attack_dm, -20, 20),
                thrust: self.within(FILE, &format!("band[{i}].thrust"), b.thrust, 1, 1000),
                missile_flight: self.within(
                    FILE,
                    &format!("band[{i}].missile-flight"),
                    b.missile_flight,
                    0,
                    100,
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
                    Some(self.dice(FILE, &key("damage"), d))
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
            let magazine = self.within(FILE, &key("magazine"), w.magazine, 0, 1000) as u16;
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
                tl: self.within(FILE, &key("tl"), w.tl, 0, 30),
                kind,
                range: self.band(FILE, &key("range"), &w.range),
                damage,
                attack_dm: self.within(FILE, &key("attack-dm"), w.attack_dm, -10, 10),
                point_defence: w.point_defence,
                sand_stops: w.sand_stops,
                ap: self.within(FILE, &key("ap"), w.ap, 0, 100),
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
                capacity: self.within(FILE, &key("capacity"), m.capacity, 1, 3) as u8,
                multiplier: self.within(FILE, &key("multiplier"), m.multiplier, 1, 1000),
                skill: self.skill(FILE, &key("skill"), &m.skill),
                pilot: m.pilot,
                id,
            });
        }
        if kinds.is_empty() {
            self.push(FILE, "mount", "no mount kinds");
        }
        let mut three = |key: &str, values: Vec<i64>| -> [i32; 3] {
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
                out[i] = self.within(FILE, &format!("identical.{key}[{i}]"), v, -10, 10);
            }
            out
        };
        let identical = Identical {
            attack_dm: three("attack-dm", raw.identical.attack_dm),
            point_defence_dm: three("point-defence-dm", raw.identical.point_defence_dm),
            damage_per_die: three("damage-per-die", raw.identical.damage_per_die),
        };
        (weapons, kinds, identical)
    }

    fn criticals(&mut self, raw: RawCriticals) -> Criticals {
        const FILE: &str = "criticals.toml";
        let max_severity = self.within(FILE, "max-severity", raw.max_severity, 1, 6) as u8;
        let mut locations: Vec<Option<Location>> = vec![None; crate::model::LOCATIONS];
        for (i, loc) in raw.location.into_iter().enumerate() {
            let key = |field: &str| format!("location[{i}].{field}");
            let roll = self.within(FILE, &key("roll"), loc.roll, 2, 12) as u8;
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
                        let dm = self.within(FILE, &rkey("check-dm"), dm, -10, 10) as i8;
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
                    standing.thrust_loss = -(self.within(FILE, &rkey("thrust"), t, -12, 0) as i8);
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
                    .map(|d| self.dice(FILE, &rkey("hull-damage"), d));
                let armour_loss = row
                    .armour_loss
                    .as_ref()
                    .map(|text| match text.parse::<i32>() {
                        Ok(n) if (0..=100).contains(&n) => Amount::Fixed(n),
                        _ => Amount::Dice(self.dice(FILE, &rkey("armour-loss"), text)),
                    });
                let hull_severity = row.hull_severity.map_or(0, |n| {
                    self.within(FILE, &rkey("hull-severity"), n, 0, 6) as u8
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
            effect: self.within(FILE, "effect", raw.effect, 0, 30),
            damage_per_severity: self.within(
                FILE,
                "damage-per-severity",
                raw.damage_per_severity,
                1,
                1000,
            ),
            max_severity,
            sustained_percent: self.within(
                FILE,
                "sustained-percent",
                raw.sustained_percent,
                1,
                100,
            ),
            repair_dm_per_severity: self.within(
                FILE,
                "repair-dm-per-severity",
                raw.repair_dm_per_severity,
                -6,
                0,
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
        let near_object = self.rows(FILE, "setup.near-object", near_rows, Some(1), Some(6));
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
        let one_hit_at = self.within(
            FILE,
            "overcharge.one-hit-at",
            raw.overcharge.one_hit_at,
            -20,
            0,
        );
        let two_hits_at = self.within(
            FILE,
            "overcharge.two-hits-at",
            raw.overcharge.two_hits_at,
            -20,
            0,
        );
        if two_hits_at > one_hit_at {
            self.push(
                FILE,
                "overcharge.two-hits-at",
                "must not be above one-hit-at",
            );
        }
        let tl_dm_min = self.within(FILE, "missiles.tl-dm-min", raw.missiles.tl_dm_min, -10, 10);
        let tl_dm_max = self.within(FILE, "missiles.tl-dm-max", raw.missiles.tl_dm_max, -10, 10);
        if tl_dm_min > tl_dm_max {
            self.push(FILE, "missiles.tl-dm-min", "must not be above tl-dm-max");
        }
        Constants {
            random_encounter,
            near_object,
            tactics_mode,
            burn: self.within(FILE, "initiative.burn", raw.initiative.burn, -10, 0),
            aim_dm: self.within(FILE, "aim.dm", raw.aim.dm, 0, 10),
            aim_max: self.within(FILE, "aim.max", raw.aim.max, 0, 10) as u8,
            overcharge_max_multiple: self.within(
                FILE,
                "overcharge.max-multiple",
                raw.overcharge.max_multiple,
                1,
                10,
            ),
            overcharge_one_hit_at: one_hit_at,
            overcharge_two_hits_at: two_hits_at,
            missile_attack: self.difficulty(FILE, "missiles.attack", &raw.missiles.attack),
            missile_attack_name: raw.missiles.attack,
            per_extra_missile: self.within(
                FILE,
                "missiles.per-extra-missile",
                raw.missiles.per_extra_missile,
                0,
                10,
            ),
            tl_dm_min,
            tl_dm_max: tl_dm_max.max(tl_dm_min),
            smart_lost_at,
            zero_effect_multiplier: self.within(
                FILE,
                "missiles.zero-effect-multiplier",
                raw.missiles.zero_effect_multiplier,
                0,
                10,
            ),
            cap_at_missiles: raw.missiles.cap_at_missiles,
            missile_armour,
            sand_reduction: self.dice(FILE, "sand.reduction", &raw.sand.reduction),
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
                        let known: Vec<&str> = kinds.iter().map(|k| k.id.as_str()).collect();
                        self.push(
                            FILE,
                            mkey("kind"),
                            format!(
                                "unknown mount kind '{}' (known: {})",
                                mount.kind,
                                known.join(", ")
                            ),
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
                            let known: Vec<&str> = weapons.iter().map(|x| x.id.as_str()).collect();
                            self.push(
                                FILE,
                                format!("{id}.mount[{m}].weapons[{w}]"),
                                format!("unknown weapon '{wid}' (known: {})", known.join(", ")),
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
                            skills[s] = Some(self.within(FILE, &skey, *level, 0, 6) as i8);
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
                            characteristics[ch as usize] = self.within(FILE, &chkey, *value, 0, 20) as u8;
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
                tons: self.within(FILE, &key("tons"), ship.tons, 1, 1_000_000),
                tl: self.within(FILE, &key("tl"), ship.tl, 0, 30),
                hull: self.within(FILE, &key("hull"), ship.hull, 1, 1_000_000),
                armour: self.within(FILE, &key("armour"), ship.armour, 0, 100),
                thrust: self.within(FILE, &key("thrust"), ship.thrust, 0, 12),
                jump: self.within(FILE, &key("jump"), ship.jump, 0, 9),
                sensors: ship.sensors,
                sensors_dm: self.within(FILE, &key("sensors-dm"), ship.sensors_dm, -6, 6),
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

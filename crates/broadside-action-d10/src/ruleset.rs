//! The action-d10 system's face, through core's plug-in kit: ship sheets,
//! tables, options and the resolve report.

use std::sync::Arc;

use broadside_core::kit::{self, Resolved};
use broadside_core::montecarlo::Loss;
use broadside_core::{
    AttackOutcome, BattleRequest, DataErrors, Dice, EventSink, OptionKind, OptionSpec,
    ResolveError, ResolveRequest, Sheet, ShipSheet, SourceFile, TableRowView, TableView,
};
use serde::Serialize;

use crate::attack::{Attack, Board, LockNeed, LockNumber, LockSituation, Situation};
use crate::damage::Effect;
use crate::model::{Fallback, Letter, Rules, Scanner, System, TableId, WeaponKind};
use crate::ship::Ship;
use crate::{ActionD10, BattleSetup, ID};

const RESOLVE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "weapon",
        value_name: "W",
        help: "the attacker's weapon or bank (laser-turret, heavy-laser, missile-launcher, ...)",
        kind: OptionKind::Text,
        required: true,
    },
    OptionSpec {
        name: "range",
        value_name: "N",
        help: "range in hexes (between destination counters for projectiles and seekers)",
        kind: OptionKind::Number { min: 0, max: 200 },
        required: true,
    },
    OptionSpec {
        name: "lock-range",
        value_name: "N",
        help: "for projectiles and seekers: hexes between the ship counters, which the lock roll counts (default: --range)",
        kind: OptionKind::Number { min: 0, max: 200 },
        required: false,
    },
    OptionSpec {
        name: "locked",
        value_name: "",
        help: "the attacker already holds a target lock (no lock roll)",
        kind: OptionKind::Flag,
        required: false,
    },
    OptionSpec {
        name: "displacement",
        value_name: "N",
        help: "hexes the target thrust this turn: -1 to hit per hex (not seekers)",
        kind: OptionKind::Number { min: 0, max: 50 },
        required: false,
    },
    OptionSpec {
        name: "aft",
        value_name: "",
        help: "the attack comes from the target's aft arc (+2 on Surface Features)",
        kind: OptionKind::Flag,
        required: false,
    },
];

const DUEL_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "start-range",
        value_name: "R",
        help: "hexes between the ships at the start, both at rest (default 12)",
        kind: OptionKind::Number { min: 0, max: 200 },
        required: false,
    },
    OptionSpec {
        name: "escape-below",
        value_name: "PCT",
        help: "a ship jumps out when its boxes left fall to this percentage (default 0: never)",
        kind: OptionKind::Number { min: 0, max: 100 },
        required: false,
    },
    OptionSpec {
        name: "gravity-well",
        value_name: "Q,R",
        help: "a body at this hex, whose gravity well pulls ships in the Gravity phase (default: none)",
        kind: OptionKind::Text,
        required: false,
    },
];

/// A ship class as `broadside ships` lists it.
#[derive(Debug, Serialize)]
pub struct ClassSheet {
    id: String,
    name: String,
    size: i32,
    structure: String,
    boxes: usize,
    actions: u8,
    command_points: u8,
    fcs: u8,
    stealth: i32,
    drive: &'static str,
    thrust: u32,
    remass: u16,
    shields: u8,
    cargo: u16,
    warheads: u16,
    troops: u8,
    weapons: Vec<String>,
    systems: Vec<String>,
    small_craft: Option<String>,
    riders: Vec<String>,
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    notes: Option<String>,
}

impl ClassSheet {
    fn carries(&self) -> String {
        let mut parts: Vec<String> = self.small_craft.iter().cloned().collect();
        if !self.riders.is_empty() {
            parts.push(format!("riders: {}", self.riders.join(", ")));
        }
        parts.join("; ")
    }
}

impl Sheet for ClassSheet {
    fn lines(&self) -> Vec<String> {
        vec![format!(
            "{}: size {:+}, {} boxes {}, {} actions, thrust {}, shields {}; {}{}",
            self.name,
            self.size,
            self.boxes,
            self.structure,
            self.actions,
            self.thrust,
            self.shields,
            self.weapons.join(", "),
            if self.carries().is_empty() {
                String::new()
            } else {
                format!("; {}", self.carries())
            }
        )]
    }
}

impl ShipSheet for ClassSheet {
    fn id(&self) -> &str {
        &self.id
    }
    fn row(&self) -> Vec<(&'static str, String)> {
        vec![
            ("ship", self.id.clone()),
            ("size", format!("{:+}", self.size)),
            ("structure", self.structure.clone()),
            ("actions", self.actions.to_string()),
            ("CP", self.command_points.to_string()),
            ("FCS", self.fcs.to_string()),
            ("drive", format!("{} {}", self.drive, self.thrust)),
            ("shields", self.shields.to_string()),
            ("weapons", self.weapons.join(", ")),
            ("carries", self.carries()),
        ]
    }
}

/// A ship's state after an attack, as reports show it.
#[derive(Debug, Serialize)]
pub(crate) struct ShipReport {
    ship: String,
    status: &'static str,
    structure: String,
    boxes_left: u8,
    boxes: u8,
    actions_per_turn: u8,
    shields: u8,
    cargo: u16,
    remass: u16,
    warheads: u16,
    jammed: bool,
    long_range_scanner: &'static str,
    short_range_scanner: &'static str,
    systems_lost: Vec<String>,
    weapons_lost: Vec<String>,
    small_craft: u8,
    troops: u8,
}

impl ShipReport {
    pub(crate) fn of(rules: &Rules, ship: &Ship) -> ShipReport {
        let class = ship.class(rules);
        // Marked boxes show as 'x', the rest as the track prints them.
        let structure = class
            .track
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i < usize::from(ship.marked) {
                    'x'
                } else {
                    l.symbol()
                }
            })
            .collect();
        let systems_lost = System::ALL
            .iter()
            .filter(|s| s.mount().is_none() && s.scanner().is_none())
            .filter_map(|&s| {
                let lost = class.has(s) - ship.intact(s);
                (lost > 0).then(|| format!("{} x{lost}", s.id()))
            })
            .collect();
        let weapons_lost = ship
            .weapons
            .iter()
            .enumerate()
            .filter(|(_, m)| m.destroyed)
            .map(|(i, m)| format!("{} (mount {})", rules.weapon(m.weapon).id, i + 1))
            .collect();
        ShipReport {
            ship: class.id.clone(),
            status: ship.status.id(),
            structure,
            boxes_left: ship.boxes_left(rules),
            boxes: ship.boxes(rules),
            actions_per_turn: ship.actions_per_turn(rules),
            shields: ship.shields,
            cargo: ship.cargo,
            remass: ship.remass,
            warheads: ship.warheads,
            jammed: ship.jammed,
            long_range_scanner: ship.scanners[Scanner::LongRange.index()].id(),
            short_range_scanner: ship.scanners[Scanner::ShortRange.index()].id(),
            systems_lost,
            weapons_lost,
            small_craft: ship.small_craft,
            troops: ship.intact(System::Troops),
        }
    }

    fn line(&self) -> String {
        let mut line = format!(
            "{}: {} ({} of {} boxes left), {} actions a turn, shields {}",
            self.ship,
            self.structure,
            self.boxes_left,
            self.boxes,
            self.actions_per_turn,
            self.shields
        );
        if self.status != "active" {
            line.push_str(&format!(", {}", self.status));
        }
        if self.jammed {
            line.push_str(", magazine jammed");
        }
        for (name, state) in [
            ("long range scanner", self.long_range_scanner),
            ("short range scanner", self.short_range_scanner),
        ] {
            if state == "disabled" || state == "destroyed" {
                line.push_str(&format!(", {name} {state}"));
            }
        }
        let mut lost = self.weapons_lost.clone();
        lost.extend(self.systems_lost.iter().cloned());
        if !lost.is_empty() {
            line.push_str(&format!("; lost: {}", lost.join(", ")));
        }
        line
    }
}

/// The lock part of a resolve report.
#[derive(Debug, Serialize)]
struct LockReport {
    /// "held", "automatic", "rolled" or "impossible".
    how: &'static str,
    number: Option<i32>,
    rolls: Vec<u32>,
    locked: bool,
}

/// The result of `broadside resolve action-d10`.
#[derive(Debug, Serialize)]
pub struct ResolveReport {
    attacker: String,
    weapon: String,
    kind: &'static str,
    bank: u8,
    target_ship: String,
    range: u32,
    displacement: u32,
    aft: bool,
    lock: LockReport,
    target_number: i32,
    rolls: Vec<u32>,
    hits: u32,
    damage: u32,
    shields_absorbed: u32,
    boxes_marked: Vec<&'static str>,
    effects: Vec<String>,
    core_hit: bool,
    target: ShipReport,
    #[serde(skip)]
    weapon_name: String,
    /// The attack in the terms every system shares.
    #[serde(skip)]
    shared: AttackOutcome,
}

impl Sheet for ResolveReport {
    fn lines(&self) -> Vec<String> {
        let lock = match self.lock.how {
            "held" => "lock held".to_owned(),
            "automatic" => "lock automatic".to_owned(),
            "impossible" => "no lock possible".to_owned(),
            _ => format!(
                "lock roll {} against {}: {}",
                join(&self.lock.rolls),
                self.lock.number.unwrap_or(0),
                if self.lock.locked {
                    "locked"
                } else {
                    "no lock"
                }
            ),
        };
        let mut lines = vec![format!(
            "{} fires {}{} at {} (range {}): {lock}",
            self.attacker,
            self.weapon_name,
            if self.bank > 1 {
                format!(" (bank of {})", self.bank)
            } else {
                String::new()
            },
            self.target_ship,
            self.range
        )];
        if self.lock.locked {
            lines.push(if self.kind == "swarm" {
                format!(
                    "swarm roll {} {:+}: {} hit(s)",
                    join(&self.rolls),
                    self.target_number,
                    self.hits
                )
            } else {
                format!(
                    "to-hit {}: rolled {}: {} hit(s)",
                    self.target_number,
                    join(&self.rolls),
                    self.hits
                )
            });
        }
        if self.hits > 0 {
            let mut line = format!("{} box(es) of damage", self.damage);
            if self.shields_absorbed > 0 {
                line.push_str(&format!(", {} absorbed by shields", self.shields_absorbed));
            }
            if !self.boxes_marked.is_empty() {
                // A box with no letter is named "plain": the sheet's "-"
                // would read as "none marked".
                let marks: Vec<&str> = self
                    .boxes_marked
                    .iter()
                    .map(|&mark| {
                        if mark == Letter::Blank.mark() {
                            "plain"
                        } else {
                            mark
                        }
                    })
                    .collect();
                line.push_str(&format!("; boxes marked: {}", marks.join(", ")));
            }
            lines.push(line);
            if !self.effects.is_empty() {
                lines.push(format!("effects: {}", self.effects.join("; ")));
            }
        }
        lines.push(self.target.line());
        lines
    }

    fn attack_outcome(&self) -> Option<AttackOutcome> {
        Some(self.shared.clone())
    }
}

/// An attack in the terms every system shares, in this system's words.
///
/// Results, in order: "no target lock" when the lock failed; the hits
/// scored ("2 hits"); "shields absorb" when shields took any of the
/// damage; each structure box marked ("U box (UDST)", "blank box"); each
/// sub-table roll that settled ("Surface Features: Sensors", "Core Hit:
/// nothing hit"); and what the boxes did to the ship beyond systems
/// destroyed ("magazine jammed", "Long Range Scanner disabled",
/// "destroyed"). Amounts of cargo, remass, warheads and small craft lost are
/// left out: they are consumables, not results. Hull damage is the boxes
/// marked; the systems destroyed are named, a weapon with its mount.
fn shared_outcome(rules: &Rules, outcome: &crate::attack::AttackOutcome) -> AttackOutcome {
    let mut results = Vec::new();
    if outcome.lock.as_ref().is_some_and(|lock| !lock.locked) {
        results.push("no target lock".to_owned());
    }
    match outcome.hits {
        0 => {}
        1 => results.push("1 hit".to_owned()),
        n => results.push(format!("{n} hits")),
    }
    let mut destroyed = Vec::new();
    let Some(applied) = &outcome.applied else {
        return AttackOutcome {
            hit: outcome.hits > 0,
            results,
            hull_damage: 0,
            destroyed,
        };
    };
    if applied.absorbed > 0 {
        results.push("shields absorb".to_owned());
    }
    for letter in &applied.boxes {
        results.push(match letter {
            Letter::Blank => "blank box".to_owned(),
            l => format!("{} box ({})", l.symbol(), l.name()),
        });
    }
    for (table, system) in &applied.tables {
        let table = &rules.table(*table).name;
        results.push(match system {
            Some(system) => format!("{table}: {}", system.name()),
            None => format!("{table}: nothing hit"),
        });
    }
    for effect in &applied.effects {
        match *effect {
            Effect::ContainmentBreached
            | Effect::RemassBleeding
            | Effect::MagazineJammed
            | Effect::AllWarheadsLost
            | Effect::ScannerDisabled(_)
            | Effect::HangarUnusable
            | Effect::Destroyed => results.push(effect.describe(rules)),
            Effect::SystemLost { system, count } if count > 0 => {
                destroyed.push(system.name().to_owned());
            }
            Effect::WeaponLost { mount, weapon } => destroyed.push(format!(
                "{} (mount {})",
                rules.weapon(weapon).name,
                mount + 1
            )),
            Effect::ScannerDestroyed(s) => destroyed.push(s.name().to_owned()),
            Effect::ShieldsAbsorbed { .. }
            | Effect::CargoLost { .. }
            | Effect::BurnsLost { .. }
            | Effect::WarheadsLost { .. }
            | Effect::SystemLost { .. }
            | Effect::SmallCraftLost { .. }
            | Effect::ActionLost => {}
        }
    }
    AttackOutcome {
        hit: outcome.hits > 0,
        results,
        hull_damage: i32::try_from(applied.boxes.len()).unwrap_or(i32::MAX),
        destroyed,
    }
}

fn join(values: &[u32]) -> String {
    let shown: Vec<String> = values.iter().map(u32::to_string).collect();
    shown.join(", ")
}

impl ActionD10 {
    fn sub_table_view(&self, id: TableId) -> TableView {
        let rules = &self.rules;
        let t = rules.table(id);
        let roll = if id == TableId::SurfaceFeatures {
            format!(
                "1{} (+{} from the aft arc)",
                t.die, rules.constants.boxes.aft_surface_features
            )
        } else {
            format!("1{}", t.die)
        };
        let fallback = match t.fallback {
            Fallback::None => "nothing more".to_owned(),
            Fallback::RollAgain => "roll again".to_owned(),
            Fallback::Table(next) => format!("roll on {}", rules.table(next).name),
        };
        TableView {
            id: id.id().into(),
            title: format!("{} ({roll}; a system missing or lost: {fallback})", t.name),
            row_header: "roll".into(),
            columns: vec!["result".into()],
            rows: t
                .rows
                .iter()
                .enumerate()
                .map(|(i, row)| TableRowView {
                    label: (i + 1).to_string(),
                    cells: vec![match row.count {
                        Some(count) => format!("{count} {}s", row.result.name()),
                        None => row.result.name().to_owned(),
                    }],
                })
                .collect(),
        }
    }

    fn weapon_views(&self) -> Vec<TableView> {
        let rules = &self.rules;
        let mut views = vec![TableView {
            id: "weapons".into(),
            title: "Weapons (to-hit numbers by range bracket; swarm weapons give a row modifier)"
                .into(),
            row_header: "weapon".into(),
            columns: vec![
                "name".into(),
                "kind".into(),
                "mount".into(),
                "brackets".into(),
                "damage".into(),
                "notes".into(),
            ],
            rows: rules
                .weapons
                .iter()
                .map(|w| {
                    let brackets: Vec<String> = w
                        .brackets
                        .iter()
                        .map(|b| {
                            if w.kind == WeaponKind::Swarm {
                                format!("{}-{}: {:+}", b.from, b.to, b.value)
                            } else {
                                format!("{}-{}: {}", b.from, b.to, b.value)
                            }
                        })
                        .collect();
                    let mut notes = Vec::new();
                    if w.point_defense {
                        notes.push("point defence".to_owned());
                    }
                    if w.antimissile {
                        notes.push("antimissile".to_owned());
                    }
                    if w.charge {
                        notes.push("needs charging".to_owned());
                    }
                    if w.kind.is_salvo() {
                        notes.push(format!("{} warhead(s) a salvo", w.warheads));
                    }
                    if w.swarm_size > 0 {
                        notes.push(format!("swarm of {}", w.swarm_size));
                    }
                    if let Some(shots) = w.shots {
                        notes.push(format!("{shots} shot(s)"));
                    }
                    if w.small_craft {
                        notes.push("small craft".to_owned());
                    }
                    TableRowView {
                        label: w.id.clone(),
                        cells: vec![
                            w.name.clone(),
                            w.kind.id().into(),
                            w.mount.id().into(),
                            brackets.join(", "),
                            w.damage.to_string(),
                            notes.join(", "),
                        ],
                    }
                })
                .collect(),
        }];
        for w in &rules.weapons {
            let value = if w.kind == WeaponKind::Swarm {
                "row modifier"
            } else {
                "to-hit"
            };
            views.push(TableView {
                id: w.id.clone(),
                title: format!("{} ({}, {} mount)", w.name, w.kind.id(), w.mount.id()),
                row_header: "range".into(),
                columns: vec![value.into(), "damage".into()],
                rows: w
                    .brackets
                    .iter()
                    .map(|b| TableRowView {
                        label: if b.from == b.to {
                            b.from.to_string()
                        } else {
                            format!("{}-{}", b.from, b.to)
                        },
                        cells: vec![
                            if w.kind == WeaponKind::Swarm {
                                format!("{:+}", b.value)
                            } else {
                                b.value.to_string()
                            },
                            w.damage.to_string(),
                        ],
                    })
                    .collect(),
            });
        }
        views
    }

    fn rule_views(&self) -> Vec<TableView> {
        let rules = &self.rules;
        let c = &rules.constants;
        let l = &c.lock;
        let b = &c.boxes;
        let row = |label: &str, cells: Vec<String>| TableRowView {
            label: label.into(),
            cells,
        };
        let one = |label: &str, cell: String| row(label, vec![cell]);
        let mut difficulty = vec![
            ("magazine-jam", rules.repairs.jam),
            ("disabled-scanner", rules.repairs.disabled_scanner),
            ("destroyed-scanner", rules.repairs.destroyed_scanner),
        ];
        difficulty.extend(
            System::ALL
                .iter()
                .filter(|s| s.scanner().is_none())
                .map(|s| (s.id(), rules.repairs.systems[s.index()])),
        );
        vec![
            TableView {
                id: "repairs".into(),
                title: format!("Repairs (1{} at or under)", rules.repairs.die),
                row_header: "difficulty".into(),
                columns: vec!["at or under".into()],
                rows: crate::model::Difficulty::ALL
                    .iter()
                    .map(|d| one(d.name(), rules.repairs.targets[d.index()].to_string()))
                    .collect(),
            },
            TableView {
                id: "repair-difficulty".into(),
                title: format!(
                    "Which repair has which difficulty ({:+} per crew deck destroyed)",
                    c.crew_deck_lost
                ),
                row_header: "repair".into(),
                columns: vec!["difficulty".into(), "at or under".into()],
                rows: difficulty
                    .into_iter()
                    .map(|(id, d)| match d {
                        Some(d) => row(
                            id,
                            vec![d.id().into(), rules.repairs.targets[d.index()].to_string()],
                        ),
                        None => row(id, vec!["cannot be repaired".into(), "-".into()]),
                    })
                    .collect(),
            },
            TableView {
                id: "swarmer-hits".into(),
                title: "Swarmer/Rocket Pack Hits (1d10 + modifiers; column: swarm size)".into(),
                row_header: "roll".into(),
                columns: rules.swarm.columns.iter().map(u32::to_string).collect(),
                rows: rules
                    .swarm
                    .rows
                    .iter()
                    .map(|r| row(&r.label, r.hits.iter().map(u32::to_string).collect()))
                    .collect(),
            },
            TableView {
                id: "structure-boxes".into(),
                title: "Structure boxes: what marking each letter does".into(),
                row_header: "box".into(),
                columns: vec!["name".into(), "effect".into()],
                rows: vec![
                    row("C", vec![Letter::Containment.name().into(), format!("{} cargo points lost; after the last C, {} cargo lost on every Move", b.containment_cargo, b.containment_breach_cargo)]),
                    row("R", vec![Letter::Remass.name().into(), format!("{} burns lost (none below 0); after the last R, {} burns lost every turn", b.remass_burns, b.remass_bleed)]),
                    row("M", vec![Letter::Magazine.name().into(), format!("jam, and {} warheads lost to space; after the last M, every warhead", b.magazine_warheads)]),
                    row("S", vec![Letter::System.name().into(), "disable a scanner (long range first); with none working, destroy a disabled one".into()]),
                    row("H", vec![Letter::Hangar.name().into(), "roll on Hangar; after the last H, the hangar is unusable".into()]),
                    row("U", vec![Letter::Udst.name().into(), format!("roll on Surface Features (+{} from the aft arc), falling back to Internal Damage", b.aft_surface_features)]),
                    row("A", vec![Letter::Action.name().into(), format!("lose one action; {} or more A in one attack: roll on Core Hit", b.core_hit_actions)]),
                ],
            },
            TableView {
                id: "target-lock".into(),
                title: format!(
                    "Target Lock: automatic within {} + FCS hexes, otherwise 1{} at or under {} plus",
                    l.automatic_base, l.die, l.target
                ),
                row_header: "modifier".into(),
                columns: vec!["amount".into()],
                rows: vec![
                    one(&format!("per {} full hexes of range", l.range_step), format!("{:+}", l.per_range_step)),
                    one("FCS sensor rating", "+FCS".into()),
                    one("target size", "+size".into()),
                    one("target stealth", "-stealth".into()),
                    one("target thrusting on reaction drives", format!("{:+}", l.reaction_drive)),
                    one("multiple enemies in the target's hex", format!("{:+}", l.multiple_enemies)),
                    one("other ship thrusting reactionlessly in the target's hex", format!("{:+}", l.nearby_reactionless_same_hex)),
                    one("other ship thrusting on reaction drives in the target's hex", format!("{:+}", l.nearby_reaction_same_hex)),
                    one("other ship thrusting on reaction drives next to the target", format!("{:+}", l.nearby_reaction_adjacent)),
                    one("target dropped a chaff pod this turn", format!("{:+}", l.chaff)),
                ],
            },
            TableView {
                id: "to-hit-modifiers".into(),
                title: format!(
                    "To-hit: 1d10 per weapon at or under the number; a natural {} always misses",
                    c.to_hit.natural_miss
                ),
                row_header: "modifier".into(),
                columns: vec!["amount".into()],
                rows: vec![
                    one("target thrusting, per hex of displacement (not seekers)", format!("{:+}", c.to_hit.thrusting_per_hex)),
                    one("target size", "+size".into()),
                    one("firing at a warhead (not dedicated antimissile weapons)", format!("{:+}", c.to_hit.warhead)),
                    one("aimed this turn", format!("{:+}", c.to_hit.aim)),
                    one("seeker against a target that dropped chaff", format!("{:+}", c.to_hit.chaff_against_seekers)),
                    one("small craft (their size)", format!("{:+}", c.to_hit.small_craft_size)),
                ],
            },
        ]
    }
}

impl kit::System for ActionD10 {
    const ID: &'static str = ID;
    const TITLE: &'static str = "d10 action-based starship combat (source game unidentified)";
    const DESCRIPTION: &'static str = "actions per turn, target lock on 1d6, 1d10 at or under to hit, salvo counters, lettered structure boxes";
    const EMBEDDED: &'static [(&'static str, &'static str)] = broadside_data::embed!(
        "../../rulesets/action-d10":
        "weapons.toml",
        "ships.toml",
        "tables.toml",
        "rules.toml",
    );
    const RESOLVE_OPTIONS: &'static [OptionSpec] = RESOLVE_OPTIONS;
    const BATTLE_OPTIONS: &'static [OptionSpec] = DUEL_OPTIONS;
    const SIDE_OPTIONS: &'static [OptionSpec] = crate::fleet::SIDE_OPTIONS;
    const LOSSES: &'static [Loss] = &[Loss::Destroyed, Loss::Disarmed];
    const ESCAPES: bool = true;

    type ShipSheet = ClassSheet;
    type Report = ResolveReport;
    type Setup = BattleSetup;

    fn from_files(files: &[SourceFile]) -> Result<ActionD10, DataErrors> {
        ActionD10::load(files)
    }

    fn ship_sheets(&self) -> Vec<ClassSheet> {
        let rules = &self.rules;
        rules
            .ships
            .iter()
            .map(|class| {
                let weapons = class
                    .weapons
                    .iter()
                    .map(|m| {
                        let id = &rules.weapon(m.weapon).id;
                        if m.bank > 1 {
                            format!("{id} bank {}", m.bank)
                        } else {
                            id.clone()
                        }
                    })
                    .collect();
                let systems = System::ALL
                    .iter()
                    .filter(|s| s.mount().is_none() && **s != System::Troops && class.has(**s) > 0)
                    .map(|s| match class.has(*s) {
                        1 => s.id().to_owned(),
                        n => format!("{} x{n}", s.id()),
                    })
                    .collect();
                let thrust =
                    u32::from(class.has(System::Thruster)) * u32::from(class.thrust_per_thruster);
                ClassSheet {
                    id: class.id.clone(),
                    name: class.name.clone(),
                    size: class.size,
                    structure: class.track.iter().map(|l| l.symbol()).collect(),
                    boxes: class.track.len(),
                    actions: class.actions(),
                    command_points: class.command_points,
                    fcs: class.fcs,
                    stealth: class.stealth,
                    drive: class.drive.id(),
                    thrust,
                    remass: class.remass,
                    shields: class.has(System::ShieldEmitter) * class.shield_per_emitter,
                    cargo: class.cargo,
                    warheads: class.warheads,
                    troops: class.has(System::Troops),
                    weapons,
                    systems,
                    small_craft: class.small_craft.map(|c| {
                        format!("{} small craft ({})", c.count, rules.weapon(c.weapon).id)
                    }),
                    riders: class
                        .riders
                        .iter()
                        .map(|&r| rules.class(r).id.clone())
                        .collect(),
                    source: class.source.clone(),
                    notes: class.notes.clone(),
                }
            })
            .collect()
    }

    fn table_views(&self) -> Vec<TableView> {
        let mut views: Vec<TableView> = TableId::ALL
            .iter()
            .map(|&id| self.sub_table_view(id))
            .collect();
        views.extend(self.rule_views());
        views.extend(self.weapon_views());
        views
    }

    fn declare(&self, request: &ResolveRequest) -> Result<(Board, Attack), ResolveError> {
        let rules = &self.rules;
        let known_ships = || rules.ships.iter().map(|s| s.id.as_str());
        let attacker = self
            .ship(&request.attacker)
            .ok_or_else(|| ResolveError::unknown("ship", &request.attacker, known_ships()))?;
        let target = self
            .ship(&request.target)
            .ok_or_else(|| ResolveError::unknown("ship", &request.target, known_ships()))?;
        self.declare_between(request, attacker, target)
    }

    fn report(
        &self,
        request: &ResolveRequest,
        resolved: Resolved<ActionD10>,
        _sink: &mut dyn EventSink,
    ) -> ResolveReport {
        let rules = &self.rules;
        let Resolved {
            board,
            attack,
            outcome,
            ..
        } = resolved;
        let mount = &board.ships[0].weapons[attack.mount];
        let w = rules.weapon(mount.weapon);
        let lock = match &outcome.lock {
            None => LockReport {
                how: "held",
                number: None,
                rolls: Vec::new(),
                locked: true,
            },
            Some(made) => LockReport {
                how: match made.number {
                    LockNumber::Automatic => "automatic",
                    LockNumber::Roll(_) => "rolled",
                    LockNumber::Impossible => "impossible",
                },
                number: match made.number {
                    LockNumber::Roll(n) => Some(n),
                    _ => None,
                },
                rolls: made.rolls.to_vec(),
                locked: made.locked,
            },
        };
        let applied = outcome.applied.as_ref();
        ResolveReport {
            attacker: request.attacker.clone(),
            weapon: w.id.clone(),
            kind: w.kind.id(),
            bank: mount.bank,
            target_ship: request.target.clone(),
            range: attack.range,
            displacement: attack.situation.displacement,
            aft: attack.situation.aft,
            lock,
            target_number: outcome.target_number,
            rolls: outcome.rolls.to_vec(),
            hits: outcome.hits,
            damage: applied.map_or(0, |a| a.damage),
            shields_absorbed: applied.map_or(0, |a| a.absorbed),
            boxes_marked: applied
                .map_or_else(Vec::new, |a| a.boxes.iter().map(|l| l.mark()).collect()),
            effects: applied.map_or_else(Vec::new, |a| {
                a.effects
                    .iter()
                    .filter(|e| !matches!(e, Effect::ShieldsAbsorbed { .. }))
                    .map(|e| e.describe(rules))
                    .collect()
            }),
            core_hit: applied.is_some_and(|a| a.core_hit),
            target: ShipReport::of(rules, &board.ships[1]),
            weapon_name: w.name.clone(),
            shared: shared_outcome(rules, &outcome),
        }
    }

    fn battle_setup(&self, request: &BattleRequest) -> Result<BattleSetup, ResolveError> {
        self.set_up(request)
    }
}

impl ActionD10 {
    /// [`Ruleset::resolve`] between ships in any state: the request's
    /// options and names, with the attacker and target given (fresh ships
    /// for `resolve`, damaged ones for examples that start from a marked
    /// record sheet).
    pub fn resolve_ships(
        &self,
        request: &ResolveRequest,
        attacker: Ship,
        target: Ship,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Box<dyn Sheet>, ResolveError> {
        let declared = self.declare_between(request, attacker, target)?;
        let report = kit::resolve_declared(self, request, declared, dice, sink)?;
        Ok(Box::new(report))
    }

    /// The board and attack a request asks for, between ships in any state.
    fn declare_between(
        &self,
        request: &ResolveRequest,
        mut attacker: Ship,
        target: Ship,
    ) -> Result<(Board, Attack), ResolveError> {
        let rules = &self.rules;
        let options = &request.options;
        let weapon_name = options.required_text("weapon")?;
        let weapon = rules.weapon_id(weapon_name).ok_or_else(|| {
            ResolveError::unknown(
                "weapon",
                weapon_name,
                rules.weapons.iter().map(|w| w.id.as_str()),
            )
        })?;
        let mount = attacker
            .weapons
            .iter()
            .position(|m| m.weapon == weapon)
            .ok_or_else(|| {
                let carried: Vec<&str> = attacker
                    .weapons
                    .iter()
                    .map(|m| rules.weapon(m.weapon).id.as_str())
                    .collect();
                ResolveError::Refused(format!(
                    "the {} carries no {weapon_name} (it carries {})",
                    request.attacker,
                    carried.join(", ")
                ))
            })?;
        // A single resolution starts from fresh ships with the Charge Weapon
        // action already taken, so a weapon that needs charging can fire.
        for m in &mut attacker.weapons {
            m.charged = true;
        }
        let range = u32::try_from(options.required_number("range")?)
            .map_err(|_| ResolveError::bad_option("range", "must not be negative"))?;
        let displacement = u32::try_from(options.number("displacement")?.unwrap_or(0))
            .map_err(|_| ResolveError::bad_option("displacement", "must not be negative"))?;
        let aft = options.flag("aft");
        // Target Lock counts the range between ship counters; a salvo's
        // range is between destination counters, so the two may differ.
        let lock_range = match options.number("lock-range")? {
            None => range,
            Some(_) if options.flag("locked") => {
                return Err(ResolveError::bad_option(
                    "lock-range",
                    "a lock already held (--locked) rolls no lock",
                ));
            }
            Some(_) if !rules.weapon(weapon).kind.is_salvo() => {
                return Err(ResolveError::bad_option(
                    "lock-range",
                    "direct fire and swarms count --range between ship counters, as the lock does; give --range only",
                ));
            }
            Some(n) => u32::try_from(n)
                .map_err(|_| ResolveError::bad_option("lock-range", "must not be negative"))?,
        };
        let lock = if options.flag("locked") {
            LockNeed::Held
        } else {
            LockNeed::Make(LockSituation {
                range: lock_range,
                target_thrusting: displacement > 0,
                enemies_in_target_hex: 1,
                ..LockSituation::default()
            })
        };
        let board = Board {
            ships: vec![attacker, target],
            names: Arc::from(vec![request.attacker.clone(), request.target.clone()]),
        };
        let attack = Attack {
            attacker: 0,
            mount,
            target: 1,
            range,
            situation: Situation {
                displacement,
                aft,
                aim: false,
                chaff: false,
            },
            lock,
            rerolls: 0,
        };
        Ok((board, attack))
    }
}

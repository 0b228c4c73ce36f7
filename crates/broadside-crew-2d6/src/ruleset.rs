//! The crew-2d6 system's face, through core's plug-in kit: ship sheets with crews, tables, options and the resolve report.

use std::collections::BTreeMap;

use broadside_core::exact::{
    AttackState, ExactAttack, ExactError, Prob, Stepped, exact_attack_in_steps,
};
use broadside_core::kit::{Resolved, System};
use broadside_core::montecarlo::Loss;
use broadside_core::{
    AttackResolution, BattleRequest, DataErrors, EventSink, NullSink, OptionKind, OptionSpec,
    ResolveError, ResolveRequest, Sheet, ShipSheet, SourceFile, TableRowView, TableView,
};
use serde::Serialize;

use crate::attack::{Attack, AttackOutcome, Reactions, Weaponry};
use crate::battle::{Battle, ShipId};
use crate::damage::{Applied, Work};
use crate::engagement::{ENCOUNTERS, JUMP_POINTS};
use crate::model::{
    BAND_IDS, Band, ChainMode, MissileArmour, Position, Rules, WeaponKind, title_case,
};
use crate::ship::Ship;
use crate::tactics::FOCUS_IDS;
use crate::{Crew2d6, Fleets, ID};

const RESOLVE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "weapon",
        value_name: "W",
        help: "the attacker's weapon (beam-laser, pulse-laser, missile-rack, ...)",
        kind: OptionKind::Text,
        required: true,
    },
    OptionSpec {
        name: "range-band",
        value_name: "BAND",
        help: "the range band between the ships",
        kind: OptionKind::Choice(BAND_IDS),
        required: true,
    },
    OptionSpec {
        name: "aim",
        value_name: "N",
        help: "Aim actions the gunner took before firing (+2 each, at most 3)",
        kind: OptionKind::Number { min: 0, max: 3 },
        required: false,
    },
    OptionSpec {
        name: "salvo",
        value_name: "N",
        help: "missiles in the salvo (default: one per usable launcher, within the magazine)",
        kind: OptionKind::Number { min: 1, max: 255 },
        required: false,
    },
    OptionSpec {
        name: "dodge",
        value_name: "",
        help: "the target's Pilot dodges (Difficult, one thrust; the attack takes -Effect)",
        kind: OptionKind::Flag,
        required: false,
    },
    OptionSpec {
        name: "point-defense",
        value_name: "N",
        help: "the target fires point defence at the salvo from its N best free point-defence mounts, one attempt each (Effect = missiles destroyed)",
        kind: OptionKind::Number { min: 1, max: 8 },
        required: false,
    },
    OptionSpec {
        name: "ecm",
        value_name: "",
        help: "the target's Sensor Operator tries ECM against the salvo (Difficult, + sensor DM; Effect = missiles removed)",
        kind: OptionKind::Flag,
        required: false,
    },
    OptionSpec {
        name: "sand",
        value_name: "",
        help: "the target fires sand at a laser (success takes 1D off the damage)",
        kind: OptionKind::Flag,
        required: false,
    },
];

const BATTLE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "start-band",
        value_name: "BAND",
        help: "the scenario's starting range band (default: the encounter's)",
        kind: OptionKind::Choice(BAND_IDS),
        required: false,
    },
    OptionSpec {
        name: "encounter",
        value_name: "KIND",
        help: "random (starts at Very Long) or near-object (d6: 1-2 Medium, 3-6 Long); default random",
        kind: OptionKind::Choice(ENCOUNTERS),
        required: false,
    },
    OptionSpec {
        name: "jump-point",
        value_name: "SIDE",
        help: "which side's ships start at a marked jump point (Alderson point) and may jump away; default none",
        kind: OptionKind::Choice(JUMP_POINTS),
        required: false,
    },
    OptionSpec {
        name: "board",
        value_name: "",
        help: "every ship closes to Adjacent range with its target and attempts boarding actions (opposed Pilot, one thrust) until grappled",
        kind: OptionKind::Flag,
        required: false,
    },
];

/// Each side's own set-up; the command line prefixes them `a-` and `b-`.
const SIDE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "jump-point",
        value_name: "",
        help: "every ship of this side starts at a marked jump point (Alderson point) and may jump away",
        kind: OptionKind::Flag,
        required: false,
    },
    OptionSpec {
        name: "echelon",
        value_name: "N,N,...",
        help: "bands each ship, in the order named, starts farther (+) or closer (-) than the starting band from every enemy, -6 to 6 (default 0 for all)",
        kind: OptionKind::Text,
        required: false,
    },
    OptionSpec {
        name: "board",
        value_name: "",
        help: "this side's ships close to Adjacent range with their target and attempt boarding actions until grappled",
        kind: OptionKind::Flag,
        required: false,
    },
    OptionSpec {
        name: "focus",
        value_name: "RULE",
        help: "how this side's ships pick their target: weakest (fewest hull points left) or nearest; default weakest",
        kind: OptionKind::Choice(FOCUS_IDS),
        required: false,
    },
];

/// A mount as ship sheets show it.
#[derive(Debug, Serialize)]
struct MountSheet {
    id: String,
    kind: String,
    weapons: Vec<String>,
}

/// A crew member's characteristics, in the printed order.
#[derive(Debug, Serialize)]
struct Characteristics {
    str: u8,
    dex: u8,
    end: u8,
    int: u8,
    edu: u8,
    soc: u8,
}

impl Characteristics {
    fn of(member: &crate::model::CrewMember) -> Characteristics {
        use crate::model::Characteristic as C;
        Characteristics {
            str: member.characteristic(C::Str),
            dex: member.characteristic(C::Dex),
            end: member.characteristic(C::End),
            int: member.characteristic(C::Int),
            edu: member.characteristic(C::Edu),
            soc: member.characteristic(C::Soc),
        }
    }

    fn text(&self) -> String {
        format!(
            "STR {} DEX {} END {} INT {} EDU {} SOC {}",
            self.str, self.dex, self.end, self.int, self.edu, self.soc
        )
    }
}

/// A crew member as ship sheets show them.
#[derive(Debug, Serialize)]
struct CrewSheet {
    name: String,
    positions: Vec<String>,
    skills: BTreeMap<String, i8>,
    characteristics: Characteristics,
}

/// A ship class as `broadside ships` lists it.
#[derive(Debug, Serialize)]
pub struct ClassSheet {
    id: String,
    name: String,
    tons: i32,
    tl: i32,
    hull: i32,
    armour: i32,
    thrust: i32,
    jump: i32,
    sensors: String,
    sensors_dm: i32,
    mounts: Vec<MountSheet>,
    magazines: BTreeMap<String, u16>,
    crew: Vec<CrewSheet>,
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    notes: Option<String>,
}

fn position_id(class: &crate::model::ShipClass, p: Position) -> String {
    match p {
        Position::Gunner(m) => format!("gunner:{}", class.mounts[usize::from(m)].id),
        other => Position::NAMED
            .iter()
            .find(|(q, _)| *q == other)
            .map_or_else(String::new, |(_, name)| (*name).to_owned()),
    }
}

impl ClassSheet {
    fn of(rules: &Rules, class: &crate::model::ShipClass) -> ClassSheet {
        ClassSheet {
            id: class.id.clone(),
            name: class.name.clone(),
            tons: class.tons,
            tl: class.tl,
            hull: class.hull,
            armour: class.armour,
            thrust: class.thrust,
            jump: class.jump,
            sensors: class.sensors.clone(),
            sensors_dm: class.sensors_dm,
            mounts: class
                .mounts
                .iter()
                .map(|m| MountSheet {
                    id: m.id.clone(),
                    kind: rules.mount_kind(m.kind).id.clone(),
                    weapons: m
                        .slots
                        .iter()
                        .map(|&s| rules.weapon(class.slots[usize::from(s)].weapon).id.clone())
                        .collect(),
                })
                .collect(),
            magazines: class
                .magazines
                .iter()
                .map(|&(w, n)| (rules.weapon(w).id.clone(), n))
                .collect(),
            crew: class
                .crew
                .iter()
                .map(|member| CrewSheet {
                    name: member.name.clone(),
                    positions: member
                        .positions
                        .iter()
                        .map(|&p| position_id(class, p))
                        .collect(),
                    skills: member
                        .skills
                        .iter()
                        .enumerate()
                        .filter_map(|(i, level)| Some((rules.skills[i].id.clone(), (*level)?)))
                        .collect(),
                    characteristics: Characteristics::of(member),
                })
                .collect(),
            source: class.source.clone(),
            notes: class.notes.clone(),
        }
    }
}

impl Sheet for ClassSheet {
    fn lines(&self) -> Vec<String> {
        let mounts: Vec<String> = self
            .mounts
            .iter()
            .map(|m| format!("{} {} ({})", m.kind, m.id, m.weapons.join(", ")))
            .collect();
        let mut lines = vec![format!(
            "{}: {} t, TL {}, hull {}, armour {}, thrust {}, jump {}, {} sensors; {}",
            self.name,
            self.tons,
            self.tl,
            self.hull,
            self.armour,
            self.thrust,
            self.jump,
            self.sensors,
            mounts.join("; ")
        )];
        for member in &self.crew {
            let skills: Vec<String> = member
                .skills
                .iter()
                .map(|(skill, level)| format!("{skill} {level}"))
                .collect();

            lines.push(format!(
                "  {} crew: {} [{}]: {}; {}",
                self.id,
                member.name,
                member.positions.join(", "),
                if skills.is_empty() {
                    "no skills".to_owned()
                } else {
                    skills.join(", ")
                },
                member.characteristics.text()
            ));
        }
        lines
    }
}

impl ShipSheet for ClassSheet {
    fn id(&self) -> &str {
        &self.id
    }
    fn row(&self) -> Vec<(&'static str, String)> {
        vec![
            ("ship", self.id.clone()),
            ("tons", self.tons.to_string()),
            ("TL", self.tl.to_string()),
            ("hull", self.hull.to_string()),
            ("armour", self.armour.to_string()),
            ("thrust", self.thrust.to_string()),
            ("jump", self.jump.to_string()),
            (
                "sensors",
                format!("{} ({:+})", self.sensors, self.sensors_dm),
            ),
            (
                "mounts",
                self.mounts
                    .iter()
                    .map(|m| format!("{}: {}", m.id, m.weapons.join(" + ")))
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
            ("crew", self.crew.len().to_string()),
        ]
    }
}

/// A location's critical hit state in a report.
#[derive(Debug, Serialize)]
struct LocationState {
    location: String,
    severity: u8,
    jury_rigged: bool,
}

/// A ship's state after an attack, as reports show it.
#[derive(Debug, Serialize)]
pub(crate) struct ShipReport {
    ship: String,
    hull: i32,
    hull_max: i32,
    armour: i32,
    armour_max: i32,
    thrust: i32,
    wrecked: bool,
    criticals: Vec<LocationState>,
    weapons_harmed: Vec<String>,
    magazines: BTreeMap<String, u16>,
}

impl ShipReport {
    pub(crate) fn of(rules: &Rules, ship: &Ship) -> ShipReport {
        let class = ship.class(rules);
        ShipReport {
            ship: class.id.clone(),
            hull: ship.hull,
            hull_max: class.hull,
            armour: ship.armour,
            armour_max: class.armour,
            thrust: ship.thrust(rules),
            wrecked: ship.is_wrecked(),
            criticals: rules
                .criticals
                .locations
                .iter()
                .enumerate()
                .filter(|&(i, _)| ship.severity[i] > 0)
                .map(|(i, l)| LocationState {
                    location: l.id.clone(),
                    severity: ship.severity[i],
                    jury_rigged: ship.jury_rigged & (1 << i) != 0,
                })
                .collect(),
            weapons_harmed: class
                .slots
                .iter()
                .zip(&ship.weapons)
                .filter(|(_, c)| **c != crate::ship::Condition::Ready)
                .map(|(slot, c)| {
                    format!(
                        "{} in {}: {}",
                        rules.weapon(slot.weapon).id,
                        class.mounts[usize::from(slot.mount)].id,
                        c.id()
                    )
                })
                .collect(),
            magazines: class
                .magazines
                .iter()
                .zip(&ship.magazines)
                .map(|(&(w, _), &n)| (rules.weapon(w).id.clone(), n))
                .collect(),
        }
    }

    fn line(&self) -> String {
        let mut line = format!(
            "{}: hull {} of {}, armour {} of {}, thrust {}",
            self.ship, self.hull, self.hull_max, self.armour, self.armour_max, self.thrust
        );
        if self.wrecked {
            line.push_str(", wrecked");
        }
        if !self.criticals.is_empty() {
            let crits: Vec<String> = self
                .criticals
                .iter()
                .map(|c| format!("{} {}", c.location, c.severity))
                .collect();
            line.push_str(&format!("; critical hits: {}", crits.join(", ")));
        }
        if !self.weapons_harmed.is_empty() {
            line.push_str(&format!("; weapons: {}", self.weapons_harmed.join(", ")));
        }
        line
    }
}

/// The attack's dice in a report.
#[derive(Debug, Serialize)]
struct RollReport {
    dice: Vec<u32>,
    total: i32,
}

/// One reaction in a report.
#[derive(Debug, Serialize)]
struct ReactionReport {
    reaction: &'static str,
    roll: RollReport,
    total: i32,
    target: i32,
    effect: i32,
    success: bool,
    burned_initiative: bool,
    /// Missiles removed, DM taken off the attack, or damage taken off.
    amount: i32,
}

/// A salvo's missiles in a report.
#[derive(Debug, Serialize)]
struct MissileReport {
    launched: u8,
    shot_down: u8,
    jammed: u8,
    attacking: u8,
    flight_rounds: u8,
}

/// One critical hit in a report.
#[derive(Debug, Serialize)]
struct CriticalReport {
    location: String,
    severity_before: u8,
    severity: u8,
    cause: &'static str,
    effect: String,
}

/// The result of `broadside resolve crew-2d6`.
#[derive(Debug, Serialize)]
pub struct ResolveReport {
    attacker: String,
    weapon: String,
    target_ship: String,
    range_band: &'static str,
    mode: &'static str,
    firer: Option<String>,
    roll: RollReport,
    dm: i32,
    total: i32,
    target_number: i32,
    effect: i32,
    hit: bool,
    reactions: Vec<ReactionReport>,
    missiles: Option<MissileReport>,
    damage_roll: Option<i32>,
    multiplier: Option<i32>,
    armour: Option<i32>,
    /// Hull points the target lost in all: the hit and its critical hits.
    damage: i32,
    criticals: Vec<CriticalReport>,
    target: ShipReport,
    /// What the attack came to in the terms every system shares.
    #[serde(skip)]
    outcome: broadside_core::AttackOutcome,
}

impl Sheet for ResolveReport {
    fn attack_outcome(&self) -> Option<broadside_core::AttackOutcome> {
        Some(self.outcome.clone())
    }

    fn lines(&self) -> Vec<String> {
        let dice: Vec<String> = self.roll.dice.iter().map(u32::to_string).collect();
        let what = match &self.missiles {
            Some(m) => format!("a salvo of {} {}", m.launched, self.weapon),
            None => self.weapon.clone(),
        };
        let mut lines = vec![match &self.missiles {
            Some(m) if m.attacking == 0 => format!(
                "{} attacks {} with {what} at {} range: no missile left to attack, no attack roll",
                self.attacker, self.target_ship, self.range_band,
            ),
            _ => format!(
                "{} attacks {} with {what} at {} range: 2D [{}] = {}, total {} against {}+: {}, Effect {:+}",
                self.attacker,
                self.target_ship,
                self.range_band,
                dice.join(", "),
                self.roll.total,
                self.total,
                self.target_number,
                if self.hit { "hit" } else { "miss" },
                self.effect
            ),
        }];
        for r in &self.reactions {
            let faces: Vec<String> = r.roll.dice.iter().map(u32::to_string).collect();
            lines.push(format!(
                "{}: 2D [{}], total {} against {}+: {} (Effect {:+}){}{}",
                r.reaction,
                faces.join(", "),
                r.total,
                r.target,
                if r.success { "success" } else { "failure" },
                r.effect,
                // A failed reaction changes nothing, so it names no consequence
                // (not "attack DM -0").
                match r.reaction {
                    _ if !r.success => String::new(),
                    "point-defence" | "ecm" => format!(", {} missile(s) removed", r.amount),
                    "dodge" => format!(", attack DM -{}", r.amount),
                    _ => format!(", damage -{}", r.amount),
                },
                if r.burned_initiative {
                    ", initiative burned"
                } else {
                    ""
                }
            ));
        }
        if let Some(m) = &self.missiles {
            lines.push(format!(
                "missiles: {} launched, {} shot down, {} jammed, {} attacking",
                m.launched, m.shot_down, m.jammed, m.attacking
            ));
        }
        if let (Some(roll), Some(mult), Some(armour)) =
            (self.damage_roll, self.multiplier, self.armour)
        {
            lines.push(format!(
                "damage dice {roll}, armour {armour}, multiplier {mult}: {} hull damage in all",
                self.damage
            ));
        }
        for c in &self.criticals {
            lines.push(format!(
                "critical hit ({}): {} severity {}: {}",
                c.cause, c.location, c.severity, c.effect
            ));
        }
        lines.push(self.target.line());
        lines
    }
}

impl Crew2d6 {
    fn tables_of_the_data(&self) -> Vec<TableView> {
        let rules = &self.rules;
        let c = &rules.constants;
        let rows = |items: Vec<(String, Vec<String>)>| -> Vec<TableRowView> {
            items
                .into_iter()
                .map(|(label, cells)| TableRowView { label, cells })
                .collect()
        };
        let mut tables = vec![
            TableView {
                id: "difficulties".into(),
                title: "Task difficulties (2D + skill + DMs; Effect = total - target)".into(),
                row_header: "difficulty".into(),
                columns: vec!["target".into()],
                rows: rows(
                    rules
                        .difficulties
                        .iter()
                        .map(|(name, t)| (name.clone(), vec![format!("{t}+")]))
                        .collect(),
                ),
            },
            TableView {
                id: "characteristic-dm".into(),
                title: format!(
                    "Characteristic DMs (an unskilled check is at {:+})",
                    rules.unskilled
                ),
                row_header: "value".into(),
                columns: vec!["dm".into()],
                rows: rows(
                    rules
                        .characteristic_dm
                        .rows
                        .iter()
                        .map(|r| (r.label(), vec![format!("{:+}", r.value)]))
                        .collect(),
                ),
            },
            TableView {
                id: "chain-dm".into(),
                title: match rules.chain_mode {
                    ChainMode::Table => "Task chain DMs (in use for chained Effects)".into(),
                    ChainMode::Effect => {
                        "Task chain DMs (not in use: chained Effects pass as themselves)".into()
                    }
                },
                row_header: "effect".into(),
                columns: vec!["dm".into()],
                rows: rows(
                    rules
                        .chain
                        .rows
                        .iter()
                        .map(|r| (r.label(), vec![format!("{:+}", r.value)]))
                        .collect(),
                ),
            },
            TableView {
                id: "reactions".into(),
                title: format!(
                    "Number of reactions by initiative (each more burns {:+} initiative next turn)",
                    c.burn
                ),
                row_header: "initiative".into(),
                columns: vec!["reactions".into()],
                rows: rows(
                    rules
                        .reactions
                        .rows
                        .iter()
                        .map(|r| (r.label(), vec![r.value.to_string()]))
                        .collect(),
                ),
            },
            TableView {
                id: "range-bands".into(),
                title: "Range bands".into(),
                row_header: "band".into(),
                columns: vec![
                    "name".into(),
                    "distance".into(),
                    "attack dm".into(),
                    "thrust to leave".into(),
                    "missile flight (rounds)".into(),
                ],
                rows: rows(
                    rules
                        .bands
                        .iter()
                        .map(|b| {
                            (
                                b.band.id().to_owned(),
                                vec![
                                    b.name.clone(),
                                    b.distance.clone(),
                                    format!("{:+}", b.attack_dm),
                                    b.thrust.to_string(),
                                    b.missile_flight.to_string(),
                                ],
                            )
                        })
                        .collect(),
                ),
            },
            TableView {
                id: "starting-band".into(),
                title: format!(
                    "Starting band near a planet or other object (d6); a random encounter starts at {}",
                    rules.band(c.random_encounter).name
                ),
                row_header: "d6".into(),
                columns: vec!["band".into()],
                rows: rows(
                    c.near_object
                        .rows
                        .iter()
                        .map(|r| (r.label(), vec![r.value.id().to_owned()]))
                        .collect(),
                ),
            },
            TableView {
                id: "weapons".into(),
                title: "Weapons".into(),
                row_header: "weapon".into(),
                columns: vec![
                    "name".into(),
                    "tl".into(),
                    "kind".into(),
                    "range".into(),
                    "damage".into(),
                    "attack dm".into(),
                    "traits".into(),
                    "magazine".into(),
                ],
                rows: rows(
                    rules
                        .weapons
                        .iter()
                        .map(|w| {
                            let mut traits = Vec::new();
                            if w.point_defence {
                                traits.push("point defence".to_owned());
                            }
                            if w.sand_stops {
                                traits.push("stopped by sand".to_owned());
                            }
                            if w.ap > 0 {
                                traits.push(format!("AP {}", w.ap));
                            }
                            if w.smart {
                                traits.push("smart".to_owned());
                            }
                            (
                                w.id.clone(),
                                vec![
                                    w.name.clone(),
                                    w.tl.to_string(),
                                    match w.kind {
                                        WeaponKind::Direct => "direct",
                                        WeaponKind::Missile => "missile",
                                        WeaponKind::Sandcaster => "sandcaster",
                                    }
                                    .to_owned(),
                                    w.range.id().to_owned(),
                                    w.damage.map_or_else(|| "-".to_owned(), |d| d.to_string()),
                                    format!("{:+}", w.attack_dm),
                                    traits.join(", "),
                                    if w.magazine > 0 {
                                        w.magazine.to_string()
                                    } else {
                                        "-".to_owned()
                                    },
                                ],
                            )
                        })
                        .collect(),
                ),
            },
            TableView {
                id: "mounts".into(),
                title: "Mount kinds".into(),
                row_header: "mount".into(),
                columns: vec![
                    "capacity".into(),
                    "damage multiplier".into(),
                    "skill".into(),
                    "fired by".into(),
                ],
                rows: rows(
                    rules
                        .mount_kinds
                        .iter()
                        .map(|k| {
                            (
                                k.id.clone(),
                                vec![
                                    k.capacity.to_string(),
                                    k.multiplier.to_string(),
                                    rules.skills[usize::from(k.skill)].id.clone(),
                                    if k.pilot { "pilot" } else { "gunner" }.to_owned(),
                                ],
                            )
                        })
                        .collect(),
                ),
            },
            TableView {
                id: "identical-weapons".into(),
                title: "Identical weapons firing together from one mount".into(),
                row_header: "weapons".into(),
                columns: vec![
                    "attack dm".into(),
                    "point defence dm".into(),
                    "damage per die".into(),
                ],
                rows: rows(
                    (1u8..=3)
                        .map(|n| {
                            (
                                n.to_string(),
                                vec![
                                    format!("{:+}", rules.identical.attack(n)),
                                    format!("{:+}", rules.identical.point_defence(n)),
                                    format!("{:+}", rules.identical.damage_per_die(n)),
                                ],
                            )
                        })
                        .collect(),
                ),
            },
            TableView {
                id: "skills".into(),
                title: "Skills the system knows".into(),
                row_header: "skill".into(),
                columns: vec!["name".into()],
                rows: rows(
                    rules
                        .skills
                        .iter()
                        .map(|s| (s.id.clone(), vec![s.name.clone()]))
                        .collect(),
                ),
            },
            TableView {
                id: "tasks".into(),
                title: "Task checks of every action and reaction".into(),
                row_header: "task".into(),
                columns: vec![
                    "name".into(),
                    "position".into(),
                    "skill".into(),
                    "characteristic".into(),
                    "difficulty".into(),
                    "thrust".into(),
                ],
                rows: rows(
                    rules
                        .tasks
                        .iter()
                        .map(|t| {
                            let mut skills = if t.mount_skill {
                                "the mount's Gunner specialty".to_owned()
                            } else {
                                t.skills
                                    .iter()
                                    .map(|&s| rules.skills[usize::from(s)].id.clone())
                                    .collect::<Vec<_>>()
                                    .join(" or ")
                            };
                            // A repair may also use the Engineer specialty
                            // of the location repaired (criticals.toml).
                            if t.task == crate::model::Task::Repair {
                                skills.push_str(" or the location's engineer specialty");
                            }
                            (
                                t.task.id().to_owned(),
                                vec![
                                    t.name.clone(),
                                    t.position.clone(),
                                    skills,
                                    t.characteristics
                                        .iter()
                                        .map(|c| c.abbreviation())
                                        .collect::<Vec<_>>()
                                        .join(" or "),
                                    format!("{} {}+", title_case(&t.difficulty_name), t.difficulty),
                                    t.thrust.to_string(),
                                ],
                            )
                        })
                        .collect(),
                ),
            },
            TableView {
                id: "critical-locations".into(),
                title: format!(
                    "Critical hit location (2D); a hit at Effect {}+ that does damage is critical, severity = damage / {} rounded up",
                    rules.criticals.effect, rules.criticals.damage_per_severity
                ),
                row_header: "2d6".into(),
                columns: vec!["location".into(), "name".into()],
                rows: rows(
                    rules
                        .criticals
                        .locations
                        .iter()
                        .map(|l| (l.roll.to_string(), vec![l.id.clone(), l.name.clone()]))
                        .collect(),
                ),
            },
        ];
        let severities = usize::from(rules.criticals.max_severity);
        tables.push(TableView {
            id: "critical-effects".into(),
            title: "Critical hit effects by severity (standing effects add up)".into(),
            row_header: "location".into(),
            columns: (1..=severities).map(|s| format!("severity {s}")).collect(),
            rows: rows(
                rules
                    .criticals
                    .locations
                    .iter()
                    .map(|l| {
                        (
                            l.id.clone(),
                            l.rows.iter().map(|r| r.text.clone()).collect(),
                        )
                    })
                    .collect(),
            ),
        });
        tables.push(TableView {
            id: "rules".into(),
            title: "Numbers of the rules outside the tables".into(),
            row_header: "rule".into(),
            columns: vec!["value".into()],
            rows: rows(vec![
                (
                    "random-encounter".into(),
                    vec![c.random_encounter.id().to_owned()],
                ),
                (
                    "initiative-tactics".into(),
                    vec![match c.tactics_mode {
                        ChainMode::Effect => "the Effect, good or bad".to_owned(),
                        ChainMode::Table => "chained".to_owned(),
                    }],
                ),
                ("burn-initiative".into(), vec![format!("{:+}", c.burn)]),
                ("aim-dm".into(), vec![format!("{:+}", c.aim_dm)]),
                ("aim-max".into(), vec![c.aim_max.to_string()]),
                (
                    "overcharge-max-multiple".into(),
                    vec![c.overcharge_max_multiple.to_string()],
                ),
                (
                    "overcharge-one-hit-at".into(),
                    vec![format!("{:+}", c.overcharge_one_hit_at)],
                ),
                (
                    "overcharge-two-hits-at".into(),
                    vec![format!("{:+}", c.overcharge_two_hits_at)],
                ),
                (
                    "missile-attack".into(),
                    vec![format!(
                        "{} {}+",
                        title_case(&c.missile_attack_name),
                        c.missile_attack
                    )],
                ),
                (
                    "missile-per-extra".into(),
                    vec![format!("{:+}", c.per_extra_missile)],
                ),
                (
                    "missile-tl-dm".into(),
                    vec![format!("{:+} to {:+}", c.tl_dm_min, c.tl_dm_max)],
                ),
                (
                    "smart-lost-at".into(),
                    vec![{
                        let bands: Vec<&str> = Band::ALL
                            .iter()
                            .filter(|b| c.smart_lost_at[b.index()])
                            .map(|b| b.id())
                            .collect();
                        if bands.is_empty() {
                            "none".to_owned()
                        } else {
                            bands.join(", ")
                        }
                    }],
                ),
                (
                    "missile-zero-effect-multiplier".into(),
                    vec![c.zero_effect_multiplier.to_string()],
                ),
                (
                    "missile-cap-at-missiles".into(),
                    vec![c.cap_at_missiles.to_string()],
                ),
                (
                    "missile-armour".into(),
                    vec![match c.missile_armour {
                        MissileArmour::PerMissile => "per missile".to_owned(),
                        MissileArmour::Once => "once".to_owned(),
                    }],
                ),
                ("sand-reduction".into(), vec![c.sand_reduction.to_string()]),
                (
                    "sand-add-effect".into(),
                    vec![c.sand_add_effect.to_string()],
                ),
                (
                    "sustained-percent".into(),
                    vec![rules.criticals.sustained_percent.to_string()],
                ),
                (
                    "repair-dm-per-severity".into(),
                    vec![format!("{:+}", rules.criticals.repair_dm_per_severity)],
                ),
            ]),
        });
        tables
    }
}

impl System for Crew2d6 {
    const ID: &'static str = ID;
    const TITLE: &'static str =
        "Traveller (Mongoose 2nd edition) space combat, house rules with Alderson points";
    const DESCRIPTION: &'static str = "crew positions make 2D task checks against 8+; chained Effects, reactions by initiative, missile salvos, range bands and critical hits";
    const EMBEDDED: &'static [(&'static str, &'static str)] = broadside_data::embed!(
        "../../rulesets/crew-2d6":
        "checks.toml",
        "tasks.toml",
        "ranges.toml",
        "weapons.toml",
        "criticals.toml",
        "rules.toml",
        "ships.toml",
    );
    const RESOLVE_OPTIONS: &'static [OptionSpec] = RESOLVE_OPTIONS;
    const BATTLE_OPTIONS: &'static [OptionSpec] = BATTLE_OPTIONS;
    const SIDE_OPTIONS: &'static [OptionSpec] = SIDE_OPTIONS;
    const LOSSES: &'static [Loss] = &[Loss::Destroyed, Loss::Disarmed];
    const ESCAPES: bool = true;

    type ShipSheet = ClassSheet;
    type Report = ResolveReport;
    type Setup = Fleets;

    fn from_files(files: &[SourceFile]) -> Result<Crew2d6, DataErrors> {
        Crew2d6::load(files)
    }

    fn ship_sheets(&self) -> Vec<ClassSheet> {
        self.rules
            .ships
            .iter()
            .map(|class| ClassSheet::of(&self.rules, class))
            .collect()
    }

    fn table_views(&self) -> Vec<TableView> {
        self.tables_of_the_data()
    }

    fn declare(&self, request: &ResolveRequest) -> Result<(Battle, Attack), ResolveError> {
        let prepared = self.prepare_resolve(request)?;
        let mut battle = prepared.battle;
        // The report prints the attack's and the reactions' faces.
        battle.reported = true;
        Ok((battle, prepared.attack))
    }

    fn report(
        &self,
        request: &ResolveRequest,
        resolved: Resolved<Crew2d6>,
        _sink: &mut dyn EventSink,
    ) -> ResolveReport {
        let Resolved {
            before,
            board: battle,
            attack,
            outcome,
        } = resolved;
        let (attacker, target) = (ShipId(0), ShipId(1));
        let band = before.band(attacker, target);
        let mount = match attack.weaponry {
            Weaponry::Direct { mount, .. } => mount,
            // As `prepare_resolve` reads it: the first mount of the weapon.
            Weaponry::Salvo { weapon, .. } => {
                let class = before.ship(attacker).class(&self.rules);
                (class.slots.iter().find(|s| s.weapon == weapon)).map_or(0, |s| s.mount)
            }
        };
        let weapon = request.options.text("weapon").unwrap_or_default();
        let flight = self.rules.band(band).missile_flight;
        let hull_before = before.ship(target).hull;
        self.report(
            request,
            weapon,
            band,
            mount,
            &battle,
            &outcome,
            hull_before,
            flight,
        )
    }

    /// Played in steps: the attack up to its hull damage, then each piece
    /// of critical-hit work it sets off, equal states merged between steps
    /// (core's `exact_attack_in_steps`), so that chains of critical hits
    /// reaching the same ship merge. Nothing prints faces, so every check
    /// asks for the bands of its sum that the rules read. After the first
    /// step only the target changes, so a state is the target alone, and
    /// the work the report can never read is not done (see
    /// [`Crew2d6::unread_by_the_report`]).
    fn exact_resolve(
        &self,
        request: &ResolveRequest,
        max_paths: u64,
        min_probability: Prob,
    ) -> Result<ExactAttack, ExactError> {
        let prepared = self.prepare_resolve(request)?;
        let mut start = prepared.battle;
        start.defer_criticals = true;
        let target = ShipId(1);
        let hull_before = start.ship(target).hull;
        let label = start.labels[target.index()];
        exact_attack_in_steps(
            max_paths,
            min_probability,
            |state: Option<&Stepping>, dice| {
                let stepping = match state {
                    None => {
                        let mut battle = start.clone();
                        let outcome = self.resolve_attack(
                            &mut battle,
                            &prepared.attack,
                            dice,
                            &mut NullSink,
                        )?;
                        Stepping {
                            ship: battle.ship(target).clone(),
                            pending: battle.pending,
                            hit: outcome.hit,
                            results: 0,
                        }
                    }
                    Some(state) => {
                        let mut stepping = state.clone();
                        let pending = stepping.pending.pop().ok_or_else(|| {
                            ResolveError::Internal("a step with no critical-hit work".into())
                        })?;
                        if !self.unread_by_the_report(pending) {
                            let mut work = Work::new();
                            let mut applied = Applied::default();
                            self.work_one(
                                &mut stepping.ship,
                                label,
                                pending,
                                &mut work,
                                &mut applied,
                                dice,
                                &mut NullSink,
                            )?;
                            // Pushed in order, so the last pushed is still done first.
                            stepping.pending.extend(work);
                            for c in &applied.criticals {
                                let bit = u32::from(c.location) * 8 + u32::from(c.to);
                                if bit >= u128::BITS {
                                    return Err(ResolveError::Internal(
                                        "a critical hit location beyond the exact report's".into(),
                                    ));
                                }
                                stepping.results |= 1 << bit;
                            }
                        }
                        stepping
                    }
                };
                if !stepping.pending.is_empty() {
                    return Ok(Stepped::Going(stepping));
                }
                let rules = &self.rules;
                let results = (0..u128::BITS)
                    .filter(|&bit| stepping.results & (1 << bit) != 0)
                    .map(|bit| {
                        let location = &rules.criticals.locations[(bit / 8) as usize];
                        format!("critical hit: {} severity {}", location.name, bit % 8)
                    })
                    .collect();
                let damage = hull_before - stepping.ship.hull;
                Ok(Stepped::Done(self.shared_outcome_of(
                    &stepping.ship,
                    stepping.hit,
                    results,
                    damage,
                )))
            },
        )
    }

    fn battle_setup(&self, request: &BattleRequest) -> Result<Fleets, ResolveError> {
        self.fleets(request)
    }
}

/// A single attack part played for exact odds: the target, its
/// critical-hit work pending (last pushed first), whether the attack hit,
/// and the critical hits taken so far, as bits (location times 8 plus the
/// severity reached): the order they came in is not kept, so that chains
/// reaching the same ship merge.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Stepping {
    ship: Ship,
    pending: Vec<crate::damage::Pending>,
    hit: bool,
    results: u128,
}

impl AttackState for Stepping {
    fn hit(&self) -> bool {
        self.hit
    }

    /// Every piece of work either raises a severity, takes hull, counts a
    /// tenth lost or destroys a weapon (each weighed far above the work
    /// pending), or is done and leaves one piece fewer pending.
    fn progress(&self) -> u64 {
        let ship = &self.ship;
        let severities: u64 = ship.severity.iter().map(|&s| u64::from(s)).sum();
        let destroyed = ship
            .weapons
            .iter()
            .filter(|&&c| c == crate::ship::Condition::Destroyed)
            .count() as u64;
        let hull_lost = u64::try_from(i64::from(i32::MAX) - i64::from(ship.hull)).unwrap_or(0);
        let done = severities + u64::from(ship.sustained) + destroyed + hull_lost;
        (done << 16).saturating_sub(self.pending.len() as u64)
    }
}

/// A single attack set up from a request, not yet resolved.
struct Prepared {
    battle: Battle,
    attack: Attack,
}

impl Crew2d6 {
    /// Sets up the single attack a request asks for, on fresh ships: its
    /// battle and attack, or why the rules refuse it.
    fn prepare_resolve(&self, request: &ResolveRequest) -> Result<Prepared, ResolveError> {
        let rules = &self.rules;
        let options = &request.options;
        let known_ships = || rules.ships.iter().map(|s| s.id.as_str());
        let a = rules
            .class_id(&request.attacker)
            .ok_or_else(|| ResolveError::unknown("ship", &request.attacker, known_ships()))?;
        let b = rules
            .class_id(&request.target)
            .ok_or_else(|| ResolveError::unknown("ship", &request.target, known_ships()))?;
        let weapon_name = options.required_text("weapon")?;
        let weapon = rules.weapon_id(weapon_name).ok_or_else(|| {
            ResolveError::unknown(
                "weapon",
                weapon_name,
                rules.weapons.iter().map(|w| w.id.as_str()),
            )
        })?;
        let band_name = options.required_text("range-band")?;
        let band = Band::from_id(band_name).ok_or_else(|| {
            ResolveError::unknown("range-band", band_name, BAND_IDS.iter().copied())
        })?;
        let aim = match options.number("aim")? {
            None => 0,
            Some(n) if (0..=i64::from(rules.constants.aim_max)).contains(&n) => n as u8,
            Some(n) => {
                return Err(ResolveError::bad_option(
                    "aim",
                    format!("{n} aims: at most {}", rules.constants.aim_max),
                ));
            }
        };
        let mut battle = Battle::duel(rules, a, b, band, false);
        let (attacker, target) = (ShipId(0), ShipId(1));
        // A single attack has no initiative step: the target has the thrust
        // of its drive for a dodge, and any reaction it is asked for.
        let thrust = battle.ship(target).thrust(rules);
        battle.state_mut(target).thrust = thrust;
        battle.state_mut(target).thrust_left = thrust;
        let class = battle.ship(attacker).class(rules);
        let w = rules.weapon(weapon);
        let Some(first_mount) = class
            .slots
            .iter()
            .find(|s| s.weapon == weapon)
            .map(|s| s.mount)
        else {
            return Err(ResolveError::Refused(format!(
                "the {} carries no {weapon_name}",
                request.attacker
            )));
        };
        let point_defence = match options.number("point-defense")? {
            None => 0,
            Some(n) => u8::try_from(n)
                .map_err(|_| ResolveError::bad_option("point-defense", "too many mounts"))?,
        };
        let reactions = Reactions {
            dodge: options.flag("dodge"),
            point_defence,
            ecm: options.flag("ecm"),
            sand: options.flag("sand"),
        };
        let salvo = options.number("salvo")?;
        let (weaponry, mount) = match w.kind {
            WeaponKind::Direct => {
                if salvo.is_some() {
                    return Err(ResolveError::bad_option(
                        "salvo",
                        format!("the {weapon_name} is not a missile"),
                    ));
                }
                // The first mount of the weapon that can fire it, else the
                // first mount of it (whose refusal then says why).
                let mount = (0..class.mounts.len() as u8)
                    .find(|&m| self.can_fire(&battle, attacker, target, m, weapon))
                    .unwrap_or(first_mount);
                (Weaponry::Direct { mount, weapon }, mount)
            }
            WeaponKind::Missile => {
                let missiles = match salvo {
                    Some(n) => u8::try_from(n)
                        .map_err(|_| ResolveError::bad_option("salvo", "too many missiles"))?,
                    None => {
                        let magazine = battle.ship(attacker).magazine(rules, weapon).unwrap_or(0);
                        let launchers = self.launchers(&battle, attacker, weapon);
                        u16::from(launchers).min(magazine) as u8
                    }
                };
                (Weaponry::Salvo { weapon, missiles }, first_mount)
            }
            WeaponKind::Sandcaster => {
                return Err(ResolveError::Refused(format!(
                    "a {} is used only as a reaction",
                    w.name
                )));
            }
        };
        let state = battle.state_mut(attacker);
        state.aim[usize::from(mount)] = aim;
        state.aim_target[usize::from(mount)] = target;
        let attack = Attack {
            attacker,
            target,
            weaponry,
            reactions,
        };
        Ok(Prepared { battle, attack })
    }
}

impl Crew2d6 {
    #[allow(
        clippy::too_many_arguments,
        reason = "a report gathers the request, the battle and the outcome"
    )]
    fn report(
        &self,
        request: &ResolveRequest,
        weapon: &str,
        band: Band,
        mount: u8,
        battle: &Battle,
        outcome: &AttackOutcome,
        hull_before: i32,
        flight: u8,
    ) -> ResolveReport {
        let rules = &self.rules;
        let class = battle.ship(ShipId(0)).class(rules);
        let firer = match outcome.missiles {
            Some(_) => None,
            None => class.mounts[usize::from(mount)]
                .firer
                .map(|p| class.crew[usize::from(p)].name.clone()),
        };
        let target = battle.ship(ShipId(1));
        let check = &outcome.check;
        let applied = outcome.damage.as_ref();
        let damage = hull_before - target.hull;
        let shared = self.shared_outcome(battle, outcome, damage);
        ResolveReport {
            attacker: request.attacker.clone(),
            weapon: weapon.to_owned(),
            target_ship: request.target.clone(),
            range_band: band.id(),
            mode: if outcome.missiles.is_some() {
                "salvo"
            } else {
                "direct-fire"
            },
            firer,
            roll: RollReport {
                dice: check.faces(),
                total: check.roll,
            },
            dm: outcome.dm,
            total: outcome.total,
            target_number: check.target,
            effect: outcome.effect,
            hit: outcome.hit,
            reactions: outcome
                .reactions
                .iter()
                .map(|r| ReactionReport {
                    reaction: r.kind.id(),
                    roll: RollReport {
                        dice: r.check.faces(),
                        total: r.check.roll,
                    },
                    total: r.check.total,
                    target: r.check.target,
                    effect: r.check.effect,
                    success: r.check.success,
                    burned_initiative: r.burned,
                    amount: r.amount,
                })
                .collect(),
            missiles: outcome.missiles.map(|m| MissileReport {
                launched: m.launched,
                shot_down: m.shot_down,
                jammed: m.jammed,
                attacking: m.attacking,
                flight_rounds: flight,
            }),
            damage_roll: applied.map(|a| a.damage_roll),
            multiplier: applied.map(|a| a.multiplier),
            armour: applied.map(|a| a.armour),
            damage,
            criticals: applied
                .map(|a| {
                    a.criticals
                        .iter()
                        .map(|c| {
                            let location = &rules.criticals.locations[usize::from(c.location)];
                            CriticalReport {
                                location: location.id.clone(),
                                severity_before: c.from,
                                severity: c.to,
                                cause: c.cause.id(),
                                effect: location.rows[usize::from(c.to) - 1].text.clone(),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default(),
            target: ShipReport::of(rules, target),
            outcome: shared,
        }
    }

    /// An attack on a fresh target in the terms every system shares: each
    /// critical hit as its location and the severity it reached, a wreck,
    /// and the weapons it destroyed.
    fn shared_outcome(
        &self,
        battle: &Battle,
        outcome: &AttackOutcome,
        damage: i32,
    ) -> broadside_core::AttackOutcome {
        let rules = &self.rules;
        let results = outcome
            .damage
            .iter()
            .flat_map(|applied| &applied.criticals)
            .map(|c| {
                let location = &rules.criticals.locations[usize::from(c.location)];
                format!("critical hit: {} severity {}", location.name, c.to)
            })
            .collect();
        self.shared_outcome_of(battle.ship(ShipId(1)), outcome.hit, results, damage)
    }

    /// Critical-hit work whose outcome no figure of `resolve --exact` reads,
    /// and nothing later in the attack either: the armour a row takes off
    /// (the attack's own damage is already through the armour, and a
    /// critical hit's damage ignores it), and the weapon a Bane or a
    /// disabling falls on (the report names weapons destroyed, and a later
    /// weapon critical picks among all weapons not destroyed). Played, they
    /// would only split equal ships by dice nobody reads.
    fn unread_by_the_report(&self, pending: crate::damage::Pending) -> bool {
        use crate::damage::Pending;
        use crate::model::WeaponHarm;
        let row = |location: u8, severity: u8| {
            &self.rules.criticals.locations[usize::from(location)].rows
                [usize::from(severity).saturating_sub(1)]
        };
        match pending {
            Pending::ArmourLoss { .. } => true,
            Pending::WeaponHarm { location, severity } => {
                !matches!(row(location, severity).weapon, Some(WeaponHarm::Destroyed))
            }
            _ => false,
        }
    }

    /// The shared outcome of an attack on a fresh target, given whether it
    /// hit and its critical hits as results: the wreck and the weapons
    /// destroyed are read from the target.
    fn shared_outcome_of(
        &self,
        target: &Ship,
        hit: bool,
        mut results: Vec<String>,
        damage: i32,
    ) -> broadside_core::AttackOutcome {
        let rules = &self.rules;
        let class = target.class(rules);
        if target.is_wrecked() {
            results.push("wrecked".to_owned());
        }
        // The target was fresh, so every weapon destroyed now was destroyed
        // by this attack.
        let destroyed = class
            .slots
            .iter()
            .zip(&target.weapons)
            .filter(|(_, condition)| **condition == crate::ship::Condition::Destroyed)
            .map(|(slot, _)| {
                format!(
                    "{} in {}",
                    rules.weapon(slot.weapon).name,
                    class.mounts[usize::from(slot.mount)].id
                )
            })
            .collect();
        broadside_core::AttackOutcome {
            hit,
            results,
            hull_damage: damage,
            destroyed,
        }
    }
}

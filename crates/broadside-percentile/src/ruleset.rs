//! The percentile system's face, through core's plug-in kit (`System`): ship
//! sheets, tables, options and the resolve report.

use broadside_core::exact::{ExactAttack, ExactError, Prob, exact_attack};
use broadside_core::montecarlo::Loss;
use broadside_core::{
    AttackOutcome, AttackResolution, BattleRequest, DataErrors, EventSink, NullSink, OptionKind,
    OptionSpec, ResolveError, ResolveRequest, Resolved, Sheet, ShipSheet, SourceFile, System,
    TableRowView, TableView,
};
use std::sync::Arc;

use serde::Serialize;

use crate::attack::{Attack, Board, IcmLaunch, IcmLaunches};
use crate::damage::SystemLost;
use crate::model::{ClassId, Column, Defence, Effect, Rules, WeaponId};
use crate::ship::Ship;
use crate::{ID, Percentile, PreparedBattle};

const SCREENS: &[&str] = &["proton", "electron", "stasis"];

const RESOLVE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "weapon",
        value_name: "W",
        help: "the attacker's weapon (laser-cannon, torpedo, ...)",
        kind: OptionKind::Text,
        required: true,
    },
    OptionSpec {
        name: "range",
        value_name: "N",
        help: "range in hexes, counting the target's hex but not the firer's",
        kind: OptionKind::Number { min: 0, max: 1000 },
        required: true,
    },
    OptionSpec {
        name: "head-on",
        value_name: "",
        help: "a forward-firing weapon fires straight along the centre line (+10)",
        kind: OptionKind::Flag,
        required: false,
    },
    OptionSpec {
        name: "screen",
        value_name: "SCREEN",
        help: "the target has this screen up",
        kind: OptionKind::Choice(SCREENS),
        required: false,
    },
    OptionSpec {
        name: "masking-screen",
        value_name: "",
        help: "the target releases a masking screen",
        kind: OptionKind::Flag,
        required: false,
    },
    OptionSpec {
        name: "attacker-masking-screen",
        value_name: "",
        help: "the attacker fires out of its own masking screen (lasers halved)",
        kind: OptionKind::Flag,
        required: false,
    },
    OptionSpec {
        name: "icm",
        value_name: "N",
        help: "ICMs the target launches against a torpedo, rocket, mine or seeker",
        kind: OptionKind::Number { min: 0, max: 1000 },
        required: false,
    },
    OptionSpec {
        name: "hexmate-icms",
        value_name: "SHIP:N,...",
        help: "ships of the target's side in its hex, each launching N ICMs of its own \
               (destroyer:2,frigate:1)",
        kind: OptionKind::Text,
        required: false,
    },
];

const BATTLE_OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "start-range",
    value_name: "R",
    help: "hexes between the sides' start hexes (default 12)",
    kind: OptionKind::Number { min: 0, max: 200 },
    required: false,
}];

/// A ship class as `broadside ships` lists it.
#[derive(Debug, Serialize)]
pub struct ClassSheet {
    id: String,
    name: String,
    hull: i32,
    adf: u8,
    mr: u8,
    dcr: u16,
    weapons: Vec<String>,
    defences: Vec<String>,
    evasive: bool,
    source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    notes: Option<String>,
}

impl Sheet for ClassSheet {
    fn lines(&self) -> Vec<String> {
        vec![format!(
            "{}: HP {}, ADF {}, MR {}, DCR {}; {}; {}",
            self.name,
            self.hull,
            self.adf,
            self.mr,
            self.dcr,
            self.weapons.join(", "),
            self.defences.join(", ")
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
            ("HP", self.hull.to_string()),
            ("ADF", self.adf.to_string()),
            ("MR", self.mr.to_string()),
            ("DCR", self.dcr.to_string()),
            ("weapons", self.weapons.join(", ")),
            ("defences", self.defences.join(", ")),
        ]
    }
}

/// A ship's state after an attack, as reports show it.
#[derive(Debug, Serialize)]
pub(crate) struct ShipReport {
    ship: String,
    hull: i32,
    hull_max: i32,
    adf: u8,
    mr: u8,
    dcr: u16,
    destroyed: bool,
    screen: Option<&'static str>,
    masking_screen: bool,
    damaged: Vec<&'static str>,
    systems_lost: Vec<String>,
    supplies: Vec<SupplyLeft>,
}

/// What is left of one limited supply.
#[derive(Debug, Serialize)]
struct SupplyLeft {
    system: String,
    left: u16,
}

impl ShipReport {
    pub(crate) fn of(labels: &Labels, ship: &Ship) -> ShipReport {
        let (class_id, hull_max) = labels.class(ship.class);
        let d = ship.damaged;
        let damaged = [
            (d.combat_control, "combat-control"),
            (d.damage_control, "damage-control"),
            (d.navigation, "navigation"),
            (d.fire, "electrical-fire"),
            (d.short_circuit, "power-short-circuit"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        let mut systems_lost: Vec<String> = ship
            .weapons
            .iter()
            .filter(|m| m.destroyed)
            .map(|m| labels.weapon(m.weapon).to_owned())
            .collect();
        systems_lost.extend(
            ship.defences
                .iter()
                .filter(|m| m.destroyed)
                .map(|m| m.defence.id().to_owned()),
        );
        let mut supplies: Vec<SupplyLeft> = ship
            .weapons
            .iter()
            .filter_map(|m| {
                Some(SupplyLeft {
                    system: labels.weapon(m.weapon).to_owned(),
                    left: m.supply?,
                })
            })
            .collect();
        supplies.extend(ship.defences.iter().filter_map(|m| {
            Some(SupplyLeft {
                system: m.defence.id().to_owned(),
                left: m.supply?,
            })
        }));
        ShipReport {
            ship: class_id.to_owned(),
            hull: ship.hull,
            hull_max,
            adf: ship.adf,
            mr: ship.mr,
            dcr: ship.dcr,
            destroyed: ship.is_destroyed(),
            screen: ship.screen.map(Defence::id),
            masking_screen: ship.masked,
            damaged,
            systems_lost,
            supplies,
        }
    }

    fn line(&self) -> String {
        let mut line = format!(
            "{}: hull {} of {}, ADF {}, MR {}, DCR {}",
            self.ship, self.hull, self.hull_max, self.adf, self.mr, self.dcr
        );
        if self.destroyed {
            line.push_str(", destroyed");
        }
        if !self.damaged.is_empty() {
            line.push_str(&format!("; damaged: {}", self.damaged.join(", ")));
        }
        if !self.systems_lost.is_empty() {
            line.push_str(&format!("; lost: {}", self.systems_lost.join(", ")));
        }
        line
    }
}

/// The result of `broadside resolve percentile` as it is shown: every name
/// and every ship laid out.
#[derive(Debug, Serialize)]
struct ResolveView {
    attacker: String,
    weapon: String,
    target_ship: String,
    range: u32,
    to_hit: i32,
    roll: u32,
    hit: bool,
    damage_roll: Option<i32>,
    result: Option<String>,
    applied: Option<&'static str>,
    system_destroyed: Option<String>,
    hull_damage: i32,
    target: ShipReport,
    /// Who launched the ICMs and how many each; listed when hexmates launch.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    icm_launches: Vec<LaunchReport>,
    /// The hexmates after the attack, in the order named.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    hexmates: Vec<ShipReport>,
    #[serde(skip)]
    result_text: Option<String>,
    /// The row could not apply and a normal hull hit was made for it.
    #[serde(skip)]
    fell_back: bool,
}

/// The result of `broadside resolve percentile`, kept as the state the attack
/// came to and laid out as a [`ResolveView`] only when it is shown: an exact
/// enumeration resolves the attack once per dice path and reads only its
/// outcome, so building a report copies no text but the board's names.
#[derive(Debug)]
pub struct ResolveReport {
    labels: Arc<Labels>,
    weapon: WeaponId,
    range: u32,
    outcome: crate::AttackOutcome,
    /// The attacker, the target and the hexmates, in that order.
    board: Board,
    icm_launcher: Option<IcmLaunches>,
}

impl ResolveReport {
    fn view(&self) -> ResolveView {
        let labels = &*self.labels;
        let outcome = &self.outcome;
        let damage = outcome.damage.as_ref();
        let row = damage.map(|d| labels.row(d.row));
        let applied = damage.map(|d| {
            if d.fell_back {
                "hull-hit"
            } else {
                row.map_or("hull-hit", |r| r.applied)
            }
        });
        let system_destroyed = damage.and_then(|d| d.system_lost).map(|s| match s {
            SystemLost::Weapon(w) => labels.weapon(w).to_owned(),
            SystemLost::Defence(d) => d.id().to_owned(),
        });
        let board = &self.board;
        ResolveView {
            attacker: board.names[0].clone(),
            weapon: labels.weapon(self.weapon).to_owned(),
            target_ship: board.names[1].clone(),
            range: self.range,
            to_hit: outcome.to_hit,
            roll: outcome.roll,
            hit: outcome.hit,
            damage_roll: damage.map(|d| d.damage_roll),
            result: row.map(|r| r.id.clone()),
            applied,
            system_destroyed,
            hull_damage: damage.map_or(0, |d| d.hull_damage),
            target: ShipReport::of(labels, &board.ships[1]),
            icm_launches: self
                .icm_launcher
                .iter()
                .flat_map(IcmLaunches::iter)
                .map(|launch| LaunchReport {
                    ship: board.names[launch.ship].clone(),
                    launched: launch.count,
                })
                .collect(),
            hexmates: board.ships[2..]
                .iter()
                .map(|ship| ShipReport::of(labels, ship))
                .collect(),
            result_text: row.map(|r| r.text.clone()),
            fell_back: damage.is_some_and(|d| d.fell_back),
        }
    }
}

impl Serialize for ResolveReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.view().serialize(serializer)
    }
}

/// What resolve reports print about the data: class ids and original hulls,
/// weapon ids, and each Damage Table row's id, printed text and the name of
/// what it does. Made once when the system loads and shared by every report.
#[derive(Debug)]
pub(crate) struct Labels {
    classes: Vec<(String, i32)>,
    weapons: Vec<String>,
    rows: Vec<RowLabel>,
}

/// A Damage Table row as reports name it.
#[derive(Debug)]
struct RowLabel {
    id: String,
    text: String,
    /// What the row does when it applies, as the report's `applied` names it.
    applied: &'static str,
}

impl Labels {
    pub(crate) fn of(rules: &Rules) -> Labels {
        Labels {
            classes: rules.ships.iter().map(|c| (c.id.clone(), c.hull)).collect(),
            weapons: rules.weapons.iter().map(|w| w.id.clone()).collect(),
            rows: rules
                .damage_table
                .iter()
                .map(|r| RowLabel {
                    id: r.id.clone(),
                    text: r.text.clone(),
                    applied: applied_name(&r.effect),
                })
                .collect(),
        }
    }

    fn class(&self, class: ClassId) -> (&str, i32) {
        let (id, hull) = &self.classes[usize::from(class)];
        (id, *hull)
    }

    fn weapon(&self, weapon: WeaponId) -> &str {
        &self.weapons[usize::from(weapon)]
    }

    fn row(&self, row: usize) -> &RowLabel {
        &self.rows[row]
    }
}

/// The report's name for what a Damage Table row does when it applies.
fn applied_name(effect: &Effect) -> &'static str {
    match effect {
        Effect::Hull { multiplier } if *multiplier != 1 => "double-hull-hit",
        Effect::Hull { .. } => "hull-hit",
        Effect::Drive(_) => "drive-hit",
        Effect::Steering(_) => "steering-hit",
        Effect::Weapon(_) => "weapon-hit",
        Effect::Defence(_) => "defense-hit",
        Effect::PowerShortCircuit => "power-short-circuit",
        Effect::CombatControl { .. } => "combat-control-hit",
        Effect::Navigation => "navigation-hit",
        Effect::ElectricalFire => "electrical-fire",
        Effect::DamageControl => "damage-control-hit",
        Effect::DisastrousFire { .. } => "disastrous-fire",
    }
}

/// One ship's ICMs launched against the attack.
#[derive(Debug, Serialize)]
struct LaunchReport {
    ship: String,
    launched: u16,
}

impl ResolveView {
    fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{} fires {} at {} (range {}): {}% to hit, rolled {}: {}",
            self.attacker,
            self.weapon,
            self.target_ship,
            self.range,
            self.to_hit,
            self.roll,
            if self.hit { "hit" } else { "miss" }
        )];
        if let (Some(roll), Some(text)) = (self.damage_roll, &self.result_text) {
            let mut line = format!("Damage Table {roll}: {text}");
            if self.fell_back {
                line.push_str(&format!(" ({HULL_HIT_INSTEAD})"));
            }
            if let Some(system) = &self.system_destroyed {
                line.push_str(&format!("; {system} destroyed"));
            }
            if self.hull_damage > 0 {
                line.push_str(&format!("; {} hull damage", self.hull_damage));
            }
            lines.push(line);
        }
        lines.push(self.target.line());
        if !self.icm_launches.is_empty() {
            let each: Vec<String> = self
                .icm_launches
                .iter()
                .map(|l| format!("{} {}", l.ship, l.launched))
                .collect();
            let total: u32 = self
                .icm_launches
                .iter()
                .map(|l| u32::from(l.launched))
                .sum();
            lines.push(format!(
                "ICMs launched: {} ({total} in all)",
                each.join(", ")
            ));
        }
        lines
    }
}

impl Sheet for ResolveReport {
    fn lines(&self) -> Vec<String> {
        self.view().lines()
    }

    /// The attack in shared terms ([`shared_outcome`]).
    fn attack_outcome(&self) -> Option<AttackOutcome> {
        Some(shared_outcome(&self.labels, &self.outcome))
    }
}

/// An attack's outcome in shared terms: the Damage Table row in its printed
/// words, then "a hull hit instead" when the row could not apply and a
/// normal hull hit was made for it; the hull points it took; the weapon or
/// defence system it destroyed, by id.
fn shared_outcome(labels: &Labels, outcome: &crate::AttackOutcome) -> AttackOutcome {
    let damage = outcome.damage.as_ref();
    let mut results = Vec::new();
    let mut destroyed = Vec::new();
    if let Some(d) = damage {
        results.push(labels.row(d.row).text.clone());
        if d.fell_back {
            results.push(HULL_HIT_INSTEAD.to_owned());
        }
        if let Some(lost) = d.system_lost {
            destroyed.push(match lost {
                SystemLost::Weapon(w) => labels.weapon(w).to_owned(),
                SystemLost::Defence(d) => d.id().to_owned(),
            });
        }
    }
    AttackOutcome {
        hit: outcome.hit,
        results,
        hull_damage: damage.map_or(0, |d| d.hull_damage),
        destroyed,
    }
}

/// The result an attack reports when its Damage Table row could not apply
/// and the rules made it a normal hull hit.
pub const HULL_HIT_INSTEAD: &str = "a hull hit instead";

impl System for Percentile {
    const ID: &'static str = ID;
    const TITLE: &'static str = "Star Frontiers: Knight Hawks, Advanced Game";
    const DESCRIPTION: &'static str =
        "percentile Combat Table to hit, then d100 + DTM on the Damage Table";
    const EMBEDDED: &'static [(&'static str, &'static str)] = broadside_data::embed!(
        "../../rulesets/percentile":
        "weapons.toml",
        "defences.toml",
        "combat-table.toml",
        "damage-table.toml",
        "ships.toml",
        "rules.toml",
    );
    const RESOLVE_OPTIONS: &'static [OptionSpec] = RESOLVE_OPTIONS;
    const BATTLE_OPTIONS: &'static [OptionSpec] = BATTLE_OPTIONS;
    const SIDE_OPTIONS: &'static [OptionSpec] = crate::setup::SIDE_OPTIONS;
    const LOSSES: &'static [Loss] = &Loss::ALL;

    type ShipSheet = ClassSheet;
    type Report = ResolveReport;
    type Setup = PreparedBattle;

    fn from_files(files: &[SourceFile]) -> Result<Percentile, DataErrors> {
        Percentile::load(files)
    }

    fn ship_sheets(&self) -> Vec<ClassSheet> {
        let rules = &self.rules;
        rules
            .ships
            .iter()
            .map(|class| {
                let mut weapons: Vec<String> = Vec::new();
                for &(w, supply) in &class.weapons {
                    let id = &rules.weapon(w).id;
                    match supply {
                        Some(n) => weapons.push(format!("{id} x{n}")),
                        None => match weapons
                            .iter_mut()
                            .find(|e| e.split(" x").next() == Some(id))
                        {
                            Some(entry) => {
                                let n: u32 = entry
                                    .split(" x")
                                    .nth(1)
                                    .and_then(|n| n.parse().ok())
                                    .unwrap_or(1);
                                *entry = format!("{id} x{}", n + 1);
                            }
                            None => weapons.push(id.clone()),
                        },
                    }
                }
                let defences = class
                    .defences
                    .iter()
                    .map(|&(d, supply)| match supply {
                        Some(n) => format!("{} x{n}", d.id()),
                        None => d.id().to_owned(),
                    })
                    .collect();
                ClassSheet {
                    id: class.id.clone(),
                    name: class.name.clone(),
                    hull: class.hull,
                    adf: class.adf,
                    mr: class.mr,
                    dcr: class.dcr,
                    weapons,
                    defences,
                    evasive: class.evasive,
                    source: class.source.clone(),
                    notes: class.notes.clone(),
                }
            })
            .collect()
    }

    fn table_views(&self) -> Vec<TableView> {
        let rules = &self.rules;
        let columns: Vec<String> = Column::ALL.iter().map(|c| c.id().to_owned()).collect();
        let cell_rows = |skilled: bool| -> Vec<TableRowView> {
            rules
                .weapons
                .iter()
                .map(|w| TableRowView {
                    label: w.id.clone(),
                    cells: w
                        .cells
                        .iter()
                        .map(|c| {
                            let p = if skilled { c.skilled } else { c.advanced };
                            if c.half_damage {
                                format!("{p}%*")
                            } else {
                                format!("{p}%")
                            }
                        })
                        .chain([
                            w.per_icm
                                .map_or_else(|| "---".to_owned(), |m| format!("{m} / ICM")),
                            w.hull_damage.to_string(),
                        ])
                        .collect(),
                })
                .collect()
        };
        let mut combat_columns = columns.clone();
        combat_columns.extend(["icm".to_owned(), "hull-damage".to_owned()]);
        vec![
            TableView {
                id: "combat-table".into(),
                title: "Advanced Game Combat Table (* halves hull damage, rounded up)".into(),
                row_header: "weapon".into(),
                columns: combat_columns.clone(),
                rows: cell_rows(false),
            },
            TableView {
                id: "combat-table-skilled".into(),
                title: "Combat Table, shaded percentages (base for gunners with skill)".into(),
                row_header: "weapon".into(),
                columns: combat_columns,
                rows: cell_rows(true),
            },
            TableView {
                id: "damage-table-modifiers".into(),
                title: "Damage Table Modifiers".into(),
                row_header: "weapon".into(),
                columns: vec!["dtm".into()],
                rows: rules
                    .weapons
                    .iter()
                    .map(|w| TableRowView {
                        label: w.id.clone(),
                        cells: vec![format!("{:+}", w.dtm)],
                    })
                    .collect(),
            },
            TableView {
                id: "damage-table".into(),
                title: "Advanced Game Damage Table (d100 + DTM)".into(),
                row_header: "roll".into(),
                columns: vec!["result".into(), "type of damage".into()],
                rows: rules
                    .damage_table
                    .iter()
                    .map(|r| TableRowView {
                        label: if r.from == r.to {
                            r.from.to_string()
                        } else {
                            format!("{}-{}", r.from, r.to)
                        },
                        cells: vec![r.id.clone(), r.text.clone()],
                    })
                    .collect(),
            },
        ]
    }

    fn declare(&self, request: &ResolveRequest) -> Result<(Board, Attack), ResolveError> {
        self.resolve_setup(request)
    }

    fn report(
        &self,
        _request: &ResolveRequest,
        resolved: Resolved<Percentile>,
        _sink: &mut dyn EventSink,
    ) -> ResolveReport {
        let Resolved {
            before,
            board,
            attack,
            outcome,
        } = resolved;
        ResolveReport {
            labels: Arc::clone(&self.labels),
            weapon: before.ships[attack.attacker].weapons[attack.mount].weapon,
            range: attack.range,
            outcome,
            board,
            icm_launcher: attack.icm_launcher,
        }
    }

    /// The board is set up once and copied back before each dice path, and
    /// each path's outcome is read without building a report.
    fn exact_resolve(
        &self,
        request: &ResolveRequest,
        max_paths: u64,
        _min_probability: Prob,
    ) -> Result<ExactAttack, ExactError> {
        // Every path is followed whole: no state is carried, none dropped.
        let (board, attack) = self.resolve_setup(request)?;
        let mut scratch = board.clone();
        exact_attack(max_paths, |dice| {
            // The attack changes ships, never names or the ships' number.
            scratch.ships.copy_from_slice(&board.ships);
            let outcome = self.resolve_attack(&mut scratch, &attack, dice, &mut NullSink)?;
            Ok(shared_outcome(&self.labels, &outcome))
        })
    }

    fn battle_setup(&self, request: &BattleRequest) -> Result<PreparedBattle, ResolveError> {
        self.set_up(request)
    }
}

impl Percentile {
    /// Reads a `resolve` request: fresh ships, the weapon and the options.
    fn resolve_setup(&self, request: &ResolveRequest) -> Result<(Board, Attack), ResolveError> {
        let rules = &self.rules;
        let options = &request.options;
        let known_ships = || rules.ships.iter().map(|s| s.id.as_str());
        let attacker = self
            .ship(&request.attacker)
            .ok_or_else(|| ResolveError::unknown("ship", &request.attacker, known_ships()))?;
        let mut target = self
            .ship(&request.target)
            .ok_or_else(|| ResolveError::unknown("ship", &request.target, known_ships()))?;
        let weapon_name = options.required_text("weapon")?;
        let weapon = rules.weapon_id(weapon_name).ok_or_else(|| {
            ResolveError::unknown(
                "weapon",
                weapon_name,
                rules.weapons.iter().map(|w| w.id.as_str()),
            )
        })?;
        let mount = attacker.ready_mount(weapon).ok_or_else(|| {
            ResolveError::Refused(format!(
                "the {} carries no {weapon_name} it can fire",
                request.attacker
            ))
        })?;
        let range = u32::try_from(options.required_number("range")?)
            .map_err(|_| ResolveError::bad_option("range", "must not be negative"))?;
        let target_name = &request.target;

        if let Some(screen) = options.text("screen") {
            let defence = match screen {
                "proton" => Defence::ProtonScreen,
                "electron" => Defence::ElectronScreen,
                _ => Defence::StasisScreen,
            };
            if target.defence(defence).is_none() {
                return Err(ResolveError::Refused(format!(
                    "the {target_name} carries no {} screen",
                    screen
                )));
            }
            target.screen = Some(defence);
        }
        let mut attacker = attacker;
        if options.flag("masking-screen") {
            release_masking_screen(&mut target, target_name)?;
        }
        if options.flag("attacker-masking-screen") {
            release_masking_screen(&mut attacker, &request.attacker)?;
        }
        let icms = match options.number("icm")? {
            None => 0,
            Some(n) => u16::try_from(n).map_err(|_| ResolveError::bad_option("icm", "too many"))?,
        };

        let mut ships = vec![attacker, target];
        let mut names = vec![request.attacker.clone(), request.target.clone()];
        // Hexmates stand in the target's hex after the attacker and the
        // target, each launching its own ICMs after the target's (ruling 46).
        let hexmates = match options.text("hexmate-icms") {
            Some(text) => self.hexmates(text)?,
            None => Vec::new(),
        };
        let (icms, icm_launcher) = if hexmates.is_empty() {
            (icms, None)
        } else {
            let mut launches = IcmLaunches::new();
            let mut total = u32::from(icms);
            if icms > 0 {
                let _ = launches.push(IcmLaunch {
                    ship: 1,
                    count: icms,
                });
            }
            for (ship, name, count) in hexmates {
                let launch = IcmLaunch {
                    ship: ships.len(),
                    count,
                };
                ships.push(ship);
                names.push(name);
                total += u32::from(count);
                launches.push(launch).map_err(|_| {
                    ResolveError::bad_option("hexmate-icms", "more hexmates than a side has ships")
                })?;
            }
            let total = u16::try_from(total)
                .map_err(|_| ResolveError::bad_option("hexmate-icms", "too many ICMs"))?;
            (total, Some(launches))
        };
        let attack = Attack {
            attacker: 0,
            mount,
            target: 1,
            range,
            head_on: options.flag("head-on"),
            icms,
            icm_launcher,
        };
        let board = Board {
            ships,
            names: names.into(),
        };
        Ok((board, attack))
    }

    /// The hexmates `resolve --hexmate-icms` names: `SHIP:N` entries,
    /// comma-separated, each a fresh ship of that class launching N of its
    /// ICMs. A class named more than once is that many ships, numbered as a
    /// roster numbers them (`destroyer #2 (hexmate)`).
    fn hexmates(&self, text: &str) -> Result<Vec<(Ship, String, u16)>, ResolveError> {
        let bad = |message: String| ResolveError::bad_option("hexmate-icms", message);
        let mut entries: Vec<(&str, u16)> = Vec::new();
        for entry in text.split(',').map(str::trim) {
            let Some((id, count)) = entry.split_once(':') else {
                return Err(bad(format!(
                    "'{entry}' is not SHIP:N (a ship id, a colon and how many ICMs it launches)"
                )));
            };
            let (id, count) = (id.trim(), count.trim());
            let count: u16 = count.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                bad(format!(
                    "'{entry}': '{count}' is not a count of ICMs from 1"
                ))
            })?;
            entries.push((id, count));
        }
        // The target is one ship of its side already.
        let most = broadside_core::MAX_SIDE - 1;
        if entries.len() > most {
            return Err(bad(format!("at most {most} hexmates")));
        }
        let known = || self.rules.ships.iter().map(|s| s.id.as_str());
        let mut hexmates = Vec::with_capacity(entries.len());
        for (n, &(id, count)) in entries.iter().enumerate() {
            let ship = self
                .ship(id)
                .ok_or_else(|| ResolveError::unknown("ship", id, known()))?;
            let same = entries.iter().filter(|(other, _)| *other == id).count();
            let name = if same > 1 {
                let nth = entries[..=n]
                    .iter()
                    .filter(|(other, _)| *other == id)
                    .count();
                format!("{id} #{nth} (hexmate)")
            } else {
                format!("{id} (hexmate)")
            };
            if ship.defence(Defence::Icm).is_none() {
                return Err(ResolveError::Refused(format!("the {name} carries no ICMs")));
            }
            hexmates.push((ship, name, count));
        }
        Ok(hexmates)
    }
}

/// Releases a masking screen from the ship's supply.
fn release_masking_screen(ship: &mut Ship, name: &str) -> Result<(), ResolveError> {
    if ship.damaged.short_circuit {
        return Err(ResolveError::Refused(format!(
            "the {name}'s power is short-circuited: no new masking screens"
        )));
    }
    let Some(mount) = ship.defence_mut(Defence::MaskingScreen) else {
        return Err(ResolveError::Refused(format!(
            "the {name} carries no masking screen"
        )));
    };
    match &mut mount.supply {
        Some(n) if *n > 0 => *n -= 1,
        _ => {
            return Err(ResolveError::Refused(format!(
                "the {name} has no masking screens left"
            )));
        }
    }
    ship.masked = true;
    Ok(())
}

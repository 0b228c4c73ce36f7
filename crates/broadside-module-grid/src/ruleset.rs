//! The module-grid system's face, through core's plug-in kit: ship sheets with layout pictures, tables, options and the resolve report.

use std::sync::Arc;

use broadside_core::kit::{Resolved, System};
use broadside_core::montecarlo::Loss;
use broadside_core::{
    AttackOutcome, BattleRequest, DataErrors, Event, EventSink, OptionKind, OptionSpec,
    ResolveError, ResolveRequest, Sheet, ShipSheet, SourceFile, TableRowView, TableView,
};
use serde::Serialize;

use crate::attack::{Board, Shot, ShotOutcome, Weapon};
use crate::damage::list;
use crate::model::{Function, Mode, ModuleIx, Rules, ShipClass, ShipSide, Square};
use crate::picture::{self, Marks};
use crate::{Duel, ID, ModuleGrid};

const SIDES: &[&str] = &["fore", "aft", "port", "starboard"];

const RESOLVE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "range",
        value_name: "N",
        help: "range in hexes to the target",
        kind: OptionKind::Number { min: 0, max: 100 },
        required: true,
    },
    OptionSpec {
        name: "mode",
        value_name: "MODE",
        help: "Cannon mode: standard (power Guns), long (half range, half power), multi (power 1, no Guns used), fusion (needs a Fusion Node; indirect)",
        kind: OptionKind::Choice(Mode::IDS),
        required: false,
    },
    OptionSpec {
        name: "side",
        value_name: "SIDE",
        help: "the target's side struck, from the hexside the line of sight crosses (default fore)",
        kind: OptionKind::Choice(SIDES),
        required: false,
    },
    OptionSpec {
        name: "call",
        value_name: "R,C",
        help: "the point called as the 7 of hit allocation: row from the bow, column from port (default: the centre mark)",
        kind: OptionKind::Text,
        required: false,
    },
    OptionSpec {
        name: "guns",
        value_name: "N",
        help: "the attacker's Guns power now (default: its rating)",
        kind: OptionKind::Number { min: 0, max: 20 },
        required: false,
    },
    OptionSpec {
        name: "shields",
        value_name: "N",
        help: "the target's Shields level now (default: its rating)",
        kind: OptionKind::Number { min: 0, max: 20 },
        required: false,
    },
    OptionSpec {
        name: "scans",
        value_name: "N",
        help: "scans the attacker has on the target, each able to reroll one hit allocation die (default 0); the default tactics spend one when a reroll is worth more on average",
        kind: OptionKind::Number { min: 0, max: 20 },
        required: false,
    },
    OptionSpec {
        name: "luck",
        value_name: "N",
        help: "Luck the attacker may spend on hit allocation rerolls after its scans, one point a die (default 0; at most the ship's Luck)",
        kind: OptionKind::Number { min: 0, max: 20 },
        required: false,
    },
];

const DUEL_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "start-range",
        value_name: "R",
        help: "hexes between the two sides' first ships at the start (default 8)",
        kind: OptionKind::Number { min: 0, max: 200 },
        required: false,
    },
    OptionSpec {
        name: "asteroids",
        value_name: "Q,R;...",
        help: "asteroid hexes as Q,R axial pairs separated by ';', as other hex lists are (spaces also separate them; A's first ship starts at 0,0 facing east, B's at R,0 facing west)",
        kind: OptionKind::Text,
        required: false,
    },
];

/// A ship class as `broadside ships` lists it.
#[derive(Debug, Serialize)]
pub struct ClassSheet {
    id: String,
    name: String,
    size: u8,
    shields: u8,
    guns: u8,
    speed: u8,
    hull: u16,
    hull_damage: u16,
    luck: u8,
    missiles: u8,
    bombs: u8,
    centre: Square,
    layout: Vec<Vec<String>>,
    occupants: Vec<Occupants>,
    crew: Vec<CrewSkill>,
    weapons: String,
    source: String,
    #[serde(skip)]
    picture: Vec<String>,
}

impl Sheet for ClassSheet {
    fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{} ({}): Size {}, Shields {}, Guns {}, Speed {}, hull {}; {}",
            self.id,
            self.name,
            self.size,
            self.shields,
            self.guns,
            self.speed,
            self.hull,
            self.weapons
        )];
        lines.extend(self.picture.iter().cloned());
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
            ("Size", self.size.to_string()),
            ("Shields", self.shields.to_string()),
            ("Guns", self.guns.to_string()),
            ("Speed", self.speed.to_string()),
            ("hull", self.hull.to_string()),
            (
                "modules",
                self.layout
                    .iter()
                    .flatten()
                    .filter(|m| *m != ".")
                    .count()
                    .to_string(),
            ),
            ("weapons", self.weapons.clone()),
        ]
    }
}

/// Crew standing in one module.
#[derive(Debug, Serialize)]
struct Occupants {
    at: Square,
    count: u8,
}

/// One crew skill of a ship.
#[derive(Debug, Serialize)]
struct CrewSkill {
    skill: &'static str,
    level: i8,
    professional: bool,
}

/// "cannon x3, missile-bay x2" for a class's weapon modules.
fn weapons_of(rules: &Rules, class: &ShipClass) -> String {
    let mut parts = Vec::new();
    for function in [Function::Cannon, Function::MissileBay, Function::Teleporter] {
        let n = class.modules_of(function).count_ones();
        if n > 0 {
            let id = rules
                .module_types
                .iter()
                .find(|t| t.function == function)
                .map_or(function.id(), |t| t.id.as_str());
            parts.push(if n == 1 {
                id.to_owned()
            } else {
                format!("{id} x{n}")
            });
        }
    }
    if parts.is_empty() {
        "no weapons".into()
    } else {
        parts.join(", ")
    }
}

/// One module, as reports name it.
#[derive(Debug, Serialize)]
struct ModuleReport {
    at: Square,
    module: String,
    name: String,
}

impl ModuleReport {
    fn of(rules: &Rules, class: &ShipClass, m: ModuleIx) -> ModuleReport {
        let t = rules.module_type(class, m);
        ModuleReport {
            at: class.modules[usize::from(m)].at,
            module: t.id.clone(),
            name: t.name.clone(),
        }
    }
}

/// Where one die went.
#[derive(Debug, Serialize)]
struct DieReport {
    die: u8,
    at: Option<Square>,
    module: Option<String>,
    hull_damage: u8,
    broke: bool,
    ooc: bool,
}

/// A module that took a Broken marker.
#[derive(Debug, Serialize)]
struct BrokenReport {
    at: Square,
    module: String,
    slagged: bool,
}

impl BrokenReport {
    /// The module and its square, marked when the hit slagged it.
    fn describe(&self) -> String {
        format!(
            "{} at {}{}",
            self.module,
            self.at,
            if self.slagged { " (slagged)" } else { "" }
        )
    }
}

/// The to-hit check.
#[derive(Debug, Serialize)]
struct CheckReport {
    dice: Vec<u8>,
    total: i32,
    difficulty: i32,
}

/// A hull check.
#[derive(Debug, Serialize)]
struct HullCheckReport {
    chart: i32,
    needed: i32,
    dice: Vec<u8>,
    stabilizer_rerolls: u8,
    luck_rerolls: u8,
    passed: bool,
}

/// The result of `broadside resolve module-grid`.
#[derive(Debug, Serialize)]
pub struct ResolveReport {
    attacker: String,
    target: String,
    cannon: Square,
    mode: Mode,
    side: ShipSide,
    range: u32,
    counted_range: u32,
    power: u8,
    guns_before: u8,
    guns_after: u8,
    to_hit: CheckReport,
    hit: bool,
    call: Option<Square>,
    allocation: Option<i32>,
    allocation_dice: Vec<u8>,
    line: Option<String>,
    impact: Option<ModuleReport>,
    pool: Vec<u32>,
    removed: Vec<u8>,
    kept: Vec<u8>,
    dice_laid: Vec<DieReport>,
    hull_damage: u32,
    hull_damage_total: u16,
    modules_broken: Vec<BrokenReport>,
    ooc: u8,
    ooc_added: u32,
    shields_before: u8,
    shields_after: u8,
    hull_check: Option<HullCheckReport>,
    exploded: bool,
    #[serde(skip)]
    picture: Option<HitPicture>,
}

/// The target after a hit, drawn only when the report is read as text: an
/// exact enumeration builds a report for every dice path and reads none.
#[derive(Debug)]
struct HitPicture {
    rules: Arc<Rules>,
    target: crate::ship::Ship,
    name: String,
    side: ShipSide,
    marks: Marks,
    missed: Vec<u8>,
}

impl HitPicture {
    fn lines(&self) -> Vec<String> {
        let rules = &self.rules;
        let class = rules.class(self.target.class);
        let mut picture = vec![format!(
            "the {} after the hit (> the module of impact, + the 7, digits: dice laid, ! a Broken marker, # slagged; the arrow marks the {} hit's line):",
            self.name, self.side
        )];
        picture.extend(picture::draw(rules, class, Some(&self.target), &self.marks));
        if !self.missed.is_empty() {
            picture.push(format!(
                "dice past or outside the silhouette: {} ({} hull damage each)",
                list(&self.missed),
                rules.constants.off_silhouette_hull
            ));
        }
        picture.push(format!("  {}", picture::legend(rules, class)));
        picture
    }
}

impl Sheet for ResolveReport {
    fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{} fires its Cannon at {} in {} mode (power {}) at the {}'s {} side, range {}{}: Gunnery {} = {} against {}: {}",
            self.attacker,
            self.cannon,
            self.mode.name(),
            self.power,
            self.target,
            self.side,
            self.range,
            if self.counted_range == self.range {
                String::new()
            } else {
                format!(" (counted {})", self.counted_range)
            },
            list(&self.to_hit.dice),
            self.to_hit.total,
            self.to_hit.difficulty,
            if self.hit { "hit" } else { "miss" }
        )];
        if let (Some(total), Some(line)) = (self.allocation, &self.line) {
            lines.push(format!(
                "hit allocation {total} ({}) from {}: {line}; impact {}",
                list(&self.allocation_dice),
                self.call.map_or_else(
                    || "the centre mark".to_owned(),
                    |c| format!("the called point {c}")
                ),
                self.impact.as_ref().map_or_else(
                    || "none: off the silhouette".to_owned(),
                    |m| format!("the {} at {}", m.name, m.at)
                )
            ));
        }
        if !self.pool.is_empty() {
            let shown: Vec<String> = self.pool.iter().map(u32::to_string).collect();
            lines.push(format!(
                "pool {}; Shields {} remove {}; kept {}",
                shown.join(", "),
                self.shields_before,
                if self.removed.is_empty() {
                    "none".to_owned()
                } else {
                    list(&self.removed)
                },
                if self.kept.is_empty() {
                    "none".to_owned()
                } else {
                    list(&self.kept)
                }
            ));
        }
        if self.hit {
            let broken: Vec<String> = self
                .modules_broken
                .iter()
                .map(BrokenReport::describe)
                .collect();
            lines.push(format!(
                "hull damage {} (total {}), OOC {}, Shields {} -> {}; broken: {}",
                self.hull_damage,
                self.hull_damage_total,
                self.ooc,
                self.shields_before,
                self.shields_after,
                if broken.is_empty() {
                    "none".to_owned()
                } else {
                    broken.join(", ")
                }
            ));
        }
        if let Some(check) = &self.hull_check {
            lines.push(format!(
                "hull check {} (chart {} less Size): {}{}",
                check.needed,
                check.chart,
                if check.dice.is_empty() {
                    "no roll".to_owned()
                } else {
                    format!("rolled {}", list(&check.dice))
                },
                if check.passed {
                    ", holds"
                } else {
                    ", fails: the ship explodes"
                }
            ));
        }
        if let Some(picture) = &self.picture {
            lines.extend(picture.lines());
        }
        lines
    }

    /// The hit, the modules it broke or slagged, a line that missed the
    /// silhouette and the hull check, in the words of the report; the hull
    /// damage of this hit; the modules it put out of action, and the ship
    /// itself when it exploded.
    fn attack_outcome(&self) -> Option<AttackOutcome> {
        let mut results = Vec::new();
        let mut destroyed = Vec::new();
        for broken in &self.modules_broken {
            let name = format!("{} at {}", broken.module, broken.at);
            let state = if broken.slagged { "slagged" } else { "broken" };
            results.push(format!("{name} {state}"));
            destroyed.push(name);
        }
        if self.hit && self.allocation.is_some() && self.impact.is_none() {
            results.push("the line misses the silhouette".to_owned());
        }
        if let Some(check) = &self.hull_check {
            results.push(if check.passed {
                "hull check holds".to_owned()
            } else {
                "hull check fails: the ship explodes".to_owned()
            });
        }
        if self.exploded {
            destroyed.push(format!("the {} itself", self.target));
        }
        Some(AttackOutcome {
            hit: self.hit,
            results,
            hull_damage: i32::try_from(self.hull_damage).unwrap_or(i32::MAX),
            destroyed,
        })
    }
}

impl ModuleGrid {
    fn class_sheet(&self, class: &ShipClass) -> ClassSheet {
        let rules = &self.rules;
        let layout: Vec<Vec<String>> = (0..class.rows)
            .map(|r| {
                (0..class.cols)
                    .map(|c| match class.module_at(Square { row: r, col: c }) {
                        Some(m) => rules.module_type(class, m).id.clone(),
                        None => ".".to_owned(),
                    })
                    .collect()
            })
            .collect();
        let mut picture = vec![format!(
            "{} layout (bow at the top, port on the left; + the centre mark, digits: occupants):",
            class.id
        )];
        picture.extend(picture::draw(
            rules,
            class,
            None,
            &Marks {
                centre: Some(class.centre),
                occupants: true,
                ..Marks::default()
            },
        ));
        picture.push(format!("  {}", picture::legend(rules, class)));
        ClassSheet {
            id: class.id.clone(),
            name: class.name.clone(),
            size: class.size,
            shields: class.shields,
            guns: class.guns,
            speed: class.speed,
            hull: class.hull,
            hull_damage: class.hull_damage,
            luck: class.luck,
            missiles: class.missiles,
            bombs: class.bombs,
            centre: class.centre,
            layout,
            occupants: class
                .modules
                .iter()
                .filter(|m| m.occupants > 0)
                .map(|m| Occupants {
                    at: m.at,
                    count: m.occupants,
                })
                .collect(),
            crew: crate::model::Skill::ALL
                .iter()
                .map(|&s| CrewSkill {
                    skill: s.id(),
                    level: class.crew.level(s),
                    professional: class.crew.is_professional(s),
                })
                .collect(),
            weapons: weapons_of(rules, class),
            source: class.source.clone(),
            picture,
        }
    }

    fn resolve_report(
        &self,
        board: &Board,
        shot: &Shot,
        mode: Mode,
        guns_before: u8,
        shields_before: u8,
        outcome: &ShotOutcome,
    ) -> ResolveReport {
        let rules = &self.rules;
        let attacker_class = rules.class(board.ships[0].class);
        let target = &board.ships[1];
        let class = rules.class(target.class);
        let applied = outcome.applied.as_ref();
        let allocation = outcome.allocation;
        let line = allocation.map(|a| {
            let what = if shot.side.along_columns() {
                "column"
            } else {
                "row"
            };
            format!("{what} {}", a.line + 1)
        });
        let mut marks = Marks {
            entry: allocation.map(|a| (shot.side, a.line)),
            centre: allocation.map(|a| a.centre),
            impact: applied.and_then(|a| a.impact),
            ..Marks::default()
        };
        let mut missed = Vec::new();
        if let Some(applied) = applied {
            for p in &applied.placed {
                match p.module {
                    Some(m) => marks.dice.push((m, p.face)),
                    None => missed.push(p.face),
                }
            }
        }
        let picture = outcome.hit.then(|| HitPicture {
            rules: Arc::clone(rules),
            target: *target,
            name: board.names[1].clone(),
            side: shot.side,
            marks,
            missed,
        });
        let mut modules_broken = Vec::new();
        if let Some(applied) = applied {
            for (i, _) in class.modules.iter().enumerate() {
                if applied.broken & (1 << i) != 0 {
                    let t = rules.module_type(class, i as ModuleIx);
                    modules_broken.push(BrokenReport {
                        at: class.modules[i].at,
                        module: t.id.clone(),
                        slagged: applied.slagged & (1 << i) != 0,
                    });
                }
            }
        }
        ResolveReport {
            attacker: board.names[0].clone(),
            target: board.names[1].clone(),
            cannon: attacker_class.modules[usize::from(shot.weapon.module())].at,
            mode,
            side: shot.side,
            range: shot.range,
            counted_range: outcome.effective_range,
            power: outcome.power,
            guns_before,
            guns_after: board.ships[0].guns,
            to_hit: CheckReport {
                dice: outcome.check.faces.to_vec(),
                total: outcome.check.total,
                difficulty: outcome.check.difficulty,
            },
            hit: outcome.hit,
            call: shot.call,
            allocation: allocation.map(|a| a.total),
            allocation_dice: allocation.map_or_else(Vec::new, |a| a.faces.to_vec()),
            line,
            impact: applied
                .and_then(|a| a.impact)
                .map(|m| ModuleReport::of(rules, class, m)),
            pool: applied.map_or_else(Vec::new, |a| a.pool.to_vec()),
            removed: applied.map_or_else(Vec::new, |a| a.removed.to_vec()),
            kept: applied.map_or_else(Vec::new, |a| a.kept().collect()),
            dice_laid: applied.map_or_else(Vec::new, |a| {
                a.placed
                    .iter()
                    .map(|p| DieReport {
                        die: p.face,
                        at: p.module.map(|m| class.modules[usize::from(m)].at),
                        module: p.module.map(|m| rules.module_type(class, m).id.clone()),
                        hull_damage: p.hull,
                        broke: p.broke,
                        ooc: p.ooc,
                    })
                    .collect()
            }),
            hull_damage: applied.map_or(0, |a| a.hull_damage),
            hull_damage_total: target.hull_damage,
            modules_broken,
            ooc: target.ooc,
            ooc_added: applied.map_or(0, |a| a.ooc_added),
            shields_before,
            shields_after: target.shields,
            hull_check: applied
                .and_then(|a| a.hull_check.as_ref())
                .map(|h| HullCheckReport {
                    chart: h.chart,
                    needed: h.needed,
                    dice: h.faces.to_vec(),
                    stabilizer_rerolls: h.stabilizer_rerolls,
                    luck_rerolls: h.luck_rerolls,
                    passed: h.passed,
                }),
            exploded: target.exploded,
            picture,
        }
    }
}

impl System for ModuleGrid {
    const ID: &'static str = ID;
    const TITLE: &'static str = "Battlestations (second edition), Ship to Ship Combat";
    const DESCRIPTION: &'static str = "module grids: a Gunnery check, 2d6 hit allocation, then Guns + Shields dice less the Shields highest laid along a row or column";
    const EMBEDDED: &'static [(&'static str, &'static str)] = broadside_data::embed!(
        "../../rulesets/module-grid":
        "modules.toml",
        "ships.toml",
        "rules.toml",
        "hull-checks.toml",
    );
    const RESOLVE_OPTIONS: &'static [OptionSpec] = RESOLVE_OPTIONS;
    const BATTLE_OPTIONS: &'static [OptionSpec] = DUEL_OPTIONS;
    const SIDE_OPTIONS: &'static [OptionSpec] = crate::placement::SIDE_OPTIONS;
    const LOSSES: &'static [Loss] = &[Loss::Destroyed, Loss::Disarmed];

    type ShipSheet = ClassSheet;
    type Report = ResolveReport;
    type Setup = Duel;

    fn from_files(files: &[SourceFile]) -> Result<ModuleGrid, DataErrors> {
        ModuleGrid::load(files)
    }

    fn ship_sheets(&self) -> Vec<ClassSheet> {
        self.rules
            .ships
            .iter()
            .map(|class| self.class_sheet(class))
            .collect()
    }

    fn table_views(&self) -> Vec<TableView> {
        tables(self)
    }

    fn declare(&self, request: &ResolveRequest) -> Result<(Board, Shot), ResolveError> {
        let rules = &self.rules;
        let options = &request.options;
        let known = || rules.ships.iter().map(|s| s.id.as_str());
        let mut attacker = self
            .ship(&request.attacker)
            .ok_or_else(|| ResolveError::unknown("ship", &request.attacker, known()))?;
        let mut target = self
            .ship(&request.target)
            .ok_or_else(|| ResolveError::unknown("ship", &request.target, known()))?;
        let range = u32::try_from(options.required_number("range")?)
            .map_err(|_| ResolveError::bad_option("range", "must not be negative"))?;
        let mode = match options.text("mode") {
            None => Mode::Standard,
            Some(id) => Mode::from_id(id)
                .ok_or_else(|| ResolveError::unknown("mode", id, Mode::IDS.iter().copied()))?,
        };
        let side = match options.text("side") {
            None => ShipSide::Fore,
            Some(id) => ShipSide::from_id(id)
                .ok_or_else(|| ResolveError::unknown("side", id, SIDES.iter().copied()))?,
        };
        let call = options
            .text("call")
            .map(|text| {
                Square::parse(text).map_err(|message| ResolveError::bad_option("call", message))
            })
            .transpose()?;
        if let Some(guns) = options.number("guns")? {
            attacker.guns = u8::try_from(guns)
                .map_err(|_| ResolveError::bad_option("guns", "must be from 0 to 20"))?;
        }
        if let Some(shields) = options.number("shields")? {
            target.shields = u8::try_from(shields)
                .map_err(|_| ResolveError::bad_option("shields", "must be from 0 to 20"))?;
        }
        let scans = match options.number("scans")? {
            Some(n) => u8::try_from(n)
                .map_err(|_| ResolveError::bad_option("scans", "must be from 0 to 20"))?,
            None => 0,
        };
        // The scans are on the target, the other ship of the board.
        attacker.scans = scans;
        attacker.scans_on = Some(1);
        let luck = match options.number("luck")? {
            Some(n) => u8::try_from(n)
                .ok()
                .filter(|&n| n <= attacker.luck)
                .ok_or_else(|| {
                    ResolveError::bad_option(
                        "luck",
                        format!(
                            "the {} has {} Luck, so --luck must be from 0 to {}",
                            request.attacker, attacker.luck, attacker.luck
                        ),
                    )
                })?,
            None => 0,
        };
        let attacker_class = rules.class(attacker.class);
        let cannons = attacker.working_of(attacker_class, Function::Cannon);
        if cannons == 0 {
            return Err(ResolveError::Refused(format!(
                "the {} has no Cannon to fire",
                request.attacker
            )));
        }
        let module = cannons.trailing_zeros() as ModuleIx;
        let board = Board {
            ships: vec![attacker, target],
            names: Arc::from(vec![request.attacker.clone(), request.target.clone()]),
        };
        let shot = Shot {
            attacker: 0,
            weapon: Weapon::Cannon { module, mode },
            target: 1,
            range,
            side,
            call,
            scans,
            luck,
        };
        Ok((board, shot))
    }

    fn report(
        &self,
        _request: &ResolveRequest,
        resolved: Resolved<ModuleGrid>,
        sink: &mut dyn EventSink,
    ) -> ResolveReport {
        let Resolved {
            before,
            board,
            attack: shot,
            outcome,
        } = resolved;
        if board.ships[1].exploded {
            sink.emit(|| Event::Ruling {
                text: "the explosion's blast on the attacker and anything else nearby is played out in engagements, where positions are known; a single resolution stops here".into(),
            });
        }
        let mode = match shot.weapon {
            Weapon::Cannon { mode, .. } => mode,
            // A single resolution fires a Cannon (see `declare`).
            Weapon::Missile { .. } | Weapon::Teleporter { .. } => Mode::Standard,
        };
        let (guns_before, shields_before) = (before.ships[0].guns, before.ships[1].shields);
        self.resolve_report(&board, &shot, mode, guns_before, shields_before, &outcome)
    }

    fn battle_setup(&self, request: &BattleRequest) -> Result<Duel, ResolveError> {
        self.duel(request)
    }
}

/// Every table of the system's data.
fn tables(system: &ModuleGrid) -> Vec<TableView> {
    let rules = &system.rules;
    let c = &rules.constants;
    let row = |label: String, cells: Vec<String>| TableRowView { label, cells };
    let mut out = Vec::new();

    // The chart as printed, each row a band of damage.
    let chart = &rules.hull_chart;
    let mut chart_rows = vec![row(
        format!(
            "{}-",
            chart.first().map_or(0, |r| r.damage).saturating_sub(1)
        ),
        vec!["none".into()],
    )];
    for (i, r) in chart.iter().enumerate() {
        let label = match chart.get(i + 1) {
            Some(next) if next.damage - 1 == r.damage => r.damage.to_string(),
            Some(next) => format!("{}-{}", r.damage, next.damage - 1),
            None => format!("{}+", r.damage),
        };
        chart_rows.push(row(label, vec![r.check.to_string()]));
    }
    out.push(TableView {
        id: "hull-check-chart".into(),
        title: "Hull check chart: the check for the hull damage taken, before Size".into(),
        row_header: "hull damage".into(),
        columns: vec!["hull check".into()],
        rows: chart_rows.clone(),
    });

    let sizes: Vec<u8> = (1..=6).collect();
    out.push(TableView {
        id: "hull-check-by-size".into(),
        title: format!(
            "Hull check after Size ({} dice at or over it; '-' no check, 'auto' cannot fail, 'x' cannot be made)",
            c.hull_dice
        ),
        row_header: "hull damage".into(),
        columns: sizes.iter().map(|s| format!("size {s}")).collect(),
        rows: chart_rows
            .iter()
            .skip(1)
            .zip(chart)
            .map(|(r, chart_row)| {
                row(
                    r.label.clone(),
                    sizes
                        .iter()
                        .map(|&size| {
                            let needed = i32::from(chart_row.check) - i32::from(size);
                            if needed < c.hull_first_check {
                                "-".into()
                            } else if needed <= i32::from(c.hull_dice) {
                                "auto".into()
                            } else if needed > Rules::most(c.hull_dice) {
                                "x".into()
                            } else {
                                needed.to_string()
                            }
                        })
                        .collect(),
                )
            })
            .collect(),
    });

    out.push(TableView {
        id: "cannon-modes".into(),
        title: "Cannon modes".into(),
        row_header: "mode".into(),
        columns: vec![
            "power".into(),
            "range counted".into(),
            "uses Guns".into(),
            "shots a turn".into(),
            "allocation".into(),
            "needs".into(),
        ],
        rows: Mode::ALL
            .iter()
            .map(|&mode| {
                let m = rules.mode(mode);
                row(
                    mode.id().into(),
                    vec![
                        match (m.fixed_power, m.power_divisor) {
                            (Some(p), _) => p.to_string(),
                            (None, 1) => "Guns".into(),
                            (None, d) => format!("Guns / {d}, rounded down"),
                        },
                        if m.range_divisor == 1 {
                            "range".into()
                        } else {
                            format!("range / {}, rounded up", m.range_divisor)
                        },
                        if m.uses_guns { "yes" } else { "no" }.into(),
                        m.shots_per_turn.to_string(),
                        if m.indirect {
                            "centre mark"
                        } else {
                            "called point"
                        }
                        .into(),
                        m.needs
                            .map_or_else(|| "-".to_owned(), |f| f.id().to_owned()),
                    ],
                )
            })
            .collect(),
    });

    out.push(TableView {
        id: "to-hit".into(),
        title: format!(
            "Cannon to-hit difficulty (ruling): {} + {} per hex; roll {} dice + {} - OOC",
            c.to_hit_base,
            c.to_hit_per_hex,
            c.skill_dice,
            c.to_hit_skill.name()
        ),
        row_header: "range".into(),
        columns: vec!["standard".into(), "long".into()],
        rows: (0..=12u32)
            .map(|range| {
                let difficulty = |mode: Mode| {
                    let counted = system.counted_range(mode, range) as i32;
                    (c.to_hit_base + c.to_hit_per_hex * counted).to_string()
                };
                row(
                    range.to_string(),
                    vec![difficulty(Mode::Standard), difficulty(Mode::Long)],
                )
            })
            .collect(),
    });

    let centre = c.allocation_centre;
    out.push(TableView {
        id: "hit-allocation".into(),
        title: "Hit allocation: 2d6 from the centre line".into(),
        row_header: "2d6".into(),
        columns: vec!["from fore or aft".into(), "from port or starboard".into()],
        rows: (2..=12)
            .map(|total: i32| {
                let offset = total - centre;
                let way = |columns: bool| match (columns, offset.signum()) {
                    (_, 0) => "the centre line".to_owned(),
                    (true, 1) => format!("{offset} to starboard"),
                    (true, _) => format!("{} to port", -offset),
                    (false, 1) => format!("{offset} aftward"),
                    (false, _) => format!("{} forward", -offset),
                };
                row(total.to_string(), vec![way(true), way(false)])
            })
            .collect(),
    });

    out.push(TableView {
        id: "module-damage".into(),
        title: "A kept die, where it lands".into(),
        row_header: "die".into(),
        columns: vec!["on a module".into(), "past or outside the silhouette".into()],
        rows: (1..=6u32)
            .map(|face| {
                let breaks = face >= c.breaks_at;
                let on_module = if breaks {
                    format!(
                        "{face} hull damage, a Broken marker, {} collateral dice per occupant, OOC +{}",
                        c.collateral_dice_break, c.ooc_on_break
                    )
                } else {
                    format!("{face} hull damage, {} collateral die per occupant", c.collateral_dice)
                };
                let off = if face >= c.off_silhouette_ooc_at {
                    format!("{} hull damage, OOC +{}", c.off_silhouette_hull, c.off_silhouette_ooc)
                } else {
                    format!("{} hull damage", c.off_silhouette_hull)
                };
                row(face.to_string(), vec![on_module, off])
            })
            .collect(),
    });

    out.push(TableView {
        id: "facing".into(),
        title: "Hexsides of a module ship, clockwise from the bow".into(),
        row_header: "hexside".into(),
        columns: vec!["side".into()],
        rows: (0..6usize)
            .map(|h| {
                row(
                    (h + 1).to_string(),
                    vec![ShipSide::of_hexside(h).id().to_owned()],
                )
            })
            .collect(),
    });

    out.push(TableView {
        id: "modules".into(),
        title: "Module types".into(),
        row_header: "module".into(),
        columns: vec!["code".into(), "name".into(), "function".into()],
        rows: rules
            .module_types
            .iter()
            .map(|t| {
                row(
                    t.id.clone(),
                    vec![t.code.clone(), t.name.clone(), t.function.id().to_owned()],
                )
            })
            .collect(),
    });

    out.push(TableView {
        id: "explosion-power".into(),
        title: format!(
            "Ship explosion power by distance (Size, less {} per hex)",
            c.explosion_falloff
        ),
        row_header: "hexes".into(),
        columns: sizes.iter().map(|s| format!("size {s}")).collect(),
        rows: (0..=6u32)
            .map(|d| {
                row(
                    d.to_string(),
                    sizes
                        .iter()
                        .map(|&s| system.explosion_power(s, d).to_string())
                        .collect(),
                )
            })
            .collect(),
    });

    let numbers: Vec<(&str, String)> = vec![
        ("skill-check dice", c.skill_dice.to_string()),
        (
            "professional dice (best kept)",
            c.professional_dice.to_string(),
        ),
        ("to-hit skill", c.to_hit_skill.id().to_owned()),
        ("to-hit base (ruling)", c.to_hit_base.to_string()),
        ("to-hit per hex (ruling)", c.to_hit_per_hex.to_string()),
        ("OOC penalty per level", c.ooc_penalty.to_string()),
        ("allocation centre", c.allocation_centre.to_string()),
        ("module breaks at", c.breaks_at.to_string()),
        ("most Broken markers", c.max_broken_markers.to_string()),
        (
            "empty squares take dice (ruling)",
            c.gaps_take_dice.to_string(),
        ),
        ("Shields lost per strike", c.shields_drop.to_string()),
        ("hull checks from", c.hull_first_check.to_string()),
        ("Hull Stabilizer rerolls", c.stabilizer_rerolls.to_string()),
        ("Luck per reroll", c.luck_per_reroll.to_string()),
        (
            "explosion damage dice to all aboard",
            c.crew_damage_dice.to_string(),
        ),
        ("repair difficulty", c.repair_difficulty.to_string()),
        ("slagged square penalty", c.slagged_penalty.to_string()),
        (
            "docked ships take a blast (times)",
            c.docked_times.to_string(),
        ),
        ("microship survival", c.microship_survival.to_string()),
        ("teleport base", c.teleport_base.to_string()),
        ("bomb dice", c.bomb_dice.to_string()),
        (
            "missile difficulty (ruling)",
            c.missile_difficulty.to_string(),
        ),
        ("missile range (ruling)", c.missile_range.to_string()),
        ("missile power (ruling)", c.missile_power.to_string()),
        (
            "scans per Science Bay a turn (ruling)",
            c.scans_per_science.to_string(),
        ),
        (
            "OOC recovery difficulty (ruling)",
            c.ooc_recovery_difficulty.to_string(),
        ),
        ("repairs a turn (ruling)", c.repairs_per_turn.to_string()),
    ];
    out.push(TableView {
        id: "rules".into(),
        title: "The rules' other numbers (rules.toml)".into(),
        row_header: "rule".into(),
        columns: vec!["value".into()],
        rows: numbers
            .into_iter()
            .map(|(label, value)| row(label.to_owned(), vec![value]))
            .collect(),
    });

    out.push(TableView {
        id: "sight".into(),
        title: "Objects and line of sight (a line through their hex)".into(),
        row_header: "object".into(),
        columns: vec!["line of sight".into()],
        rows: rules
            .objects
            .iter()
            .map(|o| {
                row(
                    o.id.clone(),
                    vec![if o.blocks { "blocks" } else { "clear" }.into()],
                )
            })
            .collect(),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slagged Modules: "A module that has two Broken markers on it is
    /// slagged." A resolved shot starts from fresh ships and a Cannon lays
    /// at most one die on a module, so no resolved shot slags one; the
    /// report's mark for it is checked here.
    #[test]
    fn a_slagged_module_is_marked_in_the_report() {
        let report = |slagged| BrokenReport {
            at: Square::parse("1,2").expect("a square"),
            module: "cannon".into(),
            slagged,
        };
        assert_eq!(report(false).describe(), "cannon at 1,2");
        assert_eq!(report(true).describe(), "cannon at 1,2 (slagged)");
    }
}

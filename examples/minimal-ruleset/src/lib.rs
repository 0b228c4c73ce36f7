//! A minimal rule system, the template a new system's crate copies: one d6 a shot, hull only.
//!
//! A ship fires once a turn at the first enemy afloat; a d6 at or above the
//! ship's `hits-on` hits and takes one point off the target's hull, and a
//! ship with no hull left is sunk. The numbers are in `data/ships.toml`;
//! this file reads them and is the system's face (core's `System`).

mod rules;

use std::collections::BTreeMap;
use std::sync::Arc;

use broadside_core::kit::{self, Prepared, Resolved, System};
use broadside_core::{
    AttackOutcome, BattleRequest, DataErrors, DataProblems, DataRange, EventSink, Registration,
    ResolveError, ResolveRequest, Sheet, ShipSheet, SourceFile,
};
use serde::{Deserialize, Serialize};

pub use rules::{Ship, Shot, ShotOutcome};

/// How the CLI registers this system (were it registered).
pub const REGISTRATION: Registration = kit::registration::<Minimal>();

/// Every number of the data and the range the rules make sensible.
pub const RANGES: &[DataRange] = &[
    DataRange::number("ships.toml", "<ship>.hull", 1, 20, "hits a ship takes"),
    DataRange::number("ships.toml", "<ship>.hits-on", 2, 6, "a face of the d6"),
];

/// A ship class as `ships.toml` gives it (its `hits-on`: the d6 face at or
/// above which its shots hit), and as `broadside ships` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Class {
    /// The key of its table in `ships.toml`.
    #[serde(skip_deserializing)]
    pub id: String,
    pub name: String,
    pub hull: u8,
    pub hits_on: u8,
    pub source: String,
}

/// The minimal system: every ship class, in id order, shared so that a
/// battle set up from the system copies no data.
#[derive(Debug, Clone)]
pub struct Minimal {
    pub classes: Arc<[Class]>,
}

impl Minimal {
    /// Fresh ships of the classes `ids` names, or which ids one could be.
    pub fn fresh<'a>(&self, ids: impl Iterator<Item = &'a str>) -> Result<Vec<Ship>, ResolveError> {
        let known = || self.classes.iter().map(|c| c.id.as_str());
        let ship = |class| Ship {
            class,
            hull: self.classes[class].hull,
        };
        ids.map(|id| kit::position("ship", id, known()).map(ship))
            .collect()
    }
}

impl Sheet for Class {
    fn lines(&self) -> Vec<String> {
        let (name, hull, hits_on) = (&self.name, self.hull, self.hits_on);
        vec![format!("{name}: hull {hull}, hits on {hits_on}+")]
    }
}

impl ShipSheet for Class {
    fn id(&self) -> &str {
        &self.id
    }

    fn row(&self) -> Vec<(&'static str, String)> {
        vec![
            ("ship", self.id.clone()),
            ("hull", self.hull.to_string()),
            ("hits on", format!("{}+", self.hits_on)),
        ]
    }
}

/// What `resolve` reports.
#[derive(Debug, Serialize)]
pub struct Report {
    attacker: String,
    target: String,
    hits_on: u8,
    roll: u32,
    hit: bool,
    hull_damage: u8,
    hull_left: u8,
}

impl Sheet for Report {
    fn lines(&self) -> Vec<String> {
        let (attacker, target, left) = (&self.attacker, &self.target, self.hull_left);
        let verdict = if self.hit { "hit" } else { "miss" };
        let to_hit = format!("{}+ to hit, rolled {}", self.hits_on, self.roll);
        vec![format!(
            "{attacker} fires at {target}: {to_hit}: {verdict}; {left} hull left"
        )]
    }

    /// What `resolve --exact` counts.
    fn attack_outcome(&self) -> Option<AttackOutcome> {
        let hull_damage = self.hull_damage.into();
        Some(AttackOutcome {
            hit: self.hit,
            hull_damage,
            ..AttackOutcome::default()
        })
    }
}

impl System for Minimal {
    const ID: &'static str = "minimal";
    const TITLE: &'static str = "A minimal example system (no published game)";
    const DESCRIPTION: &'static str =
        "one d6 a shot, a hit on the ship's number or more, one point off the hull";
    const EMBEDDED: &'static [(&'static str, &'static str)] =
        broadside_data::embed!("data": "ships.toml");

    type ShipSheet = Class;
    type Report = Report;
    type Setup = Prepared<Minimal>;

    /// Reads `ships.toml`, reporting every problem with its file, key and line.
    fn from_files(files: &[SourceFile]) -> Result<Minimal, DataErrors> {
        let mut problems = DataProblems::default();
        let Some(file) = problems.source(files, "ships.toml") else {
            return Err(problems.stop());
        };
        let mut classes: BTreeMap<String, Class> = match toml::from_str(&file.text) {
            Ok(classes) => classes,
            Err(e) => {
                problems.unreadable(file, e.span().map(|span| span.start), e.message());
                return Err(problems.stop());
            }
        };
        let lines = broadside_data::TomlLines(&file.text);
        for (id, class) in &mut classes {
            class.id = id.clone();
            for (range, value) in RANGES.iter().zip([class.hull, class.hits_on]) {
                let key = range.key.replace("<ship>", id);
                problems.check(range, &lines, &key, value.into());
            }
        }
        problems.none_defined(&[("ships.toml", classes.is_empty(), "ship")]);
        problems.finish(Minimal {
            classes: classes.into_values().collect(),
        })
    }

    fn ship_sheets(&self) -> Vec<Class> {
        self.classes.to_vec()
    }

    fn declare(&self, request: &ResolveRequest) -> Result<(Vec<Ship>, Shot), ResolveError> {
        let ids = [&request.attacker, &request.target].map(String::as_str);
        let shot = Shot {
            attacker: 0,
            target: 1,
        };
        Ok((self.fresh(ids.into_iter())?, shot))
    }

    fn report(
        &self,
        request: &ResolveRequest,
        r: Resolved<Minimal>,
        _: &mut dyn EventSink,
    ) -> Report {
        Report {
            attacker: request.attacker.clone(),
            target: request.target.clone(),
            hits_on: self.classes[r.board[0].class].hits_on,
            roll: r.outcome.roll,
            hit: r.outcome.hit,
            hull_damage: r.outcome.damage,
            hull_left: r.board[1].hull,
        }
    }

    fn battle_setup(&self, request: &BattleRequest) -> Result<Prepared<Minimal>, ResolveError> {
        Prepared::new(self, request)
    }
}

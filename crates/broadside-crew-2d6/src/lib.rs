//! The 2d6 crew-position system: Traveller (Mongoose 2nd edition) space combat under a house-rule cheat sheet.
//!
//! Each ship is crewed by people holding positions (Captain, Pilot, Sensor
//! Operator, Comms Officer, Gunners, Engineers), and every action is a 2D
//! task check: 2D + skill + characteristic DM against a difficulty, whose
//! Effect may chain into a later check. A side fields one or more ships;
//! each pair of enemy ships stands at a range band, not on a map;
//! initiative gives every ship its place in one order and the reactions it
//! may take; direct fire resolves at once and missile salvos fly by band.
//! Hits take armour and hull, and a high Effect or mounting damage lands
//! critical hits. Jumps are made only at marked jump points (Alderson points). All
//! numbers come from `rulesets/crew-2d6/`; this crate holds the procedures.

pub mod attack;
pub mod battle;
pub mod check;
pub mod damage;
pub mod data;
pub mod engagement;
pub mod model;
mod ruleset;
pub mod ship;
pub mod tactics;

use broadside_core::{DataErrors, Registration, SourceFile};

pub use attack::{
    Attack, AttackOutcome, Incoming, MissileCount, NoReactions, ReactionChooser, ReactionKind,
    ReactionOutcome, Reactions, Weaponry,
};
pub use battle::{Battle, Pair, Salvo, ShipId, ShipState};
pub use check::{CheckResult, Checker, Label};
pub use damage::{Applied, Cause, CriticalHit, Hit};
pub use engagement::{Encounter, Fleets, Initiative, Overcharged, Phase, Sequence, Setup};
pub use model::{Band, Rules};
pub use ship::{Condition, Ship};
pub use tactics::{
    Action, CombatManeuver, CrewTactics, DefaultTactics, Focus, Maneuver, Order, Orders, Repairable,
};

/// The system's id.
pub const ID: &str = "crew-2d6";

/// The crew-2d6 rule system, loaded from its data.
#[derive(Debug, Clone)]
pub struct Crew2d6 {
    /// The validated data.
    pub rules: Rules,
    /// What every crew member of every class brings to every task, by
    /// class, then person and task: worked out once, since every check
    /// reads it.
    crew_dms: Vec<Vec<check::CrewDm>>,
}

impl Crew2d6 {
    /// Validates ruleset files into the system.
    pub fn load(files: &[SourceFile]) -> Result<Crew2d6, DataErrors> {
        let rules = data::load(files)?;
        let crew_dms = check::crew_dms(&rules);
        Ok(Crew2d6 { rules, crew_dms })
    }

    /// A fresh ship of the class with this id.
    pub fn ship(&self, id: &str) -> Option<Ship> {
        self.rules
            .class_id(id)
            .map(|class| Ship::new(&self.rules, class))
    }
}

/// How the CLI registers this system.
pub const REGISTRATION: Registration = broadside_core::kit::registration::<Crew2d6>();

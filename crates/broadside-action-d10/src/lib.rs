//! The d10 action-based system: actions, target lock, d10 to-hit, salvo counters and structure boxes.
//!
//! Each turn a ship spends its actions (one per unmarked A box) on moving,
//! locking on, firing, launching and repairing. Direct fire hits on 1d10 at
//! or under a to-hit number; projectiles and seekers are salvo counters that
//! strike in the Missile Resolution phase if the target is still in their
//! hex. A hit marks structure boxes from the first unmarked one, and each
//! lettered box does what its letter says, rolling on the Hangar, Surface
//! Features, Internal Damage and Core Hit tables. All numbers come from
//! `rulesets/action-d10/`; this crate holds the procedures.

pub mod attack;
pub mod damage;
pub mod data;
pub mod engagement;
pub mod fleet;
pub mod model;
mod reading;
pub mod repair;
mod ruleset;
pub mod ship;
pub mod tactics;

use broadside_core::{DataErrors, Registration, SourceFile};

pub use attack::{Attack, AttackOutcome, Board, LockNeed, LockOutcome, LockSituation, Situation};
pub use damage::{Applied, Effect, Hit};
pub use engagement::{Action, Battle, Decision, Phase, Pose, ShipSet};
pub use fleet::{BattleSetup, Formation, SideSetup};
pub use model::Rules;
pub use repair::RepairOutcome;
pub use ship::{Repairable, Ship, Status};
pub use tactics::{ActionTactics, DefaultTactics};

/// The system's id.
pub const ID: &str = "action-d10";

/// The d10 action-based rule system, loaded from its data.
#[derive(Debug, Clone)]
pub struct ActionD10 {
    /// The validated data.
    pub rules: Rules,
}

impl ActionD10 {
    /// Validates ruleset files into the system.
    pub fn load(files: &[SourceFile]) -> Result<ActionD10, DataErrors> {
        Ok(ActionD10 {
            rules: data::load(files)?,
        })
    }

    /// A fresh ship of the class with this id.
    pub fn ship(&self, id: &str) -> Option<Ship> {
        self.rules
            .class_id(id)
            .map(|class| Ship::new(&self.rules, class))
    }
}

/// How the CLI registers this system.
pub const REGISTRATION: Registration = broadside_core::kit::registration::<ActionD10>();

//! Star Frontiers: Knight Hawks, Advanced Game: percentile to-hit, the Damage Table and its fall-backs.
//!
//! A weapon's chance to hit is a Combat Table cell for the defence in use,
//! modified by range, head-on fire, ICMs and damage; a hit rolls d100 plus the
//! weapon's DTM on the Damage Table, whose rows damage the hull, the drive,
//! the steering, weapons, defences and control systems. All numbers come
//! from `rulesets/percentile/`; this crate holds the procedures.

pub mod attack;
pub mod damage;
pub mod data;
pub mod engagement;
pub mod hazards;
pub mod model;
mod ruleset;
pub mod setup;
pub mod ship;
pub mod tactics;

use std::sync::Arc;

use broadside_core::{DataErrors, Registration, SourceFile};

pub use attack::{Attack, AttackOutcome, Board, IcmLaunch, IcmLaunches, Strike, ToHit};
pub use damage::{Applied, Cause, Hit, SystemLost};
pub use engagement::{Battle, Maneuver, Phase, Pose, PreparedBattle};
pub use hazards::{RepairAttempt, RepairOutcome};
pub use model::Rules;
pub use ship::{Repairable, Ship};
pub use tactics::{DefaultTactics, PercentileTactics};

/// `n` followed by the singular or plural noun, as the log prints counts
/// ("1 ICM", "2 ICMs").
pub(crate) fn count_of(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The system's id.
pub const ID: &str = "percentile";

/// The percentile rule system, loaded from its data.
#[derive(Debug, Clone)]
pub struct Percentile {
    /// The validated data.
    pub rules: Rules,
    /// The to-hit penalty of a damaged combat control system, from the
    /// Damage Table's combat-control row (validation makes every row that
    /// names the penalty agree).
    combat_control_penalty: i32,
    /// What resolve reports print about the data, shared by every report so
    /// that making one copies no text.
    labels: Arc<ruleset::Labels>,
}

impl Percentile {
    /// Validates ruleset files into the system.
    pub fn load(files: &[SourceFile]) -> Result<Percentile, DataErrors> {
        let rules = data::load(files)?;
        let combat_control_penalty = rules
            .damage_table
            .iter()
            .find_map(|row| match row.effect {
                model::Effect::CombatControl { penalty } => Some(penalty),
                _ => None,
            })
            // Validation guarantees a combat-control row.
            .unwrap_or(0);
        Ok(Percentile {
            labels: Arc::new(ruleset::Labels::of(&rules)),
            rules,
            combat_control_penalty,
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
pub const REGISTRATION: Registration = broadside_core::kit::registration::<Percentile>();

//! Battlestations (second edition) ship-to-ship combat: ships as grids of modules, 2d6 hit allocation, Cannon dice through Shields.
//!
//! A ship is a grid of square modules with a centre mark, a Size, a Shields
//! level and a Guns power. A Cannon shot that passes its Gunnery check (a
//! documented ruling: the published section has no to-hit rule) rolls 2d6
//! for hit allocation: 7 lands on the centre line (the centre mark, or a
//! point the firer calls), higher to starboard or aftward. The hit rolls Guns
//! plus Shields dice, Shields remove the highest, and the rest are laid
//! along the row or column from the module of impact, breaking modules on
//! 4-6. Hull damage adds up and calls for hull checks; a failed one explodes
//! the ship. All numbers come from `rulesets/module-grid/`; this crate holds
//! the procedures.

pub mod attack;
pub mod damage;
pub mod data;
pub mod engagement;
pub mod explosion;
pub mod model;
pub mod picture;
pub mod placement;
pub mod reading;
mod ruleset;
pub mod ship;
pub mod sight;
pub mod tactics;

use std::sync::Arc;

use broadside_core::{DataErrors, Registration, SourceFile};

pub use attack::{
    AllocationRoll, AllocationView, Board, Reroll, RerollWith, Shot, ShotOutcome, SkillRoll, Weapon,
};
pub use damage::{Applied, Cause, Hit, HullCheck, Placed};
pub use engagement::{Arena, Battle, Duel, Pose};
pub use explosion::{BlastResult, BlastStrike, Bystander};
pub use model::{Mode, Rules, ShipSide, Square};
pub use ship::Ship;
pub use sight::{MapObject, Sight};
pub use tactics::{DefaultTactics, ModuleGridTactics};

/// The system's id.
pub const ID: &str = "module-grid";

/// The module-grid rule system, loaded from its data.
#[derive(Debug, Clone)]
pub struct ModuleGrid {
    /// The validated data, shared with the reports that draw from it.
    pub rules: Arc<Rules>,
}

impl ModuleGrid {
    /// Validates ruleset files into the system.
    pub fn load(files: &[SourceFile]) -> Result<ModuleGrid, DataErrors> {
        Ok(ModuleGrid {
            rules: Arc::new(data::load(files)?),
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
pub const REGISTRATION: Registration = broadside_core::kit::registration::<ModuleGrid>();

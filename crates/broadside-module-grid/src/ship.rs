//! A ship's state during play: hull damage, power, OOC, Broken markers, what it has spent.
//!
//! The state is small, `Copy`, and `Eq + Hash`: sets of modules are bit
//! masks over the class's module indices, so equal states reached by
//! different rolls compare equal and a trial's start is copied without
//! allocating.

use crate::model::{ClassId, Function, ModuleIx, ModuleSet, Rules, ShipClass};

/// The most Cannons whose shots in a turn a ship keeps count of; a class with
/// more is refused by validation.
pub const MAX_CANNONS: usize = 16;

/// The bit of a module in a [`ModuleSet`]; no bit for an index past the
/// largest set, so a stray index can never panic.
pub const fn bit(module: ModuleIx) -> ModuleSet {
    if (module as usize) < crate::model::MAX_MODULES {
        1 << module
    } else {
        0
    }
}

/// A ship in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ship {
    /// Its class.
    pub class: ClassId,
    /// Hull damage taken, the record sheet's total.
    pub hull_damage: u16,
    /// Shields level now.
    pub shields: u8,
    /// Guns power now.
    pub guns: u8,
    /// Out-of-control level.
    pub ooc: u8,
    /// Modules with at least one Broken marker.
    pub broken: ModuleSet,
    /// Modules with two Broken markers: slagged.
    pub slagged: ModuleSet,
    /// Modules with a Used marker this turn (fired, launched, teleported).
    pub used: ModuleSet,
    /// Shots each Cannon fired this turn, by its order among the ship's Cannons.
    pub shots: [u8; MAX_CANNONS],
    /// Luck points left.
    pub luck: u8,
    /// Missiles left.
    pub missiles: u8,
    /// Teleporter bombs left.
    pub bombs: u8,
    /// Scans left this turn.
    pub scans: u8,
    /// The board index of the ship those scans were made on: a scan rerolls
    /// allocation dice only of a hit on that ship. `None` until a scan is
    /// made on one.
    pub scans_on: Option<u8>,
    /// Failed a hull check and exploded.
    pub exploded: bool,
}

impl Ship {
    /// What the ship may spend rerolling the hit allocation of its hit on
    /// ship `target`: its scans if it made them on that ship (seed line 44:
    /// "each scan you have on a ship"), and the Luck rerolls its Luck buys
    /// at `luck_per_reroll` points each (validation keeps it at 1 or more).
    pub fn reroll_means(&self, target: usize, luck_per_reroll: u8) -> (u8, u8) {
        let scans = if self.scans_on.map(usize::from) == Some(target) {
            self.scans
        } else {
            0
        };
        (scans, self.luck / luck_per_reroll.max(1))
    }

    /// A fresh ship of a class, at full power, with the hull damage its
    /// record sheet starts with.
    pub fn new(rules: &Rules, class: ClassId) -> Ship {
        let c = rules.class(class);
        let mut ship = Ship {
            class,
            hull_damage: c.hull_damage,
            shields: c.shields,
            guns: c.guns,
            ooc: 0,
            broken: 0,
            slagged: 0,
            used: 0,
            shots: [0; MAX_CANNONS],
            luck: c.luck,
            missiles: c.missiles,
            bombs: c.bombs,
            scans: 0,
            scans_on: None,
            exploded: false,
        };
        ship.scans = ship.scan_capacity(rules);
        ship
    }

    /// Whether a module is free of Broken markers.
    pub const fn is_working(&self, module: ModuleIx) -> bool {
        self.broken & bit(module) == 0
    }

    /// The working modules among a set.
    pub const fn working(&self, set: ModuleSet) -> ModuleSet {
        set & !self.broken
    }

    /// The working modules of a function.
    pub fn working_of(&self, class: &ShipClass, function: Function) -> ModuleSet {
        self.working(class.modules_of(function))
    }

    /// Whether any module of a function works.
    pub fn has_working(&self, class: &ShipClass, function: Function) -> bool {
        self.working_of(class, function) != 0
    }

    /// Broken markers on a module: 0, 1, or 2 (slagged).
    pub const fn markers(&self, module: ModuleIx) -> u8 {
        let bit = bit(module);
        if self.slagged & bit != 0 {
            2
        } else if self.broken & bit != 0 {
            1
        } else {
            0
        }
    }

    /// Puts one more Broken marker on a module, up to `max`; returns the
    /// markers it then has and whether one was added.
    pub fn add_marker(&mut self, module: ModuleIx, max: u8) -> (u8, bool) {
        let before = self.markers(module);
        let bit = bit(module);
        if before >= max || bit == 0 {
            return (before, false);
        }
        if before == 0 {
            self.broken |= bit;
        } else {
            self.slagged |= bit;
        }
        (before + 1, true)
    }

    /// Takes one Broken marker off a module; returns the markers left.
    pub fn remove_marker(&mut self, module: ModuleIx) -> u8 {
        let bit = bit(module);
        match self.markers(module) {
            2 => {
                self.slagged &= !bit;
                1
            }
            1 => {
                self.broken &= !bit;
                0
            }
            _ => 0,
        }
    }

    /// Destroyed: it exploded.
    pub const fn is_destroyed(&self) -> bool {
        self.exploded
    }

    /// The order of a Cannon among the ship's Cannons, which indexes
    /// [`Ship::shots`]; `None` for a module that is not a Cannon.
    pub fn cannon_order(class: &ShipClass, module: ModuleIx) -> Option<usize> {
        let cannons = class.modules_of(Function::Cannon);
        let bit = bit(module);
        if cannons & bit == 0 {
            return None;
        }
        Some((cannons & (bit - 1)).count_ones() as usize)
    }

    /// Scans the ship's working Science Bays give in a turn.
    pub fn scan_capacity(&self, rules: &Rules) -> u8 {
        let class = rules.class(self.class);
        let bays = self.working_of(class, Function::Science).count_ones();
        u8::try_from(bays * u32::from(rules.constants.scans_per_science)).unwrap_or(u8::MAX)
    }

    /// Whether the ship has a weapon module left in working order.
    pub fn is_armed(&self, rules: &Rules) -> bool {
        let class = rules.class(self.class);
        self.has_working(class, Function::Cannon)
            || (self.missiles > 0 && self.has_working(class, Function::MissileBay))
            || (self.bombs > 0 && self.has_working(class, Function::Teleporter))
    }

    /// Hull damage as a wide number, for rules arithmetic.
    pub fn damage(&self) -> u32 {
        u32::from(self.hull_damage)
    }
}

//! A ship's state during play: hull, armour, critical hits, weapons and magazines.
//!
//! The state is small, `Clone` without allocation, and `Eq + Hash`, so equal
//! states reached by different rolls compare equal. The crew and everything
//! else that never changes stays in the ship's [`ShipClass`].

use arrayvec::ArrayVec;

use crate::model::{
    ClassId, LOCATIONS, Rules, ShipClass, Standing, WeaponHarm, WeaponId, WeaponKind,
};

/// The most crew members one ship may have.
pub const MAX_CREW: usize = 12;
/// The most mounts one ship may carry.
pub const MAX_MOUNTS: usize = 8;
/// The most weapons one ship may carry.
pub const MAX_SLOTS: usize = 16;
/// The most kinds of missile and sand one ship may carry.
pub const MAX_MAGAZINES: usize = 4;

/// The state of one weapon aboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Condition {
    /// Working.
    #[default]
    Ready,
    /// Working, but its attacks suffer a Bane.
    Bane,
    /// Out of action until repaired.
    Disabled,
    /// Gone.
    Destroyed,
}

impl Condition {
    /// Whether the weapon can be used.
    pub const fn usable(self) -> bool {
        matches!(self, Condition::Ready | Condition::Bane)
    }

    /// The condition a weapon critical leaves, never better than now.
    pub fn harmed(self, harm: WeaponHarm) -> Condition {
        let new = match harm {
            WeaponHarm::Bane => Condition::Bane,
            WeaponHarm::Disabled => Condition::Disabled,
            WeaponHarm::Destroyed => Condition::Destroyed,
        };
        self.max(new)
    }

    /// Its name in reports.
    pub const fn id(self) -> &'static str {
        match self {
            Condition::Ready => "ready",
            Condition::Bane => "bane",
            Condition::Disabled => "disabled",
            Condition::Destroyed => "destroyed",
        }
    }
}

/// A ship in play.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ship {
    /// Its class.
    pub class: ClassId,
    /// Hull points left; at 0 the ship is wrecked.
    pub hull: i32,
    /// Armour left.
    pub armour: i32,
    /// Critical hit severity by location (`roll - 2`), 0 for none.
    pub severity: [u8; LOCATIONS],
    /// Locations jury-rigged by Repair Systems, as bits: their standing
    /// effects are ignored until the location is hit again.
    pub jury_rigged: u16,
    /// Each weapon's condition, by slot of the class.
    pub weapons: ArrayVec<Condition, MAX_SLOTS>,
    /// Missiles or sand left, by magazine of the class.
    pub magazines: ArrayVec<u16, MAX_MAGAZINES>,
    /// Tenths of the starting hull already lost and answered with a
    /// sustained-damage critical hit.
    pub sustained: u8,
    /// The standing effects of its critical hits, kept up to date.
    pub standing: Standing,
}

impl Ship {
    /// A fresh ship of a class: undamaged, magazines full.
    pub fn new(rules: &Rules, class: ClassId) -> Ship {
        let c = rules.class(class);
        Ship {
            class,
            hull: c.hull,
            armour: c.armour,
            severity: [0; LOCATIONS],
            jury_rigged: 0,
            weapons: c.slots.iter().map(|_| Condition::Ready).collect(),
            magazines: c.magazines.iter().map(|&(_, n)| n).collect(),
            sustained: 0,
            standing: Standing::default(),
        }
    }

    /// Its class.
    pub fn class<'r>(&self, rules: &'r Rules) -> &'r ShipClass {
        rules.class(self.class)
    }

    /// Wrecked: no hull left.
    pub fn is_wrecked(&self) -> bool {
        self.hull <= 0
    }

    /// The thrust its M-drive gives now, after critical hits.
    pub fn thrust(&self, rules: &Rules) -> i32 {
        if self.standing.thrust_zero {
            0
        } else {
            (self.class(rules).thrust - i32::from(self.standing.thrust_loss)).max(0)
        }
    }

    /// Missiles or sand left for a weapon, if it uses a magazine.
    pub fn magazine(&self, rules: &Rules, weapon: WeaponId) -> Option<u16> {
        let index = self.class(rules).magazine(weapon)?;
        self.magazines.get(index).copied()
    }

    /// Takes `n` from a weapon's magazine; false (and nothing taken) if it
    /// holds fewer.
    pub fn spend(&mut self, rules: &Rules, weapon: WeaponId, n: u16) -> bool {
        let Some(index) = self.class(rules).magazine(weapon) else {
            return false;
        };
        match self.magazines.get_mut(index) {
            Some(left) if *left >= n => {
                *left -= n;
                true
            }
            _ => false,
        }
    }

    /// Whether the ship still has a weapon it can attack with, now or after
    /// a repair: a direct-fire weapon not destroyed, or a launcher not
    /// destroyed with missiles left.
    pub fn is_armed(&self, rules: &Rules) -> bool {
        let class = self.class(rules);
        class.slots.iter().zip(&self.weapons).any(|(slot, &c)| {
            c != Condition::Destroyed
                && match rules.weapon(slot.weapon).kind {
                    WeaponKind::Direct => true,
                    WeaponKind::Missile => self.magazine(rules, slot.weapon).unwrap_or(0) > 0,
                    WeaponKind::Sandcaster => false,
                }
        })
    }

    /// Recomputes the standing effects from the severities.
    pub fn refresh(&mut self, rules: &Rules) {
        let mut standing = Standing::default();
        for (i, location) in rules.criticals.locations.iter().enumerate() {
            // An undamaged or jury-rigged location adds nothing.
            let severity = usize::from(self.severity[i]);
            if severity == 0 || self.jury_rigged & (1 << i) != 0 {
                continue;
            }
            if let Some(s) = location.cumulative.get(severity) {
                standing = standing.combine(s);
            }
        }
        self.standing = standing;
    }
}

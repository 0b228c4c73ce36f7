//! A ship's state during play: what it has left, what is damaged, what is up.
//!
//! The state is small and `Copy`, so resetting a board between trials is a
//! plain memory copy, and `Eq + Hash`, so equal states reached by different
//! rolls compare equal.

use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

use crate::model::{ClassId, Defence, Rules, WeaponId};

/// The most weapon systems one ship may carry.
pub const MAX_WEAPONS: usize = 16;
/// The most defence systems one ship may carry.
pub const MAX_DEFENCES: usize = 8;

/// A list of at most `N` items kept inline, so that the ship holding it is
/// `Copy`. It reads as a slice.
#[derive(Debug, Clone, Copy)]
pub struct Mounts<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: u8,
}

impl<T: Copy + Default, const N: usize> Mounts<T, N> {
    /// An empty list.
    pub fn new() -> Self {
        Mounts {
            items: [T::default(); N],
            len: 0,
        }
    }

    /// Adds an item; gives it back when the list is full.
    pub fn push(&mut self, item: T) -> Result<(), T> {
        let len = usize::from(self.len);
        if len == N {
            return Err(item);
        }
        self.items[len] = item;
        self.len += 1;
        Ok(())
    }
}

impl<T: Copy + Default, const N: usize> Default for Mounts<T, N> {
    fn default() -> Self {
        Mounts::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for Mounts<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for Mounts<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..usize::from(self.len)]
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Mounts<T, N> {
    /// Collects at most `N` items; validation keeps ship data within that.
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = Mounts::new();
        for item in iter.into_iter().take(N) {
            let _ = list.push(item);
        }
        list
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a Mounts<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a mut Mounts<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

// Equality and hashing look only at the items in use, not at the spare slots.
impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Mounts<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for Mounts<T, N> {}

impl<T: Copy + Default + Hash, const N: usize> Hash for Mounts<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

/// One weapon system aboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WeaponMount {
    /// Which weapon.
    pub weapon: WeaponId,
    /// Shots left, for limited-supply weapons.
    pub supply: Option<u16>,
    /// Destroyed by a weapon hit.
    pub destroyed: bool,
    /// A repair roll of 99-00 made it unrepairable in space.
    pub beyond_repair: bool,
}

/// One defence system aboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DefenceMount {
    /// Which defence.
    pub defence: Defence,
    /// Uses left, for masking screens and ICMs.
    pub supply: Option<u16>,
    /// Destroyed by a defense hit.
    pub destroyed: bool,
    /// A repair roll of 99-00 made it unrepairable in space.
    pub beyond_repair: bool,
}

/// Damage recorded in the roster's "Damaged Systems" box, and what a
/// disastrous fire or short circuit leaves behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Damaged {
    /// Combat control hit: a penalty on every attack.
    pub combat_control: bool,
    /// Damage control hit: DCR halved.
    pub damage_control: bool,
    /// Navigation hit: forced turns.
    pub navigation: bool,
    /// Burning.
    pub fire: bool,
    /// Power short circuit: screens and ICMs off, no new masking screens.
    pub short_circuit: bool,
}

/// A system a repair can be attempted on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Repairable {
    /// Hull points.
    #[default]
    Hull,
    /// One lost ADF point.
    Drive,
    /// One lost MR point.
    Steering,
    /// A destroyed weapon system, by mount index.
    Weapon(usize),
    /// A destroyed defence system, by mount index.
    Defence(usize),
    /// Combat control.
    CombatControl,
    /// Damage control.
    DamageControl,
    /// Navigation.
    Navigation,
    /// The fire.
    Fire,
    /// The power short circuit.
    ShortCircuit,
}

/// A ship in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ship {
    /// Its class.
    pub class: ClassId,
    /// Hull points left; 0 means destroyed.
    pub hull: i32,
    /// ADF left.
    pub adf: u8,
    /// MR left.
    pub mr: u8,
    /// DCR now (halved by damage control hits).
    pub dcr: u16,
    /// Weapon systems.
    pub weapons: Mounts<WeaponMount, MAX_WEAPONS>,
    /// Defence systems.
    pub defences: Mounts<DefenceMount, MAX_DEFENCES>,
    /// The screen switched on, if any.
    pub screen: Option<Defence>,
    /// Inside a masking screen it released.
    pub masked: bool,
    /// The Damaged Systems box.
    pub damaged: Damaged,
    /// Non-system repairs made impossible in space by a 99-00 roll.
    pub beyond_repair: Mounts<Repairable, 10>,
    /// Torn apart while manoeuvring.
    pub broken_apart: bool,
}

impl Ship {
    /// A fresh ship of a class, undamaged and with full supplies.
    pub fn new(rules: &Rules, class: ClassId) -> Ship {
        let c = rules.class(class);
        Ship {
            class,
            hull: c.hull,
            adf: c.adf,
            mr: c.mr,
            dcr: c.dcr,
            weapons: c
                .weapons
                .iter()
                .map(|&(weapon, supply)| WeaponMount {
                    weapon,
                    supply,
                    destroyed: false,
                    beyond_repair: false,
                })
                .collect(),
            defences: c
                .defences
                .iter()
                .map(|&(defence, supply)| DefenceMount {
                    defence,
                    supply,
                    destroyed: false,
                    beyond_repair: false,
                })
                .collect(),
            screen: None,
            masked: false,
            damaged: Damaged::default(),
            beyond_repair: Mounts::new(),
            broken_apart: false,
        }
    }

    /// Hull points lost.
    pub fn damage_taken(&self, rules: &Rules) -> i32 {
        rules.class(self.class).hull - self.hull
    }

    /// More than half its original hull lost: the ship risks breaking apart
    /// whenever it uses ADF or MR.
    pub fn severely_damaged(&self, rules: &Rules) -> bool {
        self.damage_taken(rules) > rules.class(self.class).hull / 2
    }

    /// Destroyed by hull damage or torn apart.
    pub fn is_destroyed(&self) -> bool {
        self.hull <= 0 || self.broken_apart
    }

    /// The first intact mount of a defence.
    pub fn defence(&self, defence: Defence) -> Option<&DefenceMount> {
        self.defences
            .iter()
            .find(|m| m.defence == defence && !m.destroyed)
    }

    /// The first intact mount of a defence, to change it.
    pub fn defence_mut(&mut self, defence: Defence) -> Option<&mut DefenceMount> {
        self.defences
            .iter_mut()
            .find(|m| m.defence == defence && !m.destroyed)
    }

    /// ICMs this ship can launch now.
    pub fn icms_ready(&self) -> u16 {
        if self.damaged.short_circuit {
            return 0;
        }
        self.defence(Defence::Icm)
            .and_then(|m| m.supply)
            .unwrap_or(0)
    }

    /// Whether a weapon mount can fire: intact, and with supply if limited.
    pub fn can_fire(&self, mount: usize) -> bool {
        self.weapons
            .get(mount)
            .is_some_and(|m| !m.destroyed && m.supply.is_none_or(|s| s > 0))
    }

    /// The first mount of a weapon that can fire.
    pub fn ready_mount(&self, weapon: WeaponId) -> Option<usize> {
        (0..self.weapons.len()).find(|&i| self.weapons[i].weapon == weapon && self.can_fire(i))
    }

    /// Whether the ship has any weapon left it can fire.
    pub fn is_armed(&self) -> bool {
        (0..self.weapons.len()).any(|i| self.can_fire(i))
    }

    /// Whether a destroyed weapon system could be restored in a Repair Turn
    /// and fire again: not beyond repair in space, with supply left if it is
    /// limited, and DCR to give it (any point is a chance, since only 90-00
    /// always fails).
    pub fn has_repairable_weapon(&self) -> bool {
        self.dcr > 0
            && self
                .weapons
                .iter()
                .any(|m| m.destroyed && !m.beyond_repair && m.supply.is_none_or(|s| s > 0))
    }

    /// Whether its class dodges evadable weapons.
    pub fn is_evasive(&self, rules: &Rules) -> bool {
        rules.class(self.class).evasive
    }

    /// Whether the ship has lost ADF and MR alike and drifts.
    pub fn is_drifting(&self) -> bool {
        self.adf == 0 && self.mr == 0
    }
}

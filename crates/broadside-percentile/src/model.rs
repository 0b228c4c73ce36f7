//! The validated rules of the Advanced Game: weapons, defences, tables and ship classes.
//!
//! These are what the rules code reads; the raw file types that produce them
//! live in `data.rs`. Ids are small indices so that ship state stays `Copy`
//! and hashable.

use broadside_core::DiceExpr;

/// Index of a weapon in [`Rules::weapons`].
pub type WeaponId = u8;
/// Index of a ship class in [`Rules::ships`].
pub type ClassId = u8;

/// A weapon's statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weapon {
    /// Kebab-case id (`laser-cannon`).
    pub id: String,
    /// Printed name.
    pub name: String,
    /// The name used in the Damage Table's weapon-hit lists.
    pub abbreviation: String,
    /// FF: fires only ahead, and gains the head-on bonus.
    pub forward_firing: bool,
    /// RD: loses chance to hit with range.
    pub range_diffusion: bool,
    /// MPO: fires only in its owner's combat phase.
    pub moving_player_only: bool,
    /// LTD: a limited supply, spent on firing.
    pub limited_supply: bool,
    /// Placed rather than fired: mines and seekers, which attack in their hex.
    pub placed: bool,
    /// A placed weapon that, once activated, flies at the nearest ship.
    pub seeker: bool,
    /// Masking screens halve it, fired into or out of one.
    pub laser: bool,
    /// Evasive small craft subtract from its chance to hit.
    pub evadable: bool,
    /// RA in hexes (0 for placed weapons).
    pub range: u32,
    /// Damage Table Modifier.
    pub dtm: i32,
    /// Hull Damage Rating.
    pub hull_damage: DiceExpr,
    /// Per-ICM modifier from the Combat Table, when ICMs can stop it.
    pub per_icm: Option<i32>,
    /// Combat Table cells, indexed by [`Column`].
    pub cells: [Cell; Column::ALL.len()],
}

/// A Combat Table cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The Advanced Game percentage.
    pub advanced: i32,
    /// The shaded percentage, the base for a gunner with skill.
    pub skilled: i32,
    /// Printed with `*`: hull damage halved, rounded up.
    pub half_damage: bool,
}

/// A Combat Table column: no defence, or a defence used against the attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Column {
    /// No defence at all.
    None,
    /// Reflective hull.
    ReflectiveHull,
    /// Proton screen.
    ProtonScreen,
    /// Electron screen.
    ElectronScreen,
    /// Stasis screen.
    StasisScreen,
    /// Masking screen.
    MaskingScreen,
}

impl Column {
    /// Every column in table order.
    pub const ALL: [Column; 6] = [
        Column::None,
        Column::ReflectiveHull,
        Column::ProtonScreen,
        Column::ElectronScreen,
        Column::StasisScreen,
        Column::MaskingScreen,
    ];

    /// The column's id in the data.
    pub const fn id(self) -> &'static str {
        match self {
            Column::None => "none",
            Column::ReflectiveHull => "reflective-hull",
            Column::ProtonScreen => "proton-screen",
            Column::ElectronScreen => "electron-screen",
            Column::StasisScreen => "stasis-screen",
            Column::MaskingScreen => "masking-screen",
        }
    }

    /// Index into [`Weapon::cells`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Defences the rules treat differently, one each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Defence {
    /// Always in use; never destroyed.
    #[default]
    ReflectiveHull,
    /// Released as a cloud from a limited supply.
    MaskingScreen,
    /// A screen, at most one active.
    ProtonScreen,
    /// A screen, at most one active.
    ElectronScreen,
    /// A screen, at most one active.
    StasisScreen,
    /// Interceptor missiles, a limited supply.
    Icm,
}

impl Defence {
    /// Every defence.
    pub const ALL: [Defence; 6] = [
        Defence::ReflectiveHull,
        Defence::MaskingScreen,
        Defence::ProtonScreen,
        Defence::ElectronScreen,
        Defence::StasisScreen,
        Defence::Icm,
    ];

    /// Its id in the data and on the command line.
    pub const fn id(self) -> &'static str {
        match self {
            Defence::ReflectiveHull => "reflective-hull",
            Defence::MaskingScreen => "masking-screen",
            Defence::ProtonScreen => "proton-screen",
            Defence::ElectronScreen => "electron-screen",
            Defence::StasisScreen => "stasis-screen",
            Defence::Icm => "icm",
        }
    }

    /// The defence with this id.
    pub fn from_id(id: &str) -> Option<Defence> {
        Defence::ALL.into_iter().find(|d| d.id() == id)
    }

    /// Whether it is one of the three screens of which one may be active.
    pub const fn is_screen(self) -> bool {
        matches!(
            self,
            Defence::ProtonScreen | Defence::ElectronScreen | Defence::StasisScreen
        )
    }

    /// Whether it needs ship's power: a short circuit stops it.
    pub const fn is_powered(self) -> bool {
        matches!(
            self,
            Defence::ProtonScreen | Defence::ElectronScreen | Defence::StasisScreen | Defence::Icm
        )
    }

    /// The Combat Table column it is attacked through, if any (ICMs are a
    /// modifier, not a column).
    pub const fn column(self) -> Option<Column> {
        match self {
            Defence::ReflectiveHull => Some(Column::ReflectiveHull),
            Defence::MaskingScreen => Some(Column::MaskingScreen),
            Defence::ProtonScreen => Some(Column::ProtonScreen),
            Defence::ElectronScreen => Some(Column::ElectronScreen),
            Defence::StasisScreen => Some(Column::StasisScreen),
            Defence::Icm => None,
        }
    }
}

/// A defence's printed name and Damage Table abbreviation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefenceInfo {
    /// Which defence.
    pub defence: Defence,
    /// Printed name.
    pub name: String,
    /// The name used in the Damage Table's defense-hit lists (none for the
    /// reflective hull, which no hit destroys).
    pub abbreviation: Option<String>,
}

/// How much ADF or MR a drive or steering hit takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Loss {
    /// One point.
    One,
    /// Half the original, rounded up.
    Half,
    /// Everything left.
    All,
}

/// What a Damage Table row does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Hull damage: the weapon's HDR times `multiplier`.
    Hull {
        /// 2 for double damage.
        multiplier: i32,
    },
    /// ADF lost.
    Drive(Loss),
    /// MR lost.
    Steering(Loss),
    /// Destroys the first weapon listed the ship still has.
    Weapon(Vec<WeaponId>),
    /// Screens and ICMs stop working until repaired.
    PowerShortCircuit,
    /// Destroys the first defence listed the ship still has.
    Defence(Vec<Defence>),
    /// A penalty on all the ship's attacks.
    CombatControl {
        /// The to-hit modifier.
        penalty: i32,
    },
    /// Forced turns before each move.
    Navigation,
    /// A fire: another Damage Table roll every turn.
    ElectricalFire,
    /// DCR halved, rounded up.
    DamageControl,
    /// DCR halved, ADF and MR lost, combat control penalty and a fire.
    DisastrousFire {
        /// The combat-control to-hit modifier.
        penalty: i32,
    },
}

/// One row of the Damage Table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageRow {
    /// Lowest modified roll, inclusive.
    pub from: i32,
    /// Highest modified roll, inclusive.
    pub to: i32,
    /// Kebab-case id of the result.
    pub id: String,
    /// The printed text.
    pub text: String,
    /// What it does.
    pub effect: Effect,
}

/// A ship class: its statistics as printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipClass {
    /// Kebab-case id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Where its statistics come from.
    pub source: String,
    /// Hull points.
    pub hull: i32,
    /// Acceleration/deceleration factor.
    pub adf: u8,
    /// Maneuver rating.
    pub mr: u8,
    /// Damage control rating.
    pub dcr: u16,
    /// Weapon systems: each with its supply when limited.
    pub weapons: Vec<(WeaponId, Option<u16>)>,
    /// Defence systems: each with its supply when limited.
    pub defences: Vec<(Defence, Option<u16>)>,
    /// Dodges evadable weapons (fighters and assault scouts).
    pub evasive: bool,
    /// A space station: seekers are never drawn to it.
    pub station: bool,
    /// Anything else worth saying.
    pub notes: Option<String>,
}

/// Numbers of the rules that are not in a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constants {
    /// Per hex of range, for RD weapons.
    pub range_diffusion_per_hex: i32,
    /// Head-on bonus for FF weapons.
    pub head_on: i32,
    /// A to-hit roll at or under this always hits.
    pub always_hit_at_most: u32,
    /// A to-hit roll at or over this always misses.
    pub always_miss_at_least: u32,
    /// Per MR point of an evasive target, against evadable weapons.
    pub evasion_per_mr: i32,
    /// An electrical fire's Damage Table modifier.
    pub fire_damage_modifier: i32,
    /// A fire's hull damage.
    pub fire_hull_damage: DiceExpr,
    /// A repair roll at or over this fails.
    pub repair_always_fails_at_least: u32,
    /// A repair roll at or over this makes the system unrepairable in space.
    pub repair_impossible_at_least: u32,
    /// Hull points restored by a successful hull repair.
    pub hull_repair: DiceExpr,
    /// A Repair Turn follows every this many game turns.
    pub repair_turn_every: u32,
    /// House rule, off by default: a weapon or defense hit whose first listed
    /// system the ship carries is already destroyed passes on down the list,
    /// instead of being the hull hit the rules make it.
    pub skip_destroyed_systems: bool,
    /// House rule, off by default: with ICMs launched, an attracting screen's
    /// column is still used, instead of the reflective hull or masking screen
    /// column the ICM rule names.
    pub attracting_screen_against_icms: bool,
}

/// The whole validated ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Weapons, by [`WeaponId`].
    pub weapons: Vec<Weapon>,
    /// Defences' names and abbreviations.
    pub defences: Vec<DefenceInfo>,
    /// Damage Table rows, in roll order.
    pub damage_table: Vec<DamageRow>,
    /// Ship classes, by [`ClassId`].
    pub ships: Vec<ShipClass>,
    /// Other numbers.
    pub constants: Constants,
}

broadside_data::lookups!(Rules {
    weapons[WeaponId] -> Weapon: weapon_id, weapon;
    ships[ClassId] -> ShipClass: class_id, class;
});

impl Rules {
    /// A defence's printed name and abbreviation.
    pub fn defence_info(&self, defence: Defence) -> &DefenceInfo {
        // Validation guarantees every defence is present, in `Defence::ALL` order.
        &self.defences[defence as usize]
    }

    /// The Damage Table row for a modified roll. Validation guarantees the
    /// table covers every roll the rules can make; a roll outside it reads the
    /// nearest end, which the table's open-ended first and last rows intend.
    pub fn damage_row(&self, roll: i32) -> &DamageRow {
        let index = self.damage_table.partition_point(|row| row.to < roll);
        &self.damage_table[index.min(self.damage_table.len() - 1)]
    }
}

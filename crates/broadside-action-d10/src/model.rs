//! The validated rules: weapons, ship classes, sub-tables, repairs, the swarm table and constants.
//!
//! These are what the rules code reads; the raw file types that produce them
//! live in `data.rs`. Ids are small indices and enums, so that ship state
//! stays small, `Clone` without allocation, and hashable.

use std::fmt;

use broadside_core::{DiceExpr, Die};

/// Index of a weapon in [`Rules::weapons`].
pub type WeaponId = u8;
/// Index of a ship class in [`Rules::ships`].
pub type ClassId = u8;

/// One box of a structure track: blank, or one of the seven letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Letter {
    /// A blank box: marking it does nothing more.
    Blank,
    /// C: cargo containment.
    Containment,
    /// R: reaction mass.
    Remass,
    /// M: the magazine.
    Magazine,
    /// S: the scanners.
    System,
    /// H: the hangar.
    Hangar,
    /// U: surface features (UDST).
    Udst,
    /// A: an action.
    Action,
}

impl Letter {
    /// Every box kind, blank first, in the order of [`Letter::index`].
    pub const ALL: [Letter; 8] = [
        Letter::Blank,
        Letter::Containment,
        Letter::Remass,
        Letter::Magazine,
        Letter::System,
        Letter::Hangar,
        Letter::Udst,
        Letter::Action,
    ];

    /// The character a structure track writes for the box.
    pub const fn symbol(self) -> char {
        match self {
            Letter::Blank => '.',
            Letter::Containment => 'C',
            Letter::Remass => 'R',
            Letter::Magazine => 'M',
            Letter::System => 'S',
            Letter::Hangar => 'H',
            Letter::Udst => 'U',
            Letter::Action => 'A',
        }
    }

    /// How reports show a marked box: the letter, or `-` for a blank.
    pub const fn mark(self) -> &'static str {
        match self {
            Letter::Blank => "-",
            Letter::Containment => "C",
            Letter::Remass => "R",
            Letter::Magazine => "M",
            Letter::System => "S",
            Letter::Hangar => "H",
            Letter::Udst => "U",
            Letter::Action => "A",
        }
    }

    /// The box a track character stands for.
    pub fn from_symbol(c: char) -> Option<Letter> {
        Letter::ALL.into_iter().find(|l| l.symbol() == c)
    }

    /// Index into per-letter arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The box's name in the rules.
    pub const fn name(self) -> &'static str {
        match self {
            Letter::Blank => "blank",
            Letter::Containment => "Containment",
            Letter::Remass => "Remass",
            Letter::Magazine => "Magazine",
            Letter::System => "System",
            Letter::Hangar => "Hangar",
            Letter::Udst => "UDST",
            Letter::Action => "Action",
        }
    }
}

/// How a weapon attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponKind {
    /// 1d10 per weapon at or under the to-hit number, resolved at once.
    Direct,
    /// A salvo counter placed in the target's destination hex.
    Projectile,
    /// A salvo counter that ignores the target-thrusting modifier.
    Seeker,
    /// One roll on the Swarmer/Rocket Pack Hits table.
    Swarm,
}

impl WeaponKind {
    /// Its id in the data.
    pub const fn id(self) -> &'static str {
        match self {
            WeaponKind::Direct => "direct",
            WeaponKind::Projectile => "projectile",
            WeaponKind::Seeker => "seeker",
            WeaponKind::Swarm => "swarm",
        }
    }

    /// Whether the weapon places a salvo counter rather than firing at once.
    pub const fn is_salvo(self) -> bool {
        matches!(self, WeaponKind::Projectile | WeaponKind::Seeker)
    }
}

/// Where a weapon is mounted, which decides its arc and which damage
/// result destroys it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mount {
    /// Fires all round; a Turret Weapon result destroys it.
    Turret,
    /// Fires into the forward arc; a Fixed Weapon result destroys it.
    Fixed,
    /// Fires into the forward arc; a Spinal Mount result destroys it.
    Spinal,
}

impl Mount {
    /// Its id in the data.
    pub const fn id(self) -> &'static str {
        match self {
            Mount::Turret => "turret",
            Mount::Fixed => "fixed",
            Mount::Spinal => "spinal",
        }
    }

    /// The damageable system this mount counts as.
    pub const fn system(self) -> System {
        match self {
            Mount::Turret => System::TurretWeapon,
            Mount::Fixed => System::FixedWeapon,
            Mount::Spinal => System::SpinalMount,
        }
    }
}

/// One range bracket of a weapon table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bracket {
    /// Shortest range, in hexes.
    pub from: u32,
    /// Longest range, in hexes.
    pub to: u32,
    /// The to-hit number, or for a swarm weapon the row modifier.
    pub value: i32,
}

/// Structure boxes a hit marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Damage {
    /// Always this many.
    Fixed(u32),
    /// Rolled.
    Dice(DiceExpr),
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Fixed(n) => write!(f, "{n}"),
            Damage::Dice(d) => write!(f, "{d}"),
        }
    }
}

/// A weapon's statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weapon {
    /// Kebab-case id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// How it attacks.
    pub kind: WeaponKind,
    /// Where it is mounted.
    pub mount: Mount,
    /// Range brackets, contiguous from range 0.
    pub brackets: Vec<Bracket>,
    /// Boxes per hit.
    pub damage: Damage,
    /// Fires in the Point Defense Fire phase.
    pub point_defense: bool,
    /// A dedicated antimissile weapon: no warhead modifier.
    pub antimissile: bool,
    /// Needs a Charge Weapon action before each shot.
    pub charge: bool,
    /// Warheads one salvo takes from the magazine.
    pub warheads: u16,
    /// Rockets in one swarm of a ship's swarm weapon.
    pub swarm_size: u32,
    /// Swarms a mount carries, when limited.
    pub shots: Option<u8>,
    /// Carried by small craft flights only.
    pub small_craft: bool,
    /// Where the numbers come from.
    pub source: String,
}

impl Weapon {
    /// The bracket covering a range, or `None` beyond the weapon's reach.
    pub fn bracket(&self, range: u32) -> Option<&Bracket> {
        self.brackets
            .iter()
            .find(|b| b.from <= range && range <= b.to)
    }

    /// The longest range the weapon reaches.
    pub fn max_range(&self) -> u32 {
        self.brackets.last().map_or(0, |b| b.to)
    }
}

/// Every damageable system a table result can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum System {
    /// A turret-mounted weapon.
    TurretWeapon,
    /// A fixed (forward-firing) weapon.
    FixedWeapon,
    /// The spinal mount weapon.
    SpinalMount,
    /// Sensors: the fire control sensor's eyes.
    Sensors,
    /// Maneuvering jets: needed to change facing.
    ManeuveringJets,
    /// A solar panel.
    SolarPanel,
    /// A shield emitter.
    ShieldEmitter,
    /// A hyperdrive impeller.
    HyperdriveImpeller,
    /// A transporter.
    Transporter,
    /// A thruster.
    Thruster,
    /// A crew deck.
    CrewDeck,
    /// A troop unit.
    Troops,
    /// Fire control.
    FireControl,
    /// The flag bridge.
    FlagBridge,
    /// The power plant.
    PowerPlant,
    /// The hyperdrive.
    Hyperdrive,
    /// The shield generator.
    ShieldGenerator,
    /// The hangar door.
    HangarDoor,
    /// A small craft bay.
    SmallCraftBay,
    /// The catapult.
    Catapult,
    /// The long range scanner.
    LongRangeScanner,
    /// The short range scanner.
    ShortRangeScanner,
}

impl System {
    /// How many kinds of system there are.
    pub const COUNT: usize = 22;

    /// Every system, in index order.
    pub const ALL: [System; System::COUNT] = [
        System::TurretWeapon,
        System::FixedWeapon,
        System::SpinalMount,
        System::Sensors,
        System::ManeuveringJets,
        System::SolarPanel,
        System::ShieldEmitter,
        System::HyperdriveImpeller,
        System::Transporter,
        System::Thruster,
        System::CrewDeck,
        System::Troops,
        System::FireControl,
        System::FlagBridge,
        System::PowerPlant,
        System::Hyperdrive,
        System::ShieldGenerator,
        System::HangarDoor,
        System::SmallCraftBay,
        System::Catapult,
        System::LongRangeScanner,
        System::ShortRangeScanner,
    ];

    /// Its id in the data.
    pub const fn id(self) -> &'static str {
        match self {
            System::TurretWeapon => "turret-weapon",
            System::FixedWeapon => "fixed-weapon",
            System::SpinalMount => "spinal-mount",
            System::Sensors => "sensors",
            System::ManeuveringJets => "maneuvering-jets",
            System::SolarPanel => "solar-panel",
            System::ShieldEmitter => "shield-emitter",
            System::HyperdriveImpeller => "hyperdrive-impeller",
            System::Transporter => "transporter",
            System::Thruster => "thruster",
            System::CrewDeck => "crew-deck",
            System::Troops => "troops",
            System::FireControl => "fire-control",
            System::FlagBridge => "flag-bridge",
            System::PowerPlant => "power-plant",
            System::Hyperdrive => "hyperdrive",
            System::ShieldGenerator => "shield-generator",
            System::HangarDoor => "hangar-door",
            System::SmallCraftBay => "small-craft-bay",
            System::Catapult => "catapult",
            System::LongRangeScanner => "long-range-scanner",
            System::ShortRangeScanner => "short-range-scanner",
        }
    }

    /// Its name as the tables print it.
    pub const fn name(self) -> &'static str {
        match self {
            System::TurretWeapon => "Turret Weapon",
            System::FixedWeapon => "Fixed Weapon",
            System::SpinalMount => "Spinal Mount",
            System::Sensors => "Sensors",
            System::ManeuveringJets => "Maneuvering Jets",
            System::SolarPanel => "Solar Panel",
            System::ShieldEmitter => "Shield Emitter",
            System::HyperdriveImpeller => "Hyperdrive Impeller",
            System::Transporter => "Transporter",
            System::Thruster => "Thruster",
            System::CrewDeck => "Crew Deck",
            System::Troops => "Troops",
            System::FireControl => "Fire Control",
            System::FlagBridge => "Flag Bridge",
            System::PowerPlant => "Power Plant",
            System::Hyperdrive => "Hyperdrive",
            System::ShieldGenerator => "Shield Generator",
            System::HangarDoor => "Hangar Door",
            System::SmallCraftBay => "Small Craft Bay",
            System::Catapult => "Catapult",
            System::LongRangeScanner => "Long Range Scanner",
            System::ShortRangeScanner => "Short Range Scanner",
        }
    }

    /// The system with this id.
    pub fn from_id(id: &str) -> Option<System> {
        System::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Index into per-system arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The weapon mount this system stands for, if it is a weapon.
    pub const fn mount(self) -> Option<Mount> {
        match self {
            System::TurretWeapon => Some(Mount::Turret),
            System::FixedWeapon => Some(Mount::Fixed),
            System::SpinalMount => Some(Mount::Spinal),
            _ => None,
        }
    }

    /// The scanner this system stands for, if it is one.
    pub const fn scanner(self) -> Option<Scanner> {
        match self {
            System::LongRangeScanner => Some(Scanner::LongRange),
            System::ShortRangeScanner => Some(Scanner::ShortRange),
            _ => None,
        }
    }
}

/// One of a ship's two scanners.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scanner {
    /// Needed to roll for a lock beyond the automatic range.
    LongRange,
    /// Needed for an automatic lock.
    ShortRange,
}

impl Scanner {
    /// Both scanners, in the order an S box reaches them.
    pub const ALL: [Scanner; 2] = [Scanner::LongRange, Scanner::ShortRange];

    /// Index into per-scanner arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The system it is.
    pub const fn system(self) -> System {
        match self {
            Scanner::LongRange => System::LongRangeScanner,
            Scanner::ShortRange => System::ShortRangeScanner,
        }
    }

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            Scanner::LongRange => "long range scanner",
            Scanner::ShortRange => "short range scanner",
        }
    }
}

/// The four damage sub-tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableId {
    /// Rolled for an H box.
    Hangar,
    /// The Surface Features table's fall-back.
    InternalDamage,
    /// Rolled for a U box.
    SurfaceFeatures,
    /// Rolled when more than one A is lost in one attack.
    CoreHit,
}

impl TableId {
    /// Every sub-table.
    pub const ALL: [TableId; 4] = [
        TableId::Hangar,
        TableId::InternalDamage,
        TableId::SurfaceFeatures,
        TableId::CoreHit,
    ];

    /// Its id in the data and on the command line.
    pub const fn id(self) -> &'static str {
        match self {
            TableId::Hangar => "hangar",
            TableId::InternalDamage => "internal-damage",
            TableId::SurfaceFeatures => "surface-features",
            TableId::CoreHit => "core-hit",
        }
    }

    /// The table with this id.
    pub fn from_id(id: &str) -> Option<TableId> {
        TableId::ALL.into_iter().find(|t| t.id() == id)
    }

    /// Index into [`Rules::tables`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// What a sub-table result does when the ship lacks the system or has lost it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fallback {
    /// Nothing more happens.
    None,
    /// Roll again on the same table.
    RollAgain,
    /// Roll on another table.
    Table(TableId),
}

/// One row of a sub-table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubRow {
    /// The system hit.
    pub result: System,
    /// How many are hit, when the row rolls for it ("1d6 Small Craft Bays").
    pub count: Option<DiceExpr>,
}

/// A damage sub-table: rows for rolls 1 to `rows.len()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubTable {
    /// Which table.
    pub id: TableId,
    /// Printed name.
    pub name: String,
    /// The die rolled.
    pub die: Die,
    /// Row `i` is read on a (modified) roll of `i + 1`.
    pub rows: Vec<SubRow>,
    /// What a result the ship cannot take does.
    pub fallback: Fallback,
    /// Where it comes from.
    pub source: String,
}

impl SubTable {
    /// The row for a (modified) roll; rolls past the last row read the last.
    pub fn row(&self, roll: i32) -> &SubRow {
        let i = usize::try_from(roll.max(1) - 1).unwrap_or(0);
        &self.rows[i.min(self.rows.len() - 1)]
    }
}

/// A repair's difficulty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difficulty {
    /// 7 or less.
    Easy,
    /// 5 or less.
    Average,
    /// 4 or less.
    Hard,
    /// 2 or less.
    VeryHard,
}

impl Difficulty {
    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Average,
        Difficulty::Hard,
        Difficulty::VeryHard,
    ];

    /// Its id in the data.
    pub const fn id(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Average => "average",
            Difficulty::Hard => "hard",
            Difficulty::VeryHard => "very-hard",
        }
    }

    /// Its printed name.
    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "Easy",
            Difficulty::Average => "Average",
            Difficulty::Hard => "Hard",
            Difficulty::VeryHard => "Very Hard",
        }
    }

    /// The difficulty with this id.
    pub fn from_id(id: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.id() == id)
    }

    /// Index into per-difficulty arrays.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The Repairs table and which repair has which difficulty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repairs {
    /// The die rolled.
    pub die: Die,
    /// The number to roll at or under, per [`Difficulty`].
    pub targets: [i32; 4],
    /// Clearing a magazine jam.
    pub jam: Option<Difficulty>,
    /// Bringing a disabled scanner back.
    pub disabled_scanner: Option<Difficulty>,
    /// Rebuilding a destroyed scanner.
    pub destroyed_scanner: Option<Difficulty>,
    /// Rebuilding one destroyed system, per [`System`]; `None` cannot be repaired.
    pub systems: [Option<Difficulty>; System::COUNT],
    /// Where the numbers come from.
    pub source: String,
}

/// One row of the Swarmer/Rocket Pack Hits table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwarmRow {
    /// Lowest roll, `i32::MIN` for an open-ended first row.
    pub from: i32,
    /// Highest roll, `i32::MAX` for an open-ended last row.
    pub to: i32,
    /// The row's label as printed (`0-`, `7`, `12+`).
    pub label: String,
    /// Hits, one per column.
    pub hits: Vec<u32>,
}

/// The Swarmer/Rocket Pack Hits table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwarmTable {
    /// Swarm sizes heading the columns, ascending.
    pub columns: Vec<u32>,
    /// Rows in roll order, covering every roll.
    pub rows: Vec<SwarmRow>,
    /// Where it comes from.
    pub source: String,
}

impl SwarmTable {
    /// The column read for a swarm of `size`: the largest heading not above
    /// it, or the first column for a swarm smaller than every heading.
    pub fn column(&self, size: u32) -> usize {
        self.columns.iter().rposition(|&c| c <= size).unwrap_or(0)
    }

    /// The row for a modified roll.
    pub fn row(&self, roll: i32) -> &SwarmRow {
        let i = self.rows.partition_point(|r| r.to < roll);
        &self.rows[i.min(self.rows.len() - 1)]
    }
}

/// A ship's drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Drive {
    /// Spends remass; easier to lock while thrusting.
    Reaction,
    /// Needs no remass.
    Reactionless,
}

impl Drive {
    /// Its id in the data.
    pub const fn id(self) -> &'static str {
        match self {
            Drive::Reaction => "reaction",
            Drive::Reactionless => "reactionless",
        }
    }
}

/// One weapon mount of a class: a single weapon or a bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MountEntry {
    /// The weapon.
    pub weapon: WeaponId,
    /// Weapons in the bank: d10s rolled by one attack action.
    pub bank: u8,
}

/// A carrier's small craft.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SmallCraft {
    /// Craft carried.
    pub count: u8,
    /// Their weapon (a swarm weapon).
    pub weapon: WeaponId,
    /// Hexes a flight moves in one Actions phase.
    pub speed: u32,
}

/// A ship class: its statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipClass {
    /// Kebab-case id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Where its statistics come from.
    pub source: String,
    /// Anything else worth saying.
    pub notes: Option<String>,
    /// Target size modifier.
    pub size: i32,
    /// The structure track, marked from the first box.
    pub track: Vec<Letter>,
    /// Boxes of each letter on the track, by [`Letter::index`].
    pub letters: [u8; 8],
    /// Command Points each turn.
    pub command_points: u8,
    /// Fire control sensor rating.
    pub fcs: u8,
    /// Stealth rating.
    pub stealth: i32,
    /// Drive type.
    pub drive: Drive,
    /// Thrust per intact thruster.
    pub thrust_per_thruster: u8,
    /// Remass burns.
    pub remass: u16,
    /// Cargo points.
    pub cargo: u16,
    /// Warheads in the magazine.
    pub warheads: u16,
    /// Shield points per intact emitter.
    pub shield_per_emitter: u8,
    /// How many of each system, by [`System::index`] (weapons counted
    /// from the mounts, troops from the troop units).
    pub systems: [u8; System::COUNT],
    /// Weapon mounts.
    pub weapons: Vec<MountEntry>,
    /// Small craft in the hangar.
    pub small_craft: Option<SmallCraft>,
    /// Rider classes on the docking clamps.
    pub riders: Vec<ClassId>,
    /// Chaff pods.
    pub chaff_pods: u8,
    /// Antimatter spreads.
    pub antimatter_spreads: u8,
}

impl ShipClass {
    /// Actions per turn when undamaged: the A boxes of the track.
    pub fn actions(&self) -> u8 {
        self.letters[Letter::Action.index()]
    }

    /// How many of a system the class has.
    pub fn has(&self, system: System) -> u8 {
        self.systems[system.index()]
    }
}

/// Numbers of the target lock rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockRules {
    /// The die rolled.
    pub die: Die,
    /// The number to roll at or under before modifiers.
    pub target: i32,
    /// Automatic within this plus the FCS rating.
    pub automatic_base: u32,
    /// Range step for the range modifier.
    pub range_step: u32,
    /// Modifier per full range step.
    pub per_range_step: i32,
    /// Target thrusting with a reaction drive.
    pub reaction_drive: i32,
    /// More than one enemy in the target's hex.
    pub multiple_enemies: i32,
    /// Per other ship thrusting reactionlessly in the target's hex.
    pub nearby_reactionless_same_hex: i32,
    /// Per other ship thrusting with a reaction drive in the target's hex.
    pub nearby_reaction_same_hex: i32,
    /// Per other ship thrusting with a reaction drive next to the target.
    pub nearby_reaction_adjacent: i32,
    /// Target dropped chaff this turn.
    pub chaff: i32,
    /// Option, off by default: an automatic lock needs a working short
    /// range scanner and a rolled lock a working long range scanner.
    pub needs_scanners: bool,
}

/// Numbers of the to-hit rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToHitRules {
    /// A natural roll of this always misses.
    pub natural_miss: u32,
    /// Per hex of the target's displacement.
    pub thrusting_per_hex: i32,
    /// Firing at a warhead.
    pub warhead: i32,
    /// After an Aim action.
    pub aim: i32,
    /// Seekers against a target that dropped chaff.
    pub chaff_against_seekers: i32,
    /// A small craft's size modifier.
    pub small_craft_size: i32,
}

/// Dice and numbers of the structure boxes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoxRules {
    /// C: cargo lost.
    pub containment_cargo: DiceExpr,
    /// After the last C: cargo lost per Move.
    pub containment_breach_cargo: DiceExpr,
    /// R: burns lost.
    pub remass_burns: DiceExpr,
    /// After the last R: burns lost per turn.
    pub remass_bleed: DiceExpr,
    /// M: warheads lost.
    pub magazine_warheads: DiceExpr,
    /// Added to the Surface Features roll from the aft arc.
    pub aft_surface_features: i32,
    /// A boxes lost in one attack that roll on the Core Hit table.
    pub core_hit_actions: u8,
}

/// The other numbers the rulings need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Constants {
    /// Target lock.
    pub lock: LockRules,
    /// To hit.
    pub to_hit: ToHitRules,
    /// Structure boxes.
    pub boxes: BoxRules,
    /// Most extra actions bought per turn.
    pub extra_actions: u8,
    /// Command Points per extra action.
    pub extra_action_cost: u8,
    /// Command Points per re-rolled die.
    pub reroll_cost: u8,
    /// Small craft launched per action without a catapult.
    pub launch_without_catapult: u8,
    /// Boarding: 1d10 at or under per troop unit.
    pub boarding_hit: i32,
    /// Boarding: Support Troops bonus.
    pub support_bonus: i32,
    /// Transporter reach in hexes.
    pub transporter_range: u32,
    /// Troop units per Transport action.
    pub transport_per_action: u8,
    /// Coordinate Fire Control reach in hexes.
    pub coordinate_range: u32,
    /// Antimatter spread: 1d10 at or under destroys a salvo.
    pub antimatter_kill: i32,
    /// Initiative die.
    pub initiative_die: Die,
    /// Hexes a gravity well pulls per turn.
    pub gravity_pull: u32,
    /// How far a gravity well reaches.
    pub gravity_well: u32,
    /// Repair modifier per crew deck destroyed.
    pub crew_deck_lost: i32,
}

/// The whole validated ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Weapons, by [`WeaponId`].
    pub weapons: Vec<Weapon>,
    /// Ship classes, by [`ClassId`].
    pub ships: Vec<ShipClass>,
    /// The four sub-tables, by [`TableId::index`].
    pub tables: Vec<SubTable>,
    /// Repairs.
    pub repairs: Repairs,
    /// The swarm hits table.
    pub swarm: SwarmTable,
    /// Everything else.
    pub constants: Constants,
}

broadside_data::lookups!(Rules {
    weapons[WeaponId] -> Weapon: weapon_id, weapon;
    ships[ClassId] -> ShipClass: class_id, class;
});

impl Rules {
    /// A sub-table.
    pub fn table(&self, id: TableId) -> &SubTable {
        &self.tables[id.index()]
    }
}

//! The validated rules of the crew-position system: checks, tasks, range bands, weapons, criticals and ship classes.
//!
//! These are what the rules code reads; the raw file types that produce them
//! live in `data.rs`. Ids are small indices so that ship state stays `Copy`
//! and hashable.

use broadside_core::DiceExpr;

/// Index of a skill in [`Rules::skills`].
pub type SkillId = u8;
/// Index of a weapon in [`Rules::weapons`].
pub type WeaponId = u8;
/// Index of a ship class in [`Rules::ships`].
pub type ClassId = u8;
/// Index of a mount kind in [`Rules::mount_kinds`].
pub type MountKindId = u8;

/// Critical hit locations: one per 2D result, 2 to 12.
pub const LOCATIONS: usize = 11;

/// A range band. The rules know exactly these seven, closest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Band {
    /// Up to 1 km.
    Adjacent,
    /// 1-10 km.
    Close,
    /// 11-1,250 km.
    Short,
    /// 1,251-10,000 km.
    Medium,
    /// 10,001-25,000 km.
    Long,
    /// 25,001-50,000 km.
    VeryLong,
    /// Over 50,000 km.
    Distant,
}

/// The band ids, closest first: the values of `--range-band` and `start-band`.
pub const BAND_IDS: &[&str] = &[
    "adjacent",
    "close",
    "short",
    "medium",
    "long",
    "very-long",
    "distant",
];

impl Band {
    /// Every band, closest first.
    pub const ALL: [Band; 7] = [
        Band::Adjacent,
        Band::Close,
        Band::Short,
        Band::Medium,
        Band::Long,
        Band::VeryLong,
        Band::Distant,
    ];

    /// Its id in the data and on the command line.
    pub const fn id(self) -> &'static str {
        BAND_IDS[self as usize]
    }

    /// The band with this id.
    pub fn from_id(id: &str) -> Option<Band> {
        Band::ALL.into_iter().find(|b| b.id() == id)
    }

    /// Index into [`Rules::bands`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The next band in, if any.
    pub const fn closer(self) -> Option<Band> {
        match self {
            Band::Adjacent => None,
            Band::Close => Some(Band::Adjacent),
            Band::Short => Some(Band::Close),
            Band::Medium => Some(Band::Short),
            Band::Long => Some(Band::Medium),
            Band::VeryLong => Some(Band::Long),
            Band::Distant => Some(Band::VeryLong),
        }
    }

    /// The next band out, if any.
    pub const fn farther(self) -> Option<Band> {
        match self {
            Band::Adjacent => Some(Band::Close),
            Band::Close => Some(Band::Short),
            Band::Short => Some(Band::Medium),
            Band::Medium => Some(Band::Long),
            Band::Long => Some(Band::VeryLong),
            Band::VeryLong => Some(Band::Distant),
            Band::Distant => None,
        }
    }
}

/// One range band's numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BandInfo {
    /// Which band.
    pub band: Band,
    /// Printed name.
    pub name: String,
    /// The distances it covers, as printed.
    pub distance: String,
    /// DM to direct-fire attacks at this band.
    pub attack_dm: i32,
    /// Thrust, accumulated, that moves the ships out of this band.
    pub thrust: i32,
    /// Rounds a salvo launched at this band flies before it attacks.
    pub missile_flight: u8,
}

/// The six characteristics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Characteristic {
    /// Strength.
    Str,
    /// Dexterity.
    Dex,
    /// Endurance.
    End,
    /// Intellect.
    Int,
    /// Education.
    Edu,
    /// Social standing.
    Soc,
}

impl Characteristic {
    /// All six, in the printed order.
    pub const ALL: [Characteristic; 6] = [
        Characteristic::Str,
        Characteristic::Dex,
        Characteristic::End,
        Characteristic::Int,
        Characteristic::Edu,
        Characteristic::Soc,
    ];

    /// Its id in the data (`dex`).
    pub const fn id(self) -> &'static str {
        match self {
            Characteristic::Str => "str",
            Characteristic::Dex => "dex",
            Characteristic::End => "end",
            Characteristic::Int => "int",
            Characteristic::Edu => "edu",
            Characteristic::Soc => "soc",
        }
    }

    /// Its printed abbreviation (`DEX`).
    pub const fn abbreviation(self) -> &'static str {
        match self {
            Characteristic::Str => "STR",
            Characteristic::Dex => "DEX",
            Characteristic::End => "END",
            Characteristic::Int => "INT",
            Characteristic::Edu => "EDU",
            Characteristic::Soc => "SOC",
        }
    }

    /// The characteristic with this id.
    pub fn from_id(id: &str) -> Option<Characteristic> {
        Characteristic::ALL.into_iter().find(|c| c.id() == id)
    }
}

/// Every task check the rules code makes. Each has an entry in `tasks.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Task {
    /// The Captain's Tactics (naval) check, added to initiative.
    Tactics,
    /// Inspire crew, chained into next turn's initiative.
    Inspire,
    /// Scan for the enemy (and the setting-up scan).
    Scan,
    /// Jam the enemy's sensors for next turn.
    JamSensors,
    /// Find a targeting solution, chained into one gunner's attack.
    TargetingSolution,
    /// Jam the enemy's comms for next turn.
    JamComms,
    /// Communicate with another ship or a nearby world.
    Communicate,
    /// Overcharge the engines for extra thrust.
    Overcharge,
    /// Apply thrust toward or away from the enemy.
    Maneuver,
    /// Opposed pilot checks to come alongside and board.
    Boarding,
    /// Line up a shot, chained into one gunner's attack.
    LineUpShot,
    /// Fire a direct-fire weapon.
    DirectFire,
    /// Launch a missile salvo.
    Launch,
    /// Jury-rig a damaged system.
    Repair,
    /// Activate the jump drive at an Alderson point.
    Jump,
    /// Dodge an attack (reaction).
    Dodge,
    /// Shoot down missiles (reaction).
    PointDefence,
    /// Electronic countermeasures against missiles (reaction).
    Ecm,
    /// Fire sand against a beam (reaction).
    Sand,
}

impl Task {
    /// Every task, in data order.
    pub const ALL: [Task; 19] = [
        Task::Tactics,
        Task::Inspire,
        Task::Scan,
        Task::JamSensors,
        Task::TargetingSolution,
        Task::JamComms,
        Task::Communicate,
        Task::Overcharge,
        Task::Maneuver,
        Task::Boarding,
        Task::LineUpShot,
        Task::DirectFire,
        Task::Launch,
        Task::Repair,
        Task::Jump,
        Task::Dodge,
        Task::PointDefence,
        Task::Ecm,
        Task::Sand,
    ];

    /// Its id in `tasks.toml`.
    pub const fn id(self) -> &'static str {
        match self {
            Task::Tactics => "tactics",
            Task::Inspire => "inspire",
            Task::Scan => "scan",
            Task::JamSensors => "jam-sensors",
            Task::TargetingSolution => "targeting-solution",
            Task::JamComms => "jam-comms",
            Task::Communicate => "communicate",
            Task::Overcharge => "overcharge",
            Task::Maneuver => "maneuver",
            Task::Boarding => "boarding",
            Task::LineUpShot => "line-up-shot",
            Task::DirectFire => "direct-fire",
            Task::Launch => "launch",
            Task::Repair => "repair",
            Task::Jump => "jump",
            Task::Dodge => "dodge",
            Task::PointDefence => "point-defence",
            Task::Ecm => "ecm",
            Task::Sand => "sand",
        }
    }
}

/// A group of checks that a critical hit's DM or disabling applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// Checks to control the ship.
    Pilot,
    /// Checks that use the sensors.
    Sensors,
    /// Gunnery checks.
    Gunnery,
    /// Checks that use the ship's computer.
    Computer,
    /// Engineering checks.
    Engineering,
    /// Checks to jump.
    Jump,
    /// Communications checks.
    Comms,
    /// The Captain's checks.
    Command,
}

/// A set of [`Group`]s as bits.
pub type Groups = u16;

/// Every group: a critical hit's `checks = "all"`.
pub const ALL_GROUPS: Groups = (1 << Group::ALL.len()) - 1;

impl Group {
    /// Every group.
    pub const ALL: [Group; 8] = [
        Group::Pilot,
        Group::Sensors,
        Group::Gunnery,
        Group::Computer,
        Group::Engineering,
        Group::Jump,
        Group::Comms,
        Group::Command,
    ];

    /// Its id in the data.
    pub const fn id(self) -> &'static str {
        match self {
            Group::Pilot => "pilot",
            Group::Sensors => "sensors",
            Group::Gunnery => "gunnery",
            Group::Computer => "computer",
            Group::Engineering => "engineering",
            Group::Jump => "jump",
            Group::Comms => "comms",
            Group::Command => "command",
        }
    }

    /// The group with this id.
    pub fn from_id(id: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.id() == id)
    }

    /// Its bit in a [`Groups`] set.
    pub const fn bit(self) -> Groups {
        1 << (self as u16)
    }
}

/// One task's check, as `tasks.toml` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskDef {
    /// Which task.
    pub task: Task,
    /// Printed name.
    pub name: String,
    /// The position that makes it, as printed.
    pub position: String,
    /// Skills that serve; the best level counts.
    pub skills: Vec<SkillId>,
    /// Uses the fired mount's Gunner specialty instead of `skills`.
    pub mount_skill: bool,
    /// Characteristics that serve; the best DM counts.
    pub characteristics: Vec<Characteristic>,
    /// The difficulty's name (`average`).
    pub difficulty_name: String,
    /// The target number.
    pub difficulty: i32,
    /// Thrust spent on an attempt.
    pub thrust: i32,
    /// Groups a critical hit's DM applies through.
    pub groups: Groups,
    /// Adds the ship's sensor type DM.
    pub sensors_dm: bool,
}

/// A row of a table read by an open-ended range of numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row<T> {
    /// Lowest number of the row, or `None` for no lower bound.
    pub from: Option<i32>,
    /// Highest number of the row, or `None` for no upper bound.
    pub to: Option<i32>,
    /// What the row gives.
    pub value: T,
}

impl<T> Row<T> {
    /// Whether `n` falls in the row.
    pub fn holds(&self, n: i32) -> bool {
        self.from.is_none_or(|f| n >= f) && self.to.is_none_or(|t| n <= t)
    }

    /// The row's label as tables print it: `7`, `1-2`, `4-` (and below), `13+`.
    pub fn label(&self) -> String {
        match (self.from, self.to) {
            (Some(f), Some(t)) if f == t => f.to_string(),
            (Some(f), Some(t)) => format!("{f}-{t}"),
            (None, Some(t)) => format!("{t}-"),
            (Some(f), None) => format!("{f}+"),
            (None, None) => "any".to_owned(),
        }
    }
}

/// A validated row table: rows in order, without gap or overlap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowTable<T> {
    /// The rows, lowest first.
    pub rows: Vec<Row<T>>,
}

impl<T: Copy> RowTable<T> {
    /// The row that holds `n`. Validation guarantees one does for every
    /// number the table is read with; a number outside reads the nearest end.
    pub fn row(&self, n: i32) -> &Row<T> {
        self.rows
            .iter()
            .find(|r| r.holds(n))
            .unwrap_or_else(|| match self.rows.first() {
                Some(first) if first.from.is_some_and(|f| n < f) => first,
                _ => &self.rows[self.rows.len() - 1],
            })
    }

    /// The value for `n`.
    pub fn value(&self, n: i32) -> T {
        self.row(n).value
    }
}

/// How a chained Effect becomes a DM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainMode {
    /// Through the task-chain DM table.
    Table,
    /// The Effect itself.
    Effect,
}

/// What a weapon is used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponKind {
    /// Fired at a target, resolved at once.
    Direct,
    /// Launched in salvos that fly by range band.
    Missile,
    /// Used only as the Fire Sand reaction.
    Sandcaster,
}

/// A weapon's statistics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weapon {
    /// Kebab-case id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Its tech level (a missile's counts for the TL difference DM).
    pub tl: i32,
    /// What it is used for.
    pub kind: WeaponKind,
    /// The farthest band it attacks at.
    pub range: Band,
    /// Damage dice (none for a sandcaster).
    pub damage: Option<DiceExpr>,
    /// DM to its attacks.
    pub attack_dm: i32,
    /// May shoot down missiles.
    pub point_defence: bool,
    /// Loses damage to sand.
    pub sand_stops: bool,
    /// Armour piercing: armour counts this much less.
    pub ap: i32,
    /// Smart missiles: the TL difference DM.
    pub smart: bool,
    /// Load one mount carrying the weapon holds (missiles, sand canisters),
    /// however many of it share the mount; 0 for unlimited.
    pub magazine: u16,
    /// Where its statistics come from.
    pub source: String,
}

/// A kind of mount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MountKind {
    /// Kebab-case id.
    pub id: String,
    /// The most weapons one mount holds.
    pub capacity: u8,
    /// Multiplies a direct-fire hit's damage.
    pub multiplier: i32,
    /// The Gunner specialty used with it.
    pub skill: SkillId,
    /// Fired by the Pilot (fixed mounts) rather than a Gunner.
    pub pilot: bool,
}

/// Numbers for several identical weapons in one mount, by count - 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identical {
    /// Attack DM.
    pub attack_dm: [i32; 3],
    /// Point defence DM.
    pub point_defence_dm: [i32; 3],
    /// Damage added per damage die.
    pub damage_per_die: [i32; 3],
}

impl Identical {
    fn at(values: &[i32; 3], count: u8) -> i32 {
        values[usize::from(count.clamp(1, 3)) - 1]
    }

    /// Attack DM of `count` identical weapons.
    pub fn attack(&self, count: u8) -> i32 {
        Identical::at(&self.attack_dm, count)
    }

    /// Point defence DM of `count` identical weapons.
    pub fn point_defence(&self, count: u8) -> i32 {
        Identical::at(&self.point_defence_dm, count)
    }

    /// Damage per die of `count` identical weapons.
    pub fn damage_per_die(&self, count: u8) -> i32 {
        Identical::at(&self.damage_per_die, count)
    }
}

/// What a weapon critical does to the weapon it lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WeaponHarm {
    /// Its attacks suffer a Bane (3D, the lowest two count).
    Bane,
    /// It cannot be used until repaired.
    Disabled,
    /// It is gone.
    Destroyed,
}

/// A fixed number or dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Amount {
    /// A fixed number.
    Fixed(i32),
    /// Rolled.
    Dice(DiceExpr),
}

impl std::fmt::Display for Amount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Amount::Fixed(n) => write!(f, "{n}"),
            Amount::Dice(d) => write!(f, "{d}"),
        }
    }
}

/// The standing effects of critical hits on a ship: what applies while the
/// damage lasts. Adding two gives their combination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Standing {
    /// DM per [`Group`], by `Group as usize`.
    pub dm: [i8; 8],
    /// Thrust lost.
    pub thrust_loss: i8,
    /// Thrust reduced to 0.
    pub thrust_zero: bool,
    /// The farthest band the ship can attack, scan or target at.
    pub max_band: Band,
    /// Groups of checks that cannot be attempted.
    pub disables: Groups,
    /// The ship cannot jump.
    pub no_jump: bool,
}

impl Default for Standing {
    fn default() -> Standing {
        Standing {
            dm: [0; 8],
            thrust_loss: 0,
            thrust_zero: false,
            max_band: Band::Distant,
            disables: 0,
            no_jump: false,
        }
    }
}

impl Standing {
    /// Both sets of effects together.
    #[inline]
    pub fn combine(mut self, other: &Standing) -> Standing {
        for (mine, theirs) in self.dm.iter_mut().zip(other.dm) {
            *mine = mine.saturating_add(theirs);
        }
        self.thrust_loss = self.thrust_loss.saturating_add(other.thrust_loss);
        self.thrust_zero |= other.thrust_zero;
        self.max_band = self.max_band.min(other.max_band);
        self.disables |= other.disables;
        self.no_jump |= other.no_jump;
        self
    }

    /// The DM on a check of these groups: each group's DM once.
    pub fn dm_for(&self, groups: Groups) -> i32 {
        // The groups' bits, lowest first: a check names one or two groups,
        // so this visits one or two entries, not every group.
        let mut bits = groups & ALL_GROUPS;
        let mut sum = 0;
        while bits != 0 {
            sum += i32::from(self.dm[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        sum
    }

    /// Whether a check of these groups is disabled.
    pub fn disabled(&self, groups: Groups) -> bool {
        self.disables & groups != 0
    }
}

/// One severity's row of a location's critical hit effects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeverityRow {
    /// The printed effect.
    pub text: String,
    /// The standing effects this row adds.
    pub standing: Standing,
    /// Hull damage dice, once.
    pub hull_damage: Option<DiceExpr>,
    /// Armour lost, once.
    pub armour_loss: Option<Amount>,
    /// Raises the Hull location's severity this many times, once.
    pub hull_severity: u8,
    /// What happens to a random weapon, once.
    pub weapon: Option<WeaponHarm>,
    /// Whether Repair Systems can jury-rig the location at this severity.
    pub repairable: bool,
}

/// A critical hit location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// Kebab-case id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Its 2D roll.
    pub roll: u8,
    /// The Engineer specialty that repairs it besides Mechanic.
    pub repair_skill: Option<SkillId>,
    /// Rows for severities 1 to 6.
    pub rows: Vec<SeverityRow>,
    /// Standing effects at each severity 0 to 6: rows 1 to that severity
    /// combined.
    pub cumulative: Vec<Standing>,
}

/// The critical hit rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Criticals {
    /// Attack Effect from which a damaging hit is critical.
    pub effect: i32,
    /// Severity is damage divided by this, rounded up.
    pub damage_per_severity: i32,
    /// The highest severity.
    pub max_severity: u8,
    /// Each this many percent of starting hull lost is a severity 1 hit.
    pub sustained_percent: i32,
    /// Repair DM per point of severity.
    pub repair_dm_per_severity: i32,
    /// Locations by 2D roll: index `roll - 2`.
    pub locations: Vec<Location>,
    /// Index of the Hull location.
    pub hull: usize,
    /// Index of the M-drive location (overcharging damages it).
    pub m_drive: usize,
}

/// A crew position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Position {
    /// The Captain: Tactics for initiative, Inspire.
    Captain,
    /// The Pilot: maneuvers, dodges, fixed mounts.
    Pilot,
    /// The Sensor Operator.
    Sensors,
    /// The Comms Officer.
    Comms,
    /// The Engineer of the M-drive.
    EngineerMDrive,
    /// The Engineer of the power plant.
    EngineerPower,
    /// The Engineer of the jump drive.
    EngineerJDrive,
    /// The Gunner of a mount (index into [`ShipClass::mounts`]).
    Gunner(u8),
}

impl Position {
    /// The positions other than gunners, with their ids.
    pub const NAMED: [(Position, &'static str); 7] = [
        (Position::Captain, "captain"),
        (Position::Pilot, "pilot"),
        (Position::Sensors, "sensors"),
        (Position::Comms, "comms"),
        (Position::EngineerMDrive, "engineer-m-drive"),
        (Position::EngineerPower, "engineer-power"),
        (Position::EngineerJDrive, "engineer-j-drive"),
    ];

    /// Its bit in a set of positions: the seven named positions, then one
    /// Gunner per mount.
    pub fn bit(self) -> u16 {
        let index = match self {
            Position::Captain => 0,
            Position::Pilot => 1,
            Position::Sensors => 2,
            Position::Comms => 3,
            Position::EngineerMDrive => 4,
            Position::EngineerPower => 5,
            Position::EngineerJDrive => 6,
            Position::Gunner(m) => 7 + u32::from(m),
        };
        1u16.checked_shl(index).unwrap_or(0)
    }

    /// Whether it is one of the Engineer positions.
    pub const fn is_engineer(self) -> bool {
        matches!(
            self,
            Position::EngineerMDrive | Position::EngineerPower | Position::EngineerJDrive
        )
    }
}

/// A crew member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrewMember {
    /// Name.
    pub name: String,
    /// Positions held.
    pub positions: Vec<Position>,
    /// Skill level by [`SkillId`]; `None` is unskilled.
    pub skills: Vec<Option<i8>>,
    /// Characteristics by `Characteristic as usize`.
    pub characteristics: [u8; 6],
}

impl CrewMember {
    /// Whether the member holds a position.
    pub fn holds(&self, position: Position) -> bool {
        self.positions.contains(&position)
    }

    /// The level of a skill, if trained.
    pub fn skill(&self, skill: SkillId) -> Option<i8> {
        self.skills.get(usize::from(skill)).copied().flatten()
    }

    /// A characteristic's value.
    pub fn characteristic(&self, c: Characteristic) -> u8 {
        self.characteristics[c as usize]
    }
}

/// A mount aboard a ship class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    /// Its id on the ship (`turret-1`).
    pub id: String,
    /// Its kind.
    pub kind: MountKindId,
    /// Weapon slots, indices into [`ShipClass::slots`].
    pub slots: Vec<u8>,
    /// The crew member who fires it (its Gunner, or the Pilot for fixed mounts).
    pub firer: Option<u8>,
}

/// One weapon aboard: the mount that holds it and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slot {
    /// Index into [`ShipClass::mounts`].
    pub mount: u8,
    /// The weapon.
    pub weapon: WeaponId,
}

/// A ship class: its statistics and crew as the data gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipClass {
    /// Kebab-case id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Where it comes from.
    pub source: String,
    /// Anything else worth saying.
    pub notes: Option<String>,
    /// Displacement tons.
    pub tons: i32,
    /// Tech level.
    pub tl: i32,
    /// Hull points.
    pub hull: i32,
    /// Armour.
    pub armour: i32,
    /// M-drive thrust.
    pub thrust: i32,
    /// Jump rating.
    pub jump: i32,
    /// Sensor type, as printed.
    pub sensors: String,
    /// Sensor type DM.
    pub sensors_dm: i32,
    /// Mounts.
    pub mounts: Vec<Mount>,
    /// Every weapon aboard.
    pub slots: Vec<Slot>,
    /// Crew.
    pub crew: Vec<CrewMember>,
    /// Magazines: each weapon with a load, and the load of the whole ship.
    pub magazines: Vec<(WeaponId, u16)>,
}

impl ShipClass {
    /// The crew member holding a position, if any.
    pub fn holder(&self, position: Position) -> Option<u8> {
        self.crew
            .iter()
            .position(|m| m.holds(position))
            .and_then(|i| u8::try_from(i).ok())
    }

    /// The magazine index of a weapon, if it has one.
    pub fn magazine(&self, weapon: WeaponId) -> Option<usize> {
        self.magazines.iter().position(|&(w, _)| w == weapon)
    }
}

/// How armour meets a missile hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissileArmour {
    /// Taken from one missile's damage, before it is multiplied.
    PerMissile,
    /// Taken once from the multiplied total.
    Once,
}

/// Numbers of the rules that are not in a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constants {
    /// The starting band of a random encounter.
    pub random_encounter: Band,
    /// The d6 table of the starting band near a planet or other object.
    pub near_object: RowTable<Band>,
    /// How the Captain's Tactics counts toward initiative.
    pub tactics_mode: ChainMode,
    /// Initiative next turn per reaction taken beyond the allowance.
    pub burn: i32,
    /// DM per Aim action.
    pub aim_dm: i32,
    /// The most Aim actions before firing.
    pub aim_max: u8,
    /// Thrust is kept within 0 and this multiple of the ship's thrust.
    pub overcharge_max_multiple: i32,
    /// An overcharge Effect at or below this does one M-drive hit.
    pub overcharge_one_hit_at: i32,
    /// At or below this, two hits.
    pub overcharge_two_hits_at: i32,
    /// The salvo attack's target number.
    pub missile_attack: i32,
    /// Its difficulty's name.
    pub missile_attack_name: String,
    /// DM per missile beyond the first.
    pub per_extra_missile: i32,
    /// The lowest TL difference DM.
    pub tl_dm_min: i32,
    /// The highest TL difference DM.
    pub tl_dm_max: i32,
    /// House-rule option: bands at launch where smart missiles lose the TL
    /// difference DM, by band index (none by default).
    pub smart_lost_at: [bool; 7],
    /// House-rule option: the multiplier of a missile hit at Effect 0 (0,
    /// the Effect itself, by default).
    pub zero_effect_multiplier: i32,
    /// House-rule option: the multiplier never exceeds the missiles that
    /// attacked (off by default).
    pub cap_at_missiles: bool,
    /// How armour meets a missile hit.
    pub missile_armour: MissileArmour,
    /// Damage a successful sand reaction takes off.
    pub sand_reduction: DiceExpr,
    /// Sand's check Effect is taken off as well.
    pub sand_add_effect: bool,
}

/// A skill the system knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// Kebab-case id.
    pub id: String,
    /// Printed name.
    pub name: String,
}

/// The whole validated ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Difficulty names and target numbers, easiest first.
    pub difficulties: Vec<(String, i32)>,
    /// DM of an unskilled check.
    pub unskilled: i32,
    /// Characteristic DMs.
    pub characteristic_dm: RowTable<i32>,
    /// [`Rules::characteristic_dm`] read for every value a characteristic
    /// can take, once, since every check reads it.
    pub characteristic_dms: Vec<i32>,
    /// How chained Effects become DMs.
    pub chain_mode: ChainMode,
    /// The task-chain DM table.
    pub chain: RowTable<i32>,
    /// Reactions by initiative.
    pub reactions: RowTable<u8>,
    /// Skills, by [`SkillId`].
    pub skills: Vec<Skill>,
    /// Tasks, by `Task as usize`.
    pub tasks: Vec<TaskDef>,
    /// Range bands, by [`Band::index`].
    pub bands: Vec<BandInfo>,
    /// Weapons, by [`WeaponId`].
    pub weapons: Vec<Weapon>,
    /// Mount kinds, by [`MountKindId`].
    pub mount_kinds: Vec<MountKind>,
    /// Identical weapons in one mount.
    pub identical: Identical,
    /// Critical hits.
    pub criticals: Criticals,
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
    /// A task's check.
    pub fn task(&self, task: Task) -> &TaskDef {
        &self.tasks[task as usize]
    }

    /// A band's numbers.
    pub fn band(&self, band: Band) -> &BandInfo {
        &self.bands[band.index()]
    }

    /// The mount kind at this index.
    pub fn mount_kind(&self, id: MountKindId) -> &MountKind {
        &self.mount_kinds[usize::from(id)]
    }

    /// The position that fires a mount of a class: the Pilot for fixed
    /// mounts, else the mount's Gunner.
    pub fn mount_position(&self, class: &ShipClass, mount: u8) -> Position {
        match class.mounts.get(usize::from(mount)) {
            Some(m) if self.mount_kind(m.kind).pilot => Position::Pilot,
            _ => Position::Gunner(mount),
        }
    }

    /// A skill's printed name.
    pub fn skill_name(&self, id: SkillId) -> &str {
        &self.skills[usize::from(id)].name
    }

    /// The characteristic DM of a value.
    pub fn characteristic_dm(&self, value: u8) -> i32 {
        match self.characteristic_dms.get(usize::from(value)) {
            Some(&dm) => dm,
            None => self.characteristic_dm.value(i32::from(value)),
        }
    }

    /// The DM a chained Effect passes on.
    pub fn chain_dm(&self, effect: i32) -> i32 {
        match self.chain_mode {
            ChainMode::Table => self.chain.value(effect),
            ChainMode::Effect => effect,
        }
    }

    /// The reactions an initiative allows.
    pub fn reactions_at(&self, initiative: i32) -> u8 {
        self.reactions.value(initiative)
    }

    /// The name of a difficulty's target number (`Average 8+`).
    pub fn difficulty_text(&self, target: i32) -> String {
        match self.difficulties.iter().find(|(_, t)| *t == target) {
            Some((name, _)) => format!("{} {target}+", title_case(name)),
            None => format!("{target}+"),
        }
    }
}

/// `very-difficult` as `Very Difficult`.
pub fn title_case(id: &str) -> String {
    id.split('-')
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(c) => c.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

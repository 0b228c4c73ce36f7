//! The validated rules: module types, ship classes laid out as module grids, the hull check chart and every constant.
//!
//! These are what the rules code reads; the raw file types that produce them
//! live in `data.rs`. Ids are small indices and sets of modules are bit masks,
//! so that a ship's state stays `Copy` and hashable.

use std::fmt;

use serde::Serialize;

/// Index of a module type in [`Rules::module_types`].
pub type TypeId = u8;
/// Index of a ship class in [`Rules::ships`].
pub type ClassId = u8;
/// Index of a module in [`ShipClass::modules`].
pub type ModuleIx = u8;
/// A set of a ship's modules, bit `i` for module `i`.
pub type ModuleSet = u64;

/// The most modules one ship may have (one bit each in a [`ModuleSet`]).
pub const MAX_MODULES: usize = 64;
/// The most rows or columns a layout may have.
pub const MAX_SIDE: usize = 16;

/// What a module type does in ship-to-ship combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Function {
    /// Fires Cannon shots.
    Cannon,
    /// Launches missiles (indirect).
    MissileBay,
    /// Teleports bombs aboard an enemy.
    Teleporter,
    /// Holds up the ship's Shields level.
    Shields,
    /// Powers the ship: movement and power reallocation.
    Engine,
    /// Steers: turning and OOC recovery.
    Helm,
    /// Scans: allocation rerolls.
    Science,
    /// A Cargo Bay item: rerolls one hull check die.
    HullStabilizer,
    /// A Cargo Bay item: allows Cannons in Fusion mode.
    FusionNode,
    /// No role in ship-to-ship combat (cargo, docks).
    None,
}

impl Function {
    /// Every function, in data order.
    pub const ALL: [Function; 10] = [
        Function::Cannon,
        Function::MissileBay,
        Function::Teleporter,
        Function::Shields,
        Function::Engine,
        Function::Helm,
        Function::Science,
        Function::HullStabilizer,
        Function::FusionNode,
        Function::None,
    ];

    /// Its id in the data.
    pub const fn id(self) -> &'static str {
        match self {
            Function::Cannon => "cannon",
            Function::MissileBay => "missile-bay",
            Function::Teleporter => "teleporter",
            Function::Shields => "shields",
            Function::Engine => "engine",
            Function::Helm => "helm",
            Function::Science => "science",
            Function::HullStabilizer => "hull-stabilizer",
            Function::FusionNode => "fusion-node",
            Function::None => "none",
        }
    }

    /// The function with this id.
    pub fn from_id(id: &str) -> Option<Function> {
        Function::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Index into per-function tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A module type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleType {
    /// Kebab-case id (`missile-bay`).
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Two-letter mark for layout pictures.
    pub code: String,
    /// What it does in ship combat.
    pub function: Function,
}

/// One of the four sides of a module ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShipSide {
    /// The bow.
    Fore,
    /// The right-hand side, looking forward.
    Starboard,
    /// The stern.
    Aft,
    /// The left-hand side, looking forward.
    Port,
}

impl ShipSide {
    /// The four sides, clockwise from the bow.
    pub const ALL: [ShipSide; 4] = [
        ShipSide::Fore,
        ShipSide::Starboard,
        ShipSide::Aft,
        ShipSide::Port,
    ];

    /// Its id on the command line.
    pub const fn id(self) -> &'static str {
        match self {
            ShipSide::Fore => "fore",
            ShipSide::Starboard => "starboard",
            ShipSide::Aft => "aft",
            ShipSide::Port => "port",
        }
    }

    /// The side with this id.
    pub fn from_id(id: &str) -> Option<ShipSide> {
        ShipSide::ALL.into_iter().find(|s| s.id() == id)
    }

    /// 0 fore, 1 starboard, 2 aft, 3 port.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The bit of this side in a [`SideSet`].
    pub const fn bit(self) -> SideSet {
        SideSet(1 << self as u8)
    }

    /// The side a hexside belongs to, with hexsides counted clockwise from
    /// the bow (0 bow, 1-2 starboard, 3 stern, 4-5 port): fore and aft one
    /// hexside each, port and starboard two each.
    pub const fn of_hexside(relative: usize) -> ShipSide {
        match relative % 6 {
            0 => ShipSide::Fore,
            1 | 2 => ShipSide::Starboard,
            3 => ShipSide::Aft,
            _ => ShipSide::Port,
        }
    }

    /// Whether hit allocation runs along a column (fore, aft) rather than a
    /// row (port, starboard).
    pub const fn along_columns(self) -> bool {
        matches!(self, ShipSide::Fore | ShipSide::Aft)
    }
}

impl fmt::Display for ShipSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A set of ship sides, one bit each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SideSet(pub u8);

impl SideSet {
    /// No side.
    pub const NONE: SideSet = SideSet(0);
    /// Every side.
    pub const ALL: SideSet = SideSet(0b1111);

    /// Whether the set holds `side`.
    pub const fn has(self, side: ShipSide) -> bool {
        self.0 & side.bit().0 != 0
    }

    /// The set with `side` added.
    pub const fn with(self, side: ShipSide) -> SideSet {
        SideSet(self.0 | side.bit().0)
    }

    /// Whether any side of `other` is in the set.
    pub const fn meets(self, other: SideSet) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The sides in the set, clockwise from the bow.
    pub fn sides(self) -> impl Iterator<Item = ShipSide> {
        ShipSide::ALL.into_iter().filter(move |&s| self.has(s))
    }

    /// How many sides.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
}

/// A square of a layout, 0-based inside the code and shown 1-based ("R,C")
/// to people: row from the bow, column from port.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Row from the bow, from 0.
    pub row: u8,
    /// Column from port, from 0.
    pub col: u8,
}

impl Square {
    /// Parses "R,C" (1-based, as people write it).
    pub fn parse(text: &str) -> Result<Square, String> {
        let bad = || {
            format!(
                "'{text}' is not a square written R,C (row from the bow, column from port, both from 1)"
            )
        };
        let (r, c) = text.split_once(',').ok_or_else(bad)?;
        let r: u8 = r.trim().parse().map_err(|_| bad())?;
        let c: u8 = c.trim().parse().map_err(|_| bad())?;
        if r == 0 || c == 0 {
            return Err(bad());
        }
        Ok(Square {
            row: r - 1,
            col: c - 1,
        })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", u32::from(self.row) + 1, u32::from(self.col) + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({self})")
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// One module of a ship class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Module {
    /// Its type.
    pub kind: TypeId,
    /// Where it is.
    pub at: Square,
    /// Crew in it at the start.
    pub occupants: u8,
    /// The sides it has line of sight toward: those from which it is the
    /// first module of its row or column.
    pub exposed: SideSet,
}

/// A crew skill a check uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Skill {
    /// Firing Cannons and missiles.
    Gunnery,
    /// Flying: OOC recovery.
    Piloting,
    /// Scans and the Teleporter.
    Science,
    /// Repairs.
    Engineering,
}

impl Skill {
    /// Every skill.
    pub const ALL: [Skill; 4] = [
        Skill::Gunnery,
        Skill::Piloting,
        Skill::Science,
        Skill::Engineering,
    ];

    /// Its id in the data.
    pub const fn id(self) -> &'static str {
        match self {
            Skill::Gunnery => "gunnery",
            Skill::Piloting => "piloting",
            Skill::Science => "science",
            Skill::Engineering => "engineering",
        }
    }

    /// The skill with this id.
    pub fn from_id(id: &str) -> Option<Skill> {
        Skill::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Its name in event text, capitalised as the rules print it.
    pub const fn name(self) -> &'static str {
        match self {
            Skill::Gunnery => "Gunnery",
            Skill::Piloting => "Piloting",
            Skill::Science => "Science",
            Skill::Engineering => "Engineering",
        }
    }
}

/// A ship's crew, as its checks see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Crew {
    /// Skill levels, by [`Skill`] order.
    pub levels: [i8; 4],
    /// Whether a professional makes the check, by [`Skill`] order.
    pub professional: [bool; 4],
}

impl Crew {
    /// The level of a skill.
    pub const fn level(&self, skill: Skill) -> i8 {
        self.levels[skill as usize]
    }

    /// Whether a professional makes checks of this skill.
    pub const fn is_professional(&self, skill: Skill) -> bool {
        self.professional[skill as usize]
    }
}

/// A ship class: its layout and statistics as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipClass {
    /// Kebab-case id.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Where it comes from.
    pub source: String,
    /// Size.
    pub size: u8,
    /// Shields level at full power.
    pub shields: u8,
    /// Guns power at full power.
    pub guns: u8,
    /// Hexes a turn at most.
    pub speed: u8,
    /// Luck points.
    pub luck: u8,
    /// Missiles carried.
    pub missiles: u8,
    /// Teleporter bombs carried.
    pub bombs: u8,
    /// Hull damage on the record sheet at the start.
    pub hull_damage: u16,
    /// Rows of the layout.
    pub rows: u8,
    /// Columns of the layout.
    pub cols: u8,
    /// The module in each square, row by row.
    pub cells: Vec<Option<ModuleIx>>,
    /// The modules, row by row.
    pub modules: Vec<Module>,
    /// The centre mark.
    pub centre: Square,
    /// The crew's skills.
    pub crew: Crew,
    /// The modules of each function, by [`Function::index`].
    pub by_function: [ModuleSet; Function::ALL.len()],
    /// Hull damage from which no hull check can be passed (the chart's
    /// check less Size is above the most two dice can show): the ship's
    /// effective hull, derived from Size and the chart.
    pub hull: u16,
}

impl ShipClass {
    /// The module in a square, if the square is on the layout and holds one.
    pub fn module_at(&self, square: Square) -> Option<ModuleIx> {
        if square.row >= self.rows || square.col >= self.cols {
            return None;
        }
        self.cells[usize::from(square.row) * usize::from(self.cols) + usize::from(square.col)]
    }

    /// The module at a signed row and column, `None` off the layout.
    pub fn module_at_signed(&self, row: i32, col: i32) -> Option<ModuleIx> {
        if row < 0 || col < 0 || row >= i32::from(self.rows) || col >= i32::from(self.cols) {
            return None;
        }
        self.cells[row as usize * usize::from(self.cols) + col as usize]
    }

    /// The modules of one function.
    pub const fn modules_of(&self, function: Function) -> ModuleSet {
        self.by_function[function.index()]
    }

    /// Every module of the ship.
    pub fn all_modules(&self) -> ModuleSet {
        if self.modules.len() >= MAX_MODULES {
            ModuleSet::MAX
        } else {
            (1u64 << self.modules.len()) - 1
        }
    }

    /// The centre line for a side: the centre mark's column for a hit from
    /// fore or aft, its row for a hit from a side.
    pub fn centre_line(&self, side: ShipSide, centre: Square) -> i32 {
        if side.along_columns() {
            i32::from(centre.col)
        } else {
            i32::from(centre.row)
        }
    }

    /// How many lines a side's allocation can land on: columns for fore and
    /// aft, rows for port and starboard.
    pub fn lines(&self, side: ShipSide) -> i32 {
        if side.along_columns() {
            i32::from(self.cols)
        } else {
            i32::from(self.rows)
        }
    }

    /// The modules of line `line` in the order a hit from `side` meets them,
    /// with `None` for an empty square between modules; empty squares before
    /// the first module and after the last are left out. Empty when the line
    /// is off the layout or holds no module.
    pub fn lane(&self, side: ShipSide, line: i32) -> Lane<'_> {
        let length = if side.along_columns() {
            i32::from(self.rows)
        } else {
            i32::from(self.cols)
        };
        let mut lane = Lane {
            class: self,
            side,
            line,
            next: 0,
            end: 0,
        };
        if line < 0 || line >= self.lines(side) {
            return lane;
        }
        let first = (0..length).find(|&k| lane.at(k).is_some());
        let last = (0..length).rev().find(|&k| lane.at(k).is_some());
        if let (Some(first), Some(last)) = (first, last) {
            lane.next = first;
            lane.end = last + 1;
        }
        lane
    }

    /// The modules of line `line` in the order a hit from `side` meets them:
    /// `lane(side, line).flatten()`, without first searching for the lane's
    /// ends, for callers that only walk its first few modules.
    pub fn lane_modules(&self, side: ShipSide, line: i32) -> impl Iterator<Item = ModuleIx> + '_ {
        let length = if side.along_columns() {
            i32::from(self.rows)
        } else {
            i32::from(self.cols)
        };
        let on = line >= 0 && line < self.lines(side);
        Lane {
            class: self,
            side,
            line,
            next: 0,
            end: if on { length } else { 0 },
        }
        .flatten()
    }
}

/// The squares of one row or column, in the order a hit meets them.
#[derive(Debug, Clone)]
pub struct Lane<'a> {
    class: &'a ShipClass,
    side: ShipSide,
    line: i32,
    next: i32,
    end: i32,
}

impl Lane<'_> {
    /// The module `k` squares in from the struck side.
    fn at(&self, k: i32) -> Option<ModuleIx> {
        let c = self.class;
        let (rows, cols) = (i32::from(c.rows), i32::from(c.cols));
        match self.side {
            ShipSide::Fore => c.module_at_signed(k, self.line),
            ShipSide::Aft => c.module_at_signed(rows - 1 - k, self.line),
            ShipSide::Port => c.module_at_signed(self.line, k),
            ShipSide::Starboard => c.module_at_signed(self.line, cols - 1 - k),
        }
    }

    /// Whether the lane holds no module: the line misses the silhouette.
    pub fn is_empty(&self) -> bool {
        self.next >= self.end
    }
}

impl Iterator for Lane<'_> {
    type Item = Option<ModuleIx>;

    fn next(&mut self) -> Option<Option<ModuleIx>> {
        if self.next >= self.end {
            return None;
        }
        let square = self.at(self.next);
        self.next += 1;
        Some(square)
    }
}

/// A Cannon configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Power = Guns.
    Standard,
    /// Range counts half (rounded up), power half the Guns (rounded down).
    Long,
    /// Power 1, no Used marker.
    Multi,
    /// A burst of indirect damage; needs a Fusion Node.
    Fusion,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 4] = [Mode::Standard, Mode::Long, Mode::Multi, Mode::Fusion];
    /// The ids, for option specs.
    pub const IDS: &'static [&'static str] = &["standard", "long", "multi", "fusion"];

    /// Its id.
    pub const fn id(self) -> &'static str {
        match self {
            Mode::Standard => "standard",
            Mode::Long => "long",
            Mode::Multi => "multi",
            Mode::Fusion => "fusion",
        }
    }

    /// The mode with this id.
    pub fn from_id(id: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.id() == id)
    }

    /// Its name as the rules print it.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Standard => "Standard",
            Mode::Long => "Long",
            Mode::Multi => "Multi",
            Mode::Fusion => "Fusion",
        }
    }

    /// Index into per-mode tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// How a Cannon mode fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModeRule {
    /// Power is the Guns divided by this, rounded down.
    pub power_divisor: u8,
    /// A power that ignores the Guns (Multi).
    pub fixed_power: Option<u8>,
    /// Range counts as range divided by this, rounded up.
    pub range_divisor: u8,
    /// Whether a shot uses up one Guns power (takes a Used marker).
    pub uses_guns: bool,
    /// Shots one Cannon may fire in a turn of an engagement.
    pub shots_per_turn: u8,
    /// Hit allocation on the centre mark, no called point.
    pub indirect: bool,
    /// A module function the firing ship needs working.
    pub needs: Option<Function>,
    /// Power lost per hex from the burst (Fusion).
    pub falloff_per_hex: u8,
}

/// Numbers of the rules that are not in a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constants {
    /// Dice of a skill check.
    pub skill_dice: u8,
    /// Dice a professional rolls, keeping the best `skill_dice`.
    pub professional_dice: u8,
    /// The skill of a Cannon to-hit check.
    pub to_hit_skill: Skill,
    /// To-hit difficulty at range 0.
    pub to_hit_base: i32,
    /// Added per hex of (effective) range.
    pub to_hit_per_hex: i32,
    /// Subtracted from the firer's roll per OOC level.
    pub ooc_penalty: i32,
    /// Allocation dice.
    pub allocation_dice: u8,
    /// The allocation total that lands on the centre line.
    pub allocation_centre: i32,
    /// A module die of at least this breaks the module.
    pub breaks_at: u32,
    /// Collateral dice per occupant when the module breaks.
    pub collateral_dice_break: u8,
    /// Collateral dice per occupant otherwise.
    pub collateral_dice: u8,
    /// OOC added when a module breaks.
    pub ooc_on_break: u8,
    /// Broken markers a module can hold; the second slags it.
    pub max_broken_markers: u8,
    /// Whether an empty square between modules takes a die (as a miss).
    pub gaps_take_dice: bool,
    /// Hull damage of a die that misses the silhouette.
    pub off_silhouette_hull: u32,
    /// A missing die of at least this raises OOC.
    pub off_silhouette_ooc_at: u32,
    /// By how much such a die raises OOC.
    pub off_silhouette_ooc: u8,
    /// Shields lost per strike.
    pub shields_drop: u8,
    /// Dice of a hull check.
    pub hull_dice: u8,
    /// Hull checks start once the reduced check reaches this.
    pub hull_first_check: i32,
    /// Dice a working Hull Stabilizer rerolls per check.
    pub stabilizer_rerolls: u8,
    /// Luck spent per reroll.
    pub luck_per_reroll: u8,
    /// Damage dice each person aboard takes when the ship explodes.
    pub crew_damage_dice: u8,
    /// The skill of a repair.
    pub repair_skill: Skill,
    /// Repair difficulty.
    pub repair_difficulty: i32,
    /// Added to any check in a slagged square.
    pub slagged_penalty: i32,
    /// Explosion power lost per hex out.
    pub explosion_falloff: u8,
    /// Times a docked ship takes an explosion.
    pub docked_times: u8,
    /// A microship's survival check before its Damage levels.
    pub microship_survival: i32,
    /// The skill of a teleport.
    pub teleport_skill: Skill,
    /// Teleport difficulty before Shields and distance.
    pub teleport_base: i32,
    /// Dice of a teleported bomb.
    pub bomb_dice: u8,
    /// The skill of a missile launch.
    pub missile_skill: Skill,
    /// Missile to-hit difficulty.
    pub missile_difficulty: i32,
    /// Missile range in hexes.
    pub missile_range: u32,
    /// Missile power.
    pub missile_power: u8,
    /// Scans a working Science Bay gives each turn.
    pub scans_per_science: u8,
    /// The skill of OOC recovery.
    pub ooc_recovery_skill: Skill,
    /// OOC recovery difficulty.
    pub ooc_recovery_difficulty: i32,
    /// Whether the OOC penalty applies to the recovery check.
    pub ooc_recovery_penalised: bool,
    /// OOC removed by a successful recovery check.
    pub ooc_recovered: u8,
    /// Repair checks a ship makes each turn.
    pub repairs_per_turn: u8,
}

/// A kind of object on the map, and whether it blocks line of sight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectKind {
    /// Its id (`asteroid`).
    pub id: String,
    /// Whether a line through its hex is blocked.
    pub blocks: bool,
}

impl ObjectKind {
    /// The objects the line of sight rule names: asteroids, moons, planets
    /// and stars block; starbases, ships, fighters, missiles and
    /// spacewalkers do not. Which of them block is data; an object the
    /// rule does not name has no rule to follow, so the data may not list
    /// one.
    pub const NAMED: [&'static str; 9] = [
        "asteroid",
        "moon",
        "planet",
        "star",
        "starbase",
        "ship",
        "fighter",
        "missile",
        "spacewalker",
    ];
}

/// One row of the hull check chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HullRow {
    /// Hull damage from which the row applies.
    pub damage: u16,
    /// The hull check before Size.
    pub check: u8,
}

/// The whole validated ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Module types, by [`TypeId`].
    pub module_types: Vec<ModuleType>,
    /// Ship classes, by [`ClassId`].
    pub ships: Vec<ShipClass>,
    /// The hull check chart, by rising damage.
    pub hull_chart: Vec<HullRow>,
    /// Cannon modes, by [`Mode::index`].
    pub modes: [ModeRule; 4],
    /// Objects and whether they block sight.
    pub objects: Vec<ObjectKind>,
    /// Other numbers.
    pub constants: Constants,
}

broadside_data::lookups!(Rules {
    ships[ClassId] -> ShipClass: class_id, class;
});

impl Rules {
    /// The type of a module of a class.
    pub fn module_type(&self, class: &ShipClass, module: ModuleIx) -> &ModuleType {
        &self.module_types[usize::from(class.modules[usize::from(module)].kind)]
    }

    /// How a mode fires.
    pub fn mode(&self, mode: Mode) -> &ModeRule {
        &self.modes[mode.index()]
    }

    /// The chart's hull check for a damage total, before Size: 0 below the
    /// first row; beyond the last row, the last row's check (a ruling).
    pub fn chart_check(&self, damage: u32) -> i32 {
        let rows_reached = self
            .hull_chart
            .partition_point(|row| u32::from(row.damage) <= damage);
        match rows_reached {
            0 => 0,
            n => i32::from(self.hull_chart[n - 1].check),
        }
    }

    /// The hull check a ship of `size` makes with `damage`: the chart's
    /// check reduced by Size (may be zero or below).
    pub fn hull_check(&self, damage: u32, size: u8) -> i32 {
        self.chart_check(damage) - i32::from(size)
    }

    /// The most the dice of a plain roll of `count` six-sided dice can show.
    pub const fn most(count: u8) -> i32 {
        6 * count as i32
    }

    /// Whether an object kind blocks line of sight; `None` for a kind the
    /// data does not know.
    pub fn blocks(&self, kind: &str) -> Option<bool> {
        self.objects.iter().find(|o| o.id == kind).map(|o| o.blocks)
    }
}

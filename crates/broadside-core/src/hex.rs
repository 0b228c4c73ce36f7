//! Hex-map geometry for every rule system: coordinates, distance, facings,
//! exact straight lines for line of sight, and where a target lies relative to
//! a ship's facing.
//!
//! # Conventions
//!
//! The map uses **pointy-topped** hexes with map north up the page, so every
//! facing points straight at a hexside and "dead ahead" is a line of hexes.
//!
//! ```text
//!            NW (4)   NE (5)
//!                \    /
//!       W (3) --  hex  -- E (0)
//!                /    \
//!            SW (2)   SE (1)
//! ```
//!
//! * [`Direction`]s (also a ship's facing) are numbered 0 to 5 **clockwise**
//!   starting from **east**: 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE. Turning right is
//!   a positive number of sixths, turning left a negative one.
//! * [`Hex`] uses axial coordinates: `q` grows eastward along a row, `r` grows
//!   down the page (south-east), and the implied cube coordinate
//!   `s = -q - r` grows to the north-west. East is `(+1, 0)` and south-east is
//!   `(0, +1)`.
//! * All results are integers. Lines are computed with exact rational
//!   arithmetic, so a line that runs along a hexside or through a vertex is
//!   recognised as such, never nudged to one side.
//! * Every function is exact and panic-free for coordinates with `|q|` and
//!   `|r|` at most `i32::MAX / 2`, far beyond any printed map. Results that
//!   cannot fit an `i32` at those extremes saturate instead of wrapping.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Sub};

use serde::Serialize;

/// A vector in cube coordinates `[q, r, s]` with `q + r + s == 0`, widened to
/// `i64` so that differences of extreme hexes cannot overflow.
type Cube = [i64; 3];

/// One hex of the map, in axial coordinates (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Hex {
    /// Column coordinate: grows eastward.
    pub q: i32,
    /// Row coordinate: grows down the page (each step is south-east).
    pub r: i32,
}

impl Hex {
    /// The hex at axial `(0, 0)`.
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// The hex at axial coordinates `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate, `-q - r`, which grows to the north-west.
    pub const fn s(self) -> i32 {
        // Wrapping keeps this panic-free; it is exact whenever `-q - r` fits,
        // which covers the whole supported range.
        self.q.wrapping_add(self.r).wrapping_neg()
    }

    /// How many hex steps separate the two hexes (0 only for the same hex).
    pub fn distance(self, other: Hex) -> u32 {
        let steps = cube_len(cube_sub(other.cube(), self.cube()));
        u32::try_from(steps).unwrap_or(u32::MAX)
    }

    /// The adjacent hex across the hexside in direction `d`.
    pub fn neighbour(self, d: Direction) -> Hex {
        // The hot path of every move: one saturating add per coordinate.
        let delta = d.delta();
        Hex::new(
            self.q.saturating_add(delta.q),
            self.r.saturating_add(delta.r),
        )
    }

    /// All six adjacent hexes, in [`Direction::ALL`] order.
    pub fn neighbours(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.neighbour(d))
    }

    /// The hex `n` steps away in direction `d`; a negative `n` steps backward.
    pub fn step(self, d: Direction, n: i32) -> Hex {
        let offset = d.cube().map(|c| c * i64::from(n));
        self.offset_by(offset)
    }

    /// The direction from `self` to `other` when `other` lies on one of the six
    /// straight lines of hexes running out through `self`'s hexsides; `None`
    /// otherwise, including when `other == self`.
    pub fn direction_to(self, other: Hex) -> Option<Direction> {
        let d = cube_sub(other.cube(), self.cube());
        if d == [0; 3] || !d.contains(&0) {
            return None;
        }
        // On a straight line the offset is a positive multiple of one unit
        // direction, so its signs are exactly that direction's components.
        let signs = d.map(i64::signum);
        Direction::ALL.into_iter().find(|dir| dir.cube() == signs)
    }

    /// This hex turned about `centre` by `sixths` of a full turn, positive
    /// clockwise (the same sense as [`Direction::turn`]).
    pub fn rotate_around(self, centre: Hex, sixths: i32) -> Hex {
        let offset = rotate_cube(cube_sub(self.cube(), centre.cube()), sixths);
        centre.offset_by(offset)
    }

    fn cube(self) -> Cube {
        let q = i64::from(self.q);
        let r = i64::from(self.r);
        [q, r, -q - r]
    }

    /// `self` moved by a cube offset, saturating rather than overflowing.
    fn offset_by(self, offset: Cube) -> Hex {
        Hex {
            q: saturate(i64::from(self.q) + offset[0]),
            r: saturate(i64::from(self.r) + offset[1]),
        }
    }
}

impl Add for Hex {
    type Output = Hex;

    fn add(self, rhs: Hex) -> Hex {
        Hex::new(self.q + rhs.q, self.r + rhs.r)
    }
}

impl Sub for Hex {
    type Output = Hex;

    fn sub(self, rhs: Hex) -> Hex {
        Hex::new(self.q - rhs.q, self.r - rhs.r)
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.q, self.r)
    }
}

/// One of the six hexside directions, also used as a ship's facing.
///
/// Numbered 0 to 5 clockwise from east (see the [module docs](self)). When a
/// direction is expressed *relative to* a facing (as by
/// [`Direction::relative_to`]) its index counts clockwise from the bow instead:
/// 0 bow, 1 starboard bow, 2 starboard quarter, 3 stern, 4 port quarter,
/// 5 port bow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Direction(u8);

impl Direction {
    /// Direction 0: east, axial `(+1, 0)`.
    pub const EAST: Direction = Direction(0);
    /// Direction 1: south-east, axial `(0, +1)`.
    pub const SOUTH_EAST: Direction = Direction(1);
    /// Direction 2: south-west, axial `(-1, +1)`.
    pub const SOUTH_WEST: Direction = Direction(2);
    /// Direction 3: west, axial `(-1, 0)`.
    pub const WEST: Direction = Direction(3);
    /// Direction 4: north-west, axial `(0, -1)`.
    pub const NORTH_WEST: Direction = Direction(4);
    /// Direction 5: north-east, axial `(+1, -1)`.
    pub const NORTH_EAST: Direction = Direction(5);

    /// All six directions in clockwise order starting from east.
    pub const ALL: [Direction; 6] = [
        Direction::EAST,
        Direction::SOUTH_EAST,
        Direction::SOUTH_WEST,
        Direction::WEST,
        Direction::NORTH_WEST,
        Direction::NORTH_EAST,
    ];

    /// The direction's number, 0 to 5 clockwise from east; handy for indexing
    /// per-hexside tables.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The direction numbered `i`, taken modulo 6 so that any integer,
    /// negative included, names a direction (`-1` is north-east).
    pub const fn from_index(i: i32) -> Direction {
        // rem_euclid yields 0..=5, which always fits a u8.
        Direction(i.rem_euclid(6) as u8)
    }

    /// This direction turned by `sixths` of a full turn: positive turns right
    /// (clockwise), negative turns left.
    #[inline]
    pub const fn turn(self, sixths: i32) -> Direction {
        // Reducing `sixths` first keeps the sum far from overflow, and below
        // 12, so one subtraction finishes the reduction.
        let i = self.0 + sixths.rem_euclid(6) as u8;
        Direction(if i >= 6 { i - 6 } else { i })
    }

    /// The direction pointing the other way.
    pub const fn opposite(self) -> Direction {
        self.turn(3)
    }

    /// The direction one sixth of a turn to the left (anticlockwise).
    pub const fn left(self) -> Direction {
        self.turn(-1)
    }

    /// The direction one sixth of a turn to the right (clockwise).
    pub const fn right(self) -> Direction {
        self.turn(1)
    }

    /// The axial offset to the neighbouring hex in this direction.
    pub const fn delta(self) -> Hex {
        const DELTAS: [Hex; 6] = [
            Hex::new(1, 0),
            Hex::new(0, 1),
            Hex::new(-1, 1),
            Hex::new(-1, 0),
            Hex::new(0, -1),
            Hex::new(1, -1),
        ];
        DELTAS[self.0 as usize]
    }

    /// The signed smallest number of sixth-turns taking `self` to `other`:
    /// positive to the right, negative to the left, `+3` for the opposite
    /// direction, so the result lies in `-2..=3` and
    /// `self.turn(self.turns_between(other)) == other`.
    pub const fn turns_between(self, other: Direction) -> i32 {
        let clockwise = (other.0 as i32 - self.0 as i32).rem_euclid(6);
        if clockwise > 3 {
            clockwise - 6
        } else {
            clockwise
        }
    }

    /// This direction as seen from something facing `facing`: the result's
    /// [`index`](Direction::index) counts sixths clockwise from the bow
    /// (0 dead ahead, 3 dead astern).
    pub const fn relative_to(self, facing: Direction) -> Direction {
        Direction::from_index(self.0 as i32 - facing.0 as i32)
    }

    fn cube(self) -> Cube {
        let d = self.delta();
        let q = i64::from(d.q);
        let r = i64::from(d.r);
        [q, r, -q - r]
    }
}

/// One step of a [`line()`] between hex centres.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum LineStep {
    /// The line passes through the interior of this hex.
    Through(Hex),
    /// The line runs exactly along the hexside shared by these two adjacent
    /// hexes, entering the interior of neither. The pair is in ascending
    /// `(q, r)` order, so a line and its reverse list the same step. Whether
    /// that blocks is a rule system's decision.
    Edge(Hex, Hex),
}

impl LineStep {
    /// The hexes this step touches: one for [`LineStep::Through`], two for
    /// [`LineStep::Edge`].
    pub fn hexes(self) -> impl Iterator<Item = Hex> {
        let (first, second) = match self {
            LineStep::Through(hex) => (hex, None),
            LineStep::Edge(a, b) => (a, Some(b)),
        };
        std::iter::once(first).chain(second)
    }

    /// Whether this step passes through the interior of `hex`.
    pub fn passes_through(self, hex: Hex) -> bool {
        self == LineStep::Through(hex)
    }

    /// Whether this step touches `hex`, through its interior or along one of
    /// its hexsides.
    pub fn touches(self, hex: Hex) -> bool {
        self.hexes().any(|h| h == hex)
    }
}

/// Whether `line` passes through the interior of `hex` (grazing a hexside in
/// an [`LineStep::Edge`] step does not count).
pub fn passes_through(line: &[LineStep], hex: Hex) -> bool {
    line.iter().any(|step| step.passes_through(hex))
}

/// Whether `line` touches `hex` at all: through it, or along one of its
/// hexsides.
pub fn touches(line: &[LineStep], hex: Hex) -> bool {
    line.iter().any(|step| step.touches(hex))
}

/// The hexes a straight line from the centre of `a` to the centre of `b`
/// passes through, in order from `a` to `b`, both included.
///
/// The geometry is exact, which has two consequences worth knowing:
///
/// * A line usually visits `a.distance(b) + 1` hexes, but one that runs close
///   to the zigzag boundary between two rows clips the corners of hexes on
///   both sides and visits more (at most `2 * distance + 1`). From `(0, 0)` to
///   `(-4, 1)`, distance 4, the line passes through six hexes.
/// * Only a line toward one of the six vertex directions (for example from
///   `(0, 0)` to `(1, 1)`) runs along hexsides; each such stretch is one
///   [`LineStep::Edge`]. A line that merely crosses a vertex passes from one
///   hex straight into the next; the third hex at that vertex is touched at a
///   single point and is not listed.
///
/// `line(b, a)` is `line(a, b)` reversed. The vector has one entry per hex
/// visited, so it is as long as the line.
pub fn line(a: Hex, b: Hex) -> Vec<LineStep> {
    let d = cube_sub(b.cube(), a.cube());
    if d == [0; 3] {
        return vec![LineStep::Through(a)];
    }
    if let Some(steps) = vertex_line(a, d) {
        return steps;
    }
    // Walk hex by hex: the next hex is the neighbour whose interior the line
    // enters at the very moment it leaves the current one. Working relative to
    // `a` keeps every number small enough for exact i128 fractions.
    let mut steps = Vec::new();
    let mut current: Cube = [0; 3];
    let Some((_, mut exit)) = inside_span(d, current) else {
        return vec![LineStep::Through(a), LineStep::Through(b)];
    };
    // Each crossing goes into a neighbour, so no line visits more than
    // 2 * distance + 1 hexes; the bound only guards against a logic error.
    let mut budget = 2 * cube_len(d) + 1;
    while current != d && budget > 0 {
        budget -= 1;
        steps.push(LineStep::Through(a.offset_by(current)));
        let next = Direction::ALL.into_iter().find_map(|dir| {
            let candidate = cube_add(current, dir.cube());
            inside_span(d, candidate)
                .filter(|(enter, _)| *enter == exit)
                .map(|(_, leave)| (candidate, leave))
        });
        match next {
            Some((hex, leave)) => {
                current = hex;
                exit = leave;
            }
            None => break,
        }
    }
    steps.push(LineStep::Through(b));
    steps
}

/// The line for an offset `d` that is a whole multiple of a vertex direction
/// (the sum of two adjacent hexside directions), or `None` for any other
/// offset. Such a line alternates between hex centres and hexsides: it leaves
/// each centre's hex through a vertex, runs along the hexside between the two
/// hexes flanking it, and enters the next centre's hex through a vertex.
fn vertex_line(a: Hex, d: Cube) -> Option<Vec<LineStep>> {
    Direction::ALL.into_iter().find_map(|left| {
        let right = left.right();
        let unit = cube_add(left.cube(), right.cube());
        // `unit` has exactly one component of size 2, which fixes the multiple.
        let axis = unit.iter().position(|c| c.abs() == 2)?;
        let k = d[axis] / unit[axis];
        if k < 1 || unit.map(|c| c * k) != d {
            return None;
        }
        let mut steps = Vec::new();
        for m in 0..k {
            let centre = unit.map(|c| c * m);
            steps.push(LineStep::Through(a.offset_by(centre)));
            let x = a.offset_by(cube_add(centre, left.cube()));
            let y = a.offset_by(cube_add(centre, right.cube()));
            steps.push(LineStep::Edge(x.min(y), x.max(y)));
        }
        steps.push(LineStep::Through(a.offset_by(d)));
        Some(steps)
    })
}

/// A fraction with a positive denominator, compared exactly.
#[derive(Debug, Clone, Copy)]
struct Fraction {
    num: i128,
    den: i128,
}

impl Fraction {
    /// `num / den` for a positive `den`.
    fn new(num: i64, den: i64) -> Fraction {
        Fraction {
            num: i128::from(num),
            den: i128::from(den),
        }
    }
}

impl PartialEq for Fraction {
    fn eq(&self, other: &Fraction) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Fraction {}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, other: &Fraction) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Fraction {
    fn cmp(&self, other: &Fraction) -> Ordering {
        // Operands stay below 2^35, so the products cannot overflow i128.
        (self.num * other.den).cmp(&(other.num * self.den))
    }
}

/// The open range of the line parameter `t` (0 at the start's centre, 1 at
/// the end's, the line being `t * d`) over which the line is strictly inside
/// the hex centred at `centre`, both relative to the start; `None` when the
/// line never enters that hex's interior.
fn inside_span(d: Cube, centre: Cube) -> Option<(Fraction, Fraction)> {
    // A hex is the set of points whose three pairwise cube differences each
    // lie within 1 of its centre's; the strict inequalities give the interior.
    let mut enter: Option<Fraction> = None;
    let mut leave: Option<Fraction> = None;
    for (i, j) in [(0, 1), (1, 2), (2, 0)] {
        let slope = d[i] - d[j];
        let target = centre[i] - centre[j];
        // Need |slope * t - target| < 1; flip signs so the slope is positive.
        let (slope, target) = if slope < 0 {
            (-slope, -target)
        } else {
            (slope, target)
        };
        if slope == 0 {
            if target != 0 {
                return None;
            }
            continue;
        }
        let low = Fraction::new(target - 1, slope);
        let high = Fraction::new(target + 1, slope);
        enter = Some(enter.map_or(low, |e| e.max(low)));
        leave = Some(leave.map_or(high, |l| l.min(high)));
    }
    match (enter, leave) {
        (Some(enter), Some(leave)) if enter < leave => Some((enter, leave)),
        _ => None,
    }
}

/// How a line arrives in a hex: which of that hex's hexsides it crosses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Entry {
    /// The line starts in the hex itself.
    Same,
    /// The line crosses the hexside in this direction from the hex's centre.
    Side(Direction),
    /// The line enters exactly through the vertex where these two adjacent
    /// hexsides meet; the second is always the first's [`Direction::right`].
    Corner(Direction, Direction),
}

impl Entry {
    /// The same entry with its hexsides expressed relative to `facing`, so
    /// that index 0 is the bow hexside and indices count clockwise (see
    /// [`Direction::relative_to`]). `Side(d)` becomes `Side(d.relative_to(facing))`.
    pub const fn relative_to(self, facing: Direction) -> Entry {
        match self {
            Entry::Same => Entry::Same,
            Entry::Side(d) => Entry::Side(d.relative_to(facing)),
            Entry::Corner(a, b) => Entry::Corner(a.relative_to(facing), b.relative_to(facing)),
        }
    }
}

/// Which hexside of `to` a straight line from the centre of `from` crosses to
/// reach the centre of `to`: `Side(d)` where `d` points from `to` back toward
/// the line's origin, `Corner` when it arrives exactly through a vertex, and
/// `Same` when `from == to`.
///
/// For a shot, `from` is the shooter and `to` the target; use
/// [`struck_side`] to read the result against the target's facing. For an
/// adjacent `from`, the result is `Side(to.direction_to(from))`.
pub fn entry_side(from: Hex, to: Hex) -> Entry {
    let toward = cube_sub(from.cube(), to.cube());
    if toward == [0; 3] {
        return Entry::Same;
    }
    // The ray from the centre leaves a regular hexagon through the side whose
    // outward direction is angularly closest, i.e. has the largest dot
    // product; cube coordinates preserve angles, so integer dot products
    // decide it exactly, and a tie between two sides is their shared vertex.
    let score = |d: Direction| cube_dot(toward, d.cube());
    let mut best = Direction::EAST;
    for d in Direction::ALL {
        if score(d) > score(best) {
            best = d;
        }
    }
    if score(best.right()) == score(best) {
        Entry::Corner(best, best.right())
    } else if score(best.left()) == score(best) {
        Entry::Corner(best.left(), best)
    } else {
        Entry::Side(best)
    }
}

/// Which hexside of a target at `target`, facing `target_facing`, a shot from
/// `shooter` strikes, relative to the target's bow: `Side(d)` with
/// `d.index()` 0 for the bow hexside, counting clockwise to 3 for the stern.
/// Equivalent to `entry_side(shooter, target).relative_to(target_facing)`.
pub fn struck_side(shooter: Hex, target: Hex, target_facing: Direction) -> Entry {
    entry_side(shooter, target).relative_to(target_facing)
}

/// Where a hex lies relative to a ship's position and facing.
///
/// Picture the hexes in *lanes*: rows of hexes parallel to the facing. The
/// ship's own lane is lane 0, lanes to its right (starboard, clockwise) are 1,
/// 2, …, and lanes to its left are -1, -2, …. Neighbouring lanes are staggered
/// by half a hex, so every hex centre lies a whole or half number of hex
/// widths ahead of the ship's *beam line* (the line through its centre square
/// to the facing).
///
/// With `(q', r')` the target's axial offset from the ship rotated so the
/// facing points east, and `x2 = 2q' + r'` the centre's distance ahead in half
/// hex widths:
///
/// * `across = r'`, the lane number;
/// * `along = sign(x2) * ceil(|x2| / 2)`: the distance ahead rounded away from
///   zero, so the first hex in front of the beam line in any lane has
///   `along == 1`, the first behind has -1, and only hexes centred exactly on
///   the beam line have 0.
///
/// The six neighbours are therefore bow `(1, 0)`, starboard bow `(1, 1)`,
/// starboard quarter `(-1, 1)`, stern `(-1, 0)`, port quarter `(-1, -1)` and
/// port bow `(1, -1)`, and `from.step(facing, n)` is `(n, 0)`. Values beyond
/// the `i32` range (only for hexes over a billion apart) saturate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Bearing {
    /// Hexes forward of the beam line in the target's lane (negative behind).
    pub along: i32,
    /// Signed lane offset from the centre line: positive to starboard.
    pub across: i32,
    /// The ship's own hexside facing the target, relative to the bow
    /// (`Side(d)` with `d.index()` 0 for the bow, clockwise): the 60-degree
    /// sector the target lies in. `Corner` when the target sits exactly on the
    /// boundary between two sectors; `Same` for the ship's own hex.
    pub hexside: Entry,
}

impl Bearing {
    /// Whether the target is in front of the beam line (`along > 0`).
    pub const fn is_ahead(self) -> bool {
        self.along > 0
    }

    /// Whether the target is behind the beam line (`along < 0`).
    pub const fn is_behind(self) -> bool {
        self.along < 0
    }

    /// Whether the target is dead ahead, in the ship's own lane.
    pub const fn on_centre_line(self) -> bool {
        self.is_ahead() && self.across == 0
    }

    /// Whether the target is ahead and no more than `half_width` lanes from
    /// the centre line; `half_width` 1 is a three-hex-wide band ahead.
    pub const fn in_forward_band(self, half_width: u32) -> bool {
        self.is_ahead() && self.across.unsigned_abs() <= half_width
    }
}

/// Where `to` lies relative to a ship at `from` facing `facing`; see
/// [`Bearing`] for the exact meaning of each field.
pub fn relative_bearing(from: Hex, facing: Direction, to: Hex) -> Bearing {
    let (along, across) = ahead_offset(from, facing, to);
    Bearing {
        along,
        across,
        hexside: entry_side(to, from).relative_to(facing),
    }
}

/// The `(along, across)` position of `to` in the frame of a ship at `from`
/// facing `facing`, as defined on [`Bearing`]: `along` hexes forward
/// (negative behind), `across` lanes to starboard (negative to port).
///
/// Arc checks call this rather than [`relative_bearing`], because finding
/// the hexside sector is far dearer than the offset and they do not need it.
pub fn ahead_offset(from: Hex, facing: Direction, to: Hex) -> (i32, i32) {
    let offset = cube_sub(to.cube(), from.cube());
    // Rotate so the facing points east; then r' is the lane and
    // 2q' + r' = q' - s' the distance ahead in half hex widths.
    let [q, r, s] = rotate_cube(offset, -(facing.0 as i32));
    let half_widths = q - s;
    let magnitude = (half_widths.abs() + 1) / 2;
    (saturate(half_widths.signum() * magnitude), saturate(r))
}

/// Whether `to` lies dead ahead of a ship at `from` facing `facing`: on the
/// straight line of hexes out through its bow hexside (`along > 0`,
/// `across == 0`).
pub fn on_centre_line(from: Hex, facing: Direction, to: Hex) -> bool {
    let (along, across) = ahead_offset(from, facing, to);
    along > 0 && across == 0
}

/// Whether `to` is ahead of a ship at `from` facing `facing` (`along > 0`) and
/// within `half_width` lanes of its centre line; `half_width` 1 is a
/// three-hex-wide band that starts with the three forward neighbours.
pub fn in_forward_band(from: Hex, facing: Direction, to: Hex, half_width: u32) -> bool {
    let (along, across) = ahead_offset(from, facing, to);
    along > 0 && across.unsigned_abs() <= half_width
}

/// The hexes exactly `radius` steps from `centre`, clockwise starting from the
/// hex due east; radius 0 yields `centre` alone.
pub fn ring(centre: Hex, radius: u32) -> impl Iterator<Item = Hex> + Clone {
    let k = i32::try_from(radius).unwrap_or(i32::MAX);
    let only_centre = (radius == 0).then_some(centre);
    // Each of the six sides runs from one corner (k steps out in a hexside
    // direction) toward the next corner, clockwise.
    let sides = (0..6).flat_map(move |side| {
        let corner_direction = Direction::from_index(side);
        let corner = centre.step(corner_direction, k);
        let along = corner_direction.turn(2);
        (0..k).map(move |j| corner.step(along, j))
    });
    only_centre.into_iter().chain(sides)
}

/// Every hex within `radius` steps of `centre`, spiralling out: `centre`
/// first, then each [`ring`] in turn.
pub fn hexes_within(centre: Hex, radius: u32) -> impl Iterator<Item = Hex> + Clone {
    (0..=radius).flat_map(move |k| ring(centre, k))
}

fn cube_add(a: Cube, b: Cube) -> Cube {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn cube_sub(a: Cube, b: Cube) -> Cube {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cube_dot(a: Cube, b: Cube) -> i64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cube_len(c: Cube) -> i64 {
    c[0].abs().max(c[1].abs()).max(c[2].abs())
}

/// `c` turned by `sixths` of a full turn, positive clockwise.
fn rotate_cube([q, r, s]: Cube, sixths: i32) -> Cube {
    // One sixth clockwise takes [q, r, s] to [-r, -s, -q]; each arm is that
    // step applied so many times, written out because arc checks on every
    // candidate move of every ship call this.
    match sixths.rem_euclid(6) {
        0 => [q, r, s],
        1 => [-r, -s, -q],
        2 => [s, q, r],
        3 => [-q, -r, -s],
        4 => [r, s, q],
        _ => [-s, -q, -r],
    }
}

fn saturate(v: i64) -> i32 {
    i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;
    use std::fmt::Debug;

    /// One known case: what was computed, what the rules say it should be.
    fn check<T: PartialEq + Debug>(case: &str, got: T, want: T) {
        assert_eq!(got, want, "{case}");
    }

    fn h(q: i32, r: i32) -> Hex {
        Hex::new(q, r)
    }

    fn through(hexes: &[(i32, i32)]) -> Vec<LineStep> {
        hexes
            .iter()
            .map(|&(q, r)| LineStep::Through(h(q, r)))
            .collect()
    }

    /// The hexes whose interior the segment enters, found by testing every
    /// candidate rather than walking, sorted by when the line enters them.
    fn brute_force_through(a: Hex, b: Hex) -> Vec<Hex> {
        if a == b {
            return vec![a];
        }
        let d = cube_sub(b.cube(), a.cube());
        let zero = Fraction::new(0, 1);
        let one = Fraction::new(1, 1);
        let mut found: Vec<(Fraction, Hex)> = hexes_within(a, a.distance(b))
            .filter_map(|hex| {
                let (enter, leave) = inside_span(d, cube_sub(hex.cube(), a.cube()))?;
                (enter.max(zero) < leave.min(one)).then_some((enter, hex))
            })
            .collect();
        found.sort();
        found.into_iter().map(|(_, hex)| hex).collect()
    }

    const SMALL: i32 = 40;
    const LARGE: i32 = i32::MAX / 2;

    fn small_hex() -> impl Strategy<Value = Hex> {
        (-SMALL..=SMALL, -SMALL..=SMALL).prop_map(|(q, r)| Hex::new(q, r))
    }

    fn any_hex() -> impl Strategy<Value = Hex> {
        (-LARGE..=LARGE, -LARGE..=LARGE).prop_map(|(q, r)| Hex::new(q, r))
    }

    fn direction() -> impl Strategy<Value = Direction> {
        (0..6).prop_map(Direction::from_index)
    }

    #[test]
    fn directions_are_numbered_clockwise_from_east() {
        check("east", Direction::EAST.delta(), h(1, 0));
        check("south-east", Direction::SOUTH_EAST.delta(), h(0, 1));
        check("south-west", Direction::SOUTH_WEST.delta(), h(-1, 1));
        check("west", Direction::WEST.delta(), h(-1, 0));
        check("north-west", Direction::NORTH_WEST.delta(), h(0, -1));
        check("north-east", Direction::NORTH_EAST.delta(), h(1, -1));
        check(
            "ALL order",
            Direction::ALL.map(Direction::index),
            [0, 1, 2, 3, 4, 5],
        );
        check("-1 wraps", Direction::from_index(-1), Direction::NORTH_EAST);
        check("-7 wraps", Direction::from_index(-7), Direction::NORTH_EAST);
        check("13 wraps", Direction::from_index(13), Direction::SOUTH_EAST);
        check(
            "right of east",
            Direction::EAST.right(),
            Direction::SOUTH_EAST,
        );
        check(
            "left of east",
            Direction::EAST.left(),
            Direction::NORTH_EAST,
        );
        check(
            "opposite of NW",
            Direction::NORTH_WEST.opposite(),
            Direction::SOUTH_EAST,
        );
        check(
            "huge turn",
            Direction::WEST.turn(i32::MIN),
            Direction::WEST.turn(-2),
        );
    }

    #[test]
    fn turns_between_known_facings() {
        let e = Direction::EAST;
        check("none", e.turns_between(e), 0);
        check("one right", e.turns_between(Direction::SOUTH_EAST), 1);
        check("two right", e.turns_between(Direction::SOUTH_WEST), 2);
        check("about face", e.turns_between(Direction::WEST), 3);
        check("two left", e.turns_between(Direction::NORTH_WEST), -2);
        check("one left", e.turns_between(Direction::NORTH_EAST), -1);
        check("about face back", Direction::WEST.turns_between(e), 3);
        check(
            "relative",
            Direction::WEST.relative_to(Direction::NORTH_WEST),
            Direction(5),
        );
    }

    #[test]
    fn hex_basics() {
        check("s", h(3, -5).s(), 2);
        check("s at range edge", h(-LARGE, -LARGE).s(), 2 * LARGE);
        check("distance straight", h(0, 0).distance(h(4, 0)), 4);
        check("distance mixed", h(0, 0).distance(h(3, -5)), 5);
        check("distance diagonal", h(-2, 1).distance(h(1, 2)), 4);
        check(
            "distance across the range",
            h(LARGE, LARGE).distance(h(-LARGE, -LARGE)),
            4 * 1_073_741_823,
        );
        check("neighbours", h(2, 3).neighbours()[1], h(2, 4));
        check("step back", h(0, 0).step(Direction::EAST, -3), h(-3, 0));
        check("add", h(1, 2) + h(3, -4), h(4, -2));
        check("sub", h(1, 2) - h(3, -4), h(-2, 6));
        check("display", h(-1, 2).to_string(), "(-1, 2)".to_owned());
        check("rotate", h(1, 0).rotate_around(Hex::ORIGIN, 1), h(0, 1));
        check("rotate about", h(3, 1).rotate_around(h(2, 1), -1), h(3, 0));
    }

    #[test]
    fn direction_to_known_hexes() {
        let o = Hex::ORIGIN;
        check("east", o.direction_to(h(5, 0)), Some(Direction::EAST));
        check(
            "north-east",
            o.direction_to(h(3, -3)),
            Some(Direction::NORTH_EAST),
        );
        check(
            "south-west",
            o.direction_to(h(-2, 2)),
            Some(Direction::SOUTH_WEST),
        );
        check(
            "north-west",
            o.direction_to(h(0, -7)),
            Some(Direction::NORTH_WEST),
        );
        check("same hex", o.direction_to(o), None);
        check("vertex direction", o.direction_to(h(1, 1)), None);
        check("off any line", o.direction_to(h(2, 1)), None);
    }

    #[test]
    fn straight_line_crosses_hexside_midpoints() {
        check(
            "east",
            line(h(0, 0), h(3, 0)),
            through(&[(0, 0), (1, 0), (2, 0), (3, 0)]),
        );
        check(
            "north-west",
            line(h(1, 1), h(1, -1)),
            through(&[(1, 1), (1, 0), (1, -1)]),
        );
        check("single hex", line(h(4, 4), h(4, 4)), through(&[(4, 4)]));
    }

    #[test]
    fn line_toward_a_vertex_runs_along_hexsides() {
        use LineStep::{Edge, Through};
        check(
            "south-east of east",
            line(h(0, 0), h(1, 1)),
            vec![Through(h(0, 0)), Edge(h(0, 1), h(1, 0)), Through(h(1, 1))],
        );
        check(
            "two vertex steps north",
            line(h(0, 0), h(2, -4)),
            vec![
                Through(h(0, 0)),
                Edge(h(0, -1), h(1, -1)),
                Through(h(1, -2)),
                Edge(h(1, -3), h(2, -3)),
                Through(h(2, -4)),
            ],
        );
        let grazing = line(h(0, 0), h(1, 1));
        check(
            "edge is not through",
            passes_through(&grazing, h(0, 1)),
            false,
        );
        check("edge touches", touches(&grazing, h(0, 1)), true);
        check("ends are through", passes_through(&grazing, h(1, 1)), true);
    }

    #[test]
    fn line_clips_corners_near_a_row_boundary() {
        // Distance 4, yet the line dips into both (-2, 1) and (-2, 0) as it
        // follows the zigzag boundary between the two rows.
        check(
            "six hexes for distance four",
            line(h(0, 0), h(-4, 1)),
            through(&[(0, 0), (-1, 0), (-2, 1), (-2, 0), (-3, 1), (-4, 1)]),
        );
    }

    #[test]
    fn line_through_a_vertex_skips_the_third_hex() {
        // The line to (4, 1) crosses the vertex shared by (1, 0), (2, 0) and
        // (1, 1) a third of the way along, going from (1, 0) into (2, 0):
        // (1, 1) is touched at that single point only.
        let steps = line(h(0, 0), h(4, 1));
        check("enters (1, 0)", passes_through(&steps, h(1, 0)), true);
        check("enters (2, 0)", passes_through(&steps, h(2, 0)), true);
        check(
            "point contact is not listed",
            touches(&steps, h(1, 1)),
            false,
        );
        check(
            "whole line",
            steps,
            through(&[(0, 0), (1, 0), (2, 0), (2, 1), (3, 1), (4, 1)]),
        );
    }

    #[test]
    fn entry_sides_known_shots() {
        let target = h(0, 0);
        check(
            "from east neighbour",
            entry_side(h(1, 0), target),
            Entry::Side(Direction::EAST),
        );
        check(
            "from far east",
            entry_side(h(7, 0), target),
            Entry::Side(Direction::EAST),
        );
        check(
            "from the south-east vertex",
            entry_side(h(1, 1), target),
            Entry::Corner(Direction::EAST, Direction::SOUTH_EAST),
        );
        check(
            "from the north-east vertex wraps",
            entry_side(h(2, -1), target),
            Entry::Corner(Direction::NORTH_EAST, Direction::EAST),
        );
        check(
            "just off the vertex",
            entry_side(h(4, 1), target),
            Entry::Side(Direction::EAST),
        );
        check("same hex", entry_side(target, target), Entry::Same);
        check(
            "struck on the starboard bow",
            struck_side(h(0, 3), target, Direction::EAST),
            Entry::Side(Direction::SOUTH_EAST),
        );
        check(
            "struck astern",
            struck_side(h(-3, 0), target, Direction::EAST),
            Entry::Side(Direction(3)),
        );
        check(
            "struck on the bow quarter vertex",
            struck_side(h(-1, -1), target, Direction::WEST),
            Entry::Corner(Direction(0), Direction(1)),
        );
    }

    #[test]
    fn bearings_known_targets() {
        let ship = h(2, 2);
        let east = Direction::EAST;
        check("bow", ahead_offset(ship, east, h(3, 2)), (1, 0));
        check("starboard bow", ahead_offset(ship, east, h(2, 3)), (1, 1));
        check(
            "starboard quarter",
            ahead_offset(ship, east, h(1, 3)),
            (-1, 1),
        );
        check("stern", ahead_offset(ship, east, h(1, 2)), (-1, 0));
        check("port quarter", ahead_offset(ship, east, h(2, 1)), (-1, -1));
        check("port bow", ahead_offset(ship, east, h(3, 1)), (1, -1));
        check("abeam", ahead_offset(ship, east, h(1, 4)), (0, 2));
        check("far lane", ahead_offset(ship, east, h(4, 5)), (4, 3));
        check("own hex", ahead_offset(ship, east, ship), (0, 0));
        let nw = Direction::NORTH_WEST;
        check(
            "facing north-west, dead ahead",
            ahead_offset(ship, nw, h(2, -1)),
            (3, 0),
        );
        check(
            "facing north-west, to port",
            ahead_offset(ship, nw, h(1, 1)),
            (2, -1),
        );
        check(
            "facing north-west, behind",
            ahead_offset(ship, nw, h(4, 2)),
            (-1, 2),
        );
        check("centre line", on_centre_line(ship, nw, h(2, -5)), true);
        check("beside the line", on_centre_line(ship, nw, h(1, -1)), false);
        check(
            "band holds bow neighbour",
            in_forward_band(ship, east, h(3, 1), 1),
            true,
        );
        check(
            "band holds lane 1",
            in_forward_band(ship, east, h(5, 1), 1),
            true,
        );
        check(
            "band excludes lane 2",
            in_forward_band(ship, east, h(5, 0), 1),
            false,
        );
        check(
            "band excludes abeam",
            in_forward_band(ship, east, h(1, 4), 2),
            false,
        );
        check(
            "band excludes behind",
            in_forward_band(ship, east, h(2, 1), 1),
            false,
        );
        check(
            "sector on a vertex",
            relative_bearing(ship, east, h(3, 3)).hexside,
            Entry::Corner(Direction(0), Direction(1)),
        );
        check(
            "sector astern",
            relative_bearing(ship, east, h(-5, 2)).hexside,
            Entry::Side(Direction(3)),
        );
    }

    #[test]
    fn rings_and_spirals() {
        let c = h(-3, 5);
        check("ring 0", ring(c, 0).collect::<Vec<_>>(), vec![c]);
        check(
            "ring 1 clockwise from east",
            ring(c, 1).collect::<Vec<_>>(),
            c.neighbours().to_vec(),
        );
        check("ring 2 first", ring(c, 2).next(), Some(h(-1, 5)));
        check("ring 2 second", ring(c, 2).nth(1), Some(h(-2, 6)));
        check("ring 3 size", ring(c, 3).count(), 18);
        check("within 3 size", hexes_within(c, 3).count(), 37);
        check("within 0", hexes_within(c, 0).collect::<Vec<_>>(), vec![c]);
    }

    #[test]
    fn extremes_do_not_panic() {
        let corners = [
            h(LARGE, LARGE),
            h(-LARGE, -LARGE),
            h(LARGE, -LARGE),
            h(-LARGE, LARGE),
        ];
        for &a in &corners {
            for &b in &corners {
                for f in Direction::ALL {
                    let bearing = relative_bearing(a, f, b);
                    check(
                        "sector agrees with frame",
                        bearing.hexside == Entry::Same,
                        a == b,
                    );
                    check("reversible", a.distance(b), b.distance(a));
                    check(
                        "direction_to only on lines",
                        a.direction_to(b).is_some(),
                        a != b && (a.q == b.q || a.r == b.r || a.s() == b.s()),
                    );
                }
            }
        }
        check(
            "saturated along",
            ahead_offset(h(-LARGE, -LARGE), Direction::EAST, h(LARGE, LARGE)),
            (i32::MAX, LARGE * 2),
        );
    }

    fn is_opposite(a: Entry, b: Entry) -> bool {
        match (a, b) {
            (Entry::Same, Entry::Same) => true,
            (Entry::Side(x), Entry::Side(y)) => x.opposite() == y,
            (Entry::Corner(x1, x2), Entry::Corner(y1, y2)) => {
                x1.opposite() == y1 && x2.opposite() == y2
            }
            _ => false,
        }
    }

    proptest! {
        #[test]
        fn distance_is_a_metric(a in any_hex(), b in any_hex(), c in any_hex()) {
            prop_assert_eq!(a.distance(b), b.distance(a));
            prop_assert_eq!(a.distance(b) == 0, a == b);
            let via = u64::from(a.distance(c)) + u64::from(c.distance(b));
            prop_assert!(u64::from(a.distance(b)) <= via);
        }

        #[test]
        fn neighbours_and_steps_are_at_their_distance(a in any_hex(), d in direction(), n in -1000i32..1000) {
            prop_assert_eq!(a.distance(a.neighbour(d)), 1);
            prop_assert_eq!(a.distance(a.step(d, n)), n.unsigned_abs());
            prop_assert_eq!(a.step(d, n).step(d, -n), a);
            prop_assert!(a.neighbours().iter().all(|&n| a.distance(n) == 1));
            prop_assert_eq!(a.neighbour(d).neighbour(d.opposite()), a);
        }

        #[test]
        fn direction_to_finds_every_straight_line(a in any_hex(), d in direction(), n in 1i32..1000) {
            prop_assert_eq!(a.direction_to(a.step(d, n)), Some(d));
            prop_assert_eq!(a.step(d, n).direction_to(a), Some(d.opposite()));
        }

        #[test]
        fn direction_to_agrees_with_the_grid(a in small_hex(), b in small_hex()) {
            let expected = Direction::ALL
                .into_iter()
                .find(|&d| a != b && a.step(d, a.distance(b) as i32) == b);
            prop_assert_eq!(a.direction_to(b), expected);
        }

        #[test]
        fn turning_is_modular(d in direction(), k in -100i32..100) {
            prop_assert_eq!(d.turn(6), d);
            prop_assert_eq!(d.turn(k).turn(-k), d);
            prop_assert_eq!(d.turn(k), d.turn(k + 6));
            prop_assert_eq!(Direction::from_index(k), Direction::from_index(k - 6));
            prop_assert_eq!(d.right().left(), d);
        }

        #[test]
        fn turns_between_is_consistent(a in direction(), b in direction()) {
            let t = a.turns_between(b);
            prop_assert!((-2..=3).contains(&t));
            prop_assert_eq!(a.turn(t), b);
            if t == 3 {
                prop_assert_eq!(b.turns_between(a), 3);
            } else {
                prop_assert_eq!(b.turns_between(a), -t);
            }
            prop_assert_eq!(b.relative_to(a).index() as i32, t.rem_euclid(6));
        }

        #[test]
        fn line_runs_from_start_to_end(a in small_hex(), b in small_hex()) {
            let steps = line(a, b);
            let n = a.distance(b) as usize;
            prop_assert_eq!(steps.first().copied(), Some(LineStep::Through(a)));
            prop_assert_eq!(steps.last().copied(), Some(LineStep::Through(b)));
            prop_assert!(steps.len() > n && steps.len() <= 2 * n + 1);
            let has_edge = steps.iter().any(|s| matches!(s, LineStep::Edge(..)));
            if has_edge || a.direction_to(b).is_some() {
                prop_assert_eq!(steps.len(), n + 1);
            }
            for hex in steps.iter().flat_map(|s| s.hexes()) {
                prop_assert!(hex.distance(a) as usize <= n && hex.distance(b) as usize <= n);
            }
        }

        #[test]
        fn line_is_connected(a in small_hex(), b in small_hex()) {
            let steps = line(a, b);
            for pair in steps.windows(2) {
                for x in pair[0].hexes() {
                    for y in pair[1].hexes() {
                        prop_assert_eq!(x.distance(y), 1, "{:?}", pair);
                    }
                }
            }
            for step in &steps {
                if let LineStep::Edge(x, y) = *step {
                    prop_assert!(x < y && x.distance(y) == 1);
                }
            }
        }

        #[test]
        fn line_is_symmetric(a in small_hex(), b in small_hex()) {
            let mut back = line(b, a);
            back.reverse();
            prop_assert_eq!(&line(a, b), &back);
            let there: BTreeSet<Hex> = line(a, b).iter().flat_map(|s| s.hexes()).collect();
            let home: BTreeSet<Hex> = line(b, a).iter().flat_map(|s| s.hexes()).collect();
            prop_assert_eq!(there, home);
        }

        #[test]
        fn line_matches_exhaustive_search(a in small_hex(), b in small_hex()) {
            let walked: Vec<Hex> = line(a, b)
                .into_iter()
                .filter_map(|s| match s {
                    LineStep::Through(hex) => Some(hex),
                    LineStep::Edge(..) => None,
                })
                .collect();
            prop_assert_eq!(walked, brute_force_through(a, b));
        }

        #[test]
        fn line_is_the_same_anywhere_on_the_map(a in any_hex(), q in -SMALL..=SMALL, r in -SMALL..=SMALL) {
            let offset = Hex::new(q, r);
            let shifted: Vec<LineStep> = line(Hex::ORIGIN, offset)
                .into_iter()
                .map(|step| match step {
                    LineStep::Through(x) => LineStep::Through(x + a),
                    LineStep::Edge(x, y) => LineStep::Edge(x + a, y + a),
                })
                .collect();
            prop_assert_eq!(line(a, a + offset), shifted);
        }

        #[test]
        fn line_along_a_hexside_direction_is_the_straight_row(a in small_hex(), d in direction(), n in 0i32..30) {
            let expected: Vec<LineStep> = (0..=n).map(|i| LineStep::Through(a.step(d, i))).collect();
            prop_assert_eq!(line(a, a.step(d, n)), expected);
        }

        #[test]
        fn entry_from_a_neighbour_is_that_hexside(a in any_hex(), d in direction(), n in 1i32..1000) {
            prop_assert_eq!(entry_side(a.neighbour(d), a), Entry::Side(d));
            prop_assert_eq!(entry_side(a.step(d, n), a), Entry::Side(d));
        }

        #[test]
        fn entry_sides_face_each_other(a in any_hex(), b in any_hex()) {
            prop_assert!(is_opposite(entry_side(a, b), entry_side(b, a)));
        }

        #[test]
        fn entry_agrees_with_the_last_step_of_the_line(a in small_hex(), b in small_hex()) {
            prop_assume!(a != b);
            let steps = line(a, b);
            let entry = entry_side(a, b);
            match steps[steps.len() - 2] {
                LineStep::Through(prev) => {
                    prop_assert_eq!(entry, Entry::Side(b.direction_to(prev).unwrap_or(Direction::EAST)));
                }
                LineStep::Edge(x, y) => {
                    prop_assert!(matches!(entry, Entry::Corner(..)), "{:?}", entry);
                    if let Entry::Corner(l, r) = entry {
                        let sides: BTreeSet<Hex> = [b.neighbour(l), b.neighbour(r)].into();
                        prop_assert_eq!(sides, [x, y].into());
                    }
                }
            }
        }

        #[test]
        fn straight_ahead_is_the_centre_line(a in any_hex(), f in direction(), n in 1i32..1000) {
            let target = a.step(f, n);
            prop_assert!(on_centre_line(a, f, target));
            prop_assert_eq!(ahead_offset(a, f, target), (n, 0));
            prop_assert_eq!(ahead_offset(a, f, a.step(f, -n)), (-n, 0));
            prop_assert!(!on_centre_line(a, f.opposite(), target));
            prop_assert!(in_forward_band(a, f, target, 0));
        }

        #[test]
        fn a_rotation_is_that_many_sixths_one_at_a_time(q in -1000i64..1000, r in -1000i64..1000, k in -13i32..13) {
            let c = [q, r, -q - r];
            let stepped = (0..k.rem_euclid(6)).fold(c, |[q, r, s], _| [-r, -s, -q]);
            prop_assert_eq!(rotate_cube(c, k), stepped);
        }

        #[test]
        fn bearing_turns_with_the_ship(a in small_hex(), b in small_hex(), f in direction(), k in -6i32..6) {
            let turned = b.rotate_around(a, k);
            prop_assert_eq!(
                relative_bearing(a, f, b),
                relative_bearing(a, f.turn(k), turned)
            );
        }

        #[test]
        fn bearing_mirrors_across_the_centre_line(a in small_hex(), b in small_hex()) {
            // Mirroring in the east-west axis maps (q, r) to (q + r, -r).
            let offset = b - a;
            let mirrored = a + Hex::new(offset.q + offset.r, -offset.r);
            let (along, across) = ahead_offset(a, Direction::EAST, b);
            prop_assert_eq!(ahead_offset(a, Direction::EAST, mirrored), (along, -across));
        }

        #[test]
        fn bow_sector_is_ahead(a in small_hex(), b in small_hex(), f in direction()) {
            let bearing = relative_bearing(a, f, b);
            if bearing.hexside == Entry::Side(Direction(0)) {
                prop_assert!(bearing.is_ahead());
            }
            if bearing.hexside == Entry::Side(Direction(3)) {
                prop_assert!(bearing.is_behind());
            }
            prop_assert_eq!(bearing.along == 0 && bearing.across == 0, a == b);
        }

        #[test]
        fn rings_hold_exactly_the_hexes_at_their_radius(c in small_hex(), radius in 0u32..12) {
            let hexes: Vec<Hex> = ring(c, radius).collect();
            prop_assert_eq!(hexes.len(), if radius == 0 { 1 } else { 6 * radius as usize });
            prop_assert!(hexes.iter().all(|h| c.distance(*h) == radius));
            let distinct: BTreeSet<Hex> = hexes.iter().copied().collect();
            prop_assert_eq!(distinct.len(), hexes.len());
            for pair in hexes.windows(2) {
                prop_assert_eq!(pair[0].distance(pair[1]), 1);
            }
            let area: BTreeSet<Hex> = hexes_within(c, radius).collect();
            prop_assert_eq!(area.len(), 3 * (radius * (radius + 1)) as usize + 1);
        }
    }
}

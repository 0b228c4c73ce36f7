//! Line of sight and facing on the hex map: what blocks a line, which side of a target a shot strikes, and which modules bear.
//!
//! A line runs from hex centre to hex centre (core's `hex::line`). Only a hex
//! the line passes *through* blocks it, and only when it holds an object
//! that blocks (asteroids, moons, planets, stars); a line running along a
//! hexside blocks nothing. A module ship has four sides on six hexsides:
//! fore and aft one hexside each, port and starboard two each. A line
//! through a hex corner between two sides lets the firer choose; in the same
//! hex the firer chooses any side.

use broadside_core::hex::{self, Direction, Entry, Hex, LineStep};
use serde::Serialize;

use crate::ModuleGrid;
use crate::model::{ModuleIx, ShipClass, ShipSide, SideSet};

/// An object on the map, by its kind's index in [`crate::Rules::objects`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct MapObject {
    /// Where it is.
    pub hex: Hex,
    /// Its kind.
    pub kind: u8,
}

/// What a line of sight found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sight {
    /// Nothing blocks the line.
    Clear,
    /// The first object that blocks it, with the hex the line passes through.
    Blocked(MapObject),
}

impl ModuleGrid {
    /// Whether the line from the centre of `from` to the centre of `to` is
    /// clear of blocking objects. The two end hexes never block (a ruling:
    /// the line starts and ends at their centres), and a hex the line only
    /// runs along the edge of does not block.
    pub fn line_of_sight(&self, from: Hex, to: Hex, objects: &[MapObject]) -> Sight {
        let blocking = |h: Hex| {
            objects.iter().copied().find(|o| {
                o.hex == h
                    && self
                        .rules
                        .objects
                        .get(usize::from(o.kind))
                        .is_some_and(|k| k.blocks)
            })
        };
        // Most maps hold nothing that blocks; then no line need be drawn.
        if !objects.iter().any(|o| {
            self.rules
                .objects
                .get(usize::from(o.kind))
                .is_some_and(|k| k.blocks)
        }) {
            return Sight::Clear;
        }
        for step in hex::line(from, to) {
            if let LineStep::Through(h) = step
                && h != from
                && h != to
                && let Some(object) = blocking(h)
            {
                return Sight::Blocked(object);
            }
        }
        Sight::Clear
    }
}

/// The ship sides a relative hexside entry stands for: one side through a
/// hexside, the two sides meeting at a corner (one when both hexsides
/// belong to the same side), every side in the same hex.
pub fn sides_of_entry(entry: Entry) -> SideSet {
    match entry {
        Entry::Same => SideSet::ALL,
        Entry::Side(d) => ShipSide::of_hexside(d.index()).bit(),
        Entry::Corner(a, b) => SideSet(
            ShipSide::of_hexside(a.index()).bit().0 | ShipSide::of_hexside(b.index()).bit().0,
        ),
    }
}

/// The sides of a target at `target`, facing `target_facing`, that a shot
/// from `shooter` may strike: one, or two at a corner where the firer
/// chooses, or all four in the same hex.
pub fn sides_struck(shooter: Hex, target: Hex, target_facing: Direction) -> SideSet {
    sides_of_entry(hex::struck_side(shooter, target, target_facing))
}

/// The sides of a ship at `from`, facing `facing`, through which the line
/// to `to` leaves: one, or two at a corner, or all four in the same hex.
pub fn sides_toward(from: Hex, facing: Direction, to: Hex) -> SideSet {
    sides_of_entry(hex::entry_side(to, from).relative_to(facing))
}

/// Whether a module of a class has facing toward any of `sides`: it is the
/// first module of its row or column from one of them.
pub fn bears(class: &ShipClass, module: ModuleIx, sides: SideSet) -> bool {
    class
        .modules
        .get(usize::from(module))
        .is_some_and(|m| m.exposed.meets(sides))
}

/// The arc of a module in degrees: 60 for each hexside whose side it faces.
pub fn arc_degrees(class: &ShipClass, module: ModuleIx) -> u32 {
    (0..6)
        .filter(|&h| bears(class, module, ShipSide::of_hexside(h).bit()))
        .count() as u32
        * 60
}

//! Where each side's ships start: a formation around the side's lead ship, or hexes given one per ship.
//!
//! The seed places no ships: set-up is a ruling, and every number here is a
//! side option (`--a-formation`, `--b-spacing`, `positions = "..."` in a
//! scenario's side table). The lead ship (the first named) of side A starts
//! at (0, 0) and side B's `start-range` hexes east, so a duel starts exactly
//! where it always has. The other ships of a side take their places from
//! the lead:
//! - `line` (the default): abreast, down the page from the lead, `spacing`
//!   hexes apart. With an even spacing every ship of A starts exactly
//!   `start-range` hexes from the ship of B in the same place in its list.
//! - `column`: one behind another, astern of the lead, `spacing` apart.
//! - `stack`: every ship in the lead's hex (a shared hex is legal, and shows
//!   what an explosion does to a crowded hex).
//! - `positions`: one axial hex per ship, in list order, overriding the
//!   formation.

use broadside_core::hex::{Direction, Hex};
use broadside_core::{OptionKind, OptionSpec, Options, ResolveError, Side};

use crate::engagement::Pose;

/// The names a side's facing may be given by, in direction order (0 east,
/// clockwise).
pub const FACINGS: [&str; 6] = [
    "east",
    "south-east",
    "south-west",
    "west",
    "north-west",
    "north-east",
];

/// How a side's ships stand around their lead ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Formation {
    /// Abreast, down the page from the lead.
    #[default]
    Line,
    /// One behind another, astern of the lead.
    Column,
    /// All in the lead's hex.
    Stack,
}

impl Formation {
    /// The formation's option value.
    pub const fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Stack => "stack",
        }
    }
}

/// Hexes between neighbours of a line or column unless a side says otherwise:
/// a Size 2 ship's explosion (2, less one a hex) dies out before it reaches
/// a neighbour two hexes off, and a destroyer's reaches it at power 1.
pub const DEFAULT_SPACING: u32 = 2;

/// One side's set-up.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Placement {
    /// How the ships stand around the lead.
    pub formation: Formation,
    /// Hexes between neighbours in a line or column.
    pub spacing: u32,
    /// Explicit hexes, one per ship in list order; overrides the formation.
    pub positions: Option<Vec<Hex>>,
    /// The facing of every ship of the side; `None` faces the other side
    /// (A east, B west).
    pub facing: Option<Direction>,
}

/// The set-up each side may be given: the CLI turns these into
/// `--a-NAME`/`--b-NAME` flags, and a scenario into keys of the side's table.
pub const SIDE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "formation",
        value_name: "FORMATION",
        help: "how the side's ships stand around its first ship: line (abreast, down the page), column (astern) or stack (one hex); default line",
        kind: OptionKind::Choice(&["line", "column", "stack"]),
        required: false,
    },
    OptionSpec {
        name: "spacing",
        value_name: "HEXES",
        help: "hexes between neighbouring ships of a line or column (default 2)",
        kind: OptionKind::Number { min: 0, max: 20 },
        required: false,
    },
    OptionSpec {
        name: "positions",
        value_name: "HEXES",
        help: "each ship's starting hex as Q,R axial pairs separated by spaces, in the order the ships are named; overrides the formation",
        kind: OptionKind::Text,
        required: false,
    },
    OptionSpec {
        name: "facing",
        value_name: "DIRECTION",
        help: "the way every ship of the side points at the start (default: A east, B west)",
        kind: OptionKind::Choice(&FACINGS),
        required: false,
    },
];

impl Placement {
    /// The set-up a side's options give, for a side of `ships` ships. Every
    /// value is checked: a position list of the wrong length or a hex off
    /// any sensible map is refused.
    pub fn from_options(
        options: &Options,
        side: Side,
        ships: usize,
    ) -> Result<Placement, ResolveError> {
        // Problems are reported under the command line's name for the
        // option (`a-positions`), which also says which side it was.
        let key = |name: &str| format!("{}-{name}", side.to_string().to_ascii_lowercase());
        let formation = match options.text("formation") {
            None | Some("line") => Formation::Line,
            Some("column") => Formation::Column,
            Some("stack") => Formation::Stack,
            Some(other) => {
                return Err(ResolveError::unknown(
                    "formation",
                    other,
                    ["line", "column", "stack"],
                ));
            }
        };
        let spacing = options.count_or("spacing", DEFAULT_SPACING)?;
        if spacing > 20 {
            return Err(ResolveError::bad_option(
                &key("spacing"),
                format!("{spacing} is outside 0..=20"),
            ));
        }
        let facing = match options.text("facing") {
            None => None,
            Some(name) => Some(
                FACINGS
                    .iter()
                    .position(|f| *f == name)
                    .map(|i| Direction::ALL[i])
                    .ok_or_else(|| ResolveError::unknown("facing", name, FACINGS))?,
            ),
        };
        let positions = match options.text("positions") {
            None => None,
            Some(text) => {
                let hexes = parse_hexes(text, &key("positions"))?;
                if hexes.len() != ships {
                    return Err(ResolveError::bad_option(
                        &key("positions"),
                        format!(
                            "side {side} has {ships} ship{} but {} position{} {} given",
                            if ships == 1 { "" } else { "s" },
                            hexes.len(),
                            if hexes.len() == 1 { "" } else { "s" },
                            if hexes.len() == 1 { "is" } else { "are" },
                        ),
                    ));
                }
                Some(hexes)
            }
        };
        Ok(Placement {
            formation,
            spacing,
            positions,
            facing,
        })
    }

    /// The starting poses of a side of `ships` ships whose lead starts at
    /// `lead`.
    pub fn poses(&self, side: Side, lead: Hex, ships: usize) -> Vec<Pose> {
        let facing = self.facing.unwrap_or(match side {
            Side::A => Direction::EAST,
            Side::B => Direction::WEST,
        });
        (0..ships)
            .map(|i| {
                // A position list is checked against the side's size when it
                // is read; one built by hand and too short leaves the rest of
                // the side in formation rather than failing.
                let hex = match self.positions.as_ref().and_then(|hexes| hexes.get(i)) {
                    Some(&hex) => hex,
                    None => self.formation_hex(lead, facing, i),
                };
                Pose { hex, facing }
            })
            .collect()
    }

    /// Ship `i`'s hex in the formation.
    fn formation_hex(&self, lead: Hex, facing: Direction, i: usize) -> Hex {
        // Spacing is at most 20 and a side at most a few dozen ships, so the
        // offset is far inside i32.
        let k = i32::try_from(i).unwrap_or(i32::MAX / 64) * self.spacing as i32;
        match self.formation {
            // Down the page: alternate south-east and south-west steps, which
            // stay on one column of the printed map; half of them (rounded
            // down) south-west.
            Formation::Line => lead
                .step(Direction::SOUTH_EAST, k - k / 2)
                .step(Direction::SOUTH_WEST, k / 2),
            Formation::Column => lead.step(facing.opposite(), k),
            Formation::Stack => lead,
        }
    }
}

/// Reads hexes written `Q,R`, separated by spaces or semicolons, for the
/// option `option`; a coordinate beyond 1000 either way is refused.
pub fn parse_hexes(text: &str, option: &str) -> Result<Vec<Hex>, ResolveError> {
    let mut out = Vec::new();
    for part in text.split([' ', ';']).filter(|p| !p.trim().is_empty()) {
        let bad = || {
            ResolveError::bad_option(
                option,
                format!("'{part}' is not a hex written Q,R (axial coordinates)"),
            )
        };
        let (q, r) = part.split_once(',').ok_or_else(bad)?;
        let q: i32 = q.trim().parse().map_err(|_| bad())?;
        let r: i32 = r.trim().parse().map_err(|_| bad())?;
        if q.unsigned_abs() > 1000 || r.unsigned_abs() > 1000 {
            return Err(bad());
        }
        out.push(Hex::new(q, r));
    }
    Ok(out)
}

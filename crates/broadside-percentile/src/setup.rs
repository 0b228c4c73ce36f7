//! Each side's set-up before play: where its ships stand, which way they
//! face and how fast they go, and the mines and seekers it places.
//!
//! A side's set-up is read from its side options (`--a-formation line`, or
//! `formation = "line"` in a scenario's side table); whatever is not given
//! takes the default of ruling 21: side A at (0, 0) facing east, side B
//! `start-range` hexes east facing west, every ship stopped and stacked in
//! its side's start hex, nothing placed.

use broadside_core::hex::{Direction, Hex};
use broadside_core::{OptionKind, OptionSpec, Options, ResolveError, Side};

/// The formations a side may start in.
const FORMATIONS: &[&str] = &["stack", "line", "column"];
/// Facings by name, in the order of their index (0 east, then clockwise).
const FACINGS: &[&str] = &["e", "se", "sw", "w", "nw", "ne"];

/// The most mine patterns, and the most seekers, one side may place before
/// play: as many as a side may field ships, which keeps a scenario's list
/// readable and the battle state small.
pub const MAX_PLACED: usize = broadside_core::MAX_SIDE;

/// How far from the origin, in either axial coordinate, a start hex or a
/// placed mine or seeker may lie: far beyond any weapon's range, and small
/// enough that no hex arithmetic of a battle can overflow.
pub const MAX_COORDINATE: i32 = 1000;

/// The set-up each side may be given on its own.
pub(crate) const SIDE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "formation",
        value_name: "FORMATION",
        help: "how the side's ships stand: stack (all in the start hex, the default), line \
               (abreast) or column (one astern of another)",
        kind: OptionKind::Choice(FORMATIONS),
        required: false,
    },
    OptionSpec {
        name: "spacing",
        value_name: "N",
        help: "hexes between neighbours of a line or column (default 1)",
        kind: OptionKind::Number { min: 1, max: 6 },
        required: false,
    },
    OptionSpec {
        name: "start",
        value_name: "Q,R",
        help: "the side's start hex, in axial coordinates (default 0,0 for side A, \
               START-RANGE,0 for side B)",
        kind: OptionKind::Text,
        required: false,
    },
    OptionSpec {
        name: "facing",
        value_name: "DIR",
        help: "the way the side's ships face at the start (default e for side A, w for side B)",
        kind: OptionKind::Choice(FACINGS),
        required: false,
    },
    OptionSpec {
        name: "speed",
        value_name: "N",
        help: "every ship's speed at the start, in hexes a turn (default 0)",
        kind: OptionKind::Number { min: 0, max: 50 },
        required: false,
    },
    OptionSpec {
        name: "mines",
        value_name: "Q,R;...",
        help: "hexes the side mines before play, one pattern each (Q,R;Q,R); the defending side only",
        kind: OptionKind::Text,
        required: false,
    },
    OptionSpec {
        name: "seekers",
        value_name: "Q,R;...",
        help: "hexes where the side places a seeker missile before play, waiting to be activated \
               (Q,R;Q,R); the defending side only",
        kind: OptionKind::Text,
        required: false,
    },
];

/// How a side's ships stand around its start hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Formation {
    /// Every ship in the start hex.
    #[default]
    Stack,
    /// Abreast: the first ship in the start hex, the others alternately to
    /// its left and right, `spacing` hexes further out each pair.
    Line,
    /// One behind another, `spacing` hexes apart, the first in the start hex.
    Column,
}

/// One side's set-up, read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideSetup {
    /// Where its ships stand around the start hex.
    pub formation: Formation,
    /// Hexes between neighbours of a line or column.
    pub spacing: u32,
    /// Its start hex.
    pub start: Hex,
    /// The way its ships face.
    pub facing: Direction,
    /// Its ships' speed.
    pub speed: u32,
    /// Hexes it mines before play.
    pub mines: Vec<Hex>,
    /// Hexes where it places a waiting seeker before play.
    pub seekers: Vec<Hex>,
}

impl SideSetup {
    /// A side's set-up with nothing given: ruling 21's start.
    pub fn default_for(side: Side, start_range: i32) -> SideSetup {
        let (start, facing) = match side {
            Side::A => (Hex::ORIGIN, Direction::EAST),
            Side::B => (
                Hex::ORIGIN.step(Direction::EAST, start_range),
                Direction::WEST,
            ),
        };
        SideSetup {
            formation: Formation::Stack,
            spacing: 1,
            start,
            facing,
            speed: 0,
            mines: Vec::new(),
            seekers: Vec::new(),
        }
    }

    /// A side's set-up from its side options; a problem is reported under
    /// the option's command-line name (`a-mines`).
    pub fn read(
        side: Side,
        options: &Options,
        start_range: i32,
    ) -> Result<SideSetup, ResolveError> {
        let prefix = match side {
            Side::A => "a-",
            Side::B => "b-",
        };
        let named = |name: &str| format!("{prefix}{name}");
        options.validate(SIDE_OPTIONS).map_err(|e| match e {
            ResolveError::BadOption { option, message } => ResolveError::BadOption {
                option: named(&option),
                message,
            },
            other => other,
        })?;
        let mut setup = SideSetup::default_for(side, start_range);
        if let Some(formation) = options.text("formation") {
            setup.formation = match formation {
                "line" => Formation::Line,
                "column" => Formation::Column,
                _ => Formation::Stack,
            };
        }
        if let Some(spacing) = options.number("spacing")? {
            setup.spacing = u32::try_from(spacing)
                .map_err(|_| ResolveError::bad_option(&named("spacing"), "must be positive"))?;
        }
        if let Some(start) = options.text("start") {
            setup.start = read_hex(start).map_err(|why| {
                ResolveError::bad_option(&named("start"), format!("'{start}': {why}"))
            })?;
        }
        if let Some(facing) = options.text("facing") {
            let index = FACINGS.iter().position(|f| *f == facing).unwrap_or(0);
            setup.facing = Direction::from_index(i32::try_from(index).unwrap_or(0));
        }
        if let Some(speed) = options.number("speed")? {
            setup.speed = u32::try_from(speed)
                .map_err(|_| ResolveError::bad_option(&named("speed"), "must not be negative"))?;
        }
        if let Some(mines) = options.text("mines") {
            setup.mines =
                read_hexes(mines).map_err(|why| ResolveError::bad_option(&named("mines"), why))?;
        }
        if let Some(seekers) = options.text("seekers") {
            setup.seekers = read_hexes(seekers)
                .map_err(|why| ResolveError::bad_option(&named("seekers"), why))?;
        }
        Ok(setup)
    }

    /// Where the side's `k`th ship (from 0, in roster order) starts.
    pub fn place(&self, k: usize) -> Hex {
        let k = i32::try_from(k).unwrap_or(i32::MAX / 8);
        let spacing = i32::try_from(self.spacing).unwrap_or(1);
        match self.formation {
            Formation::Stack => self.start,
            Formation::Column => self.start.step(self.facing.opposite(), spacing * k),
            Formation::Line if k == 0 => self.start,
            Formation::Line => {
                // Odd ships to the left, even ones to the right, each pair a
                // spacing further out. A row straight across the facing is
                // not a hex direction, so it is walked as alternate steps
                // half forward and half back (the two hexsides either side
                // of abeam), which keeps the line square to the facing.
                let rows = spacing * ((k + 1) / 2);
                let way = if k % 2 == 1 { -1 } else { 1 };
                self.start
                    .step(self.facing.turn(way), (rows + 1) / 2)
                    .step(self.facing.turn(2 * way), rows / 2)
            }
        }
    }
}

/// Reads `q,r` as a hex within [`MAX_COORDINATE`] of the origin.
fn read_hex(text: &str) -> Result<Hex, String> {
    let mut parts = text.split(',').map(str::trim);
    let (Some(q), Some(r), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err("write a hex as Q,R (two whole numbers, such as 6,-1)".into());
    };
    let coordinate = |c: &str| -> Result<i32, String> {
        c.parse::<i32>()
            .ok()
            .filter(|n| n.abs() <= MAX_COORDINATE)
            .ok_or_else(|| {
                format!("'{c}' is not a whole number from -{MAX_COORDINATE} to {MAX_COORDINATE}")
            })
    };
    Ok(Hex::new(coordinate(q)?, coordinate(r)?))
}

/// Reads `q,r;q,r` as distinct hexes, at most [`MAX_PLACED`] of them.
fn read_hexes(text: &str) -> Result<Vec<Hex>, String> {
    let mut hexes = Vec::new();
    for entry in text.split(';').map(str::trim) {
        if entry.is_empty() {
            return Err(format!(
                "'{text}' has an empty entry: write hexes as Q,R separated by semicolons"
            ));
        }
        let hex = read_hex(entry).map_err(|why| format!("'{entry}': {why}"))?;
        if hexes.contains(&hex) {
            return Err(format!("{hex} is listed twice: one placement per hex"));
        }
        hexes.push(hex);
        if hexes.len() > MAX_PLACED {
            return Err(format!("at most {MAX_PLACED} hexes a side"));
        }
    }
    Ok(hexes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use broadside_core::OptionValue;

    fn read(side: Side, options: &[(&str, &str)]) -> Result<SideSetup, ResolveError> {
        let mut given = Options::new();
        for (name, value) in options {
            let value = match value.parse::<i64>() {
                Ok(n) if *name == "spacing" || *name == "speed" => OptionValue::Number(n),
                _ => OptionValue::Text((*value).to_owned()),
            };
            given.set(name, value);
        }
        SideSetup::read(side, &given, 12)
    }

    #[test]
    fn nothing_given_is_ruling_21s_start() {
        let a = read(Side::A, &[]).unwrap();
        assert_eq!(
            (a.start, a.facing, a.speed),
            (Hex::ORIGIN, Direction::EAST, 0)
        );
        let b = read(Side::B, &[]).unwrap();
        assert_eq!((b.start, b.facing), (Hex::new(12, 0), Direction::WEST));
        assert_eq!(
            (0..4).map(|k| b.place(k)).collect::<Vec<_>>(),
            [Hex::new(12, 0); 4]
        );
        assert!(b.mines.is_empty() && b.seekers.is_empty());
    }

    /// A column runs straight astern; a line runs square across the facing,
    /// alternately left and right, each pair a spacing further out.
    #[test]
    fn formations_place_ships_around_the_start() {
        let column = read(Side::A, &[("formation", "column"), ("spacing", "2")]).unwrap();
        assert_eq!(
            (0..3).map(|k| column.place(k)).collect::<Vec<_>>(),
            [Hex::new(0, 0), Hex::new(-2, 0), Hex::new(-4, 0)]
        );
        let line = read(Side::A, &[("formation", "line")]).unwrap();
        let placed: Vec<Hex> = (0..5).map(|k| line.place(k)).collect();
        assert_eq!(
            placed,
            [
                Hex::new(0, 0),
                Hex::new(1, -1),
                Hex::new(0, 1),
                Hex::new(1, -2),
                Hex::new(-1, 2)
            ]
        );
        for (k, hex) in placed.iter().enumerate() {
            assert_eq!(
                Hex::ORIGIN.distance(*hex) as usize,
                k.div_ceil(2),
                "ship {k} stands its rank from the first"
            );
        }
        let facing_west = read(
            Side::B,
            &[("formation", "line"), ("start", "5, -1"), ("facing", "w")],
        )
        .unwrap();
        assert_eq!(facing_west.place(1), Hex::new(4, 0));
        assert_eq!(facing_west.place(2), Hex::new(5, -2));
    }

    #[test]
    fn placed_mines_and_seekers_are_read_as_hex_lists() {
        let setup = read(Side::B, &[("mines", "6,0; 6,-1;5,1"), ("seekers", "8,0")]).unwrap();
        assert_eq!(
            setup.mines,
            [Hex::new(6, 0), Hex::new(6, -1), Hex::new(5, 1)]
        );
        assert_eq!(setup.seekers, [Hex::new(8, 0)]);
        let too_many: Vec<String> = (0..=MAX_PLACED).map(|q| format!("{q},0")).collect();
        for (options, fragment) in [
            (
                ("mines", "6,0;6,0".to_owned()),
                "--b-mines: (6, 0) is listed twice",
            ),
            (
                ("mines", "6,0;".to_owned()),
                "--b-mines: '6,0;' has an empty entry",
            ),
            (
                ("seekers", "6".to_owned()),
                "--b-seekers: '6': write a hex as Q,R",
            ),
            (
                ("seekers", "x,1".to_owned()),
                "--b-seekers: 'x,1': 'x' is not a whole number",
            ),
            (
                ("start", "1,2,3".to_owned()),
                "--b-start: '1,2,3': write a hex as Q,R",
            ),
            (
                ("start", "0,1001".to_owned()),
                "'1001' is not a whole number from -1000 to 1000",
            ),
            (
                ("mines", too_many.join(";")),
                "--b-mines: at most 24 hexes a side",
            ),
            (
                ("formation", "wedge".to_owned()),
                "unknown formation 'wedge'",
            ),
            (("ships", "frigate".to_owned()), "unknown option 'ships'"),
        ] {
            let error = read(Side::B, &[(options.0, options.1.as_str())]).unwrap_err();
            assert!(error.to_string().contains(fragment), "{error}");
        }
    }
}

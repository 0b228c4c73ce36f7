//! Text pictures of ship layouts: the modules, the centre mark, Broken markers, and where a hit's dice landed.
//!
//! The bow is at the top and port on the left, rows and columns numbered as
//! on the command line. Each square is seven characters:
//!
//! ```text
//!   >Cn!4    > the module of impact (+ the centre mark or called point)
//!            Cn the module's two-letter code (. an empty square)
//!            !  one Broken marker (# two: slagged)
//!            4  the die laid on it (or, on a ship sheet, its occupants)
//! ```
//!
//! Arrows outside the grid mark the row or column a hit came in along.

use crate::model::{ModuleIx, Rules, ShipClass, ShipSide, Square};
use crate::ship::Ship;

/// What to draw on a layout besides its modules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// Dice laid on modules, in laying order.
    pub dice: Vec<(ModuleIx, u8)>,
    /// The module of impact.
    pub impact: Option<ModuleIx>,
    /// The side struck and the row or column (0-based) the hit came in along.
    pub entry: Option<(ShipSide, i32)>,
    /// The point used as the "7".
    pub centre: Option<Square>,
    /// Show each module's occupants where a die would go.
    pub occupants: bool,
}

const CELL: usize = 7;

/// Draws a layout, with a ship's Broken markers when a state is given.
pub fn draw(rules: &Rules, class: &ShipClass, ship: Option<&Ship>, marks: &Marks) -> Vec<String> {
    let rows = i32::from(class.rows);
    let cols = i32::from(class.cols);
    let mut lines = Vec::with_capacity(class.rows as usize + 4);
    let entry_col = marks.entry.filter(|(side, _)| side.along_columns());
    let entry_row = marks.entry.filter(|(side, _)| !side.along_columns());

    let mut header = String::from("      ");
    for c in 0..cols {
        header.push_str(&format!("{:^CELL$}", c + 1));
    }
    lines.push(trimmed(header));
    if let Some((ShipSide::Fore, line)) = entry_col
        && (0..cols).contains(&line)
    {
        lines.push(trimmed(arrow_row(cols, line, 'v')));
    }
    for r in 0..rows {
        let mut text = format!("{:>3} ", r + 1);
        text.push_str(match entry_row {
            Some((ShipSide::Port, line)) if line == r => "->",
            _ => "  ",
        });
        for c in 0..cols {
            text.push_str(&cell(rules, class, ship, marks, r, c));
        }
        if let Some((ShipSide::Starboard, line)) = entry_row
            && line == r
        {
            text.push_str("<-");
        }
        lines.push(trimmed(text));
    }
    if let Some((ShipSide::Aft, line)) = entry_col
        && (0..cols).contains(&line)
    {
        lines.push(trimmed(arrow_row(cols, line, '^')));
    }
    if let Some((side, line)) = marks.entry {
        let (what, count) = if side.along_columns() {
            ("column", cols)
        } else {
            ("row", rows)
        };
        if line < 0 || line >= count {
            lines.push(format!(
                "the hit came in along {what} {}, off the layout",
                line + 1
            ));
        }
    }
    lines
}

/// The arrow row above or below the grid, pointing at column `line`.
fn arrow_row(cols: i32, line: i32, arrow: char) -> String {
    let mut text = String::from("      ");
    for c in 0..cols {
        if c == line {
            text.push_str(&format!("{:^CELL$}", arrow));
        } else {
            text.push_str(&" ".repeat(CELL));
        }
    }
    text
}

fn cell(
    rules: &Rules,
    class: &ShipClass,
    ship: Option<&Ship>,
    marks: &Marks,
    r: i32,
    c: i32,
) -> String {
    let Some(module) = class.module_at_signed(r, c) else {
        return format!("{:^CELL$}", ".");
    };
    let square = class.modules[usize::from(module)].at;
    let lead = if marks.impact == Some(module) {
        '>'
    } else if marks.centre == Some(square) {
        '+'
    } else {
        ' '
    };
    let code = &rules.module_type(class, module).code;
    let marker = match ship.map_or(0, |s| s.markers(module)) {
        0 => ' ',
        1 => '!',
        _ => '#',
    };
    let mut dice = marks
        .dice
        .iter()
        .filter(|(m, _)| *m == module)
        .map(|(_, f)| f.to_string());
    let last = match dice.next() {
        Some(first) => match dice.next() {
            Some(_) => format!("{first}+"),
            None => first,
        },
        None if marks.occupants => {
            let n = class.modules[usize::from(module)].occupants;
            if n > 0 { n.to_string() } else { String::new() }
        }
        None => String::new(),
    };
    format!("{:<CELL$}", format!(" {lead}{code}{marker}{last}"))
}

fn trimmed(mut text: String) -> String {
    let len = text.trim_end().len();
    text.truncate(len);
    text
}

/// The legend of the module codes a layout uses.
pub fn legend(rules: &Rules, class: &ShipClass) -> String {
    let mut seen: Vec<usize> = Vec::new();
    for m in &class.modules {
        let kind = usize::from(m.kind);
        if !seen.contains(&kind) {
            seen.push(kind);
        }
    }
    let parts: Vec<String> = seen
        .iter()
        .map(|&k| {
            let t = &rules.module_types[k];
            format!("{} {}", t.code, t.name)
        })
        .collect();
    parts.join(", ")
}

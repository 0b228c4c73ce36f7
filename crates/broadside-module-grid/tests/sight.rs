//! Line of sight: what blocks a line from hex centre to hex centre, and what a blocked line stops a ship firing.
//!
//! Battlestations, Ship to Ship Combat: Line of Sight (Ships): "If the line
//! passes through (not just along, but through) a hex that contains an
//! asteroid or larger object, line of sight is blocked. Starbases, ships,
//! fighters, missiles, spacewalkers do not block line of sight. Asteroids,
//! moons, planets and stars block line of sight."

mod common;

use std::fmt::Write as _;

use broadside_core::hex::{self, Hex};
use broadside_core::{OptionValue, ResolveError, Ruleset};
use broadside_module_grid::{MapObject, Sight};
use common::{check_procedure, duel_request, fleet_request, ship, system, text};

fn object(kind: &str, q: i32, r: i32) -> MapObject {
    let index = system()
        .rules
        .objects
        .iter()
        .position(|o| o.id == kind)
        .unwrap_or_else(|| panic!("no object kind {kind}"));
    MapObject {
        hex: Hex::new(q, r),
        kind: index as u8,
    }
}

/// Each case: the line, the object and where it is, and the verdict.
#[test]
fn what_blocks_a_line_of_sight() {
    let grid = system();
    let cases: Vec<(&str, Hex, Hex, MapObject, bool)> = vec![
        (
            "an asteroid the line passes through",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("asteroid", 1, 0),
            false,
        ),
        (
            "a moon the line passes through",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("moon", 2, 0),
            false,
        ),
        (
            "a planet the line passes through",
            Hex::new(0, 0),
            Hex::new(0, 3),
            object("planet", 0, 1),
            false,
        ),
        (
            "a star the line passes through",
            Hex::new(0, 0),
            Hex::new(-3, 0),
            object("star", -2, 0),
            false,
        ),
        (
            "a starbase the line passes through",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("starbase", 1, 0),
            true,
        ),
        (
            "a ship the line passes through",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("ship", 2, 0),
            true,
        ),
        (
            "a fighter the line passes through",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("fighter", 1, 0),
            true,
        ),
        (
            "a missile the line passes through",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("missile", 1, 0),
            true,
        ),
        (
            "a spacewalker the line passes through",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("spacewalker", 1, 0),
            true,
        ),
        (
            "an asteroid beside the line",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("asteroid", 1, 1),
            true,
        ),
        (
            "an asteroid along whose hexside the line runs",
            Hex::new(0, 0),
            Hex::new(1, 1),
            object("asteroid", 1, 0),
            true,
        ),
        (
            "an asteroid in the target's own hex",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("asteroid", 3, 0),
            true,
        ),
        (
            "an asteroid in the firer's own hex",
            Hex::new(0, 0),
            Hex::new(3, 0),
            object("asteroid", 0, 0),
            true,
        ),
        (
            "an asteroid whose corner the line clips",
            Hex::new(0, 0),
            Hex::new(-4, 1),
            object("asteroid", -2, 0),
            false,
        ),
    ];
    let mut out = String::new();
    for (what, from, to, obj, clear) in &cases {
        let sight = grid.line_of_sight(*from, *to, std::slice::from_ref(obj));
        let steps: Vec<String> = hex::line(*from, *to)
            .iter()
            .map(|s| match s {
                hex::LineStep::Through(h) => format!("through {h}"),
                hex::LineStep::Edge(a, b) => format!("along {a}|{b}"),
            })
            .collect();
        let verdict = match sight {
            Sight::Clear => "clear".to_owned(),
            Sight::Blocked(o) => format!("blocked at {}", o.hex),
        };
        assert_eq!(sight == Sight::Clear, *clear, "{what}");
        let _ = writeln!(
            out,
            "{what}: {from} to {to}, {} at {}: {verdict}\n  line: {}",
            grid.rules.objects[usize::from(obj.kind)].id,
            obj.hex,
            steps.join(", ")
        );
    }
    check_procedure(
        "line_of_sight_blocking",
        "Battlestations, Ship to Ship Combat: Line of Sight (Ships) (blocked only by asteroids, moons, planets and stars in a hex the line passes through)",
        "lines of sight past objects",
        &[],
        |_, _| Ok(out),
    );
}

/// With an asteroid between the ships, no Cannon and no Teleporter can be
/// used, but a Missile Bay, firing indirect, still can (a ruling).
#[test]
fn a_blocked_line_stops_direct_fire_only() {
    let grid = system();
    let duel = grid
        .duel(&duel_request(
            "destroyer",
            "frigate",
            5,
            &[("start-range", common::num(3)), ("asteroids", text("1,0"))],
        ))
        .expect("the duel is set up");
    let battle = duel.start().clone();
    let options = grid.fire_options(&battle, 0, 1, duel.objects());
    assert!(matches!(options.sight, Sight::Blocked(_)));
    assert_eq!(options.cannons, 0);
    assert_ne!(options.missile_bays, 0);
    let clear = grid.fire_options(&battle, 0, 1, &[]);
    assert_ne!(clear.cannons, 0);
    let frigate = grid.fire_options(&battle, 1, 0, duel.objects());
    assert_eq!(frigate.teleporters, 0);
    assert_eq!(battle.board.ships[1], ship("frigate"));
}

/// Prepares a battle of a scout (A, at 0,0) against a frigate (B, 8 hexes
/// east at 8,0) with `asteroids` and side B's set-up `b`, as the command
/// line and scenarios do: the objects placed, or the option refused and why.
fn check_asteroids(asteroids: &str, b: &[(&str, OptionValue)]) -> Result<usize, (String, String)> {
    let request = fleet_request(
        &["scout"],
        &["frigate"],
        5,
        &[("asteroids", text(asteroids))],
        [&[], b],
    );
    match system().prepare_battle(&request) {
        Ok(_) => Ok(system()
            .duel(&request)
            .expect("the same request")
            .objects()
            .len()),
        Err(ResolveError::BadOption { option, message }) => Err((option, message)),
        Err(other) => panic!("{asteroids}: not a bad option: {other}"),
    }
}

/// Asteroid hexes are given as `Q,R` pairs, each once, and none where a ship
/// starts (the set-up ruling); anything else is a bad option that names the
/// hex.
#[test]
fn asteroid_option_is_checked() {
    for bad in ["1", "a,b", "1,2,3", "5000,0"] {
        let refused = check_asteroids(bad, &[]).expect_err(bad);
        assert_eq!(refused.0, "asteroids", "{bad}");
    }
    assert_eq!(check_asteroids("1,0 2,-1;3,0", &[]), Ok(3));
    let refused = |message: &str| Err(("asteroids".to_owned(), message.to_owned()));
    assert_eq!(
        check_asteroids("1,0 1,0 2,0", &[]),
        refused("the asteroid hex 1,0 is given twice")
    );
    assert_eq!(
        check_asteroids("0,0 8,0", &[]),
        refused("the asteroid hex 0,0 is the starting hex of scout (A)")
    );
    assert_eq!(
        check_asteroids("2,0 8,0", &[]),
        refused("the asteroid hex 8,0 is the starting hex of frigate (B)")
    );
    // A ship placed by hand is held to the same rule.
    assert_eq!(
        check_asteroids("3,-1", &[("positions", text("3,-1"))]),
        refused("the asteroid hex 3,-1 is the starting hex of frigate (B)")
    );
}

//! Facing: four module sides on six hexsides, corner lines, the same hex, and the engine's checks of the sides tactics choose.
//!
//! Battlestations, Ship to Ship Combat: Line of Sight (Ships) and Facing:
//! fore and aft are one hexside each, port and starboard two each; "When a
//! line of sight hits a corner of a ship, the firing character chooses
//! which side to hit"; "If a ship is in the same hex as another ship, all
//! weapons on all sides are considered to have facing on the enemy and the
//! firing ship chooses which facing it will strike with each shot."

mod common;

use std::fmt::Write as _;

use broadside_core::hex::{Direction, Hex};
use broadside_core::{Engagement, NullSink, ResolveError, SeededDice};
use broadside_module_grid::engagement::{Battle, FireOptions, Maneuver, ShotChoice};
use broadside_module_grid::model::{Mode, ModuleIx, ShipSide};
use broadside_module_grid::sight;
use broadside_module_grid::{
    AllocationView, DefaultTactics, ModuleGrid, ModuleGridTactics, Reroll, RerollWith, Weapon,
};
use common::{check_procedure, duel_request, system};

/// The side struck for a target at the origin facing east (and facing
/// north-west, to show the sides turn with the ship), from every
/// neighbouring hex, from two corner lines and from its own hex.
#[test]
fn sides_struck_from_each_hexside_corner_and_the_same_hex() {
    let mut out = String::new();
    let shooters: Vec<(&str, Hex)> = vec![
        ("east neighbour", Hex::new(1, 0)),
        ("south-east neighbour", Hex::new(0, 1)),
        ("south-west neighbour", Hex::new(-1, 1)),
        ("west neighbour", Hex::new(-1, 0)),
        ("north-west neighbour", Hex::new(0, -1)),
        ("north-east neighbour", Hex::new(1, -1)),
        ("corner between east and south-east", Hex::new(1, 1)),
        ("corner between south-east and south-west", Hex::new(-1, 2)),
        ("corner between west and north-west", Hex::new(-1, -1)),
        ("far along the bow line", Hex::new(5, 0)),
        ("the same hex", Hex::ORIGIN),
    ];
    for facing in [Direction::EAST, Direction::NORTH_WEST] {
        let _ = writeln!(out, "target at (0, 0) facing direction {}:", facing.index());
        for (what, at) in &shooters {
            let sides = sight::sides_struck(*at, Hex::ORIGIN, facing);
            let names: Vec<&str> = sides.sides().map(ShipSide::id).collect();
            let _ = writeln!(
                out,
                "  from {what} {at}: {}{}",
                names.join(" or "),
                if sides.len() > 1 {
                    " (the firer chooses)"
                } else {
                    ""
                }
            );
        }
    }
    check_procedure(
        "facing_side_struck_by_hexside",
        "Battlestations, Ship to Ship Combat: Facing (fore and aft one hexside each, port and starboard two each; corners and the same hex let the firer choose)",
        "the side struck from each direction",
        &[],
        |_, _| Ok(out),
    );
    assert_eq!(
        sight::sides_struck(Hex::new(1, 0), Hex::ORIGIN, Direction::EAST).len(),
        1
    );
    assert_eq!(
        sight::sides_struck(Hex::new(1, 1), Hex::ORIGIN, Direction::EAST).len(),
        2
    );
    assert_eq!(
        sight::sides_struck(Hex::new(-1, 2), Hex::ORIGIN, Direction::EAST).len(),
        1
    );
    assert_eq!(
        sight::sides_struck(Hex::ORIGIN, Hex::ORIGIN, Direction::EAST).len(),
        4
    );
}

/// In the same hex every Cannon bears, whatever its exposure.
#[test]
fn in_the_same_hex_every_cannon_bears() {
    let grid = system();
    let mut battle = grid
        .battle("cruiser", "scout", 0)
        .expect("both ships exist");
    battle.poses[1].hex = battle.poses[0].hex;
    let options = grid.fire_options(&battle, 0, 1, &[]);
    let class = grid.rules.class(battle.board.ships[0].class);
    let cannons = class.modules_of(broadside_module_grid::model::Function::Cannon);
    assert_eq!(options.cannons, cannons);
    assert_eq!(options.struck.len(), 4);
}

/// Battlestations, Ship to Ship Combat: Line of Sight: in the same hex every
/// weapon on every side has facing, so even a Cannon with no open side bears.
#[test]
fn in_the_same_hex_a_buried_cannon_bears_too() {
    let mut files = broadside_module_grid::REGISTRATION.embedded_sources();
    let ships = files
        .iter_mut()
        .find(|f| f.name == "ships.toml")
        .expect("ships.toml");
    // The scout's Helm, at the heart of its layout, becomes a Cannon with no
    // open side.
    ships.text = ships.text.replacen(
        r#"["science", "helm",      "shields"],"#,
        r#"["science", "cannon",    "shields"],"#,
        1,
    );
    let grid = ModuleGrid::load(&files).expect("the edited data loads");
    let mut battle = grid
        .battle("scout", "frigate", 0)
        .expect("both ships exist");
    battle.poses[1].hex = battle.poses[0].hex;
    let class = grid.rules.class(battle.board.ships[0].class);
    let cannons = class.modules_of(broadside_module_grid::model::Function::Cannon);
    assert_eq!(cannons.count_ones(), 2, "the edit made a second Cannon");
    assert_eq!(grid.fire_options(&battle, 0, 1, &[]).cannons, cannons);
}

/// A tactic that answers with something the rules do not allow.
#[derive(Debug, Clone, Copy)]
enum Cheat {
    /// Strikes a side the line of sight does not reach.
    WrongSide,
    /// Moves farther than the ship's Speed.
    TooFast,
    /// Fires a module that is not offered.
    UnofferedWeapon,
    /// Repairs a module that is not broken.
    NeedlessRepair,
    /// Rerolls allocation dice with scans for as long as it is asked, so
    /// it asks for one more than it has.
    EndlessScans,
    /// Rerolls an allocation die that does not exist.
    ThirdDie,
}

impl ModuleGridTactics for Cheat {
    fn maneuver(&self, system: &ModuleGrid, battle: &Battle, ship: usize) -> Maneuver {
        match self {
            Cheat::TooFast => Maneuver {
                turn_before: 0,
                steps: 20,
                turn_after: 0,
            },
            _ => DefaultTactics.maneuver(system, battle, ship),
        }
    }

    fn next_shot(
        &self,
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        options: &[FireOptions],
    ) -> Option<ShotChoice> {
        match self {
            Cheat::WrongSide => {
                let mut choice = DefaultTactics.next_shot(system, battle, ship, options)?;
                let struck = options.iter().find(|o| o.target == choice.target)?.struck;
                choice.side = ShipSide::ALL
                    .into_iter()
                    .find(|s| !struck.has(*s))
                    .unwrap_or(ShipSide::Aft);
                Some(choice)
            }
            Cheat::UnofferedWeapon => Some(ShotChoice {
                target: options[0].target,
                weapon: Weapon::Cannon {
                    module: 63 as ModuleIx,
                    mode: Mode::Standard,
                },
                side: options[0].struck.sides().next().unwrap_or(ShipSide::Fore),
                call: None,
            }),
            _ => DefaultTactics.next_shot(system, battle, ship, options),
        }
    }

    fn allocation_reroll(
        &self,
        system: &ModuleGrid,
        ship: usize,
        view: &AllocationView<'_>,
    ) -> Option<Reroll> {
        match self {
            Cheat::EndlessScans => Some(Reroll {
                die: 0,
                with: RerollWith::Scan,
            }),
            Cheat::ThirdDie => Some(Reroll {
                die: 2,
                with: RerollWith::Scan,
            }),
            _ => DefaultTactics.allocation_reroll(system, ship, view),
        }
    }

    fn repair(&self, system: &ModuleGrid, battle: &Battle, ship: usize) -> Option<ModuleIx> {
        match self {
            Cheat::NeedlessRepair => Some(0),
            _ => DefaultTactics.repair(system, battle, ship),
        }
    }
}

/// The engine checks every answer: an illegal side, move, weapon, repair or
/// allocation reroll is an internal error naming what was wrong, never silently corrected.
#[test]
fn illegal_tactics_answers_are_internal_errors() {
    let grid = system();
    let duel = grid
        .duel(&duel_request(
            "destroyer",
            "frigate",
            10,
            &[("start-range", common::num(2))],
        ))
        .expect("the duel is set up");
    for (cheat, expected) in [
        (Cheat::WrongSide, "side"),
        (Cheat::TooFast, "move"),
        (Cheat::UnofferedWeapon, "cannot fire"),
        (Cheat::NeedlessRepair, "not broken"),
        (Cheat::EndlessScans, "none to spend"),
        (Cheat::ThirdDie, "there are two"),
    ] {
        let mut dice = SeededDice::new(11);
        let result = duel.play_with([&cheat, &cheat], &mut dice, &mut NullSink);
        match result {
            Err(ResolveError::Internal(message)) => {
                assert!(message.contains(expected), "{cheat:?}: {message}");
            }
            other => panic!(
                "{cheat:?}: expected an internal error, got {:?}",
                other.map(|(o, _)| o)
            ),
        }
    }
    // The default tactics play the same duel without complaint.
    let mut dice = SeededDice::new(11);
    assert!(duel.play(&mut dice, &mut NullSink).is_ok());
}

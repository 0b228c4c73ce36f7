//! Hit allocation: each side struck, called points, dice past or outside the silhouette, rerolls, and gaps in a row or column.
//!
//! Battlestations, Ship to Ship Combat: Hit Allocation and Cannon Hits. A
//! frigate (Guns 3, Gunnery 2) fires at a scout (Shields 2, centre mark
//! 2,2) at range 1: difficulty 8, to-hit dice 4 + 4 + 2 = 10.

mod common;

use broadside_core::{DamageAllocation, EventLog, ResolveError, ScriptedDice};
use broadside_module_grid::damage::{Cause, Hit};
use broadside_module_grid::model::{Mode, ShipSide};
use broadside_module_grid::{ModuleGrid, Square};
use common::{
    assert_all_used, check_procedure, check_resolve, class, describe, edited, num, resolve, ship,
    system, text,
};

/// A 2d6 of 8 is one line off the centre: to starboard from fore or aft,
/// aftward from port or starboard. Kept dice 4, 2, 1 run from the struck
/// side into the ship.
fn check_side(side: &str, expected_impact: &str) {
    let r = check_resolve(
        &format!("allocation_scout_struck_{side}"),
        "Battlestations, Ship to Ship Combat: Hit Allocation (higher goes starboard when hit from fore or aft, aftward when hit from a side)",
        "frigate",
        "scout",
        &[("range", num(1)), ("side", text(side))],
        &[4, 4, 4, 4, 6, 5, 4, 2, 1],
    );
    assert_eq!(r.json["impact"]["at"], expected_impact, "{side}");
}

#[test]
fn struck_on_the_fore_side_higher_goes_starboard() {
    check_side("fore", "2,3");
}

#[test]
fn struck_on_the_aft_side_higher_goes_starboard() {
    check_side("aft", "3,3");
}

#[test]
fn struck_on_the_port_side_higher_goes_aftward() {
    check_side("port", "3,1");
}

#[test]
fn struck_on_the_starboard_side_higher_goes_aftward() {
    check_side("starboard", "3,3");
}

/// Cannon Hits: "Dice that miss the silhouette of the ship ... deal only 1
/// point each of hull damage but generate OOC if they are 4, 5 or 6."
/// Allocation 12 from the scout's centre column 2 is column 7 of a
/// three-column ship: kept 4, 4, 1 do 3 hull damage and 2 OOC.
#[test]
fn dice_missing_the_silhouette_entirely() {
    let r = check_resolve(
        "allocation_dice_miss_the_silhouette",
        "Battlestations, Ship to Ship Combat: Cannon Hits (dice that miss the silhouette do 1 hull damage each, OOC on 4-6)",
        "frigate",
        "scout",
        &[("range", num(1))],
        &[4, 4, 6, 6, 6, 5, 4, 4, 1],
    );
    assert_eq!(r.json["impact"], serde_json::Value::Null);
    assert_eq!(r.json["hull_damage"], 3);
    assert_eq!(r.json["ooc"], 2);
}

/// Cannon Hits: dice that pass through the ship also miss the silhouette.
/// Called on row 1 from port, the scout's bow row holds only its Cannon:
/// the 5 breaks it, and the 3 and 2 pass through for 1 hull damage each.
#[test]
fn dice_passing_through_the_ship() {
    let r = check_resolve(
        "allocation_dice_pass_through_the_ship",
        "Battlestations, Ship to Ship Combat: Cannon Hits (dice passing through the ship miss the silhouette)",
        "frigate",
        "scout",
        &[
            ("range", num(1)),
            ("side", text("port")),
            ("call", text("1,2")),
        ],
        &[4, 4, 3, 4, 6, 6, 5, 3, 2],
    );
    assert_eq!(r.json["hull_damage"], 7);
}

/// Hit Allocation: "When firing a ship's Cannon or a Teleporter, you can
/// choose your center line by picking a spot and calling that the 7." From
/// fore, the call 3,1 makes column 1 the centre line.
#[test]
fn a_called_point_moves_the_centre_line() {
    let r = check_resolve(
        "allocation_called_point",
        "Battlestations, Ship to Ship Combat: Hit Allocation (the firer calls a spot as the 7)",
        "frigate",
        "scout",
        &[("range", num(1)), ("call", text("3,1"))],
        &[4, 4, 3, 4, 6, 5, 4, 2, 1],
    );
    assert_eq!(r.json["impact"]["at"], "2,1");
}

/// A called point must be a module square of the target: an empty square of
/// the layout or a square beyond it is refused before any die is rolled,
/// and a call that is not `R,C` is a bad option.
#[test]
fn a_called_point_off_the_ship_is_refused() {
    for call in ["1,1", "4,2", "2,9"] {
        match resolve(
            "frigate",
            "scout",
            &[("range", num(1)), ("call", text(call))],
            &[],
        ) {
            Err(ResolveError::Refused(message)) => {
                assert!(message.contains("off the scout"), "{call}: {message}");
            }
            other => panic!("{call}: expected a refusal, got {other:?}"),
        }
    }
    for call in ["middle", "0,1", "2", "2,x"] {
        match resolve(
            "frigate",
            "scout",
            &[("range", num(1)), ("call", text(call))],
            &[],
        ) {
            Err(ResolveError::BadOption { option, .. }) => assert_eq!(option, "call"),
            other => panic!("{call}: expected a bad option, got {other:?}"),
        }
    }
}

/// Hit Allocation: "Each scan you have on a ship may be expended to reroll
/// one of the hit allocation dice. The firing character may spend Luck on
/// the hit allocation roll." The default ruling spends them only when the
/// allocation misses the silhouette, on the die whose reroll lands on the
/// ship most often: 6 + 6 from the scout's centre column misses; a scan
/// rerolls a 6 into a 1 (7, on the ship). Then Luck alone: 1 + 1 misses; the
/// first reroll turns a 1 into a 2 (3, still off the ship); the second
/// rerolls the other 1, since keeping the 2 lands on 4, 5 or 6, and gives a
/// 5 (7, on the ship).
#[test]
fn scans_and_luck_reroll_a_missing_allocation() {
    let grid = system();
    let scout = class("scout");
    check_procedure(
        "allocation_scans_and_luck_rerolls",
        "Battlestations, Ship to Ship Combat: Hit Allocation (scans reroll one allocation die each; Luck rerolls)",
        "allocation rolls on a scout's fore side, a frigate firing with 1 scan, then with 2 Luck",
        &[6, 6, 1, 1, 1, 2, 5],
        |dice, log| {
            let mut firer = ship("frigate");
            let with_scan = grid.allocation_roll(
                scout,
                ShipSide::Fore,
                scout.centre,
                (1, 0),
                Some(&mut firer),
                dice,
                log,
            )?;
            let with_luck = grid.allocation_roll(
                scout,
                ShipSide::Fore,
                scout.centre,
                (0, 2),
                Some(&mut firer),
                dice,
                log,
            )?;
            assert_eq!((with_scan.line, with_luck.line), (1, 1));
            Ok(format!(
                "with a scan: {with_scan:?}\nwith Luck: {with_luck:?}\nfirer after: {}",
                describe(&firer)
            ))
        },
    );
}

/// An allocation that already lands on the ship spends nothing.
#[test]
fn no_reroll_when_the_allocation_lands() {
    let grid = system();
    let scout = class("scout");
    let mut firer = ship("frigate");
    let mut dice = ScriptedDice::new([3, 4]);
    let roll = grid
        .allocation_roll(
            scout,
            ShipSide::Port,
            scout.centre,
            (3, 3),
            Some(&mut firer),
            &mut dice,
            &mut EventLog::default(),
        )
        .expect("the dice suffice");
    assert_all_used(&dice, "allocation");
    assert_eq!((roll.scans_spent, roll.luck_spent), (0, 0));
    assert_eq!(firer, ship("frigate"));
}

const GAP_SHIP: &str = r#"
[gappy]
name = "Gap test"
source = "authored test layout: an empty square between two modules"
size = 1
shields = 0
guns = 1
speed = 1
luck = 0
centre = "1,1"
layout = [["cannon"], ["."], ["helm"]]
crew = { gunnery = 0, piloting = 0, science = 0, engineering = 0 }
"#;

/// The ruling on empty squares inside a row or column: by default dice are
/// laid on the modules in order and a gap takes none; with
/// `gaps-take-dice = true` a gap takes a die, which misses the silhouette.
#[test]
fn gaps_between_modules_follow_the_ruling() {
    let lay = |grid: &ModuleGrid| {
        let mut target = grid.ship("gappy").expect("the test ship loads");
        let hit = Hit {
            cause: Cause::Cannon(Mode::Standard),
            power: 2,
            through_shields: true,
            side: ShipSide::Fore,
            line: 0,
            impact_only: false,
        };
        let mut dice = ScriptedDice::new([3, 2]);
        let applied = grid
            .allocate(&hit, &mut target, &mut dice, &mut EventLog::default())
            .expect("the dice suffice");
        applied
            .placed
            .iter()
            .map(|p| {
                p.module
                    .map(|m| grid.rules.class(target.class).modules[usize::from(m)].at)
            })
            .collect::<Vec<Option<Square>>>()
    };
    let skipping =
        ModuleGrid::load(&edited("ships.toml", |t| t.push_str(GAP_SHIP))).expect("loads");
    let square = |s: &str| Some(Square::parse(s).expect("a square"));
    assert_eq!(lay(&skipping), vec![square("1,1"), square("3,1")]);
    let taking = ModuleGrid::load(&{
        let mut files = edited("ships.toml", |t| t.push_str(GAP_SHIP));
        let rules = files
            .iter_mut()
            .find(|f| f.name == "rules.toml")
            .expect("rules.toml");
        rules.text = rules
            .text
            .replace("gaps-take-dice = false", "gaps-take-dice = true");
        files
    })
    .expect("loads");
    assert_eq!(lay(&taking), vec![square("1,1"), None]);
}

//! Hit allocation: each side struck, called points, dice past or outside the silhouette, rerolls, and gaps in a row or column.
//!
//! Battlestations, Ship to Ship Combat: Hit Allocation and Cannon Hits. A
//! frigate (Guns 3, Gunnery 2) fires at a scout (Shields 2, centre mark
//! 2,2) at range 1: difficulty 8, to-hit dice 4 + 4 + 2 = 10.

mod common;

use broadside_core::{AttackResolution, DamageAllocation, EventLog, ResolveError, ScriptedDice};
use broadside_module_grid::attack::Rerolls;
use broadside_module_grid::damage::{Cause, Hit};
use broadside_module_grid::model::{Mode, ShipSide};
use broadside_module_grid::{
    AllocationView, DefaultTactics, ModuleGrid, ModuleGridTactics, Shot, Square, Weapon,
};
use common::{
    assert_all_used, board, check_procedure, check_resolve, class, describe, edited, module, num,
    resolve, ship, shot_at, system, text,
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
/// the hit allocation roll." The firer chooses; here the default policy,
/// with Luck allowed as in a single resolution. From the scout's fore side
/// the columns are worth 5 (Science Bay 2 + Engine 3), 9 (Cannon 4 +
/// Helm 3 + Cargo Bay 2) and 6 (Shields 3 + Engine 3), and lines off the
/// ship 0.
/// With a scan: 6 + 6 from the centre column 2 lands 5 columns to
/// starboard, off the ship (worth 0). Rerolling either 6 puts the line on
/// columns 2 to 7: 9 + 6 + 0 + 0 + 0 + 0 = 15 > 6 x 0, so the first die is
/// rolled again: 1, total 7, column 2. Then with 2 Luck: 1 + 1 is 5 columns
/// to port (worth 0); rerolling either 1 gives columns -3 to 2: 5 + 9 = 14,
/// so the first: 2, total 3, still off the ship. Now rerolling the 2 gives
/// 14 again, and rerolling the 1 gives columns -2 to 3: 5 + 9 + 6 = 20, so
/// the second die: 5, total 7, column 2.
#[test]
fn scans_and_luck_reroll_a_missing_allocation() {
    let grid = system();
    let scout = class("scout");
    let target = ship("scout");
    let choose = |view: &AllocationView<'_>| DefaultTactics::worth_reroll(grid, view, true);
    check_procedure(
        "allocation_scans_and_luck_rerolls",
        "Battlestations, Ship to Ship Combat: Hit Allocation (scans reroll one allocation die each; Luck rerolls)",
        "allocation rolls on a scout's fore side, a frigate firing with 1 scan, then with 2 Luck",
        &[6, 6, 1, 1, 1, 2, 5],
        |dice, log| {
            let mut firer = ship("frigate");
            let with_scan = grid.allocation_roll(
                &target,
                ShipSide::Fore,
                scout.centre,
                Some(Rerolls {
                    firer: &mut firer,
                    scans: 1,
                    luck: 0,
                    foe: true,
                    choose: &choose,
                }),
                dice,
                log,
            )?;
            let with_luck = grid.allocation_roll(
                &target,
                ShipSide::Fore,
                scout.centre,
                Some(Rerolls {
                    firer: &mut firer,
                    scans: 0,
                    luck: 2,
                    foe: true,
                    choose: &choose,
                }),
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

/// A test layout for called shots: three Cannons with Cargo Bays between
/// them along the bow, over an Engine, the Helm, Shields, a Science Bay and
/// an Engine.
const FREIGHTER: &str = r#"
[freighter]
name = "Freighter"
source = "authored test layout: Cannons between Cargo Bays along the bow"
size = 2
shields = 0
guns = 2
speed = 2
luck = 0
centre = "2,3"
layout = [
  ["cannon", "cargo-bay", "cannon",  "cargo-bay", "cannon"],
  ["engine", "helm",      "shields", "science",   "engine"],
]
crew = { gunnery = 0, piloting = 0, science = 0, engineering = 0 }
"#;

/// Hit Allocation: "you can choose your center line by picking a spot and
/// calling that the 7", and "Each scan you have on a ship may be expended to
/// reroll one of the hit allocation dice", whether or not the dice landed
/// on the ship. The firer calls the freighter's centre Cannon at 1,3:
/// column 3 from fore. From fore the columns are worth 7 (Cannon 4 +
/// Engine 3), 5 (Cargo Bay 2 + Helm 3), 7 (Cannon 4 + Shields 3), 4 (Cargo
/// Bay 2 + Science Bay 2) and 7 (Cannon 4 + Engine 3). The dice 4 + 4 = 8
/// land one column to starboard, on the Cargo Bay at 1,4 (worth 4).
/// Rerolling a 4 keeps the other 4, so the total is 5 to 10: columns 1 to
/// 6, worth 7 + 5 + 7 + 4 + 7 + 0 = 30 > 6 x 4 = 24; the default tactics
/// spend the scan on the first die. It comes up 3: 3 + 4 = 7, the called
/// column, whose module of impact is the Cannon. The tactics keep Luck for
/// hull checks, so none is spent although 3 is offered.
#[test]
fn a_scan_pulls_a_hit_off_a_cargo_bay_onto_the_called_cannon() {
    let grid = ModuleGrid::load(&edited("ships.toml", |t| t.push_str(FREIGHTER))).expect("loads");
    let target = grid.ship("freighter").expect("the test ship loads");
    let class = grid.rules.class(target.class);
    let call = Square::parse("1,3").expect("a square");
    let impact = |line: i32| {
        class
            .lane(ShipSide::Fore, line)
            .flatten()
            .next()
            .map(|m| {
                let at = class.modules[usize::from(m)].at;
                format!("{} at {at}", grid.rules.module_type(class, m).name)
            })
            .unwrap_or_else(|| "off the ship".into())
    };
    let choose = |view: &AllocationView<'_>| {
        // The firer's first look: the dice lie on the Cargo Bay.
        if view.scans == 1 {
            assert_eq!(impact(view.line), "Cargo Bay at 1,4");
        }
        DefaultTactics.allocation_reroll(&grid, 0, view)
    };
    check_procedure(
        "allocation_scan_pulls_a_hit_off_a_cargo_bay_onto_the_called_cannon",
        "Battlestations, Ship to Ship Combat: Hit Allocation (a called 7; each scan rerolls one allocation die)",
        "a frigate with 1 scan and 3 Luck calls the Cannon at 1,3 on a freighter's fore side",
        &[4, 4, 3],
        |dice, log| {
            let mut firer = ship("frigate");
            let roll = grid.allocation_roll(
                &target,
                ShipSide::Fore,
                call,
                Some(Rerolls {
                    firer: &mut firer,
                    scans: 1,
                    luck: 3,
                    foe: true,
                    choose: &choose,
                }),
                dice,
                log,
            )?;
            assert_eq!((roll.faces, roll.total), ([3, 4], 7));
            assert_eq!((roll.scans_spent, roll.luck_spent), (1, 0));
            assert_eq!(impact(roll.line), "Cannon at 1,3");
            assert_eq!((firer.scans, firer.luck), (0, 3));
            Ok(format!(
                "roll: {roll:?}\nmodule of impact: {}\nfirer after: {}",
                impact(roll.line),
                describe(&firer)
            ))
        },
    );
}

/// Luck through `resolve`: "The firing character may spend Luck on the hit
/// allocation roll." A frigate (Gunnery 2) offers 1 Luck at a scout, range
/// 1: difficulty 7 + 1 = 8, to-hit 4 + 4 + 2 = 10 hits. Allocation 6 + 6
/// lands off the scout (worth 0); rerolling a 6 is worth 15 (columns 2 and
/// 3, worth 9 and 6), so Luck pays for the first die: 1, total 7, the
/// centre column. Power 3 + Shields 2 = 5 dice, 6, 5, 4, 2, 1, lose the two
/// highest; 4 breaks the Cannon at 1,2, 2 and 1 fall on the Helm and the
/// Cargo Bay: 7 hull damage, whose chart check 3 less Size 1 is 2, which
/// two dice always make, so none is rolled.
#[test]
fn luck_rerolls_an_allocation_in_resolve() {
    let r = check_resolve(
        "allocation_luck_rerolls_in_resolve",
        "Battlestations, Ship to Ship Combat: Hit Allocation (the firing character may spend Luck on the roll)",
        "frigate",
        "scout",
        &[("range", num(1)), ("luck", num(1))],
        &[4, 4, 6, 6, 1, 6, 5, 4, 2, 1],
    );
    assert_eq!(r.json["allocation"], 7);
    assert_eq!(r.json["impact"]["at"], "1,2");
    assert_eq!(r.json["hull_damage"], 7);
    // More Luck than the frigate's 3 is bad input.
    match resolve(
        "frigate",
        "scout",
        &[("range", num(1)), ("luck", num(4))],
        &[],
    ) {
        Err(ResolveError::BadOption { option, message }) => {
            assert_eq!(option, "luck");
            assert!(message.contains("3 Luck"), "{message}");
        }
        other => panic!("expected a bad option, got {other:?}"),
    }
}

/// Neither a scan nor Luck is spent when the firer has none left, whatever
/// the shot offers, nor a scan made on another ship. A frigate with no Luck
/// and no scans fires at a scout at range 1 offering 2 of each: to-hit
/// 4 + 4 + 2 = 10 against 8 hits; 6 + 6 lands off the ship and stays there;
/// 5 dice 6, 5, 4, 4, 1 keep 4, 4, 1, each 1 hull damage off the
/// silhouette and OOC on the two 4s. Then the same with the frigate's scan
/// made on a ship that is not the target.
#[test]
fn no_reroll_with_nothing_left_to_spend() {
    let grid = system();
    let shot = Shot {
        scans: 2,
        luck: 2,
        ..shot_at(
            Weapon::Cannon {
                module: module("frigate", "1,2"),
                mode: Mode::Standard,
            },
            1,
            ShipSide::Fore,
            None,
        )
    };
    let mut spent = ship("frigate");
    spent.scans = 0;
    spent.scans_on = Some(1);
    spent.luck = 0;
    let mut elsewhere = ship("frigate");
    elsewhere.scans_on = Some(7);
    elsewhere.luck = 0;
    for firer in [spent, elsewhere] {
        let mut b = board(firer, ship("scout"));
        let mut dice = ScriptedDice::new([4, 4, 6, 6, 6, 5, 4, 4, 1]);
        let outcome = grid
            .resolve_attack(&mut b, &shot, &mut dice, &mut EventLog::default())
            .expect("the dice suffice");
        assert_all_used(&dice, "allocation");
        let allocation = outcome.allocation.expect("the shot hits");
        assert_eq!((allocation.scans_spent, allocation.luck_spent), (0, 0));
        assert_eq!(allocation.total, 12);
        assert_eq!(b.ships[1].hull_damage, 3);
        assert_eq!((b.ships[0].scans, b.ships[0].luck), (firer.scans, 0));
    }
}

/// The default policy keeps an allocation where a reroll is worth less on
/// average. From the scout's port side the rows are worth 4 (the Cannon),
/// 8 (Science Bay 2 + Helm 3 + Shields 3) and 8 (Engine 3 + Cargo Bay 2 +
/// Engine 3). 3 + 4 = 7 lands on row 2, worth 8: 6 x 8 = 48. Rerolling the
/// 3 gives rows 0 to 5: 0 + 4 + 8 + 8 + 0 + 0 = 20; rerolling the 4 gives
/// rows -1 to 4: 20 as well. Nothing is spent.
#[test]
fn no_reroll_when_the_allocation_lands() {
    let grid = system();
    let scout = class("scout");
    let target = ship("scout");
    let mut firer = ship("frigate");
    let mut dice = ScriptedDice::new([3, 4]);
    let choose = |view: &AllocationView<'_>| DefaultTactics::worth_reroll(grid, view, true);
    let roll = grid
        .allocation_roll(
            &target,
            ShipSide::Port,
            scout.centre,
            Some(Rerolls {
                firer: &mut firer,
                scans: 3,
                luck: 3,
                foe: true,
                choose: &choose,
            }),
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

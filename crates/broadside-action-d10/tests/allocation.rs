//! The damage allocation as its own step: the trait called directly, and the
//! small craft a carrier loses when its bays go, with scripted dice.

mod common;

use broadside_action_d10::damage::Hit;
use broadside_action_d10::model::System;
use broadside_core::{DamageAllocation, EventLog, ScriptedDice};
use common::{Resolve, check_resolve, ship, system};

const H: &str = "d10 action-based rules, Structure Damage: Hangar (H) and the Hangar Table";

/// Seed 002, Structure Damage: a hit marks boxes from the left, and the H
/// box rolls on the Hangar Table. `DamageAllocation::allocate` is the same
/// step an attack takes after it hits: one heavy laser hit (2 boxes) on a
/// carrier with its shields down and its first box marked marks boxes 2
/// and 3, the H box rolling 1 (the hangar door).
#[test]
fn the_allocation_trait_marks_the_boxes_a_hit_scores() {
    let rules = &system().rules;
    let mut target = ship("carrier").with_boxes_marked(rules, 1);
    target.shields = 0;
    let hit = Hit {
        weapon: rules.weapon_id("heavy-laser").expect("the heavy laser"),
        hits: 1,
        aft: false,
    };
    let mut dice = ScriptedDice::new([1]);
    let applied = system()
        .allocate(&hit, &mut target, &mut dice, &mut EventLog::default())
        .expect("the hit is allocated");
    assert_eq!((applied.damage, applied.absorbed), (2, 0));
    assert_eq!(target.marked, 3);
    assert_eq!(target.intact(System::HangarDoor), 0);
    assert!(dice.remaining().is_empty());
}

/// Seed 002, Hangar Table, row 5: 1d6 small craft bays are destroyed. A
/// craft needs a bay, so when fewer bays are left than craft aboard, the
/// craft without one are lost with them; while there is a bay for each,
/// none is. The carrier carries 6 craft; here 5 of its 12 bays are already
/// gone, leaving 7.
#[test]
fn craft_without_a_bay_are_lost_with_it() {
    let seven_bays = |ship: &mut broadside_action_d10::ship::Ship| {
        ship.intact[System::SmallCraftBay.index()] = 7;
    };
    // 3 bays more: 4 left for 6 craft, so 2 craft are lost.
    let json = check_resolve(Resolve {
        name: "h_box_bays_lost_take_their_craft",
        source: H,
        target: "carrier",
        marked: 2,
        shields: Some(0),
        dice: &[1, 5, 3],
        prepare: Some(("5 of the 12 small craft bays already destroyed", seven_bays)),
        ..Resolve::default()
    });
    assert_eq!(json["target"]["small_craft"], 4);
    // 1 bay more: 6 left for 6 craft, so none is lost.
    let json = check_resolve(Resolve {
        name: "h_box_a_bay_left_for_every_craft",
        source: H,
        target: "carrier",
        marked: 2,
        shields: Some(0),
        dice: &[1, 5, 1],
        prepare: Some(("5 of the 12 small craft bays already destroyed", seven_bays)),
        ..Resolve::default()
    });
    assert_eq!(json["target"]["small_craft"], 6);
    assert!(!json["effects"].to_string().contains("small craft lost"));
}

const U: &str =
    "d10 action-based rules, Structure Damage: UDST (U), Surface Features and Internal Damage";

/// What a lost system means for the ship is told with the loss, from the
/// rules' description of each system: a Solar Panel does nothing in a
/// ship-to-ship fight, and the last Maneuvering Jets leave the ship unable
/// to turn. The frigate's U box is its third. (The Core Hit's systems are
/// told in `structure.rs`.)
#[test]
fn a_lost_system_says_what_it_costs_the_ship() {
    let cases = [
        (
            Resolve {
                name: "u_box_solar_panel_no_effect",
                source: U,
                target: "frigate",
                marked: 2,
                shields: Some(0),
                dice: &[7, 5],
                ..Resolve::default()
            },
            "Solar Panel destroyed (no effect in a ship-to-ship fight)",
        ),
        (
            Resolve {
                name: "u_box_last_jets_cannot_turn",
                source: U,
                target: "frigate",
                marked: 2,
                shields: Some(0),
                dice: &[7, 4],
                prepare: Some((
                    "one of its two Maneuvering Jets already destroyed",
                    |ship| {
                        ship.intact[System::ManeuveringJets.index()] = 1;
                    },
                )),
                ..Resolve::default()
            },
            "Maneuvering Jets destroyed (no jets left: the ship cannot turn)",
        ),
    ];
    for (case, told) in cases {
        let (_, _, events, _) = case.run().expect("the attack resolves");
        let lines: Vec<String> = events.iter().map(ToString::to_string).collect();
        assert!(
            lines.iter().any(|line| line.ends_with(told)),
            "{}: no line tells '{told}' in {lines:#?}",
            case.name
        );
        check_resolve(case);
    }
}

/// A row's count is dice, and a referee's table may give one that can come
/// to nothing (`1d6-5`: a total below 0 counts as 0, and ruling 57 lets
/// it through because a 6 hits one). Hangar Table row 5 with that count,
/// and a count die of 1: the row is read, the count rolled and shown, and
/// no bay is lost: the log says so, and the attack has no effect.
#[test]
fn a_count_that_comes_to_nothing_destroys_nothing() {
    let json = check_resolve(Resolve {
        name: "h_box_bays_count_of_nothing",
        source: H,
        target: "carrier",
        marked: 2,
        shields: Some(0),
        dice: &[1, 5, 1],
        edits: &[(
            "tables.toml",
            "{ roll = 5, result = \"small-craft-bay\", count = \"1d6\" }",
            "{ roll = 5, result = \"small-craft-bay\", count = \"1d6-5\" }",
        )],
        ..Resolve::default()
    });
    let effects = json["effects"].to_string();
    assert_eq!(effects, "[]");
    assert_eq!(json["target"]["small_craft"], 6);
}

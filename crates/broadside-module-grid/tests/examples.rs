//! The worked examples of the Battlestations Ship to Ship Combat section, as named snapshots with scripted dice.
//!
//! Each test names its passage in its doc comment and in the snapshot's
//! `description`; each snapshot records its inputs. Where an example leaves
//! rolls out (the to-hit check, the allocation), the script picks ones that
//! let the example happen, and the test says which.

mod common;

use std::fmt::Write as _;

use broadside_core::Ruleset;
use broadside_core::hex::{Direction, Hex};
use broadside_module_grid::model::ShipSide;
use broadside_module_grid::picture::{self, Marks};
use broadside_module_grid::sight;
use broadside_module_grid::{BlastResult, Bystander};
use common::{
    board, check_procedure, check_resolve, class, describe, module, num, ship, system, text,
};

/// Cannon Hits: "a ship with Guns power 5 firing on a target with Shields
/// power 4 will throw 9 dice but remove the highest 4 ... (6,6,6,4,4,3,2,2,1)
/// becomes (4,3,2,2,1)", laid 4, 3, 2, 2, 1 from the module of impact.
/// A cruiser (Guns 5) fires at a cruiser (Shields 4) at range 2; its
/// professional gunner rolls 5, 4, 2 (best two 9, + Gunnery 3 = 12 against
/// 9), and allocation 3 + 4 = 7 lands on the centre mark's column 3, whose
/// six modules take the five dice: the 4 breaks the Cannon at the bow.
#[test]
fn guns_5_against_shields_4() {
    let r = check_resolve(
        "cannon_hits_guns_5_against_shields_4",
        "Battlestations, Ship to Ship Combat: Cannon Hits (Guns 5 against Shields 4, pool 6,6,6,4,4,3,2,2,1 kept 4,3,2,2,1)",
        "cruiser",
        "cruiser",
        &[("range", num(2)), ("side", text("fore"))],
        &[5, 4, 2, 3, 4, 6, 6, 6, 4, 4, 3, 2, 2, 1],
    );
    assert_eq!(r.json["kept"], serde_json::json!([4, 3, 2, 2, 1]));
    assert_eq!(r.json["hull_damage"], 12);
    assert_eq!(r.json["shields_after"], 3);
}

/// Facing: "the Cannon placed at the forward-most point of a Human scout
/// isn't blocked to port, starboard or forward, so it has facing in every
/// direction but aft, giving it 300 degrees of facing." The transcript lists
/// the hexsides 1 to 6 as the rules number them (1 the bow), the side each
/// belongs to, and whether the Cannon bears; then the engine's own answer
/// with a target in each neighbouring hex of a scout facing east.
#[test]
fn scout_cannon_facing_300_degrees() {
    let scout = class("scout");
    let cannon = module("scout", "1,2");
    let mut out = String::from("the human scout:\n");
    out.push_str(
        &picture::draw(
            &system().rules,
            scout,
            None,
            &Marks {
                centre: Some(scout.centre),
                ..Marks::default()
            },
        )
        .join("\n"),
    );
    out.push('\n');
    out.push_str("the Cannon at 1,2 by hexside (1 = the bow, clockwise):\n");
    for h in 0..6usize {
        let side = ShipSide::of_hexside(h);
        let bears = sight::bears(scout, cannon, side.bit());
        let _ = writeln!(
            out,
            "  hexside {}: {:<9} {}",
            h + 1,
            side.id(),
            if bears { "bears" } else { "blocked" }
        );
    }
    let _ = writeln!(out, "arc: {} degrees", sight::arc_degrees(scout, cannon));
    out.push_str("every module's arc:\n");
    for (i, m) in scout.modules.iter().enumerate() {
        let sides: Vec<&str> = m.exposed.sides().map(ShipSide::id).collect();
        let _ = writeln!(
            out,
            "  {} at {}: {} degrees ({})",
            system().rules.module_types[usize::from(m.kind)].id,
            m.at,
            sight::arc_degrees(scout, i as u8),
            if sides.is_empty() {
                "none".to_owned()
            } else {
                sides.join(", ")
            }
        );
    }
    out.push_str(
        "the engine, a scout at (0, 0) facing east, a frigate in each neighbouring hex:\n",
    );
    let grid = system();
    let mut battle = grid
        .battle("scout", "frigate", 1)
        .expect("both ships exist");
    for d in Direction::ALL {
        battle.poses[1].hex = Hex::ORIGIN.neighbour(d);
        let options = grid.fire_options(&battle, 0, 1, &[]);
        let toward: Vec<&str> = options.toward.sides().map(ShipSide::id).collect();
        let _ = writeln!(
            out,
            "  frigate at {} (direction {}): line leaves the scout's {} side; Cannon {}",
            battle.poses[1].hex,
            d.index(),
            toward.join("/"),
            if options.cannons & (1 << cannon) != 0 {
                "bears"
            } else {
                "does not bear"
            }
        );
    }
    assert_eq!(sight::arc_degrees(scout, cannon), 300);
    check_procedure(
        "facing_human_scout_cannon_300_degrees",
        "Battlestations, Ship to Ship Combat: Facing (the human scout's bow Cannon has 300 degrees of facing)",
        "facing of the human scout's Cannon",
        &[],
        |_, _| Ok(out),
    );
}

/// Ship Explosion: "a Size 5 ship would deal 5 dice in its hex, 4 dice one
/// hex out, 3 dice two hexes out and so on", each a Cannon hit through
/// Shields with hit allocation on the centre mark. The cruiser (Size 5)
/// explodes; a fresh frigate (Shields 3, centre mark 3,2) takes the blast on
/// its fore side at 0 to 5 hexes. The allocation and pool dice are chosen to
/// show each case: a hit along the centre column, a hit to port, a miss of
/// the silhouette, a hit to starboard, a single die off the ship, and no
/// blast at all at 5 hexes.
#[test]
fn size_5_explosion_at_0_to_5_hexes() {
    let grid = system();
    let dice: Vec<u32> = vec![
        4, 3, 6, 5, 5, 4, 3, 3, 2, 1, // 0 hexes: power 5 + Shields 3
        3, 3, 6, 6, 4, 4, 2, 1, 1, // 1 hex: power 4
        6, 6, 5, 5, 5, 3, 2, 1, // 2 hexes: power 3
        3, 5, 4, 3, 3, 2, 1, // 3 hexes: power 2
        1, 1, 6, 6, 6, 6, // 4 hexes: power 1
    ];
    check_procedure(
        "ship_explosion_size_5_at_0_to_5_hexes",
        "Battlestations, Ship to Ship Combat: Ship Explosion (a Size 5 ship deals 5 dice in its hex, 4 one hex out, 3 two hexes out, and so on)",
        "a Size 5 cruiser explodes; a fresh frigate takes the blast on its fore side at 0 to 5 hexes",
        &dice,
        |dice, log| {
            let mut out = String::new();
            for distance in 0..=5u32 {
                let mut exploding = ship("cruiser");
                exploding.exploded = true;
                let mut b = board(exploding, ship("frigate"));
                let results = grid.explosion(
                    5,
                    &mut b,
                    &[Bystander::Ship {
                        index: 1,
                        distance,
                        side: ShipSide::Fore,
                        docked: false,
                    }],
                    dice,
                    log,
                )?;
                let power = match &results[0] {
                    BlastResult::Ship { power, .. } => *power,
                    other => panic!("a ship's result, not {other:?}"),
                };
                assert_eq!(u32::from(power), 5 - distance);
                let _ = writeln!(
                    out,
                    "{distance} hex(es): power {power}; after: {}",
                    describe(&b.ships[1])
                );
            }
            Ok(out)
        },
    );
}

/// Ship Explosion: "Anything docked to an exploding ship suffers the effect
/// twice." A frigate docked to an exploding scout (Size 1) takes two strikes
/// of power 1 in the same hex, each with its own allocation and dice.
#[test]
fn docked_ship_takes_the_blast_twice() {
    let grid = system();
    check_procedure(
        "ship_explosion_docked_ship_twice",
        "Battlestations, Ship to Ship Combat: Ship Explosion (anything docked to an exploding ship suffers the effect twice)",
        "a Size 1 scout explodes with a frigate docked to it",
        &[3, 4, 5, 2, 2, 1, 3, 3, 6, 4, 1],
        |dice, log| {
            let mut exploding = ship("scout");
            exploding.exploded = true;
            let mut b = board(exploding, ship("frigate"));
            let results = grid.explosion(
                1,
                &mut b,
                &[Bystander::Ship {
                    index: 1,
                    distance: 0,
                    side: ShipSide::Port,
                    docked: true,
                }],
                dice,
                log,
            )?;
            let strikes = match &results[0] {
                BlastResult::Ship { strikes, .. } => strikes.len(),
                other => panic!("a ship's result, not {other:?}"),
            };
            assert_eq!(strikes, 2);
            Ok(format!(
                "strikes: {strikes}\nafter: {}",
                describe(&b.ships[1])
            ))
        },
    );
}

/// Ship Explosion: "For microships, you do not add a Damage level but you do
/// make one survival check of 7 plus the number of Damage levels they already
/// have", and "Spacewalkers suffer the full amount as damage dice". A Size 5
/// explosion: a microship with 2 Damage levels 1 hex out rolls 5 + 3 = 8
/// against 9 and is lost; one with none 3 hexes out rolls 4 + 3 = 7 against
/// 7 and survives; one 5 hexes out is not reached; a spacewalker 2 hexes out
/// suffers 3 dice.
#[test]
fn microships_and_spacewalkers_in_a_blast() {
    let grid = system();
    check_procedure(
        "ship_explosion_microships_and_spacewalkers",
        "Battlestations, Ship to Ship Combat: Ship Explosion (microships make a survival check of 7 + Damage levels; spacewalkers suffer the full amount as damage dice)",
        "a Size 5 ship explodes near two microships, a third far off, and a spacewalker",
        &[5, 3, 4, 3],
        |dice, log| {
            let mut b = board(ship("cruiser"), ship("frigate"));
            let results = grid.explosion(
                5,
                &mut b,
                &[
                    Bystander::Microship {
                        distance: 1,
                        damage_levels: 2,
                    },
                    Bystander::Microship {
                        distance: 3,
                        damage_levels: 0,
                    },
                    Bystander::Microship {
                        distance: 5,
                        damage_levels: 0,
                    },
                    Bystander::Spacewalker { distance: 2 },
                ],
                dice,
                log,
            )?;
            let mut out = String::new();
            for r in &results {
                let _ = writeln!(out, "{r:?}");
            }
            Ok(out)
        },
    );
}

/// Hull Damage and Ship Explosion: the chart (damage 1, 3, 6, 10, 15, 21, ...
/// for checks 1, 2, 3, 4, 5, 6, ...), "reduced by ship size", two dice at or
/// over the check, a Hull Stabilizer rerolling one die, Luck rerolling while
/// it lasts, and a check the dice cannot make. The transcript prints the
/// chart and the checks by Size as `broadside table` shows them, then five
/// hull checks:
/// - a cruiser (Size 5) at 15 damage: chart 5 less 5 is 0, no check;
/// - a frigate (Size 2) at 10 damage: chart 4 less 2 is 2, which two dice
///   cannot fail, so no roll;
/// - a destroyer (Size 3, a Hull Stabilizer) at 45 damage: chart 9 less 3 is
///   6; it rolls 2 + 3 = 5, the Stabilizer rerolls the 2 into a 4: 7, holds;
/// - a scout (Size 1, Luck 2) at 36 damage: chart 8 less 1 is 7; it rolls
///   1 + 2, spends both Luck rerolling the lowest die (3, then 1): 3 + 1 = 4
///   fails, and the scout explodes;
/// - a scout at 210 damage: chart 20 less 1 is 19, beyond two dice: it
///   explodes without a roll.
#[test]
fn hull_check_chart() {
    let grid = system();
    let tables = Ruleset::tables(grid);
    let mut out = String::new();
    for id in ["hull-check-chart", "hull-check-by-size"] {
        let table = tables
            .iter()
            .find(|t| t.id == id)
            .expect("the table exists");
        let _ = writeln!(out, "{}: {}", table.id, table.title);
        let _ = writeln!(
            out,
            "  {} | {}",
            table.row_header,
            table.columns.join(" | ")
        );
        for row in &table.rows {
            let _ = writeln!(out, "  {} | {}", row.label, row.cells.join(" | "));
        }
    }
    check_procedure(
        "hull_check_chart_and_checks",
        "Battlestations, Ship to Ship Combat: Hull Damage and Ship Explosion (the hull check chart, reduced by Size; Hull Stabilizer and Luck rerolls)",
        "the hull check chart, and hull checks of five ships",
        &[2, 3, 4, 1, 2, 3, 1],
        |dice, log| {
            for (id, damage) in [
                ("cruiser", 15),
                ("frigate", 10),
                ("destroyer", 45),
                ("scout", 36),
                ("scout", 210),
            ] {
                let mut s = ship(id);
                s.hull_damage = damage;
                let check = grid.hull_check(&mut s, id, dice, log)?;
                let _ = writeln!(
                    out,
                    "{id} at {damage} hull damage: {}; after: {}",
                    match check {
                        None => "no hull check".to_owned(),
                        Some(c) => format!(
                            "check {} (chart {}), dice {:?}, {} Stabilizer and {} Luck rerolls, {}",
                            c.needed,
                            c.chart,
                            c.faces.as_slice(),
                            c.stabilizer_rerolls,
                            c.luck_rerolls,
                            if c.passed { "holds" } else { "fails" }
                        ),
                    },
                    describe(&s)
                );
            }
            Ok(out)
        },
    );
}

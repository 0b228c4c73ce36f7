//! The rules' procedures worked through with scripted dice, as named snapshots.
//!
//! Each test names its source in its doc comment and in the snapshot's
//! description; each snapshot records its inputs. The house-rule cheat sheet
//! gives procedures but no worked numbers, so each script picks dice that
//! make the case happen, and the test says which.

mod common;

use broadside_crew_2d6::model::{Band, Position};
use broadside_crew_2d6::{CombatManeuver, Condition, CrewTactics, DefaultTactics, Reactions};
use common::{
    A, B, Script, ScriptedTactics, battle, check_resolve, check_resolve_in, edited, flag, load,
    mount, num, sources, system, text, weapon, with_gunboat,
};
use serde_json::json;

const SALVO_SOURCE: &str = "Traveller house-rule cheat sheet, Resolve Missile Hits: 2D + 1 per missile beyond the first + TL difference DM (min +1, max +6) against 8+, one missile's damage times the Effect";

/// Cheat sheet, Resolve Missile Hits: a salvo of two smart missiles from the
/// escort (TL 13) at the trader (TL 11), launched at Medium range so it
/// attacks the same round. 2D 4 + 3 = 7, +1 for the second missile, +2 for
/// the TL difference: 10 against 8, Effect +2. One missile's 4D is 3 + 4 +
/// 5 + 6 = 18, less the trader's armour 1 = 17, times the Effect 2 = 34.
/// 34 of 80 hull is four tenths: four severity 1 critical hits, all scripted
/// to Cargo (4 + 5), which rises one severity each time.
#[test]
fn salvo_of_two_missiles_with_a_tl_difference() {
    let r = check_resolve(
        "salvo_two_missiles_tl_difference",
        SALVO_SOURCE,
        "escort",
        "trader",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("medium")),
            ("salvo", num(2)),
        ],
        &[4, 3, 3, 4, 5, 6, 4, 5, 4, 5, 4, 5, 4, 5],
    );
    assert_eq!(r.json["total"], 10);
    assert_eq!(r.json["effect"], 2);
    assert_eq!(r.json["damage"], 34);
    assert_eq!(r.json["target"]["hull"], 46);
}

/// Cheat sheet, Point Defense and Resolve Missile Hits ("Any missiles in a
/// salvo that ... are not destroyed by Point Defense or ECM attack the ship.
/// Roll 2D"): the same salvo, and the trader's gunner first fires point
/// defence with the turret's beam laser: 5 + 4 = 9 against 8, Effect +1,
/// one missile destroyed. Then the one missile left attacks: 4 + 3 + 0 + 2
/// = 9, Effect +1: 4D 18 - armour 1 = 17, x 1 = 17 damage, two tenths of
/// the hull, two sustained-damage critical hits (Cargo, then Cargo again).
#[test]
fn salvo_thinned_by_point_defence() {
    let r = check_resolve(
        "salvo_point_defence_destroys_one",
        "Traveller house-rule cheat sheet, Point Defense (Effect = missiles destroyed) and Resolve Missile Hits",
        "escort",
        "trader",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("medium")),
            ("point-defense", num(1)),
        ],
        &[5, 4, 4, 3, 3, 4, 5, 6, 4, 5, 4, 5],
    );
    assert_eq!(r.json["missiles"]["shot_down"], 1);
    assert_eq!(r.json["total"], 9);
    assert_eq!(r.json["damage"], 17);
}

/// Cheat sheet, Number of Reactions: "Initiative 0-4 = 1; 5-8 = 2, 9-12 = 3,
/// 13+ = 4". The trader's initiative is 2D + Pilot 1 + the Captain's Tactics
/// Effect + thrust 1; its Captain has no Tactics (unskilled, -3), and a
/// Tactics roll of 5 + 6 = 11 - 3 = 8 is Effect 0. Initiative dice 1 + 1,
/// 1 + 2, 5 + 5 and 5 + 6 give 4, 5, 12 and 13.
#[test]
fn reactions_at_initiative_4_5_12_and_13() {
    let sys = system();
    let cases: [(i32, [u32; 2], u8); 4] = [
        (4, [1, 1], 1),
        (5, [1, 2], 2),
        (12, [5, 5], 3),
        (13, [5, 6], 4),
    ];
    let mut dice = Vec::new();
    for (_, faces, _) in cases {
        dice.extend([5, 6]);
        dice.extend(faces);
    }
    let mut script = Script::new(&dice);
    let mut notes = String::new();
    for (expected, _, reactions) in cases {
        let mut b = battle("trader", "corvette", Band::Long);
        let (dice, sink) = script.parts();
        let initiative = sys
            .roll_initiative(&mut b, A, dice, sink)
            .expect("initiative rolls");
        assert_eq!(initiative.total, expected);
        assert_eq!(initiative.reactions, reactions);
        notes.push_str(&format!(
            "initiative {} allows {} reaction(s)\n",
            initiative.total, initiative.reactions
        ));
    }
    script.check(
        "reactions_at_initiative_4_5_12_13",
        "Traveller house-rule cheat sheet, Initiative Step and Number of Reactions: 0-4 = 1, 5-8 = 2, 9-12 = 3, 13+ = 4",
        json!({"ship": "trader", "initiatives": [4, 5, 12, 13]}),
        &notes,
    );
}

/// Cheat sheet, Burning Initiative: "A ship may take more reactions at a
/// cost of -2 Initiative on the next turn for each additional reaction."
/// The corvette (B) rolls initiative 8 (Tactics 2 + 3 + 3 = 8, Effect 0;
/// 1 + 1 + Pilot 2 + thrust 4 = 8): two reactions. The corvette (A) fires
/// its triple beam laser turret (2 + 2 + Gunner 2 + Short 1 + beam laser 4
/// = 11, Effect +3); B dodges (5 + 5 + 3 = 13, Effect +3, the attack drops
/// to 8, Effect 0) and fires sand (4 + 3 + 2 = 9: the hit loses 1D = 3);
/// the hit does 1D 3 + 2 (two extra beam lasers, +1 per die each) + 0 - 4
/// armour = 1, less 3 sand: nothing. A's pulse laser turret fires (3 + 3 +
/// Gunner 1 + Short 1 + pulse laser 2 = 10, Effect +2); B dodges again,
/// its third reaction, burning initiative (6 + 5 + 3 = 14, Effect +4: the
/// attack drops to 6 and misses). Next turn B's initiative with the same
/// dice is 8 - 2 = 6.
#[test]
fn burning_initiative_for_a_third_reaction() {
    let sys = system();
    let mut b = battle("corvette", "corvette", Band::Short);
    let mut script = Script::new(&[
        2, 3, 1, 1, // B's initiative: Tactics, then initiative
        2, 2, 5, 5, 4, 3, 3, 3, // turret-1's attack, dodge, sand, sand's 1D, damage 1D
        3, 3, 6, 5, // turret-3's attack, dodge (burned)
        2, 3, 1, 1, // B's initiative next turn
    ]);
    let idle = ScriptedTactics::default();
    let tactics: [&dyn CrewTactics; 2] = [&idle, &idle];
    let (dice, sink) = script.parts();
    let first = sys
        .roll_initiative(&mut b, B, dice, sink)
        .expect("initiative");
    assert_eq!((first.total, first.reactions), (8, 2));
    sys.maneuver_step(&mut b, [true, true], tactics, dice, sink)
        .expect("an idle maneuver step");
    let both = Reactions {
        dodge: true,
        sand: true,
        ..Reactions::default()
    };
    let dodge = Reactions {
        dodge: true,
        ..Reactions::default()
    };
    let t1 = mount(&b, A, "turret-1");
    let t3 = mount(&b, A, "turret-3");
    sys.fire(&mut b, A, B, t1, weapon("beam-laser"), &both, dice, sink)
        .expect("turret-1 fires");
    let second = sys
        .fire(&mut b, A, B, t3, weapon("pulse-laser"), &dodge, dice, sink)
        .expect("turret-3 fires");
    assert!(second.reactions[0].burned);
    sys.end_of_round(&mut b, sink);
    let next = sys
        .roll_initiative(&mut b, B, dice, sink)
        .expect("initiative");
    assert_eq!((next.total, next.reactions), (6, 2));
    script.check(
        "burning_initiative",
        "Traveller house-rule cheat sheet, Burning Initiative: -2 Initiative next turn for each reaction beyond the allowance",
        json!({"a": "corvette", "b": "corvette", "band": "short", "b_reactions": ["dodge and sand", "dodge"]}),
        &format!(
            "B's initiative {} allows {} reactions; it takes three; next turn its initiative is {} ({} reactions)",
            first.total, first.reactions, next.total, next.reactions
        ),
    );
}

/// Cheat sheet, Line up shot: "Pilot, INT or DEX, Average (8+). Requires
/// one unit of thrust. Effect chains into attack roll for one Gunner." The
/// corvette's Pilot (skill 2, DEX 9: +1) rolls 4 + 4 + 3 = 11, Effect +3,
/// which the task-chain table turns into DM +1 for turret-1's attack:
/// dice 1 + 2, DM 7 (Gunner 2, Short 1, beam laser 4) + 1, total 11 against
/// 8, Effect +3. The three beam lasers do 1D 2 + 2 (two extra weapons, +1
/// per die each) + 3 - armour 1 = 6 to the trader.
#[test]
fn chained_line_up_shot() {
    let sys = system();
    let mut b = battle("corvette", "trader", Band::Short);
    let t1 = mount(&b, A, "turret-1");
    let pilot = ScriptedTactics {
        combat: Some(CombatManeuver::LineUpShot {
            mount: t1,
            target: B,
        }),
        ..ScriptedTactics::default()
    };
    let idle = ScriptedTactics::default();
    let tactics: [&dyn CrewTactics; 2] = [&pilot, &idle];
    let mut script = Script::new(&[4, 4, 1, 2, 2]);
    let (dice, sink) = script.parts();
    sys.maneuver_step(&mut b, [true, true], tactics, dice, sink)
        .expect("the maneuver step");
    let shot = sys
        .fire(
            &mut b,
            A,
            B,
            t1,
            weapon("beam-laser"),
            &Reactions::default(),
            dice,
            sink,
        )
        .expect("turret-1 fires");
    assert_eq!(shot.effect, 3);
    assert_eq!(b.ship(B).hull, 74);
    script.check(
        "chained_line_up_shot",
        "Traveller house-rule cheat sheet, Line up shot: Effect chains into the attack roll of one Gunner (core rules task-chain DM table)",
        json!({"a": "corvette", "b": "trader", "band": "short", "line_up_shot_for": "turret-1"}),
        "the Pilot lines up a shot for turret-1, whose attack takes the chained DM",
    );
}

/// Cheat sheet, Overcharge Engines: "Engineer (Power or M-Drive), EDU,
/// Average (8+) ... An Effect of -4 causes one Hit to the M-Drive." The
/// trader's Engineer (M-drive 1, EDU 8: +0) rolls 1 + 2 + 1 = 4, Effect -4:
/// thrust 1 - 4 is kept at 0, and the M-drive takes a severity 1 critical
/// hit (DM-1 to checks to control the ship).
#[test]
fn overcharge_that_damages_the_m_drive() {
    let sys = system();
    let mut b = battle("trader", "corvette", Band::Long);
    let mut script = Script::new(&[1, 2]);
    let (dice, sink) = script.parts();
    let result = sys.overcharge(&mut b, A, dice, sink).expect("overcharge");
    assert_eq!(result.check.effect, -4);
    assert_eq!(result.hits, 1);
    assert_eq!(result.thrust, 0);
    assert_eq!(b.ship(A).severity[common::location("m-drive")], 1);
    script.check(
        "overcharge_damages_m_drive",
        "Traveller house-rule cheat sheet, Overcharge Engines: an Effect of -4 causes one hit to the M-Drive, -6 two",
        json!({"ship": "trader", "engineer": "Gus Varga"}),
        "the trader's Engineer overcharges and rolls Effect -4",
    );
}

/// Core rules, Critical Hits, as published summaries give them: an attack
/// with Effect 6 or more that does damage is a critical hit of severity
/// damage / 10 rounded up. The corvette's triple beam laser turret at the
/// trader at Short range: 6 + 6 + Gunner 2 + Short 1 + beam laser 4 = 19,
/// Effect +11; 1D 6 + 2 (two extra beam lasers, +1 per die each) + 11 -
/// armour 1 = 18 damage, severity 2; location 4 + 4 = 8, the M-drive: DM-1 to pilot
/// checks and thrust -1 (the trader's thrust 1 falls to 0). 18 of 80 hull
/// is two tenths: two sustained-damage hits, both to Cargo (4 + 5).
#[test]
fn a_critical_hit() {
    let r = check_resolve(
        "critical_hit_m_drive_severity_2",
        "Traveller (Mongoose 2nd edition) core rules, Critical Hits: Effect 6+ and damage, severity = damage / 10 rounded up, location 2D; sustained damage every 10% of hull",
        "corvette",
        "trader",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("short")),
        ],
        &[6, 6, 6, 4, 4, 4, 5, 4, 5],
    );
    assert_eq!(r.json["effect"], 11);
    assert_eq!(r.json["damage"], 18);
    assert_eq!(r.json["criticals"][0]["location"], "m-drive");
    assert_eq!(r.json["criticals"][0]["severity"], 2);
    assert_eq!(r.json["target"]["thrust"], 0);
}

/// Cheat sheet, Dodge Attack and Fire Sand ("reduce incoming beam damage by
/// 1d6"), resolved from the command line's flags: the corvette's two pulse
/// lasers at the trader at Medium. Dice 5 + 4 with DM 3 (Gunner 1, Medium
/// 0, pulse laser 2) make 12, Effect +4. The trader's Pilot (1, INT or DEX
/// 7: +0) dodges: dice 6 + 5 with DM 1 make 12 against 10, Effect +2, and
/// the attack drops to 10, Effect +2. Its gunner fires sand: 4 + 4 = 8
/// against 8, success, 1D = 2 off. Damage 2D 3 + 3 + 2 (the second pulse
/// laser, +1 per die) + Effect 2 - armour 1 = 9, less sand 2: 7.
#[test]
fn dodge_and_sand_against_a_laser() {
    let r = check_resolve(
        "dodge_and_sand_against_pulse_lasers",
        "Traveller house-rule cheat sheet, Dodge Attack (Difficult 10+, the attack takes -Effect) and Fire Sand (a beam hit loses 1D damage)",
        "corvette",
        "trader",
        &[
            ("weapon", text("pulse-laser")),
            ("range-band", text("medium")),
            ("dodge", flag()),
            ("sand", flag()),
        ],
        &[5, 4, 6, 5, 4, 4, 2, 3, 3],
    );
    assert_eq!(r.json["total"], 10);
    assert_eq!(r.json["damage"], 7);
}

/// Core rules, Spacecraft Weapons: barbettes multiply damage by 3. A
/// test-only gunboat's particle beam barbette at the corvette at Long
/// range: 5 + 5 + 1 (Gunner 1) - 2 (Long) = 9, Effect +1; 3D 4 + 4 + 4 + 1 -
/// armour 4 = 9, times 3 = 27. 27 of 160 is one tenth: one sustained-damage
/// critical hit (Cargo).
#[test]
fn barbette_multiplies_damage() {
    let r = check_resolve_in(
        with_gunboat(),
        "barbette_particle_beam_times_three",
        "Traveller (Mongoose 2nd edition) core rules, Spacecraft Weapons: barbette damage x3, after armour",
        "gunboat",
        "corvette",
        &[
            ("weapon", text("particle-beam")),
            ("range-band", text("long")),
        ],
        &[5, 5, 4, 4, 4, 4, 5],
    );
    assert_eq!(r.json["damage"], 27);
    assert_eq!(r.json["multiplier"], 3);
}

/// Core rules, Critical Hits: the M-drive's effects escalate with
/// severity: 1: DM-1 on pilot checks; 2: thrust -1; 3: thrust -1 more; 4:
/// thrust -1 more; 5: thrust 0; 6: thrust 0 and the Hull's severity +1.
/// Six severity 1 hits on the corvette's M-drive (thrust 4), each raising it
/// one step; at 6 the Hull takes a severity 1 hit, 1D = 3 damage.
#[test]
fn m_drive_criticals_escalate() {
    let sys = system();
    let mut b = battle("trader", "corvette", Band::Long);
    let label = b.labels[1];
    let m_drive = common::location("m-drive") as u8;
    let mut script = Script::new(&[3]);
    let mut notes = String::new();
    let mut applied = broadside_crew_2d6::Applied::default();
    for step in 1..=6u8 {
        let (dice, sink) = script.parts();
        sys.critical(
            b.ship_mut(B),
            label,
            m_drive,
            1,
            broadside_crew_2d6::Cause::Attack,
            &mut applied,
            dice,
            sink,
        )
        .expect("a critical hit");
        let ship = b.ship(B);
        notes.push_str(&format!(
            "after hit {step}: M-drive severity {}, thrust {}, pilot check DM {:+}, hull {}\n",
            ship.severity[usize::from(m_drive)],
            ship.thrust(&sys.rules),
            ship.standing
                .dm_for(broadside_crew_2d6::model::Group::Pilot.bit()),
            ship.hull
        ));
    }
    let ship = b.ship(B);
    assert_eq!(ship.thrust(&sys.rules), 0);
    assert_eq!(ship.hull, 157);
    script.check(
        "m_drive_criticals_escalate",
        "Traveller (Mongoose 2nd edition) core rules, Critical Hits, M-Drive location: severity 1 DM-1, 2-4 thrust -1 each, 5 thrust 0, 6 thrust 0 and Hull severity +1",
        json!({"ship": "corvette", "hits": "six severity 1 hits to the M-drive"}),
        &notes,
    );
}

/// Seed 004, "Attack Step (in Initiative order – one per ship position)",
/// and "some players may operate multiple positions": with the default
/// tactics the scout's Kessa Moor (Captain and Pilot) inspires and fires the
/// fixed beam laser, and Dain Orrel (Sensors, Comms and turret-1's Gunner)
/// finds a targeting solution and fires the pulse laser, at the trader at
/// Short range.
/// - Inspire: Leadership 1, SOC 6 (+0): 4 + 4 + 1 = 9, Effect +1, chained
///   DM +1 to next turn's initiative.
/// - Targeting solution: Electronics (sensors) 2, EDU 10 (+1), military
///   sensors +0: 3 + 3 + 3 = 9, Effect +1, chained DM +1 to turret-1.
/// - Fixed beam laser: Gunner (turret) 0, DEX 9 (+1), Short +1, beam laser
///   +4: 2 + 2 + 6 = 10, Effect +2; 1D 3 + 2 - armour 1 = 4, hull 76.
/// - Pulse laser: Gunner (turret) 1, INT 9 (+1), Short +1, pulse laser +2,
///   chained +1: 2 + 2 + 6 = 10, Effect +2; 2D 1 + 1 + 2 - 1 = 3, hull 73.
#[test]
fn one_action_per_position_for_a_crew_holding_several() {
    let sys = system();
    let mut b = battle("scout", "trader", Band::Short);
    let scout = DefaultTactics::default();
    let idle = ScriptedTactics::default();
    let tactics: [&dyn CrewTactics; 2] = [&scout, &idle];
    let orders = scout.actions(sys, &b, A);
    let positions: Vec<(u8, Position)> = orders.iter().map(|o| (o.person, o.position)).collect();
    let t1 = mount(&b, A, "turret-1");
    assert_eq!(
        positions,
        [
            (1, Position::Gunner(t1)),
            (0, Position::Pilot),
            (1, Position::Sensors),
            (0, Position::Captain),
        ]
    );
    let mut script = Script::new(&[4, 4, 3, 3, 2, 2, 3, 2, 2, 1, 1]);
    let (dice, sink) = script.parts();
    sys.attack_step(&mut b, [true, false], tactics, dice, sink)
        .expect("the attack step");
    assert_eq!(b.state(A).inspire_dm, 1);
    assert_eq!(b.ship(B).hull, 73);
    script.check(
        "one_action_per_position",
        "Seed 004, Attack Step: one action per ship position; some players may operate multiple positions",
        json!({"a": "scout", "b": "trader", "band": "short", "tactics": "default for the scout, none for the trader"}),
        "Kessa Moor acts as Captain and as Pilot; Dain Orrel as Sensor Operator and as turret-1's Gunner",
    );
}

/// Critical hit table, Weapon severity 1: "a random weapon suffers a Bane
/// when used". The trader's first missile rack suffers a Bane; turret-2's
/// unskilled gunner (-3, INT 7 +0) launches both racks at the scout at
/// Short range, so the launch check rolls 3D and keeps the lowest two:
/// [2, 3, 6] = 5 - 3 = 2 against Simple 2+, Effect 0. The salvo's attack
/// takes the Bane too: [6, 6, 1] = 7, +1 for the second missile, +1 for
/// the TL difference (11 - 12 = -1, raised to the minimum) = 9 against 8,
/// Effect +1 (without the Bane 6 + 6 would make 14). One missile's 4D
/// 2 + 2 + 2 + 2 = 8 less armour 2 = 6, x 1 = 6: hull 34 of 40, one tenth
/// lost, a severity 1 critical hit at Cargo (4 + 5).
#[test]
fn a_missile_rack_under_a_bane() {
    let sys = system();
    let mut b = battle("trader", "scout", Band::Short);
    let t2 = mount(&b, A, "turret-2");
    let rack = sys.rules.class(b.ship(A).class).mounts[usize::from(t2)].slots[0];
    b.ship_mut(A).weapons[usize::from(rack)] = Condition::Bane;
    let idle = ScriptedTactics::default();
    let tactics: [&dyn CrewTactics; 2] = [&idle, &idle];
    let mut script = Script::new(&[2, 3, 6, 6, 6, 1, 2, 2, 2, 2, 4, 5]);
    let (dice, sink) = script.parts();
    sys.launch(
        &mut b,
        A,
        Position::Gunner(t2),
        (weapon("missile-rack"), 2, B),
        dice,
        sink,
    )
    .expect("the launch");
    assert!(b.salvos[0].bane);
    sys.missile_step(&mut b, tactics, dice, sink)
        .expect("the salvo strikes");
    assert_eq!(b.ship(B).hull, 34);
    script.check(
        "missile_rack_under_a_bane",
        "Critical hit table, Weapon severity 1: a random weapon suffers a Bane when used (launch check and the salvo's attack)",
        json!({"a": "trader", "b": "scout", "band": "short", "bane": "turret-2's first missile rack"}),
        "the trader launches two missiles, one rack under a Bane",
    );
}

/// Seed 004, "Resolve Missile Hits" and "ECM against missiles about to
/// hit": the escort's two missiles at the corvette at Medium; the
/// corvette's Sensor Operator (Electronics (sensors) 2, EDU 9 +1, military
/// sensors +0) rolls ECM first: 4 + 4 + 3 = 11 against Difficult 10+,
/// Effect +1, one missile removed. Only then does the one missile left
/// attack: 5 + 5, +0 (no second missile), +1 (TL 13 - 12) = 11, Effect +3.
/// One missile's 4D 2 + 2 + 2 + 2 = 8 less armour 4 = 4, x 3 = 12.
#[test]
fn ecm_before_the_salvo_attacks() {
    let r = check_resolve(
        "salvo_ecm_removes_one",
        "Seed 004, ECM against missiles about to hit (Effect = missiles removed) and Resolve Missile Hits (missiles not destroyed by Point Defense or ECM attack; roll 2D)",
        "escort",
        "corvette",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("medium")),
            ("ecm", flag()),
        ],
        &[4, 4, 5, 5, 2, 2, 2, 2],
    );
    assert_eq!(r.json["missiles"]["jammed"], 1);
    assert_eq!(r.json["total"], 11);
    assert_eq!(r.json["damage"], 12);
}

/// Seed 004, "Point Defense to destroy missiles about to hit" and "Effect
/// equals the number of missiles destroyed": the corvette declares point
/// defence from two mounts and ECM against the escort's two missiles. Its
/// triple beam laser turret (Gunner (turret) 2, DEX 8 +0, triple +2) rolls
/// 5 + 5 + 4 = 14, Effect +6: both missiles destroyed (2 removed, not 6).
/// No missile is left about to hit, so the second point defence and the
/// ECM are not made and spend no reaction, and no attack is rolled.
#[test]
fn nothing_more_against_a_salvo_wholly_destroyed() {
    let r = check_resolve(
        "salvo_destroyed_by_the_first_point_defence",
        "Seed 004, Point Defense and ECM against missiles about to hit; Effect equals the number of missiles destroyed",
        "escort",
        "corvette",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("medium")),
            ("point-defense", num(2)),
            ("ecm", flag()),
        ],
        &[5, 5],
    );
    let reactions = r.json["reactions"].as_array().expect("reactions");
    assert_eq!(reactions.len(), 1, "one reaction taken");
    assert_eq!(reactions[0]["amount"], 2);
    assert_eq!(r.json["missiles"]["shot_down"], 2);
    assert_eq!(r.json["missiles"]["attacking"], 0);
    assert_eq!(r.json["damage"], 0);
}

/// Seed 004, Point Defense: "Gunnery (Turret or Bay) ... Only weapons with
/// the Point Defense trait may be used." A copy of the data puts the
/// trader's beam laser in a small bay; its gunner has no Gunner (capital)
/// skill (-3, DEX 8 +0, one weapon +0): 6 + 6 - 3 = 9, Effect +1, one of
/// the corvette's two missiles destroyed. The other attacks: 4 + 4 + 1 (TL
/// 12 - 11) = 9, Effect +1; 4D 1 + 1 + 1 + 1 = 4 less armour 1 = 3, x 1.
#[test]
fn point_defence_from_a_bay() {
    let bay = load(&edited(
        &sources(),
        "ships.toml",
        r#"{ id = "turret-1", kind = "turret", weapons = ["beam-laser", "sandcaster"] }"#,
        r#"{ id = "turret-1", kind = "small-bay", weapons = ["beam-laser"] }"#,
    ));
    let r = check_resolve_in(
        &bay,
        "point_defence_from_a_small_bay",
        "Seed 004, Point Defense: Gunnery (Turret or Bay); only weapons with the Point Defense trait",
        "corvette",
        "trader",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("short")),
            ("point-defense", num(1)),
        ],
        &[6, 6, 4, 4, 1, 1, 1, 1],
    );
    assert_eq!(r.json["missiles"]["shot_down"], 1);
    assert_eq!(r.json["damage"], 3);
}

/// Seed 004, Fire Sand: "reduce incoming beam damage by 1d6": the damage
/// that comes in, after a bay multiplies it. A copy of the data puts the
/// corvette's beam laser in a small bay (x10); its gunner has no Gunner
/// (capital) skill: 5 + 5 - 3 + 0 (DEX 8) + 1 (Short) + 4 (beam laser) =
/// 12, Effect +4. The escort's sandcaster gunner (1, INT 9 +1) rolls
/// 4 + 4 + 2 = 10, success, 1D = 4. Damage (1D 6 + 4 - armour 5) x 10 =
/// 50, less sand 4 = 46 (not (6 + 4 - 4 - 5) x 10 = 10). 46 of 200 is two
/// whole tenths: two severity 1 hits at the Computer (6 + 6 each).
#[test]
fn sand_after_the_bay_multiplier() {
    let bay = load(&edited(
        &sources(),
        "ships.toml",
        r#"{ id = "turret-1", kind = "turret", weapons = ["beam-laser", "beam-laser", "beam-laser"] }"#,
        r#"{ id = "turret-1", kind = "small-bay", weapons = ["beam-laser"] }"#,
    ));
    let r = check_resolve_in(
        &bay,
        "sand_against_a_small_bay_laser",
        "Seed 004, Fire Sand at incoming Beam attack: reduce incoming beam damage by 1d6",
        "corvette",
        "escort",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("short")),
            ("sand", flag()),
        ],
        &[5, 5, 4, 4, 4, 6, 6, 6, 6, 6],
    );
    assert_eq!(r.json["effect"], 4);
    assert_eq!(r.json["multiplier"], 10);
    assert_eq!(r.json["target"]["hull"], 154);
}

/// Seed 004, "Attempt Boarding Action: Opposed Pilot. This action requires
/// one point of Thrust to attempt and Ships must be in Adjacent Range
/// Band." With the duel option `board`, the default tactics attempt it: a
/// seeded trial starting at Adjacent range shows boarding attempts, which
/// the default tactics (without the option) never make.
#[test]
fn boarding_is_reachable_with_the_board_option() {
    let ruleset: &dyn broadside_core::Ruleset = system();
    let log_of = |board: bool| {
        let mut pairs = vec![("start-band", text("adjacent"))];
        if board {
            pairs.push(("board", flag()));
        }
        let duel = ruleset
            .prepare_battle(&common::duel_request("escort", "corvette", 3, &pairs))
            .expect("the duel is set up");
        let mut log = broadside_core::EventLog::default();
        broadside_core::play_trial(&*duel, 5, 0, &mut log).expect("the trial plays");
        log.events
            .iter()
            .filter(|e| e.to_string().contains("Attempt Boarding Action"))
            .count()
    };
    assert!(log_of(true) > 0);
    assert_eq!(log_of(false), 0);
}

//! Fleets: every rule that reads more than one ship a side, each with scripted dice and the arithmetic of the sample ships.
//!
//! Seed lines are those of the house-rule cheat sheet (seed 004); R is the
//! reference note of facts from the core rules. Ships are numbered in
//! roster order: side A's as named, then side B's.
//!
//! DMs used below, from `rulesets/crew-2d6/ships.toml`:
//! - initiative: corvette and escort Pilot 2 + thrust 4 = +6, scout 2 + 2 =
//!   +4, trader 1 + 1 = +2, each with its Captain's Tactics Effect; Tactics
//!   dice 2, 3 give the corvette and the escort Effect 0 (Tactics 2, INT 9
//!   +1), 4, 4 the scout (Tactics 0, INT 8), 5, 6 the trader (unskilled -3);
//! - sensors: corvette +3 (skill 2, EDU 9 +1), escort +5 (3, EDU 10 +1,
//!   improved +1), scout +3 (2, EDU 10 +1), trader -2 (0, civilian -2);
//! - Pilot: corvette and scout +3 (skill 2, DEX 9 +1), trader +1;
//! - Gunner (turret): the corvette's Tomas Kerr (turret-1) +2 and Ada Fenn
//!   (turret-2) +2, the escort's Eno Ruiz (turret-1) +2 and Hal Ostrow
//!   (turret-2) +2;
//! - armour: scout 2, trader 1; hull: scout 40, trader 80.

mod common;

use broadside_core::{
    EventLog, NullSink, ResolveError, Ruleset, ScriptedDice, Side, TurnSequence, Verdict,
    play_trial,
};
use broadside_crew_2d6::ShipId as S;
use broadside_crew_2d6::model::{Band, Position};
use broadside_crew_2d6::{
    Action, Battle, CrewTactics, DefaultTactics, Focus, Order, Reactions, Sequence, Setup, ShipId,
};
use common::{
    PerShip, ScriptedTactics, check_named, event_lines, fleet, fleet_request, mount, numbered,
    system, text, weapon,
};
use serde_json::json;

/// An order for the attack step.
fn order(person: u8, position: Position, action: Action) -> Order {
    Order {
        person,
        position,
        action,
    }
}

/// Scripted orders for some ships of a battle, by roster number.
fn orders(battle: &Battle, given: &[(ShipId, Vec<Order>)]) -> PerShip {
    let mut per = vec![ScriptedTactics::default(); battle.len()];
    for (ship, list) in given {
        per[ship.index()].actions = list.clone();
    }
    PerShip(per)
}

/// Seed 004 line 13, "Initiative Step: {2d6} + {the Pilot's skill} + {roll
/// by Captain for Tactic's (naval) ...} + {the ship's M-Drive Thrust
/// rating}", made by every ship (Ruling 37): A = corvette, scout; B =
/// escort, trader. Corvette Tactics 2 + 3 (Effect 0), 3 + 3 + 6 = 12;
/// scout 4 + 4 (Effect 0), 6 + 6 + 4 = 16; escort 2 + 3, 1 + 2 + 6 = 9;
/// trader 5 + 6 - 3 = 8 (Effect 0), 5 + 5 + 2 = 12. The corvette and the
/// trader tie at 12 across the sides: the d6 shows 5, so side B's trader
/// goes first. Reactions (line 57): 16 gives 4, 12 and 9 give 3.
#[test]
fn every_ship_rolls_initiative_into_one_order() {
    let sys = system();
    let mut b = fleet(&["corvette", "scout"], &["escort", "trader"], Band::Long);
    let mut dice = ScriptedDice::new([2, 3, 3, 3, 4, 4, 6, 6, 2, 3, 1, 2, 5, 6, 5, 5, 5]);
    let mut log = EventLog::default();
    sys.initiative_step(&mut b, &mut dice, &mut log)
        .expect("initiative");
    assert_eq!(dice.used(), 17);
    let totals: Vec<i32> = b.states.iter().map(|s| s.initiative).collect();
    assert_eq!(totals, [12, 16, 9, 12]);
    assert_eq!(b.order, [S(1), S(3), S(0), S(2)]);
    let reactions: Vec<u8> = b.states.iter().map(|s| s.reactions).collect();
    assert_eq!(reactions, [3, 4, 3, 3]);
    assert!(
        event_lines(&log.events)
            .iter()
            .any(|e| e.contains("initiative tie at 12") && e.contains("side B's tied ships"))
    );
}

/// Ruling 37: ships of one side tied on initiative keep their roster order
/// and roll no die. Two corvettes at 12 (2 + 3, 3 + 3 + 6) and the scout at
/// 6 (4 + 4, 1 + 1 + 4): twelve dice, no tie-break.
#[test]
fn a_tie_within_one_side_needs_no_die() {
    let sys = system();
    let mut b = fleet(&["corvette", "corvette"], &["scout"], Band::Long);
    let mut dice = ScriptedDice::new([2, 3, 3, 3, 2, 3, 3, 3, 4, 4, 1, 1]);
    sys.initiative_step(&mut b, &mut dice, &mut NullSink)
        .expect("initiative");
    assert_eq!(dice.used(), 12);
    assert_eq!(b.order, [S(0), S(1), S(2)]);
}

/// Ruling 37: a tie of ships of both sides is one d6 for the tied group;
/// each side's tied ships keep their roster order. Two corvettes and the
/// escort all at 12 (2 + 3, then 3 + 3 + 6 each): a 2 puts side A first, a
/// 5 side B.
#[test]
fn a_three_way_tie_is_one_die() {
    let sys = system();
    for (die, expected) in [(2, [S(0), S(1), S(2)]), (5, [S(2), S(0), S(1)])] {
        let mut b = fleet(&["corvette", "corvette"], &["escort"], Band::Long);
        let mut dice = ScriptedDice::new([2, 3, 3, 3, 2, 3, 3, 3, 2, 3, 3, 3, die]);
        sys.initiative_step(&mut b, &mut dice, &mut NullSink)
            .expect("initiative");
        assert_eq!(dice.used(), 13);
        assert_eq!(b.order, expected, "d6 {die}");
    }
}

/// Seed 004 line 7, "If either side fails their scanning attempt then the
/// other side gets a free round of actions", with every ship scanning
/// (Ruling 38): A = corvette, trader; B = scout, at Long. The corvette
/// rolls 1 + 1 + 3 = 5 and fails, the trader 6 + 6 - 2 = 10 and finds the
/// enemy, the scout 1 + 1 + 3 = 5 and fails: side A has found the enemy and
/// side B has not, so the free round is A's. With the trader failing too
/// (1 + 1 - 2 = 0) and the scout succeeding (6 + 6 + 3 = 15), it is B's.
#[test]
fn a_side_finds_the_enemy_when_any_of_its_ships_does() {
    let sys = system();
    let setup = Setup {
        start_band: Some(Band::Long),
        ..Setup::default()
    };
    for (faces, free) in [([1, 1, 6, 6, 1, 1], Side::A), ([1, 1, 1, 1, 6, 6], Side::B)] {
        let mut b = fleet(&["corvette", "trader"], &["scout"], Band::VeryLong);
        let mut dice = ScriptedDice::new(faces);
        sys.set_up(&mut b, &setup, &mut dice, &mut NullSink)
            .expect("setting up");
        assert_eq!(dice.used(), 6);
        assert_eq!(b.free_round, Some(free), "{faces:?}");
        assert!(b.pairs.iter().all(|p| p.band == Band::Long));
    }
}

/// Seed 004 line 5, "Near a planet or other object = Medium (1-2 on a d6)
/// to Long (3-6 on a d6)": one d6 for the whole battle, then each side's
/// `echelon` (Ruling 39) moves a ship's pairs farther (+) or closer (-). A
/// = corvette (echelon -1), trader (+1); B = scout (0), escort (+1). The d6
/// shows 4: Long. Corvette-scout Long - 1 = Medium; corvette-escort Long;
/// trader-scout Long + 1 = Very Long; trader-escort Long + 2 = Distant.
#[test]
fn echelons_move_each_pairs_starting_band() {
    let sys = system();
    let setup = Setup {
        near_object: true,
        echelon: vec![-1, 1, 0, 1],
        ..Setup::default()
    };
    let mut b = fleet(
        &["corvette", "trader"],
        &["scout", "escort"],
        Band::VeryLong,
    );
    let mut dice = ScriptedDice::new([4, 6, 6, 6, 6, 6, 6, 6, 6]);
    sys.set_up(&mut b, &setup, &mut dice, &mut NullSink)
        .expect("setting up");
    assert_eq!(
        [
            b.band(S(0), S(2)),
            b.band(S(0), S(3)),
            b.band(S(1), S(2)),
            b.band(S(1), S(3))
        ],
        [Band::Medium, Band::Long, Band::VeryLong, Band::Distant]
    );
    assert_eq!(b.free_round, None, "every scan succeeded");
}

/// Seed 004 lines 21 and 25: "Apply thrust toward or away from target" and
/// "Add two thrusts applied toward or away from each other, Subtract
/// thrusts that were applied in different directions". The sides face each
/// other, so a ship's thrust toward or away from its target counts in each
/// of its pairs (Ruling 40). A = corvette, scout; B = trader; all at Long,
/// which takes 10 thrust to leave. Each round the corvette applies 4 toward
/// the trader and the trader 1 toward the scout: corvette-trader closes 4 +
/// 1 = 5 a round, to 5, then 10 (Medium, nothing over), then 5 (Short);
/// scout-trader closes by the trader's 1 alone: 1, 2, 3, still Long. Then a
/// pursuit: the corvette 4 toward the trader, the trader 1 away from the
/// corvette: corvette-trader 4 - 1 = 3 leaves Short (2) for Close, and the
/// 1 over leaves Close (1) for Adjacent; scout-trader opens by 1, to 2.
#[test]
fn each_pair_moves_by_the_thrust_of_its_two_ships() {
    let sys = system();
    let mut b = fleet(&["corvette", "scout"], &["trader"], Band::Long);
    let (corvette, scout, trader) = (S(0), S(1), S(2));
    let mut bands = Vec::new();
    for _ in 0..3 {
        b.state_mut(corvette).applied = 4;
        b.state_mut(corvette).maneuver_target = Some(trader);
        b.state_mut(trader).applied = 1;
        b.state_mut(trader).maneuver_target = Some(scout);
        sys.adjust_range(&mut b, &mut NullSink);
        let (near, far) = (b.pair(corvette, trader), b.pair(scout, trader));
        bands.push((near.band, near.closing, far.band, far.closing));
    }
    assert_eq!(
        bands,
        [
            (Band::Long, 5, Band::Long, 1),
            (Band::Medium, 0, Band::Long, 2),
            (Band::Short, 0, Band::Long, 3),
        ]
    );
    b.state_mut(trader).applied = -1;
    b.state_mut(trader).maneuver_target = Some(corvette);
    sys.adjust_range(&mut b, &mut NullSink);
    let near = b.pair(corvette, trader);
    assert_eq!((near.band, near.closing), (Band::Adjacent, 0));
    assert_eq!(
        b.pair(scout, trader).closing,
        2,
        "the trader opens from both"
    );
    // A ship that applied no Maneuver moves no band, whatever its record.
    b.state_mut(trader).maneuver_target = None;
    b.state_mut(corvette).maneuver_target = None;
    sys.adjust_range(&mut b, &mut NullSink);
    assert_eq!(b.pair(scout, trader).closing, 2);
}

/// Seed 004 lines 21 and 25 move the band between two ships by the thrust
/// they apply; a ship that has jumped away or been wrecked is out of the
/// fight (Ruling 47), and its pairs no longer move. A = corvette, scout;
/// B = trader, all at Long. The scout has jumped; the trader applies 1
/// toward the corvette, which counts in each of its pairs (Ruling 40): the
/// corvette-trader pair closes 1, the scout-trader pair stays as it was.
/// The same holds with the scout wrecked instead.
#[test]
fn a_ship_out_of_the_fight_moves_no_band() {
    let sys = system();
    for out in ["jumped away", "wrecked"] {
        let mut b = fleet(&["corvette", "scout"], &["trader"], Band::Long);
        let (corvette, scout, trader) = (S(0), S(1), S(2));
        if out == "jumped away" {
            b.state_mut(scout).jumped = true;
        } else {
            b.ship_mut(scout).hull = 0;
        }
        assert!(!b.present(scout), "{out}");
        b.state_mut(trader).applied = 1;
        b.state_mut(trader).maneuver_target = Some(corvette);
        sys.adjust_range(&mut b, &mut NullSink);
        let (near, far) = (b.pair(corvette, trader), b.pair(scout, trader));
        assert_eq!((near.band, near.closing), (Band::Long, 1), "{out}");
        assert_eq!((far.band, far.closing), (Band::Long, 0), "{out}");
    }
}

/// Seed 004 line 52, "Direct Fire Weapons ... Add Common Modifiers for
/// Range": the range is the pair's (Ruling 41). A = corvette; B = scout at
/// Long, trader at Short. The beam lasers (Medium) cannot reach the scout:
/// refused, no dice. At the trader: Gunner +2, Short +1, beam laser +4: 3 +
/// 3 + 7 = 13, Effect +5; damage 1D 1 + 2 (two more lasers, +1 per die
/// each) + 5 - armour 1 = 7, hull 73. A friend is never a target.
#[test]
fn fire_uses_the_band_of_the_pair() {
    let sys = system();
    let mut b = fleet(&["corvette"], &["scout", "trader"], Band::Short);
    b.pair_mut(S(0), S(1)).band = Band::Long;
    let t1 = mount(&b, S(0), "turret-1");
    let laser = weapon("beam-laser");
    let none = Reactions::default();
    let mut dice = ScriptedDice::new([3, 3, 1]);
    let refused = sys.fire(
        &mut b,
        S(0),
        S(1),
        t1,
        laser,
        &none,
        &mut dice,
        &mut NullSink,
    );
    assert!(
        matches!(&refused, Err(ResolveError::Refused(m)) if m.contains("Medium range and the target is at Long")),
        "{refused:?}"
    );
    assert_eq!(dice.used(), 0);
    let hit = sys
        .fire(
            &mut b,
            S(0),
            S(2),
            t1,
            laser,
            &none,
            &mut dice,
            &mut NullSink,
        )
        .expect("in range");
    assert_eq!((hit.total, hit.effect), (13, 5));
    assert_eq!((b.ship(S(2)).hull, b.ship(S(1)).hull), (73, 40));
    assert_eq!(dice.used(), 3);
    let mut friends = fleet(&["corvette", "scout"], &["trader"], Band::Short);
    let friendly = sys.fire(
        &mut friends,
        S(0),
        S(1),
        t1,
        laser,
        &none,
        &mut ScriptedDice::new([6, 6]),
        &mut NullSink,
    );
    assert!(
        matches!(&friendly, Err(ResolveError::Refused(m)) if m.contains("same side")),
        "{friendly:?}"
    );
}

/// Ruling 42: aim and chained DMs made against another ship are spent by
/// the mount's next attack without effect, and the log says how many.
fn check_spent_elsewhere(log: &EventLog, expected: &str) {
    let lines = event_lines(&log.events);
    assert!(
        lines.iter().any(|l| l.contains(expected)),
        "no line says '{expected}':\n{}",
        lines.join("\n")
    );
}

/// Seed 004 line 36, "Gunners may designate a target they are aiming at
/// ... This may be repeated up to three times against the same target
/// before firing." A = corvette; B = trader, scout; at Short. Turret-1 aims
/// at the trader, then, next round, at the scout: the count starts again
/// at one. In a fresh battle it aims at the trader and fires at the scout:
/// no aim DM (Ruling 42), 1 + 1 + 7 = 9, Effect +1; damage 1 + 2 + 1 -
/// armour 2 = 2, scout 38; the aim is spent.
#[test]
fn aim_counts_against_the_same_target_only() {
    let sys = system();
    let (trader, scout) = (S(1), S(2));
    let mut b = fleet(&["corvette"], &["trader", "scout"], Band::Short);
    let t1 = mount(&b, S(0), "turret-1");
    let aim = |target| order(3, Position::Gunner(t1), Action::Aim { mount: t1, target });
    let idle = PerShip::default();
    let mut log = EventLog::default();
    for target in [trader, trader, scout] {
        let own = orders(&b, &[(S(0), vec![aim(target)])]);
        sys.attack_step(
            &mut b,
            [true, false],
            [&own, &idle],
            &mut ScriptedDice::new([]),
            &mut log,
        )
        .expect("aims");
        sys.end_of_round(&mut b, &mut log);
    }
    let state = b.state(S(0));
    assert_eq!(
        (
            state.aim[usize::from(t1)],
            state.aim_target[usize::from(t1)]
        ),
        (1, scout)
    );
    assert!(
        event_lines(&log.events)
            .iter()
            .any(|e| e.contains("its 2 aim(s) at another ship are lost"))
    );

    let mut b = fleet(&["corvette"], &["trader", "scout"], Band::Short);
    let own = orders(&b, &[(S(0), vec![aim(trader)])]);
    sys.attack_step(
        &mut b,
        [true, false],
        [&own, &idle],
        &mut ScriptedDice::new([]),
        &mut NullSink,
    )
    .expect("aims");
    sys.end_of_round(&mut b, &mut NullSink);
    let mut dice = ScriptedDice::new([1, 1, 1]);
    let mut log = EventLog::default();
    let shot = sys
        .fire(
            &mut b,
            S(0),
            scout,
            t1,
            weapon("beam-laser"),
            &Reactions::default(),
            &mut dice,
            &mut log,
        )
        .expect("fires");
    assert_eq!((shot.total, shot.effect), (9, 1));
    assert_eq!(b.ship(scout).hull, 38);
    assert_eq!(b.state(S(0)).aim[usize::from(t1)], 0);
    check_spent_elsewhere(
        &log,
        "ruling: 1 aim or chained DM(s) of the corvette (A)'s mount turret-1 were made against another ship: spent without effect on an attack on the scout (B)",
    );
}

/// Seed 004 line 42, "Find Targeting Solution ... Chain Effect to one
/// Gunner's attack for this turn", for one target (Ruling 42). A = escort;
/// B = trader, scout; at Short. The Sensor Operator's solution for
/// turret-1 on the trader: 3 + 3 + 5 = 11, Effect +3, chain DM +1.
/// Turret-1 then fires at the scout without it: 1 + 1 + 7 = 9, Effect +1;
/// damage 1 + 2 + 1 - 2 = 2, scout 38. Five dice.
#[test]
fn a_targeting_solution_helps_only_against_its_target() {
    let sys = system();
    let (trader, scout) = (S(1), S(2));
    let mut b = fleet(&["escort"], &["trader", "scout"], Band::Short);
    let t1 = mount(&b, S(0), "turret-1");
    let own = orders(
        &b,
        &[(
            S(0),
            vec![order(
                2,
                Position::Sensors,
                Action::TargetingSolution {
                    mount: t1,
                    target: trader,
                },
            )],
        )],
    );
    let idle = PerShip::default();
    let mut dice = ScriptedDice::new([3, 3, 1, 1, 1]);
    sys.attack_step(
        &mut b,
        [true, false],
        [&own, &idle],
        &mut dice,
        &mut NullSink,
    )
    .expect("the solution");
    assert_eq!(b.state(S(0)).chains[0].target, trader);
    let mut log = EventLog::default();
    let shot = sys
        .fire(
            &mut b,
            S(0),
            scout,
            t1,
            weapon("beam-laser"),
            &Reactions::default(),
            &mut dice,
            &mut log,
        )
        .expect("fires");
    assert_eq!((shot.total, shot.effect), (9, 1));
    assert_eq!(b.ship(scout).hull, 38);
    assert_eq!(dice.used(), 5);
    assert!(b.state(S(0)).chains.is_empty(), "spent all the same");
    check_spent_elsewhere(
        &log,
        "ruling: 1 aim or chained DM(s) of the escort (A)'s mount turret-1 were made against another ship: spent without effect on an attack on the scout (B)",
    );
}

/// Seed 004 line 31, "Line up shot ... Effect chains into attack roll for
/// one Gunner", lined up on one target (Ruling 42). A = corvette; B =
/// trader, scout; at Short. The Pilot lines up turret-1 on the trader: 3 +
/// 3 + 3 = 9, Effect +1, chain DM +1. Fired at the trader it counts:
/// 1 + 1 + 7 + 1 = 10, Effect +2, damage 1 + 2 + 2 - 1 = 4, trader 76.
/// Lined up again and fired at the scout it does not: 1 + 1 + 7 = 9,
/// Effect +1.
#[test]
fn a_lined_up_shot_helps_only_against_its_target() {
    let sys = system();
    let (trader, scout) = (S(1), S(2));
    for (fired_at, total, hull) in [(trader, 10, 76), (scout, 9, 38)] {
        let mut b = fleet(&["corvette"], &["trader", "scout"], Band::Short);
        let t1 = mount(&b, S(0), "turret-1");
        b.state_mut(S(0)).thrust_left = 4;
        let mut dice = ScriptedDice::new([3, 3, 1, 1, 1]);
        sys.line_up_shot(&mut b, S(0), t1, trader, &mut dice, &mut NullSink)
            .expect("lined up");
        let shot = sys
            .fire(
                &mut b,
                S(0),
                fired_at,
                t1,
                weapon("beam-laser"),
                &Reactions::default(),
                &mut dice,
                &mut NullSink,
            )
            .expect("fires");
        assert_eq!(shot.total, total);
        assert_eq!(b.ship(fired_at).hull, hull);
        assert_eq!(dice.used(), 5);
    }
}

/// Seed 004 line 38, "Jam Sensors ... Gives the target a negative DM equal
/// to any positive Effect ... for the next turn": the target is one ship,
/// and jamming from several ships does not add up (Ruling 43). A = escort,
/// corvette; B = trader, scout; at Medium. The escort jams the trader: 4 +
/// 4 + 5 = 13, Effect +5. The corvette jams it too: 3 + 3 + 3 = 9, Effect
/// +1. The trader's sensors take -5 next turn; the scout's nothing.
#[test]
fn jamming_targets_one_ship_and_the_strongest_counts() {
    let sys = system();
    let (trader, scout) = (S(2), S(3));
    let mut b = fleet(&["escort", "corvette"], &["trader", "scout"], Band::Medium);
    let jam = |person| {
        vec![order(
            person,
            Position::Sensors,
            Action::JamSensors { target: trader },
        )]
    };
    let own = orders(&b, &[(S(0), jam(2)), (S(1), jam(2))]);
    let idle = PerShip::default();
    let mut dice = ScriptedDice::new([4, 4, 3, 3]);
    let mut log = EventLog::default();
    sys.attack_step(&mut b, [true, false], [&own, &idle], &mut dice, &mut log)
        .expect("jamming");
    assert_eq!(dice.used(), 4);
    assert_eq!(
        (
            b.state(trader).jam_sensors_next,
            b.state(scout).jam_sensors_next
        ),
        (-5, 0)
    );
    sys.end_of_round(&mut b, &mut NullSink);
    assert_eq!(b.state(trader).jam_sensors, -5);
    assert!(
        event_lines(&log.events)
            .iter()
            .any(|e| e.contains("a stronger jamming (-5) already counts"))
    );
}

/// Seed 004 line 54, "Launch Missile Salvo ... Simple (2+)", and line 73,
/// "Any missiles in a salvo ... attack the ship": the salvo attacks the
/// ship it was launched at. A = corvette; B = scout, trader; at Short (no
/// flight). Turret-2 launches 2 at the trader: 1 + 1 + 2 = 4 against 2+.
/// Its attack: 4 + 4 + 1 (one more missile) + 1 (TL 12 against 11) = 10,
/// Effect +2; damage 4D of 1s = 4, less armour 1 = 3 a missile, times
/// Effect 2 = 6: trader 74, scout untouched. Eight dice.
#[test]
fn a_salvo_attacks_the_ship_it_was_launched_at() {
    let sys = system();
    let (scout, trader) = (S(1), S(2));
    let mut b = fleet(&["corvette"], &["scout", "trader"], Band::Short);
    let t2 = mount(&b, S(0), "turret-2");
    let mut dice = ScriptedDice::new([1, 1, 4, 4, 1, 1, 1, 1]);
    sys.launch(
        &mut b,
        S(0),
        Position::Gunner(t2),
        (weapon("missile-rack"), 2, trader),
        &mut dice,
        &mut NullSink,
    )
    .expect("the launch");
    assert_eq!((b.salvos[0].owner, b.salvos[0].target), (S(0), trader));
    let idle = PerShip::default();
    sys.missile_step(&mut b, [&idle, &idle], &mut dice, &mut NullSink)
        .expect("the salvo strikes");
    assert_eq!((b.ship(trader).hull, b.ship(scout).hull), (74, 40));
    assert_eq!(dice.used(), 8);
}

/// Seed 004 line 54, "All Missiles from all mounts of same missile type
/// are fired at once", read per firing ship (Ruling 44): two ships'
/// salvos at one target stay two salvos. A = corvette, escort; B =
/// trader; at Short. Both launch 2 (1 + 1 + 2 = 4 each). The corvette's
/// salvo: 1 + 2 + 1 + 1 (TL 12 - 11) = 5, a miss. The escort's:
/// 3 + 3 + 1 + 2 (TL 13 - 11) = 9, Effect +1; damage (4 - 1) x 1 = 3,
/// trader 77.
/// One salvo of four would have rolled once at +3 for the extra missiles.
#[test]
fn salvos_of_two_ships_stay_separate() {
    let sys = system();
    let trader = S(2);
    let mut b = fleet(&["corvette", "escort"], &["trader"], Band::Short);
    let rack = weapon("missile-rack");
    let mut dice = ScriptedDice::new([1, 1, 1, 1, 1, 2, 3, 3, 1, 1, 1, 1]);
    for ship in [S(0), S(1)] {
        let t2 = mount(&b, ship, "turret-2");
        sys.launch(
            &mut b,
            ship,
            Position::Gunner(t2),
            (rack, 2, trader),
            &mut dice,
            &mut NullSink,
        )
        .expect("the launch");
    }
    assert_eq!(b.salvos.len(), 2);
    let idle = PerShip::default();
    let mut log = EventLog::default();
    sys.missile_step(&mut b, [&idle, &idle], &mut dice, &mut log)
        .expect("the salvos strike");
    assert_eq!(b.ship(trader).hull, 77);
    assert_eq!(dice.used(), 12);
    let attacks = event_lines(&log.events)
        .iter()
        .filter(|e| e.starts_with("salvo attack: rolled"))
        .count();
    assert_eq!(attacks, 2);
}

/// Seed 004 line 73 and Ruling 28, for fleets (Ruling 48): a salvo whose
/// target has left the fight is lost, not turned on another ship. A =
/// corvette; B = scout, trader; at Long (one round of flight). Two
/// missiles at the scout (1 + 1 + 2 = 4); the scout is wrecked before they
/// arrive: no dice, the trader untouched.
#[test]
fn a_salvo_whose_target_is_gone_is_lost() {
    let sys = system();
    let (scout, trader) = (S(1), S(2));
    let mut b = fleet(&["corvette"], &["scout", "trader"], Band::Long);
    let t2 = mount(&b, S(0), "turret-2");
    let mut dice = ScriptedDice::new([1, 1]);
    sys.launch(
        &mut b,
        S(0),
        Position::Gunner(t2),
        (weapon("missile-rack"), 2, scout),
        &mut dice,
        &mut NullSink,
    )
    .expect("the launch");
    sys.end_of_round(&mut b, &mut NullSink);
    b.ship_mut(scout).hull = 0;
    let idle = PerShip::default();
    let mut log = EventLog::default();
    sys.missile_step(&mut b, [&idle, &idle], &mut dice, &mut log)
        .expect("the missile step");
    assert_eq!(dice.used(), 2);
    assert!(b.salvos.is_empty());
    assert_eq!(b.ship(trader).hull, 80);
    assert!(
        event_lines(&log.events)
            .iter()
            .any(|e| e.contains("salvo finds no target: the scout (B) is out of the fight"))
    );
}

/// An action aimed at a ship that the same ship's earlier shot wrecked is
/// lost (Ruling 48). A = corvette; B = trader (1 hull left), scout; at
/// Short. Turret-1 fires at the trader: 3 + 3 + 7 = 13, damage 1 + 2 + 5 -
/// 1 = 7 wrecks it; turret-3's order at the trader rolls nothing.
#[test]
fn an_order_at_a_ship_already_wrecked_is_lost() {
    let sys = system();
    let trader = S(1);
    let mut b = fleet(&["corvette"], &["trader", "scout"], Band::Short);
    b.ship_mut(trader).hull = 1;
    let t1 = mount(&b, S(0), "turret-1");
    let t3 = mount(&b, S(0), "turret-3");
    let fire = |person, mount, weapon| {
        order(
            person,
            Position::Gunner(mount),
            Action::Fire {
                mount,
                weapon,
                target: trader,
            },
        )
    };
    let own = orders(
        &b,
        &[(
            S(0),
            vec![
                fire(3, t1, weapon("beam-laser")),
                fire(5, t3, weapon("pulse-laser")),
            ],
        )],
    );
    let idle = PerShip::default();
    let mut dice = ScriptedDice::new([3, 3, 1]);
    let mut log = EventLog::default();
    sys.attack_step(&mut b, [true, false], [&own, &idle], &mut dice, &mut log)
        .expect("the attack step");
    assert!(b.ship(trader).is_wrecked());
    assert_eq!(dice.used(), 3);
    assert!(
        event_lines(&log.events)
            .iter()
            .any(|e| e.contains("Rafe Dunmore's action is lost: the trader (B) is out"))
    );
}

/// Seed 004 line 29, "Attempt Boarding Action: Opposed Pilot ... Ships must
/// be in Adjacent Range Band": the band is the pair's, and the target's
/// Pilot opposes (Ruling 45). A = corvette; B = trader at Close, scout at
/// Adjacent. Boarding the trader is refused without dice. Against the
/// scout: 3 + 3 + 3 = 9 (Effect +1) against its Pilot's 4 + 3 + 3 = 10
/// (Effect +2), not grappled (against the trader's +1 it would have been
/// 8). Again: 5 + 5 + 3 = 13 (Effect +5) against 3 + 3 + 3 = 9 (Effect
/// +1): grappled, that pair only. The grappled corvette's 2 thrust toward
/// the trader changes nothing (and the scout's 1 away, being grappled, no
/// band either); the grappled scout cannot jump; a grapple ends when either
/// ship is wrecked.
#[test]
fn boarding_grapples_one_pair() {
    let sys = system();
    let (corvette, trader, scout) = (S(0), S(1), S(2));
    let mut b = fleet(&["corvette"], &["trader", "scout"], Band::Adjacent);
    b.pair_mut(corvette, trader).band = Band::Close;
    b.state_mut(corvette).thrust_left = 4;
    let refused = sys.boarding(
        &mut b,
        corvette,
        trader,
        &mut ScriptedDice::new([6, 6, 1, 1]),
        &mut NullSink,
    );
    assert!(matches!(refused, Err(ResolveError::Refused(_))));
    let mut dice = ScriptedDice::new([3, 3, 4, 3, 5, 5, 3, 3]);
    sys.boarding(&mut b, corvette, scout, &mut dice, &mut NullSink)
        .expect("boarding");
    assert!(!b.pair(corvette, scout).grappled);
    b.state_mut(corvette).acted = 0;
    sys.boarding(&mut b, corvette, scout, &mut dice, &mut NullSink)
        .expect("boarding");
    assert_eq!(dice.used(), 8);
    assert!(b.pair(corvette, scout).grappled);
    assert!(!b.pair(corvette, trader).grappled);
    assert_eq!(b.state(corvette).thrust_left, 2);
    b.state_mut(corvette).applied = 2;
    b.state_mut(corvette).maneuver_target = Some(trader);
    b.state_mut(scout).applied = -1;
    b.state_mut(scout).maneuver_target = Some(corvette);
    sys.adjust_range(&mut b, &mut NullSink);
    assert_eq!(b.band(corvette, scout), Band::Adjacent);
    assert_eq!(
        (b.band(corvette, trader), b.pair(corvette, trader).closing),
        (Band::Close, 0)
    );
    for ship in [scout, trader] {
        b.state_mut(ship).at_jump_point = true;
    }
    assert!(!DefaultTactics::flees(sys, &b, scout) && b.grappled(scout));
    assert!(!b.grappled(trader));
    b.ship_mut(scout).hull = 0;
    sys.end_of_round(&mut b, &mut NullSink);
    assert!(!b.pair(corvette, scout).grappled);
}

/// Seed 004 lines 57-61: reactions are counted per ship, and the dodge is
/// the attacked ship's own (Ruling 46). A = corvette; B = trader, scout;
/// at Short. Turret-1 at the trader: 3 + 3 + 7 = 13, Effect +5. The
/// trader's Pilot dodges (one thrust, Difficult 10+): 6 + 6 + 1 = 13,
/// Effect +3, so the attack is 10, Effect +2; damage 1 + 2 + 2 - 1 = 4,
/// trader 76. The trader used a reaction and its thrust; the scout neither.
#[test]
fn reactions_are_the_attacked_ships_own() {
    let sys = system();
    let (trader, scout) = (S(1), S(2));
    let mut b = fleet(&["corvette"], &["trader", "scout"], Band::Short);
    for ship in [trader, scout] {
        b.state_mut(ship).thrust_left = 1;
    }
    let dodge = Reactions {
        dodge: true,
        ..Reactions::default()
    };
    let mut dice = ScriptedDice::new([3, 3, 6, 6, 1]);
    let t1 = mount(&b, S(0), "turret-1");
    let shot = sys
        .fire(
            &mut b,
            S(0),
            trader,
            t1,
            weapon("beam-laser"),
            &dodge,
            &mut dice,
            &mut NullSink,
        )
        .expect("fires");
    assert_eq!((shot.total, shot.effect), (10, 2));
    assert_eq!(b.ship(trader).hull, 76);
    assert_eq!(dice.used(), 5);
    let used = |ship| (b.state(ship).reactions_used, b.state(ship).thrust_left);
    assert_eq!((used(trader), used(scout)), ((1, 0), (0, 1)));
}

/// The battle's end (Ruling 47): a side with a ship that can fight fights
/// on; a side with none has lost, or escaped if one of its ships jumped.
/// A = corvette, scout; B = trader. The corvette wrecked: the battle goes
/// on. The trader wrecked too: A wins, and the fates are one per ship in
/// roster order. Instead, the scout jumped and the corvette wrecked while
/// the trader is sound: A escaped.
#[test]
fn the_verdict_weighs_whole_sides() {
    let sys = system();
    let request = fleet_request(&["corvette", "scout"], &["trader"], 10, &[], [&[], &[]]);
    let fleets = sys.fleets(&request).expect("the battle is set up");
    let setup = Setup::default();
    let sequence = Sequence {
        system: sys,
        setup: &setup,
        ships: 2,
        last_turn: 10,
    };
    let mut b = fleets.start().clone();
    b.ship_mut(S(0)).hull = 0;
    assert_eq!(sequence.verdict(&b), None);
    b.ship_mut(S(2)).hull = 0;
    assert_eq!(sequence.verdict(&b), Some(Verdict::Winner(Side::A)));
    let fates = broadside_core::Setup::fates(&fleets, &b);
    let losses: Vec<_> = fates.iter().map(|f| (f.side, f.loss.is_some())).collect();
    assert_eq!(losses, [(Side::A, true), (Side::A, false), (Side::B, true)]);
    let mut b = fleets.start().clone();
    b.ship_mut(S(0)).hull = 0;
    b.state_mut(S(1)).jumped = true;
    assert_eq!(sequence.verdict(&b), Some(Verdict::Escaped(Side::A)));
}

/// The default tactics concentrate (rules note, Default tactics): every
/// ship of a side picks the enemy with the fewest hull points left among
/// those it can attack, and each mount fires at it when it reaches. A = corvette, escort; B =
/// trader (80 hull), scout (40), at Short: both pick the scout. With the
/// scout at Long, where only the pulse lasers and missiles reach, they still
/// pick the scout; with `focus = nearest` they pick the trader. Once the
/// trader is down to 30 it is the weakest.
#[test]
fn default_tactics_focus_their_fire() {
    let sys = system();
    let (trader, scout) = (S(2), S(3));
    let weakest = DefaultTactics::default();
    let nearest = DefaultTactics {
        focus: Focus::Nearest,
        ..DefaultTactics::default()
    };
    let mut b = fleet(&["corvette", "escort"], &["trader", "scout"], Band::Short);
    let targets = |b: &Battle, tactics: &DefaultTactics| {
        [S(0), S(1)].map(|ship| tactics.focus_target(sys, b, ship))
    };
    assert_eq!(targets(&b, &weakest), [Some(scout); 2]);
    for ship in [S(0), S(1)] {
        let fired: Vec<ShipId> = weakest
            .actions(sys, &b, ship)
            .iter()
            .filter_map(|o| match o.action {
                Action::Fire { target, .. } => Some(target),
                _ => None,
            })
            .collect();
        assert!(
            !fired.is_empty() && fired.iter().all(|&t| t == scout),
            "{fired:?}"
        );
    }
    for ship in [S(0), S(1)] {
        b.pair_mut(ship, scout).band = Band::Long;
    }
    assert_eq!(targets(&b, &weakest), [Some(scout); 2]);
    assert_eq!(targets(&b, &nearest), [Some(trader); 2]);
    b.ship_mut(trader).hull = 30;
    assert_eq!(targets(&b, &weakest), [Some(trader); 2]);
}

/// The default tactics maneuver against their focus target only: the
/// corvette at Long from the trader and Very Long from the scout closes on
/// the scout, the weaker, and applies its thrust less one kept for a
/// dodge.
#[test]
fn default_tactics_close_on_their_target() {
    let sys = system();
    let mut b = fleet(&["corvette"], &["trader", "scout"], Band::Long);
    b.pair_mut(S(0), S(2)).band = Band::VeryLong;
    b.state_mut(S(0)).thrust_left = 4;
    let wanted = DefaultTactics::default()
        .maneuver(sys, &b, S(0))
        .expect("a maneuver");
    assert_eq!((wanted.target, wanted.thrust), (S(2), 3));
}

/// A seeded battle of two scouts against a trader, logged in full for two
/// turns: every ship scans, rolls initiative and chooses its own target,
/// and the log names the two scouts apart.
#[test]
fn seeded_fleet_log() {
    let ruleset: &dyn Ruleset = system();
    let request = fleet_request(
        &["scout", "scout"],
        &["trader"],
        2,
        &[("start-band", text("medium"))],
        [&[], &[]],
    );
    let battle = ruleset
        .prepare_battle(&request)
        .expect("the battle is set up");
    let mut log = EventLog::default();
    let outcome = play_trial(&*battle, 2026, 0, &mut log).expect("the trial plays");
    assert_eq!(outcome.ships.len(), 3);
    let mut out = format!("outcome: {outcome:?}\n");
    out.push_str(&numbered(&log.events));
    assert!(out.contains("scout #1 (A)") && out.contains("scout #2 (A)"));
    check_named(
        "fleet_two_scouts_trader_seed_2026_two_turns",
        "Traveller house-rule cheat sheet, Turn Sequence, for several ships a side: every ship scans, rolls initiative into one order and picks its own target",
        &json!({"system": "crew-2d6", "a": ["scout", "scout"], "b": ["trader"], "start-band": "medium", "max_turns": 2, "seed": 2026, "trial": 0}),
        &out,
    );
}

/// Side set-up through the object-safe face: `echelon` needs one whole
/// number from -6 to 6 per ship at most, and errors name the side's
/// option as the command line spells it.
#[test]
fn side_set_up_is_checked() {
    let ruleset: &dyn Ruleset = system();
    let echelon = |value: &str| {
        let request = fleet_request(
            &["corvette", "corvette"],
            &["escort"],
            5,
            &[],
            [&[("echelon", text(value))], &[]],
        );
        ruleset.prepare_battle(&request).err()
    };
    assert!(echelon("0,-1").is_none());
    assert!(echelon("2").is_none(), "missing entries are 0");
    for bad in ["0,1,2", "7", "x", "1,,2"] {
        assert!(
            matches!(echelon(bad), Some(ResolveError::BadOption { ref option, .. }) if option == "a-echelon"),
            "{bad}: {:?}",
            echelon(bad)
        );
    }
    let specs = ruleset.side_options();
    for name in ["jump-point", "echelon", "board", "focus"] {
        assert!(specs.iter().any(|s| s.name == name), "{name}");
    }
    let request = fleet_request(
        &["trader", "trader"],
        &["corvette"],
        5,
        &[],
        [&[("jump-point", common::flag())], &[]],
    );
    let fleets = system().fleets(&request).expect("set up");
    assert!(fleets.start().states[..2].iter().all(|s| s.at_jump_point));
    assert!(!fleets.start().states[2].at_jump_point);
}

/// Plays a battle phase by phase, each phase in the steps the turn
/// sequence splits it into (as exact odds play it), with the events core's
/// loop emits; returns the verdict and the final state.
fn play_in_steps(
    fleets: &broadside_crew_2d6::Fleets,
    max_turns: u32,
    dice: &mut dyn broadside_core::Dice,
    log: &mut EventLog,
) -> (Verdict, Battle) {
    let sequence = broadside_core::Setup::sequence(fleets);
    let tactics = broadside_core::Setup::tactics(fleets);
    let mut battle = fleets.start().clone();
    for turn in 1..=max_turns {
        for &phase in sequence.phases(turn) {
            log.events.push(broadside_core::Event::Phase {
                turn,
                name: phase.to_string(),
            });
            for step in 0..sequence.steps(phase, turn) {
                sequence
                    .play_step(phase, turn, step, &mut battle, tactics, dice, log)
                    .expect("the step plays");
            }
            if let Some(verdict) = sequence.verdict(&battle) {
                return (verdict, battle);
            }
        }
    }
    (Verdict::Undecided, battle)
}

/// The initiative, maneuver and attack steps played ship by ship, as exact
/// odds play them, are the steps played whole: the same events, the same
/// verdict and the same ships at the end, for fleets of several ships a side
/// over many seeded trials.
#[test]
fn phases_played_ship_by_ship_are_the_phases_played_whole() {
    let sys = system();
    for (sides, band) in [
        (
            [&["corvette", "scout"][..], &["trader", "escort"][..]],
            "short",
        ),
        ([&["escort"][..], &["corvette"][..]], "medium"),
        (
            [&["scout", "scout", "trader"][..], &["corvette"][..]],
            "long",
        ),
    ] {
        let request = fleet_request(
            sides[0],
            sides[1],
            8,
            &[("start-band", text(band))],
            [&[], &[]],
        );
        let fleets = sys.fleets(&request).expect("the battle is set up");
        for trial in 0..12 {
            let mut whole_log = EventLog::default();
            let (outcome, whole) = fleets
                .play_with(
                    broadside_core::Setup::tactics(&fleets),
                    &mut broadside_core::SeededDice::for_trial(31, trial),
                    &mut whole_log,
                )
                .expect("the trial plays");
            let mut step_log = EventLog::default();
            let (verdict, stepped) = play_in_steps(
                &fleets,
                8,
                &mut broadside_core::SeededDice::for_trial(31, trial),
                &mut step_log,
            );
            let case = format!("{sides:?} at {band}, trial {trial}");
            assert_eq!(verdict, outcome.verdict, "{case}");
            // Exact odds forget what no later step reads (initiative
            // totals, and in the last turn what carries to the next), so
            // the ships and their bands are compared, and the events.
            assert_eq!(stepped.ships, whole.ships, "{case}");
            assert_eq!(stepped.pairs, whole.pairs, "{case}");
            assert_eq!(step_log.events, whole_log.events, "{case}");
        }
    }
}

/// Rulings 29 and 47: a ship with nothing left to attack with has lost
/// (disarmed), and one that jumped away has left, not lost. Scout against
/// trader: the trader's weapons all destroyed, its fate is disarmed; the
/// scout's weapons destroyed after it jumped, it has no loss.
#[test]
fn a_fate_is_disarmed_only_for_a_ship_that_did_not_jump() {
    let request = fleet_request(&["scout"], &["trader"], 10, &[], [&[], &[]]);
    let fleets = system().fleets(&request).expect("the battle is set up");
    let mut b = fleets.start().clone();
    for ship in [S(0), S(1)] {
        for weapon in b.ship_mut(ship).weapons.iter_mut() {
            *weapon = broadside_crew_2d6::Condition::Destroyed;
        }
    }
    b.state_mut(S(0)).jumped = true;
    let fates = broadside_core::Setup::fates(&fleets, &b);
    let losses: Vec<_> = fates.iter().map(|f| (f.side, f.loss)).collect();
    assert_eq!(
        losses,
        [
            (Side::A, None),
            (Side::B, Some(broadside_core::Loss::Disarmed))
        ]
    );
}

/// Ruling 39: a pair starts at the starting band moved by both ships'
/// echelons. Scout against trader from Medium (`start-band`), each side
/// standing one band back (`echelon` 1): the battle keeps both echelons
/// and the pair starts at Medium + 2 = Very Long (every scan 6 + 6).
#[test]
fn every_ships_echelon_is_kept() {
    let request = fleet_request(
        &["scout"],
        &["trader"],
        10,
        &[("start-band", text("medium"))],
        [&[("echelon", text("1"))], &[("echelon", text("1"))]],
    );
    let fleets = system().fleets(&request).expect("the battle is set up");
    let setup = fleets.rules().setup();
    assert_eq!(setup.start_band, Some(Band::Medium));
    assert_eq!(setup.echelon, [1, 1]);
    let mut dice = ScriptedDice::new([6, 6, 6, 6]);
    let mut b =
        broadside_core::Setup::begin(&fleets, &mut dice, &mut NullSink).expect("the battle");
    system()
        .set_up(&mut b, setup, &mut dice, &mut NullSink)
        .expect("setting up");
    assert_eq!(b.band(S(0), S(1)), Band::VeryLong);
}

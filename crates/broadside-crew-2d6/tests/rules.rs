//! Fall-back rules, rulings and edge cases of bad input, each checked on its own.

mod common;

use broadside_core::{
    AttackResolution, EventLog, NullSink, Ruleset, ScriptedDice, Side, TurnSequence, Verdict,
};
use broadside_crew_2d6::model::{Band, Position, Task};
use broadside_crew_2d6::{
    Action, Attack, Battle, Crew2d6, CrewTactics, Incoming, Order, ReactionChooser, Reactions,
    Repairable, Salvo, Sequence, Setup, ShipId, Weaponry,
};
use broadside_data::testing;
use common::{
    A, B, Script, ScriptedTactics, battle, battle_in, check_refused, edited, event_lines, flag,
    load, location, mount, num, resolve, resolve_in, sources, system, text, weapon, with_gunboat,
    without_criticals,
};

/// Bad input: a salvo larger than the magazine is refused, and
/// so is one larger than the launchers fire in a round; neither rolls dice.
#[test]
fn a_salvo_larger_than_the_magazine_is_refused() {
    let salvo = |n| {
        vec![
            ("weapon", text("missile-rack")),
            ("range-band", text("short")),
            ("salvo", num(n)),
        ]
    };
    check_refused("escort", "trader", &salvo(25), "larger than the magazine");
    check_refused(
        "escort",
        "trader",
        &salvo(3),
        "usable Missile Rack (smart missiles) launch in a round",
    );
}

/// Bad input: an unknown range band is refused before anything
/// is resolved, naming the bands that exist.
#[test]
fn an_unknown_range_band_is_refused() {
    let (result, used) = resolve(
        "corvette",
        "trader",
        &[("weapon", text("beam-laser")), ("range-band", text("far"))],
        &[3, 3],
    );
    match result {
        Err(broadside_core::ResolveError::Unknown {
            kind, name, known, ..
        }) => {
            assert_eq!((kind, name.as_str()), ("range-band", "far"));
            assert!(known.contains("very-long"), "{known}");
        }
        other => panic!("expected an unknown range band, got {other:?}"),
    }
    assert_eq!(used, 0);
}

/// Attacks the rules forbid are refused without rolling.
#[test]
fn forbidden_attacks_are_refused() {
    let opts = |w: &str, band: &str| vec![("weapon", text(w)), ("range-band", text(band))];
    check_refused(
        "corvette",
        "trader",
        &opts("beam-laser", "long"),
        "reaches Medium range",
    );
    check_refused(
        "trader",
        "corvette",
        &opts("pulse-laser", "short"),
        "carries no pulse-laser",
    );
    check_refused(
        "trader",
        "corvette",
        &opts("sandcaster", "short"),
        "only as a reaction",
    );
    let mut sand = opts("missile-rack", "short");
    sand.push(("sand", flag()));
    check_refused("escort", "trader", &sand, "sand does not stop");
    let mut pd = opts("beam-laser", "short");
    pd.push(("point-defense", num(1)));
    check_refused("corvette", "trader", &pd, "only against missile salvos");
    let mut sand_on_particles = opts("beam-laser", "short");
    sand_on_particles.push(("sand", flag()));
    check_refused("trader", "scout", &sand_on_particles, "no sandcaster");
}

/// Unknown names and bad option values are the user's errors.
#[test]
fn unknown_names_and_bad_options() {
    let (r, _) = resolve(
        "cruiser",
        "trader",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("short")),
        ],
        &[],
    );
    assert!(
        matches!(
            r,
            Err(broadside_core::ResolveError::Unknown { kind: "ship", .. })
        ),
        "{r:?}"
    );
    let (r, _) = resolve(
        "corvette",
        "trader",
        &[("weapon", text("lance")), ("range-band", text("short"))],
        &[],
    );
    assert!(
        matches!(
            r,
            Err(broadside_core::ResolveError::Unknown { kind: "weapon", .. })
        ),
        "{r:?}"
    );
    let (r, _) = resolve(
        "corvette",
        "trader",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("short")),
            ("salvo", num(2)),
        ],
        &[],
    );
    assert!(
        matches!(r, Err(broadside_core::ResolveError::BadOption { .. })),
        "{r:?}"
    );
    let (r, _) = resolve(
        "corvette",
        "trader",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("short")),
            ("aim", num(4)),
        ],
        &[],
    );
    assert!(
        matches!(r, Err(broadside_core::ResolveError::BadOption { .. })),
        "{r:?}"
    );
}

/// Scripted dice that run out are an error, not a panic.
#[test]
fn scripted_dice_that_run_out_are_an_error() {
    let (r, _) = resolve(
        "corvette",
        "trader",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("short")),
        ],
        &[6],
    );
    assert!(
        matches!(r, Err(broadside_core::ResolveError::Dice(_))),
        "{r:?}"
    );
}

/// Seed 004, "Resolve Missile Hits": "Roll damage for a single missile and
/// multiply by the effect of the attack roll". At Effect 0 that is x0: the
/// escort's two missiles at the trader at Medium roll 2 + 3 = 5, +1 for the
/// second missile, +2 for the TL difference (13 - 11) = 8 against 8, Effect
/// 0, a hit; one missile's 4D 1 + 1 + 1 + 2 = 5 less armour 1 = 4, x 0 = 0.
#[test]
fn a_salvo_hitting_at_effect_0_does_no_damage() {
    let (r, used) = resolve(
        "escort",
        "trader",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("medium")),
        ],
        &[2, 3, 1, 1, 1, 2],
    );
    let r = r.expect("resolves");
    assert_eq!(used, 6);
    assert_eq!(r.json["effect"], 0);
    assert_eq!(r.json["hit"], true);
    assert_eq!(r.json["multiplier"], 0);
    assert_eq!(r.json["damage"], 0, "(5 - 1) x 0");
    assert_eq!(r.json["target"]["hull"], 80);
    let lines: Vec<String> = r.events.iter().map(ToString::to_string).collect();
    assert!(
        lines
            .iter()
            .any(|e| e
                .contains("a salvo that hits at Effect 0 multiplies one missile's damage by 0")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|e| e.contains("house rule")),
        "the house rule is off: {lines:?}"
    );
}

/// House-rule option `missiles.zero-effect-multiplier = 1`, off by default:
/// the same dice as above, and a hit at Effect 0 does one missile's
/// damage, (5 - 1) x 1 = 4.
#[test]
fn a_salvo_hitting_at_effect_0_may_do_one_missiles_damage_by_option() {
    let r = resolve_edited(
        (
            "rules.toml",
            "zero-effect-multiplier = 0",
            "zero-effect-multiplier = 1",
        ),
        "escort",
        "trader",
        "missile-rack",
        "medium",
        &[2, 3, 1, 1, 1, 2],
    );
    assert_eq!(r.json["multiplier"], 1);
    assert_eq!(r.json["damage"], 4);
    assert!(
        r.events
            .iter()
            .any(|e| e.to_string().contains("house rule"))
    );
}

/// Seed 004, "Resolve Missile Hits": "multiply by the effect of the attack
/// roll", with no cap at the missiles' number. The escort's two missiles
/// at the trader at Medium: 6 + 6 + 1 (second missile) + 2 (TL 13 - 11) =
/// 15, Effect +7. One missile's 4D 1 + 1 + 1 + 1 = 4 less armour 1 = 3, x 7
/// = 21. Effect 7 with damage is a critical hit of severity 21 / 10 rounded
/// up = 3, located 4 + 5 = 9 (Cargo, no effect); 21 of 80 hull is two whole
/// tenths (8 each): two severity 1 hits, both located 6 + 6 = 12 (Computer,
/// severity 1 then 2, no dice).
#[test]
fn the_missile_multiplier_is_the_whole_effect() {
    let (r, used) = resolve(
        "escort",
        "trader",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("medium")),
        ],
        &[6, 6, 1, 1, 1, 1, 4, 5, 6, 6, 6, 6],
    );
    let r = r.expect("resolves");
    assert_eq!(used, 12);
    assert_eq!(r.json["effect"], 7);
    assert_eq!(r.json["multiplier"], 7);
    assert_eq!(r.json["damage"], 21, "(4 - 1) x 7");
    assert_eq!(r.json["criticals"][0]["severity"], 3);
}

/// House-rule option `missiles.cap-at-missiles = true`, off by default: the
/// same salvo at Effect +7 multiplies by its 2 missiles only: (4 - 1) x 2 =
/// 6, a severity 1 critical hit (6 / 10 rounded up) at Cargo (4 + 5), and
/// no tenth of the hull lost.
#[test]
fn the_missile_multiplier_may_be_capped_by_option() {
    let r = resolve_edited(
        (
            "rules.toml",
            "cap-at-missiles = false",
            "cap-at-missiles = true",
        ),
        "escort",
        "trader",
        "missile-rack",
        "medium",
        &[6, 6, 1, 1, 1, 1, 4, 5],
    );
    assert_eq!(r.json["multiplier"], 2);
    assert_eq!(r.json["damage"], 6, "(4 - 1) x 2");
}

/// Ruling, as data: armour taken once from the multiplied total instead.
/// The salvo above: 4 x 7 - 1 = 27, a severity 3 critical hit at Cargo
/// (4 + 5), and three whole tenths of the hull: three severity 1 hits at
/// the Computer (6 + 6 each).
#[test]
fn missile_armour_once_is_a_data_choice() {
    let r = resolve_edited(
        (
            "rules.toml",
            "armour = \"per-missile\"",
            "armour = \"once\"",
        ),
        "escort",
        "trader",
        "missile-rack",
        "medium",
        &[6, 6, 1, 1, 1, 1, 4, 5, 6, 6, 6, 6, 6, 6],
    );
    assert_eq!(r.json["damage"], 27, "4 x 7 - 1");
}

/// Seed 004, "Resolve Missile Hits": the TL difference DM is kept "to a
/// minimum of DM+1 and a maximum of DM+6", at every band. The corvette's
/// two missiles at the scout at Close: 3 + 3 = 6, +1 for the second
/// missile, +1 (TL 12 - 12 = 0, raised to the minimum) = 8 against 8:
/// a hit at Effect 0, so 4D 1 + 1 + 1 + 1 = 4 less armour 2, x 0 = 0.
#[test]
fn smart_missiles_keep_the_tl_dm_minimum_at_close_range() {
    let (r, used) = resolve(
        "corvette",
        "scout",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("close")),
        ],
        &[3, 3, 1, 1, 1, 1],
    );
    let r = r.expect("resolves");
    assert_eq!(used, 6);
    assert_eq!(r.json["total"], 8);
    assert_eq!(r.json["hit"], true);
}

/// House-rule option `missiles.smart-lost-at = ["adjacent", "close"]`, off
/// (empty) by default: the core rules' loss of the Smart trait. The same
/// dice total 3 + 3 + 1 = 7 and miss.
#[test]
fn smart_missiles_may_lose_the_tl_dm_at_close_range_by_option() {
    let r = resolve_edited(
        (
            "rules.toml",
            "smart-lost-at = []",
            "smart-lost-at = [\"adjacent\", \"close\"]",
        ),
        "corvette",
        "scout",
        "missile-rack",
        "close",
        &[3, 3],
    );
    assert_eq!(r.json["total"], 7, "no TL difference DM");
    assert!(
        r.events
            .iter()
            .any(|e| e.to_string().contains("lose the TL difference DM"))
    );
}

/// A salvo launched at Very Long range flies four rounds; resolved alone,
/// it is taken as it arrives, and the report says how long it flew.
#[test]
fn missile_flight_by_band() {
    let (r, _) = resolve(
        "escort",
        "trader",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("very-long")),
            ("salvo", num(1)),
        ],
        &[1, 1],
    );
    let r = r.expect("resolves");
    assert_eq!(r.json["missiles"]["flight_rounds"], 4);
    let rules = &system().rules;
    let flights: Vec<u8> = rules.bands.iter().map(|b| b.missile_flight).collect();
    assert_eq!(flights, [0, 0, 0, 0, 1, 4, 10]);
}

/// Ruling, as data: chained Effects pass as themselves in "effect" mode.
#[test]
fn chain_mode_effect_passes_the_effect_itself() {
    let table = system();
    let effect = load(&edited(
        &sources(),
        "checks.toml",
        "[chain]\nmode = \"table\"",
        "[chain]\nmode = \"effect\"",
    ));
    for (e, dm) in [(-7, -3), (-3, -2), (-1, -1), (0, 0), (3, 1), (6, 2)] {
        assert_eq!(table.rules.chain_dm(e), dm, "table at {e}");
        assert_eq!(effect.rules.chain_dm(e), e, "effect at {e}");
    }
}

/// Reaction counts beyond the printed ranges: below 0 is one, above 13 four.
#[test]
fn reaction_counts_at_the_ends() {
    let rules = &system().rules;
    let counts: Vec<u8> = [-5, 0, 4, 5, 8, 9, 12, 13, 30]
        .iter()
        .map(|&i| rules.reactions_at(i))
        .collect();
    assert_eq!(counts, [1, 1, 1, 2, 2, 3, 3, 4, 4]);
}

/// An overcharge Effect of -6 or worse does two hits to the M-drive: an
/// unskilled Engineer (-3) rolls 1 + 2 = 3, total 0, Effect -8.
#[test]
fn an_overcharge_of_effect_minus_6_does_two_hits() {
    let system = load(&edited(
        &sources(),
        "ships.toml",
        "skills = { engineer-m-drive = 1, engineer-power = 0, engineer-j-drive = 0, mechanic = 1 }",
        "skills = { mechanic = 1 }",
    ));
    let mut b = battle_in(&system, "trader", "corvette", Band::Long);
    let mut dice = ScriptedDice::new([1, 2]);
    let result = system
        .overcharge(&mut b, A, &mut dice, &mut NullSink)
        .expect("overcharge");
    assert_eq!((result.check.effect, result.hits), (-8, 2));
    assert_eq!(b.ship(A).severity[location("m-drive")], 2);
    assert_eq!(
        b.ship(A).thrust(&system.rules),
        0,
        "thrust 1, less 1 at severity 2"
    );
}

/// Reference, Critical hits: "A repeated location raises that location's
/// severity by one, up to 6", whatever the new hit's own severity. Hits of
/// severity 1, 1, 4, 2, 6, 1 and 1 on the escort's sensors take them to 1,
/// 2, 3, 4, 5, 6 and, at 6, no further.
#[test]
fn repeated_criticals_rise_by_one_and_stop_at_6() {
    let sys = system();
    let mut b = battle("corvette", "escort", Band::Short);
    let label = b.labels[1];
    let ship = b.ship_mut(B);
    let mut applied = broadside_crew_2d6::Applied::default();
    let sensors = location("sensors") as u8;
    let mut log = EventLog::default();
    let mut dice = ScriptedDice::new([]);
    for (severity, expected) in [(1, 1), (1, 2), (4, 3), (2, 4), (6, 5), (1, 6), (1, 6)] {
        sys.critical(
            ship,
            label,
            sensors,
            severity,
            broadside_crew_2d6::Cause::Attack,
            &mut applied,
            &mut dice,
            &mut log,
        )
        .expect("no dice needed");
        assert_eq!(ship.severity[usize::from(sensors)], expected);
    }
    assert!(
        log.events
            .iter()
            .any(|e| e.to_string().contains("already at severity 6"))
    );
    assert_eq!(ship.standing.max_band, Band::Adjacent);
}

/// Reference, Critical hits: a repeated location rises by one, so its new
/// row's effect applies and no row is skipped. The escort's Armour (5)
/// takes a severity 1 hit (row 1: armour -1, to 4), then a severity 3 hit,
/// which raises it to 2 (row 2: armour -1D3; the d3 shows 2, to 2), not to
/// 3 (row 3's -1D).
#[test]
fn a_repeated_armour_critical_applies_the_next_row() {
    let sys = system();
    let mut b = battle("corvette", "escort", Band::Short);
    let label = b.labels[1];
    let ship = b.ship_mut(B);
    let mut applied = broadside_crew_2d6::Applied::default();
    let armour = location("armour") as u8;
    let mut dice = ScriptedDice::new([2]);
    for severity in [1, 3] {
        sys.critical(
            ship,
            label,
            armour,
            severity,
            broadside_crew_2d6::Cause::Attack,
            &mut applied,
            &mut dice,
            &mut NullSink,
        )
        .expect("a critical hit");
    }
    assert_eq!(ship.severity[usize::from(armour)], 2);
    assert_eq!(ship.armour, 2, "5 - 1 - 2");
    assert_eq!(dice.used(), 1, "one d3 for row 2");
}

/// A weapon critical with no weapon left to harm does nothing more, and a
/// wrecked ship takes no critical hits.
#[test]
fn weapon_criticals_with_nothing_left_and_wrecks() {
    let sys = system();
    let mut b = battle("corvette", "trader", Band::Short);
    let label = b.labels[1];
    let ship = b.ship_mut(B);
    for c in ship.weapons.iter_mut() {
        *c = broadside_crew_2d6::Condition::Destroyed;
    }
    let mut applied = broadside_crew_2d6::Applied::default();
    let mut log = EventLog::default();
    let mut dice = ScriptedDice::new([]);
    let weapon_location = location("weapon") as u8;
    sys.critical(
        ship,
        label,
        weapon_location,
        1,
        broadside_crew_2d6::Cause::Attack,
        &mut applied,
        &mut dice,
        &mut log,
    )
    .expect("no dice needed");
    assert!(
        log.events
            .iter()
            .any(|e| e.to_string().contains("no weapon is left"))
    );
    ship.hull = 0;
    sys.critical(
        ship,
        label,
        weapon_location,
        1,
        broadside_crew_2d6::Cause::Attack,
        &mut applied,
        &mut dice,
        &mut log,
    )
    .expect("no dice needed");
    assert_eq!(
        ship.severity[usize::from(weapon_location)],
        1,
        "a wreck takes no more"
    );
}

/// Repair Systems jury-rigs a location: its thrust loss stops until it is
/// hit again. The corvette's M-drive engineer (2, EDU 9: +1) at severity 2
/// (DM -2) rolls 4 + 4 = 8 + 1 = 9 against 8.
#[test]
fn repair_jury_rigs_until_hit_again() {
    let sys = system();
    let mut b = battle("corvette", "trader", Band::Short);
    let m_drive = location("m-drive") as u8;
    let label = b.labels[0];
    let mut applied = broadside_crew_2d6::Applied::default();
    sys.critical(
        b.ship_mut(A),
        label,
        m_drive,
        2,
        broadside_crew_2d6::Cause::Attack,
        &mut applied,
        &mut ScriptedDice::new([]),
        &mut NullSink,
    )
    .expect("no dice");
    assert_eq!(b.ship(A).thrust(&sys.rules), 3);
    let engineer = 6; // Olu Baye, engineer-m-drive and engineer-power
    let mut dice = ScriptedDice::new([4, 4]);
    sys.repair(
        &mut b,
        A,
        engineer,
        Repairable::Location(m_drive),
        &mut dice,
        &mut NullSink,
    )
    .expect("repair");
    assert_eq!(b.ship(A).thrust(&sys.rules), 4, "jury-rigged");
    assert!(!sys.can_repair(&b, A, Repairable::Location(m_drive)));
    sys.critical(
        b.ship_mut(A),
        label,
        m_drive,
        1,
        broadside_crew_2d6::Cause::Attack,
        &mut applied,
        &mut ScriptedDice::new([]),
        &mut NullSink,
    )
    .expect("no dice");
    assert_eq!(b.ship(A).severity[usize::from(m_drive)], 3);
    assert_eq!(
        b.ship(A).thrust(&sys.rules),
        2,
        "hit again: the repair is undone"
    );
    assert!(!sys.can_repair(&b, A, Repairable::Location(location("hull") as u8)));
}

/// Range: closing thrust accumulates over rounds; both ships' thrust adds,
/// a pursuit subtracts; leaving a band costs that band's thrust.
#[test]
fn range_bands_change_by_accumulated_thrust() {
    let sys = system();
    let mut b = battle("corvette", "trader", Band::Long);
    // Each maneuvers against the other, so both thrusts count in their pair.
    b.states[0].maneuver_target = Some(B);
    b.states[1].maneuver_target = Some(A);
    b.states[0].applied = 6;
    b.states[1].applied = 3;
    sys.adjust_range(&mut b, &mut NullSink);
    assert_eq!((b.pairs[0].band, b.pairs[0].closing), (Band::Long, 9));
    b.states[0].applied = 4;
    b.states[1].applied = -1;
    sys.adjust_range(&mut b, &mut NullSink);
    assert_eq!((b.pairs[0].band, b.pairs[0].closing), (Band::Medium, 2));
    b.states[0].applied = 0;
    b.states[1].applied = -7;
    sys.adjust_range(&mut b, &mut NullSink);
    assert_eq!(
        (b.pairs[0].band, b.pairs[0].closing),
        (Band::Long, 0),
        "2 - 7 = -5 opens out of Medium"
    );
}

/// Setting up: a failed scan gives the other side a free round; near an
/// object the starting band is rolled on a d6.
#[test]
fn setting_up_and_the_free_round() {
    let sys = system();
    let mut b = battle("corvette", "trader", Band::VeryLong);
    // A near object: 2 on the d6 is Medium. The corvette's scan (2, EDU 9
    // +1) 3 + 3 = 9 succeeds; the trader's (0, INT 8 +0, civilian -2) 3 + 3
    // = 4 fails: the corvette gets a free round.
    let setup = Setup {
        start_band: None,
        near_object: true,
        jump_points: [false, false],
        echelon: Vec::new(),
    };
    let mut dice = ScriptedDice::new([2, 3, 3, 3, 3]);
    sys.set_up(&mut b, &setup, &mut dice, &mut NullSink)
        .expect("setting up");
    assert_eq!(b.pairs[0].band, Band::Medium);
    assert_eq!(b.free_round, Some(Side::A));
    // In the free round the trader cannot react: the scripted tactics ask
    // for a dodge, which the engine does not even ask for.
    let t1 = mount(&b, A, "turret-1");
    let corvette = ScriptedTactics {
        actions: vec![Order {
            person: 3,
            position: Position::Gunner(t1),
            action: Action::Fire {
                mount: t1,
                weapon: weapon("beam-laser"),
                target: B,
            },
        }],
        ..ScriptedTactics::default()
    };
    let trader = ScriptedTactics {
        reactions: Reactions {
            dodge: true,
            ..Reactions::default()
        },
        ..ScriptedTactics::default()
    };
    let tactics: [&dyn CrewTactics; 2] = [&corvette, &trader];
    let mut dice = ScriptedDice::new([1, 1, 1, 6, 6]);
    sys.free_round(&mut b, tactics, &mut dice, &mut NullSink)
        .expect("the free round");
    assert_eq!(
        dice.used(),
        3,
        "the attack's dice and its damage, and no dodge"
    );
    assert_eq!(b.surprised, None);
}

/// Jumps happen only at a marked jump point: a tactic that jumps elsewhere
/// is an internal error; at the point a successful check leaves at the end
/// of the turn and the engagement ends with an escape.
#[test]
fn jumps_only_at_alderson_points() {
    let sys = system();
    let jump = |at_point: bool| {
        let mut b = battle("trader", "corvette", Band::Long);
        b.states[0].at_jump_point = at_point;
        let jump = vec![Order {
            person: 4,
            position: Position::EngineerJDrive,
            action: Action::Jump,
        }];
        let (result, _, _) = side_a_orders(&mut b, jump, &[3, 3]);
        (result, b)
    };
    let (result, _) = jump(false);
    assert!(
        matches!(result, Err(broadside_core::ResolveError::Internal(_))),
        "{result:?}"
    );
    let (result, mut b) = jump(true);
    result.expect("the jump check");
    assert!(b.states[0].jumping);
    sys.end_of_round(&mut b, &mut NullSink);
    let setup = Setup::default();
    let sequence = Sequence {
        system: sys,
        setup: &setup,
        ships: 2,
        last_turn: 10,
    };
    assert_eq!(sequence.verdict(&b), Some(Verdict::Escaped(Side::A)));
}

/// A tactic that asks for a reaction the ship cannot make is a bug: an
/// internal error, never silently corrected.
#[test]
fn illegal_tactics_are_internal_errors() {
    let sys = system();
    let mut b = battle("corvette", "trader", Band::Short);
    let t1 = mount(&b, A, "turret-1");
    let corvette = ScriptedTactics {
        actions: vec![Order {
            person: 3,
            position: Position::Gunner(t1),
            action: Action::Fire {
                mount: t1,
                weapon: weapon("beam-laser"),
                target: B,
            },
        }],
        ..ScriptedTactics::default()
    };
    let trader = ScriptedTactics {
        reactions: Reactions {
            point_defence: 1,
            ..Reactions::default()
        },
        ..ScriptedTactics::default()
    };
    let tactics: [&dyn CrewTactics; 2] = [&corvette, &trader];
    let mut dice = ScriptedDice::new([3, 3]);
    let result = sys.attack_step(&mut b, [true, true], tactics, &mut dice, &mut NullSink);
    assert!(
        matches!(result, Err(broadside_core::ResolveError::Internal(_))),
        "{result:?}"
    );
    // A gunner given a mount that is not theirs.
    let mut b = battle("corvette", "trader", Band::Short);
    let wrong = ScriptedTactics {
        actions: vec![Order {
            person: 4,
            position: Position::Gunner(1),
            action: Action::Fire {
                mount: t1,
                weapon: weapon("beam-laser"),
                target: B,
            },
        }],
        ..ScriptedTactics::default()
    };
    let idle = ScriptedTactics::default();
    let tactics: [&dyn CrewTactics; 2] = [&wrong, &idle];
    let result = sys.attack_step(
        &mut b,
        [true, true],
        tactics,
        &mut ScriptedDice::new([]),
        &mut NullSink,
    );
    assert!(
        matches!(result, Err(broadside_core::ResolveError::Internal(_))),
        "{result:?}"
    );
}

/// An initiative tie is settled by a d6: 1-3 side A, 4-6 side B.
#[test]
fn initiative_ties_are_rolled_off() {
    let sys = system();
    let mut b = battle("corvette", "corvette", Band::Long);
    // Both: Tactics 2 + 3 = 5 + 3 = 8 (Effect 0), initiative 1 + 1 + 6 = 8.
    let mut dice = ScriptedDice::new([2, 3, 1, 1, 2, 3, 1, 1, 5]);
    sys.initiative_step(&mut b, &mut dice, &mut NullSink)
        .expect("initiative");
    assert_eq!(b.order, [B, A]);
}

/// Boarding holds the ships together: the range stays Adjacent.
#[test]
fn boarding_grapples_at_adjacent() {
    let sys = system();
    let mut b = battle("corvette", "trader", Band::Adjacent);
    b.states[0].thrust_left = 4;
    // Corvette Pilot 2 + DEX 1: 5 + 5 + 3 = 13 (Effect +5); trader's 1 + 0:
    // 3 + 3 + 1 = 7 (Effect -1).
    let mut dice = ScriptedDice::new([5, 5, 3, 3]);
    sys.boarding(&mut b, A, B, &mut dice, &mut NullSink)
        .expect("boarding");
    assert!(b.pairs[0].grappled);
    b.states[1].applied = -1;
    let mut log = EventLog::default();
    sys.adjust_range(&mut b, &mut log);
    assert_eq!(b.pairs[0].band, Band::Adjacent);
    let mut far = battle("corvette", "trader", Band::Close);
    far.states[0].thrust_left = 4;
    assert!(
        sys.boarding(&mut far, A, B, &mut ScriptedDice::new([]), &mut NullSink)
            .is_err()
    );
}

/// A refused attack through `AttackResolution` changes nothing and emits
/// nothing.
#[test]
fn a_refused_attack_changes_nothing() {
    let sys = system();
    let b = battle("corvette", "trader", Band::Long);
    let mut after = b.clone();
    let attack = Attack {
        attacker: A,
        target: B,
        weaponry: Weaponry::Direct {
            mount: 0,
            weapon: weapon("beam-laser"),
        },
        reactions: Reactions::default(),
    };
    let mut log = EventLog::default();
    let mut dice = ScriptedDice::new([6, 6, 6]);
    let result = sys.resolve_attack(&mut after, &attack, &mut dice, &mut log);
    assert!(matches!(
        result,
        Err(broadside_core::ResolveError::Refused(_))
    ));
    assert_eq!(after, b);
    assert!(log.events.is_empty());
    assert_eq!(dice.used(), 0);
}

/// Tables: every table has a kebab-case id and rows that `cell` finds,
/// including "0-4", "13+" and ranges.
#[test]
fn tables_read_by_label_and_number() {
    let tables = Ruleset::tables(system());
    for table in &tables {
        assert_eq!(
            table.id,
            broadside_core::ruleset::kebab(&table.id),
            "{}",
            table.id
        );
        testing::assert_rows_fill_columns(table);
    }
    let find = |id: &str| {
        tables
            .iter()
            .find(|t| t.id == id)
            .unwrap_or_else(|| panic!("no table {id}"))
    };
    let reactions = find("reactions");
    // The seed's rows: "Initiative 0-4 = 1".
    assert_eq!(reactions.rows[0].label, "0-4");
    assert_eq!(reactions.cell("0-4", None).unwrap(), "1");
    assert_eq!(reactions.cell("3", None).unwrap(), "1");
    assert_eq!(reactions.cell("7", None).unwrap(), "2");
    assert_eq!(reactions.cell("13+", None).unwrap(), "4");
    assert_eq!(reactions.cell("20", None).unwrap(), "4");
    let chain = find("chain-dm");
    assert_eq!(chain.cell("-4", None).unwrap(), "-2");
    assert_eq!(chain.cell("9", None).unwrap(), "+2");
    assert_eq!(find("characteristic-dm").cell("10", None).unwrap(), "+1");
    assert_eq!(
        find("critical-locations")
            .cell("8", Some("location"))
            .unwrap(),
        "m-drive"
    );
    assert_eq!(
        find("range-bands")
            .cell("very-long", Some("attack dm"))
            .unwrap(),
        "-4"
    );
    assert_eq!(find("starting-band").cell("2", None).unwrap(), "medium");
    // Seed 004: "Repair Systems: Mechanic or Engineering (appropriate)".
    assert!(
        find("tasks")
            .cell("repair", Some("skill"))
            .unwrap()
            .contains("mechanic or the location's engineer specialty")
    );
}

/// The scripted run from the free round onward is stable under replay:
/// the same dice give the same battle.
#[test]
fn steps_replay_exactly() {
    let sys = system();
    let run = || {
        let mut b = battle("corvette", "trader", Band::Short);
        let mut script = Script::new(&[3, 4, 2, 2, 5, 6, 1, 2, 4]);
        let (dice, sink) = script.parts();
        sys.initiative_step(&mut b, dice, sink).expect("initiative");
        b
    };
    assert_eq!(run(), run());
}

/// Reference, Missiles: "A turret holds 12 missiles", however many racks
/// it carries: the corvette's and the trader's two racks share one turret
/// and 12 missiles, as does the scout's one rack; a salvo of two leaves 10.
#[test]
fn a_turret_holds_12_missiles() {
    let sys = system();
    let rules = &sys.rules;
    let rack = weapon("missile-rack");
    for ship in ["scout", "trader", "corvette", "escort"] {
        let class = rules.class(rules.class_id(ship).expect("a ship"));
        let load = class
            .magazines
            .iter()
            .find(|&&(w, _)| w == rack)
            .map(|&(_, n)| n);
        assert_eq!(load, Some(12), "{ship}");
    }
    // The corvette's turret-2 gunner (Gunner (turret) 1, DEX 9 +1) launches
    // both racks at Long range: 6 + 6 + 2 = 14 against Simple 2+.
    let mut b = battle("corvette", "trader", Band::Long);
    let t2 = mount(&b, A, "turret-2");
    sys.launch(
        &mut b,
        A,
        Position::Gunner(t2),
        (rack, 2, B),
        &mut ScriptedDice::new([6, 6]),
        &mut NullSink,
    )
    .expect("the launch");
    assert_eq!(b.ship(A).magazine(rules, rack), Some(10));
}

/// Seed 004, "Any missiles in a salvo that ... are not destroyed by Point
/// Defense or ECM attack the ship. Roll 2D": the defender chooses its
/// reactions to a salvo before the attack is rolled, so it sees the
/// missiles but no dice. The escort's one missile at the trader, with no
/// reaction, then rolls 1 + 1 + 2 (TL 13 - 11) = 4 and misses.
#[test]
fn a_salvos_defender_chooses_without_seeing_the_roll() {
    struct Peek(std::cell::Cell<Option<Incoming>>);
    impl ReactionChooser for Peek {
        fn choose(&self, _: &Crew2d6, _: &Battle, _: ShipId, incoming: &Incoming) -> Reactions {
            self.0.set(Some(*incoming));
            Reactions::default()
        }
        fn is_user(&self) -> bool {
            false
        }
    }
    let sys = system();
    let mut b = battle("escort", "trader", Band::Medium);
    let salvo = Salvo {
        owner: A,
        target: B,
        weapon: weapon("missile-rack"),
        missiles: 1,
        rounds_left: 0,
        tl: 13,
        smart: true,
        bane: false,
        dm: 0,
    };
    let peek = Peek(std::cell::Cell::new(None));
    let mut dice = ScriptedDice::new([1, 1]);
    let outcome = sys
        .strike_salvo(&mut b, &salvo, &peek, &mut dice, &mut NullSink)
        .expect("the salvo strikes");
    let seen = peek.0.get().expect("asked for reactions");
    assert_eq!(seen.missiles, Some(1));
    assert!(seen.seen.is_none(), "no dice before the reactions");
    assert_eq!((outcome.total, outcome.hit), (4, false));
}

/// House-rule option `identical.attack-dm = [0, 1, 2]`, off by default: a
/// triple beam laser turret also gains +2 to hit. The corvette at the
/// trader at Short: 1 + 1 + 7 + 2 = 11, Effect +3; 1D 1 + 2 (two extra
/// lasers) + 3 - armour 1 = 5.
#[test]
fn identical_weapons_may_add_an_attack_dm_by_option() {
    let r = resolve_edited(
        (
            "weapons.toml",
            "attack-dm = [0, 0, 0]",
            "attack-dm = [0, 1, 2]",
        ),
        "corvette",
        "trader",
        "beam-laser",
        "short",
        &[1, 1, 1],
    );
    assert_eq!(r.json["total"], 11);
    assert_eq!(r.json["damage"], 5);
}

/// Repair Systems puts a weapon under a Bane back in action for good, and
/// says so: the trader's Engineer (Mechanic 1, EDU 8 +0, DM -1 for a Bane)
/// rolls 4 + 4 + 1 - 1 = 8 against 8.
#[test]
fn a_repaired_weapon_is_back_in_action() {
    let sys = system();
    let mut b = battle("trader", "corvette", Band::Short);
    b.ship_mut(A).weapons[0] = broadside_crew_2d6::Condition::Bane;
    let mut log = EventLog::default();
    sys.repair(
        &mut b,
        A,
        4,
        Repairable::Weapon(0),
        &mut ScriptedDice::new([4, 4]),
        &mut log,
    )
    .expect("repair");
    assert_eq!(b.ship(A).weapons[0], broadside_crew_2d6::Condition::Ready);
    let text = event_lines(&log.events);
    assert!(
        text.iter().any(|e| e.contains("repaired: back in action")),
        "{text:?}"
    );
    assert!(!text.iter().any(|e| e.contains("jury-rigged")), "{text:?}");
}

/// One attack under the data of record with one edit (`file`, `from`, `to`),
/// as the house-rule option tests make it: `weapon` at `band`, scripted dice.
fn resolve_edited(
    (file, from, to): (&str, &str, &str),
    attacker: &str,
    target: &str,
    weapon: &str,
    band: &str,
    dice: &[u32],
) -> common::Resolution {
    let system = load(&edited(&sources(), file, from, to));
    let mut dice = ScriptedDice::new(dice);
    resolve_in(
        &system,
        attacker,
        target,
        &[("weapon", text(weapon)), ("range-band", text(band))],
        &mut dice,
    )
    .expect("resolves")
}

/// The refusal a direct-fire attack meets, if any, with no dice rolled.
fn check_fire_refusal(sys: &Crew2d6, b: &Battle, target: ShipId, fragment: Option<&str>) {
    let t1 = mount(b, A, "turret-1");
    let result = sys.check_fire(b, A, target, t1, weapon("beam-laser"));
    match (fragment, result) {
        (None, Ok(())) => {}
        (Some(f), Err(broadside_core::ResolveError::Refused(m))) => {
            assert!(m.contains(f), "refusal '{m}' lacks '{f}'");
        }
        (f, other) => panic!("expected {f:?}, got {other:?}"),
    }
}

/// Ruling 41: a gunner attacks an enemy its weapon and its sensors reach at
/// the band between the two. The corvette's beam laser reaches Medium;
/// damaged sensors (standing for a Sensors critical hit) reach only Short.
/// At Medium, the weapon's own limit, the sensors refuse it; at Short, the
/// sensors' limit, it may fire, unless its damage disables gunnery, which
/// is then the refusal given; one band past the sensors, the sensors
/// refuse it again, disabled gunnery or not.
#[test]
fn fire_is_refused_one_band_past_the_sensors() {
    let sys = system();
    let gunnery = sys.rules.task(Task::DirectFire).groups;
    let at = |band: Band, disabled: bool| {
        let mut b = battle("corvette", "trader", band);
        b.ship_mut(A).standing.max_band = Band::Short;
        if disabled {
            b.ship_mut(A).standing.disables |= gunnery;
        }
        b
    };
    let sensors = Some("damaged sensors reach only Short range");
    check_fire_refusal(sys, &at(Band::Medium, false), B, sensors);
    check_fire_refusal(sys, &at(Band::Medium, true), B, sensors);
    check_fire_refusal(sys, &at(Band::Short, false), B, None);
    let impossible = Some("damage makes gunnery impossible");
    check_fire_refusal(sys, &at(Band::Short, true), B, impossible);
    check_fire_refusal(sys, &at(Band::Close, true), B, impossible);
}

/// Ruling 41: only a ship in the battle is attacked. In a battle of two,
/// ship 1 is the last there is; ship 2 is refused, by number.
#[test]
fn check_target_refuses_a_ship_one_past_the_battle() {
    let sys = system();
    let b = battle("corvette", "trader", Band::Short);
    sys.check_target(&b, A, B).expect("ship 1 is in the battle");
    match sys.check_target(&b, A, ShipId(2)) {
        Err(broadside_core::ResolveError::Refused(m)) => {
            assert_eq!(m, "no ship 0 or 2 in a battle of 2")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    match sys.check_target(&b, ShipId(2), B) {
        Err(broadside_core::ResolveError::Refused(m)) => {
            assert_eq!(m, "no ship 2 or 1 in a battle of 2")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Ruling 25: "in a free round the surprised side neither acts nor
/// reacts". The trader (B) is surprised: the corvette's beam lasers fire at
/// it with no reaction declared (1 + 1 + 7 = 9, Effect +1, damage 1 + 2 +
/// 1 - armour 1 = 3); one reaction, a dodge alone, is refused before any
/// die is rolled.
#[test]
fn a_surprised_ship_declares_no_reaction() {
    let sys = system();
    let fire = |reactions: Reactions| {
        let mut b = battle("corvette", "trader", Band::Short);
        b.surprised = Some(Side::B);
        let t1 = mount(&b, A, "turret-1");
        let mut dice = ScriptedDice::new([1, 1, 1, 6, 6, 6]);
        let result = sys.fire(
            &mut b,
            A,
            B,
            t1,
            weapon("beam-laser"),
            &reactions,
            &mut dice,
            &mut NullSink,
        );
        (result, dice.used(), b.ship(B).hull)
    };
    let (hit, used, hull) = fire(Reactions::default());
    let hit = hit.expect("no reaction is allowed");
    assert_eq!((hit.total, hit.effect, used, hull), (9, 1, 3, 77));
    let dodge = Reactions {
        dodge: true,
        ..Reactions::default()
    };
    assert_eq!(dodge.count(), 1);
    let (refused, used, hull) = fire(dodge);
    assert!(
        matches!(&refused, Err(broadside_core::ResolveError::Refused(m)) if m == "the trader (B) is surprised and cannot react"),
        "{refused:?}"
    );
    assert_eq!((used, hull), (0, 80));
}

/// Every reaction declared counts toward the allowance: one dodge, two
/// point defence attempts, ECM and sand are five.
#[test]
fn every_reaction_declared_counts() {
    let one_each = |dodge, point_defence, ecm, sand| {
        Reactions {
            dodge,
            point_defence,
            ecm,
            sand,
        }
        .count()
    };
    assert_eq!(one_each(false, 0, false, false), 0);
    assert_eq!(one_each(true, 0, false, false), 1);
    assert_eq!(one_each(false, 2, false, false), 2);
    assert_eq!(one_each(false, 0, true, false), 1);
    assert_eq!(one_each(false, 0, false, true), 1);
    assert_eq!(one_each(true, 2, true, true), 5);
}

/// Ruling 34: point defence is fired from a turret, barbette or bay with a
/// point-defence weapon and a gunner. The trader has one (turret-1's beam
/// laser): one attempt against the escort's salvo is made (5 + 4 = 9
/// against 8, Effect +1, one missile destroyed); two are refused, before
/// any die is rolled.
#[test]
fn point_defence_is_refused_one_past_the_mounts() {
    let salvo = |attempts| {
        vec![
            ("weapon", text("missile-rack")),
            ("range-band", text("medium")),
            ("point-defense", num(attempts)),
        ]
    };
    let (result, _) = resolve(
        "escort",
        "trader",
        &salvo(1),
        &[5, 4, 4, 3, 3, 4, 5, 6, 4, 5, 4, 5],
    );
    let r = result.expect("one point defence attempt from one mount");
    assert_eq!(r.json["missiles"]["shot_down"], 1);
    check_refused(
        "escort",
        "trader",
        &salvo(2),
        "the trader has 1 point-defence mount(s) with a gunner free, not 2",
    );
}

/// Rulings 22 and 36, `sand-stops`: sand is fired only against a weapon sand
/// stops. The trader's sandcaster answers a beam laser (the snapshot
/// `sand_against_a_small_bay_laser`); against the gunboat's particle beam,
/// which sand does not stop, it is refused before any die is rolled.
#[test]
fn sand_is_refused_against_a_particle_beam() {
    let sys = with_gunboat();
    let pairs = [
        ("weapon", text("particle-beam")),
        ("range-band", text("short")),
        ("sand", flag()),
    ];
    let mut dice = ScriptedDice::new([3, 3, 3, 3, 3, 3, 3, 3]);
    let refused = resolve_in(sys, "gunboat", "trader", &pairs, &mut dice);
    assert!(
        matches!(&refused, Err(broadside_core::ResolveError::Refused(m)) if m == "sand does not stop a Particle Beam"),
        "{refused:?}"
    );
    assert_eq!(dice.used(), 0);
}

/// Ruling 34: "A weapon used for point defence does not attack that
/// round". The escort (A) launches its two missile racks at the corvette
/// (B) at Medium; the corvette's turret-1 answers with point defence, its
/// three beam lasers together (6 + 6 + Gunner 2 + 2 for three = 18 against
/// 8: both missiles destroyed, no attack roll). In the same round turret-1
/// is refused an attack, every one of its lasers having defended; turret-3's
/// pulse lasers, which did not defend, still fire (1 + 1: a miss).
#[test]
fn lasers_that_fired_point_defence_do_not_attack_that_round() {
    let sys = system();
    let mut b = battle("escort", "corvette", Band::Medium);
    let salvo = Attack {
        attacker: A,
        target: B,
        weaponry: Weaponry::Salvo {
            weapon: weapon("missile-rack"),
            missiles: 2,
        },
        reactions: Reactions {
            point_defence: 1,
            ..Reactions::default()
        },
    };
    let mut dice = ScriptedDice::new([6, 6, 1, 1]);
    let stopped = sys
        .resolve_attack(&mut b, &salvo, &mut dice, &mut NullSink)
        .expect("the salvo");
    let missiles = stopped.missiles.expect("a salvo's missiles");
    assert_eq!((missiles.shot_down, missiles.attacking), (2, 0));
    assert_eq!(dice.used(), 2);
    let none = Reactions::default();
    let mut fire = |mount_id: &str, laser: &str| {
        let m = mount(&b, B, mount_id);
        sys.fire(
            &mut b,
            B,
            A,
            m,
            weapon(laser),
            &none,
            &mut dice,
            &mut NullSink,
        )
    };
    let refused = fire("turret-1", "beam-laser");
    assert!(
        matches!(&refused, Err(broadside_core::ResolveError::Refused(m))
            if m == "the corvette (B)'s turret-1 has no beam-laser left that can fire this round"),
        "{refused:?}"
    );
    let missed = fire("turret-3", "pulse-laser").expect("turret-3 did not defend");
    assert!(!missed.hit);
    assert_eq!(dice.used(), 4);
}

/// The first die of a reaction's check as a report shows it (its line
/// `<reaction>: 2D [...]`), over every path of the dice, with the chance of
/// each face shown.
fn reaction_first_faces(
    sys: &Crew2d6,
    (attacker, target): (&str, &str),
    pairs: &[(&str, broadside_core::OptionValue)],
    reaction: &str,
) -> Vec<f64> {
    let request = testing::resolve_request(sys, attacker, target, pairs).expect("a request");
    let prefix = format!("{reaction}: 2D [");
    let mut chance = [0.0; 6];
    broadside_core::exact::visit_paths(
        1_000_000,
        |dice| {
            let report = Ruleset::resolve(sys, &request, dice, &mut NullSink)?;
            let line = report
                .lines()
                .into_iter()
                .find(|l| l.starts_with(&prefix))
                .expect("a reaction line");
            Ok(line[prefix.len()..]
                .split(',')
                .next()
                .and_then(|f| f.parse::<usize>().ok())
                .expect("a face"))
        },
        |face, p| chance[face - 1] += broadside_core::exact::to_f64(&p),
    )
    .expect("every path");
    chance.to_vec()
}

/// Asserts that every face has a chance of one in six, as a die's has.
fn assert_faces_real(chances: &[f64]) {
    for (face, chance) in chances.iter().enumerate() {
        assert!(
            (chance - 1.0 / 6.0).abs() < 1e-12,
            "face {}: chance {chance}",
            face + 1
        );
    }
}

/// A single attack's report gives "the roll ... the reactions", the
/// dodge's own dice among them, whatever the log keeps. Walked path by
/// path with no log (as exact odds walk them), the corvette's pulse lasers
/// at the trader, dodged: the dodge's first die, as the report shows it,
/// shows each face with a chance of one in six, as a die does, not only
/// the faces that split a sum.
#[test]
fn a_reports_dodge_faces_are_real_on_every_path() {
    let pairs = [
        ("weapon", text("pulse-laser")),
        ("range-band", text("medium")),
        ("dodge", flag()),
    ];
    assert_faces_real(&reaction_first_faces(
        without_criticals(),
        ("corvette", "trader"),
        &pairs,
        "dodge",
    ));
}

/// The same of ECM, whose Effect the salvo reads only up to the missiles
/// left (Seed 004, "ECM against missiles about to hit": the Effect removes
/// that many missiles): the escort's two missiles at the corvette at
/// Medium, jammed by the corvette's Sensor Operator. On every path the ECM
/// check's first die, as the report shows it, shows each face with a
/// chance of one in six.
#[test]
fn a_reports_ecm_faces_are_real_on_every_path() {
    let pairs = [
        ("weapon", text("missile-rack")),
        ("range-band", text("medium")),
        ("ecm", flag()),
    ];
    assert_faces_real(&reaction_first_faces(
        without_criticals(),
        ("escort", "corvette"),
        &pairs,
        "ecm",
    ));
}

/// Seed 004, "Fire Sand at incoming Beam attack", and the rules note's sand
/// row: one canister a use, and sand only while the sandcaster has some
/// left. The trader's sandcaster is down to its last canister: it answers
/// the corvette's beam lasers at Short (1 + 1 + 7 = 9, Effect +1; the sand
/// check 1 + 1, a failure; damage 1 + 2 + 1 - armour 1 = 3), and the
/// canister is spent. Against the pulse lasers that fire next, with no
/// sand left, sand is refused before any die is rolled.
#[test]
fn sand_is_fired_only_while_a_canister_is_left() {
    let sys = system();
    let rules = &sys.rules;
    let sand = weapon("sandcaster");
    let mut b = battle("corvette", "trader", Band::Short);
    let canisters = b
        .ship(B)
        .class(rules)
        .magazine(sand)
        .expect("the trader carries sand");
    b.ship_mut(B).magazines[canisters] = 1;
    let sand_reaction = Reactions {
        sand: true,
        ..Reactions::default()
    };
    let mut dice = ScriptedDice::new([1, 1, 1, 1, 1]);
    let t1 = mount(&b, A, "turret-1");
    let answered = sys
        .fire(
            &mut b,
            A,
            B,
            t1,
            weapon("beam-laser"),
            &sand_reaction,
            &mut dice,
            &mut NullSink,
        )
        .expect("sand from the last canister");
    assert_eq!(answered.reactions.len(), 1, "the sand reaction was made");
    assert_eq!(dice.used(), 5);
    assert_eq!(b.ship(B).magazine(rules, sand), Some(0));
    let t3 = mount(&b, A, "turret-3");
    let refused = sys.fire(
        &mut b,
        A,
        B,
        t3,
        weapon("pulse-laser"),
        &sand_reaction,
        &mut dice,
        &mut NullSink,
    );
    assert!(
        matches!(&refused, Err(broadside_core::ResolveError::Refused(m))
            if m == "the trader (B) has no sandcaster with sand and a gunner"),
        "{refused:?}"
    );
    assert_eq!(dice.used(), 5, "a refused attack rolls nothing");
}

/// House-rule option `sand.add-effect = true`, off by default (Ruling 8's
/// alternative, the core rules' 1D + Effect): the sand check's Effect is
/// taken off with the 1D. The corvette's beam lasers at the trader at
/// Short: 3 + 3 + 7 = 13, Effect +5. The trader's gunner (Gunner 0, DEX 8
/// +0) fires sand, 5 + 5 = 10 against 8, Effect +2, and 1D rolls 3: 3 + 2 =
/// 5 off. The damage, 1D 4 + 2 (two more lasers) + 5 - armour 1 = 10, less
/// 5, is 5.
#[test]
fn sand_may_take_its_effect_off_too_by_option() {
    let system = load(&edited(
        &sources(),
        "rules.toml",
        "add-effect = false",
        "add-effect = true",
    ));
    let mut dice = ScriptedDice::new([3, 3, 5, 5, 3, 4]);
    let r = resolve_in(
        &system,
        "corvette",
        "trader",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("short")),
            ("sand", flag()),
        ],
        &mut dice,
    )
    .expect("resolves");
    assert_eq!(dice.used(), 6);
    assert_eq!(r.json["effect"], 5);
    assert_eq!(r.json["reactions"][0]["effect"], 2);
    assert_eq!(r.json["reactions"][0]["amount"], 5, "1D 3 + Effect 2");
    assert_eq!(r.json["damage"], 5, "(4 + 2 + 5 - 1) - 5");
}

/// Seed 004, "Resolve Missile Hits", "Aim" and "Dodge Attack": a salvo
/// attacks with the TL difference DM + 1 per missile beyond the first +
/// the launching gunner's aim (Ruling 21: it attacks the round it is
/// launched), less the dodge's positive Effect (Ruling 12), which the log
/// shows as its own DM. The corvette's two missiles at the scout at Short,
/// its turret-2 gunner having aimed once (+2).
///
/// The scout's pilot (Pilot 2, DEX 9 +1) dodges first: 4 + 4 + 3 = 11
/// against Difficult 10+, Effect +1. The salvo rolls 2 + 3 = 5, then +1
/// (the TL difference, 12 less 12, raised to the minimum), +2 (aim), +1
/// (second missile) and -1 (dodged): 8 against 8, a hit at Effect 0, 4D
/// x 0.
///
/// A dodge that fails (1 + 1 + 3 = 5, Effect -5) takes nothing off and
/// shows no DM: the same salvo rolls 2 + 2 + 1 + 2 + 1 = 8.
#[test]
fn a_salvos_dm_adds_aim_and_missiles_and_takes_off_a_dodge() {
    let pairs = [
        ("weapon", text("missile-rack")),
        ("range-band", text("short")),
        ("aim", num(1)),
        ("dodge", flag()),
    ];
    let (dodged, used) = resolve("corvette", "scout", &pairs, &[4, 4, 2, 3, 1, 1, 1, 1]);
    let dodged = dodged.expect("resolves");
    assert_eq!(used, 8);
    assert_eq!(dodged.json["reactions"][0]["effect"], 1);
    assert_eq!(dodged.json["dm"], 3, "1 + 2 + 1 - 1");
    assert_eq!(dodged.json["total"], 8);
    assert_eq!(dodged.json["hit"], true);
    let lines = event_lines(&dodged.events);
    assert!(
        lines.contains(&"-1 to salvo attack: the target dodged (Effect +1)".to_owned()),
        "{lines:?}"
    );

    let (failed, used) = resolve("corvette", "scout", &pairs, &[1, 1, 2, 2, 1, 1, 1, 1]);
    let failed = failed.expect("resolves");
    assert_eq!(used, 8);
    assert_eq!(failed.json["reactions"][0]["effect"], -5);
    assert_eq!(failed.json["dm"], 4, "1 + 2 + 1");
    assert_eq!(failed.json["total"], 8);
    let lines = event_lines(&failed.events);
    assert!(
        !lines.iter().any(|l| l.contains("the target dodged")),
        "{lines:?}"
    );
}

/// Ruling 21: the launching gunner's aim goes to a salvo only if it
/// attacks the round it is launched, in `resolve` as in play, where a salvo
/// is resolved as it arrives and the log gives its flight (Ruling 30). The
/// corvette's turret-2 gunner aims once (+2) and launches two missiles at
/// the scout. At Long the salvo flies one round, which the log says, and
/// the aim is lost: 1 + 2 + 1 (TL DM minimum) + 1 (second missile) = 5, a
/// miss. At Short it attacks at once, no flight is told, and the aim
/// counts: 1 + 2 + 1 + 1 + 2 = 7, a miss.
#[test]
fn a_salvos_aim_counts_only_when_it_attacks_at_once() {
    let at = |band: &str| {
        let (r, used) = resolve(
            "corvette",
            "scout",
            &[
                ("weapon", text("missile-rack")),
                ("range-band", text(band)),
                ("aim", num(1)),
            ],
            &[1, 2],
        );
        assert_eq!(used, 2);
        r.expect("resolves")
    };
    let flies = |r: &common::Resolution| {
        event_lines(&r.events)
            .into_iter()
            .filter(|l| l.contains("before it attacks"))
            .collect::<Vec<_>>()
    };
    let long = at("long");
    assert_eq!(long.json["missiles"]["flight_rounds"], 1);
    assert_eq!(long.json["dm"], 2, "no aim");
    assert_eq!(long.json["total"], 5);
    assert_eq!(
        flies(&long),
        [
            "ruling: launched at Long range the salvo flies 1 round(s) before it attacks; it is resolved here as it arrives"
        ]
    );
    let short = at("short");
    assert_eq!(short.json["missiles"]["flight_rounds"], 0);
    assert_eq!(short.json["dm"], 4, "the aim's +2");
    assert_eq!(short.json["total"], 7);
    assert!(flies(&short).is_empty(), "{:?}", flies(&short));
}

/// Seed 004, "Launch Missile Salvo": "All Missiles from all mounts of same
/// missile type are fired at once", one salvo per ship, missile and round
/// (Ruling 44). The trader's turret-2 gunner (unskilled -3, DEX 6 +0)
/// launches its two racks at the corvette at Short: 6 + 6 - 3 = 9 against
/// Simple 2+. Both launchers are then used for the round, and a second
/// salvo of that missile is refused.
#[test]
fn a_launch_uses_every_launcher_of_its_missile_for_the_round() {
    let sys = system();
    let rack = weapon("missile-rack");
    let mut b = battle("trader", "corvette", Band::Short);
    assert_eq!(sys.launchers(&b, A, rack), 2);
    let t2 = mount(&b, A, "turret-2");
    sys.launch(
        &mut b,
        A,
        Position::Gunner(t2),
        (rack, 2, B),
        &mut ScriptedDice::new([6, 6]),
        &mut NullSink,
    )
    .expect("the launch");
    assert_eq!(b.salvos.len(), 1);
    assert_eq!(sys.launchers(&b, A, rack), 0);
    match sys.check_launch(&b, A, B, rack, 1) {
        Err(broadside_core::ResolveError::Refused(m)) => assert_eq!(
            m,
            "a salvo of 1 is more than the trader (A)'s 0 usable Missile Rack (smart missiles) launch in a round"
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Rulings 41 and 44: a salvo is launched at an enemy, by a ship that
/// carries that missile. With the corvette and the scout on one side, the
/// corvette's salvo at the scout is refused as an attack on its own side
/// would be; the gunboat, which carries no missile rack, is refused a
/// salvo for that reason, not for its magazine.
#[test]
fn a_salvo_needs_an_enemy_and_a_launcher() {
    let sys = system();
    let rack = weapon("missile-rack");
    let b = common::fleet(&["corvette", "scout"], &["trader"], Band::Short);
    match sys.check_launch(&b, ShipId(0), ShipId(1), rack, 2) {
        Err(broadside_core::ResolveError::Refused(m)) => {
            assert!(m.contains("they are on the same side"), "{m}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    sys.check_launch(&b, ShipId(0), ShipId(2), rack, 2)
        .expect("the trader is an enemy");

    let gunboat = with_gunboat();
    let b = battle_in(gunboat, "gunboat", "trader", Band::Short);
    match gunboat.check_launch(&b, A, B, rack, 1) {
        Err(broadside_core::ResolveError::Refused(m)) => {
            assert_eq!(m, "the gunboat (A) carries no missile-rack")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The scout's attack step against the escort at Short range with these
/// orders and scripted dice: the result, the dice used, the battle after
/// it, and the log as lines. The scout's crew: Kessa Moor (0) holds
/// Captain and Pilot and fires the fixed beam laser; Dain Orrel (1) holds
/// Sensors, Comms and the Gunner of turret-1 (pulse laser, missile rack).
fn scout_orders(
    orders: Vec<Order>,
    prepare: impl FnOnce(&mut Battle),
    dice: &[u32],
) -> (
    Result<(), broadside_core::ResolveError>,
    usize,
    Battle,
    Vec<String>,
) {
    let mut b = battle("scout", "escort", Band::Short);
    prepare(&mut b);
    let (result, used, lines) = side_a_orders(&mut b, orders, dice);
    (result, used, b, lines)
}

/// Side A's attack step with these orders and scripted dice, side B giving
/// none: the result, the dice used, and the log as lines.
fn side_a_orders(
    b: &mut Battle,
    orders: Vec<Order>,
    dice: &[u32],
) -> (Result<(), broadside_core::ResolveError>, usize, Vec<String>) {
    let side_a = ScriptedTactics {
        actions: orders,
        ..ScriptedTactics::default()
    };
    let idle = ScriptedTactics::default();
    let tactics: [&dyn CrewTactics; 2] = [&side_a, &idle];
    let mut dice = ScriptedDice::new(dice);
    let mut log = EventLog::default();
    let result = system().attack_step(b, [true, false], tactics, &mut dice, &mut log);
    (result, dice.used(), event_lines(&log.events))
}

/// Asserts that a ship's orders were refused as tactics the rules forbid,
/// with a message containing `fragment`, before any die was rolled.
fn check_orders_refused(
    (result, used, _, _): &(
        Result<(), broadside_core::ResolveError>,
        usize,
        Battle,
        Vec<String>,
    ),
    fragment: &str,
) {
    assert!(
        matches!(result, Err(broadside_core::ResolveError::Internal(m)) if m.contains(fragment)),
        "{result:?}"
    );
    assert_eq!(*used, 0, "the orders are refused before any is carried out");
}

/// Seed 004, Attack Step: "one per ship position". The Sensor Operator
/// given a Scan and a Jam Sensors in one attack step is refused, before
/// the Scan's dice are rolled.
#[test]
fn a_position_takes_one_action_in_the_attack_step() {
    let twice = scout_orders(
        vec![
            Order {
                person: 1,
                position: Position::Sensors,
                action: Action::Scan,
            },
            Order {
                person: 1,
                position: Position::Sensors,
                action: Action::JamSensors { target: B },
            },
        ],
        |_| {},
        &[3, 3, 3, 3],
    );
    check_orders_refused(&twice, "two actions in one step");
}

/// Seed 004, positions: "The Pilot may fire fixed mount weapons". The
/// scout's Captain is also its Pilot: firing the fixed beam laser as
/// Pilot is an attack (1 + 1, Gunner (turret) 0, DEX +1, Short +1, beam laser +4: 8, a hit at Effect 0, and 1D damage), as Captain it is refused before
/// any die is rolled.
#[test]
fn the_fixed_mount_is_fired_from_the_pilot_position() {
    let fire_as = |position| {
        let b = battle("scout", "escort", Band::Short);
        let fixed = mount(&b, A, "fixed-1");
        scout_orders(
            vec![Order {
                person: 0,
                position,
                action: Action::Fire {
                    mount: fixed,
                    weapon: weapon("beam-laser"),
                    target: B,
                },
            }],
            |_| {},
            &[1, 1, 1, 1, 1, 1],
        )
    };
    let (result, used, _, _) = fire_as(Position::Pilot);
    result.expect("the Pilot fires the fixed mount");
    assert_eq!(used, 3, "the attack's 2D and the damage's 1D");
    check_orders_refused(&fire_as(Position::Captain), "cannot take");
}

/// Seed 004, Launch Missile Salvo: a Gunnery task, made by the gunner of a
/// mount carrying the launchers. The scout's Captain ordered to launch its
/// missile rack is refused with the rest of the ship's orders, before the
/// Sensor Operator's Scan is rolled.
#[test]
fn only_a_launchers_gunner_launches() {
    let captain_launches = scout_orders(
        vec![
            Order {
                person: 1,
                position: Position::Sensors,
                action: Action::Scan,
            },
            Order {
                person: 0,
                position: Position::Captain,
                action: Action::Launch {
                    weapon: weapon("missile-rack"),
                    missiles: 1,
                    target: B,
                },
            },
        ],
        |_| {},
        &[3, 3, 3, 3],
    );
    check_orders_refused(&captain_launches, "cannot take");
}

/// Seed 004: "Communicate with another ship or nearby world:
/// Communications, EDU, Average (8+)" and "Jam Comms: Communications":
/// both are the Comms Officer's. The scout's comms officer communicates
/// (Electronics (comms) 1, EDU 10 +1: 3 + 3 + 2 = 8, a success); the same
/// person ordered to communicate as Sensor Operator is refused.
#[test]
fn the_comms_officer_communicates() {
    let communicate_as = |position| {
        scout_orders(
            vec![Order {
                person: 1,
                position,
                action: Action::Communicate,
            }],
            |_| {},
            &[3, 3],
        )
    };
    let (result, used, _, lines) = communicate_as(Position::Comms);
    result.expect("the comms officer communicates");
    assert_eq!(used, 2);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Communicate") && l.contains("8 against 8, succeeds")),
        "{lines:#?}"
    );
    check_orders_refused(&communicate_as(Position::Sensors), "cannot take");
}

/// Seed 004: jamming sensors gives "a negative DM ... when they try to Scan
/// or get a Target Solution", jamming comms one "when they try to
/// communicate". The scout, its sensors jammed -2 and its comms -1 this
/// turn, scans (Electronics (sensors) 2, EDU 10 +1, less 2: 3 + 3 + 1 = 7,
/// a failure) and communicates (Electronics (comms) 1, EDU +1, less 1: 3 +
/// 3 + 1 = 7): each check is its own task and takes its own jamming.
#[test]
fn scan_and_communicate_each_take_their_own_jamming() {
    let (result, used, _, lines) = scout_orders(
        vec![
            Order {
                person: 1,
                position: Position::Sensors,
                action: Action::Scan,
            },
            Order {
                person: 1,
                position: Position::Comms,
                action: Action::Communicate,
            },
        ],
        |b| {
            b.states[0].jam_sensors = -2;
            b.states[0].jam_comms = -1;
        },
        &[3, 3, 3, 3],
    );
    result.expect("both checks are made");
    assert_eq!(used, 4);
    let jammed: Vec<&String> = lines.iter().filter(|l| l.contains("jammed")).collect();
    assert_eq!(jammed.len(), 2, "{lines:#?}");
    assert!(
        jammed[0].contains("Scan") && jammed[0].contains("-2"),
        "{jammed:?}"
    );
    assert!(
        jammed[1].contains("Communicate") && jammed[1].contains("-1"),
        "{jammed:?}"
    );
}

/// Seed 004, Jam Sensors: "a negative DM equal to any positive Effect".
/// The scout's Sensor Operator (Electronics (sensors) 2, INT 9 +1) rolling
/// 3 + 2 (8 with the DMs) makes Effect 0 and jams nothing, and the log says
/// nothing of jamming; 4 + 4 (11) is Effect +3 and jams the escort -3 next turn.
/// Rulings 43: a weaker jamming where a stronger counts is reported as
/// such.
#[test]
fn jamming_needs_a_positive_effect_and_the_strongest_counts() {
    let jam = |prepare: fn(&mut Battle), dice: &[u32]| {
        scout_orders(
            vec![Order {
                person: 1,
                position: Position::Sensors,
                action: Action::JamSensors { target: B },
            }],
            prepare,
            dice,
        )
    };
    let (result, _, b, lines) = jam(|_| {}, &[3, 2]);
    result.expect("the jamming check");
    assert_eq!(b.states[1].jam_sensors_next, 0);
    assert!(
        !lines.iter().any(|l| l.contains("jammed")),
        "an Effect of 0 jams nothing: {lines:#?}"
    );
    let (result, _, b, lines) = jam(|_| {}, &[4, 4]);
    result.expect("the jamming check");
    assert_eq!(b.states[1].jam_sensors_next, -3);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("jammed: -3 to its checks of that kind next turn")),
        "{lines:#?}"
    );
    let (result, _, b, lines) = jam(|b| b.states[1].jam_sensors_next = -4, &[4, 4]);
    result.expect("the jamming check");
    assert_eq!(b.states[1].jam_sensors_next, -4);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("jammed: -3, but a stronger jamming (-4) already counts")),
        "{lines:#?}"
    );
}

/// Rulings 26 and 45: a grappled ship cannot jump. The trader, at a jump
/// point but grappled to the corvette, ordering its jump is refused
/// before the check is rolled.
#[test]
fn a_grappled_ship_cannot_jump() {
    let mut b = battle("trader", "corvette", Band::Adjacent);
    b.states[0].at_jump_point = true;
    b.pairs[0].grappled = true;
    let jump = vec![Order {
        person: 4,
        position: Position::EngineerJDrive,
        action: Action::Jump,
    }];
    let (result, used, _) = side_a_orders(&mut b, jump, &[3, 3]);
    assert!(
        matches!(&result, Err(broadside_core::ResolveError::Internal(m)) if m.contains("cannot jump")),
        "{result:?}"
    );
    assert_eq!(used, 0);
    assert!(!b.states[0].jumping);
}

/// Seed 004, Aim: "Gunners may designate a target they are aiming at",
/// +2 to their next attack; Rulings 21: a salvo's gunner's aim goes to the
/// salvo. The trader's turret-2 carries only missile racks, and its
/// gunner may aim it; a first aim at a target loses no earlier aim, and
/// the log says none was lost.
#[test]
fn a_missile_turrets_gunner_may_aim() {
    let mut b = battle("trader", "escort", Band::Short);
    let t2 = mount(&b, A, "turret-2");
    let aim = vec![Order {
        person: 3,
        position: Position::Gunner(t2),
        action: Action::Aim {
            mount: t2,
            target: B,
        },
    }];
    let (result, _, lines) = side_a_orders(&mut b, aim, &[]);
    result.expect("the aim");
    assert_eq!(b.states[0].aim[usize::from(t2)], 1);
    assert_eq!(b.states[0].aim_target[usize::from(t2)], B);
    assert!(
        !lines.iter().any(|l| l.contains("are lost")),
        "nothing was aimed before: {lines:#?}"
    );
}

/// Rulings 27: the boarder wins with a higher Effect than the defender's.
/// The corvette's Pilot (2, DEX +1): 3 + 3 + 3 = 9, Effect +1; the
/// trader's (1, DEX +0): 4 + 4 + 1 = 9, Effect +1: a tie, no grapple.
#[test]
fn a_boarding_tie_does_not_grapple() {
    let sys = system();
    let mut b = battle("corvette", "trader", Band::Adjacent);
    b.states[0].thrust_left = 4;
    let mut dice = ScriptedDice::new([3, 3, 4, 4]);
    sys.boarding(&mut b, A, B, &mut dice, &mut NullSink)
        .expect("boarding");
    assert_eq!(dice.used(), 4);
    assert!(!b.pairs[0].grappled);
}

/// Seed 004, Line up shot: "Requires one unit of thrust". With one thrust
/// left the scout's Pilot lines up a shot and has none left; with none it
/// is refused before any die is rolled.
#[test]
fn a_line_up_shot_takes_the_last_thrust() {
    let sys = system();
    let line_up = |thrust_left| {
        let mut b = battle("scout", "escort", Band::Short);
        b.states[0].thrust_left = thrust_left;
        let t1 = mount(&b, A, "turret-1");
        let mut dice = ScriptedDice::new([4, 4]);
        let result = sys.line_up_shot(&mut b, A, t1, B, &mut dice, &mut NullSink);
        (result, dice.used(), b)
    };
    let (result, used, b) = line_up(1);
    result.expect("one thrust is enough");
    assert_eq!((used, b.states[0].thrust_left), (2, 0));
    assert_eq!(b.states[0].chains.len(), 1);
    let (result, used, b) = line_up(0);
    assert!(
        matches!(&result, Err(broadside_core::ResolveError::Refused(m)) if m.contains("no thrust left")),
        "{result:?}"
    );
    assert_eq!((used, b.states[0].thrust_left), (0, 0));
    assert!(b.states[0].chains.is_empty());
}

/// Rulings 25: in a free round the surprised side does not act. The
/// escort, surprised by the scout, would line up a shot in the maneuver
/// step; it makes no combat maneuver, and no die is rolled.
#[test]
fn a_surprised_ship_makes_no_combat_maneuver() {
    let sys = system();
    let mut b = battle("scout", "escort", Band::Short);
    b.free_round = Some(Side::A);
    b.states[1].thrust_left = 4;
    let t1 = mount(&b, B, "turret-1");
    let escort = ScriptedTactics {
        combat: Some(broadside_crew_2d6::CombatManeuver::LineUpShot {
            mount: t1,
            target: A,
        }),
        ..ScriptedTactics::default()
    };
    let idle = ScriptedTactics::default();
    let tactics: [&dyn CrewTactics; 2] = [&idle, &escort];
    let mut dice = ScriptedDice::new([4, 4]);
    sys.free_round(&mut b, tactics, &mut dice, &mut NullSink)
        .expect("the free round");
    assert_eq!(dice.used(), 0);
}

/// Seed 004, Aim: "This may be repeated up to three times against the same
/// target before firing." The scout's turret-1 gunner, having aimed three
/// times at the escort, is refused a fourth aim, and the count stays at
/// three.
#[test]
fn a_fourth_aim_at_the_same_target_is_refused() {
    let (result, used, b, _) = scout_orders(
        vec![Order {
            person: 1,
            position: Position::Gunner(0),
            action: Action::Aim {
                mount: 0,
                target: B,
            },
        }],
        |b| {
            b.states[0].aim[0] = 3;
            b.states[0].aim_target[0] = B;
        },
        &[],
    );
    assert!(
        matches!(&result, Err(broadside_core::ResolveError::Internal(m)) if m.contains("cannot aim again")),
        "{result:?}"
    );
    assert_eq!((used, b.states[0].aim[0]), (0, 3));
}

/// Seed 004, Launch Missile Salvo: a Gunnery task, made by the gunner of
/// the mount that carries the launchers. A launch declared for the
/// scout's Captain, who fires no launcher, is refused before any die is
/// rolled and sends nothing.
#[test]
fn a_launch_from_a_position_without_a_launcher_is_refused() {
    let sys = system();
    let mut b = battle("scout", "escort", Band::Short);
    let mut dice = ScriptedDice::new([3, 3]);
    let result = sys.launch(
        &mut b,
        A,
        Position::Captain,
        (weapon("missile-rack"), 1, B),
        &mut dice,
        &mut NullSink,
    );
    assert!(
        matches!(&result, Err(broadside_core::ResolveError::Refused(m)) if m.contains("fires no mount with that launcher")),
        "{result:?}"
    );
    assert_eq!(dice.used(), 0);
    assert!(b.salvos.is_empty());
}

/// Rulings 21: the launching gunner's aim goes to the salvo only if it
/// attacks this round, and the log says when it is lost. The scout's
/// turret-1 gunner (Gunnery (turret) 1, INT 9 +1) launches one missile,
/// 3 + 3 + 2 against Simple 2+: aimed once at the escort and launched at
/// Long (1 round of flight) the aim is lost, and the log says so; aimed
/// and launched at Short the salvo attacks this round with the aim's +2,
/// and nothing is said of a loss; launched at Long with nothing to lose,
/// nothing is said either.
#[test]
fn a_salvo_flying_on_is_said_to_lose_its_gunners_aim() {
    let sys = system();
    let launch = |band, aimed: bool| {
        let mut b = battle("scout", "escort", band);
        if aimed {
            b.states[0].aim[0] = 1;
            b.states[0].aim_target[0] = B;
        }
        let mut dice = ScriptedDice::new([3, 3]);
        let mut log = EventLog::default();
        sys.launch(
            &mut b,
            A,
            Position::Gunner(0),
            (weapon("missile-rack"), 1, B),
            &mut dice,
            &mut log,
        )
        .expect("the launch");
        assert_eq!(dice.used(), 2);
        assert_eq!(b.salvos.len(), 1, "the salvo is launched");
        let said = event_lines(&log.events)
            .iter()
            .any(|l| l.contains("the gunner's aim and chained DMs are lost"));
        (said, b.salvos[0].rounds_left, b.salvos[0].dm)
    };
    let (said, flight, _) = launch(Band::Long, true);
    assert!(said, "the aim of a salvo flying on is lost");
    assert_eq!(flight, 1);
    let (said, flight, dm) = launch(Band::Short, true);
    assert!(!said, "the salvo attacks this round with its aim");
    assert_eq!((flight, dm), (0, 2));
    let (said, flight, _) = launch(Band::Long, false);
    assert!(!said, "no aim or chain to lose");
    assert_eq!(flight, 1);
}

/// Rulings 45: a grapple holds while both ships are in the fight and ends
/// when either leaves it. The corvette and the trader, grappled, are still
/// grappled after the end of a round; once the trader is wrecked, the
/// grapple ends with the round.
#[test]
fn a_grapple_holds_until_a_ship_leaves_the_fight() {
    let sys = system();
    let mut b = battle("corvette", "trader", Band::Adjacent);
    b.pairs[0].grappled = true;
    sys.end_of_round(&mut b, &mut NullSink);
    assert!(b.pairs[0].grappled, "both ships are still there");
    b.ship_mut(B).hull = 0;
    sys.end_of_round(&mut b, &mut NullSink);
    assert!(!b.pairs[0].grappled, "the trader has left the fight");
}

/// Rulings 20: a repair takes a DM per severity of the damage
/// (`criticals.toml` `repair-dm-per-severity`, -1 in the data of record).
/// With the data at -2, the corvette's Engineer repairing an M-drive at
/// severity 2 takes -4.
#[test]
fn a_repairs_dm_is_per_severity() {
    let sys = load(&edited(
        &sources(),
        "criticals.toml",
        "repair-dm-per-severity = -1",
        "repair-dm-per-severity = -2",
    ));
    let mut b = battle_in(&sys, "corvette", "trader", Band::Short);
    let m_drive = location("m-drive") as u8;
    let label = b.labels[0];
    let mut applied = broadside_crew_2d6::Applied::default();
    sys.critical(
        b.ship_mut(A),
        label,
        m_drive,
        2,
        broadside_crew_2d6::Cause::Attack,
        &mut applied,
        &mut ScriptedDice::new([]),
        &mut NullSink,
    )
    .expect("no dice");
    let engineer = 6; // Olu Baye, engineer-m-drive and engineer-power
    let mut log = EventLog::default();
    sys.repair(
        &mut b,
        A,
        engineer,
        Repairable::Location(m_drive),
        &mut ScriptedDice::new([6, 6]),
        &mut log,
    )
    .expect("repair");
    let lines = event_lines(&log.events);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("-4 to Repair Systems") && l.contains("severity 2")),
        "{lines:#?}"
    );
}

/// Rulings 38: a side finds the enemy when any of its ships' scans
/// succeeds, and the log says so in those words when ships are many. Two
/// scouts against the escort, every scan 6 + 6: no free round, "each side
/// has a ship whose scan succeeded".
#[test]
fn a_fleets_scans_without_a_free_round_are_told_by_side() {
    let sys = system();
    let mut b = common::fleet(&["scout", "scout"], &["escort"], Band::Long);
    let setup = Setup {
        start_band: Some(Band::Long),
        ..Setup::default()
    };
    let mut log = EventLog::default();
    sys.set_up(&mut b, &setup, &mut ScriptedDice::new([6; 6]), &mut log)
        .expect("setting up");
    assert_eq!(b.free_round, None);
    let lines = event_lines(&log.events);
    assert!(
        lines.iter().any(|l| l
            .contains("no free round: each side has a ship whose scan succeeded, or neither has")),
        "{lines:#?}"
    );
}

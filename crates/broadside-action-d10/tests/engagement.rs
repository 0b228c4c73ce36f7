//! Engagement phases with scripted dice: salvos placed and discarded or
//! striking, point defence, drift and gravity, boarding, small craft, and a
//! seeded duel log.

mod common;

use broadside_action_d10::engagement::{Sequence, Threat};
use broadside_action_d10::{Action, ActionTactics, Battle, Decision, DefaultTactics, Phase};
use broadside_core::hex::{Direction, Hex};
use broadside_core::{ResolveError, Side, TurnSequence, Verdict};
use common::{Script, battle, battle_on, check_duel_log, edited_system, system};
use serde_json::json;

const SALVO: &str = "d10 action-based rules, Projectile/Seeker Attack: counters in the target's destination hex, discarded in Missile Resolution if the target's ship is not there";
const PD: &str = "d10 action-based rules, Point Defense Fire and the Warhead -3 to-hit modifier (dedicated antimissile weapons ignore it)";

/// The destroyer's first missile launcher (mount 5 on its record sheet).
const MISSILE: u8 = 4;

fn lock_and_launch(script: &mut Script) {
    script
        .act(
            0,
            Action::TargetLock {
                target: 1,
                rerolls: 0,
            },
        )
        .act(
            0,
            Action::Attack {
                mount: MISSILE,
                target: 1,
                rerolls: 0,
            },
        );
}

fn end_of_turn(script: &mut Script) {
    script
        .phase(Phase::Drift, 1)
        .phase(Phase::Gravity, 1)
        .phase(Phase::PointDefenseFire, 1)
        .phase(Phase::MissileResolution, 1);
}

#[test]
fn salvo_is_discarded_when_the_target_moved() {
    // Lock at range 6: 7 - 3 + 2 (FCS) = 6, rolled 3. The salvo waits at the
    // frigate's destination (6, 0); the frigate then thrusts to (7, -1),
    // drifts there, and the salvo finds no ship in its hex.
    let mut script = Script::new(battle("destroyer", "frigate", 6), &[3]);
    lock_and_launch(&mut script);
    assert_eq!(script.battle.salvos[0].hex, Hex::new(6, 0));
    script.act(
        1,
        Action::Move {
            dest: Hex::new(7, -1),
            facing: Direction::WEST,
        },
    );
    end_of_turn(&mut script);
    assert_eq!(script.battle.board.ships[1].marked, 0);
    assert!(script.battle.salvos.is_empty());
    script.check(
        "salvo_discarded_target_moved",
        SALVO,
        json!({"a": "destroyer", "b": "frigate", "range": 6, "frigate moves to": [7, -1], "dice": [3]}),
    );
}

#[test]
fn salvo_strikes_when_the_target_stays() {
    // The frigate keeps its course: the salvo strikes at range 6, to hit 7,
    // rolled 4; 2 boxes, the first into the frigate's shield point.
    let mut script = Script::new(battle("destroyer", "frigate", 6), &[3, 4]);
    lock_and_launch(&mut script);
    end_of_turn(&mut script);
    assert_eq!(script.battle.board.ships[1].marked, 1);
    script.check(
        "salvo_strikes_target_stayed",
        SALVO,
        json!({"a": "destroyer", "b": "frigate", "range": 6, "dice": [3, 4]}),
    );
}

#[test]
fn point_defense_shoots_down_salvos() {
    // Two salvos; the frigate's turrets are gone, so its antimissile gun
    // fires at the first at its full 7 and rolls 5; the second strikes:
    // to hit 7, rolled 9, a miss.
    let mut b = battle("destroyer", "frigate", 6);
    for m in [0, 1] {
        b.board.ships[1].weapons[m].destroyed = true;
    }
    let mut script = Script::new(b, &[3, 5, 9]);
    lock_and_launch(&mut script);
    script
        .act(
            0,
            Action::Attack {
                mount: MISSILE + 1,
                target: 1,
                rerolls: 0,
            },
        )
        .act(1, Action::ActivatePointDefense);
    end_of_turn(&mut script);
    script.check(
        "point_defense_antimissile_gun",
        PD,
        json!({"a": "destroyer", "b": "frigate (turrets destroyed)", "range": 6, "dice": [3, 5, 9]}),
    );
}

#[test]
fn point_defense_by_a_turret_takes_the_warhead_modifier() {
    // A laser turret at range 0 is 7, less 3 against a warhead: 4; rolled 5, a miss.
    // The salvo then strikes: rolled 2, a hit.
    let mut script = Script::new(battle("destroyer", "frigate", 6), &[3, 5, 2]);
    lock_and_launch(&mut script);
    script.act(1, Action::ActivatePointDefense);
    let tactics = FixedOrders::turrets_only();
    script.phase(Phase::Drift, 1).phase(Phase::Gravity, 1);
    script
        .phase_with(Phase::PointDefenseFire, 1, [&tactics, &tactics])
        .expect("point defence fires");
    script.phase(Phase::MissileResolution, 1);
    script.check(
        "point_defense_turret_warhead_modifier",
        PD,
        json!({"dice": [3, 5, 2]}),
    );
}

/// Tactics with fixed answers, for orders the default tactics would never
/// give: extra actions bought, the decisions given in order and then the
/// same decision whenever the Actions phase asks, flights sent
/// one hex east against `flight_target` (or the default tactics' orders),
/// and the same point defence `shots` (mount, threat) whenever a threat is
/// offered.
struct FixedOrders {
    extra: u8,
    /// Decisions taken in order before `next`.
    first: std::sync::Mutex<std::collections::VecDeque<Decision>>,
    next: Decision,
    flight_target: Option<usize>,
    shots: Vec<(usize, usize)>,
}

impl FixedOrders {
    /// Point defence from the first turret only, to show the warhead
    /// modifier.
    fn turrets_only() -> FixedOrders {
        FixedOrders {
            next: Decision::Done,
            shots: vec![(0, 0)],
            ..FixedOrders::waiting()
        }
    }

    /// Never acts: every decision is to wait.
    fn waiting() -> FixedOrders {
        FixedOrders {
            extra: 0,
            first: std::sync::Mutex::default(),
            next: Decision::Wait,
            flight_target: None,
            shots: Vec::new(),
        }
    }

    /// Sends every flight one hex east and against ship `target`, and fires
    /// `shots` at any threat offered: orders the rules may forbid.
    fn misdirected(target: usize, shots: Vec<(usize, usize)>) -> FixedOrders {
        FixedOrders {
            next: Decision::Done,
            flight_target: Some(target),
            shots,
            ..FixedOrders::waiting()
        }
    }

    /// Has ship `ship` take `action` whenever its side is asked.
    fn acting(ship: usize, action: Action) -> FixedOrders {
        FixedOrders {
            next: Decision::Act(ship, action),
            ..FixedOrders::waiting()
        }
    }

    /// Takes the decisions given, in order, then is done.
    fn deciding(decisions: &[Decision]) -> FixedOrders {
        FixedOrders {
            first: std::sync::Mutex::new(decisions.iter().copied().collect()),
            next: Decision::Done,
            ..FixedOrders::waiting()
        }
    }

    /// Buys `extra` extra actions for every ship, then never acts.
    fn buying(extra: u8) -> FixedOrders {
        FixedOrders {
            extra,
            ..FixedOrders::waiting()
        }
    }
}

impl ActionTactics for FixedOrders {
    fn extra_actions(&self, _: &broadside_action_d10::ActionD10, _: &Battle, _: usize) -> u8 {
        self.extra
    }
    fn next_action(
        &self,
        _: &broadside_action_d10::ActionD10,
        _: &Battle,
        _: Side,
        _: bool,
    ) -> Decision {
        self.first
            .lock()
            .expect("not poisoned")
            .pop_front()
            .unwrap_or(self.next)
    }
    fn flight(
        &self,
        system: &broadside_action_d10::ActionD10,
        battle: &Battle,
        f: usize,
    ) -> broadside_action_d10::engagement::FlightOrder {
        match self.flight_target {
            Some(target) => broadside_action_d10::engagement::FlightOrder {
                to: battle.flights[f].hex + Direction::EAST.delta(),
                target: Some(target),
            },
            None => DefaultTactics::default().flight(system, battle, f),
        }
    }
    fn point_defense(
        &self,
        _: &broadside_action_d10::ActionD10,
        _: &Battle,
        _: usize,
        threats: &[(Threat, u32)],
    ) -> Vec<(usize, usize)> {
        if threats.is_empty() {
            Vec::new()
        } else {
            self.shots.clone()
        }
    }
}

#[test]
fn drift_keeps_the_velocity() {
    let mut script = Script::new(battle("destroyer", "frigate", 10), &[]);
    script.act(
        0,
        Action::Move {
            dest: Hex::new(3, 0),
            facing: Direction::EAST,
        },
    );
    script.phase(Phase::Drift, 1);
    assert_eq!(script.battle.poses[0].hex, Hex::new(3, 0));
    assert_eq!(script.battle.poses[0].dest, Hex::new(6, 0));
    script.phase(Phase::Drift, 2);
    assert_eq!(script.battle.poses[0].hex, Hex::new(6, 0));
    assert_eq!(script.battle.poses[0].dest, Hex::new(9, 0));
    // The frigate never moved and stays at rest.
    assert_eq!(script.battle.poses[1].hex, script.battle.poses[1].dest);
}

#[test]
fn gravity_pulls_the_destination_toward_a_body() {
    // The destroyer at rest at (0, 0), a body at (1, 0) within its well of
    // one hex: the destination counter moves one hex toward the body.
    let mut b = battle("destroyer", "frigate", 10);
    b.gravity_well = Some(Hex::new(1, 0));
    let mut script = Script::new(b, &[]);
    script.phase(Phase::Drift, 1).phase(Phase::Gravity, 1);
    assert_eq!(script.battle.poses[0].dest, Hex::new(1, 0));
    assert_eq!(script.battle.poses[1].dest, Hex::new(10, 0));
    script.check(
        "gravity_pulls_destination",
        "d10 action-based rules, Sequence of Play: Gravity (ruling: a body pulls the destination counter one hex)",
        json!({"body": [1, 0], "destroyer at": [0, 0], "frigate at": [10, 0]}),
    );
}

#[test]
fn boarding_by_transporter_captures_the_escort() {
    // The escort has no shields, so the frigate's transporter reaches it at
    // range 1. Two units go across one per action; in Record Keeping the
    // boarders roll 3 and 8 (one kill at 5 or less), the defender 9 (a miss):
    // no defender left, the escort is captured.
    let mut b = battle("frigate", "escort", 1);
    b.turn[0].actions = 4;
    let mut script = Script::new(b, &[3, 8, 9]);
    script
        .act(0, Action::ReadyTroops)
        .act(0, Action::Transport { target: 1 })
        .act(0, Action::Transport { target: 1 });
    script.phase(Phase::RecordKeeping, 1);
    assert_eq!(
        script.battle.board.ships[1].status,
        broadside_action_d10::Status::Captured
    );
    let sequence = Sequence::new(system());
    assert_eq!(
        sequence.verdict(&script.battle),
        Some(Verdict::Winner(Side::A))
    );
    script.check(
        "boarding_transport_capture",
        "d10 action-based rules, Actions: Ready Troops, Transport (rulings: boarding combat)",
        json!({"a": "frigate", "b": "escort", "range": 1, "dice": [3, 8, 9]}),
    );
}

#[test]
fn small_craft_attack_as_a_swarm() {
    // The carrier launches its six swarmers; they act from the next turn:
    // the flight closes to the frigate and rolls 1d10 + 1 (range 1) = 8 on
    // column 6: 5 hits.
    let mut b = battle("carrier", "frigate", 4);
    b.board.ships[3].shields = 0;
    let mut script = Script::new(b, &[7, 2]);
    script.act(0, Action::LaunchSmallCraft);
    assert_eq!(script.battle.flights[0].craft, 6);
    script.phase(Phase::RecordKeeping, 1);
    common::start_turn(&mut script.battle);
    let tactics = FixedOrders::turrets_only();
    script
        .phase_with(Phase::Actions, 2, [&tactics, &tactics])
        .expect("the flight acts");
    assert_eq!(script.battle.board.ships[3].marked, 5);
    script.check(
        "small_craft_swarm_attack",
        "d10 action-based rules, Swarmer/Rocket Pack Hits Table; Launch/Recover Small Craft",
        json!({"a": "carrier", "b": "frigate (shields down)", "range": 4, "dice": [7, 2]}),
    );
}

#[test]
fn a_seeded_duel_log() {
    check_duel_log(
        "duel_destroyer_frigate_seed_2026",
        "destroyer",
        "frigate",
        2026,
        0,
        3,
    );
}

#[test]
fn illegal_tactics_are_an_internal_error() {
    struct Reckless;
    impl ActionTactics for Reckless {
        fn extra_actions(&self, _: &broadside_action_d10::ActionD10, _: &Battle, _: usize) -> u8 {
            0
        }
        fn next_action(
            &self,
            _: &broadside_action_d10::ActionD10,
            battle: &Battle,
            side: Side,
            _: bool,
        ) -> Decision {
            // Fire without a lock: the rules forbid it.
            let i = battle.ships_of(side).next().unwrap_or(0);
            Decision::Act(
                i,
                Action::Attack {
                    mount: 0,
                    target: (1 - i) as u8,
                    rerolls: 0,
                },
            )
        }
        fn flight(
            &self,
            _: &broadside_action_d10::ActionD10,
            battle: &Battle,
            f: usize,
        ) -> broadside_action_d10::engagement::FlightOrder {
            broadside_action_d10::engagement::FlightOrder {
                to: battle.flights[f].hex,
                target: None,
            }
        }
        fn point_defense(
            &self,
            _: &broadside_action_d10::ActionD10,
            _: &Battle,
            _: usize,
            _: &[(Threat, u32)],
        ) -> Vec<(usize, usize)> {
            Vec::new()
        }
    }
    let duel = system()
        .set_up(&common::duel_request("destroyer", "frigate", 5, &[]))
        .expect("the duel sets up");
    let mut dice = common::seeded(1);
    let result = duel.play_with(
        [&Reckless, &Reckless],
        &mut dice,
        &mut broadside_core::NullSink,
    );
    match result {
        Err(ResolveError::Internal(message)) => {
            assert!(message.contains("needs a target lock"), "{message}")
        }
        other => panic!("expected an internal error, got {other:?}"),
    }
}

#[test]
fn the_sequence_of_play_is_the_rules_eight_phases() {
    let sequence = Sequence::new(system());
    let names: Vec<String> = sequence.phases(1).iter().map(ToString::to_string).collect();
    assert_eq!(
        names,
        [
            "Command Points",
            "Initiative",
            "Actions",
            "Drift",
            "Gravity",
            "Point Defense Fire",
            "Missile Resolution",
            "Record Keeping"
        ]
    );
    assert_eq!(sequence.phases(1), sequence.phases(7));
}

/// The frigate's missile launcher made a bank of three, as a user's
/// `ships.toml` may make it.
const BANKED_LAUNCHER: [common::Edit<'static>; 1] = [(
    "ships.toml",
    "{ weapon = \"missile-launcher\" },",
    "{ weapon = \"missile-launcher\", bank = 3 },",
)];
const BANK: &str = "Seed 002, \"Projectile/Seeker Attack\": \"Use an attack action for every weapon or weapon bank\"; \"Direct Fire Attack\": \"roll 1d10 per weapon used in the attack\"";
/// The frigate's missile launcher (mount 4 on its record sheet).
const FRIGATE_MISSILE: u8 = 3;

/// Frigate (0) against destroyer (1) at `range` under the banked launcher.
fn banked(range: u32, dice: &[u32]) -> Script {
    let system = edited_system(&BANKED_LAUNCHER);
    Script::on(
        system,
        battle_on(system, "frigate", "destroyer", range),
        dice,
    )
}

fn frigate_launches(script: &mut Script) {
    // Range 3 is within 2 + FCS 1: the lock is automatic, no die.
    script
        .act(
            0,
            Action::TargetLock {
                target: 1,
                rerolls: 0,
            },
        )
        .act(
            0,
            Action::Attack {
                mount: FRIGATE_MISSILE,
                target: 1,
                rerolls: 0,
            },
        );
}

/// Seed 002: a bank attacks with one action and rolls "1d10 per weapon
/// used in the attack"; the salvo counter of a bank of three launchers
/// carries three missiles, each rolling at Missile Resolution and each
/// taking its warhead: 8 - 3 = 5 warheads left.
/// To hit at range 3 (destination to destination): bracket 0-6 is 7, and
/// 7 + 1 for the destroyer's size = 8. Rolled 2 (hit), 8 (hit), 10 (a
/// natural 10 misses): 2 hits of 2 boxes. The destroyer's 2 shield points
/// take the first hit; the second marks 2 boxes.
#[test]
fn a_bank_of_launchers_strikes_with_one_die_per_launcher() {
    let mut script = banked(3, &[2, 8, 10]);
    frigate_launches(&mut script);
    assert_eq!(script.battle.board.ships[0].warheads, 5);
    assert_eq!(script.battle.salvos[0].missiles, 3);
    end_of_turn(&mut script);
    assert_eq!(script.battle.board.ships[1].shields, 0);
    assert_eq!(script.battle.board.ships[1].marked, 2);
    script.check(
        "salvo_bank_of_three_launchers",
        BANK,
        json!({"a": "frigate (missile launcher bank of 3)", "b": "destroyer", "range": 3, "data_edits": BANKED_LAUNCHER, "dice": [2, 8, 10]}),
    );
}

/// Seed 002 gives each launcher its own d10, so a banked launcher with
/// too few warheads for every launcher cannot fire: 2 warheads, 3 needed.
#[test]
fn a_bank_of_launchers_needs_a_warhead_for_each_launcher() {
    let mut script = banked(3, &[]);
    script.battle.board.ships[0].warheads = 2;
    script.act(
        0,
        Action::TargetLock {
            target: 1,
            rerolls: 0,
        },
    );
    let refused = script.try_act(
        0,
        Action::Attack {
            mount: FRIGATE_MISSILE,
            target: 1,
            rerolls: 0,
        },
    );
    assert!(
        matches!(&refused, Err(ResolveError::Refused(why)) if why.contains("too few warheads")),
        "{refused:?}"
    );
    assert_eq!(script.battle.board.ships[0].warheads, 2);
    assert!(script.battle.salvos.is_empty());
}

/// Point defence against a salvo of three missiles: each hit takes one
/// missile (ruling 24), and one gun goes to each missile.
/// The destroyer's two laser turrets at range 0: 7 - 3 (warhead) = 4,
/// rolled 5 (miss) and 4 (hit); its first point-defence gun, antimissile,
/// at 7, rolled 10 (a natural 10 misses). Two missiles strike at 8
/// (7 at range 3, + 1 size): rolled 2 and 8, both hit; shields take the
/// first 2 boxes, the second hit marks 2.
#[test]
fn point_defense_takes_one_missile_of_a_banked_salvo_per_hit() {
    let mut script = banked(3, &[5, 4, 10, 2, 8]);
    frigate_launches(&mut script);
    script.act(1, Action::ActivatePointDefense);
    end_of_turn(&mut script);
    assert_eq!(script.battle.board.ships[1].marked, 2);
    script.check(
        "point_defense_banked_salvo",
        PD,
        json!({"a": "frigate (missile launcher bank of 3)", "b": "destroyer", "range": 3, "data_edits": BANKED_LAUNCHER, "dice": [5, 4, 10, 2, 8]}),
    );
}

/// Point defence reports never claim more small craft than the flight has.
/// A flight of 2 of the carrier's swarmers in the destroyer's hex; the
/// destroyer's four point defence weapons each fire at range 0: 7 - 2
/// (small craft size) = 5, rolled 1, 2, 3, 4: four hits. The first two
/// take the two craft; the last two find nothing left.
#[test]
fn point_defense_kills_never_exceed_the_flight() {
    let mut b = battle("destroyer", "carrier", 1);
    b.flights.push(broadside_action_d10::engagement::Flight {
        carrier: 1,
        side: Side::B,
        craft: 2,
        hex: Hex::ORIGIN,
        fresh: false,
    });
    let mut script = Script::new(b, &[1, 2, 3, 4]);
    script.act(0, Action::ActivatePointDefense);
    script.phase(Phase::PointDefenseFire, 1);
    assert!(script.battle.flights.is_empty());
    script.check(
        "point_defense_flight_of_two",
        "d10 action-based rules, Point Defense Fire (ruling 24: one small craft per hit)",
        json!({"a": "destroyer", "b": "carrier (a flight of 2 swarmers in the destroyer's hex)", "dice": [1, 2, 3, 4]}),
    );
}

/// Ruling 48: a ship's point defence may shoot any salvo aimed at a ship of its
/// side and any enemy flight within its weapons' reach. The destroyer at the
/// origin, with reach 2, sees four flights: its own side's in its hex, an
/// enemy's 3 hexes off, an enemy's 1 hex off, and one with no craft left 1
/// hex off. Only the third is a threat.
#[test]
fn point_defence_threats_are_enemy_flights_in_reach() {
    use broadside_action_d10::engagement::Flight;
    let mut b = battle("destroyer", "carrier", 1);
    let flight = |side, q| Flight {
        carrier: 1,
        side,
        craft: 2,
        hex: Hex::new(q, 0),
        fresh: false,
    };
    b.flights.push(flight(Side::A, 0));
    b.flights.push(flight(Side::B, 3));
    b.flights.push(flight(Side::B, 1));
    // A flight with no craft left is no threat.
    let mut gone = flight(Side::B, 1);
    gone.craft = 0;
    b.flights.push(gone);
    assert_eq!(system().threats(&b, 0, 2), [(Threat::Flight(2), 1)]);
}

/// The missile launcher made a fixed mount, as a user's `weapons.toml`
/// may make it.
const FIXED_LAUNCHER: [common::Edit<'static>; 1] = [(
    "weapons.toml",
    "kind = \"projectile\"\nmount = \"turret\"",
    "kind = \"projectile\"\nmount = \"fixed\"",
)];

/// Ruling 15: fixed and spinal mounts fire only into the forward arc, and
/// a launcher is no exception. The frigate turns its bow west, away from
/// the destroyer 3 hexes east: its fixed launcher may not launch. With
/// its bow set back to the east, it launches (the lock is automatic within
/// 2 + FCS 1 = 3 hexes, no die).
#[test]
fn a_fixed_launcher_fires_only_into_the_forward_arc() {
    let system = edited_system(&FIXED_LAUNCHER);
    let mut script = Script::on(system, battle_on(system, "frigate", "destroyer", 3), &[]);
    script
        .act(
            0,
            Action::Move {
                dest: Hex::ORIGIN,
                facing: Direction::WEST,
            },
        )
        .act(
            0,
            Action::TargetLock {
                target: 1,
                rerolls: 0,
            },
        );
    let attack = Action::Attack {
        mount: FRIGATE_MISSILE,
        target: 1,
        rerolls: 0,
    };
    let refused = script.try_act(0, attack);
    assert!(
        matches!(&refused, Err(ResolveError::Refused(why)) if why.contains("arc")),
        "{refused:?}"
    );
    assert!(script.battle.salvos.is_empty());
    script.battle.poses[0].facing = Direction::EAST;
    script.act(0, attack);
    assert_eq!(script.battle.salvos.len(), 1);
    script.check(
        "fixed_launcher_forward_arc",
        "ruling 15 (arcs): fixed and spinal mounts into the forward arc",
        json!({"a": "frigate (fixed missile launcher), bow west then east", "b": "destroyer", "range": 3, "data_edits": FIXED_LAUNCHER, "dice": []}),
    );
}

/// An Aim gives +1 "for the rest of the turn", and a salvo launched this
/// turn strikes in this turn's Missile Resolution, so it carries the Aim.
/// Destroyer on the frigate at range 6: lock 7 - 3 + 2 (FCS) = 6, rolled 3.
/// Aim, then launch. The salvo strikes at 7 (bracket 0-6) + 0 (size) + 1
/// (aimed) = 8; rolled 8, a hit (a miss without the Aim). 2 boxes: the
/// frigate's shield point takes 1, one box is marked.
#[test]
fn an_aimed_salvo_keeps_the_aim_for_the_rest_of_the_turn() {
    let mut script = Script::new(battle("destroyer", "frigate", 6), &[3, 8]);
    script
        .act(
            0,
            Action::TargetLock {
                target: 1,
                rerolls: 0,
            },
        )
        .act(0, Action::Aim { target: 1 })
        .act(
            0,
            Action::Attack {
                mount: MISSILE,
                target: 1,
                rerolls: 0,
            },
        );
    assert!(script.battle.salvos[0].aim);
    end_of_turn(&mut script);
    assert_eq!(script.battle.board.ships[1].marked, 1);
    script.check(
        "salvo_aimed_this_turn",
        "Actions, Aim: +1 to hit the target for the rest of the turn (rules note, Actions; ruling 34)",
        json!({"a": "destroyer", "b": "frigate", "range": 6, "dice": [3, 8]}),
    );
}

/// Ruling 39: a scuttled ship "counts as destroyed". Both ships scuttled
/// in one turn is a draw of two ships lost, not ruling 28's mutual escape:
/// the log says nothing of an escape.
#[test]
fn a_mutual_scuttle_is_a_draw_but_no_escape() {
    let mut script = Script::new(battle("destroyer", "frigate", 6), &[]);
    script.act(0, Action::Scuttle).act(1, Action::Scuttle);
    script.phase(Phase::RecordKeeping, 1);
    let sequence = Sequence::new(system());
    assert_eq!(sequence.verdict(&script.battle), Some(Verdict::Draw));
    let lines: Vec<String> = script.log.events.iter().map(ToString::to_string).collect();
    assert!(
        !lines.iter().any(|e| e.contains("escaped")),
        "no escape: {lines:?}"
    );
    assert_eq!(script.battle.left_by_jump, [false, false]);
}

/// Seed 002, line 60: "When all (R) are lost, lose 1d6 burns/turn until
/// tanks are empty." The frigate's one R box is its eleventh; with the
/// first eleven marked and 20 burns of remass, Record Keeping bleeds 1d6,
/// rolled 4: 16 left. With the tanks empty, nothing is rolled.
#[test]
fn tanks_with_every_remass_box_lost_bleed_each_turn() {
    let mut b = battle("destroyer", "frigate", 6);
    b.board.ships[1] = b.board.ships[1]
        .clone()
        .with_boxes_marked(&system().rules, 11);
    b.board.ships[1].remass = 20;
    let mut script = Script::new(b, &[4]);
    script.phase(Phase::RecordKeeping, 1);
    assert_eq!(script.battle.board.ships[1].remass, 16);
    assert_eq!(script.dice.used(), 1);

    // Once the tanks are empty there is nothing to bleed, and no roll.
    let mut empty = script.battle.clone();
    empty.board.ships[1].remass = 0;
    let mut script = Script::new(empty, &[]);
    script.phase(Phase::RecordKeeping, 2);
    assert_eq!(script.battle.board.ships[1].remass, 0);
    assert_eq!(script.dice.used(), 0);
}

/// Ruling 28: if both sides' last ships jump in the same turn, the duel
/// is a draw in which both escaped and neither lost a ship.
#[test]
fn a_mutual_escape_is_a_draw_not_a_defeat() {
    let mut script = Script::new(battle("destroyer", "frigate", 6), &[]);
    script
        .act(0, Action::ActivateHyperdrive)
        .act(1, Action::ActivateHyperdrive);
    script.phase(Phase::RecordKeeping, 1);
    let sequence = Sequence::new(system());
    assert_eq!(sequence.verdict(&script.battle), Some(Verdict::Draw));
    let said = script.log.events.iter().any(|e| {
        matches!(e, broadside_core::Event::Ruling { text } if text.contains("both sides escaped"))
    });
    assert!(said, "the log names the mutual escape");
    script.check(
        "mutual_escape_draw",
        "ruling 28 (hyperdrive): both sides' last ships jump in one turn",
        json!({"a": "destroyer", "b": "frigate", "range": 6, "dice": []}),
    );
}

/// The default tactics drop a chaff pod when a seeker salvo waits in the
/// ship's destination hex (ruling 32: -2 to a seeker's roll this turn).
/// Destroyer on the frigate at range 6: lock 7 - 3 + 2 = 6, rolled 3; the
/// seeker salvo waits at (6, 0). The frigate has already moved, so it
/// drops chaff. The seeker strikes at 6 (bracket 0-8) + 0 (size) - 2
/// (chaff) = 4; rolled 5, a miss (a hit without the chaff).
#[test]
fn default_tactics_drop_chaff_against_a_waiting_seeker() {
    const SEEKER: u8 = 6;
    let mut script = Script::new(battle("destroyer", "frigate", 6), &[3, 5]);
    script
        .act(
            0,
            Action::TargetLock {
                target: 1,
                rerolls: 0,
            },
        )
        .act(
            0,
            Action::Attack {
                mount: SEEKER,
                target: 1,
                rerolls: 0,
            },
        );
    script.battle.turn[1].moved = true;
    let decision = DefaultTactics::default().next_action(system(), &script.battle, Side::B, false);
    assert_eq!(decision, Decision::Act(1, Action::DropChaffPod));
    script.act(1, Action::DropChaffPod);
    end_of_turn(&mut script);
    assert_eq!(script.battle.board.ships[1].marked, 0);
    assert_eq!(script.battle.board.ships[1].shields, 1);
    script.check(
        "default_tactics_chaff_against_seeker",
        "ruling 32 (chaff pods) and the default tactics (rules note, Default tactics)",
        json!({"a": "destroyer (seeker launcher)", "b": "frigate (already moved)", "range": 6, "dice": [3, 5]}),
    );
}

/// A ship's locks, failed lock rolls and aims are sets of ship indexes
/// (`ShipSet`): removing one ship keeps every other, an index no battle can
/// hold is ignored by `remove`, `insert` and `contains`, a set holds every
/// ship of a subset, a set is empty until a ship is put in, and its ships
/// come out in index order, across its words.
#[test]
fn ship_sets_keep_exactly_the_ships_put_in() {
    use broadside_action_d10::ShipSet;
    use broadside_action_d10::engagement::MAX_SHIPS;

    let mut locks = ShipSet::EMPTY;
    for i in [1, 3, 70] {
        locks.insert(i);
    }
    assert_eq!(locks.iter().collect::<Vec<_>>(), [1, 3, 70]);

    let mut one = ShipSet::EMPTY;
    one.insert(3);
    assert!(locks.contains_all(&one), "the set holds ship 3");
    assert!(
        !one.contains_all(&locks),
        "ship 3 alone lacks ships 1 and 70"
    );

    // A lock broken on ship 3 leaves the locks on ships 1 and 70.
    locks.remove(3);
    assert_eq!(locks.iter().collect::<Vec<_>>(), [1, 70]);

    // No ship of a battle has index MAX_SHIPS: removing it changes nothing.
    let before = locks;
    locks.remove(MAX_SHIPS);
    assert_eq!(locks, before);

    // Nor does adding it: an empty set stays empty and never holds it.
    let mut none = ShipSet::EMPTY;
    assert!(none.is_empty());
    none.insert(MAX_SHIPS);
    assert!(none.is_empty(), "index MAX_SHIPS is ignored");
    assert!(!none.contains(MAX_SHIPS));
    assert!(!locks.is_empty(), "ships 1 and 70 are held");
}

/// Ruling 5: a ship's Command Points buy an extra action, "at most one a
/// turn". The destroyer's 2 points would pay for two at 1 point each, but
/// tactics that buy two are refused: the engine names the mistake.
#[test]
fn more_extra_actions_than_a_turn_allows_are_refused() {
    let mut script = Script::new(battle("destroyer", "frigate", 10), &[]);
    assert_eq!(script.battle.turn[0].command_points, 2);
    let tactics = FixedOrders::buying(2);
    let why = script.tactics_error(
        Phase::CommandPoints,
        1,
        [&tactics, &tactics],
        "two extra actions are one too many",
    );
    assert!(
        why.contains("tactics bought 2 extra actions for the destroyer"),
        "{why}"
    );
}

/// Rules note ruling 6: "A side may wait and keep its actions while the
/// other acts, but two waits in a row end the side's turn." When both sides
/// only wait, the second side's wait answers the first's, so the Actions
/// phase ends with every action kept.
#[test]
fn the_actions_phase_ends_when_both_sides_only_wait() {
    let mut script = Script::new(battle("destroyer", "frigate", 10), &[]);
    let actions = [script.battle.turn[0].actions, script.battle.turn[1].actions];
    let tactics = FixedOrders::waiting();
    script
        .phase_with(Phase::Actions, 1, [&tactics, &tactics])
        .expect("the Actions phase ends");
    assert_eq!(
        [script.battle.turn[0].actions, script.battle.turn[1].actions],
        actions
    );
}

/// Rules note, exact odds: "The Actions phase is played in steps, one per
/// action the battle's ships could take in a turn and one more to finish
/// ... so equal states merge after every action; where the phase stands
/// between steps ... is part of the state while it is split". Every step
/// but the last ends with the first ship action it plays.
#[test]
fn each_step_of_the_actions_phase_plays_one_ship_action() {
    let steps = Sequence::for_battle(system(), &battle("destroyer", "frigate", 10))
        .steps(Phase::Actions, 1);
    assert!(
        steps > 2,
        "the destroyer and the frigate act more than once"
    );
    let (after_each, ..) = actions_in_steps(steps, 1);
    assert_eq!(after_each[0], (1, true), "one action, and the phase split");
    let (acted, split) = after_each[after_each.len() - 1];
    assert!(!split, "the last step finishes the phase");
    assert!(acted > 1);
}

/// Turn 1's Actions phase of the destroyer against the frigate 10 hexes
/// off, played in `steps` steps with the default tactics and seeded dice:
/// after each step, the ship actions taken so far and whether the phase is
/// still split; then the events and the battle.
fn actions_in_steps(
    steps: u32,
    seed: u64,
) -> (Vec<(u32, bool)>, Vec<broadside_core::Event>, Battle) {
    let tactics = DefaultTactics::default();
    let mut battle = battle("destroyer", "frigate", 10);
    let sequence = Sequence {
        system: system(),
        actions_steps: steps,
    };
    let mut dice = common::seeded(seed);
    let mut log = broadside_core::EventLog::default();
    let mut after_each = Vec::new();
    for step in 0..sequence.steps(Phase::Actions, 1) {
        sequence
            .play_step(
                Phase::Actions,
                1,
                step,
                &mut battle,
                [&tactics, &tactics],
                &mut dice,
                &mut log,
            )
            .expect("the step plays");
        let acted = battle.turn.iter().map(|t| u32::from(t.acted)).sum();
        after_each.push((acted, battle.actions_round.is_some()));
    }
    (after_each, log.events, battle)
}

/// Seed 002, Sequence of Play: ships take their actions per turn, and the
/// Actions phase goes on "until both are done" (rules note). A side none of
/// whose ships has an action left is done without being asked: the
/// destroyer's side, its actions spent, is never asked (its tactics would
/// name the destroyer, which cannot act), and the frigate's side, asked
/// with the destroyer's side done, waits and so ends the phase.
#[test]
fn a_side_with_no_actions_left_is_not_asked_to_act() {
    let mut script = Script::new(battle("destroyer", "frigate", 10), &[]);
    script.battle.turn[0].actions = 0;
    let spent = FixedOrders::acting(0, Action::Scuttle);
    let waits = FixedOrders::waiting();
    script
        .phase_with(Phase::Actions, 1, [&spent, &waits])
        .expect("the destroyer's side is done from the start");
    assert_eq!(
        script.battle.board.ships[0].status,
        broadside_action_d10::ship::Status::Active
    );
}

/// A side's tactics may act only with a ship of their own side that is on
/// the map and has an action left (seed 002, Sequence of Play: each ship
/// takes its own actions). Naming the enemy frigate, or a friend whose
/// actions are spent while another friend still has some, is the tactics'
/// mistake, and the engine says so by name, at once, rather than playing
/// it.
#[test]
fn tactics_may_act_only_with_their_own_ships_that_can_act() {
    let cannot_act = |battle: Battle, ship: usize| -> (String, Battle) {
        let mut script = Script::new(battle, &[]);
        let orders = FixedOrders::acting(ship, Action::Scuttle);
        let waits = FixedOrders::waiting();
        let why = script.tactics_error(
            Phase::Actions,
            1,
            [&orders, &waits],
            "acting with a ship that cannot act",
        );
        (why, script.battle)
    };
    let duel = battle("destroyer", "frigate", 10);
    let (why, after) = cannot_act(duel.clone(), 1);
    assert!(
        why.contains("side A's tactics chose ship 1, which cannot act now"),
        "{why}"
    );
    assert_eq!(after.turn[1], duel.turn[1], "the frigate took no action");

    let mut pair = common::fleet(&["frigate", "frigate"], &["destroyer"]);
    pair.turn[0].actions = 0;
    let (why, _) = cannot_act(pair, 0);
    assert!(
        why.contains("side A's tactics chose ship 0, which cannot act now"),
        "{why}"
    );
}

/// Ruling 6: "A side may wait and keep its actions while the other acts,
/// but two waits in a row end the side's turn." Side A acts first and
/// waits; side B activates point defence; side A, its one wait answered by
/// an action, still has its turn and activates point defence too.
#[test]
fn a_side_that_waits_once_keeps_its_actions() {
    let mut script = Script::new(battle("destroyer", "frigate", 10), &[]);
    script.battle.first = Side::A;
    let a = FixedOrders::deciding(&[
        Decision::Wait,
        Decision::Act(0, Action::ActivatePointDefense),
    ]);
    let b = FixedOrders::deciding(&[Decision::Act(1, Action::ActivatePointDefense)]);
    script
        .phase_with(Phase::Actions, 1, [&a, &b])
        .expect("the Actions phase ends");
    assert!(script.battle.turn[1].point_defense);
    assert!(
        script.battle.turn[0].point_defense,
        "side A acted after its wait"
    );
}

/// Rules note, exact odds: the last step of the Actions phase "plays every
/// round left and the flights". Split into two steps, the phase plays one
/// action in the first and all the rest in the second, and ends as the
/// phase played whole: the same actions, dice and events.
#[test]
fn the_last_step_of_the_actions_phase_plays_every_round_left() {
    let (whole, split) = (actions_in_steps(1, 3), actions_in_steps(2, 3));
    assert_eq!(split.0[0], (1, true), "the first step plays one action");
    let (rest, still_split) = split.0[1];
    assert!(
        !still_split && rest > 2,
        "the last plays the rest: {:?}",
        split.0
    );
    assert_eq!(split.0[1], whole.0[0]);
    assert_eq!(split.1, whole.1);
    assert_eq!(split.2, whole.2);
}

/// Rules note, Launch/Recover Small Craft, and the launch's own words: a
/// flight launched this turn acts from the next turn, so in the Actions
/// phase that launched it, it neither moves nor attacks.
#[test]
fn a_flight_launched_this_turn_stays_put_in_the_actions_phase() {
    let mut script = Script::new(battle("carrier", "frigate", 8), &[]);
    script.act(0, Action::LaunchSmallCraft);
    let launched = script.battle.flights[0].hex;
    // The flights' orders are the default tactics': toward the frigate.
    let tactics = FixedOrders::waiting();
    script
        .phase_with(Phase::Actions, 1, [&tactics, &tactics])
        .expect("the Actions phase ends");
    assert_eq!(script.battle.flights[0].hex, launched);
}

/// Rules note, Aim: "+1 to hit the target for the rest of the turn" is
/// the aiming ship's; a flight aims on its own. The carrier locks and aims
/// at the frigate 2 hexes off, then its flight, launched last turn, moves a
/// hex and attacks the frigate at range 1: its swarm roll's modifier is the
/// Swarmer Guns' +1 at that range and no more, rolled 1: 1 + 1 = 2.
#[test]
fn a_carriers_aim_does_not_count_for_its_flight() {
    let mut script = Script::new(battle("carrier", "frigate", 2), &[1]);
    script
        .act(
            0,
            Action::TargetLock {
                target: 3,
                rerolls: 0,
            },
        )
        .act(0, Action::Aim { target: 3 })
        .act(0, Action::LaunchSmallCraft);
    script.battle.flights[0].fresh = false;
    let tactics = FixedOrders::misdirected(3, Vec::new());
    script
        .phase_with(Phase::Actions, 1, [&tactics, &tactics])
        .expect("the flight attacks");
    let lines: Vec<String> = script.log.events.iter().map(ToString::to_string).collect();
    assert!(
        lines
            .iter()
            .any(|e| e.contains("small craft") && e.contains("attacks the frigate")),
        "the flight attacked: {lines:?}"
    );
    assert!(
        !lines.iter().any(|e| e.contains("aimed this turn")),
        "no aim: {lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|e| e.starts_with("swarm roll modifier is 1 "))
    );
    assert_eq!(script.dice.used(), 1);
}

/// Seed 002's swarm attacks are made against the enemy: a flight sent
/// against its own carrier is an order the rules forbid, an internal error
/// of the tactics.
#[test]
fn a_flight_sent_against_a_friend_is_an_internal_error() {
    let mut script = Script::new(battle("carrier", "frigate", 8), &[]);
    script.act(0, Action::LaunchSmallCraft);
    // Launched last turn: it acts this turn.
    script.battle.flights[0].fresh = false;
    let tactics = FixedOrders::misdirected(0, Vec::new());
    script.tactics_error(
        Phase::Actions,
        1,
        [&tactics, &tactics],
        "a flight may not attack its own side",
    );
}

/// Seed 002, Point Defense Fire: each point defence weapon fires once; a
/// mount fired twice in the phase, or one destroyed, is an internal error
/// of the tactics.
#[test]
fn a_point_defence_mount_fires_once_a_phase() {
    // Lock rolled 3; the frigate's laser turret's first shot rolled 5, a miss.
    let mut script = Script::new(battle("destroyer", "frigate", 6), &[3, 5]);
    lock_and_launch(&mut script);
    script.act(1, Action::ActivatePointDefense);
    script.phase(Phase::Drift, 1).phase(Phase::Gravity, 1);
    let before = script.battle.clone();
    // The frigate's first laser turret, twice.
    let tactics = FixedOrders::misdirected(0, vec![(0, 0), (0, 0)]);
    script.tactics_error(
        Phase::PointDefenseFire,
        1,
        [&tactics, &tactics],
        "one mount fires once",
    );

    // Its second laser turret (mount 1), twice: the same for every mount.
    let mut again = Script::new(before.clone(), &[5]);
    let tactics = FixedOrders::misdirected(0, vec![(1, 0), (1, 0)]);
    again.tactics_error(
        Phase::PointDefenseFire,
        1,
        [&tactics, &tactics],
        "one mount fires once",
    );

    // A destroyed turret fires no point defence at all.
    let mut wrecked = before;
    wrecked.board.ships[1].weapons[0].destroyed = true;
    let mut wrecked = Script::new(wrecked, &[]);
    let tactics = FixedOrders::misdirected(0, vec![(0, 0)]);
    wrecked.tactics_error(
        Phase::PointDefenseFire,
        1,
        [&tactics, &tactics],
        "a destroyed mount cannot fire",
    );
}

/// Swarm attacks use the swarm weapon's range brackets (seed 002, the
/// swarmer/rocket-pack hits table): a flight sent against the frigate 7
/// hexes off, beyond the swarmer guns' 5, is an internal error of the
/// tactics, which the engine names when it checks the order, before the
/// flight declares anything.
#[test]
fn a_flight_sent_beyond_its_weapons_reach_is_an_internal_error() {
    let mut script = Script::new(battle("carrier", "frigate", 8), &[]);
    script.act(0, Action::LaunchSmallCraft);
    script.battle.flights[0].fresh = false;
    // Ship 3: the frigate, after the carrier and its two riders.
    assert_eq!(script.battle.sides[3], Side::B);
    let tactics = FixedOrders::misdirected(3, Vec::new());
    let why = script.tactics_error(
        Phase::Actions,
        1,
        [&tactics, &tactics],
        "the frigate is beyond the swarmer guns' reach",
    );
    assert!(why.contains("a ship it cannot attack"), "{why}");
}

/// Seed 002, Point Defense Fire: only point defence weapons fire in it; the
/// frigate's heavy laser bank (mount 3) is not one, so tactics firing it
/// there err.
#[test]
fn only_point_defence_weapons_fire_point_defence() {
    let mut script = Script::new(battle("destroyer", "frigate", 6), &[3]);
    lock_and_launch(&mut script);
    script.act(1, Action::ActivatePointDefense);
    script.phase(Phase::Drift, 1).phase(Phase::Gravity, 1);
    let tactics = FixedOrders::misdirected(0, vec![(2, 0)]);
    script.tactics_error(
        Phase::PointDefenseFire,
        1,
        [&tactics, &tactics],
        "a heavy laser is no point defence weapon",
    );
}

/// Seed 002, Point Defense Fire: point defence shoots down small craft one
/// per hit; a flight it misses stays in space with every craft. The
/// frigate's first laser turret fires at the carrier's flight in its hex
/// and rolls 10, a miss.
#[test]
fn a_flight_point_defence_misses_stays_whole() {
    let mut script = Script::new(battle("carrier", "frigate", 3), &[10]);
    script.act(0, Action::LaunchSmallCraft);
    script.battle.flights[0].fresh = false;
    script.battle.flights[0].hex = script.battle.poses[3].hex;
    let craft = script.battle.flights[0].craft;
    script.act(3, Action::ActivatePointDefense);
    let tactics = FixedOrders::misdirected(0, vec![(0, 0)]);
    script
        .phase_with(Phase::PointDefenseFire, 1, [&tactics, &tactics])
        .expect("point defence fires");
    assert!(
        script.dice.remaining().is_empty(),
        "the turret rolled its 10"
    );
    assert_eq!(script.battle.flights.len(), 1);
    assert_eq!(script.battle.flights[0].craft, craft);
}

/// Rules note, Record Keeping, boarding combat (seed 002, Board Enemy Vessel): boarders fight the ship's troops in Record
/// Keeping, and a ship is captured when boarders are left and no defender
/// is. Against no troops at all there is no fight, so no die is rolled.
#[test]
fn boarders_take_a_ship_without_troops_with_no_roll() {
    let mut script = Script::new(battle("frigate", "escort", 1), &[]);
    script.battle.board.ships[1].boarders = 1;
    script.battle.board.ships[1].intact[broadside_action_d10::model::System::Troops.index()] = 0;
    script.phase(Phase::RecordKeeping, 1);
    assert_eq!(
        script.battle.board.ships[1].status,
        broadside_action_d10::Status::Captured
    );
}

/// Rules note, Record Keeping, boarding combat (seed 002, Board Enemy Vessel): capture needs a boarder left. One boarder
/// against one defender: the boarder rolls 3 (a kill at 5 or less) and the
/// defender 1, a kill too; with neither left the escort is not captured.
#[test]
fn boarders_and_defenders_all_lost_is_no_capture() {
    let mut script = Script::new(battle("frigate", "escort", 1), &[3, 1]);
    script.battle.board.ships[1].boarders = 1;
    script.battle.board.ships[1].intact[broadside_action_d10::model::System::Troops.index()] = 1;
    script.phase(Phase::RecordKeeping, 1);
    assert!(script.dice.remaining().is_empty(), "both rolled");
    let escort = &script.battle.board.ships[1];
    assert_eq!(
        (
            escort.boarders,
            escort.intact(broadside_action_d10::model::System::Troops)
        ),
        (0, 0)
    );
    assert_ne!(escort.status, broadside_action_d10::Status::Captured);
}

/// Rules note, exact odds: the Actions phase is played in "one [step] per
/// action the battle's ships could take in a turn and one more to finish".
/// At 3 Command Points an extra action, neither the destroyer (2 points)
/// nor the frigate (1) can buy one, so the steps are their actions and one;
/// at 1 point, each buys one (at most one a turn, ruling 5), two steps more.
#[test]
fn the_actions_steps_count_only_extra_actions_a_ship_can_pay_for() {
    let system = edited_system(&[(
        "rules.toml",
        "extra-action-cost = 1",
        "extra-action-cost = 3",
    )]);
    let battle = battle_on(system, "destroyer", "frigate", 10);
    let actions: u32 = battle.turn.iter().map(|t| u32::from(t.actions)).sum();
    let sequence = Sequence::for_battle(system, &battle);
    assert_eq!(sequence.steps(Phase::Actions, 1), actions + 1);

    // At the data of record's 1 point, each can buy its one extra action.
    let battle = battle_on(common::system(), "destroyer", "frigate", 10);
    let sequence = Sequence::for_battle(common::system(), &battle);
    assert_eq!(sequence.steps(Phase::Actions, 1), actions + 2 + 1);
}

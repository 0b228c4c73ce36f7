//! Decisions: the tactics trait every side plays by, and the default policy.
//!
//! The engine asks; tactics answer; the engine checks the answer against the
//! rules. A tactic that answers something illegal is a bug in the tactic,
//! reported as an internal error, never silently corrected.

use broadside_core::hex::{self, Direction, Hex};
use broadside_core::{NullSink, Side};

use crate::ActionD10;
use crate::attack::LockNumber;
use crate::engagement::{Action, Battle, Decision, FlightOrder, Threat};
use crate::model::{Damage, Drive, Scanner, System, Weapon, WeaponKind};
use crate::ship::{Repairable, Ship};

/// Every decision a side makes in an engagement.
///
/// # Contract for implementors
/// Answers must be legal: an action the acting ship may take now (see
/// [`ActionD10::check_action`]), extra actions within the Command Points
/// and the rules' limit, flight moves within the craft's speed against
/// enemies in reach, point defence shots by ready point defence mounts,
/// each once, at offered threats in reach. The engine refuses anything else
/// as an internal error. Implementations must be deterministic given the
/// battle, so that a trial replays exactly.
pub trait ActionTactics: Send + Sync {
    /// Extra actions ship `ship` buys with Command Points this turn.
    fn extra_actions(&self, system: &ActionD10, battle: &Battle, ship: usize) -> u8;
    /// The side's next action in the Actions phase. `last_chance` is true
    /// when the other side will not act again before this side is asked
    /// once more, so that waiting would end the side's turn.
    fn next_action(
        &self,
        system: &ActionD10,
        battle: &Battle,
        side: Side,
        last_chance: bool,
    ) -> Decision;
    /// Where flight `flight` (an index into `battle.flights`) goes and whom
    /// it attacks.
    fn flight(&self, system: &ActionD10, battle: &Battle, flight: usize) -> FlightOrder;
    /// Point defence shots of ship `ship`: `(mount, index into threats)`.
    fn point_defense(
        &self,
        system: &ActionD10,
        battle: &Battle,
        ship: usize,
        threats: &[(Threat, u32)],
    ) -> Vec<(usize, usize)>;
}

/// The default policy, documented in the rules note:
/// - Command Points: one extra action a turn when it can pay, the rest kept
///   for re-rolling failed locks, misses and repairs;
/// - order of actions: dodge salvos waiting in its destination hex, jump
///   out if badly hurt and told to (`escape_below`), launch small craft and
///   riders, move (first, so its displacement spoils the enemy's aim), lock
///   on, aim when actions are to spare, fire every direct weapon that
///   bears (best first), launch salvos once the target has made its move,
///   then point defence, charging, shields, repairs and sharing locks;
/// - a chaff pod when a seeker salvo waits in its destination hex;
/// - movement: a destination within thrust that brings the range after the
///   drift, and the turn after, closest to the range where its weapons do
///   most, jinking while it has remass to spare, bow toward the enemy;
/// - small craft: close to the best bracket of their weapon and attack the
///   nearest enemy; point defence: salvos aimed at itself first (one gun
///   per missile), then at friends, then small craft;
/// - it never readies or supports troops, boards, transports troops, docks
///   or scuttles.
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultTactics {
    /// Activate the hyperdrive when the boxes left are at or below this
    /// percentage of the track (0: never).
    pub escape_below: u8,
}

/// Expected boxes a mount does per attack, in twentieths of a box (a to-hit
/// chance in tenths times twice the mean damage), so that comparisons stay
/// in integers.
fn expected(system: &ActionD10, weapon: &Weapon, bank: u8, number: i32) -> i64 {
    let rules = &system.rules;
    let damage2 = match weapon.damage {
        Damage::Fixed(n) => i64::from(n) * 2,
        Damage::Dice(e) => {
            i64::from(e.count) * (i64::from(e.die.sides()) + 1) + 2 * i64::from(e.bonus)
        }
    };
    let tenths = if weapon.kind == WeaponKind::Swarm {
        let column = rules.swarm.column(weapon.swarm_size.max(1));
        (1..=10)
            .map(|face| i64::from(rules.swarm.row(face + number).hits[column]))
            .sum::<i64>()
    } else {
        // A natural 10 always misses, so no more than nine faces in ten hit.
        i64::from(number.clamp(0, 9))
    };
    tenths * damage2 * i64::from(bank)
}

impl DefaultTactics {
    /// The enemy ship ship `i` attacks, locks on or moves against.
    ///
    /// Among the enemies on the map it can hit with at least one mount:
    /// one it already holds a lock on or aimed at (its own or shared: the
    /// action is spent), then one it could lock on, then the most damaged
    /// (focus fire: the share of boxes marked, in thousandths), then the one
    /// most of its weapons reach, then the nearest, then the first. With no
    /// enemy in reach, the nearest, to move against.
    fn target(system: &ActionD10, battle: &Battle, i: usize) -> Option<usize> {
        let here = battle.poses[i].hex;
        let mut enemies = battle.enemies_of(i);
        let first = enemies.next()?;
        if enemies.next().is_none() {
            // The usual duel: one enemy, nothing to weigh.
            return Some(first);
        }
        let rules = &system.rules;
        let t = &battle.turn[i];
        battle.enemies_of(i).max_by_key(|&e| {
            let usable = Self::usable(system, battle, i, e).count_ones();
            let (prospect, damage) = if usable == 0 {
                (0, 0)
            } else {
                let foe = &battle.board.ships[e];
                let damage = u32::from(foe.marked) * 1000 / u32::from(foe.boxes(rules)).max(1);
                let prospect = if battle.locked(i, e) || t.aims.contains(e) {
                    3
                } else if Self::lock_worth(system, battle, i, e) {
                    2
                } else {
                    1
                };
                (prospect, damage)
            };
            (
                prospect,
                damage,
                usable,
                std::cmp::Reverse(here.distance(battle.poses[e].hex)),
                std::cmp::Reverse(e),
            )
        })
    }

    /// Whether a Target Lock by ship `i` on `enemy` is worth an action:
    /// automatic, or a roll that can succeed; a second try in one turn
    /// only at even odds or better.
    fn lock_worth(system: &ActionD10, battle: &Battle, i: usize, enemy: usize) -> bool {
        let rules = &system.rules;
        let situation = system.lock_situation(battle, i, enemy);
        match system.lock_number(
            &battle.board.ships[i],
            &battle.board.ships[enemy],
            &situation,
            &mut NullSink,
        ) {
            LockNumber::Automatic => true,
            LockNumber::Impossible => false,
            LockNumber::Roll(n) => {
                let sides = rules.constants.lock.die.sides() as i32;
                n >= 1 && (!battle.turn[i].failed_locks.contains(enemy) || 2 * n >= sides)
            }
        }
    }

    /// Whether ship `i`, holding a lock on `enemy`, should share its locks
    /// by Coordinate Fire Control before it fires: the action it spends
    /// saves friends in reach at least two actions, or a roll.
    fn share_worth(system: &ActionD10, battle: &Battle, i: usize, enemy: usize) -> bool {
        if battle.turn[i].actions < 2 {
            return false;
        }
        let reach = system.rules.constants.coordinate_range;
        let here = battle.poses[i].hex;
        let mut gaining = 0;
        let mut rolled = false;
        for j in battle.ships_of(battle.sides[i]) {
            if j == i
                || battle.turn[j].actions == 0
                || battle.locked(j, enemy)
                || battle.poses[j].hex.distance(here) > reach
                || Self::usable(system, battle, j, enemy) == 0
            {
                continue;
            }
            gaining += 1;
            let situation = system.lock_situation(battle, j, enemy);
            rolled |= !matches!(
                system.lock_number(
                    &battle.board.ships[j],
                    &battle.board.ships[enemy],
                    &situation,
                    &mut NullSink
                ),
                LockNumber::Automatic
            );
        }
        gaining >= 2 || (gaining == 1 && rolled)
    }

    /// How well hex `c` keeps a ship in formation with friends whose
    /// destinations are `friends`: a destination in a friend's hex costs much
    /// (two ships in one hex give enemy locks on either +1), each hex beyond
    /// `reach` (Coordinate Fire Control's) of the nearest friend costs a
    /// little, and each friend next to it gains a little (point defence guns
    /// hit best at range 1, and a neighbour thrusting on reaction drives
    /// spoils enemy locks). Nothing without friends.
    fn formation(friends: &[Hex], reach: i64, c: Hex) -> i64 {
        let mut nearest: Option<i64> = None;
        let mut score = 0;
        for &friend in friends {
            let d = i64::from(c.distance(friend));
            match d {
                0 => score -= 50,
                1 => score += 1,
                _ => {}
            }
            nearest = Some(nearest.map_or(d, |n| n.min(d)));
        }
        if let Some(n) = nearest
            && n > reach
        {
            score -= 5 * (n - reach);
        }
        score
    }

    /// The mounts of ship `i` that could attack `target` now, one bit each.
    fn usable(system: &ActionD10, battle: &Battle, i: usize, target: usize) -> u16 {
        (0..battle.board.ships[i].weapons.len())
            .filter(|&m| system.can_attack(battle, i, m, target))
            .fold(0, |mask, m| mask | 1 << m)
    }

    /// The range at which ship `me`'s weapons do most against `target`:
    /// the largest of equals, to stand off where it costs nothing.
    fn preferred_range(system: &ActionD10, me: &Ship, target: &Ship) -> u32 {
        let rules = &system.rules;
        let size = target.class(rules).size;
        // The score only changes where a bracket ends, and the largest
        // range of the best score is the end of some bracket, so only those
        // ranges need weighing.
        let mut ends = arrayvec::ArrayVec::<u32, 64>::new();
        for m in me
            .weapons
            .iter()
            .filter(|m| !m.destroyed && m.shots != Some(0))
        {
            for b in &rules.weapon(m.weapon).brackets {
                if !ends.contains(&b.to) && !ends.is_full() {
                    ends.push(b.to);
                }
            }
        }
        ends.sort_unstable();
        let mut best = (i64::MIN, 0);
        for &r in &ends {
            let score: i64 = me
                .weapons
                .iter()
                .filter(|m| !m.destroyed && m.shots != Some(0))
                .filter_map(|m| {
                    let w = rules.weapon(m.weapon);
                    w.bracket(r)
                        .map(|b| expected(system, w, m.bank, b.value + size))
                })
                .sum();
            if score >= best.0 {
                best = (score, r);
            }
        }
        best.1
    }

    /// The Move the policy makes, or `None` when no move is worth an action.
    fn plan_move(system: &ActionD10, battle: &Battle, i: usize, enemy: usize) -> Option<Action> {
        let rules = &system.rules;
        let me = &battle.board.ships[i];
        let pose = battle.poses[i];
        let thrust = me.thrust(rules);
        let foe = battle.poses[enemy];
        let (f, w) = (foe.dest, foe.velocity());
        let preferred = i64::from(Self::preferred_range(
            system,
            me,
            &battle.board.ships[enemy],
        ));
        let spare =
            me.class(rules).drive == Drive::Reactionless || u32::from(me.remass) >= 3 * thrust;
        let avoid = |c: Hex| {
            battle
                .salvos
                .iter()
                .any(|s| usize::from(s.target) == i && s.hex == c)
        };
        // Friends' destinations, read once for every hex weighed.
        let friends: Vec<Hex> = battle
            .ships_of(battle.sides[i])
            .filter(|&j| j != i)
            .map(|j| battle.poses[j].dest)
            .collect();
        let reach = i64::from(rules.constants.coordinate_range);
        // `d` is the thrust to `c`: its distance from the destination.
        let score = |c: Hex, d: i64| -> i64 {
            let v = c - pose.hex;
            let r1 = i64::from(c.distance(f));
            let r2 = i64::from((c + v).distance(f + w));
            let mut s = -10 * (r1 - preferred).abs() - 4 * (r2 - preferred).abs();
            s += if spare { 2 * d } else { -d };
            if avoid(c) {
                s -= 1000;
            }
            s
        };
        let toward = face_toward(pose.dest, f, pose.facing).index() as i32;
        // A ship alone on its side has no formation to weigh: its search is
        // kept apart so that the score of each hex stays a few inlined
        // sums, as weighing thousands of hexes a trial makes it hot.
        let dest = if friends.is_empty() {
            Self::best_hex(pose.dest, thrust, toward, score)
        } else {
            Self::best_hex(pose.dest, thrust, toward, |c, d| {
                score(c, d) + Self::formation(&friends, reach, c)
            })
        };
        let facing = if me.can_turn() {
            face_toward(dest, f, pose.facing)
        } else {
            pose.facing
        };
        (dest != pose.dest || facing != pose.facing).then_some(Action::Move { dest, facing })
    }

    /// The best-scoring hex within `thrust` of `dest`, the first found on a
    /// tie: every hex is weighed row by row in a frame turned toward the
    /// enemy (hexside `toward`), so that ties are broken the same way for
    /// both sides of a mirror match. `score` is given each hex and its
    /// distance from `dest`.
    fn best_hex(dest: Hex, thrust: u32, toward: i32, score: impl Fn(Hex, i64) -> i64) -> Hex {
        let mut best = (score(dest, 0), dest);
        let t = i32::try_from(thrust).unwrap_or(0);
        // Turning is linear: the turned offset (dq, dr) is dq times the
        // turned east step plus dr times the turned south-east step, so the
        // two steps are turned once rather than every hex.
        let east = Hex::new(1, 0).rotate_around(Hex::ORIGIN, toward);
        let south_east = Hex::new(0, 1).rotate_around(Hex::ORIGIN, toward);
        for dq in -t..=t {
            for dr in (-t).max(-dq - t)..=t.min(-dq + t) {
                let c = dest
                    + Hex::new(
                        dq * east.q + dr * south_east.q,
                        dq * east.r + dr * south_east.r,
                    );
                // Turning keeps distances: the hex is as far from `dest`
                // as the offset (dq, dr) is long.
                let d = i64::from((dq.abs() + dr.abs() + (dq + dr).abs()) / 2);
                let s = score(c, d);
                if s > best.0 {
                    best = (s, c);
                }
            }
        }
        best.1
    }

    /// The best direct or swarm attack among the `usable` mounts of ship
    /// `i` on `target`: the mount, its value and its to-hit number.
    fn best_direct(
        system: &ActionD10,
        battle: &Battle,
        i: usize,
        target: usize,
        usable: u16,
    ) -> Option<(u8, i64, i32)> {
        let rules = &system.rules;
        let me = &battle.board.ships[i];
        let situation = system.situation(battle, i, battle.poses[i].hex, target);
        (0..me.weapons.len())
            .filter(|&m| usable & (1 << m) != 0)
            .filter(|&m| !rules.weapon(me.weapons[m].weapon).kind.is_salvo())
            .filter_map(|m| {
                let w = rules.weapon(me.weapons[m].weapon);
                let range = system.fire_range(battle, i, m, target)?;
                let n = system.to_hit(
                    w,
                    &battle.board.ships[target],
                    range,
                    &situation,
                    &mut NullSink,
                )?;
                Some((m as u8, expected(system, w, me.weapons[m].bank, n), n))
            })
            .max_by_key(|&(m, value, _)| (value, std::cmp::Reverse(m)))
    }

    /// The longest reach of a ship's point defence weapons that can fire.
    fn point_defense_reach(system: &ActionD10, me: &Ship) -> u32 {
        let rules = &system.rules;
        (0..me.weapons.len())
            .filter(|&m| rules.weapon(me.weapons[m].weapon).point_defense && me.can_fire(rules, m))
            .map(|m| rules.weapon(me.weapons[m].weapon).max_range())
            .max()
            .unwrap_or(0)
    }

    /// The first salvo launcher among the `usable` mounts of ship `i`.
    fn salvo_mount(system: &ActionD10, battle: &Battle, i: usize, usable: u16) -> Option<u8> {
        let me = &battle.board.ships[i];
        (0..me.weapons.len())
            .find(|&m| {
                usable & (1 << m) != 0 && system.rules.weapon(me.weapons[m].weapon).kind.is_salvo()
            })
            .map(|m| m as u8)
    }

    /// What ship `i` does next, or `None` to wait, or nothing at all.
    fn choose(&self, system: &ActionD10, battle: &Battle, i: usize, last_chance: bool) -> Choice {
        let rules = &system.rules;
        let me = &battle.board.ships[i];
        let t = &battle.turn[i];
        let pose = battle.poses[i];
        let rerolls = t.command_points / rules.constants.reroll_cost;
        let can_move = !t.moved && me.thrust(rules) > 0;

        let Some(enemy) = Self::target(system, battle, i) else {
            return self.housekeeping(system, battle, i);
        };

        // Salvos wait in this ship's destination hex: any move throws them off.
        if can_move
            && battle
                .salvos
                .iter()
                .any(|s| usize::from(s.target) == i && s.hex == pose.dest)
            && let Some(action) = Self::plan_move(system, battle, i, enemy)
        {
            return Choice::Act(action);
        }
        // The move is weighed once, as the ship's first action of the turn.
        if can_move
            && t.acted == 0
            && let Some(action) = Self::plan_move(system, battle, i, enemy)
        {
            return Choice::Act(action);
        }
        if self.escape_below > 0
            && !t.hyperdrive
            && me.hyperdrive_ready(rules)
            && u32::from(me.boxes_left(rules)) * 100
                <= u32::from(self.escape_below) * u32::from(me.boxes(rules))
        {
            return Choice::Act(Action::ActivateHyperdrive);
        }
        let aimed_at_me = battle
            .salvos
            .iter()
            .filter(|s| usize::from(s.target) == i)
            .count();
        if aimed_at_me >= 2 && !t.spread && me.antimatter_spreads > 0 {
            return Choice::Act(Action::ActivateAntimatterSpread);
        }
        // Chaff spoils a seeker's aim this turn: worth a pod once a seeker
        // salvo waits where the ship will be when salvos strike.
        let seeker_waiting = battle.salvos.iter().any(|s| {
            usize::from(s.target) == i
                && s.hex == pose.dest
                && rules.weapon(s.weapon).kind == WeaponKind::Seeker
        });
        if seeker_waiting && !t.chaff && me.chaff_pods > 0 {
            return Choice::Act(Action::DropChaffPod);
        }
        let flights_near = battle
            .flights
            .iter()
            .any(|f| f.side != battle.sides[i] && f.hex.distance(pose.hex) <= 8);
        // Salvos aimed at friends wait where this ship's guns may reach them
        // after the drift: point defence covers the whole side.
        let aimed_at_friends = || {
            let reach = Self::point_defense_reach(system, me);
            battle.salvos.iter().any(|s| {
                let target = usize::from(s.target);
                target != i
                    && battle.sides[target] == battle.sides[i]
                    && pose.dest.distance(s.hex) <= reach
            })
        };
        if !t.point_defense
            && me.has_point_defense(rules)
            && (aimed_at_me > 0 || flights_near || aimed_at_friends())
        {
            return Choice::Act(Action::ActivatePointDefense);
        }
        if me.small_craft > 0 && me.hangar_usable(rules) {
            return Choice::Act(Action::LaunchSmallCraft);
        }
        if (0..battle.board.ships.len()).any(|r| {
            battle.carrier[r] == Some(i as u8)
                && battle.docked[r]
                && battle.board.ships[r].is_active()
        }) {
            return Choice::Act(Action::LaunchRider);
        }

        let mask = Self::usable(system, battle, i, enemy);
        let direct = Self::best_direct(system, battle, i, enemy, mask);
        let salvo = Self::salvo_mount(system, battle, i, mask);
        let usable = mask.count_ones() as usize;
        if usable > 0 && !battle.locked(i, enemy) && Self::lock_worth(system, battle, i, enemy) {
            return Choice::Act(Action::TargetLock {
                target: enemy as u8,
                rerolls,
            });
        }
        if battle.locked(i, enemy) && Self::share_worth(system, battle, i, enemy) {
            return Choice::Act(Action::CoordinateFireControl);
        }
        if battle.locked(i, enemy) {
            let spare = usize::from(t.actions).saturating_sub(usable);
            // A weapon that needs charging and reaches the target is charged
            // first when an action is left over to fire it.
            if spare >= 2
                && me.has_power()
                && let Some(m) = (0..me.weapons.len()).find(|&m| {
                    let w = &me.weapons[m];
                    let weapon = rules.weapon(w.weapon);
                    weapon.charge
                        && !w.charged
                        && !w.destroyed
                        && !battle.fired(i, m)
                        && pose.hex.distance(battle.poses[enemy].hex) <= weapon.max_range()
                })
            {
                return Choice::Act(Action::ChargeWeapon { mount: m as u8 });
            }
            let aimed = t.aims.contains(enemy);
            if !aimed && direct.is_some() && spare > 1 {
                return Choice::Act(Action::Aim {
                    target: enemy as u8,
                });
            }
            if let Some((mount, _, number)) = direct {
                // A Command Point re-roll is kept for shots with even odds or better.
                let swarm =
                    rules.weapon(me.weapons[usize::from(mount)].weapon).kind == WeaponKind::Swarm;
                return Choice::Act(Action::Attack {
                    mount,
                    target: enemy as u8,
                    rerolls: if swarm || number < 5 { 0 } else { rerolls },
                });
            }
            if let Some(mount) = salvo {
                let foe = &battle.board.ships[enemy];
                let settled = battle.turn[enemy].moved
                    || battle.turn[enemy].actions == 0
                    || foe.thrust(rules) == 0;
                if settled || last_chance || usize::from(t.actions) <= usable {
                    return Choice::Act(Action::Attack {
                        mount,
                        target: enemy as u8,
                        rerolls,
                    });
                }
                return Choice::Wait;
            }
        }
        let threatened = battle
            .enemies_of(i)
            .any(|e| battle.board.ships[e].has_launcher(rules))
            || battle.flights.iter().any(|f| f.side != battle.sides[i]);
        if !t.point_defense && me.has_point_defense(rules) && threatened {
            return Choice::Act(Action::ActivatePointDefense);
        }
        self.housekeeping(system, battle, i)
    }

    /// Actions that do not need an enemy: charging, shields, repairs,
    /// sharing locks.
    fn housekeeping(&self, system: &ActionD10, battle: &Battle, i: usize) -> Choice {
        let rules = &system.rules;
        let me = &battle.board.ships[i];
        let t = &battle.turn[i];
        if me.has_power()
            && let Some(m) = (0..me.weapons.len()).find(|&m| {
                let w = &me.weapons[m];
                rules.weapon(w.weapon).charge && !w.charged && !w.destroyed
            })
        {
            return Choice::Act(Action::ChargeWeapon { mount: m as u8 });
        }
        if me.shields < me.max_shields(rules) {
            return Choice::Act(Action::RechargeShields);
        }
        if let Some(item) = Self::repair_choice(system, me) {
            return Choice::Act(Action::Repair {
                item,
                rerolls: t.command_points / rules.constants.reroll_cost,
            });
        }
        let reach = rules.constants.coordinate_range;
        if !t.locks.is_empty()
            && (0..battle.board.ships.len()).any(|j| {
                j != i
                    && battle.on_map(j)
                    && battle.sides[j] == battle.sides[i]
                    && !battle.turn[j].locks.contains_all(&t.locks)
                    && battle.poses[j].hex.distance(battle.poses[i].hex) <= reach
            })
        {
            return Choice::Act(Action::CoordinateFireControl);
        }
        Choice::Nothing
    }

    /// The repair most worth an action, among those that can succeed.
    fn repair_choice(system: &ActionD10, me: &Ship) -> Option<Repairable> {
        const ORDER: [System; 9] = [
            System::Thruster,
            System::FireControl,
            System::Sensors,
            System::ShieldGenerator,
            System::PowerPlant,
            System::ShieldEmitter,
            System::ManeuveringJets,
            System::FlagBridge,
            System::Hyperdrive,
        ];
        let damaged = me.damaged(&system.rules);
        let mut wanted = damaged
            .iter()
            .copied()
            .filter(|item| match item {
                Repairable::MagazineJam => me.has_launcher(&system.rules),
                // Scanners matter to nothing in play unless locks need them.
                Repairable::Scanner(_) => system.rules.constants.lock.needs_scanners,
                _ => true,
            })
            .collect::<arrayvec::ArrayVec<Repairable, 40>>();
        let rank = |item: &Repairable| match item {
            Repairable::MagazineJam => 0,
            Repairable::Weapon(_) => 1,
            Repairable::Scanner(Scanner::LongRange) => 2,
            Repairable::Scanner(Scanner::ShortRange) => 3,
            Repairable::System(s) => 4 + ORDER.iter().position(|o| o == s).unwrap_or(ORDER.len()),
        };
        wanted.sort_by_key(rank);
        wanted.into_iter().find(|&item| {
            system
                .repair_difficulty(me, item)
                .is_some_and(|d| system.repair_target(me, d) >= 1)
        })
    }
}

/// What the policy wants of one ship.
enum Choice {
    Act(Action),
    Wait,
    Nothing,
}

/// The facing from `from` that points most nearly at `to`.
fn face_toward(from: Hex, to: Hex, current: Direction) -> Direction {
    if from == to {
        return current;
    }
    // Directions are weighed clockwise from the current facing, so a tie
    // is broken the same way whichever way the ship faces.
    (0..6)
        .map(|k| current.turn(k))
        .min_by_key(|&d| {
            (
                from.neighbour(d).distance(to),
                current.turns_between(d).abs(),
            )
        })
        .unwrap_or(current)
}

impl ActionTactics for DefaultTactics {
    fn extra_actions(&self, system: &ActionD10, battle: &Battle, ship: usize) -> u8 {
        let c = &system.rules.constants;
        let points = battle.board.ships[ship].command_points(&system.rules);
        (points / c.extra_action_cost).min(c.extra_actions).min(1)
    }

    fn next_action(
        &self,
        system: &ActionD10,
        battle: &Battle,
        side: Side,
        last_chance: bool,
    ) -> Decision {
        // Round by round: the ships that have acted least go first, so every
        // ship makes its move (and gains its displacement) before any takes
        // a second action, and a ship that waits holds up no other.
        let mut wait = false;
        let mut ready = battle
            .ships_of(side)
            .filter(|&i| battle.turn[i].actions > 0);
        let Some(first) = ready.next() else {
            return Decision::Done;
        };
        if ready.next().is_none() {
            // One ship with actions, as in a duel: nothing to order.
            return match self.choose(system, battle, first, last_chance) {
                Choice::Act(action) => Decision::Act(first, action),
                Choice::Wait => Decision::Wait,
                Choice::Nothing => Decision::Done,
            };
        }
        let most = battle
            .ships_of(side)
            .map(|i| battle.turn[i].acted)
            .max()
            .unwrap_or(0);
        for round in 0..=most {
            for i in battle.ships_of(side) {
                if battle.turn[i].actions == 0 || battle.turn[i].acted != round {
                    continue;
                }
                match self.choose(system, battle, i, last_chance) {
                    Choice::Act(action) => return Decision::Act(i, action),
                    Choice::Wait => wait = true,
                    Choice::Nothing => {}
                }
            }
        }
        if wait { Decision::Wait } else { Decision::Done }
    }

    fn flight(&self, system: &ActionD10, battle: &Battle, f: usize) -> FlightOrder {
        let rules = &system.rules;
        let flight = battle.flights[f];
        let carrier = battle.board.ships[usize::from(flight.carrier)].class(rules);
        let Some(craft) = carrier.small_craft else {
            return FlightOrder {
                to: flight.hex,
                target: None,
            };
        };
        let weapon = rules.weapon(craft.weapon);
        let best = weapon
            .brackets
            .iter()
            .max_by_key(|b| (b.value, std::cmp::Reverse(b.from)))
            .map_or(0, |b| b.to);
        // Where the flight goes to fight `target`: the hex within its speed
        // nearest the best bracket of its weapon, candidates read in a frame
        // turned toward the target, so ties fall the same way for either side.
        let close_on = |target: usize| {
            let at = battle.poses[target].hex;
            let toward = face_toward(flight.hex, at, Direction::EAST).index() as i32;
            let to = hex::hexes_within(Hex::ORIGIN, craft.speed)
                .map(|offset| flight.hex + offset.rotate_around(Hex::ORIGIN, toward))
                .min_by_key(|&h| (h.distance(at).abs_diff(best), flight.hex.distance(h)))
                .unwrap_or(flight.hex);
            (to, weapon.bracket(to.distance(at)).is_some())
        };
        let enemies = || {
            (0..battle.board.ships.len())
                .filter(|&j| battle.sides[j] != flight.side && battle.on_map(j))
        };
        let Some(nearest) =
            enemies().min_by_key(|&j| (flight.hex.distance(battle.poses[j].hex), j))
        else {
            return FlightOrder {
                to: flight.hex,
                target: None,
            };
        };
        // Focus fire: the most damaged enemy it can reach this turn, the
        // nearest of equals; otherwise it closes on the nearest.
        let reachable = enemies()
            .filter_map(|j| {
                let (to, in_reach) = close_on(j);
                in_reach.then_some((j, to))
            })
            .max_by_key(|&(j, _)| {
                let foe = &battle.board.ships[j];
                (
                    u32::from(foe.marked) * 1000 / u32::from(foe.boxes(rules)).max(1),
                    std::cmp::Reverse(flight.hex.distance(battle.poses[j].hex)),
                    std::cmp::Reverse(j),
                )
            });
        match reachable {
            Some((target, to)) => FlightOrder {
                to,
                target: Some(target),
            },
            None => FlightOrder {
                to: close_on(nearest).0,
                target: None,
            },
        }
    }

    fn point_defense(
        &self,
        system: &ActionD10,
        battle: &Battle,
        ship: usize,
        threats: &[(Threat, u32)],
    ) -> Vec<(usize, usize)> {
        let rules = &system.rules;
        let me = &battle.board.ships[ship];
        let rank = |&(threat, _): &(Threat, u32)| match threat {
            Threat::Salvo(s) if usize::from(battle.salvos[s].target) == ship => 0,
            Threat::Salvo(_) => 1,
            Threat::Flight(_) => 2,
        };
        let mut order: Vec<usize> = (0..threats.len()).collect();
        order.sort_by_key(|&k| (rank(&threats[k]), k));
        // Guns a threat may still take: one per missile of a salvo (a
        // second gun on a lone missile is wasted), any number on craft.
        let mut room: Vec<u32> = threats
            .iter()
            .map(|&(threat, _)| match threat {
                Threat::Salvo(s) => u32::from(battle.salvos[s].missiles),
                Threat::Flight(_) => u32::MAX,
            })
            .collect();
        let mut shots = Vec::new();
        for m in 0..me.weapons.len() {
            let w = rules.weapon(me.weapons[m].weapon);
            if !w.point_defense || !me.can_fire(rules, m) {
                continue;
            }
            let pick = order
                .iter()
                .copied()
                .find(|&k| w.bracket(threats[k].1).is_some() && room[k] > 0);
            if let Some(k) = pick {
                room[k] = room[k].saturating_sub(1);
                shots.push((m, k));
            }
        }
        shots
    }
}

//! Decisions: the tactics trait every side plays by, and the default policy.
//!
//! The engine asks; tactics answer; the engine checks the answer against the
//! rules. A tactic that answers something illegal is a bug in the tactic,
//! reported as an internal error, never silently corrected.

use arrayvec::ArrayVec;
use broadside_core::NullSink;
use broadside_core::hex::{self, Direction, Hex};

use crate::Percentile;
use crate::attack::{Strike, cell_in_use};
use crate::engagement::{Battle, FireOption, Maneuver, Pose};
use crate::hazards::RepairAttempt;
use crate::model::{Column, Defence, WeaponId};
use crate::ship::{Repairable, Ship};

/// Every decision a side makes in an Advanced Game engagement.
///
/// # Contract for implementors
/// Answers must be legal: speed changes within ADF, turns within MR and one
/// per hex entered, only offered shots, each weapon once a phase, repairs
/// within DCR on damaged systems. The engine refuses anything else as an
/// internal error. Implementations must be deterministic given the battle,
/// so that a trial replays exactly.
///
/// The battle shown holds the enemy's mine patterns and waiting seekers,
/// which the rules keep secret from the other player (ruling 37): a tactic
/// reads only its own side's.
pub trait PercentileTactics: Send + Sync {
    /// The screen one ship wants switched on (`None`: off), at the start of
    /// its side's movement phase; it must be one the ship carries intact. The
    /// answer is moot while the ship's power is short-circuited.
    fn screen(&self, system: &Percentile, battle: &Battle, ship: usize) -> Option<Defence>;
    /// Which of the side's placed seekers (indices into `battle.seekers`) to activate.
    fn activate_seekers(
        &self,
        system: &Percentile,
        battle: &Battle,
        side: broadside_core::Side,
    ) -> Vec<usize>;
    /// Mines or seekers the ship drops in its hex before moving.
    fn drops(&self, system: &Percentile, battle: &Battle, ship: usize) -> Vec<WeaponId>;
    /// How the ship moves this turn, and whether it releases a masking
    /// screen as it starts.
    fn maneuver(&self, system: &Percentile, battle: &Battle, ship: usize) -> Maneuver;
    /// Which of the offered shots the ship takes (indices into `options`).
    fn targets(
        &self,
        system: &Percentile,
        battle: &Battle,
        ship: usize,
        options: &[FireOption],
    ) -> Vec<usize>;
    /// ICMs against an incoming strike on `target`: the launching ship (in
    /// the target's hex, on its side) and how many.
    fn icms(
        &self,
        system: &Percentile,
        battle: &Battle,
        weapon: WeaponId,
        target: usize,
    ) -> Option<(usize, u16)>;
    /// The ship's repair attempts in a Repair Turn.
    fn repairs(&self, system: &Percentile, battle: &Battle, ship: usize) -> Vec<RepairAttempt>;
}

/// The default policy, documented in the rules note:
/// - movement: close to a preferred range (1 hex with forward-firing
///   weapons, 2 otherwise), point forward-firing weapons at the enemy, avoid
///   overshooting, and weigh any break-apart chance heavily, so a badly
///   damaged ship holds its course rather than risk the manoeuvre;
/// - fire: everything that bears, at the target it is likeliest to hit;
///   limited supplies only at a 20% chance or better;
/// - ICMs: against torpedoes (up to 3), assault rockets, mines and seekers
///   (up to 2), rocket batteries (1, only with supply to spare);
/// - screens: the one that most lowers the enemy's chances; a masking
///   screen when the enemy carries lasers and the ship can fight on without
///   its own, or is badly damaged;
/// - mines and seekers: dropped when an enemy is near, seekers activated
///   only when the nearest ship is an enemy and no friend is close;
/// - repairs: fire first, then drive, steering, control systems and
///   weapons, hull last, up to 89 points an attempt (90-00 always fails).
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultTactics;

impl DefaultTactics {
    /// The nearest enemy ship still in play.
    fn enemy(battle: &Battle, ship: usize) -> Option<usize> {
        let here = battle.poses[ship].hex;
        (0..battle.board.ships.len())
            .filter(|&i| {
                battle.sides[i] != battle.sides[ship] && !battle.board.ships[i].is_destroyed()
            })
            .min_by_key(|&i| (here.distance(battle.poses[i].hex), i))
    }

    fn has_ready(
        system: &Percentile,
        ship: &Ship,
        test: impl Fn(&crate::model::Weapon) -> bool,
    ) -> usize {
        (0..ship.weapons.len())
            .filter(|&m| ship.can_fire(m) && test(system.rules.weapon(ship.weapons[m].weapon)))
            .count()
    }

    fn preferred_range(system: &Percentile, ship: &Ship) -> u32 {
        if Self::has_ready(system, ship, |w| w.forward_firing) > 0 {
            1
        } else {
            2
        }
    }

    /// The moves worth weighing: a few speeds (slowest, same, fastest, and
    /// the speeds that would close to the preferred range), each straight or
    /// with 1, 2 or all its MR in turns to one side, early or late in the
    /// move; and, for a stopped ship, every facing.
    fn candidates(pose: Pose, adf: u32, mr: u32, distance: u32, preferred: u32) -> Vec<Plan> {
        let lo = pose.speed.saturating_sub(adf);
        let hi = pose.speed + adf;
        let aim = distance.saturating_sub(preferred).clamp(lo, hi);
        let mut speeds = [lo, pose.speed, hi, aim, aim.saturating_sub(1).max(lo)];
        speeds.sort_unstable();
        let mut out = Vec::with_capacity(64);
        for (n, &speed) in speeds.iter().enumerate() {
            if n > 0 && speeds[n - 1] == speed {
                continue;
            }
            out.push(Plan {
                speed,
                ..Plan::default()
            });
            let most = mr.min(speed);
            let mut counts = [1, 2, most];
            counts.sort_unstable();
            for (c, &turns) in counts.iter().enumerate() {
                if turns == 0 || turns > most || (c > 0 && counts[c - 1] == turns) {
                    continue;
                }
                for way in [-1, 1] {
                    out.push(Plan {
                        speed,
                        turns,
                        way,
                        ..Plan::default()
                    });
                    if turns < speed {
                        out.push(Plan {
                            speed,
                            turns,
                            way,
                            late: true,
                            face: None,
                        });
                    }
                }
            }
        }
        if pose.speed == 0 && mr > 0 {
            out.extend(Direction::ALL.into_iter().map(|d| Plan {
                face: Some(d),
                ..Plan::default()
            }));
        }
        out
    }

    /// Whether the ship would like to sit inside a masking screen: the enemy
    /// carries lasers, and the ship can fight on without its own (which a
    /// screen would blunt too) or is badly damaged.
    fn wants_masking(system: &Percentile, me: &Ship, foe: &Ship) -> bool {
        let can_release = !me.masked
            && !me.damaged.short_circuit
            && me
                .defence(Defence::MaskingScreen)
                .and_then(|m| m.supply)
                .unwrap_or(0)
                > 0;
        if !can_release || Self::has_ready(system, foe, |w| w.laser) == 0 {
            return false;
        }
        let my_lasers = Self::has_ready(system, me, |w| w.laser);
        let my_others = Self::has_ready(system, me, |w| !w.laser && !w.placed);
        let severe = me.damage_taken(&system.rules) * 2 > system.rules.class(me.class).hull;
        my_others >= my_lasers || severe
    }

    /// The move the default policy makes, in compact form, and whether it
    /// releases a masking screen with it.
    fn plan(system: &Percentile, battle: &Battle, ship: usize) -> (Plan, bool) {
        let me = &battle.board.ships[ship];
        let pose = battle.poses[ship];
        let hold = Plan {
            speed: pose.speed,
            ..Plan::default()
        };
        let Some(enemy) = Self::enemy(battle, ship) else {
            return (hold, false);
        };
        // A masking screen lasts only while the ship holds course and speed,
        // so a ship that wants one weighs its moves as if already inside it.
        let masking = me.masked || Self::wants_masking(system, me, &battle.board.ships[enemy]);
        let (adf, mr) = (u32::from(me.adf), u32::from(me.mr));
        let enemy_pose = battle.poses[enemy];
        let target: Hex = enemy_pose.hex;
        let preferred = Self::preferred_range(system, me);
        let has_ff = Self::has_ready(system, me, |w| w.forward_firing) > 0;
        let enemy_ff =
            Self::has_ready(system, &battle.board.ships[enemy], |w| w.forward_firing) > 0;
        let distance = pose.hex.distance(target);
        let score = |plan: &Plan| -> i64 {
            let (end, points) = plan.simulate(pose);
            let d = end.hex.distance(target);
            let mut s = -10 * i64::from(d.abs_diff(preferred));
            let (along, across) = hex::ahead_offset(end.hex, end.facing, target);
            if has_ff {
                if along > 0 && across == 0 {
                    s += 12;
                } else if along > 0 && across.abs() <= 1 {
                    s += 6;
                }
            } else if d > 0 && along > 0 && across.abs() <= 2 {
                s += 2;
            }
            if enemy_ff && hex::on_centre_line(enemy_pose.hex, enemy_pose.facing, end.hex) {
                s -= 4;
            }
            if end.speed > d + 2 {
                s -= 3 * i64::from(end.speed - d - 2);
            }
            if masking && points > 0 {
                s -= 8;
            }
            s - 2 * i64::from(system.break_apart_chance(me, points))
        };
        // Holding course is weighed first, so it wins every tie.
        let mut best = hold;
        let mut best_score = score(&hold);
        for plan in Self::candidates(pose, adf, mr, distance, preferred) {
            let s = score(&plan);
            if s > best_score {
                best_score = s;
                best = plan;
            }
        }
        let (_, points) = best.simulate(pose);
        (best, masking && !me.masked && points == 0)
    }
}

/// A candidate move in compact form, scored without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Plan {
    speed: u32,
    turns: u32,
    way: i32,
    late: bool,
    face: Option<Direction>,
}

impl Plan {
    /// The hex number (from 1) after which the `n`th turn (from 0) is made.
    fn turn_at(&self, n: u32) -> u32 {
        if self.late {
            self.speed - self.turns + 1 + n
        } else {
            1 + n
        }
    }

    /// The final pose and the ADF and MR points the move uses, computed a
    /// straight run at a time rather than hex by hex.
    fn simulate(&self, pose: Pose) -> (Pose, u32) {
        let points = self.speed.abs_diff(pose.speed) + self.turns;
        if let Some(face) = self.face {
            return (
                Pose {
                    facing: face,
                    ..pose
                },
                0,
            );
        }
        let mut at = Pose {
            speed: self.speed,
            ..pose
        };
        if self.turns == 0 {
            at.hex = at.hex.step(at.facing, self.speed as i32);
            return (at, points);
        }
        // Straight up to and including the first turn's hex, then one hex
        // per further turn, then straight to the end.
        let first = self.turn_at(0);
        at.hex = at.hex.step(at.facing, first as i32);
        at.facing = at.facing.turn(self.way);
        for _ in 1..self.turns {
            at.hex = at.hex.neighbour(at.facing);
            at.facing = at.facing.turn(self.way);
        }
        let rest = self.speed - (first + self.turns - 1);
        at.hex = at.hex.step(at.facing, rest as i32);
        (at, points)
    }

    fn maneuver(&self) -> Maneuver {
        Maneuver {
            speed: self.speed,
            turns: (0..self.turns)
                .map(|n| (self.turn_at(n), self.way))
                .collect(),
            face: self.face,
            release_masking_screen: false,
        }
    }
}

impl PercentileTactics for DefaultTactics {
    fn screen(&self, system: &Percentile, battle: &Battle, ship: usize) -> Option<Defence> {
        let me = &battle.board.ships[ship];
        let Some(enemy) = Self::enemy(battle, ship) else {
            return me.screen;
        };
        let foe = &battle.board.ships[enemy];
        // The enemy's summed chances to hit with each screen up; the screen
        // that lowers it most wins, and no screen if none lowers it.
        let threat = |screen: Option<Defence>| -> i32 {
            let mut in_use: ArrayVec<Column, 3> = ArrayVec::new();
            if me.defence(Defence::ReflectiveHull).is_some() {
                in_use.push(Column::ReflectiveHull);
            }
            if let Some(column) = screen.and_then(Defence::column) {
                in_use.push(column);
            }
            if me.masked {
                in_use.push(Column::MaskingScreen);
            }
            (0..foe.weapons.len())
                .filter(|&m| foe.can_fire(m))
                .map(|m| {
                    let w = system.rules.weapon(foe.weapons[m].weapon);
                    let (column, _) = cell_in_use(w, &in_use);
                    w.cells[column.index()].advanced
                })
                .sum()
        };
        let mut best = (threat(None), None);
        for d in [
            Defence::ProtonScreen,
            Defence::ElectronScreen,
            Defence::StasisScreen,
        ] {
            if me.defence(d).is_some() {
                let t = threat(Some(d));
                if t < best.0 {
                    best = (t, Some(d));
                }
            }
        }
        best.1
    }

    fn activate_seekers(
        &self,
        system: &Percentile,
        battle: &Battle,
        side: broadside_core::Side,
    ) -> Vec<usize> {
        // Seekers fly at the nearest ship that is not a space station.
        let alive = |i: &usize| {
            let ship = &battle.board.ships[*i];
            !ship.is_destroyed() && !system.rules.class(ship.class).station
        };
        (0..battle.seekers.len())
            .filter(|&s| {
                let seeker = battle.seekers[s];
                if seeker.owner != side || seeker.active {
                    return false;
                }
                let distance = |i: usize| seeker.hex.distance(battle.poses[i].hex);
                let nearest_enemy = (0..battle.board.ships.len())
                    .filter(alive)
                    .filter(|&i| battle.sides[i] != side)
                    .map(distance)
                    .min();
                let nearest_friend = (0..battle.board.ships.len())
                    .filter(alive)
                    .filter(|&i| battle.sides[i] == side)
                    .map(distance)
                    .min();
                match (nearest_enemy, nearest_friend) {
                    (Some(e), Some(f)) => e < f && f >= 3,
                    (Some(_), None) => true,
                    _ => false,
                }
            })
            .collect()
    }

    fn drops(&self, system: &Percentile, battle: &Battle, ship: usize) -> Vec<WeaponId> {
        let Some(enemy) = Self::enemy(battle, ship) else {
            return Vec::new();
        };
        let me = &battle.board.ships[ship];
        let here = battle.poses[ship].hex;
        let distance = here.distance(battle.poses[enemy].hex);
        let side = battle.sides[ship];
        let mut out = Vec::new();
        for m in 0..me.weapons.len() {
            if !me.can_fire(m) {
                continue;
            }
            let w = system.rules.weapon(me.weapons[m].weapon);
            if !w.placed || out.contains(&me.weapons[m].weapon) {
                continue;
            }
            let seeker = w.seeker;
            let wanted = if seeker {
                distance <= 10 && !battle.seekers.iter().any(|s| s.owner == side && !s.active)
            } else {
                distance <= 6
                    && !battle
                        .mines
                        .iter()
                        .any(|f| f.owner == side && f.hex == here)
            };
            if wanted {
                out.push(me.weapons[m].weapon);
            }
        }
        out
    }

    fn maneuver(&self, system: &Percentile, battle: &Battle, ship: usize) -> Maneuver {
        let (plan, release) = Self::plan(system, battle, ship);
        Maneuver {
            release_masking_screen: release,
            ..plan.maneuver()
        }
    }

    fn targets(
        &self,
        system: &Percentile,
        battle: &Battle,
        ship: usize,
        options: &[FireOption],
    ) -> Vec<usize> {
        let mut chosen: Vec<(usize, i32)> = Vec::new();
        for (index, option) in options.iter().enumerate() {
            let strike = Strike {
                weapon: option.weapon,
                attacker: Some(ship),
                target: option.target,
                range: option.range,
                head_on: option.head_on,
                icms: 0,
                icm_launcher: None,
            };
            let chance = system
                .to_hit_by(&battle.board, &strike, &mut NullSink)
                .chance;
            let w = system.rules.weapon(option.weapon);
            if w.limited_supply && chance < 20 {
                continue;
            }
            match chosen
                .iter_mut()
                .find(|(i, _)| options[*i].mount == option.mount)
            {
                Some(entry) if entry.1 < chance => *entry = (index, chance),
                Some(_) => {}
                None => chosen.push((index, chance)),
            }
        }
        chosen.into_iter().map(|(i, _)| i).collect()
    }

    fn icms(
        &self,
        system: &Percentile,
        battle: &Battle,
        weapon: WeaponId,
        target: usize,
    ) -> Option<(usize, u16)> {
        let w = system.rules.weapon(weapon);
        let side = battle.sides[target];
        let at = battle.poses[target].hex;
        let launcher = (0..battle.board.ships.len())
            .filter(|&i| {
                battle.sides[i] == side
                    && battle.poses[i].hex == at
                    && !battle.board.ships[i].is_destroyed()
            })
            .max_by_key(|&i| (battle.board.ships[i].icms_ready(), std::cmp::Reverse(i)))?;
        let ready = battle.board.ships[launcher].icms_ready();
        let wanted: u16 = match (w.moving_player_only, w.forward_firing, w.placed) {
            (true, false, _) => 3,               // torpedoes
            (true, true, _) | (_, _, true) => 2, // assault rockets, mines, seekers
            _ if ready >= 6 => 1,                // rocket batteries, with supply to spare
            _ => 0,
        };
        let n = wanted.min(ready);
        (n > 0).then_some((launcher, n))
    }

    fn repairs(&self, system: &Percentile, battle: &Battle, ship: usize) -> Vec<RepairAttempt> {
        let me = &battle.board.ships[ship];
        let mut wanted = vec![
            Repairable::Fire,
            Repairable::ShortCircuit,
            Repairable::Drive,
            Repairable::Steering,
            Repairable::CombatControl,
            Repairable::Navigation,
        ];
        wanted.extend((0..me.weapons.len()).map(Repairable::Weapon));
        wanted.push(Repairable::DamageControl);
        wanted.extend((0..me.defences.len()).map(Repairable::Defence));
        wanted.push(Repairable::Hull);
        let always_fails = system.rules.constants.repair_always_fails_at_least;
        let cap = u16::try_from(always_fails.saturating_sub(1)).unwrap_or(u16::MAX);
        let mut left = me.dcr;
        let mut out = Vec::new();
        for system_wanted in wanted {
            if left < 10 {
                break;
            }
            if !system.needs_repair(me, system_wanted) {
                continue;
            }
            if let Repairable::Weapon(m) = system_wanted
                && me.weapons[m].supply == Some(0)
            {
                continue;
            }
            let points = left.min(cap);
            left -= points;
            out.push(RepairAttempt {
                system: system_wanted,
                points,
            });
        }
        out
    }
}

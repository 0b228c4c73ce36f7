//! Decisions: the tactics trait every side plays by, and the default policy.
//!
//! The engine asks; tactics answer; the engine checks the answer against the
//! rules. A tactic that answers something illegal is a bug in the tactic,
//! reported as an internal error, never silently corrected.

use std::cmp::Reverse;

use arrayvec::ArrayVec;
use broadside_core::hex::{self, Direction, Hex};
use broadside_core::{MAX_SIDE, NullSink, Side};

use crate::Percentile;
use crate::attack::{IcmLaunch, IcmLaunches, Strike, cell_in_use};
use crate::engagement::{Battle, FireOption, Maneuver, Pose};
use crate::hazards::RepairAttempt;
use crate::model::{Column, Defence, WeaponId};
use crate::ship::{Repairable, Ship};

/// Every decision a side makes in an Advanced Game engagement.
///
/// # Contract for implementors
/// Answers must be legal: speed changes within ADF, turns within MR and one
/// per hex entered, only offered shots, each weapon once a phase, ICMs only
/// from ships of the target's side in its hex and within what each has
/// ready, every ship of the side moved once, repairs within DCR on damaged
/// systems. The engine refuses anything else as an internal error.
/// Implementations must be deterministic given the battle, so that a trial
/// replays exactly.
///
/// Required methods: all but [`PercentileTactics::move_order`], which is
/// provided (roster order).
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
    fn activate_seekers(&self, system: &Percentile, battle: &Battle, side: Side) -> Vec<usize>;
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
    /// ICMs against an incoming strike on `target`: each launching ship (of
    /// the target's side, in its hex, listed once) and how many it launches
    /// from those it has ready, in the order they are launched; empty for
    /// none. (A list kept inline: the question is asked of every strike.)
    fn icms(
        &self,
        system: &Percentile,
        battle: &Battle,
        weapon: WeaponId,
        target: usize,
    ) -> IcmLaunches;
    /// The ship's repair attempts in a Repair Turn.
    fn repairs(&self, system: &Percentile, battle: &Battle, ship: usize) -> Vec<RepairAttempt>;
    /// The order in which the side's ships in play move in its movement
    /// phase, each finishing its move before the next starts: every one of
    /// them, once. Asked after seekers have flown and drops are made.
    fn move_order(&self, system: &Percentile, battle: &Battle, side: Side) -> Vec<usize> {
        let _ = system;
        battle.ships_of(side).collect()
    }
}

/// The default policy, documented in the rules note:
/// - movement: close to a preferred range (1 hex with forward-firing
///   weapons, 2 otherwise), point forward-firing weapons at the enemy, avoid
///   overshooting, and weigh any break-apart chance heavily, so a badly
///   damaged ship holds its course rather than risk the manoeuvre;
/// - fleets: the side's largest ship in play (most original hull points,
///   the first in roster order on a tie) is its guide and moves first; every
///   other ship but the small evasive craft keeps station in the guide's
///   hex, where its hexmates' ICMs can cover it and an enemy seeker strikes
///   only the largest of them;
/// - fire: everything that bears; each weapon takes the side's focus (the
///   enemy in play that can still fight and has lost the largest share of
///   its hull) when its chance there is within 15 points of its best shot,
///   and otherwise the most damaged enemy within that margin; limited
///   supplies only at a 20% chance or better;
/// - ICMs: against torpedoes (up to 3), assault rockets, mines and seekers
///   (up to 2), rocket batteries (1, only with 6 or more ready in the hex),
///   drawn one at a time from whichever ship in the target's hex has the
///   most left;
/// - screens: the one that most lowers the summed chances of every enemy in
///   play; a masking screen when an enemy carries lasers and the ship can
///   fight on without its own, or is badly damaged;
/// - mines and seekers: dropped when an enemy is near, seekers activated
///   only when the nearest ship is an enemy and no friend is close;
/// - repairs: fire first, then drive, steering, control systems and
///   weapons, hull last, up to 89 points an attempt (90-00 always fails).
///
/// It never reads the enemy's mines or waiting seekers (ruling 37).
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultTactics;

/// What a follower's move scores for ending in its guide's hex, in the
/// units of a move's score (10 for each hex off the preferred range): enough
/// that an escort does not leave the stack to close a hex sooner alone.
const STATION_BONUS: i64 = 20;
/// What a follower's move loses for each hex it ends away from its guide.
const STATION_PENALTY_PER_HEX: i64 = 5;
/// How far below a weapon's best chance to hit a shot at the focus, or at a
/// more damaged enemy, may be and still be preferred.
const FOCUS_MARGIN: i32 = 15;

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

    /// The side's guide: its ship in play with the most original hull
    /// points, the first in roster order on a tie.
    pub fn guide(system: &Percentile, battle: &Battle, side: Side) -> Option<usize> {
        battle.ships_of(side).max_by_key(|&i| {
            (
                system.rules.class(battle.board.ships[i].class).hull,
                Reverse(i),
            )
        })
    }

    /// The share of its original hull a ship has lost, in thousandths
    /// (rounded down).
    fn damage_permille(system: &Percentile, ship: &Ship) -> i64 {
        let hull = i64::from(system.rules.class(ship.class).hull).max(1);
        i64::from(ship.damage_taken(&system.rules)) * 1000 / hull
    }

    /// The enemy a side concentrates its fire on: of the enemy ships in
    /// play, one that can still fight before one that cannot, then the one
    /// that has lost the largest share of its hull, then the nearest to the
    /// side's guide, then the first in roster order.
    pub fn focus(system: &Percentile, battle: &Battle, side: Side) -> Option<usize> {
        let guide = Self::guide(system, battle, side).map(|g| battle.poses[g].hex);
        battle.ships_of(side.other()).max_by_key(|&i| {
            let distance = guide.map_or(0, |g| g.distance(battle.poses[i].hex));
            (
                battle.ship_can_fight(i),
                Self::damage_permille(system, &battle.board.ships[i]),
                Reverse(distance),
                Reverse(i),
            )
        })
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

    /// The moves worth weighing: a few speeds (slowest, same, fastest, the
    /// speeds that would close to the preferred range, and `also`, a speed
    /// worth matching, when within ADF), each straight or with 1, 2 or all
    /// its MR in turns to one side, early or late in the move; and, for a
    /// stopped ship, every facing.
    fn candidates(
        pose: Pose,
        (adf, mr): (u32, u32),
        distance: u32,
        preferred: u32,
        also: Option<u32>,
    ) -> Vec<Plan> {
        let lo = pose.speed.saturating_sub(adf);
        let hi = pose.speed + adf;
        let aim = distance.saturating_sub(preferred).clamp(lo, hi);
        let mut speeds = vec![lo, pose.speed, hi, aim, aim.saturating_sub(1).max(lo)];
        speeds.extend(also.filter(|s| (lo..=hi).contains(s)));
        // Each speed, and each count of turns, is weighed once.
        speeds.sort_unstable();
        speeds.dedup();
        let mut out = Vec::with_capacity(64);
        for speed in speeds {
            out.push(Plan {
                speed,
                ..Plan::default()
            });
            let most = mr.min(speed);
            let mut counts = vec![1, 2, most];
            counts.retain(|turns| (1..=most).contains(turns));
            counts.sort_unstable();
            counts.dedup();
            for turns in counts {
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

    /// Whether the ship would like to sit inside a masking screen: an enemy
    /// in play carries lasers, and the ship can fight on without its own
    /// (which a screen would blunt too) or is badly damaged.
    fn wants_masking(system: &Percentile, battle: &Battle, ship: usize) -> bool {
        let me = &battle.board.ships[ship];
        let can_release = !me.masked
            && !me.damaged.short_circuit
            && me
                .defence(Defence::MaskingScreen)
                .and_then(|m| m.supply)
                .unwrap_or(0)
                > 0;
        let lasers_against = || {
            battle
                .ships_of(battle.sides[ship].other())
                .any(|e| Self::has_ready(system, &battle.board.ships[e], |w| w.laser) > 0)
        };
        if !can_release || !lasers_against() {
            return false;
        }
        let my_lasers = Self::has_ready(system, me, |w| w.laser);
        let my_others = Self::has_ready(system, me, |w| !w.laser && !w.placed);
        my_others >= my_lasers || me.severely_damaged(&system.rules)
    }

    /// Where a ship keeps station, if it keeps one: its guide's pose, for any
    /// ship but the guide itself and the evasive small craft, which skirmish
    /// on their own. The guide moves first, so this is where its move ended.
    fn station(system: &Percentile, battle: &Battle, ship: usize) -> Option<Pose> {
        if battle.board.ships[ship].is_evasive(&system.rules) {
            return None;
        }
        let guide = Self::guide(system, battle, battle.sides[ship])?;
        (guide != ship).then(|| battle.poses[guide])
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
        let masking = me.masked || Self::wants_masking(system, battle, ship);
        let (adf, mr) = (u32::from(me.adf), u32::from(me.mr));
        let enemy_pose = battle.poses[enemy];
        let target: Hex = enemy_pose.hex;
        let preferred = Self::preferred_range(system, me);
        let has_ff = Self::has_ready(system, me, |w| w.forward_firing) > 0;
        let enemy_ff =
            Self::has_ready(system, &battle.board.ships[enemy], |w| w.forward_firing) > 0;
        let distance = pose.hex.distance(target);
        let station = Self::station(system, battle, ship);
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
            if let Some(guide) = station {
                s += match end.hex.distance(guide.hex) {
                    0 => STATION_BONUS,
                    off => -STATION_PENALTY_PER_HEX * i64::from(off),
                };
            }
            s - 2 * i64::from(system.break_apart_chance(me, points))
        };
        // Holding course is weighed first, so it wins every tie.
        let mut best = hold;
        let mut best_score = score(&hold);
        // A follower also weighs its guide's speed, so that one stacked with
        // it can repeat its move exactly.
        let also = station.map(|guide| guide.speed);
        for plan in Self::candidates(pose, (adf, mr), distance, preferred, also) {
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
        let foes: ArrayVec<&Ship, MAX_SIDE> = battle
            .ships_of(battle.sides[ship].other())
            .take(MAX_SIDE)
            .map(|i| &battle.board.ships[i])
            .collect();
        if foes.is_empty() {
            return me.screen;
        }
        // Every enemy's summed chances to hit with each screen up; the screen
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
            foes.iter()
                .flat_map(|foe| {
                    (0..foe.weapons.len())
                        .filter(|&m| foe.can_fire(m))
                        .map(|m| foe.weapons[m].weapon)
                })
                .map(|weapon| {
                    let w = system.rules.weapon(weapon);
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

    fn activate_seekers(&self, system: &Percentile, battle: &Battle, side: Side) -> Vec<usize> {
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
        // An option's chance to hit, or `None` for a limited supply not
        // worth spending at under 20%.
        let worth = |option: &FireOption| {
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
            (!w.limited_supply || chance >= 20).then_some(chance)
        };
        let mut mounts: Vec<usize> = Vec::new();
        for option in options {
            if !mounts.contains(&option.mount) {
                mounts.push(option.mount);
            }
        }
        // With one option per weapon (always so against a lone enemy) each
        // weapon's only shot is its best, whatever the focus: it fires when
        // worth it, and the ranking below is not needed.
        if mounts.len() == options.len() {
            return options
                .iter()
                .enumerate()
                .filter(|&(_, o)| worth(o).is_some())
                .map(|(i, _)| i)
                .collect();
        }
        let chances: Vec<Option<i32>> = options.iter().map(worth).collect();
        let focus = Self::focus(system, battle, battle.sides[ship]);
        // Each weapon fires once, at the best of the shots within the margin
        // of its likeliest hit: the focus, then the enemy that can fight and
        // has lost most, then the likeliest hit, then the first offered.
        mounts
            .into_iter()
            .filter_map(|mount| {
                let shots = || {
                    (0..options.len())
                        .filter(move |&i| options[i].mount == mount)
                        .filter_map(|i| chances[i].map(|c| (i, c)))
                };
                let best = shots().map(|(_, c)| c).max()?;
                shots()
                    .filter(|&(_, c)| c >= best - FOCUS_MARGIN)
                    .max_by_key(|&(i, c)| {
                        let target = options[i].target;
                        (
                            Some(target) == focus,
                            battle.ship_can_fight(target),
                            Self::damage_permille(system, &battle.board.ships[target]),
                            c,
                            Reverse(i),
                        )
                    })
                    .map(|(i, _)| i)
            })
            .collect()
    }

    fn icms(
        &self,
        system: &Percentile,
        battle: &Battle,
        weapon: WeaponId,
        target: usize,
    ) -> IcmLaunches {
        let w = system.rules.weapon(weapon);
        if w.per_icm.is_none() {
            return IcmLaunches::new();
        }
        let side = battle.sides[target];
        let at = battle.poses[target].hex;
        // What each ship of the side in the target's hex has ready.
        let mut left: ArrayVec<(usize, u16), MAX_SIDE> = battle
            .ships_of(side)
            .filter(|&i| battle.poses[i].hex == at)
            .map(|i| (i, battle.board.ships[i].icms_ready()))
            .filter(|&(_, ready)| ready > 0)
            .take(MAX_SIDE)
            .collect();
        let ready = left.iter().fold(0u16, |sum, &(_, n)| sum.saturating_add(n));
        let wanted: u16 = match (w.moving_player_only, w.forward_firing, w.placed) {
            (true, false, _) => 3,               // torpedoes
            (true, true, _) | (_, _, true) => 2, // assault rockets, mines, seekers
            _ if ready >= 6 => 1,                // rocket batteries, with supply to spare
            _ => 0,
        };
        // One ICM at a time from whichever ship has the most left (the first
        // in roster order on a tie), so that no one ship is emptied first.
        // `launched[k]` counts the ICMs of `left[k]`; `order` lists the
        // launchers by their first ICM.
        let mut launched = [0u16; MAX_SIDE];
        let mut order: ArrayVec<usize, MAX_SIDE> = ArrayVec::new();
        for _ in 0..wanted.min(ready) {
            let Some((k, from)) = left
                .iter_mut()
                .enumerate()
                .filter(|(_, (_, n))| *n > 0)
                .max_by_key(|(_, (i, n))| (*n, Reverse(*i)))
            else {
                break;
            };
            from.1 -= 1;
            if launched[k] == 0 {
                order.push(k);
            }
            launched[k] += 1;
        }
        let mut launches = IcmLaunches::new();
        for &k in &order {
            // As many launchers as ships of a side: each fits.
            let _ = launches.push(IcmLaunch {
                ship: left[k].0,
                count: launched[k],
            });
        }
        launches
    }

    fn move_order(&self, system: &Percentile, battle: &Battle, side: Side) -> Vec<usize> {
        // The guide first, so that the others keep station on where its move
        // ends; then the rest in roster order.
        let guide = Self::guide(system, battle, side);
        guide
            .into_iter()
            .chain(battle.ships_of(side).filter(|&i| Some(i) != guide))
            .collect()
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

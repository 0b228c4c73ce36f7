//! Decisions: the tactics trait every side plays by, and the default policy.
//!
//! The engine asks; tactics answer; the engine checks the answer against the
//! rules. A tactic that answers something illegal is a bug in the tactic,
//! reported as an internal error, never silently corrected.

use arrayvec::ArrayVec;

use crate::Crew2d6;
use crate::attack::{Incoming, Reactions};
use crate::battle::{Battle, ShipId};
use crate::check::Checker;
use crate::model::{Band, Position, Task, WeaponId, WeaponKind};
use crate::ship::{Condition, MAX_MOUNTS};

/// What can be repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repairable {
    /// A critical hit location, by index (`roll - 2`): jury-rigged.
    Location(u8),
    /// A weapon suffering a Bane or disabled, by slot.
    Weapon(u8),
}

/// One position's action in the attack step. Every action that works on
/// an enemy names the enemy ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Captain: Inspire the crew (chained into next turn's initiative).
    Inspire,
    /// Sensor Operator: Scan the enemy.
    Scan,
    /// Sensor Operator: jam an enemy ship's sensors for next turn.
    JamSensors {
        /// The ship jammed.
        target: ShipId,
    },
    /// Sensor Operator: find a targeting solution for one mount's attack on
    /// an enemy ship.
    TargetingSolution {
        /// The mount whose attack it feeds.
        mount: u8,
        /// The ship the solution is for.
        target: ShipId,
    },
    /// Comms Officer: jam an enemy ship's comms for next turn.
    JamComms {
        /// The ship jammed.
        target: ShipId,
    },
    /// Comms Officer: communicate with another ship or a nearby world.
    Communicate,
    /// An Engineer: repair systems.
    Repair {
        /// What.
        target: Repairable,
    },
    /// The J-drive Engineer: activate the jump drive at a jump point.
    Jump,
    /// A mount's gunner: aim at an enemy ship.
    Aim {
        /// The mount.
        mount: u8,
        /// The ship aimed at.
        target: ShipId,
    },
    /// A mount's gunner (the Pilot for fixed mounts): fire its identical
    /// weapons of one kind at an enemy ship.
    Fire {
        /// The mount.
        mount: u8,
        /// The weapon.
        weapon: WeaponId,
        /// The ship fired at.
        target: ShipId,
    },
    /// A gunner of a mount with launchers: launch a salvo at an enemy ship.
    Launch {
        /// The missile.
        weapon: WeaponId,
        /// Missiles in the salvo.
        missiles: u8,
        /// The ship it attacks.
        target: ShipId,
    },
}

impl Action {
    /// The enemy ship the action works on, if it works on one.
    pub fn target(&self) -> Option<ShipId> {
        match *self {
            Action::JamSensors { target }
            | Action::JamComms { target }
            | Action::TargetingSolution { target, .. }
            | Action::Aim { target, .. }
            | Action::Fire { target, .. }
            | Action::Launch { target, .. } => Some(target),
            Action::Inspire
            | Action::Scan
            | Action::Communicate
            | Action::Repair { .. }
            | Action::Jump => None,
        }
    }

    /// The order a ship's actions are carried out in: supporting actions
    /// before the attacks they support.
    pub fn priority(&self) -> u8 {
        match self {
            Action::Inspire => 0,
            Action::Scan
            | Action::JamSensors { .. }
            | Action::JamComms { .. }
            | Action::Communicate => 1,
            Action::TargetingSolution { .. } => 2,
            Action::Repair { .. } => 3,
            Action::Jump => 4,
            Action::Aim { .. } => 5,
            Action::Fire { .. } | Action::Launch { .. } => 6,
        }
    }
}

/// One position's order for the attack step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Order {
    /// The crew member, by index in the class's crew.
    pub person: u8,
    /// The position they act in: the rules give one action per position,
    /// so a person holding several positions may act in each.
    pub position: Position,
    /// What they do.
    pub action: Action,
}

/// The most positions a ship has: the seven named positions and one Gunner
/// per mount.
pub const MAX_POSITIONS: usize = 7 + MAX_MOUNTS;

/// A ship's orders for one attack step: at most one per position.
pub type Orders = ArrayVec<Order, MAX_POSITIONS>;

/// The Pilot's Maneuver: thrust toward (+) or away from (-) one enemy ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Maneuver {
    /// The enemy ship maneuvered against.
    pub target: ShipId,
    /// Thrust applied, toward (+) or away from (-) it; never 0.
    pub thrust: i32,
}

/// The Pilot's combat maneuver, after the range is adjusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CombatManeuver {
    /// None.
    None,
    /// Line up a shot for one mount's next attack on an enemy ship (one
    /// thrust).
    LineUpShot {
        /// The mount.
        mount: u8,
        /// The ship the shot is lined up on.
        target: ShipId,
    },
    /// Attempt to board an enemy ship at Adjacent range (one thrust).
    Boarding {
        /// The ship boarded.
        target: ShipId,
    },
}

/// Every decision a side makes in an engagement, asked ship by ship.
///
/// # Contract for implementors
/// Each method is asked for one ship of the side the tactics play, and its
/// answer concerns that ship. Answers must be legal: thrust within what is
/// left, actions only by crew members holding the position, each position
/// once a phase, targets that are enemy ships still in the fight, weapons
/// that can fire at the band to their target, salvos within launchers and
/// magazine, reactions the ship can make. The engine refuses anything else
/// as an internal error. Implementations must be deterministic given the
/// battle, so that a trial replays exactly.
pub trait CrewTactics: Send + Sync {
    /// Whether the Engineer overcharges the engines this round.
    fn overcharge(&self, system: &Crew2d6, battle: &Battle, ship: ShipId) -> bool;
    /// The Pilot's Maneuver, or `None` for no Maneuver action.
    fn maneuver(&self, system: &Crew2d6, battle: &Battle, ship: ShipId) -> Option<Maneuver>;
    /// The Pilot's combat maneuver after the range is adjusted.
    fn combat_maneuver(&self, system: &Crew2d6, battle: &Battle, ship: ShipId) -> CombatManeuver;
    /// The crew's actions in the attack step.
    fn actions(&self, system: &Crew2d6, battle: &Battle, ship: ShipId) -> Orders;
    /// Reactions to an incoming attack on the ship, seen after its dice
    /// for direct fire and before them for a salvo.
    fn reactions(
        &self,
        system: &Crew2d6,
        battle: &Battle,
        ship: ShipId,
        incoming: &Incoming,
    ) -> Reactions;
}

/// How a side's ships choose the enemy they concentrate on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Focus {
    /// The enemy with the fewest hull points left (the closest to wrecked)
    /// among those the ship can attack now; the nearer, then the first in
    /// the roster, on a tie.
    #[default]
    Weakest,
    /// The nearest enemy the ship can attack now; the one with fewer hull
    /// points, then the first in the roster, on a tie.
    Nearest,
}

/// The `focus` side option's values, in [`Focus`] order.
pub const FOCUS_IDS: &[&str] = &["weakest", "nearest"];

impl Focus {
    /// The focus named by a `focus` option value.
    pub fn from_id(id: &str) -> Option<Focus> {
        match id {
            "weakest" => Some(Focus::Weakest),
            "nearest" => Some(Focus::Nearest),
            _ => None,
        }
    }
}

/// The default policy, documented in the rules note. Every ship of a side
/// applies it to the same state, so the side concentrates without talking:
/// - target: the focus target is the enemy picked by [`Focus`] among those
///   the ship can attack now (a weapon reaches it, or a launcher with
///   missiles and sensors that reach it); when it can attack none, the
///   nearest enemy (the fewest hull points, then the roster, on a tie);
///   each mount fires at the focus target if it can, else at the enemy it
///   can hit that the same rule prefers;
/// - flight: a ship at a jump point jumps when its hull is down to half or
///   the enemy side has twice its side's hull left in the fight; until then
///   it holds the point while its weapons reach an enemy;
/// - range: close on the focus target to Short range (the best band for
///   every direct-fire weapon; Adjacent when boarding) with the thrust still
///   needed to get there, counting the thrust the target has applied this
///   round, keeping one point for a dodge; a ship with only missiles holds
///   its range; overcharge only with an Engineer whose DM is +1 or better,
///   so that a drive-damaging Effect of -4 needs a 2 or 3 on the dice;
/// - combat maneuvering: when boarding is asked for, attempt it on the
///   focus target at Adjacent range until the two are grappled; otherwise
///   line up a shot for the hardest-hitting mount that will fire, on its
///   target, when two thrust are left (one stays for a dodge);
/// - every position once: the J-drive Engineer jumps when fleeing; each
///   mount's gunner (the Pilot for a fixed mount) fires its hardest-hitting
///   weapon in range, else launches every missile it can at the focus
///   target, else aims at it (up to the limit); the Sensor Operator finds a
///   targeting solution for the hardest-hitting mount firing, on its
///   target, or else jams the focus target's sensors; the Comms Officer has
///   nothing to do that changes the fight; a point-defence mount is held
///   back (and aims) when a salvo aimed at the ship can reach it this round
///   and another mount can defend; each Engineer position repairs something
///   different (disabled weapons first, then the worst repairable location,
///   counting damage that only stops a jump only at a jump point, then
///   weapons under a Bane); the Captain inspires;
/// - reactions, within the allowance, burning one more only against a
///   direct-fire hit of Effect 4 or more or a salvo of three missiles or
///   more: against direct fire that would hit, dodge then sand; against a
///   salvo (whose attack is rolled after the reactions), point defence with
///   every free mount, then ECM, then a dodge.
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultTactics {
    /// Attempt boarding actions: close to Adjacent range and board there
    /// (the options `board` and a side's `board`; the boarding fight itself
    /// is outside these rules, so the default leaves it).
    pub board: bool,
    /// How the side's ships pick their focus target (a side's `focus`).
    pub focus: Focus,
}

/// A ranking key for enemy ships: lower is preferred.
type Rank = (i32, i32, u8);

/// What one mount fires, with its score, and at whom; `None` when it
/// cannot fire.
type MountFire = Option<(i32, WeaponId, ShipId)>;

impl DefaultTactics {
    /// How `focus` ranks an enemy of `ship`.
    fn rank(&self, battle: &Battle, ship: ShipId, enemy: ShipId) -> Rank {
        let hull = battle.ship(enemy).hull;
        let band = battle.band(ship, enemy).index() as i32;
        match self.focus {
            Focus::Weakest => (hull, band, enemy.0),
            Focus::Nearest => (band, hull, enemy.0),
        }
    }

    /// The enemy ship `ship` concentrates on: the best ranked among those
    /// it can attack now, else the nearest. `None` when no enemy is left.
    pub fn focus_target(&self, system: &Crew2d6, battle: &Battle, ship: ShipId) -> Option<ShipId> {
        let mut present = battle.enemies_of(ship).filter(|&e| battle.present(e));
        let first = present.next()?;
        // The one enemy left needs no ranking.
        if present.next().is_none() {
            return Some(first);
        }
        let mut best: Option<(bool, Rank, ShipId)> = None;
        for enemy in battle.enemies_of(ship).filter(|&e| battle.present(e)) {
            let unreachable = !Self::can_attack(system, battle, ship, enemy);
            let rank = if unreachable {
                let near = Self {
                    focus: Focus::Nearest,
                    ..*self
                };
                near.rank(battle, ship, enemy)
            } else {
                self.rank(battle, ship, enemy)
            };
            let key = (unreachable, rank, enemy);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        best.map(|(_, _, enemy)| enemy)
    }

    /// Whether `ship` can attack `target` now: a weapon reaches it, or a
    /// launcher with missiles whose sensors reach it.
    pub fn can_attack(system: &Crew2d6, battle: &Battle, ship: ShipId, target: ShipId) -> bool {
        let class = battle.ship(ship).class(&system.rules);
        (0..class.mounts.len() as u8).any(|m| {
            Self::best_fire(system, battle, ship, m, target).is_some()
                || (class.mounts[usize::from(m)].firer.is_some()
                    && Self::launch_for(system, battle, ship, m, &[], target).is_some())
        })
    }

    /// Whether the ship should jump away now.
    pub fn flees(system: &Crew2d6, battle: &Battle, ship: ShipId) -> bool {
        let rules = &system.rules;
        let state = battle.state(ship);
        let own = battle.ship(ship);
        let class = own.class(rules);
        if !state.at_jump_point
            || own.standing.no_jump
            || battle.grappled(ship)
            || class.holder(Position::EngineerJDrive).is_none()
        {
            return false;
        }
        // A side weighs the hull its ships still have in the fight.
        let hull = |side| -> i32 {
            battle
                .of(side)
                .filter(|&s| battle.present(s))
                .map(|s| battle.ship(s).hull)
                .sum()
        };
        let side = battle.side_of(ship);
        own.hull * 2 <= class.hull || hull(side.other()) >= 2 * hull(side)
    }

    /// The band the ship wants from `target`: Adjacent when boarding;
    /// Short with direct-fire weapons, where every one of them reaches with
    /// the best DM; otherwise where it is.
    pub fn preferred_band(
        &self,
        system: &Crew2d6,
        battle: &Battle,
        ship: ShipId,
        target: ShipId,
    ) -> Band {
        if self.board {
            return Band::Adjacent;
        }
        let rules = &system.rules;
        let own = battle.ship(ship);
        let class = own.class(rules);
        let direct = class.slots.iter().zip(&own.weapons).any(|(slot, c)| {
            *c != Condition::Destroyed && rules.weapon(slot.weapon).kind == WeaponKind::Direct
        });
        if direct {
            Band::Short
        } else {
            battle.band(ship, target)
        }
    }

    /// The net thrust, toward (+) or away (-), that would bring two enemy
    /// ships from where they are to `band`, counting thrust already
    /// accumulated between them.
    pub fn thrust_to(
        system: &Crew2d6,
        battle: &Battle,
        ship: ShipId,
        target: ShipId,
        band: Band,
    ) -> i32 {
        let rules = &system.rules;
        let cost = |b: Band| rules.band(b).thrust;
        let pair = battle.pair(ship, target);
        let mut at = pair.band;
        if at > band {
            let mut needed = cost(at) - pair.closing;
            while let Some(next) = at.closer() {
                if next <= band {
                    break;
                }
                needed += cost(next);
                at = next;
            }
            needed.max(0)
        } else if at < band {
            let mut needed = cost(at) + pair.closing;
            while let Some(next) = at.farther() {
                if next >= band {
                    break;
                }
                needed += cost(next);
                at = next;
            }
            -needed.max(0)
        } else {
            0
        }
    }

    /// Whether some direct-fire weapon of the ship reaches an enemy now.
    fn reaches(system: &Crew2d6, battle: &Battle, ship: ShipId) -> bool {
        let mounts = battle.ship(ship).class(&system.rules).mounts.len() as u8;
        battle.enemies_of(ship).any(|enemy| {
            (0..mounts).any(|m| Self::best_fire(system, battle, ship, m, enemy).is_some())
        })
    }

    /// The hardest-hitting weapon of one mount that can fire at `target`
    /// now, with its score.
    fn best_fire(
        system: &Crew2d6,
        battle: &Battle,
        ship: ShipId,
        mount: u8,
        target: ShipId,
    ) -> Option<(i32, WeaponId)> {
        let rules = &system.rules;
        let class = battle.ship(ship).class(rules);
        let m = class.mounts.get(usize::from(mount))?;
        let mut best: Option<(i32, WeaponId)> = None;
        for (i, &s) in m.slots.iter().enumerate() {
            let weapon = class.slots[usize::from(s)].weapon;
            // Identical weapons of a mount fire together and score alike, so
            // only the first of them is weighed: a later one would tie, and a
            // tie keeps the earlier.
            if m.slots[..i]
                .iter()
                .any(|&t| class.slots[usize::from(t)].weapon == weapon)
                || !system.can_fire(battle, ship, target, mount, weapon)
            {
                continue;
            }
            let count = system.firing_slots(battle, ship, mount, weapon).len() as i32;
            let w = rules.weapon(weapon);
            let dice = w.damage.map_or(0, |d| {
                i32::try_from(d.count * (d.die.sides() + 1)).unwrap_or(0)
            });
            let score = (dice * count + 2 * w.attack_dm) * rules.mount_kind(m.kind).multiplier;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, weapon));
            }
        }
        best
    }

    /// What one mount fires and at whom: at the focus target if it can,
    /// else at the enemy it can hit that the side's focus rule prefers.
    fn mount_fire(
        &self,
        system: &Crew2d6,
        battle: &Battle,
        ship: ShipId,
        mount: u8,
        focus: ShipId,
    ) -> Option<(i32, WeaponId, ShipId)> {
        if let Some((score, weapon)) = Self::best_fire(system, battle, ship, mount, focus) {
            return Some((score, weapon, focus));
        }
        let mut best: Option<(Rank, i32, WeaponId, ShipId)> = None;
        for enemy in battle.enemies_of(ship).filter(|&e| e != focus) {
            if let Some((score, weapon)) = Self::best_fire(system, battle, ship, mount, enemy) {
                let rank = self.rank(battle, ship, enemy);
                if best.is_none_or(|(b, ..)| rank < b) {
                    best = Some((rank, score, weapon, enemy));
                }
            }
        }
        best.map(|(_, score, weapon, enemy)| (score, weapon, enemy))
    }

    /// The hardest-hitting mount that can fire now, leaving out `skip`, and
    /// its target.
    fn best_mount(
        &self,
        system: &Crew2d6,
        battle: &Battle,
        ship: ShipId,
        skip: Option<u8>,
        focus: ShipId,
    ) -> Option<(u8, ShipId)> {
        self.best_mount_with(system, battle, ship, skip, focus, &[None; MAX_MOUNTS])
    }

    /// [`Self::best_mount`], taking what a mount fires from `weighed` where
    /// it has already been worked out for this battle.
    fn best_mount_with(
        &self,
        system: &Crew2d6,
        battle: &Battle,
        ship: ShipId,
        skip: Option<u8>,
        focus: ShipId,
        weighed: &[Option<MountFire>; MAX_MOUNTS],
    ) -> Option<(u8, ShipId)> {
        let mounts = battle.ship(ship).class(&system.rules).mounts.len() as u8;
        let mut best: Option<(i32, u8, ShipId)> = None;
        for m in (0..mounts).filter(|&m| Some(m) != skip) {
            let fire = weighed
                .get(usize::from(m))
                .copied()
                .flatten()
                .unwrap_or_else(|| self.mount_fire(system, battle, ship, m, focus));
            if let Some((score, _, target)) = fire
                && best.is_none_or(|(b, ..)| score > b)
            {
                best = Some((score, m, target));
            }
        }
        best.map(|(_, m, target)| (m, target))
    }

    /// A salvo one mount's gunner can launch at `target` now: the missile
    /// and how many.
    fn launch_for(
        system: &Crew2d6,
        battle: &Battle,
        ship: ShipId,
        mount: u8,
        launched: &[WeaponId],
        target: ShipId,
    ) -> Option<(WeaponId, u8)> {
        let rules = &system.rules;
        let own = battle.ship(ship);
        let class = own.class(rules);
        if battle.band(ship, target) > own.standing.max_band {
            return None;
        }
        let m = class.mounts.get(usize::from(mount))?;
        for &s in &m.slots {
            let weapon = class.slots[usize::from(s)].weapon;
            if rules.weapon(weapon).kind != WeaponKind::Missile || launched.contains(&weapon) {
                continue;
            }
            let magazine = own.magazine(rules, weapon).unwrap_or(0);
            let launchers = system.launchers(battle, ship, weapon);
            let n = u16::from(launchers).min(magazine);
            if n > 0 {
                return Some((weapon, n as u8));
            }
        }
        None
    }

    /// Whether a mount can aim at `target`: it has a usable direct-fire
    /// weapon and has aimed at that target fewer times than the limit (an
    /// aim at another target starts again).
    fn can_aim(system: &Crew2d6, battle: &Battle, ship: ShipId, mount: u8, target: ShipId) -> bool {
        let rules = &system.rules;
        let own = battle.ship(ship);
        let class = own.class(rules);
        let state = battle.state(ship);
        class.mounts.get(usize::from(mount)).is_some_and(|m| {
            let usable = m.slots.iter().any(|&s| {
                own.weapons[usize::from(s)].usable()
                    && rules.weapon(class.slots[usize::from(s)].weapon).kind == WeaponKind::Direct
            });
            let m = usize::from(mount);
            usable
                && (state.aim[m] < rules.constants.aim_max
                    || (state.aim[m] > 0 && state.aim_target[m] != target))
        })
    }

    /// The point-defence mount to hold back, if any: when a salvo aimed at
    /// this ship attacks this round, or an enemy within a band its missiles
    /// cross in a round can launch one, and the ship has another mount that
    /// can defend, the mount with the fewest point-defence weapons waits.
    fn point_defence_reserve(system: &Crew2d6, battle: &Battle, ship: ShipId) -> Option<u8> {
        let rules = &system.rules;
        let arriving = battle
            .salvos
            .iter()
            .any(|s| s.target == ship && s.rounds_left == 0);
        let can_launch = || {
            battle.enemies_of(ship).any(|enemy| {
                let enemy_ship = battle.ship(enemy);
                battle.present(enemy)
                    && rules.band(battle.band(ship, enemy)).missile_flight == 0
                    && enemy_ship.class(rules).magazines.iter().any(|&(w, _)| {
                        rules.weapon(w).kind == WeaponKind::Missile
                            && enemy_ship.magazine(rules, w).unwrap_or(0) > 0
                            && system.launchers(battle, enemy, w) > 0
                    })
            })
        };
        if !arriving && !can_launch() {
            return None;
        }
        let mounts = system.point_defence_mounts(battle, ship);
        if mounts.len() < 2 {
            return None;
        }
        mounts.last().map(|(m, _)| *m)
    }

    /// What the Engineers repair, most pressing first: disabled weapons,
    /// then repairable locations from the worst, then weapons under a Bane.
    fn repair_targets(system: &Crew2d6, battle: &Battle, ship: ShipId) -> ArrayVec<Repairable, 32> {
        let own = battle.ship(ship);
        let mut out: ArrayVec<Repairable, 32> = ArrayVec::new();
        for s in (0..own.weapons.len()).filter(|&s| own.weapons[s] == Condition::Disabled) {
            let _ = out.try_push(Repairable::Weapon(s as u8));
        }
        let at_jump_point = battle.state(ship).at_jump_point;
        let matters = |l: usize| {
            // Damage that only hinders a jump matters only at a jump point.
            let standing =
                system.rules.criticals.locations[l].cumulative[usize::from(own.severity[l])];
            let jump_only = standing.thrust_loss == 0
                && !standing.thrust_zero
                && standing.max_band == Band::Distant
                && standing.disables == 0
                && standing.dm_for(crate::model::ALL_GROUPS & !crate::model::Group::Jump.bit())
                    == 0;
            !jump_only || at_jump_point
        };
        let mut locations: ArrayVec<usize, 16> = (0..own.severity.len())
            .filter(|&l| {
                system.can_repair(battle, ship, Repairable::Location(l as u8)) && matters(l)
            })
            .collect();
        // The worst first; the lower location breaks ties.
        locations.sort_unstable_by_key(|&l| (std::cmp::Reverse(own.severity[l]), l));
        for l in locations {
            let _ = out.try_push(Repairable::Location(l as u8));
        }
        for s in (0..own.weapons.len()).filter(|&s| own.weapons[s] == Condition::Bane) {
            let _ = out.try_push(Repairable::Weapon(s as u8));
        }
        out
    }
}

impl CrewTactics for DefaultTactics {
    fn overcharge(&self, system: &Crew2d6, battle: &Battle, ship: ShipId) -> bool {
        let rules = &system.rules;
        let own = battle.ship(ship);
        if own.thrust(rules) == 0 || Self::flees(system, battle, ship) {
            return false;
        }
        if battle.state(ship).at_jump_point && Self::reaches(system, battle, ship) {
            return false;
        }
        let Some(target) = self.focus_target(system, battle, ship) else {
            return false;
        };
        if battle.band(ship, target) <= self.preferred_band(system, battle, ship, target) {
            return false;
        }
        let class = own.class(rules);
        let label = battle.labels[ship.index()];
        [Position::EngineerMDrive, Position::EngineerPower]
            .into_iter()
            .filter_map(|p| class.holder(p))
            .any(|p| {
                let checker = Checker {
                    ship: own,
                    label,
                    person: p,
                    task: Task::Overcharge,
                    mount_skill: None,
                    also_skill: None,
                    bane: false,
                    reading: crate::check::Reading::Logged,
                };
                let (level, _) = system.skill_level(&checker);
                let (_, _, dm) = system.characteristic(&checker);
                level + dm + system.ship_dm(own, Task::Overcharge) >= 1
            })
    }

    fn maneuver(&self, system: &Crew2d6, battle: &Battle, ship: ShipId) -> Option<Maneuver> {
        let state = battle.state(ship);
        if state.acted & Position::Pilot.bit() != 0 || Self::flees(system, battle, ship) {
            return None;
        }
        if state.at_jump_point && Self::reaches(system, battle, ship) {
            return None;
        }
        let target = self.focus_target(system, battle, ship)?;
        let left = state.thrust_left;
        let spend = if left >= 2 { left - 1 } else { left };
        let preferred = self.preferred_band(system, battle, ship, target);
        // Only the thrust still needed to reach the band, counting what the
        // target has already applied this round, which moves its every
        // pair, so as not to overshoot.
        let theirs = battle.state(target);
        let their_thrust = if theirs.maneuver_target.is_some() && !battle.grappled(target) {
            theirs.applied
        } else {
            0
        };
        let needed = Self::thrust_to(system, battle, ship, target, preferred) - their_thrust;
        let thrust = needed.clamp(-spend, spend);
        (thrust != 0).then_some(Maneuver { target, thrust })
    }

    fn combat_maneuver(&self, system: &Crew2d6, battle: &Battle, ship: ShipId) -> CombatManeuver {
        let rules = &system.rules;
        let Some(focus) = self.focus_target(system, battle, ship) else {
            return CombatManeuver::None;
        };
        let thrust_left = battle.state(ship).thrust_left;
        let pair = battle.pair(ship, focus);
        if self.board
            && pair.band == Band::Adjacent
            && !pair.grappled
            && thrust_left >= rules.task(Task::Boarding).thrust
            && !battle
                .ship(ship)
                .standing
                .disabled(rules.task(Task::Boarding).groups)
        {
            return CombatManeuver::Boarding { target: focus };
        }
        if thrust_left < 1 + rules.task(Task::LineUpShot).thrust {
            return CombatManeuver::None;
        }
        let reserved = Self::point_defence_reserve(system, battle, ship);
        match self.best_mount(system, battle, ship, reserved, focus) {
            Some((mount, target)) => CombatManeuver::LineUpShot { mount, target },
            None => CombatManeuver::None,
        }
    }

    fn actions(&self, system: &Crew2d6, battle: &Battle, ship: ShipId) -> Orders {
        let rules = &system.rules;
        let own = battle.ship(ship);
        let class = own.class(rules);
        let mut orders = Orders::new();
        let Some(focus) = self.focus_target(system, battle, ship) else {
            return orders;
        };
        // A point-defence mount is held back when missiles are coming this
        // round and another mount can still defend.
        let reserved = Self::point_defence_reserve(system, battle, ship);
        // Each mount's firing position: fire, else launch, else aim.
        let mut launched: ArrayVec<WeaponId, 4> = ArrayVec::new();
        // What each mount weighed for firing would fire: the battle does not
        // change while the orders are chosen, so the Sensor Operator's pick
        // below reuses it rather than weighing every mount again.
        let mut weighed = [None; MAX_MOUNTS];
        for m in 0..class.mounts.len() as u8 {
            let Some(person) = class.mounts[usize::from(m)].firer else {
                continue;
            };
            let position = rules.mount_position(class, m);
            if has_order(&orders, position) {
                continue;
            }
            let fire = (Some(m) != reserved)
                .then(|| {
                    let fire = self.mount_fire(system, battle, ship, m, focus);
                    weighed[usize::from(m)] = Some(fire);
                    fire
                })
                .flatten();
            if let Some((_, weapon, target)) = fire {
                order(
                    &mut orders,
                    person,
                    position,
                    Action::Fire {
                        mount: m,
                        weapon,
                        target,
                    },
                );
            } else if let Some((weapon, missiles)) =
                Self::launch_for(system, battle, ship, m, &launched, focus)
            {
                let _ = launched.try_push(weapon);
                order(
                    &mut orders,
                    person,
                    position,
                    Action::Launch {
                        weapon,
                        missiles,
                        target: focus,
                    },
                );
            } else if Self::can_aim(system, battle, ship, m, focus) {
                order(
                    &mut orders,
                    person,
                    position,
                    Action::Aim {
                        mount: m,
                        target: focus,
                    },
                );
            }
        }
        // The Sensor Operator supports the hardest-hitting mount firing.
        let best_firing = self.best_mount_with(system, battle, ship, reserved, focus, &weighed);
        if let Some(person) = class.holder(Position::Sensors) {
            let reach = own.standing.max_band;
            if let Some((mount, target)) = best_firing
                && battle.band(ship, target) <= reach
                && !own
                    .standing
                    .disabled(rules.task(Task::TargetingSolution).groups)
            {
                order(
                    &mut orders,
                    person,
                    Position::Sensors,
                    Action::TargetingSolution { mount, target },
                );
            } else if battle.band(ship, focus) <= reach
                && !own.standing.disabled(rules.task(Task::JamSensors).groups)
            {
                order(
                    &mut orders,
                    person,
                    Position::Sensors,
                    Action::JamSensors { target: focus },
                );
            }
        }
        if let Some(person) = class.holder(Position::Captain)
            && !own.standing.disabled(rules.task(Task::Inspire).groups)
        {
            order(&mut orders, person, Position::Captain, Action::Inspire);
        }
        // The J-drive Engineer jumps when fleeing; every Engineer position
        // left repairs something different.
        if Self::flees(system, battle, ship)
            && let Some(person) = class.holder(Position::EngineerJDrive)
        {
            order(&mut orders, person, Position::EngineerJDrive, Action::Jump);
        }
        if !own.standing.disabled(rules.task(Task::Repair).groups) {
            let mut targets = Self::repair_targets(system, battle, ship).into_iter();
            for position in [
                Position::EngineerMDrive,
                Position::EngineerPower,
                Position::EngineerJDrive,
            ] {
                let Some(person) = class.holder(position) else {
                    continue;
                };
                if has_order(&orders, position) {
                    continue;
                }
                let Some(target) = targets.next() else {
                    break;
                };
                order(&mut orders, person, position, Action::Repair { target });
            }
        }
        orders
    }

    fn reactions(
        &self,
        system: &Crew2d6,
        battle: &Battle,
        ship: ShipId,
        incoming: &Incoming,
    ) -> Reactions {
        let rules = &system.rules;
        let state = battle.state(ship);
        let own = battle.ship(ship);
        let dodge_task = rules.task(Task::Dodge);
        let can_dodge =
            state.thrust_left >= dodge_task.thrust && !own.standing.disabled(dodge_task.groups);
        let mut reactions = Reactions::default();
        match incoming.missiles {
            None => {
                if incoming.hits() != Some(true) {
                    return reactions;
                }
                let serious = incoming.effect().is_some_and(|e| e >= 4) && state.burned() == 0;
                let mut budget = i32::from(state.reactions_left()) + i32::from(serious);
                if can_dodge && budget > 0 {
                    reactions.dodge = true;
                    budget -= 1;
                }
                if budget > 0
                    && rules.weapon(incoming.weapon).sand_stops
                    && system.sand_mount(battle, ship).is_some()
                {
                    reactions.sand = true;
                }
            }
            Some(missiles) => {
                // The salvo's attack is not yet rolled: the defender answers
                // the missiles it sees.
                let serious = missiles >= 3 && state.burned() == 0;
                let mut budget = i32::from(state.reactions_left()) + i32::from(serious);
                let mounts = system.point_defence_mounts(battle, ship).len() as i32;
                let pd = mounts.min(budget).max(0);
                reactions.point_defence = pd as u8;
                budget -= pd;
                if budget > 0
                    && own.class(rules).holder(Position::Sensors).is_some()
                    && !own.standing.disabled(rules.task(Task::Ecm).groups)
                {
                    reactions.ecm = true;
                    budget -= 1;
                }
                if budget > 0 && can_dodge {
                    reactions.dodge = true;
                }
            }
        }
        reactions
    }
}

/// Whether a position already has an order.
fn has_order(orders: &Orders, position: Position) -> bool {
    orders.iter().any(|o| o.position == position)
}

/// Gives a position an order, unless it has one (each position acts once).
fn order(orders: &mut Orders, person: u8, position: Position, action: Action) {
    if !has_order(orders, position) && !orders.is_full() {
        orders.push(Order {
            person,
            position,
            action,
        });
    }
}

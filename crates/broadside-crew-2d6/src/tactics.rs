//! Decisions: the tactics trait every side plays by, and the default policy.
//!
//! The engine asks; tactics answer; the engine checks the answer against the
//! rules. A tactic that answers something illegal is a bug in the tactic,
//! reported as an internal error, never silently corrected.

use arrayvec::ArrayVec;
use broadside_core::Side;

use crate::Crew2d6;
use crate::attack::{Incoming, Reactions};
use crate::battle::Battle;
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

/// One position's action in the attack step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Captain: Inspire the crew (chained into next turn's initiative).
    Inspire,
    /// Sensor Operator: Scan the enemy.
    Scan,
    /// Sensor Operator: jam the enemy's sensors for next turn.
    JamSensors,
    /// Sensor Operator: find a targeting solution for one mount's attack.
    TargetingSolution {
        /// The mount whose attack it feeds.
        mount: u8,
    },
    /// Comms Officer: jam the enemy's comms for next turn.
    JamComms,
    /// Comms Officer: communicate with another ship or a nearby world.
    Communicate,
    /// An Engineer: repair systems.
    Repair {
        /// What.
        target: Repairable,
    },
    /// The J-drive Engineer: activate the jump drive at a jump point.
    Jump,
    /// A mount's gunner: aim at the enemy.
    Aim {
        /// The mount.
        mount: u8,
    },
    /// A mount's gunner (the Pilot for fixed mounts): fire its identical
    /// weapons of one kind.
    Fire {
        /// The mount.
        mount: u8,
        /// The weapon.
        weapon: WeaponId,
    },
    /// A gunner of a mount with launchers: launch a salvo.
    Launch {
        /// The missile.
        weapon: WeaponId,
        /// Missiles in the salvo.
        missiles: u8,
    },
}

impl Action {
    /// The order a ship's actions are carried out in: supporting actions
    /// before the attacks they support.
    pub fn priority(&self) -> u8 {
        match self {
            Action::Inspire => 0,
            Action::Scan | Action::JamSensors | Action::JamComms | Action::Communicate => 1,
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

/// The Pilot's combat maneuver, after the range is adjusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CombatManeuver {
    /// None.
    None,
    /// Line up a shot for one mount's next attack (one thrust).
    LineUpShot {
        /// The mount.
        mount: u8,
    },
    /// Attempt to board at Adjacent range (one thrust).
    Boarding,
}

/// Every decision a side makes in an engagement.
///
/// # Contract for implementors
/// Answers must be legal: thrust within what is left, actions only by crew
/// members holding the position, each position once a phase, weapons
/// that can fire at the current band, salvos within launchers and
/// magazine, reactions the ship can make. The engine refuses anything else
/// as an internal error. Implementations must be deterministic given the
/// battle, so that a trial replays exactly.
pub trait CrewTactics: Send + Sync {
    /// Whether the Engineer overcharges the engines this round.
    fn overcharge(&self, system: &Crew2d6, battle: &Battle, side: Side) -> bool;
    /// Thrust the Pilot applies toward (+) or away from (-) the enemy; 0 for
    /// no Maneuver action.
    fn maneuver(&self, system: &Crew2d6, battle: &Battle, side: Side) -> i32;
    /// The Pilot's combat maneuver after the range is adjusted.
    fn combat_maneuver(&self, system: &Crew2d6, battle: &Battle, side: Side) -> CombatManeuver;
    /// The crew's actions in the attack step.
    fn actions(&self, system: &Crew2d6, battle: &Battle, side: Side) -> Orders;
    /// Reactions to an incoming attack, seen after its dice.
    fn reactions(
        &self,
        system: &Crew2d6,
        battle: &Battle,
        side: Side,
        incoming: &Incoming,
    ) -> Reactions;
}

/// The default policy, documented in the rules note:
/// - flight: a ship at a jump point jumps when its hull is down to half or
///   the enemy has twice its hull left; until then it holds the point while
///   its weapons reach the enemy;
/// - range: close to Short range (the best band for every direct-fire
///   weapon; Adjacent when boarding) with the thrust still needed to get
///   there, keeping one point for a dodge; a ship with only missiles holds
///   its range; overcharge only with an Engineer whose DM is +1 or better,
///   so that a drive-damaging Effect of -4 needs a 2 or 3 on the dice;
/// - combat maneuvering: when boarding is asked for, attempt it at Adjacent
///   range until the ships are grappled; otherwise line up a shot for the
///   hardest-hitting mount that will fire, when two thrust are left (one
///   stays for a dodge);
/// - every position once: the J-drive Engineer jumps when fleeing; each
///   mount's gunner (the Pilot for a fixed mount) fires its hardest-hitting
///   weapon in range, else launches every missile it can, else aims (up to
///   the limit); the Sensor Operator finds a targeting solution for the
///   hardest-hitting mount firing, or else jams the enemy's sensors; the
///   Comms Officer has nothing to do in a duel; a point-defence mount is
///   held back (and aims) when a salvo can reach the ship this round and
///   another can defend; each Engineer position repairs something
///   different (disabled weapons first, then the worst repairable
///   location, counting damage that only stops a jump only at a jump
///   point, then weapons under a Bane); the Captain inspires;
/// - reactions, within the allowance, burning one more only against a
///   direct-fire hit of Effect 4 or more or a salvo of three missiles or
///   more: against direct fire that would hit, dodge then sand; against a
///   salvo (whose attack is rolled after the reactions), point defence with
///   every free mount, then ECM, then a dodge.
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultTactics {
    /// Attempt boarding actions: close to Adjacent range and board there
    /// (the duel option `board`; the boarding fight itself is outside
    /// these rules, so the default leaves it).
    pub board: bool,
}

impl DefaultTactics {
    /// Whether the ship should jump away now.
    pub fn flees(system: &Crew2d6, battle: &Battle, side: Side) -> bool {
        let rules = &system.rules;
        let state = battle.side(side);
        let ship = battle.ship(side);
        let class = ship.class(rules);
        if !state.at_jump_point
            || ship.standing.no_jump
            || battle.grappled
            || class.holder(Position::EngineerJDrive).is_none()
        {
            return false;
        }
        let enemy = battle.ship(side.other());
        ship.hull * 2 <= class.hull || enemy.hull >= 2 * ship.hull
    }

    /// The band the ship wants: Adjacent when boarding; Short with
    /// direct-fire weapons, where every one of them reaches with the best
    /// DM; otherwise where it is.
    pub fn preferred_band(&self, system: &Crew2d6, battle: &Battle, side: Side) -> Band {
        if self.board {
            return Band::Adjacent;
        }
        let rules = &system.rules;
        let ship = battle.ship(side);
        let class = ship.class(rules);
        let direct = class.slots.iter().zip(&ship.weapons).any(|(slot, c)| {
            *c != Condition::Destroyed && rules.weapon(slot.weapon).kind == WeaponKind::Direct
        });
        if direct { Band::Short } else { battle.band }
    }

    /// The net thrust, toward (+) or away (-), that would bring the ships
    /// from where they are to `band`, counting thrust already accumulated.
    pub fn thrust_to(system: &Crew2d6, battle: &Battle, band: Band) -> i32 {
        let rules = &system.rules;
        let cost = |b: Band| rules.band(b).thrust;
        let mut at = battle.band;
        if at > band {
            let mut needed = cost(at) - battle.closing;
            while let Some(next) = at.closer() {
                if next <= band {
                    break;
                }
                needed += cost(next);
                at = next;
            }
            needed.max(0)
        } else if at < band {
            let mut needed = cost(at) + battle.closing;
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

    /// Whether some direct-fire weapon of the ship reaches the enemy now.
    fn reaches(system: &Crew2d6, battle: &Battle, side: Side) -> bool {
        (0..battle.ship(side).class(&system.rules).mounts.len() as u8)
            .any(|m| Self::best_fire(system, battle, side, m).is_some())
    }

    /// The hardest-hitting weapon of one mount that can fire now, with its
    /// score.
    fn best_fire(
        system: &Crew2d6,
        battle: &Battle,
        side: Side,
        mount: u8,
    ) -> Option<(i32, WeaponId)> {
        let rules = &system.rules;
        let class = battle.ship(side).class(rules);
        let m = class.mounts.get(usize::from(mount))?;
        let mut best: Option<(i32, WeaponId)> = None;
        for &s in &m.slots {
            let weapon = class.slots[usize::from(s)].weapon;
            if !system.can_fire(battle, side, mount, weapon) {
                continue;
            }
            let count = system.firing_slots(battle, side, mount, weapon).len() as i32;
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

    /// The hardest-hitting mount that can fire now, leaving out `skip`.
    fn best_mount(system: &Crew2d6, battle: &Battle, side: Side, skip: Option<u8>) -> Option<u8> {
        let mounts = battle.ship(side).class(&system.rules).mounts.len() as u8;
        let mut best: Option<(i32, u8)> = None;
        for m in (0..mounts).filter(|&m| Some(m) != skip) {
            if let Some((score, _)) = Self::best_fire(system, battle, side, m)
                && best.is_none_or(|(b, _)| score > b)
            {
                best = Some((score, m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// A salvo one mount's gunner can launch now: the missile and how many.
    fn launch_for(
        system: &Crew2d6,
        battle: &Battle,
        side: Side,
        mount: u8,
        launched: &[WeaponId],
    ) -> Option<(WeaponId, u8)> {
        let rules = &system.rules;
        let ship = battle.ship(side);
        let class = ship.class(rules);
        if battle.band > ship.standing.max_band || battle.salvos.is_full() {
            return None;
        }
        let m = class.mounts.get(usize::from(mount))?;
        for &s in &m.slots {
            let weapon = class.slots[usize::from(s)].weapon;
            if rules.weapon(weapon).kind != WeaponKind::Missile || launched.contains(&weapon) {
                continue;
            }
            let magazine = ship.magazine(rules, weapon).unwrap_or(0);
            let launchers = system.launchers(battle, side, weapon);
            let n = u16::from(launchers).min(magazine);
            if n > 0 {
                return Some((weapon, n as u8));
            }
        }
        None
    }

    /// Whether a mount can aim: it has a usable direct-fire weapon and has
    /// aimed fewer times than the limit.
    fn can_aim(system: &Crew2d6, battle: &Battle, side: Side, mount: u8) -> bool {
        let rules = &system.rules;
        let ship = battle.ship(side);
        let class = ship.class(rules);
        class.mounts.get(usize::from(mount)).is_some_and(|m| {
            let usable = m.slots.iter().any(|&s| {
                ship.weapons[usize::from(s)].usable()
                    && rules.weapon(class.slots[usize::from(s)].weapon).kind == WeaponKind::Direct
            });
            usable && battle.side(side).aim[usize::from(mount)] < rules.constants.aim_max
        })
    }

    /// The point-defence mount to hold back, if any: when a salvo attacks
    /// this round, or the enemy can launch one that would (Medium range or
    /// closer), and the ship has another mount that can defend, the mount
    /// with the fewest point-defence weapons waits.
    fn point_defence_reserve(system: &Crew2d6, battle: &Battle, side: Side) -> Option<u8> {
        let rules = &system.rules;
        let enemy = side.other();
        let arriving = battle
            .salvos
            .iter()
            .any(|s| s.owner == enemy && s.rounds_left == 0);
        let enemy_ship = battle.ship(enemy);
        let can_launch = rules.band(battle.band).missile_flight == 0
            && enemy_ship.class(rules).magazines.iter().any(|&(w, _)| {
                rules.weapon(w).kind == WeaponKind::Missile
                    && enemy_ship.magazine(rules, w).unwrap_or(0) > 0
                    && system.launchers(battle, enemy, w) > 0
            });
        if !arriving && !can_launch {
            return None;
        }
        let mounts = system.point_defence_mounts(battle, side);
        if mounts.len() < 2 {
            return None;
        }
        mounts.last().map(|(m, _)| *m)
    }

    /// What the Engineers repair, most pressing first: disabled weapons,
    /// then repairable locations from the worst, then weapons under a Bane.
    fn repair_targets(system: &Crew2d6, battle: &Battle, side: Side) -> ArrayVec<Repairable, 32> {
        let ship = battle.ship(side);
        let mut out: ArrayVec<Repairable, 32> = ArrayVec::new();
        for s in (0..ship.weapons.len()).filter(|&s| ship.weapons[s] == Condition::Disabled) {
            let _ = out.try_push(Repairable::Weapon(s as u8));
        }
        let at_jump_point = battle.side(side).at_jump_point;
        let matters = |l: usize| {
            // Damage that only hinders a jump matters only at a jump point.
            let standing =
                system.rules.criticals.locations[l].cumulative[usize::from(ship.severity[l])];
            let jump_only = standing.thrust_loss == 0
                && !standing.thrust_zero
                && standing.max_band == Band::Distant
                && standing.disables == 0
                && standing.dm_for(crate::model::ALL_GROUPS & !crate::model::Group::Jump.bit())
                    == 0;
            !jump_only || at_jump_point
        };
        let mut locations: ArrayVec<usize, 16> = (0..ship.severity.len())
            .filter(|&l| {
                system.can_repair(battle, side, Repairable::Location(l as u8)) && matters(l)
            })
            .collect();
        // The worst first; the lower location breaks ties.
        locations.sort_unstable_by_key(|&l| (std::cmp::Reverse(ship.severity[l]), l));
        for l in locations {
            let _ = out.try_push(Repairable::Location(l as u8));
        }
        for s in (0..ship.weapons.len()).filter(|&s| ship.weapons[s] == Condition::Bane) {
            let _ = out.try_push(Repairable::Weapon(s as u8));
        }
        out
    }
}

impl CrewTactics for DefaultTactics {
    fn overcharge(&self, system: &Crew2d6, battle: &Battle, side: Side) -> bool {
        let rules = &system.rules;
        let ship = battle.ship(side);
        if ship.thrust(rules) == 0 || Self::flees(system, battle, side) {
            return false;
        }
        if battle.side(side).at_jump_point && Self::reaches(system, battle, side) {
            return false;
        }
        if battle.band <= self.preferred_band(system, battle, side) {
            return false;
        }
        let class = ship.class(rules);
        let label = battle.labels[side.index()];
        [Position::EngineerMDrive, Position::EngineerPower]
            .into_iter()
            .filter_map(|p| class.holder(p))
            .any(|p| {
                let checker = Checker {
                    ship,
                    label,
                    person: p,
                    task: Task::Overcharge,
                    mount_skill: None,
                    also_skill: None,
                    bane: false,
                };
                let (level, _) = system.skill_level(&checker);
                let (_, _, dm) = system.characteristic(&checker);
                level + dm + system.ship_dm(ship, Task::Overcharge) >= 1
            })
    }

    fn maneuver(&self, system: &Crew2d6, battle: &Battle, side: Side) -> i32 {
        let state = battle.side(side);
        if state.acted & Position::Pilot.bit() != 0 || Self::flees(system, battle, side) {
            return 0;
        }
        if state.at_jump_point && Self::reaches(system, battle, side) {
            return 0;
        }
        let left = state.thrust_left;
        let spend = if left >= 2 { left - 1 } else { left };
        let preferred = self.preferred_band(system, battle, side);
        // Only the thrust still needed to reach the band, counting what the
        // enemy has already applied this round, so as not to overshoot.
        let needed = Self::thrust_to(system, battle, preferred) - battle.side(side.other()).applied;
        needed.clamp(-spend, spend)
    }

    fn combat_maneuver(&self, system: &Crew2d6, battle: &Battle, side: Side) -> CombatManeuver {
        let rules = &system.rules;
        let thrust_left = battle.side(side).thrust_left;
        if self.board
            && battle.band == Band::Adjacent
            && !battle.grappled
            && thrust_left >= rules.task(Task::Boarding).thrust
            && !battle
                .ship(side)
                .standing
                .disabled(rules.task(Task::Boarding).groups)
        {
            return CombatManeuver::Boarding;
        }
        if thrust_left < 1 + rules.task(Task::LineUpShot).thrust {
            return CombatManeuver::None;
        }
        let reserved = Self::point_defence_reserve(system, battle, side);
        match Self::best_mount(system, battle, side, reserved) {
            Some(mount) => CombatManeuver::LineUpShot { mount },
            None => CombatManeuver::None,
        }
    }

    fn actions(&self, system: &Crew2d6, battle: &Battle, side: Side) -> Orders {
        let rules = &system.rules;
        let ship = battle.ship(side);
        let class = ship.class(rules);
        let mut orders = Orders::new();
        // A point-defence mount is held back when missiles are coming this
        // round and another mount can still defend.
        let reserved = Self::point_defence_reserve(system, battle, side);
        // Each mount's firing position: fire, else launch, else aim.
        let mut launched: ArrayVec<WeaponId, 4> = ArrayVec::new();
        for m in 0..class.mounts.len() as u8 {
            let Some(person) = class.mounts[usize::from(m)].firer else {
                continue;
            };
            let position = rules.mount_position(class, m);
            if has_order(&orders, position) {
                continue;
            }
            let fire = (Some(m) != reserved)
                .then(|| Self::best_fire(system, battle, side, m))
                .flatten();
            if let Some((_, weapon)) = fire {
                order(
                    &mut orders,
                    person,
                    position,
                    Action::Fire { mount: m, weapon },
                );
            } else if let Some((weapon, missiles)) =
                Self::launch_for(system, battle, side, m, &launched)
            {
                let _ = launched.try_push(weapon);
                order(
                    &mut orders,
                    person,
                    position,
                    Action::Launch { weapon, missiles },
                );
            } else if Self::can_aim(system, battle, side, m) {
                order(&mut orders, person, position, Action::Aim { mount: m });
            }
        }
        // The Sensor Operator supports the hardest-hitting mount firing.
        let best_firing = Self::best_mount(system, battle, side, reserved);
        if let Some(person) = class.holder(Position::Sensors)
            && battle.band <= ship.standing.max_band
        {
            if let Some(mount) = best_firing
                && !ship
                    .standing
                    .disabled(rules.task(Task::TargetingSolution).groups)
            {
                order(
                    &mut orders,
                    person,
                    Position::Sensors,
                    Action::TargetingSolution { mount },
                );
            } else if !ship.standing.disabled(rules.task(Task::JamSensors).groups) {
                order(&mut orders, person, Position::Sensors, Action::JamSensors);
            }
        }
        if let Some(person) = class.holder(Position::Captain)
            && !ship.standing.disabled(rules.task(Task::Inspire).groups)
        {
            order(&mut orders, person, Position::Captain, Action::Inspire);
        }
        // The J-drive Engineer jumps when fleeing; every Engineer position
        // left repairs something different.
        if Self::flees(system, battle, side)
            && let Some(person) = class.holder(Position::EngineerJDrive)
        {
            order(&mut orders, person, Position::EngineerJDrive, Action::Jump);
        }
        if !ship.standing.disabled(rules.task(Task::Repair).groups) {
            let mut targets = Self::repair_targets(system, battle, side).into_iter();
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
        side: Side,
        incoming: &Incoming,
    ) -> Reactions {
        let rules = &system.rules;
        let state = battle.side(side);
        let ship = battle.ship(side);
        let dodge_task = rules.task(Task::Dodge);
        let can_dodge =
            state.thrust_left >= dodge_task.thrust && !ship.standing.disabled(dodge_task.groups);
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
                    && system.sand_mount(battle, side).is_some()
                {
                    reactions.sand = true;
                }
            }
            Some(missiles) => {
                // The salvo's attack is not yet rolled: the defender answers
                // the missiles it sees.
                let serious = missiles >= 3 && state.burned() == 0;
                let mut budget = i32::from(state.reactions_left()) + i32::from(serious);
                let mounts = system.point_defence_mounts(battle, side).len() as i32;
                let pd = mounts.min(budget).max(0);
                reactions.point_defence = pd as u8;
                budget -= pd;
                if budget > 0
                    && class_has_sensors(system, battle, side)
                    && !ship.standing.disabled(rules.task(Task::Ecm).groups)
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

fn class_has_sensors(system: &Crew2d6, battle: &Battle, side: Side) -> bool {
    battle
        .ship(side)
        .class(&system.rules)
        .holder(Position::Sensors)
        .is_some()
}

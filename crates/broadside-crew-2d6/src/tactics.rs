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
use crate::ship::{Condition, MAX_CREW};

/// What can be repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repairable {
    /// A critical hit location, by index (`roll - 2`): jury-rigged.
    Location(u8),
    /// A weapon suffering a Bane or disabled, by slot.
    Weapon(u8),
}

/// One crew member's action in the attack step.
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

/// One crew member's order for the attack step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Order {
    /// The crew member, by index in the class's crew.
    pub person: u8,
    /// What they do.
    pub action: Action,
}

/// A ship's orders for one attack step: at most one per crew member.
pub type Orders = ArrayVec<Order, MAX_CREW>;

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
/// members holding the position, each crew member once a phase, weapons
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
///   weapon) with the thrust still needed to get there, keeping one point
///   for a dodge; a ship with
///   only missiles holds its range; overcharge only with an Engineer whose
///   DM is +1 or better, so that a drive-damaging Effect of -4 needs a 2 or
///   3 on the dice;
/// - combat maneuvering: line up a shot for the hardest-hitting mount that
///   will fire, when two thrust are left (one stays for a dodge);
/// - the crew, each once: the J-drive Engineer jumps when fleeing; gunners
///   fire the hardest-hitting weapons in range, else launch every missile
///   they can, else aim (up to the limit); the Sensor Operator finds a
///   targeting solution for the hardest-hitting mount firing, or else jams
///   the enemy's sensors; the Comms Officer has nothing to do in a duel;
///   a laser turret is held back (and aims) for point defence when a salvo
///   can reach the ship this round and another laser turret can defend;
///   Engineers repair (disabled weapons first, then the worst repairable
///   location, counting damage that only stops a jump only at a jump
///   point, then weapons under a Bane); the Captain inspires;
/// - reactions, within the allowance, burning one more only against a
///   direct-fire hit of Effect 4 or more or a salvo of three missiles or
///   more: against direct fire that would hit, dodge then sand; against a
///   salvo, point defence with every free laser turret, then ECM, then a
///   dodge if it would still hit.
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultTactics;

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

    /// The band the ship wants: Short with direct-fire weapons, where every
    /// one of them reaches with the best DM; otherwise where it is.
    pub fn preferred_band(system: &Crew2d6, battle: &Battle, side: Side) -> Band {
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
        Self::best_fire(system, battle, side, None, None).is_some()
    }

    /// The hardest-hitting mount and weapon that can fire now, with its
    /// score, among the mounts fired by `person` (or any mount), leaving out
    /// the mount `skip`.
    fn best_fire(
        system: &Crew2d6,
        battle: &Battle,
        side: Side,
        person: Option<u8>,
        skip: Option<u8>,
    ) -> Option<(i32, u8, WeaponId)> {
        let rules = &system.rules;
        let class = battle.ship(side).class(rules);
        let mut best: Option<(i32, u8, WeaponId)> = None;
        for (m, mount) in class.mounts.iter().enumerate() {
            if (person.is_some() && mount.firer != person) || skip == Some(m as u8) {
                continue;
            }
            let m = m as u8;
            for &s in &mount.slots {
                let weapon = class.slots[usize::from(s)].weapon;
                if !system.can_fire(battle, side, m, weapon) {
                    continue;
                }
                let count = system.firing_slots(battle, side, m, weapon).len() as i32;
                let w = rules.weapon(weapon);
                let dice = w.damage.map_or(0, |d| {
                    i32::try_from(d.count * (d.die.sides() + 1)).unwrap_or(0)
                });
                let score =
                    (dice * count + 2 * w.attack_dm) * rules.mount_kind(mount.kind).multiplier;
                if best.is_none_or(|(b, _, _)| score > b) {
                    best = Some((score, m, weapon));
                }
            }
        }
        best
    }

    /// A salvo `person` can launch now: the missile and how many.
    fn launch_for(
        system: &Crew2d6,
        battle: &Battle,
        side: Side,
        person: u8,
        launched: &[WeaponId],
    ) -> Option<(WeaponId, u8)> {
        let rules = &system.rules;
        let ship = battle.ship(side);
        let class = ship.class(rules);
        if battle.band > ship.standing.max_band {
            return None;
        }
        for mount in class.mounts.iter().filter(|m| m.firer == Some(person)) {
            for &s in &mount.slots {
                let weapon = class.slots[usize::from(s)].weapon;
                if rules.weapon(weapon).kind != WeaponKind::Missile || launched.contains(&weapon) {
                    continue;
                }
                let magazine = ship.magazine(rules, weapon).unwrap_or(0);
                let launchers = system.launchers(battle, side, weapon);
                let n = u16::from(launchers).min(magazine);
                if n > 0 && !battle.salvos.is_full() {
                    return Some((weapon, n as u8));
                }
            }
        }
        None
    }

    /// A mount of `person` that can aim: one with a usable weapon, aimed
    /// fewer times than the limit.
    fn aim_for(system: &Crew2d6, battle: &Battle, side: Side, person: u8) -> Option<u8> {
        let rules = &system.rules;
        let ship = battle.ship(side);
        let class = ship.class(rules);
        let state = battle.side(side);
        class.mounts.iter().enumerate().find_map(|(m, mount)| {
            let usable = mount.slots.iter().any(|&s| {
                ship.weapons[usize::from(s)].usable()
                    && rules.weapon(class.slots[usize::from(s)].weapon).kind == WeaponKind::Direct
            });
            (mount.firer == Some(person) && usable && state.aim[m] < rules.constants.aim_max)
                .then_some(m as u8)
        })
    }

    /// The laser turret to hold back for point defence, if any: when a salvo
    /// attacks this round, or the enemy can launch one that would (Medium
    /// range or closer), and the ship has another turret that can defend or
    /// attack, the turret with the fewest lasers waits.
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
        let turrets = system.point_defence_mounts(battle, side);
        if turrets.len() < 2 {
            return None;
        }
        turrets.last().map(|(m, _)| *m)
    }

    /// What the Engineers repair first.
    fn repair_target(system: &Crew2d6, battle: &Battle, side: Side) -> Option<Repairable> {
        let ship = battle.ship(side);
        let disabled = (0..ship.weapons.len())
            .find(|&s| ship.weapons[s] == Condition::Disabled)
            .map(|s| Repairable::Weapon(s as u8));
        if disabled.is_some() {
            return disabled;
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
        let worst = (0..ship.severity.len())
            .filter(|&l| {
                system.can_repair(battle, side, Repairable::Location(l as u8)) && matters(l)
            })
            .max_by_key(|&l| (ship.severity[l], std::cmp::Reverse(l)))
            .map(|l| Repairable::Location(l as u8));
        if worst.is_some() {
            return worst;
        }
        (0..ship.weapons.len())
            .find(|&s| ship.weapons[s] == Condition::Bane)
            .map(|s| Repairable::Weapon(s as u8))
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
        if battle.band <= Self::preferred_band(system, battle, side) {
            return false;
        }
        let class = ship.class(rules);
        let label = battle.labels[side.index()];
        [Position::EngineerMDrive, Position::EngineerPower]
            .into_iter()
            .filter_map(|p| class.holder(p))
            .filter(|&p| class.holder(Position::Pilot) != Some(p))
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
        let rules = &system.rules;
        let state = battle.side(side);
        let class = battle.ship(side).class(rules);
        let Some(pilot) = class.holder(Position::Pilot) else {
            return 0;
        };
        if state.acted & (1 << pilot) != 0 || Self::flees(system, battle, side) {
            return 0;
        }
        if state.at_jump_point && Self::reaches(system, battle, side) {
            return 0;
        }
        let left = state.thrust_left;
        let spend = if left >= 2 { left - 1 } else { left };
        let preferred = Self::preferred_band(system, battle, side);
        // Only the thrust still needed to reach the band, counting what the
        // enemy has already applied this round, so as not to overshoot.
        let needed = Self::thrust_to(system, battle, preferred) - battle.side(side.other()).applied;
        needed.clamp(-spend, spend)
    }

    fn combat_maneuver(&self, system: &Crew2d6, battle: &Battle, side: Side) -> CombatManeuver {
        let rules = &system.rules;
        if battle.side(side).thrust_left < 1 + rules.task(Task::LineUpShot).thrust {
            return CombatManeuver::None;
        }
        let reserved = Self::point_defence_reserve(system, battle, side);
        match Self::best_fire(system, battle, side, None, reserved) {
            Some((_, mount, _)) => CombatManeuver::LineUpShot { mount },
            None => CombatManeuver::None,
        }
    }

    fn actions(&self, system: &Crew2d6, battle: &Battle, side: Side) -> Orders {
        let rules = &system.rules;
        let ship = battle.ship(side);
        let class = ship.class(rules);
        let flees = Self::flees(system, battle, side);
        let mut orders = Orders::new();
        let mut launched: ArrayVec<WeaponId, 4> = ArrayVec::new();
        // A laser turret is held back for point defence when missiles are
        // coming this round and another turret can still attack.
        let reserved = Self::point_defence_reserve(system, battle, side);
        // First the gunners' choices, so the Sensor Operator knows which
        // mount to find a solution for.
        let mut fires: ArrayVec<(u8, i32, u8, WeaponId), MAX_CREW> = ArrayVec::new();
        for p in 0..class.crew.len() {
            let p = p as u8;
            if let Some((score, mount, weapon)) =
                Self::best_fire(system, battle, side, Some(p), reserved)
            {
                let _ = fires.try_push((p, score, mount, weapon));
            }
        }
        // The first of the hardest-hitting attacks takes the solution.
        let best_firing = fires
            .iter()
            .rev()
            .max_by_key(|f| f.1)
            .map(|&(_, _, m, w)| (m, w));
        for (p, member) in class.crew.iter().enumerate() {
            let p = p as u8;
            let action = if flees && member.holds(Position::EngineerJDrive) {
                Some(Action::Jump)
            } else if let Some(&(_, _, mount, weapon)) = fires.iter().find(|f| f.0 == p) {
                Some(Action::Fire { mount, weapon })
            } else if let Some((weapon, missiles)) =
                Self::launch_for(system, battle, side, p, &launched)
            {
                let _ = launched.try_push(weapon);
                Some(Action::Launch { weapon, missiles })
            } else if member.holds(Position::Sensors)
                && let Some((mount, _)) = best_firing
                && battle.band <= ship.standing.max_band
                && !ship
                    .standing
                    .disabled(rules.task(Task::TargetingSolution).groups)
            {
                Some(Action::TargetingSolution { mount })
            } else if member.holds(Position::Sensors)
                && battle.band <= ship.standing.max_band
                && !ship.standing.disabled(rules.task(Task::JamSensors).groups)
            {
                Some(Action::JamSensors)
            } else if member.positions.iter().any(|p| p.is_engineer())
                && !ship.standing.disabled(rules.task(Task::Repair).groups)
                && let Some(target) = Self::repair_target(system, battle, side)
            {
                Some(Action::Repair { target })
            } else if member.holds(Position::Captain)
                && !ship.standing.disabled(rules.task(Task::Inspire).groups)
            {
                Some(Action::Inspire)
            } else {
                Self::aim_for(system, battle, side, p).map(|mount| Action::Aim { mount })
            };
            if let Some(action) = action {
                orders.push(Order { person: p, action });
            }
        }
        // Two crew members repairing the same thing would waste one action.
        let mut seen: ArrayVec<Repairable, MAX_CREW> = ArrayVec::new();
        orders.retain(|o| match o.action {
            Action::Repair { target } => {
                if seen.contains(&target) {
                    false
                } else {
                    seen.push(target);
                    true
                }
            }
            _ => true,
        });
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
                if !incoming.hits() {
                    return reactions;
                }
                let serious = incoming.effect() >= 4 && state.burned() == 0;
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
                let serious = missiles >= 3 && state.burned() == 0;
                let mut budget = i32::from(state.reactions_left()) + i32::from(serious);
                let turrets = system.point_defence_mounts(battle, side).len() as i32;
                let pd = turrets.min(budget).max(0);
                reactions.point_defence = pd as u8;
                budget -= pd;
                if budget > 0
                    && class_has_sensors(system, battle, side)
                    && !ship.standing.disabled(rules.task(Task::Ecm).groups)
                {
                    reactions.ecm = true;
                    budget -= 1;
                }
                if budget > 0 && can_dodge && incoming.hits() {
                    reactions.dodge = true;
                }
            }
        }
        reactions
    }
}

fn class_has_sensors(system: &Crew2d6, battle: &Battle, side: Side) -> bool {
    battle
        .ship(side)
        .class(&system.rules)
        .holder(Position::Sensors)
        .is_some()
}

//! Break-apart checks for severely damaged ships, and the Repair Turn.

use broadside_core::{Dice, Die, Event, EventSink, ResolveError};

use crate::ship::{Repairable, Ship};
use crate::{Percentile, count_of};

/// One repair attempt of a Repair Turn: what, and how many DCR points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RepairAttempt {
    /// The system to repair.
    pub system: Repairable,
    /// DCR points given to it: its percent chance.
    pub points: u16,
}

/// What one repair attempt came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepairOutcome {
    /// The attempt.
    pub attempt: RepairAttempt,
    /// The d100 roll.
    pub roll: u32,
    /// Whether it succeeded.
    pub repaired: bool,
    /// A 99-00 roll: the system cannot be repaired in space.
    pub beyond_repair: bool,
    /// Hull points restored, for a hull repair.
    pub hull_restored: i32,
}

impl Percentile {
    /// The chance, in percent, that a ship breaks apart when it uses
    /// `points` of ADF and MR this turn: the damage beyond half its original
    /// hull (half rounded down, as the rules' step 1 says) times the points.
    /// Zero unless more than half its hull is gone.
    pub fn break_apart_chance(&self, ship: &Ship, points: u32) -> i32 {
        if !ship.severely_damaged(&self.rules) || points == 0 {
            return 0;
        }
        let half = self.rules.class(ship.class).hull / 2;
        (ship.damage_taken(&self.rules) - half)
            .saturating_mul(i32::try_from(points).unwrap_or(i32::MAX))
    }

    /// Rolls the break-apart check for a ship using `points` of ADF and MR.
    /// Returns whether it broke apart; no roll is made when the chance is 0.
    pub fn check_break_apart(
        &self,
        ship: &mut Ship,
        name: &str,
        points: u32,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<bool, ResolveError> {
        let chance = self.break_apart_chance(ship, points);
        if chance <= 0 {
            return Ok(false);
        }
        let original = self.rules.class(ship.class).hull;
        let taken = ship.damage_taken(&self.rules);
        sink.emit(|| Event::Base {
            what: "chance to break apart".into(),
            value: chance,
            source: format!(
                "({taken} damage - {} half hull) x {points} ADF and MR points",
                original / 2
            ),
        });
        let check = dice.check(Die::D100, chance)?;
        sink.emit(|| Event::Roll {
            purpose: "break-apart roll".into(),
            dice: Die::D100.to_string(),
            faces: vec![check.face],
            total: check.face as i32,
        });
        sink.emit(|| Event::Check {
            what: "holding together".into(),
            roll: check.face as i32,
            target: chance,
            success: !check.passed,
            rule: Some("a roll at or under the chance breaks the ship apart".into()),
        });
        if check.passed {
            ship.broken_apart = true;
            sink.emit(|| Event::Effect {
                ship: name.to_owned(),
                effect: "breaks apart and is destroyed".into(),
            });
        }
        Ok(check.passed)
    }

    /// Whether a system is damaged and can still be repaired in space.
    pub fn needs_repair(&self, ship: &Ship, system: Repairable) -> bool {
        if ship.beyond_repair.contains(&system) {
            return false;
        }
        let class = self.rules.class(ship.class);
        match system {
            Repairable::Hull => ship.hull < class.hull,
            Repairable::Drive => ship.adf < class.adf,
            Repairable::Steering => ship.mr < class.mr,
            Repairable::Weapon(i) => ship
                .weapons
                .get(i)
                .is_some_and(|m| m.destroyed && !m.beyond_repair),
            Repairable::Defence(i) => ship
                .defences
                .get(i)
                .is_some_and(|m| m.destroyed && !m.beyond_repair),
            Repairable::CombatControl => ship.damaged.combat_control,
            Repairable::DamageControl => ship.damaged.damage_control,
            Repairable::Navigation => ship.damaged.navigation,
            Repairable::Fire => ship.damaged.fire,
            Repairable::ShortCircuit => ship.damaged.short_circuit,
        }
    }

    /// Plays one ship's Repair Turn: its DCR divided among the attempts,
    /// each rolled on d100 at or under its points. 90-00 always fails; 99-00
    /// also puts that system beyond repair in space.
    pub fn repair_turn(
        &self,
        ship: &mut Ship,
        name: &str,
        attempts: &[RepairAttempt],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Vec<RepairOutcome>, ResolveError> {
        let total: u32 = attempts.iter().map(|a| u32::from(a.points)).sum();
        if total > u32::from(ship.dcr) {
            return Err(ResolveError::Refused(format!(
                "the {name} divides {total} DCR points among its repairs but has {}",
                ship.dcr
            )));
        }
        for attempt in attempts {
            if !self.needs_repair(ship, attempt.system) {
                return Err(ResolveError::Refused(format!(
                    "the {name}'s {} needs no repair, or cannot be repaired in space",
                    self.repairable_name(ship, attempt.system)
                )));
            }
        }
        let c = &self.rules.constants;
        let mut outcomes = Vec::with_capacity(attempts.len());
        for &attempt in attempts {
            // Names are for the log only; a sink that keeps nothing skips them.
            let what = if sink.enabled() {
                self.repairable_name(ship, attempt.system)
            } else {
                String::new()
            };
            // The roll is read only as repaired, failed, or beyond repair
            // (which also fails), so it is asked for by those bands.
            let succeeds_at_most =
                u32::from(attempt.points).min(c.repair_always_fails_at_least.saturating_sub(1));
            let fails_at_most = c.repair_impossible_at_least.saturating_sub(1);
            let roll = if succeeds_at_most == 0 {
                dice.band(Die::D100, &[fails_at_most])?
            } else {
                dice.band(Die::D100, &[succeeds_at_most, fails_at_most])?
            };
            let still_needed = self.needs_repair(ship, attempt.system);
            let beyond = roll >= c.repair_impossible_at_least;
            let repaired = still_needed
                && roll < c.repair_always_fails_at_least
                && roll <= u32::from(attempt.points);
            sink.emit(|| Event::Roll {
                purpose: format!(
                    "the {name}'s repair of its {what} with {} DCR points",
                    attempt.points
                ),
                dice: Die::D100.to_string(),
                faces: vec![roll],
                total: roll as i32,
            });
            sink.emit(|| Event::Check {
                what: format!("the {name}'s repair of its {what}"),
                roll: roll as i32,
                target: i32::from(attempt.points),
                success: repaired,
                rule: if beyond {
                    Some(format!(
                        "{}-00: cannot be repaired in space",
                        c.repair_impossible_at_least
                    ))
                } else if roll >= c.repair_always_fails_at_least {
                    Some(format!(
                        "{}-00 always fails",
                        c.repair_always_fails_at_least
                    ))
                } else if !still_needed {
                    Some("already repaired this turn".to_owned())
                } else {
                    None
                },
            });
            let mut hull_restored = 0;
            if repaired {
                hull_restored = self.apply_repair(ship, name, attempt.system, dice, sink)?;
            }
            if beyond {
                self.mark_beyond_repair(ship, attempt.system);
                sink.emit(|| Event::Effect {
                    ship: name.to_owned(),
                    effect: format!("{what} cannot be repaired in space"),
                });
            }
            outcomes.push(RepairOutcome {
                attempt,
                roll,
                repaired,
                beyond_repair: beyond,
                hull_restored,
            });
        }
        Ok(outcomes)
    }

    fn apply_repair(
        &self,
        ship: &mut Ship,
        name: &str,
        system: Repairable,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<i32, ResolveError> {
        let class = self.rules.class(ship.class);
        let mut restored = 0;
        let text = match system {
            Repairable::Hull => {
                let expr = self.rules.constants.hull_repair;
                let (pool, rolled) = crate::damage::roll_sum(&expr, dice, sink)?;
                restored = rolled.min(class.hull - ship.hull).max(0);
                ship.hull += restored;
                sink.emit(|| Event::Roll {
                    purpose: "hull points repaired".into(),
                    dice: expr.to_string(),
                    faces: pool.to_vec(),
                    total: rolled,
                });
                format!(
                    "{} repaired ({} of {})",
                    count_of(restored, "hull point", "hull points"),
                    ship.hull,
                    class.hull
                )
            }
            Repairable::Drive => {
                ship.adf += 1;
                format!("drive repaired: +1 ADF (ADF {})", ship.adf)
            }
            Repairable::Steering => {
                ship.mr += 1;
                format!("steering repaired: +1 MR (MR {})", ship.mr)
            }
            Repairable::Weapon(i) => {
                ship.weapons[i].destroyed = false;
                format!(
                    "{} repaired",
                    self.rules.weapon(ship.weapons[i].weapon).name
                )
            }
            Repairable::Defence(i) => {
                ship.defences[i].destroyed = false;
                format!(
                    "{} repaired",
                    self.rules.defence_info(ship.defences[i].defence).name
                )
            }
            Repairable::CombatControl => {
                ship.damaged.combat_control = false;
                "combat control repaired".into()
            }
            Repairable::DamageControl => {
                ship.damaged.damage_control = false;
                ship.dcr = class.dcr;
                format!("damage control repaired: DCR {}", ship.dcr)
            }
            Repairable::Navigation => {
                ship.damaged.navigation = false;
                "navigation repaired".into()
            }
            Repairable::Fire => {
                ship.damaged.fire = false;
                "fire put out".into()
            }
            Repairable::ShortCircuit => {
                ship.damaged.short_circuit = false;
                "power short circuit repaired".into()
            }
        };
        sink.emit(|| Event::Effect {
            ship: name.to_owned(),
            effect: text,
        });
        Ok(restored)
    }

    fn mark_beyond_repair(&self, ship: &mut Ship, system: Repairable) {
        match system {
            Repairable::Weapon(i) => ship.weapons[i].beyond_repair = true,
            Repairable::Defence(i) => ship.defences[i].beyond_repair = true,
            other => {
                if !ship.beyond_repair.contains(&other) {
                    // Ten kinds at most, and weapons and defences are kept on
                    // their mounts, so the list cannot overflow.
                    let _ = ship.beyond_repair.push(other);
                }
            }
        }
    }

    /// A repairable system's name, for messages.
    pub fn repairable_name(&self, ship: &Ship, system: Repairable) -> String {
        match system {
            Repairable::Hull => "hull".into(),
            Repairable::Drive => "drive".into(),
            Repairable::Steering => "steering".into(),
            Repairable::Weapon(i) => ship.weapons.get(i).map_or_else(
                || format!("weapon {i}"),
                |m| self.rules.weapon(m.weapon).name.to_lowercase(),
            ),
            Repairable::Defence(i) => ship.defences.get(i).map_or_else(
                || format!("defence {i}"),
                |m| self.rules.defence_info(m.defence).name.to_lowercase(),
            ),
            Repairable::CombatControl => "combat control system".into(),
            Repairable::DamageControl => "damage control".into(),
            Repairable::Navigation => "navigation".into(),
            Repairable::Fire => "fire".into(),
            Repairable::ShortCircuit => "power short circuit".into(),
        }
    }
}

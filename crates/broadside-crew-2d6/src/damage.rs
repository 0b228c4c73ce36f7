//! Damage allocation: damage dice, armour, multipliers, hull points, and critical hits with their effects.

use arrayvec::ArrayVec;
use broadside_core::{DamageAllocation, Dice, DiceExpr, Die, Event, EventSink, ResolveError};

use crate::Crew2d6;
use crate::check::{Label, faces_of, roll_sum};
use crate::model::{Amount, MissileArmour};
use crate::ship::{Condition, Ship};

/// A hit to allocate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hit {
    /// The weapon or missile that hit.
    pub weapon: crate::model::WeaponId,
    /// The attack's Effect.
    pub effect: i32,
    /// Identical weapons that fired together (1 for missiles).
    pub identical: u8,
    /// The mount's damage multiplier (1 for missiles).
    pub multiplier: i32,
    /// Damage taken off by sand.
    pub sand: i32,
    /// For a salvo, the missiles that attacked; `None` for direct fire.
    pub missiles: Option<u8>,
}

/// What caused a critical hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    /// An attack with a high enough Effect that did damage.
    Attack,
    /// Another tenth of the starting hull lost.
    Sustained,
    /// Another location's effect raised the Hull's severity.
    HullSeverity,
    /// An overcharge that went wrong.
    Overcharge,
}

impl Cause {
    /// Its name in reports.
    pub const fn id(self) -> &'static str {
        match self {
            Cause::Attack => "attack",
            Cause::Sustained => "sustained-damage",
            Cause::HullSeverity => "hull-severity",
            Cause::Overcharge => "overcharge",
        }
    }
}

/// One critical hit taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CriticalHit {
    /// The location, by index (`roll - 2`).
    pub location: u8,
    /// Its severity before.
    pub from: u8,
    /// Its severity after.
    pub to: u8,
    /// Why.
    pub cause: Cause,
}

/// The most critical hits one report records; more still apply.
pub const MAX_CRITICALS: usize = 32;

/// Critical-hit work a hit has set off and not yet done, one piece at a
/// time, in the order the rules take it: the last pushed is done first.
///
/// A critical hit's row sets off its hull damage (and the tenths of the
/// hull it may cost), its armour lost, the weapon it harms and the Hull
/// criticals it raises, in that order; each tenth of the hull lost is a
/// critical hit at a rolled location, then the tenths are counted again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pending {
    /// A critical hit of this severity and cause, at a location rolled
    /// first when `None`.
    Critical {
        /// The location, or `None` to roll it.
        location: Option<u8>,
        /// Its severity.
        severity: u8,
        /// Why.
        cause: Cause,
    },
    /// The hull damage of a location's row at a severity.
    HullDamage {
        /// The location.
        location: u8,
        /// The severity reached.
        severity: u8,
    },
    /// The armour lost by a location's row at a severity.
    ArmourLoss {
        /// The location.
        location: u8,
        /// The severity reached.
        severity: u8,
    },
    /// The weapon harmed by a location's row at a severity.
    WeaponHarm {
        /// The location.
        location: u8,
        /// The severity reached.
        severity: u8,
    },
    /// A severity 1 critical hit to the Hull, raised by another location's
    /// row, unless the ship is wrecked by then.
    HullSeverity,
    /// Another tenth of the starting hull lost, if it is.
    Sustained,
}

/// Critical-hit work not yet done; no hit sets off more at once.
pub type Work = ArrayVec<Pending, 64>;

/// Pushes a piece of work, a bug when the list is full.
fn push(work: &mut Work, pending: Pending) -> Result<(), ResolveError> {
    work.try_push(pending)
        .map_err(|_| ResolveError::Internal("too much critical-hit work at once".into()))
}

/// What a hit did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Applied {
    /// The damage dice's total.
    pub damage_roll: i32,
    /// Armour that counted.
    pub armour: i32,
    /// What multiplied the damage (mount multiplier, or a salvo's Effect).
    pub multiplier: i32,
    /// Hull points the hit itself took.
    pub damage: i32,
    /// Critical hits taken, in order.
    pub criticals: ArrayVec<CriticalHit, MAX_CRITICALS>,
    /// Hull points taken by the critical hits' own damage.
    pub critical_damage: i32,
    /// The ship is wrecked.
    pub wrecked: bool,
}

impl Crew2d6 {
    /// Allocates a hit to a ship that events name by `label`.
    pub fn allocate_labelled(
        &self,
        hit: &Hit,
        ship: &mut Ship,
        label: Label,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Applied, ResolveError> {
        let mut work = Work::new();
        let mut applied = self.allocate_deferred(hit, ship, label, &mut work, dice, sink)?;
        self.work_off(ship, label, &mut work, &mut applied, dice, sink)?;
        self.note_wreck(ship, label, &mut applied, sink);
        Ok(applied)
    }

    /// Whether the ship is wrecked, noted in the report and the log.
    pub fn note_wreck(
        &self,
        ship: &Ship,
        label: Label,
        applied: &mut Applied,
        sink: &mut dyn EventSink,
    ) {
        applied.wrecked = ship.is_wrecked();
        if applied.wrecked {
            sink.emit(|| Event::Effect {
                ship: label.name(&self.rules),
                effect: "is wrecked: no hull left".into(),
            });
        }
    }

    /// Allocates a hit up to its hull damage, leaving the critical hits it
    /// sets off in `work`, to be done by [`Crew2d6::work_off`] (or a piece
    /// at a time by [`Crew2d6::work_one`]).
    pub fn allocate_deferred(
        &self,
        hit: &Hit,
        ship: &mut Ship,
        label: Label,
        work: &mut Work,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Applied, ResolveError> {
        let rules = &self.rules;
        let c = &rules.constants;
        let w = rules.weapon(hit.weapon);
        let expr = w
            .damage
            .ok_or_else(|| ResolveError::Internal(format!("{} does no damage", w.name)))?;
        let (pool, rolled) = roll_sum(&expr, dice, sink)?;
        sink.emit(|| Event::Roll {
            purpose: format!("{} damage", w.name),
            dice: expr.to_string(),
            faces: faces_of(pool.as_ref()),
            total: rolled,
        });
        let armour = (ship.armour - w.ap).max(0);
        let what = "damage";
        let mut applied = Applied {
            damage_roll: rolled,
            armour,
            ..Applied::default()
        };
        let damage = match hit.missiles {
            None => {
                let per_die = rules.identical.damage_per_die(hit.identical);
                let bonus = per_die * i32::try_from(expr.count).unwrap_or(0);
                if bonus != 0 {
                    sink.emit(|| Event::Modifier {
                        to: what.into(),
                        amount: bonus,
                        reason: format!("{} identical weapons: {per_die:+} per die", hit.identical),
                    });
                }
                sink.emit(|| Event::Modifier {
                    to: what.into(),
                    amount: hit.effect,
                    reason: "the attack's Effect".into(),
                });
                self.armour_event(ship, label, w.ap, armour, sink);
                // Armour comes off before the mount multiplies the damage;
                // sand reduces the incoming damage, so it comes off the
                // multiplied amount. A hit never does less than nothing.
                let before = (rolled + bonus + hit.effect - armour).max(0);
                applied.multiplier = hit.multiplier;
                if hit.multiplier != 1 {
                    sink.emit(|| Event::Modifier {
                        to: what.into(),
                        amount: before * (hit.multiplier - 1),
                        reason: format!("the mount multiplies damage by {}", hit.multiplier),
                    });
                }
                if hit.sand != 0 {
                    sink.emit(|| Event::Modifier {
                        to: what.into(),
                        amount: -hit.sand,
                        reason: "sand".into(),
                    });
                }
                (before * hit.multiplier - hit.sand).max(0)
            }
            Some(missiles) => {
                // One missile's damage times the attack's Effect, so a hit at
                // Effect 0 does nothing; the house-rule options may give a
                // hit at Effect 0 a multiplier, or cap it at the missiles.
                let mut multiplier = hit.effect.max(0);
                if multiplier == 0 {
                    if c.zero_effect_multiplier > 0 {
                        multiplier = c.zero_effect_multiplier;
                        sink.emit(|| Event::Ruling {
                            text: format!(
                                "house rule: a salvo that hits at Effect 0 multiplies one missile's damage by {multiplier}"
                            ),
                        });
                    } else {
                        sink.emit(|| Event::Ruling {
                            text:
                                "a salvo that hits at Effect 0 multiplies one missile's damage by 0"
                                    .into(),
                        });
                    }
                }
                if c.cap_at_missiles && multiplier > i32::from(missiles) {
                    multiplier = i32::from(missiles);
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "house rule: the Effect multiplies the damage, but never beyond the {missiles} missile(s) that attacked"
                        ),
                    });
                }
                applied.multiplier = multiplier;
                self.armour_event(ship, label, w.ap, armour, sink);
                match c.missile_armour {
                    MissileArmour::PerMissile => {
                        let per = (rolled - armour).max(0);
                        sink.emit(|| Event::Base {
                            what: "one missile's damage after armour".into(),
                            value: per,
                            source: format!(
                                "{rolled} - {armour}, armour counted against each missile"
                            ),
                        });
                        per * multiplier
                    }
                    MissileArmour::Once => (rolled * multiplier - armour).max(0),
                }
            }
        };
        sink.emit(|| Event::Base {
            what: "damage".into(),
            value: damage,
            source: match hit.missiles {
                None => format!("{} hit", w.name),
                Some(_) => format!("one missile's damage x {}", applied.multiplier),
            },
        });
        applied.damage = damage;
        ship.hull = (ship.hull - damage).max(0);
        let hull_max = ship.class(rules).hull;
        sink.emit(|| Event::Effect {
            ship: label.name(rules),
            effect: format!("takes {damage} damage: hull {} of {hull_max}", ship.hull),
        });

        let crit = &rules.criticals;
        // The tenths lost are counted after the attack's critical hit and
        // all it sets off: pushed first, done last.
        push(work, Pending::Sustained)?;
        if damage > 0 && hit.effect >= crit.effect && !ship.is_wrecked() {
            // Severity is the damage divided by 10, rounded up (damage is
            // positive here, so adding divisor - 1 rounds up).
            let severity = ((damage + crit.damage_per_severity - 1) / crit.damage_per_severity)
                .clamp(1, i32::from(crit.max_severity)) as u8;
            sink.emit(|| Event::Ruling {
                text: format!(
                    "a hit at Effect {} (at least {}) that does damage is a critical hit: severity {damage} / {} rounded up = {severity}",
                    hit.effect, crit.effect, crit.damage_per_severity
                ),
            });
            push(
                work,
                Pending::Critical {
                    location: None,
                    severity,
                    cause: Cause::Attack,
                },
            )?;
        }
        Ok(applied)
    }

    /// Does all the critical-hit work in `work`, last pushed first.
    pub fn work_off(
        &self,
        ship: &mut Ship,
        label: Label,
        work: &mut Work,
        applied: &mut Applied,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        while let Some(pending) = work.pop() {
            self.work_one(ship, label, pending, work, applied, dice, sink)?;
        }
        Ok(())
    }

    /// Does one piece of critical-hit work, pushing what it sets off.
    #[allow(
        clippy::too_many_arguments,
        reason = "the ship, its name, the work and the shared report, dice and sink all take part"
    )]
    pub fn work_one(
        &self,
        ship: &mut Ship,
        label: Label,
        pending: Pending,
        work: &mut Work,
        applied: &mut Applied,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let crit = &rules.criticals;
        match pending {
            Pending::Critical {
                location,
                severity,
                cause,
            } => {
                let location = match location {
                    Some(location) => location,
                    None => self.roll_location(dice, sink)?,
                };
                self.critical_hit(ship, label, location, severity, cause, work, applied, sink)
            }
            Pending::HullDamage { location, severity } => {
                let loc = &crit.locations[usize::from(location)];
                let Some(expr) = loc.rows[usize::from(severity) - 1].hull_damage else {
                    return Ok(());
                };
                let (pool, rolled) = roll_sum(&expr, dice, sink)?;
                sink.emit(|| Event::Roll {
                    purpose: format!("{} critical hit damage", loc.name),
                    dice: expr.to_string(),
                    faces: faces_of(pool.as_ref()),
                    total: rolled,
                });
                let taken = rolled.min(ship.hull).max(0);
                ship.hull -= taken;
                applied.critical_damage += taken;
                let hull_max = ship.class(rules).hull;
                sink.emit(|| Event::Effect {
                    ship: label.name(rules),
                    effect: format!("takes {rolled} damage: hull {} of {hull_max}", ship.hull),
                });
                push(work, Pending::Sustained)
            }
            Pending::ArmourLoss { location, severity } => {
                let row = &crit.locations[usize::from(location)].rows[usize::from(severity) - 1];
                let Some(amount) = row.armour_loss else {
                    return Ok(());
                };
                let lost = match amount {
                    Amount::Fixed(n) => n,
                    Amount::Dice(expr) => {
                        let (pool, rolled) = roll_sum(&expr, dice, sink)?;
                        sink.emit(|| Event::Roll {
                            purpose: "armour lost".into(),
                            dice: expr.to_string(),
                            faces: faces_of(pool.as_ref()),
                            total: rolled,
                        });
                        rolled
                    }
                };
                ship.armour = (ship.armour - lost).max(0);
                sink.emit(|| Event::Effect {
                    ship: label.name(rules),
                    effect: format!("loses {lost} armour: armour {}", ship.armour),
                });
                Ok(())
            }
            Pending::WeaponHarm { location, severity } => {
                let row = &crit.locations[usize::from(location)].rows[usize::from(severity) - 1];
                match row.weapon {
                    Some(harm) => self.harm_weapon(ship, label, harm, dice, sink),
                    None => Ok(()),
                }
            }
            Pending::HullSeverity => {
                if ship.is_wrecked() {
                    return Ok(());
                }
                self.critical_hit(
                    ship,
                    label,
                    crit.hull as u8,
                    1,
                    Cause::HullSeverity,
                    work,
                    applied,
                    sink,
                )
            }
            Pending::Sustained => {
                if ship.is_wrecked() {
                    return Ok(());
                }
                let percent = crit.sustained_percent;
                let original = ship.class(rules).hull;
                let lost = i64::from(original - ship.hull);
                let steps =
                    (lost * 100 / (i64::from(original) * i64::from(percent))).clamp(0, 255) as u8;
                if ship.sustained >= steps {
                    return Ok(());
                }
                ship.sustained += 1;
                let step = ship.sustained;
                sink.emit(|| Event::Ruling {
                    text: format!(
                        "{}% of the starting hull is lost: a severity 1 critical hit",
                        i32::from(step) * percent
                    ),
                });
                // Counted again once this tenth's critical hit, and all
                // it sets off, is done.
                push(work, Pending::Sustained)?;
                push(
                    work,
                    Pending::Critical {
                        location: None,
                        severity: 1,
                        cause: Cause::Sustained,
                    },
                )
            }
        }
    }

    fn armour_event(
        &self,
        ship: &Ship,
        label: Label,
        ap: i32,
        armour: i32,
        sink: &mut dyn EventSink,
    ) {
        sink.emit(|| Event::Modifier {
            to: "damage".into(),
            amount: -armour,
            reason: if ap > 0 {
                format!(
                    "{}'s armour {} less AP {ap}",
                    label.name(&self.rules),
                    ship.armour
                )
            } else {
                format!("{}'s armour", label.name(&self.rules))
            },
        });
    }

    /// Rolls 2D for a critical hit's location.
    pub fn roll_location(
        &self,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<u8, ResolveError> {
        // Only the sum picks the location; the faces are rolled one by one
        // only for the log that prints them.
        let two = DiceExpr {
            count: 2,
            die: Die::D6,
            bonus: 0,
        };
        let (pool, roll) = roll_sum(&two, dice, sink)?;
        let location = usize::try_from(roll - 2)
            .ok()
            .and_then(|i| self.rules.criticals.locations.get(i))
            .ok_or_else(|| ResolveError::Internal(format!("no critical location at {roll}")))?;
        sink.emit(|| Event::Roll {
            purpose: "critical hit location".into(),
            dice: "2d6".into(),
            faces: faces_of(pool.as_ref()),
            total: roll,
        });
        sink.emit(|| Event::TableRow {
            table: "Critical Hit Location".into(),
            roll,
            row: location.name.clone(),
        });
        Ok((roll - 2) as u8)
    }

    /// A critical hit of a severity at a location, with all it sets off. A
    /// location already hit rises by one, never beyond the highest; its new
    /// row's one-time effects apply.
    #[allow(
        clippy::too_many_arguments,
        reason = "the ship, its name, what is hit and the shared report, dice and sink all take part"
    )]
    pub fn critical(
        &self,
        ship: &mut Ship,
        label: Label,
        location: u8,
        severity: u8,
        cause: Cause,
        applied: &mut Applied,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let mut work = Work::new();
        self.critical_hit(
            ship, label, location, severity, cause, &mut work, applied, sink,
        )?;
        self.work_off(ship, label, &mut work, applied, dice, sink)
    }

    /// A critical hit of a severity at a location, what it sets off pushed
    /// onto `work`: its row's hull damage done first, then its armour lost,
    /// its weapon harmed and the Hull criticals it raises.
    #[allow(
        clippy::too_many_arguments,
        reason = "the ship, its name, what is hit, the work and the shared report and sink all take part"
    )]
    fn critical_hit(
        &self,
        ship: &mut Ship,
        label: Label,
        location: u8,
        severity: u8,
        cause: Cause,
        work: &mut Work,
        applied: &mut Applied,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let crit = &rules.criticals;
        let index = usize::from(location);
        let loc = &crit.locations[index];
        if ship.is_wrecked() {
            sink.emit(|| Event::Ruling {
                text: format!("the ship is wrecked: no critical hit to its {}", loc.name),
            });
            return Ok(());
        }
        let from = ship.severity[index];
        // A location already hit rises by exactly one, whatever the new
        // hit's severity (the reference's rule), so no row is skipped.
        let to = if from == 0 { severity } else { from + 1 }.min(crit.max_severity);
        if to <= from {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "the {} is already at severity {from}, the highest: no further effect",
                    loc.name
                ),
            });
            return Ok(());
        }
        ship.severity[index] = to;
        ship.jury_rigged &= !(1 << location);
        ship.refresh(rules);
        let _ = applied.criticals.try_push(CriticalHit {
            location,
            from,
            to,
            cause,
        });
        let row = &loc.rows[usize::from(to) - 1];
        sink.emit(|| Event::Effect {
            ship: label.name(rules),
            effect: if from == 0 {
                format!("critical hit: {} severity {to}: {}", loc.name, row.text)
            } else {
                format!(
                    "critical hit: {} severity {from} rises to {to}: {}",
                    loc.name, row.text
                )
            },
        });
        // Last pushed, first done.
        for _ in 0..row.hull_severity {
            push(work, Pending::HullSeverity)?;
        }
        if row.weapon.is_some() {
            push(
                work,
                Pending::WeaponHarm {
                    location,
                    severity: to,
                },
            )?;
        }
        if row.armour_loss.is_some() {
            push(
                work,
                Pending::ArmourLoss {
                    location,
                    severity: to,
                },
            )?;
        }
        if row.hull_damage.is_some() {
            push(
                work,
                Pending::HullDamage {
                    location,
                    severity: to,
                },
            )?;
        }
        Ok(())
    }

    /// A weapon critical's harm, to a random weapon not yet destroyed.
    fn harm_weapon(
        &self,
        ship: &mut Ship,
        label: Label,
        harm: crate::model::WeaponHarm,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let candidates: ArrayVec<usize, { crate::ship::MAX_SLOTS }> = (0..ship.weapons.len())
            .filter(|&s| ship.weapons[s] != Condition::Destroyed)
            .collect();
        let pick = match candidates.len() {
            0 => {
                sink.emit(|| Event::Ruling {
                    text: "no weapon is left for the weapon critical hit to harm".into(),
                });
                return Ok(());
            }
            1 => candidates[0],
            n => {
                let die = Die::new(n as u32)
                    .ok_or_else(|| ResolveError::Internal("a die of one side".into()))?;
                let face = dice.roll(die)?;
                sink.emit(|| Event::Roll {
                    purpose: "which weapon the critical hit harms, among those not destroyed"
                        .into(),
                    dice: die.to_string(),
                    faces: vec![face],
                    total: face as i32,
                });
                candidates[(face - 1) as usize]
            }
        };
        let before = ship.weapons[pick];
        let after = before.harmed(harm);
        ship.weapons[pick] = after;
        sink.emit(|| {
            let class = ship.class(rules);
            let slot = class.slots[pick];
            Event::Effect {
                ship: label.name(rules),
                effect: format!(
                    "its {} in {} {}",
                    rules.weapon(slot.weapon).name,
                    class.mounts[usize::from(slot.mount)].id,
                    match after {
                        Condition::Ready => "still works",
                        Condition::Bane => "suffers a Bane when used",
                        Condition::Disabled => "is disabled",
                        Condition::Destroyed => "is destroyed",
                    }
                ),
            }
        });
        Ok(())
    }

    /// Sustained damage: each further tenth of the starting hull lost is a
    /// severity 1 critical hit at a rolled location. The tenths lost are
    /// rounded down: a tenth counts once it is wholly gone.
    pub fn sustained(
        &self,
        ship: &mut Ship,
        label: Label,
        applied: &mut Applied,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let mut work = Work::new();
        push(&mut work, Pending::Sustained)?;
        self.work_off(ship, label, &mut work, applied, dice, sink)
    }
}

impl DamageAllocation for Crew2d6 {
    type Target = Ship;
    type Hit = Hit;
    type Applied = Applied;

    fn allocate(
        &self,
        hit: &Hit,
        target: &mut Ship,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Applied, ResolveError> {
        let label = Label {
            class: target.class,
            side: None,
            nth: 0,
        };
        self.allocate_labelled(hit, target, label, dice, sink)
    }
}

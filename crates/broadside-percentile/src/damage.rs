//! Damage allocation: the Damage Table roll and what each row does to a ship,
//! with every fall-back to a hull hit the rules name.

use arrayvec::ArrayVec;
use broadside_core::{
    DamageAllocation, Dice, DiceError, DiceExpr, Die, Emit, Event, EventSink, Pool, ResolveError,
};

use crate::model::{Defence, Effect, Loss, Rules, WeaponId};
use crate::ship::Ship;
use crate::{Percentile, count_of};

/// What made a hit: named only when the log is written, so a hit costs no
/// allocation in a Monte Carlo run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    /// A weapon.
    Weapon(WeaponId),
    /// An electrical fire burning aboard.
    Fire,
}

/// A hit to allocate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hit {
    /// What hit.
    pub cause: Cause,
    /// Added to the Damage Table roll: the weapon's DTM, or the fire's +20.
    pub modifier: i32,
    /// Hull damage dice of a hull hit.
    pub hull_damage: DiceExpr,
    /// The Combat Table cell was a `*` cell: hull damage is halved.
    pub half_damage: bool,
}

impl Hit {
    /// A hit by a weapon.
    pub fn from_weapon(rules: &Rules, weapon: WeaponId, half_damage: bool) -> Hit {
        let w = rules.weapon(weapon);
        Hit {
            cause: Cause::Weapon(weapon),
            modifier: w.dtm,
            hull_damage: w.hull_damage,
            half_damage,
        }
    }

    /// The cause's name, for the log.
    pub fn cause_name(&self, rules: &Rules) -> String {
        match self.cause {
            Cause::Weapon(w) => rules.weapon(w).name.clone(),
            Cause::Fire => "electrical fire".into(),
        }
    }
}

/// A system a hit destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SystemLost {
    /// A weapon system.
    Weapon(WeaponId),
    /// A defence system.
    Defence(Defence),
}

/// What a hit did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The Damage Table roll after its modifier.
    pub damage_roll: i32,
    /// Index of the Damage Table row found.
    pub row: usize,
    /// The row's result, or part of a disastrous fire, could not apply, and
    /// a normal hull hit was made for it.
    pub fell_back: bool,
    /// The system destroyed, if any.
    pub system_lost: Option<SystemLost>,
    /// Hull points lost.
    pub hull_damage: i32,
}

impl Percentile {
    /// Allocates a hit to a ship whose name events use.
    pub fn allocate_named<D: Dice + ?Sized, S: EventSink + ?Sized>(
        &self,
        hit: &Hit,
        target: &mut Ship,
        name: &str,
        dice: &mut D,
        sink: &mut S,
    ) -> Result<Applied, ResolveError> {
        let rules = &self.rules;
        // Only the row the modified roll falls in matters, so the roll is
        // asked for by the rows' bounds: an exact enumeration branches once
        // per row instead of once per face. Plain dice roll the same face
        // either way, so they are spared working out the bounds.
        let face = if dice.enumerates() {
            dice.band(Die::D100, &damage_bands(rules, hit.modifier))?
        } else {
            dice.roll(Die::D100)?
        };
        let roll = face as i32 + hit.modifier;
        sink.emit(|| Event::Roll {
            purpose: "Damage Table roll".into(),
            dice: Die::D100.to_string(),
            faces: vec![face],
            total: face as i32,
        });
        if hit.modifier != 0 {
            sink.emit(|| Event::Modifier {
                to: "Damage Table roll".into(),
                amount: hit.modifier,
                reason: format!(
                    "{} ({face} {} {} = {roll})",
                    hit.cause_name(rules),
                    if hit.modifier < 0 { '-' } else { '+' },
                    hit.modifier.abs()
                ),
            });
        }
        // Validation makes the rows cover every roll a weapon or a fire can
        // make, the last ending at the highest, so some row's end is at or
        // above the roll.
        let row_index = rules.damage_table.partition_point(|r| r.to < roll);
        let row = &rules.damage_table[row_index];
        sink.emit(|| Event::TableRow {
            table: "Damage Table".into(),
            roll,
            row: row.text.clone(),
        });

        let mut applied = Applied {
            damage_roll: roll,
            row: row_index,
            fell_back: false,
            system_lost: None,
            hull_damage: 0,
        };
        let effect = |sink: &mut S, text: &dyn Fn() -> String| {
            sink.emit(|| Event::Effect {
                ship: name.to_owned(),
                effect: text(),
            });
        };
        let skip_destroyed = rules.constants.skip_destroyed_systems;
        // The parts of a disastrous fire already in effect, for the log.
        let mut blocked: ArrayVec<&'static str, 5> = ArrayVec::new();
        let fall_back = match &row.effect {
            Effect::Hull { multiplier } => {
                applied.hull_damage = self.hull_hit(hit, *multiplier, target, name, dice, sink)?;
                None
            }
            Effect::Drive(loss) => {
                if target.adf == 0 {
                    Some("it has no ADF left to lose")
                } else {
                    let lost = self.points_lost(*loss, target.adf, rules.class(target.class).adf);
                    target.adf -= lost;
                    effect(sink, &|| {
                        format!("loses {lost} ADF (ADF {} now)", target.adf)
                    });
                    None
                }
            }
            Effect::Steering(loss) => {
                if target.mr == 0 {
                    Some("it has no MR left to lose")
                } else {
                    let lost = self.points_lost(*loss, target.mr, rules.class(target.class).mr);
                    target.mr -= lost;
                    effect(sink, &|| format!("loses {lost} MR (MR {} now)", target.mr));
                    None
                }
            }
            Effect::Weapon(list) => {
                let found = first_listed(
                    list,
                    skip_destroyed,
                    |weapon| target.weapons.iter().any(|m| m.weapon == weapon),
                    |weapon| {
                        target
                            .weapons
                            .iter()
                            .position(|m| !m.destroyed && m.weapon == weapon)
                    },
                );
                match found {
                    Listed::NoneCarried => Some("it has none of the systems listed left"),
                    Listed::AlreadyDestroyed => Some(ALREADY_DESTROYED),
                    Listed::Intact(i) => {
                        let mount = &mut target.weapons[i];
                        mount.destroyed = true;
                        applied.system_lost = Some(SystemLost::Weapon(mount.weapon));
                        effect(sink, &|| {
                            format!("{} destroyed", rules.weapon(mount.weapon).name)
                        });
                        None
                    }
                }
            }
            Effect::Defence(list) => {
                let found = first_listed(
                    list,
                    skip_destroyed,
                    |defence| target.defences.iter().any(|m| m.defence == defence),
                    |defence| {
                        target
                            .defences
                            .iter()
                            .position(|m| !m.destroyed && m.defence == defence)
                    },
                );
                match found {
                    Listed::NoneCarried => Some("it has none of the systems listed left"),
                    Listed::AlreadyDestroyed => Some(ALREADY_DESTROYED),
                    Listed::Intact(i) => {
                        let defence = target.defences[i].defence;
                        target.defences[i].destroyed = true;
                        if target.screen == Some(defence) {
                            target.screen = None;
                        }
                        applied.system_lost = Some(SystemLost::Defence(defence));
                        effect(sink, &|| {
                            format!("{} destroyed", rules.defence_info(defence).name)
                        });
                        None
                    }
                }
            }
            Effect::PowerShortCircuit => {
                let has_powered = target.defences.iter().any(|m| {
                    !m.destroyed && (m.defence.is_powered() || m.defence == Defence::MaskingScreen)
                });
                if target.damaged.short_circuit {
                    Some("its power is already short-circuited")
                } else if !has_powered {
                    Some("it has no screens, masking screens or ICMs to lose")
                } else {
                    target.damaged.short_circuit = true;
                    target.screen = None;
                    effect(sink, &|| {
                        "power short circuit: screens and ICMs off, no new masking screens".into()
                    });
                    None
                }
            }
            Effect::CombatControl { penalty } => {
                if target.damaged.combat_control {
                    Some("its combat control system is already damaged")
                } else {
                    target.damaged.combat_control = true;
                    effect(sink, &|| {
                        format!("combat control system damaged: {penalty} on all attacks")
                    });
                    None
                }
            }
            Effect::Navigation => {
                if target.damaged.navigation {
                    Some("its navigation is already damaged")
                } else {
                    target.damaged.navigation = true;
                    effect(sink, &|| {
                        "navigation damaged: out of control until repaired".into()
                    });
                    None
                }
            }
            Effect::ElectricalFire => {
                if target.damaged.fire {
                    Some("a ship can have only one fire at a time")
                } else {
                    target.damaged.fire = true;
                    effect(sink, &|| "electrical fire".into());
                    None
                }
            }
            Effect::DamageControl => {
                if target.damaged.damage_control {
                    Some("its damage control is already hit")
                } else {
                    self.halve_dcr(target, name, sink);
                    None
                }
            }
            Effect::DisastrousFire { penalty } => {
                // Each part that can still happen applies. A part already in
                // effect is a hit on a system already hit (a second fire,
                // combat or damage control hit again, no ADF or MR left to
                // lose), which the rules make hull damage: one normal hull
                // hit for the result, however many of its parts are blocked.
                if target.damaged.damage_control {
                    blocked.push("damage control is already hit");
                } else {
                    self.halve_dcr(target, name, sink);
                }
                if target.adf > 0 {
                    target.adf = 0;
                    effect(sink, &|| "loses its entire ADF".into());
                } else {
                    blocked.push("it has no ADF left to lose");
                }
                if target.mr > 0 {
                    target.mr = 0;
                    effect(sink, &|| "loses its entire MR".into());
                } else {
                    blocked.push("it has no MR left to lose");
                }
                if target.damaged.combat_control {
                    blocked.push("combat control is already damaged");
                } else {
                    target.damaged.combat_control = true;
                    effect(sink, &|| {
                        format!("combat control damaged: {penalty} on all attacks")
                    });
                }
                if target.damaged.fire {
                    blocked.push("a ship can have only one fire at a time");
                } else {
                    target.damaged.fire = true;
                    effect(sink, &|| "electrical fire".into());
                }
                match blocked.len() {
                    0 => None,
                    5 => Some("every part of it is already in effect"),
                    _ => Some("part of it is already in effect"),
                }
            }
        };
        if let Some(reason) = fall_back {
            sink.emit(|| Event::Ruling {
                text: if blocked.is_empty() || blocked.len() == 5 {
                    format!("{reason}: the {name} takes a normal hull hit instead")
                } else {
                    format!(
                        "{reason} ({}): the {name} takes a normal hull hit for it",
                        blocked.join("; ")
                    )
                },
            });
            applied.fell_back = true;
            applied.hull_damage = self.hull_hit(hit, 1, target, name, dice, sink)?;
        }
        Ok(applied)
    }

    /// ADF or MR points a drive or steering hit takes from `now`.
    /// A half loss is half the original rating, rounded up, as the Damage
    /// Table prints it; it cannot take more than is left.
    fn points_lost(&self, loss: Loss, now: u8, original: u8) -> u8 {
        match loss {
            Loss::One => 1,
            Loss::Half => original.div_ceil(2).min(now),
            Loss::All => now,
        }
    }

    /// A damage control hit: DCR becomes half the original, rounded up.
    fn halve_dcr<S: EventSink + ?Sized>(&self, target: &mut Ship, name: &str, sink: &mut S) {
        target.damaged.damage_control = true;
        target.dcr = self.rules.class(target.class).dcr.div_ceil(2);
        sink.emit(|| Event::Effect {
            ship: name.to_owned(),
            effect: format!(
                "damage control hit: DCR cut in half, rounded up, to {}",
                target.dcr
            ),
        });
    }

    /// Rolls hull damage and takes it off the hull: doubled first, then
    /// halved (rounded up) for a `*` cell, so the halving applies once.
    fn hull_hit<D: Dice + ?Sized, S: EventSink + ?Sized>(
        &self,
        hit: &Hit,
        multiplier: i32,
        target: &mut Ship,
        name: &str,
        dice: &mut D,
        sink: &mut S,
    ) -> Result<i32, ResolveError> {
        let (pool, rolled) = roll_sum(&hit.hull_damage, dice, sink)?;
        sink.emit(|| Event::Roll {
            purpose: "hull damage".into(),
            dice: hit.hull_damage.to_string(),
            faces: pool.to_vec(),
            total: rolled,
        });
        let mut damage = rolled;
        if multiplier != 1 {
            damage = rolled * multiplier;
            sink.emit(|| Event::Modifier {
                to: "hull damage".into(),
                amount: damage - rolled,
                reason: format!("double damage: {rolled} x {multiplier} = {damage}"),
            });
        }
        if hit.half_damage {
            let halved = (damage + 1) / 2;
            sink.emit(|| Event::Modifier {
                to: "hull damage".into(),
                amount: halved - damage,
                reason: format!("half damage, rounded up: {damage} / 2 = {halved}"),
            });
            damage = halved;
        }
        let damage = damage.max(0);
        target.hull = (target.hull - damage).max(0);
        let max = self.rules.class(target.class).hull;
        sink.emit(|| Event::Effect {
            ship: name.to_owned(),
            effect: format!(
                "loses {} ({} of {max} left)",
                count_of(damage, "hull point", "hull points"),
                target.hull
            ),
        });
        if target.hull == 0 {
            sink.emit(|| Event::Effect {
                ship: name.to_owned(),
                effect: "destroyed".into(),
            });
        }
        Ok(damage)
    }

    /// The damage an electrical fire does at the start of a combat step.
    pub fn fire_hit(&self) -> Hit {
        Hit {
            cause: Cause::Fire,
            modifier: self.rules.constants.fire_damage_modifier,
            hull_damage: self.rules.constants.fire_hull_damage,
            half_damage: false,
        }
    }
}

/// The highest d100 face of each Damage Table row but the last, once
/// `modifier` is added to the roll: the bands a Damage Table roll is asked
/// for by. Rows no face can reach are left out, and so is every row from the
/// first that takes face 100, since the last band runs to 100.
pub fn damage_bands(rules: &Rules, modifier: i32) -> ArrayVec<u32, 100> {
    let mut tops = ArrayVec::new();
    let rows = rules.damage_table.len().saturating_sub(1);
    for row in &rules.damage_table[..rows] {
        let top = i64::from(row.to) - i64::from(modifier);
        // Faces 1 to 99 only: at most 99 tops. Validation makes each row
        // start where the one before ends, so each top is above the last.
        if (1..100).contains(&top) {
            tops.push(top as u32);
        }
    }
    tops
}

/// Rolls dice whose sum alone matters to the rules. A sink that keeps events
/// shows every face, so it gets them; otherwise the dice are asked for the
/// sum alone, which an exact enumeration branches on once per sum rather
/// than once per face. Both consume the same faces in the same order, so
/// seeded and scripted games read alike either way. The pool is empty when
/// only the sum was asked for.
pub(crate) fn roll_sum<D: Dice + ?Sized, S: EventSink + ?Sized>(
    expr: &DiceExpr,
    dice: &mut D,
    sink: &S,
) -> Result<(Pool, i32), DiceError> {
    if sink.enabled() {
        return expr.roll(dice);
    }
    let sum = dice.total(expr.count, expr.die)?;
    let total = i32::try_from(sum)
        .unwrap_or(i32::MAX)
        .saturating_add(expr.bonus);
    Ok((Pool::default(), total))
}

/// Why a weapon or defense hit whose first listed system is gone falls back.
const ALREADY_DESTROYED: &str = "the first listed system it carries is already destroyed, and a hit on a destroyed system is a hull hit";

/// Which system of a weapon-hit or defense-hit list a hit lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listed {
    /// This mount, intact, of the first listed system the ship carries.
    Intact(usize),
    /// The first listed system the ship carries is destroyed, every mount.
    AlreadyDestroyed,
    /// The ship carries none of the listed systems.
    NoneCarried,
}

/// Walks a Damage Table list as seed 000 reads: a system the ship "does not
/// have" passes the hit to the next one listed, while a system it has that
/// is "already destroyed by damage" makes it a hull hit. With
/// `skip_destroyed` (a house rule) destroyed systems pass it on as well.
fn first_listed<T: Copy>(
    list: &[T],
    skip_destroyed: bool,
    carries: impl Fn(T) -> bool,
    intact: impl Fn(T) -> Option<usize>,
) -> Listed {
    for &system in list {
        if !carries(system) {
            continue;
        }
        match intact(system) {
            Some(mount) => return Listed::Intact(mount),
            None if skip_destroyed => continue,
            None => return Listed::AlreadyDestroyed,
        }
    }
    Listed::NoneCarried
}

impl DamageAllocation for Percentile {
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
        // The class id names the ship in the log; it is borrowed from the
        // rules, which the target does not alias.
        let rules = &self.rules;
        self.allocate_named(hit, target, &rules.class(target.class).id, dice, sink)
    }
}

//! Blasts: a ship's explosion and a Fusion burst, which strike everything near them as indirect Cannon hits.
//!
//! An exploding ship deals a Cannon hit of power equal to its Size to every
//! object in its hex and one less per hex out; hit allocation lands on each
//! ship's centre mark and Shields work as usual. A docked ship takes the
//! blast twice, a microship makes a survival check instead, and a
//! spacewalker takes the power in damage dice.

use broadside_core::{Dice, Event, EventSink, ResolveError};

use crate::ModuleGrid;
use crate::attack::{AllocationRoll, Board, BurstFirer, Rerolls};
use crate::damage::{Applied, Cause, Hit};
use crate::model::ShipSide;

/// Something a blast reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bystander {
    /// A ship on the board.
    Ship {
        /// Its index on the board.
        index: usize,
        /// Hexes from the blast.
        distance: u32,
        /// The side the blast strikes.
        side: ShipSide,
        /// Docked to the exploding ship: it takes the blast twice.
        docked: bool,
    },
    /// A microship, which takes no Damage level but makes a survival check.
    Microship {
        /// Hexes from the blast.
        distance: u32,
        /// Damage levels it already has.
        damage_levels: u8,
    },
    /// A person in open space.
    Spacewalker {
        /// Hexes from the blast.
        distance: u32,
    },
}

/// One strike of a blast on a ship.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlastStrike {
    /// The allocation roll on the centre mark.
    pub allocation: AllocationRoll,
    /// What the strike did.
    pub applied: Applied,
}

/// What a blast did to one bystander.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlastResult {
    /// A ship: each strike (two when docked), none when the power is 0.
    Ship {
        /// Its index on the board.
        index: usize,
        /// The power that reached it.
        power: u8,
        /// Each strike.
        strikes: Vec<BlastStrike>,
    },
    /// A microship's survival check.
    Microship {
        /// The power that reached it.
        power: u8,
        /// The dice, when a check was made.
        roll: Option<(u8, u8)>,
        /// The number the roll had to reach.
        needed: i32,
        /// Whether it survived.
        survived: bool,
    },
    /// A spacewalker's damage dice (personal damage is not rolled here).
    Spacewalker {
        /// Damage dice it suffers.
        dice: u8,
    },
}

impl ModuleGrid {
    /// An explosion's power `distance` hexes out from a ship of `size`:
    /// Size in its own hex, one less per hex, never below 0.
    pub fn explosion_power(&self, size: u8, distance: u32) -> u8 {
        let fall = u32::from(self.rules.constants.explosion_falloff).saturating_mul(distance);
        u8::try_from(u32::from(size).saturating_sub(fall)).unwrap_or(0)
    }

    /// A Fusion burst's power `distance` hexes out from where it bursts.
    pub fn burst_power(&self, power: u8, distance: u32) -> u8 {
        let falloff = self.rules.mode(crate::model::Mode::Fusion).falloff_per_hex;
        let fall = u32::from(falloff).saturating_mul(distance);
        u8::try_from(u32::from(power).saturating_sub(fall)).unwrap_or(0)
    }

    /// One indirect strike of `power` on a ship: hit allocation on its centre
    /// mark, then a hit through Shields. Nothing happens at power 0.
    #[allow(
        clippy::too_many_arguments,
        reason = "a blast strike's parts are all the rules' own"
    )]
    pub fn blast_strike(
        &self,
        board: &mut Board,
        index: usize,
        power: u8,
        side: ShipSide,
        cause: Cause,
        firer: Option<BurstFirer<'_>>,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Option<BlastStrike>, ResolveError> {
        let ship = *board.ship(index, "a blast")?;
        if ship.is_destroyed() {
            return Ok(None);
        }
        if power == 0 {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "the {} has no power left by the {}",
                    cause.name(),
                    board.names[index]
                ),
            });
            return Ok(None);
        }
        let class = self.rules.class(ship.class);
        sink.emit(|| Event::Declared {
            actor: format!("the {}", cause.name()),
            action: format!(
                "strikes the {}'s {side} side with power {power}, on its centre mark",
                board.names[index]
            ),
        });
        // A burst has a firer, who may spend its scans on this ship and its
        // Luck on the allocation (seed line 44); an explosion has none.
        let luck_per_reroll = self.rules.constants.luck_per_reroll;
        let rerolls = match firer {
            None => None,
            Some(BurstFirer { ship, foe, choose }) => {
                let Some(firer) = board.ships.get_mut(ship) else {
                    return Err(ResolveError::Internal(
                        "a burst names a firer not on the board".into(),
                    ));
                };
                let (scans, luck) = firer.reroll_means(index, luck_per_reroll);
                Some(Rerolls {
                    firer,
                    scans,
                    luck,
                    foe,
                    choose,
                })
            }
        };
        let allocation = self.allocation_roll(&ship, side, class.centre, rerolls, dice, sink)?;
        let hit = Hit {
            cause,
            power,
            through_shields: true,
            side,
            line: allocation.line,
            impact_only: false,
        };
        let applied = self.allocate_named(
            &hit,
            &mut board.ships[index],
            &board.names[index],
            dice,
            sink,
        )?;
        Ok(Some(BlastStrike {
            allocation,
            applied,
        }))
    }

    /// A ship of `size` explodes: every bystander takes the blast at its
    /// distance, in the order given.
    pub fn explosion(
        &self,
        size: u8,
        board: &mut Board,
        bystanders: &[Bystander],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Vec<BlastResult>, ResolveError> {
        let c = &self.rules.constants;
        let mut results = Vec::with_capacity(bystanders.len());
        for &bystander in bystanders {
            match bystander {
                Bystander::Ship {
                    index,
                    distance,
                    side,
                    docked,
                } => {
                    let power = self.explosion_power(size, distance);
                    sink.emit(|| Event::Base {
                        what: "explosion power".into(),
                        value: i32::from(power),
                        source: format!(
                            "Size {size}, less {} per hex at {distance} {}",
                            c.explosion_falloff,
                            if distance == 1 { "hex" } else { "hexes" }
                        ),
                    });
                    let times = if docked { c.docked_times } else { 1 };
                    if docked {
                        sink.emit(|| Event::Ruling {
                            text: format!(
                                "the {} is docked to the exploding ship and takes the blast {times} times",
                                board.names.get(index).map_or("ship", String::as_str)
                            ),
                        });
                    }
                    let mut strikes = Vec::new();
                    for _ in 0..times {
                        if let Some(strike) = self.blast_strike(
                            board,
                            index,
                            power,
                            side,
                            Cause::Explosion,
                            None,
                            dice,
                            sink,
                        )? {
                            strikes.push(strike);
                        }
                    }
                    results.push(BlastResult::Ship {
                        index,
                        power,
                        strikes,
                    });
                }
                Bystander::Microship {
                    distance,
                    damage_levels,
                } => {
                    let power = self.explosion_power(size, distance);
                    results.push(self.microship_survival(power, damage_levels, dice, sink)?);
                }
                Bystander::Spacewalker { distance } => {
                    let power = self.explosion_power(size, distance);
                    sink.emit(|| Event::Effect {
                        ship: "spacewalker".into(),
                        effect: format!(
                            "suffers the blast's full power: {power} dice of damage (personal damage is not rolled here)"
                        ),
                    });
                    results.push(BlastResult::Spacewalker { dice: power });
                }
            }
        }
        Ok(results)
    }

    /// A microship caught in a blast: no Damage level, but one survival
    /// check, two dice at or over the survival number plus its Damage levels.
    /// Ruling: a blast of power 0 does not reach it, so no check is made.
    pub fn microship_survival(
        &self,
        power: u8,
        damage_levels: u8,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<BlastResult, ResolveError> {
        let c = &self.rules.constants;
        let needed = c.microship_survival + i32::from(damage_levels);
        if power == 0 {
            sink.emit(|| Event::Ruling {
                text: "the blast has no power left by the microship: no survival check".into(),
            });
            return Ok(BlastResult::Microship {
                power,
                roll: None,
                needed,
                survived: true,
            });
        }
        sink.emit(|| Event::Base {
            what: "microship survival check".into(),
            value: c.microship_survival,
            source: "Ship Explosion: microships".into(),
        });
        if damage_levels > 0 {
            sink.emit(|| Event::Modifier {
                to: "microship survival check".into(),
                amount: i32::from(damage_levels),
                reason: "Damage levels it already has".into(),
            });
        }
        // No skill is added: the survival check is a plain roll of the
        // skill-check dice (a ruling; the microship's pilot is not modelled).
        let count = c.skill_dice;
        // Only survival is read from the dice; the faces are shown.
        let rolled = crate::reading::dice_by_outcome(
            dice,
            u32::from(count),
            broadside_core::Die::D6,
            |faces| faces.iter().sum::<u32>() as i32 >= needed,
        )?;
        let total = rolled.total() as i32;
        let success = total >= needed;
        sink.emit(|| Event::Roll {
            purpose: "microship survival check".into(),
            dice: format!("{count}d6"),
            faces: rolled.to_vec(),
            total,
        });
        sink.emit(|| Event::Check {
            what: "microship survives".into(),
            roll: total,
            target: needed,
            success,
            rule: None,
        });
        let mut faces = rolled.faces();
        let first = faces.next().unwrap_or(0) as u8;
        let second = faces.next().unwrap_or(0) as u8;
        if !success {
            sink.emit(|| Event::Effect {
                ship: "microship".into(),
                effect: "is destroyed by the blast".into(),
            });
        }
        Ok(BlastResult::Microship {
            power,
            roll: Some((first, second)),
            needed,
            survived: success,
        })
    }
}

//! Attack resolution: the to-hit check, the 2d6 hit allocation on the centre line, and the hit it lands.
//!
//! A Cannon shot, a missile or a teleported bomb is declared with the side it
//! strikes (already found from the line of sight) and, for direct fire, the
//! point the firer calls as the "7". Resolution checks the declaration,
//! spends what firing spends (Guns power, a missile, a bomb), rolls the skill
//! check, rolls hit allocation, and hands the hit to damage allocation.

use arrayvec::ArrayVec;
use broadside_core::{AttackResolution, Dice, Die, Event, EventSink, Order, ResolveError};

use crate::ModuleGrid;
use crate::damage::{Applied, Cause, Hit};
use crate::model::{Crew, Function, Mode, ModuleIx, ShipSide, Skill, Square};
use crate::reading;
use crate::ship::Ship;
use crate::tactics::DefaultTactics;

/// The ships an attack is resolved among, with the names events use.
pub type Board = broadside_core::Board<Ship>;

/// What fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Weapon {
    /// A Cannon module, in a mode.
    Cannon {
        /// The Cannon.
        module: ModuleIx,
        /// Its configuration for this shot.
        mode: Mode,
    },
    /// A Missile Bay launching one missile.
    Missile {
        /// The Missile Bay.
        module: ModuleIx,
    },
    /// A Teleporter sending one bomb.
    Teleporter {
        /// The Teleporter.
        module: ModuleIx,
    },
}

impl Weapon {
    /// The module that fires.
    pub const fn module(self) -> ModuleIx {
        match self {
            Weapon::Cannon { module, .. }
            | Weapon::Missile { module }
            | Weapon::Teleporter { module } => module,
        }
    }

    /// Whether its hit allocation uses the target's centre mark rather than
    /// a called point.
    pub fn is_indirect(self, system: &ModuleGrid) -> bool {
        match self {
            Weapon::Cannon { mode, .. } => system.rules.mode(mode).indirect,
            Weapon::Missile { .. } => true,
            Weapon::Teleporter { .. } => false,
        }
    }
}

/// A declared attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shot {
    /// Index of the firing ship on the board.
    pub attacker: usize,
    /// What it fires.
    pub weapon: Weapon,
    /// Index of the target ship on the board.
    pub target: usize,
    /// Range in hexes.
    pub range: u32,
    /// The side of the target struck (from the line of sight, or chosen where
    /// the rules let the firer choose).
    pub side: ShipSide,
    /// The point called as the "7" (Cannon and Teleporter); `None` uses the
    /// target's centre mark.
    pub call: Option<Square>,
    /// The most scans the firer offers for rerolling allocation dice on
    /// this shot; only scans it has on the target can be spent.
    pub scans: u8,
    /// The most Luck rerolls the firer offers for this shot's allocation.
    pub luck: u8,
}

/// What pays for an allocation reroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RerollWith {
    /// A scan the firer has on the target.
    Scan,
    /// The firing character's Luck.
    Luck,
}

impl RerollWith {
    /// How events name it.
    pub const fn name(self) -> &'static str {
        match self {
            RerollWith::Scan => "a scan",
            RerollWith::Luck => "Luck",
        }
    }
}

/// The firer's answer when offered an allocation reroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reroll {
    /// The die to roll again: 0 or 1, in the order the dice were rolled.
    pub die: usize,
    /// What pays for it.
    pub with: RerollWith,
}

/// An allocation roll as it stands, shown to the firer before each reroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocationView<'a> {
    /// The target as it is now.
    pub target: &'a Ship,
    /// The side struck.
    pub side: ShipSide,
    /// The point used as the "7": the called point or the centre mark.
    pub centre: Square,
    /// The two dice as they stand.
    pub faces: [u8; 2],
    /// The row or column they land on, 0-based (may lie off the layout).
    pub line: i32,
    /// Scans the firer may still spend on this roll.
    pub scans: u8,
    /// Luck rerolls the firer may still pay for on this roll.
    pub luck: u8,
    /// Whether the ship struck is the firer's enemy (`false` for a friend,
    /// or the firer itself, in its own Fusion burst).
    pub foe: bool,
}

/// Who decides allocation rerolls: the firer's tactics in engagements, the
/// default policy in a single resolution. Called after the roll and after
/// each reroll; `None` keeps the dice as they stand.
pub type RerollChoice<'a> = &'a dyn Fn(&AllocationView<'_>) -> Option<Reroll>;

/// What the firer may spend on allocation rerolls, and who chooses.
pub struct Rerolls<'a> {
    /// The firer, whose scans and Luck pay.
    pub firer: &'a mut Ship,
    /// Scans it may spend: those it has on the target, within its offer.
    pub scans: u8,
    /// Luck rerolls it may pay for, within its offer.
    pub luck: u8,
    /// Whether the ship struck is the firer's enemy: a Fusion burst also
    /// strikes friends and the firer itself.
    pub foe: bool,
    /// The firer's choice before each reroll.
    pub choose: RerollChoice<'a>,
}

/// The firer of a Fusion burst, as the ships it strikes beyond its target
/// see it: who pays for rerolls, whether the ship struck is its enemy, and
/// its choice of each reroll.
#[derive(Clone, Copy)]
pub struct BurstFirer<'a> {
    /// The firing ship's index on the board.
    pub ship: usize,
    /// Whether the ship struck is its enemy.
    pub foe: bool,
    /// Its choice before each reroll.
    pub choose: RerollChoice<'a>,
}

/// A skill check: the dice, the total and the difficulty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillRoll {
    /// Every die rolled (three for a professional).
    pub faces: ArrayVec<u8, 8>,
    /// The dice kept plus skill and penalties.
    pub total: i32,
    /// The number to reach.
    pub difficulty: i32,
    /// Whether the total reached it.
    pub success: bool,
}

/// A hit allocation roll and the line it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AllocationRoll {
    /// The two dice as they finally stood.
    pub faces: [u8; 2],
    /// Their total.
    pub total: i32,
    /// The point used as the "7": the called point or the centre mark.
    pub centre: Square,
    /// The row or column landed on, 0-based (may lie off the layout).
    pub line: i32,
    /// Scans spent on rerolls.
    pub scans_spent: u8,
    /// Luck spent on rerolls.
    pub luck_spent: u8,
}

/// What the rules read of a hit allocation roll as it stands when the firer
/// may reroll it: everything the rolls to come depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Standing {
    /// The firer keeps the dice: the line they land on, or `None` for a
    /// miss (every miss alike).
    Kept(Option<i32>),
    /// The firer rolls die `die` again, paying with Luck or a scan; the
    /// other die's face stays.
    Reroll {
        /// The die rolled again, 0 or 1.
        die: usize,
        /// The face that stays.
        stays: u8,
        /// Whether Luck pays (otherwise a scan).
        luck: bool,
    },
    /// The firer asked for a reroll it cannot have.
    Refused,
}

/// What an attack came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShotOutcome {
    /// The shot's power (Cannon and missile dice before Shields).
    pub power: u8,
    /// The range the to-hit check counted (half in Long mode).
    pub effective_range: u32,
    /// The to-hit (or teleport) check.
    pub check: SkillRoll,
    /// Whether it hit.
    pub hit: bool,
    /// The allocation roll, on a hit.
    pub allocation: Option<AllocationRoll>,
    /// What the hit did, if it landed on or near the ship.
    pub applied: Option<Applied>,
}

impl ModuleGrid {
    /// A skill check: the crew's dice (the best of more for a
    /// professional), plus the skill, less the OOC penalty for `ooc` levels
    /// (pass 0 for checks OOC does not hinder), against `difficulty`.
    #[allow(
        clippy::too_many_arguments,
        reason = "a check's parts are all the rules' own numbers"
    )]
    pub fn skill_check(
        &self,
        crew: &Crew,
        skill: Skill,
        ooc: u8,
        difficulty: i32,
        what: &str,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<SkillRoll, ResolveError> {
        let c = &self.rules.constants;
        let professional = crew.is_professional(skill);
        let count = if professional {
            c.professional_dice
        } else {
            c.skill_dice
        };
        let level = i32::from(crew.level(skill));
        let amount = i32::from(ooc) * c.ooc_penalty;
        // A professional keeps the best of the dice; everyone keeps all.
        let best = |faces: &mut dyn Iterator<Item = u32>| -> i32 {
            let mut sorted: ArrayVec<u32, 8> = faces.take(8).collect();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            sorted
                .iter()
                .take(usize::from(c.skill_dice))
                .map(|&f| f as i32)
                .sum()
        };
        // Only success is read from the dice; the faces are shown.
        let rolled = reading::dice_by_outcome(dice, u32::from(count), Die::D6, |faces| {
            best(&mut faces.iter().copied()) + level - amount >= difficulty
        })?;
        let mut faces: ArrayVec<u8, 8> = ArrayVec::new();
        faces.extend(rolled.faces().take(8).map(|f| f as u8));
        let kept = best(&mut rolled.faces());
        sink.emit(|| Event::Roll {
            // Only a professional rolls more dice than are kept.
            purpose: if count > c.skill_dice {
                format!(
                    "{} check (a professional: best {} of {count})",
                    skill.name(),
                    c.skill_dice
                )
            } else {
                format!("{} check", skill.name())
            },
            dice: format!("{count}d6"),
            faces: rolled.to_vec(),
            total: kept,
        });
        let mut total = kept + level;
        if level != 0 {
            sink.emit(|| Event::Modifier {
                to: format!("{} check", skill.name()),
                amount: level,
                reason: format!("{} skill {level}", skill.name()),
            });
        }
        if amount != 0 {
            total -= amount;
            sink.emit(|| Event::Modifier {
                to: format!("{} check", skill.name()),
                amount: -amount,
                reason: format!("OOC {ooc}"),
            });
        }
        let success = total >= difficulty;
        sink.emit(|| Event::Check {
            what: what.to_owned(),
            roll: total,
            target: difficulty,
            success,
            rule: None,
        });
        Ok(SkillRoll {
            faces,
            total,
            difficulty,
            success,
        })
    }

    /// The power of a Cannon shot in a mode with `guns` Guns power: Guns,
    /// half the Guns rounded down (Long), or the mode's fixed power (Multi).
    pub fn cannon_power(&self, mode: Mode, guns: u8) -> u8 {
        let rule = self.rules.mode(mode);
        match rule.fixed_power {
            Some(power) => power,
            // Rounding: the Long configuration halves the power rounded down.
            // Validation keeps the divisor at 1 or more.
            None => guns / rule.power_divisor,
        }
    }

    /// The range a mode's to-hit check counts: Long counts half the range,
    /// rounded up.
    pub fn counted_range(&self, mode: Mode, range: u32) -> u32 {
        // Rounding: the Long configuration halves the range rounded up.
        // Validation keeps the divisor at 1 or more.
        range.div_ceil(u32::from(self.rules.mode(mode).range_divisor))
    }

    /// Checks that the rules allow the shot; nothing changes if not.
    pub fn check_shot(&self, board: &Board, shot: &Shot) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let (attacker, target) = board.pair(shot.attacker, shot.target, "a shot")?;
        let who = &board.names[shot.attacker];
        let whom = &board.names[shot.target];
        if shot.attacker == shot.target {
            return Err(ResolveError::Refused(format!(
                "the {who} cannot fire at itself"
            )));
        }
        if attacker.is_destroyed() {
            return Err(ResolveError::Refused(format!(
                "the {who} has exploded and cannot fire"
            )));
        }
        if target.is_destroyed() {
            return Err(ResolveError::Refused(format!(
                "the {whom} has already exploded"
            )));
        }
        let class = rules.class(attacker.class);
        let module = shot.weapon.module();
        let Some(info) = class.modules.get(usize::from(module)) else {
            return Err(ResolveError::Internal(format!(
                "the {who} has no module {module}"
            )));
        };
        let kind = rules.module_type(class, module);
        let (function, label) = match shot.weapon {
            Weapon::Cannon { .. } => (Function::Cannon, "Cannon"),
            Weapon::Missile { .. } => (Function::MissileBay, "Missile Bay"),
            Weapon::Teleporter { .. } => (Function::Teleporter, "Teleporter"),
        };
        if kind.function != function {
            return Err(ResolveError::Refused(format!(
                "the {who}'s module at {} is a {}, not a {label}",
                info.at, kind.name
            )));
        }
        if !attacker.is_working(module) {
            return Err(ResolveError::Refused(format!(
                "the {who}'s {label} at {} is broken",
                info.at
            )));
        }
        if attacker.used & crate::ship::bit(module) != 0 {
            return Err(ResolveError::Refused(format!(
                "the {who}'s {label} at {} has a Used marker this turn",
                info.at
            )));
        }
        match shot.weapon {
            Weapon::Cannon { mode, .. } => {
                let rule = rules.mode(mode);
                let order = Ship::cannon_order(class, module).unwrap_or(usize::MAX);
                let fired = attacker.shots.get(order).copied().unwrap_or(u8::MAX);
                if fired >= rule.shots_per_turn {
                    return Err(ResolveError::Refused(format!(
                        "the {who}'s Cannon at {} has fired {fired} time(s) this turn; {} mode allows {}",
                        info.at,
                        mode.name(),
                        rule.shots_per_turn
                    )));
                }
                if let Some(needed) = rule.needs
                    && !attacker.has_working(class, needed)
                {
                    let name = rules
                        .module_types
                        .iter()
                        .find(|t| t.function == needed)
                        .map_or(needed.id(), |t| t.name.as_str());
                    return Err(ResolveError::Refused(format!(
                        "{} mode needs a working {name}, and the {who} has none",
                        mode.name()
                    )));
                }
            }
            Weapon::Missile { .. } => {
                if attacker.missiles == 0 {
                    return Err(ResolveError::Refused(format!(
                        "the {who} has no missiles left"
                    )));
                }
                if shot.range > rules.constants.missile_range {
                    return Err(ResolveError::Refused(format!(
                        "range {} is beyond a missile's {} hexes",
                        shot.range, rules.constants.missile_range
                    )));
                }
            }
            Weapon::Teleporter { .. } => {
                if attacker.bombs == 0 {
                    return Err(ResolveError::Refused(format!(
                        "the {who} has no bombs left"
                    )));
                }
            }
        }
        if let Some(call) = shot.call {
            if shot.weapon.is_indirect(self) {
                return Err(ResolveError::Refused(format!(
                    "an indirect hit lands on the {whom}'s centre mark: no point can be called"
                )));
            }
            let target_class = rules.class(target.class);
            if target_class.module_at(call).is_none() {
                return Err(ResolveError::Refused(format!(
                    "the called point {call} is off the {whom}: the layout is {} rows by {} columns and the point must be a module square",
                    target_class.rows, target_class.cols
                )));
            }
        }
        Ok(())
    }

    /// Rolls hit allocation against a target from `centre`. With
    /// `rerolls`, the firer is shown the roll and may spend a scan or Luck
    /// to roll one die again, as often as it has them to spend; the engine
    /// checks each answer and applies it.
    pub fn allocation_roll(
        &self,
        target: &Ship,
        side: ShipSide,
        centre: Square,
        rerolls: Option<Rerolls<'_>>,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<AllocationRoll, ResolveError> {
        let c = &self.rules.constants;
        let class = self.rules.class(target.class);
        let base = class.centre_line(side, centre);
        let line_of =
            |faces: [u8; 2]| base + i32::from(faces[0]) + i32::from(faces[1]) - c.allocation_centre;
        // The line each total of the two dice lands on, when it meets the
        // silhouette (validation keeps allocation to two dice): every line
        // that misses is the same miss. Only an exact source reads it, so
        // it is worked out when first asked for.
        let lands = std::cell::OnceCell::new();
        let lands_at = |faces: [u8; 2]| -> Option<i32> {
            let lands = lands.get_or_init(|| {
                let mut lands = [None; 13];
                for (total, land) in lands.iter_mut().enumerate() {
                    let line = base + total as i32 - c.allocation_centre;
                    *land = (!class.lane(side, line).is_empty()).then_some(line);
                }
                lands
            });
            lands
                .get(usize::from(faces[0]) + usize::from(faces[1]))
                .copied()
                .flatten()
        };
        // What the rules read of the dice as they stand, when the firer may
        // reroll: where they land if it keeps them, or else which die it
        // rolls again, what pays and the face that stays (all that the
        // rolls to come depend on), or that it asked for what it cannot
        // have. The firer is asked as it will be asked in play.
        let choose = rerolls.as_ref().map(|r| r.choose);
        let foe = rerolls.as_ref().is_none_or(|r| r.foe);
        let next = |faces: [u8; 2], scans: u8, luck: u8| -> Standing {
            let view = AllocationView {
                target,
                side,
                centre,
                faces,
                line: line_of(faces),
                scans,
                luck,
                foe,
            };
            match choose.and_then(|choose| choose(&view)) {
                None => Standing::Kept(lands_at(faces)),
                Some(Reroll { die, with }) => {
                    let paid = match with {
                        RerollWith::Scan => scans > 0,
                        RerollWith::Luck => luck > 0,
                    };
                    if die < faces.len() && paid {
                        Standing::Reroll {
                            die,
                            stays: faces[1 - die],
                            luck: with == RerollWith::Luck,
                        }
                    } else {
                        Standing::Refused
                    }
                }
            }
        };
        let as_pair = |rolled: &mut dyn Iterator<Item = u32>| -> [u8; 2] {
            let mut faces = [0u8; 2];
            for (slot, face) in faces.iter_mut().zip(rolled) {
                *slot = face as u8;
            }
            faces
        };
        let may_reroll = rerolls.as_ref().is_some_and(|r| r.scans > 0 || r.luck > 0);
        let count = u32::from(c.allocation_dice);
        let rolled = if may_reroll {
            let (scans, luck) = rerolls.as_ref().map_or((0, 0), |r| (r.scans, r.luck));
            reading::dice_read(dice, count, Die::D6, Order::Read, |rolled| {
                next(as_pair(&mut rolled.iter().copied()), scans, luck)
            })?
        } else {
            reading::dice_by_outcome(dice, count, Die::D6, |rolled| {
                lands_at(as_pair(&mut rolled.iter().copied()))
            })?
        };
        let faces = as_pair(&mut rolled.faces());
        sink.emit(|| Event::Roll {
            purpose: format!("hit allocation on the {side} side"),
            dice: format!("{}d6", c.allocation_dice),
            faces: rolled.to_vec(),
            total: rolled.total() as i32,
        });
        let mut roll = AllocationRoll {
            faces,
            total: 0,
            centre,
            line: 0,
            scans_spent: 0,
            luck_spent: 0,
        };
        if let Some(Rerolls {
            firer,
            scans,
            luck,
            foe,
            choose,
        }) = rerolls
        {
            let (mut scans, mut luck) = (scans, luck);
            loop {
                let view = AllocationView {
                    target,
                    side,
                    centre,
                    faces: roll.faces,
                    line: line_of(roll.faces),
                    scans,
                    luck,
                    foe,
                };
                let Some(answer) = choose(&view) else {
                    break;
                };
                if answer.die >= roll.faces.len() {
                    return Err(ResolveError::Internal(format!(
                        "the firer chose to reroll allocation die {}; there are two",
                        answer.die
                    )));
                }
                match answer.with {
                    RerollWith::Scan if scans > 0 => {
                        scans -= 1;
                        roll.scans_spent += 1;
                        firer.scans = firer.scans.saturating_sub(1);
                    }
                    RerollWith::Luck if luck > 0 => {
                        luck -= 1;
                        roll.luck_spent += 1;
                        firer.luck = firer.luck.saturating_sub(c.luck_per_reroll);
                    }
                    with => {
                        return Err(ResolveError::Internal(format!(
                            "the firer chose to reroll an allocation die with {}, and has none to spend on this hit",
                            with.name()
                        )));
                    }
                }
                let old = roll.faces[answer.die];
                let new = reading::die_by_class(dice, Die::D6, |face| {
                    let mut after = roll.faces;
                    after[answer.die] = face as u8;
                    next(after, scans, luck)
                })?;
                roll.faces[answer.die] = new as u8;
                sink.emit(|| Event::Roll {
                    purpose: format!("hit allocation: {} rerolls the {old}", answer.with.name()),
                    dice: "1d6".into(),
                    faces: vec![new],
                    total: new as i32,
                });
            }
        }
        roll.total = i32::from(roll.faces[0]) + i32::from(roll.faces[1]);
        roll.line = line_of(roll.faces);
        let (total, line) = (roll.total, roll.line);
        let centre_line = base;
        sink.emit(|| {
            let what = if side.along_columns() {
                "column"
            } else {
                "row"
            };
            let offset = total - c.allocation_centre;
            let way = match (side.along_columns(), offset.signum()) {
                (_, 0) => String::from("the centre line"),
                (true, 1) => format!("{offset} to starboard"),
                (true, _) => format!("{} to port", -offset),
                (false, 1) => format!("{offset} aftward"),
                (false, _) => format!("{} forward", -offset),
            };
            Event::TableRow {
                table: format!(
                    "hit allocation from {what} {} ({side} side)",
                    centre_line + 1
                ),
                roll: total,
                row: format!("{what} {}: {way}", line + 1),
            }
        });
        Ok(roll)
    }

    /// The to-hit check of a Cannon shot or missile, or the Science check of
    /// a teleport, with every difficulty modifier reported.
    fn shot_check(
        &self,
        board: &Board,
        shot: &Shot,
        effective_range: u32,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<SkillRoll, ResolveError> {
        let rules = &self.rules;
        let c = &rules.constants;
        let attacker = &board.ships[shot.attacker];
        let crew = &rules.class(attacker.class).crew;
        let range = i32::try_from(effective_range).unwrap_or(i32::MAX / 4);
        let ooc = attacker.ooc;
        match shot.weapon {
            Weapon::Cannon { mode, .. } => {
                sink.emit(|| Event::Base {
                    what: "to-hit difficulty".into(),
                    value: c.to_hit_base,
                    source: "ruling: a Gunnery check against 7 + range (rules.toml to-hit)".into(),
                });
                // The range is the battle's, not bounded by the data: a
                // difficulty past any roll saturates rather than overflows.
                let amount = c.to_hit_per_hex.saturating_mul(range);
                if amount != 0 {
                    sink.emit(|| Event::Modifier {
                        to: "to-hit difficulty".into(),
                        amount,
                        reason: if effective_range == shot.range {
                            format!("range {range}")
                        } else {
                            format!(
                                "range {}, counted as {range} in {} mode (half, rounded up)",
                                shot.range,
                                mode.name()
                            )
                        },
                    });
                }
                self.skill_check(
                    crew,
                    c.to_hit_skill,
                    ooc,
                    c.to_hit_base.saturating_add(amount),
                    "to hit",
                    dice,
                    sink,
                )
            }
            Weapon::Missile { .. } => {
                sink.emit(|| Event::Base {
                    what: "missile to-hit difficulty".into(),
                    value: c.missile_difficulty,
                    source: "ruling: missiles as indirect hits (rules.toml missile)".into(),
                });
                self.skill_check(
                    crew,
                    c.missile_skill,
                    ooc,
                    c.missile_difficulty,
                    "missile hits",
                    dice,
                    sink,
                )
            }
            Weapon::Teleporter { .. } => {
                let target = &board.ships[shot.target];
                sink.emit(|| Event::Base {
                    what: "teleport difficulty".into(),
                    value: c.teleport_base,
                    source: "Teleporter: the firer's Shields + the target's Shields + distance"
                        .into(),
                });
                let mut difficulty = c.teleport_base;
                for (amount, reason) in [
                    (i32::from(attacker.shields), "the firer's Shields"),
                    (i32::from(target.shields), "the target's Shields"),
                    (range, "distance in hexes"),
                ] {
                    difficulty = difficulty.saturating_add(amount);
                    if amount != 0 {
                        sink.emit(|| Event::Modifier {
                            to: "teleport difficulty".into(),
                            amount,
                            reason: reason.into(),
                        });
                    }
                }
                self.skill_check(
                    crew,
                    c.teleport_skill,
                    0,
                    difficulty,
                    "teleport",
                    dice,
                    sink,
                )
            }
        }
    }
}

impl AttackResolution for ModuleGrid {
    type Board = Board;
    type Declaration = Shot;
    type Outcome = ShotOutcome;

    /// Resolves a shot with the default tactics choosing allocation
    /// rerolls, within what the shot offers (Luck included: a lone shot has
    /// no hull check to keep it for).
    fn resolve_attack(
        &self,
        board: &mut Board,
        shot: &Shot,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<ShotOutcome, ResolveError> {
        let choose = |view: &AllocationView<'_>| DefaultTactics::worth_reroll(self, view, true);
        self.resolve_shot(board, shot, &choose, dice, sink)
    }
}

impl ModuleGrid {
    /// Resolves a shot, asking `choose` before each allocation reroll.
    pub fn resolve_shot(
        &self,
        board: &mut Board,
        shot: &Shot,
        choose: RerollChoice<'_>,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<ShotOutcome, ResolveError> {
        let (mut outcome, hit) = self.aim_shot(board, shot, choose, dice, sink)?;
        if let Some(hit) = hit {
            let target = &mut board.ships[shot.target];
            outcome.applied =
                Some(self.allocate_named(&hit, target, &board.names[shot.target], dice, sink)?);
        }
        Ok(outcome)
    }

    /// Resolves a shot as far as its hit allocation: the outcome so far
    /// and, when it strikes the target, the hit still to allocate
    /// ([`ModuleGrid::allocate_named`]). [`ModuleGrid::resolve_shot`] is
    /// this and the allocation, one after the other.
    pub fn aim_shot(
        &self,
        board: &mut Board,
        shot: &Shot,
        choose: RerollChoice<'_>,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(ShotOutcome, Option<Hit>), ResolveError> {
        self.check_shot(board, shot)?;
        let rules = &self.rules;
        let c = &rules.constants;
        let attacker_class = rules.class(board.ships[shot.attacker].class);
        let target_class = rules.class(board.ships[shot.target].class);
        let at = attacker_class.modules[usize::from(shot.weapon.module())].at;
        sink.emit(|| Event::Declared {
            actor: board.names[shot.attacker].clone(),
            action: match shot.weapon {
                Weapon::Cannon { mode, .. } => format!(
                    "fires its Cannon at {at} in {} mode at the {}'s {} side, range {}",
                    mode.name(),
                    board.names[shot.target],
                    shot.side,
                    shot.range
                ),
                Weapon::Missile { .. } => format!(
                    "launches a missile from its Missile Bay at {at} at the {}, range {}",
                    board.names[shot.target], shot.range
                ),
                Weapon::Teleporter { .. } => format!(
                    "teleports a bomb from its Teleporter at {at} onto the {}'s {} side, range {}",
                    board.names[shot.target], shot.side, shot.range
                ),
            },
        });

        // Firing spends what it spends whether or not it hits: Guns power
        // (a Used marker) for a Cannon outside Multi, a missile, a bomb.
        let attacker = &mut board.ships[shot.attacker];
        let bit = crate::ship::bit(shot.weapon.module());
        let (power, effective_range) = match shot.weapon {
            Weapon::Cannon { module, mode } => {
                let rule = rules.mode(mode);
                let power = self.cannon_power(mode, attacker.guns);
                let guns = attacker.guns;
                sink.emit(|| Event::Base {
                    what: "Cannon power".into(),
                    value: i32::from(power),
                    source: match (rule.fixed_power, rule.power_divisor) {
                        (Some(_), _) => format!("{} mode", mode.name()),
                        (None, 1) => format!("{} mode: Guns {guns}", mode.name()),
                        (None, d) => format!(
                            "{} mode: Guns {guns} divided by {d}, rounded down",
                            mode.name()
                        ),
                    },
                });
                if rule.uses_guns && guns == 0 {
                    // Ruling "Guns 0": the shot has the power the mode gives
                    // Guns 0, which is 0; there is no Guns power to use up.
                    attacker.used |= bit;
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "a {} shot at Guns 0 fires at power 0: it takes a Used marker, and there is no Guns power to use up",
                            mode.name()
                        ),
                    });
                } else if rule.uses_guns {
                    attacker.guns -= 1;
                    attacker.used |= bit;
                    let left = attacker.guns;
                    sink.emit(|| Event::Effect {
                        ship: board.names[shot.attacker].clone(),
                        effect: format!("uses up one Guns power: Guns {guns} -> {left}"),
                    });
                } else {
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "a {} shot takes no Used marker and uses up no Guns power",
                            mode.name()
                        ),
                    });
                }
                if let Some(order) = Ship::cannon_order(attacker_class, module)
                    && let Some(count) = attacker.shots.get_mut(order)
                {
                    *count = count.saturating_add(1);
                }
                (power, self.counted_range(mode, shot.range))
            }
            Weapon::Missile { .. } => {
                attacker.missiles -= 1;
                attacker.used |= bit;
                (c.missile_power, shot.range)
            }
            Weapon::Teleporter { .. } => {
                attacker.bombs -= 1;
                attacker.used |= bit;
                (c.bomb_dice, shot.range)
            }
        };

        let check = self.shot_check(board, shot, effective_range, dice, sink)?;
        let mut outcome = ShotOutcome {
            power,
            effective_range,
            hit: check.success,
            check,
            allocation: None,
            applied: None,
        };
        if !outcome.hit {
            return Ok((outcome, None));
        }
        let centre = match shot.call {
            Some(call) => {
                sink.emit(|| Event::Declared {
                    actor: board.names[shot.attacker].clone(),
                    action: format!("calls {call} as the 7 of hit allocation"),
                });
                call
            }
            None => target_class.centre,
        };
        let target_now = board.ships[shot.target];
        let firer = &mut board.ships[shot.attacker];
        let (scans, luck) = firer.reroll_means(shot.target, c.luck_per_reroll);
        let allocation = self.allocation_roll(
            &target_now,
            shot.side,
            centre,
            Some(Rerolls {
                firer,
                scans: shot.scans.min(scans),
                luck: shot.luck.min(luck),
                foe: true,
                choose,
            }),
            dice,
            sink,
        )?;
        outcome.allocation = Some(allocation);
        let bomb = matches!(shot.weapon, Weapon::Teleporter { .. });
        if bomb && target_class.lane(shot.side, allocation.line).is_empty() {
            sink.emit(|| Event::Ruling {
                text: "the teleport misses the silhouette and fails".into(),
            });
            return Ok((outcome, None));
        }
        let hit = Hit {
            cause: match shot.weapon {
                Weapon::Cannon { mode, .. } => Cause::Cannon(mode),
                Weapon::Missile { .. } => Cause::Missile,
                Weapon::Teleporter { .. } => Cause::Bomb,
            },
            power,
            through_shields: !bomb,
            side: shot.side,
            line: allocation.line,
            impact_only: bomb,
        };
        Ok((outcome, Some(hit)))
    }
}

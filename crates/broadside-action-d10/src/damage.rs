//! Damage allocation: shields, structure boxes marked from the first unmarked
//! one, each letter's effect, the sub-tables and their fall-backs, and the
//! Core Hit for more than one A lost in one attack.

use arrayvec::ArrayVec;
use broadside_core::{DamageAllocation, Dice, DiceExpr, Event, EventSink, ResolveError};

use crate::ActionD10;
use crate::model::{Damage, Fallback, Letter, Rules, Scanner, System, TableId, WeaponId};
use crate::ship::{MAX_BOXES, ScannerState, Ship, Status};

/// The hits of one attack on one target: what the damage rules read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hit {
    /// The weapon that hit (its damage per hit).
    pub weapon: WeaponId,
    /// How many hits it scored.
    pub hits: u32,
    /// Whether the attack came from the target's aft arc.
    pub aft: bool,
}

/// One thing a hit did to a ship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Shield points took boxes of damage instead of the structure.
    ShieldsAbsorbed {
        /// Boxes absorbed.
        points: u8,
    },
    /// C: cargo points lost.
    CargoLost {
        /// Points lost.
        points: u16,
    },
    /// The last C: cargo is lost on every Move from now on.
    ContainmentBreached,
    /// R: remass burns lost.
    BurnsLost {
        /// Burns lost.
        burns: u16,
    },
    /// The last R: burns are lost every turn until the tanks are empty.
    RemassBleeding,
    /// M: the magazine jams.
    MagazineJammed,
    /// M: warheads lost to space.
    WarheadsLost {
        /// Warheads lost.
        warheads: u16,
    },
    /// The last M: every warhead is lost.
    AllWarheadsLost,
    /// S: a scanner disabled.
    ScannerDisabled(Scanner),
    /// S (again), or a table result: a scanner destroyed.
    ScannerDestroyed(Scanner),
    /// A sub-table result: systems destroyed.
    SystemLost {
        /// Which system.
        system: System,
        /// How many.
        count: u8,
    },
    /// A sub-table result: a weapon mount destroyed.
    WeaponLost {
        /// The mount's index.
        mount: u8,
        /// Its weapon.
        weapon: WeaponId,
    },
    /// Small craft lost with their bays.
    SmallCraftLost {
        /// Craft lost.
        craft: u8,
    },
    /// The last H: the hangar is unusable.
    HangarUnusable,
    /// A: one action lost.
    ActionLost,
    /// Every box marked: the ship is destroyed.
    Destroyed,
}

impl Effect {
    /// The effect in words, for reports.
    pub fn describe(&self, rules: &Rules) -> String {
        match *self {
            Effect::ShieldsAbsorbed { points } => format!("shields absorb {points} box(es)"),
            Effect::CargoLost { points } => format!("{points} cargo points lost"),
            Effect::ContainmentBreached => {
                "containment breached: cargo lost on every Move".to_owned()
            }
            Effect::BurnsLost { burns } => format!("{burns} remass burns lost"),
            Effect::RemassBleeding => "remass tanks bleeding: burns lost every turn".to_owned(),
            Effect::MagazineJammed => "magazine jammed".to_owned(),
            Effect::WarheadsLost { warheads } => format!("{warheads} warheads lost to space"),
            Effect::AllWarheadsLost => "every warhead lost".to_owned(),
            Effect::ScannerDisabled(s) => format!("{} disabled", s.name()),
            Effect::ScannerDestroyed(s) => format!("{} destroyed", s.name()),
            Effect::SystemLost { system, count } => {
                if count == 1 {
                    format!("{} destroyed", system.name())
                } else {
                    format!("{count} x {} destroyed", system.name())
                }
            }
            Effect::WeaponLost { mount, weapon } => {
                format!(
                    "{} (mount {}) destroyed",
                    rules.weapon(weapon).name,
                    mount + 1
                )
            }
            Effect::SmallCraftLost { craft } => format!("{craft} small craft lost"),
            Effect::HangarUnusable => "hangar unusable".to_owned(),
            Effect::ActionLost => "one action lost".to_owned(),
            Effect::Destroyed => "destroyed".to_owned(),
        }
    }
}

/// What the hits of one attack did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Applied {
    /// Boxes of damage rolled, before shields.
    pub damage: u32,
    /// Boxes absorbed by shields.
    pub absorbed: u32,
    /// The boxes marked, in order.
    pub boxes: ArrayVec<Letter, MAX_BOXES>,
    /// What happened, in order.
    pub effects: Vec<Effect>,
    /// A boxes marked by this attack.
    pub actions_lost: u8,
    /// Whether the Core Hit table was rolled.
    pub core_hit: bool,
    /// Each sub-table roll that settled, in order: the table, and the
    /// system its result hit, or `None` when it hit nothing (a result the
    /// ship cannot take, with no table to fall back to).
    pub tables: Vec<(TableId, Option<System>)>,
}

impl ActionD10 {
    /// Allocates the hits of one attack to a ship whose name events use.
    ///
    /// For each hit in turn: the weapon's damage (rolled if it is dice),
    /// shields absorb what they can, and the rest marks boxes from the first
    /// unmarked one, each lettered box doing its effect at once (rolling its
    /// dice in box order). Once all the attack's hits are allocated, if more
    /// than one A was lost among them, one roll on the Core Hit table. Once
    /// the last box is marked the ship is destroyed and nothing more is
    /// rolled for it.
    pub fn allocate_named(
        &self,
        hit: &Hit,
        target: &mut Ship,
        name: &str,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Applied, ResolveError> {
        let rules = &self.rules;
        let weapon = rules.weapon(hit.weapon);
        let mut applied = Applied::default();
        for n in 1..=hit.hits {
            if !target.is_active() {
                break;
            }
            let damage = match weapon.damage {
                Damage::Fixed(boxes) => {
                    sink.emit(|| Event::Base {
                        what: format!("damage of hit {n}"),
                        value: boxes as i32,
                        source: format!("{} damage", weapon.name),
                    });
                    boxes
                }
                Damage::Dice(expr) => {
                    // Only the sum is read.
                    let rolled = crate::reading::expr_by_class(dice, expr, &*sink, |t| t)?;
                    sink.emit(|| Event::Roll {
                        purpose: format!("damage of hit {n} ({})", weapon.name),
                        dice: expr.to_string(),
                        faces: rolled.faces.clone(),
                        total: rolled.total,
                    });
                    rolled.total.max(0) as u32
                }
            };
            applied.damage += damage;
            let absorbed = damage.min(u32::from(target.shields));
            if absorbed > 0 {
                target.shields -= absorbed as u8;
                applied.absorbed += absorbed;
                applied.effects.push(Effect::ShieldsAbsorbed {
                    points: absorbed as u8,
                });
                sink.emit(|| Event::Effect {
                    ship: name.to_owned(),
                    effect: format!(
                        "shields absorb {absorbed} of {damage} box(es) ({} shield points left)",
                        target.shields
                    ),
                });
            }
            for _ in absorbed..damage {
                if !target.is_active() {
                    break;
                }
                self.mark_box(hit, target, name, &mut applied, dice, sink)?;
            }
        }
        let core = rules.constants.boxes.core_hit_actions;
        if target.is_active() && applied.actions_lost >= core {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "{} A boxes lost in one attack: roll on the Core Hit table",
                    applied.actions_lost
                ),
            });
            applied.core_hit = true;
            self.roll_sub_table(TableId::CoreHit, 0, target, name, &mut applied, dice, sink)?;
        }
        Ok(applied)
    }

    /// Marks the next box of the track and does what its letter says.
    fn mark_box(
        &self,
        hit: &Hit,
        target: &mut Ship,
        name: &str,
        applied: &mut Applied,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let class = rules.class(target.class);
        let Some(&letter) = class.track.get(usize::from(target.marked)) else {
            return Ok(());
        };
        target.marked += 1;
        target.lost[letter.index()] += 1;
        // `boxes` holds at most the whole track, which validation caps at its capacity.
        let _ = applied.boxes.try_push(letter);
        sink.emit(|| Event::Effect {
            ship: name.to_owned(),
            effect: format!(
                "box {} of {} marked: {}",
                target.marked,
                class.track.len(),
                if letter == Letter::Blank {
                    "blank".to_owned()
                } else {
                    format!("{} ({})", letter.symbol(), letter.name())
                }
            ),
        });
        if usize::from(target.marked) >= class.track.len() {
            target.status = Status::Destroyed;
            applied.effects.push(Effect::Destroyed);
            sink.emit(|| Event::Effect {
                ship: name.to_owned(),
                effect: "the last box is marked: destroyed".into(),
            });
            return Ok(());
        }
        let b = &rules.constants.boxes;
        match letter {
            Letter::Blank => {}
            Letter::Containment => {
                let lost = self.roll_expr(
                    b.containment_cargo,
                    target.cargo,
                    || "C box: cargo points lost".into(),
                    dice,
                    sink,
                )?;
                target.cargo -= lost;
                applied.effects.push(Effect::CargoLost { points: lost });
                self.say(sink, name, || {
                    format!("{lost} cargo points lost ({} left)", target.cargo)
                });
                if target.all_lost(rules, Letter::Containment) {
                    applied.effects.push(Effect::ContainmentBreached);
                    self.say(sink, name, || {
                        "the last C box: containment breached, cargo lost on every Move".into()
                    });
                }
            }
            Letter::Remass => {
                // 1d6-3 can come out below zero; such a roll loses nothing.
                let lost = self.roll_expr(
                    b.remass_burns,
                    target.remass,
                    || "R box: remass burns lost".into(),
                    dice,
                    sink,
                )?;
                target.remass -= lost;
                applied.effects.push(Effect::BurnsLost { burns: lost });
                self.say(sink, name, || {
                    format!("{lost} remass burns lost ({} left)", target.remass)
                });
                if target.all_lost(rules, Letter::Remass) {
                    applied.effects.push(Effect::RemassBleeding);
                    self.say(sink, name, || {
                        "the last R box: remass bleeds away every turn until the tanks are empty"
                            .into()
                    });
                }
            }
            Letter::Magazine => {
                target.jammed = true;
                applied.effects.push(Effect::MagazineJammed);
                self.say(sink, name, || {
                    "magazine jammed: no salvo until it is cleared".into()
                });
                let lost = self.roll_expr(
                    b.magazine_warheads,
                    target.warheads,
                    || "M box: warheads lost to space".into(),
                    dice,
                    sink,
                )?;
                target.warheads -= lost;
                applied
                    .effects
                    .push(Effect::WarheadsLost { warheads: lost });
                self.say(sink, name, || {
                    format!("{lost} warheads lost to space ({} left)", target.warheads)
                });
                if target.all_lost(rules, Letter::Magazine) {
                    target.warheads = 0;
                    applied.effects.push(Effect::AllWarheadsLost);
                    self.say(sink, name, || {
                        "the last M box: every warhead is lost".into()
                    });
                }
            }
            Letter::System => self.scanner_hit(target, name, applied, sink),
            Letter::Hangar => {
                self.roll_sub_table(TableId::Hangar, 0, target, name, applied, dice, sink)?;
                if target.all_lost(rules, Letter::Hangar) {
                    applied.effects.push(Effect::HangarUnusable);
                    self.say(sink, name, || {
                        "the last H box: the hangar is unusable".into()
                    });
                }
            }
            Letter::Udst => {
                let modifier = if hit.aft { b.aft_surface_features } else { 0 };
                if modifier != 0 {
                    sink.emit(|| Event::Modifier {
                        to: "Surface Features roll".into(),
                        amount: modifier,
                        reason: "the attack came from the aft arc".into(),
                    });
                }
                self.roll_sub_table(
                    TableId::SurfaceFeatures,
                    modifier,
                    target,
                    name,
                    applied,
                    dice,
                    sink,
                )?;
            }
            Letter::Action => {
                applied.actions_lost += 1;
                applied.effects.push(Effect::ActionLost);
                self.say(sink, name, || {
                    let left = target.actions_per_turn(rules);
                    let actions = if left == 1 { "action" } else { "actions" };
                    format!("one action lost ({left} {actions} a turn left)")
                });
            }
        }
        Ok(())
    }

    /// An S box: the first working scanner (long range first) is disabled;
    /// with none working, the first disabled one is destroyed.
    fn scanner_hit(
        &self,
        target: &mut Ship,
        name: &str,
        applied: &mut Applied,
        sink: &mut dyn EventSink,
    ) {
        let pick = |state: ScannerState| {
            Scanner::ALL
                .into_iter()
                .find(|s| target.scanners[s.index()] == state)
        };
        if let Some(s) = pick(ScannerState::Working) {
            target.scanners[s.index()] = ScannerState::Disabled;
            applied.effects.push(Effect::ScannerDisabled(s));
            self.say(sink, name, || format!("S box: {} disabled", s.name()));
        } else if let Some(s) = pick(ScannerState::Disabled) {
            target.scanners[s.index()] = ScannerState::Destroyed;
            target.intact[s.system().index()] = 0;
            applied.effects.push(Effect::ScannerDestroyed(s));
            sink.emit(|| Event::Ruling {
                text: format!(
                    "S box: no scanner is working, so the disabled {} is destroyed",
                    s.name()
                ),
            });
            self.say(sink, name, || format!("{} destroyed", s.name()));
        } else {
            sink.emit(|| Event::Ruling {
                text: "S box: the ship has no scanner left to lose; the box is all the damage"
                    .into(),
            });
        }
    }

    /// Rolls on a sub-table, following its fall-back when the result is a
    /// system the ship lacks or has lost.
    #[allow(
        clippy::too_many_arguments,
        reason = "the table, the roll's modifier and the usual rules context"
    )]
    fn roll_sub_table(
        &self,
        table: TableId,
        modifier: i32,
        target: &mut Ship,
        name: &str,
        applied: &mut Applied,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let mut table = table;
        let mut modifier = modifier;
        let mut again = false;
        // Table fall-backs never come back to a table (validation), and a
        // roll again is made only while some row can apply, so this ends.
        loop {
            let t = rules.table(table);
            // Only what the row does to this ship is read: neighbouring rows
            // with one result are one outcome, and so are neighbouring rows
            // the ship cannot take, which all fall back alike.
            let class = |face: u32| {
                let row = t.row(face as i32 + modifier);
                target.can_lose(row.result).then_some(*row)
            };
            // A roll again is asked for as one call, the roll until a row
            // the ship can take, so an exact source weighs its limit
            // instead of branching for ever. A log shows every roll, so
            // with one kept plain dice are rolled one roll at a time: the
            // same faces either way.
            let face = if again && (dice.enumerates() || !sink.enabled()) {
                crate::reading::die_by_class_until(dice, t.die, class, Option::is_some)?
            } else {
                crate::reading::die_by_class(dice, t.die, class)?
            };
            let roll = face as i32 + modifier;
            sink.emit(|| Event::Roll {
                purpose: format!("{} roll", t.name),
                dice: format!("1{}", t.die),
                faces: vec![face],
                total: roll,
            });
            let row = *t.row(roll);
            sink.emit(|| Event::TableRow {
                table: t.name.clone(),
                roll,
                row: match row.count {
                    Some(count) => format!("{count} {}", row.result.name()),
                    None => row.result.name().to_owned(),
                },
            });
            if target.can_lose(row.result) {
                let count = match row.count {
                    None => 1,
                    Some(expr) => {
                        // No more can be lost than the ship has left.
                        let n = self.roll_expr(
                            expr,
                            u16::from(target.intact(row.result)),
                            || format!("how many {}", row.result.name()),
                            dice,
                            sink,
                        )?;
                        u8::try_from(n).unwrap_or(u8::MAX)
                    }
                };
                self.lose_system(target, row.result, count, name, applied, sink);
                applied.tables.push((t.id, Some(row.result)));
                return Ok(());
            }
            let why = if rules.class(target.class).has(row.result) == 0 {
                "the ship has no"
            } else {
                "the ship has already lost its"
            };
            match t.fallback {
                Fallback::None => {
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "{why} {}: the {} result does nothing more",
                            row.result.name(),
                            t.name
                        ),
                    });
                    applied.tables.push((t.id, None));
                    return Ok(());
                }
                Fallback::Table(next) => {
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "{why} {}: roll on the {} table instead",
                            row.result.name(),
                            rules.table(next).name
                        ),
                    });
                    table = next;
                    modifier = 0;
                }
                Fallback::RollAgain => {
                    let reachable = (1..=t.die.sides() as i32)
                        .any(|face| target.can_lose(t.row(face + modifier).result));
                    if !reachable {
                        sink.emit(|| Event::Ruling {
                            text: format!(
                                "{why} {}, and no result of the {} table can hit anything left: nothing more happens",
                                row.result.name(),
                                t.name
                            ),
                        });
                        applied.tables.push((t.id, None));
                        return Ok(());
                    }
                    sink.emit(|| Event::Ruling {
                        text: format!("{why} {}: roll again", row.result.name()),
                    });
                    again = true;
                }
            }
        }
    }

    /// Destroys `count` of a system the ship can lose, with its consequences.
    fn lose_system(
        &self,
        target: &mut Ship,
        system: System,
        count: u8,
        name: &str,
        applied: &mut Applied,
        sink: &mut dyn EventSink,
    ) {
        let rules = &self.rules;
        // A row's count that comes to 0 (a total below 1) hits nothing.
        if count == 0 {
            self.say(sink, name, || {
                format!("no {} destroyed: the count comes to 0", system.name())
            });
            return;
        }
        if let Some(mount) = system.mount() {
            // A count hits that many mounts of the kind, first to last.
            for _ in 0..count {
                let Some(i) = target.intact_mount(rules, mount) else {
                    break;
                };
                let m = &mut target.weapons[i];
                m.destroyed = true;
                m.charged = false;
                let weapon = m.weapon;
                target.intact[system.index()] -= 1;
                applied.effects.push(Effect::WeaponLost {
                    mount: i as u8,
                    weapon,
                });
                self.say(sink, name, || {
                    format!("{} (mount {}) destroyed", rules.weapon(weapon).name, i + 1)
                });
            }
            return;
        }
        if let Some(s) = system.scanner() {
            target.scanners[s.index()] = ScannerState::Destroyed;
            target.intact[system.index()] = 0;
            applied.effects.push(Effect::ScannerDestroyed(s));
            self.say(sink, name, || format!("{} destroyed", s.name()));
            return;
        }
        let lost = count.min(target.intact(system));
        target.intact[system.index()] -= lost;
        applied.effects.push(Effect::SystemLost {
            system,
            count: lost,
        });
        let consequence = match system {
            System::Sensors if target.intact(System::Sensors) == 0 => {
                " (no sensors left: the FCS rating no longer counts)"
            }
            System::FireControl => " (the FCS rating no longer counts)",
            System::ManeuveringJets if !target.can_turn() => {
                " (no jets left: the ship cannot turn)"
            }
            System::ShieldEmitter | System::ShieldGenerator | System::PowerPlant => {
                target.shields = target.shields.min(target.max_shields(rules));
                match system {
                    System::PowerPlant => " (no weapon can be charged and no shield raised)",
                    System::ShieldGenerator => " (shields down for good)",
                    _ => " (fewer shield points)",
                }
            }
            System::HyperdriveImpeller | System::Hyperdrive => " (the hyperdrive cannot be used)",
            System::Thruster => " (less thrust)",
            System::FlagBridge => " (no more Command Points)",
            System::Troops => {
                target.ready_troops = target.ready_troops.min(target.intact(System::Troops));
                " (a troop unit killed)"
            }
            System::CrewDeck => " (repairs are harder)",
            System::SolarPanel => " (no effect in a ship-to-ship fight)",
            _ => "",
        };
        self.say(sink, name, || {
            if lost == 1 {
                format!("{} destroyed{consequence}", system.name())
            } else {
                format!("{lost} x {} destroyed{consequence}", system.name())
            }
        });
        if system == System::SmallCraftBay
            && target.small_craft > target.intact(System::SmallCraftBay)
        {
            let craft = target.small_craft - target.intact(System::SmallCraftBay);
            target.small_craft -= craft;
            applied.effects.push(Effect::SmallCraftLost { craft });
            self.say(sink, name, || {
                format!("{craft} small craft lost with their bays")
            });
        }
    }

    /// Rolls dice like `1d6-3` for an amount lost of something the ship
    /// has `most` of: a total below zero loses nothing, and no roll loses
    /// more than there is. Only the amount lost is read from the dice.
    pub(crate) fn roll_expr(
        &self,
        expr: DiceExpr,
        most: u16,
        purpose: impl FnOnce() -> String,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<u16, ResolveError> {
        let lost = |total: i32| u16::try_from(total.max(0)).unwrap_or(u16::MAX).min(most);
        let rolled = crate::reading::expr_by_class(dice, expr, &*sink, lost)?;
        sink.emit(|| Event::Roll {
            purpose: purpose(),
            dice: expr.to_string(),
            faces: rolled.faces.clone(),
            total: rolled.total,
        });
        Ok(lost(rolled.total))
    }

    /// Emits an effect on a ship, building the text only if the sink keeps it.
    pub(crate) fn say(&self, sink: &mut dyn EventSink, name: &str, text: impl FnOnce() -> String) {
        sink.emit(|| Event::Effect {
            ship: name.to_owned(),
            effect: text(),
        });
    }
}

impl DamageAllocation for ActionD10 {
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
        let name = self.rules.class(target.class).id.clone();
        self.allocate_named(hit, target, &name, dice, sink)
    }
}

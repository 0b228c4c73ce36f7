//! Damage allocation: Cannon dice through Shields, laid along a row or column of modules, and the hull check that follows.
//!
//! A hit that lands rolls its power plus the target's Shields in dice and
//! removes the Shields highest; the rest are laid one at a time, highest
//! first, from the module of impact straight through the ship. A die on a
//! module does its face in hull damage, and on 4-6 breaks the module and
//! raises OOC; a die past or outside the silhouette does 1 hull damage and
//! raises OOC on 4-6. Each strike lowers Shields by one. Then, once the hull
//! damage is past the chart's first threshold, the ship makes a hull check
//! or explodes.

use arrayvec::ArrayVec;
use broadside_core::{DamageAllocation, Dice, Die, Event, EventSink, Pool, ResolveError};

use crate::ModuleGrid;
use crate::model::{Function, ModuleIx, ModuleSet, ShipSide};
use crate::reading::{self, Faces, Read};
use crate::ship::Ship;

/// What caused a strike, for the log and for the rules that tell strikes apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    /// A Cannon shot in a mode.
    Cannon(crate::model::Mode),
    /// A missile.
    Missile,
    /// A Fusion burst reaching the ship.
    FusionBurst,
    /// A ship's explosion reaching the ship.
    Explosion,
    /// A bomb teleported aboard.
    Bomb,
}

impl Cause {
    /// How events name it.
    pub fn name(self) -> &'static str {
        match self {
            Cause::Cannon(crate::model::Mode::Standard) => "Standard Cannon shot",
            Cause::Cannon(crate::model::Mode::Long) => "Long Cannon shot",
            Cause::Cannon(crate::model::Mode::Multi) => "Multi Cannon shot",
            Cause::Cannon(crate::model::Mode::Fusion) => "Fusion burst",
            Cause::Missile => "missile",
            Cause::FusionBurst => "Fusion burst",
            Cause::Explosion => "explosion",
            Cause::Bomb => "teleported bomb",
        }
    }
}

/// A hit that has landed: what it is, how strong, and the line its
/// allocation found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hit {
    /// What struck.
    pub cause: Cause,
    /// Dice before Shields (a Cannon's power), or the bomb's dice.
    pub power: u8,
    /// Whether Shields dice are added and removed and Shields drop (every
    /// strike but a teleported bomb).
    pub through_shields: bool,
    /// The side struck.
    pub side: ShipSide,
    /// The row (hit from a side) or column (hit from fore or aft) the
    /// allocation landed on, 0-based; may lie off the layout.
    pub line: i32,
    /// Only the module of impact takes dice (a bomb): the dice do not run on
    /// through the ship, and missing the silhouette does nothing.
    pub impact_only: bool,
}

/// Where one die landed and what it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Placed {
    /// The die's face.
    pub face: u8,
    /// The module it landed on, or `None` past or outside the silhouette.
    pub module: Option<ModuleIx>,
    /// Hull damage it did.
    pub hull: u8,
    /// Whether it put a Broken marker on its module.
    pub broke: bool,
    /// Whether it raised OOC.
    pub ooc: bool,
}

/// A hull check and how it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HullCheck {
    /// The chart's check before Size.
    pub chart: i32,
    /// The check after Size: the roll must be at least this.
    pub needed: i32,
    /// The dice as they finally stood (empty when no roll was needed or
    /// possible).
    pub faces: ArrayVec<u8, 8>,
    /// Rerolls made with the Hull Stabilizer.
    pub stabilizer_rerolls: u8,
    /// Rerolls paid for with Luck.
    pub luck_rerolls: u8,
    /// Whether the ship survived.
    pub passed: bool,
}

/// What a hit did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// Every die rolled, in rolled order.
    pub pool: Pool,
    /// The dice removed by Shields.
    pub removed: ArrayVec<u8, { Pool::CAPACITY }>,
    /// Each die laid, in laying order (highest first).
    pub placed: ArrayVec<Placed, { Pool::CAPACITY }>,
    /// The module of impact, or `None` when the line misses the silhouette.
    pub impact: Option<ModuleIx>,
    /// Hull damage done.
    pub hull_damage: u32,
    /// OOC added.
    pub ooc_added: u32,
    /// Modules that took a Broken marker.
    pub broken: ModuleSet,
    /// Modules that became slagged.
    pub slagged: ModuleSet,
    /// Shields before the strike.
    pub shields_before: u8,
    /// Shields after it.
    pub shields_after: u8,
    /// The hull check the hit called for, if any.
    pub hull_check: Option<HullCheck>,
    /// Whether the ship exploded.
    pub exploded: bool,
}

impl Applied {
    /// The dice kept after Shields, in laying order.
    pub fn kept(&self) -> impl Iterator<Item = u8> + '_ {
        self.placed.iter().map(|p| p.face)
    }
}

impl ModuleGrid {
    /// Allocates a landed hit to a ship that events call `name`: the dice
    /// laid ([`ModuleGrid::lay_dice`]), then the hull check they call for.
    pub fn allocate_named(
        &self,
        hit: &Hit,
        target: &mut Ship,
        name: &str,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Applied, ResolveError> {
        let mut applied = self.lay_dice(hit, target, name, dice, sink)?;
        if Self::hull_check_due(hit, &applied) {
            applied.hull_check = self.hull_check(target, name, dice, sink)?;
            applied.exploded = target.exploded;
        }
        Ok(applied)
    }

    /// Whether a hit, once its dice are laid, calls for a hull check: every
    /// hit does but a bomb with no module to go off in.
    pub fn hull_check_due(hit: &Hit, applied: &Applied) -> bool {
        !(hit.impact_only && applied.impact.is_none())
    }

    /// Lays a landed hit's dice on a ship that events call `name`, short of
    /// the hull check: the damage dice through Shields, each die's effect,
    /// Shields lowered.
    pub fn lay_dice(
        &self,
        hit: &Hit,
        target: &mut Ship,
        name: &str,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Applied, ResolveError> {
        let rules = &self.rules;
        let c = &rules.constants;
        let class = rules.class(target.class);
        let shields = if hit.through_shields {
            target.shields
        } else {
            0
        };
        let count = u32::from(hit.power) + u32::from(shields);

        let mut applied = Applied {
            pool: Pool::default(),
            removed: ArrayVec::new(),
            placed: ArrayVec::new(),
            impact: None,
            hull_damage: 0,
            ooc_added: 0,
            broken: 0,
            slagged: 0,
            shields_before: target.shields,
            shields_after: target.shields,
            hull_check: None,
            exploded: false,
        };

        // Roll power + Shields dice and take away the Shields highest. With
        // power 0 every die would be taken away, so none is rolled.
        let mut kept: ArrayVec<u8, { Pool::CAPACITY }> = ArrayVec::new();
        if hit.power == 0 {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "the {} has power 0: every die would be removed by Shields, so none is rolled",
                    hit.cause.name()
                ),
            });
        } else {
            // Only the dice the Shields leave are read, and each only as
            // far as where it lands makes it count: on a module its face as
            // hull damage (summed with the others') and whether it breaks
            // the module; past the silhouette whether it raises OOC.
            let keep = count - count.min(u32::from(shields));
            let ranks = || {
                self.landing(hit, class, keep as usize)
                    .iter()
                    .map(|module| match module {
                        Some(_) => Read::Module(c.breaks_at),
                        None if hit.impact_only || c.off_silhouette_ooc == 0 => Read::Nothing,
                        None => Read::AtLeast(c.off_silhouette_ooc_at),
                    })
                    .collect()
            };
            applied.pool = reading::lowest_kept(dice, count, Die::D6, ranks)?;
            sink.emit(|| Event::Roll {
                purpose: if hit.through_shields {
                    format!(
                        "{} damage: power {} + Shields {shields}",
                        hit.cause.name(),
                        hit.power
                    )
                } else {
                    format!("{} damage", hit.cause.name())
                },
                dice: format!("{count}d6"),
                faces: applied.pool.to_vec(),
                total: applied.pool.total() as i32,
            });
            // Faces fit a byte: a d6 shows 1-6.
            kept.extend(applied.pool.faces().map(|f| f as u8));
            // Highest first: Shields remove the highest, and the ruling lays
            // the rest highest first, as the published example does.
            kept.sort_unstable_by(|a, b| b.cmp(a));
            let removed = usize::from(shields).min(kept.len());
            applied.removed.extend(kept.drain(..removed));
            if shields > 0 {
                sink.emit(|| Event::Modifier {
                    to: "damage dice".into(),
                    amount: -(removed as i32),
                    reason: format!(
                        "Shields {shields} remove the {removed} highest ({}); kept {}",
                        list(&applied.removed),
                        list(&kept)
                    ),
                });
            }
        }

        // Lay the kept dice from the module of impact straight through.
        let lane = class.lane(hit.side, hit.line);
        let misses_silhouette = lane.is_empty();
        // The module of impact is the first the line meets, whether or not
        // any die is left to lay on it.
        applied.impact = lane.clone().flatten().next();
        let what_line = if hit.side.along_columns() {
            "column"
        } else {
            "row"
        };
        if misses_silhouette {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "{what_line} {} misses the silhouette: every die does {} hull damage",
                    hit.line + 1,
                    c.off_silhouette_hull
                ),
            });
        }
        let landing = self.landing(hit, class, kept.len());
        for (&face, &module) in kept.iter().zip(&landing) {
            let placed = match module {
                Some(m) => self.die_on_module(face, m, target, name, &mut applied, sink),
                None if hit.impact_only => {
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "the {}'s die {face} has no module to land on and does nothing",
                            hit.cause.name()
                        ),
                    });
                    Placed {
                        face,
                        module: None,
                        hull: 0,
                        broke: false,
                        ooc: false,
                    }
                }
                None => self.die_off_silhouette(face, target, name, &mut applied, sink),
            };
            applied.placed.push(placed);
        }

        if hit.through_shields {
            target.shields = target.shields.saturating_sub(c.shields_drop);
            applied.shields_after = target.shields;
            if c.shields_drop > 0 {
                let (before, after) = (applied.shields_before, target.shields);
                sink.emit(|| Event::Effect {
                    ship: name.to_owned(),
                    effect: format!("struck: Shields {before} -> {after}"),
                });
            }
        }
        if applied.hull_damage > 0 || applied.ooc_added > 0 {
            let (total, ooc, done) = (target.hull_damage, target.ooc, applied.hull_damage);
            sink.emit(|| Event::Effect {
                ship: name.to_owned(),
                effect: format!("takes {done} hull damage (total {total}); OOC {ooc}"),
            });
        }
        Ok(applied)
    }

    /// Where each of `dice` kept dice lands, highest first: the module, or
    /// `None` past or outside the silhouette (for a bomb, no module to go
    /// off in).
    fn landing(
        &self,
        hit: &Hit,
        class: &crate::model::ShipClass,
        dice: usize,
    ) -> ArrayVec<Option<ModuleIx>, { Pool::CAPACITY }> {
        let gaps_take_dice = self.rules.constants.gaps_take_dice;
        let mut lane = class.lane(hit.side, hit.line);
        let impact = lane.clone().flatten().next();
        let mut lane_done = lane.is_empty();
        let mut landing = ArrayVec::new();
        for i in 0..dice.min(Pool::CAPACITY) {
            let mut module = None;
            if hit.impact_only && i > 0 {
                // Every die of a bomb goes off in the module it lands in.
                module = impact;
            } else {
                while !lane_done {
                    match lane.next() {
                        None => lane_done = true,
                        Some(Some(m)) => {
                            module = Some(m);
                            break;
                        }
                        Some(None) if gaps_take_dice => break,
                        Some(None) => {}
                    }
                }
            }
            landing.push(module);
        }
        landing
    }

    /// One die on a module: its face in hull damage; on `breaks-at` or more
    /// a Broken marker, OOC and two collateral dice per occupant, otherwise
    /// one collateral die.
    fn die_on_module(
        &self,
        face: u8,
        module: ModuleIx,
        target: &mut Ship,
        name: &str,
        applied: &mut Applied,
        sink: &mut dyn EventSink,
    ) -> Placed {
        let rules = &self.rules;
        let c = &rules.constants;
        let class = rules.class(target.class);
        let info = &class.modules[usize::from(module)];
        let kind = rules.module_type(class, module);
        target.hull_damage = target.hull_damage.saturating_add(u16::from(face));
        applied.hull_damage += u32::from(face);
        let breaks = u32::from(face) >= c.breaks_at;
        let mut placed = Placed {
            face,
            module: Some(module),
            hull: face,
            broke: false,
            ooc: false,
        };
        let collateral = if breaks {
            c.collateral_dice_break
        } else {
            c.collateral_dice
        };
        if breaks {
            let (markers, added) = target.add_marker(module, c.max_broken_markers);
            placed.broke = added;
            if added {
                applied.broken |= 1 << module;
                if markers == 2 {
                    applied.slagged |= 1 << module;
                }
            }
            target.ooc = target.ooc.saturating_add(c.ooc_on_break);
            applied.ooc_added += u32::from(c.ooc_on_break);
            placed.ooc = c.ooc_on_break > 0;
            sink.emit(|| Event::Effect {
                ship: name.to_owned(),
                effect: format!(
                    "die {face} on the {} at {}: {face} hull damage, {}, OOC +{}",
                    kind.name,
                    info.at,
                    match (added, markers) {
                        (true, 2) => "a second Broken marker: slagged",
                        (true, _) => "a Broken marker",
                        (false, _) => "already slagged (two markers at most)",
                    },
                    c.ooc_on_break
                ),
            });
        } else {
            sink.emit(|| Event::Effect {
                ship: name.to_owned(),
                effect: format!(
                    "die {face} on the {} at {}: {face} hull damage",
                    kind.name, info.at
                ),
            });
        }
        if info.occupants > 0 && collateral > 0 {
            let occupants = info.occupants;
            sink.emit(|| Event::Effect {
                ship: name.to_owned(),
                effect: format!(
                    "{collateral} {} of collateral damage to each of {occupants} occupant(s) of the {} (personal damage is not rolled here)",
                    if collateral == 1 { "die" } else { "dice" },
                    kind.name
                ),
            });
        }
        placed
    }

    /// One die past or outside the silhouette: 1 hull damage, OOC on 4-6.
    fn die_off_silhouette(
        &self,
        face: u8,
        target: &mut Ship,
        name: &str,
        applied: &mut Applied,
        sink: &mut dyn EventSink,
    ) -> Placed {
        let c = &self.rules.constants;
        let hull = c.off_silhouette_hull;
        target.hull_damage = target.hull_damage.saturating_add(hull as u16);
        applied.hull_damage += hull;
        let added = if u32::from(face) >= c.off_silhouette_ooc_at {
            c.off_silhouette_ooc
        } else {
            0
        };
        let ooc = added > 0;
        target.ooc = target.ooc.saturating_add(added);
        applied.ooc_added += u32::from(added);
        sink.emit(|| Event::Effect {
            ship: name.to_owned(),
            effect: format!(
                "die {face} misses the silhouette: {hull} hull damage{}",
                if ooc {
                    format!(", OOC +{added}")
                } else {
                    String::new()
                }
            ),
        });
        Placed {
            face,
            module: None,
            hull: hull as u8,
            broke: false,
            ooc,
        }
    }

    /// The hull check a hit calls for: none below the first threshold;
    /// otherwise two dice at or over the chart's check less Size. A failed
    /// roll rerolls its lowest die with the Hull Stabilizer (if it works),
    /// then with Luck while any is left; a check the dice cannot make
    /// explodes the ship without a roll.
    pub fn hull_check(
        &self,
        ship: &mut Ship,
        name: &str,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Option<HullCheck>, ResolveError> {
        let rules = &self.rules;
        let c = &rules.constants;
        let class = rules.class(ship.class);
        let chart = rules.chart_check(ship.damage());
        let needed = chart - i32::from(class.size);
        if needed < c.hull_first_check {
            return Ok(None);
        }
        let damage = ship.hull_damage;
        sink.emit(|| Event::Base {
            what: "hull check".into(),
            value: chart,
            source: format!("hull check chart at {damage} hull damage"),
        });
        sink.emit(|| Event::Modifier {
            to: "hull check".into(),
            amount: -i32::from(class.size),
            reason: format!("Size {}", class.size),
        });
        let mut check = HullCheck {
            chart,
            needed,
            faces: ArrayVec::new(),
            stabilizer_rerolls: 0,
            luck_rerolls: 0,
            passed: true,
        };
        let lowest = i32::from(c.hull_dice);
        let most = crate::model::Rules::most(c.hull_dice);
        if needed <= lowest {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "a hull check of {needed} cannot fail with {} dice: no roll",
                    c.hull_dice
                ),
            });
            return Ok(Some(check));
        }
        if needed > most {
            check.passed = false;
            sink.emit(|| Event::Ruling {
                text: format!(
                    "a hull check of {needed} is beyond what {} dice can roll: the ship cannot make it",
                    c.hull_dice
                ),
            });
            self.explode(ship, name, sink);
            return Ok(Some(check));
        }
        let mut stabilizer_left = if ship.has_working(class, Function::HullStabilizer) {
            c.stabilizer_rerolls
        } else {
            0
        };
        // What the dice lead to: a pass, or a failure and the faces that
        // stay when the lowest is rolled again (nothing more to read when no
        // reroll is left). Only that is read from each die.
        let may_reroll = |stabilizer: u8, luck: u8| stabilizer > 0 || luck >= c.luck_per_reroll;
        let fate = |faces: &[u32], rerolls: bool| -> Option<Faces> {
            if faces.iter().sum::<u32>() as i32 >= needed {
                return None;
            }
            let mut stays: Faces = faces.iter().copied().collect();
            stays.sort_unstable();
            if rerolls {
                stays.remove(0);
            } else {
                stays.clear();
            }
            Some(stays)
        };
        let open = may_reroll(stabilizer_left, ship.luck);
        let rolled = reading::dice_by_outcome(dice, u32::from(c.hull_dice), Die::D6, |faces| {
            fate(faces, open)
        })?;
        check.faces.extend(rolled.faces().map(|f| f as u8));
        let total = |faces: &[u8]| faces.iter().map(|&f| i32::from(f)).sum::<i32>();
        sink.emit(|| Event::Roll {
            purpose: "hull check".into(),
            dice: format!("{}d6", c.hull_dice),
            faces: rolled.to_vec(),
            total: rolled.total() as i32,
        });
        while total(&check.faces) < needed {
            let source = if stabilizer_left > 0 {
                stabilizer_left -= 1;
                check.stabilizer_rerolls += 1;
                "Hull Stabilizer"
            } else if ship.luck >= c.luck_per_reroll {
                ship.luck -= c.luck_per_reroll;
                check.luck_rerolls += 1;
                "Luck"
            } else {
                break;
            };
            // Rerolling the lowest die gives the best chance of reaching the check.
            let (at, &old) = check
                .faces
                .iter()
                .enumerate()
                .min_by_key(|&(i, f)| (*f, i))
                .ok_or_else(|| ResolveError::Internal("a hull check without dice".into()))?;
            let stays: Faces = check
                .faces
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != at)
                .map(|(_, &f)| u32::from(f))
                .collect();
            let open = may_reroll(stabilizer_left, ship.luck);
            let new = reading::die_by_class(dice, Die::D6, |face| {
                let mut faces = stays.clone();
                faces.push(face);
                fate(&faces, open)
            })?;
            check.faces[at] = new as u8;
            let luck_left = ship.luck;
            sink.emit(|| Event::Roll {
                purpose: format!(
                    "hull check: {source} rerolls the {old}{}",
                    if source == "Luck" {
                        format!(" ({luck_left} Luck left)")
                    } else {
                        String::new()
                    }
                ),
                dice: "1d6".into(),
                faces: vec![new],
                total: new as i32,
            });
        }
        let rolled = total(&check.faces);
        check.passed = rolled >= needed;
        let passed = check.passed;
        sink.emit(|| Event::Check {
            what: "hull check".into(),
            roll: rolled,
            target: needed,
            success: passed,
            rule: None,
        });
        if !check.passed {
            self.explode(ship, name, sink);
        }
        Ok(Some(check))
    }

    /// Marks a ship exploded; its crew take damage and become spacewalkers.
    fn explode(&self, ship: &mut Ship, name: &str, sink: &mut dyn EventSink) {
        ship.exploded = true;
        let class = self.rules.class(ship.class);
        let crew: u32 = class.modules.iter().map(|m| u32::from(m.occupants)).sum();
        let dice = self.rules.constants.crew_damage_dice;
        sink.emit(|| Event::Effect {
            ship: name.to_owned(),
            effect: format!(
                "explodes: all aboard ({crew} crew) suffer {dice} dice of damage and become spacewalkers"
            ),
        });
    }
}

impl DamageAllocation for ModuleGrid {
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
        let name = &self.rules.class(target.class).id;
        self.allocate_named(hit, target, name, dice, sink)
    }
}

/// Faces as "4, 3, 2" for event text.
pub(crate) fn list(faces: &[u8]) -> String {
    let shown: Vec<String> = faces.iter().map(u8::to_string).collect();
    shown.join(", ")
}

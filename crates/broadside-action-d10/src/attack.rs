//! Attack resolution: target lock, the to-hit number and its modifiers, the
//! d10 per weapon with its natural 10, and swarms on the hits table.

use arrayvec::ArrayVec;
use broadside_core::{AttackResolution, Dice, Die, Event, EventSink, ResolveError};

use crate::ActionD10;
use crate::damage::{Applied, Hit};
use crate::model::{Drive, Scanner, Weapon, WeaponId, WeaponKind};
use crate::ship::{ScannerState, Ship};

/// The ships an attack is resolved among, with the names events use.
pub type Board = broadside_core::Board<Ship>;

/// What the lock modifiers read from the map around the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LockSituation {
    /// Hexes from the locking ship to the target.
    pub range: u32,
    /// The target has thrust this turn (displacement above 0).
    pub target_thrusting: bool,
    /// Enemy ships of the locking ship in the target's hex, the target included.
    pub enemies_in_target_hex: u8,
    /// Other ships thrusting with reactionless drives in the target's hex.
    pub reactionless_same_hex: u8,
    /// Other ships thrusting with reaction drives in the target's hex.
    pub reaction_same_hex: u8,
    /// Other ships thrusting with reaction drives in hexes next to the target.
    pub reaction_adjacent: u8,
    /// The target dropped a chaff pod this turn.
    pub chaff: bool,
}

/// Whether an attack still needs its target lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LockNeed {
    /// The attacker already holds a lock on the target.
    Held,
    /// The lock is made first (automatic, or a roll).
    Make(LockSituation),
}

/// What the to-hit modifiers read about the attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Situation {
    /// Hexes the target's destination was displaced by thrust this turn.
    pub displacement: u32,
    /// The attack comes from the target's aft arc.
    pub aft: bool,
    /// The attacker aimed at the target this turn.
    pub aim: bool,
    /// The target dropped a chaff pod this turn.
    pub chaff: bool,
}

/// A declared attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Attack {
    /// Index of the attacking ship on the board.
    pub attacker: usize,
    /// Index of the attacker's weapon mount.
    pub mount: usize,
    /// Index of the target ship on the board.
    pub target: usize,
    /// Range in hexes: between ship counters for direct fire and swarms,
    /// between destination counters for projectiles and seekers.
    pub range: u32,
    /// The to-hit modifiers' facts.
    pub situation: Situation,
    /// The lock, held or still to make.
    pub lock: LockNeed,
    /// Failed dice the attacker may re-roll, one Command Point each.
    pub rerolls: u8,
}

/// The lock number before the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockNumber {
    /// Within 2 + FCS hexes (with the option `target-lock.needs-scanners`,
    /// also a working short range scanner): no roll.
    Automatic,
    /// Roll the lock die at or under this.
    Roll(i32),
    /// Only with the option `target-lock.needs-scanners`: beyond the
    /// automatic range without a working long range scanner.
    Impossible,
}

/// What a lock attempt came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockOutcome {
    /// The lock number.
    pub number: LockNumber,
    /// The faces rolled, a re-roll after a failure included.
    pub rolls: ArrayVec<u32, 4>,
    /// Whether the lock was made.
    pub locked: bool,
    /// Command Point re-rolls used.
    pub rerolls_used: u8,
}

/// What an attack came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackOutcome {
    /// The lock made for this attack, if it was not held already.
    pub lock: Option<LockOutcome>,
    /// The to-hit number after modifiers (for a swarm: the modifier added to its roll).
    pub target_number: i32,
    /// Each to-hit d10, in order (re-rolls follow the die they replace).
    pub rolls: ArrayVec<u32, 24>,
    /// Hits scored.
    pub hits: u32,
    /// What the hits did.
    pub applied: Option<Applied>,
    /// Command Point re-rolls used.
    pub rerolls_used: u8,
}

impl AttackOutcome {
    fn no_lock(lock: LockOutcome) -> AttackOutcome {
        AttackOutcome {
            // The points the lock spent are spent by the attack, hit or not.
            rerolls_used: lock.rerolls_used,
            lock: Some(lock),
            target_number: 0,
            rolls: ArrayVec::new(),
            hits: 0,
            applied: None,
        }
    }
}

/// An attack as the to-hit rules see it: by a ship's mount, a salvo
/// arriving, or a flight of small craft.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Strike {
    /// The weapon striking.
    pub weapon: WeaponId,
    /// d10s rolled (weapons in the bank, or swarms).
    pub dice: u8,
    /// The swarm's size, for a swarm weapon.
    pub swarm: u32,
    /// Index of the target ship on the board.
    pub target: usize,
    /// Range in hexes.
    pub range: u32,
    /// The to-hit modifiers' facts.
    pub situation: Situation,
    /// Failed dice that may be re-rolled.
    pub rerolls: u8,
}

impl ActionD10 {
    /// The lock number for `locker` on `target`, with its modifiers.
    ///
    /// The lock is automatic within 2 + FCS hexes and rolled beyond. Only
    /// with the option `target-lock.needs-scanners` does the automatic lock
    /// need a working short range scanner and the roll a working long range
    /// scanner: Target Lock names no scanner. Modifiers are added to the
    /// number rolled at or under, and the range penalty counts full steps
    /// of range (rounded down).
    pub fn lock_number(
        &self,
        locker: &Ship,
        target: &Ship,
        s: &LockSituation,
        sink: &mut dyn EventSink,
    ) -> LockNumber {
        let rules = &self.rules;
        let l = &rules.constants.lock;
        let fcs = locker.fcs(rules);
        let automatic_range = l.automatic_base + u32::from(fcs);
        let working = |s: Scanner| locker.scanners[s.index()] == ScannerState::Working;
        // Without the option every lock is made as if both scanners worked.
        let short = !l.needs_scanners || working(Scanner::ShortRange);
        let long = !l.needs_scanners || working(Scanner::LongRange);
        if s.range <= automatic_range {
            if short {
                sink.emit(|| Event::Check {
                    what: "target lock range".into(),
                    roll: s.range as i32,
                    target: automatic_range as i32,
                    success: true,
                    rule: Some(format!(
                        "automatic within {} + FCS {fcs} = {automatic_range} hexes",
                        l.automatic_base
                    )),
                });
                return LockNumber::Automatic;
            }
            sink.emit(|| Event::Ruling {
                text: "option target-lock.needs-scanners: the short range scanner is not working, so even a close lock needs a roll"
                    .into(),
            });
        } else if !long {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "option target-lock.needs-scanners: the long range scanner is not working, so no lock beyond {automatic_range} hexes"
                ),
            });
            return LockNumber::Impossible;
        }
        sink.emit(|| Event::Base {
            what: "lock number".into(),
            value: l.target,
            source: format!("Target Lock: 1{} at or under {}", l.die, l.target),
        });
        let mut number = l.target;
        let mut modify = |amount: i32, reason: &dyn Fn() -> String, sink: &mut dyn EventSink| {
            if amount != 0 {
                number += amount;
                sink.emit(|| Event::Modifier {
                    to: "lock number".into(),
                    amount,
                    reason: reason(),
                });
            }
        };
        // "-1 for every 2 full hexes": integer division drops a part step.
        let steps = (s.range / l.range_step) as i32;
        modify(
            steps * l.per_range_step,
            &|| {
                format!(
                    "range {}: {steps} full steps of {} hexes",
                    s.range, l.range_step
                )
            },
            sink,
        );
        modify(i32::from(fcs), &|| format!("FCS sensor rating {fcs}"), sink);
        let class = target.class(rules);
        modify(
            class.size,
            &|| format!("target size {:+}", class.size),
            sink,
        );
        modify(
            -class.stealth,
            &|| format!("target stealth rating {}", class.stealth),
            sink,
        );
        if s.target_thrusting && class.drive == Drive::Reaction {
            modify(
                l.reaction_drive,
                &|| "the target is thrusting on reaction drives".into(),
                sink,
            );
        }
        if s.enemies_in_target_hex > 1 {
            modify(
                l.multiple_enemies,
                &|| format!("{} enemies in the target's hex", s.enemies_in_target_hex),
                sink,
            );
        }
        modify(
            i32::from(s.reactionless_same_hex) * l.nearby_reactionless_same_hex,
            &|| {
                format!(
                    "{} ship(s) thrusting reactionlessly in the target's hex",
                    s.reactionless_same_hex
                )
            },
            sink,
        );
        modify(
            i32::from(s.reaction_same_hex) * l.nearby_reaction_same_hex,
            &|| {
                format!(
                    "{} ship(s) thrusting on reaction drives in the target's hex",
                    s.reaction_same_hex
                )
            },
            sink,
        );
        modify(
            i32::from(s.reaction_adjacent) * l.nearby_reaction_adjacent,
            &|| {
                format!(
                    "{} ship(s) thrusting on reaction drives next to the target",
                    s.reaction_adjacent
                )
            },
            sink,
        );
        if s.chaff {
            modify(
                l.chaff,
                &|| "the target dropped a chaff pod this turn".into(),
                sink,
            );
        }
        LockNumber::Roll(number)
    }

    /// Makes a target lock: automatic, impossible, or a roll (a failure
    /// re-rolled once if a Command Point is allowed for it).
    pub fn make_lock(
        &self,
        locker: &Ship,
        target: &Ship,
        s: &LockSituation,
        rerolls: u8,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<LockOutcome, ResolveError> {
        let number = self.lock_number(locker, target, s, sink);
        let mut outcome = LockOutcome {
            number,
            rolls: ArrayVec::new(),
            locked: false,
            rerolls_used: 0,
        };
        match number {
            LockNumber::Automatic => outcome.locked = true,
            LockNumber::Impossible => {}
            LockNumber::Roll(n) => {
                let die = self.rules.constants.lock.die;
                loop {
                    let check = dice.check(die, n)?;
                    outcome.rolls.push(check.face);
                    sink.emit(|| Event::Roll {
                        purpose: "target lock roll".into(),
                        dice: format!("1{die}"),
                        faces: vec![check.face],
                        total: check.face as i32,
                    });
                    sink.emit(|| Event::Check {
                        what: "target lock".into(),
                        roll: check.face as i32,
                        target: n,
                        success: check.passed,
                        rule: None,
                    });
                    if check.passed {
                        outcome.locked = true;
                        break;
                    }
                    // Ruling 5: the one lock die is re-rolled once at most.
                    if outcome.rerolls_used >= rerolls.min(1) || outcome.rolls.is_full() {
                        break;
                    }
                    outcome.rerolls_used += 1;
                    sink.emit(|| Event::Ruling {
                        text: "a Command Point re-rolls the failed lock".into(),
                    });
                }
            }
        }
        Ok(outcome)
    }

    /// The to-hit number of a strike, or for a swarm the modifier to its
    /// roll, with every modifier shown. `None` beyond the weapon's range.
    pub fn to_hit(
        &self,
        weapon: &Weapon,
        target: &Ship,
        range: u32,
        s: &Situation,
        sink: &mut dyn EventSink,
    ) -> Option<i32> {
        let rules = &self.rules;
        let t = &rules.constants.to_hit;
        let bracket = weapon.bracket(range)?;
        let what = if weapon.kind == WeaponKind::Swarm {
            "swarm roll modifier"
        } else {
            "to-hit number"
        };
        sink.emit(|| Event::Base {
            what: what.into(),
            value: bracket.value,
            source: format!(
                "{} at range {range} (bracket {}-{})",
                weapon.name, bracket.from, bracket.to
            ),
        });
        let mut number = bracket.value;
        let mut modify = |amount: i32, reason: &dyn Fn() -> String, sink: &mut dyn EventSink| {
            if amount != 0 {
                number += amount;
                sink.emit(|| Event::Modifier {
                    to: what.into(),
                    amount,
                    reason: reason(),
                });
            }
        };
        let size = target.class(rules).size;
        modify(size, &|| format!("target size {size:+}"), sink);
        if s.displacement > 0 {
            if weapon.kind == WeaponKind::Seeker {
                sink.emit(|| Event::Ruling {
                    text: "seeking weapons ignore the target-thrusting modifier".into(),
                });
            } else {
                let d = s.displacement as i32;
                modify(
                    d * t.thrusting_per_hex,
                    &|| format!("target thrusting, {d} hex(es) of displacement"),
                    sink,
                );
            }
        }
        if s.aim {
            modify(t.aim, &|| "the attacker aimed this turn".into(), sink);
        }
        if s.chaff && weapon.kind == WeaponKind::Seeker {
            modify(
                t.chaff_against_seekers,
                &|| "the target's chaff pod".into(),
                sink,
            );
        }
        Some(number)
    }

    /// Checks that the rules allow the attack; nothing changes if not.
    fn check_attack(&self, board: &Board, attack: &Attack) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let (attacker, target) = board.pair(attack.attacker, attack.target, "attack")?;
        let Some(mount) = attacker.weapons.get(attack.mount) else {
            return Err(ResolveError::Internal(
                "attack names a weapon mount the ship lacks".into(),
            ));
        };
        let weapon = rules.weapon(mount.weapon);
        let who = &board.names[attack.attacker];
        if !attacker.is_active() {
            return Err(ResolveError::Refused(format!(
                "the {who} is out of the fight and cannot fire"
            )));
        }
        if !target.is_active() {
            return Err(ResolveError::Refused(format!(
                "the {} is already out of the fight",
                board.names[attack.target]
            )));
        }
        if mount.destroyed {
            return Err(ResolveError::Refused(format!(
                "the {who}'s {} has been destroyed",
                weapon.name
            )));
        }
        if weapon.charge && !mount.charged {
            return Err(ResolveError::Refused(format!(
                "the {who}'s {} is not charged: it needs a Charge Weapon action first",
                weapon.name
            )));
        }
        if mount.shots == Some(0) {
            return Err(ResolveError::Refused(format!(
                "the {who} has no {} left",
                weapon.name
            )));
        }
        if weapon.kind.is_salvo() {
            if attacker.jammed {
                return Err(ResolveError::Refused(format!(
                    "the {who}'s magazine is jammed: no salvo until it is cleared"
                )));
            }
            let needed = attacker.salvo_warheads(rules, attack.mount);
            if attacker.warheads < needed {
                return Err(ResolveError::Refused(format!(
                    "the {who} has {} warheads, and a {} salvo from this mount needs {needed}",
                    attacker.warheads, weapon.name
                )));
            }
        }
        if weapon.bracket(attack.range).is_none() {
            return Err(ResolveError::Refused(format!(
                "range {} is beyond the {}'s reach of {} hexes",
                attack.range,
                weapon.name,
                weapon.max_range()
            )));
        }
        Ok(())
    }

    /// Rolls a strike already declared and paid for: the d10s (or the swarm
    /// roll) and, on a hit, the damage.
    pub fn strike(
        &self,
        board: &mut Board,
        strike: &Strike,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<AttackOutcome, ResolveError> {
        let rules = &self.rules;
        let weapon = rules.weapon(strike.weapon);
        let target = &board.ships[strike.target];
        let Some(number) = self.to_hit(weapon, target, strike.range, &strike.situation, sink)
        else {
            return Err(ResolveError::Internal(
                "a strike beyond its weapon's range".into(),
            ));
        };
        let mut outcome = AttackOutcome {
            lock: None,
            target_number: number,
            rolls: ArrayVec::new(),
            hits: 0,
            applied: None,
            rerolls_used: 0,
        };
        if weapon.kind == WeaponKind::Swarm {
            let column = rules.swarm.column(strike.swarm);
            // The smallest column is a swarm of 3; a smaller swarm reads it,
            // but cannot score more hits than it has craft.
            let hits_on = |roll: i32| rules.swarm.row(roll).hits[column].min(strike.swarm);
            for _ in 0..strike.dice {
                // Only the hits are read from the roll: faces whose rows
                // score alike are one outcome.
                let face =
                    crate::reading::die_by_class(dice, Die::D10, |f| hits_on(f as i32 + number))?;
                let _ = outcome.rolls.try_push(face);
                let roll = face as i32 + number;
                let row = rules.swarm.row(roll);
                let printed = row.hits[column];
                let hits = hits_on(roll);
                sink.emit(|| Event::Roll {
                    purpose: format!("swarm roll, {number:+}"),
                    dice: "1d10".into(),
                    faces: vec![face],
                    total: roll,
                });
                sink.emit(|| Event::TableRow {
                    table: format!(
                        "Swarmer/Rocket Pack Hits, column {} (a swarm of {})",
                        rules.swarm.columns[column], strike.swarm
                    ),
                    roll,
                    row: format!("row {}: {printed} hit(s)", row.label),
                });
                if hits < printed {
                    sink.emit(|| Event::Ruling {
                        text: format!("a swarm of {} scores at most {hits} hit(s)", strike.swarm),
                    });
                }
                outcome.hits += hits;
            }
        } else {
            let natural_miss = rules.constants.to_hit.natural_miss;
            // A natural 10 misses whatever the number, so a hit is a face at
            // or under the number and under the natural miss: one check.
            let needed = hit_number(number, natural_miss);
            for n in 1..=strike.dice {
                let mut rerolled = false;
                loop {
                    let check = dice.check(Die::D10, needed)?;
                    let _ = outcome.rolls.try_push(check.face);
                    let hit = check.passed;
                    sink.emit(|| Event::Roll {
                        purpose: if strike.dice > 1 {
                            format!("to-hit roll, weapon {n} of {}", strike.dice)
                        } else {
                            "to-hit roll".into()
                        },
                        dice: "1d10".into(),
                        faces: vec![check.face],
                        total: check.face as i32,
                    });
                    sink.emit(|| Event::Check {
                        what: if hit { "hit".into() } else { "miss".into() },
                        roll: check.face as i32,
                        target: number,
                        success: hit,
                        rule: natural_miss_ruled(check.face, number, natural_miss)
                            .then(|| format!("a natural {natural_miss} always misses")),
                    });
                    if hit {
                        outcome.hits += 1;
                        break;
                    }
                    // Ruling 5: a die is re-rolled once at most.
                    if rerolled || outcome.rerolls_used >= strike.rerolls || outcome.rolls.is_full()
                    {
                        break;
                    }
                    rerolled = true;
                    outcome.rerolls_used += 1;
                    sink.emit(|| Event::Ruling {
                        text: "a Command Point re-rolls the miss".into(),
                    });
                }
            }
        }
        if outcome.hits > 0 {
            let hit = Hit {
                weapon: strike.weapon,
                hits: outcome.hits,
                aft: strike.situation.aft,
            };
            let name = &board.names[strike.target];
            let target = &mut board.ships[strike.target];
            outcome.applied = Some(self.allocate_named(&hit, target, name, dice, sink)?);
        }
        Ok(outcome)
    }

    /// Spends what firing spends: the charge, a shot, the salvo's warheads
    /// (those of every launcher of the bank).
    pub(crate) fn spend(&self, ship: &mut Ship, mount: usize) {
        let weapon = self.rules.weapon(ship.weapons[mount].weapon);
        let warheads = ship.salvo_warheads(&self.rules, mount);
        let m = &mut ship.weapons[mount];
        m.charged = false;
        if let Some(shots) = &mut m.shots {
            *shots = shots.saturating_sub(1);
        }
        if weapon.kind.is_salvo() {
            ship.warheads = ship.warheads.saturating_sub(warheads);
        }
    }
}

/// The highest face that hits a to-hit number: the number itself, but
/// never the natural miss or above.
pub(crate) fn hit_number(number: i32, natural_miss: u32) -> i32 {
    number.min(i32::try_from(natural_miss).unwrap_or(i32::MAX) - 1)
}

/// Whether a face missed only because it was the natural miss: at or under
/// the number, but a natural miss or above. Read for the log alone.
pub(crate) fn natural_miss_ruled(face: u32, number: i32, natural_miss: u32) -> bool {
    face >= natural_miss && i64::from(face) <= i64::from(number)
}

impl AttackResolution for ActionD10 {
    type Board = Board;
    type Declaration = Attack;
    type Outcome = AttackOutcome;

    /// Resolves one attack: the lock if it is not held, then what firing
    /// spends, then the dice. A projectile or seeker is resolved as its
    /// salvo arrives in the target's hex with the target still there; in an
    /// engagement the salvo waits for the Missile Resolution phase instead.
    fn resolve_attack(
        &self,
        board: &mut Board,
        attack: &Attack,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<AttackOutcome, ResolveError> {
        self.check_attack(board, attack)?;
        let rules = &self.rules;
        let mount = board.ships[attack.attacker].weapons[attack.mount];
        let weapon = rules.weapon(mount.weapon);
        sink.emit(|| Event::Declared {
            actor: board.names[attack.attacker].clone(),
            action: format!(
                "fires its {}{} at the {} at range {}",
                weapon.name,
                if mount.bank > 1 {
                    format!(" (a bank of {})", mount.bank)
                } else {
                    String::new()
                },
                board.names[attack.target],
                attack.range
            ),
        });
        let mut lock = None;
        let mut rerolls = attack.rerolls;
        if let LockNeed::Make(situation) = &attack.lock {
            let made = self.make_lock(
                &board.ships[attack.attacker],
                &board.ships[attack.target],
                situation,
                rerolls,
                dice,
                sink,
            )?;
            rerolls -= made.rerolls_used;
            if !made.locked {
                sink.emit(|| Event::Ruling {
                    text: "no target lock: the weapon cannot fire at the target".into(),
                });
                return Ok(AttackOutcome::no_lock(made));
            }
            lock = Some(made);
        }
        self.spend(&mut board.ships[attack.attacker], attack.mount);
        if weapon.kind.is_salvo() {
            sink.emit(|| Event::Ruling {
                text: "the salvo is resolved as it arrives in the target's hex, with the target still there".into(),
            });
        }
        let swarm = if weapon.kind == WeaponKind::Swarm {
            weapon.swarm_size
        } else {
            0
        };
        let mut outcome = self.strike(
            board,
            &Strike {
                weapon: mount.weapon,
                dice: mount.bank,
                swarm,
                target: attack.target,
                range: attack.range,
                situation: attack.situation,
                rerolls,
            },
            dice,
            sink,
        )?;
        if let Some(made) = lock {
            outcome.rerolls_used += made.rerolls_used;
            outcome.lock = Some(made);
        }
        Ok(outcome)
    }
}

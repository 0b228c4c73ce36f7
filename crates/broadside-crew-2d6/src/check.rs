//! Task checks: 2D + skill + characteristic DM + other DMs against a difficulty, and the Effect.
//!
//! Every action and reaction of the rules is one of these checks, made by
//! the crew member holding the position. The DMs that are not the skill or
//! the characteristic are passed in as [`Dm`]s whose reasons are rendered
//! only when an event is kept, so a check on the Monte Carlo hot path builds
//! no text.

use arrayvec::ArrayVec;
use broadside_core::{Dice, DiceExpr, Die, Event, EventSink, Pool, ResolveError, Side};

use crate::Crew2d6;
use crate::battle::{Battle, ShipId};
use crate::model::{
    Band, Characteristic, ClassId, CrewMember, Rules, SkillId, Task, TaskDef, WeaponId,
};
use crate::ship::Ship;

/// How events name a ship: its class id, its number among its side's ships
/// of that class, and its side in an engagement, as core's roster names
/// ships (`frigate #2 (A)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Label {
    /// The ship's class.
    pub class: ClassId,
    /// Its side, when it has one (an engagement), shown as ` (A)`.
    pub side: Option<Side>,
    /// Its number among the ships of its class on its side, shown as ` #2`;
    /// 0 when its side has only one of the class.
    pub nth: u8,
}

impl Label {
    /// The name events use.
    pub fn name(&self, rules: &Rules) -> String {
        let id = &rules.class(self.class).id;
        match (self.side, self.nth) {
            (Some(side), 0) => format!("{id} ({side})"),
            (Some(side), nth) => format!("{id} #{nth} ({side})"),
            (None, _) => id.clone(),
        }
    }
}

/// Why a DM applies. Rendered to text only inside event closures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Why {
    /// The range band's attack DM.
    RangeBand(Band),
    /// The weapon's attack DM.
    WeaponDm(WeaponId),
    /// Identical weapons firing together from one mount.
    Identical(u8),
    /// Aim actions before firing.
    Aim(u8),
    /// The Pilot's Line Up Shot, chained.
    LineUpShot(i32),
    /// The Sensor Operator's targeting solution, chained.
    TargetingSolution(i32),
    /// The enemy jammed this ship's sensors or comms last turn.
    Jammed,
    /// A repair's DM for the severity of the damage.
    Severity(u8),
    /// Missiles beyond the first in a salvo.
    ExtraMissiles(u8),
    /// The TL difference of smart missiles.
    TlDifference {
        /// The missiles' TL (or the firing ship's, if higher).
        missile: i32,
        /// The target's TL.
        target: i32,
    },
    /// The target's pilot dodged.
    Dodged(i32),
    /// Identical point-defence weapons in one mount.
    PointDefenceMount(u8),
}

impl Why {
    /// The reason as text.
    pub fn text(self, rules: &Rules) -> String {
        match self {
            Why::RangeBand(b) => format!("range band {}", rules.band(b).name),
            Why::WeaponDm(w) => format!("{} attack DM", rules.weapon(w).name),
            Why::Identical(n) => format!("{n} identical weapons in the mount"),
            Why::Aim(n) => format!("aimed {n} time(s)"),
            Why::LineUpShot(e) => format!("Line Up Shot chained (Effect {e:+})"),
            Why::TargetingSolution(e) => format!("targeting solution chained (Effect {e:+})"),
            Why::Jammed => "jammed by the enemy last turn".into(),
            Why::Severity(s) => format!("damage of severity {s}"),
            Why::ExtraMissiles(n) => format!("{n} missiles in the salvo"),
            Why::TlDifference { missile, target } => {
                format!("smart missiles, TL {missile} against TL {target}")
            }
            Why::Dodged(e) => format!("the target dodged (Effect {e:+})"),
            Why::PointDefenceMount(n) => format!("{n} lasers in the turret"),
        }
    }
}

/// A DM and its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dm {
    /// The signed amount.
    pub amount: i32,
    /// Why.
    pub why: Why,
}

/// DMs of one check; no check has more.
pub type Dms = ArrayVec<Dm, 12>;

/// What a check came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CheckResult {
    /// The faces rolled (two, or three under a Bane).
    pub faces: [u8; 3],
    /// How many faces were rolled.
    pub dice: u8,
    /// The two dice that count, summed.
    pub roll: i32,
    /// Every DM together (skill included).
    pub dm: i32,
    /// Roll plus DM.
    pub total: i32,
    /// The target number.
    pub target: i32,
    /// Total minus target.
    pub effect: i32,
    /// Effect 0 or more.
    pub success: bool,
}

impl CheckResult {
    /// The faces rolled, as a list for events.
    pub fn faces(&self) -> Vec<u32> {
        self.faces[..usize::from(self.dice)]
            .iter()
            .map(|&f| u32::from(f))
            .collect()
    }
}

/// Who makes a check and with what.
#[derive(Debug, Clone, Copy)]
pub struct Checker<'a> {
    /// The ship.
    pub ship: &'a Ship,
    /// How events name it.
    pub label: Label,
    /// The crew member, by index in the class's crew.
    pub person: u8,
    /// The task.
    pub task: Task,
    /// The mount's Gunner specialty, for gunner tasks: used instead of the
    /// task's skills.
    pub mount_skill: Option<SkillId>,
    /// Another skill that serves besides the task's (the Engineer
    /// specialty of a location being repaired).
    pub also_skill: Option<SkillId>,
    /// The attack suffers a Bane.
    pub bane: bool,
    /// Who reads the faces, and how much of the Effect the caller reads.
    pub reading: Reading,
}

/// Who reads a check's faces one by one, and so how its dice are asked for.
///
/// Every way consumes the same faces in the same order, so seeded and
/// scripted results never depend on it. What differs is what a source that
/// enumerates every outcome branches on: each face, each sum, or each band
/// of the last die that the caller tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Reading {
    /// Only the event log prints the faces: rolled die by die when the log
    /// keeps events, asked for as a sum when it does not (only the sum is
    /// read then).
    #[default]
    Logged,
    /// A report prints the faces whatever the log keeps (a single attack's
    /// report), and the caller reads the Effect only from `low` to `high`:
    /// an Effect below `low` reads as `low`, one above `high` as `high`. The
    /// first die is rolled; the last is asked for by the bands of its faces
    /// that give different readings, so the faces shown are real ones.
    Reported {
        /// The lowest Effect told apart from lower ones.
        low: i32,
        /// The highest Effect told apart from higher ones.
        high: i32,
    },
    /// Only the event log prints the faces, and the caller reads the
    /// Effect only from `low` to `high`, as [`Reading::Reported`] reads it
    /// (`-1` to `0` reads success or failure, `0` to `0` nothing). With no
    /// log, a source that enumerates every outcome is asked for the bands
    /// of the 2D sum that read differently.
    Clamped {
        /// The lowest Effect told apart from lower ones.
        low: i32,
        /// The highest Effect told apart from higher ones.
        high: i32,
    },
    /// Only the event log prints the faces, and the caller reads the
    /// Effect only through the task-chain DM it passes on
    /// ([`Rules::chain_dm`]); asked for by bands as [`Reading::Clamped`].
    Chained,
}

impl Reading {
    /// A report prints the faces when `printed`; otherwise only the log
    /// does. Either way the caller reads the Effect only from `low` to
    /// `high`.
    pub fn reported_if(printed: bool, low: i32, high: i32) -> Reading {
        if printed {
            Reading::Reported { low, high }
        } else {
            Reading::Clamped { low, high }
        }
    }

    /// Only the log prints the faces, and the caller reads only whether
    /// the check succeeded.
    pub const SUCCESS: Reading = Reading::Clamped { low: -1, high: 0 };

    /// Only the log prints the faces, and the caller reads nothing of the
    /// check: the dice are rolled all the same.
    pub const NOTHING: Reading = Reading::Clamped { low: 0, high: 0 };
}

impl<'a> Checker<'a> {
    /// A check by a crew member of a ship on a task, with no mount
    /// specialty, no second skill and no Bane: most checks of the rules.
    pub fn plain(battle: &'a Battle, ship: ShipId, person: u8, task: Task) -> Checker<'a> {
        Checker {
            ship: battle.ship(ship),
            label: battle.labels[ship.index()],
            person,
            task,
            mount_skill: None,
            also_skill: None,
            bane: false,
            reading: Reading::Logged,
        }
    }
}

/// What a crew member brings to a task with no mount specialty and no
/// second skill: its skill level and skill, and its characteristic, value
/// and DM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CrewDm {
    level: i32,
    skill: Option<SkillId>,
    characteristic: (Characteristic, u8, i32),
}

/// [`CrewDm`]s of every class, by class, then person and task (`person *
/// tasks + task`), from the rules' own reckoning.
pub(crate) fn crew_dms(rules: &Rules) -> Vec<Vec<CrewDm>> {
    rules
        .ships
        .iter()
        .map(|class| {
            let mut dms = Vec::with_capacity(class.crew.len() * rules.tasks.len());
            for member in &class.crew {
                for def in &rules.tasks {
                    let (level, skill) = best_skill(rules, member, def, None, None);
                    dms.push(CrewDm {
                        level,
                        skill,
                        characteristic: best_characteristic(rules, member, def),
                    });
                }
            }
            dms
        })
        .collect()
}

/// The skill level a crew member brings to a task (unskilled, the rules'
/// DM) and the skill used: the mount's specialty when given, else the best
/// of the task's skills and `also`.
fn best_skill(
    rules: &Rules,
    member: &CrewMember,
    def: &TaskDef,
    mount_skill: Option<SkillId>,
    also: Option<SkillId>,
) -> (i32, Option<SkillId>) {
    let best = match mount_skill {
        Some(skill) => member.skill(skill).map(|l| (l, skill)),
        None => def
            .skills
            .iter()
            .copied()
            .chain(also)
            .filter_map(|s| member.skill(s).map(|l| (l, s)))
            .max_by_key(|&(l, _)| l),
    };
    match best {
        Some((level, skill)) => (i32::from(level), Some(skill)),
        None => (rules.unskilled, None),
    }
}

/// The characteristic a crew member uses for a task (the best DM among
/// those the task allows), its value and its DM.
fn best_characteristic(
    rules: &Rules,
    member: &CrewMember,
    def: &TaskDef,
) -> (Characteristic, u8, i32) {
    let mut best = (def.characteristics[0], 0u8, i32::MIN);
    for &c in &def.characteristics {
        let value = member.characteristic(c);
        let dm = rules.characteristic_dm(value);
        if dm > best.2 {
            best = (c, value, dm);
        }
    }
    best
}

impl Crew2d6 {
    /// What a crew member brings to a task, worked out at loading.
    fn crew_dm(&self, checker: &Checker<'_>) -> Option<&CrewDm> {
        let tasks = self.rules.tasks.len();
        self.crew_dms
            .get(usize::from(checker.ship.class))?
            .get(usize::from(checker.person) * tasks + checker.task as usize)
    }

    /// The skill level a crew member brings to a task (unskilled -3) and the
    /// skill used, if any.
    pub fn skill_level(&self, checker: &Checker<'_>) -> (i32, Option<SkillId>) {
        if checker.mount_skill.is_none()
            && checker.also_skill.is_none()
            && let Some(dm) = self.crew_dm(checker)
        {
            return (dm.level, dm.skill);
        }
        let rules = &self.rules;
        let member = &checker.ship.class(rules).crew[usize::from(checker.person)];
        let def = rules.task(checker.task);
        best_skill(rules, member, def, checker.mount_skill, checker.also_skill)
    }

    /// The characteristic a crew member uses for a task (the best DM among
    /// those the task allows) and its DM.
    pub fn characteristic(&self, checker: &Checker<'_>) -> (Characteristic, u8, i32) {
        if let Some(dm) = self.crew_dm(checker) {
            return dm.characteristic;
        }
        let rules = &self.rules;
        let member = &checker.ship.class(rules).crew[usize::from(checker.person)];
        best_characteristic(rules, member, rules.task(checker.task))
    }

    /// The DM a check takes from the ship itself: its sensor type (for
    /// sensor tasks) and its critical hits.
    pub fn ship_dm(&self, ship: &Ship, task: Task) -> i32 {
        let rules = &self.rules;
        let def = rules.task(task);
        let sensors = if def.sensors_dm {
            ship.class(rules).sensors_dm
        } else {
            0
        };
        sensors + ship.standing.dm_for(def.groups)
    }

    /// Makes a task check, emitting the skill, every DM, the roll and the
    /// verdict. A check the ship's damage disables is refused.
    pub fn check(
        &self,
        checker: &Checker<'_>,
        extra: &[Dm],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<CheckResult, ResolveError> {
        let rules = &self.rules;
        let def = rules.task(checker.task);
        let ship = checker.ship;
        if ship.standing.disabled(def.groups) {
            return Err(ResolveError::Refused(format!(
                "the {}'s damage makes {} impossible",
                checker.label.name(rules),
                def.name
            )));
        }
        let (level, skill) = self.skill_level(checker);
        sink.emit(|| {
            let class = ship.class(rules);
            let member = &class.crew[usize::from(checker.person)].name;
            let source = match skill {
                Some(s) => format!(
                    "{member} ({}), {}",
                    checker.label.name(rules),
                    rules.skill_name(s)
                ),
                None => format!("{member} ({}), unskilled", checker.label.name(rules)),
            };
            Event::Base {
                what: format!("{} skill", def.name),
                value: level,
                source,
            }
        });
        let (characteristic, value, char_dm) = self.characteristic(checker);
        sink.emit(|| Event::Modifier {
            to: def.name.clone(),
            amount: char_dm,
            reason: format!("{} {value}", characteristic.abbreviation()),
        });
        let mut dm = level + char_dm;
        if def.sensors_dm {
            let class = ship.class(rules);
            if class.sensors_dm != 0 {
                dm += class.sensors_dm;
                sink.emit(|| Event::Modifier {
                    to: def.name.clone(),
                    amount: class.sensors_dm,
                    reason: format!("{} sensors", class.sensors),
                });
            }
        }
        dm += self.critical_dms(ship, def.groups, &def.name, sink);
        for extra in extra {
            dm += extra.amount;
            sink.emit(|| Event::Modifier {
                to: def.name.clone(),
                amount: extra.amount,
                reason: extra.why.text(rules),
            });
        }
        let target = def.difficulty;
        let ask = match checker.reading {
            Reading::Reported { low, high } => Ask::Banded { low, high },
            // Plain dice roll the same faces however they are asked, so
            // the bands are worked out only for a source that branches on
            // them.
            Reading::Logged => Ask::logged(sink),
            _ if sink.enabled() || !dice.enumerates() => Ask::logged(sink),
            Reading::Clamped { low, high } => Ask::bands(dm, target, |e| e.clamp(low, high)),
            Reading::Chained => Ask::bands(dm, target, |e| rules.chain_dm(e)),
        };
        let result = roll_check(dice, checker.bane, dm, target, ask)?;
        sink.emit(|| Event::Roll {
            purpose: if checker.bane {
                format!("{}, with a Bane (the lowest two count)", def.name)
            } else {
                def.name.clone()
            },
            dice: format!("{}d6", result.dice),
            faces: result.faces(),
            total: result.roll,
        });
        sink.emit(|| Event::Check {
            what: def.name.clone(),
            roll: result.total,
            target: result.target,
            success: result.success,
            rule: Some(format!(
                "{}, Effect {:+}",
                rules.difficulty_text(result.target),
                result.effect
            )),
        });
        Ok(result)
    }

    /// The DMs of the ship's critical hits on checks of these groups, one
    /// event per location.
    pub fn critical_dms(
        &self,
        ship: &Ship,
        groups: crate::model::Groups,
        to: &str,
        sink: &mut dyn EventSink,
    ) -> i32 {
        if ship.standing.dm_for(groups) == 0 {
            return 0;
        }
        let mut total = 0;
        for (i, location) in self.rules.criticals.locations.iter().enumerate() {
            let severity = ship.severity[i];
            if severity == 0 || ship.jury_rigged & (1 << i) != 0 {
                continue;
            }
            let amount = location.cumulative[usize::from(severity)].dm_for(groups);
            if amount != 0 {
                total += amount;
                sink.emit(|| Event::Modifier {
                    to: to.to_owned(),
                    amount,
                    reason: format!("critical hit: {} severity {severity}", location.name),
                });
            }
        }
        total
    }
}

/// How [`roll_check`] asks for its dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ask {
    /// Die by die: every face is read (a log prints them).
    Faces,
    /// Only the sum of the dice that count is read. Without a Bane the two
    /// dice are asked for as a total; under a Bane, where the highest of
    /// three is dropped, the last die is asked for by the bands of its faces
    /// that keep different sums.
    Sum,
    /// The faces are printed and the caller reads the Effect only from `low`
    /// to `high`: all dice but the last are rolled, the last asked for by
    /// the bands of its faces whose clamped Effects differ.
    Banded {
        /// Effects below this read alike.
        low: i32,
        /// Effects above this read alike.
        high: i32,
    },
    /// Only the band of the sum of the dice that count is read: bit `s`
    /// set (`s` from 2 to 11) makes `s` the highest sum of a band. Without
    /// a Bane the two dice are asked for as one banded total; under a Bane
    /// they are asked for as by [`Ask::Sum`].
    Bands {
        /// The highest sum of each band but the last, as bits.
        tops: u16,
    },
}

impl Ask {
    /// Die by die when the log keeps events, which print the faces; as a
    /// sum when it does not.
    pub fn logged(sink: &dyn EventSink) -> Ask {
        if sink.enabled() { Ask::Faces } else { Ask::Sum }
    }

    /// The bands of the 2D sum whose Effects against `target` with `dm`
    /// read differently, `read` giving what the caller takes from an
    /// Effect.
    pub fn bands(dm: i32, target: i32, read: impl Fn(i32) -> i32) -> Ask {
        let effect = |sum: i32| read(sum + dm - target);
        let tops = (2..12)
            .filter(|&sum| effect(sum) != effect(sum + 1))
            .fold(0u16, |tops, sum| tops | 1 << sum);
        Ask::Bands { tops }
    }
}

/// Rolls 2D (3D keeping the lowest two under a Bane) die by die and compares
/// the total with a target number.
pub fn roll_2d(
    dice: &mut dyn Dice,
    bane: bool,
    dm: i32,
    target: i32,
) -> Result<CheckResult, ResolveError> {
    roll_check(dice, bane, dm, target, Ask::Faces)
}

/// Rolls 2D (3D keeping the lowest two under a Bane), asking the dice for
/// what `ask` says is read, and compares the total with a target number.
///
/// Whatever `ask`, the dice consume the same faces in the same order. With
/// [`Ask::Sum`] the faces kept are a split of the sum, not the faces rolled:
/// only the sum may be read; with [`Ask::Bands`] the sum stands for its
/// band, so only the band may be read. With [`Ask::Banded`] the last face
/// may stand for its band, so only the Effect clamped to the band limits
/// may be read. Dice that do not enumerate outcomes are always rolled face
/// by face.
pub fn roll_check(
    dice: &mut dyn Dice,
    bane: bool,
    dm: i32,
    target: i32,
    ask: Ask,
) -> Result<CheckResult, ResolveError> {
    let count: u8 = if bane { 3 } else { 2 };
    let mut faces = [0u8; 3];
    let last = usize::from(count) - 1;
    // Plain dice roll the same faces however they are asked: they are
    // rolled one by one, and the faces kept are the ones rolled.
    let ask = if dice.enumerates() { ask } else { Ask::Faces };
    match ask {
        Ask::Bands { tops } if !bane => {
            // Any split of the band's sum into two faces serves, as only
            // its band is read.
            let tops: ArrayVec<u32, 10> = (2..12u32).filter(|&s| tops & 1 << s != 0).collect();
            let sum = dice.total_band(2, Die::D6, &tops)? as u8;
            faces[0] = sum.saturating_sub(1).min(6);
            faces[1] = sum - faces[0];
        }
        Ask::Sum if !bane => {
            // The sum of two d6 is 2 to 12; any split of it into two faces
            // serves, as nothing reads them.
            let sum = dice.total(2, Die::D6)? as u8;
            faces[0] = sum.saturating_sub(1).min(6);
            faces[1] = sum - faces[0];
        }
        Ask::Faces => {
            for face in faces.iter_mut().take(usize::from(count)) {
                // A d6 face always fits a byte.
                *face = dice.roll(Die::D6)? as u8;
            }
        }
        Ask::Sum | Ask::Bands { .. } | Ask::Banded { .. } => {
            let (low, high) = match ask {
                Ask::Banded { low, high } => (low, high),
                _ => (i32::MIN, i32::MAX),
            };
            for face in faces.iter_mut().take(last) {
                *face = dice.roll(Die::D6)? as u8;
            }
            // Where the clamped Effect changes from one face of the last
            // die to the next, a band ends.
            let reading = |face: u8| {
                let mut trial = faces;
                trial[last] = face;
                (kept(&trial, bane) + dm - target).clamp(low, high)
            };
            let tops: ArrayVec<u32, 6> = (1..6u8)
                .filter(|&f| reading(f) != reading(f + 1))
                .map(u32::from)
                .collect();
            faces[last] = dice.band(Die::D6, &tops)? as u8;
        }
    }
    let roll = kept(&faces, bane);
    let total = roll + dm;
    let effect = total - target;
    Ok(CheckResult {
        faces,
        dice: count,
        roll,
        dm,
        total,
        target,
        effect,
        success: effect >= 0,
    })
}

/// Rolls dice of which only the sum (plus the bonus) is read: die by die
/// when the log keeps events, which print the faces, and as a total when it
/// does not, so that a source enumerating every outcome branches on sums.
/// Both consume the same faces. Returns the faces when they were rolled one
/// by one, and the sum with the bonus.
pub fn roll_sum(
    expr: &DiceExpr,
    dice: &mut dyn Dice,
    sink: &dyn EventSink,
) -> Result<(Option<Pool>, i32), ResolveError> {
    if sink.enabled() {
        let (pool, total) = expr.roll(dice)?;
        Ok((Some(pool), total))
    } else {
        let sum = i32::try_from(dice.total(expr.count, expr.die)?).unwrap_or(i32::MAX);
        Ok((None, sum.saturating_add(expr.bonus)))
    }
}

/// The faces of a [`roll_sum`] for an event: the event is built only when
/// the log keeps it, and then the faces were rolled one by one.
pub fn faces_of(pool: Option<&Pool>) -> Vec<u32> {
    pool.map(Pool::to_vec).unwrap_or_default()
}

/// The sum of the dice that count: both of two, or the lowest two of three.
fn kept(faces: &[u8; 3], bane: bool) -> i32 {
    let sum: i32 = faces.iter().map(|&f| i32::from(f)).sum();
    if bane {
        sum - i32::from(faces.iter().copied().max().unwrap_or(0))
    } else {
        sum
    }
}

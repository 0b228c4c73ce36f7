//! Whole engagements of one or more ships a side: setting up, initiative, the maneuver, attack and missile steps, played through core's `TurnSequence`.
//!
//! A turn is the cheat sheet's sequence: initiative; the maneuver step in
//! reverse initiative order (actions, range adjustment, combat
//! maneuvering); the attack step in initiative order, one action per ship
//! position; salvos reaching their targets; and the end of the turn, when a
//! ship whose jump drive was activated leaves. The first turn begins with
//! setting up (the starting bands and the scans for the enemy) and the free
//! round a failed scan gives the other side. Every ship of both sides rolls
//! its own initiative and takes its place in one order. Decisions come from
//! each side's [`CrewTactics`], asked ship by ship; this module checks them
//! against the rules and resolves them.

use broadside_core::{
    BattleRequest, Dice, Die, Event, EventSink, Frame, FrameRules, Loss, Options, ResolveError,
    Roster, ShipFate, Side, TurnSequence, Verdict,
};

use crate::Crew2d6;
use crate::attack::{Incoming, NoReactions, ReactionChooser, Reactions, forbidden};
use crate::battle::{Battle, Chain, ChainSource, Pair, ShipId};
use crate::check::{Ask, CheckResult, Checker, Dm, Dms, Reading, Why, roll_check};
use crate::damage::{Applied, Cause};
use crate::model::{Band, ChainMode, ClassId, Position, Task, WeaponKind};
use crate::ship::Condition;
use crate::tactics::{
    Action, CombatManeuver, CrewTactics, DefaultTactics, FOCUS_IDS, Focus, Order, Repairable,
};

/// A phase of the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The starting band, the scans for the enemy, and the free round a side
    /// wins when the other fails its scan (first turn only).
    Setup,
    /// Initiative and reactions.
    Initiative,
    /// Overcharge, maneuver, range adjustment, combat maneuvering.
    Maneuver,
    /// One action per ship position, in initiative order.
    Attack,
    /// Salvos reach their targets.
    Missiles,
    /// Jumps take the ships away; the turn's state is cleared.
    EndOfTurn,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Setup => "setting up",
            Phase::Initiative => "initiative step",
            Phase::Maneuver => "maneuver step",
            Phase::Attack => "attack step",
            Phase::Missiles => "missile hits",
            Phase::EndOfTurn => "end of turn",
        })
    }
}

const FIRST_TURN: [Phase; 6] = [
    Phase::Setup,
    Phase::Initiative,
    Phase::Maneuver,
    Phase::Attack,
    Phase::Missiles,
    Phase::EndOfTurn,
];
const TURN: [Phase; 5] = [
    Phase::Initiative,
    Phase::Maneuver,
    Phase::Attack,
    Phase::Missiles,
    Phase::EndOfTurn,
];

/// How an engagement is set up: the scenario's battle options and each
/// side's set-up.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Setup {
    /// The starting band, when the scenario names one.
    pub start_band: Option<Band>,
    /// Near a planet or other object (a d6 for Medium or Long) rather than a
    /// random encounter.
    pub near_object: bool,
    /// Which sides start at a marked jump point (an Alderson point).
    pub jump_points: [bool; 2],
    /// Each ship's echelon, in roster order: bands farther (+) or closer
    /// (-) from every enemy than the starting band. Missing entries are 0.
    pub echelon: Vec<i8>,
}

impl Setup {
    /// A ship's echelon.
    pub fn echelon_of(&self, ship: ShipId) -> i32 {
        self.echelon.get(ship.index()).map_or(0, |&e| i32::from(e))
    }
}

/// The band `steps` bands farther (+) or closer (-) than `band`, kept
/// within Adjacent and Distant.
pub fn shifted(band: Band, steps: i32) -> Band {
    let mut at = band;
    for _ in 0..steps.unsigned_abs() {
        let next = if steps > 0 { at.farther() } else { at.closer() };
        match next {
            Some(next) => at = next,
            None => break,
        }
    }
    at
}

/// An initiative roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Initiative {
    /// The total.
    pub total: i32,
    /// Reactions it allows.
    pub reactions: u8,
}

/// What overcharging the engines did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overcharged {
    /// The Engineer's check.
    pub check: CheckResult,
    /// Thrust for the round after it.
    pub thrust: i32,
    /// Hits to the M-drive.
    pub hits: u8,
    /// The critical hits those did.
    pub applied: Applied,
}

/// The defender's tactics, answering for reactions.
struct TacticsReactions<'a> {
    tactics: &'a dyn CrewTactics,
}

impl ReactionChooser for TacticsReactions<'_> {
    fn choose(
        &self,
        system: &Crew2d6,
        battle: &Battle,
        defender: ShipId,
        incoming: &Incoming,
    ) -> Reactions {
        self.tactics.reactions(system, battle, defender, incoming)
    }
    fn is_user(&self) -> bool {
        false
    }
}

/// A refusal from the rules, for an action a tactic chose, is a bug in the
/// tactic.
fn tactic_error(error: ResolveError) -> ResolveError {
    match error {
        ResolveError::Refused(message) => {
            ResolveError::Internal(format!("tactics chose what the rules forbid: {message}"))
        }
        other => other,
    }
}

/// How an event names the enemy an action is aimed at: nothing in a duel,
/// where there is only one (so duel logs read as they always have), else
/// `{word} the {ship}`.
fn naming(battle: &Battle, rules: &crate::model::Rules, word: &str, target: ShipId) -> String {
    if battle.is_duel() {
        String::new()
    } else {
        format!("{word} the {}", battle.name(rules, target))
    }
}

impl Crew2d6 {
    /// Rolls one ship's initiative: 2D + the Pilot's skill + the Captain's
    /// Tactics + current thrust, with last turn's Inspire and burned
    /// reactions; sets the reactions it allows.
    pub fn roll_initiative(
        &self,
        battle: &mut Battle,
        id: ShipId,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Initiative, ResolveError> {
        let rules = &self.rules;
        let ship = battle.ship(id);
        let class = ship.class(rules);
        let label = battle.labels[id.index()];
        let what = "initiative";
        let mut dm = 0;
        if let Some(captain) = class.holder(Position::Captain) {
            let check = self.check(
                &Checker {
                    ship,
                    label,
                    person: captain,
                    task: Task::Tactics,
                    mount_skill: None,
                    also_skill: None,
                    bane: false,
                    reading: match rules.constants.tactics_mode {
                        ChainMode::Effect => Reading::Logged,
                        ChainMode::Table => Reading::Chained,
                    },
                },
                &[],
                dice,
                sink,
            )?;
            let (value, how) = match rules.constants.tactics_mode {
                ChainMode::Effect => (check.effect, "its Effect, good or bad"),
                ChainMode::Table => (rules.chain_dm(check.effect), "chained"),
            };
            dm += value;
            sink.emit(|| Event::Modifier {
                to: what.into(),
                amount: value,
                reason: format!("the Captain's Tactics (Effect {:+}), {how}", check.effect),
            });
        }
        let pilot_level = match class.holder(Position::Pilot) {
            Some(pilot) => {
                let (level, _) = self.skill_level(&Checker {
                    ship,
                    label,
                    person: pilot,
                    task: Task::Maneuver,
                    mount_skill: None,
                    also_skill: None,
                    bane: false,
                    reading: Reading::Logged,
                });
                sink.emit(|| Event::Modifier {
                    to: what.into(),
                    amount: level,
                    reason: format!("{}'s Pilot skill", class.crew[usize::from(pilot)].name),
                });
                level
            }
            None => rules.unskilled,
        };
        dm += pilot_level;
        let thrust = ship.thrust(rules);
        dm += thrust;
        sink.emit(|| Event::Modifier {
            to: what.into(),
            amount: thrust,
            reason: "M-drive thrust".into(),
        });
        let state = battle.state(id);
        let (inspire, burn) = (state.inspire_dm, state.burn_penalty);
        if inspire != 0 {
            dm += inspire;
            sink.emit(|| Event::Modifier {
                to: what.into(),
                amount: inspire,
                reason: "the Captain inspired the crew last turn (chained)".into(),
            });
        }
        if burn != 0 {
            dm += burn;
            sink.emit(|| Event::Modifier {
                to: what.into(),
                amount: burn,
                reason: "initiative burned for extra reactions last turn".into(),
            });
        }
        let result = roll_check(dice, false, dm, 0, Ask::logged(sink))?;
        let total = result.total;
        sink.emit(|| Event::Roll {
            purpose: format!("{}'s initiative", battle.name(rules, id)),
            dice: "2d6".into(),
            faces: result.faces(),
            total: result.roll,
        });
        let reactions = rules.reactions_at(total);
        sink.emit(|| Event::TableRow {
            table: "Number of Reactions".into(),
            roll: total,
            row: format!(
                "{}: {reactions} reaction(s)",
                rules.reactions.row(total).label()
            ),
        });
        let state = battle.state_mut(id);
        state.initiative = total;
        state.reactions = reactions;
        state.reactions_used = 0;
        state.inspire_dm = 0;
        state.burn_penalty = 0;
        Ok(Initiative { total, reactions })
    }

    /// The Engineer overcharges the engines: Effect is extra thrust this
    /// round (between none and the multiple the data allows), and a bad
    /// enough Effect hits the M-drive.
    pub fn overcharge(
        &self,
        battle: &mut Battle,
        id: ShipId,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Overcharged, ResolveError> {
        let rules = &self.rules;
        let c = &rules.constants;
        let class = battle.ship(id).class(rules);
        let label = battle.labels[id.index()];
        // The better of the M-drive and power engineers makes the check.
        let (position, engineer) = [Position::EngineerMDrive, Position::EngineerPower]
            .into_iter()
            .filter(|p| battle.state(id).acted & p.bit() == 0)
            .filter_map(|p| class.holder(p).map(|person| (p, person)))
            .max_by_key(|&(_, person)| {
                self.skill_level(&Checker::plain(battle, id, person, Task::Overcharge))
                    .0
            })
            .ok_or_else(|| {
                ResolveError::Refused(format!(
                    "the {} has no M-drive or power engineer free to overcharge",
                    battle.name(rules, id)
                ))
            })?;
        battle.act(id, position, "overcharge")?;
        sink.emit(|| Event::Declared {
            actor: battle.name(rules, id),
            action: rules.task(Task::Overcharge).name.clone(),
        });
        let check = self.check(
            &Checker::plain(battle, id, engineer, Task::Overcharge),
            &[],
            dice,
            sink,
        )?;
        let base = battle.ship(id).thrust(rules);
        let thrust = (base + check.effect).clamp(0, base * c.overcharge_max_multiple);
        let state = battle.state_mut(id);
        state.thrust = thrust;
        state.thrust_left = thrust;
        sink.emit(|| Event::Effect {
            ship: label.name(rules),
            effect: format!(
                "thrust {base} {:+} = {thrust} this round (kept within 0 and {} x {base})",
                check.effect, c.overcharge_max_multiple
            ),
        });
        let hits: u8 = if check.effect <= c.overcharge_two_hits_at {
            2
        } else if check.effect <= c.overcharge_one_hit_at {
            1
        } else {
            0
        };
        let mut applied = Applied::default();
        if hits > 0 {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "an overcharge Effect of {} or less does one hit to the M-drive, {} or less two; the engines fail after this round's burn",
                    c.overcharge_one_hit_at, c.overcharge_two_hits_at
                ),
            });
        }
        for _ in 0..hits {
            let m_drive = rules.criticals.m_drive as u8;
            self.critical(
                battle.ship_mut(id),
                label,
                m_drive,
                1,
                Cause::Overcharge,
                &mut applied,
                dice,
                sink,
            )?;
        }
        self.sustained(battle.ship_mut(id), label, &mut applied, dice, sink)?;
        Ok(Overcharged {
            check,
            thrust,
            hits,
            applied,
        })
    }

    /// Moves the range band of every pair of enemies by the thrust their
    /// two ships applied this round: toward each other adds, a pursuit
    /// subtracts. A ship maneuvers toward or away from one enemy, and the
    /// sides face each other, so its thrust counts in each of its pairs; a
    /// grappled ship's thrust counts in none, and a grappled pair stays at
    /// Adjacent. Thrust accumulates over rounds; leaving a band in either
    /// direction costs that band's thrust, and thrust left over after a
    /// change counts toward the next.
    pub fn adjust_range(&self, battle: &mut Battle, sink: &mut dyn EventSink) {
        let rules = &self.rules;
        for (a, b) in battle.pair_ids() {
            if !battle.present(a) || !battle.present(b) {
                continue;
            }
            if battle.pair(a, b).grappled {
                sink.emit(|| Event::Ruling {
                    text: if battle.is_duel() {
                        "the ships are grappled together: the range stays Adjacent".into()
                    } else {
                        format!(
                            "the {} and the {} are grappled together: their range stays Adjacent",
                            battle.name(rules, a),
                            battle.name(rules, b)
                        )
                    },
                });
                continue;
            }
            let thrust = |ship: ShipId| {
                let state = battle.state(ship);
                if state.maneuver_target.is_some() && !battle.grappled(ship) {
                    state.applied
                } else {
                    0
                }
            };
            let net = thrust(a) + thrust(b);
            if net == 0 {
                continue;
            }
            self.move_pair(battle, (a, b), net, sink);
        }
    }

    /// Adds a pair's net thrust this round to what it has accumulated and
    /// changes its band for each band's worth.
    fn move_pair(
        &self,
        battle: &mut Battle,
        (a, b): (ShipId, ShipId),
        net: i32,
        sink: &mut dyn EventSink,
    ) {
        let rules = &self.rules;
        // Only kept events name the pair.
        let who = |battle: &Battle| {
            if battle.is_duel() {
                "both ships".to_owned()
            } else {
                format!("{} and {}", battle.name(rules, a), battle.name(rules, b))
            }
        };
        battle.pair_mut(a, b).closing += net;
        // Closing and opening are one rule mirrored: each band's thrust
        // accumulated moves the ships one band, until the thrust left is
        // short of the next band's cost or there is no band further.
        loop {
            let pair = *battle.pair(a, b);
            let cost = rules.band(pair.band).thrust;
            let (next, sign, verb) = if pair.closing >= cost {
                (pair.band.closer(), 1, "close")
            } else if pair.closing <= -cost {
                (pair.band.farther(), -1, "open")
            } else {
                break;
            };
            let Some(band) = next else {
                battle.pair_mut(a, b).closing = 0;
                break;
            };
            let pair = battle.pair_mut(a, b);
            pair.closing -= sign * cost;
            pair.band = band;
            sink.emit(|| Event::Effect {
                ship: who(battle),
                effect: format!("{verb} to {} range", rules.band(band).name),
            });
        }
        let Pair { band, closing, .. } = *battle.pair(a, b);
        sink.emit(|| Event::Effect {
            ship: who(battle),
            effect: format!(
                "net thrust {net:+} this round; at {} range with {closing:+} thrust toward the next band (it takes {})",
                rules.band(band).name,
                rules.band(band).thrust
            ),
        });
    }

    /// The maneuver step for the ships of the acting sides, in reverse
    /// initiative order: each ship's actions, then the range adjusted for
    /// every pair, then each ship's combat maneuver.
    pub fn maneuver_step(
        &self,
        battle: &mut Battle,
        acting: [bool; 2],
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        // The order does not change within the step, so it is walked by
        // index rather than copied.
        for i in (0..battle.order.len()).rev() {
            self.maneuver_of(battle, i, acting, tactics, dice, sink)?;
        }
        self.adjust_range(battle, sink);
        for i in (0..battle.order.len()).rev() {
            self.combat_maneuver_of(battle, i, acting, tactics, dice, sink)?;
        }
        Ok(())
    }

    /// The maneuver action of the ship at place `i` in the initiative
    /// order: overcharge and thrust.
    fn maneuver_of(
        &self,
        battle: &mut Battle,
        i: usize,
        acting: [bool; 2],
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let ship = battle.order[i];
        let side = battle.side_of(ship);
        let state = battle.state_mut(ship);
        state.acted = 0;
        state.applied = 0;
        state.maneuver_target = None;
        if !acting[side.index()] || !battle.present(ship) {
            return Ok(());
        }
        let thrust = battle.ship(ship).thrust(&self.rules);
        let state = battle.state_mut(ship);
        state.thrust = thrust;
        state.thrust_left = thrust;
        let own = tactics[side.index()];
        if own.overcharge(self, battle, ship) {
            self.overcharge(battle, ship, dice, sink)
                .map_err(tactic_error)?;
        }
        if let Some(wanted) = own.maneuver(self, battle, ship) {
            self.maneuver(battle, ship, wanted.target, wanted.thrust, dice, sink)
                .map_err(tactic_error)?;
        }
        Ok(())
    }

    /// The combat maneuver of the ship at place `i` in the initiative
    /// order, once the range is adjusted.
    fn combat_maneuver_of(
        &self,
        battle: &mut Battle,
        i: usize,
        acting: [bool; 2],
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let ship = battle.order[i];
        let side = battle.side_of(ship);
        battle.state_mut(ship).acted = 0;
        if !acting[side.index()] || !battle.present(ship) {
            return Ok(());
        }
        match tactics[side.index()].combat_maneuver(self, battle, ship) {
            CombatManeuver::None => {}
            CombatManeuver::LineUpShot { mount, target } => self
                .line_up_shot(battle, ship, mount, target, dice, sink)
                .map_err(tactic_error)?,
            CombatManeuver::Boarding { target } => self
                .boarding(battle, ship, target, dice, sink)
                .map_err(tactic_error)?,
        }
        Ok(())
    }

    /// Step `step` of the maneuver step played in steps of one ship each
    /// for a battle of `ships` ships: first each ship's maneuver action in
    /// reverse initiative order, then (with the range adjusted before the
    /// first) each ship's combat maneuver, also in reverse order. Steps
    /// beyond the ships in the order play nothing. Played in turn, the
    /// `2 * ships` steps are [`Crew2d6::maneuver_step`] for both sides.
    pub fn maneuver_part(
        &self,
        battle: &mut Battle,
        step: u32,
        ships: u32,
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let acting = [true, true];
        let len = battle.order.len();
        let (second, k) = if step < ships {
            (false, step as usize)
        } else {
            (true, (step - ships) as usize)
        };
        if second && k == 0 {
            self.adjust_range(battle, sink);
        }
        if k >= len {
            return Ok(());
        }
        if second {
            self.combat_maneuver_of(battle, len - 1 - k, acting, tactics, dice, sink)
        } else {
            self.maneuver_of(battle, len - 1 - k, acting, tactics, dice, sink)
        }
    }

    /// The Pilot applies thrust toward (+) or away from (-) an enemy ship.
    pub fn maneuver(
        &self,
        battle: &mut Battle,
        id: ShipId,
        target: ShipId,
        thrust: i32,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        self.check_target(battle, id, target)?;
        let left = battle.state(id).thrust_left;
        if thrust.abs() > left {
            return Err(ResolveError::Refused(format!(
                "the {} has {left} thrust, not {}",
                battle.name(rules, id),
                thrust.abs()
            )));
        }
        let pilot = self.pilot(battle, id)?;
        battle.act(id, Position::Pilot, "maneuver")?;
        let label = battle.labels[id.index()];
        sink.emit(|| Event::Declared {
            actor: label.name(rules),
            action: format!(
                "{}: {} thrust {} {}",
                rules.task(Task::Maneuver).name,
                thrust.abs(),
                if thrust > 0 { "toward" } else { "away from" },
                if battle.is_duel() {
                    "the enemy".to_owned()
                } else {
                    format!("the {}", battle.name(rules, target))
                }
            ),
        });
        let check = self.check(
            &Checker {
                reading: Reading::SUCCESS,
                ..Checker::plain(battle, id, pilot, Task::Maneuver)
            },
            &[],
            dice,
            sink,
        )?;
        if check.success {
            let state = battle.state_mut(id);
            state.applied = thrust;
            state.maneuver_target = Some(target);
            state.thrust_left -= thrust.abs();
            if state.at_jump_point {
                state.at_jump_point = false;
                sink.emit(|| Event::Effect {
                    ship: label.name(rules),
                    effect: "leaves its jump point".into(),
                });
            }
        } else {
            sink.emit(|| Event::Ruling {
                text: "a failed Maneuver check applies no thrust; the thrust is kept for later actions".into(),
            });
        }
        Ok(())
    }

    fn pilot(&self, battle: &Battle, id: ShipId) -> Result<u8, ResolveError> {
        battle
            .ship(id)
            .class(&self.rules)
            .holder(Position::Pilot)
            .ok_or_else(|| ResolveError::Internal("a ship without a pilot".into()))
    }

    /// The Pilot lines up a shot for one mount's next attack this turn, on
    /// an enemy ship.
    pub fn line_up_shot(
        &self,
        battle: &mut Battle,
        id: ShipId,
        mount: u8,
        target: ShipId,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let task = rules.task(Task::LineUpShot);
        self.check_target(battle, id, target)?;
        let class = battle.ship(id).class(rules);
        let Some(m) = class.mounts.get(usize::from(mount)) else {
            return Err(ResolveError::Refused(format!("no mount {mount}")));
        };
        if battle.state(id).thrust_left < task.thrust {
            return Err(ResolveError::Refused(format!(
                "the {} has no thrust left to line up a shot",
                battle.name(rules, id)
            )));
        }
        let pilot = self.pilot(battle, id)?;
        battle.act(id, Position::Pilot, "line up shot")?;
        battle.state_mut(id).thrust_left -= task.thrust;
        let label = battle.labels[id.index()];
        sink.emit(|| Event::Declared {
            actor: label.name(rules),
            action: format!(
                "{} for {}{}",
                task.name,
                m.id,
                naming(battle, rules, " on", target)
            ),
        });
        let check = self.check(
            &Checker {
                reading: Reading::Chained,
                ..Checker::plain(battle, id, pilot, Task::LineUpShot)
            },
            &[],
            dice,
            sink,
        )?;
        self.chain(
            battle,
            id,
            (mount, target),
            ChainSource::LineUpShot,
            check.effect,
            sink,
        );
        Ok(())
    }

    /// Passes a check's Effect on to a mount's attack on `target` this turn.
    fn chain(
        &self,
        battle: &mut Battle,
        id: ShipId,
        (mount, target): (u8, ShipId),
        source: ChainSource,
        effect: i32,
        sink: &mut dyn EventSink,
    ) {
        let rules = &self.rules;
        let dm = rules.chain_dm(effect);
        let mode = rules.chain_mode;
        sink.emit(|| Event::TableRow {
            table: match mode {
                ChainMode::Table => "Task chain DM".into(),
                ChainMode::Effect => "Task chain (the Effect itself)".into(),
            },
            roll: effect,
            row: format!(
                "DM {dm:+} to the next attack of mount {}{}",
                battle.ship(id).class(rules).mounts[usize::from(mount)].id,
                naming(battle, rules, " on", target)
            ),
        });
        let state = battle.state_mut(id);
        // A newer chain from the same source replaces the older one.
        state
            .chains
            .retain(|c| !(c.mount == mount && c.source == source));
        let chain = Chain {
            mount,
            target,
            source,
            effect: effect.clamp(-100, 100) as i8,
            dm: dm.clamp(-100, 100) as i8,
        };
        if state.chains.try_push(chain).is_err() {
            state.chains.remove(0);
            state.chains.push(chain);
        }
    }

    /// A boarding attempt on an enemy ship: opposed Pilot checks (the
    /// target's Pilot opposes) at Adjacent range between the two, for one
    /// thrust; the boarder wins with the higher Effect and the two are
    /// grappled together.
    pub fn boarding(
        &self,
        battle: &mut Battle,
        side: ShipId,
        defender: ShipId,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let task = rules.task(Task::Boarding);
        self.check_target(battle, side, defender)?;
        if battle.band(side, defender) != Band::Adjacent {
            return Err(ResolveError::Refused(
                "boarding needs the ships at Adjacent range".into(),
            ));
        }
        if battle.state(side).thrust_left < task.thrust {
            return Err(ResolveError::Refused("no thrust left to board".into()));
        }
        let pilot = self.pilot(battle, side)?;
        let their_pilot = self.pilot(battle, defender)?;
        battle.act(side, Position::Pilot, "boarding")?;
        battle.state_mut(side).thrust_left -= task.thrust;
        sink.emit(|| Event::Declared {
            actor: battle.name(rules, side),
            action: format!("{} against the {}", task.name, battle.name(rules, defender)),
        });
        let mine = self.check(
            &Checker::plain(battle, side, pilot, Task::Boarding),
            &[],
            dice,
            sink,
        )?;
        let theirs = self.check(
            &Checker::plain(battle, defender, their_pilot, Task::Boarding),
            &[],
            dice,
            sink,
        )?;
        let won = mine.success && mine.effect > theirs.effect;
        if won {
            battle.pair_mut(side, defender).grappled = true;
        }
        sink.emit(|| Event::Effect {
            ship: battle.name(rules, side),
            effect: if won {
                "comes alongside: the ships are grappled (the boarding fight itself is outside these rules)".into()
            } else {
                "fails to come alongside".into()
            },
        });
        Ok(())
    }

    /// The attack step for the ships of the acting sides, in initiative
    /// order.
    pub fn attack_step(
        &self,
        battle: &mut Battle,
        acting: [bool; 2],
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        // The order does not change within the step, so it is walked by
        // index rather than copied.
        for i in 0..battle.order.len() {
            self.attack_of(battle, i, acting, tactics, dice, sink)?;
        }
        Ok(())
    }

    /// The actions of the ship at place `i` in the initiative order in the
    /// attack step: one step of the attack step played ship by ship (a
    /// place beyond the order plays nothing).
    pub fn attack_of(
        &self,
        battle: &mut Battle,
        i: usize,
        acting: [bool; 2],
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let Some(&ship) = battle.order.get(i) else {
            return Ok(());
        };
        let side = battle.side_of(ship);
        battle.state_mut(ship).acted = 0;
        if !acting[side.index()] || !battle.present(ship) {
            return Ok(());
        }
        let mut orders = tactics[side.index()].actions(self, battle, ship);
        self.check_orders(battle, ship, &orders)?;
        // Within a ship, supporting actions come before the attacks they
        // support; the crew list, then the positions, break ties.
        // The keys are unique (one order per position), so an unstable
        // sort, which never allocates, gives the same order as a stable one.
        orders.sort_unstable_by_key(|o| (o.action.priority(), o.person, o.position.bit()));
        for order in orders {
            if !battle.present(ship) {
                break;
            }
            self.act_on(battle, ship, order, tactics, dice, sink)?;
        }
        Ok(())
    }

    /// Checks that each position acts once, held by the crew member given,
    /// and only in an action of that position.
    fn check_orders(
        &self,
        battle: &Battle,
        ship: ShipId,
        orders: &[Order],
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let class = battle.ship(ship).class(rules);
        let mut seen = 0u16;
        for order in orders {
            let Some(member) = class.crew.get(usize::from(order.person)) else {
                return Err(forbidden(false, format!("no crew member {}", order.person)));
            };
            if !member.holds(order.position) {
                return Err(forbidden(
                    false,
                    format!(
                        "{} does not hold the {:?} position",
                        member.name, order.position
                    ),
                ));
            }
            if seen & order.position.bit() != 0 {
                return Err(forbidden(
                    false,
                    format!(
                        "the {:?} position was given two actions in one step",
                        order.position
                    ),
                ));
            }
            seen |= order.position.bit();
            let fires_mount = |mount: u8| {
                rules.mount_position(class, mount) == order.position
                    && class
                        .mounts
                        .get(usize::from(mount))
                        .is_some_and(|m| m.firer == Some(order.person))
            };
            let allowed = match order.action {
                Action::Inspire => order.position == Position::Captain,
                Action::Scan | Action::JamSensors { .. } | Action::TargetingSolution { .. } => {
                    order.position == Position::Sensors
                }
                Action::JamComms { .. } | Action::Communicate => order.position == Position::Comms,
                Action::Repair { .. } => order.position.is_engineer(),
                Action::Jump => order.position == Position::EngineerJDrive,
                Action::Aim { mount, .. } | Action::Fire { mount, .. } => fires_mount(mount),
                Action::Launch { weapon, .. } => (0..class.mounts.len() as u8).any(|m| {
                    fires_mount(m)
                        && class.mounts[usize::from(m)]
                            .slots
                            .iter()
                            .any(|&s| class.slots[usize::from(s)].weapon == weapon)
                }),
            };
            if !allowed {
                return Err(forbidden(
                    false,
                    format!(
                        "{} as {:?} cannot take {:?}",
                        member.name, order.position, order.action
                    ),
                ));
            }
            if let Some(target) = order.action.target()
                && !battle.are_enemies(ship, target)
            {
                return Err(forbidden(
                    false,
                    format!(
                        "{} aims {:?} at ship {}, which is not an enemy",
                        member.name, order.action, target.0
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Carries out one position's action.
    fn act_on(
        &self,
        battle: &mut Battle,
        side: ShipId,
        order: Order,
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let label = battle.labels[side.index()];
        let person = order.person;
        // An action on a ship that has left the fight since the orders were
        // given (wrecked by a shot of the same ship, or gone) is lost.
        if let Some(target) = order.action.target()
            && !battle.present(target)
        {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "{}'s action is lost: {} is out of the fight",
                    battle.ship(side).class(rules).crew[usize::from(person)].name,
                    if battle.is_duel() {
                        "the enemy".to_owned()
                    } else {
                        format!("the {}", battle.name(rules, target))
                    }
                ),
            });
            return Ok(());
        }
        battle
            .act(side, order.position, "attack step")
            .map_err(tactic_error)?;
        // What is declared is built only when the sink keeps events.
        let declare = |battle: &Battle, sink: &mut dyn EventSink, what: &dyn Fn() -> String| {
            sink.emit(|| Event::Declared {
                actor: format!(
                    "{} ({})",
                    battle.ship(side).class(rules).crew[usize::from(person)].name,
                    label.name(rules)
                ),
                action: what(),
            });
        };
        let jammed = |amount: i32| -> Dms {
            let mut dms = Dms::new();
            if amount != 0 {
                dms.push(Dm {
                    amount,
                    why: Why::Jammed,
                });
            }
            dms
        };
        match order.action {
            Action::Inspire => {
                declare(battle, sink, &|| rules.task(Task::Inspire).name.clone());
                let check = self
                    .check(
                        &Checker {
                            reading: Reading::Chained,
                            ..Checker::plain(battle, side, person, Task::Inspire)
                        },
                        &[],
                        dice,
                        sink,
                    )
                    .map_err(tactic_error)?;
                let dm = rules.chain_dm(check.effect);
                battle.state_mut(side).inspire_dm = dm;
                sink.emit(|| Event::TableRow {
                    table: "Task chain DM".into(),
                    roll: check.effect,
                    row: format!("DM {dm:+} to next turn's initiative"),
                });
            }
            Action::Scan | Action::Communicate => {
                let task = if order.action == Action::Scan {
                    Task::Scan
                } else {
                    Task::Communicate
                };
                declare(battle, sink, &|| rules.task(task).name.clone());
                let jam = if task == Task::Scan {
                    battle.state(side).jam_sensors
                } else {
                    battle.state(side).jam_comms
                };
                // Communicate and Scan change nothing beyond their check.
                self.check(
                    &Checker {
                        reading: Reading::NOTHING,
                        ..Checker::plain(battle, side, person, task)
                    },
                    &jammed(jam),
                    dice,
                    sink,
                )
                .map_err(tactic_error)?;
            }
            Action::JamSensors { target } | Action::JamComms { target } => {
                let task = if matches!(order.action, Action::JamSensors { .. }) {
                    Task::JamSensors
                } else {
                    Task::JamComms
                };
                declare(battle, sink, &|| {
                    format!(
                        "{}{}",
                        rules.task(task).name,
                        naming(battle, rules, ":", target)
                    )
                });
                let check = self
                    .check(
                        &Checker {
                            reading: Reading::Clamped {
                                low: 0,
                                high: i32::MAX,
                            },
                            ..Checker::plain(battle, side, person, task)
                        },
                        &[],
                        dice,
                        sink,
                    )
                    .map_err(tactic_error)?;
                if check.effect > 0 {
                    let dm = -check.effect;
                    let state = battle.state_mut(target);
                    let slot = if task == Task::JamSensors {
                        &mut state.jam_sensors_next
                    } else {
                        &mut state.jam_comms_next
                    };
                    // Jamming by several ships does not add up: the
                    // strongest counts.
                    *slot = (*slot).min(dm);
                    let strongest = *slot;
                    sink.emit(|| Event::Effect {
                        ship: battle.name(rules, target),
                        effect: if strongest == dm {
                            format!("jammed: {dm:+} to its checks of that kind next turn")
                        } else {
                            format!(
                                "jammed: {dm:+}, but a stronger jamming ({strongest:+}) already counts next turn"
                            )
                        },
                    });
                }
            }
            Action::TargetingSolution { mount, target } => {
                let class = battle.ship(side).class(rules);
                if class
                    .mounts
                    .get(usize::from(mount))
                    .is_none_or(|m| m.firer.is_none())
                {
                    return Err(forbidden(false, format!("no gunner at mount {mount}")));
                }
                if battle.band(side, target) > battle.ship(side).standing.max_band {
                    return Err(forbidden(
                        false,
                        "the sensors do not reach the enemy".into(),
                    ));
                }
                declare(battle, sink, &|| {
                    format!(
                        "{} for {}{}",
                        rules.task(Task::TargetingSolution).name,
                        class.mounts[usize::from(mount)].id,
                        naming(battle, rules, " on", target)
                    )
                });
                let jam = battle.state(side).jam_sensors;
                let check = self
                    .check(
                        &Checker {
                            reading: Reading::Chained,
                            ..Checker::plain(battle, side, person, Task::TargetingSolution)
                        },
                        &jammed(jam),
                        dice,
                        sink,
                    )
                    .map_err(tactic_error)?;
                self.chain(
                    battle,
                    side,
                    (mount, target),
                    ChainSource::TargetingSolution,
                    check.effect,
                    sink,
                );
            }
            Action::Repair { target } => {
                self.repair(battle, side, person, target, dice, sink)
                    .map_err(tactic_error)?;
            }
            Action::Jump => {
                let state = battle.state(side);
                let ship = battle.ship(side);
                if !state.at_jump_point {
                    return Err(forbidden(false, "the ship is not at a jump point".into()));
                }
                if ship.standing.no_jump || battle.grappled(side) {
                    return Err(forbidden(false, "the ship cannot jump".into()));
                }
                declare(battle, sink, &|| rules.task(Task::Jump).name.clone());
                let check = self
                    .check(
                        &Checker {
                            reading: Reading::SUCCESS,
                            ..Checker::plain(battle, side, person, Task::Jump)
                        },
                        &[],
                        dice,
                        sink,
                    )
                    .map_err(tactic_error)?;
                if check.success {
                    battle.state_mut(side).jumping = true;
                    sink.emit(|| Event::Effect {
                        ship: label.name(rules),
                        effect: "activates its jump drive: it leaves at the end of the turn".into(),
                    });
                }
            }
            Action::Aim { mount, target } => {
                let max = rules.constants.aim_max;
                let class = battle.ship(side).class(rules);
                let has_direct = class.mounts.get(usize::from(mount)).is_some_and(|m| {
                    m.slots.iter().any(|&s| {
                        rules.weapon(class.slots[usize::from(s)].weapon).kind == WeaponKind::Direct
                            || rules.weapon(class.slots[usize::from(s)].weapon).kind
                                == WeaponKind::Missile
                    })
                });
                let m = usize::from(mount);
                let state = battle.state(side);
                // Aims add up only against the same target: aiming at
                // another starts the count again.
                let (aim, retarget) = match state.aim.get(m) {
                    Some(&aim) if aim > 0 && state.aim_target[m] != target => (0, Some(aim)),
                    Some(&aim) => (aim, None),
                    None => (max, None),
                };
                if !has_direct || aim >= max {
                    return Err(forbidden(
                        false,
                        format!("mount {mount} cannot aim again (aimed {aim} of {max})"),
                    ));
                }
                let state = battle.state_mut(side);
                state.aim[m] = aim + 1;
                state.aim_target[m] = target;
                if let Some(lost) = retarget {
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "{} aims at a new target: its {lost} aim(s) at another ship are lost",
                            class.mounts[m].id
                        ),
                    });
                }
                declare(battle, sink, &|| {
                    format!(
                        "aims {} at the {} ({} of {max}: {:+} to its next attack)",
                        class.mounts[m].id,
                        battle.name(rules, target),
                        aim + 1,
                        i32::from(aim + 1) * rules.constants.aim_dm
                    )
                });
            }
            Action::Fire {
                mount,
                weapon,
                target,
            } => {
                let defender = battle.side_of(target);
                let tactics_chooser = TacticsReactions {
                    tactics: tactics[defender.index()],
                };
                let chooser: &dyn ReactionChooser = if battle.surprised == Some(defender) {
                    &NoReactions
                } else {
                    &tactics_chooser
                };
                self.fire(battle, side, target, mount, weapon, chooser, dice, sink)
                    .map_err(tactic_error)?;
            }
            Action::Launch {
                weapon,
                missiles,
                target,
            } => {
                self.launch(
                    battle,
                    side,
                    order.position,
                    (weapon, missiles, target),
                    dice,
                    sink,
                )
                .map_err(tactic_error)?;
            }
        }
        Ok(())
    }

    /// The gunner of a mount (the Pilot, for a fixed mount) launches a salvo:
    /// a Simple check; on success every missile of it leaves together and
    /// flies by the band.
    #[allow(
        clippy::too_many_arguments,
        reason = "the battle, who launches what, dice and sink all take part"
    )]
    pub fn launch(
        &self,
        battle: &mut Battle,
        id: ShipId,
        position: Position,
        (weapon, missiles, target): (crate::model::WeaponId, u8, ShipId),
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        self.check_launch(battle, id, target, weapon, missiles)?;
        let class = battle.ship(id).class(rules);
        let Some(mount) = (0..class.mounts.len() as u8).find(|&m| {
            rules.mount_position(class, m) == position
                && class.mounts[usize::from(m)]
                    .slots
                    .iter()
                    .any(|&s| class.slots[usize::from(s)].weapon == weapon)
        }) else {
            return Err(ResolveError::Refused(
                "the launching position fires no mount with that launcher".into(),
            ));
        };
        let Some(person) = class.mounts[usize::from(mount)].firer else {
            return Err(ResolveError::Refused(
                "no crew member fires the launching mount".into(),
            ));
        };
        let skill = rules
            .mount_kind(class.mounts[usize::from(mount)].kind)
            .skill;
        let label = battle.labels[id.index()];
        sink.emit(|| Event::Declared {
            actor: format!(
                "{} ({})",
                class.crew[usize::from(person)].name,
                label.name(rules)
            ),
            action: format!(
                "launches a salvo of {missiles} {}{} at {} range",
                rules.weapon(weapon).name,
                naming(battle, rules, " at", target),
                rules.band(battle.band(id, target)).name
            ),
        });
        // A rack suffering a Bane takes it "when used": on the launch check.
        let bane = self.launch_bane(battle, id, weapon, missiles);
        let check = self.check(
            &Checker {
                ship: battle.ship(id),
                label,
                person,
                task: Task::Launch,
                mount_skill: Some(skill),
                also_skill: None,
                bane,
                reading: Reading::SUCCESS,
            },
            &[],
            dice,
            sink,
        )?;
        let mut dms = Dms::new();
        self.take_aim_and_chains(battle, id, mount, target, &mut dms, sink);
        if !check.success {
            sink.emit(|| Event::Ruling {
                text: "a failed launch check sends no missile: they stay in the magazine".into(),
            });
            return Ok(());
        }
        let dm: i32 = dms.iter().map(|d| d.amount).sum();
        let salvo = self.make_salvo(battle, id, target, weapon, missiles, dm);
        if salvo.rounds_left > 0 && dm != 0 {
            sink.emit(|| Event::Ruling {
                text:
                    "the salvo attacks in a later round: the gunner's aim and chained DMs are lost"
                        .into(),
            });
        }
        let flight = salvo.rounds_left;
        sink.emit(|| Event::Effect {
            ship: label.name(rules),
            effect: if flight == 0 {
                "its salvo attacks this round".into()
            } else {
                format!("its salvo attacks in {flight} round(s)")
            },
        });
        battle.salvos.push(salvo);
        Ok(())
    }

    /// Whether a repair target is damaged and can be jury-rigged now.
    pub fn can_repair(&self, battle: &Battle, id: ShipId, target: Repairable) -> bool {
        let rules = &self.rules;
        let ship = battle.ship(id);
        match target {
            Repairable::Location(l) => {
                let l = usize::from(l);
                let Some(location) = rules.criticals.locations.get(l) else {
                    return false;
                };
                let severity = ship.severity[l];
                severity > 0
                    && ship.jury_rigged & (1 << l) == 0
                    && l != rules.criticals.hull
                    && location.rows[usize::from(severity) - 1].repairable
                    && location.cumulative[usize::from(severity)]
                        != crate::model::Standing::default()
            }
            Repairable::Weapon(s) => ship
                .weapons
                .get(usize::from(s))
                .is_some_and(|c| matches!(c, Condition::Bane | Condition::Disabled)),
        }
    }

    /// Repair Systems: Mechanic or the location's Engineer specialty, with a
    /// DM for the damage's severity. Success jury-rigs a location (its
    /// standing effects stop until it is hit again) or puts a weapon back in
    /// action.
    pub fn repair(
        &self,
        battle: &mut Battle,
        id: ShipId,
        person: u8,
        target: Repairable,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        if !self.can_repair(battle, id, target) {
            return Err(ResolveError::Refused(format!(
                "nothing to repair at {target:?}"
            )));
        }
        let crit = &rules.criticals;
        let ship = battle.ship(id);
        let (severity, skill) = match target {
            Repairable::Location(l) => (
                ship.severity[usize::from(l)],
                crit.locations[usize::from(l)].repair_skill,
            ),
            Repairable::Weapon(s) => {
                let severity = if ship.weapons[usize::from(s)] == Condition::Bane {
                    1
                } else {
                    2
                };
                (severity, None)
            }
        };
        // What is repaired, named only for events.
        let name = |ship: &crate::ship::Ship| match target {
            Repairable::Location(l) => crit.locations[usize::from(l)].name.clone(),
            Repairable::Weapon(s) => {
                let class = ship.class(rules);
                let weapon = rules.weapon(class.slots[usize::from(s)].weapon);
                format!("{} ({})", weapon.name, ship.weapons[usize::from(s)].id())
            }
        };
        let label = battle.labels[id.index()];
        sink.emit(|| Event::Declared {
            actor: format!(
                "{} ({})",
                ship.class(rules).crew[usize::from(person)].name,
                label.name(rules)
            ),
            action: format!("{}: {}", rules.task(Task::Repair).name, name(ship)),
        });
        let mut dms = Dms::new();
        crate::attack::push_dm(
            &mut dms,
            i32::from(severity) * crit.repair_dm_per_severity,
            Why::Severity(severity),
        );
        let check = self.check(
            &Checker {
                ship,
                label,
                person,
                task: Task::Repair,
                mount_skill: None,
                also_skill: skill,
                bane: false,
                reading: Reading::SUCCESS,
            },
            &dms,
            dice,
            sink,
        )?;
        if check.success {
            sink.emit(|| Event::Effect {
                ship: label.name(rules),
                effect: match target {
                    Repairable::Location(_) => format!(
                        "{} jury-rigged: its effects stop until it is hit again",
                        name(battle.ship(id))
                    ),
                    Repairable::Weapon(_) => {
                        format!("{} repaired: back in action", name(battle.ship(id)))
                    }
                },
            });
            let ship = battle.ship_mut(id);
            match target {
                Repairable::Location(l) => {
                    ship.jury_rigged |= 1 << l;
                    ship.refresh(rules);
                }
                Repairable::Weapon(s) => ship.weapons[usize::from(s)] = Condition::Ready,
            }
        }
        Ok(())
    }

    /// Salvos whose flight ends this round attack their targets, in launch
    /// order. A salvo whose target has left the fight is lost.
    pub fn missile_step(
        &self,
        battle: &mut Battle,
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let mut i = 0;
        while i < battle.salvos.len() {
            if battle.salvos[i].rounds_left > 0 {
                i += 1;
                continue;
            }
            let salvo = battle.salvos.remove(i);
            let target = salvo.target;
            if !battle.present(target) {
                sink.emit(|| Event::Ruling {
                    text: format!(
                        "the {}'s salvo finds no target: the {} is out of the fight",
                        battle.name(rules, salvo.owner),
                        battle.name(rules, target)
                    ),
                });
                continue;
            }
            let defender = battle.side_of(target);
            let tactics_chooser = TacticsReactions {
                tactics: tactics[defender.index()],
            };
            let chooser: &dyn ReactionChooser = if battle.surprised == Some(defender) {
                &NoReactions
            } else {
                &tactics_chooser
            };
            self.strike_salvo(battle, &salvo, chooser, dice, sink)
                .map_err(tactic_error)?;
        }
        Ok(())
    }

    /// The end of a round: jumps, missiles fly on, the round's state clears.
    pub fn end_of_round(&self, battle: &mut Battle, sink: &mut dyn EventSink) {
        let rules = &self.rules;
        for ship in battle.ids() {
            let present = battle.present(ship);
            let state = battle.state_mut(ship);
            if state.jumping && present {
                state.jumped = true;
                sink.emit(|| Event::Effect {
                    ship: battle.name(rules, ship),
                    effect: "jumps away from the Alderson point".into(),
                });
            }
            let state = battle.state_mut(ship);
            state.jumping = false;
            state.used = 0;
            state.chains.clear();
            state.acted = 0;
            state.thrust_left = 0;
            state.applied = 0;
            state.maneuver_target = None;
            state.jam_sensors = std::mem::take(&mut state.jam_sensors_next);
            state.jam_comms = std::mem::take(&mut state.jam_comms_next);
        }
        // A grapple holds only while both ships are there.
        for (a, b) in battle.pair_ids() {
            if !battle.present(a) || !battle.present(b) {
                battle.pair_mut(a, b).grappled = false;
            }
        }
        for salvo in battle.salvos.iter_mut() {
            salvo.rounds_left = salvo.rounds_left.saturating_sub(1);
        }
        battle.surprised = None;
    }

    /// Setting up: the starting band of every pair of enemies, and every
    /// ship's scan for the enemy. A side finds the enemy when any of its
    /// ships' scans succeeds; a side that finds the enemy while the other
    /// does not gets a free round.
    pub fn set_up(
        &self,
        battle: &mut Battle,
        setup: &Setup,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        let c = &rules.constants;
        let band = match setup.start_band {
            Some(band) => {
                sink.emit(|| Event::Ruling {
                    text: format!(
                        "the scenario starts the ships at {} range",
                        rules.band(band).name
                    ),
                });
                band
            }
            None if setup.near_object => {
                // Only the row the face falls in is read: the die is asked
                // for by the table's rows.
                let tops: arrayvec::ArrayVec<u32, 6> = (1..6)
                    .filter(|&f| c.near_object.value(f) != c.near_object.value(f + 1))
                    .map(|f| f as u32)
                    .collect();
                let face = dice.band(Die::D6, &tops)?;
                let band = c.near_object.value(face as i32);
                sink.emit(|| Event::Roll {
                    purpose: "starting band near a planet or other object".into(),
                    dice: "d6".into(),
                    faces: vec![face],
                    total: face as i32,
                });
                sink.emit(|| Event::TableRow {
                    table: "Starting band near an object".into(),
                    roll: face as i32,
                    row: rules.band(band).name.clone(),
                });
                band
            }
            None => {
                sink.emit(|| Event::Ruling {
                    text: format!(
                        "a random encounter starts at {} range",
                        rules.band(c.random_encounter).name
                    ),
                });
                c.random_encounter
            }
        };
        for ship in battle.ids() {
            let steps = setup.echelon_of(ship);
            if steps != 0 {
                sink.emit(|| Event::Ruling {
                    text: format!(
                        "the {} stands {} band(s) {} the enemy than its side's line (echelon {steps:+})",
                        battle.name(rules, ship),
                        steps.abs(),
                        if steps > 0 { "farther from" } else { "closer to" }
                    ),
                });
            }
        }
        for (a, b) in battle.pair_ids() {
            let start = shifted(band, setup.echelon_of(a) + setup.echelon_of(b));
            let pair = battle.pair_mut(a, b);
            pair.band = start;
            pair.closing = 0;
        }
        let mut found = [false; 2];
        for ship in battle.ids() {
            let class = battle.ship(ship).class(rules);
            let operator = class
                .holder(Position::Sensors)
                .ok_or_else(|| ResolveError::Internal("a ship without a sensor operator".into()))?;
            sink.emit(|| Event::Declared {
                actor: battle.name(rules, ship),
                action: "scans for the enemy".into(),
            });
            let check = self.check(
                &Checker {
                    reading: Reading::SUCCESS,
                    ..Checker::plain(battle, ship, operator, Task::Scan)
                },
                &[],
                dice,
                sink,
            )?;
            found[battle.side_of(ship).index()] |= check.success;
        }
        battle.free_round = match found {
            [true, false] => Some(Side::A),
            [false, true] => Some(Side::B),
            _ => None,
        };
        let free = battle.free_round;
        sink.emit(|| Event::Ruling {
            text: match free {
                Some(side) => format!(
                    "side {} failed its scan: {} gets a free round of actions",
                    side.other(),
                    battle.side_name(rules, side)
                ),
                None if battle.is_duel() => {
                    "no free round: both scans succeeded or both failed".into()
                }
                None => "no free round: each side has a ship whose scan succeeded, or neither has"
                    .into(),
            },
        });
        Ok(())
    }

    /// The free round: the side that found the enemy acts alone, and the
    /// surprised side can neither act nor react.
    pub fn free_round(
        &self,
        battle: &mut Battle,
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let Some(side) = battle.free_round.take() else {
            return Ok(());
        };
        let rules = &self.rules;
        sink.emit(|| Event::Ruling {
            text: format!(
                "the free round: {} acts alone; {} can neither act nor react",
                battle.side_name(rules, side),
                battle.side_name(rules, side.other())
            ),
        });
        battle.surprised = Some(side.other());
        // The acting side's ships in roster order, then the others'.
        battle.order.clear();
        for s in [side, side.other()] {
            for ship in battle.of(s) {
                battle.order.push(ship);
            }
        }
        let acting = [side == Side::A, side == Side::B];
        self.maneuver_step(battle, acting, tactics, dice, sink)?;
        self.attack_step(battle, acting, tactics, dice, sink)?;
        self.missile_step(battle, tactics, dice, sink)?;
        self.end_of_round(battle, sink);
        Ok(())
    }

    /// The initiative step: every ship in the fight rolls, in roster order,
    /// and all act in one order, the highest total first. Tied ships of one
    /// side keep their roster order; where a tie holds ships of both sides,
    /// a d6 settles which side's tied ships go first: 1-3 side A, 4-6 side B.
    pub fn initiative_step(
        &self,
        battle: &mut Battle,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        battle.order.clear();
        for ship in battle.ids() {
            self.initiative_of(battle, ship, dice, sink)?;
        }
        self.settle_order(battle, dice, sink)
    }

    /// One ship's initiative, rolled if it is in the fight, its place
    /// taken at the end of the order so far: a step of the initiative step
    /// played ship by ship, in roster order.
    pub fn initiative_of(
        &self,
        battle: &mut Battle,
        ship: ShipId,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        if battle.present(ship) {
            self.roll_initiative(battle, ship, dice, sink)?;
            battle.order.push(ship);
        }
        Ok(())
    }

    /// Puts the ships that rolled initiative in order, the highest total
    /// first, settling ties between the sides: the end of the initiative
    /// step.
    pub fn settle_order(
        &self,
        battle: &mut Battle,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let mut order = std::mem::take(&mut battle.order);
        // A stable sort keeps the roster order, side A's ships first, within
        // each total.
        order.sort_by_key(|&ship| std::cmp::Reverse(battle.state(ship).initiative));
        let mut start = 0;
        while start < order.len() {
            let total = battle.state(order[start]).initiative;
            let end = start
                + order[start..]
                    .iter()
                    .take_while(|&&ship| battle.state(ship).initiative == total)
                    .count();
            let tied = &mut order[start..end];
            let sides = |side| tied.iter().any(|&ship| battle.side_of(ship) == side);
            if sides(Side::A) && sides(Side::B) {
                // Only whether the face is 1-3 is read.
                let tie = dice.check(Die::D6, 3)?;
                let face = tie.face;
                let first = if tie.passed { Side::A } else { Side::B };
                sink.emit(|| Event::Roll {
                    purpose: if battle.is_duel() {
                        format!("initiative tie: 1-3 side A, 4-6 side B; side {first} acts first")
                    } else {
                        format!(
                            "initiative tie at {total}: 1-3 side A, 4-6 side B; side {first}'s tied ships act first"
                        )
                    },
                    dice: "d6".into(),
                    faces: vec![face],
                    total: face as i32,
                });
                if first == Side::B {
                    // Side B's tied ships move ahead of side A's, each side
                    // keeping its roster order.
                    tied.sort_by_key(|&ship| (battle.side_of(ship) == Side::A, ship));
                }
            }
            start = end;
        }
        battle.order = order;
        Ok(())
    }

    /// Whether a side still has a ship that can fight: present and armed.
    pub fn can_fight(&self, battle: &Battle, side: Side) -> bool {
        battle
            .of(side)
            .any(|ship| self.ship_can_fight(battle, ship))
    }

    /// Whether a ship can still fight: present and armed.
    pub fn ship_can_fight(&self, battle: &Battle, ship: ShipId) -> bool {
        battle.present(ship) && battle.ship(ship).is_armed(&self.rules)
    }

    /// Whether any ship of a side has jumped away.
    pub fn jumped(&self, battle: &Battle, side: Side) -> bool {
        battle.of(side).any(|ship| battle.state(ship).jumped)
    }
}

/// A rules engine bound to a setup: the crew-2d6 turn sequence.
pub struct Sequence<'a> {
    /// The rules.
    pub system: &'a Crew2d6,
    /// How the engagement is set up.
    pub setup: &'a Setup,
    /// How many ships the battle holds: the initiative, maneuver and
    /// attack steps are played in steps of one ship each (see
    /// [`TurnSequence::steps`]), so that exact odds merge equal states
    /// between ships.
    pub ships: u32,
    /// The last turn played: after it the battle is undecided, so what a
    /// ship carries into the next turn no longer matters and exact odds
    /// forget it, merging states that differ only in that.
    pub last_turn: u32,
}

impl Sequence<'_> {
    /// Forgets, after a step played for exact odds, what no later step can
    /// read, so that states differing only in it merge. Play phase by
    /// phase ([`TurnSequence::play_phase`]) never calls it.
    ///
    /// Once the order is settled the initiative totals are read no more;
    /// in the last turn, once every ship has rolled its initiative, neither
    /// are the DMs carried to the next turn (Inspire, burned initiative,
    /// jamming) nor the salvos that attack in a later round.
    fn forget(&self, phase: Phase, turn: u32, step: u32, battle: &mut Battle) {
        let settled = phase == Phase::Initiative && step == self.ships;
        let last = turn == self.last_turn
            && matches!(
                phase,
                Phase::Maneuver | Phase::Attack | Phase::Missiles | Phase::EndOfTurn
            );
        if !settled && !last {
            return;
        }
        for state in &mut battle.states {
            if settled {
                state.initiative = 0;
            }
            if last {
                state.inspire_dm = 0;
                state.burn_penalty = 0;
                state.jam_sensors_next = 0;
                state.jam_comms_next = 0;
            }
        }
        if last {
            battle.salvos.retain(|salvo| salvo.rounds_left == 0);
        }
    }
}

impl TurnSequence for Sequence<'_> {
    type State = Battle;
    type Phase = Phase;
    type Tactics = dyn CrewTactics;

    fn phases(&self, turn: u32) -> &[Phase] {
        if turn == 1 { &FIRST_TURN } else { &TURN }
    }

    fn steps(&self, phase: Phase, _turn: u32) -> u32 {
        match phase {
            // Each ship rolls, then the order is settled.
            Phase::Initiative => self.ships + 1,
            // Each ship's maneuver action, then each one's combat maneuver.
            Phase::Maneuver => 2 * self.ships,
            Phase::Attack => self.ships,
            Phase::Setup | Phase::Missiles | Phase::EndOfTurn => 1,
        }
    }

    fn play_step(
        &self,
        phase: Phase,
        turn: u32,
        step: u32,
        battle: &mut Battle,
        tactics: [&(dyn CrewTactics + 'static); 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let system = self.system;
        match phase {
            Phase::Initiative if step < self.ships => {
                if step == 0 {
                    battle.order.clear();
                }
                system.initiative_of(battle, ShipId(step as u8), dice, sink)?;
            }
            Phase::Initiative => system.settle_order(battle, dice, sink)?,
            Phase::Maneuver => {
                system.maneuver_part(battle, step, self.ships, tactics, dice, sink)?;
            }
            Phase::Attack => {
                system.attack_of(battle, step as usize, [true, true], tactics, dice, sink)?;
            }
            _ => self.play_phase(phase, turn, battle, tactics, dice, sink)?,
        }
        self.forget(phase, turn, step, battle);
        Ok(())
    }

    fn play_phase(
        &self,
        phase: Phase,
        _turn: u32,
        battle: &mut Battle,
        tactics: [&dyn CrewTactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let system = self.system;
        match phase {
            // A free round is played within setting up, and only when a
            // side won one, so no turn shows an empty free round.
            Phase::Setup => {
                system.set_up(battle, self.setup, dice, sink)?;
                system.free_round(battle, tactics, dice, sink)
            }
            Phase::Initiative => system.initiative_step(battle, dice, sink),
            Phase::Maneuver => system.maneuver_step(battle, [true, true], tactics, dice, sink),
            Phase::Attack => system.attack_step(battle, [true, true], tactics, dice, sink),
            Phase::Missiles => system.missile_step(battle, tactics, dice, sink),
            Phase::EndOfTurn => {
                system.end_of_round(battle, sink);
                Ok(())
            }
        }
    }

    /// The battle goes on while each side has a ship that can fight. A side
    /// with none left has escaped if any of its ships jumped away, and has
    /// lost otherwise; both escaping, or both with none left and neither
    /// escaping, is a draw.
    fn verdict(&self, battle: &Battle) -> Option<Verdict> {
        let system = self.system;
        let able = Side::BOTH.map(|side| system.can_fight(battle, side));
        if able == [true, true] {
            return None;
        }
        let gone = Side::BOTH.map(|side| !able[side.index()] && system.jumped(battle, side));
        match gone {
            [true, true] => Some(Verdict::Draw),
            [true, false] => Some(Verdict::Escaped(Side::A)),
            [false, true] => Some(Verdict::Escaped(Side::B)),
            [false, false] => Verdict::from_able(able[0], able[1]),
        }
    }
}

/// A battle of two fleets set up once and played many times.
pub type Fleets = Frame<Encounter>;

/// The crew-2d6 system's own part of a battle set up: the rules and the
/// setup every trial begins with.
#[derive(Debug, Clone)]
pub struct Encounter {
    system: Crew2d6,
    setup: Setup,
}

impl Encounter {
    /// The setup every trial begins with.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }
}

impl FrameRules for Encounter {
    type State = Battle;
    type Tactics = dyn CrewTactics;
    type DefaultTactics = DefaultTactics;
    type Sequence<'a> = Sequence<'a>;

    fn sequence(frame: &Fleets) -> Sequence<'_> {
        let encounter = frame.rules();
        Sequence {
            system: &encounter.system,
            setup: &encounter.setup,
            ships: frame.start().ids().count() as u32,
            last_turn: broadside_core::Setup::max_turns(frame),
        }
    }

    fn as_tactics(tactics: &DefaultTactics) -> &(dyn CrewTactics + 'static) {
        tactics
    }

    fn fates(&self, _roster: &Roster, battle: &Battle) -> Vec<ShipFate> {
        let rules = &self.system.rules;
        battle
            .ids()
            .map(|id| {
                let ship = battle.ship(id);
                ShipFate {
                    side: battle.side_of(id),
                    loss: if ship.is_wrecked() {
                        Some(Loss::Destroyed)
                    } else if !ship.is_armed(rules) && !battle.state(id).jumped {
                        Some(Loss::Disarmed)
                    } else {
                        None
                    },
                    escaped: battle.state(id).jumped && !ship.is_wrecked(),
                    hull: (ship.hull, ship.class(rules).hull),
                }
            })
            .collect()
    }
}

/// The `jump-point` option's values.
pub const JUMP_POINTS: &[&str] = &["none", "a", "b", "both"];
/// The `encounter` option's values.
pub const ENCOUNTERS: &[&str] = &["random", "near-object"];
/// The most bands a ship's echelon moves it from its side's line.
pub const MAX_ECHELON: i32 = 6;

impl Crew2d6 {
    /// A battle of the two sides a request names, each with its set-up.
    pub fn fleets(&self, request: &BattleRequest) -> Result<Fleets, ResolveError> {
        request.check()?;
        let rules = &self.rules;
        let known = || rules.ships.iter().map(|s| s.id.as_str());
        let classes = |ids: &[String]| -> Result<Vec<ClassId>, ResolveError> {
            ids.iter()
                .map(|id| {
                    rules
                        .class_id(id)
                        .ok_or_else(|| ResolveError::unknown("ship", id, known()))
                })
                .collect()
        };
        let a = classes(request.side(Side::A))?;
        let b = classes(request.side(Side::B))?;
        let options = &request.options;
        let start_band = match options.text("start-band") {
            None => None,
            Some(id) => Some(Band::from_id(id).ok_or_else(|| {
                ResolveError::unknown("start-band", id, crate::model::BAND_IDS.iter().copied())
            })?),
        };
        let near_object = match options.text("encounter") {
            None | Some("random") => false,
            Some("near-object") => true,
            Some(other) => {
                return Err(ResolveError::unknown(
                    "encounter",
                    other,
                    ENCOUNTERS.iter().copied(),
                ));
            }
        };
        if start_band.is_some() && options.text("encounter").is_some() {
            return Err(ResolveError::bad_option(
                "start-band",
                "give the starting band or the kind of encounter, not both",
            ));
        }
        let mut jump_points = match options.text("jump-point") {
            None | Some("none") => [false, false],
            Some("a") => [true, false],
            Some("b") => [false, true],
            Some("both") => [true, true],
            Some(other) => {
                return Err(ResolveError::unknown(
                    "jump-point",
                    other,
                    JUMP_POINTS.iter().copied(),
                ));
            }
        };
        let mut echelon = Vec::with_capacity(a.len() + b.len());
        let mut tactics = [DefaultTactics::default(); 2];
        for side in Side::BOTH {
            let own = request.side_options(side);
            let size = request.side(side).len();
            jump_points[side.index()] |= own.flag("jump-point");
            let mut steps = echelons(own, side, size)?;
            steps.resize(size, 0);
            echelon.extend(steps);
            tactics[side.index()] = DefaultTactics {
                board: options.flag("board") || own.flag("board"),
                focus: match own.text("focus") {
                    None => Focus::default(),
                    Some(id) => Focus::from_id(id).ok_or_else(|| {
                        ResolveError::unknown("focus", id, FOCUS_IDS.iter().copied())
                    })?,
                },
            };
        }
        let mut start = Battle::new(
            rules,
            [&a, &b],
            start_band.unwrap_or(rules.constants.random_encounter),
        );
        for ship in start.ids() {
            let side = start.side_of(ship);
            start.state_mut(ship).at_jump_point = jump_points[side.index()];
        }
        let encounter = Encounter {
            system: self.clone(),
            setup: Setup {
                start_band,
                near_object,
                jump_points,
                echelon: if echelon.iter().all(|&e| e == 0) {
                    Vec::new()
                } else {
                    echelon
                },
            },
        };
        Ok(Frame::from_parts(
            encounter,
            start,
            request.roster(),
            request.max_turns,
            tactics,
        ))
    }
}

/// A side's `echelon` option: one whole number of bands per ship, in the
/// order named, separated by commas. Errors name the option as the command
/// line spells it for that side (`a-echelon`).
fn echelons(options: &Options, side: Side, size: usize) -> Result<Vec<i8>, ResolveError> {
    let Some(text) = options.text("echelon") else {
        return Ok(Vec::new());
    };
    let option = match side {
        Side::A => "a-echelon",
        Side::B => "b-echelon",
    };
    let mut steps = Vec::new();
    for entry in text.split(',') {
        let entry = entry.trim();
        let value: i32 = entry.parse().map_err(|_| {
            ResolveError::bad_option(
                option,
                format!(
                    "'{}' is not a whole number of bands",
                    entry.chars().take(20).collect::<String>()
                ),
            )
        })?;
        if !(-MAX_ECHELON..=MAX_ECHELON).contains(&value) {
            return Err(ResolveError::bad_option(
                option,
                format!("{value} is outside -{MAX_ECHELON}..={MAX_ECHELON} bands"),
            ));
        }
        steps.push(value as i8);
    }
    if steps.len() > size {
        return Err(ResolveError::bad_option(
            option,
            format!(
                "{} entries for a side of {size} ship(s): give one per ship, in the order named",
                steps.len()
            ),
        ));
    }
    Ok(steps)
}

//! Attack resolution: direct fire and missile salvos, with the defender's reactions.
//!
//! Dice are rolled in the order the rules' `--dice` contract states. Direct
//! fire: the attack's dice first (two, or three under a Bane), then each
//! reaction's (dodge, then sand). A salvo: each reaction's first (point
//! defence, ECM, dodge), then its attack's dice. Then the damage dice and
//! whatever the damage rolls (critical hit locations and their dice).

use arrayvec::ArrayVec;
use broadside_core::{AttackResolution, Dice, Event, EventSink, ResolveError};

use crate::Crew2d6;
use crate::battle::{Battle, ChainSource, Salvo, ShipId};
use crate::check::{
    Ask, CheckResult, Checker, Dm, Dms, Reading, Why, faces_of, roll_check, roll_sum,
};
use crate::damage::{Applied, Hit, Work};
use crate::model::{Position, Task, WeaponId, WeaponKind};
use crate::ship::{Condition, MAX_SLOTS};

/// What is attacking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Weaponry {
    /// Direct fire: every usable identical weapon of one mount, together.
    Direct {
        /// The mount, by index in the class.
        mount: u8,
        /// The weapon.
        weapon: WeaponId,
    },
    /// A salvo of missiles reaching the target.
    Salvo {
        /// The missile.
        weapon: WeaponId,
        /// Missiles in the salvo.
        missiles: u8,
    },
}

/// The reactions a defender makes against one attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Reactions {
    /// The Pilot dodges (one thrust).
    pub dodge: bool,
    /// Point defence attempts, each by another point-defence mount (salvos
    /// only).
    pub point_defence: u8,
    /// The Sensor Operator tries ECM (salvos only). A salvo attacks once, so
    /// this is the one ECM attempt the rules allow on it a round.
    pub ecm: bool,
    /// A gunner fires sand (against weapons sand stops).
    pub sand: bool,
}

impl Reactions {
    /// How many reactions these are.
    pub fn count(&self) -> u8 {
        u8::from(self.dodge) + self.point_defence + u8::from(self.ecm) + u8::from(self.sand)
    }
}

/// A declared attack, as `AttackResolution` takes it: the reactions are
/// declared with it (the command line's `--dodge` and friends).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Attack {
    /// The attacking ship.
    pub attacker: ShipId,
    /// The enemy ship attacked.
    pub target: ShipId,
    /// What attacks.
    pub weaponry: Weaponry,
    /// The defender's reactions.
    pub reactions: Reactions,
}

/// An attack as the defender sees it when choosing reactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Incoming {
    /// The attacking ship.
    pub attacker: ShipId,
    /// The weapon or missile.
    pub weapon: WeaponId,
    /// Missiles in a salvo; `None` for direct fire.
    pub missiles: Option<u8>,
    /// The attack's check, when it is rolled before the defender reacts:
    /// direct fire only. A salvo attacks after point defence and ECM, so
    /// its defender chooses without seeing its dice.
    pub seen: Option<SeenAttack>,
}

/// A direct-fire attack's check, as the defender sees it before reacting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeenAttack {
    /// The attack's dice.
    pub roll: i32,
    /// Its DM.
    pub dm: i32,
    /// Roll plus DM.
    pub total: i32,
    /// The target number.
    pub target: i32,
}

impl Incoming {
    /// The Effect if nothing changes it, when the attack has been rolled.
    pub fn effect(&self) -> Option<i32> {
        self.seen.map(|s| s.total - s.target)
    }

    /// Whether it hits if nothing changes it, when the attack has been
    /// rolled.
    pub fn hits(&self) -> Option<bool> {
        self.seen.map(|s| s.total >= s.target)
    }
}

/// The kinds of reaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReactionKind {
    /// Shooting down missiles.
    PointDefence,
    /// Electronic countermeasures against missiles.
    Ecm,
    /// Dodging.
    Dodge,
    /// Sand against a beam.
    Sand,
}

impl ReactionKind {
    /// Its name in reports.
    pub const fn id(self) -> &'static str {
        match self {
            ReactionKind::PointDefence => "point-defence",
            ReactionKind::Ecm => "ecm",
            ReactionKind::Dodge => "dodge",
            ReactionKind::Sand => "sand",
        }
    }
}

/// What one reaction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReactionOutcome {
    /// Which reaction.
    pub kind: ReactionKind,
    /// Its check.
    pub check: CheckResult,
    /// Whether it was taken beyond the allowance, burning initiative.
    pub burned: bool,
    /// Missiles removed (point defence, ECM), the DM taken off the attack
    /// (dodge) or the damage taken off (sand).
    pub amount: i32,
}

/// Missiles of a salvo, from launch to impact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MissileCount {
    /// Missiles that reached the target's vicinity.
    pub launched: u8,
    /// Destroyed by point defence.
    pub shot_down: u8,
    /// Removed by ECM.
    pub jammed: u8,
    /// Left to attack.
    pub attacking: u8,
}

/// What an attack came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackOutcome {
    /// The attack's dice: the gunner's check, or the salvo's 2D.
    pub check: CheckResult,
    /// The DM after reactions (and, for a salvo, the missiles left).
    pub dm: i32,
    /// The total after reactions.
    pub total: i32,
    /// The Effect after reactions.
    pub effect: i32,
    /// Whether it hit.
    pub hit: bool,
    /// The reactions made, in order.
    pub reactions: ArrayVec<ReactionOutcome, 8>,
    /// A salvo's missiles.
    pub missiles: Option<MissileCount>,
    /// What the hit did.
    pub damage: Option<Applied>,
}

/// Chooses the defender's reactions to an incoming attack.
pub trait ReactionChooser {
    /// The reactions to make.
    fn choose(
        &self,
        system: &Crew2d6,
        battle: &Battle,
        defender: ShipId,
        incoming: &Incoming,
    ) -> Reactions;
    /// Whether an answer the rules forbid is the user's mistake (refused)
    /// rather than a bug in a tactic (an internal error).
    fn is_user(&self) -> bool;
}

/// Reactions declared in advance, as `broadside resolve` takes them.
impl ReactionChooser for Reactions {
    fn choose(&self, _: &Crew2d6, _: &Battle, _: ShipId, _: &Incoming) -> Reactions {
        *self
    }
    fn is_user(&self) -> bool {
        true
    }
}

/// No reactions at all: a surprised ship in the other side's free round.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoReactions;

impl ReactionChooser for NoReactions {
    fn choose(&self, _: &Crew2d6, _: &Battle, _: ShipId, _: &Incoming) -> Reactions {
        Reactions::default()
    }
    fn is_user(&self) -> bool {
        false
    }
}

/// The error for a reaction or action the rules forbid: the user's if they
/// declared it, a bug if a tactic chose it.
pub(crate) fn forbidden(from_user: bool, message: String) -> ResolveError {
    if from_user {
        ResolveError::Refused(message)
    } else {
        ResolveError::Internal(format!("tactics chose what the rules forbid: {message}"))
    }
}

impl Crew2d6 {
    /// Whether a direct-fire attack on `target` is allowed now: what
    /// tactics ask, without building a message.
    pub fn can_fire(
        &self,
        battle: &Battle,
        attacker: ShipId,
        target: ShipId,
        mount: u8,
        weapon: WeaponId,
    ) -> bool {
        let rules = &self.rules;
        if !battle.present(attacker) || !battle.is_target(attacker, target) {
            return false;
        }
        let ship = battle.ship(attacker);
        let class = ship.class(rules);
        let w = rules.weapon(weapon);
        let band = battle.band(attacker, target);
        class
            .mounts
            .get(usize::from(mount))
            .is_some_and(|m| m.firer.is_some())
            && w.kind == WeaponKind::Direct
            && band <= w.range
            && band <= ship.standing.max_band
            && !ship.standing.disabled(rules.task(Task::DirectFire).groups)
            && !self
                .firing_slots(battle, attacker, mount, weapon)
                .is_empty()
    }

    /// Checks that a direct-fire attack is allowed; nothing changes if not.
    pub fn check_fire(
        &self,
        battle: &Battle,
        attacker: ShipId,
        target: ShipId,
        mount: u8,
        weapon: WeaponId,
    ) -> Result<(), ResolveError> {
        if self.can_fire(battle, attacker, target, mount, weapon) {
            return Ok(());
        }
        self.check_target(battle, attacker, target)?;
        let rules = &self.rules;
        let ship = battle.ship(attacker);
        let class = ship.class(rules);
        let who = battle.name(rules, attacker);
        let band = battle.band(attacker, target);
        let Some(m) = class.mounts.get(usize::from(mount)) else {
            return Err(ResolveError::Refused(format!(
                "the {who} has no mount {mount}"
            )));
        };
        let w = rules.weapon(weapon);
        if !m
            .slots
            .iter()
            .any(|&s| class.slots[usize::from(s)].weapon == weapon)
        {
            return Err(ResolveError::Refused(format!(
                "the {who}'s {} carries no {}",
                m.id, w.id
            )));
        }
        match w.kind {
            WeaponKind::Direct => {}
            WeaponKind::Missile => {
                return Err(ResolveError::Refused(format!(
                    "{} are launched in salvos, not fired",
                    w.name
                )));
            }
            WeaponKind::Sandcaster => {
                return Err(ResolveError::Refused(format!(
                    "a {} is used only as a reaction",
                    w.name
                )));
            }
        }
        if m.firer.is_none() {
            return Err(ResolveError::Refused(format!(
                "no crew member of the {who} fires its {}",
                m.id
            )));
        }
        if self
            .firing_slots(battle, attacker, mount, weapon)
            .is_empty()
        {
            return Err(ResolveError::Refused(format!(
                "the {who}'s {} has no {} left that can fire this round",
                m.id, w.id
            )));
        }
        if band > w.range {
            return Err(ResolveError::Refused(format!(
                "the {} reaches {} range and the target is at {}",
                w.name,
                rules.band(w.range).name,
                rules.band(band).name
            )));
        }
        if band > ship.standing.max_band {
            return Err(ResolveError::Refused(format!(
                "the {who}'s damaged sensors reach only {} range",
                rules.band(ship.standing.max_band).name
            )));
        }
        Err(ResolveError::Refused(format!(
            "the {who}'s damage makes gunnery impossible"
        )))
    }

    /// The slots of a mount that fire together: that weapon, usable, not yet
    /// used this round.
    pub fn firing_slots(
        &self,
        battle: &Battle,
        ship_id: ShipId,
        mount: u8,
        weapon: WeaponId,
    ) -> ArrayVec<u8, 3> {
        let ship = battle.ship(ship_id);
        let class = ship.class(&self.rules);
        let used = battle.state(ship_id).used;
        let mut out = ArrayVec::new();
        if let Some(m) = class.mounts.get(usize::from(mount)) {
            for &s in &m.slots {
                if class.slots[usize::from(s)].weapon == weapon
                    && ship.weapons[usize::from(s)].usable()
                    && used & (1 << s) == 0
                    && !out.is_full()
                {
                    out.push(s);
                }
            }
        }
        out
    }

    /// Fires every usable identical weapon of one mount at an enemy ship,
    /// as one attack.
    #[allow(
        clippy::too_many_arguments,
        reason = "the battle, who fires what at whom, who reacts, dice and sink all take part"
    )]
    pub fn fire(
        &self,
        battle: &mut Battle,
        attacker: ShipId,
        defender: ShipId,
        mount: u8,
        weapon: WeaponId,
        chooser: &dyn ReactionChooser,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<AttackOutcome, ResolveError> {
        self.check_fire(battle, attacker, defender, mount, weapon)?;
        self.precheck_reactions(battle, attacker, defender, weapon, None, chooser)?;
        let rules = &self.rules;
        let band = battle.band(attacker, defender);
        let class = battle.ship(attacker).class(rules);
        let m = &class.mounts[usize::from(mount)];
        let kind = rules.mount_kind(m.kind);
        let w = rules.weapon(weapon);
        let firer = m.firer.unwrap_or(0);
        let slots = self.firing_slots(battle, attacker, mount, weapon);
        let count = slots.len() as u8;
        let bane = slots
            .iter()
            .any(|&s| battle.ship(attacker).weapons[usize::from(s)] == Condition::Bane);
        for &s in &slots {
            battle.state_mut(attacker).used |= 1 << s;
        }
        sink.emit(|| Event::Declared {
            actor: format!(
                "{} ({})",
                class.crew[usize::from(firer)].name,
                battle.name(rules, attacker)
            ),
            action: format!(
                "fires {count} {} from {} at the {} at {} range",
                w.name,
                m.id,
                battle.name(rules, defender),
                rules.band(band).name
            ),
        });

        let mut dms = Dms::new();
        let band_dm = rules.band(band).attack_dm;
        push_dm(&mut dms, band_dm, Why::RangeBand(band));
        push_dm(&mut dms, w.attack_dm, Why::WeaponDm(weapon));
        push_dm(
            &mut dms,
            rules.identical.attack(count),
            Why::Identical(count),
        );
        self.take_aim_and_chains(battle, attacker, mount, defender, &mut dms, sink);

        let check = self.check(
            &Checker {
                ship: battle.ship(attacker),
                label: battle.labels[attacker.index()],
                person: firer,
                task: Task::DirectFire,
                mount_skill: Some(kind.skill),
                also_skill: None,
                bane,
                // A miss is a miss whatever its Effect; a hit's Effect adds
                // to the damage.
                reading: Reading::reported_if(battle.reported, -1, i32::MAX),
            },
            &dms,
            dice,
            sink,
        )?;
        let incoming = Incoming {
            attacker,
            weapon,
            missiles: None,
            seen: Some(SeenAttack {
                roll: check.roll,
                dm: check.dm,
                total: check.total,
                target: check.target,
            }),
        };
        let plan = chooser.choose(self, battle, defender, &incoming);
        self.check_reactions(battle, defender, &incoming, &plan, chooser.is_user())?;

        let mut reactions = ArrayVec::new();
        let mut total = check.total;
        if plan.dodge {
            let r = self.dodge(battle, defender, dice, sink)?;
            if r.amount > 0 {
                total -= r.amount;
                sink.emit(|| Event::Modifier {
                    to: rules.task(Task::DirectFire).name.clone(),
                    amount: -r.amount,
                    reason: Why::Dodged(r.check.effect).text(rules),
                });
            }
            reactions.push(r);
        }
        let mut sand = 0;
        if plan.sand {
            let r = self.sand(battle, defender, dice, sink)?;
            sand = r.amount;
            reactions.push(r);
        }
        let effect = total - check.target;
        let hit = effect >= 0;
        if !reactions.is_empty() {
            sink.emit(|| Event::Check {
                what: "attack after reactions".into(),
                roll: total,
                target: check.target,
                success: hit,
                rule: Some(format!("Effect {effect:+}")),
            });
        }
        let damage = if hit {
            let hit = Hit {
                weapon,
                effect,
                identical: count,
                multiplier: kind.multiplier,
                sand,
                missiles: None,
            };
            Some(self.allocate_in(battle, defender, &hit, dice, sink)?)
        } else {
            None
        };
        Ok(AttackOutcome {
            check,
            dm: total - check.roll,
            total,
            effect,
            hit,
            reactions,
            missiles: None,
            damage,
        })
    }

    /// Moves a mount's aim and chained DMs into an attack's DMs: they are
    /// spent on this attack, hit or miss. Each was made against one enemy
    /// ship and helps only an attack on that ship; an attack on another
    /// spends it all the same.
    pub(crate) fn take_aim_and_chains(
        &self,
        battle: &mut Battle,
        ship: ShipId,
        mount: u8,
        target: ShipId,
        dms: &mut Dms,
        sink: &mut dyn EventSink,
    ) {
        let rules = &self.rules;
        let mut lost = 0;
        let state = battle.state_mut(ship);
        let aim = std::mem::take(&mut state.aim[usize::from(mount)]);
        if aim > 0 {
            if state.aim_target[usize::from(mount)] == target {
                push_dm(dms, i32::from(aim) * rules.constants.aim_dm, Why::Aim(aim));
            } else {
                lost += 1;
            }
        }
        let mut i = 0;
        while i < state.chains.len() {
            let chain = state.chains[i];
            if chain.mount == mount {
                let why = match chain.source {
                    ChainSource::LineUpShot => Why::LineUpShot(i32::from(chain.effect)),
                    ChainSource::TargetingSolution => {
                        Why::TargetingSolution(i32::from(chain.effect))
                    }
                };
                if chain.target == target {
                    // A chain whose DM is 0 is spent without showing.
                    push_dm(dms, i32::from(chain.dm), why);
                } else {
                    lost += 1;
                }
                state.chains.remove(i);
            } else {
                i += 1;
            }
        }
        if lost > 0 {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "{lost} aim or chained DM(s) of the {}'s mount {} were made against another ship: spent without effect on an attack on the {}",
                    battle.name(rules, ship),
                    battle.ship(ship).class(rules).mounts[usize::from(mount)].id,
                    battle.name(rules, target)
                ),
            });
        }
    }

    /// Checks that `attacker` is in the fight and `target` is an enemy
    /// still in it.
    pub fn check_target(
        &self,
        battle: &Battle,
        attacker: ShipId,
        target: ShipId,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        if attacker.index() >= battle.len() || target.index() >= battle.len() {
            return Err(ResolveError::Refused(format!(
                "no ship {} or {} in a battle of {}",
                attacker.0,
                target.0,
                battle.len()
            )));
        }
        if !battle.present(attacker) {
            return Err(ResolveError::Refused(format!(
                "the {} is out of the fight",
                battle.name(rules, attacker)
            )));
        }
        if !battle.are_enemies(attacker, target) {
            return Err(ResolveError::Refused(format!(
                "the {} does not attack the {}: they are on the same side",
                battle.name(rules, attacker),
                battle.name(rules, target)
            )));
        }
        if !battle.present(target) {
            return Err(ResolveError::Refused(format!(
                "the {} is out of the fight",
                battle.name(rules, target)
            )));
        }
        Ok(())
    }

    /// Reactions declared by the user do not depend on the dice, so they
    /// are checked before anything is rolled or spent: a refused attack
    /// changes nothing. A tactic's reactions are checked when it chooses.
    fn precheck_reactions(
        &self,
        battle: &Battle,
        attacker: ShipId,
        defender: ShipId,
        weapon: WeaponId,
        missiles: Option<u8>,
        chooser: &dyn ReactionChooser,
    ) -> Result<(), ResolveError> {
        if !chooser.is_user() {
            return Ok(());
        }
        let probe = Incoming {
            attacker,
            weapon,
            missiles,
            seen: None,
        };
        let plan = chooser.choose(self, battle, defender, &probe);
        self.check_reactions(battle, defender, &probe, &plan, true)
    }

    /// Checks that the reactions chosen are ones the defender can make.
    fn check_reactions(
        &self,
        battle: &Battle,
        defender: ShipId,
        incoming: &Incoming,
        plan: &Reactions,
        from_user: bool,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        // The name is built only for a refusal: the hot path allocates nothing.
        let who = || battle.name(rules, defender);
        let w = rules.weapon(incoming.weapon);
        let ship = battle.ship(defender);
        if plan.count() > 0 && battle.surprised == Some(battle.side_of(defender)) {
            return Err(forbidden(
                from_user,
                format!("the {} is surprised and cannot react", who()),
            ));
        }
        if plan.dodge {
            let dodge = rules.task(Task::Dodge);
            if battle.state(defender).thrust_left < dodge.thrust {
                return Err(forbidden(
                    from_user,
                    format!("the {} has no thrust left to dodge", who()),
                ));
            }
            if ship.standing.disabled(dodge.groups) {
                return Err(forbidden(from_user, format!("the {} cannot dodge", who())));
            }
        }
        if incoming.missiles.is_none() && (plan.point_defence > 0 || plan.ecm) {
            return Err(forbidden(
                from_user,
                "point defence and ECM work only against missile salvos".into(),
            ));
        }
        if plan.point_defence > 0 {
            let available = self.point_defence_mounts(battle, defender).len();
            if usize::from(plan.point_defence) > available {
                return Err(forbidden(
                    from_user,
                    format!(
                        "the {} has {available} point-defence mount(s) with a gunner free, not {}",
                        who(),
                        plan.point_defence
                    ),
                ));
            }
        }
        if plan.ecm && ship.standing.disabled(rules.task(Task::Ecm).groups) {
            return Err(forbidden(
                from_user,
                format!("the {} cannot use ECM", who()),
            ));
        }
        if plan.sand {
            if incoming.missiles.is_some() || !w.sand_stops {
                return Err(forbidden(
                    from_user,
                    format!("sand does not stop a {}", w.name),
                ));
            }
            if self.sand_mount(battle, defender).is_none() {
                return Err(forbidden(
                    from_user,
                    format!("the {} has no sandcaster with sand and a gunner", who()),
                ));
            }
        }
        Ok(())
    }

    /// Takes one reaction; beyond the allowance it burns initiative.
    fn take_reaction(&self, battle: &mut Battle, ship: ShipId, sink: &mut dyn EventSink) -> bool {
        let rules = &self.rules;
        let state = battle.state_mut(ship);
        state.reactions_used = state.reactions_used.saturating_add(1);
        let burned = state.reactions_used > state.reactions;
        if burned {
            let penalty = rules.constants.burn;
            // The reactions beyond the allowance are counted by the battle,
            // not bounded by the data, so the sum saturates.
            state.burn_penalty = state.burn_penalty.saturating_add(penalty);
            let total = state.burn_penalty;
            sink.emit(|| Event::Effect {
                ship: battle.name(rules, ship),
                effect: format!(
                    "burns initiative for a reaction beyond its allowance: {penalty:+} to next turn's initiative ({total:+} in all)"
                ),
            });
        }
        burned
    }

    /// The Pilot dodges: one thrust, a Difficult check, and the attack takes
    /// the positive Effect as a negative DM.
    fn dodge(
        &self,
        battle: &mut Battle,
        defender: ShipId,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<ReactionOutcome, ResolveError> {
        let rules = &self.rules;
        let task = rules.task(Task::Dodge);
        let pilot = battle
            .ship(defender)
            .class(rules)
            .holder(Position::Pilot)
            .ok_or_else(|| ResolveError::Internal("a ship without a pilot".into()))?;
        sink.emit(|| Event::Declared {
            actor: battle.name(rules, defender),
            action: format!("reacts: {} ({} thrust)", task.name, task.thrust),
        });
        battle.state_mut(defender).thrust_left -= task.thrust;
        let burned = self.take_reaction(battle, defender, sink);
        let check = self.check(
            &Checker {
                // The attack loses the positive Effect; any other reads as 0.
                reading: Reading::reported_if(battle.reported, 0, i32::MAX),
                ..Checker::plain(battle, defender, pilot, Task::Dodge)
            },
            &[],
            dice,
            sink,
        )?;
        Ok(ReactionOutcome {
            kind: ReactionKind::Dodge,
            check,
            burned,
            amount: check.effect.max(0),
        })
    }

    /// The mount a sand reaction is fired from: a usable sandcaster with sand
    /// left and someone to fire it.
    pub fn sand_mount(&self, battle: &Battle, defender: ShipId) -> Option<(u8, u8)> {
        let rules = &self.rules;
        let ship = battle.ship(defender);
        let class = ship.class(rules);
        class.slots.iter().enumerate().find_map(|(s, slot)| {
            let ok = rules.weapon(slot.weapon).kind == WeaponKind::Sandcaster
                && ship.weapons[s].usable()
                && ship.magazine(rules, slot.weapon).unwrap_or(0) > 0
                && class.mounts[usize::from(slot.mount)].firer.is_some();
            ok.then_some((slot.mount, s as u8))
        })
    }

    /// A gunner fires sand: a canister, a check, and on success the hit
    /// loses the sand's dice of damage.
    fn sand(
        &self,
        battle: &mut Battle,
        defender: ShipId,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<ReactionOutcome, ResolveError> {
        let rules = &self.rules;
        let (mount, slot) = self
            .sand_mount(battle, defender)
            .ok_or_else(|| ResolveError::Internal("sand without a sandcaster".into()))?;
        let class = battle.ship(defender).class(rules);
        let m = &class.mounts[usize::from(mount)];
        let gunner = m.firer.unwrap_or(0);
        let skill = rules.mount_kind(m.kind).skill;
        let weapon = class.slots[usize::from(slot)].weapon;
        sink.emit(|| Event::Declared {
            actor: battle.name(rules, defender),
            action: format!("reacts: {} from {}", rules.task(Task::Sand).name, m.id),
        });
        battle.ship_mut(defender).spend(rules, weapon, 1);
        let burned = self.take_reaction(battle, defender, sink);
        let check = self.check(
            &Checker {
                ship: battle.ship(defender),
                label: battle.labels[defender.index()],
                person: gunner,
                task: Task::Sand,
                mount_skill: Some(skill),
                also_skill: None,
                bane: battle.ship(defender).weapons[usize::from(slot)] == Condition::Bane,
                // Success takes the sand's dice off; the Effect counts too
                // only under the house rule that adds it.
                reading: if rules.constants.sand_add_effect {
                    Reading::reported_if(battle.reported, -1, i32::MAX)
                } else {
                    Reading::reported_if(battle.reported, -1, 0)
                },
            },
            &[],
            dice,
            sink,
        )?;
        let mut amount = 0;
        if check.success {
            let expr = rules.constants.sand_reduction;
            let (pool, rolled) = roll_sum(&expr, dice, sink)?;
            sink.emit(|| Event::Roll {
                purpose: "sand: damage taken off".into(),
                dice: expr.to_string(),
                faces: faces_of(pool.as_ref()),
                total: rolled,
            });
            amount = rolled;
            if rules.constants.sand_add_effect {
                amount += check.effect;
                sink.emit(|| Event::Modifier {
                    to: "sand".into(),
                    amount: check.effect,
                    reason: "the sand check's Effect".into(),
                });
            }
        }
        Ok(ReactionOutcome {
            kind: ReactionKind::Sand,
            check,
            burned,
            amount,
        })
    }

    /// Mounts that can make point defence now, best first: turrets,
    /// barbettes and bays (not fixed mounts, which have no Gunner) with a
    /// gunner, whose point-defence weapons have not fired or defended this
    /// round. Each with those weapons' slots.
    pub fn point_defence_mounts(
        &self,
        battle: &Battle,
        defender: ShipId,
    ) -> ArrayVec<(u8, ArrayVec<u8, 3>), 8> {
        let rules = &self.rules;
        let ship = battle.ship(defender);
        let class = ship.class(rules);
        let used = battle.state(defender).used;
        let mut out: ArrayVec<(u8, ArrayVec<u8, 3>), 8> = ArrayVec::new();
        for (m, mount) in class.mounts.iter().enumerate() {
            let kind = rules.mount_kind(mount.kind);
            if kind.pilot || mount.firer.is_none() {
                continue;
            }
            let mut lasers: ArrayVec<u8, 3> = ArrayVec::new();
            for &s in &mount.slots {
                let weapon = rules.weapon(class.slots[usize::from(s)].weapon);
                if weapon.point_defence
                    && ship.weapons[usize::from(s)].usable()
                    && used & (1 << s) == 0
                    && !lasers.is_full()
                {
                    lasers.push(s);
                }
            }
            if !lasers.is_empty() && !out.is_full() {
                out.push((m as u8, lasers));
            }
        }
        // Most lasers first (the larger DM); the data order breaks ties. The
        // mount index in the key keeps the order stable without a stable
        // sort, which could allocate.
        out.sort_unstable_by_key(|(m, lasers)| (std::cmp::Reverse(lasers.len()), *m));
        out
    }

    /// One point defence attempt by the best free point-defence mount
    /// against a salvo with `left` missiles.
    fn point_defence(
        &self,
        battle: &mut Battle,
        defender: ShipId,
        left: u8,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<ReactionOutcome, ResolveError> {
        let rules = &self.rules;
        let Some((mount, lasers)) = self.point_defence_mounts(battle, defender).first().cloned()
        else {
            return Err(ResolveError::Internal(
                "point defence without a turret".into(),
            ));
        };
        let class = battle.ship(defender).class(rules);
        let m = &class.mounts[usize::from(mount)];
        let gunner = m.firer.unwrap_or(0);
        let skill = rules.mount_kind(m.kind).skill;
        let count = lasers.len() as u8;
        let bane = lasers
            .iter()
            .any(|&s| battle.ship(defender).weapons[usize::from(s)] == Condition::Bane);
        sink.emit(|| Event::Declared {
            actor: battle.name(rules, defender),
            action: format!(
                "reacts: {} with {count} laser(s) of {}",
                rules.task(Task::PointDefence).name,
                m.id
            ),
        });
        for &s in &lasers {
            battle.state_mut(defender).used |= 1 << s;
        }
        let burned = self.take_reaction(battle, defender, sink);
        let mut dms = Dms::new();
        push_dm(
            &mut dms,
            rules.identical.point_defence(count),
            Why::PointDefenceMount(count),
        );
        let check = self.check(
            &Checker {
                ship: battle.ship(defender),
                label: battle.labels[defender.index()],
                person: gunner,
                task: Task::PointDefence,
                mount_skill: Some(skill),
                also_skill: None,
                bane,
                // The Effect destroys missiles, never more than are left.
                reading: Reading::reported_if(battle.reported, 0, i32::from(left)),
            },
            &dms,
            dice,
            sink,
        )?;
        Ok(ReactionOutcome {
            kind: ReactionKind::PointDefence,
            check,
            burned,
            amount: check.effect.max(0),
        })
    }

    /// The Sensor Operator's ECM against a salvo with `left` missiles.
    fn ecm(
        &self,
        battle: &mut Battle,
        defender: ShipId,
        left: u8,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<ReactionOutcome, ResolveError> {
        let rules = &self.rules;
        let operator = battle
            .ship(defender)
            .class(rules)
            .holder(Position::Sensors)
            .ok_or_else(|| ResolveError::Internal("a ship without a sensor operator".into()))?;
        sink.emit(|| Event::Declared {
            actor: battle.name(rules, defender),
            action: format!("reacts: {}", rules.task(Task::Ecm).name),
        });
        let burned = self.take_reaction(battle, defender, sink);
        let check = self.check(
            &Checker {
                // The Effect removes missiles, never more than are left.
                reading: Reading::reported_if(battle.reported, 0, i32::from(left)),
                ..Checker::plain(battle, defender, operator, Task::Ecm)
            },
            &[],
            dice,
            sink,
        )?;
        Ok(ReactionOutcome {
            kind: ReactionKind::Ecm,
            check,
            burned,
            amount: check.effect.max(0),
        })
    }

    /// A salvo reaches its target: the defender's reactions, then, if any
    /// missile is left, 2D + 1 per missile beyond the first + the TL
    /// difference DM against the missile attack's target number.
    pub fn strike_salvo(
        &self,
        battle: &mut Battle,
        salvo: &Salvo,
        chooser: &dyn ReactionChooser,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<AttackOutcome, ResolveError> {
        let rules = &self.rules;
        let c = &rules.constants;
        let attacker = salvo.owner;
        let defender = salvo.target;
        let w = rules.weapon(salvo.weapon);
        sink.emit(|| Event::Declared {
            actor: format!(
                "a salvo of {} {} from the {}",
                salvo.missiles,
                w.name,
                battle.name(rules, attacker)
            ),
            action: format!("closes to attack the {}", battle.name(rules, defender)),
        });
        // The defender reacts to the salvo before its attack is rolled: the
        // missiles that point defence and ECM leave are the ones that attack.
        let incoming = Incoming {
            attacker,
            weapon: salvo.weapon,
            missiles: Some(salvo.missiles),
            seen: None,
        };
        let plan = chooser.choose(self, battle, defender, &incoming);
        self.check_reactions(battle, defender, &incoming, &plan, chooser.is_user())?;

        let mut reactions = ArrayVec::new();
        let mut shot_down = 0u8;
        for _ in 0..plan.point_defence {
            let left = salvo.missiles.saturating_sub(shot_down);
            if left == 0 {
                sink.emit(|| Event::Ruling {
                    text: "every missile is already destroyed: no further point defence".into(),
                });
                break;
            }
            let mut r = self.point_defence(battle, defender, left, dice, sink)?;
            let destroyed = u8::try_from(r.amount).unwrap_or(u8::MAX).min(left);
            r.amount = i32::from(destroyed);
            shot_down += destroyed;
            sink.emit(|| Event::Effect {
                ship: battle.name(rules, defender),
                effect: format!("point defence destroys {destroyed} missile(s)"),
            });
            reactions.push(r);
        }
        let mut jammed = 0u8;
        if plan.ecm {
            let left = salvo.missiles.saturating_sub(shot_down);
            if left == 0 {
                sink.emit(|| Event::Ruling {
                    text: "every missile is already destroyed: no ECM".into(),
                });
            } else {
                let mut r = self.ecm(battle, defender, left, dice, sink)?;
                jammed = u8::try_from(r.amount).unwrap_or(u8::MAX).min(left);
                r.amount = i32::from(jammed);
                sink.emit(|| Event::Effect {
                    ship: battle.name(rules, defender),
                    effect: format!("ECM removes {jammed} missile(s)"),
                });
                reactions.push(r);
            }
        }
        let attacking = salvo
            .missiles
            .saturating_sub(shot_down)
            .saturating_sub(jammed);
        let missiles = Some(MissileCount {
            launched: salvo.missiles,
            shot_down,
            jammed,
            attacking,
        });
        let target = c.missile_attack;
        if attacking == 0 {
            if plan.dodge {
                sink.emit(|| Event::Ruling {
                    text: "no missile is left to attack, so the pilot does not dodge".into(),
                });
            }
            sink.emit(|| Event::Effect {
                ship: battle.name(rules, defender),
                effect: "every missile of the salvo is stopped: no attack roll".into(),
            });
            let none = CheckResult {
                faces: [0; 3],
                dice: 0,
                roll: 0,
                dm: 0,
                total: 0,
                target,
                effect: 0,
                success: false,
            };
            return Ok(AttackOutcome {
                check: none,
                dm: 0,
                total: 0,
                effect: 0,
                hit: false,
                reactions,
                missiles,
                damage: None,
            });
        }
        let mut dodged = 0;
        if plan.dodge {
            let r = self.dodge(battle, defender, dice, sink)?;
            dodged = r.amount;
            reactions.push(r);
        }
        let what = "salvo attack";
        let target_tl = battle.ship(defender).class(rules).tl;
        let tl_dm = if salvo.smart {
            (salvo.tl - target_tl).clamp(c.tl_dm_min, c.tl_dm_max)
        } else {
            0
        };
        let n = (i32::from(attacking) - 1).max(0) * c.per_extra_missile;
        let dm = tl_dm + i32::from(salvo.dm) + n - dodged;
        if n != 0 {
            sink.emit(|| Event::Modifier {
                to: what.into(),
                amount: n,
                reason: Why::ExtraMissiles(attacking).text(rules),
            });
        }
        if salvo.smart {
            sink.emit(|| Event::Modifier {
                to: what.into(),
                amount: tl_dm,
                reason: format!(
                    "{} (kept within {:+} and {:+})",
                    Why::TlDifference {
                        missile: salvo.tl,
                        target: target_tl
                    }
                    .text(rules),
                    c.tl_dm_min,
                    c.tl_dm_max
                ),
            });
        } else if w.smart {
            sink.emit(|| Event::Ruling {
                text: "house rule: the salvo was launched at a band where smart missiles lose the TL difference DM"
                    .into(),
            });
        }
        if salvo.dm != 0 {
            sink.emit(|| Event::Modifier {
                to: what.into(),
                amount: i32::from(salvo.dm),
                reason: "aim and chained DMs of the launching gunner".into(),
            });
        }
        if dodged > 0 {
            sink.emit(|| Event::Modifier {
                to: what.into(),
                amount: -dodged,
                reason: Why::Dodged(dodged).text(rules),
            });
        }
        // A miss is a miss whatever its Effect; a hit's Effect multiplies
        // the damage, never beyond the missiles under the house rule that
        // caps it.
        let high = if c.cap_at_missiles {
            i32::from(attacking)
        } else {
            i32::MAX
        };
        let ask = if battle.reported {
            Ask::Banded { low: -1, high }
        } else if sink.enabled() || !dice.enumerates() {
            Ask::logged(sink)
        } else {
            Ask::bands(dm, target, |e| e.clamp(-1, high))
        };
        let check = roll_check(dice, salvo.bane, dm, target, ask)?;
        sink.emit(|| Event::Roll {
            purpose: if salvo.bane {
                "salvo attack, with a Bane on the launching rack (the lowest two count)".into()
            } else {
                "salvo attack".into()
            },
            dice: format!("{}d6", check.dice),
            faces: check.faces(),
            total: check.roll,
        });
        let (total, effect, hit) = (check.total, check.effect, check.success);
        sink.emit(|| Event::Check {
            what: what.into(),
            roll: total,
            target,
            success: hit,
            rule: Some(format!(
                "{}, Effect {effect:+}",
                rules.difficulty_text(target)
            )),
        });
        let damage = if hit {
            let hit = Hit {
                weapon: salvo.weapon,
                effect,
                identical: 1,
                multiplier: 1,
                sand: 0,
                missiles: Some(attacking),
            };
            Some(self.allocate_in(battle, defender, &hit, dice, sink)?)
        } else {
            None
        };
        Ok(AttackOutcome {
            check,
            dm,
            total,
            effect,
            hit,
            reactions,
            missiles,
            damage,
        })
    }

    /// Allocates a hit to a ship of the battle; when the battle defers
    /// critical hits, they are left pending in it.
    fn allocate_in(
        &self,
        battle: &mut Battle,
        defender: ShipId,
        hit: &Hit,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Applied, ResolveError> {
        let label = battle.labels[defender.index()];
        if !battle.defer_criticals {
            return self.allocate_labelled(hit, battle.ship_mut(defender), label, dice, sink);
        }
        let mut work = Work::new();
        let applied =
            self.allocate_deferred(hit, battle.ship_mut(defender), label, &mut work, dice, sink)?;
        battle.pending.extend(work);
        Ok(applied)
    }

    /// Launchers of a missile the ship can fire this round: usable slots of
    /// that weapon not used this round.
    pub fn launchers(&self, battle: &Battle, owner: ShipId, weapon: WeaponId) -> u8 {
        self.free_launchers(battle, owner, weapon).count() as u8
    }

    /// The slots, in order, of launchers of `weapon` that are usable and not
    /// used this round: both the count offered and the slots a salvo leaves
    /// from read this one list, so they cannot disagree.
    fn free_launchers<'a>(
        &'a self,
        battle: &'a Battle,
        owner: ShipId,
        weapon: WeaponId,
    ) -> impl Iterator<Item = u8> + 'a {
        let ship = battle.ship(owner);
        let used = battle.state(owner).used;
        ship.class(&self.rules)
            .slots
            .iter()
            .enumerate()
            .filter(move |&(s, slot)| {
                slot.weapon == weapon && ship.weapons[s].usable() && used & (1 << s) == 0
            })
            .map(|(s, _)| s as u8)
    }

    /// Checks that a salvo of `missiles` may be launched at `target`;
    /// nothing changes if not.
    pub fn check_launch(
        &self,
        battle: &Battle,
        owner: ShipId,
        target: ShipId,
        weapon: WeaponId,
        missiles: u8,
    ) -> Result<(), ResolveError> {
        let rules = &self.rules;
        // The name is built only for a refusal: the hot path allocates nothing.
        let who = || battle.name(rules, owner);
        let w = rules.weapon(weapon);
        if !battle.present(owner) || !battle.is_target(owner, target) {
            return self.check_target(battle, owner, target);
        }
        let ship = battle.ship(owner);
        if w.kind != WeaponKind::Missile {
            return Err(ResolveError::Refused(format!(
                "the {} is not a missile launcher",
                w.name
            )));
        }
        if !ship.class(rules).slots.iter().any(|s| s.weapon == weapon) {
            return Err(ResolveError::Refused(format!(
                "the {} carries no {}",
                who(),
                w.id
            )));
        }
        if missiles == 0 {
            return Err(ResolveError::Refused(
                "a salvo needs at least one missile".into(),
            ));
        }
        let magazine = ship.magazine(rules, weapon).unwrap_or(0);
        if u16::from(missiles) > magazine {
            return Err(ResolveError::Refused(format!(
                "a salvo of {missiles} is larger than the magazine: the {} has {magazine} {} left",
                who(),
                w.name
            )));
        }
        let launchers = self.launchers(battle, owner, weapon);
        if missiles > launchers {
            return Err(ResolveError::Refused(format!(
                "a salvo of {missiles} is more than the {}'s {launchers} usable {} launch in a round",
                who(),
                w.name
            )));
        }
        if battle.band(owner, target) > ship.standing.max_band {
            return Err(ResolveError::Refused(format!(
                "the {}'s damaged sensors reach only {} range",
                who(),
                rules.band(ship.standing.max_band).name
            )));
        }
        Ok(())
    }

    /// The launchers a salvo of `missiles` leaves from: the first usable
    /// slots of that missile not used this round.
    pub fn launch_slots(
        &self,
        battle: &Battle,
        owner: ShipId,
        weapon: WeaponId,
        missiles: u8,
    ) -> ArrayVec<u8, MAX_SLOTS> {
        self.free_launchers(battle, owner, weapon)
            .take(usize::from(missiles))
            .collect()
    }

    /// Whether a salvo of `missiles` would leave from a launcher suffering a
    /// Bane: its launch check and its attack roll then take the Bane.
    pub fn launch_bane(
        &self,
        battle: &Battle,
        owner: ShipId,
        weapon: WeaponId,
        missiles: u8,
    ) -> bool {
        let ship = battle.ship(owner);
        self.launch_slots(battle, owner, weapon, missiles)
            .iter()
            .any(|&s| ship.weapons[usize::from(s)] == Condition::Bane)
    }

    /// The salvo a launch puts in flight at `target`: missiles spent,
    /// launchers used, flight time and the Smart trait by the band between
    /// the two at launch (the trait lost at the bands a house rule names), a
    /// Bane on any launcher carried to its attack, and the launching
    /// gunner's DMs kept only when it attacks this round.
    pub(crate) fn make_salvo(
        &self,
        battle: &mut Battle,
        owner: ShipId,
        target: ShipId,
        weapon: WeaponId,
        missiles: u8,
        dm: i32,
    ) -> Salvo {
        let rules = &self.rules;
        let w = rules.weapon(weapon);
        let ship_tl = battle.ship(owner).class(rules).tl;
        let band = battle.band(owner, target);
        let flight = rules.band(band).missile_flight;
        let slots = self.launch_slots(battle, owner, weapon, missiles);
        let bane = self.launch_bane(battle, owner, weapon, missiles);
        battle
            .ship_mut(owner)
            .spend(rules, weapon, u16::from(missiles));
        for &s in &slots {
            battle.state_mut(owner).used |= 1 << s;
        }
        Salvo {
            owner,
            target,
            weapon,
            missiles,
            rounds_left: flight,
            tl: w.tl.max(ship_tl),
            smart: w.smart && !rules.constants.smart_lost_at[band.index()],
            bane,
            dm: if flight == 0 {
                dm.clamp(-100, 100) as i8
            } else {
                0
            },
        }
    }
}

/// Adds a DM to a list unless it is zero.
pub(crate) fn push_dm(dms: &mut Dms, amount: i32, why: Why) {
    if amount != 0 && !dms.is_full() {
        dms.push(Dm { amount, why });
    }
}

impl AttackResolution for Crew2d6 {
    type Board = Battle;
    type Declaration = Attack;
    type Outcome = AttackOutcome;

    fn resolve_attack(
        &self,
        battle: &mut Battle,
        attack: &Attack,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<AttackOutcome, ResolveError> {
        match attack.weaponry {
            Weaponry::Direct { mount, weapon } => self.fire(
                battle,
                attack.attacker,
                attack.target,
                mount,
                weapon,
                &attack.reactions,
                dice,
                sink,
            ),
            Weaponry::Salvo { weapon, missiles } => {
                let (side, target) = (attack.attacker, attack.target);
                self.check_launch(battle, side, target, weapon, missiles)?;
                self.precheck_reactions(
                    battle,
                    side,
                    target,
                    weapon,
                    Some(missiles),
                    &attack.reactions,
                )?;
                // A declared salvo is resolved here as it arrives, whatever
                // its flight time; the launching gunner's aim and chains are
                // gathered now and count only if it attacks this round.
                let class = battle.ship(side).class(&self.rules);
                let mount = class
                    .slots
                    .iter()
                    .find(|s| s.weapon == weapon)
                    .map_or(0, |s| s.mount);
                let mut dms = Dms::new();
                self.take_aim_and_chains(battle, side, mount, target, &mut dms, sink);
                let dm: i32 = dms.iter().map(|d| d.amount).sum();
                let band = battle.band(side, target);
                sink.emit(|| Event::Declared {
                    actor: battle.name(&self.rules, side),
                    action: format!(
                        "launches a salvo of {missiles} {} at {} range",
                        self.rules.weapon(weapon).name,
                        self.rules.band(band).name
                    ),
                });
                // The same rule as in play: the gunner's DMs count only for
                // a salvo that attacks this round.
                let salvo = self.make_salvo(battle, side, target, weapon, missiles, dm);
                let flight = salvo.rounds_left;
                if flight > 0 {
                    sink.emit(|| Event::Ruling {
                        text: format!(
                            "launched at {} range the salvo flies {flight} round(s) before it attacks; it is resolved here as it arrives",
                            self.rules.band(band).name
                        ),
                    });
                }
                self.strike_salvo(battle, &salvo, &attack.reactions, dice, sink)
            }
        }
    }
}

//! The minimal system's rules on core's traits: the attack and the battle.

use broadside_core::kit::PlainBattle;
use broadside_core::montecarlo::{Loss, ShipFate};
use broadside_core::{
    AttackResolution, BattleRequest, Dice, Die, Event, EventSink, ResolveError, Roster, Side,
    Verdict,
};

use crate::Minimal;

/// A ship in play: its place in the system's classes and the hull it has
/// left (0 is sunk). An attack's board and a battle's state are the ships,
/// in roster order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ship {
    pub class: usize,
    pub hull: u8,
}

/// One shot: which ship fires at which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shot {
    pub attacker: usize,
    pub target: usize,
}

/// What a shot came to: the d6's face, whether it hit, the hull it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShotOutcome {
    pub roll: u32,
    pub hit: bool,
    pub damage: u8,
}

impl AttackResolution for Minimal {
    type Board = Vec<Ship>;
    type Declaration = Shot;
    type Outcome = ShotOutcome;

    fn resolve_attack(
        &self,
        ships: &mut Vec<Ship>,
        shot: &Shot,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<ShotOutcome, ResolveError> {
        let name = &self.classes[ships[shot.target].class].id;
        // Refused before any die is rolled or anything is logged. A ship sunk
        // earlier in the same volley still fires: fire is simultaneous.
        if ships[shot.target].hull == 0 {
            return Err(ResolveError::Refused(format!("the {name} is sunk")));
        }
        let hits_on = self.classes[ships[shot.attacker].class].hits_on;
        let roll = dice.roll(Die::D6)?;
        let hit = roll >= u32::from(hits_on);
        sink.emit(|| Event::Check {
            what: "to hit".into(),
            roll: roll as i32,
            target: i32::from(hits_on),
            success: hit,
            rule: Some(format!("{hits_on}+ on a d6")),
        });
        let target = &mut ships[shot.target];
        let damage = u8::from(hit).min(target.hull);
        target.hull -= damage;
        if hit {
            let effect = |left| format!("{damage} hull damage, {left} left");
            let (ship, left) = (name.clone(), target.hull);
            sink.emit(|| Event::Effect {
                ship,
                effect: effect(left),
            });
        }
        Ok(ShotOutcome { roll, hit, damage })
    }
}

/// One phase a turn, with nothing to decide: core's plain battle.
impl PlainBattle for Minimal {
    const PHASES: &'static [&'static str] = &["fire"];
    type State = Vec<Ship>;

    fn start(&self, _: &BattleRequest, roster: &Roster) -> Result<Vec<Ship>, ResolveError> {
        self.fresh(roster.ships().iter().map(|ship| ship.id.as_str()))
    }

    /// Every ship afloat when the phase begins fires at the first enemy
    /// afloat, in roster order. A side's ships pick targets among the
    /// enemies its own shots have left afloat, and one side's shots never
    /// change what the other side does, so going first favours neither side.
    fn play(
        &self,
        _: &'static str,
        roster: &Roster,
        ships: &mut Vec<Ship>,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let afloat: Vec<bool> = ships.iter().map(|ship| ship.hull > 0).collect();
        for attacker in (0..afloat.len()).filter(|&i| afloat[i]) {
            let mut enemies = roster.of(roster.side(attacker).other());
            if let Some(target) = enemies.find(|&i| ships[i].hull > 0) {
                let (actor, aim) = (roster.name(attacker), roster.name(target));
                let action = || format!("fires at {aim}");
                sink.emit(|| Event::Declared {
                    actor: actor.into(),
                    action: action(),
                });
                self.resolve_attack(ships, &Shot { attacker, target }, dice, sink)?;
            }
        }
        Ok(())
    }

    fn verdict(&self, roster: &Roster, ships: &Vec<Ship>) -> Option<Verdict> {
        let afloat = |side| roster.of(side).any(|i| ships[i].hull > 0);
        Verdict::from_able(afloat(Side::A), afloat(Side::B))
    }

    fn fates(&self, roster: &Roster, ships: &Vec<Ship>) -> Vec<ShipFate> {
        let fate = |(i, ship): (usize, &Ship)| ShipFate {
            side: roster.side(i),
            loss: (ship.hull == 0).then_some(Loss::Destroyed),
            escaped: false,
            hull: (ship.hull.into(), self.classes[ship.class].hull.into()),
        };
        ships.iter().enumerate().map(fate).collect()
    }
}

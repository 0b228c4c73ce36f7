//! Repairs: one Repair action is one roll of 1d10 at or under the
//! difficulty's number, made harder by each crew deck lost.

use arrayvec::ArrayVec;
use broadside_core::{Dice, Event, EventSink, ResolveError};

use crate::ActionD10;
use crate::model::{Difficulty, System};
use crate::ship::{Repairable, ScannerState, Ship};

/// What one repair attempt came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepairOutcome {
    /// What was repaired.
    pub item: Repairable,
    /// Its difficulty.
    pub difficulty: Difficulty,
    /// The number rolled at or under, after the crew deck modifier.
    pub target: i32,
    /// The faces rolled, a re-roll included.
    pub rolls: ArrayVec<u32, 4>,
    /// Whether it worked.
    pub repaired: bool,
    /// Command Point re-rolls used.
    pub rerolls_used: u8,
}

impl ActionD10 {
    /// The difficulty of repairing an item, or `None` if it cannot be
    /// repaired (or is not damaged).
    pub fn repair_difficulty(&self, ship: &Ship, item: Repairable) -> Option<Difficulty> {
        let r = &self.rules.repairs;
        if !ship.damaged(&self.rules).contains(&item) {
            return None;
        }
        match item {
            Repairable::MagazineJam => r.jam,
            Repairable::Scanner(s) => match ship.scanners[s.index()] {
                ScannerState::Disabled => r.disabled_scanner,
                ScannerState::Destroyed => r.destroyed_scanner,
                _ => None,
            },
            Repairable::Weapon(i) => {
                let mount = ship.weapons.get(usize::from(i))?;
                r.systems[self.rules.weapon(mount.weapon).mount.system().index()]
            }
            Repairable::System(s) => r.systems[s.index()],
        }
    }

    /// The number a repair rolls at or under: the difficulty's, less the
    /// crew deck penalty for each crew deck destroyed.
    pub fn repair_target(&self, ship: &Ship, difficulty: Difficulty) -> i32 {
        let lost = ship.class(&self.rules).has(System::CrewDeck) - ship.intact(System::CrewDeck);
        self.rules.repairs.targets[difficulty.index()]
            + i32::from(lost) * self.rules.constants.crew_deck_lost
    }

    /// One Repair action on one item; a failure is re-rolled once if a
    /// Command Point is allowed for it.
    pub fn repair(
        &self,
        ship: &mut Ship,
        name: &str,
        item: Repairable,
        rerolls: u8,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<RepairOutcome, ResolveError> {
        let Some(difficulty) = self.repair_difficulty(ship, item) else {
            return Err(ResolveError::Refused(format!(
                "the {name} cannot repair {}: it is not damaged, or no repair fixes it in battle",
                self.repairable_name(ship, item)
            )));
        };
        let base = self.rules.repairs.targets[difficulty.index()];
        let target = self.repair_target(ship, difficulty);
        sink.emit(|| Event::Base {
            what: "repair number".into(),
            value: base,
            source: format!(
                "Repairs: {} ({}) is {}",
                self.repairable_name(ship, item),
                difficulty.id(),
                difficulty.name()
            ),
        });
        if target != base {
            sink.emit(|| Event::Modifier {
                to: "repair number".into(),
                amount: target - base,
                reason: "crew decks destroyed".into(),
            });
        }
        let mut outcome = RepairOutcome {
            item,
            difficulty,
            target,
            rolls: ArrayVec::new(),
            repaired: false,
            rerolls_used: 0,
        };
        let die = self.rules.repairs.die;
        loop {
            let check = dice.check(die, target)?;
            outcome.rolls.push(check.face);
            sink.emit(|| Event::Roll {
                purpose: "repair roll".into(),
                dice: format!("1{die}"),
                faces: vec![check.face],
                total: check.face as i32,
            });
            sink.emit(|| Event::Check {
                what: "repair".into(),
                roll: check.face as i32,
                target,
                success: check.passed,
                rule: None,
            });
            if check.passed {
                outcome.repaired = true;
                break;
            }
            // Ruling 5: the one repair die is re-rolled once at most.
            if outcome.rerolls_used >= rerolls.min(1) || outcome.rolls.is_full() {
                break;
            }
            outcome.rerolls_used += 1;
            sink.emit(|| Event::Ruling {
                text: "a Command Point re-rolls the failed repair".into(),
            });
        }
        if outcome.repaired {
            match item {
                Repairable::MagazineJam => ship.jammed = false,
                Repairable::Scanner(s) => {
                    ship.scanners[s.index()] = ScannerState::Working;
                    ship.intact[s.system().index()] = 1;
                }
                Repairable::Weapon(i) => {
                    let weapon = ship.weapons[usize::from(i)].weapon;
                    ship.weapons[usize::from(i)].destroyed = false;
                    let system = self.rules.weapon(weapon).mount.system();
                    ship.intact[system.index()] += 1;
                }
                Repairable::System(s) => ship.intact[s.index()] += 1,
            }
            sink.emit(|| Event::Effect {
                ship: name.to_owned(),
                effect: format!("{} repaired", self.repairable_name(ship, item)),
            });
        }
        Ok(outcome)
    }

    /// An item's name in messages.
    pub fn repairable_name(&self, ship: &Ship, item: Repairable) -> String {
        match item {
            Repairable::MagazineJam => "the magazine jam".into(),
            Repairable::Scanner(s) => format!("the {}", s.name()),
            Repairable::Weapon(i) => match ship.weapons.get(usize::from(i)) {
                Some(m) => format!("the {} (mount {})", self.rules.weapon(m.weapon).name, i + 1),
                None => format!("weapon mount {}", i + 1),
            },
            Repairable::System(s) => format!("a {}", s.name()),
        }
    }
}

//! Attack resolution: the Combat Table cell, its modifiers, and the to-hit roll.

use arrayvec::ArrayVec;
use broadside_core::{AttackResolution, Dice, Die, Emit, Event, EventSink, MAX_SIDE, ResolveError};

use crate::damage::{Applied, Hit};
use crate::model::{Column, Defence, Rules, Weapon, WeaponId};
use crate::ship::Ship;
use crate::{Percentile, count_of};

/// The ships an attack is resolved among, with the names events use.
pub type Board = broadside_core::Board<Ship>;

/// A declared attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Attack {
    /// Index of the attacking ship on the board.
    pub attacker: usize,
    /// Index of the attacker's weapon mount.
    pub mount: usize,
    /// Index of the target ship on the board.
    pub target: usize,
    /// Range in hexes, counting the target's hex but not the firer's.
    pub range: u32,
    /// An FF weapon fired straight along the ship's centre line.
    pub head_on: bool,
    /// ICMs launched against the attack, from every launcher together.
    pub icms: u16,
    /// The ships launching them and how many each, which must add up to
    /// `icms`: ships of the target's side in its hex (ruling 46). `None`:
    /// the target launches them all.
    pub icm_launcher: Option<IcmLaunches>,
}

/// One ship's ICMs launched against one strike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct IcmLaunch {
    /// The launching ship's index on the board.
    pub ship: usize,
    /// How many it launches.
    pub count: u16,
}

/// The ICMs launched against one strike, by launcher, in the order they are
/// launched. A launcher is one ship of the target's side, so a side's size
/// bounds the list. It is kept inline so that an attack stays `Copy`, and
/// packed (a board index fits a byte) because every strike copies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IcmLaunches {
    ships: [u8; MAX_SIDE],
    counts: [u16; MAX_SIDE],
    len: u8,
}

impl Default for IcmLaunches {
    fn default() -> IcmLaunches {
        IcmLaunches {
            ships: [0; MAX_SIDE],
            counts: [0; MAX_SIDE],
            len: 0,
        }
    }
}

impl IcmLaunches {
    /// No launcher yet.
    pub fn new() -> IcmLaunches {
        IcmLaunches::default()
    }

    /// One ship launching `count`.
    pub fn one(ship: usize, count: u16) -> IcmLaunches {
        let mut launches = IcmLaunches::new();
        // One entry always fits, and a board holds far fewer than 256 ships.
        let _ = launches.push(IcmLaunch { ship, count });
        launches
    }

    /// Adds a launcher; gives it back when the list already holds a whole
    /// side's worth, or when its index cannot be a board's.
    pub fn push(&mut self, launch: IcmLaunch) -> Result<(), IcmLaunch> {
        let len = usize::from(self.len);
        let Ok(ship) = u8::try_from(launch.ship) else {
            return Err(launch);
        };
        if len == MAX_SIDE {
            return Err(launch);
        }
        self.ships[len] = ship;
        self.counts[len] = launch.count;
        self.len += 1;
        Ok(())
    }

    /// Every launch, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = IcmLaunch> + Clone + '_ {
        let len = usize::from(self.len);
        self.ships[..len]
            .iter()
            .zip(&self.counts[..len])
            .map(|(&ship, &count)| IcmLaunch {
                ship: usize::from(ship),
                count,
            })
    }

    /// Whether no ship launches.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// An attack as the to-hit and damage rules see it: by a ship's weapon, or
/// by a mine or seeker that no ship fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Strike {
    /// The weapon striking.
    pub weapon: WeaponId,
    /// The firing ship, if a ship fires it.
    pub attacker: Option<usize>,
    /// Index of the target ship on the board.
    pub target: usize,
    /// Range in hexes.
    pub range: u32,
    /// Head-on along the firer's centre line.
    pub head_on: bool,
    /// ICMs launched against it, from every launcher together.
    pub icms: u16,
    /// The ships launching them and how many each (the target launches
    /// them all when `None`).
    pub icm_launcher: Option<IcmLaunches>,
}

impl Strike {
    fn from_attack(attack: &Attack, weapon: WeaponId) -> Strike {
        Strike {
            weapon,
            attacker: Some(attack.attacker),
            target: attack.target,
            range: attack.range,
            head_on: attack.head_on,
            icms: attack.icms,
            icm_launcher: attack.icm_launcher,
        }
    }
}

/// What an attack came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttackOutcome {
    /// The chance to hit after every modifier, in percent (may lie outside 0-100).
    pub to_hit: i32,
    /// The d100 to-hit roll, 1-100.
    pub roll: u32,
    /// Whether it hit.
    pub hit: bool,
    /// What the hit did, if it hit.
    pub damage: Option<Applied>,
}

/// The chance to hit and whether a hull hit is halved, before the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToHit {
    /// The chance in percent after modifiers.
    pub chance: i32,
    /// The Combat Table column used.
    pub column: Column,
    /// Whether the cell used halves hull damage.
    pub half_damage: bool,
}

impl Percentile {
    /// Chooses the Combat Table cell and applies every to-hit modifier.
    ///
    /// The defences in use are the reflective hull, the active screen and any
    /// masking screen around the target, or around an attacker firing lasers
    /// out of its own (the rules treat both alike). A defence that attracts
    /// the weapon (its cell above the weapon's "None" cell) is the one used;
    /// otherwise the most effective, the lowest cell.
    pub fn to_hit<S: EventSink + ?Sized>(
        &self,
        board: &Board,
        attack: &Attack,
        sink: &mut S,
    ) -> ToHit {
        let attacker = &board.ships[attack.attacker];
        let strike = Strike::from_attack(attack, attacker.weapons[attack.mount].weapon);
        self.to_hit_by(board, &strike, sink)
    }

    /// [`Percentile::to_hit`] for any strike, including mines and seekers,
    /// which have no firing ship.
    pub fn to_hit_by<S: EventSink + ?Sized>(
        &self,
        board: &Board,
        strike: &Strike,
        sink: &mut S,
    ) -> ToHit {
        let rules = &self.rules;
        let attacker = strike.attacker.map(|i| &board.ships[i]);
        let target = &board.ships[strike.target];
        let weapon = rules.weapon(strike.weapon);

        let mut in_use: ArrayVec<Column, 4> = ArrayVec::new();
        if target.defence(Defence::ReflectiveHull).is_some() {
            in_use.push(Column::ReflectiveHull);
        }
        // Seed 001: with ICMs launched, "the attack's chance to hit is
        // determined as if the attack was hitting a reflective hull or a
        // masking screen, whichever the ship is using", so an active screen
        // gives no column (unless the house rule keeps it).
        let icm_columns = strike.icms > 0
            && weapon.per_icm.is_some()
            && !rules.constants.attracting_screen_against_icms;
        if let Some(column) = target.screen.and_then(Defence::column) {
            if icm_columns {
                sink.emit(|| Event::Ruling {
                    text: format!(
                        "with ICMs launched the chance is taken against the reflective hull or \
                         masking screen, not the {}",
                        column_name(rules, column)
                    ),
                });
            } else {
                in_use.push(column);
            }
        }
        if target.masked || (attacker.is_some_and(|a| a.masked) && weapon.laser) {
            in_use.push(Column::MaskingScreen);
        }
        let (column, attracting) = cell_in_use(weapon, &in_use);
        let used = weapon.cells[column.index()];
        sink.emit(|| Event::Base {
            what: "chance to hit".into(),
            value: used.advanced,
            source: format!(
                "Combat Table, {} against {}",
                weapon.name,
                column_name(rules, column)
            ),
        });
        if attracting {
            sink.emit(|| Event::Ruling {
                text: format!(
                    "the {} attracts the {}: its cell is used, not the most effective defence's",
                    column_name(rules, column),
                    weapon.name
                ),
            });
        }

        let c = &rules.constants;
        let mut chance = used.advanced;
        let mut modify = |amount: i32, reason: &dyn Fn() -> String, sink: &mut S| {
            // Plain addition: every term is bounded by the data's ranges
            // (range diffusion by the weapon's range, at most 1,000 hexes, as
            // a strike beyond it is refused), so the sum of a handful cannot
            // wrap; it is the hot path of every strike.
            chance += amount;
            sink.emit(|| Event::Modifier {
                to: "chance to hit".into(),
                amount,
                reason: reason(),
            });
        };
        if weapon.range_diffusion && strike.range > 0 {
            let range = i32::try_from(strike.range).unwrap_or(i32::MAX / 8);
            modify(
                c.range_diffusion_per_hex.saturating_mul(range),
                &|| {
                    format!(
                        "range diffusion, {range} {}",
                        if range == 1 { "hex" } else { "hexes" }
                    )
                },
                sink,
            );
        }
        if strike.head_on && weapon.forward_firing {
            modify(
                c.head_on,
                &|| "head-on shot along the centre line".into(),
                sink,
            );
        }
        if strike.icms > 0
            && let Some(per_icm) = weapon.per_icm
        {
            let n = i32::from(strike.icms);
            modify(
                per_icm * n,
                &|| format!("{} at {per_icm} each", count_of(n, "ICM", "ICMs")),
                sink,
            );
        }
        if attacker.is_some_and(|a| a.damaged.combat_control) {
            modify(
                self.combat_control_penalty,
                &|| "attacker's combat control system is damaged".into(),
                sink,
            );
        }
        if target.is_evasive(rules) && weapon.evadable && target.mr > 0 {
            let mr = i32::from(target.mr);
            modify(
                c.evasion_per_mr * mr,
                &|| format!("evasive manoeuvres, MR {mr}"),
                sink,
            );
        }
        ToHit {
            chance,
            column,
            half_damage: used.half_damage,
        }
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
        if attacker.is_destroyed() {
            return Err(ResolveError::Refused(format!(
                "the {who} is destroyed and cannot fire"
            )));
        }
        if target.is_destroyed() {
            return Err(ResolveError::Refused(format!(
                "the {} is already destroyed",
                board.names[attack.target]
            )));
        }
        if mount.destroyed {
            return Err(ResolveError::Refused(format!(
                "the {who}'s {} has been destroyed",
                weapon.name
            )));
        }
        if mount.supply == Some(0) {
            return Err(ResolveError::Refused(format!(
                "the {who} has no {} left",
                weapon.name
            )));
        }
        if weapon.placed && attack.range != 0 {
            return Err(ResolveError::Refused(format!(
                "a placed weapon ({}) can attack only a ship in its own hex (range 0), not one at range {}",
                weapon.name, attack.range
            )));
        }
        if weapon.forward_firing && attack.range == 0 {
            return Err(ResolveError::Refused(format!(
                "the {} fires forward only, into a hex ahead of the ship, so it cannot fire at \
                 range 0 (the firer's own hex)",
                weapon.name
            )));
        }
        if !weapon.placed && attack.range > weapon.range {
            return Err(ResolveError::Refused(format!(
                "range {} is beyond the {}'s range of {} hexes",
                attack.range, weapon.name, weapon.range
            )));
        }
        if attack.head_on && !weapon.forward_firing {
            return Err(ResolveError::Refused(format!(
                "only forward-firing weapons fire head-on, and the {} is not one",
                weapon.name
            )));
        }
        if attack.icms > 0 && weapon.per_icm.is_none() {
            return Err(ResolveError::Refused(format!(
                "ICMs cannot stop a {}",
                weapon.name
            )));
        }
        check_icm_launches(
            board,
            attack.target,
            attack.icms,
            attack.icm_launcher.as_ref(),
        )
    }
}

/// Who launches the ICMs against a strike: the list given, or the target
/// launching them all. Read in place rather than copied, since every strike
/// asks.
fn launches_of(
    target: usize,
    icms: u16,
    given: Option<&IcmLaunches>,
) -> impl Iterator<Item = IcmLaunch> + Clone + '_ {
    let alone = (given.is_none() && icms > 0).then_some(IcmLaunch {
        ship: target,
        count: icms,
    });
    given.into_iter().flat_map(IcmLaunches::iter).chain(alone)
}

/// Checks that every launcher is a ship of the board, launches at least one
/// ICM and no more than it has ready, appears once, and that the launches add
/// up to the ICMs the strike is declared with.
fn check_icm_launches(
    board: &Board,
    target: usize,
    icms: u16,
    given: Option<&IcmLaunches>,
) -> Result<(), ResolveError> {
    if icms == 0 && given.is_none() {
        // No launcher and nothing launched: the common strike.
        return Ok(());
    }
    let launches = launches_of(target, icms, given);
    let mut total = 0u32;
    for (n, launch) in launches.clone().enumerate() {
        total += u32::from(launch.count);
        let Some(ship) = board.ships.get(launch.ship) else {
            return Err(ResolveError::Internal(
                "an ICM launcher is not on the board".into(),
            ));
        };
        let name = &board.names[launch.ship];
        if launches
            .clone()
            .take(n)
            .any(|earlier| earlier.ship == launch.ship)
        {
            return Err(ResolveError::Refused(format!(
                "the {name} is listed twice among the ICM launchers"
            )));
        }
        if ship.is_destroyed() {
            return Err(ResolveError::Refused(format!(
                "the {name} is destroyed and launches no ICMs"
            )));
        }
        if launch.count == 0 {
            return Err(ResolveError::Refused(format!(
                "the {name} is listed as a launcher of no ICMs"
            )));
        }
        let ready = ship.icms_ready();
        if ready < launch.count {
            return Err(ResolveError::Refused(format!(
                "the {name} can launch {}, not {}",
                count_of(ready, "ICM", "ICMs"),
                launch.count
            )));
        }
    }
    if total != u32::from(icms) {
        return Err(ResolveError::Internal(format!(
            "{} declared against a strike, but the launchers launch {total}",
            count_of(icms, "ICM", "ICMs"),
        )));
    }
    Ok(())
}

impl AttackResolution for Percentile {
    type Board = Board;
    type Declaration = Attack;
    type Outcome = AttackOutcome;

    fn resolve_attack(
        &self,
        board: &mut Board,
        attack: &Attack,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<AttackOutcome, ResolveError> {
        self.resolve_attack_with(board, attack, dice, sink)
    }
}

impl Percentile {
    /// [`AttackResolution::resolve_attack`] for any dice and sink types: the
    /// trait's version calls it with trait objects, and a hot loop that knows
    /// its types (a seeded benchmark, events discarded) calls it directly, so
    /// that rolls and the discarded events compile to no dynamic call.
    pub fn resolve_attack_with<D: Dice + ?Sized, S: EventSink + ?Sized>(
        &self,
        board: &mut Board,
        attack: &Attack,
        dice: &mut D,
        sink: &mut S,
    ) -> Result<AttackOutcome, ResolveError> {
        self.check_attack(board, attack)?;
        let rules = &self.rules;
        let weapon_id = board.ships[attack.attacker].weapons[attack.mount].weapon;
        let weapon = rules.weapon(weapon_id);
        sink.emit(|| Event::Declared {
            actor: board.names[attack.attacker].clone(),
            action: format!(
                "fires its {} at the {} at range {}",
                weapon.name, board.names[attack.target], attack.range
            ),
        });

        // Supplies are spent on launch, hit or miss.
        if let Some(supply) = &mut board.ships[attack.attacker].weapons[attack.mount].supply {
            *supply -= 1;
        }
        self.strike(board, &Strike::from_attack(attack, weapon_id), dice, sink)
    }

    /// The highest d100 face that hits at this chance: the chance itself,
    /// but never below the always-hit faces nor into the always-miss ones.
    pub fn to_hit_target(&self, chance: i32) -> i32 {
        let c = &self.rules.constants;
        let lowest = i32::try_from(c.always_hit_at_most).unwrap_or(0);
        let highest = i32::try_from(c.always_miss_at_least)
            .unwrap_or(i32::MAX)
            .saturating_sub(1);
        // Validation keeps always-hit below always-miss, so `lowest` is at
        // most `highest`; `max` then `min` cannot panic either way.
        chance.max(lowest).min(highest)
    }

    /// Resolves a strike already declared and paid for: ICMs launched, the
    /// to-hit roll, and on a hit the damage.
    pub fn strike<D: Dice + ?Sized, S: EventSink + ?Sized>(
        &self,
        board: &mut Board,
        strike: &Strike,
        dice: &mut D,
        sink: &mut S,
    ) -> Result<AttackOutcome, ResolveError> {
        let rules = &self.rules;
        let weapon = rules.weapon(strike.weapon);
        // Each launcher spends its own ICMs, in the order they are listed.
        let launches = launches_of(strike.target, strike.icms, strike.icm_launcher.as_ref());
        for launch in launches {
            if let Some(icm) = board.ships[launch.ship].defence_mut(Defence::Icm)
                && let Some(supply) = &mut icm.supply
            {
                *supply = supply.saturating_sub(launch.count);
            }
            sink.emit(|| Event::Declared {
                actor: board.names[launch.ship].clone(),
                action: format!(
                    "launches {} against the {}",
                    count_of(launch.count, "ICM", "ICMs"),
                    weapon.name
                ),
            });
        }

        let to_hit = self.to_hit_by(board, strike, sink);
        let c = &rules.constants;
        // 01-05 always hits and 96-00 always misses, whatever the chance:
        // the same as a plain check against the chance held within those
        // bounds, so the roll is asked for as one check and an exact
        // enumeration branches on hit and miss alone.
        let check = dice.check(Die::D100, self.to_hit_target(to_hit.chance))?;
        let (roll, hit) = (check.face, check.passed);
        // Only the log reads the face beyond the check.
        let always_hits = roll <= c.always_hit_at_most;
        let always_misses = roll >= c.always_miss_at_least;
        sink.emit(|| Event::Roll {
            purpose: "to-hit roll".into(),
            dice: Die::D100.to_string(),
            faces: vec![roll],
            total: roll as i32,
        });
        sink.emit(|| Event::Check {
            what: if hit { "hit".into() } else { "miss".into() },
            roll: roll as i32,
            target: to_hit.chance,
            success: hit,
            rule: if always_hits {
                Some(format!(
                    "a roll of {:02} or less always hits",
                    c.always_hit_at_most
                ))
            } else if always_misses {
                Some(format!(
                    "a roll of {} or more always misses",
                    c.always_miss_at_least
                ))
            } else {
                None
            },
        });
        let damage = if hit {
            let hit = Hit::from_weapon(rules, strike.weapon, to_hit.half_damage);
            let target = &mut board.ships[strike.target];
            Some(self.allocate_named(&hit, target, &board.names[strike.target], dice, sink)?)
        } else {
            None
        };
        Ok(AttackOutcome {
            to_hit: to_hit.chance,
            roll,
            hit,
            damage,
        })
    }
}

/// The Combat Table column an attack uses against the defences in use, and
/// whether it was chosen because the defence attracts the weapon: a defence
/// whose cell is above the weapon's "None" cell is used; otherwise the most
/// effective (lowest) cell; with no defence, the "None" column.
pub fn cell_in_use(weapon: &Weapon, in_use: &[Column]) -> (Column, bool) {
    let cell = |c: Column| weapon.cells[c.index()].advanced;
    let none = cell(Column::None);
    if let Some(attracting) = in_use.iter().copied().find(|&c| cell(c) > none) {
        return (attracting, true);
    }
    let lowest = in_use
        .iter()
        .copied()
        .min_by_key(|&c| cell(c))
        .unwrap_or(Column::None);
    (lowest, false)
}

/// The printed name of a Combat Table column.
fn column_name(rules: &Rules, column: Column) -> String {
    match column {
        Column::None => "no defence".into(),
        Column::ReflectiveHull => rules
            .defence_info(Defence::ReflectiveHull)
            .name
            .to_lowercase(),
        Column::ProtonScreen => rules
            .defence_info(Defence::ProtonScreen)
            .name
            .to_lowercase(),
        Column::ElectronScreen => rules
            .defence_info(Defence::ElectronScreen)
            .name
            .to_lowercase(),
        Column::StasisScreen => rules
            .defence_info(Defence::StasisScreen)
            .name
            .to_lowercase(),
        Column::MaskingScreen => rules
            .defence_info(Defence::MaskingScreen)
            .name
            .to_lowercase(),
    }
}

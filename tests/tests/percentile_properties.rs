//! Property tests of the percentile rules' invariants over random seeds, ships, weapons, ranges, ICMs and screens.
//!
//! The invariants come from the design brief and seed 000: hull never above
//! its original and never negative; no system destroyed twice, and a hit
//! destroys at most one; a drive hit on ADF 0 is a hull hit; limited
//! supplies never go negative and drop by exactly one per shot; the 01-05 /
//! 96-00 rule holds whatever the chance; resolution never panics and fails
//! only by refusing.

use broadside_core::{
    AttackResolution, Dice, DiceError, Die, EventLog, NullSink, OptionValue, ResolveError,
    SeededDice,
};
use broadside_percentile::model::{Defence, Effect};
use broadside_percentile::{Attack, Board, Hit, Percentile, Ship, SystemLost};
use broadside_tests::{flag, num, percentile, resolve_with, systems_destroyed, text};
use proptest::prelude::*;
use proptest::sample::Index;

/// Dice that show one chosen face first, then seeded faces: the to-hit or
/// Damage Table roll a property needs, and random dice after it.
struct FirstThen {
    first: Option<u32>,
    rest: SeededDice,
}

impl Dice for FirstThen {
    fn roll(&mut self, die: Die) -> Result<u32, DiceError> {
        match self.first.take() {
            Some(face) => Ok(face),
            None => self.rest.roll(die),
        }
    }
}

/// A random declared attack between two fresh ships: any attacker class,
/// any of its weapon mounts, any target class, a range the weapon reaches,
/// any number of the target's ICMs against weapons ICMs can stop, any screen
/// the target carries, a masking screen around either ship if it carries
/// one, head-on for forward-firing weapons.
#[derive(Debug, Clone)]
struct Setup {
    attacker: usize,
    mount: Index,
    target: usize,
    range: Index,
    icms: Index,
    screen: Index,
    target_masked: bool,
    attacker_masked: bool,
    head_on: bool,
}

fn setup() -> impl Strategy<Value = Setup> {
    let classes = percentile().rules.ships.len();
    (
        0..classes,
        any::<Index>(),
        0..classes,
        any::<Index>(),
        any::<Index>(),
        any::<Index>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(
                attacker,
                mount,
                target,
                range,
                icms,
                screen,
                target_masked,
                attacker_masked,
                head_on,
            )| {
                Setup {
                    attacker,
                    mount,
                    target,
                    range,
                    icms,
                    screen,
                    target_masked,
                    attacker_masked,
                    head_on,
                }
            },
        )
}

fn has(ship: &Ship, defence: Defence) -> bool {
    ship.defence(defence).is_some()
}

/// Builds the board and the attack a [`Setup`] describes.
fn build(system: &Percentile, s: &Setup) -> (Board, Attack) {
    let rules = &system.rules;
    let mut attacker = Ship::new(rules, s.attacker as u8);
    let mut target = Ship::new(rules, s.target as u8);
    let mount = s.mount.index(attacker.weapons.len());
    let weapon = rules.weapon(attacker.weapons[mount].weapon);
    // Placed weapons attack only in their own hex; forward-firing weapons
    // never into it (ruling 22), so from 1 to RA; others from 0 to RA.
    let range = if weapon.placed {
        0
    } else if weapon.forward_firing {
        1 + s.range.index(weapon.range as usize) as u32
    } else {
        s.range.index(weapon.range as usize + 1) as u32
    };
    let icms = if weapon.per_icm.is_some() {
        s.icms.index(usize::from(target.icms_ready()) + 1) as u16
    } else {
        0
    };
    let screens: Vec<Defence> = [
        Defence::ProtonScreen,
        Defence::ElectronScreen,
        Defence::StasisScreen,
    ]
    .into_iter()
    .filter(|&d| has(&target, d))
    .collect();
    target.screen = {
        let pick = s.screen.index(screens.len() + 1);
        screens.get(pick).copied()
    };
    target.masked = s.target_masked && has(&target, Defence::MaskingScreen);
    attacker.masked = s.attacker_masked && has(&attacker, Defence::MaskingScreen);
    let attack = Attack {
        attacker: 0,
        mount,
        target: 1,
        range,
        head_on: s.head_on && weapon.forward_firing,
        icms,
        icm_launcher: None,
    };
    let board = Board {
        ships: vec![attacker, target],
        names: ["attacker".into(), "target".into()].into(),
    };
    (board, attack)
}

fn supply_of_icms(ship: &Ship) -> Option<u16> {
    ship.defences
        .iter()
        .find(|m| m.defence == Defence::Icm)
        .and_then(|m| m.supply)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Fires the same declared attack until it is refused (supply spent,
    /// target destroyed) or ten shots have been fired, checking after every
    /// shot each invariant the rules promise.
    #[test]
    fn repeated_attacks_keep_every_invariant(s in setup(), seed: u64) {
        let system = percentile();
        let rules = &system.rules;
        let (mut board, attack) = build(system, &s);
        let original_hull = rules.class(board.ships[1].class).hull;
        let class = rules.class(board.ships[1].class).clone();
        let mut dice = SeededDice::new(seed);
        for _ in 0..10 {
            let before = board.clone();
            let result = system.resolve_attack(&mut board, &attack, &mut dice, &mut NullSink);
            let outcome = match result {
                Err(ResolveError::Refused(_)) => {
                    prop_assert_eq!(&board, &before, "a refused attack changes nothing");
                    break;
                }
                Err(other) => return Err(TestCaseError::fail(format!("not a refusal: {other}"))),
                Ok(outcome) => outcome,
            };
            let (t0, t1) = (&before.ships[1], &board.ships[1]);

            // Hull: never above the original, never negative.
            prop_assert!(t1.hull <= original_hull && t1.hull >= 0, "hull {}", t1.hull);
            prop_assert!(t1.hull <= t0.hull, "an attack never repairs");
            prop_assert!(t1.adf <= class.adf && t1.mr <= class.mr && t1.dcr <= class.dcr);

            // The to-hit rule, whatever the chance.
            let r = outcome.roll;
            prop_assert!((1..=100).contains(&r));
            let expected = r <= 5 || (r < 96 && i64::from(r) <= i64::from(outcome.to_hit));
            prop_assert_eq!(outcome.hit, expected, "roll {} against {}", r, outcome.to_hit);

            // Supplies: the firing LTD mount loses exactly one, the ICMs
            // launched are spent, nothing else is.
            let a0 = &before.ships[0].weapons[attack.mount];
            let a1 = &board.ships[0].weapons[attack.mount];
            prop_assert_eq!(a1.supply, a0.supply.map(|n| n - 1));
            prop_assert_eq!(
                supply_of_icms(t1),
                supply_of_icms(t0).map(|n| n - attack.icms)
            );

            // No system destroyed twice; a hit destroys at most one.
            let lost0 = systems_destroyed(t0);
            let lost1 = systems_destroyed(t1);
            for (m0, m1) in t0.weapons.iter().zip(&t1.weapons) {
                prop_assert!(!m0.destroyed || m1.destroyed, "destroyed stays destroyed");
            }
            for (m0, m1) in t0.defences.iter().zip(&t1.defences) {
                prop_assert!(!m0.destroyed || m1.destroyed, "destroyed stays destroyed");
                prop_assert!(
                    !(m1.defence == Defence::ReflectiveHull && m1.destroyed),
                    "a reflective hull is never destroyed"
                );
            }
            match outcome.damage.as_ref().and_then(|d| d.system_lost) {
                None => prop_assert_eq!(lost1, lost0),
                Some(lost) => {
                    prop_assert_eq!(lost1, lost0 + 1);
                    let newly = match lost {
                        SystemLost::Weapon(w) => t0.weapons.iter().zip(&t1.weapons)
                            .any(|(m0, m1)| m0.weapon == w && !m0.destroyed && m1.destroyed),
                        SystemLost::Defence(d) => t0.defences.iter().zip(&t1.defences)
                            .any(|(m0, m1)| m0.defence == d && !m0.destroyed && m1.destroyed),
                    };
                    prop_assert!(newly, "the system reported lost was intact before");
                }
            }

            // A drive hit on ADF 0 is a hull hit.
            if let Some(d) = &outcome.damage {
                if matches!(rules.damage_table[d.row].effect, Effect::Drive(_)) && t0.adf == 0 {
                    prop_assert!(d.fell_back && d.hull_damage > 0);
                }
                if d.fell_back {
                    prop_assert!(d.system_lost.is_none());
                }
                prop_assert_eq!(t0.hull - t1.hull, d.hull_damage.min(t0.hull));
            } else {
                // A miss leaves the target as it was, but for the ICMs it
                // launched (checked above).
                let mut expected = *t0;
                if let Some(icm) = expected.defences.iter_mut().find(|m| m.defence == Defence::Icm) {
                    icm.supply = supply_of_icms(t1);
                }
                prop_assert_eq!(t1, &expected, "a miss changes nothing but ICMs");
            }
            if t1.is_destroyed() {
                break;
            }
        }
    }

    /// Seed 000: a drive hit on a ship with no ADF left is a hull hit, for
    /// every ship, weapon and drive row.
    #[test]
    fn a_drive_hit_on_adf_0_is_a_hull_hit(
        class in 0..percentile().rules.ships.len(),
        weapon in any::<Index>(),
        row in 46i32..=53,
        seed: u64,
    ) {
        let system = percentile();
        let rules = &system.rules;
        let mut ship = Ship::new(rules, class as u8);
        ship.adf = 0;
        let id = weapon.index(rules.weapons.len()) as u8;
        let face = row - rules.weapon(id).dtm;
        prop_assume!((1..=100).contains(&face));
        let hit = Hit::from_weapon(rules, id, false);
        let before = ship;
        let mut dice = FirstThen { first: Some(face as u32), rest: SeededDice::new(seed) };
        let applied = system
            .allocate_named(&hit, &mut ship, "target", &mut dice, &mut NullSink)
            .expect("seeded dice never fail");
        prop_assert!(matches!(rules.damage_table[applied.row].effect, Effect::Drive(_)));
        prop_assert!(applied.fell_back);
        prop_assert!(applied.hull_damage >= 1);
        prop_assert_eq!(ship.adf, 0);
        prop_assert_eq!(ship.hull, (before.hull - applied.hull_damage).max(0));
        prop_assert_eq!(systems_destroyed(&ship), 0);
    }

    /// The reference note's 01-05 / 96-00 rule holds for chances far outside
    /// 0-100: the data's head-on bonus and range diffusion are replaced by
    /// random values (the rule must not depend on the data staying tame).
    #[test]
    fn the_always_hit_and_always_miss_rolls_hold_outside_0_to_100(
        s in setup(),
        head_on in -150i32..=150,
        per_hex in -40i32..=40,
        roll in 1u32..=100,
        seed: u64,
    ) {
        let mut system = percentile().clone();
        system.rules.constants.head_on = head_on;
        system.rules.constants.range_diffusion_per_hex = per_hex;
        let (mut board, attack) = build(&system, &s);
        let mut dice = FirstThen { first: Some(roll), rest: SeededDice::new(seed) };
        let outcome = system
            .resolve_attack(&mut board, &attack, &mut dice, &mut NullSink)
            .expect("a fresh declared attack is allowed");
        prop_assert_eq!(outcome.roll, roll);
        let expected = roll <= 5 || (roll < 96 && i64::from(roll) <= i64::from(outcome.to_hit));
        prop_assert_eq!(outcome.hit, expected, "roll {} against {}", roll, outcome.to_hit);
    }

    /// `Ruleset::resolve` with any valid ship ids, any weapon id, any range,
    /// ICMs, screen and flags never panics, and fails only by refusing (or
    /// by naming an unknown thing, which valid ids never are).
    #[test]
    fn resolve_never_panics_and_only_refuses(
        attacker in any::<Index>(),
        target in any::<Index>(),
        weapon in any::<Index>(),
        range in 0i64..=20,
        icm in proptest::option::of(0i64..=15),
        screen in proptest::option::of(prop_oneof![Just("proton"), Just("electron"), Just("stasis")]),
        head_on: bool,
        masking: bool,
        attacker_masking: bool,
        seed: u64,
    ) {
        let rules = &percentile().rules;
        let attacker = &rules.ships[attacker.index(rules.ships.len())].id;
        let target = &rules.ships[target.index(rules.ships.len())].id;
        let weapon = &rules.weapons[weapon.index(rules.weapons.len())].id;
        let mut options: Vec<(&str, OptionValue)> =
            vec![("weapon", text(weapon)), ("range", num(range))];
        if let Some(n) = icm {
            options.push(("icm", num(n)));
        }
        if let Some(screen) = screen {
            options.push(("screen", text(screen)));
        }
        if head_on {
            options.push(("head-on", flag()));
        }
        if masking {
            options.push(("masking-screen", flag()));
        }
        if attacker_masking {
            options.push(("attacker-masking-screen", flag()));
        }
        let mut dice = SeededDice::new(seed);
        match resolve_with(attacker, target, &options, &mut dice) {
            Ok(r) => {
                let hull = r.json["target"]["hull"].as_i64().expect("a hull in the report");
                prop_assert!(hull >= 0);
            }
            Err(ResolveError::Refused(_) | ResolveError::Unknown { .. }) => {}
            Err(other) => return Err(TestCaseError::fail(format!("{other:?}"))),
        }
    }
}

/// The event log is a rendering of what happened, not a cause of it: the
/// same seeded attack gives the same outcome whether events are kept or not.
#[test]
fn keeping_events_does_not_change_the_outcome() {
    let system = percentile();
    let rules = &system.rules;
    let destroyer = rules.class_id("destroyer").unwrap();
    let frigate = rules.class_id("frigate").unwrap();
    for seed in 0..64 {
        let board = Board {
            ships: vec![Ship::new(rules, destroyer), Ship::new(rules, frigate)],
            names: ["destroyer".into(), "frigate".into()].into(),
        };
        let attack = Attack {
            attacker: 0,
            mount: 0,
            target: 1,
            range: 2,
            head_on: true,
            icms: 0,
            icm_launcher: None,
        };
        let (mut quiet, mut loud) = (board.clone(), board);
        let a = system
            .resolve_attack(
                &mut quiet,
                &attack,
                &mut SeededDice::new(seed),
                &mut NullSink,
            )
            .unwrap();
        let b = system
            .resolve_attack(
                &mut loud,
                &attack,
                &mut SeededDice::new(seed),
                &mut EventLog::default(),
            )
            .unwrap();
        assert_eq!(a, b, "seed {seed}");
        assert_eq!(quiet, loud, "seed {seed}");
    }
}

//! Property tests of the system's invariants: bounds that hold whatever the dice and the declaration.

mod common;

use broadside_core::{NullSink, Ruleset, ScriptedDice, SeededDice, Side, Verdict, play_trial};
use broadside_crew_2d6::check::roll_2d;
use broadside_crew_2d6::model::{BAND_IDS, Band};
use broadside_crew_2d6::{Applied, Hit, Reactions};
use broadside_data::testing;
use common::{A, B, battle, duel_request, flag, fleet_request, num, resolve_with, system, text};
use proptest::prelude::*;

const SHIPS: [&str; 4] = ["scout", "trader", "corvette", "escort"];

fn weapon_ids() -> Vec<String> {
    system()
        .rules
        .weapons
        .iter()
        .map(|w| w.id.clone())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Any declaration resolves or is refused as the user's error; never a
    /// panic, an internal error or a dice error with seeded dice. A report
    /// keeps the target within its bounds.
    #[test]
    fn any_declaration_resolves_or_is_refused(
        attacker in 0..SHIPS.len(),
        target in 0..SHIPS.len(),
        weapon in 0..8usize,
        band in 0..BAND_IDS.len(),
        aim in 0..=3i64,
        salvo in proptest::option::of(1..=4i64),
        dodge: bool,
        point_defence: bool,
        sand: bool,
        seed: u64,
    ) {
        let weapons = weapon_ids();
        let mut pairs = vec![
            ("weapon", text(&weapons[weapon % weapons.len()])),
            ("range-band", text(BAND_IDS[band])),
            ("aim", num(aim)),
        ];
        if let Some(n) = salvo {
            pairs.push(("salvo", num(n)));
        }
        for (on, name) in [(dodge, "dodge"), (point_defence, "point-defense"), (sand, "sand")] {
            if on {
                pairs.push((name, flag()));
            }
        }
        let mut dice = SeededDice::new(seed);
        match resolve_with(SHIPS[attacker], SHIPS[target], &pairs, &mut dice) {
            Ok(r) => {
                let j = &r.json;
                let t = &j["target"];
                prop_assert!(t["hull"].as_i64().unwrap() >= 0);
                prop_assert!(t["hull"].as_i64() <= t["hull_max"].as_i64());
                prop_assert!(t["armour"].as_i64().unwrap() >= 0);
                prop_assert!(t["armour"].as_i64() <= t["armour_max"].as_i64());
                // A salvo whose every missile is stopped makes no attack: it
                // misses whatever its dice showed.
                let stopped = j["missiles"]["attacking"].as_u64() == Some(0);
                prop_assert_eq!(j["hit"].as_bool().unwrap(), !stopped && j["effect"].as_i64().unwrap() >= 0);
                prop_assert_eq!(j["total"].as_i64().unwrap(), j["roll"]["total"].as_i64().unwrap() + j["dm"].as_i64().unwrap());
                prop_assert!(j["damage"].as_i64().unwrap() >= 0);
                if !j["hit"].as_bool().unwrap() {
                    prop_assert_eq!(j["damage"].as_i64(), Some(0));
                }
                for c in j["criticals"].as_array().unwrap() {
                    let s = c["severity"].as_u64().unwrap();
                    prop_assert!((1..=6).contains(&s));
                    prop_assert!(c["severity_before"].as_u64().unwrap() < s);
                }
            }
            Err(broadside_core::ResolveError::Refused(_) | broadside_core::ResolveError::BadOption { .. }) => {}
            Err(other) => prop_assert!(false, "{pairs:?}: {other}"),
        }
    }

    /// Damage never takes a ship below zero hull or armour, severities stay
    /// within 1-6, and the standing effects always match the severities.
    #[test]
    fn damage_keeps_ships_within_bounds(
        target in 0..SHIPS.len(),
        hits in proptest::collection::vec((0..8usize, -2..14i32, 1..=3u8), 1..12),
        seed: u64,
    ) {
        let sys = system();
        let rules = &sys.rules;
        let mut b = battle("corvette", SHIPS[target], Band::Short);
        let label = b.labels[1];
        let weapons: Vec<u8> = (0..rules.weapons.len() as u8)
            .filter(|&w| rules.weapon(w).damage.is_some())
            .collect();
        let mut dice = SeededDice::new(seed);
        for (w, effect, identical) in hits {
            let weapon = weapons[w % weapons.len()];
            let missile = rules.weapon(weapon).damage.is_some() && rules.weapon(weapon).smart;
            let hit = Hit {
                weapon,
                effect,
                identical: if missile { 1 } else { identical },
                multiplier: 1,
                sand: 0,
                missiles: missile.then_some(identical),
            };
            let ship = b.ship_mut(B);
            let before = ship.clone();
            let applied: Applied = sys.allocate_labelled(&hit, ship, label, &mut dice, &mut NullSink).unwrap();
            prop_assert!(ship.hull >= 0 && ship.hull <= before.hull);
            prop_assert!(ship.armour >= 0 && ship.armour <= before.armour);
            prop_assert!(ship.severity.iter().all(|&s| s <= 6));
            prop_assert_eq!(applied.wrecked, ship.hull == 0);
            for (i, (&now, &then)) in ship.severity.iter().zip(&before.severity).enumerate() {
                prop_assert!(now >= then, "location {} fell", i);
            }
            let mut refreshed = ship.clone();
            refreshed.refresh(rules);
            prop_assert_eq!(&refreshed.standing, &ship.standing);
            if ship.is_wrecked() {
                break;
            }
        }
    }

    /// A check under a Bane counts the lowest two of three dice.
    #[test]
    fn a_bane_keeps_the_lowest_two(faces in proptest::array::uniform3(1..=6u32), dm in -5..5i32) {
        let mut dice = ScriptedDice::new(faces);
        let result = roll_2d(&mut dice, true, dm, 8).unwrap();
        let mut sorted = faces;
        sorted.sort_unstable();
        prop_assert_eq!(result.roll, (sorted[0] + sorted[1]) as i32);
        prop_assert_eq!(result.total, result.roll + dm);
        prop_assert_eq!(result.success, result.effect >= 0);
    }

    /// Reactions never go below the table's least, thrust never goes
    /// negative, and a reaction beyond the allowance always burns.
    #[test]
    fn reactions_and_burning(initiative in -20..40i32, dodges in 1..6usize, seed: u64) {
        let sys = system();
        let rules = &sys.rules;
        let allowed = rules.reactions_at(initiative);
        prop_assert!((1..=4).contains(&allowed));
        let mut b = battle("escort", "corvette", Band::Short);
        b.states[1].reactions = allowed;
        b.states[1].thrust_left = 4;
        let mut dice = SeededDice::new(seed);
        let dodge = Reactions { dodge: true, ..Reactions::default() };
        let t1 = common::mount(&b, A, "turret-1");
        let t3 = common::mount(&b, A, "turret-3");
        let mut taken = 0u8;
        for (i, mount) in [t1, t3].into_iter().cycle().take(dodges.min(2)).enumerate() {
            let weapon = if i == 0 { common::weapon("beam-laser") } else { common::weapon("pulse-laser") };
            if b.ship(B).is_wrecked() {
                break;
            }
            let outcome = sys.fire(&mut b, A, B, mount, weapon, &dodge, &mut dice, &mut NullSink).unwrap();
            taken += 1;
            prop_assert_eq!(outcome.reactions[0].burned, taken > allowed);
        }
        prop_assert!(b.states[1].thrust_left >= 0);
        prop_assert_eq!(b.states[1].burn_penalty, rules.constants.burn * i32::from(taken.saturating_sub(allowed)));
    }

    /// Row tables are read monotonically: a higher characteristic never has
    /// a worse DM, a higher Effect never chains a worse DM, a higher
    /// initiative never allows fewer reactions.
    #[test]
    fn tables_are_monotonic(a in -30..40i32, b in -30..40i32) {
        let rules = &system().rules;
        let (lo, hi) = (a.min(b), a.max(b));
        prop_assert!(rules.chain_dm(lo) <= rules.chain_dm(hi));
        prop_assert!(rules.reactions_at(lo) <= rules.reactions_at(hi));
        let (clo, chi) = (lo.clamp(0, 30) as u8, hi.clamp(0, 30) as u8);
        prop_assert!(rules.characteristic_dm(clo) <= rules.characteristic_dm(chi));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Duels end as their state says, replay exactly from their seed, and
    /// keep every ship within its bounds.
    #[test]
    fn duels_end_consistently(
        a in 0..SHIPS.len(),
        b in 0..SHIPS.len(),
        band in proptest::option::of(0..BAND_IDS.len()),
        jump in 0..4usize,
        seed: u64,
        trial in 0..1000u64,
    ) {
        let ruleset: &dyn Ruleset = system();
        let mut pairs = vec![("jump-point", text(["none", "a", "b", "both"][jump]))];
        if let Some(band) = band {
            pairs.push(("start-band", text(BAND_IDS[band])));
        }
        let request = duel_request(SHIPS[a], SHIPS[b], 12, &pairs);
        let duel = system().fleets(&request).unwrap();
        let engagement = ruleset.prepare_battle(&request).unwrap();
        let outcome = play_trial(&*engagement, seed, trial, &mut NullSink).unwrap();
        let again = play_trial(&*engagement, seed, trial, &mut NullSink).unwrap();
        prop_assert_eq!(&outcome, &again);
        let mut dice = SeededDice::for_trial(seed, trial);
        let tactics = broadside_crew_2d6::DefaultTactics::default();
        let (same, end) = duel.play_with([&tactics, &tactics], &mut dice, &mut NullSink).unwrap();
        prop_assert_eq!(&same, &outcome);
        prop_assert!(outcome.turns <= 12);
        let rules = &system().rules;
        for id in end.ids() {
            let ship = end.ship(id);
            prop_assert!(ship.hull >= 0 && ship.hull <= ship.class(rules).hull);
            prop_assert!(ship.armour >= 0);
            let class = ship.class(rules);
            for (m, &(_, full)) in ship.magazines.iter().zip(&class.magazines) {
                prop_assert!(*m <= full);
            }
        }
        match outcome.verdict {
            Verdict::Winner(side) => {
                prop_assert!(!system().can_fight(&end, side.other()));
                prop_assert!(system().can_fight(&end, side));
            }
            Verdict::Escaped(side) => prop_assert!(system().jumped(&end, side)),
            Verdict::Draw => prop_assert!(
                (!system().can_fight(&end, Side::A) && !system().can_fight(&end, Side::B))
                    || (end.state(A).jumped && end.state(B).jumped)
            ),
            Verdict::Undecided => prop_assert_eq!(outcome.turns, 12),
        }
    }
}

/// A random small fleet: ids of the sample ships.
fn small_fleet() -> impl Strategy<Value = Vec<&'static str>> {
    proptest::collection::vec(proptest::sample::select(SHIPS.to_vec()), 1..=4)
}

/// A random side set-up: an echelon per ship at most, a jump point, boarding
/// and the focus rule.
fn side_set_up(
    size: usize,
) -> impl Strategy<Value = Vec<(&'static str, broadside_core::OptionValue)>> {
    (
        proptest::collection::vec(-2..=2i32, 0..=size),
        any::<bool>(),
        any::<bool>(),
        proptest::sample::select(broadside_crew_2d6::tactics::FOCUS_IDS.to_vec()),
    )
        .prop_map(|(echelon, jump, board, focus)| {
            let mut pairs = vec![("focus", text(focus))];
            if !echelon.is_empty() {
                let list: Vec<String> = echelon.iter().map(ToString::to_string).collect();
                pairs.push(("echelon", text(&list.join(","))));
            }
            if jump {
                pairs.push(("jump-point", flag()));
            }
            if board {
                pairs.push(("board", flag()));
            }
            pairs
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random small fleets with random set-ups play to an end without an
    /// internal error (a tactic choosing a target the rules refuse would be
    /// one); every trial has one fate per roster ship, on that ship's side;
    /// no side loses more ships than it has; and a tally's per-side counts
    /// of ships lost each sum to its trials.
    #[test]
    fn fleets_keep_their_books(
        (a, b, set_a, set_b) in (small_fleet(), small_fleet()).prop_flat_map(|(a, b)| {
            let (na, nb) = (a.len(), b.len());
            (Just(a), Just(b), side_set_up(na), side_set_up(nb))
        }),
        band in proptest::option::of(0..BAND_IDS.len()),
        seed: u64,
    ) {
        let ruleset: &dyn Ruleset = system();
        let mut pairs = Vec::new();
        if let Some(band) = band {
            pairs.push(("start-band", text(BAND_IDS[band])));
        }
        let request = fleet_request(&a, &b, 8, &pairs, [&set_a, &set_b]);
        let battle = ruleset.prepare_battle(&request).unwrap();
        let roster = battle.roster().clone();
        prop_assert_eq!(roster.len(), a.len() + b.len());
        let trials = 3;
        let mut tally = broadside_core::Tally::default();
        for trial in 0..trials {
            let outcome = play_trial(&*battle, seed, trial, &mut NullSink);
            let outcome = match outcome {
                Ok(outcome) => outcome,
                Err(e) => return Err(TestCaseError::fail(format!("{a:?} v {b:?}: {e}"))),
            };
            prop_assert_eq!(outcome.ships.len(), roster.len());
            for (fate, ship) in outcome.ships.iter().zip(roster.ships()) {
                prop_assert_eq!(fate.side, ship.side);
                prop_assert!(fate.hull.0 >= 0 && fate.hull.0 <= fate.hull.1);
            }
            prop_assert!(outcome.lost(Side::A) <= a.len());
            prop_assert!(outcome.lost(Side::B) <= b.len());
            tally.add(&outcome);
        }
        let summary = tally.summary(&roster);
        prop_assert_eq!(summary.ships_lost.a.iter().sum::<u64>(), trials);
        prop_assert_eq!(summary.ships_lost.b.iter().sum::<u64>(), trials);
        prop_assert_eq!(summary.ships_lost.a.len(), a.len() + 1);
        prop_assert_eq!(summary.ships_lost.b.len(), b.len() + 1);
    }
}

/// A fleet run's tally is the same on one thread and on two: trial i draws
/// only from its own stream, and tallies merge by addition. The run spans
/// three of the runner's chunks, so two threads really share it.
#[test]
fn a_fleet_runs_the_same_on_any_number_of_threads() {
    let ruleset: &dyn Ruleset = system();
    let request = fleet_request(
        &["scout", "scout"],
        &["trader"],
        10,
        &[("start-band", text("short"))],
        [&[], &[]],
    );
    let battle = ruleset.prepare_battle(&request).unwrap();
    let one = testing::tally_on_one_and_two_threads(&*battle, 7, 2100);
    let summary = one.summary(battle.roster());
    assert_eq!(summary.trials, 2100);
    assert_eq!(summary.ships_lost.a.iter().sum::<u64>(), 2100);
}

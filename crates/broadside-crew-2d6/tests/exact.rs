//! Exact odds of single attacks: the rules code run over every outcome of its dice, checked against odds reckoned in the test and against Monte Carlo.
//!
//! The reckonings below count every way the dice can fall (an independent
//! enumeration of faces, written here) and apply the seed's arithmetic to
//! each; they share nothing with the rules code but the numbers of the data.

mod common;

use std::collections::BTreeMap;

use broadside_core::exact::{
    DROP_NONE, ExactAttack, ExactError, Prob, enumerate, exact_battle, to_f64, visit_paths,
};
use broadside_core::{
    Dice, Event, EventLog, EventSink, NullSink, ResolveError, Roster, Ruleset, ScriptedDice,
    SeededDice, Setup, ShipFate, TurnSequence,
};
use broadside_crew_2d6::check::{Ask, roll_check};
use broadside_crew_2d6::model::Position;
use broadside_crew_2d6::model::{BAND_IDS, Band};
use broadside_crew_2d6::{
    Action, Battle, CrewTactics, Fleets, Order, Phase, Reactions, Salvo, Sequence,
};
use common::{
    EXACT_ATTACK_PATHS, Sampled, ScriptedTactics, attack_criticals_only, attack_outcome,
    check_exact_against, edited, every_hit_critical, every_roll, exact_every_path, exact_in, flag,
    fleet_request, load, num, resolve_request, sample_attack, sources, sums, text,
    without_criticals,
};
use proptest::prelude::*;

/// A salvo of one smart missile from the scout (TL 12) at the escort (TL
/// 13, armour 5) at Short range, where it attacks at once.
///
/// Seed 004 line 73: the salvo rolls 2D against Average 8+, with DM+1 per
/// missile beyond the first (none here) and the TL difference DM kept
/// within +1 and +6 (12 - 13 = -1 reads as +1); its Effect multiplies one
/// missile's damage (4D less armour 5, the reference's per-missile armour).
///
/// By hand: a hit needs 2D >= 7, 21 rolls in 36, so P(hit) = 7/12. One
/// missile does 4D - 5 (4D is never below 4, so the floor at 0 bites only
/// at 4: E = 14 - 5 + 1/1296). The Effect 2D - 7 is 1 to 5 with 5, 4, 3,
/// 2, 1 rolls in 36 (an Effect of 0 multiplies by 0), so the mean hull
/// damage is (5 + 8 + 9 + 8 + 5)/36 x (9 + 1/1296) = 35/36 x 11665/1296.
#[test]
fn a_missile_salvo_against_the_escort() {
    let exact = exact_in(
        without_criticals(),
        "scout",
        "escort",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("short")),
        ],
    )
    .unwrap();
    assert_eq!(exact.fractions["p_hit"], "7/12");
    assert_eq!(exact.fractions["mean_hull_damage"], "408275/46656");
    let mut hits = 0;
    let mut damage = BTreeMap::new();
    let missile = sums(4);
    for attack in every_roll(2) {
        let effect = attack[0] + attack[1] + 1 - 8;
        for (&sum, &ways) in &missile {
            let d = if effect >= 0 {
                (sum - 5).max(0) * effect
            } else {
                0
            };
            hits += u64::from(effect >= 0) * ways;
            *damage.entry(d).or_insert(0) += ways;
        }
    }
    check_exact_against(&exact, hits, &damage, 36 * 1296);
    assert!(exact.paths < 1000, "{} paths", exact.paths);
}

/// The scout's pilot fires its fixed beam laser at the escort at Medium
/// range, and the escort's pilot dodges.
///
/// Seed 004 line 52: Direct Fire is Gunnery, INT or DEX, Average 8+ (the
/// scout's pilot: Gunner 0, DEX 9 +1, beam laser DM+4, Medium DM 0: +5);
/// line 61: Dodge Attack is Pilot, INT or DEX, Difficult 10+ (the escort's
/// pilot: Pilot 2, INT 9 +1: +3), and its positive Effect is a negative DM
/// to the attack. Damage is the beam laser's 1D + the attack's Effect - the
/// escort's armour 5 (reference, "Attacks and damage").
#[test]
fn a_beam_laser_against_a_dodging_escort() {
    let exact = exact_in(
        without_criticals(),
        "scout",
        "escort",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("medium")),
            ("dodge", flag()),
        ],
    )
    .unwrap();
    let mut hits = 0;
    let mut damage = BTreeMap::new();
    for faces in every_roll(5) {
        let attack = faces[0] + faces[1] + 5;
        let dodged = (faces[2] + faces[3] + 3 - 10).max(0);
        let effect = attack - dodged - 8;
        let d = if effect >= 0 {
            (faces[4] + effect - 5).max(0)
        } else {
            0
        };
        hits += u64::from(effect >= 0);
        *damage.entry(d).or_insert(0) += 1;
    }
    check_exact_against(&exact, hits, &damage, 6u64.pow(5));
    assert!(exact.paths < 5000, "{} paths", exact.paths);
}

/// The corvette's salvo of two missiles against the escort at Short range,
/// met by point defence from the escort's triple beam-laser turret.
///
/// Seed 004 line 63: Point Defence is Gunnery, INT or DEX, Average 8+, with
/// the mount's DM (the escort's gunner: Gunner 2, INT 7 +0, three lasers
/// +2: +4), and its Effect is the missiles destroyed; line 73: what is left
/// attacks with 2D + 1 per missile beyond the first + the TL DM (+1) against
/// 8+, and the Effect multiplies one missile's 4D - 5. A salvo with no
/// missile left makes no attack.
#[test]
fn a_salvo_of_two_against_point_defence() {
    let exact = exact_in(
        without_criticals(),
        "corvette",
        "escort",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("short")),
            ("point-defense", num(1)),
        ],
    )
    .unwrap();
    let mut hits = 0;
    let mut damage = BTreeMap::new();
    let missile = sums(4);
    for faces in every_roll(4) {
        let destroyed = (faces[0] + faces[1] + 4 - 8).clamp(0, 2);
        let attacking = 2 - destroyed;
        let effect = faces[2] + faces[3] + (attacking - 1) + 1 - 8;
        for (&sum, &ways) in &missile {
            let hit = attacking > 0 && effect >= 0;
            let d = if hit { (sum - 5).max(0) * effect } else { 0 };
            hits += u64::from(hit) * ways;
            *damage.entry(d).or_insert(0) += ways;
        }
    }
    check_exact_against(&exact, hits, &damage, 6u64.pow(4) * 1296);
    assert!(exact.paths < 5000, "{} paths", exact.paths);
}

const SHIPS: [&str; 4] = ["scout", "trader", "corvette", "escort"];
const TRIALS: u64 = 3000;

/// Asserts that a proportion from `TRIALS` trials lies within 4 standard
/// errors of the exact probability, give or take one trial: counts are
/// whole, so a result rarer than one in `TRIALS` may still turn up once
/// (and one of probability 0 or 1 must never or always turn up).
fn within(what: &str, exact: f64, count: u64) -> Result<(), TestCaseError> {
    let n = TRIALS as f64;
    let se = (exact * (1.0 - exact) / n).sqrt();
    let seen = count as f64 / n;
    let one = if exact > 0.0 && exact < 1.0 {
        1.0 / n
    } else {
        0.0
    };
    prop_assert!(
        (seen - exact).abs() <= 4.0 * se + one + 1e-9,
        "{what}: exact {exact}, Monte Carlo {seen} (SE {se})"
    );
    Ok(())
}

fn compare(exact: &ExactAttack, counts: &Sampled) -> Result<(), TestCaseError> {
    within("P(hit)", exact.p_hit, counts.hits)?;
    let variance: f64 = exact
        .hull_damage
        .iter()
        .map(|&(d, p)| p * (f64::from(d) - exact.mean_hull_damage).powi(2))
        .sum();
    let se = (variance / TRIALS as f64).sqrt();
    let mean = counts.hull_damage as f64 / TRIALS as f64;
    prop_assert!(
        (mean - exact.mean_hull_damage).abs() <= 4.0 * se + 1e-9,
        "mean hull damage: exact {}, Monte Carlo {mean} (SE {se})",
        exact.mean_hull_damage
    );
    for (name, p) in &exact.results {
        within(name, *p, counts.results.get(name).copied().unwrap_or(0))?;
    }
    for (name, &count) in &counts.results {
        prop_assert!(
            exact.results.iter().any(|(n, _)| n == name),
            "Monte Carlo rolled {name} {count} times; exact odds never do"
        );
    }
    Ok(())
}

/// Paths one attack of the property test may take: enough for a hit's
/// chain of critical hits, few enough for a debug build.
const PROPERTY_PATHS: u64 = 40_000;

/// The reactions a target may make against one attack.
const REACTIONS: [&str; 5] = ["", "dodge", "sand", "point-defense", "ecm"];

proptest! {
    // A fixed seed: the attacks drawn, and so the Monte Carlo runs, are the
    // same on every run.
    #![proptest_config(ProptestConfig {
        cases: 6,
        rng_seed: proptest::test_runner::RngSeed::Fixed(2026),
        ..ProptestConfig::default()
    })]

    /// A seeded Monte Carlo run of a random legal attack agrees with its
    /// exact odds: P(hit), the mean hull damage and the chance of every
    /// result within 4 standard errors. Critical hits of a high Effect
    /// (reference, "Critical hits") are in play: their locations, severities
    /// and dice; the tenths of the hull lost are not, so that one attack
    /// takes one chain of critical hits and a debug build enumerates it
    /// quickly. Attacks whose chains still take more paths are left out.
    #[test]
    fn monte_carlo_agrees_with_exact_odds(
        attacker in 0..SHIPS.len(),
        target in 0..SHIPS.len(),
        weapon in 0..3usize,
        band in 0..4usize,
        aim in 0..=1i64,
        reaction in 0..REACTIONS.len(),
        seed: u64,
    ) {
        let system = attack_criticals_only();
        let rules = &system.rules;
        let class = rules.class(rules.class_id(SHIPS[attacker]).unwrap_or_default());
        let mut weapons: Vec<&str> = class
            .slots
            .iter()
            .map(|s| rules.weapon(s.weapon))
            .filter(|w| w.damage.is_some())
            .map(|w| w.id.as_str())
            .collect();
        weapons.dedup();
        let mut pairs = vec![
            ("weapon", text(weapons[weapon % weapons.len()])),
            ("range-band", text(BAND_IDS[band])),
            ("aim", num(aim)),
        ];
        match REACTIONS[reaction] {
            "" => {}
            "point-defense" => pairs.push(("point-defense", num(1))),
            name => pairs.push((name, flag())),
        }
        let request = resolve_request(system, SHIPS[attacker], SHIPS[target], &pairs);
        prop_assume!(request.is_ok());
        let request = request.unwrap();
        // Only attacks the rules allow: a refusal rolls nothing.
        prop_assume!(attack_outcome(system, &request, &mut SeededDice::new(seed)).is_ok());
        let exact = exact_every_path(system, &request, PROPERTY_PATHS);
        prop_assume!(!matches!(exact, Err(ExactError::TooManyPaths { .. })));
        let exact = exact.unwrap();
        let counts = sample_attack(seed, TRIALS, |dice| attack_outcome(system, &request, dice)).unwrap();
        compare(&exact, &counts)?;
    }
}

proptest! {
    /// However a check asks for its dice, it consumes the same faces in the
    /// same order, and scripted dice read the same roll and Effect; asked
    /// by bands, the faces it keeps are the ones rolled (a report prints
    /// them). Over every outcome, the Effect clamped as the caller reads it
    /// has the same exact distribution asked by bands of the last die, by
    /// bands of the sum, by sum or die by die.
    #[test]
    fn every_way_of_asking_reads_the_same(
        faces in proptest::array::uniform3(1..=6u32),
        bane: bool,
        dm in -6..8i32,
        low in -3..3i32,
        span in 0..8i32,
    ) {
        let high = low + span;
        let count = if bane { 3 } else { 2 };
        let clamped = Ask::bands(dm, 8, |e| e.clamp(low, high));
        let asks = [Ask::Faces, Ask::Sum, Ask::Banded { low, high }, clamped];
        let plain = roll_check(&mut ScriptedDice::new(faces), bane, dm, 8, Ask::Faces).unwrap();
        for ask in asks {
            let mut dice = ScriptedDice::new(faces);
            let result = roll_check(&mut dice, bane, dm, 8, ask).unwrap();
            prop_assert_eq!(dice.used(), count);
            prop_assert_eq!(result.roll, plain.roll);
            prop_assert_eq!(result.effect, plain.effect);
            if ask != Ask::Sum || bane {
                prop_assert_eq!(result.faces, plain.faces);
            }
        }
        let read = |ask: Ask| {
            enumerate(1000, |dice| {
                Ok(roll_check(dice, bane, dm, 8, ask)?.effect.clamp(low, high))
            })
            .unwrap()
            .0
        };
        let by_faces = read(Ask::Faces);
        prop_assert_eq!(&read(Ask::Sum), &by_faces);
        prop_assert_eq!(&read(Ask::Banded { low, high }), &by_faces);
        prop_assert_eq!(&read(clamped), &by_faces);
    }
}

/// A battle of the data of record whose ships follow scripted tactics:
/// core's `Setup` of the fleets, with the tactics swapped.
struct Scripted {
    fleets: Fleets,
    tactics: [ScriptedTactics; 2],
}

impl Setup for Scripted {
    type State = Battle;
    type Tactics = dyn CrewTactics;
    type Sequence<'a> = Sequence<'a>;

    fn sequence(&self) -> Sequence<'_> {
        self.fleets.sequence()
    }
    fn roster(&self) -> &Roster {
        self.fleets.roster()
    }
    fn max_turns(&self) -> u32 {
        self.fleets.max_turns()
    }
    fn tactics(&self) -> [&(dyn CrewTactics + 'static); 2] {
        [&self.tactics[0], &self.tactics[1]]
    }
    fn begin(&self, dice: &mut dyn Dice, sink: &mut dyn EventSink) -> Result<Battle, ResolveError> {
        self.fleets.begin(dice, sink)
    }
    fn fates(&self, battle: &Battle) -> Vec<ShipFate> {
        self.fleets.fates(battle)
    }
}

/// One turn of the trader, at a jump point, against the escort, at the
/// Very Long range of a random encounter: the trader's J-drive Engineer
/// tries to jump whenever the trader acts, and no other order is given.
///
/// Seed 004 line 7: every ship scans, Sensors, EDU or INT, Average 8+, and
/// a side whose scan fails gives the other a free round of actions (the
/// trader's operator: Sensors 0, EDU 7 +0, civilian sensors -2: a success
/// needs 2D >= 10, 6 rolls in 36; the escort's, +5: a failure is 2D = 2, 1
/// in 36). Rulings 26 and 47: the jump is Engineer (J-drive), EDU, Easy
/// 4+ (the trader's engineer: skill 0, EDU 8 +0: 2D >= 4, 33 in 36), and a
/// ship that jumps leaves at the end of the round, its side escaping.
///
/// By hand: with its free round (1/6 x 1/36 = 1/216) the trader tries
/// twice, in the free round and in turn 1; otherwise once. Nothing reaches
/// either ship at Very Long range in one turn. P(A escapes) = 33/36 +
/// 1/216 x 3/36 x 33/36 = 28523/31104, the rest undecided. The same odds
/// come from the default tactics (docs/rules/crew-2d6.md, Exact odds), over
/// far more paths.
#[test]
fn a_trader_jumping_away_from_an_escort() {
    let request = fleet_request(
        &["trader"],
        &["escort"],
        1,
        &[],
        [&[("jump-point", flag())], &[]],
    );
    let system = common::system();
    let fleets = system.fleets(&request).unwrap();
    let rules = &system.rules;
    let trader = rules.class(rules.class_id("trader").unwrap());
    let engineer = trader.holder(Position::EngineerJDrive).unwrap();
    let jump = ScriptedTactics {
        actions: vec![Order {
            person: engineer,
            position: Position::EngineerJDrive,
            action: Action::Jump,
        }],
        ..ScriptedTactics::default()
    };
    let setup = Scripted {
        fleets,
        tactics: [jump, ScriptedTactics::default()],
    };
    let odds = exact_battle(&setup, 10_000, 1_000_000).unwrap();
    assert_eq!(odds.fractions["a_escapes"], "28523/31104");
    assert_eq!(odds.fractions["undecided"], "2581/31104");
    assert_eq!(odds.fractions["pruned"], "0/1");
    assert!(odds.paths < 100_000, "{} paths", odds.paths);
}

/// `resolve --exact` plays an attack in steps, merging equal ships between
/// the pieces of critical-hit work; the odds are those of every dice path
/// followed to the end, critical hits and their chains included, in far
/// fewer paths.
#[test]
fn an_attack_played_in_steps_has_the_odds_of_every_path() {
    // Whether some case rolls armour off or disables a weapon, work the
    // steps leave undone.
    let mut unread_work_reached = false;
    for (system, attacker, target, pairs) in [
        (
            common::system(),
            "trader",
            "escort",
            vec![
                ("weapon", text("beam-laser")),
                ("range-band", text("medium")),
            ],
        ),
        (
            common::system(),
            "corvette",
            "escort",
            vec![
                ("weapon", text("pulse-laser")),
                ("range-band", text("long")),
            ],
        ),
        (
            without_criticals(),
            "scout",
            "escort",
            vec![
                ("weapon", text("missile-rack")),
                ("range-band", text("short")),
            ],
        ),
        // A salvo's Effect critical hit starts high (damage / 10, rounded
        // up): armour rolled off and weapons disabled, which the steps
        // leave undone since no figure reads them.
        (
            every_hit_critical(),
            "scout",
            "escort",
            vec![
                ("weapon", text("missile-rack")),
                ("range-band", text("short")),
            ],
        ),
    ] {
        let case = format!("{attacker} at {target} with {pairs:?}");
        let request = resolve_request(system, attacker, target, &pairs).unwrap();
        let every_path = exact_in(system, attacker, target, &pairs).unwrap();
        let stepped =
            Ruleset::resolve_exact(system, &request, EXACT_ATTACK_PATHS, DROP_NONE).unwrap();
        assert_eq!(stepped.fractions, every_path.fractions, "{case}");
        unread_work_reached |= stepped.results.iter().any(|(name, p)| {
            *p > 0.0
                && [
                    "critical hit: Armour severity 2",
                    "critical hit: Armour severity 3",
                    "critical hit: Weapon severity 2",
                ]
                .contains(&name.as_str())
        });
        assert!(
            stepped.paths <= every_path.paths,
            "{case}: {} paths",
            stepped.paths
        );
    }
    assert!(unread_work_reached, "no case reaches the work left undone");
}

/// A salvo at a small hull sets off chains of critical hits that few dice
/// paths share (every tenth of the scout's 40 hull points is another rolled
/// location), too many to follow whole. Kept within a budget of states
/// carried between steps, the least likely are dropped and their mass
/// reported: the figures sum to one less it, the chance of a hit is still
/// exact, and every other figure lies at most that far below what seeded
/// Monte Carlo sees (within 4 standard errors).
#[test]
fn a_salvo_at_a_small_hull_drops_its_least_likely_states_and_says_how_much() {
    let system = common::system();
    let pairs = [
        ("weapon", text("missile-rack")),
        ("range-band", text("short")),
    ];
    let request = resolve_request(system, "corvette", "scout", &pairs).unwrap();
    let exact =
        Ruleset::resolve_exact(system, &request, EXACT_ATTACK_PATHS, Prob::new(1, 10_000)).unwrap();
    assert!(exact.pruned > 0.0, "nothing dropped");
    let held: f64 = exact.hull_damage.iter().map(|(_, p)| p).sum();
    assert!(
        (held + exact.pruned - 1.0).abs() < 1e-9,
        "held {held}, dropped {}",
        exact.pruned
    );
    let sampled = sample_attack(7, TRIALS, |dice| attack_outcome(system, &request, dice)).unwrap();
    let (hits, wrecks) = (
        sampled.hits,
        sampled.results.get("wrecked").copied().unwrap_or(0),
    );
    let wrecked = exact
        .results
        .iter()
        .find(|(name, _)| name == "wrecked")
        .map_or(0.0, |&(_, p)| p);
    // A state dropped still counts as the hit it was: P(hit) stays exact.
    // A later figure may lie below its true value by up to the mass dropped.
    for (what, p, count, dropped) in [
        ("P(hit)", exact.p_hit, hits, 0.0),
        ("P(wrecked)", wrecked, wrecks, exact.pruned),
    ] {
        let n = TRIALS as f64;
        let seen = count as f64 / n;
        let se = (seen * (1.0 - seen) / n).sqrt();
        assert!(
            seen >= p - 4.0 * se && seen <= p + dropped + 4.0 * se,
            "{what}: exact {p} (+ up to {dropped} dropped), Monte Carlo {seen} (SE {se})"
        );
    }
}

/// The scout's pilot fires its fixed beam laser at the trader at Short
/// range, and the trader's gunner fires sand; with `add_effect`, under the
/// house-rule option `sand.add-effect = true` (Ruling 8's alternative: the
/// core rules' 1D + the sand check's Effect). The exact odds, against
/// odds reckoned by hand.
///
/// Seed 004 line 52: Direct Fire is Gunnery, INT or DEX, Average 8+ (the
/// scout's pilot: Gunner 0, DEX 9 +1, beam laser DM+4, Short DM+1: +6);
/// line 67: Fire Sand is Gunnery, INT or DEX, Average 8+ (the trader's
/// gunner: Gunner 0, DEX 8 +0), and a success takes 1D off the damage
/// (with the option, the check's Effect too). Damage is the beam laser's
/// 1D + the attack's Effect - the trader's armour 1, at least 0, less the
/// sand, at least 0. The sand check is rolled hit or miss, its 1D only on
/// a success.
fn check_beam_laser_against_sand(add_effect: bool) {
    let files = edited(&sources(), "criticals.toml", "effect = 6 ", "effect = 30 ");
    let mut files = edited(
        &files,
        "criticals.toml",
        "sustained-percent = 10 ",
        "sustained-percent = 100 ",
    );
    if add_effect {
        files = edited(
            &files,
            "rules.toml",
            "add-effect = false",
            "add-effect = true",
        );
    }
    let exact = exact_in(
        &load(&files),
        "scout",
        "trader",
        &[
            ("weapon", text("beam-laser")),
            ("range-band", text("short")),
            ("sand", flag()),
        ],
    )
    .unwrap();
    let mut hits = 0;
    let mut damage = BTreeMap::new();
    for faces in every_roll(6) {
        let effect = faces[0] + faces[1] + 6 - 8;
        let sand_effect = faces[2] + faces[3] - 8;
        // Without a sand success no 1D is rolled for it: the next die is
        // the damage die, and the last one is not rolled.
        let (sand, damage_die) = match (sand_effect >= 0, add_effect) {
            (true, true) => (faces[4] + sand_effect, faces[5]),
            (true, false) => (faces[4], faces[5]),
            (false, _) => (0, faces[4]),
        };
        let d = if effect >= 0 {
            ((damage_die + effect - 1).max(0) - sand).max(0)
        } else {
            0
        };
        hits += u64::from(effect >= 0);
        *damage.entry(d).or_insert(0) += 1;
    }
    check_exact_against(&exact, hits, &damage, 6u64.pow(6));
}

/// Sand as the cheat sheet has it: a success takes 1D off (Ruling 8).
#[test]
fn a_beam_laser_against_sand() {
    check_beam_laser_against_sand(false);
}

/// Sand under the option that takes the check's Effect off as well.
#[test]
fn a_beam_laser_against_sand_that_takes_its_effect_off() {
    check_beam_laser_against_sand(true);
}

/// The escort's one missile at the trader at Short range in a battle, with
/// no reaction, as the missile step strikes it (no single-attack report):
/// 2D + 2 (TL 13 - 11) against 8, the Effect multiplying one missile's 4D
/// less armour 1. Critical hits are off, so a path ends with the damage.
fn strike_one_missile(dice: &mut dyn Dice, sink: &mut dyn EventSink) -> Result<(), ResolveError> {
    let system = without_criticals();
    let mut battle = common::battle_in(system, "escort", "trader", Band::Short);
    let salvo = Salvo {
        owner: common::A,
        target: common::B,
        weapon: system.rules.weapon_id("missile-rack").unwrap(),
        missiles: 1,
        rounds_left: 0,
        tl: 13,
        smart: true,
        bane: false,
        dm: 0,
    };
    system.strike_salvo(&mut battle, &salvo, &Reactions::default(), dice, sink)?;
    Ok(())
}

/// The log prints a check's faces, so with a log the salvo's attack dice
/// are rolled die by die even by a source that enumerates every outcome:
/// over every path, the first face of the salvo attack in the log shows
/// each face with a chance of one in six, as a die does.
#[test]
fn a_logged_salvo_attack_shows_real_faces_on_every_path() {
    let mut chance = [0.0; 6];
    visit_paths(
        1_000_000,
        |dice| {
            let mut log = EventLog::default();
            strike_one_missile(dice, &mut log)?;
            let face = log.events.iter().find_map(|e| match e {
                Event::Roll { purpose, faces, .. } if purpose == "salvo attack" => Some(faces[0]),
                _ => None,
            });
            Ok(face.expect("the salvo attack's roll"))
        },
        |face, p| chance[face as usize - 1] += to_f64(&p),
    )
    .unwrap();
    for (face, chance) in chance.into_iter().enumerate() {
        assert!(
            (chance - 1.0 / 6.0).abs() < 1e-12,
            "face {}: chance {chance}",
            face + 1
        );
    }
}

/// With no log nothing reads the salvo's faces, so a source that
/// enumerates every outcome is asked only for what the rules tell apart:
/// every miss (2D of 2 to 5) is one path, each hit's Effect (2D of 6 to 12,
/// Effect 0 to 6) another, and each sum of the missile's 4D (4 to 24)
/// another under a hit: 1 + 7 x 21 paths, not one per sum of the 2D.
#[test]
fn a_salvo_attack_without_a_log_branches_on_its_bands() {
    let paths = visit_paths(
        1_000_000,
        |dice| strike_one_missile(dice, &mut NullSink),
        |(), _| {},
    )
    .unwrap();
    assert_eq!(paths, 1 + 7 * 21);
}

/// How many dice paths a source that enumerates every outcome follows
/// through one step of the scout against the escort at Short range, with
/// no log (so nothing prints the faces).
fn paths_of(step: impl Fn(&mut Battle, &mut dyn Dice) -> Result<(), ResolveError>) -> u64 {
    visit_paths(
        1_000_000,
        |dice| {
            let mut battle = common::battle("scout", "escort", Band::Short);
            step(&mut battle, dice)
        },
        |(), _| {},
    )
    .unwrap()
}

/// The scout's orders for one attack step, as [`paths_of`] plays them.
fn attack_step_paths(order: Order, at_jump_point: bool) -> u64 {
    paths_of(|battle, dice| {
        battle.states[0].at_jump_point = at_jump_point;
        let scout = ScriptedTactics {
            actions: vec![order],
            ..ScriptedTactics::default()
        };
        let idle = ScriptedTactics::default();
        let tactics: [&dyn CrewTactics; 2] = [&scout, &idle];
        common::system().attack_step(battle, [true, false], tactics, dice, &mut NullSink)
    })
}

/// Each maneuver-step check is read only as far as its rule reads it, so
/// an enumerating source follows one path per reading, not one per 2D sum.
/// The scout's Pilot (Pilot 2, DEX 9 +1, INT 8 +0):
/// - Maneuver Ship, Routine 6+ (seed 004; Rulings 23: a failure applies no
///   thrust): success or failure, 2 paths;
/// - Line up shot, Average 8+, its Effect chained (seed 004): 2D + 3 - 8
///   runs from -3 to +7, which the task-chain table reads as DM -2 (-3,
///   -2), -1, 0, +1 (+1 to +5) and +2 (+6, +7): 5 paths.
#[test]
fn maneuver_step_checks_branch_on_what_their_rules_read() {
    let system = common::system();
    let maneuver = paths_of(|battle, dice| {
        battle.states[0].thrust_left = 2;
        system.maneuver(battle, common::A, common::B, 1, dice, &mut NullSink)
    });
    assert_eq!(maneuver, 2, "Maneuver Ship: success or failure");
    let line_up = paths_of(|battle, dice| {
        battle.states[0].thrust_left = 2;
        system.line_up_shot(battle, common::A, 0, common::B, dice, &mut NullSink)
    });
    assert_eq!(line_up, 5, "Line up shot: one path per chain DM");
}

/// Each attack-step check is read only as far as its rule reads it (seed
/// 004, the Attack Step), so an enumerating source follows one path per
/// reading, not one per 2D sum. The scout's crew:
/// - Inspire (the Captain: Leadership 1, SOC 6 +0; Average 8+), chained
///   into next turn's initiative: 2D + 1 - 8 runs from -5 to +5, read as
///   DM -2, -1, 0 and +1: 4 paths;
/// - Scan and Communicate (Rulings 49: no effect beyond the check): 1 path
///   each;
/// - Jam Sensors (Electronics (sensors) 2, INT 9 +1; Average 8+), "any
///   positive Effect": 2D + 3 - 8 runs from -3 to +7, read as 0 (no
///   jamming) or +1 to +7: 8 paths;
/// - Find Targeting Solution (the same DMs), chained into one gunner's
///   attack: DM -2, -1, 0, +1, +2: 5 paths;
/// - Activate Jump (Engineer (J-drive) 1, EDU 9 +1; Easy 4+): 2D + 2
///   always succeeds: 1 path.
#[test]
fn attack_step_checks_branch_on_what_their_rules_read() {
    let sensors = |action| Order {
        person: 1,
        position: Position::Sensors,
        action,
    };
    let inspire = Order {
        person: 0,
        position: Position::Captain,
        action: Action::Inspire,
    };
    assert_eq!(attack_step_paths(inspire, false), 4, "Inspire");
    assert_eq!(attack_step_paths(sensors(Action::Scan), false), 1, "Scan");
    let communicate = Order {
        person: 1,
        position: Position::Comms,
        action: Action::Communicate,
    };
    assert_eq!(attack_step_paths(communicate, false), 1, "Communicate");
    let jam = sensors(Action::JamSensors { target: common::B });
    assert_eq!(attack_step_paths(jam, false), 8, "Jam Sensors");
    let solution = sensors(Action::TargetingSolution {
        mount: 0,
        target: common::B,
    });
    assert_eq!(attack_step_paths(solution, false), 5, "Targeting Solution");
    let jump = Order {
        person: 2,
        position: Position::EngineerJDrive,
        action: Action::Jump,
    };
    assert_eq!(attack_step_paths(jump, true), 1, "Activate Jump");
}

/// Seed 004, line 5: "Near a planet or other object = Medium (1-2 on a d6)
/// to Long (3-6 on a d6)"; line 7: every ship scans, Average 8+, read only
/// as success or failure. Setting up the scout and the escort near an
/// object, an enumerating source follows the d6 by the table's two rows
/// and each scan by its success (2 x 2 x 2 paths), and the ships start at
/// Medium with a chance of 2 in 6.
#[test]
fn setting_up_near_an_object_branches_on_the_rows_and_the_scans() {
    let setup = broadside_crew_2d6::Setup {
        near_object: true,
        ..broadside_crew_2d6::Setup::default()
    };
    let mut medium = 0.0;
    let paths = visit_paths(
        1_000_000,
        |dice| {
            let mut battle = common::battle("scout", "escort", Band::VeryLong);
            common::system().set_up(&mut battle, &setup, dice, &mut NullSink)?;
            Ok(battle.pairs[0].band)
        },
        |band, p| {
            if band == Band::Medium {
                medium += to_f64(&p);
            }
        },
    )
    .unwrap();
    assert_eq!(paths, 8);
    assert!((medium - 1.0 / 3.0).abs() < 1e-12, "P(Medium) {medium}");
}

/// A step of a one-against-one battle's sequence, played as exact odds
/// play it (step by step), with no orders given.
fn play_step_of(sequence: &Sequence<'_>, phase: Phase, turn: u32, step: u32, battle: &mut Battle) {
    let idle = ScriptedTactics::default();
    sequence
        .play_step(
            phase,
            turn,
            step,
            battle,
            [&idle, &idle],
            &mut ScriptedDice::new([]),
            &mut NullSink,
        )
        .unwrap();
}

/// Exact odds merge states that differ only in what no later step reads
/// (docs/rules/crew-2d6.md, Exact odds). Seed 004: initiative orders the
/// turn's steps, so once the order is settled the totals are read no more
/// and are forgotten; the order itself stays.
#[test]
fn exact_steps_forget_initiative_once_the_order_is_settled() {
    let system = common::system();
    let setup = broadside_crew_2d6::Setup::default();
    let sequence = Sequence {
        system,
        setup: &setup,
        ships: 2,
        last_turn: 10,
    };
    let mut battle = common::battle("scout", "escort", Band::Long);
    battle.order = vec![common::A, common::B];
    battle.states[0].initiative = 7;
    battle.states[1].initiative = 12;
    play_step_of(&sequence, Phase::Initiative, 1, 2, &mut battle);
    assert_eq!(
        battle.order,
        [common::B, common::A],
        "the higher total first"
    );
    assert_eq!(
        (battle.states[0].initiative, battle.states[1].initiative),
        (0, 0)
    );
}

/// Seed 004: Inspire chains into "the initiative roll on the next turn",
/// burned initiative costs "-2 Initiative on the next turn", jamming
/// counts "for the next turn", and a salvo at Long or farther attacks in
/// a later round. So a step of the last turn played for exact odds
/// forgets them all, while a step of an earlier turn keeps them.
#[test]
fn exact_steps_of_the_last_turn_forget_what_only_the_next_turn_reads() {
    let system = common::system();
    let setup = broadside_crew_2d6::Setup::default();
    let sequence = Sequence {
        system,
        setup: &setup,
        ships: 2,
        last_turn: 3,
    };
    let carried = || {
        let mut battle = common::battle("scout", "escort", Band::Long);
        battle.states[0].inspire_dm = 1;
        battle.states[0].burn_penalty = -2;
        battle.states[1].jam_sensors_next = -3;
        battle.states[1].jam_comms_next = -1;
        battle.salvos.push(Salvo {
            owner: common::A,
            target: common::B,
            weapon: system.rules.weapon_id("missile-rack").unwrap(),
            missiles: 1,
            rounds_left: 1,
            tl: 12,
            smart: true,
            bane: false,
            dm: 0,
        });
        battle
    };
    let kept = |battle: &Battle| {
        (
            battle.states[0].inspire_dm,
            battle.states[0].burn_penalty,
            battle.states[1].jam_sensors_next,
            battle.states[1].jam_comms_next,
            battle.salvos.len(),
        )
    };
    let mut earlier = carried();
    play_step_of(&sequence, Phase::Attack, 2, 0, &mut earlier);
    assert_eq!(kept(&earlier), (1, -2, -3, -1, 1), "turn 2 of 3");
    let mut last = carried();
    play_step_of(&sequence, Phase::Attack, 3, 0, &mut last);
    assert_eq!(kept(&last), (0, 0, 0, 0, 0), "turn 3 of 3");
}

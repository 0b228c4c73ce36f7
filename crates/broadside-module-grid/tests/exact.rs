//! Exact odds of single attacks: the rules code run over every outcome of its dice, checked against arithmetic done here and against seeded sampling.
//!
//! Each figure below is worked out by hand or by counting dice in the test,
//! never by calling the rules again. The to-hit rule is the ruling of
//! `rules.toml` `[to-hit]`: two dice + Gunnery against 7 + range. The scout
//! (Gunnery 2, Size 1, Luck 2) is struck on its fore side with the centre
//! mark at 2,2 as the "7": a total of 6 lands on column 1 (the Science Bay
//! at 2,1, then the Engine at 3,1), 7 on column 2 (the Cannon at 1,2, the
//! Helm at 2,2, the Cargo Bay at 3,2), 8 on column 3 (the Shields at 2,3,
//! then the Engine at 3,3); any other total misses the silhouette. So a hit
//! lands on the ship 16 times in 36, on the Cannon's column 6 in 36.

mod common;

use std::collections::BTreeMap;

use broadside_core::exact::Prob;
use common::{check_fraction, exact, num, sample, text, within_four_errors};
use proptest::prelude::*;

fn p(num: u128, den: u128) -> Prob {
    Prob::new(num, den)
}

/// Every way `count` dice fall, as face lists (6^count of them).
fn rolls(count: u32) -> impl Iterator<Item = Vec<u32>> {
    (0..6u32.pow(count)).map(move |roll| (0..count).map(|i| roll / 6u32.pow(i) % 6 + 1).collect())
}

/// The chance that something holds of `count` dice, by counting.
fn chance(count: u32, holds: impl Fn(&[u32]) -> bool) -> Prob {
    let ways = rolls(count).filter(|faces| holds(faces)).count();
    p(ways as u128, 6u128.pow(count))
}

/// The expected value of a whole-number function of `count` dice.
fn expected(count: u32, value: impl Fn(&[u32]) -> u128) -> Prob {
    let total: u128 = rolls(count).map(|faces| value(&faces)).sum();
    p(total, 6u128.pow(count))
}

/// The lowest `keep` of some faces, highest first: what the Shields leave.
fn kept(faces: &[u32], keep: usize) -> Vec<u32> {
    let mut sorted = faces.to_vec();
    sorted.sort_unstable();
    sorted.truncate(keep);
    sorted.reverse();
    sorted
}

/// A hull check the scout cannot make at once, needing 3 on two dice with
/// Luck 2 and no Hull Stabilizer (seed 003 line 91: "Any character on board
/// the ship may spend Luck to reroll a hull check die ... If the ship runs
/// out of Luck and hasn't rolled high enough ... the ship explodes"): only
/// 1, 1 fails, then each Luck reroll of a 1 fails only on another 1, so the
/// ship explodes 1 time in 36 x 6 x 6.
fn scout_explodes_at_check_3() -> Prob {
    p(1, 36 * 6 * 6)
}

/// A Multi shot (seed 003 line 7: "a Cannon in Multi configuration delivers
/// damage at a Guns power of 1") from a scout at a scout 1 hex off: to hit,
/// two dice + 2 against 8, so 6 or more: 26 in 36. The hit rolls 1 + Shields
/// 2 = 3 dice and keeps the lowest (seed 003 line 56: "take away a number of
/// the highest dice equal to the Shields level"). On the ship the kept die
/// does its face in hull damage and breaks the module of impact on 4-6
/// (line 62); the lowest of three dice is at least m with chance
/// ((7 - m)/6)^3, so its mean is (216 + 125 + 64 + 27 + 8 + 1)/216 =
/// 441/216 and it breaks the module 27 times in 216. Off the silhouette it
/// does 1 hull damage (line 68). Hull damage of 3 or more calls for a hull
/// check of 1 or 2 after Size 1, which two dice cannot fail (lines 84-86 and
/// the chart): it holds.
#[test]
fn a_multi_shot_keeps_the_lowest_of_three_dice() {
    let odds = exact(
        "scout",
        "scout",
        &[("range", num(1)), ("mode", text("multi"))],
    );
    let hit = p(26, 36);
    let on = p(16, 36);
    let off = p(20, 36);
    check_fraction(&odds, "p_hit", hit);
    check_fraction(&odds, "mean_hull_damage", hit * (on * p(441, 216) + off));
    check_fraction(&odds, "damage 0", p(1, 1) - hit);
    check_fraction(&odds, "damage 1", hit * (off + on * p(91, 216)));
    check_fraction(
        &odds,
        "result cannon at 1,2 broken",
        hit * p(6, 36) * p(27, 216),
    );
    check_fraction(
        &odds,
        "result science at 2,1 broken",
        hit * p(5, 36) * p(27, 216),
    );
    check_fraction(
        &odds,
        "destroyed cannon at 1,2",
        hit * p(6, 36) * p(27, 216),
    );
    check_fraction(&odds, "result the line misses the silhouette", hit * off);
    check_fraction(&odds, "result hull check holds", hit * on * p(64, 216));
    assert!(odds.paths < 10_000, "{} paths for a Multi shot", odds.paths);
}

/// A Standard shot (seed 003 line 52: "power equal to the Guns of the
/// firing ship") from a scout (Guns 2) at a scout brought to Shields 1, 1
/// hex off: to hit 26 in 36 as above. The hit rolls 2 + 1 = 3 dice and
/// keeps the lowest two (line 56), laid highest first from the module of
/// impact onward (lines 58-60): the higher kept die on the first module of
/// the column, the lower on the second. Every column the hit can land on
/// holds at least two modules, so on the ship the hull damage is the sum of
/// the two kept dice; off it, 1 for each (line 68). The Cannon at 1,2 is the
/// first module of column 2 and the Helm at 2,2 the second. Hull damage of
/// 10 or more calls for a hull check of 4 less Size 1 = 3 (line 91, the
/// chart), which the scout fails as worked out above.
#[test]
fn a_standard_shot_lays_the_two_lowest_of_three_dice() {
    let odds = exact("scout", "scout", &[("range", num(1)), ("shields", num(1))]);
    let hit = p(26, 36);
    let on = p(16, 36);
    let off = p(20, 36);
    let sum = expected(3, |f| kept(f, 2).iter().map(|&d| u128::from(d)).sum());
    let higher_breaks = chance(3, |f| kept(f, 2)[0] >= 4);
    let lower_breaks = chance(3, |f| kept(f, 2)[1] >= 4);
    let ten_or_more = chance(3, |f| kept(f, 2).iter().sum::<u32>() >= 10);
    check_fraction(&odds, "p_hit", hit);
    check_fraction(&odds, "mean_hull_damage", hit * (on * sum + off * p(2, 1)));
    check_fraction(
        &odds,
        "result cannon at 1,2 broken",
        hit * p(6, 36) * higher_breaks,
    );
    check_fraction(
        &odds,
        "result helm at 2,2 broken",
        hit * p(6, 36) * lower_breaks,
    );
    check_fraction(
        &odds,
        "destroyed the scout itself",
        hit * on * ten_or_more * scout_explodes_at_check_3(),
    );
    assert!(
        odds.paths < 100_000,
        "{} paths for three dice keeping two",
        odds.paths
    );
}

/// A Standard shot at point blank (range 0: to hit, two dice + 2 against 7,
/// so 5 or more: 30 in 36) at a scout whose Shields are down: both dice
/// are kept (seed 003 line 56, Shields 0 remove none). On the ship the hull
/// damage is their sum, 7 on average; off it, 2. Both dice break their
/// modules on 4-6 (line 62): the lower of two is 4 or more 9 times in 36. A
/// sum of 10 or more (6 ways in 36) calls for the hull check of 3 the scout
/// fails 1 time in 1296 (line 91), and the ship explodes.
#[test]
fn a_shot_through_no_shields_can_explode_the_scout() {
    let odds = exact("scout", "scout", &[("range", num(0)), ("shields", num(0))]);
    let hit = p(30, 36);
    let on = p(16, 36);
    let off = p(20, 36);
    check_fraction(&odds, "p_hit", hit);
    check_fraction(
        &odds,
        "mean_hull_damage",
        hit * (on * p(7, 1) + off * p(2, 1)),
    );
    check_fraction(
        &odds,
        "result helm at 2,2 broken",
        hit * p(6, 36) * p(9, 36),
    );
    let explodes = hit * on * p(6, 36) * scout_explodes_at_check_3();
    check_fraction(
        &odds,
        "result hull check fails: the ship explodes",
        explodes,
    );
    check_fraction(&odds, "destroyed the scout itself", explodes);
    let total: f64 = odds.hull_damage.iter().map(|(_, q)| q).sum();
    assert!((total - 1.0).abs() < 1e-12, "hull damage sums to {total}");
}

/// Whether the scout (Luck 2, no Hull Stabilizer) explodes at a hull check
/// needing `needed` on two dice, from the first two faces and the faces of
/// up to two Luck rerolls: while the total falls short and Luck is left,
/// the lowest die is rolled again (seed 003 line 91).
fn scout_explodes(needed: u32, faces: [u32; 2], rerolls: [u32; 2]) -> bool {
    let mut dice = faces;
    for reroll in rerolls {
        if dice[0] + dice[1] >= needed {
            return false;
        }
        let lowest = usize::from(dice[1] < dice[0]);
        dice[lowest] = reroll;
    }
    dice[0] + dice[1] < needed
}

/// The chance the scout explodes after a hit that leaves it with `hull`
/// hull damage, by counting every roll of the check and its rerolls: the
/// chart's check (seed 003 line 88) less Size 1; a check of 2 or less
/// cannot fail.
fn scout_explodes_at(hull: u32) -> Prob {
    let chart = [1, 3, 6, 10, 15, 21, 28]
        .iter()
        .filter(|&&at| hull >= at)
        .count() as u32;
    let needed = chart.saturating_sub(1);
    if needed <= 2 {
        return p(0, 1);
    }
    chance(4, |f| scout_explodes(needed, [f[0], f[1]], [f[2], f[3]]))
}

/// A Standard shot with `power` Guns at the scout (Shields 2), 1 hex off on
/// its fore side, that hits with chance `hit`: `power + 2` dice, the two
/// highest removed (seed 003 line 56), the rest laid highest first from the
/// module of impact (lines 58-60). Columns 1 and 3 (totals 6 and 8, 5 ways
/// in 36 each) hold two modules and column 2 (a 7, 6 ways) three; each die
/// on a module does its face in hull damage and breaks it on 4-6 (line 62),
/// each die past the silhouette or off it does 1 (line 68). Every figure is
/// counted here over the ordered rolls of the damage dice and of the hull
/// check.
fn check_standard_at_scout(attacker: &str, power: u32, hit: Prob) {
    let odds = exact(attacker, "scout", &[("range", num(1))]);
    let count = power + 2;
    let keep = power as usize;
    let every = u128::from(6u32.pow(count));
    // Hull damage with `modules` kept dice on modules and the rest past.
    let hull = |faces: &[u32], modules: usize| -> u32 {
        let kept = kept(faces, keep);
        let on: u32 = kept.iter().take(modules).sum();
        on + kept.len().saturating_sub(modules) as u32
    };
    let lanes = [(p(5, 36), 2), (p(6, 36), 3), (p(5, 36), 2)];
    let off = p(20, 36);
    let mut mean = off * p(u128::from(power), 1);
    let mut explodes = off * scout_explodes_at(power);
    for (lane, modules) in lanes {
        mean += lane * expected(count, |f| u128::from(hull(f, modules)));
        let mut by_hull = BTreeMap::new();
        for faces in rolls(count) {
            *by_hull.entry(hull(&faces, modules)).or_insert(0u128) += 1;
        }
        for (h, ways) in by_hull {
            explodes += lane * p(ways, every) * scout_explodes_at(h);
        }
    }
    check_fraction(&odds, "p_hit", hit);
    check_fraction(&odds, "mean_hull_damage", hit * mean);
    // The Cannon at 1,2 takes the highest kept die, the Helm at 2,2 the
    // next.
    check_fraction(
        &odds,
        "result cannon at 1,2 broken",
        hit * p(6, 36) * chance(count, |f| kept(f, keep)[0] >= 4),
    );
    check_fraction(
        &odds,
        "result helm at 2,2 broken",
        hit * p(6, 36) * chance(count, |f| kept(f, keep)[1] >= 4),
    );
    check_fraction(&odds, "destroyed the scout itself", hit * explodes);
    assert!(
        odds.paths < 2_000,
        "{attacker}: {} paths for {count} dice keeping {keep}",
        odds.paths
    );
}

/// Two shots that once took more than 2,000,000 dice paths: the
/// destroyer's Standard shot (Guns 4, Gunnery 2: two dice + 2 against 8,
/// 26 in 36) and the cruiser's (Guns 5, Gunnery 3 as a professional, the
/// best two of three dice: + 3 against 8, so the best two at 5 or more,
/// all but the 11 rolls whose best two total 4 or less: 205 in 216), both
/// at the scout.
#[test]
fn the_standard_shots_of_the_destroyer_and_cruiser_fit() {
    check_standard_at_scout("destroyer", 4, chance(2, |f| f[0] + f[1] >= 6));
    let best_two = |f: &[u32]| f.iter().sum::<u32>() - f.iter().min().copied().unwrap_or(0);
    let cruiser_hits = chance(3, |f| best_two(f) >= 5);
    assert_eq!(cruiser_hits, p(205, 216));
    check_standard_at_scout("cruiser", 5, cruiser_hits);
}

const SHIPS: [&str; 4] = ["scout", "frigate", "destroyer", "cruiser"];
const SIDES: [&str; 4] = ["fore", "aft", "port", "starboard"];
const MODES: [&str; 4] = ["standard", "long", "multi", "fusion"];

proptest! {
    // The attacks and the seeds of their samples are drawn from a fixed
    // seed, so that a run repeats exactly.
    #![proptest_config(ProptestConfig {
        cases: 8,
        rng_seed: proptest::test_runner::RngSeed::Fixed(2026),
        ..ProptestConfig::default()
    })]

    /// Any legal attack, sampled 3,000 times with seeded dice, agrees with
    /// its exact odds: P(hit), the mean hull damage and the chance of every
    /// result and of every module destroyed lie within four standard errors
    /// (the standard errors from the exact distribution), and the sample
    /// sees no result the exact odds rule out. Guns and Shields are kept
    /// small so that each exact run stays quick.
    #[test]
    fn sampled_attacks_agree_with_their_exact_odds(
        attacker in 0usize..4,
        target in 0usize..4,
        range in 0i64..6,
        side in 0usize..4,
        mode in 0usize..4,
        guns in 0i64..3,
        shields in 0i64..3,
        seed: u64,
    ) {
        // Fusion needs a Fusion Node: only the cruiser has one.
        let mode = if mode == 3 && attacker != 3 { 0 } else { mode };
        let options = [
            ("range", num(range)),
            ("side", text(SIDES[side])),
            ("mode", text(MODES[mode])),
            ("guns", num(guns)),
            ("shields", num(shields)),
        ];
        let (a, t) = (SHIPS[attacker], SHIPS[target]);
        let odds = exact(a, t, &options);
        let n = 3_000;
        let seen = sample(a, t, &options, seed, n);
        prop_assert!(within_four_errors(seen.hits, n, odds.p_hit), "P(hit) {} against {}/{n}", odds.p_hit, seen.hits);
        let variance: f64 = odds
            .hull_damage
            .iter()
            .map(|&(d, q)| q * (f64::from(d) - odds.mean_hull_damage).powi(2))
            .sum();
        let error = (variance / n as f64).sqrt().max(1.0 / n as f64);
        let mean = seen.hull_damage as f64 / n as f64;
        prop_assert!((mean - odds.mean_hull_damage).abs() <= 4.0 * error, "mean hull damage {} against {mean}", odds.mean_hull_damage);
        for (figures, counted) in [(&odds.results, &seen.results), (&odds.destroyed, &seen.destroyed)] {
            for (name, q) in figures {
                let count = counted.get(name).copied().unwrap_or(0);
                prop_assert!(within_four_errors(count, n, *q), "{name}: {q} against {count}/{n}");
            }
            for name in counted.keys() {
                prop_assert!(figures.iter().any(|(n, _)| n == name), "{name} was sampled but has no exact odds");
            }
        }
    }
}

/// A duel of drones: a test ship of one Cannon and one Engine, standing
/// still (Speed 0), Guns 1, no Shields, no Luck, no Science Bay and 27 hull
/// damage already on its record sheet, so that every hit calls for a hull
/// check (seed 003 line 84: "each time it is hit thereafter") of 7 less
/// Size 1 at 28 or more (line 86 and the chart), which two dice fail 10
/// times in 36 (line 91). Multi shots are limited to one a turn, so each
/// drone fires one shot a turn.
fn drones() -> broadside_module_grid::ModuleGrid {
    let mut files = common::edited("ships.toml", |text| {
        text.push_str(
            r#"
[drone]
name = "Drone"
source = "test ship: a Cannon and an Engine"
size = 1
shields = 0
guns = 1
speed = 0
luck = 0
missiles = 0
bombs = 0
hull-damage = 27
centre = "1,1"
layout = [
  ["cannon"],
  ["engine"],
]
occupants = {}
crew = { gunnery = 2, piloting = 0, science = 0, engineering = 0, professional = [] }
"#,
        );
    });
    let rules = files
        .iter_mut()
        .find(|f| f.name == "rules.toml")
        .expect("rules.toml is embedded");
    let multi = rules.text.find("[mode.multi]").expect("a Multi mode");
    let at = multi
        + rules.text[multi..]
            .find("shots-per-turn = 2")
            .expect("Multi fires twice a turn");
    rules
        .text
        .replace_range(at..at + "shots-per-turn = 2".len(), "shots-per-turn = 1");
    broadside_module_grid::ModuleGrid::load(&files).expect("the trimmed data loads")
}

/// Exact engagements: the drone duel (one turn, a hex apart) played over
/// every outcome of its dice agrees with 20,000 seeded trials within four
/// standard errors, and its outcomes and the mass dropped add up to one.
/// The duel of scouts below is the data of record's.
#[test]
fn an_exact_duel_agrees_with_sampled_trials() {
    use broadside_core::{Engagement, run_trials};
    let system = drones();
    let request = common::duel_request("drone", "drone", 1, &[("start-range", num(1))]);
    let duel = system.duel(&request).expect("the duel sets up");
    let odds = duel.exact(200_000, 20_000_000).expect("the duel fits");
    let total = odds.a_wins
        + odds.b_wins
        + odds.draws
        + odds.a_escapes
        + odds.b_escapes
        + odds.undecided
        + odds.pruned;
    assert!((total - 1.0).abs() < 1e-12, "the outcomes sum to {total}");
    assert_eq!(odds.pruned, 0.0);
    // Both sides win sometimes: the duel is decided often enough to test.
    assert!(odds.a_wins > 0.1 && odds.b_wins > 0.1, "{odds:?}");
    let trials = 20_000;
    let tally = run_trials(&duel, 2026, trials, &|_| {}).expect("the trials play");
    let seen = tally.summary(duel.roster()).outcomes;
    for (name, count, p) in [
        ("A wins", seen.a_wins.count, odds.a_wins),
        ("B wins", seen.b_wins.count, odds.b_wins),
        ("draws", seen.draws.count, odds.draws),
        ("undecided", seen.undecided.count, odds.undecided),
    ] {
        assert!(
            within_four_errors(count, trials, p),
            "{name}: exact {p}, sampled {count} of {trials}"
        );
    }
}

/// Core's contract for a phase split into steps (each part of a shot, each
/// ship's recovery): the steps played in order are the phase played whole,
/// the same faces, events and battle. Duels and fleets, with Multi shots,
/// missiles, bombs and a Fusion Node among them, over several seeds.
#[test]
fn fire_and_recovery_played_in_steps_are_the_phases_played_whole() {
    let duels = [
        ("scout", "scout"),
        ("destroyer", "scout"),
        ("frigate", "destroyer"),
        ("cruiser", "frigate"),
    ];
    for (a, b) in duels {
        let request = common::duel_request(a, b, 6, &[]);
        for seed in 0..4 {
            common::check_steps_play_as_phases(&request, seed);
        }
    }
    let fleet = common::fleet_request(
        &["scout", "scout", "frigate"],
        &["destroyer", "scout"],
        4,
        &[("start-range", num(4))],
        [&[], &[]],
    );
    for seed in 0..4 {
        common::check_steps_play_as_phases(&fleet, seed);
    }
}

/// Exact odds merge equal states after every part of a shot (aimed and
/// allocated, dice laid, hull check), so a ship's fire is split into three
/// steps for each shot it fires when each of its weapons fires once. The
/// frigate has two Cannons and a Teleporter: three shots, nine steps; the
/// scout one Cannon: three steps. A fire phase of the duel has twelve
/// steps, and the recovery phase one a ship.
#[test]
fn fire_is_split_into_three_steps_for_each_weapon() {
    use broadside_core::{Setup, TurnSequence};
    use broadside_module_grid::engagement::Phase;
    let grid = common::system();
    assert_eq!(grid.most_shots(common::class("frigate")), 3);
    assert_eq!(grid.most_shots(common::class("scout")), 1);
    let duel = grid
        .duel(&common::duel_request("frigate", "scout", 6, &[]))
        .expect("the duel sets up");
    let sequence = duel.sequence();
    assert_eq!(sequence.steps(Phase::FirstFire, 1), 3 * 3 + 3);
    assert_eq!(sequence.steps(Phase::SecondFire, 1), 3 * 3 + 3);
    assert_eq!(sequence.steps(Phase::Recovery, 1), 2);
}

/// The data of record's smallest battle that fits: two scouts for one
/// turn, from the default 8 hexes (they close and exchange Standard
/// shots). The fire phases never hold more than 16,850 states, so a budget
/// of 20,000 drops mass only in the recovery phase, where no ship can
/// explode: the chances of a win are exact. The two sides are mirror images
/// and who acts first is an even roll (d6: 1-3 side A), so each side wins
/// with exactly the same chance; a scout explodes only at a hull check it
/// can fail, at 10 hull damage or more (seed 003 line 88, Size 1), so that
/// chance is small but not nothing. It agrees with 2,000 seeded trials
/// within four standard errors.
#[test]
fn an_exact_duel_of_scouts_decides_as_sampled_trials() {
    use broadside_core::{Engagement, run_trials};
    let request = common::duel_request("scout", "scout", 1, &[]);
    let duel = common::system().duel(&request).expect("the duel sets up");
    let odds = duel.exact(20_000, 20_000_000).expect("the duel fits");
    assert_eq!(odds.fractions["a_wins"], odds.fractions["b_wins"]);
    assert!(odds.a_wins > 0.0 && odds.a_wins < 1e-4, "{odds:?}");
    assert_eq!(odds.draws, 0.0);
    assert!(odds.pruned < 1e-3, "{odds:?}");
    let total = odds.a_wins + odds.b_wins + odds.undecided + odds.pruned;
    assert!((total - 1.0).abs() < 1e-12, "the outcomes sum to {total}");
    let trials = 2_000;
    let tally = run_trials(&duel, 2026, trials, &|_| {}).expect("the trials play");
    let seen = tally.summary(duel.roster()).outcomes;
    for (name, count, p) in [
        ("A wins", seen.a_wins.count, odds.a_wins),
        ("B wins", seen.b_wins.count, odds.b_wins),
        (
            "undecided",
            seen.undecided.count,
            odds.undecided + odds.pruned,
        ),
    ] {
        assert!(
            within_four_errors(count, trials, p),
            "{name}: exact {p}, sampled {count} of {trials}"
        );
    }
}

/// A fraction as the exact figures write it, "n/d".
fn fraction(text: &str) -> Prob {
    let (n, d) = text.split_once('/').expect("a fraction n/d");
    p(
        n.parse().expect("a numerator"),
        d.parse().expect("a denominator"),
    )
}

/// Two scouts of the data of record 6 hexes apart, one turn: the side that
/// moves first closes at full Speed, and the side moving second ends a hex
/// astern of it, where the first's fore Cannon does not bear; so exactly
/// one shot is fired, a Standard shot from a hex off at the aft side, the
/// firer calling 3,2 with its one scan to spend on the allocation (no
/// Luck: the default tactics keep it for hull checks). Who moves
/// first is an even roll (ruling 35), so each side wins with exactly half
/// the chance that this one shot explodes a scout, as the shot's own exact
/// odds give it (at 10 hull damage or more, a hull check it fails 1 time
/// in 1,296: seed 003 line 91). The battle, with its movement, its tactics
/// and its fire played in parts, comes to that fraction exactly, in a few
/// thousand paths.
#[test]
fn one_shot_decides_an_exact_duel_of_scouts_as_its_own_odds() {
    use broadside_core::Engagement;
    let request = common::duel_request("scout", "scout", 1, &[("start-range", num(6))]);
    let duel = common::system().duel(&request).expect("the duel sets up");
    let odds = duel.exact(200_000, 20_000_000).expect("the duel fits");
    assert_eq!(odds.pruned, 0.0);
    assert!(odds.paths < 10_000, "{} paths", odds.paths);
    let shot = exact(
        "scout",
        "scout",
        &[
            ("range", num(1)),
            ("side", text("aft")),
            ("call", text("3,2")),
            ("scans", num(1)),
        ],
    );
    let explodes = fraction(&shot.fractions["destroyed the scout itself"]);
    assert!(explodes > p(0, 1), "the shot can explode the scout");
    let each = explodes * p(1, 2);
    for side in ["a_wins", "b_wins"] {
        assert_eq!(fraction(&odds.fractions[side]), each, "{side}");
    }
    assert_eq!(
        fraction(&odds.fractions["undecided"]),
        p(1, 1) - explodes,
        "undecided"
    );
}

/// The OOC a die off the silhouette raises is read by exact odds too (seed
/// 003 line 68: a die that misses the silhouette does 1 hull damage, and
/// `rules.toml` `[off-silhouette]` has it raise OOC by 1 on 4 or more). The
/// Multi shot above keeps the lowest of three dice, which is 4 or more 27
/// times in 216 wherever it lands: on the ship it breaks the module of
/// impact and the break raises OOC by 1 (`ooc-on-break`); off it, it raises
/// OOC by 1 itself. So OOC rises by 1 with chance hit x 27/216, and an
/// exact reading that ignored the off-silhouette rule would find only the
/// on-silhouette share, hit x 16/36 x 27/216. The figure is the report's
/// `ooc_added`, over every path of the same rules code.
#[test]
fn a_die_off_the_silhouette_raises_ooc_in_exact_odds_too() {
    let system: &dyn broadside_core::Ruleset = common::system();
    let request = broadside_core::ResolveRequest {
        attacker: "scout".into(),
        target: "scout".into(),
        options: broadside_core::Options::new()
            .with("range", broadside_core::OptionValue::Number(1))
            .with("mode", broadside_core::OptionValue::Text("multi".into())),
    };
    let (ooc, _paths) = broadside_core::exact::enumerate(100_000, |dice| {
        let report = system.resolve(&request, dice, &mut broadside_core::NullSink)?;
        let json = serde_json::to_value(&*report).expect("a report serialises to JSON");
        Ok(json["ooc_added"].as_u64().expect("ooc_added is a count"))
    })
    .expect("the attack enumerates");
    let hit = p(26, 36);
    let expected = BTreeMap::from([(0, p(1, 1) - hit * p(27, 216)), (1, hit * p(27, 216))]);
    assert_eq!(ooc, expected);
}

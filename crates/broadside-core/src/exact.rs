//! Exact odds: the rules code run over every outcome of its dice instead of
//! a sample of them.
//!
//! [`enumerate`] runs a piece of rules code again and again with dice that
//! follow one path through the tree of its dice calls, then the next, until
//! every path has been taken. Each call branches on the outcomes the rules
//! said matter (see [`Dice`]): a check has two, a total has one per sum, a
//! banded roll one per band, a plain roll one per face. A path's probability
//! is the product of its branches' probabilities, kept as an exact fraction.
//!
//! [`exact_battle`] does the same for a whole battle, one phase at a time,
//! merging equal states after every phase so that the work grows with the
//! number of distinct states rather than with the number of dice paths.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, DefaultHasher, Hash};

use num_bigint::BigInt;
use num_rational::{BigRational, Ratio};
use num_traits::{CheckedAdd, CheckedMul, One, ToPrimitive, Zero};
use serde::Serialize;

use crate::dice::{Check, Dice, DiceError, Die, Order, Pool};
use crate::error::ResolveError;
use crate::event::NullSink;
use crate::fleet::Setup;
use crate::rules::{Side, TurnSequence, Verdict};
use crate::ruleset::AttackOutcome;

/// A probability of one dice path or of an attack's outcome: small
/// denominators, products of die sizes.
pub type Prob = Ratio<u128>;

/// Why exact odds could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    /// More dice paths than the budget allows.
    #[error(
        "more than {budget} dice paths: too many to enumerate exactly; use Monte Carlo (drop --exact)"
    )]
    TooManyPaths {
        /// The budget that was exceeded.
        budget: u64,
    },
    /// A path's probability no longer fits an exact fraction of 128 bits.
    #[error("a dice path is too long to weigh exactly; use Monte Carlo (drop --exact)")]
    TooDeep,
    /// The same choices did not lead to the same dice calls: the rules code
    /// read something other than its dice. A bug, not bad input.
    #[error("the rules code did not repeat itself for the same dice")]
    NotRepeatable,
    /// The rules refused or failed.
    #[error(transparent)]
    Rules(#[from] ResolveError),
}

impl From<ExactError> for ResolveError {
    fn from(error: ExactError) -> ResolveError {
        match error {
            ExactError::Rules(e) => e,
            ExactError::NotRepeatable => ResolveError::Internal(error.to_string()),
            other => ResolveError::bad_option("exact", other.to_string()),
        }
    }
}

/// One dice call on a path: its outcomes (the value handed back, its weight
/// out of `den`) and which one this path takes.
#[derive(Debug, Clone)]
struct Node {
    /// What the call was, to check that a replay makes the same call.
    call: (u8, u32, i64),
    outcomes: Vec<(u32, u64)>,
    den: u64,
    chosen: usize,
}

/// Dice that follow a path, extending it with first outcomes where it ends.
struct PathDice<'a> {
    path: &'a mut Vec<Node>,
    depth: usize,
    num: u128,
    den: u128,
    error: Option<ExactError>,
}

impl PathDice<'_> {
    /// The outcome this path takes at the next call.
    fn next(
        &mut self,
        call: (u8, u32, i64),
        outcomes: impl FnOnce() -> (Vec<(u32, u64)>, u64),
    ) -> Result<u32, DiceError> {
        if self.depth == self.path.len() {
            let (outcomes, den) = outcomes();
            self.path.push(Node {
                call,
                outcomes,
                den,
                chosen: 0,
            });
        }
        let node = &self.path[self.depth];
        if node.call != call {
            self.error = Some(ExactError::NotRepeatable);
            return Err(DiceError::Stopped);
        }
        let (value, weight) = node.outcomes[node.chosen];
        self.depth += 1;
        match (
            self.num.checked_mul(u128::from(weight)),
            self.den.checked_mul(u128::from(node.den)),
        ) {
            (Some(num), Some(den)) => {
                // Keep the fraction small so long paths fit.
                let g = gcd(num, den);
                self.num = num / g.max(1);
                self.den = den / g.max(1);
            }
            _ => {
                self.error = Some(ExactError::TooDeep);
                return Err(DiceError::Stopped);
            }
        }
        Ok(value)
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Dice for PathDice<'_> {
    fn enumerates(&self) -> bool {
        true
    }

    fn roll(&mut self, die: Die) -> Result<u32, DiceError> {
        let sides = die.sides();
        self.next((0, sides, 0), || {
            (
                (1..=sides).map(|face| (face, 1)).collect(),
                u64::from(sides),
            )
        })
    }

    fn check(&mut self, die: Die, target: i32) -> Result<Check, DiceError> {
        let sides = die.sides();
        let face = self.next((1, sides, i64::from(target)), || {
            // Two outcomes: a face at or under the target, and one over it.
            // Each hands back a face of its kind, for logs.
            let passing = i64::from(target).clamp(0, i64::from(sides)) as u32;
            let mut outcomes = Vec::with_capacity(2);
            if passing > 0 {
                outcomes.push((passing, u64::from(passing)));
            }
            if passing < sides {
                outcomes.push((passing + 1, u64::from(sides - passing)));
            }
            (outcomes, u64::from(sides))
        })?;
        Ok(Check {
            face,
            passed: i64::from(face) <= i64::from(target),
        })
    }

    fn pool(&mut self, count: u32, die: Die) -> Result<Pool, DiceError> {
        // Every face of a pool may matter, so each die branches on its faces.
        let mut pool = Pool::default();
        if count as usize > Pool::CAPACITY {
            return Err(DiceError::PoolTooLarge {
                count,
                max: Pool::CAPACITY,
            });
        }
        for _ in 0..count {
            let face = self.roll(die)?;
            pool.push(face);
        }
        Ok(pool)
    }

    fn total(&mut self, count: u32, die: Die) -> Result<u32, DiceError> {
        let sides = die.sides();
        if count as usize > Pool::CAPACITY {
            return Err(DiceError::PoolTooLarge {
                count,
                max: Pool::CAPACITY,
            });
        }
        self.next((2, sides, i64::from(count)), || {
            let counts = sum_counts(count, sides);
            let den = u64::from(sides).pow(count);
            (counts, den)
        })
    }

    fn read_pool(
        &mut self,
        count: u32,
        die: Die,
        order: Order,
        reading: &mut dyn FnMut(&[u32]) -> u64,
    ) -> Result<Pool, DiceError> {
        if count as usize > Pool::CAPACITY {
            return Err(DiceError::PoolTooLarge {
                count,
                max: Pool::CAPACITY,
            });
        }
        let sides = die.sides();
        let den = u64::from(sides).checked_pow(count);
        let rolls = match order {
            Order::Ignored => multisets(sides, count),
            Order::Read => den,
        };
        let (Some(den), Some(_)) = (den, rolls.filter(|&n| n <= MOST_ROLLS)) else {
            // Too many rolls to weigh one by one: every face of every die.
            return self.pool(count, die);
        };
        let kind = match order {
            Order::Ignored => 4,
            Order::Read => 5,
        };
        let rank = self.next((kind, sides, i64::from(count)), || {
            // One outcome per reading, handed back as its first roll (by
            // rank) and weighed by every ordered roll with that reading.
            let mut outcomes: Vec<(u32, u64)> = Vec::new();
            let mut which: HashMap<u64, usize> = HashMap::new();
            let mut weigh = |rank: u32, faces: &[u32], ways: u64| {
                let read = reading(faces);
                let at = *which.entry(read).or_insert_with(|| {
                    outcomes.push((rank, 0));
                    outcomes.len() - 1
                });
                outcomes[at].1 += ways;
            };
            match order {
                Order::Ignored => each_multiset(sides, count, weigh),
                Order::Read => each_roll(sides, count, |rank, faces| weigh(rank, faces, 1)),
            }
            (outcomes, den)
        })?;
        Ok(match order {
            Order::Ignored => multiset_of_rank(sides, count, u64::from(rank)),
            Order::Read => roll_of_rank(sides, count, rank),
        })
    }

    fn band(&mut self, die: Die, tops: &[u32]) -> Result<u32, DiceError> {
        let sides = die.sides();
        let key = tops
            .iter()
            .fold(0i64, |h, &t| h.wrapping_mul(131).wrapping_add(i64::from(t)));
        self.next((3, sides, key), || {
            let mut outcomes = Vec::new();
            let mut low = 1;
            for &top in tops.iter().chain(std::iter::once(&sides)) {
                let top = top.min(sides);
                if top >= low {
                    outcomes.push((top, u64::from(top - low + 1)));
                    low = top + 1;
                }
            }
            (outcomes, u64::from(sides))
        })
    }
}

/// The most distinct rolls (multisets of faces, or ordered rolls when the
/// order is read) a read pool is weighed over; a pool that can fall more
/// ways than this branches face by face instead.
const MOST_ROLLS: u64 = 1 << 16;

/// How many multisets of `count` faces a die of `sides` faces can show:
/// `count` among `sides` with repetition, or `None` past `u64`.
fn multisets(sides: u32, count: u32) -> Option<u64> {
    binomial(u64::from(sides) + u64::from(count) - 1, u64::from(count))
}

/// `n` choose `k`, or `None` past `u64`.
fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut value: u128 = 1;
    for i in 0..k {
        // Exact at every step: the product of i + 1 consecutive numbers is
        // divisible by (i + 1)!.
        value = value.checked_mul(u128::from(n - i))? / u128::from(i + 1);
    }
    u64::try_from(value).ok()
}

/// Every multiset of `count` faces of a die of `sides` faces, as rising
/// face lists in lexicographic order, each with how many ordered rolls show
/// it; `visit` is given the rank of each (its place in that order).
fn each_multiset(sides: u32, count: u32, mut visit: impl FnMut(u32, &[u32], u64)) {
    let count = count as usize;
    let mut faces = vec![1u32; count];
    let mut rank = 0u32;
    loop {
        // Orders of this multiset: count! over the factorial of each run,
        // built up as a product of binomials, one per run of equal faces.
        let mut ways: u64 = 1;
        let mut placed = 0u64;
        let mut at = 0;
        while at < count {
            let run = faces[at..].iter().take_while(|&&f| f == faces[at]).count();
            placed += run as u64;
            ways *= binomial(placed, run as u64).unwrap_or(0);
            at += run;
        }
        visit(rank, &faces, ways);
        rank += 1;
        // The next rising list, like an odometer whose digits never fall.
        let Some(i) = faces.iter().rposition(|&f| f < sides) else {
            return;
        };
        let face = faces[i] + 1;
        faces[i..].fill(face);
    }
}

/// The rising face list of rank `rank` among the multisets of `count`
/// faces of a die of `sides` faces (the inverse of [`each_multiset`]'s
/// numbering).
fn multiset_of_rank(sides: u32, count: u32, mut rank: u64) -> Pool {
    let mut pool = Pool::default();
    let mut low = 1;
    for left in (0..count).rev() {
        for face in low..=sides {
            // Rising lists of the `left` faces after this one, from `face`
            // up.
            let after = multisets(sides - face + 1, left).unwrap_or(u64::MAX);
            if rank < after {
                pool.push(face);
                low = face;
                break;
            }
            rank -= after;
        }
    }
    pool
}

/// Every ordered roll of `count` dice of `sides` faces, in lexicographic
/// order, with its rank (its place in that order).
fn each_roll(sides: u32, count: u32, mut visit: impl FnMut(u32, &[u32])) {
    let mut faces = vec![1u32; count as usize];
    let mut rank = 0u32;
    loop {
        visit(rank, &faces);
        rank += 1;
        // The next roll, like an odometer.
        let Some(i) = faces.iter().rposition(|&f| f < sides) else {
            return;
        };
        faces[i] += 1;
        faces[i + 1..].fill(1);
    }
}

/// The ordered roll of rank `rank` (the inverse of [`each_roll`]'s
/// numbering): its faces are the digits of the rank in base `sides`.
fn roll_of_rank(sides: u32, count: u32, rank: u32) -> Pool {
    let mut digits = vec![0u32; count as usize];
    let mut rest = rank;
    for digit in digits.iter_mut().rev() {
        *digit = rest % sides;
        rest /= sides;
    }
    let mut pool = Pool::default();
    for digit in digits {
        pool.push(digit + 1);
    }
    pool
}

/// `(sum, ways)` for `count` dice of `sides` faces, every sum that can occur.
fn sum_counts(count: u32, sides: u32) -> Vec<(u32, u64)> {
    let mut ways = vec![1u64];
    for _ in 0..count {
        let mut next = vec![0u64; ways.len() + sides as usize];
        for (sum, &w) in ways.iter().enumerate() {
            for face in 1..=sides as usize {
                next[sum + face] += w;
            }
        }
        ways = next;
    }
    ways.into_iter()
        .enumerate()
        .filter(|&(_, w)| w > 0)
        .map(|(sum, w)| (sum as u32, w))
        .collect()
}

/// Every outcome of `run` over all its dice paths, with its exact
/// probability, and the number of paths taken.
///
/// `run` must be a function of its dice alone: given the same outcomes it
/// makes the same calls. At most `max_paths` paths are taken.
pub fn enumerate<T: Ord>(
    max_paths: u64,
    run: impl FnMut(&mut dyn Dice) -> Result<T, ResolveError>,
) -> Result<(BTreeMap<T, Prob>, u64), ExactError> {
    let mut outcomes: BTreeMap<T, Prob> = BTreeMap::new();
    let mut overflow = false;
    let paths = visit_paths(max_paths, run, |outcome, weight| {
        let entry = outcomes.entry(outcome).or_insert_with(Prob::zero);
        match entry.checked_add(&weight) {
            Some(sum) => *entry = sum,
            None => overflow = true,
        }
    })?;
    if overflow {
        return Err(ExactError::TooDeep);
    }
    Ok((outcomes, paths))
}

/// Runs `run` over every dice path, handing each path's outcome and
/// probability to `visit`; returns the number of paths.
pub fn visit_paths<T>(
    max_paths: u64,
    mut run: impl FnMut(&mut dyn Dice) -> Result<T, ResolveError>,
    mut visit: impl FnMut(T, Prob),
) -> Result<u64, ExactError> {
    let mut path: Vec<Node> = Vec::new();
    let mut paths = 0u64;
    loop {
        if paths == max_paths {
            return Err(ExactError::TooManyPaths { budget: max_paths });
        }
        paths += 1;
        let mut dice = PathDice {
            path: &mut path,
            depth: 0,
            num: 1,
            den: 1,
            error: None,
        };
        let result = run(&mut dice);
        if let Some(error) = dice.error {
            return Err(error);
        }
        let (depth, weight) = (dice.depth, Prob::new(dice.num, dice.den));
        visit(result?, weight);
        // The path's calls beyond what this run made belong to another
        // branch; then step to the next path like an odometer.
        path.truncate(depth);
        while let Some(last) = path.last_mut() {
            if last.chosen + 1 < last.outcomes.len() {
                last.chosen += 1;
                break;
            }
            path.pop();
        }
        if path.is_empty() {
            return Ok(paths);
        }
    }
}

/// A probability as a decimal, for reports.
pub fn to_f64(p: &Prob) -> f64 {
    p.numer().to_f64().unwrap_or(0.0) / p.denom().to_f64().unwrap_or(1.0)
}

/// A big probability as a decimal, for reports.
pub fn big_to_f64(p: &BigRational) -> f64 {
    // Divide in big integers first so that huge denominators keep their
    // precision: scale by 10^18, then divide.
    let scale = BigInt::from(10u64).pow(18);
    let scaled = (p.numer() * &scale) / p.denom();
    scaled.to_f64().unwrap_or(0.0) / 1e18
}

/// The exact distribution of one attack's outcomes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExactAttack {
    /// Probability of a hit.
    pub p_hit: f64,
    /// `[damage, probability]`, by damage, summing to 1.
    pub hull_damage: Vec<(i32, f64)>,
    /// Mean hull damage.
    pub mean_hull_damage: f64,
    /// `[result, probability]`: the probability the attack rolls each
    /// result, in the order results first appear.
    pub results: Vec<(String, f64)>,
    /// `[system, probability]`: the probability each of the target's systems
    /// or modules is destroyed.
    pub destroyed: Vec<(String, f64)>,
    /// The same figures as exact fractions (`"num/den"`), by name:
    /// `p_hit`, `damage N`, `result NAME`, `destroyed NAME`.
    pub fractions: BTreeMap<String, String>,
    /// Dice paths enumerated.
    pub paths: u64,
}

/// The exact distribution of an attack, from a function that resolves it
/// once with the dice given: the rules code itself, run over every outcome.
pub fn exact_attack(
    max_paths: u64,
    resolve: impl FnMut(&mut dyn Dice) -> Result<AttackOutcome, ResolveError>,
) -> Result<ExactAttack, ExactError> {
    let (outcomes, paths) = enumerate(max_paths, resolve)?;
    let mut fractions = BTreeMap::new();
    let mut p_hit = Prob::zero();
    let mut damage: BTreeMap<i32, Prob> = BTreeMap::new();
    let mut results: Vec<(String, Prob)> = Vec::new();
    let mut destroyed: Vec<(String, Prob)> = Vec::new();
    let mut mean = Prob::zero();
    let grow = |list: &mut Vec<(String, Prob)>, name: &str, p: &Prob| -> Result<(), ExactError> {
        match list.iter_mut().find(|(n, _)| n == name) {
            Some((_, q)) => *q = q.checked_add(p).ok_or(ExactError::TooDeep)?,
            None => list.push((name.to_owned(), *p)),
        }
        Ok(())
    };
    for (outcome, p) in &outcomes {
        if outcome.hit {
            p_hit = p_hit.checked_add(p).ok_or(ExactError::TooDeep)?;
        }
        let d = damage.entry(outcome.hull_damage).or_insert_with(Prob::zero);
        *d = d.checked_add(p).ok_or(ExactError::TooDeep)?;
        let weighted = Prob::from_integer(u128::try_from(outcome.hull_damage.max(0)).unwrap_or(0))
            .checked_mul(p)
            .ok_or(ExactError::TooDeep)?;
        mean = mean.checked_add(&weighted).ok_or(ExactError::TooDeep)?;
        // A result rolled twice in one attack counts once: the figure is the
        // chance the attack rolls it at all.
        let mut seen: Vec<&str> = Vec::new();
        for result in &outcome.results {
            if !seen.contains(&result.as_str()) {
                seen.push(result);
                grow(&mut results, result, p)?;
            }
        }
        for system in &outcome.destroyed {
            grow(&mut destroyed, system, p)?;
        }
    }
    let mut fraction = |name: String, p: &Prob| {
        fractions.insert(name, format!("{}/{}", p.numer(), p.denom()));
        to_f64(p)
    };
    let p_hit_f = fraction("p_hit".into(), &p_hit);
    let hull_damage = damage
        .iter()
        .map(|(d, p)| (*d, fraction(format!("damage {d}"), p)))
        .collect();
    let results = results
        .iter()
        .map(|(n, p)| (n.clone(), fraction(format!("result {n}"), p)))
        .collect();
    let destroyed = destroyed
        .iter()
        .map(|(n, p)| (n.clone(), fraction(format!("destroyed {n}"), p)))
        .collect();
    let mean_hull_damage = fraction("mean_hull_damage".into(), &mean);
    Ok(ExactAttack {
        p_hit: p_hit_f,
        hull_damage,
        mean_hull_damage,
        results,
        destroyed,
        fractions,
        paths,
    })
}

/// How a battle ended, exactly: the probability of each verdict, the mass
/// still undecided at the turn limit and the mass dropped to stay within the
/// budget of states.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExactOdds {
    /// Side A won.
    pub a_wins: f64,
    /// Side B won.
    pub b_wins: f64,
    /// Neither side could fight on.
    pub draws: f64,
    /// Side A left the battle.
    pub a_escapes: f64,
    /// Side B left the battle.
    pub b_escapes: f64,
    /// Still going at the turn limit.
    pub undecided: f64,
    /// Dropped, least likely states first, to keep within the budget.
    pub pruned: f64,
    /// The same figures as exact fractions (`"num/den"`).
    pub fractions: BTreeMap<String, String>,
    /// The most distinct states held after any phase.
    pub peak_states: usize,
    /// Dice paths run, over all phases.
    pub paths: u64,
    /// `decided_by[t]`: probability the battle was decided by the end of turn t.
    pub decided_by: Vec<f64>,
}

type StableMap<K, V> = HashMap<K, V, BuildHasherDefault<DefaultHasher>>;

/// The exact odds of a set-up battle: every phase played over all its dice
/// outcomes, equal states merged after each phase, and at most `max_states`
/// states kept (the least likely dropped, their mass reported as pruned).
/// `max_paths` bounds the dice paths of the whole battle, so a battle too big
/// to enumerate stops with an error instead of running for hours.
pub fn exact_battle<S>(
    setup: &S,
    max_states: usize,
    max_paths: u64,
) -> Result<ExactOdds, ExactError>
where
    S: Setup,
    S::State: Clone + Eq + Hash,
{
    let sequence = setup.sequence();
    let tactics = setup.tactics();
    let mut finished: BTreeMap<(u8, u32), BigRational> = BTreeMap::new();
    let mut paths = 0u64;
    let mut states: StableMap<S::State, BigRational> = StableMap::default();
    paths += visit_paths(
        max_paths,
        |dice| setup.begin(dice, &mut NullSink),
        |state, p| {
            let p = big(&p);
            match sequence.verdict(&state) {
                Some(verdict) => add(&mut finished, (verdict_key(verdict), 0), p),
                None => add_state(&mut states, state, p),
            }
        },
    )?;
    let mut pruned = BigRational::zero();
    let mut peak = states.len();
    for turn in 1..=setup.max_turns() {
        // Each step of a phase is enumerated from every state, and equal
        // states merge between steps; the verdict is asked only after the
        // phase's last step, as in play.
        let steps = sequence.phases(turn).iter().flat_map(|&phase| {
            let count = sequence.steps(phase, turn).max(1);
            (0..count).map(move |step| (phase, step, step + 1 == count))
        });
        for (phase, step, last) in steps {
            if states.is_empty() {
                break;
            }
            let mut next: StableMap<S::State, BigRational> = StableMap::default();
            let current: Vec<(S::State, BigRational)> = states.drain().collect();
            for (state, p) in current {
                let left = max_paths.saturating_sub(paths);
                paths += visit_paths(
                    left,
                    |dice| {
                        let mut s = state.clone();
                        sequence.play_step(
                            phase,
                            turn,
                            step,
                            &mut s,
                            tactics,
                            dice,
                            &mut NullSink,
                        )?;
                        Ok(s)
                    },
                    |s, q| {
                        let mass = &p * big(&q);
                        match sequence.verdict(&s).filter(|_| last) {
                            Some(verdict) => add(&mut finished, (verdict_key(verdict), turn), mass),
                            None => add_state(&mut next, s, mass),
                        }
                    },
                )
                .map_err(|e| match e {
                    ExactError::TooManyPaths { .. } => {
                        ExactError::TooManyPaths { budget: max_paths }
                    }
                    other => other,
                })?;
            }
            if next.len() > max_states {
                let mut ranked: Vec<(u64, S::State, BigRational)> =
                    next.drain().map(|(s, p)| (stable_hash(&s), s, p)).collect();
                // Most likely first; equal masses by a hash with fixed keys,
                // so the same states are kept on every run.
                ranked.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
                for (_, _, p) in ranked.drain(max_states..) {
                    pruned += p;
                }
                next.extend(ranked.into_iter().map(|(_, s, p)| (s, p)));
            }
            peak = peak.max(next.len());
            states = next;
        }
    }
    let undecided: BigRational = states.values().fold(BigRational::zero(), |a, p| a + p);
    let total = |key: u8| -> BigRational {
        finished
            .iter()
            .filter(|((k, _), _)| *k == key)
            .fold(BigRational::zero(), |a, (_, p)| a + p)
    };
    let mut fractions = BTreeMap::new();
    let mut figure = |name: &str, p: &BigRational| -> f64 {
        fractions.insert(name.to_owned(), format!("{}/{}", p.numer(), p.denom()));
        big_to_f64(p)
    };
    let (a, b, d, ea, eb) = (total(0), total(1), total(2), total(3), total(4));
    let mut decided_by = Vec::new();
    let mut running = BigRational::zero();
    for turn in 0..=setup.max_turns() {
        for ((_, t), p) in &finished {
            if *t == turn {
                running += p;
            }
        }
        decided_by.push(big_to_f64(&running));
    }
    Ok(ExactOdds {
        a_wins: figure("a_wins", &a),
        b_wins: figure("b_wins", &b),
        draws: figure("draws", &d),
        a_escapes: figure("a_escapes", &ea),
        b_escapes: figure("b_escapes", &eb),
        undecided: figure("undecided", &undecided),
        pruned: figure("pruned", &pruned),
        fractions,
        peak_states: peak,
        paths,
        decided_by,
    })
}

fn stable_hash<T: Hash>(value: &T) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(value)
}

fn verdict_key(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Winner(Side::A) => 0,
        Verdict::Winner(Side::B) => 1,
        Verdict::Draw => 2,
        Verdict::Escaped(Side::A) => 3,
        Verdict::Escaped(Side::B) => 4,
        Verdict::Undecided => 5,
    }
}

fn big(p: &Prob) -> BigRational {
    BigRational::new(BigInt::from(*p.numer()), BigInt::from(*p.denom()))
}

fn add<K: Ord>(map: &mut BTreeMap<K, BigRational>, key: K, p: BigRational) {
    *map.entry(key).or_insert_with(BigRational::zero) += p;
}

fn add_state<K: Eq + Hash>(map: &mut StableMap<K, BigRational>, key: K, p: BigRational) {
    *map.entry(key).or_insert_with(BigRational::zero) += p;
}

/// Whether every probability of a distribution sums to one.
pub fn sums_to_one<T>(outcomes: &BTreeMap<T, Prob>) -> bool {
    outcomes
        .values()
        .try_fold(Prob::zero(), |a, p| a.checked_add(p))
        .is_some_and(|sum| sum.is_one())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(n: u128, d: u128) -> Prob {
        Prob::new(n, d)
    }

    #[test]
    fn a_check_branches_on_pass_and_fail() {
        // A d100 at or under 30 hits: 3/10, whatever the face.
        let (odds, paths) = enumerate(10, |dice| Ok(dice.check(Die::D100, 30)?.passed)).unwrap();
        assert_eq!(paths, 2);
        assert_eq!(odds[&true], p(3, 10));
        assert_eq!(odds[&false], p(7, 10));
        // A target off the die leaves one outcome.
        let (odds, _) = enumerate(10, |dice| Ok(dice.check(Die::D6, 9)?.passed)).unwrap();
        assert_eq!(odds.len(), 1);
        assert!(sums_to_one(&odds));
    }

    #[test]
    fn totals_follow_the_convolution_of_faces() {
        // 2d6: seven has 6 ways in 36.
        let (odds, paths) =
            enumerate(100, |dice| dice.total(2, Die::D6).map_err(Into::into)).unwrap();
        assert_eq!(paths, 11);
        assert_eq!(odds[&7], p(1, 6));
        assert_eq!(odds[&2], p(1, 36));
        assert!(sums_to_one(&odds));
    }

    #[test]
    fn bands_weigh_their_faces() {
        // d100 in bands 1-45, 46-90, 91-100.
        let (odds, _) = enumerate(10, |dice| {
            dice.band(Die::D100, &[45, 90]).map_err(Into::into)
        })
        .unwrap();
        assert_eq!(odds[&45], p(45, 100));
        assert_eq!(odds[&90], p(45, 100));
        assert_eq!(odds[&100], p(1, 10));
    }

    #[test]
    fn paths_of_different_lengths_combine() {
        // Hit on a d10 of 1-3, then damage 1d6: P(damage 4) = 3/10 * 1/6.
        let (odds, paths) = enumerate(100, |dice| {
            if dice.check(Die::D10, 3)?.passed {
                Ok(dice.roll(Die::D6)?)
            } else {
                Ok(0)
            }
        })
        .unwrap();
        assert_eq!(paths, 7);
        assert_eq!(odds[&0], p(7, 10));
        assert_eq!(odds[&4], p(1, 20));
        assert!(sums_to_one(&odds));
    }

    #[test]
    fn an_attack_distribution_gathers_hits_damage_and_results() {
        // Hits on a d10 of 1-4 for 2d6; a 12 also destroys the drive.
        let exact = exact_attack(1000, |dice| {
            let mut outcome = AttackOutcome::default();
            if dice.check(Die::D10, 4)?.passed {
                outcome.hit = true;
                outcome.hull_damage = dice.total(2, Die::D6)? as i32;
                outcome.results.push("hull hit".into());
                if outcome.hull_damage == 12 {
                    outcome.destroyed.push("drive".into());
                }
            }
            Ok(outcome)
        })
        .unwrap();
        assert_eq!(exact.fractions["p_hit"], "2/5");
        assert_eq!(exact.fractions["mean_hull_damage"], "14/5");
        assert_eq!(exact.fractions["destroyed drive"], "1/90");
        assert_eq!(exact.fractions["result hull hit"], "2/5");
        assert_eq!(exact.hull_damage[0], (0, 0.6));
        let total: f64 = exact.hull_damage.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }

    /// Every ordered roll of `count` dice of `sides` faces, by counting.
    fn every_roll(sides: u32, count: u32) -> Vec<Vec<u32>> {
        (0..sides.pow(count))
            .map(|roll| {
                (0..count)
                    .map(|i| roll / sides.pow(i) % sides + 1)
                    .collect()
            })
            .collect()
    }

    /// The lowest `keep` faces, highest first.
    fn lowest(faces: &[u32], keep: usize) -> Vec<u32> {
        let mut sorted = faces.to_vec();
        sorted.sort_unstable();
        sorted.truncate(keep);
        sorted.reverse();
        sorted
    }

    #[test]
    fn a_read_pool_branches_once_per_reading_weighed_by_every_order() {
        // Five d6 keeping the lowest two, read as faces: the chance of each
        // pair counted over all 7,776 ordered rolls.
        let mut counted: BTreeMap<Vec<u32>, u128> = BTreeMap::new();
        for roll in every_roll(6, 5) {
            *counted.entry(lowest(&roll, 2)).or_default() += 1;
        }
        let (odds, paths) = enumerate(100, |dice| {
            let pool =
                crate::dice::read_pool_as(dice, 5, Die::D6, Order::Ignored, |f| lowest(f, 2))?;
            assert_eq!(pool.len(), 5);
            Ok(lowest(&pool.to_vec(), 2))
        })
        .unwrap();
        // Pairs (high, low) with low <= high: 21 readings, one path each.
        assert_eq!(paths, 21);
        assert_eq!(odds.len(), counted.len());
        for (pair, ways) in counted {
            assert_eq!(odds[&pair], p(ways, 7776), "{pair:?}");
        }
        // A reading of one number: 3d6 totalling 11 or more, 108 of 216 (the sums are symmetric about 10.5).
        let (odds, paths) = enumerate(10, |dice| {
            let pool = crate::dice::read_pool_as(dice, 3, Die::D6, Order::Ignored, |f| {
                f.iter().sum::<u32>() >= 11
            })?;
            Ok(pool.total() >= 11)
        })
        .unwrap();
        assert_eq!(paths, 2);
        assert_eq!(odds[&true], p(1, 2));
    }

    #[test]
    fn an_ordered_read_pool_weighs_every_roll() {
        // Two d6 read as which die is higher (or a tie) and whether the
        // first is a 6: counted over the 36 ordered rolls.
        let read = |f: &[u32]| (f[0].cmp(&f[1]), f[0] == 6);
        let mut counted: BTreeMap<_, u128> = BTreeMap::new();
        for roll in every_roll(6, 2) {
            *counted.entry(read(&roll)).or_default() += 1;
        }
        let (odds, paths) = enumerate(100, |dice| {
            let pool = crate::dice::read_pool_as(dice, 2, Die::D6, Order::Read, read)?;
            Ok(read(&pool.to_vec()))
        })
        .unwrap();
        assert_eq!(paths, counted.len() as u64);
        for (reading, ways) in counted {
            assert_eq!(odds[&reading], p(ways, 36), "{reading:?}");
        }
        // Numbered rolls come back as rolled.
        each_roll(3, 3, |rank, faces| {
            assert_eq!(roll_of_rank(3, 3, rank).to_vec(), faces);
        });
    }

    #[test]
    fn multisets_are_numbered_in_order_and_back() {
        for (sides, count) in [(6, 0), (6, 1), (6, 3), (2, 5), (10, 2), (4, 4)] {
            let mut total = 0u64;
            let mut seen = 0u64;
            each_multiset(sides, count, |rank, faces, ways| {
                assert_eq!(u64::from(rank), seen);
                seen += 1;
                total += ways;
                assert_eq!(
                    multiset_of_rank(sides, count, u64::from(rank)).to_vec(),
                    faces
                );
                // The orders of the multiset, by counting.
                let orders = every_roll(sides, count)
                    .into_iter()
                    .filter(|roll| {
                        let mut sorted = roll.clone();
                        sorted.sort_unstable();
                        sorted == faces
                    })
                    .count();
                assert_eq!(ways, orders as u64, "{faces:?}");
            });
            assert_eq!(Some(seen), multisets(sides, count));
            assert_eq!(total, u64::from(sides).pow(count));
        }
    }

    #[test]
    fn a_read_pool_rolls_as_a_pool_elsewhere() {
        // Seeded and scripted dice consume the faces in rolled order and
        // never ask for the reading.
        let mut dice = crate::ScriptedDice::new([6, 1, 4, 2]);
        let pool = dice
            .read_pool(3, Die::D6, Order::Read, &mut |_| unreachable!("not read"))
            .unwrap();
        assert_eq!(pool.to_vec(), vec![6, 1, 4]);
        assert_eq!(dice.remaining(), &[2]);
        let mut a = crate::SeededDice::new(7);
        let mut b = crate::SeededDice::new(7);
        let read =
            crate::dice::read_pool_as(&mut a, 9, Die::D6, Order::Ignored, |f| f.len()).unwrap();
        assert_eq!(read, b.pool(9, Die::D6).unwrap());
        // A pool that can fall too many ways branches face by face.
        let result = enumerate(1000, |dice| {
            Ok(crate::dice::read_pool_as(dice, 3, Die::D100, Order::Ignored, |_| 0)?.len())
        });
        assert_eq!(result, Err(ExactError::TooManyPaths { budget: 1000 }));
    }

    #[test]
    fn the_budget_of_paths_is_kept() {
        let result = enumerate(5, |dice| dice.roll(Die::D10).map_err(Into::into));
        assert_eq!(result, Err(ExactError::TooManyPaths { budget: 5 }));
    }

    #[test]
    fn rules_that_do_not_repeat_themselves_are_caught() {
        let mut calls = 0;
        let result = enumerate(10, |dice| {
            calls += 1;
            let die = if calls == 1 { Die::D6 } else { Die::D10 };
            dice.roll(die).map_err(Into::into)
        });
        assert_eq!(result, Err(ExactError::NotRepeatable));
    }

    /// A toy battle: each side has two hull points; in its phase a side hits
    /// on a d6 of 1-3 (A) or 1-2 (B) and takes a point off the other.
    struct Race(crate::Roster);
    struct RaceSequence;

    impl TurnSequence for RaceSequence {
        type State = (u8, u8);
        type Phase = Side;
        type Tactics = ();

        fn phases(&self, _turn: u32) -> &[Side] {
            &Side::BOTH
        }

        fn play_phase(
            &self,
            phase: Side,
            _turn: u32,
            state: &mut (u8, u8),
            _tactics: [&(); 2],
            dice: &mut dyn Dice,
            _sink: &mut dyn crate::EventSink,
        ) -> Result<(), ResolveError> {
            let target = if phase == Side::A { 3 } else { 2 };
            if dice.check(Die::D6, target)?.passed {
                match phase {
                    Side::A => state.1 -= 1,
                    Side::B => state.0 -= 1,
                }
            }
            Ok(())
        }

        fn verdict(&self, state: &(u8, u8)) -> Option<Verdict> {
            Verdict::from_able(state.0 > 0, state.1 > 0)
        }
    }

    impl Setup for Race {
        type State = (u8, u8);
        type Tactics = ();
        type Sequence<'a> = RaceSequence;

        fn sequence(&self) -> RaceSequence {
            RaceSequence
        }
        fn roster(&self) -> &crate::Roster {
            &self.0
        }
        fn max_turns(&self) -> u32 {
            3
        }
        fn tactics(&self) -> [&(); 2] {
            [&(), &()]
        }
        fn begin(
            &self,
            _dice: &mut dyn Dice,
            _sink: &mut dyn crate::EventSink,
        ) -> Result<(u8, u8), ResolveError> {
            Ok((2, 2))
        }
        fn fates(&self, _state: &(u8, u8)) -> Vec<crate::ShipFate> {
            Vec::new()
        }
    }

    /// The same race as one phase of two steps, each side's shot a step; a
    /// side with no hull left does not shoot.
    struct SteppedRace(crate::Roster);
    struct SteppedSequence;

    impl TurnSequence for SteppedSequence {
        type State = (u8, u8);
        type Phase = &'static str;
        type Tactics = ();

        fn phases(&self, _turn: u32) -> &[&'static str] {
            &["fire"]
        }

        fn play_phase(
            &self,
            phase: &'static str,
            turn: u32,
            state: &mut (u8, u8),
            tactics: [&(); 2],
            dice: &mut dyn Dice,
            sink: &mut dyn crate::EventSink,
        ) -> Result<(), ResolveError> {
            for step in 0..2 {
                self.play_step(phase, turn, step, state, tactics, dice, sink)?;
            }
            Ok(())
        }

        fn steps(&self, _phase: &'static str, _turn: u32) -> u32 {
            2
        }

        fn play_step(
            &self,
            _phase: &'static str,
            _turn: u32,
            step: u32,
            state: &mut (u8, u8),
            _tactics: [&(); 2],
            dice: &mut dyn Dice,
            _sink: &mut dyn crate::EventSink,
        ) -> Result<(), ResolveError> {
            let (shooter, target) = if step == 0 {
                (state.0, 3)
            } else {
                (state.1, 2)
            };
            if shooter > 0 && state.0 > 0 && state.1 > 0 && dice.check(Die::D6, target)?.passed {
                match step {
                    0 => state.1 -= 1,
                    _ => state.0 -= 1,
                }
            }
            Ok(())
        }

        fn verdict(&self, state: &(u8, u8)) -> Option<Verdict> {
            Verdict::from_able(state.0 > 0, state.1 > 0)
        }
    }

    impl Setup for SteppedRace {
        type State = (u8, u8);
        type Tactics = ();
        type Sequence<'a> = SteppedSequence;

        fn sequence(&self) -> SteppedSequence {
            SteppedSequence
        }
        fn roster(&self) -> &crate::Roster {
            &self.0
        }
        fn max_turns(&self) -> u32 {
            3
        }
        fn tactics(&self) -> [&(); 2] {
            [&(), &()]
        }
        fn begin(
            &self,
            _dice: &mut dyn Dice,
            _sink: &mut dyn crate::EventSink,
        ) -> Result<(u8, u8), ResolveError> {
            Ok((2, 2))
        }
        fn fates(&self, _state: &(u8, u8)) -> Vec<crate::ShipFate> {
            Vec::new()
        }
    }

    #[test]
    fn a_phase_played_in_steps_gives_the_odds_of_the_whole_phase() {
        let whole = exact_battle(&Race(crate::Roster::default()), 100, 100).unwrap();
        let stepped = exact_battle(&SteppedRace(crate::Roster::default()), 100, 100).unwrap();
        assert_eq!(stepped.fractions, whole.fractions);
        assert_eq!(stepped.decided_by, whole.decided_by);
    }

    #[test]
    fn a_battle_is_played_over_every_outcome() {
        let odds = exact_battle(&Race(crate::Roster::default()), 100, 100).unwrap();
        // An independent reckoning over the six phases, in floating point:
        // the chance of each (hull A, hull B) after every phase.
        let mut dist = HashMap::from([((2u8, 2u8), 1.0f64)]);
        let (mut a_wins, mut b_wins) = (0.0, 0.0);
        for _turn in 0..3 {
            for (shooter, hit) in [(0, 0.5), (1, 1.0 / 3.0)] {
                let mut next = HashMap::new();
                for ((ha, hb), p) in dist {
                    let after = if shooter == 0 {
                        (ha, hb - 1)
                    } else {
                        (ha - 1, hb)
                    };
                    for (state, q) in [(after, hit), ((ha, hb), 1.0 - hit)] {
                        match state {
                            (_, 0) => a_wins += p * q,
                            (0, _) => b_wins += p * q,
                            s => *next.entry(s).or_insert(0.0) += p * q,
                        }
                    }
                }
                dist = next;
            }
        }
        let undecided: f64 = dist.values().sum();
        assert!(
            (odds.a_wins - a_wins).abs() < 1e-12,
            "{odds:?} against {a_wins}"
        );
        assert!((odds.b_wins - b_wins).abs() < 1e-12);
        assert!((odds.undecided - undecided).abs() < 1e-12);
        assert_eq!(odds.pruned, 0.0);
        assert!((odds.a_wins + odds.b_wins + odds.undecided - 1.0).abs() < 1e-12);
        // A budget of one state drops the rest and says how much.
        let tight = exact_battle(&Race(crate::Roster::default()), 1, 100).unwrap();
        assert!(tight.pruned > 0.0);
        let total = tight.a_wins + tight.b_wins + tight.undecided + tight.pruned;
        assert!((total - 1.0).abs() < 1e-12);
    }
}

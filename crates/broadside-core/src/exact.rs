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

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, DefaultHasher, Hash, Hasher};

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::{BigRational, Ratio};
use num_traits::{CheckedAdd, CheckedMul, One, ToPrimitive, Zero};
use serde::Serialize;

use crate::dice::{Check, Dice, DiceError, Die, Order, Pool, band_of};
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

/// One dice call on a path: what it was, where its outcomes are kept, and
/// which one this path takes.
#[derive(Debug, Clone)]
struct Node {
    /// What the call was, to check that a replay makes the same call.
    call: (u8, u32, i64),
    /// Where the call's outcomes start in [`Path::outcomes`].
    first: usize,
    /// How many outcomes the call has.
    count: usize,
    /// Whether the outcomes are the faces of a die, each of weight 1 (then
    /// they are not written out: a d100 would be a hundred entries).
    faces: bool,
    /// The weights' denominator.
    den: u64,
    chosen: usize,
}

/// The dice calls of the path being followed. Every call's outcomes (the
/// value handed back and its weight out of the call's `den`) live in one
/// list, so that a call new to the path allocates nothing once the lists
/// have grown.
#[derive(Debug, Default)]
struct Path {
    nodes: Vec<Node>,
    outcomes: Vec<(u32, u64)>,
}

impl Path {
    /// Forgets the calls from `depth` on.
    fn truncate(&mut self, depth: usize) {
        if let Some(node) = self.nodes.get(depth) {
            self.outcomes.truncate(node.first);
            self.nodes.truncate(depth);
        }
    }

    /// Steps to the next path like an odometer: the last call with an
    /// outcome left takes it, and the calls after it are forgotten. False
    /// when every path has been taken.
    fn advance(&mut self) -> bool {
        while let Some(last) = self.nodes.last_mut() {
            if last.chosen + 1 < last.count {
                last.chosen += 1;
                return true;
            }
            let first = last.first;
            self.nodes.pop();
            self.outcomes.truncate(first);
        }
        false
    }
}

/// Dice that follow a path, extending it with first outcomes where it ends.
///
/// The path's weight is kept as a numerator and a denominator multiplied
/// along the path without reducing them: reducing on every call costs a
/// greatest common divisor each time, and the sums of weights are reduced
/// once, at the end. Only when a product would not fit 128 bits is the
/// fraction reduced, so a path fits exactly when its reduced weight does.
struct PathDice<'a> {
    path: &'a mut Path,
    depth: usize,
    num: u128,
    den: u128,
    error: Option<ExactError>,
}

impl PathDice<'_> {
    /// The outcome this path takes at the next call, the call's outcomes
    /// given as a list and their denominator.
    #[allow(
        dead_code,
        reason = "the form for a call whose outcomes come as a list; the calls here write theirs in place"
    )]
    fn next(
        &mut self,
        call: (u8, u32, i64),
        outcomes: impl FnOnce() -> (Vec<(u32, u64)>, u64),
    ) -> Result<u32, DiceError> {
        self.next_into(call, |list| {
            let (outcomes, den) = outcomes();
            list.extend(outcomes);
            den
        })
    }

    /// As [`PathDice::next`], the call's outcomes written by `fill` straight
    /// onto the end of the path's list of outcomes; `fill` returns their
    /// denominator.
    fn next_into(
        &mut self,
        call: (u8, u32, i64),
        fill: impl FnOnce(&mut Vec<(u32, u64)>) -> u64,
    ) -> Result<u32, DiceError> {
        if self.depth == self.path.nodes.len() {
            let first = self.path.outcomes.len();
            let den = fill(&mut self.path.outcomes);
            let count = self.path.outcomes.len() - first;
            self.path.nodes.push(Node {
                call,
                first,
                count,
                faces: false,
                den,
                chosen: 0,
            });
        }
        self.take(call)
    }

    /// As [`PathDice::next`] for a call whose outcomes are the faces of a
    /// die of `sides`, each face of weight 1.
    fn next_face(&mut self, call: (u8, u32, i64), sides: u32) -> Result<u32, DiceError> {
        if self.depth == self.path.nodes.len() {
            self.path.nodes.push(Node {
                call,
                first: self.path.outcomes.len(),
                count: sides as usize,
                faces: true,
                den: u64::from(sides),
                chosen: 0,
            });
        }
        self.take(call)
    }

    /// Takes the path's outcome at the call at `depth`, which must be `call`.
    fn take(&mut self, call: (u8, u32, i64)) -> Result<u32, DiceError> {
        let node = &self.path.nodes[self.depth];
        if node.call != call {
            self.error = Some(ExactError::NotRepeatable);
            return Err(DiceError::Stopped);
        }
        let (value, weight) = if node.faces {
            // At most `sides` faces, so the index fits a u32.
            (node.chosen as u32 + 1, 1)
        } else {
            self.path.outcomes[node.first + node.chosen]
        };
        let den = node.den;
        self.depth += 1;
        if !self.weigh(u128::from(weight), u128::from(den)) {
            self.error = Some(ExactError::TooDeep);
            return Err(DiceError::Stopped);
        }
        Ok(value)
    }

    /// Multiplies the path's weight by `weight / den`; false when even the
    /// reduced product does not fit.
    fn weigh(&mut self, weight: u128, den: u128) -> bool {
        if let (Some(num), Some(den)) = (self.num.checked_mul(weight), self.den.checked_mul(den)) {
            (self.num, self.den) = (num, den);
            return true;
        }
        let g = gcd(self.num, self.den).max(1);
        (self.num, self.den) = (self.num / g, self.den / g);
        match (self.num.checked_mul(weight), self.den.checked_mul(den)) {
            (Some(num), Some(den)) => {
                (self.num, self.den) = (num, den);
                true
            }
            _ => false,
        }
    }
}

/// The greatest common divisor, in 64-bit arithmetic when both fit it.
fn gcd(mut a: u128, mut b: u128) -> u128 {
    if (a | b) >> 64 == 0 {
        let (mut a, mut b) = (a as u64, b as u64);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        return u128::from(a);
    }
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
        self.next_face((0, sides, 0), sides)
    }

    fn check(&mut self, die: Die, target: i32) -> Result<Check, DiceError> {
        let sides = die.sides();
        let face = self.next_into((1, sides, i64::from(target)), |outcomes| {
            // Two outcomes: a face at or under the target, and one over it.
            // Each hands back a face of its kind, for logs.
            let passing = i64::from(target).clamp(0, i64::from(sides)) as u32;
            if passing > 0 {
                outcomes.push((passing, u64::from(passing)));
            }
            if passing < sides {
                outcomes.push((passing + 1, u64::from(sides - passing)));
            }
            u64::from(sides)
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
        self.next_into((2, sides, i64::from(count)), |outcomes| {
            push_sum_counts(outcomes, count, sides);
            u64::from(sides).pow(count)
        })
    }

    fn total_band(&mut self, count: u32, die: Die, tops: &[u32]) -> Result<u32, DiceError> {
        let sides = die.sides();
        if count as usize > Pool::CAPACITY {
            return Err(DiceError::PoolTooLarge {
                count,
                max: Pool::CAPACITY,
            });
        }
        let key = tops.iter().fold(i64::from(count), |h, &t| {
            h.wrapping_mul(131).wrapping_add(i64::from(t))
        });
        self.next_into((6, sides, key), |outcomes| {
            // Every sum with its ways, then the sums of one band gathered
            // into its highest, in place: the sums ascend, so a band's sums
            // are next to each other.
            let start = outcomes.len();
            push_sum_counts(outcomes, count, sides);
            let mut kept = start;
            for at in start..outcomes.len() {
                let (sum, ways) = outcomes[at];
                if kept > start && band_of(tops, outcomes[kept - 1].0) == band_of(tops, sum) {
                    outcomes[kept - 1] = (sum, outcomes[kept - 1].1 + ways);
                } else {
                    outcomes[kept] = (sum, ways);
                    kept += 1;
                }
            }
            outcomes.truncate(kept);
            u64::from(sides).pow(count)
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
        self.next_into((3, sides, key), |outcomes| {
            let mut low = 1;
            for &top in tops.iter().chain(std::iter::once(&sides)) {
                let top = top.min(sides);
                if top >= low {
                    outcomes.push((top, u64::from(top - low + 1)));
                    low = top + 1;
                }
            }
            u64::from(sides)
        })
    }

    fn band_until(&mut self, die: Die, tops: &[u32], keep: &[bool]) -> Result<u32, DiceError> {
        let sides = die.sides();
        // Rolling again until a kept face comes up gives each kept face the
        // same chance in the limit: one over the number of kept faces.
        let kept = crate::dice::kept_faces(die, tops, keep);
        if kept == 0 {
            return Err(DiceError::NothingKept { die });
        }
        let key = tops
            .iter()
            .chain(std::iter::once(&sides))
            .zip(keep.iter().chain(std::iter::repeat(&false)))
            .fold(0i64, |h, (&t, &k)| {
                h.wrapping_mul(131)
                    .wrapping_add(i64::from(t) * 2 + i64::from(k))
            });
        self.next((4, sides, key), || {
            let mut outcomes = Vec::new();
            let mut low = 1;
            for (band, &top) in tops.iter().chain(std::iter::once(&sides)).enumerate() {
                let top = top.min(sides);
                if top >= low {
                    if keep.get(band).copied().unwrap_or(false) {
                        outcomes.push((top, u64::from(top - low + 1)));
                    }
                    low = top + 1;
                }
            }
            (outcomes, u64::from(kept))
        })
    }

    fn apart(&mut self, die: Die) -> Result<(u32, u32), DiceError> {
        // Of the pairs that differ, the first die is higher in exactly half.
        let first_higher = self.next((5, die.sides(), 0), || (vec![(1, 1), (0, 1)], 2))?;
        Ok(if first_higher == 1 { (2, 1) } else { (1, 2) })
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

/// Pushes `(sum, ways)` for `count` dice of `sides` faces onto `outcomes`,
/// every sum that can occur, in ascending order.
fn push_sum_counts(outcomes: &mut Vec<(u32, u64)>, count: u32, sides: u32) {
    // Counted as dice of faces 0 to sides - 1, every sum from 0 to the top
    // can occur; each sum is `count` more with faces from 1. Each die
    // multiplies the generating polynomial by 1 + x + ... + x^(sides - 1):
    // in place, over the prefix sums of the ways so far, from the top down.
    let start = outcomes.len();
    let (count, sides) = (count as usize, sides as usize);
    let top = count * (sides - 1);
    outcomes.extend((0..=top).map(|s| ((count + s) as u32, 0)));
    let ways = &mut outcomes[start..];
    ways[0].1 = 1;
    for rolled in 1..=count {
        let reach = rolled * (sides - 1);
        for s in 1..=reach {
            ways[s].1 += ways[s - 1].1;
        }
        for s in (sides..=reach).rev() {
            ways[s].1 -= ways[s - sides].1;
        }
    }
}

/// Masses by key, exact. While it fits 128 bits they are numerators over
/// one common denominator, the least common multiple of the denominators
/// added, so adding a path's weight is an integer addition; past that they
/// are reduced fractions, added as before.
enum Masses<T> {
    Common {
        den: u128,
        nums: BTreeMap<T, u128>,
    },
    Reduced {
        probs: BTreeMap<T, Prob>,
        overflow: bool,
    },
}

impl<T: Ord> Masses<T> {
    fn new() -> Masses<T> {
        Masses::Common {
            den: 1,
            nums: BTreeMap::new(),
        }
    }

    /// Adds `num / den` to the mass of `key`.
    fn add(&mut self, key: T, num: u128, den: u128) {
        let (probs, overflow) = match self {
            Masses::Common { den: common, nums } => {
                let Some((share, wider, factor)) = widen(num, den, *common).filter(|&(_, _, f)| {
                    f == 1 || nums.values().all(|&n| n.checked_mul(f).is_some())
                }) else {
                    self.reduce();
                    return self.add(key, num, den);
                };
                if factor != 1 {
                    nums.values_mut().for_each(|n| *n *= factor);
                    *common = wider;
                }
                match nums.entry(key) {
                    Entry::Vacant(entry) => {
                        entry.insert(share);
                        return;
                    }
                    Entry::Occupied(mut entry) => match u128::checked_add(*entry.get(), share) {
                        Some(sum) => {
                            *entry.get_mut() = sum;
                            return;
                        }
                        None => {
                            // Give the key back to add it as a fraction.
                            let (key, held) = entry.remove_entry();
                            let common = *common;
                            self.reduce();
                            if let Masses::Reduced { probs, overflow } = self {
                                let entry = probs.entry(key).or_insert_with(Prob::zero);
                                for p in [Prob::new(held, common), Prob::new(num, den)] {
                                    match entry.checked_add(&p) {
                                        Some(sum) => *entry = sum,
                                        None => *overflow = true,
                                    }
                                }
                            }
                            return;
                        }
                    },
                }
            }
            Masses::Reduced { probs, overflow } => (probs, overflow),
        };
        let entry = probs.entry(key).or_insert_with(Prob::zero);
        match entry.checked_add(&Prob::new(num, den)) {
            Some(sum) => *entry = sum,
            None => *overflow = true,
        }
    }

    /// Turns the masses into reduced fractions, to be added as such from
    /// now on.
    fn reduce(&mut self) {
        if let Masses::Common { den, nums } = self {
            let probs = std::mem::take(nums)
                .into_iter()
                .map(|(k, n)| (k, Prob::new(n, *den)))
                .collect();
            *self = Masses::Reduced {
                probs,
                overflow: false,
            };
        }
    }

    /// The masses as reduced fractions.
    fn into_probs(self) -> Result<BTreeMap<T, Prob>, ExactError> {
        match self {
            Masses::Common { den, nums } => Ok(nums
                .into_iter()
                .map(|(k, n)| (k, Prob::new(n, den)))
                .collect()),
            Masses::Reduced { overflow: true, .. } => Err(ExactError::TooDeep),
            Masses::Reduced { probs, .. } => Ok(probs),
        }
    }
}

/// `num / den` over a denominator shared with other masses, now over
/// `common`: `(share, wider, factor)`, the numerator over `wider`, the least
/// common multiple of `common` and `den`, and the factor that takes the
/// other numerators from `common` to `wider`. `None` when that does not fit
/// 128 bits.
fn widen(num: u128, den: u128, common: u128) -> Option<(u128, u128, u128)> {
    if den == 0 {
        return None;
    }
    if let Some(q) = exact_quotient(common, den) {
        return Some((num.checked_mul(q)?, common, 1));
    }
    // A path's weight is kept unreduced; reduced, its denominator may
    // already divide the common one.
    let g = gcd(num, den).max(1);
    let (num, den) = (num / g, den / g);
    if let Some(q) = exact_quotient(common, den) {
        return Some((num.checked_mul(q)?, common, 1));
    }
    let wider = (common / gcd(common, den)).checked_mul(den)?;
    Some((num.checked_mul(wider / den)?, wider, wider / common))
}

/// `a / b` when `b` divides `a`, in 64-bit arithmetic when both fit it.
fn exact_quotient(a: u128, b: u128) -> Option<u128> {
    if b == 0 {
        return None;
    }
    if (a | b) >> 64 == 0 {
        let (a, b) = (a as u64, b as u64);
        return a.is_multiple_of(b).then(|| u128::from(a / b));
    }
    a.is_multiple_of(b).then(|| a / b)
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
    let mut masses = Masses::new();
    let paths = visit_weights(max_paths, run, |outcome, num, den| {
        masses.add(outcome, num, den);
    })?;
    Ok((masses.into_probs()?, paths))
}

/// Runs `run` over every dice path, handing each path's outcome and
/// probability to `visit`; returns the number of paths.
pub fn visit_paths<T>(
    max_paths: u64,
    run: impl FnMut(&mut dyn Dice) -> Result<T, ResolveError>,
    mut visit: impl FnMut(T, Prob),
) -> Result<u64, ExactError> {
    visit_weights(max_paths, run, |outcome, num, den| {
        visit(outcome, Prob::new(num, den));
    })
}

/// As [`visit_paths`], each path's probability handed over as a numerator
/// and a denominator, not necessarily reduced.
fn visit_weights<T>(
    max_paths: u64,
    mut run: impl FnMut(&mut dyn Dice) -> Result<T, ResolveError>,
    mut visit: impl FnMut(T, u128, u128),
) -> Result<u64, ExactError> {
    let mut path = Path::default();
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
        let (depth, num, den) = (dice.depth, dice.num, dice.den);
        visit(result?, num, den);
        // The path's calls beyond what this run made belong to another
        // branch; then step to the next path.
        path.truncate(depth);
        if !path.advance() {
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
    /// The probability dropped, least likely states first, to keep an
    /// attack played in steps within its budget of states: the figures
    /// above sum to one less this. Zero when every path was followed.
    pub pruned: f64,
}

/// The exact distribution of an attack, from a function that resolves it
/// once with the dice given: the rules code itself, run over every outcome.
pub fn exact_attack(
    max_paths: u64,
    mut resolve: impl FnMut(&mut dyn Dice) -> Result<AttackOutcome, ResolveError>,
) -> Result<ExactAttack, ExactError> {
    let mut figures = Figures::new();
    let paths = visit_weights(max_paths, &mut resolve, |outcome, num, den| {
        figures.add(outcome, num, den);
    })?;
    if let Some(exact) = figures.finish(paths) {
        return Ok(exact);
    }
    // Masses too fine to share one denominator of 128 bits: the same paths
    // again, each outcome's probability kept as a reduced fraction.
    let (outcomes, paths) = enumerate(max_paths, resolve)?;
    gather_reduced(&outcomes, paths)
}

/// Where one step of an attack played in steps ([`exact_attack_in_steps`])
/// leaves it: still going, in a state that later steps continue from, or
/// done.
#[derive(Debug, Clone)]
pub enum Stepped<S> {
    /// The attack goes on from this state.
    Going(S),
    /// The attack is over.
    Done(AttackOutcome),
}

/// A least probability for [`exact_attack_in_steps`] that drops no state.
pub const DROP_NONE: Prob = Ratio::new_raw(0, 1);

/// A state of an attack played in steps ([`exact_attack_in_steps`]): it
/// can be compared and hashed, so equal states merge, and it knows whether
/// the attack hit, which the first step settles.
pub trait AttackState: Clone + Eq + Hash {
    /// Whether the attack hit. A state dropped to keep within the budget
    /// still counts towards the chance of a hit, which so stays exact.
    fn hit(&self) -> bool;

    /// How far the attack has gone: a number each step raises (the damage
    /// taken, the severities reached, less the work still pending, say).
    /// States are stepped least advanced first, so a state is stepped once
    /// every state that can lead to it has been and its mass has merged.
    /// Any number is correct; one that each step raises merges the most.
    fn progress(&self) -> u64;
}

/// The exact distribution of an attack played in steps: `step` plays the
/// first step from `None`, and each later one from a state an earlier step
/// left, with the dice given. Equal states are merged between steps, so an
/// attack whose branches meet again (chains of critical hits reaching the
/// same ship by different dice) is enumerated once from where they meet.
///
/// `step` must be a function of its state and its dice alone. At most
/// `max_paths` paths are taken over all steps. A state less likely than
/// `min_probability` when its turn comes is dropped, and the mass dropped
/// is reported as [`ExactAttack::pruned`]; zero drops nothing.
pub fn exact_attack_in_steps<S: AttackState>(
    max_paths: u64,
    min_probability: Prob,
    mut step: impl FnMut(Option<&S>, &mut dyn Dice) -> Result<Stepped<S>, ResolveError>,
) -> Result<ExactAttack, ExactError> {
    let mut outcomes: BTreeMap<AttackOutcome, Prob> = BTreeMap::new();
    let mut paths = 0u64;
    // The states still to step, by their progress: the least advanced are
    // stepped first, so that by the time a state is stepped every state
    // that can lead to it has been, and all its mass has merged.
    let mut waiting: BTreeMap<u64, StateMap<Option<S>, Prob>> = BTreeMap::new();
    waiting.entry(0).or_default().insert(None, Prob::one());
    // The mass dropped, of misses and of hits, summed in 128 bits while the
    // sum fits (the big fractions' greatest common divisors are slow).
    let mut pruned = [BigRational::zero(), BigRational::zero()];
    let mut dropped = [Prob::zero(); 2];
    while let Some((key, bucket)) = waiting.pop_first() {
        let mut fits = true;
        for (state, mass) in bucket {
            // Judged when its turn comes, once all its mass has merged.
            if mass < min_probability {
                let hit = usize::from(state.as_ref().is_some_and(AttackState::hit));
                let sum = &mut dropped[hit];
                *sum = match sum.checked_add(&mass) {
                    Some(more) => more,
                    None => {
                        pruned[hit] += to_big(*sum);
                        mass
                    }
                };
                continue;
            }
            let left = max_paths.saturating_sub(paths);
            paths += visit_weights(
                left,
                |dice| step(state.as_ref(), dice),
                |stepped, num, den| {
                    let Some(p) = mass.checked_mul(&Prob::new(num, den)) else {
                        fits = false;
                        return;
                    };
                    let held_mass = match stepped {
                        Stepped::Going(s) => {
                            // A step that claims no progress is still
                            // stepped later, never again in this bucket.
                            let at = s.progress().max(key + 1);
                            waiting
                                .entry(at)
                                .or_default()
                                .entry(Some(s))
                                .or_insert_with(Prob::zero)
                        }
                        Stepped::Done(outcome) => {
                            outcomes.entry(outcome).or_insert_with(Prob::zero)
                        }
                    };
                    match held_mass.checked_add(&p) {
                        Some(sum) => *held_mass = sum,
                        None => fits = false,
                    }
                },
            )
            .map_err(|e| match e {
                ExactError::TooManyPaths { .. } => ExactError::TooManyPaths { budget: max_paths },
                other => other,
            })?;
            if !fits {
                return Err(ExactError::TooDeep);
            }
        }
    }
    for (total, sum) in pruned.iter_mut().zip(dropped) {
        *total += to_big(sum);
    }
    let mut exact = gather_reduced(&outcomes, paths)?;
    let [missed, hit] = pruned;
    let dropped = &missed + &hit;
    if !dropped.is_zero() {
        let text = |p: &BigRational| format!("{}/{}", p.numer(), p.denom());
        exact.pruned = big_to_f64(&dropped);
        exact.fractions.insert("pruned".into(), text(&dropped));
        // The hits dropped hit all the same.
        let p_hit = outcomes
            .iter()
            .filter(|(outcome, _)| outcome.hit)
            .fold(hit, |sum, (_, p)| sum + to_big(*p));
        exact.p_hit = big_to_f64(&p_hit);
        exact.fractions.insert("p_hit".into(), text(&p_hit));
    }
    Ok(exact)
}

/// An attack's figures gathered path by path, each mass a numerator over
/// one common denominator (the least common multiple of the paths'), so
/// that adding a path's weight is an integer addition and each figure is
/// reduced once, for its report.
struct Figures {
    den: u128,
    p_hit: u128,
    /// Hull damage times its mass, summed.
    mean: u128,
    damage: BTreeMap<i32, u128>,
    results: Vec<Named>,
    destroyed: Vec<Named>,
    /// False once a mass would not fit 128 bits.
    fits: bool,
}

/// The mass of a result or a system destroyed, and where it first appears
/// among the outcomes in their order: the least outcome naming it, and
/// its place in that outcome's list.
struct Named {
    name: String,
    mass: u128,
    first: AttackOutcome,
    at: usize,
}

impl Figures {
    fn new() -> Figures {
        Figures {
            den: 1,
            p_hit: 0,
            mean: 0,
            damage: BTreeMap::new(),
            results: Vec::new(),
            destroyed: Vec::new(),
            fits: true,
        }
    }

    /// Adds an outcome of probability `num / den`.
    fn add(&mut self, outcome: AttackOutcome, num: u128, den: u128) {
        if self.fits {
            self.fits = self.try_add(&outcome, num, den).is_some();
        }
    }

    fn try_add(&mut self, outcome: &AttackOutcome, num: u128, den: u128) -> Option<()> {
        let (share, wider, factor) = widen(num, den, self.den)?;
        if factor != 1 {
            self.scale(factor)?;
            self.den = wider;
        }
        if outcome.hit {
            self.p_hit = self.p_hit.checked_add(share)?;
        }
        let d = self.damage.entry(outcome.hull_damage).or_insert(0);
        *d = d.checked_add(share)?;
        let hull = u128::try_from(outcome.hull_damage.max(0)).unwrap_or(0);
        self.mean = self.mean.checked_add(hull.checked_mul(share)?)?;
        // A result rolled twice in one attack counts once: the figure is the
        // chance the attack rolls it at all. A system destroyed counts each
        // time, as listed.
        for (at, result) in outcome.results.iter().enumerate() {
            if !outcome.results[..at].contains(result) {
                note(&mut self.results, outcome, at, share)?;
            }
        }
        for at in 0..outcome.destroyed.len() {
            note_destroyed(&mut self.destroyed, outcome, at, share)?;
        }
        Some(())
    }

    /// Multiplies every mass by `factor`, or changes nothing and returns
    /// `None` when one would not fit.
    fn scale(&mut self, factor: u128) -> Option<()> {
        let masses = || {
            [self.p_hit, self.mean]
                .into_iter()
                .chain(self.damage.values().copied())
                .chain(self.results.iter().map(|n| n.mass))
                .chain(self.destroyed.iter().map(|n| n.mass))
        };
        if masses().any(|m| m.checked_mul(factor).is_none()) {
            return None;
        }
        self.p_hit *= factor;
        self.mean *= factor;
        self.damage.values_mut().for_each(|m| *m *= factor);
        for named in self.results.iter_mut().chain(&mut self.destroyed) {
            named.mass *= factor;
        }
        Some(())
    }

    /// The report, or `None` when a mass did not fit.
    fn finish(mut self, paths: u64) -> Option<ExactAttack> {
        if !self.fits {
            return None;
        }
        let den = self.den;
        // Results and systems in the order they first appear among the
        // outcomes in order, as a list of the distinct outcomes reads.
        for list in [&mut self.results, &mut self.destroyed] {
            list.sort_by(|a, b| a.first.cmp(&b.first).then(a.at.cmp(&b.at)));
        }
        // The figures as fractions, by name: built in the map's order, so
        // that it takes them in one pass. "damage N" come first, ordered as
        // the text of N orders; then "destroyed", "mean_hull_damage",
        // "p_hit" and "result", each group by name.
        let fraction = |name: String, n: u128| {
            let p = reduced(n, den);
            (to_f64(&p), (name, fraction_text(&p)))
        };
        let mut by_text: Vec<(u64, (String, String))> = Vec::with_capacity(self.damage.len());
        let hull_damage = self
            .damage
            .iter()
            .map(|(&d, &n)| {
                let (p, entry) = fraction(named("damage ", d), n);
                by_text.push((text_order(d), entry));
                (d, p)
            })
            .collect();
        by_text.sort_unstable_by_key(|&(key, _)| key);
        let mut fractions: Vec<(String, String)> = by_text.into_iter().map(|(_, e)| e).collect();
        let named_list = |list: Vec<Named>, prefix: &str| {
            let mut entries = Vec::with_capacity(list.len());
            let figures = list
                .into_iter()
                .map(|n| {
                    let (p, entry) = fraction(prefixed(prefix, &n.name), n.mass);
                    entries.push(entry);
                    (n.name, p)
                })
                .collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            (figures, entries)
        };
        let (destroyed, destroyed_entries) = named_list(self.destroyed, "destroyed ");
        let (results, result_entries) = named_list(self.results, "result ");
        fractions.extend(destroyed_entries);
        let (mean_hull_damage, mean_entry) = fraction("mean_hull_damage".into(), self.mean);
        let (p_hit, p_hit_entry) = fraction("p_hit".into(), self.p_hit);
        fractions.push(mean_entry);
        fractions.push(p_hit_entry);
        fractions.extend(result_entries);
        Some(ExactAttack {
            p_hit,
            hull_damage,
            mean_hull_damage,
            results,
            destroyed,
            fractions: fractions.into_iter().collect(),
            paths,
            pruned: 0.0,
        })
    }
}

/// Adds `share` to the result `outcome.results[at]`.
fn note(list: &mut Vec<Named>, outcome: &AttackOutcome, at: usize, share: u128) -> Option<()> {
    note_name(list, &outcome.results[at], outcome, at, share)
}

/// Adds `share` to the system `outcome.destroyed[at]`.
fn note_destroyed(
    list: &mut Vec<Named>,
    outcome: &AttackOutcome,
    at: usize,
    share: u128,
) -> Option<()> {
    note_name(list, &outcome.destroyed[at], outcome, at, share)
}

/// Adds `share` to the mass of `name`, named at `at` in `outcome`.
fn note_name(
    list: &mut Vec<Named>,
    name: &str,
    outcome: &AttackOutcome,
    at: usize,
    share: u128,
) -> Option<()> {
    match list.iter_mut().find(|n| n.name == name) {
        Some(named) => {
            named.mass = named.mass.checked_add(share)?;
            if *outcome < named.first {
                named.first = outcome.clone();
                named.at = at;
            }
        }
        None => list.push(Named {
            name: name.to_owned(),
            mass: share,
            first: outcome.clone(),
            at,
        }),
    }
    Some(())
}

/// `num / den` in lowest terms.
fn reduced(num: u128, den: u128) -> Prob {
    let g = gcd(num, den).max(1);
    match (exact_quotient(num, g), exact_quotient(den, g)) {
        (Some(n), Some(d)) => Prob::new_raw(n, d),
        // A common divisor divides both; kept total all the same.
        _ => Prob::new(num, den),
    }
}

/// A fraction as `"num/den"`.
fn fraction_text(p: &Prob) -> String {
    let (Ok(num), Ok(den)) = (u64::try_from(*p.numer()), u64::try_from(*p.denom())) else {
        // Dividing in 128 bits is slow, and rare enough to leave to `Display`.
        return format!("{}/{}", p.numer(), p.denom());
    };
    // Written from the right into one buffer, then copied once.
    let mut text = Backwards::<41>::new();
    text.digits(den);
    text.push(b'/');
    text.digits(num);
    text.into_string()
}

/// `prefix` followed by `n` in decimal.
fn named(prefix: &str, n: i32) -> String {
    let mut text = Backwards::<32>::new();
    text.digits(u64::from(n.unsigned_abs()));
    if n < 0 {
        text.push(b'-');
    }
    let digits = text.as_str();
    let mut named = String::with_capacity(prefix.len() + digits.len());
    named.push_str(prefix);
    named.push_str(digits);
    named
}

/// Text written from the right, as decimal digits come: the formatting
/// machinery costs more than the digits, and a report prints some two
/// hundred numbers.
struct Backwards<const N: usize> {
    bytes: [u8; N],
    at: usize,
}

impl<const N: usize> Backwards<N> {
    fn new() -> Self {
        Backwards {
            bytes: [b'0'; N],
            at: N,
        }
    }

    /// Puts `byte` before the text; ignored when the buffer is full.
    fn push(&mut self, byte: u8) {
        if self.at > 0 {
            self.at -= 1;
            self.bytes[self.at] = byte;
        }
    }

    /// Puts `n` in decimal before the text.
    fn digits(&mut self, mut n: u64) {
        loop {
            self.push(b'0' + (n % 10) as u8);
            n /= 10;
            if n == 0 {
                break;
            }
        }
    }

    fn as_str(&self) -> &str {
        // Only ASCII is ever written.
        std::str::from_utf8(&self.bytes[self.at..]).unwrap_or_default()
    }

    fn into_string(self) -> String {
        self.as_str().to_owned()
    }
}

/// A key that orders numbers as their decimal text orders ("10" before
/// "4"): each character a hexadecimal digit from the left, the end of the
/// text lowest, then '-', then '0' to '9'.
fn text_order(n: i32) -> u64 {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = n.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let sign = (n < 0).then_some(1u64);
    let places = sign
        .into_iter()
        .chain(digits[at..].iter().map(|&d| u64::from(d) + 2));
    // Eleven places at most (a sign and ten digits), four bits each.
    let mut key = 0u64;
    let mut filled = 0;
    for place in places {
        key = key << 4 | place;
        filled += 1;
    }
    key << (4 * (11 - filled))
}

/// `prefix` followed by `name`.
fn prefixed(prefix: &str, name: &str) -> String {
    let mut text = String::with_capacity(prefix.len() + name.len());
    text.push_str(prefix);
    text.push_str(name);
    text
}

/// The figures of an attack from the probabilities of its outcomes as
/// reduced fractions, for masses too fine to share one denominator.
fn gather_reduced(
    outcomes: &BTreeMap<AttackOutcome, Prob>,
    paths: u64,
) -> Result<ExactAttack, ExactError> {
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
    for (outcome, p) in outcomes {
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
        fractions.insert(name, fraction_text(p));
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
        pruned: 0.0,
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

/// A map of battle states. Every state reached on a dice path is hashed
/// here, and the states are large, so the hash is a cheap one with fixed
/// keys: the order the map keeps changes no figure, since masses add
/// exactly and pruning ranks by mass and [`stable_hash`].
type StateMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// FxHash, as the Rust compiler hashes its tables: per word, a rotation,
/// an exclusive or and a multiplication.
#[derive(Default, Clone, Copy)]
struct WordHasher {
    hash: u64,
}

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut le = [0u8; 8];
            le.copy_from_slice(word);
            self.add(u64::from_le_bytes(le));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut le = [0u8; 8];
            le[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(le));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// How many verdicts [`verdict_key`] tells apart.
const VERDICTS: usize = 6;

/// Where a path of one step ends: in a state still in play, or decided.
#[derive(Clone)]
enum Reached<S> {
    State(S),
    Decided(u8),
}

/// What a [`Reach`] could not hold: one place reached and its masses as
/// fractions (zero numerators are none).
struct Leftover<S> {
    to: Reached<S>,
    masses: [(u128, u128); 2],
}

/// The masses one state reaches in one step, as numerators over one common
/// denominator, the least common multiple of its paths'. Adding a path's
/// weight is then an integer addition, and the state's own mass multiplies
/// each place it reaches once rather than each path.
struct Reach<S> {
    den: u128,
    states: StateMap<S, u128>,
    decided: [u128; VERDICTS],
}

impl<S: Eq + Hash> Reach<S> {
    fn new() -> Reach<S> {
        Reach {
            den: 1,
            states: StateMap::default(),
            decided: [0; VERDICTS],
        }
    }

    /// Adds a path's weight `num / den` to the mass of `to`; what would not
    /// fit 128 bits is handed back.
    fn add(&mut self, to: Reached<S>, num: u128, den: u128) -> Option<Leftover<S>> {
        let leftover = |to| {
            Some(Leftover {
                to,
                masses: [(num, den), (0, 1)],
            })
        };
        let Some((share, wider, factor)) = widen(num, den, self.den) else {
            return leftover(to);
        };
        if factor != 1 {
            let mut held = self.states.values().chain(&self.decided);
            if !held.all(|&n| n.checked_mul(factor).is_some()) {
                return leftover(to);
            }
            for n in self.states.values_mut().chain(&mut self.decided) {
                *n *= factor;
            }
            self.den = wider;
        }
        let common = self.den;
        match to {
            Reached::State(state) => match self.states.entry(state) {
                std::collections::hash_map::Entry::Vacant(entry) => {
                    entry.insert(share);
                    None
                }
                std::collections::hash_map::Entry::Occupied(mut entry) => {
                    match u128::checked_add(*entry.get(), share) {
                        Some(sum) => {
                            *entry.get_mut() = sum;
                            None
                        }
                        None => {
                            let (state, held) = entry.remove_entry();
                            Some(Leftover {
                                to: Reached::State(state),
                                masses: [(held, common), (num, den)],
                            })
                        }
                    }
                }
            },
            Reached::Decided(key) => {
                let slot = &mut self.decided[usize::from(key)];
                match slot.checked_add(share) {
                    Some(sum) => {
                        *slot = sum;
                        None
                    }
                    None => {
                        let held = std::mem::take(slot);
                        Some(Leftover {
                            to: Reached::Decided(key),
                            masses: [(held, common), (num, den)],
                        })
                    }
                }
            }
        }
    }
}

/// The masses every state of a step reaches, as numerators over the
/// denominator of the states' masses times `scale`: integers added and
/// multiplied, never reduced until the step is over.
struct Step<S> {
    scale: BigUint,
    states: StateMap<S, BigUint>,
    decided: [BigUint; VERDICTS],
}

impl<S: Clone + Eq + Hash> Step<S> {
    fn new() -> Step<S> {
        Step {
            scale: BigUint::one(),
            states: StateMap::default(),
            decided: Default::default(),
        }
    }

    /// Takes in what a state of mass `mass` (a numerator) reached, leaving
    /// `reach` empty.
    fn absorb(&mut self, reach: &mut Reach<S>, mass: &BigUint) {
        let factor = self.widen(reach.den) * mass;
        for (state, n) in reach.states.drain() {
            *self.states.entry(state).or_default() += &factor * n;
        }
        for (slot, n) in self.decided.iter_mut().zip(&mut reach.decided) {
            if *n != 0 {
                *slot += &factor * std::mem::take(n);
            }
        }
        reach.den = 1;
    }

    /// Takes in what a [`Reach`] of a state of mass `mass` could not hold.
    fn absorb_leftover(&mut self, leftover: Leftover<S>, mass: &BigUint) {
        for (num, den) in leftover.masses {
            if num != 0 {
                let n = self.widen(den) * mass * num;
                match leftover.to.clone() {
                    Reached::State(state) => *self.states.entry(state).or_default() += n,
                    Reached::Decided(key) => self.decided[usize::from(key)] += n,
                }
            }
        }
    }

    /// Makes `scale` a multiple of `den`, scaling the masses held to match;
    /// returns `scale / den`.
    fn widen(&mut self, den: u128) -> BigUint {
        let den = BigUint::from(den);
        let (quotient, rest) = self.scale.div_rem(&den);
        if rest.is_zero() {
            return quotient;
        }
        let wider = self.scale.lcm(&den);
        let factor = &wider / &self.scale;
        for n in self.states.values_mut().chain(&mut self.decided) {
            *n *= &factor;
        }
        self.scale = wider;
        &self.scale / den
    }

    /// The step's masses as numerators over one denominator, the states'
    /// `den` times `scale`, reduced by what they all share so that the
    /// numbers stay as small as the fractions they stand for.
    fn finish(mut self, den: &BigUint) -> (BigUint, StateMap<S, BigUint>, [BigUint; VERDICTS]) {
        let mut den = den * &self.scale;
        let mut common = den.clone();
        for n in self.states.values().chain(&self.decided) {
            if common.is_one() {
                break;
            }
            if !n.is_zero() {
                common = common.gcd(n);
            }
        }
        if !common.is_one() {
            for n in self.states.values_mut().chain(&mut self.decided) {
                *n /= &common;
            }
            den /= &common;
        }
        (den, self.states, self.decided)
    }
}

/// Adds the masses decided in a step, numerators over `den`, to
/// `finished` under `turn`.
fn record(
    finished: &mut BTreeMap<(u8, u32), BigRational>,
    decided: [BigUint; VERDICTS],
    den: &BigUint,
    turn: u32,
) {
    for (key, n) in (0u8..).zip(decided) {
        if !n.is_zero() {
            let p = BigRational::new(BigInt::from(n), BigInt::from(den.clone()));
            add(finished, (key, turn), p);
        }
    }
}

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
    let one = BigUint::one();
    let mut step = Step::new();
    let mut reach = Reach::new();
    paths += visit_weights(
        max_paths,
        |dice| setup.begin(dice, &mut NullSink),
        |state, num, den| {
            let to = match sequence.verdict(&state) {
                Some(verdict) => Reached::Decided(verdict_key(verdict)),
                None => Reached::State(state),
            };
            if let Some(leftover) = reach.add(to, num, den) {
                step.absorb(&mut reach, &one);
                step.absorb_leftover(leftover, &one);
            }
        },
    )?;
    step.absorb(&mut reach, &one);
    // The states in play, their masses numerators over `den`.
    let (mut den, mut states, decided) = step.finish(&one);
    record(&mut finished, decided, &den, 0);
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
        for (phase, step_index, last) in steps {
            if states.is_empty() {
                break;
            }
            let mut step = Step::new();
            let current: Vec<(S::State, BigUint)> = states.drain().collect();
            for (state, mass) in current {
                let left = max_paths.saturating_sub(paths);
                paths += visit_weights(
                    left,
                    |dice| {
                        let mut s = state.clone();
                        sequence.play_step(
                            phase,
                            turn,
                            step_index,
                            &mut s,
                            tactics,
                            dice,
                            &mut NullSink,
                        )?;
                        Ok(s)
                    },
                    |s, num, den| {
                        let to = match sequence.verdict(&s).filter(|_| last) {
                            Some(verdict) => Reached::Decided(verdict_key(verdict)),
                            None => Reached::State(s),
                        };
                        if let Some(leftover) = reach.add(to, num, den) {
                            step.absorb(&mut reach, &mass);
                            step.absorb_leftover(leftover, &mass);
                        }
                    },
                )
                .map_err(|e| match e {
                    ExactError::TooManyPaths { .. } => {
                        ExactError::TooManyPaths { budget: max_paths }
                    }
                    other => other,
                })?;
                step.absorb(&mut reach, &mass);
            }
            let (step_den, mut next, decided) = step.finish(&den);
            record(&mut finished, decided, &step_den, turn);
            if next.len() > max_states {
                let mut ranked: Vec<(u64, S::State, BigUint)> =
                    next.drain().map(|(s, n)| (stable_hash(&s), s, n)).collect();
                // Most likely first (the masses share one denominator, so
                // their numerators compare); equal masses by a hash with
                // fixed keys, so the same states are kept on every run.
                ranked.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
                let dropped: BigUint = ranked.drain(max_states..).map(|(_, _, n)| n).sum();
                pruned += BigRational::new(BigInt::from(dropped), BigInt::from(step_den.clone()));
                next.extend(ranked.into_iter().map(|(_, s, n)| (s, n)));
            }
            peak = peak.max(next.len());
            states = next;
            den = step_den;
        }
    }
    let held: BigUint = states.values().sum();
    let undecided = BigRational::new(BigInt::from(held), BigInt::from(den));
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

/// An exact fraction of 128 bits as a big one.
fn to_big(p: Prob) -> BigRational {
    BigRational::new(BigInt::from(*p.numer()), BigInt::from(*p.denom()))
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

fn add<K: Ord>(map: &mut BTreeMap<K, BigRational>, key: K, p: BigRational) {
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

    fn check<T: PartialEq + std::fmt::Debug>(case: &str, got: T, want: T) {
        assert_eq!(got, want, "{case}");
    }

    /// A die of 3^20 faces, the most faces a power of three can give a die:
    /// four checks at 1 on it weigh a path 1/3^80, which fits 128 bits,
    /// and a d7 after one check weighs it in sevenths of 1/3^20; the two
    /// share no denominator of 128 bits.
    fn huge_die() -> Die {
        Die::new(3u32.pow(20)).unwrap()
    }

    /// Checks at 1 on the huge die: the first, and if it passes three
    /// more, counting passes; if it fails, a d7. `("checks", passes)` or
    /// `("d7", face)`.
    fn huge_gamble(dice: &mut dyn Dice) -> Result<(&'static str, u32), DiceError> {
        if dice.check(huge_die(), 1)?.passed {
            let mut passes = 1;
            for _ in 0..3 {
                passes += u32::from(dice.check(huge_die(), 1)?.passed);
            }
            Ok(("checks", passes))
        } else {
            Ok(("d7", dice.roll(Die::new(7).unwrap())?))
        }
    }

    /// The odds of [`huge_gamble`], reckoned by hand: `n` = 3^20, the first
    /// check passes 1/n of the time, then k of 3 pass with the binomial
    /// odds; a d7 face after a failed first check is (n - 1) / 7n.
    fn huge_gamble_odds() -> BTreeMap<(&'static str, u32), Prob> {
        let n = 3u128.pow(20);
        let choose = [1, 3, 3, 1];
        let mut odds = BTreeMap::new();
        for k in 0..=3u32 {
            let ways = choose[k as usize] * (n - 1).pow(3 - k);
            odds.insert(("checks", 1 + k), p(ways, n.pow(4)));
        }
        for face in 1..=7 {
            odds.insert(("d7", face), p(n - 1, 7 * n));
        }
        odds
    }

    #[test]
    fn sums_of_dice_count_every_way_to_roll_them() {
        for (count, sides) in [(0, 6), (1, 6), (2, 6), (3, 6), (4, 10), (5, 2), (2, 100)] {
            let mut counted = Vec::new();
            push_sum_counts(&mut counted, count, sides);
            // Every roll of the dice, face by face.
            let mut ways: BTreeMap<u32, u64> = BTreeMap::new();
            for roll in 0..sides.pow(count) {
                let (mut rest, mut sum) = (roll, 0);
                for _ in 0..count {
                    sum += rest % sides + 1;
                    rest /= sides;
                }
                *ways.entry(sum).or_insert(0) += 1;
            }
            check(
                &format!("{count}d{sides}"),
                counted,
                ways.into_iter().collect(),
            );
        }
    }

    #[test]
    fn a_call_given_as_a_list_branches_like_one_written_in_place() {
        // A d6 read in bands 1-2 and 3-6, once as a band and once as a list
        // of outcomes: the same values with the same weights, path by path.
        let (mut listed, mut written) = (Path::default(), Path::default());
        let mut paths = 0;
        loop {
            let mut dice = PathDice {
                path: &mut listed,
                depth: 0,
                num: 1,
                den: 1,
                error: None,
            };
            let got = (
                dice.next((3, 6, 2), || (vec![(2, 2), (6, 4)], 6)),
                dice.num,
                dice.den,
            );
            let mut dice = PathDice {
                path: &mut written,
                depth: 0,
                num: 1,
                den: 1,
                error: None,
            };
            let want = (dice.band(Die::D6, &[2]), dice.num, dice.den);
            check(&format!("path {paths}"), got, want);
            paths += 1;
            let (more, also) = (listed.advance(), written.advance());
            check("both end together", more, also);
            if !more {
                break;
            }
        }
        check("paths", paths, 2);
    }

    #[test]
    fn masses_too_fine_for_one_denominator_add_as_fractions() {
        // The paths' denominators have no common multiple in 128 bits, so
        // the masses are added as reduced fractions, exactly all the same.
        let (odds, paths) = enumerate(100, |dice| Ok(huge_gamble(dice)?)).unwrap();
        check("paths", paths, 15);
        check("odds", odds, huge_gamble_odds());
    }

    #[test]
    fn an_attack_too_fine_for_one_denominator_is_gathered_as_fractions() {
        // The huge gamble as an attack: a hit when the first check passes,
        // the passes as hull damage; a miss rolls its d7 as a result. No
        // figure adds masses of both kinds of path but the damage-free mean.
        let exact = exact_attack(100, |dice| {
            let (kind, n) = huge_gamble(dice)?;
            let hit = kind == "checks";
            Ok(AttackOutcome {
                hit,
                results: vec![format!("{kind} {n}")],
                hull_damage: if hit { n as i32 } else { 0 },
                destroyed: Vec::new(),
            })
        })
        .unwrap();
        let text = |q: &Prob| format!("{}/{}", q.numer(), q.denom());
        let odds = huge_gamble_odds();
        let mut mean = Prob::zero();
        let mut p_hit = Prob::zero();
        for (&(kind, n), q) in &odds {
            check(
                &format!("{kind} {n}"),
                exact.fractions[&format!("result {kind} {n}")].clone(),
                text(q),
            );
            if kind == "checks" {
                check(
                    &format!("damage {n}"),
                    exact.fractions[&format!("damage {n}")].clone(),
                    text(q),
                );
                mean += q * Prob::from(u128::from(n));
                p_hit += q;
            }
        }
        check("p_hit", exact.fractions["p_hit"].clone(), text(&p_hit));
        check(
            "mean",
            exact.fractions["mean_hull_damage"].clone(),
            text(&mean),
        );
        check(
            "miss",
            exact.fractions["damage 0"].clone(),
            text(&(Prob::one() - p_hit)),
        );
        check("paths", exact.paths, 15);
    }

    #[test]
    fn results_are_listed_in_the_order_of_the_outcomes() {
        // A d6: a 1 rolls "zeta", a 2 "alpha" then "zeta", anything else
        // "beta". The outcomes in order are (alpha, zeta) < (beta) < (zeta),
        // so the results first appear as alpha, zeta, beta, though the
        // paths meet zeta first.
        let exact = exact_attack(100, |dice| {
            let results = match dice.roll(Die::D6)? {
                1 => vec!["zeta"],
                2 => vec!["alpha", "zeta"],
                _ => vec!["beta"],
            };
            Ok(AttackOutcome {
                hit: true,
                results: results.into_iter().map(String::from).collect(),
                hull_damage: 0,
                destroyed: Vec::new(),
            })
        })
        .unwrap();
        let names: Vec<&str> = exact.results.iter().map(|(n, _)| n.as_str()).collect();
        check("order", names, vec!["alpha", "zeta", "beta"]);
        check("zeta", exact.fractions["result zeta"].as_str(), "1/3");
        check("beta", exact.fractions["result beta"].as_str(), "2/3");
    }

    #[test]
    fn figures_print_as_display_prints_them() {
        let big = u128::from(u64::MAX);
        for (num, den) in [
            (0, 1),
            (1, 10),
            (9, 10),
            (12_345, 67_890),
            (big, big + 1),
            (big + 1, big + 2),
        ] {
            let q = Prob::new_raw(num, den);
            check("fraction", fraction_text(&q), format!("{num}/{den}"));
        }
        let numbers = [
            i32::MIN,
            -100,
            -10,
            -9,
            -1,
            0,
            1,
            4,
            9,
            10,
            12,
            100,
            123,
            i32::MAX,
        ];
        for n in numbers {
            check("named", named("damage ", n), format!("damage {n}"));
        }
        // Ordered by `text_order`, numbers fall as their text sorts.
        let mut by_key = numbers.to_vec();
        by_key.sort_by_key(|&n| text_order(n));
        let mut by_text = numbers.to_vec();
        by_text.sort_by_key(|n| n.to_string());
        check("text order", by_key, by_text);
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

    /// A toy attack: a d6 to hit at 4+, then a d4 of damage to which the
    /// hit's face adds 1 when even; a damage of 4 or more rolls a d3 more.
    /// Played whole, or in steps whose states (the damage so far, and
    /// whether the d3 is owed) merge.
    fn toy_outcome(hit: bool, damage: i32) -> AttackOutcome {
        AttackOutcome {
            hit,
            results: if damage >= 6 {
                vec!["heavy".into()]
            } else {
                Vec::new()
            },
            hull_damage: damage,
            destroyed: Vec::new(),
        }
    }

    /// One step of the toy attack: from no state the d6, then the d4 with
    /// its bonus, then the d3 owed.
    /// The toy attack's state between steps: the damage so far (or the
    /// bonus owed to the d4), and whether the d3 is owed. Every state is of
    /// a hit.
    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
    struct ToyAttack(i32, bool);

    impl AttackState for ToyAttack {
        fn hit(&self) -> bool {
            true
        }

        fn progress(&self) -> u64 {
            u64::from(self.1)
        }
    }

    fn toy_step(
        state: Option<&ToyAttack>,
        dice: &mut dyn Dice,
    ) -> Result<Stepped<ToyAttack>, ResolveError> {
        Ok(match state {
            None => {
                let face = dice.roll(Die::D6)?;
                if face < 4 {
                    Stepped::Done(toy_outcome(false, 0))
                } else {
                    Stepped::Going(ToyAttack(i32::from(face % 2 == 0), false))
                }
            }
            Some(&ToyAttack(bonus, false)) => {
                let damage = dice.roll(Die::new(4).unwrap())? as i32 + bonus;
                if damage >= 4 {
                    Stepped::Going(ToyAttack(damage, true))
                } else {
                    Stepped::Done(toy_outcome(true, damage))
                }
            }
            Some(&ToyAttack(damage, true)) => Stepped::Done(toy_outcome(
                true,
                damage + dice.roll(Die::new(3).unwrap())? as i32,
            )),
        })
    }

    #[test]
    fn an_attack_played_in_steps_merges_equal_states() {
        let whole = exact_attack(1000, |dice| {
            let face = dice.roll(Die::D6)?;
            if face < 4 {
                return Ok(toy_outcome(false, 0));
            }
            let mut damage = dice.roll(Die::new(4).unwrap())? as i32 + i32::from(face % 2 == 0);
            if damage >= 4 {
                damage += dice.roll(Die::new(3).unwrap())? as i32;
            }
            Ok(toy_outcome(true, damage))
        })
        .unwrap();
        let stepped = exact_attack_in_steps(1000, Prob::zero(), toy_step).unwrap();
        check("fractions", &stepped.fractions, &whole.fractions);
        check("results", &stepped.results, &whole.results);
        // Whole: 3 misses; an even hit's d4 reaches 4 on two faces, each
        // rolling the d3, an odd one's on one face. In steps: the d6, a d4
        // for each bonus, and a d3 for each damage of 4 or 5, once however
        // it was reached.
        check("paths whole", whole.paths, 3 + 2 * (2 * 3 + 2) + (3 + 3));
        check("paths in steps", stepped.paths, 6 + 2 * 4 + 2 * 3);
    }

    #[test]
    fn an_attack_played_in_steps_drops_the_states_less_likely_than_asked() {
        // At 1/5: after the d6, the odd bonus (face 5, 1/6) is dropped and
        // the even one (faces 4 and 6, 1/3) kept; after its d4, damage 4
        // and 5 (1/12 each) are dropped. The figures left sum to 1 - 1/3.
        let pruned = exact_attack_in_steps(1000, Prob::new(1, 5), toy_step).unwrap();
        check(
            "pruned",
            pruned.fractions.get("pruned"),
            Some(&"1/3".to_owned()),
        );
        check(
            "pruned mass",
            (pruned.pruned * 1e12).round() / 1e12,
            (1e12f64 / 3.0).round() / 1e12,
        );
        // Every state dropped was of a hit, which still counts: faces 4-6.
        check(
            "P(hit) kept",
            pruned.fractions.get("p_hit"),
            Some(&"1/2".to_owned()),
        );
        let left: f64 = pruned.hull_damage.iter().map(|(_, p)| p).sum();
        check(
            "figures left",
            (left * 1e12).round() / 1e12,
            (2e12f64 / 3.0).round() / 1e12,
        );
        // A state exactly as likely as asked is kept.
        let whole = exact_attack_in_steps(1000, Prob::new(1, 12), toy_step).unwrap();
        check("nothing pruned at the least mass", whole.pruned, 0.0);
        check("no pruned fraction", whole.fractions.get("pruned"), None);
    }

    #[test]
    fn sums_in_bands_weigh_every_way_to_roll_them() {
        // 2d6 in bands 2-6, 7-9 and 10-12: 15, 15 and 6 ways in 36, each
        // handed back as its highest sum.
        let (odds, paths) = enumerate(10, |dice| {
            dice.total_band(2, Die::D6, &[6, 9]).map_err(Into::into)
        })
        .unwrap();
        check("paths", paths, 3);
        check("2-6", odds[&6], p(15, 36));
        check("7-9", odds[&9], p(15, 36));
        check("10-12", odds[&12], p(6, 36));
        // No tops: one band, rolled once.
        let (odds, _) = enumerate(10, |dice| {
            dice.total_band(3, Die::D6, &[]).map_err(Into::into)
        })
        .unwrap();
        check("one band", odds[&18], p(1, 1));
        // A plain source rolls the same faces as a total.
        let (mut banded, mut plain) = (crate::SeededDice::new(5), crate::SeededDice::new(5));
        for _ in 0..20 {
            check(
                "seeded",
                banded.total_band(2, Die::D6, &[6, 9]).unwrap(),
                plain.total(2, Die::D6).unwrap(),
            );
        }
    }

    #[test]
    fn a_roll_made_again_is_weighed_as_its_limit() {
        // d10 in bands 1-3, 4-7, 8-10, the first rolled again. Summed over
        // the rolls again, P(4-7) = 4/10 * (1 + 3/10 + (3/10)^2 + ...)
        // = 4/10 / (7/10) = 4/7, and P(8-10) = 3/7.
        let (odds, paths) = enumerate(10, |dice| {
            dice.band_until(Die::D10, &[3, 7], &[false, true, true])
                .map_err(Into::into)
        })
        .unwrap();
        assert_eq!(paths, 2);
        assert_eq!(odds[&7], p(4, 7));
        assert_eq!(odds[&10], p(3, 7));
        // A kept band that is not the last: d6 kept only on 2-3.
        let (odds, _) = enumerate(10, |dice| {
            dice.band_until(Die::D6, &[1, 3], &[false, true, false])
                .map_err(Into::into)
        })
        .unwrap();
        assert_eq!(odds.into_iter().collect::<Vec<_>>(), vec![(3, p(1, 1))]);
        // Nothing kept is an error, not a path.
        let nothing = enumerate(10, |dice| {
            dice.band_until(Die::D6, &[3], &[false, false])
                .map_err(Into::into)
        });
        assert_eq!(
            nothing,
            Err(ExactError::Rules(ResolveError::Dice(
                DiceError::NothingKept { die: Die::D6 }
            )))
        );
    }

    #[test]
    fn two_dice_rolled_until_they_differ_are_even() {
        // Two d10s: 45 of the 100 pairs have the first higher, 45 the
        // second, and the 10 ties are rolled again: 45/90 each.
        let (odds, paths) = enumerate(10, |dice| {
            let (first, second) = dice.apart(Die::D10)?;
            Ok(first > second)
        })
        .unwrap();
        assert_eq!(paths, 2);
        assert_eq!(odds[&true], p(45, 90));
        assert_eq!(odds[&false], p(45, 90));
        // Twice in a row: four paths of a quarter each.
        let (odds, paths) = enumerate(10, |dice| {
            let one = dice.apart(Die::D6)?;
            let two = dice.apart(Die::D6)?;
            Ok((one.0 > one.1) as u8 + (two.0 > two.1) as u8)
        })
        .unwrap();
        assert_eq!(paths, 4);
        assert_eq!(odds[&1], p(1, 2));
        assert_eq!(odds[&2], p(1, 4));
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

    /// A toy battle: `sequence` played from `start` for `max_turns` turns,
    /// with no ships to report and no tactics.
    struct Toy<Q: TurnSequence<Tactics = ()> + Copy> {
        roster: crate::Roster,
        sequence: Q,
        start: Q::State,
        max_turns: u32,
    }

    impl<Q: TurnSequence<Tactics = ()> + Copy> Toy<Q> {
        fn new(sequence: Q, start: Q::State, max_turns: u32) -> Toy<Q> {
            Toy {
                roster: crate::Roster::default(),
                sequence,
                start,
                max_turns,
            }
        }
    }

    impl<Q: TurnSequence<Tactics = ()> + Copy + Send + Sync> Setup for Toy<Q>
    where
        Q::State: Clone + Eq + Hash + Send + Sync,
    {
        type State = Q::State;
        type Tactics = ();
        type Sequence<'a>
            = Q
        where
            Q: 'a;

        fn sequence(&self) -> Q {
            self.sequence
        }
        fn roster(&self) -> &crate::Roster {
            &self.roster
        }
        fn max_turns(&self) -> u32 {
            self.max_turns
        }
        fn tactics(&self) -> [&(); 2] {
            [&(), &()]
        }
        fn begin(
            &self,
            _dice: &mut dyn Dice,
            _sink: &mut dyn crate::EventSink,
        ) -> Result<Q::State, ResolveError> {
            Ok(self.start.clone())
        }
        fn fates(&self, _state: &Q::State) -> Vec<crate::ShipFate> {
            Vec::new()
        }
    }

    /// The race below, from two hull points a side, over three turns.
    fn race() -> Toy<RaceSequence> {
        Toy::new(RaceSequence, (2, 2), 3)
    }

    /// A toy battle: each side has two hull points; in its phase a side hits
    /// on a d6 of 1-3 (A) or 1-2 (B) and takes a point off the other.
    #[derive(Clone, Copy)]
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

    /// The same race as one phase of two steps, each side's shot a step; a
    /// side with no hull left does not shoot.
    #[derive(Clone, Copy)]
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

    /// One turn of the huge gamble as a battle: side A wins when three of
    /// its checks pass; otherwise the battle goes on, its state the passes
    /// or 10 and the d7 face.
    #[derive(Clone, Copy)]
    struct GambleSequence;

    impl TurnSequence for GambleSequence {
        type State = u32;
        type Phase = Side;
        type Tactics = ();

        fn phases(&self, _turn: u32) -> &[Side] {
            &[Side::A]
        }

        fn play_phase(
            &self,
            _phase: Side,
            _turn: u32,
            state: &mut u32,
            _tactics: [&(); 2],
            dice: &mut dyn Dice,
            _sink: &mut dyn crate::EventSink,
        ) -> Result<(), ResolveError> {
            *state = match huge_gamble(dice)? {
                ("checks", passes) => passes,
                (_, face) => 10 + face,
            };
            Ok(())
        }

        fn verdict(&self, state: &u32) -> Option<Verdict> {
            (3..10).contains(state).then_some(Verdict::Winner(Side::A))
        }
    }

    #[test]
    fn a_battle_too_fine_for_one_denominator_is_still_exact() {
        // The states one state reaches have no common denominator of 128
        // bits; their masses are carried over in big integers instead.
        let odds = exact_battle(&Toy::new(GambleSequence, 0, 1), 100, 100).unwrap();
        let wins: Prob = huge_gamble_odds()
            .iter()
            .filter(|((kind, n), _)| *kind == "checks" && *n >= 3)
            .map(|(_, q)| *q)
            .sum();
        let text = |q: Prob| format!("{}/{}", q.numer(), q.denom());
        check("a wins", odds.fractions["a_wins"].clone(), text(wins));
        check(
            "undecided",
            odds.fractions["undecided"].clone(),
            text(Prob::one() - wins),
        );
        // Two counts of passes short of three, and seven faces of the d7.
        check("states", odds.peak_states, 9);
        check("paths", odds.paths, 1 + 15);
    }

    #[test]
    fn a_battle_s_odds_are_exact_fractions() {
        // The race of `a_battle_is_played_over_every_outcome`, reckoned
        // independently in exact fractions: the chance of each (hull A,
        // hull B) after every phase.
        let (half, third) = (p(1, 2), p(1, 3));
        let mut dist = BTreeMap::from([((2u8, 2u8), Prob::one())]);
        let (mut a_wins, mut b_wins) = (Prob::zero(), Prob::zero());
        for _turn in 0..3 {
            for (shooter, hit) in [(0, half), (1, third)] {
                let mut next = BTreeMap::new();
                for ((ha, hb), q) in dist {
                    let after = if shooter == 0 {
                        (ha, hb - 1)
                    } else {
                        (ha - 1, hb)
                    };
                    for (state, r) in [(after, hit), ((ha, hb), Prob::one() - hit)] {
                        match state {
                            (_, 0) => a_wins += q * r,
                            (0, _) => b_wins += q * r,
                            s => *next.entry(s).or_insert_with(Prob::zero) += q * r,
                        }
                    }
                }
                dist = next;
            }
        }
        let undecided: Prob = dist.values().copied().sum();
        let odds = exact_battle(&race(), 100, 100).unwrap();
        let text = |q: Prob| format!("{}/{}", q.numer(), q.denom());
        check("a wins", odds.fractions["a_wins"].clone(), text(a_wins));
        check("b wins", odds.fractions["b_wins"].clone(), text(b_wins));
        check(
            "undecided",
            odds.fractions["undecided"].clone(),
            text(undecided),
        );
        check("draws", odds.fractions["draws"].as_str(), "0/1");
    }

    #[test]
    fn a_phase_played_in_steps_gives_the_odds_of_the_whole_phase() {
        let whole = exact_battle(&race(), 100, 100).unwrap();
        let stepped = exact_battle(&Toy::new(SteppedSequence, (2, 2), 3), 100, 100).unwrap();
        assert_eq!(stepped.fractions, whole.fractions);
        assert_eq!(stepped.decided_by, whole.decided_by);
    }

    #[test]
    fn a_battle_is_played_over_every_outcome() {
        let odds = exact_battle(&race(), 100, 100).unwrap();
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
        let tight = exact_battle(&race(), 1, 100).unwrap();
        assert!(tight.pruned > 0.0);
        let total = tight.a_wins + tight.b_wins + tight.undecided + tight.pruned;
        assert!((total - 1.0).abs() < 1e-12);
    }
}

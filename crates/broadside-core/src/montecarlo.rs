//! Many trials of one engagement, and the odds read from them.
//!
//! Trial `i` always draws from [`SeededDice::for_trial`]`(seed, i)`, and the
//! tally is integer counts merged by addition, so a run gives the same figures
//! whatever the number of threads or the order trials finish in. Proportions
//! and their intervals are computed once, from the counts, at the end.

use serde::{Deserialize, Serialize};

use rayon::prelude::*;

use crate::dice::{Dice, SeededDice};
use crate::error::ResolveError;
use crate::event::{EventSink, NullSink};
use crate::exact::{ExactError, ExactOdds};
use crate::fleet::Roster;
use crate::rules::{Side, Verdict};

/// How a ship was lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    /// Hull reduced to nothing, or exploded.
    Destroyed,
    /// Torn apart while manoeuvring with a damaged hull.
    BrokenApart,
    /// Still whole, but with no weapon left that it can use.
    Disarmed,
}

impl Loss {
    /// Every kind of loss, in report order.
    pub const ALL: [Loss; 3] = [Loss::Destroyed, Loss::BrokenApart, Loss::Disarmed];

    const fn index(self) -> usize {
        self as usize
    }

    /// The loss in plain words, as reports and traces print it.
    pub const fn text(self) -> &'static str {
        match self {
            Loss::Destroyed => "destroyed",
            Loss::BrokenApart => "broken apart",
            Loss::Disarmed => "disarmed",
        }
    }
}

/// What one trial of an engagement came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrialOutcome {
    /// How it ended.
    pub verdict: Verdict,
    /// Game turns played.
    pub turns: u32,
    /// The winning side's hull left and original, summed over its ships;
    /// `None` when there is no winner.
    pub winner_hull: Option<(i32, i32)>,
    /// What became of every ship, in roster order.
    pub ships: Vec<ShipFate>,
}

/// What became of one ship by the end of a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ShipFate {
    /// Its side.
    pub side: Side,
    /// How it was lost, if it was.
    pub loss: Option<Loss>,
    /// Whether it left the battle (a jump) before the end, not lost; only
    /// for systems that declare escapes.
    pub escaped: bool,
    /// Hull (or its system's measure of it) left and at the start.
    pub hull: (i32, i32),
}

impl TrialOutcome {
    /// A trial's outcome from its verdict and every ship's fate (in roster
    /// order), with the winner's hull left and original summed over its ships.
    pub fn from_fates(verdict: Verdict, turns: u32, ships: Vec<ShipFate>) -> TrialOutcome {
        let winner_hull = match verdict {
            Verdict::Winner(side) => Some(
                ships
                    .iter()
                    .filter(|fate| fate.side == side)
                    .fold((0, 0), |(left, original), fate| {
                        (left + fate.hull.0.max(0), original + fate.hull.1)
                    }),
            ),
            _ => None,
        };
        TrialOutcome {
            verdict,
            turns,
            winner_hull,
            ships,
        }
    }

    /// How many ships a side lost.
    pub fn lost(&self, side: Side) -> usize {
        self.ships
            .iter()
            .filter(|fate| fate.side == side && fate.loss.is_some())
            .count()
    }
}

/// A battle set up once and played any number of times.
///
/// Systems usually get this through [`crate::Setup`].
///
/// # Contract for implementors
/// `play` starts from the same initial state every call and draws every
/// random number from `dice`, so the same dice give the same trial; its
/// outcome has one fate per ship of [`Engagement::roster`], in that order.
pub trait Engagement: Send + Sync {
    /// Plays one trial from the start.
    fn play(
        &self,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<TrialOutcome, ResolveError>;

    /// The ships of both sides.
    fn roster(&self) -> &Roster;

    /// The exact odds of the battle, over every outcome of its dice, keeping
    /// at most `max_states` distinct states between phases and taking at
    /// most `max_paths` dice paths in all.
    fn exact(&self, max_states: usize, max_paths: u64) -> Result<ExactOdds, ExactError> {
        let _ = (max_states, max_paths);
        Err(ExactError::Rules(ResolveError::Refused(
            "exact odds are not available for this battle".into(),
        )))
    }
}

/// Counts of trials by a small whole number (a turn, a hull total): entry
/// `v` is the trials that came to `v`. Dense, since the numbers are small,
/// and merged by addition, so it is exact whatever the order of the trials.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Histogram {
    counts: Vec<u64>,
}

impl Histogram {
    /// Counts one trial that came to `value`.
    pub fn add(&mut self, value: usize) {
        if self.counts.len() <= value {
            self.counts.resize(value + 1, 0);
        }
        self.counts[value] += 1;
    }

    /// Adds another histogram's counts.
    pub fn merge(&mut self, other: &Histogram) {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
    }

    /// `counts()[v]`: the trials that came to `v`, up to the largest value
    /// seen.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The trials counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The mean value, `None` if no trial was counted.
    pub fn mean(&self) -> Option<f64> {
        let total = self.total();
        let sum: u64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(v, n)| v as u64 * n)
            .sum();
        (total > 0).then(|| sum as f64 / total as f64)
    }

    /// The nearest-rank quantile `num/den`: the smallest value whose
    /// cumulative count reaches `ceil(total * num / den)`, at least the first
    /// trial; `None` if no trial was counted.
    pub fn quantile(&self, num: u64, den: u64) -> Option<u32> {
        let rank = (self.total() * num).div_ceil(den).max(1);
        let mut seen = 0;
        for (value, count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return Some(u32::try_from(value).unwrap_or(u32::MAX));
            }
        }
        None
    }

    /// The histogram's length grown to at least `len` with empty counts.
    fn padded(&self, len: usize) -> Vec<u64> {
        let mut counts = self.counts.clone();
        if counts.len() < len {
            counts.resize(len, 0);
        }
        counts
    }
}

/// Counts accumulated over trials. Merging is addition, so any split of the
/// trials over threads, or over shards of a run, gives the same tally; it
/// serialises as the counts themselves, so a shard's tally can be written
/// out and merged later.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tally {
    trials: u64,
    a_wins: u64,
    b_wins: u64,
    draws: u64,
    a_escapes: u64,
    b_escapes: u64,
    undecided: u64,
    /// Decided trials by the turn they ended on.
    turns_to_decision: Histogram,
    winner_hull_left: i64,
    winner_hull_original: i64,
    losses: [[u64; Loss::ALL.len()]; 2],
    /// Per side: trials by the number of ships the side lost.
    ships_lost: [Histogram; 2],
    /// Per side: trials by the hull the side had left, summed over its ships.
    side_hull_left: [Histogram; 2],
    /// Per side: the trials the side won, by the hull it had left.
    side_hull_left_when_wins: [Histogram; 2],
    /// Per ship, in roster order: hull left (at least 0) summed over trials.
    hull_left: Vec<i64>,
    /// Per ship, in roster order: hull at the start summed over trials.
    hull_original: Vec<i64>,
}

/// Adds `theirs` into `mine` element by element, growing `mine` as needed.
fn add_counts(mine: &mut Vec<i64>, theirs: &[i64]) {
    if mine.len() < theirs.len() {
        mine.resize(theirs.len(), 0);
    }
    for (m, t) in mine.iter_mut().zip(theirs) {
        *m += t;
    }
}

impl Tally {
    /// Adds one trial.
    pub fn add(&mut self, outcome: &TrialOutcome) {
        self.trials += 1;
        let decided = match outcome.verdict {
            Verdict::Winner(Side::A) => {
                self.a_wins += 1;
                true
            }
            Verdict::Winner(Side::B) => {
                self.b_wins += 1;
                true
            }
            Verdict::Draw => {
                self.draws += 1;
                true
            }
            Verdict::Escaped(Side::A) => {
                self.a_escapes += 1;
                true
            }
            Verdict::Escaped(Side::B) => {
                self.b_escapes += 1;
                true
            }
            Verdict::Undecided => {
                self.undecided += 1;
                false
            }
        };
        if decided {
            self.turns_to_decision.add(outcome.turns as usize);
        }
        if let Some((left, original)) = outcome.winner_hull {
            self.winner_hull_left += i64::from(left);
            self.winner_hull_original += i64::from(original);
        }
        let mut lost = [0usize; 2];
        let mut side_left = [0usize; 2];
        if self.hull_left.len() < outcome.ships.len() {
            self.hull_left.resize(outcome.ships.len(), 0);
            self.hull_original.resize(outcome.ships.len(), 0);
        }
        for (i, fate) in outcome.ships.iter().enumerate() {
            let side = fate.side.index();
            if let Some(loss) = fate.loss {
                self.losses[side][loss.index()] += 1;
                lost[side] += 1;
            }
            let left = fate.hull.0.max(0);
            side_left[side] += left as usize;
            self.hull_left[i] += i64::from(left);
            self.hull_original[i] += i64::from(fate.hull.1);
        }
        for side in Side::BOTH {
            let i = side.index();
            self.ships_lost[i].add(lost[i]);
            self.side_hull_left[i].add(side_left[i]);
            if outcome.verdict == Verdict::Winner(side) {
                self.side_hull_left_when_wins[i].add(side_left[i]);
            }
        }
    }

    /// The trials counted.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// Whether the counts could have come from playing `roster`'s battle:
    /// every trial has one ending, every per-trial histogram counts every
    /// trial, and there is one hull count per ship. A tally read from a file
    /// is checked so before it is merged or reported.
    pub fn check(&self, roster: &Roster) -> Result<(), String> {
        self.check_counts()?;
        let ships = roster.ships().len();
        // check_counts has refused hull lists of two lengths.
        if self.hull_left.len() != ships {
            return Err(format!("it does not count hull for {ships} ships"));
        }
        Ok(())
    }

    /// The part of [`Tally::check`] that needs no roster, so that tallies
    /// read from files can be checked before they are added: bounded so
    /// that a million of them add without overflow.
    pub fn check_counts(&self) -> Result<(), String> {
        let endings = [
            self.a_wins,
            self.b_wins,
            self.draws,
            self.a_escapes,
            self.b_escapes,
            self.undecided,
        ];
        if self.trials > MAX_TALLY_TRIALS {
            return Err(format!("{} trials is more than a run plays", self.trials));
        }
        if endings.iter().sum::<u64>() != self.trials {
            return Err(format!(
                "its endings do not add up to its {} trials",
                self.trials
            ));
        }
        let per_trial = self.ships_lost.iter().chain(&self.side_hull_left);
        if per_trial.map(Histogram::total).any(|n| n != self.trials) {
            return Err("a per-side count does not cover every trial".into());
        }
        if self.hull_left.len() > crate::MAX_SIDE * 2
            || self.hull_original.len() > crate::MAX_SIDE * 2
        {
            return Err("it counts hull for more ships than a battle holds".into());
        }
        // Adding a trial reads both lists ship by ship.
        if self.hull_left.len() != self.hull_original.len() {
            return Err("it counts hull left and hull at the start for different ships".into());
        }
        if self
            .hull_left
            .iter()
            .chain(&self.hull_original)
            .chain([&self.winner_hull_left, &self.winner_hull_original])
            .any(|&h| !(0..=MAX_TALLY_HULL).contains(&h))
        {
            return Err("a hull count is out of range".into());
        }
        Ok(())
    }

    /// Adds another tally.
    pub fn merge(mut self, other: Tally) -> Tally {
        self.trials += other.trials;
        self.a_wins += other.a_wins;
        self.b_wins += other.b_wins;
        self.draws += other.draws;
        self.a_escapes += other.a_escapes;
        self.b_escapes += other.b_escapes;
        self.undecided += other.undecided;
        self.turns_to_decision.merge(&other.turns_to_decision);
        self.winner_hull_left += other.winner_hull_left;
        self.winner_hull_original += other.winner_hull_original;
        for side in 0..2 {
            for kind in 0..Loss::ALL.len() {
                self.losses[side][kind] += other.losses[side][kind];
            }
            self.ships_lost[side].merge(&other.ships_lost[side]);
            self.side_hull_left[side].merge(&other.side_hull_left[side]);
            self.side_hull_left_when_wins[side].merge(&other.side_hull_left_when_wins[side]);
        }
        add_counts(&mut self.hull_left, &other.hull_left);
        add_counts(&mut self.hull_original, &other.hull_original);
        self
    }

    /// The figures a report shows, for the ships of `roster`.
    pub fn summary(&self, roster: &Roster) -> Summary {
        let n = self.trials;
        let turns = &self.turns_to_decision;
        let turns_to_decision = turns.mean().map(|mean| TurnsToDecision {
            mean,
            q1: turns.quantile(1, 4).unwrap_or(0),
            median: turns.quantile(1, 2).unwrap_or(0),
            q3: turns.quantile(3, 4).unwrap_or(0),
        });
        let winner_hull_left_pct = (self.winner_hull_original > 0)
            .then(|| 100.0 * self.winner_hull_left as f64 / self.winner_hull_original as f64);
        let losses = |side: Side| LossCounts {
            destroyed: self.losses[side.index()][Loss::Destroyed.index()],
            broken_apart: self.losses[side.index()][Loss::BrokenApart.index()],
            disarmed: self.losses[side.index()][Loss::Disarmed.index()],
        };
        Summary {
            trials: n,
            outcomes: Outcomes {
                a_wins: Proportion::of(self.a_wins, n),
                b_wins: Proportion::of(self.b_wins, n),
                undecided: Proportion::of(self.undecided, n),
                draws: Proportion::of(self.draws, n),
                a_escapes: Proportion::of(self.a_escapes, n),
                b_escapes: Proportion::of(self.b_escapes, n),
            },
            turns_to_decision,
            winner_hull_left_pct,
            losses_a: losses(Side::A),
            losses_b: losses(Side::B),
            ships_lost: ShipsLost {
                a: self.ships_lost_of(Side::A, roster),
                b: self.ships_lost_of(Side::B, roster),
            },
            hull_by_ship: self.hull_by_ship(roster),
            decided_by_turn: self.decided_by_turn(),
            loss_shares: SidePair {
                a: self.loss_shares(Side::A, roster),
                b: self.loss_shares(Side::B, roster),
            },
            side_hull: SidePair {
                a: self.side_hull(Side::A, roster),
                b: self.side_hull(Side::B, roster),
            },
        }
    }

    /// `[n0, n1, ...]` up to the side's size: trials in which the side lost
    /// exactly k ships. Sums to the trials.
    fn ships_lost_of(&self, side: Side, roster: &Roster) -> Vec<u64> {
        self.ships_lost[side.index()].padded(roster.side_len(side) + 1)
    }

    /// For each turn from the first to the last on which a trial was
    /// decided (from turn 1, or turn 0 if a battle was over before it
    /// began): the share of all trials decided by the end of that turn.
    fn decided_by_turn(&self) -> Vec<DecidedBy> {
        let counts = self.turns_to_decision.counts();
        let first = usize::from(counts.first().is_none_or(|&n| n == 0)).min(counts.len());
        let mut decided = counts[..first].iter().sum::<u64>();
        counts[first..]
            .iter()
            .enumerate()
            .map(|(k, &n)| {
                decided += n;
                DecidedBy {
                    turn: u32::try_from(first + k).unwrap_or(u32::MAX),
                    decided: Proportion::of(decided, self.trials),
                }
            })
            .collect()
    }

    /// A side's ships lost by cause, as shares of the ships it fielded over
    /// all trials.
    fn loss_shares(&self, side: Side, roster: &Roster) -> LossShares {
        let ships = roster.side_len(side);
        let of = |count: u64| Proportion::of_fleet(count, ships as u64, self.trials);
        let counts = self.losses[side.index()];
        LossShares {
            ships,
            lost: of(counts.iter().sum()),
            destroyed: of(counts[Loss::Destroyed.index()]),
            broken_apart: of(counts[Loss::BrokenApart.index()]),
            disarmed: of(counts[Loss::Disarmed.index()]),
        }
    }

    /// A side's hull left, summed over its ships: over all trials, and over
    /// the trials it won.
    fn side_hull(&self, side: Side, roster: &Roster) -> SideHull {
        let original: i64 = roster
            .ships()
            .iter()
            .enumerate()
            .filter(|(_, ship)| ship.side == side)
            .map(|(i, _)| self.hull_original.get(i).copied().unwrap_or(0))
            .sum();
        // Every trial starts from the same ships, so the sum over trials is
        // the trials times the start.
        let start = if self.trials == 0 {
            0
        } else {
            original / self.trials as i64
        };
        let i = side.index();
        let won = &self.side_hull_left_when_wins[i];
        SideHull {
            start,
            overall: HullLeft::of(&self.side_hull_left[i], start),
            when_wins: (won.total() > 0).then(|| HullLeft::of(won, start)),
        }
    }

    /// Mean hull left per ship id and side, ids in roster order.
    fn hull_by_ship(&self, roster: &Roster) -> Vec<ShipHull> {
        let mut rows: Vec<ShipHull> = Vec::new();
        let mut sums: Vec<(i64, i64)> = Vec::new();
        for (i, ship) in roster.ships().iter().enumerate() {
            let left = self.hull_left.get(i).copied().unwrap_or(0);
            let original = self.hull_original.get(i).copied().unwrap_or(0);
            let at = rows
                .iter()
                .position(|row| row.side == ship.side && row.id == ship.id);
            let at = at.unwrap_or_else(|| {
                rows.push(ShipHull {
                    side: ship.side,
                    id: ship.id.clone(),
                    ships: 0,
                    mean_hull_left: 0.0,
                    mean_hull_left_pct: None,
                });
                sums.push((0, 0));
                rows.len() - 1
            });
            rows[at].ships += 1;
            sums[at].0 += left;
            sums[at].1 += original;
        }
        for (row, (left, original)) in rows.iter_mut().zip(sums) {
            let samples = self.trials * row.ships as u64;
            if samples > 0 {
                row.mean_hull_left = left as f64 / samples as f64;
            }
            row.mean_hull_left_pct = (original > 0).then(|| 100.0 * left as f64 / original as f64);
        }
        rows
    }
}

/// A count out of the trials, as a proportion with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Proportion {
    /// count / trials.
    pub p: f64,
    /// Wilson score interval at 95%.
    pub ci95: [f64; 2],
    /// Trials with this outcome.
    pub count: u64,
}

impl Proportion {
    /// `count` of `n` trials.
    pub fn of(count: u64, n: u64) -> Proportion {
        if n == 0 {
            return Proportion {
                count,
                p: 0.0,
                ci95: [0.0, 1.0],
            };
        }
        let p = count as f64 / n as f64;
        Proportion {
            count,
            p,
            ci95: wilson(p, n),
        }
    }

    /// `count` ships of a side of `ships` over `trials` trials: the share of
    /// the ships the side fielded.
    ///
    /// The interval is Wilson's over the trials, not over the ships: ships of
    /// one trial share its fortunes, so they are not independent samples, but
    /// each trial's share of ships lies in [0, 1], so its variance is at most
    /// p(1 - p), the variance the interval assumes. For one ship a side this
    /// is [`Proportion::of`].
    pub fn of_fleet(count: u64, ships: u64, trials: u64) -> Proportion {
        let fielded = ships * trials;
        if fielded == 0 {
            return Proportion::of(count, 0);
        }
        let p = count as f64 / fielded as f64;
        Proportion {
            count,
            p,
            ci95: wilson(p, trials),
        }
    }
}

/// The Wilson score interval at 95% of a proportion `p` of `n` samples.
fn wilson(p: f64, n: u64) -> [f64; 2] {
    // The Wilson interval stays inside [0, 1] and behaves at p = 0 or 1,
    // where the normal approximation collapses to a point.
    const Z: f64 = 1.959_963_984_540_054;
    let n_f = n as f64;
    let z2 = Z * Z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = Z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The probability of each way an engagement can end.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Outcomes {
    /// Side A won.
    pub a_wins: Proportion,
    /// Side B won.
    pub b_wins: Proportion,
    /// The turn limit came first.
    pub undecided: Proportion,
    /// Both sides lost every ship able to fight.
    pub draws: Proportion,
    /// Side A left the engagement.
    pub a_escapes: Proportion,
    /// Side B left the engagement.
    pub b_escapes: Proportion,
}

/// Turns to decision over the decided trials.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TurnsToDecision {
    /// Mean game turns.
    pub mean: f64,
    /// First quartile.
    pub q1: u32,
    /// Median.
    pub median: u32,
    /// Third quartile.
    pub q3: u32,
}

/// Ships lost by one side, by cause, over all trials.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LossCounts {
    /// Destroyed outright.
    pub destroyed: u64,
    /// Broken apart while manoeuvring.
    pub broken_apart: u64,
    /// Left with no usable weapon.
    pub disarmed: u64,
}

/// The figures of a Monte Carlo run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Trials played.
    pub trials: u64,
    /// How they ended.
    pub outcomes: Outcomes,
    /// Turns to decision, `None` if no trial was decided.
    pub turns_to_decision: Option<TurnsToDecision>,
    /// The winners' hull left, as a percentage of their original hull.
    pub winner_hull_left_pct: Option<f64>,
    /// Side A's ships lost.
    pub losses_a: LossCounts,
    /// Side B's ships lost.
    pub losses_b: LossCounts,
    /// How many ships each side lost, as counts of trials.
    pub ships_lost: ShipsLost,
    /// Mean hull left of each ship id of each side, in roster order.
    pub hull_by_ship: Vec<ShipHull>,
    /// The share of trials decided by the end of each turn, from the first
    /// turn (turn 1, or 0 if a battle can be over before it begins) to the
    /// last on which a trial was decided; empty if none was.
    pub decided_by_turn: Vec<DecidedBy>,
    /// Each side's ships lost, by cause, as shares of the ships it fielded.
    pub loss_shares: SidePair<LossShares>,
    /// Each side's hull left, summed over its ships: over all trials and
    /// over the trials it won.
    pub side_hull: SidePair<SideHull>,
}

/// One figure for each side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SidePair<T> {
    /// Side A's.
    pub a: T,
    /// Side B's.
    pub b: T,
}

impl<T> SidePair<T> {
    /// A side's figure.
    pub fn of(&self, side: Side) -> &T {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }
}

/// The trials decided by the end of one turn.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DecidedBy {
    /// The game turn.
    pub turn: u32,
    /// Trials decided on it or before, out of all trials.
    pub decided: Proportion,
}

/// A side's ships lost, as shares of the ships it fielded over all trials
/// (each a [`Proportion::of_fleet`], whose `count` is of ships).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LossShares {
    /// Ships the side fielded in each trial.
    pub ships: usize,
    /// Lost in any way.
    pub lost: Proportion,
    /// Destroyed outright.
    pub destroyed: Proportion,
    /// Broken apart while manoeuvring.
    pub broken_apart: Proportion,
    /// Left with no usable weapon.
    pub disarmed: Proportion,
}

/// A side's hull left at the end of a trial, summed over its ships (a lost
/// ship counting 0, or what its system leaves on a ship out of the fight).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideHull {
    /// The side's hull at the start, summed over its ships.
    pub start: i64,
    /// Over all trials.
    pub overall: HullLeft,
    /// Over the trials the side won; `None` if it won none.
    pub when_wins: Option<HullLeft>,
}

/// The distribution of a side's hull left over some trials.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HullLeft {
    /// The trials it is taken over.
    pub trials: u64,
    /// Mean hull left.
    pub mean: f64,
    /// The mean as a percentage of the hull at the start.
    pub mean_pct: Option<f64>,
    /// First quartile (nearest rank).
    pub q1: u32,
    /// Median (nearest rank).
    pub median: u32,
    /// Third quartile (nearest rank).
    pub q3: u32,
    /// `counts[h]`: trials that ended with hull `h` left, from 0 to the
    /// hull at the start.
    pub counts: Vec<u64>,
}

impl HullLeft {
    /// The figures of a histogram of hull left, for a side that starts with
    /// `start`.
    fn of(histogram: &Histogram, start: i64) -> HullLeft {
        let mean = histogram.mean().unwrap_or(0.0);
        let len = usize::try_from(start).unwrap_or(0) + 1;
        HullLeft {
            trials: histogram.total(),
            mean,
            mean_pct: (start > 0).then(|| 100.0 * mean / start as f64),
            q1: histogram.quantile(1, 4).unwrap_or(0),
            median: histogram.quantile(1, 2).unwrap_or(0),
            q3: histogram.quantile(3, 4).unwrap_or(0),
            counts: histogram.padded(len),
        }
    }
}

/// For each side, `[n0, n1, ...]`: `n_k` trials in which it lost exactly
/// `k` ships. Each list has one entry more than the side has ships and sums
/// to the trials.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShipsLost {
    /// Side A.
    pub a: Vec<u64>,
    /// Side B.
    pub b: Vec<u64>,
}

impl ShipsLost {
    /// A side's list.
    pub fn of(&self, side: Side) -> &[u64] {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }

    /// A side's mean ships lost per trial.
    pub fn mean(&self, side: Side) -> f64 {
        let counts = self.of(side);
        let trials: u64 = counts.iter().sum();
        if trials == 0 {
            return 0.0;
        }
        let ships: u64 = counts.iter().enumerate().map(|(k, n)| k as u64 * n).sum();
        ships as f64 / trials as f64
    }
}

/// The hull one ship id of one side kept, over all trials.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShipHull {
    /// The side.
    pub side: Side,
    /// The ship id.
    pub id: String,
    /// How many ships of the id the side fields.
    pub ships: usize,
    /// Hull left per ship at the end of a trial, a lost ship counting 0 (or
    /// what its system leaves on a ship that is out of the fight).
    pub mean_hull_left: f64,
    /// The same as a percentage of the ships' hull at the start.
    pub mean_hull_left_pct: Option<f64>,
}

/// Plays `trials` trials of an engagement on all cores.
///
/// `progress` is called with the number of trials just finished (a chunk's
/// worth), from any thread, every so often, so that their sum is the trials
/// finished so far; pass `&|_| {}` to ignore it.
pub fn run_trials(
    engagement: &dyn Engagement,
    seed: u64,
    trials: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Tally, ResolveError> {
    run_shard(engagement, seed, trials, Shard::WHOLE, progress)
}

/// The most trials a tally read from a file may count (a hundred times the
/// most one run plays, room for any honest merge; a million such tallies
/// still add without overflow).
const MAX_TALLY_TRIALS: u64 = 10_000_000_000;
/// The largest hull sum a tally read from a file may hold.
const MAX_TALLY_HULL: i64 = 1 << 40;

/// One of `count` disjoint shares of a run's trials: shard `index` plays
/// trials `index`, `index + count`, `index + 2 count`, ... below the run's
/// trials. The shards of a run together play each of its trials once, each
/// from its own stream, so their tallies merge into the run's tally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which share, from 0.
    pub index: u64,
    /// How many shares.
    pub count: u64,
}

impl Shard {
    /// The whole run, as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`, if `index < count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index < count).then_some(Shard { index, count })
    }

    /// How many of a run's `trials` this shard plays.
    pub fn trials_of(self, trials: u64) -> u64 {
        trials.saturating_sub(self.index).div_ceil(self.count)
    }
}

/// Plays one shard of a run: its trials, each from its own stream, tallied.
pub fn run_shard(
    engagement: &dyn Engagement,
    seed: u64,
    trials: u64,
    shard: Shard,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Tally, ResolveError> {
    run_shard_while(engagement, seed, trials, shard, progress, &|| true)?
        .ok_or_else(|| ResolveError::Internal("a run that cannot stop stopped".into()))
}

/// Why a run ended before its last trial.
enum Halt {
    /// A trial failed.
    Failed(ResolveError),
    /// The caller asked to stop.
    Stopped,
}

/// Plays one shard of a run as [`run_shard`] does, asking `go_on` before
/// each chunk of trials: once it says no, the chunks not yet started are
/// skipped and the run returns `Ok(None)`. A run that is not stopped plays
/// the same trials in the same chunks, so its tally is [`run_shard`]'s; the
/// check costs one call a chunk, not one a trial.
pub fn run_shard_while(
    engagement: &dyn Engagement,
    seed: u64,
    trials: u64,
    shard: Shard,
    progress: &(dyn Fn(u64) + Sync),
    go_on: &(dyn Fn() -> bool + Sync),
) -> Result<Option<Tally>, ResolveError> {
    // Each chunk is one task for rayon and one tally merged by addition.
    // Small enough that two threads finish a run of a few thousand trials
    // within a chunk of each other (the last chunk is the only imbalance),
    // large enough that merging tallies and asking `go_on` cost nothing
    // beside the trials.
    const CHUNK: u64 = 256;
    let played = shard.trials_of(trials);
    let chunks = played.div_ceil(CHUNK);
    let tally = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            if !go_on() {
                return Err(Halt::Stopped);
            }
            let mut tally = Tally::default();
            let end = ((chunk + 1) * CHUNK).min(played);
            for k in chunk * CHUNK..end {
                let trial = shard.index + k * shard.count;
                let outcome =
                    play_trial(engagement, seed, trial, &mut NullSink).map_err(Halt::Failed)?;
                tally.add(&outcome);
            }
            progress(end - chunk * CHUNK);
            Ok(tally)
        })
        .try_reduce(Tally::default, |a, b| Ok(a.merge(b)));
    match tally {
        Ok(tally) => Ok(Some(tally)),
        Err(Halt::Stopped) => Ok(None),
        Err(Halt::Failed(error)) => Err(error),
    }
}

/// Plays trial `trial` of a run seeded with `seed`: the same trial the run
/// played, so a sink that keeps events replays it.
pub fn play_trial(
    engagement: &dyn Engagement,
    seed: u64,
    trial: u64,
    sink: &mut dyn EventSink,
) -> Result<TrialOutcome, ResolveError> {
    let mut dice = SeededDice::for_trial(seed, trial);
    engagement.play(&mut dice, sink)
}

/// The first trial of a run of `trials` whose verdict is `wanted`, if any:
/// the same trial whatever the number of threads, since trial i always
/// plays from its own stream.
pub fn find_trial(
    engagement: &dyn Engagement,
    seed: u64,
    trials: u64,
    wanted: Verdict,
) -> Result<Option<u64>, ResolveError> {
    let found = (0..trials)
        .into_par_iter()
        .map(|trial| play_trial(engagement, seed, trial, &mut NullSink).map(|o| (trial, o)))
        // An error ends the search where it happened, as a run would.
        .find_first(|played| played.as_ref().map_or(true, |(_, o)| o.verdict == wanted));
    match found {
        None => Ok(None),
        Some(played) => played.map(|(trial, _)| Some(trial)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;

    /// A toy battle of two ships a side: A wins on a d6 of 4+, in d6 turns;
    /// the loser loses its first ship, and its second too on a d6 of 6.
    struct Coin(Roster);

    fn coin() -> Coin {
        let two = |id: &str| vec![id.to_owned(), id.to_owned()];
        Coin(Roster::new(&two("scout"), &two("raider")))
    }

    impl Engagement for Coin {
        fn play(
            &self,
            dice: &mut dyn Dice,
            _sink: &mut dyn EventSink,
        ) -> Result<TrialOutcome, ResolveError> {
            let winner = if dice.roll(Die::D6)? >= 4 {
                Side::A
            } else {
                Side::B
            };
            let turns = dice.roll(Die::D6)?;
            let both = dice.roll(Die::D6)? == 6;
            let ships = (0..4)
                .map(|i| {
                    let side = self.0.side(i);
                    let first = i % 2 == 0;
                    let lost = side != winner && (first || both);
                    ShipFate {
                        side,
                        loss: lost.then_some(Loss::Destroyed),
                        escaped: false,
                        hull: (if lost { 0 } else { 5 }, 10),
                    }
                })
                .collect();
            Ok(TrialOutcome::from_fates(
                Verdict::Winner(winner),
                turns,
                ships,
            ))
        }

        fn roster(&self) -> &Roster {
            &self.0
        }
    }

    #[test]
    fn tally_does_not_depend_on_trial_order() {
        let coin = coin();
        let outcomes: Vec<TrialOutcome> = (0..500)
            .map(|i| play_trial(&coin, 9, i, &mut NullSink).unwrap())
            .collect();
        let forward = outcomes.iter().fold(Tally::default(), |mut t, o| {
            t.add(o);
            t
        });
        let backward = outcomes.iter().rev().fold(Tally::default(), |mut t, o| {
            t.add(o);
            t
        });
        let parallel = run_trials(&coin, 9, 500, &|_| {}).unwrap();
        assert_eq!(forward, backward);
        assert_eq!(forward, parallel);
        let summary = parallel.summary(&coin.0);
        assert_eq!(summary.trials, 500);
        let o = summary.outcomes;
        assert_eq!(o.a_wins.count + o.b_wins.count, 500);
        assert_eq!(summary.winner_hull_left_pct, Some(50.0));
        // Each side's list has one entry per possible number lost and sums to
        // the trials; a side loses ships only in trials it loses.
        for (side, wins_of_other) in [(Side::A, o.b_wins.count), (Side::B, o.a_wins.count)] {
            let lost = summary.ships_lost.of(side);
            assert_eq!(lost.len(), 3);
            assert_eq!(lost.iter().sum::<u64>(), 500);
            assert_eq!(lost[1] + lost[2], wins_of_other);
        }
        let lost_a = summary.ships_lost.of(Side::A);
        assert_eq!(summary.losses_a.destroyed, lost_a[1] + 2 * lost_a[2]);
        // Hull per id: a surviving ship keeps 5 of 10, a lost one 0.
        let scouts = &summary.hull_by_ship[0];
        assert_eq!(
            (scouts.side, scouts.id.as_str(), scouts.ships),
            (Side::A, "scout", 2)
        );
        let expected = 5.0 * (1000 - summary.losses_a.destroyed) as f64 / 1000.0;
        assert!((scouts.mean_hull_left - expected).abs() < 1e-9);
    }

    /// A run asked to stop: before it starts it plays nothing; after its
    /// first chunk it stops early; never asked, it gives the whole run's tally.
    #[test]
    fn a_run_stops_between_chunks_when_asked() {
        let coin = coin();
        let whole = run_trials(&coin, 9, 5000, &|_| {}).unwrap();
        let never = run_shard_while(&coin, 9, 5000, Shard::WHOLE, &|_| {}, &|| true).unwrap();
        assert_eq!(never, Some(whole));
        let at_once = run_shard_while(&coin, 9, 5000, Shard::WHOLE, &|_| {}, &|| false).unwrap();
        assert_eq!(at_once, None);
        let asked = std::sync::atomic::AtomicU64::new(0);
        let stop_after_one = || asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 1;
        let early = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| run_shard_while(&coin, 9, 5000, Shard::WHOLE, &|_| {}, &stop_after_one));
        assert_eq!(early.unwrap(), None);
    }

    /// The toy's per-side distributions against a count made here from the
    /// trials' outcomes directly: each side's hull left summed over its
    /// ships, over all trials and over its wins, the trials decided by each
    /// turn, and ships lost as shares of the ships fielded.
    #[test]
    fn side_distributions_count_every_trial() {
        let coin = coin();
        let trials = 400;
        let outcomes: Vec<TrialOutcome> = (0..trials)
            .map(|i| play_trial(&coin, 3, i, &mut NullSink).unwrap())
            .collect();
        let summary = run_trials(&coin, 3, trials, &|_| {})
            .unwrap()
            .summary(&coin.0);
        for side in Side::BOTH {
            let left = |o: &TrialOutcome| -> usize {
                o.ships
                    .iter()
                    .filter(|f| f.side == side)
                    .map(|f| f.hull.0 as usize)
                    .sum()
            };
            // Two ships of 10 a side: 0, 5 or 10 left.
            let mut overall = vec![0u64; 21];
            let mut won = vec![0u64; 21];
            for o in &outcomes {
                overall[left(o)] += 1;
                if o.verdict == Verdict::Winner(side) {
                    won[left(o)] += 1;
                }
            }
            let hull = summary.side_hull.of(side);
            assert_eq!(hull.start, 20);
            assert_eq!(hull.overall.counts, overall);
            assert_eq!(hull.overall.trials, trials);
            let when_wins = hull.when_wins.as_ref().unwrap();
            assert_eq!(when_wins.counts, won);
            // A winner keeps both ships at 5 of 10 each.
            assert_eq!((when_wins.q1, when_wins.median, when_wins.q3), (10, 10, 10));
            assert_eq!(when_wins.mean_pct, Some(50.0));
            let lost: u64 = outcomes.iter().map(|o| o.lost(side) as u64).sum();
            let shares = summary.loss_shares.of(side);
            assert_eq!((shares.ships, shares.lost.count), (2, lost));
            assert_eq!(shares.destroyed.p, lost as f64 / (2 * trials) as f64);
        }
        // The toy lasts 1 to 6 turns, and every trial has a winner.
        let by_turn: Vec<(u32, u64)> = summary
            .decided_by_turn
            .iter()
            .map(|d| (d.turn, d.decided.count))
            .collect();
        let expected: Vec<(u32, u64)> = (1..=6)
            .map(|t| (t, outcomes.iter().filter(|o| o.turns <= t).count() as u64))
            .collect();
        assert_eq!(by_turn, expected);
        assert_eq!(by_turn[5].1, trials);
    }

    /// The shards of a run merge into the run's tally, whatever the split,
    /// and a tally read back from its JSON is the same and passes the check.
    #[test]
    fn shards_merge_into_the_whole_run() {
        let coin = coin();
        let whole = run_trials(&coin, 4, 1000, &|_| {}).unwrap();
        for count in [1, 2, 3, 7, 1001] {
            let merged = (0..count)
                .map(|index| {
                    let shard = Shard::new(index, count).unwrap();
                    run_shard(&coin, 4, 1000, shard, &|_| {}).unwrap()
                })
                .fold(Tally::default(), Tally::merge);
            assert_eq!(merged, whole, "{count} shards");
        }
        assert_eq!(Shard::new(3, 3), None);
        assert_eq!(Shard::new(2, 3).unwrap().trials_of(10), 3);
        assert_eq!(Shard::new(9, 10).unwrap().trials_of(5), 0);
        let json = serde_json::to_string(&whole).unwrap();
        let back: Tally = serde_json::from_str(&json).unwrap();
        assert_eq!(back, whole);
        assert_eq!(back.check(&coin.0), Ok(()));
        let mut broken = whole.clone();
        broken.a_wins += 1;
        assert!(broken.check(&coin.0).is_err());
        let mut short = whole.clone();
        short.hull_left.pop();
        assert!(short.check(&coin.0).is_err());
        // Both lists one ship short agree with each other, not the roster.
        let mut fewer = whole;
        fewer.hull_left.pop();
        fewer.hull_original.pop();
        assert_eq!(
            fewer.check(&coin.0),
            Err(format!(
                "it does not count hull for {} ships",
                coin.0.ships().len()
            ))
        );
    }

    /// The trial found for a verdict is the first of the run with it,
    /// counted here trial by trial, and none when no trial has it.
    #[test]
    fn the_first_trial_with_a_verdict_is_found() {
        let coin = coin();
        let verdicts: Vec<Verdict> = (0..200)
            .map(|i| play_trial(&coin, 5, i, &mut NullSink).unwrap().verdict)
            .collect();
        for wanted in [Verdict::Winner(Side::A), Verdict::Winner(Side::B)] {
            let first = verdicts.iter().position(|&v| v == wanted).map(|i| i as u64);
            assert!(first.is_some());
            assert_eq!(find_trial(&coin, 5, 200, wanted).unwrap(), first);
        }
        assert_eq!(find_trial(&coin, 5, 200, Verdict::Draw).unwrap(), None);
        assert_eq!(
            find_trial(&coin, 5, 0, Verdict::Winner(Side::A)).unwrap(),
            None
        );
    }

    /// Nearest rank over a histogram of 0, 0, 5, 10: ranks 1, 2 and 3 of 4.
    #[test]
    fn histogram_quartiles_and_mean() {
        let mut histogram = Histogram::default();
        for value in [10, 0, 5, 0] {
            histogram.add(value);
        }
        let quartiles = [(1, 4), (1, 2), (3, 4)].map(|(num, den)| histogram.quantile(num, den));
        assert_eq!(quartiles, [Some(0), Some(0), Some(5)]);
        assert_eq!(histogram.mean(), Some(3.75));
        assert_eq!(Histogram::default().quantile(1, 2), None);
        assert_eq!(Histogram::default().mean(), None);
    }

    /// A fleet's share of ships lost takes Wilson's interval over the trials:
    /// 100 of 2 ships over 100 trials is p = 0.5 with the interval of 50 of
    /// 100, and one ship a side is a plain proportion of the trials.
    #[test]
    fn fleet_shares_take_the_interval_of_the_trials() {
        let fleet = Proportion::of_fleet(100, 2, 100);
        assert_eq!((fleet.p, fleet.ci95), (0.5, Proportion::of(50, 100).ci95));
        assert_eq!(Proportion::of_fleet(7, 1, 40), Proportion::of(7, 40));
    }

    #[test]
    fn wilson_interval_of_known_counts() {
        let p = Proportion::of(50, 100);
        assert!((p.ci95[0] - 0.4038).abs() < 1e-4 && (p.ci95[1] - 0.5962).abs() < 1e-4);
        let none = Proportion::of(0, 10);
        assert_eq!(none.ci95[0], 0.0);
        assert!((none.ci95[1] - 0.2775).abs() < 1e-4);
    }

    #[test]
    fn quartiles_are_nearest_rank() {
        let mut tally = Tally::default();
        for turns in [1, 2, 3, 4, 5, 6, 7, 8] {
            tally.add(&TrialOutcome::from_fates(
                Verdict::Winner(Side::A),
                turns,
                vec![],
            ));
        }
        let t = tally.summary(&Roster::default()).turns_to_decision.unwrap();
        assert_eq!((t.q1, t.median, t.q3), (2, 4, 6));
        assert!((t.mean - 4.5).abs() < 1e-9);
    }

    /// The worked example's ships: two frigates of hull 10 for A; a frigate
    /// of hull 10 and a raider of hull 6 for B. A frigate on each side, so
    /// that hull per ship tells the sides apart as well as the ids.
    fn squadron() -> Roster {
        let ids = |ids: &[&str]| ids.iter().map(|&id| id.to_owned()).collect::<Vec<_>>();
        Roster::new(&ids(&["frigate", "frigate"]), &ids(&["frigate", "raider"]))
    }

    fn fate(side: Side, loss: Option<Loss>, left: i32, start: i32) -> ShipFate {
        ShipFate {
            side,
            loss,
            escaped: false,
            hull: (left, start),
        }
    }

    /// Six trials of the squadron, one of each ending, with every kind of
    /// loss and a hull driven below 0.
    fn six_endings() -> Vec<TrialOutcome> {
        use Loss::{BrokenApart, Destroyed, Disarmed};
        use Side::{A, B};
        let trial = |verdict, turns, ships: [ShipFate; 4]| {
            TrialOutcome::from_fates(verdict, turns, ships.to_vec())
        };
        vec![
            trial(
                Verdict::Winner(A),
                2,
                [
                    fate(A, None, 10, 10),
                    fate(A, None, 4, 10),
                    fate(B, Some(Destroyed), 0, 10),
                    fate(B, Some(Destroyed), -3, 6),
                ],
            ),
            trial(
                Verdict::Winner(B),
                3,
                [
                    fate(A, Some(Destroyed), 0, 10),
                    fate(A, Some(Disarmed), 2, 10),
                    fate(B, None, 7, 10),
                    fate(B, None, 6, 6),
                ],
            ),
            trial(
                Verdict::Draw,
                1,
                [
                    fate(A, Some(BrokenApart), 0, 10),
                    fate(A, Some(Destroyed), 0, 10),
                    fate(B, Some(Destroyed), 0, 10),
                    fate(B, Some(Disarmed), 1, 6),
                ],
            ),
            trial(
                Verdict::Escaped(A),
                4,
                [
                    fate(A, None, 7, 10),
                    fate(A, None, 10, 10),
                    fate(B, None, 8, 10),
                    fate(B, None, 6, 6),
                ],
            ),
            trial(
                Verdict::Escaped(B),
                2,
                [
                    fate(A, None, 10, 10),
                    fate(A, None, 8, 10),
                    fate(B, None, 10, 10),
                    fate(B, Some(Disarmed), 2, 6),
                ],
            ),
            // Undecided at the turn limit: its turns are not a decision.
            trial(
                Verdict::Undecided,
                10,
                [
                    fate(A, None, 6, 10),
                    fate(A, None, 6, 10),
                    fate(B, None, 5, 10),
                    fate(B, None, 3, 6),
                ],
            ),
        ]
    }

    fn tally_of(outcomes: &[TrialOutcome]) -> Tally {
        let mut tally = Tally::default();
        for outcome in outcomes {
            tally.add(outcome);
        }
        tally
    }

    /// Adds the outcomes to a tally and compares its summary for `roster`
    /// with the figures worked out by hand.
    fn check_summary(roster: &Roster, outcomes: &[TrialOutcome], expected: &Summary) {
        let tally = tally_of(outcomes);
        assert_eq!(tally.trials(), outcomes.len() as u64);
        assert_eq!(&tally.summary(roster), expected);
    }

    /// A histogram's counts as a report shows them: `len` entries, with
    /// one trial at each of `values`.
    fn one_each(len: usize, values: &[usize]) -> Vec<u64> {
        let mut counts = vec![0; len];
        for &v in values {
            counts[v] += 1;
        }
        counts
    }

    /// Every figure of the six endings, counted by hand. Shares take
    /// Wilson's interval of their counts, which has tests of its own.
    #[test]
    fn six_endings_summarise_as_counted_by_hand() {
        let of_six = |count| Proportion::of(count, 6);
        let ships_of_twelve = |count| Proportion::of_fleet(count, 2, 6);
        let expected = Summary {
            trials: 6,
            outcomes: Outcomes {
                a_wins: of_six(1),
                b_wins: of_six(1),
                undecided: of_six(1),
                draws: of_six(1),
                a_escapes: of_six(1),
                b_escapes: of_six(1),
            },
            // Decided on turns 1, 2, 2, 3, 4: ranks 2, 3 and 4 of 5.
            turns_to_decision: Some(TurnsToDecision {
                mean: 2.4,
                q1: 2,
                median: 2,
                q3: 3,
            }),
            // A won with 14 of 20, B with 13 of 16: 27 of 36.
            winner_hull_left_pct: Some(75.0),
            losses_a: LossCounts {
                destroyed: 2,
                broken_apart: 1,
                disarmed: 1,
            },
            losses_b: LossCounts {
                destroyed: 3,
                broken_apart: 0,
                disarmed: 2,
            },
            // A lost 0, 2, 2, 0, 0, 0 ships; B 2, 0, 2, 0, 1, 0.
            ships_lost: ShipsLost {
                a: vec![4, 0, 2],
                b: vec![3, 1, 2],
            },
            hull_by_ship: vec![
                // 33 + 30 of 120 over 12 ship-trials.
                ShipHull {
                    side: Side::A,
                    id: "frigate".into(),
                    ships: 2,
                    mean_hull_left: 5.25,
                    mean_hull_left_pct: Some(52.5),
                },
                // 30 of 60.
                ShipHull {
                    side: Side::B,
                    id: "frigate".into(),
                    ships: 1,
                    mean_hull_left: 5.0,
                    mean_hull_left_pct: Some(50.0),
                },
                // 18 of 36: the hull of -3 counts as 0.
                ShipHull {
                    side: Side::B,
                    id: "raider".into(),
                    ships: 1,
                    mean_hull_left: 3.0,
                    mean_hull_left_pct: Some(50.0),
                },
            ],
            decided_by_turn: [(1, 1), (2, 3), (3, 4), (4, 5)]
                .map(|(turn, count)| DecidedBy {
                    turn,
                    decided: of_six(count),
                })
                .to_vec(),
            loss_shares: SidePair {
                a: LossShares {
                    ships: 2,
                    lost: ships_of_twelve(4),
                    destroyed: ships_of_twelve(2),
                    broken_apart: ships_of_twelve(1),
                    disarmed: ships_of_twelve(1),
                },
                b: LossShares {
                    ships: 2,
                    lost: ships_of_twelve(5),
                    destroyed: ships_of_twelve(3),
                    broken_apart: ships_of_twelve(0),
                    disarmed: ships_of_twelve(2),
                },
            },
            side_hull: SidePair {
                // A kept 14, 2, 0, 17, 18, 12 of 20: ranks 2, 3 and 5 of 6.
                a: SideHull {
                    start: 20,
                    overall: HullLeft {
                        trials: 6,
                        mean: 10.5,
                        mean_pct: Some(52.5),
                        q1: 2,
                        median: 12,
                        q3: 17,
                        counts: one_each(21, &[14, 2, 0, 17, 18, 12]),
                    },
                    when_wins: Some(HullLeft {
                        trials: 1,
                        mean: 14.0,
                        mean_pct: Some(70.0),
                        q1: 14,
                        median: 14,
                        q3: 14,
                        counts: one_each(21, &[14]),
                    }),
                },
                // B kept 0, 13, 1, 14, 12, 8 of 16.
                b: SideHull {
                    start: 16,
                    overall: HullLeft {
                        trials: 6,
                        mean: 8.0,
                        mean_pct: Some(50.0),
                        q1: 1,
                        median: 8,
                        q3: 13,
                        counts: one_each(17, &[0, 13, 1, 14, 12, 8]),
                    },
                    when_wins: Some(HullLeft {
                        trials: 1,
                        mean: 13.0,
                        mean_pct: Some(81.25),
                        q1: 13,
                        median: 13,
                        q3: 13,
                        counts: one_each(17, &[13]),
                    }),
                },
            },
        };
        check_summary(&squadron(), &six_endings(), &expected);
    }

    /// Before any trial: no share, no mean, no percentage of a hull of 0,
    /// and lists as long as the squadron's sides make them.
    #[test]
    fn a_tally_of_no_trials_reports_nothing_won_or_lost() {
        let none = Proportion {
            p: 0.0,
            ci95: [0.0, 1.0],
            count: 0,
        };
        let no_losses = LossCounts {
            destroyed: 0,
            broken_apart: 0,
            disarmed: 0,
        };
        let no_shares = LossShares {
            ships: 2,
            lost: none,
            destroyed: none,
            broken_apart: none,
            disarmed: none,
        };
        let no_hull = SideHull {
            start: 0,
            overall: HullLeft {
                trials: 0,
                mean: 0.0,
                mean_pct: None,
                q1: 0,
                median: 0,
                q3: 0,
                counts: vec![0],
            },
            when_wins: None,
        };
        let row = |side, id: &str, ships| ShipHull {
            side,
            id: id.into(),
            ships,
            mean_hull_left: 0.0,
            mean_hull_left_pct: None,
        };
        let expected = Summary {
            trials: 0,
            outcomes: Outcomes {
                a_wins: none,
                b_wins: none,
                undecided: none,
                draws: none,
                a_escapes: none,
                b_escapes: none,
            },
            turns_to_decision: None,
            winner_hull_left_pct: None,
            losses_a: no_losses,
            losses_b: no_losses,
            ships_lost: ShipsLost {
                a: vec![0, 0, 0],
                b: vec![0, 0, 0],
            },
            hull_by_ship: vec![
                row(Side::A, "frigate", 2),
                row(Side::B, "frigate", 1),
                row(Side::B, "raider", 1),
            ],
            decided_by_turn: vec![],
            loss_shares: SidePair {
                a: no_shares,
                b: no_shares,
            },
            side_hull: SidePair {
                a: no_hull.clone(),
                b: no_hull,
            },
        };
        check_summary(&squadron(), &[], &expected);
    }

    /// Checks a trial's outcome made from its fates: the winner's hull
    /// (left, at least 0, and at the start) and the ships each side lost.
    fn check_outcome(outcome: &TrialOutcome, winner_hull: Option<(i32, i32)>, lost: [usize; 2]) {
        assert_eq!(outcome.winner_hull, winner_hull, "{outcome:?}");
        assert_eq!(
            Side::BOTH.map(|side| outcome.lost(side)),
            lost,
            "{outcome:?}"
        );
    }

    /// Only the winner's ships count toward its hull, and each side's
    /// losses are its own.
    #[test]
    fn an_outcome_sums_the_winners_hull_and_counts_each_sides_losses() {
        let outcomes = six_endings();
        check_outcome(&outcomes[0], Some((14, 20)), [0, 2]);
        check_outcome(&outcomes[1], Some((13, 16)), [2, 0]);
        check_outcome(&outcomes[2], None, [2, 2]);
        check_outcome(&outcomes[4], None, [0, 1]);
        check_outcome(&outcomes[5], None, [0, 0]);
    }

    /// Tallies of any split of the trials merge into the tally of all of
    /// them, in either order.
    fn check_merge(outcomes: &[TrialOutcome]) {
        let whole = tally_of(outcomes);
        for at in 0..=outcomes.len() {
            let (first, last) = outcomes.split_at(at);
            let (first, last) = (tally_of(first), tally_of(last));
            assert_eq!(first.clone().merge(last.clone()), whole, "split at {at}");
            assert_eq!(last.merge(first), whole, "split at {at}, reversed");
        }
    }

    #[test]
    fn split_tallies_merge_into_the_whole() {
        check_merge(&six_endings());
    }

    /// A tally of `trials` undecided trials in which no ship kept any hull,
    /// counting hull for `left` and `original` ships.
    fn undecided(trials: u64, left: usize, original: usize) -> Tally {
        let all_at_zero = Histogram {
            counts: vec![trials],
        };
        Tally {
            trials,
            undecided: trials,
            ships_lost: [all_at_zero.clone(), all_at_zero.clone()],
            side_hull_left: [all_at_zero.clone(), all_at_zero],
            hull_left: vec![0; left],
            hull_original: vec![0; original],
            ..Tally::default()
        }
    }

    fn check_counts(tally: &Tally, expected: Result<(), &str>) {
        assert_eq!(tally.check_counts(), expected.map_err(str::to_owned));
    }

    /// A tally read from a file may count up to a hundred runs' trials and
    /// hull for as many ships as two full sides, and no more.
    #[test]
    fn counts_past_a_battles_bounds_are_refused() {
        let ships = 2 * crate::MAX_SIDE;
        check_counts(&undecided(MAX_TALLY_TRIALS, ships, ships), Ok(()));
        check_counts(
            &undecided(MAX_TALLY_TRIALS + 1, ships, ships),
            Err("10000000001 trials is more than a run plays"),
        );
        let too_many = Err("it counts hull for more ships than a battle holds");
        check_counts(&undecided(1, ships + 1, ships), too_many);
        check_counts(&undecided(1, ships, ships + 1), too_many);
        check_counts(
            &undecided(1, 2, 3),
            Err("it counts hull left and hull at the start for different ships"),
        );
    }

    fn check_mean_lost(lost: ShipsLost, expected: [f64; 2]) {
        assert_eq!(Side::BOTH.map(|side| lost.mean(side)), expected, "{lost:?}");
    }

    /// Ships lost per trial: 0, 1, 1, 2, 2 is 6 over 5 trials; 1, 3, 3, 3
    /// is 10 over 4; with no trial counted, 0.
    #[test]
    fn mean_ships_lost_is_over_the_trials() {
        let lost = ShipsLost {
            a: vec![1, 2, 2],
            b: vec![0, 1, 0, 3],
        };
        check_mean_lost(lost, [1.2, 2.5]);
        let none = ShipsLost {
            a: vec![0, 0, 0],
            b: vec![],
        };
        check_mean_lost(none, [0.0, 0.0]);
    }

    #[test]
    fn losses_read_in_plain_words() {
        let texts = Loss::ALL.map(Loss::text);
        assert_eq!(texts, ["destroyed", "broken apart", "disarmed"]);
    }

    /// Plays a shard with a progress callback and compares the numbers it
    /// was given, smallest first, with the expected ones.
    fn check_progress(trials: u64, shard: Shard, expected: &[u64]) {
        let reported = std::sync::Mutex::new(Vec::new());
        let progress = |n| reported.lock().unwrap().push(n);
        run_shard(&coin(), 1, trials, shard, &progress).unwrap();
        let mut reported = reported.into_inner().unwrap();
        reported.sort_unstable();
        assert_eq!(reported, expected, "{trials} trials, {shard:?}");
    }

    /// Progress is told of each chunk of 256 trials as it finishes, the
    /// last chunk holding what is left, so the reports add up to the
    /// trials the shard plays.
    #[test]
    fn progress_is_told_of_each_chunk_played() {
        check_progress(600, Shard::WHOLE, &[88, 256, 256]);
        check_progress(1001, Shard::new(1, 2).unwrap(), &[244, 256]);
        check_progress(0, Shard::WHOLE, &[]);
    }
}

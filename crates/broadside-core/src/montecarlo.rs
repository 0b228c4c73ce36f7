//! Many trials of one engagement, and the odds read from them.
//!
//! Trial `i` always draws from [`SeededDice::for_trial`]`(seed, i)`, and the
//! tally is integer counts merged by addition, so a run gives the same figures
//! whatever the number of threads or the order trials finish in. Proportions
//! and their intervals are computed once, from the counts, at the end.

use serde::Serialize;

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

/// Counts accumulated over trials. Merging is addition, so any split of the
/// trials over threads gives the same tally.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    trials: u64,
    a_wins: u64,
    b_wins: u64,
    draws: u64,
    a_escapes: u64,
    b_escapes: u64,
    undecided: u64,
    /// `turns_to_decision[t]`: decided trials that ended on turn t.
    turns_to_decision: Vec<u64>,
    winner_hull_left: i64,
    winner_hull_original: i64,
    losses: [[u64; Loss::ALL.len()]; 2],
    /// `ships_lost[side][k]`: trials in which the side lost exactly k ships.
    ships_lost: [Vec<u64>; 2],
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

/// [`add_counts`] for counts of trials.
fn add_trials(mine: &mut Vec<u64>, theirs: &[u64]) {
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
            let t = outcome.turns as usize;
            if self.turns_to_decision.len() <= t {
                self.turns_to_decision.resize(t + 1, 0);
            }
            self.turns_to_decision[t] += 1;
        }
        if let Some((left, original)) = outcome.winner_hull {
            self.winner_hull_left += i64::from(left);
            self.winner_hull_original += i64::from(original);
        }
        let mut lost = [0usize; 2];
        if self.hull_left.len() < outcome.ships.len() {
            self.hull_left.resize(outcome.ships.len(), 0);
            self.hull_original.resize(outcome.ships.len(), 0);
        }
        for (i, fate) in outcome.ships.iter().enumerate() {
            if let Some(loss) = fate.loss {
                self.losses[fate.side.index()][loss.index()] += 1;
                lost[fate.side.index()] += 1;
            }
            self.hull_left[i] += i64::from(fate.hull.0.max(0));
            self.hull_original[i] += i64::from(fate.hull.1);
        }
        for (side, k) in lost.into_iter().enumerate() {
            let counts = &mut self.ships_lost[side];
            if counts.len() <= k {
                counts.resize(k + 1, 0);
            }
            counts[k] += 1;
        }
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
        add_trials(&mut self.turns_to_decision, &other.turns_to_decision);
        self.winner_hull_left += other.winner_hull_left;
        self.winner_hull_original += other.winner_hull_original;
        for side in 0..2 {
            for kind in 0..Loss::ALL.len() {
                self.losses[side][kind] += other.losses[side][kind];
            }
            add_trials(&mut self.ships_lost[side], &other.ships_lost[side]);
        }
        add_counts(&mut self.hull_left, &other.hull_left);
        add_counts(&mut self.hull_original, &other.hull_original);
        self
    }

    /// The figures a report shows, for the ships of `roster`.
    pub fn summary(&self, roster: &Roster) -> Summary {
        let n = self.trials;
        let decided: u64 = self.turns_to_decision.iter().sum();
        let turns = if decided == 0 {
            None
        } else {
            let weighted: u64 = self
                .turns_to_decision
                .iter()
                .enumerate()
                .map(|(t, c)| t as u64 * c)
                .sum();
            Some(TurnsToDecision {
                mean: weighted as f64 / decided as f64,
                q1: self.turn_quantile(decided, 1, 4),
                median: self.turn_quantile(decided, 1, 2),
                q3: self.turn_quantile(decided, 3, 4),
            })
        };
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
            turns_to_decision: turns,
            winner_hull_left_pct,
            losses_a: losses(Side::A),
            losses_b: losses(Side::B),
            ships_lost: ShipsLost {
                a: self.ships_lost_of(Side::A, roster),
                b: self.ships_lost_of(Side::B, roster),
            },
            hull_by_ship: self.hull_by_ship(roster),
        }
    }

    /// `[n0, n1, ...]` up to the side's size: trials in which the side lost
    /// exactly k ships. Sums to the trials.
    fn ships_lost_of(&self, side: Side, roster: &Roster) -> Vec<u64> {
        let mut counts = self.ships_lost[side.index()].clone();
        let size = roster.side_len(side) + 1;
        if counts.len() < size {
            counts.resize(size, 0);
        }
        counts
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

    /// The nearest-rank quantile `num/den` of turns to decision.
    fn turn_quantile(&self, decided: u64, num: u64, den: u64) -> u32 {
        // Nearest rank: the smallest turn whose cumulative count reaches
        // ceil(decided * num / den), at least the first trial.
        let rank = (decided * num).div_ceil(den).max(1);
        let mut seen = 0;
        for (turn, count) in self.turns_to_decision.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return u32::try_from(turn).unwrap_or(u32::MAX);
            }
        }
        0
    }
}

/// A count out of the trials, as a proportion with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Proportion {
    /// Trials with this outcome.
    pub count: u64,
    /// count / trials.
    pub p: f64,
    /// Wilson score interval at 95%.
    pub ci95: [f64; 2],
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
        // The Wilson interval stays inside [0, 1] and behaves at p = 0 or 1,
        // where the normal approximation collapses to a point.
        const Z: f64 = 1.959_963_984_540_054;
        let n_f = n as f64;
        let p = count as f64 / n_f;
        let z2 = Z * Z;
        let denom = 1.0 + z2 / n_f;
        let centre = (p + z2 / (2.0 * n_f)) / denom;
        let half = Z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denom;
        Proportion {
            count,
            p,
            ci95: [(centre - half).max(0.0), (centre + half).min(1.0)],
        }
    }
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
/// `progress` is called with the number of trials finished so far, from any
/// thread, every so often; pass `&|_| {}` to ignore it.
pub fn run_trials(
    engagement: &dyn Engagement,
    seed: u64,
    trials: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Tally, ResolveError> {
    const CHUNK: u64 = 1024;
    let chunks = trials.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut tally = Tally::default();
            let end = ((chunk + 1) * CHUNK).min(trials);
            for trial in chunk * CHUNK..end {
                let outcome = play_trial(engagement, seed, trial, &mut NullSink)?;
                tally.add(&outcome);
            }
            progress(end - chunk * CHUNK);
            Ok(tally)
        })
        .try_reduce(Tally::default, |a, b| Ok(a.merge(b)))
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
}

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
    /// Ships lost by each side, by cause: `(side, loss)` once per ship.
    pub losses: Vec<(Side, Loss)>,
}

/// What became of one ship by the end of a trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShipFate {
    /// Its side.
    pub side: Side,
    /// How it was lost, if it was.
    pub loss: Option<Loss>,
    /// Hull (or its system's measure of it) left and at the start.
    pub hull: (i32, i32),
}

impl TrialOutcome {
    /// A trial's outcome from its verdict and every ship's fate: the ships
    /// lost, and the winner's hull left and original summed over its ships.
    pub fn from_fates(
        verdict: Verdict,
        turns: u32,
        fates: impl IntoIterator<Item = ShipFate>,
    ) -> TrialOutcome {
        let mut losses = Vec::new();
        let mut winner_hull = (0, 0);
        for fate in fates {
            if let Some(loss) = fate.loss {
                losses.push((fate.side, loss));
            }
            if verdict == Verdict::Winner(fate.side) {
                winner_hull.0 += fate.hull.0.max(0);
                winner_hull.1 += fate.hull.1;
            }
        }
        let winner_hull = matches!(verdict, Verdict::Winner(_)).then_some(winner_hull);
        TrialOutcome {
            verdict,
            turns,
            winner_hull,
            losses,
        }
    }
}

/// A duel set up once and played any number of times.
///
/// # Contract for implementors
/// `play` starts from the same initial state every call and draws every
/// random number from `dice`, so the same dice give the same trial.
pub trait Engagement: Send + Sync {
    /// Plays one trial from the start.
    fn play(
        &self,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<TrialOutcome, ResolveError>;
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
        for &(side, loss) in &outcome.losses {
            self.losses[side.index()][loss.index()] += 1;
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
        if self.turns_to_decision.len() < other.turns_to_decision.len() {
            self.turns_to_decision
                .resize(other.turns_to_decision.len(), 0);
        }
        for (mine, theirs) in self
            .turns_to_decision
            .iter_mut()
            .zip(&other.turns_to_decision)
        {
            *mine += theirs;
        }
        self.winner_hull_left += other.winner_hull_left;
        self.winner_hull_original += other.winner_hull_original;
        for side in 0..2 {
            for kind in 0..Loss::ALL.len() {
                self.losses[side][kind] += other.losses[side][kind];
            }
        }
        self
    }

    /// The figures a report shows.
    pub fn summary(&self) -> Summary {
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
        }
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

    /// A toy engagement: A wins on a d6 of 4+, in d6 turns.
    struct Coin;
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
            Ok(TrialOutcome {
                verdict: Verdict::Winner(winner),
                turns,
                winner_hull: Some((5, 10)),
                losses: vec![(winner.other(), Loss::Destroyed)],
            })
        }
    }

    #[test]
    fn tally_does_not_depend_on_trial_order() {
        let outcomes: Vec<TrialOutcome> = (0..500)
            .map(|i| play_trial(&Coin, 9, i, &mut NullSink).unwrap())
            .collect();
        let forward = outcomes.iter().fold(Tally::default(), |mut t, o| {
            t.add(o);
            t
        });
        let backward = outcomes.iter().rev().fold(Tally::default(), |mut t, o| {
            t.add(o);
            t
        });
        let parallel = run_trials(&Coin, 9, 500, &|_| {}).unwrap();
        assert_eq!(forward, backward);
        assert_eq!(forward, parallel);
        let summary = parallel.summary();
        assert_eq!(summary.trials, 500);
        assert_eq!(
            summary.outcomes.a_wins.count + summary.outcomes.b_wins.count,
            500
        );
        assert_eq!(summary.losses_a.destroyed, summary.outcomes.b_wins.count);
        assert_eq!(summary.winner_hull_left_pct, Some(50.0));
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
            tally.add(&TrialOutcome {
                verdict: Verdict::Winner(Side::A),
                turns,
                winner_hull: None,
                losses: vec![],
            });
        }
        let t = tally.summary().turns_to_decision.unwrap();
        assert_eq!((t.q1, t.median, t.q3), (2, 4, 6));
        assert!((t.mean - 4.5).abs() < 1e-9);
    }
}

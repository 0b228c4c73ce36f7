//! Fleets: the ships of each side, the names a log gives them, and a battle
//! set up once and played per trial.
//!
//! Every system numbers the ships of an engagement the same way: side A's
//! ships in the order named, then side B's. That index is the ship's place in
//! the [`Roster`], in the fates a trial returns and in the tally, so core can
//! count losses and hull per ship without knowing any system's state.

use serde::Serialize;

use crate::dice::{Dice, Die};
use crate::error::ResolveError;
use crate::event::{Event, EventSink};
use crate::exact::{ExactError, ExactOdds, exact_battle};
use crate::montecarlo::{Engagement, ShipFate, TrialOutcome};
use crate::rules::{Side, TurnSequence, play};

/// The most ships one side may field. Every system's state and the tally's
/// per-ship counts stay small with it; a larger fleet is refused as bad input.
pub const MAX_SIDE: usize = 24;

/// Reads one side as written on a command line: comma-separated ship ids,
/// each optionally prefixed by a count and `x` (`3xfrigate,heavy-cruiser`).
/// Returns the ids with counts expanded, in the order given.
pub fn parse_side(text: &str) -> Result<Vec<String>, ResolveError> {
    let mut ships = Vec::new();
    for entry in text.split(',') {
        let entry = entry.trim();
        if entry.is_empty() {
            return Err(ResolveError::bad_option(
                "side",
                format!("'{text}' has an empty entry: write ship ids separated by commas"),
            ));
        }
        let (count, id) = split_count(entry)?;
        ships.extend(std::iter::repeat_n(id.to_owned(), count));
        if ships.len() > MAX_SIDE {
            break;
        }
    }
    check_side_size(&ships)?;
    Ok(ships)
}

/// Checks that a side has between one and [`MAX_SIDE`] ships and no empty id.
pub fn check_side_size(ships: &[String]) -> Result<(), ResolveError> {
    if ships.is_empty() {
        return Err(ResolveError::bad_option(
            "side",
            "a side needs at least one ship",
        ));
    }
    if ships.len() > MAX_SIDE {
        return Err(ResolveError::bad_option(
            "side",
            format!("a side may have at most {MAX_SIDE} ships"),
        ));
    }
    if ships.iter().any(|id| id.trim().is_empty()) {
        return Err(ResolveError::bad_option("side", "a ship id is empty"));
    }
    Ok(())
}

/// `3xfrigate` is three frigates; `frigate` is one. Only a run of digits
/// followed by `x` and more text is a count, so an id may still contain an x.
fn split_count(entry: &str) -> Result<(usize, &str), ResolveError> {
    let digits = entry.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &entry[digits..];
    let Some(id) = rest
        .strip_prefix('x')
        .filter(|id| digits > 0 && !id.is_empty())
    else {
        return Ok((1, entry));
    };
    let count: usize = entry[..digits].parse().unwrap_or(usize::MAX);
    if count == 0 || count > MAX_SIDE {
        return Err(ResolveError::bad_option(
            "side",
            format!("'{entry}': a count is from 1 to {MAX_SIDE}"),
        ));
    }
    Ok((count, id.trim()))
}

/// One ship of an engagement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RosterShip {
    /// Its side.
    pub side: Side,
    /// Its class id in the system's data.
    pub id: String,
    /// The name a log gives it: the id, a number when its side has several of
    /// the id (`frigate #2`), and the side (`frigate #2 (A)`).
    pub name: String,
    /// Whether the system added it, carried by a ship that was named (a
    /// carrier's rider): it fights and can be lost, but a side as written
    /// does not name it.
    pub carried: bool,
}

/// The ships of an engagement: side A's in the order named, then side B's.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Roster {
    ships: Vec<RosterShip>,
}

impl Roster {
    /// The roster of two sides given as ship ids.
    pub fn new(a: &[String], b: &[String]) -> Roster {
        let mut ships = Vec::with_capacity(a.len() + b.len());
        for (side, ids) in [(Side::A, a), (Side::B, b)] {
            for (i, id) in ids.iter().enumerate() {
                let same = ids.iter().filter(|other| *other == id).count();
                let name = if same > 1 {
                    let nth = ids[..=i].iter().filter(|other| *other == id).count();
                    format!("{id} #{nth} ({side})")
                } else {
                    format!("{id} ({side})")
                };
                ships.push(RosterShip {
                    side,
                    id: id.clone(),
                    name,
                    carried: false,
                });
            }
        }
        Roster { ships }
    }

    /// A roster of ships a system adds to those requested (a carrier's
    /// riders after their carrier). Side A's ships must all come first.
    pub fn from_ships(ships: Vec<RosterShip>) -> Result<Roster, ResolveError> {
        if ships
            .windows(2)
            .any(|w| w[0].side == Side::B && w[1].side == Side::A)
        {
            return Err(ResolveError::Internal(
                "a roster lists side A's ships after side B's".into(),
            ));
        }
        Ok(Roster { ships })
    }

    /// Every ship, in roster order.
    pub fn ships(&self) -> &[RosterShip] {
        &self.ships
    }

    /// Ships in the engagement.
    pub fn len(&self) -> usize {
        self.ships.len()
    }

    /// Whether there are no ships at all.
    pub fn is_empty(&self) -> bool {
        self.ships.is_empty()
    }

    /// Ship `i`'s side.
    pub fn side(&self, i: usize) -> Side {
        self.ships[i].side
    }

    /// Ship `i`'s log name.
    pub fn name(&self, i: usize) -> &str {
        &self.ships[i].name
    }

    /// The roster indices of one side's ships.
    pub fn of(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        (0..self.ships.len()).filter(move |&i| self.ships[i].side == side)
    }

    /// How many ships a side has.
    pub fn side_len(&self, side: Side) -> usize {
        self.of(side).count()
    }

    /// A side's ship ids as named, in order: carried ships left out.
    pub fn ids(&self, side: Side) -> Vec<&str> {
        self.of(side)
            .filter(|&i| !self.ships[i].carried)
            .map(|i| self.ships[i].id.as_str())
            .collect()
    }

    /// A side as a person wrote it: `3xfrigate,heavy-cruiser`, runs of one id
    /// counted, carried ships left out. It parses back to the same side with
    /// [`parse_side`].
    pub fn label(&self, side: Side) -> String {
        let ids = self.ids(side);
        let mut parts: Vec<String> = Vec::new();
        let mut i = 0;
        while i < ids.len() {
            let run = ids[i..].iter().take_while(|id| **id == ids[i]).count();
            parts.push(if run > 1 {
                format!("{run}x{}", ids[i])
            } else {
                ids[i].to_owned()
            });
            i += run;
        }
        parts.join(",")
    }
}

/// A system's battle set up once, from which core plays trials.
///
/// A system implements this and gets [`Engagement`] for free: core makes the
/// fresh state, plays the turn sequence to a verdict and turns every ship's
/// fate into the trial's outcome. The system keeps only its own rules.
/// A system with tactics rarely writes it by hand: [`Frame`] is a `Setup`
/// for any [`FrameRules`].
///
/// # Contract for implementors
/// - [`Setup::begin`] returns the state at the start of a trial, making any
///   roll the rules make before the first turn (who moves first) with `dice`.
/// - [`Setup::fates`] returns one fate per ship, in roster order, each with
///   its roster side.
pub trait Setup: Send + Sync {
    /// Everything that changes during the battle. Equal states are merged
    /// when exact odds are computed, so it compares and hashes.
    type State: Clone + Eq + std::hash::Hash;
    /// The system's tactics trait object type.
    type Tactics: ?Sized;
    /// The system's turn sequence, usually a borrow of the system.
    type Sequence<'a>: TurnSequence<State = Self::State, Tactics = Self::Tactics>
    where
        Self: 'a;

    /// The turn sequence to play.
    fn sequence(&self) -> Self::Sequence<'_>;
    /// The ships of both sides, in the order of the system's state.
    fn roster(&self) -> &Roster;
    /// Game turns after which the battle is undecided.
    fn max_turns(&self) -> u32;
    /// The tactics each side plays by in a Monte Carlo run.
    fn tactics(&self) -> [&Self::Tactics; 2];
    /// The state at the start of a trial.
    fn begin(
        &self,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Self::State, ResolveError>;
    /// What became of every ship, in roster order.
    fn fates(&self, state: &Self::State) -> Vec<ShipFate>;
}

/// Plays one trial of a set-up battle with the given tactics, returning the
/// outcome and the final state.
pub fn play_setup<S: Setup + ?Sized>(
    setup: &S,
    tactics: [&S::Tactics; 2],
    dice: &mut dyn Dice,
    sink: &mut dyn EventSink,
) -> Result<(TrialOutcome, S::State), ResolveError> {
    let mut state = setup.begin(dice, sink)?;
    let (verdict, turns) = play(
        &setup.sequence(),
        &mut state,
        tactics,
        setup.max_turns(),
        dice,
        sink,
    )?;
    let fates = setup.fates(&state);
    let roster = setup.roster();
    if fates.len() != roster.len()
        || fates
            .iter()
            .zip(roster.ships())
            .any(|(fate, ship)| fate.side != ship.side)
    {
        return Err(ResolveError::Internal(format!(
            "{} fates for a roster of {} ships, or a fate on the wrong side",
            fates.len(),
            roster.len()
        )));
    }
    Ok((TrialOutcome::from_fates(verdict, turns, fates), state))
}

/// What a system writes for a battle its sides play by tactics: its turn
/// sequence, how tactics are given, what happens before the first turn and
/// what became of each ship. Core's [`Frame`] holds the rest (the roster,
/// the turn limit, the state every trial starts from and each side's default
/// tactics) and is the system's [`Setup`].
///
/// The implementor is the part of the set-up that is the system's own: the
/// system itself, or the system with what a battle adds to it (objects on
/// the map, a set-up phase's options). A frame dereferences to it.
pub trait FrameRules: Send + Sync + Sized {
    /// Everything that changes during the battle.
    type State: Clone + Eq + std::hash::Hash + Send + Sync;
    /// The system's tactics trait object type.
    type Tactics: ?Sized;
    /// The tactics each side plays by unless told otherwise.
    type DefaultTactics: Send + Sync;
    /// The system's turn sequence, usually a borrow of the system.
    type Sequence<'a>: TurnSequence<State = Self::State, Tactics = Self::Tactics>
    where
        Self: 'a;

    /// The turn sequence to play a frame's battle by.
    fn sequence(frame: &Frame<Self>) -> Self::Sequence<'_>;
    /// The default tactics as the tactics trait object.
    fn as_tactics(tactics: &Self::DefaultTactics) -> &Self::Tactics;
    /// Any roll the rules make before the first turn (who moves first), on
    /// a copy of the start state. By default there is none.
    fn before_first_turn(
        &self,
        state: &mut Self::State,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        let _ = (state, dice, sink);
        Ok(())
    }
    /// What became of every ship, in roster order.
    fn fates(&self, roster: &Roster, state: &Self::State) -> Vec<ShipFate>;
}

/// A battle set up once and played many times: the system's own part, the
/// state every trial starts from, the roster, the turn limit and the
/// tactics each side plays by in a Monte Carlo run.
pub struct Frame<R: FrameRules> {
    rules: R,
    start: R::State,
    roster: Roster,
    max_turns: u32,
    tactics: [R::DefaultTactics; 2],
}

impl<R: FrameRules> Frame<R> {
    /// A battle of `roster`'s ships starting at `start`, undecided after
    /// `max_turns` game turns, each side playing by its default `tactics`.
    pub fn from_parts(
        rules: R,
        start: R::State,
        roster: Roster,
        max_turns: u32,
        tactics: [R::DefaultTactics; 2],
    ) -> Frame<R> {
        Frame {
            rules,
            start,
            roster,
            max_turns,
            tactics,
        }
    }

    /// Plays one trial with the given tactics for both sides, returning the
    /// final state too.
    pub fn play_with(
        &self,
        tactics: [&R::Tactics; 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(TrialOutcome, R::State), ResolveError> {
        play_setup(self, tactics, dice, sink)
    }

    /// The system's own part of the set-up.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The state at the start of every trial, before any roll.
    pub fn start(&self) -> &R::State {
        &self.start
    }

    /// The default tactics each side plays by.
    pub fn default_tactics(&self) -> &[R::DefaultTactics; 2] {
        &self.tactics
    }
}

impl<R: FrameRules> std::ops::Deref for Frame<R> {
    type Target = R;

    fn deref(&self) -> &R {
        &self.rules
    }
}

impl<R: FrameRules> Setup for Frame<R> {
    type State = R::State;
    type Tactics = R::Tactics;
    type Sequence<'a>
        = R::Sequence<'a>
    where
        R: 'a;

    fn sequence(&self) -> R::Sequence<'_> {
        R::sequence(self)
    }

    fn roster(&self) -> &Roster {
        &self.roster
    }

    fn max_turns(&self) -> u32 {
        self.max_turns
    }

    fn tactics(&self) -> [&R::Tactics; 2] {
        self.tactics.each_ref().map(R::as_tactics)
    }

    fn begin(
        &self,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<R::State, ResolveError> {
        let mut state = self.start.clone();
        self.rules.before_first_turn(&mut state, dice, sink)?;
        Ok(state)
    }

    fn fates(&self, state: &R::State) -> Vec<ShipFate> {
        self.rules.fates(&self.roster, state)
    }
}

/// Rolls one `die` for which side goes first: side A on the lower half of
/// its faces, side B on the upper, so neither is favoured on a die with an
/// even number of faces (the d6 and d10 the systems roll). The roll is
/// logged with `purpose`, given the side that won.
pub fn roll_first(
    die: Die,
    dice: &mut dyn Dice,
    sink: &mut dyn EventSink,
    purpose: impl FnOnce(Side) -> String,
) -> Result<Side, ResolveError> {
    let check = dice.check(die, (die.sides() / 2) as i32)?;
    let roll = check.face;
    let first = if check.passed { Side::A } else { Side::B };
    sink.emit(|| Event::Roll {
        purpose: purpose(first),
        dice: die.to_string(),
        faces: vec![roll],
        total: roll as i32,
    });
    Ok(first)
}

impl<S: Setup> Engagement for S {
    fn play(
        &self,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<TrialOutcome, ResolveError> {
        play_setup(self, self.tactics(), dice, sink).map(|(outcome, _)| outcome)
    }

    fn roster(&self) -> &Roster {
        Setup::roster(self)
    }

    fn exact(&self, max_states: usize, max_paths: u64) -> Result<ExactOdds, ExactError> {
        exact_battle(self, max_states, max_paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn sides_read_with_counts() {
        assert_eq!(
            parse_side("3xfrigate, heavy-cruiser").unwrap(),
            ids(&["frigate", "frigate", "frigate", "heavy-cruiser"])
        );
        assert_eq!(
            parse_side("escort,2xscout").unwrap(),
            ids(&["escort", "scout", "scout"])
        );
        // Not a count: no digits before the x, or nothing after it.
        assert_eq!(parse_side("xeno").unwrap(), ids(&["xeno"]));
        assert_eq!(parse_side("2x").unwrap(), ids(&["2x"]));
        for bad in [
            "",
            "frigate,",
            "0xfrigate",
            "25xscout",
            "99999999999999999999xscout",
        ] {
            assert!(parse_side(bad).is_err(), "{bad} should be refused");
        }
        assert!(parse_side("20xscout,5xfrigate").is_err());
    }

    #[test]
    fn repeated_ids_are_numbered_within_their_side() {
        let roster = Roster::new(
            &ids(&["frigate", "destroyer", "frigate"]),
            &ids(&["frigate"]),
        );
        let names: Vec<&str> = (0..roster.len()).map(|i| roster.name(i)).collect();
        assert_eq!(
            names,
            [
                "frigate #1 (A)",
                "destroyer (A)",
                "frigate #2 (A)",
                "frigate (B)"
            ]
        );
        assert_eq!(roster.of(Side::B).collect::<Vec<_>>(), [3]);
        assert_eq!(roster.label(Side::A), "frigate,destroyer,frigate");
        let fleet = Roster::new(&ids(&["scout", "scout", "scout", "cruiser"]), &ids(&["x"]));
        assert_eq!(fleet.label(Side::A), "3xscout,cruiser");
        assert_eq!(
            parse_side(&fleet.label(Side::A)).unwrap(),
            fleet.ids(Side::A)
        );
    }

    #[test]
    fn carried_ships_fight_but_are_not_named_in_a_side() {
        let mut ships = Roster::new(&ids(&["carrier"]), &ids(&["cruiser"])).ships;
        ships.insert(
            1,
            RosterShip {
                side: Side::A,
                id: "gunboat".into(),
                name: "gunboat 1 (A)".into(),
                carried: true,
            },
        );
        let roster = Roster::from_ships(ships).unwrap();
        assert_eq!(roster.side_len(Side::A), 2);
        assert_eq!(roster.label(Side::A), "carrier");
        assert_eq!(roster.ids(Side::A), ["carrier"]);
    }

    /// Rolls for the first side with one scripted face, returning the side
    /// and the line the log shows.
    fn check_first(die: Die, face: u32) -> (Side, String) {
        let mut dice = crate::dice::ScriptedDice::new([face]);
        let mut log = crate::event::EventLog::default();
        let first = roll_first(die, &mut dice, &mut log, |side| {
            format!("side {side} first")
        })
        .expect("a face the die can show");
        assert_eq!(log.events.len(), 1, "one roll logged");
        (first, log.events[0].to_string())
    }

    #[test]
    fn the_lower_half_of_the_die_gives_side_a_the_first_move() {
        assert_eq!(
            check_first(Die::D10, 5),
            (Side::A, "side A first: rolled d10 = 5".to_owned())
        );
        assert_eq!(
            check_first(Die::D10, 6),
            (Side::B, "side B first: rolled d10 = 6".to_owned())
        );
        assert_eq!(check_first(Die::D6, 3).0, Side::A);
        assert_eq!(check_first(Die::D6, 4).0, Side::B);
    }

    proptest::proptest! {
        /// A side written back by `label` reads as the same ships, and every
        /// ship of a roster has a name no other ship has.
        #[test]
        fn labels_read_back_and_names_are_unique(
            a in proptest::collection::vec(proptest::sample::select(vec!["scout", "frigate", "x2"]), 1..8),
            b in proptest::collection::vec(proptest::sample::select(vec!["scout", "cruiser"]), 1..8),
        ) {
            let (a, b) = (ids(&a), ids(&b));
            let roster = Roster::new(&a, &b);
            proptest::prop_assert_eq!(parse_side(&roster.label(Side::A)).unwrap(), a.clone());
            proptest::prop_assert_eq!(parse_side(&roster.label(Side::B)).unwrap(), b.clone());
            let mut names: Vec<&str> = (0..roster.len()).map(|i| roster.name(i)).collect();
            names.sort_unstable();
            names.dedup();
            proptest::prop_assert_eq!(names.len(), a.len() + b.len());
            proptest::prop_assert_eq!(roster.side_len(Side::A), a.len());
        }
    }
}

//! The plug-in kit: a rule system written against core's traits gets the
//! whole object-safe [`Ruleset`] face from one generic adapter.
//!
//! A system implements [`AttackResolution`] with its own types (and
//! [`crate::DamageAllocation`] where its damage is more than a subtraction),
//! a battle's [`Setup`] (which core turns into an engagement; a battle with
//! no decisions to make writes a [`PlainBattle`] instead), and [`System`]:
//! its names, its data, its ship sheets, how a `resolve` request becomes an
//! attack and how a resolved attack is reported. The blanket
//! `impl<S: System> Ruleset for S` below does the rest: the option lists,
//! the boxing, the order in which an attack is declared, resolved and
//! reported, exact odds over every dice path, and the registration the CLI
//! lists. What a system does not have (tables besides its ships, options of
//! either kind, several steps in an exact attack, tactics or phases) it
//! leaves to the defaults.

use std::hash::Hash;

use crate::dice::Dice;
use crate::error::{DataErrors, ResolveError};
use crate::event::{EventSink, NullSink};
use crate::exact::{ExactAttack, ExactError, ExactOdds, Prob, exact_attack};
use crate::fleet::{Frame, FrameRules, Roster, Setup};
use crate::montecarlo::{Engagement, Loss, ShipFate, TrialOutcome};
use crate::rules::{AttackResolution, TurnSequence, Verdict};
use crate::ruleset::{
    BattleRequest, OptionSpec, Registration, ResolveRequest, Ruleset, Sheet, ShipSheet, SourceFile,
    TableRowView, TableView,
};

/// A rule system as its author writes it: its rules against core's generic
/// traits, and the few things only it knows. Every [`System`] is a
/// [`Ruleset`].
///
/// # Contract for implementors
/// - [`System::declare`] reads a `resolve` request into fresh ships on a
///   board and the attack declared on it. It refuses what the rules forbid
///   before any die is rolled ([`ResolveError::Refused`]) and names an
///   unknown ship or weapon ([`ResolveError::Unknown`]); the options arrive
///   checked against [`System::RESOLVE_OPTIONS`].
/// - The attack is then played by [`AttackResolution::resolve_attack`], and
///   [`System::report`] lays it out; the report's [`Sheet::attack_outcome`]
///   is what `resolve --exact` counts.
/// - [`System::battle_setup`] checks a battle request
///   ([`BattleRequest::check`]) and sets the battle up once.
/// - Nothing here prints, reads files or exits: return data and errors.
pub trait System: AttackResolution<Board: Clone> + Sized + Send + Sync + 'static {
    /// The system's id (`percentile`): kebab-case, the name of its folder
    /// under `rulesets/` and of its crate (`broadside-<id>`).
    const ID: &'static str;
    /// The published game it follows.
    const TITLE: &'static str;
    /// One sentence on how combat works in it.
    const DESCRIPTION: &'static str;
    /// The files of `rulesets/<id>/`, embedded at build time: (name, text).
    const EMBEDDED: &'static [(&'static str, &'static str)];
    /// The options `resolve` takes besides attacker and target.
    const RESOLVE_OPTIONS: &'static [OptionSpec] = &[];
    /// The options `battle` takes besides the two sides and the turn limit.
    const BATTLE_OPTIONS: &'static [OptionSpec] = &[];
    /// The set-up each side may be given on its own (a formation, mines
    /// placed before play).
    const SIDE_OPTIONS: &'static [OptionSpec] = &[];
    /// The ways its ships can be lost, in report order; by default only
    /// destroyed. Every trial is checked against it.
    const LOSSES: &'static [Loss] = &[Loss::Destroyed];
    /// Whether a side can leave a battle (a jump); by default not. Every
    /// trial is checked against it.
    const ESCAPES: bool = false;

    /// One line of `broadside ships`.
    type ShipSheet: ShipSheet + 'static;
    /// The report of one resolved attack.
    type Report: Sheet + 'static;
    /// A battle set up once, from which core plays trials.
    type Setup: Setup + 'static;

    /// Validates a set of ruleset files (the embedded ones, or a `--rules`
    /// folder's over them) into the system, reporting every problem.
    fn from_files(files: &[SourceFile]) -> Result<Self, DataErrors>;

    /// The system loaded from its embedded data of record.
    fn embedded() -> Result<Self, DataErrors> {
        embedded::<Self>()
    }

    /// Every ship class of the data, as `broadside ships` lists it.
    fn ship_sheets(&self) -> Vec<Self::ShipSheet>;

    /// Every table of the data, for `broadside table`. By default one,
    /// `ships`: a row for each ship, labelled by its id, with the columns of
    /// [`ShipSheet::row`] after the first (which names the ship).
    fn table_views(&self) -> Vec<TableView> {
        let sheets = self.ship_sheets();
        let Some(first) = sheets.first() else {
            return Vec::new();
        };
        let mut headers = first.row().into_iter().map(|(header, _)| header.to_owned());
        let row = |sheet: &Self::ShipSheet| TableRowView {
            label: sheet.id().to_owned(),
            cells: sheet
                .row()
                .into_iter()
                .skip(1)
                .map(|(_, cell)| cell)
                .collect(),
        };
        vec![TableView {
            id: "ships".into(),
            title: "Ships".into(),
            row_header: headers.next().unwrap_or_default(),
            columns: headers.collect(),
            rows: sheets.iter().map(row).collect(),
        }]
    }

    /// Reads a `resolve` request: fresh ships on a board, and the attack
    /// declared on it.
    fn declare(
        &self,
        request: &ResolveRequest,
    ) -> Result<(Self::Board, Self::Declaration), ResolveError>;

    /// Lays out a resolved attack. `sink` takes any ruling a single
    /// resolution adds after the attack (that it stops there).
    fn report(
        &self,
        request: &ResolveRequest,
        resolved: Resolved<Self>,
        sink: &mut dyn EventSink,
    ) -> Self::Report;

    /// The exact distribution of one attack's outcomes: by default the
    /// attack declared, resolved and reported over every path of its dice,
    /// each report's [`Sheet::attack_outcome`] counted. A system may
    /// override it to skip the report, or to play the attack in steps
    /// ([`crate::exact::exact_attack_in_steps`]), dropping states less
    /// likely than `min_probability`.
    fn exact_resolve(
        &self,
        request: &ResolveRequest,
        max_paths: u64,
        min_probability: Prob,
    ) -> Result<ExactAttack, ExactError> {
        let _ = min_probability;
        exact_attack(max_paths, |dice| {
            resolve_typed(self, request, dice, &mut NullSink)?
                .attack_outcome()
                .ok_or_else(|| {
                    ResolveError::Refused(format!(
                        "{} does not yet report its attacks for --exact",
                        Self::ID
                    ))
                })
        })
    }

    /// Checks a battle request and sets the battle up once; its roster is
    /// side A's ships in the order named, then side B's.
    fn battle_setup(&self, request: &BattleRequest) -> Result<Self::Setup, ResolveError>;
}

/// An attack as it was resolved: the board before and after, the attack
/// declared and what resolution found.
pub struct Resolved<S: AttackResolution> {
    /// The board as [`System::declare`] set it up.
    pub before: S::Board,
    /// The board after the attack.
    pub board: S::Board,
    /// The attack declared.
    pub attack: S::Declaration,
    /// What resolution found.
    pub outcome: S::Outcome,
}

/// Declares, resolves and reports one attack: [`Ruleset::resolve`] with the
/// report's own type.
pub fn resolve_typed<S: System>(
    system: &S,
    request: &ResolveRequest,
    dice: &mut dyn Dice,
    sink: &mut dyn EventSink,
) -> Result<S::Report, ResolveError> {
    let declared = system.declare(request)?;
    resolve_declared(system, request, declared, dice, sink)
}

/// Resolves and reports an attack already declared on a board (one a test
/// sets up with damaged ships, say), as [`Ruleset::resolve`] does a fresh one.
pub fn resolve_declared<S: System>(
    system: &S,
    request: &ResolveRequest,
    (before, attack): (S::Board, S::Declaration),
    dice: &mut dyn Dice,
    sink: &mut dyn EventSink,
) -> Result<S::Report, ResolveError> {
    let mut board = before.clone();
    let outcome = system.resolve_attack(&mut board, &attack, dice, sink)?;
    let resolved = Resolved {
        before,
        board,
        attack,
        outcome,
    };
    Ok(system.report(request, resolved, sink))
}

impl<S: System> Ruleset for S {
    fn id(&self) -> &'static str {
        S::ID
    }

    fn title(&self) -> &'static str {
        S::TITLE
    }

    fn description(&self) -> &'static str {
        S::DESCRIPTION
    }

    fn ships(&self) -> Vec<Box<dyn ShipSheet>> {
        self.ship_sheets()
            .into_iter()
            .map(|sheet| Box::new(sheet) as Box<dyn ShipSheet>)
            .collect()
    }

    fn tables(&self) -> Vec<TableView> {
        self.table_views()
    }

    fn resolve_options(&self) -> &'static [OptionSpec] {
        S::RESOLVE_OPTIONS
    }

    fn resolve(
        &self,
        request: &ResolveRequest,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Box<dyn Sheet>, ResolveError> {
        Ok(Box::new(resolve_typed(self, request, dice, sink)?))
    }

    fn resolve_exact(
        &self,
        request: &ResolveRequest,
        max_paths: u64,
        min_probability: Prob,
    ) -> Result<ExactAttack, ExactError> {
        self.exact_resolve(request, max_paths, min_probability)
    }

    fn battle_options(&self) -> &'static [OptionSpec] {
        S::BATTLE_OPTIONS
    }

    fn side_options(&self) -> &'static [OptionSpec] {
        S::SIDE_OPTIONS
    }

    fn prepare_battle(&self, request: &BattleRequest) -> Result<Box<dyn Engagement>, ResolveError> {
        Ok(Box::new(Declared {
            engagement: self.battle_setup(request)?,
            losses: S::LOSSES,
            escapes: S::ESCAPES,
        }))
    }

    fn loss_kinds(&self) -> &'static [Loss] {
        S::LOSSES
    }

    fn escapes(&self) -> bool {
        S::ESCAPES
    }
}

/// An engagement held to the losses and endings its system declares: a
/// trial that comes to another is an internal error, so a report never
/// needs to list a kind of loss the system cannot have.
struct Declared<E> {
    engagement: E,
    losses: &'static [Loss],
    escapes: bool,
}

impl<E: Engagement> Engagement for Declared<E> {
    fn play(
        &self,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<TrialOutcome, ResolveError> {
        let outcome = self.engagement.play(dice, sink)?;
        let undeclared = outcome
            .ships
            .iter()
            .filter_map(|fate| fate.loss)
            .find(|loss| !self.losses.contains(loss));
        if let Some(loss) = undeclared {
            return Err(ResolveError::Internal(format!(
                "a trial lost a ship as {loss:?}, which the system does not declare"
            )));
        }
        let escaped = outcome.ships.iter().any(|fate| fate.escaped);
        if !self.escapes && (escaped || matches!(outcome.verdict, Verdict::Escaped(_))) {
            return Err(ResolveError::Internal(
                "a trial ended in an escape, which the system does not declare".into(),
            ));
        }
        if let Some(fate) = outcome.ships.iter().find(|f| f.escaped && f.loss.is_some()) {
            return Err(ResolveError::Internal(format!(
                "a trial reports a ship both escaped and lost ({:?})",
                fate.loss
            )));
        }
        Ok(outcome)
    }

    fn roster(&self) -> &Roster {
        self.engagement.roster()
    }

    fn exact(&self, max_states: usize, max_paths: u64) -> Result<ExactOdds, ExactError> {
        self.engagement.exact(max_states, max_paths)
    }
}

/// How the CLI registers a system: its id, its embedded files, and
/// [`System::from_files`] as the loader.
pub const fn registration<S: System>() -> Registration {
    Registration {
        id: S::ID,
        embedded: S::EMBEDDED,
        load: load_boxed::<S>,
    }
}

/// [`System::from_files`] behind the object-safe face.
fn load_boxed<S: System>(files: &[SourceFile]) -> Result<Box<dyn Ruleset>, DataErrors> {
    S::from_files(files).map(|system| Box::new(system) as Box<dyn Ruleset>)
}

/// The system loaded from its embedded data of record.
pub fn embedded<S: System>() -> Result<S, DataErrors> {
    S::from_files(&registration::<S>().embedded_sources())
}

/// A battle with no decisions to make: what a system writes instead of a
/// turn sequence, a tactics trait and a set-up of its own. Set up by
/// [`Prepared::new`], it is core's [`Setup`], and so an engagement.
pub trait PlainBattle: Clone + Send + Sync + 'static {
    /// The phases of every game turn, in order, as the log names them.
    const PHASES: &'static [&'static str];
    /// Everything that changes during the battle, in roster order where it
    /// is per ship. Equal states are merged for exact odds.
    type State: Clone + Eq + Hash + Send + Sync;

    /// The state every trial starts from, for the ships of the roster.
    fn start(&self, request: &BattleRequest, roster: &Roster) -> Result<Self::State, ResolveError>;
    /// Plays one phase of a game turn.
    fn play(
        &self,
        phase: &'static str,
        roster: &Roster,
        state: &mut Self::State,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError>;
    /// How the battle has ended, or `None` while it goes on.
    fn verdict(&self, roster: &Roster, state: &Self::State) -> Option<Verdict>;
    /// What became of every ship, in roster order.
    fn fates(&self, roster: &Roster, state: &Self::State) -> Vec<ShipFate>;
}

/// A [`PlainBattle`] set up once: core's [`Frame`] of it, with no tactics.
pub type Prepared<S> = Frame<Plain<S>>;

/// A [`PlainBattle`] as the system's own part of a [`Frame`].
pub struct Plain<S>(S);

impl<S: PlainBattle> Prepared<S> {
    /// Checks the request ([`BattleRequest::check`]) and sets the battle up.
    pub fn new(system: &S, request: &BattleRequest) -> Result<Prepared<S>, ResolveError> {
        request.check()?;
        let roster = request.roster();
        let start = system.start(request, &roster)?;
        Ok(Frame::from_parts(
            Plain(system.clone()),
            start,
            roster,
            request.max_turns,
            [(), ()],
        ))
    }
}

/// A [`PlainBattle`]'s turn sequence: its phases by name, played on the
/// roster's ships.
pub struct PlainSequence<'a, S> {
    system: &'a S,
    roster: &'a Roster,
}

impl<S: PlainBattle> TurnSequence for PlainSequence<'_, S> {
    type State = S::State;
    type Phase = &'static str;
    type Tactics = ();

    fn phases(&self, _turn: u32) -> &[&'static str] {
        S::PHASES
    }

    fn play_phase(
        &self,
        phase: &'static str,
        _turn: u32,
        state: &mut S::State,
        _tactics: [&(); 2],
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<(), ResolveError> {
        self.system.play(phase, self.roster, state, dice, sink)
    }

    fn verdict(&self, state: &S::State) -> Option<Verdict> {
        self.system.verdict(self.roster, state)
    }
}

impl<S: PlainBattle> FrameRules for Plain<S> {
    type State = S::State;
    type Tactics = ();
    type DefaultTactics = ();
    type Sequence<'a> = PlainSequence<'a, S>;

    fn sequence(frame: &Prepared<S>) -> PlainSequence<'_, S> {
        PlainSequence {
            system: &frame.rules().0,
            roster: Setup::roster(frame),
        }
    }

    fn as_tactics(tactics: &()) -> &() {
        tactics
    }

    fn fates(&self, roster: &Roster, state: &S::State) -> Vec<ShipFate> {
        self.0.fates(roster, state)
    }
}

/// The place of `id` among `ids` (a ship class, a weapon), or
/// [`ResolveError::Unknown`] naming the `kind` and the closest id.
pub fn position<'a>(
    kind: &'static str,
    id: &str,
    ids: impl Iterator<Item = &'a str> + Clone,
) -> Result<usize, ResolveError> {
    ids.clone()
        .position(|known| known == id)
        .ok_or_else(|| ResolveError::unknown(kind, id, ids))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::rules::Side;

    /// An engagement whose every trial ends with the fates it is given.
    struct Ends(Roster, Verdict, [ShipFate; 2]);

    impl Engagement for Ends {
        fn play(
            &self,
            _dice: &mut dyn Dice,
            _sink: &mut dyn EventSink,
        ) -> Result<TrialOutcome, ResolveError> {
            Ok(TrialOutcome::from_fates(self.1, 1, self.2.to_vec()))
        }

        fn roster(&self) -> &Roster {
            &self.0
        }
    }

    /// What a system that declares destruction only, and `escapes`, makes of
    /// a trial ending in `verdict` with side B's ship as `b`: `Ok`, or the
    /// internal error's text.
    fn check(escapes: bool, verdict: Verdict, b: ShipFate) -> Result<(), String> {
        let a = ShipFate {
            side: Side::A,
            loss: None,
            escaped: false,
            hull: (10, 10),
        };
        let roster = Roster::new(&["x".to_owned()], &["y".to_owned()]);
        let declared = Declared {
            engagement: Ends(roster, verdict, [a, b]),
            losses: &[Loss::Destroyed],
            escapes,
        };
        declared
            .play(&mut ScriptedDice::new([]), &mut NullSink)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_trial_is_held_to_the_escapes_and_losses_its_system_declares() {
        let fate = |loss, escaped| ShipFate {
            side: Side::B,
            loss,
            escaped,
            hull: (5, 10),
        };
        let escaped = fate(None, true);
        assert_eq!(check(true, Verdict::Escaped(Side::B), escaped), Ok(()));
        for (escapes, verdict, b) in [
            (false, Verdict::Escaped(Side::B), escaped),
            (false, Verdict::Undecided, escaped),
            (
                true,
                Verdict::Winner(Side::A),
                fate(Some(Loss::Destroyed), true),
            ),
            (
                true,
                Verdict::Winner(Side::A),
                fate(Some(Loss::Disarmed), false),
            ),
        ] {
            assert!(
                check(escapes, verdict, b).is_err_and(|e| e.contains("a trial")),
                "{escapes} {verdict:?} {b:?}"
            );
        }
    }
}

//! The object-safe face of a rule system, as the CLI and the runner see it.
//!
//! Everything here is format-neutral: reports are `serde::Serialize` through
//! `erased_serde`, so the outer crate picks JSON or text; options are declared
//! as data, so the outer crate builds its flags from them without knowing the
//! system.

use std::fmt;

use crate::dice::Dice;
use crate::error::{DataErrors, ResolveError};
use crate::event::{EventSink, NullSink};
use crate::exact::{ExactAttack, ExactError, Prob, exact_attack};
use crate::fleet::{Roster, check_side_size};
use crate::montecarlo::{Engagement, Loss};
use crate::rules::Side;

/// What kind of value a system option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// Present or absent.
    Flag,
    /// A whole number in a range.
    Number {
        /// The smallest accepted value.
        min: i64,
        /// The largest accepted value.
        max: i64,
    },
    /// One of a fixed list of names.
    Choice(&'static [&'static str]),
    /// A free value the system parses itself (a ship id, `R,C`).
    Text,
}

/// One option of a system's `resolve` or `duel`, declared as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// Long name, kebab-case, without dashes.
    pub name: &'static str,
    /// The name of the value in help (`N`, `SCREEN`).
    pub value_name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// What it takes.
    pub kind: OptionKind,
    /// Whether it must be given.
    pub required: bool,
}

/// A value given for an option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    /// A flag that was given.
    Flag,
    /// A number.
    Number(i64),
    /// A name or free text.
    Text(String),
}

/// The options given to one request, by name.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// By name, ascending, each name once. A request has a handful of
    /// options and rules code reads them on every resolution (an exact
    /// resolution reads them once per dice path), so a list scanned
    /// name by name beats a tree of strings.
    values: Vec<(String, OptionValue)>,
}

impl fmt::Debug for Options {
    /// As the map of names it stands for.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct ByName<'a>(&'a Options);
        impl fmt::Debug for ByName<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_map().entries(self.0.iter()).finish()
            }
        }
        f.debug_struct("Options")
            .field("values", &ByName(self))
            .finish()
    }
}

impl Options {
    /// No options.
    pub fn new() -> Options {
        Options::default()
    }

    /// Sets an option, replacing any earlier value.
    pub fn set(&mut self, name: &str, value: OptionValue) -> &mut Options {
        match self.values.binary_search_by(|(n, _)| n.as_str().cmp(name)) {
            Ok(at) => self.values[at].1 = value,
            Err(at) => self.values.insert(at, (name.to_owned(), value)),
        }
        self
    }

    /// Sets an option and returns the options, for building in one expression.
    pub fn with(mut self, name: &str, value: OptionValue) -> Options {
        self.set(name, value);
        self
    }

    /// The value given for `name`.
    fn get(&self, name: &str) -> Option<&OptionValue> {
        self.values
            .iter()
            .find_map(|(n, value)| (n == name).then_some(value))
    }

    /// Whether a flag (or any value) was given.
    pub fn flag(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// A number option; an error if it was given as something else.
    pub fn number(&self, name: &str) -> Result<Option<i64>, ResolveError> {
        match self.get(name) {
            None => Ok(None),
            Some(OptionValue::Number(n)) => Ok(Some(*n)),
            Some(OptionValue::Text(t)) => t.parse().map(Some).map_err(|_| {
                ResolveError::bad_option(name, format!("'{t}' is not a whole number"))
            }),
            Some(OptionValue::Flag) => Err(ResolveError::bad_option(name, "needs a number")),
        }
    }

    /// A required number option.
    pub fn required_number(&self, name: &str) -> Result<i64, ResolveError> {
        self.number(name)?
            .ok_or_else(|| ResolveError::bad_option(name, "is required"))
    }

    /// A whole-number option that must not be negative, or `default` when
    /// it was not given.
    pub fn count_or(&self, name: &str, default: u32) -> Result<u32, ResolveError> {
        match self.number(name)? {
            None => Ok(default),
            Some(n) => u32::try_from(n)
                .map_err(|_| ResolveError::bad_option(name, format!("{n} is not a count from 0"))),
        }
    }

    /// A text option.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(OptionValue::Text(t)) => Some(t),
            _ => None,
        }
    }

    /// A required text option.
    pub fn required_text(&self, name: &str) -> Result<&str, ResolveError> {
        self.text(name)
            .ok_or_else(|| ResolveError::bad_option(name, "is required"))
    }

    /// Every option given, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &OptionValue)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Checks every value against the specs: unknown names, numbers out of
    /// range, choices not on the list, missing required options.
    pub fn validate(&self, specs: &[OptionSpec]) -> Result<(), ResolveError> {
        for (name, value) in self.iter() {
            let Some(spec) = specs.iter().find(|s| s.name == name) else {
                let known = specs.iter().map(|s| s.name);
                return Err(ResolveError::unknown("option", name, known));
            };
            match (spec.kind, value) {
                (OptionKind::Flag, _) => {}
                (OptionKind::Number { min, max }, _) => {
                    let n = self.required_number(name)?;
                    if n < min || n > max {
                        return Err(ResolveError::bad_option(
                            name,
                            format!("{n} is outside {min}..={max}"),
                        ));
                    }
                }
                (OptionKind::Choice(choices), OptionValue::Text(t)) => {
                    if !choices.contains(&t.as_str()) {
                        return Err(ResolveError::unknown(spec.name, t, choices.iter().copied()));
                    }
                }
                (OptionKind::Text, OptionValue::Text(_)) => {}
                (OptionKind::Choice(_) | OptionKind::Text, _) => {
                    return Err(ResolveError::bad_option(name, "needs a value"));
                }
            }
        }
        for spec in specs.iter().filter(|s| s.required) {
            if !self.flag(spec.name) {
                return Err(ResolveError::bad_option(spec.name, "is required"));
            }
        }
        Ok(())
    }
}

/// A request to resolve one attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolveRequest {
    /// The attacking ship's id.
    pub attacker: String,
    /// The target ship's id.
    pub target: String,
    /// The system's own options (`weapon`, `range`, `head-on`...).
    pub options: Options,
}

impl ResolveRequest {
    /// `attacker` fires at `target`, with the system's options given.
    pub fn new(attacker: &str, target: &str, options: Options) -> ResolveRequest {
        ResolveRequest {
            attacker: attacker.to_owned(),
            target: target.to_owned(),
            options,
        }
    }
}

/// A request to set up a battle between two sides of one or more ships.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BattleRequest {
    /// Each side's ship ids, side A first, counts expanded
    /// (`3xfrigate` is three `frigate`s).
    pub sides: [Vec<String>; 2],
    /// Game turns after which the engagement is undecided.
    pub max_turns: u32,
    /// The system's own options for the whole battle (`start-range`...).
    pub options: Options,
    /// Each side's own set-up, checked against [`Ruleset::side_options`]
    /// (formation, mines placed before play...).
    pub side_options: [Options; 2],
}

impl BattleRequest {
    /// One ship against one ship, with no set-up for either side.
    pub fn duel(a: &str, b: &str, max_turns: u32, options: Options) -> BattleRequest {
        BattleRequest {
            sides: [vec![a.to_owned()], vec![b.to_owned()]],
            max_turns,
            options,
            side_options: [Options::new(), Options::new()],
        }
    }

    /// Two fleets, with no set-up for either side.
    pub fn fleets(a: &[&str], b: &[&str], max_turns: u32, options: Options) -> BattleRequest {
        let ids = |side: &[&str]| side.iter().map(|s| (*s).to_owned()).collect();
        BattleRequest {
            sides: [ids(a), ids(b)],
            max_turns,
            options,
            side_options: [Options::new(), Options::new()],
        }
    }

    /// A side's ship ids.
    pub fn side(&self, side: Side) -> &[String] {
        &self.sides[side.index()]
    }

    /// A side's own set-up.
    pub fn side_options(&self, side: Side) -> &Options {
        &self.side_options[side.index()]
    }

    /// The roster of both sides, with the names a log gives each ship.
    pub fn roster(&self) -> Roster {
        Roster::new(&self.sides[0], &self.sides[1])
    }

    /// Checks what every system needs: each side has 1 to [`crate::MAX_SIDE`]
    /// ships, and the turn limit is at least 1.
    pub fn check(&self) -> Result<(), ResolveError> {
        for side in &self.sides {
            check_side_size(side)?;
        }
        if self.max_turns == 0 {
            return Err(ResolveError::bad_option("max-turns", "must be at least 1"));
        }
        Ok(())
    }
}

/// Something a system reports: serialisable as data and readable as text.
pub trait Sheet: erased_serde::Serialize + Send + Sync {
    /// Short text lines for a person, most important first.
    fn lines(&self) -> Vec<String>;

    /// What a resolved attack came to, in the terms every system shares;
    /// `None` for a sheet that is not an attack's report.
    fn attack_outcome(&self) -> Option<AttackOutcome> {
        None
    }
}

/// What one attack came to, in terms every system shares: the figures an
/// exact distribution of attacks is made of.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct AttackOutcome {
    /// Whether it hit.
    pub hit: bool,
    /// The results it rolled, by name, in order: a Damage Table result, a
    /// structure box, a module broken, a critical's location and severity.
    pub results: Vec<String>,
    /// Hull (or structure) points it took off the target.
    pub hull_damage: i32,
    /// The target's systems or modules it destroyed, by name.
    pub destroyed: Vec<String>,
}
erased_serde::serialize_trait_object!(Sheet);

/// One line of a ship listing.
pub trait ShipSheet: Sheet {
    /// The ship's id.
    fn id(&self) -> &str;
    /// Column headers and cells for a table of ships; every ship of one
    /// system returns the same headers in the same order.
    fn row(&self) -> Vec<(&'static str, String)>;
}
erased_serde::serialize_trait_object!(ShipSheet);

/// A table of a system's data, for `broadside table`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TableView {
    /// The table's id (kebab-case).
    pub id: String,
    /// Its title.
    pub title: String,
    /// Header of the row-label column.
    pub row_header: String,
    /// Column headers.
    pub columns: Vec<String>,
    /// Rows: a label and one cell per column.
    pub rows: Vec<TableRowView>,
}

/// One row of a [`TableView`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TableRowView {
    /// The row's label, as a reader would ask for it.
    pub label: String,
    /// One cell per column.
    pub cells: Vec<String>,
}

impl TableView {
    /// The cell at a row and column label; a column need not be named when
    /// the table has only one. Row and column labels are matched exactly, then
    /// by kebab-case id of the label, then (rows only) by a number falling in
    /// a `from-to` row label.
    pub fn cell(&self, row: &str, column: Option<&str>) -> Result<&str, ResolveError> {
        let row_view = self.find_row(row)?;
        let index = match column {
            None if self.columns.len() <= 1 => 0,
            None => {
                return Err(ResolveError::bad_option(
                    "column",
                    format!(
                        "table {} has several columns: name one of {}",
                        self.id,
                        self.columns.join(", ")
                    ),
                ));
            }
            Some(column) => self
                .columns
                .iter()
                .position(|c| c == column || kebab(c) == column)
                .ok_or_else(|| {
                    ResolveError::unknown("column", column, self.columns.iter().map(String::as_str))
                })?,
        };
        row_view
            .cells
            .get(index)
            .map(String::as_str)
            .ok_or_else(|| ResolveError::Internal(format!("table {} row {row} is short", self.id)))
    }

    /// The row a label names.
    pub fn find_row(&self, row: &str) -> Result<&TableRowView, ResolveError> {
        let by_label = self
            .rows
            .iter()
            .find(|r| r.label == row || kebab(&r.label) == row);
        let by_number = || {
            let n: i64 = row.parse().ok()?;
            self.rows
                .iter()
                .find(|r| label_range(&r.label).is_some_and(|(lo, hi)| lo <= n && n <= hi))
        };
        by_label.or_else(by_number).ok_or_else(|| {
            ResolveError::unknown("row", row, self.rows.iter().map(|r| r.label.as_str()))
        })
    }
}

/// Reads a row label as an inclusive number range: `7`, `46-49`, `-20-10`,
/// `0-` (and below) or `12+` (and above).
fn label_range(label: &str) -> Option<(i64, i64)> {
    if let Some(n) = label.strip_suffix('+') {
        return Some((n.parse().ok()?, i64::MAX));
    }
    if let Some(n) = label.strip_suffix('-') {
        return Some((i64::MIN, n.parse().ok()?));
    }
    if let Ok(n) = label.parse() {
        return Some((n, n));
    }
    // The separator is the first '-' that follows a digit, so negative lower
    // bounds ("-20-10") read correctly.
    let bytes = label.as_bytes();
    let at = (1..bytes.len()).find(|&i| bytes[i] == b'-' && bytes[i - 1].is_ascii_digit())?;
    Some((
        label[..at].trim().parse().ok()?,
        label[at + 1..].trim().parse().ok()?,
    ))
}

/// Lower-case, with runs of anything but letters and digits turned into '-'.
pub fn kebab(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// A rule system, as the CLI and the runner see it.
///
/// A system does not implement this itself: it implements
/// [`crate::kit::System`], and the kit's blanket implementation provides
/// every method here from it.
///
/// # Contract
/// - [`ResolveError::Unknown`] for a ship, weapon or table the data lacks,
///   and [`ResolveError::Refused`] for an action the rules forbid.
/// - `resolve` and `prepare_battle` receive options already checked against
///   [`Ruleset::resolve_options`] / [`Ruleset::battle_options`]; they still
///   check what the specs cannot express (a defence the target lacks).
/// - Nothing here prints, reads files or exits: return data and errors.
pub trait Ruleset: Send + Sync {
    /// The system's id (`percentile`).
    fn id(&self) -> &'static str;
    /// The published game it follows.
    fn title(&self) -> &'static str;
    /// One sentence on how combat works in it.
    fn description(&self) -> &'static str;
    /// Every ship in the data.
    fn ships(&self) -> Vec<Box<dyn ShipSheet>>;
    /// Every table of the system's data.
    fn tables(&self) -> Vec<TableView>;
    /// The options `resolve` takes besides attacker and target.
    fn resolve_options(&self) -> &'static [OptionSpec];
    /// Resolves one attack, from fresh ships.
    fn resolve(
        &self,
        request: &ResolveRequest,
        dice: &mut dyn Dice,
        sink: &mut dyn EventSink,
    ) -> Result<Box<dyn Sheet>, ResolveError>;
    /// The exact distribution of one attack's outcomes, within `max_paths`
    /// dice paths; an attack played in steps drops the states less likely
    /// than `min_probability` and reports the mass dropped: by default [`Ruleset::resolve`] run over every path of
    /// its dice, reading each report's [`Sheet::attack_outcome`]. A system
    /// may play its attacks in steps instead, merging equal states between
    /// them ([`crate::exact::exact_attack_in_steps`]).
    fn resolve_exact(
        &self,
        request: &ResolveRequest,
        max_paths: u64,
        _min_probability: Prob,
    ) -> Result<ExactAttack, ExactError> {
        exact_attack(max_paths, |dice| {
            let report = self.resolve(request, dice, &mut NullSink)?;
            report.attack_outcome().ok_or_else(|| {
                ResolveError::Refused(format!(
                    "{} does not yet report its attacks for --exact",
                    self.id()
                ))
            })
        })
    }
    /// The options `battle` takes besides the two sides and the turn limit.
    fn battle_options(&self) -> &'static [OptionSpec];
    /// The set-up each side may be given on its own (a formation, mines
    /// placed before play); the command line prefixes them `a-` and `b-`.
    fn side_options(&self) -> &'static [OptionSpec] {
        &[]
    }
    /// Sets up a battle once; the result plays any number of trials. The ships
    /// of the engagement's roster are side A's in the order named, then B's.
    fn prepare_battle(&self, request: &BattleRequest) -> Result<Box<dyn Engagement>, ResolveError>;
    /// The ways the system's ships can be lost, in report order, so that a
    /// report lists only these; by default every kind core counts.
    fn loss_kinds(&self) -> &'static [Loss] {
        &Loss::ALL
    }
    /// Whether a side can leave a battle (a jump), so that a report lists
    /// escapes only for a system that has them; by default it can.
    fn escapes(&self) -> bool {
        true
    }
}

impl fmt::Debug for dyn Ruleset + '_ {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ruleset")
            .field("id", &self.id())
            .finish_non_exhaustive()
    }
}

/// One file of a ruleset's data, as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The file's name within the ruleset folder (`ships.toml`).
    pub name: String,
    /// Its contents.
    pub text: String,
}

/// Validates a set of ruleset files into a ruleset, reporting every problem.
pub type Loader = fn(&[SourceFile]) -> Result<Box<dyn Ruleset>, DataErrors>;

/// How a system is registered with the CLI: its id, the data it embeds and a
/// loader that validates data into a [`Ruleset`].
#[derive(Clone, Copy)]
pub struct Registration {
    /// The system's id, also the name of its folder under `rulesets/`.
    pub id: &'static str,
    /// The files of `rulesets/<id>/`, embedded at build time: (name, text).
    pub embedded: &'static [(&'static str, &'static str)],
    /// Validates a set of files into a ruleset, reporting every problem.
    pub load: Loader,
}

impl Registration {
    /// The embedded files as sources.
    pub fn embedded_sources(&self) -> Vec<SourceFile> {
        self.embedded
            .iter()
            .map(|(name, text)| SourceFile {
                name: (*name).to_owned(),
                text: (*text).to_owned(),
            })
            .collect()
    }

    /// Loads the embedded data.
    pub fn load_embedded(&self) -> Result<Box<dyn Ruleset>, DataErrors> {
        (self.load)(&self.embedded_sources())
    }
}

impl fmt::Debug for Registration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registration")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_labels_read_as_ranges() {
        assert_eq!(label_range("46-49"), Some((46, 49)));
        assert_eq!(label_range("-20-10"), Some((-20, 10)));
        assert_eq!(label_range("53"), Some((53, 53)));
        assert_eq!(label_range("12+"), Some((12, i64::MAX)));
        assert_eq!(label_range("0-"), Some((i64::MIN, 0)));
        assert_eq!(label_range("hull"), None);
    }

    #[test]
    fn options_hold_one_value_a_name_in_name_order() {
        let mut options = Options::new()
            .with("range", OptionValue::Number(3))
            .with("icm", OptionValue::Number(2));
        options.set("range", OptionValue::Number(5));
        options.set("head-on", OptionValue::Flag);
        let names: Vec<&str> = options.iter().map(|(name, _)| name).collect();
        assert_eq!(names, ["head-on", "icm", "range"]);
        assert_eq!(options.number("range").unwrap(), Some(5));
        assert!(options.flag("head-on"));
        assert!(!options.flag("screen"));
        // Printed for a person as a map of names.
        assert_eq!(
            format!("{options:?}"),
            r#"Options { values: {"head-on": Flag, "icm": Number(2), "range": Number(5)} }"#
        );
    }

    #[test]
    fn kebab_case_of_labels() {
        assert_eq!(kebab("Reflective Hull"), "reflective-hull");
        assert_eq!(kebab("  Laser  Cannon! "), "laser-cannon");
    }
}

//! What the system crates' tests share: loading the data of record once, editing copies of it, reading load problems and the documented ranges, requests by option name, resolving attacks through the object-safe `Ruleset`, one attack's exact odds path by path and its seeded sample, snapshots, trials on one thread and two, and the benchmarks' measuring loops.
//!
//! Behind the `testing` feature, so that only the system crates' tests and
//! benchmarks (as a dev-dependency) build it: the loaders never do.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use broadside_core::exact::{ExactAttack, ExactError, exact_attack};
use broadside_core::{
    AttackOutcome, AttackResolution, BattleRequest, Bound, DataErrors, DataRange, Dice, Die,
    Engagement, Event, EventLog, EventSink, NullSink, OptionValue, Options, ResolveError,
    ResolveRequest, Ruleset, ScriptedDice, SeededDice, SourceFile, TableView, Tally,
    ranges_markdown, run_trials,
};
use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use serde_json::Value;

/// Re-exported for [`snapshot!`](crate::snapshot), which expands in the
/// calling test crate.
pub use insta;

/// The system in `cell`, loaded once by `load` from its embedded data of
/// record; a data problem fails the test, naming the `system`.
pub fn loaded<T>(
    cell: &'static OnceLock<T>,
    system: &str,
    load: impl FnOnce() -> Result<T, DataErrors>,
) -> &'static T {
    cell.get_or_init(|| match load() {
        Ok(loaded) => loaded,
        Err(errors) => panic!("the embedded {system} data does not load:\n{errors}"),
    })
}

/// The file of this name among `files`.
pub fn file_mut<'f>(files: &'f mut [SourceFile], name: &str) -> &'f mut SourceFile {
    files
        .iter_mut()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no file {name}"))
}

/// The text of the file of this name among `files`.
pub fn text_of<'f>(files: &'f [SourceFile], name: &str) -> &'f str {
    files
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.text.as_str())
        .unwrap_or_else(|| panic!("no file {name}"))
}

/// In the file `name` of `files`, the first `from` becomes `to`; `from`
/// must be there, so that a change to the data of record cannot silently
/// void a test.
pub fn replace(files: &mut [SourceFile], name: &str, from: &str, to: &str) {
    let file = file_mut(files, name);
    assert!(file.text.contains(from), "{name} has no '{from}'");
    file.text = file.text.replacen(from, to, 1);
}

/// `files` with edits applied: in file `name`, the first `from` becomes
/// `to`, as [`replace`] makes it.
pub fn edited<N, F, T>(mut files: Vec<SourceFile>, edits: &[(N, F, T)]) -> Vec<SourceFile>
where
    N: AsRef<str>,
    F: AsRef<str>,
    T: AsRef<str>,
{
    for (name, from, to) in edits {
        replace(&mut files, name.as_ref(), from.as_ref(), to.as_ref());
    }
    files
}

/// The 1-based line of `text` holding `from`, which must be there.
pub fn line_of(text: &str, from: &str) -> usize {
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("the text has no '{from}'"));
    1 + text[..at].matches('\n').count()
}

/// `None` when the data loaded, otherwise every problem as
/// `file: key: message`.
pub fn problems<T>(loaded: Result<T, DataErrors>) -> Option<Vec<String>> {
    match loaded {
        Ok(_) => None,
        Err(DataErrors(errors)) => Some(errors.iter().map(ToString::to_string).collect()),
    }
}

/// Asserts that the "Data ranges" table of a rules document, named
/// `document`, lists exactly `ranges`, as [`ranges_markdown`] writes them.
pub fn assert_ranges_documented(text: &str, document: &str, ranges: &[DataRange]) {
    let section = text
        .split_once("\n## Data ranges\n")
        .map(|(_, rest)| rest.split("\n## ").next().unwrap_or(rest))
        .unwrap_or_else(|| panic!("{document} has no Data ranges section"));
    let table: String = section
        .lines()
        .filter(|line| line.starts_with('|'))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(
        table,
        ranges_markdown(ranges),
        "the Data ranges table of {document} differs from the validated ranges"
    );
}

/// One change to a ruleset's files: in the file, the first `from`
/// becomes `to`.
pub type Edit = (&'static str, &'static str, String);

/// Where one documented range's value is set in the data of record, for
/// trying the range at its bounds.
#[derive(Debug, Clone)]
pub struct RangeSite {
    /// The range tried.
    pub range: DataRange,
    /// The key as the message names it (`laser-cannon.dtm`).
    pub key: &'static str,
    /// The text setting it, and the same with `{}` for the value.
    pub from: &'static str,
    /// See `from`.
    pub to: &'static str,
    /// Whether the least and the greatest value load here (with `at_min`
    /// and `at_max`): some are bounded by other data too.
    pub loads: [bool; 2],
    /// Further edits with which the least value loads.
    pub at_min: Vec<Edit>,
    /// Further edits with which the greatest value loads.
    pub at_max: Vec<Edit>,
}

impl RangeSite {
    /// A site whose least and greatest values load with no other change.
    pub fn new(range: DataRange, key: &'static str, from: &'static str, to: &'static str) -> Self {
        RangeSite {
            range,
            key,
            from,
            to,
            loads: [true, true],
            at_min: Vec::new(),
            at_max: Vec::new(),
        }
    }
}

/// Tries every number range of `ranges` at its bounds, at its site among
/// `sites` (each range must have one): the bounds that may load do, given
/// `load` (the problems of the data of record with edits, `None` when it
/// loads); one below the least and one above the greatest are refused in
/// the range's own file alone, naming the key, the line `line` gives
/// (`line 12: `, or nothing), the range and why.
pub fn check_number_ranges(
    ranges: &[DataRange],
    sites: &[RangeSite],
    load: impl Fn(&[Edit]) -> Option<Vec<String>>,
    line: impl Fn(&RangeSite) -> String,
) {
    for site in sites {
        check_bounds(site, &load, &line(site));
    }
    for range in ranges {
        if matches!(range.bound, Bound::Number { .. }) {
            assert!(
                sites.iter().any(|s| s.range == *range),
                "{} is not tried",
                range.key
            );
        }
    }
}

fn check_bounds(site: &RangeSite, load: &impl Fn(&[Edit]) -> Option<Vec<String>>, line: &str) {
    let Bound::Number { min, max } = site.range.bound else {
        panic!("{} is not a number range", site.range.key);
    };
    let file = site.range.file;
    let with = |value: i64, extra: &[Edit]| {
        let mut edits = vec![(file, site.from, site.to.replace("{}", &value.to_string()))];
        edits.extend(extra.iter().cloned());
        load(&edits)
    };
    let ends = [(min, &site.at_min), (max, &site.at_max)];
    for (&(value, extra), _) in ends.iter().zip(site.loads).filter(|(_, loads)| *loads) {
        if let Some(problems) = with(value, extra) {
            panic!(
                "{} = {value} is refused:\n{}",
                site.key,
                problems.join("\n")
            );
        }
    }
    for value in [min - 1, max + 1] {
        let problems = with(value, &[]).unwrap_or_else(|| panic!("{} = {value} loads", site.key));
        let want = format!(
            "{file}: {}: {line}{value} is outside {min}..={max} ({})",
            site.key, site.range.why
        );
        assert!(
            problems.contains(&want),
            "no '{want}' in:\n{}",
            problems.join("\n")
        );
        assert!(
            problems.iter().all(|p| p.starts_with(&format!("{file}: "))),
            "{} = {value} is blamed on another file:\n{}",
            site.key,
            problems.join("\n")
        );
    }
}

/// Where a dice expression is set in the data of record: the file, the
/// key as messages name it, the text setting it and the same text with
/// `{}` for the expression.
pub type DiceKey<'a> = (&'static str, &'a str, &'static str, &'a str);

/// Tries a dice key with expressions: each of `accepted` loads, given
/// `load`; each of `refused` gives exactly one problem, of the key, naming
/// the line `line` gives (`line 12: `, or nothing) and the expression.
pub fn check_dice_key(
    load: impl Fn(&[Edit]) -> Option<Vec<String>>,
    (file, key, from, to): DiceKey<'_>,
    line: &str,
    accepted: &[&str],
    refused: &[&str],
) {
    let with = |dice: &str| load(&[(file, from, to.replace("{}", dice))]);
    for dice in accepted {
        assert_eq!(with(dice), None, "{key} = {dice}");
    }
    for dice in refused {
        let problems = with(dice).unwrap_or_else(|| panic!("{key} = {dice} loads"));
        assert_eq!(problems.len(), 1, "{key} = {dice}: {problems:?}");
        assert!(
            problems[0].starts_with(&format!("{file}: {key}: {line}'{dice}'")),
            "{key} = {dice}: {}",
            problems[0]
        );
    }
}

/// Each event as its line of text, for searching a log.
pub fn event_lines(events: &[Event]) -> Vec<String> {
    events.iter().map(ToString::to_string).collect()
}

/// Appends the events to a transcript, numbered.
pub fn numbered(out: &mut String, events: &[Event]) {
    out.push_str("events:\n");
    for (i, event) in events.iter().enumerate() {
        out.push_str(&format!("{:>3}. {event}\n", i + 1));
    }
}

/// Faces as "1, 2, 3".
pub fn dice_text(dice: &[u32]) -> String {
    let shown: Vec<String> = dice.iter().map(u32::to_string).collect();
    shown.join(", ")
}

/// Asserts that a script was used up exactly: an example whose dice are
/// left over has a wrong script or a wrong procedure.
pub fn assert_all_used(dice: &ScriptedDice, what: &str) {
    assert!(
        dice.remaining().is_empty(),
        "{what}: scripted dice left unused: {:?}",
        dice.remaining()
    );
}

/// A flag option (`--dodge`).
pub fn flag() -> OptionValue {
    OptionValue::Flag
}

/// A number option (`--range 2`).
pub fn num(n: i64) -> OptionValue {
    OptionValue::Number(n)
}

/// A text option (`--weapon laser`).
pub fn text(t: &str) -> OptionValue {
    OptionValue::Text(t.to_owned())
}

/// Options from `(name, value)` pairs.
pub fn options(pairs: &[(&str, OptionValue)]) -> Options {
    let mut options = Options::new();
    for (name, value) in pairs {
        options.set(name, value.clone());
    }
    options
}

/// A resolve request as the command line builds it: the two ships and
/// the options from `(name, value)` pairs, not yet checked.
pub fn request(attacker: &str, target: &str, pairs: &[(&str, OptionValue)]) -> ResolveRequest {
    ResolveRequest {
        attacker: attacker.to_owned(),
        target: target.to_owned(),
        options: options(pairs),
    }
}

/// The [`request`] of one attack, its options checked against `system`'s
/// specs as the command line checks them.
pub fn resolve_request(
    system: &dyn Ruleset,
    attacker: &str,
    target: &str,
    pairs: &[(&str, OptionValue)],
) -> Result<ResolveRequest, ResolveError> {
    let request = request(attacker, target, pairs);
    request.options.validate(system.resolve_options())?;
    Ok(request)
}

/// A duel request: one ship a side, the battle's options from
/// `(name, value)` pairs, no set-up for either side.
pub fn duel_request(
    a: &str,
    b: &str,
    max_turns: u32,
    pairs: &[(&str, OptionValue)],
) -> BattleRequest {
    BattleRequest::duel(a, b, max_turns, options(pairs))
}

/// A request of two fleets (ship ids, counts expanded), with the battle's
/// options and each side's set-up from `(name, value)` pairs.
pub fn fleet_request(
    a: &[&str],
    b: &[&str],
    max_turns: u32,
    pairs: &[(&str, OptionValue)],
    side_pairs: [&[(&str, OptionValue)]; 2],
) -> BattleRequest {
    let mut request = BattleRequest::fleets(a, b, max_turns, options(pairs));
    request.side_options = side_pairs.map(options);
    request
}

/// What one [`Ruleset::resolve`] call produced.
#[derive(Debug)]
pub struct Resolution {
    /// The report's text lines.
    pub lines: Vec<String>,
    /// The report as JSON.
    pub json: Value,
    /// Every event, in order.
    pub events: Vec<Event>,
}

impl Resolution {
    /// Appends the resolution to a snapshot's transcript: every event
    /// numbered, the report's lines under `heading`, then its JSON.
    pub fn write_transcript(&self, out: &mut String, heading: &str) {
        numbered(out, &self.events);
        out.push_str(&format!("{heading}:\n"));
        for line in &self.lines {
            out.push_str(&format!("  {line}\n"));
        }
        out.push_str("json:\n");
        out.push_str(&serde_json::to_string_pretty(&self.json).expect("JSON prints"));
        out.push('\n');
    }
}

/// Resolves one attack of `system` between fresh ships with any dice,
/// checking the options against the system's specs first, as the CLI does.
pub fn resolve(
    system: &dyn Ruleset,
    attacker: &str,
    target: &str,
    pairs: &[(&str, OptionValue)],
    dice: &mut dyn Dice,
) -> Result<Resolution, ResolveError> {
    let request = resolve_request(system, attacker, target, pairs)?;
    let mut log = EventLog::default();
    let report = system.resolve(&request, dice, &mut log)?;
    let json = serde_json::to_value(&*report).expect("a report serialises to JSON");
    Ok(Resolution {
        lines: report.lines(),
        json,
        events: log.events,
    })
}

/// What one resolution of `request` came to, in the terms every system
/// shares; events are discarded.
pub fn attack_outcome(
    system: &dyn Ruleset,
    request: &ResolveRequest,
    dice: &mut dyn Dice,
) -> Result<AttackOutcome, ResolveError> {
    let report = system.resolve(request, dice, &mut NullSink)?;
    report
        .attack_outcome()
        .ok_or_else(|| ResolveError::Internal("the report has no attack outcome".into()))
}

/// The most dice paths one exact attack may take, as `resolve --exact`
/// allows.
pub const EXACT_ATTACK_PATHS: u64 = 2_000_000;

/// The exact distribution of one attack, path by path: [`Ruleset::resolve`]
/// run over every path of its dice to the end, within `max_paths`, reading
/// each report's [`attack_outcome`]. This is the distribution by definition,
/// whatever shortcut a system's own `resolve_exact` takes.
pub fn exact_every_path(
    system: &dyn Ruleset,
    request: &ResolveRequest,
    max_paths: u64,
) -> Result<ExactAttack, ExactError> {
    exact_attack(max_paths, |dice| attack_outcome(system, request, dice))
}

/// What seeded resolutions of one attack came to, counted as an exact
/// distribution counts it.
#[derive(Debug, Clone, Default)]
pub struct Sampled {
    /// Attacks resolved.
    pub trials: u64,
    /// Attacks that hit.
    pub hits: u64,
    /// Hull damage summed over the attacks.
    pub hull_damage: i64,
    /// Attacks by the hull damage they did.
    pub damage: BTreeMap<i32, u64>,
    /// Attacks that rolled each result, once per attack however often it
    /// was rolled.
    pub results: BTreeMap<String, u64>,
    /// Each system or module destroyed: the times it was, summed over the
    /// attacks.
    pub destroyed: BTreeMap<String, u64>,
    /// The same, each attack's count squared before summing: with
    /// `destroyed`, the spread of a thing destroyed more than once.
    pub destroyed_squares: BTreeMap<String, u64>,
}

impl Sampled {
    /// Counts one attack's outcome.
    pub fn add(&mut self, outcome: &AttackOutcome) {
        self.trials += 1;
        self.hits += u64::from(outcome.hit);
        self.hull_damage += i64::from(outcome.hull_damage);
        *self.damage.entry(outcome.hull_damage).or_default() += 1;
        let mut seen: Vec<&str> = Vec::new();
        for result in &outcome.results {
            if !seen.contains(&result.as_str()) {
                seen.push(result);
                *self.results.entry(result.clone()).or_default() += 1;
            }
        }
        let mut times: BTreeMap<&str, u64> = BTreeMap::new();
        for destroyed in &outcome.destroyed {
            *times.entry(destroyed).or_default() += 1;
        }
        for (destroyed, n) in times {
            *self.destroyed.entry(destroyed.to_owned()).or_default() += n;
            *self
                .destroyed_squares
                .entry(destroyed.to_owned())
                .or_default() += n * n;
        }
    }
}

/// Resolves one attack `trials` times with `outcome`, trial `i` on stream
/// `i` of `seed` as the Monte Carlo runner draws them, and counts what the
/// attacks came to; the first failure stops the run.
pub fn sample_attack(
    seed: u64,
    trials: u64,
    mut outcome: impl FnMut(&mut dyn Dice) -> Result<AttackOutcome, ResolveError>,
) -> Result<Sampled, ResolveError> {
    let mut sampled = Sampled::default();
    for trial in 0..trials {
        sampled.add(&outcome(&mut SeededDice::for_trial(seed, trial))?);
    }
    Ok(sampled)
}

/// The tally of `trials` trials of `engagement` from `seed`, played on
/// one thread and again on two: the two must agree, since seeded results
/// may not depend on how many threads play them.
pub fn tally_on_one_and_two_threads(engagement: &dyn Engagement, seed: u64, trials: u64) -> Tally {
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool")
            .install(|| run_trials(engagement, seed, trials, &|_| {}))
            .expect("the trials play")
    };
    let one = on(1);
    assert_eq!(one, on(2), "the tally depends on the number of threads");
    one
}

/// Asserts that every row of a rules table has a cell per column.
pub fn assert_rows_fill_columns(table: &TableView) {
    for row in &table.rows {
        assert_eq!(
            row.cells.len(),
            table.columns.len(),
            "{} {}",
            table.id,
            row.label
        );
    }
}

/// The seed of the benchmarks' dice; any fixed value will do.
pub const BENCH_SEED: u64 = 2026;

/// A benchmark binary's `main`, with divan's allocation profiler as its
/// allocator, so that every figure counts the heap allocations per
/// iteration (which is how an allocation on a hot path shows up).
#[macro_export]
macro_rules! bench_main {
    () => {
        #[global_allocator]
        static ALLOC: ::divan::AllocProfiler = ::divan::AllocProfiler::system();

        fn main() {
            ::divan::main();
        }
    };
}

/// Benchmarks one attack resolution through [`AttackResolution`], as an
/// engagement makes them: before each, `reset` puts the board back from
/// `template` (without allocating, where the board allows); the dice are
/// one seeded stream, so a figure is the average over the outcomes they
/// produce; events are discarded.
pub fn bench_resolve_attack<R: AttackResolution>(
    bencher: Bencher<'_, '_>,
    system: &R,
    template: &R::Board,
    attack: &R::Declaration,
    reset: impl Fn(&mut R::Board, &R::Board),
    seed: u64,
) where
    R::Board: Clone,
{
    let mut board = template.clone();
    let mut dice = SeededDice::new(seed);
    let mut sink = NullSink;
    bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
        reset(&mut board, template);
        let sink: &mut dyn EventSink = &mut sink;
        let outcome = system.resolve_attack(&mut board, black_box(attack), &mut dice, sink);
        black_box(outcome.expect("the attack is legal"))
    });
}

/// Benchmarks one roll of `die` from a seeded stream: the floor a
/// resolution's cost is measured against.
pub fn bench_roll(bencher: Bencher<'_, '_>, die: Die, seed: u64) {
    let mut dice = SeededDice::new(seed);
    bencher
        .counter(ItemsCount::new(1u32))
        .bench_local(|| black_box(dice.roll(black_box(die))));
}

/// Benchmarks one resolution through the object-safe [`Ruleset::resolve`],
/// as `broadside resolve` makes it: fresh ships, options by name, a report.
pub fn bench_ruleset_resolve(
    bencher: Bencher<'_, '_>,
    ruleset: &dyn Ruleset,
    request: &ResolveRequest,
    seed: u64,
) {
    let mut dice = SeededDice::new(seed);
    let mut sink = NullSink;
    bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
        let report = ruleset.resolve(black_box(request), &mut dice, &mut sink);
        black_box(report.expect("the request is legal"))
    });
}

/// Benchmarks one attack's exact distribution, [`exact_every_path`] within
/// [`EXACT_ATTACK_PATHS`]: each iteration is one whole enumeration.
pub fn bench_exact_attack(
    bencher: Bencher<'_, '_>,
    system: &dyn Ruleset,
    request: &ResolveRequest,
) {
    bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
        let exact = exact_every_path(system, black_box(request), EXACT_ATTACK_PATHS);
        black_box(exact.expect("the attack enumerates within the budget"))
    });
}

/// Benchmarks whole trials of `engagement`, one per iteration on its own
/// stream of the run `seed`, as the Monte Carlo runner plays them.
pub fn bench_trials(bencher: Bencher<'_, '_>, engagement: &dyn Engagement, seed: u64) {
    let mut trial = 0u64;
    bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
        trial += 1;
        let mut dice = SeededDice::for_trial(seed, trial);
        black_box(engagement.play(&mut dice, &mut NullSink))
    });
}

/// Asserts a named snapshot in the calling crate's `tests/snapshots/`,
/// recording its inputs (`info`) and citing its source (`description`):
/// `snapshot!(name, source, &inputs, &transcript)`.
///
/// A macro, not a function, so that the snapshot names the calling test
/// file as its source.
#[macro_export]
macro_rules! snapshot {
    ($name:expr, $source:expr, $inputs:expr, $transcript:expr $(,)?) => {
        $crate::testing::insta::with_settings!({
            info => $inputs,
            description => $source,
            omit_expression => true,
            snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots"),
            prepend_module_to_snapshot => false,
        }, {
            $crate::testing::insta::assert_snapshot!($name, $transcript);
        })
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> Vec<SourceFile> {
        vec![SourceFile {
            name: "ships.toml".into(),
            text: "[frigate]\nhull = 10\n".into(),
        }]
    }

    #[test]
    fn a_copy_of_the_data_is_edited_and_its_lines_found() {
        let files = edited(files(), &[("ships.toml", "hull = 10", "hull = 12")]);
        assert_eq!(text_of(&files, "ships.toml"), "[frigate]\nhull = 12\n");
        assert_eq!(line_of(text_of(&files, "ships.toml"), "hull"), 2);
    }

    #[test]
    fn load_problems_are_listed_one_a_line() {
        assert_eq!(problems(Ok::<_, DataErrors>(())), None);
        let refused: Result<(), DataErrors> = Err(DataErrors(vec![broadside_core::DataError {
            file: "ships.toml".into(),
            key: "frigate.hull".into(),
            message: "too big".into(),
        }]));
        assert_eq!(
            problems(refused),
            Some(vec!["ships.toml: frigate.hull: too big".to_owned()])
        );
    }

    #[test]
    fn the_documented_ranges_are_the_table_rows_of_their_section() {
        const RANGE: DataRange = DataRange::number("ships.toml", "<ship>.hull", 1, 9, "hull");
        let table = ranges_markdown(&[RANGE]);
        let doc = format!("# Rules\n\n## Data ranges\n\nIntro.\n\n{table}\n## Next\n| x |\n");
        assert_ranges_documented(&doc, "doc", &[RANGE]);
    }

    #[test]
    fn a_sample_counts_results_once_an_attack_and_destruction_each_time() {
        let outcome =
            |hit: bool, hull_damage: i32, results: &[&str], destroyed: &[&str]| AttackOutcome {
                hit,
                results: results.iter().map(|r| (*r).to_owned()).collect(),
                hull_damage,
                destroyed: destroyed.iter().map(|d| (*d).to_owned()).collect(),
            };
        let mut outcomes = vec![
            outcome(true, 3, &["engine", "engine"], &["gun", "gun"]),
            outcome(false, 0, &[], &[]),
            outcome(true, 3, &["engine"], &["gun"]),
        ]
        .into_iter();
        let sampled = sample_attack(1, 3, |_| Ok(outcomes.next().expect("an outcome")))
            .expect("every trial resolves");
        assert_eq!(
            (sampled.trials, sampled.hits, sampled.hull_damage),
            (3, 2, 6)
        );
        assert_eq!(sampled.damage, BTreeMap::from([(0, 1), (3, 2)]));
        assert_eq!(sampled.results, BTreeMap::from([("engine".to_owned(), 2)]));
        assert_eq!(sampled.destroyed, BTreeMap::from([("gun".to_owned(), 3)]));
        assert_eq!(
            sampled.destroyed_squares,
            BTreeMap::from([("gun".to_owned(), 5)])
        );
    }

    #[test]
    fn battle_requests_take_their_options_by_name() {
        let duel = duel_request("frigate", "scout", 5, &[("start-range", num(4))]);
        assert_eq!(
            duel.sides,
            [vec!["frigate".to_owned()], vec!["scout".to_owned()]]
        );
        assert_eq!(duel.options.number("start-range").ok(), Some(Some(4)));
        let fleets = fleet_request(
            &["a", "b"],
            &["c"],
            3,
            &[],
            [&[("formation", text("column"))], &[]],
        );
        assert_eq!(fleets.sides[0].len(), 2);
        assert_eq!(fleets.side_options[0].text("formation"), Some("column"));
        assert_eq!(fleets.side_options[1].text("formation"), None);
    }

    #[test]
    fn transcripts_number_events_and_list_faces() {
        let mut out = String::new();
        numbered(&mut out, &[]);
        assert_eq!(out, "events:\n");
        assert_eq!(dice_text(&[1, 2, 3]), "1, 2, 3");
        let options = options(&[("range", num(2)), ("weapon", text("laser"))]);
        assert_eq!(options.number("range").ok(), Some(Some(2)));
        assert_eq!(options.text("weapon"), Some("laser"));
    }
}

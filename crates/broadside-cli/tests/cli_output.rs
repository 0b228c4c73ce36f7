//! End-to-end tests of the machine-readable and forum reports of `battle`
//! and `compare`: every JSON field and CSV column is the one
//! `docs/output.md` lists, the per-side distributions agree with the counts
//! they come from, CSV reads back field for field, and markdown tables keep
//! their columns.

mod common;

use std::collections::BTreeSet;

use broadside_core::Loss;
use common::{RulesetCopy, ScenarioFile, check_cli, check_cli_error, cli_json, cli_ok};
use serde_json::Value;

/// A seeded duel in which each side wins some trials, with a system option
/// and a side's set-up given.
const DUEL: &[&str] = &[
    "battle",
    "percentile",
    "destroyer",
    "frigate",
    "--trials",
    "200",
    "--seed",
    "5",
    "--start-range",
    "10",
    "--a-formation",
    "line",
];

const COMPARE: &[&str] = &["compare", "--trials", "100", "--seed", "5"];

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

// ---------------------------------------------------------------------------
// The documented fields
// ---------------------------------------------------------------------------

/// The first column of the first table under the heading `heading` of
/// `docs/output.md`: the names between backticks.
fn documented(heading: &str) -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/output.md");
    let text = std::fs::read_to_string(path).expect("docs/output.md reads");
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start_matches('#').trim() == heading)
        .unwrap_or_else(|| panic!("docs/output.md has no heading {heading:?}"));
    lines[at + 1..]
        .iter()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        // The header and the rule under it name no field.
        .skip(2)
        .map(|row| {
            let cell = row.split('|').nth(1).expect("a first cell").trim();
            cell.trim_matches('`').to_owned()
        })
        .collect()
}

/// Every path of a JSON value as `docs/output.md` writes it: `.` between
/// fields, `[]` for a list's elements, `<side>` for an object of exactly the
/// fields `a` and `b`. A proportion, a list of numbers and an object of
/// options are fields of their own; a `null` names no path (the docs list
/// what it holds when it is not null).
fn paths(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    let join = |name: &str| {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        }
    };
    match value {
        Value::Null => {}
        Value::Object(fields) => {
            let names: BTreeSet<&str> = fields.keys().map(String::as_str).collect();
            let leaf = names == BTreeSet::from(["p", "ci95", "count"])
                || prefix == "options"
                || prefix.ends_with(".options")
                || prefix.ends_with("side_options.<side>");
            if leaf {
                out.insert(prefix.to_owned());
            } else if names == BTreeSet::from(["a", "b"]) {
                for side in fields.values() {
                    paths(side, &join("<side>"), out);
                }
            } else {
                for (name, field) in fields {
                    paths(field, &join(name), out);
                }
            }
        }
        Value::Array(items) if items.iter().any(|i| i.is_object()) => {
            for item in items {
                paths(item, &format!("{prefix}[]"), out);
            }
        }
        _ => {
            out.insert(prefix.to_owned());
        }
    }
}

/// Asserts that a report has exactly the documented fields, no more and no
/// fewer.
fn check_fields(what: &str, found: &BTreeSet<String>, documented: &[String]) {
    let listed: BTreeSet<String> = documented.iter().cloned().collect();
    assert_eq!(
        listed.len(),
        documented.len(),
        "{what}: a field listed twice"
    );
    let missing: Vec<&String> = listed.difference(found).collect();
    let unlisted: Vec<&String> = found.difference(&listed).collect();
    assert!(
        missing.is_empty() && unlisted.is_empty(),
        "{what}: documented but not printed: {missing:?}; printed but not documented: {unlisted:?}"
    );
}

/// The documented CSV columns in order, each `<s>` block written out for
/// side `a` and then side `b`, and the columns listed after the block after
/// both sides' blocks.
fn documented_columns() -> Vec<String> {
    let listed = documented("CSV");
    let block_start = listed
        .iter()
        .position(|c| c.contains("<s>"))
        .expect("a per-side block");
    let block_end = listed[block_start..]
        .iter()
        .position(|c| !c.contains("<s>"))
        .map_or(listed.len(), |at| block_start + at);
    let (block, after) = (&listed[block_start..block_end], &listed[block_end..]);
    assert!(
        after.iter().all(|c| !c.contains("<s>")),
        "one per-side block"
    );
    let mut columns = listed[..block_start].to_vec();
    for side in ["a", "b"] {
        columns.extend(block.iter().map(|c| c.replace("<s>", side)));
    }
    columns.extend(after.iter().cloned());
    columns
}

/// `docs/output.md` lists every field of `battle --format json`: a battle's
/// figures and the run's settings (with `--rules` given, so that `rules` is
/// not null).
#[test]
fn battle_json_has_the_documented_fields() {
    let copy = RulesetCopy::new("json-fields");
    let report = cli_json(&with(DUEL, &["--rules", copy.path(), "--format", "json"]));
    let mut found = BTreeSet::new();
    paths(&report, "", &mut found);
    let mut listed = documented("A battle's figures");
    listed.extend(documented("`battle --format json`"));
    check_fields("battle JSON", &found, &listed);
}

/// `docs/output.md` lists every field of `compare --format json`, each row
/// being a battle's figures.
#[test]
fn compare_json_has_the_documented_fields() {
    let copy = RulesetCopy::new("compare-json-fields");
    let rules = format!("percentile={}", copy.path());
    let report = cli_json(&with(COMPARE, &["--rules", &rules, "--format", "json"]));
    let mut found = BTreeSet::new();
    paths(&report, "", &mut found);
    let mut listed = documented("`compare --format json`");
    listed.retain(|field| field != "rows[]");
    listed.extend(
        documented("A battle's figures")
            .iter()
            .map(|field| format!("rows[].{field}")),
    );
    check_fields("compare JSON", &found, &listed);
}

/// The CSV header of `battle` and of `compare` is the documented list of
/// columns, in its order.
#[test]
fn csv_has_the_documented_columns_in_order() {
    let columns = documented_columns();
    for args in [DUEL, COMPARE] {
        let csv = cli_ok(&with(args, &["--format", "csv"]));
        let header: Vec<String> = csv
            .lines()
            .next()
            .expect("a header")
            .split(',')
            .map(str::to_owned)
            .collect();
        assert_eq!(header, columns, "{args:?}");
    }
}

// ---------------------------------------------------------------------------
// The figures
// ---------------------------------------------------------------------------

/// A count field of a JSON value.
fn count(value: &Value, path: &str) -> u64 {
    value
        .pointer(path)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("no count at {path} in {value}"))
}

/// A list of counts of a JSON value.
fn counts(value: &Value, path: &str) -> Vec<u64> {
    value
        .pointer(path)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("no list at {path} in {value}"))
        .iter()
        .map(|n| n.as_u64().expect("a count"))
        .collect()
}

/// Asserts that one battle's distributions agree with the counts they come
/// from: each side's hull histogram covers every trial, and its wins when
/// it wins; the trials decided by the last turn are all but the undecided;
/// the loss shares count the ships the loss counts do; and the quartiles
/// are nearest ranks of the histogram.
fn check_distributions(row: &Value) {
    let trials = count(row, "/trials");
    for side in ["a", "b"] {
        let hull = format!("/side_hull_left/{side}");
        let start = count(row, &format!("{hull}/start"));
        let overall = counts(row, &format!("{hull}/overall/counts"));
        assert_eq!(overall.len() as u64, start + 1, "side {side}: 0 to start");
        assert_eq!(overall.iter().sum::<u64>(), trials, "side {side}");
        let won = counts(row, &format!("{hull}/when_wins/counts"));
        let wins = count(row, &format!("/outcomes/{side}_wins/count"));
        assert_eq!(won.iter().sum::<u64>(), wins, "side {side}: its wins");
        assert!(
            won.iter().zip(&overall).all(|(w, o)| w <= o),
            "side {side}: a win is a trial"
        );
        // Nearest rank: the median is the smallest hull left reached by at
        // least half the trials.
        let half = trials.div_ceil(2);
        let median = (0..overall.len())
            .find(|&h| overall[..=h].iter().sum::<u64>() >= half)
            .expect("a median");
        assert_eq!(
            count(row, &format!("{hull}/overall/median")),
            median as u64,
            "side {side}"
        );
        let losses = ["destroyed", "broken_apart", "disarmed"]
            .map(|cause| count(row, &format!("/losses/{side}/{cause}")));
        assert_eq!(
            count(row, &format!("/loss_shares/{side}/lost/count")),
            losses.iter().sum::<u64>(),
            "side {side}"
        );
        let ships = count(row, &format!("/loss_shares/{side}/ships"));
        let p = row
            .pointer(&format!("/loss_shares/{side}/destroyed/p"))
            .and_then(Value::as_f64)
            .expect("a share");
        let expected = losses[0] as f64 / (ships * trials) as f64;
        assert!(
            (p - expected).abs() < 1e-4,
            "side {side}: {p} against {expected}"
        );
    }
    let decided = row["decided_by_turn"].as_array().expect("a list");
    let last = decided.last().expect("some trial was decided");
    assert_eq!(
        count(last, "/decided/count"),
        trials - count(row, "/outcomes/undecided/count")
    );
    let by_turn: Vec<u64> = decided.iter().map(|d| count(d, "/decided/count")).collect();
    assert!(by_turn.windows(2).all(|w| w[0] <= w[1]), "{by_turn:?}");
}

/// The design brief's distributions, per side, for one battle and for every
/// system of `compare`.
#[test]
fn distributions_agree_with_their_counts() {
    check_distributions(&cli_json(&with(DUEL, &["--format", "json"])));
    let compare = cli_json(&with(COMPARE, &["--format", "json"]));
    let rows = compare["rows"].as_array().expect("rows");
    assert_eq!(
        rows.len(),
        broadside_cli::registry::RULESETS.len(),
        "one row per system"
    );
    for row in rows {
        check_distributions(row);
    }
}

/// A report names what it was given, so it can be repeated from the file
/// alone: the schema and program versions, the options and set-up, in
/// JSON, CSV and text.
#[test]
fn reports_name_the_settings_they_were_given() {
    let j = cli_json(&with(DUEL, &["--format", "json"]));
    assert_eq!(j["schema_version"], 1);
    assert_eq!(j["broadside_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(j["options"], serde_json::json!({"start-range": 10}));
    assert_eq!(
        j["side_options"],
        serde_json::json!({"a": {"formation": "line"}, "b": {}})
    );
    assert_eq!(j["rules"], Value::Null);
    let csv = cli_ok(&with(DUEL, &["--format", "csv"]));
    let (header, row) = read_csv(&csv);
    let field = |name: &str| &row[0][header.iter().position(|h| h == name).expect(name)];
    assert_eq!(field("options"), "--start-range 10 --a-formation line");
    assert_eq!(field("schema_version"), "1");
    let text = cli_ok(DUEL);
    assert_eq!(
        text.lines().nth(1),
        Some("given: --start-range 10 --a-formation line")
    );
}

// ---------------------------------------------------------------------------
// CSV and markdown hold together whatever the ids
// ---------------------------------------------------------------------------

/// The header and rows of a CSV text, read by a CSV reader.
fn read_csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_owned)
        .collect();
    let rows = reader
        .records()
        .map(|r| {
            r.expect("a well-formed row")
                .iter()
                .map(str::to_owned)
                .collect()
        })
        .collect();
    (header, rows)
}

/// The review's bug: an id with a comma put one field too many in the row.
/// Ids are kebab-case now, but a side of several ships is written with
/// commas: it must read back as one field, every row as long as the header.
#[test]
fn csv_reads_back_field_for_field_whatever_the_sides() {
    let copy = RulesetCopy::new("csv-read-back");
    let csv = cli_ok(&[
        "battle",
        "percentile",
        "battleship,frigate",
        "2xfrigate",
        "--trials",
        "20",
        "--seed",
        "7",
        "--rules",
        copy.path(),
        "--format",
        "csv",
    ]);
    let (header, rows) = read_csv(&csv);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].len(), header.len(), "{csv}");
    let field = |name: &str| &rows[0][header.iter().position(|h| h == name).expect(name)];
    assert_eq!(field("a"), "battleship,frigate");
    assert_eq!(field("b"), "2xfrigate");
    assert!(
        field("mean_hull_left_a").starts_with("battleship=")
            && field("mean_hull_left_a").contains(";frigate="),
        "{}",
        field("mean_hull_left_a")
    );
    assert_eq!(field("rules"), copy.path());
}

/// Cells of a markdown table row: split at the pipes that are not escaped.
fn markdown_cells(line: &str) -> usize {
    let mut cells = 0;
    let mut escaped = false;
    for c in line.chars() {
        match c {
            '\\' if !escaped => escaped = true,
            '|' if !escaped => cells += 1,
            _ => escaped = false,
        }
    }
    cells
}

/// `--format markdown` is a forum post: a bold title, then pipe tables whose
/// rows all have their header's cells, even with a pipe or an asterisk in a
/// scenario's name and description, which are escaped so they print as
/// themselves.
#[test]
fn markdown_tables_keep_their_columns_whatever_the_names() {
    let scenario = ScenarioFile::new(
        "markdown-names",
        "name = \"fri|ga*te\"\ndescription = \"a | b *c*\"\n\
         [systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\n",
    );
    let text = cli_ok(&[
        "compare",
        scenario.path(),
        "--trials",
        "30",
        "--seed",
        "7",
        "--format",
        "markdown",
    ]);
    assert!(
        text.starts_with("**fri\\|ga\\*te: 30 trials each,"),
        "{text}"
    );
    assert!(text.contains("\na \\| b \\*c\\*\n"), "{text}");
    let mut tables = 0;
    let mut width = None;
    for line in text.lines() {
        if line.starts_with('|') {
            let cells = markdown_cells(line);
            assert_eq!(*width.get_or_insert(cells), cells, "{line}");
        } else {
            tables += usize::from(width.is_some());
            width = None;
        }
    }
    assert_eq!(
        tables, 6,
        "the comparison, then ships lost, ship hulls, side hulls, histogram, turns:\n{text}"
    );
}

/// Formats that a command cannot honour are refused rather than answered in
/// another format: an event log and exact odds have no CSV, markdown or HTML
/// form.
#[test]
fn formats_a_report_has_no_form_for_are_refused() {
    let base = &DUEL[..8];
    check_cli_error(
        &with(base, &["--replay", "3", "--format", "markdown"]),
        "--replay prints an event log",
    );
    let exact = ["battle", "percentile", "destroyer", "frigate", "--exact"];
    for format in ["csv", "markdown"] {
        check_cli_error(
            &with(&exact, &["--format", format]),
            "--exact has no CSV, markdown or HTML report",
        );
    }
}

// ---------------------------------------------------------------------------
// What each system declares
// ---------------------------------------------------------------------------

/// Every registered system with the kinds of loss it declares, named as the
/// JSON and CSV name them, and whether a side can escape in it.
fn declarations() -> Vec<(&'static str, Vec<&'static str>, bool)> {
    broadside_cli::registry::RULESETS
        .iter()
        .map(|registration| {
            let system = registration
                .load_embedded()
                .unwrap_or_else(|e| panic!("{}: {e}", registration.id));
            let kinds = system
                .loss_kinds()
                .iter()
                .map(|kind| match kind {
                    Loss::Destroyed => "destroyed",
                    Loss::BrokenApart => "broken_apart",
                    Loss::Disarmed => "disarmed",
                })
                .collect();
            (registration.id, kinds, system.escapes())
        })
        .collect()
}

/// Issue 17: each system declares its kinds of loss and escapes. JSON and
/// CSV keep every field for every system and name what it declares, so a
/// reader knows which zeros the system cannot help: a kind it does not
/// declare is 0 in every row, and so are escapes where it has none. The
/// default scenario holds systems with and without escapes and with and
/// without every kind of loss, so each case is read.
#[test]
fn json_and_csv_name_what_each_system_declares() {
    let declared = declarations();
    assert!(declared.iter().any(|(_, _, escapes)| *escapes));
    assert!(declared.iter().any(|(_, _, escapes)| !*escapes));
    assert!(
        declared
            .iter()
            .any(|(_, kinds, _)| kinds.len() < Loss::ALL.len())
    );
    let json = cli_json(&with(COMPARE, &["--format", "json"]));
    let rows = json["rows"].as_array().expect("rows");
    let csv = cli_ok(&with(COMPARE, &["--format", "csv"]));
    let (header, csv_rows) = read_csv(&csv);
    assert_eq!(rows.len(), declared.len(), "one row per system");
    for ((row, csv_row), (id, kinds, escapes)) in rows.iter().zip(&csv_rows).zip(&declared) {
        assert_eq!(row["system"], *id);
        assert_eq!(row["loss_kinds"], serde_json::json!(kinds), "{id}");
        assert_eq!(row["escapes"], *escapes, "{id}");
        for side in ["a", "b"] {
            for kind in ["destroyed", "broken_apart", "disarmed"] {
                if !kinds.contains(&kind) {
                    assert_eq!(count(row, &format!("/losses/{side}/{kind}")), 0, "{id}");
                }
            }
            if !escapes {
                assert_eq!(
                    count(row, &format!("/outcomes/{side}_escapes/count")),
                    0,
                    "{id}"
                );
            }
        }
        let field = |name: &str| &csv_row[header.iter().position(|h| h == name).expect(name)];
        assert_eq!(field("system"), id);
        assert_eq!(field("loss_kinds"), &kinds.join(";"), "{id}");
        assert_eq!(field("escapes"), &escapes.to_string(), "{id}");
    }
}

/// The cells of a markdown table's row, trimmed.
fn markdown_row(line: &str) -> Vec<&str> {
    let line = line.trim().trim_start_matches('|').trim_end_matches('|');
    line.split('|').map(str::trim).collect()
}

/// Issue 17, in markdown (the text report's lines and tables): `compare`
/// shows the escapes column because some system in it has escapes, marks
/// with a dash (explained once under the table) the systems that cannot
/// escape rather than printing 0, and each system's losses name only the
/// kinds it declares.
#[test]
fn compare_lists_only_what_each_system_declares() {
    let markdown = cli_ok(&with(COMPARE, &["--format", "markdown"]));
    let lines: Vec<&str> = markdown.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("| system"))
        .expect("the table");
    let escaped = markdown_row(lines[header])
        .iter()
        .position(|&h| h == "P(escaped)")
        .expect("an escapes column: some system has escapes");
    let declared = declarations();
    for (id, kinds, escapes) in &declared {
        let row = lines[header + 2..]
            .iter()
            .map(|l| markdown_row(l))
            .find(|cells| cells[0] == *id)
            .unwrap_or_else(|| panic!("{id}: a row"));
        assert_eq!(row[escaped] == "—", !escapes, "{id}: {row:?}");
        // Its section: the heading, then its lines up to the next heading.
        let start = lines
            .iter()
            .position(|l| l.starts_with(&format!("**{id}: ")))
            .unwrap_or_else(|| panic!("{id}: a section"));
        let losses: Vec<&&str> = lines[start..]
            .iter()
            .take_while(|l| !l.starts_with("share of trials"))
            .filter(|l| l.contains("ships lost:"))
            .collect();
        assert_eq!(losses.len(), 2, "{id}: a line per side");
        for line in losses {
            for kind in ["destroyed", "broken_apart", "disarmed"] {
                let named = line.contains(&format!("% {}", kind.replace('_', " ")));
                assert_eq!(named, kinds.contains(&kind), "{id}: {line}");
            }
        }
    }
    let note = "—: the system has no such ending (its sides cannot escape)";
    assert_eq!(markdown.matches(note).count(), 1, "{markdown}");
}

/// A report of systems none of which can escape has no escapes at all:
/// neither `compare`'s column and its note, nor `battle`'s rows.
#[test]
fn no_escapes_where_no_system_has_them() {
    let declared = declarations();
    let without: Vec<&str> = declared
        .iter()
        .filter(|(_, _, escapes)| !escapes)
        .map(|(id, _, _)| *id)
        .collect();
    assert!(!without.is_empty(), "a system without escapes");
    let scenario = ScenarioFile::new(
        "no-escapes",
        &without.iter().fold(
            "name = \"destroyer against frigate\"\n".to_owned(),
            |text, id| format!("{text}[systems.{id}]\na = \"destroyer\"\nb = \"frigate\"\n"),
        ),
    );
    let text = cli_ok(&["compare", scenario.path(), "--trials", "30", "--seed", "7"]);
    assert!(!text.contains("escape"), "{text}");
    for id in without {
        let text = cli_ok(&[
            "battle",
            id,
            "destroyer",
            "frigate",
            "--trials",
            "30",
            "--seed",
            "7",
        ]);
        assert!(!text.contains("escaped"), "{id}: {text}");
    }
}

/// A system whose sides can escape lists its escapes in `battle` even when
/// no trial saw one, so that 0% reads as not seen; the battles are the
/// default scenario's.
#[test]
fn battle_lists_declared_escapes_even_unseen() {
    let compare = cli_json(&with(COMPARE, &["--format", "json"]));
    let with_escapes: Vec<&Value> = compare["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|row| row["escapes"] == true)
        .collect();
    assert!(!with_escapes.is_empty(), "a system with escapes");
    for row in with_escapes {
        let [id, a, b] = ["system", "a", "b"].map(|k| row[k].as_str().expect("text"));
        let args = ["battle", id, a, b, "--trials", "20", "--seed", "7"];
        let json = cli_json(&with(&args, &["--format", "json"]));
        let text = cli_ok(&args);
        for side in ["a", "b"] {
            let label = format!("{} escaped", side.to_uppercase());
            let cells: Vec<&str> = text
                .lines()
                .find(|l| l.contains(&label))
                .unwrap_or_else(|| panic!("{id}: {label} listed:\n{text}"))
                .split(['│', '┆'])
                .map(str::trim)
                .collect();
            let seen = count(&json, &format!("/outcomes/{side}_escapes/count"));
            if seen == 0 {
                assert_eq!(cells[2], "0%", "{id}: {cells:?}");
            }
        }
    }
}

/// The reports of issue 17 as a reader sees them: a module-grid battle
/// (destroyed and disarmed, no escapes) and the default comparison in
/// markdown (a dash where a system cannot escape, explained under the
/// table).
#[test]
fn declared_endings_and_losses_snapshots() {
    check_cli(
        "cli_battle_module_grid_destroyer_frigate_seed_5_text",
        "Issue 17: a module-grid battle lists only the endings and losses module-grid declares (destroyed and disarmed; no escapes, no breaking apart)",
        &[
            "battle",
            "module-grid",
            "destroyer",
            "frigate",
            "--trials",
            "100",
            "--seed",
            "5",
        ],
    );
    check_cli(
        "cli_compare_default_seed_5_markdown",
        "Issue 17: the default comparison in markdown, its escapes column shown because some system has escapes, a dash where a system cannot escape, and each system's losses of its declared kinds only",
        &with(COMPARE, &["--format", "markdown"]),
    );
}

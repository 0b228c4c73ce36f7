//! End-to-end tests of `--format html`, the report of `battle` and `compare`
//! as one self-contained page of SVG charts: the page loads nothing from
//! anywhere and runs no script, its markup nests, it draws each chart, and
//! an id from a user's ships file shows as text, never as markup.
//!
//! Whether a browser draws the page as intended is checked in a real
//! browser by `tests/browser/`, run from `.ci/run`.

mod common;

use common::{ScenarioFile, check_cli, check_cli_error, cli_ok};

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
    "--format",
    "html",
];

const COMPARE: &[&str] = &[
    "compare", "--trials", "100", "--seed", "5", "--format", "html",
];

/// The charts every page draws, by the id of their figure.
const CHARTS: [&str; 4] = ["wins", "decided", "hull-a", "hull-b"];

/// Elements that never have a closing tag in HTML.
const VOID: [&str; 2] = ["meta", "br"];

/// Runs a command whose page must be self-contained and well formed, with
/// every chart drawn, and returns the page.
fn check_page(args: &[&str]) -> String {
    let page = cli_ok(args);
    assert!(
        page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"),
        "{page}"
    );
    assert_eq!(page.matches("<html").count(), 1, "one html element");
    assert!(
        page.contains("<meta name=\"viewport\""),
        "a viewport for phones"
    );
    // Nothing is fetched: no address, no script, no stylesheet or font
    // from elsewhere, and every url() points inside the page.
    for banned in [
        "http://",
        "https://",
        "<script",
        "<link",
        "<img",
        "<iframe",
        "src=",
        "@import",
        "@font-face",
    ] {
        assert!(
            !page.contains(banned),
            "{args:?}: the page holds {banned:?}"
        );
    }
    for (at, _) in page.match_indices("url(") {
        assert!(
            page[at + 4..].starts_with('#'),
            "{args:?}: a url() leaves the page: {}",
            &page[at..at + 40]
        );
    }
    check_nesting(&page);
    for id in CHARTS {
        let start = page
            .find(&format!("<figure id=\"{id}\">"))
            .unwrap_or_else(|| panic!("{args:?}: no chart {id}"));
        let figure = &page[start..start + page[start..].find("</figure>").expect("closed")];
        assert_eq!(figure.matches("<svg ").count(), 1, "{id}: one SVG");
        assert!(
            figure.contains(&format!(
                "role=\"img\" aria-labelledby=\"{id}-title {id}-desc\"><title id=\"{id}-title\">"
            )),
            "{id}: the chart is labelled for screen readers"
        );
        let shapes = ["<rect", "<path", "<polyline", "<circle", "<line"]
            .iter()
            .map(|shape| figure.matches(shape).count())
            .sum::<usize>();
        assert!(shapes >= 10, "{id}: only {shapes} shapes drawn");
        assert!(
            figure.contains("<details><summary>The numbers</summary>"),
            "{id}: the numbers under the chart"
        );
    }
    page
}

/// Every element that opens is closed, in order: tags are read from `<` to
/// `>`, which the page escapes everywhere else.
fn check_nesting(page: &str) {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find('<') {
        let end = rest[at..].find('>').expect("a tag closes") + at;
        let tag = &rest[at + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name), "</{name}> closes another element");
            continue;
        }
        let name = tag.split_whitespace().next().expect("a tag name");
        if !VOID.contains(&name) {
            open.push(name);
        }
    }
    assert!(open.is_empty(), "left open: {open:?}");
    assert!(
        !rest.contains('>'),
        "a stray > after the last tag: {rest:?}"
    );
}

/// A duel's page: its charts, the odds as the text report gives them, and
/// the settings to repeat the run.
#[test]
fn battle_page_draws_every_chart_and_names_its_settings() {
    let page = check_page(DUEL);
    assert!(
        page.contains("<h1>percentile battle: destroyer (A) against frigate (B)</h1>"),
        "{page}"
    );
    // The interval of A's win, as `battle` prints it in text.
    let text = cli_ok(&DUEL[..DUEL.len() - 2]);
    let a_wins = text
        .lines()
        .find(|l| l.contains("A (destroyer) wins"))
        .expect("A's wins in text");
    let cells: Vec<&str> = a_wins
        .split('┆')
        .map(|c| c.trim_matches([' ', '│']))
        .collect();
    assert!(
        page.contains(&format!("{} ({})", cells[1], cells[2])),
        "{a_wins} not in the page"
    );
    assert!(page.contains("<code>--start-range 10 --a-formation line</code>"));
    assert!(page.contains("<td>seed</td><td>5</td>"));
}

/// A comparison's page: one group of bars and one line per system, each in
/// its own colour in every chart.
#[test]
fn compare_page_draws_every_system() {
    let page = check_page(COMPARE);
    assert!(page.contains("<h1>destroyer against frigate</h1>"));
    for (system, colour) in [
        ("percentile", "#0072b2"),
        ("action-d10", "#e69f00"),
        ("module-grid", "#009e73"),
        ("crew-2d6", "#cc79a7"),
    ] {
        assert!(
            page.contains(&format!(">{system}: ")),
            "{system}: a group in the win chart"
        );
        assert!(
            page.contains(&format!("stroke=\"{colour}\" stroke-width=\"2.5\"")),
            "{system}: its line in {colour}"
        );
    }
    assert_eq!(
        page.matches("<polyline").count(),
        broadside_cli::registry::RULESETS.len(),
        "a line per system"
    );
}

/// Issue 17: the ending chart of a comparison shows escapes, since some
/// system in it has them, and for a system that cannot escape draws no bar
/// but a dash, in the chart and in its numbers, explained once under them.
/// A battle of a system that cannot escape shows no escapes at all.
#[test]
fn pages_show_only_the_endings_each_system_declares() {
    let page = check_page(COMPARE);
    assert!(page.contains(">A escaped</text>"), "escapes charted");
    for registration in broadside_cli::registry::RULESETS {
        let system = registration
            .load_embedded()
            .expect("the built-in data loads");
        let id = registration.id;
        let marks = page
            .matches(&format!("<title>{id}: no such ending</title>—</text>"))
            .count();
        let bars = page.matches(&format!("<title>{id}: A escaped ")).count();
        if system.escapes() {
            assert_eq!((marks, bars), (0, 1), "{id}: a bar for its escapes");
        } else {
            assert_eq!(
                (marks, bars),
                (2, 0),
                "{id}: a dash for each side's escapes"
            );
        }
    }
    let note = "—: the system has no such ending (its sides cannot escape).";
    assert_eq!(page.matches(note).count(), 1);
    let battle = check_page(&[
        "battle",
        "module-grid",
        "destroyer",
        "frigate",
        "--trials",
        "30",
        "--seed",
        "7",
        "--format",
        "html",
    ]);
    assert!(!battle.contains("escape"), "no escapes in module-grid");
}

/// The review's worry for every format: text from a user's file may hold
/// markup. Ids are kebab-case, so the scenario's name and description carry
/// it here: `<` and `&` show as themselves, escaped, and no tag of theirs
/// reaches the page.
#[test]
fn text_from_a_scenario_is_escaped() {
    let scenario = ScenarioFile::new(
        "html-names",
        "name = \"<b>fri&gate\"\ndescription = \"<script>x</script> & more\"\n\
         [systems.percentile]\na = \"destroyer\"\nb = \"frigate\"\n",
    );
    let page = check_page(&[
        "compare",
        scenario.path(),
        "--trials",
        "30",
        "--seed",
        "7",
        "--format",
        "html",
    ]);
    assert!(!page.contains("<b>"), "the name became markup");
    assert!(!page.contains("<script"), "the description became markup");
    assert!(!page.contains("fri&gate"), "a bare & in the page");
    assert!(
        page.matches("&lt;b&gt;fri&amp;gate").count() >= 2,
        "the name in the title and the heading"
    );
    assert!(page.contains("&lt;script&gt;x&lt;/script&gt; &amp; more"));
}

/// A small seeded duel's page, byte for byte: the same seed gives the same
/// page.
#[test]
fn battle_page_snapshot() {
    check_cli(
        "cli_html_duel_destroyer_frigate_seed_5",
        "broadside duel percentile destroyer frigate --trials 200 --seed 5 --format html: the HTML report of the seeded duel of the text snapshot cli_duel_destroyer_frigate_seed_5_text",
        &[
            "duel",
            "percentile",
            "destroyer",
            "frigate",
            "--trials",
            "200",
            "--seed",
            "5",
            "--format",
            "html",
        ],
    );
}

/// An event log and exact odds have no page: asking for one is refused.
#[test]
fn replay_and_exact_have_no_page() {
    check_cli_error(
        &[
            "battle",
            "percentile",
            "destroyer",
            "frigate",
            "--replay",
            "3",
            "--format",
            "html",
        ],
        "--replay prints an event log",
    );
    check_cli_error(
        &[
            "battle",
            "percentile",
            "destroyer",
            "frigate",
            "--exact",
            "--format",
            "html",
        ],
        "--exact has no CSV, markdown or HTML report",
    );
}

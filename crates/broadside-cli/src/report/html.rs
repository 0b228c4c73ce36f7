//! `--format html`: the report of `battle` and `compare` as one
//! self-contained page, its charts drawn as inline SVG from the same figures
//! the JSON carries.
//!
//! The charts are written by hand rather than by a plotting crate: four kinds
//! of simple chart need a few dozen elements each, and writing them here keeps
//! the page free of fonts and scripts, its SVG scalable (a `viewBox`, no fixed
//! size), every chart labelled for screen readers, and every string from the
//! data escaped in one place. Nothing is loaded from anywhere: no script, no
//! font, no image; the text uses the reader's own sans-serif font.
//!
//! Every number is formatted with fixed decimals, so a seeded run gives the
//! same page byte for byte.

use std::io::Write;

use broadside_core::Side;
use broadside_core::dice::GENERATOR;
use broadside_core::montecarlo::{HullLeft, Proportion};

use super::{
    BattleRow, NOT_IN_SYSTEM, Run, ScenarioTitle, TENTHS, VERSION, outcome_list, percent,
    percent_with_interval, tenth_label, tenths,
};
use crate::Failure;

/// One colour per system, in the order the report lists them; the same
/// system has the same colour in every chart. The Okabe–Ito colours, chosen
/// to stay apart for the common kinds of colour blindness.
const PALETTE: [&str; 6] = [
    "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9",
];

/// The grey of a legend that stands for every system.
const KEY: &str = "#5f5f5f";

/// One dash pattern per system for the lines of the decided-by-turn chart,
/// so lines stay apart without their colours.
const DASHES: [&str; 4] = ["", "7 4", "2 3", "10 3 2 3"];

/// The width of every chart in SVG units: small enough that text stays
/// legible when a phone shrinks the chart to its screen, the page's grid
/// widening it on a desktop.
const WIDTH: f64 = 440.0;

/// Labels longer than this (fleets of many ships) are cut with an ellipsis
/// inside charts; the tables under them give them whole.
const LABEL_CHARS: usize = 48;

/// The page's style: a grid of charts, two across on a desktop and one on a
/// phone, and tables that scroll inside their box rather than widening the
/// page.
pub const STYLE: &str = "\
*{box-sizing:border-box}
body{margin:0;background:#fff;color:#1b1b1b;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}
main{max-width:1240px;margin:0 auto;padding:16px}
h1{font-size:1.5rem;margin:.2em 0 .3em;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin:1.4em 0 .5em}
p{margin:.3em 0;overflow-wrap:anywhere}
.run{color:#555}
.charts{display:grid;align-items:start;grid-template-columns:repeat(auto-fit,minmax(min(100%,500px),1fr));gap:16px;margin-top:16px}
figure{margin:0;padding:10px 12px;border:1px solid #d8d8d8;border-radius:6px;min-width:0}
figcaption{font-size:1.05rem;font-weight:600;margin-bottom:4px;overflow-wrap:anywhere}
svg{display:block;width:100%;height:auto}
svg text{font-family:inherit;fill:#1b1b1b}
details{margin-top:6px;font-size:.9rem}
summary{cursor:pointer;color:#333}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:.9rem;margin:6px 0}
th,td{border:1px solid #d8d8d8;padding:3px 8px;text-align:left;vertical-align:top}
td:first-child{white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
th{background:#f3f3f3}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.35em;vertical-align:-.05em}
td code{white-space:nowrap}
";

/// Text made safe for HTML, in an element or an attribute: an id from a
/// user's ships file may hold any character.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// A label cut to fit a chart, then escaped.
fn short(text: &str) -> String {
    if text.chars().count() <= LABEL_CHARS {
        escape(text)
    } else {
        let cut: String = text.chars().take(LABEL_CHARS - 1).collect();
        escape(&format!("{cut}…"))
    }
}

fn colour(index: usize) -> &'static str {
    PALETTE[index % PALETTE.len()]
}

/// A coordinate to one decimal: enough for a screen, and the same bytes
/// every run.
fn at(x: f64) -> String {
    format!("{x:.1}")
}

/// The width of a label in SVG units, roughly: a sans-serif character is
/// about 0.55 of the font size on average. Used only to lay out legends.
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.55
}

/// What the page reports: one battle, or one per system of a scenario.
struct Page<'a> {
    heading: String,
    description: &'a str,
    rows: &'a [BattleRow],
    run: &'a Run<'a>,
    trials: u64,
    compare: bool,
}

/// The report of `battle --format html`.
pub fn battle(row: &BattleRow, run: &Run<'_>, out: &mut dyn Write) -> Result<(), Failure> {
    let page = Page {
        heading: format!("{} battle: {} (A) against {} (B)", row.system, row.a, row.b),
        description: "",
        rows: std::slice::from_ref(row),
        run,
        trials: row.summary.trials,
        compare: false,
    };
    out.write_all(page.render().as_bytes())?;
    Ok(())
}

/// The report of `compare --format html`.
pub fn compare(
    title: &ScenarioTitle<'_>,
    rows: &[BattleRow],
    trials: u64,
    run: &Run<'_>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let page = Page {
        heading: title.name.to_owned(),
        description: title.description,
        rows,
        run,
        trials,
        compare: true,
    };
    out.write_all(page.render().as_bytes())?;
    Ok(())
}

/// The HTML report's tables and charts, without the page around them: the
/// web interface shows a run's result with the very SVG the report draws.
pub fn figures(rows: &[BattleRow], trials: u64, run: &Run<'_>, compare: bool) -> String {
    Page {
        heading: String::new(),
        description: "",
        rows,
        run,
        trials,
        compare,
    }
    .figures()
}

/// The start of a page, to its `<main>`: the same head for every report.
fn head(heading: &str) -> String {
    let mut html = String::new();
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    html.push_str(&format!(
        "<meta name=\"generator\" content=\"broadside {VERSION}\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n",
        escape(heading)
    ));
    html
}

/// The report of `sweep --format html` over ships: a heat map of the row
/// ship's (side A's) chance to beat the column ship (side B), `rows` being
/// the battles row by row.
pub fn sweep(
    heading: &str,
    ships: &[String],
    rows: &[BattleRow],
    run: &Run<'_>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    const CELL_W: f64 = 56.0;
    const CELL_H: f64 = 30.0;
    let label_w = ships
        .iter()
        .map(|ship| text_width(ship, 12.0))
        .fold(40.0, f64::max)
        + 8.0;
    // Column labels stand at 45 degrees, so they need the height of their
    // width across the diagonal.
    let label_h = label_w * std::f64::consts::FRAC_1_SQRT_2 + 12.0;
    // The last column's label leans out past the grid by its width across
    // the diagonal.
    let width = label_w + CELL_W * ships.len() as f64 + label_w * std::f64::consts::FRAC_1_SQRT_2;
    let height = label_h + CELL_H * ships.len() as f64 + 8.0;
    let mut svg = String::new();
    for (j, ship) in ships.iter().enumerate() {
        let x = label_w + CELL_W * (j as f64 + 0.5);
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" transform=\"rotate(-45 {} {})\">{}</text>\n",
            at(x),
            at(label_h - 6.0),
            at(x),
            at(label_h - 6.0),
            short(ship)
        ));
    }
    let mut numbers = Vec::new();
    for (i, (a, cells)) in ships
        .iter()
        .zip(rows.chunks(ships.len().max(1)))
        .enumerate()
    {
        let y = label_h + CELL_H * i as f64;
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text>\n",
            at(label_w - 6.0),
            at(y + CELL_H * 0.62),
            short(a)
        ));
        let mut line = vec![Cell::text(a)];
        for (j, row) in cells.iter().enumerate() {
            let wins = &row.summary.outcomes.a_wins;
            let x = label_w + CELL_W * j as f64;
            let (fill, ink) = heat(wins.p);
            svg.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"#fff\"><title>{} against {}: {}</title></rect>\n<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" style=\"fill:{ink}\">{}</text>\n",
                at(x),
                at(y),
                at(CELL_W),
                at(CELL_H),
                escape(&row.a),
                escape(&row.b),
                escape(&percent_with_interval(wins)),
                at(x + CELL_W / 2.0),
                at(y + CELL_H * 0.62),
                escape(&percent(wins))
            ));
            line.push(Cell::number(percent_with_interval(wins)));
        }
        numbers.push(line);
    }
    let mut headers = vec!["A \\ B".to_owned()];
    headers.extend(ships.iter().cloned());
    let mut html = head(heading);
    html.push_str(&format!("<h1>{}</h1>\n", escape(heading)));
    html.push_str(&format!(
        "<p class=\"run\">{} trials a battle, seed {} ({GENERATOR}), at most {} turns; broadside {VERSION}</p>\n",
        rows.first().map_or(0, |row| row.summary.trials),
        run.seed,
        run.max_turns
    ));
    html.push_str(&format!(
        "<figure id=\"heat\">\n<figcaption>The chance that the row's ship (A) beats the column's (B)</figcaption>\n<svg viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"heat-title heat-desc\"><title id=\"heat-title\">The chance that the row's ship (A) beats the column's (B)</title><desc id=\"heat-desc\">A grid of every ship against every ship: blue where side A mostly wins, orange where it mostly loses.</desc>\n{svg}</svg>\n<details open><summary>The numbers, with 95% intervals</summary><div class=\"table-wrap\">{}</div></details>\n</figure>\n",
        at(width),
        at(height),
        table(&headers, numbers)
    ));
    html.push_str("</main>\n</body>\n</html>\n");
    out.write_all(html.as_bytes())?;
    Ok(())
}

/// A heat map cell's fill for a chance `p` of side A winning, on a scale
/// from orange (A loses) through white (even) to blue (A wins), and the ink
/// its text needs to stay legible.
fn heat(p: f64) -> (String, &'static str) {
    const LOSES: [f64; 3] = [213.0, 94.0, 0.0];
    const EVEN: [f64; 3] = [247.0, 247.0, 247.0];
    const WINS: [f64; 3] = [0.0, 114.0, 178.0];
    let p = if p.is_nan() { 0.5 } else { p.clamp(0.0, 1.0) };
    let (from, to, t) = if p < 0.5 {
        (LOSES, EVEN, p * 2.0)
    } else {
        (EVEN, WINS, (p - 0.5) * 2.0)
    };
    let channel = |k: usize| (from[k] + (to[k] - from[k]) * t).round() as u8;
    let fill = format!("#{:02x}{:02x}{:02x}", channel(0), channel(1), channel(2));
    let ink = if (p - 0.5).abs() > 0.3 {
        "#fff"
    } else {
        "#1b1b1b"
    };
    (fill, ink)
}

impl Page<'_> {
    fn render(&self) -> String {
        let mut html = head(&self.heading);
        html.push_str(&format!("<h1>{}</h1>\n", escape(&self.heading)));
        if !self.description.is_empty() {
            html.push_str(&format!("<p>{}</p>\n", escape(self.description)));
        }
        let each = if self.compare { " each" } else { "" };
        html.push_str(&format!(
            "<p class=\"run\">{} trials{each}, seed {} ({GENERATOR}), at most {} turns; broadside {VERSION}</p>\n",
            self.trials, self.run.seed, self.run.max_turns
        ));
        html.push_str(&self.figures());
        html.push_str("</main>\n</body>\n</html>\n");
        html
    }

    /// The report's body under its heading: the odds at a glance, the
    /// charts and the settings, as the page and the web interface show it.
    fn figures(&self) -> String {
        let mut html = self.glance();
        html.push_str("<section class=\"charts\">\n");
        html.push_str(&self.win_chart());
        html.push_str(&self.decided_chart());
        for side in Side::BOTH {
            html.push_str(&self.hull_chart(side));
        }
        html.push_str("</section>\n");
        html.push_str(&self.settings());
        html
    }

    /// The system's name with its colour, as the tables name it.
    fn system_cell(&self, index: usize) -> String {
        format!(
            "<span class=\"swatch\" style=\"background:{}\"></span>{}",
            colour(index),
            escape(&self.rows[index].system)
        )
    }

    /// The odds side by side, as `compare`'s text table gives them.
    fn glance(&self) -> String {
        let headers = [
            "system",
            "A",
            "B",
            "P(A wins)",
            "P(B wins)",
            "P(undecided)",
            "median turns",
            "winner hull left",
            "A ships lost",
            "B ships lost",
        ];
        let body = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let s = &row.summary;
                let o = &s.outcomes;
                vec![
                    Cell::Html(self.system_cell(i)),
                    Cell::text(&row.a),
                    Cell::text(&row.b),
                    Cell::number(percent_with_interval(&o.a_wins)),
                    Cell::number(percent_with_interval(&o.b_wins)),
                    Cell::number(percent_with_interval(&o.undecided)),
                    Cell::number(
                        s.turns_to_decision
                            .map_or_else(|| "-".into(), |t| t.median.to_string()),
                    ),
                    Cell::number(
                        s.winner_hull_left_pct
                            .map_or_else(|| "-".into(), |h| format!("{h:.0}%")),
                    ),
                    Cell::number(format!("{:.2}", s.ships_lost.mean(Side::A))),
                    Cell::number(format!("{:.2}", s.ships_lost.mean(Side::B))),
                ]
            })
            .collect();
        format!(
            "<div class=\"table-wrap\">{}</div>\n<p class=\"run\">Percentages with their 95% intervals; ships lost are the mean per trial.</p>\n",
            table(&headers, body)
        )
    }

    /// The outcomes shown: A's and B's wins always, the turn limit and a
    /// draw when some trial of some row ended so, and escapes when some
    /// row's system declares them (even if none was seen, so that a zero
    /// reads as not seen).
    fn outcomes_shown(&self) -> Vec<(usize, &'static str)> {
        const LABELS: [&str; 6] = [
            "A wins",
            "B wins",
            "undecided",
            "draw",
            "A escaped",
            "B escaped",
        ];
        (0..LABELS.len())
            .filter(|&k| match k {
                0 | 1 => true,
                2 | 3 => self
                    .rows
                    .iter()
                    .any(|row| outcome_list(&row.summary.outcomes)[k].1.count > 0),
                _ => self.rows.iter().any(|row| row.escapes),
            })
            .map(|k| (k, LABELS[k]))
            .collect()
    }

    /// Whether a row's system can end a battle in the way `outcome_list`
    /// lists at `k`: every system can but for escapes.
    fn can_end(row: &BattleRow, k: usize) -> bool {
        k < 4 || row.escapes
    }

    /// Whether some row's system cannot end a battle in some way shown, so
    /// that its cells need [`NOT_IN_SYSTEM`] explained.
    fn some_cannot_end(&self, shown: &[(usize, &str)]) -> bool {
        self.rows
            .iter()
            .any(|row| shown.iter().any(|&(k, _)| !Self::can_end(row, k)))
    }

    /// Each system's odds of each ending as a bar, its 95% interval as a
    /// whisker across the bar's end.
    fn win_chart(&self) -> String {
        let shown = self.outcomes_shown();
        let (x0, x1) = (84.0, 292.0);
        let scale = |p: f64| x0 + p.clamp(0.0, 1.0) * (x1 - x0);
        let (group_head, bar_row, group_gap) = (22.0, 22.0, 10.0);
        let legend_height = 26.0;
        let top = legend_height + 6.0;
        let group_height = group_head + bar_row * shown.len() as f64 + group_gap;
        let bottom = top + group_height * self.rows.len() as f64;
        let height = bottom + 40.0;
        let mut svg = String::new();
        // B's bars are hatched in the system's colour, so A's and B's bars
        // differ without a second colour.
        // The legend's key is grey, as it stands for every system.
        svg.push_str("<defs>");
        let keys = (0..self.rows.len()).map(|i| (i.to_string(), colour(i)));
        for (id, fill) in keys.chain(Some(("key".to_owned(), KEY))) {
            svg.push_str(&format!(
                "<pattern id=\"win-hatch-{id}\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fff\"/><rect width=\"3\" height=\"6\" fill=\"{fill}\"/></pattern>",
            ));
        }
        svg.push_str("</defs>\n");
        // The legend: how each ending is drawn.
        let mut x = 4.0;
        for (fill, label) in [
            (KEY.to_owned(), "A wins"),
            ("url(#win-hatch-key)".to_owned(), "B wins"),
            (bar_fill(2, 0), "other endings"),
        ] {
            svg.push_str(&format!(
                "<rect x=\"{}\" y=\"6\" width=\"16\" height=\"12\" fill=\"{fill}\" stroke=\"{KEY}\"/><text x=\"{}\" y=\"16.5\" font-size=\"12\">{label}</text>\n",
                at(x),
                at(x + 21.0)
            ));
            x += 21.0 + text_width(label, 12.0) + 18.0;
        }
        svg.push_str(&format!(
            "<line x1=\"{}\" y1=\"12\" x2=\"{}\" y2=\"12\" stroke=\"#1b1b1b\" stroke-width=\"1.5\"/><line x1=\"{}\" y1=\"7\" x2=\"{}\" y2=\"17\" stroke=\"#1b1b1b\" stroke-width=\"1.5\"/><line x1=\"{}\" y1=\"7\" x2=\"{}\" y2=\"17\" stroke=\"#1b1b1b\" stroke-width=\"1.5\"/><text x=\"{}\" y=\"16.5\" font-size=\"12\">95% interval</text>\n",
            at(x),
            at(x + 18.0),
            at(x),
            at(x),
            at(x + 18.0),
            at(x + 18.0),
            at(x + 23.0)
        ));
        svg.push_str(&grid_x(x0, x1, top, bottom, &[0.0, 0.25, 0.5, 0.75, 1.0]));
        let mut y = top;
        for (i, row) in self.rows.iter().enumerate() {
            svg.push_str(&format!(
                "<rect x=\"4\" y=\"{}\" width=\"11\" height=\"11\" rx=\"2\" fill=\"{}\"/><text x=\"20\" y=\"{}\" font-size=\"13\" font-weight=\"600\">{}</text>\n",
                at(y + 5.0),
                colour(i),
                at(y + 15.0),
                short(&format!("{}: {} (A) against {} (B)", row.system, row.a, row.b))
            ));
            y += group_head;
            let outcomes = outcome_list(&row.summary.outcomes);
            for &(k, label) in &shown {
                let x = outcomes[k].1;
                let mid = y + bar_row / 2.0;
                svg.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{label}</text>",
                    at(x0 - 6.0),
                    at(mid + 4.0)
                ));
                if !Self::can_end(row, k) {
                    // No bar for an ending the system cannot have: a mark
                    // where its share would be, explained under the table.
                    svg.push_str(&format!(
                        "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\"><title>{}: no such ending</title>{NOT_IN_SYSTEM}</text>\n",
                        at(WIDTH - 4.0),
                        at(mid + 4.0),
                        escape(&row.system)
                    ));
                    y += bar_row;
                    continue;
                }
                svg.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"14\" fill=\"{}\" stroke=\"{}\"><title>{}: {label} {}</title></rect>",
                    at(x0),
                    at(mid - 7.0),
                    at(scale(x.p) - x0),
                    bar_fill(k, i),
                    colour(i),
                    escape(&row.system),
                    escape(&percent_with_interval(x))
                ));
                svg.push_str(&whisker(scale(x.ci95[0]), scale(x.ci95[1]), mid));
                svg.push_str(&format!(
                    "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text>\n",
                    at(WIDTH - 4.0),
                    at(mid + 4.0),
                    escape(&percent_with_interval(x))
                ));
                y += bar_row;
            }
            y += group_gap;
        }
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">share of trials</text>\n",
            at((x0 + x1) / 2.0),
            at(bottom + 34.0)
        ));
        let headers = ["system", "ending", "p", "95% interval", "trials"];
        let body = self
            .rows
            .iter()
            .enumerate()
            .flat_map(|(i, row)| {
                let outcomes = outcome_list(&row.summary.outcomes);
                shown
                    .iter()
                    .map(|&(k, label)| {
                        let x = outcomes[k].1;
                        let figures = if Self::can_end(row, k) {
                            [percent(x), super::interval(x), x.count.to_string()]
                        } else {
                            [(); 3].map(|()| NOT_IN_SYSTEM.to_owned())
                        };
                        let mut cells = vec![Cell::Html(self.system_cell(i)), Cell::text(label)];
                        cells.extend(figures.map(Cell::number));
                        cells
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        // The dash is explained under the chart, where it is seen, for the
        // chart and its numbers alike.
        let note = if self.some_cannot_end(&shown) {
            format!("{NOT_IN_SYSTEM}: the system has no such ending (its sides cannot escape).")
        } else {
            String::new()
        };
        figure(
            "wins",
            "How each battle ends",
            "The share of trials ending in each way, per system, as bars, with each share's 95% interval as a whisker.",
            height,
            &svg,
            &note,
            &table(&headers, body),
        )
    }

    /// The share of trials decided by the end of each turn, a line per
    /// system.
    fn decided_chart(&self) -> String {
        let lists: Vec<&[broadside_core::montecarlo::DecidedBy]> = self
            .rows
            .iter()
            .map(|row| row.summary.decided_by_turn.as_slice())
            .collect();
        let first = lists
            .iter()
            .filter_map(|l| l.first().map(|d| d.turn))
            .min()
            .unwrap_or(0);
        let last = lists
            .iter()
            .filter_map(|l| l.last().map(|d| d.turn))
            .max()
            .unwrap_or(first)
            .max(first + 1);
        let (x0, x1) = (50.0, WIDTH - 12.0);
        let legend = legend(
            &self
                .rows
                .iter()
                .enumerate()
                .map(|(i, row)| (i, row.system.clone()))
                .collect::<Vec<_>>(),
            Swatch::Line,
        );
        let top = legend.height + 14.0;
        let (y0, y1) = (top, top + 220.0);
        let height = y1 + 44.0;
        let sx = |turn: u32| x0 + f64::from(turn - first) / f64::from(last - first) * (x1 - x0);
        let sy = |p: f64| y1 - p.clamp(0.0, 1.0) * (y1 - y0);
        let mut svg = legend.svg;
        svg.push_str(&grid_y(x0, x1, y0, y1, &[0.0, 0.25, 0.5, 0.75, 1.0], |p| {
            format!("{:.0}%", p * 100.0)
        }));
        let step = nice_step(last - first);
        // The first turn is always labelled, and then every step's turn
        // that does not crowd it.
        let mut labelled = vec![first];
        let mut turn = first.div_ceil(step) * step;
        while turn <= last {
            if turn > first && (turn - first) * 2 >= step {
                labelled.push(turn);
            }
            turn += step;
        }
        for turn in labelled {
            let x = sx(turn);
            svg.push_str(&format!(
                "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#1b1b1b\"/><text x=\"{0}\" y=\"{3}\" font-size=\"11\" text-anchor=\"middle\">{turn}</text>",
                at(x),
                at(y1),
                at(y1 + 5.0),
                at(y1 + 17.0)
            ));
        }
        svg.push('\n');
        let markers = last - first <= 40;
        for (i, list) in lists.iter().enumerate() {
            let Some(head) = list.first() else {
                continue;
            };
            // Nothing is decided before a list's first turn, and nothing
            // after its last: the line runs flat at both ends.
            let mut points = Vec::new();
            if head.turn > first {
                points.push((first, 0.0));
            }
            points.extend(list.iter().map(|d| (d.turn, d.decided.p)));
            let end = points[points.len() - 1];
            if end.0 < last {
                points.push((last, end.1));
            }
            let path: Vec<String> = points
                .iter()
                .map(|&(t, p)| format!("{},{}", at(sx(t)), at(sy(p))))
                .collect();
            let dash = DASHES[i % DASHES.len()];
            let dash = if dash.is_empty() {
                String::new()
            } else {
                format!(" stroke-dasharray=\"{dash}\"")
            };
            svg.push_str(&format!(
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2.5\" stroke-linejoin=\"round\"{dash}><title>{}</title></polyline>\n",
                path.join(" "),
                colour(i),
                escape(&self.rows[i].system)
            ));
            if markers {
                for d in list.iter() {
                    svg.push_str(&format!(
                        "<circle cx=\"{}\" cy=\"{}\" r=\"2.6\" fill=\"{}\"/>",
                        at(sx(d.turn)),
                        at(sy(d.decided.p)),
                        colour(i)
                    ));
                }
                svg.push('\n');
            }
        }
        if lists.iter().all(|l| l.is_empty()) {
            svg.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\">no trial was decided</text>\n",
                at((x0 + x1) / 2.0),
                at((y0 + y1) / 2.0)
            ));
        }
        svg.push_str(&axis_titles(
            x0,
            x1,
            y0,
            y1,
            "game turn",
            "decided by the turn's end",
        ));
        let mut headers = vec!["turn".to_owned()];
        headers.extend(self.rows.iter().map(|row| row.system.clone()));
        let body = (first..=last)
            .map(|turn| {
                let mut cells = vec![Cell::number(turn.to_string())];
                cells.extend(lists.iter().map(|list| {
                    // The last entry at or before the turn: nothing more is
                    // decided between the turns a list names.
                    let decided = list.iter().take_while(|d| d.turn <= turn).last();
                    Cell::number(decided.map_or_else(|| "-".into(), |d| percent(&d.decided)))
                }));
                cells
            })
            .collect();
        // Escapes are named only where some system in the report has them.
        let endings = if self.rows.iter().any(|row| row.escapes) {
            "won, drawn or escaped"
        } else {
            "won or drawn"
        };
        figure(
            "decided",
            "Decided by each turn",
            &format!(
                "The share of all trials decided ({endings}) by the end of each game turn, a line per system."
            ),
            height,
            &svg,
            "",
            &table(&headers, body),
        )
    }

    /// One side's hull left at the end of a trial, in tenths of its start,
    /// the systems' bars side by side in each tenth.
    fn hull_chart(&self, side: Side) -> String {
        let buckets: Vec<([u64; TENTHS + 1], &HullLeft)> = self
            .rows
            .iter()
            .map(|row| {
                let hull = row.summary.side_hull.of(side);
                (tenths(&hull.overall, hull.start), &hull.overall)
            })
            .collect();
        let share = |counts: &[u64; TENTHS + 1], hull: &HullLeft, k: usize| {
            Proportion::of(counts[k], hull.trials)
        };
        let highest = buckets
            .iter()
            .flat_map(|(counts, hull)| (0..=TENTHS).map(move |k| share(counts, hull, k).p))
            .fold(0.0, f64::max);
        // The scale's top: the first tick at or above the tallest bar, the
        // ticks a tenth apart, or a fifth when the bars are tall.
        let step = if highest > 0.5 { 0.2 } else { 0.1 };
        let count = ((highest / step - 1e-9).ceil() as usize).clamp(1, 5);
        let ticks: Vec<f64> = (0..=count).map(|k| k as f64 * step).collect();
        let top_share = count as f64 * step;
        let (x0, x1) = (50.0, WIDTH - 14.0);
        let legend = legend(
            &self
                .rows
                .iter()
                .enumerate()
                .map(|(i, row)| {
                    let label = match side {
                        Side::A => &row.a,
                        Side::B => &row.b,
                    };
                    (i, format!("{}: {label}", row.system))
                })
                .collect::<Vec<_>>(),
            Swatch::Box,
        );
        let top = legend.height + 14.0;
        let (y0, y1) = (top, top + 200.0);
        let height = y1 + 48.0;
        let sy = |p: f64| y1 - (p / top_share).clamp(0.0, 1.0) * (y1 - y0);
        let mut svg = legend.svg;
        svg.push_str(&grid_y(x0, x1, y0, y1, &ticks, |p| {
            format!("{:.0}%", p * 100.0)
        }));
        // Half a band's gap sets nothing left apart from the tenths.
        let band = (x1 - x0) / (TENTHS as f64 + 1.5);
        let band_left = |k: usize| {
            if k == 0 {
                x0
            } else {
                x0 + band * (k as f64 + 0.5)
            }
        };
        let bar = band * 0.8 / self.rows.len().max(1) as f64;
        for k in 0..=TENTHS {
            let left = band_left(k) + band * 0.1;
            for (i, (counts, hull)) in buckets.iter().enumerate() {
                let p = share(counts, hull, k);
                let y = sy(p.p);
                svg.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{}, {}: {}</title></rect>",
                    at(left + bar * i as f64),
                    at(y),
                    at(bar),
                    at(y1 - y),
                    colour(i),
                    escape(&self.rows[i].system),
                    tenth_label(k),
                    escape(&percent(&p))
                ));
            }
            // Nothing left has its own label under its bars; the tenths are
            // labelled at their bounds, 0 to 100, as a histogram's bins are.
            let (x, label) = if k == 0 {
                (x0 + band * 0.5, "none".to_owned())
            } else {
                (band_left(k), ((k - 1) * 10).to_string())
            };
            svg.push_str(&format!(
                "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#1b1b1b\"/><text x=\"{0}\" y=\"{3}\" font-size=\"11\" text-anchor=\"middle\">{label}</text>\n",
                at(x),
                at(y1),
                at(y1 + 4.0),
                at(y1 + 16.0)
            ));
        }
        svg.push_str(&format!(
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#1b1b1b\"/><text x=\"{0}\" y=\"{3}\" font-size=\"11\" text-anchor=\"middle\">100</text>\n",
            at(x1),
            at(y1),
            at(y1 + 4.0),
            at(y1 + 16.0)
        ));
        svg.push_str(&format!(
            "<line x1=\"{}\" y1=\"{2}\" x2=\"{}\" y2=\"{2}\" stroke=\"#1b1b1b\"/>\n",
            at(x0),
            at(x1),
            at(y1)
        ));
        svg.push_str(&axis_titles(
            x0,
            x1,
            y0,
            y1,
            "hull left at the end, % of the side's start",
            "share of trials",
        ));
        let mut headers = vec!["hull left".to_owned()];
        headers.extend(self.rows.iter().map(|row| row.system.clone()));
        let body = (0..=TENTHS)
            .map(|k| {
                let mut cells = vec![Cell::text(&tenth_label(k))];
                cells.extend(
                    buckets
                        .iter()
                        .map(|(counts, hull)| Cell::number(percent(&share(counts, hull, k)))),
                );
                cells
            })
            .collect();
        figure(
            &format!("hull-{}", super::key(side)),
            &format!("Side {side}'s hull left"),
            &format!(
                "Side {side}'s hull left at the end of a trial, summed over its ships, as the share of all trials in each tenth of its hull at the start, per system. A lost ship counts nothing."
            ),
            height,
            &svg,
            "",
            &table(&headers, body),
        )
    }

    /// Everything the run was given, to repeat it from the page alone.
    fn settings(&self) -> String {
        let mut html = String::from("<h2>Settings</h2>\n");
        let rules = self
            .run
            .rules
            .map_or_else(|| "the built-in data".to_owned(), str::to_owned);
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if self.compare {
            pairs.push(("scenario", self.heading.clone()));
        }
        pairs.extend([
            ("trials", self.trials.to_string()),
            ("seed", self.run.seed.to_string()),
            ("generator", GENERATOR.to_owned()),
            ("turn limit", self.run.max_turns.to_string()),
            ("rules", rules),
            ("broadside", VERSION.to_owned()),
        ]);
        let body = pairs
            .into_iter()
            .map(|(name, value)| vec![Cell::text(name), Cell::text(&value)])
            .collect();
        html.push_str(&format!(
            "<div class=\"table-wrap\">{}</div>\n",
            table(&["setting", "value"], body)
        ));
        let headers = ["system", "side A", "side B", "given"];
        let body = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let flags = row.option_flags();
                let given = if flags.is_empty() {
                    Cell::text("-")
                } else {
                    Cell::Html(format!("<code>{}</code>", escape(&flags.join(" "))))
                };
                vec![
                    Cell::Html(self.system_cell(i)),
                    Cell::text(&row.a),
                    Cell::text(&row.b),
                    given,
                ]
            })
            .collect();
        html.push_str(&format!(
            "<div class=\"table-wrap\">{}</div>\n",
            table(&headers, body)
        ));
        html.push_str("<p class=\"run\">An option not given takes the system's default.</p>\n");
        html
    }
}

/// How a bar is filled: A's wins solid, B's hatched, other endings pale.
fn bar_fill(outcome: usize, system: usize) -> String {
    match outcome {
        0 => colour(system).to_owned(),
        1 => format!("url(#win-hatch-{system})"),
        _ => "#eeeeee".to_owned(),
    }
}

/// A 95% interval drawn across a bar: a line with a cap at each end.
fn whisker(lo: f64, hi: f64, mid: f64) -> String {
    format!(
        "<path d=\"M{lo},{mid}H{hi}M{lo},{top}V{bottom}M{hi},{top}V{bottom}\" stroke=\"#1b1b1b\" stroke-width=\"1.5\" fill=\"none\"/>",
        lo = at(lo),
        hi = at(hi),
        mid = at(mid),
        top = at(mid - 5.0),
        bottom = at(mid + 5.0)
    )
}

/// Vertical grid lines for shares along x, labelled in percent under the
/// plot.
fn grid_x(x0: f64, x1: f64, top: f64, bottom: f64, ticks: &[f64]) -> String {
    let mut svg = String::new();
    for &p in ticks {
        let x = x0 + p * (x1 - x0);
        svg.push_str(&format!(
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#d0d0d0\"/><text x=\"{0}\" y=\"{3}\" font-size=\"11\" text-anchor=\"middle\">{4:.0}%</text>",
            at(x),
            at(top),
            at(bottom + 4.0),
            at(bottom + 17.0),
            p * 100.0
        ));
    }
    svg.push('\n');
    svg
}

/// Horizontal grid lines with labels at the left, from `top` (the last
/// tick) down to `bottom` (the first), and the plot's left edge.
fn grid_y(
    x0: f64,
    x1: f64,
    top: f64,
    bottom: f64,
    ticks: &[f64],
    label: impl Fn(f64) -> String,
) -> String {
    let last = ticks.last().copied().unwrap_or(1.0);
    let mut svg = String::new();
    for &t in ticks {
        let y = bottom - t / last * (bottom - top);
        svg.push_str(&format!(
            "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#d0d0d0\"/><text x=\"{3}\" y=\"{4}\" font-size=\"11\" text-anchor=\"end\">{5}</text>",
            at(x0),
            at(y),
            at(x1),
            at(x0 - 5.0),
            at(y + 4.0),
            label(t)
        ));
    }
    svg.push_str(&format!(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#1b1b1b\"/>\n",
        at(x0),
        at(top),
        at(bottom)
    ));
    svg
}

/// The titles of both axes: x's under the tick labels, y's turned along the
/// left edge.
fn axis_titles(x0: f64, x1: f64, y0: f64, y1: f64, x: &str, y: &str) -> String {
    format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text><text transform=\"translate(14 {}) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n",
        at((x0 + x1) / 2.0),
        at(y1 + 36.0),
        escape(x),
        at((y0 + y1) / 2.0),
        escape(y)
    )
}

/// A step between labelled turns that puts at most about ten labels on the
/// axis: 1, 2 or 5 times a power of ten.
fn nice_step(span: u32) -> u32 {
    let mut power = 1;
    loop {
        for factor in [1, 2, 5] {
            let step = factor * power;
            if span / step <= 10 {
                return step;
            }
        }
        power *= 10;
    }
}

/// How a legend marks a system: a box for bars, a line for lines.
#[derive(Clone, Copy)]
enum Swatch {
    Box,
    Line,
}

/// A legend laid out in rows across the chart's width, and the height it
/// takes.
struct Legend {
    svg: String,
    height: f64,
}

fn legend(entries: &[(usize, String)], swatch: Swatch) -> Legend {
    const SIZE: f64 = 12.0;
    const ROW: f64 = 20.0;
    let mut svg = String::new();
    let (mut x, mut y) = (4.0, 4.0);
    for (i, label) in entries {
        let label = short(label);
        let width = 26.0 + text_width(&label, SIZE);
        if x > 4.0 && x + width > WIDTH {
            x = 4.0;
            y += ROW;
        }
        match swatch {
            Swatch::Box => svg.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" rx=\"2\" fill=\"{}\"/>",
                at(x),
                at(y + 2.0),
                colour(*i)
            )),
            Swatch::Line => {
                let dash = DASHES[i % DASHES.len()];
                let dash = if dash.is_empty() {
                    String::new()
                } else {
                    format!(" stroke-dasharray=\"{dash}\"")
                };
                svg.push_str(&format!(
                    "<line x1=\"{}\" y1=\"{2}\" x2=\"{}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"2.5\"{dash}/>",
                    at(x - 2.0),
                    at(x + 16.0),
                    at(y + 8.0),
                    colour(*i)
                ));
            }
        }
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"12\">{label}</text>",
            at(x + 20.0),
            at(y + 12.5)
        ));
        x += width + 14.0;
    }
    svg.push('\n');
    Legend {
        svg,
        height: y + ROW,
    }
}

/// A chart in a figure: its caption, the SVG with a title and description
/// for screen readers, a note under it if any (text, escaped here), and its
/// numbers in a table under a disclosure.
fn figure(
    id: &str,
    caption: &str,
    description: &str,
    height: f64,
    svg: &str,
    note: &str,
    numbers: &str,
) -> String {
    let note = if note.is_empty() {
        String::new()
    } else {
        format!("<p class=\"run\">{}</p>\n", escape(note))
    };
    format!(
        "<figure id=\"{id}\">\n<figcaption>{caption}</figcaption>\n<svg viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"{id}-title {id}-desc\"><title id=\"{id}-title\">{caption}</title><desc id=\"{id}-desc\">{description}</desc>\n{svg}</svg>\n{note}<details><summary>The numbers</summary><div class=\"table-wrap\">{numbers}</div></details>\n</figure>\n",
        at(WIDTH),
        at(height),
        caption = escape(caption),
        description = escape(description)
    )
}

/// A table cell: text to escape, a number to align right, or markup made
/// here.
enum Cell {
    Text(String),
    Number(String),
    Html(String),
}

impl Cell {
    fn text(text: &str) -> Cell {
        Cell::Text(text.to_owned())
    }

    fn number(text: String) -> Cell {
        Cell::Number(text)
    }
}

fn table<S: AsRef<str>>(headers: &[S], rows: Vec<Vec<Cell>>) -> String {
    let mut html = String::from("<table>\n<thead><tr>");
    for header in headers {
        html.push_str(&format!("<th>{}</th>", escape(header.as_ref())));
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        html.push_str("<tr>");
        for cell in row {
            match cell {
                Cell::Text(text) => html.push_str(&format!("<td>{}</td>", escape(&text))),
                Cell::Number(text) => {
                    html.push_str(&format!("<td class=\"n\">{}</td>", escape(&text)));
                }
                Cell::Html(markup) => html.push_str(&format!("<td>{markup}</td>")),
            }
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character that could open markup or end an attribute is
    /// escaped; everything else is left as it is.
    #[test]
    fn text_from_data_is_escaped() {
        assert_eq!(
            escape("<b>&'\"fri-gate"),
            "&lt;b&gt;&amp;&#39;&quot;fri-gate"
        );
        assert_eq!(escape("2xfrigate,destroyer"), "2xfrigate,destroyer");
    }

    /// The heat scale's ends and middle, and its ink.
    #[test]
    fn heat_runs_from_orange_through_white_to_blue() {
        assert_eq!(heat(0.0), ("#d55e00".to_owned(), "#fff"));
        assert_eq!(heat(0.5), ("#f7f7f7".to_owned(), "#1b1b1b"));
        assert_eq!(heat(1.0), ("#0072b2".to_owned(), "#fff"));
        assert_eq!(heat(f64::NAN).0, "#f7f7f7");
    }

    /// Turn labels: every turn over ten turns or fewer, then 2, 5, 10...
    /// apart, so that at most eleven labels share the axis.
    #[test]
    fn turn_labels_are_at_most_about_ten() {
        assert_eq!(nice_step(1), 1);
        assert_eq!(nice_step(10), 1);
        assert_eq!(nice_step(11), 2);
        assert_eq!(nice_step(49), 5);
        assert_eq!(nice_step(50), 5);
        assert_eq!(nice_step(54), 5);
        assert_eq!(nice_step(55), 10);
        assert_eq!(nice_step(999), 100);
    }
}

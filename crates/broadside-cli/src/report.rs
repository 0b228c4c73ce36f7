//! The Monte Carlo report of `battle` and `compare`, one set of figures
//! rendered five ways: text and markdown for reading, an HTML page of charts
//! (in `html`), JSON and CSV for programs. `docs/output.md` lists every JSON
//! and CSV field.

use std::collections::BTreeMap;
use std::io::Write;

use broadside_core::dice::GENERATOR;
use broadside_core::montecarlo::{
    DecidedBy, HullLeft, Loss, LossCounts, LossShares, Outcomes, Proportion, ShipsLost, SideHull,
    SidePair, Summary, TurnsToDecision,
};
use broadside_core::{BattleRequest, OptionValue, Options, Ruleset, Side};
use comfy_table::presets::{ASCII_MARKDOWN, UTF8_FULL_CONDENSED};
use comfy_table::{ContentArrangement, Table};
use serde::{Serialize, Serializer};

use crate::Failure;

pub(crate) mod html;
pub use html::sweep as sweep_html;

/// The version of the JSON and CSV layout. It changes when a field is renamed,
/// removed or changes meaning; adding a field does not change it.
pub const SCHEMA_VERSION: u32 = 1;

/// The program's version, printed in every machine-readable report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The most decimals a percentage is given, however narrow its interval.
const MAX_DECIMALS: usize = 6;

/// A cell of a figure the row's system cannot have (an escape where no side
/// can leave), explained once under the table that shows it.
pub const NOT_IN_SYSTEM: &str = "—";

/// The most rows of the decided-by-turn table; longer battles are shown in
/// spans of turns.
const MAX_TURN_ROWS: usize = 20;

/// How many decimals a percentage earns: the rounding step is the largest
/// power of ten (in percentage points) not above the width of its 95%
/// interval, so no digit is printed that the trials cannot tell apart, and a
/// rare outcome is not printed as 0. At most whole percents are dropped.
pub fn percent_decimals(ci95: [f64; 2]) -> usize {
    let width = 100.0 * (ci95[1] - ci95[0]);
    if width.is_nan() || width <= 0.0 {
        return MAX_DECIMALS;
    }
    let decimals = -width.log10().floor();
    decimals.clamp(0.0, MAX_DECIMALS as f64) as usize
}

/// A proportion in percent with the digits its interval justifies:
/// `0.21%` when the interval is 0.19-0.24%, `76%` when it is 75.1-77.0%.
///
/// A proportion that is not 0 but rounds to it prints as below the last
/// digit (`<1%`), and one that is not 1 but rounds to it as above
/// (`>99%`), so a rare outcome that happened never reads as one that
/// did not.
pub fn percent(p: &Proportion) -> String {
    let decimals = percent_decimals(p.ci95);
    let shown = format!("{:.decimals$}", 100.0 * p.p);
    let step = format!("{:.decimals$}", 10f64.powi(-(decimals as i32)));
    let rounded: f64 = shown.parse().unwrap_or(100.0 * p.p);
    if p.p > 0.0 && rounded == 0.0 {
        format!("<{step}%")
    } else if p.p < 1.0 && rounded == 100.0 {
        format!(">{:.decimals$}%", 100.0 - 10f64.powi(-(decimals as i32)))
    } else {
        format!("{shown}%")
    }
}

/// A proportion's 95% interval in percent, with the digits the interval
/// justifies, rounded outwards so that the printed interval holds the
/// computed one: 74.4–83.5% prints as `74–84%`.
fn interval(p: &Proportion) -> String {
    let decimals = percent_decimals(p.ci95);
    let scale = 10f64.powi(decimals as i32 + 2);
    // The nudge keeps a bound that is a whole step, give or take the last
    // bit of a float, from being pushed a step out.
    const NUDGE: f64 = 1e-9;
    let lo = (p.ci95[0] * scale + NUDGE).floor() / 10f64.powi(decimals as i32);
    let hi = (p.ci95[1] * scale - NUDGE).ceil() / 10f64.powi(decimals as i32);
    format!("{lo:.decimals$}–{hi:.decimals$}%")
}

/// A proportion with its interval: `76% (75–77%)`.
fn percent_with_interval(p: &Proportion) -> String {
    format!("{} ({})", percent(p), interval(p))
}

/// Text for people: boxed tables for a terminal, or markdown for a forum
/// post.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Plain lines and box-drawn tables.
    Text,
    /// Paragraphs and pipe tables.
    Markdown,
}

impl Style {
    /// A table with these headers, drawn in this style.
    pub fn table<S: ToString>(self, headers: &[S]) -> Table {
        let mut table = Table::new();
        let preset = match self {
            Style::Text => UTF8_FULL_CONDENSED,
            Style::Markdown => ASCII_MARKDOWN,
        };
        table
            .load_preset(preset)
            .set_header(headers.iter().map(|h| self.escape(&h.to_string())));
        if self == Style::Text {
            // On a terminal a wide table wraps its cells to the width;
            // piped output, which has no width, keeps whole lines.
            table.set_content_arrangement(ContentArrangement::Dynamic);
        }
        table
    }

    /// Adds a row, its cells escaped for the style.
    pub fn row(self, table: &mut Table, cells: Vec<String>) {
        table.add_row(cells.iter().map(|c| self.escape(c)).collect::<Vec<_>>());
    }

    /// Text made literal: in markdown, a character that would start
    /// emphasis, code, a link or a table cell (an id may hold one) is
    /// escaped.
    fn escape(self, text: &str) -> String {
        match self {
            Style::Text => text.to_owned(),
            Style::Markdown => {
                let mut escaped = String::with_capacity(text.len());
                for c in text.chars() {
                    if matches!(
                        c,
                        '\\' | '*' | '_' | '`' | '|' | '[' | ']' | '<' | '>' | '#'
                    ) {
                        escaped.push('\\');
                    }
                    escaped.push(c);
                }
                escaped
            }
        }
    }

    /// Writes a line of prose; in markdown each is its own paragraph.
    fn line(self, out: &mut dyn Write, text: &str) -> std::io::Result<()> {
        match self {
            Style::Text => writeln!(out, "{text}"),
            Style::Markdown => writeln!(out, "{}\n", self.escape(text)),
        }
    }

    /// Writes a heading: a plain line in text, bold in markdown.
    fn heading(self, out: &mut dyn Write, text: &str) -> std::io::Result<()> {
        match self {
            Style::Text => writeln!(out, "{text}"),
            Style::Markdown => writeln!(out, "**{}**\n", self.escape(text)),
        }
    }

    /// Writes a table.
    fn put(self, out: &mut dyn Write, table: &Table) -> std::io::Result<()> {
        match self {
            Style::Text => writeln!(out, "{table}"),
            Style::Markdown => writeln!(out, "{table}\n"),
        }
    }
}

/// One battle's figures, as `battle` prints them and as a row of `compare`.
/// `a` and `b` are the sides as written (`3xfrigate,destroyer`).
pub struct BattleRow {
    /// The system's id.
    pub system: String,
    /// Side A as written.
    pub a: String,
    /// Side B as written.
    pub b: String,
    /// The system's options given for the battle.
    pub options: Options,
    /// Each side's set-up given.
    pub side_options: [Options; 2],
    /// The ways the system's ships can be lost, in report order: the only
    /// kinds text, markdown and HTML list.
    pub loss_kinds: &'static [Loss],
    /// Whether a side can leave the battle in this system: escapes are
    /// listed only if it can.
    pub escapes: bool,
    /// The figures.
    pub summary: Summary,
}

impl BattleRow {
    /// The row of a battle `system` played from `request`, with the kinds
    /// of loss and the escapes it declares.
    pub fn new(
        system: &dyn Ruleset,
        a: String,
        b: String,
        request: &BattleRequest,
        summary: Summary,
    ) -> Self {
        BattleRow {
            system: system.id().to_owned(),
            a,
            b,
            options: request.options.clone(),
            side_options: request.side_options.clone(),
            loss_kinds: system.loss_kinds(),
            escapes: system.escapes(),
            summary,
        }
    }

    /// The side's loss shares of the kinds the system declares, named as
    /// the JSON names them, `lost` first.
    fn declared_losses<'s>(&self, shares: &'s LossShares) -> Vec<(&'static str, &'s Proportion)> {
        loss_list(shares)
            .into_iter()
            .filter(|(name, _)| {
                *name == "lost" || self.loss_kinds.iter().any(|&kind| loss_key(kind) == *name)
            })
            .collect()
    }

    /// The kinds of loss the system declares, as the JSON names them.
    fn loss_keys(&self) -> Vec<&'static str> {
        self.loss_kinds.iter().map(|&kind| loss_key(kind)).collect()
    }

    fn json(&self) -> RowJson<'_> {
        let s = &self.summary;
        RowJson {
            system: &self.system,
            a: &self.a,
            b: &self.b,
            trials: s.trials,
            outcomes: Rounded(&s.outcomes),
            turns_to_decision: s.turns_to_decision.as_ref(),
            winner_hull_left_pct: s.winner_hull_left_pct.map(round2),
            losses: SidePair {
                a: &s.losses_a,
                b: &s.losses_b,
            },
            ships_lost: &s.ships_lost,
            mean_hull_left: s
                .hull_by_ship
                .iter()
                .map(|h| ShipHullJson {
                    side: h.side,
                    id: &h.id,
                    ships: h.ships,
                    hull: round2(h.mean_hull_left),
                    pct: h.mean_hull_left_pct.map(round2),
                })
                .collect(),
            options: options_json(&self.options),
            side_options: SidePair {
                a: options_json(&self.side_options[0]),
                b: options_json(&self.side_options[1]),
            },
            decided_by_turn: Rounded(&s.decided_by_turn),
            loss_shares: Rounded(&s.loss_shares),
            side_hull_left: Rounded(&s.side_hull),
            loss_kinds: self.loss_keys(),
            escapes: self.escapes,
        }
    }

    /// The row's CSV fields, each named beside its value so the header and
    /// the row cannot fall out of step.
    fn csv(&self, run: &Run<'_>) -> Vec<(String, String)> {
        let s = &self.summary;
        let o = &s.outcomes;
        let mut r = Record::default();
        r.put("system", &self.system);
        r.put("a", &self.a);
        r.put("b", &self.b);
        r.put("trials", s.trials);
        r.put("seed", run.seed);
        for (name, x) in [
            ("a_wins", &o.a_wins),
            ("b_wins", &o.b_wins),
            ("undecided", &o.undecided),
        ] {
            r.share(name, x);
        }
        r.put("p_draw", fixed4(o.draws.p));
        let turns = s.turns_to_decision.as_ref();
        r.put(
            "mean_turns",
            turns.map_or_else(String::new, |t| format!("{:.2}", t.mean)),
        );
        r.put("median_turns", optional(turns.map(|t| t.median)));
        r.put(
            "winner_hull_left_pct",
            s.winner_hull_left_pct
                .map_or_else(String::new, |h| format!("{h:.1}")),
        );
        // Lists go in one field each, `;`-separated, so every row has the
        // same columns whatever the fleets' sizes.
        for side in Side::BOTH {
            let k = key(side);
            r.put(format!("ships_lost_{k}"), joined(s.ships_lost.of(side)));
        }
        for side in Side::BOTH {
            let k = key(side);
            let hulls: Vec<String> = s
                .hull_by_ship
                .iter()
                .filter(|h| h.side == side)
                .map(|h| format!("{}={:.2}", h.id, h.mean_hull_left))
                .collect();
            r.put(format!("mean_hull_left_{k}"), hulls.join(";"));
        }
        // Every field after this one was added with schema version 1; the
        // ones before keep the places they had.
        r.put("schema_version", SCHEMA_VERSION);
        r.put("broadside_version", VERSION);
        r.put("generator", GENERATOR);
        r.put("max_turns", run.max_turns);
        r.put("rules", run.rules.unwrap_or(""));
        r.put("options", self.option_flags().join(" "));
        r.put("draw_lo", fixed4(o.draws.ci95[0]));
        r.put("draw_hi", fixed4(o.draws.ci95[1]));
        r.share("a_escapes", &o.a_escapes);
        r.share("b_escapes", &o.b_escapes);
        for (name, x) in outcome_list(o) {
            r.put(name, x.count);
        }
        r.put("q1_turns", optional(turns.map(|t| t.q1)));
        r.put("q3_turns", optional(turns.map(|t| t.q3)));
        r.put(
            "decided_by_turn",
            joined(&decided_counts(&s.decided_by_turn)),
        );
        for side in Side::BOTH {
            let k = key(side);
            let shares = s.loss_shares.of(side);
            r.put(format!("{k}_ships"), shares.ships);
            for (cause, x) in loss_list(shares) {
                r.put(format!("{k}_{cause}"), x.count);
                r.share(&format!("{k}_{cause}"), x);
            }
            let hull = s.side_hull.of(side);
            r.put(format!("{k}_hull_start"), hull.start);
            r.hull(&format!("{k}_hull_left"), Some(&hull.overall));
            r.hull(&format!("{k}_win_hull_left"), hull.when_wins.as_ref());
        }
        // What the system declares, after both sides' blocks: which of the
        // columns above hold a zero it cannot help rather than one not seen.
        r.put("loss_kinds", self.loss_keys().join(";"));
        r.put("escapes", self.escapes);
        r.fields
    }

    /// Everything but the outcomes: turns, losses, hull left, decided by
    /// turn. `battle` prints it under its outcome table, `compare` under
    /// each system's title.
    fn write_details(&self, style: Style, out: &mut dyn Write) -> Result<(), Failure> {
        let s = &self.summary;
        if let Some(t) = s.turns_to_decision {
            style.line(
                out,
                &format!(
                    "turns to decision: mean {:.1}, quartiles {} / {} / {}",
                    t.mean, t.q1, t.median, t.q3
                ),
            )?;
        }
        if let Some(h) = s.winner_hull_left_pct {
            style.line(out, &format!("winner's hull left: {h:.1}% of original"))?;
        }
        for side in Side::BOTH {
            let shares = s.loss_shares.of(side);
            let causes: Vec<String> = self
                .declared_losses(shares)
                .into_iter()
                .skip(1)
                .map(|(cause, x)| format!("{} {}", percent(x), cause.replace('_', " ")))
                .collect();
            style.line(
                out,
                &format!(
                    "{side} ({}) ships lost: {} of its ships ({})",
                    self.side_label(side),
                    percent(&shares.lost),
                    causes.join(", ")
                ),
            )?;
        }
        self.write_ships_lost(style, out)?;
        self.write_ship_hulls(style, out)?;
        self.write_side_hulls(style, out)?;
        self.write_hull_histogram(style, out)?;
        self.write_decided_by_turn(style, out)
    }

    /// The battle's options and each side's set-up as the flags that give
    /// them to `battle`: `--start-range 12 --b-mines '6,0;6,-1'`.
    fn option_flags(&self) -> Vec<String> {
        let given = [
            ("", &self.options),
            ("a-", &self.side_options[0]),
            ("b-", &self.side_options[1]),
        ];
        given
            .into_iter()
            .flat_map(|(prefix, options)| {
                options.iter().map(move |(name, value)| match value {
                    OptionValue::Flag => format!("--{prefix}{name}"),
                    OptionValue::Number(n) => format!("--{prefix}{name} {n}"),
                    OptionValue::Text(t) => format!("--{prefix}{name} {}", shell_word(t)),
                })
            })
            .collect()
    }

    fn side_label(&self, side: Side) -> &str {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }

    fn write_ships_lost(&self, style: Style, out: &mut dyn Write) -> Result<(), Failure> {
        let s = &self.summary;
        let most = s.ships_lost.a.len().max(s.ships_lost.b.len());
        let mut headers = vec!["ships lost".to_owned()];
        headers.extend((0..most).map(|k| k.to_string()));
        headers.push("mean".into());
        let mut lost = style.table(&headers);
        for side in Side::BOTH {
            let counts = s.ships_lost.of(side);
            let mut cells = vec![format!("side {side}")];
            cells.extend((0..most).map(|k| match counts.get(k) {
                Some(&n) => percent(&Proportion::of(n, s.trials)),
                None => String::new(),
            }));
            cells.push(format!("{:.2}", s.ships_lost.mean(side)));
            style.row(&mut lost, cells);
        }
        style.line(out, "share of trials in which a side lost k ships:")?;
        style.put(out, &lost)?;
        Ok(())
    }

    fn write_ship_hulls(&self, style: Style, out: &mut dyn Write) -> Result<(), Failure> {
        let mut hulls = style.table(&["side", "ship", "ships", "mean hull left", "% of start"]);
        for h in &self.summary.hull_by_ship {
            style.row(
                &mut hulls,
                vec![
                    h.side.to_string(),
                    h.id.clone(),
                    h.ships.to_string(),
                    format!("{:.1}", h.mean_hull_left),
                    h.mean_hull_left_pct
                        .map_or_else(|| "-".into(), |p| format!("{p:.0}%")),
                ],
            );
        }
        style.put(out, &hulls)?;
        Ok(())
    }

    fn write_side_hulls(&self, style: Style, out: &mut dyn Write) -> Result<(), Failure> {
        let mut table = style.table(&[
            "side",
            "start",
            "mean left",
            "quartiles",
            "when it wins",
            "quartiles when it wins",
        ]);
        let mean = |h: &HullLeft| match h.mean_pct {
            Some(pct) => format!("{:.1} ({pct:.0}%)", h.mean),
            None => format!("{:.1}", h.mean),
        };
        let quartiles = |h: &HullLeft| format!("{} / {} / {}", h.q1, h.median, h.q3);
        for side in Side::BOTH {
            let hull = self.summary.side_hull.of(side);
            let won = hull.when_wins.as_ref();
            style.row(
                &mut table,
                vec![
                    format!("{side} ({})", self.side_label(side)),
                    hull.start.to_string(),
                    mean(&hull.overall),
                    quartiles(&hull.overall),
                    won.map_or_else(|| "-".into(), mean),
                    won.map_or_else(|| "-".into(), quartiles),
                ],
            );
        }
        style.line(out, "hull left by side, summed over its ships:")?;
        style.put(out, &table)?;
        Ok(())
    }

    fn write_hull_histogram(&self, style: Style, out: &mut dyn Write) -> Result<(), Failure> {
        let hulls = &self.summary.side_hull;
        let columns: Vec<(String, Option<&HullLeft>, i64)> = Side::BOTH
            .into_iter()
            .flat_map(|side| {
                let hull = hulls.of(side);
                [
                    (side.to_string(), Some(&hull.overall), hull.start),
                    (
                        format!("{side} when it wins"),
                        hull.when_wins.as_ref(),
                        hull.start,
                    ),
                ]
            })
            .collect();
        let mut headers = vec!["hull left".to_owned()];
        headers.extend(columns.iter().map(|(name, _, _)| name.clone()));
        let mut table = style.table(&headers);
        let buckets: Vec<[u64; TENTHS + 1]> = columns
            .iter()
            .map(|(_, hull, start)| hull.map_or([0; TENTHS + 1], |h| tenths(h, *start)))
            .collect();
        for bucket in 0..=TENTHS {
            let mut cells = vec![tenth_label(bucket)];
            for ((_, hull, _), counts) in columns.iter().zip(&buckets) {
                cells.push(hull.map_or_else(
                    || "-".into(),
                    |h| percent(&Proportion::of(counts[bucket], h.trials)),
                ));
            }
            style.row(&mut table, cells);
        }
        style.line(
            out,
            "hull left by side, as a share of its start: the share of trials (of the side's wins, when it wins) in each tenth",
        )?;
        style.put(out, &table)?;
        Ok(())
    }

    fn write_decided_by_turn(&self, style: Style, out: &mut dyn Write) -> Result<(), Failure> {
        let s = &self.summary;
        if s.decided_by_turn.is_empty() {
            return Ok(());
        }
        // A turn a row, but a long battle's tail shares the last row, so the
        // table fits a screen and the turns where most battles end stay
        // apart.
        let list = &s.decided_by_turn;
        let (head, tail) = list.split_at(list.len().min(MAX_TURN_ROWS - 1));
        let spans = head.chunks(1).chain(Some(tail).filter(|t| !t.is_empty()));
        let mut table = style.table(&["turn", "decided on it", "decided by its end"]);
        // The list starts on the first turn that can decide a battle, so
        // nothing is decided before it.
        let mut before = 0;
        for rows in spans {
            let (start, last) = (&rows[0], &rows[rows.len() - 1]);
            let turns = if start.turn == last.turn {
                start.turn.to_string()
            } else {
                format!("{}–{}", start.turn, last.turn)
            };
            let on = Proportion::of(last.decided.count - before, s.trials);
            before = last.decided.count;
            style.row(
                &mut table,
                vec![turns, percent(&on), percent(&last.decided)],
            );
        }
        style.line(out, "share of trials decided by each turn:")?;
        style.put(out, &table)?;
        Ok(())
    }
}

/// Tenths of the start, plus a bucket for nothing left.
const TENTHS: usize = 10;

/// A histogram of hull left put in tenths of the start: bucket 0 holds
/// nothing left, bucket k more than (k-1)/10 of the start and at most k/10.
/// Integer arithmetic, so a hull exactly on a boundary falls in the lower
/// bucket every time.
fn tenths(hull: &HullLeft, start: i64) -> [u64; TENTHS + 1] {
    let mut buckets = [0; TENTHS + 1];
    let start = u64::try_from(start).unwrap_or(0);
    for (left, &count) in hull.counts.iter().enumerate() {
        let bucket = if left == 0 || start == 0 {
            0
        } else {
            usize::try_from((left as u64 * TENTHS as u64).div_ceil(start))
                .unwrap_or(TENTHS)
                .min(TENTHS)
        };
        buckets[bucket] += count;
    }
    buckets
}

fn tenth_label(bucket: usize) -> String {
    if bucket == 0 {
        "none".into()
    } else {
        format!("{}–{}%", (bucket - 1) * 10, bucket * 10)
    }
}

/// A side as the JSON and CSV name it.
fn key(side: Side) -> &'static str {
    match side {
        Side::A => "a",
        Side::B => "b",
    }
}

/// Every outcome, named as the JSON names it.
fn outcome_list(o: &Outcomes) -> [(&'static str, &Proportion); 6] {
    [
        ("a_wins", &o.a_wins),
        ("b_wins", &o.b_wins),
        ("undecided", &o.undecided),
        ("draws", &o.draws),
        ("a_escapes", &o.a_escapes),
        ("b_escapes", &o.b_escapes),
    ]
}

/// A kind of loss as the JSON and CSV name it.
pub(crate) fn loss_key(kind: Loss) -> &'static str {
    match kind {
        Loss::Destroyed => "destroyed",
        Loss::BrokenApart => "broken_apart",
        Loss::Disarmed => "disarmed",
    }
}

/// A side's loss shares, named as the JSON names them, `lost` first.
fn loss_list(shares: &LossShares) -> [(&'static str, &Proportion); 4] {
    [
        ("lost", &shares.lost),
        (loss_key(Loss::Destroyed), &shares.destroyed),
        (loss_key(Loss::BrokenApart), &shares.broken_apart),
        (loss_key(Loss::Disarmed), &shares.disarmed),
    ]
}

/// Trials decided by the end of each turn from turn 0, whatever turn the
/// summary's list starts on.
fn decided_counts(decided: &[DecidedBy]) -> Vec<u64> {
    let mut counts = Vec::new();
    if decided.first().is_some_and(|d| d.turn == 1) {
        counts.push(0);
    }
    counts.extend(decided.iter().map(|d| d.decided.count));
    counts
}

/// CSV fields, named as they are added.
#[derive(Default)]
struct Record {
    fields: Vec<(String, String)>,
}

impl Record {
    fn put(&mut self, name: impl Into<String>, value: impl ToString) {
        self.fields.push((name.into(), value.to_string()));
    }

    /// A proportion as `p_NAME`, `NAME_lo`, `NAME_hi`.
    fn share(&mut self, name: &str, x: &Proportion) {
        self.put(format!("p_{name}"), fixed4(x.p));
        self.put(format!("{name}_lo"), fixed4(x.ci95[0]));
        self.put(format!("{name}_hi"), fixed4(x.ci95[1]));
    }

    /// A hull distribution as `NAME_mean`, `NAME_pct`, its quartiles and its
    /// counts; empty fields when there is none.
    fn hull(&mut self, name: &str, hull: Option<&HullLeft>) {
        self.put(
            format!("{name}_mean"),
            hull.map_or_else(String::new, |h| format!("{:.2}", h.mean)),
        );
        self.put(
            format!("{name}_pct"),
            hull.and_then(|h| h.mean_pct)
                .map_or_else(String::new, |p| format!("{p:.1}")),
        );
        self.put(format!("{name}_q1"), optional(hull.map(|h| h.q1)));
        self.put(format!("{name}_median"), optional(hull.map(|h| h.median)));
        self.put(format!("{name}_q3"), optional(hull.map(|h| h.q3)));
        self.put(
            format!("{name}_counts"),
            hull.map_or_else(String::new, |h| joined(&h.counts)),
        );
    }
}

fn fixed4(x: f64) -> String {
    format!("{x:.4}")
}

fn optional<T: ToString>(x: Option<T>) -> String {
    x.map_or_else(String::new, |x| x.to_string())
}

fn joined(counts: &[u64]) -> String {
    let counts: Vec<String> = counts.iter().map(u64::to_string).collect();
    counts.join(";")
}

/// What a run was given besides its battles: the settings every row shares.
pub struct Run<'a> {
    /// The seed of the dice.
    pub seed: u64,
    /// The turn limit.
    pub max_turns: u32,
    /// `--rules DIR`, if given.
    pub rules: Option<&'a str>,
}

/// A value that serialises with every float rounded to 4 decimals, as every
/// probability of the JSON report is.
struct Rounded<T>(T);

impl<T: Serialize> Serialize for Rounded<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut value = serde_json::to_value(&self.0).map_err(serde::ser::Error::custom)?;
        round_floats(&mut value);
        value.serialize(serializer)
    }
}

fn round_floats(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(x) = n
                .as_f64()
                .map(round4)
                .and_then(serde_json::Number::from_f64)
            {
                *n = x;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(round_floats),
        Value::Object(fields) => fields.values_mut().for_each(round_floats),
        _ => {}
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// An option's value as JSON: `true` for a flag, else the number or text.
#[derive(Serialize)]
#[serde(untagged)]
enum OptionJson {
    Flag(bool),
    Number(i64),
    Text(String),
}

fn options_json(options: &Options) -> BTreeMap<String, OptionJson> {
    options
        .iter()
        .map(|(name, value)| {
            let value = match value {
                OptionValue::Flag => OptionJson::Flag(true),
                OptionValue::Number(n) => OptionJson::Number(*n),
                OptionValue::Text(t) => OptionJson::Text(t.clone()),
            };
            (name.to_owned(), value)
        })
        .collect()
}

/// The mean hull left of one ship id, as the JSON has always shown it.
#[derive(Serialize)]
struct ShipHullJson<'a> {
    side: Side,
    id: &'a str,
    ships: usize,
    hull: f64,
    pct: Option<f64>,
}

/// One battle's figures in JSON: a `battle` report's body and a row of
/// `compare`.
#[derive(Serialize)]
struct RowJson<'a> {
    system: &'a str,
    a: &'a str,
    b: &'a str,
    trials: u64,
    outcomes: Rounded<&'a Outcomes>,
    turns_to_decision: Option<&'a TurnsToDecision>,
    winner_hull_left_pct: Option<f64>,
    losses: SidePair<&'a LossCounts>,
    ships_lost: &'a ShipsLost,
    mean_hull_left: Vec<ShipHullJson<'a>>,
    options: BTreeMap<String, OptionJson>,
    side_options: SidePair<BTreeMap<String, OptionJson>>,
    decided_by_turn: Rounded<&'a [DecidedBy]>,
    loss_shares: Rounded<&'a SidePair<LossShares>>,
    side_hull_left: Rounded<&'a SidePair<SideHull>>,
    loss_kinds: Vec<&'static str>,
    escapes: bool,
}

/// `battle --format json`.
#[derive(Serialize)]
struct BattleJson<'a> {
    schema_version: u32,
    broadside_version: &'static str,
    #[serde(flatten)]
    row: RowJson<'a>,
    seed: u64,
    generator: &'static str,
    max_turns: u32,
    rules: Option<&'a str>,
}

/// `compare --format json`.
#[derive(Serialize)]
struct CompareJson<'a> {
    schema_version: u32,
    broadside_version: &'static str,
    scenario: &'a str,
    description: &'a str,
    trials: u64,
    seed: u64,
    generator: &'static str,
    max_turns: u32,
    rules: Option<&'a str>,
    rows: Vec<RowJson<'a>>,
}

fn write_json<T: Serialize>(out: &mut dyn Write, value: &T) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::Internal(e.to_string()))?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// Writes a header and one row per battle; the csv writer quotes any field
/// that needs it (an id holding a comma, a quote or a line break).
fn write_csv(rows: &[BattleRow], run: &Run<'_>, out: &mut dyn Write) -> Result<(), Failure> {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let internal = |e: csv::Error| Failure::Internal(format!("writing CSV: {e}"));
    for (i, row) in rows.iter().enumerate() {
        let fields = row.csv(run);
        if i == 0 {
            writer
                .write_record(fields.iter().map(|(name, _)| name))
                .map_err(internal)?;
        }
        writer
            .write_record(fields.iter().map(|(_, value)| value))
            .map_err(internal)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| Failure::Internal(format!("writing CSV: {e}")))?;
    out.write_all(&bytes)?;
    Ok(())
}

/// `battle --format json` as a value: what the command prints and what the
/// web API answers, from this one function.
pub fn battle_json(row: &BattleRow, run: &Run<'_>) -> Result<serde_json::Value, Failure> {
    to_value(&BattleJson {
        schema_version: SCHEMA_VERSION,
        broadside_version: VERSION,
        row: row.json(),
        seed: run.seed,
        generator: GENERATOR,
        max_turns: run.max_turns,
        rules: run.rules,
    })
}

/// `compare --format json` as a value: what the command prints and what the
/// web API answers, from this one function.
pub fn compare_json(
    title: &ScenarioTitle<'_>,
    rows: &[BattleRow],
    trials: u64,
    run: &Run<'_>,
) -> Result<serde_json::Value, Failure> {
    to_value(&CompareJson {
        schema_version: SCHEMA_VERSION,
        broadside_version: VERSION,
        scenario: title.name,
        description: title.description,
        trials,
        seed: run.seed,
        generator: GENERATOR,
        max_turns: run.max_turns,
        rules: run.rules,
        rows: rows.iter().map(BattleRow::json).collect(),
    })
}

fn to_value<T: Serialize>(value: &T) -> Result<serde_json::Value, Failure> {
    serde_json::to_value(value).map_err(|e| Failure::Internal(e.to_string()))
}

/// The report of `battle`: one battle.
pub fn battle(
    format: &str,
    row: &BattleRow,
    run: &Run<'_>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let style = match format {
        "json" => return write_json(out, &battle_json(row, run)?),
        "csv" => return write_csv(std::slice::from_ref(row), run, out),
        "html" => return html::battle(row, run, out),
        "markdown" => Style::Markdown,
        _ => Style::Text,
    };
    style.heading(
        out,
        &format!(
            "{} battle: {} (A) against {} (B), {} trials, seed {} ({GENERATOR}), at most {} turns",
            row.system, row.a, row.b, row.summary.trials, run.seed, run.max_turns
        ),
    )?;
    write_settings(style, row, run, out)?;
    let o = &row.summary.outcomes;
    let mut table = style.table(&["outcome", "p", "95% interval"]);
    let mut add = |name: String, x: &Proportion| {
        style.row(&mut table, vec![name, percent(x), interval(x)]);
    };
    add(format!("A ({}) wins", row.a), &o.a_wins);
    add(format!("B ({}) wins", row.b), &o.b_wins);
    add("undecided at the turn limit".into(), &o.undecided);
    if o.draws.count > 0 {
        add("draw".into(), &o.draws);
    }
    // A system whose sides can leave shows its escapes even when none was
    // seen, so a zero reads as not seen; one whose sides cannot never does.
    if row.escapes {
        add("A escaped".into(), &o.a_escapes);
        add("B escaped".into(), &o.b_escapes);
    }
    style.put(out, &table)?;
    row.write_details(style, out)
}

/// The rules folder, options and side set-ups a battle was given, as the
/// flags that give them to `battle`, on one line; nothing when it was given
/// none of them.
fn write_settings(
    style: Style,
    row: &BattleRow,
    run: &Run<'_>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut flags = Vec::new();
    if let Some(rules) = run.rules {
        flags.push(format!("--rules {}", shell_word(rules)));
    }
    flags.extend(row.option_flags());
    if !flags.is_empty() {
        style.line(out, &format!("given: {}", flags.join(" ")))?;
    }
    Ok(())
}

/// A value as one shell word: as it is when it holds nothing a shell would
/// act on, else in single quotes.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.,:/=+-".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// A scenario's name and description, as `compare` prints them.
pub struct ScenarioTitle<'a> {
    /// The scenario's name.
    pub name: &'a str,
    /// Its description, possibly empty.
    pub description: &'a str,
}

/// The report of `compare`: one row per system.
pub fn compare(
    format: &str,
    title: &ScenarioTitle<'_>,
    rows: &[BattleRow],
    trials: u64,
    run: &Run<'_>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let style = match format {
        "json" => return write_json(out, &compare_json(title, rows, trials, run)?),
        "csv" => return write_csv(rows, run, out),
        "html" => return html::compare(title, rows, trials, run, out),
        "markdown" => Style::Markdown,
        _ => Style::Text,
    };
    style.heading(
        out,
        &format!(
            "{}: {trials} trials each, seed {} ({GENERATOR}), at most {} turns",
            title.name, run.seed, run.max_turns
        ),
    )?;
    if !title.description.is_empty() {
        style.line(out, title.description)?;
    }
    // The escapes column only when some system in the table has escapes;
    // a system that has none shows a dash there, not a 0 it could not help.
    let escapes = rows.iter().any(|row| row.escapes);
    let mut headers = vec![
        "system",
        "A",
        "B",
        "P(A wins)",
        "P(B wins)",
        "P(undecided)",
        "P(draw)",
    ];
    if escapes {
        headers.push("P(escaped)");
    }
    headers.extend([
        "median turns",
        "winner hull left",
        "A ships lost",
        "B ships lost",
    ]);
    let mut table = style.table(&headers);
    for row in rows {
        let s = &row.summary;
        let o = &s.outcomes;
        let mut cells = vec![
            row.system.clone(),
            row.a.clone(),
            row.b.clone(),
            percent_with_interval(&o.a_wins),
            percent_with_interval(&o.b_wins),
            percent_with_interval(&o.undecided),
            percent(&o.draws),
        ];
        if escapes {
            cells.push(if row.escapes {
                percent(&Proportion::of(
                    o.a_escapes.count + o.b_escapes.count,
                    s.trials,
                ))
            } else {
                NOT_IN_SYSTEM.into()
            });
        }
        cells.extend([
            s.turns_to_decision
                .map_or_else(|| "-".into(), |t| t.median.to_string()),
            s.winner_hull_left_pct
                .map_or_else(|| "-".into(), |h| format!("{h:.0}%")),
            format!("{:.2}", s.ships_lost.mean(Side::A)),
            format!("{:.2}", s.ships_lost.mean(Side::B)),
        ]);
        style.row(&mut table, cells);
    }
    style.put(out, &table)?;
    if escapes && rows.iter().any(|row| !row.escapes) {
        style.line(
            out,
            &format!("{NOT_IN_SYSTEM}: the system has no such ending (its sides cannot escape)"),
        )?;
    }
    for row in rows {
        writeln!(out)?;
        style.heading(
            out,
            &format!("{}: {} (A) against {} (B)", row.system, row.a, row.b),
        )?;
        write_settings(style, row, run, out)?;
        row.write_details(style, out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A percentage with its interval as fractions, formatted.
    fn check(p: f64, ci95: [f64; 2], expected: &str) {
        let shown = percent(&Proportion { p, ci95, count: 0 });
        assert_eq!(shown, expected, "{p} in {ci95:?}");
    }

    /// The two examples, and the edges: an interval a whole point
    /// wide or wider keeps whole percents, a narrow one earns decimals, and
    /// nothing is ever shown to more than six.
    #[test]
    fn percent_has_the_digits_its_interval_justifies() {
        check(0.0021, [0.0019, 0.0024], "0.21%");
        check(0.76, [0.751, 0.770], "76%");
        check(0.7649, [0.702, 0.818], "76%");
        check(0.0, [0.0, 0.0188], "0%");
        check(0.5, [0.499, 0.501], "50.0%");
        check(0.5, [0.4999, 0.5001], "50.00%");
        check(0.25, [0.25, 0.25], "25.000000%");
        // One trial in 200 happened: not 0%; all but one: not 100%.
        check(0.005, [0.0009, 0.0277], "<1%");
        check(0.995, [0.9723, 0.9991], ">99%");
        check(0.00004, [0.00001, 0.0002], "<0.01%");
    }

    /// An interval is printed with its proportion's digits, rounded
    /// outwards: 74.39–83.53% is 74–84%, 0–1.26% is 0–2%, and the issue's
    /// 0.19–0.24% stays as it is.
    #[test]
    fn intervals_round_outwards() {
        let shown = |ci95: [f64; 2]| {
            interval(&Proportion {
                p: 0.5,
                ci95,
                count: 0,
            })
        };
        assert_eq!(shown([0.7439, 0.8353]), "74–84%");
        assert_eq!(shown([0.0, 0.0126]), "0–2%");
        assert_eq!(shown([0.0019, 0.0024]), "0.19–0.24%");
        assert_eq!(shown([0.29, 0.31]), "29–31%");
    }

    /// A value stays one shell word: plain text as it is, anything a shell
    /// would act on in single quotes, a quote inside closed and reopened.
    #[test]
    fn values_are_quoted_as_shell_words() {
        assert_eq!(shell_word("8,0"), "8,0");
        assert_eq!(shell_word("6,0;6,-1"), "'6,0;6,-1'");
        assert_eq!(shell_word("3,4 5,6"), "'3,4 5,6'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }

    /// Tenths of a start of 50: 0 is its own bucket, 5 (10%) is the top
    /// of the first tenth, 6 the bottom of the second, 50 the last.
    #[test]
    fn hull_left_falls_in_tenths_of_the_start() {
        let mut counts = vec![0; 51];
        for left in [0, 5, 6, 50, 50] {
            counts[left] += 1;
        }
        let hull = HullLeft {
            trials: 5,
            mean: 0.0,
            mean_pct: None,
            q1: 0,
            median: 0,
            q3: 0,
            counts,
        };
        assert_eq!(tenths(&hull, 50), [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
    }
}

//! Where a key is set in a rule system's TOML data file, for messages.

use broadside_core::KeyLines;

/// A TOML data file's text, searched for the line that sets a dotted key
/// (`laser-cannon.dtm`, `target-lock.die`, `row[3].rolls`).
///
/// A plain search, not a parse: the key's table header (`[laser-cannon]`,
/// the fourth `[[row]]`), then the first line of that table that starts
/// with the field's name. Parts after the field (`effect.multiplier` of
/// `effect = { … }`) are taken to be on the field's line; an element of an
/// array written one to a line (`severity[2].text`) on its own line, and
/// the parts after it on that line too. A table found without its field
/// gives the table's header line.
#[derive(Debug, Clone, Copy)]
pub struct TomlLines<'a>(pub &'a str);

impl KeyLines for TomlLines<'_> {
    fn line_of(&self, key: &str) -> Option<usize> {
        let text = self.0;
        let parts: Vec<&str> = key.split('.').collect();
        // The longest header that exists wins: `[damage]` then
        // `magazine-warheads` rather than a top-level `damage`.
        for split in (0..parts.len()).rev() {
            let (header, rest) = parts.split_at(split);
            let Some(field) = rest.first() else { continue };
            let Some((start, end)) = table_lines(text, header) else {
                continue;
            };
            let (name, index) = split_index(field);
            let found = text
                .lines()
                .enumerate()
                .take(end)
                .skip(start)
                .find(|(_, line)| sets(line, name))
                .map(|(i, _)| i);
            if let Some(at) = found {
                return match index {
                    None => Some(at + 1),
                    Some(i) => element_line(text, at, i).map(|line| line + 1),
                };
            }
            if !header.is_empty() {
                return Some(start);
            }
        }
        None
    }
}

/// The 0-based line of element `index` of the array set on line `at`: the
/// line itself when the array is closed there, else the `index`-th line
/// after it that starts an element, one element to a line (a table, a
/// string, a number, a nested array), as the data files write them.
fn element_line(text: &str, at: usize, index: usize) -> Option<usize> {
    let mut lines = text.lines().enumerate().skip(at);
    let (_, first) = lines.next()?;
    let mut depth = depth_after(first, 0);
    if depth == 0 {
        return Some(at);
    }
    let mut seen = 0;
    for (i, line) in lines {
        let code = line.trim_start();
        let starts =
            depth == 1 && !code.is_empty() && !code.starts_with('#') && !code.starts_with(']');
        if starts {
            if seen == index {
                return Some(i);
            }
            seen += 1;
        }
        depth = depth_after(line, depth);
        if depth == 0 {
            return None;
        }
    }
    None
}

/// `rows[2]` as `("rows", Some(2))`; `dtm` as `("dtm", None)`.
fn split_index(part: &str) -> (&str, Option<usize>) {
    match part.strip_suffix(']').and_then(|p| p.split_once('[')) {
        Some((name, index)) => (name, index.parse().ok()),
        None => (part, None),
    }
}

/// Whether `line` sets the key `name` (`name = …`).
fn sets(line: &str, name: &str) -> bool {
    line.trim_start()
        .strip_prefix(name)
        .is_some_and(|rest| rest.trim_start().starts_with('='))
}

/// The lines of the table named by `header` (the last part maybe `row[3]`,
/// the fourth of an array of tables), from the line after its header up to
/// the next header, as 0-based indices `start..end`. An empty header is the
/// top level, before any header.
fn table_lines(text: &str, header: &[&str]) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let start = match header.split_last() {
        None => 0,
        Some((last, parents)) => {
            let (last, index) = split_index(last);
            let mut name: Vec<&str> = parents.to_vec();
            name.push(last);
            let name = name.join(".");
            let wanted = match index {
                None => format!("[{name}]"),
                Some(_) => format!("[[{name}]]"),
            };
            // A header may carry a comment after it.
            let is_wanted = |line: &&str| {
                line.split('#')
                    .next()
                    .is_some_and(|code| code.trim() == wanted)
            };
            lines
                .iter()
                .enumerate()
                .filter(|(_, line)| is_wanted(line))
                .nth(index.unwrap_or(0))?
                .0
                + 1
        }
    };
    // A row of a multi-line array (`["engine", "bridge"],`) starts with `[`
    // as a header does; only a `[` outside every array opens a table.
    let mut depth = 0usize;
    let end = lines
        .iter()
        .enumerate()
        .skip(start)
        .find(|(_, line)| {
            let header = depth == 0 && line.trim_start().starts_with('[');
            depth = depth_after(line, depth);
            header
        })
        .map_or(lines.len(), |(i, _)| i);
    Some((start, end))
}

/// How many arrays are open after `line`, `depth` being open before it:
/// brackets inside strings and comments do not count.
fn depth_after(line: &str, mut depth: usize) -> usize {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '#' => break,
                '[' => depth += 1,
                ']' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    // A header line (`[ship]`, `[[row]]`) closes what it opens.
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "\
# a comment
head-on = 10

[laser-cannon]   # the first weapon
name = \"Laser Cannon\"
dtm = 0

[target-lock]
die = 10

[[row]]
rolls = [1, 2]

[[row]]
rolls = [3, 4]
effect = { kind = \"hull\", multiplier = 2 }

[frigate]
layout = [
  [\"engine\", \"bridge # not a comment\"],
  [\"cannon\", \"]\"],
]
crew = 3
";

    fn check(key: &str, line: Option<usize>) {
        assert_eq!(TomlLines(TEXT).line_of(key), line, "{key}");
    }

    #[test]
    fn a_key_is_found_under_its_table_header() {
        check("head-on", Some(2));
        check("laser-cannon.dtm", Some(6));
        check("target-lock.die", Some(9));
        check("row[1].rolls", Some(15));
        check("row[1].effect.multiplier", Some(16));
        // A missing field points at its table; a missing table at nothing;
        // the rows of a multi-line array do not end their table.
        check("laser-cannon.range", Some(4));
        check("frigate.hull", Some(18));
        check("frigate.crew", Some(23));
        check("destroyer.hull", None);
        // An element of an array: the field's line when the array is on
        // it, else the element's own line; past the last, nothing.
        check("row[1].rolls[0]", Some(15));
        check("row[0].rolls[1].x", Some(12));
        check("frigate.layout[0]", Some(20));
        check("frigate.layout[1]", Some(21));
        check("frigate.layout[2]", None);
    }
}

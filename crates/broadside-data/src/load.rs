//! Reading a rule system's TOML files: which files, each parsed with its line on a syntax error, and the messages every loader gives.

use broadside_core::{DataProblems, SourceFile};
use serde::de::DeserializeOwned;

use crate::TomlLines;

/// The files handed to a rule system's loader, checked against the names
/// the system reads.
#[derive(Debug, Clone, Copy)]
pub struct Sources<'a> {
    files: &'a [SourceFile],
}

impl<'a> Sources<'a> {
    /// The files, each one whose name is not among the system's `embedded`
    /// data of record (name and text, as `embed!` gives them: a ruleset
    /// consists of the same files) recorded as a problem: `not {system}
    /// ruleset file (expected …)`, `system` with its article (`a
    /// percentile`, `an action-d10`).
    pub fn check(
        files: &'a [SourceFile],
        embedded: &[(&str, &str)],
        system: &str,
        problems: &mut DataProblems,
    ) -> Sources<'a> {
        let expected: Vec<&str> = embedded.iter().map(|&(name, _)| name).collect();
        for file in files {
            if !expected.contains(&file.name.as_str()) {
                problems.push(
                    &file.name,
                    "",
                    format!(
                        "not {system} ruleset file (expected {})",
                        expected.join(", ")
                    ),
                );
            }
        }
        Sources { files }
    }

    /// Parses the file of this name, recording a missing file, or a syntax
    /// error at its line; `None` when either was recorded.
    pub fn parse<T: DeserializeOwned>(&self, name: &str, problems: &mut DataProblems) -> Option<T> {
        let file = problems.source(self.files, name)?;
        toml::from_str(&file.text)
            .map_err(|e| problems.unreadable(file, e.span().map(|s| s.start), e.message()))
            .ok()
    }

    /// The text of the file of this name (empty when there is none), to
    /// find the line of a faulty key.
    pub fn text(&self, name: &str) -> &'a str {
        self.files
            .iter()
            .find(|f| f.name == name)
            .map_or("", |f| f.text.as_str())
    }

    /// The file of this name, searched for the lines of keys.
    pub fn lines(&self, name: &str) -> TomlLines<'a> {
        TomlLines(self.text(name))
    }
}

/// Splits a counted list entry, `"torpedo x2"`, into its id and its count
/// (1 when none is written); the count's range is the caller's to check.
pub fn counted(entry: &str) -> Result<(&str, i64), String> {
    match entry.split_once(" x") {
        None => Ok((entry.trim(), 1)),
        Some((id, count)) => match count.trim().parse::<i64>() {
            Ok(n) => Ok((id.trim(), n)),
            _ => Err(format!(
                "'{entry}': the count after 'x' must be a whole number from 1"
            )),
        },
    }
}

/// The message for a name the data does not define:
/// `unknown weapon 'lazer' (known: laser, torpedo)`.
pub fn unknown<'k>(what: &str, name: &str, known: impl IntoIterator<Item = &'k str>) -> String {
    let known: Vec<&str> = known.into_iter().collect();
    format!("unknown {what} '{name}' (known: {})", known.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_counted(entry: &str, expected: Result<(&str, i64), &str>) {
        assert_eq!(counted(entry), expected.map_err(str::to_owned), "{entry}");
    }

    #[test]
    fn a_counted_entry_is_its_id_and_count() {
        check_counted("laser", Ok(("laser", 1)));
        check_counted("torpedo x2", Ok(("torpedo", 2)));
        check_counted(" icm x 4 ", Ok(("icm", 4)));
        check_counted(
            "torpedo xtwo",
            Err("'torpedo xtwo': the count after 'x' must be a whole number from 1"),
        );
    }

    #[test]
    fn files_are_checked_parsed_and_searched() {
        let files = vec![
            SourceFile {
                name: "ships.toml".into(),
                text: "[frigate]\nhull = 1\n".into(),
            },
            SourceFile {
                name: "extra.toml".into(),
                text: "x = [".into(),
            },
        ];
        let mut problems = DataProblems::default();
        let sources = Sources::check(
            &files,
            &[("ships.toml", ""), ("rules.toml", "")],
            "a test",
            &mut problems,
        );
        let ships: Option<toml::Table> = sources.parse("ships.toml", &mut problems);
        assert!(ships.is_some());
        let rules: Option<toml::Table> = sources.parse("rules.toml", &mut problems);
        assert!(rules.is_none());
        let extra: Option<toml::Table> = sources.parse("extra.toml", &mut problems);
        assert!(extra.is_none());
        assert_eq!(sources.text("none.toml"), "");
        assert_eq!(
            broadside_core::KeyLines::line_of(&sources.lines("ships.toml"), "frigate.hull"),
            Some(2)
        );
        let messages: Vec<String> = problems.stop().0.iter().map(ToString::to_string).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert_eq!(
            messages[0],
            "extra.toml: not a test ruleset file (expected ships.toml, rules.toml)"
        );
        assert_eq!(messages[1], "rules.toml: the file is missing");
        assert!(
            messages[2].starts_with("extra.toml: line 1: "),
            "{}",
            messages[2]
        );
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        assert_eq!(
            unknown("weapon", "lazer", ["laser", "torpedo"]),
            "unknown weapon 'lazer' (known: laser, torpedo)"
        );
    }
}

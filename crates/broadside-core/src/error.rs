//! Typed errors shared by every rule system.
//!
//! Each variant says whose fault it is: [`ResolveError`] is almost always the
//! user's (bad input, exit code 2), except [`ResolveError::Internal`], which is
//! ours (exit code 1). Data errors carry the file and key they were found at.

use std::fmt;

use crate::dice::DiceError;
use crate::ruleset::SourceFile;

/// Why an attack, engagement or query could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// The dice could not give a face (scripted dice ran out or were impossible).
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// A name that is not in the ruleset's data.
    #[error("unknown {kind} '{name}' ({}known: {known})", DidYouMean(suggestion.as_deref()))]
    Unknown {
        /// What kind of thing: ship, weapon, table, option value...
        kind: &'static str,
        /// The name given.
        name: String,
        /// The known name the given one most likely misspells, if any.
        suggestion: Option<String>,
        /// The names that would have been accepted, comma-separated.
        known: String,
    },
    /// The rules forbid the declared action; it is refused, not missed.
    #[error("refused: {0}")]
    Refused(String),
    /// An option is missing, out of range or inconsistent with another.
    #[error("--{option}: {message}")]
    BadOption {
        /// The option's long name, without dashes.
        option: String,
        /// What is wrong with it.
        message: String,
    },
    /// A broken invariant of our own code: a bug, not bad input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ResolveError {
    /// An unknown name, listing the names that are known.
    pub fn unknown<'a>(
        kind: &'static str,
        name: &str,
        known: impl IntoIterator<Item = &'a str>,
    ) -> ResolveError {
        let known: Vec<&str> = known.into_iter().collect();
        ResolveError::Unknown {
            kind,
            name: name.to_owned(),
            suggestion: did_you_mean(name, known.iter().copied()).map(str::to_owned),
            // "(known: )" read as a glitch when the data defines none.
            known: if known.is_empty() {
                "none".to_owned()
            } else {
                known.join(", ")
            },
        }
    }

    /// A bad option value.
    pub fn bad_option(option: &str, message: impl Into<String>) -> ResolveError {
        ResolveError::BadOption {
            option: option.to_owned(),
            message: message.into(),
        }
    }

    /// Whether the error is the user's input rather than a bug of ours.
    pub fn is_user_error(&self) -> bool {
        !matches!(self, ResolveError::Internal(_))
    }
}

/// How alike a misspelling and a known name must be (Jaro similarity) for
/// the name to be suggested: the threshold clap uses for subcommands.
const SUGGEST_ABOVE: f64 = 0.7;

/// The known name most like `name`, if any is alike enough to be what the
/// user meant (`battlship` → `battleship`).
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|candidate| (strsim::jaro(name, candidate), candidate))
        .filter(|&(similarity, _)| similarity > SUGGEST_ABOVE)
        // The first of equally alike names wins, so the answer does not
        // depend on anything but the order the names are known in.
        .fold(
            None,
            |best: Option<(f64, &str)>, (similarity, candidate)| match best {
                Some((kept, _)) if kept >= similarity => best,
                _ => Some((similarity, candidate)),
            },
        )
        .map(|(_, candidate)| candidate)
}

/// Renders a suggestion as the start of an unknown name's parenthesis.
struct DidYouMean<'a>(Option<&'a str>);

impl fmt::Display for DidYouMean<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(name) => write!(f, "did you mean '{name}'? "),
            None => Ok(()),
        }
    }
}

/// One problem found in a ruleset's data, with where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// The file, as named in the ruleset source (`ships.toml`).
    pub file: String,
    /// The dotted key path inside the file (`ship.frigate.hull`), or empty
    /// when the whole file is at fault.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}: {}: {}", self.file, self.key, self.message)
        }
    }
}

/// Every problem found while validating a ruleset's data; never empty.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct DataErrors(pub Vec<DataError>);

impl fmt::Display for DataErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for error in &self.0 {
            if !first {
                f.write_str("\n")?;
            }
            first = false;
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

/// Collects data problems while validation goes on, so that every problem is
/// reported at once instead of the first alone.
#[derive(Debug, Default)]
pub struct DataProblems {
    errors: Vec<DataError>,
}

impl DataProblems {
    /// Records one problem.
    pub fn push(&mut self, file: &str, key: impl Into<String>, message: impl Into<String>) {
        self.errors.push(DataError {
            file: file.to_owned(),
            key: key.into(),
            message: message.into(),
        });
    }

    /// The file of this name among a ruleset's files, or `None` with a
    /// problem recorded saying it is missing.
    pub fn source<'a>(&mut self, files: &'a [SourceFile], name: &str) -> Option<&'a SourceFile> {
        let found = files.iter().find(|f| f.name == name);
        if found.is_none() {
            self.push(name, "", "the file is missing");
        }
        found
    }

    /// Records a file that could not be read as data, at the line holding
    /// byte `offset` when the reader says where.
    pub fn unreadable(&mut self, file: &SourceFile, offset: Option<usize>, message: &str) {
        let line = offset
            .map(|at| format!("line {}: ", line_at(&file.text, at)))
            .unwrap_or_default();
        self.push(&file.name, "", format!("{line}{}", message.trim()));
    }

    /// Records each file that defines nothing the other files could name,
    /// given as `(file, defines nothing, what it should define)`, as one
    /// problem; returns whether any did. A loader stops there rather than
    /// report every name taken from the empty file (an empty `weapons.toml`
    /// would otherwise give one problem per weapon a ship or table names).
    pub fn none_defined(&mut self, files: &[(&str, bool, &str)]) -> bool {
        let mut any = false;
        for &(file, empty, what) in files {
            if empty {
                self.push(
                    file,
                    "",
                    format!("defines no {what}: the rules need at least one"),
                );
                any = true;
            }
        }
        any
    }

    /// Every problem found so far, for a loader that cannot go on.
    pub fn stop(self) -> DataErrors {
        DataErrors(self.errors)
    }

    /// Whether no problem was found.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// `Ok(value)` when no problem was found, otherwise every problem.
    pub fn finish<T>(self, value: T) -> Result<T, DataErrors> {
        if self.errors.is_empty() {
            Ok(value)
        } else {
            Err(DataErrors(self.errors))
        }
    }
}

/// The 1-based line of `text` that holds byte `offset` (an offset past the
/// end counts as the last line).
///
/// Counting newlines before the offset, rather than the lines of the text
/// before it, keeps a token that starts its line on that line: the text
/// before it ends with a newline, which `str::lines` would not count.
pub fn line_at(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    1 + text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::line_at;

    fn check(text: &str, offset: usize, line: usize) {
        assert_eq!(line_at(text, offset), line, "offset {offset} in {text:?}");
    }

    #[test]
    fn a_token_at_the_start_of_a_line_is_on_that_line() {
        let text = "name = \"x\"\nseed = 1\n[systems]\n";
        check(text, 0, 1);
        check(text, 5, 1);
        check(text, text.find("seed").unwrap(), 2);
        check(text, text.find("[systems]").unwrap(), 3);
        check(text, text.find("= 1").unwrap(), 2);
    }

    #[test]
    fn an_offset_past_the_end_is_the_last_line() {
        check("a\nb", 99, 2);
        check("", 0, 1);
    }

    /// Each empty file is one problem, and the loader is told to stop only
    /// when one is empty.
    #[test]
    fn an_empty_file_is_one_problem() {
        let mut problems = super::DataProblems::default();
        assert!(!problems.none_defined(&[("weapons.toml", false, "weapon")]));
        assert!(problems.is_empty());
        assert!(problems.none_defined(&[
            ("weapons.toml", true, "weapon"),
            ("ships.toml", false, "ship"),
        ]));
        let errors = problems.stop();
        assert_eq!(
            errors.to_string(),
            "weapons.toml: defines no weapon: the rules need at least one"
        );
    }

    /// The suggestion is the known name most like the given one, and none
    /// when nothing is alike.
    fn check_suggestion(name: &str, known: &[&str], expected: Option<&str>) {
        assert_eq!(
            super::did_you_mean(name, known.iter().copied()),
            expected,
            "{name} among {known:?}"
        );
    }

    const SHIPS: &[&str] = &["assault-scout", "battleship", "destroyer", "frigate"];

    #[test]
    fn a_misspelling_suggests_the_name_it_is_most_like() {
        check_suggestion("battlship", SHIPS, Some("battleship"));
        check_suggestion("frigat", SHIPS, Some("frigate"));
        check_suggestion("destroyer", SHIPS, Some("destroyer"));
        check_suggestion("zzz", SHIPS, None);
        check_suggestion("scout", &[], None);
        // Equally alike names: the first known wins.
        check_suggestion("ab", &["ax", "ay"], None);
        check_suggestion("abcx", &["abcy", "abcz"], Some("abcy"));
    }

    #[test]
    fn an_unknown_name_s_message_carries_the_suggestion() {
        let error = super::ResolveError::unknown("ship", "battlship", SHIPS.iter().copied());
        assert_eq!(
            error.to_string(),
            "unknown ship 'battlship' (did you mean 'battleship'? \
             known: assault-scout, battleship, destroyer, frigate)"
        );
        let error = super::ResolveError::unknown("ship", "zzz", SHIPS.iter().copied());
        assert_eq!(
            error.to_string(),
            "unknown ship 'zzz' (known: assault-scout, battleship, destroyer, frigate)"
        );
        let error = super::ResolveError::unknown("weapon", "laser", []);
        assert_eq!(error.to_string(), "unknown weapon 'laser' (known: none)");
    }
}

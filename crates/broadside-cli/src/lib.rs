//! The `broadside` command as a library: the binary's `main` is one call
//! into it, and the scenario reader and the web API's request parser are
//! entry points a generated-input harness can call without a process.
//!
//! Exit codes: 0 success, 2 bad input (one line on stderr naming what and
//! where), 1 internal failure.

pub mod cli;
pub mod commands;
pub mod registry;
pub mod report;
pub mod scenario;
pub mod serve;
pub mod shard;
pub mod sweep;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use broadside_core::{DataErrors, ResolveError, Ruleset};
use clap::error::{ContextKind, ContextValue, ErrorKind};

/// Why a command failed, and so which exit code it ends with.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: arguments, data files, scenarios. Exit code 2.
    Input(String),
    /// A bug of ours. Exit code 1.
    Internal(String),
    /// The reader closed our output (`| head`): nothing more to say.
    Closed,
}

impl From<ResolveError> for Failure {
    fn from(error: ResolveError) -> Failure {
        if error.is_user_error() {
            Failure::Input(one_line(&error.to_string()))
        } else {
            Failure::Internal(one_line(&error.to_string()))
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Failure {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            return Failure::Closed;
        }
        Failure::Internal(format!("writing output: {error}"))
    }
}

/// Reports data problems, one per line, under a first line saying whose data.
pub fn data_failure(origin: &str, errors: &DataErrors) -> Failure {
    let mut text = format!("{} has {} problem(s):", one_line(origin), errors.0.len());
    for error in &errors.0 {
        text.push_str(&format!("\n  {}", one_line(&error.to_string())));
    }
    Failure::Input(text)
}

/// Runs the command line of this process and says how it ended.
pub fn main() -> ExitCode {
    let systems: Vec<Box<dyn Ruleset>> = match registry::RULESETS
        .iter()
        .map(|r| {
            r.load_embedded()
                .map_err(|e| data_failure(&format!("the built-in {} data", r.id), &e))
        })
        .collect()
    {
        Ok(systems) => systems,
        Err(failure) => return report(failure),
    };
    let matches = match cli::command(&systems).try_get_matches() {
        Ok(matches) => matches,
        Err(error) if !error.use_stderr() => {
            // Help and version go to stdout in full, with success.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // A bare `broadside` (or `broadside battle`) asks what there is:
            // the help answers it, on stdout, as cargo's does.
            let help = error.render();
            let _ = if std::io::stdout().is_terminal() {
                writeln!(std::io::stdout(), "{}", help.ansi())
            } else {
                writeln!(std::io::stdout(), "{help}")
            };
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // A usage error is bad input: one line, as every other error.
            let mut rendered = error.render().to_string();
            // The value the user typed is escaped in place first, so a line
            // break inside it does not end the message's first line.
            for kind in [ContextKind::InvalidValue, ContextKind::InvalidSubcommand] {
                if let Some(ContextValue::String(value)) = error.get(kind) {
                    rendered = rendered.replace(value.as_str(), &one_line(value));
                }
            }
            let first = rendered.lines().next().unwrap_or("error: bad arguments");
            let text = first.strip_prefix("error: ").unwrap_or(first);
            // clap lists missing arguments on lines of their own; name them
            // on the one line.
            let text = match error.get(ContextKind::InvalidArg) {
                Some(ContextValue::Strings(args)) if text.ends_with(':') => {
                    format!("{text} {}", args.join(", "))
                }
                _ => text.to_owned(),
            };
            let known = [ContextKind::ValidValue, ContextKind::ValidSubcommand]
                .into_iter()
                .find_map(|kind| match error.get(kind) {
                    Some(ContextValue::Strings(values)) => Some(values.join(", ")),
                    _ => None,
                });
            // clap's own did-you-mean, which its later lines would carry.
            let suggested = [
                ContextKind::SuggestedSubcommand,
                ContextKind::SuggestedArg,
                ContextKind::SuggestedValue,
            ]
            .into_iter()
            .find_map(|kind| match error.get(kind) {
                Some(ContextValue::String(value)) => Some(vec![value.clone()]),
                Some(ContextValue::Strings(values)) if !values.is_empty() => Some(values.clone()),
                _ => None,
            });
            let hint = match suggested {
                Some(suggested) => format!("did you mean '{}'? ", suggested.join("' or '")),
                None => String::new(),
            };
            let text = match known {
                Some(known) => format!("{text} ({hint}known: {known})"),
                None => format!("{text} ({hint}see --help)"),
            };
            return report(Failure::Input(one_line(&text)));
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match commands::run(&systems, &matches, &mut out).and_then(|()| Ok(out.flush()?)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => report(failure),
    }
}

fn report(failure: Failure) -> ExitCode {
    let (code, text) = match failure {
        Failure::Input(text) => (2, text),
        Failure::Internal(text) => (1, text),
        Failure::Closed => return ExitCode::SUCCESS,
    };
    // Each line is made safe once more: the line breaks left are the ones a
    // data report puts between its problems.
    let lines: Vec<String> = text.split('\n').map(one_line).collect();
    let _ = writeln!(std::io::stderr(), "error: {}", lines.join("\n"));
    ExitCode::from(code)
}

/// The longest quoted text a message repeats, in characters; longer ones end
/// in an ellipsis.
const QUOTE_LIMIT: usize = 80;

/// A message made safe to print as one line: control characters (a line
/// break or an escape sequence in an id or an argument) are shown escaped
/// rather than acted on, and text between quotes is cut to [`QUOTE_LIMIT`]
/// characters, so a megabyte-long value cannot become a megabyte-long
/// message. Applying it twice changes nothing more.
pub fn one_line(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            escaped.extend(c.escape_default());
        } else {
            escaped.push(c);
        }
    }
    let mut out = String::with_capacity(escaped.len());
    let mut rest = escaped.as_str();
    // An opening quote follows no letter or digit, so the apostrophe of
    // "the ship's hull" opens nothing.
    while let Some(open) = rest.char_indices().find_map(|(i, c)| {
        let opens = (c == '\'' || c == '"')
            && !rest[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
        opens.then_some(i)
    }) {
        let quote = rest[open..].chars().next().unwrap_or('\'');
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(quote) else {
            rest = after;
            continue;
        };
        let quoted = &after[..close];
        if quoted.chars().count() > QUOTE_LIMIT {
            out.extend(quoted.chars().take(QUOTE_LIMIT - 1));
            out.push('…');
        } else {
            out.push_str(quoted);
        }
        out.push(quote);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::{QUOTE_LIMIT, one_line};

    fn check(text: &str, expected: &str) {
        let once = one_line(text);
        assert_eq!(once, expected);
        assert_eq!(one_line(&once), once, "applying it twice changes nothing");
    }

    #[test]
    fn control_characters_are_escaped() {
        check("unknown ship 'a\nb'", "unknown ship 'a\\nb'");
        check("id 'x\u{1b}[31m'", "id 'x\\u{1b}[31m'");
        check("tab\there", "tab\\there");
    }

    #[test]
    fn long_quoted_text_is_cut() {
        let long = "x".repeat(5000);
        let cut = format!("{}…", "x".repeat(QUOTE_LIMIT - 1));
        check(
            &format!("unknown ship '{long}' (known: a, b)"),
            &format!("unknown ship '{cut}' (known: a, b)"),
        );
        check(
            &format!("invalid type: string \"{long}\""),
            &format!("invalid type: string \"{cut}\""),
        );
    }

    #[test]
    fn short_quotes_and_unpaired_quotes_stay() {
        check("it's 'fine' here", "it's 'fine' here");
        check("the ship's hull", "the ship's hull");
        let long = format!("the frigate's {} 'id'", "y".repeat(200));
        check(&long, &long);
    }
}

//! The `broadside` binary: parses arguments, loads rule systems, runs the command, prints.
//!
//! Exit codes: 0 success, 2 bad input (one line on stderr naming what and
//! where), 1 internal failure.

mod cli;
mod commands;
mod registry;

use std::io::Write;
use std::process::ExitCode;

use broadside_core::{DataErrors, ResolveError, Ruleset};
use clap::error::{ContextKind, ContextValue};

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
            Failure::Input(error.to_string())
        } else {
            Failure::Internal(error.to_string())
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
    let mut text = format!("{origin} has {} problem(s):", errors.0.len());
    for error in &errors.0 {
        text.push_str(&format!("\n  {error}"));
    }
    Failure::Input(text)
}

fn main() -> ExitCode {
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
        Err(error) => {
            // A usage error is bad input: one line, as every other error.
            let rendered = error.render().to_string();
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
            let text = match known {
                Some(known) => format!("{text} (known: {known})"),
                None => format!("{text} (see --help)"),
            };
            return report(Failure::Input(text));
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
    let _ = writeln!(std::io::stderr(), "error: {text}");
    ExitCode::from(code)
}

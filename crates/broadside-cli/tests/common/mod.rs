//! Shared `check` helpers for the end-to-end tests of the `broadside` binary: one per area, so an API change touches one place.
//!
//! The binary is the one Cargo builds for this package's integration tests
//! (`CARGO_BIN_EXE_broadside`): `cargo test` builds it before it runs them,
//! from the same sources, so a test can never run a stale binary.
//!
//! Snapshot helpers write named snapshots to `tests/snapshots/`, each
//! recording its inputs (`info`) and the source it reproduces
//! (`description`), named by the test and not by this module.

#![allow(
    dead_code,
    unused_imports,
    reason = "each test binary uses a different part of the helpers"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// The binary
// ---------------------------------------------------------------------------

/// The `broadside` binary Cargo built for these tests.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_broadside")
}

/// A file of the workspace, by its path from the workspace root.
pub fn workspace_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// Runs the binary with `args`: (exit code, stdout, stderr).
pub fn run_cli(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(binary())
        .args(args)
        // Colours and terminal widths must not depend on who runs the tests.
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("the broadside binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

fn assert_no_panic(args: &[&str], stderr: &str) {
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{args:?} panicked:\n{stderr}"
    );
}

/// Runs a command that must succeed, returning its stdout.
pub fn cli_ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = run_cli(args);
    assert_no_panic(args, &stderr);
    assert_eq!(code, 0, "{args:?} failed:\n{stderr}");
    assert!(stderr.is_empty(), "{args:?} wrote to stderr:\n{stderr}");
    stdout
}

/// Runs a command that must succeed and snapshots its stdout by name.
pub fn check_cli(name: &str, source: &str, args: &[&str]) {
    let stdout = cli_ok(args);
    let inputs = json!({ "args": args });
    insta::with_settings!({
        info => &inputs,
        description => source,
        omit_expression => true,
        snapshot_path => Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"),
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(name, stdout);
    });
}

/// Runs a command that must succeed with JSON output, returning it parsed.
pub fn cli_json(args: &[&str]) -> Value {
    let stdout = cli_ok(args);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}):\n{stdout}"))
}

/// Asserts that bad input is refused as the CLI contract says: exit code 2,
/// nothing on stdout, exactly one line on stderr, starting `error: ` and
/// containing `fragment`, and no panic.
pub fn check_cli_error(args: &[&str], fragment: &str) {
    let (code, stdout, stderr) = run_cli(args);
    assert_no_panic(args, &stderr);
    assert_eq!(code, 2, "{args:?}: exit code; stderr:\n{stderr}");
    assert!(stdout.is_empty(), "{args:?}: stdout not empty:\n{stdout}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "{args:?}: the error should be one line, got:\n{stderr}"
    );
    assert!(
        lines[0].starts_with("error: "),
        "{args:?}: the error should start 'error: ', got:\n{stderr}"
    );
    assert!(
        lines[0].contains(fragment),
        "{args:?}: the error should mention '{fragment}', got:\n{stderr}"
    );
}

/// Asserts that a bad scenario is refused as the CLI contract says for
/// located input: exit code 2, nothing on stdout, a first line starting
/// `error: `, `fragment` on one of the message's lines, and each problem
/// that names its line and column followed by that line of the file and a
/// caret under the column.
pub fn check_cli_scenario_error(args: &[&str], fragment: &str) {
    let (code, stdout, stderr) = run_cli(args);
    assert_no_panic(args, &stderr);
    assert_eq!(code, 2, "{args:?}: exit code; stderr:\n{stderr}");
    assert!(stdout.is_empty(), "{args:?}: stdout not empty:\n{stdout}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines.first().is_some_and(|l| l.starts_with("error: ")),
        "{args:?}: the error should start 'error: ', got:\n{stderr}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(fragment) && !l.trim_start().starts_with('|')),
        "{args:?}: the error should mention '{fragment}', got:\n{stderr}"
    );
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = line.find(": line ") else {
            continue;
        };
        let rest = &line[at + ": line ".len()..];
        let Some((number, rest)) = rest.split_once(", column ") else {
            continue;
        };
        let column: usize = rest
            .split(':')
            .next()
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("{args:?}: no column in {line}"));
        let text = lines.get(i + 1).unwrap_or(&"");
        let caret = lines.get(i + 2).unwrap_or(&"");
        let prefix = format!("{number} | ");
        let shown = text.trim_start();
        assert!(
            shown.starts_with(&prefix),
            "{args:?}: line {number} of the file should follow:\n{stderr}"
        );
        let indent = text.len() - shown.len() + prefix.len();
        assert_eq!(
            caret.chars().position(|c| c == '^'),
            Some(indent + column - 1),
            "{args:?}: the caret should be under column {column}:\n{stderr}"
        );
    }
}

/// Asserts that bad ruleset data is refused: exit code 2, nothing on stdout,
/// a first line starting `error: `, and every fragment (the file, the key,
/// the value) somewhere on stderr. Data errors may list one problem per line
/// under the first.
pub fn check_cli_data_error(args: &[&str], fragments: &[&str]) {
    let (code, stdout, stderr) = run_cli(args);
    assert_no_panic(args, &stderr);
    assert_eq!(code, 2, "{args:?}: exit code; stderr:\n{stderr}");
    assert!(stdout.is_empty(), "{args:?}: stdout not empty:\n{stdout}");
    assert!(
        stderr.starts_with("error: "),
        "{args:?}: the error should start 'error: ', got:\n{stderr}"
    );
    for fragment in fragments {
        assert!(
            stderr.contains(fragment),
            "{args:?}: the error should mention '{fragment}', got:\n{stderr}"
        );
    }
}

// ---------------------------------------------------------------------------
// Files the binary reads
// ---------------------------------------------------------------------------

/// A fresh folder under the system's temporary folder, named by `kind` and
/// `tag` for a reader of leftovers.
fn fresh_folder(kind: &str, tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!(
        "broadside-{kind}-{tag}-{}-{}-{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("the temporary folder can be created");
    dir
}

/// A copy of a system's `rulesets/<id>/` in a fresh folder under the
/// system's temporary folder, removed on drop, for tests that break the data.
#[derive(Debug)]
pub struct RulesetCopy {
    dir: PathBuf,
}

impl RulesetCopy {
    /// Copies the percentile data of record; `tag` names the copy, for a
    /// reader of leftover folders.
    pub fn new(tag: &str) -> RulesetCopy {
        RulesetCopy::of("percentile", tag)
    }

    /// Copies the data of record of the system `id`.
    pub fn of(id: &str, tag: &str) -> RulesetCopy {
        let source = workspace_file("rulesets").join(id);
        let dir = fresh_folder("tests", tag);
        for entry in std::fs::read_dir(&source).expect("the ruleset folder is readable") {
            let path = entry.expect("a readable entry").path();
            if path.extension().is_some_and(|e| e == "toml") {
                let name = path.file_name().expect("a file name");
                std::fs::copy(&path, dir.join(name)).expect("the data file copies");
            }
        }
        RulesetCopy { dir }
    }

    /// The folder, as `--rules` takes it.
    pub fn path(&self) -> &str {
        self.dir.to_str().expect("temporary paths are UTF-8")
    }

    /// Removes every file but `keep`, so the copy holds only what a user
    /// would change.
    pub fn keep_only(&self, keep: &str) -> &RulesetCopy {
        for entry in std::fs::read_dir(&self.dir).expect("the copy is readable") {
            let path = entry.expect("a readable entry").path();
            if path.file_name().is_some_and(|name| name != keep) {
                std::fs::remove_file(&path).expect("the copied file can be removed");
            }
        }
        self
    }

    /// Adds a file to the copy.
    pub fn add(&self, file: &str, text: &str) -> &RulesetCopy {
        std::fs::write(self.dir.join(file), text).expect("the added file writes");
        self
    }

    /// Replaces the first `from` in `file` with `to`; `from` must be there,
    /// so a change of the data of record cannot silently void a test.
    pub fn edit(&self, file: &str, from: &str, to: &str) -> &RulesetCopy {
        let path = self.dir.join(file);
        let text = std::fs::read_to_string(&path).expect("the copied file reads");
        assert!(
            text.contains(from),
            "{file} no longer contains {from:?}; update the test"
        );
        std::fs::write(&path, text.replacen(from, to, 1)).expect("the copied file writes");
        self
    }
}

impl Drop for RulesetCopy {
    fn drop(&mut self) {
        // Best effort: a leftover folder in the temporary folder is harmless.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A scenario file in a fresh folder under the system's temporary folder,
/// removed on drop.
#[derive(Debug)]
pub struct ScenarioFile {
    dir: PathBuf,
    path: PathBuf,
}

impl ScenarioFile {
    /// Writes `text` to `scenario.toml` in a fresh folder; `tag` names the
    /// folder, for a reader of leftovers.
    pub fn new(tag: &str, text: &str) -> ScenarioFile {
        let dir = fresh_folder("scenario", tag);
        let path = dir.join("scenario.toml");
        std::fs::write(&path, text).expect("the scenario file writes");
        ScenarioFile { dir, path }
    }

    /// The file's path, as `compare` takes it.
    pub fn path(&self) -> &str {
        self.path.to_str().expect("temporary paths are UTF-8")
    }

    /// Writes `text` to `folder/file` beside the scenario, for a scenario
    /// that names a rules folder relative to itself.
    pub fn beside(&self, folder: &str, file: &str, text: &str) -> &ScenarioFile {
        let dir = self.dir.join(folder);
        std::fs::create_dir_all(&dir).expect("the folder beside the scenario can be created");
        std::fs::write(dir.join(file), text).expect("the file beside the scenario writes");
        self
    }

    /// A path in the same folder that does not exist.
    pub fn missing(&self) -> String {
        self.dir
            .join("no-such-scenario.toml")
            .to_str()
            .expect("temporary paths are UTF-8")
            .to_owned()
    }
}

impl Drop for ScenarioFile {
    fn drop(&mut self) {
        // Best effort: a leftover folder in the temporary folder is harmless.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

// ---------------------------------------------------------------------------
// The library, to hold the binary's figures to
// ---------------------------------------------------------------------------

// The tests package's helpers, shared rather than copied: the percentile
// system, duels and fleets as the command sets them up, and one trial's log.
pub use broadside_tests::engagement::{duel, duel_trial, fleet, fleet_request};
pub use broadside_tests::percentile;

/// The settings of a generated-input harness: `cases` inputs from a fixed
/// seed, so a CI run is repeatable, or `BROADSIDE_FUZZ_CASES` inputs from a
/// fresh seed, for a long run (docs/testing.md).
pub fn fuzz_config(cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let asked = std::env::var("BROADSIDE_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok());
    Config {
        cases: asked.unwrap_or(cases),
        rng_seed: if asked.is_some() {
            RngSeed::Random
        } else {
            RngSeed::Fixed(2026)
        },
        failure_persistence: None,
        ..Config::default()
    }
}

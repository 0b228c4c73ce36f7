//! Smoke tests of the built binary, which also make `cargo test` build it
//! for the workspace's end-to-end tests in `tests/`.

use std::process::Command;

fn broadside(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_broadside"))
        .args(args)
        .output()
        .expect("the broadside binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn version_names_the_package_version() {
    let (code, stdout, _) = broadside(&["--version"]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout.trim(),
        format!("broadside {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_usage_error_is_one_line_and_exit_code_2() {
    // Bare `duel` prints its help; missing sides are the usage error.
    let (code, stdout, stderr) = broadside(&["duel", "percentile"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
}

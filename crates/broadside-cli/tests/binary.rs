//! Smoke tests of the built binary: it names its version, and a usage error is one line with exit code 2.

mod common;

use common::{check_cli_error, cli_ok};

#[test]
fn version_names_the_package_version() {
    assert_eq!(
        cli_ok(&["--version"]).trim(),
        format!("broadside {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_usage_error_is_one_line_and_exit_code_2() {
    // Bare `duel` prints its help; missing sides are the usage error.
    check_cli_error(&["duel", "percentile"], "");
}

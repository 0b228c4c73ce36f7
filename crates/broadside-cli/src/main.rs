//! The `broadside` binary: parses arguments, loads rule systems, runs the command, prints.
//!
//! Everything it does is in the library (`lib.rs`), so that tests and
//! harnesses reach the same code without starting a process.

fn main() -> std::process::ExitCode {
    broadside_cli::main()
}

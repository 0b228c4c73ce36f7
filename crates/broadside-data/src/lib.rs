//! What every rule system's data loading shares, written once: core knows no file format, and system crates may not depend on each other, so the TOML-specific helpers live here.
//!
//! - [`TomlLines`]: where a data file sets a dotted key, for located
//!   messages (core's [`broadside_core::KeyLines`]).

mod lines;

pub use lines::TomlLines;

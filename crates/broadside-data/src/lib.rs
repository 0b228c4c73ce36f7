//! What every rule system's data loading shares, written once: core knows no file format, and system crates may not depend on each other, so the TOML-specific helpers live here.
//!
//! - [`Sources`]: a loader's files, checked by name and parsed, a syntax
//!   error located at its line.
//! - [`TomlLines`]: where a data file sets a dotted key, for located
//!   messages (core's [`broadside_core::KeyLines`]).
//! - [`counted`] list entries (`torpedo x2`) and the [`unknown`]-name
//!   message.
//! - [`embed!`]: a system's data files, built into the crate.
//! - [`lookups!`] and [`index_of`]: entries found by their ids.
//! - `testing` (behind the feature of that name): what the system crates'
//!   tests and benchmarks share.

mod embed;
mod lines;
mod load;
mod lookup;
#[cfg(feature = "testing")]
pub mod testing;

pub use lines::TomlLines;
pub use load::{Sources, counted, unknown};
pub use lookup::index_of;

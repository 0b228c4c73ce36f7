//! Benchmarks placeholder.
fn main() {}

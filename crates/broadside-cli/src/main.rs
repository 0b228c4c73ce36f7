//! CLI placeholder.
fn main() {}

//! Shared helpers for the cross-ruleset tests.

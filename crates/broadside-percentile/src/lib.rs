//! Percentile placeholder.

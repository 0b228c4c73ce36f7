//! Check helpers for whole percentile engagements: scripted phases, test tactics and duel logs.

//! Whole engagements: placeholder until the turn sequence lands.
use broadside_core::{DuelRequest, Engagement, ResolveError};

use crate::Percentile;

pub(crate) fn prepare(
    _system: &Percentile,
    _request: &DuelRequest,
) -> Result<Box<dyn Engagement>, ResolveError> {
    Err(ResolveError::Refused(
        "percentile duels are being built".into(),
    ))
}

//! Statistics reports as PDF.

use crate::games::catan::bias::Study;
use crate::games::catan::sampler::Ctx;
use crate::Result;

/// The Catan bias report (placeholder until the heat maps land).
pub fn catan_bias(_ctx: &Ctx, _study: &Study, _seed: u64) -> Result<Vec<u8>> {
    Err(crate::Error::invalid(
        "the --report PDF is not available yet",
    ))
}

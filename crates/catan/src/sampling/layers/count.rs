//! `puzzlebook catan count`: the exact number of valid boards of a rule set and the
//! exact acceptance of whole-board rejection, as text.

use super::{Layers, Tie};
use crate::board::BoardKind;
use crate::fix::Fixes;
use crate::rules::Rules;
use crate::sampling::bounded::Draws;
use crate::sampling::exact::Fraction;
use ground::Result;

/// Draws of the layers' product that estimate the tying rules' share when the count
/// is not exact.
pub(crate) const SHARE_DRAWS: u64 = 1_000_000;

/// A number with a comma every three digits, for reading.
fn grouped(n: u128) -> String {
    ground::chart::thousands(n)
}

/// The report of `catan count` for `rules` on `kind` with `fixes`; `tick(done, total)`
/// follows the desert places as they are counted (for a progress bar).
pub fn report(
    kind: BoardKind,
    rules: &Rules,
    fixes: &Fixes,
    tick: &mut dyn FnMut(usize, usize),
) -> Result<String> {
    fixes.check(kind.shape())?;
    let start = std::time::Instant::now();
    let l = Layers::build_reporting(kind, rules, fixes, tick)
        .map_err(|e| e.into_error(format!("rules {rules} cannot be counted exactly")))?;
    let took = start.elapsed();
    // Boards agreeing with the fixes, whatever the rules: what whole-board rejection
    // draws from.
    let all = if fixes.is_empty() {
        l.boards()
    } else {
        let none: Rules = "none".parse()?;
        Layers::build(kind, &none, fixes)
            .map_err(|e| e.into_error("the boards agreeing with the fixes cannot be counted"))?
            .count()
    };
    let count = l.count();
    let mut out = String::new();
    // Labels padded to the longest ("layer acceptance", "layer-valid boards") and two
    // spaces.
    let line = |out: &mut String, k: &str, v: String| out.push_str(&format!("{k:<20}{v}\n"));
    line(&mut out, "board", kind.name().to_string());
    line(&mut out, "rules", rules.to_string());
    if !fixes.is_empty() {
        line(&mut out, "fixed", format!("{} hexes", fixes.list().len()));
    }
    let all_label = if fixes.is_empty() {
        "all boards"
    } else {
        "boards with fixes"
    };
    line(&mut out, all_label, grouped(all));
    if l.is_exact() {
        let a = Fraction::new(count, all);
        line(&mut out, "valid boards", grouped(count));
        line(&mut out, "acceptance", format!("{a} = {:.6e}", a.value()));
        line(&mut out, "exact", "yes".into());
    } else {
        let a = Fraction::new(count, all);
        line(&mut out, "layer-valid boards", grouped(count));
        line(
            &mut out,
            "layer acceptance",
            format!("{a} = {:.6e}", a.value()),
        );
        let mut rng = ground::seed::item_rng(0, "catan-count", 0);
        let mut draws = Draws::new(&mut rng);
        let kept = l.tie_share(&mut draws, SHARE_DRAWS)?;
        let p = kept as f64 / SHARE_DRAWS as f64;
        let se = (p * (1.0 - p) / SHARE_DRAWS as f64).sqrt();
        line(
            &mut out,
            "tying share",
            format!(
                "about {p:.5} (95% interval {:.5} to {:.5}, {kept} of {SHARE_DRAWS} layer-valid boards)",
                p - 1.96 * se,
                p + 1.96 * se
            ),
        );
        line(
            &mut out,
            "acceptance",
            format!("about {:.4e} (estimate)", a.value() * p),
        );
        line(
            &mut out,
            "exact",
            "no: both layers have rules and a rule ties tokens to terrain; the layer count is exact, the tying share is estimated".into(),
        );
    }
    line(&mut out, "method", l.method());
    line(
        &mut out,
        "work",
        format!(
            "{:.2} s, {} states (widest level {}), {:.1} MB",
            took.as_secs_f64(),
            l.states,
            l.widest,
            l.bytes as f64 / 1e6
        ),
    );
    Ok(out)
}

impl Layers {
    /// Of `n` boards drawn from the layers' product, how many meet the tying rules.
    /// Stops (an error) when a stop is asked for.
    pub(crate) fn tie_share(&self, draws: &mut Draws, n: u64) -> Result<u64> {
        let mut kept = 0;
        for i in 0..n {
            if i % 4096 == 0 {
                ground::interrupt::check()?;
            }
            kept += u64::from(self.ties_hold(&self.draw_layers(draws)));
        }
        Ok(kept)
    }

    /// How the count was made, in a line.
    pub(crate) fn method(&self) -> String {
        let layer = |dag: bool| {
            if dag {
                "counted by its layered graph"
            } else {
                "free (every arrangement)"
            }
        };
        let t = layer(self.deserts.iter().any(|a| a.terrain.is_some()));
        let k = layer(self.deserts.iter().any(|a| a.tokens.is_some()));
        let tie = match self.tie {
            Tie::None => "",
            Tie::ShareTerrain | Tie::ShareTokens => {
                "; tying rules by sharing the tokens among the resources"
            }
            Tie::RedrawBoard => "; tying rules estimated",
        };
        format!(
            "terrain: {t}; tokens: {k}{tie}; {} desert places counted",
            self.deserts.len()
        )
    }
}

//! The exact probabilities of every feature the bias study counts, from the layers' counts.

use super::*;

/// Per-hex probabilities of one desert place's boards, in its layers' own frame.
pub(super) struct PlaceProbabilities {
    pub(super) terrain: Vec<[f64; 6]>,
    pub(super) token: Vec<[f64; 10]>,
    pub(super) harbor: Vec<[f64; 6]>,
}

impl Layers {
    /// The exact probabilities of every feature the bias study counts, under the
    /// uniform distribution over valid boards; None when the count is not exact.
    /// Each resource's pips are exact when a layer is unconstrained (or tied by the
    /// sharing); when both layers are constrained they are left out (empty).
    // Index loops read best here: hexes, terrains and tokens index several tables.
    #[allow(clippy::needless_range_loop)]
    pub fn expectations(&self) -> Option<crate::sampling::exact::Expectations> {
        if !self.is_exact() {
            return None;
        }
        let n = self.shape.len();
        let total = self.count() as f64;
        let mut desert = vec![0.0; n];
        let mut terrain = vec![[0.0; 6]; n];
        let mut token = vec![[0.0; 10]; n];
        let mut harbor = vec![[0.0; 6]; self.shape.harbors.len()];
        let per: Vec<PlaceProbabilities> = self.deserts.iter().map(|a| self.place(a)).collect();
        for &(i, g) in &self.places {
            let w = self.count_at(&self.deserts[i]) as f64 / total;
            let map = &self.symmetries[g];
            let pp = &per[i];
            desert[map[self.deserts[i].hex]] += w;
            for h in 0..n {
                for t in 0..6 {
                    terrain[map[h]][t] += w * pp.terrain[h][t];
                }
                for k in 0..10 {
                    token[map[h]][k] += w * pp.token[h][k];
                }
            }
            for (p, row) in harbor.iter_mut().enumerate() {
                for k in 0..6 {
                    row[k] += w * pp.harbor[p][k];
                }
            }
        }
        let red = token
            .iter()
            .map(|row| {
                TOKEN_VALUES
                    .iter()
                    .zip(row)
                    .filter(|(v, _)| is_red(**v))
                    .map(|(_, p)| p)
                    .sum()
            })
            .collect();
        let resource = match (&self.shares, self.tie) {
            (Some(s), _) => s
                .pips
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|&c| c as f64 / s.tokens_per_terrain as f64)
                        .collect()
                })
                .collect(),
            (None, _)
                if self
                    .deserts
                    .iter()
                    .all(|a| a.terrain.is_none() || a.tokens.is_none()) =>
            {
                crate::sampling::exact::resource_pips_expectations(self.shape)
            }
            _ => Vec::new(),
        };
        Some(crate::sampling::exact::Expectations {
            desert,
            red,
            token,
            terrain,
            harbor,
            resource,
            acceptance: Some(self.acceptance()),
            source: format!(
                "exact counts of {} valid boards (terrain and token layers counted per desert place)",
                ground::chart::thousands(self.count())
            ),
            cells: "place of the desert",
        })
    }

    /// Within-class share of each token on a hex not fixed: its free copies over the
    /// class's free tokens.
    pub(super) fn token_share(&self, class: usize, k: usize) -> f64 {
        let c = &self.free_classes[class];
        if c.tokens.is_empty() {
            return 0.0;
        }
        c.tokens.iter().filter(|&&v| v == TOKEN_VALUES[k]).count() as f64 / c.tokens.len() as f64
    }

    /// The per-hex probabilities of one desert place, in its own frame.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn place(&self, a: &AtDesert) -> PlaceProbabilities {
        let n = self.shape.len();
        let land = (n - self.shape.deserts) as f64;
        let mut terrain = vec![[0.0; 6]; n];
        let mut token = vec![[0.0; 10]; n];
        let mut harbor = crate::sampling::exact::harbor_expectations(self.shape);
        // Terrains with the same count are alike when relabelled: share their mass.
        let groups = |p: &mut [f64], offset: usize| {
            // The graph's terrains are relabelled along its paths: spread each
            // terrain's mass evenly over its orbit under the relabellings.
            if self.relabels.len() > 1 {
                let mut out = [0.0; 6];
                for t in 0..5usize {
                    let mut orbit: Vec<usize> =
                        self.relabels.iter().map(|q| q[t] as usize).collect();
                    orbit.sort_unstable();
                    orbit.dedup();
                    out[t] = orbit.iter().map(|&u| p[u + offset]).sum::<f64>() / orbit.len() as f64;
                }
                p[offset..offset + 5].copy_from_slice(&out[..5]);
            }
        };
        match &a.terrain {
            Some(dag) => {
                let m = dag.marginals(6);
                let tot = dag.total() as f64;
                for (step, item) in self.terrain_order.items.iter().enumerate() {
                    let mut row = [0.0; 6];
                    for (k, c) in m[step].iter().enumerate() {
                        row[k] = *c as f64 / tot;
                    }
                    match *item {
                        Item::Hex(h) => {
                            groups(&mut row, 0);
                            terrain[h] = row;
                        }
                        Item::Harbor(p) => {
                            groups(&mut row, 1);
                            harbor[p] = row;
                        }
                    }
                }
            }
            None => {
                for (h, row) in terrain.iter_mut().enumerate() {
                    if h == a.hex {
                        row[DESERT as usize] = 1.0;
                    } else {
                        for t in 0..5u8 {
                            row[t as usize] = self.shape.terrain_count(t) as f64 / land;
                        }
                    }
                }
            }
        }
        match &a.tokens {
            Some(dag) => {
                let m = dag.marginals(self.classes.len() + 1);
                let tot = dag.total() as f64;
                for (step, item) in self.token_order.items.iter().enumerate() {
                    let Item::Hex(h) = *item else { continue };
                    if let Some(v) = self.fixed_tokens[h] {
                        let k = TOKEN_VALUES.iter().position(|&x| x == v).unwrap_or(0);
                        token[h][k] = 1.0;
                        continue;
                    }
                    for (c, &cnt) in m[step].iter().take(self.classes.len()).enumerate() {
                        for k in 0..10 {
                            token[h][k] += cnt as f64 / tot * self.token_share(c, k);
                        }
                    }
                }
            }
            None => {
                for (h, row) in token.iter_mut().enumerate() {
                    if h != a.hex {
                        for (k, &v) in TOKEN_VALUES.iter().enumerate() {
                            row[k] = self.shape.token_count(v) as f64 / land;
                        }
                    }
                }
            }
        }
        self.through_ties(a, &mut terrain, &mut token);
        PlaceProbabilities {
            terrain,
            token,
            harbor,
        }
    }

    /// A tying rule with a free layer: the free layer's piece at a hex depends on the
    /// other layer's piece there, through the sharing.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn through_ties(
        &self,
        a: &AtDesert,
        terrain: &mut [[f64; 6]],
        token: &mut [[f64; 10]],
    ) {
        let n = self.shape.len();
        if let Some(s) = &self.shares {
            let u = s.tokens_per_terrain as f64;
            match self.tie {
                Tie::ShareTerrain => {
                    for h in (0..n).filter(|&h| h != a.hex) {
                        let mut row = [0.0; 6];
                        for k in 0..10 {
                            let copies = self.shape.token_count(TOKEN_VALUES[k]) as f64;
                            if copies == 0.0 {
                                continue;
                            }
                            for (r, slot) in row.iter_mut().enumerate().take(RESOURCES) {
                                *slot += token[h][k] * s.with[r][k] as f64 / (u * copies);
                            }
                        }
                        terrain[h] = row;
                    }
                }
                Tie::ShareTokens => {
                    for h in (0..n).filter(|&h| h != a.hex) {
                        let mut row = [0.0; 10];
                        for r in 0..RESOURCES {
                            let size = self.shape.terrain_count(r as u8) as f64;
                            for (k, slot) in row.iter_mut().enumerate() {
                                *slot += terrain[h][r] * s.with[r][k] as f64 / (u * size);
                            }
                        }
                        token[h] = row;
                    }
                }
                _ => {}
            }
        }
    }
}

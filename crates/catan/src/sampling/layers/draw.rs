//! Drawing a board from the layers, uniformly: each layer by its counts, the desert's
//! place first, shuffles where they serve, tying rules redrawn.

use super::*;

impl Layers {
    /// Draw one valid board, uniformly (exactly: for [`Tie::RedrawBoard`] too, the
    /// draws that break a tying rule being redrawn whole). Returns the board and the
    /// draws it took (1 unless a tying rule redrew something).
    pub fn draw(&self, draws: &mut Draws) -> (Setup, u64) {
        let mut attempts = 1;
        loop {
            let mut b = self.draw_layers(draws);
            match (self.tie, &self.shares) {
                (Tie::ShareTerrain | Tie::ShareTokens, _) if self.redraw_free => {
                    while !self.ties_hold(&b) {
                        attempts += 1;
                        if self.tie == Tie::ShareTerrain {
                            self.shuffle_terrain(draws, &mut b);
                        } else {
                            self.shuffle_tokens(draws, &mut b);
                        }
                    }
                }
                (Tie::ShareTerrain, Some(s)) => self.share_terrain(draws, &s.walk, &mut b),
                (Tie::ShareTokens, Some(s)) => self.share_tokens(draws, &s.walk, &mut b),
                (Tie::RedrawBoard, _) if !self.ties_hold(&b) => {
                    attempts += 1;
                    continue;
                }
                _ => {}
            }
            return (b, attempts);
        }
    }

    /// The terrain of `b`'s land hexes from a drawn share of its tokens: for each
    /// token value, its hexes shuffled and dealt to the resources in turn, as many as
    /// the share gives each (every terrain arrangement with that share alike).
    pub(super) fn share_terrain(&self, draws: &mut Draws, walk: &cross::ShareWalk, b: &mut Setup) {
        let parts = walk.draw(draws);
        // The land hexes of each token value, in hex order.
        let mut hexes = [[0u8; 32]; 10];
        let mut m = [0usize; 10];
        let mut land = self.land_mask(b);
        while land != 0 {
            let h = land.trailing_zeros() as usize;
            land &= land - 1;
            let k = usize::from(VALUE_INDEX[usize::from(b.token[h])]);
            hexes[k][m[k]] = h as u8;
            m[k] += 1;
        }
        for (k, hexes) in hexes.iter_mut().enumerate() {
            draws.shuffle32(hexes, m[k], 0, m[k]);
            let mut dealt = 0;
            for (r, part) in parts.iter().enumerate() {
                for &h in &hexes[dealt..dealt + usize::from(part[k])] {
                    b.terrain[usize::from(h)] = r as u8;
                }
                dealt += usize::from(part[k]);
            }
        }
    }

    /// The tokens of `b`'s land hexes from a drawn share: each resource's tokens
    /// shuffled over its hexes.
    pub(super) fn share_tokens(&self, draws: &mut Draws, walk: &cross::ShareWalk, b: &mut Setup) {
        let parts = walk.draw(draws);
        // The hexes of each resource, in hex order.
        let mut hexes = [[0u8; 32]; DESERT as usize];
        let mut m = [0usize; DESERT as usize];
        let mut land = self.land_mask(b);
        while land != 0 {
            let h = land.trailing_zeros() as usize;
            land &= land - 1;
            let r = usize::from(b.terrain[h]);
            hexes[r][m[r]] = h as u8;
            m[r] += 1;
        }
        for (r, part) in parts.iter().enumerate() {
            let mut tokens = [0u8; 32];
            let mut k = 0;
            for (&c, &v) in part.iter().zip(&TOKEN_VALUES) {
                tokens[k..k + usize::from(c)].fill(v);
                k += usize::from(c);
            }
            draws.shuffle32(&mut tokens, k, 0, k);
            for (&h, &v) in hexes[r][..m[r]].iter().zip(&tokens) {
                b.token[usize::from(h)] = v;
            }
        }
    }

    /// Whether the rules of one layer hold on `b`.
    pub(super) fn layer_holds(&self, b: &Setup, layer: Layer) -> bool {
        self.rules
            .list()
            .iter()
            .filter(|r| match layer {
                Layer::Tokens => r.tokens_only(),
                Layer::Terrain => matches!(r, Rule::SameTerrainApart | Rule::MaxCluster(_)),
            })
            .all(|&r| crate::rules::holds(self.shape, b, r))
    }

    pub(super) fn ties_hold(&self, b: &Setup) -> bool {
        self.rules
            .list()
            .iter()
            .filter(|r| matches!(r, Rule::NumberResourceApart | Rule::ResourcePips(..)))
            .all(|&r| crate::rules::holds(self.shape, b, r))
    }

    /// The land hexes of `b` (not the desert), as a mask.
    pub(super) fn land_mask(&self, b: &Setup) -> u32 {
        let all = ((1u64 << self.shape.len()) - 1) as u32;
        (0..self.shape.len())
            .filter(|&h| b.terrain[h] == DESERT)
            .fold(all, |m, h| m & !(1 << h))
    }

    /// `pieces` shuffled onto the land hexes of `b` (piece k on the k-th), each put
    /// there by `put`.
    #[inline(always)]
    pub(super) fn shuffle_onto_land(
        &self,
        draws: &mut Draws,
        pieces: &[u8],
        b: &mut Setup,
        put: impl Fn(&mut Setup, usize, u8),
    ) {
        let mut t = [0u8; 32];
        let m = pieces.len();
        t[..m].copy_from_slice(pieces);
        draws.shuffle32(&mut t, m, 0, m);
        let mut land = self.land_mask(b);
        let mut k = 0;
        while land != 0 {
            put(b, land.trailing_zeros() as usize, t[k]);
            k += 1;
            land &= land - 1;
        }
    }

    pub(super) fn shuffle_terrain(&self, draws: &mut Draws, b: &mut Setup) {
        self.shuffle_onto_land(draws, &self.shape.terrains, b, |b, h, t| b.terrain[h] = t);
    }

    pub(super) fn shuffle_tokens(&self, draws: &mut Draws, b: &mut Setup) {
        self.shuffle_onto_land(draws, &self.shape.tokens, b, |b, h, v| b.token[h] = v);
    }

    /// One board from the layers' product: a desert place by its weight, each layer's
    /// graph walked from one uniform number, the tokens spread within their classes,
    /// the free layers shuffled, then the board turned to the desert's place.
    pub(super) fn draw_layers(&self, draws: &mut Draws) -> Setup {
        let total = *self.cumulative.last().expect("a rule set with boards");
        let r = draws.below_u128(total);
        let p = self.cumulative.partition_point(|&c| c <= r);
        let before = if p == 0 { 0 } else { self.cumulative[p - 1] };
        let (i, g) = self.places[p];
        let at = &self.deserts[i];
        let r = r - before;
        let (rt, rk) = (
            (r / u128::from(at.token_paths)) as u64,
            (r % u128::from(at.token_paths)) as u64,
        );
        // Land everywhere but the desert (the terrain layer then overwrites it).
        let mut b = Setup::default();
        b.terrain[..self.shape.len()].fill(0);
        b.terrain[at.hex] = DESERT;
        let mut symbols = [0u8; 32];
        let mut relabels = [0u8; 32];
        match (&at.terrain, self.reject_terrain) {
            (Some(dag), false) => {
                dag.walk(rt, &mut symbols, &mut relabels);
                self.put_terrain(&symbols, &relabels, &mut b);
            }
            (Some(_), true) => loop {
                // Rejection within the layer: uniform among the layer's valid
                // arrangements, which the graph counts.
                self.shuffle_terrain(draws, &mut b);
                if self.layer_holds(&b, Layer::Terrain) {
                    break;
                }
            },
            // A terrain shared from the tokens is drawn after them.
            (None, _) if self.tie == Tie::ShareTerrain && !self.redraw_free => {}
            (None, _) => self.shuffle_terrain(draws, &mut b),
        }
        match (&at.tokens, self.reject_tokens) {
            (Some(dag), false) => {
                dag.walk(rk, &mut symbols, &mut relabels);
                self.put_classes(draws, &self.free_classes, &symbols, &mut b);
            }
            (Some(_), true) => loop {
                match &at.placement {
                    Some(p) => {
                        let r = draws.below_u128(u128::from(p.total())) as u64;
                        p.walk(r, &mut symbols, &mut relabels);
                        self.put_classes(draws, &self.placement_classes, &symbols, &mut b);
                    }
                    None => self.shuffle_tokens(draws, &mut b),
                }
                if self.layer_holds(&b, Layer::Tokens) {
                    break;
                }
            },
            (None, _) if self.tie == Tie::ShareTokens && !self.redraw_free => {}
            (None, _) => self.shuffle_tokens(draws, &mut b),
        }
        if !self.harbors_in_terrain {
            let m = self.shape.harbor_kinds.len();
            let mut h = [0u8; 32];
            h[..m].copy_from_slice(&self.shape.harbor_kinds);
            draws.shuffle32(&mut h, m, 0, m);
            b.harbor[..m].copy_from_slice(&h[..m]);
        }
        if g == 0 {
            return b;
        }
        let mut out = b;
        for (h, &to) in self.symmetries[g].iter().enumerate() {
            out.terrain[to] = b.terrain[h];
            out.token[to] = b.token[h];
        }
        out
    }

    /// The terrain walk onto `b`: each symbol read through the relabellings so far.
    pub(super) fn put_terrain(&self, symbols: &[u8], relabels: &[u8], b: &mut Setup) {
        // `frame[t]`: the real terrain of the walk's terrain t.
        let mut frame = [0u8, 1, 2, 3, 4, DESERT];
        for (step, item) in self.terrain_order.items.iter().enumerate() {
            let s = symbols[step];
            match *item {
                Item::Hex(h) => b.terrain[h] = frame[s as usize],
                Item::Harbor(p) => b.harbor[p] = if s == 0 { 0 } else { 1 + frame[s as usize - 1] },
            }
            let q = relabels[step];
            if q != 0 {
                // The child is stored relabelled by q; its terrain u is our q^-1(u).
                let perm = &self.relabels[q as usize];
                let mut next = frame;
                for t in 0..5 {
                    next[perm[t] as usize] = frame[t];
                }
                frame = next;
            }
        }
    }

    /// The token classes of a walk onto `b`, each class's tokens shuffled over its hexes.
    pub(super) fn put_classes(
        &self,
        draws: &mut Draws,
        classes: &[Class],
        symbols: &[u8],
        b: &mut Setup,
    ) {
        let mut hexes = [[0u8; 32]; 16];
        let mut filled = [0usize; 16];
        for (step, item) in self.token_order.items.iter().enumerate() {
            if let Item::Hex(h) = *item {
                let c = symbols[step] as usize;
                if let Some(v) = self.fixed_tokens[h] {
                    b.token[h] = v;
                } else if c < classes.len() {
                    hexes[c][filled[c]] = h as u8;
                    filled[c] += 1;
                }
            }
        }
        for (c, class) in classes.iter().enumerate() {
            let n = class.tokens.len();
            let mut t = [0u8; 32];
            t[..n].copy_from_slice(&class.tokens);
            if class.tokens.iter().any(|&v| v != class.tokens[0]) {
                draws.shuffle32(&mut t, n, 0, n);
            }
            for k in 0..n {
                b.token[hexes[c][k] as usize] = t[k];
            }
        }
    }
}

//! Linear algebra over GF(2): Gaussian elimination of a move map, its rank, its
//! invariants (the left null space) and its null space, and the minimum-weight
//! solution of `M x = d` by searching the null space.

use super::bits::Bits;
use ground::{Error, Result};

/// A reduced linear system `M x = d` with M given by its columns (one per unknown).
/// Elimination is done once; each right-hand side then costs a few dot products.
#[derive(Debug, Clone)]
pub struct LinearSystem {
    n_vars: usize,
    /// For each pivot: (its unknown, the row of T that produces its reduced right-hand side).
    pivots: Vec<(usize, Bits)>,
    /// Rows of T whose reduced row of M is zero: `t . d` must be 0 for a solution to exist.
    invariants: Vec<Bits>,
    /// A basis of the null space of M.
    null_basis: Vec<Bits>,
}

/// The largest null space searched exhaustively for a minimum (2^24 combinations).
pub(crate) const MAX_NULLITY: usize = 24;

impl LinearSystem {
    /// `columns[j]` is the image of unknown j (a vector of `n_eqs` bits).
    pub fn new(columns: &[Bits], n_eqs: usize) -> Self {
        let n_vars = columns.len();
        // Row e = [coefficients of equation e over the unknowns | unit vector e] (T part).
        let width = n_vars + n_eqs;
        let mut rows: Vec<Bits> = (0..n_eqs)
            .map(|e| {
                let mut r = Bits::zeros(width);
                r.set(n_vars + e, true);
                r
            })
            .collect();
        for (j, col) in columns.iter().enumerate() {
            for e in col.ones() {
                rows[e].set(j, true);
            }
        }
        let mut pivot_cols = Vec::new();
        let mut rank = 0;
        for col in 0..n_vars {
            let Some(found) = (rank..n_eqs).find(|&r| rows[r].get(col)) else {
                continue;
            };
            rows.swap(rank, found);
            let pivot_row = rows[rank].clone();
            for (r, row) in rows.iter_mut().enumerate() {
                if r != rank && row.get(col) {
                    row.xor_assign(&pivot_row);
                }
            }
            pivot_cols.push(col);
            rank += 1;
        }
        let split = |row: &Bits| -> (Bits, Bits) {
            let mut m = Bits::zeros(n_vars);
            let mut t = Bits::zeros(n_eqs);
            for i in row.ones() {
                if i < n_vars {
                    m.set(i, true);
                } else {
                    t.set(i - n_vars, true);
                }
            }
            (m, t)
        };
        let mut reduced = Vec::with_capacity(rank);
        let mut pivots = Vec::with_capacity(rank);
        for (row, &col) in rows.iter().zip(&pivot_cols) {
            let (m, t) = split(row);
            reduced.push(m);
            pivots.push((col, t));
        }
        let invariants = rows[rank..].iter().map(|r| split(r).1).collect();
        let is_pivot = {
            let mut v = vec![false; n_vars];
            for &c in &pivot_cols {
                v[c] = true;
            }
            v
        };
        let null_basis = (0..n_vars)
            .filter(|&f| !is_pivot[f])
            .map(|f| {
                let mut v = Bits::zeros(n_vars);
                v.set(f, true);
                for (m, &p) in reduced.iter().zip(&pivot_cols) {
                    if m.get(f) {
                        v.set(p, true);
                    }
                }
                v
            })
            .collect();
        LinearSystem {
            n_vars,
            pivots,
            invariants,
            null_basis,
        }
    }

    /// Rank of M: the number of pivots.
    pub(crate) fn rank(&self) -> usize {
        self.pivots.len()
    }

    /// Dimension of the null space of M (n_vars - rank).
    pub(crate) fn nullity(&self) -> usize {
        self.null_basis.len()
    }

    /// How many independent invariants `d` must satisfy (n_eqs - rank).
    pub(crate) fn invariant_count(&self) -> usize {
        self.invariants.len()
    }

    /// Whether `d` is in the image of M.
    pub(crate) fn in_image(&self, d: &Bits) -> bool {
        self.invariants.iter().all(|t| !t.dot(d))
    }

    /// Some solution of `M x = d` (free unknowns set to 0), or None.
    pub(crate) fn particular(&self, d: &Bits) -> Option<Bits> {
        if !self.in_image(d) {
            return None;
        }
        let mut x = Bits::zeros(self.n_vars);
        for (col, t) in &self.pivots {
            if t.dot(d) {
                x.set(*col, true);
            }
        }
        Some(x)
    }

    /// A solution with the fewest ones, found by visiting every element of the null
    /// space in Gray-code order. None if there is no solution; Err if the null space
    /// is larger than [`MAX_NULLITY`].
    pub(crate) fn min_weight(&self, d: &Bits) -> Result<Option<Bits>> {
        let Some(mut x) = self.particular(d) else {
            return Ok(None);
        };
        let k = self.nullity();
        if k > MAX_NULLITY {
            return Err(Error::invalid(format!(
                "the move map has a null space of dimension {k}; searching 2^{k} solutions for the minimum is too slow (limit 2^{MAX_NULLITY})"
            )));
        }
        let mut best = x.clone();
        let mut best_w = x.count_ones();
        for i in 1u64..(1u64 << k) {
            x.xor_assign(&self.null_basis[i.trailing_zeros() as usize]);
            let w = x.count_ones();
            if w < best_w {
                best_w = w;
                best = x.clone();
            }
        }
        Ok(Some(best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(n: usize, ones: &[usize]) -> Bits {
        let mut b = Bits::zeros(n);
        for &i in ones {
            b.set(i, true);
        }
        b
    }

    #[test]
    fn small_system() {
        // Unknowns: x0 -> {0,1}, x1 -> {1,2}, x2 -> {0,2} (x2 = x0 + x1: rank 2).
        let cols = vec![col(3, &[0, 1]), col(3, &[1, 2]), col(3, &[0, 2])];
        let s = LinearSystem::new(&cols, 3);
        assert_eq!(s.rank(), 2);
        assert_eq!(s.nullity(), 1);
        assert_eq!(s.invariant_count(), 1);
        // d = {0,2} is reachable by x2 alone (weight 1) or x0 + x1 (weight 2).
        let d = col(3, &[0, 2]);
        assert_eq!(s.min_weight(&d).unwrap().unwrap().count_ones(), 1);
        // d = {0} has odd weight; every column has even weight: unreachable.
        assert!(s.particular(&col(3, &[0])).is_none());
    }
}

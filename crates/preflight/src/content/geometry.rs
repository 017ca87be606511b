//! Geometry of content: transformation matrices and rectangles in default user space.

/// A 2-D affine matrix `[a b c d e f]` as PDF writes it: a point (x, y) maps to
/// (a x + c y + e, b x + d y + f).
pub type Matrix = [f64; 6];

/// The identity matrix.
pub const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `m` then `n`: the matrix that applies `m` first (PDF's `m × n`).
pub fn mul(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

/// Where `m` takes the point (x, y).
pub fn apply(m: &Matrix, x: f64, y: f64) -> (f64, f64) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

/// The smallest and largest factor by which `m` stretches a length (its singular values).
pub(crate) fn scales(m: &Matrix) -> (f64, f64) {
    let s = m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3];
    let det = m[0] * m[3] - m[1] * m[2];
    let root = (s * s - 4.0 * det * det).max(0.0).sqrt();
    (
        ((s - root) / 2.0).max(0.0).sqrt(),
        ((s + root) / 2.0).sqrt(),
    )
}

/// An axis-aligned box in default user space (points).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x0: f64,
    /// Bottom.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Top.
    pub y1: f64,
}

impl Rect {
    pub(super) fn point(x: f64, y: f64) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x,
            y1: y,
        }
    }

    pub(super) fn add(&mut self, x: f64, y: f64) {
        self.x0 = self.x0.min(x);
        self.y0 = self.y0.min(y);
        self.x1 = self.x1.max(x);
        self.y1 = self.y1.max(y);
    }

    /// The box that holds both.
    pub fn union(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }

    /// The box around the image of `self` under `m`.
    pub fn transform(&self, m: &Matrix) -> Rect {
        let (x, y) = apply(m, self.x0, self.y0);
        let mut r = Rect::point(x, y);
        for (px, py) in [(self.x1, self.y0), (self.x0, self.y1), (self.x1, self.y1)] {
            let (x, y) = apply(m, px, py);
            r.add(x, y);
        }
        r
    }

    pub(super) fn grow(&self, d: f64) -> Rect {
        Rect {
            x0: self.x0 - d,
            y0: self.y0 - d,
            x1: self.x1 + d,
            y1: self.y1 + d,
        }
    }

    pub(super) fn finite(&self) -> bool {
        self.x0.is_finite() && self.y0.is_finite() && self.x1.is_finite() && self.y1.is_finite()
    }
}

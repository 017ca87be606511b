//! Grid sizes as players write them: `9` (9x9) or `"4x6"` (4 rows, 6 columns).

use serde::{Deserialize, Serialize};

/// A size: `5` (5x5) or `"4x6"` (4 rows, 6 columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Rows, at least 1.
    pub rows: usize,
    /// Columns, at least 1.
    pub cols: usize,
}

impl Default for Size {
    fn default() -> Self {
        Size { rows: 5, cols: 5 }
    }
}

impl std::str::FromStr for Size {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Self> {
        let num = |t: &str| {
            t.trim().parse::<usize>().map_err(|_| {
                crate::Error::param(
                    "size",
                    format!("'{s}' is not a number or RxC (like 5 or 4x6)"),
                )
            })
        };
        match s.split_once(['x', 'X']) {
            Some((r, c)) => Ok(Size {
                rows: num(r)?,
                cols: num(c)?,
            }),
            None => {
                let n = num(s)?;
                Ok(Size { rows: n, cols: n })
            }
        }
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.rows == self.cols {
            write!(f, "{}", self.rows)
        } else {
            write!(f, "{}x{}", self.rows, self.cols)
        }
    }
}

impl Serialize for Size {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.rows == self.cols {
            s.serialize_u64(self.rows as u64)
        } else {
            s.serialize_str(&self.to_string())
        }
    }
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Size;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a size such as 5 or \"4x6\"")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Size, E> {
                let n = usize::try_from(v).map_err(E::custom)?;
                Ok(Size { rows: n, cols: n })
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Size, E> {
                u64::try_from(v)
                    .map_err(|_| E::custom(format!("size {v} is negative")))
                    .and_then(|v| self.visit_u64(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Size, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

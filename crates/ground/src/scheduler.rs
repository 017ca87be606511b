//! The shard a batch scheduler gives a task, read from its environment: this
//! project's own `PUZZLEBOOK_SHARD=K/N`, a Slurm job array, or a Kubernetes indexed Job.
//!
//! The variables are read through a lookup function, so callers (and tests) choose
//! where they come from; the command line passes the process environment.

use crate::shard::Shard;
use crate::{Error, Result};

/// The shard that the variables `var` looks up describe, in this order:
/// `PUZZLEBOOK_SHARD=K/N`; Slurm's `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`
/// (or `_MIN` and `_MAX`; the array must be `0-(N-1)` without a step); Kubernetes'
/// `JOB_COMPLETION_INDEX` with `PUZZLEBOOK_SHARD_COUNT`. Blank values count as unset.
pub fn shard_from(var: impl Fn(&str) -> Option<String>) -> Result<Shard> {
    let var = |k: &str| var(k).filter(|v| !v.trim().is_empty());
    let num = |k: &str, v: String| {
        v.trim()
            .parse::<u64>()
            .map_err(|_| Error::invalid(format!("{k}={v} is not a whole number")))
    };
    if let Some(v) = var("PUZZLEBOOK_SHARD") {
        return v
            .parse()
            .map_err(|e| Error::invalid(format!("PUZZLEBOOK_SHARD: {e}")));
    }
    let (index, count) = if let Some(id) = var("SLURM_ARRAY_TASK_ID") {
        // The array must be 0..N-1 with step 1, so task id = shard and count = N.
        let id = num("SLURM_ARRAY_TASK_ID", id)?;
        let min = var("SLURM_ARRAY_TASK_MIN")
            .map(|v| num("SLURM_ARRAY_TASK_MIN", v))
            .transpose()?;
        let max = var("SLURM_ARRAY_TASK_MAX")
            .map(|v| num("SLURM_ARRAY_TASK_MAX", v))
            .transpose()?;
        let count = var("SLURM_ARRAY_TASK_COUNT")
            .map(|v| num("SLURM_ARRAY_TASK_COUNT", v))
            .transpose()?;
        if let Some(lo) = min.filter(|&lo| lo != 0) {
            return Err(Error::invalid(format!(
                "the Slurm array starts at {lo}: submit it as --array=0-(N-1)"
            )));
        }
        let count = match (count, max) {
            (Some(c), Some(hi)) if c != hi.saturating_add(1) => {
                return Err(Error::invalid(format!(
                    "the Slurm array has {c} tasks but ends at {hi}: submit it as --array=0-(N-1) without a step"
                )))
            }
            (Some(c), _) => c,
            (None, Some(hi)) => hi.saturating_add(1),
            (None, None) => {
                return Err(Error::invalid(
                    "SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT (or _MIN and _MAX)",
                ))
            }
        };
        (id, count)
    } else if let Some(id) = var("JOB_COMPLETION_INDEX") {
        let count = var("PUZZLEBOOK_SHARD_COUNT").ok_or_else(|| {
            Error::invalid(
                "JOB_COMPLETION_INDEX is set but PUZZLEBOOK_SHARD_COUNT is not: set it to the Job's completions",
            )
        })?;
        (
            num("JOB_COMPLETION_INDEX", id)?,
            num("PUZZLEBOOK_SHARD_COUNT", count)?,
        )
    } else {
        return Err(Error::invalid(
            "--shard-from-env: none of PUZZLEBOOK_SHARD, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX is set",
        ));
    };
    format!("{index}/{count}")
        .parse()
        .map_err(|e| Error::invalid(format!("the scheduler's shard: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(vars: &[(&str, &str)]) -> Result<Shard> {
        shard_from(|k| {
            vars.iter()
                .find(|(name, _)| *name == k)
                .map(|(_, v)| v.to_string())
        })
    }

    fn message(vars: &[(&str, &str)]) -> String {
        shard(vars).unwrap_err().to_string()
    }

    #[test]
    fn puzzlebook_shard_comes_first() {
        let s = shard(&[("PUZZLEBOOK_SHARD", "2/5"), ("SLURM_ARRAY_TASK_ID", "1")]).unwrap();
        assert_eq!(s, Shard { index: 2, count: 5 });
        assert!(message(&[("PUZZLEBOOK_SHARD", "5/5")]).contains("PUZZLEBOOK_SHARD"));
    }

    #[test]
    fn slurm_arrays() {
        let s = shard(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ])
        .unwrap();
        assert_eq!(s, Shard { index: 3, count: 4 });
        let s = shard(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "1"),
        ])
        .unwrap();
        assert_eq!(s, Shard { index: 0, count: 2 });
        assert!(message(&[
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
        ])
        .contains("starts at 1"));
        assert!(message(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
        ])
        .contains("without a step"));
        assert!(message(&[("SLURM_ARRAY_TASK_ID", "0")]).contains("not SLURM_ARRAY_TASK_COUNT"));
        assert!(message(&[
            ("SLURM_ARRAY_TASK_ID", "x"),
            ("SLURM_ARRAY_TASK_COUNT", "2")
        ])
        .contains("SLURM_ARRAY_TASK_ID=x is not a whole number"));
        assert!(message(&[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "2")
        ])
        .contains("the scheduler's shard"));
    }

    #[test]
    fn kubernetes_indexed_jobs() {
        let s = shard(&[
            ("JOB_COMPLETION_INDEX", "1"),
            ("PUZZLEBOOK_SHARD_COUNT", "3"),
        ])
        .unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        assert!(message(&[("JOB_COMPLETION_INDEX", "1")]).contains("PUZZLEBOOK_SHARD_COUNT"));
    }

    #[test]
    fn blank_values_are_unset() {
        assert!(
            message(&[("PUZZLEBOOK_SHARD", "  "), ("JOB_COMPLETION_INDEX", "")])
                .contains("none of PUZZLEBOOK_SHARD")
        );
    }
}

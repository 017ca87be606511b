#!/usr/bin/env bash
# Submit a puzzlebook job to Slurm as N shards (a job array) and a merge that runs
# after all of them have succeeded:
#
#   deploy/slurm/submit.sh JOB.toml OUT_DIR N [SBATCH_OPTION...]
#
#   JOB.toml        the job file
#   OUT_DIR         the output folder; it must be on a filesystem that every compute
#                   node sees (the shards write OUT_DIR/parts/, the merge reads them)
#   N               the number of shards (array tasks 0..N-1)
#   SBATCH_OPTION   more options for both sbatch calls, e.g. --partition=batch
#                   --time=2:00:00 --cpus-per-task=8 (cpus-per-task sets puzzlebook -j)
#
# Environment:
#   PUZZLEBOOK  the binary to run on the nodes [puzzlebook on PATH, else this
#               checkout's target/release/puzzlebook]
#   LOG_DIR     where the Slurm logs go [OUT_DIR/logs]
#
# The jobs run in the folder you ran this script from (sbatch --chdir); paths inside
# the job file (templates) are relative to the job file's folder, as always.
# Prints the two job ids, as SHARD_JOB_ID=... and MERGE_JOB_ID=...
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}
[[ $# -ge 3 ]] || usage
job="$1" out="$2" n="$3"
shift 3
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: N must be a whole number >= 1, not '$n'" >&2; exit 2; }
[[ -f "$job" ]] || { echo "submit.sh: no job file $job" >&2; exit 2; }
command -v sbatch >/dev/null || { echo "submit.sh: sbatch not found (is Slurm installed here?)" >&2; exit 2; }

# Absolute paths, so the jobs find everything whatever folder they start in.
run_dir="$PWD"
job="$(realpath -- "$job")"
mkdir -p -- "$out"
out="$(realpath -- "$out")"
log_dir="${LOG_DIR:-$out/logs}"
mkdir -p -- "$log_dir"            # Slurm does not create the log folder
log_dir="$(realpath -- "$log_dir")"

pb="${PUZZLEBOOK:-}"
if [[ -z "$pb" ]]; then
    pb="$(command -v puzzlebook || true)"
    [[ -n "$pb" ]] || pb="$here/../../target/release/puzzlebook"
fi
[[ -x "$pb" ]] || pb="$(command -v -- "$pb" || true)"
[[ -n "$pb" && -x "$pb" ]] || {
    echo "submit.sh: no puzzlebook binary: set PUZZLEBOOK or run cargo build --release" >&2
    exit 2
}
pb="$(realpath -- "$pb")"

export JOB="$job" OUT="$out" PUZZLEBOOK="$pb"

shards=$(sbatch --parsable --export=ALL --chdir="$run_dir" \
    --array="0-$((n - 1))" --output="$log_dir/shard-%A_%a.log" \
    "$@" "$here/shard.sbatch")
shards="${shards%%;*}"            # --parsable prints "id" or "id;cluster"
merge=$(sbatch --parsable --export=ALL --chdir="$run_dir" \
    --dependency="afterok:$shards" --kill-on-invalid-dep=yes \
    --output="$log_dir/merge-%j.log" \
    "$@" "$here/merge.sbatch")
merge="${merge%%;*}"

echo "shards: job $shards, array 0-$((n - 1)), parts into $out/parts" >&2
echo "merge:  job $merge, after every shard succeeds; outputs and manifest.json into $out" >&2
echo "logs:   $log_dir" >&2
echo "SHARD_JOB_ID=$shards"
echo "MERGE_JOB_ID=$merge"

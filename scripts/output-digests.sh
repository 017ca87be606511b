#!/usr/bin/env bash
# Prints the SHA-256 of every output of a fixed list of commands (records, text,
# solver answers, statistics CSVs, reports, part files and their merges, books), one
# line each. Run it before and after a refactor and diff the two lists: a change that
# should not change behaviour must not change a byte.
#
#   scripts/output-digests.sh target/release/puzzlebook > before.txt
#   ... change the code, cargo build --release ...
#   scripts/output-digests.sh target/release/puzzlebook | diff before.txt -
set -u
BIN=$(realpath "${1:-target/release/puzzlebook}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
cp -r "$ROOT/templates" .
export SOURCE_DATE_EPOCH=1700000000
n=0
# out NAME ARGS...: run the binary, digest its standard output and exit status.
out() {
  local name=$1; shift
  local rc
  "$BIN" -q "$@" > "o.$name" 2>/dev/null; rc=$?
  printf '%s  %s (exit %d)\n' "$(sha256sum < "o.$name" | cut -c1-64)" "$name" "$rc"
}
# pipe NAME INPUT ARGS...: the same with INPUT on standard input.
pipe() {
  local name=$1 input=$2; shift 2
  local rc
  printf '%b' "$input" | "$BIN" -q "$@" > "o.$name" 2>/dev/null; rc=$?
  printf '%s  %s (exit %d)\n' "$(sha256sum < "o.$name" | cut -c1-64)" "$name" "$rc"
}
# untimed NAME ARGS...: like out, with wall-clock times ("35 us)") blanked first.
untimed() {
  local name=$1; shift
  local rc
  "$BIN" -q "$@" 2>/dev/null | sed -E 's/[0-9.]+ us\)/T us)/' > "o.$name"; rc=${PIPESTATUS[0]}
  printf '%s  %s (exit %d)\n' "$(sha256sum < "o.$name" | cut -c1-64)" "$name" "$rc"
}
file() { for f in "$@"; do printf '%s  file %s\n' "$(sha256sum < "$f" | cut -c1-64)" "$f"; done; }

# Flip
out flip-4 flip generate --size 4 --seed 7 --count 20
out flip-5-text flip generate --size 5 --seed 1 --count 5 --format text
out flip-3x5 flip generate --size 3x5 --seed 3 --count 10
out flip-plus flip generate --size 4 --shape plus --seed 3 --count 10
out flip-compat flip generate --size 3 --compat one-dot --count 10
out flip-min flip generate --size 5 --min-moves 9 --count 5 --seed 2
out flip-first flip generate --size 4 --seed 7 --count 3 --first 17
out flip-analyze flip analyze --size 5
out flip-analyze-json flip analyze --size 6 --shape plus --format json
"$BIN" -q flip generate --size 4 --seed 7 --count 4 --format text 2>/dev/null | grep -v '^#' > flip-boards.txt
out flip-solve flip solve flip-boards.txt
out flip-solve-json flip solve flip-boards.txt --format json
pipe flip-unsolvable '-----\n-o--- 1\n----- 2\n--o-- 3\n-----\n abc\n' flip solve
# Catan
for s in full-rejection token-rejection swap sequential direct; do
  out "catan-$s" catan generate --sampler $s --count 50 --seed 5
done
out catan-ascii catan generate --count 2 --seed 1 --format ascii
out catan-ext catan generate --board extended --count 20 --seed 2
out catan-rules catan generate --rules red-apart,2-12-apart,same-number-apart --count 20 --seed 2
out catan-corner catan generate --rules max-pips-per-corner=11 --sampler sequential --count 20 --seed 2
out catan-none catan generate --rules none --count 20 --seed 2
out catan-bias catan bias --samples 20000 --seed 3 --out bias.csv --report bias.pdf
file bias.csv bias.summary.csv bias.pdf
out catan-bias-s0 catan bias --samples 20000 --seed 3 --out bias.p0 --shard 0/2
out catan-bias-s1 catan bias --samples 20000 --seed 3 --out bias.p1 --shard 1/2
file bias.p0 bias.p1
out catan-bias-merge merge --out bias-m.csv --report bias-m.pdf bias.p1 bias.p0
file bias-m.csv bias-m.summary.csv bias-m.pdf
out catan-bias-same catan bias --samples 5000 --samplers full-rejection,swap --rules same-terrain-apart --reference-samples 20000 --out bias2.csv
file bias2.csv bias2.summary.csv
# Enough boards per placement cell for the chi-square, so its p-values are digested too.
out catan-bias-chi catan bias --samples 300000 --samplers direct,full-rejection --seed 3 --out chi.csv
file chi.summary.csv
# Numbrix
out numbrix-9 numbrix generate --seed 5 --count 10
out numbrix-6-text numbrix generate --size 6 --seed 5 --count 5 --format text
out numbrix-sym numbrix generate --size 7 --style symmetric --seed 2 --count 5
out numbrix-border numbrix generate --size 6x8 --style border --seed 2 --count 5
out numbrix-hard numbrix generate --difficulty hard --seed 2 --count 3
out numbrix-easy numbrix generate --difficulty easy --seed 2 --count 3 --format text
"$BIN" -q numbrix generate --size 6 --seed 5 --count 3 --format text 2>/dev/null | awk '/^#/ {p=1; next} /^solution:/ {p=0} p' > nx.txt
out numbrix-solve numbrix solve nx.txt
out numbrix-solve-json numbrix solve nx.txt --format json
pipe numbrix-solve-many '1 . .\n. . .\n. . .\n' numbrix solve
pipe numbrix-solve-unknown '1 . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n' numbrix solve --max-nodes 10
# Number Match
for a in 1 2 4; do out "nm-adds-$a" number-match generate --adds $a --count 10 --seed 3; done
out nm-text number-match generate --adds 1 --count 3 --seed 3 --format text
out nm-diff number-match generate --difficulty easy --adds 2 --count 3 --seed 3
out nm-rules number-match generate --columns 7 --length 21 --no-diagonals --append after-last-cell --count 5 --seed 3
untimed nm-solve number-match solve 119134781718851455261718224 --adds 1
out nm-solve-json number-match solve 119134781718851455261718224 --adds 2 --format json
untimed nm-solve-mc number-match solve 119134781718851455261718224 --solver monte-carlo --trials 500
out nm-solve-unknown number-match solve 119134781718851455261718224 --adds 4 --max-nodes 5
out nm-stats number-match stats --samples 300 --seed 4 --max-adds 2 --out nm.csv
file nm.csv
out nm-stats-mc number-match stats --samples 100 --seed 4 --max-adds 1 --monte-carlo-trials 50 --out nm-mc.csv
file nm-mc.csv
out nm-stats-s0 number-match stats --samples 300 --seed 4 --max-adds 2 --out nm.p0 --shard 0/2
out nm-stats-s1 number-match stats --samples 300 --seed 4 --max-adds 2 --out nm.p1 --shard 1/2
file nm.p0 nm.p1
out nm-merge merge --out nm-m.csv nm.p0 nm.p1
file nm-m.csv
# Carcassonne
out carc-20 carcassonne generate --count 10 --seed 4
out carc-30-farms carcassonne generate --tiles 30 --farms --count 5 --seed 4 --format text
"$BIN" -q carcassonne generate --count 5 --seed 4 2>/dev/null > carc.jsonl
out carc-score carcassonne score carc.jsonl --format jsonl --breakdown
out carc-score-farms carcassonne score carc.jsonl --format text --farms --breakdown
pipe carc-score-one '[[[2,1,1,0,1]]]' carcassonne score --breakdown
out carc-stats carcassonne stats --samples 2000 --tiles 10,40 --seed 4 --out carc.csv
file carc.csv
out carc-stats-s0 carcassonne stats --samples 2000 --tiles 10,40 --seed 4 --out carc.p0 --shard 0/2
out carc-stats-s1 carcassonne stats --samples 2000 --tiles 10,40 --seed 4 --out carc.p1 --shard 1/2
file carc.p0 carc.p1
out carc-merge merge --out carc-m.csv carc.p1 carc.p0
file carc-m.csv
# Item parts and their merge
out nx-s0 numbrix generate --size 6 --count 10 --seed 8 --shard 0/2 --out nx.p0
out nx-s1 numbrix generate --size 6 --count 10 --seed 8 --shard 1/2 --out nx.p1
file nx.p0 nx.p1
out nx-merge merge --out nx-m.jsonl nx.p0 nx.p1
file nx-m.jsonl
# Books
for t in templates/*.toml; do
  b=$(basename "$t" .toml)
  out "book-$b" book --template "$t" --out "book-$b.pdf"
  file "book-$b.pdf"
done
out book-seed book --seed 99 --out book-99.pdf
file book-99.pdf
# A job file, whole and sharded
cat > job.toml <<'JOB'
seed = 11
out_dir = "job"
[[output]]
name = "flip.jsonl"
kind = "items"
game = "flip"
count = 30
params = { size = "5" }
[[output]]
name = "book.pdf"
kind = "book"
template = "templates/carcassonne.toml"
[[output]]
name = "bias.csv"
kind = "catan-bias"
samples = 20000
samplers = "full-rejection,direct"
report = "bias.pdf"
[[output]]
name = "carc.csv"
kind = "carcassonne-stats"
samples = 500
tiles = [10, 20]
[[output]]
name = "nm.csv"
kind = "number-match-stats"
samples = 100
max_adds = 2
JOB
out job-run run job.toml
file job/flip.jsonl job/book.pdf job/bias.csv job/bias.summary.csv job/bias.pdf job/carc.csv job/nm.csv
out job-s0 run job.toml --out-dir jobs --shard 0/2
out job-s1 run job.toml --out-dir jobs --shard 1/2
out job-merge run job.toml --out-dir jobs --merge
file jobs/flip.jsonl jobs/book.pdf jobs/bias.csv jobs/bias.summary.csv jobs/bias.pdf jobs/carc.csv jobs/nm.csv

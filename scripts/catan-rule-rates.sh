#!/usr/bin/env bash
# Boards per second and attempts per board of the exact samplers under each fairness
# rule set: the table in docs/games/catan.md. Usage: scripts/catan-rule-rates.sh BINARY [BOARDS]
set -euo pipefail
bin=${1:?usage: $0 BINARY [BOARDS]}
n=${2:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| rules | sampler | attempts per board | boards/s (2 threads) |\n|---|---|---|---|\n'
while read -r board rules fix; do
  for s in full-rejection direct; do
    [ "$fix" != "-" ] && [ "$s" = direct ] && continue
    args=(catan generate --board "$board" --rules "$rules" --sampler "$s" --count "$n" --seed 1 --out "$tmp/o.jsonl")
    [ "$fix" != "-" ] && args+=(--fix "$fix")
    rm -f "$tmp/o.jsonl"
    start=$(date +%s.%N)
    "$bin" "${args[@]}" 2>/dev/null
    end=$(date +%s.%N)
    per=$(python3 -c "import json,sys;a=[json.loads(l)['attempts'] for l in open('$tmp/o.jsonl')];print(f'{sum(a)/len(a):,.1f}')")
    rate=$(python3 -c "print(f'{$n/($end-$start):,.0f}')")
    label="\`$rules\`"; [ "$board" != base ] && label="$label ($board)"; [ "$fix" != "-" ] && label="$label, \`--fix $fix\`"
    printf '| %s | %s | %s | %s |\n' "$label" "$s" "$per" "$rate"
  done
done <<'LIST'
base red-apart -
base red-apart,min-pips-per-corner=5 -
base red-apart,min-pips-per-corner=7 -
base red-apart,max-cluster=2 -
base max-cluster=1 -
base red-apart,number-resource-apart -
base red-apart,resource-pips=9-16 -
base red-apart,resource-pips=11-13 -
base red-apart,harbor-resource-apart -
base red-apart,number-resource-apart,harbor-resource-apart,min-pips-per-corner=4,max-cluster=2 -
extended red-apart,max-cluster=2,harbor-resource-apart -
base red-apart 19=desert
base red-apart,resource-pips=8-16 19=desert
LIST

#!/usr/bin/env bash
# Primitive benchmarks: scan (each tier), compaction (each method) and reduce across sizes, each with
# the vkCmdCopyBuffer peer timed in the same run. JSON lines to $1 (default: stdout).
# usage: bench/run_prim.sh OUT.jsonl [SIEVE_BENCH]
set -uo pipefail
out=${1:-/dev/stdout}
bench=${2:-sieve-bench}
sizes=${SIEVE_PRIM_SIZES:-"10 16 20 24 26 28"}
for e in $sizes; do
  n=$((1 << e))
  for t in a b c; do "$bench" prim --op scan --n $n --tier $t --json >> "$out" || echo "scan tier $t n=$n failed" >&2; done
  for m in scatter onepass gather append; do
    "$bench" prim --op compact --n $n --density 0.5 --method $m --json >> "$out" || echo "compact $m n=$n failed" >&2
  done
  "$bench" prim --op reduce-sum --n $n --json >> "$out" || echo "reduce n=$n failed" >&2
done

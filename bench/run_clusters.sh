#!/usr/bin/env bash
# Cluster culling on the dense scene (sieve-bench clusters): instance culling only, clusters + indirect
# draws, clusters + mesh shaders (where the device has them), at 1080p and 4K, JSON lines appended to $1.
# usage: bench/run_clusters.sh OUT.jsonl [SIEVE_BENCH]
#   SIEVE_BENCH_SMALL=1: lavapipe sizes.
set -uo pipefail
out=${1:?usage: run_clusters.sh OUT.jsonl [SIEVE_BENCH]}
bench=${2:-sieve-bench}
status=0
run() {
  echo "== clusters $*" >&2
  timeout 150 "$bench" clusters "$@" --verify --out "$out" || { echo "FAILED: clusters $*" >&2; status=1; }
}
if [ "${SIEVE_BENCH_SMALL:-0}" = 1 ]; then
  run --n 100 --width 320 --height 180 --frames 5 --warmup 3 --rounds 2
else
  for size in "1920 1080" "3840 2160"; do
    set -- $size
    run --n 2000 --width "$1" --height "$2" --frames 30 --warmup 15 --rounds 3
  done
fi
exit $status

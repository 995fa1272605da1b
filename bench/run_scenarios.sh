#!/usr/bin/env bash
# Scenario benchmarks (hiz, frame, cull, cpu): JSON lines appended to $1, one scenario after the other,
# each line written as soon as it is measured (a run cut short keeps what it measured).
# usage: bench/run_scenarios.sh OUT.jsonl [SIEVE_BENCH]
#   SIEVE_BENCH_SMALL=1: lavapipe sizes (tiny images and instance counts).
set -uo pipefail
out=${1:?usage: run_scenarios.sh OUT.jsonl [SIEVE_BENCH]}
bench=${2:-sieve-bench}
status=0
run() {
  echo "== $*" >&2
  local t0=$SECONDS
  "$bench" "$@" --out "$out" || { echo "FAILED: $*" >&2; status=1; }
  echo "   ($((SECONDS - t0)) s)" >&2
}
if [ "${SIEVE_BENCH_SMALL:-0}" = 1 ]; then
  run hiz --sizes 320x180,640x360 --runs 20 --warmup 3
  run frame --n 10000 --width 320 --height 180 --frames 5 --warmup 3
  run cull --sizes 1e3,1e4 --width 320 --height 180 --frames 8 --warmup 3
  run cpu --sizes 1e3,1e4 --width 320 --height 180 --frames 3 --warmup 1 --gpu-frames 5
else
  run hiz
  run frame --n 1e6
  run cull --sizes 1e4,1e5,1e6,1e7
  run cpu --sizes 1e4,1e5,1e6,1e7
fi
exit $status

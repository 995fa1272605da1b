#!/usr/bin/env bash
# One device session of the primitive measurements (bench/RESULTS.md, "Primitives (H200)"). Every line
# times the primitive interleaved with its peers in one submission after a 500 ms warm-up (compute copy
# and vkCmdCopyBuffer of the same traffic, a read stream, a zero-work chain of the same dispatches and
# barriers; compaction also atomic append), verifies the last timed result, and logs the clocks before
# and after. JSON lines to $1, a short table to stdout.
# usage: bench/prim_h200.sh OUT.jsonl [SIEVE_BENCH]
#   SIEVE_PRIM_SIZES (default "20 24 28"), SIEVE_PRIM_TUNE_SIZES (tile shapes; default "20 28", "" skips),
#   SIEVE_PRIM_CORE=1: per size only scan b, c, c --persistent and onepass compaction with and without it
set -uo pipefail
out=${1:?usage: $0 OUT.jsonl [SIEVE_BENCH]}
bench=${2:-sieve-bench}
run() {  # every run bounded: a look-back that never ends must not eat the session
  timeout 90 "$bench" prim "$@" --json >> "$out" || echo "FAILED ($?): prim $*" >&2
}
for e in ${SIEVE_PRIM_SIZES:-20 24 28}; do
  n=$((1 << e))
  if [ "${SIEVE_PRIM_CORE:-0}" = 1 ]; then
    run --op scan --n $n --tier b
    run --op scan --n $n --tier c
    run --op scan --n $n --tier c --persistent
    run --op compact --n $n --method onepass
    run --op compact --n $n --method onepass --persistent
    continue
  fi
  run --op scan --n $n --tier a
  run --op scan --n $n --tier b
  run --op scan --n $n --tier c
  run --op scan --n $n --tier c --persistent
  run --op scan --n $n --tier c --lookback-status words
  for k in 4 8; do run --op scan --n $n --tier c --lookback-per-lane $k; done
  run --op compact --n $n --method onepass
  run --op compact --n $n --method onepass --persistent
  run --op compact --n $n --method onepass --lookback-per-lane 8
  run --op compact --n $n --method scatter --tier b
  run --op compact --n $n --method scatter --tier c
  run --op reduce-sum --n $n
done
# Tile shapes of tier c (default 256 x 4).
for e in ${SIEVE_PRIM_TUNE_SIZES-20 28}; do
  n=$((1 << e))
  for shape in "128 4" "512 2" "512 4" "1024 2"; do
    set -- $shape
    run --op scan --n $n --tier c --workgroup $1 --vectors $2
  done
done
python3 - "$out" <<'PY'
import json, sys
print(f"{'op':8} {'n':>10} {'variant':20} {'p':1} {'st':6} {'wg':>4} {'v':>1} {'k':>2} {'med':>8} {'p10':>8} {'p90':>8} "
      f"{'ccopy':>8} {'read':>7} {'chain':>6} {'append':>8} {'r_cc':>5} {'sm0':>5} {'sm1':>5} {'ok':>5}")
for line in open(sys.argv[1]):
    j = json.loads(line)
    sm = lambda k: (j.get(k) or {}).get('sm_mhz', 0) or 0
    print(f"{j['op']:8} {j['n']:>10} {j['variant'][:20]:20} {'P' if j.get('persistent') else '-'} {j['lookback_status']:6} {j['workgroup']:>4} {j['vectors']:>1} "
          f"{j.get('lookback_per_lane', 1):>2} {j['median_us']:8.1f} {j['p10_us']:8.1f} {j['p90_us']:8.1f} "
          f"{j['compute_copy_median_us']:8.1f} {j['read_median_us']:7.1f} {j['chain_median_us']:6.1f} "
          f"{j.get('atomic_append_median_us', 0):8.1f} {j['ratio_vs_compute_copy']:5.2f} {sm('clocks_before'):5.0f} "
          f"{sm('clocks_after'):5.0f} {str(j['verified']):>5}")
PY

#!/usr/bin/env bash
# One device session of the primitive measurements (bench/RESULTS.md, "Primitives (H200)"): every scan
# tier, the two look-back status layouts of tier c, the compaction methods and tile shapes of tier c, each
# with the vkCmdCopyBuffer and compute-copy peers. JSON lines to $1, a short table to stdout.
# usage: bench/prim_h200.sh OUT.jsonl [SIEVE_BENCH]   (SIEVE_PRIM_QUICK=1: 2^20 and 2^28 only)
set -uo pipefail
out=${1:?usage: $0 OUT.jsonl [SIEVE_BENCH]}
bench=${2:-sieve-bench}
run() {  # every run bounded: a look-back that never ends must not eat the session
  timeout 90 "$bench" prim "$@" --json >> "$out" || echo "FAILED ($?): prim $*" >&2
}
sizes=${SIEVE_PRIM_SIZES:-"20 24 28"}
for e in $sizes; do
  n=$((1 << e))
  run --op scan --n $n --tier a
  run --op scan --n $n --tier b
  run --op scan --n $n --tier c --verify
  run --op scan --n $n --tier c --lookback-status words --verify
  run --op scan --n $n --tier c  # no --verify: the 2026-11-30 2^28 tier-c runs (all verified) were slow
  for k in 4 8; do run --op scan --n $n --tier c --lookback-per-lane $k --verify; done
  run --op compact --n $n --method fused --verify
  run --op compact --n $n --method fused --lookback-status words --verify
  run --op compact --n $n --method fused
  run --op compact --n $n --method fused --lookback-per-lane 8 --verify
  run --op compact --n $n --method scatter --tier b
  run --op compact --n $n --method scatter --tier c
  run --op compact --n $n --method append
  run --op reduce-sum --n $n
done
# Tile shapes of tier c (default 256 x 4).
for e in ${SIEVE_PRIM_TUNE_SIZES:-20 28}; do
  n=$((1 << e))
  for shape in "128 4" "256 2" "512 2" "512 4" "1024 2"; do
    set -- $shape
    run --op scan --n $n --tier c --workgroup $1 --vectors $2
    run --op scan --n $n --tier c --workgroup $1 --vectors $2 --lookback-per-lane 8
  done
  run --op compact --n $n --method fused --workgroup 128 --vectors 4
  run --op compact --n $n --method fused --workgroup 512 --vectors 2
done
python3 - "$out" <<'PY'
import json, sys
print(f"{'op':10} {'n':>10} {'variant':22} {'status':6} {'wg':>4} {'v':>2} {'k':>2} {'us':>9} {'cmdcopy':>9} {'ccopy':>9} {'r_cc':>6} {'ok':>5}")
for line in open(sys.argv[1]):
    j = json.loads(line)
    print(f"{j['op']:10} {j['n']:>10} {j['variant']:22} {j['lookback_status']:6} {j['workgroup']:>4} {j['vectors']:>2} {j.get('lookback_per_lane', 1):>2} "
          f"{j['median_us']:9.1f} {j['copy_median_us']:9.1f} {j['compute_copy_median_us']:9.1f} "
          f"{j['ratio_vs_compute_copy']:6.3f} {str(j['verified']):>5}")
PY

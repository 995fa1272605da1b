#!/usr/bin/env bash
# End-to-end: `sieve-bench prim` on small files (every op, edge sizes, error exits), checked with numpy.
# $1: build directory, $2: source directory.
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

/usr/bin/python3 - <<'PY'
import numpy as np
rng = np.random.default_rng(7)
for n in (0, 1, 7, 4097, 70001):
    (rng.random(n) < 0.4).astype('<u4').tofile(f'flags{n}.bin')
    rng.integers(0, 1000, size=n).astype('<u4').tofile(f'counts{n}.bin')
    rng.uniform(-50, 50, size=n).astype('<f4').tofile(f'floats{n}.bin')
np.array([0xffffffff, 1], dtype='<u4').tofile('overflow.bin')
open('odd.bin', 'wb').write(b'abcde')
PY

for n in 0 1 7 4097 70001; do
  for tier in "" a b c; do
    "$BENCH" prim --op scan --input counts$n.bin --output scan$n$tier.bin ${tier:+--tier $tier}
  done
  "$BENCH" prim --op compact --input flags$n.bin --output compact$n.bin
  "$BENCH" prim --op reduce-sum --input counts$n.bin --output sum$n.bin
  "$BENCH" prim --op reduce-min --input floats$n.bin --output min$n.bin
  "$BENCH" prim --op reduce-max --input floats$n.bin --output max$n.bin
done

/usr/bin/python3 - <<'PY'
import numpy as np, sys
bad = 0
def check(cond, what):
    global bad
    if not cond:
        print('FAIL', what); bad += 1
for n in (0, 1, 7, 4097, 70001):
    c = np.fromfile(f'counts{n}.bin', '<u4').astype(np.uint64)
    f = np.fromfile(f'flags{n}.bin', '<u4')
    x = np.fromfile(f'floats{n}.bin', '<f4')
    want = np.concatenate([[0], np.cumsum(c)]).astype(np.uint32)
    for tier in ('', 'a', 'b', 'c'):
        got = np.fromfile(f'scan{n}{tier}.bin', '<u4')
        check(len(got) == n + 1 and (got == want).all(), f'scan n={n} tier={tier}')
    got = np.fromfile(f'compact{n}.bin', '<u4')
    idx = np.nonzero(f)[0].astype(np.uint32)
    check(len(got) == 1 + len(idx) and got[0] == len(idx) and (got[1:] == idx).all(), f'compact n={n}')
    check(np.fromfile(f'sum{n}.bin', '<u4').tolist() == [int(c.sum())], f'sum n={n}')
    mn = np.fromfile(f'min{n}.bin', '<f4'); mx = np.fromfile(f'max{n}.bin', '<f4')
    check(mn[0] == (x.min() if n else np.inf), f'min n={n}')
    check(mx[0] == (x.max() if n else -np.inf), f'max n={n}')
sys.exit(1 if bad else 0)
PY

# Errors: a message and a non-zero exit.
expect_fail() {
  if "$BENCH" prim "$@" >/dev/null 2>err.txt; then echo "expected failure: $*"; exit 1; fi
  [ -s err.txt ] || { echo "no message for: $*"; exit 1; }
}
expect_fail --op scan --input overflow.bin --output o.bin      # sum above 2^32-1
expect_fail --op scan --input odd.bin --output o.bin           # size not a multiple of 4
expect_fail --op scan --input missing.bin --output o.bin       # unreadable
expect_fail --op nonsense --input counts7.bin --output o.bin   # unknown op
expect_fail --op scan --input counts7.bin                      # no output
expect_fail --op scan --n 1000 --tier z                        # bad tier
expect_fail --op scan --n -5                                   # bad n
expect_fail --op compact --n 1000 --method fused               # the one-pass method's old name
expect_fail --op compact --n 1000 --method onepass --tier b    # one pass is tier c

# Timing mode with verification, JSON out.
"$BENCH" prim --op compact --n 20000 --runs 3 --warmup 1 --verify --json > t.json
/usr/bin/python3 -c "import json; d = json.load(open('t.json')); assert d['verified'] is True and d['median_us'] > 0 and d['copy_median_us'] > 0 and 'atomic_append_median_us' in d and d['variant'] == 'onepass', d"
echo "prim CLI ok"

#!/usr/bin/env bash
# End-to-end: sieve-bench multiview at a tiny size with --verify (the one-plugin multi-view counts equal
# the single-view plugin's for the camera, the separate plugins' and the CPU reference for every
# cascade; no overflow), then the JSON line checked for its fields, and bad options refused.
# $1: build directory, $2: source directory.
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

"$BENCH" multiview --n 3000 --width 192 --height 108 --cascades 4 --map 128 --rounds 2 --frames 3 \
  --warmup-ms 50 --verify --out out.jsonl

/usr/bin/python3 - <<'PY'
import json
lines = [json.loads(l) for l in open('out.jsonl')]
assert len(lines) == 1, lines
l = lines[0]
assert l['scenario'] == 'multiview' and l['verified'] is True, l
for k in ('single_cull', 'multi_cull', 'separate_cull'):
    assert 0 < l[k + '_p10_us'] <= l[k + '_us'] <= l[k + '_p90_us'], (k, l)
views = l['views']
assert list(views) == ['camera', 'cascade 0', 'cascade 1', 'cascade 2', 'cascade 3'], views
for name, v in views.items():
    assert v['kind'] == ('camera' if name == 'camera' else 'shadow'), v
    assert 0 < v['frustum_visible'] < l['n'] and v['draws'] >= v['drawn'], (name, v)
for p in ('cull.early.flag', 'cull.late.flag', 'cull.late.compact', 'hiz.build'):
    assert l['multi_passes_us'][p] > 0, p
assert l['device'] and l['driver'] and l['date']
print('multiview line ok')
PY

if "$BENCH" multiview --cascades 5 >/dev/null 2>&1; then echo "--cascades 5 accepted"; exit 1; fi
if "$BENCH" multiview --n 0 >/dev/null 2>&1; then echo "--n 0 accepted"; exit 1; fi
if "$BENCH" multiview --pipeline separate >/dev/null 2>&1; then echo "--pipeline accepted"; exit 1; fi
echo ok

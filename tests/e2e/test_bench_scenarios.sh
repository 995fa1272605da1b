#!/usr/bin/env bash
# End-to-end: every sieve-bench scenario (hiz, cull, cpu, frame) at tiny sizes with --verify (pyramids
# equal the CPU reference; GPU frustum counts equal the host's; same draws in both orders; culling culls),
# then the JSON lines checked for their fields, bench/plot.py run on them, and bad options refused.
# $1: build directory, $2: source directory.
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

"$BENCH" hiz --sizes 64x48,33x17 --runs 5 --warmup 1 --verify --out out.jsonl
"$BENCH" cull --sizes 1500,3000 --width 192 --height 108 --frames 4 --warmup 3 --verify --out out.jsonl
"$BENCH" cpu --sizes 1500 --width 192 --height 108 --frames 2 --warmup 1 --threads 3 --gpu-frames 3 --verify \
  --out out.jsonl
"$BENCH" frame --n 1500 --width 192 --height 108 --frames 3 --warmup 3 --verify --out out.jsonl

SRC="$SRC" /usr/bin/python3 - <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ['SRC'], 'tests', 'e2e'))
from bench_check import Checks
c = Checks()
lines, check = c.lines, c.check
by = {}
for l in lines:
    by.setdefault(l['scenario'], []).append(l)
    check(l.get('verified') is True, f"{l['scenario']} not verified: {l}")
    check(l.get('device') and l.get('driver') and l.get('date'), 'device/driver/date present')
check(len(by.get('hiz', [])) == 2, 'two hiz lines')
for l in by.get('hiz', []):
    check(l['per_mip_us'] > 0 and l['copy_image_us'] > 0 and l['copy_buffer_us'] > 0, 'hiz times positive')
    check(l['mips'] == max(l['pyramid_width'], l['pyramid_height']).bit_length(), 'hiz mip count')
    check(l['bytes'] > l['width'] * l['height'] * 4, 'hiz bytes counted')
check(len(by.get('cull', [])) == 4, 'four cull lines (2 sizes x 2 orders)')
for l in by.get('cull', []):
    c.cull_line(l)
cpu = by.get('cpu', [])
check(len(cpu) == 1, 'one cpu line')
for l in cpu:
    check(l['threads'] == 3 and 0 < l['visible'] <= l['n'] and l['draws'] >= l['visible'], 'cpu counts')
    check(l['cpu_cull_us'] > 0 and l['cpu_record_us'] > 0 and l['gpu_cull_us'] > 0, 'cpu times')
frame = {l['culling']: l for l in by.get('frame', [])}
check(set(frame) == {'on', 'off'}, 'frame on and off')
if set(frame) == {'on', 'off'}:
    check(frame['off']['counts']['early_draws'] + frame['off']['counts']['late_draws'] == frame['off']['all_draws'],
          'off draws everything')
    check(frame['off']['speedup'] > 0, 'frame ratio reported')
c.finish()
PY

# Plots from these lines (SVG; PNG too when matplotlib is there).
/usr/bin/python3 "$SRC/bench/plot.py" out.jsonl --outdir plots
for f in plots/hiz.svg plots/cull_passes.svg plots/stable_vs_atomic.svg plots/cpu_vs_gpu.svg plots/frame.svg; do
  [ -s "$f" ] || { echo "FAIL: $f missing"; exit 1; }
  grep -q '</svg>' "$f" || { echo "FAIL: $f is not a complete SVG"; exit 1; }
done

# A turning camera (--turn): the line says so, and the frame counted is not the still camera's (frames 0..6 turn
# 0..120 degrees; --warmup-ms 0 keeps the frame count fixed).
"$BENCH" cull --sizes 3000 --width 192 --height 108 --frames 4 --warmup 3 --warmup-ms 0 --turn 20 --out turn.jsonl ||
  { echo "FAIL: sieve-bench cull --turn"; exit 1; }
# With cull.state (a host with debug views, as the viewer; the bench's default is without): verified, and the
# same counts as without it.
"$BENCH" cull --sizes 3000 --width 192 --height 108 --frames 4 --warmup 3 --instance-state on --verify \
  --out state.jsonl || { echo "FAIL: sieve-bench cull --instance-state on"; exit 1; }
/usr/bin/python3 - <<'PY'
import json, sys
still = [json.loads(l) for l in open('out.jsonl')]
still = [l for l in still if l.get('scenario') == 'cull' and l['n'] == 3000 and l['order'] == 'stable']
turn = [json.loads(l) for l in open('turn.jsonl')]
ok = len(turn) == 2 and len(still) == 1 and all(l['turn_deg_per_frame'] == 20 for l in turn)
ok = ok and still[0]['turn_deg_per_frame'] == 0
ok = ok and all(l['counts']['frustum_visible'] != still[0]['counts']['frustum_visible'] for l in turn)
if not ok:
    print('FAIL: --turn lines', turn, still)
    sys.exit(1)
state = [json.loads(l) for l in open('state.jsonl')]
want = still[0]['counts']
if not (len(state) == 2 and not still[0]['instance_state'] and all(l['instance_state'] for l in state)
        and all(l['verified'] for l in state)
        and [l['counts'] for l in state if l['order'] == 'stable'] == [want]):
    print('FAIL: --instance-state on lines', state, still)
    sys.exit(1)
PY

# The driver's pipeline statistics (sieve-bench shaders): lines with statistics for both flag shaders where the
# device reports them, else a message naming the extension (lavapipe has none).
if "$BENCH" shaders --out shaders.jsonl 2> err.txt; then
  /usr/bin/python3 - <<'PY' || { echo "FAIL: sieve-bench shaders lines"; exit 1; }
import json, sys
lines = [json.loads(l) for l in open('shaders.jsonl')]
names = {l['shader'] for l in lines if l['statistics']}
sys.exit(0 if {'cull/flag_early.comp', 'cull/flag_late.comp'} <= names else 1)
PY
else
  grep -q "VK_KHR_pipeline_executable_properties" err.txt || { cat err.txt; echo "FAIL: sieve-bench shaders"; exit 1; }
fi

# Bad options are refused with a message, not run.
for args in "hiz --sizes 0x5" "hiz --bogus" "cull --sizes 0" "cpu --threads 0" "frame --n x" "cull --frames 0" \
  "cull --pipeline separate" "cull --turn 5 --verify" "cull --turn 181" "cull --instance-state maybe"; do
  if "$BENCH" $args > /dev/null 2> err.txt; then echo "FAIL: '$args' accepted"; exit 1; fi
  grep -q "sieve-bench" err.txt || { echo "FAIL: '$args' gave no message"; exit 1; }
done
echo "bench scenarios: OK"

#!/usr/bin/env bash
# End-to-end: sieve-bench kitten (niagara's scene: assets/niagara/kitten.glb placed as niagara places its draws)
# at 20000 instances with --verify (GPU frustum count = CPU reference, same draws in both orders, culling
# culls), the JSON lines checked for cull's fields plus the scene's, the CPU counts checked against an
# independent reference (tests/unit/niagara_field_reference.py's placement, spheres tested against the
# frustum planes in Python), and a missing kitten refused with a message.
# $1: build directory, $2: source directory.
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

N=20000
"$BENCH" kitten --instances $N --width 192 --height 108 --frames 3 --warmup 2 --warmup-ms 0 --verify \
  --out out.jsonl 2> err.txt || { cat err.txt; echo "FAIL: sieve-bench kitten"; exit 1; }
cat err.txt
grep -q "sieve-bench kitten: n=$N: [0-9]* instances ([0-9.]*%) pass the frustum test" err.txt ||
  { echo "FAIL: no frustum share printed"; exit 1; }

SRC="$SRC" N=$N /usr/bin/python3 - <<'PY'
import math, os, sys
sys.path.insert(0, os.path.join(os.environ['SRC'], 'tests', 'e2e'))
sys.path.insert(0, os.path.join(os.environ['SRC'], 'tests', 'unit'))
from bench_check import Checks
import niagara_field_reference as ref

n = int(os.environ['N'])
c = Checks()
lines, check = c.lines, c.check
check(len(lines) == 2, 'two lines (stable, atomic)')
check(sorted(l['order'] for l in lines) == ['atomic', 'stable'], 'both orders')
for l in lines:
    c.cull_line(l)
    check(l['scenario'] == 'kitten' and l['scene'] == 'kitten' and l['n'] == n, 'scenario, scene and n')
    check(l['kitten'].endswith('kitten.glb'), 'the default kitten path')
    check(l['fov_y_deg'] == 70 and abs(l['near'] - 0.1) < 1e-6 and l['view_draw_distance'] == 0, 'niagara camera')
    counts = l['counts']
    check(counts['frustum_visible'] == l['cpu_in_frustum'], 'GPU frustum = the CPU count in the line')
    check(counts['early_drawn'] + counts['late_drawn'] <= counts['frustum_visible'], 'drawn within the frustum')
    check(abs(l['frustum_fraction'] - counts['frustum_visible'] / n) < 1e-5, 'frustum fraction = count / n')
    check(l['draw_distance'] == 200, "niagara's draw distance")
    check(0 < l['within_distance_fraction'] < l['within_depth_fraction'] < l['frustum_fraction'],
          'distance < depth < frustum')
check(len({l['counts']['early_draws'] + l['counts']['late_draws'] for l in lines}) == 1, 'same draws in both orders')

# The independent reference: niagara's placement in Python, spheres = the mesh sphere moved by the draw,
# tested against the frustum planes of a 70-degree camera at the origin looking down -Z (near 0.1, no far).
l = lines[0]
cx, cy, cz, r = l['mesh_sphere']
aspect = l['width'] / l['height']
t = math.tan(math.radians(35))
sx, sy = 1 / math.sqrt(1 + (t * aspect) ** 2), 1 / math.sqrt(1 + t * t)
def rotate(q, v):
    w, x, y, z = (float(a) for a in q)
    ux = y * v[2] - z * v[1] + w * v[0]; uy = z * v[0] - x * v[2] + w * v[1]; uz = x * v[1] - y * v[0] + w * v[2]
    return (v[0] + 2 * (y * uz - z * uy), v[1] + 2 * (z * ux - x * uz), v[2] + 2 * (x * uy - y * ux))
rng = ref.Pcg32()
frustum = depth = dist = 0
for _ in range(n):
    _, pos, scale, _, _, q = ref.draw(rng, 1)
    s = float(scale)
    centre = rotate(q, (cx * s, cy * s, cz * s))
    x, y, z = (centre[k] + float(pos[k]) for k in range(3))
    rad = r * s
    d = -z
    inside = ((d * t * aspect - abs(x)) * sx >= -rad and (d * t - abs(y)) * sy >= -rad and d - 0.1 >= -rad)
    if inside:
        frustum += 1
        depth += d - rad < 200
        dist += math.sqrt(x * x + y * y + z * z) - rad < 200
print(f'reference: frustum {frustum}, within 200 along the view axis {depth}, by distance {dist}')
check(abs(frustum - l['cpu_in_frustum']) <= 2, f"frustum {l['cpu_in_frustum']} vs reference {frustum}")
check(abs(depth - round(l['within_depth_fraction'] * n)) <= 2, 'within depth vs reference')
check(abs(dist - round(l['within_distance_fraction'] * n)) <= 2, 'within distance vs reference')
c.finish()
PY

# A missing kitten is refused with a message naming it, before any GPU work.
if "$BENCH" kitten --kitten "$WORK/no/kitten.glb" --instances 10 > /dev/null 2> err.txt; then
  echo "FAIL: a missing kitten was accepted"; exit 1
fi
grep -q "sieve-bench kitten: the kitten mesh '$WORK/no/kitten.glb' is missing" err.txt ||
  { cat err.txt; echo "FAIL: no clear message for a missing kitten"; exit 1; }
# Bad options are refused with a message, not run.
for args in "--instances 0" "--instances x" "--seed 3" "--frames 0"; do
  if "$BENCH" kitten $args > /dev/null 2> err.txt; then echo "FAIL: '$args' accepted"; exit 1; fi
  grep -q "sieve-bench kitten" err.txt || { echo "FAIL: '$args' gave no message"; exit 1; }
done
echo "bench kitten: OK"

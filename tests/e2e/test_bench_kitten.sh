#!/usr/bin/env bash
# End-to-end: sieve-bench kitten (niagara's scene: assets/niagara/kitten.glb placed as niagara places its draws)
# at 20000 instances with --verify (GPU frustum count = CPU reference, same draws in both orders, culling
# culls), the JSON lines checked for cull's fields plus the scene's, the CPU counts checked against an
# independent reference (tests/unit/niagara_field_reference.py's placement, spheres tested against the
# frustum planes in Python), and a missing kitten refused with a message. Then --clusters all on a tiny field
# at niagara's draw distance: one verified line per cluster path the device has (the mesh path skipped with a
# message where it has none, as on lavapipe), with the cluster passes' times, counts and capacities checked.
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
    check('cluster_path' not in l and 'clusters' not in l, 'no cluster fields without --clusters')
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

# A plugin option (FIELD: its JSON field, VALUE: the option's value, e.g. late_split all), verified, draws what the
# plugin's defaults (out.jsonl, DEFAULT in FIELD) drew in the same frames.
same_counts() {
  local field=$1 value=$2 default=$3
  "$BENCH" kitten --instances $N --width 192 --height 108 --frames 3 --warmup 2 --warmup-ms 0 --verify \
    "--${field/_/-}" "$value" --out "$field.jsonl" 2> err.txt ||
    { cat err.txt; echo "FAIL: sieve-bench kitten --${field/_/-} $value"; exit 1; }
  FIELD=$field VALUE=$value DEFAULT=$default /usr/bin/python3 - <<'PY'
import json, os, sys
f, v, d = os.environ['FIELD'], os.environ['VALUE'], os.environ['DEFAULT']
one = [json.loads(l) for l in open('out.jsonl')]
other = [json.loads(l) for l in open(f + '.jsonl')]
ok = len(other) == 2 and all(l[f] == v for l in other) and all(l[f] == d for l in one)
ok = ok and all(a['order'] == b['order'] and a['counts'] == b['counts'] for a, b in zip(one, other))
ok = ok and all(l['passes_us'].get('cull.late.flag', 0) > 0 for l in other)
print(f, v, [l['counts'] for l in other])
sys.exit(0 if ok else 1)
PY
  [ $? -eq 0 ] || { echo "FAIL: --${field/_/-} $value drew another set than the defaults"; exit 1; }
}

# The split late pass (--late-split all: every instance in view decided by the second dispatch); a split with
# --clusters is refused.
same_counts late_split all off
# Draw marks forced on (the compactions read only the groups of draw counts the flag passes marked).
same_counts draw_marks on auto
if "$BENCH" kitten --instances 100 --clusters indirect --late-split all 2> err.txt; then
  echo "FAIL: --late-split with --clusters was accepted"; exit 1
fi
grep -q -- "--late-split apply to the instance passes alone" err.txt || { cat err.txt; echo "FAIL: no reason given"; exit 1; }

# Clusters: every path the device has, verified (nothing dropped or overflowed, clusters culled, both paths
# the same clusters and triangles), capacities sized from the kittens in view.
NC=2000
"$BENCH" kitten --instances $NC --width 192 --height 108 --frames 3 --warmup 3 --warmup-ms 0 --clusters all \
  --draw-distance 200 --verify --out clusters.jsonl 2> err.txt || { cat err.txt; echo "FAIL: kitten --clusters all"; exit 1; }
cat err.txt
grep -q "sieve-bench kitten: n=$NC, clusters: [0-9]* instances can be in view (draw distance 200)" err.txt ||
  { echo "FAIL: no capacity line printed"; exit 1; }
SKIPPED=0
grep -q "sieve-bench kitten: n=$NC: the mesh path is skipped: the device has no VK_EXT_mesh_shader" err.txt && SKIPPED=1
SRC="$SRC" N=$NC SKIPPED=$SKIPPED /usr/bin/python3 - <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ['SRC'], 'tests', 'e2e'))
from bench_check import CULL_PASSES, Checks

n, skipped = int(os.environ['N']), os.environ['SKIPPED'] == '1'
c = Checks('clusters.jsonl')
lines, check = c.lines, c.check
paths = [l.get('cluster_path') for l in lines]
check(paths == (['indirect'] if skipped else ['indirect', 'mesh']), f'one line per path the device has: {paths}')
for l in lines:
    what = f"clusters {l.get('cluster_path')}"
    check(l['scenario'] == 'kitten' and l['n'] == n and l['order'] == 'stable', f'{what}: scenario, n, order')
    check(l.get('verified') is True, f'{what}: verified')
    check(l.get('triangle_cull') is False, f'{what}: no triangle culling without --triangle-cull on')
    ps = l.get('pipeline_statistics', 'missing')
    check(ps is None or (ps != 'missing' and ps['clipping_invocations'] > 0 and ps['clipping_primitives'] > 0),
          f'{what}: pipeline statistics {ps}')
    # The mesh-primitives-generated query: absent (null), never 0, where the device does not count them or on
    # the indirect path.
    mp = l.get('mesh_primitives_generated', 'missing')
    check(mp is None or (l.get('cluster_path') == 'mesh' and isinstance(mp, int) and 0 < mp <= l['triangles']),
          f'{what}: mesh primitives generated {mp}')
    check(l['view_draw_distance'] == 200, f"{what}: niagara's draw distance")
    for p in CULL_PASSES + ['cull.check', 'cull.stats', 'cluster.early', 'cluster.late', 'cluster.stats']:
        check(l['passes_us'].get(p, 0) > 0, f'{what}: has {p}')
    inst, clus, total = l['instance_cull_us'], l['cluster_cull_us'], l['cull_total_us']
    check(inst > 0 and clus > 0, f'{what}: instance and cluster culling timed')
    check(max(inst, clus) <= total <= l['frame_us'] + 1e-6, f'{what}: the culling total holds both, within the frame')
    counts, cl, cap = l['counts'], l['clusters'], l['capacities']
    check(counts['valid'] and counts['overflow'] == 0, f'{what}: instance counts {counts}')
    check(counts['frustum_visible'] == l['cpu_frustum_visible'], f'{what}: frustum count = host reference')
    # The GPU's visible set is niagara's: in the frustum and within 200 along the view axis.
    check(abs(counts['frustum_visible'] - round(l['within_depth_fraction'] * n)) <= 2,
          f"{what}: {counts['frustum_visible']} in view, niagara's set {l['within_depth_fraction'] * n:.0f}")
    check(cl['valid'] and cl['dropped'] == 0 and cl['overflow'] == 0, f'{what}: cluster counts {cl}')
    check(cl['drawn'] == cl['early_drawn'] + cl['late_drawn'] > 0, f'{what}: clusters drawn')
    check(cl['early_tested'] <= cl['tested'] and cl['occlusion_visible'] < cl['tested'],
          f'{what}: the late phase tests the early list too, and culls')
    check(cl['drawn'] <= l['triangles'] <= 124 * cl['drawn'], f"{what}: triangles {l['triangles']} of the clusters")
    # Capacities from the kittens in view, not n x clusters per kitten (one primitive: its slots are its
    # largest LOD's clusters).
    check(counts['frustum_visible'] <= cap['in_view_instances'] < n, f'{what}: in view {cap}')
    check(cap['visibility_slots'] == cap['in_view_instances'] * cap['max_clusters_per_draw'], f'{what}: slots')
    check(counts['early_draws'] + counts['late_draws'] <= cap['draw_capacity'] <= cap['in_view_instances'],
          f'{what}: draw capacity')
    check(cl['tested'] <= cap['candidate_capacity'] <= cap['in_view_instances'] * cap['max_clusters_per_draw'],
          f'{what}: candidate capacity')
if len(lines) == 2:
    a, b = lines
    check(a['clusters']['drawn'] == b['clusters']['drawn'] and a['triangles'] == b['triangles'],
          'both paths draw the same clusters and triangles')
c.finish()
PY

# A missing kitten is refused with a message naming it, before any GPU work.
if "$BENCH" kitten --kitten "$WORK/no/kitten.glb" --instances 10 > /dev/null 2> err.txt; then
  echo "FAIL: a missing kitten was accepted"; exit 1
fi
grep -q "sieve-bench kitten: the kitten mesh '$WORK/no/kitten.glb' is missing" err.txt ||
  { cat err.txt; echo "FAIL: no clear message for a missing kitten"; exit 1; }
# Bad options are refused with a message, not run.
for args in "--instances 0" "--instances x" "--seed 3" "--frames 0" "--clusters on" "--triangle-cull maybe" \
            "--triangle-cull on --clusters indirect"; do
  if "$BENCH" kitten $args > /dev/null 2> err.txt; then echo "FAIL: '$args' accepted"; exit 1; fi
  grep -q "sieve-bench kitten" err.txt || { echo "FAIL: '$args' gave no message"; exit 1; }
done
echo "bench kitten: OK"

"""Shared by the Python checks of the sieve-bench e2e scripts (imported with tests/e2e on sys.path): the
JSON lines of a run, a failure count, and the checks every line of sieve-bench cull's measurement
(samples/bench/cull_lines.h: cull, kitten) must pass."""
import json
import sys

CULL_PASSES = ['cull.early.flag', 'cull.early.compact', 'hiz.build', 'cull.late.flag', 'cull.late.compact',
               'draw.early', 'draw.late']


class Checks:
    def __init__(self, path='out.jsonl'):
        self.lines = [json.loads(line) for line in open(path)]
        self.bad = 0

    def check(self, cond, what):
        if not cond:
            print('FAIL', what)
            self.bad += 1

    def cull_line(self, l):
        """Per-pass times, bounds and counts of one line of cull's measurement, verified."""
        what = f"{l['scenario']} n={l['n']} {l['order']}"
        self.check(l.get('verified') is True, f'{what} not verified: {l}')
        self.check(l.get('device') and l.get('driver') and l.get('date'), f'{what}: device/driver/date present')
        self.check(set(l['bound_us']) == set(p for p in CULL_PASSES if not p.startswith('draw')), f'{what}: bounds')
        self.check(set(l['bytes']) == set(l['bound_us']), f'{what}: bytes per pass')
        for p in CULL_PASSES:
            self.check(l['passes_us'].get(p, 0) > 0, f'{what} has {p}')
        self.check(l['cull_total_us'] <= l['frame_us'] + 1e-6, f'{what}: cull total within the frame')
        self.check(l['copy_gbps'] > 0 and l['empty_dispatch_us'] > 0 and l['cull_bound_us'] > 0,
                   f'{what}: peers and bounds')
        c = l['counts']
        self.check(c['valid'] and c['instances'] == l['n'] and c['overflow'] == 0, f'{what}: counts {c}')
        self.check(c['frustum_visible'] == l['cpu_frustum_visible'], f'{what}: frustum count = host reference')
        self.check(0 < c['early_drawn'] + c['late_drawn'] < l['n'], f'{what}: culled something, drew something')

    def finish(self):
        print(f'{len(self.lines)} lines, {self.bad} failures')
        sys.exit(1 if self.bad else 0)

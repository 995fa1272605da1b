#!/usr/bin/python3
"""Plots of sieve-bench scenario JSON lines (bench/run_scenarios.sh) as hand-written SVG (no
dependencies, so CI and bare machines can run it):
  hiz.svg               pyramid build time vs pixels: single dispatch, per mip, depth copies, bandwidth bound
  cull_passes.svg       time vs N per culling pass (stable lists), each with its bandwidth bound (dashed)
                        and the zero-work dispatch time
  stable_vs_atomic.svg  early + late compaction time vs N, stable vs atomic-append, with bounds
  cpu_vs_gpu.svg        CPU culling, recording, their sum, GPU time of the CPU-culled frame, GPU culling
  frame.svg             GPU frame time, culling on vs off
Bounds: bytes each pass must move / the peak copy bandwidth measured in the same run (copy_gbps).
usage: bench/plot.py IN.jsonl [--outdir DIR]"""
import argparse
import json
import math
import os
import sys

COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f']
W, H = 760, 480
L, R, T, B = 80, 230, 40, 60  # margins; the legend sits in the right margin


def esc(s):
    return str(s).replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def nice_ticks(lo, hi):
    """Decade ticks for a log axis covering [lo, hi]."""
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    if a == b:
        b += 1
    return [10.0 ** e for e in range(a, b + 1)]


def fmt(v):
    if v >= 1e6:
        return f'{v / 1e6:g}M'
    if v >= 1e3:
        return f'{v / 1e3:g}k'
    return f'{v:g}'


def line_plot(path, title, xlabel, ylabel, series, hlines=()):
    """series: [(label, [(x, y)], dashed)], log-log. hlines: [(label, y)]."""
    pts = [(x, y) for _, s, _ in series for x, y in s if x > 0 and y > 0]
    pts += [(None, y) for _, y in hlines if y > 0]
    if not pts:
        return False
    xs = [x for x, _ in pts if x is not None]
    ys = [y for _, y in pts]
    xt, yt = nice_ticks(min(xs), max(xs)), nice_ticks(min(ys), max(ys))
    lx0, lx1 = math.log10(xt[0]), math.log10(xt[-1])
    ly0, ly1 = math.log10(yt[0]), math.log10(yt[-1])
    pw, ph = W - L - R, H - T - B

    def px(x):
        return L + (math.log10(x) - lx0) / (lx1 - lx0) * pw

    def py(y):
        return T + ph - (math.log10(y) - ly0) / (ly1 - ly0) * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{L + pw / 2}" y="22" text-anchor="middle" font-size="15">{esc(title)}</text>',
           f'<rect x="{L}" y="{T}" width="{pw}" height="{ph}" fill="none" stroke="black"/>']
    for x in xt:
        out.append(f'<line x1="{px(x):.1f}" y1="{T}" x2="{px(x):.1f}" y2="{T + ph}" stroke="#ddd"/>')
        out.append(f'<text x="{px(x):.1f}" y="{T + ph + 18}" text-anchor="middle">{fmt(x)}</text>')
    for y in yt:
        out.append(f'<line x1="{L}" y1="{py(y):.1f}" x2="{L + pw}" y2="{py(y):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{L - 6}" y="{py(y) + 4:.1f}" text-anchor="end">{fmt(y)}</text>')
    out.append(f'<text x="{L + pw / 2}" y="{H - 15}" text-anchor="middle">{esc(xlabel)}</text>')
    out.append(f'<text x="18" y="{T + ph / 2}" text-anchor="middle" transform="rotate(-90 18 {T + ph / 2})">'
               f'{esc(ylabel)}</text>')
    legend_y = T + 10
    for i, (label, s, dashed) in enumerate(series):
        c = COLOURS[i % len(COLOURS)] if not isinstance(dashed, str) else dashed
        dash = ' stroke-dasharray="6 4"' if dashed else ''
        s = sorted((x, y) for x, y in s if x > 0 and y > 0)
        if not s:
            continue
        d = ' '.join(f'{px(x):.1f},{py(y):.1f}' for x, y in s)
        out.append(f'<polyline points="{d}" fill="none" stroke="{c}" stroke-width="2"{dash}/>')
        for x, y in s:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{c}"/>')
        out.append(f'<line x1="{L + pw + 12}" y1="{legend_y}" x2="{L + pw + 36}" y2="{legend_y}" stroke="{c}" '
                   f'stroke-width="2"{dash}/>')
        out.append(f'<text x="{L + pw + 42}" y="{legend_y + 4}">{esc(label)}</text>')
        legend_y += 18
    for label, y in hlines:
        if y <= 0:
            continue
        out.append(f'<line x1="{L}" y1="{py(y):.1f}" x2="{L + pw}" y2="{py(y):.1f}" stroke="black" '
                   f'stroke-dasharray="2 3"/>')
        out.append(f'<text x="{L + 4}" y="{py(y) - 4:.1f}" font-size="11">{esc(label)}</text>')
    out.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')
    return True


def bar_plot(path, title, ylabel, bars):
    """bars: [(label, value)], linear scale."""
    if not bars:
        return False
    top = max(v for _, v in bars) * 1.15 or 1.0
    pw, ph = W - L - R, H - T - B
    bw = pw / (2 * len(bars))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{L + pw / 2}" y="22" text-anchor="middle" font-size="15">{esc(title)}</text>',
           f'<line x1="{L}" y1="{T + ph}" x2="{L + pw}" y2="{T + ph}" stroke="black"/>',
           f'<text x="18" y="{T + ph / 2}" text-anchor="middle" transform="rotate(-90 18 {T + ph / 2})">'
           f'{esc(ylabel)}</text>']
    for i, (label, v) in enumerate(bars):
        x = L + bw / 2 + 2 * bw * i
        h = v / top * ph
        out.append(f'<rect x="{x:.1f}" y="{T + ph - h:.1f}" width="{bw:.1f}" height="{h:.1f}" '
                   f'fill="{COLOURS[i % len(COLOURS)]}"/>')
        out.append(f'<text x="{x + bw / 2:.1f}" y="{T + ph - h - 6:.1f}" text-anchor="middle">{v:.4g}</text>')
        out.append(f'<text x="{x + bw / 2:.1f}" y="{T + ph + 18}" text-anchor="middle">{esc(label)}</text>')
    out.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('input')
    ap.add_argument('--outdir', default=os.path.dirname(os.path.abspath(__file__)))
    a = ap.parse_args()
    lines = [json.loads(l) for l in open(a.input) if l.strip()]
    os.makedirs(a.outdir, exist_ok=True)
    by = {}
    for l in lines:
        by.setdefault(l['scenario'], []).append(l)
    dev = lines[0].get('device', '?') if lines else '?'
    made = []

    hiz = by.get('hiz', [])
    if hiz:
        x = lambda l: l['width'] * l['height']
        keys = [('single dispatch', 'single_us'), ('one dispatch per mip', 'per_mip_us'),
                ('vkCmdCopyImage (depth)', 'copy_image_us'), ('vkCmdCopyImageToBuffer', 'copy_to_buffer_us'),
                ('vkCmdCopyBuffer (depth bytes)', 'copy_buffer_us')]
        series = [(lab, [(x(l), l[k]) for l in hiz if k in l], False) for lab, k in keys]
        series.append(('bandwidth bound', [(x(l), l['bound_us']) for l in hiz], 'black'))
        if line_plot(os.path.join(a.outdir, 'hiz.svg'), f'Hi-Z min+max pyramid ({dev})', 'depth pixels',
                     'GPU time (us)', series):
            made.append('hiz.svg')

    cull = [l for l in by.get('cull', []) if l.get('order') == 'stable']
    if cull:
        passes = ['cull.early.flag', 'cull.early.compact', 'hiz.build', 'cull.late.flag', 'cull.late.compact']
        series = []
        for i, p in enumerate(passes):
            c = COLOURS[i % len(COLOURS)]
            series.append((p, [(l['n'], l['passes_us'].get(p, 0)) for l in cull], False))
        series.append(('all culling passes', [(l['n'], l['cull_total_us']) for l in cull], False))
        for i, p in enumerate(passes):
            series.append((p + ' bound', [(l['n'], l['bound_us'].get(p, 0)) for l in cull], COLOURS[i]))
        series.append(('all culling bound', [(l['n'], l['cull_bound_us']) for l in cull], COLOURS[len(passes)]))
        hl = [('zero-work dispatch', cull[0]['empty_dispatch_us'])]
        if line_plot(os.path.join(a.outdir, 'cull_passes.svg'),
                     f'Culling passes at {cull[0]["width"]}x{cull[0]["height"]} ({dev})', 'instances',
                     'GPU time (us)', series, hl):
            made.append('cull_passes.svg')

    both = by.get('cull', [])
    if both:
        series = []
        for i, order in enumerate(['stable', 'atomic']):
            ls = [l for l in both if l.get('order') == order]
            comp = lambda l: l['passes_us'].get('cull.early.compact', 0) + l['passes_us'].get('cull.late.compact', 0)
            bnd = lambda l: l['bound_us'].get('cull.early.compact', 0) + l['bound_us'].get('cull.late.compact', 0)
            series.append((f'{order} (early + late)', [(l['n'], comp(l)) for l in ls], False))
            series.append((f'{order} bound', [(l['n'], bnd(l)) for l in ls], COLOURS[i]))
        series = [series[0], series[2], series[1], series[3]]
        if line_plot(os.path.join(a.outdir, 'stable_vs_atomic.svg'), f'Draw-list compaction ({dev})', 'instances',
                     'GPU time (us)', series, [('zero-work dispatch', both[0]['empty_dispatch_us'])]):
            made.append('stable_vs_atomic.svg')

    cpu = by.get('cpu', [])
    if cpu:
        keys = [('CPU frustum culling', 'cpu_cull_us'), ('CPU draw recording', 'cpu_record_us'),
                ('CPU culling + recording', 'cpu_total_us'), ('GPU time of CPU-culled draws', 'cpu_frame_gpu_us'),
                ('GPU culling pipeline', 'gpu_cull_us'), ('GPU-culled frame (GPU)', 'gpu_frame_us')]
        series = [(lab, [(l['n'], l[k]) for l in cpu], False) for lab, k in keys]
        if line_plot(os.path.join(a.outdir, 'cpu_vs_gpu.svg'), f'CPU culling baseline vs GPU culling ({dev})',
                     'instances', 'time (us)', series):
            made.append('cpu_vs_gpu.svg')

    frame = by.get('frame', [])
    if frame:
        bars = [(f'culling {l["culling"]} (N={fmt(l["n"])})', l['frame_us'] / 1000.0) for l in frame]
        if bar_plot(os.path.join(a.outdir, 'frame.svg'), f'GPU frame time, city ({dev})', 'ms', bars):
            made.append('frame.svg')

    print('wrote', ', '.join(os.path.join(a.outdir, m) for m in made) if made else 'nothing')
    return 0 if made else 1


if __name__ == '__main__':
    sys.exit(main())

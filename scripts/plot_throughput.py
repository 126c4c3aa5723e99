#!/usr/bin/env python3
"""Plots throughput (bases/s) against input size from docs/throughput.csv into
docs/throughput.svg (plain SVG, no dependencies).

usage: scripts/plot_throughput.py [CSV] [SVG]
"""
import math
import sys

src = sys.argv[1] if len(sys.argv) > 1 else "docs/throughput.csv"
dst = sys.argv[2] if len(sys.argv) > 2 else "docs/throughput.svg"
series = {}
for line in open(src):
    if line.startswith("#") or not line.strip():
        continue
    name, bases, seconds = line.rsplit(",", 2)
    series.setdefault(name, []).append((int(bases), int(bases) / float(seconds)))

W, H, L, R, T, B = 820, 460, 80, 300, 30, 60
xs = [b for pts in series.values() for b, _ in pts]
ys = [t for pts in series.values() for _, t in pts]
x0, x1 = math.log10(min(xs)) - 0.1, math.log10(max(xs)) + 0.1
y0, y1 = math.log10(min(ys)) - 0.2, math.log10(max(ys)) + 0.2
px = lambda b: L + (math.log10(b) - x0) / (x1 - x0) * (W - L - R)
py = lambda t: H - B - (math.log10(t) - y0) / (y1 - y0) * (H - T - B)
colors = ["#1b9e77", "#66a61e", "#d95f02", "#7570b3", "#e7298a", "#666666"]
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<line x1="{L}" y1="{H-B}" x2="{W-R}" y2="{H-B}" stroke="black"/>',
       f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H-B}" stroke="black"/>']
for e in range(math.ceil(x0), math.floor(x1) + 1):
    out.append(f'<text x="{px(10**e):.0f}" y="{H-B+18}" text-anchor="middle">1e{e}</text>')
for e in range(math.ceil(y0), math.floor(y1) + 1):
    out.append(f'<line x1="{L}" y1="{py(10**e):.0f}" x2="{W-R}" y2="{py(10**e):.0f}" stroke="#ddd"/>')
    out.append(f'<text x="{L-6}" y="{py(10**e)+4:.0f}" text-anchor="end">1e{e}</text>')
out.append(f'<text x="{(L+W-R)/2}" y="{H-15}" text-anchor="middle">input size (bases)</text>')
out.append(f'<text x="18" y="{(T+H-B)/2}" transform="rotate(-90 18 {(T+H-B)/2})" text-anchor="middle">throughput (bases/s)</text>')
for i, (name, pts) in enumerate(series.items()):
    c = colors[i % len(colors)]
    pts.sort()
    path = " ".join(f"{px(b):.1f},{py(t):.1f}" for b, t in pts)
    out.append(f'<polyline points="{path}" fill="none" stroke="{c}" stroke-width="2"/>')
    out += [f'<circle cx="{px(b):.1f}" cy="{py(t):.1f}" r="3.5" fill="{c}"/>' for b, t in pts]
    out.append(f'<rect x="{W-R+12}" y="{T+i*22}" width="12" height="12" fill="{c}"/>')
    out.append(f'<text x="{W-R+30}" y="{T+i*22+10}" font-size="10.5">{name}</text>')
out.append("</svg>")
open(dst, "w").write("\n".join(out) + "\n")
print(dst)

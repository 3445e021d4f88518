#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plot the stencil fidelity check (run_stencil_zfp_bench.sh's stencil_zfp_fidelity.csv):
max and mean relative (and absolute) error against the uncompressed run per checkpoint, on a
log scale, as a standalone SVG (no plotting package needed). Zeros are drawn at the axis
floor and marked as such.

    tools/bench/plot_fidelity.py stencil_zfp_fidelity.csv out.svg [title]
"""
import csv
import math
import sys

W, H, L, R, T, B = 640, 400, 70, 150, 40, 50
SERIES = (("max_rel", "#c0392b", "max relative"), ("mean_rel", "#e67e22", "mean relative"),
          ("max_abs", "#2c3e50", "max absolute"), ("mean_abs", "#7f8c8d", "mean absolute"))


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    if not rows:
        sys.exit("no checkpoints in " + sys.argv[1])
    title = sys.argv[3] if len(sys.argv) > 3 else "fidelity against the uncompressed run"
    steps = [int(r["step"]) for r in rows]
    vals = [float(r[k]) for r in rows for k, _, _ in SERIES if float(r[k]) > 0]
    lo = math.floor(math.log10(min(vals))) - 1 if vals else -20
    hi = math.ceil(math.log10(max(vals))) if vals else 0
    x0, x1 = min(steps), max(steps)

    def px(s):
        return L + (W - L - R) * ((s - x0) / (x1 - x0) if x1 > x0 else 0.5)

    def py(v):
        e = math.log10(v) if v > 0 else lo
        return T + (H - T - B) * (hi - e) / (hi - lo)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" font-size="13">%s</text>' % (L, title)]
    for e in range(lo, hi + 1):
        y = py(10.0 ** e)
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (L, W - R, y, y))
        label = "0 (none)" if e == lo else "1e%d" % e
        out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (L - 4, y + 4, label))
    for s in steps:
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (px(s), H - B + 16, s))
    out.append('<text x="%d" y="%d" text-anchor="middle">step</text>' % ((L + W - R) // 2, H - 10))
    for i, (key, colour, name) in enumerate(SERIES):
        pts = " ".join("%.1f,%.1f" % (px(int(r["step"])), py(float(r[key]))) for r in rows)
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (colour, pts))
        for r in rows:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>'
                       % (px(int(r["step"])), py(float(r[key])), colour))
        y = T + 10 + 18 * i
        out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                   % (W - R + 10, W - R + 30, y, y, colour))
        out.append('<text x="%d" y="%d">%s</text>' % (W - R + 34, y + 4, name))
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Bar chart of the out-of-core stencil benchmark (run_stencil_ooc_bench.sh's stencil_ooc.csv):
seconds of each scheme per (data set, size, device budget), with the CPU path's bar in every
group of its set, as a standalone SVG (standard library only). Skipped schemes (no plan under
the budget) leave a gap marked "skip"; a run that was not correct is drawn hatched grey.

    tools/bench/plot_stencil_ooc.py stencil_ooc.csv out.svg [title]
"""
import csv
import math
import sys

ORDER = ("cpu", "copy", "direct", "shared", "incore", "auto")
COLOUR = {"cpu": "#7f8c8d", "copy": "#2980b9", "direct": "#27ae60", "shared": "#c0392b",
          "incore": "#8e44ad", "auto": "#e67e22"}
BAR, GAP, TOP, BOTTOM, LEFT, RIGHT, HEIGHT = 18, 28, 70, 70, 70, 120, 440


def size_key(row):
    return (row["set"], row["nx"], row["ny"], row["nz"], row["steps"], row["type"])


def budget_label(budget):
    b = int(budget)
    if b == 0:
        return "no cap"
    return "%g GiB" % (b / 2.0 ** 30) if b >= 2 ** 30 else "%g MB" % (b / 1e6)


def groups_of(rows):
    """[(title, budget text, {scheme: row})] in the file's order; the CPU row in each."""
    cpu = {size_key(r): r for r in rows if r["scheme"] == "cpu"}
    out, index = [], {}
    for r in rows:
        if r["scheme"] == "cpu":
            continue
        key = size_key(r) + (r["budget"],)
        if key not in index:
            index[key] = len(out)
            bars = {"cpu": cpu[size_key(r)]} if size_key(r) in cpu else {}
            title = "%s %sx%sx%s" % (r["set"], r["nx"], r["ny"], r["nz"])
            out.append((title, budget_label(r["budget"]), bars))
        out[index[key]][2][r["scheme"]] = r
    return out


def seconds(row):
    try:
        return float(row["seconds"])
    except (KeyError, ValueError):
        return None


def correct(row):
    if row["scheme"] == "cpu":
        return True
    return (row["path"] == "gpu" and row["fell_back"] == "0" and row["bytes_match"] == "1"
            and row["diff_ok"] in ("1", "na") and row["same_as_first_gpu"] == "1")


def bar(out, x, y0, h, row, scheme):
    s = seconds(row)
    fill = COLOUR[scheme] if correct(row) else "url(#wrong)"
    out.append('<rect x="%.1f" y="%.1f" width="%d" height="%.1f" fill="%s"/>'
               % (x, y0 - h, BAR, h, fill))
    # Upright labels would overlap their neighbours': written along the bar.
    lx, ly = x + BAR / 2 + 3, y0 - h - 3
    out.append('<text x="%.1f" y="%.1f" transform="rotate(-90 %.1f %.1f)" font-size="9">'
               '%.3g</text>' % (lx, ly, lx, ly, s))


def draw_group(out, x, y0, scale, group):
    title, budget, bars = group
    for i, scheme in enumerate(ORDER):
        bx = x + i * BAR
        row = bars.get(scheme)
        if row is None:
            continue
        if row["path"] == "skip" or seconds(row) is None:
            out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-size="9">skip</text>'
                       % (bx + BAR / 2, y0 - 3))
            continue
        bar(out, bx, y0, seconds(row) * scale, row, scheme)
    mid = x + len(ORDER) * BAR / 2
    out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (mid, y0 + 16, title))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (mid, y0 + 30, budget))


def nice_top(most):
    """The axis' top: the first 1, 2 or 5 times a power of ten, times 5, above `most`."""
    step = 10.0 ** math.floor(math.log10(most / 5.0))
    for f in (1, 2, 5, 10):
        if 5 * f * step >= most:
            return 5 * f * step
    return most


def axis(out, width, y0, top):
    """Gridlines at fifths of the axis."""
    for i in range(6):
        v = top * i / 5
        y = y0 - (HEIGHT - TOP - BOTTOM) * i / 5
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                   % (LEFT, width - RIGHT, y, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%.3g</text>' % (LEFT - 4, y + 4, v))
    out.append('<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">seconds'
               '</text>' % ((TOP + y0) // 2, (TOP + y0) // 2))


def legend(out, width):
    for i, scheme in enumerate(ORDER):
        y = TOP + 18 * i
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>'
                   % (width - RIGHT + 14, y - 10, COLOUR[scheme]))
        out.append('<text x="%d" y="%d">%s</text>' % (width - RIGHT + 32, y, scheme))
    y = TOP + 18 * len(ORDER)
    out.append('<rect x="%d" y="%d" width="12" height="12" fill="url(#wrong)"/>'
               % (width - RIGHT + 14, y - 10))
    out.append('<text x="%d" y="%d">not correct</text>' % (width - RIGHT + 32, y))


def svg(groups, title):
    group_width = len(ORDER) * BAR + GAP
    width = LEFT + RIGHT + max(1, len(groups)) * group_width
    y0 = HEIGHT - BOTTOM
    times = [seconds(r) for g in groups for r in g[2].values() if seconds(r) is not None]
    top = nice_top(max(times)) if times and max(times) > 0 else 1.0
    scale = (HEIGHT - TOP - BOTTOM) / top
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (width, HEIGHT),
           '<defs><pattern id="wrong" width="6" height="6" patternUnits="userSpaceOnUse">'
           '<rect width="6" height="6" fill="#bbb"/><path d="M0 6L6 0" stroke="#555"/>'
           '</pattern></defs>',
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="22" font-size="13">%s</text>' % (LEFT, title)]
    axis(out, width, y0, top)
    for i, group in enumerate(groups):
        draw_group(out, LEFT + GAP / 2 + i * group_width, y0, scale, group)
    legend(out, width)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        rows = [r for r in csv.DictReader(f) if r.get("scheme")]
    groups = groups_of(rows)
    if not groups:
        sys.exit("no device rows in " + sys.argv[1])
    title = sys.argv[3] if len(sys.argv) > 3 else "out-of-core stencils: seconds per scheme"
    with open(sys.argv[2], "w") as f:
        f.write(svg(groups, title))


if __name__ == "__main__":
    main()

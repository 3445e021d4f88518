#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Read a stencil run's step lines (HYBLAS_TRACE with HYBLAS_TRACE_STEPS=1) and say, per run,
what rate PCIe moved each way while both directions were busy, while only one was, and how
long neither was: the rates the pipeline really got, to set beside the calibrated ones
(`hyblas-calibrate`: page-locked buffers, and ordinary memory registered, which is what direct
mapping moves). Each step's bytes are the run's bytes of its kind (the run line's h2d and
d2h) shared out over the steps by the planes each moves, spread evenly over its duration.

With --windows SECONDS, instead, each run's mean rate up and down in consecutive windows of
that length ("up/down" in GB/s): whether a slow run is slow throughout (the bus's rate) or in
a part of it (something beside the transfers at that time).

    tools/bench/stencil_bus_rates.py [--windows SECONDS] TRACE [TRACE...]   (.gz is read too)
"""
import math
import sys

from stencil_timeline_steps import trace_runs


def spread(run, steps, width=None, bins=4000):
    """Bytes moved up and down in each interval of the run, and the intervals' length: intervals
    of `width` seconds, or else `bins` of them over the transfers' span; None without transfers."""
    moves = [s for s in steps if s.get("op") in ("upload", "download") and "b" in s]
    if not moves:
        return None
    end = max(float(s["e"]) for s in moves)
    if width is not None:
        dt, bins = width, max(1, math.ceil(end / width))
    else:
        dt = end / bins
    planes = {"upload": 0, "download": 0}
    for s in moves:
        planes[s["op"]] += int(s["z1"]) - int(s["z0"])
    total = {"upload": float(run.get("h2d", 0)), "download": float(run.get("d2h", 0))}
    moved = {"upload": [0.0] * bins, "download": [0.0] * bins}
    for s in moves:
        b, e = float(s["b"]), float(s["e"])
        if e <= b or planes[s["op"]] == 0:
            continue
        per_s = total[s["op"]] * (int(s["z1"]) - int(s["z0"])) / planes[s["op"]] / (e - b)
        for i in range(int(b / dt), min(int(e / dt), bins - 1) + 1):
            lo, hi = max(b, i * dt), min(e, (i + 1) * dt)
            if hi > lo:
                moved[s["op"]][i] += per_s * (hi - lo)
    return moved["upload"], moved["download"], dt


def headline(run):
    return "%s scheme=%s d=%s k=%s: %.3f s, %.1f GB up, %.1f GB down" % (
        run.get("op", "?"), run.get("scheme", "?"), run.get("d", "?"), run.get("k", "?"),
        float(run.get("seconds", 0)), float(run.get("h2d", 0)) * 1e-9,
        float(run.get("d2h", 0)) * 1e-9)


def report(run, steps):
    moved = spread(run, steps)
    if moved is None:
        return
    up, down, dt = moved
    # seconds and bytes up / down in each state of the bus
    state = {k: [0.0, 0.0, 0.0] for k in ("both", "up only", "down only", "neither")}
    for u, d in zip(up, down):
        busy_up, busy_dn = u > 0.01 * dt * 1e9, d > 0.01 * dt * 1e9
        k = ("both" if busy_dn else "up only") if busy_up else ("down only" if busy_dn else "neither")
        state[k][0] += dt
        state[k][1] += u
        state[k][2] += d
    print(headline(run))
    for k, (sec, u, d) in state.items():
        if sec <= 0:
            continue
        print("  %-9s %6.3f s  up %5.1f GB/s  down %5.1f GB/s" % (k, sec, u / sec * 1e-9, d / sec * 1e-9))


def windows(run, steps, width):
    moved = spread(run, steps, width=width)
    if moved is None:
        return
    up, down, _ = moved
    print(headline(run))
    print("  " + " ".join("%.0f/%.0f" % (u / width * 1e-9, d / width * 1e-9) for u, d in zip(up, down)))


def main(args):
    width = None
    if args[:1] == ["--windows"] and len(args) > 1:
        width, args = float(args[1]), args[2:]
    if not args or (width is not None and width <= 0):
        print(__doc__)
        return 2
    for p in args:
        for steps, _, run in trace_runs(p):
            if width is None:
                report(run, steps)
            else:
                windows(run, steps, width)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Read a stencil run's step lines (HYBLAS_TRACE with HYBLAS_TRACE_STEPS=1) and say, per run,
what rate PCIe moved each way while both directions were busy, while only one was, and how
long neither was: the rates the pipeline really got, to set beside the calibrated ones
(`hyblas-calibrate`: page-locked buffers, and ordinary memory registered, which is what direct
mapping moves). Each step's bytes are the run's bytes of its kind (the run line's h2d and
d2h) shared out over the steps by the planes each moves, spread evenly over its duration.

    tools/bench/stencil_bus_rates.py TRACE [TRACE...]     (a .gz trace is read too)
"""
import sys

from stencil_timeline_steps import trace_runs


def report(run, steps, bins=4000):
    moves = [s for s in steps if s.get("op") in ("upload", "download") and "b" in s]
    if not moves:
        return
    planes = {"upload": 0, "download": 0}
    for s in moves:
        planes[s["op"]] += int(s["z1"]) - int(s["z0"])
    total = {"upload": float(run.get("h2d", 0)), "download": float(run.get("d2h", 0))}
    end = max(float(s["e"]) for s in moves)
    dt = end / bins
    rate = {"upload": [0.0] * bins, "download": [0.0] * bins}
    for s in moves:
        b, e = float(s["b"]), float(s["e"])
        if e <= b or planes[s["op"]] == 0:
            continue
        nbytes = total[s["op"]] * (int(s["z1"]) - int(s["z0"])) / planes[s["op"]]
        per_s = nbytes / (e - b)
        for i in range(int(b / dt), min(int(e / dt), bins - 1) + 1):
            lo, hi = max(b, i * dt), min(e, (i + 1) * dt)
            if hi > lo:
                rate[s["op"]][i] += per_s * (hi - lo)
    # seconds and bytes up / down in each state of the bus
    state = {k: [0.0, 0.0, 0.0] for k in ("both", "up only", "down only", "neither")}
    for i in range(bins):
        up, dn = rate["upload"][i], rate["download"][i]
        busy_up, busy_dn = up > 0.01 * dt * 1e9, dn > 0.01 * dt * 1e9
        k = ("both" if busy_dn else "up only") if busy_up else ("down only" if busy_dn else "neither")
        state[k][0] += dt
        state[k][1] += up
        state[k][2] += dn
    print("%s scheme=%s d=%s k=%s: %.3f s, %.1f GB up, %.1f GB down" %
          (run.get("op", "?"), run.get("scheme", "?"), run.get("d", "?"), run.get("k", "?"),
           float(run.get("seconds", 0)), total["upload"] * 1e-9, total["download"] * 1e-9))
    for k, (sec, up, dn) in state.items():
        if sec <= 0:
            continue
        print("  %-9s %6.3f s  up %5.1f GB/s  down %5.1f GB/s" % (k, sec, up / sec * 1e-9, dn / sec * 1e-9))


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    for p in paths:
        for steps, _, run in trace_runs(p):
            report(run, steps)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

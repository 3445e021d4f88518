#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Read a stencil run's step lines (HYBLAS_TRACE with HYBLAS_TRACE_STEPS=1) and say, per
traced schedule, how long steps of each kind began after they were ready (issued, their
stream's previous step and their dependencies done), and which kind of step ended just
before each late begin: a kernel that begins the moment an unrelated copy ends is held back
by that copy, not by the schedule.

    tools/bench/stencil_timeline_steps.py TRACE [TRACE...]     (a .gz trace is read too)
"""
import gzip
import sys
from collections import defaultdict


def trace_runs(path):
    """Each traced run of a trace: its step lines (dicts of their key=value fields), its
    timeline summary (the text after the line's tag; "" without one) and its run line's
    key=value fields, in that order as the library writes them."""
    opener = gzip.open if path.endswith(".gz") else open
    steps, summary = [], ""
    with opener(path, "rt") as f:
        for line in f:
            if line.startswith("hyblas_stencil_step "):
                steps.append(dict(kv.split("=", 1) for kv in line.split()[1:]))
            elif line.startswith("hyblas_stencil_timeline "):
                summary = line.split(" ", 1)[1].strip()
            elif line.startswith("hyblas_stencil_run "):
                yield steps, summary, dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
                steps, summary = [], ""


def schedules(path):
    for steps, summary, _ in trace_runs(path):
        if summary:
            yield summary, steps


def report(summary, steps):
    print(summary)
    if not steps or "ready" not in steps[0]:
        print("  (no step lines with ready=: trace with HYBLAS_TRACE_STEPS=1)")
        return
    ends = sorted((float(s["e"]), s["op"]) for s in steps)
    late = defaultdict(float)
    after = defaultdict(float)
    for s in steps:
        gap = float(s["b"]) - float(s["ready"])
        if gap <= 0:
            continue
        late[s["op"]] += gap
        before = [op for e, op in ends if e <= float(s["b"]) + 1e-6]
        if gap > 1e-3 and before:
            after[(s["op"], before[-1])] += gap
    print("  late by kind: " + ", ".join("%s %.4f s" % kv for kv in sorted(late.items())))
    for (op, prev), gap in sorted(after.items(), key=lambda kv: -kv[1]):
        print("  %s began as a %s ended: %.4f s" % (op, prev, gap))


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in argv[1:]:
        for n, (summary, steps) in enumerate(schedules(path)):
            print("%s, schedule %d:" % (path, n + 1))
            report(summary, steps)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Check that every #include of the library goes down the layers, never up.

The layers, lowest first (docs/architecture.md, "Layers"):
  core      what every layer uses: status, logging, files, state, statistics, configuration
  kernels   the device runtime, the backends, the CPU and device kernels and pipelines
  policies  cost models, profiles, learned rates
  dispatch  where decisions become actions; the generated routine table
  shim      interposition: constructor, symbol resolution, exported entry points
A file may include its own layer, any layer below it, and the public headers (include/).
The routine table generated from shim/routines.tsv (hyb_routines.h, hyb_routine_types.h)
belongs to dispatch: the shim and dispatch read it, nothing below them does.

Usage: check_layers.py [--root DIR]   exit 0: clean; 1: a crossing or an include that
cannot be placed (each printed as FILE:LINE: ...); 2: bad usage.
Standard library only.
"""
import argparse
import os
import re
import sys

LAYERS = ("core", "kernels", "policies", "dispatch", "shim")
RANK = {name: i for i, name in enumerate(LAYERS)}
PUBLIC = "include"
# Headers that exist only in the build tree, and the layer that owns each.
GENERATED = {"hyb_routines.h": "dispatch", "hyb_routine_types.h": "dispatch"}
SOURCE_EXT = (".c", ".h", ".cu", ".cuh", ".def", ".inc")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def layer_of(rel):
    """The layer of a path relative to the root, or None outside the layers."""
    first = rel.split("/", 1)[0]
    return first if first in RANK else None


def place(root, src_rel, target, quoted):
    """Where an include lands: a layer name, PUBLIC, None (not the project's: a system
    header), or a string starting with '?' saying why it cannot be placed."""
    first = target.split("/", 1)[0]
    if first in RANK:
        if not os.path.isfile(os.path.join(root, target)):
            return "?no such file"
        return first
    if first in ("tools", "tests"):
        return "?the library includes nothing of " + first + "/"
    if quoted:
        here = os.path.normpath(os.path.join(os.path.dirname(src_rel), target))
        if os.path.isfile(os.path.join(root, here)):
            return layer_of(here) or "?outside the layers: " + here
    if os.path.isfile(os.path.join(root, "core", target)):
        return "core"
    if os.path.isfile(os.path.join(root, PUBLIC, target)):
        return PUBLIC
    if target in GENERATED:
        return GENERATED[target]
    return "?not found in the tree" if quoted else None


def check(root):
    problems = []
    for layer in LAYERS:
        top = os.path.join(root, layer)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE_RE.match(line)
                        if not m:
                            continue
                        target = m.group(2).strip()
                        where = place(root, rel, target, m.group(1) == '"')
                        if where is None or where == PUBLIC:
                            continue
                        if where.startswith("?"):
                            problems.append(f"{rel}:{lineno}: cannot place #include \"{target}\": {where[1:]}")
                        elif RANK[where] > RANK[layer]:
                            problems.append(f"{rel}:{lineno}: {layer} includes {target}, of {where}, "
                                            f"a layer above it")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if not all(os.path.isdir(os.path.join(root, layer)) for layer in LAYERS):
        print(f"check_layers: {root} lacks one of the layer folders {', '.join(LAYERS)}", file=sys.stderr)
        return 2
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} include(s) cross the layers the wrong way "
              f"(order, lowest first: {' < '.join(LAYERS)})")
        return 1
    print("check_layers: every include goes down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())

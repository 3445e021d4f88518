#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The include-direction check (tools/check_layers.py) on small planted trees: it passes a
tree whose includes go down the layers and fails, naming the file and line, on each kind of
crossing it exists to catch:
  tests/tools/test_check_layers.py PATH/TO/tools/check_layers.py"""
import os
import subprocess
import sys
import tempfile

LAYERS = ("core", "kernels", "policies", "dispatch", "shim")

# A tree with one file per layer, each including the layers below it, a public header and
# a header of its own folder by a bare name: every include here is allowed.
CLEAN = {
    "core/hyb_a.h": "",
    "core/hyb_a.c": '#include "hyb_a.h"\n#include <stdio.h>\n',
    "include/hyblas_ext.h": "",
    "kernels/fam/hyb_k.h": '#include "hyb_a.h"\n#include "hyblas_ext.h"\n',
    "kernels/fam/hyb_k.c": '#include "hyb_k.h"\n#include "kernels/fam/hyb_k.h"\n',
    "policies/hyb_p.h": '#include "kernels/fam/hyb_k.h"\n',
    "policies/hyb_p.c": '#include "policies/hyb_p.h"\n',
    "dispatch/hyb_d.c": '#include "policies/hyb_p.h"\n#include "hyb_routines.h"\n',
    "shim/hyb_s.c": '#include "dispatch/hyb_d.c"\n#include "core/hyb_a.h"\n',
}


def run(check, files):
    with tempfile.TemporaryDirectory() as root:
        for layer in LAYERS:
            os.makedirs(os.path.join(root, layer), exist_ok=True)
        for rel, text in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        p = subprocess.run([sys.executable, check, "--root", root], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    check = sys.argv[1]
    failures = 0

    def expect(what, files, rc, needle=None):
        nonlocal failures
        got, out = run(check, files)
        if got != rc or (needle and needle not in out):
            failures += 1
            print(f"FAIL {what}: rc {got} (want {rc}), output:\n{out}")
        else:
            print(f"ok   {what}")

    expect("a clean tree passes", CLEAN, 0)
    planted = [
        ("kernels include policies", "kernels/fam/hyb_k.c", '#include "policies/hyb_p.h"\n',
         "kernels/fam/hyb_k.c:3: kernels includes policies/hyb_p.h"),
        ("kernels include dispatch", "kernels/fam/hyb_k.c", '#include "dispatch/hyb_d.c"\n',
         "kernels/fam/hyb_k.c:3: kernels includes dispatch/hyb_d.c"),
        ("core includes the generated routine table", "core/hyb_a.c", '#include "hyb_routines.h"\n',
         "core/hyb_a.c:3: core includes hyb_routines.h, of dispatch"),
        ("core includes kernels", "core/hyb_a.c", '#  include "kernels/fam/hyb_k.h"\n',
         "core/hyb_a.c:3: core includes kernels/fam/hyb_k.h"),
        ("policies include the shim", "policies/hyb_p.c", '#include <shim/hyb_s.c>\n',
         "policies/hyb_p.c:2: policies includes shim/hyb_s.c"),
        ("dispatch includes the shim", "dispatch/hyb_d.c", '#include "shim/hyb_s.c"\n',
         "dispatch/hyb_d.c:3: dispatch includes shim/hyb_s.c"),
        ("an unknown header", "kernels/fam/hyb_k.c", '#include "hyb_nowhere.h"\n',
         "kernels/fam/hyb_k.c:3: cannot place"),
        ("a test helper in the library", "dispatch/hyb_d.c", '#include "tests/unit/hyb_test_util.h"\n',
         "dispatch/hyb_d.c:3: cannot place"),
    ]
    for what, rel, line, needle in planted:
        files = dict(CLEAN)
        files[rel] = files[rel] + line
        expect(what, files, 1, needle)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

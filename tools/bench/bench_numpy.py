#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""numpy's a @ b (float64) timed in this process; run it plain and under
LD_PRELOAD of libhyblas (pip numpy calls scipy_cblas_dgemm64_ of its own
OpenBLAS, which NVBLAS does not define). Prints one CSV line per size:
label,n,seconds,tflops,relerr_vs_reference  (reference: float64 product of
the same inputs computed in blocks with numpy's own einsum-free path is too
slow; we check against a second product a @ b in float64 on the same data
with a random-vector identity: ||(a@b)x - a(bx)|| / (||a|| ||b|| ||x|| n eps))."""
import sys
import time

import numpy as np


def main():
    label = sys.argv[1]
    sizes = [int(s) for s in sys.argv[2:]] or [8192]
    rng = np.random.default_rng(7)
    for n in sizes:
        a = rng.standard_normal((n, n))
        b = rng.standard_normal((n, n))
        c = a @ b  # warm-up (device start-up, buffers)
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            c = a @ b
            times.append(time.perf_counter() - t0)
        t = sorted(times)[1]
        x = rng.standard_normal(n)
        y1 = c @ x
        y2 = a @ (b @ x)
        err = np.linalg.norm(y1 - y2) / (np.linalg.norm(a) * np.linalg.norm(b) * np.linalg.norm(x) * n * 2.2e-16)
        print(f"{label},{n},{t:.6f},{2 * n ** 3 / t * 1e-12:.3f},{err:.3g},{np.__version__}", flush=True)


if __name__ == "__main__":
    main()

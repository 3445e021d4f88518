# SPDX-License-Identifier: BSD-3-Clause
"""numpy's matrix products (a @ b and a @ a.T, float64, n = 300), checked
against numpy's own BLAS-free einsum loops with a normalized error bound and,
on the second run, against the first run's results saved without hyblas.

  numpy_check.py save FILE      (run without hyblas)
  numpy_check.py compare FILE   (run with hyblas preloaded)
Exit status: 0 pass, 1 fail, 77 numpy missing."""
import sys

try:
    import numpy as np
except ImportError:
    print("numpy_check: numpy is not installed for", sys.executable)
    sys.exit(77)

EPS = np.finfo(np.float64).eps
TOL = 3.0


def ratio(c, ref, a, b, k):
    """||c - ref||_F / ((sqrt(k) + 2) ||a||_F ||b||_F eps)."""
    bound = (np.sqrt(k) + 2) * np.linalg.norm(a) * np.linalg.norm(b)
    return np.linalg.norm(c - ref) / (bound * EPS)


def main():
    mode, path = sys.argv[1], sys.argv[2]
    n = 300
    rng = np.random.default_rng(20260203)
    a = rng.standard_normal((n, n))
    b = rng.standard_normal((n, n))
    c = a @ b          # cblas_dgemm
    d = a @ a.T        # cblas_dsyrk (or cblas_dgemm)
    c_loop = np.einsum("ij,jk->ik", a, b, optimize=False)
    d_loop = np.einsum("ij,kj->ik", a, a, optimize=False)
    failed = 0
    checks = [("a @ b vs loops", ratio(c, c_loop, a, b, n)),
              ("a @ a.T vs loops", ratio(d, d_loop, a, a, n)),
              ("a @ a.T symmetric", ratio(d, d.T, a, a, n))]
    if mode == "save":
        np.savez(path, c=c, d=d)
    else:
        ref = np.load(path)
        checks += [("a @ b vs without hyblas", ratio(c, ref["c"], a, b, n)),
                   ("a @ a.T vs without hyblas", ratio(d, ref["d"], a, a, n))]
    for what, r in checks:
        ok = np.isfinite(r) and r < TOL
        failed += not ok
        print("%s %-28s error/(bound*eps) = %.3g" % ("ok  " if ok else "FAIL", what, r))
    print("numpy %s, %s: %s" % (np.__version__, mode, "FAILED" if failed else "PASSED"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

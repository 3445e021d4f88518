#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The "never slower" report: per case of the three families (level 3, sparse,
tridiagonal), hyblas auto against the real library and against the best forced
path, as ratios from one run.

  never_slower_report.py [--strict] [--tol 0.05] GEMM_CSV SPMV_CSV GTSV_CSV

GEMM_CSV: hyb_bench_gemm rows (label real: the CPU library without hyblas;
hyblas-auto, hyblas-gpu, hyblas-cpu: one process under hyblas, in turns).
SPMV_CSV: hyb_bench_spmv rows (first call: cpu, gpu, auto_first; steady state:
pair_cpu, pair_gpu, pair_auto, interleaved; mkl rows where MKL was there).
GTSV_CSV: hyb_bench_gtsv rows (lapack without hyblas; hyblas-auto, -cpu, -gpu).

A case is slower when auto takes more than (1 + tol) times the better of the
real library and the best forced path. Exit status: 1 when a result is wrong,
a family has no case, or (--strict) a case is slower; else 0.
"""
import argparse
import csv
import sys


def rows(path):
    """The CSV rows of a file, named by its first header line; '#' lines skipped."""
    try:
        with open(path) as f:
            lines = [l for l in f if l.strip() and not l.startswith('#')]
    except OSError as e:
        print(f"never_slower_report: {path}: {e}", file=sys.stderr)
        return []
    return list(csv.DictReader(lines))


def num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if x > 0 else None


class Table:
    def __init__(self, tol):
        self.tol = tol
        self.out = []
        self.slower = 0
        self.wrong = 0
        self.count = {}

    def case(self, family, name, real, auto, forced):
        """One case: real and auto in seconds (None: not measured), forced {path: seconds}."""
        forced = {k: v for k, v in forced.items() if v}
        self.count[family] = self.count.get(family, 0)
        if auto is None:
            self.out.append(f"| {family} | {name} | {fmt(real)} | - | - | - | - | no auto time |")
            return
        self.count[family] += 1
        best = min(forced.items(), key=lambda kv: kv[1]) if forced else (None, None)
        r_real = auto / real if real else None
        r_best = auto / best[1] if best[1] else None
        ref = min(x for x in (real, best[1]) if x) if (real or best[1]) else None
        verdict = "-"
        if ref:
            verdict = "ok" if auto <= (1.0 + self.tol) * ref else "SLOWER"
            self.slower += verdict == "SLOWER"
        self.out.append(f"| {family} | {name} | {fmt(real)} | {fmt(auto)} | "
                        f"{best[0] or '-'} {fmt(best[1])} | {ratio(r_real)} | {ratio(r_best)} | {verdict} |")

    def check(self, ok, what):
        if not ok:
            self.wrong += 1
            self.out.append(f"| wrong result | {what} | | | | | | WRONG |")


def fmt(s):
    if not s:
        return "-"
    return f"{s * 1e3:.3f} ms" if s < 1 else f"{s:.3f} s"


def ratio(r):
    return "-" if r is None else f"{r:.2f}"


def gemm(t, path):
    by = {}
    for r in rows(path):
        if 'label' not in r or r.get('seconds') is None:
            continue
        key = (r['prec'], r['shape'], r['m'], r['n'], r['k'], r['beta'])
        by.setdefault(key, {})[r['label']] = num(r['seconds'])
        t.check(r.get('ok') == 'ok', f"gemm {r['label']} {r['prec']} {r['m']}x{r['n']}x{r['k']}")
    for key, v in by.items():
        p, shape, m, n, k, beta = key
        t.case("level 3", f"{p}gemm {shape} {m}x{n}x{k} beta={beta}", v.get('real'), v.get('hyblas-auto'),
               {'gpu': v.get('hyblas-gpu'), 'cpu': v.get('hyblas-cpu')})


SPMV_VARIANTS = ('cpu', 'gpu', 'auto_first', 'pair_cpu', 'pair_gpu', 'pair_auto', 'mkl')


def spmv(t, path):
    by = {}
    for r in rows(path):
        # Only the variants compared here: a file made of several runs repeats the header, and
        # the program's summary lines ("ratio,...", "small,...") have other columns.
        if r.get('variant') not in SPMV_VARIANTS:
            continue
        key = (r['matrix'], r['prec'], r['rows'], r['nnz'])
        by.setdefault(key, {})[r['variant']] = (num(r['first_s']), num(r['steady_s']))
        t.check(r.get('ok') == '1', f"spmv {r['variant']} {r['matrix']} {r['prec']}")
    for key, v in by.items():
        mat, p, m, nnz = key
        name = f"{p} {mat} m={m} nnz={nnz}"

        def get(variant, i):
            x = v.get(variant)
            return x[i] if x else None
        # The real library: MKL's routine where the program brought MKL, else the CPU
        # reference (hyblas's own kernel: there is no other implementation of these names).
        real1 = get('mkl', 0) or get('cpu', 0)
        t.case("sparse", name + " first call", real1, get('auto_first', 0),
               {'gpu': get('gpu', 0), 'cpu': get('cpu', 0)})
        real = get('mkl', 1) or get('pair_cpu', 1)
        t.case("sparse", name + " steady", real, get('pair_auto', 1),
               {'gpu': get('pair_gpu', 1), 'cpu': get('pair_cpu', 1)})


def gtsv(t, path):
    by = {}
    for r in rows(path):
        if 'label' not in r or r.get('seconds') is None:
            continue
        key = (r['prec'], r['n'], r['nrhs'], r['kind'], r['dom'])
        by.setdefault(key, {})[r['label']] = num(r['seconds'])
        t.check(r.get('ok') in ('1', 'ok'), f"gtsv {r['label']} {r['prec']} n={r['n']}")
    for key, v in by.items():
        p, n, nrhs, kind, dom = key
        t.case("tridiagonal", f"{p}gtsv n={n} nrhs={nrhs} kind={kind} dom={dom}", v.get('lapack'),
               v.get('hyblas-auto'), {'gpu': v.get('hyblas-gpu'), 'cpu': v.get('hyblas-cpu')})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--strict', action='store_true', help='exit 1 when auto is slower anywhere')
    ap.add_argument('--tol', type=float, default=0.05)
    ap.add_argument('gemm_csv')
    ap.add_argument('spmv_csv')
    ap.add_argument('gtsv_csv')
    a = ap.parse_args()
    t = Table(a.tol)
    gemm(t, a.gemm_csv)
    spmv(t, a.spmv_csv)
    gtsv(t, a.gtsv_csv)
    print(f"# never slower: auto against the real library and the best forced path "
          f"(ratios auto/x; SLOWER: auto above {1 + a.tol:.2f}x the better of the two)")
    print("| family | case | real library | auto | best forced | auto/real | auto/best forced | verdict |")
    print("|---|---|---|---|---|---|---|---|")
    for line in t.out:
        print(line)
    status = 0
    for fam in ("level 3", "sparse", "tridiagonal"):
        if not t.count.get(fam):
            print(f"never_slower_report: no {fam} case measured", file=sys.stderr)
            status = 1
    if t.wrong:
        print(f"never_slower_report: {t.wrong} wrong result(s)", file=sys.stderr)
        status = 1
    cases = sum(t.count.values())
    print(f"\n{cases} cases, {t.slower} slower than the better of the real library and the best forced path")
    if a.strict and t.slower:
        status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())

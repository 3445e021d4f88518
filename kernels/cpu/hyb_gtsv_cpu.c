/* SPDX-License-Identifier: BSD-3-Clause */
/* CPU tridiagonal solvers for ?gtsv_: serial Thomas, parallel truncated SPIKE, and the O(n)
   checks and LAPACK factor outputs that decide and complete the SPIKE path. */

/* The precision-generic part (below the #else) is compiled twice, for double and for float,
   by including this file into itself with T (element type) and FN (name prefix) defined:
   one copy of each algorithm, each computing in its own precision as ?gtsv_ does. */
#ifndef HYB_GTSV_GENERIC

#include "kernels/cpu/hyb_gtsv_cpu.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------
   Design notes (seed 002, adapted).

   Truncated SPIKE cuts the rows into P partitions; for a dominant matrix the coupling of
   two partitions only reaches ~m rows (eq. 8: dom^-m), so each seam's two boundary values
   follow from a 2x2 reduced system built from the last rows of the upper partition (LU
   forward sweep) and the first rows of the lower one (UL forward sweep). The seed's CPU
   kernel (after Mendiratta) already restricts the UL sweep to the first 2*m_min rows; here
   the idea is taken to its end: a seam needs only its 2m-row window (hyb_?gtsv_seam), so
   after the seams are known each partition is an ordinary Thomas solve (one LU forward and
   one back sweep) entering with the seam's d' and y[s-1] = d'[s-1] x[s-1] + du[s-1] x[s].
   The partition's forward sweep is then LAPACK's own elimination, so d' is LAPACK's D and
   the factor outputs cost only the stores.

   Bandwidth: a plain Thomas sweep writes d' and y and reads them back (88 bytes a row with
   the factor outputs). We sweep each partition in cache blocks instead: forward over a
   block, its last x from a UL sweep over the next m rows (which the next block reads
   anyway, so they stay in cache) and a 2x2 solve, then back over the block while it is
   still in cache. DRAM then sees each input once and each output once: 40 bytes a row
   (double, one RHS: dl, d, du, b read, x written), 56 with the factor outputs (D and DL
   written too; their lines are already in cache, so no extra read for ownership).

   Latency: d'[i] depends on d'[i-1] through a division (~15-20 cycles), which would cap a
   core near 150 M rows/s; a thread therefore sweeps up to HYB_GTSV_LANES partitions at
   once, interleaved, so the out-of-order core overlaps their independent chains.
   --------------------------------------------------------------------------------------- */

/* Cache block footprint per thread (all lanes, inputs and scratch): half of a 512 KiB L2
   (AMD EPYC cores; server Xeons have 1-2 MiB per core, where this stays comfortably inside
   L2). */
#define HYB_GTSV_BLOCK_BYTES ( (int64_t)256 * 1024 )

/* Partitions shorter than this many windows waste more on seams than they gain. */
#define HYB_GTSV_MIN_PART_WINDOWS 4
#define HYB_GTSV_MIN_PART_ROWS    64

/* Check passes restart the d' recurrence `warm` rows early per partition. */
#define HYB_GTSV_CHECK_MIN_ROWS 1024

enum
{
	HYB_GTSV_EV_NONE = 0,
	HYB_GTSV_EV_SWAP = 1, /* LAPACK's test would (or may) exchange rows */
	HYB_GTSV_EV_ZERO = 2  /* exact zero pivot with no exchange: LAPACK's INFO > 0 */
};

typedef struct
{
	int64_t pos;   /* 0-based row where the event happens */
	int     kind;  /* HYB_GTSV_EV_* */
	int     exact; /* the partition's recurrence started at row 0 */
} hyb_gtsv_event_t;

static int hyb_gtsv_threads( int nthreads )
{
	if ( nthreads > 0 ) return nthreads;
	int t = omp_get_max_threads();
	return t > 0 ? t : 1;
}

/* Number of partitions for len rows: as many as threads * lanes, each at least min_rows. */
static int64_t hyb_gtsv_nparts( int64_t len, int64_t min_rows, int nt )
{
	int64_t p = (int64_t)nt * HYB_GTSV_LANES;
	int64_t q = min_rows > 0 ? len / min_rows : len;
	if ( q < p ) p = q;
	return p < 1 ? 1 : p;
}

/* The checks' partitions of len rows (each at least HYB_GTSV_CHECK_MIN_ROWS rows and eight
   restarts of `warm` rows), and in *nteam the threads that sweep them, HYB_GTSV_LANES
   partitions each. */
static int64_t hyb_gtsv_check_parts( int64_t len, int64_t warm, int nthreads, int64_t* nteam )
{
	int     nt      = hyb_gtsv_threads( nthreads );
	int64_t minrows = 8 * warm > HYB_GTSV_CHECK_MIN_ROWS ? 8 * warm : HYB_GTSV_CHECK_MIN_ROWS;
	int64_t p       = hyb_gtsv_nparts( len, minrows, nt );
	int64_t teams   = ( p + HYB_GTSV_LANES - 1 ) / HYB_GTSV_LANES;
	*nteam          = teams > nt ? nt : teams;
	return p;
}

/* Start of partition k of P over [r0, r0 + len). Interior boundaries of long partitions
   are skewed by (72 k mod 512) rows: a thread sweeps its lanes in lockstep, and lanes whose
   addresses are equal modulo 4 KiB (len a power of two) make every store look as if it
   might alias the next lane's load (4K aliasing: a 3x slowdown measured with n = 2^25). */
static int64_t hyb_gtsv_bound( int64_t r0, int64_t len, int64_t k, int64_t p )
{
	int64_t b = r0 + (int64_t)( ( (__int128)len * k ) / p );
	if ( k > 0 && k < p && len / p >= 1024 ) b += ( 72 * k ) % 512;
	return b;
}

/* Rows per lane per cache block: the footprint rule above, but at least 8 windows so that
   the UL look-ahead (m rows a block) costs under an eighth of the sweep. */
static int64_t hyb_gtsv_block_rows( int nl, int64_t nrhs, size_t elem, int64_t m )
{
	int64_t per = (int64_t)elem * ( 5 + nrhs ) * ( nl > 0 ? nl : 1 );
	int64_t bk  = HYB_GTSV_BLOCK_BYTES / per;
	if ( bk < 8 * m ) bk = 8 * m;
	if ( bk < 64 ) bk = 64;
	return bk;
}

#define HYB_GTSV_INLINE static inline __attribute__( ( always_inline ) )

static int hyb_gtsv_args_ok( int64_t n, int64_t nrhs, const void* dl, const void* d, const void* du,
                             const void* b, int64_t ldb )
{
	if ( n < 0 || nrhs < 0 ) return 0;
	if ( ldb < ( n > 1 ? n : 1 ) ) return 0;
	if ( n >= 1 && d == NULL ) return 0;
	if ( n >= 2 && ( dl == NULL || du == NULL ) ) return 0;
	if ( n >= 1 && nrhs >= 1 && b == NULL ) return 0;
	return 1;
}

#define HYB_GTSV_GENERIC 1

#define T          double
#define FN( name ) hyb_d##name
#define T_ABS      fabs
#define T_U        ( DBL_EPSILON / 2 )
#include "hyb_gtsv_cpu.c"
#undef T
#undef FN
#undef T_ABS
#undef T_U

#define T          float
#define FN( name ) hyb_s##name
#define T_ABS      fabsf
#define T_U        ( FLT_EPSILON / 2 )
#include "hyb_gtsv_cpu.c"
#undef T
#undef FN
#undef T_ABS
#undef T_U

#else /* HYB_GTSV_GENERIC: the precision-generic algorithms, T and FN defined by the includer */

/* ======================================================================================= */
/* Serial Thomas = dgtsv.f's no-swap branch, statement by statement.                      */
/* ======================================================================================= */

hyb_status_t FN( gtsv_thomas )( int64_t n, int64_t nrhs, T* dl, T* d, const T* du, T* b,
                                int64_t ldb, int64_t* info )
{
	if ( info == NULL || !hyb_gtsv_args_ok( n, nrhs, dl, d, du, b, ldb ) ) return HYB_E_INVALID;
	*info = 0;
	if ( n == 0 ) return HYB_OK;

	/* Elimination, 0-based step i eliminates dl[i] with pivot d[i] (LAPACK's step i+1). */
	for ( int64_t i = 0; i + 1 < n; i++ )
	{
		if ( d[i] == 0 )
		{
			*info = i + 1;
			return HYB_OK;
		}
		T fact   = dl[i] / d[i];
		d[i + 1] = d[i + 1] - fact * du[i];
		for ( int64_t j = 0; j < nrhs; j++ )
		{
			T* bj     = b + j * ldb;
			bj[i + 1] = bj[i + 1] - fact * bj[i];
		}
		/* LAPACK zeroes DL(I) in the loop over I = 1..N-2 only; DL(N-1) keeps its value. */
		if ( i + 2 < n ) dl[i] = 0;
	}
	if ( d[n - 1] == 0 )
	{
		*info = n;
		return HYB_OK;
	}

	/* Back substitution with U (DL is zero, so LAPACK's DL(I)*B(I+2) term adds 0). */
	for ( int64_t j = 0; j < nrhs; j++ )
	{
		T* bj     = b + j * ldb;
		bj[n - 1] = bj[n - 1] / d[n - 1];
		if ( n > 1 ) bj[n - 2] = ( bj[n - 2] - du[n - 2] * bj[n - 1] ) / d[n - 2];
		for ( int64_t i = n - 3; i >= 0; i-- )
			bj[i] = ( bj[i] - du[i] * bj[i + 1] - dl[i] * bj[i + 2] ) / d[i];
	}
	return HYB_OK;
}

/* ======================================================================================= */
/* Seams: the 2x2 reduced system of truncated SPIKE from a 2m-row window.                 */
/* ======================================================================================= */

/* d'[lo-1] (lo >= 1) by the recurrence restarted at row max(0, lo - warm), at the latest at
   row lo-1 (warm = 0: d'[lo-1] taken as d[lo-1]); exact when the restart is row 0. */
static T FN( gtsv_warm_pivot )( const T* dl, const T* d, const T* du, int64_t lo, int64_t warm )
{
	int64_t w0 = lo - warm;
	if ( w0 > lo - 1 ) w0 = lo - 1;
	if ( w0 < 0 ) w0 = 0;
	T c = d[w0];
	for ( int64_t i = w0 + 1; i < lo; i++ )
	{
		T fact = dl[i - 1] / c;
		c      = d[i] - fact * du[i - 1];
	}
	return c;
}

/* Seam between rows s-1 and s, 1 <= s <= n-1 (arguments already checked). */
static void FN( gtsv_seam_one )( int64_t n, int64_t s, int64_t nrhs, const T* dl, const T* d,
                                 const T* du, const T* b, int64_t ldb, int64_t m, T* rec )
{
	int64_t w0 = s - m < 0 ? 0 : s - m;
	int64_t w1 = s + m > n ? n : s + m;

	/* Matrix parts of both sweeps (shared by all right-hand sides). */
	T c = FN( gtsv_warm_pivot )( dl, d, du, s, s - w0 );
	T e = d[w1 - 1];
	for ( int64_t i = w1 - 2; i >= s; i-- )
	{
		T u = du[i] / e;
		e   = d[i] - u * dl[i];
	}
	T det  = c * e - du[s - 1] * dl[s - 1];
	rec[0] = c;

	for ( int64_t j = 0; j < nrhs; j++ )
	{
		const T* bj = b + j * ldb;
		/* LU forward over [w0, s): y[s-1]. The pivots are recomputed per column: a seam
		   is 2m rows, negligible next to the partitions. */
		T cc = d[w0], y = bj[w0];
		for ( int64_t i = w0 + 1; i < s; i++ )
		{
			T fact = dl[i - 1] / cc;
			cc     = d[i] - fact * du[i - 1];
			y      = bj[i] - fact * y;
		}
		/* UL forward over [s, w1) upward: z[s]. */
		T ee = d[w1 - 1], z = bj[w1 - 1];
		for ( int64_t i = w1 - 2; i >= s; i-- )
		{
			T u = du[i] / ee;
			ee  = d[i] - u * dl[i];
			z   = bj[i] - u * z;
		}
		rec[1 + j]        = ( y * e - du[s - 1] * z ) / det;
		rec[1 + nrhs + j] = ( c * z - dl[s - 1] * y ) / det;
	}
}

hyb_status_t FN( gtsv_seam )( int64_t n, int64_t s, int64_t nrhs, const T* dl, const T* d,
                              const T* du, const T* b, int64_t ldb, int64_t m, T* rec )
{
	if ( !hyb_gtsv_args_ok( n, nrhs, dl, d, du, b, ldb ) || rec == NULL ) return HYB_E_INVALID;
	if ( s < 1 || s > n - 1 || m < 1 ) return HYB_E_INVALID;
	FN( gtsv_seam_one )( n, s, nrhs, dl, d, du, b, ldb, m, rec );
	return HYB_OK;
}

/* ======================================================================================= */
/* The partition sweeps: up to HYB_GTSV_LANES partitions of one thread, interleaved.       */
/* ======================================================================================= */

/* Work space per lane, in elements: multiplier and 1/d' of each row of a block (two arrays
   of bk * lanes, interleaved over the lanes: [t][lane]), UL multipliers of the look-ahead,
   the forward carry of every right-hand side. */
static int64_t FN( gtsv_lane_work )( int64_t bk, int64_t m, int64_t nrhs )
{
	return 2 * bk + m + nrhs;
}

/* Step A on row i: LAPACK's d' update (FACT = DL/D, D = D - FACT*DU), the multiplier into
   *wf and d' into *wr (inverted later, off the recurrence's critical path), and with fac
   the factor outputs. */
HYB_GTSV_INLINE void FN( gtsv_row_a )( int64_t n, int64_t i, T* dl, T* d, const T* du, int fac,
                                       T* cp, T* wf, T* wr )
{
	T f = 0, c;
	if ( i == 0 )
		c = d[0];
	else
	{
		f = dl[i - 1] / *cp;
		c = d[i] - f * du[i - 1];
	}
	*wf = f;
	*wr = c;
	*cp = c;
	if ( fac )
	{
		d[i] = c;
		if ( i >= 1 && i + 1 < n ) dl[i - 1] = 0;
	}
}

/* Lane l solves rows [lo[l], hi[l]) exactly given its seams: top[l] (record of seam lo[l],
   NULL when lo[l] == 0) and bot[l] (record of seam hi[l], NULL when hi[l] == n). Inlined
   twice: with nl = HYB_GTSV_LANES as a constant (the lane loops unroll and the lane state
   lives in registers) and with a run-time nl for the few-partition case. Within a block
   the lanes are swept in lockstep over their common length, then the tails. */
HYB_GTSV_INLINE void FN( gtsv_lanes_impl )( const int nl, int64_t n, int64_t nrhs, T* dl, T* d,
                                            const T* du, T* b, int64_t ldb, const int64_t* lo,
                                            const int64_t* hi, const T* const* top,
                                            const T* const* bot, int64_t m, int64_t bk, int fac,
                                            T* work )
{
	T*      wf = work;                       /* multipliers, [t][lane] */
	T*      wr = work + bk * HYB_GTSV_LANES; /* d', then 1/d', [t][lane] */
	T*      ul[HYB_GTSV_LANES];
	T*      ycar[HYB_GTSV_LANES];
	T       cprev[HYB_GTSV_LANES];
	int64_t nblk = 0;

	for ( int l = 0; l < nl; l++ )
	{
		ul[l]   = work + 2 * bk * HYB_GTSV_LANES + l * m;
		ycar[l] = work + 2 * bk * HYB_GTSV_LANES + HYB_GTSV_LANES * m + l * nrhs;
		/* Entering state: d'[lo-1] and y[lo-1] = d'[lo-1] x[lo-1] + du[lo-1] x[lo]. */
		cprev[l] = lo[l] > 0 ? top[l][0] : 0;
		for ( int64_t j = 0; j < nrhs; j++ )
			ycar[l][j] =
			    lo[l] > 0 ? top[l][0] * top[l][1 + j] + du[lo[l] - 1] * top[l][1 + nrhs + j] : 0;
		int64_t nb = ( hi[l] - lo[l] + bk - 1 ) / bk;
		if ( nb > nblk ) nblk = nb;
	}

	for ( int64_t q = 0; q < nblk; q++ )
	{
		int64_t a[HYB_GTSV_LANES], e[HYB_GTSV_LANES], len[HYB_GTSV_LANES];
		int64_t minlen = INT64_MAX, maxlen = 0;
		for ( int l = 0; l < nl; l++ )
		{
			a[l]   = lo[l] + q * bk;
			e[l]   = a[l] + bk < hi[l] ? a[l] + bk : hi[l];
			len[l] = e[l] > a[l] ? e[l] - a[l] : 0;
			if ( len[l] > maxlen ) maxlen = len[l];
			if ( len[l] < minlen ) minlen = len[l];
		}

		/* Step A, the matrix: the recurrence, then 1/d' for the block in one vectorisable
		   pass (the division is off the recurrence's chain; this halves its cost). */
		for ( int64_t t = 0; t < minlen; t++ )
			for ( int l = 0; l < nl; l++ )
				FN( gtsv_row_a )
				( n, a[l] + t, dl, d, du, fac, &cprev[l], &wf[t * nl + l], &wr[t * nl + l] );
		for ( int64_t t = minlen; t < maxlen; t++ )
			for ( int l = 0; l < nl; l++ )
				if ( t < len[l] )
					FN( gtsv_row_a )
					( n, a[l] + t, dl, d, du, fac, &cprev[l], &wf[t * nl + l], &wr[t * nl + l] );
		const int64_t nmain = minlen * nl;
#pragma omp simd
		for ( int64_t k = 0; k < nmain; k++ ) wr[k] = 1 / wr[k];
		for ( int64_t t = minlen; t < maxlen; t++ )
			for ( int l = 0; l < nl; l++ )
				if ( t < len[l] ) wr[t * nl + l] = 1 / wr[t * nl + l];

		/* Step UL: where a block ends inside its lane, the UL multipliers of the next m rows
		   (truncated start, or exact when the window reaches the lane's end). dl[e-1] and
		   the rows >= e are still the input (they belong to later blocks). */
		int64_t w1[HYB_GTSV_LANES], maxw = 0;
		T       ule[HYB_GTSV_LANES];
		for ( int l = 0; l < nl; l++ )
		{
			w1[l]  = 0;
			ule[l] = 0;
			if ( len[l] == 0 || e[l] == hi[l] ) continue;
			w1[l]  = e[l] + m < hi[l] ? e[l] + m : hi[l];
			ule[l] = d[w1[l] - 1];
			if ( w1[l] - e[l] > maxw ) maxw = w1[l] - e[l];
		}
		for ( int64_t t = 1; t < maxw; t++ )
		{
			for ( int l = 0; l < nl; l++ )
			{
				int64_t i = w1[l] - 1 - t;
				if ( w1[l] == 0 || i < e[l] ) continue;
				T u             = du[i] / ule[l];
				ule[l]          = d[i] - u * dl[i];
				ul[l][i - e[l]] = u;
			}
		}

		/* Step B, per right-hand side: forward, the block's last x, back. */
		for ( int64_t j = 0; j < nrhs; j++ )
		{
			T* bj = b + j * ldb;
			T  yp[HYB_GTSV_LANES], xn[HYB_GTSV_LANES];
			for ( int l = 0; l < nl; l++ ) yp[l] = ycar[l][j];

			for ( int64_t t = 0; t < minlen; t++ )
				for ( int l = 0; l < nl; l++ )
				{
					int64_t i = a[l] + t;
					yp[l]     = bj[i] - wf[t * nl + l] * yp[l];
					bj[i]     = yp[l];
				}
			for ( int64_t t = minlen; t < maxlen; t++ )
				for ( int l = 0; l < nl; l++ )
					if ( t < len[l] )
					{
						int64_t i = a[l] + t;
						yp[l]     = bj[i] - wf[t * nl + l] * yp[l];
						bj[i]     = yp[l];
					}

			for ( int l = 0; l < nl; l++ )
			{
				xn[l] = 0;
				if ( len[l] == 0 ) continue;
				int64_t el = e[l];
				ycar[l][j] = yp[l];
				if ( el == hi[l] )
					xn[l] = el < n ? bot[l][1 + nrhs + j] : 0;
				else
				{
					/* z[e] by the UL sweep, then the 2x2 system with (d'[e-1], y[e-1]). */
					int64_t w = w1[l];
					T       z = bj[w - 1];
					if ( w == hi[l] && w < n ) z -= du[w - 1] * bot[l][1 + nrhs + j];
					for ( int64_t i = w - 2; i >= el; i-- ) z = bj[i] - ul[l][i - el] * z;
					T c   = cprev[l];
					T det = c * ule[l] - dl[el - 1] * du[el - 1];
					xn[l] = ( c * z - dl[el - 1] * yp[l] ) / det;
				}
			}

			for ( int64_t t = maxlen - 1; t >= minlen; t-- )
				for ( int l = 0; l < nl; l++ )
					if ( t < len[l] )
					{
						int64_t i = a[l] + t;
						T       u = i + 1 < n ? du[i] : 0;
						xn[l]     = ( bj[i] - u * xn[l] ) * wr[t * nl + l];
						bj[i]     = xn[l];
					}
			for ( int64_t t = minlen - 1; t >= 0; t-- )
				for ( int l = 0; l < nl; l++ )
				{
					int64_t i = a[l] + t;
					T       u = i + 1 < n ? du[i] : 0;
					xn[l]     = ( bj[i] - u * xn[l] ) * wr[t * nl + l];
					bj[i]     = xn[l];
				}
		}
	}
}

static void FN( gtsv_lanes )( int64_t n, int64_t nrhs, T* dl, T* d, const T* du, T* b, int64_t ldb,
                              int nl, const int64_t* lo, const int64_t* hi, const T* const* top,
                              const T* const* bot, int64_t m, int64_t bk, int fac, T* work )
{
	if ( nl == HYB_GTSV_LANES && fac )
		FN( gtsv_lanes_impl )
		( HYB_GTSV_LANES, n, nrhs, dl, d, du, b, ldb, lo, hi, top, bot, m, bk, 1, work );
	else if ( nl == HYB_GTSV_LANES )
		FN( gtsv_lanes_impl )
		( HYB_GTSV_LANES, n, nrhs, dl, d, du, b, ldb, lo, hi, top, bot, m, bk, 0, work );
	else
		FN( gtsv_lanes_impl )( nl, n, nrhs, dl, d, du, b, ldb, lo, hi, top, bot, m, bk, fac, work );
}

/* Partitions of [r0, r1), their seams (phase 1), then the sweeps (phase 2). */
static hyb_status_t FN( gtsv_spike_run )( int64_t n, int64_t r0, int64_t r1, int64_t nrhs, T* dl,
                                          T* d, const T* du, T* b, int64_t ldb, const T* top,
                                          const T* bot, int64_t m, int nthreads, unsigned flags )
{
	int64_t len     = r1 - r0;
	int     nt      = hyb_gtsv_threads( nthreads );
	int64_t minrows = HYB_GTSV_MIN_PART_WINDOWS * m;
	if ( minrows < HYB_GTSV_MIN_PART_ROWS ) minrows = HYB_GTSV_MIN_PART_ROWS;
	int64_t p     = hyb_gtsv_nparts( len, minrows, nt );
	int64_t nteam = ( p + HYB_GTSV_LANES - 1 ) / HYB_GTSV_LANES;
	if ( nteam > nt ) nteam = nt;
	if ( nteam < 1 ) nteam = 1;
	int     nl = (int)( p < HYB_GTSV_LANES ? p : HYB_GTSV_LANES );
	int64_t bk = hyb_gtsv_block_rows( nl, nrhs, sizeof( T ), m );
	int64_t rl = hyb_gtsv_seam_len( nrhs );
	int64_t lw = FN( gtsv_lane_work )( bk, m, nrhs );

	int64_t*  bound = malloc( (size_t)( p + 1 ) * sizeof *bound );
	const T** rec   = malloc( (size_t)( p + 1 ) * sizeof *rec );
	T*        recs  = malloc( (size_t)( p > 1 ? p - 1 : 1 ) * (size_t)rl * sizeof( T ) );
	T*        work  = malloc( (size_t)nteam * HYB_GTSV_LANES * (size_t)lw * sizeof( T ) );
	if ( !bound || !rec || !recs || !work )
	{
		free( bound );
		free( rec );
		free( recs );
		free( work );
		return HYB_E_NO_MEMORY;
	}
	for ( int64_t k = 0; k <= p; k++ )
	{
		bound[k] = hyb_gtsv_bound( r0, len, k, p );
		rec[k]   = ( k > 0 && k < p ) ? recs + ( k - 1 ) * rl : NULL;
	}
	rec[0]        = top; /* the caller's seams */
	rec[p]        = bot;
	const int fac = ( flags & HYB_GTSV_FACTORS ) != 0;

#pragma omp parallel num_threads( (int)nteam )
	{
		/* Phase 1: every internal seam, from its window, before anything is written. The
		   windows stay inside [r0, r1) because partitions are at least 4m rows. */
#pragma omp for schedule( static )
		for ( int64_t k = 1; k < p; k++ )
			FN( gtsv_seam_one )( n, bound[k], nrhs, dl, d, du, b, ldb, m, recs + ( k - 1 ) * rl );

		/* Phase 2: this thread's partitions, HYB_GTSV_LANES at a time. */
		int64_t tid = omp_get_thread_num(), nthr = omp_get_num_threads();
		int64_t p0 = tid * p / nthr, p1 = ( tid + 1 ) * p / nthr;
		T*      mywork = work + tid * HYB_GTSV_LANES * lw;
		for ( int64_t g = p0; g < p1; g += HYB_GTSV_LANES )
		{
			int      cnt = (int)( p1 - g < HYB_GTSV_LANES ? p1 - g : HYB_GTSV_LANES );
			int64_t  lo[HYB_GTSV_LANES], hi[HYB_GTSV_LANES];
			const T* tp[HYB_GTSV_LANES];
			const T* bt[HYB_GTSV_LANES];
			for ( int l = 0; l < cnt; l++ )
			{
				lo[l] = bound[g + l];
				hi[l] = bound[g + l + 1];
				tp[l] = rec[g + l];
				bt[l] = rec[g + l + 1];
			}
			FN( gtsv_lanes )( n, nrhs, dl, d, du, b, ldb, cnt, lo, hi, tp, bt, m, bk, fac, mywork );
		}
	}

	free( bound );
	free( rec );
	free( recs );
	free( work );
	return HYB_OK;
}

hyb_status_t FN( gtsv_cpu_spike_range )( int64_t n, int64_t r0, int64_t r1, int64_t nrhs, T* dl,
                                         T* d, const T* du, T* b, int64_t ldb, const T* top,
                                         const T* bot, int64_t m, int nthreads, unsigned flags )
{
	if ( !hyb_gtsv_args_ok( n, nrhs, dl, d, du, b, ldb ) || m < 1 ) return HYB_E_INVALID;
	if ( r0 < 0 || r1 < r0 || r1 > n ) return HYB_E_INVALID;
	if ( ( r0 > 0 && top == NULL ) || ( r1 < n && bot == NULL ) ) return HYB_E_INVALID;
	if ( r1 == r0 ) return HYB_OK;
	return FN( gtsv_spike_run )( n, r0, r1, nrhs, dl, d, du, b, ldb, top, bot, m, nthreads, flags );
}

hyb_status_t FN( gtsv_cpu_spike )( int64_t n, int64_t nrhs, T* dl, T* d, const T* du, T* b,
                                   int64_t ldb, int64_t m, int nthreads, unsigned flags )
{
	if ( !hyb_gtsv_args_ok( n, nrhs, dl, d, du, b, ldb ) || m < 1 ) return HYB_E_INVALID;
	if ( n == 0 ) return HYB_OK;
	return FN( gtsv_spike_run )( n, 0, n, nrhs, dl, d, du, b, ldb, NULL, NULL, m, nthreads, flags );
}

/* ======================================================================================= */
/* Checks and factor outputs.                                                              */
/* ======================================================================================= */

/* Dominance of row i and of column i, and the non-finite flag, for the check. */
HYB_GTSV_INLINE void FN( gtsv_row_dom )( int64_t n, int64_t i, const T* dl, const T* d, const T* du,
                                         T* rmin, T* cmin, T* acc )
{
	T ad = T_ABS( d[i] ), lm = 0, um = 0, lp = 0, up = 0;
	if ( i >= 1 )
	{
		lm = T_ABS( dl[i - 1] );
		um = T_ABS( du[i - 1] );
	}
	if ( i + 1 < n )
	{
		lp = T_ABS( dl[i] );
		up = T_ABS( du[i] );
	}
	T offr = lm + up, offc = um + lp;
	/* A ratio is computed only when it may lower the minimum, which after the first rows is
	   rare: no division in the common case. Inf * 0 and NaN fail the test, so rows with a
	   zero off-diagonal sum at an infinite minimum, and non-finite rows, take the exact path.
	   A zero diagonal always does: with a zero off-diagonal sum the test reads 0 >= min * 0,
	   true at any finite minimum, and would call an all-zero row or column (a singular
	   matrix) dominant; 0/0 counts as 0. */
	if ( !( ad >= *rmin * offr ) || ad == 0 )
	{
		T r = ad / offr;
		if ( !( r >= 0 ) ) r = 0;
		if ( r < *rmin ) *rmin = r;
	}
	if ( !( ad >= *cmin * offc ) || ad == 0 )
	{
		T r = ad / offc;
		if ( !( r >= 0 ) ) r = 0;
		if ( r < *cmin ) *cmin = r;
	}
	/* Each entry is owned by one row (d[i], dl[i-1], du[i]); x - x is 0 unless x is Inf or
	   NaN, and a NaN stays in the sum. */
	T own = ad + offr;
	*acc += own - own;
}

/* LAPACK's d' recurrence at row i and its pivoting test; the lane's first event is kept. */
HYB_GTSV_INLINE void FN( gtsv_row_pivot )( int64_t n, int64_t i, const T* dl, const T* d,
                                           const T* du, T* cp, int* kind, int64_t* pos )
{
	const T margin = 1 + 8 * T_U;
	T       c      = i == 0 ? d[0] : d[i] - ( dl[i - 1] / *cp ) * du[i - 1];
	*cp            = c;
	if ( *kind != HYB_GTSV_EV_NONE ) return;
	/* LAPACK step i+1: swap unless |d'| >= |dl|; INFO if the kept pivot is 0. */
	T alp = i + 1 < n ? T_ABS( dl[i] ) : 0;
	if ( c == 0 && alp == 0 )
	{
		*kind = HYB_GTSV_EV_ZERO;
		*pos  = i;
	}
	else if ( i + 1 < n && !( T_ABS( c ) >= alp * margin ) )
	{
		*kind = HYB_GTSV_EV_SWAP;
		*pos  = i;
	}
}

/* The check for up to HYB_GTSV_LANES partitions of one thread, in cache blocks: dominance
   first, then the d' recurrence only for blocks that contain a column that is not strictly
   dominant. Skipping is exact: in a block of strictly column-dominant columns, entered
   without a swap, LAPACK neither swaps nor meets a zero pivot (header proof), and the
   recurrence is restarted `warm` rows before the next block that needs it. The lanes'
   recurrences are interleaved (same specialisation as gtsv_lanes_impl). The block's rows
   of B's nrhs columns are read too, for non-finite values only. *nf gets bit 0 for a
   non-finite entry of the matrix, bit 1 for one of B. */
HYB_GTSV_INLINE void FN( gtsv_check_impl )( const int nl, int64_t n, const T* dl, const T* d,
                                            const T* du, int64_t nrhs, const T* b, int64_t ldb,
                                            int64_t warm, const int64_t* lo, const int64_t* hi,
                                            T* mr, T* mc, int* nf, hyb_gtsv_event_t* ev )
{
	unsigned      rhs_bad = 0;
	const int64_t bk      = 2048;
	T       c[HYB_GTSV_LANES], rmin[HYB_GTSV_LANES], cmin[HYB_GTSV_LANES], acc[HYB_GTSV_LANES];
	int     kind[HYB_GTSV_LANES], exact[HYB_GTSV_LANES];
	int64_t pos[HYB_GTSV_LANES], at[HYB_GTSV_LANES], nblk = 0;
	for ( int l = 0; l < nl; l++ )
	{
		c[l]    = 0;
		at[l]   = -1; /* c[l] = d'[at[l] - 1]; -1: not started */
		rmin[l] = cmin[l] = (T)INFINITY;
		acc[l]            = 0;
		kind[l]           = HYB_GTSV_EV_NONE;
		pos[l]            = 0;
		exact[l]          = 1;
		int64_t nb        = ( hi[l] - lo[l] + bk - 1 ) / bk;
		if ( nb > nblk ) nblk = nb;
	}
	for ( int64_t q = 0; q < nblk; q++ )
	{
		int64_t a[HYB_GTSV_LANES], len[HYB_GTSV_LANES], maxlen = 0;
		int     need[HYB_GTSV_LANES];
		for ( int l = 0; l < nl; l++ )
		{
			a[l]      = lo[l] + q * bk;
			int64_t e = a[l] + bk < hi[l] ? a[l] + bk : hi[l];
			len[l]    = e > a[l] ? e - a[l] : 0;
			T bcmin   = (T)INFINITY;
			for ( int64_t i = a[l]; i < e; i++ )
				FN( gtsv_row_dom )( n, i, dl, d, du, &rmin[l], &bcmin, &acc[l] );
			if ( bcmin < cmin[l] ) cmin[l] = bcmin;
			/* x - x is 0 unless x is Inf or NaN; an OR of compares vectorises */
			for ( int64_t j = 0; j < nrhs; j++ )
			{
				const T* bj = b + j * ldb;
				for ( int64_t i = a[l]; i < e; i++ ) rhs_bad |= !( bj[i] - bj[i] == 0 );
			}
			need[l] = len[l] > 0 && kind[l] == HYB_GTSV_EV_NONE && !( bcmin > 1 );
			if ( !need[l] ) continue;
			if ( len[l] > maxlen ) maxlen = len[l];
			if ( at[l] != a[l] && a[l] > 0 )
			{
				c[l] = FN( gtsv_warm_pivot )( dl, d, du, a[l], warm );
				if ( a[l] - warm > 0 ) exact[l] = 0;
			}
		}
		for ( int64_t t = 0; t < maxlen; t++ )
			for ( int l = 0; l < nl; l++ )
				if ( need[l] && t < len[l] )
					FN( gtsv_row_pivot )( n, a[l] + t, dl, d, du, &c[l], &kind[l], &pos[l] );
		for ( int l = 0; l < nl; l++ )
			if ( need[l] ) at[l] = a[l] + len[l];
	}
	*nf |= rhs_bad ? 2 : 0;
	for ( int l = 0; l < nl; l++ )
	{
		if ( rmin[l] < *mr ) *mr = rmin[l];
		if ( cmin[l] < *mc ) *mc = cmin[l];
		*nf |= !( acc[l] == 0 );
		ev[l].kind  = kind[l];
		ev[l].pos   = pos[l];
		ev[l].exact = exact[l] && lo[l] - warm <= 0;
	}
}

static void FN( gtsv_check_lanes )( int64_t n, const T* dl, const T* d, const T* du, int64_t nrhs,
                                    const T* b, int64_t ldb, int64_t warm, int nl,
                                    const int64_t* lo, const int64_t* hi, T* mr, T* mc, int* nf,
                                    hyb_gtsv_event_t* ev )
{
	if ( nl == HYB_GTSV_LANES )
		FN( gtsv_check_impl )
		( HYB_GTSV_LANES, n, dl, d, du, nrhs, b, ldb, warm, lo, hi, mr, mc, nf, ev );
	else
		FN( gtsv_check_impl )( nl, n, dl, d, du, nrhs, b, ldb, warm, lo, hi, mr, mc, nf, ev );
}

hyb_status_t FN( gtsv_check )( int64_t n, const T* dl, const T* d, const T* du, int64_t warm,
                               int nthreads, hyb_gtsv_check_t* out )
{
	return FN( gtsv_check_rhs )( n, dl, d, du, 0, NULL, n > 1 ? n : 1, warm, nthreads, out );
}

hyb_status_t FN( gtsv_check_rhs )( int64_t n, const T* dl, const T* d, const T* du, int64_t nrhs,
                                   const T* b, int64_t ldb, int64_t warm, int nthreads,
                                   hyb_gtsv_check_t* out )
{
	if ( out == NULL || warm < 0 || !hyb_gtsv_args_ok( n, nrhs, dl, d, du, b, ldb ) )
		return HYB_E_INVALID;
	out->dom_row   = INFINITY;
	out->dom_col   = INFINITY;
	out->pivot     = 0;
	out->info      = 0;
	out->nonfinite = 0;
	if ( n == 0 ) return HYB_OK;

	int64_t nteam;
	int64_t p = hyb_gtsv_check_parts( n, warm, nthreads, &nteam );

	int64_t*          bound = malloc( (size_t)( p + 1 ) * sizeof *bound );
	hyb_gtsv_event_t* ev    = malloc( (size_t)p * sizeof *ev );
	T*                mr    = malloc( (size_t)nteam * sizeof *mr );
	T*                mc    = malloc( (size_t)nteam * sizeof *mc );
	int*              nf    = malloc( (size_t)nteam * sizeof *nf );
	if ( !bound || !ev || !mr || !mc || !nf )
	{
		free( bound );
		free( ev );
		free( mr );
		free( mc );
		free( nf );
		return HYB_E_NO_MEMORY;
	}
	for ( int64_t k = 0; k <= p; k++ ) bound[k] = hyb_gtsv_bound( 0, n, k, p );
	for ( int64_t t = 0; t < nteam; t++ )
	{
		mr[t] = mc[t] = (T)INFINITY;
		nf[t]         = 0;
	}

#pragma omp parallel num_threads( (int)nteam )
	{
		int64_t tid = omp_get_thread_num(), nthr = omp_get_num_threads();
		int64_t p0 = tid * p / nthr, p1 = ( tid + 1 ) * p / nthr;
		for ( int64_t g = p0; g < p1; g += HYB_GTSV_LANES )
		{
			int cnt = (int)( p1 - g < HYB_GTSV_LANES ? p1 - g : HYB_GTSV_LANES );
			FN( gtsv_check_lanes )
			( n, dl, d, du, nrhs, b, ldb, warm, cnt, bound + g, bound + g + 1, &mr[tid], &mc[tid],
			  &nf[tid], ev + g );
		}
	}

	T   rmin = (T)INFINITY, cmin = (T)INFINITY;
	int flags = 0;
	for ( int64_t t = 0; t < nteam; t++ )
	{
		rmin = mr[t] < rmin ? mr[t] : rmin;
		cmin = mc[t] < cmin ? mc[t] : cmin;
		flags |= nf[t];
	}
	int                     bad = flags & 1; /* the matrix: its dominance and pivots are unknown */
	const hyb_gtsv_event_t* first = NULL;
	for ( int64_t k = 0; k < p && first == NULL; k++ )
		if ( ev[k].kind != HYB_GTSV_EV_NONE ) first = &ev[k];

	out->nonfinite = flags != 0;
	out->dom_row   = bad ? 0.0 : (double)rmin;
	out->dom_col   = bad ? 0.0 : (double)cmin;
	if ( bad )
	{
		out->pivot = out->info = -1;
	}
	else if ( out->dom_col > 1 )
	{
		/* Proof (header): no swap, no zero pivot. */
		out->pivot = out->info = 0;
	}
	else if ( out->dom_row > 1 || ( first != NULL && first->exact ) )
	{
		if ( first == NULL )
			out->pivot = out->info = 0;
		else if ( first->kind == HYB_GTSV_EV_SWAP )
		{
			out->pivot = first->pos + 1;
			out->info  = -1;
		}
		else
		{
			out->pivot = 0;
			out->info  = first->pos + 1;
		}
	}
	else
	{
		out->pivot = out->info = -1;
	}

	free( bound );
	free( ev );
	free( mr );
	free( mc );
	free( nf );
	return HYB_OK;
}

hyb_status_t FN( gtsv_factors_range )( int64_t n, int64_t r0, int64_t r1, T* dl, T* d, const T* du,
                                       const T* top, int64_t warm, int nthreads, int64_t* info )
{
	if ( info == NULL || warm < 0 || !hyb_gtsv_args_ok( n, 0, dl, d, du, NULL, n > 1 ? n : 1 ) )
		return HYB_E_INVALID;
	if ( r0 < 0 || r1 < r0 || r1 > n || ( r0 > 0 && top == NULL ) ) return HYB_E_INVALID;
	*info = 0;
	if ( r1 == r0 ) return HYB_OK;

	const int64_t len = r1 - r0;
	int64_t       nteam;
	const int64_t p = hyb_gtsv_check_parts( len, warm, nthreads, &nteam );

	int64_t* bound = malloc( (size_t)( p + 1 ) * sizeof *bound );
	T*       cin   = malloc( (size_t)p * sizeof *cin );
	int64_t* zero  = malloc( (size_t)p * sizeof *zero );
	if ( !bound || !cin || !zero )
	{
		free( bound );
		free( cin );
		free( zero );
		return HYB_E_NO_MEMORY;
	}
	for ( int64_t k = 0; k <= p; k++ ) bound[k] = hyb_gtsv_bound( r0, len, k, p );

#pragma omp parallel num_threads( (int)nteam )
	{
		/* Phase 1: entering pivots from the unmodified input, never reading D or DL outside
		   the range (another solver may be writing there): the restart stays at or after
		   r0, and a restart at r0 enters with the caller's d'[r0-1]. */
#pragma omp for schedule( static )
		for ( int64_t k = 0; k < p; k++ )
		{
			int64_t lo = bound[k];
			zero[k]    = -1;
			if ( lo == 0 )
				cin[k] = 0;
			else if ( lo == r0 )
				cin[k] = top[0];
			else if ( lo - warm > r0 || r0 == 0 )
				cin[k] = FN( gtsv_warm_pivot )( dl, d, du, lo, warm );
			else
			{
				T c = d[r0] - ( dl[r0 - 1] / top[0] ) * du[r0 - 1];
				for ( int64_t i = r0 + 1; i < lo; i++ ) c = d[i] - ( dl[i - 1] / c ) * du[i - 1];
				cin[k] = c;
			}
		}
		/* Phase 2: the recurrence over each partition, lanes interleaved, writing. */
		int64_t tid = omp_get_thread_num(), nthr = omp_get_num_threads();
		int64_t p0 = tid * p / nthr, p1 = ( tid + 1 ) * p / nthr;
		for ( int64_t g = p0; g < p1; g += HYB_GTSV_LANES )
		{
			int     cnt    = (int)( p1 - g < HYB_GTSV_LANES ? p1 - g : HYB_GTSV_LANES );
			int64_t maxlen = 0;
			T       c[HYB_GTSV_LANES];
			for ( int l = 0; l < cnt; l++ )
			{
				c[l] = cin[g + l];
				if ( bound[g + l + 1] - bound[g + l] > maxlen )
					maxlen = bound[g + l + 1] - bound[g + l];
			}
			for ( int64_t t = 0; t < maxlen; t++ )
			{
				for ( int l = 0; l < cnt; l++ )
				{
					int64_t i = bound[g + l] + t;
					if ( i >= bound[g + l + 1] ) continue;
					if ( i == 0 )
						c[l] = d[0];
					else
					{
						T fact = dl[i - 1] / c[l];
						c[l]   = d[i] - fact * du[i - 1];
						if ( i + 1 < n ) dl[i - 1] = 0;
					}
					d[i] = c[l];
					if ( c[l] == 0 && zero[g + l] < 0 ) zero[g + l] = i;
				}
			}
		}
	}

	for ( int64_t k = 0; k < p; k++ )
	{
		if ( zero[k] >= 0 )
		{
			*info = zero[k] + 1;
			break;
		}
	}
	free( bound );
	free( cin );
	free( zero );
	return HYB_OK;
}

hyb_status_t FN( gtsv_factors )( int64_t n, T* dl, T* d, const T* du, int64_t warm, int nthreads,
                                 int64_t* info )
{
	return FN( gtsv_factors_range )( n, 0, n, dl, d, du, NULL, warm, nthreads, info );
}

#endif /* HYB_GTSV_GENERIC */

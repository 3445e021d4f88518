/* SPDX-License-Identifier: BSD-3-Clause */
/* Cost model of the hybrid SpMV: the seed's eqs. 2-8 and Algorithm 3 on today's machine,
   with transfer terms, fixed costs and calibrated rates. Pure functions.

   Notation (seed sec. 4-5): P = op(A) is m x m with nnz entries, b_i rows of exactly i
   entries (the distribution function, DF), M the longest row, K the threshold. vb is the
   size of a value (4 or 8), ib = 4 the size of an index.

   Traffic model of each kernel (bytes), used with the calibrated bandwidths:
     CSR  nnz*(vb+ib) + m*(ib + 2*vb)   values+columns, row pointers, x once, y once
     COO  n*(vb + 2*ib)                 values, rows and columns of n remainder entries
     ELL  m*K*(vb+ib) + 2*m*vb          every slot, padding included (column-major ELL
                                        streams all slots), x once, y once
     DIA  m*K*vb + 2*m*vb               every diagonal slot, x once, y once
     merge n*(vb+ib) + min(n*64, m*vb)  n row sums and rows, a cache line of y per row
   x gathers that hit cache are not counted; the calibration absorbs them. */
#include "policies/hyb_policy_spmv.h"

#include <math.h>
#include <string.h>

#include "hyb_copy.h"

#define HYB_IB   4.0  /* bytes of an index */
#define HYB_LINE 64.0 /* bytes of a cache line: what a merge into a scattered row of y moves */

void hyb_policy_spmv_default_rates( hyb_spmv_rates_t* r )
{
	memset( r, 0, sizeof *r );
	/* CPU CSR OpenMP, 16 Xeon cores, 27-point stencil 8 M rows / 216 M entries, 37 ms
	   (ANCHORS.md, probe2.cu): (216e6*12 + 8e6*20) B / 37 ms = 74 GB/s. */
	r->cpu_csr_bw = 74.0e9;
	/* COO on 15 of the 16 cores: not measured yet; CSR's rate scaled by 15/16. */
	r->cpu_coo_bw = 69.0e9;
	/* One OpenMP parallel region with 16 threads: a few microseconds (estimate; the
	   benchmark measured 50-58 us under OMP_WAIT_POLICY=PASSIVE). */
	r->cpu_call_s = 5.0e-6;
	/* One thread copying y out of staging, as the trace's ycopy_s of device-only calls
	   measures it (docs/design-notes-spmv.md, core_bw). */
	r->core_bw = 1.2e10;
	/* Host triad, 16 threads: 118 GB/s (ANCHORS.md). */
	r->host_bw = 118.0e9;
	/* Regrouping an unsorted source: bucket pass + sort pass, about 48 bytes of traffic per
	   entry at the triad rate (estimate; measure with the benchmark). */
	r->conv_rate = 2.4e9;
	/* The statistics pass of a grouped source, as the trace's stats_s measures it
	   (docs/design-notes-spmv.md, stats_rate). */
	r->stats_rate = 1.0e10;
	/* cuSPARSE CSR SpMV on the device, 27-point stencil: 0.95 ms = 2.86 TB/s (ANCHORS.md).
	   Our ELL and DIA kernels are assumed to stream as well until calibrated. */
	r->gpu_csr_bw = 2.86e12;
	r->gpu_ell_bw = 2.86e12;
	r->gpu_dia_bw = 2.86e12;
	/* One dependent device step (a DMA, a kernel after an event): the profile's launch
	   latency (HYB_DEF_LAUNCH_LATENCY). */
	r->gpu_step_s = 8.0e-6;
	/* A device call's host cost outside its device span: 60-95 us in a measured trace (whole
	   call less the span and the y copy, small matrices); refitted from every call. */
	r->gpu_call_s = 60.0e-6;
	/* Pinned transfers, PCIe gen5 x16: 55.5 GB/s up, 55.4 GB/s down (ANCHORS.md). Pageable
	   application memory reaches only 10.4 / 18.6 GB/s: calibration must measure the path
	   the dispatch really uses (staging through pinned buffers or registration). */
	r->h2d_bw = 55.5e9;
	r->d2h_bw = 55.4e9;
	/* Device memory for one matrix: a 64 GB share of an 80 GB H100 (HYBLAS_GPU_MEM). */
	r->gpu_mem = 64.0e9;
	r->margin  = 0.10;
	/* The dispatch stages application data through page-locked buffers: the host reads it,
	   writes the buffer, and the DMA engine reads the buffer again. */
	r->h2d_host_traffic = 3.0;
	r->d2h_host_traffic = 3.0;
	/* Until the dispatch pipelines x up, the kernel and y down by chunks, they add up. */
	r->overlap = 0.0;
}

static int hyb_rate_ok( double v )
{
	return isfinite( v ) && v > 0.0;
}

static hyb_status_t hyb_check_rates( const hyb_spmv_rates_t* r )
{
	if ( !hyb_rate_ok( r->cpu_csr_bw ) || !hyb_rate_ok( r->cpu_coo_bw ) ||
	     !hyb_rate_ok( r->host_bw ) || !hyb_rate_ok( r->core_bw ) || !hyb_rate_ok( r->conv_rate ) ||
	     !hyb_rate_ok( r->gpu_csr_bw ) || !hyb_rate_ok( r->gpu_ell_bw ) ||
	     !hyb_rate_ok( r->gpu_dia_bw ) || !hyb_rate_ok( r->h2d_bw ) || !hyb_rate_ok( r->d2h_bw ) ||
	     !hyb_rate_ok( r->gpu_mem ) )
		return HYB_E_INVALID;
	if ( !( r->cpu_call_s >= 0.0 ) || !( r->gpu_call_s >= 0.0 ) || !( r->gpu_step_s >= 0.0 ) ||
	     !( r->margin >= 0.0 ) || !isfinite( r->margin ) ||
	     !( r->overlap >= 0.0 && r->overlap <= 1.0 ) )
		return HYB_E_INVALID;
	return HYB_OK;
}

hyb_status_t hyb_policy_spmv_check_stats( const hyb_spmv_stats_t* st )
{
	if ( st->m < 0 || st->nnz < 0 || st->max_len < 0 || st->ndiag < 0 || st->diag_rest < 0 )
		return HYB_E_INVALID;
	if ( st->prec != HYB_PREC_S && st->prec != HYB_PREC_D ) return HYB_E_INVALID;
	if ( !st->df ) return HYB_E_INVALID;
	int64_t rows = 0, ent = 0;
	for ( int64_t i = 0; i <= st->max_len; i++ )
	{
		if ( st->df[i] < 0 ) return HYB_E_INVALID;
		rows += st->df[i];
		ent += i * st->df[i];
	}
	if ( rows != st->m || ent != st->nnz ) return HYB_E_INVALID;
	if ( st->ndiag > 0 )
	{
		if ( !st->diag_occ ) return HYB_E_INVALID;
		int64_t s = st->diag_rest;
		for ( int64_t d = 0; d < st->ndiag; d++ )
		{
			if ( st->diag_occ[d] < 0 || ( d > 0 && st->diag_occ[d] > st->diag_occ[d - 1] ) )
				return HYB_E_INVALID;
			s += st->diag_occ[d];
		}
		if ( s != st->nnz ) return HYB_E_INVALID;
	}
	return HYB_OK;
}

/* Rows longer than K: the rows an ELL part of width K leaves entries of. */
static int64_t hyb_rows_longer( const hyb_spmv_stats_t* st, int64_t K )
{
	int64_t n = 0;
	for ( int64_t i = ( K > 0 ? K : 0 ) + 1; i <= st->max_len; i++ ) n += st->df[i];
	return n;
}

void hyb_policy_spmv_ell_counts( const hyb_spmv_stats_t* st, int64_t K, int64_t* dev_nnz,
                                 int64_t* cpu_nnz )
{
	/* eq. 2: NNZ(i <= K) = sum_{i=1..K} i*b_i; eq. 4: the ELL part holds those rows whole and
	   the first K entries of every longer row, NNZ(i <= K) + K * sum_{i=K+1..M} b_i. The seed
	   prints the second sum from i = K, which would count the rows of exactly K entries
	   twice; its Algorithm 1 (and its example) put those rows in ELL once, as here.
	   eq. 5: the remainder is everything else, nnz - eq. 4. */
	int64_t le = 0, lim = K < st->max_len ? K : st->max_len;
	for ( int64_t i = 1; i <= lim; i++ ) le += i * st->df[i];
	int64_t dev = le + ( K > 0 ? K * hyb_rows_longer( st, K ) : 0 );
	if ( dev_nnz ) *dev_nnz = dev;
	if ( cpu_nnz ) *cpu_nnz = st->nnz - dev;
}

/* Host memory bus time of a device path's transfers (the seed's "memory bus contention",
   which its model leaves out): x up and y down at their traffic factors, plus `extra`
   bytes (a first call's DMA reads of the device part, the CPU side's own data). The host
   memory bandwidth bounds every call that moves data, however well it overlaps. */
static double hyb_bus( const hyb_spmv_rates_t* r, double vec_up, double vec_down, double extra )
{
	double tu = r->h2d_host_traffic > 1.0 ? r->h2d_host_traffic : 1.0;
	double td = r->d2h_host_traffic > 1.0 ? r->d2h_host_traffic : 1.0;
	return ( tu * vec_up + td * vec_down + extra ) / r->host_bw;
}

static double hyb_span_scale( const hyb_spmv_rates_t* r, hyb_spmv_span_t kind )
{
	double s = r->span_scale[kind];
	return s > 0.0 && isfinite( s ) ? s : 1.0;
}

/* The device span of one call of a kind: stages up, kernel, down, overlapped by the given
   fraction (0: their sum; 1: chunk-pipelined, the longest stage), each paying a device
   step's latency; times the kind's refitted scale. */
static double hyb_pipe( const hyb_spmv_rates_t* r, hyb_spmv_span_t kind, double up, double kern,
                        double down )
{
	double sum = up + kern + down, mx = fmax( up, fmax( kern, down ) );
	return hyb_span_scale( r, kind ) * ( 3.0 * r->gpu_step_s + sum - r->overlap * ( sum - mx ) );
}

/* The span kind of a row split's device rows: beside the CPU's rows, or alone (f = 1). */
static hyb_spmv_span_t hyb_rowsplit_kind( double f )
{
	return f < 1.0 ? HYB_SPMV_SPAN_ROWSPLIT : HYB_SPMV_SPAN_CSR;
}

/* The span kind of an ELL or DIA part: alone on the device, or beside a remainder. */
static hyb_spmv_span_t hyb_part_kind( hyb_spmv_devfmt_t fmt, int64_t cpu_nnz )
{
	hyb_spmv_span_t k = fmt == HYB_SPMV_DEV_DIA ? HYB_SPMV_SPAN_DIA : HYB_SPMV_SPAN_ELL;
	return cpu_nnz > 0 ? (hyb_spmv_span_t)( k + HYB_SPMV_SPAN_ROWSPLIT ) : k;
}

/* A staging copy of `bytes` on the host: one thread below the copy team's threshold, else
   the team at the host bandwidth (read + write). */
static double hyb_stage_copy( const hyb_spmv_rates_t* r, double bytes )
{
	return bytes < (double)HYB_COPY_TEAM_MIN ? bytes / r->core_bw : 2.0 * bytes / r->host_bw;
}

/* x up: staged chunk by chunk, each chunk's host copy overlapping the previous chunk's
   DMA (h2d_bw is the slower of the two). An x of one chunk is copied, then sent: on one
   thread below the copy team's threshold (measured: 310 KB in 30 us, inside the span). */
static double hyb_x_up( const hyb_spmv_rates_t* r, double vec )
{
	if ( r->h2d_host_traffic <= 1.0 || vec > (double)HYB_SPMV_X_CHUNK ) return vec / r->h2d_bw;
	return hyb_stage_copy( r, vec ) + vec / r->h2d_bw;
}

/* When the device path's x is large enough for the copy team, the CPU side of a split
   starts once x is copied (the pipeline runs them one after the other: both at once share
   the cores). The copy reads x and writes the page-locked buffer. */
static double hyb_cpu_start( const hyb_spmv_rates_t* r, double vec )
{
	return vec >= (double)HYB_COPY_TEAM_MIN ? 2.0 * vec / r->host_bw : 0.0;
}

/* Threads of a host kernel of a split over `work` entries, as the kernels count them. */
static double hyb_host_threads( double work )
{
	return floor( work / HYB_SPMV_GRAIN ) + 1.0;
}

/* A host kernel of a split: one thread wakes no team and streams at core_bw; a team pays
   the start of a parallel region and streams at up to bw. */
static double hyb_host_kernel( const hyb_spmv_rates_t* r, double work, double bytes, double bw )
{
	if ( !( bytes > 0.0 ) ) return 0.0;
	double threads = hyb_host_threads( work );
	if ( threads < 2.0 ) return bytes / r->core_bw;
	return r->cpu_call_s + bytes / fmin( bw, threads * r->core_bw );
}

/* Bytes of a remainder in the model's traffic (see the top of this file). */
static double hyb_rem_bytes( hyb_prec_t prec, int64_t nnz )
{
	return (double)nnz * ( (double)hyb_prec_size( prec ) + 2.0 * HYB_IB );
}

double hyb_policy_spmv_coo_refit_bytes( const hyb_spmv_rates_t* r, hyb_prec_t prec, int64_t nnz,
                                        int64_t nrun )
{
	if ( nnz <= 0 ) return 0.0;
	double threads = hyb_host_threads( (double)( nnz + nrun ) );
	if ( threads * r->core_bw < r->cpu_coo_bw ) return 0.0;
	return hyb_rem_bytes( prec, nnz );
}

/* y of the device's rows out of page-locked staging after the span: all of it when it is
   one block, else the last block (the others are copied as they come down); on one thread
   below the copy team's threshold, else by the team at the host bandwidth (read + write).
   Registered y: the DMA wrote it. */
static double hyb_y_out( const hyb_spmv_rates_t* r, double ybytes )
{
	if ( r->d2h_host_traffic <= 1.0 || !( ybytes > 0.0 ) ) return 0.0;
	return hyb_stage_copy( r, ybytes <= (double)HYB_SPMV_ONE_BLOCK ? ybytes
	                                                               : (double)HYB_SPMV_BLOCK_BYTES );
}

/* Bytes the merge of a remainder's nrun row sums into y moves: its sums and row numbers,
   and a cache line of y for each of its rows up to the whole of y. Sparse rows each cost a
   line, not a value (a measured trace: twotone's 6476 rows at K = 24 took 55 us more after
   the span than a device-only call, where their values alone predicted 11 us; and the
   split's K came out 3x below the best tested). */
static double hyb_merge_bytes( double vec, double vb, int64_t nrun )
{
	return (double)nrun * ( vb + HYB_IB ) + fmin( (double)nrun * HYB_LINE, vec );
}

/* Rows holding remainder entries: exact for ELL (rows longer than K), at most the rows and
   the entries for DIA. */
static int64_t hyb_nrun( const hyb_spmv_stats_t* st, hyb_spmv_devfmt_t fmt, int64_t K,
                         int64_t cpu_nnz )
{
	if ( cpu_nnz <= 0 ) return 0;
	if ( fmt != HYB_SPMV_DEV_ELL ) return cpu_nnz < st->m ? cpu_nnz : st->m;
	return hyb_rows_longer( st, K );
}

/* Times of a split given its width K, the entries its device part holds and the rows of its
   remainder. A call is serial around an overlapped middle (the measured stage times): the host
   work of a device call, then the CPU side beside the device span, then y out of staging
   and the remainder merged; only the middle overlaps. */
static void hyb_pred_times( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                            hyb_spmv_phase_t phase, hyb_spmv_devfmt_t fmt, int64_t K,
                            int64_t dev_nnz, int64_t nrun, hyb_spmv_pred_t* p )
{
	const double vb  = (double)hyb_prec_size( st->prec );
	const double m   = (double)st->m;
	const double vec = m * vb; /* bytes of x, and of y */
	memset( p, 0, sizeof *p );
	p->K       = K;
	p->dev_nnz = dev_nnz;
	p->cpu_nnz = st->nnz - dev_nnz;
	p->slots   = st->m * K;
	p->nrun    = nrun;
	/* Device part: size, and bytes its kernel moves (traffic model above). */
	double slots = (double)p->slots, kernel_bytes, bw;
	if ( fmt == HYB_SPMV_DEV_DIA )
	{
		p->dev_bytes = slots * vb + (double)K * HYB_IB;
		kernel_bytes = slots * vb + 2.0 * vec;
		bw           = r->gpu_dia_bw;
	}
	else
	{
		p->dev_bytes = slots * ( vb + HYB_IB );
		kernel_bytes = slots * ( vb + HYB_IB ) + 2.0 * vec;
		bw           = r->gpu_ell_bw;
	}
	/* eq. 6: TC = 2*NNZ(CPU) / fc / (nc - 1). The seed's per-entry cost on the nc - 1 cores
	   that do not drive the GPU becomes the COO kernel's calibrated bandwidth (measured on
	   nc - 1 threads) once the remainder is large enough for them all, plus the start of
	   the parallel region; a small remainder runs on one thread. */
	double rem_bytes = hyb_rem_bytes( st->prec, p->cpu_nnz );
	if ( p->cpu_nnz > 0 )
		p->t_cpu_part =
		    ( K > 0 ? hyb_cpu_start( r, vec ) : 0.0 ) +
		    hyb_host_kernel( r, (double)( p->cpu_nnz + nrun ), rem_bytes, r->cpu_coo_bw );
	/* eq. 7: TG = NNZ(GPU) / (C*F). Streaming kernels on today's devices are bound by memory,
	   so C*F becomes the kernel's calibrated bandwidth over the slots it streams (padding
	   included). The seed leaves the transfers out because the matrix is loaded once; we
	   add them: x up and y down every call, and the device part itself on a first call. */
	if ( K > 0 )
	{
		double up =
		    hyb_x_up( r, vec ) + ( phase == HYB_SPMV_FIRST_CALL ? p->dev_bytes / r->h2d_bw : 0.0 );
		p->t_gpu_part =
		    hyb_pipe( r, hyb_part_kind( fmt, p->cpu_nnz ), up, kernel_bytes / bw, vec / r->d2h_bw );
	}
	/* First call: build the split on the host before either side starts (Algorithm 1):
	   group the source by rows unless it already is, read it once and write both parts. */
	if ( phase == HYB_SPMV_FIRST_CALL && K > 0 )
	{
		double src_bytes = (double)st->nnz * ( vb + HYB_IB );
		p->t_conv        = ( st->grouped ? 0.0 : (double)st->nnz / r->conv_rate ) +
		            ( src_bytes + p->dev_bytes + rem_bytes ) / r->host_bw;
	}
	/* eq. 8: T = max(TC, TG) after the conversion and the device call's host cost, no
	   faster than the host memory bus carries x, y, a first call's upload and the CPU's
	   remainder; then y out of staging and the remainder's sums added into it (one thread,
	   or a team, as the merge kernel counts them). */
	if ( K == 0 )
	{
		p->t_total = p->t_cpu_part;
		return;
	}
	double bus =
	    hyb_bus( r, vec, vec, ( phase == HYB_SPMV_FIRST_CALL ? p->dev_bytes : 0.0 ) + rem_bytes );
	p->t_post =
	    hyb_y_out( r, vec ) +
	    hyb_host_kernel( r, 4.0 * (double)nrun, hyb_merge_bytes( vec, vb, nrun ), r->host_bw );
	p->t_total =
	    p->t_conv + r->gpu_call_s + fmax( fmax( p->t_cpu_part, p->t_gpu_part ), bus ) + p->t_post;
}

static int64_t hyb_kmax( const hyb_spmv_stats_t* st, hyb_spmv_devfmt_t fmt )
{
	if ( fmt == HYB_SPMV_DEV_ELL ) return st->max_len;
	if ( fmt == HYB_SPMV_DEV_DIA ) return st->ndiag;
	return -1;
}

static int hyb_fits( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                     const hyb_spmv_pred_t* p )
{
	double vec = (double)st->m * (double)hyb_prec_size( st->prec );
	return p->dev_bytes + 2.0 * vec <= r->gpu_mem;
}

hyb_status_t hyb_policy_spmv_predict( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                      hyb_spmv_phase_t phase, hyb_spmv_devfmt_t fmt, int64_t K,
                                      hyb_spmv_pred_t* out )
{
	int64_t kmax = hyb_kmax( st, fmt );
	if ( kmax < 0 || K < 0 || K > kmax || hyb_check_rates( r ) != HYB_OK ) return HYB_E_INVALID;
	int64_t dev = 0;
	if ( fmt == HYB_SPMV_DEV_ELL )
		hyb_policy_spmv_ell_counts( st, K, &dev, NULL );
	else
		for ( int64_t d = 0; d < K; d++ ) dev += st->diag_occ[d];
	hyb_pred_times( st, r, phase, fmt, K, dev, hyb_nrun( st, fmt, K, st->nnz - dev ), out );
	return HYB_OK;
}

/* Walk K = 1 .. Kmax with the device part's entries updated in O(1) per step:
   ELL: dev(K) = dev(K-1) + (rows with at least K entries); DIA: dev(K) = dev(K-1) + occ. */
typedef struct
{
	const hyb_spmv_stats_t* st;
	hyb_spmv_devfmt_t       fmt;
	int64_t                 K, dev, rows_ge; /* rows_ge: rows with at least K+1 entries */
} hyb_kwalk_t;

static void hyb_kwalk_init( hyb_kwalk_t* w, const hyb_spmv_stats_t* st, hyb_spmv_devfmt_t fmt )
{
	w->st      = st;
	w->fmt     = fmt;
	w->K       = 0;
	w->dev     = 0;
	w->rows_ge = st->m - st->df[0];
}

/* Advances the walk to the next K and predicts it into *p. Returns whether that K's slots
   fit the device (they only grow with K: once one does not fit, no larger K does). */
static int hyb_kwalk_next( hyb_kwalk_t* w, const hyb_spmv_rates_t* r, hyb_spmv_phase_t phase,
                           hyb_spmv_pred_t* p )
{
	w->K++;
	if ( w->fmt == HYB_SPMV_DEV_ELL )
	{
		w->dev += w->rows_ge;
		if ( w->K <= w->st->max_len ) w->rows_ge -= w->st->df[w->K];
	}
	else
		w->dev += w->st->diag_occ[w->K - 1];
	int64_t cpu  = w->st->nnz - w->dev;
	int64_t nrun = w->fmt == HYB_SPMV_DEV_ELL ? w->rows_ge : hyb_nrun( w->st, w->fmt, w->K, cpu );
	hyb_pred_times( w->st, r, phase, w->fmt, w->K, w->dev, nrun, p );
	return hyb_fits( w->st, r, p );
}

int64_t hyb_policy_spmv_seek_k( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                hyb_spmv_phase_t phase, hyb_spmv_devfmt_t fmt )
{
	int64_t kmax = hyb_kmax( st, fmt );
	if ( kmax < 1 || hyb_check_rates( r ) != HYB_OK ) return -1;
	hyb_kwalk_t w;
	hyb_kwalk_init( &w, st, fmt );
	double tc_prev = 0.0, tg_prev = 0.0;
	for ( int64_t j = 1; j <= kmax; j++ )
	{
		hyb_spmv_pred_t p;
		(void)hyb_kwalk_next( &w, r, phase, &p );    /* Algorithm 3 walks every K, fitting or not */
		double tc = p.t_cpu_part, tg = p.t_gpu_part; /* Algorithm 3, lines 5-6 */
		if ( j == 1 )                                /* lines 7-10 */
		{
			tc_prev = tc;
			tg_prev = tg;
		}
		if ( tc == tg ) return j;           /* lines 11-13 */
		if ( tg_prev < tc_prev && tg > tc ) /* lines 15-21: crossed between j-1 and j */
			return tc_prev < tg ? j - 1 : j;
		tc_prev = tc; /* lines 23-24 */
		tg_prev = tg;
	}
	/* No crossing (the seed leaves K undefined): the device is either slower from the first
	   slot on (balance is closest at K = 1) or faster all the way (K = Kmax). */
	hyb_spmv_pred_t p1;
	hyb_kwalk_init( &w, st, fmt );
	(void)hyb_kwalk_next( &w, r, phase, &p1 );
	return p1.t_gpu_part > p1.t_cpu_part ? 1 : kmax;
}

int64_t hyb_policy_spmv_best_k( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                hyb_spmv_phase_t phase, hyb_spmv_devfmt_t fmt,
                                hyb_spmv_pred_t* best )
{
	int64_t kmax = hyb_kmax( st, fmt ), bestk = -1;
	if ( kmax < 1 || hyb_check_rates( r ) != HYB_OK ) return -1;
	hyb_kwalk_t w;
	hyb_kwalk_init( &w, st, fmt );
	hyb_spmv_pred_t p;
	for ( int64_t j = 1; j <= kmax && hyb_kwalk_next( &w, r, phase, &p ); j++ )
	{
		if ( bestk < 0 || p.t_total < best->t_total )
		{
			bestk = j;
			*best = p;
		}
	}
	return bestk;
}

/* Row split at device share f of the entries (the rows are assumed to carry their share
   of x and y too). Device: x up whole (every row may reference any column), its CSR rows
   up on a first call, its rows' y down. CPU: the other rows with the CSR kernel. The two
   sides write disjoint rows of y, so nothing is merged. */
static void hyb_rowsplit_times( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                hyb_spmv_phase_t phase, double f, double* tg, double* tc,
                                double* span )
{
	const double vb = (double)hyb_prec_size( st->prec );
	const double m = (double)st->m, nnz = (double)st->nnz, vec = m * vb;
	double       csr_bytes = nnz * ( vb + HYB_IB ) + m * ( HYB_IB + 2.0 * vb );
	double       csr_dev   = nnz * ( vb + HYB_IB ) + ( m + 1.0 ) * HYB_IB;
	*tg                    = 0.0;
	if ( f > 0.0 )
	{
		double up =
		    hyb_x_up( r, vec ) + ( phase == HYB_SPMV_FIRST_CALL ? f * csr_dev / r->h2d_bw : 0.0 );
		*tg = hyb_pipe( r, hyb_rowsplit_kind( f ), up, f * csr_bytes / r->gpu_csr_bw,
		                f * vec / r->d2h_bw );
		if ( span ) *span = *tg;
	}
	*tc = f < 1.0 ? r->cpu_call_s + ( f > 0.0 ? hyb_cpu_start( r, vec ) : 0.0 ) +
	                    ( 1.0 - f ) * csr_bytes / r->cpu_csr_bw
	              : 0.0;
	/* The CPU's rows, x and the device's y, and on a first call the upload of the device's
	   rows, share the host memory bus (the seed's "memory bus contention"): staging moves
	   each uploaded byte three times (read, write to the page-locked buffer, DMA read).
	   Neither side can finish before the bus has carried all of it. */
	if ( f > 0.0 )
	{
		double traffic = r->h2d_host_traffic > 1.0 ? r->h2d_host_traffic : 1.0;
		double bus     = hyb_bus( r, vec, f * vec,
		                          ( 1.0 - f ) * csr_bytes +
		                              ( phase == HYB_SPMV_FIRST_CALL ? traffic * f * csr_dev : 0.0 ) );
		*tc            = fmax( *tc, bus );
		*tg            = fmax( *tg, bus );
	}
}

/* One row split call at share f beside its conversion: the device call's host cost, both
   sides at once, then the device rows' y out of staging (the CPU writes its rows of y). */
static double hyb_rowsplit_call( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                 hyb_spmv_phase_t phase, double f, double* span )
{
	double tg, tc, vec = (double)st->m * (double)hyb_prec_size( st->prec );
	hyb_rowsplit_times( st, r, phase, f, &tg, &tc, span );
	return ( f > 0.0 ? r->gpu_call_s + hyb_y_out( r, f * vec ) : 0.0 ) + fmax( tg, tc );
}

/* Bytes of the device's CSR rows at share f (values, columns, row pointers). */
static double hyb_rowsplit_dev_bytes( const hyb_spmv_stats_t* st, double f )
{
	const double vb = (double)hyb_prec_size( st->prec );
	return f * ( (double)st->nnz * ( vb + HYB_IB ) + ( (double)st->m + 1.0 ) * HYB_IB );
}

double hyb_policy_spmv_rowsplit_at( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                    hyb_spmv_phase_t phase, double f )
{
	if ( hyb_check_rates( r ) != HYB_OK || st->m <= 0 || st->nnz <= 0 || !( f >= 0.0 && f <= 1.0 ) )
		return INFINITY;
	const double vb = (double)hyb_prec_size( st->prec );
	if ( hyb_rowsplit_dev_bytes( st, f ) + 2.0 * (double)st->m * vb > r->gpu_mem ) return INFINITY;
	double conv =
	    ( phase == HYB_SPMV_FIRST_CALL && !st->grouped ) ? (double)st->nnz / r->conv_rate : 0.0;
	return conv + hyb_rowsplit_call( st, r, phase, f, NULL );
}

double hyb_policy_spmv_rowsplit( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                 hyb_spmv_phase_t phase, double* share )
{
	*share = 0.0;
	if ( hyb_check_rates( r ) != HYB_OK || st->m <= 0 || st->nnz <= 0 ) return INFINITY;
	const double vb = (double)hyb_prec_size( st->prec );
	/* The device side grows with f and the CPU side shrinks, but the shared bus of a first
	   call makes their maximum non-monotone: scan f and keep the best. */
	double f = 0.0, best = INFINITY;
	for ( int q = 1; q < 512; q++ )
	{
		double g = (double)q / 512.0, t = hyb_rowsplit_call( st, r, phase, g, NULL );
		if ( t < best )
		{
			best = t;
			f    = g;
		}
	}
	/* keep the share whose device slice fits */
	double room = r->gpu_mem - 2.0 * (double)st->m * vb;
	if ( room <= 0.0 ) return INFINITY;
	double full = hyb_rowsplit_dev_bytes( st, 1.0 );
	if ( f * full > room ) f = room / full;
	*share = f;
	return hyb_policy_spmv_rowsplit_at( st, r, phase, f );
}

static int hyb_allowed( unsigned mask, int bit )
{
	return mask == 0 || ( mask & ( 1u << bit ) ) != 0;
}

/* Device-only CSR: no conversion beyond grouping; its rows uploaded on a first call. The
   device span goes to *span. */
static double hyb_gpu_csr_time( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                hyb_spmv_phase_t phase, double* span )
{
	const double vb = (double)hyb_prec_size( st->prec );
	const double m = (double)st->m, nnz = (double)st->nnz, vec = m * vb;
	double       csr_bytes = nnz * ( vb + HYB_IB ) + m * ( HYB_IB + 2.0 * vb );
	double       csr_dev   = nnz * ( vb + HYB_IB ) + ( m + 1.0 ) * HYB_IB;
	if ( csr_dev + 2.0 * vec > r->gpu_mem ) return INFINITY;
	double up = hyb_x_up( r, vec ) + ( phase == HYB_SPMV_FIRST_CALL ? csr_dev / r->h2d_bw : 0.0 );
	double sp = hyb_pipe( r, HYB_SPMV_SPAN_CSR, up, csr_bytes / r->gpu_csr_bw, vec / r->d2h_bw );
	/* a first call stages the rows from the application's arrays like x */
	double tu  = r->h2d_host_traffic > 1.0 ? r->h2d_host_traffic : 1.0;
	double bus = hyb_bus( r, vec, vec, phase == HYB_SPMV_FIRST_CALL ? tu * csr_dev : 0.0 );
	double t   = r->gpu_call_s + fmax( sp, bus ) + hyb_y_out( r, vec );
	if ( span ) *span = sp;
	if ( phase == HYB_SPMV_FIRST_CALL && !st->grouped ) t += nnz / r->conv_rate;
	return t;
}

/* Prediction of a forced run; the plan's other fields (t_cpu, best of each run) are set. */
static hyb_status_t hyb_plan_forced( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                     hyb_spmv_phase_t phase, const hyb_spmv_plan_opts_t* o,
                                     hyb_spmv_plan_t* plan )
{
	hyb_spmv_devfmt_t fmt = o->fmt;
	plan->run             = o->run;
	plan->K               = 0;
	plan->K_alg3          = -1;
	memset( &plan->split, 0, sizeof plan->split );
	switch ( o->run )
	{
	case HYB_SPMV_RUN_CPU:
		plan->fmt    = HYB_SPMV_DEV_NONE;
		plan->t_plan = plan->t_cpu;
		return HYB_OK;
	case HYB_SPMV_RUN_ROWSPLIT:
	{
		double f = o->share > 0.0 ? fmin( fmax( o->share, 0.01 ), 0.99 ) : plan->row_share;
		if ( !( f > 0.0 ) ) hyb_policy_spmv_rowsplit( st, r, phase, &f );
		if ( !( f > 0.0 ) ) return HYB_E_NOT_SUPPORTED;
		plan->fmt       = HYB_SPMV_DEV_CSR;
		plan->row_share = f;
		plan->t_plan    = hyb_policy_spmv_rowsplit_at( st, r, phase, f );
		return isinf( plan->t_plan ) ? HYB_E_NOT_SUPPORTED : HYB_OK;
	}
	case HYB_SPMV_RUN_GPU:
		if ( fmt == HYB_SPMV_DEV_NONE ) fmt = plan->gpu_fmt;
		if ( fmt == HYB_SPMV_DEV_NONE ) return HYB_E_NOT_SUPPORTED;
		plan->fmt = fmt;
		if ( fmt == HYB_SPMV_DEV_CSR )
		{
			plan->t_plan = hyb_gpu_csr_time( st, r, phase, NULL );
			return isinf( plan->t_plan ) ? HYB_E_NOT_SUPPORTED : HYB_OK;
		}
		if ( fmt == HYB_SPMV_DEV_DIA && st->diag_rest > 0 ) return HYB_E_NOT_SUPPORTED;
		{
			int64_t kmax = hyb_kmax( st, fmt );
			if ( kmax < 0 ||
			     hyb_policy_spmv_predict( st, r, phase, fmt, kmax, &plan->split ) != HYB_OK ||
			     plan->split.cpu_nnz != 0 || !hyb_fits( st, r, &plan->split ) )
				return HYB_E_NOT_SUPPORTED;
			plan->K      = kmax;
			plan->t_plan = plan->split.t_total;
		}
		return HYB_OK;
	case HYB_SPMV_RUN_HYBRID:
	{
		if ( fmt == HYB_SPMV_DEV_NONE ) fmt = plan->fmt_hybrid;
		if ( fmt == HYB_SPMV_DEV_NONE )
			fmt = hyb_kmax( st, HYB_SPMV_DEV_DIA ) > 0 ? HYB_SPMV_DEV_DIA : HYB_SPMV_DEV_ELL;
		int64_t kmax = hyb_kmax( st, fmt );
		if ( fmt == HYB_SPMV_DEV_CSR || kmax < 1 ) return HYB_E_NOT_SUPPORTED;
		int64_t K = o->K;
		if ( K <= 0 )
		{
			hyb_spmv_pred_t best;
			K = hyb_policy_spmv_best_k( st, r, phase, fmt, &best );
			if ( K < 1 ) return HYB_E_NOT_SUPPORTED;
		}
		if ( K > kmax ) K = kmax;
		if ( hyb_policy_spmv_predict( st, r, phase, fmt, K, &plan->split ) != HYB_OK ||
		     !hyb_fits( st, r, &plan->split ) )
			return HYB_E_NOT_SUPPORTED;
		plan->fmt    = fmt;
		plan->K      = K;
		plan->K_alg3 = hyb_policy_spmv_seek_k( st, r, phase, fmt );
		plan->t_plan = plan->split.t_total;
		return HYB_OK;
	}
	}
	return HYB_E_INVALID;
}

hyb_status_t hyb_policy_spmv_plan( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                   hyb_spmv_phase_t phase, hyb_spmv_plan_t* plan )
{
	return hyb_policy_spmv_plan_opts( st, r, phase, NULL, plan );
}

static hyb_status_t hyb_plan_choose( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                     hyb_spmv_phase_t phase, const hyb_spmv_plan_opts_t* opts,
                                     hyb_spmv_plan_t* plan )
{
	static const hyb_spmv_plan_opts_t none = { 0 };
	const hyb_spmv_plan_opts_t*       o    = opts ? opts : &none;
	memset( plan, 0, sizeof *plan );
	plan->K_alg3     = -1;
	plan->t_gpu      = INFINITY;
	plan->t_hybrid   = INFINITY;
	plan->t_rowsplit = INFINITY;
	plan->t_plan     = INFINITY;
	if ( hyb_policy_spmv_check_stats( st ) != HYB_OK || hyb_check_rates( r ) != HYB_OK )
		return HYB_E_INVALID;
	const double vb = (double)hyb_prec_size( st->prec );
	const double m = (double)st->m, nnz = (double)st->nnz;
	/* CPU only: the row-partitioned CSR kernel over the CSR traffic. */
	double csr_bytes = nnz * ( vb + HYB_IB ) + m * ( HYB_IB + 2.0 * vb );
	plan->run        = HYB_SPMV_RUN_CPU;
	plan->fmt        = HYB_SPMV_DEV_NONE;
	plan->t_cpu      = st->m > 0 ? r->cpu_call_s + csr_bytes / r->cpu_csr_bw : 0.0;
	plan->t_plan     = plan->t_cpu;
	if ( st->m == 0 || st->nnz == 0 )
	{
		if ( o->force && o->run != HYB_SPMV_RUN_CPU ) return HYB_E_NOT_SUPPORTED;
		return HYB_OK;
	}

	/* Device only, CSR. */
	double gpu_bytes = INFINITY; /* size of the device copy behind t_gpu */
	if ( hyb_allowed( o->allow_fmts, HYB_SPMV_DEV_CSR ) )
	{
		gpu_bytes     = nnz * ( vb + HYB_IB ) + ( m + 1.0 ) * HYB_IB;
		plan->t_gpu   = hyb_gpu_csr_time( st, r, phase, NULL );
		plan->gpu_fmt = isinf( plan->t_gpu ) ? HYB_SPMV_DEV_NONE : HYB_SPMV_DEV_CSR;
		if ( hyb_allowed( o->allow_runs, HYB_SPMV_RUN_ROWSPLIT ) )
			plan->t_rowsplit = hyb_policy_spmv_rowsplit( st, r, phase, &plan->row_share );
	}
	/* ELL and DIA: the best K of each. A K that leaves no remainder is a device-only run. */
	hyb_spmv_pred_t   best_h = { 0 }, best_g = { 0 };
	hyb_spmv_devfmt_t fmt_h = HYB_SPMV_DEV_NONE;
	for ( int f = 0; f < 2; f++ )
	{
		hyb_spmv_devfmt_t fmt  = f == 0 ? HYB_SPMV_DEV_ELL : HYB_SPMV_DEV_DIA;
		int64_t           kmax = hyb_kmax( st, fmt );
		if ( kmax < 1 || !hyb_allowed( o->allow_fmts, fmt ) ) continue;
		hyb_kwalk_t w;
		hyb_kwalk_init( &w, st, fmt );
		hyb_spmv_pred_t p;
		for ( int64_t j = 1; j <= kmax && hyb_kwalk_next( &w, r, phase, &p ); j++ )
		{
			if ( p.cpu_nnz > 0 && p.t_total < plan->t_hybrid )
			{
				plan->t_hybrid = p.t_total;
				best_h         = p;
				fmt_h          = fmt;
			}
			/* Device only. When the transfers bound every format alike (the host memory
			   bus), the smaller device copy wins the tie: less memory, a faster first call. */
			int tie =
			    fabs( p.t_total - plan->t_gpu ) <= 1e-9 * plan->t_gpu && p.dev_bytes < gpu_bytes;
			if ( p.cpu_nnz == 0 && ( p.t_total < plan->t_gpu * ( 1.0 - 1e-9 ) || tie ) )
			{
				gpu_bytes     = p.dev_bytes;
				plan->t_gpu   = p.t_total;
				plan->gpu_fmt = fmt;
				best_g        = p;
			}
		}
	}
	plan->fmt_hybrid = fmt_h;
	if ( o->force ) return hyb_plan_forced( st, r, phase, o, plan );

	/* The runs that may be chosen. */
	int    cpu_ok = hyb_allowed( o->allow_runs, HYB_SPMV_RUN_CPU );
	double t_gpu  = hyb_allowed( o->allow_runs, HYB_SPMV_RUN_GPU ) ? plan->t_gpu : INFINITY;
	double t_hyb  = hyb_allowed( o->allow_runs, HYB_SPMV_RUN_HYBRID ) ? plan->t_hybrid : INFINITY;
	double t_row =
	    hyb_allowed( o->allow_runs, HYB_SPMV_RUN_ROWSPLIT ) ? plan->t_rowsplit : INFINITY;
	double best_split = fmin( t_hyb, t_row );
	double best_dev   = fmin( t_gpu, best_split );
	if ( isinf( best_dev ) ) return cpu_ok ? HYB_OK : HYB_E_NOT_SUPPORTED;
	if ( cpu_ok && !( best_dev * ( 1.0 + r->margin ) < plan->t_cpu ) )
		return HYB_OK; /* keep the CPU */
	if ( best_split * ( 1.0 + r->margin ) < t_gpu && t_row < t_hyb )
	{
		plan->run    = HYB_SPMV_RUN_ROWSPLIT;
		plan->fmt    = HYB_SPMV_DEV_CSR;
		plan->t_plan = t_row;
	}
	else if ( best_split * ( 1.0 + r->margin ) < t_gpu )
	{
		plan->run    = HYB_SPMV_RUN_HYBRID;
		plan->fmt    = fmt_h;
		plan->K      = best_h.K;
		plan->split  = best_h;
		plan->t_plan = t_hyb;
	}
	else
	{
		plan->run    = HYB_SPMV_RUN_GPU;
		plan->fmt    = plan->gpu_fmt;
		plan->t_plan = t_gpu;
		if ( plan->fmt != HYB_SPMV_DEV_CSR )
		{
			plan->K     = best_g.K;
			plan->split = best_g;
		}
	}
	if ( plan->fmt == HYB_SPMV_DEV_ELL || plan->fmt == HYB_SPMV_DEV_DIA )
		plan->K_alg3 = hyb_policy_spmv_seek_k( st, r, phase, plan->fmt );
	return HYB_OK;
}

hyb_status_t hyb_policy_spmv_plan_opts( const hyb_spmv_stats_t* st, const hyb_spmv_rates_t* r,
                                        hyb_spmv_phase_t phase, const hyb_spmv_plan_opts_t* opts,
                                        hyb_spmv_plan_t* plan )
{
	hyb_status_t s = hyb_plan_choose( st, r, phase, opts, plan );
	if ( s != HYB_OK ) return s;
	/* the chosen run's device span, which a measured span refits, its kind and the scale it
	   was predicted with (the refit divides it out) */
	plan->t_span    = 0.0;
	plan->span_kind = HYB_SPMV_SPAN_CSR;
	if ( plan->run == HYB_SPMV_RUN_ROWSPLIT )
	{
		hyb_rowsplit_call( st, r, phase, plan->row_share, &plan->t_span );
		plan->span_kind = hyb_rowsplit_kind( plan->row_share );
	}
	else if ( plan->run != HYB_SPMV_RUN_CPU && plan->fmt == HYB_SPMV_DEV_CSR )
		hyb_gpu_csr_time( st, r, phase, &plan->t_span );
	else if ( plan->run != HYB_SPMV_RUN_CPU )
	{
		plan->t_span    = plan->split.t_gpu_part;
		plan->span_kind = hyb_part_kind( plan->fmt, plan->split.cpu_nnz );
	}
	plan->span_scale = hyb_span_scale( r, plan->span_kind );
	return HYB_OK;
}

int hyb_policy_spmv_pays_check( const hyb_spmv_plan_t* plan, double check_s, double margin )
{
	if ( plan->run == HYB_SPMV_RUN_CPU ) return 0;
	double t = fmax( plan->t_plan, check_s > 0.0 ? check_s : 0.0 );
	return t * ( 1.0 + margin ) < plan->t_cpu;
}

/* ------------------------------------------------------------ measured choice */

void hyb_policy_spmv_note_device( hyb_spmv_measured_t* m, double seconds, double t_cpu )
{
	if ( !( seconds > 0 ) || !isfinite( seconds ) ) return;
	m->dev_min = m->dev_n > 0 ? fmin( m->dev_min, seconds ) : seconds;
	m->dev_n++;
	if ( m->state != HYB_SPMV_MEASURING || m->probe_due || m->dev_n < HYB_SPMV_PROBE_AFTER ) return;
	/* far below the model's CPU time: no CPU call is worth spending to confirm it */
	if ( t_cpu > 0 && m->dev_min < HYB_SPMV_PROBE_RATIO * t_cpu )
		m->state = HYB_SPMV_KEEP_DEVICE;
	else
		m->probe_due = 1;
}

int hyb_policy_spmv_take_probe( hyb_spmv_measured_t* m )
{
	if ( !m->probe_due || m->state != HYB_SPMV_MEASURING ) return 0;
	m->probe_due = 0;
	return 1;
}

void hyb_policy_spmv_note_probe( hyb_spmv_measured_t* m, double seconds )
{
	if ( m->state != HYB_SPMV_MEASURING || !( seconds > 0 ) || !isfinite( seconds ) ) return;
	m->cpu_min = m->probes > 0 ? fmin( m->cpu_min, seconds ) : seconds;
	if ( ++m->probes < HYB_SPMV_PROBES ) return;
	m->state = m->cpu_min < m->dev_min ? HYB_SPMV_KEEP_CPU : HYB_SPMV_KEEP_DEVICE;
}

hyb_op_id_t hyb_policy_spmv_learn_op( void )
{
	static int op = HYB_LEARN_OP_UNSET;
	return hyb_learn_op( &op, "spmv", 0 );
}

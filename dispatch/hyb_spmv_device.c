/* SPDX-License-Identifier: BSD-3-Clause */
/* Device paths of the sparse products (see hyb_spmv_device.h).

   Each call is one of three cases:
   - resident (the residency cache holds a device copy of these arrays, provably
     unchanged): the steady-state plan chosen when the copy was made runs at once; only x
     goes up and y down;
   - filled (a first call the cache will keep): statistics of the matrix (row grouping,
     distribution function, diagonals), the steady-state plan, the device matrix built and
     uploaded block by block while this call runs on it, then kept;
   - transient (not cached: residency off, the key keeps changing, or the first sighting in
     auto mode): the first-call plan, which usually keeps the CPU because converting and
     uploading costs more than the product itself; a device run uploads what it needs into
     the call's own workspace.
   In auto mode a matrix is cached at its second sighting (a small memo of array addresses
   in the learning store's measured choices, no tracking): arming the change tracking costs 12-16
   ms/GiB with 4 KiB pages, which a matrix used once should not pay. HYBLAS_MODE=gpu caches from the
   first call. */
#define _GNU_SOURCE
#include "dispatch/hyb_spmv_device.h"

#include <math.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch/hyb_spmv_bg.h"
#include "dispatch/hyb_spmv_rates.h"
#include "hyb_log.h"
#include "hyb_routines.h"
#include "hyb_self_read.h"
#include "hyb_state.h"
#include "hyb_stats.h"
#include "hyb_team.h"
#include "policies/hyb_learn.h"
#include "kernels/cpu/hyb_spmv_format.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_spmv_copy.h"
#include "kernels/pipeline/hyb_spmv_todia.h"
#include "kernels/pipeline/hyb_spmv_yreg.h"
#include "kernels/spmv/hyb_spmv_kernels.h"

#define HYB_SPMV_MAX_BLOCKS 64
/* The device that runs sparse products (multi-device SpMV is not implemented). */
#define HYB_SPMV_DEV 0

enum
{
	HYB_VERDICT_NONE         = 0,
	HYB_VERDICT_CPU          = 1, /* the steady-state plan keeps the CPU: do not cache */
	HYB_VERDICT_CPU_MEASURED = 2, /* timed: the CPU product is the faster (auto mode; derived
	                                 from the slot's measured record, never stored) */
};

/* The memo of an array set: a measured choice of the learning store keyed by ("spmv", the
   set's hash), whose rule record this is. Its sightings decide when the matrix is cached;
   the store's least recently used record per operation makes room for a new set
   (HYB_LEARN_CHOICES_PER_OP), which is then seen again as new. */
typedef struct
{
	int                 seen;
	int                 verdict;
	hyb_spmv_measured_t meas;      /* device calls against CPU probes (auto mode) */
	int                 ungrouped; /* COO whose copy found its rows not grouped */
} hyb_memo_rec_t;
_Static_assert( sizeof( hyb_memo_rec_t ) <= HYB_LEARN_RULE_BYTES,
                "the SpMV memo fits the store's rule record" );

/* Under HYB_LOCK_SPMV_DEVICE (but the atomics). */
static struct
{
	hyb_residency_cache_t* cache;
	int                    cache_failed;
	hyb_spmv_force_t       force;
	_Atomic double   check_spb; /* seconds per byte of a cache hit's change check (refitted) */
	_Atomic uint64_t copies[5]; /* hyb_spmv_copy_stats_t's counts, in its order */
	/* 1 once a read of the process's own memory through process_vm_readv was refused (a
	   seccomp filter; one that covers only the helper thread lets the calls' own probe
	   read pass): from then on the calls fill their entries themselves. */
	atomic_int cannot_read;
} hyb_sd;

enum
{
	HYB_COPY_STARTED  = 0,
	HYB_COPY_KEPT     = 1,
	HYB_COPY_REJECTED = 2,
	HYB_COPY_FAILED   = 3,
	HYB_COPY_DIA      = 4
};

void hyb_spmv_copy_stats( hyb_spmv_copy_stats_t* out )
{
	out->started  = atomic_load( &hyb_sd.copies[HYB_COPY_STARTED] );
	out->kept     = atomic_load( &hyb_sd.copies[HYB_COPY_KEPT] );
	out->rejected = atomic_load( &hyb_sd.copies[HYB_COPY_REJECTED] );
	out->failed   = atomic_load( &hyb_sd.copies[HYB_COPY_FAILED] );
	out->dia      = atomic_load( &hyb_sd.copies[HYB_COPY_DIA] );
}

static __thread hyb_spmv_report_t hyb_sd_report;

hyb_spmv_report_t* hyb_spmv_last_report( void )
{
	return &hyb_sd_report;
}

const char* hyb_spmv_run_name( hyb_spmv_run_t r )
{
	static const char* n[] = { "cpu", "gpu", "hybrid", "rowsplit" };
	return (unsigned)r < 4 ? n[r] : "?";
}

const char* hyb_spmv_fmt_name( hyb_spmv_devfmt_t f )
{
	static const char* n[] = { "none", "csr", "ell", "dia" };
	return (unsigned)f < 4 ? n[f] : "?";
}

void hyb_spmv_device_force( const hyb_spmv_force_t* f )
{
	hyb_lock( HYB_LOCK_SPMV_DEVICE );
	if ( f )
		hyb_sd.force = *f;
	else
		memset( &hyb_sd.force, 0, sizeof hyb_sd.force );
	hyb_unlock( HYB_LOCK_SPMV_DEVICE );
}

/* ------------------------------------------------------------ cache and memo */

/* The process's residency cache, created on first use with HYBLAS_RESIDENCY's mode and
   half the device budget for its payloads (the rest stays for workspaces and level 3). */
static hyb_residency_cache_t* hyb_sd_cache( void )
{
	hyb_lock( HYB_LOCK_SPMV_DEVICE );
	if ( !hyb_sd.cache && !hyb_sd.cache_failed )
	{
		hyb_residency_cache_config_t c = {
			.mode      = (hyb_residency_mode_t)hyb_config()->residency,
			.mech      = HYB_RESIDENCY_MECH_AUTO,
			.max_bytes = (uint64_t)( 0.5 * hyb_dev_budget( HYB_SPMV_DEV ) ),
		};
		if ( hyb_residency_cache_create( &c, &hyb_sd.cache ) != HYB_OK )
		{
			hyb_sd.cache_failed = 1;
			HYB_LOG(
			    HYB_LOG_WARN,
			    "warning: SpMV residency cache unavailable; matrices are not kept on the device" );
		}
	}
	hyb_residency_cache_t* c = hyb_sd.cache;
	hyb_unlock( HYB_LOCK_SPMV_DEVICE );
	return c;
}

void hyb_spmv_cache_stats( hyb_residency_stats_t* out )
{
	memset( out, 0, sizeof *out );
	hyb_lock( HYB_LOCK_SPMV_DEVICE );
	if ( hyb_sd.cache ) hyb_residency_cache_stats( hyb_sd.cache, out );
	hyb_unlock( HYB_LOCK_SPMV_DEVICE );
}

static uint64_t hyb_mix( uint64_t h, uint64_t v )
{
	h ^= v + 0x9E3779B97F4A7C15ull + ( h << 6 ) + ( h >> 2 );
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	return h ^ ( h >> 29 );
}

static hyb_memo_rec_t* hyb_memo_rec( hyb_learn_choice_t* c )
{
	return (hyb_memo_rec_t*)(void*)c->rule.bytes;
}

static hyb_learn_key_t hyb_memo_key( uint64_t h )
{
	return ( hyb_learn_key_t ){ hyb_policy_spmv_learn_op(), h };
}

/* What the store shows of every family's records: the phase, the side kept, the fastest
   times. */
static void hyb_memo_show( hyb_learn_choice_t* c )
{
	const hyb_spmv_measured_t* m = &hyb_memo_rec( c )->meas;
	c->phase                     = m->state != HYB_SPMV_MEASURING ? HYB_LEARN_DECIDED
	                               : m->dev_n + m->probes > 0     ? HYB_LEARN_MEASURING
	                                                              : HYB_LEARN_PENDING;
	c->side                      = m->state == HYB_SPMV_KEEP_CPU ? HYB_LEARN_CPU : HYB_LEARN_GPU;
	c->time[HYB_LEARN_CPU]       = m->cpu_min;
	c->time[HYB_LEARN_GPU]       = m->dev_min;
}

typedef struct
{
	int    seen, verdict, probe;
	double seconds, t_cpu;
	int    state;
	double cpu_min, dev_min;
} hyb_memo_step_t;

static void hyb_memo_see_rule( hyb_learn_choice_t* c, void* ctx )
{
	hyb_memo_step_t* st = ctx;
	hyb_memo_rec_t*  m  = hyb_memo_rec( c );
	st->seen            = m->seen;
	st->verdict         = m->verdict != HYB_VERDICT_NONE       ? m->verdict
	                      : m->meas.state == HYB_SPMV_KEEP_CPU ? HYB_VERDICT_CPU_MEASURED
	                                                           : HYB_VERDICT_NONE;
	st->probe           = st->verdict == HYB_VERDICT_NONE && hyb_policy_spmv_take_probe( &m->meas );
	m->seen++;
}

/* Count a sighting of array set h; returns the sightings before this one and the verdict,
   and in *probe whether this call should time the CPU product instead (once per probe). */
static int hyb_memo_see( uint64_t h, int* verdict, int* probe )
{
	hyb_memo_step_t st = { 0 };
	hyb_learn_choice( hyb_memo_key( h ), 1, hyb_memo_see_rule, &st );
	*verdict = st.verdict;
	*probe   = st.probe;
	return st.seen;
}

static void hyb_memo_verdict_rule( hyb_learn_choice_t* c, void* ctx )
{
	hyb_memo_rec( c )->verdict = ( (hyb_memo_step_t*)ctx )->verdict;
}

static void hyb_memo_verdict( uint64_t h, int verdict )
{
	hyb_memo_step_t st = { .verdict = verdict };
	hyb_learn_choice( hyb_memo_key( h ), 0, hyb_memo_verdict_rule, &st );
}

static void hyb_memo_device_rule( hyb_learn_choice_t* c, void* ctx )
{
	hyb_memo_step_t* st = ctx;
	hyb_policy_spmv_note_device( &hyb_memo_rec( c )->meas, st->seconds, st->t_cpu );
	hyb_memo_show( c );
}

/* A resident device call of array set h took `seconds`; t_cpu is the model's CPU time. */
static void hyb_memo_device_time( uint64_t h, double seconds, double t_cpu )
{
	hyb_memo_step_t st = { .seconds = seconds, .t_cpu = t_cpu };
	hyb_learn_choice( hyb_memo_key( h ), 0, hyb_memo_device_rule, &st );
}

static void hyb_memo_probe_rule( hyb_learn_choice_t* c, void* ctx )
{
	hyb_memo_step_t*     st = ctx;
	hyb_spmv_measured_t* m  = &hyb_memo_rec( c )->meas;
	hyb_policy_spmv_note_probe( m, st->seconds );
	hyb_memo_show( c );
	st->state   = (int)m->state;
	st->cpu_min = m->cpu_min;
	st->dev_min = m->dev_min;
}

void hyb_spmv_device_probe_done( uint64_t h, double seconds )
{
	hyb_memo_step_t st = { .seconds = seconds };
	if ( hyb_learn_choice( hyb_memo_key( h ), 0, hyb_memo_probe_rule, &st ) &&
	     st.state == HYB_SPMV_KEEP_CPU )
		HYB_LOG( HYB_LOG_INFO,
		         "SpMV: the CPU product measured faster for this matrix "
		         "(%.3g ms against %.3g ms on the device): it stays on the CPU",
		         st.cpu_min * 1e3, st.dev_min * 1e3 );
}

static void hyb_memo_ungrouped_rule( hyb_learn_choice_t* c, void* ctx )
{
	int*            io = ctx;
	hyb_memo_rec_t* m  = hyb_memo_rec( c );
	if ( *io ) m->ungrouped = 1;
	*io = m->ungrouped;
}

/* Whether array set h is COO whose copy found its rows not grouped (a copy cannot serve it:
   the background build takes the other job); with `set`, remember that it is. */
static int hyb_memo_ungrouped( uint64_t h, int set )
{
	int io = set;
	return hyb_learn_choice( hyb_memo_key( h ), 0, hyb_memo_ungrouped_rule, &io ) ? io : 0;
}

/* ------------------------------------------------------------ resident copies */

/* A cached device copy. Its device memory is the workspace of a context reserved for it
   (the device layer hands out memory only as per-context workspaces, with the budget and
   the fault injection applied); the products themselves run on other contexts of the same
   device, which may read it. */
typedef struct
{
	hyb_spmv_plan_t plan; /* the steady-state plan */
	hyb_spmv_dmat_t dm;
	hyb_dev_t*      mem;
	void*           dmem;
} hyb_spmv_res_t;

static void hyb_res_free( void* payload, void* ctx )
{
	(void)ctx;
	hyb_spmv_res_t* r = payload;
	if ( r->mem )
	{
		/* Destroy the reserved context with its memory, rather than pooling a context that
		   holds a large workspace nobody asked for. */
		atomic_store( &r->mem->broken, 1 );
		hyb_dev_release( r->mem );
	}
	hyb_spmv_dmat_free( &r->dm );
	free( r );
}

/* Reserve a context and `bytes` of its device memory for a resident copy. */
static hyb_status_t hyb_res_reserve( hyb_spmv_res_t* res, size_t bytes )
{
	hyb_status_t st = hyb_dev_acquire( HYB_SPMV_DEV, &res->mem );
	if ( st == HYB_OK && res->mem->stage )
	{
		/* A pooled context with page-locked staging is the one the next calls would run
		   on: keep it in the pool and hold another one for the memory. */
		hyb_dev_t* other = NULL;
		if ( hyb_dev_acquire( HYB_SPMV_DEV, &other ) == HYB_OK )
		{
			hyb_dev_release( res->mem );
			res->mem = other;
		}
	}
	if ( st == HYB_OK ) st = hyb_dev_workspace( res->mem, bytes > 0 ? bytes : 1, &res->dmem );
	/* an injected asynchronous allocation fault returns HYB_OK without memory */
	if ( st == HYB_OK && res->dmem == NULL ) st = HYB_E_NO_MEMORY;
	return st;
}

/* ------------------------------------------------------------ statistics */

typedef struct
{
	hyb_spmv_view_t  view;
	int64_t*         df;
	hyb_spmv_diags_t diags;
	hyb_spmv_stats_t st;
} hyb_sd_stats_t;

static void hyb_stats_free( hyb_sd_stats_t* s )
{
	hyb_spmv_view_free( &s->view );
	free( s->df );
	hyb_spmv_diags_free( &s->diags );
	memset( s, 0, sizeof *s );
}

/* One pass over the matrix: grouped rows (every index validated: the device kernels do
   not check them), the distribution function, and the diagonals when wanted. */
static hyb_status_t hyb_stats_build( const hyb_spmv_src_t* src, int diags, hyb_sd_stats_t* s )
{
	memset( s, 0, sizeof *s );
	hyb_status_t st = hyb_spmv_view_build( src, 0, &s->view );
	if ( st == HYB_OK ) st = hyb_spmv_df_build( &s->view, 0, &s->df );
	if ( st == HYB_OK && diags ) st = hyb_spmv_diags_build( &s->view, 0, 0, 0, &s->diags );
	if ( st != HYB_OK )
	{
		hyb_stats_free( s );
		return st;
	}
	s->st = ( hyb_spmv_stats_t ){
		.m         = src->m,
		.nnz       = s->view.nnz,
		.prec      = src->prec,
		.max_len   = s->view.max_len,
		.df        = s->df,
		.ndiag     = s->diags.ndiag,
		.diag_occ  = s->diags.occ,
		.diag_rest = s->diags.rest_nnz,
		.grouped   = s->view.own_col == NULL,
	};
	return HYB_OK;
}

/* What a call knows of a matrix without a pass over it: every row of about the mean length
   (rem rows of qlen + 1 entries, the rest qlen), grouped unless a transposed CSR. 0 when the
   mean row is too long for a distribution function worth allocating, or no memory; *df is
   the caller's to free. */
static int hyb_quick_stats( const hyb_spmv_src_t* src, hyb_spmv_stats_t* q, int64_t** df )
{
	int64_t qlen = src->nnz / src->m, rem = src->nnz % src->m;
	*df = qlen < 100000 ? calloc( (size_t)( qlen + 2 ), sizeof( int64_t ) ) : NULL;
	if ( !*df ) return 0;
	( *df )[qlen] += src->m - rem;
	( *df )[qlen + 1] += rem;
	*q = ( hyb_spmv_stats_t ){ .m       = src->m,
		                       .nnz     = src->nnz,
		                       .prec    = src->prec,
		                       .max_len = rem ? qlen + 1 : qlen,
		                       .df      = *df,
		                       .grouped = !( src->layout == HYB_SPMV_CSR && src->trans ) };
	return 1;
}

/* ------------------------------------------------------------ planning */

static int64_t hyb_block_rows( const hyb_spmv_force_t* f, int64_t m, size_t vb, int64_t band )
{
	if ( f->active && f->block_rows > 0 ) return f->block_rows;
	if ( m * (int64_t)vb <= HYB_SPMV_ONE_BLOCK ) return m;
	int64_t br  = HYB_SPMV_BLOCK_BYTES / (int64_t)vb;
	int64_t min = ( m + HYB_SPMV_MAX_BLOCKS - 1 ) / HYB_SPMV_MAX_BLOCKS;
	if ( br < min ) br = min;
	if ( br < 8 * band ) br = 8 * band; /* DIA: the widened rows stay a small part */
	return br;
}

/* Device matrix layout for a plan. */
static hyb_status_t hyb_dm_for_plan( const hyb_sd_stats_t* s, const hyb_spmv_plan_t* p,
                                     const hyb_spmv_force_t* f, hyb_spmv_dmat_t* dm )
{
	const hyb_spmv_view_t* v  = &s->view;
	size_t                 vb = hyb_prec_size( s->st.prec );
	int64_t                m  = v->m;
	switch ( p->run )
	{
	case HYB_SPMV_RUN_ROWSPLIT:
	{
		/* the first rows holding the device's share of the entries */
		double  want = p->row_share * (double)v->nnz;
		int64_t lo = 1, hi = m - 1;
		while ( lo < hi )
		{
			int64_t mid = lo + ( hi - lo ) / 2;
			if ( (double)( v->ptr[mid] - v->ptr[0] ) < want )
				lo = mid + 1;
			else
				hi = mid;
		}
		int64_t rows = m > 1 ? lo : 1;
		return hyb_spmv_dmat_plan( v, HYB_SPMV_DEV_CSR, 0, NULL, rows,
		                           hyb_block_rows( f, rows, vb, 0 ), 0, dm );
	}
	case HYB_SPMV_RUN_GPU:
	case HYB_SPMV_RUN_HYBRID:
		if ( p->fmt == HYB_SPMV_DEV_CSR )
			return hyb_spmv_dmat_plan( v, HYB_SPMV_DEV_CSR, 0, NULL, m,
			                           hyb_block_rows( f, m, vb, 0 ), 0, dm );
		if ( p->fmt == HYB_SPMV_DEV_ELL )
			return hyb_spmv_dmat_plan( v, HYB_SPMV_DEV_ELL, p->K, NULL, m,
			                           hyb_block_rows( f, m, vb, 0 ), 0, dm );
		if ( p->fmt == HYB_SPMV_DEV_DIA && p->K <= s->diags.ndiag )
		{
			int64_t band = 0;
			for ( int64_t d = 0; d < p->K; d++ )
			{
				int64_t o =
				    s->diags.offset[d] < 0 ? -(int64_t)s->diags.offset[d] : s->diags.offset[d];
				band = o > band ? o : band;
			}
			return hyb_spmv_dmat_plan( v, HYB_SPMV_DEV_DIA, p->K, s->diags.offset, m,
			                           hyb_block_rows( f, m, vb, band ), 0, dm );
		}
		return HYB_E_INVALID;
	default:
		return HYB_E_INVALID;
	}
}

/* Plan options for this call: the forced ones, minus the CPU in mode gpu, minus the row
   split where the source is not grouped by rows (its CPU rows would need a copy). */
static hyb_spmv_plan_opts_t hyb_opts( const hyb_spmv_force_t* f, hyb_mode_t mode, int grouped )
{
	hyb_spmv_plan_opts_t o   = f->active ? f->opts : ( hyb_spmv_plan_opts_t ){ 0 };
	unsigned             all = ( 1u << HYB_SPMV_RUN_CPU ) | ( 1u << HYB_SPMV_RUN_GPU ) |
	               ( 1u << HYB_SPMV_RUN_HYBRID ) | ( 1u << HYB_SPMV_RUN_ROWSPLIT );
	if ( o.allow_runs == 0 ) o.allow_runs = all;
	if ( mode == HYB_MODE_GPU ) o.allow_runs &= ~( 1u << HYB_SPMV_RUN_CPU );
	if ( !grouped ) o.allow_runs &= ~( 1u << HYB_SPMV_RUN_ROWSPLIT );
	if ( o.allow_runs == 0 ) o.allow_runs = 1u << HYB_SPMV_RUN_GPU;
	if ( o.force && o.run == HYB_SPMV_RUN_ROWSPLIT && !grouped )
		o.force = 0; /* cannot: plan freely */
	return o;
}

/* The rates a steady-state plan is made with: y registered where it will be, half the
   device budget for resident copies. */
static void hyb_steady_rates( const hyb_spmv_src_t* src, hyb_spmv_rates_t* r )
{
	int64_t         vb = (int64_t)hyb_prec_size( src->prec );
	hyb_spmv_xfer_t xf = { .y_registered = vb * src->m >= (int64_t)HYB_SPMV_YREG_MIN,
		                   .pipelined    = vb * src->m > HYB_SPMV_ONE_BLOCK };
	hyb_spmv_rates_get( &xf, r );
	r->gpu_mem = 0.5 * hyb_dev_budget( HYB_SPMV_DEV );
}

/* A hit costs its change check (hashing the arrays in verify mode): a device plan of nnz
   entries that the CPU may replace keeps the CPU if the device's advantage does not pay
   for it. */
static void hyb_plan_pays_check( hyb_spmv_plan_t* p, const hyb_spmv_plan_opts_t* o,
                                 const hyb_spmv_rates_t* r, int64_t nnz, hyb_prec_t prec )
{
	if ( p->run == HYB_SPMV_RUN_CPU || o->force || !( o->allow_runs & ( 1u << HYB_SPMV_RUN_CPU ) ) )
		return;
	double bytes = (double)nnz * (double)( hyb_prec_size( prec ) + 8 );
	if ( !hyb_policy_spmv_pays_check( p, bytes * atomic_load( &hyb_sd.check_spb ), r->margin ) )
		p->run = HYB_SPMV_RUN_CPU;
}

static void hyb_report_plan( hyb_spmv_report_t* rep, const hyb_spmv_plan_t* p,
                             hyb_spmv_phase_t phase )
{
	rep->run    = p->run;
	rep->fmt    = p->fmt;
	rep->K      = p->K;
	rep->K_alg3 = p->K_alg3;
	rep->share  = p->run == HYB_SPMV_RUN_ROWSPLIT ? p->row_share : 0.0;
	rep->phase  = phase;
	rep->t_cpu  = p->t_cpu;
	rep->t_gpu  = p->t_gpu;
	rep->t_pred = p->t_plan;
}

/* ------------------------------------------------------------ running */

/* Eight threads: fifteen copied the stencil's x no faster (docs/spmv.md, "Moving x and y"),
   although the bus probe moves more with fifteen; the chunked copy is not bound by its
   threads' bandwidth. */
static int hyb_copy_threads( void )
{
	int64_t c = hyb_config()->copy_threads;
	if ( c > 0 ) return (int)c;
	int n = omp_get_num_procs();
	return n < 8 ? n : 8;
}

/* After a device error: a real device failure also disables the devices and drops the
   cached copies (their memory went with the device); injected faults and refused
   allocations do not. */
static void hyb_after_error( const hyb_call_t* call, hyb_status_t st )
{
	hyb_log_once(
	    hyb_hash_str( hyb_routine_info[call->id].name, 0x73706476u ^ (uint64_t)(int64_t)st ),
	    HYB_LOG_WARN, "warning: %s: device failed (%s); the product was computed on the CPU",
	    hyb_routine_info[call->id].name, hyb_status_string( st ) );
	if ( st == HYB_E_DEVICE )
	{
		hyb_devices_disable( hyb_status_string( st ) );
		hyb_lock( HYB_LOCK_SPMV_DEVICE );
		hyb_residency_cache_t* c = hyb_sd.cache;
		hyb_unlock( HYB_LOCK_SPMV_DEVICE );
		if ( c ) hyb_residency_cache_clear( c );
	}
}

static hyb_path_t hyb_run_path( const hyb_spmv_plan_t* p )
{
	return p->run == HYB_SPMV_RUN_GPU ? HYB_PATH_GPU : HYB_PATH_SPLIT;
}

/* The source's column and value arrays the grouped view reads (row split CPU rows). */
static void hyb_src_rows( const hyb_spmv_args_t* a, const int** col, const void** val )
{
	*val = a->val;
	if ( a->op == HYB_OP_CSRMV )
		*col = a->colind;
	else
		*col = hyb_spmv_trans_flag( a->transa ) ? a->rowind : a->colind;
}

static void hyb_pipe_in( hyb_spmv_pipe_in_t* in, hyb_spmv_dmat_t* dm, const hyb_spmv_args_t* a,
                         const hyb_spmv_force_t* f )
{
	memset( in, 0, sizeof *in );
	in->dm = dm;
	in->x  = a->x;
	in->y  = a->y;
	hyb_src_rows( a, &in->src_col, &in->src_val );
	/* The vectors from and into registered pages: from their second call (auto), at once
	   (register) or never (copy), unless a test forces it. */
	const int staging = (int)hyb_config()->staging;
	const int reg     = staging == HYB_STAGING_COPY ? 0 : staging == HYB_STAGING_REGISTER ? 2 : 1;
	in->yreg          = f->active && f->yreg >= 0 ? f->yreg : reg;
	in->xreg          = f->active && f->xreg >= 0 ? f->xreg : reg;
	in->copy_threads  = hyb_copy_threads();
	in->dev           = HYB_SPMV_DEV;
	in->timing        = 1; /* the span refits the model: one more event, a few us */
	in->chunk_bytes   = f->active ? f->x_chunk : 0;
}

/* A transient run: the first-call plan; the matrix goes into the call's workspace. */
static hyb_path_t hyb_run_transient( const hyb_call_t* call, const hyb_spmv_args_t* a,
                                     const hyb_spmv_src_t* src, hyb_mode_t mode,
                                     const hyb_spmv_force_t* f, hyb_spmv_report_t* rep )
{
	hyb_spmv_rates_t r;
	hyb_spmv_xfer_t  xf = { .y_registered = 0,
		                    .pipelined =
		                        (int64_t)hyb_prec_size( src->prec ) * src->m > HYB_SPMV_ONE_BLOCK };
	hyb_spmv_rates_get( &xf, &r );
	r.gpu_mem = 0.9 * hyb_dev_budget( HYB_SPMV_DEV );
	/* Quick test first: with every row at the mean length and no conversion beyond
	   grouping, does any device run beat the CPU on a first call? If not, skip the pass. */
	hyb_spmv_plan_opts_t o = hyb_opts( f, mode, 1 );
	if ( !o.force && ( o.allow_runs & ( 1u << HYB_SPMV_RUN_CPU ) ) )
	{
		hyb_spmv_stats_t q;
		int64_t*         df = NULL;
		if ( hyb_quick_stats( src, &q, &df ) )
		{
			hyb_spmv_plan_t qp;
			/* The statistics pass this test spares comes before any device run (measured: a
			   first sighting of the stencil predicted 21 ms, paid 22 ms of statistics). */
			double t_stats = r.stats_rate > 0 ? (double)src->nnz / r.stats_rate : 0.0;
			int    keep =
			    hyb_policy_spmv_plan_opts( &q, &r, HYB_SPMV_FIRST_CALL, &o, &qp ) == HYB_OK &&
			    ( qp.run == HYB_SPMV_RUN_CPU ||
			      qp.t_plan + t_stats >= qp.t_cpu * ( 1.0 - r.margin ) );
			free( df );
			if ( keep )
			{
				hyb_report_plan( rep, &qp, HYB_SPMV_FIRST_CALL );
				rep->why =
				    "first call: statistics, converting and uploading cost more than the product";
				return HYB_PATH_CPU;
			}
		}
	}
	double         t0 = hyb_now();
	hyb_sd_stats_t s;
	int            want_diags = f->active && ( f->opts.fmt == HYB_SPMV_DEV_DIA ||
                                    f->opts.allow_fmts == ( 1u << HYB_SPMV_DEV_DIA ) );
	if ( hyb_stats_build( src, want_diags, &s ) != HYB_OK )
	{
		rep->why = "statistics failed (bad index or no memory)";
		return HYB_PATH_CPU;
	}
	rep->stats_s = hyb_now() - t0;
	o            = hyb_opts( f, mode, s.st.grouped );
	hyb_spmv_plan_t p;
	if ( hyb_policy_spmv_plan_opts( &s.st, &r, HYB_SPMV_FIRST_CALL, &o, &p ) != HYB_OK )
	{
		p.run = HYB_SPMV_RUN_CPU;
		p.fmt = HYB_SPMV_DEV_NONE;
	}
	if ( p.run == HYB_SPMV_RUN_CPU )
	{
		hyb_report_plan( rep, &p, HYB_SPMV_FIRST_CALL );
		rep->why = "first call: the model keeps the CPU";
		hyb_stats_free( &s );
		return HYB_PATH_CPU;
	}
	hyb_report_plan( rep, &p, HYB_SPMV_FIRST_CALL );
	hyb_spmv_dmat_t dm;
	if ( hyb_dm_for_plan( &s, &p, f, &dm ) != HYB_OK )
	{
		rep->why = "device layout failed";
		hyb_stats_free( &s );
		return HYB_PATH_CPU;
	}
	hyb_spmv_pipe_in_t in;
	hyb_pipe_in( &in, &dm, a, f );
	in.upload       = 1;
	in.view         = &s.view;
	hyb_status_t st = hyb_spmv_pipe_run( &in, &rep->pipe );
	hyb_spmv_dmat_free( &dm );
	hyb_stats_free( &s );
	rep->why = "first call, not kept on the device";
	if ( st != HYB_OK )
	{
		rep->error = st;
		hyb_after_error( call, st );
		return HYB_PATH_FALLBACK;
	}
	return hyb_run_path( &p );
}

/* A first call the cache keeps: steady-state plan, build, upload, run, fill. */
static hyb_path_t hyb_run_fill( const hyb_call_t* call, const hyb_spmv_args_t* a,
                                const hyb_spmv_src_t* src, hyb_mode_t mode,
                                const hyb_spmv_force_t* f, hyb_residency_cache_t* cache,
                                hyb_residency_entry_t* ent, uint64_t memo_h,
                                hyb_spmv_report_t* rep )
{
	double         t0 = hyb_now();
	hyb_sd_stats_t s;
	if ( hyb_stats_build( src, 1, &s ) != HYB_OK )
	{
		hyb_residency_cache_release( cache, ent );
		rep->why = "statistics failed (bad index or no memory)";
		return HYB_PATH_CPU;
	}
	rep->stats_s = hyb_now() - t0;
	hyb_spmv_rates_t r;
	hyb_steady_rates( src, &r );
	hyb_spmv_plan_opts_t o   = hyb_opts( f, mode, s.st.grouped );
	hyb_spmv_res_t*      res = calloc( 1, sizeof *res );
	hyb_status_t st = res ? hyb_policy_spmv_plan_opts( &s.st, &r, HYB_SPMV_STEADY, &o, &res->plan )
	                      : HYB_E_NO_MEMORY;
	if ( st == HYB_OK ) hyb_plan_pays_check( &res->plan, &o, &r, s.view.nnz, src->prec );
	if ( st != HYB_OK || res->plan.run == HYB_SPMV_RUN_CPU )
	{
		if ( res )
		{
			res->plan.run = HYB_SPMV_RUN_CPU;
			res->plan.fmt = HYB_SPMV_DEV_NONE;
			hyb_report_plan( rep, &res->plan, HYB_SPMV_STEADY );
		}
		hyb_stats_free( &s );
		free( res );
		hyb_residency_cache_release( cache, ent );
		if ( st == HYB_OK ) hyb_memo_verdict( memo_h, HYB_VERDICT_CPU );
		rep->why = "the steady-state model keeps the CPU";
		return HYB_PATH_CPU;
	}
	hyb_report_plan( rep, &res->plan, HYB_SPMV_FIRST_CALL );
	rep->filled = 1;
	st          = hyb_dm_for_plan( &s, &res->plan, f, &res->dm );
	if ( st == HYB_OK ) st = hyb_res_reserve( res, res->dm.bytes );
	if ( st != HYB_OK )
	{
		hyb_res_free( res, NULL );
		hyb_stats_free( &s );
		hyb_residency_cache_release( cache, ent );
		rep->why   = "no device memory for the matrix";
		rep->error = st;
		return HYB_PATH_CPU;
	}
	hyb_spmv_pipe_in_t in;
	hyb_pipe_in( &in, &res->dm, a, f );
	in.dmem   = res->dmem;
	in.upload = 1;
	in.view   = &s.view;
	st        = hyb_spmv_pipe_run( &in, &rep->pipe );
	hyb_stats_free( &s );
	if ( st != HYB_OK )
	{
		hyb_res_free( res, NULL );
		hyb_residency_cache_release( cache, ent );
		rep->error = st;
		rep->why   = "first call failed on the device";
		hyb_after_error( call, st );
		return HYB_PATH_FALLBACK;
	}
	uint64_t   bytes = (uint64_t)res->dm.bytes + (uint64_t)hyb_spmv_dmat_host_bytes( &res->dm );
	hyb_path_t path  = hyb_run_path( &res->plan );
	/* From here the cache owns the payload (or destroys it at release if it cannot keep it). */
	if ( hyb_residency_cache_fill( cache, ent, res, bytes, hyb_res_free, NULL ) == HYB_E_INVALID )
		hyb_res_free( res, NULL );
	hyb_residency_cache_release( cache, ent );
	rep->why = "first call: converted, uploaded and kept";
	return path;
}

/* Refit the model from a steady call, term by term as hyb_policy_spmv.c predicts it: the
   device scale from the device span; the host cost of a device call from what the call
   took beyond its overlapped middle (the span or the CPU side, whichever ended last) and
   the y copy after it; the remainder's bandwidth from a CPU side that ran on a team (its
   parallel region's start taken off, the model's bytes). A first call is not refitted:
   its CPU side shares the bus with the upload. */
static void hyb_refit_steady( const hyb_spmv_res_t* res, const hyb_spmv_pipe_out_t* o )
{
	if ( !( o->dev_s > 0 ) ) return;
	hyb_spmv_rates_refit_gpu( res->plan.span_kind, res->plan.span_scale, res->plan.t_span,
	                          o->dev_s );
	double host = o->seconds - o->ycopy_s - fmax( o->dev_s, o->cpu_end_s );
	hyb_spmv_rates_refit_call( host > 0 ? host : 0.0 );
	const hyb_spmv_dmat_t* dm = &res->dm;
	if ( dm->rem_nnz <= 0 ) return;
	hyb_spmv_rates_t r;
	hyb_spmv_rates_get( NULL, &r );
	double bytes = hyb_policy_spmv_coo_refit_bytes( &r, dm->prec, dm->rem_nnz, dm->nrun );
	if ( bytes > 0 ) hyb_spmv_rates_refit_coo( bytes, o->cpu_s - r.cpu_call_s );
}

/* Refit the cost of a hit's change check, per byte of the arrays. */
static void hyb_sd_refit_check( double seconds, double bytes )
{
	if ( !( bytes > 0 ) ) return;
	double spb = seconds / bytes, old = atomic_load( &hyb_sd.check_spb );
	atomic_store( &hyb_sd.check_spb, old > 0 ? old + 0.25 * ( spb - old ) : spb );
}

/* A resident copy whose change check runs beside its product: part 0 is the product (the
   caller's thread), part 1 the check (the check thread). */
typedef struct
{
	hyb_residency_cache_t* cache;
	hyb_residency_entry_t* ent;
	hyb_spmv_pipe_in_t*    in; /* its `beside` set by hyb_hit_run */
	hyb_spmv_pipe_out_t*   out;
	hyb_status_t           st;
	int                    unchanged;
	double                 check_s;
	hyb_team_t*            scan; /* the check's walk on these threads too (NULL: none) */
} hyb_hit_job_t;

static void hyb_hit_part( void* arg, int64_t b, int64_t e )
{
	hyb_hit_job_t* j = arg;
	for ( int64_t i = b; i < e; i++ )
		if ( i == 0 )
			j->st = hyb_spmv_pipe_run( j->in, j->out );
		else
		{
			double t0    = hyb_now();
			j->unchanged = hyb_residency_cache_confirm_on( j->cache, j->ent, j->scan );
			j->check_s   = hyb_now() - t0;
		}
}

/* The check thread: one call at a time uses it (taking `busy`, a token nobody waits for,
   so fork() needs nothing of it); the others check first, then run. */
static struct
{
	atomic_flag busy;
	hyb_team_t* team; /* owned by the holder of busy */
	hyb_team_t* scan; /* the check thread's helpers, likewise */
	int         made; /* the teams were made (their threads may have failed) */
} hyb_hc = { .busy = ATOMIC_FLAG_INIT };

/* fork() child hook: the check's threads did not survive; the child makes its own. */
static void hyb_hc_fork_child( void )
{
	hyb_hc.team = hyb_hc.scan = NULL; /* leaked on purpose: their threads are gone */
	hyb_hc.made               = 0;
	atomic_flag_clear( &hyb_hc.busy );
}

/* Threads of a hit's change check, the check thread's included: the walk of a large
   matrix's pages takes 1-2 ms on one core, longer than a resident product of single
   precision, which then waits for it. A fifth of the cores, at most four: the rest go to
   the product's fingerprints (hyb_hit_run counts those made as the threads beside it). */
static int hyb_hc_threads( void )
{
	int n = omp_get_num_procs() / 5;
	return n < 1 ? 1 : n > 4 ? 4 : n;
}

static void hyb_hit_run( hyb_hit_job_t* j )
{
	if ( !atomic_flag_test_and_set( &hyb_hc.busy ) )
	{
		if ( !hyb_hc.made )
		{
			hyb_hc.team = hyb_team_create( 1 );
			int helpers = hyb_hc_threads() - 1;
			hyb_hc.scan = helpers > 0 ? hyb_team_create( helpers ) : NULL;
			hyb_hc.made = 1;
			hyb_state_on_fork_child( HYB_LOCK_SPMV_DEVICE, hyb_hc_fork_child );
		}
		j->scan = hyb_hc.scan;
		/* the check thread and its helpers, where they could be made; without the check
		   thread both parts run one after the other on this one */
		j->in->beside = hyb_hc.team ? hyb_team_size( hyb_hc.scan ) : 0;
		hyb_team_run( hyb_hc.team, 2, hyb_hit_part, j ); /* serially if there is no thread */
		atomic_flag_clear( &hyb_hc.busy );
		return;
	}
	j->scan       = NULL;
	j->in->beside = 0;
	hyb_hit_part( j, 1, 2 );
	if ( j->unchanged ) hyb_hit_part( j, 0, 1 );
}

/* A resident copy: the steady-state run. With `unchecked` (an entry from
   acquire_unchecked) its change check runs beside the product; if the arrays changed, the
   product's y is not used: *stale is set, the entry released, and the caller starts over. */
static hyb_path_t hyb_run_hit( const hyb_call_t* call, const hyb_spmv_args_t* a,
                               const hyb_spmv_force_t* f, hyb_residency_cache_t* cache,
                               hyb_residency_entry_t* ent, int unchecked, double check_bytes,
                               int* stale, hyb_spmv_report_t* rep )
{
	hyb_spmv_res_t* res = hyb_residency_entry_payload( ent );
	/* the check beside the product; a CPU plan has no product to overlap */
	int beside = unchecked && res->plan.run != HYB_SPMV_RUN_CPU;
	*stale     = 0;
	if ( unchecked && !beside )
	{
		double t0 = hyb_now();
		if ( !hyb_residency_cache_confirm( cache, ent ) )
		{
			hyb_residency_cache_release( cache, ent );
			*stale = 1;
			return HYB_PATH_CPU;
		}
		rep->check_s = hyb_now() - t0;
		hyb_sd_refit_check( rep->check_s, check_bytes );
	}
	if ( !beside ) rep->cache = HYB_RESIDENCY_HIT;
	hyb_report_plan( rep, &res->plan, HYB_SPMV_STEADY );
	if ( res->plan.run == HYB_SPMV_RUN_CPU )
	{
		hyb_residency_cache_release( cache, ent );
		rep->why = "the steady-state model keeps the CPU";
		return HYB_PATH_CPU;
	}
	hyb_spmv_pipe_in_t in;
	hyb_pipe_in( &in, &res->dm, a, f );
	in.dmem         = res->dmem;
	hyb_status_t st = HYB_OK;
	if ( beside )
	{
		hyb_hit_job_t j = {
			.cache = cache, .ent = ent, .in = &in, .out = &rep->pipe, .unchanged = 0
		};
		hyb_hit_run( &j );
		if ( !j.unchanged )
		{
			hyb_residency_cache_release( cache, ent );
			memset( &rep->pipe, 0, sizeof rep->pipe );
			*stale = 1;
			return HYB_PATH_CPU;
		}
		rep->cache   = HYB_RESIDENCY_HIT;
		rep->check_s = j.check_s;
		hyb_sd_refit_check( j.check_s, check_bytes );
		st = j.st;
	}
	else
		st = hyb_spmv_pipe_run( &in, &rep->pipe );
	if ( st != HYB_OK )
	{
		hyb_residency_cache_release( cache, ent );
		rep->error = st;
		rep->why   = "steady state failed on the device";
		hyb_after_error( call, st );
		return HYB_PATH_FALLBACK;
	}
	/* a call that ran its blocks twice (x's proof failed) is not a sample of the steady state */
	if ( !rep->pipe.x_proof_failed ) hyb_refit_steady( res, &rep->pipe );
	hyb_path_t path = hyb_run_path( &res->plan );
	hyb_residency_cache_release( cache, ent );
	rep->why = "resident";
	return path;
}

/* ------------------------------------------------------------ background fill */

/* A fill built on the helper thread (dispatch/hyb_spmv_bg.h) while the calls run on the
   CPU. The call that starts it returns at once; from then on the application may change,
   free or unmap its arrays, so the helper reads them only through process_vm_readv, which
   reports a missing page instead of faulting. The helper arms the entry's watch before it
   reads (the call leaves it unarmed): a change made at any time after is caught by the check
   of the call that first uses the copy, on the pages the kernel tracks; on the bytes the
   watch hashes, the snapshot job compares what it read with what the arm hashed.
   Two kinds of job. The lean one (CSR input, or COO grouped by rows, that a device CSR
   copy can serve as it is) reads the arrays in pieces straight into page-locked slots,
   uploads each piece as read and checks the copy on the device (COO: its row pointers
   built there; kernels/pipeline/hyb_spmv_copy.h), on one thread, planned from the mean row
   length. The other reads them into a snapshot of its own, then runs the statistics, the
   plan, the conversion and the upload of a first call, with a discarded product. */
typedef struct
{
	hyb_call_t             call;
	hyb_spmv_args_t        a; /* the arguments, reading the snapshot and the scratch vectors */
	hyb_mode_t             mode;
	hyb_spmv_force_t       f;
	hyb_residency_cache_t* cache;
	hyb_residency_entry_t* ent;
	uint64_t               mh;
	const void*            from[3]; /* the application's arrays: values, rows (or ia), columns */
	size_t                 off[3];  /* bytes before the part read (CSR: entries before ia[0]) */
	size_t                 len[3];  /* bytes read */
	void*                  snap[3];
	void*                  x; /* zeros: the fill's own product is computed and dropped */
	void*                  y;
	/* The lean job: its plan (the payload to be), CSR: ia[0] as the call read it, the rows
	   per device block. */
	hyb_spmv_res_t* lean;
	int             first;
	int64_t         block_rows;
	int             readers; /* threads reading the lean job's pieces */
} hyb_bg_job_t;

static void hyb_bg_job_free( hyb_bg_job_t* j )
{
	for ( int i = 0; i < 3; i++ ) free( j->snap[i] );
	free( j->x );
	free( j->y );
	if ( j->lean ) hyb_res_free( j->lean, NULL );
	free( j );
}

/* Copy `bytes` of this process's memory at src into dst (hyb_self_read); 0 where a page is
   missing (or the system refuses the read, or the library is being unloaded), never a
   fault. */
static int hyb_bg_read( void* dst, const void* src, size_t bytes )
{
	for ( size_t done = 0; done < bytes; )
	{
		/* in pieces, so that unloading the library waits for one piece, not the matrix */
		size_t piece = bytes - done < ( (size_t)64 << 20 ) ? bytes - done : (size_t)64 << 20;
		if ( hyb_spmv_bg_quitting() ) return 0;
		hyb_status_t st =
		    hyb_self_read( (char*)dst + done, (const void*)( (uintptr_t)src + done ), piece );
		if ( st == HYB_E_NOT_SUPPORTED ) atomic_store( &hyb_sd.cannot_read, 1 );
		if ( st != HYB_OK ) return 0;
		done += piece;
	}
	return 1;
}

/* The plan of a copy's DIA form: the steady-state plan of the call's quick statistics with
   the copy's diagonals as the device counted them, the device alone, CSR or DIA: the rule of
   the snapshot job's plan (DIA only when every entry lies on at most HYB_SPMV_DIA_MAX
   diagonals within HYB_SPMV_DIA_SPAN, and only where the model prefers its m * ndiag slots to
   the CSR copy). 1 when DIA wins (its plan in *plan). */
static int hyb_dia_plan( const hyb_bg_job_t* j, const hyb_spmv_dmat_t* copy,
                         const hyb_spmv_diags_t* dg, hyb_spmv_plan_t* plan )
{
	const unsigned       dia = 1u << HYB_SPMV_DEV_DIA;
	hyb_spmv_plan_opts_t o   = hyb_opts( &j->f, j->mode, 1 );
	if ( ( o.allow_fmts && !( o.allow_fmts & dia ) ) ||
	     ( o.force && o.fmt != HYB_SPMV_DEV_NONE && o.fmt != HYB_SPMV_DEV_DIA ) || dg->ndiag == 0 ||
	     dg->rest_nnz > 0 )
		return 0;
	o.allow_fmts             = dia | ( 1u << HYB_SPMV_DEV_CSR );
	o.allow_runs             = 1u << HYB_SPMV_RUN_GPU;
	o.run                    = HYB_SPMV_RUN_GPU;
	const hyb_spmv_src_t src = {
		.layout = HYB_SPMV_CSR, .prec = copy->prec, .m = copy->m, .nnz = copy->dev_nnz
	};
	hyb_spmv_rates_t r;
	hyb_steady_rates( &src, &r );
	hyb_spmv_stats_t q;
	int64_t*         df = NULL;
	int              ok = hyb_quick_stats( &src, &q, &df );
	q.ndiag             = dg->ndiag;
	q.diag_occ          = dg->occ;
	q.diag_rest         = dg->rest_nnz;
	ok = ok && hyb_policy_spmv_plan_opts( &q, &r, HYB_SPMV_STEADY, &o, plan ) == HYB_OK &&
	     plan->run == HYB_SPMV_RUN_GPU && plan->fmt == HYB_SPMV_DEV_DIA && plan->K == dg->ndiag;
	free( df );
	return ok;
}

/* The lean job's checked copy *res turned into DIA on the device where hyb_dia_plan says DIA
   wins: the diagonals counted, the DIA matrix written from the copy into memory of its own,
   then the copy freed and *res the DIA payload. Where DIA does not win, does not fit beside
   the copy, or any step fails, *res stays the copy, which is right as it is. HYB_OK, or
   HYB_E_DEVICE when the device failed (the copy is not to be used). */
static hyb_status_t hyb_lean_to_dia( const hyb_bg_job_t* j, hyb_spmv_res_t** res )
{
	hyb_spmv_res_t* csr = *res;
	if ( !hyb_devices_spmv_todia_supported() ) return HYB_OK;
	hyb_spmv_diags_t dg;
	hyb_spmv_res_t*  dia = NULL;
	hyb_status_t     st  = hyb_spmv_todia_count( csr->mem, &csr->dm, csr->dmem, &dg );
	if ( st == HYB_OK && ( dia = calloc( 1, sizeof *dia ) ) != NULL &&
	     hyb_dia_plan( j, &csr->dm, &dg, &dia->plan ) )
	{
		int64_t band = 0;
		for ( int64_t d = 0; d < dg.ndiag; d++ )
			band = llabs( dg.offset[d] ) > band ? llabs( dg.offset[d] ) : band;
		const size_t vb = hyb_prec_size( csr->dm.prec );
		st = hyb_spmv_dmat_plan_dia( csr->dm.m, csr->dm.dev_nnz, csr->dm.prec, dg.ndiag, dg.offset,
		                             hyb_block_rows( &j->f, csr->dm.m, vb, band ), &dia->dm );
		if ( st == HYB_OK ) st = hyb_res_reserve( dia, dia->dm.bytes );
		if ( st == HYB_OK )
			st = hyb_spmv_todia_write( csr->mem, &csr->dm, csr->dmem, &dia->dm, dia->dmem );
		if ( st == HYB_OK )
			HYB_LOG( HYB_LOG_INFO,
			         "SpMV: the background copy turned into DIA on the device: %lld diagonals, "
			         "%.1f MB instead of %.1f MB",
			         (long long)dg.ndiag, (double)dia->dm.bytes * 1e-6,
			         (double)csr->dm.bytes * 1e-6 );
		else
			HYB_LOG( HYB_LOG_INFO, "SpMV: the background copy stays CSR (DIA not built: %s)",
			         hyb_status_string( st ) );
	}
	else if ( dia )
	{
		free( dia );
		dia = NULL;
	}
	hyb_spmv_diags_free( &dg );
	if ( dia && st == HYB_OK )
	{
		hyb_res_free( csr, NULL );
		*res = dia;
		atomic_fetch_add( &hyb_sd.copies[HYB_COPY_DIA], 1 );
		return HYB_OK;
	}
	if ( dia ) hyb_res_free( dia, NULL );
	/* an injected fault, no memory, a count that does not add up: the copy serves */
	return st == HYB_E_DEVICE ? st : HYB_OK;
}

/* The lean job's record of the bytes its watch hashes, kept as the copy read them (the
   copy's array a is the watch's range HYB_LEAN_PART[a]: row pointers, columns, values). */
static const int HYB_LEAN_PART[3] = { 1, 2, 0 };
typedef struct
{
	size_t         head[3], tail_off[3], bytes[3];
	unsigned char* hbuf[3]; /* range i's bytes [0, head) */
	unsigned char* tbuf[3]; /* its bytes [tail_off, bytes) */
} hyb_lean_ends_t;

static void hyb_lean_ends_free( hyb_lean_ends_t* le )
{
	for ( int i = 0; i < 3; i++ )
	{
		free( le->hbuf[i] );
		free( le->tbuf[i] );
	}
}

/* 1 with buffers for every hashed byte of the entry's watch, 0 without (no memory). */
static int hyb_lean_ends_make( hyb_lean_ends_t* le, const hyb_residency_watch_t* w )
{
	memset( le, 0, sizeof *le );
	int ok = w != NULL;
	for ( int i = 0; i < 3 && ok; i++ )
	{
		le->bytes[i] = hyb_residency_watch_ends( w, i, &le->head[i], &le->tail_off[i] );
		if ( le->head[i] > 0 ) ok = ( le->hbuf[i] = malloc( le->head[i] ) ) != NULL;
		if ( ok && le->bytes[i] > le->tail_off[i] )
			ok = ( le->tbuf[i] = malloc( le->bytes[i] - le->tail_off[i] ) ) != NULL;
	}
	if ( !ok ) hyb_lean_ends_free( le );
	return ok;
}

/* The copy's hook: the hashed bytes within a piece, as read. */
static void hyb_lean_seen( void* ctx, int array, size_t at, const void* bytes, size_t len )
{
	hyb_lean_ends_t*     le = ctx;
	const int            i  = HYB_LEAN_PART[array];
	const unsigned char* b  = bytes;
	size_t               e  = at + len;
	if ( at < le->head[i] )
	{
		size_t hi = e < le->head[i] ? e : le->head[i];
		memcpy( le->hbuf[i] + at, b, hi - at );
	}
	if ( e > le->tail_off[i] && le->tbuf[i] )
	{
		size_t lo = at > le->tail_off[i] ? at : le->tail_off[i];
		size_t hi = e < le->bytes[i] ? e : le->bytes[i];
		if ( hi > lo ) memcpy( le->tbuf[i] + ( lo - le->tail_off[i] ), b + ( lo - at ), hi - lo );
	}
}

/* The lean job: the copy of the arrays, made resident once the device check passed. */
static void hyb_bg_fill_lean( hyb_bg_job_t* j )
{
	hyb_spmv_res_t* res = j->lean;
	j->lean             = NULL;
	/* What the watch hashes is compared with the bytes the copy read, not read again: a
	   value changed and changed back while the copy read it would pass a later check. */
	hyb_lean_ends_t le;
	if ( !hyb_lean_ends_make( &le, hyb_residency_cache_watch( j->cache, j->ent ) ) )
	{
		hyb_res_free( res, NULL );
		hyb_residency_cache_release( j->cache, j->ent ); /* a later call fills again */
		return;
	}
	hyb_status_t st = hyb_spmv_dmat_plan_copy( j->a.m, (int64_t)( j->len[2] / sizeof( int ) ),
	                                           j->a.prec, j->a.base, j->block_rows, &res->dm );
	if ( st == HYB_OK ) st = hyb_res_reserve( res, hyb_spmv_copy_dev_bytes( &res->dm ) );
	if ( st == HYB_OK )
	{
		const hyb_spmv_copy_in_t in = {
			.dm       = &res->dm,
			.dmem     = res->dmem,
			.ia       = j->a.op == HYB_OP_CSRMV ? j->from[1] : NULL,
			.row      = j->a.op == HYB_OP_COOMV ? j->from[1] : NULL,
			.ja       = (const void*)( (const char*)j->from[2] + j->off[2] ),
			.val      = (const char*)j->from[0] + j->off[0],
			.first    = j->first,
			.read     = hyb_bg_read,
			.seen     = hyb_lean_seen,
			.seen_ctx = &le,
			.piece    = j->f.copy_piece,
			.readers  = j->readers,
		};
		hyb_spmv_copy_out_t out;
		st = hyb_spmv_copy_run( res->mem, &in, &out );
		if ( st == HYB_OK )
		{
			const void* heads[3] = { le.hbuf[0], le.hbuf[1], le.hbuf[2] };
			const void* tails[3] = { le.tbuf[0], le.tbuf[1], le.tbuf[2] };
			if ( !hyb_residency_watch_matches_ends( hyb_residency_cache_watch( j->cache, j->ent ),
			                                        heads, tails ) )
				st = HYB_E_AGAIN; /* changed while read: not kept, a later call builds again */
		}
		/* rows out of order, all indices in range: a COO not grouped by rows, for good */
		if ( st == HYB_E_INVALID && out.reject == HYB_SPMV_COOPTR_ORDER )
			hyb_memo_ungrouped( j->mh, 1 );
		if ( st == HYB_OK )
			HYB_LOG( HYB_LOG_INFO,
			         "SpMV: background copy of a %s matrix: %.1f MB in %d pieces, %.3f s "
			         "(reading %.3f s on %d threads, waiting for the device %.3f s)",
			         j->a.op == HYB_OP_CSRMV ? "CSR" : "COO", out.bytes_h2d * 1e-6, out.pieces,
			         out.seconds, out.read_s, out.readers, out.wait_s );
		if ( st == HYB_OK ) st = hyb_lean_to_dia( j, &res );
	}
	if ( st == HYB_OK )
	{
		uint64_t bytes = (uint64_t)res->dm.bytes + (uint64_t)hyb_spmv_dmat_host_bytes( &res->dm );
		const hyb_status_t fst =
		    hyb_residency_cache_fill( j->cache, j->ent, res, bytes, hyb_res_free, NULL );
		if ( fst == HYB_E_INVALID ) hyb_res_free( res, NULL ); /* the cache did not take it */
		if ( fst == HYB_OK ) atomic_fetch_add( &hyb_sd.copies[HYB_COPY_KEPT], 1 );
	}
	else
	{
		/* The copy is not used; the matrix stays on the CPU until a later call builds again
		   (a check that failed means the arrays changed since the call that accepted them). */
		hyb_res_free( res, NULL );
		atomic_fetch_add( &hyb_sd.copies[st == HYB_E_INVALID ? HYB_COPY_REJECTED : HYB_COPY_FAILED],
		                  1 );
		HYB_LOG( HYB_LOG_INFO, "SpMV: the background copy of a %s matrix was not kept (%s)",
		         j->a.op == HYB_OP_CSRMV ? "CSR" : "COO",
		         st == HYB_E_INVALID ? "the device check found an invalid index or pointer"
		                             : hyb_status_string( st ) );
		if ( st == HYB_E_DEVICE ) hyb_after_error( &j->call, st );
	}
	hyb_lean_ends_free( &le );
	hyb_residency_cache_release( j->cache, j->ent );
}

static void hyb_bg_fill( void* p )
{
	hyb_bg_job_t* j = p;
	/* The call left the entry unarmed (arming takes tens of microseconds a megabyte): armed
	   here, before the arrays are read, so a write from here on shows; not when the library
	   is being unloaded (an arm by hashing reads the whole matrix). */
	hyb_status_t armed =
	    hyb_spmv_bg_quitting() ? HYB_E_AGAIN : hyb_residency_cache_arm( j->cache, j->ent, 0 );
	if ( armed != HYB_OK )
	{
		/* Said once for each reason (an array unmapped meanwhile, reading refused by a
		   seccomp profile, no memory) and counted in the cache's arm_failures: the products
		   stay right on the CPU, only the device copy waits. A refused read will be refused
		   again: later calls fill their entries themselves. */
		if ( armed == HYB_E_NOT_SUPPORTED ) atomic_store( &hyb_sd.cannot_read, 1 );
		if ( armed != HYB_E_AGAIN )
			hyb_log_once( hyb_hash_str( "spmv background arm", (uint64_t)(int64_t)armed ),
			              HYB_LOG_INFO,
			              "%s: the background build could not watch the matrix for changes "
			              "(%s); dropped, a later call builds again",
			              hyb_routine_info[j->call.id].name, hyb_status_string( armed ) );
		hyb_residency_cache_release( j->cache, j->ent ); /* a later call fills again */
		hyb_bg_job_free( j );
		return;
	}
	if ( j->lean )
	{
		hyb_bg_fill_lean( j );
		hyb_bg_job_free( j );
		return;
	}
	int         ok = 1;
	const void* copies[3];
	for ( int i = 0; i < 3 && ok; i++ )
	{
		char* dst = (char*)j->snap[i] + j->off[i];
		copies[i] = dst;
		ok        = hyb_bg_read( dst, (const char*)j->from[i] + j->off[i], j->len[i] );
	}
	/* The row pointers as read must describe the entries read: the program may have grown
	   or shifted its matrix since the call, and the snapshot holds only what the call's
	   ia[0] and ia[m] spanned. */
	if ( ok && j->a.op == HYB_OP_CSRMV )
	{
		const int* ia = j->snap[1];
		size_t     vb = hyb_prec_size( j->a.prec );
		int64_t    k0 = (int64_t)ia[0] - j->a.base, n = (int64_t)ia[j->a.m] - ia[0];
		ok = k0 >= 0 && n >= 0 && (size_t)k0 * vb == j->off[0] &&
		     (size_t)k0 * sizeof( int ) == j->off[2] && (size_t)n * vb == j->len[0];
	}
	/* What the watch hashed must be what was read (a value changed and changed back while
	   it was read would pass the later checks). */
	if ( ok ) ok = hyb_residency_cache_matches_copy( j->cache, j->ent, copies );
	hyb_spmv_src_t src;
	if ( ok )
		ok = ( j->a.op == HYB_OP_CSRMV
		           ? hyb_spmv_src_csr( j->a.transa, j->a.m, j->a.prec, j->a.val, j->a.rowind,
		                               j->a.colind, j->a.base, &src )
		           : hyb_spmv_src_coo( j->a.transa, j->a.m, j->a.prec, j->a.val, j->a.rowind,
		                               j->a.colind, j->a.nnz, j->a.base, &src ) ) == HYB_OK;
	if ( ok && !hyb_spmv_bg_quitting() )
	{
		hyb_spmv_report_t rep;
		memset( &rep, 0, sizeof rep );
		rep.K_alg3 = -1;
		hyb_run_fill( &j->call, &j->a, &src, j->mode, &j->f, j->cache, j->ent, j->mh, &rep );
	}
	else
		hyb_residency_cache_release( j->cache, j->ent ); /* the next call fills again */
	hyb_bg_job_free( j );
}

/* The plan of a lean job: CSR input read as it is, or COO (not transposed), the device
   alone on a copy of its arrays (CSR the only format), planned from the mean row length,
   which the call knows without a pass over the matrix. NULL where the lean job does not
   apply and the other one runs: a transposed product, a COO whose copy found it not grouped
   by rows, a restriction to other formats, no spmv.check (spmv.cooptr) launcher on the
   backend, or a model that keeps the CPU for the CSR copy (the other job's statistics may
   find a format that pays). A COO seen for the first time is taken as grouped: a copy that
   finds it is not costs one lean job, after which its builds take the other. */
static hyb_spmv_res_t* hyb_lean_plan( const hyb_spmv_src_t* src, const hyb_spmv_force_t* f,
                                      hyb_mode_t mode, uint64_t mh )
{
	int coo = src->layout == HYB_SPMV_COO;
	if ( src->trans || ( f->active && f->no_check_kernel ) ||
	     !hyb_devices_spmv_check_supported( coo ) || ( coo && hyb_memo_ungrouped( mh, 0 ) ) )
		return NULL;
	hyb_spmv_plan_opts_t o = hyb_opts( f, mode, 1 );
	if ( o.allow_fmts && !( o.allow_fmts & ( 1u << HYB_SPMV_DEV_CSR ) ) ) return NULL;
	o.allow_fmts = 1u << HYB_SPMV_DEV_CSR;
	o.allow_runs &= ( 1u << HYB_SPMV_RUN_CPU ) | ( 1u << HYB_SPMV_RUN_GPU );
	if ( !( o.allow_runs & ( 1u << HYB_SPMV_RUN_GPU ) ) ) return NULL;
	hyb_spmv_rates_t r;
	hyb_steady_rates( src, &r );
	hyb_spmv_stats_t q;
	int64_t*         df  = NULL;
	hyb_spmv_res_t*  res = hyb_quick_stats( src, &q, &df ) ? calloc( 1, sizeof *res ) : NULL;
	if ( res && hyb_policy_spmv_plan_opts( &q, &r, HYB_SPMV_STEADY, &o, &res->plan ) == HYB_OK )
		hyb_plan_pays_check( &res->plan, &o, &r, src->nnz, src->prec );
	else if ( res )
		res->plan.run = HYB_SPMV_RUN_CPU;
	free( df );
	if ( res && ( res->plan.run != HYB_SPMV_RUN_GPU || res->plan.fmt != HYB_SPMV_DEV_CSR ) )
	{
		free( res );
		res = NULL;
	}
	return res;
}

/* Threads that read a lean job's pieces: HYB_SPMV_COPY_READERS where the process runs
   enough threads that the CPU products keep most of them, else one. */
static int hyb_copy_readers( const hyb_spmv_force_t* f )
{
	if ( f->active && f->copy_readers > 0 ) return f->copy_readers;
	return omp_get_max_threads() >= HYB_SPMV_COPY_READERS_CORES ? HYB_SPMV_COPY_READERS : 1;
}

/* Prepare the fill of entry `ent` for the helper thread; the job starts when the call's CPU
   product accepted the arguments (hyb_spmv_device_bg_after_cpu). 1: prepared in *out (the
   job owns the entry); 0: the caller still holds the entry and fills it itself (no snapshot
   memory, or the system refuses, or once refused, to read this process's memory); -1: the
   helper is busy with another matrix (the caller still holds the entry). */
static int hyb_bg_start( const hyb_call_t* call, const hyb_spmv_args_t* a, hyb_mode_t mode,
                         const hyb_spmv_force_t* f, hyb_residency_cache_t* cache,
                         hyb_residency_entry_t* ent, uint64_t mh, const hyb_spmv_src_t* src,
                         void** out )
{
	if ( !hyb_spmv_bg_idle() ) return -1;
	int probe;
	if ( atomic_load( &hyb_sd.cannot_read ) || !hyb_bg_read( &probe, a->rowind, sizeof probe ) )
		return 0;
	size_t          vb   = hyb_prec_size( a->prec );
	hyb_spmv_res_t* lean = hyb_lean_plan( src, f, mode, mh );
	/* The snapshot doubles the matrix in host memory for the build's time: only where half
	   the free memory holds it (else the call builds from the arrays themselves). */
	double need  = (double)src->nnz * (double)( vb + 8 ) + (double)src->m * (double)( 2 * vb + 4 );
	double avail = (double)sysconf( _SC_AVPHYS_PAGES ) * (double)sysconf( _SC_PAGESIZE );
	if ( !lean && avail > 0 && need > 0.5 * avail ) return 0;
	hyb_bg_job_t* j = calloc( 1, sizeof *j );
	if ( !j )
	{
		if ( lean ) hyb_res_free( lean, NULL );
		return 0;
	}
	j->call     = *call;
	j->a        = *a;
	j->mode     = mode;
	j->f        = *f;
	j->f.active = 1;
	j->f.yreg   = 0; /* the scratch vectors are not the application's: register nothing */
	j->f.xreg   = 0;
	j->cache    = cache;
	j->ent      = ent;
	j->mh       = mh;
	j->from[0]  = a->val;
	j->from[1]  = a->rowind;
	j->from[2]  = a->colind;
	if ( src->layout == HYB_SPMV_CSR )
	{
		size_t k0 = (size_t)( src->ia[0] - src->base );
		j->off[0] = k0 * vb;
		j->len[0] = (size_t)src->nnz * vb;
		j->len[1] = (size_t)( src->m + 1 ) * sizeof( int );
		j->off[2] = k0 * sizeof( int );
		j->len[2] = (size_t)src->nnz * sizeof( int );
	}
	else
	{
		j->len[0] = (size_t)src->nnz * vb;
		j->len[1] = (size_t)src->nnz * sizeof( int );
		j->len[2] = (size_t)src->nnz * sizeof( int );
	}
	if ( lean )
	{
		j->lean       = lean;
		j->first      = src->layout == HYB_SPMV_CSR ? src->ia[0] : 0;
		j->block_rows = hyb_block_rows( f, src->m, vb, 0 );
		j->readers    = hyb_copy_readers( f );
		*out          = j;
		return 1;
	}
	int ok = 1;
	for ( int i = 0; i < 3; i++ )
		ok = ok && ( j->snap[i] = malloc( j->off[i] + j->len[i] + 1 ) ) != NULL;
	ok = ok && ( j->x = calloc( (size_t)a->m, vb ) ) != NULL &&
	     ( j->y = malloc( (size_t)a->m * vb ) );
	if ( !ok )
	{
		hyb_bg_job_free( j );
		return 0;
	}
	j->a.val    = j->snap[0];
	j->a.rowind = j->snap[1];
	j->a.colind = j->snap[2];
	j->a.x      = j->x;
	j->a.y      = j->y;
	*out        = j;
	return 1;
}

void hyb_spmv_device_bg_after_cpu( hyb_spmv_report_t* rep, hyb_status_t st )
{
	hyb_bg_job_t* j = rep->bg_job;
	rep->bg_job     = NULL;
	if ( !j ) return;
	/* Once submitted the job belongs to the helper, which may finish and free it before
	   the submit returns: nothing of it is read after. The lean job keeps one core busy;
	   the CPU products take the others. */
	const int lean = j->lean != NULL;
	if ( st == HYB_OK && lean ) atomic_fetch_add( &hyb_sd.copies[HYB_COPY_STARTED], 1 );
	if ( st == HYB_OK && hyb_spmv_bg_submit( hyb_bg_fill, j, j->mh, lean ? j->readers : 0 ) )
		return;
	if ( st == HYB_OK && lean ) atomic_fetch_sub( &hyb_sd.copies[HYB_COPY_STARTED], 1 );
	hyb_residency_cache_release( j->cache, j->ent ); /* a later call fills again */
	hyb_bg_job_free( j );
	if ( st == HYB_OK ) rep->why = "another matrix's device copy is being built";
}

hyb_path_t hyb_spmv_device_run( const hyb_call_t* call, const hyb_spmv_args_t* a, hyb_mode_t mode,
                                hyb_spmv_report_t* rep )
{
	double t0 = hyb_now();
	memset( rep, 0, sizeof *rep );
	rep->cache  = -1;
	rep->K_alg3 = -1;
	rep->path   = HYB_PATH_CPU;
	hyb_spmv_force_t f;
	hyb_lock( HYB_LOCK_SPMV_DEVICE );
	f = hyb_sd.force;
	hyb_unlock( HYB_LOCK_SPMV_DEVICE );

	hyb_spmv_src_t src;
	hyb_status_t   st = a->op == HYB_OP_CSRMV
	                        ? hyb_spmv_src_csr( a->transa, a->m, a->prec, a->val, a->rowind,
	                                            a->colind, a->base, &src )
	                        : hyb_spmv_src_coo( a->transa, a->m, a->prec, a->val, a->rowind,
	                                            a->colind, a->nnz, a->base, &src );
	if ( st != HYB_OK || src.m == 0 || src.nnz == 0 )
	{
		rep->why = "nothing for a device";
		return HYB_PATH_CPU;
	}
	const size_t vb = hyb_prec_size( src.prec );

	/* The arrays that define the matrix, as the application passed them. */
	hyb_residency_range_t rg[3];
	if ( src.layout == HYB_SPMV_CSR )
	{
		size_t k0 = (size_t)( src.ia[0] - src.base );
		rg[0] = ( hyb_residency_range_t ){ (const char*)src.val + k0 * vb, (size_t)src.nnz * vb };
		rg[1] = ( hyb_residency_range_t ){ src.ia, (size_t)( src.m + 1 ) * sizeof( int ) };
		rg[2] = ( hyb_residency_range_t ){ src.ja + k0, (size_t)src.nnz * sizeof( int ) };
	}
	else
	{
		rg[0] = ( hyb_residency_range_t ){ src.val, (size_t)src.nnz * vb };
		rg[1] = ( hyb_residency_range_t ){ src.rowind, (size_t)src.nnz * sizeof( int ) };
		rg[2] = ( hyb_residency_range_t ){ src.colind, (size_t)src.nnz * sizeof( int ) };
	}
	/* Key: everything besides the arrays that changes the converted copy. */
	uint64_t key = hyb_mix( hyb_mix( hyb_mix( (uint64_t)a->op, (uint64_t)src.prec ),
	                                 (uint64_t)( src.trans * 2 + src.base ) ),
	                        hyb_mix( (uint64_t)src.m, (uint64_t)src.nnz ) );
	uint64_t mh  = key;
	for ( int i = 0; i < 3; i++ )
		mh = hyb_mix( hyb_mix( mh, (uint64_t)(uintptr_t)rg[i].addr ), rg[i].bytes );

	/* A forced plan is a different device copy of the same arrays. */
	if ( f.active && ( f.opts.force || f.opts.allow_runs || f.opts.allow_fmts ) )
	{
		uint64_t sh;
		memcpy( &sh, &f.opts.share, sizeof sh );
		key = hyb_mix( hyb_mix( hyb_mix( key, (uint64_t)f.opts.force * 16 + (uint64_t)f.opts.run ),
		                        hyb_mix( (uint64_t)f.opts.fmt, (uint64_t)f.opts.K ) ),
		               hyb_mix( sh, (uint64_t)f.opts.allow_runs * 256 + f.opts.allow_fmts ) );
		key = hyb_mix( key, (uint64_t)f.block_rows );
	}
	if ( f.active && f.salt ) key = hyb_mix( key, f.salt );
	int resident_pref = f.active ? f.resident : -1;
	int want_cache    = hyb_config()->residency != HYB_RESIDENCY_OFF && resident_pref != 0;
	int measured      = 0; /* this call's device time counts towards the measured choice */
	if ( want_cache && resident_pref != 1 && mode != HYB_MODE_GPU )
	{
		int verdict = HYB_VERDICT_NONE, probe = 0;
		int seen   = hyb_memo_see( mh, &verdict, &probe );
		int forced = f.active && f.opts.force;
		if ( verdict == HYB_VERDICT_CPU && !forced )
		{
			rep->why = "the steady-state model keeps the CPU (remembered)";
			return HYB_PATH_CPU;
		}
		if ( verdict == HYB_VERDICT_CPU_MEASURED && !forced )
		{
			rep->why = "measured: the CPU product is faster for this matrix";
			return HYB_PATH_CPU;
		}
		if ( probe && !forced )
		{
			rep->probe_h = mh;
			rep->why     = "probe: timing the CPU product of this matrix";
			return HYB_PATH_CPU;
		}
		want_cache = seen >= 1;
		measured   = !forced;
	}
	hyb_residency_cache_t* cache = want_cache ? hyb_sd_cache() : NULL;
	hyb_path_t             path;
	if ( cache )
	{
		double check_bytes = (double)( rg[0].bytes + rg[1].bytes + rg[2].bytes );
		/* A hit's change check runs beside its product (run_hit); if it finds the arrays
		   changed, the call starts over with the checking lookup, which refills. */
		int unchecked_ok = 1;
		/* Auto mode builds a new copy in the background, which arms the change tracking
		   there: the entry comes unarmed. */
		const int bg_ok = mode == HYB_MODE_AUTO && !( f.active && ( f.opts.force || f.fill_sync ) );
		for ( ;; )
		{
			hyb_residency_entry_t*  ent = NULL;
			double                  ta  = hyb_now();
			hyb_residency_outcome_t oc =
			    !unchecked_ok ? hyb_residency_cache_acquire( cache, rg, 3, key, &ent )
			    : bg_ok       ? hyb_residency_cache_acquire_unarmed( cache, rg, 3, key, &ent )
			                  : hyb_residency_cache_acquire_unchecked( cache, rg, 3, key, &ent );
			rep->cache = (int)oc;
			if ( oc == HYB_RESIDENCY_HIT || oc == HYB_RESIDENCY_UNCHECKED )
			{
				if ( oc == HYB_RESIDENCY_HIT ) hyb_sd_refit_check( hyb_now() - ta, check_bytes );
				int stale = 0;
				path      = hyb_run_hit( call, a, &f, cache, ent, oc == HYB_RESIDENCY_UNCHECKED,
				                         check_bytes, &stale, rep );
				if ( stale )
				{
					unchecked_ok = 0;
					continue;
				}
				if ( measured && ( path == HYB_PATH_GPU || path == HYB_PATH_SPLIT ) )
					hyb_memo_device_time( mh, hyb_now() - ta, rep->t_cpu );
			}
			else if ( oc == HYB_RESIDENCY_FILL )
			{
				/* Auto mode builds the copy in the background while this call and the
				   next ones run on the CPU, which is never slower than the CPU alone. */
				int bg = bg_ok
				             ? hyb_bg_start( call, a, mode, &f, cache, ent, mh, &src, &rep->bg_job )
				             : 0;
				if ( bg > 0 )
				{
					rep->why = ( (hyb_bg_job_t*)rep->bg_job )->lean
					               ? "building the device copy in the background (the "
					                 "arrays as they are)"
					               : "building the device copy in the background";
					path     = HYB_PATH_CPU;
				}
				else if ( bg < 0 )
				{
					hyb_residency_cache_release( cache, ent );
					rep->why = "another matrix's device copy is being built";
					path     = HYB_PATH_CPU;
				}
				else if ( hyb_residency_cache_arm( cache, ent, 1 ) != HYB_OK )
				{
					hyb_residency_cache_release( cache, ent );
					path = hyb_run_transient( call, a, &src, mode, &f, rep );
				}
				else
					path = hyb_run_fill( call, a, &src, mode, &f, cache, ent, mh, rep );
			}
			else if ( oc == HYB_RESIDENCY_BYPASS && hyb_spmv_bg_building( mh ) )
			{
				rep->why = "the device copy is being built in the background";
				path     = HYB_PATH_CPU;
			}
			else
				path = hyb_run_transient( call, a, &src, mode, &f, rep );
			break;
		}
	}
	else
		path = hyb_run_transient( call, a, &src, mode, &f, rep );
	rep->path    = path;
	rep->seconds = hyb_now() - t0;
	return path;
}

void hyb_spmv_device_reset_for_test( void )
{
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait(); /* a background build holds an entry of the cache */
	hyb_lock( HYB_LOCK_SPMV_DEVICE );
	hyb_residency_cache_t* c = hyb_sd.cache;
	hyb_sd.cache             = NULL;
	hyb_sd.cache_failed      = 0;
	memset( &hyb_sd.force, 0, sizeof hyb_sd.force );
	atomic_store( &hyb_sd.check_spb, 0.0 );
	for ( int i = 0; i < 5; i++ ) atomic_store( &hyb_sd.copies[i], 0 );
	atomic_store( &hyb_sd.cannot_read, 0 );
	hyb_unlock( HYB_LOCK_SPMV_DEVICE );
	hyb_residency_cache_destroy( c );
	hyb_dev_t* d = NULL;
	if ( hyb_devices_count() > 0 && hyb_dev_acquire( HYB_SPMV_DEV, &d ) != HYB_OK ) d = NULL;
	hyb_spmv_yreg_reset( d );
	if ( d ) hyb_dev_release( d );
	hyb_spmv_pipe_reset();
	hyb_spmv_rates_set_base( NULL );
	hyb_learn_choices_forget( hyb_policy_spmv_learn_op() );
}

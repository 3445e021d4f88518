/* SPDX-License-Identifier: BSD-3-Clause */
/* Tridiagonal (?gtsv_) policy: SPIKE eligibility and window (seed 002 eq. 8), device row
   shares and streaming chunk sizes, and the keys of the throughput profile in the learning
   store. */
#define _GNU_SOURCE
#include "policies/hyb_policy_gtsv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policies/hyb_learn.h"

/* ---------------------------------------------------------------------------------------
   Window and plan.
   --------------------------------------------------------------------------------------- */

int64_t hyb_policy_gtsv_window( double dom, hyb_prec_t prec )
{
	if ( !( dom > 1.0 ) ) return 0; /* also NaN */
	if ( isinf( dom ) ) return 1;
	/* target = u / 4: u = 2^-53 (double, complex double), 2^-24 (float, complex float). */
	int    bits   = ( prec == HYB_PREC_D || prec == HYB_PREC_Z ) ? 53 : 24;
	double lnbits = ( bits + 2 ) * log( 2.0 ); /* ln(4/u) */
	double mr     = ceil( lnbits / log( dom ) );
	if ( !( mr <= (double)HYB_GTSV_WINDOW_MAX + 1 ) ) return 0;
	int64_t m = (int64_t)mr;
	if ( m < 1 ) m = 1;
	/* ceil() of a rounded quotient may be one too high on exact powers: step down while
	   the smaller window still meets the target (compared in logs). */
	while ( m > 1 && (double)( m - 1 ) * log( dom ) >= lnbits * ( 1 - 1e-12 ) ) m--;
	return m <= HYB_GTSV_WINDOW_MAX ? m : 0;
}

hyb_gtsv_plan_t hyb_policy_gtsv_choose( double dom_row, double dom_col, int64_t pivot, int64_t info,
                                        int nonfinite, hyb_prec_t prec, int strict_factors,
                                        int64_t* m )
{
	int64_t w = 0;
	if ( m ) *m = 0;
	if ( nonfinite ) return HYB_GTSV_PLAN_LAPACK;
	double dom = dom_row > dom_col ? dom_row : dom_col; /* NaN-safe: NaN fails window */
	if ( isnan( dom_row ) || isnan( dom_col ) ) return HYB_GTSV_PLAN_LAPACK;
	w = hyb_policy_gtsv_window( dom, prec );
	if ( w == 0 ) return HYB_GTSV_PLAN_LAPACK;
	hyb_gtsv_plan_t plan;
	if ( pivot < 0 )
		return HYB_GTSV_PLAN_LAPACK;
	else if ( pivot > 0 )
	{
		/* A swap only happens for a row- but not column-dominant matrix; such a matrix is
		   nonsingular, so SPIKE's X is valid, only the factors differ. */
		if ( strict_factors || !( dom_row > 1.0 ) ) return HYB_GTSV_PLAN_LAPACK;
		plan = HYB_GTSV_PLAN_SPIKE_X_ONLY;
	}
	else
	{
		if ( info != 0 ) return HYB_GTSV_PLAN_LAPACK;
		plan = HYB_GTSV_PLAN_SPIKE;
	}
	if ( m ) *m = w;
	return plan;
}

/* ---------------------------------------------------------------------------------------
   Shares and chunks.
   --------------------------------------------------------------------------------------- */

double hyb_policy_gtsv_shares( int64_t n, int ndev, const double* rate, int64_t align,
                               int64_t min_rows, int64_t* rows )
{
	if ( n < 0 || ndev < 1 || ndev > HYB_GTSV_DEV_MAX || rate == NULL || rows == NULL ||
	     align < 1 || min_rows < 0 )
		return -1.0;

	double r[HYB_GTSV_DEV_MAX];
	int    known = 1;
	for ( int k = 0; k < ndev; k++ )
		if ( !( rate[k] > 0 ) || isinf( rate[k] ) ) known = 0;
	for ( int k = 0; k < ndev; k++ ) r[k] = known ? rate[k] : 1.0;

	int active[HYB_GTSV_DEV_MAX];
	for ( int k = 0; k < ndev; k++ ) active[k] = 1;

	for ( ;; )
	{
		double total   = 0;
		int    fastest = -1;
		for ( int k = 0; k < ndev; k++ )
		{
			if ( !active[k] ) continue;
			total += r[k];
			if ( fastest < 0 || r[k] > r[fastest] ) fastest = k;
		}
		int64_t given = 0;
		for ( int k = 0; k < ndev; k++ )
		{
			rows[k] = 0;
			if ( !active[k] || k == fastest ) continue;
			double  exact = (double)n * ( r[k] / total );
			int64_t s     = (int64_t)floor( exact / (double)align ) * align;
			if ( s < 0 ) s = 0;
			if ( s > n - given ) s = ( ( n - given ) / align ) * align;
			rows[k] = s;
			given += s;
		}
		rows[fastest] = n - given;

		/* Drop the slowest device whose share is below min_rows, then share again. */
		int drop = -1;
		for ( int k = 0; k < ndev; k++ )
		{
			if ( !active[k] || k == fastest || rows[k] >= min_rows ) continue;
			if ( drop < 0 || r[k] < r[drop] ) drop = k;
		}
		if ( drop < 0 ) break;
		active[drop] = 0;
	}

	if ( !known ) return 0.0;
	double t = 0;
	for ( int k = 0; k < ndev; k++ )
	{
		double tk = (double)rows[k] / r[k];
		if ( tk > t ) t = tk;
	}
	return t;
}

/* ---------------------------------------------------------------------------------------
   The heterogeneous split.
   --------------------------------------------------------------------------------------- */

double hyb_policy_gtsv_rhs_weight( int64_t nrhs )
{
	if ( nrhs < 1 ) nrhs = 1;
	return ( 3.0 + 2.0 * (double)nrhs ) / 5.0;
}

static int hyb_gtsv_known( double r )
{
	return r > 0 && r < 1e18; /* NaN, Inf, 0: unknown */
}

/* Predicted rates (rows/s at the call's nrhs) of the three configurations. */
typedef struct
{
	double cpu;                     /* CPU alone */
	double dev[HYB_GTSV_DEV_MAX];   /* each device, devices alone */
	double s_cpu;                   /* split: the CPU */
	double s_dev[HYB_GTSV_DEV_MAX]; /* split: each device */
} hyb_gtsv_rates_t;

static hyb_gtsv_rates_t hyb_gtsv_model( const hyb_gtsv_split_in_t* in )
{
	hyb_gtsv_rates_t r;
	memset( &r, 0, sizeof r );
	const double w      = hyb_policy_gtsv_rhs_weight( in->nrhs );
	const double es     = (double)in->elem;
	const double nr     = (double)( in->nrhs > 0 ? in->nrhs : 1 );
	const double b_cpu  = ( 5 + 2 * nr ) * es;
	const double b_host = ( in->reg ? 3 + 2 * nr : 14 + 6 * nr ) * es;
	const double up = ( 3 + nr ) * es, down = ( in->reg ? 1 + nr : nr ) * es;
	const double bw      = in->host_bw > 0 ? in->host_bw : 1e11;
	const double core    = in->core_rate > 0 ? in->core_rate : 1.8e8;
	const int    threads = in->threads > 0 ? in->threads : 1;
	int          ndev    = in->ndev;

	/* CPU alone. */
	double cpu = fmin( bw / b_cpu, threads * core / w );
	r.cpu      = hyb_gtsv_known( in->cpu_alone ) ? in->cpu_alone / w : cpu;

	/* Devices alone: each capped by its DMA, all together by host traffic and by the host
	   threads that write the factors. */
	double cap[HYB_GTSV_DEV_MAX], sum = 0;
	for ( int k = 0; k < ndev; k++ )
	{
		double h2d = in->h2d > 0 ? in->h2d : 5e10, d2h = in->d2h > 0 ? in->d2h : 5e10;
		cap[k] = fmin( h2d / up, d2h / down );
		/* one thread registers ahead of the uploads and unregisters behind them */
		double pin_spb =
		    ( in->reg_spb > 0 ? in->reg_spb : 0 ) + ( in->unreg_spb > 0 ? in->unreg_spb : 0 );
		if ( in->reg && pin_spb > 0 ) cap[k] = fmin( cap[k], 1 / ( pin_spb * up ) );
		sum += cap[k];
	}
	/* The host side of a device's rows is the copies and the factor outputs, whose d'
	   recurrence alone runs about twice as fast a core as the whole SPIKE sweep. */
	double host = fmin( bw / b_host, 2 * threads * core );
	int    all  = 1;
	for ( int k = 0; k < ndev; k++ ) all &= hyb_gtsv_known( in->dev_alone[k] );
	for ( int k = 0; k < ndev; k++ )
		r.dev[k] = all ? in->dev_alone[k] / w : ( sum > host ? cap[k] * host / sum : cap[k] );

	/* Split: the CPU first (fewer bytes a row), the devices in the traffic left. */
	int cpu_thr = threads - ndev * ( in->dev_threads > 0 ? in->dev_threads : 1 );
	if ( cpu_thr < 1 ) cpu_thr = 1;
	double rc   = fmin( bw / b_cpu, cpu_thr * core / w );
	double left = bw - rc * b_cpu;
	double rg   = fmin( sum, fmax( left, 0 ) / b_host );
	rg          = fmin( rg, 2 * ( threads - cpu_thr > 0 ? threads - cpu_thr : 1 ) * core );
	all         = hyb_gtsv_known( in->split_cpu );
	for ( int k = 0; k < ndev; k++ ) all &= hyb_gtsv_known( in->split_dev[k] );
	r.s_cpu = all ? in->split_cpu / w : rc;
	for ( int k = 0; k < ndev; k++ )
		r.s_dev[k] = all ? in->split_dev[k] / w : ( sum > 0 ? rg * cap[k] / sum : 0 );
	return r;
}

/* Rows of the participants (devices 0..ndev-1, then the CPU at index ndev) in proportion to
   their rates; the CPU share is fixed instead when cpu_rows >= 0. Returns the predicted
   seconds (max over participants). */
static double hyb_gtsv_assign( const hyb_gtsv_split_in_t* in, const double* dev_rate,
                               double cpu_rate, int64_t cpu_rows, hyb_gtsv_split_t* out )
{
	const int    ndev = in->ndev;
	const double head = in->reg && in->head > 0 ? in->head : 0;
	double       rate[HYB_GTSV_DEV_MAX + 1];
	int64_t      rows[HYB_GTSV_DEV_MAX + 1];
	int64_t      n_dev = in->n;
	out->cpu_rows      = 0;
	for ( int k = 0; k < HYB_GTSV_DEV_MAX; k++ ) out->dev_rows[k] = 0;
	if ( cpu_rows >= 0 )
	{
		out->cpu_rows = cpu_rows;
		n_dev         = in->n - cpu_rows;
		if ( ndev > 0 )
		{
			for ( int k = 0; k < ndev; k++ ) rate[k] = dev_rate[k];
			hyb_policy_gtsv_shares( n_dev, ndev, rate, 1024, in->min_dev_rows, rows );
			for ( int k = 0; k < ndev; k++ ) out->dev_rows[k] = rows[k];
		}
	}
	else
	{
		/* The CPU is one more participant; min_dev_rows applies to it too, which only
		   matters when its share is negligible anyway. */
		for ( int k = 0; k < ndev; k++ ) rate[k] = dev_rate[k];
		rate[ndev] = cpu_rate;
		/* A head start of the devices: shares of n + cpu_rate * head rows in proportion to
		   the rates give each device rate * (T + head) rows, the CPU rate * T once its
		   cpu_rate * head are taken off again. */
		int64_t extra = (int64_t)( cpu_rate * head );
		hyb_policy_gtsv_shares( in->n + extra, ndev + 1, rate, 1024, in->min_dev_rows, rows );
		int64_t cut = 0; /* rows beyond n after the CPU's share is gone: the last device's */
		rows[ndev] -= extra;
		if ( rows[ndev] < 0 ) cut = -rows[ndev], rows[ndev] = 0;
		for ( int k = ndev - 1; k >= 0 && cut > 0; k-- )
		{
			int64_t c = rows[k] < cut ? rows[k] : cut;
			rows[k] -= c;
			cut -= c;
		}
		for ( int k = 0; k < ndev; k++ ) out->dev_rows[k] = rows[k];
		out->cpu_rows = rows[ndev];
	}
	double t    = out->cpu_rows > 0 ? (double)out->cpu_rows / cpu_rate : 0;
	int    used = 0;
	for ( int k = 0; k < ndev; k++ )
		if ( out->dev_rows[k] > 0 )
		{
			used = 1;
			t    = fmax( t, (double)out->dev_rows[k] / dev_rate[k] - head );
		}
	return used ? fmax( t, 0 ) + in->dev_latency : t;
}

hyb_gtsv_split_t hyb_policy_gtsv_split( const hyb_gtsv_split_in_t* in )
{
	hyb_gtsv_split_t out;
	memset( &out, 0, sizeof out );
	out.conf = HYB_GTSV_CONF_CPU;
	if ( in == NULL ) return out;
	out.cpu_rows = in->n > 0 ? in->n : 0;
	int ndev     = in->ndev < 0 ? 0 : in->ndev > HYB_GTSV_DEV_MAX ? HYB_GTSV_DEV_MAX : in->ndev;
	hyb_gtsv_split_in_t c = *in;
	c.ndev                = ndev;
	hyb_gtsv_rates_t r    = hyb_gtsv_model( &c );
	out.t_cpu             = in->n > 0 ? (double)in->n / r.cpu : 0;
	out.t_plan            = out.t_cpu;
	out.why               = "no device";
	if ( in->n <= 0 || ndev == 0 ) return out;

	hyb_gtsv_split_t dev = out, split = out;
	if ( in->cpu_ratio >= 0 )
	{
		/* Fixed CPU share (HYBLAS_CPU_RATIO): devices alone at 0, else a split. */
		double  ratio = in->cpu_ratio < 1 ? in->cpu_ratio : 0.95;
		int64_t cr    = (int64_t)floor( ratio * (double)in->n );
		if ( cr == 0 )
		{
			dev.t_plan = hyb_gtsv_assign( &c, r.dev, r.cpu, 0, &dev );
			dev.conf   = HYB_GTSV_CONF_DEV;
			dev.t_dev  = dev.t_plan;
			dev.why    = "fixed CPU ratio 0: devices alone";
			out        = dev;
		}
		else
		{
			split.t_plan  = hyb_gtsv_assign( &c, r.s_dev, r.s_cpu, cr, &split );
			split.conf    = HYB_GTSV_CONF_SPLIT;
			split.t_split = split.t_plan;
			split.why     = "fixed CPU ratio";
			out           = split;
		}
	}
	else
	{
		out.t_dev         = hyb_gtsv_assign( &c, r.dev, r.cpu, 0, &dev );
		out.t_split       = hyb_gtsv_assign( &c, r.s_dev, r.s_cpu, -1, &split );
		int split_has_dev = 0;
		for ( int k = 0; k < ndev; k++ ) split_has_dev |= split.dev_rows[k] > 0;
		int dev_has = 0;
		for ( int k = 0; k < ndev; k++ ) dev_has |= dev.dev_rows[k] > 0;
		double margin     = in->margin >= 1 ? in->margin : 1;
		double t_dev      = dev_has ? out.t_dev : INFINITY;
		double t_spl      = split_has_dev ? out.t_split : INFINITY;
		int    pick_split = t_spl <= t_dev;
		double t_best     = pick_split ? t_spl : t_dev;
		if ( in->allow_cpu && !in->need_dev && !( t_best * margin < out.t_cpu ) )
		{
			out.why = split_has_dev || dev_has ? "CPU alone predicted fastest"
			                                   : "device shares below their minimum";
		}
		else if ( !isfinite( t_best ) )
		{
			/* A device is required but every share fell below the minimum: the largest
			   possible device share, devices alone. */
			out.t_plan = hyb_gtsv_assign( &c, r.dev, r.cpu, 0, &dev );
			dev.t_cpu = out.t_cpu, dev.t_dev = out.t_plan, dev.t_split = out.t_split;
			dev.t_plan = out.t_plan;
			dev.conf   = HYB_GTSV_CONF_DEV;
			dev.why    = "device required";
			out        = dev;
		}
		else
		{
			hyb_gtsv_split_t pick = pick_split ? split : dev;
			pick.t_cpu            = out.t_cpu;
			pick.t_dev            = out.t_dev;
			pick.t_split          = out.t_split;
			pick.t_plan           = t_best;
			pick.conf             = pick_split ? HYB_GTSV_CONF_SPLIT : HYB_GTSV_CONF_DEV;
			pick.why              = pick_split ? "CPU and devices together predicted fastest"
			                                   : "devices alone predicted fastest";
			out                   = pick;
		}
	}
	if ( out.conf == HYB_GTSV_CONF_CPU )
	{
		out.cpu_rows = in->n;
		for ( int k = 0; k < HYB_GTSV_DEV_MAX; k++ ) out.dev_rows[k] = 0;
		out.t_plan = out.t_cpu;
	}
	return out;
}

int64_t hyb_policy_gtsv_chunk_rows( int64_t rows, int64_t nrhs, size_t elem, size_t buf_bytes,
                                    int64_t m, int min_chunks )
{
	if ( rows <= 0 || nrhs < 0 || elem == 0 || m < 0 ) return 0;
	double  row_bytes = (double)( 3 + nrhs ) * (double)elem;
	double  fit       = (double)buf_bytes / row_bytes;
	int64_t cap       = fit >= (double)rows ? rows : (int64_t)fit;
	int64_t floor_r   = 16 * m > HYB_GTSV_CHUNK_MIN_ROWS ? 16 * m : HYB_GTSV_CHUNK_MIN_ROWS;
	int64_t want      = rows;
	if ( min_chunks > 1 ) want = ( rows + min_chunks - 1 ) / min_chunks;
	if ( want < floor_r ) want = floor_r;
	if ( want > cap ) want = cap; /* the buffer is a hard limit */
	if ( want > rows ) want = rows;
	if ( want > 1024 && want < rows ) want -= want % 1024; /* one chunk: keep it whole */
	return want >= 1 ? want : 1;
}

/* ---------------------------------------------------------------------------------------
   Keys of the learning store.
   --------------------------------------------------------------------------------------- */

hyb_op_id_t hyb_policy_gtsv_learn_op( void )
{
	static int op = HYB_LEARN_OP_UNSET;
	return hyb_learn_op( &op, "gtsv", 1 );
}

hyb_learn_key_t hyb_policy_gtsv_learn_key( char prec, hyb_gtsv_learn_kind_t kind, int reg, int k )
{
	uint64_t cls = (uint64_t)(unsigned char)prec | (uint64_t)kind << 8 |
	               (uint64_t)( reg != 0 ) << 16 | (uint64_t)( k & 0xff ) << 24;
	return ( hyb_learn_key_t ){ hyb_policy_gtsv_learn_op(), cls };
}

hyb_learn_key_t hyb_policy_gtsv_learn_side_key( char prec, int threads, int cls )
{
	uint64_t c = (uint64_t)(unsigned char)prec | (uint64_t)HYB_GTSV_LEARN_SIDE << 8 |
	             (uint64_t)( cls & 0xff ) << 16 | ( (uint64_t)threads & 0xffffffffu ) << 24;
	return ( hyb_learn_key_t ){ hyb_policy_gtsv_learn_op(), c };
}

/* A non-negative decimal number of at most 9 digits spanning [s, end), or -1. */
static int hyb_gtsv_learn_num( const char* s, const char** end )
{
	int v = 0, n = 0;
	while ( *s >= '0' && *s <= '9' && n < 9 ) v = v * 10 + ( *s++ - '0' ), n++;
	*end = s;
	return n > 0 && !( *s >= '0' && *s <= '9' ) ? v : -1;
}

int hyb_policy_gtsv_learn_name( const char* name, char prec, hyb_learn_key_t* key,
                                hyb_learn_slot_t* slot )
{
	if ( name == NULL || !( prec == 's' || prec == 'd' || prec == 'c' || prec == 'z' ) ) return 0;
	const char* e;
	int         side = strncmp( name, "lapack.t", 8 ) == 0  ? 0
	                   : strncmp( name, "spike.t", 7 ) == 0 ? 1
	                                                        : -1;
	if ( side >= 0 )
	{
		int threads = hyb_gtsv_learn_num( name + ( side ? 7 : 8 ), &e );
		if ( threads < 1 || strncmp( e, ".n", 2 ) != 0 ) return 0;
		int cls = hyb_gtsv_learn_num( e + 2, &e );
		if ( cls < 0 || cls > 255 || *e ) return 0;
		*key  = hyb_policy_gtsv_learn_side_key( prec, threads, cls );
		*slot = side ? HYB_LEARN_OTHER : HYB_LEARN_CPU;
		return 1;
	}
	if ( strcmp( name, "cpu" ) == 0 )
	{
		*key  = hyb_policy_gtsv_learn_key( prec, HYB_GTSV_LEARN_ALONE, 0, 0 );
		*slot = HYB_LEARN_CPU;
		return 1;
	}
	int reg = name[0] == 'r';
	name += reg;
	hyb_gtsv_learn_kind_t kind = HYB_GTSV_LEARN_ALONE;
	if ( strncmp( name, "split.", 6 ) == 0 ) kind = HYB_GTSV_LEARN_SPLIT, name += 6;
	if ( kind == HYB_GTSV_LEARN_SPLIT && strcmp( name, "cpu" ) == 0 )
	{
		*key  = hyb_policy_gtsv_learn_key( prec, kind, reg, 0 );
		*slot = HYB_LEARN_CPU;
		return 1;
	}
	if ( strncmp( name, "gpu", 3 ) != 0 ) return 0;
	int k = hyb_gtsv_learn_num( name + 3, &e );
	if ( k < 0 || k >= HYB_GTSV_DEV_MAX || *e ) return 0;
	*key  = hyb_policy_gtsv_learn_key( prec, kind, reg, k );
	*slot = HYB_LEARN_GPU;
	return 1;
}

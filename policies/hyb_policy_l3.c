/* SPDX-License-Identifier: BSD-3-Clause */
/* Level-3 cost model and plan (see hyb_policy_l3.h). */
#include "policies/hyb_policy_l3.h"

#include <math.h>

static double hyb_maxd( double a, double b )
{
	return a > b ? a : b;
}

static int64_t hyb_min64( int64_t a, int64_t b )
{
	return a < b ? a : b;
}

static int64_t hyb_cdiv64( int64_t a, int64_t b )
{
	return ( a + b - 1 ) / b;
}

double hyb_cost_l3_cpu( const hyb_profile_t* p, hyb_prec_t prec, double flops )
{
	/* A saturating rate: small calls run below the library's peak. */
	double rate = p->cpu_flops[prec] * flops / ( flops + p->cpu_half_flops );
	return rate > 0 ? flops / rate : INFINITY;
}

/* Operand sizes (bytes) of the device region: the A/B blocks loaded, the
   output read and written. */
static void hyb_l3_sizes( const hyb_l3_args_t* a, int64_t m_dev, int64_t n_dev, double* ab, double* c_in,
                          double* c_out, double* flops )
{
	double es = (double)hyb_prec_size( a->prec );
	double m = (double)m_dev, n = (double)n_dev, k = (double)a->k;
	double cx = hyb_prec_is_complex( a->prec ) ? 4 : 1;
	int    bz = a->beta[0] == 0.0 && a->beta[1] == 0.0;
	switch ( a->op )
	{
	case HYB_OP_GEMM:
		*ab    = es * ( m * k + k * n );
		*c_out = es * m * n;
		*flops = cx * 2 * m * n * k;
		break;
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
	{
		double d = a->side == 'L' ? (double)a->m : (double)a->n;
		*ab      = es * ( d * d + m * n );
		*c_out   = es * m * n;
		*flops   = cx * 2 * m * n * d;
		break;
	}
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
	{
		double two = ( a->op == HYB_OP_SYR2K || a->op == HYB_OP_HER2K ) ? 2 : 1;
		*ab        = es * two * n * k;
		*c_out     = es * n * ( n + 1 ) / 2;
		*flops     = cx * two * k * n * ( n + 1 );
		break;
	}
	default: /* trsm, trmm */
	{
		double d = a->side == 'L' ? (double)a->m : (double)a->n;
		*ab      = es * d * d;
		*c_out   = es * (double)a->m * (double)a->n;
		*flops   = cx * d * (double)a->m * (double)a->n;
		bz       = 0;
		break;
	}
	}
	*c_in = bz ? 0 : *c_out;
}

double hyb_cost_l3_gpu( const hyb_profile_t* p, const hyb_l3_args_t* a, int64_t m_dev, int64_t n_dev,
                        int64_t T, int64_t K, int ndev, double budget, int register_ops, double parts[4] )
{
	double ab, c_in, c_out, flops;
	hyb_l3_sizes( a, m_dev, n_dev, &ab, &c_in, &c_out, &flops );
	if ( ndev < 1 ) ndev = 1;
	double es = (double)hyb_prec_size( a->prec );

	/* Blocks are loaded once when they all fit beside the tiles; otherwise
	   the operand that is not reused along a strip is reloaded per strip. */
	double tiles  = 3.0 * (double)T * (double)T * es;
	double loaded = ab;
	if ( ab + tiles > budget * 0.9 && a->op != HYB_OP_TRSM && a->op != HYB_OP_TRMM )
		loaded = ab * (double)hyb_cdiv64( n_dev > m_dev ? m_dev : n_dev, T );

	/* Host copies (load1, store2) share the host's memory; PCIe is per
	   device; products run on every device. */
	double copied = ( register_ops ? 0 : loaded ) + c_in + c_out;
	double t_host = copied / p->host_copy;
	double t_pcie = hyb_maxd( hyb_maxd( ( loaded + c_in ) / p->h2d_pinned, c_out / p->d2h_pinned ),
	                          ( loaded + c_in + c_out ) / p->bidir_pinned ) /
	                ndev;
	double op_flops = 2.0 * (double)T * (double)T * (double)K * ( hyb_prec_is_complex( a->prec ) ? 4 : 1 );
	double rate     = p->gpu_flops[a->prec] * op_flops / ( op_flops + p->gpu_half_flops );
	double t_comp   = flops / ( rate * ndev );

	/* Pipeline fill and drain: the first product waits for its two blocks,
	   the last tile's download and store are not overlapped. */
	double blk    = (double)T * (double)K * es;
	double tile   = (double)T * (double)T * es;
	double t_fill = 2 * blk * ( 1 / p->host_copy + 1 / p->h2d_pinned ) + tile * ( 1 / p->d2h_pinned + 1 / p->host_copy );
	if ( a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM ) t_fill = ab * ( 1 / p->host_copy + 1 / p->h2d_pinned );
	double t_fixed = p->gpu_call_overhead + t_fill;
	if ( register_ops ) t_fixed += ab * ( p->register_s_per_byte + p->unregister_s_per_byte );

	if ( parts )
	{
		parts[0] = t_fixed;
		parts[1] = t_host;
		parts[2] = t_pcie;
		parts[3] = t_comp;
	}
	return t_fixed + hyb_maxd( hyb_maxd( t_host, t_pcie ), t_comp );
}

void hyb_policy_l3_tiles( const hyb_l3_args_t* a, double budget, int64_t tile, int64_t* T, int64_t* K )
{
	double es = (double)hyb_prec_size( a->prec );
	if ( a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM )
	{
		/* The triangle is resident; the other operand moves in panels of
		   about 64 MiB (larger panels only delay the pipeline's start). */
		int64_t dim   = a->side == 'L' ? a->m : a->n;
		int64_t other = a->side == 'L' ? a->n : a->m;
		int64_t t     = tile ? tile : (int64_t)( 67108864.0 / ( (double)dim * es ) );
		t             = ( t + 255 ) / 256 * 256;
		if ( t < 256 ) t = 256;
		if ( t > other ) t = other;
		double per = a->op == HYB_OP_TRMM ? 2 : 1;
		double need = (double)dim * (double)dim * es + 3 * per * (double)dim * (double)t * es;
		*T = need <= budget ? t : 0;
		*K = dim;
		return;
	}
	int64_t m = a->m, n = a->n;
	if ( a->op != HYB_OP_GEMM && a->op != HYB_OP_SYMM && a->op != HYB_OP_HEMM ) m = n;
	int64_t mn = m < n ? m : n;
	int64_t t  = tile;
	if ( t == 0 )
	{
		/* Large enough for full-rate products, small enough that the pipeline
		   has several tiles to overlap and a short fill. */
		t = mn >= 24576 ? 4096 : mn >= 4096 ? 2048 : mn >= 1536 ? 1024 : 512;
		if ( t > ( m > n ? m : n ) ) t = ( m > n ? m : n );
	}
	int64_t kdim = a->op == HYB_OP_SYMM || a->op == HYB_OP_HEMM ? ( a->side == 'L' ? a->m : a->n ) : a->k;
	int64_t k    = hyb_min64( kdim, 2 * t );
	if ( k < 1 ) k = 1;
	/* Shrink until three tiles and two blocks fit the budget. */
	while ( t > 128 && 3.0 * (double)t * (double)t * es + 2.0 * (double)t * (double)k * es > budget )
	{
		t /= 2;
		k = hyb_min64( kdim, 2 * t );
	}
	*T = 3.0 * (double)t * (double)t * es + 2.0 * (double)t * (double)k * es > budget ? 0 : t;
	*K = k;
}

hyb_l3_plan_t hyb_policy_l3_choose( const hyb_l3_args_t* a, const hyb_profile_t* p,
                                    const hyb_l3_policy_in_t* in )
{
	hyb_l3_plan_t plan = { .path = HYB_PATH_CPU, .ndev = in->ndev };
	double        ab, c_in, c_out, flops;
	hyb_l3_sizes( a, a->op == HYB_OP_SYRK || a->op == HYB_OP_HERK || a->op == HYB_OP_SYR2K ||
	                         a->op == HYB_OP_HER2K ? a->n : a->m,
	              a->n, &ab, &c_in, &c_out, &flops );
	hyb_profile_t q = *p;
	if ( in->cpu_rate > 0 ) q.cpu_flops[a->prec] = in->cpu_rate;
	plan.t_cpu  = hyb_cost_l3_cpu( &q, a->prec, flops );
	plan.t_plan = plan.t_cpu;

	if ( in->mode == HYB_MODE_CPU )
		return plan.why = "mode cpu", plan;
	if ( in->ndev < 1 )
		return plan.why = "no device", plan;
	if ( in->mode == HYB_MODE_AUTO && flops < in->min_flops )
		return plan.why = "below HYBLAS_L3_MIN_FLOPS", plan;

	hyb_policy_l3_tiles( a, in->budget, in->tile, &plan.T, &plan.K );
	if ( plan.T == 0 ) return plan.why = "does not fit the device budget", plan;

	int64_t m_out = a->op == HYB_OP_SYRK || a->op == HYB_OP_HERK || a->op == HYB_OP_SYR2K ||
	                        a->op == HYB_OP_HER2K
	                    ? a->n
	                    : a->m;
	double scale = in->gpu_scale > 0 ? in->gpu_scale : 1;
	double t_copy = scale * hyb_cost_l3_gpu( &q, a, m_out, a->n, plan.T, plan.K, in->ndev, in->budget, 0, NULL );
	double t_reg  = scale * hyb_cost_l3_gpu( &q, a, m_out, a->n, plan.T, plan.K, in->ndev, in->budget, 1, NULL );
	plan.register_ops = in->staging == HYB_STAGING_REGISTER || ( in->staging == HYB_STAGING_AUTO && t_reg < t_copy );
	plan.t_gpu        = plan.register_ops ? t_reg : t_copy;

	/* A CPU strip (gemm only: a band of C is an independent gemm). Its
	   share equalizes the two sides: s F / r_cpu = t0 + (1 - s) t_var. */
	double share = 0;
	if ( a->op == HYB_OP_GEMM )
	{
		if ( in->cpu_ratio >= 0 )
			share = in->cpu_ratio;
		else if ( in->mode == HYB_MODE_AUTO )
		{
			double parts[4];
			hyb_cost_l3_gpu( &q, a, m_out, a->n, plan.T, plan.K, in->ndev, in->budget, plan.register_ops, parts );
			double t0    = scale * parts[0];
			double t_var = plan.t_gpu - t0;
			double t_cpu = flops / q.cpu_flops[a->prec];
			share        = ( t0 + t_var ) / ( t_cpu + t_var );
			if ( share < q.min_cpu_share ) share = 0;
		}
	}
	double t_split = plan.t_gpu;
	if ( share > 0 )
	{
		/* Cut along the longer dimension, in whole 64-wide bands. */
		int     by_cols = a->n >= a->m;
		int64_t dim     = by_cols ? a->n : a->m;
		int64_t cut     = (int64_t)( share * (double)dim ) / 64 * 64;
		if ( cut >= dim ) cut = dim - 1;
		if ( cut > 0 )
		{
			double s_eff   = (double)cut / (double)dim;
			double t_gpu_p = scale * hyb_cost_l3_gpu( &q, a, by_cols ? a->m : a->m - cut, by_cols ? a->n - cut : a->n,
			                                          plan.T, plan.K, in->ndev, in->budget, plan.register_ops, NULL );
			double t_cpu_p = hyb_cost_l3_cpu( &q, a->prec, s_eff * flops );
			t_split        = hyb_maxd( t_gpu_p, t_cpu_p );
			if ( in->cpu_ratio >= 0 || t_split < plan.t_gpu )
			{
				plan.cpu_cols = by_cols ? cut : 0;
				plan.cpu_rows = by_cols ? 0 : cut;
			}
			else
				t_split = plan.t_gpu;
		}
	}

	if ( in->mode == HYB_MODE_GPU )
	{
		plan.path   = ( plan.cpu_cols || plan.cpu_rows ) ? HYB_PATH_SPLIT : HYB_PATH_GPU;
		plan.t_plan = t_split;
		plan.why    = "mode gpu";
		return plan;
	}
	if ( t_split < plan.t_cpu )
	{
		plan.path   = ( plan.cpu_cols || plan.cpu_rows ) ? HYB_PATH_SPLIT : HYB_PATH_GPU;
		plan.t_plan = t_split;
		plan.why    = "model: device faster";
		return plan;
	}
	plan.cpu_cols = plan.cpu_rows = 0;
	plan.why                      = "model: CPU faster";
	return plan;
}

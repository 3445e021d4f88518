/* SPDX-License-Identifier: BSD-3-Clause */
/* Level-3 cost model and plan (see hyb_policy_l3.h). */
#include "policies/hyb_policy_l3.h"

#include <math.h>
#include <string.h>

#include "kernels/pipeline/hyb_l3_tasks.h"

static double hyb_maxd( double a, double b )
{
	return a > b ? a : b;
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
static void hyb_l3_sizes( const hyb_l3_args_t* a, int64_t m_dev, int64_t n_dev, double* ab,
                          double* c_in, double* c_out, double* flops )
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
		double two = hyb_op_is_rank_2k( a->op ) ? 2 : 1;
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

/* Where the old output goes when beta != 0 (c_in bytes): uploaded through
   staging (c_up), or, with beta applied on the host, read once more by the
   store (c_reread), whose update then moves three bytes where a copy moves
   two. trsm/trmm tiles are always uploaded. */
static void hyb_c_traffic( const hyb_l3_args_t* a, unsigned flags, double c_in, double* c_up,
                           double* c_reread )
{
	int host  = ( flags & HYB_L3_BETA_HOST ) && a->op != HYB_OP_TRSM && a->op != HYB_OP_TRMM;
	*c_up     = host ? 0 : c_in;
	*c_reread = host ? c_in : 0;
}

/* What a device region m_dev x n_dev moves and computes under the call's options: the
   operand sizes and flops (hyb_l3_sizes), where the old output goes (hyb_c_traffic), and
   whether the operands are registered in place (HYB_L3_REGISTER) rather than copied. */
typedef struct
{
	double ab, c_in, c_out, flops;
	double c_up, c_reread;
	double es;
	int    tri; /* trsm, trmm */
	int    register_ops;
	/* One device's part of the region's tiles, output and products, when
	   devices share it (hyb_l3_device_part); its loads are the region's. */
	double share;
} hyb_l3_region_t;

static hyb_l3_region_t hyb_l3_region( const hyb_l3_args_t* a, int64_t m_dev, int64_t n_dev,
                                      unsigned flags )
{
	hyb_l3_region_t g;
	hyb_l3_sizes( a, m_dev, n_dev, &g.ab, &g.c_in, &g.c_out, &g.flops );
	hyb_c_traffic( a, flags, g.c_in, &g.c_up, &g.c_reread );
	g.es           = (double)hyb_prec_size( a->prec );
	g.tri          = a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM;
	g.register_ops = ( flags & HYB_L3_REGISTER ) != 0;
	g.share        = 1;
	return g;
}

/* Output tiles Tm x Tn of the region (trsm/trmm: the strips along the side A applies from). */
static double hyb_l3_ntiles( const hyb_l3_args_t* a, int tri, int64_t m_dev, int64_t n_dev,
                             int64_t Tm, int64_t Tn )
{
	return tri ? (double)hyb_cdiv64( a->side == 'L' ? a->n : a->m, a->side == 'L' ? Tn : Tm )
	           : (double)hyb_cdiv64( m_dev, Tm ) * (double)hyb_cdiv64( n_dev, Tn );
}

/* Largest tile and block, bytes: big enough for full-rate products and
   efficient DMA, small enough that the pipeline fills and drains quickly
   and that page-locked staging stays a few hundred megabytes. */
#define HYB_TILE_MAX_BYTES  ( 64.0 * 1048576 )
#define HYB_BLOCK_MAX_BYTES ( 64.0 * 1048576 )
/* Host-side cost per block loaded and per tile stored (team wake-up,
   event synchronization), seconds: the gap between many small and few large
   blocks in the pipeline's measured calls (docs/performance.md, "Built-in
   defaults"). */
#define HYB_BLOCK_OVERHEAD 25e-6
#define HYB_TILE_OVERHEAD  25e-6
/* Issuer's cost per product (its waits, launch and events; the device idles
   while the issuer copies the next block when the products queued ahead are
   short), seconds: the gap between small and large tiles of the same calls
   on two devices, where the host's copies bound both (docs/design-notes.md,
   "Tiles on several devices"). */
#define HYB_PRODUCT_OVERHEAD 40e-6

/* Rate of a staging copy whose contiguous pieces are `piece` bytes long
   (whole columns of a matrix are one piece: contiguous). */
static double hyb_copy_rate( const hyb_profile_t* p, double piece, int contiguous )
{
	if ( contiguous ) return p->host_copy;
	return p->host_copy * piece / ( piece + p->copy_piece_half );
}

/* Bytes and contiguous piece lengths of what the pipeline copies for a
   region m_dev x n_dev of the output with tiles Tm x Tn and k-chunks K:
   the loaded blocks of A and B (each once when they all fit the device,
   otherwise the panel not reused along a strip again per strip), the
   output tiles read (beta != 0) and written. Returns the seconds of the
   copies of each host thread: the issuer (load1) and the storer (store2). */
static void hyb_copy_times( const hyb_profile_t* p, const hyb_l3_args_t* a,
                            const hyb_l3_region_t* g, int64_t m_dev, int64_t n_dev, int64_t Tm,
                            int64_t Tn, int64_t K, double budget, double* t_issuer,
                            double* t_storer, double* loaded_out, double* first_blocks )
{
	const double es = g->es, ab = g->ab;
	const int    tri = g->tri;
	double       bytes_a, bytes_b, piece_a, piece_b;
	int          cont_a, cont_b;
	if ( a->op == HYB_OP_GEMM )
	{
		bytes_a = es * (double)m_dev * (double)a->k;
		bytes_b = es * (double)a->k * (double)n_dev;
		/* A block is Tm x K (transa N) or K x Tm of the stored matrix. */
		piece_a = es * (double)( a->transa == 'N' ? Tm : K );
		cont_a  = a->transa == 'N' ? Tm == a->m : K == a->k;
		piece_b = es * (double)( a->transb == 'N' ? K : Tn );
		cont_b  = a->transb == 'N' ? K == a->k : Tn == a->n;
	}
	else
	{
		bytes_a = ab, bytes_b = 0;
		piece_a = piece_b = es * (double)( tri ? ( a->side == 'L' ? a->m : a->n ) : Tm );
		cont_a = tri, cont_b = 0;
	}
	double tiles  = 3.0 * (double)Tm * (double)Tn * es;
	double reload = 1;
	if ( ab + tiles > budget * 0.9 && !tri )
		reload = (double)hyb_cdiv64( n_dev > m_dev ? m_dev : n_dev, Tm < Tn ? Tm : Tn );
	int64_t m_out   = tri && a->side == 'R' ? Tm : hyb_op_is_rank_k( a->op ) ? a->n : a->m;
	double  piece_c = es * (double)Tm;
	int     cont_c  = Tm == m_out;
	double  rate_c  = hyb_copy_rate( p, piece_c, cont_c );
	double  ntiles  = hyb_l3_ntiles( a, tri, m_dev, n_dev, Tm, Tn );
	double  blk     = tri ? ab : (double)( Tm > Tn ? Tm : Tn ) * (double)K * es;
	double  loaded  = ( bytes_a + bytes_b ) * reload;
	double  nblocks = loaded / blk;
	double  in_copy = 0;
	if ( !g->register_ops )
		in_copy = reload * ( bytes_a / hyb_copy_rate( p, piece_a, cont_a ) +
		                     ( bytes_b > 0 ? bytes_b / hyb_copy_rate( p, piece_b, cont_b ) : 0 ) );
	const double sh = g->share;
	*t_issuer       = in_copy + sh * g->c_up / rate_c + nblocks * HYB_BLOCK_OVERHEAD +
	            sh * ntiles * HYB_TILE_OVERHEAD;
	*t_storer   = sh * ( ( g->c_out + g->c_reread / 2 ) / rate_c + ntiles * HYB_TILE_OVERHEAD );
	*loaded_out = loaded;
	/* The first product's blocks: load1 and DMA overlap within a block. */
	double rate_first = hyb_copy_rate( p, piece_a, cont_a );
	if ( rate_first > p->h2d_pinned ) rate_first = p->h2d_pinned;
	*first_blocks = ( tri ? 1 : 2 ) * blk / rate_first;
}

/* The part of the region m_dev x n_dev that one of `ndev` devices works on, as
   hyb_l3_work_build_bands cuts it: *m_one x *n_one (a band of a product, the
   whole region otherwise), of which it does `share` of the tiles (the band's
   devices, or all of them, share it). A device loads every block its region
   needs: the smaller operand panel once per band, the triangle of trsm/trmm
   once per device, and for rank-k updates nearly every block (interleaved
   tiles of one order). */
static double hyb_l3_device_part( const hyb_l3_args_t* a, int64_t m_dev, int64_t n_dev, int64_t Tm,
                                  int64_t Tn, int ndev, int64_t* m_one, int64_t* n_one )
{
	*m_one = m_dev, *n_one = n_dev;
	if ( ndev <= 1 ) return 1;
	int    tri     = a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM;
	double regions = 1, tiles;
	if ( !tri && hyb_l3_op_banded( a->op ) )
	{
		int     by_cols = hyb_l3_bands_by_cols( m_dev, n_dev );
		int64_t along   = by_cols ? hyb_cdiv64( n_dev, Tn ) : hyb_cdiv64( m_dev, Tm );
		regions         = (double)( along < ndev ? along : ndev );
		if ( by_cols )
			*n_one = hyb_cdiv64( hyb_cdiv64( n_dev, Tn ), (int64_t)regions ) * Tn;
		else
			*m_one = hyb_cdiv64( hyb_cdiv64( m_dev, Tm ), (int64_t)regions ) * Tm;
		if ( *n_one > n_dev ) *n_one = n_dev;
		if ( *m_one > m_dev ) *m_one = m_dev;
	}
	tiles = hyb_l3_ntiles( a, tri, *m_one, *n_one, Tm, Tn ) * regions;
	/* devices per region, and at least one tile for a device */
	double share = regions / ndev;
	return share * tiles < regions ? regions / tiles : share;
}

double hyb_cost_l3_gpu( const hyb_profile_t* p, const hyb_l3_args_t* a, int64_t m_dev,
                        int64_t n_dev, int64_t Tm, int64_t Tn, int64_t K, int ndev, double budget,
                        unsigned flags, double parts[4] )
{
	if ( ndev < 1 ) ndev = 1;
	/* Costs of one device's part; the devices run at once, sharing the host's
	   memory for their staging copies (each has its own bus and products). */
	int64_t         m_one, n_one;
	double          share = hyb_l3_device_part( a, m_dev, n_dev, Tm, Tn, ndev, &m_one, &n_one );
	hyb_l3_region_t g     = hyb_l3_region( a, m_one, n_one, flags );
	g.share               = share;

	double t_issuer, t_storer, loaded, t_first;
	hyb_copy_times( p, a, &g, m_one, n_one, Tm, Tn, K, budget, &t_issuer, &t_storer, &loaded,
	                &t_first );
	double ntiles = hyb_l3_ntiles( a, g.tri, m_one, n_one, Tm, Tn );
	if ( hyb_op_is_rank_k( a->op ) ) ntiles = ntiles / 2 + (double)hyb_cdiv64( n_one, Tn ) / 2;
	double op_flops = g.tri ? g.flops / ntiles
	                        : 2.0 * (double)Tm * (double)Tn * (double)K *
	                              ( hyb_prec_is_complex( a->prec ) ? 4 : 1 );
	double flops    = share * g.flops;
	double products = flops / op_flops;
	t_issuer += products * HYB_PRODUCT_OVERHEAD;

	double c_up = share * g.c_up, c_out = share * g.c_out;
	/* The issuers and the storers of every device copy at once, all through the host's
	   one memory. */
	double copied =
	    ndev * ( ( g.register_ops ? 0 : loaded ) + c_up + c_out + share * g.c_reread / 2 );
	double t_host = hyb_maxd( hyb_maxd( t_issuer, t_storer ), copied / p->host_copy_dual );
	double t_pcie = hyb_maxd( hyb_maxd( ( loaded + c_up ) / p->h2d_pinned, c_out / p->d2h_pinned ),
	                          ( loaded + c_up + c_out ) / p->bidir_pinned );
	double rate   = p->gpu_flops[a->prec] * op_flops / ( op_flops + p->gpu_half_flops );
	double t_comp = flops / rate + products * p->launch_latency;

	/* Fill and drain: the first product waits for its blocks; the last
	   tile's download and store are not overlapped. */
	double tile = (double)Tm * (double)Tn * g.es;
	double t_fill =
	    t_first + tile / p->d2h_pinned + tile / hyb_copy_rate( p, g.es * (double)Tm, 0 );
	double t_fixed = p->gpu_call_overhead + t_fill;
	if ( g.register_ops )
	{
		/* The whole operands are registered once, before any device starts. */
		double ab_all = hyb_l3_region( a, m_dev, n_dev, flags ).ab;
		t_fixed += ab_all * ( p->register_s_per_byte + p->unregister_s_per_byte );
	}

	if ( parts )
	{
		parts[0] = t_fixed;
		parts[1] = t_host;
		parts[2] = t_pcie;
		parts[3] = t_comp;
	}
	return t_fixed + hyb_maxd( hyb_maxd( t_host, t_pcie ), t_comp );
}

static int64_t hyb_round_up( int64_t v, int64_t q )
{
	return ( v + q - 1 ) / q * q;
}

/* Whether a tile choice respects the size limits and the budget. */
static int hyb_tiles_fit( double es, int64_t Tm, int64_t Tn, int64_t K, double budget )
{
	double tile = (double)Tm * (double)Tn * es;
	double blk  = (double)( Tm > Tn ? Tm : Tn ) * (double)K * es;
	return tile <= HYB_TILE_MAX_BYTES && blk <= HYB_BLOCK_MAX_BYTES && 3 * tile + 2 * blk <= budget;
}

/* Smallest block worth loading on its own: below it the per-block costs
   (synchronization, a team wake-up per copy) dominate. */
#define HYB_BLOCK_MIN_BYTES ( 4.0 * 1048576 )

/* The cheapest gemm tile shape (hyb_policy_l3_tiles; thin: blocks below
   HYB_BLOCK_MIN_BYTES allowed); leaves *Tm 0 when none fits. */
static void hyb_gemm_tiles( const hyb_l3_args_t* a, const hyb_profile_t* p, int ndev, double budget,
                            unsigned flags, double es, int64_t M, int64_t N, int64_t kdim, int thin,
                            int64_t* Tm, int64_t* Tn, int64_t* K )
{
	static const int64_t edges[] = { 16384, 8192, 4096, 2048, 1024, 512, 256 };
	double               best    = INFINITY;
	for ( int im = -1; im < (int)( sizeof edges / sizeof edges[0] ); im++ )
	{
		int64_t tm = im < 0 ? M : edges[im];
		if ( tm > M || ( im >= 0 && tm == M ) ) continue;
		for ( int in = -1; in < (int)( sizeof edges / sizeof edges[0] ); in++ )
		{
			int64_t tn = in < 0 ? N : edges[in];
			if ( tn > N || ( in >= 0 && tn == N ) ) continue;
			for ( int ik = -1; ik < (int)( sizeof edges / sizeof edges[0] ); ik++ )
			{
				int64_t k = ik < 0 ? kdim : edges[ik];
				if ( k > kdim || ( ik >= 0 && k == kdim ) ||
				     !hyb_tiles_fit( es, tm, tn, k, budget ) )
					continue;
				/* Blocks of A are tm x k, of B k x tn: no tiny ones unless the
				   operand itself is small. */
				double blk_a = (double)tm * (double)k * es, blk_b = (double)k * (double)tn * es;
				if ( !thin && ( ( blk_a < HYB_BLOCK_MIN_BYTES && tm * k < M * kdim ) ||
				                ( blk_b < HYB_BLOCK_MIN_BYTES && k * tn < kdim * N ) ) )
					continue;
				double t = hyb_cost_l3_gpu( p, a, M, N, tm, tn, k, ndev, budget, flags, NULL );
				if ( t < best ) best = t, *Tm = tm, *Tn = tn, *K = k;
			}
		}
	}
}

void hyb_policy_l3_tiles( const hyb_l3_args_t* a, const hyb_profile_t* p, int ndev, double budget,
                          int64_t tile, unsigned flags, int64_t* Tm, int64_t* Tn, int64_t* K )
{
	double es = (double)hyb_prec_size( a->prec );
	*Tm = *Tn = *K = 0;
	if ( a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM )
	{
		/* The triangle is resident; the other operand moves in panels of
		   about 64 MiB (larger panels only delay the pipeline's start). */
		int64_t dim   = a->side == 'L' ? a->m : a->n;
		int64_t other = a->side == 'L' ? a->n : a->m;
		int64_t t =
		    tile ? tile
		         : hyb_round_up( (int64_t)( HYB_TILE_MAX_BYTES / ( (double)dim * es ) ), 256 );
		if ( t > other ) t = other;
		double per  = a->op == HYB_OP_TRMM ? 2 : 1;
		double need = (double)dim * (double)dim * es + 3 * per * (double)dim * (double)t * es;
		if ( need > budget ) return;
		*Tm = a->side == 'L' ? a->m : t;
		*Tn = a->side == 'L' ? t : a->n;
		*K  = dim;
		return;
	}
	int     rank_k = hyb_op_is_rank_k( a->op );
	int64_t M = rank_k ? a->n : a->m, N = a->n;
	int64_t kdim =
	    a->op == HYB_OP_SYMM || a->op == HYB_OP_HEMM ? ( a->side == 'L' ? a->m : a->n ) : a->k;
	if ( tile )
	{
		/* The forced edge, halved until three tiles and two blocks fit. */
		int64_t tm = tile > M ? M : tile, tn = tile > N ? N : tile;
		if ( rank_k ) tn = tm;
		int64_t k = kdim < ( tm > tn ? tm : tn ) ? kdim : ( tm > tn ? tm : tn );
		if ( k < 1 ) k = 1;
		while ( !hyb_tiles_fit( es, tm, tn, k, budget ) && ( tm > 1 || tn > 1 ) )
		{
			tm = tm > 1 ? tm / 2 : 1;
			tn = rank_k ? tm : tn > 1 ? tn / 2 : 1;
			k  = k > 1 ? k / 2 : 1;
		}
		if ( hyb_tiles_fit( es, tm, tn, k, budget ) ) *Tm = tm, *Tn = tn, *K = k;
		return;
	}
	if ( a->op != HYB_OP_GEMM )
	{
		/* Square tiles with about eight of them at least (rank-k updates need
		   square tiles for their diagonal; symm builds its blocks from a
		   triangle column by column: square is as good as any). */
		double  mn = (double)M * (double)N;
		int64_t t  = mn >= 8.0 * 2048 * 2048 ? 2048 : mn >= 8.0 * 1024 * 1024 ? 1024 : 512;
		int64_t tm = t > M ? M : t, tn = rank_k ? tm : ( t > N ? N : t );
		int64_t k = kdim < t ? kdim : t;
		while ( !hyb_tiles_fit( es, tm, tn, k, budget ) && tm > 64 )
		{
			tm /= 2;
			tn = rank_k ? tm : ( tn > 64 ? tn / 2 : tn );
			k  = kdim < tm ? kdim : tm;
		}
		if ( hyb_tiles_fit( es, tm, tn, k, budget ) ) *Tm = tm, *Tn = tn, *K = k > 0 ? k : 1;
		return;
	}

	/* gemm: the cost model picks among tile shapes. Full-height tiles make
	   the A blocks and the output tiles contiguous copies; full-depth chunks
	   the B blocks; smaller tiles fill the pipeline sooner. A shallow product
	   (complex, k of a few dozen) may have no shape whose blocks reach the
	   floor within the tile's cap: then thin blocks are taken, as the
	   operands are thin themselves. */
	for ( int thin = 0; thin < 2 && *Tm == 0; thin++ )
		hyb_gemm_tiles( a, p, ndev, budget, flags, es, M, N, kdim, thin, Tm, Tn, K );
}

/* The device path on `nd` devices for the output's m_out rows into *plan
   (tiles, staging, t_gpu, ndev): 0 when its tiles do not fit the budget. */
static int hyb_l3_device_plan( const hyb_l3_args_t* a, int64_t m_out, const hyb_profile_t* q,
                               const hyb_l3_policy_in_t* in, double scale, int nd,
                               hyb_l3_plan_t* plan )
{
	unsigned host = plan->beta_host ? HYB_L3_BETA_HOST : 0;
	hyb_policy_l3_tiles( a, q, nd, in->budget, in->tile, host, &plan->Tm, &plan->Tn, &plan->K );
	if ( plan->Tm == 0 ) return 0;
	double t_copy = scale * hyb_cost_l3_gpu( q, a, m_out, a->n, plan->Tm, plan->Tn, plan->K, nd,
	                                         in->budget, host, NULL );
	double t_reg  = scale * hyb_cost_l3_gpu( q, a, m_out, a->n, plan->Tm, plan->Tn, plan->K, nd,
	                                         in->budget, host | HYB_L3_REGISTER, NULL );
	plan->register_ops = in->staging == HYB_STAGING_REGISTER ||
	                     ( in->staging == HYB_STAGING_AUTO && t_reg < t_copy );
	plan->t_gpu = plan->register_ops ? t_reg : t_copy;
	plan->ndev  = nd;
	return 1;
}

hyb_l3_plan_t hyb_policy_l3_choose( const hyb_l3_args_t* a, const hyb_profile_t* p,
                                    const hyb_l3_policy_in_t* in )
{
	hyb_l3_plan_t plan = { .path = HYB_PATH_CPU, .ndev = in->ndev };
	double        ab, c_in, c_out, flops;
	int64_t       m_out = hyb_op_is_rank_k( a->op ) ? a->n : a->m;
	hyb_l3_sizes( a, m_out, a->n, &ab, &c_in, &c_out, &flops );
	hyb_profile_t q = *p;
	if ( in->cpu_rate > 0 ) q.cpu_flops[a->prec] = in->cpu_rate;
	plan.t_cpu  = hyb_cost_l3_cpu( &q, a->prec, flops );
	plan.t_plan = plan.t_cpu;

	if ( in->mode == HYB_MODE_CPU ) return plan.why = "mode cpu", plan;
	if ( in->ndev < 1 ) return plan.why = "no device", plan;
	int below = in->mode == HYB_MODE_AUTO && flops < in->min_flops;
	if ( below && flops < HYB_L3_PROBE_MIN_FLOPS )
		return plan.why = "below HYBLAS_L3_MIN_FLOPS", plan;

	plan.beta_host = in->beta_host != 0;
	double scale   = in->gpu_scale > 0 ? in->gpu_scale : 1;
	/* The devices: in auto mode the count predicted fastest (a second device adds
	   its own staging copies of the shared operand panel to the host's, which
	   bound many calls: then it is left idle); forced, every selected one. */
	int lo     = in->mode == HYB_MODE_GPU ? in->ndev : 1;
	plan.t_gpu = INFINITY;
	for ( int nd = lo; nd <= in->ndev; nd++ )
	{
		hyb_l3_plan_t c = plan;
		if ( !hyb_l3_device_plan( a, m_out, &q, in, scale, nd, &c ) ) continue;
		if ( c.t_gpu < plan.t_gpu * HYB_L3_MORE_DEVICES ) plan = c; /* first fit: < inf */
	}
	if ( plan.Tm == 0 ) return plan.why = "does not fit the device budget", plan;
	unsigned flags = hyb_l3_plan_flags( &plan );

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
			hyb_cost_l3_gpu( &q, a, m_out, a->n, plan.Tm, plan.Tn, plan.K, plan.ndev, in->budget,
			                 flags, parts );
			double t0    = scale * parts[0];
			double t_var = plan.t_gpu - t0;
			double t_cpu = flops / q.cpu_flops[a->prec];
			share        = ( t0 + t_var ) / ( t_cpu + t_var );
			/* A CPU strip competes with the staging copies for host memory
			   bandwidth and cores (the seed's memory-bus contention): only a
			   device path bound by its products leaves room for it. */
			if ( share < q.min_cpu_share || parts[3] < parts[1] || parts[3] < parts[2] ) share = 0;
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
			double t_gpu_p = scale * hyb_cost_l3_gpu( &q, a, by_cols ? a->m : a->m - cut,
			                                          by_cols ? a->n - cut : a->n, plan.Tm, plan.Tn,
			                                          plan.K, plan.ndev, in->budget, flags, NULL );
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
	if ( below )
	{
		/* the CPU, with the device's prediction kept for the measured choice */
		plan.cpu_cols = plan.cpu_rows = 0;
		plan.why                      = "below HYBLAS_L3_MIN_FLOPS";
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

int hyb_policy_l3_worth_measuring( const hyb_l3_plan_t* plan )
{
	double lo = fmin( plan->t_cpu, plan->t_gpu ), hi = fmax( plan->t_cpu, plan->t_gpu );
	return plan->Tm > 0 && lo > 0 && isfinite( hi ) && hi < HYB_L3_PROBE_BAND * lo;
}

int hyb_policy_l3_measured_side( const hyb_l3_measured_t* m, int model_side )
{
	if ( m->settled ) return m->side;
	/* The model's side first, all its probes in a row, then the other's:
	   probes taken in turn put every CPU probe right after a device call,
	   and a CPU product there can run 10-15 % slower (measured at n = 256). */
	int first = model_side ? 1 : 0;
	return m->n[first] < HYB_L3_PROBE_CALLS ? first : !first;
}

/* Median of n <= HYB_L3_MEDIAN_MAX times (the mean of the middle two for even n). */
#define HYB_L3_MEDIAN_MAX 8
_Static_assert( HYB_L3_PROBE_CALLS <= HYB_L3_MEDIAN_MAX && HYB_L3_WATCH_CALLS <= HYB_L3_MEDIAN_MAX,
                "hyb_l3_median sorts a copy of at most HYB_L3_MEDIAN_MAX times" );
static double hyb_l3_median( const double* t, int n )
{
	double s[HYB_L3_MEDIAN_MAX];
	memcpy( s, t, (size_t)n * sizeof *s );
	for ( int i = 1; i < n; i++ )
		for ( int j = i; j > 0 && s[j] < s[j - 1]; j-- )
		{
			double x = s[j];
			s[j]     = s[j - 1];
			s[j - 1] = x;
		}
	return n % 2 ? s[n / 2] : 0.5 * ( s[n / 2 - 1] + s[n / 2] );
}

void hyb_policy_l3_measured_note( hyb_l3_measured_t* m, int side, double seconds )
{
	if ( side < 0 || side > 1 || !( seconds > 0 ) || !isfinite( seconds ) ) return;
	if ( m->settled )
	{
		if ( side != m->side ) return;
		m->watch[m->nwatch++ % HYB_L3_WATCH_CALLS] = seconds;
		int confirm = !m->confirmed && m->nwatch >= HYB_L3_CONFIRM_CALLS;
		if ( !confirm )
		{
			if ( m->nwatch < HYB_L3_WATCH_CALLS || m->reprobes >= HYB_L3_REPROBES ) return;
			if ( hyb_l3_median( m->watch, HYB_L3_WATCH_CALLS ) <= HYB_L3_RECHECK * m->mid[!side] )
				return;
		}
		/* probe again: the confirming round (once), or the settled side slowed */
		int reprobes = m->reprobes + !confirm, confirmed = m->confirmed | confirm;
		memset( m, 0, sizeof *m );
		m->reprobes  = reprobes;
		m->confirmed = confirmed;
		return;
	}
	if ( m->n[side] >= HYB_L3_PROBE_CALLS ) return;
	m->probe[side][m->n[side]++] = seconds;
	if ( m->n[0] < HYB_L3_PROBE_CALLS || m->n[1] < HYB_L3_PROBE_CALLS ) return;
	for ( int s = 0; s < 2; s++ ) m->mid[s] = hyb_l3_median( m->probe[s], HYB_L3_PROBE_CALLS );
	m->settled = 1;
	m->side    = m->mid[1] < m->mid[0] ? 1 : 0;
}

hyb_l3_plan_t hyb_policy_l3_measured_plan( const hyb_l3_plan_t* plan, int side, int settled )
{
	hyb_l3_plan_t o = *plan;
	if ( side != ( plan->path != HYB_PATH_CPU ) )
	{
		o.cpu_cols = o.cpu_rows = 0;
		o.path                  = side ? HYB_PATH_GPU : HYB_PATH_CPU;
		o.t_plan                = side ? plan->t_gpu : plan->t_cpu;
	}
	/* A probe of the model's own side is a probe too (a measured trace called
	   such CPU probes "below HYBLAS_L3_MIN_FLOPS"). */
	if ( settled )
		o.why = side ? "measured: the device is faster for this shape"
		             : "measured: the CPU is faster for this shape";
	else
		o.why = side ? "probe: timing the device" : "probe: timing the CPU";
	return o;
}

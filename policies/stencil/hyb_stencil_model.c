/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil cost model and planner (docs/stencil.md, "The model"). The
   byte counts are the schedule's (kernels/stencil/hyb_stencil_sched.c) in
   closed form; the unit suite checks the two against each other. */
#include "policies/stencil/hyb_stencil_model.h"

#include <stdio.h>
#include <string.h>

enum
{
	HYB_SM_IN_CORE = 1,
	HYB_SM_COPY    = 2,
	HYB_SM_DIRECT  = 3,
	HYB_SM_SHARED  = 4
};

const char* hyb_stencil_scheme_name( int32_t scheme )
{
	static const char* const names[] = {
		[HYB_SM_IN_CORE] = "in-core",
		[HYB_SM_COPY]    = "copy",
		[HYB_SM_DIRECT]  = "direct",
		[HYB_SM_SHARED]  = "shared",
	};
	return (uint32_t)scheme < sizeof names / sizeof names[0] && names[scheme] ? names[scheme] : "?";
}

static int64_t hyb_sm_min( int64_t a, int64_t b )
{
	return a < b ? a : b;
}

static double hyb_sm_max( double a, double b )
{
	return a > b ? a : b;
}

/* Device memory of the Himeno residual: n per-plane sums and, per slot, one
   partial sum per 32 x 8 tile and plane (over-estimated per point). */
static double hyb_sm_residual_bytes( const hyb_stencil_work_t* w, int64_t slots, int64_t planes )
{
	if ( !w->residual ) return 0.0;
	return 8.0 * ( (double)w->n +
	               (double)slots * (double)planes * ( (double)w->plane_elems / 256.0 + 1.0 ) );
}

/* Per temporal block of kb steps with d chunks: planes uploaded, copied on
   the device and computed (one array's planes). The halo moved is h * kb
   rounded up to the alignment; the halo computed is h * kb. */
static void hyb_sm_block( const hyb_stencil_work_t* w, int32_t scheme, int64_t d, int64_t kb,
                          double* up, double* d2d, double* comp )
{
	const int64_t a    = w->align > 1 ? w->align : 1;
	const double  hk   = (double)( ( (int64_t)w->h * kb + a - 1 ) / a * a );
	const double  halo = 2.0 * hk * (double)( d - 1 );
	*up                = (double)w->n + ( scheme == HYB_SM_SHARED ? 0.0 : halo );
	*d2d               = scheme == HYB_SM_SHARED ? halo : 0.0;
	*comp              = (double)kb * (double)w->n +
	        (double)w->h * (double)kb * (double)( kb - 1 ) * (double)( d - 1 );
}

/* The planes of the largest chunk buffer: the first chunk has no halo
   above, the last none below (chunks ordered longest first). Chunks are
   whole bands of `a` planes (the last one shorter), as the schedule cuts
   them. */
static int64_t hyb_sm_slot_planes( int64_t n, int64_t d, int64_t hk, int64_t a )
{
	if ( d == 1 ) return n;
	const int64_t bands = ( n + a - 1 ) / a;
	const int64_t q = bands / d, r = bands % d;
	const int64_t first = ( q + ( r > 0 ) ) * a + hk;
	const int64_t mid   = d > 2 ? ( q + ( r > 1 ) ) * a + 2 * hk : 0;
	return first > mid ? first : mid;
}

/* Device bytes of the stream buffers of compressed pieces of S slots: a
   ring of zfp_ring per copy stream and for the download lane, one per
   compute stream. */
static double hyb_sm_stream_buffers( const hyb_stencil_work_t* w, int64_t S, int64_t slot_planes )
{
	if ( !w->zfp ) return 0.0;
	const double band  = 4.0 * w->zfp_plane_bytes;
	const double piece = w->zfp_piece_bytes > band ? w->zfp_piece_bytes : band;
	const double range = (double)( slot_planes + 3 ) * w->zfp_plane_bytes;
	const double ring  = w->zfp_ring > 1 ? (double)w->zfp_ring : 1.0;
	return ( (double)S * ( ring + 1.0 ) + ring ) * ( piece < range ? piece : range );
}

/* The shallowest chunk of that cut: the last one. */
static int64_t hyb_sm_least_chunk( int64_t n, int64_t d, int64_t a )
{
	const int64_t bands = ( n + a - 1 ) / a;
	return bands / d * a - ( bands * a - n );
}

/* Quantities of w (at least one). */
static int hyb_sm_quants( const hyb_stencil_work_t* w )
{
	return w->quants > 1 ? w->quants : 1;
}

/* Arrays a chunk visit downloads (every quantity's newest level, and with
   two inputs the older one) and uploads (every quantity's inputs and the
   read-only fields), and the device arrays of a slot. */
static int hyb_sm_outs( const hyb_stencil_work_t* w )
{
	return ( w->inputs == 2 ? 2 : 1 ) * hyb_sm_quants( w );
}

static int hyb_sm_ins( const hyb_stencil_work_t* w )
{
	return w->inputs * hyb_sm_quants( w ) + w->ncoef;
}

static int hyb_sm_arrays( const hyb_stencil_work_t* w )
{
	return w->levels * hyb_sm_quants( w ) + w->ncoef;
}

static void hyb_sm_in_core( const hyb_stencil_work_t* w, const hyb_stencil_machine_t* m,
                            hyb_stencil_pred_t* o )
{
	const double pb   = (double)w->plane_elems * (double)w->elem_bytes;
	const double n    = (double)w->n;
	const int    outs = hyb_sm_outs( w );
	o->nslots         = 1;
	o->slot_planes    = w->n;
	o->blocks         = w->steps > 0;
	o->device_bytes   = (double)hyb_sm_arrays( w ) * n * pb + hyb_sm_residual_bytes( w, 1, w->n );
	if ( w->steps == 0 ) return;
	const double T = (double)w->steps, C = (double)( w->steps < o->d ? w->steps : o->d );
	o->bytes_h2d       = (double)hyb_sm_ins( w ) * n * pb;
	o->bytes_d2h       = outs * n * pb;
	o->bytes_host      = outs * n * pb;
	o->planes_computed = T * n;
	const double up    = o->pinned ? m->h2d : m->h2d_pageable,
	             dn    = o->pinned ? m->d2h : m->d2h_pageable;
	const double step =
	    n * (double)w->plane_elems * w->dev_elems * (double)w->elem_bytes / m->dev_bw;
	const double launches = C * (double)o->d + ( T - C ) + ( T > C ? (double)o->d : 0.0 ) +
	                        (double)( hyb_sm_ins( w ) + outs ) * (double)o->d;
	o->t_h2d    = o->bytes_h2d / up;
	o->t_d2h    = o->bytes_d2h / dn;
	o->t_kernel = T * step + launches * m->launch;
	o->t_host   = o->bytes_host / m->host_copy;
	/* The schedule lets the first C steps run piece by piece behind the
	   upload, but measured in-core runs do not overlap them: upload, steps,
	   download and placement add up (docs/stencil.md, "The model").
	   Counting on the overlap makes in core look faster than region
	   sharing where it is slower. */
	o->seconds = o->t_h2d + T * step + o->t_d2h + o->t_host + launches * m->launch;
}

static int hyb_sm_out_of_core( const hyb_stencil_work_t* w, const hyb_stencil_machine_t* m,
                               hyb_stencil_pred_t* o )
{
	const int64_t d = o->d, T = w->steps;
	if ( o->k < 1 ) return 0;
	const int64_t keff = T > 0 && T < o->k ? T : o->k;
	const int64_t a    = w->align > 1 ? w->align : 1;
	const int64_t hk   = ( (int64_t)w->h * keff + a - 1 ) / a * a;
	if ( a > 1 && d > ( w->n + a - 1 ) / a ) return 0;
	if ( d > 1 && hyb_sm_least_chunk( w->n, d, a ) < hk ) return 0;
	const double pb    = (double)w->plane_elems * (double)w->elem_bytes;
	const double n     = (double)w->n;
	const int    outs  = hyb_sm_outs( w );
	const int    in_ar = hyb_sm_ins( w );
	o->slot_planes     = hyb_sm_slot_planes( w->n, d, hk, a );
	/* As many slots as allowed and the budget holds, down to the seed's 3. */
	const int64_t smax  = m->slots_max > 0 ? m->slots_max : 3;
	const int64_t least = hyb_sm_min( d, 3 );
	for ( int64_t S = hyb_sm_min( d, smax > 3 ? smax : 3 ); S >= least; S-- )
	{
		o->nslots       = (int32_t)S;
		o->device_bytes = (double)S * (double)hyb_sm_arrays( w ) * (double)o->slot_planes * pb +
		                  hyb_sm_residual_bytes( w, S, o->slot_planes ) +
		                  hyb_sm_stream_buffers( w, S, o->slot_planes );
		if ( o->device_bytes <= m->dev_mem ) break;
	}
	o->blocks = T > 0 ? ( T + keff - 1 ) / keff : 0;
	if ( o->blocks == 0 ) return 1;
	const int64_t klast = T - ( o->blocks - 1 ) * keff;
	double        up, d2d, comp, up1, d2d1, comp1;
	hyb_sm_block( w, o->scheme, d, keff, &up, &d2d, &comp );
	hyb_sm_block( w, o->scheme, d, klast, &up1, &d2d1, &comp1 );
	const double B   = (double)o->blocks;
	up               = ( B - 1.0 ) * up + up1;
	d2d              = ( B - 1.0 ) * d2d + d2d1;
	comp             = ( B - 1.0 ) * comp + comp1;
	const double rin = w->zfp ? w->ratio_in : 1.0, rout = w->zfp ? w->ratio_out : 1.0;
	o->bytes_h2d = up * in_ar * pb * rin;
	o->bytes_d2d = d2d * in_ar * pb;
	o->bytes_d2h = B * n * outs * pb * rout;
	if ( w->zfp )
	{
		o->bytes_h2d += w->zfp_ends_extra;
		o->bytes_d2h += w->zfp_ends_extra;
	}
	o->planes_computed = comp;
	/* Host copies, copying only: staging in and out, the older acoustic
	   level, and the final placement after an odd number of blocks. The
	   other schemes download those levels straight from their slots into
	   place (hyb_stencil_sched_in_t.restartable 0, as the engine builds
	   them). */
	double       host   = 0.0;
	const double q      = (double)hyb_sm_quants( w );
	const double final  = o->scheme == HYB_SM_COPY && o->blocks % 2 == 1 ? q * n * pb : 0.0;
	const double staged = o->scheme == HYB_SM_COPY ? ( up * in_ar + B * n * q ) * pb : 0.0;
	if ( w->inputs == 2 && o->scheme == HYB_SM_COPY ) host += B * n * q;
	o->bytes_host = staged + host * pb + final;

	const double up_bw    = o->pinned ? m->h2d : m->h2d_pageable,
	             dn_bw    = o->pinned ? m->d2h : m->d2h_pageable;
	o->t_h2d              = o->bytes_h2d / up_bw;
	o->t_d2h              = o->bytes_d2h / dn_bw;
	o->t_d2d              = o->bytes_d2d / m->d2d;
	const double stage_bw = m->stage_copy > 0.0 ? m->stage_copy : m->host_copy;
	o->t_host             = staged / stage_bw + ( o->bytes_host - staged ) / m->host_copy;
	/* The copying scheme's staging, page-locked when first needed: a
	   staging-in and a staging-out buffer of a slot's planes per slot. */
	if ( o->scheme == HYB_SM_COPY && !w->registered )
		o->t_register += m->stage_lock_s_per_byte * (double)o->nslots * (double)o->slot_planes *
		                 (double)( hyb_sm_ins( w ) + outs ) * pb;
	const double copies_per_visit =
	    (double)in_ar * ( o->scheme == HYB_SM_SHARED ? 2.0 : 1.0 ) + outs;
	const double launches = B * (double)d * copies_per_visit + (double)T * (double)d;
	o->t_kernel = comp * (double)w->plane_elems * w->dev_elems * (double)w->elem_bytes / m->dev_bw +
	              launches * m->launch;
	/* The codec decodes what is uploaded compressed and encodes what is
	   downloaded compressed (bytes of the values, at the codec's rate),
	   sharing the device with the kernels. */
	if ( w->zfp && m->codec > 0.0 )
		o->t_kernel += ( up * in_ar * w->coded_in + B * n * outs * w->coded_out ) * pb / m->codec;
	/* Page-locked copies overlap each other and the kernels; pageable ones
	   are synchronous and add up. */
	const double xfer   = o->pinned ? hyb_sm_max( hyb_sm_max( o->t_h2d, o->t_d2h ),
	                                              ( o->bytes_h2d + o->bytes_d2h ) / m->bidir )
	                                : o->t_h2d + o->t_d2h;
	const double device = o->t_kernel + o->t_d2d;
	/* A chunk holds its slot from its upload through its steps to the end
	   of its download, while the other slots' transfers share the bus: the
	   pipeline turns over about once per (up + steps + down) / 2 with 3
	   slots, fitted to the H200's uncompressed runs (docs/stencil.md,
	   "Slots"); a fourth slot measured no faster, so it counts as 3. */
	const double visits = B * (double)d;
	const int    reuse  = visits > (double)o->nslots;
	const double cycle =
	    ( ( o->pinned ? o->t_h2d + o->t_d2h : 0.0 ) + device ) / (double)( o->nslots > 2 ? 2 : 1 );
	const double steady = hyb_sm_max( hyb_sm_max( hyb_sm_max( xfer, device ), reuse ? cycle : 0.0 ),
	                                  o->t_host - final / m->host_copy );
	/* One chunk's upload, compute and download do not overlap anything. Where every
	   chunk has a slot of its own (one block of at most as many chunks as slots), no
	   chunk waits for a slot and the run is a three-stage flow: the busiest stage's time
	   plus one chunk's share of the other two (measured on an H200: d 3 k 36 of the
	   acoustic 1160^3 0.71 s, d 6 k 36 0.84 s; charged the slot cycle, d 3 would look
	   the slower). */
	const double stages = o->t_h2d + o->t_d2h + device;
	const double fill =
	    ( reuse ? stages : stages - hyb_sm_max( hyb_sm_max( o->t_h2d, o->t_d2h ), device ) ) /
	    visits;
	o->seconds = steady + fill + final / m->host_copy;
	/* A compressed run's two ends: the filled arrays cross up as values
	   (their compressed bytes come down beside), the stored ones down. */
	if ( w->zfp )
		o->seconds += (double)w->zfp_fill_arrays * n * pb / up_bw +
		              (double)w->zfp_store_arrays * n * pb / dn_bw;
	return 1;
}

int hyb_stencil_predict( const hyb_stencil_work_t* w, const hyb_stencil_machine_t* m,
                         int32_t scheme, int32_t d, int32_t k, hyb_stencil_pred_t* out )
{
	memset( out, 0, sizeof *out );
	out->scheme = scheme;
	out->d      = d;
	out->k      = scheme == HYB_SM_IN_CORE ? (int32_t)( w->steps > 0 ? w->steps : 1 ) : k;
	if ( d < 1 || (int64_t)d > w->n || scheme < HYB_SM_IN_CORE || scheme > HYB_SM_SHARED ) return 0;
	/* Copying always DMAs from its own page-locked buffers; the others from
	   the caller's arrays, page-locked if they are or may be made so. */
	out->pinned = scheme == HYB_SM_COPY || w->host_pinned || !w->no_register;
	if ( scheme != HYB_SM_COPY && out->pinned && !w->host_pinned && !w->registered )
		out->t_register = m->register_s_per_byte * (double)w->nfields * (double)w->n *
		                  (double)w->plane_elems * (double)w->elem_bytes;
	/* A handle's first device run page-locks its compressed arrays too
	   (the handle keeps them so). */
	if ( !w->registered ) out->t_register += m->register_s_per_byte * w->zfp_bytes;
	if ( scheme == HYB_SM_IN_CORE )
		hyb_sm_in_core( w, m, out );
	else if ( !hyb_sm_out_of_core( w, m, out ) )
		return 0;
	out->seconds += out->t_register;
	out->feasible = out->device_bytes <= m->dev_mem;
	return out->feasible;
}

double hyb_stencil_predict_cpu( const hyb_stencil_work_t* w, const hyb_stencil_machine_t* m )
{
	const double field = (double)w->n * (double)w->plane_elems * (double)w->elem_bytes;
	const double sweep = field * w->cpu_elems / m->cpu_bw;
	/* Up to (levels - 1) copies of each quantity's field into place, each
	   read and written. */
	return (double)w->steps * sweep +
	       ( w->steps > 0
	             ? (double)( ( w->levels - 1 ) * hyb_sm_quants( w ) ) * 2.0 * field / m->cpu_bw
	             : 0.0 );
}

/* ------------------------------------------------------------------ search */

/* Candidates 1 .. max: every value up to 64, then 8 % steps, and max. */
static int hyb_sm_grid( int64_t max, int32_t* out, int cap )
{
	int     n = 0;
	int64_t v = 1;
	while ( v <= max && n < cap - 1 )
	{
		out[n++] = (int32_t)v;
		v        = v < 64 ? v + 1 : ( v * 108 + 99 ) / 100;
	}
	if ( n == 0 || out[n - 1] != max ) out[n++] = (int32_t)max;
	return n;
}

/* Keep p if it beats *best (feasible first, then time). */
static void hyb_sm_keep( const hyb_stencil_pred_t* p, hyb_stencil_pred_t* best, int* have )
{
	if ( !*have || p->seconds < best->seconds )
	{
		*best = *p;
		*have = 1;
	}
}

/* The best (d, k) of one out-of-core scheme. */
static int hyb_sm_search( const hyb_stencil_work_t* w, const hyb_stencil_machine_t* m,
                          int32_t scheme, int32_t d_fix, int32_t k_fix, hyb_stencil_pred_t* best,
                          hyb_stencil_pred_t* smallest, int* have_small )
{
	int32_t            dg[512], kg[512];
	int                have = 0;
	hyb_stencil_pred_t p;
	const int64_t      dmax = w->n / ( w->h > 0 ? w->h : 1 ) > 0 ? w->n / w->h : 1;
	const int          nd   = d_fix ? ( dg[0] = d_fix, 1 ) : hyb_sm_grid( dmax, dg, 512 );
	for ( int a = 0; a < nd; a++ )
	{
		const int64_t kmax = w->steps < 1 ? 1 : dg[a] == 1 ? w->steps : w->n / dg[a] / w->h;
		if ( kmax < 1 && !k_fix ) continue;
		const int nk = k_fix ? ( kg[0] = k_fix, 1 )
		                     : hyb_sm_grid( kmax < w->steps ? kmax : w->steps, kg, 512 );
		for ( int b = 0; b < nk; b++ )
		{
			const int ok = hyb_stencil_predict( w, m, scheme, dg[a], kg[b], &p );
			if ( p.slot_planes > 0 && ( !*have_small || p.device_bytes < smallest->device_bytes ) )
			{
				*smallest   = p;
				*have_small = 1;
			}
			if ( ok ) hyb_sm_keep( &p, best, &have );
		}
	}
	if ( !have || ( d_fix && k_fix ) ) return have;
	/* Every value within 8 % of the best of the grid. */
	const hyb_stencil_pred_t g = *best;
	const int64_t d0 = d_fix ? d_fix : g.d - g.d / 12 - 1, d1 = d_fix ? d_fix : g.d + g.d / 12 + 1;
	const int64_t k0 = k_fix ? k_fix : g.k - g.k / 12 - 1, k1 = k_fix ? k_fix : g.k + g.k / 12 + 1;
	for ( int64_t dd = d0 < 1 ? 1 : d0; dd <= d1; dd++ )
		for ( int64_t kk = k0 < 1 ? 1 : k0; kk <= k1; kk++ )
			if ( hyb_stencil_predict( w, m, scheme, (int32_t)dd, (int32_t)kk, &p ) )
				hyb_sm_keep( &p, best, &have );
	return have;
}

int hyb_stencil_choose( const hyb_stencil_work_t* w, const hyb_stencil_machine_t* m, int32_t scheme,
                        int32_t d, int32_t k, hyb_stencil_pred_t* best, char* why, size_t whylen )
{
	hyb_stencil_pred_t each[5], smallest;
	int                have[5] = { 0 }, have_small = 0, found = 0;
	memset( &smallest, 0, sizeof smallest );
	for ( int32_t s = HYB_SM_IN_CORE; s <= HYB_SM_SHARED; s++ )
	{
		if ( scheme && s != scheme ) continue;
		/* Compressed fields move through the direct and shared schemes only. */
		if ( w->zfp && s != HYB_SM_DIRECT && s != HYB_SM_SHARED ) continue;
		/* A given d or k asks for chunks and blocks: out of core. */
		if ( s == HYB_SM_IN_CORE && !scheme && ( d || k ) ) continue;
		if ( s == HYB_SM_IN_CORE )
		{
			/* Pieces of the first upload: a few sizes (k means nothing here). */
			const int32_t pieces[] = { 1, 4, 8, 16, 32 };
			for ( int i = 0; i < 5; i++ )
			{
				const int32_t      pc = d ? d : pieces[i];
				hyb_stencil_pred_t p;
				if ( pc > w->n ) continue;
				const int ok = hyb_stencil_predict( w, m, s, pc, 0, &p );
				if ( !have_small || p.device_bytes < smallest.device_bytes )
				{
					smallest   = p;
					have_small = 1;
				}
				if ( ok ) hyb_sm_keep( &p, &each[s], &have[s] );
				if ( d ) break;
			}
		}
		else
			have[s] = hyb_sm_search( w, m, s, d, k, &each[s], &smallest, &have_small );
		if ( have[s] && ( !found || each[s].seconds < best->seconds ) )
		{
			*best = each[s];
			found = 1;
		}
	}
	size_t used = 0;
	if ( found )
	{
		used = (size_t)snprintf( why, whylen,
		                         "%s d=%d k=%d slots=%d: %.3g s predicted, %.3g GB of %.3g GB "
		                         "device memory",
		                         hyb_stencil_scheme_name( best->scheme ), best->d, best->k,
		                         best->nslots, best->seconds, best->device_bytes * 1e-9,
		                         m->dev_mem * 1e-9 );
		/* Planes computed over those of T steps: the overlapped tiling's
		   redundant halo work, which bounds the run from below beside the
		   bus. */
		const double once = (double)w->steps * (double)w->n;
		if ( once > 0.0 && used < whylen )
			used +=
			    (size_t)snprintf( why + used, whylen - used, ", %.3gx the steps' planes computed",
			                      best->planes_computed / once );
	}
	else
	{
		if ( have_small ) *best = smallest;
		used = (size_t)snprintf(
		    why, whylen, "no plan fits: the smallest needs %.3g GB, the budget is %.3g GB",
		    have_small ? smallest.device_bytes * 1e-9 : 0.0, m->dev_mem * 1e-9 );
	}
	for ( int32_t s = HYB_SM_IN_CORE; s <= HYB_SM_SHARED && found && used < whylen; s++ )
	{
		if ( ( scheme && s != scheme ) || s == best->scheme ||
		     ( w->zfp && s != HYB_SM_DIRECT && s != HYB_SM_SHARED ) ||
		     ( s == HYB_SM_IN_CORE && !scheme && ( d || k ) ) )
			continue;
		if ( have[s] )
			used += (size_t)snprintf( why + used, whylen - used, "; %s %.3g s",
			                          hyb_stencil_scheme_name( s ), each[s].seconds );
		else
			used += (size_t)snprintf( why + used, whylen - used, "; %s does not fit",
			                          hyb_stencil_scheme_name( s ) );
	}
	return found;
}

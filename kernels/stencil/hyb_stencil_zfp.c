/* SPDX-License-Identifier: BSD-3-Clause */
/* Compressed fields of a stencil problem: rates, whole-field streams in
   bands, the CPU path's round trips and the sampled error. */
#include "kernels/stencil/hyb_stencil_zfp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/stencil/hyb_stencil_cpurun.h"
#include "kernels/zfp/hyb_zfp_cpu.h"
#include "kernels/zfp/hyb_zfp_host.h"
#include "kernels/zfp/hyb_zfp_stage.h"

hyb_zfp_field_t hyb_stencil_zfp_field( const hyb_stencil_prob_t* p )
{
	const hyb_zfp_type_t t = p->elem == HYB_STENCIL_F64 ? HYB_ZFP_DOUBLE : HYB_ZFP_FLOAT;
	return p->dims == 3 ? hyb_zfp_field_3d( t, p->nx, p->ny, p->nz )
	                    : hyb_zfp_field_2d( t, p->nx, p->nz );
}

double hyb_stencil_state_rate( const hyb_stencil_prob_t* p, int q )
{
	hyb_stencil_roles_t r;
	if ( !hyb_stencil_roles( p->kind, &r ) || q < 0 || q >= r.quants ) return 0.0;
	return p->rate[hyb_stencil_state_role( &r, q, 0 )];
}

int hyb_stencil_compressed( const hyb_stencil_prob_t* p )
{
	for ( int32_t f = 0; f < p->nfields; f++ )
		if ( p->rate[f] != 0.0 ) return 1;
	return 0;
}

int hyb_stencil_zfp_fused( const hyb_stencil_prob_t* p )
{
	hyb_stencil_roles_t r;
	return hyb_stencil_compressed( p ) && hyb_stencil_roles( p->kind, &r ) && r.inputs == 1;
}

hyb_status_t hyb_stencil_zfp_check( const hyb_stencil_prob_t* p )
{
	hyb_stencil_roles_t r;
	if ( !hyb_stencil_roles( p->kind, &r ) ) return HYB_E_INVALID;
	const hyb_zfp_field_t whole = hyb_stencil_zfp_field( p );
	/* A band of 4 planes: its stream must end on a byte so that the next
	   band's stream can be copied and decoded on its own. */
	const hyb_zfp_field_t band =
	    whole.dims == 3 ? hyb_zfp_field_3d( whole.type, whole.nx, whole.ny, HYB_STENCIL_ZFP_ALIGN )
	                    : hyb_zfp_field_2d( whole.type, whole.nx, HYB_STENCIL_ZFP_ALIGN );
	for ( int32_t f = 0; f < p->nfields; f++ )
	{
		const double rate = p->rate[f];
		if ( rate == 0.0 ) continue;
		if ( hyb_zfp_check( &whole, rate ) != HYB_OK ) return HYB_E_INVALID;
		if ( hyb_zfp_stream_bits( &band, rate ) % 8u != 0 ) return HYB_E_INVALID;
	}
	/* A quantity's time levels rotate through its state arrays: one rate
	   for all of them (quantities may differ). */
	for ( int q = 0; q < r.quants; q++ )
		for ( int j = 1; j < r.nstate; j++ )
		{
			const double rj = p->rate[hyb_stencil_state_role( &r, q, j )];
			const double r0 = p->rate[hyb_stencil_state_role( &r, q, 0 )];
			if ( rj != r0 && !( j == r.inputs && rj == 0.0 ) ) return HYB_E_INVALID;
		}
	return HYB_OK;
}

/* ------------------------------------------------------------ whole-field streams */

size_t hyb_stencil_zarr_room( const hyb_stencil_prob_t* p, double rate )
{
	const hyb_zfp_field_t f = hyb_stencil_zfp_field( p );
	if ( hyb_zfp_check( &f, rate ) != HYB_OK ) return 0;
	/* Rounded up to 8, and a word more: the codec works on whole 64-bit
	   words. */
	return ( hyb_zfp_stream_bytes( &f, rate ) + 15u ) & ~(size_t)7u;
}

hyb_status_t hyb_stencil_zarr_init( hyb_stencil_zarr_t* z, const hyb_stencil_prob_t* p, double rate,
                                    void* at )
{
	memset( z, 0, sizeof *z );
	const hyb_zfp_field_t f = hyb_stencil_zfp_field( p );
	if ( hyb_zfp_check( &f, rate ) != HYB_OK ) return HYB_E_INVALID;
	hyb_stencil_zarr_t a;
	a.f          = f;
	a.rate       = rate;
	a.bytes      = hyb_zfp_stream_bytes( &f, rate );
	a.band_bytes = hyb_stencil_zarr_bytes( &a, 0, HYB_STENCIL_ZFP_ALIGN );
	a.owned      = at == NULL;
	a.data       = at ? at : malloc( hyb_stencil_zarr_room( p, rate ) );
	if ( a.data == NULL ) return HYB_E_NO_MEMORY;
	*z = a;
	return HYB_OK;
}

void hyb_stencil_zarr_free( hyb_stencil_zarr_t* z )
{
	if ( z == NULL ) return;
	if ( z->owned ) free( z->data );
	memset( z, 0, sizeof *z );
}

hyb_zfp_field_t hyb_stencil_zarr_slab( const hyb_stencil_zarr_t* z, int64_t z0, int64_t z1 )
{
	return hyb_zfp_slab( &z->f, z0, z1 );
}

size_t hyb_stencil_zarr_offset( const hyb_stencil_zarr_t* z, int64_t z0 )
{
	return (size_t)( z0 / HYB_STENCIL_ZFP_ALIGN ) * z->band_bytes;
}

size_t hyb_stencil_zarr_bytes( const hyb_stencil_zarr_t* z, int64_t z0, int64_t z1 )
{
	const hyb_zfp_field_t s = hyb_stencil_zarr_slab( z, z0, z1 );
	return hyb_zfp_stream_bytes( &s, z->rate );
}

int64_t hyb_stencil_zarr_piece( const hyb_stencil_zarr_t* z, int64_t limit )
{
	const size_t most  = limit > 0 ? (size_t)limit : HYB_STENCIL_ZFP_PIECE_BYTES;
	const size_t bands = z->band_bytes > 0 ? most / z->band_bytes : 1;
	return (int64_t)( bands > 0 ? bands : 1 ) * HYB_STENCIL_ZFP_ALIGN;
}

hyb_status_t hyb_stencil_zarr_put( hyb_stencil_zarr_t* z, const void* values )
{
	return hyb_zfp_host_encode( &z->f, z->rate, values, z->data, z->bytes );
}

hyb_status_t hyb_stencil_zarr_get( const hyb_stencil_zarr_t* z, void* values )
{
	return hyb_zfp_host_decode( &z->f, z->rate, z->data, z->bytes, values );
}

/* The round trip through `s` (at least the stream's bytes, 8-byte
   aligned). libzfp is the CPU codec; where it cannot be opened or fails
   (its stream objects are allocated), the host codec writes and reads the
   same bits and allocates nothing. */
static hyb_status_t hyb_szf_trip( const hyb_zfp_field_t* f, double rate, void* values, void* s,
                                  size_t bytes )
{
	const int    lib = hyb_zfp_cpu_available();
	hyb_status_t st  = lib ? hyb_zfp_cpu_encode( f, rate, values, s, bytes ) : HYB_E_NOT_SUPPORTED;
	if ( st != HYB_OK ) st = hyb_zfp_host_encode( f, rate, values, s, bytes );
	if ( st != HYB_OK ) return st;
	st = lib ? hyb_zfp_cpu_decode( f, rate, s, bytes, values ) : HYB_E_NOT_SUPPORTED;
	if ( st != HYB_OK ) st = hyb_zfp_host_decode( f, rate, s, bytes, values );
	return st;
}

/* Bytes of a scratch stream for any rate of `p` (0 when none). */
static size_t hyb_szf_scratch_bytes( const hyb_stencil_prob_t* p )
{
	const hyb_zfp_field_t f    = hyb_stencil_zfp_field( p );
	size_t                most = 0;
	for ( int32_t i = 0; i < p->nfields; i++ )
	{
		const size_t b = p->rate[i] != 0.0 ? hyb_zfp_stream_bytes( &f, p->rate[i] ) : 0;
		if ( b > most ) most = b;
	}
	return ( most + 15u ) & ~(size_t)7u;
}

hyb_status_t hyb_stencil_zfp_round_trip( const hyb_stencil_prob_t* p, double rate, void* values )
{
	const hyb_zfp_field_t f     = hyb_stencil_zfp_field( p );
	const size_t          bytes = hyb_zfp_stream_bytes( &f, rate );
	if ( hyb_zfp_check( &f, rate ) != HYB_OK ) return HYB_E_INVALID;
	void* s = malloc( ( bytes + 15u ) & ~(size_t)7u );
	if ( s == NULL ) return HYB_E_NO_MEMORY;
	const hyb_status_t st = hyb_szf_trip( &f, rate, values, s, bytes );
	free( s );
	return st;
}

/* ------------------------------------------------------------ the CPU path */

/* The input levels of q round tripped in place through `s` (none of a
   quantity whose state is not compressed). */
static hyb_status_t hyb_szf_trip_state( const hyb_stencil_prob_t* q, const hyb_stencil_roles_t* r,
                                        void* s )
{
	const hyb_zfp_field_t f  = hyb_stencil_zfp_field( q );
	hyb_status_t          st = HYB_OK;
	for ( int qu = 0; qu < r->quants && st == HYB_OK; qu++ )
	{
		const double rate = hyb_stencil_state_rate( q, qu );
		for ( int j = 0; rate != 0.0 && j < r->inputs && st == HYB_OK; j++ )
			st = hyb_szf_trip( &f, rate, q->field[hyb_stencil_state_role( r, qu, j )], s,
			                   hyb_zfp_stream_bytes( &f, rate ) );
	}
	return st;
}

hyb_status_t hyb_stencil_cpu_run_lossy( const hyb_stencil_prob_t* p, int64_t steps, int32_t k,
                                        int64_t every, int nthreads, double* residual,
                                        hyb_stencil_check_fn cb, void* ctx )
{
	hyb_stencil_roles_t r;
	if ( p == NULL || steps < 0 || !hyb_stencil_roles( p->kind, &r ) ) return HYB_E_INVALID;
	const int64_t span = every > 0 ? every : steps;
	if ( !hyb_stencil_compressed( p ) || steps == 0 )
	{
		/* Exact: segments change nothing but where the callback looks. */
		hyb_status_t st = steps == 0 ? hyb_stencil_cpu_run( p, 0, nthreads, residual ) : HYB_OK;
		for ( int64_t t = 0; t < steps && st == HYB_OK; t += span )
		{
			const int64_t n = steps - t < span ? steps - t : span;
			st              = hyb_stencil_cpu_run( p, n, nthreads, residual );
			if ( st == HYB_OK && cb ) cb( ctx, t + n, p->field[r.state[r.inputs - 1]] );
		}
		return st;
	}
	if ( k < 1 ) return HYB_E_INVALID;
	/* The read-only fields as the device sees them: decoded copies. All
	   memory is taken before the caller's arrays are touched. */
	hyb_stencil_prob_t    q      = *p;
	const hyb_zfp_field_t f      = hyb_stencil_zfp_field( p );
	const size_t          fbytes = (size_t)( hyb_stencil_plane_bytes( p ) * p->nz );
	void*                 copy[HYB_STENCIL_COEFS_MAX];
	void*                 scratch = malloc( hyb_szf_scratch_bytes( p ) );
	hyb_status_t          st      = scratch ? HYB_OK : HYB_E_NO_MEMORY;
	memset( copy, 0, sizeof copy );
	for ( int c = 0; c < r.ncoef && st == HYB_OK; c++ )
	{
		const int role = r.coef[c];
		if ( p->rate[role] == 0.0 ) continue;
		copy[c] = malloc( fbytes );
		if ( copy[c] == NULL )
		{
			st = HYB_E_NO_MEMORY;
			break;
		}
		memcpy( copy[c], p->field[role], fbytes );
		q.field[role] = copy[c];
		st            = hyb_szf_trip( &f, p->rate[role], copy[c], scratch,
		                              hyb_zfp_stream_bytes( &f, p->rate[role] ) );
	}
	/* With fused ends the first block reads the caller's values and the
	   last writes them: no round trip before the first block nor after
	   the last (hyb_stencil_zfp_fused). */
	const int fused = hyb_stencil_zfp_fused( p );
	if ( st == HYB_OK && !fused ) st = hyb_szf_trip_state( &q, &r, scratch );
	double res = 0.0;
	for ( int64_t t0 = 0; t0 < steps && st == HYB_OK; t0 += span )
	{
		const int64_t end = t0 + span < steps ? t0 + span : steps;
		for ( int64_t t = t0; t < end && st == HYB_OK; t += k )
		{
			const int64_t kb = end - t < k ? end - t : k;
			st               = hyb_stencil_cpu_run( &q, kb, nthreads, &res );
			/* What the device encodes at the block's end and the next block
			   (or the caller) decodes. */
			if ( st == HYB_OK && !( fused && t + kb == steps ) )
				st = hyb_szf_trip_state( &q, &r, scratch );
		}
		if ( st == HYB_OK && cb ) cb( ctx, end, q.field[r.state[r.inputs - 1]] );
	}
	for ( int c = 0; c < r.ncoef; c++ ) free( copy[c] );
	free( scratch );
	if ( residual ) *residual = st == HYB_OK ? res : 0.0;
	return st;
}

/* ------------------------------------------------------------ fidelity */

int64_t hyb_stencil_sample( const hyb_stencil_prob_t* p, const void* field, int64_t points,
                            double* out )
{
	const int64_t rows = p->ny * p->nz, nx = p->nx;
	if ( points < 1 || rows < 1 || nx < 1 ) return 0;
	/* Every row when there are enough points (the seed: 450 of each row's
	   45,000), else every step-th row with one point. */
	const int64_t per  = points / rows > 0 ? ( points / rows < nx ? points / rows : nx ) : 1;
	const int64_t step = points >= rows ? 1 : ( rows + points - 1 ) / points;
	const int     dbl  = p->elem == HYB_STENCIL_F64;
	int64_t       n    = 0;
	for ( int64_t row = step / 2; row < rows; row += step )
		for ( int64_t j = 0; j < per; j++, n++ )
		{
			if ( out == NULL ) continue;
			const int64_t i = row * nx + ( 2 * j + 1 ) * nx / ( 2 * per );
			out[n]          = dbl ? ( (const double*)field )[i] : ( (const float*)field )[i];
		}
	return n;
}

void hyb_stencil_sample_error( const double* got, const double* ref, int64_t n,
                               hyb_stencil_err_t* out )
{
	memset( out, 0, sizeof *out );
	for ( int64_t i = 0; i < n; i++ )
	{
		double e = fabs( got[i] - ref[i] );
		if ( !isfinite( e ) ) e = INFINITY;
		out->points++;
		out->sum_abs += e;
		if ( e > out->max_abs ) out->max_abs = e;
		if ( ref[i] != 0.0 )
		{
			const double rel = e / fabs( ref[i] );
			out->rel_points++;
			out->sum_rel += rel;
			if ( rel > out->max_rel ) out->max_rel = rel;
		}
	}
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Checks of the stencil API's descriptions, parameters and statistics. */
#include "dispatch/stencil/hyb_stencil_check.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/stencil/hyb_stencil_data.h"
#include "kernels/stencil/hyb_stencil_zfp.h"

/* The first published version of each struct ends at its last field. */
#define HYB_SC_DESC_V1                                                                             \
	( offsetof( hyblas_stencil_desc_t, coef ) + sizeof( ( (hyblas_stencil_desc_t*)0 )->coef ) )
#define HYB_SC_PARAMS_V1 ( offsetof( hyblas_stencil_params_t, cpu_threads ) + sizeof( int32_t ) )
#define HYB_SC_STATS_V1                                                                            \
	( offsetof( hyblas_stencil_stats_t, why ) + sizeof( ( (hyblas_stencil_stats_t*)0 )->why ) )

_Static_assert( (int)HYBLAS_STENCIL_ACOUSTIC == (int)HYB_STENCIL_ACOUSTIC &&
                    (int)HYBLAS_STENCIL_HIMENO == (int)HYB_STENCIL_HIMENO &&
                    (int)HYBLAS_STENCIL_LAPLACE2D == (int)HYB_STENCIL_LAPLACE &&
                    (int)HYBLAS_STENCIL_STAR == (int)HYB_STENCIL_STAR &&
                    (int)HYBLAS_STENCIL_WAVE2D == (int)HYB_STENCIL_WAVE,
                "public and kernel kinds agree" );
_Static_assert( HYBLAS_STENCIL_MAX_RADIUS == HYB_STENCIL_MAX_RADIUS &&
                    HYBLAS_STENCIL_MAX_FIELDS == HYB_STENCIL_FIELDS_MAX,
                "public and kernel limits agree" );
_Static_assert( (int)HYBLAS_ACOUSTIC_VEL == (int)HYB_ACOUSTIC_VEL &&
                    (int)HYBLAS_HIMENO_WRK2 == (int)HYB_HIMENO_WRK2 &&
                    (int)HYBLAS_HIMENO_B0 == (int)HYB_HIMENO_B0 &&
                    (int)HYBLAS_GRID_WORK == (int)HYB_GRID_WORK &&
                    (int)HYBLAS_WAVE_P == (int)HYB_WAVE_P &&
                    (int)HYBLAS_WAVE_P_WORK == (int)HYB_WAVE_P_WORK &&
                    (int)HYBLAS_WAVE_Q == (int)HYB_WAVE_Q &&
                    (int)HYBLAS_WAVE_Q_WORK == (int)HYB_WAVE_Q_WORK,
                "public and kernel roles agree" );

/* Copy the caller's versioned struct: its first `size` bytes over zeros. */
static void hyb_sc_take( void* dst, size_t dst_size, const void* src, size_t size )
{
	memset( dst, 0, dst_size );
	memcpy( dst, src, size < dst_size ? size : dst_size );
}

static int hyb_sc_finite_nonneg( double v )
{
	return isfinite( v ) && v >= 0.0;
}

hyblas_status_t hyb_stencil_desc_check( const hyblas_stencil_desc_t* in, hyblas_stencil_desc_t* out,
                                        hyb_stencil_prob_t* prob )
{
	if ( in == NULL || out == NULL || prob == NULL ) return HYBLAS_E_INVALID;
	if ( in->struct_size < HYB_SC_DESC_V1 ) return HYBLAS_E_STRUCT_SIZE;
	hyblas_stencil_desc_t d;
	hyb_sc_take( &d, sizeof d, in, in->struct_size );
	const int32_t nf = hyb_stencil_nfields( (int32_t)d.kind );
	if ( nf == 0 ) return HYBLAS_E_INVALID;
	if ( d.type != HYBLAS_STENCIL_FLOAT && d.type != HYBLAS_STENCIL_DOUBLE )
		return HYBLAS_E_INVALID;

	/* Shape: every axis of the kind at least 2r + 1 points. */
	const int two_d = d.kind == HYBLAS_STENCIL_LAPLACE2D || d.kind == HYBLAS_STENCIL_WAVE2D ||
	                  ( d.kind == HYBLAS_STENCIL_STAR && d.nz == 1 );
	const int r = d.kind == HYBLAS_STENCIL_ACOUSTIC ? 4
	              : d.kind == HYBLAS_STENCIL_STAR   ? d.radius
	                                                : 1;
	if ( r < 1 || r > HYBLAS_STENCIL_MAX_RADIUS ) return HYBLAS_E_INVALID;
	if ( ( d.kind == HYBLAS_STENCIL_LAPLACE2D || d.kind == HYBLAS_STENCIL_WAVE2D ) && d.nz != 1 )
		return HYBLAS_E_INVALID;
	const int64_t span = 2 * (int64_t)r + 1;
	if ( d.nx < span || d.ny < span || ( !two_d && d.nz < span ) ) return HYBLAS_E_INVALID;
	const int64_t eb = d.type == HYBLAS_STENCIL_DOUBLE ? 8 : 4;
	const int64_t nz = two_d ? 1 : d.nz;
	/* Bytes of one field, in 64 bits without overflow. */
	if ( d.nx > INT64_MAX / d.ny || d.nx * d.ny > INT64_MAX / nz / eb ) return HYBLAS_E_INVALID;
	const int64_t bytes = d.nx * d.ny * nz * eb;
	if ( (uint64_t)bytes > (uint64_t)SIZE_MAX / 2 ) return HYBLAS_E_INVALID;

	/* Fields: present, not overlapping; rates checked below. */
	for ( int32_t f = 0; f < nf; f++ )
	{
		if ( d.fields[f].data == NULL ) return HYBLAS_E_INVALID;
		if ( !hyb_sc_finite_nonneg( d.fields[f].rate ) ) return HYBLAS_E_INVALID;
		if ( d.fields[f].flags != 0 ) return HYBLAS_E_UNSUPPORTED;
		const uintptr_t a = (uintptr_t)d.fields[f].data;
		for ( int32_t g = 0; g < f; g++ )
		{
			const uintptr_t b = (uintptr_t)d.fields[g].data;
			if ( a < b + (uintptr_t)bytes && b < a + (uintptr_t)bytes ) return HYBLAS_E_INVALID;
		}
	}

	/* Coefficients: finite; zero means the documented default. */
	if ( !hyb_sc_finite_nonneg( d.dx ) || !hyb_sc_finite_nonneg( d.dy ) ||
	     !hyb_sc_finite_nonneg( d.dz ) || !hyb_sc_finite_nonneg( d.dt ) || !isfinite( d.omega ) ||
	     !isfinite( d.center ) || !hyb_sc_finite_nonneg( d.speed ) ||
	     !hyb_sc_finite_nonneg( d.damping ) )
		return HYBLAS_E_INVALID;
	if ( d.kind == HYBLAS_STENCIL_WAVE2D )
	{
		/* The wave's own defaults, and a step that is stable. */
		if ( d.dx == 0.0 ) d.dx = HYB_WAVE_DEF_DX;
		if ( d.dy == 0.0 ) d.dy = HYB_WAVE_DEF_DX;
		if ( d.speed == 0.0 ) d.speed = HYB_WAVE_DEF_SPEED;
		if ( d.dt == 0.0 ) d.dt = hyb_stencil_wave_dt( d.speed, d.dx, d.dy );
		if ( !hyb_stencil_wave_stable( d.speed, d.damping, d.dx, d.dy, d.dt ) )
			return HYBLAS_E_INVALID;
	}
	if ( d.kind == HYBLAS_STENCIL_STAR )
		for ( int a = 0; a < 3; a++ )
			for ( int j = 0; j < 2 * r; j++ )
				if ( !isfinite( d.coef[a][j] ) ) return HYBLAS_E_INVALID;
	if ( d.dx == 0.0 ) d.dx = HYB_ACOUSTIC_DEF_DX;
	if ( d.dy == 0.0 ) d.dy = HYB_ACOUSTIC_DEF_DX;
	if ( d.dz == 0.0 ) d.dz = HYB_ACOUSTIC_DEF_DX;
	if ( d.dt == 0.0 ) d.dt = HYB_ACOUSTIC_DEF_COURANT * HYB_ACOUSTIC_DEF_DX / HYB_ACOUSTIC_DEF_VEL;
	if ( d.omega == 0.0 ) d.omega = HYB_HIMENO_DEF_OMEGA;
	d.radius = r;

	hyb_stencil_prob_t p;
	memset( &p, 0, sizeof p );
	p.kind    = (int32_t)d.kind;
	p.elem    = d.type == HYBLAS_STENCIL_DOUBLE ? HYB_STENCIL_F64 : HYB_STENCIL_F32;
	p.dims    = two_d ? 2 : 3;
	p.radius  = r;
	p.nx      = d.nx;
	p.ny      = two_d ? 1 : d.ny;
	p.nz      = two_d ? d.ny : d.nz;
	p.nfields = nf;
	for ( int32_t f = 0; f < nf; f++ )
	{
		p.field[f] = d.fields[f].data;
		p.rate[f]  = d.fields[f].rate;
	}
	/* A rate the codec cannot take for this type and shape, or time levels
	   with different rates. */
	if ( hyb_stencil_zfp_check( &p ) != HYB_OK ) return HYBLAS_E_INVALID;
	p.dx      = d.dx;
	p.dy      = d.dy;
	p.dz      = d.dz;
	p.dt      = d.dt;
	p.omega   = d.omega;
	p.center  = d.center;
	p.speed   = d.speed;
	p.damping = d.damping;
	/* The caller's axes (x, y, z) onto the kernel's: in 2-D the caller's y
	   is the kernel's plane axis z. */
	memcpy( p.coef[0], d.coef[0], sizeof p.coef[0] );
	memcpy( p.coef[two_d ? 2 : 1], d.coef[1], sizeof p.coef[0] );
	if ( !two_d ) memcpy( p.coef[2], d.coef[2], sizeof p.coef[0] );
	*out  = d;
	*prob = p;
	return HYBLAS_OK;
}

hyblas_status_t hyb_stencil_params_check( const hyblas_stencil_params_t* in, int64_t planes,
                                          hyblas_stencil_params_t* out )
{
	hyblas_stencil_params_t p;
	memset( &p, 0, sizeof p );
	if ( in != NULL )
	{
		if ( in->struct_size < HYB_SC_PARAMS_V1 ) return HYBLAS_E_STRUCT_SIZE;
		hyb_sc_take( &p, sizeof p, in, in->struct_size );
	}
	p.struct_size = sizeof p;
	if ( p.path != HYBLAS_PATH_AUTO && p.path != HYBLAS_PATH_CPU && p.path != HYBLAS_PATH_GPU )
		return HYBLAS_E_INVALID;
	if ( (int)p.scheme < HYBLAS_STENCIL_SCHEME_AUTO ||
	     (int)p.scheme > HYBLAS_STENCIL_SCHEME_SHARED )
		return HYBLAS_E_INVALID;
	if ( p.chunks < 0 || p.block_steps < 0 || p.cpu_threads < 0 ) return HYBLAS_E_INVALID;
	if ( p.fidelity_every < 0 || p.fidelity_points < 0 ) return HYBLAS_E_INVALID;
	if ( ( p.host_pinned != 0 && p.host_pinned != 1 ) ||
	     ( p.no_register != 0 && p.no_register != 1 ) )
		return HYBLAS_E_INVALID;
	if ( p.chunks > planes ) return HYBLAS_E_INVALID;
	*out = p;
	return HYBLAS_OK;
}

hyblas_status_t hyb_stencil_stats_ok( const hyblas_stencil_stats_t* out )
{
	return out == NULL || out->struct_size >= HYB_SC_STATS_V1 ? HYBLAS_OK : HYBLAS_E_STRUCT_SIZE;
}

hyblas_status_t hyb_stencil_stats_put( const hyblas_stencil_stats_t* s,
                                       hyblas_stencil_stats_t*       out )
{
	if ( out == NULL ) return HYBLAS_OK;
	if ( hyb_stencil_stats_ok( out ) != HYBLAS_OK ) return HYBLAS_E_STRUCT_SIZE;
	const size_t size = out->struct_size < sizeof *s ? out->struct_size : sizeof *s;
	memcpy( out, s, size );
	out->struct_size = size;
	return HYBLAS_OK;
}

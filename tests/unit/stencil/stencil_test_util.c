/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the stencil suites. */
#include "stencil_test_util.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/hyb_device.h"
#include "kernels/stencil/hyb_stencil_data.h"

int64_t sx_field_bytes( const hyb_stencil_prob_t* p )
{
	return p->nz * hyb_stencil_plane_bytes( p );
}

void sx_make( hyb_stencil_prob_t* p, int32_t kind, int32_t elem, int64_t nx, int64_t ny, int64_t nz,
              int32_t r )
{
	memset( p, 0, sizeof *p );
	p->kind    = kind;
	p->elem    = elem;
	p->dims    = ny == 1 && kind != HYB_STENCIL_ACOUSTIC && kind != HYB_STENCIL_HIMENO ? 2 : 3;
	p->radius  = kind == HYB_STENCIL_ACOUSTIC ? 4 : kind == HYB_STENCIL_STAR ? r : 1;
	p->nx      = nx;
	p->ny      = ny;
	p->nz      = nz;
	p->nfields = hyb_stencil_nfields( kind );
	p->dx = p->dy = p->dz = HYB_ACOUSTIC_DEF_DX;
	p->dt                 = HYB_ACOUSTIC_DEF_COURANT * HYB_ACOUSTIC_DEF_DX / HYB_ACOUSTIC_DEF_VEL;
	p->omega              = HYB_HIMENO_DEF_OMEGA;
	if ( kind == HYB_STENCIL_WAVE )
	{
		/* Unequal spacings, so that a swapped axis shows. */
		p->dx      = SX_WAVE_DX;
		p->dy      = SX_WAVE_DY;
		p->speed   = 1.0;
		p->damping = SX_WAVE_DAMPING;
		p->dt      = hyb_stencil_wave_dt( p->speed, p->dx, p->dy );
	}
	if ( kind == HYB_STENCIL_STAR )
	{
		/* Weights 1, 2, ... in a fixed order over (axis, side, offset),
		   scaled to sum to 0.9. */
		double sum = 0.0, w = 1.0;
		for ( int a = 0; a < 3; a++ )
			for ( int j = 0; j < 2 * r; j++ )
			{
				if ( a == 1 && p->dims == 2 ) continue;
				p->coef[a][j] = w;
				sum += w;
				w += 1.0;
			}
		for ( int a = 0; a < 3; a++ )
			for ( int j = 0; j < 2 * r; j++ ) p->coef[a][j] *= 0.9 / sum;
		p->center = 0.1;
	}
	for ( int f = 0; f < p->nfields; f++ ) p->field[f] = malloc( (size_t)sx_field_bytes( p ) );
	hyb_stencil_fill( p );
	if ( kind == HYB_STENCIL_HIMENO )
		/* The benchmark's b = 0 and equal a, c would hide a wrong neighbour
		   or a swapped array: give every coefficient its own pattern. */
		for ( int f = HYB_HIMENO_A0; f <= HYB_HIMENO_WRK1; f++ )
			for ( int64_t i = 0; i < nx * ny * nz; i++ )
			{
				const double d = 0.002 * (double)( ( i * 7 + f * 5 ) % 11 - 5 );
				if ( elem == HYB_STENCIL_F64 )
					( (double*)p->field[f] )[i] += d;
				else
					( (float*)p->field[f] )[i] += (float)d;
			}
	if ( kind == HYB_STENCIL_WAVE )
		sx_wave_perturb( p->field[HYB_WAVE_P], p->field[HYB_WAVE_Q], elem, nx * ny * nz );
}

void sx_wave_perturb( void* pf, void* qf, int32_t elem, int64_t n )
{
	/* The pulse is symmetric and q starts at zero: a pattern of its own in
	   each, so that a wrong neighbour, a swapped quantity or a stale level
	   changes the result. */
	for ( int64_t i = 0; i < n; i++ )
	{
		const double dp = 0.01 * (double)( ( i * 7 ) % 13 - 6 );
		const double dq = 0.02 * (double)( ( i * 5 ) % 11 - 5 );
		if ( elem == HYB_STENCIL_F64 )
		{
			( (double*)pf )[i] += dp;
			( (double*)qf )[i] += dq;
		}
		else
		{
			( (float*)pf )[i] += (float)dp;
			( (float*)qf )[i] += (float)dq;
		}
	}
}

void sx_clone( const hyb_stencil_prob_t* src, hyb_stencil_prob_t* dst )
{
	*dst = *src;
	for ( int f = 0; f < src->nfields; f++ )
	{
		dst->field[f] = malloc( (size_t)sx_field_bytes( src ) );
		memcpy( dst->field[f], src->field[f], (size_t)sx_field_bytes( src ) );
	}
}

void sx_free( hyb_stencil_prob_t* p )
{
	for ( int f = 0; f < p->nfields; f++ ) free( p->field[f] );
	memset( p, 0, sizeof *p );
}

int sx_same( const hyb_stencil_prob_t* a, const hyb_stencil_prob_t* b, int role )
{
	return memcmp( a->field[role], b->field[role], (size_t)sx_field_bytes( a ) ) == 0;
}

int sx_same_result( const hyb_stencil_prob_t* a, const hyb_stencil_prob_t* b )
{
	if ( a->kind == HYB_STENCIL_ACOUSTIC )
		return sx_same( a, b, HYB_ACOUSTIC_PREV ) && sx_same( a, b, HYB_ACOUSTIC_CUR );
	if ( a->kind == HYB_STENCIL_WAVE )
		return sx_same( a, b, HYB_WAVE_P ) && sx_same( a, b, HYB_WAVE_Q );
	return sx_same( a, b, 0 );
}

double sx_at( const hyb_stencil_prob_t* p, int role, int64_t z, int64_t y, int64_t x )
{
	const int64_t i = ( z * p->ny + y ) * p->nx + x;
	return p->elem == HYB_STENCIL_F64 ? ( (const double*)p->field[role] )[i]
	                                  : (double)( (const float*)p->field[role] )[i];
}

double sx_maxdiff( const hyb_stencil_prob_t* a, const hyb_stencil_prob_t* b, int role )
{
	double m = 0.0;
	for ( int64_t z = 0; z < a->nz; z++ )
		for ( int64_t y = 0; y < a->ny; y++ )
			for ( int64_t x = 0; x < a->nx; x++ )
			{
				const double d = fabs( sx_at( a, role, z, y, x ) - sx_at( b, role, z, y, x ) );
				if ( !( d <= m ) ) m = d; /* NaN wins */
			}
	return m;
}

double sx_maxabs( const hyb_stencil_prob_t* a, int role )
{
	double m = 0.0;
	for ( int64_t z = 0; z < a->nz; z++ )
		for ( int64_t y = 0; y < a->ny; y++ )
			for ( int64_t x = 0; x < a->nx; x++ )
			{
				const double v = fabs( sx_at( a, role, z, y, x ) );
				if ( v > m ) m = v;
			}
	return m;
}

hyblas_stencil_desc_t sx_desc( hyblas_stencil_kind_t kind, hyblas_stencil_type_t type, int64_t nx,
                               int64_t ny, int64_t nz, int32_t r )
{
	hyblas_stencil_desc_t d;
	memset( &d, 0, sizeof d );
	d.struct_size = sizeof d;
	d.kind        = kind;
	d.type        = type;
	d.nx          = nx;
	d.ny          = ny;
	d.nz          = nz;
	d.radius      = r;
	const int nf  = kind == HYBLAS_STENCIL_ACOUSTIC || kind == HYBLAS_STENCIL_WAVE2D ? 4
	                : kind == HYBLAS_STENCIL_HIMENO                                  ? 14
	                                                                                 : 2;
	for ( int f = 0; f < nf; f++ )
		d.fields[f].data =
		    calloc( (size_t)( nx * ny * nz ), type == HYBLAS_STENCIL_DOUBLE ? 8 : 4 );
	if ( kind == HYBLAS_STENCIL_STAR )
	{
		d.center = 0.2;
		/* Distinct weights per axis and side, summing to 0.8. */
		double sum = 0.0;
		for ( int a = 0; a < ( nz == 1 ? 2 : 3 ); a++ )
			for ( int j = 0; j < 2 * r; j++ ) sum += d.coef[a][j] = 1.0 + a + 0.5 * j;
		for ( int a = 0; a < 3; a++ )
			for ( int j = 0; j < 2 * r; j++ ) d.coef[a][j] *= 0.8 / sum;
	}
	if ( kind == HYBLAS_STENCIL_WAVE2D )
	{
		d.dx      = SX_WAVE_DX;
		d.dy      = SX_WAVE_DY;
		d.damping = SX_WAVE_DAMPING;
	}
	CU_ASSERT_EQUAL( hyblas_stencil_fill( &d ), HYBLAS_OK );
	if ( kind == HYBLAS_STENCIL_WAVE2D )
		sx_wave_perturb( d.fields[HYBLAS_WAVE_P].data, d.fields[HYBLAS_WAVE_Q].data,
		                 type == HYBLAS_STENCIL_DOUBLE ? HYB_STENCIL_F64 : HYB_STENCIL_F32,
		                 nx * ny * nz );
	return d;
}

void sx_desc_free( hyblas_stencil_desc_t* d )
{
	for ( int f = 0; f < HYBLAS_STENCIL_MAX_FIELDS; f++ ) free( d->fields[f].data );
}

int64_t sx_desc_bytes( const hyblas_stencil_desc_t* d )
{
	return d->nx * d->ny * d->nz * ( d->type == HYBLAS_STENCIL_DOUBLE ? 8 : 4 );
}

int sx_desc_same( const hyblas_stencil_desc_t* a, const hyblas_stencil_desc_t* b )
{
	int same = 1;
	if ( a->kind == HYBLAS_STENCIL_WAVE2D )
		for ( int f = HYBLAS_WAVE_P; f <= HYBLAS_WAVE_Q; f += HYBLAS_WAVE_Q - HYBLAS_WAVE_P )
			same &= memcmp( a->fields[f].data, b->fields[f].data, (size_t)sx_desc_bytes( a ) ) == 0;
	else
		for ( int f = 0; f < ( a->kind == HYBLAS_STENCIL_ACOUSTIC ? 2 : 1 ); f++ )
			same &= memcmp( a->fields[f].data, b->fields[f].data, (size_t)sx_desc_bytes( a ) ) == 0;
	return same;
}

hyblas_stencil_params_t sx_params( hyblas_path_t path, int scheme, int d, int k )
{
	const hyblas_stencil_params_t p = { .struct_size = sizeof p,
		                                .path        = path,
		                                .scheme      = (hyblas_stencil_scheme_t)scheme,
		                                .chunks      = d,
		                                .block_steps = k,
		                                .cpu_threads = 2 };
	return p;
}

hyblas_status_t sx_solve( hyblas_stencil_desc_t* d, const hyblas_stencil_params_t* p, int64_t steps,
                          hyblas_stencil_stats_t* st )
{
	memset( st, 0, sizeof *st );
	st->struct_size = sizeof *st;
	return hyblas_stencil_solve( d, steps, p, st );
}

hyblas_stencil_stats_t sx_fault_run( hyblas_stencil_desc_t* want, hyblas_stencil_desc_t* got,
                                     const char* fault, int scheme, int d, int k, int64_t steps )
{
	const hyblas_stencil_params_t pc = sx_params( HYBLAS_PATH_CPU, 0, 0, 0 );
	const hyblas_stencil_params_t pg = sx_params( HYBLAS_PATH_GPU, scheme, d, k );
	hyblas_stencil_stats_t        sc, sg;
	CU_ASSERT_EQUAL( sx_solve( want, &pc, steps, &sc ), HYBLAS_OK );
	CU_ASSERT_EQUAL( hyb_device_faults_set( fault ), HYB_OK );
	CU_ASSERT_EQUAL( sx_solve( got, &pg, steps, &sg ), HYBLAS_OK );
	hyb_device_faults_set( NULL );
	const int same = sx_desc_same( want, got );
	CU_ASSERT_EQUAL( sg.fell_back, 1 );
	CU_ASSERT( same );
	if ( sg.fell_back != 1 || !same ) printf( "\n  fault %s scheme %d\n", fault, scheme );
	return sg;
}

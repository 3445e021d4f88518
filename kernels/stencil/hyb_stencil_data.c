/* SPDX-License-Identifier: BSD-3-Clause */
/* The documented data sets of the stencil family. */
#include "kernels/stencil/hyb_stencil_data.h"

#include <math.h>
#include <string.h>

/* Store v at element i of a field of the problem's type. */
static inline void hyb_sd_set( const hyb_stencil_prob_t* p, void* a, int64_t i, double v )
{
	if ( p->elem == HYB_STENCIL_F64 )
		( (double*)a )[i] = v;
	else
		( (float*)a )[i] = (float)v;
}

/* 1 when (z, y, x) lies in the fixed band. */
static int hyb_sd_fixed( const hyb_stencil_prob_t* p, int64_t z, int64_t y, int64_t x )
{
	const int64_t r = p->radius;
	if ( z < r || z >= p->nz - r || x < r || x >= p->nx - r ) return 1;
	return p->dims == 3 && ( y < r || y >= p->ny - r );
}

/* The value of field `role` at (z, y, x). */
static double hyb_sd_value( const hyb_stencil_prob_t* p, int role, int64_t z, int64_t y, int64_t x )
{
	switch ( p->kind )
	{
	case HYB_STENCIL_ACOUSTIC:
	{
		if ( role == HYB_ACOUSTIC_VEL ) return HYB_ACOUSTIC_DEF_VEL;
		if ( role == HYB_ACOUSTIC_NEXT || hyb_sd_fixed( p, z, y, x ) ) return 0.0;
		const double dx = (double)x - 0.5 * (double)( p->nx - 1 );
		const double dy = (double)y - 0.5 * (double)( p->ny - 1 );
		const double dz = (double)z - 0.5 * (double)( p->nz - 1 );
		const double s  = HYB_ACOUSTIC_PULSE_SIGMA;
		return exp( -( dx * dx + dy * dy + dz * dz ) / ( 2.0 * s * s ) );
	}
	case HYB_STENCIL_HIMENO:
		if ( role == HYB_HIMENO_A0 + 3 ) return 1.0 / 6.0;
		if ( role >= HYB_HIMENO_A0 && role < HYB_HIMENO_A0 + 3 ) return 1.0;
		if ( role >= HYB_HIMENO_B0 && role < HYB_HIMENO_B0 + 3 ) return 0.0;
		if ( role >= HYB_HIMENO_C0 && role < HYB_HIMENO_C0 + 3 ) return 1.0;
		if ( role == HYB_HIMENO_BND ) return 1.0;
		return 0.0; /* wrk1, wrk2; p is computed by the caller */
	case HYB_STENCIL_LAPLACE:
		return role == HYB_GRID_U && z == 0 ? 1.0 : 0.0;
	case HYB_STENCIL_WAVE:
	{
		if ( role != HYB_WAVE_P || hyb_sd_fixed( p, z, y, x ) ) return 0.0;
		const double dx = (double)x - 0.5 * (double)( p->nx - 1 );
		const double dz = (double)z - 0.5 * (double)( p->nz - 1 );
		const double s  = HYB_WAVE_PULSE_SHARE * (double)( p->nx < p->nz ? p->nx : p->nz );
		return exp( -( dx * dx + dz * dz ) / ( 2.0 * s * s ) );
	}
	default:
	{
		if ( role != HYB_GRID_U || hyb_sd_fixed( p, z, y, x ) ) return 0.0;
		const double pi = 3.14159265358979323846;
		double       v  = sin( pi * (double)x / (double)( p->nx - 1 ) ) *
		           sin( pi * (double)z / (double)( p->nz - 1 ) );
		if ( p->dims == 3 ) v *= sin( pi * (double)y / (double)( p->ny - 1 ) );
		return v;
	}
	}
}

double hyb_stencil_wave_dt( double c, double dx, double dy )
{
	return HYB_WAVE_DEF_COURANT / ( c * sqrt( 1.0 / ( dx * dx ) + 1.0 / ( dy * dy ) ) );
}

int hyb_stencil_wave_stable( double c, double gamma, double dx, double dy, double dt )
{
	const double gd = gamma * dt;
	if ( !( gd >= 0.0 && gd <= 1.0 ) ) return 0;
	return c * c * dt * dt * ( 1.0 / ( dx * dx ) + 1.0 / ( dy * dy ) ) <= 1.0 - 0.5 * gd;
}

/* Himeno's pressure, in the element type as the benchmark computes it:
   (T)(i*i) / (T)((imax-1)*(imax-1)). */
static void hyb_sd_himeno_p( const hyb_stencil_prob_t* p, int64_t z, void* plane, int64_t n )
{
	const double num = (double)( z * z ), den = (double)( ( p->nz - 1 ) * ( p->nz - 1 ) );
	if ( p->elem == HYB_STENCIL_F64 )
		for ( int64_t i = 0; i < n; i++ ) ( (double*)plane )[i] = num / den;
	else
	{
		const float v = (float)num / (float)den;
		for ( int64_t i = 0; i < n; i++ ) ( (float*)plane )[i] = v;
	}
}

void hyb_stencil_fill( const hyb_stencil_prob_t* p )
{
	const int64_t plane = p->nx * p->ny;
	const int64_t eb    = hyb_stencil_elem_bytes( p->elem );
	const int32_t nf    = hyb_stencil_nfields( p->kind );
#pragma omp parallel for schedule( static )
	for ( int64_t z = 0; z < p->nz; z++ )
		for ( int32_t f = 0; f < nf; f++ )
		{
			char* base = (char*)p->field[f] + z * plane * eb;
			if ( p->kind == HYB_STENCIL_HIMENO && f == HYB_HIMENO_P )
			{
				hyb_sd_himeno_p( p, z, base, plane );
				continue;
			}
			for ( int64_t y = 0; y < p->ny; y++ )
				for ( int64_t x = 0; x < p->nx; x++ )
					hyb_sd_set( p, base, y * p->nx + x, hyb_sd_value( p, f, z, y, x ) );
		}
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer harness: hyblas_stencil_create and hyblas_stencil_run on problems made from
   the input bytes (every kind and type, the damped wave's speed, damping and step, sizes around the
   smallest a kind accepts, star radii and coefficients, compression rates, steps, forced paths,
   schemes, chunk counts and block depths), run under HYBLAS_DEVICE=sim (tools/fuzz/run.sh) so that
   the device pipeline runs on the simulated device. The contract checked: a problem is accepted or
   refused with HYBLAS_E_INVALID / HYBLAS_E_UNSUPPORTED and the handle untouched; a run
   either succeeds with the same bits as the CPU path on a copy of the fields (both paths
   compute the same per-point code; with compression both apply the same round trips), or
   is refused with every field unchanged. Any crash, sanitizer report or abort() is a
   finding. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "hyblas_ext.h"

/* Fields of each kind (the public header's counts); 0 for a kind the library lacks. */
static int fz_fields( int kind )
{
	switch ( kind )
	{
	case HYBLAS_STENCIL_ACOUSTIC:
		return HYBLAS_ACOUSTIC_FIELDS;
	case HYBLAS_STENCIL_HIMENO:
		return HYBLAS_HIMENO_FIELDS;
	case HYBLAS_STENCIL_LAPLACE2D:
	case HYBLAS_STENCIL_STAR:
		return HYBLAS_GRID_FIELDS;
	case HYBLAS_STENCIL_WAVE2D:
		return HYBLAS_WAVE_FIELDS;
	default:
		return 0;
	}
}

int LLVMFuzzerTestOneInput( const uint8_t* data, size_t size )
{
	fz_in_t               in = { data, size, 0 };
	hyblas_stencil_desc_t d;
	memset( &d, 0, sizeof d );
	d.struct_size     = sizeof d;
	const unsigned kb = fz_byte( &in );
	d.kind            = (hyblas_stencil_kind_t)( kb % 7 ); /* 0 and 6: no such kind */
	d.type            = ( kb >> 3 ) & 1 ? HYBLAS_STENCIL_DOUBLE : HYBLAS_STENCIL_FLOAT;
	if ( ( kb >> 4 ) == 15 ) d.type = (hyblas_stencil_type_t)3;
	const int two_d = d.kind == HYBLAS_STENCIL_LAPLACE2D || d.kind == HYBLAS_STENCIL_WAVE2D ||
	                  ( d.kind == HYBLAS_STENCIL_STAR && ( kb >> 5 ) & 1 );
	d.nx = (int64_t)( fz_byte( &in ) % 26 ) - 1;
	d.ny = (int64_t)( fz_byte( &in ) % 26 ) - 1;
	d.nz = two_d ? 1 : (int64_t)( fz_byte( &in ) % 26 ) - 1;
	if ( d.kind == HYBLAS_STENCIL_STAR )
	{
		d.radius = (int32_t)( fz_byte( &in ) % 10 );
		d.center = (double)( (int)fz_byte( &in ) - 128 ) / 256.0;
		for ( int a = 0; a < 3; a++ )
			for ( int j = 0; j < 2 * d.radius && j < 2 * HYBLAS_STENCIL_MAX_RADIUS; j++ )
			{
				const unsigned b = fz_byte( &in );
				d.coef[a][j]     = b == 255 ? NAN : (double)( (int)b - 128 ) / 1024.0;
			}
	}
	if ( d.kind == HYBLAS_STENCIL_WAVE2D )
	{
		/* Speed, damping and step, sometimes beyond the stability limit (refused). */
		d.speed   = (double)( fz_byte( &in ) % 4 ) / 2.0;
		d.damping = (double)( fz_byte( &in ) % 4 ) / 4.0;
		d.dt      = (double)( fz_byte( &in ) % 8 ) / 8.0;
	}
	const int64_t pts =
	    d.nx > 0 && d.ny > 0 && d.nz > 0 ? d.nx * d.ny * d.nz : 1; /* what the arrays hold */
	const size_t elem  = d.type == HYBLAS_STENCIL_DOUBLE ? sizeof( double ) : sizeof( float );
	const int    nf    = fz_fields( (int)d.kind );
	const size_t bytes = (size_t)pts * elem;
	void *       field[HYBLAS_STENCIL_MAX_FIELDS] = { 0 }, *copy[HYBLAS_STENCIL_MAX_FIELDS] = { 0 };
	const unsigned rb = fz_byte( &in );
	for ( int f = 0; f < nf; f++ )
	{
		field[f] = calloc( 1, bytes );
		copy[f]  = malloc( bytes );
		if ( field[f] == NULL || copy[f] == NULL ) abort();
		d.fields[f].data = field[f];
		/* Rates now and then: valid ones, odd ones, out of range. */
		if ( rb >= 192 ) d.fields[f].rate = (double)( ( rb + (unsigned)f * 7u ) % 72 ) / 2.0;
	}
	if ( rb == 7 && nf > 1 ) d.fields[1].data = field[0]; /* overlapping fields */
	if ( hyblas_stencil_fill( &d ) == HYBLAS_OK )
		for ( int f = 0; f < nf; f++ )
		{
			/* Vary the data set a little so that the runs see more than one field. */
			unsigned char* b = field[f];
			for ( size_t i = 0; i < bytes && i < 64; i++ )
				b[i * 7 % bytes] ^= (unsigned char)fz_byte( &in );
		}
	/* Non-finite values may come up from the bytes above: keep every float finite. */
	for ( int f = 0; f < nf; f++ )
		for ( int64_t i = 0; i < pts; i++ )
		{
			if ( elem == sizeof( double ) && !isfinite( ( (double*)field[f] )[i] ) )
				( (double*)field[f] )[i] = 0.0;
			if ( elem == sizeof( float ) && !isfinite( ( (float*)field[f] )[i] ) )
				( (float*)field[f] )[i] = 0.0f;
		}

	hyblas_stencil_t* const sentinel = (hyblas_stencil_t*)&in;
	hyblas_stencil_t*       h        = sentinel;
	const hyblas_status_t   cs       = hyblas_stencil_create( &d, &h );
	if ( cs != HYBLAS_OK )
	{
		if ( ( cs != HYBLAS_E_INVALID && cs != HYBLAS_E_UNSUPPORTED ) || h != sentinel ) abort();
	}
	else
	{
		hyblas_stencil_params_t p;
		memset( &p, 0, sizeof p );
		p.struct_size       = sizeof p;
		const unsigned pb   = fz_byte( &in );
		p.path              = ( pb & 3 ) == 3 ? HYBLAS_PATH_AUTO : (hyblas_path_t)( pb & 3 );
		p.scheme            = (hyblas_stencil_scheme_t)( ( pb >> 2 ) % 6 );
		p.chunks            = (int32_t)( fz_byte( &in ) % 8 );
		p.block_steps       = (int32_t)( fz_byte( &in ) % 6 );
		p.cpu_threads       = 1;
		const int64_t steps = (int64_t)( fz_byte( &in ) % 8 ) - ( pb == 255 ? 2 : 0 );
		for ( int f = 0; f < nf; f++ ) memcpy( copy[f], field[f], bytes );
		hyblas_stencil_stats_t st;
		memset( &st, 0, sizeof st );
		st.struct_size           = sizeof st;
		const hyblas_status_t rs = hyblas_stencil_run( h, steps, &p, &st );
		if ( rs == HYBLAS_OK )
		{
			/* The CPU path on the fields as they were, at the block depth the run used
			   (compressed runs round-trip per block), must give the same bits. */
			hyblas_stencil_desc_t dc = d;
			for ( int f = 0; f < nf; f++ ) dc.fields[f].data = copy[f];
			hyblas_stencil_t* hc = NULL;
			if ( hyblas_stencil_create( &dc, &hc ) != HYBLAS_OK ) abort();
			hyblas_stencil_params_t pc = p;
			pc.path                    = HYBLAS_PATH_CPU;
			pc.scheme                  = st.scheme;
			pc.chunks                  = st.chunks;
			pc.block_steps             = st.block_steps;
			if ( hyblas_stencil_run( hc, steps, &pc, NULL ) != HYBLAS_OK ) abort();
			hyblas_stencil_destroy( hc );
			/* Work arrays are left unspecified: compare the kinds' result fields. */
			int results[3] = { -1, -1, -1 };
			if ( d.kind == HYBLAS_STENCIL_ACOUSTIC )
			{
				results[0] = HYBLAS_ACOUSTIC_PREV;
				results[1] = HYBLAS_ACOUSTIC_CUR;
			}
			else if ( d.kind == HYBLAS_STENCIL_HIMENO )
				results[0] = HYBLAS_HIMENO_P;
			else if ( d.kind == HYBLAS_STENCIL_WAVE2D )
			{
				results[0] = HYBLAS_WAVE_P;
				results[1] = HYBLAS_WAVE_Q;
			}
			else
				results[0] = HYBLAS_GRID_U;
			for ( int r = 0; r < 3; r++ )
				if ( results[r] >= 0 && memcmp( field[results[r]], copy[results[r]], bytes ) != 0 )
					abort();
		}
		else
		{
			if ( rs != HYBLAS_E_INVALID && rs != HYBLAS_E_UNSUPPORTED ) abort();
			for ( int f = 0; f < nf; f++ )
				if ( memcmp( field[f], copy[f], bytes ) != 0 ) abort();
		}
		hyblas_stencil_destroy( h );
	}
	for ( int f = 0; f < nf; f++ )
	{
		free( field[f] );
		free( copy[f] );
	}
	return 0;
}

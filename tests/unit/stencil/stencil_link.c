/* SPDX-License-Identifier: BSD-3-Clause */
/* A program that uses the stencil API as users do: the installed header
   alone, linked to libhyblas. A 2-D Laplace sweep through
   hyblas_stencil_solve against a plain loop of its own, and a bad call that
   must change nothing. Exit 0 on success. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyblas_ext.h"

enum
{
	NX    = 64,
	NY    = 48,
	STEPS = 20
};

int main( void )
{
	float* u    = calloc( NX * NY, sizeof *u );
	float* work = calloc( NX * NY, sizeof *work );
	float* ref  = calloc( NX * NY, sizeof *ref );
	float* tmp  = calloc( NX * NY, sizeof *tmp );
	if ( !u || !work || !ref || !tmp ) return 1;
	for ( int x = 0; x < NX; x++ ) u[x] = ref[x] = 1.0f; /* the heated first row */

	hyblas_stencil_desc_t d;
	memset( &d, 0, sizeof d );
	d.struct_size                   = sizeof d;
	d.kind                          = HYBLAS_STENCIL_LAPLACE2D;
	d.type                          = HYBLAS_STENCIL_FLOAT;
	d.nx                            = NX;
	d.ny                            = NY;
	d.nz                            = 1;
	d.fields[HYBLAS_GRID_U].data    = u;
	d.fields[HYBLAS_GRID_WORK].data = work;
	hyblas_stencil_stats_t st;
	memset( &st, 0, sizeof st );
	st.struct_size     = sizeof st;
	hyblas_status_t rc = hyblas_stencil_solve( &d, STEPS, NULL, &st );
	if ( rc != HYBLAS_OK )
	{
		printf( "solve: %s\n", hyblas_status_string( rc ) );
		return 1;
	}
	/* The same sweeps, written plainly. */
	for ( int t = 0; t < STEPS; t++ )
	{
		for ( int y = 1; y < NY - 1; y++ )
			for ( int x = 1; x < NX - 1; x++ )
				tmp[y * NX + x] = 0.25f * ( ref[y * NX + x + 1] + ref[y * NX + x - 1] +
				                            ref[( y + 1 ) * NX + x] + ref[( y - 1 ) * NX + x] );
		for ( int y = 1; y < NY - 1; y++ )
			for ( int x = 1; x < NX - 1; x++ ) ref[y * NX + x] = tmp[y * NX + x];
	}
	int wrong = memcmp( u, ref, NX * NY * sizeof *u ) != 0;
	printf( "laplace %dx%d, %d steps: %s (%s)\n", NX, NY, STEPS, wrong ? "WRONG" : "equal",
	        st.why );
	/* A negative step count: refused, nothing changed. */
	memcpy( tmp, u, NX * NY * sizeof *u );
	rc = hyblas_stencil_solve( &d, -1, NULL, NULL );
	wrong |= rc != HYBLAS_E_INVALID || memcmp( tmp, u, NX * NY * sizeof *u ) != 0;
	free( u );
	free( work );
	free( ref );
	free( tmp );
	return wrong;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The public stencil API: bad descriptions and parameters get their status
   and change nothing (arrays, handle pointer, statistics); runs on every
   path equal the serial oracle; a handle continues in time; plan queries
   reproduce the seed's numbers; versioned structs; the data sets. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyblas_ext.h"
#include "kernels/stencil/hyb_stencil_oracle.h"
#include "stencil_test_util.h"

/* A description of `kind` with freshly allocated fields, filled by
   hyblas_stencil_fill; nx, ny, nz as the caller gives them. */
/* The same problem in the kernel layer, built by hand (for the oracle),
   with its own copies of the fields. */
static void sa_oracle_prob( const hyblas_stencil_desc_t* d, hyb_stencil_prob_t* p )
{
	memset( p, 0, sizeof *p );
	const int two_d = d->nz == 1;
	p->kind         = d->kind;
	p->elem         = d->type == HYBLAS_STENCIL_DOUBLE ? HYB_STENCIL_F64 : HYB_STENCIL_F32;
	p->dims         = two_d ? 2 : 3;
	p->radius       = d->kind == HYBLAS_STENCIL_ACOUSTIC ? 4
	                  : d->kind == HYBLAS_STENCIL_STAR   ? d->radius
	                                                     : 1;
	p->nx           = d->nx;
	p->ny           = two_d ? 1 : d->ny;
	p->nz           = two_d ? d->ny : d->nz;
	p->nfields      = hyb_stencil_nfields( d->kind );
	p->dx = p->dy = p->dz = 10.0;
	p->dt                 = 0.2 * 10.0 / 1500.0;
	p->omega              = 0.8;
	p->center             = d->center;
	if ( d->kind == HYBLAS_STENCIL_WAVE2D )
	{
		p->dx      = d->dx;
		p->dy      = d->dy;
		p->speed   = 1.0;
		p->damping = d->damping;
		p->dt      = 0.5 / sqrt( 1.0 / ( d->dx * d->dx ) + 1.0 / ( d->dy * d->dy ) );
	}
	for ( int j = 0; j < 2 * HYBLAS_STENCIL_MAX_RADIUS; j++ )
	{
		p->coef[0][j]             = d->coef[0][j];
		p->coef[two_d ? 2 : 1][j] = d->coef[1][j];
		if ( !two_d ) p->coef[2][j] = d->coef[2][j];
	}
	for ( int f = 0; f < p->nfields; f++ )
	{
		p->field[f] = malloc( (size_t)sx_desc_bytes( d ) );
		memcpy( p->field[f], d->fields[f].data, (size_t)sx_desc_bytes( d ) );
	}
}

/* Every field of d equal to its value at the time of the snapshot. */
typedef struct
{
	void* copy[HYBLAS_STENCIL_MAX_FIELDS];
	int   n;
} sa_snap_t;

static sa_snap_t sa_snap( const hyblas_stencil_desc_t* d )
{
	sa_snap_t s;
	memset( &s, 0, sizeof s );
	for ( int f = 0; f < HYBLAS_STENCIL_MAX_FIELDS && d->fields[f].data; f++ )
	{
		s.copy[f] = malloc( (size_t)sx_desc_bytes( d ) );
		memcpy( s.copy[f], d->fields[f].data, (size_t)sx_desc_bytes( d ) );
		s.n = f + 1;
	}
	return s;
}

static int sa_unchanged( const hyblas_stencil_desc_t* d, sa_snap_t* s )
{
	int same = 1;
	for ( int f = 0; f < s->n; f++ )
	{
		same &= memcmp( s->copy[f], d->fields[f].data, (size_t)sx_desc_bytes( d ) ) == 0;
		free( s->copy[f] );
	}
	return same;
}

/* ------------------------------------------------------------------ tests */

static void test_create_rejects_bad_descriptions( void )
{
	hyblas_stencil_desc_t good =
	    sx_desc( HYBLAS_STENCIL_STAR, HYBLAS_STENCIL_FLOAT, 12, 11, 10, 2 );
	hyblas_stencil_t* sentinel = (hyblas_stencil_t*)(uintptr_t)0x1234;
	hyblas_stencil_t* h        = sentinel;
	CU_ASSERT_EQUAL( hyblas_stencil_create( NULL, &h ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_stencil_create( &good, NULL ), HYBLAS_E_INVALID );
	float other[12 * 11 * 10];
	for ( int c = 0; c < 22; c++ )
	{
		hyblas_stencil_desc_t d      = good;
		hyblas_status_t       expect = HYBLAS_E_INVALID;
		switch ( c )
		{
		case 0:
			d.struct_size = 0, expect = HYBLAS_E_STRUCT_SIZE;
			break;
		case 1:
			/* Shorter than the first version (which ended at coef). */
			d.struct_size = offsetof( hyblas_stencil_desc_t, speed ) - 8;
			expect        = HYBLAS_E_STRUCT_SIZE;
			break;
		case 2:
			d.kind = (hyblas_stencil_kind_t)9;
			break;
		case 3:
			d.type = (hyblas_stencil_type_t)0;
			break;
		case 4:
			d.nx = 4;
			break; /* < 2r + 1 */
		case 5:
			d.nz = 2;
			break;
		case 6:
			d.radius = 0;
			break;
		case 7:
			d.radius = 9;
			break;
		case 8:
			d.fields[1].data = NULL;
			break;
		case 9:
			d.fields[1].data = (char*)d.fields[0].data + 4;
			break; /* overlaps */
		case 10:
			d.fields[0].rate = 33.0; /* more bits than a float has */
			break;
		case 11:
			d.fields[0].rate = NAN;
			break;
		case 12:
			d.fields[1].flags = 1, expect = HYBLAS_E_UNSUPPORTED;
			break;
		case 13:
			d.dx = -1.0;
			break;
		case 14:
			d.dt = INFINITY;
			break;
		case 15:
			d.omega = NAN;
			break;
		case 16:
			d.coef[2][3] = NAN;
			break;
		case 17:
			d.center = INFINITY;
			break;
		case 18:
			d.nx = d.ny = d.nz = INT64_C( 1 ) << 40;
			break; /* bytes overflow */
		case 19:
			d.kind = HYBLAS_STENCIL_LAPLACE2D;
			break; /* 2-D needs nz = 1 */
		case 20:
			d.kind = HYBLAS_STENCIL_ACOUSTIC, d.fields[2].data = other, d.fields[3].data = NULL;
			break;
		default:
			d.fields[0].rate = -1.0;
			break;
		}
		CU_ASSERT_EQUAL( hyblas_stencil_create( &d, &h ), expect );
		CU_ASSERT( h == sentinel );
		if ( hyblas_stencil_create( &d, &h ) != expect ) printf( "\n  case %d\n", c );
	}
	/* The good one, and a 2-D star (nz = 1). */
	CU_ASSERT_EQUAL( hyblas_stencil_create( &good, &h ), HYBLAS_OK );
	CU_ASSERT( h != sentinel && h != NULL );
	CU_ASSERT_EQUAL( hyblas_stencil_destroy( h ), HYBLAS_OK );
	CU_ASSERT_EQUAL( hyblas_stencil_destroy( NULL ), HYBLAS_OK );
	sx_desc_free( &good );
}

static void test_run_rejects_bad_parameters( void )
{
	hyblas_stencil_desc_t d =
	    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, 20, 18, 40, 0 );
	hyblas_stencil_t* h = NULL;
	CU_ASSERT_FATAL( hyblas_stencil_create( &d, &h ) == HYBLAS_OK );
	sa_snap_t snap = sa_snap( &d );
	for ( int c = 0; c < 14; c++ )
	{
		hyblas_stencil_params_t p;
		memset( &p, 0, sizeof p );
		p.struct_size                 = sizeof p;
		int64_t                steps  = 5;
		hyblas_status_t        expect = HYBLAS_E_INVALID;
		hyblas_stencil_stats_t st;
		memset( &st, 0x5c, sizeof st );
		st.struct_size = sizeof st;
		switch ( c )
		{
		case 0:
			steps = -1;
			break;
		case 1:
			p.path = (hyblas_path_t)7;
			break;
		case 2:
			p.scheme = (hyblas_stencil_scheme_t)9;
			break;
		case 3:
			p.chunks = -1;
			break;
		case 4:
			p.block_steps = -2;
			break;
		case 5:
			p.chunks = 41;
			break; /* more chunks than planes */
		case 6:
			p.host_pinned = 2;
			break;
		case 7:
			p.scheme = HYBLAS_STENCIL_SCHEME_SHARED, p.chunks = 4, p.block_steps = 3;
			break; /* 10 < 12 */
		case 8:
			p.scheme = HYBLAS_STENCIL_SCHEME_IN_CORE, p.device_mem = 100000;
			break;
		case 9:
			p.struct_size = 0, expect = HYBLAS_E_STRUCT_SIZE;
			break;
		case 10:
			st.struct_size = 8, expect = HYBLAS_E_STRUCT_SIZE;
			break;
		case 11:
			p.cpu_threads = -3;
			break;
		case 12:
			p.no_register = 5;
			break;
		default:
			p.chunks = 3, p.block_steps = 5, p.path = HYBLAS_PATH_CPU;
			break; /* 13 < 20, on any path */
		}
		const size_t ssz = st.struct_size;
		CU_ASSERT_EQUAL( hyblas_stencil_run( h, steps, &p, &st ), expect );
		CU_ASSERT_EQUAL( hyblas_stencil_plan( h, steps, &p, &st ), expect );
		/* The statistics were not written. */
		CU_ASSERT_EQUAL( st.struct_size, ssz );
		CU_ASSERT_EQUAL( st.steps, (int64_t)0x5c5c5c5c5c5c5c5c );
	}
	CU_ASSERT_EQUAL( hyblas_stencil_run( NULL, 1, NULL, NULL ), HYBLAS_E_INVALID );
	CU_ASSERT( sa_unchanged( &d, &snap ) );
	hyblas_stencil_destroy( h );
	sx_desc_free( &d );
}

/* Every stencil and type through the API, on each path: the oracle's
   fields (bit for bit) and residual. */
static void test_runs_match_oracle( void )
{
	const struct
	{
		hyblas_stencil_kind_t kind;
		int64_t               nx, ny, nz;
		int32_t               r;
	} cases[] = {
		{ HYBLAS_STENCIL_ACOUSTIC, 21, 18, 24, 0 }, { HYBLAS_STENCIL_HIMENO, 17, 13, 11, 0 },
		{ HYBLAS_STENCIL_LAPLACE2D, 40, 33, 1, 0 }, { HYBLAS_STENCIL_STAR, 30, 27, 1, 3 },
		{ HYBLAS_STENCIL_STAR, 14, 13, 16, 2 },     { HYBLAS_STENCIL_WAVE2D, 37, 29, 1, 0 }
	};
	const hyblas_path_t paths[] = { HYBLAS_PATH_CPU, HYBLAS_PATH_AUTO, HYBLAS_PATH_GPU };
	for ( int c = 0; c < 6; c++ )
		for ( int t = 0; t < 2; t++ )
		{
			const hyblas_stencil_type_t type = t ? HYBLAS_STENCIL_DOUBLE : HYBLAS_STENCIL_FLOAT;
			hyblas_stencil_desc_t       d =
			    sx_desc( cases[c].kind, type, cases[c].nx, cases[c].ny, cases[c].nz, cases[c].r );
			hyb_stencil_prob_t o;
			sa_oracle_prob( &d, &o );
			double gref = 0.0;
			CU_ASSERT_EQUAL( hyb_stencil_oracle( &o, 3 * 7, &gref ), HYB_OK );
			hyblas_stencil_t* h = NULL;
			CU_ASSERT_FATAL( hyblas_stencil_create( &d, &h ) == HYBLAS_OK );
			/* 7 steps on each path: 21 in all, continuing in time. */
			for ( int pi = 0; pi < 3; pi++ )
			{
				hyblas_stencil_params_t p;
				memset( &p, 0, sizeof p );
				p.struct_size = sizeof p;
				p.path        = paths[pi];
				p.cpu_threads = 1 + pi;
				hyblas_stencil_stats_t st;
				memset( &st, 0, sizeof st );
				st.struct_size = sizeof st;
				CU_ASSERT_EQUAL( hyblas_stencil_run( h, 7, &p, &st ), HYBLAS_OK );
				CU_ASSERT_EQUAL( st.path, HYBLAS_PATH_CPU );
				CU_ASSERT_EQUAL( st.steps, 7 );
				CU_ASSERT_EQUAL( st.fell_back, 0 );
				CU_ASSERT( st.seconds > 0.0 && st.seconds_cpu > 0.0 &&
				           st.seconds >= st.seconds_cpu );
				CU_ASSERT( st.predicted_cpu_seconds > 0.0 );
				CU_ASSERT_EQUAL( st.bytes_h2d, 0 );
				CU_ASSERT( strstr( st.why, "ran on the CPU" ) != NULL );
				if ( pi == 2 ) CU_ASSERT( strstr( st.why, "no usable device" ) != NULL );
				if ( pi == 0 ) CU_ASSERT( strstr( st.why, "CPU as asked" ) != NULL );
				if ( pi == 2 && cases[c].kind == HYBLAS_STENCIL_HIMENO )
					CU_ASSERT( fabs( st.residual - gref ) <= 1e-12 * gref );
			}
			/* The result fields: acoustic PREV and CUR, wave P and Q, else
			   the first. */
			const int nres = cases[c].kind == HYBLAS_STENCIL_ACOUSTIC ? 2
			                 : cases[c].kind == HYBLAS_STENCIL_WAVE2D ? 3
			                                                          : 1;
			int       same = 1;
			for ( int f = 0; f < nres; f++ )
				if ( !( cases[c].kind == HYBLAS_STENCIL_WAVE2D && f == HYBLAS_WAVE_P_WORK ) )
					same &=
					    memcmp( o.field[f], d.fields[f].data, (size_t)sx_desc_bytes( &d ) ) == 0;
			CU_ASSERT( same );
			if ( !same ) printf( "\n  case %d type %d\n", c, t );
			hyblas_stencil_destroy( h );
			sx_free( &o );
			sx_desc_free( &d );
		}
}

/* One call equals create + run + destroy. */
static void test_solve_is_one_call( void )
{
	hyblas_stencil_desc_t a =
	    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_DOUBLE, 50, 40, 1, 0 );
	hyblas_stencil_desc_t b =
	    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_DOUBLE, 50, 40, 1, 0 );
	CU_ASSERT_EQUAL( hyblas_stencil_solve( &a, 13, NULL, NULL ), HYBLAS_OK );
	hyblas_stencil_t* h = NULL;
	CU_ASSERT_FATAL( hyblas_stencil_create( &b, &h ) == HYBLAS_OK );
	CU_ASSERT_EQUAL( hyblas_stencil_run( h, 13, NULL, NULL ), HYBLAS_OK );
	hyblas_stencil_destroy( h );
	CU_ASSERT( memcmp( a.fields[0].data, b.fields[0].data, (size_t)sx_desc_bytes( &a ) ) == 0 );
	CU_ASSERT_EQUAL( hyblas_stencil_solve( &a, -1, NULL, NULL ), HYBLAS_E_INVALID );
	sx_desc_free( &a );
	sx_desc_free( &b );
}

/* A float description of `nf` fields for plan queries: a plan never
   touches the fields, so addresses far apart stand for arrays of many GB. */
static hyblas_stencil_desc_t sa_plan_desc( hyblas_stencil_kind_t kind, int64_t nx, int64_t ny,
                                           int64_t nz, int nf )
{
	hyblas_stencil_desc_t d;
	memset( &d, 0, sizeof d );
	d.struct_size = sizeof d;
	d.kind        = kind;
	d.type        = HYBLAS_STENCIL_FLOAT;
	d.nx          = nx;
	d.ny          = ny;
	d.nz          = nz;
	for ( int f = 0; f < nf; f++ )
		d.fields[f].data = (void*)(uintptr_t)( ( (uint64_t)f + 1 ) << 40 );
	return d;
}

/* Plan queries on the seed's acoustic set. */
static void test_plan_reproduces_seed( void )
{
	hyblas_stencil_desc_t d =
	    sa_plan_desc( HYBLAS_STENCIL_ACOUSTIC, 1160, 1160, 1160, HYBLAS_ACOUSTIC_FIELDS );
	hyblas_stencil_t* h = NULL;
	CU_ASSERT_FATAL( hyblas_stencil_create( &d, &h ) == HYBLAS_OK );
	const double            pb = 1160.0 * 1160.0 * 4.0;
	hyblas_stencil_params_t p;
	memset( &p, 0, sizeof p );
	p.struct_size = sizeof p;
	p.device_mem  = UINT64_C( 16 ) << 30;
	hyblas_stencil_stats_t st;
	memset( &st, 0, sizeof st );
	st.struct_size                          = sizeof st;
	const hyblas_stencil_scheme_t schemes[] = { HYBLAS_STENCIL_SCHEME_SHARED,
		                                        HYBLAS_STENCIL_SCHEME_DIRECT,
		                                        HYBLAS_STENCIL_SCHEME_COPY };
	const double                  planes[]  = { 1160.0, 1832.0, 1832.0 };
	for ( int s = 0; s < 3; s++ )
	{
		p.scheme      = schemes[s];
		p.chunks      = 8;
		p.block_steps = 12;
		CU_ASSERT_EQUAL( hyblas_stencil_plan( h, 12, &p, &st ), HYBLAS_OK );
		CU_ASSERT_EQUAL( st.scheme, schemes[s] );
		CU_ASSERT_EQUAL( st.chunks, 8 );
		CU_ASSERT_EQUAL( st.block_steps, 12 );
		CU_ASSERT_EQUAL( st.in_core, 0 );
		CU_ASSERT_EQUAL( (double)st.bytes_h2d, planes[s] * 3.0 * pb );
		CU_ASSERT_EQUAL( (double)st.bytes_d2h, 2.0 * 1160.0 * pb );
		CU_ASSERT_EQUAL( (double)st.device_bytes, 3.0 * 4.0 * 241.0 * pb );
		CU_ASSERT( st.predicted_seconds > 0.0 );
		CU_ASSERT_EQUAL( st.path, HYBLAS_PATH_CPU );
	}
	/* The planner's own choice within 16 GiB is out of core; in core needs
	   the whole 25 GB. */
	p.scheme      = HYBLAS_STENCIL_SCHEME_AUTO;
	p.chunks      = 0;
	p.block_steps = 0;
	CU_ASSERT_EQUAL( hyblas_stencil_plan( h, 36, &p, &st ), HYBLAS_OK );
	CU_ASSERT_EQUAL( st.in_core, 0 );
	CU_ASSERT( st.device_bytes <= p.device_mem );
	printf( "\n  16 GiB: %s\n", st.why );
	p.scheme = HYBLAS_STENCIL_SCHEME_IN_CORE;
	CU_ASSERT_EQUAL( hyblas_stencil_plan( h, 36, &p, &st ), HYBLAS_E_INVALID );
	p.device_mem = 80000000000ull;
	CU_ASSERT_EQUAL( hyblas_stencil_plan( h, 36, &p, &st ), HYBLAS_OK );
	CU_ASSERT_EQUAL( st.in_core, 1 );
	CU_ASSERT( fabs( (double)st.device_bytes - 4.0 * 1160.0 * pb ) < 1.0 );
	p.scheme = HYBLAS_STENCIL_SCHEME_AUTO;
	CU_ASSERT_EQUAL( hyblas_stencil_plan( h, 36, &p, &st ), HYBLAS_OK );
	printf( "  80 GB: %s\n", st.why );
	hyblas_stencil_destroy( h );
}

/* A caller compiled with a longer statistics struct: we write our part and
   not a byte beyond. */
static void test_struct_versions( void )
{
	hyblas_stencil_desc_t d =
	    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 20, 20, 1, 0 );
	struct
	{
		hyblas_stencil_stats_t s;
		char                   future[64];
	} big;
	memset( &big, 0x7e, sizeof big );
	big.s.struct_size = sizeof big;
	CU_ASSERT_EQUAL( hyblas_stencil_solve( &d, 3, NULL, &big.s ), HYBLAS_OK );
	CU_ASSERT_EQUAL( big.s.steps, 3 );
	CU_ASSERT_EQUAL( big.s.struct_size, sizeof big.s );
	int untouched = 1;
	for ( size_t i = 0; i < sizeof big.future; i++ ) untouched &= big.future[i] == 0x7e;
	CU_ASSERT( untouched );
	/* A longer description and parameters: their extra bytes are ignored. */
	struct
	{
		hyblas_stencil_desc_t d;
		char                  future[32];
	} bd;
	memset( &bd, 0x11, sizeof bd );
	bd.d             = d;
	bd.d.struct_size = sizeof bd;
	CU_ASSERT_EQUAL( hyblas_stencil_solve( &bd.d, 1, NULL, NULL ), HYBLAS_OK );
	sx_desc_free( &d );
}

/* The documented data sets. */
static void test_data_sets( void )
{
	hyblas_stencil_desc_t a =
	    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, 21, 21, 21, 0 );
	const float* pr = a.fields[HYBLAS_ACOUSTIC_PREV].data;
	const float* cu = a.fields[HYBLAS_ACOUSTIC_CUR].data;
	const float* v  = a.fields[HYBLAS_ACOUSTIC_VEL].data;
	CU_ASSERT( memcmp( pr, cu, (size_t)sx_desc_bytes( &a ) ) == 0 );
	CU_ASSERT_EQUAL( v[123], 1500.0f );
	CU_ASSERT_EQUAL( cu[( 10 * 21 + 10 ) * 21 + 10], 1.0f ); /* the centre */
	CU_ASSERT_EQUAL( cu[( 10 * 21 + 10 ) * 21 + 3], 0.0f );  /* the fixed band */
	CU_ASSERT( fabsf( cu[( 10 * 21 + 10 ) * 21 + 14] - expf( -16.0f / 32.0f ) ) < 1e-6f );
	sx_desc_free( &a );
	hyblas_stencil_desc_t h = sx_desc( HYBLAS_STENCIL_HIMENO, HYBLAS_STENCIL_FLOAT, 9, 8, 7, 0 );
	const float*          p = h.fields[HYBLAS_HIMENO_P].data;
	CU_ASSERT_EQUAL( p[( 5 * 8 + 3 ) * 9 + 4], 25.0f / 36.0f );
	CU_ASSERT_EQUAL( ( (const float*)h.fields[HYBLAS_HIMENO_A0 + 3].data )[17], 1.0f / 6.0f );
	CU_ASSERT_EQUAL( ( (const float*)h.fields[HYBLAS_HIMENO_B0 + 1].data )[17], 0.0f );
	CU_ASSERT_EQUAL( ( (const float*)h.fields[HYBLAS_HIMENO_C0 + 2].data )[17], 1.0f );
	sx_desc_free( &h );
	hyblas_stencil_desc_t l =
	    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_DOUBLE, 9, 8, 1, 0 );
	CU_ASSERT_EQUAL( ( (const double*)l.fields[0].data )[4], 1.0 );
	CU_ASSERT_EQUAL( ( (const double*)l.fields[0].data )[9 + 4], 0.0 );
	CU_ASSERT_EQUAL( hyblas_stencil_fill( NULL ), HYBLAS_E_INVALID );
	sx_desc_free( &l );
}

/* The damped wave written out here from its equations (include/hyblas/
   stencil.h): q' = (1 - gamma dt) q + c^2 dt Lap_h p, p' = p + dt q', the
   band of width 1 fixed, in the element type and in the documented
   order of operations. */
#define SA_WAVE_REF( T, NAME )                                                                     \
	static void NAME( T* p, T* q, int64_t nx, int64_t ny, double dx, double dy, double c,          \
	                  double g, double dt, int64_t steps )                                         \
	{                                                                                              \
		const size_t n  = (size_t)( nx * ny );                                                     \
		T*           pn = malloc( n * sizeof( T ) );                                               \
		T*           qn = malloc( n * sizeof( T ) );                                               \
		const T      ix = (T)( 1.0 / ( dx * dx ) ), iy = (T)( 1.0 / ( dy * dy ) );                 \
		const T      kc    = (T)( 2.0 * ( 1.0 / ( dx * dx ) + 1.0 / ( dy * dy ) ) );               \
		const T      decay = (T)( 1.0 - g * dt ), c2dt = (T)( c * c * dt ), tdt = (T)dt;           \
		for ( int64_t t = 0; t < steps; t++ )                                                      \
		{                                                                                          \
			memcpy( pn, p, n * sizeof( T ) );                                                      \
			memcpy( qn, q, n * sizeof( T ) );                                                      \
			for ( int64_t y = 1; y < ny - 1; y++ )                                                 \
				for ( int64_t x = 1; x < nx - 1; x++ )                                             \
				{                                                                                  \
					const int64_t i = y * nx + x;                                                  \
					const T       lap =                                                            \
					    ix * ( p[i + 1] + p[i - 1] ) + iy * ( p[i + nx] + p[i - nx] ) - kc * p[i]; \
					qn[i] = decay * q[i] + c2dt * lap;                                             \
					pn[i] = p[i] + tdt * qn[i];                                                    \
				}                                                                                  \
			memcpy( p, pn, n * sizeof( T ) );                                                      \
			memcpy( q, qn, n * sizeof( T ) );                                                      \
		}                                                                                          \
		free( pn );                                                                                \
		free( qn );                                                                                \
	}
SA_WAVE_REF( float, sa_wave_ref_f32 )
SA_WAVE_REF( double, sa_wave_ref_f64 )

/* The damped wave through the API on the CPU equals the serial reference
   above bit for bit, for either type, with odd and even step counts (the
   placement of P and Q after an odd number of steps), and it moves: a
   kernel that copied or swapped its fields would not match. */
static void test_wave_matches_equations( void )
{
	const int64_t nx = 23, ny = 19;
	for ( int t = 0; t < 2; t++ )
		for ( int64_t steps = 4; steps <= 5; steps++ )
		{
			const hyblas_stencil_type_t type = t ? HYBLAS_STENCIL_DOUBLE : HYBLAS_STENCIL_FLOAT;
			hyblas_stencil_desc_t       d    = sx_desc( HYBLAS_STENCIL_WAVE2D, type, nx, ny, 1, 0 );
			const size_t                nb   = (size_t)sx_desc_bytes( &d );
			void*                       rp   = malloc( nb );
			void*                       rq   = malloc( nb );
			memcpy( rp, d.fields[HYBLAS_WAVE_P].data, nb );
			memcpy( rq, d.fields[HYBLAS_WAVE_Q].data, nb );
			const double dt = 0.5 / sqrt( 1.0 / ( d.dx * d.dx ) + 1.0 / ( d.dy * d.dy ) );
			if ( t )
				sa_wave_ref_f64( rp, rq, nx, ny, d.dx, d.dy, 1.0, d.damping, dt, steps );
			else
				sa_wave_ref_f32( rp, rq, nx, ny, d.dx, d.dy, 1.0, d.damping, dt, steps );
			/* The run moved p away from its start. */
			CU_ASSERT( memcmp( rp, d.fields[HYBLAS_WAVE_P].data, nb ) != 0 );
			const hyblas_stencil_params_t prm = sx_params( HYBLAS_PATH_CPU, 0, 0, 0 );
			hyblas_stencil_stats_t        st;
			CU_ASSERT_EQUAL( sx_solve( &d, &prm, steps, &st ), HYBLAS_OK );
			CU_ASSERT( memcmp( rp, d.fields[HYBLAS_WAVE_P].data, nb ) == 0 );
			CU_ASSERT( memcmp( rq, d.fields[HYBLAS_WAVE_Q].data, nb ) == 0 );
			free( rp );
			free( rq );
			sx_desc_free( &d );
		}
}

/* One standing mode of the undamped wave follows the discrete oscillator:
   with p = A sin(pi x / (nx-1)) sin(pi y / (ny-1)) (zero on the band) and
   q = 0, the scheme keeps the shape and advances (A, B) by
   B' = B - dt w2 A, A' = A + dt B', w2 = c^2 (4/dx^2 sin^2(pi/(2(nx-1)))
   + 4/dy^2 sin^2(pi/(2(ny-1)))), its eigenvalue. Checked in double
   against that recurrence to rounding: a stencil with a wrong weight, a
   wrong sign or the update order reversed (q' from p') drifts away. */
static void test_wave_mode_oscillates( void )
{
	const int64_t         nx = 33, ny = 25, steps = 40;
	hyblas_stencil_desc_t d = sx_desc( HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_DOUBLE, nx, ny, 1, 0 );
	d.damping               = 0.0;
	const double pi         = 3.14159265358979323846;
	double*      p          = d.fields[HYBLAS_WAVE_P].data;
	double*      q          = d.fields[HYBLAS_WAVE_Q].data;
	for ( int64_t y = 0; y < ny; y++ )
		for ( int64_t x = 0; x < nx; x++ )
		{
			p[y * nx + x] = sin( pi * (double)x / (double)( nx - 1 ) ) *
			                sin( pi * (double)y / (double)( ny - 1 ) );
			q[y * nx + x] = 0.0;
		}
	/* The band is fixed at the sine's zeros (to rounding). */
	for ( int64_t x = 0; x < nx; x++ ) p[x] = p[( ny - 1 ) * nx + x] = 0.0;
	for ( int64_t y = 0; y < ny; y++ ) p[y * nx] = p[y * nx + nx - 1] = 0.0;
	const double sx = sin( pi / ( 2.0 * (double)( nx - 1 ) ) ),
	             sy = sin( pi / ( 2.0 * (double)( ny - 1 ) ) );
	const double w2 = 4.0 * sx * sx / ( d.dx * d.dx ) + 4.0 * sy * sy / ( d.dy * d.dy );
	const double dt = 0.5 / sqrt( 1.0 / ( d.dx * d.dx ) + 1.0 / ( d.dy * d.dy ) );
	double       a = 1.0, b = 0.0;
	for ( int64_t t = 0; t < steps; t++ )
	{
		b -= dt * w2 * a;
		a += dt * b;
	}
	/* The mode turns through more than a quarter period in those steps. */
	CU_ASSERT( a < 0.5 );
	const hyblas_stencil_params_t prm = sx_params( HYBLAS_PATH_CPU, 0, 0, 0 );
	hyblas_stencil_stats_t        st;
	CU_ASSERT_EQUAL( sx_solve( &d, &prm, steps, &st ), HYBLAS_OK );
	double err = 0.0;
	for ( int64_t y = 0; y < ny; y++ )
		for ( int64_t x = 0; x < nx; x++ )
		{
			const double m = sin( pi * (double)x / (double)( nx - 1 ) ) *
			                 sin( pi * (double)y / (double)( ny - 1 ) );
			const int    band = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
			const double ep   = fabs( p[y * nx + x] - ( band ? 0.0 : a * m ) );
			const double eq   = fabs( q[y * nx + x] - ( band ? 0.0 : b * m ) );
			if ( ep > err ) err = ep;
			if ( eq > err ) err = eq;
		}
	CU_ASSERT( err < 1e-12 );
	if ( !( err < 1e-12 ) ) printf( "\n  mode error %g\n", err );
	sx_desc_free( &d );
}

/* Descriptions of the wave that create refuses, with nothing kept. */
static void test_wave_rejects_bad_descriptions( void )
{
	hyblas_stencil_desc_t good =
	    sx_desc( HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 12, 11, 1, 0 );
	hyblas_stencil_t* h = NULL;
	CU_ASSERT_EQUAL( hyblas_stencil_create( &good, &h ), HYBLAS_OK );
	hyblas_stencil_destroy( h );
	for ( int c = 0; c < 9; c++ )
	{
		hyblas_stencil_desc_t d = good;
		switch ( c )
		{
		case 0:
			d.nz = 3; /* 2-D only */
			break;
		case 1:
			d.damping = -0.1;
			break;
		case 2:
			d.speed = NAN;
			break;
		case 3:
			d.dt = 0.9; /* c^2 dt^2 (1/dx^2 + 1/dy^2) = 1.17 > 1 - gamma dt / 2 */
			break;
		case 4:
			d.damping = 20.0; /* gamma dt > 1 at the default dt */
			break;
		case 5:
			d.speed = 3.0; /* the given dt past the limit for this speed */
			d.dt    = 0.5;
			break;
		case 6:
			d.fields[HYBLAS_WAVE_Q_WORK].data = NULL;
			break;
		case 7:
			d.fields[HYBLAS_WAVE_P].rate      = 16.0; /* P_WORK must have it too, or 0 */
			d.fields[HYBLAS_WAVE_P_WORK].rate = 8.0;
			break;
		default:
			d.fields[HYBLAS_WAVE_Q].rate = INFINITY;
			break;
		}
		h = (hyblas_stencil_t*)(uintptr_t)0x1234;
		CU_ASSERT_EQUAL( hyblas_stencil_create( &d, &h ), HYBLAS_E_INVALID );
		CU_ASSERT( h == (hyblas_stencil_t*)(uintptr_t)0x1234 );
		if ( h != (hyblas_stencil_t*)(uintptr_t)0x1234 ) printf( "\n  wave case %d\n", c );
	}
	/* Each quantity its own rate: pressure alone, and both. */
	hyblas_stencil_desc_t d           = good;
	d.fields[HYBLAS_WAVE_P].rate      = 16.0;
	d.fields[HYBLAS_WAVE_P_WORK].rate = 16.0;
	CU_ASSERT_EQUAL( hyblas_stencil_create( &d, &h ), HYBLAS_OK );
	hyblas_stencil_destroy( h );
	d.fields[HYBLAS_WAVE_Q].rate = 8.0;
	CU_ASSERT_EQUAL( hyblas_stencil_create( &d, &h ), HYBLAS_OK );
	hyblas_stencil_destroy( h );
	sx_desc_free( &good );
}

/* Runs of the wave that are refused change neither quantity nor the
   statistics: a negative count, more chunks than rows, a forced block
   whose halo is deeper than a chunk (40 rows in 8 chunks of 5, k = 6),
   and, with the pressure compressed, a forced copying scheme and too many
   fidelity checkpoints. */
static void test_wave_run_rejects_bad_parameters( void )
{
	hyblas_stencil_desc_t d = sx_desc( HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 24, 40, 1, 0 );
	for ( int c = 0; c < 5; c++ )
	{
		const int zip                     = c >= 3;
		d.fields[HYBLAS_WAVE_P].rate      = zip ? 16.0 : 0.0;
		d.fields[HYBLAS_WAVE_P_WORK].rate = zip ? 16.0 : 0.0;
		hyblas_stencil_t* h               = NULL;
		CU_ASSERT_FATAL( hyblas_stencil_create( &d, &h ) == HYBLAS_OK );
		sa_snap_t               snap   = sa_snap( &d );
		hyblas_stencil_params_t p      = sx_params( HYBLAS_PATH_AUTO, 0, 0, 0 );
		int64_t                 steps  = 6;
		hyblas_status_t         expect = HYBLAS_E_INVALID;
		switch ( c )
		{
		case 0:
			steps = -1;
			break;
		case 1:
			p.chunks = 41;
			break;
		case 2:
			p = sx_params( HYBLAS_PATH_AUTO, HYBLAS_STENCIL_SCHEME_SHARED, 8, 6 );
			break;
		case 3:
			p      = sx_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_COPY, 2, 2 );
			expect = HYBLAS_E_UNSUPPORTED;
			break;
		default:
			p.fidelity_every = 1;
			steps            = HYBLAS_STENCIL_FIDELITY_MAX + 1;
			break;
		}
		hyblas_stencil_stats_t st;
		memset( &st, 0x5c, sizeof st );
		st.struct_size = sizeof st;
		CU_ASSERT_EQUAL( hyblas_stencil_run( h, steps, &p, &st ), expect );
		CU_ASSERT_EQUAL( st.steps, (int64_t)0x5c5c5c5c5c5c5c5c );
		CU_ASSERT( sa_unchanged( &d, &snap ) );
		hyblas_stencil_destroy( h );
	}
	sx_desc_free( &d );
}

/* The seed's ch. 4 workload planned (no arrays touched): the wave at
   45000 x 45000 float, d = 8, k = 16, 64 steps, region sharing, on the
   seed's 16 GB card. Four blocks each upload and download P and Q once
   (45000 rows each), the work arrays never cross; three chunk buffers of
   5625 + 2 * 16 rows of four arrays fit. At rate 16 a compressed level
   moves half its bytes, but its ends are fused (the first block uploads
   it as values, the last downloads it so): per block and direction the
   pressure moves 0.5 and 0.5 once more, so the pressure alone moves
   (4 x 0.5 + 0.5 + 4) / 8 = 0.8125 of the uncompressed bytes, every
   field (2.5 + 2.5) / 8 = 0.625. */
static void test_wave_plan_seed( void )
{
	hyblas_stencil_desc_t d =
	    sa_plan_desc( HYBLAS_STENCIL_WAVE2D, 45000, 45000, 1, HYBLAS_WAVE_FIELDS );
	const double            row = 45000.0 * 4.0;
	const double            raw = 4.0 * 2.0 * 45000.0 * row;
	hyblas_stencil_params_t p;
	memset( &p, 0, sizeof p );
	p.struct_size = sizeof p;
	p.device_mem  = UINT64_C( 16 ) << 30;
	p.scheme      = HYBLAS_STENCIL_SCHEME_SHARED;
	p.chunks      = 8;
	p.block_steps = 16;
	/* Raw, the pressure alone (P and P_WORK), every field. */
	const double share[3] = { 1.0, 0.8125, 0.625 };
	for ( int m = 0; m < 3; m++ )
	{
		for ( int f = 0; f < HYBLAS_WAVE_FIELDS; f++ )
			d.fields[f].rate = ( m == 2 || ( m == 1 && f <= HYBLAS_WAVE_P_WORK ) ) ? 16.0 : 0.0;
		hyblas_stencil_t*      h  = NULL;
		hyblas_stencil_stats_t st = { .struct_size = sizeof st };
		CU_ASSERT_FATAL( hyblas_stencil_create( &d, &h ) == HYBLAS_OK );
		CU_ASSERT_EQUAL( hyblas_stencil_plan( h, 64, &p, &st ), HYBLAS_OK );
		CU_ASSERT_EQUAL( st.scheme, HYBLAS_STENCIL_SCHEME_SHARED );
		CU_ASSERT_EQUAL( st.in_core, 0 );
		CU_ASSERT_EQUAL( (double)st.bytes_h2d, share[m] * raw );
		CU_ASSERT_EQUAL( (double)st.bytes_d2h, share[m] * raw );
		/* the seed's three slots of 4 arrays (HYBLAS_STENCIL_SLOTS) */
		CU_ASSERT_EQUAL( st.slots, 3 );
		if ( m == 0 ) CU_ASSERT_EQUAL( (double)st.device_bytes, 3.0 * 4.0 * 5657.0 * row );
		CU_ASSERT( st.device_bytes <= p.device_mem );
		CU_ASSERT( st.predicted_seconds > 0.0 );
		hyblas_stencil_destroy( h );
	}
}

static CU_TestInfo hyb_tests_stencil_api[] = {
	{ "create_rejects_bad_descriptions", test_create_rejects_bad_descriptions },
	{ "run_rejects_bad_parameters", test_run_rejects_bad_parameters },
	{ "runs_match_oracle", test_runs_match_oracle },
	{ "solve_is_one_call", test_solve_is_one_call },
	{ "plan_reproduces_seed", test_plan_reproduces_seed },
	{ "struct_versions", test_struct_versions },
	{ "data_sets", test_data_sets },
	{ "wave_matches_equations", test_wave_matches_equations },
	{ "wave_mode_oscillates", test_wave_mode_oscillates },
	{ "wave_rejects_bad_descriptions", test_wave_rejects_bad_descriptions },
	{ "wave_run_rejects_bad_parameters", test_wave_run_rejects_bad_parameters },
	{ "wave_plan_seed", test_wave_plan_seed },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_stencil_api = {
	"stencil_api", NULL, NULL, NULL, NULL, hyb_tests_stencil_api
};

/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil schedule run by the host executor against the whole-domain
   CPU path, bit for bit: every scheme, many (d, k, T) and every stencil,
   edge cases (d = 1, k = 1, odd k, T mod k != 0, T < k, uneven chunks);
   random orders that respect only the dependencies and stream order (what
   a device may do); the dependencies covering every conflict; recovery
   from a failure at every device step; windows of blocks; infeasible
   schedules rejected. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit/hyb_test_util.h"
#include "kernels/stencil/hyb_stencil_cpurun.h"
#include "kernels/stencil/hyb_stencil_exec.h"
#include "kernels/stencil/hyb_stencil_order.h"
#include "kernels/stencil/hyb_stencil_sched.h"
#include "stencil_test_util.h"

typedef struct
{
	int32_t kind, elem;
	int64_t nx, ny, nz;
	int32_t r;
} ss_shape_t;

/* Small domains deep enough along z for several chunks of h * k planes. */
static const ss_shape_t ss_shapes[] = {
	{ HYB_STENCIL_ACOUSTIC, HYB_STENCIL_F32, 12, 10, 50, 4 },
	{ HYB_STENCIL_HIMENO, HYB_STENCIL_F32, 9, 8, 40, 1 },
	{ HYB_STENCIL_LAPLACE, HYB_STENCIL_F64, 24, 1, 41, 1 },
	{ HYB_STENCIL_STAR, HYB_STENCIL_F32, 10, 9, 40, 2 },
	{ HYB_STENCIL_STAR, HYB_STENCIL_F64, 20, 1, 53, 3 },
	{ HYB_STENCIL_WAVE, HYB_STENCIL_F32, 18, 1, 45, 1 },
};
#define SS_NSHAPES ( (int)( sizeof ss_shapes / sizeof ss_shapes[0] ) )

/* (d, k, T) of the out-of-core runs; infeasible ones must be rejected. */
static const int64_t ss_dkt[][3] = {
	{ 1, 1, 5 },  { 1, 4, 9 },  { 2, 3, 7 }, { 3, 2, 9 },  { 4, 1, 6 }, { 3, 3, 10 },
	{ 5, 1, 3 },  { 2, 5, 11 }, { 4, 2, 2 }, { 3, 4, 1 },  { 3, 2, 0 }, { 7, 1, 4 },
	{ 2, 2, 13 }, { 6, 2, 5 },  { 6, 3, 9 }, { 5, 5, 10 }, { 9, 2, 6 },
};
#define SS_NDKT ( (int)( sizeof ss_dkt / sizeof ss_dkt[0] ) )

static const int32_t ss_ooc[] = { HYB_STENCIL_SCH_COPY, HYB_STENCIL_SCH_DIRECT,
	                              HYB_STENCIL_SCH_SHARED };

static hyb_stencil_sched_in_t ss_in( const hyb_stencil_prob_t* p, int32_t scheme, int64_t d,
                                     int64_t k, int64_t T )
{
	return hyb_stencil_sched_in( p, scheme, (int32_t)d, (int32_t)k, T );
}

/* 1 when the schedule is feasible by the rule the builder documents. */
static int ss_feasible( const hyb_stencil_sched_in_t* in )
{
	if ( in->d > in->n ) return 0;
	if ( in->scheme == HYB_STENCIL_SCH_IN_CORE || in->d == 1 ) return 1;
	const int64_t keff = in->steps > 0 && in->steps < in->k ? in->steps : in->k;
	return in->n / in->d >= (int64_t)in->h * keff;
}

/* Run schedule s on a copy of `init` with the host executor in `order`
   (NULL: list order); 1 when every step ran and the result equals `want`
   (and the residual g_want, or 0 without steps). */
static int ss_run_in_order( const hyb_stencil_prob_t* init, const hyb_stencil_sched_t* s,
                            const int64_t* order, const hyb_stencil_prob_t* want, double g_want )
{
	hyb_stencil_prob_t got;
	sx_clone( init, &got );
	hyb_stencil_exec_t ex;
	CU_ASSERT_FATAL( hyb_stencil_exec_init( &ex, &hyb_stencil_host_ops, &got, s ) == HYB_OK );
	int64_t done = -1;
	CU_ASSERT_EQUAL( hyb_stencil_exec_run( &ex, s, order, -1, &done ), HYB_OK );
	CU_ASSERT_EQUAL( done, s->nsteps );
	double g_got = -1.0;
	CU_ASSERT_EQUAL( hyb_stencil_exec_residual( &ex, &g_got ), HYB_OK );
	const int ok =
	    sx_same_result( want, &got ) && ( s->in.steps == 0 ? g_got == 0.0 : g_got == g_want );
	hyb_stencil_exec_free( &ex );
	sx_free( &got );
	return ok;
}

/* Run schedule `in` on a copy of `init` with the host executor (order NULL:
   list order) and compare with the CPU path's result; 1 when equal. */
static int ss_check( const hyb_stencil_prob_t* init, const hyb_stencil_sched_in_t* in,
                     int random_orders )
{
	hyb_stencil_prob_t want;
	double             g_want = 0.0;
	sx_clone( init, &want );
	CU_ASSERT_FATAL( hyb_stencil_cpu_run( &want, in->steps, 2, &g_want ) == HYB_OK );
	hyb_stencil_sched_t s;
	CU_ASSERT_FATAL( hyb_stencil_sched_build( in, &s ) == HYB_OK );
	int         ok  = 1;
	hyb_t_rng_t rng = hyb_t_rng( (uint64_t)( in->d * 1000 + in->k * 31 + in->steps ) );
	for ( int rep = 0; rep <= random_orders && ok; rep++ )
	{
		int64_t* order = NULL;
		if ( rep > 0 )
		{
			/* A random order respecting the dependencies and stream order
			   (Kahn's algorithm, a random ready step each time). */
			order           = malloc( (size_t)( s.nsteps + 1 ) * sizeof *order );
			int64_t* indeg  = calloc( (size_t)( s.nsteps + 1 ), sizeof *indeg );
			int64_t* ready  = malloc( (size_t)( s.nsteps + 1 ) * sizeof *ready );
			int64_t* last   = malloc( HYB_SS_MAX_STREAMS * sizeof *last );
			int64_t* snext  = malloc( (size_t)( s.nsteps + 1 ) * sizeof *snext );
			int64_t* odeg   = calloc( (size_t)( s.nsteps + 1 ), sizeof *odeg );
			int64_t* ostart = calloc( (size_t)( s.nsteps + 2 ), sizeof *ostart );
			int64_t* outs   = malloc( (size_t)( s.ndeps + 1 ) * sizeof *outs );
			for ( int q = 0; q < HYB_SS_MAX_STREAMS; q++ ) last[q] = -1;
			for ( int64_t j = 0; j < s.nsteps; j++ )
			{
				snext[j]    = -1;
				const int q = s.steps[j].stream;
				if ( last[q] >= 0 )
				{
					snext[last[q]] = j;
					indeg[j]++;
				}
				last[q] = j;
				for ( int64_t e = 0; e < s.steps[j].ndep; e++ ) odeg[s.deps[s.steps[j].dep0 + e]]++;
				indeg[j] += s.steps[j].ndep;
			}
			for ( int64_t j = 0; j < s.nsteps; j++ ) ostart[j + 1] = ostart[j] + odeg[j];
			memset( odeg, 0, (size_t)( s.nsteps + 1 ) * sizeof *odeg );
			for ( int64_t j = 0; j < s.nsteps; j++ )
				for ( int64_t e = 0; e < s.steps[j].ndep; e++ )
				{
					const int64_t i             = s.deps[s.steps[j].dep0 + e];
					outs[ostart[i] + odeg[i]++] = j;
				}
			int64_t nready = 0, nout = 0;
			for ( int64_t j = 0; j < s.nsteps; j++ )
				if ( indeg[j] == 0 ) ready[nready++] = j;
			while ( nready > 0 )
			{
				const int64_t pick = hyb_t_below( &rng, nready );
				const int64_t j    = ready[pick];
				ready[pick]        = ready[--nready];
				order[nout++]      = j;
				if ( snext[j] >= 0 && --indeg[snext[j]] == 0 ) ready[nready++] = snext[j];
				for ( int64_t e = ostart[j]; e < ostart[j + 1]; e++ )
					if ( --indeg[outs[e]] == 0 ) ready[nready++] = outs[e];
			}
			CU_ASSERT_EQUAL( nout, s.nsteps );
			free( indeg );
			free( ready );
			free( last );
			free( snext );
			free( odeg );
			free( ostart );
			free( outs );
		}
		ok = ss_run_in_order( init, &s, order, &want, g_want );
		if ( !ok )
			printf( "\n  mismatch: kind %d scheme %d d %d k %d T %lld order %d\n", init->kind,
			        in->scheme, in->d, in->k, (long long)in->steps, rep );
		free( order );
	}
	hyb_stencil_sched_free( &s );
	sx_free( &want );
	return ok;
}

static void test_out_of_core_bitwise( void )
{
	int runs = 0, rejected = 0;
	for ( int sh = 0; sh < SS_NSHAPES; sh++ )
	{
		const ss_shape_t*  S = &ss_shapes[sh];
		hyb_stencil_prob_t init;
		sx_make( &init, S->kind, S->elem, S->nx, S->ny, S->nz, S->r );
		for ( int sc = 0; sc < 3; sc++ )
			for ( int c = 0; c < SS_NDKT; c++ )
			{
				hyb_stencil_sched_in_t in =
				    ss_in( &init, ss_ooc[sc], ss_dkt[c][0], ss_dkt[c][1], ss_dkt[c][2] );
				/* every slot count (0: the seed's 3) over the combinations */
				in.slots = ( c + sc + sh ) % 3 == 0 ? 0 : 2 + ( c + sc + sh ) % 3;
				/* both ways of bringing the acoustic's older level down */
				in.restartable = ( c + sh ) % 2;
				if ( !ss_feasible( &in ) )
				{
					hyb_stencil_sched_t s;
					CU_ASSERT_EQUAL( hyb_stencil_sched_build( &in, &s ), HYB_E_INVALID );
					rejected++;
					continue;
				}
				CU_ASSERT( ss_check( &init, &in, 0 ) );
				{
					hyb_stencil_sched_t s;
					CU_ASSERT_FATAL( hyb_stencil_sched_build( &in, &s ) == HYB_OK );
					const int32_t want = in.slots > 0 ? in.slots : 3;
					CU_ASSERT_EQUAL( s.nslots, in.d < want ? in.d : want );
					hyb_stencil_sched_free( &s );
					/* a slot count out of range is refused */
					hyb_stencil_sched_in_t bad   = in;
					const int32_t          off[] = { -1, 1, 2, HYB_SS_SLOTS_MAX + 1 };
					bad.slots                    = off[c % 4];
					if ( bad.slots < 0 || bad.slots > HYB_SS_SLOTS_MAX || bad.slots < bad.d )
						CU_ASSERT_EQUAL( hyb_stencil_sched_build( &bad, &s ), HYB_E_INVALID );
				}
				runs++;
			}
		sx_free( &init );
	}
	CU_ASSERT( runs > 150 );
	CU_ASSERT( rejected > 5 );
}

/* Compressed fields need chunk bounds and halos in bands of 4 planes: every
   range a step moves between the host and a slot (or shares) is whole
   bands or ends at the domain; the result stays the CPU path's bit for bit
   in any order the dependencies allow; a plan is refused exactly when its
   aligned last chunk is shallower than the aligned halo. */
static void test_aligned_bitwise( void )
{
	int runs = 0, rejected = 0;
	for ( int sh = 0; sh < SS_NSHAPES; sh++ )
	{
		const ss_shape_t*  S = &ss_shapes[sh];
		hyb_stencil_prob_t init;
		sx_make( &init, S->kind, S->elem, S->nx, S->ny, S->nz, S->r );
		for ( int sc = 1; sc < 3; sc++ )
			for ( int c = 0; c < SS_NDKT; c++ )
			{
				hyb_stencil_sched_in_t in =
				    ss_in( &init, ss_ooc[sc], ss_dkt[c][0], ss_dkt[c][1], ss_dkt[c][2] );
				in.align           = 4;
				const int64_t keff = in.steps > 0 && in.steps < in.k ? in.steps : in.k;
				int64_t       zb[16];
				int           feasible = in.d <= ( in.n + 3 ) / 4;
				if ( feasible && in.d > 1 )
				{
					hyb_stencil_split_aligned( in.n, in.d, 4, zb );
					feasible = zb[in.d] - zb[in.d - 1] >= hyb_stencil_halo( in.h, keff, 4 );
				}
				hyb_stencil_sched_t s;
				const hyb_status_t  rc = hyb_stencil_sched_build( &in, &s );
				CU_ASSERT_EQUAL( rc, feasible ? HYB_OK : HYB_E_INVALID );
				if ( rc != HYB_OK )
				{
					rejected++;
					continue;
				}
				int aligned = 1;
				for ( int64_t i = 0; i < s.nsteps; i++ )
				{
					const hyb_stencil_step_t* st = &s.steps[i];
					if ( st->op == HYB_SS_COMPUTE ) continue;
					aligned &= st->z0 % 4 == 0 && ( st->z1 % 4 == 0 || st->z1 == in.n );
				}
				CU_ASSERT( aligned );
				hyb_stencil_sched_free( &s );
				CU_ASSERT( ss_check( &init, &in, 2 ) );
				runs++;
			}
		sx_free( &init );
	}
	CU_ASSERT( runs > 60 );
	CU_ASSERT( rejected > 5 );
}

static void test_in_core_bitwise( void )
{
	const int64_t pc[][3] = { { 1, 0, 5 }, { 3, 0, 2 }, { 4, 0, 9 },  { 5, 2, 7 }, { 2, 9, 6 },
		                      { 6, 1, 1 }, { 7, 0, 0 }, { 13, 3, 8 }, { 40, 0, 3 } };
	for ( int sh = 0; sh < SS_NSHAPES; sh++ )
	{
		const ss_shape_t*  S = &ss_shapes[sh];
		hyb_stencil_prob_t init;
		sx_make( &init, S->kind, S->elem, S->nx, S->ny, S->nz, S->r );
		for ( int c = 0; c < (int)( sizeof pc / sizeof pc[0] ); c++ )
		{
			hyb_stencil_sched_in_t in =
			    ss_in( &init, HYB_STENCIL_SCH_IN_CORE, pc[c][0], 1, pc[c][2] );
			in.cone = (int32_t)pc[c][1];
			CU_ASSERT( ss_check( &init, &in, 0 ) );
		}
		sx_free( &init );
	}
}

/* What a device may do: any order the dependencies and streams allow. */
static void test_random_orders( void )
{
	const int64_t combos[][4] = { { HYB_STENCIL_SCH_SHARED, 4, 2, 7 },
		                          { HYB_STENCIL_SCH_DIRECT, 3, 3, 8 },
		                          { HYB_STENCIL_SCH_COPY, 5, 1, 4 },
		                          { HYB_STENCIL_SCH_SHARED, 2, 4, 9 },
		                          { HYB_STENCIL_SCH_IN_CORE, 6, 0, 7 } };
	for ( int sh = 0; sh < SS_NSHAPES; sh++ )
	{
		const ss_shape_t*  S = &ss_shapes[sh];
		hyb_stencil_prob_t init;
		sx_make( &init, S->kind, S->elem, S->nx, S->ny, S->nz, S->r );
		for ( int c = 0; c < 5; c++ )
		{
			hyb_stencil_sched_in_t in = ss_in( &init, (int32_t)combos[c][0], combos[c][1],
			                                   combos[c][2] ? combos[c][2] : 1, combos[c][3] );
			in.slots                  = c == 1 ? 4 : 0;
			if ( !ss_feasible( &in ) ) continue;
			/* both ways of bringing the acoustic's older level down */
			for ( int r = 0; r < ( c < 4 ? 2 : 1 ); r++ )
			{
				in.restartable = r;
				CU_ASSERT( ss_check( &init, &in, 12 ) );
			}
		}
		sx_free( &init );
	}
}

/* Every pair of steps whose accesses conflict is ordered by the
   dependencies and stream order (transitively). */
static void test_dependencies_cover_conflicts( void )
{
	const int64_t combos[][4] = { { HYB_STENCIL_SCH_SHARED, 4, 2, 7 },
		                          { HYB_STENCIL_SCH_DIRECT, 3, 3, 8 },
		                          { HYB_STENCIL_SCH_COPY, 5, 1, 4 },
		                          { HYB_STENCIL_SCH_IN_CORE, 5, 0, 6 },
		                          { HYB_STENCIL_SCH_SHARED, 1, 3, 5 } };
	for ( int sh = 0; sh < SS_NSHAPES; sh += 2 )
	{
		const ss_shape_t*  S = &ss_shapes[sh];
		hyb_stencil_prob_t p;
		sx_make( &p, S->kind, S->elem, S->nx, S->ny, S->nz, S->r );
		/* each combination both ways of bringing the acoustic's older level down */
		for ( int cr = 0; cr < 10; cr++ )
		{
			const int              c  = cr % 5;
			hyb_stencil_sched_in_t in = ss_in( &p, (int32_t)combos[c][0], combos[c][1],
			                                   combos[c][2] ? combos[c][2] : 1, combos[c][3] );
			if ( !ss_feasible( &in ) ) continue;
			in.restartable = cr >= 5;
			hyb_stencil_sched_t s;
			CU_ASSERT_FATAL( hyb_stencil_sched_build( &in, &s ) == HYB_OK );
			const int64_t n = s.nsteps;
			/* reach[i][j]: j follows i. Built backwards: j's predecessors
			   are its dependencies and its stream predecessor. */
			unsigned char* reach = calloc( (size_t)( n * n ), 1 );
			int64_t        last[HYB_SS_MAX_STREAMS];
			for ( int q = 0; q < HYB_SS_MAX_STREAMS; q++ ) last[q] = -1;
			for ( int64_t j = 0; j < n; j++ )
			{
				const hyb_stencil_step_t* st = &s.steps[j];
				for ( int64_t e = -1; e < st->ndep; e++ )
				{
					const int64_t i = e < 0 ? last[st->stream] : s.deps[st->dep0 + e];
					if ( i < 0 ) continue;
					CU_ASSERT( i < j );
					reach[i * n + j] = 1;
					for ( int64_t a = 0; a < i; a++ )
						if ( reach[a * n + i] ) reach[a * n + j] = 1;
				}
				last[st->stream] = j;
			}
			int64_t missing = 0;
			for ( int64_t i = 0; i < n; i++ )
				for ( int64_t j = i + 1; j < n; j++ )
				{
					hyb_stencil_access_t ai[4], aj[4];
					const int            na = hyb_stencil_step_accesses( &s, &s.steps[i], ai );
					const int            nb = hyb_stencil_step_accesses( &s, &s.steps[j], aj );
					int                  conflict = 0;
					for ( int x = 0; x < na; x++ )
						for ( int y = 0; y < nb; y++ )
							conflict |= ai[x].res == aj[y].res && ( ai[x].write || aj[y].write ) &&
							            ai[x].lo < aj[y].hi && aj[y].lo < ai[x].hi;
					if ( conflict && !reach[i * n + j] ) missing++;
				}
			CU_ASSERT_EQUAL( missing, 0 );
			free( reach );
			hyb_stencil_sched_free( &s );
		}
		sx_free( &p );
	}
}

/* The seed's arithmetic (seed 003 §3.6.3): acoustic 1160^3, d = 8, k = 12,
   h = 4. Region sharing uploads every plane once: 1160. Without it every
   middle chunk adds 2hk = 96 halo planes and the end chunks hk = 48 each:
   1832 planes. The seed writes 1160 + 2 x 52 + 6 x 96 = 1840: its 52 for an
   end chunk counts the 4 fixed boundary planes, which its 1160 already
   holds (the arrays are 1160 planes deep). */
static void test_seed_plane_counts( void )
{
	hyb_stencil_sched_in_t in;
	memset( &in, 0, sizeof in );
	in.n                       = 1160;
	in.h                       = 4;
	in.levels                  = 3;
	in.inputs                  = 2;
	in.ncoef                   = 1;
	in.d                       = 8;
	in.k                       = 12;
	in.steps                   = 12;
	const int64_t       arrays = in.inputs + in.ncoef;
	hyb_stencil_sched_t s;
	in.scheme = HYB_STENCIL_SCH_SHARED;
	CU_ASSERT_FATAL( hyb_stencil_sched_build( &in, &s ) == HYB_OK );
	CU_ASSERT_EQUAL( s.planes_h2d, 1160 * arrays );
	CU_ASSERT_EQUAL( s.planes_d2d, 96 * 7 * arrays );
	CU_ASSERT_EQUAL( s.slot_planes, 145 + 96 );
	hyb_stencil_sched_free( &s );
	in.scheme = HYB_STENCIL_SCH_DIRECT;
	CU_ASSERT_FATAL( hyb_stencil_sched_build( &in, &s ) == HYB_OK );
	CU_ASSERT_EQUAL( s.planes_h2d, 1832 * arrays );
	CU_ASSERT_EQUAL( 1160 + 2 * 52 + 6 * 96 - s.planes_h2d / arrays, 2 * in.h );
	CU_ASSERT_EQUAL( s.planes_d2d, 0 );
	/* Two levels come back: all 1160 planes of each. */
	CU_ASSERT_EQUAL( s.planes_d2h, 2 * 1160 );
	hyb_stencil_sched_free( &s );
}

/* Infeasible or malformed schedules: HYB_E_INVALID, nothing allocated. */
static void test_rejects_infeasible( void )
{
	hyb_stencil_sched_in_t in;
	memset( &in, 0, sizeof in );
	in.scheme = HYB_STENCIL_SCH_DIRECT;
	in.n      = 50;
	in.h      = 4;
	in.levels = 3;
	in.inputs = 2;
	in.ncoef  = 1;
	in.d      = 4;
	in.k      = 3;
	in.steps  = 10;
	hyb_stencil_sched_t s;
	memset( &s, 0x77, sizeof s );
	CU_ASSERT_EQUAL( hyb_stencil_sched_build( &in, &s ), HYB_OK );
	hyb_stencil_sched_free( &s );
	/* Resuming inside a block only where the schedule keeps the host state
	   restartable: two input levels, and one (an odd number of blocks: the
	   last puts its newest level in place). */
	for ( int inputs = 2; inputs >= 1; inputs-- )
	{
		hyb_stencil_sched_in_t r = in;
		r.inputs                 = inputs;
		r.levels                 = inputs + 1;
		r.first_chunk            = 1;
		CU_ASSERT_EQUAL( hyb_stencil_sched_build( &r, &s ), HYB_E_INVALID );
		r.restartable = 1;
		CU_ASSERT_EQUAL( hyb_stencil_sched_build( &r, &s ), HYB_OK );
		hyb_stencil_sched_free( &s );
	}
	/* A halo deeper than a chunk (12 < 16), d = 0, d > n, k = 0, an unknown
	   scheme, levels not matching inputs, a first chunk past the last, a
	   pending commit after the first chunk, a negative step count. */
	for ( int c = 0; c < 9; c++ )
	{
		hyb_stencil_sched_in_t b = in;
		switch ( c )
		{
		case 0:
			b.k = 4;
			break;
		case 1:
			b.d = 0;
			break;
		case 2:
			b.d = 51;
			break;
		case 3:
			b.k = 0;
			break;
		case 4:
			b.scheme = 9;
			break;
		case 5:
			b.levels = 2;
			break;
		case 6:
			b.first_chunk = 4;
			break;
		case 7:
			b.pending_commit = 1;
			break;
		default:
			b.steps = -1;
			break;
		}
		memset( &s, 0x77, sizeof s );
		CU_ASSERT_EQUAL( hyb_stencil_sched_build( &b, &s ), HYB_E_INVALID );
		if ( c == 0 )
		{
			/* The same halo at T = 3 < k: the blocks are only 3 deep. */
			b.steps = 3;
			CU_ASSERT_EQUAL( hyb_stencil_sched_build( &b, &s ), HYB_OK );
			hyb_stencil_sched_free( &s );
		}
	}
}

/* Blocks built and run in windows equal the whole run. */
static void test_windows( void )
{
	for ( int sh = 0; sh < SS_NSHAPES; sh++ )
	{
		const ss_shape_t*  S = &ss_shapes[sh];
		hyb_stencil_prob_t init, want, got;
		sx_make( &init, S->kind, S->elem, S->nx, S->ny, S->nz, S->r );
		sx_clone( &init, &want );
		sx_clone( &init, &got );
		hyb_stencil_sched_in_t in = ss_in( &init, HYB_STENCIL_SCH_SHARED, 3, 2, 11 ); /* 6 blocks */
		double                 gw = 0.0, gg = 0.0;
		CU_ASSERT_EQUAL( hyb_stencil_cpu_run( &want, in.steps, 0, &gw ), HYB_OK );
		hyb_stencil_sched_t whole;
		CU_ASSERT_FATAL( hyb_stencil_sched_build( &in, &whole ) == HYB_OK );
		hyb_stencil_exec_t ex;
		CU_ASSERT_FATAL( hyb_stencil_exec_init( &ex, &hyb_stencil_host_ops, &got, &whole ) ==
		                 HYB_OK );
		const int64_t cuts[] = { 0, 2, 3, 6 };
		for ( int w = 0; w < 3; w++ )
		{
			hyb_stencil_sched_in_t wi = in;
			wi.block_begin            = cuts[w];
			wi.block_end              = cuts[w + 1];
			hyb_stencil_sched_t s;
			CU_ASSERT_FATAL( hyb_stencil_sched_build( &wi, &s ) == HYB_OK );
			CU_ASSERT_EQUAL( hyb_stencil_exec_run( &ex, &s, NULL, -1, NULL ), HYB_OK );
			hyb_stencil_sched_free( &s );
		}
		CU_ASSERT_EQUAL( hyb_stencil_exec_residual( &ex, &gg ), HYB_OK );
		CU_ASSERT( sx_same_result( &want, &got ) );
		CU_ASSERT( gg == gw );
		hyb_stencil_exec_free( &ex );
		hyb_stencil_sched_free( &whole );
		sx_free( &init );
		sx_free( &want );
		sx_free( &got );
	}
}

/* A device failure at step f (in list order): everything before f done;
   f's destination, if on the host, half written (poisoned); every device
   buffer lost. The remainder is rebuilt (the failed block from its first
   unfinished chunk, with the older levels of finished chunks still waiting
   in staging) and run on the host executor: the result is the CPU path's,
   bit for bit. In core, the whole run restarts from the untouched inputs. */
static void ss_fail_and_recover( const hyb_stencil_prob_t* init, const hyb_stencil_sched_in_t* in,
                                 int64_t f, int older, const hyb_stencil_prob_t* want,
                                 double gwant )
{
	hyb_stencil_sched_t s;
	CU_ASSERT_FATAL( hyb_stencil_sched_build( in, &s ) == HYB_OK );
	hyb_stencil_prob_t got;
	sx_clone( init, &got );
	hyb_stencil_exec_t ex;
	CU_ASSERT_FATAL( hyb_stencil_exec_init( &ex, &hyb_stencil_host_ops, &got, &s ) == HYB_OK );
	CU_ASSERT_EQUAL( hyb_stencil_exec_run( &ex, &s, NULL, f, NULL ), HYB_OK );
	const hyb_stencil_step_t* st = &s.steps[f];
	const int64_t             pb = hyb_stencil_plane_bytes( &got );
	if ( st->op == HYB_SS_DOWNLOAD )
	{
		char* dst = st->field >= 0
		                ? (char*)got.field[ex.roles.state[st->field]] + st->z0 * pb
		                : (char*)ex.sout[st->slot] +
		                      ( st->part * ex.stage_planes + st->z0 - st->dst_base ) * pb;
		memset( dst, 0xff, (size_t)( ( st->z1 - st->z0 ) * pb / 2 + 1 ) );
	}
	for ( int i = 0; i < ex.nslots; i++ )
		memset( ex.slot[i], 0xff,
		        (size_t)( ex.slot_planes * pb * ( ex.roles.levels + ex.roles.ncoef ) ) );
	hyb_stencil_sched_in_t rin = *in;
	if ( in->scheme != HYB_STENCIL_SCH_IN_CORE )
	{
		/* The failed block, its first chunk whose downloads are not all
		   done, the first chunk whose older level is not committed. */
		const int32_t b = st->block;
		int32_t       j = in->d, c = in->d;
		for ( int64_t i = f; i < s.nsteps; i++ )
		{
			const hyb_stencil_step_t* q = &s.steps[i];
			if ( q->block != b ) continue;
			if ( q->op == HYB_SS_DOWNLOAD && q->chunk < j ) j = q->chunk;
			if ( q->op == HYB_SS_COMMIT && q->part == 1 && q->chunk < c ) c = q->chunk;
		}
		rin.block_begin    = b;
		rin.first_chunk    = j;
		rin.pending_commit = in->inputs == 2 ? ( c < j ? c : j ) : j;
		/* A commit that a slower host team would not have done yet: done
		   again from its staging buffer (still intact with three slots). */
		if ( older && rin.pending_commit > 0 ) rin.pending_commit--;
	}
	hyb_stencil_sched_t r;
	CU_ASSERT_FATAL( hyb_stencil_sched_build( &rin, &r ) == HYB_OK );
	CU_ASSERT_EQUAL( hyb_stencil_exec_run( &ex, &r, NULL, -1, NULL ), HYB_OK );
	double g = -1.0;
	CU_ASSERT_EQUAL( hyb_stencil_exec_residual( &ex, &g ), HYB_OK );
	const int ok = sx_same_result( want, &got ) && g == gwant;
	CU_ASSERT( ok );
	if ( !ok )
		printf( "\n  recovery mismatch: kind %d scheme %d d %d k %d T %lld fail at %lld (%s chunk "
		        "%d block %d)\n",
		        init->kind, in->scheme, in->d, in->k, (long long)in->steps, (long long)f,
		        hyb_stencil_op_name( st->op ), st->chunk, st->block );
	hyb_stencil_sched_free( &r );
	hyb_stencil_exec_free( &ex );
	hyb_stencil_sched_free( &s );
	sx_free( &got );
}

static void test_recovery_at_every_device_step( void )
{
	const int64_t combos[][4] = { { HYB_STENCIL_SCH_SHARED, 4, 2, 5 },
		                          { HYB_STENCIL_SCH_DIRECT, 3, 3, 8 },
		                          { HYB_STENCIL_SCH_COPY, 3, 1, 3 },
		                          { HYB_STENCIL_SCH_SHARED, 2, 3, 4 },
		                          { HYB_STENCIL_SCH_IN_CORE, 4, 0, 5 } };
	int           tried       = 0;
	for ( int sh = 0; sh < SS_NSHAPES; sh++ )
	{
		const ss_shape_t*  S = &ss_shapes[sh];
		hyb_stencil_prob_t init, want;
		sx_make( &init, S->kind, S->elem, S->nx, S->ny, S->nz, S->r );
		for ( int c = 0; c < 5; c++ )
		{
			hyb_stencil_sched_in_t in = ss_in( &init, (int32_t)combos[c][0], combos[c][1],
			                                   combos[c][2] ? combos[c][2] : 1, combos[c][3] );
			in.restartable            = 1;
			if ( !ss_feasible( &in ) ) continue;
			double gw = 0.0;
			sx_clone( &init, &want );
			CU_ASSERT_EQUAL( hyb_stencil_cpu_run( &want, in.steps, 0, &gw ), HYB_OK );
			hyb_stencil_sched_t s;
			CU_ASSERT_FATAL( hyb_stencil_sched_build( &in, &s ) == HYB_OK );
			for ( int64_t f = 0; f < s.nsteps; f++ )
			{
				const int op = s.steps[f].op;
				if ( op == HYB_SS_STAGE || op == HYB_SS_COMMIT || op == HYB_SS_HOSTCOPY ) continue;
				ss_fail_and_recover( &init, &in, f, 0, &want, gw );
				tried++;
				if ( in.inputs == 2 && in.d >= 3 && in.scheme != HYB_STENCIL_SCH_IN_CORE )
					ss_fail_and_recover( &init, &in, f, 1, &want, gw );
			}
			hyb_stencil_sched_free( &s );
			sx_free( &want );
		}
		sx_free( &init );
	}
	CU_ASSERT( tried > 300 );
}

/* 1 when order[] is a permutation of s's steps that keeps every dependency, each device
   stream's order and the host steps' list order. `moved` is set when it differs from the
   list order. */
static int ss_order_valid( const hyb_stencil_sched_t* s, const int64_t* order, int* moved )
{
	int64_t* pos = malloc( (size_t)( s->nsteps + 1 ) * sizeof *pos );
	int      ok  = pos != NULL;
	for ( int64_t i = 0; ok && i < s->nsteps; i++ ) pos[i] = -1;
	for ( int64_t c = 0; ok && c < s->nsteps; c++ )
	{
		ok = order[c] >= 0 && order[c] < s->nsteps && pos[order[c]] < 0;
		if ( ok ) pos[order[c]] = c;
		if ( order[c] != c ) *moved = 1;
	}
	int64_t last[HYB_SS_MAX_STREAMS + 1];
	for ( int q = 0; q <= HYB_SS_MAX_STREAMS; q++ ) last[q] = -1;
	for ( int64_t i = 0; ok && i < s->nsteps; i++ )
	{
		const hyb_stencil_step_t* st = &s->steps[i];
		const int q = s->queue[st->stream] == HYB_SQ_HOST ? HYB_SS_MAX_STREAMS : st->stream;
		ok          = last[q] < 0 || pos[last[q]] < pos[i];
		last[q]     = i;
		for ( int64_t e = 0; ok && e < st->ndep; e++ ) ok = pos[s->deps[st->dep0 + e]] < pos[i];
	}
	free( pos );
	return ok;
}

/* Whether, where no host step is in the way, the issue order of s starts the upload of
   chunk c + 1 before the first kernel of chunk c (c >= 1): an upload never waits for the
   issuing thread to get through the previous chunk's kernels. */
static int ss_uploads_early( const hyb_stencil_sched_t* s, const int64_t* order )
{
	int64_t* pos = malloc( (size_t)( s->nsteps + 1 ) * sizeof *pos );
	if ( pos == NULL ) return 0;
	int ok = 1, host = 0;
	for ( int64_t c = 0; c < s->nsteps; c++ ) pos[order[c]] = c;
	for ( int64_t i = 0; i < s->nsteps; i++ ) host |= s->queue[s->steps[i].stream] == HYB_SQ_HOST;
	for ( int64_t i = 0; ok && !host && s->nslots >= 3 && i < s->nsteps; i++ )
	{
		const hyb_stencil_step_t* up = &s->steps[i];
		if ( up->op != HYB_SS_UPLOAD || up->chunk < 2 ) continue;
		for ( int64_t j = 0; j < s->nsteps; j++ )
			if ( s->steps[j].op == HYB_SS_COMPUTE && s->steps[j].block == up->block &&
			     s->steps[j].chunk == up->chunk - 1 )
			{
				ok = pos[i] < pos[j];
				break;
			}
	}
	free( pos );
	return ok;
}

/* The device executor's issue order (hyb_stencil_issue_order): valid, the CPU path's result
   bit for bit through the host executor, and where device steps wait for host steps (the
   acoustic's commits, the copying scheme's staging) some are issued later than listed. */
static void test_issue_order( void )
{
	static const int64_t dkt[][3] = { { 3, 2, 9 }, { 4, 1, 6 }, { 6, 2, 5 }, { 2, 3, 7 } };
	int                  moved = 0, runs = 0;
	for ( int sh = 0; sh < SS_NSHAPES; sh++ )
	{
		const ss_shape_t*  S = &ss_shapes[sh];
		hyb_stencil_prob_t init;
		sx_make( &init, S->kind, S->elem, S->nx, S->ny, S->nz, S->r );
		for ( int c = 0; c < 3; c++ )
			for ( int q = 0; q < 4; q++ )
			{
				hyb_stencil_sched_in_t in =
				    ss_in( &init, ss_ooc[c], dkt[q][0], dkt[q][1], dkt[q][2] );
				if ( !ss_feasible( &in ) ) continue;
				hyb_stencil_sched_t s;
				CU_ASSERT_FATAL( hyb_stencil_sched_build( &in, &s ) == HYB_OK );
				int64_t* order = malloc( (size_t)( s.nsteps + 1 ) * sizeof *order );
				CU_ASSERT_FATAL( order != NULL );
				for ( int64_t window = 0; window <= 16; window += 8 )
				{
					CU_ASSERT_EQUAL( hyb_stencil_issue_order( &s, window, order ), HYB_OK );
					CU_ASSERT( ss_order_valid( &s, order, &moved ) );
					CU_ASSERT( ss_uploads_early( &s, order ) );
				}
				hyb_stencil_prob_t want;
				double             g_want = 0.0;
				sx_clone( &init, &want );
				CU_ASSERT_FATAL( hyb_stencil_cpu_run( &want, in.steps, 2, &g_want ) == HYB_OK );
				CU_ASSERT( ss_run_in_order( &init, &s, order, &want, g_want ) );
				sx_free( &want );
				free( order );
				hyb_stencil_sched_free( &s );
				runs++;
			}
		sx_free( &init );
	}
	CU_ASSERT( runs > 20 );
	CU_ASSERT( moved );
}

static CU_TestInfo hyb_tests_stencil_sched[] = {
	{ "out_of_core_bitwise", test_out_of_core_bitwise },
	{ "aligned_bitwise", test_aligned_bitwise },
	{ "in_core_bitwise", test_in_core_bitwise },
	{ "random_orders", test_random_orders },
	{ "dependencies_cover_conflicts", test_dependencies_cover_conflicts },
	{ "seed_plane_counts", test_seed_plane_counts },
	{ "rejects_infeasible", test_rejects_infeasible },
	{ "windows", test_windows },
	{ "recovery_at_every_device_step", test_recovery_at_every_device_step },
	{ "issue_order", test_issue_order },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_stencil_sched = { "stencil_sched",        NULL, NULL, NULL, NULL,
	                                     hyb_tests_stencil_sched };

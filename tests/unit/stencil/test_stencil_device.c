/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil device pipeline on the simulated device through the public
   API: every scheme against the CPU path bit for bit, the registered
   kernels, fault fallback with the caller's arrays intact, and counting. */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch/stencil/hyb_stencil_keep.h"
#include "dispatch/hyb_dispatch.h"
#include "hyb_op.h"
#include "hyb_routines.h"
#include "hyb_stats.h"
#include "tests/unit/hyb_test_util.h"
#include "hyblas_ext.h"
#include "kernels/hyb_device.h"
#include "kernels/sim/hyb_device_sim.h"
#include "kernels/stencil/hyb_stencil_kernels.h"
#include "stencil_test_util.h"

/* Run `steps` steps of a fresh problem on `path` with scheme/d/k; the
   result fields are compared by the caller. */
static hyblas_status_t sd_run( hyblas_stencil_desc_t* d, hyblas_path_t path, int scheme, int chunks,
                               int k, int64_t steps, hyblas_stencil_stats_t* st )
{
	const hyblas_stencil_params_t p = sx_params( path, scheme, chunks, k );
	return sx_solve( d, &p, steps, st );
}

static const struct
{
	hyblas_stencil_kind_t kind;
	hyblas_stencil_type_t type;
	int64_t               nx, ny, nz;
	int32_t               r;
} sd_cases[] = { { HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 13, 11, 40, 0 },
	             { HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_FLOAT, 12, 10, 37, 0 },
	             { HYBLAS_STENCIL_HIMENO, HYBLAS_STENCIL_FLOAT, 11, 9, 23, 0 },
	             { HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_DOUBLE, 30, 41, 1, 0 },
	             { HYBLAS_STENCIL_STAR, HYBLAS_STENCIL_DOUBLE, 10, 9, 29, 2 },
	             { HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 23, 41, 1, 0 },
	             { HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_DOUBLE, 17, 38, 1, 0 } };
#define SD_NCASES ( (int)( sizeof sd_cases / sizeof sd_cases[0] ) )

static void test_kernels_registered( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const char* names[] = { "stencil.acoustic", "stencil.himeno", "stencil.laplace", "stencil.star",
		                    "stencil.wave" };
	for ( int i = 0; i < 5; i++ )
	{
		const hyb_kernel_id_t id = hyb_kernel_find( names[i] );
		CU_ASSERT( id != HYB_KERNEL_NONE );
		CU_ASSERT_EQUAL( id, hyb_stencil_kernel_id( i + 1 ) );
		CU_ASSERT( hyb_devices_kernel_supported( id ) );
	}
	CU_ASSERT_EQUAL( hyb_stencil_kernel_id( 0 ), HYB_KERNEL_NONE );
	hyb_t_sim_end();
}

/* Every scheme, several (d, k, T), each kind: the simulated device's
   result equals the CPU path's bit for bit, and the run says so; the
   simulated device configured by `extra`. */
static void sd_schemes_match_cpu( const char* extra, int slots )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", extra ), HYB_OK );
	const int plans[][4] = { { HYBLAS_STENCIL_SCHEME_IN_CORE, 1, 0, 5 },
		                     { HYBLAS_STENCIL_SCHEME_IN_CORE, 3, 0, 4 },
		                     { HYBLAS_STENCIL_SCHEME_COPY, 2, 2, 5 },
		                     { HYBLAS_STENCIL_SCHEME_COPY, 1, 3, 7 },
		                     { HYBLAS_STENCIL_SCHEME_DIRECT, 3, 1, 4 },
		                     { HYBLAS_STENCIL_SCHEME_DIRECT, 2, 3, 7 },
		                     { HYBLAS_STENCIL_SCHEME_SHARED, 2, 2, 5 },
		                     { HYBLAS_STENCIL_SCHEME_SHARED, 3, 1, 3 },
		                     /* more chunks than slots: chunk i + S reuses chunk i's slot */
		                     { HYBLAS_STENCIL_SCHEME_COPY, 5, 1, 6 },
		                     { HYBLAS_STENCIL_SCHEME_DIRECT, 6, 1, 7 },
		                     { HYBLAS_STENCIL_SCHEME_SHARED, 5, 1, 9 },
		                     { HYBLAS_STENCIL_SCHEME_SHARED, 4, 2, 5 } };
	for ( int c = 0; c < SD_NCASES; c++ )
		for ( int q = 0; q < (int)( sizeof plans / sizeof plans[0] ); q++ )
		{
			hyblas_stencil_desc_t want =
			    sx_desc( sd_cases[c].kind, sd_cases[c].type, sd_cases[c].nx, sd_cases[c].ny,
			             sd_cases[c].nz, sd_cases[c].r );
			hyblas_stencil_desc_t got = sx_desc( sd_cases[c].kind, sd_cases[c].type, sd_cases[c].nx,
			                                     sd_cases[c].ny, sd_cases[c].nz, sd_cases[c].r );
			hyblas_stencil_stats_t sc, sg;
			CU_ASSERT_EQUAL( sd_run( &want, HYBLAS_PATH_CPU, 0, 0, 0, plans[q][3], &sc ),
			                 HYBLAS_OK );
			const hyblas_status_t rc = sd_run( &got, HYBLAS_PATH_GPU, plans[q][0], plans[q][1],
			                                   plans[q][2], plans[q][3], &sg );
			/* A forced plan whose halo is deeper than a chunk is refused. */
			if ( rc == HYBLAS_E_INVALID )
			{
				sx_desc_free( &want );
				sx_desc_free( &got );
				continue;
			}
			CU_ASSERT_EQUAL( rc, HYBLAS_OK );
			CU_ASSERT_EQUAL( sg.path, HYBLAS_PATH_GPU );
			CU_ASSERT_EQUAL( sg.fell_back, 0 );
			CU_ASSERT_EQUAL( (int)sg.scheme, plans[q][0] );
			if ( plans[q][0] != HYBLAS_STENCIL_SCHEME_IN_CORE )
				CU_ASSERT_EQUAL( sg.slots, plans[q][1] < slots ? plans[q][1] : slots );
			CU_ASSERT( sg.bytes_h2d >= (uint64_t)sx_desc_bytes( &got ) && sg.bytes_d2h > 0 );
			const int same = sx_desc_same( &want, &got );
			CU_ASSERT( same );
			if ( sd_cases[c].kind == HYBLAS_STENCIL_HIMENO )
				CU_ASSERT( sg.residual == sc.residual );
			if ( !same || sg.path != HYBLAS_PATH_GPU )
				printf( "\n  case %d plan %d: %s\n", c, q, sg.why );
			sx_desc_free( &want );
			sx_desc_free( &got );
		}
	hyb_t_sim_end();
}

static void test_schemes_match_cpu( void )
{
	sd_schemes_match_cpu( NULL, 3 );
}

/* The same with slow copies and a latency on every operation, so that the
   streams' work overlaps for long: a step that does not wait for what it
   reads (a download lane not joined back, say) reads stale planes; with
   four slots where the plan has the chunks for them. */
static void test_schemes_match_cpu_slow_copies( void )
{
	sd_schemes_match_cpu( "HYBLAS_SIM_BW=3e8;HYBLAS_SIM_LATENCY=2e-5;HYBLAS_STENCIL_SLOTS=4", 4 );
}

/* Faults at many points of a run (by copy kind, by the kernel's name,
   synchronous and asynchronous, allocation): the result is the CPU's and
   the run says it fell back; the counts of the operation follow. */
static void test_faults_fall_back( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const char*       faults[] = { "stencil.acoustic:1",
		                           "stencil.acoustic:5a",
		                           "h2d:1",
		                           "h2d:9",
		                           "d2h:2",
		                           "d2h:3a",
		                           "d2d:1",
		                           "alloc:1",
		                           "kernel:3",
		                           "sync:2",
		                           "host_alloc:1" };
	const hyb_op_id_t op       = hyb_op_register( "hyblas_stencil_run", "stencil" );
	CU_ASSERT_FATAL( op != HYB_OP_NONE );
	for ( int i = 0; i < (int)( sizeof faults / sizeof faults[0] ); i++ )
	{
		/* The shared scheme moves data every way (d2d included); copying uses pinned staging. */
		const int scheme =
		    ( strncmp( faults[i], "host_alloc", 10 ) == 0 || strncmp( faults[i], "sync", 4 ) == 0 )
		        ? HYBLAS_STENCIL_SCHEME_COPY
		        : HYBLAS_STENCIL_SCHEME_SHARED;
		hyblas_stencil_desc_t want =
		    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 12, 10, 40, 0 );
		hyblas_stencil_desc_t got =
		    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 12, 10, 40, 0 );
		const uint64_t               fb0 = hyb_stats_fallbacks( op );
		const hyblas_stencil_stats_t sg  = sx_fault_run( &want, &got, faults[i], scheme, 3, 2, 6 );
		CU_ASSERT_EQUAL( sg.path, HYBLAS_PATH_CPU );
		CU_ASSERT_EQUAL( hyb_stats_fallbacks( op ), fb0 + 1 );
		sx_desc_free( &want );
		sx_desc_free( &got );
	}
	/* The device serves the next run again, and it is counted there. */
	const uint64_t        gpu0 = hyb_stats_calls( op, HYB_PATH_GPU );
	hyblas_stencil_desc_t d =
	    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 20, 30, 1, 0 );
	hyblas_stencil_stats_t s;
	CU_ASSERT_EQUAL( sd_run( &d, HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_DIRECT, 2, 2, 4, &s ),
	                 HYBLAS_OK );
	CU_ASSERT_EQUAL( s.path, HYBLAS_PATH_GPU );
	CU_ASSERT_EQUAL( hyb_stats_calls( op, HYB_PATH_GPU ), gpu0 + 1 );
	unsigned long long counts[4] = { 0, 0, 0, 0 };
	CU_ASSERT( hyb_calls( "hyblas_stencil_run", counts ) >= 0 );
	CU_ASSERT( counts[0] + counts[1] + counts[2] + counts[3] > 0 );
	sx_desc_free( &d );
	hyb_t_sim_end();
}

/* Runs of one handle with direct mapping on the device: the caller's
   arrays are page-locked at the first run, stay so for the next ones, and
   are unlocked at destroy; never when the caller says they are pinned or
   may not be locked, nor for copying (pinned staging); a registration that
   fails leaves that array pageable, with the same result. */
static void test_registration_kept( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const int64_t base = hyb_sim_registrations();
	const struct
	{
		int         scheme, pinned, no_register;
		const char* fault;
		int64_t     locked; /* the arrays locked while the handle lives */
	} cases[] = { { HYBLAS_STENCIL_SCHEME_DIRECT, 0, 0, NULL, 2 },
		          { HYBLAS_STENCIL_SCHEME_SHARED, 0, 0, NULL, 2 },
		          { HYBLAS_STENCIL_SCHEME_IN_CORE, 0, 0, NULL, 2 },
		          { HYBLAS_STENCIL_SCHEME_DIRECT, 1, 0, NULL, 0 },
		          { HYBLAS_STENCIL_SCHEME_DIRECT, 0, 1, NULL, 0 },
		          { HYBLAS_STENCIL_SCHEME_COPY, 0, 0, NULL, 0 },
		          { HYBLAS_STENCIL_SCHEME_DIRECT, 0, 0, "register:1", 1 } };
	for ( int i = 0; i < (int)( sizeof cases / sizeof cases[0] ); i++ )
	{
		hyblas_stencil_desc_t want =
		    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 24, 40, 1, 0 );
		hyblas_stencil_desc_t got =
		    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 24, 40, 1, 0 );
		hyblas_stencil_stats_t s = { .struct_size = sizeof s };
		CU_ASSERT_EQUAL( sd_run( &want, HYBLAS_PATH_CPU, 0, 0, 0, 8, &s ), HYBLAS_OK );
		const int               in_core = cases[i].scheme == HYBLAS_STENCIL_SCHEME_IN_CORE;
		hyblas_stencil_params_t p =
		    sx_params( HYBLAS_PATH_GPU, cases[i].scheme, in_core ? 0 : 3, in_core ? 0 : 2 );
		p.host_pinned        = cases[i].pinned;
		p.no_register        = cases[i].no_register;
		hyblas_stencil_t* st = NULL;
		CU_ASSERT_EQUAL_FATAL( hyblas_stencil_create( &got, &st ), HYBLAS_OK );
		if ( cases[i].fault ) CU_ASSERT_EQUAL( hyb_device_faults_set( cases[i].fault ), HYB_OK );
		for ( int run = 0; run < 2; run++ )
		{
			CU_ASSERT_EQUAL( hyblas_stencil_run( st, 4, &p, &s ), HYBLAS_OK );
			CU_ASSERT_EQUAL( s.path, HYBLAS_PATH_GPU );
			CU_ASSERT_EQUAL( hyb_sim_registrations(), base + cases[i].locked );
		}
		hyb_device_faults_set( NULL );
		CU_ASSERT( sx_desc_same( &want, &got ) );
		CU_ASSERT_EQUAL( hyblas_stencil_destroy( st ), HYBLAS_OK );
		CU_ASSERT_EQUAL( hyb_sim_registrations(), base );
		sx_desc_free( &want );
		sx_desc_free( &got );
	}
	hyb_t_sim_end();
}

/* Move the first `n` arrays of d into blocks of hyblas_host_alloc (contents kept). */
static void sd_host_alloc_fields( hyblas_stencil_desc_t* d, int n )
{
	const size_t bytes = (size_t)sx_desc_bytes( d );
	for ( int f = 0; f < n; f++ )
	{
		void* p = NULL;
		CU_ASSERT_EQUAL_FATAL( hyblas_host_alloc( bytes, &p ), HYBLAS_OK );
		memcpy( p, d->fields[f].data, bytes );
		free( d->fields[f].data );
		d->fields[f].data = p;
	}
}

static void sd_host_free_fields( hyblas_stencil_desc_t* d, int n )
{
	for ( int f = 0; f < n; f++ )
	{
		CU_ASSERT_EQUAL( hyblas_host_free( d->fields[f].data ), HYBLAS_OK );
		d->fields[f].data = NULL;
	}
}

/* Arrays from hyblas_host_alloc are page-locked already: the engine locks none of them
   (only those that are not, when they are mixed), its plan charges no locking, as with
   host_pinned, and the result is the CPU's. */
static void test_host_alloc_fields( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const int64_t base = hyb_sim_registrations();
	for ( int from_hyblas = 1; from_hyblas <= 2; from_hyblas++ )
	{
		hyblas_stencil_desc_t want =
		    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 24, 40, 1, 0 );
		hyblas_stencil_desc_t got =
		    sx_desc( HYBLAS_STENCIL_LAPLACE2D, HYBLAS_STENCIL_FLOAT, 24, 40, 1, 0 );
		sd_host_alloc_fields( &got, from_hyblas );
		const int64_t          blocks = hyb_sim_registrations(); /* the blocks' own locks */
		hyblas_stencil_stats_t s      = { .struct_size = sizeof s };
		CU_ASSERT_EQUAL( sd_run( &want, HYBLAS_PATH_CPU, 0, 0, 0, 8, &s ), HYBLAS_OK );
		hyblas_stencil_params_t p =
		    sx_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_DIRECT, 3, 2 );
		hyblas_stencil_t *st = NULL, *plain = NULL;
		CU_ASSERT_EQUAL_FATAL( hyblas_stencil_create( &got, &st ), HYBLAS_OK );
		CU_ASSERT_EQUAL_FATAL( hyblas_stencil_create( &want, &plain ), HYBLAS_OK );
		/* The plan: as if host_pinned when every array is from hyblas, else charged. */
		hyblas_stencil_stats_t q = { .struct_size = sizeof q }, flagged = q, unflagged = q;
		CU_ASSERT_EQUAL( hyblas_stencil_plan( st, 4, &p, &q ), HYBLAS_OK );
		CU_ASSERT_EQUAL( hyblas_stencil_plan( plain, 4, &p, &unflagged ), HYBLAS_OK );
		p.host_pinned = 1;
		CU_ASSERT_EQUAL( hyblas_stencil_plan( plain, 4, &p, &flagged ), HYBLAS_OK );
		p.host_pinned = 0;
		CU_ASSERT( flagged.predicted_seconds < unflagged.predicted_seconds );
		CU_ASSERT_EQUAL( q.predicted_seconds, from_hyblas == 2 ? flagged.predicted_seconds
		                                                       : unflagged.predicted_seconds );
		for ( int run = 0; run < 2; run++ )
		{
			CU_ASSERT_EQUAL( hyblas_stencil_run( st, 4, &p, &s ), HYBLAS_OK );
			CU_ASSERT_EQUAL( s.path, HYBLAS_PATH_GPU );
			CU_ASSERT_EQUAL( hyb_sim_registrations(), blocks + 2 - from_hyblas );
		}
		CU_ASSERT( sx_desc_same( &want, &got ) );
		CU_ASSERT_EQUAL( hyblas_stencil_destroy( st ), HYBLAS_OK );
		CU_ASSERT_EQUAL( hyblas_stencil_destroy( plain ), HYBLAS_OK );
		CU_ASSERT_EQUAL( hyb_sim_registrations(), blocks );
		sd_host_free_fields( &got, from_hyblas );
		CU_ASSERT_EQUAL( hyb_sim_registrations(), base );
		sx_desc_free( &want );
		sx_desc_free( &got );
	}
	hyb_t_sim_end();
}

/* The rollback copy runs beside the device run, slowed here so that the
   run overtakes it: every write of an input level waits for that part to
   be kept, so a run without a fault is still exact, and a fault anywhere
   (early, with the inputs kept in part; late, with most written) still
   gives the CPU's result from the caller's inputs. */
/* The rollback copy's order: the array ranked first (written first) is kept
   whole before the next starts, arrays of one rank side by side, and an
   array a write waits for before any other. */
static void test_keep_order( void )
{
	enum
	{
		piece = 4096,
		bytes = 16 * piece
	};
	static char a0[bytes], a1[bytes];
	void* const arrays[2] = { a0, a1 };
	hyb_sd_keep_test( 1500, piece );
	for ( int c = 0; c < 3; c++ )
	{
		const int      ranks[3][2] = { { 1, 0 }, { 0, 0 }, { 1, 0 } };
		hyb_sd_keep_t* k           = NULL;
		CU_ASSERT_EQUAL_FATAL( hyb_sd_keep_start( arrays, ranks[c], 2, bytes, 1, NULL, &k ),
		                       HYB_OK );
		if ( c == 0 )
		{
			/* array 1 first, whole: array 0 is never seen started while array 1 is not
			   complete. Read in this order, a started array 0 means array 1 was complete
			   already, so no delay of this thread between the reads can fail the check
			   (a check of array 0's progress once array 1 is seen complete could: the
			   keeper goes on meanwhile). */
			int early = 0;
			for ( ;; )
			{
				const size_t k0 = hyb_sd_keep_kept( k, 0 ), k1 = hyb_sd_keep_kept( k, 1 );
				early |= k0 > 0 && k1 < bytes;
				if ( k1 >= bytes ) break;
				usleep( 200 );
			}
			CU_ASSERT( !early );
		}
		else if ( c == 1 )
		{
			/* side by side: never more than a piece apart. A pair counts only when array 0
			   did not move across the read of array 1: then both held at that moment, however
			   long this thread was held up between the reads. */
			size_t most = 0;
			while ( hyb_sd_keep_kept( k, 0 ) + hyb_sd_keep_kept( k, 1 ) < bytes )
			{
				const size_t k0 = hyb_sd_keep_kept( k, 0 ), k1 = hyb_sd_keep_kept( k, 1 );
				if ( hyb_sd_keep_kept( k, 0 ) == k0 )
				{
					const size_t gap = k0 > k1 ? k0 - k1 : k1 - k0;
					most             = gap > most ? gap : most;
				}
				usleep( 200 );
			}
			CU_ASSERT( most <= piece );
		}
		else
		{
			/* a write into array 0 waits for its first half, which goes before array 1's */
			hyb_sd_keep_cover( k, a0 + bytes / 2 - 1, 1 );
			CU_ASSERT( hyb_sd_keep_kept( k, 0 ) >= bytes / 2 );
			CU_ASSERT( hyb_sd_keep_kept( k, 1 ) < bytes );
		}
		hyb_sd_keep_end( k, 0, NULL );
	}
	hyb_sd_keep_test( 0, 0 );
}

/* The copy's team: the full team where one block writes every kept array,
   the share of one rank where blocks write the ranks in turn. */
static void test_keep_team_size( void )
{
	const int one_block[2] = { 0, 0 }, two_blocks[2] = { 0, 1 }, pairs[4] = { 0, 1, 0, 1 };
	const int uneven[3] = { 0, 0, 1 }, single[1] = { 0 };
	CU_ASSERT_EQUAL( hyb_sd_keep_team_size( one_block, 2, 8 ), 8 );
	CU_ASSERT_EQUAL( hyb_sd_keep_team_size( two_blocks, 2, 8 ), 4 );
	CU_ASSERT_EQUAL( hyb_sd_keep_team_size( pairs, 4, 8 ), 4 );
	CU_ASSERT_EQUAL( hyb_sd_keep_team_size( uneven, 3, 8 ), 6 );
	CU_ASSERT_EQUAL( hyb_sd_keep_team_size( single, 1, 8 ), 8 );
	CU_ASSERT_EQUAL( hyb_sd_keep_team_size( two_blocks, 2, 3 ), 2 );
	CU_ASSERT_EQUAL( hyb_sd_keep_team_size( two_blocks, 2, 1 ), 1 );
	CU_ASSERT_EQUAL( hyb_sd_keep_team_size( NULL, 2, 8 ), 8 );
	CU_ASSERT_EQUAL( hyb_sd_keep_team_size( two_blocks, 2, 0 ), 1 );
}

static void test_keep_overtaken( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const char* faults[]  = { NULL,    "h2d:2",  "stencil.acoustic:2",
		                      "d2h:2", "d2h:5a", "stencil.acoustic:7a" };
	const int   schemes[] = { HYBLAS_STENCIL_SCHEME_DIRECT, HYBLAS_STENCIL_SCHEME_SHARED,
		                      HYBLAS_STENCIL_SCHEME_IN_CORE };
	hyb_sd_keep_test( 300, 4096 );
	for ( int i = 0; i < (int)( sizeof faults / sizeof faults[0] ); i++ )
		for ( int q = 0; q < 3; q++ )
		{
			hyblas_stencil_desc_t want =
			    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 12, 10, 40, 0 );
			hyblas_stencil_desc_t got =
			    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 12, 10, 40, 0 );
			hyblas_stencil_stats_t sc, sg;
			const int              in_core = schemes[q] == HYBLAS_STENCIL_SCHEME_IN_CORE;
			CU_ASSERT_EQUAL( sd_run( &want, HYBLAS_PATH_CPU, 0, 0, 0, 6, &sc ), HYBLAS_OK );
			if ( faults[i] ) CU_ASSERT_EQUAL( hyb_device_faults_set( faults[i] ), HYB_OK );
			CU_ASSERT_EQUAL(
			    sd_run( &got, HYBLAS_PATH_GPU, schemes[q], 3, in_core ? 0 : 2, 6, &sg ),
			    HYBLAS_OK );
			hyb_device_faults_set( NULL );
			CU_ASSERT_EQUAL( sg.fell_back, faults[i] != NULL );
			CU_ASSERT( sx_desc_same( &want, &got ) );
			if ( !sx_desc_same( &want, &got ) )
				printf( "\n  fault %s scheme %d\n", faults[i] ? faults[i] : "none", schemes[q] );
			sx_desc_free( &want );
			sx_desc_free( &got );
		}
	hyb_sd_keep_test( 0, 0 );
	hyb_t_sim_end();
}

/* A handle keeps its rollback memory from one device run to the next:
   after a good run, a run that fails late on the same handle still puts
   back its own inputs (what the first run kept there is never used), and
   the result is the CPU's over both runs. */
static void test_keep_reused( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const char* faults[] = { "d2h:5a", "stencil.acoustic:7a", "h2d:3" };
	for ( int i = 0; i < (int)( sizeof faults / sizeof faults[0] ); i++ )
	{
		hyblas_stencil_desc_t want =
		    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 12, 10, 40, 0 );
		hyblas_stencil_desc_t got =
		    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 12, 10, 40, 0 );
		hyblas_stencil_stats_t        s  = { .struct_size = sizeof s };
		const hyblas_stencil_params_t pc = sx_params( HYBLAS_PATH_CPU, 0, 0, 0 );
		const hyblas_stencil_params_t pg =
		    sx_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_SHARED, 3, 2 );
		hyblas_stencil_t *cpu = NULL, *gpu = NULL;
		CU_ASSERT_EQUAL_FATAL( hyblas_stencil_create( &want, &cpu ), HYBLAS_OK );
		CU_ASSERT_EQUAL_FATAL( hyblas_stencil_create( &got, &gpu ), HYBLAS_OK );
		for ( int run = 0; run < 2; run++ )
		{
			CU_ASSERT_EQUAL( hyblas_stencil_run( cpu, 5, &pc, &s ), HYBLAS_OK );
			if ( run == 1 ) CU_ASSERT_EQUAL( hyb_device_faults_set( faults[i] ), HYB_OK );
			CU_ASSERT_EQUAL( hyblas_stencil_run( gpu, 5, &pg, &s ), HYBLAS_OK );
			hyb_device_faults_set( NULL );
			CU_ASSERT_EQUAL( s.fell_back, run == 1 );
		}
		CU_ASSERT( sx_desc_same( &want, &got ) );
		CU_ASSERT_EQUAL( hyblas_stencil_destroy( cpu ), HYBLAS_OK );
		CU_ASSERT_EQUAL( hyblas_stencil_destroy( gpu ), HYBLAS_OK );
		sx_desc_free( &want );
		sx_desc_free( &got );
	}
	hyb_t_sim_end();
}

/* Handles on several threads at once: each thread's device runs (two on one handle, so the
   rollback memory a handle keeps is reused) equal its own CPU runs bit for bit, and none
   falls back. Each thread has its own problem size, so a mix-up of buffers, staging or the
   keep between threads would show in the result. */
typedef struct
{
	int nz;
	int ok;
} sd_worker_t;

static void* sd_worker( void* arg )
{
	sd_worker_t*          w = arg;
	hyblas_stencil_desc_t want =
	    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 12, 10, w->nz, 0 );
	hyblas_stencil_desc_t got =
	    sx_desc( HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 12, 10, w->nz, 0 );
	const hyblas_stencil_params_t pc = sx_params( HYBLAS_PATH_CPU, 0, 0, 0 );
	const hyblas_stencil_params_t pg =
	    sx_params( HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_SHARED, 3, 2 );
	hyblas_stencil_t *cpu = NULL, *gpu = NULL;
	w->ok = hyblas_stencil_create( &want, &cpu ) == HYBLAS_OK &&
	        hyblas_stencil_create( &got, &gpu ) == HYBLAS_OK;
	for ( int run = 0; run < 2 && w->ok; run++ )
	{
		hyblas_stencil_stats_t s = { .struct_size = sizeof s };
		w->ok                    = hyblas_stencil_run( cpu, 4, &pc, &s ) == HYBLAS_OK &&
		        hyblas_stencil_run( gpu, 4, &pg, &s ) == HYBLAS_OK && !s.fell_back;
	}
	w->ok = w->ok && sx_desc_same( &want, &got );
	hyblas_stencil_destroy( cpu );
	hyblas_stencil_destroy( gpu );
	sx_desc_free( &want );
	sx_desc_free( &got );
	return NULL;
}

static void test_handles_concurrent( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	enum
	{
		SD_THREADS = 4
	};
	pthread_t   th[SD_THREADS];
	sd_worker_t w[SD_THREADS];
	for ( int i = 0; i < SD_THREADS; i++ )
	{
		w[i] = ( sd_worker_t ){ 30 + 7 * i, 0 };
		CU_ASSERT_EQUAL_FATAL( pthread_create( &th[i], NULL, sd_worker, &w[i] ), 0 );
	}
	for ( int i = 0; i < SD_THREADS; i++ )
	{
		pthread_join( th[i], NULL );
		CU_ASSERT( w[i].ok );
	}
	hyb_t_sim_end();
}

/* The damped wave's two quantities through faults at many points of a
   run, with the rollback copy slowed so that the run overtakes it: every
   fault gives the CPU's p and q from the caller's inputs (nothing
   half-written in either quantity), uneven chunks and T not a multiple of
   k included. */
static void test_wave_faults_fall_back( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const char* faults[]  = { "stencil.wave:1", "stencil.wave:6a", "h2d:2", "h2d:7",
		                      "d2h:3",          "d2h:4a",          "d2d:2", "kernel:5" };
	const int   schemes[] = { HYBLAS_STENCIL_SCHEME_SHARED, HYBLAS_STENCIL_SCHEME_DIRECT,
		                      HYBLAS_STENCIL_SCHEME_COPY };
	hyb_sd_keep_test( 200, 1024 );
	for ( int i = 0; i < (int)( sizeof faults / sizeof faults[0] ); i++ )
		for ( int q = 0; q < 3; q++ )
		{
			/* d2d only happens with region sharing. */
			if ( strncmp( faults[i], "d2d", 3 ) == 0 && q != 0 ) continue;
			hyblas_stencil_desc_t want =
			    sx_desc( HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 21, 43, 1, 0 );
			hyblas_stencil_desc_t got =
			    sx_desc( HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 21, 43, 1, 0 );
			sx_fault_run( &want, &got, faults[i], schemes[q], 3, 2, 7 );
			sx_desc_free( &want );
			sx_desc_free( &got );
		}
	hyb_sd_keep_test( 0, 0 );
	hyb_t_sim_end();
}

/* Pacing as the suites set it: pieces of 4 KiB, so that the slabs of the small problems
   below go down in several. */
#define SD_PACED   "HYBLAS_STENCIL_DOWN_PIECE=4K;HYBLAS_STENCIL_DOWN_PAUSE_NS=2000"
#define SD_UNPACED "HYBLAS_STENCIL_DOWN_PIECE=4K;HYBLAS_STENCIL_DOWN_PAUSE_NS=0"

/* A device run of `d` with the plan, on a simulated device configured by `extra`; the
   pauses it queued in *pauses. */
static hyblas_stencil_stats_t sd_paced_run( hyblas_stencil_desc_t* d, const char* extra,
                                            const int plan[3], int64_t steps, int64_t* pauses )
{
	hyblas_stencil_stats_t s;
	memset( &s, 0, sizeof s );
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", extra ), HYB_OK );
	const int64_t n0 = hyb_sim_pauses();
	CU_ASSERT_EQUAL( sd_run( d, HYBLAS_PATH_GPU, plan[0], plan[1], plan[2], steps, &s ),
	                 HYBLAS_OK );
	*pauses = hyb_sim_pauses() - n0;
	hyb_t_sim_end();
	CU_ASSERT_EQUAL( s.path, HYBLAS_PATH_GPU );
	CU_ASSERT_EQUAL( s.fell_back, 0 );
	return s;
}

/* Paced downloads (HYBLAS_STENCIL_DOWN_PIECE, HYBLAS_STENCIL_DOWN_PAUSE_NS): out of core,
   every scheme, with the slabs cut into several pieces, gives the unpaced run's fields bit
   for bit (and the CPU's) with exactly its bytes each way, and pauses between the pieces;
   in core (no download lane) and with a pause of 0 nothing pauses. With the pressure
   compressed, its ranges go through the codec as before and the raw rate's downloads are
   paced: again the same bits and bytes as unpaced. */
static void test_paced_downloads( void )
{
	const int plans[][3] = { { HYBLAS_STENCIL_SCHEME_COPY, 3, 2 },
		                     { HYBLAS_STENCIL_SCHEME_DIRECT, 3, 2 },
		                     { HYBLAS_STENCIL_SCHEME_SHARED, 3, 2 },
		                     { HYBLAS_STENCIL_SCHEME_SHARED, 5, 1 },
		                     { HYBLAS_STENCIL_SCHEME_IN_CORE, 3, 0 } };
	const struct
	{
		hyblas_stencil_kind_t kind;
		hyblas_stencil_type_t type;
		int64_t               nx, ny, nz;
		int                   zip; /* the wave's pressure compressed */
	} cases[]           = { { HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 24, 20, 48, 0 },
		                    { HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 64, 300, 1, 0 },
		                    { HYBLAS_STENCIL_HIMENO, HYBLAS_STENCIL_FLOAT, 33, 17, 40, 0 },
		                    { HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 64, 300, 1, 1 } };
	const int64_t steps = 6;
	for ( int c = 0; c < (int)( sizeof cases / sizeof cases[0] ); c++ )
		for ( int q = 0; q < (int)( sizeof plans / sizeof plans[0] ); q++ )
		{
			const int in_core = plans[q][0] == HYBLAS_STENCIL_SCHEME_IN_CORE;
			/* Compressed fields move through the codec out of core only. */
			if ( cases[c].zip && ( in_core || plans[q][0] == HYBLAS_STENCIL_SCHEME_COPY ) )
				continue;
			hyblas_stencil_desc_t want, got[2];
			want =
			    sx_desc( cases[c].kind, cases[c].type, cases[c].nx, cases[c].ny, cases[c].nz, 0 );
			for ( int k = 0; k < 2; k++ )
			{
				got[k] = sx_desc( cases[c].kind, cases[c].type, cases[c].nx, cases[c].ny,
				                  cases[c].nz, 0 );
				if ( cases[c].zip )
					got[k].fields[HYBLAS_WAVE_P].rate = got[k].fields[HYBLAS_WAVE_P_WORK].rate =
					    16.0;
			}
			hyblas_stencil_stats_t sc;
			CU_ASSERT_EQUAL( sd_run( &want, HYBLAS_PATH_CPU, 0, 0, 0, steps, &sc ), HYBLAS_OK );
			int64_t                      pauses[2];
			const hyblas_stencil_stats_t s0 =
			    sd_paced_run( &got[0], SD_UNPACED, plans[q], steps, &pauses[0] );
			const hyblas_stencil_stats_t s1 =
			    sd_paced_run( &got[1], SD_PACED, plans[q], steps, &pauses[1] );
			CU_ASSERT( sx_desc_same( &got[0], &got[1] ) );
			if ( !cases[c].zip ) CU_ASSERT( sx_desc_same( &want, &got[1] ) );
			CU_ASSERT_EQUAL( s1.bytes_d2h, s0.bytes_d2h );
			CU_ASSERT_EQUAL( s1.bytes_h2d, s0.bytes_h2d );
			CU_ASSERT_EQUAL( s1.bytes_d2d, s0.bytes_d2d );
			CU_ASSERT_EQUAL( s1.bytes_d2h_raw, s0.bytes_d2h_raw );
			CU_ASSERT_EQUAL( s1.bytes_h2d_raw, s0.bytes_h2d_raw );
			CU_ASSERT_EQUAL( (int)s1.scheme, plans[q][0] );
			CU_ASSERT_EQUAL( pauses[0], 0 );
			CU_ASSERT( in_core ? pauses[1] == 0 : pauses[1] > 0 );
			if ( !sx_desc_same( &got[0], &got[1] ) || s1.bytes_d2h != s0.bytes_d2h ||
			     ( !in_core && pauses[1] == 0 ) )
				printf( "\n  case %d plan %d: %lld pauses, d2h %llu / %llu\n", c, q,
				        (long long)pauses[1], (unsigned long long)s1.bytes_d2h,
				        (unsigned long long)s0.bytes_d2h );
			sx_desc_free( &want );
			sx_desc_free( &got[0] );
			sx_desc_free( &got[1] );
		}
}

/* A fault at a paced download's pause (the first, one in the middle asynchronously, the
   last) gives the CPU's result from the caller's inputs, as any injected fault does. */
static void test_pause_faults_fall_back( void )
{
	const int schemes[] = { HYBLAS_STENCIL_SCHEME_SHARED, HYBLAS_STENCIL_SCHEME_DIRECT,
		                    HYBLAS_STENCIL_SCHEME_COPY };
	const struct
	{
		hyblas_stencil_kind_t kind;
		hyblas_stencil_type_t type;
		int64_t               nx, ny, nz;
	} cases[] = { { HYBLAS_STENCIL_ACOUSTIC, HYBLAS_STENCIL_DOUBLE, 24, 20, 48 },
		          { HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 64, 300, 1 } };
	for ( int c = 0; c < (int)( sizeof cases / sizeof cases[0] ); c++ )
		for ( int q = 0; q < (int)( sizeof schemes / sizeof schemes[0] ); q++ )
		{
			/* The run's pauses, counted on a run without a fault. */
			const int             plan[3] = { schemes[q], 3, 2 };
			int64_t               n       = 0;
			hyblas_stencil_desc_t probe =
			    sx_desc( cases[c].kind, cases[c].type, cases[c].nx, cases[c].ny, cases[c].nz, 0 );
			sd_paced_run( &probe, SD_PACED, plan, 7, &n );
			sx_desc_free( &probe );
			CU_ASSERT_FATAL( n >= 3 );
			char faults[3][32];
			snprintf( faults[0], sizeof faults[0], "pause:1" );
			snprintf( faults[1], sizeof faults[1], "pause:%llda", (long long)( n / 2 ) );
			snprintf( faults[2], sizeof faults[2], "pause:%lld", (long long)n );
			CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", SD_PACED ), HYB_OK );
			for ( int i = 0; i < 3; i++ )
			{
				hyblas_stencil_desc_t want = sx_desc( cases[c].kind, cases[c].type, cases[c].nx,
				                                      cases[c].ny, cases[c].nz, 0 );
				hyblas_stencil_desc_t got  = sx_desc( cases[c].kind, cases[c].type, cases[c].nx,
				                                      cases[c].ny, cases[c].nz, 0 );
				const hyblas_stencil_stats_t sg =
				    sx_fault_run( &want, &got, faults[i], schemes[q], 3, 2, 7 );
				CU_ASSERT_EQUAL( sg.path, HYBLAS_PATH_CPU );
				sx_desc_free( &want );
				sx_desc_free( &got );
			}
			hyb_t_sim_end();
		}
}

/* A traced device run writes its timeline: one line per schedule whose
   per-kind active times are parts of its span (each at most the span and
   at most the kind's busy time, the kernels' not zero), and nothing
   without a trace. */
static void test_traced_timeline( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	static const char* names[HYB_R_COUNT];
	for ( int i = 0; i < HYB_R_COUNT; i++ ) names[i] = hyb_routine_info[i].name;
	char path[] = "/tmp/hyb_unit_stimelineXXXXXX";
	int  fd     = mkstemp( path );
	CU_ASSERT_FATAL( fd >= 0 );
	unlink( path );
	for ( int traced = 0; traced < 2; traced++ )
	{
		hyb_stats_init( HYB_R_COUNT, names, 0, traced ? fd : -1 );
		hyblas_stencil_desc_t d =
		    sx_desc( HYBLAS_STENCIL_WAVE2D, HYBLAS_STENCIL_FLOAT, 23, 41, 1, 0 );
		hyblas_stencil_stats_t st;
		CU_ASSERT_EQUAL( sd_run( &d, HYBLAS_PATH_GPU, HYBLAS_STENCIL_SCHEME_SHARED, 3, 2, 5, &st ),
		                 HYBLAS_OK );
		CU_ASSERT_EQUAL( st.path, HYBLAS_PATH_GPU );
		sx_desc_free( &d );
	}
	hyb_stats_init( HYB_R_COUNT, names, 0, -1 );
	char    buf[8192] = { 0 };
	ssize_t n         = pread( fd, buf, sizeof buf - 1, 0 );
	close( fd );
	CU_ASSERT_FATAL( n > 0 );
	int   lines = 0;
	char* at    = buf;
	while ( ( at = strstr( at, "hyblas_stencil_timeline " ) ) != NULL )
	{
		long long steps = 0;
		double    span, ub, ua, sb, sa, cb, ca, db, da, idle, wait, late, late_c;
		CU_ASSERT_EQUAL( sscanf( at,
		                         "hyblas_stencil_timeline steps=%lld span=%lf upload=%lf/%lf "
		                         "share=%lf/%lf compute=%lf/%lf download=%lf/%lf idle=%lf "
		                         "issue_wait=%lf late=%lf/%lf",
		                         &steps, &span, &ub, &ua, &sb, &sa, &cb, &ca, &db, &da, &idle,
		                         &wait, &late, &late_c ),
		                 14 );
		CU_ASSERT( steps > 0 && span > 0.0 );
		CU_ASSERT( ca > 0.0 && ua >= 0.0 && da >= 0.0 );
		CU_ASSERT( ua <= ub + 1e-9 && ca <= cb + 1e-9 && da <= db + 1e-9 && sa <= sb + 1e-9 );
		CU_ASSERT( ua <= span + 1e-9 && ca <= span + 1e-9 && da <= span + 1e-9 );
		CU_ASSERT( idle >= -1e-9 && idle <= span + 1e-9 && wait >= 0.0 );
		/* Lateness is never negative, the kernels' part of it at most all. */
		CU_ASSERT( late_c >= 0.0 && late_c <= late + 1e-9 );
		lines++;
		at++;
	}
	/* One schedule, traced once. */
	CU_ASSERT_EQUAL( lines, 1 );
	hyb_t_sim_end();
}

static CU_TestInfo hyb_tests_stencil_device[] = {
	{ "kernels_registered", test_kernels_registered },
	{ "schemes_match_cpu", test_schemes_match_cpu },
	{ "schemes_match_cpu_slow_copies", test_schemes_match_cpu_slow_copies },
	{ "faults_fall_back", test_faults_fall_back },
	{ "registration_kept", test_registration_kept },
	{ "host_alloc_fields", test_host_alloc_fields },
	{ "keep_order", test_keep_order },
	{ "keep_team_size", test_keep_team_size },
	{ "keep_overtaken", test_keep_overtaken },
	{ "keep_reused", test_keep_reused },
	{ "handles_concurrent", test_handles_concurrent },
	{ "wave_faults_fall_back", test_wave_faults_fall_back },
	{ "traced_timeline", test_traced_timeline },
	{ "paced_downloads", test_paced_downloads },
	{ "pause_faults_fall_back", test_pause_faults_fall_back },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_stencil_device = { "stencil_device",        NULL, NULL, NULL, NULL,
	                                      hyb_tests_stencil_device };

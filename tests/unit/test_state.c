/* SPDX-License-Identifier: BSD-3-Clause */
/* The process state (core/hyb_state): fork() while another thread is inside
   a locked section or a file write, the lock order, the child's thread and
   its OpenMP regions. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/config/hyb_config.h"
#include "dispatch/hyb_gtsv_rates.h"
#include "hyb_file.h"
#include "hyb_guard.h"
#include "hyb_op.h"
#include "hyb_state.h"
#include "hyb_test_util.h"
#include "policies/hyb_learn.h"

/* ------------------------------------------------------------ rates written beside a fork */

static hyb_config_t st_cfg;
static char         st_dir[256];

/* The writer's pause inside hyb_file_replace: it says it is there, then
   waits until the test lets it go on. */
static atomic_int st_writer_inside;
static atomic_int st_writer_release;

static void st_pause_in_write( void )
{
	atomic_store( &st_writer_inside, 1 );
	while ( !atomic_load( &st_writer_release ) ) usleep( 1000 );
}

static void* st_rates_writer( void* arg )
{
	(void)arg;
	hyb_gtsv_rates_update( HYB_PREC_D, HYB_GTSV_CONF_CPU, 0, 2.5e8, 0, NULL );
	return NULL;
}

static int st_child_fill( void* arg )
{
	(void)arg;
	hyb_gtsv_split_in_t in;
	memset( &in, 0, sizeof in );
	hyb_gtsv_rates_fill( HYB_PREC_D, &in );
	return 0;
}

/* A thread writes the tridiagonal rates file and stays inside the write
   (held in hyb_file_replace with its temporary file open) while the main
   thread forks: the child must be able to read the rates at once, and
   fork() must not wait for the write. */
static void test_fork_during_rates_write( void )
{
	char err[256], profile[300];
	snprintf( st_dir, sizeof st_dir, "/tmp/hyb_state_XXXXXX" );
	CU_ASSERT_FATAL( mkdtemp( st_dir ) != NULL );
	snprintf( profile, sizeof profile, "%s/profile", st_dir );
	hyb_config_defaults( &st_cfg );
	hyb_config_set( &st_cfg, "HYBLAS_PROFILE", profile, HYB_SRC_TEST, err, sizeof err );
	hyb_config_set( &st_cfg, "HYBLAS_LOG_LEVEL", "0", HYB_SRC_TEST, err, sizeof err );
	hyb_config_finish( &st_cfg );
	hyb_config_install_for_test( &st_cfg );
	hyb_gtsv_rates_reset_for_test();
	atomic_store( &st_writer_inside, 0 );
	atomic_store( &st_writer_release, 0 );
	hyb_file_set_replace_pause_for_test( st_pause_in_write );

	pthread_t th;
	CU_ASSERT_FATAL( pthread_create( &th, NULL, st_rates_writer, NULL ) == 0 );
	for ( int i = 0; i < 10000 && !atomic_load( &st_writer_inside ); i++ ) usleep( 1000 );
	CU_ASSERT_FATAL( atomic_load( &st_writer_inside ) );
	CU_ASSERT_EQUAL( hyb_t_isolated( "rates read in a child forked during a rates write",
	                                 st_child_fill, NULL, 10 ),
	                 0 );

	atomic_store( &st_writer_release, 1 );
	pthread_join( th, NULL );
	hyb_file_set_replace_pause_for_test( NULL );

	char path[400];
	hyb_learn_path( path, sizeof path );
	struct stat sb;
	CU_ASSERT( stat( path, &sb ) == 0 && sb.st_size > 0 ); /* the write completed */
	unlink( path );
	rmdir( st_dir );
	hyb_config_install_for_test( NULL );
	hyb_gtsv_rates_reset_for_test();
}

/* ------------------------------------------------------------ operations registered beside a fork
 */

static atomic_int st_registering;

/* Takes and lets go of the registry's lock without end, as registrations do;
   hyb_op_set_routines( 0, NULL ) takes it and changes nothing, so the registry is
   not filled for the tests after this one. */
static void* st_registrar( void* arg )
{
	(void)arg;
	while ( atomic_load( &st_registering ) ) hyb_op_set_routines( 0, NULL );
	return NULL;
}

static int st_child_register( void* arg )
{
	(void)arg;
	/* A name registered before the fork is found; a new one takes the lock. */
	if ( hyb_op_find( "st.fork.first" ) == HYB_OP_NONE ) return 2;
	return hyb_op_register( "st.fork.child", "st" ) == HYB_OP_NONE ? 3 : 0;
}

/* fork() while another thread registers operations (an extension call counting
   its first run): the child can register, so the registry's lock was not
   inherited held. Many forks, since the registrar holds the lock only briefly. */
static void test_fork_during_op_register( void )
{
	CU_ASSERT_FATAL( hyb_op_register( "st.fork.first", "st" ) != HYB_OP_NONE );
	atomic_store( &st_registering, 1 );
	pthread_t th;
	CU_ASSERT_FATAL( pthread_create( &th, NULL, st_registrar, NULL ) == 0 );
	int failed = 0;
	for ( int i = 0; i < 200 && !failed; i++ )
		failed = hyb_t_isolated( "operation registered in a child forked during a registration",
		                         st_child_register, NULL, 10 );
	atomic_store( &st_registering, 0 );
	pthread_join( th, NULL );
	CU_ASSERT_EQUAL( failed, 0 );
}

/* ------------------------------------------------------------ the protocol */

static atomic_int st_hook_runs;
static void       st_hook( void )
{
	atomic_fetch_add( &st_hook_runs, 1 );
}

typedef struct
{
	hyb_lock_id_t id;
	atomic_int    holding;
	double        released_at;
} st_holder_t;

static double st_now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void* st_hold( void* arg )
{
	st_holder_t* h = arg;
	hyb_lock( h->id );
	atomic_store( &h->holding, 1 );
	usleep( 150 * 1000 );
	h->released_at = st_now();
	hyb_unlock( h->id );
	return NULL;
}

/* In the child: every lock free, the hooks run, this thread marked. */
static int st_child_state( void* arg )
{
	int hooks_before = *(int*)arg;
	for ( int i = 0; i < HYB_LOCK_COUNT; i++ )
	{
		if ( !hyb_trylock( (hyb_lock_id_t)i ) ) return 10 + i;
		hyb_unlock( (hyb_lock_id_t)i );
	}
	if ( atomic_load( &st_hook_runs ) != hooks_before + 1 ) return 2;
	if ( !hyb_state_forked_thread() ) return 3;
	return 0;
}

/* fork() waits while another thread is inside a locked section (prepare takes
   every lock), and the child finds every lock free whichever one was held:
   the deadlock a child met when a thread of the parent held a lock at the
   moment of fork(). */
static void test_fork_waits_for_every_lock( void )
{
	hyb_state_on_fork_child( HYB_LOCK_SPMV_RATES, st_hook );
	for ( int i = 0; i < HYB_LOCK_COUNT; i++ )
	{
		st_holder_t h = { .id = (hyb_lock_id_t)i };
		pthread_t   th;
		CU_ASSERT_FATAL( pthread_create( &th, NULL, st_hold, &h ) == 0 );
		while ( !atomic_load( &h.holding ) ) usleep( 1000 );
		int    hooks = atomic_load( &st_hook_runs );
		double t0    = st_now();
		int    rc = hyb_t_isolated( hyb_lock_name( (hyb_lock_id_t)i ), st_child_state, &hooks, 10 );
		CU_ASSERT_EQUAL( rc, 0 );
		if ( rc )
			printf( "\n    lock %s held at fork(): child status %d ",
			        hyb_lock_name( (hyb_lock_id_t)i ), rc );
		pthread_join( th, NULL );
		/* fork() returned only after the holder let go (the child ran after it). */
		CU_ASSERT( h.released_at >= t0 );
	}
	hyb_state_on_fork_child( HYB_LOCK_SPMV_RATES, NULL );
	CU_ASSERT( !hyb_state_forked_thread() );
	for ( int i = 0; i < HYB_LOCK_COUNT; i++ )
	{
		CU_ASSERT( hyb_trylock( (hyb_lock_id_t)i ) );
		hyb_unlock( (hyb_lock_id_t)i );
	}
}

/* A thread inside the real library (between hyb_guard_enter and leave)
   for `hold` seconds. */
typedef struct
{
	double     hold, left_at, entered_at;
	atomic_int inside;
} st_guarded_t;

static void* st_guarded( void* arg )
{
	st_guarded_t* g = arg;
	hyb_guard_enter();
	g->entered_at = st_now();
	atomic_store( &g->inside, 1 );
	while ( st_now() - g->entered_at < g->hold ) usleep( 1000 );
	g->left_at = st_now();
	hyb_guard_leave();
	return NULL;
}

/* The fork gate: closing it waits until the other threads inside the real
   library have left, a thread that enters while it is closed waits until
   it opens, the wait is bounded, and a real fork() waits for a thread
   inside (its child then finds no one inside). */
static void test_fork_gate( void )
{
	st_guarded_t a = { .hold = 0.15 };
	pthread_t    ta, tb;
	CU_ASSERT_FATAL( pthread_create( &ta, NULL, st_guarded, &a ) == 0 );
	while ( !atomic_load( &a.inside ) ) usleep( 1000 );
	CU_ASSERT_EQUAL( hyb_guard_fork_close( 5.0 ), 1 );
	const double closed_at = st_now();
	CU_ASSERT( closed_at >= a.left_at );
	/* closed: a new entry waits for the opening */
	st_guarded_t b = { .hold = 0.0 };
	CU_ASSERT_FATAL( pthread_create( &tb, NULL, st_guarded, &b ) == 0 );
	usleep( 50000 );
	CU_ASSERT_EQUAL( atomic_load( &b.inside ), 0 );
	hyb_guard_fork_open( 0 );
	const double opened_at = st_now();
	pthread_join( tb, NULL );
	CU_ASSERT( b.entered_at >= opened_at );
	pthread_join( ta, NULL );
	/* the bound: a thread inside for longer than it */
	st_guarded_t c = { .hold = 0.5 };
	CU_ASSERT_FATAL( pthread_create( &ta, NULL, st_guarded, &c ) == 0 );
	while ( !atomic_load( &c.inside ) ) usleep( 1000 );
	const double t0 = st_now();
	CU_ASSERT_EQUAL( hyb_guard_fork_close( 0.05 ), 0 );
	CU_ASSERT( st_now() - t0 < 0.4 );
	hyb_guard_fork_open( 0 );
	pthread_join( ta, NULL );
	/* a real fork waits for the thread inside */
	hyb_state_fork_install();
	st_guarded_t d = { .hold = 0.2 };
	CU_ASSERT_FATAL( pthread_create( &ta, NULL, st_guarded, &d ) == 0 );
	while ( !atomic_load( &d.inside ) ) usleep( 1000 );
	const pid_t pid = fork();
	if ( pid == 0 ) _exit( hyb_guard_fork_close( 0.0 ) ? 0 : 1 );
	const double forked_at = st_now();
	int          status    = -1;
	CU_ASSERT_FATAL( pid > 0 );
	waitpid( pid, &status, 0 );
	CU_ASSERT( WIFEXITED( status ) && WEXITSTATUS( status ) == 0 );
	pthread_join( ta, NULL );
	CU_ASSERT( forked_at >= d.left_at );
}

/* Taking a lock of lower rank while holding one of higher rank is counted
   (and logged once); the order of the list is not. */
static void test_lock_order_witness( void )
{
	unsigned v0 = hyb_state_order_violations();
	for ( int i = 0; i < HYB_LOCK_COUNT; i++ ) hyb_lock( (hyb_lock_id_t)i );
	for ( int i = HYB_LOCK_COUNT - 1; i >= 0; i-- ) hyb_unlock( (hyb_lock_id_t)i );
	CU_ASSERT_EQUAL( hyb_state_order_violations(), v0 );
	hyb_lock( HYB_LOCK_LEARN );
	hyb_lock( HYB_LOCK_SPMV_RATES );
	hyb_unlock( HYB_LOCK_SPMV_RATES );
	hyb_unlock( HYB_LOCK_LEARN );
	CU_ASSERT_EQUAL( hyb_state_order_violations(), v0 + 1 );
	/* A trylock never waits: out of order is fine. */
	hyb_lock( HYB_LOCK_LEARN );
	CU_ASSERT( hyb_trylock( HYB_LOCK_SPMV_RATES ) );
	hyb_unlock( HYB_LOCK_SPMV_RATES );
	hyb_unlock( HYB_LOCK_LEARN );
	CU_ASSERT_EQUAL( hyb_state_order_violations(), v0 + 1 );
}

static int st_parallel_sum( void )
{
	int sum = 0;
#pragma omp parallel reduction( + : sum )
	sum += 1;
	return sum;
}

static int st_child_omp( void* arg )
{
	(void)arg;
	int saved = hyb_state_omp_enter();
	int n     = st_parallel_sum(); /* hangs without the guard */
	hyb_state_omp_leave( saved );
	if ( n != 1 ) return 2;
	if ( omp_get_max_threads() != saved ) return 3;
	return 0;
}

/* The thread that forks has run a parallel region (its OpenMP team exists in
   the parent only): in the child, between enter and leave, regions run on
   that one thread and finish. */
static void test_omp_in_forked_thread( void )
{
	omp_set_num_threads( 2 );
	CU_ASSERT_EQUAL( st_parallel_sum(), 2 );
	CU_ASSERT_EQUAL( hyb_state_omp_enter(), 0 ); /* nothing changes outside a child */
	CU_ASSERT_EQUAL( hyb_t_isolated( "OpenMP region in the forked thread", st_child_omp, NULL, 10 ),
	                 0 );
}

static CU_TestInfo hyb_tests_state[] = {
	{ "fork_during_rates_write", test_fork_during_rates_write },
	{ "fork_during_op_register", test_fork_during_op_register },
	{ "fork_waits_for_every_lock", test_fork_waits_for_every_lock },
	{ "fork_gate", test_fork_gate },
	{ "lock_order_witness", test_lock_order_witness },
	{ "omp_in_forked_thread", test_omp_in_forked_thread },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_state = { "state", NULL, NULL, NULL, NULL, hyb_tests_state };

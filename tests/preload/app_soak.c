/* SPDX-License-Identifier: BSD-3-Clause */
/* Threads and fork() together: worker threads call the families hyblas
   intercepts (dgemm_, cblas_dgemm, dgtsv_, the MKL COO products) and check
   every result against an independent reference, while the main thread
   forks again and again. Each child computes every family once more,
   checked, and must exit within a time limit: a child that hangs on a lock
   a vanished thread held, or crashes, or computes wrongly, fails the run,
   and so does a fork() that does not return.

   By default worker i always calls family i (mod the number of families),
   with fixed sizes, so that each family has a thread inside it at every
   fork; --random makes every call a random family with random sizes and
   options (the soak). The main thread calls every family itself before it
   forks (so the child inherits a thread that has run them), unless
   --no-main-calls. With --child-cpu the child also checks, through
   hyb_calls, that all its calls ran on the CPU (a child of a process that
   used the device must not touch it).

   Usage: app_soak [--threads N] [--forks F] [--seconds S] [--pause-ms M]
                   [--child-timeout S] [--random] [--child-cpu]
                   [--no-main-calls] [--seed X]
   Stops after F forks or S seconds, whichever comes first, or after three
   failed children. Families whose symbols the process lacks (the MKL names
   without hyblas) are left out. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"

enum
{
	F_DGEMM,
	F_CBLAS,
	F_GTSV,
	F_COO0,
	F_COO1,
	F_COUNT
};
static const char* const app_fam_name[F_COUNT] = { "dgemm_", "cblas_dgemm", "dgtsv_",
	                                               "mkl_cspblas_dcoogemv", "mkl_dcoogemv" };

static hyb_bb_dcoomv_fn app_coo[2]; /* 0- and 1-based; NULL when absent */
static int ( *app_calls )( const char*, unsigned long long[4] );
static int         app_random;
static atomic_int  app_stop;
static atomic_long app_ncalls[F_COUNT];

/* cblas_dgemm behind dgemm_'s signature, so that one checked call serves both. */
static void app_cblas_as_f77( const char* ta, const char* tb, const int* m, const int* n,
                              const int* k, const double* alpha, const double* a, const int* lda,
                              const double* b, const int* ldb, const double* beta, double* c,
                              const int* ldc, hyb_bb_flen_t la, hyb_bb_flen_t lb )
{
	(void)la, (void)lb;
	cblas_dgemm( HYB_BB_COL_MAJOR, *ta == 'N' ? HYB_BB_NO_TRANS : HYB_BB_TRANS,
	             *tb == 'N' ? HYB_BB_NO_TRANS : HYB_BB_TRANS, *m, *n, *k, *alpha, a, *lda, b, *ldb,
	             *beta, c, *ldc );
}

static int app_pick( hyb_bb_rng_t* r, int lo, int hi )
{
	return lo + (int)( ( hyb_bb_rng_uniform( r ) + 1 ) * 0.5 * ( hi - lo + 1 ) ) % ( hi - lo + 1 );
}

static int app_have( int f )
{
	return ( f != F_COO0 && f != F_COO1 ) || app_coo[f - F_COO0] != NULL;
}

/* One checked call of family f: fixed sizes, or random ones with --random.
   The fixed sizes put each family where its locks are: a device product, a
   shape in the measured-choice band of auto mode, a system large enough
   for its rates to be measured and written, a sparse product on the
   device. A child's calls are smaller (every path still taken): it has to
   finish in time on a machine the workers keep busy. */
static int app_call( int f, hyb_bb_rng_t* r, const char* who, int small )
{
	char what[96];
	int  ok = 1;
	switch ( f )
	{
	case F_DGEMM:
	case F_CBLAS:
	{
		int  m = f == F_DGEMM ? 96 : small ? 120 : 250, n = m, k = m;
		char ta = 'N', tb = 'N';
		if ( app_random )
		{
			m = app_pick( r, 1, 160 ), n = app_pick( r, 1, 160 ), k = app_pick( r, 0, 160 );
			ta = app_pick( r, 0, 1 ) ? 'T' : 'N', tb = app_pick( r, 0, 1 ) ? 'T' : 'N';
		}
		double beta = app_pick( r, 0, 2 ) == 0 ? 0.0 : hyb_bb_rng_uniform( r );
		snprintf( what, sizeof what, "%s %s %c%c %dx%dx%d", who, app_fam_name[f], ta, tb, m, n, k );
		ok = hyb_bb_dgemm_checked( f == F_DGEMM ? dgemm_ : app_cblas_as_f77, r, ta, tb, m, n, k,
		                           hyb_bb_rng_uniform( r ) + 1.5, beta, what );
		break;
	}
	case F_GTSV:
	{
		int n    = app_random ? app_pick( r, 8192, 400000 ) : small ? 20000 : 300000;
		int nrhs = app_random ? app_pick( r, 1, 3 ) : 1;
		snprintf( what, sizeof what, "%s dgtsv_ n=%d nrhs=%d", who, n, nrhs );
		ok = hyb_bb_dgtsv_checked( dgtsv_, r, n, nrhs, what );
		break;
	}
	default:
	{
		int  m   = app_random ? app_pick( r, 100, 40000 ) : small ? 5000 : 20000;
		int  per = app_random ? app_pick( r, 1, 12 ) : 10;
		char t   = app_random && app_pick( r, 0, 1 ) ? 'T' : 'N';
		snprintf( what, sizeof what, "%s %s %c m=%d", who, app_fam_name[f], t, m );
		ok = hyb_bb_dcoomv_checked( app_coo[f - F_COO0], r, m, per, f - F_COO0, t, what );
		break;
	}
	}
	atomic_fetch_add( &app_ncalls[f], 1 );
	return ok;
}

typedef struct
{
	int        fam;
	uint64_t   seed;
	atomic_int calls;
	pthread_t  th;
} app_worker_t;

static void* app_worker( void* arg )
{
	app_worker_t* w = arg;
	hyb_bb_rng_t  r;
	hyb_bb_rng_seed( &r, w->seed );
	while ( !atomic_load( &app_stop ) )
	{
		int f = w->fam;
		if ( app_random ) do
				f = app_pick( &r, 0, F_COUNT - 1 );
			while ( !app_have( f ) );
		app_call( f, &r, "thread", 0 );
		atomic_fetch_add( &w->calls, 1 );
	}
	return NULL;
}

/* The child: every family once, checked, within the time limit (SIGALRM
   ends a child that hangs); with child_cpu, every call counted on the CPU. */
static void app_child( uint64_t seed, int timeout, int child_cpu )
{
	signal( SIGALRM, SIG_DFL );
	alarm( (unsigned)timeout );
	int                failed0 = hyb_bb_failures();
	unsigned long long before[F_COUNT][4], after[4];
	hyb_bb_rng_t       r;
	hyb_bb_rng_seed( &r, seed );
	for ( int f = 0; f < F_COUNT; f++ )
		if ( app_calls && app_calls( app_fam_name[f], before[f] ) != 0 )
			memset( before[f], 0, sizeof before[f] );
	for ( int f = 0; f < F_COUNT; f++ )
		if ( app_have( f ) ) app_call( f, &r, "child", 1 );
	for ( int f = 0; f < F_COUNT && child_cpu && app_calls; f++ )
	{
		if ( !app_have( f ) || app_calls( app_fam_name[f], after ) != 0 ) continue;
		hyb_bb_expect( after[0] == before[f][0] + 1 && after[1] == before[f][1] &&
		                   after[2] == before[f][2] && after[3] == before[f][3],
		               "child: %s did not run on the CPU (cpu %+lld, device %+lld, split %+lld, "
		               "fallback %+lld)",
		               app_fam_name[f], (long long)( after[0] - before[f][0] ),
		               (long long)( after[1] - before[f][1] ),
		               (long long)( after[2] - before[f][2] ),
		               (long long)( after[3] - before[f][3] ) );
	}
	fflush( stdout );
	_exit( hyb_bb_failures() > failed0 ? 3 : 0 );
}

static void app_on_alarm( int sig )
{
	(void)sig;
	static const char msg[] =
	    "FAIL app_soak: the parent hung (fork() or a worker did not return)\n";
	ssize_t w = write( STDOUT_FILENO, msg, sizeof msg - 1 );
	(void)w;
	_exit( 4 );
}

static double app_now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main( int argc, char** argv )
{
	int      threads = F_COUNT, forks = 100, pause_ms = 0, child_timeout = 20, child_cpu = 0;
	int      main_calls = 1;
	double   seconds    = 60;
	uint64_t seed       = 1919;
	for ( int i = 1; i < argc; i++ )
	{
		const char* a   = argv[i];
		int         val = i + 1 < argc;
		if ( !strcmp( a, "--threads" ) && val )
			threads = atoi( argv[++i] );
		else if ( !strcmp( a, "--forks" ) && val )
			forks = atoi( argv[++i] );
		else if ( !strcmp( a, "--seconds" ) && val )
			seconds = atof( argv[++i] );
		else if ( !strcmp( a, "--pause-ms" ) && val )
			pause_ms = atoi( argv[++i] );
		else if ( !strcmp( a, "--child-timeout" ) && val )
			child_timeout = atoi( argv[++i] );
		else if ( !strcmp( a, "--seed" ) && val )
			seed = strtoull( argv[++i], NULL, 10 );
		else if ( !strcmp( a, "--random" ) )
			app_random = 1;
		else if ( !strcmp( a, "--child-cpu" ) )
			child_cpu = 1;
		else if ( !strcmp( a, "--no-main-calls" ) )
			main_calls = 0;
		else
		{
			fprintf( stderr,
			         "usage: %s [--threads N] [--forks F] [--seconds S] [--pause-ms M] "
			         "[--child-timeout S] [--random] [--child-cpu] [--no-main-calls] [--seed X]\n",
			         argv[0] );
			return 2;
		}
	}
	if ( threads < 1 || threads > 64 || forks < 0 || child_timeout < 1 ) return 2;
	app_coo[0] = (hyb_bb_dcoomv_fn)dlsym( RTLD_DEFAULT, "mkl_cspblas_dcoogemv" );
	app_coo[1] = (hyb_bb_dcoomv_fn)dlsym( RTLD_DEFAULT, "mkl_dcoogemv" );
	app_calls = (int ( * )( const char*, unsigned long long[4] ))dlsym( RTLD_DEFAULT, "hyb_calls" );
	hyb_bb_quiet( 1 );
	signal( SIGALRM, app_on_alarm );

	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, seed );
	if ( main_calls )
		for ( int f = 0; f < F_COUNT; f++ )
			if ( app_have( f ) ) app_call( f, &r, "main", 0 );

	app_worker_t* w = calloc( (size_t)threads, sizeof *w );
	if ( w == NULL ) return 1;
	int started = 0;
	for ( int i = 0; i < threads; i++ )
	{
		w[i].fam = i % F_COUNT;
		while ( !app_have( w[i].fam ) ) w[i].fam = ( w[i].fam + 1 ) % F_COUNT;
		w[i].seed = seed * 1000 + (uint64_t)i;
		started += pthread_create( &w[i].th, NULL, app_worker, &w[i] ) == 0;
	}
	if ( !hyb_bb_expect( started == threads, "only %d of %d threads started", started, threads ) )
		return hyb_bb_finish( "app_soak" );
	/* Forks begin once every thread is inside its calls. */
	for ( int i = 0; i < threads; i++ )
		while ( atomic_load( &w[i].calls ) == 0 ) usleep( 1000 );

	double t0   = app_now();
	int    done = 0, ok = 0, hung = 0, crashed = 0, wrong = 0;
	while ( done < forks && app_now() - t0 < seconds && hung + crashed + wrong < 3 )
	{
		if ( pause_ms > 0 ) usleep( (useconds_t)app_pick( &r, 0, pause_ms ) * 1000 );
		fflush( stdout );
		alarm( (unsigned)child_timeout );
		pid_t pid = fork();
		alarm( 0 );
		if ( pid == 0 ) app_child( seed + 7 * (uint64_t)done, child_timeout, child_cpu );
		if ( !hyb_bb_expect( pid > 0, "fork: %s", strerror( errno ) ) ) break;
		done++;
		int status = 0;
		while ( waitpid( pid, &status, 0 ) < 0 && errno == EINTR )
			;
		if ( WIFEXITED( status ) && WEXITSTATUS( status ) == 0 )
			ok++;
		else if ( WIFSIGNALED( status ) && WTERMSIG( status ) == SIGALRM )
			hung++;
		else if ( WIFSIGNALED( status ) )
			crashed++;
		else
			wrong++;
	}
	double elapsed = app_now() - t0;

	atomic_store( &app_stop, 1 );
	alarm( 120 ); /* the workers finish their current call */
	long total = 0;
	for ( int i = 0; i < threads; i++ )
	{
		pthread_join( w[i].th, NULL );
		total += atomic_load( &w[i].calls );
	}
	alarm( 0 );
	printf( "%d forks in %.1f s: %d children correct, %d hung (killed after %d s), %d crashed, "
	        "%d computed wrongly\n",
	        done, elapsed, ok, hung, child_timeout, crashed, wrong );
	printf( "%ld checked calls on %d threads:", total, threads );
	for ( int f = 0; f < F_COUNT; f++ )
		if ( app_have( f ) ) printf( " %s %ld", app_fam_name[f], atomic_load( &app_ncalls[f] ) );
	printf( "\n" );
	hyb_bb_expect( hung == 0, "%d children hung", hung );
	hyb_bb_expect( crashed == 0, "%d children crashed", crashed );
	hyb_bb_expect( wrong == 0, "%d children computed wrongly", wrong );
	hyb_bb_expect( done > 0, "no fork was made" );
	free( w );
	return hyb_bb_finish( "app_soak" );
}

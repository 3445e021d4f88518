/* SPDX-License-Identifier: BSD-3-Clause */
/* The sparse products' background builder (see hyb_spmv_bg.h): one joinable helper thread,
   made lazily, that the library joins when it is unloaded and forgets in a fork() child. */
#include "dispatch/hyb_spmv_bg.h"

#include <omp.h>
#include <pthread.h>

#include "hyb_state.h"
#include "hyb_thread.h"

/* Under HYB_LOCK_SPMV_BG. */
static struct
{
	pthread_t th;
	int       up;   /* the thread exists */
	int       job;  /* a job is queued or running */
	int       quit; /* unloading: the thread ends, no job is accepted */
	int       gate; /* tests: a queued job waits while set */
	uint64_t  tag;
	void ( *fn )( void* );
	void*               arg;
	int                 threads; /* the job's threads (hyb_spmv_bg_submit) */
	hyb_spmv_bg_stats_t st;
} hyb_bg;

/* The build's share of a team of `all` threads: a quarter (at least one). The products'
   memory-bound loops lose little with a quarter of the cores gone, and the build, whose
   conversion is most of its time, runs several times faster than on one thread, so the
   device takes over after fewer CPU calls. */
static int hyb_bg_build_threads( int all )
{
	return all >= 4 ? all / 4 : 1;
}

static void* hyb_bg_main( void* unused )
{
	(void)unused;
	hyb_lock( HYB_LOCK_SPMV_BG );
	for ( ;; )
	{
		while ( !hyb_bg.quit && ( !hyb_bg.job || hyb_bg.gate ) ) hyb_lock_wait( HYB_LOCK_SPMV_BG );
		if ( hyb_bg.quit && !hyb_bg.job ) break;
		void ( *fn )( void* ) = hyb_bg.fn;
		void* arg             = hyb_bg.arg;
		/* the build's OpenMP regions take its share; the calls' products the rest
		   (hyb_spmv_bg_cpu_threads) */
		const int threads = hyb_bg.threads;
		hyb_unlock( HYB_LOCK_SPMV_BG );
		omp_set_num_threads( threads );
		fn( arg );
		hyb_lock( HYB_LOCK_SPMV_BG );
		hyb_bg.job = 0;
		hyb_bg.tag = 0;
		hyb_bg.st.finished++;
		hyb_lock_broadcast( HYB_LOCK_SPMV_BG );
	}
	hyb_unlock( HYB_LOCK_SPMV_BG );
	return NULL;
}

/* fork() child hook: the helper did not survive; a job the parent had in flight is the
   parent's (its arguments leak here on purpose). The child makes its own helper. */
static void hyb_bg_fork_child( void )
{
	hyb_bg.up  = 0;
	hyb_bg.job = 0;
	hyb_bg.tag = 0;
}

int hyb_spmv_bg_submit( void ( *fn )( void* ), void* arg, uint64_t tag, int threads )
{
	hyb_lock( HYB_LOCK_SPMV_BG );
	int ok = !hyb_bg.job && !hyb_bg.quit;
	if ( ok && !hyb_bg.up )
	{
		hyb_bg.up = hyb_thread_create( &hyb_bg.th, NULL, hyb_bg_main, NULL ) == 0;
		if ( hyb_bg.up ) hyb_state_on_fork_child( HYB_LOCK_SPMV_BG, hyb_bg_fork_child );
		ok = hyb_bg.up;
	}
	if ( ok )
	{
		hyb_bg.job     = 1;
		hyb_bg.tag     = tag;
		hyb_bg.fn      = fn;
		hyb_bg.arg     = arg;
		hyb_bg.threads = threads > 0 ? threads : hyb_bg_build_threads( omp_get_max_threads() );
		hyb_bg.st.submitted++;
		hyb_lock_broadcast( HYB_LOCK_SPMV_BG );
	}
	else
		hyb_bg.st.refused++;
	hyb_unlock( HYB_LOCK_SPMV_BG );
	return ok;
}

int hyb_spmv_bg_idle( void )
{
	hyb_lock( HYB_LOCK_SPMV_BG );
	int idle = !hyb_bg.job && !hyb_bg.quit;
	hyb_unlock( HYB_LOCK_SPMV_BG );
	return idle;
}

int hyb_spmv_bg_cpu_threads( void )
{
	hyb_lock( HYB_LOCK_SPMV_BG );
	int busy = hyb_bg.job && !hyb_bg.quit, job = hyb_bg.threads;
	hyb_unlock( HYB_LOCK_SPMV_BG );
	if ( !busy ) return 0;
	const int n = omp_get_max_threads() - job;
	return n > 1 ? n : 1;
}

int hyb_spmv_bg_quitting( void )
{
	hyb_lock( HYB_LOCK_SPMV_BG );
	int q = hyb_bg.quit;
	hyb_unlock( HYB_LOCK_SPMV_BG );
	return q;
}

int hyb_spmv_bg_building( uint64_t tag )
{
	hyb_lock( HYB_LOCK_SPMV_BG );
	int b = hyb_bg.job && hyb_bg.tag == tag;
	hyb_unlock( HYB_LOCK_SPMV_BG );
	return b;
}

void hyb_spmv_bg_wait( void )
{
	hyb_lock( HYB_LOCK_SPMV_BG );
	while ( hyb_bg.job && hyb_bg.up ) hyb_lock_wait( HYB_LOCK_SPMV_BG );
	hyb_unlock( HYB_LOCK_SPMV_BG );
}

void hyb_spmv_bg_gate( int closed )
{
	hyb_lock( HYB_LOCK_SPMV_BG );
	hyb_bg.gate = closed;
	hyb_lock_broadcast( HYB_LOCK_SPMV_BG );
	hyb_unlock( HYB_LOCK_SPMV_BG );
}

void hyb_spmv_bg_stats( hyb_spmv_bg_stats_t* out )
{
	hyb_lock( HYB_LOCK_SPMV_BG );
	*out = hyb_bg.st;
	hyb_unlock( HYB_LOCK_SPMV_BG );
}

/* Unloading (dlclose, or the process's exit): the helper's code is about to go, so the job
   in flight finishes (a gate a test left closed opens) and the thread is joined. */
__attribute__( ( destructor ) ) static void hyb_bg_unload( void )
{
	hyb_lock( HYB_LOCK_SPMV_BG );
	int up      = hyb_bg.up;
	hyb_bg.quit = 1;
	hyb_bg.gate = 0;
	hyb_lock_broadcast( HYB_LOCK_SPMV_BG );
	hyb_unlock( HYB_LOCK_SPMV_BG );
	if ( up ) pthread_join( hyb_bg.th, NULL );
}

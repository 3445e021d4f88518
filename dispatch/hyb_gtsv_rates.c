/* SPDX-License-Identifier: BSD-3-Clause */
/* The process's tridiagonal throughput profile (see hyb_gtsv_rates.h). */
#define _GNU_SOURCE
#include "dispatch/hyb_gtsv_rates.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/config/hyb_config.h"
#include "hyb_log.h"
#include "hyb_state.h"
#include "policies/hyb_learn.h"

/* Under HYB_LOCK_GTSV_RATES. The file is read and written outside the lock:
   a fork() (which takes every lock first) must not wait for file I/O, and
   a child must never find the lock held by a writer that does not exist
   there. One thread at a time writes (`writing`); a change made meanwhile
   sets `dirty`, and the writer writes again, so the file ends with the
   latest rates. */
static struct
{
	int                loaded;
	char               path[HYB_CFG_PATH_MAX + 8];
	hyb_gtsv_profile_t prof;
	int                writing;
	int                dirty;
	int                side_ran[2];  /* the process has run LAPACK / the CPU SPIKE */
	double             side_written; /* hyb_now() of the last write for a side rate */
} hyb_gr;

/* A side rate is written to the file when it is new, and else at most once in this
   many seconds: calls of a few microseconds must not each rewrite the file. */
#define HYB_GR_SIDE_WRITE_GAP 1.0

static void hyb_gr_path_of( char* out, size_t len )
{
	const char* base = hyb_config()->profile;
	if ( base[0] )
		snprintf( out, len, "%s.gtsv", base );
	else if ( len )
		out[0] = '\0';
}

/* Take the lock with the cache holding the current file, reading the file
   (when it is not loaded yet, or HYBLAS_PROFILE now names another one)
   before taking the lock. */
static void hyb_gr_lock_loaded( void )
{
	char path[sizeof hyb_gr.path];
	hyb_gr_path_of( path, sizeof path );
	hyb_lock( HYB_LOCK_GTSV_RATES );
	if ( hyb_gr.loaded && strcmp( path, hyb_gr.path ) == 0 ) return;
	hyb_unlock( HYB_LOCK_GTSV_RATES );

	hyb_gtsv_profile_t prof;
	hyb_status_t       st = HYB_E_IO;
	hyb_policy_gtsv_profile_init( &prof );
	if ( path[0] ) st = hyb_policy_gtsv_profile_read( path, &prof );
	if ( st == HYB_E_PARSE )
		hyb_log_once( hyb_hash_str( path, 0x67747376 ), HYB_LOG_WARN,
		              "warning: %s: some lines are not gtsv rates and were ignored (the file is "
		              "rewritten after the next measured call)",
		              path );
	else if ( st == HYB_OK )
		HYB_LOG( HYB_LOG_INFO, "gtsv rates read from %s (%d entries)", path, prof.count );

	hyb_lock( HYB_LOCK_GTSV_RATES );
	/* Another thread may have loaded the same file meanwhile, and folded
	   measurements into it: keep those. */
	if ( hyb_gr.loaded && strcmp( path, hyb_gr.path ) == 0 ) return;
	memcpy( hyb_gr.path, path, sizeof path );
	hyb_gr.prof   = prof;
	hyb_gr.loaded = 1;
}

static double hyb_gr_rate( const char* dev, char prec )
{
	return hyb_policy_gtsv_profile_rate( &hyb_gr.prof, dev, prec );
}

void hyb_gtsv_rates_fill( hyb_prec_t prec, hyb_gtsv_split_in_t* in )
{
	char p = hyb_prec_char( prec );
	hyb_gr_lock_loaded();
	in->cpu_alone = hyb_gr_rate( "cpu", p );
	const char* r = in->reg ? "r" : "";
	char        key[32];
	snprintf( key, sizeof key, "%ssplit.cpu", r );
	in->split_cpu = hyb_gr_rate( key, p );
	for ( int k = 0; k < HYB_GTSV_DEV_MAX; k++ )
	{
		snprintf( key, sizeof key, "%sgpu%d", r, k );
		in->dev_alone[k] = hyb_gr_rate( key, p );
		snprintf( key, sizeof key, "%ssplit.gpu%d", r, k );
		in->split_dev[k] = hyb_gr_rate( key, p );
	}
	hyb_unlock( HYB_LOCK_GTSV_RATES );
}

/* Create the directory of path (one level) if it is missing. */
static void hyb_gr_mkdir( const char* path )
{
	char dir[sizeof hyb_gr.path];
	snprintf( dir, sizeof dir, "%s", path );
	char* slash = strrchr( dir, '/' );
	if ( slash == NULL || slash == dir ) return;
	*slash = '\0';
	if ( mkdir( dir, 0755 ) != 0 && errno != EEXIST ) return;
}

/* Write a copy of the profile to path (the lock is not held). */
static void hyb_gr_write( const char* path, const hyb_gtsv_profile_t* prof )
{
	hyb_status_t st = hyb_policy_gtsv_profile_write( path, prof );
	if ( st == HYB_E_IO )
	{
		hyb_gr_mkdir( path );
		st = hyb_policy_gtsv_profile_write( path, prof );
	}
	if ( st != HYB_OK )
		hyb_log_once( hyb_hash_str( path, 0x77727465 ), HYB_LOG_INFO,
		              "gtsv rates cannot be written to %s (%s); kept for this process only", path,
		              hyb_status_string( st ) );
}

/* fork() child hook: a write in progress belonged to a thread of the
   parent; the child's own changes are written by the child. */
static void hyb_gr_fork_child( void )
{
	hyb_gr.writing = 0;
	hyb_gr.dirty   = 0;
}

/* With the lock held: after a change (changed), write the file unless another
   thread is writing it (that one writes again); then release the lock. */
static void hyb_gr_commit_unlock( int changed )
{
	int write = 0;
	if ( changed && hyb_gr.path[0] )
	{
		hyb_gr.dirty = 1;
		if ( !hyb_gr.writing )
		{
			hyb_gr.writing = write = 1;
			hyb_state_on_fork_child( HYB_LOCK_GTSV_RATES, hyb_gr_fork_child );
		}
	}
	/* This thread writes until no other change came in meanwhile. */
	while ( write )
	{
		char               path[sizeof hyb_gr.path];
		hyb_gtsv_profile_t prof = hyb_gr.prof;
		memcpy( path, hyb_gr.path, sizeof path );
		hyb_gr.dirty = 0;
		hyb_unlock( HYB_LOCK_GTSV_RATES );
		hyb_gr_write( path, &prof );
		hyb_lock( HYB_LOCK_GTSV_RATES );
		if ( !hyb_gr.dirty ) hyb_gr.writing = write = 0;
	}
	hyb_unlock( HYB_LOCK_GTSV_RATES );
}

void hyb_gtsv_rates_update( hyb_prec_t prec, hyb_gtsv_conf_t conf, int reg, double cpu_rate,
                            int ndev, const double* dev_rate )
{
	char p       = hyb_prec_char( prec );
	int  changed = 0;
	hyb_gr_lock_loaded();
	const char* pre = conf == HYB_GTSV_CONF_SPLIT ? ( reg ? "rsplit." : "split." ) : reg ? "r" : "";
	char        key[32];
	if ( cpu_rate > 0 && conf != HYB_GTSV_CONF_DEV )
	{
		snprintf( key, sizeof key, "%scpu", conf == HYB_GTSV_CONF_CPU ? "" : pre );
		changed |= hyb_policy_gtsv_profile_update( &hyb_gr.prof, key, p, cpu_rate,
		                                           HYB_LEARN_WEIGHT_GTSV ) == HYB_OK;
	}
	for ( int k = 0; k < ndev && k < HYB_GTSV_DEV_MAX && dev_rate; k++ )
	{
		if ( !( dev_rate[k] > 0 ) || conf == HYB_GTSV_CONF_CPU ) continue;
		snprintf( key, sizeof key, "%sgpu%d", pre, k );
		changed |= hyb_policy_gtsv_profile_update( &hyb_gr.prof, key, p, dev_rate[k],
		                                           HYB_LEARN_WEIGHT_GTSV ) == HYB_OK;
	}
	hyb_gr_commit_unlock( changed );
}

void hyb_gtsv_rates_side( hyb_prec_t prec, int threads, int64_t n, hyb_gtsv_side_in_t* in )
{
	char p   = hyb_prec_char( prec );
	int  cls = hyb_policy_gtsv_side_class( n );
	char lk[32], sk[32];
	hyb_policy_gtsv_side_key( 0, threads, cls, lk, sizeof lk );
	hyb_policy_gtsv_side_key( 1, threads, cls, sk, sizeof sk );
	hyb_gr_lock_loaded();
	in->lapack         = hyb_gr_rate( lk, p );
	in->lapack_samples = hyb_policy_gtsv_profile_samples( &hyb_gr.prof, lk, p );
	in->spike          = hyb_gr_rate( sk, p );
	in->spike_samples  = hyb_policy_gtsv_profile_samples( &hyb_gr.prof, sk, p );
	hyb_unlock( HYB_LOCK_GTSV_RATES );
}

void hyb_gtsv_rates_side_update( hyb_prec_t prec, int threads, int64_t n, int spike, double rate )
{
	char p = hyb_prec_char( prec );
	char key[32];
	hyb_policy_gtsv_side_key( spike, threads, hyb_policy_gtsv_side_class( n ), key, sizeof key );
	hyb_gr_lock_loaded();
	spike = spike != 0;
	if ( !hyb_gr.side_ran[spike] )
	{
		hyb_gr.side_ran[spike] = 1;
		hyb_unlock( HYB_LOCK_GTSV_RATES );
		return;
	}
	int    changed = hyb_policy_gtsv_profile_update( &hyb_gr.prof, key, p, rate,
	                                                 HYB_LEARN_WEIGHT_GTSV ) == HYB_OK;
	double now     = hyb_now();
	int    write   = changed && ( hyb_policy_gtsv_profile_samples( &hyb_gr.prof, key, p ) == 1 ||
                             now - hyb_gr.side_written >= HYB_GR_SIDE_WRITE_GAP );
	if ( write ) hyb_gr.side_written = now;
	hyb_gr_commit_unlock( write );
}

void hyb_gtsv_rates_path( char* out, size_t len )
{
	hyb_gr_path_of( out, len );
}

void hyb_gtsv_rates_reset_for_test( void )
{
	hyb_gr.loaded  = 0;
	hyb_gr.path[0] = '\0';
	hyb_gr.writing = hyb_gr.dirty = 0;
	hyb_gr.side_ran[0] = hyb_gr.side_ran[1] = 1;
	hyb_gr.side_written                     = 0;
	hyb_policy_gtsv_profile_init( &hyb_gr.prof );
}

void hyb_gtsv_rates_side_cold_for_test( void )
{
	hyb_gr.side_ran[0] = hyb_gr.side_ran[1] = 0;
}

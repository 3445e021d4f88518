/* SPDX-License-Identifier: BSD-3-Clause */
/* The learning store (policies/hyb_learn.h): the one refit rule and the families' weights,
   the families folding by it; keys, rates and ratios; the file (round trip, pending lines,
   foreign and corrupt files); the process store's persistence; the measured choices. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config/hyb_config.h"
#include "hyb_secure.h"
#include "hyb_test_util.h"
#include "policies/hyb_learn.h"
#include "policies/hyb_policy_gtsv.h"
#include "policies/hyb_refit.h"

static void test_fold_rule( void )
{
	CU_ASSERT_EQUAL( hyb_learn_fold( 5.0, 0, 7.0, 0.25 ), 7.0 ); /* nothing known: the sample */
	CU_ASSERT_EQUAL( hyb_learn_fold( 5.0, 1, 7.0, 1.0 ), 7.0 );  /* weight 1 replaces */
	CU_ASSERT_DOUBLE_EQUAL( hyb_learn_fold( 4.0, 1, 8.0, 0.5 ), 6.0, 1e-15 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_learn_fold( 4.0, 1, 8.0, 0.25 ), 5.0, 1e-15 );
	/* between the old value and the sample, and converging on a repeated sample */
	double v = 1.0;
	for ( int k = 0; k < 200; k++ )
	{
		double nv = hyb_learn_fold( v, 1, 3.0, HYB_LEARN_WEIGHT_SPMV );
		CU_ASSERT( nv >= v && nv <= 3.0 );
		v = nv;
	}
	CU_ASSERT_DOUBLE_EQUAL( v, 3.0, 1e-12 );
}

/* The weights the families' tests were written against. */
static void test_weights( void )
{
	CU_ASSERT_DOUBLE_EQUAL( HYB_LEARN_WEIGHT_L3, 0.35, 0 );
	CU_ASSERT_DOUBLE_EQUAL( HYB_LEARN_WEIGHT_SPMV, 0.25, 0 );
	CU_ASSERT_DOUBLE_EQUAL( HYB_LEARN_WEIGHT_GTSV, 0.5, 0 );
}

/* The stores fold by the rule with their family's weight. */
static void test_stores_fold( void )
{
	hyb_refit_reset();
	hyb_refit_cpu( HYB_PREC_D, 100.0, 1.0 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_refit_cpu_rate( HYB_PREC_D ), 100.0, 1e-12 );
	hyb_refit_cpu( HYB_PREC_D, 200.0, 1.0 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_refit_cpu_rate( HYB_PREC_D ),
	                        hyb_learn_fold( 100.0, 1, 200.0, HYB_LEARN_WEIGHT_L3 ), 1e-12 );
	hyb_refit_gpu( HYB_PREC_D, 1.0, 2.0 ); /* measured twice the prediction: scale 1 -> 2 */
	CU_ASSERT_DOUBLE_EQUAL( hyb_refit_gpu_scale( HYB_PREC_D ),
	                        hyb_learn_fold( 1.0, 1, 2.0, HYB_LEARN_WEIGHT_L3 ), 1e-12 );
	hyb_refit_reset();

	static hyb_learn_table_t p;
	hyb_learn_table_init( &p );
	hyb_learn_key_t cpu = hyb_policy_gtsv_learn_key( 'd', HYB_GTSV_LEARN_ALONE, 0, 0 );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &p, cpu, HYB_LEARN_CPU, 1e9, HYB_LEARN_WEIGHT_GTSV ),
	                 HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &p, cpu, HYB_LEARN_CPU, 3e9, HYB_LEARN_WEIGHT_GTSV ),
	                 HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( hyb_learn_table_rate( &p, cpu, HYB_LEARN_CPU ).value,
	                        hyb_learn_fold( 1e9, 1, 3e9, HYB_LEARN_WEIGHT_GTSV ), 1e-3 );
}

/* ------------------------------------------------------------ the table */

static hyb_learn_key_t tl_key( const char* op, uint64_t cls )
{
	return ( hyb_learn_key_t ){ hyb_op_register( op, "learn-test" ), cls };
}

/* Each (operation, class, slot) has a value of its own; the rule folds, the ratio
   corrects a factor that starts at 1 and stays within its bounds. */
static void test_keys_and_rates( void )
{
	static hyb_learn_table_t t;
	hyb_learn_table_init( &t );
	hyb_learn_key_t a = tl_key( "learn.test.a", 7 ), b = tl_key( "learn.test.b", 7 );
	hyb_learn_key_t a8 = tl_key( "learn.test.a", 8 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a, HYB_LEARN_CPU ).samples, 0 );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_CPU, 10.0, 0.5 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_CPU, 20.0, 0.5 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_GPU, 0.0, 0.5 ),
	                 HYB_OK ); /* 0 is a value */
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, b, HYB_LEARN_CPU, 1.0, 0.5 ), HYB_OK );
	hyb_learn_rate_t r = hyb_learn_table_rate( &t, a, HYB_LEARN_CPU );
	CU_ASSERT_DOUBLE_EQUAL( r.value, 15.0, 1e-12 );
	CU_ASSERT_EQUAL( r.samples, 2 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a, HYB_LEARN_GPU ).samples, 1 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a, HYB_LEARN_OTHER ).samples, 0 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a8, HYB_LEARN_CPU ).samples, 0 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_learn_table_rate( &t, b, HYB_LEARN_CPU ).value, 1.0, 0 );
	CU_ASSERT_EQUAL( hyb_learn_table_count( &t ), 3 );
	/* refused: bad samples, weights and slots */
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_CPU, NAN, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_CPU, -1, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_CPU, INFINITY, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_CPU, 1e18, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_CPU, 1, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_CPU, 1, 1.01 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &t, a, HYB_LEARN_SLOTS, 1, 0.5 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a, HYB_LEARN_CPU ).samples, 2 );
	/* the ratio: from 1, the prediction already made with the old factor */
	CU_ASSERT_EQUAL( hyb_learn_table_ratio( &t, a8, HYB_LEARN_GPU, 2.0, 0.5, 0.25, 4 ), HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( hyb_learn_table_rate( &t, a8, HYB_LEARN_GPU ).value, 1.5, 1e-12 );
	for ( int i = 0; i < 50; i++ )
		hyb_learn_table_ratio( &t, a8, HYB_LEARN_GPU, 100, 0.5, 0.25, 4 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_learn_table_rate( &t, a8, HYB_LEARN_GPU ).value, 4.0, 0 );
	CU_ASSERT_EQUAL( hyb_learn_table_ratio( &t, a8, HYB_LEARN_GPU, 0, 0.5, 0.25, 4 ),
	                 HYB_E_INVALID );
	hyb_learn_table_forget( &t, a.op );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a, HYB_LEARN_CPU ).samples, 0 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a8, HYB_LEARN_GPU ).samples, 0 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, b, HYB_LEARN_CPU ).samples, 1 );
}

static char tl_dir[128];

static const char* tl_path( char* out, size_t len, const char* name )
{
	if ( !tl_dir[0] )
	{
		snprintf( tl_dir, sizeof tl_dir, "/tmp/hyb_learn_XXXXXX" );
		CU_ASSERT_FATAL( mkdtemp( tl_dir ) != NULL );
	}
	snprintf( out, len, "%s/%s", tl_dir, name );
	return out;
}

static void tl_put( const char* path, const char* text )
{
	FILE* f = fopen( path, "w" );
	CU_ASSERT_PTR_NOT_NULL_FATAL( f );
	fputs( text, f );
	fclose( f );
}

/* Written and read back exactly (%.17g); lines of an operation this process does not know
   are kept and written back. */
static void test_file_round_trip( void )
{
	static hyb_learn_table_t t, u, v;
	char                     path[256], text[512];
	hyb_learn_table_init( &t );
	hyb_learn_key_t a = tl_key( "learn.test.a", 0xfedcba9876543210ull );
	hyb_learn_table_fold( &t, a, HYB_LEARN_OTHER, 1.0 / 3.0, 1 );
	hyb_learn_table_fold( &t, a, HYB_LEARN_OTHER, 2.0 / 7.0, 0.25 );
	hyb_learn_table_fold( &t, a, HYB_LEARN_GPU, 0.0, 1 );
	CU_ASSERT_EQUAL( hyb_learn_table_write( tl_path( path, sizeof path, "rt.learn" ), &t ),
	                 HYB_OK );
	snprintf( text, sizeof text, "%s/rt.learn.tmp.%ld", tl_dir, (long)getpid() );
	CU_ASSERT( access( text, F_OK ) != 0 ); /* no temporary left behind */
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &u ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_count( &u ), 2 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &u, a, HYB_LEARN_OTHER ).value,
	                 hyb_learn_table_rate( &t, a, HYB_LEARN_OTHER ).value );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &u, a, HYB_LEARN_OTHER ).samples, 2 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &u, a, HYB_LEARN_GPU ).samples, 1 );

	/* an operation not registered here: pending, kept through a rewrite */
	tl_put( path, "# hyblas learning store 1\n"
	              "learn learn.test.unknown 0x2a cpu 5 3\n"
	              "learn learn.test.a 0x1 gpu 7 1\n" );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &u ), HYB_OK );
	CU_ASSERT_EQUAL( u.npending, 1 );
	CU_ASSERT_EQUAL( u.count, 1 );
	CU_ASSERT_EQUAL( hyb_learn_table_write( path, &u ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &v ), HYB_OK );
	CU_ASSERT_EQUAL( v.npending, 1 );
	CU_ASSERT_STRING_EQUAL( v.p[0].op, "learn.test.unknown" );
	CU_ASSERT_EQUAL( v.p[0].cls, 0x2a );
	CU_ASSERT_EQUAL( v.p[0].slot, HYB_LEARN_CPU );
	CU_ASSERT_EQUAL( v.p[0].rate.samples, 3 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &v, tl_key( "learn.test.a", 1 ), HYB_LEARN_GPU ).value,
	                 7 );
	/* a missing directory: refused cleanly */
	CU_ASSERT_EQUAL( hyb_learn_table_write( tl_path( path, sizeof path, "no/such.learn" ), &v ),
	                 HYB_E_IO );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &v ), HYB_E_IO );
	CU_ASSERT_EQUAL( hyb_learn_table_count( &v ), 0 );
}

/* A file that is not the store's (no header: an older ".gtsv" file, a profile, binary
   junk) is ignored whole; in the store's file, bad lines are skipped one by one. */
static void test_file_foreign_and_corrupt( void )
{
	static hyb_learn_table_t t;
	char                     path[256];
	tl_key( "learn.test.a", 0 );
	const char* foreign[] = {
		"gtsv cpu d 1.5e9 4\nlearn learn.test.a 0x1 cpu 5 3\n",
		"h2d_pinned = 5e10\n",
		"\x01\x02\xff\n# hyblas learning store 1\nlearn learn.test.a 0x1 cpu 5 3\n",
		"# hyblas learning store 2\nlearn learn.test.a 0x1 cpu 5 3\n",
		"# hyblas learning store 1x\nlearn learn.test.a 0x1 cpu 5 3\n",
	};
	for ( size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++ )
	{
		tl_put( tl_path( path, sizeof path, "foreign.learn" ), foreign[i] );
		CU_ASSERT_EQUAL( hyb_learn_table_read( path, &t ), HYB_E_PARSE );
		CU_ASSERT_EQUAL( hyb_learn_table_count( &t ), 0 );
	}
	char long_line[400];
	memset( long_line, '1', sizeof long_line - 2 );
	long_line[sizeof long_line - 2] = '\n';
	long_line[sizeof long_line - 1] = '\0';
	char text[2048];
	snprintf( text, sizeof text,
	          "# hyblas learning store 1 \r\n"
	          "learn learn.test.a 0x1 cpu 5 3\n"
	          "learn learn.test.a 0x1 cpu nan 3\n"
	          "learn learn.test.a 0x1 cpu -1 3\n"
	          "learn learn.test.a 0x1 cpu 1e18 3\n"
	          "learn learn.test.a 0x1 gpu 2 0\n"
	          "learn learn.test.a 0x1 gpu 2 -4\n"
	          "learn learn.test.a 0x1 gpu 2 1 extra\n"
	          "learn learn.test.a 0x1 gpu 2x 1\n"
	          "learn learn.test.a 0x1 disk 2 1\n"
	          "learn learn.test.a 1 gpu 2 1\n"
	          "learn learn.test.a 0x-1 gpu 2 1\n"
	          "learn learn.test.a 0x 0x1 gpu 2 1\n"
	          "learn learn.test.a 0x10000000000000000 gpu 2 1\n"
	          "learn ../etc/passwd 0x1 gpu 2 1\n"
	          "learn learn.test.a.0123456789012345678901234567890123456789 0x1 gpu 2 1\n"
	          "gtsv learn.test.a 0x1 gpu 2 1\n"
	          "%s"
	          "\x01\x02 garbage\n"
	          "  learn\tlearn.test.a  0x1  other  9  2  \n"
	          "learn learn.test.a 0x1 cpu 6 4\n"
	          "learn learn.test.a 0x1 gpu 3",
	          long_line );
	tl_put( path, text );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &t ), HYB_E_PARSE );
	hyb_learn_key_t a = tl_key( "learn.test.a", 1 );
	CU_ASSERT_EQUAL( hyb_learn_table_count( &t ), 2 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a, HYB_LEARN_CPU ).value, 6 ); /* later wins */
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a, HYB_LEARN_CPU ).samples, 4 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a, HYB_LEARN_OTHER ).value, 9 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, a, HYB_LEARN_GPU ).samples, 0 );
	/* empty: a valid empty store; a directory: unreadable */
	tl_put( path, "" );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &t ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_read( tl_dir, &t ), HYB_E_IO );
	CU_ASSERT_EQUAL( hyb_learn_table_read( NULL, &t ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, NULL ), HYB_E_INVALID );
}

/* ------------------------------------------------------------ the process store */

static hyb_config_t tl_cfg;

static void tl_profile( const char* profile )
{
	char err[256];
	hyb_config_defaults( &tl_cfg );
	if ( profile )
		CU_ASSERT_EQUAL(
		    hyb_config_set( &tl_cfg, "HYBLAS_PROFILE", profile, HYB_SRC_TEST, err, sizeof err ),
		    HYB_OK );
	hyb_config_finish( &tl_cfg );
	hyb_config_install_for_test( &tl_cfg );
	hyb_learn_unload();
}

static int tl_child_note( void* arg )
{
	hyb_learn_key_t* k = arg;
	/* the parent's rates are there, and a child can learn and write */
	if ( hyb_learn_rate( *k, HYB_LEARN_CPU ).samples != 2 ) return 2;
	if ( hyb_learn_note( *k, HYB_LEARN_CPU, 1.0, 0.5 ) != HYB_OK ) return 3;
	hyb_learn_commit();
	return 0;
}

/* Persistent operations are read from <profile>.learn at first use and written by commit;
   others stay in memory; a line read before its operation is declared is adopted then. */
static void test_store_persistence( void )
{
	char profile[256], path[300];
	tl_profile( tl_path( profile, sizeof profile, "prof" ) );
	hyb_learn_path( path, sizeof path );
	CU_ASSERT( strcmp( path + strlen( path ) - 6, ".learn" ) == 0 );
	unlink( path );
	hyb_learn_key_t p = tl_key( "learn.test.p", 3 ), m = tl_key( "learn.test.m", 3 );
	hyb_learn_persist( p.op );
	CU_ASSERT_EQUAL( hyb_learn_note( p, HYB_LEARN_CPU, 100, 0.5 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_note( p, HYB_LEARN_CPU, 200, 0.5 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_note( m, HYB_LEARN_CPU, 7, 0.5 ), HYB_OK );
	hyb_learn_commit();
	static hyb_learn_table_t t;
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &t ), HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( hyb_learn_table_rate( &t, p, HYB_LEARN_CPU ).value, 150, 1e-9 );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, m, HYB_LEARN_CPU ).samples, 0 ); /* memory only */

	/* a fork child sees the rates and writes its own */
	CU_ASSERT_EQUAL( hyb_t_isolated( "learning store in a fork child", tl_child_note, &p, 10 ), 0 );
	CU_ASSERT_EQUAL( hyb_learn_rate( p, HYB_LEARN_CPU ).samples, 2 ); /* the parent's own */

	/* read back after a reload: the file's rates (the child's 3rd sample included) */
	hyb_learn_unload();
	CU_ASSERT_EQUAL( hyb_learn_rate( p, HYB_LEARN_CPU ).samples, 3 );
	CU_ASSERT_EQUAL( hyb_learn_rate( m, HYB_LEARN_CPU ).samples, 1 );

	/* lines of an operation declared later are adopted, and kept through a rewrite */
	tl_put( path, "# hyblas learning store 1\nlearn learn.test.late 0x5 gpu 42 6\n"
	              "learn learn.test.p 0x3 cpu 1 1\n" );
	hyb_learn_unload();
	CU_ASSERT_EQUAL( hyb_learn_rate( p, HYB_LEARN_CPU ).value, 1 );
	CU_ASSERT_EQUAL( hyb_learn_note( p, HYB_LEARN_GPU, 1, 0.5 ), HYB_OK );
	hyb_learn_commit();
	hyb_learn_key_t late = tl_key( "learn.test.late", 5 );
	CU_ASSERT_EQUAL( hyb_learn_rate( late, HYB_LEARN_GPU ).samples, 0 ); /* not declared yet */
	hyb_learn_persist( late.op );
	CU_ASSERT_EQUAL( hyb_learn_rate( late, HYB_LEARN_GPU ).value, 42 );
	CU_ASSERT_EQUAL( hyb_learn_rate( late, HYB_LEARN_GPU ).samples, 6 );

	/* a foreign file: nothing taken, rewritten as the store's at the next commit */
	tl_put( path, "gtsv cpu d 1.5e9 4\n" );
	hyb_learn_unload();
	CU_ASSERT_EQUAL( hyb_learn_rate( p, HYB_LEARN_CPU ).samples, 0 );
	CU_ASSERT_EQUAL( hyb_learn_note( p, HYB_LEARN_CPU, 5, 0.5 ), HYB_OK );
	hyb_learn_commit();
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &t ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &t, p, HYB_LEARN_CPU ).value, 5 );

	/* secure execution: nothing read, nothing written, no directory made */
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &t ), HYB_OK );
	hyb_secure_force_for_test( 1 );
	CU_ASSERT_EQUAL( hyb_learn_table_read( path, &t ), HYB_E_IO );
	CU_ASSERT_EQUAL( hyb_learn_table_write( path, &t ), HYB_E_FORBIDDEN );
	hyb_learn_unload();
	CU_ASSERT_EQUAL( hyb_learn_rate( p, HYB_LEARN_CPU ).samples, 0 );
	unlink( path );
	char sub[300];
	tl_profile( tl_path( sub, sizeof sub, "sub/prof" ) );
	hyb_learn_note( p, HYB_LEARN_CPU, 5, 0.5 );
	hyb_learn_commit();
	hyb_secure_force_for_test( -1 );
	CU_ASSERT( access( tl_path( sub, sizeof sub, "sub" ), F_OK ) != 0 );
	tl_profile( profile );

	/* no profile: nothing is written */
	unlink( path );
	tl_profile( NULL );
	hyb_learn_note( p, HYB_LEARN_CPU, 5, 0.5 );
	hyb_learn_commit();
	CU_ASSERT( access( path, F_OK ) != 0 );
	hyb_learn_forget( p.op );
	hyb_learn_forget( m.op );
	hyb_learn_forget( late.op );
	hyb_config_install_for_test( NULL );
	hyb_learn_unload();
	const char* left[] = { "rt.learn", "foreign.learn", "prof.learn" };
	for ( size_t i = 0; i < sizeof left / sizeof left[0]; i++ )
		unlink( tl_path( path, sizeof path, left[i] ) );
	rmdir( tl_dir );
}

/* ------------------------------------------------------------ measured choices */

/* A toy rule: time each side twice, keep the faster. */
typedef struct
{
	int    n[2];
	double best[2];
} tl_rule_t;

typedef struct
{
	int    side; /* in: the side timed (-1: none), out: the side to run */
	double seconds;
	int    ran;
} tl_step_t;

static void tl_rule( hyb_learn_choice_t* c, void* ctx )
{
	tl_rule_t* r  = (tl_rule_t*)(void*)c->rule.bytes;
	tl_step_t* st = ctx;
	st->ran       = 1;
	if ( st->side >= 0 && c->phase != HYB_LEARN_DECIDED )
	{
		int s = st->side;
		if ( r->n[s] == 0 || st->seconds < r->best[s] ) r->best[s] = st->seconds;
		r->n[s]++;
		c->time[s] = r->best[s];
		c->phase   = HYB_LEARN_MEASURING;
		if ( r->n[0] >= 2 && r->n[1] >= 2 )
		{
			c->phase = HYB_LEARN_DECIDED;
			c->side  = r->best[1] < r->best[0] ? HYB_LEARN_GPU : HYB_LEARN_CPU;
		}
	}
	st->side = c->phase == HYB_LEARN_DECIDED ? (int)c->side : r->n[0] <= r->n[1] ? 0 : 1;
}

static void test_measured_choice( void )
{
	hyb_learn_key_t    k = tl_key( "learn.test.c", 11 );
	hyb_learn_choice_t c;
	tl_step_t          st = { -1, 0, 0 };
	CU_ASSERT_EQUAL( hyb_learn_choice_get( k, &c ), 0 );
	CU_ASSERT_EQUAL( hyb_learn_choice( k, 0, tl_rule, &st ), 0 ); /* no record, none made */
	CU_ASSERT_EQUAL( st.ran, 0 );
	CU_ASSERT_EQUAL( hyb_learn_choice( k, 1, tl_rule, &st ), 1 );
	CU_ASSERT_EQUAL( hyb_learn_choice_get( k, &c ), 1 );
	CU_ASSERT_EQUAL( c.phase, HYB_LEARN_PENDING );
	double t[2] = { 2e-3, 1e-3 }; /* the device is faster */
	for ( int i = 0; i < 4; i++ )
	{
		st = ( tl_step_t ){ -1, 0, 0 };
		hyb_learn_choice( k, 1, tl_rule, &st );
		int side = st.side;
		st       = ( tl_step_t ){ side, t[side], 0 };
		hyb_learn_choice( k, 0, tl_rule, &st );
		CU_ASSERT_EQUAL( hyb_learn_choice_get( k, &c ), 1 );
		CU_ASSERT_EQUAL( c.phase, i < 3 ? HYB_LEARN_MEASURING : HYB_LEARN_DECIDED );
	}
	CU_ASSERT_EQUAL( c.side, HYB_LEARN_GPU );
	CU_ASSERT_DOUBLE_EQUAL( c.time[HYB_LEARN_CPU], 2e-3, 0 );
	CU_ASSERT_DOUBLE_EQUAL( c.time[HYB_LEARN_GPU], 1e-3, 0 );

	/* an operation keeps HYB_LEARN_CHOICES_PER_OP records: the least recently used goes
	   (a note does not count as a use), other operations' records stay */
	hyb_learn_key_t o = tl_key( "learn.test.other", 11 );
	st                = ( tl_step_t ){ -1, 0, 0 };
	hyb_learn_choice( o, 1, tl_rule, &st );
	for ( uint64_t i = 0; i < HYB_LEARN_CHOICES_PER_OP - 1; i++ )
	{
		st = ( tl_step_t ){ -1, 0, 0 };
		hyb_learn_choice( tl_key( "learn.test.c", 100 + i ), 1, tl_rule, &st );
	}
	CU_ASSERT_EQUAL( hyb_learn_choice_get( k, &c ), 1 ); /* 64 of c's: all kept */
	st = ( tl_step_t ){ 0, 1.0, 0 };
	hyb_learn_choice( k, 0, tl_rule, &st ); /* a note: k stays the least recently used */
	st = ( tl_step_t ){ -1, 0, 0 };
	hyb_learn_choice( tl_key( "learn.test.c", 99 ), 1, tl_rule, &st );
	CU_ASSERT_EQUAL( hyb_learn_choice_get( k, &c ), 0 );
	CU_ASSERT_EQUAL( hyb_learn_choice_get( tl_key( "learn.test.c", 100 ), &c ), 1 );
	CU_ASSERT_EQUAL( hyb_learn_choice_get( o, &c ), 1 );
	hyb_learn_choice_forget( o );
	CU_ASSERT_EQUAL( hyb_learn_choice_get( o, &c ), 0 );
	hyb_learn_choices_forget( k.op );
	CU_ASSERT_EQUAL( hyb_learn_choice_get( tl_key( "learn.test.c", 100 ), &c ), 0 );
}

static CU_TestInfo hyb_tests_learn[] = {
	{ "fold_rule", test_fold_rule },
	{ "weights", test_weights },
	{ "stores_fold", test_stores_fold },
	{ "keys_and_rates", test_keys_and_rates },
	{ "file_round_trip", test_file_round_trip },
	{ "file_foreign_and_corrupt", test_file_foreign_and_corrupt },
	{ "store_persistence", test_store_persistence },
	{ "measured_choice", test_measured_choice },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_learn = { "learn", NULL, NULL, NULL, NULL, hyb_tests_learn };

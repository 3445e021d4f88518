/* SPDX-License-Identifier: BSD-3-Clause */
/* Resolving the real library (shim/hyb_shim_resolve.c): HYBLAS_CPU_LIB
   chosen first, a missing one warned once and skipped, a symbol it lacks
   found in the next library, a library loaded later found then, and never
   an address inside libhyblas (a program linked to libhyblas alone, run with
   HYBLAS_CPU_LIB naming libhyblas itself). Each scenario runs in a child
   process: the resolver's state is per process. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/config/hyb_config.h"
#include "hyb_log.h"
#include "hyb_routines.h"
#include "hyb_test_util.h"
#include "hyb_unit_paths.h"
#include "shim/hyb_shim.h"

typedef void ( *hyb_dgemm_fn )( const char*, const char*, const int*, const int*, const int*,
                                const double*, const double*, const int*, const double*, const int*,
                                const double*, double*, const int*, size_t, size_t );

static hyb_config_t hyb_rcfg;
static char         hyb_rlog[16384];

/* In the child: a configuration naming `cpu_lib` (or none). */
static void use_cpu_lib( const char* cpu_lib )
{
	char err[256];
	hyb_config_defaults( &hyb_rcfg );
	if ( cpu_lib )
		hyb_config_set( &hyb_rcfg, "HYBLAS_CPU_LIB", cpu_lib, HYB_SRC_TEST, err, sizeof err );
	hyb_config_finish( &hyb_rcfg );
	hyb_config_install_for_test( &hyb_rcfg );
}

/* The file an address belongs to, resolved to a real path ("" if none). */
static void owner( void* p, char* out, size_t cap )
{
	Dl_info info;
	out[0] = '\0';
	if ( p && dladdr( p, &info ) && info.dli_fname )
	{
		char real[PATH_MAX];
		snprintf( out, cap, "%s", realpath( info.dli_fname, real ) ? real : info.dli_fname );
	}
}

static int same_file( const char* a, const char* b )
{
	char ra[PATH_MAX], rb[PATH_MAX];
	if ( !realpath( a, ra ) || !realpath( b, rb ) ) return 0;
	return strcmp( ra, rb ) == 0;
}

/* A 3 x 3 product through `fn`, checked against a direct loop. */
static int dgemm_works( hyb_dgemm_fn fn )
{
	double a[9], b[9], c[9], want[9];
	for ( int i = 0; i < 9; i++ ) a[i] = i + 1, b[i] = 2 * i - 3, c[i] = 5;
	for ( int j = 0; j < 3; j++ )
		for ( int i = 0; i < 3; i++ )
		{
			double s = 0;
			for ( int l = 0; l < 3; l++ ) s += a[l + i * 3] * b[l + j * 3]; /* A^T B */
			want[i + j * 3] = 2 * s + 0.5 * 5;
		}
	int    n     = 3;
	double alpha = 2, beta = 0.5;
	fn( "T", "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1 );
	for ( int i = 0; i < 9; i++ )
		if ( c[i] != want[i] ) return 0;
	return 1;
}

static int fake_calls( void )
{
	void* h = dlopen( HYB_UNIT_FAKE_VENDOR, RTLD_LAZY | RTLD_NOLOAD );
	if ( h == NULL ) return -1;
	int ( *calls )( void ) = (int ( * )( void ))dlsym( h, "fake_vendor_calls" );
	int n                  = calls ? calls() : -1;
	dlclose( h );
	return n;
}

/* Whether some default BLAS can be found at all on this machine. */
static int any_blas( void )
{
	static const char* libs[] = { "libopenblas.so.0", "libblas.so.3" };
	for ( unsigned i = 0; i < 2; i++ )
	{
		void* h = dlopen( libs[i], RTLD_LAZY | RTLD_LOCAL );
		if ( h )
		{
			dlclose( h );
			return 1;
		}
	}
	return 0;
}

#define CHILD_CHECK( cond )                                                                        \
	do {                                                                                           \
		if ( !( cond ) )                                                                           \
		{                                                                                          \
			fprintf( stderr, "\n    child check failed at line %d: %s", __LINE__, #cond );         \
			return 1;                                                                              \
		}                                                                                          \
	} while ( 0 )

/* HYBLAS_CPU_LIB names the fake vendor: dgemm_ resolves there and works. */
static int child_cpu_lib( void* arg )
{
	(void)arg;
	use_cpu_lib( HYB_UNIT_FAKE_VENDOR );
	hyb_t_log_begin( HYB_LOG_WARN );
	void* p = hyb_shim_resolve( HYB_R_dgemm_ );
	hyb_t_log_end( hyb_rlog, sizeof hyb_rlog );
	char where[PATH_MAX];
	owner( p, where, sizeof where );
	CHILD_CHECK( p != NULL );
	CHILD_CHECK( same_file( where, HYB_UNIT_FAKE_VENDOR ) );
	CHILD_CHECK( hyb_rlog[0] == '\0' );
	CHILD_CHECK( fake_calls() == 0 );
	CHILD_CHECK( dgemm_works( (hyb_dgemm_fn)p ) );
	CHILD_CHECK( fake_calls() == 1 );
	/* The same answer again (cached or not). */
	CHILD_CHECK( hyb_shim_resolve( HYB_R_dgemm_ ) == p );
	/* Other names of the same routine ("dgemm", no underscore) are other symbols. */
	void* q = hyb_shim_resolve( HYB_R_sgemm_ );
	owner( q, where, sizeof where );
	CHILD_CHECK(
	    !same_file( where, HYB_UNIT_FAKE_VENDOR ) ); /* the fake has no sgemm_: the next library */
	if ( any_blas() ) CHILD_CHECK( q != NULL );
	return 0;
}

/* HYBLAS_CPU_LIB names no file: one warning, the next library is used. */
static int child_missing_cpu_lib( void* arg )
{
	(void)arg;
	use_cpu_lib( "/nonexistent/dir/libnothere.so" );
	hyb_t_log_begin( HYB_LOG_WARN );
	void* p = hyb_shim_resolve( HYB_R_dgemm_ );
	void* q = hyb_shim_resolve( HYB_R_sgemm_ );
	void* z = hyb_shim_resolve( HYB_R_zgemm_ );
	hyb_t_log_end( hyb_rlog, sizeof hyb_rlog );
	CHILD_CHECK( strstr( hyb_rlog, "libnothere.so" ) != NULL );
	CHILD_CHECK( hyb_t_count( hyb_rlog, "HYBLAS_CPU_LIB" ) == 1 );
	CHILD_CHECK( hyb_t_count( hyb_rlog, "\n" ) == 1 );
	if ( any_blas() ) CHILD_CHECK( p != NULL && q != NULL && z != NULL );
	if ( p ) CHILD_CHECK( dgemm_works( (hyb_dgemm_fn)p ) );
	return 0;
}

/* A symbol nobody has: NULL, and found once a library providing it is
   loaded later (Python imports its BLAS after start-up). */
static int child_late_load( void* arg )
{
	(void)arg;
	use_cpu_lib( NULL );
	hyb_t_log_begin( HYB_LOG_WARN );
	void* p  = hyb_shim_resolve( HYB_R_mkl_cspblas_dcoogemv );
	void* p2 = hyb_shim_resolve( HYB_R_mkl_cspblas_dcoogemv );
	hyb_t_log_end( hyb_rlog, sizeof hyb_rlog );
	if ( p != NULL ) return 0; /* this machine has MKL: nothing to prove here */
	CHILD_CHECK( p2 == NULL );
	void* h = dlopen( HYB_UNIT_FAKE_VENDOR, RTLD_NOW | RTLD_LOCAL );
	CHILD_CHECK( h != NULL );
	void* q = hyb_shim_resolve( HYB_R_mkl_cspblas_dcoogemv );
	char  where[PATH_MAX];
	owner( q, where, sizeof where );
	CHILD_CHECK( q != NULL && same_file( where, HYB_UNIT_FAKE_VENDOR ) );
	return 0;
}

static void test_cpu_lib( void )
{
	CU_ASSERT_EQUAL( hyb_t_isolated( "HYBLAS_CPU_LIB=fake vendor", child_cpu_lib, NULL, 30 ), 0 );
}

static void test_missing_cpu_lib( void )
{
	CU_ASSERT_EQUAL(
	    hyb_t_isolated( "HYBLAS_CPU_LIB=missing file", child_missing_cpu_lib, NULL, 30 ), 0 );
}

static void test_late_load( void )
{
	CU_ASSERT_EQUAL( hyb_t_isolated( "library loaded later", child_late_load, NULL, 30 ), 0 );
}

/* ------------------------------------------------------------------ libhyblas itself */

/* Run `prog` with `env` (NULL-terminated NAME=VALUE), its stdout into out;
   returns its exit status (or 128 + signal). */
static int run_prog( const char* prog, char* const* env, char* out, size_t cap )
{
	int fds[2];
	if ( pipe( fds ) != 0 ) return -1;
	pid_t pid = fork();
	if ( pid == 0 )
	{
		dup2( fds[1], STDOUT_FILENO );
		close( fds[0] );
		close( fds[1] );
		alarm( 60 );
		execle( prog, prog, (char*)NULL, env );
		_exit( 126 );
	}
	close( fds[1] );
	size_t  len = 0;
	ssize_t got;
	while ( len + 1 < cap && ( got = read( fds[0], out + len, cap - 1 - len ) ) > 0 )
		len += (size_t)got;
	out[len] = '\0';
	close( fds[0] );
	int status = 0;
	waitpid( pid, &status, 0 );
	return WIFEXITED( status ) ? WEXITSTATUS( status )
	                           : 128 + ( WIFSIGNALED( status ) ? WTERMSIG( status ) : 0 );
}

static void read_file( const char* path, char* out, size_t cap )
{
	out[0] = '\0';
	int fd = open( path, O_RDONLY );
	if ( fd < 0 ) return;
	ssize_t n          = read( fd, out, cap - 1 );
	out[n > 0 ? n : 0] = '\0';
	close( fd );
}

/* A program linked to libhyblas alone: with HYBLAS_CPU_LIB naming libhyblas
   (and without it), dgemm_ never resolves into libhyblas: the call computes
   through another BLAS, or has no effect with the one error line. */
static void test_never_ours( void )
{
	for ( int variant = 0; variant < 2; variant++ )
	{
		char logpath[] = "/tmp/hyb_unit_resolveXXXXXX";
		int  fd        = mkstemp( logpath );
		CU_ASSERT_FATAL( fd >= 0 );
		close( fd );
		char e_lib[PATH_MAX + 32], e_log[PATH_MAX + 32];
		snprintf( e_lib, sizeof e_lib, "HYBLAS_CPU_LIB=%s",
		          variant == 0 ? HYB_UNIT_LIBHYBLAS : "" );
		snprintf( e_log, sizeof e_log, "HYBLAS_LOG_FILE=%s", logpath );
		char* env[] = { e_lib,
			            e_log,
			            "HYBLAS_LOG_LEVEL=3",
			            "HYBLAS_MODE=cpu",
			            "HYBLAS_DEVICE=none",
			            "PATH=/usr/bin:/bin",
			            NULL };
		char  out[256], log[16384];
		int   rc = run_prog( HYB_UNIT_RESOLVE_SELF, env, out, sizeof out );
		read_file( logpath, log, sizeof log );
		unlink( logpath );
		if ( rc != 0 )
			fprintf( stderr, "\n    resolve_self exit %d, out \"%s\", log:\n%s", rc, out, log );
		CU_ASSERT_EQUAL( rc, 0 );
		int computed = strncmp( out, "computed", 8 ) == 0,
		    none     = strncmp( out, "no-effect", 9 ) == 0;
		CU_ASSERT( computed || none );
		if ( computed )
		{
			/* The trace names where dgemm_ was found: not libhyblas. */
			const char* r = strstr( log, "resolved dgemm_ in " );
			CU_ASSERT_PTR_NOT_NULL( r );
			if ( r )
			{
				const char* eol = strchr( r, '\n' );
				char        where[PATH_MAX];
				snprintf( where, sizeof where, "%.*s",
				          (int)( ( eol ? eol : r + strlen( r ) ) - r - 19 ), r + 19 );
				CU_ASSERT( !same_file( where, HYB_UNIT_LIBHYBLAS ) );
				CU_ASSERT( strstr( where, "libhyblas" ) == NULL );
			}
		}
		else
			CU_ASSERT_EQUAL( hyb_t_count( log, "no BLAS library provides dgemm_" ), 1 );
		if ( variant == 0 ) CU_ASSERT_EQUAL( hyb_t_count( log, "cannot be loaded" ), 0 );
	}
}

static CU_TestInfo hyb_tests_resolve[] = {
	{ "cpu_lib", test_cpu_lib },
	{ "missing_cpu_lib", test_missing_cpu_lib },
	{ "late_load", test_late_load },
	{ "never_ours", test_never_ours },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_resolve = { "resolve", NULL, NULL, NULL, NULL, hyb_tests_resolve };

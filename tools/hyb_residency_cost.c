/* SPDX-License-Identifier: BSD-3-Clause */
/* Measures what each residency mechanism costs per GiB: arming, checking an
   unchanged range, checking and re-arming after a write, and the write
   faults the program pays on tracked pages; 4 KiB pages and, where THP can
   be had with madvise(MADV_HUGEPAGE), huge pages.
   Usage: hyb_residency_cost [--mib N] [--reps R] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "hyb_types.h"
#include "policies/hyb_residency.h"

#define HYB_COST_HUGE ( (size_t)2 << 20 )

/* Kilobytes of AnonHugePages in this process (smaps_rollup), -1 if unknown. */
static long hyb_cost_thp_kb( void )
{
	FILE* f = fopen( "/proc/self/smaps_rollup", "r" );
	if ( !f ) return -1;
	char line[256];
	long kb = -1;
	while ( fgets( line, sizeof line, f ) )
		if ( sscanf( line, "AnonHugePages: %ld kB", &kb ) == 1 ) break;
	fclose( f );
	return kb;
}

static int hyb_cost_thp_possible( void )
{
	FILE* f = fopen( "/sys/kernel/mm/transparent_hugepage/enabled", "r" );
	if ( !f ) return 0;
	char  line[128] = "";
	char* ok        = fgets( line, sizeof line, f );
	fclose( f );
	return ok && ( strstr( line, "[always]" ) || strstr( line, "[madvise]" ) );
}

/* A 2 MiB aligned, populated region; huge asks for THP. *thp_frac gets the
   fraction backed by huge pages. */
static unsigned char* hyb_cost_region( size_t n, int huge, double* thp_frac )
{
	long           before = hyb_cost_thp_kb();
	unsigned char* raw =
	    mmap( NULL, n + HYB_COST_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	if ( raw == MAP_FAILED ) return NULL;
	uintptr_t      a = ( (uintptr_t)raw + HYB_COST_HUGE - 1 ) & ~( (uintptr_t)HYB_COST_HUGE - 1 );
	unsigned char* p = (unsigned char*)a;
	size_t         head = (size_t)( p - raw );
	if ( head ) munmap( raw, head );
	if ( HYB_COST_HUGE - head ) munmap( p + n, HYB_COST_HUGE - head );
	madvise( p, n, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE );
	for ( size_t i = 0; i < n; i += 4096 ) p[i] = (unsigned char)( i >> 12 ) | 1;
	long after = hyb_cost_thp_kb();
	*thp_frac  = before >= 0 && after >= 0 ? (double)( after - before ) * 1024.0 / (double)n : 0.0;
	return p;
}

static int hyb_cost_cmp( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : x > y;
}

static double hyb_cost_median( double* v, int n )
{
	qsort( v, (size_t)n, sizeof *v, hyb_cost_cmp );
	return n % 2 ? v[n / 2] : 0.5 * ( v[n / 2 - 1] + v[n / 2] );
}

/* Seconds to write one byte to every page (the program's side). */
static double hyb_cost_touch( unsigned char* p, size_t n )
{
	double t0 = hyb_now();
	for ( size_t i = 0; i < n; i += 4096 ) p[i] ^= 1;
	return hyb_now() - t0;
}

/* Seconds to read every byte once on one thread (the memory-bandwidth
   yardstick for hashing). */
static double hyb_cost_read( const unsigned char* p, size_t n )
{
	double            t0 = hyb_now();
	volatile uint64_t s  = 0;
	uint64_t          a = 0, b = 0, c = 0, d = 0;
	for ( size_t i = 0; i + 32 <= n; i += 32 )
	{
		uint64_t w[4];
		memcpy( w, p + i, sizeof w );
		a += w[0];
		b ^= w[1];
		c += w[2];
		d ^= w[3];
	}
	s = a + b + c + d;
	(void)s;
	return hyb_now() - t0;
}

static void hyb_cost_row( hyb_residency_mech_t m, unsigned char* p, size_t n, int reps,
                          const char* pages, double thp_frac )
{
	double gib = (double)n / (double)( (size_t)1 << 30 );
	double arm, arm2, check[64], dirty[64], rearm[64], touch, base;
	if ( reps > 64 ) reps = 64;
	hyb_residency_range_t  r = { p, n };
	hyb_residency_watch_t* w = NULL;

	base     = hyb_cost_touch( p, n ); /* untracked: the baseline for write faults */
	double t = hyb_now();
	if ( hyb_residency_watch_create( m, &r, 1, &w ) != HYB_OK ) return;
	arm              = hyb_now() - t;
	const char* name = m == HYB_RESIDENCY_MECH_UFFD
	                       ? ( hyb_residency_uffd_full_scan( -1 ) ? "uffd/full" : "uffd/fast" )
	                       : hyb_residency_mech_name( m );
	if ( hyb_residency_watch_mech( w ) != m )
	{
		printf( "%-10s %-5s  (fell back to %s)\n", name, pages,
		        hyb_residency_mech_name( hyb_residency_watch_mech( w ) ) );
		hyb_residency_watch_destroy( w );
		return;
	}
	t = hyb_now();
	hyb_residency_watch_rearm( w ); /* nothing written: the steady-state arm */
	arm2    = hyb_now() - t;
	int bad = 0;
	for ( int k = 0; k < reps; k++ )
	{
		t = hyb_now();
		bad += hyb_residency_watch_changed( w );
		check[k] = hyb_now() - t;
	}
	for ( int k = 0; k < reps; k++ )
	{
		p[(size_t)( k + 1 ) * 7919 * 4096 % n] ^= 1;
		t = hyb_now();
		bad += !hyb_residency_watch_changed( w );
		dirty[k] = hyb_now() - t;
		t        = hyb_now();
		hyb_residency_watch_rearm( w );
		rearm[k] = hyb_now() - t;
	}
	touch = hyb_cost_touch( p, n ); /* every page write-protected: one fault each */
	hyb_residency_watch_destroy( w );
	char faults[32] = "-"; /* hashing protects nothing */
	if ( m != HYB_RESIDENCY_MECH_HASH )
		snprintf( faults, sizeof faults, "%.1f", 1e3 * ( touch - base ) / gib );
	printf( "%-10s %-5s %5.0f%% %10.2f %10.2f %10.3f %10.3f %10.2f %10s%s\n", name, pages,
	        100.0 * thp_frac, 1e3 * arm / gib, 1e3 * arm2 / gib,
	        1e3 * hyb_cost_median( check, reps ) / gib, 1e3 * hyb_cost_median( dirty, reps ) / gib,
	        1e3 * hyb_cost_median( rearm, reps ) / gib, faults, bad ? "  WRONG ANSWERS" : "" );
}

int main( int argc, char** argv )
{
	size_t mib  = 1024;
	int    reps = 9;
	for ( int i = 1; i < argc; i++ )
	{
		char* end = NULL;
		if ( strcmp( argv[i], "--mib" ) == 0 && i + 1 < argc )
			mib = (size_t)strtoul( argv[++i], &end, 10 );
		else if ( strcmp( argv[i], "--reps" ) == 0 && i + 1 < argc )
			reps = (int)strtol( argv[++i], &end, 10 );
		else
		{
			fprintf( stderr, "usage: %s [--mib N] [--reps R]\n", argv[0] );
			return 2;
		}
		if ( end == NULL || *end != '\0' || mib < 2 || reps < 1 )
		{
			fprintf( stderr, "bad value: %s\n", argv[i] );
			return 2;
		}
	}
	size_t         n = ( mib * ( (size_t)1 << 20 ) ) & ~( HYB_COST_HUGE - 1 );
	struct utsname u;
	uname( &u );
	char      date[32];
	time_t    now = time( NULL );
	struct tm tm;
	strftime( date, sizeof date, "%Y-%m-%d", gmtime_r( &now, &tm ) );
	double load = -1;
	FILE*  la   = fopen( "/proc/loadavg", "r" );
	if ( la )
	{
		if ( fscanf( la, "%lf", &load ) != 1 ) load = -1;
		fclose( la );
	}
	printf(
	    "# hyb_residency_cost: %zu MiB region, median of %d, kernel %s %s, %ld CPUs, load %.1f, "
	    "uid %d, %s\n",
	    n >> 20, reps, u.sysname, u.release, sysconf( _SC_NPROCESSORS_ONLN ), load, (int)getuid(),
	    date );
	printf(
	    "# ms per GiB. arm: first arm of a freshly written region; rearm0: re-arm with nothing\n"
	    "# written; check: unchanged; check1: one page written; rearm1: re-arm after it;\n"
	    "# faults: extra cost of writing every page once after arming (the program pays it)\n" );
	printf( "%-10s %-5s %6s %10s %10s %10s %10s %10s %10s\n", "mechanism", "pages", "thp", "arm",
	        "rearm0", "check", "check1", "rearm1", "faults" );
	/* uffd-wp twice: the fast scan, then the full walk. */
	const hyb_residency_mech_t mechs[]     = { HYB_RESIDENCY_MECH_UFFD, HYB_RESIDENCY_MECH_UFFD,
		                                       HYB_RESIDENCY_MECH_SOFTDIRTY, HYB_RESIDENCY_MECH_HASH };
	int                        probed_full = hyb_residency_mech_available( HYB_RESIDENCY_MECH_UFFD )
	                                             ? hyb_residency_uffd_full_scan( -1 )
	                                             : 0;
	printf( "# uffd-wp scan chosen by the probe: %s\n", probed_full ? "full" : "fast" );
	int thp = hyb_cost_thp_possible();
	for ( int huge = 0; huge <= 1; huge++ )
	{
		if ( huge && !thp )
		{
			printf( "# THP: not available (transparent_hugepage/enabled is never)\n" );
			break;
		}
		for ( size_t k = 0; k < sizeof mechs / sizeof mechs[0]; k++ )
		{
			if ( !hyb_residency_mech_available( mechs[k] ) )
			{
				printf( "%-10s %-5s  unavailable here\n", hyb_residency_mech_name( mechs[k] ),
				        huge ? "thp" : "4k" );
				continue;
			}
			double         frac = 0;
			unsigned char* p    = hyb_cost_region( n, huge, &frac );
			if ( !p )
			{
				fprintf( stderr, "cannot map %zu MiB\n", n >> 20 );
				return 1;
			}
			if ( mechs[k] == HYB_RESIDENCY_MECH_UFFD ) hyb_residency_uffd_full_scan( k == 1 );
			hyb_cost_row( mechs[k], p, n, reps, huge ? "thp" : "4k", frac );
			if ( k + 1 == sizeof mechs / sizeof mechs[0] )
			{
				double rd[64];
				for ( int i = 0; i < reps && i < 64; i++ ) rd[i] = hyb_cost_read( p, n );
				printf( "%-10s %-5s %5.0f%% %10s %10s %10.2f   (one thread reading every byte)\n",
				        "read", huge ? "thp" : "4k", 100.0 * frac, "", "",
				        1e3 * hyb_cost_median( rd, reps < 64 ? reps : 64 ) /
				            ( (double)n / (double)( (size_t)1 << 30 ) ) );
			}
			munmap( p, n );
		}
	}
	hyb_residency_uffd_full_scan( probed_full );
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* An ordinary program that calls dgemm_ (and sgemm_/zgemm_) through the
   system BLAS, times it and checks every result. Run it plain, under
   LD_PRELOAD of NVBLAS and under LD_PRELOAD of libhyblas: it knows nothing
   of either. Prints CSV rows:
     label,prec,shape,m,n,k,beta,seconds,tflops,relerr,ok
   Usage: hyb_bench_gemm LABEL SPECFILE [MAX_CPU_FLOPS]
   LABEL "hyblas-pair": each repetition calls dgemm_ (reported as hyblas-auto)
   and cblas_dgemm (reported as hyblas-gpu) on the same data, and, where the
   library under test defines scipy_dgemm_ (libhyblas does), the run forces it
   onto the CPU and one call of it takes under PAIR_CPU_MAX_S, scipy_dgemm_ too
   (reported as hyblas-cpu), so that a run under
   HYBLAS_ROUTINE_MODE=cblas_dgemm=gpu,scipy_dgemm_=cpu,... compares
   auto, forced-device and forced-CPU modes side by side in one process. It
   also prints, per case, the medians of the per-repetition ratios auto/gpu
   and auto/cpu and how many of auto's timed calls ran on the CPU alone (as
   the library's hyb_calls counts them) as '#' lines.
   SPECFILE lines: "<shape> <prec> <m> <n> <k> <reps>" ('#' comments).
   Calls above MAX_CPU_FLOPS are skipped when LABEL is "cpu" (a CPU run of
   n = 24576 takes minutes; its time is not needed to know the winner). */
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef double _Complex zc;

void dgemm_( const char*, const char*, const int*, const int*, const int*, const double*,
             const double*, const int*, const double*, const int*, const double*, double*,
             const int*, size_t, size_t );
void sgemm_( const char*, const char*, const int*, const int*, const int*, const float*,
             const float*, const int*, const float*, const int*, const float*, float*, const int*,
             size_t, size_t );
void zgemm_( const char*, const char*, const int*, const int*, const int*, const zc*, const zc*,
             const int*, const zc*, const int*, const zc*, zc*, const int*, size_t, size_t );
void cblas_dgemm( int, int, int, int, int, int, double, const double*, int, const double*, int,
                  double, double*, int );
void cblas_sgemm( int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                  float*, int );
void cblas_zgemm( int, int, int, int, int, int, const void*, const void*, int, const void*, int,
                  const void*, void*, int );

/* The Fortran interface under another name (scipy_?gemm_), found at run time:
   only a library under test that defines it has it, the plain BLAS has not. */
typedef void ( *fgemm_t )( const char*, const char*, const int*, const int*, const int*,
                           const void*, const void*, const int*, const void*, const int*,
                           const void*, void*, const int*, size_t, size_t );

static fgemm_t other_gemm( char p )
{
	return (fgemm_t)dlsym( RTLD_DEFAULT, p == 'd'   ? "scipy_dgemm_"
	                                     : p == 's' ? "scipy_sgemm_"
	                                                : "scipy_zgemm_" );
}

/* Calls of auto's name (dgemm_, sgemm_, zgemm_) that the library under test
   ran on the CPU alone so far, or -1 where it does not count them (the plain
   BLAS, NVBLAS): the report then knows which path auto took instead of
   guessing it from the timings (measured: n = 256, CPU and device 0.38 ms alike
   in the pair). */
static long long auto_cpu_calls( char p )
{
	typedef int ( *calls_fn )( const char*, unsigned long long[4] );
	calls_fn           calls = (calls_fn)dlsym( RTLD_DEFAULT, "hyb_calls" );
	unsigned long long c[4];
	if ( calls == NULL || calls( p == 'd' ? "dgemm_" : p == 's' ? "sgemm_" : "zgemm_", c ) != 0 )
		return -1;
	return (long long)c[0];
}

/* Whether the run forces that name onto the CPU (else it is not the CPU path
   and the pair leaves it out). */
static int other_is_cpu( char p )
{
	const char* modes = getenv( "HYBLAS_ROUTINE_MODE" );
	char        want[32];
	snprintf( want, sizeof want, "scipy_%cgemm_=cpu", p );
	return modes && strstr( modes, want ) && other_gemm( p );
}

/* One product C = alpha A B + beta C through the Fortran (entry 0), CBLAS
   column-major (entry 1) or the other Fortran name (entry 2) interface. */
static void product( int entry, char p, int M, int N, int K, double alpha, const void* A,
                     const void* B, double beta, void* C )
{
	if ( entry == 0 || entry == 2 )
	{
		float fa = (float)alpha, fb = (float)beta;
		zc    za = alpha, zb = beta;
		void* pa = p == 'd' ? (void*)&alpha : p == 's' ? (void*)&fa : (void*)&za;
		void* pb = p == 'd' ? (void*)&beta : p == 's' ? (void*)&fb : (void*)&zb;
		if ( entry == 2 )
			other_gemm( p )( "N", "N", &M, &N, &K, pa, A, &M, B, &K, pb, C, &M, 1, 1 );
		else if ( p == 'd' )
			dgemm_( "N", "N", &M, &N, &K, pa, A, &M, B, &K, pb, C, &M, 1, 1 );
		else if ( p == 's' )
			sgemm_( "N", "N", &M, &N, &K, pa, A, &M, B, &K, pb, C, &M, 1, 1 );
		else
			zgemm_( "N", "N", &M, &N, &K, pa, A, &M, B, &K, pb, C, &M, 1, 1 );
		return;
	}
	if ( p == 'd' )
		cblas_dgemm( 102, 111, 111, M, N, K, alpha, A, M, B, K, beta, C, M );
	else if ( p == 's' )
		cblas_sgemm( 102, 111, 111, M, N, K, (float)alpha, A, M, B, K, (float)beta, C, M );
	else
	{
		zc za = alpha, zb = beta;
		cblas_zgemm( 102, 111, 111, M, N, K, &za, A, M, B, K, &zb, C, M );
	}
}

/* The most repetitions a line may ask for, which a pair also reaches while
   it has spent under PAIR_BUDGET_S seconds on one beta (see below). 101:
   a pair at n = 1024 beta 1, one plan for auto and forced device, had
   per-repetition ratios from 0.71 to 1.54 and a median of 51 of them at
   1.08; the median's spread falls as the square root of the count. */
#define PAIR_REPS     101
#define PAIR_BUDGET_S 6.0
/* A pair also times forced CPU calls where one takes less than this: the
   sizes where auto may keep the CPU (larger CPU calls would eat the budget,
   and the CPU-only process gives their time). */
#define PAIR_CPU_MAX_S 0.05
/* ... and tries one only up to this many flops (one untimed CPU call of
   n = 16384 was measured at 70 s on the GPU machine's CPU library). */
#define PAIR_CPU_MAX_FLOPS 1e10
/* Untimed calls of auto alone before the pair's timed ones (see below), on
   calls up to PAIR_AUTO_WARM_FLOPS (where CPU and device come near each
   other; larger ones would only lengthen the sweep). */
#define PAIR_AUTO_WARM       8
#define PAIR_AUTO_WARM_FLOPS 1e11

static double now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A counter-based generator (splitmix64), so that fills run in parallel and
   give the same matrices whatever the thread count. */
static uint64_t seed_base = 1;
static double   hrand( uint64_t i )
{
	uint64_t z = ( i + seed_base ) * 0x9e3779b97f4a7c15ull;
	z          = ( z ^ ( z >> 30 ) ) * 0xbf58476d1ce4e5b9ull;
	z          = ( z ^ ( z >> 27 ) ) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)( z >> 11 ) * ( 1.0 / 9007199254740992.0 ) - 0.5;
}

/* Element (i, j) of a column-major matrix of precision p, as complex. */
static zc at( char p, const void* x, size_t ld, size_t i, size_t j )
{
	size_t idx = i + j * ld;
	switch ( p )
	{
	case 's':
		return ( (const float*)x )[idx];
	case 'd':
		return ( (const double*)x )[idx];
	default:
		return ( (const zc*)x )[idx];
	}
}

/* y = M x for an m x n matrix: plain loops in double, parallel over row
   blocks (the check must not depend on the library under test). */
static void matvec( char p, const void* M, size_t m, size_t n, const zc* x, zc* y )
{
#pragma omp parallel for schedule( static )
	for ( size_t i0 = 0; i0 < m; i0 += 256 )
	{
		size_t i1 = i0 + 256 < m ? i0 + 256 : m;
		if ( p == 'z' )
		{
			for ( size_t i = i0; i < i1; i++ ) y[i] = 0;
			for ( size_t j = 0; j < n; j++ )
				for ( size_t i = i0; i < i1; i++ ) y[i] += at( p, M, m, i, j ) * x[j];
			continue;
		}
		double acc[256] = { 0 };
		for ( size_t j = 0; j < n; j++ )
		{
			double xj = creal( x[j] );
			if ( p == 'd' )
			{
				const double* col = (const double*)M + j * m;
				for ( size_t i = i0; i < i1; i++ ) acc[i - i0] += col[i] * xj;
			}
			else
			{
				const float* col = (const float*)M + j * m;
				for ( size_t i = i0; i < i1; i++ ) acc[i - i0] += (double)col[i] * xj;
			}
		}
		for ( size_t i = i0; i < i1; i++ ) y[i] = acc[i - i0];
	}
}

static void* alloc_fill( char p, size_t elems )
{
	size_t es = p == 's' ? 4 : p == 'd' ? 8 : 16;
	void*  x  = malloc( elems * es );
	if ( x == NULL ) return NULL;
	seed_base += 0x632be59bd9b4e019ull;
#pragma omp parallel for schedule( static )
	for ( size_t i = 0; i < elems; i++ )
	{
		if ( p == 's' )
			( (float*)x )[i] = (float)hrand( i );
		else if ( p == 'd' )
			( (double*)x )[i] = hrand( i );
		else
			( (zc*)x )[i] = hrand( 2 * i ) + I * hrand( 2 * i + 1 );
	}
	return x;
}

static int cmpd( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : x > y;
}

/* The median of x[0..n) (sorts x); of an even count, the mean of the middle
   two (measured: the upper one of 2 calls made a +8 % of a +4 %). */
static double median( double* x, int n )
{
	qsort( x, (size_t)n, sizeof *x, cmpd );
	return n % 2 ? x[n / 2] : 0.5 * ( x[n / 2 - 1] + x[n / 2] );
}

int main( int argc, char** argv )
{
	if ( argc < 3 )
	{
		fprintf( stderr, "usage: %s LABEL SPECFILE [MAX_CPU_FLOPS]\n", argv[0] );
		return 2;
	}
	const char* label   = argv[1];
	double      max_cpu = argc > 3 ? atof( argv[3] ) : 1e30;
	FILE*       f       = fopen( argv[2], "r" );
	if ( f == NULL ) return perror( argv[2] ), 2;
	char line[256];
	int  failures = 0;
	while ( fgets( line, sizeof line, f ) )
	{
		char shape[64], p;
		long m, n, k, reps;
		if ( line[0] == '#' ||
		     sscanf( line, "%63s %c %ld %ld %ld %ld", shape, &p, &m, &n, &k, &reps ) != 6 )
			continue;
		double cx    = p == 'z' ? 4 : 1;
		double flops = cx * 2.0 * (double)m * (double)n * (double)k;
		if ( strcmp( label, "cpu" ) == 0 && flops > max_cpu ) continue;
		void* A  = alloc_fill( p, (size_t)m * (size_t)k );
		void* B  = alloc_fill( p, (size_t)k * (size_t)n );
		void* C  = alloc_fill( p, (size_t)m * (size_t)n );
		zc*   x  = malloc( (size_t)n * sizeof *x );
		zc*   t  = malloc( (size_t)k * sizeof *t );
		zc*   y0 = malloc( (size_t)m * sizeof *y0 );
		zc*   y1 = malloc( (size_t)m * sizeof *y1 );
		zc*   y2 = malloc( (size_t)m * sizeof *y2 );
		if ( !A || !B || !C || !x || !t || !y0 || !y1 || !y2 )
		{
			fprintf( stderr, "out of memory at %s %ld %ld %ld\n", shape, m, n, k );
			return 1;
		}
		for ( long j = 0; j < n; j++ )
			x[j] = hrand( (uint64_t)j ) + ( p == 'z' ? I * hrand( (uint64_t)( j + n ) ) : 0 );
		int M = (int)m, N = (int)n, K = (int)k;
		int pair = strcmp( label, "hyblas-pair" ) == 0;
		for ( int bi = 0; bi < 2; bi++ )
		{
			double beta = bi ? 1.0 : 0.0, alpha = 1.0;
			double times[3][PAIR_REPS];
			double err[3]  = { 0, 0, 0 };
			int    entries = pair ? 2 : 1;
			int    nrep    = reps < 1 ? 1 : reps > PAIR_REPS ? PAIR_REPS : (int)reps;
			/* One untimed call first through each interface: device contexts,
			   staging buffers and library handles are created on first use,
			   in every library under test (NVBLAS too). The plain CPU library
			   needs none. Then the interfaces alternate call by call: timed in
			   blocks, the same plan measured up to 12 % apart from block to
			   block (the host's staging copies drift); alternating cancels
			   that. Each interface follows each other one equally often (a CPU
			   product at n = 256 runs 10-15 % slower right after a device
			   call). */
			if ( strcmp( label, "cpu" ) != 0 )
				for ( int e = 0; e < entries; e++ ) product( e, p, M, N, K, alpha, A, B, beta, C );
			/* Then auto alone, PAIR_AUTO_WARM untimed calls in a row: a library
			   that learns from a repeated shape (hyblas times both sides of
			   one near its boundary) learns as in a program that calls it
			   alone, not among the forced calls (measured: its CPU probes, each
			   right after a forced-device call, took 0.51-0.63 ms against
			   0.33-0.35 and it settled on the device, 17 % slower). */
			if ( pair && flops <= PAIR_AUTO_WARM_FLOPS )
				for ( int w = 0; w < PAIR_AUTO_WARM; w++ )
					product( 0, p, M, N, K, alpha, A, B, beta, C );
			/* Forced CPU in the pair too, where cheap: auto's CPU calls then
			   run among the same interleaved device calls as the CPU path
			   they are compared with (measured: n = 256 beta 1, auto on the
			   CPU at 0.36 ms among device calls against the CPU-only
			   process's 0.33, a +7.5 % that no choice of auto's made). */
			if ( pair && flops <= PAIR_CPU_MAX_FLOPS && other_is_cpu( p ) )
			{
				double tc = now();
				product( 2, p, M, N, K, alpha, A, B, beta, C );
				if ( now() - tc < PAIR_CPU_MAX_S ) entries = 3;
			}
			/* Auto against forced device is a comparison of medians to 5 %, and
			   one plan's calls spread +-7 % (measured at n = 4096: 14.1-16.3 ms,
			   the host's staging copies) and more on small calls (n = 1024:
			   1.0-2.5 ms): the pair goes on past the line's count, up to
			   PAIR_REPS, while it has spent under PAIR_BUDGET_S, so that two
			   medians of one plan differ by about 1 % rather than 2-6 % (misses
			   measured at n = 4096 beta 1, 12288 beta 0, 1024 and 4096 x 4096 x
			   256 were such). */
			double    start    = now();
			long long cpu_from = auto_cpu_calls( p );
			for ( int r = 0; r < ( pair ? PAIR_REPS : nrep ); r++ )
			{
				if ( r >= nrep )
				{
					if ( now() - start > PAIR_BUDGET_S ) break;
					nrep = r + 1;
				}
				/* With three interfaces the order alternates between
				   auto, gpu, cpu and auto, cpu, gpu: in the sequence each
				   follows each other one equally often (a plain rotation
				   would put cpu after gpu two times in three). */
				static const int order[2][3] = { { 0, 1, 2 }, { 0, 2, 1 } };
				for ( int turn = 0; turn < entries; turn++ )
				{
					int e = entries == 3 ? order[r % 2][turn] : turn;
					/* C0 x before the call, for the beta term of the check. */
					matvec( p, C, (size_t)m, (size_t)n, x, y0 );
					double t0 = now();
					product( e, p, M, N, K, alpha, A, B, beta, C );
					times[e][r] = now() - t0;
					/* Check C x = alpha A (B x) + beta C0 x, normalized by the
					   magnitudes that enter it (BLIS-style O(n^2) test). */
					matvec( p, B, (size_t)k, (size_t)n, x, t );
					matvec( p, A, (size_t)m, (size_t)k, t, y2 );
					matvec( p, C, (size_t)m, (size_t)n, x, y1 );
					double num = 0, den = 0;
					for ( long i = 0; i < m; i++ )
					{
						zc d = y1[i] - ( alpha * y2[i] + beta * y0[i] );
						num  = fmax( num, cabs( d ) );
						den  = fmax( den, cabs( y2[i] ) + cabs( beta * y0[i] ) );
					}
					double ee = num / ( den * ( (double)k + 2 ) * ( p == 's' ? 1.2e-7 : 2.3e-16 ) );
					if ( !( ee <= err[e] ) ) err[e] = ee; /* NaN sticks */
				}
			}
			/* Per repetition, auto against each forced mode next to it in
			   time: the host's drift over seconds moves both alike. */
			if ( pair )
			{
				double ratio[2][PAIR_REPS];
				for ( int r = 0; r < nrep; r++ )
					for ( int e = 1; e < entries; e++ ) ratio[e - 1][r] = times[0][r] / times[e][r];
				printf( "# pair,%c,%s,%ld,%ld,%ld,%g", p, shape, m, n, k, beta );
				for ( int e = 1; e < 3; e++ )
					if ( e < entries )
						printf( ",%.4f", median( ratio[e - 1], nrep ) );
					else
						printf( ",-" );
				long long cpu_to = auto_cpu_calls( p );
				printf( ",%d", nrep );
				if ( cpu_from >= 0 && cpu_to >= 0 )
					printf( ",%lld\n", cpu_to - cpu_from );
				else
					printf( ",-\n" );
			}
			for ( int e = 0; e < entries; e++ )
			{
				double      med = median( times[e], nrep );
				int         ok  = err[e] < 10.0 && isfinite( err[e] );
				const char* lab = !pair    ? label
				                  : e == 0 ? "hyblas-auto"
				                  : e == 1 ? "hyblas-gpu"
				                           : "hyblas-cpu";
				failures += !ok;
				printf( "%s,%c,%s,%ld,%ld,%ld,%g,%.6f,%.3f,%.3g,%s\n", lab, p, shape, m, n, k, beta,
				        med, flops / med * 1e-12, err[e], ok ? "ok" : "WRONG" );
			}
			fflush( stdout );
		}
		free( A ), free( B ), free( C ), free( x ), free( t ), free( y0 ), free( y1 ), free( y2 );
	}
	fclose( f );
	return failures ? 1 : 0;
}

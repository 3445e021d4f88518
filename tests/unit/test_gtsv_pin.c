/* SPDX-License-Identifier: BSD-3-Clause */
/* Page registration ahead of the uploads (kernels/pipeline/hyb_gtsv_pin.h), against a
   recording double of host_register / host_unregister that enforces what CUDA does: a page
   is registered at most once, an unregistration names the start of a registration. Arrays
   carved out of one block so that they share pages; a stream of chunks that waits for its
   rows, checks every byte it would upload is registered, and hands its rows back; refused
   registrations; everything unregistered at the end. */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/pipeline/hyb_gtsv_pin.h"

typedef struct
{
	uintptr_t p;
	size_t    bytes;
	int       live;
} tpin_reg_t;

/* The recording double (one per test; reg and unreg may run on two threads). */
typedef struct
{
	pthread_mutex_t mu;
	tpin_reg_t      r[8192];
	int             n;
	int             overlaps, unaligned, bad_unreg, refuse_after, refused;
} tpin_dev_t;

static hyb_status_t tpin_reg( void* ctx, void* p, size_t bytes )
{
	tpin_dev_t* d = ctx;
	uintptr_t   s = (uintptr_t)p, e = s + bytes;
	pthread_mutex_lock( &d->mu );
	hyb_status_t st = HYB_OK;
	if ( d->refuse_after > 0 && d->n >= d->refuse_after )
	{
		d->refused++;
		st = HYB_E_NOT_SUPPORTED;
	}
	else if ( d->n < (int)( sizeof d->r / sizeof d->r[0] ) )
	{
		for ( int i = 0; i < d->n; i++ )
			if ( d->r[i].live && d->r[i].p < e && d->r[i].p + d->r[i].bytes > s ) d->overlaps++;
		if ( s % 4096 || bytes % 4096 || bytes == 0 ) d->unaligned++;
		d->r[d->n++] = ( tpin_reg_t ){ s, bytes, 1 };
	}
	else
		st = HYB_E_NO_MEMORY;
	pthread_mutex_unlock( &d->mu );
	return st;
}

static void tpin_unreg( void* ctx, void* p )
{
	tpin_dev_t* d     = ctx;
	int         found = 0;
	pthread_mutex_lock( &d->mu );
	for ( int i = 0; i < d->n && !found; i++ )
		if ( d->r[i].live && d->r[i].p == (uintptr_t)p )
		{
			d->r[i].live = 0;
			found        = 1;
		}
	if ( !found ) d->bad_unreg++;
	pthread_mutex_unlock( &d->mu );
}

static const hyb_gtsv_pin_ops_t tpin_ops = { tpin_reg, tpin_unreg };

/* Bytes of [s, e) not inside a live registration. */
static size_t tpin_uncovered( tpin_dev_t* d, uintptr_t s, uintptr_t e )
{
	size_t miss = 0;
	pthread_mutex_lock( &d->mu );
	for ( uintptr_t q = s; q < e; )
	{
		uintptr_t next = 0;
		for ( int i = 0; i < d->n && !next; i++ )
			if ( d->r[i].live && d->r[i].p <= q && q < d->r[i].p + d->r[i].bytes )
				next = d->r[i].p + d->r[i].bytes;
		if ( !next )
		{
			miss++;
			next = q + 1;
		}
		q = next < e ? next : e;
	}
	pthread_mutex_unlock( &d->mu );
	return miss;
}

static int tpin_live( tpin_dev_t* d )
{
	int live = 0;
	pthread_mutex_lock( &d->mu );
	for ( int i = 0; i < d->n; i++ ) live += d->r[i].live;
	pthread_mutex_unlock( &d->mu );
	return live;
}

static tpin_dev_t* tpin_dev_new( void )
{
	tpin_dev_t* d = calloc( 1, sizeof *d );
	if ( d ) pthread_mutex_init( &d->mu, NULL );
	return d;
}

static void tpin_dev_free( tpin_dev_t* d )
{
	pthread_mutex_destroy( &d->mu );
	free( d );
}

/* dl, d, du and two columns of B (ldb = n + 3) carved one after the other out of one
   block, at an offset that puts every boundary inside a page. */
#define TPIN_N 300000
static void tpin_layout( char* blk, hyb_gtsv_pin_array_t* a )
{
	const size_t es = 8;
	char*        p  = blk + 24;
	a[0]            = ( hyb_gtsv_pin_array_t ){ p, TPIN_N - 1 };
	p += ( TPIN_N - 1 ) * es;
	a[1] = ( hyb_gtsv_pin_array_t ){ p, TPIN_N };
	p += TPIN_N * es;
	a[2] = ( hyb_gtsv_pin_array_t ){ p, TPIN_N - 1 };
	p += ( TPIN_N - 1 ) * es;
	a[3] = ( hyb_gtsv_pin_array_t ){ p, TPIN_N };
	a[4] = ( hyb_gtsv_pin_array_t ){ p + ( TPIN_N + 3 ) * es, TPIN_N };
}

/* The spans of [s, e) cover it in order, each inside one live registration. */
static int tpin_spans_ok( tpin_dev_t* d, hyb_gtsv_pin_t* pin, uintptr_t s, uintptr_t e )
{
	hyb_gtsv_pin_span_t sp[64];
	int                 n = hyb_gtsv_pin_spans( pin, (const void*)s, e - s, sp, 64 ), ok = n >= 1;
	size_t              at = 0;
	pthread_mutex_lock( &d->mu );
	for ( int k = 0; k < n && ok; k++ )
	{
		uintptr_t a = s + sp[k].off, b = a + sp[k].bytes;
		int       inside = 0;
		for ( int i = 0; i < d->n && !inside; i++ )
			inside = d->r[i].live && d->r[i].p <= a && b <= d->r[i].p + d->r[i].bytes;
		ok = inside && sp[k].off == at && sp[k].bytes > 0;
		at += sp[k].bytes;
	}
	pthread_mutex_unlock( &d->mu );
	return ok && at == e - s;
}

/* Stream rows [0, rows) in chunks as the device worker does: wait, "upload" (every byte of
   the chunk's rows must be registered, and cut into spans of one registration each),
   release. Returns the chunks whose bytes were not all registered or not cut right. */
static int tpin_stream( tpin_dev_t* dev, hyb_gtsv_pin_t* pin, const hyb_gtsv_pin_array_t* a,
                        int narr, int64_t rows, int64_t chunk, int64_t* reached )
{
	int bad  = 0;
	*reached = 0;
	for ( int64_t c0 = 0; c0 < rows; c0 += chunk )
	{
		int64_t c1 = c0 + chunk < rows ? c0 + chunk : rows;
		if ( hyb_gtsv_pin_wait( pin, c1 ) < c1 ) return bad;
		for ( int k = 0; k < narr; k++ )
		{
			int64_t   e  = a[k].len < c1 ? a[k].len : c1;
			uintptr_t lo = (uintptr_t)a[k].base + (uintptr_t)c0 * 8,
			          hi = (uintptr_t)a[k].base + (uintptr_t)e * 8;
			if ( e > c0 && ( tpin_uncovered( dev, lo, hi ) || !tpin_spans_ok( dev, pin, lo, hi ) ) )
				bad++;
		}
		hyb_gtsv_pin_release( pin, c1 );
		*reached = c1;
	}
	return bad;
}

static void test_pin_shared_pages( void )
{
	const int64_t rowsets[2] = { TPIN_N, 123457 }; /* all rows; a device share */
	for ( int t = 0; t < 2; t++ )
	{
		char* blk = NULL;
		CU_ASSERT_FATAL( posix_memalign( (void**)&blk, 4096, 6 * ( TPIN_N + 8 ) * 8 ) == 0 );
		hyb_gtsv_pin_array_t a[5];
		tpin_layout( blk, a );
		tpin_dev_t* dev = tpin_dev_new();
		CU_ASSERT_FATAL( dev != NULL );
		hyb_gtsv_pin_t* pin = NULL;
		/* pieces of 1000 rows: boundaries mid-page, many pieces per chunk */
		CU_ASSERT_EQUAL_FATAL(
		    hyb_gtsv_pin_start( &tpin_ops, dev, a, 5, 8, rowsets[t], 1000, &pin ), HYB_OK );
		int64_t               reached = 0;
		int                   bad     = tpin_stream( dev, pin, a, 5, rowsets[t], 17000, &reached );
		hyb_gtsv_pin_report_t rep;
		hyb_gtsv_pin_finish( pin, dev, &rep );
		CU_ASSERT_EQUAL( bad, 0 );
		CU_ASSERT_EQUAL( reached, rowsets[t] );
		CU_ASSERT_EQUAL( rep.rows, rowsets[t] );
		CU_ASSERT_EQUAL( rep.failed, 0 );
		CU_ASSERT_EQUAL( dev->overlaps, 0 );
		CU_ASSERT_EQUAL( dev->unaligned, 0 );
		CU_ASSERT_EQUAL( dev->bad_unreg, 0 );
		CU_ASSERT_EQUAL( tpin_live( dev ), 0 );
		/* every page of the rows once: about 5 arrays x rows x 8 bytes, no more than a page
		   per registration beyond it */
		double want = 5.0 * (double)rowsets[t] * 8;
		CU_ASSERT( rep.reg_bytes >= want - 5 * 4096 &&
		           rep.reg_bytes <= want + (double)dev->n * 4096 );
		tpin_dev_free( dev );
		free( blk );
	}
}

/* Two arrays at the same address (d passed as B): their pages are registered once. */
static void test_pin_aliased_arrays( void )
{
	char* blk = NULL;
	CU_ASSERT_FATAL( posix_memalign( (void**)&blk, 4096, 3 * 100000 * 8 + 4096 ) == 0 );
	hyb_gtsv_pin_array_t a[3] = { { blk + 8, 99999 },
		                          { blk + 8 + 99999 * 8, 100000 },
		                          { blk + 8 + 99999 * 8, 100000 } };
	tpin_dev_t*          dev  = tpin_dev_new();
	hyb_gtsv_pin_t*      pin  = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_gtsv_pin_start( &tpin_ops, dev, a, 3, 8, 100000, 4096, &pin ),
	                       HYB_OK );
	int64_t reached = 0;
	CU_ASSERT_EQUAL( tpin_stream( dev, pin, a, 3, 100000, 30000, &reached ), 0 );
	CU_ASSERT_EQUAL( reached, 100000 );
	hyb_gtsv_pin_finish( pin, dev, NULL );
	CU_ASSERT_EQUAL( dev->overlaps, 0 );
	CU_ASSERT_EQUAL( dev->bad_unreg, 0 );
	CU_ASSERT_EQUAL( tpin_live( dev ), 0 );
	tpin_dev_free( dev );
	free( blk );
}

/* A refused registration ends the registering short: the waiter learns where, the rows
   before stay usable, and everything registered is undone at the end. */
static void test_pin_refused( void )
{
	char* blk = NULL;
	CU_ASSERT_FATAL( posix_memalign( (void**)&blk, 4096, 6 * ( TPIN_N + 8 ) * 8 ) == 0 );
	hyb_gtsv_pin_array_t a[5];
	tpin_layout( blk, a );
	tpin_dev_t* dev     = tpin_dev_new();
	dev->refuse_after   = 23;
	hyb_gtsv_pin_t* pin = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_gtsv_pin_start( &tpin_ops, dev, a, 5, 8, TPIN_N, 2000, &pin ),
	                       HYB_OK );
	int64_t               reached = 0;
	int                   bad     = tpin_stream( dev, pin, a, 5, TPIN_N, 3000, &reached );
	int64_t               at      = hyb_gtsv_pin_wait( pin, TPIN_N );
	hyb_gtsv_pin_report_t rep;
	hyb_gtsv_pin_finish( pin, dev, &rep );
	CU_ASSERT_EQUAL( bad, 0 );
	CU_ASSERT( at < TPIN_N && at > 0 && reached <= at );
	CU_ASSERT_EQUAL( rep.failed, 1 );
	CU_ASSERT_EQUAL( rep.rows, at );
	CU_ASSERT_EQUAL( dev->refused, 1 );
	CU_ASSERT_EQUAL( dev->bad_unreg, 0 );
	CU_ASSERT_EQUAL( tpin_live( dev ), 0 );
	/* finished before the stream asks: finish stops the thread and undoes all */
	tpin_dev_t* dev2 = tpin_dev_new();
	CU_ASSERT_EQUAL_FATAL( hyb_gtsv_pin_start( &tpin_ops, dev2, a, 5, 8, TPIN_N, 1000, &pin ),
	                       HYB_OK );
	hyb_gtsv_pin_finish( pin, dev2, &rep );
	CU_ASSERT_EQUAL( dev2->bad_unreg, 0 );
	CU_ASSERT_EQUAL( tpin_live( dev2 ), 0 );
	CU_ASSERT( rep.rows <= TPIN_N );
	CU_ASSERT_EQUAL( hyb_gtsv_pin_start( NULL, dev2, a, 5, 8, TPIN_N, 0, &pin ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_gtsv_pin_start( &tpin_ops, dev2, a, 0, 8, TPIN_N, 0, &pin ),
	                 HYB_E_INVALID );
	tpin_dev_free( dev2 );
	tpin_dev_free( dev );
	free( blk );
}

static CU_TestInfo hyb_tests_gtsv_pin[] = {
	{ "shared_pages", test_pin_shared_pages },
	{ "aliased_arrays", test_pin_aliased_arrays },
	{ "refused", test_pin_refused },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_gtsv_pin = { "gtsv_pin", NULL, NULL, NULL, NULL, hyb_tests_gtsv_pin };

/* SPDX-License-Identifier: BSD-3-Clause */
/* The stable partition by predicate (thread remapping), serial and OpenMP and through the
   public API, against a direct two-pass reference; invalid arguments write nothing. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "hyblas_ext.h"
#include "kernels/faceloop/hyb_faceloop_partition.h"
#include "unit/hyb_test_util.h"

/* The reference: trues in increasing order, then falses in increasing order. */
static int64_t ref_partition( const uint8_t* pred, int64_t n, int32_t* idx )
{
	int64_t k = 0;
	for ( int64_t i = 0; i < n; i++ )
		if ( pred[i] ) idx[k++] = (int32_t)i;
	const int64_t nt = k;
	for ( int64_t i = 0; i < n; i++ )
		if ( !pred[i] ) idx[k++] = (int32_t)i;
	return nt;
}

/* Sizes around the serial / parallel switch, densities from none to all, thread counts
   that divide n and that do not. */
static void test_against_reference( void )
{
	const int64_t sizes[] = {
		0, 1, 31, 1000, HYB_FL_PARTITION_PAR_MIN - 1, HYB_FL_PARTITION_PAR_MIN, 200003
	};
	const int   dens[] = { 0, 1, 50, 97, 100 };
	hyb_t_rng_t rng    = hyb_t_rng( 2024 );
	for ( size_t si = 0; si < sizeof sizes / sizeof *sizes; si++ )
		for ( size_t di = 0; di < sizeof dens / sizeof *dens; di++ )
		{
			const int64_t n    = sizes[si];
			uint8_t*      pred = malloc( (size_t)n + 1 );
			int32_t*      ref  = malloc( ( (size_t)n + 1 ) * sizeof *ref );
			int32_t*      got  = malloc( ( (size_t)n + 1 ) * sizeof *got );
			for ( int64_t i = 0; i < n; i++ )
				pred[i] =
				    (uint8_t)( hyb_t_below( &rng, 100 ) < dens[di] ? 1 + hyb_t_below( &rng, 255 )
				                                                   : 0 );
			const int64_t nt_ref    = ref_partition( pred, n, ref );
			const int     threads[] = { 1, 2, 3, 7 };
			for ( int ti = 0; ti < 4; ti++ )
			{
				int64_t nt = -1;
				memset( got, 0xff, ( (size_t)n + 1 ) * sizeof *got );
				CU_ASSERT_EQUAL( hyb_fl_partition( pred, n, got, &nt, threads[ti] ), HYB_OK );
				CU_ASSERT_EQUAL( nt, nt_ref );
				CU_ASSERT( n == 0 || memcmp( got, ref, (size_t)n * sizeof *got ) == 0 );
				CU_ASSERT_EQUAL( got[n], -1 ); /* nothing past n */
			}
			int64_t nt = -1;
			CU_ASSERT_EQUAL( hyblas_partition_by_predicate( pred, n, got, &nt ), HYBLAS_OK );
			CU_ASSERT_EQUAL( nt, nt_ref );
			CU_ASSERT( n == 0 || memcmp( got, ref, (size_t)n * sizeof *got ) == 0 );
			free( pred );
			free( ref );
			free( got );
		}
}

static void test_invalid( void )
{
	uint8_t pred[4] = { 1, 0, 1, 0 };
	int32_t idx[4]  = { 9, 9, 9, 9 };
	int64_t nt      = 77;
	CU_ASSERT_EQUAL( hyblas_partition_by_predicate( pred, -1, idx, &nt ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_partition_by_predicate( NULL, 4, idx, &nt ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_partition_by_predicate( pred, 4, NULL, &nt ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_partition_by_predicate( pred, 4, idx, NULL ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_partition_by_predicate( pred, ( (int64_t)1 << 31 ) + 1, idx, &nt ),
	                 HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( nt, 77 );
	for ( int i = 0; i < 4; i++ ) CU_ASSERT_EQUAL( idx[i], 9 );
	CU_ASSERT_EQUAL( hyblas_partition_by_predicate( NULL, 0, NULL, &nt ), HYBLAS_OK );
	CU_ASSERT_EQUAL( nt, 0 );
}

static CU_TestInfo hyb_tests_faceloop_partition[] = {
	{ "stable_against_reference", test_against_reference },
	{ "invalid_writes_nothing", test_invalid },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_faceloop_partition = { "faceloop_partition",        NULL, NULL, NULL, NULL,
	                                          hyb_tests_faceloop_partition };

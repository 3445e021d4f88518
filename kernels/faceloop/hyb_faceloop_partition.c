/* SPDX-License-Identifier: BSD-3-Clause */
/* The stable partition of indices by a predicate, serial and OpenMP. */
#include "kernels/faceloop/hyb_faceloop_partition.h"

#include <stdlib.h>

/* Write the indices of [lo, hi): those whose predicate holds from *t on, the others from
 *f on; advances both cursors. */
static void part_block( const uint8_t* pred, int64_t lo, int64_t hi, int32_t* idx, int64_t* t,
                        int64_t* f )
{
	for ( int64_t i = lo; i < hi; i++ )
	{
		if ( pred[i] )
			idx[( *t )++] = (int32_t)i;
		else
			idx[( *f )++] = (int32_t)i;
	}
}

static int64_t count_true( const uint8_t* pred, int64_t lo, int64_t hi )
{
	int64_t c = 0;
	for ( int64_t i = lo; i < hi; i++ ) c += pred[i] != 0;
	return c;
}

hyb_status_t hyb_fl_partition( const uint8_t* pred, int64_t n, int32_t* idx, int64_t* n_true,
                               int threads )
{
	if ( n < 0 || n > ( (int64_t)1 << 31 ) || n_true == NULL ) return HYB_E_INVALID;
	if ( n > 0 && ( pred == NULL || idx == NULL ) ) return HYB_E_INVALID;
	if ( threads <= 1 || n < HYB_FL_PARTITION_PAR_MIN )
	{
		const int64_t nt = count_true( pred, 0, n );
		int64_t       t = 0, f = nt;
		part_block( pred, 0, n, idx, &t, &f );
		*n_true = nt;
		return HYB_OK;
	}
	int64_t* cnt = calloc( (size_t)threads + 1, sizeof *cnt );
	if ( cnt == NULL ) return HYB_E_NO_MEMORY;
	/* Block b is [n b / T, n (b+1) / T): the same split in both parallel passes. */
	const int64_t nb = threads;
#pragma omp parallel for schedule( static, 1 ) num_threads( threads )
	for ( int64_t b = 0; b < nb; b++ )
		cnt[b + 1] = count_true( pred, n * b / nb, n * ( b + 1 ) / nb );
	for ( int64_t b = 0; b < nb; b++ ) cnt[b + 1] += cnt[b];
	const int64_t nt = cnt[nb];
#pragma omp parallel for schedule( static, 1 ) num_threads( threads )
	for ( int64_t b = 0; b < nb; b++ )
	{
		const int64_t lo = n * b / nb, hi = n * ( b + 1 ) / nb;
		int64_t       t = cnt[b], f = nt + ( lo - cnt[b] );
		part_block( pred, lo, hi, idx, &t, &f );
	}
	free( cnt );
	*n_true = nt;
	return HYB_OK;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* A device CSR copy turned into a DIA device matrix on the device (see hyb_spmv_todia.h). */
#include "kernels/pipeline/hyb_spmv_todia.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/spmv/hyb_spmv_kernels.h"

#define HYB_TRY( expr )                                                                            \
	do {                                                                                           \
		if ( ( st = ( expr ) ) != HYB_OK ) goto done;                                              \
	} while ( 0 )

hyb_status_t hyb_spmv_todia_count( hyb_dev_t* d, const hyb_spmv_dmat_t* copy, const void* cmem,
                                   hyb_spmv_diags_t* diags )
{
	memset( diags, 0, sizeof *diags );
	const int64_t m = copy->m, W = m - 1 < HYB_SPMV_DIA_SPAN ? m - 1 : HYB_SPMV_DIA_SPAN;
	const int64_t L     = 2 * W + 1;
	const size_t  bytes = (size_t)( L + 2 ) * sizeof( int );
	size_t        reg[3];
	hyb_spmv_dmat_copy_regions( copy, reg );
	int*         dh     = NULL;
	int*         hh     = malloc( bytes );
	int64_t*     tot    = malloc( (size_t)L * sizeof( int64_t ) );
	int          queued = 0;
	hyb_status_t st     = hh && tot ? HYB_OK : HYB_E_NO_MEMORY;
	if ( st != HYB_OK ) goto done;
	HYB_TRY( hyb_dev_alloc( d, bytes, (void**)&dh ) );
	if ( dh == NULL ) HYB_TRY( HYB_E_NO_MEMORY );
	const hyb_spmv_diahist_kargs_t a = { .prec   = copy->prec,
		                                 .rows   = m,
		                                 .nnz    = copy->dev_nnz,
		                                 .window = W,
		                                 .ptr    = cmem,
		                                 .col    = (const int*)(const void*)( (const char*)cmem +
                                                                           reg[1] ),
		                                 .base   = copy->dev_base,
		                                 .hist   = dh,
		                                 .out    = dh + L };
	queued                           = 1;
	HYB_TRY( hyb_dev_spmv_diahist( d, HYB_STREAM_H2D, &a ) );
	HYB_TRY( hyb_dev_d2h( d, HYB_STREAM_H2D, hh, bytes, dh, bytes, bytes, 1 ) );
	HYB_TRY( hyb_dev_stream_sync( d, HYB_STREAM_H2D ) );
	queued = 0;
	/* every entry counted once, the diagonals held as the kernel says */
	int64_t sum = hh[L], held = 0;
	for ( int64_t q = 0; q < L; q++ )
	{
		tot[q] = hh[q];
		sum += hh[q];
		held += hh[q] > 0;
	}
	if ( sum != copy->dev_nnz || held != hh[L + 1] || hh[L] < 0 ) HYB_TRY( HYB_E_INVALID );
	st = hyb_spmv_diags_from_counts( tot, W, hh[L], HYB_SPMV_DIA_MAX, diags );

done:
	if ( queued ) hyb_dev_stream_sync( d, HYB_STREAM_H2D );
	if ( dh ) hyb_dev_free( d, dh, bytes );
	free( hh );
	free( tot );
	return st;
}

hyb_status_t hyb_spmv_todia_write( hyb_dev_t* d, const hyb_spmv_dmat_t* copy, const void* cmem,
                                   const hyb_spmv_dmat_t* dia, void* dmem )
{
	if ( dia->fmt != HYB_SPMV_DEV_DIA || dia->m != copy->m || dia->prec != copy->prec ||
	     dia->dev_nnz != copy->dev_nnz )
		return HYB_E_INVALID;
	size_t reg[3];
	hyb_spmv_dmat_copy_regions( copy, reg );
	char*        mat    = dmem;
	int*         missed = NULL;
	int          hmiss = -1, queued = 1;
	hyb_status_t st = HYB_OK;
	const size_t ob = (size_t)dia->K * sizeof( int );
	HYB_TRY( hyb_dev_alloc( d, sizeof( int ), (void**)&missed ) );
	if ( missed == NULL ) HYB_TRY( HYB_E_NO_MEMORY );
	if ( ob > 0 )
		HYB_TRY( hyb_dev_h2d( d, HYB_STREAM_H2D, mat + dia->off_dia, ob,
		                      hyb_spmv_dmat_offsets( dia ), ob, ob, 1 ) );
	HYB_TRY( hyb_dev_memset( d, HYB_STREAM_H2D, missed, 0, sizeof( int ) ) );
	for ( int b = 0; b < dia->nblk; b++ )
	{
		const hyb_spmv_blk_t*             k = &dia->blk[b];
		const hyb_spmv_diascatter_kargs_t a = {
			.prec    = dia->prec,
			.r0      = k->r0,
			.r1      = k->r1,
			.e0      = k->e0,
			.e1      = k->e1,
			.ndiag   = dia->K,
			.offsets = (const int*)(void*)( mat + dia->off_dia ),
			.ptr     = cmem,
			.col     = (const int*)(const void*)( (const char*)cmem + reg[1] ),
			.val     = (const char*)cmem + reg[2],
			.base    = copy->dev_base,
			.data    = mat + k->off,
			.missed  = missed,
		};
		HYB_TRY( hyb_dev_spmv_diascatter( d, HYB_STREAM_H2D, &a ) );
	}
	HYB_TRY( hyb_dev_d2h( d, HYB_STREAM_H2D, &hmiss, sizeof( int ), missed, sizeof( int ),
	                      sizeof( int ), 1 ) );
	HYB_TRY( hyb_dev_stream_sync( d, HYB_STREAM_H2D ) );
	queued = 0;
	if ( hmiss != 0 ) HYB_TRY( HYB_E_INVALID );

done:
	if ( queued ) hyb_dev_stream_sync( d, HYB_STREAM_H2D );
	if ( missed ) hyb_dev_free( d, missed, sizeof( int ) );
	return st;
}

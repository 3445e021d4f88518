/* SPDX-License-Identifier: BSD-3-Clause */
/* A device copy of a CSR (or row-grouped COO) matrix's own arrays, read and uploaded in
   pieces, then checked on the device (see hyb_spmv_copy.h). */
#include "kernels/pipeline/hyb_spmv_copy.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/hyb_team.h"
#include "kernels/spmv/hyb_spmv_kernels.h"

static size_t hyb_copy_al( size_t n )
{
	return ( n + HYB_SPMV_ALIGN - 1 ) & ~( HYB_SPMV_ALIGN - 1 );
}

size_t hyb_spmv_copy_dev_bytes( const hyb_spmv_dmat_t* dm )
{
	return hyb_copy_al( dm->bytes ) +
	       (size_t)hyb_spmv_check_out_len( dm->m, dm->blk[0].r1 - dm->blk[0].r0 ) * sizeof( int );
}

/* The row pointers at the blocks' first rows and at m, as they pass through a slot: the
   values uploaded, which the check then judges. */
typedef struct
{
	int64_t* at; /* nblk + 1 */
	int      next;
} hyb_copy_bounds_t;

static void hyb_copy_take_bounds( hyb_copy_bounds_t* bd, const hyb_spmv_dmat_t* dm,
                                  const int* piece, int64_t from, int64_t count )
{
	for ( ; bd->next <= dm->nblk; bd->next++ )
	{
		int64_t r = bd->next < dm->nblk ? dm->blk[bd->next].r0 : dm->m;
		if ( r >= from + count ) return;
		bd->at[bd->next] = piece[r - from];
	}
}

/* One piece read by the threads of a team, each a contiguous part of whole pages: one
   thread's read moves about 3 GB/s from the application's pages (process_vm_readv), well
   below what the slots' uploads take, so the read bounds the copy. */
typedef struct
{
	int ( *read )( void* dst, const void* src, size_t bytes );
	char*       dst;
	const char* src;
	size_t      len, part;
	_Atomic int failed;
} hyb_copy_read_t;

static void hyb_copy_read_part( void* arg, int64_t b, int64_t e )
{
	hyb_copy_read_t* r = arg;
	for ( int64_t p = b; p < e; p++ )
	{
		size_t lo = (size_t)p * r->part, hi = lo + r->part < r->len ? lo + r->part : r->len;
		if ( lo < hi && !r->read( r->dst + lo, r->src + lo, hi - lo ) ) r->failed = 1;
	}
}

static int hyb_copy_read( hyb_team_t* team, const hyb_spmv_copy_in_t* in, char* dst,
                          const char* src, size_t len )
{
	const int readers = hyb_team_size( team );
	if ( readers <= 1 || len < (size_t)readers * 4096 ) return in->read( dst, src, len );
	size_t          part = ( len + (size_t)readers - 1 ) / (size_t)readers;
	hyb_copy_read_t r    = { .read = in->read, .dst = dst, .src = src, .len = len };
	r.part               = ( part + 4095 ) & ~(size_t)4095;
	r.failed             = 0;
	hyb_team_run( team, readers, hyb_copy_read_part, &r );
	return !r.failed;
}

#define HYB_TRY( expr )                                                                            \
	do {                                                                                           \
		if ( ( st = ( expr ) ) != HYB_OK ) goto done;                                              \
	} while ( 0 )

hyb_status_t hyb_spmv_copy_run( hyb_dev_t* d, const hyb_spmv_copy_in_t* in,
                                hyb_spmv_copy_out_t* out )
{
	double t0 = hyb_now();
	memset( out, 0, sizeof *out );
	hyb_spmv_dmat_t* dm  = in->dm;
	const int        coo = in->row != NULL;
	if ( !hyb_devices_spmv_check_supported( coo ) ) return HYB_E_NOT_SUPPORTED;
	const int64_t nnz = dm->dev_nnz, br = dm->blk[0].r1 - dm->blk[0].r0;
	const size_t  vb    = hyb_prec_size( dm->prec );
	size_t        piece = in->piece > 0 ? in->piece : HYB_SPMV_COPY_PIECE;
	piece               = piece / 8 * 8 > 0 ? piece / 8 * 8 : 8; /* whole ints and values */
	size_t reg[3];
	hyb_spmv_dmat_copy_regions( dm, reg );
	/* CSR: the row pointers into their region; COO: the row indices into a buffer of their
	   own, from which spmv.cooptr writes the pointers' region. */
	const size_t rb = (size_t)nnz * sizeof( int );
	const struct
	{
		const void* src;
		size_t      bytes;
	} arr[3]    = { { coo ? (const void*)in->row : in->ia,
                   coo ? rb : (size_t)( dm->m + 1 ) * sizeof( int ) },
		            { in->ja, (size_t)nnz * sizeof( int ) },
		            { in->val, (size_t)nnz * vb } };
	size_t most = 0;
	for ( int a = 0; a < 3; a++ ) most = arr[a].bytes > most ? arr[a].bytes : most;
	piece = piece < most ? piece : most;

	const int64_t     nres   = hyb_spmv_check_out_len( dm->m, br );
	char*             mat    = in->dmem;
	int*              res    = (int*)(void*)( mat + hyb_copy_al( dm->bytes ) );
	char*             hs     = NULL;
	char*             rows   = NULL;                 /* COO: the row indices on the device */
	hyb_devent_t*     ev[3]  = { NULL, NULL, NULL }; /* the two slots, the end */
	hyb_copy_bounds_t bd     = { calloc( (size_t)dm->nblk + 1, sizeof( int64_t ) ), 0 };
	int               queued = 0;
	/* the readers besides the caller, or the caller alone where there are none */
	hyb_team_t*  team = in->readers > 1 ? hyb_team_create( in->readers - 1 ) : NULL;
	hyb_status_t st   = bd.at ? HYB_OK : HYB_E_NO_MEMORY;
	if ( st != HYB_OK ) goto done;
	HYB_TRY( hyb_dev_host_alloc(
	    d, 2 * hyb_copy_al( piece ) + (size_t)( nres + dm->nblk ) * sizeof( int ), (void**)&hs ) );
	if ( hs == NULL ) HYB_TRY( HYB_E_NO_MEMORY );
	if ( coo ) HYB_TRY( hyb_dev_alloc( d, rb > 0 ? rb : 1, (void**)&rows ) );
	if ( coo && rows == NULL ) HYB_TRY( HYB_E_NO_MEMORY );
	for ( int e = 0; e < 3; e++ ) HYB_TRY( hyb_dev_event_create( d, &ev[e] ) );
	char* slot[2] = { hs, hs + hyb_copy_al( piece ) };
	int*  hres    = (int*)(void*)( hs + 2 * hyb_copy_al( piece ) );
	int*  hptr    = hres + nres; /* COO: the pointers at the blocks' first rows */
	char* dst[3]  = { coo ? rows : mat + reg[0], mat + reg[1], mat + reg[2] };

	/* The first array first (CSR: so that the block bounds are known); every piece on one
	   stream, so that the kernel after them reads what they wrote. A slot is refilled once
	   its previous upload has finished. */
	queued = 1;
	for ( int a = 0; a < 3; a++ )
		for ( size_t at = 0; at < arr[a].bytes; at += piece )
		{
			size_t len = arr[a].bytes - at < piece ? arr[a].bytes - at : piece;
			int    s   = out->pieces & 1;
			if ( out->pieces >= 2 )
			{
				double tw = hyb_now();
				HYB_TRY( hyb_dev_sync( d, ev[s] ) );
				out->wait_s += hyb_now() - tw;
			}
			double tr = hyb_now();
			if ( !hyb_copy_read( team, in, slot[s], (const char*)arr[a].src + at, len ) )
				HYB_TRY( HYB_E_IO );
			out->read_s += hyb_now() - tr;
			if ( in->seen ) in->seen( in->seen_ctx, a, at, slot[s], len );
			if ( a == 0 && !coo )
				hyb_copy_take_bounds( &bd, dm, (const int*)(void*)slot[s],
				                      (int64_t)( at / sizeof( int ) ),
				                      (int64_t)( len / sizeof( int ) ) );
			HYB_TRY( hyb_dev_h2d( d, HYB_STREAM_H2D, dst[a] + at, len, slot[s], len, len, 1 ) );
			HYB_TRY( hyb_dev_record( d, HYB_STREAM_H2D, ev[s] ) );
			out->bytes_h2d += (double)len;
			out->pieces++;
		}
	if ( coo )
	{
		const hyb_spmv_cooptr_kargs_t ck = { .prec       = dm->prec,
			                                 .rows       = dm->m,
			                                 .nnz        = nnz,
			                                 .block_rows = br,
			                                 .row        = (const int*)(void*)rows,
			                                 .col        = (const int*)(void*)( mat + reg[1] ),
			                                 .base       = dm->dev_base,
			                                 .ptr        = (int*)(void*)( mat + reg[0] ),
			                                 .out        = res };
		HYB_TRY( hyb_dev_spmv_cooptr( d, HYB_STREAM_H2D, &ck ) );
		/* every block's first pointer, one int per block, in one strided copy */
		HYB_TRY( hyb_dev_d2h( d, HYB_STREAM_H2D, hptr, sizeof( int ), mat + reg[0],
		                      (size_t)br * sizeof( int ), sizeof( int ), (size_t)dm->nblk ) );
	}
	else
	{
		const hyb_spmv_check_kargs_t ck = { .prec       = dm->prec,
			                                .rows       = dm->m,
			                                .cols       = dm->m,
			                                .nnz        = nnz,
			                                .block_rows = br,
			                                .ptr        = (const int*)(void*)mat,
			                                .col        = (const int*)(void*)( mat + reg[1] ),
			                                .first      = in->first,
			                                .base       = dm->dev_base,
			                                .out        = res };
		HYB_TRY( hyb_dev_spmv_check( d, HYB_STREAM_H2D, &ck ) );
	}
	HYB_TRY( hyb_dev_d2h( d, HYB_STREAM_H2D, hres, (size_t)nres * sizeof( int ), res,
	                      (size_t)nres * sizeof( int ), (size_t)nres * sizeof( int ), 1 ) );
	HYB_TRY( hyb_dev_record( d, HYB_STREAM_H2D, ev[2] ) );
	double tw = hyb_now();
	HYB_TRY( hyb_dev_sync( d, ev[2] ) );
	out->wait_s += hyb_now() - tw;
	queued      = 0;
	out->reject = hres[0];
	if ( coo && hres[0] == 0 )
	{
		for ( int b = 0; b < dm->nblk; b++ ) bd.at[b] = hptr[b];
		bd.at[dm->nblk] = nnz;
		bd.next         = dm->nblk + 1;
	}
	/* The bounds are the uploaded (CSR) or built (COO) pointers the check found valid:
	   within [first, first + nnz] and non-decreasing. Checked again here, the host's own
	   offsets depending on them. */
	if ( hres[0] != 0 || bd.next != dm->nblk + 1 || bd.at[0] != ( coo ? 0 : in->first ) )
		HYB_TRY( HYB_E_INVALID );
	for ( int b = 0; b < dm->nblk; b++ )
	{
		int64_t q0 = bd.at[b] - bd.at[0], q1 = bd.at[b + 1] - bd.at[0];
		if ( q0 < 0 || q1 < q0 || q1 > nnz ) HYB_TRY( HYB_E_INVALID );
		int64_t c0 = hres[1 + 2 * b], c1 = (int64_t)hres[2 + 2 * b] + 1;
		hyb_spmv_dmat_copy_block( dm, b, q0, q1, c1 > c0 ? c0 : 0, c1 > c0 ? c1 : 0 );
	}

done:
	/* Nothing may still read a slot or the row buffer once it is freed. */
	if ( queued ) hyb_dev_stream_sync( d, HYB_STREAM_H2D );
	for ( int e = 0; e < 3; e++ ) hyb_dev_event_destroy( d, ev[e] );
	hyb_dev_host_free( d, hs );
	if ( rows ) hyb_dev_free( d, rows, rb > 0 ? rb : 1 );
	free( bd.at );
	out->readers = hyb_team_size( team );
	hyb_team_destroy( team );
	out->seconds = hyb_now() - t0;
	return st;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Device matrices of the sparse product: block layout, block images, host remainder and
   the host kernels of the CPU side (see hyb_spmv_build.h). */
#include "kernels/pipeline/hyb_spmv_build.h"

#include <limits.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_heap.h"

/* Offset spans at most this wide get a direct slot table; wider ones a binary search. */
#define HYB_BUILD_DIA_TABLE ( (int64_t)1 << 22 )

/* Rows per tile when a block's column-major arrays are written (the tile's slice of every
   column stays in cache while it is written). */
#define HYB_BUILD_TILE 256

/* Parts of a row split's CPU rows per thread (taken in turn). */
#define HYB_SPMV_ROW_PARTS 4

static int hyb_build_threads( int nthreads, int64_t work )
{
	int     nth = nthreads > 0 ? nthreads : omp_get_max_threads();
	int64_t cap = work / HYB_SPMV_GRAIN + 1; /* the cost model counts threads the same way */
	return cap < nth ? (int)cap : nth;
}

static size_t hyb_align( size_t n )
{
	return ( n + HYB_SPMV_ALIGN - 1 ) & ~( HYB_SPMV_ALIGN - 1 );
}

static inline int64_t hyb_len( const hyb_spmv_view_t* v, int64_t i )
{
	return v->ptr[i + 1] - v->ptr[i];
}

/* Slot of diagonal `off` among the sorted offsets, or -1. */
static inline int hyb_dia_slot( const hyb_spmv_dmat_t* dm, int64_t off )
{
	int64_t q = off - dm->dia_omin;
	if ( q < 0 || q >= dm->dia_span ) return -1;
	if ( dm->dia_table ) return dm->dia_table[q];
	return (int)hyb_spmv_dia_find( dm->offsets, dm->K, off );
}

static int hyb_int_cmp( const void* a, const void* b )
{
	int x = *(const int*)a, y = *(const int*)b;
	return ( x > y ) - ( x < y );
}

void hyb_spmv_dmat_free( hyb_spmv_dmat_t* dm )
{
	HYB_FREE_ALL( dm->blk, dm->offsets, dm->rem_col, dm->rem_val, dm->run_row, dm->run_ptr,
	              dm->cpu_ptr, dm->rem_off, dm->dia_table );
	memset( dm, 0, sizeof *dm );
}

size_t hyb_spmv_dmat_host_bytes( const hyb_spmv_dmat_t* dm )
{
	size_t vb = hyb_prec_size( dm->prec );
	return (size_t)dm->rem_nnz * ( sizeof( int ) + vb ) +
	       (size_t)dm->nrun * ( sizeof( int ) + sizeof( int64_t ) ) +
	       ( dm->cpu_ptr ? (size_t)( dm->m - dm->rows + 1 ) * sizeof( int64_t ) : 0 ) +
	       (size_t)dm->nblk * sizeof( hyb_spmv_blk_t );
}

/* DIA: sorted offsets and their slot lookup. */
static hyb_status_t hyb_dia_setup( hyb_spmv_dmat_t* dm, const int* offsets, int64_t nd )
{
	dm->offsets = malloc( (size_t)( nd > 0 ? nd : 1 ) * sizeof( int ) );
	if ( !dm->offsets ) return HYB_E_NO_MEMORY;
	if ( nd > 0 ) memcpy( dm->offsets, offsets, (size_t)nd * sizeof( int ) );
	qsort( dm->offsets, (size_t)nd, sizeof( int ), hyb_int_cmp );
	for ( int64_t d = 0; d < nd; d++ )
		if ( dm->offsets[d] <= -dm->m || dm->offsets[d] >= dm->m ||
		     ( d > 0 && dm->offsets[d] == dm->offsets[d - 1] ) )
			return HYB_E_INVALID;
	dm->dia_omin = nd > 0 ? dm->offsets[0] : 0;
	dm->dia_span = nd > 0 ? (int64_t)dm->offsets[nd - 1] - dm->dia_omin + 1 : 0;
	if ( dm->dia_span > 0 && dm->dia_span <= HYB_BUILD_DIA_TABLE )
	{
		dm->dia_table = malloc( (size_t)dm->dia_span * sizeof( int ) );
		if ( !dm->dia_table ) return HYB_E_NO_MEMORY;
		for ( int64_t q = 0; q < dm->dia_span; q++ ) dm->dia_table[q] = -1;
		for ( int64_t d = 0; d < nd; d++ ) dm->dia_table[dm->offsets[d] - dm->dia_omin] = (int)d;
	}
	return HYB_OK;
}

/* Remainder entries per row (ELL: beyond K; DIA: off the kept diagonals), turned into
   positions rem_off[0..m]. */
static hyb_status_t hyb_rem_count( const hyb_spmv_view_t* v, hyb_spmv_dmat_t* dm, int nth )
{
	const int64_t m = dm->m;
	dm->rem_off     = malloc( (size_t)( m + 1 ) * sizeof( int64_t ) );
	if ( !dm->rem_off ) return HYB_E_NO_MEMORY;
	int64_t*       ro  = dm->rem_off;
	const int64_t* ptr = v->ptr;
	const int*     col = v->col;
	const int      cb  = v->cbase;
	int            use = hyb_build_threads( nth, v->nnz + m );
#pragma omp parallel for num_threads( use ) schedule( static )
	for ( int64_t i = 0; i < m; i++ )
	{
		int64_t r = 0;
		if ( dm->fmt == HYB_SPMV_DEV_ELL )
			r = ptr[i + 1] - ptr[i] > dm->K ? ptr[i + 1] - ptr[i] - dm->K : 0;
		else
			for ( int64_t e = ptr[i]; e < ptr[i + 1]; e++ )
				r += hyb_dia_slot( dm, (int64_t)col[e] - cb - i ) < 0;
		ro[i] = r;
	}
	hyb_scan_excl( ro, m, use );
	int64_t run = ro[m];
	dm->rem_nnz = run;
	size_t vb   = hyb_prec_size( dm->prec );
	dm->rem_col = malloc( (size_t)( run > 0 ? run : 1 ) * sizeof( int ) );
	dm->rem_val = malloc( (size_t)( run > 0 ? run : 1 ) * vb );
	return dm->rem_col && dm->rem_val ? HYB_OK : HYB_E_NO_MEMORY;
}

/* The columns a block's entries read, merged from each thread's share with atomic
   instructions: an OpenMP reduction of two variables merges under libgomp's process-wide
   lock, which a fork() child inherits held if another thread was merging at the fork. */
typedef struct
{
	_Atomic int64_t lo, hi;
} hyb_cols_t;

static void hyb_cols_merge( hyb_cols_t* c, int64_t lo, int64_t hi )
{
	int64_t v = atomic_load( &c->lo );
	while ( lo < v && !atomic_compare_exchange_weak( &c->lo, &v, lo ) )
		;
	v = atomic_load( &c->hi );
	while ( hi > v && !atomic_compare_exchange_weak( &c->hi, &v, hi ) )
		;
}

/* The blocks' geometry and sizes, the offsets' place and the device matrix's size (v is
   read for CSR and ELL only). */
static hyb_status_t hyb_plan_blocks( const hyb_spmv_view_t* v, hyb_spmv_dmat_t* dm,
                                     int64_t block_rows, int nth )
{
	const hyb_spmv_devfmt_t fmt = dm->fmt;
	const int64_t           m = dm->m, K = dm->K;
	const size_t            vb = hyb_prec_size( dm->prec );
	int64_t                 br = block_rows > 0 && block_rows < dm->rows ? block_rows : dm->rows;
	dm->nblk                   = (int)( ( dm->rows + br - 1 ) / br );
	dm->blk                    = calloc( (size_t)dm->nblk, sizeof *dm->blk );
	if ( !dm->blk ) return HYB_E_NO_MEMORY;
	/* DIA rows are widened by the band on each side (never narrowed) */
	int64_t omin = fmt == HYB_SPMV_DEV_DIA && K > 0 && dm->offsets[0] < 0 ? dm->offsets[0] : 0;
	int64_t omax =
	    fmt == HYB_SPMV_DEV_DIA && K > 0 && dm->offsets[K - 1] > 0 ? dm->offsets[K - 1] : 0;
	size_t  off  = 0;
	int64_t yoff = 0;
	for ( int b = 0; b < dm->nblk; b++ )
	{
		hyb_spmv_blk_t* k = &dm->blk[b];
		k->r0             = (int64_t)b * br;
		k->r1             = k->r0 + br < dm->rows ? k->r0 + br : dm->rows;
		k->e0             = k->r0;
		k->e1             = k->r1;
		int64_t nr        = k->r1 - k->r0;
		size_t  s0, s1, s2 = 0;
		if ( fmt == HYB_SPMV_DEV_CSR )
		{
			k->width    = v->ptr[k->r1] - v->ptr[k->r0];
			k->mean_len = nr > 0 ? (double)k->width / (double)nr : 1.0;
			if ( k->width > INT_MAX ) return HYB_E_NOT_SUPPORTED;
			s0 = hyb_align( (size_t)( nr + 1 ) * sizeof( int ) );
			s1 = hyb_align( (size_t)k->width * sizeof( int ) );
			s2 = hyb_align( (size_t)k->width * vb );
		}
		else if ( fmt == HYB_SPMV_DEV_ELL )
		{
			int64_t mx  = 0;
			int     use = hyb_build_threads( nth, nr );
#pragma omp parallel for num_threads( use ) schedule( static ) reduction( max : mx )
			for ( int64_t i = k->r0; i < k->r1; i++ )
				if ( hyb_len( v, i ) > mx ) mx = hyb_len( v, i );
			k->width = mx < K ? mx : K;
			s0       = hyb_align( (size_t)( k->width * nr ) * sizeof( int ) );
			s1       = hyb_align( (size_t)( k->width * nr ) * vb );
		}
		else
		{
			k->e0    = k->r0 + omin > 0 ? k->r0 + omin : 0;
			k->e1    = k->r1 + omax < m ? k->r1 + omax : m;
			k->width = K;
			s0       = hyb_align( (size_t)( K * ( k->e1 - k->e0 ) ) * vb );
			s1       = 0;
		}
		k->off   = off;
		k->a1    = s0;
		k->a2    = s0 + s1;
		k->bytes = s0 + s1 + s2;
		k->yoff  = yoff;
		off += k->bytes;
		yoff += k->e1 - k->e0;
	}
	dm->off_dia = off;
	dm->bytes =
	    off +
	    ( fmt == HYB_SPMV_DEV_DIA ? hyb_align( (size_t)( K > 0 ? K : 1 ) * sizeof( int ) ) : 0 );
	dm->y_len = yoff;
	return HYB_OK;
}

hyb_status_t hyb_spmv_dmat_plan( const hyb_spmv_view_t* v, hyb_spmv_devfmt_t fmt, int64_t K,
                                 const int* offsets, int64_t rows, int64_t block_rows, int nthreads,
                                 hyb_spmv_dmat_t* dm )
{
	memset( dm, 0, sizeof *dm );
	const int64_t m = v->m;
	dm->fmt         = fmt;
	dm->prec        = v->prec;
	dm->m           = m;
	dm->rows        = fmt == HYB_SPMV_DEV_CSR ? rows : m;
	dm->K           = fmt == HYB_SPMV_DEV_CSR ? 0 : K;
	dm->cbase       = v->cbase;
	if ( m <= 0 || m > INT_MAX || dm->rows <= 0 || dm->rows > m || K < 0 ||
	     ( fmt != HYB_SPMV_DEV_CSR && fmt != HYB_SPMV_DEV_ELL && fmt != HYB_SPMV_DEV_DIA ) ||
	     ( fmt == HYB_SPMV_DEV_DIA && ( K > HYB_SPMV_DIA_MAX || ( K > 0 && !offsets ) ) ) )
		return HYB_E_INVALID;
	int          nth = nthreads > 0 ? nthreads : omp_get_max_threads();
	hyb_status_t st  = HYB_OK;
	if ( fmt == HYB_SPMV_DEV_DIA && ( st = hyb_dia_setup( dm, offsets, K ) ) != HYB_OK ) goto fail;

	if ( ( st = hyb_plan_blocks( v, dm, block_rows, nth ) ) != HYB_OK ) goto fail;
	if ( fmt == HYB_SPMV_DEV_CSR )
	{
		dm->dev_nnz = v->ptr[dm->rows] - v->ptr[0];
		if ( dm->rows < m )
		{
			dm->cpu_ptr = malloc( (size_t)( m - dm->rows + 1 ) * sizeof( int64_t ) );
			if ( !dm->cpu_ptr )
			{
				st = HYB_E_NO_MEMORY;
				goto fail;
			}
			memcpy( dm->cpu_ptr, v->ptr + dm->rows,
			        (size_t)( m - dm->rows + 1 ) * sizeof( int64_t ) );
		}
	}
	else
	{
		if ( ( st = hyb_rem_count( v, dm, nth ) ) != HYB_OK ) goto fail;
		dm->dev_nnz = v->nnz - dm->rem_nnz;
	}
	return HYB_OK;
fail:
	hyb_spmv_dmat_free( dm );
	return st;
}

hyb_status_t hyb_spmv_dmat_plan_dia( int64_t m, int64_t nnz, hyb_prec_t prec, int64_t K,
                                     const int* offsets, int64_t block_rows, hyb_spmv_dmat_t* dm )
{
	memset( dm, 0, sizeof *dm );
	if ( m <= 0 || nnz < 0 || K < 0 || K > HYB_SPMV_DIA_MAX || ( K > 0 && !offsets ) ||
	     ( prec != HYB_PREC_D && prec != HYB_PREC_S ) )
		return HYB_E_INVALID;
	if ( m > INT_MAX || nnz > INT_MAX ) return HYB_E_NOT_SUPPORTED;
	dm->fmt         = HYB_SPMV_DEV_DIA;
	dm->prec        = prec;
	dm->m           = m;
	dm->rows        = m;
	dm->K           = K;
	dm->dev_nnz     = nnz;
	hyb_status_t st = hyb_dia_setup( dm, offsets, K );
	if ( st == HYB_OK ) st = hyb_plan_blocks( NULL, dm, block_rows, 1 );
	/* the slot table serves the host build only */
	free( dm->dia_table );
	dm->dia_table = NULL;
	/* Each block reads x over its widened rows, as the host build records them: the product
	   issues a block's kernel once the x chunks holding these columns are up (a block that
	   reads no columns would run before x arrived). */
	for ( int b = 0; st == HYB_OK && b < dm->nblk; b++ )
	{
		dm->blk[b].c0 = dm->blk[b].e0;
		dm->blk[b].c1 = dm->blk[b].e1;
	}
	if ( st != HYB_OK ) hyb_spmv_dmat_free( dm );
	return st;
}

void hyb_spmv_dmat_copy_regions( const hyb_spmv_dmat_t* dm, size_t off[3] )
{
	off[0] = 0;
	off[1] = hyb_align( (size_t)( dm->m + 1 ) * sizeof( int ) );
	off[2] = off[1] + hyb_align( (size_t)dm->dev_nnz * sizeof( int ) );
}

hyb_status_t hyb_spmv_dmat_plan_copy( int64_t m, int64_t nnz, hyb_prec_t prec, int base,
                                      int64_t block_rows, hyb_spmv_dmat_t* dm )
{
	memset( dm, 0, sizeof *dm );
	if ( m <= 0 || nnz < 0 || ( base != 0 && base != 1 ) ||
	     ( prec != HYB_PREC_D && prec != HYB_PREC_S ) )
		return HYB_E_INVALID;
	if ( m > INT_MAX || nnz > INT_MAX ) return HYB_E_NOT_SUPPORTED;
	dm->fmt      = HYB_SPMV_DEV_CSR;
	dm->prec     = prec;
	dm->m        = m;
	dm->rows     = m;
	dm->cbase    = base;
	dm->dev_base = base;
	dm->dev_nnz  = nnz;
	dm->y_len    = m;
	int64_t br   = block_rows > 0 && block_rows < m ? block_rows : m;
	dm->nblk     = (int)( ( m + br - 1 ) / br );
	dm->blk      = calloc( (size_t)dm->nblk, sizeof *dm->blk );
	if ( !dm->blk ) return HYB_E_NO_MEMORY;
	size_t off[3];
	hyb_spmv_dmat_copy_regions( dm, off );
	dm->bytes = off[2] + hyb_align( (size_t)nnz * hyb_prec_size( prec ) );
	for ( int b = 0; b < dm->nblk; b++ )
	{
		hyb_spmv_blk_t* k = &dm->blk[b];
		k->r0             = (int64_t)b * br;
		k->r1             = k->r0 + br < m ? k->r0 + br : m;
		k->e0             = k->r0;
		k->e1             = k->r1;
		k->yoff           = k->r0;
		k->off            = (size_t)k->r0 * sizeof( int ); /* its row pointers */
	}
	return HYB_OK;
}

void hyb_spmv_dmat_copy_block( hyb_spmv_dmat_t* dm, int b, int64_t q0, int64_t q1, int64_t c0,
                               int64_t c1 )
{
	hyb_spmv_blk_t* k = &dm->blk[b];
	size_t          off[3];
	hyb_spmv_dmat_copy_regions( dm, off );
	k->width    = q1 - q0;
	k->mean_len = k->r1 > k->r0 ? (double)k->width / (double)( k->r1 - k->r0 ) : 1.0;
	k->a1       = off[1] + (size_t)q0 * sizeof( int ) - k->off;
	k->a2       = off[2] + (size_t)q0 * hyb_prec_size( dm->prec ) - k->off;
	k->c0       = c0;
	k->c1       = c1;
}

const int* hyb_spmv_dmat_offsets( const hyb_spmv_dmat_t* dm )
{
	return dm->offsets;
}

static inline void hyb_put_val( void* dst, int64_t di, const void* src, int64_t si, int isd )
{
	if ( isd )
		( (double*)dst )[di] = ( (const double*)src )[si];
	else
		( (float*)dst )[di] = ( (const float*)src )[si];
}

void hyb_spmv_dmat_build_block( const hyb_spmv_view_t* v, hyb_spmv_dmat_t* dm, int b, void* dst,
                                int nthreads )
{
	hyb_spmv_blk_t* k    = &dm->blk[b];
	const int64_t*  ptr  = v->ptr;
	const int*      col  = v->col;
	const int       cb   = v->cbase;
	const int       isd  = dm->prec == HYB_PREC_D;
	const int64_t   nr   = k->r1 - k->r0;
	char*           a0   = dst;
	char*           a1   = a0 + k->a1;
	char*           a2   = a0 + k->a2;
	int             use  = hyb_build_threads( nthreads, ( ptr[k->r1] - ptr[k->r0] ) + nr );
	int64_t         cmin = INT64_MAX, cmax = -1;
	hyb_cols_t      cols = { INT64_MAX, -1 };

	if ( dm->fmt == HYB_SPMV_DEV_CSR )
	{
		int*    p  = (int*)a0;
		int*    c  = (int*)a1;
		int64_t e0 = ptr[k->r0];
#pragma omp parallel num_threads( use )
		{
			int64_t tmin = INT64_MAX, tmax = -1;
#pragma omp for schedule( static )
			for ( int64_t i = k->r0; i < k->r1; i++ )
			{
				p[i - k->r0] = (int)( ptr[i] - e0 );
				for ( int64_t e = ptr[i]; e < ptr[i + 1]; e++ )
				{
					int64_t cc = (int64_t)col[e] - cb;
					c[e - e0]  = (int)cc;
					tmin       = cc < tmin ? cc : tmin;
					tmax       = cc > tmax ? cc : tmax;
					hyb_put_val( a2, e - e0, v->val, e, isd );
				}
			}
			hyb_cols_merge( &cols, tmin, tmax );
		}
		p[nr] = (int)( ptr[k->r1] - e0 );
	}
	else if ( dm->fmt == HYB_SPMV_DEV_ELL )
	{
		int*          idx   = (int*)a0;
		const int64_t W     = k->width;
		int64_t       ntile = ( nr + HYB_BUILD_TILE - 1 ) / HYB_BUILD_TILE;
#pragma omp parallel num_threads( use )
		{
			int64_t tmin = INT64_MAX, tmax = -1;
#pragma omp for schedule( static )
			for ( int64_t t = 0; t < ntile; t++ )
			{
				int64_t i0 = k->r0 + t * HYB_BUILD_TILE;
				int64_t i1 = i0 + HYB_BUILD_TILE < k->r1 ? i0 + HYB_BUILD_TILE : k->r1;
				for ( int64_t j = 0; j < W; j++ )
					for ( int64_t i = i0; i < i1; i++ )
					{
						int64_t slot = j * nr + ( i - k->r0 );
						if ( j < hyb_len( v, i ) )
						{
							int64_t cc = (int64_t)col[ptr[i] + j] - cb;
							idx[slot]  = (int)cc;
							tmin       = cc < tmin ? cc : tmin;
							tmax       = cc > tmax ? cc : tmax;
							hyb_put_val( a1, slot, v->val, ptr[i] + j, isd );
						}
						else
						{
							idx[slot] = -1;
							if ( isd )
								( (double*)a1 )[slot] = 0.0;
							else
								( (float*)a1 )[slot] = 0.0f;
						}
					}
				/* the seed's remainder: every entry after the first K of its row */
				for ( int64_t i = i0; i < i1; i++ )
					for ( int64_t e = ptr[i] + dm->K, q = dm->rem_off[i]; e < ptr[i + 1]; e++, q++ )
					{
						dm->rem_col[q] = col[e] - cb;
						hyb_put_val( dm->rem_val, q, v->val, e, isd );
					}
			}
			hyb_cols_merge( &cols, tmin, tmax );
		}
	}
	else
	{
		const int64_t mE = k->e1 - k->e0;
		size_t        vb = hyb_prec_size( dm->prec );
		/* zero every slot first (halo rows and absent entries stay zero: the kernel skips
		   zero slots), in parallel: a block of a large stencil holds 100 MB and more */
		size_t  zb = (size_t)( dm->K * mE ) * vb, zp = (size_t)1 << 20;
		int64_t nz = (int64_t)( ( zb + zp - 1 ) / zp );
#pragma omp parallel for num_threads( hyb_build_threads( nthreads, (int64_t)( zb / 64 ) ) )        \
    schedule( static )
		for ( int64_t q = 0; q < nz; q++ )
		{
			size_t lo = (size_t)q * zp, hi = lo + zp < zb ? lo + zp : zb;
			memset( a0 + lo, 0, hi - lo );
		}
#pragma omp parallel for num_threads( use ) schedule( static )
		for ( int64_t i = k->r0; i < k->r1; i++ )
		{
			int64_t q = dm->rem_off[i];
			for ( int64_t e = ptr[i]; e < ptr[i + 1]; e++ )
			{
				int64_t cc = (int64_t)col[e] - cb;
				int     s  = hyb_dia_slot( dm, cc - i );
				if ( s >= 0 )
				{
					int64_t slot = (int64_t)s * mE + ( i - k->e0 );
					if ( isd )
						( (double*)a0 )[slot] += ( (const double*)v->val )[e];
					else
						( (float*)a0 )[slot] += ( (const float*)v->val )[e];
				}
				else
				{
					dm->rem_col[q] = (int)cc;
					hyb_put_val( dm->rem_val, q, v->val, e, isd );
					q++;
				}
			}
		}
		cmin = k->e0;
		cmax = k->e1 - 1;
	}
	if ( atomic_load( &cols.hi ) >= 0 )
	{
		cmin = atomic_load( &cols.lo );
		cmax = atomic_load( &cols.hi );
	}
	k->c0 = cmax >= 0 ? cmin : 0;
	k->c1 = cmax >= 0 ? cmax + 1 : 0;
}

hyb_status_t hyb_spmv_dmat_finish( hyb_spmv_dmat_t* dm, int nthreads )
{
	(void)nthreads;
	if ( dm->fmt == HYB_SPMV_DEV_CSR || dm->rem_off == NULL ) return HYB_OK;
	const int64_t  m  = dm->m;
	const int64_t* ro = dm->rem_off;
	int64_t        n  = 0;
	for ( int64_t i = 0; i < m; i++ ) n += ro[i + 1] > ro[i];
	dm->nrun    = n;
	dm->run_row = malloc( (size_t)( n > 0 ? n : 1 ) * sizeof( int ) );
	dm->run_ptr = malloc( (size_t)( n + 1 ) * sizeof( int64_t ) );
	if ( !dm->run_row || !dm->run_ptr ) return HYB_E_NO_MEMORY;
	int64_t u = 0;
	for ( int64_t i = 0; i < m; i++ )
		if ( ro[i + 1] > ro[i] )
		{
			dm->run_row[u] = (int)i;
			dm->run_ptr[u] = ro[i];
			u++;
		}
	dm->run_ptr[n] = ro[m];
	free( dm->rem_off );
	dm->rem_off = NULL;
	return HYB_OK;
}

void hyb_spmv_rem_sums( const hyb_spmv_dmat_t* dm, const void* x, void* z, int nthreads )
{
	const int  isd = dm->prec == HYB_PREC_D;
	const int* c   = dm->rem_col;
	int        use = hyb_build_threads( nthreads, dm->rem_nnz + dm->nrun );
	/* runs in turn, as the CPU rows below, HYB_SPMV_ROW_PARTS a thread */
	int64_t per = dm->nrun / ( (int64_t)use * HYB_SPMV_ROW_PARTS ) + 1;
#pragma omp parallel for num_threads( use ) schedule( dynamic, per )
	for ( int64_t u = 0; u < dm->nrun; u++ )
	{
		double s = 0.0;
		if ( isd )
			for ( int64_t e = dm->run_ptr[u]; e < dm->run_ptr[u + 1]; e++ )
				s += ( (const double*)dm->rem_val )[e] * ( (const double*)x )[c[e]];
		else
			for ( int64_t e = dm->run_ptr[u]; e < dm->run_ptr[u + 1]; e++ )
				s += (double)( (const float*)dm->rem_val )[e] * (double)( (const float*)x )[c[e]];
		if ( isd )
			( (double*)z )[u] = s;
		else
			( (float*)z )[u] = (float)s;
	}
}

void hyb_spmv_rem_merge( const hyb_spmv_dmat_t* dm, const void* z, void* y, int nthreads )
{
	const int isd = dm->prec == HYB_PREC_D;
	int       use = hyb_build_threads( nthreads, 4 * dm->nrun );
#pragma omp parallel for num_threads( use ) schedule( static )
	for ( int64_t u = 0; u < dm->nrun; u++ )
	{
		int64_t i = dm->run_row[u];
		if ( isd )
			( (double*)y )[i] += ( (const double*)z )[u];
		else
			( (float*)y )[i] = (float)( (double)( (float*)y )[i] + (double)( (const float*)z )[u] );
	}
}

void hyb_spmv_cpu_rows( const hyb_spmv_dmat_t* dm, const int* col, const void* val, const void* x,
                        void* y, int nthreads )
{
	if ( !dm->cpu_ptr ) return;
	const int64_t  r0 = dm->rows, n = dm->m - dm->rows;
	const int64_t* p  = dm->cpu_ptr;
	const int      cb = dm->cbase, isd = dm->prec == HYB_PREC_D;
	int            use = hyb_build_threads( nthreads, ( p[n] - p[0] ) + n );
	/* Parts of equal work, HYB_SPMV_ROW_PARTS a thread, taken in turn: a thread that shares
	   its core (the change check, the thread driving the device) takes fewer of them instead
	   of holding up the side (measured: static parts, one a thread, took 2x the model). */
	int64_t cut[HYB_SPMV_ROW_PARTS * 256 + 1];
	if ( use > 256 ) use = 256;
	int parts = use > 1 ? use * HYB_SPMV_ROW_PARTS : 1;
	hyb_spmv_row_cuts( p, 1, n, parts, cut );
#pragma omp parallel for num_threads( use ) schedule( dynamic, 1 )
	for ( int part = 0; part < parts; part++ )
		for ( int64_t q = cut[part]; q < cut[part + 1]; q++ )
		{
			double s = 0.0;
			if ( isd )
				for ( int64_t e = p[q]; e < p[q + 1]; e++ )
					s += ( (const double*)val )[e] * ( (const double*)x )[col[e] - cb];
			else
				for ( int64_t e = p[q]; e < p[q + 1]; e++ )
					s +=
					    (double)( (const float*)val )[e] * (double)( (const float*)x )[col[e] - cb];
			if ( isd )
				( (double*)y )[r0 + q] = s;
			else
				( (float*)y )[r0 + q] = (float)s;
		}
}

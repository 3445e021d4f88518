/* SPDX-License-Identifier: BSD-3-Clause */
/* Sparse formats of the hybrid SpMV (seed 001): source description, row grouping, the
   row-length distribution function, diagonal statistics and the ELL/DIA + COO split. */
#ifndef HYB_SPMV_FORMAT_H
#define HYB_SPMV_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "hyb_types.h"

/* Widest diagonal offset |i - j| the DIA statistics track by default; entries further out
   always go to the COO remainder. 2^18 covers a 3-D stencil on a 500^3 grid. */
#define HYB_SPMV_DIA_SPAN ( (int64_t)1 << 18 )

/* Most diagonals a DIA part may keep (the device kernel reads their offsets every row). */
#define HYB_SPMV_DIA_MAX 1024

/* Layout of the caller's arrays. */
typedef enum
{
	HYB_SPMV_COO = 0, /* val/rowind/colind of length nnz, any order, duplicates allowed */
	HYB_SPMV_CSR = 1  /* 3-array CSR: a/ja of length nnz, ia of length m + 1 */
} hyb_spmv_layout_t;

/* A square sparse matrix as MKL's legacy routines receive it, with the operation applied.
   The product matrix P is A ('N') or A^T ('T', 'C'). Nothing is owned; the arrays must stay
   valid while the descriptor is used. Built by hyb_spmv_src_coo / hyb_spmv_src_csr. */
typedef struct
{
	hyb_spmv_layout_t layout;
	hyb_prec_t        prec;  /* HYB_PREC_S or HYB_PREC_D */
	int               trans; /* 1: P = A^T */
	int               base;  /* 0 (mkl_cspblas_*) or 1 (mkl_*) */
	int64_t           m;     /* order of A */
	int64_t           nnz;   /* COO: stored entries; CSR: ia[m] - ia[0] */
	const void*       val;   /* COO val or CSR a */
	const int*        rowind;
	const int*        colind;
	const int*        ia;
	const int*        ja;
} hyb_spmv_src_t;

/* Entries of P grouped by blocks of consecutive rows (a stable bucket sort: inside a block,
   entries keep their order in the source). Owned arrays; free with hyb_spmv_bins_free. */
typedef struct
{
	int64_t    m;
	int64_t    nnz;
	hyb_prec_t prec;
	int64_t    block;   /* rows per block */
	int64_t    nblocks; /* ceil(m / block) */
	int64_t*   bptr;    /* nblocks + 1 offsets */
	int*       row;     /* 0-based row of P */
	int*       col;     /* 0-based column of P */
	void*      val;
} hyb_spmv_bins_t;

/* P in row-grouped (CSR-like) form: entries of row i are at positions ptr[i] .. ptr[i+1]-1
   of col/val, in source order. col/val point into the caller's arrays when the source was
   already grouped (CSR with 'N', COO sorted by row of P); otherwise they are owned copies. */
typedef struct
{
	int64_t     m;
	int64_t     nnz;
	hyb_prec_t  prec;
	int64_t*    ptr; /* m + 1, owned */
	const int*  col; /* column of P, plus cbase */
	const void* val;
	int         cbase;   /* subtract from col[] */
	int64_t     max_len; /* longest row (the seed's M) */
	void*       own_col; /* non-NULL when col/val are copies */
	void*       own_val;
} hyb_spmv_view_t;

/* Diagonals of P, most populated first (ties: nearer the main diagonal first). */
typedef struct
{
	int64_t  ndiag;    /* diagonals listed */
	int*     offset;   /* j - i of each listed diagonal */
	int64_t* occ;      /* entries on each (duplicates counted) */
	int64_t  rest_nnz; /* entries on diagonals not listed (beyond the span or the limit) */
} hyb_spmv_diags_t;

/* Allocator for the split's arrays, so that they can live in pinned memory. NULL (or a
   NULL alloc member) means 64-byte aligned host memory from the C library. */
typedef struct
{
	void* ( *alloc )( void* ctx, size_t bytes );
	void ( *release )( void* ctx, void* p, size_t bytes );
	void* ctx;
} hyb_spmv_alloc_t;

typedef enum
{
	HYB_SPMV_FMT_ELL = 1,
	HYB_SPMV_FMT_DIA = 2
} hyb_spmv_fmt_t;

/* The seed's hybrid representation: a device part (ELL or DIA, column-major) and a host
   part (COO remainder, rows non-decreasing, entries of a row in source order, 0-based).
   P = device part + remainder, exactly (duplicates are summed in DIA, kept in ELL/COO). */
typedef struct
{
	hyb_spmv_fmt_t fmt;
	hyb_prec_t     prec;
	int64_t        m;
	int64_t        width; /* ELL: K slots per row; DIA: number of diagonals */
	int*           index; /* ELL: width*m, index[j*m + i] = column of slot j of row i,
	                         -1 marks padding (always after the row's entries) */
	int*    offset;       /* DIA: width offsets, ascending */
	void*   data;         /* width*m values, data[j*m + i]; 0 in padding / absent slots */
	int64_t dev_nnz;      /* source entries held by the device part (seed eq. 4) */
	int64_t coo_nnz;      /* entries of the remainder (seed eq. 5) */
	int*    coo_row;
	int*    coo_col;
	void*   coo_val;
	size_t  bytes[5]; /* allocation sizes, for the release callback */
} hyb_spmv_split_t;

/* 1 for 'T' 't' 'C' 'c', 0 for 'N' 'n', -1 for anything else (MKL's transa values). */
int hyb_spmv_trans_flag( char transa );

/* Describe a COO matrix. transa as MKL; m >= 0, nnz >= 0, base 0 or 1, prec S or D; the
   pointers may be NULL only when nnz == 0. Only scalars are checked here: indices are
   checked by whoever reads them. Returns HYB_E_INVALID on a bad scalar. Thread-safe. */
hyb_status_t hyb_spmv_src_coo( char transa, int64_t m, hyb_prec_t prec, const void* val,
                               const int* rowind, const int* colind, int64_t nnz, int base,
                               hyb_spmv_src_t* src );

/* Describe a 3-array CSR matrix (ia has m + 1 entries, nnz = ia[m] - ia[0]; positions in
   a/ja are ia[i] - base). Reads ia[0] and ia[m]. Returns HYB_E_INVALID on a bad scalar or
   ia[m] < ia[0] or ia[0] < base. Thread-safe. */
hyb_status_t hyb_spmv_src_csr( char transa, int64_t m, hyb_prec_t prec, const void* a,
                               const int* ia, const int* ja, int base, hyb_spmv_src_t* src );

/* Check every index of the source: 0 <= row, col < m after removing the base; CSR: ia
   non-decreasing. One parallel pass over the index arrays (4 bytes per CSR entry, 8 per
   COO entry), for callers that read or write through the indices. If grouped is not NULL
   it receives 1 when the entries are grouped by row of op(A) with the rows in ascending
   order (COO: rowind ('N') or colind ('T') non-decreasing; CSR: 'N'), else 0.
   Returns HYB_OK or HYB_E_INVALID. Thread-safe. */
hyb_status_t hyb_spmv_src_validate( const hyb_spmv_src_t* src, int nthreads, int* grouped );

/* Exclusive prefix sum in place: counts a[0..n-1] become their running offsets and a[n]
   the total (a has n + 1 elements). Uses up to nthreads threads on long arrays. */
void hyb_scan_excl( int64_t* a, int64_t n, int nthreads );

/* Balanced split of rows [0, m) of a CSR row pointer into nparts ranges of about equal
   entry counts: part t is rows [cut[t], cut[t+1]). cut has nparts + 1 entries and is
   non-decreasing even when ptr is not. ptr is read through stride-free positions
   ptr[i] - ptr[0]; 'wide' selects int64_t (1) or int (0) elements. Serial, O(nparts log m). */
void hyb_spmv_row_cuts( const void* ptr, int wide, int64_t m, int nparts, int64_t* cut );

/* Bucket the entries of P by blocks of `block` rows (block >= 1). Checks every index
   (0 <= row, col < m; CSR: ia non-decreasing). Parallel (nthreads, 0 = OpenMP default),
   O(nnz) time, 16 (D) or 12 (S) bytes per entry of memory. Returns HYB_E_INVALID on a bad
   index (nothing allocated then), HYB_E_NO_MEMORY. Thread-safe (no shared state). */
hyb_status_t hyb_spmv_bins_build( const hyb_spmv_src_t* src, int64_t block, int nthreads,
                                  hyb_spmv_bins_t* bins );
void         hyb_spmv_bins_free( hyb_spmv_bins_t* bins );

/* Group P by rows: no copy when the source is already grouped, else a stable bucket sort
   (through hyb_spmv_bins_build). Validates every index. Parallel, O(nnz + m).
   Returns HYB_E_INVALID (bad index), HYB_E_NO_MEMORY. Thread-safe. */
hyb_status_t hyb_spmv_view_build( const hyb_spmv_src_t* src, int nthreads, hyb_spmv_view_t* view );
void         hyb_spmv_view_free( hyb_spmv_view_t* view );

/* The seed's distribution function (sec. 4.1): *df receives a malloc'ed array of
   view->max_len + 1 counts, (*df)[i] = b_i = number of rows with exactly i entries
   (b_0 counts empty rows; sum of b_i = m, sum of i*b_i = nnz). Parallel, O(m).
   Returns HYB_E_NO_MEMORY. Caller frees *df with free(). Thread-safe. */
hyb_status_t hyb_spmv_df_build( const hyb_spmv_view_t* view, int nthreads, int64_t** df );

/* Count the entries on each diagonal j - i of P with |j - i| <= span (span <= 0: the
   default HYB_SPMV_DIA_SPAN), and list at most max_diags (<= 0: HYB_SPMV_DIA_MAX) of them,
   most populated first. Parallel, O(nnz + nthreads * span). Returns HYB_E_NO_MEMORY.
   Free with hyb_spmv_diags_free. Thread-safe. */
hyb_status_t hyb_spmv_diags_build( const hyb_spmv_view_t* view, int64_t span, int64_t max_diags,
                                   int nthreads, hyb_spmv_diags_t* diags );
void         hyb_spmv_diags_free( hyb_spmv_diags_t* diags );

/* The listing of hyb_spmv_diags_build from counts made elsewhere (the device's histogram of a
   copy): tot[q] entries on diagonal q - W for q in [0, 2W], `far` entries beyond. */
hyb_status_t hyb_spmv_diags_from_counts( const int64_t* tot, int64_t W, int64_t far,
                                         int64_t max_diags, hyb_spmv_diags_t* diags );

/* Slot of diagonal `off` among nd ascending offsets, or -1 (bisection). */
static inline int64_t hyb_spmv_dia_find( const int* offs, int64_t nd, int64_t off )
{
	int64_t lo = 0, hi = nd;
	while ( lo < hi )
	{
		int64_t mid = ( lo + hi ) / 2;
		if ( offs[mid] < off )
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nd && offs[lo] == off ? lo : -1;
}

/* Quasi-diagonal test (the seed runs such matrices as DIA, sec. 6.1): take the listed
   diagonals, most populated first, while each is at least min_fill full (entries over its
   length m - |offset|); the matrix is quasi-diagonal if they hold at least min_share of the
   nnz entries. Returns their number (the DIA width to try), or 0 when not quasi-diagonal.
   min_fill <= 0 means 0.5, min_share <= 0 means 0.8: on the seed-like matrices the seed's
   four DIA matrices and the stencil put 91-100 % of their entries on such diagonals, the
   six others at most 25 %. The cost model makes the final choice between DIA and ELL.
   Pure; O(ndiag). */
int64_t hyb_spmv_dia_detect( const hyb_spmv_diags_t* diags, int64_t m, int64_t nnz, double min_fill,
                             double min_share );

/* Seed Algorithm 1, ELL variant: the first K entries of every row (in source order) go to
   the ELL part, the rest of the row to the COO remainder. K >= 0 (K = 0: all COO; K >=
   max_len: no remainder). Parallel, O(m*K + nnz). Returns HYB_E_INVALID (K < 0 or m*K too
   large), HYB_E_NO_MEMORY. Free with hyb_spmv_split_free and the same allocator. */
hyb_status_t hyb_spmv_split_ell( const hyb_spmv_view_t* view, int64_t K, const hyb_spmv_alloc_t* al,
                                 int nthreads, hyb_spmv_split_t* split );

/* Seed Algorithm 1, DIA variant (quasi-diagonal matrices): entries on the ndiag listed
   diagonals go to the DIA part (duplicates summed), every other entry to the COO remainder
   (this is what the seed's example of sec. 4.2 does). offsets: distinct values in
   (-m, m), any order, 0 <= ndiag <= HYB_SPMV_DIA_MAX. Parallel, O(m*ndiag + nnz).
   Returns HYB_E_INVALID, HYB_E_NO_MEMORY. Free with hyb_spmv_split_free. */
hyb_status_t hyb_spmv_split_dia( const hyb_spmv_view_t* view, int64_t ndiag, const int* offsets,
                                 const hyb_spmv_alloc_t* al, int nthreads,
                                 hyb_spmv_split_t* split );

/* Release a split's arrays through the allocator it was built with; leaves it zeroed. */
void hyb_spmv_split_free( hyb_spmv_split_t* split, const hyb_spmv_alloc_t* al );

#endif

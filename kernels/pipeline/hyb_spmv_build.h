/* SPDX-License-Identifier: BSD-3-Clause */
/* The device matrix of a sparse product: the rows of P = op(A) a device computes, cut into
   row blocks laid out for the device kernels (CSR slices, ELL of width K, DIA widened by
   its band), the host remainder of the seed's split, and the host kernels of the CPU side
   (remainder sums, CPU rows of a row split). */
#ifndef HYB_SPMV_BUILD_H
#define HYB_SPMV_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "kernels/cpu/hyb_spmv_format.h"

/* Alignment of every array in a device matrix and in the device workspace. */
#define HYB_SPMV_ALIGN ( (size_t)256 )

/* Entries (or runs) per thread of the host kernels of a split (the remainder's sums and
   their merge into y): below it they run on one thread and wake no team. The cost model
   counts threads as these kernels do (policies/hyb_policy_spmv.h). */
#define HYB_SPMV_GRAIN 32768

/* x goes up in chunks of at least this many bytes (kernels/pipeline/hyb_spmv_pipe.c): an x
   of one chunk is copied to staging, then sent. */
#define HYB_SPMV_X_CHUNK ( (size_t)2 << 20 )

/* The layouts of a device matrix. */
typedef enum
{
	HYB_SPMV_DEV_NONE = 0,
	HYB_SPMV_DEV_CSR,
	HYB_SPMV_DEV_ELL,
	HYB_SPMV_DEV_DIA
} hyb_spmv_devfmt_t;

/* One row block. Its arrays lie at byte offset `off` of the device matrix:
     CSR: ptr (rows + 1 ints, starting at 0), col (width ints, 0-based), val (width values);
          a copy of the source's arrays (hyb_spmv_dmat_plan_copy): ptr as the source's, col
          with its base, the three in the copy's regions (a1, a2 reach them; bytes is 0)
     ELL: index (width * rows ints, column-major, -1 = padding), data (same count of values)
     DIA: data (ndiag * (e1 - e0) values, column-major by diagonal); offsets are shared
   The kernel computes rows [e0, e1) into the device y at element yoff; rows [r0, r1) are
   the block's result, at yoff + (r0 - e0). */
typedef struct
{
	int64_t r0, r1;   /* rows of P the block delivers */
	int64_t e0, e1;   /* rows its kernel computes: DIA widens [r0, r1) by the band so that no
	                     entry of the block's rows falls outside the kernel's square */
	int64_t c0, c1;   /* columns of x the block reads (c0 = c1: none) */
	int64_t width;    /* CSR: entries; ELL: slots per row; DIA: diagonals */
	int64_t yoff;     /* element offset of row e0 in the device y */
	size_t  off;      /* byte offset of the block's arrays in the device matrix */
	size_t  bytes;    /* their total size */
	size_t  a1, a2;   /* byte offsets (from off) of the second and third array */
	double  mean_len; /* CSR: entries per row (picks the kernel's threads per row) */
} hyb_spmv_blk_t;

/* A device matrix and its host side. Owned arrays; free with hyb_spmv_dmat_free. */
typedef struct
{
	hyb_spmv_devfmt_t fmt;
	hyb_prec_t        prec;
	int64_t           m;    /* order of P */
	int64_t           rows; /* the device computes rows [0, rows); a row split leaves the rest */
	int64_t           K;    /* ELL: slots per row (the seed's K); DIA: diagonals; CSR: 0 */
	int               nblk;
	hyb_spmv_blk_t*   blk;
	int*              offsets; /* DIA: the diagonals kept, ascending (K of them) */
	size_t            off_dia; /* byte offset of the offsets array in the device matrix */
	size_t            bytes;   /* size of the device matrix */
	int64_t           y_len;   /* elements of the device y (sum of e1 - e0) */
	int64_t           dev_nnz; /* entries the device holds */
	/* The seed's COO remainder (ELL or DIA hybrid): rem_nnz entries sorted by row, in runs
	   of one row: run u is entries [run_ptr[u], run_ptr[u+1]) of row run_row[u]. */
	int64_t  rem_nnz;
	int*     rem_col;
	void*    rem_val;
	int64_t  nrun;
	int*     run_row;
	int64_t* run_ptr;
	/* Row split: the CPU rows [rows, m) read the source through cpu_ptr (m - rows + 1
	   positions into the source's column and value arrays, cbase subtracted from columns). */
	int64_t* cpu_ptr;
	int      cbase;
	/* CSR: the base of the device's column indices: 0 for blocks built here, the source's
	   for a copy of its own arrays (hyb_spmv_dmat_plan_copy). */
	int dev_base;
	/* Private to the builder: remainder positions per row (m + 1, until finish) and the
	   DIA slot lookup. */
	int64_t* rem_off;
	int*     dia_table;
	int64_t  dia_omin, dia_span;
} hyb_spmv_dmat_t;

/* Lay out the device matrix of P (the grouped view of the source) in format fmt:
     CSR: rows [0, rows) as slices (0 < rows <= m), K ignored;
     ELL: all rows, the first K entries of each row (seed Algorithm 1), the rest to the
          remainder; each block's width is min(K, its longest row);
     DIA: all rows, the ndiag diagonals `offsets` (distinct, |offset| < m, at most
          HYB_SPMV_DIA_MAX), entries elsewhere to the remainder.
   block_rows: rows per block (<= 0: one block). Counts the remainder (a pass over the
   entries for DIA), fills every block's geometry and sizes, allocates the remainder, and
   for a row split copies the CPU rows' positions. The view must stay valid until the
   blocks are built. Parallel (nthreads, 0 = OpenMP default). Returns HYB_E_INVALID,
   HYB_E_NO_MEMORY, HYB_E_NOT_SUPPORTED (a size beyond the kernels' int indices).
   Thread-safe (no shared state). */
hyb_status_t hyb_spmv_dmat_plan( const hyb_spmv_view_t* v, hyb_spmv_devfmt_t fmt, int64_t K,
                                 const int* offsets, int64_t rows, int64_t block_rows, int nthreads,
                                 hyb_spmv_dmat_t* dm );

/* Lay out a device copy of a CSR source's own arrays, as the source holds them: its m + 1
   row pointers, its nnz column indices, its nnz values (hyb_spmv_dmat_copy_regions gives
   where each begins), cut into blocks of block_rows rows (<= 0: one block). The CSR kernel
   reads that layout as it is (pointers with their base and offset, columns with the base
   dev_base), so nothing is converted; a block's entries begin where its first row
   pointer says, so hyb_spmv_dmat_copy_block completes each block once the pointers are
   known. HYB_E_INVALID, HYB_E_NO_MEMORY, HYB_E_NOT_SUPPORTED (sizes beyond int). */
hyb_status_t hyb_spmv_dmat_plan_copy( int64_t m, int64_t nnz, hyb_prec_t prec, int base,
                                      int64_t block_rows, hyb_spmv_dmat_t* dm );

/* Lay out a DIA device matrix of nnz entries, all on the K diagonals `offsets` (distinct,
   |offset| < m, at most HYB_SPMV_DIA_MAX, any order), as hyb_spmv_dmat_plan lays out a DIA
   matrix without remainder (the same blocks of block_rows rows widened by the band, the same
   sizes and offsets' place), without reading any entry: for a device matrix written on the
   device (kernels/pipeline/hyb_spmv_todia.h). HYB_E_INVALID, HYB_E_NO_MEMORY,
   HYB_E_NOT_SUPPORTED (sizes beyond int). */
hyb_status_t hyb_spmv_dmat_plan_dia( int64_t m, int64_t nnz, hyb_prec_t prec, int64_t K,
                                     const int* offsets, int64_t block_rows, hyb_spmv_dmat_t* dm );

/* Byte offsets in a copy's device matrix of the row pointers (0), the column indices and the
   values. */
void hyb_spmv_dmat_copy_regions( const hyb_spmv_dmat_t* dm, size_t off[3] );

/* Complete block b of a copy: its entries are [q0, q1) of the copy (q0 = ptr[r0] - ptr[0]),
   its columns [c0, c1) (c0 = c1: none). */
void hyb_spmv_dmat_copy_block( hyb_spmv_dmat_t* dm, int b, int64_t q0, int64_t q1, int64_t c0,
                               int64_t c1 );

/* Write block b's device image (dm->blk[b].bytes bytes laid out as documented above) into
   host memory dst, and its rows' remainder entries into dm's remainder arrays; sets the
   block's column window c0, c1. Blocks may be built in any order, each once. Parallel.
   Thread-safe for different blocks of one matrix. */
void hyb_spmv_dmat_build_block( const hyb_spmv_view_t* v, hyb_spmv_dmat_t* dm, int b, void* dst,
                                int nthreads );

/* The offsets array's image (dm->K ints) for the device (DIA only). */
const int* hyb_spmv_dmat_offsets( const hyb_spmv_dmat_t* dm );

/* After every block was built: the remainder's runs (rows with remainder entries). */
hyb_status_t hyb_spmv_dmat_finish( hyb_spmv_dmat_t* dm, int nthreads );

void hyb_spmv_dmat_free( hyb_spmv_dmat_t* dm );

/* Host bytes the dmat keeps beyond the device matrix (remainder, runs, row-split positions). */
size_t hyb_spmv_dmat_host_bytes( const hyb_spmv_dmat_t* dm );

/* CPU side of a hybrid: z[u] = sum of the remainder entries of run u times x (z has
   dm->nrun elements of the matrix precision, accumulated in double). Parallel.
   Thread-safe. */
void hyb_spmv_rem_sums( const hyb_spmv_dmat_t* dm, const void* x, void* z, int nthreads );

/* Merge: y[run_row[u]] += z[u]. Parallel. Thread-safe for distinct y. */
void hyb_spmv_rem_merge( const hyb_spmv_dmat_t* dm, const void* z, void* y, int nthreads );

/* CPU side of a row split: y[i] = row i of P times x for i in [dm->rows, dm->m), reading the
   source's column and value arrays (the ones the positions were taken from). Parallel,
   balanced by entries. Thread-safe for distinct y. */
void hyb_spmv_cpu_rows( const hyb_spmv_dmat_t* dm, const int* col, const void* val, const void* x,
                        void* y, int nthreads );

#endif

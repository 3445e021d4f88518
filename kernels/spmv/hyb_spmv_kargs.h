/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument structs of the sparse family's device kernels (spmv.ell, spmv.dia, spmv.csr,
   spmv.vadd, spmv.check, spmv.cooptr, spmv.diahist, spmv.diascatter, spmv.xsum): device pointers, int indices
   (MKL LP64), precision S or D. Plain C, shared by the core's sim launchers and the plugin's CUDA
   launchers. Each struct starts with its precision (the family's argument check reads it there). */
#ifndef HYB_SPMV_KARGS_H
#define HYB_SPMV_KARGS_H

#include <stdint.h>

#include "hyb_types.h"

/* The ELL and DIA parts (spmv.ell, spmv.dia): m rows, `width` slots of each row, slot j of
   row i at data[j*m + i]; the two kernels differ only in how `index` places a slot's column.
   ELL: index[j*m + i] is the column, -1 marks padding. DIA: `width` diagonals, index[j] is
   diagonal j's offset, so data[j*m + i] is A(i, i + index[j]). accumulate: y += A x, else
   y = A x. */
typedef struct
{
	hyb_prec_t  prec;
	int64_t     m, width;
	const int*  index;
	const void* data;
	const void* x;
	void*       y;
	int         accumulate;
} hyb_spmv_slots_kargs_t;

/* CSR rows: rows + 1 row pointers ptr[] (base 0 or 1) as in the host's, col/val from the
   slice's first entry (entry e of the slice at ptr[i] - ptr[0] + ...); mean_len: entries
   per row (picks the CUDA kernel's threads per row). */
typedef struct
{
	hyb_prec_t  prec;
	int64_t     rows;
	const int*  ptr;
	const int*  col;
	const void* val;
	int         base;
	double      mean_len;
	const void* x;
	void*       y;
	int         accumulate;
} hyb_spmv_csr_kargs_t;

/* The check of a device copy of a caller's CSR arrays (spmv.check) before any product reads
   it: what the CPU path would have rejected, found on the device. Valid when ptr[0] == first,
   ptr[rows] == first + nnz, ptr never decreases, and every column lies in
   [base, cols + base). out (1 + 2 * nblk ints, nblk = ceil(rows / block_rows); the kernel
   sets every one): out[0] is 0 when valid, else nonzero; out[1 + 2b] and out[2 + 2b] are the
   smallest and the largest 0-based column of the entries of rows [b * block_rows,
   (b + 1) * block_rows), or cols and -1 when those rows have none (meaningful only when
   valid). Reads ptr and the col entries the pointers name within [0, nnz), never more.
   prec is the matrix's (no value is read). */
typedef struct
{
	hyb_prec_t prec;
	int64_t    rows, cols, nnz;
	int64_t    block_rows;
	const int* ptr;
	const int* col;
	int        first;
	int        base;
	int*       out;
} hyb_spmv_check_kargs_t;

/* The row pointers of a device copy of a caller's COO arrays grouped by rows, built on the
   device with the copy's check (spmv.cooptr): nnz row indices `row` and column indices `col`
   (with the base) of a matrix of `rows` rows and as many columns. Valid when every row and
   column lies in [base, rows + base) and the rows never decrease; then ptr (rows + 1 ints)
   receives 0-based positions: row r's entries are [ptr[r], ptr[r + 1]). out as spmv.check's,
   but out[0] says why it is invalid: HYB_SPMV_COOPTR_RANGE (an index outside the matrix)
   and HYB_SPMV_COOPTR_ORDER (a row index below the one before) or'ed. Reads row and col
   once; writes ptr only at indices in [0, rows]. */
typedef struct
{
	hyb_prec_t prec;
	int64_t    rows, nnz;
	int64_t    block_rows;
	const int* row;
	const int* col;
	int        base;
	int*       ptr;
	int*       out;
} hyb_spmv_cooptr_kargs_t;

enum
{
	HYB_SPMV_COOPTR_RANGE = 1,
	HYB_SPMV_COOPTR_ORDER = 2
};

/* The diagonals of a valid device CSR copy (after spmv.check or spmv.cooptr), counted on the
   device (spmv.diahist): rows row pointers + 1 `ptr` read as the CSR kernel reads them
   (row i's entries are [ptr[i] - ptr[0], ptr[i + 1] - ptr[0]) of col), columns with the
   base. Entry (i, c) lies on diagonal (c - base) - i; hist (2 * window + 1 ints, the kernel
   sets every one) receives the entries of each diagonal in [-window, window] at
   hist[offset + window]; out[0] the entries on diagonals outside it, out[1] the diagonals in
   it holding at least one entry. Reads ptr and col once. prec is the matrix's (no value is
   read). */
typedef struct
{
	hyb_prec_t prec;
	int64_t    rows, nnz;
	int64_t    window;
	const int* ptr;
	const int* col;
	int        base;
	int*       hist;
	int*       out;
} hyb_spmv_diahist_kargs_t;

/* One DIA block written from a valid device CSR copy (spmv.diascatter), as the host build
   writes it (hyb_spmv_dmat_build_block): the block computes rows [e0, e1) and holds the
   entries of rows [r0, r1) (e0 <= r0 <= r1 <= e1); data (ndiag * (e1 - e0) values) receives
   data[j * (e1 - e0) + (i - e0)] = the sum, in the copy's order from 0, of the entries of row
   i on diagonal offsets[j] (ndiag <= HYB_SPMV_DIA_MAX ascending offsets), 0 where there is
   none. ptr, col, val as spmv.diahist's (ptr indexed by the matrix's rows). An entry of rows
   [r0, r1) on no listed diagonal is left out and counted: *missed (set by the caller) grows
   by one per such entry. */
typedef struct
{
	hyb_prec_t  prec;
	int64_t     r0, r1, e0, e1;
	int64_t     ndiag;
	const int*  offsets;
	const int*  ptr;
	const int*  col;
	const void* val;
	int         base;
	void*       data;
	int*        missed;
} hyb_spmv_diascatter_kargs_t;

/* The fingerprints of a vector's bytes (spmv.xsum, kernels/spmv/hyb_spmv_xsum.h): out[j]
   (hyb_spmv_xsum_pieces(bytes) of them) receives piece j's. x is aligned to 8 bytes. prec is
   the vector's (the bytes are read as bytes). */
typedef struct
{
	hyb_prec_t  prec;
	int64_t     bytes;
	const void* x;
	uint64_t*   out;
} hyb_spmv_xsum_kargs_t;

/* Ints of spmv.check's out for `rows` rows in blocks of `block_rows` (> 0). */
static inline int64_t hyb_spmv_check_out_len( int64_t rows, int64_t block_rows )
{
	return 1 + 2 * ( ( rows + block_rows - 1 ) / block_rows );
}

/* y += z, n elements. */
typedef struct
{
	hyb_prec_t  prec;
	int64_t     n;
	const void* z;
	void*       y;
} hyb_spmv_vadd_kargs_t;

#endif

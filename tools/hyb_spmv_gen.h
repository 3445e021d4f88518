/* SPDX-License-Identifier: BSD-3-Clause */
/* Deterministic generator of SpMV test matrices: ten matrices shaped like seed 001's
   Table 1 (same rows, nonzeros, mean and maximum row length, same character) and a 3-D
   27-point stencil. */
#ifndef HYB_SPMV_GEN_H
#define HYB_SPMV_GEN_H

#include <stdint.h>

#include "hyb_status.h"
#include "hyb_types.h"

typedef enum
{
	HYB_GEN_BBMAT = 0,  /* Simon/bbmat */
	HYB_GEN_CHEBYSHEV4, /* Muite/Chebyshev4 */
	HYB_GEN_TWOTONE,    /* ATandT/twotone */
	HYB_GEN_SCIRCUIT,   /* Hamm/scircuit */
	HYB_GEN_PR02R,      /* Fluorem/PR02R */
	HYB_GEN_PWTK,       /* Boeing/pwtk */
	HYB_GEN_RAEFSKY3,   /* Simon/raefsky3 */
	HYB_GEN_RAEFSKY5,   /* Simon/raefsky5 */
	HYB_GEN_RMA10,      /* Bova/rma10 */
	HYB_GEN_TSOPF,      /* TSOPF/TSOPF_RS_b300_c3 */
	HYB_GEN_STENCIL27,  /* 3-D 27-point stencil, 200^3 rows at scale 1 */
	HYB_GEN_COUNT
} hyb_gen_id_t;

/* Number of seed-like matrices (the first ten ids). */
#define HYB_GEN_SEED_COUNT 10

typedef struct
{
	const char* name;    /* short name: "bbmat", ..., "stencil27" */
	const char* uf_name; /* name in the UF collection (seed's Table 1) */
	int64_t     rows;    /* Table 1 at scale 1 */
	int64_t     nnz;
	int64_t     max_len;
	int         seed_dia;  /* 1: the seed ran its GPU part as DIA (quasi-diagonal) */
	const char* character; /* one line describing the generated structure */
} hyb_gen_info_t;

/* Table entry of a matrix (NULL for an unknown id). Thread-safe. */
const hyb_gen_info_t* hyb_spmv_gen_info( hyb_gen_id_t id );

/* Id of a short name, or -1. Thread-safe. */
int hyb_spmv_gen_lookup( const char* name );

/* Size of matrix id at a size scale (0 < scale <= 1; 1 = Table 1 or 200^3). Rows scale
   linearly (at least 64; stencil: the grid edge by the cube root), the mean row length is
   kept (at most half the rows) and the maximum row length too (at most the rows).
   Returns HYB_E_INVALID. */
hyb_status_t hyb_spmv_gen_size( hyb_gen_id_t id, double scale, int64_t* rows, int64_t* nnz,
                                int64_t* max_len );

/* Generate matrix id at the given scale into caller arrays, as CSR: ia (rows + 1), ja and
   val (nnz, of precision prec: S or D), indices with the given base (0 or 1). Rows are in
   order and columns ascending and distinct inside a row; values uniform in [-1, 1).
   The same (id, scale, seed) gives the same matrix whatever nthreads (0 = OpenMP default).
   Exactly the sizes of hyb_spmv_gen_size. Returns HYB_E_INVALID, HYB_E_NO_MEMORY. */
hyb_status_t hyb_spmv_gen_csr( hyb_gen_id_t id, double scale, uint64_t seed, int base,
                               hyb_prec_t prec, int* ia, int* ja, void* val, int nthreads );

/* The same matrix as COO (rowind, colind, val of length nnz), sorted by row then column. */
hyb_status_t hyb_spmv_gen_coo( hyb_gen_id_t id, double scale, uint64_t seed, int base,
                               hyb_prec_t prec, int* rowind, int* colind, void* val, int nthreads );

#endif

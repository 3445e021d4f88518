/* SPDX-License-Identifier: BSD-3-Clause */
/* Decomposition of a level-3 call into device work: tiles of the output
   visited in snake order, operand blocks shared between consecutive tiles,
   the device operations of each tile, and the exact CPU sub-calls that
   compute a tile when the device cannot. */
#ifndef HYB_L3_TASKS_H
#define HYB_L3_TASKS_H

#include "hyb_args.h"
#include "hyb_status.h"

/* How a block is produced from host memory during load1. */
enum
{
	HYB_BLK_PLAIN = 0, /* a rectangle copied as is */
	HYB_BLK_SYM,       /* a rectangle of the full symmetric matrix built from its stored triangle */
	HYB_BLK_HERM,      /* the same with conjugated mirror and real diagonal (hemm) */
	HYB_BLK_C_HERM     /* an output tile of herk/her2k read as input: the imaginary parts
	                      of its diagonal are not inputs (reference BLAS) and become 0 */
};

/* Which elements of an output tile may be written (global coordinates). */
enum
{
	HYB_MASK_FULL = 0,
	HYB_MASK_UPPER, /* row <= col */
	HYB_MASK_LOWER  /* row >= col */
};

enum
{
	HYB_TOP_GEMM = 0,
	HYB_TOP_TRSM,
	HYB_TOP_TRMM
};

/* A rectangle of host operand `mat` (0 = a, 1 = b), stored on the device
   densely with leading dimension `rows`. */
typedef struct
{
	int     mat;
	int     transform;
	int64_t r0, c0, rows, cols;
} hyb_blk_t;

/* One device operation on a tile. GEMM: tile = alpha op(blk_a) op(blk_b) +
   beta tile; TRSM/TRMM: tile = alpha op(blk_a)^{-1 or 1} tile with the
   call's side/uplo/diag. */
typedef struct
{
	int     kind;
	char    ta, tb;
	int64_t m, n, k;
	double  alpha[2], beta[2];
	int     blk_a, blk_b;
} hyb_top_t;

/* One output tile: a region of the output matrix (c, or b for trsm/trmm). */
typedef struct
{
	int64_t r0, c0, rows, cols;
	int     load_c;    /* the tile's old values are uploaded as an input */
	int     beta_host; /* the device computes with beta 0 and the store applies the
	                      call's beta: C = beta C + tile (hyb_l3_work_beta_on_host) */
	int    mask;       /* HYB_MASK_* */
	int    herm_diag;  /* herk/her2k: diagonal imaginary parts become 0 */
	int    first_op, nops;
	double flops;
} hyb_task_t;

/* Most bands of tasks a work can have: one per device. */
#define HYB_L3_MAX_BANDS 16

typedef struct
{
	hyb_l3_args_t args;   /* normalized, column-major */
	int64_t       Tm, Tn; /* tile rows and columns */
	int64_t       K;      /* k-chunk */
	hyb_blk_t*    blks;
	int           nblks;
	hyb_top_t*    ops;
	int           nops;
	hyb_task_t*   tasks; /* in execution (snake) order, band after band */
	int           ntasks;
	/* Band b is tasks [band_first[b], band_first[b + 1]): the part of the work one
	   device starts with (hyb_l3_work_build_bands). */
	int    nbands;
	int    band_first[HYB_L3_MAX_BANDS + 1];
	size_t slot_bytes; /* largest block */
	size_t tile_bytes; /* largest tile */
	double flops;      /* of all tasks */
} hyb_l3_work_t;

/* Cut the region [0, m_dev) x [0, n_dev) of the output of `a` (normalized)
   into tiles of Tm x Tn with k-chunks of K. The rest of the output (a CPU
   strip) is not part of the work. Supports every level-3 op; rank-k updates
   need square tiles (Tm = Tn) for their diagonal; for trsm/trmm the tiles
   are whole column panels of width Tn (side L) or row panels of height Tm
   (side R) and the region must be the whole output. Returns
   HYB_E_NO_MEMORY or HYB_E_INVALID. */
hyb_status_t hyb_l3_work_build( hyb_l3_work_t* w, const hyb_l3_args_t* a, int64_t m_dev,
                                int64_t n_dev, int64_t Tm, int64_t Tn, int64_t K );

/* The same work cut into up to `nbands` bands, one for each device, so that each
   device loads the blocks of its own part of the output instead of nearly every
   block (as devices taking interleaved tiles of one order would):
   - gemm, symm, hemm: bands of tile columns when hyb_l3_bands_by_cols, else of
     tile rows, each visited in the same shell order as a whole region;
   - trsm, trmm: consecutive runs of panels (each device loads the triangle once);
   - rank-k updates: one band, shared by every device.
   There are never more bands than tile columns (rows, panels). */
hyb_status_t hyb_l3_work_build_bands( hyb_l3_work_t* w, const hyb_l3_args_t* a, int64_t m_dev,
                                      int64_t n_dev, int64_t Tm, int64_t Tn, int64_t K,
                                      int nbands );
void         hyb_l3_work_free( hyb_l3_work_t* w );

/* Whether bands of a product region m_dev x n_dev are bands of columns: each band
   then needs all of the left operand (m_dev rows) and its part of the right one,
   so the smaller operand panel, the one repeated in every band, is chosen. */
static inline int hyb_l3_bands_by_cols( int64_t m_dev, int64_t n_dev )
{
	return m_dev <= n_dev;
}

/* Whether the work of `op` is cut into one band per device; otherwise the
   devices take tiles from one shared band and each loads nearly every block. */
static inline int hyb_l3_op_banded( hyb_op_t op )
{
	return !hyb_op_is_rank_k( op );
}

/* Move the call's beta from the device to the host for every tile where
   that is exact: tiles computed by products only (not trsm/trmm, whose
   tile is the operand itself) and not a Hermitian diagonal tile (whose
   diagonal imaginary parts are not inputs). Such a tile is never uploaded;
   its first product runs with beta 0 and the store computes beta C + tile
   from the application's C, which costs the host one read of C instead of
   a copy into staging and PCIe one transfer of C. */
void hyb_l3_work_beta_on_host( hyb_l3_work_t* w );

/* Computes a sub-problem through the real CPU library. */
typedef hyb_status_t ( *hyb_l3_cpu_fn )( void* user, const hyb_l3_args_t* sub );

/* Compute task `t` on the CPU by calls of `fn` on sub-problems of the
   original operands (exactly the tile's region, with the call's beta), so
   that a tile is written once whatever path finishes it. */
hyb_status_t hyb_l3_task_cpu( const hyb_l3_work_t* w, int t, hyb_l3_cpu_fn fn, void* user );

/* A sub-problem of `a` restricted to output rows [r0, r0+rows) and columns
   [c0, c0+cols) for gemm (the CPU strip of a split call). */
hyb_l3_args_t hyb_l3_gemm_sub( const hyb_l3_args_t* a, int64_t r0, int64_t c0, int64_t rows,
                               int64_t cols );

#endif

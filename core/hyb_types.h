/* SPDX-License-Identifier: BSD-3-Clause */
/* Scalar kinds, operation kinds and paths shared by every layer. */
#ifndef HYB_TYPES_H
#define HYB_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* Element precision, BLAS type-character order. */
typedef enum
{
	HYB_PREC_S = 0,
	HYB_PREC_D = 1,
	HYB_PREC_C = 2,
	HYB_PREC_Z = 3,
	HYB_PREC_COUNT
} hyb_prec_t;

/* Bytes per element of a precision. */
static inline size_t hyb_prec_size( hyb_prec_t p )
{
	static const size_t sz[HYB_PREC_COUNT] = { 4, 8, 8, 16 };
	return sz[p];
}

static inline int hyb_prec_is_complex( hyb_prec_t p )
{
	return p == HYB_PREC_C || p == HYB_PREC_Z;
}

static inline char hyb_prec_char( hyb_prec_t p )
{
	return "sdcz"[p];
}

/* Element i of a real vector of precision p (S or D), widened to double; and the store
   back, rounded to the vector's precision. For reference kernels written once for both. */
static inline double hyb_real_load( hyb_prec_t p, const void* v, int64_t i )
{
	return p == HYB_PREC_S ? (double)( (const float*)v )[i] : ( (const double*)v )[i];
}

static inline void hyb_real_store( hyb_prec_t p, void* v, int64_t i, double x )
{
	if ( p == HYB_PREC_S )
		( (float*)v )[i] = (float)x;
	else
		( (double*)v )[i] = x;
}

/* Operation families (what a routine computes, whatever its ABI). */
typedef enum
{
	HYB_OP_GEMM = 0,
	HYB_OP_SYMM,
	HYB_OP_HEMM,
	HYB_OP_SYRK,
	HYB_OP_HERK,
	HYB_OP_SYR2K,
	HYB_OP_HER2K,
	HYB_OP_TRSM,
	HYB_OP_TRMM,
	HYB_OP_GTSV,
	HYB_OP_COOMV,
	HYB_OP_CSRMV,
	HYB_OP_COUNT
} hyb_op_t;

static inline const char* hyb_op_name( hyb_op_t op )
{
	static const char* names[HYB_OP_COUNT] = { "gemm",  "symm", "hemm", "syrk", "herk",  "syr2k",
		                                       "her2k", "trsm", "trmm", "gtsv", "coomv", "csrmv" };
	return (unsigned)op < HYB_OP_COUNT ? names[op] : "?";
}

/* The level-3 families come first: GEMM .. TRMM. */
#define HYB_OP_L3_COUNT ( HYB_OP_TRMM + 1 )

/* Rank-k and rank-2k updates: C is n x n, only its uplo triangle is computed. */
static inline int hyb_op_is_rank_k( hyb_op_t op )
{
	return op == HYB_OP_SYRK || op == HYB_OP_HERK || op == HYB_OP_SYR2K || op == HYB_OP_HER2K;
}

static inline int hyb_op_is_rank_2k( hyb_op_t op )
{
	return op == HYB_OP_SYR2K || op == HYB_OP_HER2K;
}

/* Routines that exist in the complex precisions only (c, z). */
static inline int hyb_op_is_complex_only( hyb_op_t op )
{
	return op == HYB_OP_HEMM || op == HYB_OP_HERK || op == HYB_OP_HER2K;
}

/* Where a call (or part of it) ran; indexes the per-routine statistics. */
typedef enum
{
	HYB_PATH_CPU = 0,  /* the real CPU library (or our CPU kernel) alone */
	HYB_PATH_GPU,      /* the device alone */
	HYB_PATH_SPLIT,    /* device and CPU at once */
	HYB_PATH_FALLBACK, /* planned for the device, finished on the CPU */
	HYB_PATH_COUNT
} hyb_path_t;

static inline const char* hyb_path_name( hyb_path_t p )
{
	static const char* names[HYB_PATH_COUNT] = { "cpu", "gpu", "split", "fallback" };
	return names[p];
}

/* Calling convention of an exported routine. */
typedef enum
{
	HYB_ABI_F77 = 0,  /* Fortran: pointers, hidden string lengths, 32-bit int */
	HYB_ABI_F77_64,   /* Fortran ILP64: 64-bit integers */
	HYB_ABI_CBLAS,    /* CBLAS: values and enums, 32-bit int */
	HYB_ABI_CBLAS_64, /* CBLAS ILP64 */
	HYB_ABI_MKL,      /* MKL sparse (mkl_cspblas_*, mkl_*): Fortran-like, 32-bit int */
	HYB_ABI_COUNT
} hyb_abi_t;

/* Fortran hidden character-length argument (gfortran >= 8 passes size_t). */
typedef size_t hyb_charlen_t;

/* Monotonic seconds; cheap (vDSO). */
double hyb_now( void );

#endif

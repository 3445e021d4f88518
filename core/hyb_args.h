/* SPDX-License-Identifier: BSD-3-Clause */
/* Normalized argument descriptors of each routine family, and the call
   record that lets dispatch forward the original arguments unchanged. */
#ifndef HYB_ARGS_H
#define HYB_ARGS_H

#include "hyb_types.h"

/* Identifies one exported symbol (generated enum, hyb_routines.h). */
typedef int hyb_routine_id_t;

/* One intercepted call as the application made it. `raw` points to the
   wrapper's own copy of the arguments; `forward` calls the real library's
   symbol of the same name with exactly those arguments (so that its xerbla
   reports, quick returns and numerics are the library's own). */
typedef struct hyb_call_s
{
	hyb_routine_id_t id;
	const void*      raw;
	void ( *forward )( const struct hyb_call_s* call );
} hyb_call_t;

/* Level-3 BLAS arguments after decoding. Options are upper-case ASCII
   ('N','T','C'; 'U','L'; 'L','R'; 'N','U'); '?' marks a value that is not a
   valid option (the call is then forwarded unchanged). `layout` is 'C' or
   'R' as called; dispatch normalizes row-major to column-major before any
   path other than forwarding sees the struct. Scalars are held in double
   (re, im): float converts exactly both ways. For trsm/trmm the in-out
   matrix is b. Unused fields are zero.

   A scalar the caller passed by address (Fortran, CBLAS complex) is held as
   that address, flagged in `scal`, until hyb_l3_scalars_load reads it:
   dispatch does so only once the call is known valid and not empty, which
   is where the reference BLAS and OpenBLAS read them too (an empty call with
   a NULL alpha is legal there, an invalid one reports before reading). */
enum
{
	HYB_SCAL_ALPHA_REF  = 1, /* alpha is at alpha_ref */
	HYB_SCAL_BETA_REF   = 2, /* beta is at beta_ref */
	HYB_SCAL_ALPHA_REAL = 4, /* ... and is real in a complex routine (herk) */
	HYB_SCAL_BETA_REAL  = 8  /* (herk, her2k) */
};
typedef struct hyb_l3_args_s
{
	hyb_op_t    op;
	hyb_prec_t  prec;
	char        layout, side, uplo, transa, transb, diag;
	int64_t     m, n, k;
	double      alpha[2], beta[2];
	const void* alpha_ref;
	const void* beta_ref;
	unsigned    scal; /* HYB_SCAL_* */
	const void* a;
	int64_t     lda;
	const void* b;
	int64_t     ldb;
	void*       c;
	int64_t     ldc;
} hyb_l3_args_t;

/* ?gtsv arguments (LAPACK): A X = B with A tridiagonal (dl, d, du: n-1, n,
   n-1), B n x nrhs with leading dimension ldb; LAPACK overwrites dl, d, du
   with factors and B with X, and sets INFO (32- or 64-bit INTEGER). */
typedef struct hyb_gtsv_args_s
{
	hyb_prec_t prec;
	int64_t    n, nrhs;
	void *     dl, *d, *du;
	void*      b;
	int64_t    ldb;
	void*      info;
	int        info64;
} hyb_gtsv_args_t;

/* Sparse matrix-vector arguments (MKL mkl_cspblas_?coogemv / mkl_?coogemv /
   ..csrgemv): y = op(A) x, A square m x m. COO: val, rowind, colind of nnz
   entries (any order, duplicates summed); CSR: val = a, rowind = ia (m+1
   row pointers), colind = ja, nnz unused (ia[m] - base). base is 0 for
   mkl_cspblas_*, 1 for mkl_*. transa: 'N', 'T' or 'C' ('C' = 'T' for real
   data), '?' if invalid. */
typedef struct hyb_spmv_args_s
{
	hyb_op_t       op; /* HYB_OP_COOMV or HYB_OP_CSRMV */
	hyb_prec_t     prec;
	char           transa;
	int            base;
	int64_t        m;
	const void*    val;
	const int32_t* rowind;
	const int32_t* colind;
	int64_t        nnz;
	const void*    x;
	void*          y;
} hyb_spmv_args_t;

/* The output matrix of a level-3 call (c, or b for trsm/trmm). */
static inline void* hyb_l3_out( const hyb_l3_args_t* a, int64_t* ld )
{
	if ( a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM )
	{
		*ld = a->ldb;
		return (void*)a->b;
	}
	*ld = a->ldc;
	return a->c;
}

/* Decode a Fortran option character (first character, case-insensitive as
   LSAME compares). */
static inline char hyb_opt_char( const char* p )
{
	char ch = *p;
	return ( ch >= 'a' && ch <= 'z' ) ? (char)( ch - 'a' + 'A' ) : ch;
}

/* Decode CBLAS enumerations (values from the CBLAS standard); anything else
   becomes '?', which makes the call invalid and therefore forwarded. */
static inline char hyb_cblas_layout( int v )
{
	return v == 101 ? 'R' : v == 102 ? 'C' : '?';
}
static inline char hyb_cblas_trans( int v )
{
	return v == 111 ? 'N' : v == 112 ? 'T' : v == 113 ? 'C' : '?';
}
static inline char hyb_cblas_uplo( int v )
{
	return v == 121 ? 'U' : v == 122 ? 'L' : '?';
}
static inline char hyb_cblas_diag( int v )
{
	return v == 131 ? 'N' : v == 132 ? 'U' : '?';
}
static inline char hyb_cblas_side( int v )
{
	return v == 141 ? 'L' : v == 142 ? 'R' : '?';
}
static inline int hyb_cblas_enc_trans( char c )
{
	return c == 'N' ? 111 : c == 'T' ? 112 : 113;
}
static inline int hyb_cblas_enc_uplo( char c )
{
	return c == 'U' ? 121 : 122;
}
static inline int hyb_cblas_enc_diag( char c )
{
	return c == 'N' ? 131 : 132;
}
static inline int hyb_cblas_enc_side( char c )
{
	return c == 'L' ? 141 : 142;
}

#endif

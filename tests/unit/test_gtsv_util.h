/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the tridiagonal (gtsv) suites: test systems of every dominance kind,
   working copies in float or double, LAPACK's results on copies, the normwise backward
   error, comparison against LAPACK, and an assertion that prints its first failures. */
#ifndef TEST_GTSV_UTIL_H
#define TEST_GTSV_UTIL_H

#include <CUnit/CUnit.h>
#include <stdint.h>
#include <stdio.h>

#include "hyb_test_util.h"
#include "policies/hyb_learn.h"

/* The reference: LAPACK through its Fortran ABI (32-bit integers, no hidden lengths). */
void dgtsv_( const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
             const int* ldb, int* info );
void sgtsv_( const int* n, const int* nrhs, float* dl, float* d, float* du, float* b,
             const int* ldb, int* info );

/* How the diagonal dominates (dom is the factor; |d| carries a random 0..25 % more). */
typedef enum
{
	TGT_ROW = 0,   /* |d| >= dom (|dl[i-1]| + |du[i]|), random off-diagonals */
	TGT_COL,       /* |d| >= dom (|du[i-1]| + |dl[i]|): LAPACK never swaps rows */
	TGT_ROWSWAP,   /* row dominant, large dl and tiny du: LAPACK swaps rows */
	TGT_ROWNOSWAP, /* row dominant, not column dominant: small dl, large du */
	TGT_BOTH,      /* row and column dominant */
	TGT_NONDOM     /* |d| below half the row's off-diagonal sum (dom unused) */
} tgt_kind_t;

/* What the padding rows of B (between n and ldb) hold, so that a write there shows. */
#define TGT_PAD 777.0

/* A system in double (float tests round it): dl and du have n - 1 entries, b has ldb rows
   and nrhs columns (at least one: LAPACK writes B(:,1) even when nrhs = 0). */
typedef struct
{
	int64_t n, nrhs, ldb;
	double *dl, *d, *du, *b;
} tgt_sys_t;

/* A deterministic system of `kind` drawn from r, ldb = n + pad. */
tgt_sys_t tgt_make( hyb_t_rng_t* r, tgt_kind_t kind, int64_t n, int64_t nrhs, int64_t pad,
                    double dom );
void      tgt_free( tgt_sys_t* s );

/* The `single` argument of what follows: float arrays (rounding the double system) or double. */
enum
{
	TGT_DOUBLE = 0,
	TGT_SINGLE = 1
};

/* Working copies in a solver's precision. */
typedef struct
{
	void *dl, *d, *du, *b;
	int   single;
	int   info; /* LAPACK's INFO when made by tgt_lapack, else 0 */
} tgt_arr_t;

/* len elements of x in the precision (malloc'ed, at least one element). */
void*     tgt_copy( const double* x, int64_t len, int single );
tgt_arr_t tgt_arrays( const tgt_sys_t* s, int single );
void      tgt_arr_free( tgt_arr_t* a );
/* Element i of an array of the precision, as a double. */
double tgt_get( const void* p, int64_t i, int single );

/* LAPACK's ?gtsv_ run on working copies of s. */
tgt_arr_t tgt_lapack( const tgt_sys_t* s, int single );

/* Normwise backward error max_j ||A x_j - b_j||_inf / (||A||_inf ||x_j||_inf + ||b_j||_inf),
   in long double, of x (ldb rows, in the precision) for the system as the solver saw it
   (rounded to float when single). A NaN or Inf in x gives NaN. */
double tgt_berr( const tgt_sys_t* s, const void* x, int single );

/* Max relative elementwise difference |a - b| / |b| (+inf where b = 0 and a is not); NaN
   shows. */
double tgt_reldiff( const void* a, const void* b, int64_t len, int single );
/* a and b equal bit for bit (len <= 0: nothing to compare). */
int tgt_same( const void* a, const void* b, int64_t len, int single );
/* The padding rows of b still hold TGT_PAD. */
int tgt_pad_ok( const tgt_sys_t* s, const void* b, int single );

/* Everything a solver wrote (A) against LAPACK's results (L) on a system LAPACK solves
   without row swaps: X to LAPACK's backward error, D to rounding, DL and DU exactly, the
   padding of B untouched. `what` names the case in failure messages. */
void tgt_compare( const tgt_sys_t* s, const tgt_arr_t* A, const tgt_arr_t* L, const char* what );

/* Failures TGT_EXPECT has printed; each suite's init resets it. */
extern int tgt_fails;

/* A CUnit assertion that also prints where and why, for the first 20 failures (a broken
   solver fails thousands of checks; the first ones tell the story). */
#define TGT_EXPECT( cond, ... )                                                                    \
	do {                                                                                           \
		int ok_ = ( cond ) ? 1 : 0;                                                                \
		CU_ASSERT( ok_ );                                                                          \
		if ( !ok_ && tgt_fails++ < 20 )                                                            \
		{                                                                                          \
			fprintf( stderr, "\n  %s:%d: ", __FILE__, __LINE__ );                                  \
			fprintf( stderr, __VA_ARGS__ );                                                        \
		}                                                                                          \
	} while ( 0 )

/* The tridiagonal rates in a table of the learning store, by the names of
   hyb_policy_gtsv_learn_name ("cpu", "split.gpu0", "lapack.t2.n20", ...): the rate and
   samples (0 when unknown or the name is not one), and a fold by the store's rule
   (HYB_E_INVALID for a name that is not one). */
double       tgt_learn_rate( const hyb_learn_table_t* t, const char* name, char prec );
int64_t      tgt_learn_samples( const hyb_learn_table_t* t, const char* name, char prec );
hyb_status_t tgt_learn_fold( hyb_learn_table_t* t, const char* name, char prec, double sample,
                             double w );

/* "learn gtsv <class> <slot>": the start of a store file line of the rate named `name`. */
void tgt_learn_prefix( char* out, size_t len, const char* name, char prec );

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared helpers of the white-box unit suites: a seeded generator, an
   independent reference for every level-3 operation, error measures, log
   capture, the simulated-device set-up, and running a check in a child
   process (crash and hang proof). */
#ifndef HYB_TEST_UTIL_H
#define HYB_TEST_UTIL_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config/hyb_config.h"
#include "hyb_cmplx.h"
#include "hyb_args.h"

/* ---------------------------------------------------------------- random */

typedef struct
{
	uint64_t s;
} hyb_t_rng_t;

/* A generator seeded from `seed` (splitmix64: every seed gives a full
   stream). Deterministic across runs and machines. */
hyb_t_rng_t hyb_t_rng( uint64_t seed );
uint64_t    hyb_t_next( hyb_t_rng_t* r );
/* Uniform in [lo, hi] (integers) and [-1, 1) (reals). */
int64_t hyb_t_int( hyb_t_rng_t* r, int64_t lo, int64_t hi );
double  hyb_t_unit( hyb_t_rng_t* r );
/* Uniform in [0, n) (0, drawing nothing, when n <= 0) and in [0, 1). */
int64_t hyb_t_below( hyb_t_rng_t* r, int64_t n );
double  hyb_t_frac( hyb_t_rng_t* r );

/* ---------------------------------------------------------------- elements */

/* Element `idx` of an array of precision p, as a double complex (real
   precisions have a zero imaginary part), and the store back. */
double complex hyb_t_get( hyb_prec_t p, const void* base, int64_t idx );
void           hyb_t_set( hyb_prec_t p, void* base, int64_t idx, double complex v );

/* Fill n elements with uniform values in [-1, 1) (both parts). */
void hyb_t_fill( hyb_t_rng_t* r, hyb_prec_t p, void* base, int64_t n );

/* A rows x cols matrix of precision p with leading dimension ld, stored in
   `layout` ('C' column-major, 'R' row-major): element (i, j). */
int64_t hyb_t_idx( char layout, int64_t ld, int64_t i, int64_t j );

/* Machine epsilon of a precision's real type. */
double hyb_t_eps( hyb_prec_t p );

/* ---------------------------------------------------------------- reference */

/* Compute the level-3 call `a` in place on its output (c, or b for
   trsm/trmm), with straightforward loops in double complex, honouring
   a->layout ('C' or 'R' as a CBLAS call would), every option, beta = 0 not
   reading the output, rank-k updates writing only their uplo triangle
   (Hermitian diagonals real, as the reference BLAS leaves them), the
   unreferenced triangle and unit diagonal of symmetric/triangular A never
   read. Independent of hyblas's own kernels. */
void hyb_t_ref_l3( const hyb_l3_args_t* a );

/* The level-3 callback type the pipeline uses, backed by hyb_t_ref_l3.
   `user` may be NULL or point to an hyb_t_cpu_counter_t. Thread-safe. */
typedef struct
{
	_Atomic int calls;
	_Atomic int fail_after; /* > 0: the call number that returns HYB_E_NO_SYMBOL */
} hyb_t_cpu_counter_t;
hyb_status_t hyb_t_ref_cpu( void* user, const hyb_l3_args_t* sub );

/* The nine level-3 operations, and whether one exists in a precision (hemm, herk and her2k
   in c and z only). */
extern const hyb_op_t hyb_t_l3_ops[HYB_OP_L3_COUNT];
int                   hyb_t_op_has_prec( hyb_op_t op, int prec );

/* Dimensions of the output (rows x cols as stored, normalized or not) and of
   the k used in error bounds. */
void    hyb_t_out_dims( const hyb_l3_args_t* a, int64_t* rows, int64_t* cols );
int64_t hyb_t_inner_dim( const hyb_l3_args_t* a );

/* Elements (i, j) of the output region that the call may write: for
   rank-k updates the uplo triangle, else everything in rows x cols. */
int hyb_t_in_output( const hyb_l3_args_t* a, int64_t i, int64_t j );

/* Normalized error of output `got` against `want` (both laid out as a's
   output), over the writable region: ||got - want||_F / (||want||_F +
   |alpha| ||A||_F ||B||_F + |beta| ||C0||_F), with C0 the output before the
   call. Returns +inf when an element is NaN or Inf in one and not the other. */
double hyb_t_l3_error( const hyb_l3_args_t* a, const void* got, const void* want, const void* c0 );

/* Tolerance for hyb_t_l3_error: a multiple of eps and of the inner
   dimension, loose enough for any summation order, tight enough that one
   wrong or missing element fails. */
double hyb_t_l3_tol( const hyb_l3_args_t* a );

/* Bytes of the output array including padding: ld * cols elements. */
size_t hyb_t_out_bytes( const hyb_l3_args_t* a );

/* Count of elements outside the writable region (padding rows, the other
   triangle) that differ bit for bit between `now` and `before`. */
int64_t hyb_t_outside_changed( const hyb_l3_args_t* a, const void* now, const void* before );

/* ---------------------------------------------------------------- problems */

/* A random valid column-major problem of op/prec with the given options,
   output dims and inner dim, ld padding `pad`, operands allocated and
   filled (triangular matrices well conditioned; unreferenced triangles and
   unit diagonals filled with NaN to prove they are not read; hemm's and
   her(2)k's stored diagonal imaginary parts garbage where reference BLAS
   ignores them). Free with hyb_t_problem_free. */
typedef struct
{
	hyb_l3_args_t args;
	void *        A, *B, *C;
	size_t        bytes_a, bytes_b, bytes_c;
} hyb_t_problem_t;

void hyb_t_problem_make( hyb_t_problem_t* pr, hyb_t_rng_t* r, hyb_op_t op, hyb_prec_t prec,
                         char layout, char side, char uplo, char transa, char transb, char diag,
                         int64_t m, int64_t n, int64_t k, int64_t pad, int beta_kind );
void hyb_t_problem_free( hyb_t_problem_t* pr );

/* beta_kind: 0 (beta = 0, C filled with NaN), 1 (beta = 1), 2 (random).
   Alpha is random (complex for complex precisions; real where the BLAS
   routine takes a real scalar). */

/* Random options valid for op/prec. */
void hyb_t_random_options( hyb_t_rng_t* r, hyb_op_t op, hyb_prec_t prec, char* side, char* uplo,
                           char* transa, char* transb, char* diag );

/* ---------------------------------------------------------------- logs */

/* Send the log to a temporary file at `level` until hyb_t_log_end, which
   restores stderr and the previous level and returns what was logged
   (NUL-terminated, truncated to cap - 1). */
void hyb_t_log_begin( int level );
void hyb_t_log_end( char* out, size_t cap );

/* Occurrences of `needle` in `hay`. */
int hyb_t_count( const char* hay, const char* needle );

/* ---------------------------------------------------------------- devices */

/* Install a test configuration with the simulated device: `ndev` devices of
   `mem` (HYBLAS_SIM_MEM syntax), extra NAME=VALUE settings in `extra` (NULL
   or "NAME=V;NAME=V"), then reset the device layer and run stage-2 init.
   Returns the status of hyb_devices_ensure. The configuration stays
   installed until hyb_t_sim_end. */
hyb_status_t hyb_t_sim_begin( int ndev, const char* mem, const char* extra );
void         hyb_t_sim_end( void );

/* The pieces of hyb_t_sim_begin, for suites with a configuration of their own: apply
   "NAME=VALUE;NAME=VALUE" (NULL: nothing) to cfg, printing an error after `who`; then
   finish and install cfg, clear fault plans, reset the device layer and start it. */
hyb_status_t hyb_t_config_extra( hyb_config_t* cfg, const char* extra, const char* who );
hyb_status_t hyb_t_sim_install( hyb_config_t* cfg );

/* ---------------------------------------------------------------- isolation */

/* Run fn(arg) in a forked child with a time limit; returns 0 when it
   returned 0, else a nonzero code (its return value, 128 + signal, or 255
   on timeout), after printing what happened to stderr with `what`. The
   device layer must be reset in the parent first (no threads to lose). */
int hyb_t_isolated( const char* what, int ( *fn )( void* arg ), void* arg, int timeout_s );

#endif

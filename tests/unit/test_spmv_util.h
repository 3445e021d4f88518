/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the SpMV dispatch suites: test matrices, an independent reference
   product, the normalized error check, calls through the dispatcher, the simulated device. */
#ifndef TEST_SPMV_UTIL_H
#define TEST_SPMV_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch/hyb_spmv_device.h"
#include "hyb_types.h"

typedef enum
{
	TSP_RANDOM = 0, /* rows of 0 .. 2*mean entries at random columns (some rows empty) */
	TSP_BANDED,     /* quasi-diagonal: seven well-filled diagonals (TSP_SCATTER adds others) */
	TSP_POWER       /* power-law row lengths with a few very long rows */
} tsp_kind_t;

enum
{
	TSP_DUP      = 1, /* some entries repeated (MKL sums them) */
	TSP_UNSORTED = 2, /* COO entries in random order (else sorted by row) */
	TSP_EMPTY    = 4, /* a run of empty rows in the middle */
	TSP_SCATTER  = 8  /* banded: plus a few entries at random columns */
};

typedef struct
{
	int64_t    m, nnz;
	int        base;
	hyb_prec_t prec;
	int*       row; /* COO, with the base */
	int*       col;
	void*      val;
	int*       ia; /* CSR of the same entries (rows grouped, source order kept), with the base */
	int*       ja;
	void*      a;
} tsp_mat_t;

/* A deterministic test matrix (seed picks it). */
tsp_mat_t tsp_make( tsp_kind_t kind, int64_t m, int64_t mean, int base, hyb_prec_t prec, int flags,
                    uint64_t seed );
void      tsp_free( tsp_mat_t* A );
/* Rebuild the CSR arrays from the (changed) COO arrays, in place. */
void tsp_sync_csr( tsp_mat_t* A );

/* x of m random values in [-1, 1) of the matrix precision (malloc'ed). */
void* tsp_vec( const tsp_mat_t* A, uint64_t seed );
/* y filled with a NaN pattern (so that an unwritten element shows). */
void* tsp_out( const tsp_mat_t* A );

/* The normalized error of y against a serial double reference of op(A) x (the COO arrays):
   |y - y_ref|_inf / (L * eps * (|A||x|)_inf), L the longest row of op(A) counting
   duplicates, eps of the precision. An unwritten or non-finite y gives +inf. */
double tsp_err( const tsp_mat_t* A, char trans, const void* x, const void* y );

/* Call the dispatcher as mkl_cspblas_?coogemv / mkl_?coogemv (csr = 0) or the csrgemv
   routines (csr = 1), per A's base and precision. Returns the report. */
const hyb_spmv_report_t* tsp_call( const tsp_mat_t* A, int csr, char trans, const void* x,
                                   void* y );

/* One product op(A) x through tsp_call (x from `seed`), checked with tsp_err against
   TSP_TOL: a wrong y is printed and counted in *bad. Returns the report. */
const hyb_spmv_report_t* tsp_call_check( const tsp_mat_t* A, int csr, char trans, uint64_t seed,
                                         int* bad );

/* 1 when the report's reason contains `why`. */
int tsp_why( const hyb_spmv_report_t* r, const char* why );

/* Simulated device configuration with extra settings "NAME=VALUE;NAME=VALUE"; returns 0
   when the device is up. tsp_sim_end restores the process configuration. */
int  tsp_sim_begin( const char* extra );
void tsp_sim_end( void );

/* Force (active) with everything else automatic. */
hyb_spmv_force_t tsp_force( void );

/* The acceptance bound of the normalized error (STYLE.md: a small c). */
#define TSP_TOL 4.0

#endif

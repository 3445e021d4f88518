/* SPDX-License-Identifier: BSD-3-Clause */
/* The public hyblas header. Programs need nothing from it to be accelerated
   (hyblas intercepts the BLAS, LAPACK and MKL names they already call); it
   declares what libhyblas exports besides those names. The extension API for
   workloads that are not BLAS (DESIGN.md) will be declared here. */
#ifndef HYBLAS_EXT_H
#define HYBLAS_EXT_H

#ifdef __cplusplus
extern "C" {
#endif

/* "hyblas X.Y.Z": the version of the libhyblas in the process. */
const char* hyb_version( void );

/* How many calls of the intercepted name `routine` ("dgemm_", "cblas_dgemm",
   "dgtsv_", "mkl_cspblas_dcsrgemv", ...; the name the program called, not
   its alias) have run since the library loaded, by where they ran:
   counts[0] the CPU library (or hyblas's CPU kernel) alone, counts[1] the
   device alone, counts[2] the device and the CPU at once, counts[3] planned
   for the device and finished on the CPU after a device failure. A program
   or benchmark can read it before and after a stretch of calls to know what
   auto mode chose. Returns 0, or -1 (counts untouched) for a name hyblas
   does not intercept. Counting costs nothing measurable and is always on. */
int hyb_calls( const char* routine, unsigned long long counts[4] );

#ifdef __cplusplus
}
#endif

#endif

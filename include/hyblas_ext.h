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

#ifdef __cplusplus
}
#endif

#endif

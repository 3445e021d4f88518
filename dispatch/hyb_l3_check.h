/* SPDX-License-Identifier: BSD-3-Clause */
/* Level-3 argument semantics: validity as the reference BLAS checks it,
   cases best left to the CPU library, flop counts, row-major normalization. */
#ifndef HYB_L3_CHECK_H
#define HYB_L3_CHECK_H

#include "hyb_args.h"

/* 1 when the reference BLAS would accept the arguments (options, dimensions,
   leading dimensions; for cblas, the layout too). Invalid calls are
   forwarded unchanged so that the real library's xerbla reports them. */
int hyb_l3_valid( const hyb_l3_args_t* a );

/* The INFO the reference BLAS would hand to XERBLA: the position of the
   first invalid argument in the Fortran signature, checked in the
   reference's order (options, dimensions, leading dimensions), of the
   column-major call (a row-major cblas call is numbered as the column-major
   call it becomes, as OpenBLAS's CBLAS and reference CBLAS's Fortran checks
   do); 1 for an invalid cblas layout; 0 when valid. Pure. */
int hyb_l3_info( const hyb_l3_args_t* a );

/* The position (numbered as by hyb_l3_info) of the first INTEGER argument
   that a 32-bit INTEGER cannot hold, or 0 when all fit. Pure. */
int hyb_l3_wide_arg( const hyb_l3_args_t* a );

/* Turn a valid row-major cblas call into the column-major call computing the
   same result on the same memory (options flipped, operands swapped; her2k's
   alpha conjugated). No-op for column-major. */
void hyb_l3_normalize( hyb_l3_args_t* a );

/* 1 when the output is empty (m or n zero, n for the rank-k updates): the
   libraries return at once without reading alpha or beta. */
int hyb_l3_empty( const hyb_l3_args_t* a );

/* Read the scalars the caller passed by address (HYB_SCAL_*_REF) into
   alpha/beta, in the routine's precision, and clear those flags. Returns 0,
   changing nothing, when one of those addresses is NULL: what a library does
   with that is its own affair, so the call is forwarded as it came. Call it
   on a valid, non-empty call, before hyb_l3_normalize. */
int hyb_l3_scalars_load( hyb_l3_args_t* a );

/* 1 for calls with no products to compute (empty output, alpha = 0, k = 0):
   these keep the CPU library's exact quick-return and scaling semantics. */
int hyb_l3_trivial( const hyb_l3_args_t* a );

/* Real floating-point operations of the call (complex counted as 4 real
   multiplies and 4 real adds per complex multiply-add). */
double hyb_l3_flops( const hyb_l3_args_t* a );

/* Bytes of the operands and of the output a device path must move at least
   (A and B in, C in when beta != 0 or the op updates in place, C out). */
void hyb_l3_bytes( const hyb_l3_args_t* a, double* in, double* out );

#endif

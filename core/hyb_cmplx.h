/* SPDX-License-Identifier: BSD-3-Clause */
/* C11's CMPLX, which glibc's <complex.h> defines only for compilers that call themselves
   GCC 4.7 or later (clang does not, though it has the builtin). */
#ifndef HYB_CMPLX_H
#define HYB_CMPLX_H

#include <complex.h>

#ifndef CMPLX
#define CMPLX( re, im ) __builtin_complex( (double)( re ), (double)( im ) )
#endif

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The types of MKL's legacy sparse products (COO and CSR, double and single, LP64), for the
   test programs that find them at run time. */
#ifndef HYB_TEST_MKL_SPARSE_FNS_H
#define HYB_TEST_MKL_SPARSE_FNS_H

typedef void ( *dcoo_fn )( const char*, const int*, const double*, const int*, const int*,
                           const int*, const double*, double* );
typedef void ( *scoo_fn )( const char*, const int*, const float*, const int*, const int*,
                           const int*, const float*, float* );
typedef void ( *dcsr_fn )( const char*, const int*, const double*, const int*, const int*,
                           const double*, double* );
typedef void ( *scsr_fn )( const char*, const int*, const float*, const int*, const int*,
                           const float*, float* );

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Storage of the per-thread recursion depth (see hyb_guard.h). */
#include "hyb_guard.h"

__thread unsigned hyb_tls_depth __attribute__( ( tls_model( "initial-exec" ) ) ) = 0;

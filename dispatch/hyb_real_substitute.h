/* SPDX-License-Identifier: BSD-3-Clause */
/* The end of a call computed by another flavor of its routine, where the process has no
   symbol of the call's own name (an ILP64 name beside an LP64 library): what every family
   reports when that flavor could not compute it. */
#ifndef HYB_REAL_SUBSTITUTE_H
#define HYB_REAL_SUBSTITUTE_H

#include "dispatch/hyb_backend_real.h"
#include "hyb_log.h"
#include "hyb_routines.h"

/* Routine `id` went to its flavor `w` (-1: none) and got `st`. HYB_E_INVALID with wide > 0:
   w's INTEGERs cannot hold argument number `wide`, which is told to xerbla, as the reference
   reports an argument it cannot take, rather than returning with the output untouched;
   `lib` names the library an ILP64 HYBLAS_CPU_LIB should provide ("BLAS", "LAPACK"). Any
   other failure: the call had no effect, said once. */
static inline void hyb_real_substituted( hyb_routine_id_t id, hyb_routine_id_t w, hyb_status_t st,
                                         int wide, const char* lib )
{
	if ( st == HYB_E_INVALID && wide > 0 )
	{
		hyb_log_once(
		    hyb_hash_str( hyb_routine_info[id].name, 0x77696465 ), HYB_LOG_SILENT,
		    "error: %s: no library in the process provides it, and %s cannot hold argument %d; "
		    "reported to xerbla. Set HYBLAS_CPU_LIB to an ILP64 %s",
		    hyb_routine_info[id].name, hyb_routine_info[w].name, wide, lib );
		hyb_real_xerbla( id, wide );
	}
	else if ( st != HYB_OK )
		hyb_real_missing( id );
}

#endif

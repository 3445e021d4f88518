/* SPDX-License-Identifier: BSD-3-Clause */
/* The serial oracle of the stencil family (loops in hyb_stencil_oracle_body.h). */
#include "kernels/stencil/hyb_stencil_oracle.h"

#include <string.h>

#define HYB_STENCIL_BODY "kernels/stencil/hyb_stencil_oracle_body.h"
#include "kernels/stencil/hyb_stencil_types.h"

hyb_status_t hyb_stencil_oracle( const hyb_stencil_prob_t* p, int64_t steps, double* residual )
{
	if ( p == NULL || steps < 0 || hyb_stencil_nfields( p->kind ) == 0 ) return HYB_E_INVALID;
	const double gosa = p->elem == HYB_STENCIL_F64 ? o_run_f64( p, steps ) : o_run_f32( p, steps );
	if ( residual ) *residual = gosa;
	return HYB_OK;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* fork() handling: the shim installs the library's one fork protocol
   (core/hyb_state.h) at stage-1 init. */
#include "shim/hyb_shim.h"

#include "hyb_state.h"

void hyb_shim_fork_register( void )
{
	hyb_state_fork_install();
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The extension API's status for an internal one, where the internal status is the call's
   own answer: invalid input and host memory keep their meaning, anything else is an
   internal error. */
#ifndef HYB_EXT_STATUS_H
#define HYB_EXT_STATUS_H

#include "hyb_status.h"
#include "hyblas_ext.h"

static inline hyblas_status_t hyb_ext_status( hyb_status_t st )
{
	switch ( st )
	{
	case HYB_OK:
		return HYBLAS_OK;
	case HYB_E_INVALID:
		return HYBLAS_E_INVALID;
	case HYB_E_NO_MEMORY:
		return HYBLAS_E_NO_MEMORY;
	default:
		return HYBLAS_E_INTERNAL;
	}
}

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* Message and name tables for hyb_status_t. */
#include "hyb_status.h"

const char* hyb_status_string( hyb_status_t s )
{
	switch ( s )
	{
#define HYB_STATUS_MSG( name, value, msg )                                                         \
	case name:                                                                                     \
		return msg;
		HYB_STATUS_LIST( HYB_STATUS_MSG )
#undef HYB_STATUS_MSG
	}
	return "unknown status";
}

const char* hyb_status_name( hyb_status_t s )
{
	switch ( s )
	{
#define HYB_STATUS_NAME( name, value, msg )                                                        \
	case name:                                                                                     \
		return #name;
		HYB_STATUS_LIST( HYB_STATUS_NAME )
#undef HYB_STATUS_NAME
	}
	return "HYB_E_UNKNOWN";
}

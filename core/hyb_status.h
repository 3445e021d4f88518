/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal status codes shared by every layer, and their messages. */
#ifndef HYB_STATUS_H
#define HYB_STATUS_H

/* X-macro: code, value, message. Add new codes here only; the message table
   and the name table are generated from this list. */
#define HYB_STATUS_LIST( X )                                                                       \
	X( HYB_OK, 0, "success" )                                                                      \
	X( HYB_E_INVALID, -1, "invalid argument" )                                                     \
	X( HYB_E_NO_MEMORY, -2, "out of memory" )                                                      \
	X( HYB_E_DEVICE, -3, "device error" )                                                          \
	X( HYB_E_NOT_SUPPORTED, -4, "not supported by this backend" )                                  \
	X( HYB_E_NO_DEVICE, -5, "no device available" )                                                \
	X( HYB_E_NO_SYMBOL, -6, "real library symbol not found" )                                      \
	X( HYB_E_IO, -7, "input/output error" )                                                        \
	X( HYB_E_PARSE, -8, "parse error" )                                                            \
	X( HYB_E_AGAIN, -9, "not ready yet" )                                                          \
	X( HYB_E_INJECTED, -10, "injected fault" )                                                     \
	X( HYB_E_FORBIDDEN, -11, "device use forbidden in this process (after fork)" )                 \
	X( HYB_E_ABI, -12, "plugin ABI mismatch" )                                                     \
	X( HYB_E_TIMEOUT, -13, "time limit reached" )

typedef enum
{
#define HYB_STATUS_ENUM( name, value, msg ) name = value,
	HYB_STATUS_LIST( HYB_STATUS_ENUM )
#undef HYB_STATUS_ENUM
} hyb_status_t;

/* Number of distinct codes (for tests that walk the table). */
#define HYB_STATUS_COUNT 14

/* Human-readable message for a status; never NULL, thread-safe. */
const char* hyb_status_string( hyb_status_t s );

/* Symbolic name ("HYB_E_DEVICE"); never NULL, thread-safe. */
const char* hyb_status_name( hyb_status_t s );

#endif

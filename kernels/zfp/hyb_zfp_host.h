/* SPDX-License-Identifier: BSD-3-Clause */
/* The host implementation of the fixed-rate ZFP codec: fields to and from
   streams bit-identical to libzfp's, with the block codec the device runs,
   on OpenMP threads. */
#ifndef HYB_ZFP_HOST_H
#define HYB_ZFP_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"
#include "kernels/zfp/hyb_zfp_format.h"

#ifdef __cplusplus
extern "C"
{
#endif

/* Blocks per group: a group of 64 blocks begins on a word boundary whatever
   the block size, so groups can be coded independently (one thread, one
   device thread block) without sharing a word of the stream. */
#define HYB_ZFP_GROUP_BLOCKS 64u

	/* Encodes the field at `field` (value (0,0,0); see hyb_zfp_field_t for the
	   strides) at `rate` into `stream`, which holds stream_bytes >=
	   hyb_zfp_stream_bytes(f, rate) bytes and is 8-byte aligned; writes exactly
	   hyb_zfp_stream_bytes bytes, the bits libzfp 1.0.0 writes for the same field
	   and rate in fixed-rate mode (zero padding to the last byte included).
	   Returns HYB_E_INVALID (nothing written) for an invalid field or rate, a
	   NULL pointer with a nonempty field, a short or misaligned stream.
	   Thread-safe; runs on the calling thread's OpenMP team. */
	hyb_status_t hyb_zfp_host_encode( const hyb_zfp_field_t* f, double rate, const void* field,
	                                  void* stream, size_t stream_bytes );

	/* Decodes a stream written by hyb_zfp_host_encode (or libzfp, same field and
	   rate) into the field at `field`; only the field's values are written (a
	   strided field's gaps are untouched). Same checks and statuses. */
	hyb_status_t hyb_zfp_host_decode( const hyb_zfp_field_t* f, double rate, const void* stream,
	                                  size_t stream_bytes, void* field );

	/* The checks of both calls above, for callers that validate before queueing
	   work: HYB_OK or HYB_E_INVALID. */
	hyb_status_t hyb_zfp_host_check( const hyb_zfp_field_t* f, double rate, const void* field,
	                                 const void* stream, size_t stream_bytes );

#ifdef __cplusplus
}
#endif

#endif

/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU codec over libzfp (the CPU path of compression): the same calls
   and streams as the host codec, computed by the system's libzfp, which is
   opened on first use. Built when CMake finds libzfp; in a build without it,
   or where libzfp.so.1 cannot be opened, every call says HYB_E_NOT_SUPPORTED. */
#ifndef HYB_ZFP_CPU_H
#define HYB_ZFP_CPU_H

#include <stddef.h>

#include "hyb_status.h"
#include "kernels/zfp/hyb_zfp_format.h"

#ifdef __cplusplus
extern "C"
{
#endif

	/* 1 when the libzfp codec can run (this build has it and libzfp opened),
	   0 when it cannot. The first call opens libzfp; thread-safe. */
	int hyb_zfp_cpu_available( void );

	/* libzfp's version string ("zfp version 1.0.0 (August 1, 2022)"), or ""
	   without libzfp. */
	const char* hyb_zfp_cpu_version( void );

	/* Encodes as hyb_zfp_host_encode does (same arguments, checks, statuses and
	   stream bytes), with libzfp in fixed-rate mode (OpenMP compression). Also
	   HYB_E_NO_MEMORY when libzfp cannot allocate its stream objects (nothing
	   written), HYB_E_NOT_SUPPORTED without libzfp (nothing written) or when
	   libzfp would code
	   the field with other bits per block than hyb_zfp_block_bits (a libzfp
	   unlike 1.0's). Thread-safe. */
	hyb_status_t hyb_zfp_cpu_encode( const hyb_zfp_field_t* f, double rate, const void* field,
	                                 void* stream, size_t stream_bytes );

	/* Decodes as hyb_zfp_host_decode does, with libzfp (serially: libzfp 1.0
	   decompresses on one thread only). Same statuses as hyb_zfp_cpu_encode. */
	hyb_status_t hyb_zfp_cpu_decode( const hyb_zfp_field_t* f, double rate, const void* stream,
	                                 size_t stream_bytes, void* field );

#ifdef __cplusplus
}
#endif

#endif
